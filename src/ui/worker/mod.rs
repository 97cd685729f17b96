//! Everything slow happens here, off the UI thread: one database thread with its own connection
//! answers the window's questions in order, and every network job (refresh, subscribe) runs on a
//! thread of its own with its own connections. Each reply wakes the window
//! (`Context::request_repaint`), so a frame never waits on disk or network.
//!
//! This file holds the window's handle ([`Worker`]) and what passes through it: the jobs, the
//! replies and the settings. The rest is cut along the threads: `db.rs` is the database thread
//! with its write gate (the integrity check, and the writes held until it passes), `answer.rs`
//! what one job does on a connection, `network.rs` the refresh and subscribe threads, and
//! `files.rs` the system's file dialog.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;

use crate::extract::Engine;
use crate::fetch::FetchConfig;
use crate::reading::Article;
use crate::refresh::{self, Event};
use crate::store::{FeedId, FeedInfo, ItemFilter, ItemId, ItemRow, ItemScope, TreeNodeInfo};
use crate::ui::pins::{PinRow, PinVerdict};

mod answer;
mod db;
mod files;
mod network;

pub use answer::decode_image;
pub use files::{FilePicker, PickFor, SystemFilePicker};

use db::{DbThread, ToDb};

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

/// A question for the database thread. Every job gets exactly one [`Reply`].
#[derive(Debug, Clone)]
pub enum Job {
    /// The subscriptions with their counts.
    Feeds,
    /// A page of an item list (its first page when `filter.after` is `None`, else the rows
    /// after that one); `generation` lets the window drop answers to questions it no longer asks.
    Items {
        /// Which items, and which page of them.
        filter: ItemFilter,
        /// The window's list generation.
        generation: u64,
    },
    /// How many items a list holds, all pages together: asked after its first page, so that the
    /// page never waits for the count.
    ItemCount {
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
            | Job::ItemCount { .. }
            | Job::Search { .. }
            | Job::Open { .. }
            | Job::Tree { .. }
            | Job::Pins { .. }
            | Job::Settings { .. } => false,
        }
    }
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
        /// The rows follow those the window holds (a next page), rather than replace them.
        append: bool,
        /// More rows may follow these: the page was full.
        more: bool,
    },
    /// For [`Job::ItemCount`].
    ItemCount {
        /// The generation asked for.
        generation: u64,
        /// The list's items, all pages together.
        count: Result<u64, String>,
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

    /// The next reply, if one has arrived.
    pub fn try_recv(&self) -> Option<Reply> {
        self.replies.try_recv().ok()
    }
}
