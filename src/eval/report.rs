//! Aggregating per-page scores and reporting them: tables, CSV files and the cumulative-F1 plot.
//!
//! Everything here works on a flat list of [`PageResult`]s, one per (page, method), in the order the
//! pages were processed. The order of first appearance of the methods decides the row and column order,
//! and the order of first appearance of the page ids is the stream order (the x axis of the paper's
//! Figure 5), so callers need not sort anything.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use plotters::prelude::*;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::score::Score;

/// Recall below which a page counts as "vanished": the extractor kept less than 20% of the gold's words.
pub const VANISHED_RECALL: f64 = 0.2;

/// The score of one method on one page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PageResult {
    /// The dataset's page id.
    pub id: String,
    /// The dataset's site of the page, for per-site means.
    pub site: String,
    /// The heuristic or extractor that produced the text (e.g. `vote`, `boilerpipe`).
    pub method: String,
    /// Whether the page has a URL; pages without one cannot use a URL Tree and are reported apart.
    pub has_url: bool,
    /// The dataset's kind of page (`article`, `forum`, …), where it says, for per-type means.
    pub page_type: Option<String>,
    /// The page's score for this method.
    pub score: Score,
}

/// Which half of a dataset's sites a site falls in: a stable hash of the site's name, so that
/// rules tuned on one half can be confirmed on sites they were never tuned on.
pub fn site_half(site: &str) -> &'static str {
    use md5::{Digest, Md5};
    let digest = Md5::digest(site.as_bytes());
    if digest[0] & 1 == 0 { "A" } else { "B" }
}

/// A way to group pages for a table beside the overall one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grouping {
    /// By the dataset's page type (pages without one are `(none)`).
    PageType,
    /// By the half of the site split ([`site_half`]).
    SiteHalf,
}

impl Grouping {
    fn key(self, result: &PageResult) -> String {
        match self {
            Grouping::PageType => result
                .page_type
                .clone()
                .unwrap_or_else(|| "(none)".to_owned()),
            Grouping::SiteHalf => format!("half {}", site_half(&result.site)),
        }
    }

    fn heading(self) -> &'static str {
        match self {
            Grouping::PageType => "page type",
            Grouping::SiteHalf => "site half",
        }
    }
}

/// Rows of `grouping`'s groups, one row per group and method: `(group, method, means)`, groups
/// sorted by name and, within a group, methods in order of first appearance.
pub fn grouped_rows(
    results: &[PageResult],
    grouping: Grouping,
) -> Vec<(String, String, MeanScores)> {
    let relabelled: Vec<PageResult> = results
        .iter()
        .map(|r| PageResult {
            site: grouping.key(r),
            ..r.clone()
        })
        .collect();
    let mut rows = site_rows(&summarize(&relabelled));
    // Stable: within a group the methods keep their order.
    rows.sort_by(|a, b| a.0.cmp(&b.0));
    rows
}

/// One table per grouping of `results`, as plain text or Markdown.
pub fn format_grouped(results: &[PageResult], grouping: Grouping, markdown: bool) -> String {
    let rows = grouped_rows(results, grouping);
    let mut out = String::new();
    if markdown {
        markdown_group_rows(&mut out, grouping.heading(), &rows);
    } else {
        text_group_rows(&mut out, grouping.heading(), &rows);
    }
    out
}

/// `(group, method, means)` rows as a plain-text table whose first column is headed `heading`.
fn text_group_rows(out: &mut String, heading: &str, rows: &[(String, String, MeanScores)]) {
    let group_width = rows
        .iter()
        .map(|r| r.0.chars().count())
        .chain([heading.chars().count()])
        .max()
        .unwrap_or(4);
    let method_width = rows
        .iter()
        .map(|r| r.1.chars().count())
        .chain([6])
        .max()
        .unwrap_or(6);
    // Writing to a String cannot fail.
    let _ = writeln!(
        out,
        "{heading:<group_width$}  {:<method_width$}  {:>5}  {:>5}  {:>5}  {:>5}  {:>8}",
        "method", "pages", "P", "R", "F1", "vanished"
    );
    for (group, method, m) in rows {
        let _ = writeln!(
            out,
            "{:<group_width$}  {:<method_width$}  {:>5}  {:>5.3}  {:>5.3}  {:>5.3}  {:>8}",
            one_line(group),
            one_line(method),
            m.pages,
            m.precision,
            m.recall,
            m.f1,
            m.vanished
        );
    }
}

