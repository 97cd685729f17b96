//! The SQL of the reader: feeds, items, the entries that link them, stored pages, blocks with
//! their labels, images, and full-text search (schema in `schema.sql`). Every write that makes
//! up one step of a refresh is one transaction, so a crash never leaves half an item.

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::io::Read;

use rusqlite::{Connection, OptionalExtension, params};

use super::{Store, StoreError};
use crate::classify::{Label, Reason};
use crate::limits;
use crate::page::{BlockKind, Page};

/// A feed's row id.
pub type FeedId = i64;
/// An item's row id.
pub type ItemId = i64;

/// A subscription as `pith feeds` shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeedInfo {
    /// Row id.
    pub id: FeedId,
    /// The URL subscribed to.
    pub url: String,
    /// The feed's title, once fetched (or from OPML).
    pub title: Option<String>,
    /// The site's home page.
    pub site_url: Option<String>,
    /// `ETag` of the last successful fetch.
    pub etag: Option<String>,
    /// `Last-Modified` of the last successful fetch.
    pub last_modified: Option<String>,
    /// Unix seconds of the last refresh attempt.
    pub last_refresh: Option<i64>,
    /// Unix seconds of the last successful fetch.
    pub last_ok: Option<i64>,
    /// The last attempt's error, `None` when it succeeded.
    pub last_error: Option<String>,
    /// No request before this time (unix seconds): the server's Retry-After.
    pub retry_after: Option<i64>,
    /// Items linked to the feed.
    pub items: u32,
    /// Of those, unread.
    pub unread: u32,
    /// The folder it sits in (from OPML), `None` at the top level.
    pub folder: Option<String>,
}

/// An item in a listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemInfo {
    /// Row id (what `pith read ID` takes).
    pub id: ItemId,
    /// The entry's link.
    pub link: String,
    /// The URL after redirects, when the page was fetched.
    pub response_url: Option<String>,
    /// The entry title.
    pub title: String,
    /// The feed's summary (HTML as given).
    pub summary: Option<String>,
    /// Unix seconds from the feed.
    pub published: Option<i64>,
    /// Unix seconds when stored.
    pub added: i64,
    /// Why the page could not be fetched.
    pub fetch_error: Option<String>,
    /// Read.
    pub read: bool,
    /// Starred.
    pub starred: bool,
    /// The registrable domain of the response URL.
    pub domain: Option<String>,
    /// The URL key.
    pub url_key: Option<String>,
    /// Titles of the feeds listing it.
    pub feeds: Vec<String>,
}

/// A stored page, decompressed.
#[derive(Debug, Clone)]
pub struct StoredPage {
    /// The response URL.
    pub url: String,
    /// The charset of the `Content-Type` header.
    pub declared_charset: Option<String>,
    /// The raw bytes as served.
    pub raw: Vec<u8>,
    /// Unix seconds of the fetch.
    pub fetched: i64,
}

/// A stored image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredImage {
    /// Its URL.
    pub url: String,
    /// Its `Content-Type`.
    pub content_type: Option<String>,
    /// Its size in bytes (0 when it failed).
    pub bytes: u64,
    /// Why it is not stored, if it is not.
    pub error: Option<String>,
}

/// An image downloaded (or not) for an item.
#[derive(Debug, Clone)]
pub struct NewImage {
    /// Its URL.
    pub url: String,
    /// Its `Content-Type`.
    pub content_type: Option<String>,
    /// The bytes, or why there are none.
    pub data: Result<Vec<u8>, String>,
}

/// A block as stored for the inspector view.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct NewBlock {
    /// Position in the page.
    pub position: u32,
    /// Its kind, as `Debug` prints it (`Paragraph`, `Heading(2)`, …).
    pub kind: String,
    /// Its text.
    pub text: String,
    /// An image block's source.
    pub image: Option<String>,
    /// Content or boilerplate when the page arrived.
    pub content: bool,
    /// Why.
    pub reason: String,
}

/// The entry an item came from, in one feed.
#[derive(Debug, Clone)]
pub struct EntryRef<'a> {
    /// The feed.
    pub feed: FeedId,
    /// The entry's identity hash in that feed.
    pub identity: &'a str,
}

/// The feed's side of a new item.
#[derive(Debug, Clone)]
pub struct NewItem<'a> {
    /// The entry's link.
    pub link: &'a str,
    /// Its title.
    pub title: &'a str,
    /// Its summary.
    pub summary: Option<&'a str>,
    /// Its date.
    pub published: Option<i64>,
    /// Now.
    pub added: i64,
}

/// A fetched and classified page, ready to store with its item.
#[derive(Debug, Clone)]
pub struct NewArticle<'a> {
    /// The response URL.
    pub url: &'a str,
    /// The HTTP charset.
    pub declared_charset: Option<&'a str>,
    /// The raw bytes, compressed by [`PageBytes::compress`].
    pub raw: &'a PageBytes,
    /// The registrable domain.
    pub domain: &'a str,
    /// The URL key.
    pub url_key: &'a str,
    /// The document in the tree.
    pub tree_doc: Option<i64>,
    /// Blocks with labels, encoded by [`PageBytes::encode_blocks`].
    pub blocks: &'a PageBytes,
    /// The clean text (for search).
    pub text: &'a str,
    /// Images kept as content, downloaded now.
    pub images: &'a [NewImage],
    /// Images kept as content that were already stored (downloaded once, for another article).
    pub known_images: &'a [String],
}

/// Which items a read/unread change applies to.
#[derive(Debug, Clone, Copy)]
pub enum ItemScope {
    /// One item.
    Item(ItemId),
    /// Every item of a feed.
    Feed(FeedId),
    /// Everything.
    All,
}

/// Which items to list.
#[derive(Debug, Clone, Copy, Default)]
pub struct ItemFilter {
    /// Only items of this feed.
    pub feed: Option<FeedId>,
    /// Only unread items.
    pub unread: bool,
    /// Only starred items.
    pub starred: bool,
    /// At most this many (0: no limit).
    pub limit: usize,
}

/// A search result.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchHit {
    /// The item.
    pub id: ItemId,
    /// Its title.
    pub title: String,
    /// The matching passage, matches in `[…]`.
    pub snippet: String,
    /// bm25 rank (lower is better).
    pub rank: f64,
}

/// The outcome of storing a fetched entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stored {
    /// A new item.
    New(ItemId),
    /// The article was already stored (same URL key in the domain): the entry was linked to it.
    Linked(ItemId),
}

impl Stored {
    /// The item's id.
    pub fn id(self) -> ItemId {
        match self {
            Stored::New(id) | Stored::Linked(id) => id,
        }
    }
}

/// Bytes in the form the database keeps them: a page's raw bytes compressed
/// ([`PageBytes::compress`]), or its labelled blocks encoded ([`PageBytes::encode_labelled`]).
/// A refresh compresses a page once, when it arrives, and holds it so while it waits for
/// classification or images: HTML shrinks to about a third, so more pages can wait in the same
/// memory.
#[derive(Debug, Clone)]
pub struct PageBytes {
    compressed: Vec<u8>,
    len: usize,
}

