//! The URL Tree's SQL: documents, nodes and counters (schema in `schema.sql`), insertion, exact
//! removal, the history window, and reading a branch back for classification.

use std::collections::{BTreeMap, HashMap, HashSet};

use std::rc::Rc;

use rusqlite::types::Value;
use rusqlite::vtab::array::Array;
use rusqlite::{Connection, OptionalExtension, params};

use super::{
    DocId, Store, StoreError, TreeDocument, TreeInsert, TreeNodeInfo, hash_to_sql, pack_hashes,
    unpack_hashes,
};
use crate::page::BlockHash;
use crate::urltree::{Branch, HistoryWindow, NodeStats, SLOT_PREFIX};

/// Which nodes of a branch get their counts read.
#[derive(Debug, Clone, Copy)]
enum Counted {
    /// Every node.
    All,
    /// The deepest node with more documents than this.
    DeepestAbove(u32),
}

/// The site signatures a document stored (its `container` column): newline-separated, the main
/// container's first (absent when the page had none), then its prose slots (`slot:` prefix).
fn site_signatures(stored: Option<&str>) -> impl Iterator<Item = &str> {
    stored
        .unwrap_or_default()
        .split('\n')
        .filter(|s| !s.is_empty())
}

impl Store {
    /// Inserts a document into its domain's tree, counting its unique hashes and its container
    /// signature at every node of its branch. A document whose URL key is already in the domain is
    /// not counted again. Then the domain's history window is applied, in the same transaction.
    pub fn tree_insert(
        &mut self,
        doc: &TreeDocument<'_>,
        window: &HistoryWindow,
    ) -> Result<TreeInsert, StoreError> {
        let TreeDocument {
            branch,
            url_key,
            hashes,
            container,
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
                container
            ])?;
            let doc = tx.last_insert_rowid();
            let mut unique_sql: Vec<i64> = unique.iter().map(hash_to_sql).collect();
            unique_sql.sort_unstable();
            count_doc(tx, doc, &nodes, &own, &unique_sql)?;
            // The branch's supports, which nodes keep rows, and the site signatures at every node:
            // three statements for the whole branch (a statement per node and signature was a
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
                site_signatures(container)
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
            // The domain node's support is the number of documents in the domain.
            let in_domain = nodes[0].support + 1;
            apply_window(tx, nodes[0].id, in_domain, added, window)?;
            Ok(TreeInsert::Inserted(doc))
        })
    }

    /// Removes a document from its tree, decrementing exactly what its insertion incremented and
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

    /// The statistics of a document's branch, domain first, with the counts of `hashes` (the
    /// blocks to classify) at every node. Empty when the document is not in the tree.
    pub fn tree_branch(&self, doc: DocId, hashes: &[BlockHash]) -> Result<Branch, StoreError> {
        self.branch_counted(doc, hashes, Counted::All)
    }

    /// As [`Store::tree_branch`], with the counts read at one node only: the deepest node of the
    /// branch with more than `min_support` documents (the node that speaks for the site in the
    /// site-aware rule). The other nodes come with their supports and no counts, and only those
    /// with more than `min_support` documents with their containers and slots; reading counts at
    /// every node was most of the rule's cost.
    pub fn tree_branch_counted_at(
        &self,
        doc: DocId,
        hashes: &[BlockHash],
        min_support: u32,
    ) -> Result<Branch, StoreError> {
        self.branch_counted(doc, hashes, Counted::DeepestAbove(min_support))
    }

    fn branch_counted(
        &self,
        doc: DocId,
        hashes: &[BlockHash],
        counted: Counted,
    ) -> Result<Branch, StoreError> {
        let row: Option<(i64, Vec<u8>, Option<String>)> = self
            .conn
            .prepare_cached("SELECT leaf, hashes, container FROM tree_doc WHERE id = ?1")?
            .query_row([doc], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .optional()?;
        let Some((leaf, blob, signatures)) = row else {
            return Ok(Branch::default());
        };
        let slots: Vec<&str> = site_signatures(signatures.as_deref())
            .filter(|s| s.starts_with(SLOT_PREFIX))
            .collect();
        let mut chain = read_chain(&self.conn, leaf)?;
        let own_set = unpack_hashes(&blob)?;
        let mut unique = hashes.to_vec();
        unique.sort_unstable();
        unique.dedup();
        let unique_array = ints(&unique.iter().map(hash_to_sql).collect::<Vec<_>>());
        // Driven by the list of hashes (see `count_doc`).
        let mut get_counts = self.conn.prepare_cached(
            "SELECT t.hash, t.count FROM rarray(?2) AS j CROSS JOIN tree_counter AS t
             WHERE t.node = ?1 AND t.hash = j.value",
        )?;
        // Hashes asked about that this document lacks (another page's blocks) count once at a
        // node when they are a single of the domain whose document is under it: that document
        // by hash, and the node ids of its branch by document.
        let mut elsewhere_single: HashMap<BlockHash, i64> = HashMap::new();
        let mut doc_nodes: HashMap<i64, HashSet<i64>> = HashMap::new();
        let elsewhere: Vec<i64> = unique
            .iter()
            .filter(|h| own_set.binary_search(h).is_err())
            .map(hash_to_sql)
            .collect();
        if let (Some(domain), false) = (chain.last().map(|l| l.node.id), elsewhere.is_empty()) {
            for (hash, other) in find_singles(&self.conn, domain, &elsewhere)? {
                if let std::collections::hash_map::Entry::Vacant(slot) = doc_nodes.entry(other) {
                    slot.insert(
                        doc_chain(&self.conn, other)?
                            .iter()
                            .map(|l| l.node.id)
                            .collect(),
                    );
                }
                elsewhere_single.insert(BlockHash(hash.to_be_bytes()), other);
            }
        }
        // The counts of a node that keeps rows of its own.
        let mut get_full = self
            .conn
            .prepare_cached("SELECT hash FROM tree_counter WHERE node = ?1")?;
        let mut own_counts = |node: &BranchNode| -> Result<HashMap<BlockHash, u32>, StoreError> {
            let node_id = node.id;
            let mut counts = HashMap::with_capacity(unique.len());
            // Full rows count as the node's support (see `count_doc`).
            let support = u32::try_from(node.support).unwrap_or(0);
            let mut full = get_full.query([full_key(node_id)?])?;
            while let Some(row) = full.next()? {
                let hash = BlockHash(row.get::<_, i64>(0)?.to_be_bytes());
                if unique.binary_search(&hash).is_ok() {
                    counts.insert(hash, support);
                }
            }
            let mut rows = get_counts.query(params![node_id, &unique_array])?;
            while let Some(row) = rows.next()? {
                let hash: i64 = row.get(0)?;
                counts.insert(BlockHash(hash.to_be_bytes()), row.get::<_, u32>(1)?);
            }
            // Without a row, a hash of this document (which is under the node) is a single of
            // the domain: counted once.
            for hash in &unique {
                if counts.contains_key(hash) {
                    continue;
                }
                let single_here = elsewhere_single
                    .get(hash)
                    .and_then(|other| doc_nodes.get(other))
                    .is_some_and(|ids| ids.contains(&node_id));
                if own_set.binary_search(hash).is_ok() || single_here {
                    counts.insert(*hash, 1);
                }
            }
            Ok(counts)
        };
        let implied_error = |node: &BranchNode| {
            StoreError::Corrupt(format!(
                "node {} has {} documents but neither rows nor a child holding them all",
                node.id, node.support
            ))
        };
        let this_doc = || -> HashMap<BlockHash, u32> {
            unique
                .iter()
                .filter(|h| own_set.binary_search(h).is_ok())
                .map(|h| (*h, 1))
                .collect()
        };
        // Counters from the leaf up: a node without rows of its own has its child's counters on
        // this branch (all its documents are under it), or, with one document, this document's.
        let mut counts_up: Vec<HashMap<BlockHash, u32>> = Vec::with_capacity(chain.len());
        match counted {
            _ if unique.is_empty() => {
                // Asked for the branch's outline only (supports, containers, slots).
                counts_up.resize_with(chain.len(), HashMap::new);
            }
            Counted::All => {
                for (i, link) in chain.iter().enumerate() {
                    let node = link.node;
                    let counts = if node.own {
                        own_counts(&node)?
                    } else if i > 0 && chain[i - 1].node.support == node.support {
                        counts_up[i - 1].clone()
                    } else if node.support == 1 && i == 0 {
                        this_doc()
                    } else {
                        return Err(implied_error(&node));
                    };
                    counts_up.push(counts);
                }
            }
            Counted::DeepestAbove(min_support) => {
                counts_up.resize_with(chain.len(), HashMap::new);
                if let Some(wanted) = chain
                    .iter()
                    .position(|l| u32::try_from(l.node.support).unwrap_or(u32::MAX) > min_support)
                {
                    // Down from the wanted node to the one whose rows (or single document)
                    // its counts are.
                    let mut i = wanted;
                    let counts = loop {
                        let node = chain[i].node;
                        if node.own {
                            break own_counts(&node)?;
                        } else if i > 0 && chain[i - 1].node.support == node.support {
                            i -= 1;
                        } else if node.support == 1 && i == 0 {
                            break this_doc();
                        } else {
                            return Err(implied_error(&node));
                        }
                    };
                    counts_up[wanted] = counts;
                }
            }
        }
        chain.reverse();
        counts_up.reverse();
        let mut get_containers = self.conn.prepare_cached(
            "SELECT signature, count FROM site_container
             WHERE node = ?1 AND signature NOT LIKE 'slot:%'
             ORDER BY count DESC, signature LIMIT 8",
        )?;
        let mut get_slot = self.conn.prepare_cached(
            "SELECT count FROM site_container WHERE node = ?1 AND signature = ?2",
        )?;
        let mut path = String::new();
        let mut nodes = Vec::with_capacity(chain.len());
        for (link, counts) in chain.into_iter().zip(counts_up) {
            if !path.is_empty() {
                path.push('/');
            }
            path.push_str(&link.segment);
            let support = u32::try_from(link.node.support).unwrap_or(u32::MAX);
            // The site-aware rule reads containers and slots only at nodes above its minimum
            // support: the others are left empty (most nodes of young sites, so most queries).
            let described = match counted {
                Counted::All => true,
                Counted::DeepestAbove(min_support) => support > min_support,
            };
            let containers = if described {
                get_containers
                    .query_map([link.node.id], |r| Ok((r.get(0)?, r.get(1)?)))?
                    .collect::<Result<Vec<(String, u32)>, _>>()?
            } else {
                Vec::new()
            };
            let mut slot_counts = HashMap::with_capacity(slots.len());
            for &slot in slots.iter().filter(|_| described) {
                if let Some(count) = get_slot
                    .query_row(params![link.node.id, slot], |r| r.get::<_, u32>(0))
                    .optional()?
                {
                    slot_counts.insert(slot.to_string(), count);
                }
            }
            nodes.push(NodeStats {
                path: path.clone(),
                support,
                counts,
                containers,
                slots: slot_counts,
            });
        }
        Ok(Branch { nodes })
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

    /// Recounts every node's support and counters from the stored documents and lists every
    /// difference from what is stored (empty when the tree is consistent). Used by tests and checks.
    pub fn tree_consistency_errors(&self) -> Result<Vec<String>, StoreError> {
        let mut parents: HashMap<i64, i64> = HashMap::new();
        let mut supports: BTreeMap<i64, u32> = BTreeMap::new();
        let mut owns: HashMap<i64, bool> = HashMap::new();
        {
            let mut stmt = self
                .conn
                .prepare("SELECT id, parent, support, own FROM tree_node")?;
            for row in stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))? {
                let (id, parent, support, own): (i64, i64, u32, bool) = row?;
                parents.insert(id, parent);
                supports.insert(id, support);
                owns.insert(id, own);
            }
        }
        let mut want_support: BTreeMap<i64, u32> = BTreeMap::new();
        let mut want_counts: BTreeMap<(i64, i64), u32> = BTreeMap::new();
        let mut want_containers: BTreeMap<(i64, String), u32> = BTreeMap::new();
        let mut stmt = self
            .conn
            .prepare("SELECT id, domain, leaf, hashes, container FROM tree_doc")?;
        // Per domain and hash, the documents that have it; per document, its branch's nodes.
        let mut docs_with: HashMap<(i64, i64), Vec<i64>> = HashMap::new();
        let mut doc_nodes: HashMap<i64, HashSet<i64>> = HashMap::new();
        for row in stmt.query_map([], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, Vec<u8>>(3)?,
                r.get::<_, Option<String>>(4)?,
            ))
        })? {
            let (doc, domain, leaf, blob, container) = row?;
            let hashes = unpack_hashes(&blob)?;
            for h in &hashes {
                docs_with
                    .entry((domain, hash_to_sql(h)))
                    .or_default()
                    .push(doc);
            }
            let on_branch = doc_nodes.entry(doc).or_default();
            let mut node = leaf;
            let mut steps = 0;
            while node != 0 {
                on_branch.insert(node);
                *want_support.entry(node).or_default() += 1;
                for h in &hashes {
                    *want_counts.entry((node, hash_to_sql(h))).or_default() += 1;
                }
                for signature in site_signatures(container.as_deref()) {
                    *want_containers
                        .entry((node, signature.to_string()))
                        .or_default() += 1;
                }
                node = *parents.get(&node).ok_or_else(|| {
                    StoreError::Corrupt(format!("document leaf chain reaches missing node {node}"))
                })?;
                steps += 1;
                if steps > 10_000 {
                    return Err(StoreError::Corrupt("parent cycle".into()));
                }
            }
        }
        let mut errors = Vec::new();
        for (id, support) in &supports {
            let want = want_support.get(id).copied().unwrap_or(0);
            if want != *support {
                errors.push(format!(
                    "node {id}: support {support}, documents say {want}"
                ));
            }
        }
        // Which nodes must keep rows of their own: two documents or more, and no child with as
        // many (schema.sql). The recount keeps only their counters.
        let mut child_has_equal: HashSet<i64> = HashSet::new();
        for (id, parent) in &parents {
            let support = want_support.get(id).copied().unwrap_or(0);
            if support > 0 && want_support.get(parent).copied() == Some(support) {
                child_has_equal.insert(*parent);
            }
        }
        for (id, own) in &owns {
            let want =
                want_support.get(id).copied().unwrap_or(0) >= 2 && !child_has_equal.contains(id);
            if want != *own {
                errors.push(format!(
                    "node {id}: own rows {own}, its documents say {want}"
                ));
            }
        }
        want_counts.retain(|(node, _), _| {
            want_support.get(node).copied().unwrap_or(0) >= 2 && !child_has_equal.contains(node)
        });
        // Stored counts: rows as they are, full rows as the node's support (see `count_doc`).
        let mut stored: BTreeMap<(i64, i64), u32> = BTreeMap::new();
        let mut stmt = self
            .conn
            .prepare("SELECT node, hash, count FROM tree_counter")?;
        for row in stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))? {
            let (node, hash, count): (i64, i64, u32) = row?;
            if node < 1 {
                errors.push(format!("a counter row under node key {node}"));
                continue;
            }
            let (node, count) = if node >= FULL_BASE {
                let node = node - FULL_BASE;
                (node, supports.get(&node).copied().unwrap_or(0))
            } else {
                (node, count)
            };
            if stored.insert((node, hash), count).is_some() {
                errors.push(format!(
                    "node {node}: hash {hash} both in its rows and in its full rows"
                ));
            }
        }
        // The domain of every node, for the singles.
        let domain_of = |mut node: i64| -> i64 {
            for _ in 0..10_000 {
                match parents.get(&node) {
                    Some(&0) | None => return node,
                    Some(&parent) => node = parent,
                }
            }
            node
        };
        let mut singles: HashMap<(i64, i64), i64> = HashMap::new();
        let mut stmt = self
            .conn
            .prepare("SELECT domain, hash, doc FROM tree_single")?;
        for row in stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))? {
            let (domain, hash, doc): (i64, i64, i64) = row?;
            // A single is in exactly one document of its domain: that one.
            if docs_with.get(&(domain, hash)).map(Vec::as_slice) != Some(&[doc]) {
                errors.push(format!(
                    "domain {domain}: hash {hash} is a single of document {doc}, but the documents \
                     that have it are {:?}",
                    docs_with.get(&(domain, hash))
                ));
            }
            singles.insert((domain, hash), doc);
        }
        let mut differ = 0;
        let mut examples: Vec<String> = Vec::new();
        let mut note = |text: String| {
            if examples.len() < 3 {
                examples.push(text);
            }
        };
        for (&(node, hash), &want) in &want_counts {
            let single = singles.get(&(domain_of(node), hash));
            match stored.get(&(node, hash)) {
                Some(_) if single.is_some() => {
                    errors.push(format!(
                        "node {node}: hash {hash} has a row and is a single of its domain"
                    ));
                }
                Some(&count) if count != want => {
                    differ += 1;
                    note(format!("node {node} hash {hash}: {count}, recount {want}"));
                }
                Some(_) => {}
                // Counted once without a row: the single's document is under the node.
                None if want == 1
                    && single.is_some_and(|doc| {
                        doc_nodes
                            .get(doc)
                            .is_some_and(|nodes| nodes.contains(&node))
                    }) => {}
                None => {
                    differ += 1;
                    note(format!("node {node} hash {hash}: no count, recount {want}"));
                }
            }
        }
        for (node, hash) in stored.keys().filter(|key| !want_counts.contains_key(key)) {
            differ += 1;
            note(format!(
                "node {node} hash {hash}: a row the recount does not have"
            ));
        }
        if differ > 0 {
            errors.push(format!(
                "{differ} counters differ from a recount ({} rows stored, {} singles, {} expected; {})",
                stored.len(),
                singles.len(),
                want_counts.len(),
                examples.join("; ")
            ));
        }
        let mut stored_containers: BTreeMap<(i64, String), u32> = BTreeMap::new();
        let mut stmt = self
            .conn
            .prepare("SELECT node, signature, count FROM site_container")?;
        for row in stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))? {
            let (node, signature, count): (i64, String, u32) = row?;
            stored_containers.insert((node, signature), count);
        }
        if stored_containers != want_containers {
            errors.push(format!(
                "container counts differ from a recount ({} stored, {} expected)",
                stored_containers.len(),
                want_containers.len()
            ));
        }
        Ok(errors)
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

