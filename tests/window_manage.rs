//! The window as an everyday reader: it refreshes on its own (at start and on the user's
//! schedule), and subscriptions are managed from it (mark read, rename, move to a folder,
//! unsubscribe), with the text size and pane widths remembered across restarts. Feeds come from a
//! loopback server the test starts; nothing else is reached.

mod common;

use common::server::{Reply, Server, article, rss};
use common::window_fixture as fx;
use common::window_harness::{
    harness_held, harness_sized, harness_with, has_label_containing, settle, step_until,
    step_until_check_held,
};
use egui_kittest::kittest::Queryable;
use pith::store::Store;
use pith::ui::Config;
use pith::ui::worker::{FilePicker, PickFor};
use std::time::Duration;

const SIZE: [f32; 2] = [1400.0, 1000.0];

/// Serves a feed of the stories named in `titles` (each with its page) at `/feed.xml`.
fn serve_stories(server: &Server, feed_title: &str, titles: &[&str]) {
    let mut entries = Vec::new();
    for (i, title) in titles.iter().enumerate() {
        let path = format!("/news/2026/story-{i}.html");
        let body = format!("{title}: the whole story has a paragraph of its own, told in full.");
        server.routes.set(
            &path,
            Reply::ok("text/html", article(title, &[body.as_str()], None)),
        );
        entries.push((
            title.to_string(),
            server.url(&path),
            "A summary.".to_string(),
        ));
    }
    server.routes.set(
        "/feed.xml",
        Reply::ok("application/rss+xml", rss(feed_title, &entries)),
    );
}

/// A database subscribed to the server's feed, with the refresh interval `minutes`.
fn subscribed(server: &Server, minutes: &str) -> (tempfile::TempDir, std::path::PathBuf, i64) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pith.db");
    let mut store = Store::open(&db).unwrap();
    let (feed, _) = store
        .feed_add(&server.url("/feed.xml"), None, None, 1_790_000_000)
        .unwrap();
    store
        .set_setting(pith::ui::schedule::SETTING, minutes)
        .unwrap();
    (dir, db, feed)
}

/// The window refreshes when it opens and again on its schedule: new items arrive with no click.
#[test]
fn new_items_arrive_on_their_own_while_the_window_is_open() {
    let server = Server::start();
    serve_stories(&server, "Loopback News", &["The first story"]);
    // 0.02 minutes: a round every 1.2 seconds.
    let (_dir, db, _) = subscribed(&server, "0.02");
    let mut h = harness_sized(&db, SIZE);
    step_until(
        &mut h,
        "the refresh at start brings the first story",
        |app| app.rows.iter().any(|r| r.title == "The first story"),
    );
    serve_stories(
        &server,
        "Loopback News",
        &["The first story", "A second story arrives"],
    );
    step_until(&mut h, "the scheduled refresh brings the second", |app| {
        app.rows.iter().any(|r| r.title == "A second story arrives")
    });
    settle(&mut h);
    assert!(has_label_containing(&h, "A second story arrives"));
}

/// The user's name for a feed wins over the feed's own title, also after a refresh.
#[test]
fn a_renamed_feed_keeps_the_users_name_after_a_refresh() {
    let server = Server::start();
    serve_stories(&server, "Loopback News", &["The first story"]);
    let (_dir, db, feed) = subscribed(&server, "0");
    let mut h = harness_sized(&db, SIZE);
    settle(&mut h);
    h.state_mut().start_refresh(None);
    settle(&mut h);
    assert!(has_label_containing(&h, "Loopback News"));
    h.state_mut()
        .set_source(pith::ui::sidebar::Source::Feed(feed));
    settle(&mut h);
    h.get_by_label("Rename…").click();
    h.run_steps(2);
    h.get_by_label("Feed name").click();
    h.run_steps(1);
    // The field holds the current name: select it all, so typing replaces it.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.run_steps(1);
    h.get_by_label("Feed name").type_text("My morning paper");
    h.run_steps(1);
    h.get_by_label("Save name").click();
    settle(&mut h);
    assert!(has_label_containing(&h, "My morning paper"));
    h.state_mut().start_refresh(None);
    settle(&mut h);
    assert!(has_label_containing(&h, "My morning paper"));
    assert!(
        !h.query_all_by_label_contains("Loopback News").any(|_| true),
        "the feed's own title came back"
    );
}

