//! What a page's own style sheets hide at a reader's width. Site builders lay a page out once per
//! screen size and let the style sheet show one copy: Framer renders each breakpoint's variant of
//! a section (`class="ssr-variant hidden-bnz77l"`) with `@media (min-width: 1200px) {
//! .hidden-bnz77l { display: none } }` beside it, so that the markup holds the article two or
//! three times and a browser shows it once. pith reads the page as a browser of a desktop width
//! ([`READER_WIDTH`]) does: a class that a top-level media query matching that width sets to
//! `display: none`, alone as a selector, hides its elements, unless another class of the element
//! is set to show by a rule that wins over it (`!important`, then the later rule: Bootstrap's
//! `d-md-none d-xl-block` shows). Only `<style>` elements are read (a linked sheet is not
//! fetched), and only rules this plain: any other at-rule, selector or media condition (range
//! syntax, `orientation`, a unitless width, an upper-case `@MEDIA`), and a `display: none` outside
//! a media query (which a script may toggle), are left to the page's other evidence.
//!
//! The same rules say which classes fix their elements to the viewport (`position: fixed`, at
//! the top level or in a matching media query): a consent notice, a chat or an offer laid over
//! the page, whatever the generated name that CSS-in-JS gives its class (see
//! [`super::Declarations::overlays`]).

use std::borrow::Cow;
use std::collections::HashMap;

use crate::dom::{Dom, NodeId};
use crate::limits::MAX_STYLE_BYTES;

/// Fixed classes up to which [`SheetClasses::position`] scans the list of them before hashing
/// an element's class names.
const QUICK_FIXED: usize = 16;

/// The width, in CSS pixels, at which the page is read: a desktop browser's window beside a
/// list of articles, as pith's own window is.
const READER_WIDTH: f32 = 1280.0;

/// Pixels in an `em` or `rem` of a media query (the browser's default font size).
const EM_PX: f32 = 16.0;

/// How strongly a rule sets a class's `display` or `position`: `!important` first, then the
/// later rule (all the rules read have one class as their selector, so specificity ties).
type Precedence = (bool, usize);

/// What a page's `<style>` sheets say of its classes: those they hide at [`READER_WIDTH`]
/// through a media query, and those they set to show, each with the precedence of its strongest
/// rule; and, on a page where some class is fixed, the position each class's strongest rule read
/// gives it (the rules that can matter: see [`SheetClasses::read_rule`]), whether `fixed`.
#[derive(Debug, Default)]
pub(super) struct SheetClasses {
    hidden: HashMap<String, Precedence>,
    shown: HashMap<String, Precedence>,
    positions: HashMap<String, (bool, Precedence)>,
    /// The classes whose strongest rule fixes them, for a quick first look (a page fixes a few).
    fixed: Vec<String>,
}

impl SheetClasses {
    /// Reads the `<style>` elements of `dom` that apply to a screen (a `media` attribute, when
    /// present, must match [`READER_WIDTH`]), up to [`MAX_STYLE_BYTES`] of them in all: a sheet
    /// that would pass the bound is not read, and the smaller ones after it still are.
    pub fn of(dom: &Dom) -> SheetClasses {
        let mut classes = SheetClasses::default();
        let mut read = 0;
        let mut sheets = Vec::new();
        for id in dom.elements_by_name("style") {
            // A shadow root's sheet styles its component alone.
            if dom.is_shadow_style(id) {
                continue;
            }
            if dom
                .attr(id, "media")
                .is_some_and(|m| !m.trim().is_empty() && !query_matches(m))
            {
                continue;
            }
            let sheet = sheet_text(dom, id);
            if read + sheet.len() > MAX_STYLE_BYTES {
                continue;
            }
            read += sheet.len();
            sheets.push(sheet);
        }
        // Without a media query nothing is hidden, and what the rules show does not matter;
        // without the word, nothing is fixed.
        if !sheets
            .iter()
            .any(|sheet| sheet.contains("@media") || mentions_fixed(sheet))
        {
            return classes;
        }
        let mut order = 0;
        for sheet in &sheets {
            classes.read_sheet(sheet, &mut order);
        }
        // The positions matter only to tell a fixed class: with none, no element needs looking
        // up (the builder asks of every element with a class).
        classes.fixed = classes
            .positions
            .iter()
            .filter(|(_, (fixed, _))| *fixed)
            .map(|(class, _)| class.clone())
            .collect();
        if classes.fixed.is_empty() {
            classes.positions.clear();
        }
        classes
    }

