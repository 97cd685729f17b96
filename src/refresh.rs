//! The refresh pipeline (ARCHITECTURE.md, "Data flow") on a pool of workers: fetch each feed with a
//! conditional GET, keep the entries not seen before, fetch each one's page (redirects followed),
//! run it through the engine (URL Tree insert, classification), download the images it keeps, and
//! store everything, one transaction per item. Progress goes to a callback, so the command line
//! draws a bar and a window can forward the events to its own thread.
//!
//! Work is a queue of tasks (a feed to fetch, an entry's page to fetch); each worker takes the
//! first task whose host may be asked now (per-host politeness lives in [`crate::fetch`]), so a
//! slow or rate-limiting site never holds up the others.

use std::collections::{HashMap, HashSet, VecDeque};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use url::Url;

use crate::classify::{self, Method};
use crate::extract::{Document, Engine, ExtractError, Ingested};
use crate::feeds::{self, Entry, ParsedFeed};
use crate::fetch::{self, FetchConfig, FetchError, Fetched, Fetcher, Request, Response};
use crate::limits;
use crate::page::BlockKind;
use crate::store::{
    EntryRef, FeedId, FeedInfo, ItemId, NewArticle, NewImage, NewItem, PageBytes, Store,
    StoreError, Stored,
};

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
        /// Entries past [`limits::MAX_ENTRIES_PER_FEED`] in the document, not read.
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

/// One feed's work in progress.
struct FeedJob {
    feed: FeedInfo,
    /// A feed never fetched before: all its entries go into the tree before any is classified.
    new_feed: bool,
    /// Entries seen before whose page failed (by entry index): fetched again, and completing
    /// their item rather than adding one.
    retries: HashMap<usize, ItemId>,
    parsed: ParsedFeed,
    response: Response,
    state: Mutex<JobState>,
}

/// A feed is done when its page tasks are done, its staged pages classified, and the articles
/// waiting for their images stored.
#[derive(Default)]
struct JobState {
    pages_left: usize,
    batches_left: usize,
    staging_done: bool,
    completed: bool,
    staged: Vec<Staged>,
    new_items: usize,
    linked: usize,
    page_errors: usize,
}

/// A new feed's page, in the tree and waiting for its classification.
struct Staged {
    entry: usize,
    page: PageMeta,
    bytes: PageBytes,
    tree_doc: Option<i64>,
    held: Held,
}

/// Where a page came from and what its server declared.
struct PageMeta {
    url: String,
    content_type: Option<String>,
}

/// Bytes a refresh holds in memory, counted while the guard lives.
struct Held {
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

/// A classified article waiting for its images; stored (in one transaction) when the last one
/// is in. Image downloads are tasks of their own, so that a worker never sleeps on a host's
/// politeness delay while other hosts have work.
struct ImageBatch {
    job: Arc<FeedJob>,
    entry: usize,
    article: Article,
    state: Mutex<BatchState>,
}

struct BatchState {
    left: usize,
    budget: u64,
    images: Vec<NewImage>,
}

/// Everything stored with a new item, owned.
struct Article {
    page: PageMeta,
    bytes: PageBytes,
    tree_doc: Option<i64>,
    blocks: PageBytes,
    text: String,
    domain: String,
    url_key: String,
    known_images: Vec<String>,
    _held: Held,
}

enum Task {
    // Boxed: a feed row is far larger than the other tasks, which are queued by the thousand.
    Feed(Box<FeedInfo>),
    Page(Arc<FeedJob>, usize),
    Image(Arc<ImageBatch>, String),
}

struct Queue {
    feeds: VecDeque<FeedInfo>,
    pages: VecDeque<(Arc<FeedJob>, usize, String)>,
    images: VecDeque<(Arc<ImageBatch>, String, String)>,
    running: usize,
    feeds_in_flight: usize,
    summary: Summary,
    fatal: Option<RefreshError>,
    /// A worker panicked (a bug): the others stop instead of waiting for its task forever,
    /// and the panic goes on up once they are joined.
    worker_panicked: bool,
}

/// Counts a running task until it ends, however it ends: a task that panics still ends, and
/// tells the other workers to stop.
struct Running<'s, 'a> {
    shared: &'s Shared<'a>,
}

impl Drop for Running<'_, '_> {
    fn drop(&mut self) {
        let mut q = self.shared.lock();
        q.running -= 1;
        if std::thread::panicking() {
            q.worker_panicked = true;
        }
        drop(q);
        self.shared.wake.notify_all();
    }
}

struct Shared<'a> {
    /// The refresh's one connection. Its writes go in batches ([`Store::begin_batch`]):
    /// SQLite then writes each changed page (the template counters of a site's tree, the
    /// full-text index) once per batch rather than once per article. Everything that must see
    /// the batch (classification reads the tree the page was just inserted into) runs on it.
    store: Mutex<Store>,
    engine: &'a Engine,
    fetcher: Fetcher,
    options: &'a RefreshOptions,
    queue: Mutex<Queue>,
    wake: Condvar,
    held: Arc<AtomicUsize>,
    /// Image URLs some article of this run has queued: each is downloaded once, whichever
    /// articles keep it.
    images_claimed: Mutex<HashSet<String>>,
    on_event: &'a (dyn Fn(Event) + Sync),
}

