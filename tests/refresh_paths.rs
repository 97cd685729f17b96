//! The refresh pipeline's paths, each against a loopback server: what a refresh stores (items,
//! pages, images, the feed's validators) and what it asks the server (paths, how often, with
//! which validators). Entries without a link, with a link that is not a web page, at the longest
//! URL that still gets a URL key, or listed twice; an edited entry; ETag round trips; the image
//! cap, the image byte budget, bodies that are not images and one image shared by two articles;
//! the held-bytes limit; a read-only and a full database; `refresh FEED`, `--no-images`, and the
//! progress events.
//!
//! No test waits on the clock for its verdict: where a test must show that something does *not*
//! happen while a request is held open, the server holds it until the thing happens or a bound
//! passes, and a slow machine can only make a broken refresh look right, never a right one wrong.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use common::server::{Reply, Seen, Server};
use common::{must, pith, pith_cmd};
use pith::extract::Engine;
use pith::limits;
use pith::refresh::{self, Event, FeedOutcome, RefreshOptions, Summary};
use pith::store::{FeedId, ItemFilter, ItemInfo, PageBytes, Store};

/// A tiny valid PNG (1×1).
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89\0\0\0\rIDATx\x9cc\xf8\x0f\0\0\x01\x01\0\x05\x18\xd8N\0\0\0\0IEND\xaeB`\x82";

// ---------------------------------------------------------------------------------------------
// Helpers

/// A fresh database in a temporary folder (kept alive by the returned guard).
fn new_db() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pith.db");
    (dir, db)
}

/// Subscribes to `url` without fetching it (as `pith import` does).
fn subscribe(db: &Path, url: &str) -> FeedId {
    let mut store = Store::open(db).unwrap();
    store
        .feed_add(url, None, None, refresh::unix_now())
        .unwrap()
        .0
}

/// Options for a refresh on the loopback address, with no politeness pause (the tests count
/// requests, not time).
fn options(jobs: usize) -> RefreshOptions {
    let mut o = RefreshOptions {
        jobs,
        ..RefreshOptions::default()
    };
    o.fetch.loopback_only = true;
    o.fetch.host_delay = Duration::ZERO;
    o.fetch.request_timeout = Duration::from_secs(60);
    o
}

/// Runs a refresh and returns its summary and every event, in order.
fn run(db: &Path, options: &RefreshOptions) -> (Summary, Vec<Event>) {
    let events = Mutex::new(Vec::new());
    let summary = refresh::refresh(db, &Engine::default(), options, &|e| {
        events.lock().unwrap().push(e)
    })
    .expect("the refresh runs");
    (summary, events.into_inner().unwrap())
}

/// The one `FeedDone` outcome of `feed` among `events`.
/// Asserts that the refresh in `events` updated `feed` with these counts (and no entry over the
/// cap): the outcome most tests here check.
fn assert_updated(
    events: &[Event],
    feed: FeedId,
    new_items: usize,
    linked: usize,
    page_errors: usize,
) {
    assert_eq!(
        outcome_of(events, feed),
        FeedOutcome::Updated {
            new_items,
            linked,
            page_errors,
            entries_over_cap: 0
        }
    );
}

fn outcome_of(events: &[Event], feed: FeedId) -> FeedOutcome {
    let done: Vec<&FeedOutcome> = events
        .iter()
        .filter_map(|e| match e {
            Event::FeedDone {
                feed: f, outcome, ..
            } if *f == feed => Some(outcome),
            _ => None,
        })
        .collect();
    assert_eq!(done.len(), 1, "one FeedDone for feed {feed}: {events:?}");
    done[0].clone()
}

/// Every item, ordered by link.
fn items(db: &Path) -> Vec<ItemInfo> {
    let mut items = Store::open(db)
        .unwrap()
        .items(&ItemFilter::default())
        .unwrap();
    items.sort_by(|a, b| a.link.cmp(&b.link).then(a.id.cmp(&b.id)));
    items
}

/// The one item whose link ends with `suffix`.
fn item(db: &Path, suffix: &str) -> ItemInfo {
    let found: Vec<ItemInfo> = items(db)
        .into_iter()
        .filter(|i| i.link.ends_with(suffix))
        .collect();
    assert_eq!(found.len(), 1, "one item for {suffix}: {found:?}");
    found.into_iter().next().unwrap()
}

/// How many requests each path got.
fn counts(server: &Server) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for p in server.routes.paths() {
        *m.entry(p).or_insert(0) += 1;
    }
    m
}

/// An RSS item; `link` and `date` are left out when `None`.
fn entry(title: &str, link: Option<&str>, description: &str, date: Option<&str>) -> String {
    let mut s = format!("<item><title>{title}</title>");
    if let Some(l) = link {
        s.push_str(&format!("<link>{l}</link>"));
    }
    s.push_str(&format!("<description>{description}</description>"));
    if let Some(d) = date {
        s.push_str(&format!("<pubDate>{d}</pubDate>"));
    }
    s.push_str("</item>");
    s
}

/// An RSS document of `items` (from [`entry`]).
fn channel(title: &str, items: &[String]) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?><rss version=\"2.0\"><channel><title>{title}</title>\
         <link>http://127.0.0.1/</link>{}</channel></rss>",
        items.concat()
    )
}

/// Paragraphs of a story about `topic`, distinct from other topics' words.
fn paragraphs(topic: &str) -> Vec<String> {
    (0..4)
        .map(|k| {
            format!(
                "Paragraph {k} of the {topic} story tells how the {topic} harbour was rebuilt, \
                 who paid for it, and what the {topic} fishermen think of the new quay."
            )
        })
        .collect()
}

/// An article page in the loopback site's template, its story followed by `images`.
fn page(title: &str, topic: &str, images: &[String]) -> String {
    let mut s = format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>{title}</title></head><body>\
         <div id=\"nav\"><a href=\"/\">Home</a> <a href=\"/world\">World</a> <a href=\"/sport\">Sport</a></div>\
         <div id=\"main\"><h1>{title}</h1>"
    );
    for p in paragraphs(topic) {
        s.push_str(&format!("<p>{p}</p>"));
    }
    for (k, src) in images.iter().enumerate() {
        s.push_str(&format!(
            "<figure><img src=\"{src}\" alt=\"Photo {k} of the {topic} harbour\"></figure>"
        ));
    }
    s.push_str(
        "</div><div id=\"footer\"><p>Copyright The Loopback Gazette. All rights reserved.</p></div></body></html>",
    );
    s
}

fn html(body: String) -> Reply {
    Reply::ok("text/html; charset=utf-8", body)
}

fn rss_reply(body: String) -> Reply {
    Reply::ok("application/rss+xml", body)
}

// ---------------------------------------------------------------------------------------------
// Entries

/// Guards the entry paths of `process_entry` and `run_feed`: an entry without a link is stored
/// with its summary and never fetched; a link that is not a web page (by type, or by sniffing an
/// `application/octet-stream` body) is stored as a failed item; an octet-stream body that sniffs
/// as HTML is read as a page; the same entry listed twice in one document is fetched once and is
/// one item. On the next refresh nothing is fetched again: the stored page is stored, and the
/// failures are permanent (a PDF, a binary blob and a missing link never become a page), so they
/// are not retried.
#[test]
fn entries_without_a_link_with_a_non_page_link_or_listed_twice() {
    let server = Server::start();
    let r = &server.routes;
    let u = |p: &str| server.url(p);
    r.set("/a/story.html", html(page("Story", "granite", &[])));
    r.set(
        "/files/report.pdf",
        Reply::ok("application/pdf", b"%PDF-1.4\n%binary report\n".to_vec()),
    );
    r.set(
        "/files/blob",
        Reply::ok(
            "application/octet-stream",
            b"\x00\x01\x02binary, not a page".to_vec(),
        ),
    );
    r.set(
        "/old/legacy.stm",
        Reply::ok(
            "application/octet-stream",
            page("Legacy page", "basalt", &[]).into_bytes(),
        ),
    );
    let story = entry(
        "Story",
        Some(&u("/a/story.html")),
        "The granite story.",
        None,
    );
    let feed = channel(
        "Edge cases",
        &[
            story.clone(),
            entry("A note without a link", None, "The note's own text.", None),
            entry("Report", Some(&u("/files/report.pdf")), "The report.", None),
            entry("Blob", Some(&u("/files/blob")), "A blob.", None),
            entry(
                "Legacy page",
                Some(&u("/old/legacy.stm")),
                "The basalt story.",
                None,
            ),
            // The first entry again, word for word.
            story,
        ],
    );
    r.set("/feed.xml", rss_reply(feed));
    let (_dir, db) = new_db();
    let feed_id = subscribe(&db, &u("/feed.xml"));

    let (summary, events) = run(&db, &options(2));
    assert_updated(&events, feed_id, 5, 0, 3);
    assert_eq!(summary.page_requests, 4, "{summary:?}");
    let want: BTreeMap<String, usize> = [
        ("/feed.xml", 1),
        ("/a/story.html", 1),
        ("/files/report.pdf", 1),
        ("/files/blob", 1),
        ("/old/legacy.stm", 1),
    ]
    .into_iter()
    .map(|(p, n)| (p.to_string(), n))
    .collect();
    assert_eq!(counts(&server), want, "the duplicate is fetched once");

    let store = Store::open(&db).unwrap();
    let all = items(&db);
    assert_eq!(all.len(), 5, "{all:?}");
    let story = item(&db, "/a/story.html");
    assert_eq!(story.fetch_error, None);
    assert!(store.item_page(story.id).unwrap().is_some());
    let note: Vec<&ItemInfo> = all.iter().filter(|i| i.link.is_empty()).collect();
    assert_eq!(note.len(), 1, "{all:?}");
    assert_eq!(note[0].title, "A note without a link");
    assert_eq!(
        note[0].fetch_error.as_deref(),
        Some("the entry has no link")
    );
    assert_eq!(note[0].summary.as_deref(), Some("The note's own text."));
    assert!(store.item_page(note[0].id).unwrap().is_none());
    let pdf = item(&db, "/files/report.pdf");
    assert_eq!(
        pdf.fetch_error.as_deref(),
        Some("the link is not a web page (application/pdf)")
    );
    assert!(store.item_page(pdf.id).unwrap().is_none());
    let blob = item(&db, "/files/blob");
    assert_eq!(
        blob.fetch_error.as_deref(),
        Some("the link is not a web page (application/octet-stream)")
    );
    let legacy = item(&db, "/old/legacy.stm");
    assert_eq!(legacy.fetch_error, None, "a page served as octet-stream");
    let text = store
        .search("basalt", 10)
        .unwrap()
        .into_iter()
        .map(|h| h.id)
        .collect::<Vec<_>>();
    assert_eq!(text, vec![legacy.id], "its article text is indexed");
    drop(store);

    // Again: the stored page is not asked for, and neither are the links that are no web page.
    r.clear_log();
    let (summary, events) = run(&db, &options(2));
    assert_updated(&events, feed_id, 0, 0, 0);
    assert_eq!(summary.page_requests, 0, "{summary:?}");
    let again: BTreeSet<String> = server.routes.paths().into_iter().collect();
    let want: BTreeSet<String> = ["/feed.xml"].map(String::from).into();
    assert_eq!(again, want);
    assert_eq!(items(&db).len(), 5);
}

/// Guards the "no URL key" edge: the longest URL pith fetches (`MAX_URL_LEN` bytes) is also one
/// the URL key accepts, so its page is stored whole (keyed, classified), while a link one byte
/// longer is refused before any request and kept as a failed item. Were the two limits to drift
/// apart, the page would go down the "no URL key" path and this test would fail.
#[test]
fn the_longest_fetchable_link_gets_a_url_key_and_a_longer_one_is_not_asked() {
    let server = Server::start();
    let r = &server.routes;
    let prefix = server.url("/long/");
    let fill = limits::MAX_URL_LEN - prefix.len();
    let longest = format!("{prefix}{}", "a".repeat(fill));
    let too_long = format!("{prefix}{}", "b".repeat(fill + 1));
    assert_eq!(longest.len(), limits::MAX_URL_LEN);
    let longest_path = longest.trim_start_matches(&server.url("")).to_string();
    r.set(&longest_path, html(page("Longest", "quartz", &[])));
    r.set(
        "/feed.xml",
        rss_reply(channel(
            "Long links",
            &[
                entry("Longest", Some(&longest), "The quartz story.", None),
                entry("Too long", Some(&too_long), "Too long.", None),
            ],
        )),
    );
    let (_dir, db) = new_db();
    let feed_id = subscribe(&db, &server.url("/feed.xml"));
    let (_, events) = run(&db, &options(1));
    assert_updated(&events, feed_id, 2, 0, 1);
    let got = item(&db, "aaaa");
    assert_eq!(got.fetch_error, None, "{got:?}");
    let key = got.url_key.expect("a URL key");
    assert!(key.contains(&"a".repeat(fill)), "{key}");
    let refused = item(&db, "bbbb");
    let error = refused.fetch_error.expect("refused");
    assert!(error.contains("byte limit"), "{error}");
    let asked = server.routes.paths();
    assert_eq!(asked.len(), 2, "the feed and the longest link only");
    assert_eq!(asked.iter().filter(|p| **p == longest_path).count(), 1);
}

/// Guards the entry identity (a hash of title, description and date): an entry edited in any of
/// the three is a new entry of the feed, and since its link is an item's already, it is linked to
/// that item rather than fetched or stored again. The item takes the edit's title (shown and
/// searched), and keeps the summary its text was classified with.
#[test]
fn an_edited_entry_is_linked_to_its_item_not_fetched_again() {
    let server = Server::start();
    let r = &server.routes;
    let link = server.url("/a/story.html");
    r.set("/a/story.html", html(page("Story", "harbour", &[])));
    let version = |title: &str, description: &str, date: &str| {
        rss_reply(channel(
            "Edits",
            &[entry(title, Some(&link), description, Some(date))],
        ))
    };
    let first = ("Story", "First text.", "Mon, 01 Jan 2024 10:00:00 GMT");
    r.set("/feed.xml", version(first.0, first.1, first.2));
    let (_dir, db) = new_db();
    let feed_id = subscribe(&db, &server.url("/feed.xml"));
    let (_, events) = run(&db, &options(1));
    assert_updated(&events, feed_id, 1, 0, 0);
    let stored = item(&db, "/a/story.html");

    let edits = [
        ("Story, corrected", "First text.", first.2),
        ("Story, corrected", "Second text.", first.2),
        (
            "Story, corrected",
            "Second text.",
            "Tue, 02 Jan 2024 10:00:00 GMT",
        ),
    ];
    let mut checked = 0;
    for (title, description, date) in edits {
        r.set("/feed.xml", version(title, description, date));
        r.clear_log();
        let (summary, events) = run(&db, &options(1));
        assert_eq!(
            outcome_of(&events, feed_id),
            FeedOutcome::Updated {
                new_items: 0,
                linked: 1,
                page_errors: 0,
                entries_over_cap: 0
            },
            "edit {title:?} / {description:?} / {date:?}"
        );
        assert_eq!(summary.page_requests, 0);
        assert_eq!(server.routes.paths(), ["/feed.xml"]);
        let now = items(&db);
        assert_eq!(now.len(), 1, "{now:?}");
        assert_eq!(now[0].id, stored.id);
        assert_eq!(now[0].title, "Story, corrected");
        assert_eq!(now[0].summary.as_deref(), Some("First text."));
        let found: Vec<_> = Store::open(&db)
            .unwrap()
            .search("corrected", 10)
            .unwrap()
            .into_iter()
            .map(|h| h.id)
            .collect();
        assert_eq!(found, [stored.id], "the new title is searched");
        checked += 1;
    }
    assert_eq!(checked, 3);
    // The same document once more: every entry is known, nothing is linked again.
    let (_, events) = run(&db, &options(1));
    assert_updated(&events, feed_id, 0, 0, 0);
}

/// A file whose search rows are of an older form (written before the index held Chinese as
/// pairs of letters) is brought to the current form by the next refresh, after its feeds: the
/// article's Chinese word is found inside its sentence only then.
#[test]
fn a_refresh_brings_older_search_rows_to_the_current_form() {
    let server = Server::start();
    let r = &server.routes;
    let link = server.url("/a/zh.html");
    let body = "<p>北京市今天发布了新的交通规定，新规定将于下个月起实施，主要涉及机动车限行和公共交通优先等内容，市民对此反应不一。</p>";
    r.set(
        "/a/zh.html",
        html(format!(
            "<html><head><title>北京发布新规</title></head><body><article><h1>北京发布新规</h1>\
             {body}{body}</article></body></html>"
        )),
    );
    r.set(
        "/feed.xml",
        rss_reply(channel(
            "新闻",
            &[entry("北京发布新规", Some(&link), "", None)],
        )),
    );
    let (_dir, db) = new_db();
    let feed_id = subscribe(&db, &server.url("/feed.xml"));
    let (_, events) = run(&db, &options(1));
    assert_updated(&events, feed_id, 1, 0, 0);
    let found = |db: &Path| Store::open(db).unwrap().search("交通", 10).unwrap().len();
    assert_eq!(found(&db), 1);
    // As a file of the version before reads: its row holds the sentence as one word.
    let id = item(&db, "/a/zh.html").id;
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute("DELETE FROM item_fts WHERE rowid = ?1", [id])
        .unwrap();
    conn.execute(
        "INSERT INTO item_fts (rowid, title, body) VALUES (?1, '北京发布新规', ?2)",
        rusqlite::params![id, "北京市今天发布了新的交通规定"],
    )
    .unwrap();
    conn.execute("DELETE FROM setting WHERE key = 'search_index_form'", [])
        .unwrap();
    drop(conn);
    assert_eq!(found(&db), 0);
    assert!(Store::open(&db).unwrap().search_form().unwrap() < pith::store::SEARCH_FORM);
    // The upkeep fails once (the settings table refuses its write): the refresh still stores its
    // items and says so in its summary, and the old row stays searchable as it was.
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch(
        "CREATE TRIGGER refuse BEFORE INSERT ON setting WHEN NEW.key = 'search_index_form'
         BEGIN SELECT RAISE(ABORT, 'the disk says no'); END;",
    )
    .unwrap();
    drop(conn);
    let second = server.url("/a/zh2.html");
    r.set("/a/zh2.html", html(page("Second", "oak", &[])));
    r.set(
        "/feed.xml",
        rss_reply(channel(
            "新闻",
            &[
                entry("北京发布新规", Some(&link), "", None),
                entry("Second", Some(&second), "", None),
            ],
        )),
    );
    let (summary, events) = run(&db, &options(1));
    assert_updated(&events, feed_id, 1, 0, 0);
    let error = summary
        .search_upkeep_error
        .expect("the upkeep's failure is said");
    assert!(error.contains("the disk says no"), "{error}");
    assert_eq!(summary.search_rows_rewritten, 0);
    assert_eq!(found(&db), 0);
    assert!(Store::open(&db).unwrap().search_form().unwrap() < pith::store::SEARCH_FORM);
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch("DROP TRIGGER refuse").unwrap();
    drop(conn);
    let (summary, _) = run(&db, &options(1));
    assert_eq!(summary.search_upkeep_error, None);
    assert_eq!(summary.search_rows_rewritten, 2);
    let store = Store::open(&db).unwrap();
    assert_eq!(store.search_form().unwrap(), pith::store::SEARCH_FORM);
    assert_eq!(found(&db), 1);
}

// ---------------------------------------------------------------------------------------------
// Validators

/// Guards the ETag round trip: the ETag of a feed's 200 is stored, sent back as `If-None-Match`
/// (and no `If-Modified-Since` is made up), a 304 changes nothing and asks for no page, a new
/// ETag replaces the old one, and a response without one clears it so that the next request is
/// unconditional.
#[test]
fn etags_round_trip_through_refreshes() {
    let server = Server::start();
    let r = &server.routes;
    let u = |p: &str| server.url(p);
    // (version, whether it carries an ETag)
    let state = Arc::new(Mutex::new((1usize, true)));
    let s = Arc::clone(&state);
    let (a, b) = (u("/a/one.html"), u("/a/two.html"));
    r.handle("/feed.xml", move |seen| {
        let (version, tagged) = *s.lock().unwrap();
        let mut entries = vec![entry("One", Some(&a), "One.", None)];
        if version >= 2 {
            entries.push(entry("Two", Some(&b), "Two.", None));
        }
        let reply = rss_reply(channel("Tagged", &entries));
        if tagged {
            reply.etagged(seen, &format!("\"v{version}\""))
        } else {
            reply
        }
    });
    r.set("/a/one.html", html(page("One", "oak", &[])));
    r.set("/a/two.html", html(page("Two", "elm", &[])));
    let (_dir, db) = new_db();
    let feed_id = subscribe(&db, &u("/feed.xml"));
    let etag_stored = || Store::open(&db).unwrap().feed(feed_id).unwrap().unwrap();
    let feed_requests = |server: &Server| -> Vec<Seen> { server.routes.hits("/feed.xml") };
    let header = |seen: &Seen, name: &str| seen.headers.get(name).cloned();

    // 1. First fetch: unconditional; the ETag is stored.
    let (summary, events) = run(&db, &options(1));
    assert!(matches!(
        outcome_of(&events, feed_id),
        FeedOutcome::Updated { new_items: 1, .. }
    ));
    assert_eq!(
        (summary.feed_requests, summary.conditional_requests),
        (1, 0)
    );
    let asked = feed_requests(&server);
    assert_eq!(asked.len(), 1);
    assert!(!asked[0].conditional(), "{:?}", asked[0].headers);
    let feed = etag_stored();
    assert_eq!(feed.etag.as_deref(), Some("\"v1\""));
    assert_eq!(feed.last_modified, None);

    // 2. Unchanged: the ETag goes back, the server says 304, nothing else is asked.
    r.clear_log();
    let (summary, events) = run(&db, &options(1));
    assert_eq!(outcome_of(&events, feed_id), FeedOutcome::NotModified);
    assert_eq!(
        (
            summary.conditional_requests,
            summary.feeds_not_modified,
            summary.page_requests
        ),
        (1, 1, 0)
    );
    assert_eq!(server.routes.paths(), ["/feed.xml"]);
    let asked = &feed_requests(&server)[0];
    assert_eq!(header(asked, "if-none-match").as_deref(), Some("\"v1\""));
    assert_eq!(header(asked, "if-modified-since"), None);
    assert_eq!(etag_stored().etag.as_deref(), Some("\"v1\""));
    assert_eq!(items(&db).len(), 1);

    // 3. Changed: the old ETag is sent, a 200 with a new one comes back; the new entry is read
    // and the new ETag stored.
    *state.lock().unwrap() = (2, true);
    r.clear_log();
    let (_, events) = run(&db, &options(1));
    assert!(matches!(
        outcome_of(&events, feed_id),
        FeedOutcome::Updated { new_items: 1, .. }
    ));
    let asked = feed_requests(&server);
    assert_eq!(
        header(&asked[0], "if-none-match").as_deref(),
        Some("\"v1\"")
    );
    assert_eq!(r.hits("/a/two.html").len(), 1);
    assert!(r.hits("/a/one.html").is_empty());
    assert_eq!(etag_stored().etag.as_deref(), Some("\"v2\""));
    assert_eq!(items(&db).len(), 2);

    // 4. The new ETag round-trips.
    r.clear_log();
    let (_, events) = run(&db, &options(1));
    assert_eq!(outcome_of(&events, feed_id), FeedOutcome::NotModified);
    assert_eq!(
        header(&feed_requests(&server)[0], "if-none-match").as_deref(),
        Some("\"v2\"")
    );

    // 5. The server stops sending ETags: the stored one is cleared, and the request after is
    // unconditional (a stale validator is not sent forever).
    *state.lock().unwrap() = (2, false);
    r.clear_log();
    let (_, events) = run(&db, &options(1));
    assert!(matches!(
        outcome_of(&events, feed_id),
        FeedOutcome::Updated { new_items: 0, .. }
    ));
    assert_eq!(etag_stored().etag, None);
    r.clear_log();
    let (summary, _) = run(&db, &options(1));
    assert_eq!(summary.conditional_requests, 0);
    assert!(!feed_requests(&server)[0].conditional());
}

// ---------------------------------------------------------------------------------------------
// Images

/// The images an item's stored blocks keep as content.
fn content_images(store: &Store, id: i64) -> Vec<String> {
    store
        .item_blocks(id)
        .unwrap()
        .into_iter()
        .filter(|b| b.content)
        .filter_map(|b| b.image)
        .collect()
}

/// Guards `MAX_ARTICLE_IMAGES`: an article keeping more images than that as content downloads
/// the first ones in page order, up to the cap, each once (an image named twice in the page
/// counts once), and stores exactly those.
#[test]
fn an_article_downloads_at_most_its_image_cap() {
    let server = Server::start();
    let r = &server.routes;
    let n = limits::MAX_ARTICLE_IMAGES + 5;
    let mut srcs: Vec<String> = (0..n)
        .map(|k| server.url(&format!("/img/{k}.png")))
        .collect();
    // The first image once more, among the first: it is downloaded once and takes one place.
    srcs.insert(1, srcs[0].clone());
    for k in 0..n {
        r.set(&format!("/img/{k}.png"), Reply::ok("image/png", PNG));
    }
    r.set("/a/gallery.html", html(page("Gallery", "cedar", &srcs)));
    r.set(
        "/feed.xml",
        rss_reply(channel(
            "Gallery",
            &[entry(
                "Gallery",
                Some(&server.url("/a/gallery.html")),
                "The cedar story.",
                None,
            )],
        )),
    );
    let (_dir, db) = new_db();
    subscribe(&db, &server.url("/feed.xml"));
    let (summary, _) = run(&db, &options(2));

    let store = Store::open(&db).unwrap();
    let it = item(&db, "/a/gallery.html");
    let kept = content_images(&store, it.id);
    assert_eq!(kept.len(), n + 1, "the page keeps every image: {kept:?}");
    let want: BTreeSet<String> = (0..limits::MAX_ARTICLE_IMAGES)
        .map(|k| format!("/img/{k}.png"))
        .collect();
    let asked: Vec<String> = server
        .routes
        .paths()
        .into_iter()
        .filter(|p| p.starts_with("/img/"))
        .collect();
    assert_eq!(asked.len(), limits::MAX_ARTICLE_IMAGES, "{asked:?}");
    assert_eq!(asked.iter().cloned().collect::<BTreeSet<_>>(), want);
    assert_eq!(summary.image_requests, limits::MAX_ARTICLE_IMAGES);
    let stored = store.item_images(it.id).unwrap();
    assert_eq!(stored.len(), limits::MAX_ARTICLE_IMAGES);
    assert!(
        stored
            .iter()
            .all(|i| i.error.is_none() && i.bytes == PNG.len() as u64),
        "{stored:?}"
    );
}

/// Guards the per-article byte budget (`MAX_ARTICLE_IMAGE_BYTES`) and the per-image cap
/// (`MAX_IMAGE_BYTES`), and bodies that are not images: an image past what is left of the
/// article's budget is cut off and stored as an error while a smaller one after it still fits;
/// once the budget is spent, the rest are not requested at all; a single image over its cap, a
/// body that is not an image, and a 404 are stored as errors, each asked once.
#[test]
fn image_budget_cap_and_bodies_that_are_not_images() {
    const MIB: usize = 1024 * 1024;
    let server = Server::start();
    let r = &server.routes;
    let u = |p: &str| server.url(p);
    let blob = |n: usize| Reply::ok("image/jpeg", vec![0x5a; n]);
    let cap = limits::MAX_IMAGE_BYTES as usize;
    let budget = limits::MAX_ARTICLE_IMAGE_BYTES as usize;
    assert_eq!(
        budget,
        4 * cap,
        "the cases below are sized for a budget of four full images"
    );
    // Article 1: four images just under the cap leave less than a megabyte of budget; a 1 MiB
    // image does not fit in it, a small one after it does.
    let mut one = Vec::new();
    for k in 0..4 {
        r.set(&format!("/one/{k}.jpg"), blob(2_000_000));
        one.push(u(&format!("/one/{k}.jpg")));
    }
    r.set("/one/over.jpg", blob(MIB));
    r.set("/one/small.jpg", blob(100));
    one.push(u("/one/over.jpg"));
    one.push(u("/one/small.jpg"));
    // Article 2: four images of exactly the cap spend the whole budget; the fifth is not asked.
    let mut two = Vec::new();
    for k in 0..4 {
        r.set(&format!("/two/{k}.jpg"), blob(cap));
        two.push(u(&format!("/two/{k}.jpg")));
    }
    r.set("/two/late.jpg", blob(100));
    two.push(u("/two/late.jpg"));
    // Article 3: one image over the cap, a page served as an image, a missing image.
    r.set("/three/huge.jpg", blob(cap + 1));
    r.set("/three/page.jpg", html("<p>not a picture</p>".into()));
    let three = vec![
        u("/three/huge.jpg"),
        u("/three/page.jpg"),
        u("/three/gone.jpg"),
    ];
    r.set("/a/one.html", html(page("One", "spruce", &one)));
    r.set("/a/two.html", html(page("Two", "larch", &two)));
    r.set("/a/three.html", html(page("Three", "birch", &three)));
    r.set(
        "/feed.xml",
        rss_reply(channel(
            "Images",
            &[
                entry("One", Some(&u("/a/one.html")), "Spruce.", None),
                entry("Two", Some(&u("/a/two.html")), "Larch.", None),
                entry("Three", Some(&u("/a/three.html")), "Birch.", None),
            ],
        )),
    );
    let (_dir, db) = new_db();
    subscribe(&db, &u("/feed.xml"));
    // One worker: an article's images are fetched in page order, so the budget is spent in a
    // known order.
    let (summary, _) = run(&db, &options(1));

    let store = Store::open(&db).unwrap();
    let images_of = |suffix: &str| -> BTreeMap<String, (u64, Option<String>)> {
        let it = item(&db, suffix);
        let kept = content_images(&store, it.id);
        assert!(
            kept.len() >= 3,
            "{suffix}: images kept as content: {kept:?}"
        );
        store
            .item_images(it.id)
            .unwrap()
            .into_iter()
            .map(|i| {
                let path = i.url.trim_start_matches(&u("")).to_string();
                (path, (i.bytes, i.error))
            })
            .collect()
    };
    let budget_error = Some("over the article's image budget".to_string());
    let one = images_of("/a/one.html");
    assert_eq!(one.len(), 6, "{one:?}");
    for k in 0..4 {
        assert_eq!(one[&format!("/one/{k}.jpg")], (2_000_000, None));
    }
    assert_eq!(one["/one/over.jpg"], (0, budget_error.clone()));
    assert_eq!(one["/one/small.jpg"], (100, None));
    let two = images_of("/a/two.html");
    assert_eq!(two.len(), 5, "{two:?}");
    for k in 0..4 {
        assert_eq!(two[&format!("/two/{k}.jpg")], (cap as u64, None));
    }
    assert_eq!(two["/two/late.jpg"], (0, budget_error));
    let three = images_of("/a/three.html");
    assert_eq!(three.len(), 3, "{three:?}");
    let huge = three["/three/huge.jpg"].1.clone().unwrap_or_default();
    assert!(huge.contains("larger than the 2 MB limit"), "{huge}");
    assert_eq!(
        three["/three/page.jpg"],
        (0, Some("not an image (text/html)".to_string()))
    );
    assert_eq!(
        three["/three/gone.jpg"],
        (0, Some("HTTP 404 Not Found".to_string()))
    );

    let asked = counts(&server);
    let images_asked: BTreeMap<&str, usize> = asked
        .iter()
        .filter(|(p, _)| p.ends_with(".jpg"))
        .map(|(p, n)| (p.as_str(), *n))
        .collect();
    assert!(
        !images_asked.contains_key("/two/late.jpg"),
        "an image past a spent budget is not asked for: {images_asked:?}"
    );
    assert_eq!(images_asked.len(), 6 + 4 + 3, "{images_asked:?}");
    assert!(images_asked.values().all(|&n| n == 1), "{images_asked:?}");
    assert_eq!(summary.image_requests, 13);

    // The failures are remembered: a later article naming them does not ask again.
    r.set(
        "/a/four.html",
        html(page(
            "Four",
            "alder",
            &[u("/three/gone.jpg"), u("/three/page.jpg")],
        )),
    );
    r.set(
        "/feed.xml",
        rss_reply(channel(
            "Images",
            &[entry("Four", Some(&u("/a/four.html")), "Alder.", None)],
        )),
    );
    r.clear_log();
    let (summary, _) = run(&db, &options(1));
    assert_eq!(summary.image_requests, 0);
    assert_eq!(server.routes.paths(), ["/feed.xml", "/a/four.html"]);
    let four = item(&db, "/a/four.html");
    assert_eq!(store.item_images(four.id).unwrap().len(), 2);
}

/// Guards the download-once rule for images: one image kept by two articles of one refresh is
/// downloaded once and listed by both (the run's claim), and a third article in a later refresh
/// uses the stored copy without asking (the database's).
#[test]
fn one_image_shared_by_two_articles_is_downloaded_once() {
    let server = Server::start();
    let r = &server.routes;
    let u = |p: &str| server.url(p);
    let shared = u("/img/shared.png");
    for (name, topic) in [("one", "maple"), ("two", "poplar"), ("three", "willow")] {
        let own = u(&format!("/img/{name}.png"));
        r.set(&format!("/img/{name}.png"), Reply::ok("image/png", PNG));
        r.set(
            &format!("/a/{name}.html"),
            html(page(name, topic, &[shared.clone(), own])),
        );
    }
    r.set("/img/shared.png", Reply::ok("image/png", PNG));
    let feed_of = |names: &[&str]| {
        let entries: Vec<String> = names
            .iter()
            .map(|n| entry(n, Some(&u(&format!("/a/{n}.html"))), n, None))
            .collect();
        rss_reply(channel("Shared", &entries))
    };
    r.set("/feed.xml", feed_of(&["one", "two"]));
    let (_dir, db) = new_db();
    subscribe(&db, &u("/feed.xml"));
    let (summary, _) = run(&db, &options(2));
    assert_eq!(r.hits("/img/shared.png").len(), 1, "{:?}", r.paths());
    assert_eq!(summary.image_requests, 3, "shared once, and each one's own");

    r.set("/feed.xml", feed_of(&["one", "two", "three"]));
    r.clear_log();
    let (summary, _) = run(&db, &options(2));
    assert!(r.hits("/img/shared.png").is_empty(), "{:?}", r.paths());
    assert_eq!(summary.image_requests, 1, "only the third's own image");

    let store = Store::open(&db).unwrap();
    let mut checked = 0;
    for name in ["one", "two", "three"] {
        let it = item(&db, &format!("/a/{name}.html"));
        let images = store.item_images(it.id).unwrap();
        let urls: BTreeSet<String> = images.iter().map(|i| i.url.clone()).collect();
        let want: BTreeSet<String> = [shared.clone(), u(&format!("/img/{name}.png"))].into();
        assert_eq!(urls, want, "{name}");
        assert!(
            images.iter().all(|i| i.bytes == PNG.len() as u64),
            "{images:?}"
        );
        checked += 1;
    }
    assert_eq!(checked, 3);
    assert_eq!(store.image_data(&shared).unwrap().as_deref(), Some(PNG));
}

// ---------------------------------------------------------------------------------------------
// Memory

/// `n` bytes of letters that LZ4 cannot shrink (a fixed pseudo-random sequence).
fn incompressible_letters(n: usize, seed: u64) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            ALPHABET[(x % ALPHABET.len() as u64) as usize] as char
        })
        .collect()
}

/// What the servers of the held-bytes test saw, in order.
#[derive(Default)]
struct Gate {
    gate_asked: bool,
    second_asked: bool,
    second_asked_while_gate_held: bool,
}

/// Guards `MAX_REFRESH_HELD_BYTES`: while a refresh holds more page bytes than that (a new
/// feed's pages wait, compressed, until the whole feed is in the URL Tree), it starts no other
/// feed, even with a worker idle; the held feed finishes, and the other feed is fetched then.
///
/// Feed 1 lists big incompressible pages and, last, a "gate" page that the server holds open.
/// While it is held, the other worker is free; a filler feed keeps that worker away until all of
/// feed 1's other pages are taken. The gate is held until feed 2 is asked for, or for a bound:
/// a right refresh never asks for feed 2 meanwhile, however slow the machine.
#[test]
fn past_the_held_bytes_limit_no_new_feed_starts() {
    let pages = 11;
    let size = 5_000_000;
    assert!(size as u64 <= limits::MAX_PAGE_BYTES - 1000);
    let bodies: Vec<String> = (0..pages)
        .map(|k| {
            format!(
                "<!doctype html><html><head><meta charset=\"utf-8\"><title>Big {k}</title></head>\
                 <body><!-- {} --><div id=\"main\"><h1>Big {k}</h1><p>{}</p></div></body></html>",
                incompressible_letters(size, k as u64 + 1),
                paragraphs(&format!("big{k}")).join(" ")
            )
        })
        .collect();
    let held: usize = bodies
        .iter()
        .map(|b| PageBytes::compress(b.as_bytes()).unwrap().stored_len())
        .sum();
    assert!(
        held > limits::MAX_REFRESH_HELD_BYTES,
        "the pages must hold more than the limit: {held}"
    );

    let a = Server::start();
    let b = Server::start();
    let state = Arc::new((Mutex::new(Gate::default()), Condvar::new()));
    let mut entries = Vec::new();
    for (k, body) in bodies.into_iter().enumerate() {
        let path = format!("/big/{k}.html");
        a.routes.set(&path, html(body));
        entries.push(entry(
            &format!("Big {k}"),
            Some(&a.url(&path)),
            "Big.",
            None,
        ));
    }
    entries.push(entry("Gate", Some(&a.url("/gate.html")), "Gate.", None));
    a.routes
        .set("/feed1.xml", rss_reply(channel("Big", &entries)));
    let bound = Duration::from_secs(3);
    let s = Arc::clone(&state);
    a.routes.handle("/gate.html", move |_| {
        let (lock, cv) = &*s;
        let mut g = lock.lock().unwrap();
        g.gate_asked = true;
        cv.notify_all();
        let until = Instant::now() + bound;
        while !g.second_asked && Instant::now() < until {
            g = cv.wait_timeout(g, until - Instant::now()).unwrap().0;
        }
        g.second_asked_while_gate_held = g.second_asked;
        html(page("Gate", "iron", &[]))
    });
    let s = Arc::clone(&state);
    b.routes.handle("/filler.xml", move |_| {
        let (lock, cv) = &*s;
        let mut g = lock.lock().unwrap();
        let until = Instant::now() + Duration::from_secs(120);
        while !g.gate_asked && Instant::now() < until {
            g = cv.wait_timeout(g, until - Instant::now()).unwrap().0;
        }
        rss_reply(channel("Filler", &[]))
    });
    let s = Arc::clone(&state);
    let second_link = b.url("/a/second.html");
    b.routes.handle("/feed2.xml", move |_| {
        let (lock, cv) = &*s;
        lock.lock().unwrap().second_asked = true;
        cv.notify_all();
        rss_reply(channel(
            "Second",
            &[entry("Second", Some(&second_link), "Second.", None)],
        ))
    });
    b.routes
        .set("/a/second.html", html(page("Second", "copper", &[])));

    let (_dir, db) = new_db();
    let big = subscribe(&db, &a.url("/feed1.xml"));
    subscribe(&db, &b.url("/filler.xml"));
    let second = subscribe(&db, &b.url("/feed2.xml"));
    let mut opts = options(2);
    opts.fetch.request_timeout = Duration::from_secs(300);
    let (summary, events) = run(&db, &opts);

    let g = state.0.lock().unwrap();
    assert!(g.gate_asked && g.second_asked);
    assert!(
        !g.second_asked_while_gate_held,
        "feed 2 was started while the refresh held more than the limit"
    );
    drop(g);
    assert_eq!(summary.feeds_updated, 3, "{summary:?}");
    assert!(matches!(
        outcome_of(&events, big),
        FeedOutcome::Updated {
            new_items: 12,
            page_errors: 0,
            ..
        }
    ));
    assert!(matches!(
        outcome_of(&events, second),
        FeedOutcome::Updated { new_items: 1, .. }
    ));
    assert_eq!(a.routes.paths().len(), 1 + pages + 1);
    assert_eq!(b.routes.hits("/feed2.xml").len(), 1);
    let store = Store::open(&db).unwrap();
    let big0 = item(&db, "/big/0.html");
    let stored = store.item_page(big0.id).unwrap().expect("a page");
    assert!(stored.raw.len() > size);
}

// ---------------------------------------------------------------------------------------------
// The database

/// A `pith` command that, run as root, runs without the capabilities that override file
/// permissions (CAP_DAC_OVERRIDE, CAP_FOWNER), so that root, the owner of the test's files, is
/// held to their permission bits as any other owner is.
fn pith_held_to_permissions(db: &Path, args: &[&str]) -> std::process::Output {
    use std::os::unix::process::CommandExt;
    let mut cmd = pith_cmd(db, args);
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        // SAFETY: between fork and exec only prctl, a plain system call.
        unsafe {
            cmd.pre_exec(|| {
                // Out of the bounding set, the capabilities are gone in the program exec'd next.
                for cap in [1, 3] {
                    if libc::prctl(libc::PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                }
                Ok(())
            });
        }
    }
    cmd.output().expect("run pith")
}

/// Guards a refresh on a database it may not write. In a folder it may not write either (no
/// write-ahead log can be made), the database is refused when opened: a clear error, before any
/// request. A read-only file in a writable folder opens (SQLite falls back to reading), and the
/// refresh refuses it at once, before any request, rather than at its first write after fetching.
/// Either way nothing is stored and the file is left as it was.
#[test]
fn a_read_only_database_fails_clearly() {
    use std::os::unix::fs::PermissionsExt;

    let server = Server::start();
    let r = &server.routes;
    r.set("/a/one.html", html(page("One", "pine", &[])));
    r.set("/a/two.html", html(page("Two", "fir", &[])));
    r.set(
        "/feed.xml",
        rss_reply(channel(
            "Read-only",
            &[
                entry("One", Some(&server.url("/a/one.html")), "One.", None),
                entry("Two", Some(&server.url("/a/two.html")), "Two.", None),
            ],
        )),
    );
    let (dir, db) = new_db();
    subscribe(&db, &server.url("/feed.xml"));
    let before = std::fs::read(&db).unwrap();
    assert!(
        !db.with_extension("db-wal").exists(),
        "the log went with the last connection"
    );
    let mode = |path: &Path, mode: u32| {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap()
    };
    mode(&db, 0o444);
    let mut checked = 0;
    for (folder, asked) in [(0o555, &[][..] as &[&str]), (0o755, &[][..])] {
        mode(dir.path(), folder);
        r.clear_log();
        let out = pith_held_to_permissions(&db, &["refresh", "--jobs", "1"]);
        mode(dir.path(), 0o755);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "folder {folder:o}: {stderr}");
        let why = stderr
            .lines()
            .find(|l| l.starts_with("error: "))
            .unwrap_or_else(|| panic!("no error line: {stderr}"));
        assert!(
            why.contains(&format!("refreshing the feeds in {}", db.display()))
                && why.contains("attempt to write a readonly database"),
            "folder {folder:o}: {stderr}"
        );
        assert_eq!(r.paths(), asked, "folder {folder:o}");
        assert!(std::fs::read(&db).unwrap() == before, "the file changed");
        checked += 1;
    }
    assert_eq!(checked, 2);
    mode(&db, 0o644);
    assert!(items(&db).is_empty());
}

/// Guards a refresh whose database cannot grow (a full disk): it fails with a clear error, the
/// file stays sound, what was stored before stays, and nothing is lost: the new validators are
/// not recorded, so the next refresh (with room) sends the old one, gets the new document, and
/// stores every item once. The full disk is a file size limit on the refresh's process
/// (`RLIMIT_FSIZE`, with `SIGXFSZ` ignored, so that a write past it fails with `EFBIG`; SQLite
/// reports that as a disk I/O error, where a real full disk, `ENOSPC`, reads "database or disk
/// is full": the same failing write either way).
#[test]
fn a_full_database_fails_clearly_and_loses_nothing() {
    use std::os::unix::process::CommandExt;

    let server = Server::start();
    let r = &server.routes;
    let u = |p: &str| server.url(p);
    let names: Vec<String> = (0..4).map(|k| format!("story{k}")).collect();
    // The first story is small; the others are incompressible, so that their rows cannot fit
    // under the limit. The first big one is slow, so that the small one's batch is likely to
    // be committed (the batch age) before the writes start failing: what a failed refresh
    // committed and what it did not must both come out right.
    for (k, name) in names.iter().enumerate() {
        let padding = if k == 0 { 0 } else { 400_000 };
        let body = page(name, name, &[]).replace(
            "<div id=\"footer\">",
            &format!(
                "<!-- {} --><div id=\"footer\">",
                incompressible_letters(padding, k as u64 + 7)
            ),
        );
        let delay = if k == 1 {
            limits::REFRESH_BATCH_AGE * 3
        } else {
            Duration::ZERO
        };
        r.set(&format!("/a/{name}.html"), html(body).delayed(delay));
    }
    r.set("/a/first.html", html(page("First", "cobalt", &[])));
    let state = Arc::new(Mutex::new(1usize));
    let s = Arc::clone(&state);
    let entries_for = {
        let names = names.clone();
        let first = u("/a/first.html");
        let links: Vec<String> = names.iter().map(|n| u(&format!("/a/{n}.html"))).collect();
        move |version: usize| {
            let mut e = vec![entry("First", Some(&first), "First.", None)];
            if version >= 2 {
                for (n, l) in names.iter().zip(&links) {
                    e.push(entry(n, Some(l), n, None));
                }
            }
            channel("Filling", &e)
        }
    };
    r.handle("/feed.xml", move |seen| {
        let v = *s.lock().unwrap();
        rss_reply(entries_for(v)).etagged(seen, &format!("\"v{v}\""))
    });
    let (_dir, db) = new_db();
    let feed_id = subscribe(&db, &u("/feed.xml"));
    must(pith(&db, &["refresh"]), "first refresh");
    assert_eq!(items(&db).len(), 1);
    let size = std::fs::metadata(&db).unwrap().len();

    *state.lock().unwrap() = 2;
    r.clear_log();
    let limit = size + 256 * 1024;
    let mut cmd = pith_cmd(&db, &["refresh", "--jobs", "1"]);
    // SAFETY: between fork and exec only async-signal-safe calls (signal, setrlimit).
    unsafe {
        cmd.pre_exec(move || {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            let rl = libc::rlimit {
                rlim_cur: limit,
                rlim_max: limit,
            };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &rl) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let out = cmd.output().expect("run pith");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success(),
        "the refresh reported success: {stderr}"
    );
    // A write past RLIMIT_FSIZE fails with EFBIG, which SQLite reports as an I/O error of the
    // write (a disk that is really full, ENOSPC, reads "database or disk is full"); either way
    // the refresh stops with the database named.
    let why = stderr
        .lines()
        .find(|l| l.starts_with("error: "))
        .unwrap_or_else(|| panic!("no error line: {stderr}"));
    assert!(
        why.contains(&format!("refreshing the feeds in {}", db.display()))
            && (why.contains("disk I/O error") || why.contains("database or disk is full")),
        "{stderr}"
    );
    // It fetched what it then could not store.
    assert_eq!(r.hits("/feed.xml").len(), 1);

    let store = Store::open(&db).unwrap();
    assert_eq!(store.integrity_check().unwrap(), "ok");
    let after_full = items(&db);
    assert!(
        after_full.iter().any(|i| i.link.ends_with("/a/first.html")),
        "{after_full:?}"
    );
    let feed = store.feed(feed_id).unwrap().unwrap();
    drop(store);
    assert_eq!(
        feed.etag.as_deref(),
        Some("\"v1\""),
        "the validators of the failed refresh were not recorded"
    );

    // With room again: the feed is asked for with its old validator, gets the new document, and
    // every entry is stored once.
    r.clear_log();
    must(pith(&db, &["refresh"]), "refresh with room");
    let asked = r.hits("/feed.xml");
    assert_eq!(asked.len(), 1);
    let all = items(&db);
    assert_eq!(all.len(), 1 + names.len(), "{all:?}");
    assert!(all.iter().all(|i| i.fetch_error.is_none()), "{all:?}");
    let store = Store::open(&db).unwrap();
    assert_eq!(
        store.feed(feed_id).unwrap().unwrap().etag.as_deref(),
        Some("\"v2\"")
    );
    // Tree inserts the failed refresh may have committed before its items did not count twice.
    assert_eq!(
        store.tree_doc_count("127.0.0.1").unwrap(),
        1 + names.len() as u32
    );
    assert_eq!(
        store.tree_consistency_errors().unwrap(),
        Vec::<String>::new()
    );
}

// ---------------------------------------------------------------------------------------------
// The command line and the events

/// Guards `pith refresh FEED` and `--no-images`: the named feed alone is asked for (by URL or
/// by id), `--no-images` stores the article without asking for its image, and an unknown feed
/// is an error that asks nothing. A later refresh with images does not go back for the images of
/// an article already stored (current behaviour, asserted as it stands).
#[test]
fn refresh_one_feed_and_no_images() {
    let server = Server::start();
    let r = &server.routes;
    let u = |p: &str| server.url(p);
    for (name, topic) in [("a", "heron"), ("b", "egret")] {
        r.set(&format!("/img/{name}.png"), Reply::ok("image/png", PNG));
        r.set(
            &format!("/{name}/story.html"),
            html(page(name, topic, &[u(&format!("/img/{name}.png"))])),
        );
        r.set(
            &format!("/{name}.xml"),
            rss_reply(channel(
                name,
                &[entry(
                    name,
                    Some(&u(&format!("/{name}/story.html"))),
                    topic,
                    None,
                )],
            )),
        );
    }
    let (_dir, db) = new_db();
    subscribe(&db, &u("/a.xml"));
    let b_id = subscribe(&db, &u("/b.xml"));

    let out = must(
        pith(&db, &["refresh", &u("/a.xml"), "--no-images"]),
        "refresh a --no-images",
    );
    assert!(out.contains("refreshed 1 feeds"), "{out}");
    assert!(out.contains("0 image requests"), "{out}");
    assert_eq!(r.paths(), ["/a.xml", "/a/story.html"]);
    let store = Store::open(&db).unwrap();
    let a = item(&db, "/a/story.html");
    assert_eq!(content_images(&store, a.id), [u("/img/a.png")]);
    assert!(store.item_images(a.id).unwrap().is_empty());
    assert_eq!(items(&db).len(), 1, "feed b was not refreshed");

    r.clear_log();
    let out = must(pith(&db, &["refresh", &b_id.to_string()]), "refresh b");
    assert!(out.contains("1 image requests"), "{out}");
    let asked: BTreeSet<String> = r.paths().into_iter().collect();
    let want: BTreeSet<String> = ["/b.xml", "/b/story.html", "/img/b.png"]
        .map(String::from)
        .into();
    assert_eq!(asked, want);
    let b = item(&db, "/b/story.html");
    assert_eq!(store.item_images(b.id).unwrap().len(), 1);

    r.clear_log();
    let missing = pith(&db, &["refresh", &u("/nothing.xml")]);
    assert!(!missing.ok);
    assert!(
        missing.stderr.contains("no subscription"),
        "{}",
        missing.stderr
    );
    assert!(r.log().is_empty(), "{:?}", r.paths());

    // Every feed, with images: the stored article's image is not fetched afterwards.
    must(pith(&db, &["refresh"]), "refresh all");
    assert!(r.hits("/img/a.png").is_empty(), "{:?}", r.paths());
    assert!(store.item_images(a.id).unwrap().is_empty());
}

/// Guards the progress events and the summary: `Started` first with the number of feeds, a
/// deferred feed's `FeedDone` before any work, one `PagesQueued` per feed with new entries before
/// its pages' `PageDone`s (one per entry, with the page's error), one `FeedDone` per feed after
/// its pages, and a summary that agrees with them and with the requests the server saw. Also
/// `RefreshOptions::feeds`: a refresh of one feed asks for that one only.
#[test]
fn progress_events_tell_every_feed_and_page_once_and_in_order() {
    let server = Server::start();
    let r = &server.routes;
    let u = |p: &str| server.url(p);
    r.set("/news/ok.html", html(page("Ok", "lynx", &[])));
    r.set("/news/down.html", Reply::status(500));
    r.set(
        "/news.xml",
        rss_reply(channel(
            "News",
            &[
                entry("Ok story", Some(&u("/news/ok.html")), "Ok.", None),
                entry("Down story", Some(&u("/news/down.html")), "Down.", None),
            ],
        )),
    );
    r.set("/broken.xml", Reply::status(404));
    r.set("/deferred.xml", rss_reply(channel("Deferred", &[])));
    r.handle("/same.xml", |seen| {
        rss_reply(channel("Same", &[])).etagged(seen, "\"same\"")
    });
    let (_dir, db) = new_db();
    let news = subscribe(&db, &u("/news.xml"));
    let broken = subscribe(&db, &u("/broken.xml"));
    let deferred = subscribe(&db, &u("/deferred.xml"));
    let same = subscribe(&db, &u("/same.xml"));
    let until = refresh::unix_now() + 3600;
    Store::open(&db)
        .unwrap()
        .feed_failed(deferred, "HTTP 429", Some(until), refresh::unix_now())
        .unwrap();
    // One feed alone first, so that it has an ETag.
    let mut only = options(2);
    only.feeds = Some(vec![same]);
    let (summary, events) = run(&db, &only);
    assert_eq!(summary.feeds_updated, 1, "{summary:?}");
    assert!(
        matches!(events[0], Event::Started { feeds: 1 }),
        "{events:?}"
    );
    assert_eq!(r.paths(), ["/same.xml"]);

    r.clear_log();
    let (summary, events) = run(&db, &options(2));
    assert!(
        matches!(events[0], Event::Started { feeds: 4 }),
        "{events:?}"
    );
    assert!(
        matches!(&events[1], Event::FeedDone { feed, outcome: FeedOutcome::Deferred { until: t }, .. }
            if *feed == deferred && *t == until),
        "{events:?}"
    );
    assert_eq!(
        events
            .iter()
            .filter(|e| matches!(e, Event::Started { .. }))
            .count(),
        1
    );
    let done_at = |feed: FeedId| {
        events
            .iter()
            .position(|e| matches!(e, Event::FeedDone { feed: f, .. } if *f == feed))
            .unwrap()
    };
    let queued: Vec<(usize, FeedId, usize)> = events
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match e {
            Event::PagesQueued { feed, count } => Some((i, *feed, *count)),
            _ => None,
        })
        .collect();
    assert_eq!(queued.len(), 1, "{events:?}");
    assert_eq!((queued[0].1, queued[0].2), (news, 2));
    let pages: Vec<(usize, FeedId, String, Option<String>)> = events
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match e {
            Event::PageDone { feed, title, error } => {
                Some((i, *feed, title.clone(), error.clone()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(pages.len(), 2, "{events:?}");
    for (i, feed, title, error) in &pages {
        assert_eq!(*feed, news);
        assert!(*i > queued[0].0 && *i < done_at(news), "{events:?}");
        match title.as_str() {
            "Ok story" => assert_eq!(*error, None),
            "Down story" => assert!(
                error.as_deref().is_some_and(|e| e.contains("HTTP 500")),
                "{error:?}"
            ),
            other => panic!("unexpected page {other}"),
        }
    }
    assert_ne!(pages[0].2, pages[1].2);
    assert_updated(&events, news, 2, 0, 1);
    match outcome_of(&events, broken) {
        FeedOutcome::Failed { error } => assert!(error.contains("HTTP 404"), "{error}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(outcome_of(&events, same), FeedOutcome::NotModified);
    assert_eq!(
        outcome_of(&events, deferred),
        FeedOutcome::Deferred { until }
    );
    assert_eq!(events.len(), 1 + 4 + 1 + 2, "{events:?}");
    assert_eq!(
        summary,
        Summary {
            feeds_updated: 1,
            feeds_not_modified: 1,
            feeds_failed: 1,
            feeds_deferred: 1,
            new_items: 2,
            linked: 0,
            page_errors: 1,
            feed_requests: 3,
            conditional_requests: 1,
            page_requests: 2,
            image_requests: 0,
            expired_items: 0,
            dropped_pages: 0,
            search_rows_rewritten: 0,
            search_upkeep_error: None,
        }
    );
    let asked: BTreeSet<String> = r.paths().into_iter().collect();
    let want: BTreeSet<String> = [
        "/news.xml",
        "/news/ok.html",
        "/news/down.html",
        "/broken.xml",
        "/same.xml",
    ]
    .map(String::from)
    .into();
    assert_eq!(asked, want, "the deferred feed is not asked");
    assert_eq!(r.log().len(), 5);
    assert_eq!(
        r.hits("/same.xml")[0]
            .headers
            .get("if-none-match")
            .map(String::as_str),
        Some("\"same\"")
    );
}
