//! `pith stats` (what takes the space), `pith retention` (how long items are kept) and `pith
//! cleanup` (retention now, to the end): the store measures and deletes; here is what is shown.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result};
use pith::refresh::unix_now;
use pith::store::{Retention, SpaceReport, SweepLimits, Swept};
use pith::urltree::HistoryWindow;

use super::open::{engine, open_store, open_store_to_read};

/// `pith stats`.
pub fn stats(db: Option<PathBuf>) -> Result<()> {
    let store = open_store_to_read(db)?;
    let report = store.space().context("measuring the database")?;
    let policy = store.retention()?;
    for line in stats_lines(&report, &policy, &engine()?.window) {
        outln!("{line}");
    }
    Ok(())
}

/// Megabytes with one decimal (what a reader compares), bytes below 100 KB.
fn size(bytes: u64) -> String {
    if bytes < 100 * 1000 {
        format!("{:.1} KB", bytes as f64 / 1e3)
    } else {
        format!("{:.1} MB", bytes as f64 / 1e6)
    }
}

/// A retention period as words.
fn period(days: u32) -> String {
    match days {
        0 => "never".to_string(),
        1 => "after 1 day".to_string(),
        d => format!("after {d} days"),
    }
}

/// The lines `pith stats` prints.
pub fn stats_lines(
    report: &SpaceReport,
    policy: &Retention,
    window: &HistoryWindow,
) -> Vec<String> {
    let items = &report.items;
    let mut out = vec![
        format!(
            "file: {} ({} free pages of {} bytes = {}; {})",
            size(report.file_bytes),
            report.free_pages,
            report.page_size,
            size(report.free_pages * report.page_size),
            if report.incremental_vacuum {
                format!(
                    "given back by retention past a {} reserve",
                    size(pith::limits::RETENTION_FREE_PAGES_KEPT * report.page_size)
                )
            } else {
                "reused by new data; `pith cleanup --vacuum` lets the file shrink".to_string()
            }
        ),
        format!(
            "items: {} ({} unread, {} starred); {} with their raw page, {} read from their record alone; {} feed entries kept after their item went",
            items.total,
            items.unread,
            items.starred,
            items.with_page,
            items.record_only,
            items.tombstones
        ),
        format!(
            "bytes {}:",
            if report.measured {
                "measured with SQLite's dbstat (tables with their indexes)"
            } else {
                "estimated from stored lengths (this SQLite has no dbstat)"
            }
        ),
        format!(
            "  {:<16} {:>10} {:>11} {:>6}",
            "part", "rows", "bytes", "share"
        ),
    ];
    let total = report.file_bytes.max(1);
    for part in &report.parts {
        out.push(format!(
            "  {:<16} {:>10} {:>11} {:>5.1}%",
            part.name,
            part.rows,
            size(part.bytes),
            part.bytes as f64 * 100.0 / total as f64
        ));
    }
    out.push(format!(
        "  {:<16} {:>10} {:>11} {:>5.1}%",
        "free pages",
        report.free_pages,
        size(report.free_pages * report.page_size),
        (report.free_pages * report.page_size) as f64 * 100.0 / total as f64
    ));
    out.push(format!(
        "retention: read items go {}, unread items {}, starred never; raw pages once they leave the URL Tree's window ({} days; a site's {} newest stay), the article then read from its record (`pith retention` to change)",
        period(policy.read_days),
        period(policy.unread_days),
        window.max_age_secs / 86_400,
        window.keep_newest
    ));
    out
}

/// `pith retention [--read-days N] [--unread-days N]`: sets what is given, then shows the periods.
pub fn retention(db: Option<PathBuf>, read: Option<u32>, unread: Option<u32>) -> Result<()> {
    let mut store = open_store(db)?;
    let mut policy = store.retention()?;
    if read.is_some() || unread.is_some() {
        policy.read_days = read.unwrap_or(policy.read_days);
        policy.unread_days = unread.unwrap_or(policy.unread_days);
        store
            .set_retention(policy)
            .context("storing the retention periods")?;
    }
    outln!(
        "read items go {}, unread items {}, starred items never (counted from their arrival; applied at every refresh, or now with `pith cleanup`)",
        period(policy.read_days),
        period(policy.unread_days)
    );
    Ok(())
}

/// `pith cleanup [--vacuum]`.
pub fn cleanup(db: Option<PathBuf>, vacuum: bool) -> Result<()> {
    let mut store = open_store(db)?;
    store.check_writable()?;
    let before = store.space_file_bytes()?;
    let policy = store.retention()?;
    let window = engine()?.window;
    // No limit but a generous time: the user asked for it and waits on it.
    let swept = store
        .retention_sweep(
            &policy,
            &window,
            unix_now(),
            &SweepLimits::unbounded(Duration::from_secs(3600)),
        )
        .context("applying the retention policy")?;
    if vacuum {
        store
            .compact()
            .context("rewriting the database file (VACUUM)")?;
    }
    store.checkpoint()?;
    let after = store.space_file_bytes()?;
    outln!("{}", cleanup_line(&swept, before, after));
    Ok(())
}

/// The line `pith cleanup` ends with.
fn cleanup_line(swept: &Swept, before: u64, after: u64) -> String {
    format!(
        "deleted {} items past their period, dropped {} raw pages past the URL Tree's window and took {} documents that left it out of their site's tree{}; the file went from {} to {}",
        swept.items_deleted,
        swept.pages_dropped,
        swept.tree_docs_removed,
        if swept.finished {
            ""
        } else {
            " (not finished: run it again)"
        },
        size(before),
        size(after)
    )
}
