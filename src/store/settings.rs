//! The window's settings (refresh interval, text size, pane widths), kept in the database so that
//! they travel with it: a name and its value as text, which the window parses and bounds.

use rusqlite::{Connection, OptionalExtension, params};

use super::{Store, StoreError};

impl Store {
    /// The value stored under `key`, if any.
    pub fn setting(&self, key: &str) -> Result<Option<String>, StoreError> {
        Ok(self
            .conn
            .prepare_cached("SELECT value FROM setting WHERE key = ?1")?
            .query_row([key], |r| r.get(0))
            .optional()?)
    }

    /// Stores `value` under `key`, replacing what was there.
    pub fn set_setting(&mut self, key: &str, value: &str) -> Result<(), StoreError> {
        self.write(|tx| write_setting(tx, key, value))
    }
}

/// Stores `value` under `key` in the transaction `tx`, replacing what was there: for a setting
/// that must change together with other writes.
pub(super) fn write_setting(tx: &Connection, key: &str, value: &str) -> Result<(), StoreError> {
    tx.prepare_cached(
        "INSERT INTO setting (key, value) VALUES (?1, ?2)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    )?
    .execute(params![key, value])?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::store::Store;

    #[test]
    fn a_setting_is_stored_replaced_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(&dir.path().join("s.db")).unwrap();
        assert_eq!(store.setting("refresh_minutes").unwrap(), None);
        store.set_setting("refresh_minutes", "30").unwrap();
        store.set_setting("refresh_minutes", "45").unwrap();
        assert_eq!(
            store.setting("refresh_minutes").unwrap().as_deref(),
            Some("45")
        );
    }
}
