//! The window's state and its frame: toolbar, feeds, items, reading pane (or inspector), dialogs.
//! Every frame only reads what the workers sent and draws; every question goes to a worker.

use std::collections::HashMap;

use egui::{RichText, TextureHandle, TextureOptions, Ui};

use crate::reading::Article;
use crate::refresh::{Event, FeedOutcome};
use crate::safety::openable_link;
use crate::store::{FeedId, FeedInfo, ItemFilter, ItemId, ItemRow, TreeNodeInfo};
use crate::ui::inspector;
use crate::ui::items;
use crate::ui::keys::{self, Action};
use crate::ui::pins::PinRow;
use crate::ui::reader;
use crate::ui::sidebar::{self, FeedProgress, Source};
use crate::ui::tree_view;
use crate::ui::worker::{Config, Job, Reply, Worker};

/// Reading text size bounds, points.
pub const TEXT_SIZE_RANGE: (f32, f32) = (11.0, 28.0);

/// The article on screen with its decoded images.
pub struct OpenArticle {
    /// The article.
    pub article: Article,
    /// Its images, uploaded.
    pub textures: HashMap<String, TextureHandle>,
}

/// The refresh in progress.
#[derive(Debug, Clone, Default)]
pub struct RefreshState {
    /// Feeds in this refresh.
    pub feeds: usize,
    /// Feeds finished.
    pub feeds_done: usize,
    /// Pages queued.
    pub pages: usize,
    /// Pages finished.
    pub pages_done: usize,
}

/// The add-feed / import dialog.
#[derive(Debug, Clone, Default)]
pub struct AddDialog {
    /// The URL typed.
    pub url: String,
    /// The OPML path typed.
    pub opml: String,
}

/// The whole window.
pub struct App {
    config: Config,
    worker: Option<Worker>,
    pending: usize,
    /// The subscriptions, once loaded.
    pub feeds: Option<Vec<FeedInfo>>,
    /// What the list shows.
    pub source: Source,
    /// The list.
    pub rows: Vec<ItemRow>,
    rows_loaded: bool,
    generation: u64,
    /// Index of the selected row.
    pub selected: Option<usize>,
    scroll_to: Option<usize>,
    /// The article on screen.
    pub open: Option<OpenArticle>,
    opening: Option<ItemId>,
    /// The inspector replaces the reading pane.
    pub inspector: bool,
    /// The inspector's selected block.
    pub inspected: Option<usize>,
    /// Pins of the open article's site.
    pub pins: Vec<PinRow>,
    tree: Option<(String, Result<Vec<TreeNodeInfo>, String>)>,
    /// The search box.
    pub search: String,
    focus_search: bool,
    /// The list of keys is shown.
    pub help: bool,
    /// Reading text size, points.
    pub text_size: f32,
    /// The add-feed dialog, when open.
    pub add: Option<AddDialog>,
    /// What the first screen's fields hold: its own, so that subscribing from it never leaves
    /// the add dialog open behind it.
    welcome: AddDialog,
    /// The refresh running, if any.
    pub refresh: Option<RefreshState>,
    /// Per feed state of the running (or last) refresh.
    pub progress: HashMap<FeedId, FeedProgress>,
    /// The last message for the status bar (errors included).
    pub status: Option<String>,
    /// Why the database could not be opened, when it could not: the window then says so in
    /// full and offers a fresh start or a restore, instead of an empty first screen.
    pub store_error: Option<String>,
    /// Whether opening again starts a new, empty database (the damaged file was moved aside).
    pub fresh_start: bool,
    /// Whether a backup may be put in place of the file that failed to open.
    pub restorable: bool,
    /// The backup path typed on that screen.
    restore_path: String,
    /// A restore running on its own thread; its outcome once done.
    restoring: Option<std::sync::mpsc::Receiver<Result<String, String>>>,
    reader_offset: f32,
    reader_view: f32,
    reader_content: f32,
    reader_target: Option<f32>,
    reader_scroll_reset: bool,
    pending_link: Option<String>,
    fonts_installed: bool,
}

