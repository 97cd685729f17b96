//! `pith-page`: pith's own page-level extractor. It decides from one page alone which blocks are
//! the article, and it is what labels a site's first pages, before the site's URL Tree knows
//! anything.
//!
//! How (the public picture of Readability-style extractors, over pith's blocks):
//! 1. per-node aggregates of the blocks in one bottom-up pass ([`stats`]);
//! 2. every paragraph-like block scores its holder and, decaying, the holder's ancestors, by
//!    length, commas and sentence length; class/id/role hints and link density weigh each
//!    candidate; comments and other repeated items barely score past their own box, and so do
//!    boxes that end before the heading reading as the page's title, in a part of the page
//!    apart from it (a dialog's offer printed first), and, once that heading is found, boxes in
//!    the page's own footer and boxes outside the marked main region that holds it ([`select`]);
//! 3. the best candidate, moved up when several strong ones share an ancestor or its parent
//!    scores more, plus the siblings that belong with it;
//! 4. inside it, share bars, link lists, forms and related-link boxes removed ([`clean`]);
//! 5. the headline kept wherever it stands; when no container stands out, long low-link blocks
//!    are kept instead, so that no page comes out empty;
//! 6. on a page that declares itself a discussion (or whose container sits in a box named as a
//!    thread's view), the thread's replies after the first post added ([`grid`]); when all that
//!    keeps under a fifth of the text in the region the page marks as its main content (`<main>`,
//!    `role=main`), that region instead ([`main_region`]);
//! 7. when the headline stands before what was kept, in a box the two share, the paragraphs
//!    between them (the article's opening, set apart from its body) kept too ([`lede`]);
//! 8. last, kept blocks that are not the page's own text dropped whichever step kept them: a
//!    reply's quotation of a post above, a declared product's customer reviews ([`drop`]).

mod clean;
mod declared;
mod drop;
mod elsewhere;
mod grid;
mod hints;
mod lede;
mod link_list;
mod main_region;
mod select;
mod stats;
mod widen;

use std::borrow::Cow;

use self::select::{Choice, NodeFacts};
use self::stats::Stats;
use crate::classify::{Label, Reason, Verdict};
use crate::dom::{Dom, NodeId};
use crate::page::{Block, BlockKind, Page};
use html5ever::local_name;

/// The extractor's method name, as printed in reasons and reports.
pub const NAME: &str = "pith-page";

/// The reason pith-page gives the block it keeps as the page's headline.
pub const HEADLINE: &str = "headline";

/// Whether pith-page kept this block as the page's headline.
pub fn is_headline(label: &Label) -> bool {
    matches!(&label.reason, Reason::Page { why, .. } if why == HEADLINE)
}

/// The reason pith-page gives the paragraphs it keeps between the headline and the container
/// ([`lede`]).
pub const LEDE: &str = "the article's opening, between its headline and the container";

/// Words from which a feed entry's own text is the article at length, not its summary: shorter,
/// it says too little about where the article lives to overrule the page (and a reader does not
/// show it in place of the page).
pub const FULL_TEXT_ENTRY_WORDS: usize = 150;

/// A container whose prose holds fewer words than this does not stand out: the page falls back
/// to keeping its long low-link blocks.
const MIN_CONTAINER_WORDS: u32 = 25;

/// Link density from which a block inside the container is a link (to another page, to a
/// profile), not a line of the article.
const LINK_LINE: f32 = 0.8;

/// What the extractor decided for one page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArticleExtraction {
    /// One label per block of the page, in block order.
    pub labels: Vec<Label>,
    /// The chosen main container first, then the siblings added to it; empty when the page fell
    /// back to block-level selection. Real DOM nodes, so a site's pages can be compared on them.
    pub containers: Vec<NodeId>,
}

/// Labels every block of `page` as article content or boilerplate, with a short reason each.
pub fn classify(page: &Page) -> Vec<Label> {
    extract(page).labels
}

/// Runs the extractor on `page`: the labels and the containers they came from.
pub fn extract(page: &Page) -> ArticleExtraction {
    extract_with_entry(page, None)
}

/// Runs the extractor on `page` with the feed entry's own text (HTML or plain) as evidence:
/// when the page declares no article body of its own and the entry's text is the article at
/// length, the page's blocks that are that text are the article (see [`declared`]).
pub fn extract_with_entry(page: &Page, entry_text: Option<&str>) -> ArticleExtraction {
    with_scores(page, |stats, facts, scores| {
        // A box the page's headline sets outside its article is not the article, whatever it
        // scores: when nothing else stands out, the page falls back (and its grid, if it has
        // one, is weighed against its long lines rather than against that box).
        let choice = select::choose(page, stats, facts, scores).filter(|c| {
            stands_out(stats, facts, c) && scores.set_apart_around(&page.dom, c.main).is_none()
        });
        let choice = choice.map(|c| product_column(page, stats, facts, c));
        let first = match choice {
            Some(choice) => from_containers(page, stats, facts, scores, &choice),
            None => fallback(page, stats, facts),
        };
        after_choice(page, stats, facts, first, entry_text)
    })
}

/// The steps after the container is chosen and cleaned: the declared body, widening, grids,
/// a discussion's replies, the main region, then [`refine`]. When the page's declared body
/// settles the article, the declared text is the article as its publisher wrote it, and the
/// other steps would second-guess it: on a discussion only its replies and the quoted-repeat pass
/// follow; elsewhere, where the container's choice agreed with the body, only the passes that
/// drop what no article's text holds ([`drop_what_no_text_holds`]); where the body's own blocks
/// replaced the choice, nothing.
fn after_choice(
    page: &Page,
    stats: &Stats,
    facts: &mut NodeFacts<'_>,
    first: ArticleExtraction,
    entry_text: Option<&str>,
) -> ArticleExtraction {
    let (first, settled) = follow_declared_body(page, stats, facts, first, entry_text);
    let discussion = discussion_cue(page, facts, &first.containers);
    if settled != Settled::Not {
        // A discussion's declared body is its first post alone: its replies still join it,
        // and a reply quoting that post does not repeat it.
        if let Some(because) = discussion {
            let threaded = thread_replies(page, stats, facts, first, because);
            return drop::quoted_repeats(page, threaded);
        }
        // The container's choice agreed with the declared body: what it kept besides the body's
        // text may still hold what no body holds. Blocks kept as the body's own text stay.
        if settled == Settled::ByAgreement {
            return drop_what_no_text_holds(page, stats, facts, first);
        }
        return first;
    }
    // Asked once, of the choice: the steps after relabel some blocks, not all.
    let teaser_front = is_teaser_verdict(&first);
    let widened = widen_if_starved(page, stats, facts, first, teaser_front);
    let gridded = grid_if_no_article(page, stats, facts, widened, teaser_front);
    let threaded = match discussion {
        Some(because) => thread_replies(page, stats, facts, gridded, because),
        None => gridded,
    };
    let mained = main_region::if_starved(page, stats, facts, threaded);
    refine(page, stats, facts, mained)
}

/// The last steps, which refine what the chosen region keeps without choosing another: the
/// article's opening above it, then the passes that drop quoted repeats and product reviews, and
/// what no article's text holds ([`drop_what_no_text_holds`]).
fn refine(
    page: &Page,
    stats: &Stats,
    facts: &mut NodeFacts<'_>,
    extraction: ArticleExtraction,
) -> ArticleExtraction {
    let opened = lede::opening(page, stats, facts, extraction);
    let unquoted = drop::quoted_repeats(page, opened);
    let reviewed = drop::product_reviews(page, facts, unquoted);
    drop_what_no_text_holds(page, stats, facts, reviewed)
}

/// The passes that drop what no article's text holds: figure captions, the author's biography
/// and unrendered template lines. They run also where the container's choice agreed with the
/// page's declared body, which settles the article: the choice keeps the body's text and may
/// keep these besides. Where the declared body's own blocks replaced the choice, they do not:
/// those blocks are kept for being the body's words.
fn drop_what_no_text_holds(
    page: &Page,
    stats: &Stats,
    facts: &mut NodeFacts<'_>,
    extraction: ArticleExtraction,
) -> ArticleExtraction {
    let uncaptioned = drop::figure_captions(page, extraction);
    let unsigned = drop::author_biography(page, stats, facts, uncaptioned);
    drop::unrendered_lines(page, unsigned)
}

/// Whether, and how, the page's declared body settled the article (see [`follow_declared_body`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Settled {
    /// No declared body, or one the page does not show: the steps after go on.
    Not,
    /// The container's choice agreed with the declared body, and stands.
    ByAgreement,
    /// The choice missed most of it, and the page's blocks that are its text replaced it.
    ByTheBody,
}

