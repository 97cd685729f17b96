//! Crash safety: the real binary refreshes from a loopback server and is killed with SIGKILL 20
//! times, each time once the database shows a (seeded, random) number of newly committed rows, so
//! every kill lands inside a refresh, never after a guessed delay. The server holds back the pages
//! it has never served beyond a small allowance per refresh, so a refresh can never run out of
//! work before its kill point, however slow or fast the machine. After each kill the database must
//! open, pass `PRAGMA integrity_check`, keep every item committed before the kill and a consistent
//! URL Tree; the refresh after the last kill completes with every entry stored exactly once.

mod common;

use std::collections::HashSet;
use std::path::Path;
use std::process::Stdio;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use common::pith_cmd;
use common::server::{Reply, Server, article, rss};
use pith::store::{ItemFilter, Store};
use rusqlite::{Connection, OpenFlags};

const FEEDS: usize = 8;
const ENTRIES: usize = 8;
/// How many times a refresh is killed.
const KILLS: usize = 20;
/// The most pages never served before that one killed refresh may fetch: with `KILLS` refreshes
/// at most `KILLS * MAX_NEW_PAGES` of the `FEEDS * ENTRIES` pages are ever let through, so every
/// killed refresh still has pages it waits for.
const MAX_NEW_PAGES: usize = 2;
/// A kill point not reached by then fails the test (an upper bound, not a wait).
const DEADLINE: Duration = Duration::from_secs(60);

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

    /// A number in `1..=n`.
    fn one_to(&mut self, n: usize) -> usize {
        1 + usize::try_from(self.next() % n as u64).unwrap()
    }
}

/// Which pages the server answers: any page it has served before, and up to `allowance` pages it
/// never served; a request for another page waits until the next refresh's allowance, or until
/// the refresh that asked has been killed (the answer then goes to a closed connection).
#[derive(Default)]
struct Gate {
    state: Mutex<GateState>,
    changed: Condvar,
}

#[derive(Default)]
struct GateState {
    served: HashSet<String>,
    allowance: usize,
    open: bool,
    /// Counts the refreshes: a request left waiting by a killed one sees it change.
    round: u64,
}

impl Gate {
    /// Whether to answer `path` (false: the refresh that asked is gone).
    fn pass(&self, path: &str) -> bool {
        let mut s = self.state.lock().unwrap();
        let round = s.round;
        let give_up = Instant::now() + 2 * DEADLINE;
        loop {
            if s.round != round || Instant::now() >= give_up {
                return false;
            }
            if s.open || s.served.contains(path) {
                return true;
            }
            if s.allowance > 0 {
                s.allowance -= 1;
                s.served.insert(path.to_string());
                return true;
            }
            s = self
                .changed
                .wait_timeout(s, Duration::from_millis(200))
                .unwrap()
                .0;
        }
    }

    /// Starts a refresh that may fetch `allowance` pages never served before.
    fn next_round(&self, allowance: usize) {
        let mut s = self.state.lock().unwrap();
        s.round += 1;
        s.allowance = allowance;
        self.changed.notify_all();
    }

    /// Serves every page from now on.
    fn open(&self) {
        let mut s = self.state.lock().unwrap();
        s.round += 1;
        s.open = true;
        self.changed.notify_all();
    }

    fn served(&self) -> usize {
        self.state.lock().unwrap().served.len()
    }
}

/// What is committed: the items' ids and the number of URL Tree documents, read through a
/// read-only connection (a reader never changes what the refresh sees or recovers).
fn committed(db: &Path) -> (HashSet<i64>, usize) {
    let conn = Connection::open_with_flags(db, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .expect("open the database read-only");
    conn.busy_timeout(Duration::from_secs(30)).unwrap();
    let ids = conn
        .prepare("SELECT id FROM item")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let docs: i64 = conn
        .query_row("SELECT count(*) FROM tree_doc", [], |r| r.get(0))
        .unwrap();
    (ids, usize::try_from(docs).unwrap())
}

fn check_sound(db: &Path, before: &HashSet<i64>, when: &str) {
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
    let lost: Vec<_> = before.difference(&now).collect();
    assert!(
        lost.is_empty(),
        "{when}: committed items were lost: {lost:?}"
    );
}

/// Guards crash safety: 20 SIGKILLs, each inside a refresh, leave a database that opens, passes
/// the integrity check, keeps every committed item and a consistent URL Tree, and a final refresh
/// stores every entry exactly once.
#[test]
fn sigkill_mid_refresh_loses_nothing_and_duplicates_nothing() {
    const {
        assert!(KILLS * MAX_NEW_PAGES < FEEDS * ENTRIES);
    }
    let server = Server::start();
    let r = &server.routes;
    let gate = Arc::new(Gate::default());
    let mut opml = String::from("<opml version=\"2.0\"><head/><body>");
    for f in 0..FEEDS {
        let items: Vec<(String, String, String)> = (0..ENTRIES)
            .map(|e| {
                let path = format!("/f{f}/story{e}.html");
                let words =
                    format!("Feed {f} story {e} reports on topic{f}x{e} at length, with detail.");
                let page = Reply::ok(
                    "text/html",
                    article(
                        &format!("F{f} S{e}"),
                        &[&words, "A second paragraph."],
                        None,
                    ),
                );
                let (gate, p) = (Arc::clone(&gate), path.clone());
                r.handle(&path, move |_| {
                    if gate.pass(&p) {
                        page.clone()
                    } else {
                        Reply::status(503)
                    }
                });
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

    // Kill points from a seeded generator, so that a failure can be replayed
    // (`PITH_CRASH_SEED=N cargo test --test feeds_crash`): each refresh may fetch 1 or 2 new
    // pages and is killed once 1 to that many more rows (tree documents and items) are
    // committed. Its new pages' tree inserts guarantee those rows; a page it was not allowed keeps
    // it running until the kill. Items come when a feed's last page is in: then the kill can land
    // while a whole feed's items are stored.
    let seed = std::env::var("PITH_CRASH_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x005e_ed0f_5ea1_u64);
    let mut rng = SplitMix(seed);
    println!("kill points from seed {seed}");
    let log = dir.path().join("refresh.log");
    for point in 0..KILLS {
        let (before_items, before_docs) = committed(&db);
        let before = before_items.len() + before_docs;
        let allowance = rng.one_to(MAX_NEW_PAGES);
        let rows = rng.one_to(allowance);
        let name = format!("kill {point}: after {rows} more committed rows");
        gate.next_round(allowance);
        let mut child = pith_cmd(&db, &["refresh", "--jobs", "3"])
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        let started = Instant::now();
        let at_kill = loop {
            let (ids, docs) = committed(&db);
            if ids.len() + docs >= before + rows {
                break ids;
            }
            if let Some(status) = child.try_wait().unwrap() {
                panic!(
                    "{name}: the refresh ended ({status}) before it, with pages still held back; \
                     its log:\n{}",
                    std::fs::read_to_string(&log).unwrap_or_default()
                );
            }
            assert!(started.elapsed() < DEADLINE, "{name}: never reached");
            std::thread::sleep(Duration::from_millis(5));
        };
        // Whatever committed up to the kill must survive it.
        child.kill().unwrap(); // SIGKILL on Unix
        let status = child.wait().unwrap();
        assert!(
            !status.success(),
            "{name}: the refresh finished instead of being killed"
        );
        let (_, docs) = committed(&db);
        println!(
            "{name} ({} ms in): {} items and {docs} tree documents committed, {} pages served",
            started.elapsed().as_millis(),
            at_kill.len(),
            gate.served()
        );
        check_sound(&db, &at_kill, &name);
    }

    gate.open();
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