impl Shared<'_> {
    /// The refresh's connection, for one statement or transaction at a time. A batch that is
    /// due (`limits::REFRESH_BATCH_WRITES` writes, or `REFRESH_BATCH_AGE` old) is committed
    /// first.
    fn db(&self) -> Result<MutexGuard<'_, Store>, StoreError> {
        // A worker that panicked mid-call left no write half done (a write is a savepoint,
        // rolled back on drop), so the connection is still usable.
        let mut store = self.store.lock().unwrap_or_else(|e| e.into_inner());
        store.commit_batch_if_due(limits::REFRESH_BATCH_WRITES, limits::REFRESH_BATCH_AGE)?;
        Ok(store)
    }

    fn lock(&self) -> MutexGuard<'_, Queue> {
        // The queue holds plain data; a panicking worker leaves it usable.
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn count(&self, f: impl FnOnce(&mut Summary)) {
        f(&mut self.lock().summary);
    }
}

fn host_of(url: &str) -> String {
    Url::parse(url)
        .map(|u| fetch::host_key(&u))
        .unwrap_or_default()
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
    store.tune_for_refresh()?;
    let now = unix_now();
    let mut feeds = store.feeds()?;
    if let Some(only) = &options.feeds {
        feeds.retain(|f| only.contains(&f.id));
    }
    on_event(Event::Started { feeds: feeds.len() });
    let mut summary = Summary::default();
    let mut queued = VecDeque::new();
    for feed in feeds {
        match feed.retry_after {
            Some(until) if until > now => {
                summary.feeds_deferred += 1;
                on_event(Event::FeedDone {
                    feed: feed.id,
                    url: feed.url.clone(),
                    outcome: FeedOutcome::Deferred { until },
                });
            }
            _ => queued.push_back(feed),
        }
    }
    let shared = Shared {
        store: Mutex::new(store),
        engine,
        fetcher: Fetcher::new(options.fetch.clone()),
        options,
        queue: Mutex::new(Queue {
            feeds: queued,
            pages: VecDeque::new(),
            images: VecDeque::new(),
            running: 0,
            feeds_in_flight: 0,
            summary,
            fatal: None,
            worker_panicked: false,
        }),
        wake: Condvar::new(),
        held: Arc::new(AtomicUsize::new(0)),
        images_claimed: Mutex::new(HashSet::new()),
        on_event,
    };
    shared.db()?.begin_batch();
    let jobs = options.jobs.max(1);
    let workers_done = std::sync::atomic::AtomicBool::new(false);
    let panicked = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs).map(|_| scope.spawn(|| worker(&shared))).collect();
        scope.spawn(|| committer(&shared, &workers_done));
        let mut panicked = None;
        for w in workers {
            if let Err(payload) = w.join() {
                panicked.get_or_insert(payload);
            }
        }
        workers_done.store(true, Ordering::SeqCst);
        shared.wake.notify_all();
        panicked
    });
    let mut queue = shared.queue.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut store = shared.store.into_inner().unwrap_or_else(|e| e.into_inner());
    // Even after a fatal error: every write in the batch is whole (each ran in its own
    // savepoint), and committing them keeps what the refresh fetched.
    if let Err(e) = store.commit_batch() {
        queue.fatal.get_or_insert(e.into());
    }
    // A worker's panic is a bug: it goes on up, as it did before the workers were joined by hand.
    if let Some(payload) = panicked {
        std::panic::resume_unwind(payload);
    }
    if queue.fatal.is_none() {
        store.checkpoint()?;
    }
    match queue.fatal {
        Some(e) => Err(e),
        None => Ok(queue.summary),
    }
}

