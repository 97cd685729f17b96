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
//! 3. Inside the article, a block the tree has seen on a large share of the site's pages is
//!    template text ("Advertisement", "Share this story") and goes; a block that repeats on only a
//!    few pages (a byline, a date, a recurring sign-off) looks like article text and stays.

use crate::classify::article::{self, ArticleExtraction};
use crate::classify::signature;
use crate::classify::{Label, Reason, Verdict, is_all_link_text};
use crate::dom::NodeId;
use crate::page::Page;
use crate::urltree::{Branch, NodeStats};

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

/// The container the site agrees on, as found in this page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Agreement {
    /// The element in this page.
    pub node: NodeId,
    /// Its signature.
    pub signature: String,
    /// The tree node whose pages agreed.
    pub tree_node: String,
    /// How many of them had their article there.
    pub count: u32,
    /// How many pages that tree node has.
    pub support: u32,
}

/// The deepest node of the branch with enough pages to speak for the site.
fn deciding_node(branch: &Branch) -> Option<&NodeStats> {
    branch.nodes.iter().rev().find(|n| n.support > MIN_SUPPORT)
}

/// Finds the container the site's pages agree on in this page: at the deepest node with enough
/// pages where one exists, the signature found in this page that most of its pages chose.
pub fn agreed_container(page: &Page, branch: &Branch) -> Option<Agreement> {
    for node in branch
        .nodes
        .iter()
        .rev()
        .filter(|n| n.support > MIN_SUPPORT)
    {
        let mut present: Vec<(&String, u32, NodeId)> = Vec::new();
        for (sig, count) in &node.containers {
            // Several elements can share a signature (repeated widgets): take the one holding
            // the most words.
            let best = signature::find(&page.dom, sig)
                .into_iter()
                .map(|n| (words_inside(page, n), n))
                .max();
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

/// Words of the blocks inside `node`.
fn words_inside(page: &Page, node: NodeId) -> u32 {
    page.blocks
        .iter()
        .filter(|b| b.node == node || page.dom.ancestors(b.node).any(|a| a == node))
        .map(|b| b.words)
        .sum()
}

fn label(verdict: Verdict, why: String) -> Label {
    Label {
        verdict,
        reason: Reason::Page {
            extractor: NAME,
            why,
        },
    }
}

/// Labels `page` with the site-aware rule. `branch` is the page's branch in its site's tree (the
/// page already inserted), `None` without a URL; `page_level` is pith-page's result on this page.
pub fn classify(
    page: &Page,
    branch: Option<&Branch>,
    page_level: &ArticleExtraction,
) -> Vec<Label> {
    let Some(branch) = branch else {
        return page_level.labels.clone();
    };
    let Some(decider) = deciding_node(branch) else {
        // A young site: the page-level extractor alone.
        return page_level.labels.clone();
    };
    let agreement = agreed_container(page, branch);
    let base = match &agreement {
        Some(a) if page_level.containers.first() != Some(&a.node) => {
            article::extract_in(page, a.node)
        }
        _ => page_level.clone(),
    };
    let template_count = (TEMPLATE_SHARE * f64::from(decider.support)).ceil() as u32;
    page.blocks
        .iter()
        .zip(base.labels)
        .map(|(block, base_label)| {
            if !base_label.is_content() {
                return base_label;
            }
            let count = decider.count(&block.hash);
            if count >= template_count.max(2) && count > 1 {
                return label(
                    Verdict::Boilerplate,
                    format!(
                        "template text: seen on {count} of {} pages at {}",
                        decider.support, decider.path
                    ),
                );
            }
            if is_all_link_text(block) && count > 1 {
                return label(
                    Verdict::Boilerplate,
                    format!("repeated link ({count} pages at {})", decider.path),
                );
            }
            match &agreement {
                Some(a) => label(
                    Verdict::Content,
                    format!(
                        "in the site's article container {} ({} of {} pages at {}); {}",
                        a.signature, a.count, a.support, a.tree_node, base_label.reason
                    ),
                ),
                None => base_label,
            }
        })
        .collect()
}
