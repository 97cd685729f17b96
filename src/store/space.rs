//! What takes the space in a database (`pith stats`): rows and bytes of each part (items, raw
//! pages, records, images, the full-text index, the URL Tree, feed entries), free pages and the
//! file's size. Bytes are measured with SQLite's `dbstat` table (every b-tree page counted, the
//! indexes of a table with it) when the SQLite pith is built with has it, which the bundled one
//! does; otherwise they are estimated from the stored blobs' lengths, and the report says so.

use std::collections::HashMap;

use super::{Store, StoreError};

/// One part of the database.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpacePart {
    /// What it is, as `pith stats` names it.
    pub name: &'static str,
    /// Its rows (items, pages, records, images, indexed texts, documents, entries).
    pub rows: u64,
    /// Its bytes in the file (its tables and their indexes).
    pub bytes: u64,
}

/// The items by state.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ItemTally {
    /// All items.
    pub total: u64,
    /// Unread.
    pub unread: u64,
    /// Starred.
    pub starred: u64,
    /// With their raw page still stored.
    pub with_page: u64,
    /// Read from their record alone (the raw page dropped by retention).
    pub record_only: u64,
    /// Feed entries kept after their item was deleted (tombstones).
    pub tombstones: u64,
}

/// What takes the space.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpaceReport {
    /// The file's size in bytes (`page_count × page_size`; the write-ahead log apart).
    pub file_bytes: u64,
    /// SQLite's page size.
    pub page_size: u64,
    /// Free pages (reused by later writes, or given back by a sweep).
    pub free_pages: u64,
    /// Whether the file gives free pages back (incremental auto_vacuum).
    pub incremental_vacuum: bool,
    /// True when the bytes were measured with `dbstat`; false when estimated.
    pub measured: bool,
    /// The parts, largest first.
    pub parts: Vec<SpacePart>,
    /// The items by state.
    pub items: ItemTally,
}

/// The part a table (or one of its indexes) belongs to.
fn part_of(table: &str) -> &'static str {
    match table {
        "item" => "items",
        "feed_entry" => "feed entries",
        "page" => "raw pages",
        "item_blocks" => "records",
        "image" | "item_image" => "images",
        t if t.starts_with("item_fts") => "full-text index",
        t if t.starts_with("tree_") || t == "site_container" => "URL Tree",
        _ => "other",
    }
}

/// Every part, in the order they are reported when equal.
const PARTS: &[&str] = &[
    "raw pages",
    "records",
    "full-text index",
    "items",
    "feed entries",
    "images",
    "URL Tree",
    "other",
];