impl App {
    /// A window over the database in `config`; its workers start with the first frame.
    pub fn new(config: Config) -> App {
        App {
            config,
            worker: None,
            pending: 0,
            feeds: None,
            source: Source::All,
            rows: Vec::new(),
            rows_loaded: false,
            generation: 0,
            selected: None,
            scroll_to: None,
            open: None,
            opening: None,
            inspector: false,
            inspected: None,
            pins: Vec::new(),
            tree: None,
            search: String::new(),
            focus_search: false,
            help: false,
            text_size: 17.0,
            add: None,
            welcome: AddDialog::default(),
            refresh: None,
            progress: HashMap::new(),
            status: None,
            store_error: None,
            fresh_start: false,
            restorable: false,
            restore_path: String::new(),
            restoring: None,
            reader_offset: 0.0,
            reader_view: 0.0,
            reader_content: 0.0,
            reader_target: None,
            reader_scroll_reset: false,
            pending_link: None,
            fonts_installed: false,
        }
    }

    /// No job is waiting for an answer and no refresh runs: what tests and benchmarks wait for.
    pub fn is_idle(&self) -> bool {
        self.worker.is_some() && self.pending == 0 && self.refresh.is_none()
    }

    /// Whether the first list has arrived.
    pub fn rows_loaded(&self) -> bool {
        self.rows_loaded
    }

    /// The selected row's item.
    pub fn selected_item(&self) -> Option<ItemId> {
        self.selected.and_then(|i| self.rows.get(i)).map(|r| r.id)
    }

    fn send(&mut self, job: Job) {
        if let Some(worker) = &self.worker
            && worker.send(job)
        {
            self.pending += 1;
        }
    }

    /// Shows `source` in the list (and leaves the current article on screen).
    pub fn set_source(&mut self, source: Source) {
        self.source = source;
        self.reload_list();
    }

    fn reload_list(&mut self) {
        self.generation += 1;
        let generation = self.generation;
        let job = match &self.source {
            Source::Search(q) => Job::Search {
                query: q.clone(),
                generation,
            },
            other => Job::Items {
                filter: ItemFilter {
                    feed: match other {
                        Source::Feed(id) => Some(*id),
                        _ => None,
                    },
                    unread: *other == Source::Unread,
                    starred: *other == Source::Starred,
                    limit: 0,
                },
                generation,
            },
        };
        self.send(job);
    }

    /// Selects row `index` and opens its article.
    pub fn select(&mut self, index: usize) {
        let Some(row) = self.rows.get(index) else {
            return;
        };
        let id = row.id;
        self.selected = Some(index);
        self.scroll_to = Some(index);
        self.opening = Some(id);
        self.inspected = None;
        self.send(Job::Open {
            id,
            mark_read: true,
        });
    }

    /// How far the reading pane is scrolled down, in points (what Space pages through).
    pub fn reader_offset(&self) -> f32 {
        self.reader_offset
    }

    fn step(&mut self, forward: bool, unread_only: bool) {
        if self.rows.is_empty() {
            return;
        }
        let n = self.rows.len();
        let start = self.selected;
        let candidates: Box<dyn Iterator<Item = usize>> = match (start, forward) {
            (None, true) => Box::new(0..n),
            (None, false) => Box::new((0..n).rev()),
            (Some(i), true) => Box::new((i + 1..n).chain(if unread_only { 0..i } else { 0..0 })),
            (Some(i), false) => Box::new((0..i).rev().chain(if unread_only {
                Box::new((i + 1..n).rev()) as Box<dyn Iterator<Item = usize>>
            } else {
                Box::new(std::iter::empty())
            })),
        };
        let found = candidates
            .into_iter()
            .find(|&i| !unread_only || !self.rows[i].read);
        match found {
            Some(i) => self.select(i),
            None if unread_only => self.status = Some("No unread items left.".into()),
            None => {}
        }
    }

