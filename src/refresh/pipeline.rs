//! What happens to one feed and to one entry in a refresh, as plain steps read top to bottom. A
//! feed is fetched (conditionally), parsed, and its new entries chosen ([`read_feed`]). An entry's
//! page is fetched, parsed, keyed, put into its site's URL Tree ([`process_entry`]), classified
//! ([`classify`]) and stored ([`store_article`]). These functions keep no state of their own and
//! take no part in scheduling: they return what happened, and the scheduler
//! ([`super::schedule`]) counts it, keeps each feed's books and decides what runs next.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, MutexGuard};

use crate::classify::{self, Method};
use crate::extract::{Document, Engine, ExtractError, Ingested};
use crate::feeds::{self, Entry, ParsedFeed};
use crate::fetch::{Fetched, Fetcher, Request, Response};
use crate::limits;
use crate::page::BlockKind;
use crate::politeness;
use crate::store::{
    EntryRef, FeedId, FeedInfo, ItemId, NewArticle, NewImage, NewItem, PageBytes, Store,
    StoreError, Stored,
};

use super::{FeedOutcome, RefreshError, unix_now};

/// The refresh's one database connection, as the steps see it: one statement or write at a time.
pub(super) trait Connection {
    /// The connection, for one statement or write.
    fn db(&self) -> Result<MutexGuard<'_, Store>, StoreError>;
}

/// Requests sent, counted as they go (read into the refresh's [`super::Summary`] at the end).
#[derive(Default)]
pub(super) struct Requests {
    pub feeds: AtomicUsize,
    pub conditional: AtomicUsize,
    pub pages: AtomicUsize,
    pub images: AtomicUsize,
}

/// What the steps run with.
pub(super) struct Cx<'a> {
    pub engine: &'a Engine,
    pub fetcher: &'a Fetcher,
    pub conn: &'a dyn Connection,
    /// Bytes the refresh holds in memory (pages waiting for their classification or images).
    pub held: &'a Arc<AtomicUsize>,
    pub requests: &'a Requests,
    /// Whether the images an article keeps are downloaded.
    pub images: bool,
}

impl Cx<'_> {
    fn db(&self) -> Result<MutexGuard<'_, Store>, StoreError> {
        self.conn.db()
    }
}

/// Bytes a refresh holds in memory, counted while the guard lives: the scheduler takes no new
/// feed while the refresh holds too much.
pub(super) struct Held {
    counter: Arc<AtomicUsize>,
    bytes: usize,
}

impl Held {
    fn new(counter: &Arc<AtomicUsize>, bytes: usize) -> Held {
        counter.fetch_add(bytes, Ordering::SeqCst);
        Held {
            counter: Arc::clone(counter),
            bytes,
        }
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        self.counter.fetch_sub(self.bytes, Ordering::SeqCst);
    }
}

/// What reading a feed came to.
pub(super) enum FeedRead {
    /// Nothing more to do for the feed (not modified, or failed); the outcome is stored.
    Done(FeedOutcome),
    /// The feed's document and the entries whose pages are to be fetched (boxed: a parsed feed
    /// is far larger than an outcome).
    Entries(Box<NewEntries>),
}

/// A feed's document and the entries of it to fetch.
pub(super) struct NewEntries {
    pub parsed: ParsedFeed,
    pub response: Response,
    /// Entries (by index) whose page is fetched now: the new ones and the retries.
    pub fresh: Vec<usize>,
    /// Entries seen before whose page failed (by index): fetched again, completing their item
    /// rather than adding one.
    pub retries: HashMap<usize, ItemId>,
}

