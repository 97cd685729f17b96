//! The `pith` binary on good and bad input: clear errors or sensible empty results, never a panic.

use std::path::Path;
use std::process::{Command, Output};

fn pith(db: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pith"))
        .arg("--db")
        .arg(db)
        .args(args)
        .env_remove("PITH_DB")
        .output()
        .expect("pith runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

const ARTICLE: &str = r#"<html><head><title>Storm hits coast</title></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a></nav>
<div class="story"><h1>Storm hits coast</h1>
<p>A powerful storm hit the coast on Monday, cutting power to thousands of homes.</p>
<p>Officials said repairs would take several days, and asked residents to stay indoors.</p>
<p>Schools in the region will remain closed until Wednesday, the education office said.</p></div>
<footer>Copyright Example News</footer></body></html>"#;

#[test]
fn extract_prints_content_and_blocks_with_reasons() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let page = dir.path().join("a.html");
    std::fs::write(&page, ARTICLE).unwrap();
    let url = "https://www.example.com/news/storm";
    let out = pith(&db, &["extract", page.to_str().unwrap(), "--url", url]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("Officials said repairs"));

    let out = pith(
        &db,
        &[
            "extract",
            page.to_str().unwrap(),
            "--url",
            url,
            "--blocks",
            "-m",
            "strict",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let listing = text(&out.stdout);
    assert!(listing.contains("already in the tree"), "{listing}");
    assert!(listing.contains("n_s=1"), "{listing}");
    assert!(listing.contains("example.com"), "{listing}");
}

#[test]
fn bad_pages_give_empty_results_not_crashes() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let empty = dir.path().join("empty.html");
    std::fs::write(&empty, b"").unwrap();
    let random = dir.path().join("random.html");
    let mut state = 0x2545F4914F6CDD1Du64;
    let bytes: Vec<u8> = (0..200_000)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u8
        })
        .collect();
    std::fs::write(&random, bytes).unwrap();
    let nested = dir.path().join("nested.html");
    std::fs::write(
        &nested,
        format!(
            "{}deep text{}",
            "<div>".repeat(100_000),
            "</div>".repeat(100_000)
        ),
    )
    .unwrap();
    for (i, page) in [&empty, &random, &nested].into_iter().enumerate() {
        let url = format!("http://example.org/p{i}");
        let out = pith(&db, &["extract", page.to_str().unwrap(), "--url", &url]);
        assert!(
            out.status.success(),
            "{}: {}",
            page.display(),
            text(&out.stderr)
        );
        assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
        // An empty page and a lone two-word line are no article: no content text. (Random
        // bytes decode to long runs of text, which may well be kept.)
        if i != 1 {
            assert!(text(&out.stdout).trim().is_empty(), "{}", text(&out.stdout));
        }
        // And every block was read and judged, down to the text 100,000 levels deep.
        let blocks = pith(
            &db,
            &["extract", page.to_str().unwrap(), "--url", &url, "--blocks"],
        );
        assert!(blocks.status.success());
        // (Lines starting with `#` are notes: the page is in its tree already.)
        let listed: String = text(&blocks.stdout)
            .lines()
            .filter(|l| !l.starts_with('#'))
            .collect();
        match i {
            0 => assert!(listed.trim().is_empty(), "{listed}"),
            2 => assert!(
                listed.contains("BOILERPLATE") && listed.contains("deep text"),
                "{listed}"
            ),
            _ => assert!(listed.contains("BOILERPLATE") || listed.contains("CONTENT")),
        }
    }
}

