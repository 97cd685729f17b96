//! An article's record: its page's blocks with the labels they got when it arrived, and what a
//! reader needs to show them once the page itself is gone. A refresh writes one for every article
//! it stores (`item_blocks.blocks`); the store keeps its bytes and never looks inside. While the
//! raw page is kept, reading parses and classifies it again (labels are never frozen); once
//! retention drops it, `reading` builds the article from this record instead.
//!
//! The record is made here, from the page and its labels, and read back here: the store imports
//! nothing of the engine.
//!
//! # Forms
//!
//! Written now, [`RECORD`]: the byte `0x03`, then a count and that many strings, then a count and
//! that many blocks, each `position kind flags reason text [src alt] words link_words
//! [page_level] [marker] [links]`. `kind`, `reason` and `page_level` index the strings (a page
//! has a handful of kinds and a few dozen reasons over hundreds of blocks, so each is written
//! once); the bracketed parts are there when `flags` says so (bit 0 content, bit 1 image, bit 2 a
//! page-level label, bit 3 that label is content, bit 4 a list marker, bit 5 links); a marker is a
//! byte (0 bullet, 1 continued, 2 number) and, for a number, the number zigzag-encoded; links are
//! a count and, each, the byte range of its anchor text in the block's text and its target.
//! Integers are LEB128, a string is its byte length then its UTF-8 bytes. It is not compressed:
//! block texts are short, varied prose that zlib shrank only 1.7 times, and compressing cost more
//! than writing the difference (bench, storing stage: 0.57–0.61 ms/page compressed, 0.55 plain).
//!
//! Left out on purpose: a block's hash, which its text (or image source) gives again
//! ([`LabelledBlock::hash`]), and its element path, which only the inspector shows and which
//! doubled a record (on 200 pages of msvcode-big9: 2.2 MB of labels, 1.9 MB of paths).
//!
//! Written before, and still read: [`BLOCKS`] (`0x02`), the same without the parts after `text`
//! and `src` (what the inspector view needed), and before that a zlib stream of a JSON array of
//! blocks, whose first byte is `0x78` (deflate, 32 KB window) for every stream flate2 writes.
//! Neither tells a reader its blocks' word counts, image descriptions, list numbers or links
//! ([`LabelledBlock::details`] is `None`).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::Read;

use crate::classify::{Label, Reason};
use crate::page::markup::{Link, ListMarker, block_links, list_markers};
use crate::page::{self, BlockHash, BlockKind, Page};
use crate::store::{ItemId, PageBytes, Store, StoreError};

/// The first byte of a record written now.
pub const RECORD: u8 = 0x03;

/// The first byte of the form written before [`RECORD`] (labels only), still read.
pub const BLOCKS: u8 = 0x02;

/// The most an old (zlib) record may decompress to: a damaged one must not fill the memory.
const MAX_OLD_RECORD: u64 = 64 * 1024 * 1024;

const CONTENT: u8 = 1;
const IMAGE: u8 = 1 << 1;
const PAGE_LEVEL: u8 = 1 << 2;
const PAGE_LEVEL_CONTENT: u8 = 1 << 3;
const LIST: u8 = 1 << 4;
const LINKS: u8 = 1 << 5;

/// One block of an article's record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LabelledBlock {
    /// Position in the page.
    pub position: u32,
    /// Its kind, as `Debug` prints it (`Paragraph`, `Heading(2)`, …; see
    /// [`LabelledBlock::block_kind`]).
    pub kind: String,
    /// Its text.
    pub text: String,
    /// An image block's source.
    pub image: Option<String>,
    /// Content or boilerplate when the page arrived.
    pub content: bool,
    /// Why, as the label's reason printed.
    pub reason: String,
    /// What a reader needs beyond the label; `None` in records of the older forms.
    pub details: Option<BlockDetails>,
}

/// What a record keeps of a block for reading it without its page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockDetails {
    /// Words in it.
    pub words: u32,
    /// Words inside links.
    pub link_words: u32,
    /// An image block's alternative text (empty otherwise, or when the image has none).
    pub alt: String,
    /// How a list item is marked.
    pub list_marker: Option<ListMarker>,
    /// The links in its text. Kept for the blocks that were content when the page arrived: the
    /// only ones a reader shows with their links, and few (a page's navigation is most of its
    /// links).
    pub links: Vec<Link>,
    /// What pith's page-level extractor alone said (content, and why), when the record was given
    /// it.
    pub page_level: Option<(bool, String)>,
}

