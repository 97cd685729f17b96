//! Items: one article (one web page) whichever feeds list it, stored with its page, labelled
//! blocks, images and search text in one transaction, or with its feed summary when the page could
//! not be fetched; retried pages; listing, read and starred flags.

use rusqlite::{Connection, OptionalExtension, params};

use super::codecs::PageBytes;
use super::entries::{EntryRef, link_entry};
use super::feeds::FeedId;
use super::images::{NewImage, link_known_images, store_images};
use super::item_rows::ListKey;
use super::pages::insert_page_rows;
use super::search::{delete_fts, insert_fts};
use super::{Store, StoreError};

/// An item's row id.
pub type ItemId = i64;

/// An item in a listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemInfo {
    /// Row id (what `pith read ID` takes).
    pub id: ItemId,
    /// The entry's link.
    pub link: String,
    /// The URL after redirects, when the page was fetched.
    pub response_url: Option<String>,
    /// The entry title.
    pub title: String,
    /// The feed's summary (HTML as given).
    pub summary: Option<String>,
    /// Unix seconds from the feed.
    pub published: Option<i64>,
    /// Unix seconds when stored.
    pub added: i64,
    /// Why the page could not be fetched.
    pub fetch_error: Option<String>,
    /// Read.
    pub read: bool,
    /// Starred.
    pub starred: bool,
    /// The registrable domain of the response URL.
    pub domain: Option<String>,
    /// The URL key.
    pub url_key: Option<String>,
    /// Titles of the feeds listing it.
    pub feeds: Vec<String>,
}

impl ItemInfo {
    /// Where this item is in an item list's order (its date, the published one else the one it
    /// arrived at, then its id): the next page starts after it.
    pub fn key(&self) -> ListKey {
        ListKey {
            date: self.published.unwrap_or(self.added),
            id: self.id,
        }
    }
}

/// The feed's side of a new item.
#[derive(Debug, Clone)]
pub struct NewItem<'a> {
    /// The entry's link.
    pub link: &'a str,
    /// Its title.
    pub title: &'a str,
    /// Its summary.
    pub summary: Option<&'a str>,
    /// Its date.
    pub published: Option<i64>,
    /// Now.
    pub added: i64,
}

/// A fetched and classified page, ready to store with its item.
#[derive(Debug, Clone)]
pub struct NewArticle<'a> {
    /// The response URL.
    pub url: &'a str,
    /// The HTTP charset.
    pub declared_charset: Option<&'a str>,
    /// The raw bytes, compressed by [`PageBytes::compress`].
    pub raw: &'a PageBytes,
    /// The registrable domain.
    pub domain: &'a str,
    /// The URL key.
    pub url_key: &'a str,
    /// The document in the tree.
    pub tree_doc: Option<i64>,
    /// The article's record (its blocks with their labels), as the engine encoded it
    /// (`classify::labelled::encode`); kept as it is.
    pub blocks: &'a PageBytes,
    /// The text the search index holds: the clean text, or the feed entry's when that stands in
    /// for a page that holds little of the article.
    pub text: &'a str,
    /// Images kept as content, downloaded now.
    pub images: &'a [NewImage],
    /// Images kept as content that were already stored (downloaded once, for another article).
    pub known_images: &'a [String],
}

/// Which items a read/unread change applies to.
#[derive(Debug, Clone, Copy)]
pub enum ItemScope {
    /// One item.
    Item(ItemId),
    /// Every item of a feed.
    Feed(FeedId),
    /// Everything.
    All,
}

/// Which items to list.
#[derive(Debug, Clone, Copy, Default)]
pub struct ItemFilter {
    /// Only items of this feed.
    pub feed: Option<FeedId>,
    /// Only unread items.
    pub unread: bool,
    /// Only starred items.
    pub starred: bool,
    /// At most this many (0: no limit).
    pub limit: usize,
    /// Only the items after this one in the list's order (newest first): the next page of a
    /// list read a page at a time, `None` for its first page.
    pub after: Option<ListKey>,
}