/// Commits the refresh's batch once it is old enough while the workers are busy elsewhere
/// (fetching, parsing), so that what the refresh stored reaches other connections, such as the
/// window's, within about `limits::REFRESH_BATCH_AGE`, and their writes are not kept waiting.
fn committer(shared: &Shared<'_>, workers_done: &std::sync::atomic::AtomicBool) {
    loop {
        {
            let q = shared.lock();
            if workers_done.load(Ordering::SeqCst) || q.fatal.is_some() || q.worker_panicked {
                return;
            }
            let _ = shared
                .wake
                .wait_timeout(q, limits::REFRESH_BATCH_AGE / 2)
                .unwrap_or_else(|e| e.into_inner());
        }
        if workers_done.load(Ordering::SeqCst) {
            return;
        }
        // `db()` commits the batch when it is due.
        if let Err(e) = shared.db() {
            shared.lock().fatal.get_or_insert(e.into());
            shared.wake.notify_all();
            return;
        }
    }
}

fn worker(shared: &Shared<'_>) {
    let max_in_flight = shared.options.jobs.max(1) * 32;
    loop {
        let task = {
            let mut q = shared.lock();
            loop {
                if q.fatal.is_some() || q.worker_panicked {
                    shared.wake.notify_all();
                    return;
                }
                let mut soonest: Option<Instant> = None;
                let mut pick = |host: &str| match shared.fetcher.host_ready_at(host) {
                    None => true,
                    Some(t) => {
                        soonest = Some(soonest.map_or(t, |s: Instant| s.min(t)));
                        false
                    }
                };
                // Images first (they complete articles), then pages of feeds in flight (they hold
                // memory until done), then new feeds.
                if let Some(i) = q.images.iter().position(|(_, _, host)| pick(host))
                    && let Some((batch, url, _)) = q.images.remove(i)
                {
                    q.running += 1;
                    break Task::Image(batch, url);
                }
                if let Some(i) = q.pages.iter().position(|(_, _, host)| pick(host))
                    && let Some((job, entry, _)) = q.pages.remove(i)
                {
                    q.running += 1;
                    break Task::Page(job, entry);
                }
                if q.feeds_in_flight < max_in_flight
                    && shared.held.load(Ordering::SeqCst) < limits::MAX_REFRESH_HELD_BYTES
                    && let Some(i) = q.feeds.iter().position(|f| pick(&host_of(&f.url)))
                    && let Some(feed) = q.feeds.remove(i)
                {
                    q.running += 1;
                    q.feeds_in_flight += 1;
                    break Task::Feed(Box::new(feed));
                }
                if q.feeds.is_empty() && q.pages.is_empty() && q.images.is_empty() && q.running == 0
                {
                    shared.wake.notify_all();
                    return;
                }
                let wait = soonest
                    .map(|t| t.saturating_duration_since(Instant::now()))
                    .unwrap_or(Duration::from_millis(200))
                    .clamp(Duration::from_millis(1), Duration::from_millis(200));
                q = shared
                    .wake
                    .wait_timeout(q, wait)
                    .unwrap_or_else(|e| e.into_inner())
                    .0;
            }
        };
        let running = Running { shared };
        let result = match task {
            Task::Feed(feed) => run_feed(shared, *feed),
            Task::Page(job, entry) => run_page(shared, &job, entry),
            Task::Image(batch, url) => run_image(shared, &batch, &url),
        };
        if let Err(e) = result {
            shared.lock().fatal.get_or_insert(e);
        }
        drop(running);
    }
}

