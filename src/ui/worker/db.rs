//! The database thread: one connection answers the window's jobs in order. Until the file's
//! integrity check passes (on a thread of its own, started once the first list is answered) the
//! connection is read-only and every write is held here; then the held writes run, in the order
//! they were asked for, on a read-write connection. On damage the connection is closed, so the
//! file can be moved aside, and every held write fails with the reason.

use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::Duration;

use super::answer::{handle, open, opened};
use super::{Config, Hook, Job, Reply};
use crate::store::{CheckFailed, ItemId, ItemScope, Opening, Store, StoreError};

/// What the database thread is told: a job, or the outcome of the file's integrity check.
pub(super) enum ToDb {
    Job(Job),
    Checked(Result<(), CheckFailed>),
    /// The check ended without an outcome (it panicked): why, in words.
    CheckStopped(String),
}

/// A write held back until the file's check passes.
enum Later {
    /// A job, answered when it runs.
    Job(Job),
    /// Marking an opened article read (its [`Job::Open`] was answered already).
    MarkRead(ItemId),
}

/// How long the database thread waits for the window's first list question before it starts the
/// file's check anyway.
const CHECK_START_WAIT: Duration = Duration::from_millis(300);

/// The database thread's state: its connection (read-only until the file's check passes), the
/// check not yet started, and the writes held back meanwhile.
pub(super) struct DbThread {
    config: Config,
    tx: Sender<Reply>,
    ctx: egui::Context,
    /// For the checking thread to report back on the thread's own channel; handed to it when the
    /// check starts. Never kept here after that: while this thread held a sender of its own
    /// channel, the channel never closed when the window dropped its [`Worker`], so the thread
    /// (and its connection to the file) lived for ever.
    to_self: Option<Sender<ToDb>>,
    store: Result<Store, String>,
    /// The check, until it is started.
    check: Option<crate::store::IntegrityCheck>,
    /// Whether the check passed: writes go ahead.
    writable: bool,
    held: Vec<Later>,
}

impl DbThread {
    /// Opens the database: read-only with its check to come when it is an existing file, else
    /// checked first as the command line opens it.
    pub(super) fn open(
        config: Config,
        tx: Sender<Reply>,
        ctx: egui::Context,
        to_self: Sender<ToDb>,
    ) -> Self {
        let mut me = DbThread {
            config,
            tx,
            ctx,
            to_self: Some(to_self),
            store: Err(String::new()),
            check: None,
            writable: false,
            held: Vec::new(),
        };
        match Store::open_check_later(&me.config.db) {
            Ok(Opening::Checked(store)) => {
                me.store = Ok(store);
                me.writable = true;
                me.to_self = None;
                me.say(Reply::CheckPassed);
            }
            Ok(Opening::Unchecked(store, check)) => {
                me.store = Ok(store);
                me.check = Some(check);
            }
            Err(e) => {
                me.store = Err(me.unavailable(&e));
                me.to_self = None;
            }
        }
        me
    }

    fn say(&self, reply: Reply) -> bool {
        let sent = self.tx.send(reply).is_ok();
        self.ctx.request_repaint();
        sent
    }

    /// Tells the window the database cannot be used, and why; the message every job gets then.
    fn unavailable(&self, e: &StoreError) -> String {
        let fresh_start = matches!(
            e,
            StoreError::Damaged {
                moved_to: Some(_),
                ..
            }
        );
        let restorable = !matches!(
            e,
            StoreError::NotADatabase { .. } | StoreError::NoFolder { .. }
        );
        let message = e.to_string();
        self.say(Reply::StoreUnavailable {
            message: message.clone(),
            fresh_start,
            restorable,
        });
        message
    }

    /// The check ended without telling whether the file is sound: nothing may be written, so
    /// the database is closed (the file stays where it is) and the held writes fail. False when
    /// the window is gone.
    fn check_stopped(&mut self, why: String) -> bool {
        let message = format!(
            "{why}; nothing was written to {}, and the file was left as it is. Start pith again to check it again.",
            self.config.db.display()
        );
        self.say(Reply::StoreUnavailable {
            message: message.clone(),
            fresh_start: false,
            restorable: true,
        });
        self.give_up(message)
    }

