//! The `pith` command line: the arguments ([`args`]), one module per command or group of
//! commands, and where they write ([`output`]). Each command opens what it needs, asks the
//! library, and prints through its own small printing functions, so what is shown can be read
//! (and tested) apart from how it is found.

#[macro_use]
mod output;
mod args;
mod backup;
mod eval;
mod extract;
mod feeds;
mod items;
mod open;
mod pins;
mod read;
mod refresh;
mod space;
mod tree;
mod window;
mod words;

use anyhow::Result;
use pith::eval::report::Grouping;
use pith::outline::Limits;
use pith::store::{ItemFilter, PinVerdict};

pub use args::Cli;
use args::Command;
pub use open::reads_damage;
pub use output::is_closed_pipe;

/// Runs the command `cli` names (the window when it names none).
pub fn run(cli: Cli) -> Result<()> {
    let Cli {
        db,
        loopback_only,
        command,
    } = cli;
    let Some(command) = command else {
        return window::window(db, loopback_only);
    };
    match command {
        Command::Extract {
            page,
            url,
            title,
            charset,
            method,
            blocks,
        } => {
            let page = extract::Page {
                file: &page,
                url: &url,
                title: title.as_deref(),
                charset: charset.as_deref(),
            };
            extract::extract(db, &page, &method, blocks)
        }
        Command::Eval {
            dataset,
            heuristic,
            out,
            per_site,
            markdown,
            per_type,
            halves,
            mode,
            unnamed,
        } => {
            let groupings = [
                per_type.then_some(Grouping::PageType),
                halves.then_some(Grouping::SiteHalf),
            ];
            let tables = eval::Tables {
                per_site,
                markdown,
                groupings: groupings.into_iter().flatten().collect(),
            };
            eval::eval(&dataset, &heuristic, out, &tables, &mode, unnamed)
        }
        Command::Add {
            url,
            no_refresh,
            net,
        } => feeds::add(db, &url, no_refresh, &net, loopback_only),
        Command::Import { file } => feeds::import(db, &file),
        Command::Export { file } => feeds::export(db, file.as_deref()),
        Command::Remove { feed } => feeds::remove(db, &feed),
        Command::Rename { feed, name } => feeds::rename(db, &feed, name.as_deref()),
        Command::Move { feed, folder } => feeds::move_to(db, &feed, folder.as_deref()),
        Command::Feeds => feeds::list(db),
        Command::Refresh {
            feed,
            jobs,
            no_images,
            net,
        } => refresh::command(
            db,
            feed.as_deref(),
            jobs,
            !no_images,
            net.config(loopback_only),
        ),
        Command::Items {
            feed,
            unread,
            starred,
            limit,
        } => {
            let filter = ItemFilter {
                feed: None,
                unread,
                starred,
                limit,
                after: None,
            };
            items::list(db, feed.as_deref(), filter)
        }
        Command::Read { id, blocks } => read::read(db, id, blocks),
        Command::Search { query, limit } => items::search(db, &query, limit),
        Command::Star { id } => items::star(db, id),
        Command::Pin {
            item,
            block,
            content,
            ..
        } => {
            let verdict = if content {
                PinVerdict::Content
            } else {
                PinVerdict::Boilerplate
            };
            pins::pin(db, item, block, verdict)
        }
        Command::Pins { site } => pins::list(db, site.as_deref()),
        Command::Unpin { id } => pins::unpin(db, id),
        Command::Tree {
            site,
            item,
            depth,
            top,
        } => {
            let request = tree::Request {
                site: site.as_deref(),
                item,
                limits: Limits { depth, top },
            };
            tree::tree(db, &request)
        }
        Command::MarkRead {
            id,
            feed,
            all,
            unread,
        } => {
            let which = items::Marked {
                id,
                feed: feed.as_deref(),
                all,
            };
            items::mark_read(db, which, unread)
        }
        Command::Stats => space::stats(db),
        Command::Retention {
            read_days,
            unread_days,
        } => space::retention(db, read_days, unread_days),
        Command::Cleanup { vacuum } => space::cleanup(db, vacuum),
        Command::Backup { file } => backup::backup(db, &file),
        Command::Restore { file } => backup::restore(db, &file),
    }
}
