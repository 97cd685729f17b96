//! The command line's arguments: every command and its options, as `pith --help` shows them.
//! Only definitions: what each command does lives in its own module beside this one.

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use pith::classify::Method;
use pith::fetch::FetchConfig;

/// pith: a feed reader that shows only the main content of every article.
#[derive(Parser, Debug)]
#[command(name = "pith", version, about, long_about = None)]
pub struct Cli {
    /// The database file (default: the platform's data directory, e.g. ~/.local/share/pith/pith.db).
    #[arg(long, global = true, env = "PITH_DB", value_name = "PATH")]
    pub db: Option<PathBuf>,

    /// Fetch only from the loopback address (tests and benchmarks; also PITH_LOOPBACK_ONLY=1).
    /// One flag for the commands that fetch and for the window, parsed once, so `1`, `true`,
    /// `0` and `off` mean the same to all of them.
    #[arg(long, hide = true, global = true, env = "PITH_LOOPBACK_ONLY", value_parser = clap::builder::FalseyValueParser::new())]
    pub loopback_only: bool,

    /// The command; none opens the window.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The commands, each with its own arguments.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Insert a saved page into its site's URL Tree and print its content text.
    Extract {
        /// The HTML file.
        page: PathBuf,
        /// The page's URL (the response URL, after redirects): it decides the site and tree branch.
        #[arg(long)]
        url: String,
        /// The entry title as the feed gave it (becomes the URL key's `_cid_`).
        #[arg(long)]
        title: Option<String>,
        /// The charset the server declared, if known (otherwise BOM, <meta> and detection decide).
        #[arg(long)]
        charset: Option<String>,
        /// The classification method.
        #[arg(long, short = 'm', default_value_t = Method::default_method().to_string())]
        method: String,
        /// Print every block with its label and reason instead of the content text.
        #[arg(long)]
        blocks: bool,
    },
    /// Stream a dataset (manifest.jsonl, pages/, gold/) through a fresh database and score it.
    Eval {
        /// The dataset directory.
        dataset: PathBuf,
        /// A method name, a comma-separated list, or `all`.
        #[arg(long, short = 'm', alias = "method", default_value = "all")]
        heuristic: String,
        /// Write each page's text to OUT/<method>/<id>.txt, pages.csv, cumulative.csv and cumulative.png.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Also print the per-site rows.
        #[arg(long)]
        per_site: bool,
        /// Print the tables as Markdown (for README.md).
        #[arg(long)]
        markdown: bool,
        /// Also print the means per page type (where the manifest gives `page_type`).
        #[arg(long)]
        per_type: bool,
        /// Also print the means of each half of the site split (a stable hash of the site):
        /// tune on one half, confirm on the other.
        #[arg(long)]
        halves: bool,
        /// `causal`: classify each page on arrival; `reread`: insert the whole stream first, then
        /// classify every page (what a reader sees opening earlier articles).
        #[arg(long, default_value = "causal")]
        mode: String,
        /// Score every page with its class names made unreadable (each replaced by an opaque
        /// token, alike names staying alike), as sites built with generated names print them:
        /// how much of the quality rests on the words in names.
        #[arg(long)]
        unnamed: bool,
    },
    /// Subscribe to a feed, or to the feed a web page names (<link rel="alternate">), and fetch it.
    Add {
        /// The feed's or the page's URL.
        url: String,
        /// Only subscribe; fetch the articles at the next `pith refresh`.
        #[arg(long)]
        no_refresh: bool,
        #[command(flatten)]
        net: NetArgs,
    },
    /// Subscribe to every feed of an OPML file (nothing is fetched until `pith refresh`).
    Import {
        /// The OPML file.
        file: PathBuf,
    },
    /// Write the subscriptions as OPML, to FILE or standard output.
    Export {
        /// The OPML file to write.
        file: Option<PathBuf>,
    },
    /// Unsubscribe from a feed (by id or URL); its items that no other feed lists go too.
    Remove {
        /// The feed's id or URL.
        feed: String,
    },
    /// Give a feed your own name, which a refresh never changes (no NAME: back to the feed's
    /// title).
    Rename {
        /// The feed's id or URL.
        feed: String,
        /// The name to show for it.
        name: Option<String>,
    },
    /// Put a feed in a folder (`News/World`: World inside News; no FOLDER: the top level).
    Move {
        /// The feed's id or URL.
        feed: String,
        /// The folder's path, levels separated by `/`.
        folder: Option<String>,
    },
    /// List the subscriptions: title, URL, item and unread counts, last refresh, last error.
    Feeds,
    /// Fetch new entries of every feed (or one), their pages and images, and classify them.
    Refresh {
        /// Only this feed (id or URL).
        feed: Option<String>,
        /// Worker threads.
        #[arg(long, short = 'j', default_value_t = 4)]
        jobs: usize,
        /// Do not download the images articles keep.
        #[arg(long)]
        no_images: bool,
        #[command(flatten)]
        net: NetArgs,
    },
    /// List items, newest first.
    Items {
        /// Only this feed's items (id or URL).
        #[arg(long)]
        feed: Option<String>,
        /// Only unread items.
        #[arg(long)]
        unread: bool,
        /// Only starred items.
        #[arg(long)]
        starred: bool,
        /// At most this many (0: all).
        #[arg(long, short = 'n', default_value_t = 0)]
        limit: usize,
    },
    /// Print an article's clean text (classified again with what the site's tree knows now) and
    /// mark it read. Works offline.
    Read {
        /// The item's id.
        id: i64,
        /// Print every block with its label and reason instead (the inspector view).
        #[arg(long)]
        blocks: bool,
    },
    /// Full-text search over titles and clean article text, best first.
    Search {
        /// Words to find (all of them).
        query: Vec<String>,
        /// At most this many results.
        #[arg(long, short = 'n', default_value_t = 20)]
        limit: usize,
    },
    /// Star an item, or unstar a starred one.
    Star {
        /// The item's id.
        id: i64,
    },
    /// Pin a block of an article "always content" or "always boilerplate" on its whole site (the
    /// block's number is the first column of `pith read ID --blocks`).
    Pin {
        /// The item's id.
        item: i64,
        /// The block's number on that page.
        block: u32,
        /// Always content.
        #[arg(
            long,
            conflicts_with = "boilerplate",
            required_unless_present = "boilerplate"
        )]
        content: bool,
        /// Always boilerplate.
        #[arg(long)]
        boilerplate: bool,
    },
    /// List the pins, of every site or of one registrable domain.
    Pins {
        /// Only this site (registrable domain, e.g. example.com).
        #[arg(long)]
        site: Option<String>,
    },
    /// Print a site's URL Tree: every node with n_s, the documents under it. With --item, the
    /// item's branch is marked and the node that speaks for the site on its page is named.
    Tree {
        /// The site: a registrable domain, a host or any URL of it.
        #[arg(required_unless_present = "item")]
        site: Option<String>,
        /// The item whose page's branch to mark (the site is then the item's).
        #[arg(long)]
        item: Option<i64>,
        /// Levels below the domain to show.
        #[arg(long, default_value_t = 3)]
        depth: usize,
        /// Children shown per node, the most documents first (the rest are counted).
        #[arg(long, default_value_t = 10)]
        top: usize,
    },
    /// Remove a pin (by the id `pith pins` shows).
    Unpin {
        /// The pin's id.
        id: i64,
    },
    /// Write a consistent copy of the database to FILE (SQLite's online backup; pith may keep
    /// running meanwhile). FILE is replaced if it exists.
    Backup {
        /// The backup file to write.
        file: PathBuf,
    },
    /// Put a backup in place of the database, after checking its integrity and schema version.
    /// The database in place is kept beside it as `<db>.before-restore-<unix time>`. Close the
    /// window and stop any refresh first.
    Restore {
        /// The backup file (from `pith backup`).
        file: PathBuf,
    },
    /// Show what takes the space in the database: rows and bytes of items, raw pages, records,
    /// images, the full-text index, the URL Tree and feed entries, free pages, the file's size.
    Stats,
    /// Show how long items are kept, or set it: read items go after --read-days, unread after
    /// --unread-days (0 keeps them forever); starred items stay. Every refresh applies it.
    Retention {
        /// Days a read item is kept from its arrival (0: forever).
        #[arg(long, value_name = "DAYS", value_parser = clap::value_parser!(u32).range(0..=36_500))]
        read_days: Option<u32>,
        /// Days an unread item is kept from its arrival (0: forever).
        #[arg(long, value_name = "DAYS", value_parser = clap::value_parser!(u32).range(0..=36_500))]
        unread_days: Option<u32>,
    },
    /// Apply the retention policy now, to the end (a refresh does a bounded part of it each
    /// time), and give free pages back to the file system where the file allows it.
    Cleanup {
        /// Then rewrite the whole file (VACUUM) so that it holds no free page and gives pages
        /// back from now on (files made before schema 5). Needs the file's size in free disk
        /// space, and no refresh or window running.
        #[arg(long)]
        vacuum: bool,
    },
    /// Mark an item, a feed's items, or everything read (or unread with --unread).
    MarkRead {
        /// The item's id.
        id: Option<i64>,
        /// Every item of this feed (id or URL).
        #[arg(long, conflicts_with = "id")]
        feed: Option<String>,
        /// Every item.
        #[arg(long, conflicts_with_all = ["id", "feed"])]
        all: bool,
        /// Mark unread instead.
        #[arg(long)]
        unread: bool,
    },
}

/// Network settings shared by the commands that fetch.
#[derive(clap::Args, Debug, Clone)]
pub struct NetArgs {
    /// Seconds one request (each redirect hop) may take.
    #[arg(long, value_name = "SECS", default_value_t = pith::limits::REQUEST_TIMEOUT_SECS)]
    pub timeout: u64,
}

impl NetArgs {
    /// The fetcher's settings for these arguments; `loopback_only` is [`Cli::loopback_only`].
    pub fn config(&self, loopback_only: bool) -> FetchConfig {
        FetchConfig {
            request_timeout: std::time::Duration::from_secs(self.timeout.max(1)),
            connect_timeout: std::time::Duration::from_secs(
                self.timeout.clamp(1, pith::limits::CONNECT_TIMEOUT_SECS),
            ),
            loopback_only,
            ..FetchConfig::default()
        }
    }
}
