//! Never blank: when what the extractor kept is a small part of the page's prose, the choice was
//! wrong (a subscription modal, one post of a thread, the teaser of a list), and a reader is
//! better served by the page's prose region than by a nearly empty pane. This step finds that
//! region (the smallest element holding most of the page's prose, outside navigation and page
//! furniture) and keeps its text instead, recall first.

use html5ever::local_name;

use super::Pick;
use super::clean;
use super::select::NodeFacts;
use super::stats::{self, Stats};
use crate::classify::Label;
use crate::dom::{Dom, NodeId};
use crate::page::{BlockKind, Page};

/// Pages with less prose than this (in words, outside navigation) have too little to judge
/// from: a short page's extraction stands as it is.
const MIN_PAGE_PROSE: u32 = 60;

/// The extraction is starved when it keeps less than this share of the page's prose.
const STARVED_SHARE: f32 = 0.3;

/// The prose region is the deepest element holding at least this share of the page's prose.
const REGION_SHARE: f32 = 0.7;

/// Link density from which a block inside the widened region is a link (a menu entry, a
/// "Reply" button) rather than text; looser than the container's rule, because a widened region
/// is a thread or a list whose titles are links.
const REGION_LINK_LINE: f32 = 0.9;

/// A decision to widen: the region that replaces the chosen containers, and why.
pub(super) struct Widening {
    /// The element whose text is kept.
    pub region: NodeId,
    /// Prose words the first extraction kept.
    pub kept: u32,
    /// Prose words of the page outside navigation, furniture, its footer and the offers beside
    /// the first choice (see [`prose_per_node`]).
    pub page: u32,
    /// Prose words inside the region.
    pub inside: u32,
    /// The box first chosen, when it is the page's opening and stays beside the region (see
    /// [`opening_before`]).
    pub opening: Option<NodeId>,
}

/// True for elements whose text is navigation or page furniture wherever they stand (a consent
/// manager's box among them): their prose does not count as the page's, and the widened region
/// never keeps it.
pub(super) fn is_furniture_element(dom: &Dom, id: NodeId) -> bool {
    let Some(name) = dom.local_name(id) else {
        return false;
    };
    if matches!(
        *name,
        local_name!("nav")
            | local_name!("footer")
            | local_name!("aside")
            | local_name!("header")
            | local_name!("button")
            | local_name!("select")
            | local_name!("dialog")
    ) {
        return true;
    }
    // One pass over the attributes: most boxes of a page are asked, many of them several times.
    // (An element has one attribute of each name, but for a foreign one such as SVG's
    // `xlink:role`, which the DOM keeps by its local name and which counts here too.)
    dom.attrs(id).iter().any(|(attr, value)| match *attr {
        local_name!("role") => matches!(
            value.trim(),
            "navigation" | "dialog" | "alertdialog" | "banner"
        ),
        local_name!("aria-modal") => value.trim() == "true",
        local_name!("id") | local_name!("class") => super::hints::value_names_consent(value),
        _ => false,
    })
}

/// Below this many prose words the first extraction is no article at all, and every prose
/// region of the page may replace it. From this many on it is an article, and only prose that
/// nothing marks as around an article (comments, sidebars, alike items with bylines) may: a
/// news story's comment thread is often longer than the story.
pub(super) const ARTICLE_WORDS: u32 = 50;

/// The page's prose as widening weighs it (see [`prose_per_node`]).
struct PageProse {
    /// Per node, the prose words below it that count.
    per_node: Vec<u32>,
    /// The page's prose words that count.
    total: u32,
    /// Of the prose the first extraction kept, the words inside the page's footer as its name
    /// places it ([`names_the_page_footer`]): the footer's prose is not the page's, on the kept
    /// side either.
    kept_in_footer: u32,
}

