//! Choosing the main container: every paragraph scores its holder and, decaying, the holder's
//! ancestors; the best-scored node wins, may move up to an ancestor that holds several strong
//! candidates, and takes along the siblings that belong with it.

use html5ever::local_name;

use super::hints::{self, Hint};
use super::stats::{self, Stats};
use crate::dom::{Dom, NodeId};
use crate::page::{Block, BlockKind, Page};

/// How much of a paragraph's score reaches the candidate `level` steps above its holder
/// (Readability's decay: the holder all, its parent half, further ancestors a third per level).
const DECAY: [f32; 5] = [1.0, 2.0, 6.0, 9.0, 12.0];

/// What reaches past a comment, a sidebar or one of many repeated items: their paragraphs score
/// their own box, but barely the page around it, so a long comment thread does not outweigh the
/// article it hangs under.
const DAMP_OUTSIDE_NEGATIVE: f32 = 0.25;

/// The score, relative to the best, from which a box near the chosen one is a second part of
/// the article rather than a teaser or an aside.
const SPLIT_SHARE: f32 = 0.8;

/// Context bit: the node's entry is computed.
const KNOWN: u8 = 1;
/// Context bit: the node or an ancestor is negatively hinted.
const NEGATIVE: u8 = 2;
/// Context bit: the node or an ancestor is a consent manager's box.
const CONSENT: u8 = 4;
/// Context bit: the node or an ancestor is a box laid over the page (see
/// [`NodeFacts::is_overlay`]).
const OVERLAY: u8 = 8;
/// Context bit: the node or an ancestor is a box that asks for an email address (see
/// [`NodeFacts::is_sign_up`]).
const SIGN_UP: u8 = 16;

/// Cached per-node facts that are costly enough to compute only for the nodes asked about.
pub(super) struct NodeFacts<'a> {
    dom: &'a Dom,
    /// The boxes the page fixes over itself, sorted, but for one holding a heading that reads
    /// as the page's title (see [`NodeFacts::of_page`]).
    overlays: Vec<NodeId>,
    /// The modal dialogs the page declares, sorted, but for one holding a heading that reads as
    /// the page's title (see [`NodeFacts::of_page`]).
    dialogs: Vec<NodeId>,
    /// The boxes that ask for an email address, sorted (see [`NodeFacts::is_sign_up`]).
    sign_ups: Vec<NodeId>,
    hints: Vec<Option<Hint>>,
    attr_words: hints::AttrWords<'a>,
    /// 0 = not computed, 1 = not a repeated item, 2 = a repeated item.
    repeated: Vec<u8>,
    /// 0 = not computed, else [`KNOWN`] with the context bits of the node and its ancestors.
    negative_context: Vec<u8>,
    /// Per block, how well it matches the page's title, once asked: the headline is looked for
    /// several times per page, over overlapping ranges of blocks.
    title_scores: Vec<Option<f32>>,
    /// The page title's words, lower-cased, once asked for.
    title_words: Option<Vec<String>>,
    /// The page's JSON-LD documents, parsed once asked: every question about what the page
    /// declares reads them, and parsing is most of what answering costs.
    json_ld: Option<Vec<serde_json::Value>>,
    /// What the page declares itself (see [`Declared`]), each once asked: each cleaning asks
    /// whether it is a discussion.
    declared: [Option<bool>; 4],
    /// Which lists lead to other sites, each once asked (see [`super::elsewhere`]).
    elsewhere: super::elsewhere::ElsewhereCache,
    /// The page's other stories, in document order, none inside another (see
    /// [`super::other_stories`]); empty until the headline is found.
    other_stories: Vec<NodeId>,
}

/// What a page may declare itself in its structured data, as [`NodeFacts`] keeps the answers.
#[derive(Clone, Copy)]
enum Declared {
    Discussion,
    Article,
    Product,
    Faq,
}

