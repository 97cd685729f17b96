//! Pages whose content is a grid of alike items rather than prose: a shop's category page, a
//! list of search results, a section's list of stories. Readability-style scoring finds no
//! article there (the items are short and mostly links), so it keeps one card or nothing. The
//! page's own repetition says where its content is: the largest set of sibling elements built
//! from one template (same tag, same first class), each with a few words of its own, outside
//! navigation and page furniture.

use std::collections::{BTreeMap, HashMap};

use html5ever::local_name;

use super::select::NodeFacts;
use super::stats::Stats;
use super::widen::{is_furniture_element, names_comment};
use super::{Pick, clean};
use crate::dom::{Dom, Edge, NodeId};
use crate::page::{BlockKind, Page};

/// Fewest alike items that make a grid: three could be a page's columns.
const MIN_ITEMS: usize = 4;

/// Fewest words an item holds on average: menu entries hold one to three. (Link density says
/// nothing here: a modern card is one link around its title, summary and price.)
const MIN_ITEM_WORDS: f32 = 4.0;

/// Fewest words in the whole grid for it to be a page's content.
const MIN_GRID_WORDS: u32 = 60;

/// The largest grid of the page.
pub(super) struct Grid {
    /// The element whose children the items are.
    pub parent: NodeId,
    /// The items, in document order.
    pub items: Vec<NodeId>,
    /// Words in the items.
    pub words: u32,
}

impl Grid {
    /// Words of the items outside their links: what the items say themselves (a summary, a
    /// price, a post), not the titles and menus they link to.
    pub fn own_words(&self, stats: &Stats) -> u32 {
        self.items
            .iter()
            .map(|&i| {
                let a = stats.get(i);
                a.words.saturating_sub(a.link_words)
            })
            .sum()
    }

    /// True when most items each hold a list of links: [`LINKED_ENTRIES`] list entries or more
    /// below the item (not the item itself), each with words, half of them or more in links. That
    /// is a tree of links (an archive's years of months, a menu's columns), not cards: a card's
    /// swatches hold no words, and its chips of sizes are no links.
    pub fn items_are_lists_of_links(&self, dom: &Dom, stats: &Stats) -> bool {
        let lists = self
            .items
            .iter()
            .filter(|&&item| {
                dom.descendants(item)
                    .filter(|&n| {
                        let a = stats.get(n);
                        dom.is_html(n, &local_name!("li"))
                            && a.words > 0
                            && a.link_words * 2 >= a.words
                    })
                    .nth(LINKED_ENTRIES - 1)
                    .is_some()
            })
            .count();
        lists * 2 > self.items.len()
    }
}

/// Linked list entries an item holds for it to be a list of links (see
/// [`Grid::items_are_lists_of_links`]).
const LINKED_ENTRIES: usize = 2;

/// An element's template: its tag and its first class with its numbers folded (`card-12` and
/// `card-7` are one template; `card card--sale` and `card` too), as a signature folds them: a
/// generated name's digits are part of it (`sc-643c51a4-0` and `sc-913e22b0-0` are two).
fn template(dom: &Dom, id: NodeId) -> Option<(String, String)> {
    let name = dom.element_name(id)?;
    let first = dom
        .attr(id, "class")
        .and_then(|c| c.split_ascii_whitespace().next())
        .unwrap_or("");
    let class = crate::classify::signature::fold_numbers(first);
    Some((name.to_owned(), class))
}

/// The page's blocks, images among them: the total every step asks [`NodeFacts`] about a box's
/// context with (its answers are kept per box, so all must ask alike).
pub(super) fn page_blocks(dom: &Dom, stats: &Stats) -> u32 {
    let root = stats.get(dom.root());
    root.blocks + root.images
}

/// True when `id` or an ancestor is navigation, furniture, negatively named, laid over the page
/// or asking for an email address.
fn in_furniture(dom: &Dom, facts: &mut NodeFacts<'_>, stats: &Stats, id: NodeId) -> bool {
    let total = page_blocks(dom, stats);
    if facts.in_negative_context(stats, total, id) || facts.in_overlay_or_sign_up(stats, total, id)
    {
        return true;
    }
    let mut at = Some(id);
    while let Some(n) = at {
        if is_furniture_element(dom, n) {
            return true;
        }
        at = dom.parent(n);
    }
    false
}

