//! Which fetch goes next, and the workers that run them. Work is a queue of tasks (a feed to
//! fetch, an entry's page, an image); each worker takes the first task whose host may be asked
//! now, as the hosts' politeness book ([`crate::politeness`]) says, so a slow or rate-limiting site
//! never holds up the others. The choice ([`Queue::pick`]) is a pure function of the queue, the
//! book and the clock. A feed whose server asked to be left alone (a `Retry-After` kept from an
//! earlier run) is not queued at all.
//!
//! The scheduler also keeps the books: each feed's pages left and counts, the summary, the bytes
//! held, and the refresh's one connection, whose writes a committer thread commits in batches.
//! What happens to a feed or an entry is [`super::pipeline`]'s.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use url::Url;

use crate::extract::Engine;
use crate::feeds::ParsedFeed;
use crate::fetch::{self, Fetcher, Response};
use crate::limits;
use crate::politeness;
use crate::store::{FeedInfo, ItemId, Store, StoreError, Stored, SweepLimits};

use super::images::{self, ImageBatch};
use super::pipeline::{
    self, Classified, Connection, Cx, EntryOutcome, EntryWork, FeedRead, Requests, Staged,
};
use super::{Event, FeedOutcome, RefreshError, RefreshOptions, Summary, unix_now};

/// Tasks waiting, each with the politeness key of the host it asks, and the tasks running.
/// Generic over what a task carries, so that its choices can be tested on their own.
pub(super) struct Queue<F, P, I> {
    feeds: VecDeque<(F, String)>,
    pages: VecDeque<(P, String)>,
    images: VecDeque<(I, String)>,
    /// Tasks taken and not finished.
    running: usize,
    /// Feeds taken whose pages are not all done.
    feeds_in_flight: usize,
}

/// What a worker does next.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Pick<F, P, I> {
    /// Fetch a feed.
    Feed(F),
    /// Fetch an entry's page.
    Page(P),
    /// Download an image.
    Image(I),
    /// Nothing may start now: ask again at this instant (`None`: when a task ends).
    Wait(Option<Instant>),
    /// Nothing is left or running: the refresh is over.
    Done,
}

impl<F, P, I> Queue<F, P, I> {
    /// An empty queue.
    pub(super) fn new() -> Self {
        Queue {
            feeds: VecDeque::new(),
            pages: VecDeque::new(),
            images: VecDeque::new(),
            running: 0,
            feeds_in_flight: 0,
        }
    }

    pub(super) fn push_feed(&mut self, feed: F, host: String) {
        self.feeds.push_back((feed, host));
    }

    pub(super) fn push_page(&mut self, page: P, host: String) {
        self.pages.push_back((page, host));
    }

    pub(super) fn push_image(&mut self, image: I, host: String) {
        self.images.push_back((image, host));
    }

    /// A task taken by [`Queue::pick`] has ended.
    pub(super) fn task_done(&mut self) {
        self.running = self.running.saturating_sub(1);
    }

    /// A feed taken by [`Queue::pick`] is done with (its pages too).
    pub(super) fn feed_done(&mut self) {
        self.feeds_in_flight = self.feeds_in_flight.saturating_sub(1);
    }

    /// The next task, as of the instant `ready_at` answers for (a host's [`HostBook::ready_at`]
    /// at that instant: `None` when the host may be asked). Images go first (they complete
    /// articles), then pages of feeds already taken (they hold memory until done), then new feeds
    /// while fewer than `max_feeds` are in flight and `may_take_feed` (memory allows); within
    /// each, the first whose host is ready, so a host that must wait holds no other back.
    ///
    /// [`HostBook::ready_at`]: crate::politeness::HostBook::ready_at
    pub(super) fn pick(
        &mut self,
        ready_at: impl Fn(&str) -> Option<Instant>,
        max_feeds: usize,
        may_take_feed: bool,
    ) -> Pick<F, P, I> {
        let mut soonest: Option<Instant> = None;
        let mut ready = |host: &str| match ready_at(host) {
            None => true,
            Some(t) => {
                soonest = Some(soonest.map_or(t, |s| s.min(t)));
                false
            }
        };
        if let Some(i) = self.images.iter().position(|(_, host)| ready(host))
            && let Some((image, _)) = self.images.remove(i)
        {
            self.running += 1;
            return Pick::Image(image);
        }
        if let Some(i) = self.pages.iter().position(|(_, host)| ready(host))
            && let Some((page, _)) = self.pages.remove(i)
        {
            self.running += 1;
            return Pick::Page(page);
        }
        if self.feeds_in_flight < max_feeds
            && may_take_feed
            && let Some(i) = self.feeds.iter().position(|(_, host)| ready(host))
            && let Some((feed, _)) = self.feeds.remove(i)
        {
            self.running += 1;
            self.feeds_in_flight += 1;
            return Pick::Feed(feed);
        }
        if self.feeds.is_empty() && self.pages.is_empty() && self.images.is_empty() {
            if self.running == 0 {
                return Pick::Done;
            }
            return Pick::Wait(None);
        }
        Pick::Wait(soonest)
    }
}