impl<'a> NodeFacts<'a> {
    /// Empty caches for `dom`.
    pub fn new(dom: &'a Dom) -> NodeFacts<'a> {
        NodeFacts {
            dom,
            overlays: Vec::new(),
            dialogs: Vec::new(),
            sign_ups: Vec::new(),
            hints: vec![None; dom.len()],
            attr_words: hints::AttrWords::new(dom),
            repeated: vec![0; dom.len()],
            negative_context: vec![0; dom.len()],
            title_scores: Vec::new(),
            title_words: None,
            json_ld: None,
            declared: [None; 4],
            elsewhere: Default::default(),
            other_stories: Vec::new(),
        }
    }

    /// Notes the page's other stories (see [`super::other_stories`]), in document order.
    pub fn set_other_stories(&mut self, stories: Vec<NodeId>) {
        self.other_stories = stories;
    }

    /// True when `id` is one of the page's other stories.
    pub fn is_other_story(&self, stats: &Stats, id: NodeId) -> bool {
        self.last_story_from(stats, id) == Some(id)
    }

    /// True when `id` stands in one of the page's other stories (itself one included).
    pub fn in_other_story(&self, stats: &Stats, id: NodeId) -> bool {
        self.last_story_from(stats, id)
            .is_some_and(|story| stats.contains(story, id))
    }

    /// The last of the page's other stories to open at `id` or before it: the only one that
    /// could be `id` or hold it, the stories being disjoint and in document order.
    fn last_story_from(&self, stats: &Stats, id: NodeId) -> Option<NodeId> {
        let pre = stats.get(id).pre;
        let after = self
            .other_stories
            .partition_point(|&story| stats.get(story).pre <= pre);
        after.checked_sub(1).map(|last| self.other_stories[last])
    }

    /// The facts of `page`'s DOM, with what the page declares of its layout (the boxes it lays
    /// over itself: see [`Page`]'s `declared.overlays` and `declared.dialogs`) and the boxes
    /// that ask for an email address (see [`NodeFacts::is_sign_up`]), which `stats` measure;
    /// [`NodeFacts::new`] knows the DOM alone.
    pub fn of_page(page: &'a Page, stats: &Stats) -> NodeFacts<'a> {
        let mut counts = super::RunningCounts::default();
        let mut sign_ups: Vec<NodeId> = page
            .declared
            .email_fields
            .iter()
            .take(MAX_SIGN_UP_FIELDS)
            .filter_map(|&field| sign_up_around(page, stats, &mut counts, field))
            .collect();
        sign_ups.sort_unstable();
        sign_ups.dedup();
        let mut facts = NodeFacts {
            sign_ups,
            ..NodeFacts::new(&page.dom)
        };
        // A story opened in a modal over its site's front is the page, not laid over it: its
        // headline reads as the page's title, even where no `<h1>` marks it. So is a reading
        // pane a site fixes to the viewport.
        if !page.declared.dialogs.is_empty() || !page.declared.overlays.is_empty() {
            // The headings reading as the title, found once, in block order: each box then asks
            // whether one falls among its blocks (nested boxes share them).
            let titled: Vec<usize> = (0..page.blocks.len())
                .filter(|&index| super::reads_as_title(page, &mut facts, index))
                .collect();
            let untitled = |boxes: &[NodeId]| -> Vec<NodeId> {
                boxes
                    .iter()
                    .copied()
                    .filter(|&b| {
                        let a = stats.get(b);
                        let first = titled.partition_point(|&t| t < a.first_block as usize);
                        titled.get(first).is_none_or(|&t| t >= a.end_block as usize)
                    })
                    .collect()
            };
            facts.dialogs = untitled(&page.declared.dialogs);
            facts.overlays = untitled(&page.declared.overlays);
        }
        facts
    }

    /// True when `id` is a box that asks for an email address and says little else (see
    /// [`sign_up_around`]): a newsletter's sign-up and its pitch, a comment form, a log-in.
    pub fn is_sign_up(&self, id: NodeId) -> bool {
        self.sign_ups.binary_search(&id).is_ok()
    }

    /// True when the links inside `id` lead mostly to other owners' sites
    /// ([`super::elsewhere::box_leads_elsewhere`]).
    pub fn box_leads_elsewhere(&mut self, page: &Page, id: NodeId) -> bool {
        super::elsewhere::box_leads_elsewhere(page, &mut self.elsewhere, id)
    }

    /// True when `id` is a list, or a line of one, that leads to other sites
    /// ([`super::elsewhere::in_list_leading_elsewhere`]).
    pub fn in_list_leading_elsewhere(&mut self, page: &Page, stats: &Stats, id: NodeId) -> bool {
        super::elsewhere::in_list_leading_elsewhere(page, stats, &mut self.elsewhere, id)
    }

    /// True when `id` is a box of links to documents, or a line of a list of them
    /// ([`super::elsewhere::in_list_leading_to_documents`]).
    pub fn leads_to_documents(&mut self, page: &Page, id: NodeId) -> bool {
        super::elsewhere::in_list_leading_to_documents(page, &mut self.elsewhere, id)
    }

    /// The JSON-LD documents of `page` (the page of this DOM), parsed the first time they are
    /// asked for ([`super::declared::parse_json_ld`]).
    pub fn json_ld(&mut self, page: &Page) -> &[serde_json::Value] {
        self.json_ld
            .get_or_insert_with(|| super::declared::parse_json_ld(page))
    }

    /// Whether `page` declares itself a discussion
    /// ([`super::declared::declares_discussion`]), read once per page.
    pub fn declares_discussion(&mut self, page: &Page) -> bool {
        self.declares(page, Declared::Discussion)
    }

    /// Whether `page` declares itself an article ([`super::declared::declares_article`]), read
    /// once per page.
    pub fn declares_article(&mut self, page: &Page) -> bool {
        self.declares(page, Declared::Article)
    }

    /// Whether `page` declares a product for sale ([`super::declared::declares_product`]), read
    /// once per page.
    pub fn declares_product(&mut self, page: &Page) -> bool {
        self.declares(page, Declared::Product)
    }

    /// Whether `page` declares questions and answers ([`super::declared::declares_faq`]), read
    /// once per page.
    pub fn declares_faq(&mut self, page: &Page) -> bool {
        self.declares(page, Declared::Faq)
    }

    /// Whether `page` declares `what`, worked out from its JSON-LD the first time it is asked.
    fn declares(&mut self, page: &Page, what: Declared) -> bool {
        if let Some(known) = self.declared[what as usize] {
            return known;
        }
        let ask = match what {
            Declared::Discussion => super::declared::declares_discussion,
            Declared::Article => super::declared::declares_article,
            Declared::Product => super::declared::declares_product,
            Declared::Faq => super::declared::declares_faq,
        };
        let answer = ask(page, self.json_ld(page));
        self.declared[what as usize] = Some(answer);
        answer
    }

    /// The element's hint (see [`hints::hint`]).
    pub fn hint(&mut self, id: NodeId) -> Hint {
        match self.hints.get(id as usize) {
            Some(Some(h)) => *h,
            Some(None) => {
                let h = hints::hint(self.dom, id, &mut self.attr_words);
                self.hints[id as usize] = Some(h);
                h
            }
            None => Hint::default(),
        }
    }

    /// How well block `index` of `page` matches the page's title, `score` working it out from
    /// the title's words the first time it is asked.
    pub fn title_score(
        &mut self,
        page: &Page,
        index: usize,
        score: impl FnOnce(&[String]) -> f32,
    ) -> f32 {
        if self.title_scores.len() != page.blocks.len() {
            self.title_scores = vec![None; page.blocks.len()];
        }
        if let Some(known) = self.title_scores.get(index).copied().flatten() {
            return known;
        }
        let title = self
            .title_words
            .get_or_insert_with(|| super::words(&page.title));
        let value = score(title);
        if let Some(slot) = self.title_scores.get_mut(index) {
            *slot = Some(value);
        }
        value
    }

    /// True when `id` or one of its ancestors is negatively hinted (a comment, a sidebar), not
    /// counting wrappers of the whole page (holding nearly all its blocks), whose class says
    /// nothing about the part of the page in question (`<body class="has-sidebar">`).
    pub fn in_negative_context(&mut self, stats: &Stats, total_blocks: u32, id: NodeId) -> bool {
        self.context(stats, total_blocks, id) & NEGATIVE != 0
    }

    /// True when `id` sits in a consent manager's box (`#onetrust-consent-sdk`, a GDPR bar): text
    /// about the page's cookies, never a part of the page's own content, however long.
    pub fn in_consent_box(&mut self, stats: &Stats, total_blocks: u32, id: NodeId) -> bool {
        self.context(stats, total_blocks, id) & CONSENT != 0
    }

    /// True when `id` is itself a box the page lays over itself: a modal dialog the page
    /// declares (see [`NodeFacts::is_dialog`]), or a box fixed to the viewport (see
    /// [`crate::page::Declarations::overlays`]: a consent notice, a chat, an offer) that is not
    /// the page itself, holding less than half of the page's `total_blocks` blocks and images.
    /// A script that locks the page's scrolling under a dialog may fix an app's root, which
    /// holds the article; a dialog says what it is, and on a page of little text of its own (a
    /// shop drawn by its scripts) a consent notice may be most of it.
    pub fn is_overlay(&self, stats: &Stats, total_blocks: u32, id: NodeId) -> bool {
        if self.is_dialog(id) {
            return true;
        }
        if self.overlays.binary_search(&id).is_err() {
            return false;
        }
        let a = stats.get(id);
        (a.blocks + a.images) * 2 < total_blocks && !is_page_wrapper(self.dom, id)
    }

    /// True when `id` is a modal dialog the page declares (see
    /// [`crate::page::Declarations::dialogs`]).
    pub fn is_dialog(&self, id: NodeId) -> bool {
        self.dialogs.binary_search(&id).is_ok()
    }

    /// True when `id` sits in a box the page lays over itself (see
    /// [`NodeFacts::is_overlay`]): a notice or an offer fixed to the viewport by its style or
    /// its sheet's rule, whatever its generated name; the article flows under it.
    pub fn in_overlay(&mut self, stats: &Stats, total_blocks: u32, id: NodeId) -> bool {
        self.context(stats, total_blocks, id) & OVERLAY != 0
    }

    /// True when `id` sits in a box that asks for an email address (see
    /// [`NodeFacts::is_sign_up`]).
    pub fn in_sign_up(&mut self, stats: &Stats, total_blocks: u32, id: NodeId) -> bool {
        self.context(stats, total_blocks, id) & SIGN_UP != 0
    }

    /// True when `id` sits in a box laid over the page or in one that asks for an email
    /// address (see [`NodeFacts::in_overlay`], [`NodeFacts::in_sign_up`]): whatever their
    /// names, neither holds the page's own items or posts.
    pub fn in_overlay_or_sign_up(&mut self, stats: &Stats, total_blocks: u32, id: NodeId) -> bool {
        self.context(stats, total_blocks, id) & (OVERLAY | SIGN_UP) != 0
    }

    /// The context bits of `id` ([`NEGATIVE`], [`CONSENT`], [`OVERLAY`], [`SIGN_UP`]), from its
    /// own hint, its style and its ancestors'.
    fn context(&mut self, stats: &Stats, total_blocks: u32, id: NodeId) -> u8 {
        // Walk up to the first node already known, then fill the path downwards: every node is
        // computed once per page.
        let mut path = Vec::new();
        let mut bits = 0;
        let mut node = Some(id);
        while let Some(n) = node {
            match self.negative_context.get(n as usize) {
                Some(0) => path.push(n),
                Some(v) => {
                    bits = *v & !KNOWN;
                    break;
                }
                None => break,
            }
            node = self.dom.parent(n);
        }
        for &n in path.iter().rev() {
            if self.is_overlay(stats, total_blocks, n) {
                bits |= OVERLAY;
            }
            if self.is_sign_up(n) {
                bits |= SIGN_UP;
            }
            if self.dom.is_element(n)
                && self.hint(n).is_negative()
                && !wraps_the_page(stats, total_blocks, n)
            {
                bits |= NEGATIVE;
                if hints::names_consent(self.dom, n) {
                    bits |= CONSENT;
                }
            }
            self.negative_context[n as usize] = bits | KNOWN;
        }
        bits
    }

    /// True when `id` is one of at least three siblings alike in tag and class, each holding
    /// several blocks, most with an author or date line: a comment, a teaser in a list of teasers.
    pub fn is_repeated_item(&mut self, stats: &Stats, id: NodeId) -> bool {
        match self.repeated.get(id as usize) {
            Some(0) => {}
            Some(v) => return *v == 2,
            None => return false,
        }
        let dom = self.dom;
        let Some(parent) = dom.parent(id) else {
            self.repeated[id as usize] = 1;
            return false;
        };
        // A group of three or more needs at least two children with several blocks and a
        // byline: most parents have none, and are spared the sort below.
        let with_byline = |c: NodeId| {
            let a = stats.get(c);
            a.blocks >= 2 && a.bylines > 0
        };
        if dom
            .children(parent)
            .filter(|&c| with_byline(c))
            .nth(1)
            .is_none()
        {
            for child in dom.children(parent) {
                if let Some(slot) = self.repeated.get_mut(child as usize) {
                    *slot = 1;
                }
            }
            return false;
        }
        // The children grouped by signature (sorted, so a group is a run): a group of three or
        // more, half of them with several blocks and a byline, is a list of repeated items.
        let mut children: Vec<((&str, &str), NodeId)> = dom
            .children(parent)
            .filter_map(|child| Some((signature(dom, child)?, child)))
            .collect();
        children.sort_unstable();
        for group in children.chunk_by(|a, b| a.0 == b.0) {
            let n = group.len() as u32;
            let with_byline = group.iter().filter(|&&(_, c)| with_byline(c)).count() as u32;
            let alike = n >= 3 && with_byline * 2 >= n;
            for &(_, child) in group {
                if let Some(slot) = self.repeated.get_mut(child as usize) {
                    *slot = if alike && stats.get(child).blocks >= 2 {
                        2
                    } else {
                        1
                    };
                }
            }
        }
        for child in dom.children(parent) {
            // Children without a signature (text, comments) are never repeated items.
            if let Some(slot) = self.repeated.get_mut(child as usize)
                && *slot == 0
            {
                *slot = 1;
            }
        }
        self.repeated.get(id as usize) == Some(&2)
    }
}

/// True when a sibling of `id` made from the same template (tag and class) holds `node`.
pub(super) fn peer_holds(dom: &Dom, stats: &Stats, id: NodeId, node: NodeId) -> bool {
    let (Some(parent), Some(sig)) = (dom.parent(id), signature(dom, id)) else {
        return false;
    };
    // Only one sibling can hold `node`: the one found from `node` upwards, not by comparing
    // every sibling's template. The cleaning asks this of each of a list's items, and a page of
    // thousands of alike boxes took seconds when each asked it of all the others.
    std::iter::once(node)
        .chain(dom.ancestors(node))
        .find(|&n| dom.parent(n) == Some(parent))
        .is_some_and(|c| c != id && stats.contains(c, node) && signature(dom, c) == Some(sig))
}

/// An element's tag and class, for finding siblings made from the same template.
fn signature(dom: &Dom, id: NodeId) -> Option<(&str, &str)> {
    let name = dom.element_name(id)?;
    Some((name, dom.attr(id, "class").unwrap_or("").trim()))
}

/// How much a block says "paragraph of an article": Readability's measure (one point, one per
/// comma, one per 100 characters up to three), plus a point for sentences of ordinary length.
/// Short blocks, headings and images score nothing; list items half.
pub(super) fn paragraph_score(block: &Block) -> f32 {
    if matches!(
        block.kind,
        BlockKind::Image | BlockKind::Heading(_) | BlockKind::Caption
    ) {
        return 0.0;
    }
    let (chars, commas, stops) = punctuation(&block.text);
    if chars < 25 {
        return 0.0;
    }
    let length = (chars as f32 / 100.0).min(3.0);
    // Code is part of an article but says nothing of where its prose is: the commas of an
    // argument list are no sentences.
    if block.kind == BlockKind::Preformatted {
        return 1.0 + length;
    }
    let mut score = 1.0 + commas as f32 + length;
    if stops > 0 {
        let per_sentence = block.words as f32 / stops as f32;
        if (6.0..=45.0).contains(&per_sentence) {
            score += 1.0;
        }
    }
    if block.kind == BlockKind::ListItem {
        score *= 0.5;
    }
    score
}

/// The characters, commas and full stops of `text`. This runs for every block of every page:
/// ASCII text (most of it) is counted by bytes, without decoding characters.
fn punctuation(text: &str) -> (u32, u32, u32) {
    let (mut commas, mut stops) = (0u32, 0u32);
    if text.is_ascii() {
        for &b in text.as_bytes() {
            match b {
                b',' => commas += 1,
                b'.' | b'!' | b'?' => stops += 1,
                _ => {}
            }
        }
        return (text.len() as u32, commas, stops);
    }
    let mut chars = 0u32;
    for c in text.chars() {
        chars += 1;
        match c {
            ',' | '，' | '、' | '،' | '፣' | '၊' => commas += 1,
            c if ends_sentence(c) => stops += 1,
            _ => {}
        }
    }
    (chars, commas, stops)
}

/// True for a character that ends a sentence: the full stops and question and exclamation marks
/// of Latin text and of the scripts that have their own (Chinese and Japanese, Devanagari's
/// danda, Arabic's and Urdu's, Armenian, Ethiopic, Myanmar, Khmer, Tibetan).
fn ends_sentence(c: char) -> bool {
    matches!(
        c,
        '.' | '!'
            | '?'
            | '。'
            | '！'
            | '？'
            | '।'
            | '॥'
            | '؟'
            | '۔'
            | '։'
            | '።'
            | '။'
            | '។'
            | '།'
    )
}

/// The node whose text a block is: a paragraph-like element, or a generic element holding just
/// this one block (a `<div>` used as a paragraph). Its parent is the level-0 candidate.
fn is_paragraph_node(dom: &Dom, stats: &Stats, facts: &mut NodeFacts<'_>, id: NodeId) -> bool {
    if stats::is_paragraph_element(dom, id) {
        return true;
    }
    let a = stats.get(id);
    let generic = dom.local_name(id).is_some_and(|n| {
        matches!(
            *n,
            local_name!("div") | local_name!("span") | local_name!("section") | local_name!("font")
        )
    });
    let single = a.blocks == 1 && a.direct_blocks == 1;
    // A table cell holding one block is a paragraph of a table laid out one paragraph a row.
    let cell = dom.is_html(id, &local_name!("td"));
    single && (cell || (generic && !facts.hint(id).positive))
}

/// Prose words from which a candidate gets the whole of its positive tag and class weight.
const FULL_WEIGHT_WORDS: f32 = 50.0;

/// A candidate's starting score: its tag and class weights. A positive weight counts in
/// proportion to the prose the node holds, up to [`FULL_WEIGHT_WORDS`], so a one-line teaser
/// called `story-subhead` cannot outscore the article on its name alone; a negative one counts
/// whole.
fn initial_weight(dom: &Dom, stats: &Stats, facts: &mut NodeFacts<'_>, node: NodeId) -> f32 {
    let weight = hints::tag_weight(dom, node) + facts.hint(node).weight;
    if weight > 0.0 {
        weight * (stats.get(node).prose_words as f32 / FULL_WEIGHT_WORDS).min(1.0)
    } else {
        weight
    }
}

/// The scored candidates.
pub(super) struct Scores {
    /// Candidate score per node; `f32::NEG_INFINITY` for nodes that are not candidates.
    pub score: Vec<f32>,
    /// The candidates, in the order they were first scored.
    pub candidates: Vec<NodeId>,
    /// Per node, the share of the paragraph score it received through a comment, a sidebar or
    /// a repeated item (damped): high for the box around a comment thread. A box the page's
    /// headline sets outside its article counts as wholly damped (1.0, see
    /// [`damp_outside_the_article`]): the climb does not take it for a second part of the
    /// article, nor the sibling and part steps add it for its score.
    pub damped: Vec<f32>,
    /// Per node, why the page's headline set it outside the article, if it did (see
    /// [`damp_outside_the_article`]): the inspector says so of the blocks it holds.
    pub set_apart: Vec<Option<SetApart>>,
}

/// Why the page's headline sets a box outside its article (see [`damp_outside_the_article`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum SetApart {
    /// It ends before the headline, in a part of the page of its own.
    BeforeTheHeadline,
    /// It is in the page's own footer.
    InThePagesFooter,
    /// It is outside the region the page marks as its main content, which holds the headline.
    OutsideTheMainRegion,
    /// It stands in another story than the one the headline opens (see
    /// [`super::other_stories`]).
    InAnotherStory,
}

impl SetApart {
    /// The reason a block outside the chosen container gives when such a box holds it.
    pub fn reason(self) -> &'static str {
        match self {
            SetApart::BeforeTheHeadline => {
                "outside main container: before the page's headline, in a part of its own"
            }
            SetApart::InThePagesFooter => {
                "outside main container: in the page's own footer, the headline found"
            }
            SetApart::OutsideTheMainRegion => {
                "outside main container: outside the page's main region, which holds its headline"
            }
            SetApart::InAnotherStory => OTHER_STORY,
        }
    }
}

