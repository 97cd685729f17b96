//! The screens shown instead of the three panes: the first screen of an empty database, and the
//! account of a database that could not be opened with its ways on (a fresh start, a restore).

use egui::{RichText, Ui};

use super::App;

impl App {
    /// Starts over with a new worker, which opens the database again (a new, empty one when the
    /// damaged file was moved aside).
    pub(super) fn reopen(&mut self) {
        self.worker = None;
        self.store_error = None;
        self.fresh_start = false;
        self.restorable = false;
        self.feeds = None;
        self.rows.clear();
        self.rows_loaded = false;
        self.open = None;
        self.status = None;
        self.settings_loaded = false;
        self.store_checked = false;
        self.refresh_after_check = None;
        self.subscribe_after_check.clear();
        self.picking = None;
    }

    /// Puts the restore's outcome in place once its thread is done.
    pub(super) fn poll_restore(&mut self) {
        let Some(rx) = &self.restoring else { return };
        match rx.try_recv() {
            Ok(Ok(message)) => {
                self.restoring = None;
                self.reopen();
                self.status = Some(message);
            }
            Ok(Err(e)) => {
                self.restoring = None;
                self.status = Some(e);
            }
            Err(std::sync::mpsc::TryRecvError::Empty) => {}
            Err(std::sync::mpsc::TryRecvError::Disconnected) => self.restoring = None,
        }
    }

    /// What the window shows when its database cannot be opened: why, in full (where a damaged
    /// file went), and the two ways on: a fresh start, or a backup put in place.
    pub(super) fn store_trouble(&mut self, ui: &mut Ui) {
        let error = self.store_error.clone().unwrap_or_default();
        ui.vertical_centered(|ui| {
            ui.set_max_width(640.0);
            ui.add_space(40.0);
            ui.heading(RichText::new("pith could not open its database").size(24.0));
            ui.add_space(12.0);
            ui.add(egui::Label::new(RichText::new(&error)).wrap());
            ui.add_space(8.0);
            ui.label(format!("The database: {}", self.config.db.display()));
            ui.add_space(20.0);
            if self.fresh_start && ui.button("Start with a new, empty database").clicked() {
                self.reopen();
            }
            if !self.restorable {
                ui.label("Start pith with another database: pith --db PATH.");
            }
            if self.restorable {
                ui.add_space(16.0);
                ui.label("Put a backup in its place (made with `pith backup FILE`):");
                ui.horizontal(|ui| {
                    let r = ui.add(
                        egui::TextEdit::singleline(&mut self.restore_path)
                            .hint_text("/path/to/backup.db")
                            .desired_width(380.0),
                    );
                    r.widget_info(|| {
                        egui::WidgetInfo::labeled(egui::Role::TextInput, true, "Backup file")
                    });
                    let busy = self.restoring.is_some();
                    if ui
                        .add_enabled(!busy, egui::Button::new("Restore"))
                        .clicked()
                    {
                        let db = self.config.db.clone();
                        let backup = std::path::PathBuf::from(self.restore_path.trim());
                        let (tx, rx) = std::sync::mpsc::channel();
                        self.restoring = Some(rx);
                        let ctx = ui.ctx().clone();
                        // A restore copies and checks a whole file: never on the frame's thread.
                        let _ = std::thread::Builder::new()
                            .name("pith-restore".into())
                            .spawn(move || {
                                let outcome = crate::store::restore(&db, &backup)
                                    .map(|_| format!("Restored {}", backup.display()))
                                    .map_err(|e| format!("Restore failed: {e}"));
                                let _ = tx.send(outcome);
                                ctx.request_repaint();
                            });
                    }
                });
            }
            if let Some(status) = &self.status
                && status.starts_with("Restore failed")
            {
                ui.add(
                    egui::Label::new(RichText::new(status).color(ui.visuals().error_fg_color))
                        .wrap(),
                );
            }
        });
    }

    pub(super) fn first_screen(&mut self, ui: &mut Ui) {
        ui.vertical_centered(|ui| {
            ui.add_space(60.0);
            ui.heading(RichText::new("Welcome to pith").size(28.0));
            ui.add_space(8.0);
            ui.label("pith shows only the main content of every article.");
            ui.label("Subscribe to a feed to begin: paste its address, or a site's address.");
            ui.add_space(20.0);
        });
        let add = &mut self.welcome;
        let mut subscribe = None;
        let mut import = None;
        let mut browse = false;
        let picking = self.picking.is_some();
        ui.vertical_centered(|ui| {
            ui.set_max_width(520.0);
            ui.horizontal(|ui| {
                let r = ui
                    .add(
                        egui::TextEdit::singleline(&mut add.url)
                            .hint_text("https://example.com/feed.xml")
                            .desired_width(380.0),
                    )
                    .on_hover_text("The address of a feed, or of a site that names one");
                // Screen readers (and the window's tests) find the field by its name.
                r.widget_info(|| {
                    egui::WidgetInfo::labeled(egui::Role::TextInput, true, "Feed address")
                });
                let enter = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                if ui.button("Add feed").clicked() || enter {
                    subscribe = Some(add.url.clone());
                }
            });
            ui.add_space(12.0);
            ui.label("or import the subscriptions of another reader (OPML file):");
            ui.horizontal(|ui| {
                ui.add(
                    egui::TextEdit::singleline(&mut add.opml)
                        .hint_text("/path/to/subscriptions.opml")
                        .desired_width(380.0),
                );
                if ui.button("Import OPML").clicked() {
                    import = Some(add.opml.clone());
                }
                browse = browse_button(ui, picking, "Choose the OPML file in a file dialog");
            });
        });
        if let Some(url) = subscribe {
            self.subscribe(url);
        }
        if let Some(path) = import {
            self.import_opml(path);
        }
        if browse {
            self.browse(crate::ui::worker::PickFor::ImportOpml);
        }
    }
}

/// The "Browse…" button beside a typed OPML path: it opens the system's file dialog (disabled
/// while one is open). True when clicked.
pub(super) fn browse_button(ui: &mut Ui, picking: bool, hover: &str) -> bool {
    ui.add_enabled(!picking, egui::Button::new("Browse…"))
        .on_hover_text(hover)
        .clicked()
}