/// When the page declares its article's text (JSON-LD `articleBody`) and the extraction misses
/// most of it, keeps the page's blocks that are that text instead (see [`declared`]). The second
/// value says whether the declared body settled the page, and how: the steps after this one then
/// leave it alone, but for a discussion's replies and what no article's text holds
/// ([`drop_what_no_text_holds`]).
fn follow_declared_body(
    page: &Page,
    stats: &Stats,
    facts: &mut NodeFacts<'_>,
    first: ArticleExtraction,
    entry_text: Option<&str>,
) -> (ArticleExtraction, Settled) {
    let declared = declared::article_body(facts.json_ld(page))
        .map(|b| (b, "the page's articleBody (JSON-LD)"))
        .or_else(|| {
            entry_text
                .and_then(declared::entry_body)
                .map(|b| (b, "the feed entry's text"))
        });
    let Some((body, source)) = declared else {
        return (first, Settled::Not);
    };
    if declared::agrees(page, &first.labels, &body) {
        return (first, Settled::ByAgreement);
    }
    let Some((region, verdicts)) = declared::body_blocks(page, stats, &body) else {
        return (first, Settled::Not);
    };
    let why = format!(
        "declared: {source} has this text, in {}; the chosen container held less than {:.0}% \
         of it",
        select::describe(&page.dom, region),
        declared::AGREES * 100.0
    );
    let headline = headline(page, stats, facts, &[region]);
    let picks = verdicts
        .into_iter()
        .map(|verdict| match verdict {
            declared::BodyVerdict::Body => Pick::Keep(why.clone()),
            declared::BodyVerdict::ImageInside => {
                Pick::Keep("declared: an image inside the declared text's region".into())
            }
            declared::BodyVerdict::BodyElsewhere => {
                Pick::Drop("declared: declared text outside its region (a teaser of the story)")
            }
            declared::BodyVerdict::Other => Pick::Drop("declared: not the declared text"),
        })
        .collect();
    let labels = relabel(picks, first.labels, headline, Outside::KeepsItsLabel);
    (
        ArticleExtraction {
            labels,
            containers: vec![region],
        },
        Settled::ByTheBody,
    )
}

/// When the page has no article (little prose kept, no container at all, or the container is
/// one card among many) but a grid of alike items holds more text than was kept, keeps the
/// grid (see [`grid`]); beside an article, a grid four times its words (a grid of lists of
/// links, by its words outside links), one the article links into by a fragment (see
/// [`grid::find_pointed_to`]), or one under the headline when the kept text is questions and
/// answers printed after it (see [`listing_above_faq`]). A page's largest grid set apart before
/// its headline is its menus, and the first choice stands. On a section front of teasers
/// (`teaser_front`, see [`is_teaser_verdict`]), only a grid printed before the teasers and holding
/// none of them is kept: the list a related-stories box was printed after. What side sections
/// keep (see [`side_sections`]) weighs nothing against a grid printed before them.
fn grid_if_no_article(
    page: &Page,
    stats: &Stats,
    facts: &mut NodeFacts<'_>,
    first: ArticleExtraction,
    teaser_front: bool,
) -> ArticleExtraction {
    let KeptWords {
        all: kept_words,
        prose: kept_prose,
    } = kept_words(page, &first.labels);
    let one_card = first
        .containers
        .first()
        .is_some_and(|&c| widen::one_of_many(page, stats, facts, c));
    // A fallback's long lines stand in no container: scattered over the page (a shop's
    // guarantees, its newsletter's pitch), they are no article, and a grid holding as many
    // words is the page's content.
    let fell_back = first.containers.is_empty();
    // A fallback that kept the page's furniture, for want of prose of its own (a subscription
    // offer on a shop's grid), kept no article: it says nothing against the grid, however long.
    let kept_prose = if fell_back {
        own_prose_kept(page, stats, facts, &first.labels)
    } else {
        kept_prose
    };
    // Teasers kept (a related-stories box widened to, for want of other prose) are a list of
    // other pages, not an article: they are weighed against a grid as a box without one is.
    // What a side section holds (readers' comments, a related-stories box under its heading,
    // widened to for their prose) is not the page's own text at all: it weighs nothing against
    // a grid printed before it, and no grid searched for by its size stands in it or after it.
    // (A grid the article points into is the page's by its own word, wherever it stands.)
    let mut headline_at = None;
    let sides = side_sections(page, stats, facts, &first.labels, &mut headline_at);
    let kept_aside = kept_in_each(page, &first.labels, &sides);
    let aside_prose: u32 = kept_aside.iter().map(|k| k.prose).sum();
    let aside_all: u32 = kept_aside.iter().map(|k| k.all).sum();
    let own_prose = kept_prose.saturating_sub(aside_prose);
    let article_worth = own_prose >= widen::ARTICLE_WORDS
        && !one_card
        && kept_teaser_words_outside(page, &first.labels, &sides) < own_prose;
    // The first side section holding kept words: the page's own grid is printed before it.
    let first_side = sides
        .iter()
        .zip(&kept_aside)
        .find(|(_, kept)| kept.all > 0)
        .map(|(run, _)| run.start);
    let kept_words = kept_words.saturating_sub(aside_all);
    let has_article = article_worth && !fell_back;
    // Beside an article, a grid is its related stories, unless it dwarfs the text: then that
    // text is the list's introduction, and kept with it. A grid whose items are lists dwarfs it
    // by words of its own (below, once found): an archive's tree of links, however long, is the
    // navigation beside an article, not a list the article introduces. (A card is often one link
    // around its title and summary: items that are no lists are weighed by all their words.)
    let factor = if has_article {
        GRID_OVER_INTRO
    } else if fell_back {
        1
    } else {
        2
    };
    // Beside an article, a grid the article points into ("Skip to search results") is part of
    // the page's content at any size: the page says so itself. So is one the page prints under
    // its headline, above the questions and answers that were kept (see [`listing_above_faq`]).
    let (grid, found) = match grid::find_ending_by(
        page,
        stats,
        facts,
        kept_words.saturating_mul(factor),
        first_side,
    ) {
        Some(grid) => (grid, GridFound::BySize),
        None if !has_article => return first,
        None => match grid::find_pointed_to(page, stats, facts, &first.containers, kept_words) {
            Some(grid) => (grid, GridFound::PointedTo),
            None => match listing_above_faq(page, stats, facts, &first, &mut headline_at) {
                Some(grid) => (grid, GridFound::AboveTheFaq),
                None => return first,
            },
        },
    };
    // A section front had its teasers judged already: a grid holding any of them (its list of
    // stories), or printed after them (the front's list of latest headlines), is no more the
    // page's content than they were. A grid before them, holding none, is what the page lists
    // (a shop's products, a board's threads), and the teasers were a related-stories box after
    // it, the only prose there was.
    let front_teasers: Option<Vec<bool>> = teaser_front.then(|| teasers(page).collect());
    if let Some(teasers) = &front_teasers {
        let first_teaser = teasers.iter().position(|&teaser| teaser);
        let after_them =
            first_teaser.is_some_and(|first| stats.get(grid.parent).first_block as usize > first);
        if after_them || grid::holds_marked(stats, &grid, page, teasers) {
            return first;
        }
    }
    if has_article
        && found == GridFound::BySize
        && grid.items_are_lists_of_links(&page.dom, stats)
        && grid.own_words(stats) < kept_words.saturating_mul(factor)
    {
        return first;
    }
    // A grid the page prints before its headline, in a part of its own, is the site's menus (a
    // mega menu's columns of links), as a container there would be. Being the page's largest
    // grid, it says the page's own grids are no larger than menus: a smaller one after the
    // headline is as often the footer's columns of links, and the first choice stands.
    if titled_heading_once(page, facts, &mut headline_at)
        .is_some_and(|h| select::apart_before_the_headline(page, stats, grid.parent, h))
    {
        return first;
    }
    // A page that calls itself an article has one (also when nothing stood out on it but the
    // fallback kept an article's worth), and a grid of entries without a linked title each
    // (comments: a name, a date, prose) is a thread under it, however long. A grid above the
    // kept questions and answers is none of these: no thread stands above what it answers.
    if found != GridFound::AboveTheFaq
        && (article_worth && facts.declares_article(page)
            || has_article
                && (!grid::is_list_of_entries(stats, &grid.items, grid.words)
                    || grid::holds_any(stats, &grid, page, &first.labels, in_comment_section)))
    {
        return first;
    }
    let why = format!(
        "grid: {} alike items {} ({} words; the {} kept {}{})",
        grid.items.len(),
        grid::describe(&page.dom, &grid),
        grid.words,
        if fell_back {
            "fallback"
        } else {
            "chosen container"
        },
        kept_words,
        match found {
            GridFound::BySize => "",
            GridFound::PointedTo => " and links to the grid",
            GridFound::AboveTheFaq => ", questions and answers printed after the grid",
        }
    );
    let headline = headline(page, stats, facts, &[grid.parent]);
    let mut picks = grid::keep(page, stats, &grid, &why);
    // Of the fallback's lines, those before the grid in the box around it introduce it; when
    // that box is the page itself, no line is the grid's own.
    if fell_back
        && let Some(around) = page
            .dom
            .parent(grid.parent)
            .filter(|&p| !select::is_page_wrapper(&page.dom, p))
    {
        let grid_start = stats.get(grid.parent).first_block as usize;
        let lines = picks.iter_mut().zip(&first.labels).zip(&page.blocks);
        for (index, ((pick, label), block)) in lines.enumerate() {
            if index < grid_start
                && matches!(pick, Pick::Outside)
                && label.is_content()
                && stats.contains(around, block.node)
            {
                *pick = Pick::Keep(
                    "grid: the fallback's line in the grid's box, its introduction".into(),
                );
            }
        }
    }
    let outside = if has_article {
        Outside::KeepsItsLabel
    } else {
        Outside::Goes("grid: outside the page's grid of items")
    };
    let mut labels = relabel(picks, first.labels, headline, outside);
    // The front's verdict no longer holds: the blocks left out say why, in the grid's terms.
    if let Some(teasers) = &front_teasers {
        for (label, &teaser) in labels.iter_mut().zip(teasers) {
            if says_teaser_front(label) {
                let why = if teaser {
                    "grid: a teaser of another page, after the page's grid"
                } else {
                    "grid: outside the page's grid of items"
                };
                *label = page_label(Verdict::Boilerplate, why.into());
            }
        }
    }
    // Above the questions and answers kept, the grid and the FAQ's boxes hold the page's text
    // together: the box a site's pages are compared on is the one around both, not the grid's
    // alone (were an explainer's strip ever taken for a listing, the site's next articles would
    // be looked for in it).
    let containers = if found == GridFound::AboveTheFaq {
        std::iter::once(grid.parent)
            .chain(first.containers)
            .collect()
    } else {
        vec![grid.parent]
    };
    ArticleExtraction { labels, containers }
}