/// The same rows as a Markdown table.
fn markdown_group_rows(out: &mut String, heading: &str, rows: &[(String, String, MeanScores)]) {
    let _ = writeln!(
        out,
        "| {heading} | method | pages | P | R | F1 | vanished |\n|---|---|---:|---:|---:|---:|---:|"
    );
    for (group, method, m) in rows {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {:.3} | {:.3} | {:.3} | {} |",
            md_cell(group),
            md_cell(method),
            m.pages,
            m.precision,
            m.recall,
            m.f1,
            m.vanished
        );
    }
}

/// Means over a group of pages for one method.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct MeanScores {
    /// Number of pages in the group.
    pub pages: usize,
    /// Mean precision (0 when there are no pages).
    pub precision: f64,
    /// Mean recall (0 when there are no pages).
    pub recall: f64,
    /// Mean F1 (0 when there are no pages).
    pub f1: f64,
    /// Pages whose recall is below [`VANISHED_RECALL`], among pages whose gold has words (nothing
    /// can vanish from an empty gold, a known defect of a few dataset pages).
    pub vanished: usize,
}

/// One site's means for one method.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SiteSummary {
    /// The dataset's site name.
    pub site: String,
    /// The means over this site's pages.
    pub scores: MeanScores,
}

/// Everything the reports say about one method.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MethodSummary {
    /// The method's name.
    pub method: String,
    /// Means over all of the method's pages (with and without a URL).
    pub overall: MeanScores,
    /// Means over the pages without a URL only, if there are any.
    pub without_url: Option<MeanScores>,
    /// Means per site, in order of first appearance of the sites.
    pub per_site: Vec<SiteSummary>,
}

/// Cumulative mean F1 along the stream, per method (the paper's Figure 5).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CumulativeF1 {
    /// Page ids in stream order (order of first appearance).
    pub ids: Vec<String>,
    /// Method names in order of first appearance.
    pub methods: Vec<String>,
    /// `values[page][method]`: the mean F1 of that method over its results for pages `0..=page`;
    /// `None` while the method has no result yet.
    pub values: Vec<Vec<Option<f64>>>,
}

/// Why a report file could not be written.
#[derive(Debug, Error)]
pub enum ReportError {
    /// Creating or writing a file failed.
    #[error("cannot write {path}: {error}")]
    Io {
        /// The file being written.
        path: PathBuf,
        /// The underlying I/O error.
        error: std::io::Error,
    },
    /// Drawing or encoding the plot failed.
    #[error("cannot plot {path}: {message}")]
    Plot {
        /// The image being written.
        path: PathBuf,
        /// What the plotting library reported.
        message: String,
    },
}

/// Running sums for one group of pages.
#[derive(Debug, Clone, Copy, Default)]
struct Sums {
    pages: usize,
    precision: f64,
    recall: f64,
    f1: f64,
    vanished: usize,
}

impl Sums {
    fn add(&mut self, score: &Score) {
        self.pages += 1;
        self.precision += score.precision;
        self.recall += score.recall;
        self.f1 += score.f1;
        if score.gold_tokens > 0 && score.recall < VANISHED_RECALL {
            self.vanished += 1;
        }
    }

    fn mean(&self) -> MeanScores {
        if self.pages == 0 {
            return MeanScores::default();
        }
        let n = self.pages as f64;
        MeanScores {
            pages: self.pages,
            precision: self.precision / n,
            recall: self.recall / n,
            f1: self.f1 / n,
            vanished: self.vanished,
        }
    }
}

/// Indices of `keys` in order of first appearance: `(distinct keys, index of each item)`.
fn first_seen<'a>(keys: impl Iterator<Item = &'a str>) -> (Vec<&'a str>, Vec<usize>) {
    let mut order = Vec::new();
    let mut index_of: HashMap<&str, usize> = HashMap::new();
    let indices = keys
        .map(|key| {
            *index_of.entry(key).or_insert_with(|| {
                order.push(key);
                order.len() - 1
            })
        })
        .collect();
    (order, indices)
}