    fn do_action(&mut self, action: Action) {
        match action {
            Action::NextItem => self.step(true, false),
            Action::PrevItem => self.step(false, false),
            Action::NextUnread => self.step(true, true),
            Action::PrevUnread => self.step(false, true),
            Action::PageDown => {
                let end = self.reader_content - self.reader_view;
                if self.open.is_none() || self.reader_offset >= end - 1.0 {
                    self.step(true, true);
                } else {
                    self.reader_target =
                        Some((self.reader_offset + self.reader_view * 0.9).min(end.max(0.0)));
                }
            }
            Action::OpenInBrowser => {
                if let Some(open) = &self.open {
                    let item = &open.article.item;
                    let link = item.response_url.as_deref().unwrap_or(&item.link);
                    self.open_link(link.to_string());
                }
            }
            Action::Refresh => self.start_refresh(None),
            Action::ToggleStar => {
                if let Some(id) = self.selected_item() {
                    self.send(Job::ToggleStar { id });
                }
            }
            Action::ToggleRead => {
                if let Some(i) = self.selected
                    && let Some(row) = self.rows.get(i)
                {
                    let (id, read) = (row.id, !row.read);
                    self.send(Job::SetRead { id, read });
                }
            }
            Action::Search => self.focus_search = true,
            Action::Inspector => self.inspector = !self.inspector,
            Action::Help => self.help = !self.help,
            Action::TextLarger => {
                self.text_size = (self.text_size + 1.0).min(TEXT_SIZE_RANGE.1);
            }
            Action::TextSmaller => {
                self.text_size = (self.text_size - 1.0).max(TEXT_SIZE_RANGE.0);
            }
            Action::Escape => {
                if self.help {
                    self.help = false;
                } else if self.add.is_some() {
                    self.add = None;
                } else if matches!(self.source, Source::Search(_)) {
                    self.search.clear();
                    self.set_source(Source::All);
                } else {
                    self.inspector = false;
                }
            }
        }
    }

    /// Opens `url` in the system browser, only when [`openable_link`] allows it (every link the
    /// window opens passes here, whichever pane it came from).
    pub fn open_link(&mut self, url: String) {
        match openable_link(&url, None) {
            Some(url) => self.pending_link = Some(url.into()),
            None => {
                // An over-long address would fill the status bar: its start says enough.
                let shown: String = url.chars().take(200).collect();
                let more = if shown.len() < url.len() { "…" } else { "" };
                self.status = Some(format!(
                    "Not opened (only http, https and mailto links, without a user name or \
                     password, up to {} characters): {shown}{more}",
                    crate::limits::MAX_URL_LEN
                ));
            }
        }
    }

    /// Starts a refresh of every feed (or `only`), unless one runs.
    pub fn start_refresh(&mut self, only: Option<Vec<FeedId>>) {
        if self.refresh.is_some() {
            return;
        }
        if let Some(worker) = &self.worker {
            self.refresh = Some(RefreshState::default());
            self.progress.clear();
            worker.refresh(only);
        }
    }

    /// Subscribes to `url` (then refreshes it), on a worker.
    pub fn subscribe(&mut self, url: String) {
        let url = url.trim().to_string();
        if url.is_empty() {
            return;
        }
        if let Some(worker) = &self.worker {
            self.status = Some(format!("Subscribing to {url}…"));
            self.refresh.get_or_insert_with(RefreshState::default);
            worker.subscribe(url);
        }
    }

    /// Imports an OPML file, on a worker.
    pub fn import_opml(&mut self, path: String) {
        let path = path.trim();
        if !path.is_empty() {
            self.send(Job::ImportOpml { path: path.into() });
        }
    }