    /// True when element `id` carries a hidden class that no other class of it overrules.
    pub fn hide(&self, dom: &Dom, id: NodeId) -> bool {
        if self.hidden.is_empty() {
            return false;
        }
        let Some(class) = dom.attr(id, "class") else {
            return false;
        };
        class.split_ascii_whitespace().any(|c| {
            self.hidden.get(c).is_some_and(|&hiding| {
                !class
                    .split_ascii_whitespace()
                    .any(|d| self.shown.get(d).is_some_and(|&showing| showing > hiding))
            })
        })
    }

    /// The position the sheets give element `id` through its classes, when one of them is fixed
    /// (see [`position_of`]): of its classes that set a position, the one with the strongest
    /// rule decides (a later `position: relative` for another class of it keeps it in the
    /// flow). `None` when no class of it is fixed by any rule.
    pub fn position(&self, dom: &Dom, id: NodeId) -> Option<(bool, bool)> {
        if self.fixed.is_empty() {
            return None;
        }
        let class = dom.attr(id, "class")?;
        // Most elements carry none of a page's few fixed classes: a scan of them spares the
        // hashing. A sheet that fixes many classes is looked up by hash at once (a scan per
        // name would grow with both).
        if self.fixed.len() <= QUICK_FIXED
            && !class
                .split_ascii_whitespace()
                .any(|c| self.fixed.iter().any(|f| f == c))
        {
            return None;
        }
        class
            .split_ascii_whitespace()
            .filter_map(|c| self.positions.get(c))
            .max_by_key(|(_, precedence)| *precedence)
            .map(|&(fixed, (important, _))| (fixed, important))
    }

    /// Reads one sheet's top-level rules and media blocks; `order` counts the rules read so far,
    /// in document order.
    fn read_sheet(&mut self, sheet: &str, order: &mut usize) {
        let sheet = without_comments(sheet);
        let mut rest: &str = &sheet;
        loop {
            rest = rest.trim_start();
            let Some(open) = rest.find(['{', ';']) else {
                return;
            };
            // A statement at-rule (`@import …;`, `@charset …;`) or a stray `;`.
            if rest.as_bytes()[open] == b';' {
                rest = &rest[open + 1..];
                continue;
            }
            let prelude = rest[..open].trim();
            let Some(len) = block_len(&rest[open..]) else {
                return;
            };
            let body = &rest[open + 1..open + len - 1];
            if let Some(query) = prelude.strip_prefix("@media") {
                if query_matches(query) {
                    self.read_media_rules(body, order);
                }
            } else if !prelude.starts_with('@') {
                self.read_rule(prelude, body, false, order);
            }
            rest = &rest[open + len..];
        }
    }

    /// Reads the rules of a matching media block (nested at-rules are passed over whole).
    fn read_media_rules(&mut self, body: &str, order: &mut usize) {
        let mut rest = body;
        while let Some(open) = rest.find('{') {
            let selectors = rest[..open].trim();
            let Some(len) = block_len(&rest[open..]) else {
                return;
            };
            if !selectors.starts_with('@') {
                self.read_rule(selectors, &rest[open + 1..open + len - 1], true, order);
            }
            rest = &rest[open + len..];
        }
    }

    /// Reads one rule: its lone class selectors are hidden (inside a matching media block only)
    /// or shown, by the `display` its declarations end on, and fixed or not by the `position`
    /// they end on.
    fn read_rule(
        &mut self,
        selectors: &str,
        declarations: &str,
        in_media: bool,
        order: &mut usize,
    ) {
        *order += 1;
        // Most rules say nothing of `display` or `position`: a plain search spares their parse.
        let display = (declarations.contains("isplay") || declarations.contains("ISPLAY"))
            .then(|| display_of(declarations))
            .flatten();
        // A rule that puts a class back in the flow matters only once a class was fixed, or when
        // it is important (it wins over a later fixed one): until then, only the rules that may
        // fix a class or are important are parsed. The word `position` is looked for first: most
        // rules do not name it.
        let names_position = declarations.contains("osition") || declarations.contains("OSITION");
        let may_matter = names_position
            && (mentions_fixed(declarations)
                || declarations.contains('!')
                || !self.positions.is_empty());
        let position = may_matter.then(|| position_of(declarations)).flatten();
        if display.is_none() && position.is_none() {
            return;
        }
        for class in selectors.split(',').filter_map(|s| lone_class(s.trim())) {
            if let Some((none, important)) = display {
                let precedence = (important, *order);
                let table = match (none, in_media) {
                    (true, true) => Some(&mut self.hidden),
                    (true, false) => None,
                    (false, _) => Some(&mut self.shown),
                };
                if let Some(table) = table {
                    let entry = table.entry(class.to_owned()).or_insert(precedence);
                    *entry = (*entry).max(precedence);
                }
            }
            if let Some((fixed, important)) = position {
                let precedence = (important, *order);
                let entry = self
                    .positions
                    .entry(class.to_owned())
                    .or_insert((fixed, precedence));
                if precedence >= entry.1 {
                    *entry = (fixed, precedence);
                }
            }
        }
    }
}