/// The prose words below each node that are not inside furniture, a box laid over the page or
/// asking for an email address, the page's footer as its name places it
/// ([`names_the_page_footer`]) or an offer to subscribe beside the first choice
/// ([`is_an_offer_beside`]; nor, when `strict`, in a comment, a sidebar or one of many alike
/// items with bylines), and the page's total of them. `first` and `containers` are
/// the first extraction's; `teaser_page` says it found a section front of teasers, whose
/// teasers (all that [`super::teasers`] marks) were judged already.
fn prose_per_node(
    page: &Page,
    stats: &Stats,
    facts: &mut NodeFacts<'_>,
    strict: bool,
    teaser_page: bool,
    first: &[Label],
    containers: &[NodeId],
) -> PageProse {
    let dom = &page.dom;
    let mut per_node = vec![0u32; dom.len()];
    // 0 = unknown, 1 = clear, 2 = inside furniture or an offer beside the first choice, 3 =
    // inside the page's footer as its name places it; filled on the way up, once per node.
    let mut marks = vec![0u8; dom.len()];
    let footer_place = FooterPlace::of(page, containers, strict);
    let mut kept_in_footer = 0;
    let mut total = 0;
    let mut previous: Option<&crate::page::Block> = None;
    // The teasers' marks are read only on a section front, the one page that uses them.
    let teaser_marks: Box<dyn Iterator<Item = bool>> = if teaser_page {
        Box::new(super::teasers(page))
    } else {
        Box::new(std::iter::repeat(false))
    };
    for ((block, label), marked) in page.blocks.iter().zip(first).zip(teaser_marks) {
        // A summary right under a linked headline, or a list entry that links its own headline,
        // is a teaser of another page: when an article was found, teasers around it are no
        // reason to widen. On a section front, so is every teaser its verdict judged (one under
        // its author's line too). Elsewhere that looser reading would pass over a manual's
        // paragraphs under a linked term and the line naming it.
        let teaser = marked
            || previous.is_some_and(|p| p.words > 0 && p.link_density() >= 0.8)
            || (block.kind == BlockKind::ListItem
                && block.link_words >= super::grid::TITLE_LINK_WORDS);
        if block.kind != BlockKind::Image {
            previous = Some(block);
        }
        if !stats::is_prose(block) || super::in_comment_section(label) || (strict && teaser) {
            continue;
        }
        let set_apart = ancestor_mark(dom, &mut marks, block.node, dom.root(), |n| {
            if is_furniture_element(dom, n)
                || facts.is_overlay(stats, footer_place.total_blocks, n)
                || facts.is_sign_up(n)
                || facts.is_other_story(stats, n)
            {
                2
            } else if names_the_page_footer(stats, facts, &footer_place, n) {
                3
            } else if is_an_offer_beside(dom, stats, facts, &footer_place, n) {
                2
            } else {
                1
            }
        });
        if set_apart == 3 && label.is_content() {
            kept_in_footer += block.words;
        }
        if set_apart >= 2 {
            continue;
        }
        if strict && around_an_article(page, stats, facts, block.node) {
            continue;
        }
        total += block.words;
        let mut node = Some(block.node);
        while let Some(n) = node {
            if let Some(slot) = per_node.get_mut(n as usize) {
                *slot += block.words;
            }
            node = dom.parent(n);
        }
    }
    PageProse {
        per_node,
        total,
        kept_in_footer,
    }
}

/// Where the first extraction's choice stands, which places the page's footer (see
/// [`names_the_page_footer`]: after the article the first extraction chose, or around the page's
/// last prose) and the offers beside that choice (see [`is_an_offer_beside`]).
struct FooterPlace<'a> {
    /// The first extraction's containers (the chosen one first).
    containers: &'a [NodeId],
    /// Whether the box first chosen is an article (see `strict` in [`prose_per_node`]): only
    /// then does standing after it place a box at the page's end. After a wrong choice (an
    /// offer printed first) the article itself stands after it.
    chosen_is_article: bool,
    /// The element of the page's last prose block.
    last_prose: Option<NodeId>,
    /// The page's blocks, to tell the page's wrappers (see [`super::select::wraps_the_page`]).
    total_blocks: u32,
}

impl<'a> FooterPlace<'a> {
    fn of(page: &Page, containers: &'a [NodeId], chosen_is_article: bool) -> Self {
        FooterPlace {
            containers,
            chosen_is_article,
            last_prose: page
                .blocks
                .iter()
                .rev()
                .find(|b| stats::is_prose(b))
                .map(|b| b.node),
            total_blocks: page.blocks.len() as u32,
        }
    }
}

/// True when `node` is the page's footer as its name and place say: the first negative word of
/// its `class` or `id` names a footer (`site-footer`, `#footer`), it does not wrap the page, and
/// it stands where a page's footer stands: wholly after the box first chosen when that box is an
/// article (holding none of the first extraction's boxes), or around the page's last prose. HTML's
/// `<footer>` says as much by its tag (see [`is_furniture_element`]); a page built of `<div>`s
/// says it only so. The fine print, the newsletter's pitch and the towns served that such a
/// footer holds are not the page's prose: counted, they starve the article, and widening keeps
/// the footer. What the first extraction kept of it is left out of what it kept as well (see
/// [`PageProse::kept_in_footer`]): a footer chosen for want of an article starves the page, and
/// a box named so inside the article (an entry's footer closing it) weighs on neither side.
fn names_the_page_footer(
    stats: &Stats,
    facts: &mut NodeFacts<'_>,
    place: &FooterPlace<'_>,
    node: NodeId,
) -> bool {
    if facts.hint(node).negative != Some("footer")
        || super::select::wraps_the_page(stats, place.total_blocks, node)
    {
        return false;
    }
    let after_the_article = place.chosen_is_article
        && place.containers.first().is_some_and(|&chosen| {
            stats.get(node).pre >= stats.get(chosen).end
                && !place.containers.iter().any(|&c| stats.contains(node, c))
        });
    after_the_article
        || place
            .last_prose
            .is_some_and(|last| stats.contains(node, last))
}

