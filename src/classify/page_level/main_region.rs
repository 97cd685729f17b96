//! Never blank, by the page's own word: when the page marks its main content (`<main>`, or
//! `role="main"`) and what the extractor kept is a small part of the text in it, the choice was
//! wrong (one teaser of a section front, a list deleted as "alike items", a forum's opening
//! line), and the reader is better served by the region the page itself calls its main content
//! than by a nearly empty pane.
//!
//! This is the recall-first fallback of the last resort. It runs after every other step and keeps
//! the text of the marked region (headings, links and all: on a section front or a shop's
//! category page, the linked titles *are* the page's text), leaving out what is page furniture
//! wherever it stands (navigation, asides, dialogs, consent boxes, buttons), what names itself a
//! comment or after what stands around an article (a share box, related stories), and the lines
//! that are furniture by their words ("Advertisement", "Share this"). Starvation is judged on the
//! region's own text, its link lines (other than an entry's title over its summary), its comments
//! and those named boxes left out: a region that is mostly links (a list of
//! repositories with their star counts and contributors) does not make a complete extraction of
//! its descriptions look starved, unless the region has next to no other text and the extraction
//! kept next to nothing, none of it text outside furniture: then its link lines (a shop's
//! departments on its home page) are the page's text. Replies removed as alike items with bylines
//! do count, since a section front's stories are removed the same way and bringing those back is
//! the step's point; and an extraction that kept an article's worth outside the region is left
//! alone.

use super::clean;
use super::select::NodeFacts;
use super::stats::Stats;
use super::widen::{ancestor_mark, is_furniture_element, names_comment};
use super::{ArticleExtraction, Outside, Pick};
use crate::dom::{Dom, NodeId};
use crate::page::{BlockKind, Page};

/// The extraction is starved when it keeps fewer words than this share of the marked region's
/// own text.
const STARVED_SHARE: f32 = 0.2;

/// Link density from which a line of the region is a link (a menu entry, a star count, a
/// contributor's name) rather than its text, unless it is an entry's title over its summary (or
/// the region has next to no other text: see `links_only` in [`if_starved`]).
const LINK_LINE: f32 = 0.9;

/// A marked region with fewer words than this of its own text (outside link lines, furniture and
/// comments) is too small to judge from: a short page's extraction stands as it is, unless it
/// kept fewer words than this, none of them text outside furniture, and the region's link lines
/// are then judged as its text.
const MIN_REGION_WORDS: u32 = 50;

