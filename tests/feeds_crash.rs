//! Crash safety: the real binary refreshes from a slow loopback server and is killed with SIGKILL
//! at several points of its work. Each time the database must open, pass `PRAGMA
//! integrity_check`, keep every item committed before the kill and a consistent URL Tree; the
//! refresh after the last kill completes with every entry stored exactly once.

mod common;

use std::collections::HashSet;
use std::time::{Duration, Instant};

use common::pith_cmd;
use common::server::{Reply, Server, article, rss};
use pith::store::{ItemFilter, Store};

const FEEDS: usize = 3;
const ENTRIES: usize = 10;

fn snapshot(db: &std::path::Path) -> (HashSet<i64>, i64) {
    let store = Store::open(db).unwrap();
    let ids = store
        .items(&ItemFilter::default())
        .unwrap()
        .into_iter()
        .map(|i| i.id)
        .collect();
    let docs = store.tree_doc_count("127.0.0.1").unwrap();
    (ids, i64::from(docs))
}

fn check_sound(db: &std::path::Path, before: &HashSet<i64>, when: &str) {
    let store = Store::open(db).unwrap_or_else(|e| panic!("{when}: database does not open: {e}"));
    assert_eq!(store.integrity_check().unwrap(), "ok", "{when}");
    assert!(
        store.tree_consistency_errors().unwrap().is_empty(),
        "{when}: URL Tree counters drifted"
    );
    let now: HashSet<i64> = store
        .items(&ItemFilter::default())
        .unwrap()
        .into_iter()
        .map(|i| i.id)
        .collect();
    assert!(before.is_subset(&now), "{when}: committed items were lost");
}

#[test]
fn sigkill_mid_refresh_loses_nothing_and_duplicates_nothing() {
    let server = Server::start();
    let r = &server.routes;
    let mut opml = String::from("<opml version=\"2.0\"><head/><body>");
    for f in 0..FEEDS {
        let items: Vec<(String, String, String)> = (0..ENTRIES)
            .map(|e| {
                let path = format!("/f{f}/story{e}.html");
                let words =
                    format!("Feed {f} story {e} reports on topic{f}x{e} at length, with detail.");
                r.set(
                    &path,
                    Reply::ok(
                        "text/html",
                        article(
                            &format!("F{f} S{e}"),
                            &[&words, "A second paragraph."],
                            None,
                        ),
                    )
                    .delayed(Duration::from_millis(120)),
                );
                (
                    format!("F{f} S{e}"),
                    server.url(&path),
                    format!("summary {f} {e}"),
                )
            })
            .collect();
        let feed_path = format!("/feed{f}.xml");
        r.set(
            &feed_path,
            Reply::ok("application/rss+xml", rss(&format!("Feed {f}"), &items)),
        );
        opml.push_str(&format!(
            "<outline text=\"f{f}\" xmlUrl=\"{}\"/>",
            server.url(&feed_path)
        ));
    }
    opml.push_str("</body></opml>");
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pith.db");
    let opml_path = dir.path().join("f.opml");
    std::fs::write(&opml_path, opml).unwrap();
    assert!(common::pith(&db, &["import", opml_path.to_str().unwrap()]).ok);

    // Kill points: while pages are going into the tree (no item yet), while a feed's items are
    // being stored, and later in the run.
    type Point = (&'static str, fn(usize, i64) -> bool);
    let points: [Point; 3] = [
        ("after 3 tree documents", |_, docs| docs >= 3),
        ("after the first item", |items, _| items >= 1),
        ("after 15 items", |items, _| items >= 15),
    ];
    for (name, reached) in points {
        let (before_ids, before_docs) = snapshot(&db);
        let mut child = pith_cmd(&db, &["refresh", "--jobs", "3"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let started = Instant::now();
        let before = before_ids.len() + usize::try_from(before_docs).unwrap();
        let committed = loop {
            let (ids, docs) = snapshot(&db);
            if reached(ids.len(), docs) && ids.len() + usize::try_from(docs).unwrap() > before {
                break ids;
            }
            if child.try_wait().unwrap().is_some() {
                panic!("{name}: the refresh finished before the kill point");
            }
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "{name}: never reached"
            );
            std::thread::sleep(Duration::from_millis(5));
        };
        child.kill().unwrap(); // SIGKILL on Unix
        let status = child.wait().unwrap();
        assert!(!status.success(), "{name}: the process was not killed");
        println!("killed {name}: {} items committed before", committed.len());
        check_sound(&db, &committed, name);
    }

    let run = common::pith(&db, &["refresh", "--jobs", "3"]);
    assert!(run.ok, "{}", run.stderr);
    let store = Store::open(&db).unwrap();
    assert_eq!(store.integrity_check().unwrap(), "ok");
    assert!(store.tree_consistency_errors().unwrap().is_empty());
    let items = store.items(&ItemFilter::default()).unwrap();
    let links: HashSet<&str> = items.iter().map(|i| i.link.as_str()).collect();
    assert_eq!(items.len(), FEEDS * ENTRIES, "items: {}", items.len());
    assert_eq!(links.len(), items.len(), "an item was stored twice");
    assert!(items.iter().all(|i| i.fetch_error.is_none()));
    assert_eq!(
        store.tree_doc_count("127.0.0.1").unwrap() as usize,
        FEEDS * ENTRIES
    );
    let (_, entries, pages) = store.item_counts().unwrap();
    assert_eq!(entries as usize, FEEDS * ENTRIES);
    assert_eq!(pages as usize, FEEDS * ENTRIES);
    for feed in store.feeds().unwrap() {
        assert!(feed.last_error.is_none(), "{feed:?}");
        assert_eq!(feed.items as usize, ENTRIES);
    }
}