/// [`in_furniture`] for a discussion's posts not themselves named as comments: a box named as
/// comments around them is the thread's (vBulletin puts a thread's replies in `#comments`), and
/// only furniture, other negative names, boxes laid over the page and sign-ups count (a cookie
/// notice's three paragraphs are alike, but no posts). Posts named as comments inside such a
/// box are the comments under one post (Stack Exchange's), and stay out as [`in_furniture`]
/// says.
fn posts_in_furniture(dom: &Dom, facts: &mut NodeFacts<'_>, stats: &Stats, id: NodeId) -> bool {
    let total = page_blocks(dom, stats);
    if facts.in_overlay_or_sign_up(stats, total, id) {
        return true;
    }
    let mut at = Some(id);
    while let Some(n) = at {
        if is_furniture_element(dom, n) {
            return true;
        }
        if dom.is_element(n)
            && facts.hint(n).is_negative()
            && !names_comment(facts, n)
            && !super::select::wraps_the_page(stats, total, n)
        {
            return true;
        }
        at = dom.parent(n);
    }
    false
}

/// Finds the page's largest grid of alike items holding at least `min_words` words, if it has
/// one. (A high floor lets the search skip nearly every subtree of an article page.)
pub(super) fn find(
    page: &Page,
    stats: &Stats,
    facts: &mut NodeFacts<'_>,
    min_words: u32,
) -> Option<Grid> {
    find_where(page, stats, facts, min_words, Items::Entries, None, |_| {
        true
    })
}

/// [`find`] among the grids whose last item ends by block `end` (any grid when `None`): a grid
/// printed where the caller reads something else (after a comment thread, a page's own list is
/// not) is never the page's.
pub(super) fn find_ending_by(
    page: &Page,
    stats: &Stats,
    facts: &mut NodeFacts<'_>,
    min_words: u32,
    end: Option<usize>,
) -> Option<Grid> {
    find_where(
        page,
        stats,
        facts,
        min_words,
        Items::Entries,
        None,
        |items| {
            items.last().is_some_and(|&last| {
                end.is_none_or(|end| stats.get(last).end_block as usize <= end)
            })
        },
    )
}

/// The largest grid inside `region` (of [`MIN_GRID_WORDS`] or more) whose items stand between
/// blocks `after` and `end` (their first block after `after`, their last ending by `end`) and
/// that `accept` takes: what a part of the page lists between two of its blocks.
pub(super) fn find_between(
    page: &Page,
    stats: &Stats,
    facts: &mut NodeFacts<'_>,
    region: NodeId,
    (after, end): (usize, usize),
    mut accept: impl FnMut(&[NodeId]) -> bool,
) -> Option<Grid> {
    find_where(
        page,
        stats,
        facts,
        0,
        Items::Entries,
        Some(region),
        |items| {
            let (Some(&first), Some(&last)) = (items.first(), items.last()) else {
                return false;
            };
            stats.get(first).first_block as usize > after
                && stats.get(last).end_block as usize <= end
                && accept(items)
        },
    )
}

/// True when most of `items` hold a link within the page (`pre_orders`: those links' pre-order
/// positions, sorted): a table of contents pointing to the sections below it, not a list of
/// other pages or products.
pub(super) fn most_link_within(stats: &Stats, items: &[NodeId], pre_orders: &[u32]) -> bool {
    let linking = items
        .iter()
        .filter(|&&item| stats.holds_any_of(item, pre_orders))
        .count();
    linking * 2 > items.len()
}

/// How many boxes, from the grid's own outwards (its section, its wrapper), a fragment link may
/// name to point into the grid.
const POINTED_LEVELS: usize = 4;