/// The politeness key of a URL (empty when it does not parse: such a task fails at once).
fn host_of(url: &str) -> String {
    Url::parse(url)
        .map(|u| fetch::host_key(&u))
        .unwrap_or_default()
}

type TaskQueue = Queue<FeedInfo, (Arc<FeedJob>, usize), (Arc<ImageBatch>, String)>;

/// What the workers share under one lock: the queue and how the refresh is going.
struct Board {
    queue: TaskQueue,
    summary: Summary,
    fatal: Option<RefreshError>,
    /// A worker panicked (a bug): the others stop instead of waiting for its task forever,
    /// and the panic goes on up once they are joined.
    worker_panicked: bool,
}

/// One feed's work in progress.
pub(super) struct FeedJob {
    feed: FeedInfo,
    /// A feed never fetched before: all its entries go into the tree before any is classified.
    new_feed: bool,
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

impl FeedJob {
    fn lock(&self) -> MutexGuard<'_, JobState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn work(&self, index: usize) -> EntryWork<'_> {
        EntryWork {
            feed: self.feed.id,
            entry: &self.parsed.entries[index],
            index,
            retry: self.retries.get(&index).copied(),
            new_feed: self.new_feed,
        }
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
    board: Mutex<Board>,
    wake: Condvar,
    held: Arc<AtomicUsize>,
    requests: Requests,
    /// Image URLs some article of this run has queued: each is downloaded once, whichever
    /// articles keep it.
    images_claimed: Mutex<HashSet<String>>,
    on_event: &'a (dyn Fn(Event) + Sync),
}

impl Connection for Shared<'_> {
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
}

impl Shared<'_> {
    fn lock(&self) -> MutexGuard<'_, Board> {
        // The board holds plain data; a panicking worker leaves it usable.
        self.board.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn cx(&self) -> Cx<'_> {
        Cx {
            engine: self.engine,
            fetcher: &self.fetcher,
            conn: self,
            held: &self.held,
            requests: &self.requests,
            images: self.options.images,
        }
    }
}

/// Counts a running task until it ends, however it ends: a task that panics still ends, and
/// tells the other workers to stop.
struct Running<'s, 'a> {
    shared: &'s Shared<'a>,
}

impl Drop for Running<'_, '_> {
    fn drop(&mut self) {
        let mut b = self.shared.lock();
        b.queue.task_done();
        if std::thread::panicking() {
            b.worker_panicked = true;
        }
        drop(b);
        self.shared.wake.notify_all();
    }
}

