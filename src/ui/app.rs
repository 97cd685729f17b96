//! The window's state and its frame: toolbar, feeds, items, reading pane (or inspector), dialogs.
//! Every frame only reads what the workers sent and draws; every question goes to a worker.

use std::collections::HashMap;

use egui::{TextureHandle, Ui};

use crate::limits::LIST_PAGE_ROWS;
use crate::reading::Article;
use crate::safety::openable_link;
use crate::store::{FeedId, FeedInfo, ItemFilter, ItemId, ItemRow, TreeNodeInfo};
use crate::ui::keys::{self, Action};
use crate::ui::layout::PaneWidths;
use crate::ui::pins::PinRow;
use crate::ui::schedule::Schedule;
use crate::ui::sidebar::{FeedProgress, Source};
use crate::ui::worker::{Config, Job, PickFor, Worker};

mod manage;
mod panes;
mod replies;
mod screens;
pub mod settings;

/// How near the end of the loaded rows (in rows) the view or the selection may come before the
/// next page is asked for: a page arrives in a few milliseconds, well before a screen's worth
/// of rows is scrolled or stepped through.
pub const LOAD_AHEAD: usize = 60;

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
    /// The list: the pages of it loaded so far (a search's hits whole).
    pub rows: Vec<ItemRow>,
    rows_loaded: bool,
    /// More rows follow those loaded: the next page is asked for as the list nears its end.
    list_more: bool,
    /// The next page has been asked for and not answered yet.
    loading_more: bool,
    /// How many items the list holds, all pages together, once counted.
    list_total: Option<u64>,
    /// A move (forward, unread only) that reached the end of the loaded rows while more follow:
    /// made again when the next page arrives.
    pending_step: Option<(bool, bool)>,
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
    /// The side panes' widths as the user left them.
    pub pane_widths: PaneWidths,
    /// In a window too narrow for three panes, the feeds pane is shown in the list's place.
    pub feeds_in_place: bool,
    /// Whether the feeds pane folded away this frame (the toolbar then offers it).
    feeds_folded: bool,
    /// The widths last stored in the settings.
    saved_widths: PaneWidths,
    /// The window's refresh clock.
    pub schedule: Schedule,
    /// Whether the stored settings have arrived (the clock waits for its interval).
    settings_loaded: bool,
    /// The settings dialog is open.
    pub settings_open: bool,
    /// The feed being renamed, with the name typed.
    pub renaming: Option<(FeedId, String)>,
    /// The feed being moved to another folder, with the folder path typed.
    pub moving: Option<(FeedId, String)>,
    /// The feed whose unsubscribing waits for a confirmation.
    pub unsubscribing: Option<FeedId>,
    /// The OPML file typed in the settings dialog, to export to.
    export_path: String,
    /// Whether the database passed its integrity check (run in the background while the lists
    /// show): until it has, nothing may write to it, so refreshes and subscriptions wait.
    store_checked: bool,
    /// A refresh asked for before the check passed (`Some(None)`: every feed).
    refresh_after_check: Option<Option<Vec<FeedId>>>,
    /// Addresses to subscribe to once the check passed.
    subscribe_after_check: Vec<String>,
    /// The system's file dialog is open for this.
    picking: Option<PickFor>,
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
            list_more: false,
            loading_more: false,
            list_total: None,
            pending_step: None,
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
            pane_widths: PaneWidths::default(),
            feeds_in_place: false,
            feeds_folded: false,
            saved_widths: PaneWidths::default(),
            schedule: Schedule::new(None),
            settings_loaded: false,
            settings_open: false,
            renaming: None,
            moving: None,
            unsubscribing: None,
            export_path: String::new(),
            store_checked: false,
            refresh_after_check: None,
            subscribe_after_check: Vec::new(),
            picking: None,
        }
    }

    /// No job is waiting for an answer, no refresh runs, and the database's check is over: what
    /// tests and benchmarks wait for.
    pub fn is_idle(&self) -> bool {
        self.worker.is_some()
            && self.pending == 0
            && self.refresh.is_none()
            && (self.store_checked || self.store_error.is_some())
    }

    /// Whether the database passed its integrity check, so that the window writes to it.
    pub fn store_checked(&self) -> bool {
        self.store_checked
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
        self.list_total = None;
        self.load_list(LIST_PAGE_ROWS);
    }

    /// The list's filter, every page of it (`None` for a search).
    fn list_filter(&self) -> Option<ItemFilter> {
        let feed = match self.source {
            Source::Search(_) => return None,
            Source::Feed(id) => Some(id),
            _ => None,
        };
        Some(ItemFilter {
            feed,
            unread: self.source == Source::Unread,
            starred: self.source == Source::Starred,
            limit: LIST_PAGE_ROWS,
            after: None,
        })
    }

    /// Reads the list again (its items changed): as many rows as are loaded now, whole pages, so
    /// that a refresh's reload leaves the user where they were in a long list.
    fn reload_list(&mut self) {
        let loaded = self.rows.len().div_ceil(LIST_PAGE_ROWS) * LIST_PAGE_ROWS;
        self.load_list(loaded.max(LIST_PAGE_ROWS));
    }

    /// Asks for the list's first `rows` rows (a search's hits whole), then its count; answers
    /// to earlier questions about the list are dropped from now on.
    fn load_list(&mut self, rows: usize) {
        self.generation += 1;
        self.loading_more = false;
        self.pending_step = None;
        // The rows held until the answer may be another list's: no page may follow them.
        self.list_more = false;
        let generation = self.generation;
        match (&self.source, self.list_filter()) {
            (_, Some(filter)) => {
                self.send(Job::Items {
                    filter: ItemFilter {
                        limit: rows,
                        ..filter
                    },
                    generation,
                });
                self.send(Job::ItemCount { filter, generation });
            }
            (Source::Search(q), None) => {
                let query = q.clone();
                self.send(Job::Search { query, generation });
            }
            (_, None) => {}
        }
    }

    /// Asks for the list's next page, unless it is loaded whole or already asked for.
    fn load_more(&mut self) {
        if !self.list_more || self.loading_more {
            return;
        }
        let (Some(filter), Some(last)) = (self.list_filter(), self.rows.last()) else {
            return;
        };
        let after = Some(last.key());
        self.loading_more = true;
        self.send(Job::Items {
            filter: ItemFilter { after, ..filter },
            generation: self.generation,
        });
    }

    /// Loads the next page when row `index` is within [`LOAD_AHEAD`] rows of the loaded end.
    fn load_near(&mut self, index: usize) {
        if index + LOAD_AHEAD >= self.rows.len() {
            self.load_more();
        }
    }

    /// Whether more rows follow those loaded.
    pub fn list_more(&self) -> bool {
        self.list_more
    }

    /// How many items the list holds (every page), once counted; for a search, its hits.
    pub fn list_total(&self) -> Option<u64> {
        match self.source {
            Source::Search(_) => self.rows_loaded.then_some(self.rows.len() as u64),
            _ => self.list_total,
        }
    }

    /// Selects row `index` and opens its article.
    pub fn select(&mut self, index: usize) {
        let Some(row) = self.rows.get(index) else {
            return;
        };
        let id = row.id;
        self.load_near(index);
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
        // Forward past the loaded rows: the next page first (the move is made again when it
        // arrives), before wrapping to the top or saying nothing is left.
        let after = start.map_or(0, |i| i + 1);
        if forward && self.list_more && !(after..n).any(|i| !unread_only || !self.rows[i].read) {
            self.pending_step = Some((forward, unread_only));
            self.load_more();
            return;
        }
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
                self.save_setting(settings::TEXT_SIZE, self.text_size.to_string());
            }
            Action::TextSmaller => {
                self.text_size = (self.text_size - 1.0).max(TEXT_SIZE_RANGE.0);
                self.save_setting(settings::TEXT_SIZE, self.text_size.to_string());
            }
            Action::Escape => {
                if self.help {
                    self.help = false;
                } else if self.add.is_some() {
                    self.add = None;
                } else if self.renaming.is_some()
                    || self.moving.is_some()
                    || self.unsubscribing.is_some()
                    || self.settings_open
                {
                    self.renaming = None;
                    self.moving = None;
                    self.unsubscribing = None;
                    self.settings_open = false;
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
        if !self.store_checked {
            // A refresh writes from connections of its own: it waits for the check.
            self.refresh_after_check = Some(match (self.refresh_after_check.take(), only) {
                (None, only) => only,
                (Some(Some(mut before)), Some(more)) => {
                    before.extend(more);
                    before.sort_unstable();
                    before.dedup();
                    Some(before)
                }
                // Every feed, asked for now or before.
                (Some(None), _) | (Some(Some(_)), None) => None,
            });
            // A status already there stays (the import's count, told just before the check's
            // end was heard): the refresh is still promised, and starts all the same.
            if self.store_error.is_none() && self.status.is_none() {
                self.status =
                    Some("Checking the database; the refresh starts once it is done.".into());
            }
            return;
        }
        if let Some(worker) = &self.worker {
            self.refresh = Some(RefreshState::default());
            self.progress.clear();
            worker.refresh(only);
            self.schedule.ran(std::time::Instant::now());
        }
    }

    /// Subscribes to `url` (then refreshes it), on a worker.
    pub fn subscribe(&mut self, url: String) {
        let url = url.trim().to_string();
        if url.is_empty() {
            return;
        }
        if !self.store_checked {
            self.status = Some(format!(
                "Checking the database; subscribing to {url} once it is done."
            ));
            self.subscribe_after_check.push(url);
            return;
        }
        if let Some(worker) = &self.worker {
            self.status = Some(format!("Subscribing to {url}…"));
            self.refresh.get_or_insert_with(RefreshState::default);
            worker.subscribe(url);
            self.schedule.ran(std::time::Instant::now());
        }
    }

    /// Imports an OPML file, on a worker.
    pub fn import_opml(&mut self, path: String) {
        let path = path.trim();
        if !path.is_empty() {
            self.send(Job::ImportOpml { path: path.into() });
        }
    }

    /// The check passed: what waited for it starts.
    fn on_check_passed(&mut self) {
        self.store_checked = true;
        let subscribe = std::mem::take(&mut self.subscribe_after_check);
        let refresh = self.refresh_after_check.take();
        self.drop_after_check();
        // The refresh first: a refresh is refused while one runs, and a subscription counts as
        // one (it refreshes its new feed), so after the subscriptions the refresh would be lost.
        // A subscription goes ahead beside a running refresh, as it does at any time.
        if let Some(only) = refresh {
            self.start_refresh(only);
        }
        for url in subscribe {
            self.subscribe(url);
        }
    }

    /// Forgets the refresh and subscriptions that waited for a check which will not pass (the
    /// database could not be used), with the status that promised them.
    fn drop_after_check(&mut self) {
        self.refresh_after_check = None;
        self.subscribe_after_check.clear();
        if self
            .status
            .as_deref()
            .is_some_and(|s| s.starts_with("Checking the database"))
        {
            self.status = None;
        }
    }

    /// Opens the system's file dialog for `purpose` on a thread of its own; the path comes back
    /// as a reply ([`App::on_picked`]).
    pub fn browse(&mut self, purpose: PickFor) {
        if self.picking.is_some() {
            return;
        }
        if let Some(worker) = &self.worker {
            self.picking = Some(purpose);
            worker.pick_file(purpose);
        }
    }

    /// Whether a file dialog is open (its Browse buttons wait).
    pub fn picking(&self) -> bool {
        self.picking.is_some()
    }

    /// A file picked in the dialog: the import or export runs with it, and its field shows it.
    fn on_picked(&mut self, purpose: PickFor, path: Option<std::path::PathBuf>) {
        self.picking = None;
        let Some(path) = path else {
            // rfd answers nothing both for a cancelled dialog and for none at all (no portal,
            // no zenity), so the message fits either.
            self.status = Some(
                "No file chosen. If no dialog opened, there is no system file dialog here: \
                 type a path."
                    .into(),
            );
            return;
        };
        let text = path.display().to_string();
        match purpose {
            PickFor::ImportOpml => {
                self.welcome.opml.clone_from(&text);
                if let Some(add) = &mut self.add {
                    add.opml.clone_from(&text);
                }
                self.import_opml(text);
            }
            PickFor::ExportOpml => {
                self.export_path = text;
                self.manage(crate::ui::worker::Manage::ExportOpml(path));
            }
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

    /// One frame of the window inside `ui`.
    pub fn show(&mut self, ui: &mut Ui) {
        let ctx = ui.ctx().clone();
        if !self.fonts_installed {
            crate::ui::fonts::install(&ctx);
            self.fonts_installed = true;
        }
        if self.worker.is_none() {
            self.worker = Some(Worker::start(self.config.clone(), ctx.clone()));
            // The list's first page before the feeds with their counts: the database thread
            // answers in order, and the counts read far more of a large file than a page.
            self.reload_list();
            self.send(Job::Feeds);
            self.send(Job::Settings {
                keys: settings::KEYS.to_vec(),
            });
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
            self.three_panes(ui);
        }
        self.dialogs(&ctx);
        self.manage_dialogs(&ctx);
        self.tick(&ctx);
        if self.refresh.is_some() || self.pending > 0 {
            // Spinners animate; replies also wake the window on their own.
            ctx.request_repaint_after(std::time::Duration::from_millis(250));
        }
    }
}

impl eframe::App for App {
    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }
}
