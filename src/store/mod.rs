//! The one place with SQL: pith's SQLite database (schema in `schema.sql`), its upgrades, and the
//! transactions that keep it consistent. One file per entity: feeds, entries, items, pages,
//! images, search, pins, the URL Tree (`tree`), item lists' rows (`item_rows`), backups
//! (`maintenance`), and the store's own binary forms (`codecs`). The store keeps bytes and counts:
//! what the engine's blobs mean (an article's record of labelled blocks, a site's memory) is
//! decided in `classify`, which nothing here imports.

use std::path::{Path, PathBuf};

use rusqlite::config::DbConfig;
use rusqlite::{Connection, TransactionBehavior};

/// The schema this build writes (SQLite `user_version`).
pub const SCHEMA_VERSION: i64 = 6;

mod codecs;
mod entries;
mod feeds;
mod images;
mod item_rows;
mod items;
mod maintenance;
mod pages;
mod pins;
mod retention;
mod search;
mod settings;
mod space;
mod tree;

pub use maintenance::{
    CheckFailed, DamagedFile, IntegrityCheck, Restored, is_damage, open_connections, restore,
    verify_backup,
};

pub use codecs::PageBytes;
pub(crate) use codecs::{hash_to_sql, pack_hashes, unpack_hashes};
pub use entries::EntryRef;
pub use feeds::{FeedId, FeedInfo};
pub use images::{NewImage, StoredImage};
pub use item_rows::{ItemRow, ListKey};
pub use items::{ItemFilter, ItemId, ItemInfo, ItemScope, NewArticle, NewItem, Stored};
pub use pages::StoredPage;
pub use pins::{Pin, PinVerdict};
pub use retention::{Retention, SweepLimits, Swept};
pub use search::{ReindexItem, SEARCH_FORM, SEARCH_RANKED, SearchHit, snippet};
pub use space::{ItemTally, SpacePart, SpaceReport};
pub use tree::{CountsAt, DocId, MemoryRead, MemoryRecord, TreeDocument, TreeInsert, TreeNodeInfo};

const SCHEMA_SQL: &str = include_str!("../../schema.sql");

/// The in-place upgrades: entry `i` turns a version `i + 1` file into version `i + 2`. A schema
/// change appends its `ALTER TABLE`s here, bumps [`SCHEMA_VERSION`] and edits `schema.sql` (which
/// fresh files run) to the same result.
const MIGRATIONS: &[&str] = &[
    // 1 → 2: feed folders from OPML, and the user's pins.
    "ALTER TABLE feed ADD COLUMN folder TEXT;
     CREATE TABLE IF NOT EXISTS pin (
         id      INTEGER PRIMARY KEY,
         domain  TEXT    NOT NULL,
         hash    INTEGER NOT NULL,
         verdict INTEGER NOT NULL,
         text    TEXT    NOT NULL,
         created INTEGER NOT NULL,
         UNIQUE (domain, hash)
     );",
    // 2 → 3: the hashes in one document of a domain are kept once per domain; the counters are
    // then rebuilt from the documents (`tree::rebuild_counters`, run by `migrate`).
    "CREATE TABLE IF NOT EXISTS tree_single (
         domain INTEGER NOT NULL,
         hash   INTEGER NOT NULL,
         doc    INTEGER NOT NULL,
         PRIMARY KEY (domain, hash)
     ) WITHOUT ROWID;",
    // 3 → 4: the user's own name for a feed, and the window's settings.
    "ALTER TABLE feed ADD COLUMN name TEXT;
     CREATE TABLE IF NOT EXISTS setting (
         key   TEXT PRIMARY KEY,
         value TEXT NOT NULL
     ) WITHOUT ROWID;",
    // 4 → 5: the indexes the retention policy walks (items by age, pages by fetch time, images
    // by URL). An upgraded file keeps auto_vacuum off (turning it on needs a VACUUM, which
    // `pith cleanup --vacuum` runs): the pages retention frees are reused by the next refresh.
    // It also records when an item was marked read (`read_at`), so that a read item's period
    // runs from its reading: an old unread item read today is not deleted at the next refresh.
    // Items read before the upgrade count as read at the upgrade. And the full-text index loses
    // its copy of the text and its word positions (see schema.sql).
    "ALTER TABLE item ADD COLUMN read_at INTEGER;
     UPDATE item SET read_at = unixepoch() WHERE read = 1;
     CREATE INDEX IF NOT EXISTS item_for_retention ON item (starred, read, added);
     CREATE INDEX IF NOT EXISTS page_by_fetched ON page (fetched);
     CREATE INDEX IF NOT EXISTS item_image_by_url ON item_image (url);
     -- The full-text index without its own copy of the text (see schema.sql), rebuilt from the
     -- old index's copy so that every article stays searchable.
     CREATE VIRTUAL TABLE item_fts_v5 USING fts5 (
         title, body, content = '', contentless_delete = 1, detail = column,
         tokenize = 'unicode61 remove_diacritics 2'
     );
     INSERT INTO item_fts_v5 (rowid, title, body) SELECT rowid, title, body FROM item_fts;
     DROP TABLE item_fts;
     ALTER TABLE item_fts_v5 RENAME TO item_fts;",
    // 5 → 6: the indexes item lists are paged through, newest first (see schema.sql). Built
    // once from the item table, when the file is first opened after the check (5.4 s, check
    // included, on a 368,000-item file of 463 MB).
    "CREATE INDEX IF NOT EXISTS item_by_date ON item (coalesce(published, added));
     CREATE INDEX IF NOT EXISTS item_unread_by_date ON item (coalesce(published, added))
         WHERE read = 0;
     CREATE INDEX IF NOT EXISTS item_starred_by_date ON item (coalesce(published, added))
         WHERE starred = 1;",
];

