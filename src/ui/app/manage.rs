//! Managing subscriptions from the window: the buttons over a feed's list (mark read, rename,
//! move to a folder, unsubscribe), the dialogs they open, and the settings dialog (how often to
//! refresh).

use egui::{RichText, Ui};

use super::App;
use crate::feeds::{FOLDER_SEPARATOR, folder_path};
use crate::store::{FeedId, ItemScope};
use crate::ui::sidebar::{self, Source};
use crate::ui::worker::{Job, Manage};

impl App {
    /// Asks the worker for one change to the subscriptions.
    pub fn manage(&mut self, change: Manage) {
        self.send(Job::Manage(change));
    }

    /// The buttons over the list: mark what it shows read, and for one feed rename it, move it
    /// to a folder or unsubscribe from it.
    pub(super) fn list_actions(&mut self, ui: &mut Ui) {
        let feed = match self.source {
            Source::Feed(id) => Some(id),
            _ => None,
        };
        ui.horizontal_wrapped(|ui| {
            let scope = match (&self.source, feed) {
                (_, Some(id)) => Some(ItemScope::Feed(id)),
                (Source::All | Source::Unread, None) => Some(ItemScope::All),
                _ => None,
            };
            if let Some(scope) = scope
                && ui
                    .small_button("Mark all read")
                    .on_hover_text("Mark every item of this list read")
                    .clicked()
            {
                self.manage(Manage::MarkRead(scope));
            }
            if let Some(id) = feed {
                if ui.small_button("Rename…").clicked() {
                    let name = self.feed_display_name(id);
                    self.renaming = Some((id, name));
                }
                if ui.small_button("Move…").clicked() {
                    let folder = self.feed_folder(id).unwrap_or_default();
                    self.moving = Some((id, folder));
                }
                if ui.small_button("Unsubscribe…").clicked() {
                    self.unsubscribing = Some(id);
                }
            }
        });
    }

    /// The folder path a feed sits in, `None` at the top level.
    fn feed_folder(&self, id: FeedId) -> Option<String> {
        self.feeds
            .as_deref()
            .and_then(|f| f.iter().find(|f| f.id == id))
            .and_then(|f| f.folder.clone())
    }

    /// Every folder path of the subscriptions (and each level above one), sorted: the places a
    /// feed can be moved to with one click.
    fn folder_paths(&self) -> Vec<String> {
        let mut paths: Vec<String> = Vec::new();
        for folder in self
            .feeds
            .iter()
            .flatten()
            .filter_map(|f| f.folder.as_deref())
        {
            let levels: Vec<&str> = folder.split(FOLDER_SEPARATOR).collect();
            for depth in 1..=levels.len() {
                paths.push(levels[..depth].join(FOLDER_SEPARATOR));
            }
        }
        paths.sort();
        paths.dedup();
        paths
    }

    fn feed_display_name(&self, id: FeedId) -> String {
        self.feeds
            .as_deref()
            .and_then(|f| f.iter().find(|f| f.id == id))
            .map(|f| sidebar::feed_name(f).to_string())
            .unwrap_or_default()
    }

    /// The rename, move, unsubscribe and settings dialogs, when open.
    pub(super) fn manage_dialogs(&mut self, ctx: &egui::Context) {
        self.rename_dialog(ctx);
        self.move_dialog(ctx);
        self.unsubscribe_dialog(ctx);
        self.settings_dialog(ctx);
    }

    fn rename_dialog(&mut self, ctx: &egui::Context) {
        let Some((id, mut name)) = self.renaming.take() else {
            return;
        };
        let mut open = true;
        let mut done = None;
        egui::Window::new("Rename feed")
            .open(&mut open)
            .collapsible(false)
            .resizable(false)
            .show(ctx, |ui| {
                ui.label("Your name for this feed (a refresh never changes it):");
                let r = ui.add(egui::TextEdit::singleline(&mut name).desired_width(300.0));
                r.widget_info(|| {
                    egui::WidgetInfo::labeled(egui::Role::TextInput, true, "Feed name")
                });
                let enter = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                ui.horizontal(|ui| {
                    if ui.button("Save name").clicked() || enter {
                        done = Some(Some(name.trim().to_string()).filter(|n| !n.is_empty()));
                    }
                    if ui.button("Use the feed's title").clicked() {
                        done = Some(None);
                    }
                });
            });
        match done {
            Some(new) => self.manage(Manage::Rename(id, new)),
            None if open => self.renaming = Some((id, name)),
            None => {}
        }
    }

