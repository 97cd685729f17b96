//! `pith`, the site-aware default: pith's page-level extractor, corrected by what the site's own
//! stream of pages agrees on.
//!
//! The rule, as README.md states it:
//! 1. While no node of the page's branch has seen more than a site's first few pages, the
//!    page-level extractor decides alone, so a new site's first page is exactly as clean as it.
//! 2. Once a node has enough pages, the container signature most of its pages had their article in
//!    is looked up in this page. If it is there, it is the article container, over the page-level
//!    choice when they disagree: blocks outside it go even when they are new (comments, related
//!    headlines), the headline stays wherever it stands, and the page-level cleaning runs inside it.
//!    It corrects a choice outside it or around it, never a finer one inside it (see
//!    [`agreeing_with`]).
//! 3. Inside the article, a block the tree has seen on a large share of the site's pages is
//!    template text ("Advertisement", "Share this story") and goes; a block that repeats on only a
//!    few pages (a byline, a date, a recurring sign-off) looks like article text and stays.
//!
//! What the rule remembers of a site beyond block counts (the box each page's article was in and the
//! places it carried prose of its own) is [`PageMemory`]: made, encoded, decoded and read back in
//! `site/memory.rs`, the store counting its keys without knowing what they are.

use crate::classify::page_level::{self, ArticleExtraction};
use crate::classify::signature;
use crate::classify::{Label, Reason, Verdict, is_all_link_text};
use crate::dom::NodeId;
use std::borrow::Cow;
use std::collections::HashMap;

use crate::page::{BlockHash, BlockKind, Page};
use crate::store::{CountsAt, DocId, Store, StoreError};
use crate::urltree::{Branch, NodeStats};

mod memory;

pub use memory::{
    LISTED_CONTAINERS, PageMemory, SLOT_PREFIX, SlotKey, containers, read_branch, slot_count,
};

/// The method's name.
pub const NAME: &str = "pith";

/// A node speaks for the site only with more pages than this (a site's first five pages are the
/// page-level extractor's alone: no cold-start dip).
pub const MIN_SUPPORT: u32 = 5;

/// How many of a node's pages must share a container signature before it counts as agreed.
pub const MIN_AGREEMENT: u32 = 3;

/// Among the signatures of a node that exist in this page, the share of their pages the chosen one
/// must have: templates change over a site's life, so agreement is measured among the containers
/// this page's template actually has, not among all the site's pages.
pub const MIN_AGREEMENT_SHARE: f64 = 0.5;

/// A block inside the article that the tree has seen on at least this share of the deciding node's
/// pages is template text.
pub const TEMPLATE_SHARE: f64 = 0.5;

/// A block outside the article needs this many words to be a prose candidate: a standfirst or a
/// video's description is a few sentences, where widgets and photo credits are short.
pub const MIN_SLOT_WORDS: u32 = 25;

/// ... and at most this share of its words in links (related headlines are links).
pub const MAX_SLOT_LINK_SHARE: f64 = 0.2;

/// A page records at most this many prose slots in the site's memory (a bound on its size).
pub const MAX_SLOTS_PER_PAGE: usize = 4;

/// A slot is the site's own place for page-specific prose when at least this share of the
/// deciding node's pages had such prose there: two in five, as a site's video stories (with a
/// description above the article) share a section with its text-only stories.
pub const SLOT_SHARE: f64 = 0.4;

/// The container the site agrees on, as found in this page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Agreement {
    /// The element in this page: the one with the agreed signature, or the page-level article's
    /// own container when that article lies in the site's box (see `agreeing_with`).
    pub node: NodeId,
    /// The signature the site's pages agreed on.
    pub signature: String,
    /// The tree node whose pages agreed.
    pub tree_node: String,
    /// How many of them had their article there.
    pub count: u32,
    /// How many pages that tree node has.
    pub support: u32,
}

/// The deepest node of the branch with enough pages to speak for the site.
pub fn deciding_node(branch: &Branch) -> Option<&NodeStats> {
    branch.nodes.iter().rev().find(|n| n.support > MIN_SUPPORT)
}

