//! The URL Tree's SQL (schema in `schema.sql`): documents, nodes and counters. This file inserts
//! documents and reads the tree's outline; `count` keeps the counters as documents come,
//! `remove` takes documents out exactly (and applies the history window, in steps apart from the
//! inserts), `branch` reads a
//! document's branch back for classification, and `check` recounts everything from the documents.

mod branch;
mod check;
mod count;
mod remove;
#[cfg(test)]
mod tests;

use std::rc::Rc;

use rusqlite::types::Value;
use rusqlite::vtab::array::Array;
use rusqlite::{Connection, OptionalExtension, params};

use super::{Store, StoreError, hash_to_sql, pack_hashes, unpack_hashes};
use crate::page::BlockHash;
use crate::urltree::{Branch, HistoryWindow, NodeStats};

pub use branch::{CountsAt, MemoryRead};
pub(crate) use check::rebuild_counters;
use count::{count_doc, find_singles, materialize};
use remove::{domain_window_step, remove_doc, window_step};

/// The identity of a document in the URL Tree.
pub type DocId = i64;

/// The outcome of offering a document to the URL Tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TreeInsert {
    /// A new document: its hashes were counted along its branch.
    Inserted(DocId),
    /// A document with the same URL key already exists in this domain; nothing was counted
    /// (counting it twice would make its content look like boilerplate).
    Duplicate(DocId),
}

impl TreeInsert {
    /// The document's id, new or existing.
    pub fn doc(self) -> DocId {
        match self {
            TreeInsert::Inserted(id) | TreeInsert::Duplicate(id) => id,
        }
    }
}

/// A document offered to the URL Tree.
#[derive(Debug, Clone, Copy)]
pub struct TreeDocument<'a> {
    /// The URL key's branch, registrable domain first (see [`crate::urlkey::UrlKey::branch`]).
    pub branch: &'a [String],
    /// The URL key: a second document with the same key in the domain is not counted again.
    pub url_key: &'a str,
    /// Its block hashes (made unique before counting).
    pub hashes: &'a [BlockHash],
    /// What it leaves in its site's memory (made by `classify::site::PageMemory::encode`): each
    /// key is counted at every node of its branch, like a block hash.
    pub memory: Option<&'a MemoryRecord>,
    /// Its time in the stream, unix seconds (the history window's clock).
    pub added: i64,
}

/// One node of a site's tree, for display and checks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeNodeInfo {
    /// Row id of the node.
    pub id: i64,
    /// Parent node id, 0 for a domain node.
    pub parent: i64,
    /// The URL-key segment.
    pub segment: String,
    /// `n_s`.
    pub support: u32,
}

/// What a document leaves in its site's memory, as the store keeps it (`tree_doc.container`):
/// keys, one per line, each counted at every node of the document's branch (`site_container`)
/// and uncounted exactly when the document leaves. What a key means (a container's DOM signature,
/// a prose slot) is the engine's business (`classify::site::PageMemory`): the store keeps the text
/// and the counts. An empty line counts nothing; it keeps a key's place for a page that has none.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MemoryRecord(String);

