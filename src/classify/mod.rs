//! Block classification: the methods a user can choose and the labels they produce. The URL Tree
//! heuristics, the papers' page-level classifiers ([`boilerpipe`], [`domratio`]), pith's own
//! page-level extractor ([`page_level`]) and the site-aware default ([`site`]) all label every block
//! of a page with a [`Label`]: a verdict and the reason for it.

pub mod boilerpipe;
pub mod domratio;
pub mod labelled;
pub mod page_level;
pub mod signature;
pub mod site;

use std::borrow::Cow;
use std::fmt;

use crate::page::{Block, BlockKind, Page};
use crate::urltree::{self, BlockInput, Branch, Heuristic, TreeReason};

pub use crate::urltree::Verdict;

/// A way of labelling a page's blocks, selectable in `pith extract` and `pith eval`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// One of the URL Tree heuristics over the site's tree.
    Tree(Heuristic),
    /// One of boilerpipe's shallow-text decision trees (Kohlschütter et al. 2010), page-level.
    Boilerpipe(boilerpipe::Variant),
    /// The DOM method of Alarte & Silva (2020), page-level.
    AlarteSilva,
    /// pith's own page-level extractor ([`page_level`]): the main container of the page alone.
    PithPage,
    /// The site-aware default ([`site`]): pith-page corrected by what the site's pages agree on.
    Site,
}

impl Method {
    /// Every method with its default parameters, in report order.
    pub fn all() -> Vec<Method> {
        let mut all: Vec<Method> = Heuristic::defaults()
            .into_iter()
            .map(Method::Tree)
            .collect();
        all.extend(boilerpipe::Variant::all().map(Method::Boilerpipe));
        all.push(Method::AlarteSilva);
        all.push(Method::PithPage);
        all.push(Method::Site);
        all
    }

    /// The method used when none is named.
    pub fn default_method() -> Method {
        Method::Site
    }

    /// Parses a method name as printed by [`fmt::Display`].
    pub fn parse(name: &str) -> Result<Method, MethodError> {
        if let Some(variant) = boilerpipe::Variant::parse(name) {
            return Ok(Method::Boilerpipe(variant));
        }
        match name {
            domratio::NAME => return Ok(Method::AlarteSilva),
            page_level::NAME => return Ok(Method::PithPage),
            site::NAME => return Ok(Method::Site),
            _ => {}
        }
        Heuristic::parse(name)
            .map(Method::Tree)
            .map_err(|_| MethodError::Unknown {
                name: name.to_string(),
                known: Method::all()
                    .iter()
                    .map(|m| m.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }

    /// Whether this method reads the site's URL Tree (and so needs the page to be in it).
    pub fn uses_tree(&self) -> bool {
        matches!(self, Method::Tree(_) | Method::Site)
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Method::Tree(h) => h.fmt(f),
            Method::Boilerpipe(v) => f.write_str(v.name()),
            Method::AlarteSilva => f.write_str(domratio::NAME),
            Method::PithPage => f.write_str(page_level::NAME),
            Method::Site => f.write_str(site::NAME),
        }
    }
}

/// A method name that does not parse.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum MethodError {
    /// Not a known method.
    #[error(
        "unknown method {name:?}; known: {known} (and strict-N, strict-support-N, relaxed-at-domain-N, vote-N with other numbers)"
    )]
    Unknown {
        /// What was asked for.
        name: String,
        /// The names with default parameters.
        known: String,
    },
}

/// Why a block got its verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// The URL Tree decided.
    Tree(TreeReason),
    /// A page-level extractor decided from this page alone.
    Page {
        /// The extractor's method name (as in [`Method`]'s display).
        extractor: &'static str,
        /// What it saw, in a few words (e.g. `outside the main container`, `link density 0.8`).
        /// Most reasons are fixed words shared by many blocks: borrowed, they cost a page's
        /// hundreds of labels no allocation.
        why: Cow<'static, str>,
    },
    /// A tree method was asked for a page without a URL, so without a tree: the page-level
    /// extractor `pith-page` decided instead.
    NoTree {
        /// What `pith-page` saw (its reason, without the extractor's name).
        why: Cow<'static, str>,
    },
    /// The user pinned this block of the site to a verdict; the pin overrides every rule.
    Pinned {
        /// What the method itself said, so the inspector can show what the pin changed.
        was: Verdict,
    },
    /// Read back from the article's record ([`labelled`]) once its page was no longer kept: the
    /// reason the block got when the page arrived, as it was printed then (the page cannot be
    /// classified again without it).
    Recorded {
        /// The reason as printed.
        why: String,
    },
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Tree(r) => r.fmt(f),
            Reason::Page { extractor, why } => write!(f, "{extractor}: {why}"),
            Reason::NoTree { why } => {
                write!(
                    f,
                    "no URL Tree (page without URL), {}: {why}",
                    page_level::NAME
                )
            }
            Reason::Pinned { was } => {
                let was = match was {
                    Verdict::Content => "content",
                    Verdict::Boilerplate => "boilerplate",
                };
                write!(f, "pinned by you for this site (the method said {was})")
            }
            Reason::Recorded { why } => f.write_str(why),
        }
    }
}