/// Finds the container the site's pages agree on in this page: at the deepest node with enough
/// pages where one exists, the signature found in this page that most of its pages chose.
pub fn agreed_container(page: &Page, branch: &Branch) -> Option<Agreement> {
    // The nodes of a branch mostly share their signatures: each is looked up in the page once.
    let mut found: HashMap<&str, Option<(u32, NodeId)>> = HashMap::new();
    let mut words = SubtreeWords::default();
    for node in branch
        .nodes
        .iter()
        .rev()
        .filter(|n| n.support > MIN_SUPPORT)
    {
        let mut present: Vec<(&String, u32, NodeId)> = Vec::new();
        for (sig, count) in containers(node) {
            // Several elements can share a signature (repeated widgets): take the one holding
            // the most words.
            let best = *found.entry(sig.as_str()).or_insert_with(|| {
                signature::find(&page.dom, sig)
                    .into_iter()
                    .map(|n| (words.inside(page, n), n))
                    .max()
            });
            if let Some((words, element)) = best
                && words > 0
            {
                present.push((sig, *count, element));
            }
        }
        let total: u32 = present.iter().map(|p| p.1).sum();
        let Some(&(sig, count, element)) = present.iter().max_by_key(|p| p.1) else {
            continue;
        };
        if count >= MIN_AGREEMENT && f64::from(count) >= MIN_AGREEMENT_SHARE * f64::from(total) {
            return Some(Agreement {
                node: element,
                signature: sig.clone(),
                tree_node: node.path.clone(),
                count,
                support: node.support,
            });
        }
    }
    None
}

/// The agreement as it reads beside the page-level article: the site's box corrects a choice
/// outside it or around it, never a finer one inside it. When one of the page-level article's
/// containers has the agreed signature (whichever element of that signature holds the most
/// words), or the agreed box holds every container of that article, the site agrees with the
/// page-level choice, which stands whole: its parts and the siblings it took beside its main
/// container. Cutting it down to the box's own cleaning would drop a standfirst the page-level
/// extractor had found beside the text, or keep all but one part of an article printed in parts.
fn agreeing_with(
    page: &Page,
    page_level: &ArticleExtraction,
    mut agreement: Agreement,
) -> Agreement {
    let containers = &page_level.containers;
    // Held in the box, the first container stands for the page-level article (which of its
    // containers is named does not matter: any of them keeps that article whole), and no
    // signature need be made.
    let held = containers.first().copied().filter(|_| {
        containers
            .iter()
            .all(|&c| inside_any(page, c, &[agreement.node]))
    });
    let own = || {
        containers.iter().copied().find(|&c| {
            signature::signature(&page.dom, c).as_deref() == Some(agreement.signature.as_str())
        })
    };
    if let Some(node) = held.or_else(own) {
        agreement.node = node;
    }
    agreement
}

/// Words of the blocks inside a node, from each node's own blocks' words (put on their nodes
/// on first use): a site's signatures are looked up on every page of it, and each match is
/// weighed by its words.
#[derive(Default)]
struct SubtreeWords(Vec<u32>);

impl SubtreeWords {
    /// Words of the blocks inside `node`.
    fn inside(&mut self, page: &Page, node: NodeId) -> u32 {
        if self.0.is_empty() {
            self.0 = vec![0; page.dom.len()];
            for block in &page.blocks {
                if let Some(w) = self.0.get_mut(block.node as usize) {
                    *w += block.words;
                }
            }
        }
        std::iter::once(node)
            .chain(page.dom.descendants(node))
            .filter_map(|n| self.0.get(n as usize))
            .sum()
    }
}

fn label(verdict: Verdict, why: String) -> Label {
    Label {
        verdict,
        reason: Reason::Page {
            extractor: NAME,
            why: why.into(),
        },
    }
}

/// Longest byline or dateline, in words.
const MAX_BYLINE_WORDS: usize = 12;

/// Words that open a byline in the languages pith's datasets cover most.
const BYLINE_OPENERS: [&str; 6] = ["by", "von", "par", "por", "door", "di"];

