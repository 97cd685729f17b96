//! Everything slow happens here, off the UI thread: one database thread with its own connection
//! answers the window's questions in order, and every network job (refresh, subscribe) runs on a
//! thread of its own with its own connections. Each reply wakes the window
//! (`Context::request_repaint`), so a frame never waits on disk or network.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::Duration;

use crate::extract::Engine;
use crate::fetch::FetchConfig;
use crate::reading::{self, Article};
use crate::refresh::{self, Event, RefreshOptions};
use crate::store::{
    CheckFailed, FeedId, FeedInfo, ItemFilter, ItemId, ItemRow, ItemScope, Opening, Store,
    StoreError, TreeNodeInfo,
};
use crate::ui::pins::{self, PinRow, PinVerdict};

/// What the window needs to start its workers.
#[derive(Debug, Clone)]
pub struct Config {
    /// The database file.
    pub db: PathBuf,
    /// The engine (query rules, history window) used to classify.
    pub engine: Engine,
    /// HTTP settings for refresh and subscribe.
    pub fetch: FetchConfig,
    /// Refresh worker threads.
    pub jobs: usize,
    /// Whether a refresh downloads the images articles keep.
    pub images: bool,
    /// Where the OPML file to import or export comes from: the system's file dialog, or what a
    /// test puts in its place.
    pub file_picker: Arc<dyn FilePicker>,
    /// Called on the checking thread just before the database's integrity check runs: a test
    /// holds the check here to see what the window does meanwhile. `None` outside tests.
    pub before_check: Option<Hook>,
}

impl Config {
    /// Settings for `db` with the default engine and HTTP client.
    pub fn new(db: PathBuf) -> Config {
        Config {
            db,
            engine: Engine::default(),
            fetch: FetchConfig::default(),
            jobs: 4,
            images: true,
            file_picker: Arc::new(SystemFilePicker),
            before_check: None,
        }
    }
}

/// A function a test gives the window to be called at a given point (see
/// [`Config::before_check`]).
#[derive(Clone)]
pub struct Hook(pub Arc<dyn Fn() + Send + Sync>);

impl std::fmt::Debug for Hook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Hook")
    }
}

/// What a file is picked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PickFor {
    /// An OPML file to import.
    ImportOpml,
    /// Where to write the subscriptions' OPML file.
    ExportOpml,
}

/// Asks the user for a file. Runs on a thread of its own (it may wait for the user as long as
/// they like), never on the window's.
pub trait FilePicker: Send + Sync + std::fmt::Debug {
    /// The file chosen, or `None` when none was (cancelled, or no dialog could be shown).
    fn pick(&self, purpose: PickFor) -> Option<PathBuf>;
}

/// The system's file dialog through `rfd`: on Linux the desktop portal over D-Bus (libdbus,
/// loaded at run time), else `zenity`.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemFilePicker;

impl FilePicker for SystemFilePicker {
    fn pick(&self, purpose: PickFor) -> Option<PathBuf> {
        // rfd returns `None` both when the user cancels and when there is no portal and no
        // zenity (it only logs the latter), so the window cannot tell the two apart: its message
        // covers both.
        let dialog = rfd::FileDialog::new().add_filter("OPML", &["opml", "xml"]);
        match purpose {
            PickFor::ImportOpml => dialog.set_title("Import subscriptions (OPML)").pick_file(),
            PickFor::ExportOpml => dialog
                .set_title("Export subscriptions (OPML)")
                .set_file_name("pith-subscriptions.opml")
                .save_file(),
        }
    }
}

/// A question for the database thread. Every job gets exactly one [`Reply`].
#[derive(Debug, Clone)]
pub enum Job {
    /// The subscriptions with their counts.
    Feeds,
    /// An item list; `generation` lets the window drop answers to questions it no longer asks.
    Items {
        /// Which items.
        filter: ItemFilter,
        /// The window's list generation.
        generation: u64,
    },
    /// Full-text search results as list rows, best first.
    Search {
        /// The words.
        query: String,
        /// The window's list generation.
        generation: u64,
    },
    /// Open an article (classified now), decode its stored images, and mark it read.
    Open {
        /// The item.
        id: ItemId,
        /// Mark it read once opened.
        mark_read: bool,
    },
    /// Mark one item read or unread.
    SetRead {
        /// The item.
        id: ItemId,
        /// Read or unread.
        read: bool,
    },
    /// Star or unstar.
    ToggleStar {
        /// The item.
        id: ItemId,
    },
    /// A site's URL Tree.
    Tree {
        /// Its registrable domain.
        domain: String,
    },
    /// Pins of one site.
    Pins {
        /// The registrable domain.
        domain: String,
    },
    /// Pin a block of a site, then reopen the article so the new label shows.
    PinAdd {
        /// The registrable domain.
        domain: String,
        /// The block.
        hash: crate::page::BlockHash,
        /// Always content or always boilerplate.
        verdict: PinVerdict,
        /// The block's text, to show in the list of pins.
        text: String,
        /// The article to reopen.
        reopen: ItemId,
    },
    /// Remove a pin, then reopen the article.
    PinRemove {
        /// The pin.
        id: i64,
        /// Its site.
        domain: String,
        /// The article to reopen.
        reopen: Option<ItemId>,
    },
    /// Subscribe to every feed of an OPML file.
    ImportOpml {
        /// The file.
        path: PathBuf,
    },
    /// Read the window's settings named in `keys`.
    Settings {
        /// The settings' names.
        keys: Vec<&'static str>,
    },
    /// Store one of the window's settings.
    SaveSetting {
        /// Its name.
        key: &'static str,
        /// Its value.
        value: String,
    },
    /// Change subscriptions or read marks (unsubscribe, rename, mark read).
    Manage(Manage),
}

