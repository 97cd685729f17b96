//! What a page's own style sheets hide at a reader's width. Site builders lay a page out once per
//! screen size and let the style sheet show one copy: Framer renders each breakpoint's variant of
//! a section (`class="ssr-variant hidden-bnz77l"`) with `@media (min-width: 1200px) {
//! .hidden-bnz77l { display: none } }` beside it, so that the markup holds the article two or
//! three times and a browser shows it once. pith reads the page as a browser of a desktop width
//! ([`READER_WIDTH`]) does: a class that a media query matching that width hides, alone as a
//! selector, hides its elements. Only `<style>` elements are read (a linked sheet is not fetched),
//! and only rules this plain: anything else a sheet says is left to the page's other evidence.

use std::collections::HashSet;

use crate::dom::{Dom, NodeId};
use crate::limits::MAX_STYLE_BYTES;

/// The width, in CSS pixels, at which the page is read: a desktop browser's window beside a
/// list of articles, as pith's own window is.
const READER_WIDTH: f32 = 1280.0;

/// Pixels in an `em` or `rem` of a media query (the browser's default font size).
const EM_PX: f32 = 16.0;

/// The classes a page's `<style>` sheets hide at [`READER_WIDTH`] through a media query.
#[derive(Debug, Default)]
pub(super) struct HiddenClasses(HashSet<String>);

impl HiddenClasses {
    /// Reads the `<style>` elements of `dom`.
    pub fn of(dom: &Dom) -> HiddenClasses {
        let mut classes = HashSet::new();
        let mut read = 0;
        for id in dom.elements_by_name("style") {
            let sheet = dom.text_content(id);
            read += sheet.len();
            if read > MAX_STYLE_BYTES {
                break;
            }
            hidden_in_sheet(&sheet, &mut classes);
        }
        HiddenClasses(classes)
    }

    /// True when element `id`'s `class` names one of the hidden classes.
    pub fn hide(&self, dom: &Dom, id: NodeId) -> bool {
        !self.0.is_empty()
            && dom
                .attr(id, "class")
                .is_some_and(|class| class.split_ascii_whitespace().any(|c| self.0.contains(c)))
    }
}

/// Adds to `classes` those that `sheet` hides at [`READER_WIDTH`]: the lone class selectors of
/// rules that say `display: none` inside an `@media` block whose query matches that width.
fn hidden_in_sheet(sheet: &str, classes: &mut HashSet<String>) {
    let sheet = without_comments(sheet);
    let mut rest = sheet.as_str();
    while let Some(at) = rest.find("@media") {
        rest = &rest[at + "@media".len()..];
        let Some(open) = rest.find('{') else {
            return;
        };
        let query = &rest[..open];
        let Some(len) = block_len(&rest[open..]) else {
            return;
        };
        let body = &rest[open + 1..open + len - 1];
        if query_matches(query) {
            hidden_in_rules(body, classes);
        }
        rest = &rest[open + len..];
    }
}

/// The sheet without its `/* … */` comments (an unclosed one runs to the end, as in CSS).
fn without_comments(sheet: &str) -> String {
    let mut out = String::with_capacity(sheet.len());
    let mut rest = sheet;
    while let Some(start) = rest.find("/*") {
        out.push_str(&rest[..start]);
        match rest[start + 2..].find("*/") {
            Some(end) => rest = &rest[start + 2 + end + 2..],
            None => return out,
        }
    }
    out.push_str(rest);
    out
}

