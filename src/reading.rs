//! Opening an article: an item's stored page classified again with what its site's tree knows now,
//! with everything a reader or an inspector shows about each block. `pith read` and the window both
//! call [`open_article`], so the command line and the window always agree on what is content.

use crate::classify::{Label, Method, site};
use crate::extract::{Document, Engine, ExtractError};
use crate::feeds;
use crate::page::{BlockHash, BlockKind, ImageInfo};
use crate::store::{ItemId, ItemInfo, Store, StoreError, StoredImage};
use crate::urltree::Branch;

/// Whether the page's headline `headline` says what the feed's title `title` says, so that a
/// reader shows it once: the same words (case, punctuation and spacing aside), or the title is
/// the headline with the site's name added after or before a separator ("Storm hits coast -
/// BBC News", "BBC News | Storm hits coast").
pub fn repeats_title(headline: &str, title: &str) -> bool {
    let h = fold_words(headline);
    let t = fold_words(title);
    if h.is_empty() {
        return false;
    }
    if h == t {
        return true;
    }
    const SEPARATORS: [char; 6] = ['-', '|', '–', '—', ':', '·'];
    let title = title.trim();
    // The headline's words, then a separator, then the site's name (or the other way round).
    title.char_indices().any(|(i, c)| {
        SEPARATORS.contains(&c)
            && title
                .get(..i)
                .zip(title.get(i + c.len_utf8()..))
                .is_some_and(|(before, after)| fold_words(before) == h || fold_words(after) == h)
    })
}

/// `text` lower-cased, its letters and digits only, words joined by one space.
fn fold_words(text: &str) -> String {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A link inside a block's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// Byte range of the anchor text inside [`ArticleBlock::text`].
    pub range: std::ops::Range<usize>,
    /// The absolute target, as [`crate::safety::openable_link`] gave it: only such links are
    /// kept, so the window never has a link to draw that it must not open.
    pub href: String,
}

/// One block of the page, with its label and what the inspector shows about it.
#[derive(Debug, Clone)]
pub struct ArticleBlock {
    /// Position in the page, 0-based.
    pub position: u32,
    /// Its text (empty for most images).
    pub text: String,
    /// The element kind (heading level, paragraph, list item, …).
    pub kind: BlockKind,
    /// Ancestor path of its element.
    pub tag_path: String,
    /// Words in it.
    pub words: u32,
    /// Words inside links.
    pub link_words: u32,
    /// Repeat-counting identity (what a pin names).
    pub hash: BlockHash,
    /// The image, for image blocks.
    pub image: Option<ImageInfo>,
    /// Links in the text, in order.
    pub links: Vec<Link>,
    /// The verdict of the method the reader uses, and why.
    pub label: Label,
    /// What pith's page-level extractor alone said of it.
    pub page_level: Label,
    /// `c(b)` at the node that speaks for the site (see [`Article::deciding_node`]); 0 without one.
    pub count: u32,
    /// `c(b)` at the domain node: 1 (this page) or 0 means the site had never shown it before.
    pub domain_count: u32,
    /// How a list item's block is marked: a bullet, its number in an ordered list, or nothing
    /// (a further paragraph of the same item). `None` outside lists.
    pub list_marker: Option<ListMarker>,
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

impl ArticleBlock {
    /// Share of its words inside links.
    pub fn link_density(&self) -> f32 {
        if self.words == 0 {
            0.0
        } else {
            self.link_words as f32 / self.words as f32
        }
    }

    /// Whether it is content.
    pub fn is_content(&self) -> bool {
        self.label.is_content()
    }

    /// Content that the site had never shown before this page (its hash counted only here).
    pub fn is_new_content(&self) -> bool {
        self.is_content() && self.domain_count <= 1
    }
}

/// An article, opened for reading.
#[derive(Debug, Clone)]
pub struct Article {
    /// The item.
    pub item: ItemInfo,
    /// Every block of the stored page in order, content and boilerplate; empty without a page.
    pub blocks: Vec<ArticleBlock>,
    /// The feed's summary as plain text, shown when the page could not be fetched.
    pub summary: Option<String>,
    /// The page's registrable domain (its URL Tree).
    pub domain: Option<String>,
    /// The page's branch in its site's tree as it is now, domain node first.
    pub branch: Option<Branch>,
    /// Index into the branch's nodes of the node that speaks for the site (the deepest one with
    /// more than [`site::MIN_SUPPORT`] pages); `None` while the site is young and the page-level
    /// extractor decides alone.
    pub deciding_node: Option<usize>,
    /// The images stored for the article.
    pub images: Vec<StoredImage>,
    /// The method that labelled the blocks.
    pub method: Method,
}

impl Article {
    /// The content blocks, in order: what the reader shows.
    pub fn content(&self) -> impl Iterator<Item = &ArticleBlock> {
        self.blocks.iter().filter(|b| b.is_content())
    }