/// A block's verdict and the reason for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    /// Content or boilerplate.
    pub verdict: Verdict,
    /// Why.
    pub reason: Reason,
}

impl Label {
    /// Whether the block is content.
    pub fn is_content(&self) -> bool {
        self.verdict == Verdict::Content
    }
}

/// Every word of the block sits inside a link.
pub fn is_all_link_text(block: &Block) -> bool {
    block.words > 0 && block.link_words >= block.words
}

/// Labels every block of `page` with `method`. `branch` is the page's branch in its site's URL
/// Tree (the page already inserted), or `None` for a page without a URL; a tree method then
/// labels with `pith-page` (reasons [`Reason::NoTree`]), as the reader would.
pub fn classify(method: Method, page: &Page, branch: Option<&Branch>) -> Vec<Label> {
    match method {
        Method::PithPage | Method::Site => {
            classify_with(method, page, branch, &page_level::extract(page))
        }
        _ => classify_page(method, page, branch),
    }
}

/// As [`classify`], with pith-page's result on this page already at hand (the engine computes it
/// once per page, at ingestion, for the site memory's signature).
pub fn classify_with(
    method: Method,
    page: &Page,
    branch: Option<&Branch>,
    page_level: &page_level::ArticleExtraction,
) -> Vec<Label> {
    match method {
        Method::PithPage => page_level.labels.clone(),
        Method::Site => site::classify(page, branch, page_level),
        _ => classify_page(method, page, branch),
    }
}

fn classify_page(method: Method, page: &Page, branch: Option<&Branch>) -> Vec<Label> {
    match (method, branch) {
        (Method::Boilerpipe(variant), _) => boilerpipe::classify(page, variant),
        (Method::AlarteSilva, _) => domratio::classify(page),
        (Method::Tree(heuristic), Some(branch)) => {
            let inputs: Vec<BlockInput> = page
                .blocks
                .iter()
                .map(|b| BlockInput {
                    hash: b.hash,
                    all_link_text: is_all_link_text(b),
                })
                .collect();
            urltree::classify(heuristic, branch, &inputs)
                .into_iter()
                .map(|(verdict, reason)| Label {
                    verdict,
                    reason: Reason::Tree(reason),
                })
                .collect()
        }
        (Method::Tree(_), None) => page_level::classify(page)
            .into_iter()
            .map(|label| Label {
                verdict: label.verdict,
                reason: match label.reason {
                    Reason::Page { why, .. } => Reason::NoTree { why },
                    other => other,
                },
            })
            .collect(),
        (Method::PithPage | Method::Site, _) => page_level::classify(page),
    }
}

/// Applies a site's pins to a page's labels: a pinned block gets the pinned verdict whatever the
/// method said, with a reason that keeps the method's own verdict.
pub fn apply_pins(
    page: &Page,
    labels: &mut [Label],
    pins: &std::collections::HashMap<crate::page::BlockHash, Verdict>,
) {
    if pins.is_empty() {
        return;
    }
    for (block, label) in page.blocks.iter().zip(labels.iter_mut()) {
        if let Some(&verdict) = pins.get(&block.hash) {
            *label = Label {
                verdict,
                reason: Reason::Pinned { was: label.verdict },
            };
        }
    }
}

/// Share of a feed entry's text under which what pith kept of the page has missed the article
/// (see [`entry_stands_in`]).
const PAGE_HOLDS_LITTLE: u32 = 5;

/// Whether a feed entry's own text (`entry_text`, HTML or plain) stands in for a page of which
/// pith kept `kept_words` words: the entry is an article at length
/// ([`page_level::FULL_TEXT_ENTRY_WORDS`]) and the page's content under a fifth of it, so the page
/// did not hold the article where pith could find it (a script draws it, a wall hides it, or the
/// extraction failed). Returns the entry's text when it does. The reader shows that text in the
/// page's place, and the full-text index holds it, so that a search finds what the reader shows.
pub fn entry_stands_in(entry_text: &str, kept_words: u32) -> Option<StandIn> {
    // Most pages keep more than a fifth of any entry's letters: they are spared the parse.
    let bound = u32::try_from(crate::page::fragment_letters(entry_text)).unwrap_or(u32::MAX);
    if kept_words.saturating_mul(PAGE_HOLDS_LITTLE) >= bound {
        return None;
    }
    let (text, words) = crate::page::fragment_text(entry_text);
    (words >= page_level::FULL_TEXT_ENTRY_WORDS as u32
        && kept_words.saturating_mul(PAGE_HOLDS_LITTLE) < words)
        .then_some(StandIn { text, words })
}

/// A feed entry's text that stands in for a page ([`entry_stands_in`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StandIn {
    /// The entry's text, its blocks on their own lines.
    pub text: String,
    /// Its words, counted as a page's blocks count them.
    pub words: u32,
}

/// The clean text of a page: its content text blocks in order, one per line (images carry no text).
pub fn content_text(page: &Page, labels: &[Label]) -> String {
    let mut out = String::new();
    for (block, label) in page.blocks.iter().zip(labels) {
        if label.is_content() && block.kind != BlockKind::Image {
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str(&block.text);
        }
    }
    out
}