    /// Pins block `index` of the open article.
    pub fn pin(&mut self, index: usize, verdict: crate::ui::pins::PinVerdict) {
        let Some(open) = &self.open else { return };
        let Some(domain) = open.article.domain.clone() else {
            return;
        };
        let Some(block) = open.article.blocks.get(index) else {
            return;
        };
        let job = Job::PinAdd {
            domain,
            hash: block.hash,
            verdict,
            text: block.text.chars().take(200).collect(),
            reopen: open.article.item.id,
        };
        self.send(job);
    }

    fn poll(&mut self, ctx: &egui::Context) {
        let Some(worker) = &self.worker else { return };
        let mut replies = Vec::new();
        while let Some(reply) = worker.try_recv() {
            replies.push(reply);
        }
        for reply in replies {
            self.apply(ctx, reply);
        }
    }

    fn apply(&mut self, ctx: &egui::Context, reply: Reply) {
        let answer = !matches!(
            reply,
            Reply::Refresh(_) | Reply::RefreshEnded(_) | Reply::Subscribed(_)
        );
        if answer {
            self.pending = self.pending.saturating_sub(1);
        }
        match reply {
            Reply::Feeds(Ok(feeds)) => self.feeds = Some(feeds),
            Reply::StoreUnavailable {
                message,
                fresh_start,
                restorable,
            } => {
                self.store_error = Some(message);
                self.fresh_start = fresh_start;
                self.restorable = restorable;
            }
            Reply::Feeds(Err(e)) => {
                self.feeds.get_or_insert_with(Vec::new);
                self.status = Some(e);
            }
            Reply::Items { generation, rows } => {
                if generation != self.generation {
                    return;
                }
                match rows {
                    Ok(rows) => {
                        let keep = self.selected_item();
                        self.rows = rows;
                        self.rows_loaded = true;
                        self.selected =
                            keep.and_then(|id| self.rows.iter().position(|r| r.id == id));
                    }
                    Err(e) => self.status = Some(e),
                }
            }
            Reply::Opened {
                id,
                article,
                images,
            } => match article {
                Ok(Some(article)) => {
                    if self.opening.is_some_and(|o| o != id)
                        && self.open.as_ref().is_none_or(|o| o.article.item.id != id)
                    {
                        return;
                    }
                    let same = self.open.as_ref().is_some_and(|o| o.article.item.id == id);
                    if self.opening == Some(id) {
                        self.opening = None;
                    }
                    let was_unread = self
                        .rows
                        .iter()
                        .find(|r| r.id == id)
                        .is_some_and(|r| !r.read);
                    if was_unread {
                        self.adjust_unread(&article.item.feeds, -1);
                    }
                    if let Some(row) = self.rows.iter_mut().find(|r| r.id == id) {
                        row.read = true;
                    }
                    let textures = images
                        .into_iter()
                        .map(|d| {
                            let tex = ctx.load_texture(&d.url, d.image, TextureOptions::LINEAR);
                            (d.url, tex)
                        })
                        .collect();
                    let domain = article.domain.clone();
                    self.open = Some(OpenArticle {
                        article: *article,
                        textures,
                    });
                    if !same {
                        self.reader_scroll_reset = true;
                        self.tree = None;
                    }
                    if let Some(domain) = domain {
                        if self.tree.as_ref().is_none_or(|t| t.0 != domain) {
                            self.send(Job::Tree {
                                domain: domain.clone(),
                            });
                        }
                        self.send(Job::Pins { domain });
                    } else {
                        self.pins.clear();
                    }
                }
                Ok(None) => self.status = Some(format!("Item {id} is gone.")),
                Err(e) => self.status = Some(format!("Item {id}: {e}")),
            },
            Reply::Skipped => {}
            Reply::ReadSet { id, read } => match read {
                Ok(read) => {
                    let open_feeds = self
                        .open
                        .as_ref()
                        .filter(|o| o.article.item.id == id)
                        .map(|o| o.article.item.feeds.clone());
                    let mut changed = None;
                    if let Some(row) = self.rows.iter_mut().find(|r| r.id == id)
                        && row.read != read
                    {
                        row.read = read;
                        changed = Some(open_feeds.unwrap_or_else(|| vec![row.feed.clone()]));
                    }
                    if let Some(feeds) = changed {
                        self.adjust_unread(&feeds, if read { -1 } else { 1 });
                    }
                }
                Err(e) => self.status = Some(e),
            },
            Reply::Starred { id, starred } => match starred {
                Ok(starred) => {
                    if let Some(row) = self.rows.iter_mut().find(|r| r.id == id) {
                        row.starred = starred;
                    }
                    if let Some(open) = &mut self.open
                        && open.article.item.id == id
                    {
                        open.article.item.starred = starred;
                    }
                }
                Err(e) => self.status = Some(e),
            },
            Reply::Tree { domain, nodes } => self.tree = Some((domain, nodes)),
            Reply::Pins { domain, pins } => match pins {
                Ok(pins) => {
                    if self
                        .open
                        .as_ref()
                        .is_some_and(|o| o.article.domain.as_deref() == Some(&domain))
                    {
                        self.pins = pins;
                    }
                }
                Err(e) => self.status = Some(e),
            },
            Reply::Imported(result) => match result {
                Ok((total, new)) => {
                    self.status = Some(format!(
                        "{total} feeds in the file: {new} new; refreshing them now."
                    ));
                    self.add = None;
                    self.send(Job::Feeds);
                    self.start_refresh(None);
                }
                Err(e) => self.status = Some(e),
            },
            Reply::Subscribed(result) => match result {
                Ok(_) => {
                    self.status = Some("Subscribed; fetching its articles…".into());
                    self.add = None;
                    self.send(Job::Feeds);
                }
                Err(e) => {
                    self.status = Some(e);
                    self.refresh = None;
                }
            },
            Reply::Refresh(event) => self.on_refresh_event(event),
            Reply::RefreshEnded(result) => {
                self.refresh = None;
                match result {
                    Ok(s) => {
                        self.status = Some(format!(
                            "Refreshed: {} new items, {} failed feeds, {} pages not fetched (kept with the feed's summary).",
                            s.new_items, s.feeds_failed, s.page_errors
                        ))
                    }
                    Err(e) => self.status = Some(format!("Refresh failed: {e}")),
                }
                self.send(Job::Feeds);
                self.reload_list();
            }
        }
    }

