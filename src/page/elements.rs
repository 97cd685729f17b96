//! Element classes. Every HTML element is exactly one of: inline (does not split a block),
//! skipped (contributes nothing, and does not split either: it renders no text box), or
//! block-level (splits). Block-level is the default, so unknown and custom elements
//! (`<my-widget>`) split blocks: a wrong split costs less than text of two regions run together.
//! Hidden elements (and the hidden parts that are page text all the same) are told here too.

use html5ever::{LocalName, local_name};

use super::BlockKind;
use super::builder::count_words;
use crate::dom::{Dom, Edge, NodeId, for_each_name_token};

/// Inline elements: text inside them continues the surrounding block. `<img>`, `<picture>` and
/// `<br>` are listed here too; they are handled on their own (image blocks, line breaks).
pub(super) fn is_inline(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("a")
            | local_name!("abbr")
            | local_name!("acronym")
            | local_name!("applet")
            | local_name!("b")
            | local_name!("bdi")
            | local_name!("bdo")
            | local_name!("big")
            | local_name!("blink")
            | local_name!("br")
            | local_name!("cite")
            | local_name!("code")
            | local_name!("data")
            | local_name!("del")
            | local_name!("dfn")
            | local_name!("em")
            | local_name!("font")
            | local_name!("i")
            | local_name!("img")
            | local_name!("input")
            | local_name!("ins")
            | local_name!("kbd")
            | local_name!("label")
            | local_name!("mark")
            | local_name!("meter")
            | local_name!("nobr")
            | local_name!("object")
            | local_name!("output")
            | local_name!("picture")
            | local_name!("progress")
            | local_name!("q")
            | local_name!("rb")
            | local_name!("rp")
            | local_name!("rt")
            | local_name!("rtc")
            | local_name!("ruby")
            | local_name!("s")
            | local_name!("samp")
            | local_name!("small")
            | local_name!("source")
            | local_name!("span")
            | local_name!("strike")
            | local_name!("strong")
            | local_name!("sub")
            | local_name!("sup")
            | local_name!("time")
            | local_name!("tt")
            | local_name!("u")
            | local_name!("var")
            | local_name!("wbr")
    )
}

/// Elements whose contents are not page text: code, styles, embedded documents and media, form
/// widgets whose text is option lists, and metadata.
///
/// `<object>` and `<applet>` are not here: their children are the fallback a browser shows when
/// the plugin is missing, which for Flash and Java is always now (in cleanportaleval, msnbc's
/// video captions, part of the gold text, sit inside `<object>`). `<video>`, `<audio>` and
/// `<canvas>` fallbacks, by contrast, only show in browsers too old to matter.
pub(super) fn is_skipped(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("script")
            | local_name!("style")
            | local_name!("noscript")
            | local_name!("template")
            | local_name!("svg")
            | local_name!("math")
            | local_name!("iframe")
            | local_name!("frame")
            | local_name!("frameset")
            | local_name!("noframes")
            | local_name!("embed")
            | local_name!("noembed")
            | local_name!("canvas")
            | local_name!("audio")
            | local_name!("video")
            | local_name!("select")
            | local_name!("datalist")
            | local_name!("textarea")
            | local_name!("link")
            | local_name!("meta")
            | local_name!("base")
            | local_name!("param")
            | local_name!("track")
    )
}

/// Block-level elements pith knows by name, for documentation and for callers; every element
/// that is neither [inline](is_inline_element) nor skipped splits blocks, listed here or not.
pub const BLOCK_LEVEL_ELEMENTS: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "body",
    "button",
    "caption",
    "center",
    "col",
    "colgroup",
    "dd",
    "details",
    "dialog",
    "dir",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "header",
    "hgroup",
    "hr",
    "html",
    "legend",
    "li",
    "listing",
    "main",
    "marquee",
    "menu",
    "nav",
    "ol",
    "optgroup",
    "option",
    "p",
    "plaintext",
    "pre",
    "search",
    "section",
    "summary",
    "table",
    "tbody",
    "td",
    "tfoot",
    "th",
    "thead",
    "title",
    "tr",
    "ul",
    "xmp",
];

/// True when an HTML element of this local name continues the surrounding block.
pub fn is_inline_element(name: &str) -> bool {
    is_inline(&LocalName::from(name))
}

/// True when an HTML element of this local name contributes no text (script, style, media…).
pub fn is_skipped_element(name: &str) -> bool {
    is_skipped(&LocalName::from(name))
}