    /// Starts the file's check on a thread of its own, once.
    fn start_check(&mut self) {
        let (Some(check), Some(to_self)) = (self.check.take(), self.to_self.take()) else {
            return;
        };
        let hook = self.config.before_check.clone();
        let spawned = thread::Builder::new()
            .name("pith-check".into())
            .spawn(move || {
                // A check that panics must still end in an answer: without one, every write
                // would wait for ever and the window would say "checking" for ever.
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    if let Some(Hook(hook)) = hook {
                        hook();
                    }
                    check.run()
                }));
                let _ = to_self.send(match outcome {
                    Ok(outcome) => ToDb::Checked(outcome),
                    Err(_) => {
                        ToDb::CheckStopped("the database's integrity check stopped on a bug".into())
                    }
                });
            });
        if spawned.is_err() {
            // No thread for the check: it is not skipped (nothing may write unchecked), and
            // the window is told at once rather than left waiting.
            let _ = self.check_stopped("the database's integrity check could not start".into());
        }
    }

    /// Answers jobs until the window drops its [`Worker`](super::Worker) (and the check, if one
    /// runs, has reported).
    pub(super) fn run(mut self, jobs: &Receiver<ToDb>) {
        loop {
            // The check starts once the first list has been answered (it reads the whole file,
            // and the list comes first), or when no question comes for a while.
            let first = if self.check.is_some() {
                match jobs.recv_timeout(CHECK_START_WAIT) {
                    Ok(message) => message,
                    Err(RecvTimeoutError::Timeout) => {
                        self.start_check();
                        continue;
                    }
                    Err(RecvTimeoutError::Disconnected) => return,
                }
            } else {
                match jobs.recv() {
                    Ok(message) => message,
                    Err(_) => return,
                }
            };
            // Everything queued meanwhile is handled in one go, so that only the last of several
            // opens (j held down) does the work.
            let mut batch = vec![first];
            batch.extend(jobs.try_iter());
            let last_open = batch
                .iter()
                .rposition(|m| matches!(m, ToDb::Job(Job::Open { .. })));
            for (i, message) in batch.into_iter().enumerate() {
                let job = match message {
                    ToDb::Checked(outcome) => {
                        if !self.checked(outcome) {
                            return;
                        }
                        continue;
                    }
                    ToDb::CheckStopped(why) => {
                        if !self.check_stopped(why) {
                            return;
                        }
                        continue;
                    }
                    ToDb::Job(job) => job,
                };
                let lists = matches!(job, Job::Items { .. } | Job::Search { .. });
                let reply = match job {
                    Job::Open { .. } if Some(i) != last_open => Some(Reply::Skipped),
                    job => self.job(job),
                };
                if let Some(reply) = reply
                    && !self.say(reply)
                {
                    return;
                }
                if lists {
                    self.start_check();
                }
            }
        }
    }

    /// Answers a job now, or holds it back (`None`) while the file's check has not passed.
    fn job(&mut self, job: Job) -> Option<Reply> {
        let store = match &mut self.store {
            Ok(store) => store,
            Err(e) => return Some(failed(job, e.clone())),
        };
        if self.writable {
            return Some(handle(store, &self.config.engine, job));
        }
        match job {
            Job::Open { id, mark_read } => {
                let reply = open(store, &self.config.engine, id);
                if mark_read && opened(&reply) {
                    self.held.push(Later::MarkRead(id));
                }
                Some(reply)
            }
            job if job.writes() => {
                self.held.push(Later::Job(job));
                None
            }
            job => Some(handle(store, &self.config.engine, job)),
        }
    }

    /// The check's outcome: writes go ahead on a new read-write connection, or the damaged file is
    /// closed and moved aside. False when the window is gone.
    fn checked(&mut self, outcome: Result<(), CheckFailed>) -> bool {
        let failure = match outcome {
            Ok(()) => {
                // Checked now, so this open does not check again; the read-only connection goes.
                match Store::open(&self.config.db) {
                    Ok(store) => {
                        self.store = Ok(store);
                        self.writable = true;
                        for later in std::mem::take(&mut self.held) {
                            let reply = match later {
                                Later::Job(job) => self.job(job),
                                Later::MarkRead(id) => {
                                    if let Ok(store) = &mut self.store {
                                        // As when the open marks it: not worth an error.
                                        let _ = store.set_read(ItemScope::Item(id), true);
                                    }
                                    None
                                }
                            };
                            if let Some(reply) = reply
                                && !self.say(reply)
                            {
                                return false;
                            }
                        }
                        // Only now, with the held writes done in the order they were asked
                        // for: the window starts the refreshes and subscriptions that waited
                        // when it hears this, and they write from connections of their own.
                        return self.say(Reply::CheckPassed);
                    }
                    Err(e) => e,
                }
            }
            Err(CheckFailed::Damaged(damaged)) => {
                // Every connection of this process to the file is closed before it moves: this
                // thread's (no refresh or subscription runs before the check passed).
                self.store = Err(String::new());
                damaged.move_aside()
            }
            Err(CheckFailed::Error(e)) => {
                self.store = Err(String::new());
                e
            }
        };
        let message = self.unavailable(&failure);
        self.give_up(message)
    }

    /// Closes the database for good: every later job, and every write held so far, fails with
    /// `message`. False when the window is gone.
    fn give_up(&mut self, message: String) -> bool {
        self.store = Err(message.clone());
        for later in std::mem::take(&mut self.held) {
            if let Later::Job(job) = later
                && !self.say(failed(job, message.clone()))
            {
                return false;
            }
        }
        true
    }
}

