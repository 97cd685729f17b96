//! How the three panes share the window's width: the reading pane keeps a readable line (at least
//! [`MIN_READING_CHARS`] characters) and the other two give way — first both narrow towards their
//! least, then the feeds pane folds away (the toolbar's "Feeds" button shows it in place of the
//! list), and the list narrows last.

use crate::ui::reader;

/// The shortest line the reading pane keeps, in average characters, while the side panes can
/// still give way.
pub const MIN_READING_CHARS: f32 = 45.0;
/// The feeds pane's least width, points: below it the pane folds away instead.
pub const FEEDS_MIN: f32 = 150.0;
/// The item list's least width, points: titles still read at it.
pub const ITEMS_MIN: f32 = 220.0;
/// What the reading pane takes around its text: the least side padding, the panels' margins and
/// the scroll bar.
const READER_CHROME: f32 = 64.0;

/// The side panes' widths, points: as the user left them (dragged), kept across restarts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PaneWidths {
    /// The feeds pane.
    pub feeds: f32,
    /// The item list.
    pub items: f32,
}

impl Default for PaneWidths {
    fn default() -> PaneWidths {
        PaneWidths {
            feeds: 220.0,
            items: 360.0,
        }
    }
}

/// How wide the side panes may be this frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Arrangement {
    /// The feeds pane's width, or `None` when it folds away.
    pub feeds: Option<f32>,
    /// The item list's width.
    pub items: f32,
}

/// The reading pane's least width at text size `size`: [`MIN_READING_CHARS`] and its chrome.
pub fn reading_min(size: f32) -> f32 {
    reader::chars_width(MIN_READING_CHARS, size) + READER_CHROME
}

/// Shares a window `window` points wide between the side panes (`wanted`) and a reading pane at
/// text size `size`.
pub fn arrange(window: f32, size: f32, wanted: PaneWidths) -> Arrangement {
    let room = (window - reading_min(size)).max(0.0);
    let feeds_wanted = wanted.feeds.max(FEEDS_MIN);
    let items_wanted = wanted.items.max(ITEMS_MIN);
    if room >= feeds_wanted + items_wanted {
        return Arrangement {
            feeds: Some(feeds_wanted),
            items: items_wanted,
        };
    }
    if room >= FEEDS_MIN + ITEMS_MIN {
        // Both give way, each in proportion to what it wanted beyond its least.
        let spare = room - FEEDS_MIN - ITEMS_MIN;
        let over = (feeds_wanted - FEEDS_MIN) + (items_wanted - ITEMS_MIN);
        let share = if over > 0.0 { spare / over } else { 0.0 };
        return Arrangement {
            feeds: Some(FEEDS_MIN + (feeds_wanted - FEEDS_MIN) * share),
            items: ITEMS_MIN + (items_wanted - ITEMS_MIN) * share,
        };
    }
    Arrangement {
        feeds: None,
        items: room.clamp(ITEMS_MIN, items_wanted),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wide_window_gives_the_panes_what_they_want() {
        let a = arrange(1400.0, 17.0, PaneWidths::default());
        assert_eq!(a.feeds, Some(220.0));
        assert_eq!(a.items, 360.0);
    }

    #[test]
    fn the_reading_pane_keeps_its_line_as_the_window_narrows() {
        for window in [1100.0, 1000.0, 900.0, 800.0, 700.0] {
            let a = arrange(window, 17.0, PaneWidths::default());
            let reader = window - a.feeds.unwrap_or(0.0) - a.items;
            assert!(
                reader >= reading_min(17.0) - 0.01 || a.items == ITEMS_MIN && a.feeds.is_none(),
                "{window}: {a:?}"
            );
            if let Some(feeds) = a.feeds {
                assert!(feeds >= FEEDS_MIN);
            }
            assert!(a.items >= ITEMS_MIN);
        }
        assert_eq!(arrange(800.0, 17.0, PaneWidths::default()).feeds, None);
        assert!(arrange(1000.0, 17.0, PaneWidths::default()).feeds.is_some());
    }
}