/// Why the page is a discussion, if it is one (see [`DECLARED_DISCUSSION`] and
/// [`NAMED_THREAD`]; `containers` are an extraction's, the first its main one).
fn discussion_cue(
    page: &Page,
    facts: &mut NodeFacts<'_>,
    containers: &[NodeId],
) -> Option<&'static str> {
    if facts.declares_discussion(page) {
        Some(DECLARED_DISCUSSION)
    } else if containers
        .first()
        .is_some_and(|&c| declared::names_thread(&page.dom, c))
    {
        Some(NAMED_THREAD)
    } else {
        None
    }
}

/// Why a page is a discussion, as [`thread_replies`]' reasons say: its structured data
/// (`DiscussionForumPosting`, `QAPage`) says so.
const DECLARED_DISCUSSION: &str = "the page declares a discussion";

/// Why a page is a discussion, as [`thread_replies`]' reasons say: its forum software named the
/// box around the chosen container as a thread's view (see [`declared::names_thread`]).
const NAMED_THREAD: &str = "the chosen box sits in a thread's view";

/// On a page that is a discussion (a forum thread, a question and its answers; the caller asks,
/// and `because` says why, see [`DECLARED_DISCUSSION`] and [`NAMED_THREAD`]), keeps the thread's
/// posts (each post's lines but furniture, as a grid's items) besides what the extraction kept:
/// the container it chose, or the body the page declares, is the first post, and the replies
/// below it are the discussion a reader opened, however short beside it (from [`grid`]'s 60
/// words). A list of other threads (entries with linked titles) is never taken for the replies,
/// nor is a run of posts that ends before the first kept block.
fn thread_replies(
    page: &Page,
    stats: &Stats,
    facts: &mut NodeFacts<'_>,
    first: ArticleExtraction,
    because: &str,
) -> ArticleExtraction {
    let Some(thread) = grid::find_thread(page, stats, facts) else {
        return first;
    };
    let Some(first_kept) = first.labels.iter().position(Label::is_content) else {
        return first;
    };
    let thread_end = thread.items.last().map_or(0, |&i| stats.get(i).end_block);
    if thread_end as usize <= first_kept {
        return first;
    }
    let why = format!(
        "thread: {because}; {} alike posts {} ({} words)",
        thread.items.len(),
        grid::describe(&page.dom, &thread),
        thread.words,
    );
    let picks = grid::keep_thread(page, stats, &thread, &why);
    // The containers stay the extraction's own: they are what a site's pages are compared on.
    let labels = relabel(picks, first.labels, None, Outside::KeepsItsLabel);
    ArticleExtraction {
        labels,
        containers: first.containers,
    }
}

/// Words of the blocks an extraction keeps.
struct KeptWords {
    /// In all its text blocks.
    all: u32,
    /// In those of them that are prose.
    prose: u32,
}

/// Counts the words `labels` keep as content.
fn kept_words(page: &Page, labels: &[Label]) -> KeptWords {
    kept_words_of(&page.blocks, labels)
}

/// Counts the words `labels` keep as content of `blocks` (a run of the page's blocks, `labels`
/// theirs).
fn kept_words_of(blocks: &[Block], labels: &[Label]) -> KeptWords {
    let mut kept = KeptWords { all: 0, prose: 0 };
    for (block, label) in blocks.iter().zip(labels) {
        if label.is_content() {
            kept.all += block.words;
            if block.is_prose() {
                kept.prose += block.words;
            }
        }
    }
    kept
}

/// Words of the prose blocks a fallback's `labels` keep that stand outside the page's furniture
/// (see [`Standing`]): what it kept of the page's own text. The fallback worked the standings
/// out already, but only a page that fell back asks again, and its labels say what was kept.
fn own_prose_kept(page: &Page, stats: &Stats, facts: &mut NodeFacts<'_>, labels: &[Label]) -> u32 {
    let mut memo = vec![None; page.dom.len()];
    page.blocks
        .iter()
        .zip(labels)
        .filter(|(block, label)| label.is_content() && block.is_prose())
        .filter(|(block, _)| {
            Standing::of(page, stats, facts, &mut memo, block.node) == Standing::Page
        })
        .map(|(block, _)| block.words)
        .sum()
}

/// Words of the blocks `labels` keep as content that are not menus: lines of text (a link
/// density below [`LINK_LINE`]), and the link lines too when at least half are linked titles
/// (an index's entries, see [`grid::links_a_title`]); when most are links of a word or two,
/// they are menus, which say nothing of how much text was kept.
fn kept_outside_menus(page: &Page, labels: &[Label]) -> u32 {
    let mut text = 0;
    // Link lines: how many, how many of them linked titles, and their words.
    let (mut links, mut titles, mut link_words) = (0u32, 0u32, 0u32);
    for (block, label) in page.blocks.iter().zip(labels) {
        if !label.is_content() {
            continue;
        }
        if block.link_density() < LINK_LINE {
            text += block.words;
        } else if block.words > 0 {
            links += 1;
            titles += u32::from(grid::links_a_title(block));
            link_words += block.words;
        }
    }
    // Half linked titles or more, the links are an index's entries: its text. Mostly a word or
    // two each, they are menus.
    if titles * 2 >= links {
        text += link_words;
    }
    text
}

/// The deepest node whose `per_node` count (words of some kind below it) is at least `needed`:
/// the smallest region of the page that holds that much, found by walking down from the root
/// into the first child that still does.
fn deepest_holding(dom: &crate::dom::Dom, per_node: &[u32], needed: u32) -> NodeId {
    let mut region = dom.root();
    'descend: loop {
        for child in dom.children(region) {
            if per_node.get(child as usize).copied().unwrap_or(0) >= needed {
                region = child;
                continue 'descend;
            }
        }
        return region;
    }
}

