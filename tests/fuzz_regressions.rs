//! Replays every input the fuzzers found a problem with (`fuzz/regressions/<target>/*`) and the
//! committed seed corpus (`fuzz/corpus/<target>/*`) through the very checks the fuzz targets run
//! (`fuzz/check.rs`), so that `cargo test` keeps fixed crashes fixed without cargo-fuzz.

#[path = "../fuzz/check.rs"]
mod check;

use std::path::Path;

fn replay(dir: &str) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz").join(dir);
    let mut count = 0;
    for (target, run) in check::TARGETS {
        let Ok(entries) = std::fs::read_dir(root.join(target)) else {
            continue;
        };
        let mut files: Vec<_> = entries.map(|e| e.unwrap().path()).collect();
        files.sort();
        for file in files.iter().filter(|f| f.is_file()) {
            let data = std::fs::read(file).unwrap();
            // A panic names the file, so that the failing input can be looked at directly.
            let result = std::panic::catch_unwind(|| run(&data));
            assert!(result.is_ok(), "{target}: {} fails again", file.display());
            count += 1;
        }
    }
    count
}

#[test]
fn fixed_fuzz_findings_stay_fixed() {
    let n = replay("regressions");
    println!("{n} regression inputs replayed");
}

#[test]
fn the_seed_corpus_passes_the_checks() {
    let n = replay("corpus");
    println!("{n} corpus inputs replayed");
    assert!(n > 0, "the committed corpus is missing");
}
