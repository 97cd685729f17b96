//! Pins, a reader's own verdict on a block for a whole site: `pith pin`, `pins` and `unpin`.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use pith::reading;
use pith::refresh::unix_now;
use pith::store::{Pin, PinVerdict};

use super::open::{engine, open_store, open_store_to_read};
use super::output::output;
use super::words::{verdict_name, when};

/// Pins block `position` of item `item_id` as `verdict` on the item's whole site.
pub fn pin(db: Option<PathBuf>, item_id: i64, position: u32, verdict: PinVerdict) -> Result<()> {
    let mut store = open_store(db)?;
    let article = reading::open_article(&store, &engine()?, item_id)?
        .with_context(|| format!("no item {item_id} (see `pith items`)"))?;
    if !article.has_page() {
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
    let id = store.pin_add(domain, block.hash, verdict, &text, unix_now())?;
    outln!(
        "pin {id}: this block is always {} on {domain}",
        verdict_name(verdict)
    );
    Ok(())
}

/// Lists the pins of every site, or of the registrable domain `site`.
pub fn list(db: Option<PathBuf>, site: Option<&str>) -> Result<()> {
    let store = open_store_to_read(db)?;
    print_pins(&mut output(), &store.pins(site)?)?;
    Ok(())
}

/// Each pin's id, site, verdict and date, its text below; or how to make one.
fn print_pins(out: &mut impl Write, pins: &[Pin]) -> std::io::Result<()> {
    if pins.is_empty() {
        writeln!(
            out,
            "no pins yet: `pith pin ITEM BLOCK --content|--boilerplate`"
        )?;
    }
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

/// Removes pin `id`.
pub fn unpin(db: Option<PathBuf>, id: i64) -> Result<()> {
    let mut store = open_store(db)?;
    if !store.pin_remove(id)? {
        bail!("no pin {id} (see `pith pins`)");
    }
    outln!("removed pin {id}");
    Ok(())
}
