//! The window driven through its real state with egui_kittest: a small database built in a
//! tempdir through the Store API (real pages, so the classifier has real content and boilerplate),
//! the app's own worker threads answering, and the accessibility tree read back. No network.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::window_fixture as fx;
use common::window_harness;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use pith::ui::{App, Config};

fn harness(db: &Path) -> Harness<'static, App> {
    Harness::builder()
        .with_size([1400.0, 1000.0])
        .build_ui_state(
            |ui, app: &mut App| app.show(ui),
            App::new(Config::new(db.to_path_buf())),
        )
}

/// Steps frames until every question the window asked its workers is answered.
fn settle(h: &mut Harness<'static, App>) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        h.step();
        if h.state().is_idle() && h.state().rows_loaded() {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the window's workers did not answer"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    // A few more frames for what the answers changed to be laid out and drawn.
    h.run_steps(3);
}

fn has_label_containing(h: &Harness<'static, App>, text: &str) -> bool {
    h.query_all_by_label_contains(text).next().is_some()
}

fn open_fixture(pages: usize) -> (tempfile::TempDir, fx::Fixture, Harness<'static, App>) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pith.db");
    let fixture = fx::build(&db, pages);
    let mut h = harness(&db);
    settle(&mut h);
    (dir, fixture, h)
}

#[test]
fn an_empty_database_opens_on_a_friendly_first_screen() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(&dir.path().join("pith.db"));
    settle(&mut h);
    assert!(has_label_containing(&h, "Welcome to pith"));
    h.get_by_label("Add feed");
    h.get_by_label("Import OPML");
}

#[test]
fn selecting_a_feed_and_an_item_shows_its_content_blocks_and_none_of_its_boilerplate() {
    let (_dir, fixture, mut h) = open_fixture(12);
    // The failing feed shows its error inline.
    assert!(has_label_containing(&h, fx::BROKEN_ERROR));

    h.get_by_label_contains(&format!("{}   12", fx::FEED))
        .click();
    settle(&mut h);
    assert_eq!(
        h.state().source,
        pith::ui::sidebar::Source::Feed(fixture.feed)
    );
    assert_eq!(h.state().rows.len(), 12);

    // Newest first: page 11 heads the list.
    h.get_by_label(&fx::title(11)).click();
    settle(&mut h);
    let open = h.state().open.as_ref().expect("an article is open");
    assert_eq!(open.article.item.id, fixture.items[11]);
    assert!(open.article.blocks.iter().any(|b| !b.is_content()));
    // The photo came from the offline store.
    assert_eq!(open.textures.len(), 1, "the content image is decoded");

    assert!(
        has_label_containing(&h, &fx::content_sentence(11)),
        "the article's text is in the reading pane"
    );
    assert!(has_label_containing(&h, "What happens next on"));
    assert!(has_label_containing(&h, "The Maple bridge closes"));
    // An ordered list shows its numbers (from its `start`), an unordered one its bullets, and
    // code keeps its indentation.
    h.get_by_label("2.");
    h.get_by_label("3.");
    assert!(h.query_all_by_label("•").count() >= 3);
    assert!(has_label_containing(&h, "closure:\n    Maple bridge"));
    for text in fx::BOILERPLATE {
        assert!(
            !has_label_containing(&h, text),
            "boilerplate {text:?} is in the reading pane"
        );
    }
    // Opening marks it read, and the feed's unread count follows.
    assert!(h.state().rows[0].read);
    assert!(has_label_containing(&h, &format!("{}   11", fx::FEED)));
}

