//! Streams a recorded dataset through a fresh database exactly as the reader would (insert each page
//! into its site's tree, then classify it), and scores every page against its gold text.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::classify::{self, Method};
use crate::eval::dataset::{self, DatasetError, DatasetPage};
use crate::eval::report::{self, PageResult, ReportError};
use crate::eval::score;
use crate::extract::{Document, Engine, ExtractError, Ingested};
use crate::store::{DocId, Store, StoreError};

/// When pages are classified relative to the stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// Each page is classified on arrival, with what the tree knows then (the paper's setting).
    #[default]
    Causal,
    /// The whole stream is inserted first, then every page is classified: what a reader opening
    /// yesterday's articles sees, since pith classifies again at reading time.
    Reread,
}

impl Mode {
    /// Parses `causal` or `reread`.
    pub fn parse(name: &str) -> Option<Mode> {
        match name {
            "causal" => Some(Mode::Causal),
            "reread" => Some(Mode::Reread),
            _ => None,
        }
    }
}

/// What to run and where to write.
#[derive(Debug, Clone)]
pub struct EvalOptions {
    /// Methods to score, each on every page (one stream, one tree, several classifications).
    pub methods: Vec<Method>,
    /// Where to write per-page texts, CSVs and the plot; nothing is written when `None`.
    pub out: Option<PathBuf>,
    /// Classify on arrival or after the whole stream.
    pub mode: Mode,
    /// Other extractors scored on the same pages with the same scorer, each a row of its own
    /// (pith's peers in a benchmark; the reader itself never runs them).
    pub peers: Vec<Peer>,
    /// Score every page with its class names made unreadable ([`super::unnamed`]), peers too: how
    /// much of the quality rests on the words sites put in their names.
    pub unnamed: bool,
}

/// An extractor outside pith, scored beside pith's methods: it gets the page's bytes and URL
/// and returns the main text it finds (empty when it finds none or fails).
#[derive(Debug, Clone, Copy)]
pub struct Peer {
    /// The row's name in the tables.
    pub name: &'static str,
    /// The extraction.
    pub extract: fn(bytes: &[u8], url: Option<&str>) -> String,
}

/// The outcome of one evaluation run.
#[derive(Debug, Default)]
pub struct EvalRun {
    /// One result per page and method, in stream order.
    pub results: Vec<PageResult>,
    /// Manifest lines and pages that could not be used, with the reason (the rest still ran).
    pub problems: Vec<String>,
    /// Pages scored.
    pub pages: usize,
    /// Time spent in the engine (decode, parse, blocks, tree insert, classification) for all pages.
    pub engine_time: Duration,
    /// Wall time of the whole run, scoring and writing included.
    pub total_time: Duration,
    /// Time spent running pith's page-level extractor on the scored pages (measured on a second
    /// run of it, as the engine's own run is folded into ingestion): the yardstick for what a
    /// method costs on top.
    pub page_level_time: Duration,
    /// Time each method's classification took over all scored pages (tree reads included), in
    /// the order of [`EvalOptions::methods`]. Page-level methods whose result the engine computes
    /// at ingestion (`pith-page`) cost almost nothing here.
    pub method_times: Vec<Duration>,
    /// Time each peer took over all scored pages, in the order of [`EvalOptions::peers`].
    pub peer_times: Vec<Duration>,
}