/// A short line that reads like a byline ("By Jane Doe, staff reporter") or a dateline ("Updated
/// 10:06 GMT, 25 September 2011"): article text that repeats on other pages of the same author or
/// month, which the template rule must not take for the site's furniture.
fn looks_like_byline_or_date(text: &str) -> bool {
    let mut words = text.split_whitespace();
    let Some(first) = words.next() else {
        return false;
    };
    // Counting stops past the limit: this is asked of long paragraphs too.
    if text.split_whitespace().nth(MAX_BYLINE_WORDS).is_some() {
        return false;
    }
    // The openers are ASCII, and no other letter lower-cases to one of theirs.
    let first = first.trim_end_matches([':', ',']);
    BYLINE_OPENERS
        .iter()
        .any(|opener| first.eq_ignore_ascii_case(opener))
        || text.bytes().any(|b| b.is_ascii_digit())
}

/// Whether `node` is one of `containers` or inside one.
fn inside_any(page: &Page, node: NodeId, containers: &[NodeId]) -> bool {
    containers.contains(&node) || page.dom.ancestors(node).any(|a| containers.contains(&a))
}

/// The prose blocks `labels` leave out of the article: before it (where a standfirst or the lead
/// video's description stands; what follows an article is about other things: the author, other
/// stories, comments), outside `containers`, sentences rather than links, and each alone in its
/// slot on this page (a slot holding several, like a list of teasers, is not one story's text).
/// Returns (block index, slot key), at most [`MAX_SLOTS_PER_PAGE`], in page order.
fn prose_outside(page: &Page, labels: &[Label], containers: &[NodeId]) -> Vec<(usize, SlotKey)> {
    let mut found: Vec<(usize, SlotKey)> = Vec::new();
    let mut crowded: Vec<SlotKey> = Vec::new();
    // Every block before the first one inside the containers is outside them.
    let article_starts = page
        .blocks
        .iter()
        .position(|b| inside_any(page, b.node, containers))
        .unwrap_or(0);
    for (i, (block, label)) in page.blocks.iter().zip(labels).enumerate() {
        if i >= article_starts {
            break;
        }
        if label.is_content()
            || block.kind == BlockKind::Image
            || block.words < MIN_SLOT_WORDS
            || f64::from(block.link_words) > MAX_SLOT_LINK_SHARE * f64::from(block.words)
        {
            continue;
        }
        let Some(key) = SlotKey::of(page, block.node) else {
            continue;
        };
        if let Some(at) = found.iter().position(|(_, k)| *k == key) {
            found.remove(at);
            crowded.push(key);
        } else if !crowded.contains(&key) {
            found.push((i, key));
        }
    }
    found.truncate(MAX_SLOTS_PER_PAGE);
    found
}

/// Labels `page` with the site-aware rule, reading from its site's tree (`doc`: the page's document
/// there, `None` without a URL) only what the rule needs: the counts of the blocks it asks about (a
/// page has hundreds of blocks, its article a few dozen), those of the page-level article first,
/// and again only when the site's agreed article differs from it.
pub fn classify_in_tree(
    store: &Store,
    page: &Page,
    page_level: &ArticleExtraction,
    doc: Option<DocId>,
) -> Result<Vec<Label>, StoreError> {
    let Some(doc) = doc else {
        return Ok(classify(page, None, page_level));
    };
    let memory = memory::recorded(store, doc)?;
    let counted_at = CountsAt::DeepestAbove(MIN_SUPPORT);
    let outside = prose_outside(page, &page_level.labels, &page_level.containers);
    let needed = hashes_needed(page, page_level, &outside);
    let branch = memory::read_with(store, doc, &needed, counted_at, &memory)?;
    if branch.nodes.is_empty() {
        // The document has left the tree (history window).
        return Ok(classify(page, None, page_level));
    }
    let Some(draft) = draft(page, &branch, page_level, outside) else {
        return Ok(page_level.labels.clone());
    };
    if draft.is_page_level() {
        return Ok(finish(page, &branch, draft));
    }
    let needed = hashes_needed(page, draft.article(), draft.outside());
    let branch = memory::read_with(store, doc, &needed, counted_at, &memory)?;
    Ok(finish(page, &branch, draft))
}

