//! Retention (issue 15), in the manner of Miniflux's cleanup: what the database keeps, so that it
//! stops growing once its oldest articles reach their periods. Read items older than
//! [`Retention::read_days`] go, unread ones older than [`Retention::unread_days`] go, starred items
//! stay forever; an article's raw page goes once it has left its site's URL Tree window, and the
//! article stays readable from its record of labelled blocks. A sweep runs in bounded steps
//! ([`SweepLimits`]), each its own transaction, and resumes where it stopped at the next refresh.
//!
//! An item's age is counted from its arrival (`item.added`), not from the feed's date, which a
//! feed may leave out or set in the future. A deleted item leaves its feed entries behind as
//! tombstones (`feed_entry.item = 0`), so that a feed still listing the entry does not bring it
//! back as new ([`Store::entries_forget_unlisted`] drops them once the feed no longer lists it).
//! The sweep also applies the URL Tree's history window (the documents a site's tree no longer
//! remembers go), first, since a raw page may go only once its document has left the tree. An
//! insert does not remove what leaves the window, so that a page's ingest costs the same on the
//! tree's first day and its hundredth: the removals are batched here, at the end of every refresh
//! that ends without a fatal error (after one that does not, the next refresh's sweep takes out
//! what is due by then).

use std::time::{Duration, Instant};

use rusqlite::{Connection, params};

use super::items::{ItemId, delete_items};
use super::pages::drop_page;
use super::{Store, StoreError};
use crate::limits;
use crate::urltree::HistoryWindow;

/// How long items are kept, in days from their arrival; 0 keeps them forever. Starred items are
/// always kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Retention {
    /// Read items older than this go.
    pub read_days: u32,
    /// Unread items older than this go.
    pub unread_days: u32,
}

impl Retention {
    /// The default: read items 30 days, unread items 90 days (Miniflux's cleanup keeps read items
    /// 60 days; a reader refreshing 300 feeds keeps about 1,000 read items a day, and a month of
    /// them is what a "what did I read last week" search needs).
    pub const DEFAULT: Retention = Retention {
        read_days: 30,
        unread_days: 90,
    };

    /// The longest period accepted (about a century): longer is "forever" in effect, and a bound
    /// keeps the cutoff's arithmetic far from overflow.
    pub const MAX_DAYS: u32 = 36_500;
}

impl Default for Retention {
    fn default() -> Self {
        Retention::DEFAULT
    }
}

/// The settings (`setting` table) the periods are stored under.
const READ_DAYS_KEY: &str = "retention_read_days";
const UNREAD_DAYS_KEY: &str = "retention_unread_days";

/// How much one sweep may do before it stops and leaves the rest to the next one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SweepLimits {
    /// Items deleted at most.
    pub items: usize,
    /// Raw pages dropped at most.
    pub pages: usize,
    /// No step starts after this long.
    pub time: Duration,
}

impl Default for SweepLimits {
    fn default() -> Self {
        SweepLimits {
            items: limits::RETENTION_ITEMS_PER_SWEEP,
            pages: limits::RETENTION_PAGES_PER_SWEEP,
            time: limits::RETENTION_SWEEP_TIME,
        }
    }
}

impl SweepLimits {
    /// No bound but `time` (`pith cleanup`, which the user asked for and waits on).
    pub fn unbounded(time: Duration) -> SweepLimits {
        SweepLimits {
            items: usize::MAX,
            pages: usize::MAX,
            time,
        }
    }
}

/// What a sweep did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Swept {
    /// Documents taken out of their site's URL Tree, having left its history window.
    pub tree_docs_removed: usize,
    /// Items deleted (with their pages, records, search rows and images no other item shows).
    pub items_deleted: usize,
    /// Raw pages dropped from articles that stay (read from their records from now on).
    pub pages_dropped: usize,
    /// Free database pages given back to the file system (files with incremental auto_vacuum).
    pub pages_released: u64,
    /// True when nothing was left to do; false when a limit stopped the sweep.
    pub finished: bool,
}

/// Days to seconds, for a cutoff.
fn days_secs(days: u32) -> i64 {
    i64::from(days.min(Retention::MAX_DAYS)) * 86_400
}