#[test]
fn the_inspector_shows_every_block_with_its_label_and_why() {
    let (_dir, _fixture, mut h) = open_fixture(12);
    h.get_by_label(&fx::title(11)).click();
    settle(&mut h);
    h.key_press(egui::Key::I);
    settle(&mut h);
    assert!(h.state().inspector);
    // The template now shows too, shaded as boilerplate.
    for text in fx::BOILERPLATE {
        assert!(has_label_containing(&h, text), "{text:?} in the inspector");
    }
    let article = &h.state().open.as_ref().unwrap().article;
    let content = article.blocks.iter().filter(|b| b.is_content()).count();
    let boilerplate = article.blocks.len() - content;
    let shown_content =
        h.query_all_by_label("content").count() + h.query_all_by_label("new content").count();
    assert_eq!(shown_content, content);
    assert_eq!(h.query_all_by_label("boilerplate").count(), boilerplate);
    // The site's tree is there, with the deciding node.
    assert!(has_label_containing(&h, "examplenews.com   n_s = 12"));
    assert!(has_label_containing(&h, "decided this page"));

    // Clicking a block explains it.
    h.get_by_label(fx::BOILERPLATE[0]).click();
    settle(&mut h);
    assert!(h.state().inspected.is_some());
    h.get_by_label("page-level verdict");
    h.get_by_label("link density");
    h.get_by_label("n_s");
}

#[test]
fn pinning_a_block_changes_its_label_and_the_pin_can_be_removed() {
    let (_dir, _fixture, mut h) = open_fixture(12);
    h.get_by_label(&fx::title(11)).click();
    settle(&mut h);
    h.key_press(egui::Key::I);
    settle(&mut h);
    // The promo line at the top of the page (a block in view: kittest clicks where a node is).
    let weather = fx::BOILERPLATE[0];
    h.get_by_label(weather).click();
    settle(&mut h);
    h.get_by_label("Pin: always content").click();
    settle(&mut h);
    let article = &h.state().open.as_ref().unwrap().article;
    let block = article.blocks.iter().find(|b| b.text == weather).unwrap();
    assert!(
        block.is_content(),
        "the pin made it content: {:?}",
        block.label
    );
    // The block's shading word (and the explanation's verdict line) say so.
    assert!(
        h.query_all_by_label("content (pinned)").count()
            + h.query_all_by_label("new content (pinned)").count()
            >= 1
    );
    assert_eq!(h.state().pins.len(), 1);
    // Out of the inspector, the reading pane shows it now.
    h.key_press(egui::Key::I);
    settle(&mut h);
    assert!(has_label_containing(&h, weather));

    h.key_press(egui::Key::I);
    settle(&mut h);
    h.get_by_label("Remove pin").click();
    settle(&mut h);
    assert!(h.state().pins.is_empty());
    let article = &h.state().open.as_ref().unwrap().article;
    let block = article.blocks.iter().find(|b| b.text == weather).unwrap();
    assert!(!block.is_content());
}

#[test]
fn keys_move_the_selection_star_and_mark_read() {
    let (_dir, fixture, mut h) = open_fixture(8);
    // All items: the site's 8, newest first.
    assert_eq!(h.state().rows.len(), 8);
    h.key_press(egui::Key::J);
    settle(&mut h);
    assert_eq!(h.state().selected, Some(0));
    assert_eq!(
        h.state().open.as_ref().unwrap().article.item.id,
        fixture.items[7]
    );
    h.key_press(egui::Key::J);
    settle(&mut h);
    assert_eq!(h.state().selected, Some(1));
    assert!(has_label_containing(&h, &fx::content_sentence(6)));
    h.key_press(egui::Key::K);
    settle(&mut h);
    assert_eq!(h.state().selected, Some(0));
    // n skips the read item 1 and goes to 2.
    h.key_press(egui::Key::N);
    settle(&mut h);
    assert_eq!(h.state().selected, Some(2));
    // p goes back to the previous unread one: none before 2 is unread, so it wraps to the end.
    h.key_press(egui::Key::P);
    settle(&mut h);
    assert_eq!(h.state().selected, Some(7));
    // m marks it unread again, s stars it.
    h.key_press(egui::Key::M);
    settle(&mut h);
    assert!(!h.state().rows[7].read);
    h.key_press(egui::Key::S);
    settle(&mut h);
    assert!(h.state().rows[7].starred);
    // ? shows the keys.
    h.key_press(egui::Key::Questionmark);
    settle(&mut h);
    assert!(h.state().help);
    h.get_by_label("next unread item");
    // / focuses the search; typing there does not move the selection.
    h.key_press(egui::Key::Escape);
    h.key_press(egui::Key::Slash);
    settle(&mut h);
    h.key_press(egui::Key::J);
    settle(&mut h);
    assert_eq!(h.state().selected, Some(7));
}

