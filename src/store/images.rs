//! Images kept as content: downloaded once by URL, linked to the items that show them.

use rusqlite::{Connection, OptionalExtension, params};

use super::items::ItemId;
use super::{Store, StoreError};

/// A stored image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredImage {
    /// Its URL.
    pub url: String,
    /// Its `Content-Type`.
    pub content_type: Option<String>,
    /// Its size in bytes (0 when it failed).
    pub bytes: u64,
    /// Why it is not stored, if it is not.
    pub error: Option<String>,
}

/// An image downloaded (or not) for an item.
#[derive(Debug, Clone)]
pub struct NewImage {
    /// Its URL.
    pub url: String,
    /// Its `Content-Type`.
    pub content_type: Option<String>,
    /// The bytes, or why there are none.
    pub data: Result<Vec<u8>, String>,
}

/// Stores the images downloaded for an item (an image already stored under its URL keeps its
/// first download) and links them to it.
pub(super) fn store_images(
    tx: &Connection,
    item: ItemId,
    images: &[NewImage],
    now: i64,
) -> Result<(), StoreError> {
    let mut put = tx.prepare_cached(
        "INSERT INTO image (url, content_type, data, error, fetched) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (url) DO NOTHING",
    )?;
    let mut link =
        tx.prepare_cached("INSERT OR IGNORE INTO item_image (item, url) VALUES (?1, ?2)")?;
    for image in images {
        let (data, error) = match &image.data {
            Ok(bytes) => (Some(bytes.as_slice()), None),
            Err(e) => (None, Some(e.as_str())),
        };
        put.execute(params![image.url, image.content_type, data, error, now])?;
        link.execute(params![item, image.url])?;
    }
    Ok(())
}

/// Links images stored before (for another article) to an item.
pub(super) fn link_known_images(
    tx: &Connection,
    item: ItemId,
    urls: &[String],
) -> Result<(), StoreError> {
    let mut link =
        tx.prepare_cached("INSERT OR IGNORE INTO item_image (item, url) VALUES (?1, ?2)")?;
    for url in urls {
        link.execute(params![item, url])?;
    }
    Ok(())
}

impl Store {
    /// Whether an image is already stored (downloaded once, whichever article uses it).
    pub fn image_known(&self, url: &str) -> Result<bool, StoreError> {
        Ok(self
            .conn
            .prepare_cached("SELECT 1 FROM image WHERE url = ?1")?
            .exists([url])?)
    }

    /// The images stored for an item.
    pub fn item_images(&self, id: ItemId) -> Result<Vec<StoredImage>, StoreError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT m.url, m.content_type, length(m.data), m.error FROM item_image i
             JOIN image m ON m.url = i.url WHERE i.item = ?1 ORDER BY m.url",
        )?;
        let rows = stmt.query_map([id], |r| {
            Ok(StoredImage {
                url: r.get(0)?,
                content_type: r.get(1)?,
                bytes: r.get::<_, Option<i64>>(2)?.unwrap_or(0).max(0) as u64,
                error: r.get(3)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// An image's bytes, from the database only.
    pub fn image_data(&self, url: &str) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self
            .conn
            .prepare_cached("SELECT data FROM image WHERE url = ?1")?
            .query_row([url], |r| r.get::<_, Option<Vec<u8>>>(0))
            .optional()?
            .flatten())
    }
}
