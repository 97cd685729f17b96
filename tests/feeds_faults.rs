//! End to end through the real binary against a loopback server that also misbehaves: every fault
//! gives a clear per-feed error in `pith feeds`, the other feeds refresh normally, and nothing
//! already stored is lost. Also: conditional GET, Retry-After remembered, duplicates linked across
//! feeds, images stored for offline reading, OPML round trip, read/star/mark-read/search/remove.

mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use common::server::{Reply, Server, article, gzip, rss};
use common::{must, pith};

/// The time-out of every refresh whose subject is not a time-out: generous, so that a slow,
/// busy machine fails no request by it.
const TIMEOUT: &str = "30";

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89\0\0\0\rIDATx\x9cc\xf8\x0f\0\0\x01\x01\0\x05\x18\xd8N\0\0\0\0IEND\xaeB`\x82";

/// The lines of `pith feeds` output for the feed whose URL ends with `suffix`.
fn feed_block(feeds: &str, suffix: &str) -> String {
    let mut blocks: Vec<Vec<&str>> = Vec::new();
    for line in feeds.lines() {
        let is_head = line.len() > 6 && !line.starts_with("      ");
        if is_head || blocks.is_empty() {
            blocks.push(Vec::new());
        }
        if let Some(b) = blocks.last_mut() {
            b.push(line);
        }
    }
    blocks
        .into_iter()
        .find(|b| {
            b.iter()
                .any(|l| l.trim_end().ends_with(suffix) && l.trim_start().starts_with("http"))
        })
        .unwrap_or_else(|| panic!("no feed {suffix} in:\n{feeds}"))
        .join("\n")
}

/// Guards the refresh against a misbehaving server: each fault (404, 500, a time-out, a
/// redirect loop, an oversized or badly compressed or malformed feed, 429 with Retry-After) is a
/// clear error on its own feed only; conditional GET, duplicates across feeds (one item, its page
/// fetched once per link), offline images, and the commands that read and change what is stored.
#[test]
fn faults_are_per_feed_and_nothing_stored_is_lost() {
    let server = Server::start();
    let r = &server.routes;
    let u = |p: &str| server.url(p);

    // Two well-behaved feeds on one site; the second lists article 1 again through a redirect.
    let paras = |n: usize| -> Vec<String> {
        (0..3)
            .map(|k| format!("Paragraph {k} of story number {n} tells of river{n} and mountain{n} in great detail for readers."))
            .collect()
    };
    for n in 1..=4 {
        let ps = paras(n);
        let refs: Vec<&str> = ps.iter().map(String::as_str).collect();
        let img = (n == 1).then(|| u("/img/1.png"));
        r.set(
            &format!("/a/{n}.html"),
            Reply::ok(
                "text/html; charset=utf-8",
                article(&format!("Story {n}"), &refs, img.as_deref()),
            ),
        );
    }
    r.set("/img/1.png", Reply::ok("image/png", PNG));
    let items = |ns: &[usize]| -> Vec<(String, String, String)> {
        ns.iter()
            .map(|n| {
                (
                    format!("Story {n}"),
                    u(&format!("/a/{n}.html")),
                    format!("Summary of story {n}"),
                )
            })
            .collect()
    };
    r.set(
        "/good.xml",
        Reply::ok("application/rss+xml", rss("Good feed", &items(&[1, 2, 3])))
            .header("ETag", "\"v1\""),
    );
    let mut second = items(&[4]);
    second.push(("Story one again".into(), u("/r/1"), "Other summary".into()));
    // The redirect answers only once article 1 was asked for through its own link, so the order
    // of the two fetches is fixed whatever order the workers take the entries in (see the hit
    // count below). The wait is bounded: past it the refresh would fail loudly.
    {
        let routes = Arc::clone(&server.routes);
        let target = u("/a/1.html");
        r.handle("/r/1", move |_| {
            let give_up = Instant::now() + Duration::from_secs(60);
            while routes.hits("/a/1.html").is_empty() && Instant::now() < give_up {
                std::thread::sleep(Duration::from_millis(10));
            }
            Reply::redirect(302, &target)
        });
    }
    r.set(
        "/second.xml",
        Reply::ok("application/rss+xml", rss("Second feed", &second))
            .header("Last-Modified", "Sat, 01 Jan 2000 00:00:00 GMT"),
    );
    // An entry whose page fails keeps its summary.
    r.set(
        "/withbroken.xml",
        Reply::ok(
            "application/rss+xml",
            rss(
                "Feed with a broken link",
                &[(
                    "Gone story".into(),
                    u("/a/gone.html"),
                    "The summary survives".into(),
                )],
            ),
        ),
    );
    // Charset: the header says Latin-1, the document is UTF-8 (and says nothing itself).
    let utf8_feed = rss("Caf\u{e9} \u{fc}ber feed", &[])
        .replace("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n", "");
    r.set(
        "/charset.xml",
        Reply::ok("text/xml; charset=iso-8859-1", utf8_feed),
    );

    // The faults.
    r.set("/404.xml", Reply::status(404));
    r.set("/500.xml", Reply::status(500));
    // Answers at once in the refreshes of every feed; hangs for the refresh of this feed alone
    // whose subject is its time-out (below).
    let slow_feed = Reply::ok("application/rss+xml", rss("Slow", &[]));
    r.set("/slow.xml", slow_feed.clone());
    r.set("/loop.xml", Reply::redirect(302, &u("/loop2.xml")));
    r.set("/loop2.xml", Reply::redirect(301, &u("/loop.xml")));
    let mut big = rss("Big", &[]).into_bytes();
    big.truncate(big.len() - 20);
    big.extend(std::iter::repeat_n(b' ', 10 * 1024 * 1024 + 10));
    r.set("/big.xml", Reply::ok("application/rss+xml", big));
    r.set(
        "/badgzip.xml",
        Reply::ok(
            "application/rss+xml",
            b"\x1f\x8b\x08\0this is not gzip at all".to_vec(),
        )
        .header("Content-Encoding", "gzip"),
    );
    r.set(
        "/malformed.xml",
        Reply::ok(
            "application/rss+xml",
            "<rss version=\"2.0\"><channel><title>x</ti<<item>>",
        ),
    );
    // Retry-After holds for the whole host, so the rate-limiting feed gets a server of its own.
    let limited = Server::start();
    limited
        .routes
        .set("/429.xml", Reply::status(429).header("Retry-After", "3600"));
    // gzip done right is fine.
    r.set(
        "/gzip.xml",
        Reply::ok(
            "application/rss+xml",
            gzip(rss("Gzipped feed", &[]).as_bytes()),
        )
        .header("Content-Encoding", "gzip"),
    );

    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pith.db");
    let paths = [
        "/good.xml",
        "/second.xml",
        "/withbroken.xml",
        "/charset.xml",
        "/404.xml",
        "/500.xml",
        "/slow.xml",
        "/loop.xml",
        "/big.xml",
        "/badgzip.xml",
        "/malformed.xml",
        "/429.xml",
        "/gzip.xml",
    ];
    let mut opml = String::from(
        "<?xml version=\"1.0\"?><opml version=\"2.0\"><head><title>t</title></head><body><outline text=\"Folder\">",
    );
    for p in paths {
        let url = if p == "/429.xml" {
            limited.url(p)
        } else {
            u(p)
        };
        opml.push_str(&format!("<outline text=\"{p}\" xmlUrl=\"{url}\"/>"));
    }
    opml.push_str("</outline></body></opml>");
    let opml_path = dir.path().join("subs.opml");
    std::fs::write(&opml_path, opml).unwrap();
    let out = must(
        pith(&db, &["import", opml_path.to_str().unwrap()]),
        "import",
    );
    assert!(out.contains("13 feeds"), "{out}");

    let out = must(
        pith(&db, &["refresh", "--jobs", "4", "--timeout", TIMEOUT]),
        "refresh",
    );
    println!("{out}");
    // A server that does not answer: the feed's request times out. The server's delay is 120
    // times the time-out, so the time-out comes first on any machine.
    r.set(
        "/slow.xml",
        slow_feed.clone().delayed(Duration::from_secs(120)),
    );
    let out = must(
        pith(&db, &["refresh", &u("/slow.xml"), "--timeout", "1"]),
        "refresh the slow feed",
    );
    println!("{out}");
    r.set("/slow.xml", slow_feed);
    let feeds = must(pith(&db, &["feeds"]), "feeds");
    println!("{feeds}");
    let expect_error = |path: &str, want: &str| {
        let block = feed_block(&feeds, path);
        assert!(
            block.contains("error: ") && block.contains(want),
            "{path}: want {want:?} in:\n{block}"
        );
    };
    expect_error("/404.xml", "HTTP 404 Not Found");
    expect_error("/500.xml", "HTTP 500 Internal Server Error");
    expect_error("/slow.xml", "timed out");
    expect_error("/loop.xml", "redirect loop");
    expect_error("/big.xml", "larger than the 10 MB limit");
    expect_error("/badgzip.xml", "broken gzip compression");
    expect_error("/malformed.xml", "not a valid feed");
    expect_error(
        "/429.xml",
        "HTTP 429 Too Many Requests: the server asks to retry after 3600 s",
    );
    for ok in [
        "/good.xml",
        "/second.xml",
        "/withbroken.xml",
        "/charset.xml",
        "/gzip.xml",
    ] {
        assert!(
            !feed_block(&feeds, ok).contains("error:"),
            "{ok} failed:\n{feeds}"
        );
    }
    assert!(
        feeds.contains("Caf\u{e9} \u{fc}ber feed"),
        "wrong charset not recovered:\n{feeds}"
    );
    assert!(
        feed_block(&feeds, "/good.xml").contains("3 items, 3 unread"),
        "{feeds}"
    );
    // Article 1 came through two feeds: one item, linked to both.
    assert!(
        feed_block(&feeds, "/second.xml").contains("2 items"),
        "{feeds}"
    );
    // Its second link redirects: the page is fetched to learn the response URL (paper §3), and its
    // URL key finds the stored item; it is neither counted in the tree nor stored again. So two
    // fetches: its own link's, then the redirect's (which waits for the first, so that neither
    // entry can find the other's item by its link first and skip a fetch).
    assert_eq!(r.hits("/a/1.html").len(), 2);
    {
        let store = pith::store::Store::open(&db).unwrap();
        assert_eq!(
            store.tree_doc_count("127.0.0.1").unwrap(),
            4,
            "a duplicate was counted"
        );
        assert!(store.tree_consistency_errors().unwrap().is_empty());
    }
    assert_eq!(r.hits("/img/1.png").len(), 1);

    let list = must(pith(&db, &["items"]), "items");
    println!("{list}");
    assert_eq!(
        list.lines().count(),
        5,
        "4 stories + the broken one:\n{list}"
    );
    let id_of = |title: &str| -> String {
        list.lines()
            .find(|l| l.contains(title))
            .unwrap_or_else(|| panic!("no {title} in {list}"))
            .split_whitespace()
            .next()
            .unwrap()
            .to_string()
    };
    // Article 1 is one item under whichever of its two entries was stored first: "Story 1" from
    // the good feed or "Story one again" from the second (the workers race; either is right).
    let story1_title = if list.contains("Story one again") {
        "Story one again"
    } else {
        "Story 1 "
    };
    let story1 = id_of(story1_title);
    let line1 = list.lines().find(|l| l.contains(story1_title)).unwrap();
    assert!(
        line1.contains("Good feed") && line1.contains("Second feed"),
        "{line1}"
    );

    // The server goes away: reading works offline, from the database.
    r.set("/a/1.html", Reply::status(500));
    r.set("/img/1.png", Reply::status(500));
    let text = must(pith(&db, &["read", &story1]), "read");
    assert!(text.contains("river1 and mountain1"), "{text}");
    assert!(text.contains("stored offline"), "image not stored: {text}");
    let unread = must(pith(&db, &["items", "--unread"]), "items --unread");
    assert!(
        !unread.contains(story1_title),
        "read did not mark read:\n{unread}"
    );
    let gone = must(pith(&db, &["read", &id_of("Gone story")]), "read broken");
    assert!(
        gone.contains("could not be fetched") && gone.contains("HTTP 404"),
        "{gone}"
    );
    assert!(gone.contains("The summary survives"), "{gone}");

    // Second refresh: the good feeds now fail or say 304; nothing stored is lost; the 429 feed
    // is not asked again before its Retry-After.
    r.set("/good.xml", Reply::status(500));
    r.handle("/second.xml", |seen| {
        if seen.headers.get("if-modified-since").map(String::as_str)
            == Some("Sat, 01 Jan 2000 00:00:00 GMT")
        {
            Reply::status(304)
        } else {
            Reply::status(500)
        }
    });
    let before_429 = limited.routes.hits("/429.xml").len();
    assert_eq!(before_429, 1);
    let out = must(
        pith(&db, &["refresh", "--jobs", "4", "--timeout", TIMEOUT]),
        "refresh 2",
    );
    println!("{out}");
    assert_eq!(
        limited.routes.hits("/429.xml").len(),
        1,
        "Retry-After not honoured"
    );
    assert!(r.hits("/second.xml").last().unwrap().conditional());
    let feeds2 = must(pith(&db, &["feeds"]), "feeds 2");
    assert!(
        feed_block(&feeds2, "/good.xml").contains("HTTP 500"),
        "{feeds2}"
    );
    assert!(
        feed_block(&feeds2, "/good.xml").contains("3 items"),
        "{feeds2}"
    );
    assert!(
        !feed_block(&feeds2, "/second.xml").contains("error:"),
        "{feeds2}"
    );
    assert!(
        feed_block(&feeds2, "/429.xml").contains("not asked again before"),
        "{feeds2}"
    );
    let list2 = must(pith(&db, &["items"]), "items 2");
    assert_eq!(list2.lines().count(), 5, "{list2}");

    // Search, star, mark-read, export, remove.
    let hits = must(pith(&db, &["search", "mountain3"]), "search");
    assert!(hits.contains("Story 3"), "{hits}");
    let hits = must(pith(&db, &["search", "survives"]), "search summary");
    assert!(hits.contains("Gone story"), "{hits}");
    assert!(must(pith(&db, &["star", &story1]), "star").contains("starred"));
    let starred = must(pith(&db, &["items", "--starred"]), "starred");
    assert_eq!(starred.lines().count(), 1, "{starred}");
    assert!(must(pith(&db, &["star", &story1]), "unstar").contains("unstarred"));
    must(
        pith(&db, &["mark-read", "--feed", &u("/good.xml")]),
        "mark-read feed",
    );
    must(pith(&db, &["mark-read", "--all"]), "mark-read all");
    assert_eq!(
        must(pith(&db, &["items", "--unread"]), "unread")
            .lines()
            .count(),
        0
    );
    let exported = must(pith(&db, &["export"]), "export");
    assert!(
        exported.contains(&u("/malformed.xml")) && exported.contains("Good feed"),
        "{exported}"
    );
    must(pith(&db, &["remove", &u("/good.xml")]), "remove");
    let list3 = must(pith(&db, &["items"]), "items 3");
    // Stories 2 and 3 went with their only feed; story 1 stays, the second feed lists it.
    assert_eq!(list3.lines().count(), 3, "{list3}");
    assert!(list3.contains(story1_title), "{list3}");
    let missing = pith(&db, &["remove", "9999"]);
    assert!(
        !missing.ok && missing.stderr.contains("no subscription"),
        "{}",
        missing.stderr
    );
}

/// Guards `pith add`: a page's advertised feeds are found, the first is subscribed and refreshed
/// and the others named; adding it again says it is already subscribed; a missing page, a page
/// without feeds and a non-loopback address (in tests) are clear errors.
#[test]
fn add_discovers_the_feed_of_a_page() {
    let server = Server::start();
    let r = &server.routes;
    let u = |p: &str| server.url(p);
    r.set(
        "/blog/",
        Reply::ok(
            "text/html",
            format!(
                "<html><head><link rel=\"alternate\" type=\"application/atom+xml\" href=\"/blog/atom\">\
                 <link rel=\"alternate\" type=\"application/rss+xml\" href=\"{}\"></head><body>hi</body></html>",
                u("/blog/rss")
            ),
        ),
    );
    let atom = format!(
        "<?xml version=\"1.0\"?><feed xmlns=\"http://www.w3.org/2005/Atom\"><title>Blog</title><id>urn:b</id>\
         <entry><title>Post</title><id>urn:p</id><link href=\"{}\"/><summary>s</summary></entry></feed>",
        u("/blog/post")
    );
    r.set("/blog/atom", Reply::ok("application/atom+xml", atom));
    r.set(
        "/blog/post",
        Reply::ok(
            "text/html",
            article("Post", &["A post about owls and their habits."], None),
        ),
    );
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pith.db");
    let out = must(pith(&db, &["add", &u("/blog/")]), "add");
    assert!(
        out.contains(&format!("subscribed to {}", u("/blog/atom"))),
        "{out}"
    );
    assert!(out.contains(&u("/blog/rss")), "{out}");
    assert!(out.contains("1 new items"), "{out}");
    let again = must(
        pith(&db, &["add", &u("/blog/atom"), "--no-refresh"]),
        "add again",
    );
    assert!(again.contains("already subscribed"), "{again}");
    let bad = pith(&db, &["add", &u("/nothing")]);
    assert!(!bad.ok && bad.stderr.contains("HTTP 404"), "{}", bad.stderr);
    r.set(
        "/plain",
        Reply::ok("text/html", "<html><body>no feeds</body></html>"),
    );
    let bad = pith(&db, &["add", &u("/plain")]);
    assert!(
        !bad.ok && bad.stderr.contains("neither a feed"),
        "{}",
        bad.stderr
    );
    let outside = pith(&db, &["add", "http://example.com/feed"]);
    assert!(
        !outside.ok && outside.stderr.contains("loopback"),
        "{}",
        outside.stderr
    );
}