/// Mark a feed read, then unsubscribe from it, from the buttons over its list.
#[test]
fn a_feed_is_marked_read_and_unsubscribed_from_the_window() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pith.db");
    let fixture = fx::build(&db, 4);
    let mut h = harness_sized(&db, SIZE);
    settle(&mut h);
    h.get_by_label_contains(&format!("{}   4", fx::FEED))
        .click();
    settle(&mut h);
    h.get_by_label("Mark all read").click();
    settle(&mut h);
    assert!(h.state().rows.iter().all(|r| r.read));
    let unread = |h: &egui_kittest::Harness<'static, pith::ui::App>| {
        h.state()
            .feeds
            .as_ref()
            .unwrap()
            .iter()
            .find(|f| f.id == fixture.feed)
            .map(|f| f.unread)
    };
    assert_eq!(unread(&h), Some(0));
    h.get_by_label("Unsubscribe…").click();
    h.run_steps(2);
    h.get_by_label("Unsubscribe").click();
    settle(&mut h);
    assert_eq!(unread(&h), None, "the feed is gone");
    assert!(h.state().rows.is_empty(), "its items went with it");
    assert!(!has_label_containing(&h, fx::FEED));
}

/// The text size and the side panes' widths are what they were when the window was last closed.
#[test]
fn text_size_and_pane_widths_are_remembered_across_restarts() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pith.db");
    fx::build(&db, 2);
    let mut h = harness_sized(&db, SIZE);
    settle(&mut h);
    let size = h.state().text_size;
    h.get_by_label("A+").click();
    h.run_steps(1);
    h.get_by_label("A+").click();
    settle(&mut h);
    // As a drag of the list's edge leaves it.
    h.state_mut().pane_widths.items = 300.0;
    h.run_steps(2);
    settle(&mut h);
    drop(h);

    let mut h = harness_sized(&db, SIZE);
    settle(&mut h);
    assert_eq!(h.state().text_size, size + 2.0);
    assert_eq!(h.state().pane_widths.items, 300.0);
}

/// Nested OPML folders stay nested: in the feeds pane (World inside News, not one folder named
/// "News / World") and in the OPML the window exports.
#[test]
fn nested_folders_stay_nested_in_the_feeds_pane_and_the_export() {
    let server = Server::start();
    serve_stories(&server, "Loopback Daily", &["The first story"]);
    let dir = tempfile::tempdir().unwrap();
    let opml = dir.path().join("subs.opml");
    let feed = server.url("/feed.xml");
    let other = server.url("/other.xml");
    std::fs::write(
        &opml,
        format!(
            "<?xml version=\"1.0\"?><opml version=\"2.0\"><head><title>s</title></head><body>\
             <outline text=\"News\"><outline text=\"World\">\
             <outline text=\"Globe\" xmlUrl=\"{feed}\"/></outline>\
             <outline text=\"Town\" xmlUrl=\"{other}\"/></outline></body></opml>"
        ),
    )
    .unwrap();
    let db = dir.path().join("pith.db");
    let mut h = harness_sized(&db, SIZE);
    settle(&mut h);
    h.state_mut()
        .import_opml(opml.to_string_lossy().into_owned());
    step_until(&mut h, "the import and its refresh", |app| {
        app.feeds.as_ref().is_some_and(|f| f.len() == 2) && app.is_idle()
    });
    settle(&mut h);
    assert!(has_label_containing(&h, "News   "));
    assert!(has_label_containing(&h, "World   "));
    assert!(
        !has_label_containing(&h, "News / World"),
        "the folders are flattened into one"
    );
    // World is drawn inside News: below it and indented.
    let news = h.get_by_label_contains("News   ").rect();
    let world = h.get_by_label_contains("World   ").rect();
    assert!(world.top() > news.top() && world.left() > news.left());

    // A folder is marked read from its context menu, with the folders inside it.
    let unread = |app: &pith::ui::App| {
        app.feeds
            .as_ref()
            .map(|f| f.iter().map(|f| f.unread).sum::<u32>())
    };
    assert_eq!(unread(h.state()), Some(1), "the story arrived unread");
    h.get_by_label_contains("News   ").click_secondary();
    h.run_steps(2);
    h.get_by_label("Mark folder read").click();
    step_until(&mut h, "the folder is marked read", |app| {
        unread(app) == Some(0)
    });

    h.get_by_label("Settings").click();
    h.run_steps(2);
    let out = dir.path().join("export.opml");
    h.get_by_label("Export file").click();
    h.run_steps(1);
    h.get_by_label("Export file")
        .type_text(out.to_str().unwrap());
    h.run_steps(1);
    h.get_by_label("Export OPML").click();
    settle(&mut h);
    let text = std::fs::read_to_string(&out).expect("the export is written");
    let news_at = text.find("text=\"News\"").expect("News in the export");
    let world_at = text.find("text=\"World\"").expect("World in the export");
    assert!(news_at < world_at, "{text}");
    assert!(!text.contains("News / World"), "{text}");
}