/// Labels `page` with the site-aware rule. `branch` is the page's branch in its site's tree (the
/// page already inserted, read with [`read_branch`] so that it holds the site's memory), `None`
/// without a URL; `page_level` is pith-page's result on this page.
pub fn classify(
    page: &Page,
    branch: Option<&Branch>,
    page_level: &ArticleExtraction,
) -> Vec<Label> {
    let Some(branch) = branch else {
        return page_level.labels.clone();
    };
    let outside = prose_outside(page, &page_level.labels, &page_level.containers);
    match draft(page, branch, page_level, outside) {
        Some(draft) => finish(page, branch, draft),
        None => page_level.labels.clone(),
    }
}

/// The first half of the rule, which needs the branch's supports, containers and slots but no
/// block counts: the article the site agrees on. The rule then reads the counts of the blocks
/// [`hashes_needed`] names only (reading counts is most of what the rule costs).
pub struct Draft<'a> {
    base: Cow<'a, ArticleExtraction>,
    agreement: Option<Agreement>,
    outside: Vec<(usize, SlotKey)>,
}

/// Starts the rule; `None` when the site is too young to speak (the page-level labels stand).
/// `page_level_outside` is [`prose_outside`]'s answer for `page_level`, which the caller reads
/// the branch's counts with; it serves again when the site keeps the page-level article.
pub fn draft<'a>(
    page: &Page,
    branch: &Branch,
    page_level: &'a ArticleExtraction,
    page_level_outside: Vec<(usize, SlotKey)>,
) -> Option<Draft<'a>> {
    deciding_node(branch)?;
    let agreement = agreed_container(page, branch).map(|a| agreeing_with(page, page_level, a));
    let base = match &agreement {
        Some(a) if !page_level.containers.contains(&a.node) => {
            Cow::Owned(page_level::extract_in(page, a.node))
        }
        _ => Cow::Borrowed(page_level),
    };
    let outside = match &base {
        Cow::Borrowed(_) => page_level_outside,
        Cow::Owned(article) => prose_outside(page, &article.labels, &article.containers),
    };
    Some(Draft {
        base,
        agreement,
        outside,
    })
}

/// The blocks whose tree counts [`finish`] reads when the article is `extraction`: those it keeps,
/// and the prose outside it that the site may take back (`outside`, [`prose_outside`]'s answer
/// for `extraction`).
pub fn hashes_needed(
    page: &Page,
    extraction: &ArticleExtraction,
    outside: &[(usize, SlotKey)],
) -> Vec<BlockHash> {
    let mut hashes: Vec<BlockHash> = page
        .blocks
        .iter()
        .zip(&extraction.labels)
        .filter(|(_, l)| l.is_content())
        .map(|(b, _)| b.hash)
        .collect();
    hashes.extend(outside.iter().map(|(i, _)| page.blocks[*i].hash));
    hashes
}

impl Draft<'_> {
    /// The article the rule will finish from.
    pub fn article(&self) -> &ArticleExtraction {
        &self.base
    }

    /// The prose outside that article the site may take back ([`prose_outside`]).
    pub fn outside(&self) -> &[(usize, SlotKey)] {
        &self.outside
    }

    /// Whether the site's article is the page-level extractor's own (most pages of a known
    /// site): the counts read for the page-level article then serve.
    pub fn is_page_level(&self) -> bool {
        matches!(self.base, Cow::Borrowed(_))
    }
}

