//! What the command line says, and how it ends:
//! - closed pipes, as a shell makes them (`pith items | head -1`, `pith add URL 2>&1 | head -1`):
//!   a closed standard output ends a listing quietly with success, and a closed standard error
//!   (where progress goes) never stops or hangs a refresh, which stores every item;
//! - a failure says why once;
//! - what a refresh reports adds up: items kept without their page are new items, entries past
//!   the cap are said to be unread, a feed without a title is not "not fetched yet".

mod common;

use std::process::{Child, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use common::server::{Reply, Server, article, rss};
use common::{must, pith, pith_cmd};

/// How long a run may take before the test calls it hung (a hang is what is tested: a run that
/// is merely slow on a busy machine finishes well inside this).
const HANG: Duration = Duration::from_secs(120);

/// A feed of `n` entries on one loopback site, each with its article page.
fn serve_feed(server: &Server, n: usize) -> String {
    let r = &server.routes;
    let mut entries = Vec::new();
    for i in 0..n {
        let path = format!("/news/2024/story-{i}.html");
        let title = format!("Story number {i}");
        r.set(
            &path,
            Reply::ok(
                "text/html; charset=utf-8",
                article(
                    &title,
                    &[
                        &format!("The first paragraph of story {i} says what happened, where and to whom, in full."),
                        "A second paragraph adds the details that a reader expects to find here.",
                    ],
                    None,
                ),
            ),
        );
        entries.push((title, server.url(&path), format!("Summary {i}.")));
    }
    r.set(
        "/feed.xml",
        Reply::ok("application/rss+xml", rss("Loopback News", &entries)),
    );
    server.url("/feed.xml")
}

/// Waits for `child` to exit, failing the test if it runs past [`HANG`].
fn wait_or_fail(child: &mut Child, what: &str) -> ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait for pith") {
            return status;
        }
        if start.elapsed() > HANG {
            let _ = child.kill();
            panic!("{what}: still running after {HANG:?} (hung)");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The writing end of a pipe whose reading end is already closed.
fn closed_pipe() -> Stdio {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    Stdio::from(writer)
}

fn item_count(db: &std::path::Path) -> usize {
    must(pith(db, &["items"]), "pith items").lines().count()
}

#[test]
fn a_refresh_whose_stderr_reader_went_away_stores_every_item_and_succeeds() {
    let server = Server::start();
    let feed = serve_feed(&server, 12);
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pipes.db");
    // `pith add URL 2>&1 | head -1`: the progress lines go to a pipe whose reader has left, so
    // that every write to stderr fails with EPIPE.
    let mut child = pith_cmd(&db, &["add", &feed])
        .stdout(Stdio::null())
        .stderr(closed_pipe())
        .spawn()
        .expect("start pith add");
    let status = wait_or_fail(&mut child, "pith add with a closed stderr");
    assert!(status.success(), "pith add exited {status:?}");
    assert_eq!(item_count(&db), 12, "every item stored");
}

#[test]
fn a_listing_whose_reader_went_away_stops_quietly() {
    let server = Server::start();
    let feed = serve_feed(&server, 30);
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pipes.db");
    must(pith(&db, &["add", &feed]), "pith add");
    assert_eq!(item_count(&db), 30);
    // Every listing command, each into a pipe whose reader has left (`| head -1` once it has
    // its line).
    for args in [
        &["items"][..],
        &["feeds"][..],
        &["search", "story"][..],
        &["export"][..],
    ] {
        let mut child = pith_cmd(&db, args)
            .stdout(closed_pipe())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start pith");
        let status = wait_or_fail(&mut child, &format!("{args:?}"));
        let mut stderr = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
        assert!(status.success(), "{args:?} exited {status:?}: {stderr}");
        assert!(stderr.is_empty(), "{args:?} said: {stderr}");
    }
}

#[test]
fn a_worker_that_panics_ends_the_refresh_instead_of_hanging_it() {
    use pith::extract::Engine;
    use pith::refresh::{self, Event, RefreshOptions};

    let server = Server::start();
    let feed = serve_feed(&server, 3);
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pipes.db");
    must(pith(&db, &["add", &feed]), "pith add");
    // Twice as many entries now, so the next refresh has work for every worker.
    serve_feed(&server, 6);
    let (done, finished) = std::sync::mpsc::channel();
    let path = db.clone();
    std::thread::spawn(move || {
        let outcome = std::panic::catch_unwind(|| {
            let mut options = RefreshOptions::default();
            options.fetch.loopback_only = true;
            options.jobs = 4;
            let on_event = |event: Event| {
                if let Event::PageDone { .. } = event {
                    panic!("a bug in a worker");
                }
            };
            refresh::refresh(&path, &Engine::default(), &options, &on_event)
        });
        let _ = done.send(outcome.is_err());
    });
    let panicked = finished
        .recv_timeout(HANG)
        .expect("the refresh hung after its worker panicked");
    assert!(panicked, "the worker's panic goes on up to the caller");
    // What was stored before stays readable.
    assert!(item_count(&db) >= 3);
}

#[test]
fn a_failed_subscription_says_why_once() {
    let server = Server::start();
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pipes.db");
    let missing = server.url("/gone.xml");
    for (url, why) in [
        (missing.as_str(), "HTTP 404 Not Found"),
        ("notaurl", "relative URL without a base"),
    ] {
        let run = pith(&db, &["add", url]);
        assert!(!run.ok);
        assert_eq!(run.stderr.matches(why).count(), 1, "{}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    }
}

#[test]
fn a_refresh_counts_items_without_their_page_as_new_and_says_what_it_did_not_read() {
    let server = Server::start();
    let r = &server.routes;
    // A feed whose three pages all fail: its items are kept with the feed's summary, and new.
    let failing: Vec<(String, String, String)> = (0..3)
        .map(|i| {
            let path = format!("/down/story-{i}.html");
            r.set(&path, Reply::status(500));
            (
                format!("Down {i}"),
                server.url(&path),
                format!("Summary {i}."),
            )
        })
        .collect();
    r.set(
        "/down.xml",
        Reply::ok("application/rss+xml", rss("Down", &failing)),
    );
    // A feed without a title, of 205 entries without links (nothing to fetch).
    let mut xml = String::from(
        "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><link>http://127.0.0.1/</link>",
    );
    for i in 0..205 {
        xml.push_str(&format!(
            "<item><title>Note {i}</title><description>The text of note {i}.</description>\
             <guid isPermaLink=\"false\">note-{i}</guid></item>"
        ));
    }
    xml.push_str("</channel></rss>");
    r.set("/notes.xml", Reply::ok("application/rss+xml", xml));

    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pipes.db");
    let add = pith(&db, &["add", &server.url("/down.xml")]);
    assert!(add.ok, "{}", add.stderr);
    let said = format!("{}{}", add.stdout, add.stderr);
    assert!(
        said.contains("3 new") && said.contains("3 pages not fetched"),
        "items kept with their summary are new items: {said}"
    );
    let add = pith(&db, &["add", &server.url("/notes.xml")]);
    assert!(add.ok, "{}", add.stderr);
    let said = format!("{}{}", add.stdout, add.stderr);
    assert!(
        said.contains("the feed lists 205 entries; only the first 200 were read"),
        "{said}"
    );
    assert_eq!(item_count(&db), 203);
    let feeds = must(pith(&db, &["feeds"]), "feeds");
    assert!(feeds.contains("(the feed has no title)"), "{feeds}");
    assert!(!feeds.contains("(not fetched yet)"), "{feeds}");
}
