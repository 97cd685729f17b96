//! Replays every input the fuzzers found a problem with (`fuzz/regressions/<target>/*`) and the
//! committed seed corpus (`fuzz/corpus/<target>/*`) through the very checks the fuzz targets run
//! (`fuzz/check.rs`), so that `cargo test` keeps fixed crashes fixed without cargo-fuzz.

#[path = "../fuzz/check.rs"]
mod check;

use std::path::Path;

/// Replays every file under `fuzz/<dir>/<target>/` through its target's check; the number
/// replayed per target, in [`check::TARGETS`] order (0 where a target has no folder).
fn replay(dir: &str) -> Vec<(&'static str, usize)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz").join(dir);
    assert!(root.is_dir(), "{} is missing", root.display());
    let mut counts = Vec::new();
    for (target, run) in check::TARGETS {
        let mut count = 0;
        if let Ok(entries) = std::fs::read_dir(root.join(target)) {
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
        counts.push((*target, count));
    }
    counts
}

/// Files under `fuzz/<dir>/`, at any depth: what a replay must have read.
fn files_under(dir: &str) -> usize {
    fn walk(path: &Path) -> usize {
        std::fs::read_dir(path).map_or(0, |entries| {
            entries
                .map(|e| e.unwrap().path())
                .map(|p| if p.is_dir() { walk(&p) } else { 1 })
                .sum()
        })
    }
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz").join(dir))
}

#[test]
fn fixed_fuzz_findings_stay_fixed() {
    let counts = replay("regressions");
    let replayed: usize = counts.iter().map(|(_, n)| n).sum();
    // Every file kept as a regression is replayed: one in a folder no target reads (a renamed
    // target) would otherwise be skipped without a word.
    assert_eq!(replayed, files_under("regressions"), "{counts:?}");
    assert!(
        replayed > 0,
        "the regressions folder holds the fixed findings"
    );
}

#[test]
fn the_seed_corpus_passes_the_checks() {
    let counts = replay("corpus");
    for (target, n) in &counts {
        assert!(*n > 0, "no committed corpus for {target}: {counts:?}");
    }
    assert_eq!(
        counts.iter().map(|(_, n)| n).sum::<usize>(),
        files_under("corpus"),
        "{counts:?}"
    );
}