/// The reader's keys work while a toolbar button has the keyboard focus (a real click leaves it
/// there): Space pages down instead of pressing the button again, and j moves the selection.
#[test]
fn keys_reach_the_reader_while_a_toolbar_button_has_the_focus() {
    let (_dir, _fixture, mut h) = open_fixture(8);
    let size = h.state().text_size;
    h.get_by_label("A+").click();
    settle(&mut h);
    assert_eq!(h.state().text_size, size + 1.0);
    // The harness's click does not focus the button as a pointer click does: focus it.
    h.get_by_label("A+").focus();
    settle(&mut h);
    assert!(h.ctx.memory(|m| m.focused()).is_some());
    h.key_press(egui::Key::J);
    settle(&mut h);
    assert_eq!(h.state().selected, Some(0), "j moves the selection");
    assert!(h.state().open.is_some(), "j opens the item");
    let top = h.state().reader_offset();
    h.key_press(egui::Key::Space);
    settle(&mut h);
    assert!(
        h.state().reader_offset() > top,
        "space pages the reader down ({top} -> {})",
        h.state().reader_offset()
    );
    assert_eq!(h.state().selected, Some(0), "still the same item");
    h.key_press(egui::Key::Space);
    settle(&mut h);
    assert_eq!(h.state().text_size, size + 1.0, "space pressed A+ again");
}

#[test]
fn search_lists_the_matching_items() {
    let (_dir, fixture, mut h) = open_fixture(8);
    h.state_mut().search = "Dogwood".into();
    h.state_mut()
        .set_source(pith::ui::sidebar::Source::Search("Dogwood".into()));
    settle(&mut h);
    let rows = &h.state().rows;
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0].id, fixture.items[3]);
}

#[test]
fn subscribing_from_the_first_screen_opens_no_dialog_behind_it() {
    use common::server::{Reply, Server, article, rss};
    let server = Server::start();
    let story = "/news/2024/first.html";
    server.routes.set(
        story,
        Reply::ok(
            "text/html",
            article(
                "The first story",
                &["The first story of the new reader has a paragraph of its own, in full."],
                None,
            ),
        ),
    );
    let entries = vec![(
        "The first story".to_string(),
        server.url(story),
        "Its summary.".to_string(),
    )];
    server.routes.set(
        "/feed.xml",
        Reply::ok("application/rss+xml", rss("First feed", &entries)),
    );
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(&dir.path().join("pith.db"));
    settle(&mut h);
    assert!(has_label_containing(&h, "Welcome to pith"));
    let url = server.url("/feed.xml");
    h.get_by_label("Feed address").click();
    h.run_steps(2);
    h.get_by_label("Feed address").type_text(&url);
    h.run_steps(2);
    h.get_by_label("Add feed").click();
    h.run_steps(2);
    // The subscription is made and fetched by the window's workers.
    let deadline = Instant::now() + Duration::from_secs(30);
    while h.state().feeds.as_ref().is_none_or(|f| f.is_empty()) {
        assert!(
            Instant::now() < deadline,
            "the feed was not subscribed: {:?}",
            h.state().status
        );
        h.step();
        std::thread::sleep(Duration::from_millis(5));
    }
    settle(&mut h);
    assert!(!has_label_containing(&h, "Welcome to pith"));
    assert!(h.state().add.is_none(), "no add dialog was asked for");
    assert!(h.query_by_label("Add a feed").is_none());
}

