//! Stored pages: the raw bytes of each fetched article (compressed, see `codecs`), and its blocks
//! with the labels they got when it arrived.

use rusqlite::{Connection, OptionalExtension, params};

use super::codecs::{PageBytes, decompress};
use super::items::ItemId;
use super::{Store, StoreError};
use crate::classify::{Label, Reason};
use crate::page::{BlockKind, Page};
use std::fmt::Write as _;

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

impl PageBytes {
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
}

/// Writes the rows of an article's page: its raw bytes (compressed) and its labelled blocks (as
/// the engine encoded them).
pub(super) fn insert_page_rows(
    tx: &Connection,
    item: ItemId,
    url: &str,
    declared_charset: Option<&str>,
    fetched: i64,
    raw: &PageBytes,
    blocks: &PageBytes,
) -> Result<(), StoreError> {
    tx.prepare_cached(
        "INSERT INTO page (item, url, declared_charset, fetched, raw_len, raw)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![
        item,
        url,
        declared_charset,
        fetched,
        raw.raw_len() as i64,
        raw.stored()
    ])?;
    tx.prepare_cached("INSERT INTO item_blocks (item, blocks) VALUES (?1, ?2)")?
        .execute(params![item, blocks.stored()])?;
    Ok(())
}

impl Store {
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
}

#[cfg(test)]
mod blocks_format_tests {
    use super::blocks_format::{self, BINARY};
    use super::*;
    use crate::classify::{self, Method};
    use crate::store::{EntryRef, NewArticle, NewItem};

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
        let direct = PageBytes::encode_labelled(&page, &labels).stored().to_vec();
        assert_eq!(direct.first(), Some(&BINARY));
        assert_eq!(blocks_format::decode(&direct).unwrap(), expected);
        let from_blocks = super::encode_blocks(&expected).stored().to_vec();
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
        for (n, blocks) in [&blocks, &PageBytes::kept(old)].into_iter().enumerate() {
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
        let blob = PageBytes::encode_labelled(&page, &labels).stored().to_vec();
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
