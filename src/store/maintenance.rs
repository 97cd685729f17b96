//! Keeping the one database file safe: a check when it is opened, a copy the user can keep
//! (`pith backup`), and putting such a copy back (`pith restore`). Every path here keeps the file
//! it replaces or finds damaged: pith never deletes or silently replaces a user's database.
//!
//! A damaged file is renamed to `<db>.corrupt-<unix time>` (with its `-wal` log beside it, so that
//! the pair can still be examined or salvaged with `sqlite3 .recover`), and opening fails with
//! [`StoreError::Damaged`], which says where the file went and how to restore a backup. The next
//! start of pith creates a new, empty database unless a backup is restored first.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

use super::{SCHEMA_VERSION, Store, StoreError};

/// Tables every pith database has since schema version 1: a file without them is not pith's.
const REQUIRED_TABLES: &[&str] = &["feed", "item", "page", "tree_node", "tree_doc"];

/// Database files already checked by this process. A refresh opens one connection per worker;
/// the file only needs checking once per start, and `quick_check` reads all of it.
static CHECKED: Mutex<Option<HashSet<PathBuf>>> = Mutex::new(None);

/// How many connections ([`Store`]s) this process has open on each file, by canonical path. A
/// damaged file is moved aside only when none is: a connection left open on the old name would
/// checkpoint into the moved file when it closes, or unlink a `-wal` by its old name that by then
/// belongs to a new database.
static OPEN_CONNECTIONS: Mutex<Vec<(PathBuf, usize)>> = Mutex::new(Vec::new());