/// Writes at `path` an SQLite file damaged past its header: what SQLite refuses as corrupt and
/// pith moves aside.
fn write_damaged_database(path: &Path) {
    let mut damaged = b"SQLite format 3\0".to_vec();
    damaged.resize(64 * 1024, 0x42);
    std::fs::write(path, &damaged).unwrap();
}

/// Steps frames until `done` holds, failing after a while.
fn step_until(h: &mut Harness<'static, App>, what: &str, done: impl Fn(&App) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !done(h.state()) {
        assert!(Instant::now() < deadline, "{what}: {:?}", h.state().status);
        h.step();
        std::thread::sleep(Duration::from_millis(5));
    }
    h.run_steps(3);
}

#[test]
fn a_damaged_database_is_explained_and_a_backup_can_be_restored_from_the_window() {
    let dir = tempfile::tempdir().unwrap();
    // A good database with one feed, backed up. (Built apart: this process checks a file
    // once, and the window must meet the damaged one unchecked, as a new start of pith does.)
    let good = dir.path().join("good.db");
    fx::build(&good, 3);
    let backup = dir.path().join("backup.db");
    pith::store::Store::open(&good)
        .unwrap()
        .backup(&backup)
        .unwrap();
    // The user's database, damaged past its header.
    let db = dir.path().join("pith.db");
    write_damaged_database(&db);

    let mut h = harness(&db);
    step_until(&mut h, "the open fails", |app| app.store_error.is_some());
    h.get_by_label("pith could not open its database");
    assert!(has_label_containing(&h, "damaged"));
    let moved: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("pith.db.corrupt-"))
        .collect();
    assert_eq!(moved.len(), 1);
    assert!(
        has_label_containing(&h, &moved[0]),
        "the window says where the damaged file went"
    );
    assert!(!has_label_containing(&h, "Welcome to pith"));

    // Put the backup in place: the window opens on its feeds.
    h.get_by_label("Backup file").click();
    h.run_steps(2);
    h.get_by_label("Backup file")
        .type_text(backup.to_str().unwrap());
    h.run_steps(2);
    h.get_by_label("Restore").click();
    step_until(&mut h, "the backup is restored", |app| {
        app.store_error.is_none() && app.feeds.as_ref().is_some_and(|f| !f.is_empty())
    });
    assert!(has_label_containing(&h, fx::FEED));
}

#[test]
fn a_fresh_start_after_a_damaged_database_opens_the_first_screen() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pith.db");
    write_damaged_database(&db);
    let mut h = harness(&db);
    step_until(&mut h, "the open fails", |app| app.store_error.is_some());
    h.get_by_label("Start with a new, empty database").click();
    step_until(&mut h, "a new database opens", |app| {
        app.store_error.is_none() && app.feeds.is_some()
    });
    assert!(has_label_containing(&h, "Welcome to pith"));
}

#[test]
fn a_file_that_is_not_a_database_is_named_and_left_alone_with_no_fresh_start_offered() {
    let dir = tempfile::tempdir().unwrap();
    let opml = dir.path().join("subs.opml");
    let text = "<?xml version=\"1.0\"?><opml version=\"2.0\"><body/></opml>";
    std::fs::write(&opml, text).unwrap();
    let mut h = harness(&opml);
    step_until(&mut h, "the open fails", |app| app.store_error.is_some());
    h.get_by_label("pith could not open its database");
    assert!(has_label_containing(&h, "not an SQLite database"));
    assert!(
        h.query_by_label("Start with a new, empty database")
            .is_none()
    );
    assert!(
        h.query_by_label("Backup file").is_none(),
        "no restore over a file that is not a database"
    );
    assert_eq!(std::fs::read_to_string(&opml).unwrap(), text);
}