/// What a step that replaces the extraction's choice (the declared body, widening, a grid)
/// says of one block.
enum Pick {
    /// Content, for this reason.
    Keep(String),
    /// Inside the new choice, but boilerplate, for this reason.
    Drop(&'static str),
    /// Outside the new choice.
    Outside,
}

/// What becomes of a block outside the new choice.
#[derive(Clone, Copy)]
enum Outside {
    /// It keeps the label the extraction gave it (the new choice adds to the old).
    KeepsItsLabel,
    /// Content goes, for this reason; boilerplate stays as it was.
    Goes(&'static str),
}

/// The labels after a step's `picks`: the headline stays content wherever it stands.
fn relabel(
    picks: Vec<Pick>,
    old: Vec<Label>,
    headline: Option<usize>,
    outside: Outside,
) -> Vec<Label> {
    debug_assert_eq!(picks.len(), old.len());
    picks
        .into_iter()
        .zip(old)
        .enumerate()
        .map(|(index, (pick, old))| match pick {
            _ if Some(index) == headline => page_label(Verdict::Content, HEADLINE.into()),
            Pick::Keep(why) => page_label(Verdict::Content, why.into()),
            Pick::Drop(why) => page_label(Verdict::Boilerplate, why.into()),
            Pick::Outside => match outside {
                Outside::Goes(why) if old.is_content() => {
                    page_label(Verdict::Boilerplate, why.into())
                }
                _ => old,
            },
        })
        .collect()
}

/// How many times the words of the kept text a grid must hold for the kept text to be the
/// grid's introduction rather than an article with related stories below it.
const GRID_OVER_INTRO: u32 = 4;

/// How [`grid_if_no_article`] found the grid it weighs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum GridFound {
    /// The largest grid of the page, holding more words than the kept text by the step's factor.
    BySize,
    /// A grid the kept text points into by a fragment link (see [`grid::find_pointed_to`]).
    PointedTo,
    /// A grid under the page's headline, above the questions and answers that were kept (see
    /// [`listing_above_faq`]).
    AboveTheFaq,
}

/// Fewest questions that make the kept text a page's questions and answers (see
/// [`reads_as_faq`]): one or two are an article asking its reader.
const FAQ_QUESTIONS: usize = 3;

/// Longest line, in words, that [`reads_as_faq`] takes for a question.
const FAQ_QUESTION_WORDS: u32 = 25;

/// Lines of ten words or more (answers, paragraphs) a text of questions and answers holds at
/// most per question: an answer may run to two or three paragraphs; an article that asks its
/// reader a few questions has many more.
const FAQ_LINES_PER_QUESTION: usize = 3;

/// Fewest words that make a line of the kept text count against its questions (an answer, a
/// paragraph).
const FAQ_ANSWER_WORDS: u32 = 10;

/// True when what an extraction kept of `container` (`labels`, one per block of the page) is
/// questions and answers: at least [`FAQ_QUESTIONS`] short lines with no link that end in a
/// question mark (in any script's form of it), and no more than [`FAQ_LINES_PER_QUESTION`] longer
/// lines per question besides. What cleaning removed (readers' comments asking questions) is no
/// part of it.
fn reads_as_faq(page: &Page, stats: &Stats, container: NodeId, labels: &[Label]) -> bool {
    let asks = |b: &Block| {
        b.words <= FAQ_QUESTION_WORDS
            && b.link_words == 0
            && b.text.trim_end().ends_with(['?', '？', '؟'])
    };
    let (mut questions, mut long_lines) = (0, 0);
    for block in stats.blocks_of(page, container) {
        if !labels
            .get(block.position as usize)
            .is_some_and(Label::is_content)
        {
            continue;
        }
        if asks(block) {
            questions += 1;
        } else if block.words >= FAQ_ANSWER_WORDS {
            long_lines += 1;
        }
    }
    questions >= FAQ_QUESTIONS && long_lines <= questions * FAQ_LINES_PER_QUESTION
}

/// The page's largest grid between its headline and the kept text, when the page declares
/// questions and answers (`FAQPage`), does not call itself an article, and the text kept reads as
/// them (see [`reads_as_faq`]): a shop's category or a service's directory prints its items under
/// its title and, at its foot, an FAQ written and declared for search engines, which is the
/// longest prose of the page. The grid is what the page lists; the FAQ is kept beside it. The
/// grid stands in the part of the page the kept text stands in (its outermost box short of one
/// that wraps the page, or when no grid stands there, short of one that wraps the page and holds
/// its footer) and begins after both the kept text's headline and the first heading that reads
/// as the title: a strip of stories printed above an article's own headline is no listing, a
/// site's name in its banner, read as the title, heads nothing, and the page's sections, alike
/// boxes one of which holds the headline, are its layout. A table of contents (items that link
/// within the page) is the FAQ's own index, not a listing.
fn listing_above_faq(
    page: &Page,
    stats: &Stats,
    facts: &mut NodeFacts<'_>,
    first: &ArticleExtraction,
    headline_at: &mut Option<Option<usize>>,
) -> Option<grid::Grid> {
    let &container = first.containers.first()?;
    if !facts.declares_faq(page)
        || facts.declares_article(page)
        || !reads_as_faq(page, stats, container, &first.labels)
    {
        return None;
    }
    let dom = &page.dom;
    let total = grid::page_blocks(dom, stats);
    // The FAQ's part of the page: its outermost box short of one wrapping the page; and when no
    // grid stands there, short of one wrapping the page that also holds the page's footer (a
    // `<div id=page>` around its menus, columns and footer is the page itself; a `<main>` that a
    // long listing fills is its content).
    let ancestors = || std::iter::successors(Some(container), |&n| dom.parent(n));
    let part = ancestors()
        .take_while(|&n| {
            !select::is_page_wrapper(dom, n) && !select::wraps_the_page(stats, total, n)
        })
        .last()?;
    let titled = titled_heading_once(page, facts, headline_at)?;
    let own = headline(page, stats, facts, &first.containers)?;
    let between = (titled.max(own), first_block_of(stats, &first.containers));
    let mut in_page: Vec<u32> = page
        .declared
        .in_page_links
        .iter()
        .map(|&a| stats.get(a).pre)
        .collect();
    in_page.sort_unstable();
    let mut search = |region: NodeId| {
        grid::find_between(page, stats, facts, region, between, |items| {
            !grid::most_link_within(stats, items, &in_page)
        })
    };
    if let Some(grid) = search(part) {
        return Some(grid);
    }
    let footers: Vec<u32> = dom
        .descendants(dom.root())
        .filter(|&n| is_page_footer(dom, n) && !stats.contains(container, n))
        .map(|n| stats.get(n).pre)
        .collect();
    let is_the_page = |n: NodeId| {
        select::is_page_wrapper(dom, n)
            || (select::wraps_the_page(stats, total, n) && stats.holds_any_of(n, &footers))
    };
    let wider = ancestors()
        .take_while(|&n| !is_the_page(n))
        .last()
        .filter(|&n| n != part)?;
    search(wider)
}

/// True when `id` is the page's footer: a `<footer>` that is the page's by HTML's landmark rule
/// (see [`select::page_footer_around`]; a card's or an article's footer is its own), or a box
/// whose landmark role says so (`contentinfo`).
fn is_page_footer(dom: &Dom, id: NodeId) -> bool {
    dom.is_html(id, &local_name!("footer")) && select::page_footer_around(dom, id)
        || dom
            .attr(id, "role")
            .is_some_and(|role| role.trim().eq_ignore_ascii_case("contentinfo"))
}

/// The first heading that reads as the title (see [`titled_heading`]), found once per page:
/// `headline_at` holds it once asked.
fn titled_heading_once(
    page: &Page,
    facts: &mut NodeFacts<'_>,
    headline_at: &mut Option<Option<usize>>,
) -> Option<usize> {
    *headline_at.get_or_insert_with(|| titled_heading(page, facts))
}

/// True when `extraction`, as the container's choice left it, found a section front of teasers:
/// the verdict labels every block, so the first says so. (Later steps relabel some blocks, and
/// the answer is taken before them.)
fn is_teaser_verdict(extraction: &ArticleExtraction) -> bool {
    extraction.labels.first().is_some_and(says_teaser_front)
}

/// True when `label` is the verdict of a section front of teasers.
fn says_teaser_front(label: &Label) -> bool {
    matches!(&label.reason, Reason::Page { why, .. } if why == TEASER_PAGE)
}

/// When the extraction keeps a small part of the page's prose, keeps the page's prose region
/// instead (see [`widen`]): a reader never gets a near-empty pane for a page full of text.
/// `teaser_page` says the choice found a section front of teasers ([`is_teaser_verdict`]).
fn widen_if_starved(
    page: &Page,
    stats: &Stats,
    facts: &mut NodeFacts<'_>,
    first: ArticleExtraction,
    teaser_page: bool,
) -> ArticleExtraction {
    // A section front of teasers widens only to prose that is not teasers: its teasers were
    // judged already.
    let Some(widening) = widen::starved(
        page,
        stats,
        facts,
        &first.labels,
        &first.containers,
        teaser_page,
    ) else {
        return first;
    };
    let headline = headline(page, stats, facts, &[widening.region]);
    let picks = widen::keep(page, stats, facts, &widening, &first.labels);
    let labels = relabel(
        picks,
        first.labels,
        headline,
        Outside::Goes("widened: outside the page's prose region"),
    );
    ArticleExtraction {
        labels,
        containers: std::iter::once(widening.region)
            .chain(widening.opening)
            .collect(),
    }
}

/// Computes the per-node aggregates and candidate scores once and hands them to `decide`; an
/// empty page gives an empty extraction.
fn with_scores(
    page: &Page,
    decide: impl FnOnce(&Stats, &mut NodeFacts<'_>, &select::Scores) -> ArticleExtraction,
) -> ArticleExtraction {
    if page.blocks.is_empty() {
        return ArticleExtraction {
            labels: Vec::new(),
            containers: Vec::new(),
        };
    }
    let stats = Stats::compute(page);
    let mut facts = NodeFacts::of_page(page, &stats);
    let mut scores = select::score(page, &stats, &mut facts);
    if let Some(headline) = titled_heading(page, &mut facts) {
        let stories = other_stories(page, &stats, &mut facts, headline);
        facts.set_other_stories(stories);
        select::damp_outside_the_article(page, &stats, &facts, &mut scores, headline);
    }
    decide(&stats, &mut facts, &scores)
}

/// Runs the extractor inside a container chosen elsewhere (the one a site's pages agree on),
/// instead of the container this page alone would suggest: its cleaning and headline rule, then
/// the steps that refine a region without choosing another ([`refine`]: the opening, the last
/// passes), as for a container the page chose itself. The steps that would choose another
/// region (the declared body, widening, grids, a thread, the main region) do not run: the site's
/// pages have chosen, and the site-aware rule weighs the prose left outside by what the site
/// repeats, which a page alone cannot know.
pub fn extract_in(page: &Page, container: NodeId) -> ArticleExtraction {
    with_scores(page, |stats, facts, scores| {
        let choice = Choice {
            main: container,
            score: scores.get(container).unwrap_or(0.0),
            siblings: Vec::new(),
            core: container,
        };
        let first = from_containers(page, stats, facts, scores, &choice);
        refine(page, stats, facts, first)
    })
}

/// On a page that declares itself a product, widens the choice to the box that holds both it
/// and the page's headline (the product's name, see [`is_a_products_name`]): a shop's page
/// splits the product into a
/// column of parts (name, price, features, specifications, description) of which the scores
/// find only the longest, the description.
fn product_column(
    page: &Page,
    stats: &Stats,
    facts: &mut NodeFacts<'_>,
    mut choice: Choice,
) -> Choice {
    let mut containers = vec![choice.main];
    containers.extend(choice.siblings.iter().copied());
    let Some(name) = headline(page, stats, facts, &containers)
        .and_then(|h| page.blocks.get(h))
        .filter(|b| is_a_products_name(b))
    else {
        return choice;
    };
    let dom = &page.dom;
    let mut at = Some(choice.main);
    while let Some(n) = at {
        if select::is_page_wrapper(dom, n) {
            return choice;
        }
        if stats.contains(n, name.node) {
            break;
        }
        at = dom.parent(n);
    }
    // The page's structured data is read last, only when there is a column to widen to.
    if let Some(column) = at
        && column != choice.main
        && facts.declares_product(page)
    {
        choice.main = column;
        choice.siblings.clear();
    }
    choice
}

/// True when `block`, the page's headline, can be its product's name, where the product's column
/// begins: the page's `<h1>`, or a line that is no heading at all (a shop that prints the name in
/// a `<div>`). An `<h2>` or `<h3>` reading as the title is as often a section about the product
/// (its reviews, its questions), whose box is no column of the product's parts.
fn is_a_products_name(block: &crate::page::Block) -> bool {
    matches!(block.kind, BlockKind::Heading(1)) || !matches!(block.kind, BlockKind::Heading(_))
}

/// True when the chosen containers hold enough text to be the article. A box named as a prompt
/// (a subscription offer, a newsletter's sign-up, a modal: see [`hints::Hint::names_a_prompt`])
/// whose name weighs more against it than its paragraphs for it is chosen only on a page where no
/// other box holds prose: a shop's grid, a list of short cards. It is not the article there
/// either, and the page falls back (where its grid is weighed against its long lines).
fn stands_out(stats: &Stats, facts: &mut NodeFacts<'_>, choice: &Choice) -> bool {
    if choice.score <= 0.0 && facts.hint(choice.main).names_a_prompt() {
        return false;
    }
    let words: u32 = std::iter::once(choice.main)
        .chain(choice.siblings.iter().copied())
        .map(|c| stats.get(c).words - stats.get(c).link_words)
        .sum();
    words >= MIN_CONTAINER_WORDS
}

fn page_label(verdict: Verdict, why: Cow<'static, str>) -> Label {
    Label {
        verdict,
        reason: Reason::Page {
            extractor: NAME,
            why,
        },
    }
}

/// Labels from the chosen containers: inside and not removed is content, the rest boilerplate,
/// the headline content wherever it stands.
fn from_containers(
    page: &Page,
    stats: &Stats,
    facts: &mut NodeFacts<'_>,
    scores: &select::Scores,
    choice: &Choice,
) -> ArticleExtraction {
    let dom = &page.dom;
    let mut containers = vec![choice.main];
    containers.extend(choice.siblings.iter().copied());
    let mut removals = clean::clean(page, stats, facts, &containers, choice.core);
    // On an index of links the links are the text: the link lines stay.
    let list = link_list::is_link_list(page, stats, facts, &containers, &removals, LINK_LINE);
    if list {
        removals.retain(|r| !r.reason.starts_with(clean::LINK_DENSE_REMOVAL));
    }
    let main_name = select::describe(dom, choice.main);
    let headline = headline(page, stats, facts, &containers);
    let comments = comments_span(page, stats, choice.main, choice.core);
    let any_set_apart = scores.set_apart.iter().any(Option::is_some);
    // The content reasons depend on the container only: formatted once each, not per block.
    let inside: Vec<String> = containers
        .iter()
        .map(|&c| {
            if c == choice.main {
                let list = if list { ", a list of links" } else { "" };
                format!(
                    "in main container {main_name} (score {:.0}){list}",
                    choice.score
                )
            } else {
                format!(
                    "in {} beside main container {main_name}",
                    select::describe(dom, c)
                )
            }
        })
        .collect();
    let mut labels: Vec<Label> = page
        .blocks
        .iter()
        .enumerate()
        .map(|(index, block)| {
            if Some(index) == headline {
                return page_label(Verdict::Content, HEADLINE.into());
            }
            let pre = stats.get(block.node).pre;
            let Some(container) = containers.iter().position(|&c| {
                let a = stats.get(c);
                a.pre <= pre && pre < a.end
            }) else {
                // The inspector says when the headline set the block's box apart.
                let why = any_set_apart
                    .then(|| scores.set_apart_around(dom, block.node))
                    .flatten()
                    .map_or("outside main container", select::SetApart::reason);
                return page_label(Verdict::Boilerplate, why.into());
            };
            if let Some(r) = clean::removal_at(&removals, pre) {
                return page_label(Verdict::Boilerplate, r.reason.clone().into());
            }
            if comments.as_ref().is_some_and(|c| c.contains(&index)) {
                return page_label(Verdict::Boilerplate, COMMENTS.into());
            }
            if !list
                && block.words > 0
                && block.link_density() >= LINK_LINE
                && !clean::is_code_term_of_a_definition(page, stats, block.node)
                && !facts.in_list_leading_elsewhere(page, stats, block.node)
                && !facts.leads_to_documents(page, block.node)
            {
                return page_label(
                    Verdict::Boilerplate,
                    format!("removed: link text ({:.2})", block.link_density()).into(),
                );
            }
            if clean::is_furniture_line(block) {
                return page_label(Verdict::Boilerplate, "removed: furniture line".into());
            }
            page_label(Verdict::Content, inside[container].clone().into())
        })
        .collect();
    if is_teaser_page(page, &labels) {
        for label in &mut labels {
            *label = page_label(Verdict::Boilerplate, TEASER_PAGE.into());
        }
    }
    ArticleExtraction { labels, containers }
}

/// The reason of every block of a page of teasers: a section front, not an article.
const TEASER_PAGE: &str = "no article: every paragraph is a teaser under a link";

/// The reason of the blocks of a comment section that no class tells apart.
const COMMENTS: &str = "removed: from the comments heading on";

/// True when `label` puts its block in a comment section found by its opening line.
fn in_comment_section(label: &Label) -> bool {
    matches!(&label.reason, Reason::Page { why, .. } if why == COMMENTS)
}

/// How many prose blocks of the article must come before a line that opens a comment section
/// for the rest of the container to count as comments: a `Comments (3)` line near the top is a
/// link to them, not their start.
const PROSE_BEFORE_COMMENTS: u32 = 3;

/// Bylines after a comment section's heading band from which the comments follow the band.
const BYLINES_AFTER_A_BAND: usize = 3;

/// Paragraphs per byline, at most, after a comment section's heading band for them to be
/// comments (a comment runs a few paragraphs over its byline; an article's dateline or two
/// do not make its paragraphs comments).
const PARAGRAPHS_PER_BYLINE: usize = 3;

/// The blocks of a comment section inside `main` that no class tells apart: from a line that
/// opens comments (after the article's first paragraphs) to the end of the box that holds the
/// line, when that box holds more than the line and not the article's core (a "Have your say"
/// box in the middle of the article); else to the end of the container (flat comments after the
/// article, in the article's own box). A box around the line that holds no prose but it, with
/// [`BYLINES_AFTER_A_BAND`] bylines or more after it, one for every [`PARAGRAPHS_PER_BYLINE`]
/// paragraphs, is the heading band of flat comments, which run to the container's end.
fn comments_span(
    page: &Page,
    stats: &Stats,
    main: NodeId,
    core: NodeId,
) -> Option<std::ops::Range<usize>> {
    let dom = &page.dom;
    let a = stats.get(main);
    let end = (a.end_block as usize).min(page.blocks.len());
    let mut prose = 0;
    for index in a.first_block as usize..end {
        let block = page.blocks.get(index)?;
        if prose >= PROSE_BEFORE_COMMENTS
            && let Some(opening) = clean::opens_comments(block)
        {
            // The largest box around the line that stays clear of the core.
            let mut boxed = None;
            let mut node = Some(block.node);
            while let Some(n) = node {
                if n == main || stats.contains(n, core) {
                    break;
                }
                boxed = Some(n);
                node = dom.parent(n);
            }
            let box_end = boxed.map_or(0, |b| stats.get(b).end_block as usize);
            // A box of the line and a few short lines ("Please report offensive comments") is
            // the section's heading band: the comments follow it, each with its byline (see
            // [`PARAGRAPHS_PER_BYLINE`]).
            let box_start = boxed.map_or(index, |b| stats.get(b).first_block as usize);
            let box_holds_more = box_end > index + 1;
            let heading_band = box_holds_more
                && page.blocks.get(box_start..box_end).is_some_and(|band| {
                    band.iter()
                        .enumerate()
                        .all(|(at, b)| box_start + at == index || !stats::is_prose(b))
                })
                && page.blocks.get(box_end..end).is_some_and(|after| {
                    let bylines = after.iter().filter(|b| stats::looks_like_byline(b)).count();
                    let prose = after.iter().filter(|b| stats::is_prose(b)).count();
                    bylines >= BYLINES_AFTER_A_BAND && bylines * PARAGRAPHS_PER_BYLINE >= prose
                });
            let span = if box_holds_more && !heading_band {
                index..box_end
            } else {
                index..end
            };
            let has_bylines = || {
                page.blocks
                    .get(span.clone())
                    .is_some_and(|blocks| blocks.iter().any(stats::looks_like_byline))
            };
            if !clean::LOOSE_COMMENT_OPENINGS.contains(&opening) || has_bylines() {
                return Some(span);
            }
        }
        prose += u32::from(stats::is_prose(block));
    }
    None
}

/// Marks, one per block of the page, every block that reads as a teaser, kept or not: prose
/// right under a linked title, or under one short line below it (its author, its date, its
/// section); images between do not count. [`is_teaser_page`] asks it of the blocks kept.
fn teasers(page: &Page) -> impl Iterator<Item = bool> + '_ {
    // A teaser sits under its story's linked title; a post's paragraph sits under its author's
    // linked name or its number (`#1`), which link too, in a heading or not. A front whose
    // titles are a word or two is not told from a thread: it keeps its summaries, which a
    // reader can use, rather than go blank.
    // The lines above are read only under prose: the test of a linked title runs on every
    // short line otherwise, and this walk runs on every page.
    let mut previous: Option<&Block> = None;
    let mut before_previous: Option<&Block> = None;
    page.blocks.iter().map(move |block| {
        if block.kind == BlockKind::Image {
            return false;
        }
        let teaser = stats::is_prose(block)
            && (previous.is_some_and(is_linked_title_line)
                || (previous.is_some_and(is_teaser_line)
                    && before_previous.is_some_and(is_linked_title_line)));
        before_previous = previous;
        previous = Some(block);
        teaser
    })
}

/// At most this many words in the line between a teaser's title and its summary.
const TEASER_LINE_WORDS: u32 = 6;

/// True when `block` can stand between a teaser's linked title and its summary: a short line
/// of its own text that is no prose (`Carrie Healey`, `March 3, 2025`). A line of links there
/// is more likely a listing's own row (`12 points by dang | 40 comments`), and a heading the
/// title of the next entry, under the last line of links of the one before.
fn is_teaser_line(block: &Block) -> bool {
    block.words <= TEASER_LINE_WORDS
        && !matches!(block.kind, BlockKind::Heading(_))
        && !stats::is_prose(block)
        && block.link_words * 2 <= block.words
}

/// Signed comments, or teasers, after a side section's opening line from which the box around
/// the line is one: a thread of two, a box of two other pages. (A lone byline under
/// "Discussion" is an article's section.)
const SIDE_ENTRIES: usize = 2;

/// The page's side sections that hold a block `labels` keep, as runs of blocks: what a page
/// prints beside its own content, readers' comments and a box of its other pages, each under
/// its opening line. A section runs from a line that opens comments (see
/// [`clean::opens_comments`] and [`clean::opens_comments_alone`]) or a related-stories box (see
/// [`clean::opens_related_line`]) to the end of the smallest box around the line that holds
/// more, when [`SIDE_ENTRIES`] or more lines after it are bylines with prose among them, or
/// teasers. A box holding the page's headline (see [`titled_heading`], worked out once into
/// `headline_at`) or an `<h1>` is the page itself: a forum's "Discussion Forum" banner above
/// its question and its replies opens nothing. The runs are in order and do not overlap.
///
/// [`comments_span`] finds comments inside a chosen container, after its article's first
/// paragraphs; these are found anywhere, for the grid step to set aside what was widened to.
fn side_sections(
    page: &Page,
    stats: &Stats,
    facts: &mut NodeFacts<'_>,
    labels: &[Label],
    headline_at: &mut Option<Option<usize>>,
) -> Vec<std::ops::Range<usize>> {
    // A section matters only for what it keeps: the lines after the last block kept open
    // nothing that counts, and most pages' comments follow their article.
    let Some(last_kept) = labels.iter().rposition(Label::is_content) else {
        return Vec::new();
    };
    // Running counts, made at the first line that could open a section, so that each section
    // is judged in constant time: a page of a thousand "Comments" lines in one box is read once.
    let mut counts = RunningCounts::default();
    let mut sections = Vec::new();
    let mut index = 0;
    while let Some(block) = page.blocks.get(index).filter(|_| index < last_kept) {
        let comments = clean::opens_comments(block)
            .is_some_and(|opening| clean::opens_comments_alone(block, opening));
        if !comments && !clean::opens_related_line(block) {
            index += 1;
            continue;
        }
        let Some(section) = std::iter::once(block.node)
            .chain(page.dom.ancestors(block.node))
            .find(|&n| stats.get(n).end_block as usize > index + 1)
        else {
            index += 1;
            continue;
        };
        let start = stats.get(section).first_block as usize;
        let end = start + stats.blocks_of(page, section).len();
        let after = index + 1..end;
        let keeps = counts.over(Count::Kept, page, labels, after.clone()) > 0;
        let headline = titled_heading_once(page, facts, headline_at);
        let holds_a_title = headline.is_some_and(|at| (start..end).contains(&at))
            || counts.over(Count::H1, page, labels, start..end) > 0;
        if !keeps || holds_a_title {
            index += 1;
            continue;
        }
        let entries = if comments {
            // A comment is signed and says something: bylines over no prose are an entry's
            // meta line (its author, its date).
            let bylines = counts.over(Count::Byline, page, labels, after.clone());
            let prose = counts.over(Count::Prose, page, labels, after);
            if prose > 0 && prose * 2 >= bylines {
                bylines
            } else {
                0
            }
        } else {
            counts.over(Count::Teaser, page, labels, after)
        };
        if entries < SIDE_ENTRIES {
            index += 1;
            continue;
        }
        sections.push(index..end);
        index = end.max(index + 1);
    }
    sections
}

/// The words `labels` keep in each of `sections` (see [`side_sections`]).
fn kept_in_each(
    page: &Page,
    labels: &[Label],
    sections: &[std::ops::Range<usize>],
) -> Vec<KeptWords> {
    sections
        .iter()
        .map(|run| {
            kept_words_of(
                page.blocks.get(run.clone()).unwrap_or_default(),
                labels.get(run.clone()).unwrap_or_default(),
            )
        })
        .collect()
}

/// What [`RunningCounts`] counts of a page's blocks.
#[derive(Clone, Copy)]
enum Count {
    /// Blocks the labels keep.
    Kept,
    /// `<h1>` headings.
    H1,
    /// Headings of any level.
    Heading,
    /// Lines that read as bylines (see [`stats::looks_like_byline`]).
    Byline,
    /// Prose blocks.
    Prose,
    /// Teasers (see [`teasers`]).
    Teaser,
}

/// Counts over a page's blocks from its first, one entry per block and one before them, so that
/// any run of blocks is counted by one subtraction. Each count is made the first time it is
/// asked for: most pages ask for none, and a byline's test is not cheap.
#[derive(Default)]
struct RunningCounts {
    made: [Option<Vec<usize>>; 6],
}

impl RunningCounts {
    /// How many blocks of `blocks` (clamped to the page) are `what`, `labels` saying which
    /// blocks are kept (only [`Count::Kept`] reads them).
    fn over(
        &mut self,
        what: Count,
        page: &Page,
        labels: &[Label],
        blocks: std::ops::Range<usize>,
    ) -> usize {
        let running = self.made[what as usize].get_or_insert_with(|| {
            let mut total = 0;
            let mut running = Vec::with_capacity(page.blocks.len() + 1);
            running.push(0);
            let mut add = |yes: bool| {
                total += usize::from(yes);
                running.push(total);
            };
            match what {
                Count::Kept => labels.iter().for_each(|l| add(l.is_content())),
                Count::H1 => page
                    .blocks
                    .iter()
                    .for_each(|b| add(b.kind == BlockKind::Heading(1))),
                Count::Heading => page
                    .blocks
                    .iter()
                    .for_each(|b| add(matches!(b.kind, BlockKind::Heading(_)))),
                Count::Byline => page
                    .blocks
                    .iter()
                    .for_each(|b| add(stats::looks_like_byline(b))),
                Count::Prose => page.blocks.iter().for_each(|b| add(b.is_prose())),
                Count::Teaser => teasers(page).for_each(add),
            }
            running
        });
        let last = running.len().saturating_sub(1);
        let (from, to) = (blocks.start.min(last), blocks.end.min(last));
        match (running.get(from), running.get(to)) {
            (Some(&a), Some(&b)) if to > from => b - a,
            _ => 0,
        }
    }
}

/// Words of the teasers (see [`teasers`]) that `labels` keep as content outside `sections`
/// (see [`side_sections`], in order): the teasers a related box's heading set aside are not
/// counted again.
fn kept_teaser_words_outside(
    page: &Page,
    labels: &[Label],
    sections: &[std::ops::Range<usize>],
) -> u32 {
    let mut next = sections.iter().peekable();
    let mut words = 0;
    for (index, ((block, label), teaser)) in page
        .blocks
        .iter()
        .zip(labels)
        .zip(teasers(page))
        .enumerate()
    {
        while next.next_if(|run| run.end <= index).is_some() {}
        let aside = next.peek().is_some_and(|run| run.contains(&index));
        if teaser && label.is_content() && !aside {
            words += block.words;
        }
    }
    words
}

/// True when `block` is a line of links holding a title: what a teaser sits under.
fn is_linked_title_line(block: &Block) -> bool {
    block.link_density() >= LINK_LINE && grid::links_a_title(block)
}

/// At most this many words of prose on a page of teasers: a longer text is an article, even if
/// it is laid out as linked titles with summaries.
const MAX_TEASER_PAGE_WORDS: u32 = 150;

/// True for a section front rather than an article: the content kept is a few short summaries,
/// each right under a linked headline (images between do not count), and nothing else of length.
fn is_teaser_page(page: &Page, labels: &[Label]) -> bool {
    let mut count = 0;
    let mut words = 0;
    for ((block, label), teaser) in page.blocks.iter().zip(labels).zip(teasers(page)) {
        if label.is_content() && stats::is_prose(block) {
            if !teaser {
                return false;
            }
            count += 1;
            words += block.words;
        }
    }
    count >= 2 && words <= MAX_TEASER_PAGE_WORDS
}

/// Block-level fallback for pages where no container stands out: long, low-link text blocks and the
/// headline. Prose in a consent manager's box, in a box laid over the page (a modal dialog the page
/// declares, a box fixed to the viewport) or in another story than the headline's (see
/// [`other_stories`]) is never kept: on a page of short lines (a product's parts, a shop's grid)
/// such a notice is the only prose there is. Prose in the page's other furniture (its header,
/// navigation, footer, a dialog it does not declare modal, a subscription offer, a sign-up: see
/// [`Standing::Furniture`]) is kept only when no prose of the page's own stands outside furniture,
/// so that a page of scattered lines is never left blank.
fn fallback(page: &Page, stats: &Stats, facts: &mut NodeFacts<'_>) -> ArticleExtraction {
    let headline = headline(page, stats, facts, &[]);
    let mut memo = vec![None; page.dom.len()];
    let standing: Vec<Option<Standing>> = page
        .blocks
        .iter()
        .map(|block| {
            stats::is_prose(block).then(|| Standing::of(page, stats, facts, &mut memo, block.node))
        })
        .collect();
    // The headline is kept whatever stands around it, and says nothing of the page's prose.
    let page_prose = standing
        .iter()
        .enumerate()
        .any(|(index, s)| *s == Some(Standing::Page) && Some(index) != headline);
    let labels = page
        .blocks
        .iter()
        .zip(&standing)
        .enumerate()
        .map(|(index, (block, standing))| {
            if Some(index) == headline {
                return page_label(Verdict::Content, HEADLINE.into());
            }
            match standing {
                Some(Standing::Page) => {}
                Some(Standing::Furniture) if !page_prose => {}
                Some(Standing::Furniture) => {
                    return page_label(
                        Verdict::Boilerplate,
                        "fallback: long text in the page's furniture, beside its own".into(),
                    );
                }
                Some(Standing::Consent) => {
                    return page_label(
                        Verdict::Boilerplate,
                        "fallback: long text in a consent notice".into(),
                    );
                }
                // Nor is the next story a site loads below the opened one.
                Some(Standing::OtherStory) => {
                    return page_label(
                        Verdict::Boilerplate,
                        "fallback: long text in another story".into(),
                    );
                }
                // A box laid over the page is never its text, even when the page has none of
                // its own: an empty pane says more than a cookie notice.
                Some(Standing::Overlay) => {
                    return page_label(
                        Verdict::Boilerplate,
                        "fallback: long text in a box laid over the page".into(),
                    );
                }
                None => {
                    return page_label(
                        Verdict::Boilerplate,
                        "fallback: short or link text, no main container".into(),
                    );
                }
            }
            page_label(
                Verdict::Content,
                format!(
                    "fallback: long low-link text ({} words, links {:.2})",
                    block.words,
                    block.link_density()
                )
                .into(),
            )
        })
        .collect();
    ArticleExtraction {
        labels,
        containers: Vec::new(),
    }
}

/// Where a fallback's block of prose stands. The order is what a box around another decides:
/// a consent notice inside a footer is a consent notice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Standing {
    /// Outside the page's furniture.
    Page,
    /// In its header, navigation, footer, a dialog it does not declare modal
    /// (`aria-modal="false"`, `aria-hidden`) or another furniture box (see
    /// [`widen::is_furniture_element`]), in a box named as a prompt (see
    /// [`hints::Hint::names_a_prompt`]) or asking for an email address (see
    /// [`NodeFacts::is_sign_up`]), but in no consent notice.
    Furniture,
    /// In another story than the headline's (see [`other_stories`]), but in no box laid over
    /// the page or consent notice.
    OtherStory,
    /// In a box laid over the page (see [`NodeFacts::is_overlay`]): a modal dialog the page
    /// declares, or a box its style fixes to the viewport; but in no consent notice.
    Overlay,
    /// In a consent manager's box (see [`hints::names_consent`]).
    Consent,
}

