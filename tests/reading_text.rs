//! What `pith read` prints of an article's own structure: code keeps its indentation, an
//! ordered list keeps its numbers (its `start` counted in), where an unordered one shows bullets,
//! the page's headline is not printed again under a title that says the same, and a page served
//! without a type of its own (`application/octet-stream`) is read when its bytes are HTML.

mod common;

use common::server::{Reply, Server, rss};
use common::{must, pith};

#[test]
fn code_keeps_its_indentation_and_ordered_lists_their_numbers() {
    let server = Server::start();
    let r = &server.routes;
    let path = "/docs/2024/guide.html";
    let page = "<!doctype html><html><head><meta charset=utf-8><title>A guide</title></head><body>\
        <div id=nav><a href=/>Home</a> <a href=/docs>Docs</a></div>\
        <div id=main><h1>A guide</h1>\
        <p>This guide shows a small function and the steps to run it, one after another, with \
        the reasons for each of them given in full sentences.</p>\
        <pre>fn answer() -> u32 {\n    if ready() {\n\treturn 42;\n    }\n    0\n}</pre>\
        <p>Then follow these steps, in the order given, and check each result before the next.</p>\
        <ol start=3><li>Build the program with the release profile.</li>\
        <li><p>Run it once.</p><p>Read what it prints.</p></li></ol>\
        <ul><li>An unordered remark about the steps above.</li></ul>\
        </div></body></html>";
    r.set(path, Reply::ok("text/html; charset=utf-8", page));
    let entries = vec![(
        "A guide - Example Docs".to_string(),
        server.url(path),
        "A small guide.".to_string(),
    )];
    r.set(
        "/feed.xml",
        Reply::ok("application/rss+xml", rss("Docs", &entries)),
    );
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pith.db");
    must(pith(&db, &["add", &server.url("/feed.xml")]), "add");
    let id = must(pith(&db, &["items"]), "items")
        .split_whitespace()
        .next()
        .unwrap()
        .to_string();
    let read = must(pith(&db, &["read", &id]), "read");
    assert!(read.starts_with("A guide - Example Docs\n"), "{read}");
    assert!(!read.contains("## A guide"), "the headline once: {read}");
    for line in [
        "fn answer() -> u32 {",
        "    if ready() {",
        "    return 42;",
        "    }",
        "    0",
    ] {
        assert!(read.lines().any(|l| l == line), "{line:?} in:\n{read}");
    }
    assert!(
        read.contains("  3. Build the program with the release profile."),
        "{read}"
    );
    assert!(read.contains("  4. Run it once."), "{read}");
    assert!(read.contains("    Read what it prints."), "{read}");
    assert!(
        read.contains("  - An unordered remark about the steps above."),
        "{read}"
    );
}

#[test]
fn a_page_served_as_octet_stream_is_read_when_it_is_html_and_refused_when_it_is_not() {
    let server = Server::start();
    let r = &server.routes;
    let story = "/news/2004/3456789.stm";
    r.set(
        story,
        Reply::ok(
            "application/octet-stream",
            "\r\n<html><head><title>Old story</title></head><body><div id=story>\
             <h1>Old story</h1><p>The old story was served without a type of its own, as many \
             pages of its time were, and still reads as a page in every browser.</p>\
             <p>Its second paragraph says so again, so that it is long enough to be an article.</p>\
             </div></body></html>",
        ),
    );
    let binary = "/files/report";
    r.set(
        binary,
        Reply::ok("application/octet-stream", &b"%PDF-1.7\n%binary\n"[..]),
    );
    let entries = vec![
        (
            "Old story".to_string(),
            server.url(story),
            "An old story.".to_string(),
        ),
        (
            "A report".to_string(),
            server.url(binary),
            "A report.".to_string(),
        ),
    ];
    r.set(
        "/feed.xml",
        Reply::ok("application/rss+xml", rss("Old news", &entries)),
    );
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pith.db");
    must(pith(&db, &["add", &server.url("/feed.xml")]), "add");
    let items = pith::store::Store::open(&db)
        .unwrap()
        .items(&pith::store::ItemFilter::default())
        .unwrap();
    let old = items.iter().find(|i| i.title == "Old story").unwrap();
    assert_eq!(old.fetch_error, None);
    let read = must(pith(&db, &["read", &old.id.to_string()]), "read");
    assert!(read.contains("still reads as a page"), "{read}");
    let report = items.iter().find(|i| i.title == "A report").unwrap();
    assert!(
        report
            .fetch_error
            .as_deref()
            .is_some_and(|e| e.contains("not a web page")),
        "{report:?}"
    );
}
