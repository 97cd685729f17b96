//! pith's benchmark: `cargo bench --bench pith -- pipeline` (stages, whole pipeline, parse-only
//! floor and peer extractors on the dataset pages), `cargo bench --bench pith -- scale` (URL
//! Tree size and time on long generated same-site streams) and `cargo bench --bench pith --
//! quality` (the `pith eval` tables with the peers' rows). It prints Markdown tables; it checks
//! no bar, because a slow machine is not a failure.

mod datasets;
mod items;
mod lists;
mod peers;
mod pipeline;
mod quality;
mod scale;
mod streamgen;
mod year;

use clap::{Parser, ValueEnum};
use pith::classify::Method;

/// The classification method every benchmark uses: the reader's default (the site-aware method,
/// which also runs pith's page-level extractor on every page).
pub fn bench_method() -> Method {
    Method::default_method()
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Which {
    /// Stages, whole pipeline, parse-only floor, dom_smoothie and rs-trafilatura.
    Pipeline,
    /// Generated streams through the URL Tree: bytes per page, time at 100/1,000/10,000 pages.
    Scale,
    /// Both.
    All,
    /// The `pith eval` tables (overall, per site half, per page type) with dom_smoothie and
    /// rs-trafilatura rows on the same pages.
    Quality,
    /// A simulated year of arrivals under the retention policy (`--feeds`, `--per-day`,
    /// `--days`, `--classify-every`): file size, search and ingest times through the year.
    Year,
    /// Search and the item list's pages on a database of user 2's size, built fast
    /// (`--out FILE`, `--feeds`, `--pages` items: 368,000 unless given).
    Lists,
}

/// Command-line options (after `cargo bench --bench pith --`).
#[derive(Parser, Debug)]
pub struct Args {
    /// What to run.
    #[arg(value_enum, default_value = "all")]
    which: Which,
    /// Dataset names under $PITH_DATASETS (default `../shared/datasets` beside the checkout),
    /// comma-separated; all when omitted.
    #[arg(long)]
    datasets: Option<String>,
    /// Use at most this many pages (pipeline run).
    #[arg(long)]
    limit: Option<usize>,
    /// Rounds of the pipeline comparison (each on a fresh database).
    #[arg(long, default_value_t = 2)]
    pub rounds: usize,
    /// Leave out dom_smoothie and rs-trafilatura (a quick run).
    #[arg(long)]
    pub no_peers: bool,
    /// Score the pages with their class names made unreadable (`pith eval --unnamed`).
    #[arg(long)]
    pub unnamed: bool,
    /// Pages of the one-domain stream.
    #[arg(long, default_value_t = 10_000)]
    pub pages: usize,
    /// Domains of the many-domain stream.
    #[arg(long, default_value_t = 100)]
    pub domains: usize,
    /// Pages per domain of the many-domain stream.
    #[arg(long, default_value_t = 100)]
    pub per_domain: usize,
    /// Seconds between two pages of a stream (86 s: 10,000 pages in 10 days, inside the
    /// 14-day history window, so every page stays stored).
    #[arg(long, default_value_t = 86)]
    pub spacing: i64,
    /// The template page of the one-domain stream (a substring of `dataset/page-id`).
    #[arg(long)]
    pub template: Option<String>,
    /// Open the databases with SQLite's default page cache (2 MB) instead of the one the
    /// reader's refresh gives its writing connection (`Store::tune_for_refresh`), for comparison.
    #[arg(long)]
    pub default_cache: bool,
    /// Methods of the quality run, comma-separated.
    #[arg(long, default_value = "pith-page,pith")]
    pub methods: String,
    /// Mode of the quality run: causal or reread.
    #[arg(long, default_value = "causal")]
    pub mode: String,
    /// Quality run: write each page's text and pages.csv under OUT/<dataset>/.
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
    /// Year run: feeds (each its own site).
    #[arg(long, default_value_t = 100)]
    pub feeds: usize,
    /// Year run: items per feed per day.
    #[arg(long, default_value_t = 5)]
    pub per_day: usize,
    /// Year run: days simulated.
    #[arg(long, default_value_t = 365)]
    pub days: i64,
    /// Year run: one article in this many per feed is parsed and classified; the others are
    /// clones of it with fresh content hashes (see `year.rs`).
    #[arg(long, default_value_t = 10)]
    pub classify_every: usize,
    /// Year run: where its database goes (default: the system's temporary folder).
    #[arg(long)]
    pub year_dir: Option<std::path::PathBuf>,
    /// Year run: keep its database at the end (its path is printed), e.g. to open the window on
    /// it (`PITH_WINDOW_DB=FILE cargo bench --bench window`).
    #[arg(long)]
    pub year_keep: bool,
    /// Passed by `cargo bench`; ignored.
    #[arg(long, hide = true)]
    bench: bool,
}

/// Bytes to megabytes.
pub fn mb(bytes: usize) -> f64 {
    bytes as f64 / 1e6
}

/// A line of /proc/self/status in kB (0 where there is no such file).
pub fn rss_kb(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status.lines().find_map(|line| {
                line.strip_prefix(field)?
                    .trim_start_matches(':')
                    .split_whitespace()
                    .next()?
                    .parse()
                    .ok()
            })
        })
        .unwrap_or(0)
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let root = datasets::root();
    let names = match &args.datasets {
        Some(list) => list.split(',').map(|s| s.trim().to_string()).collect(),
        None => datasets::all_names(&root),
    };
    if matches!(args.which, Which::Quality) {
        return quality::run(&args, &root, &names);
    }
    if matches!(args.which, Which::Lists) {
        return lists::run(&args);
    }
    let pages = datasets::load(&root, &names, args.limit);
    anyhow::ensure!(
        !pages.is_empty(),
        "no dataset page found under {}",
        root.display()
    );
    println!(
        "pith {} benchmark on {} ({} pages), built {}",
        env!("CARGO_PKG_VERSION"),
        names.join(", "),
        pages.len(),
        if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        }
    );
    if matches!(args.which, Which::Pipeline | Which::All) {
        pipeline::run(&args, &pages)?;
    }
    if matches!(args.which, Which::Scale | Which::All) {
        scale::run(&args, &pages)?;
    }
    if matches!(args.which, Which::Year) {
        year::run(&args, &pages)?;
    }
    Ok(())
}
