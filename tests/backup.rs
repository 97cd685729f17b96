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
    let run = pith(&db, &["feeds"]);
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