impl Scores {
    /// Why the nearest box around `node` (itself included) that the headline set apart was set
    /// apart, if one was.
    pub fn set_apart_around(&self, dom: &Dom, node: NodeId) -> Option<SetApart> {
        std::iter::once(node)
            .chain(dom.ancestors(node))
            .find_map(|n| self.set_apart.get(n as usize).copied().flatten())
    }

    /// The node's score, `None` when it is no candidate.
    pub fn get(&self, id: NodeId) -> Option<f32> {
        self.score
            .get(id as usize)
            .copied()
            .filter(|s| s.is_finite())
    }
}

/// Scores every node that holds paragraphs: its tag and hint weights plus the decayed scores of
/// the paragraphs below it, times the share of its text that is not links.
pub(super) fn score(page: &Page, stats: &Stats, facts: &mut NodeFacts<'_>) -> Scores {
    let dom = &page.dom;
    let mut scores = Scores {
        score: vec![f32::NEG_INFINITY; dom.len()],
        candidates: Vec::new(),
        damped: vec![0.0; dom.len()],
        set_apart: vec![None; dom.len()],
    };
    let mut received = vec![0.0f32; dom.len()];
    let total_blocks = page.blocks.len() as u32;
    for block in &page.blocks {
        let s = paragraph_score(block);
        if s <= 0.0
            || facts.in_consent_box(stats, total_blocks, block.node)
            || facts.in_overlay(stats, total_blocks, block.node)
            || facts.in_sign_up(stats, total_blocks, block.node)
        {
            continue;
        }
        let mut damp = 1.0;
        let mut node = block.node;
        if is_paragraph_node(dom, stats, facts, node) {
            if facts.hint(node).is_negative() {
                damp *= DAMP_OUTSIDE_NEGATIVE;
            }
            match dom.parent(node) {
                Some(p) => node = p,
                None => continue,
            }
        }
        for divisor in DECAY {
            if !dom.is_element(node) {
                break;
            }
            let Some(slot) = scores.score.get_mut(node as usize) else {
                break;
            };
            if !slot.is_finite() {
                *slot = initial_weight(dom, stats, facts, node);
                scores.candidates.push(node);
            }
            let gain = s / divisor * damp;
            *slot += gain;
            received[node as usize] += gain;
            if damp < 1.0 {
                scores.damped[node as usize] += gain;
            }
            if facts.hint(node).is_negative() || facts.is_repeated_item(stats, node) {
                damp *= DAMP_OUTSIDE_NEGATIVE;
            }
            match dom.parent(node) {
                Some(p) => node = p,
                None => break,
            }
        }
    }
    for &c in &scores.candidates {
        let ld = stats.link_density(c);
        scores.score[c as usize] *= 1.0 - ld;
        if let Some(p) = dom.parent(c)
            && facts.in_negative_context(stats, total_blocks, p)
        {
            scores.score[c as usize] *= DAMP_OUTSIDE_NEGATIVE;
        }
        let r = received[c as usize];
        scores.damped[c as usize] = if r > 0.0 {
            scores.damped[c as usize] / r
        } else {
            0.0
        };
    }
    scores
}