/// The `display` a rule's declarations end on, as (is it `none`, is it `!important`): an
/// important declaration wins over one that is not, and of two alike the later.
fn display_of(declarations: &str) -> Option<(bool, bool)> {
    value_of(declarations, "display")
        .map(|(value, important)| (value.eq_ignore_ascii_case("none"), important))
}

/// True when `text` holds the word `fixed` in any case: a cheap look before any parse (two
/// searches: `fixed` and `Fixed` share `ixed`).
fn mentions_fixed(text: &str) -> bool {
    text.contains("ixed") || text.contains("IXED")
}

/// The `position` a rule's declarations (or an inline `style`, parsed at once: it holds a few
/// declarations, and walking them costs less than searching it for the word first) end on, as
/// (is it `fixed`, is it `!important`), as [`display_of`] decides between them; `None` when
/// they name none.
pub(super) fn position_of(declarations: &str) -> Option<(bool, bool)> {
    value_of(declarations, "position")
        .map(|(value, important)| (value.eq_ignore_ascii_case("fixed"), important))
}

/// The value a rule's declarations end on for `property`, without its `!important`, and whether
/// it was important: an important declaration wins over one that is not, and of two alike the
/// later.
fn value_of<'d>(declarations: &'d str, property: &str) -> Option<(&'d str, bool)> {
    let mut best: Option<(&str, bool)> = None;
    for declaration in declarations.split(';') {
        let Some((name, value)) = declaration.split_once(':') else {
            continue;
        };
        if !name.trim().eq_ignore_ascii_case(property) {
            continue;
        }
        let value = value.trim();
        let (value, important) = match value.rfind('!') {
            Some(bang) if value[bang + 1..].trim().eq_ignore_ascii_case("important") => {
                (value[..bang].trim(), true)
            }
            _ => (value, false),
        };
        if best.is_none_or(|(_, was_important)| important || !was_important) {
            best = Some((value, important));
        }
    }
    best
}

/// The text of a `<style>` element: borrowed from its one text node (the usual case), else
/// joined.
fn sheet_text(dom: &Dom, id: NodeId) -> Cow<'_, str> {
    let mut children = dom.children(id);
    match (children.next(), children.next()) {
        (Some(only), None) => match dom.text(only) {
            Some(text) => Cow::Borrowed(text),
            None => Cow::Owned(dom.text_content(id)),
        },
        (None, _) => Cow::Borrowed(""),
        _ => Cow::Owned(dom.text_content(id)),
    }
}

