//! Recounting the tree from its documents: the consistency check tests and `pith` checks run, and
//! the rebuild that upgrades older files.

use std::collections::{BTreeMap, HashMap, HashSet};

use rusqlite::{Connection, params};

use super::count::{add_singles, insert_rows};
use super::*;

impl Store {
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
        let mut want_memory: BTreeMap<(i64, String), u32> = BTreeMap::new();
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
            let (doc, domain, leaf, blob, memory) = row?;
            let hashes = unpack_hashes(&blob)?;
            let memory = MemoryRecord::from_stored(memory);
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
                for key in memory.keys() {
                    *want_memory.entry((node, key.to_string())).or_default() += 1;
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
        let mut stored_memory: BTreeMap<(i64, String), u32> = BTreeMap::new();
        let mut stmt = self
            .conn
            .prepare("SELECT node, signature, count FROM site_container")?;
        for row in stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))? {
            let (node, signature, count): (i64, String, u32) = row?;
            stored_memory.insert((node, signature), count);
        }
        if stored_memory != want_memory {
            errors.push(format!(
                "site memory counts differ from a recount ({} stored, {} expected)",
                stored_memory.len(),
                want_memory.len()
            ));
        }
        Ok(errors)
    }
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
