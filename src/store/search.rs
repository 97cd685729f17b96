//! Full-text search over titles and clean article text (or the feed summary when the page could
//! not be fetched), and the queue that feeds the index at each commit.

use rusqlite::{Connection, params};

use super::items::ItemId;
use super::{Store, StoreError};

/// A search result.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchHit {
    /// The item.
    pub id: ItemId,
    /// Its title.
    pub title: String,
    /// The matching passage, matches in `[…]`.
    pub snippet: String,
    /// bm25 rank (lower is better).
    pub rank: f64,
}

/// Queues an item's full-text row; [`flush_fts`] moves the queue into the index when the
/// transaction commits.
///
/// Why a queue: SQLite's full-text index writes its pending entries out as a new segment at every
/// savepoint, and a batch runs each write in one (and multi-row statements open their own). Rows
/// inserted as articles came were thus flushed one article at a time, each a small segment to
/// merge later (callgrind: about 0.6 M instructions per stored article). Queued in a temporary
/// table, which follows savepoints and rollbacks like any other, they reach the index together.
pub(super) fn insert_fts(
    tx: &Connection,
    id: ItemId,
    title: &str,
    body: &str,
) -> Result<(), StoreError> {
    tx.prepare_cached(
        "INSERT OR REPLACE INTO temp.fts_pending (rowid, title, body) VALUES (?1, ?2, ?3)",
    )?
    .execute(params![id, title, body])?;
    Ok(())
}

/// Removes an item's full-text row, indexed or still queued.
pub(super) fn delete_fts(tx: &Connection, id: ItemId) -> Result<(), StoreError> {
    tx.prepare_cached("DELETE FROM item_fts WHERE rowid = ?1")?
        .execute([id])?;
    tx.prepare_cached("DELETE FROM temp.fts_pending WHERE rowid = ?1")?
        .execute([id])?;
    Ok(())
}

/// Gives an item's full-text row (indexed or still queued) a new title.
pub(super) fn retitle_fts(tx: &Connection, id: ItemId, title: &str) -> Result<(), StoreError> {
    tx.prepare_cached("UPDATE item_fts SET title = ?2 WHERE rowid = ?1")?
        .execute(params![id, title])?;
    tx.prepare_cached("UPDATE temp.fts_pending SET title = ?2 WHERE rowid = ?1")?
        .execute(params![id, title])?;
    Ok(())
}

/// Moves the queued full-text rows (see [`insert_fts`]) into the index; run by `Store` just before
/// every commit.
pub(crate) fn flush_fts(tx: &Connection) -> Result<(), StoreError> {
    let queued = tx
        .prepare_cached("SELECT EXISTS (SELECT 1 FROM temp.fts_pending)")?
        .query_row([], |r| r.get::<_, bool>(0))?;
    if queued {
        // REPLACE: an item indexed before (a retried page) gets its new text in place.
        tx.prepare_cached(
            "INSERT OR REPLACE INTO item_fts (rowid, title, body)
             SELECT rowid, title, body FROM temp.fts_pending ORDER BY rowid",
        )?
        .execute([])?;
        tx.prepare_cached("DELETE FROM temp.fts_pending")?
            .execute([])?;
    }
    Ok(())
}

impl Store {
    /// Full-text search over titles and clean article text, best first (bm25, titles weighing
    /// more). `query` is taken as plain words (each a prefix-free term, all required), so that
    /// user input never trips FTS5's query syntax.
    pub fn search(&self, query: &str, limit: usize) -> Result<Vec<SearchHit>, StoreError> {
        let terms: Vec<String> = query
            .split(|c: char| !c.is_alphanumeric())
            .filter(|t| !t.is_empty())
            .map(|t| format!("\"{t}\""))
            .collect();
        if terms.is_empty() {
            return Ok(Vec::new());
        }
        let fts_query = terms.join(" ");
        let mut stmt = self.conn.prepare_cached(
            "SELECT rowid, title, snippet(item_fts, 1, '[', ']', '…', 12), bm25(item_fts, 5.0, 1.0)
             FROM item_fts WHERE item_fts MATCH ?1 ORDER BY bm25(item_fts, 5.0, 1.0) LIMIT ?2",
        )?;
        let rows = stmt.query_map(params![fts_query, limit as i64], |r| {
            Ok(SearchHit {
                id: r.get(0)?,
                title: r.get(1)?,
                snippet: r.get(2)?,
                rank: r.get(3)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queued_full_text_rows_follow_their_writes_into_the_index() {
        let mut store = Store::open_in_memory().unwrap();
        let hits = |store: &Store, word: &str| -> i64 {
            store
                .conn
                .query_row(
                    "SELECT count(*) FROM item_fts WHERE item_fts MATCH ?1",
                    [word],
                    |r| r.get(0),
                )
                .unwrap()
        };
        store.begin_batch();
        store
            .write(|tx| insert_fts(tx, 1, "kept", "the aardvark stays"))
            .unwrap();
        let failed: Result<(), StoreError> = store.write(|tx| {
            insert_fts(tx, 2, "lost", "the bandicoot goes")?;
            Err(StoreError::Corrupt("this write fails".into()))
        });
        assert!(failed.is_err());
        store
            .write(|tx| {
                insert_fts(tx, 3, "deleted", "the chinchilla leaves")?;
                delete_fts(tx, 3)
            })
            .unwrap();
        assert_eq!(hits(&store, "aardvark"), 0, "queued until the commit");
        store.commit_batch().unwrap();
        assert_eq!(hits(&store, "aardvark"), 1);
        assert_eq!(hits(&store, "bandicoot"), 0);
        assert_eq!(hits(&store, "chinchilla"), 0);
        // Outside a batch a write's row is searchable when the write returns.
        store
            .write(|tx| insert_fts(tx, 4, "alone", "the dugong swims"))
            .unwrap();
        assert_eq!(hits(&store, "dugong"), 1);
        // An item indexed before gets its new text in place of the old.
        store
            .write(|tx| insert_fts(tx, 1, "kept", "the emu replaces it"))
            .unwrap();
        assert_eq!((hits(&store, "aardvark"), hits(&store, "emu")), (0, 1));
    }
}
