//! `pith backup` and `pith restore` in the real binary, and what a user sees when the database
//! file is damaged: a clear refusal that says where the file went, and a way back from a backup.

mod common;

use common::pith;

fn names(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn backup_restore_and_a_damaged_file() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pith.db");
    let backup = dir.path().join("saved.db");
    let opml = dir.path().join("f.opml");
    std::fs::write(
        &opml,
        r#"<opml version="2.0"><body><outline text="a" xmlUrl="http://127.0.0.1:9/a.xml"/></body></opml>"#,
    )
    .unwrap();
    assert!(pith(&db, &["import", opml.to_str().unwrap()]).ok);

    let run = pith(&db, &["backup", backup.to_str().unwrap()]);
    assert!(run.ok, "{}", run.stderr);
    assert!(run.stdout.contains("pith restore"), "{}", run.stdout);
    let run = pith(&db, &["backup", db.to_str().unwrap()]);
    assert!(!run.ok, "a backup onto the database itself is refused");

    // A second subscription after the backup; restoring goes back to one.
    std::fs::write(
        &opml,
        r#"<opml version="2.0"><body><outline text="b" xmlUrl="http://127.0.0.1:9/b.xml"/></body></opml>"#,
    )
    .unwrap();
    assert!(pith(&db, &["import", opml.to_str().unwrap()]).ok);
    let run = pith(&db, &["restore", backup.to_str().unwrap()]);
    assert!(run.ok, "{}", run.stderr);
    assert!(run.stdout.contains("before-restore"), "{}", run.stdout);
    let feeds = pith(&db, &["feeds"]).stdout;
    assert!(
        feeds.contains("a.xml") && !feeds.contains("b.xml"),
        "{feeds}"
    );
    assert!(
        names(dir.path())
            .iter()
            .any(|n| n.starts_with("pith.db.before-restore-")),
        "{:?}",
        names(dir.path())
    );

    // Damage: everything after SQLite's magic header is overwritten. (A file that does not
    // even start as SQLite is some other file, refused and left alone: see tests/cli.rs.)
    for suffix in ["-wal", "-shm"] {
        let _ = std::fs::remove_file(dir.path().join(format!("pith.db{suffix}")));
    }
    let mut damaged = b"SQLite format 3\0".to_vec();
    damaged.resize(64 * 1024, 0x42);
    std::fs::write(&db, &damaged).unwrap();
    // A command that only reads refuses it and leaves it; one that writes moves it aside.
    let run = pith(&db, &["feeds"]);
    assert!(!run.ok, "a damaged database must not be used");
    assert!(run.stderr.contains("looks damaged"), "{}", run.stderr);
    assert_eq!(std::fs::read(&db).unwrap(), damaged);
    let run = pith(&db, &["rename", "1", "Mine"]);
    assert!(!run.ok, "a damaged database must not be used");
    println!("{}", run.stderr);
    assert!(run.stderr.contains("damaged"), "{}", run.stderr);
    assert!(run.stderr.contains("pith restore"), "{}", run.stderr);
    let kept: Vec<String> = names(dir.path())
        .into_iter()
        .filter(|n| n.starts_with("pith.db.corrupt-"))
        .collect();
    assert_eq!(kept.len(), 1, "{:?}", names(dir.path()));
    assert!(
        run.stderr.contains(&kept[0]),
        "the message names the kept file"
    );
    assert_eq!(
        std::fs::read(dir.path().join(&kept[0])).unwrap(),
        damaged,
        "the damaged file is kept as it was"
    );

    // A damaged backup is refused and changes nothing.
    let bad_backup = dir.path().join("bad.db");
    std::fs::write(&bad_backup, b"SQLite format 3\0 but nothing after").unwrap();
    let run = pith(&db, &["restore", bad_backup.to_str().unwrap()]);
    assert!(!run.ok);
    println!("{}", run.stderr);

    let run = pith(&db, &["restore", backup.to_str().unwrap()]);
    assert!(run.ok, "{}", run.stderr);
    let feeds = pith(&db, &["feeds"]);
    assert!(
        feeds.ok && feeds.stdout.contains("a.xml"),
        "{}",
        feeds.stderr
    );
}

