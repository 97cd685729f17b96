//! The `pith` command line: every job the reader does, plus `eval`.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand};

use pith::classify::{self, Method};
use pith::eval::{report, run as eval_run};
use pith::extract::{Document, Engine};
use pith::store::Store;
use pith::urlkey::QueryRules;

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
    },
}

fn default_db() -> Result<PathBuf> {
    let dir = dirs::data_dir().context(
        "cannot find the platform's data directory (set HOME or XDG_DATA_HOME, or pass --db)",
    )?;
    Ok(dir.join("pith").join("pith.db"))
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

fn open_store(db: Option<PathBuf>) -> Result<Store> {
    let path = match db {
        Some(p) => p,
        None => default_db()?,
    };
    Store::open(&path).with_context(|| format!("opening the database {}", path.display()))
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
    };
    let ingested = engine
        .ingest(&mut store, &doc)
        .with_context(|| format!("extracting {}", page.display()))?;
    let labels = engine.classify(&store, &ingested, method)?;
    let mut out = std::io::stdout().lock();
    if show_blocks {
        if ingested.duplicate {
            writeln!(
                out,
                "# this URL key was already in the tree: not counted again"
            )?;
        }
        for (block, label) in ingested.page.blocks.iter().zip(&labels) {
            let verdict = if label.is_content() {
                "CONTENT    "
            } else {
                "BOILERPLATE"
            };
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

fn eval(
    dataset: &Path,
    methods: &str,
    out: Option<PathBuf>,
    per_site: bool,
    markdown: bool,
) -> Result<()> {
    let methods = parse_methods(methods)?;
    let engine = engine()?;
    let options = eval_run::EvalOptions {
        methods,
        out: out.clone(),
    };
    let interactive = std::io::stderr().is_terminal();
    let run = eval_run::run(dataset, &options, &engine, |done, total| {
        if interactive {
            eprint!("\r{done}/{total} pages");
        }
    })
    .with_context(|| format!("evaluating {}", dataset.display()))?;
    if interactive {
        eprintln!();
    }
    for problem in &run.problems {
        eprintln!("warning: {problem}");
    }
    if run.pages == 0 {
        bail!("no page of {} could be scored", dataset.display());
    }
    let table = if markdown {
        report::format_markdown_table(&run.results, per_site)
    } else {
        report::format_table(&run.results, per_site)
    };
    println!("{table}");
    let secs = run.engine_time.as_secs_f64();
    println!(
        "{} pages, {} methods: engine {:.2} s ({:.0} pages/s, all methods), total {:.2} s",
        run.pages,
        options.methods.len(),
        secs,
        run.pages as f64 / secs.max(1e-9),
        run.total_time.as_secs_f64()
    );
    if let Some(out) = out {
        println!(
            "wrote texts, pages.csv, cumulative.csv and cumulative.png to {}",
            out.display()
        );
    }
    Ok(())
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
        }) => eval(&dataset, &heuristic, out, per_site, markdown),
        None => {
            use clap::CommandFactory;
            Cli::command().print_help().map_err(anyhow::Error::from)
        }
    };
    if let Err(e) = result {
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}
