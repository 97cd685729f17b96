//! The feeds pane: the smart lists (all, unread, starred), then the subscriptions grouped in their
//! OPML folders, each with its unread count, its refresh progress and, when its last refresh
//! failed, the error inline.

use std::collections::{BTreeMap, HashMap};

use crate::feeds::FOLDER_SEPARATOR;

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

/// What the user asked for in the pane this frame.
#[derive(Debug, Default)]
pub struct SidebarOutput {
    /// The list to show.
    pub source: Option<Source>,
    /// Mark every item of these feeds read (a folder's context menu).
    pub mark_read: Option<Vec<FeedId>>,
}

/// Draws the pane; returns what the user picked.
pub fn show(
    ui: &mut Ui,
    feeds: &[FeedInfo],
    current: &Source,
    progress: &HashMap<FeedId, FeedProgress>,
) -> SidebarOutput {
    let mut out = SidebarOutput::default();
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
                    out.source = Some(source);
                }
            }
            ui.separator();
            let mut root = Folder::default();
            for feed in feeds {
                let mut folder = &mut root;
                for name in folder_of(feed)
                    .into_iter()
                    .flat_map(|f| f.split(FOLDER_SEPARATOR))
                    .map(str::trim)
                    .filter(|n| !n.is_empty())
                {
                    folder = folder.children.entry(name).or_default();
                }
                folder.feeds.push(feed);
            }
            root.show(ui, "", current, progress, &mut out);
        });
    out
}

/// A folder of the pane: its subfolders by name, then its feeds. A nested OPML folder (`News /
/// World`) is a folder inside a folder here, as in the file.
#[derive(Default)]
struct Folder<'a> {
    children: BTreeMap<&'a str, Folder<'a>>,
    feeds: Vec<&'a FeedInfo>,
}

impl Folder<'_> {
    fn unread(&self) -> u32 {
        self.feeds.iter().map(|f| f.unread).sum::<u32>()
            + self.children.values().map(Folder::unread).sum::<u32>()
    }

    /// Every feed in the folder and its subfolders.
    fn feed_ids(&self) -> Vec<FeedId> {
        let mut ids: Vec<FeedId> = self.feeds.iter().map(|f| f.id).collect();
        for child in self.children.values() {
            ids.extend(child.feed_ids());
        }
        ids
    }

    /// Draws the subfolders (each a collapsing header, open at first) and then the feeds; `path`
    /// names this folder, so that two folders of one name in different places stay apart.
    fn show(
        &self,
        ui: &mut Ui,
        path: &str,
        current: &Source,
        progress: &HashMap<FeedId, FeedProgress>,
        out: &mut SidebarOutput,
    ) {
        for (name, child) in &self.children {
            let child_path = format!("{path}{FOLDER_SEPARATOR}{name}");
            let r = egui::CollapsingHeader::new(format!("{name}   {}", child.unread()))
                .id_salt(("folder", &child_path))
                .default_open(true)
                .show(ui, |ui| child.show(ui, &child_path, current, progress, out));
            r.header_response.context_menu(|ui| {
                if ui.button("Mark folder read").clicked() {
                    out.mark_read = Some(child.feed_ids());
                    ui.close();
                }
            });
        }
        for feed in &self.feeds {
            feed_row(ui, feed, current, progress, out);
        }
    }
}

fn feed_row(
    ui: &mut Ui,
    feed: &FeedInfo,
    current: &Source,
    progress: &HashMap<FeedId, FeedProgress>,
    out: &mut SidebarOutput,
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
        out.source = Some(Source::Feed(feed.id));
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