/// Finishes the rule with the branch's counts (of at least [`hashes_needed`]).
pub fn finish(page: &Page, branch: &Branch, draft: Draft<'_>) -> Vec<Label> {
    let Some(decider) = deciding_node(branch) else {
        return draft.base.labels.clone();
    };
    let Draft {
        base,
        agreement,
        outside,
    } = draft;
    let template_count = (TEMPLATE_SHARE * f64::from(decider.support)).ceil() as u32;
    let slot_needed = ((SLOT_SHARE * f64::from(decider.support)).ceil() as u32).max(MIN_AGREEMENT);
    // Page-specific prose outside the article, in a slot where most of the site's pages carry
    // prose of their own (a video's caption, a standfirst): the site says it belongs to the story.
    let site_prose: Vec<(usize, SlotKey, u32)> = outside
        .into_iter()
        .filter_map(|(i, key)| {
            let seen = slot_count(decider, &key);
            let new = decider.count(&page.blocks[i].hash) <= 1;
            (seen >= slot_needed && new).then_some((i, key, seen))
        })
        .collect();
    // Said of every block the site's container keeps: formatted once.
    let agreed = agreement.as_ref().map(|a| {
        format!(
            "in the site's article container {} ({} of {} pages at {})",
            a.signature, a.count, a.support, a.tree_node
        )
    });
    page.blocks
        .iter()
        .zip(base.into_owned().labels)
        .enumerate()
        .map(|(i, (block, base_label))| {
            if let Some((_, _, seen)) = site_prose.iter().find(|(at, ..)| *at == i) {
                return label(
                    Verdict::Content,
                    format!(
                        "the site's pages carry their own prose here ({seen} of {} pages at {}), \
                         and this text is new",
                        decider.support, decider.path
                    ),
                );
            }
            if !base_label.is_content() {
                return base_label;
            }
            let count = decider.count(&block.hash);
            // A headline repeats too, as the link text other pages of the site point to it with;
            // counting cannot tell the two apart, so the headline is never template text.
            if count >= template_count.max(2)
                && count > 1
                && !page_level::is_headline(&base_label)
                && !looks_like_byline_or_date(&block.text)
            {
                return label(
                    Verdict::Boilerplate,
                    format!(
                        "template text: seen on {count} of {} pages at {}",
                        decider.support, decider.path
                    ),
                );
            }
            if is_all_link_text(block) && count > 1 && !page_level::is_headline(&base_label) {
                return label(
                    Verdict::Boilerplate,
                    format!("repeated link ({count} pages at {})", decider.path),
                );
            }
            match &agreed {
                Some(agreed) => label(Verdict::Content, format!("{agreed}; {}", base_label.reason)),
                None => base_label,
            }
        })
        .collect()
}

#[cfg(test)]
mod agreement_tests {
    use super::*;
    use crate::page::page_from_html;

    /// The site's box corrects a page-level choice outside it or around it; one inside it, or one
    /// whose container has the agreed signature, stands whole.
    #[test]
    fn the_site_box_corrects_a_choice_around_it_not_one_inside_it() {
        let page = page_from_html(
            r#"<body><div id="page"><div id="story"><div class="part" id="a"><p>One.</p></div>
            <div class="read-all" id="b"><p>Two.</p></div></div>
            <div id="comments"><p>A reader's comment.</p></div></div>
            <div class="part" id="promo"><p>Subscribe.</p></div></body>"#,
            None,
        );
        let dom = &page.dom;
        let by_id = |id: &str| dom.element_with_id(id).unwrap();
        let agreement = |node: NodeId| Agreement {
            node,
            signature: signature::signature(dom, node).unwrap(),
            tree_node: "example.com".into(),
            count: 4,
            support: 6,
        };
        let agreed_node = |containers: Vec<NodeId>, agreed: NodeId| {
            let page_level = ArticleExtraction {
                labels: Vec::new(),
                containers,
            };
            agreeing_with(&page, &page_level, agreement(agreed)).node
        };
        let (story, a, b, whole) = (by_id("story"), by_id("a"), by_id("b"), by_id("page"));
        // Parts inside the site's box: the page-level article, with its parts, stands.
        assert_eq!(agreed_node(vec![b, a], story), b);
        // A page-level box around the site's (the story with its comments) is corrected.
        assert_eq!(agreed_node(vec![whole], story), story);
        // A page-level choice outside the box is corrected.
        assert_eq!(agreed_node(vec![by_id("promo")], story), story);
        // The agreed signature named another element (the one with the most words); the
        // page-level container of that signature is the site's box on this page.
        assert_eq!(agreed_node(vec![b], by_id("b")), b);
        let other_part = Agreement {
            node: by_id("promo"),
            ..agreement(a)
        };
        let page_level = ArticleExtraction {
            labels: Vec::new(),
            containers: vec![a, b],
        };
        assert_eq!(agreeing_with(&page, &page_level, other_part).node, a);
    }
}

#[cfg(test)]
mod tests {
    use crate::classify::{Method, content_text};
    use crate::extract::{Document, Engine, Ingested};
    use crate::store::Store;

