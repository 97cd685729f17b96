//! `pith` with no command: the window, on the same database and engine as the commands.

use std::path::PathBuf;

use anyhow::Result;

/// Opens the window on the database `db`; `loopback_only` keeps its fetches on the loopback
/// address, as for `pith refresh` (tests and benchmarks).
#[cfg(feature = "window")]
pub fn window(db: Option<PathBuf>, loopback_only: bool) -> Result<()> {
    let mut config = pith::ui::Config::new(super::open::db_path(db)?);
    config.engine = super::open::engine()?;
    config.fetch.loopback_only = loopback_only;
    pith::ui::run(config).map_err(|e| anyhow::anyhow!("the window could not open: {e}"))
}

/// In a build without the window: say how to get one.
#[cfg(not(feature = "window"))]
pub fn window(_db: Option<PathBuf>, _loopback_only: bool) -> Result<()> {
    anyhow::bail!(
        "this pith was built without the window (cargo feature `window`); run a command (see `pith --help`) or rebuild with default features"
    )
}