impl PageBytes {
    /// Compresses `raw` (LZ4, see [`LZ4_PAGE`]).
    pub fn compress(raw: &[u8]) -> Result<PageBytes, StoreError> {
        let size = u32::try_from(raw.len())
            .map_err(|_| StoreError::Corrupt("a page of 4 GB or more cannot be stored".into()))?;
        let header = 1 + 4;
        let mut compressed = vec![0; header + lz4_flex::block::get_maximum_output_size(raw.len())];
        compressed[0] = LZ4_PAGE;
        compressed[1..header].copy_from_slice(&size.to_le_bytes());
        let written = lz4_flex::block::compress_into(raw, &mut compressed[header..])
            .map_err(|e| StoreError::Corrupt(format!("cannot compress a page: {e}")))?;
        compressed.truncate(header + written);
        // The buffer was sized for the worst case (about the raw size); a refresh holds many
        // compressed pages while they wait, so give the rest back.
        compressed.shrink_to_fit();
        Ok(PageBytes {
            compressed,
            len: raw.len(),
        })
    }

    /// A page's blocks with their labels, as stored for the inspector view ([`blocks_format`]),
    /// written straight from the page: no block's text is copied, and a reason is formatted only
    /// when it differs from the previous block's (most runs of blocks share one) and written once
    /// per page. Encoded by the caller, so that a refresh does it outside the writer's turn.
    pub fn encode_labelled(page: &Page, labels: &[Label]) -> PageBytes {
        let text_bytes: usize = page.blocks.iter().map(|b| b.text.len() + 8).sum();
        let mut w = blocks_format::Writer::with_capacity(text_bytes);
        let mut kinds: Vec<(BlockKind, u32)> = Vec::new();
        let mut previous: Option<(&Reason, u32)> = None;
        let mut text = String::new();
        for (b, l) in page.blocks.iter().zip(labels) {
            let kind = match kinds.iter().find(|(k, _)| *k == b.kind) {
                Some(&(_, index)) => index,
                None => {
                    text.clear();
                    let _ = write!(text, "{:?}", b.kind);
                    let index = w.string(&text);
                    kinds.push((b.kind, index));
                    index
                }
            };
            let reason = match previous {
                Some((r, index)) if *r == l.reason => index,
                _ => {
                    text.clear();
                    let _ = write!(text, "{}", l.reason);
                    w.string(&text)
                }
            };
            previous = Some((&l.reason, reason));
            let image = b.image.as_ref().map(|i| i.src.as_str());
            w.block(b.position, kind, &b.text, image, l.is_content(), reason);
        }
        w.finish()
    }

    /// The raw bytes again (of a page from [`PageBytes::compress`]).
    pub fn decompress(&self) -> Result<Vec<u8>, StoreError> {
        decompress(&self.compressed, self.len)
    }

    /// The raw length.
    pub fn raw_len(&self) -> usize {
        self.len
    }

    /// The compressed length (what it costs in memory).
    pub fn compressed_len(&self) -> usize {
        self.compressed.len()
    }
}

/// The blocks of a page with their labels as [`NewBlock`]s, the form the store reads back: what
/// [`PageBytes::encode_labelled`] must round-trip to (tests).
#[cfg(test)]
pub(crate) fn labelled_blocks(page: &Page, labels: &[Label]) -> Vec<NewBlock> {
    page.blocks
        .iter()
        .zip(labels)
        .map(|(b, l)| NewBlock {
            position: b.position,
            kind: format!("{:?}", b.kind),
            text: b.text.clone(),
            image: b.image.as_ref().map(|i| i.src.clone()),
            content: l.is_content(),
            reason: l.reason.to_string(),
        })
        .collect()
}

/// [`NewBlock`]s in the stored binary form (tests: blocks not taken from a page).
#[cfg(test)]
pub(crate) fn encode_blocks(blocks: &[NewBlock]) -> PageBytes {
    let mut w = blocks_format::Writer::default();
    for b in blocks {
        let kind = w.string(&b.kind);
        let reason = w.string(&b.reason);
        w.block(
            b.position,
            kind,
            &b.text,
            b.image.as_deref(),
            b.content,
            reason,
        );
    }
    w.finish()
}

/// The first byte of a page stored since schema 3's release: then its length (4 bytes, little
/// endian) and an LZ4 block. Pages stored before are zlib streams, whose first byte is always
/// 0x78; both read back. LZ4 because a refresh compresses every page it fetches: 0.11 ms a page
/// against zlib-rs level 1's 0.20 ms on the datasets' 1,233 pages, for 30.7 KB against 28.3 KB.
const LZ4_PAGE: u8 = 0x04;

/// The most a stored blob may claim to decompress to (a damaged length must not allocate more).
const MAX_STORED_LEN: usize = 64 * 1024 * 1024;

/// How a page's labelled blocks are kept in `item_blocks.blocks`.
///
/// Written now: the byte [`blocks_format::BINARY`], then a count and that many strings, then a
/// count and that many blocks, each `position kind flags reason text [image]`. `kind` and
/// `reason` index the strings (a page has a handful of kinds and a few dozen reasons over
/// hundreds of blocks, so each is written once); `flags` bit 0 is "content", bit 1 "has an image
/// source"; integers are LEB128, a string is its byte length then its UTF-8 bytes. It is not
/// compressed: block texts are short, varied prose that zlib shrank only 1.7 times, and
/// compressing cost more than writing the difference (bench, storing stage: 0.57–0.61 ms/page
/// compressed, 0.55 plain).
///
/// Written before: a zlib stream of the JSON array of [`NewBlock`]s. A zlib stream's first byte
/// is `0x78` (deflate, 32 KB window) for every stream flate2 writes, never `BINARY`, so both
/// read back and the schema did not change. The binary form is written without JSON's escaping
/// and without a copy of each block's text and reason.
pub mod blocks_format {
    use std::collections::HashMap;

    use super::{NewBlock, PageBytes, decompress};

    /// The first byte of the binary form.
    pub const BINARY: u8 = 0x02;

    const CONTENT: u8 = 1;
    const IMAGE: u8 = 2;

    /// Builds the binary form block by block.
    #[derive(Debug, Default)]
    pub struct Writer {
        strings: Vec<u8>,
        string_count: u32,
        index: HashMap<String, u32>,
        blocks: Vec<u8>,
        block_count: u32,
    }

    impl Writer {
        /// A writer whose blocks take about `bytes` (a guess; it grows as needed).
        pub fn with_capacity(bytes: usize) -> Writer {
            Writer {
                blocks: Vec::with_capacity(bytes),
                ..Writer::default()
            }
        }

        /// The index of `s` in the string table, added when new.
        pub fn string(&mut self, s: &str) -> u32 {
            if let Some(&i) = self.index.get(s) {
                return i;
            }
            let i = self.string_count;
            put_str(&mut self.strings, s);
            self.string_count += 1;
            self.index.insert(s.to_owned(), i);
            i
        }

        /// Appends a block; `kind` and `reason` are indices from [`Writer::string`].
        pub fn block(
            &mut self,
            position: u32,
            kind: u32,
            text: &str,
            image: Option<&str>,
            content: bool,
            reason: u32,
        ) {
            let out = &mut self.blocks;
            put_uint(out, u64::from(position));
            put_uint(out, u64::from(kind));
            out.push(if content { CONTENT } else { 0 } | if image.is_some() { IMAGE } else { 0 });
            put_uint(out, u64::from(reason));
            put_str(out, text);
            if let Some(src) = image {
                put_str(out, src);
            }
            self.block_count += 1;
        }

