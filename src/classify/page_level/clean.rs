//! Cleaning inside the chosen containers: the parts of an article's box that are not the article
//! (share bars, related-link lists, forms, author/date lists, an aside holding media, a
//! slideshow). Conservative on purpose: gold texts keep short lines of the article (a dateline,
//! a one-line paragraph, a caption), so only what says of itself that it is not text goes, and
//! never a wrapper holding most of the text, but for a slideshow that counts its slides (which
//! goes at any size, unless it holds the article's core).

use html5ever::local_name;

use super::select::NodeFacts;
use super::stats::Stats;
use crate::dom::{Dom, Edge, NodeId, is_heading, name_holds};
use crate::page::{Block, BlockKind, Page};

/// A subtree removed from a container, as its pre-order interval, with the reason.
#[derive(Debug, Clone)]
pub(super) struct Removal {
    /// Pre-order index of the removed element.
    pub pre: u32,
    /// One past the pre-order index of its last descendant.
    pub end: u32,
    /// Why, as shown in the block's label (`removed: link-dense list (0.82)`).
    pub reason: String,
}

/// The removal that covers the node at pre-order index `pre`, if one does. Removals are
/// disjoint and sorted (as [`clean`] returns them): the last one starting at or before `pre`.
pub(super) fn removal_at(removals: &[Removal], pre: u32) -> Option<&Removal> {
    let at = removals.partition_point(|r| r.pre <= pre);
    at.checked_sub(1)
        .and_then(|i| removals.get(i))
        .filter(|r| pre < r.end)
}

/// How the reasons of link-dense removals begin.
pub(super) const LINK_DENSE_REMOVAL: &str = "removed: link-dense";

/// Link density from which a list or a box inside the article is a set of links, not text.
const LINK_DENSE: f32 = 0.5;

/// Opening words of headings that introduce links to other pages rather than the article.
const RELATED_OPENINGS: &[&str] = &[
    "related",
    "read more",
    "read also",
    "also read",
    "more from",
    "more on",
    "more stories",
    "recommended",
    "see also",
    "you may also",
    "you might also",
    "read next",
    "more like this",
    "don't miss",
    "editor's picks",
    "editors' picks",
    "most viewed",
    "keep reading",
    "what to read next",
    "most popular",
    "most read",
    "trending",
    "further reading",
    "top stories",
    "latest news",
    "share this",
    "share on",
    "follow us",
    "tags",
    "topics",
];

/// Whole lines that are page furniture wherever they stand.
const FURNITURE_LINES: &[&str] = &[
    "advertisement",
    "advertisements",
    "ad",
    "sponsored",
    "sponsored content",
    "story continues below",
    "story continues below advertisement",
    "continue reading below",
    "continue reading the main story",
    "skip advertisement",
    "scroll to continue with content",
    "article continues below",
    "share",
    "share this",
    "share this article",
    "tweet",
    "print",
    "click to expand",
    // The same toggle once a long quotation is open (XenForo).
    "click to shrink",
    "email",
    // A gallery's and a media player's controls.
    "hide caption",
    "show caption",
    "caption",
    "close",
    "back to gallery",
    "view gallery",
    "enlarge",
    "expand",
];

/// Whole lines that are a post's buttons (a forum's, a comment's), alone or after a count.
const POST_ACTIONS: &[&str] = &[
    "reply",
    "replies",
    "quote",
    "like",
    "likes",
    "report",
    "permalink",
];

/// The reason given to alike items with author or date lines removed from the container.
const ALIKE_ITEMS: &str = "removed: one of many alike items with author or date lines";

/// The length in bytes of the longest of [`FURNITURE_LINES`] (a [`POST_ACTIONS`] line with any
/// real count is shorter).
const LONGEST_FURNITURE_LINE: usize = {
    let mut longest = 0;
    let mut i = 0;
    while i < FURNITURE_LINES.len() {
        if FURNITURE_LINES[i].len() > longest {
            longest = FURNITURE_LINES[i].len();
        }
        i += 1;
    }
    longest
};

/// True for a block that is a line of page furniture (`Advertisement`, `Share this article`):
/// its letters and digits, lower-cased, its words one space apart, are one of
/// [`FURNITURE_LINES`], or one of [`POST_ACTIONS`] after a count or alone (`0 Reply`). Written
/// in one pass, and given up once longer than the longest of them: the test runs on every short
/// block a step keeps.
pub(super) fn is_furniture_line(block: &Block) -> bool {
    if block.words > 6 {
        return false;
    }
    let mut lower = String::with_capacity(LONGEST_FURNITURE_LINE + 4);
    let mut space = false;
    for c in block.text.chars() {
        if c.is_whitespace() {
            space = !lower.is_empty();
            continue;
        }
        if !c.is_alphanumeric() {
            continue;
        }
        if space {
            lower.push(' ');
            space = false;
        }
        if c.is_ascii() {
            lower.push(c.to_ascii_lowercase());
        } else {
            lower.extend(c.to_lowercase());
        }
        if lower.len() > LONGEST_FURNITURE_LINE {
            return false;
        }
    }
    if FURNITURE_LINES.contains(&lower.as_str()) {
        return true;
    }
    if block.words > 2 {
        return false;
    }
    // A post's action, with the count a forum prints before it (`0 Reply`, `3 Likes`).
    let action = match lower.split_once(' ') {
        Some((count, action)) if count.bytes().all(|b| b.is_ascii_digit()) => action,
        _ => lower.as_str(),
    };
    POST_ACTIONS.contains(&action)
}