    /// Changes the unread counts of the feeds named `feeds` (titles, else URLs) by `delta`
    /// without asking the database: counting 100,000 items after every opened article would
    /// keep the worker busy for nothing. A refresh reloads the real counts.
    fn adjust_unread(&mut self, feeds: &[String], delta: i64) {
        let Some(list) = &mut self.feeds else { return };
        for feed in list.iter_mut() {
            if feeds.iter().any(|name| name == sidebar::feed_name(feed)) {
                feed.unread = u32::try_from((i64::from(feed.unread) + delta).max(0)).unwrap_or(0);
            }
        }
    }

    fn on_refresh_event(&mut self, event: Event) {
        let state = self.refresh.get_or_insert_with(RefreshState::default);
        match event {
            Event::Started { feeds } => state.feeds += feeds,
            Event::PagesQueued { feed, count } => {
                state.pages += count;
                self.progress.entry(feed).or_default().queued += count;
            }
            Event::PageDone { feed, .. } => {
                state.pages_done += 1;
                self.progress.entry(feed).or_default().done += 1;
            }
            Event::FeedDone { feed, outcome, .. } => {
                state.feeds_done += 1;
                let p = self.progress.entry(feed).or_default();
                p.finished = true;
                p.error = match outcome {
                    FeedOutcome::Failed { error } => Some(error),
                    _ => None,
                };
                // The new counts and items show while the other feeds still refresh.
                self.send(Job::Feeds);
                self.reload_list();
            }
        }
    }