/// Per-method means overall, without a URL, and per site; methods and sites in order of first appearance.
pub fn summarize(results: &[PageResult]) -> Vec<MethodSummary> {
    let (methods, method_index) = first_seen(results.iter().map(|r| r.method.as_str()));
    let (sites, site_index) = first_seen(results.iter().map(|r| r.site.as_str()));
    let mut overall = vec![Sums::default(); methods.len()];
    let mut without_url = vec![Sums::default(); methods.len()];
    let mut per_site = vec![vec![Sums::default(); sites.len()]; methods.len()];
    for ((result, &m), &s) in results.iter().zip(&method_index).zip(&site_index) {
        // In bounds: `first_seen` returns indices below the number of distinct keys.
        overall[m].add(&result.score);
        per_site[m][s].add(&result.score);
        if !result.has_url {
            without_url[m].add(&result.score);
        }
    }
    methods
        .iter()
        .enumerate()
        .map(|(m, method)| MethodSummary {
            method: (*method).to_owned(),
            overall: overall[m].mean(),
            without_url: (without_url[m].pages > 0).then(|| without_url[m].mean()),
            per_site: sites
                .iter()
                .zip(&per_site[m])
                .filter(|(_, sums)| sums.pages > 0)
                .map(|(site, sums)| SiteSummary {
                    site: (*site).to_owned(),
                    scores: sums.mean(),
                })
                .collect(),
        })
        .collect()
}

/// The cumulative mean F1 of every method along the stream.
///
/// A method without a result for some page keeps its mean from the pages it has; several results of
/// one method for one id all count.
pub fn cumulative_f1(results: &[PageResult]) -> CumulativeF1 {
    let (ids, page_index) = first_seen(results.iter().map(|r| r.id.as_str()));
    let (methods, method_index) = first_seen(results.iter().map(|r| r.method.as_str()));
    // (sum of F1, count) per page and method, then prefix sums along the pages.
    let mut buckets = vec![vec![(0.0f64, 0usize); methods.len()]; ids.len()];
    for ((result, &p), &m) in results.iter().zip(&page_index).zip(&method_index) {
        let bucket = &mut buckets[p][m];
        bucket.0 += result.score.f1;
        bucket.1 += 1;
    }
    let mut running = vec![(0.0f64, 0usize); methods.len()];
    let values = buckets
        .iter()
        .map(|row| {
            running
                .iter_mut()
                .zip(row)
                .map(|(total, &(sum, count))| {
                    total.0 += sum;
                    total.1 += count;
                    (total.1 > 0).then(|| total.0 / total.1 as f64)
                })
                .collect()
        })
        .collect();
    CumulativeF1 {
        ids: ids.into_iter().map(str::to_owned).collect(),
        methods: methods.into_iter().map(str::to_owned).collect(),
        values,
    }
}

/// Table cells must stay on one line: control characters (newlines, tabs) become spaces.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// A plain-text table for the terminal: one row per method (order of first appearance) with pages,
/// mean P, R, F1 and the number of vanished pages; then the same for pages without a URL, if any; then,
/// when `per_site` is set, one row per site and method.
pub fn format_table(results: &[PageResult], per_site: bool) -> String {
    let summaries = summarize(results);
    let mut out = String::new();
    if summaries.is_empty() {
        out.push_str("no results\n");
        return out;
    }
    let method_width = summaries
        .iter()
        .map(|s| one_line(&s.method).chars().count())
        .chain([6])
        .max()
        .unwrap_or(6);
    let header = |out: &mut String, first: &str, width: usize| {
        // Writing to a String cannot fail.
        let _ = writeln!(
            out,
            "{first:<width$}  {:>5}  {:>5}  {:>5}  {:>5}  {:>8}",
            "pages", "P", "R", "F1", "vanished"
        );
    };
    let row = |out: &mut String, first: &str, width: usize, m: &MeanScores| {
        let _ = writeln!(
            out,
            "{first:<width$}  {:>5}  {:>5.3}  {:>5.3}  {:>5.3}  {:>8}",
            m.pages, m.precision, m.recall, m.f1, m.vanished
        );
    };

    header(&mut out, "method", method_width);
    for s in &summaries {
        row(&mut out, &one_line(&s.method), method_width, &s.overall);
    }

    if summaries.iter().any(|s| s.without_url.is_some()) {
        out.push_str("\npages without a URL (page-level classification only):\n");
        header(&mut out, "method", method_width);
        for s in &summaries {
            if let Some(m) = &s.without_url {
                row(&mut out, &one_line(&s.method), method_width, m);
            }
        }
    }

    if per_site {
        out.push_str("\nper site:\n");
        text_group_rows(&mut out, "site", &site_rows(&summaries));
    }
    out
}

