//! Reading a document's branch back for classification: each node's support, the counts of the
//! blocks asked about, and what the site's memory holds there.

use std::collections::{HashMap, HashSet};

use rustc_hash::FxHashMap;

use rusqlite::{OptionalExtension, params};

use super::*;

/// Which nodes of a branch a read counts the blocks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CountsAt {
    /// Every node.
    Every,
    /// The deepest node with more documents than this (the others come with their supports and
    /// no counts): what the site-aware rule reads, as reading counts at every node was most of
    /// its cost.
    DeepestAbove(u32),
}

/// What a branch read asks of the site's memory (see [`MemoryRecord`]) at the nodes it counts
/// at: with [`CountsAt::Every`] every node, with [`CountsAt::DeepestAbove`] the nodes with more
/// documents than its bound. The store reads keys; what they mean is the caller's.
#[derive(Debug, Clone, Copy)]
pub struct MemoryRead<'a> {
    /// Keys whose counts to read ([`NodeStats::memory_counts`]); a key no document under a node
    /// had is absent there.
    pub counted: &'a [&'a str],
    /// How many of a node's most counted keys to list ([`NodeStats::memory_top`]), most counted
    /// first, ties in key order.
    pub top: usize,
    /// Keys starting with this (ASCII case aside) are never listed, only counted when asked.
    pub unlisted_prefix: &'a str,
}

impl Store {
    /// The statistics of a document's branch, domain first, with the counts of `hashes` (the
    /// blocks to classify) at every node. Empty when the document is not in the tree.
    pub fn tree_branch(&self, doc: DocId, hashes: &[BlockHash]) -> Result<Branch, StoreError> {
        self.tree_branch_read(doc, hashes, CountsAt::Every, None)
    }

    /// A document's branch, domain first, with the counts of `hashes` at the nodes `counts` names
    /// and, when asked, what the site's memory holds there. Empty when the document is not in the
    /// tree.
    pub fn tree_branch_read(
        &self,
        doc: DocId,
        hashes: &[BlockHash],
        counts: CountsAt,
        memory: Option<&MemoryRead<'_>>,
    ) -> Result<Branch, StoreError> {
        self.branch_counted(doc, hashes, counts, memory)
    }

    fn branch_counted(
        &self,
        doc: DocId,
        hashes: &[BlockHash],
        counted: CountsAt,
        memory: Option<&MemoryRead<'_>>,
    ) -> Result<Branch, StoreError> {
        let row: Option<(i64, Vec<u8>)> = self
            .conn
            .prepare_cached("SELECT leaf, hashes FROM tree_doc WHERE id = ?1")?
            .query_row([doc], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()?;
        let Some((leaf, blob)) = row else {
            return Ok(Branch::default());
        };
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
        let mut own_counts = |node: &BranchNode| -> Result<FxHashMap<BlockHash, u32>, StoreError> {
            let node_id = node.id;
            let mut counts = FxHashMap::with_capacity_and_hasher(unique.len(), Default::default());
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
        let this_doc = || -> FxHashMap<BlockHash, u32> {
            unique
                .iter()
                .filter(|h| own_set.binary_search(h).is_ok())
                .map(|h| (*h, 1))
                .collect()
        };
        // Counters from the leaf up: a node without rows of its own has its child's counters on
        // this branch (all its documents are under it), or, with one document, this document's.
        let mut counts_up: Vec<FxHashMap<BlockHash, u32>> = Vec::with_capacity(chain.len());
        match counted {
            _ if unique.is_empty() => {
                // Asked for the branch's outline only (supports and memory).
                counts_up.resize_with(chain.len(), FxHashMap::default);
            }
            CountsAt::Every => {
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
            CountsAt::DeepestAbove(min_support) => {
                counts_up.resize_with(chain.len(), FxHashMap::default);
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
        // A node's listed keys are few: they are ranked here, as SQLite's `ORDER BY … LIMIT`
        // built a temporary b-tree for every node read (a sixth of the site step).
        let mut get_listed = self.conn.prepare_cached(
            "SELECT signature, count FROM site_container
             WHERE node = ?1 AND signature NOT LIKE ?2 ESCAPE '\\'",
        )?;
        let mut get_count = self.conn.prepare_cached(
            "SELECT count FROM site_container WHERE node = ?1 AND signature = ?2",
        )?;
        let unlisted = memory.map(|m| like_prefix(m.unlisted_prefix));
        let mut path = String::new();
        let mut nodes = Vec::with_capacity(chain.len());
        for (link, counts) in chain.into_iter().zip(counts_up) {
            if !path.is_empty() {
                path.push('/');
            }
            path.push_str(&link.segment);
            let support = u32::try_from(link.node.support).unwrap_or(u32::MAX);
            // The site-aware rule reads the memory only at nodes above its minimum support: the
            // others are left empty (most nodes of young sites, so most queries).
            let described = match counted {
                CountsAt::Every => true,
                CountsAt::DeepestAbove(min_support) => support > min_support,
            };
            let mut memory_top = Vec::new();
            let mut memory_counts = HashMap::new();
            if let (Some(read), Some(unlisted), true) = (memory, &unlisted, described) {
                let mut rows = get_listed.query(params![link.node.id, unlisted])?;
                while let Some(row) = rows.next()? {
                    let count: u32 = row.get(1)?;
                    let key = row.get_ref(0)?.as_str().map_err(rusqlite::Error::from)?;
                    keep_top(&mut memory_top, read.top, key, count);
                }
                memory_counts.reserve(read.counted.len());
                for &key in read.counted {
                    if let Some(count) = get_count
                        .query_row(params![link.node.id, key], |r| r.get::<_, u32>(0))
                        .optional()?
                    {
                        memory_counts.insert(key.to_string(), count);
                    }
                }
            }
            nodes.push(NodeStats {
                path: path.clone(),
                support,
                counts,
                memory_top,
                memory_counts,
            });
        }
        Ok(Branch { nodes })
    }
}

/// Adds `key` to `top` (most counted first, ties in key order) when it ranks among the `limit`
/// first; `top` holds at most `limit` keys, and a key is copied only when it is kept.
fn keep_top(top: &mut Vec<(String, u32)>, limit: usize, key: &str, count: u32) {
    let ranks_before = |(k, c): &(String, u32)| *c > count || (*c == count && k.as_str() < key);
    let at = top.partition_point(ranks_before);
    if at >= limit {
        return;
    }
    if top.len() == limit {
        top.pop();
    }
    top.insert(at, (key.to_string(), count));
}

/// A `LIKE` pattern (with `\` as its escape character) matching the keys that start with `prefix`.
fn like_prefix(prefix: &str) -> String {
    let mut pattern = String::with_capacity(prefix.len() + 1);
    for c in prefix.chars() {
        if matches!(c, '%' | '_' | '\\') {
            pattern.push('\\');
        }
        pattern.push(c);
    }
    pattern.push('%');
    pattern
}

#[cfg(test)]
mod tests {
    use super::keep_top;

    #[test]
    fn the_listed_keys_are_the_most_counted_ties_in_key_order() {
        let mut top = Vec::new();
        for (key, count) in [("d", 2), ("a", 1), ("c", 5), ("b", 2), ("e", 5), ("f", 1)] {
            keep_top(&mut top, 3, key, count);
        }
        let keys: Vec<(&str, u32)> = top.iter().map(|(k, c)| (k.as_str(), *c)).collect();
        assert_eq!(keys, [("c", 5), ("e", 5), ("b", 2)]);
        let mut none = Vec::new();
        keep_top(&mut none, 0, "a", 9);
        assert!(none.is_empty());
    }
}