/// The key [`CHECKED`] and [`OPEN_CONNECTIONS`] know a file by: its canonical path (a symlink or a
/// relative path names the same file), or the path as given when it cannot be resolved.
pub(super) fn file_key(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Counts a connection opened on the file `key` (see [`OPEN_CONNECTIONS`]).
pub(super) fn connection_opened(key: &Path) {
    let mut open = OPEN_CONNECTIONS.lock().unwrap_or_else(|e| e.into_inner());
    match open.iter_mut().find(|(k, _)| k == key) {
        Some((_, n)) => *n += 1,
        None => open.push((key.to_path_buf(), 1)),
    }
}

/// Counts a connection on the file `key` closed.
pub(super) fn connection_closed(key: &Path) {
    let mut open = OPEN_CONNECTIONS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(i) = open.iter().position(|(k, _)| k == key) {
        open[i].1 = open[i].1.saturating_sub(1);
        if open[i].1 == 0 {
            open.swap_remove(i);
        }
    }
}

/// How many [`Store`]s of this process are open on the file at `path`.
pub fn open_connections(path: &Path) -> usize {
    let key = file_key(path);
    OPEN_CONNECTIONS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .find(|(k, _)| *k == key)
        .map_or(0, |(_, n)| *n)
}

/// Whether this process has checked the file at `path` and found it sound.
pub(super) fn was_checked(path: &Path) -> bool {
    let key = file_key(path);
    CHECKED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .as_ref()
        .is_some_and(|s| s.contains(&key))
}

fn mark_checked(path: &Path) {
    CHECKED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get_or_insert_with(HashSet::new)
        .insert(file_key(path));
}

/// The integrity check of a file opened before it was checked ([`Store::open_check_later`]), to
/// be run on a thread of its own while the file is read; nothing may write to the file until
/// [`IntegrityCheck::run`] passes it.
///
/// It is the same `PRAGMA quick_check` as an ordinary open, FTS5's check of the full-text index
/// included (the bundled SQLite runs it in a quick check too). Kept because the check is off the
/// path to the first list now, so its cost is only how long writes wait; the ways to leave the
/// index out would weaken the check of everything else: `PRAGMA quick_check(TABLE)` per ordinary
/// table skips the free-list and page-accounting checks (a page claimed by two tables, which a
/// write would then damage further), and hiding the virtual table from the check takes an unsafe
/// call into SQLite (`sqlite3_drop_modules`) on the checking connection.
#[derive(Debug)]
pub struct IntegrityCheck {
    path: PathBuf,
}

/// Why [`IntegrityCheck::run`] did not pass a file.
#[derive(Debug)]
pub enum CheckFailed {
    /// The check found damage, or SQLite cannot read the file as a database. The file is still
    /// in place: close every connection to it, then [`DamagedFile::move_aside`].
    Damaged(DamagedFile),
    /// The check could not run (the file locked or unreadable). Not damage: the file stays.
    Error(StoreError),
}

/// A file a check found damaged, not yet moved aside.
#[derive(Debug)]
pub struct DamagedFile {
    path: PathBuf,
    problems: String,
}

impl DamagedFile {
    /// What the check reported.
    pub fn problems(&self) -> &str {
        &self.problems
    }

    /// Moves the file (with its `-wal` and `-shm`) aside as [`Store::open`] does with a damaged
    /// file, and returns the [`StoreError::Damaged`] that says where it went. While a [`Store`]
    /// of this process is still open on it, the file is left in place (and the error says so):
    /// close them first.
    pub fn move_aside(self) -> StoreError {
        let open = open_connections(&self.path);
        if open > 0 {
            return StoreError::Damaged {
                path: self.path,
                moved_to: None,
                problems: format!(
                    "{} (not moved aside: {open} connection(s) of this process still had it open)",
                    self.problems
                ),
            };
        }
        move_damaged(&self.path, self.problems)
    }
}

impl IntegrityCheck {
    pub(super) fn new(path: &Path) -> IntegrityCheck {
        IntegrityCheck {
            path: path.to_path_buf(),
        }
    }

    /// Runs `PRAGMA quick_check` on a connection of its own, opened read-only (so that closing it
    /// never checkpoints into the file) and beside the readers (WAL: it blocks none of them).
    /// A sound file is remembered as checked for the rest of the process, so that later opens
    /// ([`Store::open`]) do not check it again.
    pub fn run(self) -> Result<(), CheckFailed> {
        let path = self.path.clone();
        let open_err = |error| StoreError::Open {
            path: path.clone(),
            error,
        };
        let conn = match Connection::open_with_flags(
            &self.path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        ) {
            Ok(conn) => conn,
            Err(e) if is_damage(&e) => return Err(self.damaged(e.to_string())),
            Err(e) => return Err(CheckFailed::Error(open_err(e))),
        };
        if let Err(e) = conn.busy_timeout(Duration::from_secs(30)) {
            return Err(CheckFailed::Error(open_err(e)));
        }
        let outcome = quick_check(&conn);
        drop(conn);
        match outcome {
            Ok(None) => {
                mark_checked(&self.path);
                Ok(())
            }
            Ok(Some(problems)) => Err(self.damaged(problems)),
            Err(e) if is_damage(&e) => Err(self.damaged(e.to_string())),
            Err(e) => Err(CheckFailed::Error(open_err(e))),
        }
    }

    fn damaged(self, problems: String) -> CheckFailed {
        CheckFailed::Damaged(IntegrityCheck::damaged_file(&self.path, problems))
    }

    pub(super) fn damaged_file(path: &Path, problems: String) -> DamagedFile {
        DamagedFile {
            path: path.to_path_buf(),
            problems,
        }
    }
}

/// What [`restore`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Restored {
    /// The schema version of the backup (an older one was upgraded when it was opened).
    pub backup_version: i64,
    /// Where the database that was in place went, if there was one.
    pub previous_moved_to: Option<PathBuf>,
}

/// The first bytes of every SQLite database file.
const SQLITE_HEADER: &[u8; 16] = b"SQLite format 3\0";

/// True when `path` does not exist, is empty (a new database), or starts as an SQLite database
/// does. Anything else is some other file, never to be opened, let alone moved aside as damaged.
/// A file that cannot be read is let through: opening it reports why.
pub(super) fn is_sqlite_or_empty(path: &Path) -> bool {
    use std::io::Read;
    let Ok(mut file) = std::fs::File::open(path) else {
        return true;
    };
    let mut head = [0u8; 16];
    let mut read = 0;
    while read < head.len() {
        match file.read(&mut head[read..]) {
            Ok(0) => break,
            Ok(n) => read += n,
            Err(_) => return true,
        }
    }
    read == 0 || head == *SQLITE_HEADER
}