/// A database operation that failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database file could not be opened or initialised.
    #[error("cannot open database {path}: {error}")]
    Open {
        /// The file.
        path: PathBuf,
        /// What SQLite said (in the message, and so not also a `source`: a chain printed whole
        /// would say it twice).
        error: rusqlite::Error,
    },
    /// The file was written by a newer pith whose schema this build does not know.
    #[error(
        "database schema version {found} is newer than this pith understands ({supported}); use a newer pith"
    )]
    TooNew {
        /// The version in the file.
        found: i64,
        /// The newest version this build knows.
        supported: i64,
    },
    /// A stored value is not what the schema promises (e.g. a hash blob of odd length).
    #[error("database is inconsistent: {0}")]
    Corrupt(String),
    /// `PRAGMA quick_check` failed when the file was opened, or SQLite cannot read it as a
    /// database. The file was moved aside (never deleted) and pith does not open it.
    #[error(
        "the database {path} is damaged ({problems}). {}To go on: restore a backup with `pith restore BACKUP_FILE`, or run pith again to start with a new, empty database.",
        match moved_to {
            Some(to) => format!("It was moved to {} (kept, not deleted). ", to.display()),
            None => String::new(),
        }
    )]
    Damaged {
        /// The database file.
        path: PathBuf,
        /// Where the damaged file now is (`None` if it could not be moved).
        moved_to: Option<PathBuf>,
        /// What the check reported.
        problems: String,
    },
    /// The file is not an SQLite database at all (an OPML file, a text file passed as `--db`):
    /// pith neither opens nor moves it.
    #[error(
        "{path} is not an SQLite database (it was left as it is); pass the pith database with --db, or a new file name to start one"
    )]
    NotADatabase {
        /// The file.
        path: PathBuf,
    },
    /// The folder the database should be in does not exist: pith creates only its own data
    /// folder, never one named by mistake.
    #[error("the folder {dir} does not exist; create it first, or pass another --db path")]
    NoFolder {
        /// The missing folder.
        dir: PathBuf,
    },
    /// The file may only be read (it is write-protected): nothing can be stored in it.
    #[error(
        "the database {path} is read-only (attempt to write a readonly database); make it writable to refresh"
    )]
    ReadOnly {
        /// The file.
        path: PathBuf,
    },
    /// A backup or restore could not be done.
    #[error("{0}")]
    Maintenance(String),
    /// Any other SQLite error (in the message, and so not also a `source`).
    #[error("database error: {0}")]
    Sqlite(rusqlite::Error),
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        StoreError::Sqlite(e)
    }
}