impl Standing {
    /// Where the block held by `node` stands: in a consent notice when any box around it is one,
    /// else in a box laid over the page, else in another story, else in furniture when any is
    /// furniture. The page's wrappers (`<body>` and any box holding nine tenths of its blocks) say
    /// nothing of one part of it (a `<body class="cookie-consent-accepted">`), and are asked only
    /// whether they are a dialog the page declares (a box fixed to the viewport is laid over the
    /// page only when it holds less than half of it). `memo` holds one entry per node, once known,
    /// so that a page's blocks ask each box once.
    fn of(
        page: &Page,
        stats: &Stats,
        facts: &mut NodeFacts<'_>,
        memo: &mut [Option<Standing>],
        node: NodeId,
    ) -> Standing {
        let dom = &page.dom;
        let total_blocks = page.blocks.len() as u32;
        let mut path = Vec::new();
        let mut inherited = Standing::Page;
        let mut at = Some(node);
        while let Some(n) = at {
            match memo.get(n as usize) {
                Some(None) => {}
                Some(&Some(known)) => {
                    inherited = known;
                    break;
                }
                None => break,
            }
            path.push(n);
            at = dom.parent(n);
        }
        for &n in path.iter().rev() {
            // A prompt's box (a subscription offer, a newsletter's sign-up) is as much the
            // page's furniture as its footer: beside the page's own lines it is no text of the
            // page, and when a prompt was chosen, its name made the page fall back. (A consent
            // manager's box is furniture too, by its name.) A wrapper of the page is asked only
            // whether it is a dialog, which says what it is however much of the page it holds
            // (a notice's inner box may hold as much); `is_overlay` asks a fixed box its size.
            let wrapper = select::wraps_the_page(stats, total_blocks, n);
            let own = if !wrapper && hints::names_consent(dom, n) {
                Standing::Consent
            } else if facts.is_overlay(stats, total_blocks, n) {
                Standing::Overlay
            } else if facts.is_other_story(stats, n) {
                Standing::OtherStory
            } else if wrapper {
                Standing::Page
            } else if widen::is_furniture_element(dom, n)
                || facts.hint(n).names_a_prompt()
                || facts.is_sign_up(n)
            {
                Standing::Furniture
            } else {
                Standing::Page
            };
            inherited = inherited.max(own);
            memo[n as usize] = Some(inherited);
        }
        inherited
    }
}