/// Finds the page's largest grid holding at least `min_words` words that a link inside
/// `containers` points into: the link's fragment (`#search-results`) names the grid's box or
/// one of the boxes around it (see [`POINTED_LEVELS`]). The page points from its text into the
/// grid (a shop's "Skip to search results" above its product grid), so the grid is part of its
/// content, not the related stories under an article. The links are read first, and the grid
/// is searched for only when one names a box that large: most articles point nowhere within the
/// page, and the search is the costlier step.
pub(super) fn find_pointed_to(
    page: &Page,
    stats: &Stats,
    facts: &mut NodeFacts<'_>,
    containers: &[NodeId],
    min_words: u32,
) -> Option<Grid> {
    let dom = &page.dom;
    let fragments: Vec<&str> = page
        .declared
        .in_page_links
        .iter()
        .filter(|&&a| containers.iter().any(|&c| stats.contains(c, a)))
        .filter_map(|&a| dom.attr(a, "href")?.trim().strip_prefix('#'))
        .collect();
    if fragments.is_empty() || !names_a_box_of(page, stats, &fragments, min_words) {
        return None;
    }
    find(page, stats, facts, min_words).filter(|grid| {
        std::iter::successors(Some(grid.parent), |&n| dom.parent(n))
            .take(POINTED_LEVELS)
            .filter_map(|n| dom.attr(n, "id"))
            .any(|id| fragments.contains(&id))
    })
}

/// True when one of `fragments` names (by its `id`) a box that holds `words` words or more: a
/// box a grid of that size could stand in.
fn names_a_box_of(page: &Page, stats: &Stats, fragments: &[&str], words: u32) -> bool {
    let dom = &page.dom;
    let mut walk = dom.traverse(dom.root());
    while let Some(edge) = walk.next() {
        let Edge::Open(n) = edge else { continue };
        if stats.get(n).words < words {
            walk.skip_children();
            continue;
        }
        if dom.attr(n, "id").is_some_and(|id| fragments.contains(&id)) {
            return true;
        }
    }
    false
}

/// Fewest replies that make a thread on a page that is a discussion (declared, or named a
/// thread's view): there, two alike posts are already its first post's answers, not a page's
/// columns.
const MIN_POSTS: usize = 2;

/// Finds the largest run of alike posts on a page that is a discussion: a grid of items most of
/// which hold prose of their own (a post's text, where the two cells of one post, its author's
/// card and its text, hold it once), and that is not a list of entries with linked titles (the
/// other threads beside this one; see [`most_link_a_title`]).
pub(super) fn find_thread(page: &Page, stats: &Stats, facts: &mut NodeFacts<'_>) -> Option<Grid> {
    find_where(
        page,
        stats,
        facts,
        MIN_GRID_WORDS,
        Items::Posts,
        None,
        |items| {
            let with_prose = items.iter().filter(|&&i| stats.get(i).prose > 0).count();
            with_prose * 3 >= items.len() * 2 && !most_link_a_title(page, stats, items)
        },
    )
}

/// What alike items a search looks for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Items {
    /// Entries or cards: at least [`MIN_ITEMS`], never items named as comments.
    Entries,
    /// A discussion's posts: at least [`MIN_POSTS`] (the first post among them or
    /// not), whatever the items' own names say (`ItemComment`, `Comment_265330`): forum
    /// software names its posts so. Their box's names still count, but for a box named as
    /// comments around posts not named so (see [`posts_in_furniture`]).
    Posts,
}

