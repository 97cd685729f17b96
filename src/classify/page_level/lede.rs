//! The article's opening set apart from its body. Reference pages and some newspapers print the
//! headline and the first paragraphs in a header box, and the body in a box beside it (MDN's
//! `layout__header` and `layout__body`, a journal's abstract above its sections): the container
//! is the body, and the opening between the headline and it was left out.

use html5ever::local_name;

use super::select::{self, NodeFacts};
use super::stats::{self, Stats};
use super::{ArticleExtraction, HEADLINE, LEDE, clean, page_label};
use crate::classify::Verdict;
use crate::dom::{Dom, NodeId};
use crate::page::{Block, BlockKind, Page};

/// Paragraphs of prose the opening needs: one alone is a standfirst or a photo's description,
/// which the collections' golds keep or drop by their own conventions (and the site's memory
/// weighs against the site's other pages); two or more are the article's first paragraphs.
const OPENING_PARAGRAPHS: usize = 2;

/// Share of link words from which a block between the headline and the container is a list of
/// links (a table of contents, a dateline's links), not the opening.
const OPENING_LINK_DENSITY: f32 = 0.5;

/// Keeps the paragraphs between the headline and the container when the two share a box below
/// `<body>`: the blocks between them are then the article's own. The gap is cleaned as a
/// container is (menus, share bars, forms, link lists go); what is left counts only when it holds
/// [`OPENING_PARAGRAPHS`] paragraphs of prose, and only when the whole gap holds fewer words than
/// the article kept (an opening is not longer than the body; a shop's grid between its title and
/// a box of questions is no opening). Headings, captions, media players' text, bylines and
/// furniture lines stay out.
pub(super) fn opening(
    page: &Page,
    stats: &Stats,
    facts: &mut NodeFacts<'_>,
    mut extraction: ArticleExtraction,
) -> ArticleExtraction {
    let dom = &page.dom;
    let Some(&main) = extraction.containers.first() else {
        return extraction;
    };
    let headline_label = page_label(Verdict::Content, HEADLINE.into());
    let Some(headline) = extraction.labels.iter().position(|l| *l == headline_label) else {
        return extraction;
    };
    let start = extraction
        .containers
        .iter()
        .map(|&c| stats.get(c).first_block as usize)
        .min()
        .unwrap_or(usize::MAX);
    let Some(gap) = page.blocks.get(headline + 1..start) else {
        return extraction;
    };
    // Most pages have no prose between headline and body: they are spared the cleaning.
    if gap.iter().filter(|b| b.is_prose()).count() < OPENING_PARAGRAPHS {
        return extraction;
    }
    let Some(shared) = dom
        .ancestors(page.blocks[headline].node)
        .find(|&n| stats.contains(n, main))
    else {
        return extraction;
    };
    if select::is_page_wrapper(dom, shared) {
        return extraction;
    }
    let removals = clean::clean(page, stats, facts, &[shared], main);
    let opening: Vec<usize> = gap
        .iter()
        .enumerate()
        .filter(|&(_, block)| {
            let pre = stats.get(block.node).pre;
            let at = removals.partition_point(|r| r.pre <= pre);
            let removed = at
                .checked_sub(1)
                .and_then(|i| removals.get(i))
                .is_some_and(|r| pre < r.end);
            !removed && reads_as_opening(block) && !in_media(dom, block.node, shared)
        })
        .map(|(offset, _)| headline + 1 + offset)
        .collect();
    let paragraphs = opening
        .iter()
        .filter(|&&i| page.blocks[i].kind == BlockKind::Paragraph)
        .count();
    let kept_words: u32 = page
        .blocks
        .iter()
        .zip(&extraction.labels)
        .filter(|(_, l)| l.is_content())
        .map(|(b, _)| b.words)
        .sum();
    // What stands between the headline and the body is shorter than the body: a shop's grid
    // with buying advice under it, far above a box of questions, is no opening.
    let gap_words: u32 = gap.iter().map(|b| b.words).sum();
    if paragraphs < OPENING_PARAGRAPHS || gap_words > kept_words {
        return extraction;
    }
    for i in opening {
        extraction.labels[i] = page_label(Verdict::Content, LEDE.into());
    }
    extraction
}

/// True for a block that may be part of an opening: a paragraph, a list entry or a quotation of
/// prose, or a code sample (a reference page's first example); not a heading (a standfirst set as
/// a subtitle), a byline, a line of links or of furniture.
fn reads_as_opening(block: &Block) -> bool {
    let prose = block.is_prose()
        && matches!(
            block.kind,
            BlockKind::Paragraph | BlockKind::ListItem | BlockKind::Quote
        );
    (prose || block.kind == BlockKind::Preformatted)
        && block.link_density() < OPENING_LINK_DENSITY
        && !clean::is_furniture_line(block)
        && !stats::looks_like_byline(block)
}

/// True when `node` sits in a figure or a media player below `shared`: a caption, or the text a
/// player shows in place of its video, describes the media, not the article.
fn in_media(dom: &Dom, node: NodeId, shared: NodeId) -> bool {
    std::iter::once(node)
        .chain(dom.ancestors(node))
        .take_while(|&n| n != shared)
        .any(|n| {
            dom.local_name(n).is_some_and(|name| {
                matches!(
                    *name,
                    local_name!("figure")
                        | local_name!("figcaption")
                        | local_name!("object")
                        | local_name!("video")
                        | local_name!("audio")
                )
            })
        })
}