/// The word tokens of `text` (letters and digits).
fn word_tokens(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
}

/// How many words [`word_tokens`] finds in `text`, an ASCII text counted from its bytes: the
/// headline search counts every candidate line before it reads a word of it.
fn count_word_tokens(text: &str) -> usize {
    if !text.is_ascii() {
        return word_tokens(text).count();
    }
    let mut inside = false;
    let mut count = 0;
    for b in text.bytes() {
        let alphanumeric = b.is_ascii_alphanumeric();
        if alphanumeric && !inside {
            count += 1;
        }
        inside = alphanumeric;
    }
    count
}

/// `word` lower-cased into `buffer`, as [`words`] lower-cases it, without a String of its own
/// (this runs for every word of many blocks): ASCII without the Unicode tables, others through
/// `str::to_lowercase` (which lower-cases a word-final `Σ` to `ς`, as `char::to_lowercase` does
/// not).
fn lower_into<'b>(word: &str, buffer: &'b mut String) -> &'b str {
    buffer.clear();
    if word.is_ascii() {
        buffer.push_str(word);
        buffer.make_ascii_lowercase();
    } else {
        buffer.push_str(&word.to_lowercase());
    }
    buffer
}

/// Lower-case word tokens of `text`.
fn words(text: &str) -> Vec<String> {
    word_tokens(text).map(str::to_lowercase).collect()
}