/// [`find`] for `kind` of items, inside `within` (the whole page when `None`), counting only the
/// groups `accept` takes.
fn find_where(
    page: &Page,
    stats: &Stats,
    facts: &mut NodeFacts<'_>,
    min_words: u32,
    kind: Items,
    within: Option<NodeId>,
    mut accept: impl FnMut(&[NodeId]) -> bool,
) -> Option<Grid> {
    let min_items = match kind {
        Items::Entries => MIN_ITEMS,
        Items::Posts => MIN_POSTS,
    };
    let min_words = min_words.max(MIN_GRID_WORDS);
    let dom = &page.dom;
    let mut best: Option<Grid> = None;
    // Ordered, so that of two grids of equal size the same one wins on every run.
    let mut groups: BTreeMap<(String, String), Vec<NodeId>> = BTreeMap::new();
    let mut walk = dom.traverse(within.unwrap_or(dom.root()));
    while let Some(edge) = walk.next() {
        let Edge::Open(parent) = edge else { continue };
        if !dom.is_element(parent) {
            continue;
        }
        let a = stats.get(parent);
        // Not even the whole subtree could beat the best grid so far, nor could any part of it.
        if a.words < min_words || best.as_ref().is_some_and(|b| a.words <= b.words) {
            walk.skip_children();
            continue;
        }
        if super::select::is_page_wrapper(dom, parent) {
            continue;
        }
        groups.clear();
        for child in dom.children(parent) {
            if stats.get(child).words == 0 {
                continue;
            }
            if let Some(t) = template(dom, child) {
                groups.entry(t).or_default().push(child);
            }
        }
        // Whether the parent sits in furniture, asked once and only when a group qualifies.
        let mut furniture: Option<bool> = None;
        for ((tag, class), items) in &groups {
            // A template is a class, or a tag that is an item by itself; plain `<div>`s alike
            // only in having no class are no evidence of one.
            let named = !class.is_empty()
                || matches!(tag.as_str(), "li" | "article" | "tr" | "section" | "dd");
            if items.len() < min_items || !named {
                continue;
            }
            // Items named as comments (`comment-96670866`) are a thread, never a list; the posts
            // of a discussion are named so as often as not (`ItemComment`).
            if kind == Items::Entries && facts.hint(items[0]).is_negative() {
                continue;
            }
            let words: u32 = items.iter().map(|&i| stats.get(i).words).sum();
            if words < min_words
                || (words as f32) < MIN_ITEM_WORDS * items.len() as f32
                || best.as_ref().is_some_and(|b| words <= b.words)
            {
                continue;
            }
            if !accept(items) {
                continue;
            }
            let set_apart = if kind == Items::Posts && !facts.hint(items[0]).is_negative() {
                posts_in_furniture(dom, facts, stats, parent)
            } else {
                *furniture.get_or_insert_with(|| in_furniture(dom, facts, stats, parent))
            };
            if set_apart {
                continue;
            }
            best = Some(Grid {
                parent,
                items: items.clone(),
                words,
            });
        }
    }
    best
}

/// The grid's first item and the box holding them, as a reason names them
/// (`li.card in ul.results`).
pub(super) fn describe(dom: &Dom, grid: &Grid) -> String {
    let first = grid
        .items
        .first()
        .map(|&i| super::select::describe(dom, i))
        .unwrap_or_default();
    format!("{first} in {}", super::select::describe(dom, grid.parent))
}

/// Which blocks a grid keeps: the items' text and images, less furniture lines and controls.
/// What is set among the items in the grid's own box ([`set_among_items`]) is dropped, so that
/// the container around the grid, when it is kept beside it, does not keep it either.
pub(super) fn keep(page: &Page, stats: &Stats, grid: &Grid, why: &str) -> Vec<Pick> {
    keep_except(page, stats, grid, why, &[], SetAmong::Drops)
}

/// Which blocks a thread keeps: its posts' as [`keep`] picks them, less each post's part that
/// holds no prose in any post (see [`posts_furniture`]). What stands between two posts (a
/// moderator's note) is not dropped as set among them: a thread is read whole.
pub(super) fn keep_thread(page: &Page, stats: &Stats, thread: &Grid, why: &str) -> Vec<Pick> {
    let furniture = posts_furniture(page, stats, thread);
    keep_except(page, stats, thread, why, &furniture, SetAmong::Leaves)
}

/// Why a block among a grid's items but in none of them goes.
const SET_AMONG: &str = "grid: a box set among the items, not one of them (a promotion's tile)";

/// Whether a grid drops the boxes set among its items ([`set_among_items`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum SetAmong {
    /// A grid of entries: a box of another template between two of them is a promotion's tile.
    Drops,
    /// A thread: what stands between two posts (a moderator's note) is read with the thread.
    Leaves,
}