/// The kind an element gives the text directly inside it, before inheritance (see
/// [`BlockBuilder::open_block`]).
pub(super) fn own_kind(name: &LocalName) -> BlockKind {
    match *name {
        local_name!("h1") => BlockKind::Heading(1),
        local_name!("h2") => BlockKind::Heading(2),
        local_name!("h3") => BlockKind::Heading(3),
        local_name!("h4") => BlockKind::Heading(4),
        local_name!("h5") => BlockKind::Heading(5),
        local_name!("h6") => BlockKind::Heading(6),
        local_name!("p") => BlockKind::Paragraph,
        local_name!("li") | local_name!("dt") | local_name!("dd") => BlockKind::ListItem,
        local_name!("blockquote") => BlockKind::Quote,
        local_name!("pre") | local_name!("listing") | local_name!("xmp") => BlockKind::Preformatted,
        local_name!("td") | local_name!("th") => BlockKind::TableCell,
        local_name!("figcaption") | local_name!("caption") => BlockKind::Caption,
        _ => BlockKind::Other,
    }
}

/// True for elements a browser hides by their own markup (see [`is_hidden`]), for classifiers
/// that walk the DOM themselves. What the page's style sheets hide at a reader's width the block
/// builder also leaves out (`styles::SheetClasses`); this test does not read the sheets, so a
/// paper baseline walking the DOM still sees a site builder's copies of a section.
pub(crate) fn is_hidden_element(dom: &Dom, id: NodeId) -> bool {
    dom.local_name(id)
        .is_some_and(|name| is_hidden(dom, id, name))
}

/// True for elements that no text box is made for: the `hidden` attribute, a closed
/// `<dialog>`, a tooltip's text (see [`is_tooltip`]), or an inline style with `display:none` /
/// `visibility:hidden` (but on a disclosure's folded part: a box named so, see
/// [`names_folded_part`], or one of alike boxes each folded after its toggle, see
/// [`is_unnamed_folded_panel`]).
///
/// One `hidden` element is shown: React's streamed server rendering sends a suspended part of
/// the page as `<div hidden id="S:3">` at the end of the body, and its inline script moves it
/// in place of `<template id="B:3">` at once. Pages built that way (Next.js among them) hold
/// their whole content there.
pub(super) fn is_hidden(dom: &Dom, id: NodeId, name: &LocalName) -> bool {
    let (mut style, mut role, mut class) = (None, None, None);
    for (attr, value) in dom.attrs(id) {
        match *attr {
            local_name!("hidden") => {
                return !is_streamed_part(dom, id, name) && !is_folded_panel(dom, id);
            }
            local_name!("style") => style = Some(value.as_str()),
            local_name!("role") => role = Some(value.as_str()),
            local_name!("class") => class = Some(value.as_str()),
            _ => {}
        }
    }
    if *name == local_name!("dialog") && dom.attr(id, "open").is_none() {
        return true;
    }
    if is_tooltip(role, class) {
        return true;
    }
    // Only a box the style hides is asked whether it is a folded panel: most boxes are shown.
    style.is_some_and(style_hides)
        && !is_folded_panel(dom, id)
        && !names_folded_part(dom, id)
        && !is_unnamed_folded_panel(dom, id)
}

/// True when an inline `style` hides its element (`display:none`, `visibility:hidden`).
fn style_hides(style: &str) -> bool {
    let compact: String = style
        .chars()
        .filter(|c| !c.is_ascii_whitespace())
        .map(|c| c.to_ascii_lowercase())
        .collect();
    compact.contains("display:none") || compact.contains("visibility:hidden")
}

/// True when `id`'s inline style hides it.
fn is_styled_hidden(dom: &Dom, id: NodeId) -> bool {
    dom.attr(id, "style").is_some_and(style_hides)
}

/// Most words of the shown line that opens a folded panel (see [`is_unnamed_folded_panel`]): a
/// question or a title; longer, the line is a text of its own, not a toggle.
const TOGGLE_MAX_WORDS: usize = 30;

/// Fewest words of a folded panel's text (see [`is_unnamed_folded_panel`]): a sentence.
const PANEL_MIN_WORDS: usize = 8;

