//! The `pith` command line: every job the reader does (subscribe, refresh, list, read, search),
//! plus `extract` and `eval`.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand};

use pith::classify::{self, Method};
use pith::eval::{report, run as eval_run};
use pith::extract::{Document, Engine};
use pith::feeds::{self, OpmlFeed};
use pith::fetch::FetchConfig;
use pith::page::BlockKind;
use pith::reading;
use pith::refresh::{self, Event, FeedOutcome, RefreshOptions};
use pith::store::{FeedInfo, ItemFilter, ItemScope, PinVerdict, Store};
use pith::urlkey::QueryRules;

/// Writes a line to standard output. A closed pipe (`pith items | head -1`) ends the command
/// through `?`, and `main` then exits quietly, as command-line tools do.
macro_rules! outln {
    ($($arg:tt)*) => {
        writeln!(output(), $($arg)*)?
    };
}

/// Writes progress or a warning to standard error, ignoring a closed or failing stderr:
/// progress is never a reason to stop work (a refresh run as `pith refresh 2>&1 | head -1`
/// still stores every item).
macro_rules! note {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}

/// pith: a feed reader that shows only the main content of every article.
#[derive(Parser, Debug)]
#[command(name = "pith", version, about, long_about = None)]
struct Cli {
    /// The database file (default: the platform's data directory, e.g. ~/.local/share/pith/pith.db).
    #[arg(long, global = true, env = "PITH_DB", value_name = "PATH")]
    db: Option<PathBuf>,

    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
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
struct NetArgs {
    /// Seconds one request (each redirect hop) may take.
    #[arg(long, value_name = "SECS", default_value_t = pith::limits::REQUEST_TIMEOUT_SECS)]
    timeout: u64,
    /// Fetch only from the loopback address (tests and benchmarks; also PITH_LOOPBACK_ONLY=1).
    #[arg(long, hide = true, env = "PITH_LOOPBACK_ONLY", value_parser = clap::builder::FalseyValueParser::new())]
    loopback_only: bool,
}

impl NetArgs {
    fn config(&self) -> FetchConfig {
        FetchConfig {
            request_timeout: std::time::Duration::from_secs(self.timeout.max(1)),
            connect_timeout: std::time::Duration::from_secs(
                self.timeout.clamp(1, pith::limits::CONNECT_TIMEOUT_SECS),
            ),
            loopback_only: self.loopback_only,
            ..FetchConfig::default()
        }
    }
}

fn default_db() -> Result<PathBuf> {
    let dir = dirs::data_dir().context(
        "cannot find the platform's data directory (set HOME or XDG_DATA_HOME, or pass --db)",
    )?;
    // pith's own data folder is created on a fresh machine; a folder named with --db is not.
    let dir = dir.join("pith");
    std::fs::create_dir_all(&dir)
        .with_context(|| format!("creating pith's data folder {}", dir.display()))?;
    Ok(dir.join("pith.db"))
}

/// The engine with the user's own query rules (in the config directory) tried before the built-ins.
fn engine() -> Result<Engine> {
    let mut engine = Engine::default();
    if let Some(path) = dirs::config_dir().map(|d| d.join("pith").join("query-rules.txt"))
        && path.exists()
    {
        let user = QueryRules::load_file(&path)
            .with_context(|| format!("in your query rules {}", path.display()))?;
        engine.rules.extend_front(user);
    }
    Ok(engine)
}

fn db_path(db: Option<PathBuf>) -> Result<PathBuf> {
    match db {
        Some(p) => Ok(p),
        None => default_db(),
    }
}

fn open_store(db: Option<PathBuf>) -> Result<Store> {
    let path = db_path(db)?;
    Store::open(&path).with_context(|| format!("opening the database {}", path.display()))
}

fn backup(db: Option<PathBuf>, file: &Path) -> Result<()> {
    let store = open_store(db)?;
    store
        .backup(file)
        .with_context(|| format!("backing up to {}", file.display()))?;
    let size = std::fs::metadata(file).map(|m| m.len()).unwrap_or(0);
    outln!(
        "backed up to {} ({}); restore it with `pith restore {}`",
        file.display(),
        pith::fetch::human_bytes(size),
        file.display()
    );
    Ok(())
}

fn restore(db: Option<PathBuf>, file: &Path) -> Result<()> {
    let path = db_path(db)?;
    let done = pith::store::restore(&path, file)
        .with_context(|| format!("restoring {} from {}", path.display(), file.display()))?;
    // Opening upgrades an older backup's schema now, so that a problem shows here.
    let store = Store::open(&path)
        .with_context(|| format!("opening the restored database {}", path.display()))?;
    let version = store.schema_version()?;
    outln!("restored {} from {}", path.display(), file.display());
    if done.backup_version < version {
        outln!(
            "  its schema was upgraded from version {} to {version}",
            done.backup_version
        );
    }
    if let Some(old) = done.previous_moved_to {
        outln!(
            "  the database that was in place is kept as {}",
            old.display()
        );
    }
    Ok(())
}

fn find_feed(store: &Store, spec: &str) -> Result<FeedInfo> {
    store
        .feed_find(spec)?
        .with_context(|| format!("no subscription with id or URL {spec:?} (see `pith feeds`)"))
}

fn when(secs: Option<i64>) -> String {
    let Some(secs) = secs else {
        return "never".into();
    };
    chrono::DateTime::from_timestamp(secs, 0)
        .map(|d| d.format("%Y-%m-%d %H:%M UTC").to_string())
        .unwrap_or_else(|| secs.to_string())
}

fn add(db: Option<PathBuf>, url: &str, no_refresh: bool, net: &NetArgs) -> Result<()> {
    let path = db_path(db)?;
    let mut store =
        Store::open(&path).with_context(|| format!("opening the database {}", path.display()))?;
    let added = refresh::subscribe(&mut store, &net.config(), url)
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
        run_refresh(&path, Some(vec![added.feed]), 4, true, net)?;
    }
    Ok(())
}

