//! Pins as the window uses them: a block of a site pinned "always content" or "always boilerplate".
//! A thin layer over the store's pin calls, so the window's code names one thing.

use crate::page::BlockHash;
use crate::store::{Store, StoreError};

pub use crate::store::{Pin as PinRow, PinVerdict};

/// The pins of `domain`.
pub fn list(store: &Store, domain: &str) -> Result<Vec<PinRow>, StoreError> {
    store.pins(Some(domain))
}

/// Pins a block of `domain` (replacing an earlier pin of the same block); the pin's id.
pub fn add(
    store: &mut Store,
    domain: &str,
    hash: BlockHash,
    verdict: PinVerdict,
    text: &str,
    now: i64,
) -> Result<i64, StoreError> {
    store.pin_add(domain, hash, verdict, text, now)
}

/// Removes a pin; false when there was none.
pub fn remove(store: &mut Store, id: i64) -> Result<bool, StoreError> {
    store.pin_remove(id)
}
