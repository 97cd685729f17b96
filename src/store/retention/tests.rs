//! Retention's rules on a small database: which items go and which stay, what goes with them,
//! the raw pages that leave, the bounded steps, the tombstones, and free pages given back.

use rusqlite::params;

use crate::page::BlockHash;
use crate::store::{
    EntryRef, FeedId, ItemId, ItemScope, NewArticle, NewImage, NewItem, PageBytes, Retention,
    Store, SweepLimits, TreeDocument,
};
use crate::urltree::HistoryWindow;

const DAY: i64 = 86_400;
/// The simulated clock's start: every test counts days from here.
const T0: i64 = 1_700_000_000;

/// The record bytes each test item keeps: an engine form byte, then text that compresses.
fn record(n: i64) -> Vec<u8> {
    let mut r = vec![3u8];
    r.extend(format!("record of item {n}: ").into_bytes());
    r.extend(
        "a paragraph of the article's text, "
            .repeat(40)
            .into_bytes(),
    );
    r
}

/// Stores item `n` of `feed` as arriving on day `day`, with a page, a record, searchable text
/// and the given images; `tree_doc` ties its page to a document of the site's URL Tree.
fn add(
    store: &mut Store,
    feed: FeedId,
    n: i64,
    day: i64,
    images: &[&str],
    tree_doc: Option<i64>,
) -> ItemId {
    let raw = PageBytes::compress(format!("<p>page {n}</p>").repeat(100).as_bytes()).unwrap();
    let blocks = PageBytes::kept(record(n));
    let link = format!("https://ex.test/a/{n}");
    let key = format!("ex.test/a/{n}");
    let identity = format!("entry-{n}");
    let new_images: Vec<NewImage> = images
        .iter()
        .map(|u| NewImage {
            url: (*u).to_string(),
            content_type: Some("image/png".into()),
            data: Ok(vec![1, 2, 3]),
        })
        .collect();
    let text = format!("walrus{n} harbour text");
    store
        .item_store(
            &EntryRef {
                feed,
                identity: &identity,
            },
            &NewItem {
                link: &link,
                title: "A title",
                summary: None,
                published: None,
                added: T0 + day * DAY,
            },
            &NewArticle {
                url: &link,
                declared_charset: None,
                raw: &raw,
                domain: "ex.test",
                url_key: &key,
                tree_doc,
                blocks: &blocks,
                text: &text,
                images: &new_images,
                known_images: &[],
            },
        )
        .unwrap()
        .id()
}

/// Marks `id` read as of the day it arrived (marking read stamps the wall clock's time, and
/// these tests live on a clock of their own).
fn read_on_arrival(store: &mut Store, id: ItemId) {
    store.set_read(ItemScope::Item(id), true).unwrap();
    store
        .conn
        .execute("UPDATE item SET read_at = added WHERE id = ?1", [id])
        .unwrap();
}

fn count(store: &Store, sql: &str) -> i64 {
    store.conn.query_row(sql, [], |r| r.get(0)).unwrap()
}

fn exists(store: &Store, id: ItemId) -> bool {
    store.item(id).unwrap().is_some()
}

fn sweep(store: &mut Store, day: i64) -> crate::store::Swept {
    store
        .retention_sweep(
            &Retention::DEFAULT,
            &HistoryWindow::default(),
            T0 + day * DAY,
            &SweepLimits::default(),
        )
        .unwrap()
}

fn feed(store: &mut Store) -> FeedId {
    store
        .feed_add("https://ex.test/feed", None, None, T0)
        .unwrap()
        .0
}