/// The URLs the window handed to the system browser over the next few frames.
fn opened_urls(h: &mut Harness<'static, App>) -> Vec<String> {
    let mut opened = Vec::new();
    // A click is seen in one frame and the URL handed over in the next.
    for _ in 0..3 {
        h.step();
        for command in &h.output().platform_output.commands {
            if let egui::OutputCommand::OpenUrl(open) = command {
                opened.push(open.url.clone());
            }
        }
    }
    opened
}

/// Clicks on the first word of the paragraph that starts with `lead`: each test paragraph opens
/// with its link, so that is where a link would be.
fn click_paragraph_start(h: &mut Harness<'static, App>, lead: &str) -> Vec<String> {
    let rect = h.get_by_label_contains(lead).rect();
    let pos = rect.min + egui::vec2(6.0, rect.height().min(20.0) / 2.0);
    h.hover_at(pos);
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
    }
    opened_urls(h)
}

/// The reading pane opens an ordinary link and nothing else a page may offer: a URL with a user
/// name and password (`https://bank.example@evil.example` is a phishing device), a local file, a
/// script and an over-long URL are drawn as plain text, and clicking them opens nothing. The
/// window's last gate (every URL it opens passes it) refuses them too.
#[test]
fn the_reading_pane_opens_only_safe_links() {
    const ORDINARY: &str = "https://council.example.org/minutes/2026";
    let long = format!(
        "https://example.com/{}",
        "a".repeat(pith::limits::MAX_URL_LEN)
    );
    let links = [
        ("Ordinary minutes", ORDINARY.to_string()),
        (
            "Credential trap",
            "https://user:pass@example.com/".to_string(),
        ),
        ("Local file", "file:///etc/passwd".to_string()),
        ("Script trap", "javascript:alert(1)".to_string()),
        ("Endless address", long.clone()),
    ];
    let paragraphs: String = links
        .iter()
        .map(|(lead, href)| {
            format!(
                "<p><a href=\"{href}\">{lead}</a> {} and the residents of the town read every \
                 word of it before the meeting on Thursday evening.</p>\n",
                fx::content_sentence(3)
            )
        })
        .collect();
    let title = "What the council decided about the bridge this week";
    let html = format!(
        "<!doctype html><html><head><title>{title}</title></head><body><main><article>\
         <h1>{title}</h1>\n{paragraphs}</article></main></body></html>"
    );
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pith.db");
    let url = "https://www.examplenews.com/local/2026/council-decides";
    let item = fx::build_article(&db, url, title, &html);
    let mut h = harness(&db);
    settle(&mut h);
    h.get_by_label(title).click();
    settle(&mut h);
    let article = &h
        .state()
        .open
        .as_ref()
        .expect("the article is open")
        .article;
    assert_eq!(article.item.id, item);
    // Only the ordinary link is a link of the article; the rest are its text.
    let hrefs: Vec<&str> = article
        .blocks
        .iter()
        .flat_map(|b| &b.links)
        .map(|l| l.href.as_str())
        .collect();
    assert_eq!(hrefs, [ORDINARY]);

    for (lead, href) in &links {
        assert!(
            has_label_containing(&h, lead),
            "the paragraph of {lead:?} is in the reading pane"
        );
        let opened = click_paragraph_start(&mut h, lead);
        if href == ORDINARY {
            assert_eq!(opened, [ORDINARY], "the ordinary link opens");
        } else {
            assert!(opened.is_empty(), "clicking {lead:?} opened {opened:?}");
        }
    }

    // The window's gate for every URL it opens (the item's address with `o`, a clicked link).
    for (_, href) in &links[1..] {
        h.state_mut().open_link(href.clone());
        assert!(opened_urls(&mut h).is_empty(), "{href:.60} was opened");
        let status = h.state().status.clone().unwrap_or_default();
        assert!(status.starts_with("Not opened"), "{status:.300}");
    }
    h.state_mut().open_link(ORDINARY.to_string());
    assert_eq!(opened_urls(&mut h), [ORDINARY]);
}