/// The index of the headline block: a heading (or short block) whose words are the page title's,
/// nearest before or inside the containers; else the first `<h1>` inside them, else the last
/// `<h1>` before them.
fn headline(
    page: &Page,
    stats: &Stats,
    facts: &mut NodeFacts<'_>,
    containers: &[NodeId],
) -> Option<usize> {
    let start = first_block_of(stats, containers);
    let end = containers
        .iter()
        .map(|&c| stats.get(c).end_block)
        .max()
        .unwrap_or(0) as usize;
    let mut best: Option<(usize, f32)> = None;
    for (index, block) in page.blocks.iter().enumerate() {
        if !containers.is_empty() && index >= end.max(start) {
            break;
        }
        let heading = matches!(block.kind, BlockKind::Heading(1..=3));
        if !heading && !(3..=30).contains(&block.words) {
            continue;
        }
        let needed = if heading { 0.8 } else { 0.95 };
        // `needed` depends on the block alone, so a block's score serves every later search.
        let score = facts.title_score(page, index, |title| title_match(block, title, needed));
        if score >= needed && best.is_none_or(|(_, s)| score >= s) {
            best = Some((index, score));
        }
    }
    if let Some((index, _)) = best {
        return Some(index);
    }
    let is_h1 = |b: &Block| b.kind == BlockKind::Heading(1);
    if containers.is_empty() {
        return page.blocks.iter().position(is_h1);
    }
    page.blocks
        .get(start.min(page.blocks.len())..end.min(page.blocks.len()))
        .and_then(|inside| inside.iter().position(is_h1).map(|i| i + start))
        .or_else(|| {
            page.blocks
                .get(..start.min(page.blocks.len()))
                .and_then(|before| before.iter().rposition(is_h1))
        })
        .or_else(|| {
            // No title to match and no `<h1>`: a heading of our own text just before the
            // container.
            let from = start.saturating_sub(NEAR_HEADING_BLOCKS);
            page.blocks
                .get(from..start.min(page.blocks.len()))?
                .iter()
                .rposition(|b| {
                    matches!(b.kind, BlockKind::Heading(1..=3))
                        && b.words <= 25
                        && b.link_density() < 0.5
                })
                .map(|i| i + from)
        })
}