/// Runs the refresh of `feeds` on `store`: queues every feed not deferred by its server, runs
/// the workers and the committer, and commits what they stored.
pub(super) fn run(
    store: Store,
    engine: &Engine,
    options: &RefreshOptions,
    feeds: Vec<FeedInfo>,
    on_event: &(dyn Fn(Event) + Sync),
) -> Result<Summary, RefreshError> {
    let now = unix_now();
    let mut summary = Summary::default();
    let mut queue = Queue::new();
    for feed in feeds {
        match politeness::feed_deferred_until(feed.retry_after, now) {
            Some(until) => {
                summary.feeds_deferred += 1;
                on_event(Event::FeedDone {
                    feed: feed.id,
                    url: feed.url.clone(),
                    outcome: FeedOutcome::Deferred { until },
                });
            }
            None => {
                let host = host_of(&feed.url);
                queue.push_feed(feed, host);
            }
        }
    }
    let shared = Shared {
        store: Mutex::new(store),
        engine,
        fetcher: Fetcher::new(options.fetch.clone()),
        options,
        board: Mutex::new(Board {
            queue,
            summary,
            fatal: None,
            worker_panicked: false,
        }),
        wake: Condvar::new(),
        held: Arc::new(AtomicUsize::new(0)),
        requests: Requests::default(),
        images_claimed: Mutex::new(HashSet::new()),
        on_event,
    };
    shared.db()?.begin_batch();
    let jobs = options.jobs.max(1);
    let workers_done = AtomicBool::new(false);
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
    let requests = shared.requests;
    let mut board = shared.board.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut store = shared.store.into_inner().unwrap_or_else(|e| e.into_inner());
    // Even after a fatal error: every write in the batch is whole (each ran in its own
    // savepoint), and committing them keeps what the refresh fetched.
    if let Err(e) = store.commit_batch() {
        board.fatal.get_or_insert(e.into());
    }
    // A worker's panic is a bug: it goes on up, as it did before the workers were joined by hand.
    if let Some(payload) = panicked {
        std::panic::resume_unwind(payload);
    }
    if board.fatal.is_none() {
        // Retention, in bounded steps, once the new items are in: what is past its period goes
        // (the rest at the next refresh), then the log is emptied.
        let policy = store.retention()?;
        let swept =
            store.retention_sweep(&policy, &engine.window, unix_now(), &SweepLimits::default())?;
        board.summary.expired_items = swept.items_deleted;
        board.summary.dropped_pages = swept.pages_dropped;
        // Rows written in an older form of the index are brought to the current one, a batch a
        // refresh. A failure there (the database could not read or write the rows) leaves the
        // older rows searchable as they were and is said in the summary; the refresh itself did
        // its work.
        match store.reindex_search(crate::limits::SEARCH_REINDEX_BATCH) {
            Ok(rewritten) => board.summary.search_rows_rewritten = rewritten,
            Err(e) => board.summary.search_upkeep_error = Some(e.to_string()),
        }
        store.checkpoint()?;
    }
    match board.fatal {
        Some(e) => Err(e),
        None => {
            let mut summary = board.summary;
            summary.feed_requests = requests.feeds.into_inner();
            summary.conditional_requests = requests.conditional.into_inner();
            summary.page_requests = requests.pages.into_inner();
            summary.image_requests = requests.images.into_inner();
            Ok(summary)
        }
    }
}

