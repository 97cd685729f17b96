//! `pith extract`: one saved page through the engine, into its site's tree, and its content text
//! (or every block with its verdict) out.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use pith::classify::{self, Label, Method};
use pith::extract::{Document, Ingested};
use pith::refresh::unix_now;

use super::open::{engine, open_store};
use super::output::output;
use super::words::verdict_label;

/// The page to extract and what is known of it.
pub struct Page<'a> {
    /// The HTML file.
    pub file: &'a Path,
    /// The response URL: it decides the site and the tree branch.
    pub url: &'a str,
    /// The entry title as the feed gave it.
    pub title: Option<&'a str>,
    /// The charset the server declared.
    pub charset: Option<&'a str>,
}

/// Inserts `page` into its site's tree and prints what `method` keeps of it, or every block
/// with its verdict (`show_blocks`).
pub fn extract(
    db: Option<PathBuf>,
    page: &Page<'_>,
    method: &str,
    show_blocks: bool,
) -> Result<()> {
    let method = Method::parse(method)?;
    let bytes =
        std::fs::read(page.file).with_context(|| format!("reading {}", page.file.display()))?;
    let mut store = open_store(db)?;
    let engine = engine()?;
    let doc = Document {
        bytes: &bytes,
        declared_charset: page.charset,
        url: Some(page.url),
        title: page.title,
        time: unix_now(),
        entry_text: None,
    };
    let ingested = engine
        .ingest(&mut store, &doc)
        .with_context(|| format!("extracting {}", page.file.display()))?;
    let labels = engine.classify(&store, &ingested, method)?;
    let mut out = output();
    if show_blocks {
        print_blocks(&mut out, &ingested, &labels)?;
    } else {
        writeln!(out, "{}", classify::content_text(&ingested.page, &labels))?;
    }
    Ok(())
}

/// Every block: number, verdict, kind, word and link-word counts, reason, the start of its text
/// and its element's path; first a note when the page was in the tree already.
fn print_blocks(
    out: &mut impl Write,
    ingested: &Ingested,
    labels: &[Label],
) -> std::io::Result<()> {
    if ingested.duplicate {
        writeln!(
            out,
            "# this URL key was already in the tree: not counted again"
        )?;
    }
    for (block, label) in ingested.page.blocks.iter().zip(labels) {
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
    Ok(())
}
