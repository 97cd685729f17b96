//! Every script on screen: egui bundles fonts for Latin, Greek and Cyrillic (and some emoji) only,
//! so the window asks the system's fonts (fontconfig on Linux) for every character they lack —
//! Chinese, Japanese, Korean, Thai, Arabic, Hebrew, Devanagari, emoji — in the item list, the
//! reading pane and the inspector alike, since all three draw with the context's fonts.
//!
//! The provider enumerates the system's fonts once, on a thread of its own started here, and
//! memory-maps a font only when a character first needs it; a font is found at most once per
//! (family, character). The first frames draw while the enumeration runs: a frame waits for it
//! only if it meets a character the bundled fonts lack before the enumeration is done.

use std::sync::Arc;

use egui_system_font_provider::SystemFontProvider;

/// Installs the system-font fallback on `ctx`. Call once per context (the first frame does).
pub fn install(ctx: &egui::Context) {
    ctx.add_font_provider(Arc::new(SystemFontProvider::new()));
}