/// The box directly under the grid's parent that holds `node`, when `node` (pre-order `pre`)
/// stands after the grid's first item and before its last; `None` elsewhere.
fn box_among_items(
    dom: &Dom,
    grid: &Grid,
    spans: &[(u32, u32)],
    node: NodeId,
    pre: u32,
) -> Option<NodeId> {
    let (&(first, _), &(last, _)) = (spans.first()?, spans.last()?);
    if pre <= first || pre >= last {
        return None;
    }
    std::iter::once(node)
        .chain(dom.ancestors(node))
        .find(|&n| dom.parent(n) == Some(grid.parent))
}

/// True when `set` (a box directly under the grid's parent, between its first item and its last,
/// in none of them) is set among the items: a shop puts a promotion's tile, a newsletter box or an
/// advertisement into the run of its product cards, in another template than theirs. A box whose
/// template has [`MIN_ITEMS`] alike siblings is a second run of items (`li.odd` between
/// `li.even`), not an insertion; nor is a box of headings only (`<li class=group><h3>`), which
/// titles the items after it, a group of an index.
fn set_among_items(page: &Page, stats: &Stats, grid: &Grid, set: NodeId) -> bool {
    let dom = &page.dom;
    let blocks = stats.blocks_of(page, set);
    if blocks
        .iter()
        .all(|b| matches!(b.kind, BlockKind::Heading(_)))
    {
        return false;
    }
    let Some(own) = template(dom, set) else {
        return false;
    };
    dom.children(grid.parent)
        .filter(|&c| template(dom, c).as_ref() == Some(&own))
        .take(MIN_ITEMS)
        .count()
        < MIN_ITEMS
}

/// [`keep`], dropping the blocks inside the sorted, disjoint pre-order `spans` of `furniture`;
/// with [`SetAmong::Drops`], also the boxes set among the items ([`set_among_items`]).
fn keep_except(
    page: &Page,
    stats: &Stats,
    grid: &Grid,
    why: &str,
    furniture: &[(u32, u32)],
    set_among: SetAmong,
) -> Vec<Pick> {
    let dom = &page.dom;
    let spans = item_spans(dom, stats, grid);
    // The blocks come in document order: the last box asked about answers for its next blocks.
    let mut last_box: Option<(NodeId, bool)> = None;
    page.blocks
        .iter()
        .map(|block| {
            let pre = stats.get(block.node).pre;
            if !in_spans(&spans, pre) {
                if set_among == SetAmong::Drops
                    && let Some(set) = box_among_items(dom, grid, &spans, block.node, pre)
                {
                    let among = match last_box {
                        Some((known, answer)) if known == set => answer,
                        _ => {
                            let answer = set_among_items(page, stats, grid, set);
                            last_box = Some((set, answer));
                            answer
                        }
                    };
                    if among {
                        return Pick::Drop(SET_AMONG);
                    }
                }
                return Pick::Outside;
            }
            if in_spans(furniture, pre) {
                return Pick::Drop("thread: a templated box most posts have and none writes in");
            }
            if block.kind != BlockKind::Image
                && (block.words == 0 || clean::is_furniture_line(block))
            {
                return Pick::Drop("grid: a furniture line inside an item");
            }
            let mut at = Some(block.node);
            while let Some(n) = at {
                if n == grid.parent {
                    break;
                }
                if is_furniture_element(dom, n) {
                    return Pick::Drop("grid: a control or navigation inside an item");
                }
                at = dom.parent(n);
            }
            Pick::Keep(why.to_owned())
        })
        .collect()
}

/// True when most of `items` (seven in ten) link a title of their own: a line at least half of
/// whose words, and [`TITLE_LINK_WORDS`] or more, are link text, and that is not a date. An
/// entry of a list links its page's title; a post links its author's name, its controls and,
/// as a permalink, its date.
fn most_link_a_title(page: &Page, stats: &Stats, items: &[NodeId]) -> bool {
    let titled = items
        .iter()
        .filter(|&&i| stats.blocks_of(page, i).iter().any(links_a_title))
        .count();
    titled * 10 >= items.len() * 7
}

