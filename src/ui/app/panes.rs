//! The window's chrome and panes: toolbar, status bar, the item list's pane, the reading pane (or
//! the inspector) and the dialogs.

use egui::{RichText, Ui};

use super::{Action, AddDialog, App};
use crate::ui::sidebar::{self, Source};
use crate::ui::worker::{Job, Manage};
use crate::ui::{inspector, items, keys, layout, reader, tree_view};

impl App {
    /// The feeds pane, the list and the reading pane, sharing the window's width so that the
    /// article keeps a readable line ([`layout::arrange`]).
    pub(super) fn three_panes(&mut self, ui: &mut Ui) {
        let wanted = self.pane_widths;
        let arranged = layout::arrange(ui.available_width(), self.text_size, wanted);
        self.feeds_folded = arranged.feeds.is_none();
        if !self.feeds_folded {
            self.feeds_in_place = false;
        }
        let feeds_max = arranged
            .feeds
            .or(self.feeds_in_place.then_some(arranged.items));
        if let Some(max) = feeds_max {
            let r = egui::Panel::left("feeds-pane")
                .default_size(wanted.feeds)
                .size_range(layout::FEEDS_MIN.min(max)..=max)
                .show(ui, |ui| self.feeds_pane(ui));
            // A width the user dragged to is kept; one the window forced is not.
            let width = r.response.rect.width();
            if arranged.feeds.is_some() && max >= wanted.feeds && (width - wanted.feeds).abs() > 0.5
            {
                self.pane_widths.feeds = width;
            }
        }
        if !self.feeds_in_place {
            let max = arranged.items;
            let r = egui::Panel::left("items-pane")
                .default_size(wanted.items)
                .size_range(layout::ITEMS_MIN.min(max)..=max)
                .show(ui, |ui| self.items_pane(ui));
            let width = r.response.rect.width();
            if max >= wanted.items && (width - wanted.items).abs() > 0.5 {
                self.pane_widths.items = width;
            }
        }
        egui::CentralPanel::default().show(ui, |ui| self.reading_pane(ui));
    }

    fn feeds_pane(&mut self, ui: &mut Ui) {
        let feeds = self.feeds.as_deref().unwrap_or(&[]);
        let out = sidebar::show(ui, feeds, &self.source, &self.progress);
        if let Some(ids) = out.mark_read {
            self.manage(Manage::MarkFeedsRead(ids));
        }
        if let Some(source) = out.source {
            if !matches!(source, Source::Search(_)) {
                self.search.clear();
            }
            self.set_source(source);
            self.selected = None;
            self.feeds_in_place = false;
        }
    }