/// True when `node` is an offer to subscribe or sign up beside what the first extraction chose
/// (see [`super::hints::names_an_offer`]): it holds none of the first extraction's boxes and does
/// not wrap the page. A newsletter's pitch or a paywall's prompt printed on a page of short lines
/// (a shop's grid, a listing's cards) would otherwise count as the page's prose, starve what was
/// kept, and tip widening into a region that holds the prompt. A box so named around the first
/// choice (an article a site wraps in `subscriber-content`) still counts.
fn is_an_offer_beside(
    dom: &Dom,
    stats: &Stats,
    facts: &mut NodeFacts<'_>,
    place: &FooterPlace<'_>,
    node: NodeId,
) -> bool {
    super::hints::names_an_offer(dom, node, &facts.hint(node))
        && !super::select::wraps_the_page(stats, place.total_blocks, node)
        && !place.containers.iter().any(|&c| stats.contains(node, c))
}

/// Negative class words that mark a comment thread: the prose a news story's page holds beside
/// the story, often more of it than the story.
const COMMENT_WORDS: &[&str] = &["comment", "disqus"];

/// True when the element's own class or id names a comment thread (see [`COMMENT_WORDS`]).
pub(super) fn names_comment(facts: &mut NodeFacts<'_>, node: NodeId) -> bool {
    facts
        .hint(node)
        .negative
        .is_some_and(|w| COMMENT_WORDS.contains(&w))
}

/// True when `node` is in a comment (by its class, or as one of many alike items with bylines).
fn around_an_article(page: &Page, stats: &Stats, facts: &mut NodeFacts<'_>, node: NodeId) -> bool {
    let mut at = Some(node);
    while let Some(n) = at {
        if facts.is_repeated_item(stats, n) || names_comment(facts, n) {
            return true;
        }
        at = page.dom.parent(n);
    }
    false
}

/// True when `container` is, or sits in, a comment or one of many alike items whose siblings
/// hold at least as much prose again: one post of a thread, one entry of a list. (A layout
/// table's row is one of many alike items too, but its siblings hold no prose.)
pub(super) fn one_of_many(
    page: &Page,
    stats: &Stats,
    facts: &mut NodeFacts<'_>,
    container: NodeId,
) -> bool {
    let dom = &page.dom;
    let mut at = Some(container);
    while let Some(n) = at {
        let Some(parent) = dom.parent(n) else { break };
        if super::select::is_page_wrapper(dom, parent) {
            break;
        }
        if (facts.is_repeated_item(stats, n) || facts.hint(n).is_negative())
            && stats.get(parent).prose_words >= 2 * stats.get(n).prose_words.max(1)
        {
            return true;
        }
        at = Some(parent);
    }
    false
}

/// Decides whether `labels` starve the page, and if so which region to keep instead.
pub(super) fn starved(
    page: &Page,
    stats: &Stats,
    facts: &mut NodeFacts<'_>,
    labels: &[Label],
    containers: &[NodeId],
    teaser_page: bool,
) -> Option<Widening> {
    let kept = super::kept_words(page, labels).prose;
    // Cheap bound first: the page's prose with furniture is at least its prose without.
    let all_prose = stats.get(page.dom.root()).prose_words;
    if (all_prose as f32) * STARVED_SHARE <= kept as f32 || all_prose < MIN_PAGE_PROSE {
        return None;
    }
    // A container that is itself a comment or one of many alike items is one post of a thread
    // or one entry of a list: the rest of the thread is the page's text, not what surrounds it.
    let one_of_many = containers
        .first()
        .is_some_and(|&c| one_of_many(page, stats, facts, c));
    let strict =
        teaser_page || (kept >= ARTICLE_WORDS && !one_of_many && !facts.declares_discussion(page));
    let PageProse {
        per_node,
        total,
        kept_in_footer,
    } = prose_per_node(page, stats, facts, strict, teaser_page, labels, containers);
    // Prose kept in the page's footer (its fine print, chosen for want of an article) is not the
    // page's prose, and was not kept as such: weighed on one side only, it would hide that the
    // article went unkept.
    let kept = kept.saturating_sub(kept_in_footer);
    if total < MIN_PAGE_PROSE || total as f32 * STARVED_SHARE <= kept as f32 {
        return None;
    }
    let dom = &page.dom;
    let needed = (total as f32 * REGION_SHARE).ceil() as u32;
    let region = super::deepest_holding(dom, &per_node, needed);
    let inside = per_node.get(region as usize).copied().unwrap_or(0);
    // The region must bring real prose back, not the same few paragraphs.
    // Nor may it hold less prose than all the text kept: an extraction of short lines (a
    // product's specifications, a list) is not starved for having no prose. A menu's links do
    // not count as text kept: an extraction of menus is starved however many entries they hold
    // (an index's linked titles do count: the index is the page's text).
    if inside < kept.saturating_mul(2)
        || !dom.is_element(region)
        || inside < super::kept_outside_menus(page, labels)
    {
        return None;
    }
    Some(Widening {
        region,
        kept,
        page: total,
        inside,
        opening: opening_before(page, stats, region, labels, containers),
    })
}