/// A database built through the Store API, then copied to `pith.db`: this process checked the
/// file it built, and the window must meet the copy unchecked, as a new start of pith does.
fn unchecked_fixture(dir: &Path, pages: usize) -> (std::path::PathBuf, fx::Fixture) {
    let built = dir.join("built.db");
    let fixture = fx::build(&built, pages);
    let db = dir.join("pith.db");
    std::fs::copy(&built, &db).unwrap();
    (db, fixture)
}

/// The database file and its write-ahead log, byte for byte: what a write would change. (The
/// `-shm` index changes with every read, so it is not compared.)
fn file_bytes(db: &Path) -> (Vec<u8>, Option<Vec<u8>>) {
    let mut wal = db.as_os_str().to_owned();
    wal.push("-wal");
    (std::fs::read(db).unwrap(), std::fs::read(wal).ok())
}

fn stored_item(db: &Path, id: i64) -> (bool, bool) {
    let conn =
        rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .unwrap();
    conn.query_row("SELECT read, starred FROM item WHERE id = ?1", [id], |r| {
        Ok((r.get(0)?, r.get(1)?))
    })
    .unwrap()
}

#[test]
fn the_list_shows_before_the_database_check_ends_and_nothing_writes_until_it_passes() {
    let dir = tempfile::tempdir().unwrap();
    let (db, fixture) = unchecked_fixture(dir.path(), 3);
    let (mut h, gate) = window_harness::harness_held(&db, [1400.0, 1000.0]);

    // The feeds and the list come while the check is held.
    step_until(&mut h, "the list shows", |app| {
        app.rows_loaded() && app.feeds.is_some()
    });
    window_harness::step_until_check_held(&mut h, &gate);
    assert!(!h.state().store_checked());
    assert_eq!(h.state().rows.len(), 3);
    assert!(has_label_containing(&h, &fx::title(2)));
    let before = file_bytes(&db);

    // The user reads, stars and changes the text size meanwhile. (The refresh's wait is seen in
    // `window_manage.rs`, against a loopback feed.)
    h.get_by_label(&fx::title(2)).click();
    step_until(&mut h, "the article opens", |app| app.open.is_some());
    assert!(
        has_label_containing(&h, &fx::content_sentence(2)),
        "the article is shown before the check ends"
    );
    h.key_press(egui::Key::S);
    h.key_press(egui::Key::Plus);
    h.run_steps(5);
    std::thread::sleep(Duration::from_millis(200));
    h.run_steps(5);
    assert!(!h.state().is_idle(), "the writes wait for the check");
    assert!(
        file_bytes(&db) == before,
        "something wrote before the check"
    );
    assert_eq!(stored_item(&db, fixture.items[2]), (false, false));

    // The check passes: what waited is written.
    gate.open();
    step_until(&mut h, "the check passes", |app| app.store_checked());
    settle(&mut h);
    assert_eq!(stored_item(&db, fixture.items[2]), (true, true));
    let size: String = rusqlite::Connection::open(&db)
        .unwrap()
        .query_row(
            "SELECT value FROM setting WHERE key = 'text_size'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(size, "18");
}

#[test]
fn damage_found_by_the_background_check_leads_to_the_damage_screen_and_the_file_moved_aside() {
    let dir = tempfile::tempdir().unwrap();
    let (db, _fixture) = unchecked_fixture(dir.path(), 3);
    // Damage a page the lists do not read (one of the stored raw pages'): the window opens, and
    // only the check finds it.
    let (pageno, page_size): (i64, i64) = {
        let conn =
            rusqlite::Connection::open_with_flags(&db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
                .unwrap();
        (
            conn.query_row(
                "SELECT max(pageno) FROM dbstat WHERE name = 'page'",
                [],
                |r| r.get(0),
            )
            .unwrap(),
            conn.query_row("PRAGMA page_size", [], |r| r.get(0))
                .unwrap(),
        )
    };
    let mut bytes = std::fs::read(&db).unwrap();
    let at = usize::try_from((pageno - 1) * page_size).unwrap();
    bytes[at..at + usize::try_from(page_size).unwrap()].fill(0x5a);
    std::fs::write(&db, &bytes).unwrap();

    let (mut h, gate) = window_harness::harness_held(&db, [1400.0, 1000.0]);
    step_until(&mut h, "the list shows", |app| app.rows_loaded());
    assert!(h.state().store_error.is_none());
    assert_eq!(h.state().rows.len(), 3);
    assert!(db.exists(), "not moved while the window reads it");
    gate.open();
    step_until(&mut h, "the check finds the damage", |app| {
        app.store_error.is_some()
    });
    h.get_by_label("pith could not open its database");
    assert!(has_label_containing(&h, "damaged"));
    let moved: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| {
            n.starts_with("pith.db.corrupt-") && !n.ends_with("-wal") && !n.ends_with("-shm")
        })
        .collect();
    assert_eq!(moved.len(), 1, "{moved:?}");
    assert!(!db.exists());
    assert_eq!(
        std::fs::read(dir.path().join(&moved[0])).unwrap(),
        bytes,
        "the damaged file is kept as it was found"
    );
    assert!(
        has_label_containing(&h, &moved[0]),
        "the window says where the damaged file went"
    );
    h.get_by_label("Start with a new, empty database");
    assert_eq!(pith::store::open_connections(&db), 0);
}

/// A check that stops on a bug (it panics) ends in the window's account of the trouble, never in
/// "checking" for ever: the file is left where it is, and what waited for the check is dropped.
#[test]
fn a_check_that_stops_on_a_bug_ends_in_an_error_not_in_checking_for_ever() {
    let dir = tempfile::tempdir().unwrap();
    let (db, _fixture) = unchecked_fixture(dir.path(), 3);
    let gate = window_harness::CheckGate::default();
    let held = gate.hook();
    let mut config = Config::new(db.clone());
    config.before_check = Some(pith::ui::worker::Hook(std::sync::Arc::new(move || {
        (held.0)();
        panic!("a bug in the check");
    })));
    let mut h = Harness::builder()
        .with_size([1400.0, 1000.0])
        .build_ui_state(|ui, app: &mut App| app.show(ui), App::new(config));
    step_until(&mut h, "the list shows", |app| app.rows_loaded());
    window_harness::step_until_check_held(&mut h, &gate);
    h.state_mut().start_refresh(None);
    assert!(
        h.state()
            .status
            .as_deref()
            .is_some_and(|s| s.starts_with("Checking the database"))
    );
    gate.open();
    step_until(&mut h, "the window hears the check stopped", |app| {
        app.store_error.is_some()
    });
    assert!(h.state().is_idle());
    assert!(!h.state().store_checked());
    h.get_by_label("pith could not open its database");
    assert!(has_label_containing(&h, "stopped on a bug"));
    assert!(
        !h.state()
            .status
            .as_deref()
            .is_some_and(|s| s.starts_with("Checking the database")),
        "the status bar still says the database is being checked: {:?}",
        h.state().status
    );
    assert!(db.exists(), "the file stays where it is");
}

/// A window over the 12 fixture articles and `bulk` archived items (older than the articles),
/// settled: its list holds the first page.
fn open_long_list(
    bulk: usize,
    prepare: impl FnOnce(&Path),
) -> (tempfile::TempDir, Harness<'static, App>) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pith.db");
    let fixture = fx::build(&db, 12);
    fx::add_bulk_items(&db, fixture.feed, bulk);
    prepare(&db);
    let mut h = harness(&db);
    settle(&mut h);
    (dir, h)
}

/// The list is read a page at a time: scrolled near the end of the first page, it loads the
/// next one (on the worker), and then the rest; the status bar counts the whole list from the
/// start, not the rows loaded.
#[test]
fn the_list_loads_its_next_page_when_scrolled_near_its_end() {
    let page = pith::limits::LIST_PAGE_ROWS;
    let total = 12 + 2 * page + 50;
    let (_dir, mut h) = open_long_list(total - 12, |_| {});
    assert_eq!(h.state().rows.len(), page, "the first page only");
    assert!(h.state().list_more());
    assert_eq!(h.state().list_total(), Some(total as u64));
    assert!(has_label_containing(&h, &format!("{total} items")));
    // Wheel down over the list until every page is in.
    h.hover_at(egui::pos2(400.0, 500.0));
    let deadline = Instant::now() + Duration::from_secs(60);
    while h.state().rows.len() < total {
        assert!(
            Instant::now() < deadline,
            "the list stopped at {} rows",
            h.state().rows.len()
        );
        h.event(egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Point,
            delta: egui::vec2(0.0, -2000.0),
            phase: egui::TouchPhase::Move,
            source: egui::MouseWheelSource::Unknown,
            modifiers: egui::Modifiers::NONE,
        });
        h.step();
        std::thread::sleep(Duration::from_millis(2));
    }
    settle(&mut h);
    assert!(!h.state().list_more());
    // Every item once, newest first: the pages follow one another without a gap or a repeat.
    let rows = &h.state().rows;
    let ids: std::collections::HashSet<_> = rows.iter().map(|r| r.id).collect();
    assert_eq!(ids.len(), total);
    assert!(rows.windows(2).all(|w| w[0].key() > w[1].key()));
}

