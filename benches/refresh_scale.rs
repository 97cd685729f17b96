//! Scale benchmark (not a timed test): 200 feeds × 20 entries, each feed on its own loopback
//! server (127.0.0.1 only), pages taken at run time from the shared datasets. The release binary
//! refreshes them with `--jobs 8`; the benchmark reports wall time and the child's peak memory,
//! then refreshes again (nothing new: only conditional feed requests, no page fetched again), and
//! times full-text searches over the stored articles.
//!
//! Run: `cargo bench --bench refresh_scale` (set PITH_SHARED if the datasets are elsewhere).

#[path = "../tests/common/server.rs"]
mod server;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use server::{Reply, Routes, Server};

const FEEDS: usize = 200;
const ENTRIES: usize = 20;
const JOBS: &str = "8";

fn shared_dir() -> PathBuf {
    pith::eval::dataset::shared_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .expect("the shared datasets (set PITH_SHARED)")
}

fn dataset_pages() -> Vec<Vec<u8>> {
    let mut paths = Vec::new();
    let datasets = shared_dir().join("datasets");
    for ds in std::fs::read_dir(&datasets).unwrap().flatten() {
        if let Ok(pages) = std::fs::read_dir(ds.path().join("pages")) {
            for p in pages.flatten() {
                paths.push(p.path());
            }
        }
    }
    paths.sort();
    paths.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

/// Runs the binary and returns (success, wall time, peak RSS in KB, stdout). The peak is the
/// child's VmHWM, polled from /proc: rusage would report the benchmark's own size, which the
/// child inherits between fork and exec.
fn run_measured(bin: &Path, db: &Path, args: &[&str]) -> (bool, Duration, i64, String) {
    let started = Instant::now();
    let mut child = Command::new(bin)
        .arg("--db")
        .arg(db)
        .args(args)
        .env("PITH_LOOPBACK_ONLY", "1")
        .env_remove("PITH_DB")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let status_path = format!("/proc/{}/status", child.id());
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut out = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut out).unwrap();
        out
    });
    let mut peak_kb = 0;
    let status = loop {
        if let Ok(text) = std::fs::read_to_string(&status_path) {
            for line in text.lines() {
                if let Some(v) = line.strip_prefix("VmHWM:") {
                    let kb: i64 = v.trim().trim_end_matches("kB").trim().parse().unwrap_or(0);
                    peak_kb = peak_kb.max(kb);
                }
            }
        }
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let out = reader.join().unwrap();
    (status.success(), started.elapsed(), peak_kb, out)
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` would too: run only when benchmarking.
    if !std::env::args().any(|a| a == "--bench") {
        println!("refresh_scale: run with `cargo bench --bench refresh_scale`");
        return;
    }
    // Benches are built with the release profile, and the binary with them.
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_pith"));
    let pages = Arc::new(dataset_pages());
    assert!(!pages.is_empty(), "no dataset pages");
    println!(
        "{} dataset pages, {:.1} MB, served as {} articles",
        pages.len(),
        pages.iter().map(Vec::len).sum::<usize>() as f64 / 1e6,
        FEEDS * ENTRIES
    );
    let routes = Arc::new(Routes::default());
    let servers: Vec<Server> = (0..FEEDS)
        .map(|_| Server::start_with(Arc::clone(&routes)))
        .collect();
    let mut opml = String::from("<opml version=\"2.0\"><head/><body>");
    for (f, server) in servers.iter().enumerate() {
        let mut rss = format!(
            "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Feed {f}</title><link>{}</link>",
            server.url("/")
        );
        for e in 0..ENTRIES {
            let path = format!("/p/{f}/{e}.html");
            let n = (f * ENTRIES + e) % pages.len();
            let pages = Arc::clone(&pages);
            routes.handle(&path, move |_| Reply::ok("text/html", pages[n].clone()));
            rss.push_str(&format!(
                "<item><title>Article {f}-{e}</title><link>{}</link><description>Summary {f}-{e}</description><guid>{f}-{e}</guid></item>",
                server.url(&path)
            ));
        }
        rss.push_str("</channel></rss>");
        let etag = format!("\"feed-{f}\"");
        let feed_path = format!("/feed/{f}.xml");
        routes.handle(&feed_path, move |seen| {
            if seen.headers.get("if-none-match") == Some(&etag) {
                Reply::status(304)
            } else {
                Reply::ok("application/rss+xml", rss.clone()).header("ETag", &etag)
            }
        });
        opml.push_str(&format!(
            "<outline text=\"f{f}\" xmlUrl=\"{}\"/>",
            server.url(&feed_path)
        ));
    }
    opml.push_str("</body></opml>");
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pith.db");
    let opml_path = dir.path().join("feeds.opml");
    std::fs::write(&opml_path, opml).unwrap();
    let (ok, _, _, _) = run_measured(&bin, &db, &["import", opml_path.to_str().unwrap()]);
    assert!(ok, "import failed");

    let (ok, took, peak_kb, out) = run_measured(&bin, &db, &["refresh", "--jobs", JOBS]);
    assert!(ok, "refresh failed: {out}");
    let log = routes.log();
    let page_requests = log.iter().filter(|s| s.path.starts_with("/p/")).count();
    println!("first refresh: {out}");
    println!(
        "FIRST REFRESH: {:.1} s wall, peak RSS {:.1} MB, {} requests ({} pages); bars: < 60 s, < 250 MB",
        took.as_secs_f64(),
        peak_kb as f64 / 1024.0,
        log.len(),
        page_requests
    );

    let size = |p: &Path| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0) as f64 / 1e6;
    println!(
        "database {:.1} MB, WAL {:.1} MB",
        size(&db),
        size(&db.with_extension("db-wal"))
    );
    routes.clear_log();
    let (ok, took2, peak2, out2) = run_measured(&bin, &db, &["refresh", "--jobs", JOBS]);
    assert!(ok, "second refresh failed: {out2}");
    let log2 = routes.log();
    let conditional = log2.iter().filter(|s| s.conditional()).count();
    let pages2 = log2.iter().filter(|s| s.path.starts_with("/p/")).count();
    println!("second refresh: {out2}");
    println!(
        "SECOND REFRESH: {:.1} s wall, peak RSS {:.1} MB, {} requests, {conditional} conditional, {pages2} page requests",
        took2.as_secs_f64(),
        peak2 as f64 / 1024.0,
        log2.len()
    );
    assert_eq!(conditional, log2.len(), "an unconditional request");
    assert_eq!(pages2, 0, "a page was fetched again");

    let store = pith::store::Store::open(&db).unwrap();
    let (items, _, stored_pages) = store.item_counts().unwrap();
    println!("stored: {items} items, {stored_pages} pages");
    let queries = [
        "government",
        "police said",
        "football",
        "the economy",
        "president election",
        "music",
        "climate",
        "market shares",
        "war",
        "new york",
    ];
    let mut times = Vec::new();
    for q in queries {
        let t = Instant::now();
        let hits = store.search(q, 20).unwrap();
        let dt = t.elapsed();
        times.push(dt);
        println!(
            "  search {q:?}: {} hits in {:.1} ms",
            hits.len(),
            dt.as_secs_f64() * 1e3
        );
    }
    times.sort();
    println!(
        "SEARCH over {items} articles: median {:.1} ms, max {:.1} ms (bar: < 50 ms)",
        times[times.len() / 2].as_secs_f64() * 1e3,
        times[times.len() - 1].as_secs_f64() * 1e3
    );
}
