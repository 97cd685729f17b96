//! `pith read`: an article's clean text, or every block with its verdict, as the window shows it.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result};
use pith::page::BlockKind;
use pith::reading::{self, Article, ArticleBlock};
use pith::store::ItemScope;

use super::open::{engine, open_store};
use super::output::output;
use super::words::verdict_label;

/// Prints item `id`'s article (or its blocks, `show_blocks`) and marks it read.
pub fn read(db: Option<PathBuf>, id: i64, show_blocks: bool) -> Result<()> {
    let mut store = open_store(db)?;
    let engine = engine()?;
    // The window opens articles through the same call, so both show the same content.
    let article = reading::open_article(&store, &engine, id)?
        .with_context(|| format!("no item {id} (see `pith items`)"))?;
    print_article(&mut output(), &article, show_blocks)?;
    store.set_read(ItemScope::Item(id), true)?;
    Ok(())
}

/// The title, the address, then the content blocks as plain text (or every block, numbered, with
/// its verdict and reason); the feed's text in their place when the page is missing or holds
/// little of the article (and before every block, with `show_blocks`).
fn print_article(
    out: &mut impl Write,
    article: &Article,
    show_blocks: bool,
) -> std::io::Result<()> {
    let item = &article.item;
    writeln!(out, "{}", item.title)?;
    writeln!(
        out,
        "{}",
        item.response_url.as_deref().unwrap_or(&item.link)
    )?;
    writeln!(out)?;
    if let Some(feed) = &article.feed_text {
        if let Some(notice) = reading::feed_text_notice(item, feed.because) {
            writeln!(out, "({notice})\n")?;
        }
        writeln!(out, "{}", feed.text)?;
        if !show_blocks {
            return Ok(());
        }
        writeln!(out)?;
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
        print_block(out, article, block)?;
    }
    Ok(())
}

/// One content block as plain text: a heading marked `##`, a list item with its number or
/// bullet, an image by its alt text (or address) and whether it is stored offline.
fn print_block(
    out: &mut impl Write,
    article: &Article,
    block: &ArticleBlock,
) -> std::io::Result<()> {
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
            )
        }
        (BlockKind::Heading(_), _) => writeln!(out, "## {}\n", block.text),
        (BlockKind::ListItem, _) => match block.list_marker {
            Some(reading::ListMarker::Number(n)) => writeln!(out, "  {n}. {}", block.text),
            Some(reading::ListMarker::Continued) => writeln!(out, "    {}", block.text),
            _ => writeln!(out, "  - {}", block.text),
        },
        _ => writeln!(out, "{}\n", block.text),
    }
}