/// The sheet without its `/* … */` comments (an unclosed one runs to the end, as in CSS);
/// borrowed when it has none.
fn without_comments(sheet: &str) -> Cow<'_, str> {
    if !sheet.contains("/*") {
        return Cow::Borrowed(sheet);
    }
    let mut out = String::with_capacity(sheet.len());
    let mut rest = sheet;
    while let Some(start) = rest.find("/*") {
        out.push_str(&rest[..start]);
        match rest[start + 2..].find("*/") {
            Some(end) => rest = &rest[start + 2 + end + 2..],
            None => return Cow::Owned(out),
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
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

/// The class of a selector that is one class alone (`.hidden-bnz77l`), if it is. A name that
/// starts with a digit is no class selector to a browser (`.1col` must be escaped).
fn lone_class(selector: &str) -> Option<&str> {
    let class = selector.strip_prefix('.')?;
    (!class.is_empty()
        && !class.starts_with(|c: char| c.is_ascii_digit())
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
    // Digits and a point only: `inf` and `1e9` are no lengths to a browser.
    let number = |n: &str| -> Option<f32> {
        let n = n.trim();
        let plain = !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit() || b == b'.');
        plain.then(|| n.parse().ok()).flatten()
    };
    let px = if let Some(n) = value.strip_suffix("px") {
        number(n)?
    } else if let Some(n) = value
        .strip_suffix("rem")
        .or_else(|| value.strip_suffix("em"))
    {
        number(n)? * EM_PX
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
        let mut classes = SheetClasses::default();
        classes.read_sheet(sheet, &mut 0);
        let mut v: Vec<String> = classes.hidden.into_keys().collect();
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
        // A name starting with a digit is no class selector (a browser drops its rule).
        let sheet = "@media (min-width: 1px) { .1col { display: none } .col1 { display: none } }";
        assert_eq!(hidden(sheet), ["col1"]);
    }

    /// The classes `sheet` fixes, sorted.
    fn fixed(sheet: &str) -> Vec<String> {
        let mut classes = SheetClasses::default();
        classes.read_sheet(sheet, &mut 0);
        let mut v: Vec<String> = classes
            .positions
            .into_iter()
            .filter(|(_, (fixed, _))| *fixed)
            .map(|(class, _)| class)
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_class_is_fixed_by_the_strongest_position_it_is_given() {
        // At the top level, in a matching media query, in a list of selectors, in any case.
        let sheet = ".sc-a1b2{position:fixed;bottom:0} .b, .c { POSITION: Fixed } \
                     @media (min-width: 1000px) { .d { position: fixed } } \
                     @media (max-width: 600px) { .e { position: fixed } }";
        assert_eq!(fixed(sheet), ["b", "c", "d", "sc-a1b2"]);
        // A later rule, or an important one, decides; other properties and selectors do not.
        let sheet = ".a { position: fixed } .a { position: relative } \
                     .b { position: fixed !important } .b { position: static } \
                     .c { background-position: fixed; top: 0 } .d > .e { position: fixed } \
                     .f { position: sticky }";
        assert_eq!(fixed(sheet), ["b"]);
        assert_eq!(
            position_of("position: fixed; position: absolute"),
            Some((false, false))
        );
        // An important rule wins over a later fixed one, read before any class is fixed.
        assert!(fixed(".a { position: relative !important } .a { position: fixed }").is_empty());
        // A sheet that says `Fixed` alone, without a media query, is read.
        let dom =
            Dom::parse("<style>.b{POSITION:Fixed}</style><div class=b>x</div><div class=c>y</div>");
        let classes = SheetClasses::of(&dom);
        let divs: Vec<NodeId> = dom.elements_by_name("div").collect();
        assert_eq!(classes.position(&dom, divs[0]), Some((true, false)));
        assert_eq!(classes.position(&dom, divs[1]), None);
        // Past a few fixed classes, the element's names are looked up by hash at once.
        let many: String = (0..40)
            .map(|n| format!(".f{n}{{position:fixed}}"))
            .collect();
        let dom = Dom::parse(&format!(
            "<style>{many}.f7{{position:static}}</style><div class='x f33'>x</div>\
             <div class='f7'>y</div><div class='g1 g2'>z</div>"
        ));
        let classes = SheetClasses::of(&dom);
        let divs: Vec<NodeId> = dom.elements_by_name("div").collect();
        assert_eq!(classes.position(&dom, divs[0]), Some((true, false)));
        assert_eq!(classes.position(&dom, divs[1]), Some((false, false)));
        assert_eq!(classes.position(&dom, divs[2]), None);
    }

    /// An inline style fixes its element when its last `position` says `fixed`, in any case and
    /// spacing; `sticky`, `absolute` and a background fixed in place are no overlay.
    #[test]
    fn an_inline_style_fixes_an_element_by_its_position_alone() {
        for fixed in [
            "position:fixed",
            "position: fixed; bottom: 0; z-index: 9999",
            "Z-INDEX:10;POSITION : FIXED",
            "align-items: baseline; background: rgb(53, 53, 53); position: fixed; width: 100%",
            "position: fixed !important",
        ] {
            assert_eq!(position_of(fixed).map(|p| p.0), Some(true), "{fixed}");
        }
        for not_fixed in [
            "position: sticky; top: 0",
            "position:absolute",
            "table-layout: fixed; position: relative",
            "position: fixed; position: static",
        ] {
            assert_eq!(
                position_of(not_fixed).map(|p| p.0),
                Some(false),
                "{not_fixed}"
            );
        }
        for no_position in [
            "",
            "background-attachment: fixed",
            "background-position: fixed",
        ] {
            assert_eq!(position_of(no_position), None, "{no_position}");
        }
    }

    #[test]
    fn the_stronger_rule_decides_a_display() {
        // Of a rule's declarations, an important one wins, then the later one.
        assert_eq!(
            display_of("display: none; display: block"),
            Some((false, false))
        );
        assert_eq!(
            display_of("display: none !important; display: block"),
            Some((true, true))
        );
        assert_eq!(display_of("display:none!IMPORTANT"), Some((true, true)));
        assert_eq!(display_of("color: red"), None);
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
            // Only top-level media blocks: not inside another at-rule, nor nested in a rule.
            "@supports not (display: grid) { @media (min-width: 1px) { .x { display: none } } }",
            ".card { @media (min-width: 1200px) { .x { display: none } } }",
            // Lengths a browser rejects.
            "@media (max-width: infpx) { .x { display: none } }",
            "@media (min-width: 1e2px) { .x { display: none } }",
        ] {
            assert!(hidden(sheet).is_empty(), "{sheet}");
        }
    }
}
