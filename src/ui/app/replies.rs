//! The window's answers: what each worker reply changes in the window's state (the list, the
//! open article, unread counts, a refresh's progress).

use egui::TextureOptions;

use super::{App, OpenArticle, RefreshState};
use crate::refresh::{Event, FeedOutcome};
use crate::ui::sidebar;
use crate::ui::worker::{Job, Reply};

impl App {
    pub(super) fn apply(&mut self, ctx: &egui::Context, reply: Reply) {
        let answer = !matches!(
            reply,
            Reply::Refresh(_)
                | Reply::RefreshEnded(_)
                | Reply::Subscribed(_)
                | Reply::CheckPassed
                | Reply::Picked { .. }
                | Reply::StoreUnavailable { .. }
        );
        if answer {
            self.pending = self.pending.saturating_sub(1);
        }
        match reply {
            Reply::Feeds(Ok(feeds)) => self.feeds = Some(feeds),
            Reply::CheckPassed => self.on_check_passed(),
            Reply::Picked { purpose, path } => self.on_picked(purpose, path),
            Reply::StoreUnavailable {
                message,
                fresh_start,
                restorable,
            } => {
                self.store_error = Some(message);
                self.fresh_start = fresh_start;
                self.restorable = restorable;
                // What waited for the check never runs on this database: the status bar must not
                // go on promising it.
                self.drop_after_check();
            }
            Reply::Feeds(Err(e)) => {
                self.feeds.get_or_insert_with(Vec::new);
                self.status = Some(e);
            }
            Reply::Items {
                generation,
                rows,
                append,
                more,
            } => {
                if generation != self.generation {
                    return;
                }
                if append {
                    self.loading_more = false;
                }
                match rows {
                    Ok(rows) if append => {
                        self.rows.extend(rows);
                        self.list_more = more;
                        // A move that waited for this page.
                        if let Some((forward, unread_only)) = self.pending_step.take() {
                            self.step(forward, unread_only);
                        }
                    }
                    Ok(rows) => {
                        let keep = self.selected_item();
                        self.rows = rows;
                        self.rows_loaded = true;
                        self.list_more = more;
                        self.selected =
                            keep.and_then(|id| self.rows.iter().position(|r| r.id == id));
                    }
                    Err(e) => {
                        self.pending_step = None;
                        self.status = Some(e);
                    }
                }
            }
            Reply::ItemCount { generation, count } => {
                if generation == self.generation {
                    match count {
                        Ok(n) => self.list_total = Some(n),
                        Err(e) => self.status = Some(e),
                    }
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
            Reply::Settings(Ok(values)) => self.apply_settings(&values),
            Reply::Settings(Err(e)) => {
                self.apply_settings(&[]);
                self.status = Some(e);
            }
            Reply::Saved(Ok(())) => {}
            Reply::Saved(Err(e)) => self.status = Some(format!("Settings not saved: {e}")),
            Reply::Managed(Ok(done)) => {
                self.status = Some(done);
                self.send(Job::Feeds);
                self.reload_list();
            }
            Reply::Managed(Err(e)) => self.status = Some(e),
            Reply::Refresh(event) => self.on_refresh_event(event),
            Reply::RefreshEnded(result) => {
                self.refresh = None;
                match result {
                    Ok(s) => {
                        let mut status = format!(
                            "Refreshed: {} new items, {} failed feeds, {} pages not fetched (kept with the feed's summary).",
                            s.new_items, s.feeds_failed, s.page_errors
                        );
                        if let Some(e) = &s.search_upkeep_error {
                            status.push_str(&format!(
                                " The search index could not be brought up to date ({e}); the next refresh tries again."
                            ));
                        }
                        self.status = Some(status)
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
    pub(super) fn adjust_unread(&mut self, feeds: &[String], delta: i64) {
        let Some(list) = &mut self.feeds else { return };
        for feed in list.iter_mut() {
            if feeds.iter().any(|name| name == sidebar::feed_name(feed)) {
                feed.unread = u32::try_from((i64::from(feed.unread) + delta).max(0)).unwrap_or(0);
            }
        }
    }

    pub(super) fn on_refresh_event(&mut self, event: Event) {
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
                let failed = p.error.is_some();
                self.schedule
                    .record(feed, failed, std::time::Instant::now());
                // The new counts and items show while the other feeds still refresh.
                self.send(Job::Feeds);
                self.reload_list();
            }
        }
    }
}
