//! `pith eval`: a dataset streamed through a fresh database and scored; the scoring is the
//! library's ([`pith::eval`]), here are the options, the progress and the tables printed.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use pith::classify::Method;
use pith::eval::{report, run as eval_run};

use super::open::engine;

/// Which tables `pith eval` prints besides the overall one.
pub struct Tables {
    /// Also the per-site rows.
    pub per_site: bool,
    /// As Markdown.
    pub markdown: bool,
    /// The grouped means to add (per page type, per half of the site split).
    pub groupings: Vec<report::Grouping>,
}

/// Scores `methods` (a name, a comma-separated list or `all`) on `dataset` in `mode` (`causal`
/// or `reread`), writing the texts and figures to `out` when given; with `unnamed`, on the pages
/// with their class names made unreadable.
pub fn eval(
    dataset: &Path,
    methods: &str,
    out: Option<PathBuf>,
    tables: &Tables,
    mode: &str,
    unnamed: bool,
) -> Result<()> {
    let methods = parse_methods(methods)?;
    let mode = eval_run::Mode::parse(mode)
        .with_context(|| format!("unknown --mode {mode:?}: use causal or reread"))?;
    let engine = engine()?;
    let options = eval_run::EvalOptions {
        methods,
        out: out.clone(),
        mode,
        peers: Vec::new(),
        unnamed,
    };
    let interactive = std::io::stderr().is_terminal();
    let run = eval_run::run(dataset, &options, &engine, |done, total| {
        if interactive {
            let _ = write!(std::io::stderr().lock(), "\r{done}/{total} pages");
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
    print_report(&run, &options.methods, tables)?;
    if let Some(out) = out {
        outln!(
            "wrote texts, pages.csv, cumulative.csv and cumulative.png to {}",
            out.display()
        );
    }
    Ok(())
}

/// The methods `spec` names: one, a comma-separated list, or `all`.
fn parse_methods(spec: &str) -> Result<Vec<Method>> {
    if spec == "all" {
        return Ok(Method::all());
    }
    spec.split(',')
        .map(|name| Method::parse(name.trim()).map_err(anyhow::Error::from))
        .collect()
}

/// The tables, then the time the engine took: in all, and (outside Markdown) per page and method.
fn print_report(run: &eval_run::EvalRun, methods: &[Method], tables: &Tables) -> Result<()> {
    let (per_site, markdown) = (tables.per_site, tables.markdown);
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
        methods.len(),
        secs,
        run.pages as f64 / secs.max(1e-9),
        run.total_time.as_secs_f64()
    );
    if !markdown && run.pages > 0 {
        outln!("{}", per_page_line(run, methods));
    }
    Ok(())
}

/// Milliseconds per page: pith-page's extraction, then each method's cost.
fn per_page_line(run: &eval_run::EvalRun, methods: &[Method]) -> String {
    let per_page = |d: std::time::Duration| d.as_secs_f64() * 1000.0 / run.pages as f64;
    let page_level = per_page(run.page_level_time);
    let mut line = format!("ms/page: pith-page's extraction {page_level:.3}");
    for (method, time) in methods.iter().zip(&run.method_times) {
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
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn methods_are_named_one_by_one_or_all() {
        assert_eq!(parse_methods("all").unwrap(), Method::all());
        assert_eq!(
            parse_methods("pith-page, pith").unwrap(),
            [Method::PithPage, Method::Site]
        );
        assert!(parse_methods("pith-page,nonsense").is_err());
    }
}
