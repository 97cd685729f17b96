//! Last passes over a finished extraction: kept blocks that are not the page's own text after
//! all, whichever step kept them.

use super::select::NodeFacts;
use super::stats::Stats;
use super::{ArticleExtraction, clean, hints, is_headline, page_label};
use crate::classify::{Label, Verdict};
use crate::dom::{Dom, NodeId};
use crate::page::{Block, BlockKind, Page};

/// The reason of a shop's customer review.
const PRODUCT_REVIEW: &str = "removed: a customer review on a product's page";

/// On a page that declares itself a product, drops the kept blocks inside a box whose class or
/// id names reviews: customers' opinions of the product, in the shop's review widget, are not
/// the product's description, however much prose they hold.
pub(super) fn product_reviews(
    page: &Page,
    facts: &mut NodeFacts<'_>,
    mut extraction: ArticleExtraction,
) -> ArticleExtraction {
    // What the page declares is read once per extraction (usually parsed already, for the
    // cleaning's question whether it is a discussion): asked first, it spares every other page
    // the search of its boxes' names.
    if !facts.declares_product(page) {
        return extraction;
    }
    let dom = &page.dom;
    // Per node: 0 unknown, 1 not in a review box, 2 in one.
    let mut memo: Vec<u8> = vec![0; dom.len()];
    let reviews: Vec<usize> = page
        .blocks
        .iter()
        .zip(&extraction.labels)
        .enumerate()
        .filter(|(_, (block, label))| {
            label.is_content()
                && !is_headline(label)
                && hints::in_named_box(dom, &mut memo, block.node, "review")
        })
        .map(|(index, _)| index)
        .collect();
    for index in reviews {
        extraction.labels[index] = page_label(Verdict::Boilerplate, PRODUCT_REVIEW.into());
    }
    extraction
}

/// The reason of a quotation that repeats the text of a post above it.
const QUOTED_REPEAT: &str = "removed: a quotation of text kept above (a reply quoting a post)";

/// The reason of a line inside a quotation all of whose long lines repeat a post above.
const QUOTED_WHOLE: &str = "removed: in a quotation that only repeats a post above";

/// Words from which a quoted line is a post's text rather than an attribution (`— Senate
/// (@senate) October 9, 2018`), which two embedded posts of one author share.
const QUOTED_MIN_WORDS: u32 = 8;

/// Drops the kept blocks inside a quotation whose text a kept block above already says: a
/// thread's reply quoting the post it answers shows that post's text a second time, and a
/// reader has read it once. A quotation all of whose long lines repeat (those of the quotations
/// inside it included) goes whole, with the short lines and the attribution inside it (XenForo
/// and phpBB put the "X said:" line there; Discourse and Invision put it beside, where it
/// stays). Only quotations: text repeated elsewhere on a page (a summary, a caption) may be the
/// page's own twice.
pub(super) fn quoted_repeats(page: &Page, mut extraction: ArticleExtraction) -> ArticleExtraction {
    let candidate = |block: &Block, label: &Label| {
        label.is_content() && block.words >= QUOTED_MIN_WORDS && block.image.is_none()
    };
    // Most pages repeat nothing: a sorted copy of the hashes tells so without a hash set.
    let mut hashes: Vec<crate::page::BlockHash> = page
        .blocks
        .iter()
        .zip(&extraction.labels)
        .filter(|(b, l)| candidate(b, l))
        .map(|(b, _)| b.hash)
        .collect();
    hashes.sort_unstable();
    if !hashes.windows(2).any(|w| w[0] == w[1]) {
        return extraction;
    }
    let dom = &page.dom;
    let mut said = std::collections::HashSet::new();
    // Quotations with a repeated line, and those with a line said here first.
    let mut repeating = std::collections::HashSet::new();
    let mut saying = std::collections::HashSet::new();
    let mut quotations = QuotationsAround::new(dom);
    for (block, label) in page.blocks.iter().zip(extraction.labels.iter_mut()) {
        if !candidate(block, label) {
            continue;
        }
        let quotation = quotations.around(block.node);
        if !said.insert(block.hash)
            && let Some(quotation) = quotation
        {
            *label = page_label(Verdict::Boilerplate, QUOTED_REPEAT.into());
            repeating.insert(quotation);
        } else {
            // A line said here first spares its quotation and every quotation around it.
            let mut at = quotation;
            while let Some(q) = at {
                saying.insert(q);
                at = dom.parent(q).and_then(|p| quotations.around(p));
            }
        }
    }
    // A quotation all of whose long lines repeat is a repeat as a whole: its attribution ("X
    // said:") and its short lines ("Hello,", "Thanks") go with them.
    let repeated: std::collections::HashSet<NodeId> =
        repeating.difference(&saying).copied().collect();
    if !repeated.is_empty() {
        for (block, label) in page.blocks.iter().zip(extraction.labels.iter_mut()) {
            if label.is_content()
                && std::iter::successors(Some(block.node), |&n| dom.parent(n))
                    .any(|n| repeated.contains(&n))
            {
                *label = page_label(Verdict::Boilerplate, QUOTED_WHOLE.into());
            }
        }
    }
    extraction
}