/// Runs `PRAGMA quick_check` on a file just opened, the first time this process opens it. A file
/// SQLite cannot read as a database, or whose check finds problems, is closed and moved aside, and
/// [`StoreError::Damaged`] is returned; other failures (a locked or unreadable file) are returned
/// as they are and leave the file in place, because they are not damage.
pub(super) fn check_on_open(conn: Connection, path: &Path) -> Result<Connection, StoreError> {
    if was_checked(path) {
        return Ok(conn);
    }
    match quick_check(&conn) {
        Ok(None) => {
            mark_checked(path);
            Ok(conn)
        }
        Ok(Some(problems)) => {
            drop(conn);
            Err(DamagedFile {
                path: path.to_path_buf(),
                problems,
            }
            .move_aside())
        }
        Err(e) if is_damage(&e) => {
            drop(conn);
            Err(DamagedFile {
                path: path.to_path_buf(),
                problems: e.to_string(),
            }
            .move_aside())
        }
        Err(error) => Err(StoreError::Open {
            path: path.to_path_buf(),
            error,
        }),
    }
}

/// `None` when the file is sound, else what `quick_check` reported (its first lines).
fn quick_check(conn: &Connection) -> Result<Option<String>, rusqlite::Error> {
    let rows: Vec<String> = conn
        .prepare("PRAGMA quick_check(20)")?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    Ok((rows != ["ok"]).then(|| rows.join("; ")))
}

/// True when SQLite's error says the file is damaged or is not a database at all.
pub fn is_damage(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(rusqlite::ErrorCode::DatabaseCorrupt | rusqlite::ErrorCode::NotADatabase)
    )
}

/// Renames the damaged file (and its `-wal` and `-shm` companions) aside and says so.
fn move_damaged(path: &Path, problems: String) -> StoreError {
    let moved_to = aside_path(path, "corrupt");
    match move_with_companions(path, &moved_to) {
        Ok(()) => StoreError::Damaged {
            path: path.to_path_buf(),
            moved_to: Some(moved_to),
            problems,
        },
        // Could not move it (read-only directory): still refuse, and leave it where it is.
        Err(e) => StoreError::Damaged {
            path: path.to_path_buf(),
            moved_to: None,
            problems: format!("{problems} (and it could not be moved aside: {e})"),
        },
    }
}

/// `<db>.<what>-<unix time>`, with a counter added should that name exist already.
fn aside_path(path: &Path, what: &str) -> PathBuf {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let mut name = path.as_os_str().to_owned();
    name.push(format!(".{what}-{now}"));
    let mut candidate = PathBuf::from(&name);
    let mut n = 1;
    while candidate.exists() {
        let mut numbered = name.clone();
        numbered.push(format!(".{n}"));
        candidate = PathBuf::from(numbered);
        n += 1;
    }
    candidate
}

