//! The user's pins: blocks of a site pinned "always content" or "always boilerplate". A pin is
//! keyed by the registrable domain and the block's hash, like the tree's counters, so it holds on
//! every page of the site where the same block appears.

use std::collections::HashMap;

use rusqlite::{OptionalExtension, params};

use super::{Store, StoreError, hash_to_sql};
use crate::page::BlockHash;

/// What a pin forces a block to be (the classifier's own verdict type).
pub use crate::urltree::Verdict as PinVerdict;

/// One pin as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pin {
    /// Row id (what `pith unpin` takes).
    pub id: i64,
    /// The registrable domain it applies to.
    pub domain: String,
    /// The pinned block's hash.
    pub hash: BlockHash,
    /// What the block is from now on.
    pub verdict: PinVerdict,
    /// The block's text (or image address) when it was pinned, to show in lists.
    pub text: String,
    /// Unix seconds.
    pub created: i64,
}

fn verdict_to_sql(verdict: PinVerdict) -> i64 {
    match verdict {
        PinVerdict::Content => 1,
        PinVerdict::Boilerplate => 0,
    }
}

fn verdict_from_sql(value: i64) -> PinVerdict {
    if value == 0 {
        PinVerdict::Boilerplate
    } else {
        PinVerdict::Content
    }
}

fn pin_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Pin> {
    let hash: i64 = r.get(2)?;
    Ok(Pin {
        id: r.get(0)?,
        domain: r.get(1)?,
        hash: BlockHash(hash.to_be_bytes()),
        verdict: verdict_from_sql(r.get(3)?),
        text: r.get(4)?,
        created: r.get(5)?,
    })
}

impl Store {
    /// Pins the block with `hash` on `domain`'s pages to `verdict`, replacing an earlier pin of the
    /// same block. Returns the pin's id.
    pub fn pin_add(
        &mut self,
        domain: &str,
        hash: BlockHash,
        verdict: PinVerdict,
        text: &str,
        now: i64,
    ) -> Result<i64, StoreError> {
        self.write(|tx| {
            tx.prepare_cached(
                "INSERT INTO pin (domain, hash, verdict, text, created) VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT (domain, hash) DO UPDATE
                 SET verdict = excluded.verdict, text = excluded.text, created = excluded.created",
            )?
            .execute(params![
                domain,
                hash_to_sql(&hash),
                verdict_to_sql(verdict),
                text,
                now
            ])?;
            Ok(tx
                .prepare_cached("SELECT id FROM pin WHERE domain = ?1 AND hash = ?2")?
                .query_row(params![domain, hash_to_sql(&hash)], |r| r.get(0))?)
        })
    }

    /// Removes a pin by id; false when there was none.
    pub fn pin_remove(&mut self, id: i64) -> Result<bool, StoreError> {
        self.write(|tx| {
            Ok(tx
                .prepare_cached("DELETE FROM pin WHERE id = ?1")?
                .execute([id])?
                > 0)
        })
    }

    /// One pin by id.
    pub fn pin(&self, id: i64) -> Result<Option<Pin>, StoreError> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT id, domain, hash, verdict, text, created FROM pin WHERE id = ?1",
            )?
            .query_row([id], pin_row)
            .optional()?)
    }

    /// Every pin, or those of one domain, by domain then age.
    pub fn pins(&self, domain: Option<&str>) -> Result<Vec<Pin>, StoreError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT id, domain, hash, verdict, text, created FROM pin
             WHERE ?1 IS NULL OR domain = ?1 ORDER BY domain, created, id",
        )?;
        let rows = stmt.query_map([domain], pin_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The pins of one domain by block hash, as the classifier applies them.
    pub fn pin_verdicts(&self, domain: &str) -> Result<HashMap<BlockHash, PinVerdict>, StoreError> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT hash, verdict FROM pin WHERE domain = ?1")?;
        let rows = stmt.query_map([domain], |r| {
            let hash: i64 = r.get(0)?;
            let verdict: i64 = r.get(1)?;
            Ok((BlockHash(hash.to_be_bytes()), verdict_from_sql(verdict)))
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pin_is_added_replaced_listed_and_removed() {
        let mut store = Store::open_in_memory().unwrap();
        let hash = BlockHash([1, 2, 3, 4, 5, 6, 7, 0xff]);
        let id = store
            .pin_add("example.com", hash, PinVerdict::Content, "Byline", 10)
            .unwrap();
        let again = store
            .pin_add("example.com", hash, PinVerdict::Boilerplate, "Byline", 11)
            .unwrap();
        assert_eq!(id, again, "one pin per block and site");
        store
            .pin_add("other.org", hash, PinVerdict::Content, "x", 12)
            .unwrap();
        let pins = store.pins(Some("example.com")).unwrap();
        assert_eq!(pins.len(), 1);
        assert_eq!(pins[0].hash, hash);
        assert_eq!(pins[0].verdict, PinVerdict::Boilerplate);
        assert_eq!(store.pins(None).unwrap().len(), 2);
        let verdicts = store.pin_verdicts("example.com").unwrap();
        assert_eq!(verdicts.get(&hash), Some(&PinVerdict::Boilerplate));
        assert!(store.pin_remove(id).unwrap());
        assert!(!store.pin_remove(id).unwrap());
        assert!(store.pin(id).unwrap().is_none());
        assert!(store.pin_verdicts("example.com").unwrap().is_empty());
    }
}
