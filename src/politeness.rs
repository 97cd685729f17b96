//! Politeness toward every host pith asks, in one place: at most a few requests to one host at a
//! time, a pause between the starts of two, and a server's `Retry-After` honoured (waited out once
//! when short, otherwise the host, and across runs the feed, is left alone until then).
//!
//! The rules are pure: [`HostBook`] holds each host's state, and every answer is a function of that
//! state and the instant it is asked at. The HTTP client ([`crate::fetch::Fetcher`]) keeps one book
//! and waits on its answers; the refresh's scheduler asks the same book which host may go next, so
//! a worker never sleeps on one host while another has work. Nothing here does I/O or sleeps.

use std::collections::HashMap;
use std::time::{Duration, Instant};

#[derive(Debug)]
struct HostState {
    /// Requests running now.
    active: usize,
    /// The earliest start of the next request.
    next_start: Instant,
    /// A Retry-After too long to wait: requests fail fast until then.
    deferred_until: Option<Instant>,
}

/// What a host says to a request that would start now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    /// Go: the request is counted as running until [`HostBook::finish`].
    Now,
    /// Wait until this instant (the pause since the last start), then ask again.
    At(Instant),
    /// Every connection to the host is busy: ask again when one finishes.
    WhenFreed,
    /// The host asked not to be asked before a time that has not come: fail without asking.
    Deferred,
}

/// Every host's politeness state.
#[derive(Debug)]
pub struct HostBook {
    per_host_connections: usize,
    host_delay: Duration,
    hosts: HashMap<String, HostState>,
}

impl HostBook {
    /// A book allowing `per_host_connections` requests at once per host (at least 1) and
    /// `host_delay` between the starts of two.
    pub fn new(per_host_connections: usize, host_delay: Duration) -> HostBook {
        HostBook {
            per_host_connections: per_host_connections.max(1),
            host_delay,
            hosts: HashMap::new(),
        }
    }

    /// When a request to `host` could start, asked at `now`: `None` when it can start now (or
    /// would fail fast, costing nothing), else the instant to ask again (an estimate, one pause
    /// away, when the host's connections are all busy). A scheduler picks work for ready hosts
    /// first with it.
    pub fn ready_at(&self, host: &str, now: Instant) -> Option<Instant> {
        let state = self.hosts.get(host)?;
        if state.deferred_until.is_some_and(|t| t > now) {
            return None;
        }
        if state.active >= self.per_host_connections {
            return Some(now + self.host_delay.max(Duration::from_millis(10)));
        }
        (state.next_start > now).then_some(state.next_start)
    }

    /// Asks to start a request to `host` at `now`; on [`Start::Now`] it is counted as running.
    pub fn try_start(&mut self, host: &str, now: Instant) -> Start {
        let state = self.hosts.entry(host.to_string()).or_insert(HostState {
            active: 0,
            next_start: now,
            deferred_until: None,
        });
        if let Some(until) = state.deferred_until {
            if until > now {
                return Start::Deferred;
            }
            state.deferred_until = None;
        }
        if state.active >= self.per_host_connections {
            Start::WhenFreed
        } else if state.next_start > now {
            Start::At(state.next_start)
        } else {
            state.active += 1;
            state.next_start = now + self.host_delay;
            Start::Now
        }
    }

    /// A request started with [`Start::Now`] is over.
    pub fn finish(&mut self, host: &str) {
        if let Some(state) = self.hosts.get_mut(host) {
            state.active = state.active.saturating_sub(1);
        }
    }

    /// The host answered 429/503 with a `Retry-After` of `wait`, at `now`: no request to it starts
    /// before then, and when it is too long to wait out (or was already waited out once) every
    /// request to it fails fast until then. Says whether the asking request should wait and ask
    /// once more.
    pub fn retry_after(
        &mut self,
        host: &str,
        now: Instant,
        wait: Duration,
        max_wait: Duration,
        already_waited: bool,
    ) -> bool {
        let wait_out = !already_waited && wait <= max_wait;
        if let Some(state) = self.hosts.get_mut(host) {
            let until = now + wait;
            state.next_start = state.next_start.max(until);
            if !wait_out {
                state.deferred_until = Some(until);
            }
        }
        wait_out
    }
}

/// Until when (unix seconds) a feed is not asked again: the `Retry-After` its server gave on an
/// earlier run, while it has not passed at `now`.
pub fn feed_deferred_until(retry_after: Option<i64>, now: i64) -> Option<i64> {
    retry_after.filter(|&until| until > now)
}

/// The unix time a `Retry-After` of `wait`, received at `now`, points to (kept with the feed so
/// that the next run does not ask before it).
pub fn retry_at(now: i64, wait: Duration) -> i64 {
    now.saturating_add(i64::try_from(wait.as_secs()).unwrap_or(i64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    #[test]
    fn starts_to_one_host_are_spaced_and_capped() {
        let t0 = Instant::now();
        let mut book = HostBook::new(2, 50 * MS);
        assert_eq!(book.ready_at("a", t0), None, "an unknown host is ready");
        assert_eq!(book.try_start("a", t0), Start::Now);
        assert_eq!(book.ready_at("a", t0), Some(t0 + 50 * MS));
        assert_eq!(book.try_start("a", t0 + 10 * MS), Start::At(t0 + 50 * MS));
        assert_eq!(book.try_start("b", t0), Start::Now, "hosts are apart");
        assert_eq!(book.try_start("a", t0 + 50 * MS), Start::Now);
        // Two running: the third waits for one to finish, however long ago the last start was.
        assert_eq!(book.try_start("a", t0 + 500 * MS), Start::WhenFreed);
        book.finish("a");
        assert_eq!(book.try_start("a", t0 + 500 * MS), Start::Now);
    }

    #[test]
    fn a_short_retry_after_is_waited_out_once_a_long_one_defers_the_host() {
        let t0 = Instant::now();
        let mut book = HostBook::new(2, 50 * MS);
        assert_eq!(book.try_start("a", t0), Start::Now);
        book.finish("a");
        let max = Duration::from_secs(10);
        assert!(book.retry_after("a", t0, Duration::from_secs(2), max, false));
        assert_eq!(book.ready_at("a", t0), Some(t0 + Duration::from_secs(2)));
        assert_eq!(
            book.try_start("a", t0 + Duration::from_secs(1)),
            Start::At(t0 + Duration::from_secs(2))
        );
        // Asked again and told again: no second wait, the host is deferred.
        assert!(!book.retry_after("a", t0, Duration::from_secs(2), max, true));
        assert_eq!(book.try_start("a", t0 + MS), Start::Deferred);
        assert_eq!(
            book.ready_at("a", t0 + MS),
            None,
            "a deferred host fails fast, so it costs nothing to pick"
        );
        assert_eq!(
            book.try_start("a", t0 + Duration::from_secs(3)),
            Start::Now,
            "the deferral ends when its time has passed"
        );
        assert!(!book.retry_after("b", t0, Duration::from_secs(60), max, false));
    }

    #[test]
    fn a_feed_is_deferred_until_its_stored_retry_after() {
        assert_eq!(feed_deferred_until(Some(100), 50), Some(100));
        assert_eq!(feed_deferred_until(Some(100), 100), None);
        assert_eq!(feed_deferred_until(None, 50), None);
        assert_eq!(retry_at(1000, Duration::from_secs(30)), 1030);
        assert_eq!(retry_at(i64::MAX - 1, Duration::from_secs(30)), i64::MAX);
    }
}