#[test]
fn bad_urls_and_missing_files_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let page = dir.path().join("a.html");
    std::fs::write(&page, ARTICLE).unwrap();
    let out = pith(
        &db,
        &["extract", page.to_str().unwrap(), "--url", "http:///x"],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("host"), "{err}");
    assert!(!err.contains("panicked"), "{err}");

    let out = pith(
        &db,
        &["extract", "/no/such/page.html", "--url", "http://a.com/x"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("/no/such/page.html"));

    let out = pith(
        &db,
        &[
            "extract",
            page.to_str().unwrap(),
            "--url",
            "http://a.com/",
            "-m",
            "nonsense",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("unknown method"));
}

#[test]
fn eval_reports_bad_manifest_lines_and_runs_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir_all(data.join("pages")).unwrap();
    std::fs::create_dir_all(data.join("gold")).unwrap();
    std::fs::write(data.join("pages/a.html"), ARTICLE).unwrap();
    std::fs::write(
        data.join("gold/a.txt"),
        "Storm hits coast\nA powerful storm hit the coast on Monday, cutting power to thousands of homes.\nOfficials said repairs would take several days, and asked residents to stay indoors.\nSchools in the region will remain closed until Wednesday, the education office said.\n",
    )
    .unwrap();
    std::fs::write(
        data.join("manifest.jsonl"),
        concat!(
            r#"{"id": "a", "url": "https://www.example.com/news/storm", "site": "example", "html": "pages/a.html", "gold": "gold/a.txt", "date": "2020-01-01", "title": "Storm"}"#,
            "\n{not json\n",
            r#"{"id": "b", "url": null, "site": "example", "html": "pages/a.html", "gold": "gold/a.txt", "date": null, "title": null}"#,
            "\n"
        ),
    )
    .unwrap();
    let out_dir = dir.path().join("out");
    let db = dir.path().join("unused.db");
    let out = pith(
        &db,
        &[
            "eval",
            data.to_str().unwrap(),
            "-m",
            "all",
            "--out",
            out_dir.to_str().unwrap(),
            "--per-type",
            "--halves",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(err.contains("line 2"), "{err}");
    let table = text(&out.stdout);
    assert!(table.contains("strict"), "{table}");
    // Both pages are one site, so one half; neither has a page type.
    assert!(table.contains("site half"), "{table}");
    assert!(table.contains("(none)"), "{table}");
    assert!(
        table
            .lines()
            .any(|l| l.starts_with("half ") && l.contains("pith ")),
        "{table}"
    );
    assert!(out_dir.join("pages.csv").is_file());
    assert!(out_dir.join("cumulative.csv").is_file());
    assert!(out_dir.join("cumulative.png").is_file());
    assert!(out_dir.join("strict").join("a.txt").is_file());
    // The page without a URL is scored apart.
    let csv = std::fs::read_to_string(out_dir.join("pages.csv")).unwrap();
    assert!(
        csv.lines()
            .any(|l| l.starts_with("b,") && l.contains("false")),
        "{csv}"
    );
}

#[test]
fn eval_of_a_missing_dataset_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = pith(&dir.path().join("t.db"), &["eval", "/no/such/dataset"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("/no/such/dataset"));
}

#[test]
fn a_db_that_is_not_a_database_or_in_a_missing_folder_is_refused_and_nothing_moves() {
    let dir = tempfile::tempdir().unwrap();
    // `pith --db subs.opml feeds`: the user's OPML file is named by mistake.
    let opml = dir.path().join("subs.opml");
    let subscriptions = "<?xml version=\"1.0\"?><opml version=\"2.0\"><head/><body>\
                <outline text=\"News\" xmlUrl=\"http://127.0.0.1:1/feed.xml\"/></body></opml>";
    std::fs::write(&opml, subscriptions).unwrap();
    let out = pith(&opml, &["feeds"]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("not an SQLite database"), "{err}");
    assert_eq!(std::fs::read_to_string(&opml).unwrap(), subscriptions);
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["subs.opml"], "nothing renamed or created");

    // `--db /nonexistent/dir/x.db`: no folders are made up.
    let missing = dir.path().join("nonexistent").join("dir").join("x.db");
    let out = pith(&missing, &["feeds"]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("does not exist"), "{err}");
    assert!(!dir.path().join("nonexistent").exists());
}

/// What the window's subscription buttons do runs from the command line too: a feed renamed (the
/// user's name shown, a blank name giving the title back) and moved into a nested folder (kept as
/// nested outlines in the export, and back to the top level), and an unknown feed refused.
#[test]
fn feeds_are_renamed_and_moved_between_folders() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pith.db");
    let opml = dir.path().join("subs.opml");
    std::fs::write(
        &opml,
        "<?xml version=\"1.0\"?><opml version=\"2.0\"><head><title>s</title></head><body>\
         <outline text=\"Globe\" xmlUrl=\"http://127.0.0.1:9/feed.xml\"/></body></opml>",
    )
    .unwrap();
    assert!(
        pith(&db, &["import", opml.to_str().unwrap()])
            .status
            .success()
    );

    let moved = pith(&db, &["move", "1", " News/ World /"]);
    assert!(moved.status.success(), "{}", text(&moved.stderr));
    assert_eq!(
        text(&moved.stdout).trim(),
        "http://127.0.0.1:9/feed.xml is in News / World"
    );
    let export = text(&pith(&db, &["export"]).stdout);
    assert!(
        export.contains("<outline text=\"News\" title=\"News\"><outline text=\"World\""),
        "{export}"
    );

    assert!(pith(&db, &["rename", "1", "My paper"]).status.success());
    let feeds = text(&pith(&db, &["feeds"]).stdout);
    assert!(
        feeds.contains("My paper") && feeds.contains("in News / World"),
        "{feeds}"
    );

    assert!(
        pith(&db, &["move", "http://127.0.0.1:9/feed.xml"])
            .status
            .success()
    );
    assert!(pith(&db, &["rename", "1", "  "]).status.success());
    let feeds = text(&pith(&db, &["feeds"]).stdout);
    assert!(
        feeds.contains("Globe") && !feeds.contains("My paper"),
        "{feeds}"
    );
    assert!(!feeds.contains("News"), "{feeds}");

    let blank = pith(&db, &["move", "1", " / "]);
    assert!(!blank.status.success());
    assert!(
        text(&blank.stderr).contains("names no folder"),
        "{}",
        text(&blank.stderr)
    );

    let unknown = pith(&db, &["move", "99", "Elsewhere"]);
    assert!(!unknown.status.success());
    assert!(text(&unknown.stderr).contains("no subscription with id or URL \"99\""));
}