/// The reason of the blocks of the opening (see [`opening_before`]) kept beside the widened
/// region.
pub(super) const OPENING: &str =
    "widened: the article chosen first, before the page's prose region, is its opening";

/// The box the first extraction chose, when it is the page's opening rather than a wrong choice:
/// it stands wholly before the widened region (a course's details above its lecture table, a
/// product's summary above its key points), it kept an article's worth of prose of its own
/// ([`ARTICLE_WORDS`]), and it is not in furniture (a modal that is a dialog or names a consent
/// manager). A box chosen after the region (a footer's legal notice), or too short to be an
/// article (a subscription line), was the wrong choice, and only the region is kept. (One of
/// many alike boxes may be an opening: a course page's sections are alike boxes, and the teaser
/// of a list the region holds stands inside the region, not before it.)
fn opening_before(
    page: &Page,
    stats: &Stats,
    region: NodeId,
    labels: &[Label],
    containers: &[NodeId],
) -> Option<NodeId> {
    let dom = &page.dom;
    let &chosen = containers.first()?;
    if stats.get(chosen).end > stats.get(region).pre {
        return None;
    }
    let prose: u32 = page
        .blocks
        .iter()
        .zip(labels)
        .filter(|(block, label)| {
            label.is_content() && stats::is_prose(block) && stats.contains(chosen, block.node)
        })
        .map(|(block, _)| block.words)
        .sum();
    if prose < ARTICLE_WORDS
        || std::iter::once(chosen)
            .chain(dom.ancestors(chosen))
            .any(|n| is_furniture_element(dom, n))
    {
        return None;
    }
    Some(chosen)
}

/// Which blocks the widened region keeps: its text and images, but for what sits in furniture,
/// in a comment section, in a box named for what stands around an article (see
/// [`sets_apart_as_surroundings`]), in a box laid over the page (see [`NodeFacts::is_overlay`])
/// or in one asking for an email address (see [`NodeFacts::is_sign_up`]), and for remarks on
/// posts, furniture lines and lines that are nothing but links; the headline wherever it
/// stands; and outside the region, what the first extraction kept of the opening beside it, if
/// there is one (see [`opening_before`]).
pub(super) fn keep(
    page: &Page,
    stats: &Stats,
    facts: &mut NodeFacts<'_>,
    widening: &Widening,
    first: &[Label],
) -> Vec<Pick> {
    let dom = &page.dom;
    let region = stats.get(widening.region);
    let remarks = remarks_on_posts(page, stats, facts, widening.region);
    let why = format!(
        "widened: the chosen container kept {} of the page's {} prose words; region {} holds {}",
        widening.kept,
        widening.page,
        super::select::describe(dom, widening.region),
        widening.inside
    );
    // Per node (see `ancestor_mark`): 1 clear, 2 furniture, 3 named for what surrounds an
    // article, 4 laid over the page, 5 asking for an email address, 6 another story.
    let mut set_apart: Vec<u8> = vec![0; dom.len()];
    let total_blocks = page.blocks.len() as u32;
    page.blocks
        .iter()
        .enumerate()
        .map(|(index, block)| {
            let pre = stats.get(block.node).pre;
            if pre < region.pre || pre >= region.end {
                // The opening keeps what the first extraction kept of it.
                let in_opening = widening
                    .opening
                    .is_some_and(|o| stats.contains(o, block.node));
                return if in_opening && first.get(index).is_some_and(Label::is_content) {
                    Pick::Keep(OPENING.into())
                } else {
                    Pick::Outside
                };
            }
            match ancestor_mark(dom, &mut set_apart, block.node, widening.region, |n| {
                if is_furniture_element(dom, n) {
                    2
                } else if sets_apart_as_surroundings(stats, facts, n, widening.region) {
                    3
                } else if facts.is_overlay(stats, total_blocks, n) {
                    4
                } else if facts.is_sign_up(n) {
                    5
                } else if facts.is_other_story(stats, n) {
                    6
                } else {
                    1
                }
            }) {
                2 => return Pick::Drop("widened: navigation or page furniture inside the region"),
                3 => return Pick::Drop("widened: a box named for what stands around an article"),
                4 => return Pick::Drop("widened: a box laid over the page inside the region"),
                5 => return Pick::Drop("widened: a box asking for an email address"),
                6 => return Pick::Drop("widened: another story inside the region"),
                _ => {}
            }
            if first.get(index).is_some_and(super::in_comment_section) {
                return Pick::Drop(super::COMMENTS);
            }
            if remarks.get(index).copied().unwrap_or(false) {
                return Pick::Drop("widened: a comment on a post inside the region");
            }
            if block.kind != BlockKind::Image {
                if block.words == 0 || clean::is_furniture_line(block) {
                    return Pick::Drop("widened: a furniture line inside the region");
                }
                if block.link_density() >= REGION_LINK_LINE
                    && !heads_a_summary(page, stats, index, region.end)
                {
                    return Pick::Drop("widened: link text inside the region");
                }
            }
            Pick::Keep(why.clone())
        })
        .collect()
}

