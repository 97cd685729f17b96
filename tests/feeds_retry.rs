//! A page that failed is fetched again by later refreshes while its feed still lists the entry, at
//! most `limits::MAX_PAGE_ATTEMPTS` times in all; a retry that succeeds completes the same item
//! (same id, read and starred flags kept) instead of adding one.

mod common;

use common::server::{Reply, Server, article, rss};
use common::{must, pith};
use pith::limits::MAX_PAGE_ATTEMPTS;
use pith::store::{ItemFilter, ItemInfo, Store};

fn items(db: &std::path::Path) -> Vec<ItemInfo> {
    let mut items = Store::open(db)
        .unwrap()
        .items(&ItemFilter::default())
        .unwrap();
    items.sort_by_key(|i| i.link.clone());
    items
}

#[test]
fn a_failed_page_is_fetched_again_and_completes_its_item() {
    let server = Server::start();
    let r = &server.routes;
    let flaky = "/news/flaky-story.html";
    let broken = "/news/broken-story.html";
    let entries = vec![
        (
            "Flaky story".to_string(),
            server.url(flaky),
            "The flaky story's summary.".to_string(),
        ),
        (
            "Broken story".to_string(),
            server.url(broken),
            "The broken story's summary.".to_string(),
        ),
    ];
    r.set(
        "/feed.xml",
        Reply::ok("application/rss+xml", rss("News", &entries)),
    );
    r.set(flaky, Reply::status(503));
    r.set(broken, Reply::status(500));

    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pith.db");
    must(pith(&db, &["add", &server.url("/feed.xml")]), "add");
    must(pith(&db, &["refresh"]), "first refresh");
    let first = items(&db);
    assert_eq!(first.len(), 2);
    assert!(first.iter().all(|i| i.fetch_error.is_some()), "{first:?}");
    let flaky_id = first[1].id;
    assert!(first[1].link.ends_with(flaky));
    must(pith(&db, &["star", &flaky_id.to_string()]), "star");

    // The server recovers for one page: the next refresh completes that item.
    r.set(
        flaky,
        Reply::ok(
            "text/html",
            article(
                "Flaky story",
                &["The flaky story came back with its whole text about lighthouse keepers."],
                None,
            ),
        ),
    );
    must(pith(&db, &["refresh"]), "second refresh");
    let flaky_hits = r.hits(flaky).len();
    let second = items(&db);
    assert_eq!(second.len(), 2, "no item added: {second:?}");
    let flaky_item = second.iter().find(|i| i.id == flaky_id).unwrap();
    assert_eq!(flaky_item.fetch_error, None);
    assert!(flaky_item.url_key.is_some());
    assert!(flaky_item.starred, "flags survive the retry");
    let read = must(pith(&db, &["read", &flaky_id.to_string()]), "read");
    assert!(read.contains("lighthouse keepers"), "{read}");
    let found = must(pith(&db, &["search", "lighthouse"]), "search");
    assert!(found.contains("Flaky story"), "{found}");

    // The broken page is asked for MAX_PAGE_ATTEMPTS times in all, then left alone.
    for _ in 0..3 {
        must(pith(&db, &["refresh"]), "later refresh");
    }
    assert_eq!(r.hits(broken).len(), MAX_PAGE_ATTEMPTS as usize);
    assert_eq!(
        r.hits(flaky).len(),
        flaky_hits,
        "a completed page is not fetched again"
    );
    let last = items(&db);
    assert_eq!(last.len(), 2);
    let broken_item = last.iter().find(|i| i.link.ends_with(broken)).unwrap();
    assert!(broken_item.fetch_error.is_some());
    assert_eq!(
        broken_item.summary.as_deref(),
        Some("The broken story's summary.")
    );
}

#[test]
fn a_failed_page_is_retried_while_its_feed_answers_not_modified() {
    let server = Server::start();
    let r = &server.routes;
    let story = "/news/late-story.html";
    let entries = vec![(
        "Late story".to_string(),
        server.url(story),
        "The late story's summary.".to_string(),
    )];
    let feed = rss("News", &entries);
    // The feed never changes, and answers a conditional request with 304, as servers do.
    r.handle("/feed.xml", move |seen| {
        if seen.conditional() {
            Reply::status(304)
        } else {
            Reply::ok("application/rss+xml", feed.clone()).header("ETag", "\"v1\"")
        }
    });
    r.set(story, Reply::status(503));
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pith.db");
    must(pith(&db, &["add", &server.url("/feed.xml")]), "add");
    assert!(items(&db)[0].fetch_error.is_some());

    r.set(
        story,
        Reply::ok(
            "text/html",
            article(
                "Late story",
                &["The late story arrived at last, with its whole text about tide tables."],
                None,
            ),
        ),
    );
    must(pith(&db, &["refresh"]), "refresh");
    let item = &items(&db)[0];
    assert_eq!(item.fetch_error, None, "{item:?}");
    let read = must(pith(&db, &["read", &item.id.to_string()]), "read");
    assert!(read.contains("tide tables"), "{read}");
    // With nothing left to retry, the feed is asked conditionally again.
    r.clear_log();
    must(pith(&db, &["refresh"]), "refresh with nothing to retry");
    let asked = r.hits("/feed.xml");
    assert_eq!(asked.len(), 1);
    assert!(asked[0].conditional(), "{:?}", asked[0].headers);
}

#[test]
fn a_failed_page_whose_entry_left_the_feed_no_longer_keeps_the_feed_unconditional() {
    let server = Server::start();
    let r = &server.routes;
    let gone = "/news/gone-story.html";
    let kept = "/news/kept-story.html";
    r.set(gone, Reply::status(503));
    r.set(
        kept,
        Reply::ok(
            "text/html",
            article(
                "Kept story",
                &["The kept story has its whole text about harbour seals."],
                None,
            ),
        ),
    );
    let entry = |title: &str, path: &str| {
        (
            title.to_string(),
            server.url(path),
            format!("{title}'s summary."),
        )
    };
    let before = rss("News", &[entry("Gone story", gone)]);
    let after = rss("News", &[entry("Kept story", kept)]);
    let version = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(1));
    let v = std::sync::Arc::clone(&version);
    r.handle("/feed.xml", move |seen| {
        let now = v.load(std::sync::atomic::Ordering::SeqCst);
        let etag = format!("\"v{now}\"");
        if seen.headers.get("if-none-match") == Some(&etag) {
            return Reply::status(304);
        }
        let body = if now == 1 {
            before.clone()
        } else {
            after.clone()
        };
        Reply::ok("application/rss+xml", body).header("ETag", &etag)
    });
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pith.db");
    must(pith(&db, &["add", &server.url("/feed.xml")]), "add");
    assert!(items(&db)[0].fetch_error.is_some());

    // The failed entry leaves the feed: this refresh asks for the feed whole (a retry was
    // pending), finds the entry gone, and ends its retries.
    version.store(2, std::sync::atomic::Ordering::SeqCst);
    must(pith(&db, &["refresh"]), "refresh");
    assert_eq!(items(&db).len(), 2);
    // From now on the feed is asked conditionally.
    r.clear_log();
    must(pith(&db, &["refresh"]), "refresh");
    let asked = r.hits("/feed.xml");
    assert_eq!(asked.len(), 1);
    assert!(asked[0].conditional(), "{:?}", asked[0].headers);
    assert!(
        r.hits(gone).is_empty(),
        "the gone page is not fetched again"
    );
}