fn feed_done(shared: &Shared<'_>, feed: &FeedInfo, outcome: FeedOutcome) {
    {
        let mut q = shared.lock();
        q.feeds_in_flight = q.feeds_in_flight.saturating_sub(1);
        let s = &mut q.summary;
        match &outcome {
            FeedOutcome::Updated {
                new_items,
                linked,
                page_errors,
                ..
            } => {
                s.feeds_updated += 1;
                s.new_items += new_items;
                s.linked += linked;
                s.page_errors += page_errors;
            }
            FeedOutcome::NotModified => s.feeds_not_modified += 1,
            FeedOutcome::Deferred { .. } => s.feeds_deferred += 1,
            FeedOutcome::Failed { .. } => s.feeds_failed += 1,
        }
    }
    (shared.on_event)(Event::FeedDone {
        feed: feed.id,
        url: feed.url.clone(),
        outcome,
    });
}

fn run_feed(shared: &Shared<'_>, feed: FeedInfo) -> Result<(), RefreshError> {
    let now = unix_now();
    // A feed with pages still to retry is asked for whole: "not modified" would leave nothing
    // to retry them from.
    let retrying = shared
        .db()?
        .has_retryable_entries(feed.id, limits::MAX_PAGE_ATTEMPTS)?;
    let (etag, last_modified) = if retrying {
        (None, None)
    } else {
        (feed.etag.as_deref(), feed.last_modified.as_deref())
    };
    let conditional = etag.is_some() || last_modified.is_some();
    shared.count(|s| {
        s.feed_requests += 1;
        s.conditional_requests += usize::from(conditional);
    });
    let req = Request {
        url: &feed.url,
        max_bytes: limits::MAX_FEED_BYTES,
        etag,
        last_modified,
        accept: Some(
            "application/rss+xml, application/atom+xml, application/feed+json, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.5",
        ),
    };
    let response = match shared.fetcher.get(&req) {
        Ok(Fetched::NotModified) => {
            shared.db()?.feed_not_modified(feed.id, now)?;
            feed_done(shared, &feed, FeedOutcome::NotModified);
            return Ok(());
        }
        Ok(Fetched::Body(r)) => r,
        Err(e) => {
            let retry = e
                .retry_after()
                .map(|d| now.saturating_add(i64::try_from(d.as_secs()).unwrap_or(i64::MAX)));
            fail_feed(shared, &feed, &e.to_string(), retry)?;
            return Ok(());
        }
    };
    let parsed = match feeds::parse_feed(&response.body, Some(&response.url), response.charset()) {
        Ok(p) => p,
        Err(e) => {
            fail_feed(shared, &feed, &e.to_string(), None)?;
            return Ok(());
        }
    };
    // The same entry listed twice in one document is one entry.
    let mut unique = HashSet::new();
    let candidates: Vec<usize> = (0..parsed.entries.len())
        .filter(|&i| unique.insert(parsed.entries[i].identity.clone()))
        .collect();
    let ids: Vec<&str> = candidates
        .iter()
        .map(|&i| parsed.entries[i].identity.as_str())
        .collect();
    let seen = shared.db()?.seen_entries(feed.id, &ids)?;
    if retrying {
        // Failed pages whose entries left the feed can never be retried: their retries end
        // here, so that the feed is asked conditionally again.
        shared
            .db()?
            .retire_unlisted_retries(feed.id, &ids, limits::MAX_PAGE_ATTEMPTS)?;
    }
    // A page that failed is fetched again while its entry is still listed, up to
    // `limits::MAX_PAGE_ATTEMPTS` attempts in all.
    // Only entries seen before can have a failed item.
    let seen_ids: Vec<&str> = ids
        .iter()
        .copied()
        .filter(|id| seen.contains(*id))
        .collect();
    let failed = shared
        .db()?
        .retryable_entries(feed.id, &seen_ids, limits::MAX_PAGE_ATTEMPTS)?;
    let mut retries = HashMap::new();
    let fresh: Vec<usize> = candidates
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
    let job = Arc::new(FeedJob {
        retries,
        new_feed: feed.last_ok.is_none(),
        feed,
        parsed,
        response,
        state: Mutex::new(JobState {
            pages_left: fresh.len(),
            staging_done: fresh.is_empty(),
            ..JobState::default()
        }),
    });
    if fresh.is_empty() {
        return try_complete(shared, &job);
    }
    (shared.on_event)(Event::PagesQueued {
        feed: job.feed.id,
        count: fresh.len(),
    });
    let mut q = shared.lock();
    for i in fresh {
        let host = job.parsed.entries[i]
            .link
            .as_deref()
            .map(host_of)
            .unwrap_or_default();
        q.pages.push_back((Arc::clone(&job), i, host));
    }
    Ok(())
}