impl Job {
    /// Whether the job writes to the database (and so waits for its check to pass). Opening an
    /// article that marks it read is not: it is answered at once, and the mark waits.
    fn writes(&self) -> bool {
        match self {
            Job::SetRead { .. }
            | Job::ToggleStar { .. }
            | Job::PinAdd { .. }
            | Job::PinRemove { .. }
            | Job::ImportOpml { .. }
            | Job::SaveSetting { .. } => true,
            // An export reads the database and writes another file.
            Job::Manage(change) => !matches!(change, Manage::ExportOpml(_)),
            Job::Feeds
            | Job::Items { .. }
            | Job::Search { .. }
            | Job::Open { .. }
            | Job::Tree { .. }
            | Job::Pins { .. }
            | Job::Settings { .. } => false,
        }
    }
}

/// What the database thread is told: a job, or the outcome of the file's integrity check.
enum ToDb {
    Job(Job),
    Checked(Result<(), CheckFailed>),
    /// The check ended without an outcome (it panicked): why, in words.
    CheckStopped(String),
}

/// A write held back until the file's check passes.
enum Later {
    /// A job, answered when it runs.
    Job(Job),
    /// Marking an opened article read (its [`Job::Open`] was answered already).
    MarkRead(ItemId),
}

/// A change to the subscriptions or their read marks, made from the feeds pane.
#[derive(Debug, Clone)]
pub enum Manage {
    /// Unsubscribe (items no other feed lists go with it).
    Unsubscribe(FeedId),
    /// The user's own name for a feed (`None`: back to its title).
    Rename(FeedId, Option<String>),
    /// Put a feed in a folder, a path as [`crate::feeds::folder_path`] keeps it (`None`: the top
    /// level).
    Move(FeedId, Option<String>),
    /// Mark every item in scope read.
    MarkRead(ItemScope),
    /// Mark every item of these feeds read (a folder).
    MarkFeedsRead(Vec<FeedId>),
    /// Write every subscription, in its folders, to an OPML file.
    ExportOpml(PathBuf),
}

/// An image decoded for display.
pub struct DecodedImage {
    /// The image URL (as the page's block names it).
    pub url: String,
    /// Pixels, at most [`MAX_IMAGE_SIDE`] on a side.
    pub image: egui::ColorImage,
}

impl std::fmt::Debug for DecodedImage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "DecodedImage({}, {:?})", self.url, self.image.size)
    }
}

/// Images are shrunk to this many pixels on their longer side before they reach the GPU.
pub const MAX_IMAGE_SIDE: u32 = 1600;