/// Damps, as a negative name would (see [`DAMP_OUTSIDE_NEGATIVE`]), the candidates that the
/// page's headline (block `headline`, the heading that reads as the page's title) places outside
/// its article:
/// - every candidate that ends before the headline and shares no box with it but the page
///   itself (`<body>`, or a wrapper holding nine tenths of the page's blocks, whose name says
///   nothing about a part of the page: see [`wraps_the_page`]): an article runs from its
///   headline on, and what a page prints before it in a part of its own (a dialog's offer, a
///   cart drawer, a cookie notice placed first in the markup) is not the article, however much
///   prose it holds. A box before the headline inside the part that holds it (an article's
///   standfirst, a thread's first post printed above its title) keeps its score;
/// - when the headline stands in the region the page marks as its main content (`<main>`,
///   `role="main"`), every candidate outside that region that does not hold it: the page says
///   where its content is, and the headline confirms it (a shop's guarantee modal, a related
///   products' rail beside it);
/// - every candidate inside the page's own footer (see [`page_footer_around`]): the page's fine
///   print (an insurer's disclaimers, a shop's guarantees), however long;
/// - every candidate in another story than the headline's (see [`super::other_stories`]): the
///   next story a site loads below the one a reader opened, however much prose it holds.
///
/// A page without a headline (a section front, a list) is left alone: there its footer may be
/// where the page's lists end.
pub(super) fn damp_outside_the_article(
    page: &Page,
    stats: &Stats,
    facts: &NodeFacts<'_>,
    scores: &mut Scores,
    headline: usize,
) {
    let dom = &page.dom;
    let Some(block) = page.blocks.get(headline) else {
        return;
    };
    // A box set outside the article counts as one whose score came through named boxes
    // (`damped`, see its doc).
    let mut damp = |candidate: NodeId, why: SetApart| {
        if let Some(score) = scores.score.get_mut(candidate as usize)
            && *score > 0.0
        {
            *score *= DAMP_OUTSIDE_NEGATIVE;
        }
        if let Some(share) = scores.damped.get_mut(candidate as usize) {
            *share = 1.0;
        }
        if let Some(slot) = scores.set_apart.get_mut(candidate as usize) {
            *slot = Some(why);
        }
    };
    // The outermost marked region around the headline (a hero band marked `role=main` inside
    // the page's `<main>` is not the region), and only one that holds prose: a main region that
    // holds the title band alone says nothing of where the text is.
    let marked_main = std::iter::once(block.node)
        .chain(dom.ancestors(block.node))
        .filter(|&n| marks_main(dom, n))
        .last()
        .filter(|&main| stats.get(main).prose > 0);
    for &candidate in &scores.candidates {
        if let Some(main) = marked_main
            && !stats.contains(main, candidate)
            && !stats.contains(candidate, main)
        {
            damp(candidate, SetApart::OutsideTheMainRegion);
            continue;
        }
        // The headline is never in a footer (see `titled_heading`), so no box in the page's
        // footer holds it.
        if page_footer_around(dom, candidate) {
            damp(candidate, SetApart::InThePagesFooter);
            continue;
        }
        if apart_before_the_headline(page, stats, candidate, headline) {
            damp(candidate, SetApart::BeforeTheHeadline);
            continue;
        }
        if facts.in_other_story(stats, candidate) {
            damp(candidate, SetApart::InAnotherStory);
        }
    }
}

