//! Crash safety: the real binary refreshes from a slow loopback server and is killed with SIGKILL
//! at 20 random (seeded) points of its work. Each time the database must open, pass `PRAGMA
//! integrity_check`, keep every item committed before the kill and a consistent URL Tree; the
//! refresh after the last kill completes with every entry stored exactly once.

mod common;

use std::collections::HashSet;
use std::time::{Duration, Instant};

use common::pith_cmd;
use common::server::{Reply, Server, article, rss};
use pith::store::{ItemFilter, Store};

const FEEDS: usize = 4;
const ENTRIES: usize = 15;
/// How many times a refresh is killed.
const KILLS: usize = 20;

/// A small seeded generator (SplitMix64): the kill points are random but reproducible.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

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

    // Kill points, from a seeded generator so that a failure can be replayed
    // (`PITH_CRASH_SEED=N cargo test --test feeds_crash`): half after a random delay from the
    // start (while feeds are fetched, pages go into the tree, items are stored), half after a
    // random number of newly committed rows (tree documents and items).
    let seed = std::env::var("PITH_CRASH_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x005e_ed0f_5ea1_u64);
    let mut rng = SplitMix(seed);
    println!("kill points from seed {seed}");
    let mut kills = 0;
    let mut finished_early = 0;
    for point in 0..KILLS {
        let (before_ids, before_docs) = snapshot(&db);
        let before = before_ids.len() + usize::try_from(before_docs).unwrap();
        let by_delay = point % 2 == 0;
        let delay = Duration::from_millis(rng.below(900));
        let rows = 1 + usize::try_from(rng.below(6)).unwrap();
        let name = if by_delay {
            format!("kill {point}: {} ms after the start", delay.as_millis())
        } else {
            format!("kill {point}: after {rows} more committed rows")
        };
        let mut child = pith_cmd(&db, &["refresh", "--jobs", "3"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let started = Instant::now();
        let mut committed = before_ids.clone();
        let mut exited = false;
        loop {
            if by_delay {
                if started.elapsed() >= delay {
                    break;
                }
            } else {
                let (ids, docs) = snapshot(&db);
                let now = ids.len() + usize::try_from(docs).unwrap();
                committed = ids;
                if now >= before + rows {
                    break;
                }
            }
            if child.try_wait().unwrap().is_some() {
                exited = true;
                break;
            }
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "{name}: never reached"
            );
            std::thread::sleep(Duration::from_millis(2));
        }
        if exited {
            // The refresh completed before this point: nothing left to interrupt.
            finished_early += 1;
            println!("{name}: the refresh had already finished");
            check_sound(&db, &committed, &name);
            break;
        }
        // Whatever committed up to the kill must survive it.
        let (committed, docs) = snapshot(&db);
        child.kill().unwrap(); // SIGKILL on Unix
        let status = child.wait().unwrap();
        if status.success() {
            // The refresh commits its last batch just before it exits: a point reached by that
            // commit can find the process already done. Nothing was left to interrupt.
            finished_early += 1;
            println!("{name}: the refresh finished as the point was reached");
            check_sound(&db, &committed, &name);
            break;
        }
        kills += 1;
        println!(
            "{name}: {} items and {docs} tree documents committed before",
            committed.len()
        );
        check_sound(&db, &committed, &name);
    }
    println!("{kills} kills, {finished_early} refreshes finished before their kill point");
    assert!(
        kills >= KILLS * 3 / 4,
        "only {kills} of {KILLS} kills landed inside a refresh"
    );

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