fn remove_doc(tx: &Connection, doc: DocId) -> Result<bool, StoreError> {
    let row: Option<(i64, i64, Vec<u8>, Option<String>)> = tx
        .prepare_cached("SELECT domain, leaf, hashes, container FROM tree_doc WHERE id = ?1")?
        .query_row([doc], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .optional()?;
    let Some((domain, leaf, blob, container)) = row else {
        return Ok(false);
    };
    let hashes = unpack_hashes(&blob)?;
    // The branch, leaf first, as it is before the removal.
    let chain = read_chain(tx, leaf)?;
    let hashes_sql: Vec<i64> = hashes.iter().map(hash_to_sql).collect();
    // The hashes only this document had leave the domain's singles; the others are counted in
    // rows (or full rows) at every node on the branch that keeps rows.
    let was_single: Vec<i64> = tx
        .prepare_cached(
            "DELETE FROM tree_single WHERE domain = ?1 AND doc = ?2
             AND hash IN (SELECT value FROM rarray(?3)) RETURNING hash",
        )?
        .query_map(params![domain, doc, ints(&hashes_sql)], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    let counted = ints(&minus(&hashes_sql, was_single));
    let mut delete_counters =
        tx.prepare_cached("DELETE FROM tree_counter WHERE node IN (?1, ?1 + ?2)")?;
    let mut other_child_with = tx.prepare_cached(
        "SELECT 1 FROM tree_node WHERE parent = ?1 AND support = ?2 AND id != ?3 LIMIT 1",
    )?;
    let mut set_node =
        tx.prepare_cached("UPDATE tree_node SET support = support - 1, own = ?2 WHERE id = ?1")?;
    let mut delete_node = tx.prepare_cached("DELETE FROM tree_node WHERE id = ?1")?;
    let mut decrement_container = tx.prepare_cached(
        "UPDATE site_container SET count = count - 1 WHERE node = ?1 AND signature = ?2 RETURNING count",
    )?;
    let mut delete_container =
        tx.prepare_cached("DELETE FROM site_container WHERE node = ?1 AND signature = ?2")?;
    for (i, link) in chain.iter().enumerate() {
        let node = &link.node;
        let left = node.support - 1;
        // The child on this branch (none at the leaf) and its support before the removal.
        let child = i.checked_sub(1).map(|c| &chain[c].node);
        let mut own = node.own;
        if node.own {
            // A node stops keeping rows when one document is left, or when all that are left sit
            // under one other child: possible only when this branch's child empties.
            let drop_all = left < 2
                || (child.is_none_or(|c| c.support == 1)
                    && other_child_with
                        .query_row(
                            params![node.id, left, child.map_or(0, |c| c.id)],
                            |_| Ok(()),
                        )
                        .optional()?
                        .is_some());
            if drop_all {
                delete_counters.execute(params![node.id, FULL_BASE])?;
                own = false;
            } else {
                uncount_in(tx, node.id, &counted)?;
            }
        }
        for signature in site_signatures(container.as_deref()) {
            let count: Option<i64> = decrement_container
                .query_row(params![node.id, signature], |r| r.get(0))
                .optional()?;
            if count.is_some_and(|c| c <= 0) {
                delete_container.execute(params![node.id, signature])?;
            }
        }
        if left <= 0 {
            // No document is under this node any more, so it has no children with documents either.
            delete_node.execute([node.id])?;
        } else {
            set_node.execute(params![node.id, own])?;
        }
    }
    tx.prepare_cached("DELETE FROM tree_doc WHERE id = ?1")?
        .execute([doc])?;
    Ok(true)
}

/// Rebuilds every counter of the URL Tree from its documents: supports, which nodes keep rows,
/// their rows and full rows, and the domains' singles. The counters are a function of the stored
/// documents, so this is exact whatever form they were kept in before (it upgrades a version 2
/// file, whose nodes kept singles of their own).
pub(crate) fn rebuild_counters(tx: &Connection) -> Result<(), StoreError> {
    tx.execute_batch("DELETE FROM tree_counter; DELETE FROM tree_single;")?;
    let mut parents: HashMap<i64, i64> = HashMap::new();
    {
        let mut stmt = tx.prepare("SELECT id, parent FROM tree_node")?;
        for row in stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))? {
            let (id, parent): (i64, i64) = row?;
            parents.insert(id, parent);
        }
    }
    let domains: Vec<i64> = tx
        .prepare("SELECT id FROM tree_node WHERE parent = 0")?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    let mut docs_of = tx.prepare("SELECT id, leaf, hashes FROM tree_doc WHERE domain = ?1")?;
    let mut set_node = tx.prepare("UPDATE tree_node SET support = ?2, own = ?3 WHERE id = ?1")?;
    // One domain at a time keeps the recount's memory to one site's.
    for domain in domains {
        let mut support: HashMap<i64, i64> = HashMap::new();
        let mut counts: HashMap<(i64, i64), i64> = HashMap::new();
        let mut docs_with: HashMap<i64, (u32, i64)> = HashMap::new();
        for row in docs_of.query_map([domain], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, Vec<u8>>(2)?,
            ))
        })? {
            let (doc, leaf, blob) = row?;
            let hashes: Vec<i64> = unpack_hashes(&blob)?.iter().map(hash_to_sql).collect();
            for &h in &hashes {
                docs_with.entry(h).or_insert((0, doc)).0 += 1;
            }
            let mut node = leaf;
            for _ in 0..10_000 {
                if node == 0 {
                    break;
                }
                *support.entry(node).or_default() += 1;
                for &h in &hashes {
                    *counts.entry((node, h)).or_default() += 1;
                }
                node = *parents.get(&node).ok_or_else(|| {
                    StoreError::Corrupt(format!("a document's branch reaches missing node {node}"))
                })?;
            }
        }
        // A node keeps rows with two documents or more and no child holding them all.
        let mut child_has_equal: HashSet<i64> = HashSet::new();
        for (&node, &n) in &support {
            let parent = parents.get(&node).copied().unwrap_or(0);
            if parent != 0 && support.get(&parent) == Some(&n) {
                child_has_equal.insert(parent);
            }
        }
        let own = |node: i64| {
            support.get(&node).copied().unwrap_or(0) >= 2 && !child_has_equal.contains(&node)
        };
        for (&node, &n) in &support {
            set_node.execute(params![node, n, own(node)])?;
        }
        let mut by_key: BTreeMap<(i64, i64), Vec<i64>> = BTreeMap::new();
        for (&(node, h), &c) in &counts {
            if !own(node) || docs_with.get(&h).is_some_and(|(n, _)| *n == 1) {
                continue;
            }
            let n = support.get(&node).copied().unwrap_or(0);
            let key = if c == n {
                (full_key(node)?, 0)
            } else {
                (node, c)
            };
            by_key.entry(key).or_default().push(h);
        }
        for ((node, count), hashes) in by_key {
            insert_rows(tx, node, &hashes, count)?;
        }
        let mut by_doc: BTreeMap<i64, Vec<i64>> = BTreeMap::new();
        for (h, (n, doc)) in docs_with {
            if n == 1 {
                by_doc.entry(doc).or_default().push(h);
            }
        }
        for (doc, hashes) in by_doc {
            add_singles(tx, domain, doc, &hashes)?;
        }
    }
    Ok(())
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