/// An open pith database.
pub struct Store {
    conn: Connection,
    /// Whether writes are batched ([`Store::begin_batch`]).
    batching: bool,
    /// The open batch's transaction, between a batch's first write and its commit.
    open_batch: Option<OpenBatch>,
    /// The file this connection is counted open on (`maintenance::OPEN_CONNECTIONS`); `None`
    /// in memory.
    file: Option<PathBuf>,
}

/// How [`Store::open_check_later`] opened a file.
#[derive(Debug)]
pub enum Opening {
    /// Checked before it was opened, as [`Store::open`] does, and open for reading and writing:
    /// the file was new, already checked by this process, or needed a write before it could be
    /// read (a schema upgrade, a journal not yet in WAL mode).
    Checked(Store),
    /// Open read-only and not checked yet: run the check (on a thread of its own) while this
    /// connection reads, and write only through a connection opened after it passed.
    Unchecked(Store, IntegrityCheck),
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").field("file", &self.file).finish()
    }
}

impl Store {
    /// Opens (creating if needed) the database at `path`, in WAL mode, upgrading its schema.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let open_err = |error| StoreError::Open {
            path: path.to_path_buf(),
            error,
        };
        refuse_unusable(path)?;
        let conn = Connection::open(path).map_err(open_err)?;
        // Before anything else reads the file: a damaged one is moved aside and refused.
        let conn = maintenance::check_on_open(conn, path)?;
        // Before the first table (and before WAL mode writes the header): a new file keeps the
        // pages retention frees in a list that `PRAGMA incremental_vacuum` gives back to the file
        // system in bounded steps (`retention::release_free_pages`).
        retention::incremental_vacuum_if_new(&conn).map_err(open_err)?;
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(open_err)?;
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(open_err)?;
        conn.busy_timeout(std::time::Duration::from_secs(30))
            .map_err(open_err)?;
        tune(&conn).map_err(open_err)?;
        Store::init(conn)
    }

    /// Opens the database at `path` for reading before its integrity check, which the caller runs
    /// apart ([`IntegrityCheck::run`], on a thread of its own): the window shows its lists while
    /// a large file is checked. The connection is read-only, so SQLite itself refuses any write
    /// through it; writes go through a connection opened after the check passed. A file that
    /// cannot be read without a write first (new, an older schema, not yet in WAL mode) or that
    /// this process checked already is opened as [`Store::open`] does, checked first.
    pub fn open_check_later(path: &Path) -> Result<Opening, StoreError> {
        Store::open_unchecked(path, true)
    }

    /// Opens the database at `path` read-only and unchecked, for a command that only reads it:
    /// the integrity check reads the whole file, and reading cannot damage it. A file whose
    /// header SQLite cannot read is refused as it is ([`StoreError::Open`]), never moved aside:
    /// only an opening for writing moves a damaged file. A file that must be written before it
    /// can be read (new, an older schema, not yet in WAL mode) is opened as [`Store::open`]
    /// does, checked first, as a writing command would.
    pub fn open_to_read(path: &Path) -> Result<Store, StoreError> {
        match Store::open_unchecked(path, false)? {
            Opening::Checked(store) | Opening::Unchecked(store, _) => Ok(store),
        }
    }

    /// [`Store::open_check_later`], which moves a file with a damaged header aside when
    /// `move_damaged`, and [`Store::open_to_read`], which leaves it.
    fn open_unchecked(path: &Path, move_damaged: bool) -> Result<Opening, StoreError> {
        refuse_unusable(path)?;
        let has_data = std::fs::metadata(path).is_ok_and(|m| m.len() > 0);
        if !has_data || maintenance::was_checked(path) {
            return Store::open(path).map(Opening::Checked);
        }
        let open_err = |error| StoreError::Open {
            path: path.to_path_buf(),
            error,
        };
        let flags =
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags).map_err(open_err)?;
        // The file's header says whether it can be read as it is; a damaged header is damage.
        let as_is = (|| {
            let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
            let journal: String = conn.pragma_query_value(None, "journal_mode", |r| r.get(0))?;
            Ok::<_, rusqlite::Error>(
                version == SCHEMA_VERSION && journal.eq_ignore_ascii_case("wal"),
            )
        })();
        match as_is {
            Ok(true) => {}
            Ok(false) => {
                drop(conn);
                return Store::open(path).map(Opening::Checked);
            }
            Err(e) if move_damaged && maintenance::is_damage(&e) => {
                drop(conn);
                return Err(IntegrityCheck::damaged_file(path, e.to_string()).move_aside());
            }
            Err(e) => return Err(open_err(e)),
        }
        conn.busy_timeout(std::time::Duration::from_secs(30))
            .map_err(open_err)?;
        let store = Store::init(conn)?;
        Ok(Opening::Unchecked(store, IntegrityCheck::new(path)))
    }

    /// Opens a fresh database in memory (evaluation runs and tests).
    pub fn open_in_memory() -> Result<Store, StoreError> {
        Store::init(Connection::open_in_memory()?)
    }

    fn init(mut conn: Connection) -> Result<Store, StoreError> {
        // A refresh writes from several connections (one per worker). A deferred transaction that
        // reads first and writes later cannot wait for the write lock (SQLite returns BUSY at once
        // when another connection wrote in between), so every transaction takes the write lock up
        // front and waits for it under the busy timeout.
        conn.set_transaction_behavior(TransactionBehavior::Immediate);
        // One refresh step (tree insert, classification, storing) uses a few dozen distinct
        // statements; with rusqlite's default cache of 16 they evicted one another and SQLite
        // re-parsed them on every page (perf: 5% of a whole benchmark run in sqlite3Prepare).
        conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
        // SQLite otherwise marks a statement whose plan could depend on a bound value (a `LIMIT ?`,
        // an `OFFSET ?`) to be compiled again whenever that value is bound, cache or no cache: the
        // history window's `OFFSET ?` was re-prepared on every tree insert (callgrind: a tenth of
        // an insert at 10,000 pages). Our plans never depend on the values.
        conn.set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG, true)?;
        // `rarray(?)`: the URL Tree binds a document's hashes as one array.
        rusqlite::vtab::array::load_module(&conn)?;
        // The queue of full-text rows written with the transaction's commit (`search::insert_fts`),
        // kept in memory (a batch's article texts) rather than in a temporary file.
        conn.pragma_update(None, "temp_store", "MEMORY")?;
        conn.execute_batch(
            "CREATE TEMP TABLE IF NOT EXISTS fts_pending (
                 rowid INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT NOT NULL)",
        )?;
        let file = conn
            .path()
            .filter(|p| !p.is_empty())
            .map(|p| maintenance::file_key(Path::new(p)));
        if let Some(key) = &file {
            maintenance::connection_opened(key);
        }
        let mut store = Store {
            conn,
            batching: false,
            open_batch: None,
            file,
        };
        store.migrate()?;
        Ok(store)
    }

    /// Gives this connection a larger page cache, for a refresh worker: inserting a page's block
    /// hashes touches counters all over the URL Tree's tables, and the default 2 MB cache turns
    /// that into reads of the same pages again and again.
    pub fn tune_for_refresh(&self) -> Result<(), StoreError> {
        self.conn.pragma_update(
            None,
            "cache_size",
            -(crate::limits::REFRESH_CACHE_KB as i64),
        )?;
        Ok(())
    }

    /// Fails when the file can only be read (SQLite opens a write-protected file read-only), so
    /// that a refresh says so before it fetches anything it could not store.
    pub fn check_writable(&self) -> Result<(), StoreError> {
        if self.conn.is_readonly(rusqlite::MAIN_DB)? {
            return Err(StoreError::ReadOnly {
                path: PathBuf::from(self.conn.path().unwrap_or("")),
            });
        }
        Ok(())
    }

    /// The schema version of the open file.
    pub fn schema_version(&self) -> Result<i64, StoreError> {
        Ok(self
            .conn
            .pragma_query_value(None, "user_version", |r| r.get(0))?)
    }

    fn migrate(&mut self) -> Result<(), StoreError> {
        let found = self.schema_version()?;
        if found > SCHEMA_VERSION {
            return Err(StoreError::TooNew {
                found,
                supported: SCHEMA_VERSION,
            });
        }
        if found == SCHEMA_VERSION {
            return Ok(());
        }
        let tx = self.conn.transaction()?;
        if found == 0 {
            tx.execute_batch(SCHEMA_SQL)?;
        } else {
            // Upgrades in place: MIGRATIONS[i] takes a file from version i + 1 to i + 2.
            for step in MIGRATIONS
                .iter()
                .skip(usize::try_from(found - 1).unwrap_or(0))
            {
                tx.execute_batch(step)?;
            }
            if found < 3 {
                tree::rebuild_counters(&tx)?;
            }
        }
        tx.pragma_update(None, "user_version", SCHEMA_VERSION)?;
        tx.commit()?;
        Ok(())
    }

    /// Moves everything in the write-ahead log into the database file and truncates the log: a
    /// long refresh from many connections lets the log grow, since readers keep it from being
    /// reset while they run.
    pub fn checkpoint(&self) -> Result<(), StoreError> {
        self.conn
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
        Ok(())
    }

    /// Runs `read` inside one read transaction when no transaction is open (else inside the open
    /// one): its statements then see one state of the file, which a refresh writing from another
    /// connection between them cannot split, and SQLite starts and ends a transaction once
    /// rather than once per statement (a tenth of the site step's reads in `pith eval`). `read`
    /// only reads: a `&Store` has no way to write.
    pub fn read_snapshot<T, E: From<StoreError>>(
        &self,
        read: impl FnOnce() -> Result<T, E>,
    ) -> Result<T, E> {
        if !self.conn.is_autocommit() {
            return read();
        }
        self.conn
            .prepare_cached("BEGIN DEFERRED")
            .and_then(|mut begin| begin.execute([]))
            .map_err(StoreError::from)?;
        let value = read();
        // Nothing to keep or undo: ending the transaction only lets the file move on.
        let ended = self
            .conn
            .prepare_cached("COMMIT")
            .and_then(|mut commit| commit.execute([]));
        let value = value?;
        ended.map_err(StoreError::from)?;
        Ok(value)
    }

    /// Runs `f` inside one transaction: everything it writes lands together or not at all.
    ///
    /// While batching ([`Store::begin_batch`]) the transaction is the batch's (opened by the
    /// first write of each batch), and `f` runs in a savepoint of it, so that a failing write
    /// still undoes only itself.
    pub(crate) fn write<T>(
        &mut self,
        f: impl FnOnce(&Connection) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        if self.batching {
            if self.open_batch.is_none() {
                let turn = WriteTurn::take(self.conn.path());
                self.conn.execute_batch("BEGIN IMMEDIATE")?;
                self.open_batch = Some(OpenBatch {
                    writes: 0,
                    started: std::time::Instant::now(),
                    _turn: turn,
                });
            }
            if let Some(open) = &mut self.open_batch {
                open.writes += 1;
            }
            // By hand rather than `Connection::savepoint`, whose statements are parsed anew on
            // every write; these come from the statement cache.
            let savepoint = WriteSavepoint::open(&self.conn)?;
            let value = f(&self.conn)?;
            savepoint.release()?;
            return Ok(value);
        }
        // Connections of one process (a refresh and the window) queue here rather than in
        // SQLite's busy handler, which sleeps in fixed steps and leaves the write lock idle.
        let _turn = WriteTurn::take(self.conn.path());
        let tx = self.conn.transaction()?;
        let value = f(&tx)?;
        search::flush_fts(&tx)?;
        tx.commit()?;
        Ok(value)
    }

    /// Starts batching: the writes that follow share one transaction until the batch commits
    /// ([`Store::commit_batch_if_due`], [`Store::commit_batch`]), so that SQLite writes each
    /// changed page (the site's template counters, the full-text index's segment) once per batch
    /// instead of once per write. Reads on this connection see the batch; other connections see it
    /// when it commits. The transaction (and this process's turn to write) is taken by a batch's
    /// first write and given back at its commit, so an idle batcher keeps nobody waiting. A crash
    /// before a commit loses that batch's writes and nothing else.
    pub fn begin_batch(&mut self) {
        self.batching = true;
    }

    /// Commits the open batch, if any, and stops batching.
    pub fn commit_batch(&mut self) -> Result<(), StoreError> {
        self.commit_open()?;
        self.batching = false;
        Ok(())
    }

    /// Commits the open batch once it holds `max_writes` writes or its first write is `max_age`
    /// old, and goes on batching; returns whether it committed.
    pub fn commit_batch_if_due(
        &mut self,
        max_writes: usize,
        max_age: std::time::Duration,
    ) -> Result<bool, StoreError> {
        let due = self
            .open_batch
            .as_ref()
            .is_some_and(|o| o.writes >= max_writes || o.started.elapsed() >= max_age);
        if due {
            self.commit_open()?;
        }
        Ok(due)
    }

    /// Whether writes are being batched.
    pub fn in_batch(&self) -> bool {
        self.batching
    }

    fn commit_open(&mut self) -> Result<(), StoreError> {
        if self.open_batch.is_some() {
            search::flush_fts(&self.conn)?;
            self.conn.execute_batch("COMMIT")?;
            // Gives the turn back.
            self.open_batch = None;
        }
        Ok(())
    }
}