/// The reply a job gets when the database could not be opened.
fn failed(job: Job, e: String) -> Reply {
    match job {
        Job::Feeds | Job::ImportOpml { .. } => Reply::Feeds(Err(e)),
        Job::Items { generation, .. } | Job::Search { generation, .. } => Reply::Items {
            generation,
            rows: Err(e),
            append: false,
            more: false,
        },
        Job::ItemCount { generation, .. } => Reply::ItemCount {
            generation,
            count: Err(e),
        },
        Job::Open { id, .. } => Reply::Opened {
            id,
            article: Err(e),
            images: Vec::new(),
        },
        Job::SetRead { id, .. } => Reply::ReadSet { id, read: Err(e) },
        Job::ToggleStar { id } => Reply::Starred {
            id,
            starred: Err(e),
        },
        Job::Tree { domain } => Reply::Tree {
            domain,
            nodes: Err(e),
        },
        Job::Settings { .. } => Reply::Settings(Err(e)),
        Job::SaveSetting { .. } => Reply::Saved(Err(e)),
        Job::Manage(_) => Reply::Managed(Err(e)),
        Job::Pins { domain } | Job::PinAdd { domain, .. } | Job::PinRemove { domain, .. } => {
            Reply::Pins {
                domain,
                pins: Err(e),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Manage, Worker};
    use super::*;
    use std::path::PathBuf;
    use std::sync::{Arc, mpsc};
    use std::time::Instant;

    /// A sound database with one feed, copied to a path this process has never checked (as a
    /// new start of pith meets it): the worker opens it read-only and checks it apart.
    fn unchecked_database(dir: &std::path::Path) -> PathBuf {
        let built = dir.join("built.db");
        Store::open(&built)
            .unwrap()
            .feed_add("https://example.com/feed.xml", Some("Feed"), None, 1)
            .unwrap();
        let db = dir.join("pith.db");
        std::fs::copy(&built, &db).unwrap();
        db
    }

    /// A worker on `db` whose integrity check waits until the returned sender is dropped.
    fn held_check(db: &std::path::Path) -> (Worker, mpsc::Sender<()>) {
        let (release, held) = mpsc::channel::<()>();
        let held = std::sync::Mutex::new(held);
        let mut config = Config::new(db.to_path_buf());
        config.before_check = Some(Hook(Arc::new(move || {
            let _ = held.lock().unwrap().recv();
        })));
        (Worker::start(config, egui::Context::default()), release)
    }

    /// Replies until `done` says enough, or `None` after ten seconds.
    fn replies_until(worker: &Worker, done: impl Fn(&[Reply]) -> bool) -> Option<Vec<Reply>> {
        let deadline = Instant::now() + Duration::from_secs(10);
        let mut got = Vec::new();
        while Instant::now() < deadline {
            while let Some(reply) = worker.try_recv() {
                got.push(reply);
            }
            if done(&got) {
                return Some(got);
            }
            thread::sleep(Duration::from_millis(5));
        }
        None
    }

    #[test]
    fn a_dropped_worker_closes_its_connection_to_the_database() {
        let dir = tempfile::tempdir().unwrap();
        let db = unchecked_database(dir.path());
        let worker = Worker::start(Config::new(db.clone()), egui::Context::default());
        worker.send(Job::Feeds);
        let got = replies_until(&worker, |r| {
            r.iter().any(|r| matches!(r, Reply::CheckPassed))
                && r.iter().any(|r| matches!(r, Reply::Feeds(_)))
        });
        assert!(got.is_some(), "the check passes");
        assert_eq!(crate::store::open_connections(&db), 1);
        drop(worker);
        let deadline = Instant::now() + Duration::from_secs(10);
        while crate::store::open_connections(&db) > 0 {
            assert!(
                Instant::now() < deadline,
                "the database thread outlived its window and kept the file open"
            );
            thread::sleep(Duration::from_millis(5));
        }
    }

    #[test]
    fn a_check_that_panics_ends_in_an_error_and_answers_the_held_writes() {
        let dir = tempfile::tempdir().unwrap();
        let db = unchecked_database(dir.path());
        let mut config = Config::new(db.clone());
        config.before_check = Some(Hook(Arc::new(|| panic!("a bug in the check"))));
        let worker = Worker::start(config, egui::Context::default());
        worker.send(Job::SaveSetting {
            key: "text_size",
            value: "18".into(),
        });
        worker.send(Job::Feeds);
        let got = replies_until(&worker, |r| {
            r.iter()
                .any(|r| matches!(r, Reply::StoreUnavailable { .. }))
                && r.iter().any(|r| matches!(r, Reply::Saved(_)))
        })
        .expect("the window hears that the check stopped, and the held write is answered");
        assert!(!got.iter().any(|r| matches!(r, Reply::CheckPassed)));
        let Some(Reply::StoreUnavailable {
            message,
            fresh_start,
            ..
        }) = got
            .iter()
            .find(|r| matches!(r, Reply::StoreUnavailable { .. }))
        else {
            unreachable!()
        };
        assert!(message.contains("check"), "{message}");
        assert!(!fresh_start, "the file was not moved aside");
        assert!(
            got.iter().any(|r| matches!(r, Reply::Saved(Err(_)))),
            "{got:?}"
        );
        assert!(db.exists(), "the file stays where it is");
    }

    #[test]
    fn search_answers_before_the_check_passes() {
        let dir = tempfile::tempdir().unwrap();
        let (worker, release) = held_check(&unchecked_database(dir.path()));
        worker.send(Job::Search {
            query: "story".into(),
            generation: 1,
        });
        let got = replies_until(&worker, |r| {
            r.iter().any(|r| matches!(r, Reply::Items { .. }))
        })
        .expect("answered while the check is held");
        assert!(!got.iter().any(|r| matches!(r, Reply::CheckPassed)));
        let Some(Reply::Items { rows, .. }) = got.iter().find(|r| matches!(r, Reply::Items { .. }))
        else {
            unreachable!()
        };
        assert!(rows.is_ok(), "{rows:?}");
        drop(release);
    }

    #[test]
    fn the_writes_held_by_the_check_are_done_before_the_window_hears_it_passed() {
        let dir = tempfile::tempdir().unwrap();
        let (worker, release) = held_check(&unchecked_database(dir.path()));
        worker.send(Job::Feeds);
        let feed = match replies_until(&worker, |r| r.iter().any(|r| matches!(r, Reply::Feeds(_))))
            .expect("the feeds")
            .pop()
        {
            Some(Reply::Feeds(Ok(feeds))) => feeds[0].id,
            other => panic!("{other:?}"),
        };
        worker.send(Job::Manage(Manage::Unsubscribe(feed)));
        worker.send(Job::SaveSetting {
            key: "text_size",
            value: "18".into(),
        });
        thread::sleep(Duration::from_millis(50));
        drop(release);
        let got = replies_until(&worker, |r| {
            r.iter().any(|r| matches!(r, Reply::CheckPassed))
        })
        .expect("the check passes");
        // The window starts the refreshes and subscriptions that waited when it hears the check
        // passed: a refresh asked for after an unsubscribe must not meet the feed still there.
        assert!(
            matches!(
                got[..],
                [
                    Reply::Managed(Ok(_)),
                    Reply::Saved(Ok(())),
                    Reply::CheckPassed
                ]
            ),
            "{got:?}"
        );
    }
}