/// Fetches a feed (conditionally, unless pages of it are waiting for a retry), parses it and
/// chooses the entries to fetch. A feed that answers 304 or fails is recorded as such.
pub(super) fn read_feed(cx: &Cx<'_>, feed: &FeedInfo) -> Result<FeedRead, RefreshError> {
    let now = unix_now();
    // A feed with pages still to retry is asked for whole: "not modified" would leave nothing
    // to retry them from.
    let retrying = cx
        .db()?
        .has_retryable_entries(feed.id, limits::MAX_PAGE_ATTEMPTS)?;
    let (etag, last_modified) = if retrying {
        (None, None)
    } else {
        (feed.etag.as_deref(), feed.last_modified.as_deref())
    };
    cx.requests.feeds.fetch_add(1, Ordering::Relaxed);
    if etag.is_some() || last_modified.is_some() {
        cx.requests.conditional.fetch_add(1, Ordering::Relaxed);
    }
    let req = Request {
        url: &feed.url,
        max_bytes: limits::MAX_FEED_BYTES,
        etag,
        last_modified,
        accept: Some(
            "application/rss+xml, application/atom+xml, application/feed+json, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.5",
        ),
    };
    let response = match cx.fetcher.get(&req) {
        Ok(Fetched::NotModified) => {
            cx.db()?.feed_not_modified(feed.id, now)?;
            return Ok(FeedRead::Done(FeedOutcome::NotModified));
        }
        Ok(Fetched::Body(r)) => r,
        Err(e) => {
            let retry = e.retry_after().map(|d| politeness::retry_at(now, d));
            return feed_failed(cx, feed, &e.to_string(), retry);
        }
    };
    let parsed = match feeds::parse_feed(&response.body, Some(&response.url), response.charset()) {
        Ok(p) => p,
        Err(e) => return feed_failed(cx, feed, &e.to_string(), None),
    };
    let (fresh, retries) = entries_to_fetch(cx, feed.id, &parsed, retrying)?;
    Ok(FeedRead::Entries(Box::new(NewEntries {
        parsed,
        response,
        fresh,
        retries,
    })))
}

fn feed_failed(
    cx: &Cx<'_>,
    feed: &FeedInfo,
    error: &str,
    retry_after: Option<i64>,
) -> Result<FeedRead, RefreshError> {
    cx.db()?
        .feed_failed(feed.id, error, retry_after, unix_now())?;
    Ok(FeedRead::Done(FeedOutcome::Failed {
        error: error.to_string(),
    }))
}

/// The entries of a feed's document whose page is fetched now: those not seen before, and those
/// seen before whose page failed and may be tried again.
fn entries_to_fetch(
    cx: &Cx<'_>,
    feed: FeedId,
    parsed: &ParsedFeed,
    retrying: bool,
) -> Result<(Vec<usize>, HashMap<usize, ItemId>), RefreshError> {
    // The same entry listed twice in one document is one entry.
    let mut unique = HashSet::new();
    let candidates: Vec<usize> = (0..parsed.entries.len())
        .filter(|&i| unique.insert(parsed.entries[i].identity.clone()))
        .collect();
    let ids: Vec<&str> = candidates
        .iter()
        .map(|&i| parsed.entries[i].identity.as_str())
        .collect();
    let seen = cx.db()?.seen_entries(feed, &ids)?;
    // The tombstones of items retention deleted are kept while the feed lists their entries
    // (they keep them from coming back as new), and forgotten once it does not.
    cx.db()?.entries_forget_unlisted(feed, &ids)?;
    if retrying {
        // Failed pages whose entries left the feed can never be retried: their retries end
        // here, so that the feed is asked conditionally again.
        cx.db()?
            .retire_unlisted_retries(feed, &ids, limits::MAX_PAGE_ATTEMPTS)?;
    }
    // A page that failed is fetched again while its entry is still listed, up to
    // `limits::MAX_PAGE_ATTEMPTS` attempts in all. Only entries seen before can have a failed
    // item.
    let seen_ids: Vec<&str> = ids
        .iter()
        .copied()
        .filter(|id| seen.contains(*id))
        .collect();
    let failed = cx
        .db()?
        .retryable_entries(feed, &seen_ids, limits::MAX_PAGE_ATTEMPTS)?;
    let mut retries = HashMap::new();
    let fresh = candidates
        .into_iter()
        .filter(|&i| {
            let identity = &parsed.entries[i].identity;
            if let Some(&item) = failed.get(identity) {
                retries.insert(i, item);
                return true;
            }
            !seen.contains(identity)
        })
        .collect();
    Ok((fresh, retries))
}

/// One entry to process.
pub(super) struct EntryWork<'a> {
    pub feed: FeedId,
    pub entry: &'a Entry,
    /// Its index in the feed's document.
    pub index: usize,
    /// The item its page failed for before, when this is a retry.
    pub retry: Option<ItemId>,
    /// Its feed was never fetched before: all its pages go into the tree before any is
    /// classified.
    pub new_feed: bool,
}

impl<'a> EntryWork<'a> {
    fn entry_ref(&self) -> EntryRef<'a> {
        EntryRef {
            feed: self.feed,
            identity: &self.entry.identity,
        }
    }
}