/// An evaluation that could not run at all.
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    /// The dataset's manifest is missing or unreadable.
    #[error(transparent)]
    Dataset(#[from] DatasetError),
    /// The scratch database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The engine failed on the database (not on a page: page problems are reported and skipped).
    #[error(transparent)]
    Extract(#[from] ExtractError),
    /// Writing the outputs failed.
    #[error(transparent)]
    Report(#[from] ReportError),
    /// Writing a page's extracted text failed.
    #[error("cannot write {path}: {error}")]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
}

/// Parses the date at the start of a manifest date (`YYYY-MM-DD`, maybe followed by a time) into
/// unix seconds at midnight UTC.
fn parse_date(date: &str) -> Option<i64> {
    let day = date.get(..10)?;
    let mut parts = day.split('-');
    let y: i64 = parts.next()?.parse().ok()?;
    let m: i64 = parts.next()?.parse().ok()?;
    let d: i64 = parts.next()?.parse().ok()?;
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    // Days from the civil date (Howard Hinnant's algorithm).
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some((era * 146_097 + doe - 719_468) * 86_400)
}

/// Runs every page of the dataset in `dir` through a fresh in-memory database with `engine`, scoring
/// each method on each page. `progress(done, total)` is called after every page.
pub fn run(
    dir: &Path,
    options: &EvalOptions,
    engine: &Engine,
    mut progress: impl FnMut(usize, usize),
) -> Result<EvalRun, EvalError> {
    let started = Instant::now();
    let manifest = dataset::read_manifest(dir)?;
    let mut run = EvalRun {
        problems: manifest
            .problems
            .iter()
            .map(|p| format!("manifest line {}: {}", p.line, p.message))
            .collect(),
        ..EvalRun::default()
    };
    if let Some(out) = &options.out {
        let names = options
            .methods
            .iter()
            .map(Method::to_string)
            .chain(options.peers.iter().map(|p| p.name.to_owned()));
        for method in names {
            let path = out.join(method);
            std::fs::create_dir_all(&path).map_err(|error| EvalError::Write { path, error })?;
        }
    }
    run.method_times = vec![Duration::ZERO; options.methods.len()];
    run.peer_times = vec![Duration::ZERO; options.peers.len()];
    let mut store = Store::open_in_memory()?;
    let mut clock = 0i64;
    let total = manifest.pages.len();
    let steps = if options.mode == Mode::Reread {
        2 * total
    } else {
        total
    };
    // In reread mode the first pass only inserts; the tree documents are remembered for the second.
    let mut inserted: Vec<Option<(Option<DocId>, i64)>> = Vec::with_capacity(total);
    for (index, page) in manifest.pages.iter().enumerate() {
        if let Some(t) = page.date.as_deref().and_then(parse_date) {
            clock = t;
        }
        let outcome = match options.mode {
            Mode::Causal => run_page(&mut store, engine, page, clock, None, options, &mut run),
            Mode::Reread => insert_page(&mut store, engine, page, clock, options, &mut run)
                .map(|doc| inserted.push(Some((doc, clock)))),
        };
        match outcome {
            Ok(()) if options.mode == Mode::Causal => run.pages += 1,
            Ok(()) => {}
            Err(PageProblem::Skip(why)) => {
                inserted.push(None);
                run.problems.push(format!("page {}: {why}", page.id));
            }
            Err(PageProblem::Fatal(e)) => return Err(e),
        }
        progress(index + 1, steps);
    }
    if options.mode == Mode::Reread {
        for (index, (page, doc)) in manifest.pages.iter().zip(&inserted).enumerate() {
            let Some((doc, time)) = *doc else { continue };
            match run_page(&mut store, engine, page, time, Some(doc), options, &mut run) {
                Ok(()) => run.pages += 1,
                Err(PageProblem::Skip(why)) => {
                    run.problems.push(format!("page {}: {why}", page.id))
                }
                Err(PageProblem::Fatal(e)) => return Err(e),
            }
            progress(total + index + 1, steps);
        }
    }
    if let Some(out) = &options.out {
        report::write_page_csv(&out.join("pages.csv"), &run.results)?;
        report::write_cumulative_csv(&out.join("cumulative.csv"), &run.results)?;
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        report::plot_cumulative_png(
            &out.join("cumulative.png"),
            &run.results,
            &format!("{name}: cumulative mean F1 along the stream"),
        )?;
    }
    run.total_time = started.elapsed();
    Ok(run)
}

enum PageProblem {
    /// This page cannot be scored; the run goes on.
    Skip(String),
    /// The run cannot go on.
    Fatal(EvalError),
}

impl From<EvalError> for PageProblem {
    fn from(e: EvalError) -> Self {
        PageProblem::Fatal(e)
    }
}

/// Ingests a page (inserting it into its site's tree), falling back to a page without a URL when
/// its URL makes no key.
fn ingest(
    store: &mut Store,
    engine: &Engine,
    page: &DatasetPage,
    bytes: &[u8],
    time: i64,
    run: &mut EvalRun,
) -> Result<Ingested, PageProblem> {
    let mut doc = Document {
        bytes,
        declared_charset: None,
        url: page.url.as_deref(),
        title: page.title.as_deref(),
        time,
        entry_text: None,
    };
    match engine.ingest(store, &doc) {
        Ok(i) => {
            // The page's site leaves its history window at the page's time before the page is
            // classified, as a refresh's sweep would have taken out what left it by then (a
            // stream has no sweep).
            if let Some(key) = &i.key {
                store
                    .tree_apply_window_in(&key.domain, &engine.window, time)
                    .map_err(|e| PageProblem::Fatal(e.into()))?;
            }
            Ok(i)
        }
        Err(ExtractError::UrlKey(e)) => {
            // A URL that makes no key: score the page as one without a URL, and say so.
            run.problems
                .push(format!("page {}: {e}; scored without a tree", page.id));
            doc.url = None;
            Ok(engine.ingest(store, &doc).map_err(EvalError::from)?)
        }
        Err(e) => Err(PageProblem::Fatal(e.into())),
    }
}

/// The page's bytes as the run scores them: as recorded, or with its class names unreadable.
fn page_bytes(page: &DatasetPage, options: &EvalOptions) -> Result<Vec<u8>, PageProblem> {
    let bytes = page
        .read_html()
        .map_err(|e| PageProblem::Skip(e.to_string()))?;
    Ok(if options.unnamed {
        super::unnamed::hide_class_names(&bytes)
    } else {
        bytes
    })
}

/// The first pass of a reread run: insert only. Returns the page's tree document.
fn insert_page(
    store: &mut Store,
    engine: &Engine,
    page: &DatasetPage,
    time: i64,
    options: &EvalOptions,
    run: &mut EvalRun,
) -> Result<Option<DocId>, PageProblem> {
    let bytes = page_bytes(page, options)?;
    let started = Instant::now();
    let ingested = ingest(store, engine, page, &bytes, time, run)?;
    run.engine_time += started.elapsed();
    Ok(ingested.doc)
}

/// Classifies one page with every method and scores it. `reread` is `Some(tree document)` when the
/// page was inserted earlier (reread mode): it is then parsed again and not counted twice.
fn run_page(
    store: &mut Store,
    engine: &Engine,
    page: &DatasetPage,
    time: i64,
    reread: Option<Option<DocId>>,
    options: &EvalOptions,
    run: &mut EvalRun,
) -> Result<(), PageProblem> {
    let bytes = page_bytes(page, options)?;
    let gold = page
        .read_gold()
        .map_err(|e| PageProblem::Skip(e.to_string()))?;
    let mut scorer = score::Scorer::new(&gold);
    let started = Instant::now();
    let ingested: Ingested = match reread {
        None => ingest(store, engine, page, &bytes, time, run)?,
        Some(doc) => {
            let url = if doc.is_some() {
                page.url.as_deref()
            } else {
                None
            };
            let document = Document {
                bytes: &bytes,
                declared_charset: None,
                url,
                title: page.title.as_deref(),
                time,
                entry_text: None,
            };
            engine
                .parse(&document, doc)
                .map_err(|e| PageProblem::Fatal(e.into()))?
        }
    };
    let mut texts = Vec::with_capacity(options.methods.len());
    for (i, &method) in options.methods.iter().enumerate() {
        let method_started = Instant::now();
        let labels = engine
            .classify(store, &ingested, method)
            .map_err(EvalError::from)?;
        run.method_times[i] += method_started.elapsed();
        texts.push(classify::content_text(&ingested.page, &labels));
    }
    run.engine_time += started.elapsed();
    let page_level_started = Instant::now();
    std::hint::black_box(classify::page_level::extract(&ingested.page));
    run.page_level_time += page_level_started.elapsed();
    let mut names: Vec<String> = options.methods.iter().map(Method::to_string).collect();
    for (i, peer) in options.peers.iter().enumerate() {
        let peer_started = Instant::now();
        texts.push((peer.extract)(&bytes, page.url.as_deref()));
        if let Some(slot) = run.peer_times.get_mut(i) {
            *slot += peer_started.elapsed();
        }
        names.push(peer.name.to_owned());
    }
    for (method, text) in names.iter().zip(texts) {
        if let Some(out) = &options.out {
            let path = out.join(method).join(format!("{}.txt", page.id));
            std::fs::write(&path, &text).map_err(|error| EvalError::Write { path, error })?;
        }
        run.results.push(PageResult {
            id: page.id.clone(),
            site: page.site.clone(),
            method: method.clone(),
            has_url: ingested.key.is_some(),
            page_type: page.page_type.clone(),
            score: scorer.score(&text),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_parse_to_unix_days() {
        assert_eq!(parse_date("1970-01-01"), Some(0));
        assert_eq!(parse_date("2000-03-01"), Some(951_868_800));
        assert_eq!(parse_date("2019-11-18T10:00:00Z"), Some(1_574_035_200));
        assert_eq!(parse_date("2019-13-01"), None);
        assert_eq!(parse_date("soon"), None);
    }
}
