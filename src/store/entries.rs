//! Feed entries: every entry a feed has listed, by its identity hash, and the item it became. An
//! entry seen once is never fetched again, unless its page failed and may be retried.

use std::collections::{HashMap, HashSet};

use rusqlite::{Connection, OptionalExtension, params};

use super::feeds::FeedId;
use super::items::ItemId;
use super::{Store, StoreError};

/// The entry an item came from, in one feed.
#[derive(Debug, Clone)]
pub struct EntryRef<'a> {
    /// The feed.
    pub feed: FeedId,
    /// The entry's identity hash in that feed.
    pub identity: &'a str,
}

/// Records that a feed's entry became `item`.
pub(super) fn link_entry(
    tx: &Connection,
    entry: &EntryRef<'_>,
    item: ItemId,
) -> Result<(), StoreError> {
    tx.prepare_cached("INSERT OR IGNORE INTO feed_entry (feed, hash, item) VALUES (?1, ?2, ?3)")?
        .execute(params![entry.feed, entry.identity, item])?;
    Ok(())
}

impl Store {
    /// Links an edited entry (its title, summary or date changed, so it is a new entry of its
    /// feed, but its link is an item's already) to that item. When the item is this feed's own,
    /// it takes the edit's title (in the search index too); an item another feed brought keeps
    /// its own. The summary stays: the stored text was classified with it, and reading
    /// classifies again with it, so that the two agree. `body` is the item's search text as
    /// indexed ([`Store::item_search_text`]), written again with the new title (the index keeps
    /// no text of its own to keep).
    pub fn entry_link_edited(
        &mut self,
        entry: &EntryRef<'_>,
        item: ItemId,
        title: &str,
        body: &str,
    ) -> Result<(), StoreError> {
        self.write(|tx| {
            let own: bool = tx
                .prepare_cached(
                    "SELECT EXISTS (SELECT 1 FROM feed_entry WHERE feed = ?1 AND item = ?2)",
                )?
                .query_row(params![entry.feed, item], |r| r.get(0))?;
            link_entry(tx, entry, item)?;
            if own {
                tx.prepare_cached("UPDATE item SET title = ?2 WHERE id = ?1")?
                    .execute(params![item, title])?;
                super::search::retitle_fts(tx, item, title, body)?;
            }
            Ok(())
        })
    }

    /// Of `identities` (entry hashes of one feed), the ones already seen in that feed.
    pub fn seen_entries(
        &self,
        feed: FeedId,
        identities: &[&str],
    ) -> Result<HashSet<String>, StoreError> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT 1 FROM feed_entry WHERE feed = ?1 AND hash = ?2")?;
        let mut seen = HashSet::new();
        for id in identities {
            if stmt.exists(params![feed, id])? {
                seen.insert((*id).to_string());
            }
        }
        Ok(seen)
    }

    /// Forgets the tombstones (entries whose item retention deleted, `item = 0`) of `feed` whose
    /// entries the feed no longer lists (`listed`, the identities of its entries now): a tombstone
    /// only has to outlive the feed's listing of its entry, and without this they would pile up
    /// forever. Returns how many went.
    pub fn entries_forget_unlisted(
        &mut self,
        feed: FeedId,
        listed: &[&str],
    ) -> Result<usize, StoreError> {
        let listed: HashSet<&str> = listed.iter().copied().collect();
        let gone: Vec<String> = self
            .conn
            .prepare_cached("SELECT hash FROM feed_entry WHERE item = 0 AND feed = ?1")?
            .query_map([feed], |r| r.get::<_, String>(0))?
            .filter(|h| h.as_ref().map_or(true, |h| !listed.contains(h.as_str())))
            .collect::<Result<_, _>>()?;
        if gone.is_empty() {
            // Nothing to write: a refresh's batch is not opened for nothing.
            return Ok(0);
        }
        self.write(|tx| {
            let mut forget = tx.prepare_cached(
                "DELETE FROM feed_entry WHERE feed = ?1 AND hash = ?2 AND item = 0",
            )?;
            let mut n = 0;
            for hash in &gone {
                n += forget.execute(params![feed, hash])?;
            }
            Ok(n)
        })
    }

    /// Links a feed's entry to an existing item (the same article in another feed).
    pub fn entry_link(&mut self, entry: &EntryRef<'_>, item: ItemId) -> Result<(), StoreError> {
        self.write(|tx| link_entry(tx, entry, item))
    }

    /// The entries of `feed` among `identities` whose item is still without its page (the fetch
    /// failed) after fewer than `max_attempts` attempts: a refresh fetches them again.
    pub fn retryable_entries(
        &self,
        feed: FeedId,
        identities: &[&str],
        max_attempts: u32,
    ) -> Result<HashMap<String, ItemId>, StoreError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT i.id FROM feed_entry AS e JOIN item AS i ON i.id = e.item
             WHERE e.feed = ?1 AND e.hash = ?2 AND i.fetch_error IS NOT NULL
               AND i.url_key IS NULL AND i.attempts < ?3",
        )?;
        let mut retry = HashMap::new();
        for id in identities {
            if let Some(item) = stmt
                .query_row(params![feed, id, max_attempts], |r| r.get(0))
                .optional()?
            {
                retry.insert((*id).to_string(), item);
            }
        }
        Ok(retry)
    }

    /// True when some entry of `feed` has an item whose page failed and may be fetched again
    /// (fewer than `max_attempts` attempts so far). The refresh then asks for the feed whole,
    /// not conditionally: a feed that answers "not modified" would give no entries to retry.
    pub fn has_retryable_entries(
        &self,
        feed: FeedId,
        max_attempts: u32,
    ) -> Result<bool, StoreError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM feed_entry AS e JOIN item AS i ON i.id = e.item
             WHERE e.feed = ?1 AND i.fetch_error IS NOT NULL
               AND i.url_key IS NULL AND i.attempts < ?2)",
        )?;
        Ok(stmt.query_row(params![feed, max_attempts], |r| r.get(0))?)
    }

    /// Gives up the retries of `feed`'s failed items whose entries the feed no longer lists
    /// (`listed`, the identities of its entries now): a retry needs the entry, so they would
    /// never be fetched again, and a pending retry keeps the feed from being asked
    /// conditionally (see [`Store::has_retryable_entries`]). Their attempts are set to
    /// `max_attempts`; the items stay, with their summary and error. An item another feed also
    /// lists keeps its retries: that feed may still bring its page. Returns how many.
    pub fn retire_unlisted_retries(
        &mut self,
        feed: FeedId,
        listed: &[&str],
        max_attempts: u32,
    ) -> Result<usize, StoreError> {
        let listed: HashSet<&str> = listed.iter().copied().collect();
        self.write(|tx| {
            let pending: Vec<(String, ItemId)> = tx
                .prepare_cached(
                    "SELECT e.hash, i.id FROM feed_entry AS e JOIN item AS i ON i.id = e.item
                     WHERE e.feed = ?1 AND i.fetch_error IS NOT NULL
                       AND i.url_key IS NULL AND i.attempts < ?2
                       AND NOT EXISTS (SELECT 1 FROM feed_entry AS o
                                       WHERE o.item = i.id AND o.feed <> ?1)",
                )?
                .query_map(params![feed, max_attempts], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<Result<_, _>>()?;
            let mut retired = 0;
            let mut update = tx.prepare_cached("UPDATE item SET attempts = ?2 WHERE id = ?1")?;
            for (hash, item) in pending {
                if !listed.contains(hash.as_str()) {
                    retired += update.execute(params![item, max_attempts])?;
                }
            }
            Ok(retired)
        })
    }
}
