//! Counting a new document: its hashes at the nodes of its branch that keep rows, the domain's
//! singles, and the rows a node writes out when it starts keeping its own.

use std::collections::{BTreeMap, HashSet};

use rusqlite::{Connection, OptionalExtension, params};

use super::*;

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
pub(super) fn count_doc(
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
pub(super) fn add_singles(
    tx: &Connection,
    domain: i64,
    doc: i64,
    hashes: &[i64],
) -> Result<(), StoreError> {
    if !hashes.is_empty() {
        tx.prepare_cached(
            "INSERT INTO tree_single (domain, hash, doc) SELECT ?1, value, ?2 FROM rarray(?3)",
        )?
        .execute(params![domain, doc, ints(hashes)])?;
    }
    Ok(())
}

/// Which of `hashes` are singles of `domain`, each with its one document.
pub(super) fn find_singles(
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
pub(super) fn insert_rows(
    tx: &Connection,
    node: i64,
    hashes: &[i64],
    count: i64,
) -> Result<(), StoreError> {
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

/// Writes out the counters of `node` (in the tree of `domain`), which keeps no rows of its own yet
/// and has `support` documents (at least 1), before a document is added under it: they are those
/// of the child all its documents sit under, or the hash set of its single document.
pub(super) fn materialize(
    tx: &Connection,
    domain: i64,
    node: i64,
    support: i64,
) -> Result<(), StoreError> {
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