    const SENTENCES: [&str; 8] = [
        "The council approved the new budget after a long debate on Tuesday evening.",
        "Residents had asked for more money to be spent on roads, parks and schools.",
        "The mayor said the plan would be reviewed again in the spring, when revenue is known.",
        "Opposition members argued that the tax increase would hurt small businesses in town.",
        "A public hearing drew more than two hundred people, many of them parents of pupils.",
        "Engineers warned that two of the bridges need urgent repairs before next winter.",
        "The library will extend its opening hours on weekends from the first of March.",
        "Local police reported that burglaries fell by a third compared with last year.",
    ];

    /// Words that make each page's article text its own: block hashes keep letters only, so
    /// numbers alone would not tell two paragraphs apart.
    const NAMES: [&str; 12] = [
        "Alder", "Birch", "Cedar", "Dogwood", "Elm", "Fir", "Ginkgo", "Hazel", "Ivy", "Juniper",
        "Larch", "Maple",
    ];

    /// A page of the hand-built site: a shared template, a unique article, a byline by one of two
    /// authors, and a template line inside the article; page 7 carries a long comment section.
    fn site_page(n: usize) -> (String, String) {
        let name = NAMES[n % NAMES.len()];
        let title = format!("Story about {name} Street in the town of Example");
        let author = if n.is_multiple_of(3) {
            "Jane Doe"
        } else {
            "John Roe"
        };
        let mut body = String::new();
        for i in 0..5 {
            body.push_str(&format!(
                "<p>{} On {name} Street, this part adds the {} detail.</p>\n",
                SENTENCES[(n + i) % SENTENCES.len()],
                ["first", "second", "third", "fourth", "fifth"][i]
            ));
        }
        let comments = if n == 7 {
            let mut c = String::from("<div class=\"comments\"><h3>Reader comments</h3>");
            for i in 0..12 {
                c.push_str(&format!(
                    "<div class=\"comment\"><span class=\"author\">reader{i}</span><p>I have lived here for {i} years and I think the council {} This is comment {i} on the story and it goes on for a while, as comments do.</p></div>",
                    SENTENCES[i % SENTENCES.len()].to_lowercase()
                ));
            }
            c.push_str("</div>");
            c
        } else {
            String::new()
        };
        let html = format!(
            r#"<html><head><title>{title} - Example News</title></head><body>
<div id="top"><a href="/">Home</a> <a href="/town">Town</a> <a href="/sport">Sport</a> <a href="/weather">Weather</a></div>
<div id="main"><div class="article" id="story-{n}">
<h1>{title}</h1>
<p>By {author}, staff reporter</p>
{body}
<p>Follow Example News for more stories from your town every day</p>
</div>
{comments}
</div>
<div class="box"><p>Our newsletter brings you the best of local life, with reviews, interviews, recipes, events and much more, delivered every single morning to your inbox for free.</p>
<p>Sign up today and join thousands of readers who start the day with the stories that matter to them, from schools to sport, and from business to the arts.</p>
<p>You can unsubscribe at any time, and we will never share your address with anyone else, as explained in our privacy notice which you can read online.</p></div>
<div id="footer">Copyright Example News. All rights reserved.</div></body></html>"#
        );
        (html, title)
    }

    fn ingest(store: &mut Store, engine: &Engine, n: usize) -> Ingested {
        let (html, title) = site_page(n);
        let url = format!("https://www.example-news.com/town/story-{n}");
        engine
            .ingest(
                store,
                &Document {
                    bytes: html.as_bytes(),
                    declared_charset: None,
                    url: Some(&url),
                    title: Some(&title),
                    time: n as i64 * 3600,
                    entry_text: None,
                },
            )
            .unwrap()
    }

    #[test]
    fn a_young_site_is_exactly_the_page_level_extractor() {
        let mut store = Store::open_in_memory().unwrap();
        let engine = Engine::default();
        for n in 0..5 {
            let page = ingest(&mut store, &engine, n);
            let site = engine.classify(&store, &page, Method::Site).unwrap();
            let page_level = engine.classify(&store, &page, Method::PithPage).unwrap();
            assert_eq!(site, page_level, "page {n}");
        }
    }