fn companion(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Renames a database file with its write-ahead log and shared-memory index, keeping them
/// paired under the new name (SQLite finds `<name>-wal` beside `<name>`). The log goes first:
/// should the main rename fail, no log is left beside a file it does not belong to.
fn move_with_companions(from: &Path, to: &Path) -> std::io::Result<()> {
    for suffix in ["-wal", "-shm"] {
        let f = companion(from, suffix);
        if f.exists() {
            std::fs::rename(&f, companion(to, suffix))?;
        }
    }
    std::fs::rename(from, to)
}

impl Store {
    /// `PRAGMA quick_check`: `None` for a sound file, else the problems it lists.
    pub fn quick_check(&self) -> Result<Option<String>, StoreError> {
        Ok(quick_check(&self.conn)?)
    }

    /// Writes a consistent copy of the open database to `dest` with SQLite's online backup,
    /// while others may go on reading and writing. The copy is written to a temporary file
    /// beside `dest`, checked, and only then renamed to `dest`, so that `dest` is never a
    /// half-written backup. An existing `dest` is replaced; the database itself never is.
    pub fn backup(&self, dest: &Path) -> Result<(), StoreError> {
        if let Some(own) = self.conn.path().filter(|p| !p.is_empty())
            && same_file(Path::new(own), dest)
        {
            return Err(StoreError::Maintenance(format!(
                "{} is the database itself; back it up to another file",
                dest.display()
            )));
        }
        let tmp = companion(dest, ".partial");
        let _ = std::fs::remove_file(&tmp);
        let result = (|| {
            let mut out = Connection::open(&tmp)?;
            {
                let backup = rusqlite::backup::Backup::new(&self.conn, &mut out)?;
                // Steps of 1,024 pages with a short pause let a running refresh keep writing.
                backup.run_to_completion(1024, Duration::from_millis(5), None)?;
            }
            let problems = quick_check(&out)?;
            out.close().map_err(|(_, e)| e)?;
            Ok::<_, rusqlite::Error>(problems)
        })();
        match result {
            Ok(None) => {
                std::fs::rename(&tmp, dest).map_err(|e| {
                    StoreError::Maintenance(format!("cannot write {}: {e}", dest.display()))
                })?;
                Ok(())
            }
            Ok(Some(problems)) => {
                let _ = std::fs::remove_file(&tmp);
                Err(StoreError::Maintenance(format!(
                    "the backup copy failed its check ({problems}); the database may be damaged"
                )))
            }
            Err(e) => {
                let _ = std::fs::remove_file(&tmp);
                Err(e.into())
            }
        }
    }
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Checks that `backup` is a sound pith database this build can use: it opens, passes
/// `PRAGMA integrity_check`, has pith's tables, and its schema version is not newer than this
/// build's. Returns its schema version. The file is only read.
pub fn verify_backup(backup: &Path) -> Result<i64, StoreError> {
    let bad = |why: String| StoreError::Maintenance(format!("{}: {why}", backup.display()));
    if !backup.is_file() {
        return Err(bad("no such file".into()));
    }
    let conn = Connection::open_with_flags(
        backup,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| bad(format!("cannot open it: {e}")))?;
    let rows: Vec<String> = conn
        .prepare("PRAGMA integrity_check(20)")
        .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
        .map_err(|e| bad(format!("not a readable SQLite database ({e})")))?;
    if rows != ["ok"] {
        return Err(bad(format!("it is damaged: {}", rows.join("; "))));
    }
    let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if version > SCHEMA_VERSION {
        return Err(StoreError::TooNew {
            found: version,
            supported: SCHEMA_VERSION,
        });
    }
    for table in REQUIRED_TABLES {
        let found: i64 = conn.query_row(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?1",
            [table],
            |r| r.get(0),
        )?;
        if found == 0 || version < 1 {
            return Err(bad(format!(
                "not a pith database (no table {table:?} or no schema version)"
            )));
        }
    }
    Ok(version)
}

/// Puts the backup `backup` in place of the database at `db`. The backup is verified first
/// ([`verify_backup`]) and copied (SQLite's backup API) to a temporary file beside `db`; then the
/// database in place, if any, is renamed to `<db>.before-restore-<unix time>` (with its log),
/// and the copy takes its name. An older schema version is upgraded when pith next opens the
/// file. No pith process may have `db` open meanwhile (close the window first).
pub fn restore(db: &Path, backup: &Path) -> Result<Restored, StoreError> {
    if same_file(db, backup) {
        return Err(StoreError::Maintenance(format!(
            "{} is the database itself",
            backup.display()
        )));
    }
    let backup_version = verify_backup(backup)?;
    // As opening does: a folder named by mistake is not made up.
    if let Some(dir) = db.parent().filter(|d| !d.as_os_str().is_empty())
        && !dir.is_dir()
    {
        return Err(StoreError::NoFolder {
            dir: dir.to_path_buf(),
        });
    }
    let tmp = companion(db, ".restoring");
    let _ = std::fs::remove_file(&tmp);
    let copied = (|| {
        let src = Connection::open_with_flags(backup, OpenFlags::SQLITE_OPEN_READ_ONLY)?;
        let mut out = Connection::open(&tmp)?;
        rusqlite::backup::Backup::new(&src, &mut out)?.run_to_completion(
            4096,
            Duration::ZERO,
            None,
        )?;
        out.close().map_err(|(_, e)| e)
    })();
    if let Err(e) = copied {
        let _ = std::fs::remove_file(&tmp);
        return Err(e.into());
    }
    let previous_moved_to = if db.exists() {
        // Fold the log into the file first where it opens, so the kept file stands alone.
        if let Ok(conn) = Connection::open(db) {
            let _ = conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()));
        }
        let aside = aside_path(db, "before-restore");
        move_with_companions(db, &aside).map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            StoreError::Maintenance(format!("cannot move {} aside: {e}", db.display()))
        })?;
        Some(aside)
    } else {
        None
    };
    std::fs::rename(&tmp, db)
        .map_err(|e| StoreError::Maintenance(format!("cannot put the backup in place: {e}")))?;
    // A fresh start for the check of this process: the file under this name is a new one.
    if let Some(set) = CHECKED.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
        set.retain(|p| !same_file(p, db) && p != db);
    }
    Ok(Restored {
        backup_version,
        previous_moved_to,
    })
}