/// Subscribes the database at `db` to one feed (written as OPML into `dir`), then checkpoints
/// its log, so that what follows sees the whole database in the file itself.
fn subscribed(dir: &std::path::Path, db: &std::path::Path) {
    let opml = dir.join("f.opml");
    std::fs::write(
        &opml,
        r#"<opml version="2.0"><body><outline text="a" xmlUrl="http://127.0.0.1:9/a.xml"/></body></opml>"#,
    )
    .unwrap();
    assert!(pith(db, &["import", opml.to_str().unwrap()]).ok);
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.pragma_update(None, "wal_checkpoint", "TRUNCATE")
        .unwrap();
}

/// A database with one subscription ([`subscribed`]), whose `table`'s root page is then
/// overwritten with garbage. Returns the file's bytes.
fn subscribed_then_damaged(dir: &std::path::Path, db: &std::path::Path, table: &str) -> Vec<u8> {
    subscribed(dir, db);
    let (page_size, root): (i64, i64) = {
        let conn = rusqlite::Connection::open(db).unwrap();
        let page_size = conn
            .pragma_query_value(None, "page_size", |r| r.get(0))
            .unwrap();
        let root = conn
            .query_row(
                "SELECT rootpage FROM sqlite_master WHERE name = ?1",
                [table],
                |r| r.get(0),
            )
            .unwrap();
        (page_size, root)
    };
    let mut bytes = std::fs::read(db).unwrap();
    let at = ((root - 1) * page_size) as usize;
    bytes[at..at + page_size as usize].fill(0x42);
    std::fs::write(db, &bytes).unwrap();
    bytes
}

/// A command that only reads (a list, a search, an export) opens the file without the whole-file
/// check, which at 300 feeds takes tens of seconds, and never moves it; damage it does not read
/// waits for the next command that writes, which checks the file first and moves it aside.
#[test]
fn reading_commands_skip_the_check_and_the_next_write_finds_the_damage() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pith.db");
    // Damage a table no listing reads: the URL Tree's documents (empty, its root page garbage).
    let bytes = subscribed_then_damaged(dir.path(), &db, "tree_doc");

    for args in [&["feeds"][..], &["items"], &["search", "word"], &["export"]] {
        let run = pith(&db, args);
        assert!(run.ok, "pith {args:?}: {}", run.stderr);
    }
    assert!(
        !names(dir.path()).iter().any(|n| n.contains("corrupt")),
        "a reading command never moves the file: {:?}",
        names(dir.path())
    );
    assert!(pith(&db, &["feeds"]).stdout.contains("a.xml"));

    // A write checks first: the damage is found, the file moved aside and kept.
    let run = pith(&db, &["rename", "1", "Mine"]);
    assert!(!run.ok, "a write into a damaged file is refused");
    assert!(run.stderr.contains("damaged"), "{}", run.stderr);
    let kept: Vec<String> = names(dir.path())
        .into_iter()
        .filter(|n| n.starts_with("pith.db.corrupt-"))
        .collect();
    assert_eq!(kept.len(), 1, "{:?}", names(dir.path()));
    assert_eq!(std::fs::read(dir.path().join(&kept[0])).unwrap(), bytes);
}

/// A reading command that meets damage says what it means and what to do.
#[test]
fn a_reading_command_that_meets_damage_says_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pith.db");
    let bytes = subscribed_then_damaged(dir.path(), &db, "feed");
    let run = pith(&db, &["feeds"]);
    assert!(!run.ok);
    assert!(run.stderr.contains("looks damaged"), "{}", run.stderr);
    assert!(run.stderr.contains("pith restore"), "{}", run.stderr);
    assert_eq!(
        std::fs::read(&db).unwrap(),
        bytes,
        "the file is left as it is"
    );
}

/// A reading command never moves the file, even when SQLite cannot read its header; the next
/// command that writes does.
#[test]
fn a_reading_command_leaves_a_file_with_a_damaged_header_where_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pith.db");
    subscribed(dir.path(), &db);
    let mut bytes = std::fs::read(&db).unwrap();
    // The page size (bytes 16-17) made impossible.
    bytes[16] = 0;
    bytes[17] = 1;
    std::fs::write(&db, &bytes).unwrap();
    for args in [&["feeds"][..], &["search", "word"]] {
        let run = pith(&db, args);
        assert!(!run.ok, "pith {args:?}");
        assert!(run.stderr.contains("looks damaged"), "{}", run.stderr);
        assert_eq!(std::fs::read(&db).unwrap(), bytes, "pith {args:?} left it");
    }
    let run = pith(&db, &["rename", "1", "Mine"]);
    assert!(!run.ok);
    assert!(
        names(dir.path())
            .iter()
            .any(|n| n.starts_with("pith.db.corrupt-")),
        "{:?}",
        names(dir.path())
    );
}