fn fail_feed(
    shared: &Shared<'_>,
    feed: &FeedInfo,
    error: &str,
    retry_after: Option<i64>,
) -> Result<(), RefreshError> {
    shared
        .db()?
        .feed_failed(feed.id, error, retry_after, unix_now())?;
    feed_done(
        shared,
        feed,
        FeedOutcome::Failed {
            error: error.to_string(),
        },
    );
    Ok(())
}

fn lock_job(job: &FeedJob) -> MutexGuard<'_, JobState> {
    job.state.lock().unwrap_or_else(|e| e.into_inner())
}

/// Once a feed's pages are all in (and so, for a new feed, all in the tree), its staged pages
/// are classified.
fn finish_pages(shared: &Shared<'_>, job: &Arc<FeedJob>) -> Result<(), RefreshError> {
    let staged = std::mem::take(&mut lock_job(job).staged);
    for s in staged {
        classify_and_store(shared, job, s, None)?;
    }
    lock_job(job).staging_done = true;
    try_complete(shared, job)
}

/// Completes a feed whose work is all done. The validators are recorded only then: a refresh
/// killed half-way must not leave a feed that answers 304 while some of its entries were never
/// fetched.
fn try_complete(shared: &Shared<'_>, job: &FeedJob) -> Result<(), RefreshError> {
    {
        let mut state = lock_job(job);
        if state.completed || !state.staging_done || state.pages_left > 0 || state.batches_left > 0
        {
            return Ok(());
        }
        state.completed = true;
    }
    shared.db()?.feed_fetched(
        job.feed.id,
        job.parsed.title.as_deref().filter(|t| !t.is_empty()),
        job.parsed.link.as_deref(),
        job.response.etag.as_deref(),
        job.response.last_modified.as_deref(),
        unix_now(),
    )?;
    let state = lock_job(job);
    let outcome = FeedOutcome::Updated {
        new_items: state.new_items,
        linked: state.linked,
        page_errors: state.page_errors,
        entries_over_cap: job.parsed.entries_over_cap,
    };
    drop(state);
    feed_done(shared, &job.feed, outcome);
    Ok(())
}