/// The index of the page's first heading (`<h1>`–`<h3>`) that reads as its title (see
/// [`title_match`]), outside the boxes that never hold the article's own headline (see
/// [`cannot_hold_the_headline`]). The article runs from there on (see
/// [`select::damp_outside_the_article`]).
fn titled_heading(page: &Page, facts: &mut NodeFacts<'_>) -> Option<usize> {
    (0..page.blocks.len()).position(|index| {
        reads_as_title(page, facts, index)
            && !cannot_hold_the_headline(&page.dom, page.blocks[index].node)
    })
}

/// Words of its own text the opened story holds, after its headline, before another story
/// begins, where the headline stands in no `<article>`.
const STORY_TEXT_BEFORE_WORDS: u32 = 10;

/// How many blocks open a story: its title stands among them (after a kicker, a date line, an
/// author's line, a picture), before its prose.
const STORY_OPENING_BLOCKS: usize = 12;

/// The page's other stories, in document order, none inside another: each `<article>` element
/// that does not hold the headline (block `headline`, the heading that reads as the page's
/// title), begins after [`STORY_TEXT_BEFORE_WORDS`] words of the opened story's own text (or
/// anywhere, when the headline stands in an `<article>` of its own), and opens with a title of
/// its own: before any prose of its own, a heading of the headline's rank or higher that does
/// not read as the page's title. A site that loads its next story below the one a reader
/// opened prints it so, and the next story holds as much prose as the first. An article's
/// sections, a thread's replies and a list's teasers open with lower headings than the page's
/// title, or with none; the body right under a headline printed in a band of its own is the
/// opened story, whatever heading opens it.
fn other_stories(
    page: &Page,
    stats: &Stats,
    facts: &mut NodeFacts<'_>,
    headline: usize,
) -> Vec<NodeId> {
    let dom = &page.dom;
    let Some(title) = page.blocks.get(headline) else {
        return Vec::new();
    };
    let BlockKind::Heading(rank) = title.kind else {
        return Vec::new();
    };
    // The page's `<article>`s in document order (a walk of the arena: cheaper than of the tree,
    // and a node outside the tree has no pre-order index).
    let mut articles: Vec<NodeId> = (0..dom.len() as NodeId)
        .filter(|&n| dom.is_html(n, &local_name!("article")) && stats.get(n).pre != u32::MAX)
        .collect();
    articles.sort_unstable_by_key(|&n| stats.get(n).pre);
    let headline_in_article = dom
        .ancestors(title.node)
        .any(|n| dom.is_html(n, &local_name!("article")));
    // Words of the opened story's own text from the headline on (lines neither mostly links nor
    // an author's or date line), counted up to block `counted` as the stories, in document
    // order, ask: only a page with a titled `<article>` besides the headline's reads its lines.
    let (mut counted, mut own_words) = (headline + 1, 0u32);
    let mut stories: Vec<NodeId> = Vec::new();
    for node in articles {
        if stats.contains(node, title.node)
            || stories.last().is_some_and(|&s| stats.contains(s, node))
        {
            continue;
        }
        let a = stats.get(node);
        // Bounded, so that a hostile page of nested untitled articles costs little.
        let opening = (a.first_block..a.end_block)
            .take(STORY_OPENING_BLOCKS)
            .map(|i| i as usize)
            .find(|&i| {
                page.blocks
                    .get(i)
                    .is_some_and(|b| b.is_prose() || matches!(b.kind, BlockKind::Heading(_)))
            });
        let titled = opening.is_some_and(|i| {
            matches!(page.blocks[i].kind, BlockKind::Heading(r) if r <= rank)
                && !reads_as_title(page, facts, i)
        });
        if !titled {
            continue;
        }
        // Where the headline stands in an `<article>` of its own, every other one is another
        // story. Elsewhere a story comes after the opened one's own text: an `<article>` right
        // under the headline, nothing of the story's between them, is the body the headline
        // opens (a site's title printed in a band above an `<article>` headed by another
        // heading).
        if !headline_in_article {
            let start = a.first_block as usize;
            for block in page.blocks.get(counted..start).into_iter().flatten() {
                if block.link_density() < 0.5 && !stats::looks_like_byline(block) {
                    own_words += block.words;
                }
            }
            counted = counted.max(start);
            if start <= headline || own_words < STORY_TEXT_BEFORE_WORDS {
                continue;
            }
        }
        stories.push(node);
    }
    stories
}

/// True when block `index` is a heading (`<h1>`–`<h3>`) that reads as the page's title (see
/// [`title_match`]), wherever it stands.
fn reads_as_title(page: &Page, facts: &mut NodeFacts<'_>, index: usize) -> bool {
    const NEEDED: f32 = 0.8;
    page.blocks.get(index).is_some_and(|block| {
        matches!(block.kind, BlockKind::Heading(1..=3))
            && facts.title_score(page, index, |title| title_match(block, title, NEEDED)) >= NEEDED
    })
}

/// True when `node` stands in navigation, a footer, an aside or a dialog (by element or by
/// role), or in the page's own header (its banner: see [`select::page_header_around`]): a
/// heading there that repeats the title (the logo's `<h1>` with the site's name, a footer's
/// "About us", a sign-up dialog naming the page) is not where the article begins. Unlike
/// [`widen::is_furniture_element`], a `<header>` inside an article counts as the article's: it
/// is where its headline stands.
fn cannot_hold_the_headline(dom: &Dom, node: NodeId) -> bool {
    let apart = std::iter::once(node).chain(dom.ancestors(node)).any(|n| {
        let by_name = dom.local_name(n).is_some_and(|name| {
            matches!(
                *name,
                local_name!("nav")
                    | local_name!("footer")
                    | local_name!("aside")
                    | local_name!("dialog")
            )
        });
        by_name
            || dom.attrs(n).iter().any(|(attr, value)| match *attr {
                local_name!("role") => matches!(
                    value.trim(),
                    "navigation"
                        | "contentinfo"
                        | "complementary"
                        | "banner"
                        | "dialog"
                        | "alertdialog"
                ),
                local_name!("aria-modal") => value.trim() == "true",
                _ => false,
            })
    });
    apart || select::page_header_around(dom, node)
}

/// The index of the first block inside `containers` (`usize::MAX` without containers).
fn first_block_of(stats: &Stats, containers: &[NodeId]) -> usize {
    containers
        .iter()
        .map(|&c| stats.get(c).first_block)
        .min()
        .map_or(usize::MAX, |b| b as usize)
}

/// How many blocks before the container a heading may stand and still be taken for its
/// headline when nothing better (a title match, an `<h1>`) is found.
const NEAR_HEADING_BLOCKS: usize = 6;

/// Share of the block's words found in the title, 0 when the block has fewer than two words or
/// is mostly links (a link to the article from a list of headlines).
fn title_match(block: &Block, title: &[String], needed: f32) -> f32 {
    if title.is_empty() || block.words < 2 || block.link_words * 2 > block.words {
        return 0.0;
    }
    let total = count_word_tokens(&block.text);
    if total == 0 {
        return 0.0;
    }
    let mut buffer = String::new();
    let (mut found, mut missed) = (0usize, 0usize);
    for word in word_tokens(&block.text) {
        let hit = if word.is_ascii() {
            title.iter().any(|t| t.eq_ignore_ascii_case(word))
        } else {
            let lower = lower_into(word, &mut buffer);
            title.iter().any(|t| t == lower)
        };
        if hit {
            found += 1;
        } else {
            missed += 1;
            // Most blocks are not the headline: stop once even a match of every word left
            // would score below `needed`.
            if ((total - missed) as f32 / total as f32) < needed {
                return 0.0;
            }
        }
    }
    found as f32 / total as f32
}

#[cfg(test)]
mod tests;