impl LabelledBlock {
    /// The block's kind read back from [`LabelledBlock::kind`] (`Other` for a name this build
    /// does not know).
    pub fn block_kind(&self) -> BlockKind {
        parse_kind(&self.kind).unwrap_or(BlockKind::Other)
    }

    /// The block's repeat-counting identity (what a pin names, what the tree counts), computed
    /// as the page's blocks compute it: from an image's source, else from the text.
    pub fn hash(&self) -> BlockHash {
        match &self.image {
            Some(src) => page::hash_image(src),
            None => page::hash_text(&self.text),
        }
    }
}

/// A record that does not read back.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum RecordError {
    /// The record is empty.
    #[error("the record is empty")]
    Empty,
    /// The binary form ends early, has bytes left over, or holds a value out of range.
    #[error("the record is truncated or holds a value out of range")]
    Damaged,
    /// The old zlib JSON form does not decompress or parse.
    #[error("the record's old form does not read: {0}")]
    OldForm(String),
}

/// The record of `page` with the `labels` it got on arrival (and, when given, `page_level`:
/// pith's page-level extractor's own labels). `url` is the page's response URL, against which
/// the links are resolved as the reader resolves them. Made by the caller, so that a refresh does
/// it outside the writer's turn; written straight from the page: no block's text is copied, and a
/// reason is formatted only when it differs from the previous block's (most runs of blocks share
/// one).
pub fn encode(
    page: &Page,
    url: Option<&str>,
    labels: &[Label],
    page_level: Option<&[Label]>,
) -> PageBytes {
    let base = url.and_then(|u| url::Url::parse(u).ok());
    let markers = list_markers(page);
    let text_bytes: usize = page.blocks.iter().map(|b| b.text.len() + 16).sum();
    let mut w = Writer::with_capacity(text_bytes);
    let mut kinds: Vec<(BlockKind, u32)> = Vec::new();
    let mut reasons = ReasonCache::default();
    let mut page_reasons = ReasonCache::default();
    for (i, (b, l)) in page.blocks.iter().zip(labels).enumerate() {
        let kind = match kinds.iter().find(|(k, _)| *k == b.kind) {
            Some(&(_, index)) => index,
            None => {
                let index = w.string(&format!("{:?}", b.kind));
                kinds.push((b.kind, index));
                index
            }
        };
        let page_label = page_level.and_then(|p| p.get(i));
        let links = if l.is_content() {
            block_links(page, b, base.as_ref())
        } else {
            Vec::new()
        };
        let record = BlockRecord {
            position: b.position,
            kind,
            content: l.is_content(),
            reason: reasons.index(&mut w, &l.reason),
            text: &b.text,
            image: b.image.as_ref().map(|i| (i.src.as_str(), i.alt.as_str())),
            words: b.words,
            link_words: b.link_words,
            page_level: page_label.map(|p| (p.is_content(), page_reasons.index(&mut w, &p.reason))),
            list_marker: markers.get(i).copied().flatten(),
            links: &links,
        };
        w.block(&record);
    }
    w.finish()
}

/// Reads a record of any form back.
pub fn decode(record: &[u8]) -> Result<Vec<LabelledBlock>, RecordError> {
    match record.split_first() {
        None => Err(RecordError::Empty),
        Some((&RECORD, rest)) => decode_binary(rest, true).ok_or(RecordError::Damaged),
        Some((&BLOCKS, rest)) => decode_binary(rest, false).ok_or(RecordError::Damaged),
        Some(_) => decode_old(record),
    }
}

impl PageBytes {
    /// The record of `page` with its `labels` ([`encode`] without the page-level labels and
    /// without a URL, so that only absolute links are kept): for callers that have neither.
    pub fn encode_labelled(page: &Page, labels: &[Label]) -> PageBytes {
        encode(page, None, labels, None)
    }
}