/// Openings of the line that starts a comment section: `Comments`, `12 comments`, `Have your
/// say`, `Leave a reply`, `Comments are now closed for this story`.
const COMMENT_OPENINGS: &[&str] = &[
    "comments",
    "comment",
    "reader comments",
    "readers comments",
    "readers' comments",
    "reader's comments",
    "user comments",
    "have your say",
    "leave a comment",
    "leave a reply",
    "post a comment",
    "add a comment",
    "add your comment",
    "add your comments",
    "join the discussion",
    "join the conversation",
    "discussion",
    "responses",
    "replies",
];

/// Openings that also head sections of an article or a manual (git's `DISCUSSION`, a letters
/// page's `Responses`): they open a comment section only when comments follow, lines that name
/// an author or a time among them.
pub(super) const LOOSE_COMMENT_OPENINGS: &[&str] = &["discussion", "responses", "replies"];

/// The opening, when a short line of own text (not a link) opens a comment section.
pub(super) fn opens_comments(block: &Block) -> Option<&'static str> {
    if block.words == 0 || block.words > 8 || block.link_words * 2 > block.words {
        return None;
    }
    comment_opening(&block.text)
}

/// The opening `text` starts with when it reads as the line that opens a comment section
/// ([`COMMENT_OPENINGS`], after a count, and not a field's label): the words test of
/// [`opens_comments`].
pub(super) fn comment_opening(text: &str) -> Option<&'static str> {
    // `12 comments`, `(3) Comments`: a count first.
    // Most lines open with a letter no opening starts with: they are spared the lower-cased
    // copy.
    let first = text.trim_start_matches(is_count).chars().next()?;
    if !first
        .to_lowercase()
        .next()
        .is_some_and(|f| COMMENT_OPENINGS.iter().any(|o| o.starts_with(f)))
    {
        return None;
    }
    let lower = text.trim().to_lowercase();
    let rest = lower.trim_start_matches(is_count).trim_start();
    COMMENT_OPENINGS
        .iter()
        .copied()
        .find(|o| after_opening(rest, o).is_some_and(|after| !is_field_value(after)))
}

/// True for what a count before a comment opening is written with (`12 comments`, `(3)
/// Comments`).
fn is_count(c: char) -> bool {
    c.is_ascii_digit() || c.is_whitespace() || "()[]".contains(c)
}

/// What follows `opening` in `text` (both lower-cased) when `text` starts with it as whole
/// words: the test every list of openings here is read by.
fn after_opening<'t>(text: &'t str, opening: &str) -> Option<&'t str> {
    text.strip_prefix(opening)
        .filter(|after| after.chars().next().is_none_or(|c| !c.is_alphanumeric()))
}

/// True when what follows an opening word is a field's value (`Comments: 10 pages, 4
/// figures`, a listing's note on a paper): a colon, then words. A count after the colon
/// (`Comments: 3`), or a count of comments (`Comments: 3 responses`), still opens a section.
/// (`after` is a slice of the lower-cased line.)
fn is_field_value(after: &str) -> bool {
    let Some(value) = after.trim_start().strip_prefix(':') else {
        return false;
    };
    let value = value.trim_start();
    let rest = value.trim_start_matches(|c: char| c.is_ascii_digit() || c.is_whitespace());
    let counted = rest.len() < value.len()
        && COMMENT_OPENINGS
            .iter()
            .any(|o| after_opening(rest, o).is_some());
    value.chars().any(char::is_alphabetic) && !counted
}

/// True when `block`, whose line opens comments with `opening` (see [`opens_comments`]), says
/// nothing after it but a count or whose replies these are (`5 Comments`, `Replies (3)`, `12
/// Responses to "The bridge"`), or opens with a word only a comment section opens with: a loose
/// opening followed by other words heads something else (`Discussion board`, `Replies from the
/// minister`).
pub(super) fn opens_comments_alone(block: &Block, opening: &str) -> bool {
    if !LOOSE_COMMENT_OPENINGS.contains(&opening) {
        return true;
    }
    let lower = block.text.trim().to_lowercase();
    let Some(rest) = after_opening(lower.trim_start_matches(is_count).trim_start(), opening) else {
        return false;
    };
    let rest = rest.trim_start_matches(|c: char| !c.is_alphanumeric());
    rest.chars().all(|c| !c.is_alphabetic()) || rest.starts_with("to ") || rest.starts_with("on ")
}

/// True when `block` is a short line of its own text (six words at most, not mostly links) that
/// opens a related-links box: a heading over other pages, as the cleaning removes it.
pub(super) fn opens_related_line(block: &Block) -> bool {
    block.words > 0
        && block.words <= 6
        && block.link_words * 2 <= block.words
        && opens_related(&block.text)
}

/// True when `text` opens like the heading of a related-links box. A typographic apostrophe
/// (`Don’t miss`, `Editor’s picks`) reads as the plain one the openings are written with.
fn opens_related(text: &str) -> bool {
    let text = text.trim();
    // Lines wholly ASCII (most) are compared in place: the grid step asks this of every short
    // line of the page. The others are lower-cased, and a typographic apostrophe read as the
    // plain one.
    if text.is_ascii() {
        return RELATED_OPENINGS.iter().any(|o| {
            text.get(..o.len())
                .is_some_and(|start| start.eq_ignore_ascii_case(o))
                && text[o.len()..]
                    .chars()
                    .next()
                    .is_none_or(|c| !c.is_alphanumeric())
        });
    }
    let lower = text.to_lowercase().replace('\u{2019}', "'");
    RELATED_OPENINGS
        .iter()
        .any(|o| after_opening(&lower, o).is_some())
}