/// The innermost quotation around each of a page's nodes (itself included, see
/// [`clean::is_quotation_element`]), each worked out once: the blocks of a thread share their
/// ancestors, and each ancestor's class is searched for `quote` once.
struct QuotationsAround<'a> {
    /// The page's DOM, whose ancestors are climbed.
    dom: &'a Dom,
    /// Per node, once known: the quotation around it, if any.
    known: Vec<Option<Option<NodeId>>>,
}

impl<'a> QuotationsAround<'a> {
    /// Nothing known yet of `dom`'s nodes.
    fn new(dom: &'a Dom) -> Self {
        QuotationsAround {
            dom,
            known: vec![None; dom.len()],
        }
    }

    /// The innermost quotation around `id` (itself included), if any.
    fn around(&mut self, id: NodeId) -> Option<NodeId> {
        let dom = self.dom;
        let mut path = Vec::new();
        let mut answer = None;
        let mut at = Some(id);
        while let Some(n) = at {
            match self.known.get(n as usize) {
                Some(None) => {}
                Some(&Some(known)) => {
                    answer = known;
                    break;
                }
                None => break,
            }
            if clean::is_quotation_element(dom, n) {
                answer = Some(n);
                self.known[n as usize] = Some(answer);
                break;
            }
            path.push(n);
            at = dom.parent(n);
        }
        for n in path {
            self.known[n as usize] = Some(answer);
        }
        answer
    }
}

/// The reason of a figure's caption.
const FIGURE_CAPTION: &str = "removed: a figure's caption (it says what the picture shows)";

/// Drops the kept captions of figures (`<figcaption>`): they describe a picture (what it shows,
/// who took it) rather than tell the story, and every hand-made gold text of the evaluation
/// sets leaves them out. A table's `<caption>` stays: it names what the table says.
pub(super) fn figure_captions(page: &Page, mut extraction: ArticleExtraction) -> ArticleExtraction {
    let dom = &page.dom;
    for (block, label) in page.blocks.iter().zip(extraction.labels.iter_mut()) {
        if block.kind == BlockKind::Caption
            && label.is_content()
            && dom.is_html(block.node, &html5ever::local_name!("figcaption"))
        {
            *label = page_label(Verdict::Boilerplate, FIGURE_CAPTION.into());
        }
    }
    extraction
}

/// The reason of an author's biography.
const AUTHOR_BIOGRAPHY: &str =
    "removed: the author's biography (it opens with the name the page declares as its author)";

/// Fewest words of a biography: shorter, a line opening with the author's name is a byline.
const BIOGRAPHY_WORDS: u32 = 12;

