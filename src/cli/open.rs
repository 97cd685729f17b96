//! What most commands open first: the database (named or in its default place), the engine with
//! the user's own query rules, and a feed named by id or URL.

use std::path::PathBuf;

use anyhow::{Context, Result};
use pith::extract::Engine;
use pith::store::{self, FeedInfo, Store, StoreError};
use pith::urlkey::QueryRules;

/// The database file in the platform's data directory, its folder created on first use.
fn default_db() -> Result<PathBuf> {
    let dir = dirs::data_dir().context(
        "cannot find the platform's data directory (set HOME or XDG_DATA_HOME, or pass --db)",
    )?;
    // pith's own data folder is created on a fresh machine; a folder named with --db is not.
    let dir = dir.join("pith");
    std::fs::create_dir_all(&dir)
        .with_context(|| format!("creating pith's data folder {}", dir.display()))?;
    Ok(dir.join("pith.db"))
}

/// The engine with the user's own query rules (in the config directory) tried before the built-ins.
pub fn engine() -> Result<Engine> {
    let mut engine = Engine::default();
    if let Some(path) = dirs::config_dir().map(|d| d.join("pith").join("query-rules.txt"))
        && path.exists()
    {
        let user = QueryRules::load_file(&path)
            .with_context(|| format!("in your query rules {}", path.display()))?;
        engine.rules.extend_front(user);
    }
    Ok(engine)
}

/// The database file: `--db` (or `PITH_DB`) when given, else the default one.
pub fn db_path(db: Option<PathBuf>) -> Result<PathBuf> {
    match db {
        Some(p) => Ok(p),
        None => default_db(),
    }
}

/// Opens the database (see [`db_path`]), naming the file in any error.
pub fn open_store(db: Option<PathBuf>) -> Result<Store> {
    let path = db_path(db)?;
    Store::open(&path).with_context(|| format!("opening the database {}", path.display()))
}

/// Opens the database for a command that only reads it (a list, a search, an export), read-only
/// and without the integrity check an opening for writing runs first: the check reads the whole
/// file (20 s at 300 feeds' steady size) and reading cannot damage it ([`Store::open_to_read`]).
/// Damage the reading meets, its header's included, is SQLite's error, which `main` explains
/// ([`reads_damage`]); the next command that writes checks the file and moves a damaged one
/// aside. A file that must be written before it can be read (new, or of an older schema) is
/// checked and opened as [`open_store`] does.
pub fn open_store_to_read(db: Option<PathBuf>) -> Result<Store> {
    let path = db_path(db)?;
    Store::open_to_read(&path).with_context(|| format!("opening the database {}", path.display()))
}

/// True when `e` is SQLite finding the database file damaged while a command read it.
pub fn reads_damage(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        let sqlite = cause.downcast_ref::<rusqlite::Error>().or_else(|| {
            match cause.downcast_ref::<StoreError>() {
                Some(StoreError::Sqlite(error) | StoreError::Open { error, .. }) => Some(error),
                _ => None,
            }
        });
        sqlite.is_some_and(store::is_damage)
    })
}

/// The subscription with id or URL `spec`, or an error that says where to look.
pub fn find_feed(store: &Store, spec: &str) -> Result<FeedInfo> {
    store
        .feed_find(spec)?
        .with_context(|| format!("no subscription with id or URL {spec:?} (see `pith feeds`)"))
}