/// What processing an entry came to.
pub(super) enum EntryOutcome {
    /// Linked to an item already stored (the same article through another feed, or a URL key
    /// the tree already had).
    Linked,
    /// Its page could not be had; the entry is stored with its summary and the error.
    Failed {
        /// Why.
        error: String,
        /// A new item (false when a retry failed again).
        new_item: bool,
    },
    /// In the tree, waiting until its whole (new) feed is in before it is classified.
    Staged(Staged),
    /// Classified; stored once the images it keeps are decided.
    Classified(Classified),
}

/// Where a page came from and what its server declared.
pub(super) struct PageMeta {
    pub url: String,
    pub content_type: Option<String>,
}

/// A page in the tree and waiting for its classification.
pub(super) struct Staged {
    pub entry: usize,
    page: PageMeta,
    bytes: PageBytes,
    tree_doc: Option<i64>,
    held: Held,
}

/// A classified page and the content images it names.
pub(super) struct Classified {
    pub article: Article,
    /// Content images, in order, each once, at most [`limits::MAX_ARTICLE_IMAGES`].
    pub images: Vec<String>,
}

/// Everything stored with a new item, owned.
pub(super) struct Article {
    page: PageMeta,
    bytes: PageBytes,
    tree_doc: Option<i64>,
    blocks: PageBytes,
    text: String,
    domain: String,
    url_key: String,
    /// Images the article keeps that are stored already (or being downloaded for another
    /// article of this refresh).
    pub known_images: Vec<String>,
    _held: Held,
}

/// Fetches an entry's page, parses it, makes its URL key and inserts it into its site's tree;
/// then, unless its feed is new, classifies it. An entry whose article is already stored is
/// linked to it; one whose page cannot be had is stored with its summary.
pub(super) fn process_entry(
    cx: &Cx<'_>,
    work: &EntryWork<'_>,
) -> Result<EntryOutcome, RefreshError> {
    let now = unix_now();
    let Some(link) = work.entry.link.as_deref() else {
        return store_failed(cx, work, "the entry has no link", Failure::Permanent);
    };
    // The same article already came through another feed (or earlier in this one). (A retried
    // entry's own failed item has this link too: it is completed instead.)
    // (The lookup is bound first: a guard in an `if let` would still be held in its body.)
    let existing = match work.retry {
        Some(_) => None,
        None => cx.db()?.item_by_link(link)?,
    };
    if let Some(item) = existing {
        let title = entry_title(work.entry);
        let body = cx.db()?.item_search_text(item)?;
        cx.db()?
            .entry_link_edited(&work.entry_ref(), item, title, &body)?;
        return Ok(EntryOutcome::Linked);
    }
    // Fetch.
    let page = match fetch_page(cx, link) {
        Ok(page) => page,
        Err((error, failure)) => return store_failed(cx, work, &error, failure),
    };
    // Parse and key, in parallel with the other workers; only the insert takes the connection.
    let evidence = evidence_text(cx, work)?;
    let doc = Document {
        bytes: &page.body,
        declared_charset: page.content_type.as_deref(),
        url: Some(&page.url),
        title: work.entry.title.as_deref(),
        time: now,
        entry_text: evidence.as_deref(),
    };
    let mut ingested = match cx.engine.parse(&doc, None) {
        Ok(i) => i,
        // A response URL that makes no URL key (e.g. too long) cannot join a tree; the page is
        // still worth reading, so it is classified on its own.
        Err(ExtractError::UrlKey(e)) => {
            let error = format!("no URL key for {}: {e}", page.url);
            return store_failed(cx, work, &error, Failure::Permanent);
        }
        Err(e) => return Err(e.into()),
    };
    // Tree.
    cx.engine.insert(&mut *cx.db()?, &mut ingested, now)?;
    // (The lookup is bound first: a guard in an `if let` would still be held in its body.)
    let stored = match (&ingested.key, ingested.duplicate) {
        (Some(key), true) => cx.db()?.item_by_key(&key.domain, &key.key)?,
        _ => None,
    };
    if let Some(item) = stored {
        match work.retry {
            Some(failed) => cx.db()?.item_merge_failed(failed, item)?,
            None => cx.db()?.entry_link(&work.entry_ref(), item)?,
        }
        return Ok(EntryOutcome::Linked);
    }
    let bytes = PageBytes::compress(&page.body)?;
    let staged = Staged {
        entry: work.index,
        held: Held::new(cx.held, bytes.stored_len()),
        bytes,
        tree_doc: ingested.doc,
        page: PageMeta {
            url: page.url,
            content_type: page.content_type,
        },
    };
    if work.new_feed {
        // Classified once the whole feed is in the tree; the page waits compressed.
        return Ok(EntryOutcome::Staged(staged));
    }
    // Classify.
    classify(cx, work, staged, Some(ingested)).map(EntryOutcome::Classified)
}