/// An answer, or news from a network job.
#[derive(Debug)]
pub enum Reply {
    /// The database's integrity check passed (or it was checked before it was opened): from
    /// now on the window may write (refresh, subscribe). Sent once, after the replies to the
    /// writes held for the check (done by then), not an answer to a job.
    CheckPassed,
    /// A file picked for `purpose` (not an answer to a job): `None` when none was.
    Picked {
        /// What it was picked for.
        purpose: PickFor,
        /// The file.
        path: Option<PathBuf>,
    },
    /// The database could not be opened, or its check found it damaged: sent once, before any
    /// job's own failure. Not an answer to a job.
    StoreUnavailable {
        /// Why, in full (where a damaged file went).
        message: String,
        /// Whether opening again gives a new, empty database: the damaged file was moved aside.
        /// A file that is not a database, or a missing folder, stays as it is: no fresh start.
        fresh_start: bool,
        /// Whether a backup may be put in place: not over a file that is not a database (a
        /// restore moves the file in place aside), nor into a missing folder.
        restorable: bool,
    },
    /// For [`Job::Feeds`].
    Feeds(Result<Vec<FeedInfo>, String>),
    /// For [`Job::Items`] and [`Job::Search`].
    Items {
        /// The generation asked for.
        generation: u64,
        /// The rows.
        rows: Result<Vec<ItemRow>, String>,
    },
    /// For [`Job::Open`] (and pin changes, which reopen).
    Opened {
        /// The item asked for.
        id: ItemId,
        /// The article, `None` when the item is gone.
        article: Result<Option<Box<Article>>, String>,
        /// Its stored images, decoded.
        images: Vec<DecodedImage>,
    },
    /// An [`Job::Open`] that a later one made pointless (keys held down).
    Skipped,
    /// For [`Job::SetRead`].
    ReadSet {
        /// The item.
        id: ItemId,
        /// The new state, or the error.
        read: Result<bool, String>,
    },
    /// For [`Job::ToggleStar`].
    Starred {
        /// The item.
        id: ItemId,
        /// The new state, or the error.
        starred: Result<bool, String>,
    },
    /// For [`Job::Tree`].
    Tree {
        /// The domain.
        domain: String,
        /// Its nodes.
        nodes: Result<Vec<TreeNodeInfo>, String>,
    },
    /// For [`Job::Pins`] and after pin changes.
    Pins {
        /// The domain.
        domain: String,
        /// Its pins.
        pins: Result<Vec<PinRow>, String>,
    },
    /// For [`Job::ImportOpml`].
    Imported(Result<(usize, usize), String>),
    /// For [`Job::Settings`]: each name asked for with its stored value, if any.
    Settings(Result<Vec<(&'static str, Option<String>)>, String>),
    /// For [`Job::SaveSetting`].
    Saved(Result<(), String>),
    /// For [`Job::Manage`]: what was done, in words, or why it failed.
    Managed(Result<String, String>),
    /// A refresh's progress (not an answer to a job).
    Refresh(Event),
    /// A refresh ended (not an answer to a job).
    RefreshEnded(Result<refresh::Summary, String>),
    /// A subscription finished (not an answer to a job): the new feed's id, or why it failed.
    Subscribed(Result<FeedId, String>),
}

/// The window's handle on its worker threads.
pub struct Worker {
    jobs: Sender<ToDb>,
    replies: Receiver<Reply>,
    reply_tx: Sender<Reply>,
    config: Config,
    ctx: egui::Context,
}

impl Worker {
    /// Starts the database thread; `ctx` is woken after every reply.
    pub fn start(config: Config, ctx: egui::Context) -> Worker {
        let (jobs, job_rx) = mpsc::channel::<ToDb>();
        let (reply_tx, replies) = mpsc::channel::<Reply>();
        let thread_config = config.clone();
        let thread_ctx = ctx.clone();
        let thread_tx = reply_tx.clone();
        let to_self = jobs.clone();
        // If the thread cannot be spawned, every job's reply is simply never sent; the window
        // shows its pending state rather than crashing.
        let _ = thread::Builder::new()
            .name("pith-db".into())
            .spawn(move || {
                DbThread::open(thread_config, thread_tx, thread_ctx, to_self).run(&job_rx);
            });
        Worker {
            jobs,
            replies,
            reply_tx,
            config,
            ctx,
        }
    }

    /// Queues a job for the database thread. Returns false when the thread is gone.
    pub fn send(&self, job: Job) -> bool {
        self.jobs.send(ToDb::Job(job)).is_ok()
    }

    /// Asks the configured [`FilePicker`] for a file on a thread of its own (a dialog waits for
    /// the user; the frame never does); the answer comes as [`Reply::Picked`].
    pub fn pick_file(&self, purpose: PickFor) {
        let picker = self.config.file_picker.clone();
        let tx = self.reply_tx.clone();
        let ctx = self.ctx.clone();
        let spawned = thread::Builder::new()
            .name("pith-file-dialog".into())
            .spawn(move || {
                // A dialog that panics (a toolkit with no display to show on) still answers:
                // without an answer the window would wait for the dialog, its Browse buttons
                // disabled, for ever.
                let path = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    picker.pick(purpose)
                }))
                .unwrap_or(None);
                let _ = tx.send(Reply::Picked { purpose, path });
                ctx.request_repaint();
            });
        if spawned.is_err() {
            let _ = self.reply_tx.send(Reply::Picked {
                purpose,
                path: None,
            });
        }
    }

    /// The next reply, if one has arrived.
    pub fn try_recv(&self) -> Option<Reply> {
        self.replies.try_recv().ok()
    }

    /// Refreshes the feeds (all, or `only`) on a thread of its own, reporting every event.
    pub fn refresh(&self, only: Option<Vec<FeedId>>) {
        let config = self.config.clone();
        let tx = self.reply_tx.clone();
        let ctx = self.ctx.clone();
        let _ = thread::Builder::new()
            .name("pith-refresh".into())
            .spawn(move || run_refresh(&config, only, &tx, &ctx));
    }

    /// Subscribes to `url` (a feed, or a page naming one) on a thread of its own, then refreshes
    /// the new feed.
    pub fn subscribe(&self, url: String) {
        let config = self.config.clone();
        let tx = self.reply_tx.clone();
        let ctx = self.ctx.clone();
        let _ = thread::Builder::new()
            .name("pith-subscribe".into())
            .spawn(move || {
                let added =
                    Store::open(&config.db)
                        .map_err(|e| e.to_string())
                        .and_then(|mut store| {
                            refresh::subscribe(&mut store, &config.fetch, &url)
                                .map_err(|e| format!("{url}: {e}"))
                        });
                let ok = added.as_ref().map(|a| a.feed).ok();
                let _ = tx.send(Reply::Subscribed(added.map(|a| a.feed)));
                ctx.request_repaint();
                if let Some(feed) = ok {
                    run_refresh(&config, Some(vec![feed]), &tx, &ctx);
                }
            });
    }
}

