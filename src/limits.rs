//! Hard bounds on the work one page may cause. Pages come from the open web: a hostile or broken
//! page must cost bounded time and memory, never a stack overflow or an hour of parsing. Every
//! bound is named here so that the numbers can be found, tuned and reported in one place; the
//! values are far above anything the datasets' real pages reach (see the tests in `dom` and `page`).

/// How many bytes at the start of a document are searched for a `<meta charset>` declaration.
///
/// The HTML standard prescans 1024 bytes, but web-archive captures put their toolbar (tens of KB of
/// script) before the page's own `<head>`: in the datasets the declaration sits as far as 70 KB in.
/// The prescan is a cheap byte scan, so it may look further than a browser does.
pub const MAX_META_PRESCAN_BYTES: usize = 128 * 1024;

/// How many bytes are fed to the encoding detector (chardetng) when nothing declares the encoding.
/// Its guess settles long before this; the cap keeps a huge page from costing a second full pass.
pub const MAX_DETECT_BYTES: usize = 256 * 1024;

/// The deepest an element may be nested, counted from the document node.
///
/// Enforced twice: in front of the tree builder, start tags that would open an element deeper than
/// this are dropped together with their end tags (their text is kept, in the element at the cap),
/// because html5ever scans its stack of open elements on most start tags and 100,000 nested `<div>`s
/// would take quadratic time; and in the tree sink, a node the tree builder still attaches deeper
/// (misnested markup can do that) is attached to its ancestor at the cap instead. Real pages stay
/// below 100.
pub const MAX_DEPTH: u32 = 512;

/// The most nodes (elements and text nodes) one document may hold. Once the DOM holds this many,
/// the rest of the input is not parsed: it bounds memory, and it bounds the misnested-formatting
/// "reconstruction" blow-up of the HTML parsing algorithm, which can otherwise create a number of
/// elements quadratic in the input size. A 1 MB news page has about 20,000 nodes.
pub const MAX_NODES: usize = 2_000_000;

/// The most bytes one text node may hold; text beyond it is dropped (cut at a char boundary).
/// One megabyte is about 150,000 words, far beyond any article.
pub const MAX_TEXT_NODE_BYTES: usize = 1024 * 1024;

/// The most attributes kept on one tag; the rest are dropped before parsing (see
/// `attrguard`). The HTML tokenizer compares each attribute with every earlier one of its tag,
/// so their number must be bounded for parsing to stay linear; real tags have a few dozen.
pub const MAX_ATTRIBUTES: usize = 256;

/// The most blocks one page may produce; further blocks are not added. News pages have a few
/// hundred; a page with more than this is a listing or a dump, not an article.
pub const MAX_BLOCKS: usize = 20_000;

/// The most characters one block's text may hold; longer text is cut at a char boundary (the
/// word counts are taken from the kept text). About 15,000 words.
pub const MAX_BLOCK_CHARS: usize = 100_000;

/// The most elements of a block's `tag_path`: deeper paths keep their last elements, after a
/// leading `…/`. Paths are compared between pages of a site, so only the innermost part matters.
pub const MAX_TAG_PATH_ELEMENTS: usize = 64;

/// The most bytes of a page's `<style>` sheets read for the classes they hide at a reader's
/// width (a page builder's sheets run to a few hundred kilobytes): a sheet that would pass the
/// bound is not read (what it hides shows), and smaller sheets after it still are.
pub const MAX_STYLE_BYTES: usize = 2 * 1024 * 1024;

// Fetching: what one feed, page or image may cost. Servers are strangers; a feed that never ends,
// a page of gigabytes or a redirect chain without end must fail that one fetch with a clear error,
// not stall or exhaust the reader. These numbers are stated in README.md.

/// The largest feed document accepted, in bytes after decompression. Big podcast feeds with full
/// show notes reach a few MB; anything larger is an archive dump, not a feed.
pub const MAX_FEED_BYTES: u64 = 10 * 1024 * 1024;

/// The largest article page accepted, in bytes after decompression. News pages are 50–500 KB; a
/// larger page is refused rather than parsed.
pub const MAX_PAGE_BYTES: u64 = 5 * 1024 * 1024;

/// The largest single image stored for offline reading; a larger one is skipped (the reader shows
/// its alt text). Article photos are well under this; multi-megabyte originals are not needed.
pub const MAX_IMAGE_BYTES: u64 = 2 * 1024 * 1024;

/// The most image bytes stored for one article, so that a gallery page cannot fill the database.
pub const MAX_ARTICLE_IMAGE_BYTES: u64 = 8 * 1024 * 1024;

/// The most images downloaded for one article (each a request to someone's server).
pub const MAX_ARTICLE_IMAGES: usize = 20;

/// The most entries taken from one feed document, in document order (feeds list the newest
/// first). A feed listing thousands of entries is an archive; its first ones are what is new.
pub const MAX_ENTRIES_PER_FEED: usize = 200;

/// The longest URL (in bytes) pith fetches, keys or opens: feed, page and image URLs, redirect
/// targets, and links a reader clicks. Browsers and servers commonly stop around 8 KiB; a longer
/// "article URL" is a tracking blob or an attack, not a document address.
pub const MAX_URL_LEN: usize = 8192;

/// The most pixels (width × height) an image may declare for the reader to decode it. A 2 MB
/// file can declare a 100,000 × 100,000 canvas (a decompression bomb of 40 GB of RGBA); 40
/// megapixels is more than any article photo needs.
pub const MAX_IMAGE_PIXELS: u64 = 40_000_000;