/// Share of the kept words that stand before a biography: it closes the article.
const BIOGRAPHY_AFTER: f32 = 0.75;

/// Most words of a line heading a biography in its box ("About the author", the author's name
/// and title).
const BIOGRAPHY_HEAD_WORDS: u32 = 6;

/// Most lines heading a biography in its box that go with it.
const BIOGRAPHY_HEAD_LINES: usize = 3;

/// Drops the author's biography under the article ("Anurag is an experienced journalist who has
/// covered tech for five years…"): a kept block of [`BIOGRAPHY_WORDS`] or more, in the last
/// quarter of the kept text, that opens with the name the page declares as its author's (see
/// [`super::declared::author_names`]), and the short lines heading it in a box of its own
/// ([`BIOGRAPHY_HEAD_WORDS`], at most [`BIOGRAPHY_HEAD_LINES`], never the headline), with the
/// author's portrait among them. It is about the writer, not the story, and the hand-made gold
/// texts of the evaluation sets leave it out. The full name opens a biography ("Amanda Furrer,
/// Editor, studied…"); the first name alone ("Anurag is…") does only in a box holding no other
/// prose, or as the last prose kept, since an article's own sentence may open with it ("Will the
/// council…" under Will Oremus's byline, "Michael Jordan retired…" under Michael Smith's). Not:
/// - where a kept line before the last quarter opens with the name: the article is about that
///   person (an interview, an about page);
/// - a speaker's label ("Jane Doe: So what happened…");
/// - a byline or a credit ("Jane Doe contributed reporting."), shorter than a biography;
/// - on a discussion (declared, or its container named a thread's view): its posts open with
///   their posters' names.
pub(super) fn author_biography(
    page: &Page,
    stats: &Stats,
    facts: &mut NodeFacts<'_>,
    mut extraction: ArticleExtraction,
) -> ArticleExtraction {
    // Kept text blocks long enough to be a biography, with the kept words before each, and the
    // last kept prose block.
    let mut long_lines: Vec<(usize, u32)> = Vec::new();
    let mut last_prose = None;
    let mut total = 0u32;
    for (index, (block, label)) in page.blocks.iter().zip(&extraction.labels).enumerate() {
        if !label.is_content() || block.kind == BlockKind::Image {
            continue;
        }
        if block.words >= BIOGRAPHY_WORDS {
            long_lines.push((index, total));
        }
        if block.is_prose() {
            last_prose = Some(index);
        }
        total += block.words;
    }
    // In the last quarter of the kept text.
    let late = |before: u32| before as f32 >= BIOGRAPHY_AFTER * total as f32;
    if !long_lines.iter().any(|&(_, before)| late(before))
        || super::discussion_cue(page, facts, &extraction.containers).is_some()
    {
        return extraction;
    }
    let mut names = super::declared::author_names(page, facts.json_ld(page));
    // A name that opens a line of the article proper is its subject's, not a byline's.
    names.retain(|name| {
        !long_lines.iter().any(|&(i, before)| {
            !late(before) && opens_with_name(&page.blocks[i].text, name).is_some()
        })
    });
    if names.is_empty() {
        return extraction;
    }
    for (index, _) in long_lines.into_iter().filter(|&(_, before)| late(before)) {
        let bio = &page.blocks[index];
        // The biography's own prose: a box holding no more is the biography's own.
        let own_prose = u32::from(bio.is_prose()) * bio.words;
        let alone = || {
            page.dom
                .parent(bio.node)
                .is_some_and(|box_| stats.get(box_).prose_words <= own_prose)
                || last_prose == Some(index)
        };
        let is_biography = names
            .iter()
            .filter_map(|name| opens_with_name(&bio.text, name))
            .any(|by| match by {
                NameOpening::Whole => true,
                NameOpening::First => alone(),
            });
        if !is_biography {
            continue;
        }
        extraction.labels[index] = page_label(Verdict::Boilerplate, AUTHOR_BIOGRAPHY.into());
        // The biography's box: up to a few short lines right before it that share with it a box
        // holding no other prose (its heading, the author's name and title).
        let mut taken = 0;
        for before in (0..index).rev() {
            let block = &page.blocks[before];
            let label = &extraction.labels[before];
            if !label.is_content() {
                continue;
            }
            let shared = std::iter::once(block.node)
                .chain(page.dom.ancestors(block.node))
                .find(|&n| stats.contains(n, bio.node));
            let in_its_box = shared.is_some_and(|n| stats.get(n).prose_words <= own_prose);
            let image = block.kind == BlockKind::Image;
            if (taken == BIOGRAPHY_HEAD_LINES && !image)
                || is_headline(label)
                || block.words > BIOGRAPHY_HEAD_WORDS
                || !in_its_box
            {
                break;
            }
            extraction.labels[before] = page_label(Verdict::Boilerplate, AUTHOR_BIOGRAPHY.into());
            // The author's portrait goes with the box, and counts as no line.
            taken += usize::from(!image);
        }
    }
    extraction
}