fn run_refresh(
    config: &Config,
    only: Option<Vec<FeedId>>,
    tx: &Sender<Reply>,
    ctx: &egui::Context,
) {
    let options = RefreshOptions {
        jobs: config.jobs.max(1),
        fetch: config.fetch.clone(),
        feeds: only,
        images: config.images,
    };
    let on_event = |event: Event| {
        let _ = tx.send(Reply::Refresh(event));
        ctx.request_repaint();
    };
    // A bug that panics inside the refresh still ends it for the window, which would otherwise
    // wait for it forever and refuse every later refresh.
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        refresh::refresh(&config.db, &config.engine, &options, &on_event).map_err(|e| e.to_string())
    }))
    .unwrap_or_else(|_| Err("the refresh stopped on a bug (what it stored is kept)".to_string()));
    let _ = tx.send(Reply::RefreshEnded(result));
    ctx.request_repaint();
}

/// How long the database thread waits for the window's first list question before it starts the
/// file's check anyway.
const CHECK_START_WAIT: Duration = Duration::from_millis(300);

/// The database thread's state: its connection (read-only until the file's check passes), the
/// check not yet started, and the writes held back meanwhile.
struct DbThread {
    config: Config,
    tx: Sender<Reply>,
    ctx: egui::Context,
    /// For the checking thread to report back on the thread's own channel; handed to it when the
    /// check starts. Never kept here after that: while this thread held a sender of its own
    /// channel, the channel never closed when the window dropped its [`Worker`], so the thread
    /// (and its connection to the file) lived for ever.
    to_self: Option<Sender<ToDb>>,
    store: Result<Store, String>,
    /// The check, until it is started.
    check: Option<crate::store::IntegrityCheck>,
    /// Whether the check passed: writes go ahead.
    writable: bool,
    held: Vec<Later>,
}

impl DbThread {
    /// Opens the database: read-only with its check to come when it is an existing file, else
    /// checked first as the command line opens it.
    fn open(config: Config, tx: Sender<Reply>, ctx: egui::Context, to_self: Sender<ToDb>) -> Self {
        let mut me = DbThread {
            config,
            tx,
            ctx,
            to_self: Some(to_self),
            store: Err(String::new()),
            check: None,
            writable: false,
            held: Vec::new(),
        };
        match Store::open_check_later(&me.config.db) {
            Ok(Opening::Checked(store)) => {
                me.store = Ok(store);
                me.writable = true;
                me.to_self = None;
                me.say(Reply::CheckPassed);
            }
            Ok(Opening::Unchecked(store, check)) => {
                me.store = Ok(store);
                me.check = Some(check);
            }
            Err(e) => {
                me.store = Err(me.unavailable(&e));
                me.to_self = None;
            }
        }
        me
    }

    fn say(&self, reply: Reply) -> bool {
        let sent = self.tx.send(reply).is_ok();
        self.ctx.request_repaint();
        sent
    }

    /// Tells the window the database cannot be used, and why; the message every job gets then.
    fn unavailable(&self, e: &StoreError) -> String {
        let fresh_start = matches!(
            e,
            StoreError::Damaged {
                moved_to: Some(_),
                ..
            }
        );
        let restorable = !matches!(
            e,
            StoreError::NotADatabase { .. } | StoreError::NoFolder { .. }
        );
        let message = e.to_string();
        self.say(Reply::StoreUnavailable {
            message: message.clone(),
            fresh_start,
            restorable,
        });
        message
    }

    /// The check ended without telling whether the file is sound: nothing may be written, so
    /// the database is closed (the file stays where it is) and the held writes fail. False when
    /// the window is gone.
    fn check_stopped(&mut self, why: String) -> bool {
        let message = format!(
            "{why}; nothing was written to {}, and the file was left as it is. Start pith again to check it again.",
            self.config.db.display()
        );
        self.say(Reply::StoreUnavailable {
            message: message.clone(),
            fresh_start: false,
            restorable: true,
        });
        self.give_up(message)
    }

