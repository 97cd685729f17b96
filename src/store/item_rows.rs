//! Item lists' rows: just what a list draws of each item (title, first feed, date, flags), in one
//! statement per list, so a list of 100,000 items loads in one pass instead of one query per row.

use rusqlite::params;

use super::{ItemFilter, ItemId, Store, StoreError};

/// One row of an item list: just what the list draws.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemRow {
    /// The item.
    pub id: ItemId,
    /// Its title as the feed gave it.
    pub title: String,
    /// The first feed that lists it (title, else URL).
    pub feed: String,
    /// Publication time, else the time it was added (unix seconds): what the list is sorted by.
    pub date: i64,
    /// Read.
    pub read: bool,
    /// Starred.
    pub starred: bool,
    /// The page could not be fetched (only the feed's summary is stored).
    pub failed: bool,
}

impl Store {
    /// The item list as [`Store::items`] orders and filters it (newest first), in one query.
    pub fn item_rows(&self, filter: &ItemFilter) -> Result<Vec<ItemRow>, StoreError> {
        let mut sql = String::from(
            "SELECT i.id, i.title,
                (SELECT coalesce(f.name, f.title, f.url) FROM feed_entry e JOIN feed f ON f.id = e.feed
                  WHERE e.item = i.id ORDER BY e.feed LIMIT 1),
                coalesce(i.published, i.added), i.read, i.starred, i.fetch_error IS NOT NULL
             FROM item i WHERE 1 = 1",
        );
        super::items::push_item_filter(&mut sql, filter);
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let rows = stmt.query_map(params![filter.feed], |r| {
            Ok(ItemRow {
                id: r.get(0)?,
                title: r.get(1)?,
                feed: r.get::<_, Option<String>>(2)?.unwrap_or_default(),
                date: r.get(3)?,
                read: r.get(4)?,
                starred: r.get(5)?,
                failed: r.get(6)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The rows of the given items, in the order given (search results keep their rank); ids with
    /// no item are skipped.
    pub fn item_rows_by_id(&self, ids: &[ItemId]) -> Result<Vec<ItemRow>, StoreError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT i.id, i.title,
                (SELECT coalesce(f.name, f.title, f.url) FROM feed_entry e JOIN feed f ON f.id = e.feed
                  WHERE e.item = i.id ORDER BY e.feed LIMIT 1),
                coalesce(i.published, i.added), i.read, i.starred, i.fetch_error IS NOT NULL
             FROM item i WHERE i.id = ?1",
        )?;
        let mut out = Vec::with_capacity(ids.len());
        for &id in ids {
            let mut rows = stmt.query([id])?;
            if let Some(r) = rows.next()? {
                out.push(ItemRow {
                    id: r.get(0)?,
                    title: r.get(1)?,
                    feed: r.get::<_, Option<String>>(2)?.unwrap_or_default(),
                    date: r.get(3)?,
                    read: r.get(4)?,
                    starred: r.get(5)?,
                    failed: r.get(6)?,
                });
            }
        }
        Ok(out)
    }
}