/// True when the box `node` ends before block `headline` (the heading that reads as the page's
/// title) and shares no box with it but the page itself (`<body>`, or a wrapper holding nine
/// tenths of the page's blocks: see [`wraps_the_page`]): a part the page prints before its
/// article, in a part of its own (a dialog's offer, a cart drawer, a site's menus), not a
/// standfirst inside the part that holds the headline.
pub(super) fn apart_before_the_headline(
    page: &Page,
    stats: &Stats,
    node: NodeId,
    headline: usize,
) -> bool {
    let dom = &page.dom;
    let Some(title) = page.blocks.get(headline).map(|b| b.node) else {
        return false;
    };
    if stats.get(node).end_block as usize > headline {
        return false;
    }
    let total_blocks = page.blocks.len() as u32;
    std::iter::once(node)
        .chain(dom.ancestors(node))
        .find(|&n| stats.contains(n, title))
        .is_none_or(|s| is_page_wrapper(dom, s) || wraps_the_page(stats, total_blocks, s))
}

/// Why a block outside the chosen container goes that stands in another story than the
/// headline's (see [`super::other_stories`]).
pub(super) const OTHER_STORY: &str =
    "outside main container: in another story, which opens with a title of its own";

/// Words from which a box around an email field says more than a sign-up does: a newsletter's
/// pitch, a comment form's "Your email address will not be published", a log-in's links stay
/// below it.
const SIGN_UP_WORDS: u32 = 100;

