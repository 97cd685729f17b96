//! Taking a document out of the tree, decrementing exactly what its insertion incremented, and
//! the history window that decides which documents leave.

use rusqlite::vtab::array::Array;
use rusqlite::{Connection, OptionalExtension, params};

use super::*;

pub(super) fn remove_doc(tx: &Connection, doc: DocId) -> Result<bool, StoreError> {
    let row: Option<(i64, i64, Vec<u8>, Option<String>)> = tx
        .prepare_cached("SELECT domain, leaf, hashes, container FROM tree_doc WHERE id = ?1")?
        .query_row([doc], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .optional()?;
    let Some((domain, leaf, blob, memory)) = row else {
        return Ok(false);
    };
    let memory = MemoryRecord::from_stored(memory);
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
        for signature in memory.keys() {
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

/// One step of the history window's pass over every domain: takes out at most `max` documents
/// that have left their domain's window at `now`, visiting the domains whose node id is at least
/// `from`, in id order. Returns how many went and the domain to go on from (`None` once every
/// domain is within its window). Apart from the insert, so that a page's insert does only the
/// page's work: removals are batched at the end of a refresh, in steps of their own.
pub(super) fn window_step(
    tx: &Connection,
    window: &HistoryWindow,
    now: i64,
    from: i64,
    max: usize,
) -> Result<(usize, Option<i64>), StoreError> {
    // A domain at or below both bounds has nothing to remove.
    let least = i64::from(window.max_docs.min(window.keep_newest));
    let domains: Vec<(i64, i64)> = tx
        .prepare_cached(
            "SELECT id, support FROM tree_node WHERE parent = 0 AND id >= ?1 AND support > ?2
             ORDER BY id",
        )?
        .query_map(params![from, least], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    let mut removed = 0;
    for (domain, count) in domains {
        let room = max.saturating_sub(removed);
        if room == 0 {
            return Ok((removed, Some(domain)));
        }
        let (went, done) = remove_outside(tx, domain, count, now, window, room)?;
        removed += went;
        if !done {
            return Ok((removed, Some(domain)));
        }
    }
    Ok((removed, None))
}

/// One step of the history window in one domain (its node `domain`): takes out at most `max` of
/// the documents that have left it at `now`. Returns how many went and whether the domain is
/// within its window now.
pub(super) fn domain_window_step(
    tx: &Connection,
    domain: i64,
    window: &HistoryWindow,
    now: i64,
    max: usize,
) -> Result<(usize, bool), StoreError> {
    let count: Option<i64> = tx
        .prepare_cached("SELECT support FROM tree_node WHERE id = ?1 AND parent = 0")?
        .query_row([domain], |r| r.get(0))
        .optional()?;
    match count {
        Some(count) => remove_outside(tx, domain, count, now, window, max),
        None => Ok((0, true)),
    }
}

/// Removes at most `max` of the documents outside one domain's window (`count`: its documents);
/// returns how many went and whether none is left outside.
fn remove_outside(
    tx: &Connection,
    domain: i64,
    count: i64,
    now: i64,
    window: &HistoryWindow,
    max: usize,
) -> Result<(usize, bool), StoreError> {
    let doomed = outside_window(tx, domain, count, now, window)?;
    let take = doomed.len().min(max);
    for &doc in &doomed[..take] {
        remove_doc(tx, doc)?;
    }
    Ok((take, take == doomed.len()))
}

/// The documents of one domain outside the history window at time `now`, oldest first. `count`
/// is the number of documents in the domain (its node's support), which saves counting them.
fn outside_window(
    tx: &Connection,
    domain: i64,
    count: i64,
    now: i64,
    window: &HistoryWindow,
) -> Result<Vec<DocId>, StoreError> {
    let mut doomed: Vec<(i64, DocId)> = Vec::new();
    let excess = count - i64::from(window.max_docs);
    if excess > 0 {
        let mut oldest = tx.prepare_cached(
            "SELECT added, id FROM tree_doc WHERE domain = ?1 ORDER BY added, id LIMIT ?2",
        )?;
        for row in oldest.query_map(params![domain, excess], |r| Ok((r.get(0)?, r.get(1)?)))? {
            doomed.push(row?);
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
                "SELECT added, id FROM tree_doc WHERE domain = ?1 AND added < ?2
                 AND (added < ?3 OR (added = ?3 AND id < ?4))",
            )?;
            let rows = old.query_map(params![domain, cutoff, floor_added, floor_id], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })?;
            for row in rows {
                doomed.push(row?);
            }
        }
    }
    doomed.sort_unstable();
    doomed.dedup();
    Ok(doomed.into_iter().map(|(_, id)| id).collect())
}