/// True when `id` is a quotation: a `<blockquote>`, or a box whose class names a quote
/// (`bbCodeBlock--quote`, `quotecontent`), as forums mark a reply's quote of an earlier post.
pub(super) fn is_quotation_element(dom: &Dom, id: NodeId) -> bool {
    dom.is_html(id, &local_name!("blockquote"))
        || dom
            .attr(id, "class")
            .is_some_and(|c| name_holds(c, b"quote"))
}

/// Finds the subtrees to remove inside `containers`, as pre-order intervals sorted by start.
pub(super) fn clean(
    page: &Page,
    stats: &Stats,
    facts: &mut NodeFacts<'_>,
    containers: &[NodeId],
    core: NodeId,
) -> Vec<Removal> {
    clean_before(page, stats, facts, containers, core, u32::MAX)
}

/// [`clean`], looking only at the elements that start before pre-order index `before`: the part
/// of a box that precedes its article (the opening's gap), without cleaning the article again.
pub(super) fn clean_before(
    page: &Page,
    stats: &Stats,
    facts: &mut NodeFacts<'_>,
    containers: &[NodeId],
    core: NodeId,
    before: u32,
) -> Vec<Removal> {
    let dom = &page.dom;
    let mut out = Vec::new();
    // On a page that declares itself a discussion, alike items with bylines are its posts.
    let discussion = facts.declares_discussion(page);
    // Disjoint boxes: the prose of the article as chosen.
    let chosen_prose: u32 = containers.iter().map(|&c| stats.get(c).prose_words).sum();
    for &container in containers {
        // The elements after a related-links heading that are its links go with the heading:
        // siblings in document order, met one after another by the walk (`next_doomed` is the
        // first not yet met), so no element is compared with more than one.
        let mut doomed: Vec<NodeId> = Vec::new();
        let mut next_doomed = 0;
        let mut doomed_why = "";
        let total = stats.get(container).words;
        let slideshow = slideshow_in(page, stats, container);
        let mut walk = dom.traverse(container);
        while let Some(edge) = walk.next() {
            let Edge::Open(id) = edge else { continue };
            if id == container || !dom.is_element(id) {
                continue;
            }
            let a = stats.get(id);
            if (a.blocks == 0 && a.images == 0) || a.pre >= before {
                walk.skip_children();
                continue;
            }
            // A doomed sibling inside a box removed before it is passed over unmet.
            while doomed
                .get(next_doomed)
                .is_some_and(|&d| stats.get(d).pre < a.pre)
            {
                next_doomed += 1;
            }
            let is_doomed = doomed.get(next_doomed) == Some(&id);
            next_doomed += usize::from(is_doomed);
            let reason = is_doomed
                .then(|| doomed_why.to_string())
                // A slideshow goes at any size, but one that holds the article's core is the article
                // (a gallery page).
                .or_else(|| {
                    (slideshow == Some(id) && !stats.contains(id, core))
                        .then(|| SLIDESHOW.to_string())
                })
                .or_else(|| removal_reason(page, stats, facts, id, core, total, discussion));
            if let Some(reason) = reason {
                if reason == RELATED_HEADING {
                    (doomed, doomed_why) =
                        after_related_heading(page, stats, facts, id, core, chosen_prose);
                    next_doomed = 0;
                }
                out.push(Removal {
                    pre: a.pre,
                    end: a.end,
                    reason,
                });
                walk.skip_children();
            }
        }
    }
    out.sort_by_key(|r| r.pre);
    out
}

/// The reason of a slideshow removed from an article.
const SLIDESHOW: &str = "removed: a slideshow (its slides count '1 of N')";

/// Words that join a slide's number to the count of slides (`3 of 23`, `3 von 23`, `3 de 23`).
const SLIDE_OF: &[&str] = &["of", "von", "de", "sur", "di", "van", "av"];

/// Nouns that may open a slide's counter (`Image 3 of 23`).
const SLIDE_NOUNS: &[&str] = &["image", "photo", "slide", "picture", "foto", "bild"];

/// The longest counter line, in bytes.
const SLIDE_COUNTER_BYTES: usize = 40;

/// The count of slides a line names when it is a slideshow's counter (`3 of 23`, `Image 3 of
/// 23`): at most a noun of [`SLIDE_NOUNS`], then the slide's number, a word of [`SLIDE_OF`] and
/// the count, in that order; the slide at least 1 and at most the count, the count at least 2.
/// `Page 2 of 3` (pagination) and `Step 2 of 5` are no counters; nor is `2/6`, which a shop's
/// carousel of the product's features prints as well as a gallery does.
fn slide_count(text: &str) -> Option<u32> {
    // Most short lines hold no digit: they are spared the rest. The words compared are ASCII,
    // so no lower-cased copy is made.
    if text.len() > SLIDE_COUNTER_BYTES || !text.bytes().any(|b| b.is_ascii_digit()) {
        return None;
    }
    let is_one_of =
        |token: &str, words: &[&str]| words.iter().any(|w| w.eq_ignore_ascii_case(token));
    // What the line has shown so far: its noun, its slide's number, its joining word.
    #[derive(Clone, Copy)]
    enum Read {
        Start,
        Noun,
        Slide(u32),
        Joined(u32),
        Count(u32, u32),
    }
    let mut read = Read::Start;
    let tokens = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty());
    for token in tokens {
        let number = token.parse::<u32>().ok();
        read = match (read, number) {
            (Read::Start, None) if is_one_of(token, SLIDE_NOUNS) => Read::Noun,
            (Read::Start | Read::Noun, Some(slide)) => Read::Slide(slide),
            (Read::Slide(slide), None) if is_one_of(token, SLIDE_OF) => Read::Joined(slide),
            (Read::Joined(slide), Some(count)) => Read::Count(slide, count),
            _ => return None,
        };
    }
    match read {
        Read::Count(slide, count) if (1..=count).contains(&slide) && count >= 2 => Some(count),
        _ => None,
    }
}