/// How many boxes above its email field a sign-up's box may stand: its title and pitch are a
/// level or two above the form. A bound, so that a hostile page of deep boxes costs little.
const SIGN_UP_LEVELS: usize = 8;

/// How many of a page's email fields are asked for their sign-up: a page asks for an address a
/// few times at most, and a hostile page asking thousands of times costs no more.
const MAX_SIGN_UP_FIELDS: usize = 32;

/// The box that asks for the email address `field` and says little else: the smallest box
/// around it that holds a heading or prose besides (the sign-up's title, its pitch), or else
/// the largest one of [`SIGN_UP_WORDS`] words at most, [`SIGN_UP_LEVELS`] above the field at
/// most; never one holding an `<h1>` (a page that is itself a sign-up), an `<article>` or the
/// page's main region (a short post with its subscription form), nor the page itself. A
/// newsletter's sign-up printed inside an article or among a list's cards asks the reader
/// something; it is no text of the page, however it is named, and stopping at its title keeps
/// the cards around it out. `None` when the field's own box says more (a page whose text is the
/// form's introduction).
fn sign_up_around(
    page: &Page,
    stats: &Stats,
    counts: &mut super::RunningCounts,
    field: NodeId,
) -> Option<NodeId> {
    let dom = &page.dom;
    let mut found = None;
    for n in dom.ancestors(field).take(SIGN_UP_LEVELS) {
        let a = stats.get(n);
        if is_page_wrapper(dom, n)
            || a.words > SIGN_UP_WORDS
            || marks_main(dom, n)
            || dom.is_html(n, &local_name!("article"))
        {
            break;
        }
        let blocks = a.first_block as usize..a.end_block as usize;
        if counts.over(super::Count::H1, page, &[], blocks.clone()) > 0 {
            break;
        }
        found = Some(n);
        if a.prose > 0 || counts.over(super::Count::Heading, page, &[], blocks) > 0 {
            break;
        }
    }
    found.filter(|&n| stats.get(n).words > 0)
}

/// True for an element that marks the page's main content: `<main>`, or `role="main"`.
pub(super) fn marks_main(dom: &Dom, id: NodeId) -> bool {
    dom.is_html(id, &local_name!("main"))
        || dom
            .attr(id, "role")
            .is_some_and(|r| r.trim().eq_ignore_ascii_case("main"))
}

/// True when `node` is, or sits in, the page's own footer: a `<footer>` that no `<article>`,
/// `<aside>`, `<main>`, `<nav>` or `<section>` holds, which HTML makes the page's `contentinfo`
/// landmark (its fine print, its links about the site). A footer inside an article is that
/// article's (its author's line, its tags). (Visible to the module's tests, which check the
/// landmark rule on its own.)
pub(super) fn page_footer_around(dom: &Dom, node: NodeId) -> bool {
    page_landmark_around(dom, node, &local_name!("footer"))
}

/// True when `node` is, or sits in, the page's own header: a `<header>` that no `<article>`,
/// `<aside>`, `<main>`, `<nav>` or `<section>` holds, which HTML makes the page's `banner`
/// landmark (its logo, its menus). A header inside an article is that article's (its title).
/// (Visible to the module's tests, which check the landmark rule on its own.)
pub(super) fn page_header_around(dom: &Dom, node: NodeId) -> bool {
    page_landmark_around(dom, node, &local_name!("header"))
}

/// True when `node` is, or sits in, an element named `landmark` (`footer`, `header`) that no
/// sectioning element holds: the page's own, by HTML's landmark rules.
fn page_landmark_around(dom: &Dom, node: NodeId, landmark: &html5ever::LocalName) -> bool {
    let Some(found) = std::iter::once(node)
        .chain(dom.ancestors(node))
        .find(|&n| dom.is_html(n, landmark))
    else {
        return false;
    };
    !dom.ancestors(found).any(|n| {
        dom.local_name(n).is_some_and(|name| {
            matches!(
                *name,
                local_name!("article")
                    | local_name!("aside")
                    | local_name!("main")
                    | local_name!("nav")
                    | local_name!("section")
            )
        })
    })
}

/// The chosen main container and the siblings added to it.
#[derive(Debug, Clone)]
pub(super) struct Choice {
    /// The main container.
    pub main: NodeId,
    /// Its score.
    pub score: f32,
    /// Siblings of `main` that belong with it, in document order.
    pub siblings: Vec<NodeId>,
    /// The best-scored candidate before moving up: where the article's paragraphs are densest.
    /// Cleaning never removes an element holding it.
    pub core: NodeId,
}

/// Picks the main container (Readability's procedure over the scores) and its siblings.
pub(super) fn choose(
    page: &Page,
    stats: &Stats,
    facts: &mut NodeFacts<'_>,
    scores: &Scores,
) -> Option<Choice> {
    let dom = &page.dom;
    let mut ranked: Vec<(NodeId, f32)> = scores
        .candidates
        .iter()
        .map(|&c| (c, scores.score[c as usize]))
        .collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
    let &(mut top, top_score) = ranked.first()?;
    let core = top;
    let top5 = &ranked[..ranked.len().min(5)];

    // Several strong candidates under one ancestor: the article is split into boxes.
    let alternatives: Vec<NodeId> = top5[1..]
        .iter()
        .filter(|(_, s)| *s >= 0.75 * top_score)
        .map(|&(n, _)| n)
        .collect();
    if alternatives.len() >= 3 {
        let mut ancestor = dom.parent(top);
        while let Some(a) = ancestor {
            if is_page_wrapper(dom, a) {
                break;
            }
            let held = alternatives
                .iter()
                .filter(|&&n| stats.contains(a, n))
                .count();
            if held >= 3 {
                top = a;
                break;
            }
            ancestor = dom.parent(a);
        }
    }

    // Climb while the ancestors keep a fair score, to one that scores more than the box found
    // (it holds more of the article) or that holds a second box nearly as good (an article cut
    // into parts that are cousins, not siblings: `chunks > grid > item` twice).
    let best = scores.get(top).unwrap_or(top_score);
    let threshold = best / 3.0;
    let total_blocks = page.blocks.len() as u32;
    let found = top;
    let mut parent = dom.parent(top);
    while let Some(p) = parent {
        if is_page_wrapper(dom, p) {
            break;
        }
        if let Some(ps) = scores.get(p) {
            if ps < threshold {
                break;
            }
            let second_part = ranked
                .iter()
                .take_while(|&&(_, s)| s >= SPLIT_SHARE * best)
                .any(|&(c, _)| {
                    stats.contains(p, c)
                        && !stats.contains(found, c)
                        && !stats.contains(c, found)
                        && scores.damped.get(c as usize).is_some_and(|&d| d < 0.5)
                        && !facts.in_negative_context(stats, total_blocks, c)
                });
            if ps > best || second_part {
                top = p;
                break;
            }
        }
        parent = dom.parent(p);
    }

    // An only child says no more than its parent: take the parent, whose siblings are the ones
    // worth looking at.
    while let Some(p) = dom.parent(top) {
        if is_page_wrapper(dom, p) || dom.children(p).filter(|&c| dom.is_element(c)).count() != 1 {
            break;
        }
        top = p;
    }

    let score = scores.get(top).unwrap_or(top_score);
    let mut siblings = siblings(page, stats, facts, scores, top, score);
    // The product check reads the page's structured data: only when there are parts to add.
    let parts = parts(page, stats, facts, scores, top, &siblings);
    if !parts.is_empty() && !facts.declares_product(page) {
        siblings.extend(parts);
    }
    Some(Choice {
        main: top,
        score,
        siblings,
        core,
    })
}

