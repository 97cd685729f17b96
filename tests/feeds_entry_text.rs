//! The feed entry's own text is evidence of where the article lives: a full-text entry overrules
//! a page whose best-scored box is not the story, both when the refresh stores the article and
//! when `pith read` classifies the stored page again; a one-line summary changes nothing.

mod common;

use common::server::{Reply, Server, article, rss};
use common::{must, pith};
use pith::store::{ItemFilter, Store};

/// A page whose story is laid out as table rows (which score poorly) beside a subscription box
/// of real paragraphs (which scores well).
fn trap_page(title: &str, lines: &[String]) -> String {
    let cells: String = lines
        .iter()
        .map(|l| format!("<tr><td>{l}</td><td><a href=\"/x\">x</a></td></tr>"))
        .collect();
    format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>{title}</title></head><body>\
         <div class=\"offer\"><h2>Subscribe</h2><p>Get every story, every morning, with offers, \
         puzzles, recipes, and more, for one low price, and cancel, whenever you like.</p>\
         <p>Already a subscriber? Sign in, and read on, on any device, at home, at work, or on \
         the go, with no limits.</p><p>Questions? Call us, or write, any day, from eight to \
         eight, and we will help, gladly, at once.</p></div><table>{cells}</table></body></html>"
    )
}

/// Asserts that `shown` (what `pith read` printed) holds every line of [`story`]`(topic)`.
fn assert_tells_story(shown: &str, topic: &str) {
    for n in 0..9 {
        assert!(
            shown.contains(&format!("Line {n} of the {topic} story")),
            "{shown}"
        );
    }
}

fn story(topic: &str) -> Vec<String> {
    (0..9)
        .map(|n| {
            format!(
                "Line {n} of the {topic} story reports how the new timetable was agreed and \
                 what it changes for commuters"
            )
        })
        .collect()
}

/// Subscribes a fresh database to the server's `/feed.xml` (a refresh of its entries and their
/// pages); returns the database's directory and path, and a function from a page's path to its
/// item's id.
fn subscribe(
    server: &Server,
) -> (
    tempfile::TempDir,
    std::path::PathBuf,
    impl Fn(&str) -> String,
) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pith.db");
    must(pith(&db, &["add", &server.url("/feed.xml")]), "add");
    let items = Store::open(&db)
        .unwrap()
        .items(&ItemFilter::default())
        .unwrap();
    let id_of = move |path: &str| {
        items
            .iter()
            .find(|i| i.link.ends_with(path))
            .map(|i| i.id.to_string())
            .unwrap_or_else(|| panic!("no item for {path} in {items:?}"))
    };
    (dir, db, id_of)
}

#[test]
fn a_full_text_entry_overrules_the_page_and_a_summary_does_not() {
    let server = Server::start();
    let r = &server.routes;
    let (full, short) = (story("harbour"), story("airport"));
    let entries = vec![
        (
            "Harbour timetable".to_string(),
            server.url("/news/harbour.html"),
            full.join(". "),
        ),
        (
            "Airport timetable".to_string(),
            server.url("/news/airport.html"),
            short[0].clone(),
        ),
    ];
    r.set(
        "/feed.xml",
        Reply::ok("application/rss+xml", rss("News", &entries)),
    );
    r.set(
        "/news/harbour.html",
        Reply::ok("text/html", trap_page("Harbour timetable", &full)),
    );
    r.set(
        "/news/airport.html",
        Reply::ok("text/html", trap_page("Airport timetable", &short)),
    );
    let (_dir, db, id_of) = subscribe(&server);
    let harbour = must(pith(&db, &["read", &id_of("/news/harbour.html")]), "read");
    assert_tells_story(&harbour, "harbour");
    assert!(!harbour.contains("Get every story"), "{harbour}");
    // Without the entry's text the page's own choice stands (the trap works).
    let airport = must(pith(&db, &["read", &id_of("/news/airport.html")]), "read");
    assert!(airport.contains("Get every story"), "{airport}");
    // The clean text the refresh stored (the full-text index) is the story's too: only the
    // harbour item holds "commuters", a word of its story lines and of no title.
    let found = must(pith(&db, &["search", "commuters"]), "search");
    assert!(found.contains("Harbour timetable"), "{found}");
    assert!(!found.contains("Airport timetable"), "{found}");
}

/// A blog's feed gives each post twice: an excerpt as the description and the whole post as
/// `content:encoded` (WordPress's default). The whole post is the evidence, as when it is the
/// description.
#[test]
fn a_feeds_whole_post_beside_its_excerpt_overrules_the_page() {
    let server = Server::start();
    let r = &server.routes;
    let lines = story("ferry");
    let link = server.url("/news/ferry.html");
    let post: String = lines.iter().map(|l| format!("<p>{l}.</p>")).collect();
    let feed = format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<rss version=\"2.0\" \
         xmlns:content=\"http://purl.org/rss/1.0/modules/content/\"><channel><title>Blog\
         </title><link>http://127.0.0.1/</link><item><title>Ferry timetable</title>\
         <link>{link}</link><guid>{link}</guid><description>{} [&#8230;]</description>\
         <content:encoded><![CDATA[{post}]]></content:encoded></item></channel></rss>",
        lines[0]
    );
    r.set("/feed.xml", Reply::ok("application/rss+xml", feed));
    r.set(
        "/news/ferry.html",
        Reply::ok("text/html", trap_page("Ferry timetable", &lines)),
    );
    let (_dir, db, id_of) = subscribe(&server);
    let ferry = must(pith(&db, &["read", &id_of("/news/ferry.html")]), "read");
    assert_tells_story(&ferry, "ferry");
    assert!(!ferry.contains("Get every story"), "{ferry}");
    // The page's own blocks tell it, as evidence: the feed's text does not stand in for it.
    assert!(!ferry.contains("pith found little"), "{ferry}");
}

