//! The "store" stage: what the reader writes per article once it is classified (raw page, labels,
//! clean text with a full-text index). Feeds and items get their own store module on another
//! branch; until it lands this stand-in writes the same shape of row, one transaction per page, to
//! its own WAL file, so that the stage's cost is in the pipeline figure.

use std::path::Path;

use pith::classify::Label;
use rusqlite::{Connection, params};

/// A scratch item table in its own database file.
pub struct ItemSink {
    conn: Connection,
}

impl ItemSink {
    /// Creates the item tables in a fresh file at `path`.
    pub fn open(path: &Path) -> rusqlite::Result<ItemSink> {
        let conn = Connection::open(path)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.execute_batch(
            "CREATE TABLE IF NOT EXISTS item (
                 id INTEGER PRIMARY KEY, url TEXT NOT NULL, raw BLOB NOT NULL,
                 labels BLOB NOT NULL, clean TEXT NOT NULL);
             CREATE VIRTUAL TABLE IF NOT EXISTS item_fts USING fts5(clean, content='item',
                 content_rowid='id');",
        )?;
        Ok(ItemSink { conn })
    }

    /// Stores one classified page: one bit per block (content or not) and the clean text.
    pub fn store(
        &mut self,
        url: &str,
        raw: &[u8],
        labels: &[Label],
        clean: &str,
    ) -> rusqlite::Result<()> {
        let mut bits = vec![0u8; labels.len().div_ceil(8)];
        for (i, label) in labels.iter().enumerate() {
            if label.is_content() {
                bits[i / 8] |= 1 << (i % 8);
            }
        }
        let tx = self.conn.transaction()?;
        tx.prepare_cached("INSERT INTO item (url, raw, labels, clean) VALUES (?1, ?2, ?3, ?4)")?
            .execute(params![url, raw, bits, clean])?;
        let id = tx.last_insert_rowid();
        tx.prepare_cached("INSERT INTO item_fts (rowid, clean) VALUES (?1, ?2)")?
            .execute(params![id, clean])?;
        tx.commit()
    }
}