/// True when `id` holds nine in ten of the page's `total_blocks` blocks and images: the page's
/// wrapper, whose name (`sidebar-layout`, `no-comments`) says nothing about what it holds, and
/// so gives no negative context.
pub(super) fn wraps_the_page(stats: &Stats, total_blocks: u32, id: NodeId) -> bool {
    let a = stats.get(id);
    (a.blocks + a.images) * 10 >= total_blocks * 9
}

/// `<html>`, `<body>` and the document: never a container choice by climbing.
pub(super) fn is_page_wrapper(dom: &Dom, id: NodeId) -> bool {
    !dom.is_element(id)
        || dom.is_html(id, &local_name!("body"))
        || dom.is_html(id, &local_name!("html"))
}

/// Siblings of `main` that belong with it: a score near its own (more so with the same class),
/// or a paragraph of long, low-link text; never a box of teasers of other pages.
fn siblings(
    page: &Page,
    stats: &Stats,
    facts: &mut NodeFacts<'_>,
    scores: &Scores,
    main: NodeId,
    main_score: f32,
) -> Vec<NodeId> {
    let dom = &page.dom;
    let Some(parent) = dom.parent(main) else {
        return Vec::new();
    };
    if is_page_wrapper(dom, parent) && dom.is_html(parent, &local_name!("html")) {
        return Vec::new();
    }
    let threshold = (main_score * 0.2).max(10.0);
    let main_class = dom
        .attr(main, "class")
        .map(str::trim)
        .filter(|c| !c.is_empty());
    let mut out = Vec::new();
    for sibling in dom.children(parent) {
        if sibling == main || !dom.is_element(sibling) {
            continue;
        }
        let a = stats.get(sibling);
        let damped = scores.damped.get(sibling as usize).copied().unwrap_or(0.0);
        if a.blocks == 0 || facts.hint(sibling).is_negative() || damped > 0.5 {
            continue;
        }
        // A box of teasers beside the article scores for its summaries' prose: it is the
        // related stories, not a part of the article.
        if super::clean::holds_only_teasers(page, stats, facts, sibling, main) {
            continue;
        }
        let mut bonus = 0.0;
        if main_class.is_some() && dom.attr(sibling, "class").map(str::trim) == main_class {
            bonus = main_score * 0.2;
        }
        let append = if let Some(s) = scores.get(sibling)
            && s + bonus >= threshold
        {
            true
        } else if a.blocks == 1 && is_paragraph_node(dom, stats, facts, sibling) {
            let ld = stats.link_density(sibling);
            let text = page
                .blocks
                .get(a.first_direct as usize)
                .map_or("", |b| b.text.as_str());
            let len = text.chars().count();
            (len > 80 && ld < 0.25)
                || (len > 0
                    && ld == 0.0
                    && text
                        .chars()
                        .next_back()
                        .is_some_and(|c| ends_sentence(c) || matches!(c, '"' | '”')))
        } else {
            false
        };
        if append {
            out.push(sibling);
        }
    }
    out
}

/// How many levels above the container its parts are looked for.
const PART_LEVELS: u32 = 4;

/// Prose words from which a box beside the container is a part of the article.
const PART_PROSE_WORDS: u32 = 40;

/// Boxes beside the container, or beside its parent, that hold a box made from the container's
/// own template (tag and first class): the other parts of an article that its publishing system
/// cut into blocks (`section.web-html > div.html` once per part, a ranking's entries under
/// its introduction), which the scores split apart when something stands between them (a pull
/// quote, a heading band). Links, comments and asides are never parts. When the container is
/// one post of a thread, the other posts are its parts. A twin of a box around the container
/// (same tag and class) that holds the template the same way is a part at any length: the
/// sections of a page built one panel per section, some of a single paragraph.
fn parts(
    page: &Page,
    stats: &Stats,
    facts: &mut NodeFacts<'_>,
    scores: &Scores,
    main: NodeId,
    already: &[NodeId],
) -> Vec<NodeId> {
    let dom = &page.dom;
    let main_template = template(dom, main);
    let total_blocks = page.blocks.len() as u32;
    let mut out = Vec::new();
    // A page that calls itself an article has one; boxes alike to its own are other stories.
    // (Read from the page's structured data only when a thread is in question, once per page.)
    let mut level = main;
    for up in 0..PART_LEVELS {
        let Some(parent) = dom.parent(level) else {
            break;
        };
        if is_page_wrapper(dom, parent) {
            break;
        }
        // The container sits in one of many alike items with bylines: the items made from
        // the same template are its peers (the other posts of a thread), whatever their length.
        // A layout table's cells, and boxes without a class, are alike too, and say nothing.
        let layout_cell = dom.local_name(level).is_some_and(|n| {
            matches!(
                *n,
                local_name!("td") | local_name!("th") | local_name!("tr")
            )
        });
        let named = dom
            .attr(level, "class")
            .is_some_and(|c| !c.trim().is_empty());
        let level_template = template(dom, level).is_some();
        let peers = named
            && !layout_cell
            && facts.is_repeated_item(stats, level)
            && !facts.declares_article(page);
        for x in dom.children(parent) {
            if x == level || !dom.is_element(x) || already.contains(&x) {
                continue;
            }
            // The cheap counts first: most boxes beside a container hold no prose at all.
            let a = stats.get(x);
            if a.prose == 0 || stats.link_density(x) >= 0.33 {
                continue;
            }
            let twin = signature(dom, x) == signature(dom, level);
            // A twin of a box around the container (`section.product-panel` beside the
            // container's own; not a layout framework's `row`) is one more section of the same
            // page, however short (one paragraph, a list); other boxes need an article's part
            // of prose.
            let twin_section = up > 0 && twin && level_template;
            let part = if peers && twin {
                true
            } else {
                (twin_section || a.prose_words >= PART_PROSE_WORDS && a.prose >= 2)
                    && a.controls == 0
                    && scores.damped.get(x as usize).is_none_or(|&d| d < 0.5)
                    && main_template.is_some_and(|t| holds_template(dom, x, t, up + 2))
                    && !facts.is_repeated_item(stats, x)
            };
            // Alike stories side by side (a site's next ones, each under its own title) are
            // twins of the opened one, and no part of it.
            let part = part
                && !facts.hint(x).is_negative()
                && !facts.in_negative_context(stats, total_blocks, x)
                && !facts.in_other_story(stats, x);
            if part {
                out.push(x);
            }
        }
        level = parent;
    }
    out
}

