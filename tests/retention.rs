//! Retention through the real binary and a loopback feed (issue 15): an article whose raw page
//! is gone reads the same from its record (`pith read`); items deleted by retention do not come
//! back as new while their feed still lists them, and their tombstones go once it does not;
//! `pith stats`, `pith retention` and `pith cleanup` say what they should. Time is not waited
//! for: the sweep is run through the library at a clock a month ahead.

mod common;

use common::server::{Reply, Server};
use common::{must, pith};
use pith::store::{ItemFilter, Retention, Store, SweepLimits};
use pith::urltree::HistoryWindow;

fn feed_of(server: &Server, numbers: &[usize]) -> Reply {
    let items: Vec<(String, String, String)> = numbers
        .iter()
        .map(|n| {
            (
                format!("Story {n}"),
                server.url(&format!("/news/story-{n}.html")),
                format!("Summary of story {n}."),
            )
        })
        .collect();
    Reply::ok(
        "application/rss+xml",
        common::server::rss("Loopback Gazette", &items),
    )
}

fn serve_stories(server: &Server, numbers: impl IntoIterator<Item = usize>) {
    for n in numbers {
        let words = [
            "granite", "harbour", "lantern", "meadow", "orchard", "quarry",
        ];
        let p1 = format!(
            "The {} report number {n} describes how the town council met on a cold evening to discuss the repairs.",
            words[n % words.len()]
        );
        let p2 = format!(
            "Residents of district {n} asked for longer opening hours at the library and a new bus line to the station."
        );
        server.routes.set(
            &format!("/news/story-{n}.html"),
            Reply::ok(
                "text/html; charset=utf-8",
                common::server::article(&format!("Story {n}"), &[&p1, &p2], None),
            ),
        );
    }
}

fn ids(db: &std::path::Path) -> Vec<i64> {
    let store = Store::open(db).unwrap();
    store
        .items(&ItemFilter::default())
        .unwrap()
        .into_iter()
        .map(|i| i.id)
        .collect()
}

#[test]
fn a_kept_article_reads_the_same_without_its_page_and_deleted_entries_stay_gone() {
    let server = Server::start();
    serve_stories(&server, 1..=4);
    server.routes.set("/feed.xml", feed_of(&server, &[1, 2, 3]));
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pith.db");
    must(pith(&db, &["add", &server.url("/feed.xml")]), "add");
    let items = ids(&db);
    assert_eq!(items.len(), 3);

    // The raw page goes; `pith read` gives the same article from the record.
    let id = items[0].to_string();
    let before = must(pith(&db, &["read", &id]), "read with the page");
    assert!(before.contains("town council"), "{before}");
    {
        let mut store = Store::open(&db).unwrap();
        assert!(store.page_drop(items[0]).unwrap());
        assert!(store.item_page(items[0]).unwrap().is_none());
    }
    let after = must(pith(&db, &["read", &id]), "read from the record");
    assert_eq!(after, before);
    // Still found by its words, with its passage cut from the record (the index keeps no text).
    let found = must(pith(&db, &["search", "library", "district"]), "search");
    assert_eq!(found.lines().count(), 6, "{found}");
    assert!(found.contains("Story 1\n"), "{found}");
    assert!(found.contains("Residents of [district] 1 asked"), "{found}");

    let stats = must(pith(&db, &["stats"]), "stats");
    assert!(
        stats.contains(
            "items: 3 (2 unread, 0 starred); 2 with their raw page, 1 read from their record alone"
        ),
        "{stats}"
    );
    for part in [
        "raw pages",
        "records",
        "full-text index",
        "URL Tree",
        "free pages",
        "dbstat",
    ] {
        assert!(stats.contains(part), "no {part:?} in:\n{stats}");
    }
    assert!(stats.contains("read items go after 30 days, unread items after 90 days"));

    // Everything read, then a month passes: retention deletes the three items.
    must(pith(&db, &["mark-read", "--all"]), "mark-read");
    {
        let mut store = Store::open(&db).unwrap();
        let month = pith::refresh::unix_now() + 31 * 86_400;
        let swept = store
            .retention_sweep(
                &Retention::DEFAULT,
                &HistoryWindow::default(),
                month,
                &SweepLimits::default(),
            )
            .unwrap();
        assert_eq!(swept.items_deleted, 3);
    }
    assert!(ids(&db).is_empty());
    let found = must(pith(&db, &["search", "council"]), "search");
    assert!(found.starts_with("nothing matches"), "{found}");

    // The feed still lists them: nothing comes back, nothing is fetched again.
    server.routes.clear_log();
    let out = must(pith(&db, &["refresh"]), "refresh");
    assert!(out.contains(": 0 new items,"), "{out}");
    assert!(ids(&db).is_empty());
    assert!(server.routes.hits("/news/story-1.html").is_empty());
    let stats = must(pith(&db, &["stats"]), "stats");
    assert!(
        stats.contains("3 feed entries kept after their item went"),
        "{stats}"
    );

    // Once the feed lists other entries, the tombstones go and the new entry arrives.
    server.routes.set("/feed.xml", feed_of(&server, &[4]));
    let out = must(pith(&db, &["refresh"]), "refresh");
    assert!(out.contains(": 1 new items,"), "{out}");
    assert_eq!(ids(&db).len(), 1);
    let stats = must(pith(&db, &["stats"]), "stats");
    assert!(
        stats.contains("0 feed entries kept after their item went"),
        "{stats}"
    );
}

#[test]
fn retention_periods_are_set_shown_and_applied_by_cleanup() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pith.db");
    let shown = must(pith(&db, &["retention"]), "retention");
    assert!(shown.starts_with("read items go after 30 days, unread items after 90 days"));
    let set = must(
        pith(
            &db,
            &["retention", "--read-days", "7", "--unread-days", "0"],
        ),
        "retention set",
    );
    assert!(
        set.starts_with("read items go after 7 days, unread items never"),
        "{set}"
    );
    let shown = must(pith(&db, &["retention"]), "retention");
    assert_eq!(shown, set);
    let store = Store::open(&db).unwrap();
    assert_eq!(
        store.retention().unwrap(),
        Retention {
            read_days: 7,
            unread_days: 0
        }
    );
    drop(store);
    // Out of range: refused, nothing stored.
    assert!(!pith(&db, &["retention", "--read-days", "-3"]).ok);
    assert!(!pith(&db, &["retention", "--read-days", "40000"]).ok);
    let cleanup = must(pith(&db, &["cleanup", "--vacuum"]), "cleanup");
    assert!(
        cleanup.starts_with("deleted 0 items past their period, dropped 0 raw pages"),
        "{cleanup}"
    );
    assert!(cleanup.contains("took 0 documents"), "{cleanup}");
}
