//! `pith backup` and `pith restore`: a consistent copy of the database, and putting one back.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use pith::store::Store;

use super::open::{db_path, open_store};

/// Writes a consistent copy of the database to `file` and says how to restore it.
pub fn backup(db: Option<PathBuf>, file: &Path) -> Result<()> {
    let store = open_store(db)?;
    store
        .backup(file)
        .with_context(|| format!("backing up to {}", file.display()))?;
    let size = std::fs::metadata(file).map(|m| m.len()).unwrap_or(0);
    outln!(
        "backed up to {} ({}); restore it with `pith restore {}`",
        file.display(),
        pith::fetch::human_bytes(size),
        file.display()
    );
    Ok(())
}

/// Puts the backup `file` in place of the database, then opens it (upgrading an older schema).
pub fn restore(db: Option<PathBuf>, file: &Path) -> Result<()> {
    let path = db_path(db)?;
    let done = pith::store::restore(&path, file)
        .with_context(|| format!("restoring {} from {}", path.display(), file.display()))?;
    // Opening upgrades an older backup's schema now, so that a problem shows here.
    let store = Store::open(&path)
        .with_context(|| format!("opening the restored database {}", path.display()))?;
    let version = store.schema_version()?;
    outln!("restored {} from {}", path.display(), file.display());
    if done.backup_version < version {
        outln!(
            "  its schema was upgraded from version {} to {version}",
            done.backup_version
        );
    }
    if let Some(old) = done.previous_moved_to {
        outln!(
            "  the database that was in place is kept as {}",
            old.display()
        );
    }
    Ok(())
}
