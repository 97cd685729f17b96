//! Shared helpers for the integration tests.

#![allow(dead_code)] // each test binary uses its own subset

pub mod server;
#[cfg(feature = "window")]
pub mod window_fixture;
#[cfg(feature = "window")]
pub mod window_harness;

use std::path::{Path, PathBuf};
use std::process::Command;

use pith::classify::Method;
use pith::eval::report::{self, MethodSummary, PageResult};
use pith::eval::run::{self, EvalOptions, Mode};
use pith::extract::Engine;

/// The shared datasets, found by the library's one rule ([`pith::eval::dataset::datasets_dir`]).
pub fn datasets_dir() -> PathBuf {
    pith::eval::dataset::datasets_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .expect("the shared datasets are missing (set PITH_DATASETS or PITH_SHARED)")
}

/// Streams one dataset through the engine with `methods` and returns every page's result.
pub fn run_results(dataset: &str, methods: &[&str], mode: Mode) -> Vec<PageResult> {
    let methods = methods
        .iter()
        .map(|m| Method::parse(m).expect("method name"))
        .collect();
    let options = EvalOptions {
        methods,
        out: None,
        mode,
        peers: Vec::new(),
        unnamed: false,
    };
    let run = run::run(
        &datasets_dir().join(dataset),
        &options,
        &Engine::default(),
        |_, _| {},
    )
    .expect("eval runs");
    assert!(run.problems.is_empty(), "problems: {:?}", run.problems);
    run.results
}

/// Streams one dataset through the engine with `methods` and returns one summary per method.
pub fn evaluate(dataset: &str, methods: &[&str], mode: Mode) -> Vec<MethodSummary> {
    report::summarize(&run_results(dataset, methods, mode))
}

/// Asserts that each method's mean F1 is at least its floor, printing the measured values.
pub fn assert_floors(dataset: &str, mode: Mode, floors: &[(&str, f64)]) {
    let names: Vec<&str> = floors.iter().map(|(m, _)| *m).collect();
    let summaries = evaluate(dataset, &names, mode);
    for (method, floor) in floors {
        let summary = summaries
            .iter()
            .find(|s| s.method == *method)
            .unwrap_or_else(|| panic!("no result for {method}"));
        let f1 = summary.overall.f1;
        println!("{dataset} {mode:?} {method}: F1 {f1:.4} (floor {floor})");
        assert!(
            f1 >= *floor,
            "{dataset} {method}: mean F1 {f1:.4} fell below its floor {floor}"
        );
    }
}

/// The shared folder (datasets, corpora), found by the library's one rule
/// ([`pith::eval::dataset::shared_dir`]).
pub fn shared_dir() -> PathBuf {
    pith::eval::dataset::shared_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .expect("the shared folder is missing (set PITH_SHARED)")
}

/// The output of one run of the real binary.
pub struct Run {
    pub ok: bool,
    pub stdout: String,
    pub stderr: String,
}

/// A `pith` command on the database `db`, fetching from the loopback address only.
pub fn pith_cmd(db: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pith"));
    cmd.arg("--db")
        .arg(db)
        .args(args)
        .env("PITH_LOOPBACK_ONLY", "1")
        .env_remove("PITH_DB")
        .env(
            "XDG_CONFIG_HOME",
            db.parent().unwrap_or(Path::new("/nonexistent")),
        );
    cmd
}

/// A run that must succeed: its standard output, or a failure showing both outputs.
pub fn must(run: Run, what: &str) -> String {
    assert!(
        run.ok,
        "{what} failed:\nstdout: {}\nstderr: {}",
        run.stdout, run.stderr
    );
    run.stdout
}

/// Runs `pith` to completion.
pub fn pith(db: &Path, args: &[&str]) -> Run {
    let out = pith_cmd(db, args).output().expect("run pith");
    Run {
        ok: out.status.success(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}