/// Replaces `first` by the page's marked main region when `first` keeps less than a fifth of the
/// region's own words (see the module's notes); otherwise returns `first` unchanged.
pub(super) fn if_starved(
    page: &Page,
    stats: &Stats,
    facts: &mut NodeFacts<'_>,
    first: ArticleExtraction,
) -> ArticleExtraction {
    let kept = super::kept_words(page, &first.labels).all;
    // Cheap bound first: the region's own text is at most the page's words (and an extraction
    // of fewer words than a region needs is judged on what it kept inside the region alone).
    let page_words = stats.get(page.dom.root()).words;
    if page_words < MIN_REGION_WORDS
        || kept >= MIN_REGION_WORDS && kept as f32 >= STARVED_SHARE * page_words as f32
    {
        return first;
    }
    let Some(region) = marked_main(&page.dom, stats) else {
        return first;
    };
    let agg = stats.get(region);
    let inside_region = |block: &crate::page::Block| {
        let pre = stats.get(block.node).pre;
        pre >= agg.pre && pre < agg.end
    };
    let mut set_apart = SetApart::new(&page.dom, stats, region);
    let mut own_words = 0;
    let mut link_words = 0;
    let mut kept_outside = 0;
    for (index, (block, label)) in page.blocks.iter().zip(&first.labels).enumerate() {
        if !inside_region(block) {
            if label.is_content() {
                kept_outside += block.words;
            }
            continue;
        }
        // Alike items with bylines removed by the extraction count: they are as often a
        // section front's stories as replies under an article, and the step is for the first.
        if set_apart.holds(facts, block.node).is_some() || super::in_comment_section(label) {
            continue;
        }
        if block.link_density() < LINK_LINE
            || super::widen::heads_a_summary(page, stats, index, agg.end)
        {
            own_words += block.words;
        } else if !clean::is_furniture_line(block) {
            link_words += block.words;
        }
    }
    // A region whose every line is a link (a shop's home page: its categories and departments)
    // has no text of its own to judge by. When the extraction kept next to nothing, none of it
    // text outside furniture, those lines are what the page offers, and they are judged as its
    // text against what was kept inside the region. (A caption kept beside a region of links is
    // the page's text, and the region's links stay links.)
    let links_only = own_words < MIN_REGION_WORDS
        && kept < MIN_REGION_WORDS
        && page.blocks.iter().zip(&first.labels).all(|(block, label)| {
            !label.is_content()
                || inside_region(block)
                || std::iter::successors(Some(block.node), |&n| page.dom.parent(n))
                    .any(|n| is_furniture_element(&page.dom, n))
        });
    let (region_words, kept) = if links_only {
        (own_words + link_words, kept.saturating_sub(kept_outside))
    } else {
        (own_words, kept)
    };
    // An article's worth kept outside the region: the page's article stands outside what it
    // marks as main (a region of teasers beside it), and stays as it was.
    if region_words < MIN_REGION_WORDS
        || kept as f32 >= STARVED_SHARE * region_words as f32
        || kept_outside >= super::widen::ARTICLE_WORDS
    {
        return first;
    }
    let why = if links_only {
        format!(
            "main region: the extraction kept {kept} words in the page's marked main content {}, \
             all but {own_words} of whose {region_words} words are lines of links",
            super::select::describe(&page.dom, region)
        )
    } else {
        format!(
            "main region: the extraction kept {kept} words, under a fifth of the {region_words} \
             words of the page's own text (lines of links left out) in its marked main content {}",
            super::select::describe(&page.dom, region)
        )
    };
    let picks = page
        .blocks
        .iter()
        .zip(&first.labels)
        .map(|(block, label)| {
            if !inside_region(block) {
                return Pick::Outside;
            }
            if let Some(why) = set_apart.holds(facts, block.node) {
                return Pick::Drop(why);
            }
            if super::in_comment_section(label) {
                return Pick::Drop(super::COMMENTS);
            }
            if block.kind != BlockKind::Image
                && (block.words == 0 || clean::is_furniture_line(block))
            {
                return Pick::Drop("main region: a furniture line inside it");
            }
            Pick::Keep(why.clone())
        })
        .collect();
    let headline = super::headline(page, stats, facts, &[region]);
    let labels = super::relabel(
        picks,
        first.labels,
        headline,
        Outside::Goes("main region: outside the page's marked main content"),
    );
    ArticleExtraction {
        labels,
        containers: vec![region],
    }
}

/// The element the page marks as its main content: a `<main>` or an element with `role="main"`,
/// the one holding the most words when there are several (a page may nest a second one in a
/// dialog, or mark an empty one for a script to fill).
fn marked_main(dom: &Dom, stats: &Stats) -> Option<NodeId> {
    dom.descendants(dom.root())
        .filter(|&n| super::select::marks_main(dom, n))
        .filter(|&n| !is_furniture_element(dom, n))
        .max_by_key(|&n| stats.get(n).words)
}

/// What inside the region is set apart from its text: furniture, boxes that name themselves
/// comments, and boxes named for what stands around an article (a share bar, related stories).
/// Answers are cached per node (each node's ancestors are looked at once).
struct SetApart<'d> {
    dom: &'d Dom,
    stats: &'d Stats,
    region: NodeId,
    /// Per node ([`ancestor_mark`]): 0 not yet known, 1 clear, 2 furniture, 3 a comment, 4 named
    /// for what stands around an article, 5 another story (see [`super::other_stories`]).
    cache: Vec<u8>,
}

