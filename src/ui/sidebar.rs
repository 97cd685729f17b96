//! The feeds pane: the smart lists (all, unread, starred), then the subscriptions grouped in their
//! OPML folders, each with its unread count, its refresh progress and, when its last refresh
//! failed, the error inline.

use std::collections::{BTreeMap, HashMap};

use egui::{RichText, Ui};

use crate::store::{FeedId, FeedInfo};

/// What the item list shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// Every item.
    All,
    /// Unread items.
    Unread,
    /// Starred items.
    Starred,
    /// One feed's items.
    Feed(FeedId),
    /// Search results.
    Search(String),
}

/// One feed's state in the running refresh.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FeedProgress {
    /// Pages queued for it.
    pub queued: usize,
    /// Pages done.
    pub done: usize,
    /// The feed is finished.
    pub finished: bool,
    /// Its error, when it failed.
    pub error: Option<String>,
}

/// The folder a feed sits in (from OPML), if any.
pub fn folder_of(feed: &FeedInfo) -> Option<&str> {
    feed.folder.as_deref()
}

/// A feed's display name: the user's, else the feed's title, else its address.
pub fn feed_name(feed: &FeedInfo) -> &str {
    feed.name
        .as_deref()
        .or(feed.title.as_deref())
        .unwrap_or(&feed.url)
}

/// Draws the pane; returns the source the user picked.
pub fn show(
    ui: &mut Ui,
    feeds: &[FeedInfo],
    current: &Source,
    progress: &HashMap<FeedId, FeedProgress>,
) -> Option<Source> {
    let mut picked = None;
    let unread: u32 = feeds.iter().map(|f| f.unread).sum();
    egui::ScrollArea::vertical()
        .id_salt("feeds")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            for (source, name) in [
                (Source::All, "All items".to_string()),
                (Source::Unread, format!("Unread   {unread}")),
                (Source::Starred, "Starred".to_string()),
            ] {
                if ui.selectable_label(*current == source, name).clicked() {
                    picked = Some(source);
                }
            }
            ui.separator();
            let mut folders: BTreeMap<&str, Vec<&FeedInfo>> = BTreeMap::new();
            let mut loose = Vec::new();
            for feed in feeds {
                match folder_of(feed) {
                    Some(folder) => folders.entry(folder).or_default().push(feed),
                    None => loose.push(feed),
                }
            }
            for (folder, list) in folders {
                let unread: u32 = list.iter().map(|f| f.unread).sum();
                egui::CollapsingHeader::new(format!("{folder}   {unread}"))
                    .id_salt(("folder", folder))
                    .default_open(true)
                    .show(ui, |ui| {
                        for feed in list {
                            feed_row(ui, feed, current, progress, &mut picked);
                        }
                    });
            }
            for feed in loose {
                feed_row(ui, feed, current, progress, &mut picked);
            }
        });
    picked
}

fn feed_row(
    ui: &mut Ui,
    feed: &FeedInfo,
    current: &Source,
    progress: &HashMap<FeedId, FeedProgress>,
    picked: &mut Option<Source>,
) {
    let selected = *current == Source::Feed(feed.id);
    let mut name = feed_name(feed).to_string();
    if feed.unread > 0 {
        name.push_str(&format!("   {}", feed.unread));
    }
    let state = progress.get(&feed.id);
    let r = ui.selectable_label(selected, name);
    let r = r.on_hover_text(&feed.url);
    if r.clicked() {
        *picked = Some(Source::Feed(feed.id));
    }
    if let Some(p) = state.filter(|p| !p.finished) {
        ui.horizontal(|ui| {
            ui.add_space(12.0);
            ui.spinner();
            ui.label(RichText::new(format!("{}/{} pages", p.done, p.queued)).small());
        });
    }
    // The error of this refresh, else the one stored from the last.
    let error = state
        .and_then(|p| p.error.as_deref())
        .or(feed.last_error.as_deref());
    if let Some(error) = error {
        ui.horizontal_wrapped(|ui| {
            ui.add_space(12.0);
            ui.label(
                RichText::new(format!("Error: {error}"))
                    .small()
                    .color(ui.visuals().error_fg_color),
            );
        });
    }
}
