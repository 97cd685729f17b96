//! Driving the window in its tests: a kittest harness over the real `App` (its worker threads
//! answering), and waits that step frames until the window has what a test asks for, with a
//! deadline that fails loudly, never a fixed sleep.

#![allow(dead_code)] // each test binary uses its own subset

use std::path::Path;
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use pith::ui::{App, Config};

/// A window of `size` over the database at `db`.
pub fn harness_sized(db: &Path, size: [f32; 2]) -> Harness<'static, App> {
    harness_with(Config::new(db.to_path_buf()), size)
}

/// A window of `size` started with `config`.
pub fn harness_with(config: Config, size: [f32; 2]) -> Harness<'static, App> {
    Harness::builder()
        .with_size(size)
        .build_ui_state(|ui, app: &mut App| app.show(ui), App::new(config))
}

/// Steps frames until every question the window asked its workers is answered.
pub fn settle(h: &mut Harness<'static, App>) {
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

/// Steps frames until `done` holds, failing after a while with `what` and the status line.
pub fn step_until(h: &mut Harness<'static, App>, what: &str, done: impl Fn(&App) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !done(h.state()) {
        assert!(Instant::now() < deadline, "{what}: {:?}", h.state().status);
        h.step();
        std::thread::sleep(Duration::from_millis(5));
    }
    h.run_steps(3);
}

/// Whether some node's label contains `text`.
pub fn has_label_containing(h: &Harness<'static, App>, text: &str) -> bool {
    h.query_all_by_label_contains(text).next().is_some()
}
