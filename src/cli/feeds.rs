//! The subscriptions: `pith add`, `import`, `export`, `remove` and `feeds`.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use pith::feeds::{self, OpmlFeed};
use pith::refresh::{self, unix_now};
use pith::store::{FeedInfo, Store};

use super::args::NetArgs;
use super::open::{db_path, find_feed, open_store, open_store_to_read};
use super::output::output;
use super::words::when;

/// Subscribes to `url` (a feed, or a page naming one) and, unless `no_refresh`, fetches it.
pub fn add(
    db: Option<PathBuf>,
    url: &str,
    no_refresh: bool,
    net: &NetArgs,
    loopback_only: bool,
) -> Result<()> {
    let path = db_path(db)?;
    let mut store =
        Store::open(&path).with_context(|| format!("opening the database {}", path.display()))?;
    let added = refresh::subscribe(&mut store, &net.config(loopback_only), url)
        .with_context(|| format!("subscribing to {url}"))?;
    drop(store);
    if added.new {
        outln!("subscribed to {} (feed {})", added.url, added.feed);
    } else {
        outln!("already subscribed to {} (feed {})", added.url, added.feed);
    }
    for other in &added.others {
        outln!("  the page also names {other}");
    }
    if !no_refresh {
        let options = super::refresh::Options {
            only: Some(vec![added.feed]),
            jobs: 4,
            images: true,
            fetch: net.config(loopback_only),
        };
        super::refresh::run(&path, options)?;
    }
    Ok(())
}

/// Subscribes to every feed of the OPML `file`, fetching nothing yet.
pub fn import(db: Option<PathBuf>, file: &Path) -> Result<()> {
    let bytes = std::fs::read(file).with_context(|| format!("reading {}", file.display()))?;
    let mut store = open_store(db)?;
    let done = refresh::import_opml(&mut store, &bytes, unix_now())
        .with_context(|| format!("in {}", file.display()))?;
    outln!(
        "{} feeds in {}: {} new, {} already subscribed; run `pith refresh` to fetch them",
        done.feeds,
        file.display(),
        done.new,
        done.feeds - done.new
    );
    Ok(())
}

/// Writes the subscriptions as OPML to `file`, or to standard output.
pub fn export(db: Option<PathBuf>, file: Option<&Path>) -> Result<()> {
    let store = open_store_to_read(db)?;
    let list: Vec<OpmlFeed> = store.feeds()?.into_iter().map(feeds::opml_feed).collect();
    let text = feeds::opml_export(&list)?;
    match file {
        Some(path) => {
            std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))?;
            note!("wrote {} feeds to {}", list.len(), path.display());
        }
        None => outln!("{text}"),
    }
    Ok(())
}

/// Unsubscribes from the feed with id or URL `spec`.
pub fn remove(db: Option<PathBuf>, spec: &str) -> Result<()> {
    let mut store = open_store(db)?;
    let feed = find_feed(&store, spec)?;
    store.feed_remove(feed.id)?;
    outln!(
        "unsubscribed from {} ({})",
        feed.title.as_deref().unwrap_or(&feed.url),
        feed.url
    );
    Ok(())
}

/// Gives a feed the user's own name (`None` or a blank name: back to the feed's title).
pub fn rename(db: Option<PathBuf>, spec: &str, name: Option<&str>) -> Result<()> {
    let mut store = open_store(db)?;
    let feed = find_feed(&store, spec)?;
    let name = name.map(str::trim).filter(|n| !n.is_empty());
    anyhow::ensure!(
        store.feed_rename(feed.id, name)?,
        "the subscription to {} is gone",
        feed.url
    );
    match name {
        Some(name) => outln!("{} is now called {name}", feed.url),
        None => outln!(
            "{} shows its own title again ({})",
            feed.url,
            feed.title.as_deref().unwrap_or("it has none yet")
        ),
    }
    Ok(())
}

/// Puts a feed in the folder `folder` names (`News/World`), or at the top level.
pub fn move_to(db: Option<PathBuf>, spec: &str, folder: Option<&str>) -> Result<()> {
    let mut store = open_store(db)?;
    let feed = find_feed(&store, spec)?;
    let folder = match folder {
        None => None,
        Some(typed) => Some(feeds::folder_path(typed).with_context(|| {
            format!("{typed:?} names no folder; leave FOLDER out to move the feed to the top level")
        })?),
    };
    anyhow::ensure!(
        store.feed_set_folder(feed.id, folder.as_deref())?,
        "the subscription to {} is gone",
        feed.url
    );
    match folder {
        Some(folder) => outln!("{} is in {folder}", feed.url),
        None => outln!("{} is at the top level", feed.url),
    }
    Ok(())
}

/// Lists the subscriptions with their counts, last refresh and trouble.
pub fn list(db: Option<PathBuf>) -> Result<()> {
    let store = open_store_to_read(db)?;
    let feeds = store.feeds()?;
    print_feeds(&mut output(), &feeds, unix_now())?;
    Ok(())
}

/// Prints `feeds` (or how to get some); `now` decides whether a server's wait is still on.
fn print_feeds(out: &mut impl Write, feeds: &[FeedInfo], now: i64) -> std::io::Result<()> {
    if feeds.is_empty() {
        writeln!(
            out,
            "no subscriptions yet: `pith add URL` or `pith import FILE.opml`"
        )?;
    }
    for f in feeds {
        writeln!(
            out,
            "{:>4}  {}\n      {}\n      {} items, {} unread; last refresh {}",
            f.id,
            f.name
                .as_deref()
                .or(f.title.as_deref())
                .unwrap_or(if f.last_ok.is_some() {
                    "(the feed has no title)"
                } else {
                    "(not fetched yet)"
                }),
            f.url,
            f.items,
            f.unread,
            when(f.last_refresh),
        )?;
        if let Some(folder) = &f.folder {
            writeln!(out, "      in {folder}")?;
        }
        if let Some(err) = &f.last_error {
            writeln!(out, "      error: {err}")?;
        }
        if let Some(until) = f.retry_after.filter(|&t| t > now) {
            writeln!(out, "      not asked again before {}", when(Some(until)))?;
        }
    }
    Ok(())
}
