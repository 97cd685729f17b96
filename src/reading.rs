//! Opening an article: an item's stored page classified again with what its site's tree knows now,
//! with everything a reader or an inspector shows about each block. `pith read` and the window both
//! call [`open_article`], so the command line and the window always agree on what is content.
//! Once retention has dropped an item's page, the article is read from its record instead (the
//! blocks with the labels they got when the page arrived, `classify::labelled`).

use crate::classify::labelled::{BlockDetails, LabelledBlock};
use crate::classify::{self, Label, Method, Reason, site};
use crate::extract::{Document, Engine, ExtractError};
use crate::feeds;
pub use crate::page::markup::{Link, ListMarker};
use crate::page::markup::{block_links, list_markers};
use crate::page::{BlockHash, BlockKind, ImageInfo};
use crate::store::{ItemId, ItemInfo, Store, StoreError, StoredImage};
use crate::urltree::{Branch, Verdict};

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
    /// The feed's own text, shown in place of the page's content when the page is missing or
    /// holds little of the article (see [`FeedText`]).
    pub feed_text: Option<FeedText>,
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

/// The feed entry's text as plain text, and why the reader shows it in place of the page's
/// content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeedText {
    /// The text, blocks on their own lines.
    pub text: String,
    /// Why it stands in for the page.
    pub because: FeedTextBecause,
}

/// Why the reader shows the feed's text in place of the page's content.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FeedTextBecause {
    /// No page is stored: it could not be fetched (the item's `fetch_error` says why).
    NoPage,
    /// The page is stored, but the feed's text stands in for it
    /// ([`classify::entry_stands_in`]): what pith kept of the page is under a fifth of the
    /// feed's article-length text. The page's blocks stay for the inspector.
    PageHoldsLittle {
        /// Words of the page's content blocks.
        kept_words: u32,
        /// Words of the feed's text.
        feed_words: u32,
    },
}

/// The feed's text in place of a stored page's `blocks`, when the entry's text `summary` stands
/// in for the page ([`classify::entry_stands_in`]).
fn feed_text_over_page(summary: Option<&str>, blocks: &[ArticleBlock]) -> Option<FeedText> {
    let summary = summary?;
    let kept_words = kept_words(blocks);
    let stand_in = classify::entry_stands_in(summary, kept_words)?;
    Some(FeedText {
        text: stand_in.text,
        because: FeedTextBecause::PageHoldsLittle {
            kept_words,
            feed_words: stand_in.words,
        },
    })
}

/// Words of the content `blocks` keep, counted from their text as the search index counts them:
/// a record of an older form keeps no word counts, and one written before unspaced scripts were
/// counted by their letters keeps counts made by spaces.
fn kept_words(blocks: &[ArticleBlock]) -> u32 {
    blocks
        .iter()
        .filter(|b| b.is_content() && b.kind != BlockKind::Image)
        .fold(0u32, |sum, b| {
            sum.saturating_add(crate::page::count_words(&b.text))
        })
}

/// What the reader says above the feed's text shown in place of the page, if anything: why the
/// page is not shown. The window and `pith read` print the same words.
pub fn feed_text_notice(item: &ItemInfo, because: FeedTextBecause) -> Option<String> {
    match because {
        FeedTextBecause::NoPage => item.fetch_error.as_ref().map(|err| {
            format!("The page could not be fetched ({err}); the feed's own text follows.")
        }),
        FeedTextBecause::PageHoldsLittle {
            kept_words,
            feed_words,
        } => Some(format!(
            "pith found little of the article on its page ({kept_words} words, against the \
             feed's {feed_words}); the feed's own text follows. The inspector shows the page."
        )),
    }
}