/// One write inside a batch: a savepoint that [`WriteSavepoint::release`] keeps and that is rolled
/// back when dropped otherwise (the write failed or panicked), so that only this write is undone.
struct WriteSavepoint<'c> {
    conn: &'c Connection,
    released: bool,
}

impl<'c> WriteSavepoint<'c> {
    fn open(conn: &'c Connection) -> Result<WriteSavepoint<'c>, StoreError> {
        conn.prepare_cached("SAVEPOINT pith_write")?.execute([])?;
        Ok(WriteSavepoint {
            conn,
            released: false,
        })
    }

    fn release(mut self) -> Result<(), StoreError> {
        self.conn
            .prepare_cached("RELEASE pith_write")?
            .execute([])?;
        self.released = true;
        Ok(())
    }
}

impl Drop for WriteSavepoint<'_> {
    fn drop(&mut self) {
        if !self.released {
            let _ = self
                .conn
                .execute_batch("ROLLBACK TO pith_write; RELEASE pith_write");
        }
    }
}

/// A batch's open transaction.
struct OpenBatch {
    writes: usize,
    started: std::time::Instant,
    _turn: WriteTurn,
}

impl Drop for Store {
    fn drop(&mut self) {
        // A batch still open when its connection goes is committed: its writes were each
        // complete, and the caller only forgot the last commit (or unwound past it).
        let _ = self.commit_open();
        if let Some(key) = &self.file {
            // Counted closed before the connection itself closes (fields drop after this): a
            // damaged file is moved only by the thread that dropped its last store, after it did.
            maintenance::connection_closed(key);
        }
    }
}