/// The outcome of storing a fetched entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stored {
    /// A new item.
    New(ItemId),
    /// The article was already stored (same URL key in the domain): the entry was linked to it.
    Linked(ItemId),
}

impl Stored {
    /// The item's id.
    pub fn id(self) -> ItemId {
        match self {
            Stored::New(id) | Stored::Linked(id) => id,
        }
    }
}

/// The item already stored under an article's URL key in its domain, if any.
fn item_with_key(tx: &Connection, article: &NewArticle<'_>) -> Result<Option<ItemId>, StoreError> {
    Ok(tx
        .prepare_cached("SELECT id FROM item WHERE domain = ?1 AND url_key = ?2")?
        .query_row([article.domain, article.url_key], |r| r.get(0))
        .optional()?)
}

/// The rows of a fetched article apart from its item row: page, blocks and images.
fn store_article_rows(
    tx: &Connection,
    id: ItemId,
    article: &NewArticle<'_>,
    fetched: i64,
) -> Result<(), StoreError> {
    insert_page_rows(
        tx,
        id,
        article.url,
        article.declared_charset,
        fetched,
        article.raw,
        article.blocks,
    )?;
    store_images(tx, id, article.images, fetched)?;
    link_known_images(tx, id, article.known_images)?;
    Ok(())
}

/// Moves a failed item's feed entries to `into` (keeping its read and starred flags there when
/// set) and deletes it.
fn merge_into(tx: &Connection, failed: ItemId, into: ItemId) -> Result<(), StoreError> {
    if failed == into {
        return Ok(());
    }
    tx.prepare_cached(
        "UPDATE item SET read = max(read, (SELECT read FROM item WHERE id = ?1)),
            read_at = nullif(max(coalesce(read_at, 0),
                coalesce((SELECT read_at FROM item WHERE id = ?1), 0)), 0),
            starred = max(starred, (SELECT starred FROM item WHERE id = ?1)) WHERE id = ?2",
    )?
    .execute(params![failed, into])?;
    tx.prepare_cached("UPDATE OR IGNORE feed_entry SET item = ?2 WHERE item = ?1")?
        .execute(params![failed, into])?;
    delete_items(tx, &[failed])
}

/// Appends what an item list asks for to a query over [`item_source`] that ends in a `WHERE`
/// clause: the feed (bound as `?1`, NULL for every feed), unread, starred, where the page starts
/// (after the date `?2` and id `?3`, both NULL for the first page), newest first, the limit. Bind
/// the three with [`filter_params`].
///
/// The order is the index `item_by_date`'s (and, for unread and starred lists, that of the
/// partial indexes `item_unread_by_date` and `item_starred_by_date`), so a page with a limit
/// reads its own rows and no others, however many items the database holds; a page starts where
/// the last one ended (a keyset, not an offset, which would read every row before it).
pub(crate) fn push_item_filter(sql: &mut String, filter: &ItemFilter) {
    push_item_where(sql, filter);
    sql.push_str(" ORDER BY coalesce(i.published, i.added) DESC, i.id DESC");
    if filter.limit > 0 {
        sql.push_str(&format!(" LIMIT {}", filter.limit));
    }
}

/// The table an item list reads, with the index it must walk: left to itself, SQLite's planner
/// (without statistics) took the starred items from the retention policy's index and sorted
/// them at every page. A feed's list is its entries' items, sorted: a feed lists a few thousand
/// at most, where walking the whole list's index for them would read every item of every feed.
pub(crate) fn item_source(filter: &ItemFilter) -> &'static str {
    match (filter.feed, filter.starred, filter.unread) {
        (Some(_), _, _) => "item i",
        (None, true, _) => "item i INDEXED BY item_starred_by_date",
        (None, false, true) => "item i INDEXED BY item_unread_by_date",
        (None, false, false) => "item i INDEXED BY item_by_date",
    }
}