/// How many levels above the smallest box around its counters a slideshow's pictures may stand.
const SLIDESHOW_LEVELS: usize = 2;

/// Slide counters from which a box is a slideshow: one is a line of text, two that name the
/// same count are a pattern.
const SLIDE_COUNTERS: usize = 2;

/// The slideshow inside `container`, if it holds one: the smallest box that holds media
/// around the counters (`1 of 23`, `2 of 23`, see [`slide_count`]) naming the count most of
/// them name, when at least [`SLIDE_COUNTERS`] do, below the container itself and at most
/// [`SLIDESHOW_LEVELS`] above the counters' own box.
/// A news story's gallery is pictures and their captions (each told "1 of 23"), which the
/// story's text does not need; without class names nothing else tells it from the text.
fn slideshow_in(page: &Page, stats: &Stats, container: NodeId) -> Option<NodeId> {
    let dom = &page.dom;
    let mut counters: Vec<(u32, NodeId)> = stats
        .blocks_of(page, container)
        .iter()
        .filter(|b| b.words > 0 && b.words <= 5)
        .filter_map(|b| slide_count(&b.text).map(|count| (count, b.node)))
        .collect();
    if counters.len() < SLIDE_COUNTERS {
        return None;
    }
    counters.sort_by_key(|&(count, _)| count);
    let named = counters
        .chunk_by(|x, y| x.0 == y.0)
        .filter(|run| run.len() >= SLIDE_COUNTERS)
        .max_by_key(|run| run.len())?;
    let &(_, first) = named.first()?;
    // The pictures may stand beside the counters (a strip of thumbnails beside the viewer
    // that counts them): the slideshow is the smallest box around both, a few levels above
    // the counters' own box at most (counters without pictures near them are a quiz's or a
    // table's, not a gallery's).
    std::iter::once(first)
        .chain(dom.ancestors(first))
        .filter(|&n| named.iter().all(|&(_, m)| stats.contains(n, m)))
        .take_while(|&n| n != container && stats.contains(container, n))
        .take(SLIDESHOW_LEVELS + 1)
        .find(|&n| holds_media(dom, n))
}

/// Link density from which the element after a related heading is the heading's links.
const LINKS_AFTER_HEADING: f32 = 0.3;

/// The reason of a related heading itself: what it opens goes with it.
const RELATED_HEADING: &str = "removed: related heading";

/// The reason of the links after a related heading.
const LINKS_AFTER_RELATED: &str = "removed: links after a related heading";

/// The reason of the teasers after a related heading.
const TEASERS_AFTER_RELATED: &str = "removed: a teaser of another page, after a related heading";

/// Teasers from which alike boxes after a related heading are its stories.
const MIN_TEASERS: usize = 2;

/// At most this many words in one teaser: a summary, not a section of the article.
const MAX_TEASER_WORDS: u32 = 120;

/// What goes with the related heading `heading` (`Related stories`, `More from`), and why:
/// the element after it when it is dense with links, or the teasers of other pages that follow
/// it (see [`is_teaser_box`]), boxes of one tag side by side after the heading or inside the
/// one box after it. A story's summary links little, so the box of a few teasers is not
/// link-dense; its titles say what it is. Nothing holding `core` goes, and teasers holding all
/// the `chosen_prose` words (the prose of every container chosen) are what was chosen: a box of
/// teasers alone is judged as a whole (a section front, or the only prose beside a shop's
/// list), not emptied here.
fn after_related_heading(
    page: &Page,
    stats: &Stats,
    facts: &mut NodeFacts<'_>,
    heading: NodeId,
    core: NodeId,
    chosen_prose: u32,
) -> (Vec<NodeId>, &'static str) {
    let dom = &page.dom;
    let Some(next) = next_element(dom, heading) else {
        return (Vec::new(), "");
    };
    let teasers = teasers_after(page, stats, facts, next, core);
    let teaser_prose: u32 = teasers.iter().map(|&n| stats.get(n).prose_words).sum();
    if !teasers.is_empty() && teaser_prose < chosen_prose {
        (teasers, TEASERS_AFTER_RELATED)
    } else if stats.link_density(next) >= LINKS_AFTER_HEADING {
        (vec![next], LINKS_AFTER_RELATED)
    } else {
        (Vec::new(), "")
    }
}

/// The teasers from `first` on, the element after a related heading: boxes of one tag side by
/// side, each a teaser ([`is_teaser_box`]), or the one box that holds them. Empty when fewer
/// than [`MIN_TEASERS`] follow, or when something else follows them in the heading's box.
fn teasers_after(
    page: &Page,
    stats: &Stats,
    facts: &mut NodeFacts<'_>,
    first: NodeId,
    core: NodeId,
) -> Vec<NodeId> {
    let dom = &page.dom;
    let mut siblings = std::iter::successors(Some(first), |&n| next_element(dom, n))
        .filter(|&n| stats.get(n).blocks > 0)
        .peekable();
    let Some(&head) = siblings.peek() else {
        return Vec::new();
    };
    // One box after the heading: its boxes are the teasers.
    if siblings.clone().nth(1).is_none() {
        return if holds_only_teasers(page, stats, facts, head, core) {
            vec![head]
        } else {
            Vec::new()
        };
    }
    // The teasers close the heading's box: teasers followed by more text of the box are entries
    // of a section of the article (a guide's "Recommended courses:" before its next section).
    run_of_teasers(page, stats, facts, siblings, core).unwrap_or_default()
}

