-- pith's database schema, version 1 (kept in PRAGMA user_version).
-- The whole current schema: a fresh database runs this file; older databases are upgraded in place
-- by the migrations in src/store.rs. All SQL of the program lives in src/store.rs and here.

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
-- The hash is the first 8 bytes of the block's MD5, big-endian, as a signed 64-bit integer. Rows at
-- count 0 are deleted.
CREATE TABLE IF NOT EXISTS tree_counter (
    node  INTEGER NOT NULL,
    hash  INTEGER NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (node, hash)
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