/// [`push_item_filter`]'s conditions alone, without the order and the limit.
pub(crate) fn push_item_where(sql: &mut String, filter: &ItemFilter) {
    if filter.feed.is_some() {
        sql.push_str(" AND i.id IN (SELECT item FROM feed_entry WHERE feed = ?1)");
    } else {
        sql.push_str(" AND ?1 IS NULL");
    }
    if filter.unread {
        sql.push_str(" AND i.read = 0");
    }
    if filter.starred {
        sql.push_str(" AND i.starred = 1");
    }
    if filter.after.is_some() {
        // The date's bound alone is what the index can seek to; the id breaks ties on that date.
        sql.push_str(
            " AND coalesce(i.published, i.added) <= ?2
              AND (coalesce(i.published, i.added) < ?2 OR i.id < ?3)",
        );
    } else {
        sql.push_str(" AND ?2 IS NULL AND ?3 IS NULL");
    }
}

/// The values [`push_item_filter`]'s query binds: the feed, and where the page starts.
pub(crate) fn filter_params(filter: &ItemFilter) -> (Option<FeedId>, Option<i64>, Option<ItemId>) {
    (
        filter.feed,
        filter.after.map(|k| k.date),
        filter.after.map(|k| k.id),
    )
}

/// Deletes items with every row they own (page, blocks, images no other item shows, entries,
/// search text). The URL Tree is not touched: its documents leave by its own history window.
pub(super) fn delete_items(tx: &Connection, ids: &[ItemId]) -> Result<(), StoreError> {
    for &id in ids {
        delete_fts(tx, id)?;
        let images: Vec<String> = tx
            .prepare_cached("SELECT url FROM item_image WHERE item = ?1")?
            .query_map([id], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        for sql in [
            "DELETE FROM item_blocks WHERE item = ?1",
            "DELETE FROM page WHERE item = ?1",
            "DELETE FROM item_image WHERE item = ?1",
            "DELETE FROM feed_entry WHERE item = ?1",
            "DELETE FROM item WHERE id = ?1",
        ] {
            tx.prepare_cached(sql)?.execute([id])?;
        }
        // One image at a time through `item_image_by_url`, rather than a scan of every image
        // for each deletion: retention deletes thousands of items a day.
        let mut orphan = tx.prepare_cached(
            "DELETE FROM image WHERE url = ?1
             AND NOT EXISTS (SELECT 1 FROM item_image WHERE url = ?1)",
        )?;
        for url in images {
            orphan.execute([url])?;
        }
    }
    Ok(())
}

impl Store {
    /// An item already stored for this entry link (fetched through another feed), if any.
    pub fn item_by_link(&self, link: &str) -> Result<Option<ItemId>, StoreError> {
        Ok(self
            .conn
            .prepare_cached("SELECT id FROM item WHERE link = ?1 OR response_url = ?1 LIMIT 1")?
            .query_row([link], |r| r.get(0))
            .optional()?)
    }

    /// The item stored for a URL key in a domain, if any.
    pub fn item_by_key(&self, domain: &str, url_key: &str) -> Result<Option<ItemId>, StoreError> {
        Ok(self
            .conn
            .prepare_cached("SELECT id FROM item WHERE domain = ?1 AND url_key = ?2")?
            .query_row([domain, url_key], |r| r.get(0))
            .optional()?)
    }

    /// Stores an item whose page was fetched and classified, with its page, blocks, clean text and
    /// images, and links the entry to it, all in one transaction. When an item with the same URL
    /// key exists (another worker stored it first), the entry is linked to that one instead.
    pub fn item_store(
        &mut self,
        entry: &EntryRef<'_>,
        item: &NewItem<'_>,
        article: &NewArticle<'_>,
    ) -> Result<Stored, StoreError> {
        self.write(|tx| {
            if let Some(existing) = item_with_key(tx, article)? {
                // Two entries of one article can race (the same story in two feeds): the one
                // stored first may have named an image the other was still downloading, so the
                // images downloaded for this one are kept for the stored item.
                store_images(tx, existing, article.images, item.added)?;
                link_entry(tx, entry, existing)?;
                return Ok(Stored::Linked(existing));
            }
            tx.prepare_cached(
                "INSERT INTO item (link, response_url, domain, url_key, tree_doc, title, summary,
                    published, added, attempts) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 1)",
            )?
            .execute(params![
                item.link,
                article.url,
                article.domain,
                article.url_key,
                article.tree_doc,
                item.title,
                item.summary,
                item.published,
                item.added
            ])?;
            let id = tx.last_insert_rowid();
            store_article_rows(tx, id, article, item.added)?;
            insert_fts(tx, id, item.title, article.text)?;
            link_entry(tx, entry, id)?;
            Ok(Stored::New(id))
        })
    }

    /// Completes an item whose page failed before (see [`Store::retryable_entries`]) with the page
    /// fetched now: the item keeps its id, feed entries, title, summary and read and starred
    /// flags, and gains the page, blocks, images and clean text, all in one transaction. When
    /// another item already has the page's URL key, the failed item's entries move to that one
    /// and the failed item goes.
    pub fn item_retry_stored(
        &mut self,
        failed: ItemId,
        article: &NewArticle<'_>,
        now: i64,
    ) -> Result<Stored, StoreError> {
        self.write(|tx| {
            if let Some(existing) = item_with_key(tx, article)? {
                store_images(tx, existing, article.images, now)?;
                merge_into(tx, failed, existing)?;
                return Ok(Stored::Linked(existing));
            }
            let title: String = tx
                .prepare_cached("SELECT title FROM item WHERE id = ?1")?
                .query_row([failed], |r| r.get(0))
                .optional()?
                .ok_or_else(|| StoreError::Corrupt(format!("no item {failed} to complete")))?;
            tx.prepare_cached(
                "UPDATE item SET response_url = ?2, domain = ?3, url_key = ?4, tree_doc = ?5,
                    fetch_error = NULL, attempts = attempts + 1 WHERE id = ?1",
            )?
            .execute(params![
                failed,
                article.url,
                article.domain,
                article.url_key,
                article.tree_doc
            ])?;
            store_article_rows(tx, failed, article, now)?;
            // The summary's text gives way to the article's.
            delete_fts(tx, failed)?;
            insert_fts(tx, failed, &title, article.text)?;
            Ok(Stored::New(failed))
        })
    }

    /// Records another failed attempt at an item's page.
    pub fn item_retry_failed(&mut self, failed: ItemId, error: &str) -> Result<(), StoreError> {
        self.write(|tx| {
            tx.prepare_cached(
                "UPDATE item SET fetch_error = ?2, attempts = attempts + 1 WHERE id = ?1",
            )?
            .execute(params![failed, error])?;
            Ok(())
        })
    }

    /// Counts a failed item's page as tried `attempts` times at least: a failure that no retry can
    /// mend (the link is a PDF, or there is no link) is given up at once.
    pub fn item_give_up(&mut self, failed: ItemId, attempts: u32) -> Result<(), StoreError> {
        self.write(|tx| {
            tx.prepare_cached("UPDATE item SET attempts = max(attempts, ?2) WHERE id = ?1")?
                .execute(params![failed, attempts])?;
            Ok(())
        })
    }

    /// The same article reached again under another feed's entry while a failed item stood for
    /// it here: the failed item's entries move to `into`, and it goes.
    pub fn item_merge_failed(&mut self, failed: ItemId, into: ItemId) -> Result<(), StoreError> {
        self.write(|tx| merge_into(tx, failed, into))
    }

    /// Stores an item whose page could not be fetched: its feed summary stays readable and
    /// searchable, and `error` says why the page is missing.
    pub fn item_store_failed(
        &mut self,
        entry: &EntryRef<'_>,
        item: &NewItem<'_>,
        summary_text: &str,
        error: &str,
    ) -> Result<ItemId, StoreError> {
        self.write(|tx| {
            tx.prepare_cached(
                "INSERT INTO item (link, title, summary, published, added, fetch_error, attempts)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, 1)",
            )?
            .execute(params![
                item.link,
                item.title,
                item.summary,
                item.published,
                item.added,
                error
            ])?;
            let id = tx.last_insert_rowid();
            insert_fts(tx, id, item.title, summary_text)?;
            link_entry(tx, entry, id)?;
            Ok(id)
        })
    }

    /// Items, newest first (a page of them with `filter.limit` and `filter.after`).
    pub fn items(&self, filter: &ItemFilter) -> Result<Vec<ItemInfo>, StoreError> {
        let mut sql = format!("SELECT i.id FROM {} WHERE 1 = 1", item_source(filter));
        push_item_filter(&mut sql, filter);
        let ids: Vec<ItemId> = self
            .conn
            .prepare(&sql)?
            .query_map(filter_params(filter), |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some(item) = self.item(id)? {
                out.push(item);
            }
        }
        Ok(out)
    }

    /// One item.
    pub fn item(&self, id: ItemId) -> Result<Option<ItemInfo>, StoreError> {
        let item = self
            .conn
            .prepare_cached(
                "SELECT id, link, response_url, title, summary, published, added, fetch_error,
                    read, starred, domain, url_key FROM item WHERE id = ?1",
            )?
            .query_row([id], |r| {
                Ok(ItemInfo {
                    id: r.get(0)?,
                    link: r.get(1)?,
                    response_url: r.get(2)?,
                    title: r.get(3)?,
                    summary: r.get(4)?,
                    published: r.get(5)?,
                    added: r.get(6)?,
                    fetch_error: r.get(7)?,
                    read: r.get(8)?,
                    starred: r.get(9)?,
                    domain: r.get(10)?,
                    url_key: r.get(11)?,
                    feeds: Vec::new(),
                })
            })
            .optional()?;
        let Some(mut item) = item else {
            return Ok(None);
        };
        item.feeds = self
            .conn
            .prepare_cached(
                "SELECT DISTINCT coalesce(f.name, f.title, f.url) FROM feed_entry e JOIN feed f ON f.id = e.feed
                 WHERE e.item = ?1 ORDER BY f.id",
            )?
            .query_map([id], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        Ok(Some(item))
    }

    /// Marks items read or unread; returns how many changed.
    pub fn set_read(&mut self, scope: ItemScope, read: bool) -> Result<usize, StoreError> {
        self.write(|tx| {
            Ok(match scope {
                ItemScope::Item(id) => tx.execute(
                    "UPDATE item SET read = ?2, read_at = CASE WHEN ?2 THEN unixepoch() END
                     WHERE id = ?1 AND read <> ?2",
                    params![id, read],
                )?,
                ItemScope::Feed(feed) => tx.execute(
                    "UPDATE item SET read = ?2, read_at = CASE WHEN ?2 THEN unixepoch() END
                     WHERE read <> ?2 AND id IN (SELECT item FROM feed_entry WHERE feed = ?1)",
                    params![feed, read],
                )?,
                ItemScope::All => tx.execute(
                    "UPDATE item SET read = ?1, read_at = CASE WHEN ?1 THEN unixepoch() END
                         WHERE read <> ?1",
                    [read],
                )?,
            })
        })
    }

    /// Marks item `id` read as of `at` (unix seconds) rather than now, when it is not read yet;
    /// returns whether it changed. For a clock of the caller's own: the simulated year marks its
    /// items read on their simulated day, so that retention counts their period from then.
    pub fn set_read_at(&mut self, id: ItemId, at: i64) -> Result<bool, StoreError> {
        self.write(|tx| {
            Ok(tx
                .prepare_cached(
                    "UPDATE item SET read = 1, read_at = ?2 WHERE id = ?1 AND read = 0",
                )?
                .execute(params![id, at])?
                > 0)
        })
    }

    /// Flips an item's star; returns the new state, `None` when there is no such item.
    pub fn toggle_star(&mut self, id: ItemId) -> Result<Option<bool>, StoreError> {
        self.write(|tx| {
            Ok(tx
                .prepare_cached(
                    "UPDATE item SET starred = 1 - starred WHERE id = ?1 RETURNING starred",
                )?
                .query_row([id], |r| r.get(0))
                .optional()?)
        })
    }

    /// Counts for checks and reports: (items, entries, pages).
    pub fn item_counts(&self) -> Result<(i64, i64, i64), StoreError> {
        Ok(self.conn.query_row(
            "SELECT (SELECT count(*) FROM item), (SELECT count(*) FROM feed_entry),
                    (SELECT count(*) FROM page)",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )?)
    }
}

#[cfg(test)]
mod retry_tests {
    use super::*;

    fn article<'a>(raw: &'a PageBytes, blocks: &'a PageBytes, key: &'a str) -> NewArticle<'a> {
        NewArticle {
            url: "http://ex.test/a",
            declared_charset: None,
            raw,
            domain: "ex.test",
            url_key: key,
            tree_doc: None,
            blocks,
            text: "the article text about harbours",
            images: &[],
            known_images: &[],
        }
    }

    fn entry_item(store: &Store, feed: FeedId, identity: &str) -> Option<ItemId> {
        store
            .conn
            .query_row(
                "SELECT item FROM feed_entry WHERE feed = ?1 AND hash = ?2",
                params![feed, identity],
                |r| r.get(0),
            )
            .optional()
            .unwrap()
    }

    /// Full-text rows queued in a batch reach the index at its commit; a failed write's row
    /// leaves with the write, and a deleted item's queued row goes too.
    #[test]
    fn a_retried_page_completes_its_item_or_merges_into_the_one_with_its_key() {
        let mut store = Store::open_in_memory().unwrap();
        let (feed, _) = store
            .feed_add("http://ex.test/feed", None, None, 0)
            .unwrap();
        let raw = PageBytes::compress(b"<p>page</p>").unwrap();
        let blocks = PageBytes::kept(Vec::new());
        let item = |link| NewItem {
            link,
            title: "A title",
            summary: Some("A summary"),
            published: None,
            added: 1,
        };
        let entry = |identity| EntryRef { feed, identity };

        // Completed in place: same id, its key set, the error gone, the text searchable.
        let failed = store
            .item_store_failed(&entry("e1"), &item("http://ex.test/a"), "A summary", "503")
            .unwrap();
        let retry = store.retryable_entries(feed, &["e1"], 3).unwrap();
        assert_eq!(retry.get("e1"), Some(&failed));
        let stored = store
            .item_retry_stored(failed, &article(&raw, &blocks, "ex.test/a"), 2)
            .unwrap();
        assert_eq!(stored, Stored::New(failed));
        assert!(
            store
                .retryable_entries(feed, &["e1"], 3)
                .unwrap()
                .is_empty()
        );
        let page: i64 = store
            .conn
            .query_row("SELECT count(*) FROM page WHERE item = ?1", [failed], |r| {
                r.get(0)
            })
            .unwrap();
        assert_eq!(page, 1);
        let hits: i64 = store
            .conn
            .query_row(
                "SELECT count(*) FROM item_fts WHERE item_fts MATCH 'harbours'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(hits, 1);

        // Another failed item whose page turns out to have that key: its entry moves over.
        let other = store
            .item_store_failed(
                &entry("e2"),
                &item("http://ex.test/b"),
                "B summary",
                "timeout",
            )
            .unwrap();
        store.item_retry_failed(other, "timeout again").unwrap();
        let stored = store
            .item_retry_stored(other, &article(&raw, &blocks, "ex.test/a"), 3)
            .unwrap();
        assert_eq!(stored, Stored::Linked(failed));
        assert_eq!(entry_item(&store, feed, "e2"), Some(failed));
        let left: i64 = store
            .conn
            .query_row("SELECT count(*) FROM item", [], |r| r.get(0))
            .unwrap();
        assert_eq!(left, 1);

        // Attempts count: a third failure leaves an item no longer retried at 3.
        let third = store
            .item_store_failed(&entry("e3"), &item("http://ex.test/c"), "C", "500")
            .unwrap();
        store.item_retry_failed(third, "500").unwrap();
        assert_eq!(store.retryable_entries(feed, &["e3"], 3).unwrap().len(), 1);
        store.item_retry_failed(third, "500").unwrap();
        assert!(
            store
                .retryable_entries(feed, &["e3"], 3)
                .unwrap()
                .is_empty()
        );
    }
}
