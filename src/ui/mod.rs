//! The window: three panes (feeds, items, the reading pane), the inspector and the site's URL
//! Tree, on the same library calls as the command line. The frame never waits on the network or
//! on heavy disk work: [`worker`] does those on threads of their own.

pub mod app;
pub mod fonts;
pub mod inspector;
pub mod items;
pub mod keys;
pub mod layout;
pub mod pins;
pub mod reader;
pub mod schedule;
pub mod sidebar;
pub mod tree_view;
pub mod worker;

pub use app::App;
pub use worker::Config;

/// Opens the window and runs it until it is closed.
pub fn run(config: Config) -> Result<(), eframe::Error> {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("pith")
            .with_app_id("pith")
            .with_inner_size([1280.0, 800.0])
            .with_min_inner_size([640.0, 400.0]),
        // The window installs its own system-font fallback (`fonts`), also under test.
        system_font_fallback: false,
        ..Default::default()
    };
    eframe::run_native(
        "pith",
        options,
        Box::new(move |_cc| Ok(Box::new(App::new(config)))),
    )
}
