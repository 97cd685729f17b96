//! The two decision trees of Kohlschütter, Fankhauser & Nejdl, "Boilerplate Detection using Shallow
//! Text Features" (WSDM 2010): Algorithm 1 (link density and text density of the previous, current
//! and next block) and Algorithm 2 (link density and number of words of the same three blocks),
//! exactly as printed.
//!
//! Choices where the paper is silent, and why:
//! - The trees see text blocks only. Image blocks are not text blocks in the paper's segmentation
//!   (text between two tags), so they are neither classified by the trees nor anyone's neighbour;
//!   they are labelled afterwards from the nearest text block before and after them: an image
//!   outside any hyperlink is content when either is content; an image inside a hyperlink (a
//!   teaser thumbnail, or a photo linking to its full size) only when both are, that is when the
//!   article surrounds it rather than a list of links.
//! - At the page edges the missing neighbour is an empty block: 0 words, link density 0, text
//!   density 0. This is what the authors' own code does (its `EMPTY_START` block), and it makes
//!   the `next_textDensity = 0` branch of Algorithm 1 mean "the last block of the page" (or one
//!   before a block without words).
//! - Link density of a block without words is 0 (no link words to speak of), as in their code.
//! - Text density wraps the whole text (every white-space token takes its width, as on screen)
//!   but counts only words, the paper's "white space delimited character sequences which at least
//!   contain one letter or digit", counted as the block builder counts them (each CJK character
//!   is a word). Widths are counted in characters, not bytes.

use crate::classify::{Label, Reason, Verdict};
use crate::dom::Dom;
use crate::page::{self, Block, BlockKind, Page};

/// Line width for text density, in characters (paper §3.4: w_max = 80).
pub const WRAP_WIDTH: usize = 80;

/// Which of the paper's two simplified C4.8 trees to apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Algorithm 2: number of words and link density (the paper's better one on both corpora).
    NumWords,
    /// Algorithm 1: text density and link density.
    Densitometric,
}

impl Variant {
    /// The method name under which this variant is selectable (`boilerpipe-words`,
    /// `boilerpipe-density`), also used as the extractor name in labels.
    pub fn name(self) -> &'static str {
        match self {
            Variant::NumWords => "boilerpipe-words",
            Variant::Densitometric => "boilerpipe-density",
        }
    }

    /// Both variants, in report order.
    pub fn all() -> [Variant; 2] {
        [Variant::NumWords, Variant::Densitometric]
    }

    /// The variant with method name `name`, if any.
    pub fn parse(name: &str) -> Option<Variant> {
        Variant::all().into_iter().find(|v| v.name() == name)
    }
}

/// The shallow features the trees read, for one text block (or the empty edge block).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
struct Features {
    words: u32,
    link_density: f64,
    text_density: f64,
}

impl Features {
    /// The features of `block`; text density (the costly one) only when `variant` reads it.
    fn of(block: &Block, variant: Variant) -> Features {
        Features {
            words: block.words,
            link_density: link_density(block),
            text_density: match variant {
                Variant::Densitometric => text_density(&block.text),
                Variant::NumWords => 0.0,
            },
        }
    }
}

/// Link density of a block: words inside `<a>` over all words, 0 for a block without words.
fn link_density(block: &Block) -> f64 {
    if block.words == 0 {
        0.0
    } else {
        f64::from(block.link_words.min(block.words)) / f64::from(block.words)
    }
}

/// Text density of a block's text (paper §3.4, equation 1): the text is word-wrapped at
/// [`WRAP_WIDTH`] characters; when that gives more than one line, the words on all lines but the
/// last (which is usually only partly filled) divided by the number of those lines; with one line,
/// the number of words. Empty text has density 0.
pub fn text_density(text: &str) -> f64 {
    // Greedy wrapping: a token goes on the current line when it fits after a space, else it starts
    // the next line; a token longer than a line sits alone on its own line (words are not broken).
    let mut lines = 0u32;
    let mut line_chars = 0usize;
    let mut words_on_line = 0u32;
    let mut words_before_last = 0u32;
    page::for_each_token(text, |len, word| {
        if lines == 0 || line_chars + 1 + len > WRAP_WIDTH {
            words_before_last += words_on_line;
            lines += 1;
            line_chars = len;
            words_on_line = 0;
        } else {
            line_chars += 1 + len;
        }
        words_on_line += u32::from(word);
    });
    match lines {
        0 => 0.0,
        1 => f64::from(words_on_line),
        _ => f64::from(words_before_last) / f64::from(lines - 1),
    }
}