    pub(super) fn toolbar(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            let refreshing = self.refresh.is_some();
            if ui
                .add_enabled(!refreshing, egui::Button::new("Refresh"))
                .on_hover_text("Refresh every feed (r)")
                .clicked()
            {
                self.start_refresh(None);
            }
            if self.feeds_folded
                && ui
                    .selectable_label(self.feeds_in_place, "Feeds")
                    .on_hover_text("The window is narrow: show the feeds in the list's place")
                    .clicked()
            {
                self.feeds_in_place = !self.feeds_in_place;
            }
            if ui.button("Add feed…").clicked() {
                self.add = Some(AddDialog::default());
            }
            ui.separator();
            let search = egui::TextEdit::singleline(&mut self.search)
                .hint_text("Search (/)")
                .desired_width(220.0);
            let r = ui.add(search);
            if self.focus_search {
                r.request_focus();
                self.focus_search = false;
            }
            if r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                let q = self.search.trim().to_string();
                if q.is_empty() {
                    self.set_source(Source::All);
                } else {
                    self.set_source(Source::Search(q));
                }
                self.selected = None;
            }
            ui.separator();
            if ui.button("A-").on_hover_text("Smaller text (-)").clicked() {
                self.do_action(Action::TextSmaller);
            }
            if ui.button("A+").on_hover_text("Larger text (+)").clicked() {
                self.do_action(Action::TextLarger);
            }
            let label = if self.inspector {
                "Reader"
            } else {
                "Inspector"
            };
            if ui
                .button(label)
                .on_hover_text("Toggle the inspector (i)")
                .clicked()
            {
                self.inspector = !self.inspector;
            }
            if ui
                .button("Settings")
                .on_hover_text("How often pith refreshes on its own")
                .clicked()
            {
                self.settings_open = !self.settings_open;
            }
            if ui.button("?").on_hover_text("Keys").clicked() {
                self.help = !self.help;
            }
        });
    }

    pub(super) fn status_bar(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            if let Some(r) = &self.refresh {
                ui.spinner();
                let total = (r.feeds + r.pages).max(1);
                let done = r.feeds_done + r.pages_done;
                ui.add(
                    egui::ProgressBar::new(done as f32 / total as f32)
                        .desired_width(160.0)
                        .text(format!(
                            "{}/{} feeds, {}/{} pages",
                            r.feeds_done, r.feeds, r.pages_done, r.pages
                        )),
                );
            }
            if let Some(s) = &self.status {
                ui.label(s);
            } else if !self.rows_loaded {
                ui.label("Loading…");
            } else {
                // The list is read a page at a time: its count comes apart, just after.
                ui.label(match self.list_total() {
                    Some(n) => format!("{n} items"),
                    None if self.list_more => format!("{}+ items", self.rows.len()),
                    None => format!("{} items", self.rows.len()),
                });
            }
        });
    }

    pub(super) fn items_pane(&mut self, ui: &mut Ui) {
        let title = match &self.source {
            Source::All => "All items".to_string(),
            Source::Unread => "Unread".to_string(),
            Source::Starred => "Starred".to_string(),
            Source::Feed(id) => self
                .feeds
                .as_deref()
                .and_then(|f| f.iter().find(|f| f.id == *id))
                .map(|f| sidebar::feed_name(f).to_string())
                .unwrap_or_default(),
            Source::Search(q) => format!("Search: {q}"),
        };
        ui.label(RichText::new(title).strong());
        self.list_actions(ui);
        ui.separator();
        if !self.rows_loaded {
            ui.spinner();
            return;
        }
        if self.rows.is_empty() {
            ui.label(RichText::new("Nothing here.").weak());
            return;
        }
        let out = items::show(ui, &self.rows, self.selected, self.scroll_to.take());
        // Scrolled near the end of the loaded rows: the next page, on the worker.
        if let Some(last) = out.visible.end.checked_sub(1) {
            self.load_near(last);
        }
        if let Some(i) = out.clicked {
            self.select(i);
            self.scroll_to = None;
        }
    }

    pub(super) fn reading_pane(&mut self, ui: &mut Ui) {
        let Some(open) = &self.open else {
            ui.centered_and_justified(|ui| {
                let text = if self.opening.is_some() {
                    "Opening…"
                } else {
                    "Select an item (j / k)."
                };
                ui.label(RichText::new(text).weak());
            });
            return;
        };
        if self.inspector {
            let tree = &self.tree;
            let article = &open.article;
            let mut inspected = self.inspected;
            let out = inspector::show(ui, article, &mut inspected, &self.pins, |ui| {
                let branch: Vec<String> = article
                    .branch
                    .as_ref()
                    .map(|b| b.nodes.iter().map(|n| n.path.clone()).collect())
                    .unwrap_or_default();
                let decided = match (&article.branch, article.deciding_node) {
                    (Some(b), Some(n)) => Some(b.nodes[n].path.as_str()),
                    _ => None,
                };
                match tree {
                    Some((_, Ok(nodes))) => tree_view::show(ui, nodes, &branch, decided),
                    Some((_, Err(e))) => {
                        ui.label(e);
                    }
                    None if article.domain.is_none() => {
                        ui.label("This page has no URL Tree.");
                    }
                    None => {
                        ui.spinner();
                    }
                }
            });
            let domain = open.article.domain.clone().unwrap_or_default();
            let reopen = Some(open.article.item.id);
            self.inspected = inspected;
            if let Some((index, verdict)) = out.pin {
                self.pin(index, verdict);
            }
            if let Some(id) = out.unpin {
                self.send(Job::PinRemove { id, domain, reopen });
            }
            return;
        }
        let size = self.text_size;
        let mut area = egui::ScrollArea::vertical()
            .id_salt("reader")
            .auto_shrink([false, false]);
        if self.reader_scroll_reset {
            area = area.vertical_scroll_offset(0.0);
            self.reader_scroll_reset = false;
        } else if let Some(y) = self.reader_target.take() {
            area = area.vertical_scroll_offset(y);
        }
        let mut clicked = None;
        let output = area.show(ui, |ui| {
            let width = reader::measure_width(size).min(ui.available_width() - 32.0);
            let pad = ((ui.available_width() - width) / 2.0).max(16.0);
            ui.horizontal(|ui| {
                ui.add_space(pad);
                ui.vertical(|ui| {
                    ui.set_max_width(width);
                    ui.add_space(size);
                    clicked = reader::show(ui, &open.article, &open.textures, size);
                    ui.add_space(size * 4.0);
                });
            });
        });
        self.reader_offset = output.state.clamped_offset().y;
        self.reader_view = output.inner_rect.height();
        self.reader_content = output.content_size.y;
        if let Some(link) = clicked {
            self.open_link(link);
        }
    }

    pub(super) fn dialogs(&mut self, ctx: &egui::Context) {
        if self.help {
            let mut open = true;
            egui::Window::new("Keys")
                .open(&mut open)
                .collapsible(false)
                .resizable(false)
                .show(ctx, |ui| {
                    egui::Grid::new("keys-grid").num_columns(2).show(ui, |ui| {
                        for (key, what) in keys::HELP {
                            ui.label(RichText::new(*key).monospace().strong());
                            ui.label(*what);
                            ui.end_row();
                        }
                    });
                });
            self.help &= open;
        }
        let has_feeds = self.feeds.as_ref().is_some_and(|f| !f.is_empty());
        if has_feeds && self.add.is_some() {
            let mut open = true;
            let mut subscribe = None;
            let mut import = None;
            let mut browse = false;
            let picking = self.picking.is_some();
            if let Some(add) = &mut self.add {
                egui::Window::new("Add a feed")
                    .open(&mut open)
                    .collapsible(false)
                    .show(ctx, |ui| {
                        ui.label("A feed's address, or a site that names its feed:");
                        ui.horizontal(|ui| {
                            ui.add(
                                egui::TextEdit::singleline(&mut add.url)
                                    .hint_text("https://example.com/feed.xml")
                                    .desired_width(320.0),
                            );
                            if ui.button("Add").clicked() {
                                subscribe = Some(add.url.clone());
                            }
                        });
                        ui.label("Or an OPML file to import:");
                        ui.horizontal(|ui| {
                            ui.add(
                                egui::TextEdit::singleline(&mut add.opml)
                                    .hint_text("/path/to/subscriptions.opml")
                                    .desired_width(320.0),
                            );
                            if ui.button("Import").clicked() {
                                import = Some(add.opml.clone());
                            }
                            browse = super::screens::browse_button(
                                ui,
                                picking,
                                "Choose the OPML file in a file dialog",
                            );
                        });
                    });
            }
            if !open {
                self.add = None;
            }
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
}