    /// Starts the file's check on a thread of its own, once.
    fn start_check(&mut self) {
        let (Some(check), Some(to_self)) = (self.check.take(), self.to_self.take()) else {
            return;
        };
        let hook = self.config.before_check.clone();
        let spawned = thread::Builder::new()
            .name("pith-check".into())
            .spawn(move || {
                // A check that panics must still end in an answer: without one, every write
                // would wait for ever and the window would say "checking" for ever.
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    if let Some(Hook(hook)) = hook {
                        hook();
                    }
                    check.run()
                }));
                let _ = to_self.send(match outcome {
                    Ok(outcome) => ToDb::Checked(outcome),
                    Err(_) => ToDb::CheckStopped(
                        "the database's integrity check stopped on a bug".into(),
                    ),
                });
            });
        if spawned.is_err() {
            // No thread for the check: it is not skipped (nothing may write unchecked), and
            // the window is told at once rather than left waiting.
            let _ = self.check_stopped("the database's integrity check could not start".into());
        }
    }

    fn run(mut self, jobs: &Receiver<ToDb>) {
        loop {
            // The check starts once the first list has been answered (it reads the whole file,
            // and the list comes first), or when no question comes for a while.
            let first = if self.check.is_some() {
                match jobs.recv_timeout(CHECK_START_WAIT) {
                    Ok(message) => message,
                    Err(RecvTimeoutError::Timeout) => {
                        self.start_check();
                        continue;
                    }
                    Err(RecvTimeoutError::Disconnected) => return,
                }
            } else {
                match jobs.recv() {
                    Ok(message) => message,
                    Err(_) => return,
                }
            };
            // Everything queued meanwhile is handled in one go, so that only the last of several
            // opens (j held down) does the work.
            let mut batch = vec![first];
            batch.extend(jobs.try_iter());
            let last_open = batch
                .iter()
                .rposition(|m| matches!(m, ToDb::Job(Job::Open { .. })));
            for (i, message) in batch.into_iter().enumerate() {
                let job = match message {
                    ToDb::Checked(outcome) => {
                        if !self.checked(outcome) {
                            return;
                        }
                        continue;
                    }
                    ToDb::CheckStopped(why) => {
                        if !self.check_stopped(why) {
                            return;
                        }
                        continue;
                    }
                    ToDb::Job(job) => job,
                };
                let lists = matches!(job, Job::Items { .. } | Job::Search { .. });
                let reply = match job {
                    Job::Open { .. } if Some(i) != last_open => Some(Reply::Skipped),
                    job => self.job(job),
                };
                if let Some(reply) = reply
                    && !self.say(reply)
                {
                    return;
                }
                if lists {
                    self.start_check();
                }
            }
        }
    }

    /// Answers a job now, or holds it back (`None`) while the file's check has not passed.
    fn job(&mut self, job: Job) -> Option<Reply> {
        let store = match &mut self.store {
            Ok(store) => store,
            Err(e) => return Some(failed(job, e.clone())),
        };
        if self.writable {
            return Some(handle(store, &self.config.engine, job));
        }
        match job {
            Job::Open { id, mark_read } => {
                let reply = open(store, &self.config.engine, id);
                if mark_read && opened(&reply) {
                    self.held.push(Later::MarkRead(id));
                }
                Some(reply)
            }
            job if job.writes() => {
                self.held.push(Later::Job(job));
                None
            }
            job => Some(handle(store, &self.config.engine, job)),
        }
    }

    /// The check's outcome: writes go ahead on a new read-write connection, or the damaged file is
    /// closed and moved aside. False when the window is gone.
    fn checked(&mut self, outcome: Result<(), CheckFailed>) -> bool {
        let failure = match outcome {
            Ok(()) => {
                // Checked now, so this open does not check again; the read-only connection goes.
                match Store::open(&self.config.db) {
                    Ok(store) => {
                        self.store = Ok(store);
                        self.writable = true;
                        for later in std::mem::take(&mut self.held) {
                            let reply = match later {
                                Later::Job(job) => self.job(job),
                                Later::MarkRead(id) => {
                                    if let Ok(store) = &mut self.store {
                                        // As when the open marks it: not worth an error.
                                        let _ = store.set_read(ItemScope::Item(id), true);
                                    }
                                    None
                                }
                            };
                            if let Some(reply) = reply
                                && !self.say(reply)
                            {
                                return false;
                            }
                        }
                        // Only now, with the held writes done in the order they were asked
                        // for: the window starts the refreshes and subscriptions that waited
                        // when it hears this, and they write from connections of their own.
                        return self.say(Reply::CheckPassed);
                    }
                    Err(e) => e,
                }
            }
            Err(CheckFailed::Damaged(damaged)) => {
                // Every connection of this process to the file is closed before it moves: this
                // thread's (no refresh or subscription runs before the check passed).
                self.store = Err(String::new());
                damaged.move_aside()
            }
            Err(CheckFailed::Error(e)) => {
                self.store = Err(String::new());
                e
            }
        };
        let message = self.unavailable(&failure);
        self.give_up(message)
    }

    /// Closes the database for good: every later job, and every write held so far, fails with
    /// `message`. False when the window is gone.
    fn give_up(&mut self, message: String) -> bool {
        self.store = Err(message.clone());
        for later in std::mem::take(&mut self.held) {
            if let Later::Job(job) = later
                && !self.say(failed(job, message.clone()))
            {
                return false;
            }
        }
        true
    }
}

fn opened(reply: &Reply) -> bool {
    matches!(
        reply,
        Reply::Opened {
            article: Ok(Some(_)),
            ..
        }
    )
}