fn import(db: Option<PathBuf>, file: &Path) -> Result<()> {
    let bytes = std::fs::read(file).with_context(|| format!("reading {}", file.display()))?;
    let mut store = open_store(db)?;
    let done = refresh::import_opml(&mut store, &bytes, now())
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

fn export(db: Option<PathBuf>, file: Option<&Path>) -> Result<()> {
    let store = open_store(db)?;
    let list: Vec<OpmlFeed> = store
        .feeds()?
        .into_iter()
        .map(|f| OpmlFeed {
            url: f.url,
            title: f.title,
            site_url: f.site_url,
            folder: f.folder,
        })
        .collect();
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

fn remove(db: Option<PathBuf>, spec: &str) -> Result<()> {
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

fn list_feeds(db: Option<PathBuf>) -> Result<()> {
    let store = open_store(db)?;
    let feeds = store.feeds()?;
    if feeds.is_empty() {
        outln!("no subscriptions yet: `pith add URL` or `pith import FILE.opml`");
    }
    let mut out = output();
    for f in feeds {
        writeln!(
            out,
            "{:>4}  {}\n      {}\n      {} items, {} unread; last refresh {}",
            f.id,
            f.title.as_deref().unwrap_or(if f.last_ok.is_some() {
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
        if let Some(until) = f.retry_after.filter(|&t| t > now()) {
            writeln!(out, "      not asked again before {}", when(Some(until)))?;
        }
    }
    Ok(())
}

fn run_refresh(
    path: &Path,
    only: Option<Vec<i64>>,
    jobs: usize,
    images: bool,
    net: &NetArgs,
) -> Result<()> {
    let engine = engine()?;
    let options = RefreshOptions {
        jobs: jobs.max(1),
        fetch: net.config(),
        feeds: only,
        images,
    };
    let interactive = std::io::stderr().is_terminal();
    let bar = interactive.then(|| {
        let bar = indicatif::ProgressBar::new(0);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} {msg}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    });
    let on_event = |event: Event| match (&bar, event) {
        (Some(bar), Event::Started { feeds }) => {
            bar.set_length(feeds as u64);
            bar.set_message("feeds and pages");
        }
        (Some(bar), Event::PagesQueued { count, .. }) => bar.inc_length(count as u64),
        (Some(bar), Event::PageDone { .. }) => bar.inc(1),
        (Some(bar), Event::FeedDone { url, outcome, .. }) => {
            bar.inc(1);
            if let FeedOutcome::Failed { error } = outcome {
                bar.println(format!("{url}: {error}"));
            }
        }
        (None, Event::FeedDone { url, outcome, .. }) => match outcome {
            FeedOutcome::Updated {
                new_items,
                linked,
                page_errors,
                entries_over_cap,
            } => {
                note!(
                    "{url}: {new_items} new, {linked} linked to items of other feeds, {page_errors} pages not fetched (kept with the feed's summary)"
                );
                if entries_over_cap > 0 {
                    note!(
                        "{url}: the feed lists {} entries; only the first {} were read",
                        entries_over_cap + pith::limits::MAX_ENTRIES_PER_FEED,
                        pith::limits::MAX_ENTRIES_PER_FEED
                    );
                }
            }
            FeedOutcome::NotModified => note!("{url}: not modified"),
            FeedOutcome::Deferred { until } => {
                note!(
                    "{url}: skipped, the server asked to wait until {}",
                    when(Some(until))
                )
            }
            FeedOutcome::Failed { error } => note!("{url}: error: {error}"),
        },
        (
            None,
            Event::PageDone {
                title,
                error: Some(e),
                ..
            },
        ) => {
            note!("  {title}: page not fetched: {e}")
        }
        _ => {}
    };
    let started = std::time::Instant::now();
    let summary = refresh::refresh(path, &engine, &options, &on_event)
        .with_context(|| format!("refreshing the feeds in {}", path.display()))?;
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    outln!(
        "refreshed {} feeds in {:.1} s: {} new items, {} linked, {} pages not fetched; {} not modified, {} failed, {} deferred ({} feed requests, {} conditional; {} page and {} image requests)",
        summary.feeds_updated
            + summary.feeds_not_modified
            + summary.feeds_failed
            + summary.feeds_deferred,
        started.elapsed().as_secs_f64(),
        summary.new_items,
        summary.linked,
        summary.page_errors,
        summary.feeds_not_modified,
        summary.feeds_failed,
        summary.feeds_deferred,
        summary.feed_requests,
        summary.conditional_requests,
        summary.page_requests,
        summary.image_requests,
    );
    Ok(())
}

fn items(db: Option<PathBuf>, feed: Option<&str>, filter: ItemFilter) -> Result<()> {
    let store = open_store(db)?;
    let feed = feed.map(|f| find_feed(&store, f)).transpose()?;
    let filter = ItemFilter {
        feed: feed.map(|f| f.id),
        ..filter
    };
    let mut out = output();
    for item in store.items(&filter)? {
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

/// A block's verdict as the block listings print it (`pith read --blocks`, `pith extract
/// --blocks`), padded to one width.
fn verdict_label(content: bool) -> &'static str {
    if content {
        "CONTENT    "
    } else {
        "BOILERPLATE"
    }
}

fn read(db: Option<PathBuf>, id: i64, show_blocks: bool) -> Result<()> {
    let mut store = open_store(db)?;
    let engine = engine()?;
    // The window opens articles through the same call, so both show the same content.
    let article = reading::open_article(&store, &engine, id)?
        .with_context(|| format!("no item {id} (see `pith items`)"))?;
    let item = &article.item;
    let mut out = output();
    writeln!(out, "{}", item.title)?;
    writeln!(
        out,
        "{}",
        item.response_url.as_deref().unwrap_or(&item.link)
    )?;
    writeln!(out)?;
    if let Some(summary) = &article.summary {
        if let Some(err) = &item.fetch_error {
            writeln!(
                out,
                "(the page could not be fetched: {err}; the feed's summary follows)\n"
            )?;
        }
        writeln!(out, "{summary}")?;
    }
    let mut printed_content = false;
    for block in &article.blocks {
        if show_blocks {
            let verdict = verdict_label(block.is_content());
            let text: String = block.text.chars().take(100).collect();
            writeln!(
                out,
                "{:>4} {verdict} {:?} | {}\n     {text}",
                block.position, block.kind, block.label.reason
            )?;
            continue;
        }
        if !block.is_content() {
            continue;
        }
        // The page's own headline repeats the title printed above: printed once.
        let first_content = !std::mem::replace(&mut printed_content, true);
        if first_content
            && matches!(block.kind, BlockKind::Heading(_))
            && reading::repeats_title(&block.text, &item.title)
        {
            continue;
        }
        match (&block.kind, &block.image) {
            (BlockKind::Image, Some(img)) => {
                let stored = article.images.iter().find(|i| i.url == img.src);
                let status = match stored {
                    Some(i) if i.error.is_none() => {
                        format!("stored offline, {} bytes", i.bytes)
                    }
                    Some(i) => format!("not stored: {}", i.error.as_deref().unwrap_or("")),
                    None => "not stored".to_string(),
                };
                writeln!(
                    out,
                    "[image: {}] ({status})\n",
                    if img.alt.is_empty() {
                        &img.src
                    } else {
                        &img.alt
                    }
                )?;
            }
            (BlockKind::Heading(_), _) => writeln!(out, "## {}\n", block.text)?,
            (BlockKind::ListItem, _) => match block.list_marker {
                Some(reading::ListMarker::Number(n)) => writeln!(out, "  {n}. {}", block.text)?,
                Some(reading::ListMarker::Continued) => writeln!(out, "    {}", block.text)?,
                _ => writeln!(out, "  - {}", block.text)?,
            },
            _ => writeln!(out, "{}\n", block.text)?,
        }
    }
    store.set_read(ItemScope::Item(id), true)?;
    Ok(())
}

fn search(db: Option<PathBuf>, query: &[String], limit: usize) -> Result<()> {
    let store = open_store(db)?;
    let query = query.join(" ");
    let hits = store.search(&query, limit)?;
    if hits.is_empty() {
        outln!("nothing matches {query:?}");
    }
    let mut out = output();
    for hit in hits {
        writeln!(
            out,
            "{:>6}  {}\n        {}",
            hit.id,
            hit.title,
            hit.snippet.replace('\n', " ")
        )?;
    }
    Ok(())
}

fn star(db: Option<PathBuf>, id: i64) -> Result<()> {
    let mut store = open_store(db)?;
    match store.toggle_star(id)? {
        Some(true) => outln!("starred item {id}"),
        Some(false) => outln!("unstarred item {id}"),
        None => bail!("no item {id} (see `pith items`)"),
    }
    Ok(())
}

fn mark_read(
    db: Option<PathBuf>,
    id: Option<i64>,
    feed: Option<&str>,
    all: bool,
    unread: bool,
) -> Result<()> {
    let mut store = open_store(db)?;
    let scope = match (id, feed, all) {
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

fn pin(db: Option<PathBuf>, item_id: i64, position: u32, verdict: PinVerdict) -> Result<()> {
    let mut store = open_store(db)?;
    let article = reading::open_article(&store, &engine()?, item_id)?
        .with_context(|| format!("no item {item_id} (see `pith items`)"))?;
    if article.summary.is_some() {
        bail!("item {item_id} has no stored page (it could not be fetched), so no blocks to pin");
    }
    let domain = article
        .domain
        .as_deref()
        .context("the page's address has no site to pin for")?;
    let block = article
        .blocks
        .iter()
        .find(|b| b.position == position)
        .with_context(|| {
            format!(
                "item {item_id} has blocks 0 to {}; see `pith read {item_id} --blocks`",
                article.blocks.len().saturating_sub(1)
            )
        })?;
    let text = match &block.image {
        Some(img) => img.src.clone(),
        None => block.text.chars().take(200).collect(),
    };
    let id = store.pin_add(domain, block.hash, verdict, &text, now())?;
    outln!(
        "pin {id}: this block is always {} on {domain}",
        verdict_name(verdict)
    );
    Ok(())
}

fn verdict_name(verdict: PinVerdict) -> &'static str {
    match verdict {
        PinVerdict::Content => "content",
        PinVerdict::Boilerplate => "boilerplate",
    }
}

fn list_pins(db: Option<PathBuf>, site: Option<&str>) -> Result<()> {
    let store = open_store(db)?;
    let pins = store.pins(site)?;
    if pins.is_empty() {
        outln!("no pins yet: `pith pin ITEM BLOCK --content|--boilerplate`");
    }
    let mut out = output();
    for pin in pins {
        let text: String = pin.text.chars().take(80).collect();
        writeln!(
            out,
            "{:>4}  {}  always {}  (since {})\n      {text}",
            pin.id,
            pin.domain,
            verdict_name(pin.verdict),
            when(Some(pin.created))
        )?;
    }
    Ok(())
}

fn tree(
    db: Option<PathBuf>,
    site: Option<&str>,
    item: Option<i64>,
    depth: usize,
    top: usize,
) -> Result<()> {
    let store = open_store(db)?;
    // The item's branch, as node paths, and the node that decides its page.
    let mut branch_paths: Vec<String> = Vec::new();
    let mut decider: Option<String> = None;
    let domain = match item {
        Some(id) => {
            let article = reading::open_article(&store, &engine()?, id)?
                .with_context(|| format!("no item {id} (see `pith items`)"))?;
            if article.summary.is_some() {
                bail!("item {id} has no stored page (it could not be fetched), so no branch");
            }
            if let Some(branch) = &article.branch {
                branch_paths = branch.nodes.iter().map(|n| n.path.clone()).collect();
                decider = article.deciding_node.map(|n| branch.nodes[n].path.clone());
            }
            article
                .domain
                .or(article.item.domain)
                .context("the item's page has no site")?
        }
        None => {
            let site = site.unwrap_or_default().trim();
            // A URL, or a host with or without a port (`127.0.0.1:18105`, `news.example.com`).
            let host = url::Url::parse(site)
                .ok()
                .filter(|u| u.has_host())
                .or_else(|| url::Url::parse(&format!("http://{site}")).ok())
                .and_then(|u| u.host_str().map(str::to_string))
                .unwrap_or_else(|| site.to_string());
            pith::urlkey::registrable_domain(&host)
        }
    };
    let nodes = store.tree_nodes(&domain)?;
    if nodes.is_empty() {
        bail!("no URL Tree for {domain} yet: its pages arrive with `pith refresh`");
    }
    let mut children: std::collections::HashMap<i64, Vec<&pith::store::TreeNodeInfo>> =
        std::collections::HashMap::new();
    for node in &nodes[1..] {
        children.entry(node.parent).or_default().push(node);
    }
    enum Line<'a> {
        Node(&'a pith::store::TreeNodeInfo, String, usize),
        More(String, usize),
    }
    let mut out = output();
    // Depth first, children by support, so the site's main sections come first.
    let mut stack = vec![Line::Node(&nodes[0], nodes[0].segment.clone(), 0)];
    while let Some(line) = stack.pop() {
        let (node, path, level) = match line {
            Line::More(text, level) => {
                writeln!(out, "  {:indent$}{text}", "", indent = level * 2)?;
                continue;
            }
            Line::Node(node, path, level) => (node, path, level),
        };
        let on_branch = |p: &str| branch_paths.iter().any(|b| b == p);
        let mark = if on_branch(&path) { "*" } else { " " };
        let note = if decider.as_deref() == Some(path.as_str()) {
            format!(
                "  <- speaks for the site on this page (n_s > {})",
                classify::site::MIN_SUPPORT
            )
        } else {
            String::new()
        };
        writeln!(
            out,
            "{mark} {:indent$}{}  n_s={}{note}",
            "",
            node.segment,
            node.support,
            indent = level * 2
        )?;
        let mut kids: Vec<(&pith::store::TreeNodeInfo, String)> = children
            .get(&node.id)
            .map(|k| {
                k.iter()
                    .map(|&kid| (kid, format!("{path}/{}", kid.segment)))
                    .collect()
            })
            .unwrap_or_default();
        kids.sort_by(|a, b| {
            b.0.support
                .cmp(&a.0.support)
                .then(a.0.segment.cmp(&b.0.segment))
        });
        // Shown: the first `top` children within the depth, and the item's branch always.
        let (shown, hidden): (Vec<_>, Vec<_>) = kids
            .into_iter()
            .enumerate()
            .partition(|(i, (_, p))| (level < depth && *i < top) || on_branch(p));
        if !hidden.is_empty() {
            let docs: u32 = hidden.iter().map(|(_, (k, _))| k.support).sum();
            stack.push(Line::More(
                format!(
                    "… {} more {}, {docs} {}",
                    hidden.len(),
                    if hidden.len() == 1 { "node" } else { "nodes" },
                    if docs == 1 { "document" } else { "documents" }
                ),
                level + 1,
            ));
        }
        for (_, (kid, kid_path)) in shown.into_iter().rev() {
            stack.push(Line::Node(kid, kid_path, level + 1));
        }
    }
    Ok(())
}

fn unpin(db: Option<PathBuf>, id: i64) -> Result<()> {
    let mut store = open_store(db)?;
    if !store.pin_remove(id)? {
        bail!("no pin {id} (see `pith pins`)");
    }
    outln!("removed pin {id}");
    Ok(())
}

fn parse_methods(spec: &str) -> Result<Vec<Method>> {
    if spec == "all" {
        return Ok(Method::all());
    }
    spec.split(',')
        .map(|name| Method::parse(name.trim()).map_err(anyhow::Error::from))
        .collect()
}

fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

fn extract(
    db: Option<PathBuf>,
    page: &Path,
    url: &str,
    title: Option<&str>,
    charset: Option<&str>,
    method: &str,
    show_blocks: bool,
) -> Result<()> {
    let method = Method::parse(method)?;
    let bytes = std::fs::read(page).with_context(|| format!("reading {}", page.display()))?;
    let mut store = open_store(db)?;
    let engine = engine()?;
    let doc = Document {
        bytes: &bytes,
        declared_charset: charset,
        url: Some(url),
        title,
        time: now(),
        entry_text: None,
    };
    let ingested = engine
        .ingest(&mut store, &doc)
        .with_context(|| format!("extracting {}", page.display()))?;
    let labels = engine.classify(&store, &ingested, method)?;
    let mut out = output();
    if show_blocks {
        if ingested.duplicate {
            writeln!(
                out,
                "# this URL key was already in the tree: not counted again"
            )?;
        }
        for (block, label) in ingested.page.blocks.iter().zip(&labels) {
            let verdict = verdict_label(label.is_content());
            let text: String = block.text.chars().take(100).collect();
            writeln!(
                out,
                "{:>4} {verdict} {:?} words={} links={} | {}\n     {}  [{}]",
                block.position,
                block.kind,
                block.words,
                block.link_words,
                label.reason,
                text,
                block.tag_path
            )?;
        }
    } else {
        writeln!(out, "{}", classify::content_text(&ingested.page, &labels))?;
    }
    Ok(())
}

/// Which tables `pith eval` prints besides the overall one.
struct EvalTables {
    per_site: bool,
    markdown: bool,
    groupings: Vec<report::Grouping>,
}

fn eval(
    dataset: &Path,
    methods: &str,
    out: Option<PathBuf>,
    tables: &EvalTables,
    mode: &str,
) -> Result<()> {
    let (per_site, markdown) = (tables.per_site, tables.markdown);
    let methods = parse_methods(methods)?;
    let mode = eval_run::Mode::parse(mode)
        .with_context(|| format!("unknown --mode {mode:?}: use causal or reread"))?;
    let engine = engine()?;
    let options = eval_run::EvalOptions {
        methods,
        out: out.clone(),
        mode,
        peers: Vec::new(),
    };
    let interactive = std::io::stderr().is_terminal();
    let run = eval_run::run(dataset, &options, &engine, |done, total| {
        if interactive {
            {
                let _ = write!(std::io::stderr().lock(), "\r{done}/{total} pages");
            }
        }
    })
    .with_context(|| format!("evaluating {}", dataset.display()))?;
    if interactive {
        note!();
    }
    for problem in &run.problems {
        note!("warning: {problem}");
    }
    if run.pages == 0 {
        bail!("no page of {} could be scored", dataset.display());
    }
    let table = if markdown {
        report::format_markdown_table(&run.results, per_site)
    } else {
        report::format_table(&run.results, per_site)
    };
    outln!("{table}");
    for &grouping in &tables.groupings {
        outln!(
            "{}",
            report::format_grouped(&run.results, grouping, markdown)
        );
    }
    let secs = run.engine_time.as_secs_f64();
    outln!(
        "{} pages, {} methods: engine {:.2} s ({:.0} pages/s, all methods), total {:.2} s",
        run.pages,
        options.methods.len(),
        secs,
        run.pages as f64 / secs.max(1e-9),
        run.total_time.as_secs_f64()
    );
    if !markdown && run.pages > 0 {
        let per_page = |d: std::time::Duration| d.as_secs_f64() * 1000.0 / run.pages as f64;
        let page_level = per_page(run.page_level_time);
        let mut line = format!("ms/page: pith-page's extraction {page_level:.3}");
        for (method, time) in options.methods.iter().zip(&run.method_times) {
            // pith-page and the site-aware default reuse the extraction made at ingestion, so
            // what they cost in all is that extraction plus their own step.
            let reuses = matches!(method, Method::PithPage | Method::Site);
            let own = per_page(*time);
            line.push_str(&match reuses {
                true => format!(
                    "; {method} {:.3} ({:.2}x pith-page)",
                    page_level + own,
                    (page_level + own) / page_level.max(1e-9)
                ),
                false => format!("; {method} {own:.3}"),
            });
        }
        outln!("{line}");
    }
    if let Some(out) = out {
        outln!(
            "wrote texts, pages.csv, cumulative.csv and cumulative.png to {}",
            out.display()
        );
    }
    Ok(())
}

/// `pith` with no command: the window, on the same database and engine as the commands.
#[cfg(feature = "window")]
fn window(db: Option<PathBuf>) -> Result<()> {
    let mut config = pith::ui::Config::new(db_path(db)?);
    config.engine = engine()?;
    // As for `pith refresh`: tests and benchmarks keep the window on the loopback address.
    config.fetch.loopback_only = std::env::var("PITH_LOOPBACK_ONLY")
        .is_ok_and(|v| !matches!(v.as_str(), "" | "0" | "false" | "no" | "off"));
    pith::ui::run(config).map_err(|e| anyhow::anyhow!("the window could not open: {e}"))
}

/// `pith` with no command, in a build without the window: say how to get one.
#[cfg(not(feature = "window"))]
fn window(_db: Option<PathBuf>) -> Result<()> {
    anyhow::bail!(
        "this pith was built without the window (cargo feature `window`); run a command (see `pith --help`) or rebuild with default features"
    )
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Extract {
            page,
            url,
            title,
            charset,
            method,
            blocks,
        }) => extract(
            cli.db,
            &page,
            &url,
            title.as_deref(),
            charset.as_deref(),
            &method,
            blocks,
        ),
        Some(Command::Eval {
            dataset,
            heuristic,
            out,
            per_site,
            markdown,
            per_type,
            halves,
            mode,
        }) => {
            let groupings = [
                per_type.then_some(report::Grouping::PageType),
                halves.then_some(report::Grouping::SiteHalf),
            ];
            let tables = EvalTables {
                per_site,
                markdown,
                groupings: groupings.into_iter().flatten().collect(),
            };
            eval(&dataset, &heuristic, out, &tables, &mode)
        }
        Some(Command::Add {
            url,
            no_refresh,
            net,
        }) => add(cli.db, &url, no_refresh, &net),
        Some(Command::Import { file }) => import(cli.db, &file),
        Some(Command::Export { file }) => export(cli.db, file.as_deref()),
        Some(Command::Remove { feed }) => remove(cli.db, &feed),
        Some(Command::Feeds) => list_feeds(cli.db),
        Some(Command::Refresh {
            feed,
            jobs,
            no_images,
            net,
        }) => (|| {
            let path = db_path(cli.db)?;
            let only = match feed {
                Some(spec) => {
                    let store = Store::open(&path)
                        .with_context(|| format!("opening the database {}", path.display()))?;
                    Some(vec![find_feed(&store, &spec)?.id])
                }
                None => None,
            };
            run_refresh(&path, only, jobs, !no_images, &net)
        })(),
        Some(Command::Items {
            feed,
            unread,
            starred,
            limit,
        }) => items(
            cli.db,
            feed.as_deref(),
            ItemFilter {
                feed: None,
                unread,
                starred,
                limit,
            },
        ),
        Some(Command::Read { id, blocks }) => read(cli.db, id, blocks),
        Some(Command::Search { query, limit }) => search(cli.db, &query, limit),
        Some(Command::Star { id }) => star(cli.db, id),
        Some(Command::Pin {
            item,
            block,
            content,
            ..
        }) => {
            let verdict = if content {
                PinVerdict::Content
            } else {
                PinVerdict::Boilerplate
            };
            pin(cli.db, item, block, verdict)
        }
        Some(Command::Pins { site }) => list_pins(cli.db, site.as_deref()),
        Some(Command::Unpin { id }) => unpin(cli.db, id),
        Some(Command::Tree {
            site,
            item,
            depth,
            top,
        }) => tree(cli.db, site.as_deref(), item, depth, top),
        Some(Command::MarkRead {
            id,
            feed,
            all,
            unread,
        }) => mark_read(cli.db, id, feed.as_deref(), all, unread),
        Some(Command::Backup { file }) => backup(cli.db, &file),
        Some(Command::Restore { file }) => restore(cli.db, &file),
        None => window(cli.db),
    };
    if let Err(e) = result {
        // The reader of the output went away (`| head`): nothing is wrong, and nothing to say.
        if is_closed_pipe(&e) {
            return;
        }
        note!("error: {e:#}");
        std::process::exit(1);
    }
}

/// Standard output, whose closed pipe is told apart from every other broken pipe (a feed's
/// server hanging up is an error to report; the reader of our output going away is not).
struct Output(std::io::StdoutLock<'static>);

/// The payload of the error [`Output`] gives when its reader has gone.
#[derive(Debug)]
struct OutputClosed;

impl std::fmt::Display for OutputClosed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("standard output was closed")
    }
}

impl std::error::Error for OutputClosed {}

impl Output {
    fn mark(e: std::io::Error) -> std::io::Error {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::io::Error::new(std::io::ErrorKind::BrokenPipe, OutputClosed)
        } else {
            e
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf).map_err(Output::mark)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush().map_err(Output::mark)
    }
}

/// Standard output for the commands' results (see [`Output`]).
fn output() -> Output {
    Output(std::io::stdout().lock())
}

/// True when `e` comes from writing to standard output after its reader closed it.
fn is_closed_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .and_then(|io| io.get_ref())
            .is_some_and(|inner| inner.is::<OutputClosed>())
    })
}
