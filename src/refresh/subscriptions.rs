//! Subscribing: `pith add` (a feed's URL, or a page that names its feed) and an OPML import.
//! Both only add subscriptions; the next refresh fetches their entries.

use url::Url;

use crate::feeds;
use crate::fetch::{FetchConfig, FetchError, Fetched, Fetcher, Request, Response};
use crate::limits;
use crate::store::{FeedId, Store, StoreError};

use super::unix_now;

/// The outcome of `pith add`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Added {
    /// The feed subscribed to.
    pub feed: FeedId,
    /// Its URL (the one given, or the one the page named).
    pub url: String,
    /// False when it was already subscribed.
    pub new: bool,
    /// Other feeds the page named (autodiscovery), not subscribed.
    pub others: Vec<String>,
}

/// Why `pith add` failed.
#[derive(Debug, thiserror::Error)]
pub enum AddError {
    /// The URL could not be fetched. (The cause is in the message and not also a `source`:
    /// a chain printed whole would say it twice, "HTTP 404 Not Found: HTTP 404 Not Found".)
    #[error("cannot fetch {url}: {error}")]
    Fetch {
        /// What was fetched.
        url: String,
        /// Why it failed.
        error: FetchError,
    },
    /// A page that names no feed.
    #[error("{0} is neither a feed nor a page that names one (no <link rel=\"alternate\"> feed)")]
    NoFeed(String),
    /// A feed that does not parse.
    #[error("{url} does not parse as a feed: {error}")]
    Parse {
        /// The feed's URL.
        url: String,
        /// Why.
        error: feeds::FeedError,
    },
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Subscribes to `url`: a feed, or a web page whose `<link rel="alternate">` names feeds (the
/// first one is subscribed). The feed is fetched once to check that it parses.
pub fn subscribe(store: &mut Store, fetch: &FetchConfig, url: &str) -> Result<Added, AddError> {
    let fetcher = Fetcher::new(fetch.clone());
    let get = |u: &str| -> Result<Response, AddError> {
        let req = Request {
            url: u,
            max_bytes: limits::MAX_FEED_BYTES,
            ..Request::default()
        };
        match fetcher.get(&req) {
            Ok(Fetched::Body(r)) => Ok(r),
            Ok(Fetched::NotModified) => Err(AddError::Fetch {
                url: u.to_string(),
                error: FetchError::Status { status: 304 },
            }),
            Err(error) => Err(AddError::Fetch {
                url: u.to_string(),
                error,
            }),
        }
    };
    let first = get(url)?;
    let (feed_url, body, others) = if feeds::looks_like_feed(&first.body) {
        (url.to_string(), first, Vec::new())
    } else {
        let base = Url::parse(&first.url).map_err(|_| AddError::NoFeed(url.to_string()))?;
        let found = feeds::discover_feeds(&first.body, first.content_type.as_deref(), &base);
        let Some(chosen) = found.first() else {
            return Err(AddError::NoFeed(url.to_string()));
        };
        let others = found.iter().skip(1).map(|f| f.url.clone()).collect();
        let body = get(&chosen.url)?;
        (chosen.url.clone(), body, others)
    };
    let parsed =
        feeds::parse_feed(&body.body, Some(&body.url), body.charset()).map_err(|error| {
            AddError::Parse {
                url: feed_url.clone(),
                error,
            }
        })?;
    let (feed, new) = store.feed_add(
        &feed_url,
        parsed.title.as_deref().filter(|t| !t.is_empty()),
        parsed.link.as_deref(),
        unix_now(),
    )?;
    Ok(Added {
        feed,
        url: feed_url,
        new,
        others,
    })
}

/// What an OPML import did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Imported {
    /// Feeds listed in the file (duplicates counted once).
    pub feeds: usize,
    /// Of those, subscriptions that are new.
    pub new: usize,
}

/// Why an OPML import failed; nothing is subscribed when the file does not parse.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// Not an OPML file pith can read.
    #[error(transparent)]
    Opml(#[from] feeds::OpmlError),
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Subscribes to every feed of an OPML file's bytes, in its folders (nothing is fetched until the
/// next refresh). A feed already subscribed keeps the folder the user has.
pub fn import_opml(store: &mut Store, bytes: &[u8], now: i64) -> Result<Imported, ImportError> {
    let list = feeds::parse_opml(bytes)?;
    let mut new = 0;
    for feed in &list {
        let (id, created) = store.feed_add(
            &feed.url,
            feed.title.as_deref(),
            feed.site_url.as_deref(),
            now,
        )?;
        if created {
            store.feed_set_folder(id, feed.folder.as_deref())?;
        }
        new += usize::from(created);
    }
    Ok(Imported {
        feeds: list.len(),
        new,
    })
}