/// Per-site rows, site-major (sites in order of first appearance, then methods), so that methods can
/// be compared within a site.
fn site_rows(summaries: &[MethodSummary]) -> Vec<(String, String, MeanScores)> {
    let (sites, _) = first_seen(
        summaries
            .iter()
            .flat_map(|s| s.per_site.iter().map(|site| site.site.as_str())),
    );
    let mut rows = Vec::new();
    for site in sites {
        for summary in summaries {
            if let Some(found) = summary.per_site.iter().find(|s| s.site == site) {
                rows.push((one_line(site), one_line(&summary.method), found.scores));
            }
        }
    }
    rows
}

/// A Markdown cell: one line, with the table's column separator escaped.
fn md_cell(text: &str) -> String {
    one_line(text).replace('|', "\\|")
}

/// The same content as [`format_table`] as Markdown tables, for README.md.
pub fn format_markdown_table(results: &[PageResult], per_site: bool) -> String {
    let summaries = summarize(results);
    let mut out = String::new();
    let columns = "| pages | P | R | F1 | vanished |";
    let rule = "|---:|---:|---:|---:|---:|";
    let cells = |m: &MeanScores| {
        format!(
            "| {} | {:.3} | {:.3} | {:.3} | {} |",
            m.pages, m.precision, m.recall, m.f1, m.vanished
        )
    };
    // Writing to a String cannot fail.
    let _ = writeln!(out, "| method {columns}\n|---{rule}");
    for s in &summaries {
        let _ = writeln!(out, "| {} {}", md_cell(&s.method), cells(&s.overall));
    }
    if summaries.iter().any(|s| s.without_url.is_some()) {
        let _ = writeln!(
            out,
            "\nPages without a URL (page-level classification only):\n\n| method {columns}\n|---{rule}"
        );
        for s in &summaries {
            if let Some(m) = &s.without_url {
                let _ = writeln!(out, "| {} {}", md_cell(&s.method), cells(m));
            }
        }
    }
    if per_site {
        out.push('\n');
        markdown_group_rows(&mut out, "site", &site_rows(&summaries));
    }
    out
}

/// A CSV field, quoted when it contains a separator, a quote or a line break (RFC 4180).
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

/// Creates `path` and hands a buffered writer to `write`, attaching the path to any I/O error.
fn write_file(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<File>) -> std::io::Result<()>,
) -> Result<(), ReportError> {
    let io = |error| ReportError::Io {
        path: path.to_owned(),
        error,
    };
    let mut file = BufWriter::new(File::create(path).map_err(io)?);
    write(&mut file).map_err(io)?;
    file.flush().map_err(io)
}

/// Writes one row per result:
/// `id,site,method,has_url,precision,recall,f1,extracted_tokens,gold_tokens,page_type,site_half`.
pub fn write_page_csv(path: &Path, results: &[PageResult]) -> Result<(), ReportError> {
    write_file(path, |out| {
        writeln!(
            out,
            "id,site,method,has_url,precision,recall,f1,extracted_tokens,gold_tokens,page_type,site_half"
        )?;
        for r in results {
            writeln!(
                out,
                "{},{},{},{},{:.6},{:.6},{:.6},{},{},{},{}",
                csv_field(&r.id),
                csv_field(&r.site),
                csv_field(&r.method),
                r.has_url,
                r.score.precision,
                r.score.recall,
                r.score.f1,
                r.score.extracted_tokens,
                r.score.gold_tokens,
                csv_field(r.page_type.as_deref().unwrap_or("")),
                site_half(&r.site)
            )?;
        }
        Ok(())
    })
}

/// Writes the cumulative mean F1 along the stream: `index,id,<method>...`, one row per page in stream
/// order, `index` counting pages from 1; a cell is empty while its method has no result yet.
pub fn write_cumulative_csv(path: &Path, results: &[PageResult]) -> Result<(), ReportError> {
    let cumulative = cumulative_f1(results);
    write_file(path, |out| {
        write!(out, "index,id")?;
        for method in &cumulative.methods {
            write!(out, ",{}", csv_field(method))?;
        }
        writeln!(out)?;
        for (i, (id, row)) in cumulative.ids.iter().zip(&cumulative.values).enumerate() {
            write!(out, "{},{}", i + 1, csv_field(id))?;
            for value in row {
                match value {
                    Some(v) => write!(out, ",{v:.6}")?,
                    None => write!(out, ",")?,
                }
            }
            writeln!(out)?;
        }
        Ok(())
    })
}