/// The reply a job gets when the database could not be opened.
fn failed(job: Job, e: String) -> Reply {
    match job {
        Job::Feeds | Job::ImportOpml { .. } => Reply::Feeds(Err(e)),
        Job::Items { generation, .. } | Job::Search { generation, .. } => Reply::Items {
            generation,
            rows: Err(e),
        },
        Job::Open { id, .. } => Reply::Opened {
            id,
            article: Err(e),
            images: Vec::new(),
        },
        Job::SetRead { id, .. } => Reply::ReadSet { id, read: Err(e) },
        Job::ToggleStar { id } => Reply::Starred {
            id,
            starred: Err(e),
        },
        Job::Tree { domain } => Reply::Tree {
            domain,
            nodes: Err(e),
        },
        Job::Settings { .. } => Reply::Settings(Err(e)),
        Job::SaveSetting { .. } => Reply::Saved(Err(e)),
        Job::Manage(_) => Reply::Managed(Err(e)),
        Job::Pins { domain } | Job::PinAdd { domain, .. } | Job::PinRemove { domain, .. } => {
            Reply::Pins {
                domain,
                pins: Err(e),
            }
        }
    }
}

fn handle(store: &mut Store, engine: &Engine, job: Job) -> Reply {
    match job {
        Job::Feeds => Reply::Feeds(store.feeds().map_err(|e| e.to_string())),
        Job::Items { filter, generation } => Reply::Items {
            generation,
            rows: store.item_rows(&filter).map_err(|e| e.to_string()),
        },
        Job::Search { query, generation } => Reply::Items {
            generation,
            rows: store
                .search(&query, 500)
                .and_then(|hits| {
                    let ids: Vec<ItemId> = hits.iter().map(|h| h.id).collect();
                    store.item_rows_by_id(&ids)
                })
                .map_err(|e| e.to_string()),
        },
        Job::Open { id, mark_read } => {
            let reply = open(store, engine, id);
            if mark_read && opened(&reply) {
                // A failure to mark read is not worth losing the article over.
                let _ = store.set_read(ItemScope::Item(id), true);
            }
            reply
        }
        Job::SetRead { id, read } => Reply::ReadSet {
            id,
            read: store
                .set_read(ItemScope::Item(id), read)
                .map(|_| read)
                .map_err(|e| e.to_string()),
        },
        Job::ToggleStar { id } => Reply::Starred {
            id,
            starred: match store.toggle_star(id) {
                Ok(Some(s)) => Ok(s),
                Ok(None) => Err(format!("item {id} is gone")),
                Err(e) => Err(e.to_string()),
            },
        },
        Job::Tree { domain } => Reply::Tree {
            nodes: store.tree_nodes(&domain).map_err(|e| e.to_string()),
            domain,
        },
        Job::Pins { domain } => Reply::Pins {
            pins: pins::list(store, &domain).map_err(|e| e.to_string()),
            domain,
        },
        Job::PinAdd {
            domain,
            hash,
            verdict,
            text,
            reopen,
        } => match pins::add(store, &domain, hash, verdict, &text, refresh::unix_now()) {
            Ok(_) => open(store, engine, reopen),
            Err(e) => Reply::Pins {
                domain,
                pins: Err(e.to_string()),
            },
        },
        Job::PinRemove { id, domain, reopen } => match (pins::remove(store, id), reopen) {
            (Ok(_), Some(item)) => open(store, engine, item),
            (Ok(_), None) => Reply::Pins {
                pins: pins::list(store, &domain).map_err(|e| e.to_string()),
                domain,
            },
            (Err(e), _) => Reply::Pins {
                domain,
                pins: Err(e.to_string()),
            },
        },
        Job::ImportOpml { path } => Reply::Imported(import_opml(store, &path)),
        Job::Settings { keys } => Reply::Settings(
            keys.into_iter()
                .map(|k| store.setting(k).map(|v| (k, v)))
                .collect::<Result<_, _>>()
                .map_err(|e| e.to_string()),
        ),
        Job::SaveSetting { key, value } => {
            Reply::Saved(store.set_setting(key, &value).map_err(|e| e.to_string()))
        }
        Job::Manage(change) => Reply::Managed(manage(store, change)),
    }
}

/// Makes one change to the subscriptions; what was done, in words.
fn manage(store: &mut Store, change: Manage) -> Result<String, String> {
    let e = |e: crate::store::StoreError| e.to_string();
    match change {
        Manage::Unsubscribe(feed) => match store.feed_remove(feed).map_err(e)? {
            true => Ok("Unsubscribed.".into()),
            false => Err(format!("feed {feed} is gone")),
        },
        Manage::Rename(feed, name) => match store.feed_rename(feed, name.as_deref()).map_err(e)? {
            true => Ok(match name {
                Some(name) => format!("Renamed to {name}."),
                None => "The feed's own title is back.".into(),
            }),
            false => Err(format!("feed {feed} is gone")),
        },
        Manage::Move(feed, folder) => {
            match store.feed_set_folder(feed, folder.as_deref()).map_err(e)? {
                true => Ok(match folder {
                    Some(folder) => format!("Moved to {folder}."),
                    None => "Moved to the top level.".into(),
                }),
                false => Err(format!("feed {feed} is gone")),
            }
        }
        Manage::ExportOpml(path) => {
            let list: Vec<_> = store
                .feeds()
                .map_err(e)?
                .into_iter()
                .map(crate::feeds::opml_feed)
                .collect();
            let text = crate::feeds::opml_export(&list).map_err(|e| e.to_string())?;
            std::fs::write(&path, text).map_err(|e| format!("writing {}: {e}", path.display()))?;
            Ok(format!("Wrote {} feeds to {}.", list.len(), path.display()))
        }
        Manage::MarkFeedsRead(feeds) => {
            let mut n = 0;
            for feed in feeds {
                n += store.set_read(ItemScope::Feed(feed), true).map_err(e)?;
            }
            Ok(format!("Marked {n} items read."))
        }
        Manage::MarkRead(scope) => {
            let n = store.set_read(scope, true).map_err(e)?;
            Ok(format!("Marked {n} items read."))
        }
    }
}