/// Which leaf of a tree decided, for the label's reason.
fn leaf(content: bool, rule: &'static str) -> (bool, &'static str) {
    (content, rule)
}

/// Algorithm 2 of the paper, verbatim: returns whether `curr` is content and the deciding rule.
fn num_words_tree(prev: &Features, curr: &Features, next: &Features) -> (bool, &'static str) {
    if curr.link_density <= 0.333333 {
        if prev.link_density <= 0.555556 {
            if curr.words <= 16 {
                if next.words <= 15 {
                    if prev.words <= 4 {
                        leaf(false, "short block between short blocks")
                    } else {
                        leaf(true, "short block after a longer one")
                    }
                } else {
                    leaf(true, "short block before a long one")
                }
            } else {
                leaf(true, "long block")
            }
        } else if curr.words <= 40 {
            if next.words <= 17 {
                leaf(false, "after link text, next block short")
            } else {
                leaf(true, "after link text, next block long")
            }
        } else {
            leaf(true, "long block after link text")
        }
    } else {
        leaf(false, "link text")
    }
}

/// Algorithm 1 of the paper, verbatim: returns whether `curr` is content and the deciding rule.
fn density_tree(prev: &Features, curr: &Features, next: &Features) -> (bool, &'static str) {
    if curr.link_density <= 0.333333 {
        if prev.link_density <= 0.555556 {
            if curr.text_density <= 9.0 {
                if next.text_density <= 10.0 {
                    if prev.text_density <= 4.0 {
                        leaf(false, "sparse block between sparse blocks")
                    } else {
                        leaf(true, "sparse block after a denser one")
                    }
                } else {
                    leaf(true, "sparse block before a dense one")
                }
            } else if next.text_density == 0.0 {
                leaf(false, "dense block at the end")
            } else {
                leaf(true, "dense block")
            }
        } else if next.text_density <= 11.0 {
            leaf(false, "after link text, next block sparse")
        } else {
            leaf(true, "after link text, next block dense")
        }
    } else {
        leaf(false, "link text")
    }
}

/// Labels every block of `page` (one label per block, in order) with the tree of `variant`.
pub fn classify(page: &Page, variant: Variant) -> Vec<Label> {
    let blocks = &page.blocks;
    let text: Vec<usize> = (0..blocks.len())
        .filter(|&i| blocks[i].kind != BlockKind::Image)
        .collect();
    let features: Vec<Features> = text
        .iter()
        .map(|&i| Features::of(&blocks[i], variant))
        .collect();
    let edge = Features::default();

    let mut labels: Vec<Option<Label>> = vec![None; blocks.len()];
    for (t, &i) in text.iter().enumerate() {
        let prev = t.checked_sub(1).map_or(&edge, |p| &features[p]);
        let next = features.get(t + 1).unwrap_or(&edge);
        let curr = &features[t];
        let (content, rule) = match variant {
            Variant::NumWords => num_words_tree(prev, curr, next),
            Variant::Densitometric => density_tree(prev, curr, next),
        };
        let why = match variant {
            Variant::NumWords => format!(
                "{rule}: curr words {}, link density {:.2}, prev {} (link density {:.2}), next {}",
                curr.words, curr.link_density, prev.words, prev.link_density, next.words
            ),
            Variant::Densitometric => format!(
                "{rule}: curr text density {:.2}, link density {:.2}, prev {:.2} (link density {:.2}), next {:.2}",
                curr.text_density,
                curr.link_density,
                prev.text_density,
                prev.link_density,
                next.text_density
            ),
        };
        labels[i] = Some(label(variant, content, why));
    }

    // Images, in a second pass: they need the verdicts of the text blocks around them.
    let mut prev_text: Option<usize> = None;
    let mut next_pos = 0usize;
    for i in 0..blocks.len() {
        if blocks[i].kind != BlockKind::Image {
            prev_text = Some(i);
            continue;
        }
        while next_pos < text.len() && text[next_pos] < i {
            next_pos += 1;
        }
        let verdict_of = |j: Option<usize>| {
            j.and_then(|j| labels[j].as_ref())
                .is_some_and(Label::is_content)
        };
        let before = verdict_of(prev_text);
        let after = verdict_of(text.get(next_pos).copied());
        let linked = is_linked(&page.dom, &blocks[i]);
        labels[i] = Some(image_label(variant, linked, before, after));
    }

    labels
        .into_iter()
        .map(|l| {
            // Every index was filled above: text blocks in the first loop, images in the second.
            l.unwrap_or_else(|| label(variant, false, "unlabelled".to_string()))
        })
        .collect()
}

