//! The network jobs: a refresh, and a subscription (which then refreshes its new feed), each on a
//! thread of its own with connections of its own. The window starts neither before the database's
//! integrity check passed (see `App::start_refresh`).

use std::sync::mpsc::Sender;
use std::thread;

use super::{Config, Reply, Worker};
use crate::refresh::{self, Event, RefreshOptions};
use crate::store::{FeedId, Store};

impl Worker {
    /// Refreshes the feeds (all, or `only`) on a thread of its own, reporting every event.
    pub fn refresh(&self, only: Option<Vec<FeedId>>) {
        let config = self.config.clone();
        let tx = self.reply_tx.clone();
        let ctx = self.ctx.clone();
        let _ = thread::Builder::new()
            .name("pith-refresh".into())
            .spawn(move || run_refresh(&config, only, &tx, &ctx));
    }

    /// Subscribes to `url` (a feed, or a page naming one) on a thread of its own, then refreshes
    /// the new feed.
    pub fn subscribe(&self, url: String) {
        let config = self.config.clone();
        let tx = self.reply_tx.clone();
        let ctx = self.ctx.clone();
        let _ = thread::Builder::new()
            .name("pith-subscribe".into())
            .spawn(move || {
                let added =
                    Store::open(&config.db)
                        .map_err(|e| e.to_string())
                        .and_then(|mut store| {
                            refresh::subscribe(&mut store, &config.fetch, &url)
                                .map_err(|e| format!("{url}: {e}"))
                        });
                let ok = added.as_ref().map(|a| a.feed).ok();
                let _ = tx.send(Reply::Subscribed(added.map(|a| a.feed)));
                ctx.request_repaint();
                if let Some(feed) = ok {
                    run_refresh(&config, Some(vec![feed]), &tx, &ctx);
                }
            });
    }
}

fn run_refresh(
    config: &Config,
    only: Option<Vec<FeedId>>,
    tx: &Sender<Reply>,
    ctx: &egui::Context,
) {
    let options = RefreshOptions {
        jobs: config.jobs.max(1),
        fetch: config.fetch.clone(),
        feeds: only,
        images: config.images,
    };
    let on_event = |event: Event| {
        let _ = tx.send(Reply::Refresh(event));
        ctx.request_repaint();
    };
    // A bug that panics inside the refresh still ends it for the window, which would otherwise
    // wait for it forever and refuse every later refresh.
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        refresh::refresh(&config.db, &config.engine, &options, &on_event).map_err(|e| e.to_string())
    }))
    .unwrap_or_else(|_| Err("the refresh stopped on a bug (what it stored is kept)".to_string()));
    let _ = tx.send(Reply::RefreshEnded(result));
    ctx.request_repaint();
}