/// True for the folded panel of a disclosure the markup builds without naming it (generated
/// class names, or words [`names_folded_part`] does not know): a box an inline style hides (see
/// [`is_styled_hidden`], the caller asks) right after a shown short line, its toggle (a
/// question, a title: at most [`TOGGLE_MAX_WORDS`]), holding a sentence's words or more
/// ([`PANEL_MIN_WORDS`]) mostly outside links, and folded alike (same element and class) at
/// least once more beside it (see [`folded_alike_beside`]). An FAQ's script folds its answers
/// so, one after each question; a menu's folded submenus are links, and a popup is folded once.
/// A box named or marked as what stands around a page's text (a modal, a menu: see
/// [`NOT_FOLDED_WORDS`]; `role="dialog"`, `aria-modal`) is no panel, however it is folded: a
/// shop's size guides are modals, each after its button.
fn is_unnamed_folded_panel(dom: &Dom, id: NodeId) -> bool {
    let Some(class) = dom.attr(id, "class").filter(|c| !c.trim().is_empty()) else {
        return false;
    };
    if is_marked_dialog(dom, id)
        || name_words(dom, id)
            .iter()
            .any(|w| NOT_FOLDED_WORDS.contains(&w.as_str()))
    {
        return false;
    }
    // The toggle: the element before the box, past white space, comments and elements that
    // print nothing (a script between a question and its answer).
    let Some(toggle) =
        std::iter::successors(dom.prev_sibling(id), |&n| dom.prev_sibling(n)).find(|&n| {
            dom.local_name(n).is_some_and(|name| !is_skipped(name))
                || dom.text(n).is_some_and(|t| !t.trim().is_empty())
        })
    else {
        return false;
    };
    if !dom.is_element(toggle)
        || is_styled_hidden(dom, toggle)
        || dom.attr(toggle, "hidden").is_some()
    {
        return false;
    }
    let toggle_words = words_in(dom, toggle, TOGGLE_MAX_WORDS + 1).all;
    if toggle_words == 0 || toggle_words > TOGGLE_MAX_WORDS {
        return false;
    }
    let panel = words_in(dom, id, usize::MAX);
    if panel.all < PANEL_MIN_WORDS || panel.linked * 2 >= panel.all {
        return false;
    }
    folded_alike_beside(dom, id, class)
}

/// True when the element is a modal dialog the page shows: an open `<dialog>`, or one its
/// attributes mark a dialog (see [`dialog_marks`]), unless they say it is no modal or hidden.
pub(super) fn is_shown_modal(dom: &Dom, id: NodeId, name: &LocalName) -> bool {
    let (marked, refused) = dialog_marks(dom, id);
    (marked || *name == local_name!("dialog")) && !refused
}

/// True when `role="dialog"` (or `alertdialog`) or `aria-modal="true"` marks the element a dialog.
fn is_marked_dialog(dom: &Dom, id: NodeId) -> bool {
    dialog_marks(dom, id).0
}

/// What the element's attributes say of it as a dialog, in one pass (every shown element is
/// asked): whether `role="dialog"` (or `alertdialog`) or `aria-modal="true"` marks it one, and
/// whether it says it is no modal (`aria-modal="false"`) or is hidden from assistive technology
/// (`aria-hidden="true"`).
fn dialog_marks(dom: &Dom, id: NodeId) -> (bool, bool) {
    let (mut marked, mut refused) = (false, false);
    for (attr, value) in dom.attrs(id) {
        let says = |word: &str| value.trim().eq_ignore_ascii_case(word);
        match *attr {
            local_name!("role") => marked |= says("dialog") || says("alertdialog"),
            local_name!("aria-modal") => {
                marked |= says("true");
                refused |= says("false");
            }
            local_name!("aria-hidden") => refused |= says("true"),
            _ => {}
        }
    }
    (marked, refused)
}

/// How many elements [`folded_alike_beside`] looks at in each direction, among the box's
/// siblings, among its parent's siblings, and among each of those one's children: an FAQ's next
/// answer stands two siblings away, or in the next question's box.
const ALIKE_LOOK: usize = 16;

/// True when an element of the same name and `class` as `id`, folded by an inline style too,
/// stands beside it: among its siblings, or among the children of its parent's siblings (each
/// question and its answer in a box of their own). Only the nearest [`ALIKE_LOOK`] of each are
/// looked at, so that a page of thousands of folded boxes costs a bounded look per box.
fn folded_alike_beside(dom: &Dom, id: NodeId, class: &str) -> bool {
    let name = dom.local_name(id);
    let alike = |n: NodeId| {
        n != id
            && dom.local_name(n) == name
            && dom.attr(n, "class") == Some(class)
            && is_styled_hidden(dom, n)
    };
    let near = |from: NodeId| {
        let before = std::iter::successors(dom.prev_sibling(from), |&n| dom.prev_sibling(n));
        let after = std::iter::successors(dom.next_sibling(from), |&n| dom.next_sibling(n));
        before
            .filter(|&n| dom.is_element(n))
            .take(ALIKE_LOOK)
            .chain(after.filter(|&n| dom.is_element(n)).take(ALIKE_LOOK))
    };
    if near(id).any(alike) {
        return true;
    }
    let Some(parent) = dom.parent(id) else {
        return false;
    };
    near(parent).any(|uncle| {
        dom.children(uncle)
            .filter(|&n| dom.is_element(n))
            .take(ALIKE_LOOK)
            .any(alike)
    })
}

