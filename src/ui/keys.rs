//! The window's keyboard: one table of keys and what they do, read by both the input handler and
//! the `?` help window, so the help can never disagree with the behaviour. The keys follow
//! NetNewsWire, NewsFlash and Newsboat.

use egui::{Context, Event, Key, Modifiers};

/// Something the user asked for from the keyboard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Select the next item in the list.
    NextItem,
    /// Select the previous item.
    PrevItem,
    /// Select the next unread item (wrapping to the top).
    NextUnread,
    /// Select the previous unread item.
    PrevUnread,
    /// Scroll the article one page down (at its end: the next unread item).
    PageDown,
    /// Open the item's page in the system browser.
    OpenInBrowser,
    /// Refresh every feed.
    Refresh,
    /// Star or unstar the item.
    ToggleStar,
    /// Mark the item read or unread.
    ToggleRead,
    /// Focus the search box.
    Search,
    /// Show or hide the inspector.
    Inspector,
    /// Show or hide the list of keys.
    Help,
    /// Larger reading text.
    TextLarger,
    /// Smaller reading text.
    TextSmaller,
    /// Close the open dialog, search or inspector.
    Escape,
}

/// The keys as the help window lists them: (keys, what they do).
pub const HELP: &[(&str, &str)] = &[
    ("j / Down", "next item"),
    ("k / Up", "previous item"),
    ("n", "next unread item"),
    ("p", "previous unread item"),
    ("space", "page down; at the end, next unread item"),
    ("o", "open the page in the browser"),
    ("r", "refresh all feeds"),
    ("s", "star / unstar"),
    ("m", "mark read / unread"),
    ("/", "search"),
    (
        "i",
        "inspector: every block of the page and why it was kept or removed",
    ),
    ("+ / -", "larger / smaller text"),
    ("?", "this list of keys"),
    ("esc", "close a dialog, the search or the inspector"),
];

const BINDINGS: &[(Key, Action)] = &[
    (Key::J, Action::NextItem),
    (Key::ArrowDown, Action::NextItem),
    (Key::K, Action::PrevItem),
    (Key::ArrowUp, Action::PrevItem),
    (Key::N, Action::NextUnread),
    (Key::P, Action::PrevUnread),
    (Key::Space, Action::PageDown),
    (Key::O, Action::OpenInBrowser),
    (Key::R, Action::Refresh),
    (Key::S, Action::ToggleStar),
    (Key::M, Action::ToggleRead),
    (Key::Slash, Action::Search),
    (Key::I, Action::Inspector),
    (Key::Plus, Action::TextLarger),
    (Key::Equals, Action::TextLarger),
    (Key::Minus, Action::TextSmaller),
    (Key::Questionmark, Action::Help),
    (Key::Escape, Action::Escape),
];

/// The actions pressed this frame. While a text field has the keyboard only Escape counts, so
/// typing a search or a URL never moves the selection. Any other focused widget (a toolbar button
/// a click left focused) leaves the keys to the reader: asking egui whether it wants the keyboard
/// would say yes for any focus, and Space then pressed the button again instead of paging down.
pub fn actions(ctx: &Context) -> Vec<Action> {
    let typing = ctx.text_edit_focused();
    ctx.input_mut(|input| {
        let mut out = Vec::new();
        for &(key, action) in BINDINGS {
            if typing && action != Action::Escape {
                continue;
            }
            // Shift is allowed for the keys that need it on some layouts (`?`, `+`).
            let pressed = input.consume_key(Modifiers::NONE, key)
                || (matches!(key, Key::Questionmark | Key::Plus)
                    && input.consume_key(Modifiers::SHIFT, key));
            if pressed && !out.contains(&action) {
                out.push(action);
            }
        }
        // `?` arrives as text on layouts where it is not a key of its own.
        if !typing
            && !out.contains(&Action::Help)
            && input
                .events
                .iter()
                .any(|e| matches!(e, Event::Text(t) if t == "?"))
        {
            out.push(Action::Help);
        }
        out
    })
}