/// Refuses, before SQLite touches it, a path whose folder does not exist (pith creates only its
/// own data folder) and a file that is not an SQLite database (never opened, never moved).
fn refuse_unusable(path: &Path) -> Result<(), StoreError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
        && !dir.is_dir()
    {
        return Err(StoreError::NoFolder {
            dir: dir.to_path_buf(),
        });
    }
    if !maintenance::is_sqlite_or_empty(path) {
        return Err(StoreError::NotADatabase {
            path: path.to_path_buf(),
        });
    }
    Ok(())
}

/// Performance settings of a file database's connection (the speed work of issue 7; kept apart
/// from the settings that make the file correct).
///
/// `wal_autocheckpoint`: SQLite copies the write-ahead log back into the database file (with an
/// fsync) once the log holds 1,000 pages by default. A URL Tree insert into a large site's tree
/// writes a few dozen scattered pages, so the default checkpoints every few dozen inserts, copying
/// back mostly the same pages each time. A larger log (about 64 MB) lets one copy serve
/// many inserts; a refresh truncates it when it ends ([`Store::checkpoint`]).
fn tune(conn: &Connection) -> rusqlite::Result<()> {
    conn.pragma_update(None, "wal_autocheckpoint", crate::limits::REFRESH_WAL_PAGES)
}