fn open(store: &Store, engine: &Engine, id: ItemId) -> Reply {
    match reading::open_article(store, engine, id) {
        Ok(Some(article)) => {
            let images = decode_images(store, &article);
            Reply::Opened {
                id,
                article: Ok(Some(Box::new(article))),
                images,
            }
        }
        Ok(None) => Reply::Opened {
            id,
            article: Ok(None),
            images: Vec::new(),
        },
        Err(e) => Reply::Opened {
            id,
            article: Err(e.to_string()),
            images: Vec::new(),
        },
    }
}

/// Decodes the article's content images from the offline store (never the network). An image
/// that is missing or does not decode is skipped: the reader shows its alt text instead.
fn decode_images(store: &Store, article: &Article) -> Vec<DecodedImage> {
    let mut out = Vec::new();
    for block in article.content() {
        let Some(img) = &block.image else { continue };
        if out.iter().any(|d: &DecodedImage| d.url == img.src) {
            continue;
        }
        let Ok(Some(bytes)) = store.image_data(&img.src) else {
            continue;
        };
        if let Some(image) = decode_image(&bytes) {
            out.push(DecodedImage {
                url: img.src.clone(),
                image,
            });
        }
    }
    out
}

/// A hostile image must not claim gigabytes of memory.
fn limits_for_decode() -> image::Limits {
    let mut limits = image::Limits::default();
    limits.max_alloc = Some(256 * 1024 * 1024);
    limits.max_image_width = Some(16_384);
    limits.max_image_height = Some(16_384);
    limits
}

/// PNG, JPEG, GIF or WebP bytes to pixels, shrunk to [`MAX_IMAGE_SIDE`]; `None` if they do not
/// decode.
pub fn decode_image(bytes: &[u8]) -> Option<egui::ColorImage> {
    let mut reader = image::ImageReader::new(std::io::Cursor::new(bytes))
        .with_guessed_format()
        .ok()?;
    reader.limits(limits_for_decode());
    // The pixel count is checked before decoding: width and height each within bounds can still
    // multiply to more than pith will ever draw.
    let (width, height) = reader.into_dimensions().ok()?;
    if u64::from(width) * u64::from(height) > crate::limits::MAX_IMAGE_PIXELS {
        return None;
    }
    let mut reader = image::ImageReader::new(std::io::Cursor::new(bytes))
        .with_guessed_format()
        .ok()?;
    reader.limits(limits_for_decode());
    let mut img = reader.decode().ok()?;
    if img.width() > MAX_IMAGE_SIDE || img.height() > MAX_IMAGE_SIDE {
        img = img.resize(
            MAX_IMAGE_SIDE,
            MAX_IMAGE_SIDE,
            image::imageops::FilterType::Triangle,
        );
    }
    let rgba = img.to_rgba8();
    let size = [rgba.width() as usize, rgba.height() as usize];
    Some(egui::ColorImage::from_rgba_unmultiplied(
        size,
        rgba.as_raw(),
    ))
}