/// One part of a thread's posts (a box at the same place in each post's template), over all
/// the posts.
#[derive(Default)]
struct PostPart {
    /// Posts that have a box at this place.
    posts: u32,
    /// The last post counted in `posts`, plus one (0 for none).
    last_post: usize,
    /// Boxes found at this place (a list's items: several in one post).
    boxes: u32,
    /// Prose blocks in them.
    prose: u32,
    /// Text blocks in them.
    blocks: u32,
}

/// The pre-order spans (sorted, disjoint) of the parts of a thread's posts that are a card, not
/// text: a box with a class (the template's markup; what a post's author writes has none), at
/// the same place in at least two thirds of the posts, holding three text lines or more on
/// average and prose in none of them. That is the author's card of XenForo and vBulletin (join
/// date, post count, location) beside each post's text: a thread's template repeats it, and no
/// post ever writes in it. A post's one-line byline is not one, nor a box one post holds, nor a
/// list most posts write.
fn posts_furniture(page: &Page, stats: &Stats, thread: &Grid) -> Vec<(u32, u32)> {
    let mut parts: HashMap<String, PostPart> = HashMap::new();
    for (n, &post) in thread.items.iter().enumerate() {
        walk_post_parts(&page.dom, post, |id, place| {
            let a = stats.get(id);
            let part = parts.entry(place.to_owned()).or_default();
            if part.last_post != n + 1 {
                part.last_post = n + 1;
                part.posts += 1;
            }
            part.boxes += 1;
            part.prose += a.prose;
            part.blocks += a.blocks;
            true
        });
    }
    let posts = thread.items.len() as u32;
    let mut spans = Vec::new();
    for &post in &thread.items {
        walk_post_parts(&page.dom, post, |id, place| {
            let a = stats.get(id);
            // A box with a class is the template's; the markup a post's author writes has none.
            let templated = page
                .dom
                .attr(id, "class")
                .is_some_and(|c| !c.trim().is_empty());
            let card = templated
                && parts.get(place).is_some_and(|p| {
                    p.prose == 0 && p.posts * 3 >= posts * 2 && p.blocks >= 3 * p.boxes
                });
            if card && a.words > 0 {
                spans.push((a.pre, a.end));
            }
            !card
        });
    }
    spans
}

/// Walks the elements inside `post` in document order, calling `visit` with each and its place
/// in the post's template (the tags and all the classes, digits dropped, from the post down to
/// it); `visit` returns false to skip the element's children.
fn walk_post_parts(dom: &Dom, post: NodeId, mut visit: impl FnMut(NodeId, &str) -> bool) {
    // The open elements below the post, each with the length of `place` before it.
    let mut open: Vec<(NodeId, usize)> = Vec::new();
    let mut place = String::new();
    let mut walk = dom.traverse(post);
    while let Some(edge) = walk.next() {
        match edge {
            Edge::Open(id) => {
                if id == post {
                    continue;
                }
                let Some(tag) = dom.element_name(id) else {
                    continue;
                };
                let before = place.len();
                place.push('/');
                place.push_str(tag);
                // All the classes, not the first only: a post's two cells are often one
                // class apart (`message-cell message-cell--user`, `… message-cell--main`).
                for class in dom.attr(id, "class").unwrap_or("").split_ascii_whitespace() {
                    place.push('.');
                    crate::classify::signature::push_folded(&mut place, class);
                }
                if visit(id, &place) {
                    open.push((id, before));
                } else {
                    walk.skip_children();
                    place.truncate(before);
                }
            }
            Edge::Close(id) => {
                if let Some(&(last, before)) = open.last()
                    && last == id
                {
                    open.pop();
                    place.truncate(before);
                }
            }
        }
    }
}

/// True when `block` is a linked title: [`TITLE_LINK_WORDS`] or more of its words, and at least
/// half, are link text, and it is not a date or byline. An entry of a list links its page's
/// title; a post links its author's name, its controls and, as a permalink, its date.
pub(super) fn links_a_title(block: &crate::page::Block) -> bool {
    block.link_words >= TITLE_LINK_WORDS
        && block.link_words * 2 >= block.words
        && !super::stats::looks_like_byline(block)
}

