//! What the page declares about its own article: schema.org's `articleBody` in its JSON-LD, the
//! text a publisher hands to search engines as the article. When pith's choice misses most of
//! that text, the choice was wrong (a modal, a teaser box, one column of a split layout), and the
//! page's blocks whose words are the declared body's are the article.

use std::collections::HashSet;

use html5ever::local_name;

use super::stats::Stats;
use crate::classify::Label;
use crate::dom::{Dom, NodeId};
use crate::page::{BlockKind, Page};

/// A declared body shorter than this (in words) is a summary, not the article.
const MIN_BODY_WORDS: usize = 50;

/// The extraction agrees with the declared body when it holds at least this share of the
/// body's distinct words.
pub(super) const AGREES: f32 = 0.6;

/// A block belongs to the declared body when at least this share of its words are the body's.
const BLOCK_IN_BODY: f32 = 0.7;

/// The declared body's distinct lower-case words, when the page declares one of some length.
pub(super) fn article_body_words(dom: &Dom) -> Option<HashSet<String>> {
    let mut best: Option<String> = None;
    for id in dom.elements_by_name("script") {
        let is_json_ld = dom
            .attr(id, "type")
            .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/ld+json"));
        if !is_json_ld {
            continue;
        }
        let text = dom.text_content(id);
        if !text.contains("articleBody") {
            continue;
        }
        let Ok(value) = serde_json::from_str::<serde_json::Value>(&text) else {
            continue;
        };
        find_article_body(&value, 0, &mut best);
    }
    let body = best?;
    let words: Vec<String> = super::words(&body);
    if words.len() < MIN_BODY_WORDS {
        return None;
    }
    Some(words.into_iter().collect())
}

/// Schema.org types of an article, as JSON-LD names them.
const ARTICLE_TYPES: &[&str] = &[
    "\"Article\"",
    "\"NewsArticle\"",
    "\"BlogPosting\"",
    "\"ReportageNewsArticle\"",
    "\"OpinionNewsArticle\"",
    "\"articleBody\"",
];

/// True when the page calls itself an article: `<meta property="og:type" content="article">`
/// or a JSON-LD article type.
pub(super) fn declares_article(dom: &Dom) -> bool {
    let og = dom.elements_by_name("meta").any(|id| {
        dom.attr(id, "property")
            .is_some_and(|p| p.trim() == "og:type")
            && dom
                .attr(id, "content")
                .is_some_and(|c| c.trim().eq_ignore_ascii_case("article"))
    });
    og || dom.elements_by_name("script").any(|id| {
        dom.attr(id, "type")
            .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/ld+json"))
            && {
                let text = dom.text_content(id);
                ARTICLE_TYPES.iter().any(|t| text.contains(t))
            }
    })
}

/// Keeps the longest `articleBody` string found in `value`, depth-bounded (JSON-LD nests
/// `@graph` arrays, never deeply).
fn find_article_body(value: &serde_json::Value, depth: u32, best: &mut Option<String>) {
    if depth > 8 {
        return;
    }
    match value {
        serde_json::Value::Object(map) => {
            for (key, v) in map {
                if key == "articleBody"
                    && let Some(s) = v.as_str()
                    && best.as_ref().is_none_or(|b| s.len() > b.len())
                {
                    *best = Some(s.to_owned());
                } else {
                    find_article_body(v, depth + 1, best);
                }
            }
        }
        serde_json::Value::Array(items) => {
            for v in items {
                find_article_body(v, depth + 1, best);
            }
        }
        _ => {}
    }
}

/// Share of `block`'s words that are in `body`.
fn share_in_body(text: &str, body: &HashSet<String>) -> (usize, usize) {
    let words = super::words(text);
    let inside = words.iter().filter(|w| body.contains(*w)).count();
    (inside, words.len())
}

/// True when the content `labels` hold at least [`AGREES`] of the body's distinct words.
pub(super) fn agrees(page: &Page, labels: &[Label], body: &HashSet<String>) -> bool {
    let mut found: HashSet<&str> = HashSet::new();
    for (block, label) in page.blocks.iter().zip(labels) {
        if !label.is_content() {
            continue;
        }
        for word in super::word_tokens(&block.text) {
            let lower = word.to_lowercase();
            if let Some(w) = body.get(&lower) {
                found.insert(w.as_str());
            }
        }
    }
    found.len() as f32 >= AGREES * body.len() as f32
}

/// The blocks that are the declared body: text blocks whose words are mostly the body's, inside
/// the deepest element holding most of them (so that a teaser of the same story elsewhere on the
/// page stays out). `None` when the page's blocks do not hold the
/// body (it is drawn by script, or declared but not shown).
pub(super) fn body_blocks(
    page: &Page,
    stats: &Stats,
    body: &HashSet<String>,
) -> Option<(NodeId, Vec<bool>)> {
    let dom = &page.dom;
    let in_body: Vec<bool> = page
        .blocks
        .iter()
        .map(|b| {
            if b.kind == BlockKind::Image || b.words == 0 {
                return false;
            }
            let (inside, total) = share_in_body(&b.text, body);
            inside as f32 >= BLOCK_IN_BODY * total as f32
        })
        .collect();
    let mut per_node = vec![0u32; dom.len()];
    let mut total = 0u32;
    for (block, &yes) in page.blocks.iter().zip(&in_body) {
        if !yes {
            continue;
        }
        total += block.words;
        let mut at = Some(block.node);
        while let Some(n) = at {
            if let Some(slot) = per_node.get_mut(n as usize) {
                *slot += block.words;
            }
            at = dom.parent(n);
        }
    }
    // The page must show most of the declared body.
    if (total as usize) * 2 < body.len() {
        return None;
    }
    let needed = total * 4 / 5;
    let mut region = dom.root();
    'descend: loop {
        for child in dom.children(region) {
            if per_node.get(child as usize).copied().unwrap_or(0) >= needed.max(1) {
                region = child;
                continue 'descend;
            }
        }
        break;
    }
    if !dom.is_element(region) || dom.is_html(region, &local_name!("html")) {
        return None;
    }
    let span = stats.get(region);
    let keep = page
        .blocks
        .iter()
        .zip(&in_body)
        .map(|(block, &yes)| {
            let pre = stats.get(block.node).pre;
            let inside = span.pre <= pre && pre < span.end;
            inside && yes
        })
        .collect();
    Some((region, keep))
}