impl Store {
    /// The record stored for an item, read back ([`decode`]); empty when it has none (its page
    /// could not be fetched). Defined here rather than in `store`, which keeps the record's bytes
    /// ([`Store::item_record`]) and knows nothing of what they hold.
    pub fn item_blocks(&self, id: ItemId) -> Result<Vec<LabelledBlock>, StoreError> {
        let Some(record) = self.item_record(id)? else {
            return Ok(Vec::new());
        };
        decode(&record).map_err(|e| {
            StoreError::Corrupt(format!("item {id}: stored blocks do not decode: {e}"))
        })
    }
}

impl Store {
    /// An item's search text as it is indexed: its record's content blocks (what
    /// `classify::content_text` made of the page when it arrived, before any pin), or the text of
    /// its feed summary when its page could not be fetched or the summary stands in for it
    /// ([`super::entry_stands_in`]). The full-text index keeps no text of its own: a snippet and a
    /// retitled row are made from this, and so is a row written again in the index's current
    /// form ([`Store::reindex_search`]).
    pub fn item_search_text(&self, id: ItemId) -> Result<String, StoreError> {
        let blocks = self.item_blocks(id)?;
        let summary =
            || -> Result<Option<String>, StoreError> { Ok(self.item(id)?.and_then(|i| i.summary)) };
        if blocks.is_empty() {
            return Ok(summary()?
                .as_deref()
                .map(crate::feeds::html_fragment_text)
                .unwrap_or_default());
        }
        let mut out = String::new();
        for block in blocks.iter().filter(|b| b.content && b.image.is_none()) {
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str(&block.text);
        }
        let kept = crate::page::count_words(&out);
        if let Some(entry) = summary()?
            && let Some(stand_in) = super::entry_stands_in(&entry, kept)
        {
            return Ok(stand_in.text);
        }
        Ok(out)
    }
}

/// Items whose rows [`Store::reindex_search`] writes in one transaction.
const REINDEX_CHUNK: usize = 250;

impl Store {
    /// Writes the full-text rows of up to `limit` items again, in the index's current form
    /// ([`crate::store::SEARCH_FORM`]), where the file's rows are of an older one: Chinese or Thai
    /// held as whole runs, the page's words where the feed's text now stands in for it. A refresh
    /// runs one batch, so a large file is brought up to date over a few refreshes without holding
    /// any of them up for long. An item whose record cannot be read keeps its row. Returns how
    /// many rows were written; 0 once every row is current.
    pub fn reindex_search(&mut self, limit: usize) -> Result<usize, StoreError> {
        if self.search_form()? >= crate::store::SEARCH_FORM {
            return Ok(0);
        }
        let mut written = 0;
        let mut left = limit;
        while left > 0 {
            // In chunks, each its own transaction: the window's writes wait for one chunk at
            // most, and what is held in memory is one chunk's texts.
            let chunk = left.min(REINDEX_CHUNK);
            let batch = self.items_to_reindex(chunk)?;
            // A full chunk may have more after it; a short one was the last.
            let through = if batch.len() >= chunk {
                batch.last().map(|item| item.id)
            } else {
                None
            };
            let mut rows = Vec::with_capacity(batch.len());
            for item in batch {
                match self.item_search_text(item.id) {
                    Ok(body) => rows.push((item, body)),
                    // A record that does not decode keeps its row; anything else is an error.
                    Err(StoreError::Corrupt(_)) => {}
                    Err(e) => return Err(e),
                }
            }
            written += self.reindex_search_rows(&rows, through)?;
            if through.is_none() {
                break;
            }
            left -= chunk;
        }
        Ok(written)
    }
}

/// A label's reason formatted once per run of blocks that share it.
#[derive(Default)]
struct ReasonCache<'a> {
    previous: Option<(&'a Reason, u32)>,
    text: String,
}

impl<'a> ReasonCache<'a> {
    fn index(&mut self, w: &mut Writer, reason: &'a Reason) -> u32 {
        if let Some((r, index)) = self.previous
            && r == reason
        {
            return index;
        }
        self.text.clear();
        let _ = write!(self.text, "{reason}");
        let index = w.string(&self.text);
        self.previous = Some((reason, index));
        index
    }
}

/// One block as the writer takes it (strings already in the table: `kind`, `reason` and the
/// page-level reason are indices).
struct BlockRecord<'a> {
    position: u32,
    kind: u32,
    content: bool,
    reason: u32,
    text: &'a str,
    image: Option<(&'a str, &'a str)>,
    words: u32,
    link_words: u32,
    page_level: Option<(bool, u32)>,
    list_marker: Option<ListMarker>,
    links: &'a [Link],
}