impl Article {
    /// True when the article has a stored page (or its record): blocks to inspect and pin.
    pub fn has_page(&self) -> bool {
        !matches!(
            self.feed_text,
            Some(FeedText {
                because: FeedTextBecause::NoPage,
                ..
            })
        )
    }

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
/// and what the site's tree knows now (labels are never frozen when a page arrives). Without the
/// page (retention dropped it), the article is built from its record ([`article_from_record`]).
/// Reads only the database; `None` when there is no such item. Does not mark it read.
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
        let record = store.item_blocks(id)?;
        if !record.is_empty() {
            return Ok(Some(article_from_record(store, item, record)?));
        }
        let summary = item
            .summary
            .as_deref()
            .map(feeds::html_fragment_text)
            .unwrap_or_default();
        return Ok(Some(Article {
            domain: item.domain.clone(),
            item,
            blocks: Vec::new(),
            feed_text: Some(FeedText {
                text: summary,
                because: FeedTextBecause::NoPage,
            }),
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
    let ingested = engine.parse(&doc, tree_doc)?;
    let labels = engine.classify(store, &ingested, method)?;
    let branch = engine.branch(store, &ingested)?;
    let deciding_node = branch
        .as_ref()
        .and_then(|b| b.nodes.iter().rposition(|n| n.support > site::MIN_SUPPORT));
    let images = store.item_images(id)?;
    let base = url::Url::parse(&page.url).ok();
    let markers = list_markers(&ingested.page);
    let blocks: Vec<ArticleBlock> = ingested
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
    let feed_text = feed_text_over_page(item.summary.as_deref(), &blocks);
    Ok(Some(Article {
        domain: ingested.key.as_ref().map(|k| k.domain.clone()),
        item,
        blocks,
        feed_text,
        branch,
        deciding_node,
        images,
        method,
    }))
}

/// Builds `item`'s article from its record (`record`, its blocks as [`Store::item_blocks`] reads
/// them), for an item whose page is no longer stored: the page cannot be classified again, so each
/// block keeps the label it got when the page arrived ([`Reason::Recorded`]), with the site's pins
/// applied over it as they are over a classification; the counts come from the site's tree as it
/// is now. What the reader shows is what it showed of the page: the same blocks, kinds, texts,
/// images, list marks and links. Not recoverable: the element paths (a record does not keep them),
/// the links of blocks that were boilerplate when the page arrived (only content keeps them), and,
/// under a pin, the verdict the method gave a block that was already pinned then. Records of the
/// older forms keep no word counts, descriptions, list numbers or links: list items get a bullet,
/// the rest nothing.
pub fn article_from_record(
    store: &Store,
    item: ItemInfo,
    record: Vec<LabelledBlock>,
) -> Result<Article, ReadError> {
    let method = Method::default_method();
    let pins = match &item.domain {
        Some(domain) => store.pin_verdicts(domain)?,
        None => Default::default(),
    };
    let blocks: Vec<(LabelledBlock, BlockKind, BlockHash, BlockDetails)> = record
        .into_iter()
        .map(|mut b| {
            let kind = b.block_kind();
            let details = b.details.take().unwrap_or_else(|| details_of_old(kind));
            let hash = b.hash();
            (b, kind, hash, details)
        })
        .collect();
    let hashes: Vec<BlockHash> = blocks.iter().map(|(_, _, hash, _)| *hash).collect();
    let tree_doc = match (&item.domain, &item.url_key) {
        (Some(domain), Some(key)) => store.tree_find(domain, key)?,
        _ => None,
    };
    let branch = match tree_doc {
        Some(doc) => Some(store.tree_branch(doc, &hashes)?).filter(|b| !b.nodes.is_empty()),
        None => None,
    };
    let deciding_node = branch
        .as_ref()
        .and_then(|b| b.nodes.iter().rposition(|n| n.support > site::MIN_SUPPORT));
    let recorded = |content: bool, why: String| Label {
        verdict: if content {
            Verdict::Content
        } else {
            Verdict::Boilerplate
        },
        reason: Reason::Recorded { why },
    };
    let blocks: Vec<ArticleBlock> = blocks
        .into_iter()
        .map(|(b, kind, hash, d)| {
            let label = recorded(b.content, b.reason);
            let page_level = match d.page_level {
                Some((content, why)) => recorded(content, why),
                None => label.clone(),
            };
            let label = match pins.get(&hash) {
                Some(&verdict) => Label {
                    verdict,
                    reason: Reason::Pinned { was: label.verdict },
                },
                None => label,
            };
            let count = match (&branch, deciding_node) {
                (Some(br), Some(n)) => br.nodes[n].count(&hash),
                _ => 0,
            };
            let domain_count = branch
                .as_ref()
                .and_then(|br| br.nodes.first())
                .map_or(0, |n| n.count(&hash));
            ArticleBlock {
                position: b.position,
                text: b.text,
                kind,
                // Not recorded (see `classify::labelled`): only the inspector shows it.
                tag_path: String::new(),
                words: d.words,
                link_words: d.link_words,
                hash,
                image: b.image.map(|src| ImageInfo { src, alt: d.alt }),
                links: d.links,
                label,
                page_level,
                count,
                domain_count,
                list_marker: d.list_marker,
            }
        })
        .collect();
    Ok(Article {
        domain: item.domain.clone(),
        images: store.item_images(item.id)?,
        feed_text: feed_text_over_page(item.summary.as_deref(), &blocks),
        item,
        blocks,
        branch,
        deciding_node,
        method,
    })
}

/// What can be said of a block of an older record, which keeps its label, kind, text and image
/// only.
fn details_of_old(kind: BlockKind) -> BlockDetails {
    BlockDetails {
        words: 0,
        link_words: 0,
        alt: String::new(),
        list_marker: (kind == BlockKind::ListItem).then_some(ListMarker::Bullet),
        links: Vec::new(),
        page_level: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// A page of a small news site: navigation, an article with a linked paragraph, a numbered
    /// list and a described image, a footer.
    fn site_page(n: usize) -> (String, String, String) {
        let url = format!("https://www.harbour-news.example/port/story-{n}");
        let title = format!("Harbour story {n}");
        let names = [
            "Alder", "Birch", "Cedar", "Dogwood", "Elm", "Fir", "Ginkgo", "Hazel",
        ];
        let name = names[n % names.len()];
        let html = format!(
            r#"<html><head><title>{title}</title></head><body>
<div id="top"><a href="/">Home</a> <a href="/port">Port</a> <a href="/sport">Sport</a></div>
<div id="main"><article class="story">
<h1>{title}</h1>
<p>The ferry from {name} Quay came in before noon with a full load, the harbour master told
<a href="/people/master">our reporter</a>, and the <a href="https://port.example/notice">notice</a>
said the quay would stay open all winter for {name} boats.</p>
<img src="/img/{name}.jpg" alt="The {name} quay at dawn">
<ol start="2"><li>The {name} crane lifts twice what the old one did, the crew said.</li>
<li>The {name} nets are mended in the shed by the slipway every Friday.</li></ol>
<p>Fishermen from {name} said they had waited three winters for the repairs to end.</p>
</article></div>
<div id="footer">Harbour News, all rights reserved. Printed on the quay.</div></body></html>"#
        );
        (url, title, html)
    }

    /// What a reader or an inspector shows of an article: everything, the reasons as printed (a
    /// reason read from a record is its printed form), links for content blocks only (no view
    /// draws a boilerplate block's links, and a record does not keep them), and no element paths
    /// (a record does not keep them: only the inspector shows one).
    fn shown(article: &Article) -> Vec<String> {
        let mut out = vec![format!(
            "{:?} {:?} {:?} {:?} {:?} {}",
            article.item,
            article.feed_text,
            article.domain,
            article.deciding_node,
            article.images,
            article.method
        )];
        out.extend(article.blocks.iter().map(|b| {
            format!(
                "{} {:?} {:?} {} {} {} {:?} {:?} {:?} {} {:?} {} {} {} {:?}",
                b.position,
                b.kind,
                b.text,
                b.words,
                b.link_words,
                b.hash.to_hex(),
                b.image,
                b.is_content().then_some(&b.links),
                b.label.verdict,
                b.label.reason,
                b.page_level.verdict,
                b.page_level.reason,
                b.count,
                b.domain_count,
                b.list_marker
            )
        }));
        out
    }

    /// Once retention drops an item's raw page, its article is read from its record, and reads
    /// as it did from the page: same blocks, labels (the tree has not moved since the page
    /// arrived), reasons, list numbers, links, images, counts and pins.
    #[test]
    fn an_article_whose_page_was_dropped_reads_from_its_record_as_from_the_page() {
        use crate::classify::{content_text, labelled};
        use crate::store::{EntryRef, NewArticle, NewItem, PageBytes, PinVerdict};

        let engine = Engine::default();
        let mut store = Store::open_in_memory().unwrap();
        let (feed, _) = store
            .feed_add("https://www.harbour-news.example/feed", None, None, 0)
            .unwrap();
        // Seven pages, so that the site's tree speaks for it (a node with more than five).
        let mut last = 0;
        for n in 0..7 {
            let (url, title, html) = site_page(n);
            let doc = Document {
                bytes: html.as_bytes(),
                declared_charset: None,
                url: Some(&url),
                title: Some(&title),
                time: n as i64 * 3600,
                entry_text: None,
            };
            // As a refresh stores an article.
            let ingested = engine.ingest(&mut store, &doc).unwrap();
            let labels = engine
                .classify(&store, &ingested, Method::default_method())
                .unwrap();
            let page_level = Some(ingested.page_level.labels.as_slice());
            let record = labelled::encode(&ingested.page, Some(&url), &labels, page_level);
            let key = ingested.key.as_ref().unwrap();
            last = store
                .item_store(
                    &EntryRef {
                        feed,
                        identity: &url,
                    },
                    &NewItem {
                        link: &url,
                        title: &title,
                        summary: None,
                        published: None,
                        added: n as i64 * 3600,
                    },
                    &NewArticle {
                        url: &url,
                        declared_charset: None,
                        raw: &PageBytes::compress(html.as_bytes()).unwrap(),
                        domain: &key.domain,
                        url_key: &key.key,
                        tree_doc: ingested.doc,
                        blocks: &record,
                        text: &content_text(&ingested.page, &labels),
                        images: &[],
                        known_images: &[],
                    },
                )
                .unwrap()
                .id();
        }
        let from_page = open_article(&store, &engine, last).unwrap().unwrap();
        // The feed's text weighs against the article's own text, not a record's word counts (a
        // record of an older form keeps none): the article's eighty-odd words are more than a
        // fifth of two hundred, and less than a fifth of a thousand.
        let mut uncounted = from_page.blocks.clone();
        for block in &mut uncounted {
            block.words = 0;
        }
        let kept = kept_words(&uncounted);
        assert!((60..100).contains(&kept), "{kept}");
        assert_eq!(
            feed_text_over_page(Some(&"word ".repeat(200)), &uncounted),
            None
        );
        assert!(feed_text_over_page(Some(&"word ".repeat(1000)), &uncounted).is_some());
        // A pin made since the page arrived holds on both readings.
        let footer = from_page
            .blocks
            .iter()
            .find(|b| b.text.starts_with("Harbour News"))
            .unwrap();
        assert!(!footer.is_content());
        store
            .pin_add(
                "harbour-news.example",
                footer.hash,
                PinVerdict::Content,
                &footer.text,
                9,
            )
            .unwrap();
        let from_page = open_article(&store, &engine, last).unwrap().unwrap();
        // The page shows everything the record must keep.
        assert!(from_page.deciding_node.is_some());
        let content: Vec<&ArticleBlock> = from_page.content().collect();
        assert!(content.iter().any(|b| b.links.len() == 2), "{content:#?}");
        assert!(
            content
                .iter()
                .any(|b| b.list_marker == Some(ListMarker::Number(3)))
        );
        assert!(
            content
                .iter()
                .any(|b| b.image.as_ref().is_some_and(|i| !i.alt.is_empty()))
        );
        assert!(from_page.blocks.iter().any(|b| !b.is_content()));
        assert!(from_page.blocks.iter().any(|b| b.count > 1));
        assert!(matches!(
            from_page
                .blocks
                .iter()
                .find(|b| b.hash == footer.hash)
                .unwrap()
                .label
                .reason,
            Reason::Pinned { .. }
        ));

        assert!(store.page_drop(last).unwrap());
        assert!(store.item_page(last).unwrap().is_none());
        let from_record = open_article(&store, &engine, last).unwrap().unwrap();
        assert!(
            from_record
                .blocks
                .iter()
                .any(|b| matches!(b.label.reason, Reason::Recorded { .. }))
        );
        assert_eq!(from_record.branch, from_page.branch);
        assert_eq!(shown(&from_record), shown(&from_page));
    }
}