fn entry_title(entry: &Entry) -> &str {
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

fn run_page(shared: &Shared<'_>, job: &Arc<FeedJob>, index: usize) -> Result<(), RefreshError> {
    let entry = &job.parsed.entries[index];
    let entry_ref = EntryRef {
        feed: job.feed.id,
        identity: &entry.identity,
    };
    let error = process_entry(shared, job, index, &entry_ref)?;
    (shared.on_event)(Event::PageDone {
        feed: job.feed.id,
        title: entry_title(entry).to_string(),
        error,
    });
    let last = {
        let mut state = lock_job(job);
        state.pages_left -= 1;
        state.pages_left == 0
    };
    if last {
        finish_pages(shared, job)?;
    }
    Ok(())
}

/// Fetches and ingests one entry's page; returns the page error, if any.
fn process_entry(
    shared: &Shared<'_>,
    job: &Arc<FeedJob>,
    index: usize,
    entry_ref: &EntryRef<'_>,
) -> Result<Option<String>, RefreshError> {
    let entry = &job.parsed.entries[index];
    let now = unix_now();
    let Some(link) = entry.link.as_deref() else {
        return store_failed(shared, job, index, entry_ref, "the entry has no link").map(Some);
    };
    let retry = job.retries.get(&index).copied();
    // The same article already came through another feed (or earlier in this one). (A retried
    // entry's own failed item has this link too: it is completed instead.)
    let existing = match retry {
        Some(_) => None,
        None => shared.db()?.item_by_link(link)?,
    };
    if let Some(item) = existing {
        shared.db()?.entry_link(entry_ref, item)?;
        lock_job(job).linked += 1;
        return Ok(None);
    }
    shared.count(|s| s.page_requests += 1);
    let req = Request {
        url: link,
        max_bytes: limits::MAX_PAGE_BYTES,
        accept: Some("text/html, application/xhtml+xml;q=0.9, */*;q=0.5"),
        ..Request::default()
    };
    let page = match shared.fetcher.get(&req) {
        Ok(Fetched::Body(r)) if is_page(r.mime.as_deref(), &r.body) => r,
        Ok(Fetched::Body(r)) => {
            let msg = format!(
                "the link is not a web page ({})",
                r.mime.as_deref().unwrap_or("?")
            );
            return store_failed(shared, job, index, entry_ref, &msg).map(Some);
        }
        Ok(Fetched::NotModified) => {
            return store_failed(shared, job, index, entry_ref, "unexpected 304 for a page")
                .map(Some);
        }
        Err(e) => return store_failed(shared, job, index, entry_ref, &e.to_string()).map(Some),
    };
    let evidence = evidence_text(shared, job, index)?;
    let doc = Document {
        bytes: &page.body,
        declared_charset: page.content_type.as_deref(),
        url: Some(&page.url),
        title: entry.title.as_deref(),
        time: now,
        entry_text: evidence.as_deref(),
    };
    // Parsed here, in parallel with the other workers; only the insert takes the connection.
    let ingested = shared.engine.reopen(&doc, None).and_then(|mut opened| {
        let mut store = shared.db().map_err(ExtractError::from)?;
        shared.engine.insert(&mut store, &mut opened, now)?;
        Ok(opened)
    });
    let ingested = match ingested {
        Ok(i) => i,
        // A response URL that makes no URL key (e.g. too long) cannot join a tree; the page is
        // still worth reading, so it is classified on its own.
        Err(ExtractError::UrlKey(e)) => {
            let msg = format!("no URL key for {}: {e}", page.url);
            return store_failed(shared, job, index, entry_ref, &msg).map(Some);
        }
        Err(e) => return Err(e.into()),
    };
    // (The lookup is bound first: a guard in an `if let` would still be held in its body.)
    let stored = match (&ingested.key, ingested.duplicate) {
        (Some(key), true) => shared.db()?.item_by_key(&key.domain, &key.key)?,
        _ => None,
    };
    if let Some(item) = stored {
        match retry {
            Some(failed) => shared.db()?.item_merge_failed(failed, item)?,
            None => shared.db()?.entry_link(entry_ref, item)?,
        }
        lock_job(job).linked += 1;
        return Ok(None);
    }
    let bytes = PageBytes::compress(&page.body)?;
    let meta = PageMeta {
        url: page.url,
        content_type: page.content_type,
    };
    drop(page.body);
    let staged = Staged {
        entry: index,
        page: meta,
        held: Held::new(&shared.held, bytes.compressed_len()),
        bytes,
        tree_doc: ingested.doc,
    };
    if job.new_feed {
        // Classified once the whole feed is in the tree (finish_pages); the page waits compressed.
        drop(ingested);
        lock_job(job).staged.push(staged);
        return Ok(None);
    }
    classify_and_store(shared, job, staged, Some(ingested))?;
    Ok(None)
}

fn store_failed(
    shared: &Shared<'_>,
    job: &FeedJob,
    index: usize,
    entry_ref: &EntryRef<'_>,
    error: &str,
) -> Result<String, RefreshError> {
    let entry = &job.parsed.entries[index];
    match job.retries.get(&index) {
        // Failed again: the item keeps its summary; the attempt is counted.
        Some(&failed) => shared.db()?.item_retry_failed(failed, error)?,
        None => {
            let text = entry
                .summary
                .as_deref()
                .map(feeds::html_fragment_text)
                .unwrap_or_default();
            shared.db()?.item_store_failed(
                entry_ref,
                &new_item(entry, unix_now()),
                &text,
                error,
            )?;
            // A new item all the same, readable from the feed's summary.
            lock_job(job).new_items += 1;
        }
    }
    lock_job(job).page_errors += 1;
    Ok(error.to_string())
}

/// Classifies an ingested page (parsing it again when it was staged) and stores the item, or,
/// when it keeps images not stored yet, queues their downloads and stores it after the last.
/// The feed's text the classification of entry `index`'s page takes as evidence: the entry's
/// summary, or, when the page completes an item stored earlier (a retry), the summary that item
/// keeps. Reading classifies the stored page again with the stored summary, so the text stored
/// now and every later reading agree, whichever feed's entry completed the item.
fn evidence_text(
    shared: &Shared<'_>,
    job: &FeedJob,
    index: usize,
) -> Result<Option<String>, RefreshError> {
    if let Some(&failed) = job.retries.get(&index) {
        return Ok(shared.db()?.item(failed)?.and_then(|item| item.summary));
    }
    Ok(job
        .parsed
        .entries
        .get(index)
        .and_then(|e| e.summary.clone()))
}

fn classify_and_store(
    shared: &Shared<'_>,
    job: &Arc<FeedJob>,
    staged: Staged,
    ingested: Option<Ingested>,
) -> Result<(), RefreshError> {
    let Staged {
        entry: index,
        page,
        bytes,
        tree_doc,
        held,
    } = staged;
    let entry = &job.parsed.entries[index];
    let engine = shared.engine;
    let ingested = match ingested {
        Some(i) => i,
        None => {
            let raw = bytes.decompress()?;
            let evidence = evidence_text(shared, job, index)?;
            engine.reopen(
                &Document {
                    bytes: &raw,
                    declared_charset: page.content_type.as_deref(),
                    url: Some(&page.url),
                    title: entry.title.as_deref(),
                    time: unix_now(),
                    entry_text: evidence.as_deref(),
                },
                tree_doc,
            )?
        }
    };
    let labels = engine.classify(&*shared.db()?, &ingested, Method::default_method())?;
    let text = classify::content_text(&ingested.page, &labels);
    let page_level = Some(ingested.page_level.labels.as_slice());
    let blocks = classify::labelled::encode(&ingested.page, Some(&page.url), &labels, page_level);
    let mut known_images = Vec::new();
    let mut to_fetch = Vec::new();
    if shared.options.images {
        let mut seen = HashSet::new();
        let urls = ingested
            .page
            .blocks
            .iter()
            .zip(&labels)
            .filter(|(b, l)| l.is_content() && b.kind == BlockKind::Image)
            .filter_map(|(b, _)| b.image.as_ref().map(|i| i.src.clone()))
            .filter(|src| crate::safety::fetchable_url(src, None).is_some())
            .filter(|src| seen.insert(src.clone()))
            .take(limits::MAX_ARTICLE_IMAGES);
        for url in urls {
            let claimed_now = shared
                .images_claimed
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(url.clone());
            if !claimed_now || shared.db()?.image_known(&url)? {
                known_images.push(url);
            } else {
                to_fetch.push(url);
            }
        }
    }
    let (domain, url_key) = match &ingested.key {
        Some(k) => (k.domain.clone(), k.key.clone()),
        None => (String::new(), page.url.clone()),
    };
    drop(ingested);
    let article = Article {
        _held: held,
        page,
        bytes,
        tree_doc,
        blocks,
        text,
        domain,
        url_key,
        known_images,
    };
    if to_fetch.is_empty() {
        return store_article(shared, job, index, &article, &[]);
    }
    let batch = Arc::new(ImageBatch {
        job: Arc::clone(job),
        entry: index,
        article,
        state: Mutex::new(BatchState {
            left: to_fetch.len(),
            budget: limits::MAX_ARTICLE_IMAGE_BYTES,
            images: Vec::new(),
        }),
    });
    lock_job(job).batches_left += 1;
    let mut q = shared.lock();
    for url in to_fetch {
        let host = host_of(&url);
        q.images.push_back((Arc::clone(&batch), url, host));
    }
    Ok(())
}

fn store_article(
    shared: &Shared<'_>,
    job: &FeedJob,
    index: usize,
    a: &Article,
    images: &[NewImage],
) -> Result<(), RefreshError> {
    let entry = &job.parsed.entries[index];
    let entry_ref = EntryRef {
        feed: job.feed.id,
        identity: &entry.identity,
    };
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
    let stored = match job.retries.get(&index) {
        Some(&failed) => shared
            .db()?
            .item_retry_stored(failed, &article, unix_now())?,
        None => shared
            .db()?
            .item_store(&entry_ref, &new_item(entry, unix_now()), &article)?,
    };
    match stored {
        Stored::New(_) => lock_job(job).new_items += 1,
        Stored::Linked(_) => lock_job(job).linked += 1,
    }
    Ok(())
}

fn lock_batch(batch: &ImageBatch) -> MutexGuard<'_, BatchState> {
    batch.state.lock().unwrap_or_else(|e| e.into_inner())
}