        /// The blob to store.
        pub fn finish(self) -> PageBytes {
            let mut blob = Vec::with_capacity(self.strings.len() + self.blocks.len() + 11);
            blob.push(BINARY);
            put_uint(&mut blob, u64::from(self.string_count));
            blob.extend_from_slice(&self.strings);
            put_uint(&mut blob, u64::from(self.block_count));
            blob.extend_from_slice(&self.blocks);
            PageBytes {
                len: blob.len(),
                compressed: blob,
            }
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

    /// Reads a stored blob of either form back.
    pub fn decode(blob: &[u8]) -> Result<Vec<NewBlock>, String> {
        match blob.split_first() {
            Some((&BINARY, rest)) => {
                decode_plain(rest).ok_or_else(|| "truncated or out of range".to_string())
            }
            _ => {
                let json = decompress(blob, blob.len() * 4).map_err(|e| e.to_string())?;
                serde_json::from_slice(&json).map_err(|e| e.to_string())
            }
        }
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

        fn byte(&mut self) -> Option<u8> {
            let (&b, rest) = self.0.split_first()?;
            self.0 = rest;
            Some(b)
        }

        fn str(&mut self) -> Option<&'a str> {
            let len = usize::try_from(self.uint()?).ok()?;
            let bytes = self.0.get(..len)?;
            self.0 = &self.0[len..];
            std::str::from_utf8(bytes).ok()
        }

        /// A count of items of at least one byte each, so that a corrupt count cannot ask for
        /// more memory than the input could fill.
        fn count(&mut self) -> Option<usize> {
            let n = usize::try_from(self.uint()?).ok()?;
            (n <= self.0.len()).then_some(n)
        }
    }

    fn decode_plain(plain: &[u8]) -> Option<Vec<NewBlock>> {
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
            let image = if flags & IMAGE != 0 {
                Some(r.str()?.to_string())
            } else {
                None
            };
            blocks.push(NewBlock {
                position,
                kind,
                text,
                image,
                content: flags & CONTENT != 0,
                reason,
            });
        }
        r.0.is_empty().then_some(blocks)
    }
}

fn decompress(blob: &[u8], len_hint: usize) -> Result<Vec<u8>, StoreError> {
    if let Some((&LZ4_PAGE, rest)) = blob.split_first() {
        let damaged =
            |why: String| StoreError::Corrupt(format!("a stored page does not decompress: {why}"));
        let (size, block) = rest
            .split_first_chunk::<4>()
            .ok_or_else(|| damaged("it ends before its length".into()))?;
        let size = u32::from_le_bytes(*size) as usize;
        if size > MAX_STORED_LEN {
            return Err(damaged(format!("it claims {size} bytes")));
        }
        let mut out = vec![0; size];
        let written = lz4_flex::block::decompress_into(block, &mut out)
            .map_err(|e| damaged(e.to_string()))?;
        if written != size {
            return Err(damaged(format!("{written} bytes instead of {size}")));
        }
        return Ok(out);
    }
    let mut out = Vec::with_capacity(len_hint.min(MAX_STORED_LEN));
    flate2::read::ZlibDecoder::new(blob)
        .read_to_end(&mut out)
        .map_err(|e| StoreError::Corrupt(format!("a stored page does not decompress: {e}")))?;
    Ok(out)
}

fn feed_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<FeedInfo> {
    Ok(FeedInfo {
        id: r.get(0)?,
        url: r.get(1)?,
        title: r.get(2)?,
        site_url: r.get(3)?,
        etag: r.get(4)?,
        last_modified: r.get(5)?,
        last_refresh: r.get(6)?,
        last_ok: r.get(7)?,
        last_error: r.get(8)?,
        retry_after: r.get(9)?,
        items: r.get(10)?,
        unread: r.get(11)?,
        folder: r.get(12)?,
    })
}

const FEED_SELECT: &str = "SELECT f.id, f.url, f.title, f.site_url, f.etag, f.last_modified,
        f.last_refresh, f.last_ok, f.last_error, f.retry_after,
        (SELECT count(DISTINCT e.item) FROM feed_entry e WHERE e.feed = f.id),
        (SELECT count(DISTINCT e.item) FROM feed_entry e JOIN item i ON i.id = e.item
           WHERE e.feed = f.id AND i.read = 0),
        f.folder
    FROM feed f";

/// Queues an item's full-text row; [`flush_fts`] moves the queue into the index when the
/// transaction commits.
///
/// Why a queue: SQLite's full-text index writes its pending entries out as a new segment at every
/// savepoint, and a batch runs each write in one (and multi-row statements open their own). Rows
/// inserted as articles came were thus flushed one article at a time, each a small segment to
/// merge later (callgrind: about 0.6 M instructions per stored article). Queued in a temporary
/// table, which follows savepoints and rollbacks like any other, they reach the index together.
fn insert_fts(tx: &Connection, id: ItemId, title: &str, body: &str) -> Result<(), StoreError> {
    tx.prepare_cached(
        "INSERT OR REPLACE INTO temp.fts_pending (rowid, title, body) VALUES (?1, ?2, ?3)",
    )?
    .execute(params![id, title, body])?;
    Ok(())
}

/// Removes an item's full-text row, indexed or still queued.
fn delete_fts(tx: &Connection, id: ItemId) -> Result<(), StoreError> {
    tx.prepare_cached("DELETE FROM item_fts WHERE rowid = ?1")?
        .execute([id])?;
    tx.prepare_cached("DELETE FROM temp.fts_pending WHERE rowid = ?1")?
        .execute([id])?;
    Ok(())
}

/// Moves the queued full-text rows (see [`insert_fts`]) into the index; run by `Store` just before
/// every commit.
pub(crate) fn flush_fts(tx: &Connection) -> Result<(), StoreError> {
    let queued = tx
        .prepare_cached("SELECT EXISTS (SELECT 1 FROM temp.fts_pending)")?
        .query_row([], |r| r.get::<_, bool>(0))?;
    if queued {
        // REPLACE: an item indexed before (a retried page) gets its new text in place.
        tx.prepare_cached(
            "INSERT OR REPLACE INTO item_fts (rowid, title, body)
             SELECT rowid, title, body FROM temp.fts_pending ORDER BY rowid",
        )?
        .execute([])?;
        tx.prepare_cached("DELETE FROM temp.fts_pending")?
            .execute([])?;
    }
    Ok(())
}

fn link_entry(tx: &Connection, entry: &EntryRef<'_>, item: ItemId) -> Result<(), StoreError> {
    tx.prepare_cached("INSERT OR IGNORE INTO feed_entry (feed, hash, item) VALUES (?1, ?2, ?3)")?
        .execute(params![entry.feed, entry.identity, item])?;
    Ok(())
}

/// The item already stored under an article's URL key in its domain, if any.
fn item_with_key(tx: &Connection, article: &NewArticle<'_>) -> Result<Option<ItemId>, StoreError> {
    Ok(tx
        .prepare_cached("SELECT id FROM item WHERE domain = ?1 AND url_key = ?2")?
        .query_row([article.domain, article.url_key], |r| r.get(0))
        .optional()?)
}

/// The rows of a fetched article apart from its item row: page, blocks and images.
fn store_article_rows(
    tx: &Connection,
    id: ItemId,
    article: &NewArticle<'_>,
    fetched: i64,
) -> Result<(), StoreError> {
    tx.prepare_cached(
        "INSERT INTO page (item, url, declared_charset, fetched, raw_len, raw)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![
        id,
        article.url,
        article.declared_charset,
        fetched,
        article.raw.len as i64,
        article.raw.compressed
    ])?;
    tx.prepare_cached("INSERT INTO item_blocks (item, blocks) VALUES (?1, ?2)")?
        .execute(params![id, article.blocks.compressed])?;
    store_images(tx, id, article.images, fetched)?;
    let mut link =
        tx.prepare_cached("INSERT OR IGNORE INTO item_image (item, url) VALUES (?1, ?2)")?;
    for url in article.known_images {
        link.execute(params![id, url])?;
    }
    Ok(())
}

