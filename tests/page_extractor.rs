//! `pith-page` on a real benchmark: streams scrapinghub-aeb (181 pages from 126 sites, one or two
//! pages each, so nothing but the page-level extractor can help) through the eval machinery and
//! checks the mean F1 against a floor.

use std::path::PathBuf;

use pith::classify::Method;
use pith::eval::report::summarize;
use pith::eval::run::{EvalOptions, run};
use pith::extract::Engine;

/// The mean LCS F1 `pith-page` must reach on scrapinghub-aeb: the value measured when the
/// extractor was written, less 0.01, rounded down. A floor that later work may raise, never lower.
const FLOOR_F1: f64 = 0.933;

/// The shared datasets: `$PITH_DATASETS`, else `../shared/datasets` beside the checkout, else
/// `../../shared/datasets` (a worktree one level further down).
fn datasets() -> PathBuf {
    if let Some(dir) = std::env::var_os("PITH_DATASETS") {
        return PathBuf::from(dir);
    }
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let near = manifest.join("../shared/datasets");
    if near.is_dir() {
        return near;
    }
    manifest.join("../../shared/datasets")
}

#[test]
fn pith_page_on_scrapinghub_aeb_keeps_its_floor() {
    let dir = datasets().join("scrapinghub-aeb");
    assert!(
        dir.join("manifest.jsonl").is_file(),
        "dataset scrapinghub-aeb not found at {}: set PITH_DATASETS to the directory holding it",
        dir.display()
    );
    let options = EvalOptions {
        methods: vec![Method::PithPage],
        out: None,
    };
    let evaluated = match run(&dir, &options, &Engine::default(), |_, _| {}) {
        Ok(r) => r,
        Err(e) => panic!("eval of {} failed: {e}", dir.display()),
    };
    assert_eq!(evaluated.pages, 181, "problems: {:?}", evaluated.problems);
    let summaries = summarize(&evaluated.results);
    let summary = summaries
        .iter()
        .find(|s| s.method == "pith-page")
        .unwrap_or_else(|| panic!("no pith-page row in {summaries:?}"));
    let f1 = summary.overall.f1;
    assert!(
        f1 >= FLOOR_F1,
        "pith-page mean F1 on scrapinghub-aeb fell to {f1:.4}, below the floor {FLOOR_F1}"
    );
    // No page may vanish on more than 2% of the pages.
    assert!(
        summary.overall.vanished * 50 < summary.overall.pages,
        "{} of {} pages vanished",
        summary.overall.vanished,
        summary.overall.pages
    );
}