/// Whether a page that could not be had may be had later.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Failure {
    /// It may (a time-out, a server error, a rate limit): later refreshes try again, up to
    /// `limits::MAX_PAGE_ATTEMPTS` attempts in all.
    Temporary,
    /// It never will (no link, a PDF or an image, a URL too long to key): not tried again.
    Permanent,
}

/// GETs an entry's page; the error is the message stored with the entry.
fn fetch_page(cx: &Cx<'_>, link: &str) -> Result<Response, (String, Failure)> {
    cx.requests.pages.fetch_add(1, Ordering::Relaxed);
    let req = Request {
        url: link,
        max_bytes: limits::MAX_PAGE_BYTES,
        accept: Some("text/html, application/xhtml+xml;q=0.9, */*;q=0.5"),
        ..Request::default()
    };
    match cx.fetcher.get(&req) {
        Ok(Fetched::Body(r)) if is_page(r.mime.as_deref(), &r.body) => Ok(r),
        Ok(Fetched::Body(r)) => Err((
            format!(
                "the link is not a web page ({})",
                r.mime.as_deref().unwrap_or("?")
            ),
            Failure::Permanent,
        )),
        Ok(Fetched::NotModified) => Err(("unexpected 304 for a page".into(), Failure::Temporary)),
        Err(e) => Err((e.to_string(), Failure::Temporary)),
    }
}

/// Whether a response is a web page for an entry link: by its content type, or, when the type
/// says nothing (`application/octet-stream`, which old `.stm` and extensionless pages are
/// often served as), by its first bytes, as browsers sniff.
fn is_page(mime: Option<&str>, body: &[u8]) -> bool {
    is_html(mime)
        || (mime.is_some_and(|m| {
            matches!(
                m,
                "application/octet-stream" | "application/unknown" | "unknown/unknown" | "*/*"
            )
        }) && crate::fetch::sniffs_as_html(body))
}

/// Content types taken as a web page for an entry link.
fn is_html(mime: Option<&str>) -> bool {
    match mime {
        None => true,
        Some(m) => {
            m.is_empty()
                || m == "text/html"
                || m == "application/xhtml+xml"
                || m == "text/plain"
                || m.ends_with("/xml")
        }
    }
}

/// Stores an entry whose page could not be had: a new item readable from the feed's summary, or,
/// for a retry, one more attempt counted on its item. A permanent failure is not tried again.
fn store_failed(
    cx: &Cx<'_>,
    work: &EntryWork<'_>,
    error: &str,
    failure: Failure,
) -> Result<EntryOutcome, RefreshError> {
    let item = match work.retry {
        Some(failed) => {
            cx.db()?.item_retry_failed(failed, error)?;
            failed
        }
        None => {
            let text = work
                .entry
                .summary
                .as_deref()
                .map(feeds::html_fragment_text)
                .unwrap_or_default();
            cx.db()?.item_store_failed(
                &work.entry_ref(),
                &new_item(work.entry, unix_now()),
                &text,
                error,
            )?
        }
    };
    if failure == Failure::Permanent {
        cx.db()?.item_give_up(item, limits::MAX_PAGE_ATTEMPTS)?;
    }
    Ok(EntryOutcome::Failed {
        error: error.to_string(),
        new_item: work.retry.is_none(),
    })
}

/// The feed's text the classification of an entry's page takes as evidence: the entry's summary,
/// or, when the page completes an item stored earlier (a retry), the summary that item keeps.
/// Reading classifies the stored page again with the stored summary, so the text stored now and
/// every later reading agree, whichever feed's entry completed the item.
fn evidence_text(cx: &Cx<'_>, work: &EntryWork<'_>) -> Result<Option<String>, RefreshError> {
    if let Some(failed) = work.retry {
        return Ok(cx.db()?.item(failed)?.and_then(|item| item.summary));
    }
    Ok(work.entry.summary.clone())
}

