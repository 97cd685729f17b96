//! Per-node aggregates of a page's blocks, computed in one bottom-up pass over the arena: every
//! question the extractor asks about a subtree ("how many words, how many of them links, does it
//! hold a date line?") is then answered in O(1), so no pass is quadratic in the page's size.

use html5ever::local_name;

use crate::dom::{Dom, Edge, NodeId, is_heading};
use crate::page::{Block, BlockKind, Page};

/// How far above a button its heading may be for the button to be the heading's own
/// (`<h2><div><div><button>`, as Substack nests it).
const BUTTON_IN_HEADING_DEPTH: usize = 4;

/// True when the `<button>` at `id` is a heading's link button: no text of its own (an icon),
/// with a heading at most [`BUTTON_IN_HEADING_DEPTH`] levels above it. Substack's section
/// headings and Stripe's API attributes carry one that copies the section's link; the heading
/// and the entry it heads are text, not a widget. A button with words ("Play", "Subscribe") is a
/// control wherever it stands.
fn is_heading_link_button(dom: &Dom, id: NodeId) -> bool {
    dom.ancestors(id)
        .take(BUTTON_IN_HEADING_DEPTH)
        .any(|n| dom.local_name(n).is_some_and(is_heading))
        && !dom
            .descendants(id)
            .any(|n| dom.text(n).is_some_and(|t| !t.trim().is_empty()))
}

/// Sums over the blocks of one subtree (the node's own blocks included).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Agg {
    /// Pre-order index of the node in the walk from the root (`u32::MAX` when not reachable).
    pub pre: u32,
    /// One past the pre-order index of the node's last descendant: the subtree is `pre..end`.
    pub end: u32,
    /// Words of the text blocks.
    pub words: u32,
    /// Of those, words inside links.
    pub link_words: u32,
    /// Text blocks.
    pub blocks: u32,
    /// Text blocks whose innermost block-level element is this node.
    pub direct_blocks: u32,
    /// Image blocks.
    pub images: u32,
    /// Text blocks that read like prose ([`Block::is_prose`]).
    pub prose: u32,
    /// Words of those prose blocks.
    pub prose_words: u32,
    /// Words of quotation blocks (`<blockquote>`).
    pub quote_words: u32,
    /// Short blocks that read like an author or date line (see [`looks_like_byline`]).
    pub bylines: u32,
    /// `<li>` elements.
    pub list_items: u32,
    /// Form controls: `<input>`, `<select>`, `<textarea>`, `<button>`; not a heading's link
    /// button ([`is_heading_link_button`]).
    pub controls: u32,
    /// Index of the first text block whose innermost block-level element is this node
    /// (`u32::MAX` when none).
    pub first_direct: u32,
    /// Index of the first block (text or image) in the subtree (`u32::MAX` when none).
    pub first_block: u32,
    /// One past the index of the last block in the subtree (0 when none).
    pub end_block: u32,
}

/// The aggregates of every node, indexed by [`NodeId`].
#[derive(Debug)]
pub(super) struct Stats {
    /// One entry per node of the DOM.
    pub agg: Vec<Agg>,
}

impl Stats {
    /// Computes the aggregates: the blocks' counts are put on their nodes, then one walk adds
    /// every node's totals into its parent when the node closes.
    pub fn compute(page: &Page) -> Stats {
        let dom = &page.dom;
        let mut agg = vec![
            Agg {
                pre: u32::MAX,
                end: u32::MAX,
                first_direct: u32::MAX,
                first_block: u32::MAX,
                ..Agg::default()
            };
            dom.len()
        ];
        for (index, block) in page.blocks.iter().enumerate() {
            let Some(a) = agg.get_mut(block.node as usize) else {
                continue;
            };
            let index = index as u32;
            a.first_block = a.first_block.min(index);
            a.end_block = a.end_block.max(index + 1);
            if block.kind == BlockKind::Image {
                a.images += 1;
                continue;
            }
            a.words += block.words;
            a.link_words += block.link_words;
            a.blocks += 1;
            a.direct_blocks += 1;
            a.first_direct = a.first_direct.min(index);
            if is_prose(block) {
                a.prose += 1;
                a.prose_words += block.words;
            }
            if block.kind == BlockKind::Quote {
                a.quote_words += block.words;
            }
            if looks_like_byline(block) {
                a.bylines += 1;
            }
        }
        let mut counter = 0u32;
        for edge in dom.traverse(dom.root()) {
            match edge {
                Edge::Open(id) => {
                    if let Some(a) = agg.get_mut(id as usize) {
                        a.pre = counter;
                        if let Some(name) = dom.local_name(id) {
                            match *name {
                                local_name!("li") => a.list_items += 1,
                                local_name!("input")
                                | local_name!("select")
                                | local_name!("textarea") => a.controls += 1,
                                local_name!("button") if !is_heading_link_button(dom, id) => {
                                    a.controls += 1;
                                }
                                _ => {}
                            }
                        }
                    }
                    counter += 1;
                }
                Edge::Close(id) => {
                    let Some(a) = agg.get_mut(id as usize) else {
                        continue;
                    };
                    a.end = counter;
                    let a = *a;
                    // A subtree without blocks, list items or controls (every text node, most
                    // empty elements) adds nothing to its parent: half the page's nodes.
                    let empty = a.first_block == u32::MAX && a.list_items == 0 && a.controls == 0;
                    if empty {
                        continue;
                    }
                    if let Some(p) = dom.parent(id).and_then(|p| agg.get_mut(p as usize)) {
                        p.words += a.words;
                        p.link_words += a.link_words;
                        p.blocks += a.blocks;
                        p.images += a.images;
                        p.prose += a.prose;
                        p.prose_words += a.prose_words;
                        p.bylines += a.bylines;
                        p.quote_words += a.quote_words;
                        p.list_items += a.list_items;
                        p.controls += a.controls;
                        p.first_block = p.first_block.min(a.first_block);
                        p.end_block = p.end_block.max(a.end_block);
                    }
                }
            }
        }
        Stats { agg }
    }

