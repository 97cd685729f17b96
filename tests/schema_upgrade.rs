//! Schema upgrades from every version pith has shipped. Each `tests/fixtures/schema-vN.sql` is the
//! `schema.sql` of version N as released; a database is built with it and filled with that
//! version's data (`schema-vN-data.sql`, else the newest older data file, whose columns later
//! versions keep), then opened with the current code. The data must survive, the version must be
//! current, and the upgraded file must have exactly the tables, columns and indexes of a fresh one.
//!
//! When a schema version ships, its `schema.sql` is added here as a fixture (a test below fails
//! when one is missing), so every later upgrade is tested from it.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use pith::store::{ItemFilter, SCHEMA_VERSION, Store};
use rusqlite::Connection;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// The shipped schemas: (version, path), oldest first.
fn shipped_schemas() -> Vec<(i64, PathBuf)> {
    let mut found: Vec<(i64, PathBuf)> = std::fs::read_dir(fixtures())
        .unwrap()
        .filter_map(|e| {
            let path = e.ok()?.path();
            let name = path.file_name()?.to_str()?;
            let version = name.strip_prefix("schema-v")?.strip_suffix(".sql")?;
            Some((version.parse().ok()?, path))
        })
        .collect();
    found.sort();
    found
}

/// The data file for `version`: its own, else the newest one of an older version.
fn data_for(version: i64) -> (i64, String) {
    (1..=version)
        .rev()
        .find_map(|v| {
            let path = fixtures().join(format!("schema-v{v}-data.sql"));
            std::fs::read_to_string(path).ok().map(|sql| (v, sql))
        })
        .expect("a data fixture for version 1 at least")
}

fn zlib(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

const PAGE_HTML: &str = "<html><head><title>Glaciers retreat faster</title></head><body>\
    <h1>Glaciers retreat faster</h1><p>The glaciers of the northern valley retreated forty \
    metres.</p><img src=\"/img/glacier.jpg\" alt=\"A glacier\"></body></html>";

/// Builds a database of `version` from its shipped schema, filled with data.
fn build_old(path: &Path, version: i64, schema: &Path) {
    let conn = Connection::open(path).unwrap();
    conn.execute_batch(&std::fs::read_to_string(schema).unwrap())
        .unwrap();
    conn.pragma_update(None, "user_version", version).unwrap();
    let (_, data) = data_for(version);
    conn.execute_batch(&data).unwrap();
    // Compressed columns, as version 1 wrote them (zlib; blocks as a JSON array).
    conn.execute(
        "INSERT INTO page (item, url, declared_charset, fetched, raw_len, raw)
         VALUES (1, 'https://news.example.com/a/1', 'utf-8', 1700000100, ?1, ?2)",
        rusqlite::params![PAGE_HTML.len() as i64, zlib(PAGE_HTML.as_bytes())],
    )
    .unwrap();
    let blocks = r#"[{"position":0,"kind":"Heading(1)","text":"Glaciers retreat faster","image":null,"content":true,"reason":"pith-page: headline"},
        {"position":1,"kind":"Paragraph","text":"The glaciers of the northern valley retreated forty metres.","image":null,"content":true,"reason":"pith-page: in the article"}]"#;
    conn.execute(
        "INSERT INTO item_blocks (item, blocks) VALUES (1, ?1)",
        [zlib(blocks.as_bytes())],
    )
    .unwrap();
}

/// Tables with their columns (name, type, not null, default, primary key) and the indexes: what
/// must be alike in an upgraded and a fresh file (column order may differ: `ALTER TABLE` appends).
fn shape(path: &Path) -> (BTreeSet<String>, BTreeSet<String>) {
    let conn = Connection::open(path).unwrap();
    let mut columns = BTreeSet::new();
    let tables: Vec<String> = conn
        .prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table'
             AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'item_fts_%' ORDER BY name",
        )
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    for table in &tables {
        let mut stmt = conn
            .prepare(&format!("PRAGMA table_info(\"{table}\")"))
            .unwrap();
        let rows = stmt
            .query_map([], |r| {
                Ok(format!(
                    "{table}.{} {} notnull={} default={:?} pk={}",
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, i64>(3)?,
                    r.get::<_, Option<String>>(4)?,
                    r.get::<_, i64>(5)?
                ))
            })
            .unwrap();
        for row in rows {
            columns.insert(row.unwrap());
        }
        columns.insert(format!("table {table}"));
    }
    let names: Vec<(String, String)> = conn
        .prepare("SELECT tbl_name, name FROM sqlite_master WHERE type = 'index'")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let mut indexes = BTreeSet::new();
    for (table, name) in names {
        let cols: Vec<String> = conn
            .prepare(&format!("PRAGMA index_info(\"{name}\")"))
            .unwrap()
            .query_map([], |r| r.get::<_, Option<String>>(2))
            .unwrap()
            .map(|c| c.unwrap().unwrap_or_else(|| "<expr>".into()))
            .collect();
        // Automatic indexes are named by position; identify them by what they index.
        let name = if name.starts_with("sqlite_autoindex_") {
            "auto"
        } else {
            &name
        };
        indexes.insert(format!("{table} {name} ({})", cols.join(", ")));
    }
    (columns, indexes)
}