/// A feed is moved into a nested folder from the button over its list (the path typed as
/// `News/World`), then back to the top level; Escape closes the dialog without a change.
#[test]
fn a_feed_is_moved_into_a_nested_folder_and_back() {
    let server = Server::start();
    serve_stories(&server, "Loopback News", &["The first story"]);
    let (_dir, db, feed) = subscribed(&server, "0");
    let mut h = harness_sized(&db, SIZE);
    settle(&mut h);
    h.state_mut()
        .set_source(pith::ui::sidebar::Source::Feed(feed));
    settle(&mut h);
    let folder = |db: &std::path::Path| {
        Store::open(db)
            .unwrap()
            .feeds()
            .unwrap()
            .into_iter()
            .find(|f| f.id == feed)
            .and_then(|f| f.folder)
    };

    // Escape closes the dialog and nothing moves.
    h.get_by_label("Move…").click();
    h.run_steps(2);
    assert!(h.state().moving.is_some());
    h.key_press(egui::Key::Escape);
    h.run_steps(2);
    assert!(h.state().moving.is_none(), "Escape left the dialog open");

    h.get_by_label("Move…").click();
    h.run_steps(2);
    h.get_by_label("Folder").click();
    h.run_steps(1);
    h.get_by_label("Folder").type_text("News/World");
    h.run_steps(1);
    h.get_by_label("Move").click();
    step_until(&mut h, "the feed sits in World inside News", |app| {
        app.feeds.as_ref().is_some_and(|f| {
            f.iter()
                .any(|f| f.id == feed && f.folder.as_deref() == Some("News / World"))
        })
    });
    settle(&mut h);
    assert_eq!(folder(&db).as_deref(), Some("News / World"));
    let news = h.get_by_label_contains("News   ").rect();
    let world = h.get_by_label_contains("World   ").rect();
    assert!(world.top() > news.top() && world.left() > news.left());

    // Back to the top level: the folders are gone from the pane.
    h.get_by_label("Move…").click();
    h.run_steps(2);
    h.get_by_label("Top level").click();
    step_until(&mut h, "the feed is at the top level", |app| {
        app.feeds
            .as_ref()
            .is_some_and(|f| f.iter().any(|f| f.id == feed && f.folder.is_none()))
    });
    settle(&mut h);
    assert_eq!(folder(&db), None);
    assert!(!has_label_containing(&h, "World   "));
}