/// Deletes up to `max` unstarred items with the given read flag that arrived before `cutoff`
/// (and, read ones, were read before it: a period runs from the reading too),
/// oldest first, leaving their feed entries as tombstones. Returns how many went.
fn expire_items(tx: &Connection, read: bool, cutoff: i64, max: usize) -> Result<usize, StoreError> {
    let ids: Vec<ItemId> = tx
        .prepare_cached(
            "SELECT id FROM item WHERE starred = 0 AND read = ?1 AND added < ?2
               AND (?1 = 0 OR coalesce(read_at, added) < ?2)
             ORDER BY added LIMIT ?3",
        )?
        .query_map(params![read, cutoff, max as i64], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    let mut tombstone = tx.prepare_cached("UPDATE feed_entry SET item = 0 WHERE item = ?1")?;
    for &id in &ids {
        tombstone.execute([id])?;
    }
    delete_items(tx, &ids)?;
    Ok(ids.len())
}

/// Drops up to `max` raw pages fetched before `cutoff` whose document has left its site's URL
/// Tree (the window keeps a quiet site's newest documents past the age, and reading such a page
/// still learns from the tree's counts of it), oldest first. Returns how many went.
fn drop_old_pages(tx: &Connection, cutoff: i64, max: usize) -> Result<usize, StoreError> {
    let ids: Vec<ItemId> = tx
        .prepare_cached(
            "SELECT p.item FROM page p JOIN item i ON i.id = p.item
             WHERE p.fetched < ?1
               AND NOT EXISTS (SELECT 1 FROM tree_doc d
                               WHERE d.id = i.tree_doc AND d.url_key = i.url_key)
             ORDER BY p.fetched LIMIT ?2",
        )?
        .query_map(params![cutoff, max as i64], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    for &id in &ids {
        drop_page(tx, id)?;
    }
    Ok(ids.len())
}

/// Sets a new, empty file's auto_vacuum to incremental, so that the pages retention frees can be
/// given back ([`Store::release_free_pages`]); SQLite allows it only before the first table. A
/// file that has tables is left as it is.
pub(super) fn incremental_vacuum_if_new(conn: &Connection) -> rusqlite::Result<()> {
    let tables: i64 = conn.query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))?;
    if tables == 0 {
        conn.pragma_update(None, "auto_vacuum", "INCREMENTAL")?;
    }
    Ok(())
}

impl Store {
    /// The retention periods (the defaults when none is set, or when a stored value does not
    /// parse).
    pub fn retention(&self) -> Result<Retention, StoreError> {
        let days = |key, default: u32| -> Result<u32, StoreError> {
            Ok(self
                .setting(key)?
                .and_then(|v| v.trim().parse::<u32>().ok())
                .map_or(default, |d| d.min(Retention::MAX_DAYS)))
        };
        Ok(Retention {
            read_days: days(READ_DAYS_KEY, Retention::DEFAULT.read_days)?,
            unread_days: days(UNREAD_DAYS_KEY, Retention::DEFAULT.unread_days)?,
        })
    }

    /// Stores the retention periods (each at most [`Retention::MAX_DAYS`]).
    pub fn set_retention(&mut self, policy: Retention) -> Result<(), StoreError> {
        let read = policy.read_days.min(Retention::MAX_DAYS).to_string();
        let unread = policy.unread_days.min(Retention::MAX_DAYS).to_string();
        self.set_setting(READ_DAYS_KEY, &read)?;
        self.set_setting(UNREAD_DAYS_KEY, &unread)
    }