#[test]
fn every_shipped_version_has_a_fixture() {
    let versions: Vec<i64> = shipped_schemas().iter().map(|(v, _)| *v).collect();
    // Every version before the current one (none while version 1 is current).
    for v in (1..=SCHEMA_VERSION).filter(|v| *v < SCHEMA_VERSION) {
        assert!(
            versions.contains(&v),
            "schema version {v} shipped but tests/fixtures/schema-v{v}.sql is missing \
             (save that version's schema.sql there so upgrades from it stay tested)"
        );
    }
    assert!(versions.contains(&1));
}

#[test]
fn every_older_schema_upgrades_with_its_data() {
    // The current version's own fixture (if saved) goes through the same checks: it proves the
    // data checks themselves before any upgrade is involved.
    let older: Vec<(i64, PathBuf)> = shipped_schemas()
        .into_iter()
        .filter(|(v, _)| *v <= SCHEMA_VERSION)
        .collect();
    assert!(!older.is_empty());
    let dir = tempfile::tempdir().unwrap();
    let fresh = dir.path().join("fresh.db");
    drop(Store::open(&fresh).unwrap());
    let fresh_shape = shape(&fresh);
    for (version, schema) in older {
        let path = dir.path().join(format!("v{version}.db"));
        build_old(&path, version, &schema);
        let store =
            Store::open(&path).unwrap_or_else(|e| panic!("version {version} does not open: {e}"));
        println!("opened version {version} as version {SCHEMA_VERSION}");
        assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
        assert_eq!(store.integrity_check().unwrap(), "ok");
        // Its search rows were written by an older version: the refreshes write them again.
        assert!(
            store.search_form().unwrap() < pith::store::SEARCH_FORM,
            "version {version}"
        );
        assert_eq!(
            store.tree_consistency_errors().unwrap(),
            Vec::<String>::new(),
            "v{version}"
        );

        let feeds = store.feeds().unwrap();
        assert_eq!(feeds.len(), 2, "v{version}");
        let news = feeds.iter().find(|f| f.id == 1).unwrap();
        assert_eq!(news.title.as_deref(), Some("Example News"));
        assert_eq!(news.etag.as_deref(), Some("\"etag-1\""));
        assert_eq!(
            news.last_modified.as_deref(),
            Some("Tue, 14 Nov 2023 22:13:20 GMT")
        );
        let blog = feeds.iter().find(|f| f.id == 2).unwrap();
        assert_eq!(blog.title.as_deref(), Some("Ünïcödé Blog — 日本語"));
        assert_eq!(
            blog.last_error.as_deref(),
            Some("HTTP 503 Service Unavailable")
        );
        assert_eq!(blog.retry_after, Some(1700003600));

        let items = store.items(&ItemFilter::default()).unwrap();
        assert_eq!(items.len(), 3, "v{version}");
        let by_id = |id: i64| items.iter().find(|i| i.id == id).unwrap();
        assert!(by_id(1).read && !by_id(1).starred);
        assert!(!by_id(2).read && by_id(2).starred);
        assert_eq!(by_id(3).fetch_error.as_deref(), Some("HTTP 404 Not Found"));
        assert_eq!(
            by_id(3).summary.as_deref(),
            Some("Only the feed summary of this post")
        );
        assert_eq!(by_id(1).feeds.len(), 2, "item 1 is listed by both feeds");

        let page = store.item_page(1).unwrap().expect("page kept");
        assert_eq!(page.raw, PAGE_HTML.as_bytes());
        assert_eq!(page.declared_charset.as_deref(), Some("utf-8"));
        let blocks = store.item_blocks(1).unwrap();
        assert_eq!(blocks.len(), 2);
        assert!(blocks[1].text.contains("northern valley"));
        assert_eq!(store.item_images(1).unwrap().len(), 2);
        assert!(
            store
                .image_data("https://news.example.com/img/glacier.jpg")
                .unwrap()
                .is_some()
        );
        let hits = store.search("glaciers", 10).unwrap();
        assert_eq!(hits.iter().map(|h| h.id).collect::<Vec<_>>(), vec![1]);
        assert_eq!(store.tree_doc_count("example.com").unwrap(), 2);
        // The tree's counters read as the documents say, whatever form the version kept them
        // in: hash 1 is in both documents, hash 2 in the first only.
        let first = store
            .tree_find("example.com", "https://news.example.com/a/1?_cid_=aa")
            .unwrap()
            .expect("document 1 stays in the tree");
        let hash = |n: u64| pith::page::BlockHash(n.to_be_bytes());
        let branch = store
            .tree_branch(first, &[hash(1), hash(2), hash(3)])
            .unwrap();
        let section = &branch.nodes[2];
        assert_eq!(section.path, "example.com/news.example.com/a");
        assert_eq!(
            (
                section.count(&hash(1)),
                section.count(&hash(2)),
                section.count(&hash(3))
            ),
            (2, 1, 1),
            "v{version}"
        );
        assert_eq!(branch.nodes[3].count(&hash(3)), 0, "v{version}");
        let seen = store
            .seen_entries(1, &["0123456789abcdef0123456789abcdef", "new"])
            .unwrap();
        assert_eq!(seen.len(), 1, "entries seen before stay seen (no refetch)");
        drop(store);

        // Writes work on the upgraded file, and opening it again changes nothing.
        let mut store = Store::open(&path).unwrap();
        store
            .feed_add("https://third.example/feed", None, None, 1700000300)
            .unwrap();
        assert_eq!(store.feeds().unwrap().len(), 3);
        drop(store);
        assert_eq!(
            shape(&path),
            fresh_shape,
            "version {version} upgraded is not shaped like a fresh database"
        );
    }
}