/// Builds a [`RECORD`] block by block.
#[derive(Debug, Default)]
struct Writer {
    strings: Vec<u8>,
    string_count: u32,
    index: HashMap<String, u32>,
    blocks: Vec<u8>,
    block_count: u32,
}

impl Writer {
    /// A writer whose blocks take about `bytes` (a guess; it grows as needed).
    fn with_capacity(bytes: usize) -> Writer {
        Writer {
            blocks: Vec::with_capacity(bytes),
            ..Writer::default()
        }
    }

    /// The index of `s` in the string table, added when new.
    fn string(&mut self, s: &str) -> u32 {
        if let Some(&i) = self.index.get(s) {
            return i;
        }
        let i = self.string_count;
        put_str(&mut self.strings, s);
        self.string_count += 1;
        self.index.insert(s.to_owned(), i);
        i
    }

    fn block(&mut self, b: &BlockRecord<'_>) {
        let out = &mut self.blocks;
        let mut flags = 0;
        for (set, flag) in [
            (b.content, CONTENT),
            (b.image.is_some(), IMAGE),
            (b.page_level.is_some(), PAGE_LEVEL),
            (b.page_level.is_some_and(|p| p.0), PAGE_LEVEL_CONTENT),
            (b.list_marker.is_some(), LIST),
            (!b.links.is_empty(), LINKS),
        ] {
            if set {
                flags |= flag;
            }
        }
        put_uint(out, u64::from(b.position));
        put_uint(out, u64::from(b.kind));
        out.push(flags);
        put_uint(out, u64::from(b.reason));
        put_str(out, b.text);
        if let Some((src, alt)) = b.image {
            put_str(out, src);
            put_str(out, alt);
        }
        put_uint(out, u64::from(b.words));
        put_uint(out, u64::from(b.link_words));
        if let Some((_, reason)) = b.page_level {
            put_uint(out, u64::from(reason));
        }
        match b.list_marker {
            None => {}
            Some(ListMarker::Bullet) => out.push(0),
            Some(ListMarker::Continued) => out.push(1),
            Some(ListMarker::Number(n)) => {
                out.push(2);
                put_uint(out, ((n << 1) ^ (n >> 63)) as u64);
            }
        }
        if !b.links.is_empty() {
            put_uint(out, b.links.len() as u64);
            for link in b.links {
                put_uint(out, link.range.start as u64);
                put_uint(out, link.range.end as u64);
                put_str(out, &link.href);
            }
        }
        self.block_count += 1;
    }

    /// The record to store.
    fn finish(self) -> PageBytes {
        let mut blob = Vec::with_capacity(self.strings.len() + self.blocks.len() + 11);
        blob.push(RECORD);
        put_uint(&mut blob, u64::from(self.string_count));
        blob.extend_from_slice(&self.strings);
        put_uint(&mut blob, u64::from(self.block_count));
        blob.extend_from_slice(&self.blocks);
        PageBytes::kept(blob)
    }
}

fn put_uint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    put_uint(out, s.len() as u64);
    out.extend_from_slice(s.as_bytes());
}

struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn uint(&mut self) -> Option<u64> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let (&b, rest) = self.0.split_first()?;
            self.0 = rest;
            v |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                return Some(v);
            }
        }
        None
    }

    fn u32(&mut self) -> Option<u32> {
        u32::try_from(self.uint()?).ok()
    }

    fn usize(&mut self) -> Option<usize> {
        usize::try_from(self.uint()?).ok()
    }

    fn byte(&mut self) -> Option<u8> {
        let (&b, rest) = self.0.split_first()?;
        self.0 = rest;
        Some(b)
    }

    fn str(&mut self) -> Option<&'a str> {
        let len = self.usize()?;
        let bytes = self.0.get(..len)?;
        self.0 = &self.0[len..];
        std::str::from_utf8(bytes).ok()
    }

    /// A count of items of at least one byte each, so that a corrupt count cannot ask for more
    /// memory than the input could fill.
    fn count(&mut self) -> Option<usize> {
        let n = self.usize()?;
        (n <= self.0.len()).then_some(n)
    }
}

