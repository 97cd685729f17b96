//! What every fuzz target checks, shared by the fuzz targets (`fuzz_targets/*.rs`) and by the
//! regression test that replays saved inputs under `cargo test` (`tests/fuzz_regressions.rs`), so
//! that a crash found by fuzzing is re-checked by exactly the code that found it.
//!
//! Each function takes arbitrary bytes and panics only when pith breaks a promise: a panic in the
//! parser itself, or a result over one of the bounds of `pith::limits`.

#![allow(dead_code)] // each fuzz target uses one function

use pith::limits;
use url::Url;

/// One target's check: arbitrary bytes in, a panic when pith breaks a promise.
pub type Check = fn(&[u8]);

/// The fuzz targets, by name: the directory names under `fuzz/corpus/` and `fuzz/regressions/`.
pub const TARGETS: &[(&str, Check)] = &[
    ("page_blocks", page_blocks),
    ("feed", feed),
    ("urlkey", urlkey),
    ("opml", opml),
    ("manifest", manifest),
];

/// Page bytes → decoded text → DOM → blocks → pith's page-level labels (the ingestion path).
pub fn page_blocks(data: &[u8]) {
    let base = Url::parse("https://www.example.com/news/2024/story.html").ok();
    let page = pith::page::parse_page(data, None, base.as_ref());
    assert!(
        page.blocks.len() <= limits::MAX_BLOCKS,
        "{} blocks",
        page.blocks.len()
    );
    assert!(
        page.dom.len() <= limits::MAX_NODES + 1,
        "{} nodes",
        page.dom.len()
    );
    for (i, block) in page.blocks.iter().enumerate() {
        assert_eq!(block.position as usize, i);
        assert!(block.text.chars().count() <= limits::MAX_BLOCK_CHARS);
        assert!(page.dom.depth(block.node) <= limits::MAX_DEPTH + 1);
    }
    let labels = pith::classify::page_level::classify(&page);
    assert_eq!(labels.len(), page.blocks.len());
}

/// Feed bytes (RSS, Atom, JSON Feed, or anything) → entries.
pub fn feed(data: &[u8]) {
    if let Ok(feed) = pith::feeds::parse_feed(data, Some("https://example.com/feed.xml"), None) {
        assert!(feed.entries.len() <= limits::MAX_ENTRIES_PER_FEED);
    }
    let _ = pith::feeds::looks_like_feed(data);
    if let Ok(base) = Url::parse("https://example.com/") {
        let _ = pith::feeds::discover_feeds(data, None, &base);
    }
}

/// `URL \n title` → URL key and branch, with the built-in query rules.
pub fn urlkey(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (url, title) = match text.split_once('\n') {
        Some((url, title)) => (url, Some(title)),
        None => (text.as_ref(), None),
    };
    let rules = rules();
    if let Ok(key) = pith::urlkey::url_key(url, title, rules) {
        assert!(!key.branch().is_empty());
    }
    let _ = pith::urlkey::canonicalize(url, title);
    let _ = pith::urlkey::registrable_domain(url);
}

fn rules() -> &'static pith::urlkey::QueryRules {
    static RULES: std::sync::OnceLock<pith::urlkey::QueryRules> = std::sync::OnceLock::new();
    RULES.get_or_init(pith::urlkey::QueryRules::builtin)
}

/// OPML bytes → the subscriptions `pith import` would add.
pub fn opml(data: &[u8]) {
    if let Ok(feeds) = pith::feeds::parse_opml(data) {
        for feed in &feeds {
            assert!(!feed.url.trim().is_empty());
        }
    }
}

/// `manifest.jsonl` bytes → the pages `pith eval` would stream; no path may leave the dataset.
pub fn manifest(data: &[u8]) {
    let dir = std::path::Path::new("/nonexistent/dataset");
    let manifest = pith::eval::dataset::parse_manifest(dir, data);
    for page in &manifest.pages {
        assert!(page.html.starts_with(dir), "{}", page.html.display());
        assert!(page.gold.starts_with(dir), "{}", page.gold.display());
    }
}