/// Words of an element's text, and how many of them are in links.
struct Words {
    /// All its words.
    all: usize,
    /// Those of them inside a hyperlink.
    linked: usize,
}

/// Counts the words of `id`'s text (but in elements no text box is made for, see
/// [`is_skipped`]), stopping once `enough` are counted.
fn words_in(dom: &Dom, id: NodeId, enough: usize) -> Words {
    let mut words = Words { all: 0, linked: 0 };
    // Open links around the current node.
    let mut in_links = 0usize;
    let mut walk = dom.traverse(id);
    while let Some(edge) = walk.next() {
        match edge {
            Edge::Open(n) => {
                if let Some(text) = dom.text(n) {
                    let count = count_words(text) as usize;
                    words.all += count;
                    if in_links > 0 {
                        words.linked += count;
                    }
                    if words.all >= enough {
                        break;
                    }
                } else if dom.local_name(n).is_some_and(is_skipped) {
                    walk.skip_children();
                } else if dom.is_hyperlink(n) {
                    in_links += 1;
                }
            }
            Edge::Close(n) => {
                if dom.is_hyperlink(n) {
                    in_links -= 1;
                }
            }
        }
    }
    words
}

/// True for the folded panel of an accordion (WAI-ARIA's pattern: `role="region"` and
/// `aria-labelledby` naming the heading button that opens it, or a box right after a heading that
/// holds a button declaring `aria-expanded`, see [`follows_an_accordion_header`]) and for a tab's
/// panel (`role="tabpanel"`: hidden while another tab is chosen, as the instructions for macOS are
/// while Windows' show). Its text is the page's own, folded away until the reader asks, and a
/// reading pane shows it unfolded.
pub(super) fn is_folded_panel(dom: &Dom, id: NodeId) -> bool {
    dom.attr(id, "role").is_some_and(|r| {
        let r = r.trim();
        r.eq_ignore_ascii_case("tabpanel")
            || r.eq_ignore_ascii_case("region") && dom.attr(id, "aria-labelledby").is_some()
    }) || follows_an_accordion_header(dom, id)
}

/// True when the element right before `id` (past white space and comments) is an accordion's
/// header as WAI-ARIA's pattern builds it: a heading holding a `<button>` that declares
/// `aria-expanded`, the state of the panel that follows. A running guide's FAQ prints each
/// question so and folds its answer with the `hidden` attribute. A dialog (`role="dialog"`,
/// `aria-modal`) is no panel, whatever stands before it.
fn follows_an_accordion_header(dom: &Dom, id: NodeId) -> bool {
    let Some(header) = std::iter::successors(dom.prev_sibling(id), |&n| dom.prev_sibling(n))
        .find(|&n| dom.is_element(n) || dom.text(n).is_some_and(|t| !t.trim().is_empty()))
    else {
        return false;
    };
    dom.local_name(header).is_some_and(crate::dom::is_heading)
        && dom.descendants(header).any(|n| {
            dom.local_name(n) == Some(&local_name!("button"))
                && dom.attr(n, "aria-expanded").is_some()
        })
        && !is_marked_dialog(dom, id)
}

/// The words (see [`for_each_name_token`]) that name the folded part of a disclosure widget: an
/// FAQ's answer, an accordion's or a collapse's panel, a toggle's content, the rest of a text
/// behind "read more" (`read_div`), a spoiler. Scripts fold such a box with an inline
/// `display:none` and unfold it on a click.
const FOLDED_PART_WORDS: &[&str] = &[
    "answer",
    "faq",
    "accordion",
    "collapse",
    "collapsible",
    "expandable",
    "toggle",
    "readmore",
    "read",
    "spoiler",
];

/// Words that name the rest of a text behind "show more" only in pairs, each too common alone
/// (`more-videos`, `show-comments`): `show-more`, `moreText`, `more-content`.
const FOLDED_PAIRS: &[(&str, &str)] = &[("show", "more"), ("more", "text"), ("more", "content")];

/// Words that name a box around the page's text, hidden until opened and never its text: a
/// menu (`navbar-collapse`, `more-menu`), a dialog, a search box, the next or related stories
/// (`more-stories`, `read-next`). They overrule [`FOLDED_PART_WORDS`].
const NOT_FOLDED_WORDS: &[&str] = &[
    "nav",
    "navbar",
    "navigation",
    "menu",
    "dropdown",
    "modal",
    "popup",
    "dialog",
    "search",
    "stories",
    "story",
    "related",
    "next",
    "newsletter",
    "login",
    "cart",
];