/// Words of a post's own text (outside comment boxes) from which the comment boxes inside it are
/// remarks on the post rather than posts themselves.
const POST_WORDS: u32 = 30;

/// Per block of the page: true when the block sits in a box named a comment (see
/// [`COMMENT_WORDS`]) that is itself inside a box, below `region`, holding a post's own text
/// outside every comment box. That is a remark attached to a post (the comments under a question
/// or an answer), not a post of the thread: a thread whose posts are all named comments (one
/// forum software names every post so) has no text outside its comment boxes, and keeps them.
fn remarks_on_posts(
    page: &Page,
    stats: &Stats,
    facts: &mut NodeFacts<'_>,
    region: NodeId,
) -> Vec<bool> {
    let dom = &page.dom;
    let bounds = stats.get(region);
    let mut remarks = vec![false; page.blocks.len()];
    // Per block, its nearest comment box below the region (if any).
    let mut boxes: Vec<Option<NodeId>> = vec![None; page.blocks.len()];
    let mut own_text = vec![0u32; dom.len()];
    let mut any = false;
    for (index, block) in page.blocks.iter().enumerate() {
        let pre = stats.get(block.node).pre;
        if pre < bounds.pre || pre >= bounds.end {
            continue;
        }
        let mut at = Some(block.node);
        while let Some(n) = at {
            if n == region {
                break;
            }
            if dom.is_element(n) && names_comment(facts, n) {
                boxes[index] = Some(n);
                any = true;
                break;
            }
            at = dom.parent(n);
        }
        if boxes[index].is_none() && stats::is_prose(block) {
            let mut at = Some(block.node);
            while let Some(n) = at {
                if n == region {
                    break;
                }
                own_text[n as usize] += block.words;
                at = dom.parent(n);
            }
        }
    }
    if !any {
        return remarks;
    }
    for (index, comment_box) in boxes.iter().enumerate() {
        let Some(comment_box) = *comment_box else {
            continue;
        };
        let mut at = dom.parent(comment_box);
        while let Some(n) = at {
            if n == region {
                break;
            }
            if own_text[n as usize] >= POST_WORDS {
                remarks[index] = true;
                break;
            }
            at = dom.parent(n);
        }
    }
    remarks
}

/// Words from which the line under a linked title is its entry's summary.
const SUMMARY_WORDS: u32 = 8;

/// Most words of a tag line: a card's category link between its title and its summary.
const TAG_WORDS: u32 = 3;

/// Link density from which a short line is all link (a tag), not a line of text with a link.
const TAG_LINK_DENSITY: f32 = 0.9;

/// True for a card's tag line (`PC Gaming`, `News`): a link of at most [`TAG_WORDS`] words,
/// which a listing prints between an entry's title and its summary.
fn is_tag_line(block: &crate::page::Block) -> bool {
    block.words <= TAG_WORDS && block.link_density() >= TAG_LINK_DENSITY
}

