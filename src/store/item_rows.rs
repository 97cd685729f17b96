//! Item lists' rows: just what a list draws of each item (title, first feed, date, flags), a page
//! at a time: one statement per page, which reads the page's rows through the list's index and
//! no others, so the first screen of a list of 368,000 items costs what it costs for 100.

use super::items::{filter_params, item_source, push_item_where};
use super::{ItemFilter, ItemId, Store, StoreError};

/// A row's place in an item list's order (newest first: date, then id, both descending): a page
/// that asks for the rows after it ([`ItemFilter::after`]) starts just below it. Keys compare as
/// (date, id): a row higher in the list has the greater key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct ListKey {
    /// The row's date ([`ItemRow::date`]).
    pub date: i64,
    /// The row's item.
    pub id: ItemId,
}

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

impl ItemRow {
    /// Where this row is in its list: the next page starts after it.
    pub fn key(&self) -> ListKey {
        ListKey {
            date: self.date,
            id: self.id,
        }
    }
}

/// What a list row reads of `item i`, in [`item_row`]'s order. The feed's name is a lookup per
/// row read (the item's first entry), not per row of the list.
const ROW_COLUMNS: &str = "i.id, i.title,
    (SELECT coalesce(f.name, f.title, f.url) FROM feed_entry e JOIN feed f ON f.id = e.feed
      WHERE e.item = i.id ORDER BY e.feed LIMIT 1),
    coalesce(i.published, i.added), i.read, i.starred, i.fetch_error IS NOT NULL";

/// A row of [`ROW_COLUMNS`].
fn item_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<ItemRow> {
    Ok(ItemRow {
        id: r.get(0)?,
        title: r.get(1)?,
        feed: r.get::<_, Option<String>>(2)?.unwrap_or_default(),
        date: r.get(3)?,
        read: r.get(4)?,
        starred: r.get(5)?,
        failed: r.get(6)?,
    })
}

impl Store {
    /// The item list as [`Store::items`] orders and filters it (newest first), in one query: a
    /// page of `filter.limit` rows after `filter.after` (every row with no limit). A page reads
    /// only its own rows, through the index of the list's order, and each row's feed name is one
    /// lookup of the row's first entry.
    pub fn item_rows(&self, filter: &ItemFilter) -> Result<Vec<ItemRow>, StoreError> {
        let mut sql = format!(
            "SELECT {ROW_COLUMNS} FROM {} WHERE 1 = 1",
            item_source(filter)
        );
        super::items::push_item_filter(&mut sql, filter);
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let rows = stmt.query_map(filter_params(filter), item_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// How many items `filter` lists, all pages together (`limit` and `after` are not counted
    /// against). Asked apart from the list's first page, so that the page is never kept waiting
    /// for a count of every row: counting reads one index entry per item listed (the index of
    /// unread or starred items for those lists, the feed's entries for a feed).
    pub fn item_count(&self, filter: &ItemFilter) -> Result<u64, StoreError> {
        let whole = ItemFilter {
            limit: 0,
            after: None,
            ..*filter
        };
        let mut sql = format!("SELECT count(*) FROM {} WHERE 1 = 1", item_source(&whole));
        push_item_where(&mut sql, &whole);
        let count: i64 = self
            .conn
            .prepare_cached(&sql)?
            .query_row(filter_params(&whole), |r| r.get(0))?;
        Ok(u64::try_from(count).unwrap_or(0))
    }

    /// The rows of the given items, in the order given (search results keep their rank); ids with
    /// no item are skipped.
    pub fn item_rows_by_id(&self, ids: &[ItemId]) -> Result<Vec<ItemRow>, StoreError> {
        let mut stmt = self
            .conn
            .prepare_cached(&format!("SELECT {ROW_COLUMNS} FROM item i WHERE i.id = ?1"))?;
        let mut out = Vec::with_capacity(ids.len());
        for &id in ids {
            let mut rows = stmt.query([id])?;
            if let Some(r) = rows.next()? {
                out.push(item_row(r)?);
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{EntryRef, FeedId, ItemScope, NewItem};

    /// 40 items on two feeds with many equal dates (ties broken by id), some dated by their
    /// arrival alone, dates not in id order; some read, some starred.
    fn store_with_items() -> (Store, FeedId) {
        let mut store = Store::open_in_memory().unwrap();
        let (a, _) = store
            .feed_add("https://a.test/feed", Some("A"), None, 0)
            .unwrap();
        let (b, _) = store
            .feed_add("https://b.test/feed", Some("B"), None, 0)
            .unwrap();
        for i in 0..40i64 {
            let date = 1_000 + (i % 7) * 10;
            let identity = format!("entry {i}");
            let link = format!("https://a.test/{i}");
            let id = store
                .item_store_failed(
                    &EntryRef {
                        feed: if i % 2 == 0 { a } else { b },
                        identity: &identity,
                    },
                    &NewItem {
                        link: &link,
                        title: "A title",
                        summary: None,
                        published: (i % 3 != 0).then_some(date),
                        added: if i % 3 != 0 { 5_000 - i } else { date },
                    },
                    "",
                    "failed",
                )
                .unwrap();
            if i % 3 == 1 {
                store.set_read(ItemScope::Item(id), true).unwrap();
            }
            if i % 4 == 0 {
                store.toggle_star(id).unwrap();
            }
        }
        (store, a)
    }

    /// A list read a page at a time is the list read whole: every row once, in its order, across
    /// pages that end inside a run of equal dates; its count is its length.
    #[test]
    fn pages_of_a_list_follow_one_another_without_gap_or_repeat() {
        let (store, a) = store_with_items();
        let lists = [
            (ItemFilter::default(), 40),
            (
                ItemFilter {
                    unread: true,
                    ..ItemFilter::default()
                },
                27,
            ),
            (
                ItemFilter {
                    starred: true,
                    ..ItemFilter::default()
                },
                10,
            ),
            (
                ItemFilter {
                    feed: Some(a),
                    ..ItemFilter::default()
                },
                20,
            ),
            (
                ItemFilter {
                    feed: Some(a),
                    unread: true,
                    starred: true,
                    ..ItemFilter::default()
                },
                7,
            ),
        ];
        for (filter, expected) in lists {
            let whole = store.item_rows(&filter).unwrap();
            assert_eq!(whole.len(), expected, "{filter:?}");
            assert!(
                whole.windows(2).all(|w| w[0].key() > w[1].key()),
                "newest first, ties by id: {filter:?}"
            );
            let mut paged = Vec::new();
            let mut after = None;
            for _ in 0..=expected {
                let page = store
                    .item_rows(&ItemFilter {
                        limit: 3,
                        after,
                        ..filter
                    })
                    .unwrap();
                let Some(last) = page.last() else { break };
                after = Some(last.key());
                paged.extend(page);
            }
            assert_eq!(paged, whole, "{filter:?}");
            assert_eq!(store.item_count(&filter).unwrap(), expected as u64);
            // `Store::items` pages the same way (what `pith items` prints).
            let ids: Vec<ItemId> = store
                .items(&ItemFilter {
                    limit: 4,
                    after: whole.get(5).map(ItemRow::key),
                    ..filter
                })
                .unwrap()
                .iter()
                .map(|i| i.id)
                .collect();
            let want: Vec<ItemId> = whole.iter().skip(6).take(4).map(|r| r.id).collect();
            assert_eq!(ids, want, "{filter:?}");
        }
    }
}