/// Prepared statements kept per connection: more than the store has (about 80 call sites), so
/// none is prepared twice.
const STATEMENT_CACHE: usize = 128;

/// This process's turn to write one database file (see [`Store::write`]): held for one
/// transaction, or for a batch's from its first write to its commit. Not a `MutexGuard`, because a
/// batch holds it across calls and the refresh's connection moves between threads.
struct WriteTurn {
    /// The file whose turn this is; `None` when none was taken (a database in memory is private
    /// to its connection, and a turn not given within [`TURN_WAIT`] is not waited for longer).
    file: Option<String>,
}

/// The files some connection of this process holds the turn of, and the condition waiters wait on.
static WRITE_TURNS: (std::sync::Mutex<Vec<String>>, std::sync::Condvar) =
    (std::sync::Mutex::new(Vec::new()), std::sync::Condvar::new());

/// How long a write waits for its turn before going ahead and leaving the wait to SQLite's busy
/// timeout: a turn held on the same thread (two stores of one file written alternately while one
/// batches) must not hang the process.
const TURN_WAIT: std::time::Duration = std::time::Duration::from_secs(30);

impl WriteTurn {
    /// Waits for the turn to write `file` and takes it; dropping the value gives it back.
    fn take(file: Option<&str>) -> WriteTurn {
        let Some(file) = file.filter(|f| !f.is_empty()) else {
            return WriteTurn { file: None };
        };
        // Poisoning is ignored: the list is only ever changed whole.
        let (held, free) = &WRITE_TURNS;
        let deadline = std::time::Instant::now() + TURN_WAIT;
        let mut held = held.lock().unwrap_or_else(|e| e.into_inner());
        while held.iter().any(|h| h == file) {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                return WriteTurn { file: None };
            }
            held = free
                .wait_timeout(held, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        held.push(file.to_string());
        WriteTurn {
            file: Some(file.to_string()),
        }
    }
}

impl Drop for WriteTurn {
    fn drop(&mut self) {
        if let Some(file) = &self.file {
            let (held, free) = &WRITE_TURNS;
            held.lock()
                .unwrap_or_else(|e| e.into_inner())
                .retain(|h| h != file);
            free.notify_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_newer_schema_is_refused_and_the_file_is_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pith.db");
        {
            let store = Store::open(&path).unwrap();
            assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
            store
                .conn
                .pragma_update(None, "user_version", SCHEMA_VERSION + 1)
                .unwrap();
        }
        let err = Store::open(&path).unwrap_err();
        assert!(matches!(err, StoreError::TooNew { .. }), "{err}");
        assert!(path.exists());
    }

    fn feed_urls(store: &Store) -> Vec<String> {
        store.feeds().unwrap().into_iter().map(|f| f.url).collect()
    }

    #[test]
    fn a_batch_is_seen_by_its_connection_at_once_and_by_others_when_it_commits() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pith.db");
        let mut writer = Store::open(&path).unwrap();
        let reader = Store::open(&path).unwrap();
        writer.begin_batch();
        assert!(writer.in_batch());
        writer
            .feed_add("http://a.test/feed", None, None, 1)
            .unwrap();
        assert_eq!(feed_urls(&writer), ["http://a.test/feed"]);
        assert!(feed_urls(&reader).is_empty(), "not committed yet");

        // A write that fails inside the batch undoes itself and nothing before it.
        let failed = writer.write(|c| {
            c.execute(
                "INSERT INTO feed (url, added) VALUES ('http://b.test/feed', 2)",
                [],
            )?;
            Err::<(), _>(StoreError::Corrupt("refused on purpose".into()))
        });
        assert!(failed.is_err());
        assert_eq!(feed_urls(&writer), ["http://a.test/feed"]);

        writer.commit_batch().unwrap();
        assert!(!writer.in_batch());
        assert_eq!(feed_urls(&reader), ["http://a.test/feed"]);
    }