/// The refresh at start, and one the user asks for, wait for the database's check: a refresh
/// writes, and nothing writes before the check passes. (The database is built in another file
/// and copied: this process checked the one it built, and the window must meet an unchecked one,
/// as a new start of pith does.)
#[test]
fn the_refresh_waits_for_the_database_check() {
    let server = Server::start();
    serve_stories(&server, "Loopback News", &["The first story"]);
    let (dir, built, _) = subscribed(&server, "30");
    let db = dir.path().join("copy.db");
    std::fs::copy(&built, &db).unwrap();
    let (mut h, gate) = harness_held(&db, SIZE);
    step_until(&mut h, "the feeds show", |app| {
        app.feeds.as_ref().is_some_and(|f| f.len() == 1) && app.rows_loaded()
    });
    step_until_check_held(&mut h, &gate);
    h.get_by_label("Refresh").click();
    for _ in 0..20 {
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(
        h.state().refresh.is_none(),
        "a refresh started before the check"
    );
    assert!(
        server.routes.log().is_empty(),
        "the feed was fetched before the check"
    );
    assert!(has_label_containing(
        &h,
        "the refresh starts once it is done"
    ));

    gate.open();
    step_until(
        &mut h,
        "the refresh after the check brings the story",
        |app| app.rows.iter().any(|r| r.title == "The first story"),
    );
    settle(&mut h);
    assert_eq!(
        server.routes.hits("/feed.xml").len(),
        1,
        "one refresh, not two"
    );
}

/// A file dialog that answers what the test says, as the system's would.
#[derive(Debug)]
struct Picks(std::path::PathBuf);

impl FilePicker for Picks {
    fn pick(&self, _purpose: PickFor) -> Option<std::path::PathBuf> {
        Some(self.0.clone())
    }
}

/// A file dialog that shows nothing (no portal, no zenity) or is cancelled.
#[derive(Debug)]
struct NoDialog;

impl FilePicker for NoDialog {
    fn pick(&self, _purpose: PickFor) -> Option<std::path::PathBuf> {
        None
    }
}

/// Browse… beside the OPML fields: the file picked in the dialog is imported from the first
/// screen, and exported to from the settings dialog.
#[test]
fn browse_imports_and_exports_opml_through_the_file_dialog() {
    let server = Server::start();
    serve_stories(&server, "Loopback Daily", &["The first story"]);
    let dir = tempfile::tempdir().unwrap();
    let opml = dir.path().join("picked.opml");
    let feed = server.url("/feed.xml");
    std::fs::write(
        &opml,
        format!(
            "<?xml version=\"1.0\"?><opml version=\"2.0\"><head><title>s</title></head><body>\
             <outline text=\"Globe\" xmlUrl=\"{feed}\"/></body></opml>"
        ),
    )
    .unwrap();
    let db = dir.path().join("pith.db");
    let mut config = Config::new(db.clone());
    config.file_picker = std::sync::Arc::new(Picks(opml.clone()));
    let mut h = harness_with(config, SIZE);
    settle(&mut h);
    assert!(has_label_containing(&h, "Welcome to pith"));
    h.get_by_label("Browse…").click();
    step_until(&mut h, "the picked file is imported", |app| {
        app.feeds.as_ref().is_some_and(|f| f.len() == 1)
    });
    settle(&mut h);

    // Export: the picker names where to write.
    let out = dir.path().join("pith-subscriptions.opml");
    drop(h);
    let mut config = Config::new(db.clone());
    config.file_picker = std::sync::Arc::new(Picks(out.clone()));
    let mut h = harness_with(config, SIZE);
    settle(&mut h);
    h.get_by_label("Settings").click();
    h.run_steps(2);
    h.get_by_label("Browse…").click();
    step_until(&mut h, "the export is written", |_| out.exists());
    settle(&mut h);
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains(&feed), "{text}");
}

/// No dialog (or a cancelled one): the window says to type a path, and nothing hangs.
#[test]
fn browse_without_a_file_dialog_says_to_type_a_path() {
    browse_ends_in_a_typed_path(NoDialog, "no system file dialog here: type a path");
}

/// Clicks Browse… with `picker` as the system's dialog, and waits for the status bar to say
/// `said`: the window asks for a typed path, and Browse… is usable again.
fn browse_ends_in_a_typed_path(picker: impl FilePicker + 'static, said: &str) {
    let dir = tempfile::tempdir().unwrap();
    let mut config = Config::new(dir.path().join("pith.db"));
    config.file_picker = std::sync::Arc::new(picker);
    let mut h = harness_with(config, SIZE);
    settle(&mut h);
    h.get_by_label("Browse…").click();
    step_until(&mut h, "the window says to type a path", |app| {
        app.status.as_deref().is_some_and(|s| s.contains(said))
    });
    assert!(!h.state().picking(), "Browse… is usable again");
    assert!(has_label_containing(&h, "type a path"));
}