/// Keys move past the loaded rows: `n` with no unread item among them asks for the next pages
/// until it finds one (the oldest item, on the last page) rather than saying none is left.
#[test]
fn keys_move_past_the_first_page_of_the_list() {
    let page = pith::limits::LIST_PAGE_ROWS;
    let total = 12 + 2 * page + 50;
    let mut oldest = 0;
    let (_dir, mut h) = open_long_list(total - 12, |db| {
        let mut store = pith::store::Store::open(db).unwrap();
        store.set_read(pith::store::ItemScope::All, true).unwrap();
        oldest = store
            .item_by_link("https://www.examplenews.com/archive/0")
            .unwrap()
            .unwrap();
        store
            .set_read(pith::store::ItemScope::Item(oldest), false)
            .unwrap();
    });
    assert_eq!(h.state().rows.len(), page);
    h.key_press(egui::Key::N);
    step_until(
        &mut h,
        "n reaches the unread item on the last page",
        |app| app.selected_item() == Some(oldest),
    );
    assert_eq!(h.state().selected, Some(total - 1));
    assert_ne!(h.state().status.as_deref(), Some("No unread items left."));
}

/// A page whose article a script draws holds nothing pith can keep: the reading pane shows the
/// feed's whole post in its place, under a notice that says so, and the inspector still shows
/// the page's own blocks.
#[test]
fn the_feeds_whole_post_stands_in_for_a_page_that_holds_little_of_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pith.db");
    let title = "Tram timetable agreed";
    let post: String = (0..9)
        .map(|n| {
            format!(
                "<p>Line {n} of the tram story reports how the new timetable was agreed and \
                 what it changes for commuters.</p>"
            )
        })
        .collect();
    let html = format!(
        "<!doctype html><html><head><title>{title}</title></head><body><div id=app>\
         Loading…</div><footer><p>Copyright The Example News, all rights reserved, terms of \
         use and privacy policy apply.</p></footer></body></html>"
    );
    fx::build_article_with_entry_text(
        &db,
        "https://www.examplenews.com/city/2026/tram",
        title,
        &html,
        Some(&post),
    );
    let mut h = harness(&db);
    settle(&mut h);
    h.get_by_label(title).click();
    settle(&mut h);
    assert!(has_label_containing(
        &h,
        "pith found little of the article on its page"
    ));
    assert!(has_label_containing(&h, "Line 8 of the tram story"));
    assert!(!has_label_containing(&h, "Copyright The Example News"));
    h.key_press(egui::Key::I);
    settle(&mut h);
    assert!(has_label_containing(&h, "Copyright The Example News"));
}