    /// What a classification reads inside `read_snapshot` is one state of the file: a write from
    /// another connection meanwhile is seen only after it. Inside an open batch the batch's own
    /// transaction serves, and nothing is nested.
    #[test]
    fn a_read_snapshot_sees_one_state_of_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pith.db");
        let mut writer = Store::open(&path).unwrap();
        let reader = Store::open(&path).unwrap();
        writer
            .feed_add("http://a.test/feed", None, None, 1)
            .unwrap();
        let (inside, after_write) = reader
            .read_snapshot(|| {
                let first = feed_urls(&reader);
                writer.feed_add("http://b.test/feed", None, None, 1)?;
                Ok::<_, StoreError>((first, feed_urls(&reader)))
            })
            .unwrap();
        assert_eq!(inside, ["http://a.test/feed"]);
        assert_eq!(
            after_write, inside,
            "the other connection's write is not seen inside"
        );
        assert_eq!(feed_urls(&reader).len(), 2, "and is seen after");
        assert!(reader.conn.is_autocommit(), "the read transaction ended");
        // An error inside ends the transaction too, and comes out as it was.
        let failed: Result<(), StoreError> =
            reader.read_snapshot(|| Err(StoreError::Corrupt("on purpose".into())));
        assert!(matches!(failed, Err(StoreError::Corrupt(_))));
        assert!(reader.conn.is_autocommit());
        // Inside a batch: the batch's transaction, left open.
        writer.begin_batch();
        writer
            .feed_add("http://c.test/feed", None, None, 1)
            .unwrap();
        let seen = writer
            .read_snapshot(|| Ok::<_, StoreError>(feed_urls(&writer).len()))
            .unwrap();
        assert_eq!(seen, 3);
        assert!(writer.in_batch() && !writer.conn.is_autocommit());
        writer.commit_batch().unwrap();
    }