/// Plot size in pixels.
const PLOT_SIZE: (u32, u32) = (1000, 600);

/// Registers the bundled font as plotters' `sans-serif` once per process (there are no system fonts).
fn register_plot_font() -> Result<(), String> {
    static REGISTERED: OnceLock<Result<(), String>> = OnceLock::new();
    REGISTERED
        .get_or_init(|| {
            plotters::style::register_font(
                "sans-serif",
                FontStyle::Normal,
                epaint_default_fonts::UBUNTU_LIGHT,
            )
            .map_err(|_| "the bundled Ubuntu-Light font could not be loaded".to_owned())
        })
        .clone()
}

/// The y axis starts at the tenth below the lowest value shown (at most 0.9, at least 0), so that the
/// differences between methods, which live near the top, are visible.
fn y_lower_bound(cumulative: &CumulativeF1) -> f64 {
    let lowest = cumulative
        .values
        .iter()
        .flatten()
        .flatten()
        .copied()
        .filter(|v| v.is_finite())
        .fold(f64::INFINITY, f64::min);
    if lowest.is_finite() {
        ((lowest * 10.0).floor() / 10.0).clamp(0.0, 0.9)
    } else {
        0.0
    }
}

/// Plots the cumulative mean F1 of every method along the stream as a PNG: x = pages processed,
/// y = cumulative mean F1, one line per method, with a legend.
///
/// The image is drawn to a temporary file beside `path` and renamed into place, so that a failed run
/// never leaves a half-written plot and `path` need not end in `.png`.
pub fn plot_cumulative_png(
    path: &Path,
    results: &[PageResult],
    title: &str,
) -> Result<(), ReportError> {
    let plot_error = |message: String| ReportError::Plot {
        path: path.to_owned(),
        message,
    };
    let Some(file_name) = path.file_name() else {
        return Err(plot_error("the path has no file name".to_owned()));
    };
    let mut temp_name = file_name.to_owned();
    temp_name.push(".part.png");
    let temp = path.with_file_name(temp_name);

    register_plot_font().map_err(plot_error)?;
    let cumulative = cumulative_f1(results);
    if let Err(message) = draw_cumulative(&temp, &cumulative, title) {
        let _ = std::fs::remove_file(&temp);
        return Err(plot_error(message));
    }
    std::fs::rename(&temp, path).map_err(|error| {
        let _ = std::fs::remove_file(&temp);
        ReportError::Io {
            path: path.to_owned(),
            error,
        }
    })
}