/// A refresh asked for while the check runs, and a subscription made meanwhile, both happen once
/// it passes: the subscription does not swallow the refresh.
#[test]
fn a_refresh_and_a_subscription_held_by_the_check_both_run_once_it_passes() {
    let server = Server::start();
    serve_stories(&server, "Loopback News", &["The first story"]);
    server.routes.set(
        "/other.xml",
        Reply::ok(
            "application/rss+xml",
            rss(
                "Other Paper",
                &[(
                    "The other story".to_string(),
                    server.url("/news/2026/story-0.html"),
                    "A summary.".to_string(),
                )],
            ),
        ),
    );
    let (dir, built, _) = subscribed(&server, "30");
    let db = dir.path().join("copy.db");
    std::fs::copy(&built, &db).unwrap();
    let (mut h, gate) = harness_held(&db, SIZE);
    step_until(&mut h, "the feeds show", |app| {
        app.feeds.as_ref().is_some_and(|f| f.len() == 1) && app.rows_loaded()
    });
    step_until_check_held(&mut h, &gate);
    h.get_by_label("Refresh").click();
    h.run_steps(2);
    h.state_mut().subscribe(server.url("/other.xml"));
    h.run_steps(2);
    assert!(
        server.routes.log().is_empty(),
        "nothing fetched before the check"
    );

    gate.open();
    step_until(&mut h, "both the refresh and the subscription ran", |app| {
        app.feeds.as_ref().is_some_and(|f| f.len() == 2)
            && app.rows.iter().any(|r| r.title == "The first story")
    });
    settle(&mut h);
    assert_eq!(
        server.routes.hits("/feed.xml").len(),
        1,
        "the refresh ran once"
    );
}

/// A refresh of some feeds asked for while the check runs refreshes those feeds once it passes,
/// not every feed.
#[test]
fn a_refresh_of_some_feeds_held_by_the_check_stays_a_refresh_of_those_feeds() {
    let server = Server::start();
    serve_stories(&server, "Loopback News", &["The first story"]);
    server.routes.set(
        "/other.xml",
        Reply::ok("application/rss+xml", rss("Other Paper", &[])),
    );
    let (dir, built, feed) = subscribed(&server, "30");
    Store::open(&built)
        .unwrap()
        .feed_add(&server.url("/other.xml"), None, None, 1_790_000_000)
        .unwrap();
    let db = dir.path().join("copy.db");
    std::fs::copy(&built, &db).unwrap();
    let (mut h, gate) = harness_held(&db, SIZE);
    step_until(&mut h, "the feeds show", |app| {
        app.feeds.as_ref().is_some_and(|f| f.len() == 2) && app.rows_loaded()
    });
    step_until_check_held(&mut h, &gate);
    h.state_mut().start_refresh(Some(vec![feed]));
    gate.open();
    step_until(&mut h, "the one feed is refreshed", |app| {
        app.rows.iter().any(|r| r.title == "The first story")
    });
    settle(&mut h);
    assert_eq!(server.routes.hits("/feed.xml").len(), 1);
    assert!(
        server.routes.hits("/other.xml").is_empty(),
        "a feed that was not asked for was refreshed"
    );
}

/// A file dialog that fails on a bug (rfd panicking where no dialog can be shown).
#[derive(Debug)]
struct BrokenDialog;

impl FilePicker for BrokenDialog {
    fn pick(&self, _purpose: PickFor) -> Option<std::path::PathBuf> {
        panic!("no display for the dialog")
    }
}

/// A file dialog that panics leaves Browse… usable and says to type a path.
#[test]
fn browse_with_a_file_dialog_that_fails_on_a_bug_does_not_hang() {
    browse_ends_in_a_typed_path(BrokenDialog, "type a path");
}