    fn move_dialog(&mut self, ctx: &egui::Context) {
        let Some((id, mut folder)) = self.moving.take() else {
            return;
        };
        let name = self.feed_display_name(id);
        let known = self.folder_paths();
        let mut open = true;
        let mut done = None;
        egui::Window::new("Move feed")
            .open(&mut open)
            .collapsible(false)
            .resizable(false)
            .show(ctx, |ui| {
                ui.label(format!(
                    "The folder for {name} (a folder inside another: News / World):"
                ));
                let r = ui.add(
                    egui::TextEdit::singleline(&mut folder)
                        .hint_text("News / World")
                        .desired_width(300.0),
                );
                r.widget_info(|| egui::WidgetInfo::labeled(egui::Role::TextInput, true, "Folder"));
                let enter = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                if !known.is_empty() {
                    ui.label("Or one of the folders there are:");
                    ui.horizontal_wrapped(|ui| {
                        for path in &known {
                            if ui.small_button(path).clicked() {
                                done = Some(Some(path.clone()));
                            }
                        }
                    });
                }
                ui.horizontal(|ui| {
                    if ui.button("Move").clicked() || enter {
                        done = Some(folder_path(&folder));
                    }
                    if ui.button("Top level").clicked() {
                        done = Some(None);
                    }
                });
            });
        match done {
            Some(to) => self.manage(Manage::Move(id, to)),
            None if open => self.moving = Some((id, folder)),
            None => {}
        }
    }

    fn unsubscribe_dialog(&mut self, ctx: &egui::Context) {
        let Some(id) = self.unsubscribing else { return };
        let name = self.feed_display_name(id);
        let mut open = true;
        let mut confirmed = false;
        egui::Window::new("Unsubscribe?")
            .open(&mut open)
            .collapsible(false)
            .resizable(false)
            .show(ctx, |ui| {
                ui.label(format!(
                    "Unsubscribe from {name}? Its items go too, except those another feed lists."
                ));
                confirmed = ui.button("Unsubscribe").clicked();
            });
        if confirmed {
            self.manage(Manage::Unsubscribe(id));
            if self.source == Source::Feed(id) {
                self.set_source(Source::All);
            }
        }
        if confirmed || !open {
            self.unsubscribing = None;
        }
    }

    fn settings_dialog(&mut self, ctx: &egui::Context) {
        if !self.settings_open {
            return;
        }
        let mut open = true;
        let mut minutes = self.refresh_minutes();
        let before = minutes;
        let mut export: Option<std::path::PathBuf> = None;
        let mut browse = false;
        let picking = self.picking.is_some();
        egui::Window::new("Settings")
            .open(&mut open)
            .collapsible(false)
            .resizable(false)
            .show(ctx, |ui| {
                ui.horizontal(|ui| {
                    ui.label("Refresh every");
                    let r = ui.add(
                        egui::DragValue::new(&mut minutes)
                            .range(0.0..=crate::ui::schedule::MAX_MINUTES)
                            .speed(1.0)
                            .max_decimals(0),
                    );
                    r.widget_info(|| {
                        egui::WidgetInfo::labeled(egui::Role::SpinButton, true, "Refresh minutes")
                    });
                    ui.label("minutes while pith is open (0: never)");
                });
                ui.label(
                    RichText::new(
                        "A feed that fails waits twice as long after each failure, up to a day. \
                         From cron, run pith refresh.",
                    )
                    .weak(),
                );
                ui.separator();
                ui.label("Export the subscriptions, in their folders, to an OPML file:");
                ui.horizontal(|ui| {
                    let r = ui.add(
                        egui::TextEdit::singleline(&mut self.export_path)
                            .hint_text("/path/to/subscriptions.opml")
                            .desired_width(300.0),
                    );
                    r.widget_info(|| {
                        egui::WidgetInfo::labeled(egui::Role::TextInput, true, "Export file")
                    });
                    if ui.button("Export OPML").clicked() && !self.export_path.trim().is_empty() {
                        export = Some(self.export_path.trim().into());
                    }
                    browse = super::screens::browse_button(
                        ui,
                        picking,
                        "Choose where to write it in a file dialog",
                    );
                });
            });
        if let Some(path) = export {
            self.manage(Manage::ExportOpml(path));
        }
        if browse {
            self.browse(crate::ui::worker::PickFor::ExportOpml);
        }
        if minutes != before {
            self.set_refresh_minutes(minutes);
        }
        self.settings_open = open;
    }
}
