//! Window timings on a database of 100,000 items (`cargo bench --bench window`): the first frame
//! and the first frame with the item list, an item-list frame while scrolling, and opening an
//! article (the library call alone, and key press to the article on screen). Frames are the app's
//! own frame function run by egui_kittest's harness (layout and tessellation-free: the GPU's
//! share is not in these numbers). A plain binary (no libtest harness): it prints figures.

#[path = "../tests/common/window_fixture.rs"]
mod fixture;

use std::time::{Duration, Instant};

use egui_kittest::Harness;
use pith::extract::Engine;
use pith::store::Store;
use pith::ui::{App, Config};

const ITEMS: usize = 100_000;

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

/// The window opened on an existing database (`PITH_WINDOW_DB=FILE cargo bench --bench window`,
/// e.g. the simulated year's last day, kept by `year --year-keep`): its first frame, its first
/// frame with the item list's first page (the worker's open and the page's query; the file's
/// `quick_check` runs beside them, in the background), the first with the feeds' counts and the
/// list's count (asked after the page), and when that check passed, from which on the window
/// writes (its refresh at start, marks, settings). Only the opening is timed.
fn open_only(db: std::path::PathBuf) {
    let db_path = db.clone();
    let start = Instant::now();
    let mut h = Harness::builder()
        .with_size([1400.0, 900.0])
        .build_ui_state(|ui, app: &mut App| app.show(ui), App::new(Config::new(db)));
    let first = start.elapsed();
    // Not until idle: the window's refresh at start (the simulated feeds' hosts do not answer,
    // and its sweep runs at today's date) goes on after the list is shown.
    while !h.state().rows_loaded() {
        h.step();
        std::thread::sleep(Duration::from_millis(1));
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "the list never came"
        );
    }
    h.step();
    let with_list = start.elapsed();
    let checked_by_then = h.state().store_checked();
    // The feeds pane with its counts, and the list's count, asked for after the first page.
    while h.state().feeds.is_none() || h.state().list_total().is_none() {
        h.step();
        std::thread::sleep(Duration::from_millis(1));
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "the feeds never came"
        );
    }
    h.step();
    let with_feeds = start.elapsed();
    while !h.state().store_checked() && h.state().store_error.is_none() {
        h.step();
        std::thread::sleep(Duration::from_millis(1));
        assert!(
            start.elapsed() < Duration::from_secs(600),
            "the check never ended"
        );
    }
    let checked = start.elapsed();
    println!("first frame: {}", ms(first));
    println!(
        "first frame showing the list ({} rows of {}): {}{}",
        h.state().rows.len(),
        h.state().list_total().unwrap_or(0),
        ms(with_list),
        if checked_by_then {
            " (the check had passed already)"
        } else {
            " (the check still running)"
        }
    );
    println!(
        "first frame showing the feeds with their counts and the list's count: {}",
        ms(with_feeds)
    );
    match &h.state().store_error {
        None => println!("integrity check passed, writes allowed: {}", ms(checked)),
        Some(e) => println!("the check failed after {}: {e}", ms(checked)),
    }
    drop(h);
    // The window's search on the same file, with this build (500 hits and their list rows), on
    // common English words.
    let store = Store::open(&db_path).expect("open");
    let mut times = Vec::new();
    for word in [
        "government",
        "people",
        "market",
        "school",
        "between",
        "report",
        "million",
        "health",
        "children",
        "company",
        "water",
        "police",
        "university",
        "season",
        "energy",
        "history",
        "president",
        "family",
        "business",
        "during",
    ] {
        let t = Instant::now();
        let hits = store.search(word, 500).expect("search");
        let ids: Vec<_> = hits.iter().map(|h| h.id).collect();
        std::hint::black_box(store.item_rows_by_id(&ids).expect("rows"));
        times.push(t.elapsed());
    }
    times.sort();
    println!(
        "window search (500 hits + rows, {} words): median {}, max {}",
        times.len(),
        ms(percentile(&times, 0.5)),
        ms(*times.last().unwrap())
    );
}