    #[test]
    fn a_known_site_keeps_its_article_and_drops_template_lines_and_comments() {
        let mut store = Store::open_in_memory().unwrap();
        let engine = Engine::default();
        let pages: Vec<Ingested> = (0..10).map(|n| ingest(&mut store, &engine, n)).collect();
        // Page 7: comments longer than the article; a byline by Jane Doe's colleague.
        let page = &pages[7];
        let labels = engine.classify(&store, page, Method::Site).unwrap();
        let text = content_text(&page.page, &labels);
        assert!(text.contains("Story about Hazel Street"), "{text}");
        assert!(
            text.contains("On Hazel Street, this part adds the fifth detail"),
            "{text}"
        );
        assert!(
            text.contains("By John Roe"),
            "a byline inside the article stays: {text}"
        );
        assert!(!text.contains("reader3"), "comments go: {text}");
        assert!(
            !text.contains("comment 5 on the story"),
            "comments go: {text}"
        );
        assert!(
            !text.contains("Follow Example News"),
            "a template line repeated on every page goes: {text}"
        );
        assert!(!text.contains("Copyright"), "{text}");
        assert!(!text.contains("Weather"), "{text}");
        // The reasons name the site's agreement.
        let why = page
            .page
            .blocks
            .iter()
            .zip(&labels)
            .find(|(b, _)| b.text.contains("third detail"))
            .map(|(_, l)| l.reason.to_string())
            .unwrap();
        assert!(why.contains("site's article container"), "{why}");
        let template = page
            .page
            .blocks
            .iter()
            .zip(&labels)
            .find(|(b, _)| b.text.starts_with("Follow Example News"))
            .map(|(_, l)| l.reason.to_string())
            .unwrap();
        assert!(template.contains("template text"), "{template}");
    }

    #[test]
    fn a_template_box_with_more_prose_than_a_short_article_goes() {
        let mut store = Store::open_in_memory().unwrap();
        let engine = Engine::default();
        for n in 0..8 {
            ingest(&mut store, &engine, n);
        }
        // A page whose newsletter box (part of the template) holds more prose than its short
        // article: pith-page alone may pick the box or add it; the site knows the article's
        // container and that the box repeats on every page.
        let html = r#"<html><head><title>Short note - Example News</title></head><body>
<div id="top"><a href="/">Home</a> <a href="/town">Town</a></div>
<div id="main"><div class="article" id="story-99">
<h1>Short note</h1><p>The town hall will be closed on Monday for a public holiday, the council said.</p>
</div></div>
<div class="box"><p>Our newsletter brings you the best of local life, with reviews, interviews, recipes, events and much more, delivered every single morning to your inbox for free.</p>
<p>Sign up today and join thousands of readers who start the day with the stories that matter to them, from schools to sport, and from business to the arts.</p>
<p>You can unsubscribe at any time, and we will never share your address with anyone else, as explained in our privacy notice which you can read online.</p></div>
<div id="footer">Copyright Example News. All rights reserved.</div></body></html>"#;
        let url = "https://www.example-news.com/town/story-99";
        let page = engine
            .ingest(
                &mut store,
                &Document {
                    bytes: html.as_bytes(),
                    declared_charset: None,
                    url: Some(url),
                    title: Some("Short note"),
                    time: 99 * 3600,
                    entry_text: None,
                },
            )
            .unwrap();
        let labels = engine.classify(&store, &page, Method::Site).unwrap();
        let text = content_text(&page.page, &labels);
        assert!(text.contains("town hall will be closed"), "{text}");
        assert!(!text.contains("newsletter"), "{text}");
    }

