//! Hostile input: pages, feeds and servers built to hurt a reader. Each case must give a clear
//! error or a result within pith's limits (`src/limits.rs`), in bounded time and memory.
//!
//! Every case runs in a child process (this test binary again, selected by `PITH_HOSTILE_CASE`),
//! so that its peak memory (`ru_maxrss` from `wait4`) and wall time are its own; both are printed
//! (`cargo test --release --test hostile -- --nocapture` shows them). Assertions are on results,
//! never on speed: a slow machine must not fail the suite. The only time bound is a hang guard.
//! Network cases use a server on 127.0.0.1 that the test starts.

mod common;

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use pith::fetch::{FetchConfig, FetchError, Fetched, Fetcher, Request};
use pith::limits;
use url::Url;

/// A case that runs longer than this is hung (the budget this suite states is 5 s; this guard
/// is far above it so that a loaded machine does not fail it).
const HANG_GUARD: Duration = Duration::from_secs(120);

/// Peak resident memory a case may reach. The largest input here is 50 MB; the bounds in
/// `limits.rs` keep every case far below this.
const MAX_PEAK_RSS_MB: i64 = 1024;

/// A 1×1 PNG.
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89\0\0\0\rIDATx\x9cc\xf8\x0f\0\0\x01\x01\0\x05\x18\xd8N\0\0\0\0IEND\xaeB`\x82";

/// What a child prints before a line meant for the parent's report.
const MARK: &str = "@@ ";

struct Measured {
    secs: f64,
    peak_rss_mb: f64,
}

/// Runs `body` in a child process and reports its time and peak memory; in the child itself,
/// runs `body`.
fn isolated(case: &str, body: impl FnOnce()) {
    if std::env::var("PITH_HOSTILE_CASE").as_deref() == Ok(case) {
        body();
        // Proof for the parent that this case ran here: a child given a test name that no
        // longer exists runs nothing and exits 0.
        println!("{MARK}RAN {case}");
        // The child's own high-water mark: its memory map is new since exec, unlike
        // `ru_maxrss`, which on Linux carries the parent's size over the fork.
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        if let Some(kb) = status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<i64>().ok())
        {
            println!("{MARK}VMHWM {kb}");
        }
        return;
    }
    let m = run_child(case);
    println!(
        "hostile case {case}: {:.2} s, peak RSS {:.0} MB",
        m.secs, m.peak_rss_mb
    );
    assert!(
        m.peak_rss_mb <= MAX_PEAK_RSS_MB as f64,
        "{case}: peak memory {:.0} MB",
        m.peak_rss_mb
    );
}

fn run_child(case: &str) -> Measured {
    let exe = std::env::current_exe().unwrap();
    let started = Instant::now();
    let mut child = Command::new(exe)
        .args([case, "--exact", "--nocapture", "--test-threads=1"])
        .env("PITH_HOSTILE_CASE", case)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (status, rss_kb) = wait_measured(&mut child, case);
    let secs = started.elapsed().as_secs_f64();
    let mut out = String::new();
    let mut err = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let mut hwm_kb = None;
    let mut ran = false;
    // Lines may follow the harness's "test NAME ... " on the same line: split at the mark.
    for line in out
        .split(MARK)
        .skip(1)
        .map(|l| l.lines().next().unwrap_or(""))
    {
        if let Some(kb) = line.strip_prefix("VMHWM ") {
            hwm_kb = kb.trim().parse::<i64>().ok();
        } else if line.strip_prefix("RAN ") == Some(case) {
            ran = true;
        } else {
            println!("  {line}");
        }
    }
    assert!(status, "{case} failed in its child process:\n{out}\n{err}");
    assert!(
        ran,
        "{case}: the child process ran no such case (is the isolated() name the test's name?)\n{out}"
    );
    Measured {
        secs,
        peak_rss_mb: hwm_kb.unwrap_or(rss_kb) as f64 / 1024.0,
    }
}

/// Waits for the child with `wait4`, which also gives its peak resident set; kills it when it
/// outlives [`HANG_GUARD`].
fn wait_measured(child: &mut std::process::Child, case: &str) -> (bool, i64) {
    let pid = child.id() as libc::pid_t;
    let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let guard = {
        let done = Arc::clone(&done);
        std::thread::spawn(move || {
            let start = Instant::now();
            while start.elapsed() < HANG_GUARD {
                if done.load(std::sync::atomic::Ordering::SeqCst) {
                    return false;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            // SAFETY: signalling our own child, not yet reaped (`done` is unset).
            unsafe { libc::kill(pid, libc::SIGKILL) };
            true
        })
    };
    // Drain the pipes meanwhile? The children print a few lines only, far below a pipe's buffer.
    let mut status = 0;
    // SAFETY: rusage is plain data; wait4 fills it for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    done.store(true, std::sync::atomic::Ordering::SeqCst);
    let hung = guard.join().unwrap();
    assert_eq!(r, pid, "wait4 failed");
    assert!(!hung, "{case}: no result within {HANG_GUARD:?} (hung)");
    let ok = libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0;
    (ok, usage.ru_maxrss)
}

fn base() -> Url {
    Url::parse("https://www.example.com/news/2024/05/story.html").unwrap()
}

/// Parses page bytes the way a refresh does, checks every page limit, and reports the counts.
fn parse_checked(what: &str, bytes: &[u8], declared: Option<&str>) -> pith::page::Page {
    let start = Instant::now();
    let page = pith::page::parse_page(bytes, declared, Some(&base()));
    let labels = pith::classify::page_level::classify(&page);
    assert_eq!(labels.len(), page.blocks.len());
    assert!(
        page.blocks.len() <= limits::MAX_BLOCKS,
        "{what}: {} blocks",
        page.blocks.len()
    );
    assert!(
        page.dom.len() <= limits::MAX_NODES + 1,
        "{what}: {} nodes",
        page.dom.len()
    );
    let mut longest = 0;
    for b in &page.blocks {
        let chars = b.text.chars().count();
        longest = longest.max(chars);
        assert!(
            chars <= limits::MAX_BLOCK_CHARS,
            "{what}: a block of {chars} chars"
        );
        assert!(
            page.dom.depth(b.node) <= limits::MAX_DEPTH + 1,
            "{what}: too deep"
        );
        assert!(b.tag_path.split('/').count() <= limits::MAX_TAG_PATH_ELEMENTS + 1);
    }
    println!(
        "{MARK}{what}: {} input bytes -> {} nodes, {} blocks (longest {longest} chars), {} content, {:.2} s",
        bytes.len(),
        page.dom.len(),
        page.blocks.len(),
        labels.iter().filter(|l| l.is_content()).count(),
        start.elapsed().as_secs_f64()
    );
    page
}

#[test]
fn nested_100000_tags() {
    isolated("nested_100000_tags", || {
        for tag in ["div", "b", "span", "table><tr><td", "ul><li", "a href=x"] {
            let open = format!("<{tag}>");
            let close = format!("</{}>", tag.split(['>', ' ']).next().unwrap());
            let html = format!(
                "<html><body>{}<p>deep text at the bottom</p>{}</body></html>",
                open.repeat(100_000),
                close.repeat(100_000)
            );
            let page = parse_checked(&format!("100,000 nested <{tag}>"), html.as_bytes(), None);
            assert!(
                page.blocks.iter().any(|b| b.text.contains("deep text")),
                "the text below the cap is kept"
            );
        }
        // Unclosed, misnested formatting: the HTML parser's "reconstruction" case.
        let html = "<p><b><i><u><s>x</b>".repeat(20_000);
        parse_checked("20,000 misnested formatting runs", html.as_bytes(), None);
    });
}

#[test]
fn one_million_tiny_blocks() {
    isolated("one_million_tiny_blocks", || {
        let html = format!("<html><body>{}</body></html>", "<p>a</p>".repeat(1_000_000));
        let page = parse_checked("1,000,000 <p>a</p>", html.as_bytes(), None);
        assert_eq!(page.blocks.len(), limits::MAX_BLOCKS);
        let html = format!("<html><body>{}</body></html>", "<br>w".repeat(1_000_000));
        parse_checked("1,000,000 <br>w", html.as_bytes(), None);
        let html = format!(
            "<html><body>{}</body></html>",
            "<img src=i>".repeat(1_000_000)
        );
        parse_checked("1,000,000 <img>", html.as_bytes(), None);
    });
}

#[test]
fn a_50_mb_single_line_page() {
    isolated("a_50_mb_single_line_page", || {
        let mut html = String::with_capacity(50 * 1024 * 1024 + 100);
        html.push_str("<html><head><title>one line</title></head><body><p>");
        while html.len() < 50 * 1024 * 1024 {
            html.push_str("word ");
        }
        html.push_str("</p></body></html>");
        assert!(!html.contains('\n'));
        let page = parse_checked("50 MB of text on one line", html.as_bytes(), None);
        assert!(!page.blocks.is_empty());
        // One line of 50 MB of attributes inside one tag.
        let mut tag = String::from("<html><body><div ");
        let mut i = 0;
        while tag.len() < 50 * 1024 * 1024 {
            tag.push_str(&format!("a{i}=\"v\" "));
            i += 1;
        }
        tag.push_str(">text</div></body></html>");
        parse_checked("50 MB of attributes in one tag", tag.as_bytes(), None);
    });
}

/// Bytes that are not UTF-8 in every way a page, feed or header can carry them: stray
/// continuation bytes, truncated sequences, overlong forms, surrogates, bytes over U+10FFFF.
const BAD: &[u8] =
    b"\xff\xfe\xc3\x28\xa0\xa1\xe2\x28\xa1\xf0\x90\x28\xbc\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80\x80";

fn with_bad(parts: &[&[u8]]) -> Vec<u8> {
    parts.join(BAD)
}

#[test]
fn invalid_utf8_in_every_field() {
    isolated("invalid_utf8_in_every_field", || {
        let page = with_bad(&[
            b"<html><head><meta charset=\"utf-8\"><title>T",
            b"</title></head><body><h1 class=\"",
            b"\">Head",
            b"</h1><p>Para",
            b" text</p><img src=\"/i",
            b".jpg\" alt=\"",
            b"\"><a href=\"",
            b"\">link</a></body></html>",
        ]);
        for declared in [
            None,
            Some("utf-8"),
            Some("\u{fffd}bogus"),
            Some("utf-16"),
            Some("iso-2022-jp"),
        ] {
            let page = parse_checked(
                &format!("invalid UTF-8 page, declared {declared:?}"),
                &page,
                declared,
            );
            assert!(!page.blocks.is_empty());
        }
        let feeds: [(&str, Vec<u8>); 4] = [
            (
                "RSS declared UTF-8",
                with_bad(&[
                    b"<?xml version=\"1.0\" encoding=\"utf-8\"?><rss version=\"2.0\"><channel><title>F",
                    b"</title><link>https://example.com/",
                    b"</link><item><title>E",
                    b"</title><link>https://example.com/a",
                    b"</link><description>S",
                    b"</description><guid>g",
                    b"</guid></item></channel></rss>",
                ]),
            ),
            (
                "Atom without a declaration",
                with_bad(&[
                    b"<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>F",
                    b"</title><entry><title>E",
                    b"</title><link href=\"https://example.com/",
                    b"\"/><summary>S",
                    b"</summary><id>i",
                    b"</id></entry></feed>",
                ]),
            ),
            (
                "JSON Feed",
                with_bad(&[
                    b"{\"version\":\"https://jsonfeed.org/version/1.1\",\"title\":\"F",
                    b"\",\"items\":[{\"id\":\"1",
                    b"\",\"url\":\"https://example.com/",
                    b"\",\"title\":\"E",
                    b"\",\"content_text\":\"S",
                    b"\"}]}",
                ]),
            ),
            (
                "RSS declared as an unknown encoding",
                with_bad(&[
                    b"<?xml version=\"1.0\" encoding=\"x-no-such",
                    b"\"?><rss version=\"2.0\"><channel><title>F",
                    b"</title><item><title>E",
                    b"</title></item></channel></rss>",
                ]),
            ),
        ];
        for (what, bytes) in &feeds {
            for declared in [None, Some("utf-8"), Some("bogus")] {
                let parsed =
                    pith::feeds::parse_feed(bytes, Some("https://example.com/feed"), declared);
                match &parsed {
                    Ok(feed) => println!(
                        "{MARK}{what} ({declared:?}): {} entries, title {:?}",
                        feed.entries.len(),
                        feed.title
                    ),
                    Err(e) => {
                        assert!(e.to_string().starts_with("not a valid feed"), "{e}");
                        println!("{MARK}{what} ({declared:?}): refused: {e}");
                    }
                }
                // XML is read past its bad bytes (decoded as best the declaration allows);
                // JSON, whose grammar the bad bytes break, is refused with a clear error.
                if what.contains("JSON") {
                    assert!(parsed.is_err(), "{what} ({declared:?})");
                } else {
                    let feed = parsed.unwrap_or_else(|e| panic!("{what} ({declared:?}): {e}"));
                    assert_eq!(feed.entries.len(), 1, "{what} ({declared:?})");
                    assert!(
                        feed.title.as_deref().is_some_and(|t| t.starts_with('F')),
                        "{what} ({declared:?}): {:?}",
                        feed.title
                    );
                }
            }
            // A feed is not a subscription list: refused as OPML, whichever kind it is.
            let as_opml = pith::feeds::parse_opml(bytes);
            assert!(as_opml.is_err(), "{what} read as OPML: {as_opml:?}");
        }
        // OPML with invalid bytes in titles and URLs.
        let opml = with_bad(&[
            b"<opml version=\"2.0\"><body><outline text=\"a",
            b"\" xmlUrl=\"https://example.com/f",
            b"\"/></body></opml>",
        ]);
        let list = pith::feeds::parse_opml(&opml);
        println!(
            "{MARK}OPML with invalid UTF-8: {:?}",
            list.as_ref().map(Vec::len)
        );
        assert_eq!(
            list.as_ref().map(Vec::len).ok(),
            Some(1),
            "the one feed is read past the bad bytes"
        );

        // HTTP headers: every header pith reads, carrying bytes that are not UTF-8.
        let server = RawServer::start();
        let body = b"<html><body><p>fine body</p></body></html>";
        let headers: &[&[u8]] = &[
            b"Content-Type: text/html; charset=\xff\xfe\r\n",
            b"ETag: \"\xc3\x28\"\r\n",
            b"Last-Modified: Mon, \xff\xfe Jan\r\n",
            b"Content-Encoding: \xff\r\n",
            b"X-\xff: \xfe\r\n",
        ];
        for (i, h) in headers.iter().enumerate() {
            let mut resp = b"HTTP/1.1 200 OK\r\n".to_vec();
            resp.extend_from_slice(h);
            resp.extend_from_slice(format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes());
            resp.extend_from_slice(body);
            server.set(&format!("/h{i}"), resp);
        }
        server.set(
            "/redir",
            b"HTTP/1.1 302 Found\r\nLocation: /\xff\xfe\xc3\x28\r\nContent-Length: 0\r\n\r\n"
                .to_vec(),
        );
        server.set(
            "/status",
            b"HTTP/1.1 200 \xff\xfe\r\nContent-Length: 2\r\n\r\nok".to_vec(),
        );
        let fetcher = fetcher();
        for path in (0..headers.len())
            .map(|i| format!("/h{i}"))
            .chain(["/redir".to_string(), "/status".to_string()])
        {
            let url = server.url(&path);
            let got = fetcher.get(&page_request(&url));
            // Bad bytes in a header pith reads (or in the status line) are not a reason to
            // lose the page; a header name that is not one, or a Location that names no URL,
            // is a clear error.
            match path.as_str() {
                "/h4" => assert!(
                    matches!(&got, Err(e) if e.to_string().contains("header")),
                    "{path}: {got:?}"
                ),
                "/redir" => assert!(
                    matches!(&got, Err(e) if e.to_string().contains("Location")),
                    "{path}: {got:?}"
                ),
                _ => assert!(matches!(&got, Ok(Fetched::Body(_))), "{path}: {got:?}"),
            }
            match &got {
                Ok(Fetched::Body(r)) => {
                    let page = pith::page::parse_page(&r.body, r.charset(), None);
                    let want = if path == "/status" { "ok" } else { "fine body" };
                    assert!(
                        page.blocks.iter().any(|b| b.text == want),
                        "{path}: the body is read whole: {:?}",
                        r.body
                    );
                    println!(
                        "{MARK}header case {path}: {} bytes, charset {:?}, {} blocks",
                        r.body.len(),
                        r.charset(),
                        page.blocks.len()
                    );
                }
                Ok(Fetched::NotModified) => println!("{MARK}header case {path}: 304"),
                Err(e) => println!("{MARK}header case {path}: error: {e}"),
            }
        }
    });
}

#[test]
fn a_feed_with_100000_entries() {
    isolated("a_feed_with_100000_entries", || {
        let mut rss =
            String::from("<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>big</title>");
        let mut atom =
            String::from("<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>big</title>");
        let mut json = String::from(
            "{\"version\":\"https://jsonfeed.org/version/1.1\",\"title\":\"big\",\"items\":[",
        );
        for i in 0..100_000 {
            rss.push_str(&format!(
                "<item><title>t{i}</title><link>https://e.com/{i}</link></item>"
            ));
            atom.push_str(&format!(
                "<entry><id>{i}</id><title>t{i}</title><link href=\"https://e.com/{i}\"/></entry>"
            ));
            if i > 0 {
                json.push(',');
            }
            json.push_str(&format!(
                "{{\"id\":\"{i}\",\"url\":\"https://e.com/{i}\",\"title\":\"t{i}\"}}"
            ));
        }
        rss.push_str("</channel></rss>");
        atom.push_str("</feed>");
        json.push_str("]}");
        for (what, doc) in [("RSS", rss), ("Atom", atom), ("JSON Feed", json)] {
            let start = Instant::now();
            assert!(
                doc.len() as u64 <= limits::MAX_FEED_BYTES,
                "{what}: {} bytes",
                doc.len()
            );
            let feed = pith::feeds::parse_feed(doc.as_bytes(), Some("https://e.com/feed"), None)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(feed.entries.len(), limits::MAX_ENTRIES_PER_FEED, "{what}");
            assert_eq!(
                feed.entries[0].title.as_deref(),
                Some("t0"),
                "the first ones are kept"
            );
            println!(
                "{MARK}{what}, 100,000 entries ({} bytes): {} kept, {:.2} s",
                doc.len(),
                feed.entries.len(),
                start.elapsed().as_secs_f64()
            );
        }
        // 100,000 outlines in an OPML file.
        let mut opml = String::from("<opml version=\"2.0\"><head/><body>");
        for i in 0..100_000 {
            opml.push_str(&format!(
                "<outline text=\"f{i}\" xmlUrl=\"https://e.com/{i}.xml\"/>"
            ));
        }
        opml.push_str("</body></opml>");
        let start = Instant::now();
        let list = pith::feeds::parse_opml(opml.as_bytes()).unwrap();
        assert_eq!(list.len(), limits::MAX_OPML_FEEDS);
        println!(
            "{MARK}OPML, 100,000 outlines: {} kept, {:.2} s",
            list.len(),
            start.elapsed().as_secs_f64()
        );
    });
}

#[test]
fn a_gzip_bomb() {
    isolated("a_gzip_bomb", || {
        // 1 GiB of zeros compresses to about 1 MB.
        let start = Instant::now();
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        let zeros = vec![0u8; 1 << 20];
        for _ in 0..1024 {
            enc.write_all(&zeros).unwrap();
        }
        let bomb = enc.finish().unwrap();
        let mut zenc = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
        for _ in 0..1024 {
            zenc.write_all(&zeros).unwrap();
        }
        let zbomb = zenc.finish().unwrap();
        println!(
            "{MARK}bombs built: gzip {} bytes, deflate {} bytes ({:.2} s)",
            bomb.len(),
            zbomb.len(),
            start.elapsed().as_secs_f64()
        );
        let server = RawServer::start();
        for (path, encoding, body) in [("/gz", "gzip", &bomb), ("/z", "deflate", &zbomb)] {
            let mut resp = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: {encoding}\r\nContent-Length: {}\r\n\r\n",
                body.len()
            )
            .into_bytes();
            resp.extend_from_slice(body);
            server.set(path, resp);
        }
        let fetcher = fetcher();
        for path in ["/gz", "/z"] {
            let start = Instant::now();
            let got = fetcher.get(&page_request(&server.url(path)));
            let err = got.expect_err("the bomb is refused");
            assert_eq!(err, FetchError::TooLarge(limits::MAX_PAGE_BYTES), "{path}");
            println!(
                "{MARK}{path}: {err} ({:.2} s)",
                start.elapsed().as_secs_f64()
            );
        }
    });
}

#[test]
fn a_redirect_loop() {
    isolated("a_redirect_loop", || {
        let server = RawServer::start();
        let redirect = |to: &str| {
            format!("HTTP/1.1 302 Found\r\nLocation: {to}\r\nContent-Length: 0\r\n\r\n")
                .into_bytes()
        };
        server.set("/a", redirect("/b"));
        server.set("/b", redirect("/a"));
        server.set("/self", redirect("/self"));
        for i in 0..50 {
            server.set(&format!("/chain{i}"), redirect(&format!("/chain{}", i + 1)));
        }
        server.set("/file", redirect("file:///etc/passwd"));
        server.set("/js", redirect("javascript:alert(1)"));
        let fetcher = fetcher();
        type Expected = fn(&FetchError) -> bool;
        let cases: [(&str, Expected); 5] = [
            ("/a", |e| matches!(e, FetchError::RedirectLoop(_))),
            ("/self", |e| matches!(e, FetchError::RedirectLoop(_))),
            ("/chain0", |e| {
                *e == FetchError::TooManyRedirects(limits::MAX_REDIRECTS)
            }),
            (
                "/file",
                |e| matches!(e, FetchError::Scheme(s) if s == "file"),
            ),
            ("/js", |e| matches!(e, FetchError::Scheme(_))),
        ];
        for (path, expected) in cases {
            let start = Instant::now();
            let err = fetcher
                .get(&page_request(&server.url(path)))
                .expect_err("refused");
            assert!(expected(&err), "{path}: {err}");
            println!(
                "{MARK}{path}: {err} ({:.2} s)",
                start.elapsed().as_secs_f64()
            );
        }
    });
}

#[test]
fn a_10000_character_url() {
    isolated("a_10000_character_url", || {
        let server = RawServer::start();
        let long_path = format!("/{}", "a".repeat(10_000));
        let long = server.url(&long_path);
        assert!(long.len() > 10_000);
        let fetcher = fetcher();
        let err = fetcher.get(&page_request(&long)).expect_err("refused");
        assert!(matches!(err, FetchError::BadUrl(_)), "{err}");
        println!("{MARK}fetch: {err}");
        server.set(
            "/to-long",
            format!("HTTP/1.1 301 Moved\r\nLocation: {long_path}\r\nContent-Length: 0\r\n\r\n")
                .into_bytes(),
        );
        let err = fetcher
            .get(&page_request(&server.url("/to-long")))
            .expect_err("refused");
        assert!(matches!(err, FetchError::BadUrl(_)), "{err}");
        println!("{MARK}redirect to it: {err}");
        assert!(
            server.hits(&long_path) == 0,
            "the long URL was never requested"
        );
        let err = pith::urlkey::url_key(&long, Some("t"), &pith::urlkey::QueryRules::builtin())
            .expect_err("no key");
        println!("{MARK}URL key: {err}");
        assert!(
            matches!(
                err,
                pith::urlkey::UrlKeyError::TooLong { len, max }
                    if len == long.len() && max == limits::MAX_URL_LEN
            ),
            "{err}"
        );
        assert_eq!(pith::safety::openable_link(&long, None), None);
        assert_eq!(pith::safety::fetchable_url(&long, None), None);
        // In a page: a link and an image with it, and 1,000 such images.
        let html = format!(
            "<html><body><p>x <a href=\"{long}\">link</a></p>{}</body></html>",
            format!("<img src=\"{long}\">").repeat(1000)
        );
        parse_checked(
            "1,000 images with 10,000-character URLs",
            html.as_bytes(),
            None,
        );
    });
}

/// A whole refresh of hostile feeds, in the real binary: every failure ends up as a clear
/// message on its feed or item, nothing else is affected, and the database stays sound.
#[test]
fn a_refresh_of_hostile_feeds() {
    isolated("a_refresh_of_hostile_feeds", || {
        let server = RawServer::start();
        let ok = |ct: &str, body: &[u8]| {
            let mut r = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: {ct}\r\nContent-Length: {}\r\n\r\n",
                body.len()
            )
            .into_bytes();
            r.extend_from_slice(body);
            r
        };
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        let zeros = vec![b' '; 1 << 20];
        for _ in 0..256 {
            enc.write_all(&zeros).unwrap();
        }
        let bomb = enc.finish().unwrap();
        let mut bomb_resp = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\nContent-Length: {}\r\n\r\n",
            bomb.len()
        )
        .into_bytes();
        bomb_resp.extend_from_slice(&bomb);
        server.set("/bomb", bomb_resp.clone());
        server.set("/feed-bomb", bomb_resp);
        server.set(
            "/loop",
            b"HTTP/1.1 302 Found\r\nLocation: /loop\r\nContent-Length: 0\r\n\r\n".to_vec(),
        );
        let nested = format!(
            "<html><body>{}<p>deep</p></body></html>",
            "<div>".repeat(100_000)
        );
        server.set("/nested", ok("text/html", nested.as_bytes()));
        let mut bad = b"<html><head><title>bad ".to_vec();
        bad.extend_from_slice(BAD);
        bad.extend_from_slice(b"</title></head><body><div id=\"main\"><p>text ");
        bad.extend_from_slice(BAD);
        bad.extend_from_slice(b" more</p>");
        // An article around the bad bytes, so that its images are content and the refresh has
        // to judge each; images in every scheme a page can name, of which only the web one may
        // be downloaded.
        for k in 0..4 {
            bad.extend_from_slice(
                format!(
                    "<p>Paragraph {k} of the story goes on at length about the harbour, the \
                     ships that call there, and the people who work on the quays every day.</p>"
                )
                .as_bytes(),
            );
        }
        bad.extend_from_slice(
            b"<img src=\"file:///etc/passwd\" alt=\"f\"><img src=\"data:image/png;base64,AA\" alt=\"d\">\
              <img src=\"javascript:alert(1)\" alt=\"j\"><img src=\"/photo.png\" alt=\"w\"></div></body></html>",
        );
        let mut bad_resp =
            b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=\xff\r\nETag: \"\xfe\"\r\n"
                .to_vec();
        bad_resp.extend_from_slice(format!("Content-Length: {}\r\n\r\n", bad.len()).as_bytes());
        bad_resp.extend_from_slice(&bad);
        server.set("/bad", bad_resp);
        server.set("/photo.png", ok("image/png", PNG));
        let long = server.url(&format!("/{}", "l".repeat(10_000)));
        let links = [
            server.url("/bomb"),
            server.url("/loop"),
            server.url("/nested"),
            server.url("/bad"),
            long,
            "file:///etc/passwd".to_string(),
            "javascript:alert(1)".to_string(),
        ];
        let mut feed = b"<?xml version=\"1.0\" encoding=\"utf-8\"?><rss version=\"2.0\"><channel><title>hostile ".to_vec();
        feed.extend_from_slice(BAD);
        feed.extend_from_slice(b"</title>");
        for (i, link) in links.iter().enumerate() {
            feed.extend_from_slice(format!("<item><title>entry {i} ").as_bytes());
            feed.extend_from_slice(BAD);
            feed.extend_from_slice(
                format!(
                    "</title><link>{}</link><description>d ",
                    link.replace('&', "&amp;")
                )
                .as_bytes(),
            );
            feed.extend_from_slice(BAD);
            feed.extend_from_slice(b"</description></item>");
        }
        feed.extend_from_slice(b"</channel></rss>");
        server.set("/hostile.xml", ok("application/rss+xml", &feed));
        let mut big = String::from("<rss version=\"2.0\"><channel><title>big</title>");
        for i in 0..100_000 {
            big.push_str(&format!(
                "<item><title>t{i}</title><link>mailto:x{i}@example.com</link></item>"
            ));
        }
        big.push_str("</channel></rss>");
        server.set("/big.xml", ok("application/rss+xml", big.as_bytes()));

        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("pith.db");
        let mut opml = String::from("<opml version=\"2.0\"><body>");
        for path in ["/hostile.xml", "/big.xml", "/feed-bomb", "/loop"] {
            opml.push_str(&format!(
                "<outline text=\"x\" xmlUrl=\"{}\"/>",
                server.url(path)
            ));
        }
        opml.push_str("</body></opml>");
        let opml_path = dir.path().join("f.opml");
        std::fs::write(&opml_path, opml).unwrap();
        let run = common::pith(&db, &["import", opml_path.to_str().unwrap()]);
        assert!(run.ok, "{}", run.stderr);

        let start = Instant::now();
        let mut refresh = common::pith_cmd(&db, &["refresh", "--jobs", "4"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // ru_maxrss of the pith process (an upper bound: it includes this process's size at the
        // fork, which is small here).
        let (ok, rss_kb) = wait_measured(&mut refresh, "pith refresh");
        let secs = start.elapsed().as_secs_f64();
        assert!(ok, "pith refresh failed");
        println!(
            "{MARK}pith refresh of 4 hostile feeds: {secs:.2} s, peak RSS of pith {:.0} MB",
            rss_kb as f64 / 1024.0
        );
        let store = pith::store::Store::open(&db).unwrap();
        assert_eq!(store.integrity_check().unwrap(), "ok");
        let feeds = store.feeds().unwrap();
        assert_eq!(feeds.len(), 4);
        for f in &feeds {
            println!(
                "{MARK}feed {}: {} items, error {:?}",
                f.url.chars().take(60).collect::<String>(),
                f.items,
                f.last_error
            );
            let path = f.url.trim_start_matches(&server.url(""));
            let (items, error) = match path {
                "/hostile.xml" => (links.len(), None),
                "/big.xml" => (limits::MAX_ENTRIES_PER_FEED, None),
                "/feed-bomb" => (0, Some("response body larger than the 10 MB limit")),
                "/loop" => (0, Some("redirect loop at ")),
                other => panic!("unexpected feed {other}"),
            };
            assert_eq!(f.items as usize, items, "{f:?}");
            match error {
                None => assert_eq!(f.last_error, None, "{f:?}"),
                Some(e) => assert!(
                    f.last_error.as_deref().is_some_and(|l| l.starts_with(e)),
                    "{f:?}"
                ),
            }
        }
        let items = store.items(&pith::store::ItemFilter::default()).unwrap();
        // Every entry of the hostile feed has the outcome its link calls for.
        let long_link = &links[4];
        let mut checked = 0;
        for i in items.iter().filter(|i| !i.link.starts_with("mailto:")) {
            println!(
                "{MARK}item {}: error {:?}",
                i.link.chars().take(60).collect::<String>(),
                i.fetch_error
            );
            let error = i.fetch_error.as_deref();
            let want: Option<&str> = match i.link.trim_start_matches(&server.url("")) {
                "/nested" | "/bad" => None,
                "/bomb" => Some("response body larger than the 5 MB limit"),
                "/loop" => Some("redirect loop at "),
                "file:///etc/passwd" => Some("unsupported URL scheme \"file\""),
                "javascript:alert(1)" => Some("unsupported URL scheme \"javascript\""),
                _ if &i.link == long_link => Some("not a valid URL: a URL of 10023 bytes"),
                other => panic!("unexpected item {other}"),
            };
            match want {
                None => assert_eq!(error, None, "{}", i.link),
                Some(w) => assert!(
                    error.is_some_and(|e| e.starts_with(w)),
                    "{}: {error:?}",
                    i.link
                ),
            }
            checked += 1;
        }
        assert_eq!(checked, links.len());
        // The big feed's mailto: links are refused, none fetched.
        let mailto = items.iter().filter(|i| i.link.starts_with("mailto:"));
        assert!(
            mailto.clone().all(|i| i
                .fetch_error
                .as_deref()
                .is_some_and(|e| e.contains("mailto"))),
            "a mailto: link was not refused"
        );
        assert_eq!(mailto.count(), limits::MAX_ENTRIES_PER_FEED);
        // The bad page's data: and javascript: images are not even blocks (the page parser
        // drops them); its file: and web images are content, so the refresh had both to judge,
        // and downloaded only the web one.
        let bad = items.iter().find(|i| i.link.ends_with("/bad")).unwrap();
        let blocks = store.item_blocks(bad.id).unwrap();
        let kept: Vec<&str> = blocks
            .iter()
            .filter(|b| b.content)
            .filter_map(|b| b.image.as_deref())
            .collect();
        println!("{MARK}images the bad page keeps: {kept:?}");
        let photo = server.url("/photo.png");
        assert_eq!(kept, ["file:///etc/passwd", photo.as_str()]);
        let images = blocks.iter().filter(|b| b.image.is_some()).count();
        assert_eq!(images, 2, "{blocks:?}");
        let mut stored = Vec::new();
        for i in &items {
            stored.extend(store.item_images(i.id).unwrap());
        }
        assert_eq!(stored.len(), 1, "{stored:?}");
        assert_eq!(stored[0].url, photo);
        assert_eq!(stored[0].bytes, PNG.len() as u64);
        // Nothing but http(s) on this server was ever asked for, each once, and the long URL
        // never.
        let mut asked = server.paths();
        asked.sort();
        let mut want: Vec<String> = [
            "/hostile.xml",
            "/big.xml",
            "/feed-bomb",
            "/loop",
            "/bomb",
            "/nested",
            "/bad",
            "/photo.png",
        ]
        .map(String::from)
        .into();
        want.sort();
        assert_eq!(asked, want);
        for path in &want {
            // The looping feed and the looping page are one URL, asked twice.
            let times = if path == "/loop" { 2 } else { 1 };
            assert_eq!(server.hits(path), times, "{path}");
        }
        assert_eq!(server.hits(&format!("/{}", "l".repeat(10_000))), 0);
    });
}

fn fetcher() -> Fetcher {
    Fetcher::new(FetchConfig {
        loopback_only: true,
        host_delay: Duration::ZERO,
        ..FetchConfig::default()
    })
}

fn page_request(url: &str) -> Request<'_> {
    Request {
        url,
        max_bytes: limits::MAX_PAGE_BYTES,
        accept: Some("text/html"),
        ..Request::default()
    }
}

/// A loopback HTTP server answering each path with fixed bytes, so that responses can carry what
/// no well-behaved server library would write (bytes that are not UTF-8 in headers).
struct RawServer {
    addr: std::net::SocketAddr,
    routes: Arc<std::sync::Mutex<HashMap<String, Arc<Vec<u8>>>>>,
    hits: Arc<std::sync::Mutex<HashMap<String, usize>>>,
}

impl RawServer {
    fn start() -> RawServer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        assert!(addr.ip().is_loopback());
        let routes: Arc<std::sync::Mutex<HashMap<String, Arc<Vec<u8>>>>> = Arc::default();
        let hits: Arc<std::sync::Mutex<HashMap<String, usize>>> = Arc::default();
        let (r, h) = (Arc::clone(&routes), Arc::clone(&hits));
        // The accept loop ends with the test process.
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                let Ok(conn) = conn else { continue };
                let (r, h) = (Arc::clone(&r), Arc::clone(&h));
                std::thread::spawn(move || serve_raw(conn, &r, &h));
            }
        });
        RawServer { addr, routes, hits }
    }

    fn set(&self, path: &str, response: Vec<u8>) {
        self.routes
            .lock()
            .unwrap()
            .insert(path.to_string(), Arc::new(response));
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    fn hits(&self, path: &str) -> usize {
        self.hits.lock().unwrap().get(path).copied().unwrap_or(0)
    }

    /// Every path asked for at least once.
    fn paths(&self) -> Vec<String> {
        self.hits.lock().unwrap().keys().cloned().collect()
    }
}

fn serve_raw(
    conn: TcpStream,
    routes: &std::sync::Mutex<HashMap<String, Arc<Vec<u8>>>>,
    hits: &std::sync::Mutex<HashMap<String, usize>>,
) {
    let _ = conn.set_read_timeout(Some(Duration::from_secs(30)));
    let Ok(read_half) = conn.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(read_half);
    let mut writer = conn;
    loop {
        let mut line = Vec::new();
        if reader.read_until(b'\n', &mut line).unwrap_or(0) == 0 {
            return;
        }
        let line = String::from_utf8_lossy(&line).into_owned();
        let path = line.split_whitespace().nth(1).unwrap_or("/").to_string();
        loop {
            let mut h = Vec::new();
            if reader.read_until(b'\n', &mut h).unwrap_or(0) == 0 {
                return;
            }
            if h == b"\r\n" || h == b"\n" {
                break;
            }
        }
        *hits.lock().unwrap().entry(path.clone()).or_default() += 1;
        let response = routes
            .lock()
            .unwrap()
            .get(&path)
            .cloned()
            .unwrap_or_else(|| {
                Arc::new(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n".to_vec())
            });
        if writer.write_all(&response).is_err() || writer.flush().is_err() {
            return;
        }
    }
}

/// Nothing in a page runs or reaches past the web: no script (or style, template, …) text comes
/// out as a block, and no image that a refresh would download has a scheme other than http(s),
/// whatever the page's `<base>`, `srcset` or lazy-loading attributes say.
#[test]
fn a_page_runs_nothing_and_fetches_only_the_web() {
    let html = r#"<html><head><base href="file:///etc/">
        <script>SCRIPT_TEXT_1()</script><style>.STYLE_TEXT{}</style>
        <meta http-equiv="refresh" content="0;url=file:///etc/passwd">
        <link rel="stylesheet" href="file:///etc/style.css"></head>
        <body onload="ONLOAD_TEXT()"><h1>Title</h1>
        <p onclick="ONCLICK_TEXT()">Visible paragraph with enough words to be the article text.</p>
        <noscript>NOSCRIPT_TEXT</noscript><template>TEMPLATE_TEXT</template>
        <svg><script>SVG_SCRIPT_TEXT</script><text>svg words</text></svg>
        <iframe srcdoc="<p>IFRAME_TEXT</p>" src="file:///etc/passwd">IFRAME_FALLBACK</iframe>
        <object data="file:///etc/passwd">OBJECT_FALLBACK</object>
        <script type="text/template"><p>SCRIPT_TEMPLATE_TEXT</p></script>
        <img src="passwd"><img src="file:///etc/shadow"><img src="javascript:alert(1)">
        <img src="data:image/png;base64,AAAA"><img data-src="file:///x.jpg" src="">
        <img srcset="file:///big.jpg 2x, /ok.jpg 1x"><img src="//cdn.example/fine.jpg">
        <a href="javascript:alert(1)">js link</a> <a href="/local">site link</a>
        </body></html>"#;
    let base = Url::parse("https://news.example.com/a/story.html").unwrap();
    let page = pith::page::parse_page(html.as_bytes(), Some("utf-8"), Some(&base));
    for b in &page.blocks {
        for marker in [
            "SCRIPT_TEXT",
            "STYLE_TEXT",
            "ONLOAD",
            "ONCLICK",
            "TEMPLATE_TEXT",
            "SVG_SCRIPT",
            "IFRAME_TEXT",
            "SCRIPT_TEMPLATE",
        ] {
            assert!(
                !b.text.contains(marker),
                "{marker} came out in {:?}",
                b.text
            );
        }
    }
    assert!(
        page.blocks
            .iter()
            .any(|b| b.text.contains("Visible paragraph"))
    );
    let mut fetched = Vec::new();
    let mut refused = Vec::new();
    for b in &page.blocks {
        let Some(img) = &b.image else { continue };
        // What the refresh downloads: exactly the sources safety::fetchable_url accepts.
        if let Some(url) = pith::safety::fetchable_url(&img.src, None) {
            assert!(matches!(url.scheme(), "http" | "https"), "{}", img.src);
            fetched.push(url.to_string());
        } else {
            assert!(!img.src.starts_with("http"), "{} was refused", img.src);
            refused.push(img.src.clone());
        }
    }
    println!("images a refresh would fetch: {fetched:?}; refused: {refused:?}");
    // Both branches ran: the file: sources (src, data-src, srcset) reach the check as image
    // blocks and are refused there; javascript: and data: ones are not even blocks.
    assert_eq!(fetched.len(), 2, "{fetched:?}");
    assert_eq!(refused.len(), 3, "{refused:?}");
    assert!(
        refused.iter().all(|s| s.starts_with("file:")),
        "{refused:?}"
    );
    assert!(
        fetched.iter().all(|u| u.starts_with("https://")),
        "{fetched:?}"
    );
    assert!(
        fetched
            .iter()
            .any(|u| u == "https://news.example.com/a/passwd"),
        "the relative image resolves against the web base, not <base href=file:>: {fetched:?}"
    );
    // The client refuses anything else outright.
    let fetcher = fetcher();
    for url in [
        "file:///etc/passwd",
        "data:text/html,x",
        "javascript:alert(1)",
        "ftp://x/y",
    ] {
        assert!(
            matches!(fetcher.get(&page_request(url)), Err(FetchError::Scheme(_))),
            "{url}"
        );
    }
}