/// Whether an image block sits inside a hyperlink (an `<a href>`, what link words count).
fn is_linked(dom: &Dom, block: &Block) -> bool {
    dom.ancestors(block.node).any(|a| dom.is_hyperlink(a))
}

/// The label of an image block from the verdicts of the nearest text block before it and after it.
///
/// An image in the article flow sits next to article text; a thumbnail in a teaser list sits
/// inside a link, between link blocks. So an image that is not inside a link is content when
/// either neighbouring text block is content; an image inside a link (teasers, but also a photo
/// linking to its full size) only when both are, i.e. when it is surrounded by the article.
fn image_label(variant: Variant, linked: bool, before: bool, after: bool) -> Label {
    let content = if linked {
        before && after
    } else {
        before || after
    };
    let why = format!(
        "image{}: text before is {}, text after is {}",
        if linked { " inside a link" } else { "" },
        verdict_word(before),
        verdict_word(after)
    );
    label(variant, content, why)
}

fn verdict_word(content: bool) -> &'static str {
    if content { "content" } else { "boilerplate" }
}

fn label(variant: Variant, content: bool, why: String) -> Label {
    Label {
        verdict: if content {
            Verdict::Content
        } else {
            Verdict::Boilerplate
        },
        reason: Reason::Page {
            extractor: variant.name(),
            why: why.into(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::{BlockHash, ImageInfo, page_from_html};

    /// A text block of `words` words, `link_words` of them linked, with one-letter words so that
    /// any count fits a line or wraps predictably.
    fn block(words: u32, link_words: u32) -> Block {
        let text = vec!["w"; words as usize].join(" ");
        block_text(&text, words, link_words)
    }

    fn block_text(text: &str, words: u32, link_words: u32) -> Block {
        Block {
            position: 0,
            text: text.to_string(),
            kind: BlockKind::Paragraph,
            node: 0,
            tag_path: "html/body/p".to_string(),
            words,
            link_words,
            hash: BlockHash([0; 8]),
            image: None,
        }
    }

    fn image(tag_path: &str) -> Block {
        Block {
            position: 0,
            text: String::new(),
            kind: BlockKind::Image,
            node: 0,
            tag_path: tag_path.to_string(),
            words: 0,
            link_words: 0,
            hash: BlockHash([1; 8]),
            image: Some(ImageInfo {
                src: "https://example.com/a.jpg".to_string(),
                alt: String::new(),
            }),
        }
    }

    fn page(blocks: Vec<Block>) -> Page {
        let blocks = blocks
            .into_iter()
            .enumerate()
            .map(|(i, mut b)| {
                b.position = i as u32;
                b
            })
            .collect();
        Page {
            title: String::new(),
            dom: Dom::default(),
            blocks,
            declared: Default::default(),
            base: None,
        }
    }

    fn verdicts(page: &Page, variant: Variant) -> Vec<bool> {
        classify(page, variant)
            .iter()
            .map(Label::is_content)
            .collect()
    }

    /// The verdict for the middle block of prev/curr/next.
    fn middle(variant: Variant, prev: Block, curr: Block, next: Block) -> bool {
        verdicts(&page(vec![prev, curr, next]), variant)[1]
    }

    fn f(words: u32, link_density: f64, text_density: f64) -> Features {
        Features {
            words,
            link_density,
            text_density,
        }
    }

    #[test]
    fn text_density_single_line_is_the_word_count() {
        assert_eq!(text_density(""), 0.0);
        assert_eq!(text_density("   "), 0.0);
        assert_eq!(text_density("one two three"), 3.0);
        // Tokens without a letter or digit take room but are not words.
        assert_eq!(text_density("Home | News | Sport"), 3.0);
    }

    #[test]
    fn text_density_ignores_the_last_line() {
        // 9 chars + space per token: 8 tokens fill 79 chars; the 9th would make 89 > 80.
        let token = "abcdefghi";
        let two_lines_and_a_bit = vec![token; 8 * 2 + 1].join(" ");
        assert_eq!(text_density(&two_lines_and_a_bit), 8.0);
        // Exactly one full line plus one word: lines = 2, the first holds 8 words.
        let one_line_and_a_word = [token; 9].join(" ");
        assert_eq!(text_density(&one_line_and_a_word), 8.0);
        // A line of exactly 80 characters is still one line.
        let eighty = format!("{} {}", "a".repeat(39), "b".repeat(40));
        assert_eq!(eighty.chars().count(), 80);
        assert_eq!(text_density(&eighty), 2.0);
        assert_eq!(text_density(&format!("{eighty} c")), 2.0);
    }

    #[test]
    fn text_density_of_short_words_is_high() {
        // 40 one-letter words per 80-character line (79 chars), 100 words: 3 lines, 80 counted.
        let text = vec!["w"; 100].join(" ");
        assert_eq!(text_density(&text), 40.0);
    }

    #[test]
    fn text_density_counts_characters_not_bytes() {
        // 40 two-char non-ASCII words ("éé", 4 bytes each) fill 40*3-1 = 119 chars: two lines.
        let text = vec!["éé"; 40].join(" ");
        // 27 words fit in 80 chars (27*3-1 = 80), so the first line holds 27.
        assert_eq!(text_density(&text), 27.0);
    }

    #[test]
    fn cjk_characters_are_words() {
        assert_eq!(page::count_words("中文文本"), 4);
        assert_eq!(page::count_words("日本語、テスト。 ok - 42"), 8);
        // 60 ideographs take two columns each: 40 on the first line, 20 on the last.
        let text = "字".repeat(60);
        assert_eq!(text_density(&text), 40.0);
    }

    #[test]
    fn text_density_long_token_takes_its_own_line() {
        let long = "x".repeat(100);
        let text = format!("a b {long} c d");
        // Lines: "a b", long, "c d" -> (2 + 1) / 2.
        assert_eq!(text_density(&text), 1.5);
    }

    #[test]
    fn link_density_of_block() {
        assert_eq!(link_density(&block(0, 0)), 0.0);
        assert_eq!(link_density(&block(4, 1)), 0.25);
        assert_eq!(link_density(&block(4, 9)), 1.0);
    }

    #[test]
    fn num_words_tree_every_leaf() {
        let t = num_words_tree;
        // curr link density > 1/3.
        assert!(!t(&f(0, 0.0, 0.0), &f(50, 0.34, 0.0), &f(50, 0.0, 0.0)).0);
        // prev link density <= 0.555556, curr <= 16, next <= 15, prev <= 4.
        assert!(!t(&f(4, 0.0, 0.0), &f(16, 0.333333, 0.0), &f(15, 0.0, 0.0)).0);
        // ... prev > 4.
        assert!(t(&f(5, 0.0, 0.0), &f(16, 0.0, 0.0), &f(15, 0.0, 0.0)).0);
        // ... next > 15.
        assert!(t(&f(0, 0.0, 0.0), &f(1, 0.0, 0.0), &f(16, 0.0, 0.0)).0);
        // ... curr > 16.
        assert!(t(&f(0, 0.555556, 0.0), &f(17, 0.0, 0.0), &f(0, 0.0, 0.0)).0);
        // prev link density > 0.555556, curr <= 40, next <= 17.
        assert!(!t(&f(50, 0.56, 0.0), &f(40, 0.0, 0.0), &f(17, 0.0, 0.0)).0);
        // ... next > 17.
        assert!(t(&f(50, 0.56, 0.0), &f(40, 0.0, 0.0), &f(18, 0.0, 0.0)).0);
        // ... curr > 40.
        assert!(t(&f(50, 0.56, 0.0), &f(41, 0.0, 0.0), &f(0, 0.0, 0.0)).0);
    }

    #[test]
    fn density_tree_every_leaf() {
        let t = density_tree;
        // curr link density > 1/3.
        assert!(!t(&f(0, 0.0, 20.0), &f(0, 0.34, 20.0), &f(0, 0.0, 20.0)).0);
        // prev ld <= 0.555556, curr td <= 9, next td <= 10, prev td <= 4.
        assert!(!t(&f(0, 0.0, 4.0), &f(0, 0.0, 9.0), &f(0, 0.0, 10.0)).0);
        // ... prev td > 4.
        assert!(t(&f(0, 0.0, 4.5), &f(0, 0.0, 9.0), &f(0, 0.0, 10.0)).0);
        // ... next td > 10.
        assert!(t(&f(0, 0.0, 0.0), &f(0, 0.0, 1.0), &f(0, 0.0, 10.5)).0);
        // curr td > 9, next td = 0.
        assert!(!t(&f(0, 0.0, 20.0), &f(0, 0.0, 9.5), &f(0, 0.0, 0.0)).0);
        // ... next td > 0.
        assert!(t(&f(0, 0.0, 0.0), &f(0, 0.0, 9.5), &f(0, 0.0, 0.5)).0);
        // prev ld > 0.555556, next td <= 11.
        assert!(!t(&f(0, 0.6, 20.0), &f(0, 0.0, 30.0), &f(0, 0.0, 11.0)).0);
        // ... next td > 11.
        assert!(t(&f(0, 0.6, 0.0), &f(0, 0.0, 1.0), &f(0, 0.0, 11.5)).0);
    }

    #[test]
    fn num_words_branches_through_classify() {
        let v = Variant::NumWords;
        assert!(!middle(v, block(20, 0), block(20, 10), block(20, 0)));
        assert!(!middle(v, block(4, 0), block(10, 0), block(15, 0)));
        assert!(middle(v, block(5, 0), block(10, 0), block(15, 0)));
        assert!(middle(v, block(0, 0), block(10, 0), block(16, 0)));
        assert!(middle(v, block(0, 0), block(17, 0), block(0, 0)));
        assert!(!middle(v, block(10, 6), block(40, 0), block(17, 0)));
        assert!(middle(v, block(10, 6), block(40, 0), block(18, 0)));
        assert!(middle(v, block(10, 6), block(41, 0), block(0, 0)));
    }

    #[test]
    fn density_branches_through_classify() {
        let v = Variant::Densitometric;
        // One-letter words: a block of n <= 40 words has density n; 100 words have density 40.
        assert!(!middle(v, block(40, 0), block(40, 20), block(40, 0)));
        assert!(!middle(v, block(4, 0), block(9, 0), block(10, 0)));
        assert!(middle(v, block(5, 0), block(9, 0), block(10, 0)));
        assert!(middle(v, block(0, 0), block(9, 0), block(11, 0)));
        assert!(middle(v, block(0, 0), block(10, 0), block(1, 0)));
        assert!(!middle(v, block(10, 6), block(30, 0), block(11, 0)));
        assert!(middle(v, block(10, 6), block(1, 0), block(12, 0)));
        // curr dense with next density 0: a next block with no words.
        assert!(!middle(v, block(0, 0), block(10, 0), block_text("|", 0, 0)));
    }

    #[test]
    fn edges_are_empty_blocks() {
        // A single dense block: next is the empty end block, density 0 -> boilerplate.
        let p = page(vec![block(30, 0)]);
        assert_eq!(verdicts(&p, Variant::Densitometric), vec![false]);
        // ... while by words alone a long block is content.
        assert_eq!(verdicts(&p, Variant::NumWords), vec![true]);
        // The first block has prev = empty (0 words): short first block before a short one.
        let p = page(vec![block(10, 0), block(10, 0)]);
        assert_eq!(verdicts(&p, Variant::NumWords), vec![false, true]);
    }

    #[test]
    fn images_are_not_neighbours() {
        // prev of the middle text block is the 5-word block, not the image between them.
        let p = page(vec![
            block(5, 0),
            image("html/body/img"),
            block(10, 0),
            block(3, 0),
        ]);
        let v = verdicts(&p, Variant::NumWords);
        assert!(v[2]);
        // The image lies next to a content block and is not linked.
        assert!(v[1]);
    }

    #[test]
    fn image_labels() {
        let v = Variant::NumWords;
        assert!(image_label(v, false, true, false).is_content());
        assert!(image_label(v, false, false, true).is_content());
        assert!(!image_label(v, false, false, false).is_content());
        assert!(image_label(v, true, true, true).is_content());
        assert!(!image_label(v, true, true, false).is_content());
        // Images at the page edges have only one neighbour.
        let p = page(vec![image("html/body/img"), block(30, 0), block(30, 0)]);
        assert_eq!(verdicts(&p, v), vec![true, true, true]);
        let p = page(vec![image("html/body/img")]);
        assert_eq!(verdicts(&p, v), vec![false]);
    }

    #[test]
    fn linked_images_on_a_parsed_page() {
        let long = vec!["word"; 30].join(" ");
        let html = format!(
            r#"<body><p>{long}</p><a href="/big.jpg"><img src="photo.jpg"></a><p>{long}</p>
               <img src="chart.png"><ul><li><a href="/s1"><img src="t1.jpg"> Teaser one</a></li>
               <li><a href="/s2"><img src="t2.jpg"> Teaser two</a></li></ul><a name="x"><img src="n.jpg"></a></body>"#
        );
        let page = page_from_html(&html, None);
        let labels = classify(&page, Variant::NumWords);
        let image = |src: &str| {
            let i = page
                .blocks
                .iter()
                .position(|b| b.image.as_ref().is_some_and(|im| im.src.ends_with(src)))
                .unwrap_or_else(|| panic!("no image {src}"));
            (
                is_linked(&page.dom, &page.blocks[i]),
                labels[i].is_content(),
            )
        };
        // Linked, between two article paragraphs.
        assert_eq!(image("photo.jpg"), (true, true));
        // Not linked, after an article paragraph.
        assert_eq!(image("chart.png"), (false, true));
        // Teaser thumbnails: linked, next to link text.
        assert_eq!(image("t1.jpg"), (true, false));
        assert_eq!(image("t2.jpg"), (true, false));
        // A named anchor is not a hyperlink.
        assert!(!image("n.jpg").0);
    }

    #[test]
    fn empty_page_and_reasons() {
        assert!(classify(&page(vec![]), Variant::NumWords).is_empty());
        let p = page(vec![block(3, 0), block(12, 0), block(40, 0)]);
        let labels = classify(&p, Variant::NumWords);
        assert_eq!(labels.len(), 3);
        let Reason::Page { extractor, why } = &labels[1].reason else {
            panic!("page reason expected");
        };
        assert_eq!(*extractor, "boilerpipe-words");
        assert_eq!(
            why,
            "short block before a long one: curr words 12, link density 0.00, prev 3 (link density 0.00), next 40"
        );
    }

    #[test]
    fn variant_names_round_trip() {
        for v in Variant::all() {
            assert_eq!(Variant::parse(v.name()), Some(v));
        }
        assert_eq!(Variant::parse("boilerpipe"), None);
    }
}