/// The length of the `{ … }` block `text` begins with, its nested blocks included, or `None` when
/// it is never closed.
fn block_len(text: &str) -> Option<usize> {
    let mut depth = 0u32;
    for (i, b) in text.bytes().enumerate() {
        match b {
            b'{' => depth += 1,
            b'}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// Adds the lone class selectors of the rules in `body` (a media block's content) that say
/// `display: none`. Nested at-rules are passed over.
fn hidden_in_rules(body: &str, classes: &mut HashSet<String>) {
    let mut rest = body;
    while let Some(open) = rest.find('{') {
        let selectors = rest[..open].trim();
        let Some(len) = block_len(&rest[open..]) else {
            return;
        };
        let declarations = &rest[open + 1..open + len - 1];
        if !selectors.starts_with('@') && says_display_none(declarations) {
            for selector in selectors.split(',') {
                if let Some(class) = lone_class(selector.trim()) {
                    classes.insert(class.to_owned());
                }
            }
        }
        rest = &rest[open + len..];
    }
}

/// True when `declarations` set `display` to `none`.
fn says_display_none(declarations: &str) -> bool {
    declarations.split(';').any(|d| {
        let Some((property, value)) = d.split_once(':') else {
            return false;
        };
        property.trim().eq_ignore_ascii_case("display")
            && value
                .trim()
                .trim_end_matches("!important")
                .trim()
                .eq_ignore_ascii_case("none")
    })
}

/// The class of a selector that is one class alone (`.hidden-bnz77l`), if it is.
fn lone_class(selector: &str) -> Option<&str> {
    let class = selector.strip_prefix('.')?;
    (!class.is_empty()
        && class
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_')))
    .then_some(class)
}

/// True when a media query list matches a screen [`READER_WIDTH`] wide: one of its queries
/// does. A query matches when its media type is a screen's (`screen`, `all` or none) and every
/// condition is a width this reader meets (`min-width`, `max-width`, in `px`, `em` or `rem`);
/// a query with any other condition, or `not`, is not taken to match: pith does not know.
fn query_matches(list: &str) -> bool {
    list.split(',').any(|query| {
        let query = query.trim().to_ascii_lowercase();
        if query.is_empty() {
            return false;
        }
        let mut rest = query.as_str();
        let mut conditions = Vec::new();
        while let Some(open) = rest.find('(') {
            let Some(close) = rest[open..].find(')') else {
                return false;
            };
            conditions.push(&rest[open + 1..open + close]);
            rest = &rest[open + close + 1..];
        }
        let words: String = query
            .split(['(', ')'])
            .step_by(2)
            .collect::<Vec<_>>()
            .join(" ");
        let typed = words
            .split_ascii_whitespace()
            .all(|w| matches!(w, "screen" | "all" | "and" | "only"));
        typed
            && conditions
                .iter()
                .all(|c| width_condition_holds(c) == Some(true))
    })
}

/// Whether a `min-width: 1200px` or `max-width: 64em` condition holds at [`READER_WIDTH`];
/// `None` for any other condition.
fn width_condition_holds(condition: &str) -> Option<bool> {
    let (feature, value) = condition.split_once(':')?;
    let value = value.trim();
    let px = if let Some(n) = value.strip_suffix("px") {
        n.trim().parse::<f32>().ok()?
    } else if let Some(n) = value
        .strip_suffix("rem")
        .or_else(|| value.strip_suffix("em"))
    {
        n.trim().parse::<f32>().ok()? * EM_PX
    } else {
        return None;
    };
    match feature.trim() {
        "min-width" => Some(READER_WIDTH >= px),
        "max-width" => Some(READER_WIDTH <= px),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hidden(sheet: &str) -> Vec<String> {
        let mut classes = HashSet::new();
        hidden_in_sheet(sheet, &mut classes);
        let mut v: Vec<String> = classes.into_iter().collect();
        v.sort();
        v
    }

    #[test]
    fn a_breakpoints_hidden_classes_are_those_of_the_readers_width() {
        // Framer's three breakpoints: only the desktop one matches 1280 pixels.
        let sheet = "@media(min-width: 1200px){.hidden-desk{display:none!important}}\
                     @media(min-width: 810px) and (max-width: 1199px){.hidden-tab{display:none}}\
                     @media(max-width: 809px){.hidden-phone{display:none !important}}";
        assert_eq!(hidden(sheet), ["hidden-desk"]);
        // Lists, em widths, screen types and several rules in one block.
        let sheet = "@media print, screen and (min-width: 64em) { .a, .b { color: red; \
                     display: none } .c { display: block } .d .e { display: none } } \
                     /* @media (min-width: 1px) { .f { display: none } } */";
        assert_eq!(hidden(sheet), ["a", "b"]);
    }

    #[test]
    fn only_plain_width_queries_and_lone_classes_count() {
        for sheet in [
            "@media print { .x { display: none } }",
            "@media (orientation: landscape) { .x { display: none } }",
            "@media not screen and (min-width: 10px) { .x { display: none } }",
            "@media (min-width: 1400px) { .x { display: none } }",
            "@media (min-width: 100px) { div.x, .x:hover, #x, .x > p { display: none } }",
            "@media (min-width: 100px) { .x { visibility: visible } }",
            ".x { display: none }",
            "@media (min-width: 100px) { @supports (display: grid) { .x { display: none } } }",
            "@media (min-width: 100px) { .x { display: none }",
        ] {
            assert!(hidden(sheet).is_empty(), "{sheet}");
        }
    }
}
