-- pith's database schema, version 6 (kept in PRAGMA user_version).
-- The whole current schema: a fresh database runs this file; older databases are upgraded in place
-- by the migrations in src/store/mod.rs. All SQL of the program lives in src/store/ and here.

-- The URL Tree (Sluban & Grčar 2013, §4): one tree per registrable domain. A node is one segment of
-- a URL key (domain, host, path segments, kept query) under its parent; parent 0 marks a domain node,
-- the root of one site's tree.
CREATE TABLE IF NOT EXISTS tree_node (
    id      INTEGER PRIMARY KEY,
    parent  INTEGER NOT NULL,
    segment TEXT    NOT NULL,
    support INTEGER NOT NULL DEFAULT 0,  -- n_s: documents inserted under this node
    -- 1 when the node keeps counter rows of its own: n_s >= 2 and no child has the same n_s.
    -- Otherwise its counters are implied and not stored (most of the tree, and most of its size):
    -- a node with one document counts exactly that document's hash set (in tree_doc), and a node
    -- whose documents all sit under one child has that child's counters.
    own     INTEGER NOT NULL DEFAULT 0,
    UNIQUE (parent, segment)
);

-- c(b): how many documents under a node contain block hash b, for the nodes with own = 1 only.
-- The hash is the first 8 bytes of the block's MD5, big-endian, as a signed 64-bit integer. Two key
-- ranges per node: rows under `node` hold counts of 1 or more; rows under `node + 2^40` are its
-- "full rows", hashes in every document under the node (the site's template), stored with count 0
-- and read as the node's support, so that pages carrying the template change none of them. A hash
-- is never in both. A hash in exactly one document of its domain has no row at all: it is in
-- tree_single, and every node on that document's branch counts it once.
CREATE TABLE IF NOT EXISTS tree_counter (
    node  INTEGER NOT NULL,
    hash  INTEGER NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (node, hash)
) WITHOUT ROWID;

-- The hashes found in exactly one document of a domain (most of a site's article text), with that
-- document: kept once per domain rather than at every node on its branch (version 3). A second
-- document with the hash moves it into the rows of the nodes that keep rows.
CREATE TABLE IF NOT EXISTS tree_single (
    domain INTEGER NOT NULL,             -- the domain node
    hash   INTEGER NOT NULL,
    doc    INTEGER NOT NULL,             -- the tree_doc that has it
    PRIMARY KEY (domain, hash)
) WITHOUT ROWID;

-- Every document in the tree with the exact hash set it added, so that it can leave again
-- (history window) by decrementing exactly what it incremented.
CREATE TABLE IF NOT EXISTS tree_doc (
    id      INTEGER PRIMARY KEY,
    domain  INTEGER NOT NULL,            -- the domain node
    leaf    INTEGER NOT NULL,            -- the node of the last segment of its URL key
    url_key TEXT    NOT NULL,
    added   INTEGER NOT NULL,            -- the document's time in the stream, unix seconds
    hashes  BLOB    NOT NULL,            -- its unique block hashes, 8 bytes each, sorted
    container TEXT,                      -- DOM signature of its main content container, if any
    UNIQUE (domain, url_key)
);
CREATE INDEX IF NOT EXISTS tree_doc_by_age ON tree_doc (domain, added, id);
-- The one document under a node with n_s = 1, whose hash set is that node's counters.
CREATE INDEX IF NOT EXISTS tree_doc_by_leaf ON tree_doc (leaf);

-- Per-site memory kept with the tree's nodes: how many documents under a node had their main content
-- in a container with this DOM signature (tag path with ids and classes, digits folded). Counted and
-- removed exactly like tree_counter, so the site's agreement follows the history window.
CREATE TABLE IF NOT EXISTS site_container (
    node      INTEGER NOT NULL,
    signature TEXT    NOT NULL,
    count     INTEGER NOT NULL,
    PRIMARY KEY (node, signature)
) WITHOUT ROWID;

-- Feeds, items and stored articles (issue 5). An item is one article (one web page), whichever
-- feeds list it: the feeds' entries point to it through feed_entry, so an article served by two
-- feeds (or an aggregator and its publisher) is fetched, counted in the tree and stored once.

-- A subscription. etag/last_modified are the validators of the last successful fetch, sent back
-- as a conditional GET; retry_after holds a server's 429/503 Retry-After (unix seconds) so that
-- no request is sent to the feed before then.
CREATE TABLE IF NOT EXISTS feed (
    id            INTEGER PRIMARY KEY,
    url           TEXT    NOT NULL UNIQUE,   -- the URL subscribed to (after autodiscovery)
    title         TEXT,                      -- the feed's own title, once fetched
    site_url      TEXT,                      -- the feed's home page link
    added         INTEGER NOT NULL,          -- unix seconds
    etag          TEXT,
    last_modified TEXT,
    last_refresh  INTEGER,                   -- unix seconds of the last attempt
    last_ok       INTEGER,                   -- unix seconds of the last successful fetch
    last_error    TEXT,                      -- NULL when the last attempt succeeded
    retry_after   INTEGER,                   -- unix seconds; NULL when the server asked nothing
    folder        TEXT,                      -- the OPML folder it was imported in (since version 2)
    name          TEXT                       -- the user's name for it, shown over title (since 4)
);

-- Settings (the window's refresh interval, text size, pane widths; the retention periods since
-- version 5): a name and its value as text.
CREATE TABLE IF NOT EXISTS setting (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;

-- A new file's full-text rows are all of the current form (`search.rs`, SEARCH_FORM); a file of an
-- older version has none recorded, and its rows are written again a batch each refresh.
INSERT OR IGNORE INTO setting (key, value) VALUES ('search_index_form', '2');

-- One article. url_key/domain identify it within its domain (paper §3): at most one item per key.
-- An item whose page could not be fetched has no key and no page; its feed summary stays readable
-- and fetch_error says why.
CREATE TABLE IF NOT EXISTS item (
    id           INTEGER PRIMARY KEY,
    link         TEXT    NOT NULL,           -- the entry's link as the feed gave it
    response_url TEXT,                       -- after redirects
    domain       TEXT,
    url_key      TEXT,
    tree_doc     INTEGER,                    -- the document in the URL Tree (informative: the
                                             -- key is looked up again at reading time)
    title        TEXT    NOT NULL,           -- the entry title as given in the feed
    summary      TEXT,                       -- the entry's summary or content from the feed
    published    INTEGER,                    -- unix seconds, from the feed
    added        INTEGER NOT NULL,           -- unix seconds
    fetch_error  TEXT,                       -- why the page could not be fetched, if it could not
    attempts     INTEGER NOT NULL DEFAULT 0, -- page fetch attempts so far
    read         INTEGER NOT NULL DEFAULT 0,
    starred      INTEGER NOT NULL DEFAULT 0,
    read_at      INTEGER                     -- unix seconds it was last marked read (retention
                                             -- counts a read item's period from then)
);
CREATE UNIQUE INDEX IF NOT EXISTS item_by_key ON item (domain, url_key);
CREATE INDEX IF NOT EXISTS item_by_link ON item (link);
-- The retention policy's walk (since version 5): the items it may delete, read or unread, oldest
-- first, without reading the starred ones it keeps forever (src/store/retention.rs).
CREATE INDEX IF NOT EXISTS item_for_retention ON item (starred, read, added);
-- Item lists, newest first (since version 6): a list is read a page at a time, and each page
-- seeks to where the last one ended in the list's own order (src/store/item_rows.rs), reading its
-- rows and no others. The rowid (the id, the order's second key) ends every index. The unread and
-- starred lists each have their own, so that a page of them never walks past the items they
-- leave out.
CREATE INDEX IF NOT EXISTS item_by_date ON item (coalesce(published, added));
CREATE INDEX IF NOT EXISTS item_unread_by_date ON item (coalesce(published, added)) WHERE read = 0;
CREATE INDEX IF NOT EXISTS item_starred_by_date ON item (coalesce(published, added))
    WHERE starred = 1;

-- Every entry a feed has listed, by the paper's identity hash (title, description, publication
-- date), and the item it became. An entry seen once is never fetched again. When retention deletes
-- the item, its entries stay with item = 0 (a tombstone, never a real id: rowids start at 1), so
-- that the entry does not come back as new while its feed still lists it; a tombstone goes when
-- its feed, fetched whole, no longer lists the entry.
CREATE TABLE IF NOT EXISTS feed_entry (
    feed   INTEGER NOT NULL,
    hash   TEXT    NOT NULL,                 -- hex MD5
    item   INTEGER NOT NULL,
    PRIMARY KEY (feed, hash)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS feed_entry_by_item ON feed_entry (item, feed);

-- The page as fetched: raw bytes, compressed (version 3: the byte 0x04, the length in 4 bytes little
-- endian, an LZ4 block; before: a zlib stream, still read), so that it can be parsed and classified
-- again at reading time with what the site's tree knows then.
CREATE TABLE IF NOT EXISTS page (
    item             INTEGER PRIMARY KEY,
    url              TEXT    NOT NULL,       -- the response URL
    declared_charset TEXT,                   -- from the Content-Type header
    fetched          INTEGER NOT NULL,       -- unix seconds
    raw_len          INTEGER NOT NULL,       -- bytes before compression
    raw              BLOB    NOT NULL
);
-- The retention policy's walk over pages that may have left the URL Tree's window (since 5).
CREATE INDEX IF NOT EXISTS page_by_fetched ON page (fetched);

-- The page's blocks with the labels they got when the page arrived, and why (the inspector view):
-- one blob per item, the article's record (src/classify/labelled.rs): the byte 0x03, then a string
-- table and the blocks (position, kind, text, image, content, reason, word counts, links of content
-- blocks, pith-page's label), uncompressed; enough to read the article once the raw page is gone.
-- When retention drops the raw page, the record is compressed in place (the byte 0x05, then a
-- zlib stream: src/store/codecs.rs), since it is then the article's only copy and read rarely.
-- Records of form 0x02 (without the reading fields) and rows written before version 3 (a
-- zlib-compressed JSON array) still read.
-- One row rather than a row per block: a page has hundreds of blocks, and a refresh writes
-- thousands of pages through SQLite's single writer.
CREATE TABLE IF NOT EXISTS item_blocks (
    item   INTEGER PRIMARY KEY,
    blocks BLOB    NOT NULL
);

-- Images kept as content, downloaded once by URL; data is NULL when the download failed (error).
CREATE TABLE IF NOT EXISTS image (
    url          TEXT    PRIMARY KEY,
    content_type TEXT,
    data         BLOB,
    error        TEXT,
    fetched      INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS item_image (
    item INTEGER NOT NULL,
    url  TEXT    NOT NULL,
    PRIMARY KEY (item, url)
) WITHOUT ROWID;
-- Whether another item still shows an image, when an item is deleted (since version 5).
CREATE INDEX IF NOT EXISTS item_image_by_url ON item_image (url);

-- Full-text search over titles and clean article text (or the feed summary when the page could
-- not be fetched); rowid = item.id. Contentless (since version 5): the index keeps no copy of
-- the text, which the item's title and record already hold (the copy was 6-8 KB an article, a
-- third of what a kept article cost); a hit's title comes from `item`, its snippet from the
-- record (`pith search`). contentless_delete lets retention delete rows by rowid. detail=column:
-- the index keeps in which column a word is, not where (search asks for words, never phrases,
-- and a snippet is cut from the text), half the index's size. Runs of scripts written without
-- spaces (Chinese, Thai…) are written in as their overlapping pairs of letters (`search.rs`,
-- `index_form`), which unicode61 alone would keep as one word a sentence.
CREATE VIRTUAL TABLE IF NOT EXISTS item_fts USING fts5 (
    title, body, content = '', contentless_delete = 1, detail = column,
    tokenize = 'unicode61 remove_diacritics 2'
);

-- A user's pins (since version 2): a block of a site pinned "always content" (verdict 1) or "always
-- boilerplate" (verdict 0) from the inspector or `pith pin`. Keyed like the tree's counters, by the
-- registrable domain and the block's hash, so the pin holds on every page of the site where the
-- same block appears; the classifier applies pins after every other rule.
CREATE TABLE IF NOT EXISTS pin (
    id      INTEGER PRIMARY KEY,
    domain  TEXT    NOT NULL,
    hash    INTEGER NOT NULL,
    verdict INTEGER NOT NULL,
    text    TEXT    NOT NULL,                -- the block's text (or image address) when pinned
    created INTEGER NOT NULL,                -- unix seconds
    UNIQUE (domain, hash)
);