impl MemoryRecord {
    /// The record of `keys`, in order. A key is kept as given: one holding a line break would be
    /// counted as two keys, so the engine makes none.
    pub fn from_keys<'a>(keys: impl IntoIterator<Item = &'a str>) -> MemoryRecord {
        let mut text = String::new();
        for (i, key) in keys.into_iter().enumerate() {
            if i > 0 {
                text.push('\n');
            }
            text.push_str(key);
        }
        MemoryRecord(text)
    }

    /// A record as the database holds it.
    pub(crate) fn from_stored(text: Option<String>) -> MemoryRecord {
        MemoryRecord(text.unwrap_or_default())
    }

    /// Every entry in order, the empty ones (places kept) included.
    pub fn entries(&self) -> impl Iterator<Item = &str> {
        self.0.split('\n')
    }

    /// The keys counted: the entries that are not empty.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.entries().filter(|k| !k.is_empty())
    }

    /// The text stored.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Store {
    /// Inserts a document into its domain's tree, counting its unique hashes and its memory's
    /// keys at every node of its branch. A document whose URL key is already in the domain is
    /// not counted again. The history window is not applied here: the documents that leave it
    /// go in the sweep that ends a refresh ([`Store::retention_sweep`]), or in
    /// [`Store::tree_apply_window`] / [`Store::tree_apply_window_in`], so that an insert's cost
    /// stays its own page's whatever the tree's age.
    pub fn tree_insert(&mut self, doc: &TreeDocument<'_>) -> Result<TreeInsert, StoreError> {
        let TreeDocument {
            branch,
            url_key,
            hashes,
            memory,
            added,
        } = *doc;
        if branch.is_empty() {
            return Err(StoreError::Corrupt(
                "a URL-key branch must name at least the domain".into(),
            ));
        }
        let mut unique = hashes.to_vec();
        unique.sort_unstable();
        unique.dedup();
        self.write(|tx| {
            let domain = node_id(tx, 0, &branch[0])?;
            if let Some(domain) = domain
                && let Some(existing) = tx
                    .prepare_cached("SELECT id FROM tree_doc WHERE domain = ?1 AND url_key = ?2")?
                    .query_row(params![domain, url_key], |r| r.get::<_, i64>(0))
                    .optional()?
            {
                return Ok(TreeInsert::Duplicate(existing));
            }
            let mut parent = 0;
            let mut nodes: Vec<BranchNode> = Vec::with_capacity(branch.len());
            let mut get_node = tx.prepare_cached(
                "SELECT id, support, own FROM tree_node WHERE parent = ?1 AND segment = ?2",
            )?;
            for segment in branch {
                let found = get_node
                    .query_row(params![parent, segment], |r| {
                        Ok(BranchNode {
                            id: r.get(0)?,
                            support: r.get(1)?,
                            own: r.get(2)?,
                        })
                    })
                    .optional()?;
                let node = match found {
                    Some(node) => node,
                    None => {
                        tx.prepare_cached(
                            "INSERT INTO tree_node (parent, segment, support, own) VALUES (?1, ?2, 0, 0)",
                        )?
                        .execute(params![parent, segment])?;
                        BranchNode {
                            id: tx.last_insert_rowid(),
                            support: 0,
                            own: false,
                        }
                    }
                };
                parent = node.id;
                nodes.push(node);
            }
            let last = nodes.len() - 1;
            // After this document a node needs rows of its own unless it has one document, or
            // all its documents (this one included) sit under its child on this branch. No other
            // child can equal its new support, as this document is not under them.
            let own: Vec<bool> = (0..nodes.len())
                .map(|i| {
                    nodes[i].support >= 1 && (i == last || nodes[i + 1].support != nodes[i].support)
                })
                .collect();
            // Counters implied until now (by a child, or by a single document) are written out
            // first, all of them before any node counts this document, as they copy from below.
            for (node, &own) in nodes.iter().zip(&own) {
                if own && !node.own {
                    materialize(tx, nodes[0].id, node.id, node.support)?;
                }
            }
            // The document's row first: its id names the hashes it brings to the domain first.
            tx.prepare_cached(
                "INSERT INTO tree_doc (domain, leaf, url_key, added, hashes, container)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?
            .execute(params![
                nodes[0].id,
                nodes[last].id,
                url_key,
                added,
                pack_hashes(&unique),
                memory.map(MemoryRecord::as_str)
            ])?;
            let doc = tx.last_insert_rowid();
            let mut unique_sql: Vec<i64> = unique.iter().map(hash_to_sql).collect();
            unique_sql.sort_unstable();
            count_doc(tx, doc, &nodes, &own, &unique_sql)?;
            // The branch's supports, which nodes keep rows, and the memory's keys at every node:
            // three statements for the whole branch (a statement per node and key was a
            // few dozen per page).
            let ids = |keep: bool| {
                let ids: Vec<i64> = nodes
                    .iter()
                    .zip(&own)
                    .filter(|(_, o)| **o == keep)
                    .map(|(n, _)| n.id)
                    .collect();
                ints(&ids)
            };
            let mut bump_nodes = tx.prepare_cached(
                "UPDATE tree_node SET support = support + 1, own = ?2
                 WHERE id IN (SELECT value FROM rarray(?1))",
            )?;
            bump_nodes.execute(params![ids(true), true])?;
            bump_nodes.execute(params![ids(false), false])?;
            let signatures: Array = Rc::new(
                memory
                    .into_iter()
                    .flat_map(MemoryRecord::keys)
                    .map(|s| Value::Text(s.to_string()))
                    .collect(),
            );
            if !signatures.is_empty() {
                let all = ints(&nodes.iter().map(|n| n.id).collect::<Vec<_>>());
                tx.prepare_cached(
                    "INSERT INTO site_container (node, signature, count)
                     SELECT n.value, s.value, 1 FROM rarray(?1) AS n CROSS JOIN rarray(?2) AS s
                     WHERE true ON CONFLICT (node, signature) DO UPDATE SET count = count + 1",
                )?
                .execute(params![all, signatures])?;
            }
            Ok(TreeInsert::Inserted(doc))
        })
    }

    /// Takes out of one domain's tree (`domain`: the branch's first segment) the documents that
    /// have left its history window at `now`, as [`Store::tree_apply_window`] does for every
    /// domain; returns how many went. `pith eval` calls it after each page's insert, before the
    /// page is classified, at the page's time: the stream's tree is then the one an insert that
    /// applied the window itself would leave.
    pub fn tree_apply_window_in(
        &mut self,
        domain: &str,
        window: &HistoryWindow,
        now: i64,
    ) -> Result<usize, StoreError> {
        let Some(id) = node_id(&self.conn, 0, domain)? else {
            return Ok(0);
        };
        let mut removed = 0;
        loop {
            let (went, done) = self.write(|tx| {
                domain_window_step(tx, id, window, now, crate::limits::RETENTION_STEP_ROWS)
            })?;
            removed += went;
            if done {
                return Ok(removed);
            }
        }
    }

    /// Takes out of every domain's tree the documents that have left its history window at `now`
    /// (unix seconds): beyond the domain's `max_docs` newest, or older than `max_age_secs` and
    /// not among its `keep_newest` newest. Each step of at most `limits::RETENTION_STEP_ROWS`
    /// documents is its own transaction. Returns how many went. A refresh does this in its
    /// bounded sweep ([`Store::retention_sweep`]); this whole pass is for benchmarks and tests.
    pub fn tree_apply_window(
        &mut self,
        window: &HistoryWindow,
        now: i64,
    ) -> Result<usize, StoreError> {
        Ok(self.tree_window_pass(window, now, || true)?.0)
    }

    /// The history window's pass over every domain, a step of at most
    /// `limits::RETENTION_STEP_ROWS` documents per transaction, starting a step only while
    /// `go_on` says so. Returns how many documents went and whether the pass finished.
    pub(in crate::store) fn tree_window_pass(
        &mut self,
        window: &HistoryWindow,
        now: i64,
        go_on: impl Fn() -> bool,
    ) -> Result<(usize, bool), StoreError> {
        let mut removed = 0;
        let mut from = Some(0);
        while let Some(at) = from {
            if !go_on() {
                return Ok((removed, false));
            }
            let (went, next) = self
                .write(|tx| window_step(tx, window, now, at, crate::limits::RETENTION_STEP_ROWS))?;
            removed += went;
            from = next;
        }
        Ok((removed, true))
    }

    /// deleting nodes no document is under any more. Returns false when no such document exists.
    pub fn tree_remove(&mut self, doc: DocId) -> Result<bool, StoreError> {
        self.write(|tx| remove_doc(tx, doc))
    }

    /// The existing document with this URL key in this domain, if any.
    pub fn tree_find(&self, domain: &str, url_key: &str) -> Result<Option<DocId>, StoreError> {
        let Some(domain) = node_id(&self.conn, 0, domain)? else {
            return Ok(None);
        };
        Ok(self
            .conn
            .prepare_cached("SELECT id FROM tree_doc WHERE domain = ?1 AND url_key = ?2")?
            .query_row(params![domain, url_key], |r| r.get(0))
            .optional()?)
    }

    /// What a document left in its site's memory when it was inserted (empty when nothing, `None`
    /// when the document is not in the tree).
    pub fn tree_doc_memory(&self, doc: DocId) -> Result<Option<MemoryRecord>, StoreError> {
        Ok(self
            .conn
            .prepare_cached("SELECT container FROM tree_doc WHERE id = ?1")?
            .query_row([doc], |r| r.get::<_, Option<String>>(0))
            .optional()?
            .map(MemoryRecord::from_stored))
    }

    /// Every node of a domain's tree (the domain node first, then breadth first), for display.
    pub fn tree_nodes(&self, domain: &str) -> Result<Vec<TreeNodeInfo>, StoreError> {
        let Some(root) = node_id(&self.conn, 0, domain)? else {
            return Ok(Vec::new());
        };
        let mut get = self
            .conn
            .prepare_cached("SELECT id, parent, segment, support FROM tree_node WHERE id = ?1")?;
        let mut children = self.conn.prepare_cached(
            "SELECT id, parent, segment, support FROM tree_node WHERE parent = ?1 ORDER BY segment",
        )?;
        let row = |r: &rusqlite::Row<'_>| {
            Ok(TreeNodeInfo {
                id: r.get(0)?,
                parent: r.get(1)?,
                segment: r.get(2)?,
                support: r.get(3)?,
            })
        };
        let mut out = vec![get.query_row([root], row)?];
        let mut next = 0;
        while next < out.len() {
            let id = out[next].id;
            for child in children.query_map([id], row)? {
                out.push(child?);
            }
            next += 1;
        }
        Ok(out)
    }

    /// Number of documents in the tree of one domain (0 if unknown).
    pub fn tree_doc_count(&self, domain: &str) -> Result<u32, StoreError> {
        Ok(match node_id(&self.conn, 0, domain)? {
            Some(id) => self
                .conn
                .prepare_cached("SELECT count(*) FROM tree_doc WHERE domain = ?1")?
                .query_row([id], |r| r.get(0))?,
            None => 0,
        })
    }

    /// Bytes used by the URL Tree's tables and indexes, and by the whole file (for size reports).
    pub fn tree_bytes(&self) -> Result<(u64, u64), StoreError> {
        let page_size: i64 = self
            .conn
            .pragma_query_value(None, "page_size", |r| r.get(0))?;
        let page_count: i64 = self
            .conn
            .pragma_query_value(None, "page_count", |r| r.get(0))?;
        let tree: Option<i64> = self
            .conn
            .query_row(
                "SELECT sum(pgsize) FROM dbstat WHERE name LIKE 'tree_%' OR name LIKE 'sqlite_autoindex_tree_%'",
                [],
                |r| r.get(0),
            )
            .optional()?
            .flatten();
        let bytes = |v: i64| u64::try_from(v).unwrap_or(0);
        Ok((bytes(tree.unwrap_or(0)), bytes(page_size * page_count)))
    }
}