/// How a line opens with a person's name (see [`opens_with_name`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum NameOpening {
    /// With the whole name.
    Whole,
    /// With its first word alone.
    First,
}

/// How `text` opens with `name` (case as written), whole or by its first word, if it does. The
/// name must end where a word ends ("Ann" does not open "Anna"), and not before a colon: "Jane
/// Doe: So what happened…" is a speaker's label in an interview.
fn opens_with_name(text: &str, name: &str) -> Option<NameOpening> {
    let ends_the_word = |rest: &str| {
        rest.chars().next().is_none_or(|c| !c.is_alphanumeric())
            && !rest.trim_start().starts_with(':')
    };
    let first = name.split_whitespace().next().unwrap_or(name);
    if text.strip_prefix(name).is_some_and(ends_the_word) {
        Some(NameOpening::Whole)
    } else if text.strip_prefix(first).is_some_and(ends_the_word) {
        Some(NameOpening::First)
    } else {
        None
    }
}

/// The reason of a line that still holds its template's placeholders.
const UNRENDERED: &str = "removed: an unrendered template line ({{placeholder}})";

/// True when `text` holds a template placeholder left unfilled, `{{name}}` or
/// `{{article.magazine.date}}`: a widget whose script never ran (a subscription line, a
/// counter), not text anybody wrote for the page.
fn has_placeholder(text: &str) -> bool {
    let mut rest = text;
    while let Some(open) = rest.find("{{") {
        let after = &rest[open + 2..];
        let Some(close) = after.find("}}") else {
            return false;
        };
        let name = after[..close].trim();
        if !name.is_empty()
            && name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        {
            return true;
        }
        rest = &after[close + 2..];
    }
    false
}

/// Drops kept lines that hold an unfilled template placeholder (see [`has_placeholder`]). Code
/// keeps them: a listing of a template or of JSX, or a sentence quoting one in `<code>`, shows
/// its braces on purpose.
pub(super) fn unrendered_lines(
    page: &Page,
    mut extraction: ArticleExtraction,
) -> ArticleExtraction {
    let dom = &page.dom;
    let quotes_code = |node| {
        dom.descendants(node).any(|n| {
            dom.local_name(n).is_some_and(|name| {
                matches!(
                    *name,
                    html5ever::local_name!("code")
                        | html5ever::local_name!("kbd")
                        | html5ever::local_name!("samp")
                        | html5ever::local_name!("pre")
                )
            })
        })
    };
    for (block, label) in page.blocks.iter().zip(extraction.labels.iter_mut()) {
        if label.is_content()
            && block.kind != BlockKind::Preformatted
            && block.text.contains("{{")
            && has_placeholder(&block.text)
            && !quotes_code(block.node)
        {
            *label = page_label(Verdict::Boilerplate, UNRENDERED.into());
        }
    }
    extraction
}