/// True when the boxes with text inside `id` are teasers of other pages (see
/// [`run_of_teasers`]) and `id` does not hold `core`: a list of related stories. (The article's
/// own box may hold entries that read as teasers, a guide's recommended books.)
pub(super) fn holds_only_teasers(
    page: &Page,
    stats: &Stats,
    facts: &mut NodeFacts<'_>,
    id: NodeId,
    core: NodeId,
) -> bool {
    let dom = &page.dom;
    !stats.contains(id, core)
        && run_of_teasers(
            page,
            stats,
            facts,
            dom.children(id)
                .filter(|&n| dom.is_element(n) && stats.get(n).blocks > 0),
            core,
        )
        .is_some()
}

/// `items`, when there are at least [`MIN_TEASERS`] of them, all of one tag and each a teaser of
/// another page ([`is_teaser_box`]). Read lazily, and given up at the first that is not: a
/// hostile page's thousands of boxes cost one pass.
fn run_of_teasers(
    page: &Page,
    stats: &Stats,
    facts: &mut NodeFacts<'_>,
    items: impl Iterator<Item = NodeId>,
    core: NodeId,
) -> Option<Vec<NodeId>> {
    let dom = &page.dom;
    let mut run: Vec<NodeId> = Vec::new();
    for item in items {
        // One tag: items of one list. (Their classes may differ: a theme names each post's box
        // by its number, `post-174798 post`.)
        let same_tag = run
            .first()
            .is_none_or(|&f| dom.local_name(f) == dom.local_name(item));
        if !same_tag || !is_teaser_box(page, stats, facts, item, core) {
            return None;
        }
        run.push(item);
    }
    (run.len() >= MIN_TEASERS).then_some(run)
}

/// True when `id` is a teaser of another page of the site: at most [`MAX_TEASER_WORDS`], not
/// holding `core`, with a linked title among its first two lines of text (images before it do
/// not count). Its links do not lead mostly to other owners' sites: entries that do are a
/// reading list citing elsewhere, the article's own text, where related stories lead around the
/// site itself.
fn is_teaser_box(
    page: &Page,
    stats: &Stats,
    facts: &mut NodeFacts<'_>,
    id: NodeId,
    core: NodeId,
) -> bool {
    let a = stats.get(id);
    if a.words > MAX_TEASER_WORDS || stats.contains(id, core) {
        return false;
    }
    let titled = stats
        .blocks_of(page, id)
        .iter()
        .filter(|b| b.kind != BlockKind::Image)
        .take(2)
        .any(super::is_linked_title_line);
    titled && !facts.box_leads_elsewhere(page, id)
}

fn next_element(dom: &Dom, id: NodeId) -> Option<NodeId> {
    let mut next = dom.next_sibling(id);
    while let Some(n) = next {
        if dom.is_element(n) {
            return Some(n);
        }
        next = dom.next_sibling(n);
    }
    None
}

/// Why element `id` inside a container of `total` words should go, if it should. An element
/// holding `core`, the densest box of the article's paragraphs, is a wrapper of the article and
/// stays whatever its class says. One holding most of the container's words stays too, unless
/// its class is plainly negative (`comments`): a comment thread may be longer than the article,
/// but a `<form>` or a `widget Blog` holding most of the text is the article's wrapper. On a page
/// that declares itself a discussion (`discussion`), alike items with bylines are its posts and
/// stay.
fn removal_reason(
    page: &Page,
    stats: &Stats,
    facts: &mut NodeFacts<'_>,
    id: NodeId,
    core: NodeId,
    total: u32,
    discussion: bool,
) -> Option<String> {
    let dom = &page.dom;
    let a = stats.get(id);
    if stats.contains(id, core) {
        return None;
    }
    // Another story than the headline's (the next one a site loads below it) goes at any size:
    // its scores were damped, but a box holding the article's own paragraphs beside it may be
    // chosen, and the story comes with it.
    if facts.is_other_story(stats, id) {
        return Some("removed: another story, which opens with a title of its own".into());
    }
    // A box laid over the page, or asking for an email address, goes at any size: the article
    // flows under it or around it, and its paragraphs scored nothing (so it never holds the
    // core).
    if facts.is_dialog(id) {
        return Some("removed: a dialog laid over the page".into());
    }
    if facts.is_sign_up(id) {
        return Some("removed: asks for an email address (a sign-up)".into());
    }
    if facts.is_overlay(stats, page.blocks.len() as u32, id) {
        return Some("removed: laid over the page (fixed to the viewport)".into());
    }
    if a.words * 2 > total && !facts.hint(id).is_negative() {
        return None;
    }
    let name = dom.local_name(id)?;
    match *name {
        local_name!("nav") => return Some("removed: <nav>".into()),
        local_name!("form") | local_name!("button") => {
            return Some(format!("removed: <{}>", &**name));
        }
        // HTML's `<aside>` is what stands beside the article's flow; one that holds media is an
        // embed (a video playlist, a gallery's promotion), not a passage of the text. An aside
        // of text alone (a fact box, a pull quote) may be the article's own, and stays.
        local_name!("aside") if holds_media(dom, id) => {
            return Some("removed: <aside> holding media".into());
        }
        _ => {}
    }
    let hint = facts.hint(id);
    // A box that is mostly a quotation is an embedded post the article quotes, whatever the
    // embedding widget calls itself (`social-media-embed`).
    let quotation = super::stats::is_quotation(&a);
    if hint.names_negative()
        && !quotation
        && let Some(word) = hint.negative
        && !(super::hints::LOOSE_WORDS.contains(&word) && a.prose >= 2)
    {
        return Some(format!("removed: class '{word}'"));
    }
    // Alike items with dates are comments or teasers, unless they are quotations (embedded
    // posts quoted by the article).
    // When the article's own paragraphs sit in one of the alike items, the items are peers (the
    // posts of a thread, the entries of a list), not comments under it.
    if !discussion
        && facts.is_repeated_item(stats, id)
        && *name != local_name!("blockquote")
        && !quotation
        && !super::select::peer_holds(dom, stats, id, core)
    {
        return Some(ALIKE_ITEMS.into());
    }
    let ld = stats.link_density(id);
    let is_list = matches!(
        *name,
        local_name!("ul") | local_name!("ol") | local_name!("dl") | local_name!("menu")
    );
    // Items of twenty words and more with some links in them are summaries, not a menu or a
    // list of headlines.
    let long_items = a.list_items > 0 && a.words >= 20 * a.list_items && ld < 0.8;
    if is_list {
        if ld >= LINK_DENSE
            && a.words > 0
            && !long_items
            && !facts.in_list_leading_elsewhere(page, stats, id)
            && !facts.leads_to_documents(page, id)
        {
            return Some(format!("removed: link-dense list ({ld:.2})"));
        }
        if a.list_items >= 2 && a.bylines > 0 && a.words <= 6 * a.list_items && a.prose == 0 {
            return Some("removed: byline list".into());
        }
    }
    if ld >= LINK_DENSE
        && a.words > 0
        && a.prose == 0
        && !long_items
        && !(a.words >= 20 && ld < 0.8)
        && !is_sentence_citing_one_link(page, stats, id)
        && !is_code_term_of_a_definition(page, stats, id)
        && !facts.in_list_leading_elsewhere(page, stats, id)
        && !facts.leads_to_documents(page, id)
    {
        return Some(format!("removed: link-dense block ({ld:.2})"));
    }
    if a.controls > 0 && a.prose == 0 {
        return Some("removed: form controls".into());
    }
    if (is_heading(name)
        || matches!(
            *name,
            local_name!("p") | local_name!("div") | local_name!("span")
        ))
        && a.blocks == 1
        && a.words <= 6
        && let Some(block) = page.blocks.get(a.first_block as usize)
        && opens_related(&block.text)
    {
        return Some(RELATED_HEADING.into());
    }
    None
}