fn node_id(conn: &Connection, parent: i64, segment: &str) -> Result<Option<i64>, StoreError> {
    Ok(conn
        .prepare_cached("SELECT id FROM tree_node WHERE parent = ?1 AND segment = ?2")?
        .query_row(params![parent, segment], |r| r.get(0))
        .optional()?)
}

/// SQL integers (hashes, node ids) as an array bound to `rarray(?)`, so that one statement handles
/// a document's whole hash set at a node (it replaced JSON text and `json_each`, whose formatting
/// and parsing were a sixth of an insert).
fn ints(ints: &[i64]) -> Array {
    Rc::new(ints.iter().map(|&i| Value::Integer(i)).collect())
}

/// The hashes of `all` that are also in `other` (any order; sorted here).
fn both(all: &[i64], mut other: Vec<i64>) -> Vec<i64> {
    other.sort_unstable();
    all.iter()
        .filter(|h| other.binary_search(h).is_ok())
        .copied()
        .collect()
}

/// The hashes of `all` that are not in `found` (any order; sorted here).
fn minus(all: &[i64], mut found: Vec<i64>) -> Vec<i64> {
    found.sort_unstable();
    all.iter()
        .filter(|h| found.binary_search(h).is_err())
        .copied()
        .collect()
}

/// Where a node's full rows are kept in `tree_counter`: hashes present in every document under
/// the node, stored with count 0 under `node + FULL_BASE` and read as the node's support. Every
/// page of a site carries its template, so these rows never change while pages come, and an
/// insert reads them in one range scan instead of updating each.
const FULL_BASE: i64 = 1 << 40;