/// Counts a new document at the nodes of its branch that keep rows. `doc` is its id, `hashes`
/// its unique hashes (sorted SQL integers), `nodes` its branch from the domain down with the
/// supports from before it, and `own` which of them keep rows after it.
///
/// Where counts live (see `schema.sql`): a node's rows (`tree_counter` under its id) for hashes
/// counted at it; its full rows (under `node + FULL_BASE`) for hashes in every document under it,
/// read as its support; and, once per domain, `tree_single` for hashes in exactly one document of
/// the domain, which every node on that document's branch counts once without a row.
///
/// Most hashes of a growing site are article text seen once. Counted once per domain instead of at
/// every node that keeps rows, a page's new hashes cost one lookup and one insert whatever the
/// depth of its branch: at 10,000 pages of one site, two nodes keep rows (the day and the month),
/// and each counted the article's hashes as its own singles. What the highest node keeping rows
/// has never counted is new or a single there, and the nodes below have nothing to do for it.
fn count_doc(
    tx: &Connection,
    doc: i64,
    nodes: &[BranchNode],
    own: &[bool],
    hashes: &[i64],
) -> Result<(), StoreError> {
    let domain = nodes[0].id;
    let Some(top) = own.iter().position(|&o| o) else {
        // The domain's first document: every hash is new to it.
        add_singles(tx, domain, doc, hashes)?;
        return Ok(());
    };
    // The highest node keeping rows holds every document of the domain (the nodes above have it
    // as their only child with documents).
    let (known, unknown) = count_at(tx, &nodes[top], hashes, hashes, true)?;
    let singles = find_singles(tx, domain, &unknown)?;
    let new = minus(&unknown, singles.iter().map(|s| s.0).collect());
    add_singles(tx, domain, doc, &new)?;
    // Below the top only what the top had counted can have a count (and full rows this page
    // lacks stop being full).
    for (node, _) in nodes.iter().zip(own).skip(top + 1).filter(|(_, o)| **o) {
        count_at(tx, node, hashes, &known, false)?;
    }
    if !singles.is_empty() {
        count_singles_again(tx, domain, nodes, own, &singles)?;
    }
    Ok(())
}

