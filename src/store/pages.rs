//! Stored pages: the raw bytes of each fetched article (compressed, see `codecs`), and its record
//! (its blocks with the labels they got when it arrived, encoded by the engine:
//! `classify::labelled`), whose bytes the store keeps without reading them.

use rusqlite::{Connection, OptionalExtension, params};

use super::codecs::{PageBytes, decompress, pack_record, unpack_record};
use super::items::ItemId;
use super::{Store, StoreError};

/// A stored page, decompressed.
#[derive(Debug, Clone)]
pub struct StoredPage {
    /// The response URL.
    pub url: String,
    /// The charset of the `Content-Type` header.
    pub declared_charset: Option<String>,
    /// The raw bytes as served.
    pub raw: Vec<u8>,
    /// Unix seconds of the fetch.
    pub fetched: i64,
}

/// Writes the rows of an article's page: its raw bytes (compressed) and its labelled blocks (as
/// the engine encoded them).
pub(super) fn insert_page_rows(
    tx: &Connection,
    item: ItemId,
    url: &str,
    declared_charset: Option<&str>,
    fetched: i64,
    raw: &PageBytes,
    blocks: &PageBytes,
) -> Result<(), StoreError> {
    tx.prepare_cached(
        "INSERT INTO page (item, url, declared_charset, fetched, raw_len, raw)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![
        item,
        url,
        declared_charset,
        fetched,
        raw.raw_len() as i64,
        raw.stored()
    ])?;
    tx.prepare_cached("INSERT INTO item_blocks (item, blocks) VALUES (?1, ?2)")?
        .execute(params![item, blocks.stored()])?;
    Ok(())
}

/// Deletes an item's raw page and compresses its record, which is from now on the article's only
/// copy (see `codecs::pack_record`). Returns whether there was a page.
pub(super) fn drop_page(tx: &Connection, id: ItemId) -> Result<bool, StoreError> {
    let dropped = tx
        .prepare_cached("DELETE FROM page WHERE item = ?1")?
        .execute([id])?
        > 0;
    let record: Option<Vec<u8>> = tx
        .prepare_cached("SELECT blocks FROM item_blocks WHERE item = ?1")?
        .query_row([id], |r| r.get(0))
        .optional()?;
    if let Some(record) = record {
        let packed = pack_record(&record)?;
        if packed.len() < record.len() {
            tx.prepare_cached("UPDATE item_blocks SET blocks = ?2 WHERE item = ?1")?
                .execute(params![id, packed])?;
        }
    }
    Ok(dropped)
}

impl Store {
    /// The page stored for an item, decompressed.
    pub fn item_page(&self, id: ItemId) -> Result<Option<StoredPage>, StoreError> {
        type Row = (String, Option<String>, i64, i64, Vec<u8>);
        let row: Option<Row> = self
            .conn
            .prepare_cached(
                "SELECT url, declared_charset, fetched, raw_len, raw FROM page WHERE item = ?1",
            )?
            .query_row([id], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
            })
            .optional()?;
        let Some((url, declared_charset, fetched, raw_len, blob)) = row else {
            return Ok(None);
        };
        Ok(Some(StoredPage {
            url,
            declared_charset,
            raw: decompress(&blob, usize::try_from(raw_len).unwrap_or(0))?,
            fetched,
        }))
    }

    /// The bytes of an item's record as the engine encoded them (`classify::labelled::decode`
    /// reads them back; `Store::item_blocks` does both), decompressed when retention compressed
    /// it; `None` when it has none (its page could not be fetched).
    pub fn item_record(&self, id: ItemId) -> Result<Option<Vec<u8>>, StoreError> {
        let stored: Option<Vec<u8>> = self
            .conn
            .prepare_cached("SELECT blocks FROM item_blocks WHERE item = ?1")?
            .query_row([id], |r| r.get(0))
            .optional()?;
        stored.map(unpack_record).transpose()
    }

    /// Drops an item's raw page and keeps its record (compressed, [`drop_page`]): what the
    /// retention policy does to an article it no longer keeps whole, after which reading builds
    /// the article from its record. Returns whether there was a page to drop.
    pub fn page_drop(&mut self, id: ItemId) -> Result<bool, StoreError> {
        self.write(|tx| drop_page(tx, id))
    }
}
