//! `pith refresh` (and the fetch after `pith add`): the refresh itself is the library's; here are
//! its progress on standard error and its summary line.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use pith::fetch::FetchConfig;
use pith::refresh::{self, Event, FeedOutcome, RefreshOptions, Summary};
use pith::store::Store;

use super::open::{db_path, engine, find_feed};
use super::words::when;

/// What one refresh is asked to do.
pub struct Options {
    /// Only these feeds (all when `None`).
    pub only: Option<Vec<i64>>,
    /// Worker threads.
    pub jobs: usize,
    /// Whether to download the images articles keep.
    pub images: bool,
    /// The fetcher's settings.
    pub fetch: FetchConfig,
}

/// `pith refresh [FEED]`: every feed, or the one with id or URL `feed`.
pub fn command(
    db: Option<PathBuf>,
    feed: Option<&str>,
    jobs: usize,
    images: bool,
    fetch: FetchConfig,
) -> Result<()> {
    let path = db_path(db)?;
    let only = match feed {
        Some(spec) => {
            let store = Store::open(&path)
                .with_context(|| format!("opening the database {}", path.display()))?;
            Some(vec![find_feed(&store, spec)?.id])
        }
        None => None,
    };
    let options = Options {
        only,
        jobs,
        images,
        fetch,
    };
    run(&path, options)
}

/// Refreshes the database at `path`: a progress bar on a terminal, one line per feed otherwise,
/// and the summary on standard output.
pub fn run(path: &Path, options: Options) -> Result<()> {
    let engine = engine()?;
    let options = RefreshOptions {
        jobs: options.jobs.max(1),
        fetch: options.fetch,
        feeds: options.only,
        images: options.images,
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
    let on_event = |event: Event| match &bar {
        Some(bar) => show_on_bar(bar, event),
        None => note_event(event),
    };
    let started = std::time::Instant::now();
    let summary = refresh::refresh(path, &engine, &options, &on_event)
        .with_context(|| format!("refreshing the feeds in {}", path.display()))?;
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    outln!("{}", summary_line(&summary, started.elapsed()));
    Ok(())
}

/// On a terminal: the bar counts feeds and pages, and a feed's failure is printed above it.
fn show_on_bar(bar: &indicatif::ProgressBar, event: Event) {
    match event {
        Event::Started { feeds } => {
            bar.set_length(feeds as u64);
            bar.set_message("feeds and pages");
        }
        Event::PagesQueued { count, .. } => bar.inc_length(count as u64),
        Event::PageDone { .. } => bar.inc(1),
        Event::FeedDone { url, outcome, .. } => {
            bar.inc(1);
            if let FeedOutcome::Failed { error } = outcome {
                bar.println(format!("{url}: {error}"));
            }
        }
    }
}

/// Elsewhere (a log, a pipe): one line per feed, and one per page that could not be fetched.
fn note_event(event: Event) {
    match event {
        Event::FeedDone { url, outcome, .. } => match outcome {
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
        Event::PageDone {
            title,
            error: Some(e),
            ..
        } => {
            note!("  {title}: page not fetched: {e}")
        }
        _ => {}
    }
}

/// The one line a refresh ends with (and what retention did, when it did something).
fn summary_line(summary: &Summary, took: std::time::Duration) -> String {
    let mut line = refresh_line(summary, took);
    if summary.expired_items > 0 || summary.dropped_pages > 0 {
        line.push_str(&format!(
            "; retention deleted {} items past their period and dropped {} raw pages past the URL Tree's window",
            summary.expired_items, summary.dropped_pages
        ));
    }
    if summary.search_rows_rewritten > 0 {
        let n = summary.search_rows_rewritten;
        line.push_str(&format!(
            "; the search index rewrote {n} {} rows in its current form",
            if n == 1 { "item's" } else { "items'" }
        ));
    }
    if let Some(e) = &summary.search_upkeep_error {
        line.push_str(&format!(
            "; the search index could not be brought up to date ({e}); the next refresh tries again"
        ));
    }
    line
}

/// What the refresh itself did.
fn refresh_line(summary: &Summary, took: std::time::Duration) -> String {
    format!(
        "refreshed {} feeds in {:.1} s: {} new items, {} linked, {} pages not fetched; {} not modified, {} failed, {} deferred ({} feed requests, {} conditional; {} page and {} image requests)",
        summary.feeds_updated
            + summary.feeds_not_modified
            + summary.feeds_failed
            + summary.feeds_deferred,
        took.as_secs_f64(),
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
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The summary line says what the search index's upkeep did only when it did something, and
    /// why it could not when it failed.
    #[test]
    fn the_summary_line_tells_the_search_upkeep() {
        let took = std::time::Duration::from_millis(100);
        let quiet = summary_line(&Summary::default(), took);
        assert!(!quiet.contains("search index"), "{quiet}");
        let one = Summary {
            search_rows_rewritten: 1,
            ..Summary::default()
        };
        assert!(
            summary_line(&one, took)
                .ends_with("; the search index rewrote 1 item's rows in its current form"),
            "{}",
            summary_line(&one, took)
        );
        let failed = Summary {
            search_upkeep_error: Some("database error: disk I/O error".into()),
            ..Summary::default()
        };
        assert!(
            summary_line(&failed, took).ends_with(
                "; the search index could not be brought up to date (database error: disk I/O \
                 error); the next refresh tries again"
            ),
            "{}",
            summary_line(&failed, took)
        );
    }
}