/// Counts a new document at one node that keeps rows (`node`, with its support before the
/// document): its full rows stay full where the document has them, and return to rows of the old
/// support where it lacks them; `candidates` (sorted, a part of the document's sorted `hashes`)
/// are looked up among its rows and bumped. At the top node (`top`), candidates without a row are
/// left alone and returned, with the candidates it had counted; below it, every candidate was
/// counted at the top, so one without a row here is new here and gets a row of 1.
fn count_at(
    tx: &Connection,
    node: &BranchNode,
    hashes: &[i64],
    candidates: &[i64],
    top: bool,
) -> Result<(Vec<i64>, Vec<i64>), StoreError> {
    let full_key = full_key(node.id)?;
    // The site's fixed template: in every document so far, read in one range scan.
    let full: Vec<i64> = tx
        .prepare_cached("SELECT hash FROM tree_counter WHERE node = ?1")?
        .query_map([full_key], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    // A full hash this page lacks is in all documents but this one: a row of the old support.
    let dropped = minus(&full, hashes.to_vec());
    move_rows(tx, full_key, node.id, &dropped, node.support)?;
    let kept_full = both(candidates, full);
    let look = minus(candidates, kept_full.clone());
    let mut in_rows = Vec::new();
    let mut unknown = Vec::new();
    let bump_list = if top {
        let mut find = tx.prepare_cached(
            "SELECT t.hash FROM rarray(?2) AS j CROSS JOIN tree_counter AS t
             WHERE t.node = ?1 AND t.hash = j.value",
        )?;
        in_rows = find
            .query_map(params![node.id, ints(&look)], |r| r.get(0))?
            .collect::<Result<Vec<i64>, _>>()?;
        in_rows.sort_unstable();
        unknown = minus(&look, in_rows.clone());
        &in_rows
    } else {
        &look
    };
    // A row that reaches the node's new support is in every document now: it becomes full.
    let mut now_full = Vec::new();
    if !bump_list.is_empty() {
        let mut bump = tx.prepare_cached(
            "INSERT INTO tree_counter (node, hash, count) SELECT ?1, value, 1 FROM rarray(?2)
             WHERE true ON CONFLICT (node, hash) DO UPDATE SET count = count + 1
             RETURNING hash, count",
        )?;
        let mut counted = bump.query(params![node.id, ints(bump_list)])?;
        while let Some(row) = counted.next()? {
            if row.get::<_, i64>(1)? == node.support + 1 {
                now_full.push(row.get(0)?);
            }
        }
    }
    move_rows(tx, node.id, full_key, &now_full, 0)?;
    let mut known = kept_full;
    known.extend_from_slice(&in_rows);
    known.sort_unstable();
    Ok((known, unknown))
}

/// Records `hashes` as new to the domain: each is in `doc` only.
fn add_singles(tx: &Connection, domain: i64, doc: i64, hashes: &[i64]) -> Result<(), StoreError> {
    if !hashes.is_empty() {
        tx.prepare_cached(
            "INSERT INTO tree_single (domain, hash, doc) SELECT ?1, value, ?2 FROM rarray(?3)",
        )?
        .execute(params![domain, doc, ints(hashes)])?;
    }
    Ok(())
}

/// Which of `hashes` are singles of `domain`, each with its one document.
fn find_singles(
    conn: &Connection,
    domain: i64,
    hashes: &[i64],
) -> Result<Vec<(i64, i64)>, StoreError> {
    if hashes.is_empty() {
        return Ok(Vec::new());
    }
    // Driven by the list (`CROSS JOIN`): SQLite seeks each hash rather than building a temporary
    // index of the list.
    Ok(conn
        .prepare_cached(
            "SELECT s.hash, s.doc FROM rarray(?2) AS j CROSS JOIN tree_single AS s
             WHERE s.domain = ?1 AND s.hash = j.value",
        )?
        .query_map(params![domain, ints(hashes)], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })?
        .collect::<Result<_, _>>()?)
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

/// Hashes that were in one document of the domain (`singles`: hash and that document) and are in
/// the new one too (`nodes`, `own`: its branch, as for [`count_doc`]) leave `tree_single` and get
/// rows at every node that keeps rows on either branch: 2 where both documents are under the node,
/// 1 where one is (no such node had a row for them).
fn count_singles_again(
    tx: &Connection,
    domain: i64,
    nodes: &[BranchNode],
    own: &[bool],
    singles: &[(i64, i64)],
) -> Result<(), StoreError> {
    let all: Vec<i64> = singles.iter().map(|s| s.0).collect();
    tx.prepare_cached(
        "DELETE FROM tree_single WHERE domain = ?1 AND hash IN (SELECT value FROM rarray(?2))",
    )?
    .execute(params![domain, ints(&all)])?;
    let mut by_doc: BTreeMap<i64, Vec<i64>> = BTreeMap::new();
    for &(hash, doc) in singles {
        by_doc.entry(doc).or_default().push(hash);
    }
    let on_branch: HashSet<i64> = nodes.iter().map(|n| n.id).collect();
    for (other, hashes) in by_doc {
        let chain = doc_chain(tx, other)?;
        let under_other: HashSet<i64> = chain.iter().map(|l| l.node.id).collect();
        for (node, _) in nodes.iter().zip(own).filter(|(_, o)| **o) {
            let count = if under_other.contains(&node.id) { 2 } else { 1 };
            if count == node.support + 1 {
                insert_rows(tx, full_key(node.id)?, &hashes, 0)?;
            } else {
                insert_rows(tx, node.id, &hashes, count)?;
            }
        }
        // The other document's own nodes off this branch count it alone (they keep rows, so they
        // have two documents or more: never full).
        for link in chain
            .iter()
            .filter(|l| l.node.own && !on_branch.contains(&l.node.id))
        {
            insert_rows(tx, link.node.id, &hashes, 1)?;
        }
    }
    Ok(())
}

/// Adds rows under the key `node` (a node's id or its full-rows key) for `hashes`, all with `count`.
fn insert_rows(tx: &Connection, node: i64, hashes: &[i64], count: i64) -> Result<(), StoreError> {
    if !hashes.is_empty() {
        tx.prepare_cached(
            "INSERT INTO tree_counter (node, hash, count) SELECT ?1, value, ?3 FROM rarray(?2)",
        )?
        .execute(params![node, ints(hashes), count])?;
    }
    Ok(())
}

/// Moves `hashes` from one key range of `tree_counter` to another (a node's rows and its full
/// rows, see [`FULL_BASE`]), with `count` as their count there.
fn move_rows(
    tx: &Connection,
    from: i64,
    to: i64,
    hashes: &[i64],
    count: i64,
) -> Result<(), StoreError> {
    if hashes.is_empty() {
        return Ok(());
    }
    tx.prepare_cached(
        "DELETE FROM tree_counter WHERE node = ?1 AND hash IN (SELECT value FROM rarray(?2))",
    )?
    .execute(params![from, ints(hashes)])?;
    insert_rows(tx, to, hashes, count)
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

/// Undoes a leaving document's count at one node that keeps rows, for its hashes that were not
/// singles (`hashes`). A row brought down to 1 stays a row (reads take it as it is; moving it back
/// to the singles would cost writes for nothing); one at 0 is deleted. A hash without a row is
/// full here, and full rows stay full as the support falls with the document.
fn uncount_in(tx: &Connection, node: i64, hashes: &Array) -> Result<(), StoreError> {
    let mut spent = Vec::new();
    {
        let mut decrement = tx.prepare_cached(
            "UPDATE tree_counter SET count = count - 1
             WHERE node = ?1 AND hash IN (SELECT value FROM rarray(?2)) RETURNING hash, count",
        )?;
        let mut rows = decrement.query(params![node, hashes])?;
        while let Some(row) = rows.next()? {
            if row.get::<_, i64>(1)? <= 0 {
                spent.push(row.get::<_, i64>(0)?);
            }
        }
    }
    if !spent.is_empty() {
        tx.prepare_cached(
            "DELETE FROM tree_counter
             WHERE node = ?1 AND hash IN (SELECT value FROM rarray(?2))",
        )?
        .execute(params![node, ints(&spent)])?;
    }
    Ok(())
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

/// Writes out the counters of `node` (in the tree of `domain`), which keeps no rows of its own yet
/// and has `support` documents (at least 1), before a document is added under it: they are those
/// of the child all its documents sit under, or the hash set of its single document.
fn materialize(tx: &Connection, domain: i64, node: i64, support: i64) -> Result<(), StoreError> {
    let mut equal_child = tx.prepare_cached(
        "SELECT id, own FROM tree_node WHERE parent = ?1 AND support = ?2 LIMIT 1",
    )?;
    let mut at = node;
    for _ in 0..10_000 {
        match equal_child
            .query_row(params![at, support], |r| {
                Ok((r.get::<_, i64>(0)?, r.get::<_, bool>(1)?))
            })
            .optional()?
        {
            Some((child, true)) => {
                // Its rows and its full rows (see `count_doc`); the supports are equal, so full
                // rows stay full. The domain's singles count here as they did there.
                tx.prepare_cached(
                    "INSERT INTO tree_counter (node, hash, count)
                     SELECT CASE WHEN node >= ?3 THEN ?1 + ?3 ELSE ?1 END, hash, count
                     FROM tree_counter WHERE node IN (?2, ?2 + ?3)",
                )?
                .execute(params![node, child, FULL_BASE])?;
                return Ok(());
            }
            Some((child, false)) => at = child,
            None => {
                // `at` is the leaf of every document under `node`: with no rows of its own it
                // holds exactly one.
                if support != 1 {
                    return Err(StoreError::Corrupt(format!(
                        "node {node} has {support} documents but neither rows nor a child holding them all"
                    )));
                }
                let blob: Vec<u8> = tx
                    .prepare_cached("SELECT hashes FROM tree_doc WHERE leaf = ?1 LIMIT 1")?
                    .query_row([at], |r| r.get(0))
                    .optional()?
                    .ok_or_else(|| {
                        StoreError::Corrupt(format!("node {node} has a document but no leaf"))
                    })?;
                let hashes: Vec<i64> = unpack_hashes(&blob)?.iter().map(hash_to_sql).collect();
                // The hashes the domain has elsewhere too are in every document here (its one):
                // full rows. Its singles need no row.
                let singles: Vec<i64> = find_singles(tx, domain, &hashes)?
                    .into_iter()
                    .map(|(hash, _)| hash)
                    .collect();
                insert_rows(tx, full_key(node)?, &minus(&hashes, singles), 0)?;
                return Ok(());
            }
        }
    }
    Err(StoreError::Corrupt(format!(
        "the URL Tree has a cycle below node {node}"
    )))
}

/// Removes the documents of one domain that fall out of the history window at time `now`.
/// `count` is the number of documents in the domain (its node's support), which saves counting
/// them: that count grew with the domain and was the one step of an insert that did.
fn apply_window(
    tx: &Connection,
    domain: i64,
    count: i64,
    now: i64,
    window: &HistoryWindow,
) -> Result<usize, StoreError> {
    let mut doomed: Vec<DocId> = Vec::new();
    let excess = count - i64::from(window.max_docs);
    if excess > 0 {
        let mut oldest = tx.prepare_cached(
            "SELECT id FROM tree_doc WHERE domain = ?1 ORDER BY added, id LIMIT ?2",
        )?;
        for id in oldest.query_map(params![domain, excess], |r| r.get(0))? {
            doomed.push(id?);
        }
    }
    if count > i64::from(window.keep_newest) {
        // The newest `keep_newest` documents stay whatever their age: find the oldest of them.
        let floor: Option<(i64, i64)> = tx
            .prepare_cached(
                "SELECT added, id FROM tree_doc WHERE domain = ?1
                 ORDER BY added DESC, id DESC LIMIT 1 OFFSET ?2",
            )?
            .query_row(
                params![domain, i64::from(window.keep_newest.saturating_sub(1))],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        if let Some((floor_added, floor_id)) = floor {
            let cutoff = now.saturating_sub(window.max_age_secs);
            let mut old = tx.prepare_cached(
                "SELECT id FROM tree_doc WHERE domain = ?1 AND added < ?2
                 AND (added < ?3 OR (added = ?3 AND id < ?4))",
            )?;
            for id in old.query_map(params![domain, cutoff, floor_added, floor_id], |r| r.get(0))? {
                doomed.push(id?);
            }
        }
    }
    doomed.sort_unstable();
    doomed.dedup();
    for &doc in &doomed {
        remove_doc(tx, doc)?;
    }
    Ok(doomed.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::urltree::{BlockInput, Heuristic, Verdict, classify};

    fn h(n: u64) -> BlockHash {
        BlockHash(n.to_be_bytes())
    }

    fn branch(parts: &[&str]) -> Vec<String> {
        parts.iter().map(|s| s.to_string()).collect()
    }

    /// Inserts without a container signature (most tests are about block counters).
    trait InsertPlain {
        fn insert_plain(
            &mut self,
            branch: &[String],
            url_key: &str,
            hashes: &[BlockHash],
            added: i64,
            window: &HistoryWindow,
        ) -> Result<TreeInsert, StoreError>;
    }

    impl InsertPlain for Store {
        fn insert_plain(
            &mut self,
            branch: &[String],
            url_key: &str,
            hashes: &[BlockHash],
            added: i64,
            window: &HistoryWindow,
        ) -> Result<TreeInsert, StoreError> {
            self.tree_insert(
                &TreeDocument {
                    branch,
                    url_key,
                    hashes,
                    container: None,
                    added,
                },
                window,
            )
        }
    }

    const NO_WINDOW: HistoryWindow = HistoryWindow {
        max_docs: u32::MAX,
        max_age_secs: i64::MAX,
        keep_newest: u32::MAX,
    };

    #[test]
    fn insert_counts_along_the_branch_and_dedups_hashes() {
        let mut store = Store::open_in_memory().unwrap();
        let b = branch(&["ex.com", "www.ex.com", "news", "a"]);
        let doc = store
            .insert_plain(
                &b,
                "http://www.ex.com/news/a",
                &[h(1), h(2), h(2)],
                0,
                &NO_WINDOW,
            )
            .unwrap();
        let br = store.tree_branch(doc.doc(), &[h(1), h(2), h(3)]).unwrap();
        assert_eq!(br.nodes.len(), 4);
        assert_eq!(br.nodes[0].path, "ex.com");
        assert_eq!(br.nodes[3].path, "ex.com/www.ex.com/news/a");
        for node in &br.nodes {
            assert_eq!(node.support, 1);
            assert_eq!(
                node.count(&h(2)),
                1,
                "a hash repeated within a page counts once"
            );
            assert_eq!(node.count(&h(3)), 0);
        }
        assert!(store.tree_consistency_errors().unwrap().is_empty());
    }

    #[test]
    fn the_same_url_key_in_a_domain_is_never_counted_twice() {
        let mut store = Store::open_in_memory().unwrap();
        let b = branch(&["ex.com", "www.ex.com", "a"]);
        let first = store
            .insert_plain(&b, "http://www.ex.com/a", &[h(1)], 0, &NO_WINDOW)
            .unwrap();
        let second = store
            .insert_plain(&b, "http://www.ex.com/a", &[h(1)], 5, &NO_WINDOW)
            .unwrap();
        assert_eq!(second, TreeInsert::Duplicate(first.doc()));
        let br = store.tree_branch(first.doc(), &[h(1)]).unwrap();
        assert_eq!(br.nodes[0].support, 1);
        assert_eq!(br.nodes[0].count(&h(1)), 1);
        // The same key in another domain is another document.
        let other = store
            .insert_plain(
                &branch(&["other.org", "other.org", "a"]),
                "http://www.ex.com/a",
                &[h(1)],
                0,
                &NO_WINDOW,
            )
            .unwrap();
        assert!(matches!(other, TreeInsert::Inserted(_)));
    }

    #[test]
    fn removal_is_exact_and_prunes_empty_nodes() {
        let mut store = Store::open_in_memory().unwrap();
        let a = store
            .insert_plain(
                &branch(&["ex.com", "ex.com", "x"]),
                "k1",
                &[h(1), h(2)],
                0,
                &NO_WINDOW,
            )
            .unwrap();
        let b = store
            .insert_plain(
                &branch(&["ex.com", "ex.com", "y"]),
                "k2",
                &[h(1), h(3)],
                0,
                &NO_WINDOW,
            )
            .unwrap();
        assert!(store.tree_remove(a.doc()).unwrap());
        assert!(!store.tree_remove(a.doc()).unwrap());
        let br = store.tree_branch(b.doc(), &[h(1), h(2), h(3)]).unwrap();
        assert_eq!(br.nodes[0].support, 1);
        assert_eq!(br.nodes[0].count(&h(1)), 1);
        assert_eq!(br.nodes[0].count(&h(2)), 0);
        let segments: Vec<_> = store
            .tree_nodes("ex.com")
            .unwrap()
            .into_iter()
            .map(|n| n.segment)
            .collect();
        assert_eq!(segments, vec!["ex.com", "ex.com", "y"]);
        assert!(store.tree_remove(b.doc()).unwrap());
        assert!(store.tree_nodes("ex.com").unwrap().is_empty());
        assert!(store.tree_consistency_errors().unwrap().is_empty());
    }

    /// A small deterministic generator so the property test needs no extra crate.
    struct Lcg(u64);
    impl Lcg {
        fn next(&mut self, bound: u64) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 33) % bound
        }
    }

    #[test]
    fn any_sequence_of_inserts_and_removes_equals_a_rebuild() {
        for seed in 0..8 {
            let mut rng = Lcg(seed);
            let mut store = Store::open_in_memory().unwrap();
            let mut live: Vec<DocId> = Vec::new();
            for step in 0..120 {
                if !live.is_empty() && rng.next(3) == 0 {
                    let i = rng.next(live.len() as u64) as usize;
                    let doc = live.swap_remove(i);
                    assert!(store.tree_remove(doc).unwrap());
                } else {
                    let domain = ["a.com", "b.org"][rng.next(2) as usize];
                    let mut b = branch(&[domain, domain]);
                    for _ in 0..rng.next(3) {
                        b.push(format!("s{}", rng.next(3)));
                    }
                    let hashes: Vec<_> = (0..rng.next(12)).map(|_| h(rng.next(20))).collect();
                    let key = format!("{}-{step}", b.join("/"));
                    let window = if rng.next(4) == 0 {
                        HistoryWindow {
                            max_docs: 6,
                            max_age_secs: 30,
                            keep_newest: 3,
                        }
                    } else {
                        NO_WINDOW
                    };
                    let container = ["div#main", "article.story", ""][rng.next(3) as usize];
                    let outcome = store
                        .tree_insert(
                            &TreeDocument {
                                branch: &b,
                                url_key: &key,
                                hashes: &hashes,
                                container: (!container.is_empty()).then_some(container),
                                added: step,
                            },
                            &window,
                        )
                        .unwrap();
                    live.push(outcome.doc());
                    // The window may have removed some documents: keep only those still stored.
                    let mut still = Vec::new();
                    for doc in live.drain(..) {
                        if !store.tree_branch(doc, &[]).unwrap().nodes.is_empty() {
                            still.push(doc);
                        }
                    }
                    live = still;
                }
                let errors = store.tree_consistency_errors().unwrap();
                assert!(errors.is_empty(), "seed {seed} step {step}: {errors:?}");
            }
            // A rebuild from the documents (the schema upgrade's) gives a tree just as exact,
            // and one that reads the same.
            let probe: Vec<_> = (0..20).map(h).collect();
            let before: Vec<Branch> = live
                .iter()
                .map(|&doc| store.tree_branch(doc, &probe).unwrap())
                .collect();
            rebuild_counters(&store.conn).unwrap();
            let errors = store.tree_consistency_errors().unwrap();
            assert!(errors.is_empty(), "seed {seed} after a rebuild: {errors:?}");
            let after: Vec<Branch> = live
                .iter()
                .map(|&doc| store.tree_branch(doc, &probe).unwrap())
                .collect();
            assert_eq!(before, after, "seed {seed}");
        }
    }

    /// Every node of `got` (the branch `b`) has the support and the counts of `probe` that a
    /// brute-force recount over the live documents gives.
    fn assert_counts_are_a_recount(
        got: &Branch,
        b: &[String],
        live: &[(DocId, Vec<String>, Vec<BlockHash>)],
        probe: &[BlockHash],
        context: &str,
    ) {
        for (depth, node) in got.nodes.iter().enumerate() {
            let under: Vec<_> = live
                .iter()
                .filter(|(_, ob, _)| ob.len() > depth && ob[..=depth] == b[..=depth])
                .collect();
            assert_eq!(node.support as usize, under.len(), "{context}");
            for hash in probe {
                let want = under.iter().filter(|(_, _, hs)| hs.contains(hash)).count();
                assert_eq!(
                    node.count(hash) as usize,
                    want,
                    "{context} depth {depth} {hash:?}"
                );
            }
        }
    }

    #[test]
    fn a_template_in_every_page_becomes_full_rows_and_stays_exact() {
        // Every page carries the template h(100..105), except now and then one that lacks one
        // of them: full rows are made, dropped again, and survive removals, and every count
        // read back equals a recount.
        for seed in 0..4 {
            let mut rng = Lcg(seed + 300);
            let mut store = Store::open_in_memory().unwrap();
            let mut live: Vec<(DocId, Vec<String>, Vec<BlockHash>)> = Vec::new();
            for step in 0..120 {
                if live.len() > 8 && rng.next(5) == 0 {
                    let i = rng.next(live.len() as u64) as usize;
                    let (doc, _, _) = live.swap_remove(i);
                    assert!(store.tree_remove(doc).unwrap());
                } else {
                    let mut b = branch(&["t.com", "t.com", "news"]);
                    b.push(format!("d{}", rng.next(3)));
                    let mut hashes: Vec<_> = (100..105).map(h).collect();
                    if rng.next(10) == 0 {
                        hashes.remove(rng.next(5) as usize);
                    }
                    hashes.extend((0..rng.next(6)).map(|_| h(rng.next(40))));
                    let doc = store
                        .insert_plain(&b, &format!("k{step}"), &hashes, step, &NO_WINDOW)
                        .unwrap()
                        .doc();
                    live.push((doc, b, hashes));
                }
                assert_eq!(
                    store.tree_consistency_errors().unwrap(),
                    Vec::<String>::new(),
                    "seed {seed} step {step}"
                );
                let probe: Vec<_> = (100..105).chain(0..40).map(h).collect();
                for (doc, b, _) in live.iter().step_by(3) {
                    let got = store.tree_branch(*doc, &probe).unwrap();
                    assert_counts_are_a_recount(
                        &got,
                        b,
                        &live,
                        &probe,
                        &format!("seed {seed} step {step}"),
                    );
                }
            }
            let full_rows: i64 = store
                .conn
                .query_row(
                    "SELECT count(*) FROM tree_counter WHERE node >= ?1",
                    [FULL_BASE],
                    |r| r.get(0),
                )
                .unwrap();
            assert!(full_rows > 0, "seed {seed}: the template never became full");
        }
    }

    /// Counters are only stored where they are not implied; every branch read back must still
    /// give the exact counts a brute-force recount over the live documents gives, for any hashes.
    #[test]
    fn branches_read_back_equal_a_brute_force_recount() {
        for seed in 0..6 {
            let mut rng = Lcg(seed + 100);
            let mut store = Store::open_in_memory().unwrap();
            // doc id → (branch, hashes)
            let mut live: Vec<(DocId, Vec<String>, Vec<BlockHash>)> = Vec::new();
            for step in 0..150 {
                if !live.is_empty() && rng.next(4) == 0 {
                    let i = rng.next(live.len() as u64) as usize;
                    let (doc, _, _) = live.swap_remove(i);
                    assert!(store.tree_remove(doc).unwrap());
                } else {
                    let mut b = branch(&["a.com", "a.com"]);
                    for _ in 0..rng.next(4) {
                        b.push(format!("s{}", rng.next(2)));
                    }
                    let hashes: Vec<_> = (0..rng.next(10)).map(|_| h(rng.next(15))).collect();
                    let doc = store
                        .insert_plain(&b, &format!("k{step}"), &hashes, step, &NO_WINDOW)
                        .unwrap()
                        .doc();
                    live.push((doc, b, hashes));
                }
                let probe: Vec<_> = (0..15).map(h).collect();
                for (doc, b, _) in &live {
                    let got = store.tree_branch(*doc, &probe).unwrap();
                    assert_eq!(got.nodes.len(), b.len());
                    assert_counts_are_a_recount(
                        &got,
                        b,
                        &live,
                        &probe,
                        &format!("seed {seed} step {step}"),
                    );
                    // Counts read at one node only: the same counts there, none elsewhere.
                    for min_support in [0, 1, 2, 4] {
                        let one = store
                            .tree_branch_counted_at(*doc, &probe, min_support)
                            .unwrap();
                        let wanted = got.nodes.iter().rposition(|n| n.support > min_support);
                        for (depth, (a, full)) in one.nodes.iter().zip(&got.nodes).enumerate() {
                            assert_eq!(a.support, full.support);
                            assert_eq!(a.containers, full.containers);
                            if Some(depth) == wanted {
                                assert_eq!(a.counts, full.counts, "seed {seed} step {step}");
                            } else {
                                assert!(a.counts.is_empty(), "seed {seed} step {step}");
                            }
                        }
                    }
                }
            }
            assert!(store.tree_consistency_errors().unwrap().is_empty());
        }
    }

    /// Two connections insert into one site in turn: each must count what the other added
    /// (a repeat of the other's page is a repeat, not a new hash).
    #[test]
    fn two_connections_inserting_into_one_site_count_every_repeat() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("two.db");
        let mut stores = [Store::open(&path).unwrap(), Store::open(&path).unwrap()];
        let mut rng = Lcg(3);
        let mut live: Vec<(DocId, Vec<String>, Vec<BlockHash>)> = Vec::new();
        for step in 0..60 {
            let b = branch(&["ex.com", "ex.com", &format!("d{}", rng.next(3))]);
            // A template, and text of which some comes back on a later page.
            let mut hashes: Vec<BlockHash> = (1000..1005).map(h).collect();
            hashes.extend((0..6).map(|_| h(rng.next(400))));
            let store = &mut stores[step % 2];
            let doc = store
                .insert_plain(&b, &format!("k{step}"), &hashes, step as i64, &NO_WINDOW)
                .unwrap()
                .doc();
            live.push((doc, b, hashes));
            let errors = store.tree_consistency_errors().unwrap();
            assert!(errors.is_empty(), "step {step}: {errors:?}");
        }
        let probe: Vec<BlockHash> = (0..400).chain(1000..1005).map(h).collect();
        for (doc, b, _) in &live {
            let got = stores[0].tree_branch(*doc, &probe).unwrap();
            assert_counts_are_a_recount(&got, b, &live, &probe, "two connections");
        }
    }

    #[test]
    fn history_window_caps_documents_and_ages_out_old_ones() {
        let mut store = Store::open_in_memory().unwrap();
        let window = HistoryWindow {
            max_docs: 5,
            max_age_secs: 100,
            keep_newest: 2,
        };
        let day = |i: i64| i * 10;
        for i in 0..8 {
            store
                .insert_plain(
                    &branch(&["ex.com", "ex.com", &format!("p{i}")]),
                    &format!("k{i}"),
                    &[h(1), h(100 + i as u64)],
                    day(i),
                    &window,
                )
                .unwrap();
        }
        // At most 5 documents: the 3 oldest left.
        assert_eq!(store.tree_doc_count("ex.com").unwrap(), 5);
        // A document far in the future: everything older than 100 s leaves, but the 2 newest stay.
        store
            .insert_plain(
                &branch(&["ex.com", "ex.com", "late"]),
                "late",
                &[h(1)],
                10_000,
                &window,
            )
            .unwrap();
        assert_eq!(store.tree_doc_count("ex.com").unwrap(), 2);
        assert!(store.tree_consistency_errors().unwrap().is_empty());
    }

    #[test]
    fn classification_on_a_stored_tree() {
        let mut store = Store::open_in_memory().unwrap();
        let mut last = 0;
        for i in 0..6 {
            last = store
                .insert_plain(
                    &branch(&["ex.com", "www.ex.com", "news", &format!("s{i}")]),
                    &format!("k{i}"),
                    &[h(1), h(1000 + i)],
                    i as i64,
                    &NO_WINDOW,
                )
                .unwrap()
                .doc();
        }
        let br = store.tree_branch(last, &[h(1), h(1005)]).unwrap();
        let labels = classify(
            Heuristic::STRICT,
            &br,
            &[
                BlockInput {
                    hash: h(1),
                    all_link_text: false,
                },
                BlockInput {
                    hash: h(1005),
                    all_link_text: false,
                },
            ],
        );
        assert_eq!(labels[0].0, Verdict::Boilerplate);
        assert_eq!(labels[0].1.node, "ex.com/www.ex.com/news");
        assert_eq!(labels[0].1.support, 6);
        assert_eq!(labels[0].1.count, 6);
        assert_eq!(labels[1].0, Verdict::Content);
        assert!(labels[1].1.unseen);
    }
}

#[cfg(test)]
mod container_tests {
    use super::*;

    #[test]
    fn container_signatures_are_counted_along_the_branch_and_leave_exactly() {
        let mut store = Store::open_in_memory().unwrap();
        let window = HistoryWindow::default();
        let mut docs = Vec::new();
        for (i, sig) in ["div#story", "div#story", "div#story", "article.post"]
            .iter()
            .enumerate()
        {
            let branch: Vec<String> = ["ex.com", "www.ex.com", "news", &format!("a{i}")]
                .iter()
                .map(|s| s.to_string())
                .collect();
            let key = format!("k{i}");
            docs.push(
                store
                    .tree_insert(
                        &TreeDocument {
                            branch: &branch,
                            url_key: &key,
                            hashes: &[],
                            container: Some(sig),
                            added: i as i64,
                        },
                        &window,
                    )
                    .unwrap()
                    .doc(),
            );
        }
        let branch = store.tree_branch(docs[3], &[]).unwrap();
        assert_eq!(
            branch.nodes[2].containers,
            vec![
                ("div#story".to_string(), 3),
                ("article.post".to_string(), 1)
            ]
        );
        assert_eq!(
            branch.nodes[3].containers,
            vec![("article.post".to_string(), 1)]
        );
        store.tree_remove(docs[0]).unwrap();
        let branch = store.tree_branch(docs[3], &[]).unwrap();
        assert_eq!(branch.nodes[0].containers[0], ("div#story".to_string(), 2));
        assert!(store.tree_consistency_errors().unwrap().is_empty());
    }

    #[test]
    fn prose_slots_are_counted_apart_from_containers_and_leave_exactly() {
        let mut store = Store::open_in_memory().unwrap();
        let window = HistoryWindow::default();
        let stored = [
            "div#story\nslot:aa\nslot:bb",
            "div#story\nslot:aa",
            "\nslot:aa",
            "div#story",
        ];
        let mut docs = Vec::new();
        for (i, signatures) in stored.iter().enumerate() {
            let branch: Vec<String> = ["ex.com", "www.ex.com", &format!("a{i}")]
                .iter()
                .map(|s| s.to_string())
                .collect();
            let key = format!("k{i}");
            docs.push(
                store
                    .tree_insert(
                        &TreeDocument {
                            branch: &branch,
                            url_key: &key,
                            hashes: &[],
                            container: Some(signatures),
                            added: i as i64,
                        },
                        &window,
                    )
                    .unwrap()
                    .doc(),
            );
        }
        // The first document asks for its own slots; containers never list a slot.
        let branch = store.tree_branch(docs[0], &[]).unwrap();
        let domain = &branch.nodes[0];
        assert_eq!(domain.containers, vec![("div#story".to_string(), 3)]);
        assert_eq!(domain.slots.get("slot:aa"), Some(&3));
        assert_eq!(domain.slots.get("slot:bb"), Some(&1));
        assert_eq!(branch.nodes[2].slots.get("slot:aa"), Some(&1));
        // The last document has no slots, so it is told of none.
        assert!(
            store.tree_branch(docs[3], &[]).unwrap().nodes[0]
                .slots
                .is_empty()
        );
        store.tree_remove(docs[1]).unwrap();
        let branch = store.tree_branch(docs[0], &[]).unwrap();
        assert_eq!(branch.nodes[0].slots.get("slot:aa"), Some(&2));
        assert_eq!(
            branch.nodes[0].containers,
            vec![("div#story".to_string(), 2)]
        );
        assert!(store.tree_consistency_errors().unwrap().is_empty());
    }
}