/// True when `id` is a description list's term (`<dt>`) that names code (it holds a `<code>`)
/// and heads a description of text (the `<dd>` right after it, five words or more, under half of
/// them links): a reference page's entry ("`Promise.all()`: Takes an iterable of promises…"),
/// whose term links to the entry's own page and is its heading, not a link away. A list of
/// related stories printed as terms and descriptions names no code.
pub(super) fn is_code_term_of_a_definition(page: &Page, stats: &Stats, id: NodeId) -> bool {
    let dom = &page.dom;
    if !dom.is_html(id, &local_name!("dt")) {
        return false;
    }
    let Some(description) = next_element(dom, id).filter(|&n| dom.is_html(n, &local_name!("dd")))
    else {
        return false;
    };
    stats.get(description).words >= DESCRIPTION_WORDS
        && stats.link_density(description) < LINK_DENSE
        && dom
            .descendants(id)
            .any(|n| dom.is_html(n, &local_name!("code")))
}

/// Fewest words of a description for its term to head it (see [`is_code_term_of_a_definition`]).
const DESCRIPTION_WORDS: u32 = 5;

/// Fewest words outside the link for a paragraph or a list's entry to be a sentence around it.
const SENTENCE_OWN_WORDS: u32 = 3;

/// Marks that end a sentence, in the scripts that print them (Latin, Chinese and Japanese,
/// Devanagari, Arabic).
const SENTENCE_ENDS: &[char] = &[
    '.', '!', '?', '\u{3002}', '\u{ff01}', '\u{ff1f}', '\u{964}', '\u{61f}',
];

/// True when `id` is a paragraph or a list entry (`<p>`, `<li>`) that is a sentence of the
/// article linking one thing: one text block, holding a single link and words of its own around
/// it ([`SENTENCE_OWN_WORDS`]), that ends as a sentence ends ([`SENTENCE_ENDS`], before closing
/// quotes or brackets; not an ellipsis) after the link, so that the link stands inside the
/// sentence. "See function scopes and closures for more information.", "The suspect, Michael
/// Webb, was convicted." with a link on the name, or a step "Add external packages as
/// dependencies." are the article's text, though half of them or more is the link. A menu, a
/// list of related stories or a line of social links ("Follow us on Facebook, Twitter and
/// YouTube.") links several things, and a linked title ("Read more: …", "Next: Will the Fed cut
/// rates?") ends inside its link. (A line that is almost all link still goes, as link text.)
fn is_sentence_citing_one_link(page: &Page, stats: &Stats, id: NodeId) -> bool {
    let dom = &page.dom;
    let a = stats.get(id);
    if a.blocks != 1
        || a.words < a.link_words + SENTENCE_OWN_WORDS
        || dom
            .local_name(id)
            .is_none_or(|name| !matches!(*name, local_name!("p") | local_name!("li")))
    {
        return false;
    }
    let mut links = dom
        .descendants(id)
        .filter(|&n| dom.is_html(n, &local_name!("a")));
    let (Some(link), None) = (links.next(), links.next()) else {
        return false;
    };
    // The block's text, an inline image before it passed over.
    let Some(block) = stats
        .blocks_of(page, id)
        .iter()
        .find(|b| b.kind != BlockKind::Image)
    else {
        return false;
    };
    let text = block
        .text
        .trim_end_matches(['"', '\'', ')', ']', '\u{201d}', '\u{2019}', '\u{bb}']);
    let link_text = crate::page::fold_whitespace(&dom.text_content(link));
    let Some(at) = (!link_text.is_empty())
        .then(|| text.rfind(&link_text))
        .flatten()
    else {
        return false;
    };
    let after = &text[at + link_text.len()..];
    text.ends_with(SENTENCE_ENDS)
        && !text.ends_with("..")
        && !text.ends_with('\u{2026}')
        && after.chars().any(|c| SENTENCE_ENDS.contains(&c))
}