/// The text the full-text index holds for a classified page: its content, or the feed's text
/// when that stands in for the page ([`classify::entry_stands_in`]), as the reader then shows it.
fn indexed_text(
    page: &crate::page::Page,
    labels: &[classify::Label],
    evidence: Option<&str>,
) -> String {
    let text = classify::content_text(page, labels);
    let kept = crate::page::count_words(&text);
    evidence
        .and_then(|entry| classify::entry_stands_in(entry, kept))
        .map_or(text, |stand_in| stand_in.text)
}

/// Classifies a page in its tree (parsing it again when it was staged) and gathers what its item
/// stores: the labelled blocks, the clean text, and the content images it names.
pub(super) fn classify(
    cx: &Cx<'_>,
    work: &EntryWork<'_>,
    staged: Staged,
    ingested: Option<Ingested>,
) -> Result<Classified, RefreshError> {
    let Staged {
        page,
        bytes,
        tree_doc,
        held,
        ..
    } = staged;
    let engine = cx.engine;
    let evidence = evidence_text(cx, work)?;
    let ingested = match ingested {
        Some(i) => i,
        None => {
            let raw = bytes.decompress()?;
            engine.parse(
                &Document {
                    bytes: &raw,
                    declared_charset: page.content_type.as_deref(),
                    url: Some(&page.url),
                    title: work.entry.title.as_deref(),
                    time: unix_now(),
                    entry_text: evidence.as_deref(),
                },
                tree_doc,
            )?
        }
    };
    let labels = engine.classify(&*cx.db()?, &ingested, Method::default_method())?;
    let text = indexed_text(&ingested.page, &labels, evidence.as_deref());
    let page_level = Some(ingested.page_level.labels.as_slice());
    let blocks = classify::labelled::encode(&ingested.page, Some(&page.url), &labels, page_level);
    let mut images = Vec::new();
    if cx.images {
        let mut seen = HashSet::new();
        images = ingested
            .page
            .blocks
            .iter()
            .zip(&labels)
            .filter(|(b, l)| l.is_content() && b.kind == BlockKind::Image)
            .filter_map(|(b, _)| b.image.as_ref().map(|i| i.src.clone()))
            .filter(|src| crate::safety::fetchable_url(src, None).is_some())
            .filter(|src| seen.insert(src.clone()))
            .take(limits::MAX_ARTICLE_IMAGES)
            .collect();
    }
    let (domain, url_key) = match &ingested.key {
        Some(k) => (k.domain.clone(), k.key.clone()),
        None => (String::new(), page.url.clone()),
    };
    Ok(Classified {
        article: Article {
            _held: held,
            page,
            bytes,
            tree_doc,
            blocks,
            text,
            domain,
            url_key,
            known_images: Vec::new(),
        },
        images,
    })
}

/// Stores an entry's article with its downloaded images, as a new item or completing the item
/// its page failed for before.
pub(super) fn store_article(
    cx: &Cx<'_>,
    work: &EntryWork<'_>,
    a: &Article,
    images: &[NewImage],
) -> Result<Stored, RefreshError> {
    let article = NewArticle {
        url: &a.page.url,
        declared_charset: a.page.content_type.as_deref(),
        raw: &a.bytes,
        domain: &a.domain,
        url_key: &a.url_key,
        tree_doc: a.tree_doc,
        blocks: &a.blocks,
        text: &a.text,
        images,
        known_images: &a.known_images,
    };
    Ok(match work.retry {
        Some(failed) => cx.db()?.item_retry_stored(failed, &article, unix_now())?,
        None => cx.db()?.item_store(
            &work.entry_ref(),
            &new_item(work.entry, unix_now()),
            &article,
        )?,
    })
}

/// The title an entry is shown and stored under.
pub(super) fn entry_title(entry: &Entry) -> &str {
    entry
        .title
        .as_deref()
        .filter(|t| !t.is_empty())
        .or(entry.link.as_deref())
        .unwrap_or("(untitled)")
}

fn new_item<'a>(entry: &'a Entry, now: i64) -> NewItem<'a> {
    NewItem {
        link: entry.link.as_deref().unwrap_or(""),
        title: entry_title(entry),
        summary: entry.summary.as_deref(),
        published: entry.published,
        added: now,
    }
}