/// True when the link line at `index` is an entry's title: the next text block (past a tag
/// line, see [`is_tag_line`]), still inside the region (pre-order index below `end`), is a
/// summary of its own words, not another link. The widened region is then a list of entries,
/// and their titles are what the list says.
pub(super) fn heads_a_summary(page: &Page, stats: &Stats, index: usize, end: u32) -> bool {
    let Some(title) = page.blocks.get(index) else {
        return false;
    };
    if title.words < super::grid::TITLE_LINK_WORDS {
        return false;
    }
    let mut lines = page.blocks[index + 1..]
        .iter()
        .filter(|b| b.kind != BlockKind::Image && b.words > 0);
    // One tag line is passed over; a run of short links is a menu, not a card's tag.
    let next = match lines.next() {
        Some(line) if is_tag_line(line) => lines.next(),
        other => other,
    };
    next.is_some_and(|next| {
        next.words >= SUMMARY_WORDS && next.link_density() < 0.5 && stats.get(next.node).pre < end
    })
}

/// True when element `id`, inside `region`, is set apart from the region's text as what stands
/// around an article: its class or id says so (a share bar, a related-stories box, a modal; see
/// [`Hint::names_surroundings`](super::hints::Hint::names_surroundings)). Not when it is mostly
/// a quotation (an embedded post may call itself `social-embed`) or holds half the region's
/// prose or more: a post's wrapper that carries its category's slug (`category-social-media`)
/// is the post, and a name cannot outweigh that much text. (Holding the first extraction's
/// container spares nothing: that choice starved, and is often the very modal.)
pub(super) fn sets_apart_as_surroundings(
    stats: &Stats,
    facts: &mut NodeFacts<'_>,
    id: NodeId,
    region: NodeId,
) -> bool {
    let a = stats.get(id);
    facts.hint(id).names_surroundings()
        && !stats::is_quotation(&a)
        && a.prose_words * 2 < stats.get(region).prose_words.max(1)
}

/// The mark of `id` below `region`: that of its outermost ancestor (itself included, `region`
/// excluded) that `mark` marks (any value above 1), else 1; below a marked box nothing is asked
/// again, so a share bar inside a comment is the comment's. `cache` holds every node's answer
/// once known (0: not yet), so that the blocks of one page cost one look at each element in all.
pub(super) fn ancestor_mark(
    dom: &Dom,
    cache: &mut [u8],
    id: NodeId,
    region: NodeId,
    mut mark: impl FnMut(NodeId) -> u8,
) -> u8 {
    let mut path = Vec::new();
    let mut node = Some(id);
    let mut inherited = 1;
    while let Some(n) = node {
        if n == region {
            break;
        }
        match cache.get(n as usize) {
            Some(0) => path.push(n),
            Some(&v) => {
                inherited = v;
                break;
            }
            None => break,
        }
        node = dom.parent(n);
    }
    for &n in path.iter().rev() {
        if inherited == 1 {
            inherited = mark(n);
        }
        cache[n as usize] = inherited;
    }
    inherited
}

#[cfg(test)]
mod tests {
    use url::Url;

    use super::*;
    use crate::page::page_from_html;

    /// A question-and-answer page: per answer, its paragraphs and the short comments readers
    /// left under it (`li.comment`), as Stack Exchange builds them.
    fn answers_page() -> String {
        let answers: String = (1..=3)
            .map(|n| {
                let remarks: String = (1..=3)
                    .map(|c| {
                        format!(
                            "<li class=comment><span class=comment-copy>Remark {n}.{c}: thanks, \
                             this worked for me too.</span> <a href=/u/{c}>user{c}</a></li>"
                        )
                    })
                    .collect();
                let text: String = (1..=3)
                    .map(|p| {
                        format!(
                            "<p>Answer {n}, paragraph {p}: plan the food, the serving line and \
                             the cleaning up before the day, and check everything twice.</p>"
                        )
                    })
                    .collect();
                format!(
                    "<div class=answer><div class=post-layout><div class=s-prose>{text}</div>\
                     <div class=comments><ul class=comments-list>{remarks}</ul></div></div></div>"
                )
            })
            .collect();
        format!("<html><body><div id=answers><h2>3 Answers</h2>{answers}</div></body></html>")
    }

    /// A forum thread whose every post is named a comment (as Invision's `ipsComment`).
    fn comment_named_thread() -> String {
        let posts: String = (1..=3)
            .map(|n| {
                format!(
                    "<article class=ipsComment><p>Post {n}: my first telescope was a small \
                     refractor, and I would buy the same again for the clear views.</p>\
                     </article>"
                )
            })
            .collect();
        format!("<html><body><div id=answers>{posts}</div></body></html>")
    }