/// Link words from which an item's links can hold a title of its own.
pub(super) const TITLE_LINK_WORDS: u32 = 3;

/// Words per text block from which a grid's lines are titles and summaries, not a list of
/// category names or tags.
const ENTRY_BLOCK_WORDS: u32 = 3;

/// True when alike `items` holding `words` words read as a list of entries: most items link a
/// title of their own (an entry of a list links to its page; a comment links its author's name
/// at most), and their lines are longer than names.
pub(super) fn is_list_of_entries(stats: &Stats, items: &[NodeId], words: u32) -> bool {
    let linked = items
        .iter()
        .filter(|&&i| stats.get(i).link_words >= TITLE_LINK_WORDS)
        .count();
    let blocks: u32 = items.iter().map(|&i| stats.get(i).blocks).sum();
    linked * 10 >= items.len() * 7 && words >= ENTRY_BLOCK_WORDS * blocks
}

/// True when some block inside the grid's items is marked in `marks` (one per block of the
/// page).
pub(super) fn holds_marked(stats: &Stats, grid: &Grid, page: &Page, marks: &[bool]) -> bool {
    let spans = item_spans(&page.dom, stats, grid);
    page.blocks
        .iter()
        .zip(marks)
        .any(|(block, &marked)| marked && in_spans(&spans, stats.get(block.node).pre))
}

/// True when some block inside the grid's items has a label for which `test` holds.
pub(super) fn holds_any(
    stats: &Stats,
    grid: &Grid,
    page: &Page,
    labels: &[crate::classify::Label],
    test: impl Fn(&crate::classify::Label) -> bool,
) -> bool {
    let spans = item_spans(&page.dom, stats, grid);
    page.blocks
        .iter()
        .zip(labels)
        .any(|(block, label)| test(label) && in_spans(&spans, stats.get(block.node).pre))
}

/// The items' pre-order intervals, in document order (items are siblings: sorted, disjoint).
/// A description list's item is a term and its description: an item that is a `<dd>` starts at
/// the `<dt>`s just before it (a paper's identifier and links above its title and authors).
fn item_spans(dom: &Dom, stats: &Stats, grid: &Grid) -> Vec<(u32, u32)> {
    grid.items
        .iter()
        .map(|&i| {
            let a = stats.get(i);
            let first_term = dom
                .is_html(i, &local_name!("dd"))
                .then(|| {
                    std::iter::successors(dom.prev_sibling(i), |&n| dom.prev_sibling(n))
                        .filter(|&n| dom.is_element(n))
                        .take_while(|&n| dom.is_html(n, &local_name!("dt")))
                        .last()
                })
                .flatten();
            (first_term.map_or(a.pre, |t| stats.get(t).pre), a.end)
        })
        .collect()
}

/// True when `pre` falls in one of the sorted, disjoint `spans`.
fn in_spans(spans: &[(u32, u32)], pre: u32) -> bool {
    let at = spans.partition_point(|&(start, _)| start <= pre);
    at.checked_sub(1)
        .and_then(|i| spans.get(i))
        .is_some_and(|&(_, end)| pre < end)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::page_from_html;

    /// Numbered boxes are one template; boxes whose generated names differ only in their
    /// digits are two (dropping the digits made `sc-643c51a4-0` and `sc-913e22b0-0` one).
    #[test]
    fn a_template_folds_numbers_but_not_a_generated_names_digits() {
        let page = page_from_html(
            r#"<body><div class="card-12 sale">a</div><div class="card-7">b</div>
            <div class="sc-643c51a4-0 x">c</div><div class="sc-913e22b0-0">d</div></body>"#,
            None,
        );
        let dom = &page.dom;
        let divs: Vec<NodeId> = dom.elements_by_name("div").collect();
        let t: Vec<_> = divs.iter().map(|&d| template(dom, d).unwrap()).collect();
        assert_eq!(t[0], t[1]);
        assert_eq!(t[0], ("div".to_owned(), "card-0".to_owned()));
        assert_ne!(t[2], t[3]);
    }
}