/// True when the `id` and `class` words of `id` name it the folded part of a disclosure (see
/// [`FOLDED_PART_WORDS`] and [`FOLDED_PAIRS`]) and nothing around the page's text (see
/// [`NOT_FOLDED_WORDS`]): like a folded ARIA panel ([`is_folded_panel`]), its text is the
/// page's own, hidden by a style until the reader asks, and a reading pane shows it unfolded.
fn names_folded_part(dom: &Dom, id: NodeId) -> bool {
    let words = name_words(dom, id);
    let has = |word: &str| words.iter().any(|w| w == word);
    let folded = FOLDED_PART_WORDS.iter().any(|w| has(w))
        || FOLDED_PAIRS.iter().any(|(a, b)| has(a) && has(b));
    folded && !NOT_FOLDED_WORDS.iter().any(|w| has(w))
}

/// The words of the element's `id` and `class` (see [`for_each_name_token`]).
fn name_words(dom: &Dom, id: NodeId) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for name in ["id", "class"] {
        if let Some(value) = dom.attr(id, name) {
            for_each_name_token(value, |word| words.push(word.to_owned()));
        }
    }
    words
}

/// The words that, in one class with a tooltip's name, say the box is the tooltip's text
/// (`tool-tip__content`, `q-tooltip-content`): the explained word is often the box named
/// `tooltip` itself, and stays.
const TOOLTIP_TEXT_WORDS: &[&str] = &["content", "text", "body", "inner", "box"];

/// The words that, in one class with a tooltip's name, say the box is what the tooltip explains
/// or holds it (`tooltip-trigger-text`, `tooltip-container`): it stays, whatever else it says.
const TOOLTIP_TRIGGER_WORDS: &[&str] = &[
    "trigger",
    "term",
    "wrapper",
    "wrap",
    "container",
    "icon",
    "label",
    "toggle",
    "button",
    "btn",
    "anchor",
    "link",
    "target",
];

/// True for a tooltip's text, by the element's `role` and `class`: `role="tooltip"`, or one class
/// that names a tooltip (`tooltip`, or `tool` and `tip`) and its text (one of
/// [`TOOLTIP_TEXT_WORDS`]; `tooltiptext` and `tooltipcontent` say both) and nothing of
/// [`TOOLTIP_TRIGGER_WORDS`]. Words of different classes do not add up: `tooltip text-sm` is a
/// word styled by a tooltip library and a utility class, and stays. A tooltip shows only while
/// the pointer rests on what it explains (a glossary note on a product's "Cup style", the same
/// on every product of the shop), so a reading pane has no place for it, and it is left out as a
/// browser leaves it out until asked.
fn is_tooltip(role: Option<&str>, class: Option<&str>) -> bool {
    if role.is_some_and(|r| r.trim().eq_ignore_ascii_case("tooltip")) {
        return true;
    }
    let Some(class) = class else {
        return false;
    };
    // Cheap first: most classes of a page hold no `tip` at all. This runs over every element's
    // class, so the scan is inline, by the letters' case bit (a stray match costs only the exact
    // test after), rather than [`crate::dom::name_holds`]'s general one.
    class
        .as_bytes()
        .windows(3)
        .any(|w| w[0] | 0x20 == b't' && w[1] | 0x20 == b'i' && w[2] | 0x20 == b'p')
        && class.split_ascii_whitespace().any(names_tooltip_text)
}

/// True when one class names a tooltip's text (see [`is_tooltip`]).
fn names_tooltip_text(class: &str) -> bool {
    let (mut tooltip, mut tool, mut tip, mut text, mut trigger) =
        (false, false, false, false, false);
    for_each_name_token(class, |word| match word {
        "tooltip" => tooltip = true,
        "tool" => tool = true,
        "tip" => tip = true,
        "tooltiptext" | "tooltipcontent" => {
            tooltip = true;
            text = true;
        }
        _ if TOOLTIP_TEXT_WORDS.contains(&word) => text = true,
        _ if TOOLTIP_TRIGGER_WORDS.contains(&word) => trigger = true,
        _ => {}
    });
    (tooltip || tool && tip) && text && !trigger
}

/// True for `<div hidden id="S:N">`, a part of the page that React's streaming renderer sends
/// late and reveals with script (see [`is_hidden`]).
pub(super) fn is_streamed_part(dom: &Dom, id: NodeId, name: &LocalName) -> bool {
    *name == local_name!("div")
        && dom.attr(id, "id").is_some_and(|i| {
            i.strip_prefix("S:")
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        })
}