    /// The text of the blocks `keep` keeps when the widened region is `#answers`.
    fn kept_in_answers(html: &str) -> Vec<String> {
        let base = Url::parse("https://example.com/q/1").ok();
        let page = page_from_html(html, base.as_ref());
        let stats = Stats::compute(&page);
        let mut facts = NodeFacts::new(&page.dom);
        let region = page
            .dom
            .element_with_id("answers")
            .expect("the page has #answers");
        let widening = Widening {
            region,
            kept: 0,
            page: 0,
            inside: 0,
            opening: None,
        };
        let first = labels_keeping(&page, &[]);
        keep(&page, &stats, &mut facts, &widening, &first)
            .iter()
            .zip(&page.blocks)
            .filter(|(pick, _)| matches!(pick, Pick::Keep(_)))
            .map(|(_, block)| block.text.clone())
            .collect()
    }

    /// Labels keeping every block of `page` whose text holds one of `kept`, the rest not.
    fn labels_keeping(page: &Page, kept: &[&str]) -> Vec<Label> {
        page.blocks
            .iter()
            .map(|block| Label {
                verdict: if kept.iter().any(|k| block.text.contains(k)) {
                    crate::classify::Verdict::Content
                } else {
                    crate::classify::Verdict::Boilerplate
                },
                reason: crate::classify::Reason::Page {
                    extractor: "test",
                    why: "first".into(),
                },
            })
            .collect()
    }

    /// Whether an extraction keeping the blocks that hold one of `kept`, in the container of id
    /// `container`, is starved, and for which region (its id).
    fn widened_to(html: &str, container: &str, kept: &[&str]) -> Option<String> {
        let base = Url::parse("https://example.com/news/1").ok();
        let page = page_from_html(html, base.as_ref());
        let stats = Stats::compute(&page);
        let mut facts = NodeFacts::new(&page.dom);
        let labels = labels_keeping(&page, kept);
        let containers = [page
            .dom
            .element_with_id(container)
            .expect("the page has the container")];
        starved(&page, &stats, &mut facts, &labels, &containers, false)
            .map(|w| page.dom.attr(w.region, "id").unwrap_or("").to_string())
    }

    /// A page of `count` linked entries (`{title} {n}`) in a list whose box has the id `list`,
    /// beside four paragraphs of a story in a box of id `story`.
    fn links_beside_a_story(list: &str, count: usize, title: &str) -> String {
        let entries: String = (1..=count)
            .map(|n| format!("<li><a href=/e{n}>{title} {n}</a></li>"))
            .collect();
        let story: String = (1..=4)
            .map(|n| {
                format!(
                    "<p>Line {n} of the story: the guard was cleared to practice on Wednesday, \
                     after a visit to a spine specialist, and may soon play again.</p>"
                )
            })
            .collect();
        format!(
            "<html><body><div id={list}><ul>{entries}</ul></div>\
             <div id=story>{story}</div></body></html>"
        )
    }

    /// An extraction that kept a site's menus (many entries, more words than the story) and
    /// not the story: a menu's links are no text kept, and the story's box replaces them.
    #[test]
    fn an_extraction_of_menus_is_starved_however_many_links_it_keeps() {
        let html = links_beside_a_story("menus", 80, "Section");
        assert_eq!(
            widened_to(&html, "menus", &["Section "]).as_deref(),
            Some("story")
        );
    }

    /// An index whose entries are linked titles (three link words each), beside a box of prose:
    /// the index is the page's text, and the prose beside it does not replace it.
    #[test]
    fn an_index_of_linked_titles_is_not_starved_by_prose_beside_it() {
        let html = links_beside_a_story("index", 60, "Language number");
        assert_eq!(widened_to(&html, "index", &["Language number"]), None);
    }

    #[test]
    fn comments_under_an_answer_are_not_kept_with_the_answers() {
        let kept = kept_in_answers(&answers_page());
        for n in 1..=3 {
            assert!(
                kept.iter()
                    .any(|t| t.starts_with(&format!("Answer {n}, paragraph 3"))),
                "{kept:#?}"
            );
        }
        assert!(!kept.iter().any(|t| t.contains("Remark")), "{kept:#?}");
    }

