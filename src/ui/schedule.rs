//! Refresh on its own while the window is open: once at start, then every interval the user set
//! (30 minutes unless changed; kept in the database's settings), each feed that failed waiting
//! longer — twice the interval after one failure, doubling with each further one up to
//! [`BACKOFF_CAP`] — until it succeeds again. `pith refresh` stays the way to refresh from cron;
//! this is only the window's clock, and the refresh itself runs on the worker's thread.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use crate::store::FeedId;

/// The interval when the user has set none, minutes.
pub const DEFAULT_MINUTES: f64 = 30.0;
/// The longest interval the window offers, minutes (a day).
pub const MAX_MINUTES: f64 = 24.0 * 60.0;
/// The longest a failing feed waits between tries.
pub const BACKOFF_CAP: Duration = Duration::from_secs(24 * 60 * 60);
/// The settings key of the interval, in minutes as text; `0` turns the schedule off.
pub const SETTING: &str = "refresh_minutes";

/// A feed that failed: how often in a row, and when it may be tried again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Backoff {
    failures: u32,
    not_before: Instant,
}

/// The window's refresh clock.
#[derive(Debug, Clone)]
pub struct Schedule {
    /// `None`: off.
    interval: Option<Duration>,
    /// When the next round is due; `None` until the first (at start).
    next: Option<Instant>,
    backoff: HashMap<FeedId, Backoff>,
}

/// The interval a stored setting names: minutes as a number, bounded to [`MAX_MINUTES`]; `0` (or
/// less) is off, and anything unreadable is the default.
pub fn interval_from_setting(value: Option<&str>) -> Option<Duration> {
    let minutes = value
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|m| m.is_finite())
        .unwrap_or(DEFAULT_MINUTES);
    (minutes > 0.0).then(|| Duration::from_secs_f64(minutes.min(MAX_MINUTES) * 60.0))
}

impl Schedule {
    /// A clock ticking every `interval` (`None`: off), whose first round is due at once.
    pub fn new(interval: Option<Duration>) -> Schedule {
        Schedule {
            interval,
            next: None,
            backoff: HashMap::new(),
        }
    }

    /// The interval, `None` when off.
    pub fn interval(&self) -> Option<Duration> {
        self.interval
    }

    /// Changes the interval; the next round comes one new interval after `now`.
    pub fn set_interval(&mut self, interval: Option<Duration>, now: Instant) {
        self.interval = interval;
        if self.next.is_some() {
            self.next = interval.map(|i| now + i);
        }
    }

    /// A refresh started at `now` (by the user or the clock): the next round is an interval on.
    pub fn ran(&mut self, now: Instant) {
        self.next = Some(self.interval.map_or(now, |i| now + i));
    }

    /// The feeds of `feeds` to refresh at `now` when a round is due (the ones not waiting out a
    /// failure; possibly none), else `None`. A round that is due counts as run.
    pub fn due(&mut self, now: Instant, feeds: &[FeedId]) -> Option<Vec<FeedId>> {
        let interval = self.interval?;
        if self.next.is_some_and(|next| now < next) {
            return None;
        }
        self.next = Some(now + interval);
        Some(
            feeds
                .iter()
                .copied()
                .filter(|f| self.backoff.get(f).is_none_or(|b| now >= b.not_before))
                .collect(),
        )
    }

    /// How long until the next round (what the window sleeps for), `None` when off.
    pub fn until_next(&self, now: Instant) -> Option<Duration> {
        self.interval?;
        Some(
            self.next
                .map_or(Duration::ZERO, |n| n.saturating_duration_since(now)),
        )
    }

    /// A feed's refresh ended at `now`: a failure doubles its wait, a success clears it.
    pub fn record(&mut self, feed: FeedId, failed: bool, now: Instant) {
        if !failed {
            self.backoff.remove(&feed);
            return;
        }
        let interval = self
            .interval
            .unwrap_or(Duration::from_secs_f64(DEFAULT_MINUTES * 60.0));
        let failures = self.backoff.get(&feed).map_or(0, |b| b.failures) + 1;
        let wait = interval
            .saturating_mul(1u32 << failures.min(20))
            .min(BACKOFF_CAP.max(interval));
        self.backoff.insert(
            feed,
            Backoff {
                failures,
                not_before: now + wait,
            },
        );
    }

    /// How long a failing feed waits before its next try, from `now`; `None` when it is not
    /// waiting.
    pub fn waiting(&self, feed: FeedId, now: Instant) -> Option<Duration> {
        self.backoff
            .get(&feed)
            .map(|b| b.not_before.saturating_duration_since(now))
            .filter(|d| !d.is_zero())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIN: Duration = Duration::from_secs(60);

    #[test]
    fn the_first_round_is_at_once_then_every_interval() {
        let t0 = Instant::now();
        let mut s = Schedule::new(Some(30 * MIN));
        assert_eq!(s.due(t0, &[1, 2]), Some(vec![1, 2]));
        assert_eq!(s.due(t0 + 29 * MIN, &[1, 2]), None);
        assert_eq!(s.due(t0 + 30 * MIN, &[1, 2]), Some(vec![1, 2]));
        // A refresh the user started moves the next round on.
        s.ran(t0 + 40 * MIN);
        assert_eq!(s.due(t0 + 60 * MIN, &[1]), None);
        assert_eq!(s.due(t0 + 70 * MIN, &[1]), Some(vec![1]));
    }

    #[test]
    fn a_failing_feed_waits_twice_as_long_each_time_up_to_the_cap_and_success_resets_it() {
        let t0 = Instant::now();
        let mut s = Schedule::new(Some(30 * MIN));
        s.record(7, true, t0);
        assert_eq!(s.waiting(7, t0), Some(60 * MIN));
        s.record(7, true, t0);
        assert_eq!(s.waiting(7, t0), Some(120 * MIN));
        for _ in 0..20 {
            s.record(7, true, t0);
        }
        assert_eq!(s.waiting(7, t0), Some(BACKOFF_CAP));
        // Skipped while it waits; the other feed goes on.
        assert_eq!(s.due(t0, &[7, 8]), Some(vec![8]));
        assert_eq!(s.due(t0 + BACKOFF_CAP, &[7, 8]), Some(vec![7, 8]));
        s.record(7, false, t0);
        assert_eq!(s.waiting(7, t0), None);
    }

    #[test]
    fn the_stored_interval_is_read_bounded_and_zero_is_off() {
        assert_eq!(interval_from_setting(None), Some(30 * MIN));
        assert_eq!(interval_from_setting(Some("45")), Some(45 * MIN));
        assert_eq!(interval_from_setting(Some("0")), None);
        assert_eq!(interval_from_setting(Some("nonsense")), Some(30 * MIN));
        assert_eq!(interval_from_setting(Some("1e9")), Some(24 * 60 * MIN));
        assert_eq!(Schedule::new(None).due(Instant::now(), &[1]), None);
    }
}