    /// One frame of the window inside `ui`.
    pub fn show(&mut self, ui: &mut Ui) {
        let ctx = ui.ctx().clone();
        if !self.fonts_installed {
            crate::ui::fonts::install(&ctx);
            self.fonts_installed = true;
        }
        if self.worker.is_none() {
            self.worker = Some(Worker::start(self.config.clone(), ctx.clone()));
            self.send(Job::Feeds);
            self.reload_list();
        }
        self.poll(&ctx);
        for action in keys::actions(&ctx) {
            self.do_action(action);
        }
        if let Some(url) = self.pending_link.take() {
            ctx.open_url(egui::OpenUrl::new_tab(url));
        }

        egui::Panel::top("toolbar").show(ui, |ui| self.toolbar(ui));
        egui::Panel::bottom("status").show(ui, |ui| self.status_bar(ui));

        self.poll_restore();
        let empty = self.feeds.as_ref().is_some_and(|f| f.is_empty());
        if self.store_error.is_some() {
            egui::CentralPanel::default().show(ui, |ui| self.store_trouble(ui));
        } else if empty {
            egui::CentralPanel::default().show(ui, |ui| self.first_screen(ui));
        } else {
            egui::Panel::left("feeds-pane")
                .default_size(220.0)
                .show(ui, |ui| {
                    let feeds = self.feeds.as_deref().unwrap_or(&[]);
                    if let Some(source) = sidebar::show(ui, feeds, &self.source, &self.progress) {
                        if !matches!(source, Source::Search(_)) {
                            self.search.clear();
                        }
                        self.set_source(source);
                        self.selected = None;
                    }
                });
            egui::Panel::left("items-pane")
                .default_size(360.0)
                .show(ui, |ui| self.items_pane(ui));
            egui::CentralPanel::default().show(ui, |ui| self.reading_pane(ui));
        }
        self.dialogs(&ctx);
        if self.refresh.is_some() || self.pending > 0 {
            // Spinners animate; replies also wake the window on their own.
            ctx.request_repaint_after(std::time::Duration::from_millis(250));
        }
    }

    fn toolbar(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            let refreshing = self.refresh.is_some();
            if ui
                .add_enabled(!refreshing, egui::Button::new("Refresh"))
                .on_hover_text("Refresh every feed (r)")
                .clicked()
            {
                self.start_refresh(None);
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
            if ui.button("?").on_hover_text("Keys").clicked() {
                self.help = !self.help;
            }
        });
    }

    fn status_bar(&mut self, ui: &mut Ui) {
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
                ui.label(format!("{} items", self.rows.len()));
            }
        });
    }

    /// Starts over with a new worker, which opens the database again (a new, empty one when the
    /// damaged file was moved aside).
    fn reopen(&mut self) {
        self.worker = None;
        self.store_error = None;
        self.fresh_start = false;
        self.restorable = false;
        self.feeds = None;
        self.rows.clear();
        self.rows_loaded = false;
        self.open = None;
        self.status = None;
    }

    /// Puts the restore's outcome in place once its thread is done.
    fn poll_restore(&mut self) {
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
    fn store_trouble(&mut self, ui: &mut Ui) {
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

    fn first_screen(&mut self, ui: &mut Ui) {
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
            });
        });
        if let Some(url) = subscribe {
            self.subscribe(url);
        }
        if let Some(path) = import {
            self.import_opml(path);
        }
    }

    fn items_pane(&mut self, ui: &mut Ui) {
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
        if let Some(i) = out.clicked {
            self.select(i);
            self.scroll_to = None;
        }
    }

    fn reading_pane(&mut self, ui: &mut Ui) {
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

    fn dialogs(&mut self, ctx: &egui::Context) {
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
        }
    }
}

impl eframe::App for App {
    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }
}