    /// Applies `policy` at time `now` (unix seconds; passed in so that a simulated clock can run
    /// a year in minutes): takes the documents that have left the URL Tree's `window` out of
    /// their site's tree, deletes the items past their period, drops the raw pages that have
    /// left the URL Tree's `window` (older than its age and no longer among a site's documents),
    /// and gives free pages above a small reserve back to the file system. Stops at `limits`; the
    /// next sweep does the rest (the tree's pass starting over from the first site, bounded by
    /// the time alone, as its removals must keep pace with the inserts). Each step of at most
    /// `limits::RETENTION_STEP_ROWS` rows is its own transaction, so nothing waits long on it.
    pub fn retention_sweep(
        &mut self,
        policy: &Retention,
        window: &HistoryWindow,
        now: i64,
        limits: &SweepLimits,
    ) -> Result<Swept, StoreError> {
        let started = Instant::now();
        let mut swept = Swept {
            finished: true,
            ..Swept::default()
        };
        let step = limits::RETENTION_STEP_ROWS;
        // The tree first, with no bound but the time: its removals keep pace with the inserts,
        // and what a step leaves goes at the next sweep.
        let (removed, done) =
            self.tree_window_pass(window, now, || started.elapsed() < limits.time)?;
        swept.tree_docs_removed = removed;
        swept.finished &= done;
        for (read, days) in [(true, policy.read_days), (false, policy.unread_days)] {
            if days == 0 {
                continue;
            }
            let cutoff = now.saturating_sub(days_secs(days));
            loop {
                let room = limits.items.saturating_sub(swept.items_deleted);
                if room == 0 || started.elapsed() >= limits.time {
                    swept.finished = false;
                    break;
                }
                let want = room.min(step);
                let deleted = self.write(|tx| expire_items(tx, read, cutoff, want))?;
                swept.items_deleted += deleted;
                if deleted < want {
                    break;
                }
            }
        }
        let cutoff = now.saturating_sub(window.max_age_secs);
        loop {
            let room = limits.pages.saturating_sub(swept.pages_dropped);
            if room == 0 || started.elapsed() >= limits.time {
                swept.finished = false;
                break;
            }
            let want = room.min(step);
            let dropped = self.write(|tx| drop_old_pages(tx, cutoff, want))?;
            swept.pages_dropped += dropped;
            if dropped < want {
                break;
            }
        }
        swept.pages_released = self.release_free_pages(
            limits::RETENTION_FREE_PAGES_KEPT,
            limits::RETENTION_RELEASE_PAGES,
        )?;
        Ok(swept)
    }

    /// Gives free pages back to the file system, beyond `keep` of them (which the next refresh
    /// reuses rather than growing the file again), at most `max` at a time; returns how many.
    /// Only a file whose auto_vacuum is incremental can (every file made since schema 5, or one
    /// compacted by [`Store::compact`]); in any other file, SQLite reuses free pages for new data,
    /// so the file stops growing but does not shrink.
    pub fn release_free_pages(&mut self, keep: u64, max: u64) -> Result<u64, StoreError> {
        let mode: i64 = self
            .conn
            .pragma_query_value(None, "auto_vacuum", |r| r.get(0))?;
        if mode != 2 {
            return Ok(0);
        }
        let free = self.free_pages()?;
        let give = free.saturating_sub(keep).min(max);
        if give == 0 {
            return Ok(0);
        }
        self.write(|tx| {
            // SQLite frees one page per step of this statement: it is stepped to its end.
            let mut stmt = tx.prepare(&format!("PRAGMA incremental_vacuum({give})"))?;
            let mut rows = stmt.query([])?;
            while rows.next()?.is_some() {}
            Ok(())
        })?;
        Ok(free.saturating_sub(self.free_pages()?))
    }

    /// The file's free pages (SQLite's freelist).
    pub fn free_pages(&self) -> Result<u64, StoreError> {
        let n: i64 = self
            .conn
            .pragma_query_value(None, "freelist_count", |r| r.get(0))?;
        Ok(n.max(0) as u64)
    }

    /// Rewrites the whole file (`VACUUM`) with incremental auto_vacuum, so that it holds no free
    /// page and later sweeps can give freed pages back. Needs about the file's size again in
    /// free disk space while it runs, and no other connection writing; for `pith cleanup
    /// --vacuum`, never run on its own.
    pub fn compact(&mut self) -> Result<(), StoreError> {
        self.conn
            .pragma_update(None, "auto_vacuum", "INCREMENTAL")?;
        self.conn.execute_batch("VACUUM")?;
        Ok(())
    }
}

#[cfg(test)]
mod tests;