    #[test]
    fn boxes_named_for_what_surrounds_an_article_are_not_kept_with_the_region() {
        let html = answers_page().replace(
            "</div></body>",
            "<div class=share-bar><p>Share this answer with your friends on every network you \
             use, and tell them where you found it.</p></div>\
             <div class=related-questions><p>Related: how long should a brisket rest before \
             it is sliced for a crowd of forty guests?</p></div>\
             <div class=widget><p>Widget text: the answerer's own timeline of the dinner, hour \
             by hour, from shopping to washing up.</p></div>\
             <div class=social-embed><blockquote><p>Quoted post: we fed sixty people from \
             one oven by cooking everything the day before.</p></blockquote></div>\
             </div></body>",
        );
        let kept = kept_in_answers(&html);
        assert!(kept.iter().any(|t| t.starts_with("Answer 3, paragraph 3")));
        for gone in ["Share this answer", "Related: how long"] {
            assert!(
                !kept.iter().any(|t| t.starts_with(gone)),
                "{gone}: {kept:#?}"
            );
        }
        // A word that also names a page's own parts, and a quotation in a social embed, stay.
        for stays in ["Widget text", "Quoted post"] {
            assert!(
                kept.iter().any(|t| t.starts_with(stays)),
                "{stays}: {kept:#?}"
            );
        }
    }

    #[test]
    fn a_name_does_not_outweigh_most_of_the_regions_prose_nor_an_article() {
        let post = |class: &str, tag: &str, from: usize, to: usize| {
            let text: String = (from..to)
                .map(|p| {
                    format!(
                        "<p>Post paragraph {p}: the budget holds when rent, food and savings \
                         are planned before the month begins.</p>"
                    )
                })
                .collect();
            format!("<{tag} class='{class}'>{text}</{tag}>")
        };
        // WordPress puts a post's category slug on its wrapper: `category-social-media` names
        // no share bar. Holding most of the region's prose, the post stays; an `<article>` is
        // the article whatever its class adds.
        let html = format!(
            "<html><body><div id=answers>{}{}{}</div></body></html>",
            post("post category-social-media", "div", 0, 6),
            post("post category-budgets", "div", 6, 8),
            post("share-ready", "article", 8, 10),
        );
        let kept = kept_in_answers(&html);
        for p in [0, 5, 7, 9] {
            assert!(
                kept.iter()
                    .any(|t| t.starts_with(&format!("Post paragraph {p}:"))),
                "{p}: {kept:#?}"
            );
        }
    }

    #[test]
    fn a_thread_of_posts_named_comments_keeps_them() {
        let kept = kept_in_answers(&comment_named_thread());
        for n in 1..=3 {
            assert!(
                kept.iter().any(|t| t.starts_with(&format!("Post {n}:"))),
                "{kept:#?}"
            );
        }
    }
    /// An offer to subscribe beside the box first chosen is no prose of the page; a box so named
    /// around that box (a site wrapping its article in `subscriber-only`) or around the whole
    /// page (a theme's name on `<body>`) is, and so are a box named otherwise, one that a
    /// positive word names too (a newsletter's `newsletter-body`) and a section whose id is its
    /// heading's words.
    #[test]
    fn an_offer_is_set_apart_only_beside_the_first_choice() {
        let html = "<html><body class=newsletter-theme><div class=wrap>\
            <div class=subscriber-only><div id=story><p>The council agreed the new ferry \
            timetable last night after a long debate.</p></div></div>\
            <div id=offer class=newsletter-signup><p>Join our newsletter for every story.</p></div>\
            <div id=issue class=newsletter-body><p>This week's issue: the ferry, the harbour.</p></div>\
            <div id=other class=related><p>Read more stories from the harbour today.</p></div>\
            <section id=newsletter><h3>Newsletter<a class=headerlink href=#newsletter>\u{b6}</a>\
            </h3><p>How the council's newsletter reached every household.</p></section>\
            </div></body></html>";
        let page = page_from_html(html, None);
        let stats = Stats::compute(&page);
        let mut facts = NodeFacts::new(&page.dom);
        let dom = &page.dom;
        let by_id = |id: &str| dom.element_with_id(id).expect("the page has it");
        let (story, offer, issue, other) = (
            by_id("story"),
            by_id("offer"),
            by_id("issue"),
            by_id("other"),
        );
        let around = dom.parent(story).expect("the subscribers' box");
        let body = dom.body().expect("the body");
        let containers = [story];
        let place = FooterPlace::of(&page, &containers, true);
        let mut beside =
            |place: &FooterPlace<'_>, n| is_an_offer_beside(dom, &stats, &mut facts, place, n);
        assert!(beside(&place, offer));
        assert!(!beside(&place, around));
        assert!(!beside(&place, body));
        assert!(!beside(&place, issue));
        assert!(!beside(&place, other));
        // A section's id made from its heading names its subject, not an offer.
        assert!(!beside(&place, by_id("newsletter")));
        // After a fallback, which chose no box, the page's wrappers still count.
        let fell_back = FooterPlace::of(&page, &[], false);
        assert!(beside(&fell_back, offer));
        assert!(beside(&fell_back, around));
        assert!(!beside(&fell_back, body));
    }
}