/// Moves a failed item's feed entries to `into` (keeping its read and starred flags there when
/// set) and deletes it.
fn merge_into(tx: &Connection, failed: ItemId, into: ItemId) -> Result<(), StoreError> {
    if failed == into {
        return Ok(());
    }
    tx.prepare_cached(
        "UPDATE item SET read = max(read, (SELECT read FROM item WHERE id = ?1)),
            starred = max(starred, (SELECT starred FROM item WHERE id = ?1)) WHERE id = ?2",
    )?
    .execute(params![failed, into])?;
    tx.prepare_cached("UPDATE OR IGNORE feed_entry SET item = ?2 WHERE item = ?1")?
        .execute(params![failed, into])?;
    delete_items(tx, &[failed])
}

/// Appends what an item list asks for to a query over `item i` that ends in a `WHERE` clause:
/// the feed (bound as `?1`, NULL for every feed), unread, starred, newest first, the limit.
pub(crate) fn push_item_filter(sql: &mut String, filter: &ItemFilter) {
    if filter.feed.is_some() {
        sql.push_str(" AND i.id IN (SELECT item FROM feed_entry WHERE feed = ?1)");
    } else {
        sql.push_str(" AND ?1 IS NULL");
    }
    if filter.unread {
        sql.push_str(" AND i.read = 0");
    }
    if filter.starred {
        sql.push_str(" AND i.starred = 1");
    }
    sql.push_str(" ORDER BY coalesce(i.published, i.added) DESC, i.id DESC");
    if filter.limit > 0 {
        sql.push_str(&format!(" LIMIT {}", filter.limit));
    }
}

fn delete_items(tx: &Connection, ids: &[ItemId]) -> Result<(), StoreError> {
    for &id in ids {
        delete_fts(tx, id)?;
        for sql in [
            "DELETE FROM item_blocks WHERE item = ?1",
            "DELETE FROM page WHERE item = ?1",
            "DELETE FROM item_image WHERE item = ?1",
            "DELETE FROM feed_entry WHERE item = ?1",
            "DELETE FROM item WHERE id = ?1",
        ] {
            tx.prepare_cached(sql)?.execute([id])?;
        }
    }
    tx.execute(
        "DELETE FROM image WHERE url NOT IN (SELECT url FROM item_image)",
        [],
    )?;
    Ok(())
}

impl Store {
    /// Gives this connection a larger page cache, for a refresh worker: inserting a page's block
    /// hashes touches counters all over the URL Tree's tables, and the default 2 MB cache turns
    /// that into reads of the same pages again and again.
    pub fn tune_for_refresh(&self) -> Result<(), StoreError> {
        self.conn
            .pragma_update(None, "cache_size", -(limits::REFRESH_CACHE_KB as i64))?;
        Ok(())
    }

    /// Subscribes to `url` (with an optional title, e.g. from OPML). Returns the feed and whether
    /// it is new; subscribing twice is harmless.
    pub fn feed_add(
        &mut self,
        url: &str,
        title: Option<&str>,
        site_url: Option<&str>,
        now: i64,
    ) -> Result<(FeedId, bool), StoreError> {
        self.write(|tx| {
            if let Some(id) = tx
                .prepare_cached("SELECT id FROM feed WHERE url = ?1")?
                .query_row([url], |r| r.get(0))
                .optional()?
            {
                return Ok((id, false));
            }
            tx.prepare_cached(
                "INSERT INTO feed (url, title, site_url, added) VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(params![url, title, site_url, now])?;
            Ok((tx.last_insert_rowid(), true))
        })
    }

    /// Puts a feed in a folder (`None`: the top level). False when there is no such feed.
    pub fn feed_set_folder(
        &mut self,
        id: FeedId,
        folder: Option<&str>,
    ) -> Result<bool, StoreError> {
        let folder = folder.map(str::trim).filter(|f| !f.is_empty());
        self.write(|tx| {
            Ok(tx
                .prepare_cached("UPDATE feed SET folder = ?2 WHERE id = ?1")?
                .execute(params![id, folder])?
                > 0)
        })
    }

    /// Every subscription with its counts, in order of subscription.
    pub fn feeds(&self) -> Result<Vec<FeedInfo>, StoreError> {
        let mut stmt = self
            .conn
            .prepare_cached(&format!("{FEED_SELECT} ORDER BY f.id"))?;
        let rows = stmt.query_map([], feed_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// One subscription by row id.
    pub fn feed(&self, id: FeedId) -> Result<Option<FeedInfo>, StoreError> {
        Ok(self
            .conn
            .prepare_cached(&format!("{FEED_SELECT} WHERE f.id = ?1"))?
            .query_row([id], feed_row)
            .optional()?)
    }

    /// A subscription named by its id or its URL.
    pub fn feed_find(&self, spec: &str) -> Result<Option<FeedInfo>, StoreError> {
        let spec = spec.trim();
        if let Ok(id) = spec.parse::<i64>()
            && let Some(feed) = self.feed(id)?
        {
            return Ok(Some(feed));
        }
        Ok(self
            .conn
            .prepare_cached(&format!("{FEED_SELECT} WHERE f.url = ?1"))?
            .query_row([spec], feed_row)
            .optional()?)
    }

    /// Unsubscribes: the feed, its entries, and the items no other feed lists (with their pages,
    /// blocks, search entries and images) go. The URL Tree keeps what it learnt of the site.
    pub fn feed_remove(&mut self, id: FeedId) -> Result<bool, StoreError> {
        self.write(|tx| {
            let orphans: Vec<ItemId> = tx
                .prepare(
                    "SELECT DISTINCT item FROM feed_entry WHERE feed = ?1
                     AND item NOT IN (SELECT item FROM feed_entry WHERE feed <> ?1)",
                )?
                .query_map([id], |r| r.get(0))?
                .collect::<Result<_, _>>()?;
            tx.execute("DELETE FROM feed_entry WHERE feed = ?1", [id])?;
            delete_items(tx, &orphans)?;
            Ok(tx.execute("DELETE FROM feed WHERE id = ?1", [id])? > 0)
        })
    }

    /// Records a successful fetch of a feed (new validators, title and site link if given).
    pub fn feed_fetched(
        &mut self,
        id: FeedId,
        title: Option<&str>,
        site_url: Option<&str>,
        etag: Option<&str>,
        last_modified: Option<&str>,
        now: i64,
    ) -> Result<(), StoreError> {
        self.write(|tx| {
            tx.prepare_cached(
                "UPDATE feed SET title = coalesce(?2, title), site_url = coalesce(?3, site_url),
                    etag = ?4, last_modified = ?5, last_refresh = ?6, last_ok = ?6,
                    last_error = NULL, retry_after = NULL WHERE id = ?1",
            )?
            .execute(params![id, title, site_url, etag, last_modified, now])?;
            Ok(())
        })
    }

    /// Records a 304 Not Modified: the feed is current.
    pub fn feed_not_modified(&mut self, id: FeedId, now: i64) -> Result<(), StoreError> {
        self.write(|tx| {
            tx.prepare_cached(
                "UPDATE feed SET last_refresh = ?2, last_ok = ?2, last_error = NULL,
                    retry_after = NULL WHERE id = ?1",
            )?
            .execute(params![id, now])?;
            Ok(())
        })
    }

    /// Records a failed refresh of a feed; what is stored stays as it was.
    pub fn feed_failed(
        &mut self,
        id: FeedId,
        error: &str,
        retry_after: Option<i64>,
        now: i64,
    ) -> Result<(), StoreError> {
        self.write(|tx| {
            tx.prepare_cached(
                "UPDATE feed SET last_refresh = ?2, last_error = ?3, retry_after = ?4 WHERE id = ?1",
            )?
            .execute(params![id, now, error, retry_after])?;
            Ok(())
        })
    }

    /// Of `identities` (entry hashes of one feed), the ones already seen in that feed.
    pub fn seen_entries(
        &self,
        feed: FeedId,
        identities: &[&str],
    ) -> Result<HashSet<String>, StoreError> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT 1 FROM feed_entry WHERE feed = ?1 AND hash = ?2")?;
        let mut seen = HashSet::new();
        for id in identities {
            if stmt.exists(params![feed, id])? {
                seen.insert((*id).to_string());
            }
        }
        Ok(seen)
    }

    /// An item already stored for this entry link (fetched through another feed), if any.
    pub fn item_by_link(&self, link: &str) -> Result<Option<ItemId>, StoreError> {
        Ok(self
            .conn
            .prepare_cached("SELECT id FROM item WHERE link = ?1 OR response_url = ?1 LIMIT 1")?
            .query_row([link], |r| r.get(0))
            .optional()?)
    }

    /// The item stored for a URL key in a domain, if any.
    pub fn item_by_key(&self, domain: &str, url_key: &str) -> Result<Option<ItemId>, StoreError> {
        Ok(self
            .conn
            .prepare_cached("SELECT id FROM item WHERE domain = ?1 AND url_key = ?2")?
            .query_row([domain, url_key], |r| r.get(0))
            .optional()?)
    }

    /// Links a feed's entry to an existing item (the same article in another feed).
    pub fn entry_link(&mut self, entry: &EntryRef<'_>, item: ItemId) -> Result<(), StoreError> {
        self.write(|tx| link_entry(tx, entry, item))
    }

    /// Stores an item whose page was fetched and classified, with its page, blocks, clean text and
    /// images, and links the entry to it, all in one transaction. When an item with the same URL
    /// key exists (another worker stored it first), the entry is linked to that one instead.
    pub fn item_store(
        &mut self,
        entry: &EntryRef<'_>,
        item: &NewItem<'_>,
        article: &NewArticle<'_>,
    ) -> Result<Stored, StoreError> {
        self.write(|tx| {
            if let Some(existing) = item_with_key(tx, article)? {
                // Two entries of one article can race (the same story in two feeds): the one
                // stored first may have named an image the other was still downloading, so the
                // images downloaded for this one are kept for the stored item.
                store_images(tx, existing, article.images, item.added)?;
                link_entry(tx, entry, existing)?;
                return Ok(Stored::Linked(existing));
            }
            tx.prepare_cached(
                "INSERT INTO item (link, response_url, domain, url_key, tree_doc, title, summary,
                    published, added, attempts) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 1)",
            )?
            .execute(params![
                item.link,
                article.url,
                article.domain,
                article.url_key,
                article.tree_doc,
                item.title,
                item.summary,
                item.published,
                item.added
            ])?;
            let id = tx.last_insert_rowid();
            store_article_rows(tx, id, article, item.added)?;
            insert_fts(tx, id, item.title, article.text)?;
            link_entry(tx, entry, id)?;
            Ok(Stored::New(id))
        })
    }

