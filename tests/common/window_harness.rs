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

/// A window of `size` over the database at `db` whose integrity check waits at `CheckGate` until
/// the test opens it.
pub fn harness_held(db: &Path, size: [f32; 2]) -> (Harness<'static, App>, CheckGate) {
    let gate = CheckGate::default();
    let mut config = Config::new(db.to_path_buf());
    config.before_check = Some(gate.hook());
    (harness_with(config, size), gate)
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

/// A gate a test holds the window's integrity check at (`Config::before_check`), and opens.
#[derive(Clone, Default)]
pub struct CheckGate(std::sync::Arc<(std::sync::Mutex<(bool, bool)>, std::sync::Condvar)>);

impl CheckGate {
    /// The hook: says the check is about to run, then waits until the test opens the gate.
    pub fn hook(&self) -> pith::ui::worker::Hook {
        let gate = self.clone();
        pith::ui::worker::Hook(std::sync::Arc::new(move || {
            let (state, changed) = &*gate.0;
            let mut s = state.lock().unwrap();
            s.0 = true;
            changed.notify_all();
            while !s.1 {
                s = changed.wait(s).unwrap();
            }
        }))
    }

    pub fn reached(&self) -> bool {
        self.0.0.lock().unwrap().0
    }

    pub fn open(&self) {
        let (state, changed) = &*self.0;
        state.lock().unwrap().1 = true;
        changed.notify_all();
    }
}

/// Steps frames until the window's check has reached `gate` (and waits there).
pub fn step_until_check_held(h: &mut Harness<'static, App>, gate: &CheckGate) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !gate.reached() {
        assert!(Instant::now() < deadline, "the check never started");
        h.step();
        std::thread::sleep(Duration::from_millis(5));
    }
}