    /// The stored image for `src`, if it was downloaded.
    pub fn image(&self, src: &str) -> Option<&StoredImage> {
        self.images
            .iter()
            .find(|i| i.url == src && i.error.is_none())
    }
}

/// What can go wrong while opening an article.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The page could not be run through the engine again.
    #[error(transparent)]
    Extract(#[from] ExtractError),
}

/// Opens item `id`: its stored page parsed again and classified with `Method::default_method()`
/// and what the site's tree knows now (labels are never frozen when a page arrives). Reads only
/// the database; `None` when there is no such item. Does not mark it read.
pub fn open_article(
    store: &Store,
    engine: &Engine,
    id: ItemId,
) -> Result<Option<Article>, ReadError> {
    let Some(item) = store.item(id)? else {
        return Ok(None);
    };
    let method = Method::default_method();
    let Some(page) = store.item_page(id)? else {
        let summary = item
            .summary
            .as_deref()
            .map(feeds::html_fragment_text)
            .unwrap_or_default();
        return Ok(Some(Article {
            domain: item.domain.clone(),
            item,
            blocks: Vec::new(),
            summary: Some(summary),
            branch: None,
            deciding_node: None,
            images: Vec::new(),
            method,
        }));
    };
    let doc = Document {
        bytes: &page.raw,
        declared_charset: page.declared_charset.as_deref(),
        url: Some(&page.url),
        title: Some(&item.title),
        time: page.fetched,
        entry_text: item.summary.as_deref(),
    };
    // The document is looked up by its key: it may have left the tree's history window since.
    let tree_doc = match (&item.domain, &item.url_key) {
        (Some(domain), Some(key)) => store.tree_find(domain, key)?,
        _ => None,
    };
    let ingested = engine.reopen(&doc, tree_doc)?;
    let labels = engine.classify(store, &ingested, method)?;
    let branch = engine.branch(store, &ingested)?;
    let deciding_node = branch
        .as_ref()
        .and_then(|b| b.nodes.iter().rposition(|n| n.support > site::MIN_SUPPORT));
    let images = store.item_images(id)?;
    let base = url::Url::parse(&page.url).ok();
    let markers = list_markers(&ingested.page);
    let blocks = ingested
        .page
        .blocks
        .iter()
        .zip(labels)
        .zip(markers)
        .enumerate()
        .map(|(i, ((block, label), list_marker))| {
            let count = match (&branch, deciding_node) {
                (Some(b), Some(n)) => b.nodes[n].count(&block.hash),
                _ => 0,
            };
            let domain_count = branch
                .as_ref()
                .and_then(|b| b.nodes.first())
                .map_or(0, |n| n.count(&block.hash));
            ArticleBlock {
                position: block.position,
                text: block.text.clone(),
                kind: block.kind,
                tag_path: block.tag_path.clone(),
                words: block.words,
                link_words: block.link_words,
                hash: block.hash,
                image: block.image.clone(),
                links: block_links(&ingested.page, block, base.as_ref()),
                page_level: ingested
                    .page_level
                    .labels
                    .get(i)
                    .cloned()
                    .unwrap_or_else(|| label.clone()),
                label,
                count,
                domain_count,
                list_marker,
            }
        })
        .collect();
    Ok(Some(Article {
        domain: ingested.key.as_ref().map(|k| k.domain.clone()),
        item,
        blocks,
        summary: None,
        branch,
        deciding_node,
        images,
        method,
    }))
}

/// The list marker of every block of `page` (see [`ListMarker`]), in block order.
fn list_markers(page: &crate::page::Page) -> Vec<Option<ListMarker>> {
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
/// block's text, with a target [`crate::safety::openable_link`] allows.
fn block_links(
    page: &crate::page::Page,
    block: &crate::page::Block,
    base: Option<&url::Url>,
) -> Vec<Link> {
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
    fn a_headline_repeats_a_title_with_the_sites_name_around_it() {
        assert!(repeats_title("Storm hits coast", "Storm hits coast"));
        assert!(repeats_title(
            "Storm hits coast",
            "Storm hits coast - BBC News"
        ));
        assert!(repeats_title(
            "Storm Hits Coast!",
            "storm hits coast | Example"
        ));
        assert!(repeats_title(
            "Storm hits coast",
            "BBC News: Storm hits coast"
        ));
        assert!(repeats_title("Зима пришла", "Зима пришла — Новости"));
        assert!(!repeats_title("Storm hits coast", "Storm hits coast again"));
        assert!(!repeats_title("Storm", "Storm hits coast - BBC News"));
        assert!(!repeats_title("", "Storm hits coast"));
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
