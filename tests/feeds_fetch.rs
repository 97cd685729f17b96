//! The HTTP client against the loopback server: User-Agent, politeness (connections per host,
//! delay), redirects and the response URL, decompression, conditional GET, Retry-After.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use common::server::{Reply, Server, gzip, zlib};
use pith::fetch::{FetchConfig, FetchError, Fetched, Fetcher, Request};

fn fetcher() -> Fetcher {
    Fetcher::new(FetchConfig {
        loopback_only: true,
        request_timeout: Duration::from_secs(5),
        ..FetchConfig::default()
    })
}

fn get(f: &Fetcher, url: &str) -> Result<Fetched, FetchError> {
    f.get(&Request {
        url,
        max_bytes: 1024 * 1024,
        ..Request::default()
    })
}

fn body(r: Result<Fetched, FetchError>) -> pith::fetch::Response {
    match r {
        Ok(Fetched::Body(b)) => b,
        other => panic!("expected a body, got {other:?}"),
    }
}

#[test]
fn politeness_user_agent_and_decoding() {
    let server = Server::start();
    let r = &server.routes;
    r.set(
        "/slow",
        Reply::ok("text/plain", "ok").delayed(Duration::from_millis(300)),
    );
    r.set(
        "/gz",
        Reply::ok("text/plain", gzip(b"hello gzip")).header("Content-Encoding", "gzip"),
    );
    r.set(
        "/zl",
        Reply::ok("text/plain", zlib(b"hello deflate")).header("Content-Encoding", "deflate"),
    );
    let f = Arc::new(fetcher());

    // Six requests at once to one host: never more than two connections, and their starts spaced.
    let started = Instant::now();
    let threads: Vec<_> = (0..6)
        .map(|_| {
            let f = Arc::clone(&f);
            let url = server.url("/slow");
            std::thread::spawn(move || body(get(&f, &url)).body)
        })
        .collect();
    for t in threads {
        assert_eq!(t.join().unwrap(), b"ok");
    }
    assert_eq!(r.max_concurrent(), 2, "more than 2 connections to one host");
    assert!(
        started.elapsed() >= Duration::from_millis(900),
        "{:?}",
        started.elapsed()
    );
    let ua = r.hits("/slow")[0].headers["user-agent"].clone();
    assert!(
        ua.starts_with(&format!("pith/{}", env!("CARGO_PKG_VERSION"))),
        "{ua}"
    );

    assert_eq!(body(get(&f, &server.url("/gz"))).body, b"hello gzip");
    assert_eq!(body(get(&f, &server.url("/zl"))).body, b"hello deflate");
    let accept = r.hits("/gz")[0].headers["accept-encoding"].clone();
    assert!(accept.contains("gzip") && accept.contains("br") && accept.contains("deflate"));
}

#[test]
fn redirects_conditional_get_and_retry_after() {
    let server = Server::start();
    let r = &server.routes;
    let u = |p: &str| server.url(p);
    r.set("/a", Reply::redirect(301, "/b"));
    r.set("/b", Reply::redirect(307, &u("/final")));
    r.set(
        "/final",
        Reply::ok("text/html", "<p>here</p>").header("ETag", "\"x\""),
    );
    for i in 0..12 {
        r.set(
            &format!("/chain{i}"),
            Reply::redirect(302, &format!("/chain{}", i + 1)),
        );
    }
    r.set("/ftp", Reply::redirect(302, "ftp://127.0.0.1/file"));
    r.handle("/cond", |seen| {
        if seen.headers.get("if-none-match").map(String::as_str) == Some("\"v1\"") {
            Reply::status(304)
        } else {
            Reply::ok("text/plain", "fresh").header("ETag", "\"v1\"")
        }
    });
    let calls = Arc::new(AtomicUsize::new(0));
    let c = Arc::clone(&calls);
    r.handle("/busy", move |_| {
        if c.fetch_add(1, Ordering::SeqCst) == 0 {
            Reply::status(429).header("Retry-After", "1")
        } else {
            Reply::ok("text/plain", "now")
        }
    });
    r.set(
        "/gone-for-long",
        Reply::status(503).header("Retry-After", "120"),
    );
    let f = fetcher();

    let got = body(get(&f, &u("/a")));
    assert_eq!(got.url, u("/final"), "response URL after redirects");
    assert_eq!(got.etag.as_deref(), Some("\"x\""));
    assert_eq!(
        get(&f, &u("/chain0")).err(),
        Some(FetchError::TooManyRedirects(10))
    );
    assert_eq!(
        get(&f, &u("/ftp")).err(),
        Some(FetchError::Scheme("ftp".into()))
    );

    let fresh = body(get(&f, &u("/cond")));
    let again = f
        .get(&Request {
            url: &u("/cond"),
            max_bytes: 1024,
            etag: fresh.etag.as_deref(),
            ..Request::default()
        })
        .unwrap();
    assert!(matches!(again, Fetched::NotModified));

    let t = Instant::now();
    assert_eq!(body(get(&f, &u("/busy"))).body, b"now");
    assert!(
        t.elapsed() >= Duration::from_millis(950),
        "Retry-After not waited out"
    );

    // A long Retry-After fails at once, and the host is not asked again in this run.
    let err = get(&f, &u("/gone-for-long")).err().unwrap();
    assert!(
        matches!(
            err,
            FetchError::RetryAfter {
                status: 503,
                retry_after_secs: 120
            }
        ),
        "{err}"
    );
    assert_eq!(get(&f, &u("/final")).err(), Some(FetchError::HostDeferred));
    assert_eq!(r.hits("/gone-for-long").len(), 1);

    // Nothing but the loopback address in loopback-only mode.
    assert!(matches!(
        get(&f, "http://example.com/"),
        Err(FetchError::NotLoopback(_))
    ));
}