impl<'d> SetApart<'d> {
    fn new(dom: &'d Dom, stats: &'d Stats, region: NodeId) -> Self {
        SetApart {
            dom,
            stats,
            region,
            cache: vec![0; dom.len()],
        }
    }

    /// Why the block at `id` is set apart from the region's text, if it is.
    fn holds(&mut self, facts: &mut NodeFacts<'_>, id: NodeId) -> Option<&'static str> {
        let dom = self.dom;
        let mark = ancestor_mark(dom, &mut self.cache, id, self.region, |n| {
            if is_furniture_element(dom, n) {
                2
            } else if facts.is_other_story(self.stats, n) {
                5
            } else if names_comment(facts, n) {
                3
            } else if super::widen::sets_apart_as_surroundings(self.stats, facts, n, self.region) {
                4
            } else {
                1
            }
        });
        match mark {
            2 => Some("main region: navigation or page furniture inside it"),
            3 => Some("main region: a comment inside it"),
            4 => Some("main region: a box named for what stands around an article"),
            5 => Some("main region: another story inside it"),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use url::Url;

    use super::*;
    use crate::classify::{Label, Reason, Verdict};
    use crate::page::page_from_html;

    /// A section front: a short introduction, then stories each with a linked title, a summary
    /// and a byline, all inside `<main>`; navigation outside it; a comment box, an advertisement
    /// and a share box inside.
    fn section_front(stories: usize) -> String {
        let items: String = (0..stories)
            .map(|n| {
                format!(
                    "<article class=story><h2><a href=/s/{n}>Story {n} about the river \
                     survey</a></h2><p>Summary {n}: the survey found the river cleaner than \
                     last year, with more fish and fewer algae near the old mill.</p>\
                     <p class=byline>By Jane Doe, May {n}</p></article>"
                )
            })
            .collect();
        format!(
            "<html><body><nav><ul><li><a href=/a>Home</a></li><li><a href=/b>Science</a></li>\
             </ul></nav><main><h1>Science</h1><div class=intro><p>Our science desk covers the \
             river, the hills and the sky above the valley.</p></div>{items}\
             <div class=comments><p>A reader wrote that the survey missed the northern bank \
             entirely, and that the mill's owners were never asked about their drains.</p></div>\
             <p>Advertisement</p><div class=share-tools><p>Share this page with a friend who \
             cares about the river as much as you do.</p></div></main><footer><p>Copyright the Valley Times, all \
             rights reserved, every year since the paper was founded.</p></footer></body></html>"
        )
    }

    fn label(verdict: Verdict, why: &'static str) -> Label {
        Label {
            verdict,
            reason: Reason::Page {
                extractor: super::super::NAME,
                why: why.into(),
            },
        }
    }

    /// Runs the step on `html` after a first extraction that kept only the blocks whose text
    /// contains one of `kept`, and removed those whose text contains `removed.0` for the reason
    /// `removed.1`.
    fn after_first_with(
        html: &str,
        kept: &[&str],
        removed: Option<(&str, &'static str)>,
    ) -> (Page, ArticleExtraction) {
        let base = Url::parse("https://example.com/science").ok();
        let page = page_from_html(html, base.as_ref());
        let labels = page
            .blocks
            .iter()
            .map(|b| {
                if kept.iter().any(|k| b.text.contains(k)) {
                    label(Verdict::Content, "first")
                } else if let Some((marker, why)) = removed
                    && b.text.contains(marker)
                {
                    label(Verdict::Boilerplate, why)
                } else {
                    label(Verdict::Boilerplate, "first")
                }
            })
            .collect();
        let first = ArticleExtraction {
            labels,
            containers: Vec::new(),
        };
        let stats = Stats::compute(&page);
        let mut facts = NodeFacts::new(&page.dom);
        let after = if_starved(&page, &stats, &mut facts, first);
        (page, after)
    }

    fn after_first(html: &str, kept: &str) -> (Page, ArticleExtraction) {
        after_first_with(html, &[kept], None)
    }

    fn content(page: &Page, x: &ArticleExtraction) -> Vec<String> {
        page.blocks
            .iter()
            .zip(&x.labels)
            .filter(|(_, l)| l.is_content())
            .map(|(b, _)| b.text.clone())
            .collect()
    }

    #[test]
    fn a_starved_extraction_gives_way_to_the_marked_main_region() {
        let (page, x) = after_first(&section_front(8), "Our science desk");
        let kept = content(&page, &x);
        for n in 0..8 {
            assert!(
                kept.iter().any(|k| k.starts_with(&format!("Summary {n}:"))),
                "{kept:?}"
            );
            assert!(
                kept.iter()
                    .any(|k| k == &format!("Story {n} about the river survey"))
            );
        }
        assert!(kept.iter().any(|k| k.starts_with("Our science desk")));
        // Navigation and the footer are outside the region; the comment, the advertisement and
        // the share box are set apart inside it.
        for gone in [
            "Home",
            "Copyright",
            "A reader wrote",
            "Advertisement",
            "Share this page",
        ] {
            assert!(
                !kept.iter().any(|k| k.contains(gone)),
                "{gone} kept: {kept:?}"
            );
        }
        let why = page
            .blocks
            .iter()
            .zip(&x.labels)
            .find(|(b, _)| b.text.starts_with("Summary 3"))
            .map(|(_, l)| format!("{:?}", l.reason))
            .unwrap_or_default();
        assert!(why.contains("main region"), "{why}");
    }

    #[test]
    fn a_fifth_of_the_region_is_the_bar() {
        // Each story is about 30 words of the region's some 256: three summaries kept are over
        // a fifth of it and stand; two are under and give way.
        let html = section_front(8);
        let (page, x) = after_first_with(&html, &["Summary 0:", "Summary 1:", "Summary 2:"], None);
        assert_eq!(content(&page, &x).len(), 3, "{:?}", content(&page, &x));
        let (page, x) = after_first_with(&html, &["Summary 0:", "Summary 1:"], None);
        assert!(content(&page, &x).len() > 20, "{:?}", content(&page, &x));
    }

    /// A shop's home page: its departments as linked names in `<main>` (some 90 words, all
    /// links), `intro` beside them, and a trademark notice in the footer (`outside` adds a
    /// caption of the shop's own between the navigation and `<main>`).
    fn shop_home(intro: &str, outside: &str) -> String {
        let departments: String = [
            "Watercolor Paint",
            "Acrylic Paint",
            "Oil Paint",
            "Brushes and Painting Tools",
            "Colored Pencils and Graphite",
            "Markers and Pens",
            "Fine Writing Supplies",
            "Paper and Boards",
            "Easels and Studio Furniture",
            "Frames and Framing Supplies",
            "Ceramics and Sculpture",
            "Printmaking Tools",
            "Crafts and Textiles",
            "Kids Art Supplies",
            "Canvas and Surfaces",
            "Drawing and Illustration",
            "Gifts for Artists",
            "Clearance Deals",
            "Airbrush and Spray Paint",
            "Calligraphy and Lettering",
            "Storage and Portfolios",
            "Digital Art Tools",
        ]
        .iter()
        .enumerate()
        .map(|(n, name)| format!("<li><a href=/c/{n}><h3>{name}</h3></a></li>"))
        .collect();
        format!(
            "<html><body><nav><a href=/>Home</a><a href=/sale>Sale</a></nav>{outside}<main>\
             <h2>Shop by Department</h2>{intro}<ul class=grid>{departments}</ul></main><footer>\
             <p>Blick, Blick Studio and Artists Pick Blick are registered trademarks of the \
             shop, which holds every right to the names, the marks and the pictures on these \
             pages in every country.</p></footer></body></html>"
        )
    }

    #[test]
    fn a_region_of_link_lines_is_the_page_when_nothing_was_kept_in_it() {
        let (page, x) = after_first(&shop_home("", ""), "registered trademarks");
        let kept = content(&page, &x);
        for name in ["Watercolor Paint", "Kids Art Supplies", "Digital Art Tools"] {
            assert!(kept.iter().any(|k| k == name), "{name}: {kept:?}");
        }
        assert!(!kept.iter().any(|k| k.contains("trademarks")), "{kept:?}");
        assert!(!kept.iter().any(|k| k == "Sale"), "{kept:?}");
        // A line of the region's own text kept beside the links is over a fifth of the region:
        // the extraction stands.
        let intro = "<p>We have sold art materials to painters, schools and studios since the \
                     shop first opened its doors downtown.</p>";
        let (page, x) = after_first(&shop_home(intro, ""), "We have sold");
        assert_eq!(content(&page, &x).len(), 1, "{:?}", content(&page, &x));
        // A caption kept outside `<main>`, not in furniture, is the page's text: the region's
        // links stay links beside it.
        let caption = "<p class=caption>The new studio on Main Street, photographed on its \
                       first morning, with the easels set out for the opening class.</p>";
        let (page, x) = after_first(&shop_home("", caption), "The new studio");
        assert_eq!(content(&page, &x).len(), 1, "{:?}", content(&page, &x));
    }

    #[test]
    fn a_page_without_a_marked_main_region_is_left_alone() {
        let html = section_front(8)
            .replace("<main>", "<div class=wrap>")
            .replace("</main>", "</div>");
        let (page, x) = after_first(&html, "Our science desk");
        assert_eq!(content(&page, &x).len(), 1);
    }

    /// An article of three paragraphs inside <main>, all kept.
    const ARTICLE: &str = "<h1>River survey</h1><p>The count found the river cleaner than last \
        year, with more fish and fewer algae near the old mill, the report says.</p><p>Officials \
        credited the new drains, which the council paid for after years of complaints from \
        anglers along the northern bank.</p><p>The next survey, in the spring, will count the \
        otters that came back to the lower river after an absence of twenty years.</p>";

    fn article_kept(html: &str, removed: Option<(&str, &'static str)>) -> usize {
        let (page, x) = after_first_with(
            html,
            &["count found", "Officials credited", "The next survey"],
            removed,
        );
        content(&page, &x).len()
    }

    #[test]
    fn comments_and_links_do_not_make_a_complete_article_look_starved() {
        // Followed by a long comment thread and a list of linked related stories: the article
        // holds most of the region's own text.
        let comments: String = (0..20)
            .map(|n| {
                format!(
                    "<li class=comment><p>Comment {n} says the council should have acted on \
                     the survey years ago, before the fish left the lower river.</p></li>"
                )
            })
            .collect();
        let related: String = (0..30)
            .map(|n| format!("<li><a href=/r/{n}>Related story number {n} of the week</a></li>"))
            .collect();
        let html = format!(
            "<html><body><main>{ARTICLE}<ul>{related}</ul><ol class=comments>{comments}</ol>\
             </main></body></html>"
        );
        assert_eq!(article_kept(&html, None), 3);
    }

    #[test]
    fn a_thread_opened_by_a_comments_heading_is_no_sign_of_starving() {
        let replies: String = (0..20)
            .map(|n| {
                format!(
                    "<div class=reply><p>Reply {n}: the council should have acted on the survey \
                     years ago, before the fish left the lower river.</p></div>"
                )
            })
            .collect();
        let html =
            format!("<html><body><main>{ARTICLE}<h3>Comments</h3>{replies}</main></body></html>");
        assert_eq!(
            article_kept(&html, Some(("Reply ", super::super::COMMENTS))),
            3
        );
    }

    #[test]
    fn an_article_kept_outside_the_region_stands() {
        // The article before a <main> of twenty teasers: it is kept, and what it left is not.
        let html = section_front(20).replacen(
            "<html><body>",
            &format!("<html><body><div class=story>{ARTICLE}</div>"),
            1,
        );
        assert_eq!(article_kept(&html, None), 3);
    }
}
