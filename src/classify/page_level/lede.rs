//! The article's opening set apart from its body. Reference pages and some newspapers print the
//! headline and the first paragraphs in a header box, and the body in a box beside it (MDN's
//! `layout__header` and `layout__body`, a journal's abstract above its sections): the container
//! is the body, and the opening between the headline and it was left out.

use html5ever::local_name;

use super::select::{self, NodeFacts};
use super::stats::{self, Stats};
use super::{
    ArticleExtraction, LEDE, clean, first_block_of, is_headline, kept_words, page_label, widen,
};
use crate::classify::Verdict;
use crate::dom::{Dom, NodeId};
use crate::page::{Block, BlockKind, Page};

/// Paragraphs of prose the opening needs: one alone is a standfirst or a photo's description,
/// which the collections' golds keep or drop by their own conventions (and the site's memory
/// weighs against the site's other pages); two or more are the article's first paragraphs.
const OPENING_PARAGRAPHS: usize = 2;

/// Share of link words from which a heading between the headline and the container is another
/// story's linked title: the opening ends there, and the teasers after it are not the article's.
const TEASER_TITLE_LINKS: f32 = 0.5;

/// Keeps the paragraphs between the headline and the container when the two share a box below
/// `<body>`: the blocks between them are then the article's own, but for page furniture inside
/// that box (a site's banner when the box wraps the whole page). The whole gap must hold no more
/// words than the article kept (an opening is not longer than the body; a shop's grid between
/// its title and a box of questions is no opening). The gap is cleaned as a container is (menus,
/// share bars, forms, link lists go); what is left counts only when it holds
/// [`OPENING_PARAGRAPHS`] paragraphs of prose. The opening ends at a linked heading (another
/// story's title); headings, captions, media players' text and bylines stay out.
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
    let Some(headline) = extraction.labels.iter().position(is_headline) else {
        return extraction;
    };
    let start = first_block_of(stats, &extraction.containers);
    let Some(gap) = page.blocks.get(headline + 1..start) else {
        return extraction;
    };
    // Most pages have no prose between headline and body: they are spared the rest.
    if gap.iter().filter(|b| b.is_prose()).count() < OPENING_PARAGRAPHS {
        return extraction;
    }
    let gap_words: u32 = gap.iter().map(|b| b.words).sum();
    if gap_words > kept_words(page, &extraction.labels).all {
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
    // Only the part before the article: the container was cleaned already.
    let before = page
        .blocks
        .get(start)
        .map_or(u32::MAX, |b| stats.get(b.node).pre);
    let removals = clean::clean_before(page, stats, facts, &[shared], main, before);
    let mut lines = Vec::new();
    for (offset, block) in gap.iter().enumerate() {
        if matches!(block.kind, BlockKind::Heading(_)) && block.link_density() >= TEASER_TITLE_LINKS
        {
            break;
        }
        let removed = clean::removal_at(&removals, stats.get(block.node).pre).is_some();
        if !removed && reads_as_opening(block) && !in_media_or_furniture(dom, block.node, shared) {
            lines.push(headline + 1 + offset);
        }
    }
    let paragraphs = lines
        .iter()
        .filter(|&&i| page.blocks[i].kind == BlockKind::Paragraph)
        .count();
    if paragraphs < OPENING_PARAGRAPHS {
        return extraction;
    }
    for i in lines {
        extraction.labels[i] = page_label(Verdict::Content, LEDE.into());
    }
    extraction
}

/// True for a block that may be part of an opening: a paragraph, a list entry or a quotation of
/// prose (at most a third of it links), or a code sample (a reference page's first example); not
/// a heading (a standfirst set as a subtitle) or a byline.
fn reads_as_opening(block: &Block) -> bool {
    let prose = block.is_prose()
        && matches!(
            block.kind,
            BlockKind::Paragraph | BlockKind::ListItem | BlockKind::Quote
        )
        && !stats::looks_like_byline(block);
    prose || block.kind == BlockKind::Preformatted
}

/// True when `node` sits in a caption, a media player or page furniture below `shared`: a
/// caption, or the text a player shows in place of its video, describes the media, not the
/// article; a banner, a menu or an aside is the site's. (A `<figure>` alone does not count: blogs
/// set code samples and pull quotes in figures.)
fn in_media_or_furniture(dom: &Dom, node: NodeId, shared: NodeId) -> bool {
    std::iter::once(node)
        .chain(dom.ancestors(node))
        .take_while(|&n| n != shared)
        .any(|n| {
            dom.local_name(n).is_some_and(|name| {
                matches!(
                    *name,
                    local_name!("figcaption")
                        | local_name!("object")
                        | local_name!("video")
                        | local_name!("audio")
                )
            }) || widen::is_furniture_element(dom, n)
        })
}