#[test]
fn read_items_go_after_their_period_unread_after_theirs_and_starred_never() {
    let mut store = Store::open_in_memory().unwrap();
    let feed = feed(&mut store);
    let read_old = add(&mut store, feed, 1, 0, &[], None);
    let read_young = add(&mut store, feed, 2, 10, &[], None);
    let unread_old = add(&mut store, feed, 3, 0, &[], None);
    let starred = add(&mut store, feed, 4, 0, &[], None);
    read_on_arrival(&mut store, read_old);
    read_on_arrival(&mut store, read_young);
    read_on_arrival(&mut store, starred);
    store.toggle_star(starred).unwrap();

    // Day 30: nothing is past its period yet (30 days from arrival, not more).
    assert_eq!(sweep(&mut store, 30).items_deleted, 0);
    // Day 31: the old read item goes; the young read one, the unread and the starred stay.
    let swept = sweep(&mut store, 31);
    assert_eq!(swept.items_deleted, 1);
    assert!(swept.finished);
    assert!(!exists(&store, read_old));
    assert!(exists(&store, read_young) && exists(&store, unread_old) && exists(&store, starred));
    // Day 91: the unread item's period is over too; day 41 had taken the young read one.
    assert_eq!(sweep(&mut store, 91).items_deleted, 2);
    assert!(!exists(&store, unread_old) && !exists(&store, read_young));
    // Ten years on, the starred item is still there, whole.
    assert_eq!(sweep(&mut store, 3650).items_deleted, 0);
    assert!(exists(&store, starred));
    assert!(store.item_record(starred).unwrap().is_some());

    // A period of 0 keeps items forever.
    let kept = add(&mut store, feed, 5, 0, &[], None);
    store
        .retention_sweep(
            &Retention {
                read_days: 0,
                unread_days: 0,
            },
            &HistoryWindow::default(),
            T0 + 3650 * DAY,
            &SweepLimits::default(),
        )
        .unwrap();
    assert!(exists(&store, kept));
}