/// Draws the chart into `target` (which must end in `.png`: the encoder goes by the extension).
fn draw_cumulative(target: &Path, cumulative: &CumulativeF1, title: &str) -> Result<(), String> {
    let text = |e: &dyn std::fmt::Display| e.to_string();
    let root = BitMapBackend::new(target, PLOT_SIZE).into_drawing_area();
    root.fill(&WHITE).map_err(|e| text(&e))?;

    let pages = cumulative.ids.len();
    let x_max = pages.max(1) as f64;
    let y_min = y_lower_bound(cumulative);
    let mut chart = ChartBuilder::on(&root)
        .caption(one_line(title), ("sans-serif", 26))
        .margin(16)
        .x_label_area_size(48)
        .y_label_area_size(64)
        .build_cartesian_2d(0.0..x_max, y_min..1.0)
        .map_err(|e| text(&e))?;
    chart
        .configure_mesh()
        .x_desc("pages processed")
        .y_desc("cumulative mean F1")
        .axis_desc_style(("sans-serif", 18))
        .label_style(("sans-serif", 15))
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.2}"))
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(|e| text(&e))?;

    for (m, method) in cumulative.methods.iter().enumerate() {
        let color = Palette99::pick(m).to_rgba();
        let points: Vec<(f64, f64)> = cumulative
            .values
            .iter()
            .enumerate()
            .filter_map(|(p, row)| Some(((p + 1) as f64, (*row.get(m)?)?)))
            .filter(|(_, y)| y.is_finite())
            .collect();
        chart
            .draw_series(LineSeries::new(points, color.stroke_width(2)))
            .map_err(|e| text(&e))?
            .label(one_line(method))
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 24, y)], color.stroke_width(2))
            });
    }
    if !cumulative.methods.is_empty() {
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .label_font(("sans-serif", 16))
            .draw()
            .map_err(|e| text(&e))?;
    }
    root.present().map_err(|e| text(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(id: &str, site: &str, method: &str, has_url: bool, p: f64, r: f64) -> PageResult {
        let f1 = if p + r > 0.0 {
            2.0 * p * r / (p + r)
        } else {
            0.0
        };
        PageResult {
            id: id.into(),
            site: site.into(),
            method: method.into(),
            has_url,
            page_type: None,
            score: Score {
                precision: p,
                recall: r,
                f1,
                extracted_tokens: 10,
                gold_tokens: 10,
                lcs: 5,
            },
        }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    /// Two methods over three pages on two sites; page p3 has no URL.
    fn sample() -> Vec<PageResult> {
        vec![
            result("p1", "a.com", "vote", true, 1.0, 1.0),
            result("p1", "a.com", "strict", true, 0.5, 0.5),
            result("p2", "a.com", "vote", true, 0.5, 0.1),
            result("p2", "a.com", "strict", true, 1.0, 1.0),
            result("p3", "b.org", "vote", false, 0.0, 0.0),
            result("p3", "b.org", "strict", false, 0.8, 0.4),
        ]
    }

    #[test]
    fn aggregation_by_method_site_and_url() {
        let summaries = summarize(&sample());
        let names: Vec<&str> = summaries.iter().map(|s| s.method.as_str()).collect();
        assert_eq!(names, ["vote", "strict"]);

        let vote = &summaries[0];
        assert_eq!(vote.overall.pages, 3);
        assert!(close(vote.overall.precision, 0.5));
        assert!(close(vote.overall.recall, 1.1 / 3.0));
        let f1_p2 = 2.0 * 0.5 * 0.1 / 0.6;
        assert!(close(vote.overall.f1, (1.0 + f1_p2) / 3.0));
        assert_eq!(vote.overall.vanished, 2); // recall 0.1 and 0.0
        let no_url = vote.without_url.expect("p3 has no URL");
        assert_eq!((no_url.pages, no_url.vanished), (1, 1));
        assert!(close(no_url.f1, 0.0));
        let sites: Vec<&str> = vote.per_site.iter().map(|s| s.site.as_str()).collect();
        assert_eq!(sites, ["a.com", "b.org"]);
        assert_eq!(vote.per_site[0].scores.pages, 2);
        assert!(close(vote.per_site[0].scores.precision, 0.75));
        assert!(close(vote.per_site[0].scores.recall, 0.55));
        assert_eq!(vote.per_site[0].scores.vanished, 1);

        let strict = &summaries[1];
        assert!(close(strict.overall.precision, 2.3 / 3.0));
        assert!(close(strict.overall.recall, 1.9 / 3.0));
        assert_eq!(strict.overall.vanished, 0);
        let f1_p3 = 2.0 * 0.8 * 0.4 / 1.2;
        assert!(close(strict.overall.f1, (0.5 + 1.0 + f1_p3) / 3.0));
        assert!(close(strict.without_url.expect("p3").precision, 0.8));

        // Without URL-less pages there is no such group.
        let with_urls: Vec<PageResult> = sample().into_iter().filter(|r| r.has_url).collect();
        assert!(
            summarize(&with_urls)
                .iter()
                .all(|s| s.without_url.is_none())
        );
        assert!(summarize(&[]).is_empty());
    }

    #[test]
    fn an_empty_gold_never_counts_as_vanished() {
        let mut empty_gold = result("a", "s", "m", true, 0.0, 0.0);
        empty_gold.score = Score::from_counts(10, 0, 0);
        assert_eq!(summarize(&[empty_gold])[0].overall.vanished, 0);
    }

    #[test]
    fn vanished_threshold_is_strict() {
        let results = [
            result("a", "s", "m", true, 1.0, 0.2),
            result("b", "s", "m", true, 1.0, 0.19999),
        ];
        assert_eq!(summarize(&results)[0].overall.vanished, 1);
    }

    #[test]
    fn plain_table() {
        let table = format_table(&sample(), false);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines[0], "method  pages      P      R     F1  vanished");
        assert_eq!(lines[1], "vote        3  0.500  0.367  0.389         2");
        assert!(
            lines[2].starts_with("strict      3  0.767  0.633  "),
            "{table}"
        );
        assert!(table.contains("pages without a URL"), "{table}");
        assert!(
            table.contains("vote        1  0.000  0.000  0.000         1"),
            "{table}"
        );
        assert!(!table.contains("per site"));

        let with_sites = format_table(&sample(), true);
        assert!(with_sites.contains("per site:"), "{with_sites}");
        assert!(
            with_sites.contains("a.com  vote        2  0.750  0.550  0.583         1"),
            "{with_sites}"
        );
        assert!(with_sites.contains("b.org  strict      1  0.800  0.400  0.533         0"));
        // All data rows of a section are as wide as its header.
        let section: Vec<&str> = with_sites
            .split("per site:\n")
            .nth(1)
            .unwrap_or("")
            .lines()
            .collect();
        assert!(
            section
                .iter()
                .all(|l| l.chars().count() == section[0].chars().count())
        );
        assert_eq!(format_table(&[], true), "no results\n");
    }

    #[test]
    fn markdown_table() {
        let mut results = sample();
        results[0].method = "a|b".into();
        let md = format_markdown_table(&results, true);
        let lines: Vec<&str> = md.lines().collect();
        assert_eq!(lines[0], "| method | pages | P | R | F1 | vanished |");
        assert_eq!(lines[1], "|---|---:|---:|---:|---:|---:|");
        assert_eq!(lines[2], "| a\\|b | 1 | 1.000 | 1.000 | 1.000 | 0 |");
        assert!(md.contains("| site | method | pages | P | R | F1 | vanished |"));
        assert!(
            md.contains("| b.org | strict | 1 | 0.800 | 0.400 | 0.533 | 0 |"),
            "{md}"
        );
    }

    #[test]
    fn grouped_tables_split_pages_by_type_and_by_site_half() {
        let mut results = sample();
        for r in &mut results {
            r.page_type = (r.id != "p3").then(|| "article".to_owned());
        }
        let rows = grouped_rows(&results, Grouping::PageType);
        let got: Vec<(&str, &str, usize)> = rows
            .iter()
            .map(|(g, m, s)| (g.as_str(), m.as_str(), s.pages))
            .collect();
        assert_eq!(
            got,
            [
                ("(none)", "vote", 1),
                ("(none)", "strict", 1),
                ("article", "vote", 2),
                ("article", "strict", 2)
            ]
        );
        // The halves follow the first byte of the site's MD5: 0x4e is even, 0x41 odd. Pinned,
        // so that the split can never change under a report already published.
        assert_eq!((site_half("e.com"), site_half("f.com")), ("A", "B"));
        let halves = grouped_rows(&results, Grouping::SiteHalf);
        let vote_pages: usize = halves
            .iter()
            .filter(|r| r.1 == "vote")
            .map(|r| r.2.pages)
            .sum();
        assert_eq!(vote_pages, 3);
        for (group, _, _) in &halves {
            assert!(group == "half A" || group == "half B", "{group}");
        }
        let expected_a_com = format!("half {}", site_half("a.com"));
        let a_com_vote = halves
            .iter()
            .find(|r| r.0 == expected_a_com && r.1 == "vote")
            .expect("a.com's half has a vote row");
        assert!(a_com_vote.2.pages >= 2);
        let text = format_grouped(&results, Grouping::PageType, false);
        assert!(text.starts_with("page type"), "{text}");
        assert!(text.contains("article"), "{text}");
        let md = format_grouped(&results, Grouping::SiteHalf, true);
        assert!(md.starts_with("| site half | method |"), "{md}");
    }

    #[test]
    fn cumulative_values() {
        let cumulative = cumulative_f1(&sample());
        assert_eq!(cumulative.ids, ["p1", "p2", "p3"]);
        assert_eq!(cumulative.methods, ["vote", "strict"]);
        let f1_p2 = 2.0 * 0.5 * 0.1 / 0.6;
        let f1_p3 = 2.0 * 0.8 * 0.4 / 1.2;
        let expected = [
            [1.0, 0.5],
            [(1.0 + f1_p2) / 2.0, 0.75],
            [(1.0 + f1_p2) / 3.0, (1.5 + f1_p3) / 3.0],
        ];
        for (row, want) in cumulative.values.iter().zip(expected) {
            for (got, want) in row.iter().zip(want) {
                assert!(close(got.expect("value"), want), "{got:?} vs {want}");
            }
        }
    }

    #[test]
    fn cumulative_with_gaps_and_unordered_results() {
        // Method "late" starts at the second page; results arrive grouped by method.
        let results = [
            result("x", "s", "early", true, 1.0, 1.0),
            result("y", "s", "early", true, 0.0, 0.0),
            result("y", "s", "late", true, 0.5, 0.5),
        ];
        let c = cumulative_f1(&results);
        assert_eq!(
            c.values,
            vec![vec![Some(1.0), None], vec![Some(0.5), Some(0.5)]]
        );
    }

    #[test]
    fn csv_files() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut results = sample();
        results[0].id = "p1".into();
        results.push(result("odd, \"id\"", "a.com", "vote", true, 1.0, 1.0));

        let cumulative_path = dir.path().join("cumulative.csv");
        write_cumulative_csv(&cumulative_path, &results).expect("write");
        let text = std::fs::read_to_string(&cumulative_path).expect("read");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "index,id,vote,strict");
        assert_eq!(lines[1], "1,p1,1.000000,0.500000");
        assert_eq!(lines[2], "2,p2,0.583333,0.750000");
        assert_eq!(lines[3], "3,p3,0.388889,0.677778");
        assert_eq!(lines[4], "4,\"odd, \"\"id\"\"\",0.541667,0.677778");
        assert_eq!(lines.len(), 5);

        let pages_path = dir.path().join("pages.csv");
        write_page_csv(&pages_path, &results).expect("write");
        let text = std::fs::read_to_string(&pages_path).expect("read");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "id,site,method,has_url,precision,recall,f1,extracted_tokens,gold_tokens,page_type,site_half"
        );
        assert_eq!(
            lines[1],
            "p1,a.com,vote,true,1.000000,1.000000,1.000000,10,10,,B"
        );
        assert_eq!(
            lines[5],
            "p3,b.org,vote,false,0.000000,0.000000,0.000000,10,10,,B"
        );
        assert_eq!(lines.len(), 1 + results.len());
        assert!(lines[7].starts_with("\"odd, \"\"id\"\"\",a.com,vote,"));

        let missing = dir.path().join("no/such/dir/x.csv");
        let err = write_page_csv(&missing, &results).expect_err("must fail");
        assert!(err.to_string().contains("no/such/dir/x.csv"), "{err}");
    }

    /// Checks the PNG signature, the IHDR size and that the chunk list is intact up to IEND.
    fn png_size(bytes: &[u8]) -> Option<(u32, u32)> {
        const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
        let mut rest = bytes.strip_prefix(SIGNATURE)?;
        let mut size = None;
        loop {
            let len = u32::from_be_bytes(rest.get(0..4)?.try_into().ok()?) as usize;
            let kind = rest.get(4..8)?;
            let data = rest.get(8..8 + len)?;
            if kind == b"IHDR" {
                let w = u32::from_be_bytes(data.get(0..4)?.try_into().ok()?);
                let h = u32::from_be_bytes(data.get(4..8)?.try_into().ok()?);
                size = Some((w, h));
            }
            rest = rest.get(12 + len..)?;
            if kind == b"IEND" {
                return if rest.is_empty() { size } else { None };
            }
        }
    }

    #[test]
    fn png_plot_is_written() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut results = Vec::new();
        for i in 0..50 {
            let id = format!("page{i}");
            let wobble = (i % 7) as f64 / 20.0;
            results.push(result(&id, "s", "vote", true, 0.9 - wobble, 0.95));
            results.push(result(
                &id,
                "s",
                "strict-at-domain",
                true,
                0.7 + wobble,
                0.6,
            ));
        }
        // Any file name works, not only *.png.
        let path = dir.path().join("figure5.image");
        plot_cumulative_png(&path, &results, "cumulative F1 — msvcode-big9").expect("plot");
        let bytes = std::fs::read(&path).expect("read");
        assert!(bytes.len() > 1000);
        assert_eq!(png_size(&bytes), Some(PLOT_SIZE));
        assert!(!dir.path().join("figure5.image.part.png").exists());

        // No results still gives an (empty) chart rather than an error.
        let empty = dir.path().join("empty.png");
        plot_cumulative_png(&empty, &[], "nothing").expect("plot");
        assert_eq!(
            png_size(&std::fs::read(&empty).expect("read")),
            Some(PLOT_SIZE)
        );

        let bad = dir.path().join("missing-dir/plot.png");
        let err = plot_cumulative_png(&bad, &results, "x").expect_err("must fail");
        assert!(err.to_string().contains("missing-dir"), "{err}");
    }
}