/// The largest OPML file `pith import` reads. A subscription list is a few hundred KB at most.
pub const MAX_OPML_BYTES: u64 = 10 * 1024 * 1024;

/// The most feeds one OPML import subscribes to; the rest of the file is ignored (and said so).
pub const MAX_OPML_FEEDS: usize = 10_000;

/// The most redirects followed for one request; the response URL after them is recorded.
pub const MAX_REDIRECTS: u32 = 10;

/// How long establishing a connection may take, in seconds.
pub const CONNECT_TIMEOUT_SECS: u64 = 10;

/// How long a whole request may take (each redirect hop), from connecting to the last body byte,
/// in seconds. A server that trickles bytes cannot hold a worker longer than this.
pub const REQUEST_TIMEOUT_SECS: u64 = 30;

/// The longest `Retry-After` (429/503) that a refresh waits out before trying once more, in
/// seconds; a longer one fails the fetch and the feed is not asked again before that time.
pub const MAX_RETRY_AFTER_WAIT_SECS: u64 = 10;

/// How many connections pith opens to one host at a time (politeness).
pub const MAX_CONNECTIONS_PER_HOST: usize = 2;

/// The pause between the starts of two requests to the same host, in milliseconds (politeness).
pub const HOST_DELAY_MILLIS: u64 = 50;

/// The most bytes of an HTML page searched for `<link rel="alternate">` feeds (autodiscovery);
/// the links live in `<head>`.
pub const MAX_AUTODISCOVERY_BYTES: usize = 512 * 1024;

/// How many bytes of fetched pages a refresh may hold in memory while they wait (a new feed's
/// pages wait until the whole feed is in the URL Tree; an article waits for its images). No new
/// feed is started above it, so memory stays bounded however many feeds there are, while enough
/// feeds (and so hosts) are in flight to keep the workers busy despite per-host politeness.
pub const MAX_REFRESH_HELD_BYTES: usize = 48 * 1024 * 1024;

/// How many rows of an item list are read at a time: the window's list asks for the next page as
/// the user scrolls or steps near the end of what it holds, and `pith items` prints a page before
/// it reads the next. A few screenfuls (a screen shows 20 to 40 rows): one page is read in about
/// a millisecond whatever the database's size, and moving down the list rarely waits for one.
pub const LIST_PAGE_ROWS: usize = 200;

/// The SQLite page cache of each refresh worker's connection, in KB (see
/// `Store::tune_for_refresh`). One connection serves all workers of a refresh.
pub const REFRESH_CACHE_KB: u32 = 32 * 1024;

/// How many pages the write-ahead log may hold during a refresh before SQLite checkpoints it
/// (its default is 1,000, about 4 MB). About 64 MB; the log is emptied when the refresh ends.
pub const REFRESH_WAL_PAGES: u32 = 16_000;

/// A refresh commits its writes in batches (`Store::begin_batch`): at most this many writes
/// (a page's tree insert and its item are two) share one transaction...
pub const REFRESH_BATCH_WRITES: usize = 128;

/// ...and a batch is committed once it is this old, so that what a refresh stored reaches the
/// window (another connection) within about this long, and a write from the window waits at
/// most about this long for the refresh's write lock.
pub const REFRESH_BATCH_AGE: std::time::Duration = std::time::Duration::from_millis(250);

/// How many times in all a refresh fetches an entry's page that failed (a time-out, a 503): the
/// entry's item keeps its feed summary meanwhile, and later refreshes try again while the feed
/// still lists the entry.
pub const MAX_PAGE_ATTEMPTS: u32 = 3;

/// Retention (`Store::retention_sweep`, run at the end of every refresh) deletes at most this many
/// items per run, so that a first run on a large old database does not stall the refresh that
/// runs it: the rest goes at the next refresh. A busy reader (300 feeds, 6,000 items a day)
/// needs about 6,000 a day, a few refreshes' worth.
pub const RETENTION_ITEMS_PER_SWEEP: usize = 5_000;

/// ...and drops at most this many raw pages (of articles that stay, read from their records).
pub const RETENTION_PAGES_PER_SWEEP: usize = 5_000;

/// ...and stops starting new steps once it has run this long.
pub const RETENTION_SWEEP_TIME: std::time::Duration = std::time::Duration::from_secs(2);

/// Items deleted (or pages dropped) per transaction of a sweep: the window's writes wait for at
/// most one such step.
pub const RETENTION_STEP_ROWS: usize = 200;

/// Free pages a file keeps for the next refresh to reuse (16 MB at SQLite's 4 KB pages); a sweep
/// gives the free pages above it back to the file system (files made since schema 5, whose
/// auto_vacuum is incremental)...
pub const RETENTION_FREE_PAGES_KEPT: u64 = 4_096;

/// ...at most this many per sweep (32 MB), since each page given back may move another.
pub const RETENTION_RELEASE_PAGES: u64 = 8_192;

/// A refresh writes at most this many items' full-text rows again when the file's rows are of an
/// older form than the index's (`Store::reindex_search`, after retention), 250 to a transaction
/// so that the window's writes wait for one of them at most. Reading an article's record and
/// writing its row took 0.1 ms an item (2,000 in 0.2 s), and 0.5 ms for long articles (18 KB of
/// text), so a batch holds a refresh up a second at most, and a year's 100,000 items are current
/// after fifty refreshes.
pub const SEARCH_REINDEX_BATCH: usize = 2_000;