#[test]
fn a_read_items_period_runs_from_its_reading() {
    let mut store = Store::open_in_memory().unwrap();
    let feed = feed(&mut store);
    let late = add(&mut store, feed, 1, 0, &[], None);
    // Unread for 40 days, then read on day 40: marking read stamps the time it was read.
    store.set_read(ItemScope::Item(late), true).unwrap();
    let stamped: Option<i64> = store
        .conn
        .query_row("SELECT read_at FROM item WHERE id = ?1", [late], |r| {
            r.get(0)
        })
        .unwrap();
    assert!(stamped.is_some_and(|t| t > T0), "{stamped:?}");
    store
        .conn
        .execute(
            "UPDATE item SET read_at = ?2 WHERE id = ?1",
            [late, T0 + 40 * DAY],
        )
        .unwrap();
    // Day 41: past thirty days from its arrival, but read only yesterday: it stays.
    assert_eq!(sweep(&mut store, 41).items_deleted, 0);
    assert!(exists(&store, late));
    // Day 71: thirty days after its reading, it goes.
    assert_eq!(sweep(&mut store, 71).items_deleted, 1);
    assert!(!exists(&store, late));
    // Marked unread again, an item forgets when it was read.
    let again = add(&mut store, feed, 2, 0, &[], None);
    store.set_read(ItemScope::Item(again), true).unwrap();
    store.set_read(ItemScope::Item(again), false).unwrap();
    let cleared: Option<i64> = store
        .conn
        .query_row("SELECT read_at FROM item WHERE id = ?1", [again], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(cleared, None);
}

#[test]
fn a_deleted_item_takes_everything_it_owns_and_leaves_a_tombstone() {
    let mut store = Store::open_in_memory().unwrap();
    let feed = feed(&mut store);
    let shared = "https://ex.test/shared.png";
    let own = "https://ex.test/own.png";
    let gone = add(&mut store, feed, 1, 0, &[shared, own], None);
    let stays = add(&mut store, feed, 2, 80, &[shared], None);
    read_on_arrival(&mut store, gone);
    assert_eq!(store.search("walrus1", 10).unwrap().len(), 1);

    assert_eq!(sweep(&mut store, 31).items_deleted, 1);
    for (table, column) in [
        ("page", "item"),
        ("item_blocks", "item"),
        ("item_image", "item"),
        ("item", "id"),
    ] {
        let n: i64 = store
            .conn
            .query_row(
                &format!("SELECT count(*) FROM {table} WHERE {column} = ?1"),
                [gone],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(n, 0, "{table} keeps a row of the deleted item");
    }
    assert!(store.search("walrus1", 10).unwrap().is_empty());
    // The image only it showed went; the one another item shows stayed.
    assert!(!store.image_known(own).unwrap());
    assert!(store.image_known(shared).unwrap());
    assert_eq!(store.item_images(stays).unwrap().len(), 1);
    // Its entry is still "seen": the feed listing it again brings nothing new.
    assert_eq!(store.seen_entries(feed, &["entry-1"]).unwrap().len(), 1);
    assert_eq!(
        count(&store, "SELECT count(*) FROM feed_entry WHERE item = 0"),
        1
    );
    // The feed's counts leave the tombstone out.
    let info = store.feeds().unwrap().remove(0);
    assert_eq!(info.items, 1);

    // Listed still: the tombstone stays. No longer listed: it goes.
    assert_eq!(
        store
            .entries_forget_unlisted(feed, &["entry-1", "entry-2"])
            .unwrap(),
        0
    );
    assert_eq!(
        store.entries_forget_unlisted(feed, &["entry-2"]).unwrap(),
        1
    );
    assert!(store.seen_entries(feed, &["entry-1"]).unwrap().is_empty());
    // The live item's entry is never forgotten, listed or not.
    assert_eq!(store.entries_forget_unlisted(feed, &[]).unwrap(), 0);
    assert_eq!(store.seen_entries(feed, &["entry-2"]).unwrap().len(), 1);

    // Unsubscribing from a feed with tombstones removes its items and its tombstones, and
    // leaves other feeds' tombstones alone.
    let other = store
        .feed_add("https://ex.test/other", None, None, T0)
        .unwrap()
        .0;
    let old_other = add(&mut store, other, 3, 0, &[], None);
    read_on_arrival(&mut store, old_other);
    sweep(&mut store, 31);
    assert!(store.feed_remove(feed).unwrap());
    assert!(!exists(&store, stays));
    assert_eq!(store.seen_entries(other, &["entry-3"]).unwrap().len(), 1);
}

#[test]
fn raw_pages_go_once_they_leave_the_window_and_the_record_stays_whole() {
    let mut store = Store::open_in_memory().unwrap();
    let feed = feed(&mut store);
    let branch = vec!["ex.test".to_string(), "a".to_string()];
    let doc = store
        .tree_insert(&TreeDocument {
            branch: &branch,
            url_key: "ex.test/a/1",
            hashes: &[BlockHash([1; 8])],
            memory: None,
            added: T0,
        })
        .unwrap()
        .doc();
    let in_tree = add(&mut store, feed, 1, 0, &[], Some(doc));
    let no_doc = add(&mut store, feed, 2, 0, &[], None);
    let young = add(&mut store, feed, 3, 10, &[], None);

    // Day 15: past the window's 14 days. The page whose document the tree still keeps (a quiet
    // site's newest stay) stays; the other old page goes; the young one stays.
    let swept = sweep(&mut store, 15);
    assert_eq!(swept.pages_dropped, 1);
    assert_eq!(swept.items_deleted, 0);
    assert!(store.item_page(in_tree).unwrap().is_some());
    assert!(store.item_page(no_doc).unwrap().is_none());
    assert!(store.item_page(young).unwrap().is_some());
    // The record reads back byte for byte, stored compressed.
    assert_eq!(store.item_record(no_doc).unwrap().unwrap(), record(2));
    let stored: i64 = store
        .conn
        .query_row(
            "SELECT length(blocks) FROM item_blocks WHERE item = ?1",
            [no_doc],
            |r| r.get(0),
        )
        .unwrap();
    assert!((stored as usize) < record(2).len() / 4, "{stored}");
    // Still searchable.
    assert_eq!(store.search("walrus2", 10).unwrap().len(), 1);

    // Once its document leaves the tree, that page goes too.
    assert!(store.tree_remove(doc).unwrap());
    assert_eq!(sweep(&mut store, 15).pages_dropped, 1);
    assert!(store.item_page(in_tree).unwrap().is_none());
    assert_eq!(store.item_record(in_tree).unwrap().unwrap(), record(1));
}

/// The sweep applies the URL Tree's window first: a document past it leaves its site's tree,
/// and its raw page goes in the same sweep. A sweep out of time leaves the tree for the next.
#[test]
fn a_sweep_takes_old_documents_out_of_the_tree_then_their_pages() {
    let mut store = Store::open_in_memory().unwrap();
    let feed = feed(&mut store);
    let window = HistoryWindow {
        keep_newest: 1,
        ..HistoryWindow::default()
    };
    let branch = vec!["ex.test".to_string(), "a".to_string()];
    let insert = |store: &mut Store, n: i64, day: i64| {
        store
            .tree_insert(&TreeDocument {
                branch: &branch,
                url_key: &format!("ex.test/a/{n}"),
                hashes: &[BlockHash([n as u8; 8])],
                memory: None,
                added: T0 + day * DAY,
            })
            .unwrap()
            .doc()
    };
    let old_doc = insert(&mut store, 1, 0);
    let old = add(&mut store, feed, 1, 0, &[], Some(old_doc));
    let new_doc = insert(&mut store, 2, 14);
    let new = add(&mut store, feed, 2, 14, &[], Some(new_doc));
    let policy = Retention {
        read_days: 0,
        unread_days: 0,
    };
    // Out of time: nothing is done, and the sweep says it did not finish.
    let stopped = store
        .retention_sweep(
            &policy,
            &window,
            T0 + 15 * DAY,
            &SweepLimits::unbounded(std::time::Duration::ZERO),
        )
        .unwrap();
    assert!(!stopped.finished);
    assert_eq!(stopped.tree_docs_removed, 0);
    assert_eq!(store.tree_doc_count("ex.test").unwrap(), 2);
    let swept = store
        .retention_sweep(&policy, &window, T0 + 15 * DAY, &SweepLimits::default())
        .unwrap();
    assert!(swept.finished);
    assert_eq!(swept.tree_docs_removed, 1);
    assert_eq!(swept.pages_dropped, 1);
    assert_eq!(store.tree_doc_count("ex.test").unwrap(), 1);
    assert!(store.item_page(old).unwrap().is_none());
    assert_eq!(store.item_record(old).unwrap().unwrap(), record(1));
    // The newest document stays whatever its age, and so does its page.
    assert!(store.item_page(new).unwrap().is_some());
    assert!(store.tree_consistency_errors().unwrap().is_empty());
}

#[test]
fn a_sweep_stops_at_its_limits_and_the_next_one_goes_on() {
    let mut store = Store::open_in_memory().unwrap();
    let feed = feed(&mut store);
    for n in 0..7 {
        let id = add(&mut store, feed, n, 0, &[], None);
        read_on_arrival(&mut store, id);
    }
    // Young enough that their pages stay.
    for n in 7..12 {
        add(&mut store, feed, n, 75, &[], None);
    }
    let limits = SweepLimits {
        items: 3,
        pages: 2,
        time: std::time::Duration::from_secs(60),
    };
    let now = T0 + 80 * DAY;
    let policy = Retention::DEFAULT;
    let window = HistoryWindow::default();
    let first = store
        .retention_sweep(&policy, &window, now, &limits)
        .unwrap();
    assert_eq!((first.items_deleted, first.pages_dropped), (3, 2));
    assert!(!first.finished);
    assert_eq!(count(&store, "SELECT count(*) FROM item"), 9);
    // The next sweeps go on where it stopped, each within the limits, until all is done.
    let mut sweeps = 1;
    loop {
        let next = store
            .retention_sweep(&policy, &window, now, &limits)
            .unwrap();
        assert!(next.items_deleted <= 3 && next.pages_dropped <= 2);
        sweeps += 1;
        if next.finished {
            break;
        }
        assert!(sweeps < 10, "never finishes");
    }
    assert_eq!(sweeps, 3);
    assert_eq!(count(&store, "SELECT count(*) FROM item"), 5);
    assert_eq!(count(&store, "SELECT count(*) FROM page"), 5);
    // A sweep with no time left starts no step.
    let none = store
        .retention_sweep(
            &policy,
            &window,
            T0 + 200 * DAY,
            &SweepLimits::unbounded(std::time::Duration::ZERO),
        )
        .unwrap();
    assert_eq!((none.items_deleted, none.finished), (0, false));
}

#[test]
fn periods_are_settings_with_defaults() {
    let mut store = Store::open_in_memory().unwrap();
    assert_eq!(store.retention().unwrap(), Retention::DEFAULT);
    let mine = Retention {
        read_days: 7,
        unread_days: 0,
    };
    store.set_retention(mine).unwrap();
    assert_eq!(store.retention().unwrap(), mine);
    // A value that does not parse falls back to the default rather than failing a refresh.
    store.set_setting("retention_read_days", "soon").unwrap();
    assert_eq!(store.retention().unwrap().read_days, 30);
}

#[test]
fn a_new_file_gives_freed_pages_back_and_an_old_one_reuses_them() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.db");
    let mut store = Store::open(&path).unwrap();
    let mode: i64 = store
        .conn
        .pragma_query_value(None, "auto_vacuum", |r| r.get(0))
        .unwrap();
    assert_eq!(mode, 2, "a new file's auto_vacuum is incremental");
    let feed = feed(&mut store);
    // Pages that do not compress, so that they take room.
    let mut x: u32 = 7;
    let noise: Vec<u8> = (0..200_000)
        .map(|_| {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (x >> 24) as u8
        })
        .collect();
    for n in 0..20 {
        let id = add(&mut store, feed, n, 0, &[], None);
        store
            .conn
            .execute(
                "UPDATE page SET raw = ?2 WHERE item = ?1",
                params![id, noise.clone()],
            )
            .unwrap();
    }
    store.set_read(ItemScope::All, true).unwrap();
    store
        .conn
        .execute("UPDATE item SET read_at = added", [])
        .unwrap();
    store.checkpoint().unwrap();
    let pages = |store: &Store| -> i64 {
        store
            .conn
            .pragma_query_value(None, "page_count", |r| r.get(0))
            .unwrap()
    };
    let before = pages(&store);
    let swept = sweep(&mut store, 31);
    assert_eq!(swept.items_deleted, 20);
    // 4 MB freed is under the reserve kept for reuse: nothing given back yet.
    assert_eq!(swept.pages_released, 0);
    assert!(store.free_pages().unwrap() > 900);
    let released = store.release_free_pages(100, 10_000).unwrap();
    assert!(released > 800, "{released}");
    assert!(pages(&store) < before - 800);
    assert_eq!(store.free_pages().unwrap(), 100);
}

/// The full-text index keeps no text (contentless), so what it answers rests on its own rows:
/// after retention dropped pages and deleted many other items (the index's deleted rows merged
/// away or not), every kept article is still found by its words, with its title, and no deleted
/// one is.
#[test]
fn search_finds_kept_articles_after_their_pages_went_and_others_were_deleted() {
    let mut store = Store::open_in_memory().unwrap();
    let feed = feed(&mut store);
    let mut read = Vec::new();
    let mut kept = Vec::new();
    for n in 0..200 {
        let id = add(&mut store, feed, n, n / 10, &[], None);
        if n % 2 == 0 {
            read_on_arrival(&mut store, id);
            read.push((n, id));
        } else {
            kept.push((n, id));
        }
    }
    // Day 45: read items of days 0-14 gone; pages older than the window's 14 days dropped.
    let swept = sweep(&mut store, 45);
    assert!(swept.finished);
    assert_eq!(swept.items_deleted, 75);
    assert!(swept.pages_dropped > 0);
    for &(n, id) in &kept {
        let hits = store.search(&format!("walrus{n} harbour"), 10).unwrap();
        assert_eq!(hits.len(), 1, "walrus{n}");
        assert_eq!((hits[0].id, hits[0].title.as_str()), (id, "A title"));
    }
    for &(n, id) in &read {
        let found = !store.search(&format!("walrus{n}"), 10).unwrap().is_empty();
        assert_eq!(found, exists(&store, id), "walrus{n}");
    }
    assert_eq!(
        store.search("harbour", 500).unwrap().len(),
        kept.len() + read.len() - 75
    );
    // The index holds no copy of the text.
    let tables = count(
        &store,
        "SELECT count(*) FROM sqlite_master WHERE name = 'item_fts_content'",
    );
    assert_eq!(tables, 0);
}

/// An item marked read at a given time (`set_read_at`: the simulated year's clock) counts its
/// period from then, not from the wall clock's now; one read already keeps its time.
#[test]
fn an_item_read_at_a_given_time_goes_a_period_after_it() {
    let mut store = Store::open_in_memory().unwrap();
    let feed = feed(&mut store);
    let id = add(&mut store, feed, 1, 0, &[], None);
    assert!(store.set_read_at(id, T0 + 5 * DAY).unwrap());
    assert!(
        !store.set_read_at(id, T0 + 20 * DAY).unwrap(),
        "read already"
    );
    assert_eq!(sweep(&mut store, 35).items_deleted, 0);
    assert_eq!(sweep(&mut store, 36).items_deleted, 1);
    assert!(!exists(&store, id));
}