/// Subscribes to every feed of an OPML file: (feeds in the file, new ones).
fn import_opml(store: &mut Store, path: &std::path::Path) -> Result<(usize, usize), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    let done = refresh::import_opml(store, &bytes, refresh::unix_now())
        .map_err(|e| format!("in {}: {e}", path.display()))?;
    Ok((done.feeds, done.new))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    /// A sound database with one feed, copied to a path this process has never checked (as a
    /// new start of pith meets it): the worker opens it read-only and checks it apart.
    fn unchecked_database(dir: &std::path::Path) -> PathBuf {
        let built = dir.join("built.db");
        Store::open(&built)
            .unwrap()
            .feed_add("https://example.com/feed.xml", Some("Feed"), None, 1)
            .unwrap();
        let db = dir.join("pith.db");
        std::fs::copy(&built, &db).unwrap();
        db
    }

    /// Replies until `done` says enough, or `None` after ten seconds.
    fn replies_until(worker: &Worker, done: impl Fn(&[Reply]) -> bool) -> Option<Vec<Reply>> {
        let deadline = Instant::now() + Duration::from_secs(10);
        let mut got = Vec::new();
        while Instant::now() < deadline {
            while let Some(reply) = worker.try_recv() {
                got.push(reply);
            }
            if done(&got) {
                return Some(got);
            }
            thread::sleep(Duration::from_millis(5));
        }
        None
    }

    #[test]
    fn a_dropped_worker_closes_its_connection_to_the_database() {
        let dir = tempfile::tempdir().unwrap();
        let db = unchecked_database(dir.path());
        let worker = Worker::start(Config::new(db.clone()), egui::Context::default());
        worker.send(Job::Feeds);
        let got = replies_until(&worker, |r| {
            r.iter().any(|r| matches!(r, Reply::CheckPassed))
                && r.iter().any(|r| matches!(r, Reply::Feeds(_)))
        });
        assert!(got.is_some(), "the check passes");
        assert_eq!(crate::store::open_connections(&db), 1);
        drop(worker);
        let deadline = Instant::now() + Duration::from_secs(10);
        while crate::store::open_connections(&db) > 0 {
            assert!(
                Instant::now() < deadline,
                "the database thread outlived its window and kept the file open"
            );
            thread::sleep(Duration::from_millis(5));
        }
    }

    #[test]
    fn a_check_that_panics_ends_in_an_error_and_answers_the_held_writes() {
        let dir = tempfile::tempdir().unwrap();
        let db = unchecked_database(dir.path());
        let mut config = Config::new(db.clone());
        config.before_check = Some(Hook(Arc::new(|| panic!("a bug in the check"))));
        let worker = Worker::start(config, egui::Context::default());
        worker.send(Job::SaveSetting {
            key: "text_size",
            value: "18".into(),
        });
        worker.send(Job::Feeds);
        let got = replies_until(&worker, |r| {
            r.iter().any(|r| matches!(r, Reply::StoreUnavailable { .. }))
                && r.iter().any(|r| matches!(r, Reply::Saved(_)))
        })
        .expect("the window hears that the check stopped, and the held write is answered");
        assert!(!got.iter().any(|r| matches!(r, Reply::CheckPassed)));
        let Some(Reply::StoreUnavailable {
            message,
            fresh_start,
            ..
        }) = got
            .iter()
            .find(|r| matches!(r, Reply::StoreUnavailable { .. }))
        else {
            unreachable!()
        };
        assert!(message.contains("check"), "{message}");
        assert!(!fresh_start, "the file was not moved aside");
        assert!(
            got.iter().any(|r| matches!(r, Reply::Saved(Err(_)))),
            "{got:?}"
        );
        assert!(db.exists(), "the file stays where it is");
    }

    #[test]
    fn search_answers_before_the_check_passes() {
        let dir = tempfile::tempdir().unwrap();
        let db = unchecked_database(dir.path());
        let (release, held) = mpsc::channel::<()>();
        let held = std::sync::Mutex::new(held);
        let mut config = Config::new(db);
        config.before_check = Some(Hook(Arc::new(move || {
            let _ = held.lock().unwrap().recv();
        })));
        let worker = Worker::start(config, egui::Context::default());
        worker.send(Job::Search {
            query: "story".into(),
            generation: 1,
        });
        let got = replies_until(&worker, |r| r.iter().any(|r| matches!(r, Reply::Items { .. })))
            .expect("answered while the check is held");
        assert!(!got.iter().any(|r| matches!(r, Reply::CheckPassed)));
        let Some(Reply::Items { rows, .. }) = got.iter().find(|r| matches!(r, Reply::Items { .. }))
        else {
            unreachable!()
        };
        assert!(rows.is_ok(), "{rows:?}");
        drop(release);
    }

    #[test]
    fn the_writes_held_by_the_check_are_done_before_the_window_hears_it_passed() {
        let dir = tempfile::tempdir().unwrap();
        let db = unchecked_database(dir.path());
        let (release, held) = mpsc::channel::<()>();
        let held = std::sync::Mutex::new(held);
        let mut config = Config::new(db);
        config.before_check = Some(Hook(Arc::new(move || {
            let _ = held.lock().unwrap().recv();
        })));
        let worker = Worker::start(config, egui::Context::default());
        worker.send(Job::Feeds);
        let feed = match replies_until(&worker, |r| r.iter().any(|r| matches!(r, Reply::Feeds(_))))
            .expect("the feeds")
            .pop()
        {
            Some(Reply::Feeds(Ok(feeds))) => feeds[0].id,
            other => panic!("{other:?}"),
        };
        worker.send(Job::Manage(Manage::Unsubscribe(feed)));
        worker.send(Job::SaveSetting {
            key: "text_size",
            value: "18".into(),
        });
        thread::sleep(Duration::from_millis(50));
        drop(release);
        let got = replies_until(&worker, |r| r.iter().any(|r| matches!(r, Reply::CheckPassed)))
            .expect("the check passes");
        // The window starts the refreshes and subscriptions that waited when it hears the check
        // passed: a refresh asked for after an unsubscribe must not meet the feed still there.
        assert!(
            matches!(got[..], [Reply::Managed(Ok(_)), Reply::Saved(Ok(())), Reply::CheckPassed]),
            "{got:?}"
        );
    }
}
