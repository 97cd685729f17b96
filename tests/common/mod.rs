//! Shared helpers for the integration tests.

#![allow(dead_code)] // each test binary uses its own subset

use std::path::PathBuf;

use pith::classify::Method;
use pith::eval::report::{self, MethodSummary, PageResult};
use pith::eval::run::{self, EvalOptions, Mode};
use pith::extract::Engine;

/// The shared datasets: `$PITH_DATASETS`, else `../shared/datasets` beside the checkout (CI's layout),
/// else one level further up (a git worktree).
pub fn datasets_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("PITH_DATASETS") {
        return PathBuf::from(dir);
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let candidates = [
        root.join("../shared/datasets"),
        root.join("../../shared/datasets"),
    ];
    candidates
        .iter()
        .find(|d| d.is_dir())
        .cloned()
        .unwrap_or_else(|| {
            panic!("the shared datasets are missing (set PITH_DATASETS); looked in {candidates:?}")
        })
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