impl Store {
    /// `PRAGMA integrity_check`: "ok" for a sound file.
    pub fn integrity_check(&self) -> Result<String, StoreError> {
        let rows: Vec<String> = self
            .conn
            .prepare("PRAGMA integrity_check")?
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        Ok(rows.join("\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_that_is_not_a_database_is_refused_and_left_as_it_is() {
        // `pith --db subs.opml feeds`: the user's file is neither opened nor renamed.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("subs.opml");
        let text = b"<?xml version=\"1.0\"?><opml version=\"2.0\"><body/></opml>".repeat(50);
        std::fs::write(&path, &text).unwrap();
        let err = Store::open(&path).expect_err("refused");
        assert!(matches!(err, StoreError::NotADatabase { .. }), "{err}");
        assert_eq!(std::fs::read(&path).unwrap(), text, "the file is untouched");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["subs.opml"], "nothing renamed or created beside it");
        let message = err.to_string();
        assert!(message.contains("subs.opml"), "{message}");
        assert!(message.contains("not an SQLite database"), "{message}");
        // An empty file is a new database, as SQLite makes it.
        let empty = dir.path().join("new.db");
        std::fs::write(&empty, b"").unwrap();
        assert!(Store::open(&empty).is_ok());
    }

    #[test]
    fn a_database_in_a_folder_that_does_not_exist_is_refused_not_created() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("no").join("such").join("x.db");
        let err = Store::open(&path).expect_err("refused");
        assert!(matches!(err, StoreError::NoFolder { .. }), "{err}");
        assert!(!dir.path().join("no").exists(), "no folder created");
        assert!(err.to_string().contains("does not exist"), "{err}");
        // Nor does restoring a backup there make the folder up.
        let good = dir.path().join("good.db");
        let backup = dir.path().join("backup.db");
        Store::open(&good).unwrap().backup(&backup).unwrap();
        let err = restore(&path, &backup).expect_err("refused");
        assert!(matches!(err, StoreError::NoFolder { .. }), "{err}");
        assert!(!dir.path().join("no").exists(), "no folder created");
    }

    /// A pith database at `path` with a filler table, `pragmas` run first, then scribbled over in
    /// the middle of the file (where the filler's b-tree pages are), and forgotten by this
    /// process's once-per-path check. Returns the damaged file's bytes.
    fn damaged_in_the_middle(path: &Path, pragmas: &str) -> Vec<u8> {
        {
            let store = Store::open(path).unwrap();
            store
                .conn
                .execute_batch(&format!(
                    "{pragmas}
                     CREATE TABLE filler (x TEXT);
                     WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
                     INSERT INTO filler SELECT hex(randomblob(100)) FROM n;"
                ))
                .unwrap();
        }
        let mut bytes = std::fs::read(path).unwrap();
        let mid = bytes.len() / 2;
        bytes[mid..mid + 4096].fill(0x5a);
        std::fs::write(path, &bytes).unwrap();
        forget_checked(path);
        bytes
    }