    /// The entries of `feed` among `identities` whose item is still without its page (the fetch
    /// failed) after fewer than `max_attempts` attempts: a refresh fetches them again.
    pub fn retryable_entries(
        &self,
        feed: FeedId,
        identities: &[&str],
        max_attempts: u32,
    ) -> Result<HashMap<String, ItemId>, StoreError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT i.id FROM feed_entry AS e JOIN item AS i ON i.id = e.item
             WHERE e.feed = ?1 AND e.hash = ?2 AND i.fetch_error IS NOT NULL
               AND i.url_key IS NULL AND i.attempts < ?3",
        )?;
        let mut retry = HashMap::new();
        for id in identities {
            if let Some(item) = stmt
                .query_row(params![feed, id, max_attempts], |r| r.get(0))
                .optional()?
            {
                retry.insert((*id).to_string(), item);
            }
        }
        Ok(retry)
    }

    /// True when some entry of `feed` has an item whose page failed and may be fetched again
    /// (fewer than `max_attempts` attempts so far). The refresh then asks for the feed whole,
    /// not conditionally: a feed that answers "not modified" would give no entries to retry.
    pub fn has_retryable_entries(
        &self,
        feed: FeedId,
        max_attempts: u32,
    ) -> Result<bool, StoreError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM feed_entry AS e JOIN item AS i ON i.id = e.item
             WHERE e.feed = ?1 AND i.fetch_error IS NOT NULL
               AND i.url_key IS NULL AND i.attempts < ?2)",
        )?;
        Ok(stmt.query_row(params![feed, max_attempts], |r| r.get(0))?)
    }

    /// Gives up the retries of `feed`'s failed items whose entries the feed no longer lists
    /// (`listed`, the identities of its entries now): a retry needs the entry, so they would
    /// never be fetched again, and a pending retry keeps the feed from being asked
    /// conditionally (see [`Store::has_retryable_entries`]). Their attempts are set to
    /// `max_attempts`; the items stay, with their summary and error. An item another feed also
    /// lists keeps its retries: that feed may still bring its page. Returns how many.
    pub fn retire_unlisted_retries(
        &mut self,
        feed: FeedId,
        listed: &[&str],
        max_attempts: u32,
    ) -> Result<usize, StoreError> {
        let listed: HashSet<&str> = listed.iter().copied().collect();
        self.write(|tx| {
            let pending: Vec<(String, ItemId)> = tx
                .prepare_cached(
                    "SELECT e.hash, i.id FROM feed_entry AS e JOIN item AS i ON i.id = e.item
                     WHERE e.feed = ?1 AND i.fetch_error IS NOT NULL
                       AND i.url_key IS NULL AND i.attempts < ?2
                       AND NOT EXISTS (SELECT 1 FROM feed_entry AS o
                                       WHERE o.item = i.id AND o.feed <> ?1)",
                )?
                .query_map(params![feed, max_attempts], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<Result<_, _>>()?;
            let mut retired = 0;
            let mut update = tx.prepare_cached("UPDATE item SET attempts = ?2 WHERE id = ?1")?;
            for (hash, item) in pending {
                if !listed.contains(hash.as_str()) {
                    retired += update.execute(params![item, max_attempts])?;
                }
            }
            Ok(retired)
        })
    }

    /// Completes an item whose page failed before (see [`Store::retryable_entries`]) with the page
    /// fetched now: the item keeps its id, feed entries, title, summary and read and starred
    /// flags, and gains the page, blocks, images and clean text, all in one transaction. When
    /// another item already has the page's URL key, the failed item's entries move to that one
    /// and the failed item goes.
    pub fn item_retry_stored(
        &mut self,
        failed: ItemId,
        article: &NewArticle<'_>,
        now: i64,
    ) -> Result<Stored, StoreError> {
        self.write(|tx| {
            if let Some(existing) = item_with_key(tx, article)? {
                store_images(tx, existing, article.images, now)?;
                merge_into(tx, failed, existing)?;
                return Ok(Stored::Linked(existing));
            }
            let title: String = tx
                .prepare_cached("SELECT title FROM item WHERE id = ?1")?
                .query_row([failed], |r| r.get(0))
                .optional()?
                .ok_or_else(|| StoreError::Corrupt(format!("no item {failed} to complete")))?;
            tx.prepare_cached(
                "UPDATE item SET response_url = ?2, domain = ?3, url_key = ?4, tree_doc = ?5,
                    fetch_error = NULL, attempts = attempts + 1 WHERE id = ?1",
            )?
            .execute(params![
                failed,
                article.url,
                article.domain,
                article.url_key,
                article.tree_doc
            ])?;
            store_article_rows(tx, failed, article, now)?;
            // The summary's text gives way to the article's.
            delete_fts(tx, failed)?;
            insert_fts(tx, failed, &title, article.text)?;
            Ok(Stored::New(failed))
        })
    }

    /// Records another failed attempt at an item's page.
    pub fn item_retry_failed(&mut self, failed: ItemId, error: &str) -> Result<(), StoreError> {
        self.write(|tx| {
            tx.prepare_cached(
                "UPDATE item SET fetch_error = ?2, attempts = attempts + 1 WHERE id = ?1",
            )?
            .execute(params![failed, error])?;
            Ok(())
        })
    }

    /// The same article reached again under another feed's entry while a failed item stood for
    /// it here: the failed item's entries move to `into`, and it goes.
    pub fn item_merge_failed(&mut self, failed: ItemId, into: ItemId) -> Result<(), StoreError> {
        self.write(|tx| merge_into(tx, failed, into))
    }

    /// Stores an item whose page could not be fetched: its feed summary stays readable and
    /// searchable, and `error` says why the page is missing.
    pub fn item_store_failed(
        &mut self,
        entry: &EntryRef<'_>,
        item: &NewItem<'_>,
        summary_text: &str,
        error: &str,
    ) -> Result<ItemId, StoreError> {
        self.write(|tx| {
            tx.prepare_cached(
                "INSERT INTO item (link, title, summary, published, added, fetch_error, attempts)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, 1)",
            )?
            .execute(params![
                item.link,
                item.title,
                item.summary,
                item.published,
                item.added,
                error
            ])?;
            let id = tx.last_insert_rowid();
            insert_fts(tx, id, item.title, summary_text)?;
            link_entry(tx, entry, id)?;
            Ok(id)
        })
    }

    /// Whether an image is already stored (downloaded once, whichever article uses it).
    pub fn image_known(&self, url: &str) -> Result<bool, StoreError> {
        Ok(self
            .conn
            .prepare_cached("SELECT 1 FROM image WHERE url = ?1")?
            .exists([url])?)
    }

    /// Items, newest first.
    pub fn items(&self, filter: &ItemFilter) -> Result<Vec<ItemInfo>, StoreError> {
        let mut sql = String::from("SELECT i.id FROM item i WHERE 1 = 1");
        push_item_filter(&mut sql, filter);
        let ids: Vec<ItemId> = self
            .conn
            .prepare(&sql)?
            .query_map([filter.feed], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some(item) = self.item(id)? {
                out.push(item);
            }
        }
        Ok(out)
    }

    /// One item.
    pub fn item(&self, id: ItemId) -> Result<Option<ItemInfo>, StoreError> {
        let item = self
            .conn
            .prepare_cached(
                "SELECT id, link, response_url, title, summary, published, added, fetch_error,
                    read, starred, domain, url_key FROM item WHERE id = ?1",
            )?
            .query_row([id], |r| {
                Ok(ItemInfo {
                    id: r.get(0)?,
                    link: r.get(1)?,
                    response_url: r.get(2)?,
                    title: r.get(3)?,
                    summary: r.get(4)?,
                    published: r.get(5)?,
                    added: r.get(6)?,
                    fetch_error: r.get(7)?,
                    read: r.get(8)?,
                    starred: r.get(9)?,
                    domain: r.get(10)?,
                    url_key: r.get(11)?,
                    feeds: Vec::new(),
                })
            })
            .optional()?;
        let Some(mut item) = item else {
            return Ok(None);
        };
        item.feeds = self
            .conn
            .prepare_cached(
                "SELECT DISTINCT coalesce(f.title, f.url) FROM feed_entry e JOIN feed f ON f.id = e.feed
                 WHERE e.item = ?1 ORDER BY f.id",
            )?
            .query_map([id], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        Ok(Some(item))
    }

    /// The page stored for an item, decompressed.
    pub fn item_page(&self, id: ItemId) -> Result<Option<StoredPage>, StoreError> {
        type Row = (String, Option<String>, i64, i64, Vec<u8>);
        let row: Option<Row> = self
            .conn
            .prepare_cached(
                "SELECT url, declared_charset, fetched, raw_len, raw FROM page WHERE item = ?1",
            )?
            .query_row([id], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
            })
            .optional()?;
        let Some((url, declared_charset, fetched, raw_len, blob)) = row else {
            return Ok(None);
        };
        Ok(Some(StoredPage {
            url,
            declared_charset,
            raw: decompress(&blob, usize::try_from(raw_len).unwrap_or(0))?,
            fetched,
        }))
    }

    /// The blocks stored for an item with the labels they got when it arrived.
    pub fn item_blocks(&self, id: ItemId) -> Result<Vec<NewBlock>, StoreError> {
        let blob: Option<Vec<u8>> = self
            .conn
            .prepare_cached("SELECT blocks FROM item_blocks WHERE item = ?1")?
            .query_row([id], |r| r.get(0))
            .optional()?;
        let Some(blob) = blob else {
            return Ok(Vec::new());
        };
        blocks_format::decode(&blob).map_err(|e| {
            StoreError::Corrupt(format!("item {id}: stored blocks do not decode: {e}"))
        })
    }

    /// The images stored for an item.
    pub fn item_images(&self, id: ItemId) -> Result<Vec<StoredImage>, StoreError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT m.url, m.content_type, length(m.data), m.error FROM item_image i
             JOIN image m ON m.url = i.url WHERE i.item = ?1 ORDER BY m.url",
        )?;
        let rows = stmt.query_map([id], |r| {
            Ok(StoredImage {
                url: r.get(0)?,
                content_type: r.get(1)?,
                bytes: r.get::<_, Option<i64>>(2)?.unwrap_or(0).max(0) as u64,
                error: r.get(3)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// An image's bytes, from the database only.
    pub fn image_data(&self, url: &str) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self
            .conn
            .prepare_cached("SELECT data FROM image WHERE url = ?1")?
            .query_row([url], |r| r.get::<_, Option<Vec<u8>>>(0))
            .optional()?
            .flatten())
    }

    /// Marks items read or unread; returns how many changed.
    pub fn set_read(&mut self, scope: ItemScope, read: bool) -> Result<usize, StoreError> {
        self.write(|tx| {
            Ok(match scope {
                ItemScope::Item(id) => tx.execute(
                    "UPDATE item SET read = ?2 WHERE id = ?1 AND read <> ?2",
                    params![id, read],
                )?,
                ItemScope::Feed(feed) => tx.execute(
                    "UPDATE item SET read = ?2 WHERE read <> ?2
                     AND id IN (SELECT item FROM feed_entry WHERE feed = ?1)",
                    params![feed, read],
                )?,
                ItemScope::All => {
                    tx.execute("UPDATE item SET read = ?1 WHERE read <> ?1", [read])?
                }
            })
        })
    }

    /// Flips an item's star; returns the new state, `None` when there is no such item.
    pub fn toggle_star(&mut self, id: ItemId) -> Result<Option<bool>, StoreError> {
        self.write(|tx| {
            Ok(tx
                .prepare_cached(
                    "UPDATE item SET starred = 1 - starred WHERE id = ?1 RETURNING starred",
                )?
                .query_row([id], |r| r.get(0))
                .optional()?)
        })
    }

    /// Full-text search over titles and clean article text, best first (bm25, titles weighing
    /// more). `query` is taken as plain words (each a prefix-free term, all required), so that
    /// user input never trips FTS5's query syntax.
    pub fn search(&self, query: &str, limit: usize) -> Result<Vec<SearchHit>, StoreError> {
        let terms: Vec<String> = query
            .split(|c: char| !c.is_alphanumeric())
            .filter(|t| !t.is_empty())
            .map(|t| format!("\"{t}\""))
            .collect();
        if terms.is_empty() {
            return Ok(Vec::new());
        }
        let fts_query = terms.join(" ");
        let mut stmt = self.conn.prepare_cached(
            "SELECT rowid, title, snippet(item_fts, 1, '[', ']', '…', 12), bm25(item_fts, 5.0, 1.0)
             FROM item_fts WHERE item_fts MATCH ?1 ORDER BY bm25(item_fts, 5.0, 1.0) LIMIT ?2",
        )?;
        let rows = stmt.query_map(params![fts_query, limit as i64], |r| {
            Ok(SearchHit {
                id: r.get(0)?,
                title: r.get(1)?,
                snippet: r.get(2)?,
                rank: r.get(3)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Counts for checks and reports: (items, entries, pages).
    pub fn item_counts(&self) -> Result<(i64, i64, i64), StoreError> {
        Ok(self.conn.query_row(
            "SELECT (SELECT count(*) FROM item), (SELECT count(*) FROM feed_entry),
                    (SELECT count(*) FROM page)",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )?)
    }

    /// `PRAGMA integrity_check`: "ok" for a sound file.
    pub fn integrity_check(&self) -> Result<String, StoreError> {
        let rows: Vec<String> = self
            .conn
            .prepare("PRAGMA integrity_check")?
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        Ok(rows.join("\n"))
    }
}

fn store_images(
    tx: &Connection,
    item: ItemId,
    images: &[NewImage],
    now: i64,
) -> Result<(), StoreError> {
    let mut put = tx.prepare_cached(
        "INSERT INTO image (url, content_type, data, error, fetched) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (url) DO NOTHING",
    )?;
    let mut link =
        tx.prepare_cached("INSERT OR IGNORE INTO item_image (item, url) VALUES (?1, ?2)")?;
    for image in images {
        let (data, error) = match &image.data {
            Ok(bytes) => (Some(bytes.as_slice()), None),
            Err(e) => (None, Some(e.as_str())),
        };
        put.execute(params![image.url, image.content_type, data, error, now])?;
        link.execute(params![item, image.url])?;
    }
    Ok(())
}

#[cfg(test)]
mod page_bytes_tests {
    use super::{LZ4_PAGE, PageBytes, decompress};

    /// Every page comes back whole, whatever came before it (empty, small, and large
    /// incompressible input).
    #[test]
    fn pages_compressed_one_after_another_come_back_whole() {
        let mut noise = Vec::with_capacity(300_000);
        let mut x: u32 = 1;
        for _ in 0..300_000 {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            noise.push((x >> 24) as u8);
        }
        let html = "<p>Le même paragraphe, encore et encore.</p>".repeat(2_000);
        for raw in [
            &b""[..],
            html.as_bytes(),
            &noise,
            b"<p>x</p>",
            html.as_bytes(),
        ] {
            let bytes = PageBytes::compress(raw).unwrap();
            assert_eq!(bytes.raw_len(), raw.len());
            assert_eq!(bytes.decompress().unwrap(), raw);
        }
    }

    /// Pages stored as zlib streams (before LZ4) still read; damaged LZ4 blobs give an error,
    /// never a panic or a huge allocation.
    #[test]
    fn old_pages_read_and_damaged_ones_are_errors() {
        use std::io::Write;
        let html = "<p>Un paragraphe qui revient, encore et encore.</p>".repeat(500);
        let mut old = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
        old.write_all(html.as_bytes()).unwrap();
        let old = old.finish().unwrap();
        assert_eq!(old[0], 0x78);
        assert_eq!(decompress(&old, html.len()).unwrap(), html.as_bytes());

        let new = PageBytes::compress(html.as_bytes()).unwrap().compressed;
        assert_eq!(new[0], LZ4_PAGE);
        for cut in [1, 3, 5, new.len() / 2, new.len() - 1] {
            assert!(decompress(&new[..cut], html.len()).is_err(), "cut at {cut}");
        }
        let mut huge = new.clone();
        huge[1..5].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(decompress(&huge, 0).is_err());
        let mut short = new.clone();
        short[1..5].copy_from_slice(&10u32.to_le_bytes());
        assert!(decompress(&short, 0).is_err());
        let mut garbled = new;
        for byte in garbled.iter_mut().skip(5).step_by(7) {
            *byte ^= 0x5a;
        }
        // Either an error or some bytes, never a panic.
        let _ = decompress(&garbled, html.len());
    }
}

#[cfg(test)]
mod blocks_format_tests {
    use super::blocks_format::{self, BINARY};
    use super::*;
    use crate::classify::{self, Method};

    const HTML: &str = r#"<html><head><title>Harbour news</title></head><body>
        <nav><a href="/">Home</a> <a href="/world">World</a></nav>
        <article><h1>Harbour news</h1>
        <p>The harbour opened again on Monday, after three weeks of repairs to the quay, and the
        first ferries came in before noon with a "full" load.</p>
        <img src="/img/quay.jpg" alt="The quay">
        <p>Fishermen said the new crane lifts twice what the old one did, ça va.</p></article>
        <footer>© Example 2026</footer></body></html>"#;

    fn labelled_page() -> (Page, Vec<Label>) {
        let base = url::Url::parse("https://news.example/2026/harbour").unwrap();
        let page = crate::page::page_from_html(HTML, Some(&base));
        let labels = classify::classify(Method::PithPage, &page, None);
        (page, labels)
    }

    /// The old form: zlib-compressed JSON, as `encode_blocks` wrote it before the binary form.
    /// Blocks as stored before the binary form: JSON in a zlib stream.
    fn json_blob(blocks: &[NewBlock]) -> Vec<u8> {
        use std::io::Write;
        let json = serde_json::to_vec(blocks).unwrap();
        let mut zlib = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
        zlib.write_all(&json).unwrap();
        zlib.finish().unwrap()
    }

    /// What the page encodes to is what the inspector read before: the blocks of
    /// `refresh::labelled_blocks`, whichever encoder wrote them.
    #[test]
    fn the_binary_form_reads_back_as_the_labelled_blocks() {
        let (page, labels) = labelled_page();
        let expected = super::labelled_blocks(&page, &labels);
        assert!(expected.len() >= 5, "{expected:?}");
        assert!(expected.iter().any(|b| b.image.is_some()));
        assert!(expected.iter().any(|b| b.content) && expected.iter().any(|b| !b.content));
        let direct = PageBytes::encode_labelled(&page, &labels).compressed;
        assert_eq!(direct.first(), Some(&BINARY));
        assert_eq!(blocks_format::decode(&direct).unwrap(), expected);
        let from_blocks = super::encode_blocks(&expected).compressed;
        assert_eq!(blocks_format::decode(&from_blocks).unwrap(), expected);
        assert_eq!(blocks_format::decode(&[BINARY, 0, 0]).unwrap(), []);
    }

    /// Rows stored before the binary form (zlib JSON) still read back, through the store too.
    #[test]
    fn rows_of_both_forms_read_back() {
        let (page, labels) = labelled_page();
        let expected = super::labelled_blocks(&page, &labels);
        let old = json_blob(&expected);
        assert_eq!(old.first(), Some(&0x78));
        assert_eq!(blocks_format::decode(&old).unwrap(), expected);
        assert_eq!(blocks_format::decode(&json_blob(&[])).unwrap(), []);

        let mut store = Store::open_in_memory().unwrap();
        let (feed, _) = store
            .feed_add("http://ex.test/feed", None, None, 0)
            .unwrap();
        let raw = PageBytes::compress(HTML.as_bytes()).unwrap();
        let blocks = PageBytes::encode_labelled(&page, &labels);
        let mut ids = Vec::new();
        for (n, blocks) in [
            &blocks,
            &PageBytes {
                compressed: old,
                len: 0,
            },
        ]
        .into_iter()
        .enumerate()
        {
            let link = format!("http://ex.test/{n}");
            let stored = store
                .item_store(
                    &EntryRef {
                        feed,
                        identity: &link,
                    },
                    &NewItem {
                        link: &link,
                        title: "Harbour news",
                        summary: None,
                        published: None,
                        added: 1,
                    },
                    &NewArticle {
                        url: &link,
                        declared_charset: None,
                        raw: &raw,
                        domain: "ex.test",
                        url_key: &link,
                        tree_doc: None,
                        blocks,
                        text: "harbour",
                        images: &[],
                        known_images: &[],
                    },
                )
                .unwrap();
            ids.push(stored.id());
        }
        for id in ids {
            assert_eq!(store.item_blocks(id).unwrap(), expected);
        }
    }

    /// A damaged blob is an error, never a panic or a huge allocation: every truncation and
    /// every single-byte change of a binary blob.
    #[test]
    fn damaged_blobs_do_not_decode_or_panic() {
        let (page, labels) = labelled_page();
        let blob = PageBytes::encode_labelled(&page, &labels).compressed;
        for len in 0..blob.len() {
            assert!(blocks_format::decode(&blob[..len]).is_err(), "cut at {len}");
        }
        for at in 1..blob.len() {
            for byte in [0x00, 0x7f, 0x80, 0xff] {
                let mut bad = blob.clone();
                bad[at] = byte;
                let _ = blocks_format::decode(&bad);
            }
        }
        let huge = [BINARY, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f];
        assert!(blocks_format::decode(&huge).is_err());
        assert!(blocks_format::decode(&[]).is_err());
    }
}

#[cfg(test)]
mod retry_tests {
    use super::*;

    fn article<'a>(raw: &'a PageBytes, blocks: &'a PageBytes, key: &'a str) -> NewArticle<'a> {
        NewArticle {
            url: "http://ex.test/a",
            declared_charset: None,
            raw,
            domain: "ex.test",
            url_key: key,
            tree_doc: None,
            blocks,
            text: "the article text about harbours",
            images: &[],
            known_images: &[],
        }
    }

    fn entry_item(store: &Store, feed: FeedId, identity: &str) -> Option<ItemId> {
        store
            .conn
            .query_row(
                "SELECT item FROM feed_entry WHERE feed = ?1 AND hash = ?2",
                params![feed, identity],
                |r| r.get(0),
            )
            .optional()
            .unwrap()
    }

    /// Full-text rows queued in a batch reach the index at its commit; a failed write's row
    /// leaves with the write, and a deleted item's queued row goes too.
    #[test]
    fn queued_full_text_rows_follow_their_writes_into_the_index() {
        let mut store = Store::open_in_memory().unwrap();
        let hits = |store: &Store, word: &str| -> i64 {
            store
                .conn
                .query_row(
                    "SELECT count(*) FROM item_fts WHERE item_fts MATCH ?1",
                    [word],
                    |r| r.get(0),
                )
                .unwrap()
        };
        store.begin_batch();
        store
            .write(|tx| insert_fts(tx, 1, "kept", "the aardvark stays"))
            .unwrap();
        let failed: Result<(), StoreError> = store.write(|tx| {
            insert_fts(tx, 2, "lost", "the bandicoot goes")?;
            Err(StoreError::Corrupt("this write fails".into()))
        });
        assert!(failed.is_err());
        store
            .write(|tx| {
                insert_fts(tx, 3, "deleted", "the chinchilla leaves")?;
                delete_fts(tx, 3)
            })
            .unwrap();
        assert_eq!(hits(&store, "aardvark"), 0, "queued until the commit");
        store.commit_batch().unwrap();
        assert_eq!(hits(&store, "aardvark"), 1);
        assert_eq!(hits(&store, "bandicoot"), 0);
        assert_eq!(hits(&store, "chinchilla"), 0);
        // Outside a batch a write's row is searchable when the write returns.
        store
            .write(|tx| insert_fts(tx, 4, "alone", "the dugong swims"))
            .unwrap();
        assert_eq!(hits(&store, "dugong"), 1);
        // An item indexed before gets its new text in place of the old.
        store
            .write(|tx| insert_fts(tx, 1, "kept", "the emu replaces it"))
            .unwrap();
        assert_eq!((hits(&store, "aardvark"), hits(&store, "emu")), (0, 1));
    }

    #[test]
    fn a_retried_page_completes_its_item_or_merges_into_the_one_with_its_key() {
        let mut store = Store::open_in_memory().unwrap();
        let (feed, _) = store
            .feed_add("http://ex.test/feed", None, None, 0)
            .unwrap();
        let raw = PageBytes::compress(b"<p>page</p>").unwrap();
        let blocks = super::encode_blocks(&[]);
        let item = |link| NewItem {
            link,
            title: "A title",
            summary: Some("A summary"),
            published: None,
            added: 1,
        };
        let entry = |identity| EntryRef { feed, identity };

        // Completed in place: same id, its key set, the error gone, the text searchable.
        let failed = store
            .item_store_failed(&entry("e1"), &item("http://ex.test/a"), "A summary", "503")
            .unwrap();
        let retry = store.retryable_entries(feed, &["e1"], 3).unwrap();
        assert_eq!(retry.get("e1"), Some(&failed));
        let stored = store
            .item_retry_stored(failed, &article(&raw, &blocks, "ex.test/a"), 2)
            .unwrap();
        assert_eq!(stored, Stored::New(failed));
        assert!(
            store
                .retryable_entries(feed, &["e1"], 3)
                .unwrap()
                .is_empty()
        );
        let page: i64 = store
            .conn
            .query_row("SELECT count(*) FROM page WHERE item = ?1", [failed], |r| {
                r.get(0)
            })
            .unwrap();
        assert_eq!(page, 1);
        let hits: i64 = store
            .conn
            .query_row(
                "SELECT count(*) FROM item_fts WHERE item_fts MATCH 'harbours'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(hits, 1);

        // Another failed item whose page turns out to have that key: its entry moves over.
        let other = store
            .item_store_failed(
                &entry("e2"),
                &item("http://ex.test/b"),
                "B summary",
                "timeout",
            )
            .unwrap();
        store.item_retry_failed(other, "timeout again").unwrap();
        let stored = store
            .item_retry_stored(other, &article(&raw, &blocks, "ex.test/a"), 3)
            .unwrap();
        assert_eq!(stored, Stored::Linked(failed));
        assert_eq!(entry_item(&store, feed, "e2"), Some(failed));
        let left: i64 = store
            .conn
            .query_row("SELECT count(*) FROM item", [], |r| r.get(0))
            .unwrap();
        assert_eq!(left, 1);

        // Attempts count: a third failure leaves an item no longer retried at 3.
        let third = store
            .item_store_failed(&entry("e3"), &item("http://ex.test/c"), "C", "500")
            .unwrap();
        store.item_retry_failed(third, "500").unwrap();
        assert_eq!(store.retryable_entries(feed, &["e3"], 3).unwrap().len(), 1);
        store.item_retry_failed(third, "500").unwrap();
        assert!(
            store
                .retryable_entries(feed, &["e3"], 3)
                .unwrap()
                .is_empty()
        );
    }
}