/// Width or height, in pixels, up to which an image is an icon or a tracking pixel, not media.
const ICON_PIXELS: f64 = 32.0;

/// True when `id` holds media: an `<img>` or an `<iframe>` not declared icon-sized (see
/// [`ICON_PIXELS`]; a lazy image without a source yet is media too, a tracking frame of no size
/// is not), or a `<picture>` or `<video>`. A `<figure>` alone does not count: blogs set code
/// samples and pull quotes in figures.
fn holds_media(dom: &Dom, id: NodeId) -> bool {
    let icon_sized = |n: NodeId| crate::page::declares_size_at_most(dom, n, ICON_PIXELS);
    dom.descendants(id).any(|n| {
        dom.local_name(n).is_some_and(|name| match *name {
            local_name!("img") | local_name!("iframe") => !icon_sized(n),
            local_name!("picture") | local_name!("video") => true,
            _ => false,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A gallery inside the article's box that holds the article's core (its densest prose) is
    /// the article, not an embed beside it: cleaning keeps it whole. The same gallery beside a
    /// core of its own goes.
    #[test]
    fn a_slideshow_holding_the_core_is_not_removed() {
        let slide = |n: usize| {
            format!(
                "<div><img src=/p{n}.jpg alt=''><p>Slide {n} tells its part of the story in \
                 full sentences, with commas and clauses.</p><div>{n} of 4</div></div>"
            )
        };
        let slides: String = (1..=4).map(slide).collect();
        let html = format!(
            "<html><body><article id=a><h1>Ten years of war</h1><p id=p>A short introduction \
             to the gallery, in a sentence or two.</p><div id=g>{slides}</div></article>\
             </body></html>"
        );
        let slideshow_removed = |core: &str| removals_over(&html, "g", core).contains(&SLIDESHOW);
        assert!(!slideshow_removed("g"));
        assert!(slideshow_removed("p"));
    }

    /// The reasons of the removals that cover the element of id `target` when the box of id `a`
    /// in `html` is cleaned, the element of id `core` being the article's core.
    fn removals_over(html: &str, target: &str, core: &str) -> Vec<&'static str> {
        let page = crate::page::page_from_html(html, None);
        let stats = Stats::compute(&page);
        let mut facts = NodeFacts::new(&page.dom);
        let id = |name: &str| page.dom.element_with_id(name).expect("the page has it");
        let at = stats.get(id(target)).pre;
        clean(&page, &stats, &mut facts, &[id("a")], id(core))
            .into_iter()
            .filter(|r| r.pre <= at && at < r.end)
            .map(|r| match r.reason.as_str() {
                SLIDESHOW => SLIDESHOW,
                TEASERS_AFTER_RELATED => TEASERS_AFTER_RELATED,
                LINKS_AFTER_RELATED => LINKS_AFTER_RELATED,
                _ => "another reason",
            })
            .collect()
    }

    /// The one box after a related heading that holds teasers is the related stories, unless it
    /// is the article's core: a guide's recommended entries, the densest of its prose, stay.
    /// (A box dense with links after the heading goes, as before the teasers were read: where
    /// it is the core, it is a related box chosen for want of other prose, and the steps after
    /// the cleaning judge the page without it.)
    #[test]
    fn a_related_headings_box_that_is_the_core_stays() {
        let entry = |n: usize| {
            format!(
                "<div><h4><a href=/book/{n}>The history of the city budget {n}</a></h4><p>Book \
                 {n} follows the council through ten years of votes, with the minutes, the \
                 letters and the people who wrote them, in the order they came.</p></div>"
            )
        };
        let entries: String = (0..3).map(entry).collect();
        let html = format!(
            "<html><body><div id=a><h1>Books on the budget</h1><p id=p>Our picks for the \
             winter, chosen by the editors, each a careful history of the votes and the people \
             who cast them, with commas and clauses.</p><h3>Recommended books</h3><div id=c>{entries}</div></div>\
             </body></html>"
        );
        assert!(removals_over(&html, "c", "c").is_empty());
        assert_eq!(removals_over(&html, "c", "p"), [TEASERS_AFTER_RELATED]);
    }

    #[test]
    fn media_are_images_and_frames_not_declared_icon_sized() {
        let holds = |inner: &str| {
            let html = format!("<html><body><aside id=a>{inner}<p>Text.</p></aside></body></html>");
            let page = crate::page::page_from_html(&html, None);
            let aside = page
                .dom
                .element_with_id("a")
                .expect("the page has its aside");
            holds_media(&page.dom, aside)
        };
        assert!(holds(r#"<img src="/p.jpg">"#));
        assert!(holds(r#"<img data-src="/p.jpg" width="100%">"#));
        assert!(holds(r#"<img src="/p.jpg" width="640" height="480">"#));
        assert!(holds("<video src=/v.mp4></video>"));
        assert!(!holds(r#"<img src="/i.svg" width="16" height="16">"#));
        assert!(!holds(r#"<img src="/i.svg" width="16 px">"#));
        assert!(!holds(r#"<img src="/i.svg" height="16.5">"#));
        assert!(!holds(r#"<iframe src="/t" width="0" height="0"></iframe>"#));
        assert!(!holds(
            "<figure><blockquote>A pull quote.</blockquote></figure>"
        ));
    }

    #[test]
    fn slide_counters_are_two_numbers_joined_by_of() {
        assert_eq!(slide_count("1 of 23"), Some(23));
        assert_eq!(slide_count("Image 3 of 8"), Some(8));
        assert_eq!(slide_count("Image 1 of / 8"), Some(8));
        assert_eq!(slide_count("Bild 2 von 5"), Some(5));
        assert_eq!(slide_count("2/6"), None);
        assert_eq!(slide_count("Page 2 of 3"), None);
        assert_eq!(slide_count("Step 2 of 5"), None);
        assert_eq!(slide_count("9 of 8"), None);
        assert_eq!(slide_count("1 of 1"), None);
        assert_eq!(slide_count("1 of 23 photos"), None);
        assert_eq!(slide_count("of 1 23"), None);
        assert_eq!(slide_count("1 23 of"), None);
        assert_eq!(slide_count("1 of of 5"), None);
        assert_eq!(slide_count("1 of 23 2019"), None);
        assert_eq!(slide_count("1 of 99999999999"), None);
    }

    #[test]
    fn a_comment_field_with_a_value_opens_no_comment_section() {
        assert_eq!(comment_opening("Comments"), Some("comments"));
        assert_eq!(comment_opening("12 Comments:"), Some("comments"));
        assert_eq!(comment_opening("Comments: 3"), Some("comments"));
        assert_eq!(comment_opening("Comments: 10 pages, 4 figures"), None);
        assert_eq!(comment_opening("Discussion : see the appendix"), None);
        assert_eq!(comment_opening("Comments: 3 responses"), Some("comments"));
        assert_eq!(
            comment_opening("Comments: Comment on arXiv:1234.5678"),
            None
        );
        let nested = "comment:".repeat(50_000) + " pages";
        assert_eq!(comment_opening(&nested), None);
    }

    #[test]
    fn related_openings() {
        assert!(opens_related("Related Articles"));
        assert!(opens_related("Read more:"));
        assert!(!opens_related("Relatedness of genes"));
        assert!(!opens_related("Tagsmith"));
        assert!(opens_related("You may also be interested in:"));
        assert!(opens_related("What to read next..."));
        assert!(opens_related("DON'T MISS"));
        assert!(opens_related("Don\u{2019}t miss"));
        assert!(opens_related("Editor\u{2019}s picks"));
        for opening in ["Read next", "More like this", "Most viewed", "Keep reading"] {
            assert!(opens_related(opening), "{opening}");
        }
        // A wire story's own last section names the teams' next games.
        assert!(!opens_related("UP NEXT"));
    }

    /// The blocks of `text`, each in a paragraph of its own.
    fn blocks(text: &[&str]) -> Vec<Block> {
        let html: String = text.iter().map(|t| format!("<p>{t}</p>")).collect();
        crate::page::page_from_html(&format!("<html><body>{html}</body></html>"), None).blocks
    }

    #[test]
    fn furniture_lines_are_read_by_their_words_in_any_case_and_spacing() {
        let lines = [
            "Advertisement",
            "ADVERTISEMENT:",
            "  Share\u{a0}this \u{2014} article ",
            "Story continues below \u{2193}",
            "Click to expand...",
            "Share this article now",
            "Advertisement advertisement",
            "Ad-vertisement",
            "Shares",
            "0 Reply",
            "Replies to my post",
            "Report",
            "Permalink",
            "3 Likes",
            "Hide Caption",
            "Back to Gallery",
        ];
        let found: Vec<bool> = blocks(&lines).iter().map(is_furniture_line).collect();
        assert_eq!(
            found,
            [
                true, true, true, true, true, false, false, true, false, true, false, true, true,
                true, true, true
            ],
            "{lines:?}"
        );
    }

    /// The one-pass reading agrees with the rule as first written (letters and digits kept,
    /// lower-cased, words joined by one space) on lines of every shape.
    #[test]
    fn furniture_lines_read_in_one_pass_as_by_the_rule() {
        let by_the_rule = |block: &Block| {
            let lower: String = block
                .text
                .chars()
                .filter(|c| c.is_alphanumeric() || c.is_whitespace())
                .flat_map(char::to_lowercase)
                .collect();
            let lower = lower.split_whitespace().collect::<Vec<_>>().join(" ");
            let words: Vec<&str> = lower.split(' ').collect();
            let action = match words[..] {
                [count, action] if count.chars().all(|c| c.is_ascii_digit()) => action,
                [action] => action,
                _ => "",
            };
            block.words <= 6 && FURNITURE_LINES.contains(&lower.as_str())
                || block.words <= 2 && POST_ACTIONS.contains(&action)
        };
        let lines = [
            "Sponsored \u{2022} content",
            "EMAIL",
            "e-mail",
            "Print this",
            "Tweet!!!",
            "\u{130}nternational",
            "Share this article with a friend today please",
            "Story\u{2003}continues\u{2003}below advertisement",
            "Ad",
            "Ads",
            "Sk\u{ed}p advertisement",
            "click to expand\u{2026}",
            "Continue reading the main story \u{bb}",
            "1 2 3",
            "0 Reply",
            "12\u{a0}Likes",
            "Quote",
            "Reply to this",
            "2 3 Likes",
            "0Reply",
        ];
        for block in blocks(&lines) {
            assert_eq!(
                is_furniture_line(&block),
                by_the_rule(&block),
                "{:?}",
                block.text
            );
        }
    }
}