    /// The node's aggregates (all zero for an unknown id).
    pub fn get(&self, id: NodeId) -> Agg {
        self.agg.get(id as usize).copied().unwrap_or_default()
    }

    /// Share of the subtree's words that are link text.
    pub fn link_density(&self, id: NodeId) -> f32 {
        let a = self.get(id);
        if a.words == 0 {
            0.0
        } else {
            a.link_words as f32 / a.words as f32
        }
    }

    /// The blocks (text and images) of `id`'s subtree, in document order; none when it holds
    /// none.
    pub fn blocks_of<'p>(&self, page: &'p Page, id: NodeId) -> &'p [Block] {
        let a = self.get(id);
        let end = (a.end_block as usize).min(page.blocks.len());
        page.blocks
            .get(a.first_block as usize..end)
            .unwrap_or_default()
    }

    /// True when `inner` is `outer` or inside it.
    pub fn contains(&self, outer: NodeId, inner: NodeId) -> bool {
        let (o, i) = (self.get(outer), self.get(inner));
        o.pre != u32::MAX && i.pre != u32::MAX && o.pre <= i.pre && i.pre < o.end
    }

    /// True when `outer` holds a node at one of `pre_orders` (sorted pre-order positions): the
    /// test of many boxes against one set of nodes (links, footers), by a binary search each.
    pub fn holds_any_of(&self, outer: NodeId, pre_orders: &[u32]) -> bool {
        let a = self.get(outer);
        let from = pre_orders.partition_point(|&p| p < a.pre);
        pre_orders.get(from).is_some_and(|&p| p < a.end)
    }
}

/// True when most of the subtree's words are quotation (`<blockquote>`): an embedded post the
/// article quotes, whatever the embedding widget calls itself (`social-media-embed`).
pub(super) fn is_quotation(a: &Agg) -> bool {
    a.quote_words * 2 > a.words
}

/// A block of prose: enough words, at most a third of them links ([`Block::is_prose`]).
pub(super) fn is_prose(block: &Block) -> bool {
    block.is_prose()
}

