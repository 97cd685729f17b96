//! The window's settings kept in the database: the refresh interval, the text size and the side
//! panes' widths, read once the worker starts and written when the user changes them; and the
//! clock that refreshes on its own ([`Schedule`]).

use std::time::Instant;

use super::{App, TEXT_SIZE_RANGE};
use crate::store::FeedId;
use crate::ui::layout::{FEEDS_MIN, ITEMS_MIN, PaneWidths};
use crate::ui::schedule::{self, Schedule};
use crate::ui::worker::Job;

/// The reading text size, points.
pub const TEXT_SIZE: &str = "text_size";
/// The feeds pane's width, points.
pub const FEEDS_WIDTH: &str = "feeds_width";
/// The item list's width, points.
pub const ITEMS_WIDTH: &str = "items_width";
/// Every setting the window reads at start.
pub const KEYS: [&str; 4] = [schedule::SETTING, TEXT_SIZE, FEEDS_WIDTH, ITEMS_WIDTH];
/// The widest a side pane is restored, points (a stored value is never trusted blindly).
const PANE_MAX: f32 = 2000.0;

/// A stored number, if it reads as one within `min..=max`.
fn number(value: Option<&str>, min: f32, max: f32) -> Option<f32> {
    value
        .and_then(|v| v.trim().parse::<f32>().ok())
        .filter(|v| v.is_finite())
        .map(|v| v.clamp(min, max))
}

impl App {
    /// Puts the stored settings in place (any missing or unreadable one keeps its default).
    pub(super) fn apply_settings(&mut self, values: &[(&'static str, Option<String>)]) {
        let get = |key: &str| {
            values
                .iter()
                .find(|(k, _)| *k == key)
                .and_then(|(_, v)| v.as_deref())
        };
        self.schedule = Schedule::new(schedule::interval_from_setting(get(schedule::SETTING)));
        if let Some(size) = number(get(TEXT_SIZE), TEXT_SIZE_RANGE.0, TEXT_SIZE_RANGE.1) {
            self.text_size = size.round();
        }
        let defaults = PaneWidths::default();
        self.pane_widths = PaneWidths {
            feeds: number(get(FEEDS_WIDTH), FEEDS_MIN, PANE_MAX).unwrap_or(defaults.feeds),
            items: number(get(ITEMS_WIDTH), ITEMS_MIN, PANE_MAX).unwrap_or(defaults.items),
        };
        self.saved_widths = self.pane_widths;
        self.settings_loaded = true;
    }

    /// Stores a setting, on the worker.
    pub(super) fn save_setting(&mut self, key: &'static str, value: String) {
        self.send(Job::SaveSetting { key, value });
    }

    /// The refresh interval in minutes as the settings dialog shows it (0: never).
    pub fn refresh_minutes(&self) -> f64 {
        self.schedule
            .interval()
            .map_or(0.0, |i| i.as_secs_f64() / 60.0)
    }

    /// Sets the refresh interval (0: never) and stores it.
    pub fn set_refresh_minutes(&mut self, minutes: f64) {
        let minutes = if minutes.is_finite() {
            minutes.clamp(0.0, schedule::MAX_MINUTES)
        } else {
            schedule::DEFAULT_MINUTES
        };
        let value = minutes.to_string();
        let interval = schedule::interval_from_setting(Some(&value));
        self.schedule.set_interval(interval, Instant::now());
        self.save_setting(schedule::SETTING, value);
    }

    /// Once a frame: starts the refresh the clock says is due, asks to be woken for the next one,
    /// and stores pane widths the user has finished dragging.
    pub(super) fn tick(&mut self, ctx: &egui::Context) {
        if !self.settings_loaded || self.store_error.is_some() {
            return;
        }
        let now = Instant::now();
        // Not before the database's check passed: the round waits (and is not counted as run).
        if self.refresh.is_none()
            && self.store_checked
            && let Some(feeds) = &self.feeds
            && !feeds.is_empty()
        {
            let ids: Vec<FeedId> = feeds.iter().map(|f| f.id).collect();
            if let Some(due) = self.schedule.due(now, &ids)
                && !due.is_empty()
            {
                self.start_refresh(Some(due));
            }
        }
        if let Some(wait) = self.schedule.until_next(now) {
            ctx.request_repaint_after(wait);
        }
        let dragging = ctx.input(|i| i.pointer.any_down());
        if !dragging && self.pane_widths != self.saved_widths {
            self.saved_widths = self.pane_widths;
            self.save_setting(FEEDS_WIDTH, self.pane_widths.feeds.round().to_string());
            self.save_setting(ITEMS_WIDTH, self.pane_widths.items.round().to_string());
        }
    }
}