impl Store {
    /// The records of the articles whose raw page is gone (the retention policy dropped it): how
    /// many, and their stored bytes in all. What a kept article's record costs once it is the
    /// article's only copy, apart from the records still stored beside their page.
    pub fn record_only_bytes(&self) -> Result<(u64, u64), StoreError> {
        let (n, bytes): (i64, i64) = self.conn.query_row(
            "SELECT count(*), coalesce(sum(length(b.blocks)), 0) FROM item_blocks b
             WHERE NOT EXISTS (SELECT 1 FROM page p WHERE p.item = b.item)",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        Ok((n.max(0) as u64, bytes.max(0) as u64))
    }

    /// The file's size in bytes (`page_count × page_size`, the write-ahead log apart): cheap,
    /// unlike [`Store::space`].
    pub fn space_file_bytes(&self) -> Result<u64, StoreError> {
        let size: i64 = self.conn.query_row(
            "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()",
            [],
            |r| r.get(0),
        )?;
        Ok(size.max(0) as u64)
    }

    /// Measures what takes the space. Reads every page of the file when `dbstat` is there (a
    /// few seconds for gigabytes): for `pith stats`, never for a refresh.
    pub fn space(&self) -> Result<SpaceReport, StoreError> {
        let pragma = |name: &str| -> Result<u64, StoreError> {
            let v: i64 = self.conn.pragma_query_value(None, name, |r| r.get(0))?;
            Ok(v.max(0) as u64)
        };
        let page_size = pragma("page_size")?;
        let page_count = pragma("page_count")?;
        let free_pages = pragma("freelist_count")?;
        let incremental_vacuum = pragma("auto_vacuum")? == 2;
        let count = |sql: &str| -> Result<u64, StoreError> {
            let n: i64 = self.conn.query_row(sql, [], |r| r.get(0))?;
            Ok(n.max(0) as u64)
        };
        let items = ItemTally {
            total: count("SELECT count(*) FROM item")?,
            unread: count("SELECT count(*) FROM item WHERE read = 0")?,
            starred: count("SELECT count(*) FROM item WHERE starred = 1")?,
            with_page: count("SELECT count(*) FROM page")?,
            record_only: count(
                "SELECT count(*) FROM item_blocks b WHERE NOT EXISTS
                 (SELECT 1 FROM page p WHERE p.item = b.item)",
            )?,
            tombstones: count("SELECT count(*) FROM feed_entry WHERE item = 0")?,
        };
        let rows: HashMap<&str, u64> = [
            ("items", items.total),
            ("feed entries", count("SELECT count(*) FROM feed_entry")?),
            ("raw pages", items.with_page),
            ("records", count("SELECT count(*) FROM item_blocks")?),
            ("images", count("SELECT count(*) FROM image")?),
            (
                "full-text index",
                count("SELECT count(*) FROM item_fts_docsize")?,
            ),
            ("URL Tree", count("SELECT count(*) FROM tree_doc")?),
            ("other", 0),
        ]
        .into_iter()
        .collect();
        let (bytes, measured) = match self.bytes_by_dbstat() {
            Ok(b) => (b, true),
            Err(_) => (self.bytes_estimated()?, false),
        };
        let mut parts: Vec<SpacePart> = PARTS
            .iter()
            .map(|&name| SpacePart {
                name,
                rows: rows.get(name).copied().unwrap_or(0),
                bytes: bytes.get(name).copied().unwrap_or(0),
            })
            .collect();
        parts.sort_by_key(|p| std::cmp::Reverse(p.bytes));
        Ok(SpaceReport {
            file_bytes: page_size * page_count,
            page_size,
            free_pages,
            incremental_vacuum,
            measured,
            parts,
            items,
        })
    }

    /// Bytes per part, every b-tree page counted by `dbstat` (an index with its table).
    fn bytes_by_dbstat(&self) -> Result<HashMap<&'static str, u64>, StoreError> {
        let tables: HashMap<String, String> = self
            .conn
            .prepare("SELECT name, tbl_name FROM sqlite_master WHERE rootpage > 0")?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?;
        let mut bytes = HashMap::new();
        let mut stmt = self
            .conn
            .prepare("SELECT name, sum(pgsize) FROM dbstat WHERE aggregate = TRUE GROUP BY name")?;
        let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))?;
        for row in rows {
            let (name, size) = row?;
            let table = tables.get(&name).map_or(name.as_str(), String::as_str);
            *bytes.entry(part_of(table)).or_insert(0) += size.max(0) as u64;
        }
        Ok(bytes)
    }

    /// Bytes per part without `dbstat`: the lengths of the large columns and texts, which leave
    /// out the indexes and the b-trees' own overhead.
    fn bytes_estimated(&self) -> Result<HashMap<&'static str, u64>, StoreError> {
        let sum = |sql: &str| -> Result<u64, StoreError> {
            let n: Option<i64> = self.conn.query_row(sql, [], |r| r.get(0))?;
            Ok(n.unwrap_or(0).max(0) as u64)
        };
        Ok([
            (
                "items",
                sum("SELECT sum(length(link) + length(title) + coalesce(length(summary), 0) + 64) FROM item")?,
            ),
            ("feed entries", sum("SELECT sum(length(hash) + 16) FROM feed_entry")?),
            ("raw pages", sum("SELECT sum(length(raw) + length(url)) FROM page")?),
            ("records", sum("SELECT sum(length(blocks)) FROM item_blocks")?),
            ("images", sum("SELECT sum(coalesce(length(data), 0) + length(url)) FROM image")?),
            ("full-text index", sum("SELECT sum(length(block)) FROM item_fts_data")?),
            ("URL Tree", sum("SELECT sum(length(hashes) + length(url_key)) FROM tree_doc")?),
        ]
        .into_iter()
        .collect())
    }
}