/// A page whose article a script draws holds none of it: the reader shows the feed's whole post
/// in its place, says so, and keeps the page's blocks for the inspector. A page that holds the
/// article is shown as it is beside the same post.
#[test]
fn the_feeds_whole_post_stands_in_for_a_page_that_holds_little_of_it() {
    let server = Server::start();
    let r = &server.routes;
    let (drawn, served) = (story("tram"), story("canal"));
    let entries: Vec<(String, String, String)> = [("Tram", &drawn), ("Canal", &served)]
        .iter()
        .map(|(name, lines)| {
            let mut post: String = lines.iter().map(|l| format!("<p>{l}.</p>")).collect();
            if *name == "Tram" {
                post.push_str("<p>Engineers replaced every pantograph on the line.</p>");
            }
            (
                format!("{name} timetable"),
                server.url(&format!("/news/{}.html", name.to_lowercase())),
                post.replace('<', "&lt;").replace('>', "&gt;"),
            )
        })
        .collect();
    r.set(
        "/feed.xml",
        Reply::ok("application/rss+xml", rss("News", &entries)),
    );
    r.set(
        "/news/tram.html",
        Reply::ok(
            "text/html",
            "<!doctype html><html><head><title>Tram timetable</title></head><body>\
             <div id=\"app\">Loading…</div><footer><p>Copyright The Loopback Gazette, all \
             rights reserved, terms of use and privacy policy apply.</p></footer>\
             <script src=\"/app.js\"></script></body></html>",
        ),
    );
    let refs: Vec<&str> = served.iter().map(String::as_str).collect();
    r.set(
        "/news/canal.html",
        Reply::ok("text/html", article("Canal timetable", &refs, None)),
    );
    let (_dir, db, id_of) = subscribe(&server);
    let tram = must(pith(&db, &["read", &id_of("/news/tram.html")]), "read");
    assert!(
        tram.contains("pith found little of the article on its page"),
        "{tram}"
    );
    assert_tells_story(&tram, "tram");
    assert!(!tram.contains("Copyright"), "{tram}");
    // The page's blocks are still there to inspect, after the feed's text.
    let blocks = must(
        pith(&db, &["read", "--blocks", &id_of("/news/tram.html")]),
        "read",
    );
    assert!(
        blocks.contains("Copyright The Loopback Gazette"),
        "{blocks}"
    );
    let canal = must(pith(&db, &["read", &id_of("/news/canal.html")]), "read");
    assert!(!canal.contains("pith found little"), "{canal}");
    assert!(canal.contains("Line 8 of the canal story"), "{canal}");
    // A search finds what the reader shows, with a passage of it.
    let found = must(pith(&db, &["search", "pantograph"]), "search");
    assert!(found.contains("Tram timetable"), "{found}");
    assert!(found.contains("pantograph"), "{found}");
}

/// A page that failed under one feed and is completed by another feed's retry is classified
/// with the summary its item keeps, so the stored clean text and `pith read` agree.
#[test]
fn a_retry_from_another_feed_classifies_with_the_stored_summary() {
    let server = Server::start();
    let r = &server.routes;
    let lines = story("bridge");
    let link = server.url("/news/bridge.html");
    r.set(
        "/a.xml",
        Reply::ok(
            "application/rss+xml",
            rss(
                "A",
                &[("Bridge timetable".into(), link.clone(), lines[0].clone())],
            ),
        ),
    );
    r.set(
        "/b.xml",
        Reply::ok(
            "application/rss+xml",
            rss(
                "B",
                &[("Bridge timetable".into(), link.clone(), lines.join(". "))],
            ),
        ),
    );
    r.set("/news/bridge.html", Reply::status(503));
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pith.db");
    must(pith(&db, &["add", &server.url("/a.xml")]), "add A");
    r.set(
        "/news/bridge.html",
        Reply::ok("text/html", trap_page("Bridge timetable", &lines)),
    );
    must(pith(&db, &["add", &server.url("/b.xml")]), "add B");
    // Feed A no longer lists the story: the next refresh retries it through B's entry alone.
    r.set("/a.xml", Reply::ok("application/rss+xml", rss("A", &[])));
    must(pith(&db, &["refresh"]), "refresh");
    let items = Store::open(&db)
        .unwrap()
        .items(&ItemFilter::default())
        .unwrap();
    assert_eq!(items.len(), 1, "{items:?}");
    assert!(items[0].fetch_error.is_none(), "{items:?}");
    let read = must(pith(&db, &["read", &items[0].id.to_string()]), "read");
    let found = must(pith(&db, &["search", "commuters"]), "search");
    let read_has_story = read.contains("Line 8 of the bridge story");
    let stored_has_story = found.contains("Bridge timetable");
    assert_eq!(
        read_has_story, stored_has_story,
        "read:\n{read}\nsearch:\n{found}"
    );
}