/// The binary forms after their first byte; `details`: the [`RECORD`] form.
fn decode_binary(plain: &[u8], details: bool) -> Option<Vec<LabelledBlock>> {
    let mut r = Reader(plain);
    let n = r.count()?;
    let mut strings = Vec::with_capacity(n);
    for _ in 0..n {
        strings.push(r.str()?);
    }
    let string = |i: u32| strings.get(i as usize).map(|s| s.to_string());
    let n = r.count()?;
    let mut blocks = Vec::with_capacity(n);
    for _ in 0..n {
        let position = r.u32()?;
        let kind = string(r.u32()?)?;
        let flags = r.byte()?;
        let reason = string(r.u32()?)?;
        let text = r.str()?.to_string();
        let (image, alt) = match flags & IMAGE != 0 {
            true if details => (Some(r.str()?.to_string()), r.str()?.to_string()),
            true => (Some(r.str()?.to_string()), String::new()),
            false => (None, String::new()),
        };
        let details = if details {
            let words = r.u32()?;
            let link_words = r.u32()?;
            let page_level = if flags & PAGE_LEVEL != 0 {
                Some((flags & PAGE_LEVEL_CONTENT != 0, string(r.u32()?)?))
            } else {
                None
            };
            let list_marker = if flags & LIST != 0 {
                Some(match r.byte()? {
                    0 => ListMarker::Bullet,
                    1 => ListMarker::Continued,
                    2 => {
                        let z = r.uint()?;
                        ListMarker::Number((z >> 1) as i64 ^ -((z & 1) as i64))
                    }
                    _ => return None,
                })
            } else {
                None
            };
            let mut links = Vec::new();
            if flags & LINKS != 0 {
                let n = r.count()?;
                links.reserve(n);
                for _ in 0..n {
                    let (start, end) = (r.usize()?, r.usize()?);
                    let href = r.str()?.to_string();
                    // A range must cut the text at characters, or showing it would panic.
                    text.get(start..end)?;
                    links.push(Link {
                        range: start..end,
                        href,
                    });
                }
            }
            Some(BlockDetails {
                words,
                link_words,
                alt,
                list_marker,
                links,
                page_level,
            })
        } else {
            None
        };
        blocks.push(LabelledBlock {
            position,
            kind,
            text,
            image,
            content: flags & CONTENT != 0,
            reason,
            details,
        });
    }
    r.0.is_empty().then_some(blocks)
}

/// A block as the oldest form kept it (JSON).
#[derive(serde::Serialize, serde::Deserialize)]
struct OldBlock {
    position: u32,
    kind: String,
    text: String,
    image: Option<String>,
    content: bool,
    reason: String,
}

/// The oldest form: a zlib stream of a JSON array of blocks.
fn decode_old(record: &[u8]) -> Result<Vec<LabelledBlock>, RecordError> {
    let mut json = Vec::with_capacity(record.len().saturating_mul(4));
    flate2::read::ZlibDecoder::new(record)
        .take(MAX_OLD_RECORD)
        .read_to_end(&mut json)
        .map_err(|e| RecordError::OldForm(e.to_string()))?;
    let blocks: Vec<OldBlock> =
        serde_json::from_slice(&json).map_err(|e| RecordError::OldForm(e.to_string()))?;
    Ok(blocks
        .into_iter()
        .map(|b| LabelledBlock {
            position: b.position,
            kind: b.kind,
            text: b.text,
            image: b.image,
            content: b.content,
            reason: b.reason,
            details: None,
        })
        .collect())
}

/// A [`BlockKind`] from its `Debug` form.
fn parse_kind(name: &str) -> Option<BlockKind> {
    Some(match name {
        "Paragraph" => BlockKind::Paragraph,
        "ListItem" => BlockKind::ListItem,
        "Quote" => BlockKind::Quote,
        "Preformatted" => BlockKind::Preformatted,
        "TableCell" => BlockKind::TableCell,
        "Caption" => BlockKind::Caption,
        "Image" => BlockKind::Image,
        "Other" => BlockKind::Other,
        _ => BlockKind::Heading(
            name.strip_prefix("Heading(")?
                .strip_suffix(')')?
                .parse()
                .ok()?,
        ),
    })
}

#[cfg(test)]
mod tests;
