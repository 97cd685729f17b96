//! What a block's markup tells a reader beyond its words: the mark before a list item (a bullet,
//! its number in an ordered list) and the links in its text. The reading pane and `pith read`
//! show them, and an article's stored record (`classify::labelled`) keeps them, so both ways of
//! reading an article agree.

use super::{Block, BlockKind, Page};

/// A link inside a block's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// Byte range of the anchor text inside the block's text.
    pub range: std::ops::Range<usize>,
    /// The absolute target, as [`crate::safety::openable_link`] gave it: only such links are
    /// kept, so the window never has a link to draw that it must not open.
    pub href: String,
}

/// The mark before a list item's block in the reading pane and `pith read`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListMarker {
    /// An item of an unordered list (`<ul>`, `<dl>`, or no list element at all).
    Bullet,
    /// The item's number in an ordered list (`<ol start>` counted in).
    Number(i64),
    /// A further block of the item above, marked already.
    Continued,
}

/// The list marker of every block of `page` (see [`ListMarker`]), in block order. Also what an
/// article's record keeps (`classify::labelled`), so that both ways of reading agree.
pub fn list_markers(page: &Page) -> Vec<Option<ListMarker>> {
    use html5ever::local_name;
    use std::collections::{HashMap, HashSet};
    let dom = &page.dom;
    // Items already marked (a paragraph after a nested list is still the same item), and per
    // ordered list the last item numbered and its number: items arrive in document order, so
    // each is numbered from the one before instead of by counting its siblings again.
    let mut marked: HashSet<crate::dom::NodeId> = HashSet::new();
    let mut numbered: HashMap<crate::dom::NodeId, (crate::dom::NodeId, i64)> = HashMap::new();
    page.blocks
        .iter()
        .map(|block| {
            if block.kind != BlockKind::ListItem {
                return None;
            }
            // The `<li>` (or `<dt>`/`<dd>`) holding the block.
            let mut at = Some(block.node);
            let item = loop {
                match at {
                    Some(n) if dom.is_html(n, &local_name!("li")) => break Some(n),
                    Some(n)
                        if dom.is_html(n, &local_name!("dt"))
                            || dom.is_html(n, &local_name!("dd")) =>
                    {
                        break None;
                    }
                    Some(n) => at = dom.parent(n),
                    None => break None,
                }
            };
            let Some(item) = item else {
                return Some(ListMarker::Bullet);
            };
            if !marked.insert(item) {
                return Some(ListMarker::Continued);
            }
            let Some(list) = dom
                .parent(item)
                .filter(|&l| dom.is_html(l, &local_name!("ol")))
            else {
                return Some(ListMarker::Bullet);
            };
            let (from, mut n) = numbered.get(&list).copied().unwrap_or_else(|| {
                let start = dom
                    .attr(list, "start")
                    .and_then(|v| v.trim().parse::<i64>().ok())
                    .unwrap_or(1);
                // Before the list's first item: counting starts one below `start`.
                (list, start.saturating_sub(1))
            });
            // The `<li>` siblings between the last numbered item and this one (items without
            // text of their own still take a number).
            let mut sibling = if from == list {
                dom.children(list).next()
            } else {
                dom.next_sibling(from)
            };
            while let Some(c) = sibling {
                if dom.is_html(c, &local_name!("li")) {
                    n = n.saturating_add(1);
                }
                if c == item {
                    break;
                }
                sibling = dom.next_sibling(c);
            }
            numbered.insert(list, (item, n));
            Some(ListMarker::Number(n))
        })
        .collect()
}

/// The links of a block: every `<a href>` under its element whose text is found, in order, in the
/// block's text, with a target [`crate::safety::openable_link`] allows. Also what an article's
/// record keeps.
pub fn block_links(page: &Page, block: &Block, base: Option<&url::Url>) -> Vec<Link> {
    let mut links = Vec::new();
    if block.link_words == 0 {
        return links;
    }
    let mut from = 0;
    for node in page.dom.descendants(block.node) {
        if page.dom.element_name(node) != Some("a") {
            continue;
        }
        let Some(href) = page.dom.attr(node, "href") else {
            continue;
        };
        // A link pith must not open is left as plain text.
        let Some(target) = crate::safety::openable_link(href, base).map(String::from) else {
            continue;
        };
        let text = page
            .dom
            .text_content(node)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        if text.is_empty() {
            continue;
        }
        if let Some(at) = block.text.get(from..).and_then(|rest| rest.find(&text)) {
            let start = from + at;
            let end = start + text.len();
            links.push(Link {
                range: start..end,
                href: target,
            });
            from = end;
        }
    }
    links
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_found_in_the_block_text_and_resolved() {
        let base = url::Url::parse("https://example.com/news/story").unwrap();
        let page = crate::page::page_from_html(
            r#"<html><body><p>Read <a href="/a">the first report</a> and
               <a href="javascript:evil()">this</a>, <a href="https://bank.example@evil.example/">that</a>
               then <a href="https://other.org/b">the second</a>.</p></body></html>"#,
            Some(&base),
        );
        let block = page
            .blocks
            .iter()
            .find(|b| b.text.starts_with("Read"))
            .unwrap();
        let links = block_links(&page, block, Some(&base));
        assert_eq!(links.len(), 2, "{links:?}");
        assert_eq!(&block.text[links[0].range.clone()], "the first report");
        assert_eq!(links[0].href, "https://example.com/a");
        assert_eq!(&block.text[links[1].range.clone()], "the second");
        assert_eq!(links[1].href, "https://other.org/b");
    }

    #[test]
    fn list_items_are_numbered_in_ordered_lists_once_each() {
        let page = crate::page::page_from_html(
            "<ol start=3><li>First step</li><li>Second step<ul><li>a note</li></ul>\
             <p>more of the second</p></li><li></li><li>Fourth step</li></ol>\
             <ul><li>a bullet</li></ul><dl><dt>term</dt></dl>",
            None,
        );
        let marks: Vec<_> = page
            .blocks
            .iter()
            .zip(list_markers(&page))
            .map(|(b, m)| (b.text.as_str(), m))
            .collect();
        assert_eq!(
            marks,
            [
                ("First step", Some(ListMarker::Number(3))),
                ("Second step", Some(ListMarker::Number(4))),
                ("a note", Some(ListMarker::Bullet)),
                ("more of the second", Some(ListMarker::Continued)),
                ("Fourth step", Some(ListMarker::Number(6))),
                ("a bullet", Some(ListMarker::Bullet)),
                ("term", Some(ListMarker::Bullet)),
            ]
        );
    }
}