/// Commits the refresh's batch once it is old enough while the workers are busy elsewhere
/// (fetching, parsing), so that what the refresh stored reaches other connections, such as the
/// window's, within about `limits::REFRESH_BATCH_AGE`, and their writes are not kept waiting.
fn committer(shared: &Shared<'_>, workers_done: &AtomicBool) {
    loop {
        {
            let b = shared.lock();
            if workers_done.load(Ordering::SeqCst) || b.fatal.is_some() || b.worker_panicked {
                return;
            }
            let _ = shared
                .wake
                .wait_timeout(b, limits::REFRESH_BATCH_AGE / 2)
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
    let max_feeds = shared.options.jobs.max(1) * 32;
    loop {
        let task = {
            let mut b = shared.lock();
            loop {
                if b.fatal.is_some() || b.worker_panicked {
                    shared.wake.notify_all();
                    return;
                }
                let now = Instant::now();
                let may_take_feed =
                    shared.held.load(Ordering::SeqCst) < limits::MAX_REFRESH_HELD_BYTES;
                let ready_at = |host: &str| shared.fetcher.host_ready_at(host, now);
                let wait = match b.queue.pick(ready_at, max_feeds, may_take_feed) {
                    Pick::Done => {
                        shared.wake.notify_all();
                        return;
                    }
                    Pick::Wait(at) => at
                        .map(|t| t.saturating_duration_since(now))
                        .unwrap_or(Duration::from_millis(200))
                        .clamp(Duration::from_millis(1), Duration::from_millis(200)),
                    task => break task,
                };
                b = shared
                    .wake
                    .wait_timeout(b, wait)
                    .unwrap_or_else(|e| e.into_inner())
                    .0;
            }
        };
        let running = Running { shared };
        let result = match task {
            Pick::Feed(feed) => run_feed(shared, feed),
            Pick::Page((job, entry)) => run_page(shared, &job, entry),
            Pick::Image((batch, url)) => run_image(shared, &batch, &url),
            Pick::Wait(_) | Pick::Done => Ok(()),
        };
        if let Err(e) = result {
            shared.lock().fatal.get_or_insert(e);
        }
        drop(running);
    }
}

fn feed_done(shared: &Shared<'_>, feed: &FeedInfo, outcome: FeedOutcome) {
    {
        let mut b = shared.lock();
        b.queue.feed_done();
        let s = &mut b.summary;
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

/// Reads a feed and queues the pages of its entries to fetch.
fn run_feed(shared: &Shared<'_>, feed: FeedInfo) -> Result<(), RefreshError> {
    let entries = match pipeline::read_feed(&shared.cx(), &feed)? {
        FeedRead::Done(outcome) => {
            feed_done(shared, &feed, outcome);
            return Ok(());
        }
        FeedRead::Entries(entries) => *entries,
    };
    let fresh = entries.fresh;
    let job = Arc::new(FeedJob {
        retries: entries.retries,
        new_feed: feed.last_ok.is_none(),
        feed,
        parsed: entries.parsed,
        response: entries.response,
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
    let mut b = shared.lock();
    for i in fresh {
        let host = job.parsed.entries[i]
            .link
            .as_deref()
            .map(host_of)
            .unwrap_or_default();
        b.queue.push_page((Arc::clone(&job), i), host);
    }
    Ok(())
}

/// Processes one entry's page and counts what became of it.
fn run_page(shared: &Shared<'_>, job: &Arc<FeedJob>, index: usize) -> Result<(), RefreshError> {
    let work = job.work(index);
    let error = match pipeline::process_entry(&shared.cx(), &work)? {
        EntryOutcome::Linked => {
            job.lock().linked += 1;
            None
        }
        EntryOutcome::Failed { error, new_item } => {
            let mut state = job.lock();
            // A new item all the same, readable from the feed's summary.
            state.new_items += usize::from(new_item);
            state.page_errors += 1;
            Some(error)
        }
        EntryOutcome::Staged(staged) => {
            job.lock().staged.push(staged);
            None
        }
        EntryOutcome::Classified(classified) => {
            store_or_fetch_images(shared, job, index, classified)?;
            None
        }
    };
    (shared.on_event)(Event::PageDone {
        feed: job.feed.id,
        title: pipeline::entry_title(work.entry).to_string(),
        error,
    });
    let last = {
        let mut state = job.lock();
        state.pages_left -= 1;
        state.pages_left == 0
    };
    if last {
        finish_pages(shared, job)?;
    }
    Ok(())
}

/// Stores a classified article at once when it keeps no image to download, or queues the
/// downloads, after the last of which it is stored.
fn store_or_fetch_images(
    shared: &Shared<'_>,
    job: &Arc<FeedJob>,
    index: usize,
    classified: Classified,
) -> Result<(), RefreshError> {
    let Classified {
        mut article,
        images,
    } = classified;
    let (known, to_fetch) = images::claim(shared, &shared.images_claimed, images)?;
    article.known_images = known;
    if to_fetch.is_empty() {
        let stored = pipeline::store_article(&shared.cx(), &job.work(index), &article, &[])?;
        count_stored(job, stored);
        return Ok(());
    }
    let batch = Arc::new(ImageBatch::new(
        Arc::clone(job),
        index,
        article,
        to_fetch.len(),
    ));
    job.lock().batches_left += 1;
    let mut b = shared.lock();
    for url in to_fetch {
        let host = host_of(&url);
        b.queue.push_image((Arc::clone(&batch), url), host);
    }
    Ok(())
}

fn count_stored(job: &FeedJob, stored: Stored) {
    match stored {
        Stored::New(_) => job.lock().new_items += 1,
        Stored::Linked(_) => job.lock().linked += 1,
    }
}

/// Downloads one image; after an article's last, stores the article.
fn run_image(shared: &Shared<'_>, batch: &ImageBatch, url: &str) -> Result<(), RefreshError> {
    let cx = shared.cx();
    let Some(images) = images::download(&cx, batch, url) else {
        return Ok(());
    };
    let job = &batch.job;
    let stored = pipeline::store_article(&cx, &job.work(batch.entry), &batch.article, &images)?;
    count_stored(job, stored);
    job.lock().batches_left -= 1;
    try_complete(shared, job)
}

/// Once a feed's pages are all in (and so, for a new feed, all in the tree), its staged pages
/// are classified.
fn finish_pages(shared: &Shared<'_>, job: &Arc<FeedJob>) -> Result<(), RefreshError> {
    let staged = std::mem::take(&mut job.lock().staged);
    for s in staged {
        let index = s.entry;
        let classified = pipeline::classify(&shared.cx(), &job.work(index), s, None)?;
        store_or_fetch_images(shared, job, index, classified)?;
    }
    job.lock().staging_done = true;
    try_complete(shared, job)
}

/// Completes a feed whose work is all done. The validators are recorded only then: a refresh
/// killed half-way must not leave a feed that answers 304 while some of its entries were never
/// fetched.
fn try_complete(shared: &Shared<'_>, job: &FeedJob) -> Result<(), RefreshError> {
    {
        let mut state = job.lock();
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
    let state = job.lock();
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

#[cfg(test)]
mod tests;
