//! The items: `pith items`, `search`, `star` and `mark-read`.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use pith::store::{ItemFilter, ItemInfo, ItemScope, SearchHit};

use super::open::{find_feed, open_store, open_store_to_read};
use super::output::output;
use super::words::when;

/// Lists the items `filter` selects, newest first; `feed` (id or URL) narrows it to one feed.
/// Read a page at a time ([`pith::limits::LIST_PAGE_ROWS`]), each printed before the next is
/// read: the first lines come at once however many items there are, and memory stays bounded.
pub fn list(db: Option<PathBuf>, feed: Option<&str>, filter: ItemFilter) -> Result<()> {
    let store = open_store_to_read(db)?;
    let feed = feed.map(|f| find_feed(&store, f)).transpose()?;
    let mut out = output();
    // `filter.limit` 0: every item.
    let mut left = if filter.limit == 0 {
        usize::MAX
    } else {
        filter.limit
    };
    let mut after = None;
    while left > 0 {
        let page = ItemFilter {
            feed: feed.as_ref().map(|f| f.id),
            limit: left.min(pith::limits::LIST_PAGE_ROWS),
            after,
            ..filter
        };
        let items = store.items(&page)?;
        print_items(&mut out, &items)?;
        // The end is an empty page, not a short one: an item deleted by a refresh between a
        // page's two reads shortens it.
        let Some(last) = items.last() else { break };
        left = left.saturating_sub(items.len());
        let key = last.key();
        // Each page ends below the last one; one that did not would be read again for ever.
        if after.is_some_and(|a| key >= a) {
            break;
        }
        after = Some(key);
    }
    Ok(())
}

/// One line per item: id, flags (`*` unread, `S` starred, `!` page not fetched), date, title and
/// the feeds that list it.
fn print_items(out: &mut impl Write, items: &[ItemInfo]) -> std::io::Result<()> {
    for item in items {
        let flags = format!(
            "{}{}{}",
            if item.read { ' ' } else { '*' },
            if item.starred { 'S' } else { ' ' },
            if item.fetch_error.is_some() { '!' } else { ' ' }
        );
        writeln!(
            out,
            "{:>6} {flags} {}  {}  [{}]",
            item.id,
            when(item.published.or(Some(item.added))),
            item.title,
            item.feeds.join(", ")
        )?;
    }
    Ok(())
}

/// Words in a hit's passage (FTS5's `snippet()` gave 12 before the index kept no text).
const SNIPPET_WORDS: usize = 12;

/// Full-text search for all the words of `query`, best first.
pub fn search(db: Option<PathBuf>, query: &[String], limit: usize) -> Result<()> {
    let store = open_store_to_read(db)?;
    let query = query.join(" ");
    let hits = store.search(&query, limit)?;
    // Each hit's passage, cut from its stored text (the index keeps none).
    let snippets = hits
        .iter()
        .map(|hit| {
            let text = store
                .item_search_text(hit.id)
                .with_context(|| format!("reading item {}", hit.id))?;
            Ok(pith::store::snippet(&text, &query, SNIPPET_WORDS))
        })
        .collect::<Result<Vec<_>>>()?;
    print_hits(&mut output(), &query, &hits, &snippets)?;
    Ok(())
}

/// Each hit's id and title with its snippet on one line below, or that nothing matched.
fn print_hits(
    out: &mut impl Write,
    query: &str,
    hits: &[SearchHit],
    snippets: &[String],
) -> std::io::Result<()> {
    if hits.is_empty() {
        writeln!(out, "nothing matches {query:?}")?;
    }
    for (hit, snippet) in hits.iter().zip(snippets) {
        writeln!(
            out,
            "{:>6}  {}\n        {}",
            hit.id,
            hit.title,
            snippet.replace('\n', " ")
        )?;
    }
    Ok(())
}

/// Stars item `id`, or unstars it when it is starred.
pub fn star(db: Option<PathBuf>, id: i64) -> Result<()> {
    let mut store = open_store(db)?;
    match store.toggle_star(id)? {
        Some(true) => outln!("starred item {id}"),
        Some(false) => outln!("unstarred item {id}"),
        None => bail!("no item {id} (see `pith items`)"),
    }
    Ok(())
}

/// Which items `pith mark-read` marks: exactly one of an item, a feed's items, or all.
pub struct Marked<'a> {
    /// The item's id.
    pub id: Option<i64>,
    /// Every item of this feed (id or URL).
    pub feed: Option<&'a str>,
    /// Every item.
    pub all: bool,
}

/// Marks the items `which` names read, or unread when `unread`.
pub fn mark_read(db: Option<PathBuf>, which: Marked<'_>, unread: bool) -> Result<()> {
    let mut store = open_store(db)?;
    let scope = match (which.id, which.feed, which.all) {
        (Some(id), None, false) => {
            store
                .item(id)?
                .with_context(|| format!("no item {id} (see `pith items`)"))?;
            ItemScope::Item(id)
        }
        (None, Some(f), false) => ItemScope::Feed(find_feed(&store, f)?.id),
        (None, None, true) => ItemScope::All,
        _ => bail!("say which items: an item id, --feed FEED, or --all"),
    };
    let n = store.set_read(scope, !unread)?;
    outln!(
        "marked {n} items {}",
        if unread { "unread" } else { "read" }
    );
    Ok(())
}