    #[test]
    fn a_damaged_page_is_found_and_the_file_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pith.db");
        let bytes = damaged_in_the_middle(&path, "PRAGMA journal_mode = DELETE;");
        let err = Store::open(&path).expect_err("refused");
        assert!(matches!(err, StoreError::Damaged { .. }), "{err}");
        assert!(!path.exists());
        let kept: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("pith.db.corrupt-"))
            .collect();
        assert_eq!(kept.len(), 1, "{kept:?}");
        assert_eq!(
            std::fs::read(dir.path().join(&kept[0])).unwrap().len(),
            bytes.len()
        );
    }

    /// A sound pith database at `path` with one feed, forgotten by this process's check (as a
    /// new start of pith meets it).
    fn unchecked_database(path: &Path) {
        Store::open(path)
            .unwrap()
            .feed_add("https://example.com/feed.xml", Some("Feed"), None, 1)
            .unwrap();
        forget_checked(path);
    }

    /// Forgets that this process checked `path` (only it: tests run side by side).
    fn forget_checked(path: &Path) {
        if let Some(set) = CHECKED.lock().unwrap().as_mut() {
            set.remove(&file_key(path));
        }
    }

    #[test]
    fn a_file_opened_before_its_check_is_read_only_until_the_check_passes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pith.db");
        unchecked_database(&path);
        let Ok(super::super::Opening::Unchecked(mut store, check)) = Store::open_check_later(&path)
        else {
            panic!("an existing, current file is opened before its check");
        };
        assert_eq!(store.feeds().unwrap().len(), 1, "it reads");
        let before = std::fs::read(&path).unwrap();
        assert!(
            store
                .feed_add("https://b.test/feed", None, None, 2)
                .is_err(),
            "SQLite refuses a write through the unchecked connection"
        );
        assert!(store.check_writable().is_err());
        check.run().expect("a sound file passes");
        assert!(was_checked(&path));
        drop(store);
        assert_eq!(std::fs::read(&path).unwrap(), before, "nothing was written");
        // Checked now: the next open is the ordinary one, for writing.
        let Ok(super::super::Opening::Checked(mut store)) = Store::open_check_later(&path) else {
            panic!("a checked file opens for writing");
        };
        store
            .feed_add("https://b.test/feed", None, None, 2)
            .unwrap();
    }

    #[test]
    fn a_file_the_background_check_finds_damaged_moves_only_once_closed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pith.db");
        let bytes = damaged_in_the_middle(&path, "");
        let Ok(super::super::Opening::Unchecked(store, check)) = Store::open_check_later(&path)
        else {
            panic!("opened before its check");
        };
        let Err(CheckFailed::Damaged(damaged)) = check.run() else {
            panic!("the check finds the damage");
        };
        assert!(!was_checked(&path));
        // Not moved while this process still has it open.
        let again = IntegrityCheck::damaged_file(&path, damaged.problems().to_string());
        let refused = again.move_aside();
        assert!(
            matches!(refused, StoreError::Damaged { moved_to: None, .. }),
            "{refused}"
        );
        assert!(path.exists());
        drop(store);
        assert_eq!(open_connections(&path), 0);
        let moved = damaged.move_aside();
        let StoreError::Damaged {
            moved_to: Some(to), ..
        } = &moved
        else {
            panic!("moved aside once closed: {moved}");
        };
        assert!(!path.exists());
        assert_eq!(std::fs::read(to).unwrap(), bytes, "kept as it was found");
    }

    #[test]
    fn backup_then_restore_round_trips_and_keeps_the_replaced_file() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("pith.db");
        let backup = dir.path().join("backup.db");
        {
            let mut store = Store::open(&db).unwrap();
            store
                .feed_add("https://example.com/feed.xml", Some("Before"), None, 1)
                .unwrap();
            store.backup(&backup).unwrap();
            assert!(store.backup(&db).is_err(), "backing up onto itself");
            store
                .feed_add("https://example.com/other.xml", Some("After"), None, 2)
                .unwrap();
        }
        assert_eq!(verify_backup(&backup).unwrap(), SCHEMA_VERSION);
        let restored = restore(&db, &backup).unwrap();
        let aside = restored.previous_moved_to.expect("the old file was kept");
        assert_eq!(Store::open(&aside).unwrap().feeds().unwrap().len(), 2);
        let feeds = Store::open(&db).unwrap().feeds().unwrap();
        assert_eq!(feeds.len(), 1);
        assert_eq!(feeds[0].title.as_deref(), Some("Before"));
    }

    #[test]
    fn restore_refuses_what_is_not_a_sound_pith_backup() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("pith.db");
        Store::open(&db).unwrap();
        let before = std::fs::read(&db).unwrap();
        let text = dir.path().join("notes.txt");
        std::fs::write(&text, "hello").unwrap();
        let other = dir.path().join("other.db");
        Connection::open(&other)
            .unwrap()
            .execute_batch("CREATE TABLE t (x); PRAGMA user_version = 1;")
            .unwrap();
        let newer = dir.path().join("newer.db");
        {
            let s = Store::open(&newer).unwrap();
            s.conn
                .pragma_update(None, "user_version", SCHEMA_VERSION + 1)
                .unwrap();
        }
        for bad in [&text, &other, &newer, &dir.path().join("missing.db"), &db] {
            assert!(restore(&db, bad).is_err(), "{}", bad.display());
        }
        assert!(matches!(
            restore(&db, &newer),
            Err(StoreError::TooNew { .. })
        ));
        assert_eq!(
            std::fs::read(&db).unwrap(),
            before,
            "the database was left alone"
        );
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(
            !names.iter().any(|n| n.contains("before-restore")),
            "{names:?}"
        );
    }
}