/// `pith items` reads and prints a page at a time: every item once, in the list's order (by the
/// feed's date, else the arrival, then the id), across pages; `-n` stops inside a page.
#[test]
fn items_are_listed_whole_across_pages() {
    use pith::store::{EntryRef, ItemFilter, NewItem, Store};
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pith.db");
    let total = 2 * pith::limits::LIST_PAGE_ROWS + 37;
    {
        let mut store = Store::open(&db).unwrap();
        let (feed, _) = store
            .feed_add("https://a.test/feed", Some("A"), None, 0)
            .unwrap();
        for i in 0..total as i64 {
            let identity = format!("entry {i}");
            let link = format!("https://a.test/{i}");
            // Dates repeat (ties) and disagree with the arrival order; a few have none.
            let date = 1_700_000_000 + (i % 50) * 3_600;
            store
                .item_store_failed(
                    &EntryRef {
                        feed,
                        identity: &identity,
                    },
                    &NewItem {
                        link: &link,
                        title: &format!("Item {i}"),
                        summary: None,
                        published: (i % 9 != 0).then_some(date),
                        added: 1_800_000_000 - i,
                    },
                    "",
                    "failed",
                )
                .unwrap();
        }
    }
    let want: Vec<String> = Store::open(&db)
        .unwrap()
        .item_rows(&ItemFilter::default())
        .unwrap()
        .iter()
        .map(|r| r.id.to_string())
        .collect();
    assert_eq!(want.len(), total);
    let ids = |args: &[&str]| -> Vec<String> {
        let out = pith(&db, args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
            .lines()
            .map(|l| l.split_whitespace().next().unwrap_or("").to_string())
            .collect()
    };
    assert_eq!(ids(&["items"]), want);
    let n = pith::limits::LIST_PAGE_ROWS + 5;
    assert_eq!(ids(&["items", "-n", &n.to_string()]), want[..n]);
}