/// Classes that grid frameworks put on every box of a layout: they say where a box stands,
/// not what it holds.
const LAYOUT_CLASSES: &[&str] = &[
    "container",
    "container-fluid",
    "row",
    "col",
    "column",
    "columns",
    "wrapper",
    "wrap",
    "inner",
    "grid",
    "flex",
    "clearfix",
    "section",
    "block",
];

/// An element's tag and first class, when it has a class that is not a layout framework's:
/// what marks boxes made from one template. A bare `<div>` says nothing.
fn template(dom: &Dom, id: NodeId) -> Option<(&str, &str)> {
    let name = dom.element_name(id)?;
    let class = dom.attr(id, "class")?.split_ascii_whitespace().next()?;
    (!LAYOUT_CLASSES.contains(&class)).then_some((name, class))
}

/// True when `id` or an element at most `depth` levels below it is made from `made_from`.
fn holds_template(dom: &Dom, id: NodeId, made_from: (&str, &str), depth: u32) -> bool {
    if template(dom, id) == Some(made_from) {
        return true;
    }
    depth > 0
        && dom
            .children(id)
            .any(|c| dom.is_element(c) && holds_template(dom, c, made_from, depth - 1))
}

/// `div#story`, `div.entry-content`, `article`: how reasons name a node.
pub(super) fn describe(dom: &Dom, id: NodeId) -> String {
    let mut out = dom.element_name(id).unwrap_or("#document").to_string();
    if let Some(i) = dom.attr(id, "id").map(str::trim).filter(|i| !i.is_empty()) {
        out.push('#');
        out.push_str(i);
    } else if let Some(c) = dom
        .attr(id, "class")
        .and_then(|c| c.split_ascii_whitespace().next())
    {
        out.push('.');
        out.push_str(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{NodeFacts, punctuation};
    use crate::classify::page_level::stats::Stats;
    use crate::page::page_from_html;

    /// Three alike siblings of which two have several blocks and a byline are repeated items
    /// (half of the group or more); with one such sibling, none is.
    #[test]
    fn repeated_items_need_half_of_three_alike_siblings_with_bylines() {
        let item = |byline: bool| {
            let by = if byline {
                "<p>By Ann Lee</p>"
            } else {
                "<p>An aside</p>"
            };
            format!(
                "<div class=item>{by}<p>A paragraph of the item, long enough to be a block of \
                 text on its own.</p></div>"
            )
        };
        for (bylines, repeated) in [(2, true), (1, false)] {
            let items: String = (0..3).map(|i| item(i < bylines)).collect();
            let page = page_from_html(
                &format!("<html><body><main>{items}</main></body></html>"),
                None,
            );
            let stats = Stats::compute(&page);
            let mut facts = NodeFacts::new(&page.dom);
            let first = page.blocks[0].node;
            let first_item = page.dom.parent(first).unwrap();
            assert_eq!(
                facts.is_repeated_item(&stats, first_item),
                repeated,
                "{bylines} of 3 with bylines"
            );
        }
    }

    #[test]
    fn punctuation_is_counted_alike_in_ascii_and_other_text() {
        // ASCII text takes the byte path; the same sentence with one accented letter the
        // character path: both count the same characters, commas and stops.
        let ascii = "Well, yes. Did it work? It did! Fine, fine.";
        let accented = "Wéll, yes. Did it work? It did! Fine, fine.";
        assert_eq!(punctuation(ascii), (43, 2, 4));
        assert_eq!(punctuation(accented), (43, 2, 4));
        // Chinese, Japanese and Arabic commas and stops count as theirs.
        assert_eq!(punctuation("一，二、三。四！五？"), (10, 2, 3));
        assert_eq!(punctuation("نعم، لا"), (7, 1, 0));
        // Scripts with full stops of their own: Hindi's danda, Arabic's question mark, Myanmar,
        // Khmer, Ethiopic, Armenian.
        assert_eq!(punctuation("हाँ। नहीं॥"), (10, 0, 2));
        assert_eq!(punctuation("لماذا؟ نعم."), (11, 0, 2));
        assert_eq!(punctuation("က၊ခ။ ក។ ሀ፣ለ። ա։"), (15, 2, 4));
    }

    /// On a Hindi page, an English box of the same length does not outscore the article: the
    /// article's sentences end in dandas, and count as sentences.
    #[test]
    fn sentences_ending_in_a_danda_score_as_sentences() {
        let hindi = [
            "नगर परिषद ने मंगलवार को उत्तरी उपनगरों तक ट्राम लाइन बढ़ाने के लिए मतदान किया। \
             इस परियोजना पर दस साल से अधिक समय से बहस हो रही है।",
            "समर्थकों ने कहा कि विस्तार से यात्रा बीस मिनट कम हो जाएगी। आलोचकों ने चेतावनी दी \
             कि बजट पहले ही दोगुना हो चुका है।",
            "मतदान के बाद महापौर ने कहा कि निर्माण अगले वसंत में शुरू होगा। पहली ट्राम चार \
             साल के भीतर चल सकती है।",
        ];
        let english = [
            "We use cookies to improve your experience. By continuing to browse the site you \
             agree to our use of cookies.",
            "Our journalism is supported by readers. Subscribe today and get unlimited access to \
             every story we publish.",
            "Download our app to read the news on the go. It is free and available for phones \
             and tablets.",
        ];
        let para =
            |lines: &[&str]| -> String { lines.iter().map(|l| format!("<p>{l}</p>")).collect() };
        let html = format!(
            "<html><body><div class=a1>{}</div><div class=b2>{}</div></body></html>",
            para(&hindi),
            para(&english)
        );
        let page = page_from_html(&html, None);
        let score = |i: usize| super::paragraph_score(&page.blocks[i]);
        assert!(score(0) > score(3), "{} {}", score(0), score(3));
    }
}