const MONTHS: &[&str] = &[
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

/// A short line that names an author or a time: what heads every comment and every teaser, and
/// rarely a paragraph of an article. English and numeric dates only; other languages still have
/// the numeric forms (`12.03.2019`, `14:05`).
pub(super) fn looks_like_byline(block: &Block) -> bool {
    if block.words == 0 || block.words > 12 || block.kind == BlockKind::Heading(1) {
        return false;
    }
    let text = block.text.as_str();
    let bytes = text.as_bytes();
    // Clock times and dates need a digit: most short lines (menus, buttons) have none, and are
    // spared the searches for them.
    let digits = bytes.iter().any(u8::is_ascii_digit);
    // A clock time: digit, colon, two digits.
    let clock = digits
        && bytes.windows(4).any(|w| {
            w[0].is_ascii_digit() && w[1] == b':' && w[2].is_ascii_digit() && w[3].is_ascii_digit()
        });
    if clock {
        return true;
    }
    if starts_ascii_nocase(bytes, b"by ")
        || ends_ascii_nocase(bytes, b" said:")
        || has_byline_word(bytes)
    {
        return true;
    }
    digits
        && text
            .split(|c: char| !c.is_alphabetic())
            .any(|w| w.len() >= 3 && is_month_word(w))
}

/// True when the text holds the word " ago", or "says:", "wrote:" or "posted " (ASCII case folded). One pass
/// that looks further only where one of them may start, with no allocation: this runs for every
/// short block of every page.
fn has_byline_word(bytes: &[u8]) -> bool {
    (0..bytes.len()).any(|i| {
        let rest = &bytes[i..];
        match bytes[i].to_ascii_lowercase() {
            // "ago" as a word, not the start of "agony".
            b' ' => {
                starts_ascii_nocase(rest, b" ago")
                    && !rest.get(4).is_some_and(u8::is_ascii_alphabetic)
            }
            b's' => starts_ascii_nocase(rest, b"says:"),
            b'w' => starts_ascii_nocase(rest, b"wrote:"),
            b'p' => starts_ascii_nocase(rest, b"posted "),
            _ => false,
        }
    })
}

/// True when `hay` starts with `prefix` (lower-case ASCII), ASCII case folded.
fn starts_ascii_nocase(hay: &[u8], prefix: &[u8]) -> bool {
    hay.get(..prefix.len())
        .is_some_and(|h| h.eq_ignore_ascii_case(prefix))
}

/// True when `hay` ends with `suffix` (lower-case ASCII), ASCII case folded.
fn ends_ascii_nocase(hay: &[u8], suffix: &[u8]) -> bool {
    hay.len() >= suffix.len() && hay[hay.len() - suffix.len()..].eq_ignore_ascii_case(suffix)
}

/// `w` is a month's abbreviation or full name (ASCII case folded), not a word like `mayor` or
/// `market`.
fn is_month_word(w: &str) -> bool {
    const FULL: &[&str] = &[
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "sept",
        "october",
        "november",
        "december",
    ];
    let b = w.as_bytes();
    if b.len() == 3 {
        return MONTHS.iter().any(|m| b.eq_ignore_ascii_case(m.as_bytes()));
    }
    FULL.iter().any(|m| b.eq_ignore_ascii_case(m.as_bytes()))
}

/// True for elements whose text is one paragraph of a container, not a container of its own: the
/// level-0 candidate of their text is their parent.
pub(super) fn is_paragraph_element(dom: &Dom, id: NodeId) -> bool {
    dom.local_name(id).is_some_and(|n| {
        matches!(
            *n,
            local_name!("p")
                | local_name!("pre")
                | local_name!("li")
                | local_name!("dd")
                | local_name!("dt")
                | local_name!("h1")
                | local_name!("h2")
                | local_name!("h3")
                | local_name!("h4")
                | local_name!("h5")
                | local_name!("h6")
                | local_name!("figcaption")
                | local_name!("caption")
                | local_name!("address")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::page_from_html;

    /// Whether the page's one text block reads like a byline.
    fn byline(text: &str) -> bool {
        let page = page_from_html(&format!("<html><body><p>{text}</p></body></html>"), None);
        looks_like_byline(&page.blocks[0])
    }

    #[test]
    fn sums_reach_the_root_through_subtrees_without_text() {
        // Controls and list items in boxes that hold no text still count at every ancestor;
        // the words of the one paragraph reach the body through a text-free sibling's parent.
        let page = page_from_html(
            "<html><body><div id=outer><form><span><input><button></button></span></form>\
             <ul><li></li><li><img src=a.png></li></ul>\
             <section><p>Seven words of text in this paragraph.</p></section></div></body></html>",
            None,
        );
        let stats = Stats::compute(&page);
        let outer = page.dom.element_with_id("outer").unwrap();
        let body = page.dom.body().unwrap();
        for node in [outer, body] {
            let a = stats.get(node);
            assert_eq!(a.controls, 2);
            assert_eq!(a.list_items, 2);
            assert_eq!(a.words, 7);
            assert_eq!(a.blocks, 1);
            assert_eq!(a.images, 1);
        }
    }

    #[test]
    fn author_and_time_lines_are_bylines_in_any_case() {
        for line in [
            "By Jane Doe",
            "BY JANE DOE",
            "Posted 3 hours ago",
            "posted by jane",
            "Updated 5 MINUTES AGO",
            "Jane Doe says:",
            "JANE WROTE: hello",
            "Jane said:",
            "14:05 Jane Doe",
            "March 3, 2019",
            "12 SEPT 2024",
            "3 Jan 2020",
        ] {
            assert!(byline(line), "{line:?} should read as a byline");
        }
    }

    #[test]
    fn ordinary_short_lines_and_long_ones_are_not() {
        for line in [
            "The mayor spoke at 3 markets",
            "Bypass the agony",
            "Agog at the news",
            "Marching 4 ever",
            "Powered by wind",
            // Thirteen words: a sentence, not a byline, whatever it holds.
            "By the time we got there at 14:05 the crowd had all gone home",
        ] {
            assert!(!byline(line), "{line:?} should not read as a byline");
        }
    }
}