fn main() {
    if let Some(db) = std::env::var_os("PITH_WINDOW_DB") {
        open_only(db.into());
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("pith.db");
    let t = Instant::now();
    let fx = fixture::build(&db, 12);
    fixture::add_bulk_items(&db, fx.feed, ITEMS - fx.items.len());
    println!(
        "built a database of {ITEMS} items in {:.1} s",
        t.elapsed().as_secs_f64()
    );

    // First frame, and the first frame that shows the list.
    let start = Instant::now();
    let mut h = Harness::builder()
        .with_size([1400.0, 900.0])
        .build_ui_state(
            |ui, app: &mut App| app.show(ui),
            App::new(Config::new(db.clone())),
        );
    let first = start.elapsed();
    while !(h.state().rows_loaded() && h.state().is_idle()) {
        h.step();
        std::thread::sleep(Duration::from_millis(1));
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the list never came"
        );
    }
    h.step();
    let with_list = start.elapsed();
    // The list's first page; its count says the rest is there.
    assert_eq!(h.state().rows.len(), pith::limits::LIST_PAGE_ROWS);
    assert_eq!(h.state().list_total(), Some(ITEMS as u64));
    println!("first frame: {}", ms(first));
    println!(
        "first frame showing the {ITEMS}-item list: {}",
        ms(with_list)
    );

    // Scrolling the list: a wheel event over it every frame.
    h.hover_at(egui::pos2(400.0, 450.0));
    let mut frames = Vec::new();
    for i in 0..300 {
        let dy = if i < 200 { -600.0 } else { 300.0 };
        h.event(egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Point,
            delta: egui::vec2(0.0, dy),
            phase: egui::TouchPhase::Move,
            source: egui::MouseWheelSource::Unknown,
            modifiers: egui::Modifiers::NONE,
        });
        let t = Instant::now();
        h.step();
        frames.push(t.elapsed());
    }
    frames.sort();
    println!(
        "item-list frame while scrolling ({} frames): median {}, p99 {}, max {}",
        frames.len(),
        ms(percentile(&frames, 0.5)),
        ms(percentile(&frames, 0.99)),
        ms(*frames.last().unwrap())
    );

    // Opening an article: the library call alone (what the worker runs)...
    let store = Store::open(&db).expect("open");
    let engine = Engine::default();
    let mut opens = Vec::new();
    for round in 0..5 {
        for &id in &fx.items {
            let t = Instant::now();
            let article = pith::reading::open_article(&store, &engine, id)
                .expect("open")
                .expect("item");
            if round > 0 {
                opens.push(t.elapsed());
            }
            assert!(article.content().count() > 5);
        }
    }
    opens.sort();
    println!(
        "open_article ({} opens): median {}, p99 {}, max {}",
        opens.len(),
        ms(percentile(&opens, 0.5)),
        ms(percentile(&opens, 0.99)),
        ms(*opens.last().unwrap())
    );

    // ...and a key press to the article on screen, images decoded and uploaded.
    h.state_mut()
        .set_source(pith::ui::sidebar::Source::Feed(fx.feed));
    while !h.state().is_idle() {
        h.step();
        std::thread::sleep(Duration::from_millis(1));
    }
    h.step();
    let mut shown = Vec::new();
    for _ in 0..12 {
        let before = h.state().open.as_ref().map(|o| o.article.item.id);
        let t = Instant::now();
        h.key_press(egui::Key::J);
        loop {
            h.step();
            let now = h.state().open.as_ref().map(|o| o.article.item.id);
            if now != before {
                // The frame that drew it has run: this step applied the reply and drew.
                break;
            }
            std::thread::sleep(Duration::from_micros(200));
            assert!(
                t.elapsed() < Duration::from_secs(10),
                "the article never came"
            );
        }
        shown.push(t.elapsed());
        // Let the follow-up questions (the site's tree and pins) finish before the next key.
        while !h.state().is_idle() {
            h.step();
            std::thread::sleep(Duration::from_millis(1));
        }
    }
    shown.sort();
    println!(
        "key press to article on screen ({} opens): median {}, p99 {}, max {}",
        shown.len(),
        ms(percentile(&shown, 0.5)),
        ms(percentile(&shown, 0.99)),
        ms(*shown.last().unwrap())
    );
}