    /// A page of a site that puts each story's video description in a player above the article
    /// (generated player ids), two teasers of other stories in one box above it, and the
    /// author's bio below it.
    fn video_page(n: usize) -> (String, String) {
        let (html, title) = site_page(n);
        let name = NAMES[n % NAMES.len()];
        let caption = format!(
            "In this video our reporter walks the length of {name} Street and talks to the \
             shopkeepers, the neighbours and the council officers about what the new budget \
             will change for them, block by block, over the coming year."
        );
        let teaser = |k: usize| {
            format!(
                "<p class=\"teaser\">Also today: {} This other story is told at length on its \
                 own page, with photographs and a map of every street that it concerns in \
                 town, number {k}.</p>",
                SENTENCES[(n + k) % SENTENCES.len()]
            )
        };
        let playlist: String = (0..8)
            .map(|k| {
                format!("<li><a href=\"/video/{k}\">Watch the video report number {k}</a></li>")
            })
            .collect();
        let above = format!(
            "<div class=\"player\" id=\"player-{:x}z{}\"><ul>{playlist}</ul>\
             <div class=\"caption-box\"><p class=\"caption\">{caption}</p></div>\
             <div class=\"more\">{}{}</div></div>",
            n * 7919 + 11,
            ["a", "b", "c"][n % 3],
            teaser(1),
            teaser(2)
        );
        let bio = format!(
            "<div class=\"bio\"><p>The author has written about {name} Street and the rest of \
             the town for many years, and before that covered schools, courts and local \
             sport for three other newspapers in the region, winning two awards.</p></div>"
        );
        // The player sits in the page header and the bio in the page footer, as on real sites,
        // so neither is a sibling the page-level extractor could add to the article.
        let html = html
            .replace(
                "<div id=\"top\">",
                &format!("<div id=\"header\">{above}<div id=\"top\">"),
            )
            .replace("<div id=\"main\">", "</div><div id=\"main\">")
            .replace(
                "<div id=\"footer\">",
                &format!("<div id=\"end\">{bio}<div id=\"footer\">"),
            )
            .replace("</body>", "</div></body>");
        (html, title)
    }

    #[test]
    fn prose_the_site_carries_above_every_article_is_kept_once_the_site_is_known() {
        let mut store = Store::open_in_memory().unwrap();
        let engine = Engine::default();
        let mut pages = Vec::new();
        for n in 0..9 {
            let (html, title) = video_page(n);
            let url = format!("https://www.example-video.com/town/story-{n}");
            pages.push(
                engine
                    .ingest(
                        &mut store,
                        &Document {
                            bytes: html.as_bytes(),
                            declared_charset: None,
                            url: Some(&url),
                            title: Some(&title),
                            time: n as i64 * 3600,
                            entry_text: None,
                        },
                    )
                    .unwrap(),
            );
            // While the site is young, its pages are exactly the page-level extractor's.
            if n < 5 {
                let page = &pages[n];
                assert_eq!(
                    engine.classify(&store, page, Method::Site).unwrap(),
                    engine.classify(&store, page, Method::PithPage).unwrap()
                );
            }
        }
        let text_of = |page: &Ingested, method| {
            content_text(&page.page, &engine.classify(&store, page, method).unwrap())
        };
        // The page-level extractor leaves the description out: it sits outside the article.
        let last = &pages[8];
        let page_level = text_of(last, Method::PithPage);
        assert!(!page_level.contains("In this video"), "{page_level}");
        // The site, having seen it above most of its articles, keeps it; not the teasers (two in
        // one slot), nor the bio (below the article), nor anything of the template.
        let site = text_of(last, Method::Site);
        assert!(
            site.contains("In this video our reporter walks the length of Ivy Street"),
            "{site}"
        );
        assert!(site.contains("On Ivy Street, this part adds the fifth detail"));
        assert!(!site.contains("Also today"), "{site}");
        assert!(!site.contains("The author has written"), "{site}");
        assert!(!site.contains("newsletter"), "{site}");
        let labels = engine.classify(&store, last, Method::Site).unwrap();
        let why = last
            .page
            .blocks
            .iter()
            .zip(&labels)
            .find(|(b, _)| b.text.starts_with("In this video"))
            .map(|(_, l)| l.reason.to_string())
            .unwrap();
        assert!(why.contains("their own prose here"), "{why}");
        // The engine reads only the counts the rule needs; the labels are those of the rule run
        // on the whole branch.
        for page in &pages {
            let hashes: Vec<_> = page.page.blocks.iter().map(|b| b.hash).collect();
            let branch = super::read_branch(
                &store,
                page.doc.unwrap(),
                &hashes,
                crate::store::CountsAt::Every,
            )
            .ok()
            .filter(|b| !b.nodes.is_empty());
            assert_eq!(
                engine.classify(&store, page, Method::Site).unwrap(),
                super::classify(&page.page, branch.as_ref(), &page.page_level)
            );
        }
    }
}