/// Downloads one image of an article, within the per-image cap and what is left of the
/// article's budget; the article is stored with its images after the last one. Failures are
/// stored too, so that they are not tried again.
fn run_image(shared: &Shared<'_>, batch: &Arc<ImageBatch>, url: &str) -> Result<(), RefreshError> {
    let budget = lock_batch(batch).budget;
    let (content_type, data) = if budget == 0 {
        (None, Err("over the article's image budget".to_string()))
    } else {
        shared.count(|s| s.image_requests += 1);
        let req = Request {
            url,
            max_bytes: limits::MAX_IMAGE_BYTES.min(budget),
            accept: Some("image/*"),
            ..Request::default()
        };
        match shared.fetcher.get(&req) {
            Ok(Fetched::Body(r)) if r.mime.as_deref().is_some_and(|m| m.starts_with("image/")) => {
                (r.content_type, Ok(r.body))
            }
            Ok(Fetched::Body(r)) => (
                r.content_type.clone(),
                Err(format!(
                    "not an image ({})",
                    r.mime.as_deref().unwrap_or("no content type")
                )),
            ),
            Ok(Fetched::NotModified) => (None, Err("unexpected 304".to_string())),
            Err(FetchError::TooLarge(_)) if budget < limits::MAX_IMAGE_BYTES => {
                (None, Err("over the article's image budget".to_string()))
            }
            Err(e) => (None, Err(e.to_string())),
        }
    };
    let done = {
        let mut state = lock_batch(batch);
        if let Ok(bytes) = &data {
            state.budget = state.budget.saturating_sub(bytes.len() as u64);
        }
        state.images.push(NewImage {
            url: url.to_string(),
            content_type,
            data,
        });
        state.left -= 1;
        (state.left == 0).then(|| std::mem::take(&mut state.images))
    };
    let Some(images) = done else {
        return Ok(());
    };
    store_article(shared, &batch.job, batch.entry, &batch.article, &images)?;
    lock_job(&batch.job).batches_left -= 1;
    try_complete(shared, &batch.job)
}

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
