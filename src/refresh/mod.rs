//! A refresh (ARCHITECTURE.md, "Data flow"): fetch each feed with a conditional GET, keep the
//! entries not seen before, fetch each one's page (redirects followed), run it through the engine
//! (URL Tree insert, classification), download the images it keeps, and store everything, one
//! write per item. Progress goes to a callback, so the command line draws a bar and a window can
//! forward the events to its own thread. Subscribing (`pith add`, an OPML import) lives here too.
//!
//! One file per job: [`schedule`] decides which fetch goes next and runs the workers (the queue,
//! per-host politeness from [`crate::politeness`], the batch committer, each feed's bookkeeping);
//! [`pipeline`] is what happens to one feed and one entry, as plain steps (fetch, parse, URL key,
//! tree, classify, store); [`images`] downloads the images an article keeps; [`subscriptions`]
//! adds feeds.

mod images;
mod pipeline;
mod schedule;
mod subscriptions;

pub use subscriptions::{AddError, Added, ImportError, Imported, import_opml, subscribe};

use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::extract::{Engine, ExtractError};
use crate::fetch::FetchConfig;
use crate::store::{FeedId, Store, StoreError};

/// Unix seconds now.
pub fn unix_now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

/// How a refresh runs.
#[derive(Debug, Clone)]
pub struct RefreshOptions {
    /// Worker threads (at least 1).
    pub jobs: usize,
    /// The HTTP client's settings.
    pub fetch: FetchConfig,
    /// Only these feeds; `None` refreshes every subscription.
    pub feeds: Option<Vec<FeedId>>,
    /// Download the images articles keep as content.
    pub images: bool,
}

impl Default for RefreshOptions {
    fn default() -> Self {
        RefreshOptions {
            jobs: 4,
            fetch: FetchConfig::default(),
            feeds: None,
            images: true,
        }
    }
}

/// What happened to one feed in a refresh.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FeedOutcome {
    /// Fetched and processed.
    Updated {
        /// New items stored.
        new_items: usize,
        /// Entries linked to items another feed had already brought.
        linked: usize,
        /// Entries whose page could not be fetched (stored with their summary; the new ones
        /// count in `new_items` too).
        page_errors: usize,
        /// Entries past [`crate::limits::MAX_ENTRIES_PER_FEED`] in the document, not read.
        entries_over_cap: usize,
    },
    /// 304: nothing changed.
    NotModified,
    /// Not asked: the server's Retry-After has not passed yet.
    Deferred {
        /// Unix seconds.
        until: i64,
    },
    /// The feed could not be fetched or parsed; what was stored stays.
    Failed {
        /// The message `pith feeds` shows.
        error: String,
    },
}

/// A progress event.
#[derive(Debug, Clone)]
pub enum Event {
    /// The refresh starts with this many feeds.
    Started {
        /// Feeds to refresh.
        feeds: usize,
    },
    /// A feed's new entries are queued (the page total grows).
    PagesQueued {
        /// The feed.
        feed: FeedId,
        /// New entries.
        count: usize,
    },
    /// One entry's page is done (stored, linked or failed).
    PageDone {
        /// The feed.
        feed: FeedId,
        /// The entry's title.
        title: String,
        /// Why its page is missing, if it is.
        error: Option<String>,
    },
    /// A feed is done.
    FeedDone {
        /// The feed.
        feed: FeedId,
        /// Its URL.
        url: String,
        /// What happened.
        outcome: FeedOutcome,
    },
}

/// What a refresh did, in numbers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    /// Feeds fetched and processed.
    pub feeds_updated: usize,
    /// Feeds that answered 304.
    pub feeds_not_modified: usize,
    /// Feeds that failed.
    pub feeds_failed: usize,
    /// Feeds skipped for a Retry-After.
    pub feeds_deferred: usize,
    /// New items.
    pub new_items: usize,
    /// Entries linked to existing items.
    pub linked: usize,
    /// Entries whose page failed.
    pub page_errors: usize,
    /// Feed requests sent.
    pub feed_requests: usize,
    /// Of those, conditional (with a validator).
    pub conditional_requests: usize,
    /// Page requests sent.
    pub page_requests: usize,
    /// Image requests sent.
    pub image_requests: usize,
    /// Items retention deleted at the end of the refresh (past their period).
    pub expired_items: usize,
    /// Raw pages retention dropped (past the URL Tree's window; the articles stay readable).
    pub dropped_pages: usize,
    /// Items whose full-text rows were written again in the search index's current form (a
    /// file of an older version is brought up to date a batch per refresh); 0 when the upkeep
    /// failed, though the chunks it committed before the failure stay written.
    pub search_rows_rewritten: usize,
    /// Why the search index could not be brought up to date this time, when it could not. The
    /// refresh's items are stored all the same, and the next refresh tries again: that upkeep
    /// is no reason to report a refresh failed.
    pub search_upkeep_error: Option<String>,
}

/// A refresh that could not run at all (single feeds' failures are events, not errors).
#[derive(Debug, thiserror::Error)]
pub enum RefreshError {
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The engine failed.
    #[error(transparent)]
    Extract(#[from] ExtractError),
}

/// Refreshes the subscriptions in the database at `db` and returns what it did. The workers
/// share one connection, whose writes are committed in batches: each write (an entry, a tree
/// insert, an item with its page, blocks and text) is whole on its own, and a batch commits at
/// `limits::REFRESH_BATCH_WRITES` writes, at `limits::REFRESH_BATCH_AGE`, and at the end.
pub fn refresh(
    db: &Path,
    engine: &Engine,
    options: &RefreshOptions,
    on_event: &(dyn Fn(Event) + Sync),
) -> Result<Summary, RefreshError> {
    // One connection for the whole refresh, shared by the workers: SQLite writes one
    // transaction at a time anyway, and a connection whose data another connection changed
    // starts over with a cold page cache, which made every write re-read the URL Tree's pages.
    let store = Store::open(db)?;
    store.check_writable()?;
    store.tune_for_refresh()?;
    let mut feeds = store.feeds()?;
    if let Some(only) = &options.feeds {
        feeds.retain(|f| only.contains(&f.id));
    }
    on_event(Event::Started { feeds: feeds.len() });
    schedule::run(store, engine, options, feeds, on_event)
}