/// The key of a node's full rows (see [`FULL_BASE`]).
fn full_key(node: i64) -> Result<i64, StoreError> {
    if !(1..FULL_BASE).contains(&node) {
        return Err(StoreError::Corrupt(format!(
            "tree node id {node} is outside the range the counters' keys allow"
        )));
    }
    Ok(node + FULL_BASE)
}

/// A node of a document's branch as stored.
#[derive(Debug, Clone, Copy)]
struct BranchNode {
    id: i64,
    /// `n_s`.
    support: i64,
    /// Whether it keeps counter rows of its own (see `schema.sql`).
    own: bool,
}

/// A node of a branch read from the leaf up, with its segment.
struct ChainLink {
    node: BranchNode,
    segment: String,
}

/// The branch above (and including) `leaf`, leaf first.
fn read_chain(conn: &Connection, leaf: i64) -> Result<Vec<ChainLink>, StoreError> {
    let mut get =
        conn.prepare_cached("SELECT parent, segment, support, own FROM tree_node WHERE id = ?1")?;
    let mut chain = Vec::new();
    let mut id = leaf;
    while id != 0 {
        let (parent, segment, support, own): (i64, String, i64, bool) = get
            .query_row([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
            .optional()?
            .ok_or_else(|| {
                StoreError::Corrupt(format!("a document's branch reaches missing node {id}"))
            })?;
        chain.push(ChainLink {
            node: BranchNode { id, support, own },
            segment,
        });
        if chain.len() > 10_000 {
            return Err(StoreError::Corrupt(format!(
                "the URL Tree has a parent cycle at node {id}"
            )));
        }
        id = parent;
    }
    Ok(chain)
}

/// The branch of a document that a single names, leaf first.
fn doc_chain(conn: &Connection, doc: i64) -> Result<Vec<ChainLink>, StoreError> {
    let leaf: i64 = conn
        .prepare_cached("SELECT leaf FROM tree_doc WHERE id = ?1")?
        .query_row([doc], |r| r.get(0))
        .optional()?
        .ok_or_else(|| {
            StoreError::Corrupt(format!(
                "a single hash names document {doc}, which is not in the tree"
            ))
        })?;
    read_chain(conn, leaf)
}