    #[test]
    fn a_batch_commits_when_due_and_when_its_store_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pith.db");
        let reader = Store::open(&path).unwrap();
        let long = std::time::Duration::from_secs(3600);
        {
            let mut writer = Store::open(&path).unwrap();
            writer.begin_batch();
            writer
                .feed_add("http://a.test/feed", None, None, 1)
                .unwrap();
            assert!(!writer.commit_batch_if_due(2, long).unwrap());
            writer
                .feed_add("http://b.test/feed", None, None, 1)
                .unwrap();
            assert!(writer.commit_batch_if_due(2, long).unwrap());
            assert!(writer.in_batch(), "the next batch is open");
            assert_eq!(feed_urls(&reader).len(), 2);
            // Old enough: due whatever its size.
            writer
                .feed_add("http://c.test/feed", None, None, 1)
                .unwrap();
            assert!(
                writer
                    .commit_batch_if_due(1000, std::time::Duration::ZERO)
                    .unwrap()
            );
            assert_eq!(feed_urls(&reader).len(), 3);
            writer
                .feed_add("http://d.test/feed", None, None, 1)
                .unwrap();
            assert_eq!(feed_urls(&reader).len(), 3);
        }
        assert_eq!(feed_urls(&reader).len(), 4, "dropping the store committed");
    }

    #[test]
    fn another_connection_writes_between_batches_and_waits_for_an_open_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pith.db");
        let mut batcher = Store::open(&path).unwrap();
        batcher.begin_batch();
        // Batching but idle: no transaction is open, so another writer goes ahead at once.
        let mut other = Store::open(&path).unwrap();
        other
            .feed_add("http://first.test/feed", None, None, 1)
            .unwrap();

        batcher
            .feed_add("http://a.test/feed", None, None, 1)
            .unwrap();
        let (done_tx, done_rx) = std::sync::mpsc::channel();
        let writer = std::thread::spawn(move || {
            other.feed_add("http://b.test/feed", None, None, 1).unwrap();
            done_tx.send(()).unwrap();
        });
        // The batch holds the turn: the other write waits...
        assert!(
            done_rx
                .recv_timeout(std::time::Duration::from_millis(300))
                .is_err()
        );
        // ...until the batch commits.
        assert!(
            batcher
                .commit_batch_if_due(1, std::time::Duration::from_secs(3600))
                .unwrap()
        );
        done_rx
            .recv_timeout(std::time::Duration::from_secs(30))
            .unwrap();
        writer.join().unwrap();
        assert_eq!(feed_urls(&batcher).len(), 3);
    }
}
