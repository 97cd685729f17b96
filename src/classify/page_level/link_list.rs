//! Pages whose text is a list of links: an index of articles, a directory, a wiki's list page, a
//! link aggregator's front page. Cleaning drops link-dense lists and lines from an article's box
//! because beside an article they are menus and related links; when they are nearly all the
//! chosen box holds and what would remain is no article, they are the page's text instead.

use super::clean::{self, Removal};
use super::select::{self, NodeFacts};
use super::stats::Stats;
use crate::dom::NodeId;
use crate::page::Page;

/// Prose words (outside the link lines) from which the box holds an article of its own, whose
/// link lists are its menus and related links.
const ARTICLE_PROSE: u32 = 150;

/// How many times the words of what would remain the link lines must hold for the box to be a
/// list of links with an introduction rather than text with links around it.
const LINKS_OVER_REST: u32 = 3;

/// Link lines per form control below which the lines are entries of an index, not cards of a
/// shop's grid: a product card carries its own controls (add to cart, a favourite, a quantity),
/// an index's entry none.
const LINE_PER_CONTROL: u32 = 4;

/// True when the link lines of `containers` (blocks whose link density is at least
/// `link_line`, inside a link-dense removal, or with a link in a list leading to other sites)
/// hold at least [`LINKS_OVER_REST`] times the words of the rest, the rest holds less than
/// [`ARTICLE_PROSE`] prose words, the containers are not the page itself, and they carry few
/// form controls.
pub(super) fn is_link_list(
    page: &Page,
    stats: &Stats,
    facts: &mut NodeFacts<'_>,
    containers: &[NodeId],
    removals: &[Removal],
    link_line: f32,
) -> bool {
    if containers
        .first()
        .is_none_or(|&c| select::is_page_wrapper(&page.dom, c))
    {
        return false;
    }
    let mut linked = 0u32;
    let mut link_lines = 0u32;
    let mut rest = 0u32;
    let mut rest_prose = 0u32;
    for &container in containers {
        for block in stats.blocks_of(page, container) {
            if block.words == 0 {
                continue;
            }
            let pre = stats.get(block.node).pre;
            match clean::removal_at(removals, pre) {
                Some(r) if r.reason.starts_with(clean::LINK_DENSE_REMOVAL) => {
                    linked += block.words;
                    link_lines += 1;
                }
                Some(_) => {}
                // A line with a link in a list leading to other sites stays for being the
                // article's, and is a link line all the same.
                None if block.link_density() >= link_line
                    || block.link_words > 0
                        && facts.in_list_leading_elsewhere(page, stats, block.node) =>
                {
                    linked += block.words;
                    link_lines += 1;
                }
                None => {
                    rest += block.words;
                    if block.is_prose() {
                        rest_prose += block.words;
                    }
                }
            }
        }
    }
    let controls: u32 = containers.iter().map(|&c| stats.get(c).controls).sum();
    link_lines > 0
        && rest_prose < ARTICLE_PROSE
        && linked >= LINKS_OVER_REST * rest.max(1)
        && controls * LINE_PER_CONTROL <= link_lines
}
