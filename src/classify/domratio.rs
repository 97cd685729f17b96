//! The DOM method of Alarte & Silva, "Page-Level Main Content Extraction from Heterogeneous
//! Webpages" (2020, §3): every candidate element of `<body>` becomes a point in R⁴ (word ratio,
//! hyperlink ratio, children ratio, position ratio), the points are standardized, the c = 3 points
//! farthest from their centroid form the c-SET, nested candidates with the same text are merged,
//! the candidate with the best words-per-tag ratio (with its siblings in the c-SET) is the main
//! content, and groups of links inside it are removed.
//!
//! Everything runs over the arena DOM without recursion: one walk computes every per-node
//! aggregate (O(nodes + text nodes × depth), the depth factor coming from the word ratio's
//! distance weights); the selection steps work on the c candidates, and the post-process and the
//! labelling walk the tree once more.
//!
//! Choices where the paper is silent or inconsistent, and why:
//! - Subtrees that show no text are not part of the tree at all: what the block builder skips
//!   (`<script>`, `<style>`, media, `<svg>`…) and elements hidden by their own markup; the
//!   paper's `innerText` leaves them out too (what a page's style sheets hide at a given width,
//!   which the block builder also reads, is not: this baseline does not read the sheets). Words
//!   are counted as the block builder counts them.
//! - White-space-only text nodes are not children: a browser keeps them, but they are layout
//!   noise that would give almost every element "more than two children". A node's children are
//!   its element children and its text children with visible text; a leaf has none.
//! - `depth(n)` in the position ratio is the distance from `<body>` (the prose: "penalizes those
//!   DOM nodes located at the lower positions"; read as the height of n's subtree instead, the
//!   formula would penalize the top of the page, against the paper's own rationale), and
//!   `maxDepth(P)` the largest such distance of any node.
//! - Criterion 3 is applied as printed: when the depth of the page below `<body>`, counted in
//!   rated nodes, is less than the number of rated children of `<body>`, the page is "wide" and the
//!   union of `<body>`'s children (that is, all of `<body>`) is the main content. The paper
//!   justifies it by the share of text (91% of such pages' text is main content).
//! - Hyperlinks are `<a>` elements with an `href`; words "not in hyperlinks" are those with no
//!   such ancestor (not only a direct `<a>` parent, so `<a><span>text</span></a>` is link text).
//! - Standardization uses the population standard deviation; a ratio with no spread standardizes
//!   to 0 for every node (it cannot tell nodes apart). Ties in distance go to the earlier node.
//! - Algorithm 3's "same text nodes" is exact: a descendant has the same text nodes as its
//!   ancestor when both hold the same number of visible text nodes.
//! - Algorithm 4's ratio is words of `innerText` (link text included) over elements in the
//!   subtree (the node included). Ties are all selected, as the prose says.
//! - Algorithm 5 is applied to every element of the main content subtrees, top-down: the prose
//!   speaks of "groups of links that do not belong to the main content (breadcrumbs, links to
//!   other sections)", which live inside the selected nodes, and the authors measure main content
//!   as the set of all its DOM nodes. An element goes when (a) its text over its non-link text
//!   exceeds tr and it holds more than hr links, or (b) it is a link list: at least two children,
//!   all elements of one tag name, each holding exactly one child, an `<a>`, and no image inside.
//!   The printed pseudo-code's test on `found` contradicts its prose; the prose is followed.
//!   Thresholds: the paper's Table 2 best, tr = 1.5 (every tr ≥ 1.5 ties) and hr = 7 (7 and 8 tie).
//! - No candidate at all (a body of bare text): all of `<body>` is the main content.

use std::fmt::Write as _;

use html5ever::ns;

use crate::classify::{Label, Reason, Verdict};
use crate::dom::{Dom, Edge, NodeId};
use crate::page::count_words;
use crate::page::{Page, is_inline_element, is_skipped_element};

/// The method name under which this classifier is selectable, also the extractor name in labels.
pub const NAME: &str = "alarte-silva";

/// Size of the candidate set (paper §4, Table 1: c = 3 is best).
pub const C: usize = 3;

/// Post-process text threshold tr (paper Table 2: every tr from 1.5 to 3 gives the best F1).
pub const TEXT_RATIO_THRESHOLD: f64 = 1.5;

/// Post-process hyperlink threshold hr (paper Table 2: 7 and 8 give the best F1).
pub const LINKS_THRESHOLD: u32 = 7;

/// Elements that are never rated (criterion 2; `UNDEFINED` is a non-element in the browser, and
/// `BODY` is the root).
const NOT_RATED: [&str; 15] = [
    "a", "nav", "hr", "span", "em", "body", "script", "header", "h1", "h2", "h3", "h4", "h5", "br",
    "iframe",
];

/// What the method decided for a page: the main content nodes and the link groups taken out.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    /// The `<body>` element (or the document node when the page has no body).
    pub root: NodeId,
    /// The nodes selected as main content (Algorithm 4, or `<body>` for wide pages), in document
    /// order.
    pub main: Vec<NodeId>,
    /// The link groups removed from inside them by the post-process (Algorithm 5).
    pub removed: Vec<NodeId>,
    /// The c-SET after its reduction (Algorithm 3), for explanations.
    pub candidates: Vec<NodeId>,
    /// How the main content was chosen.
    pub how: How,
}

/// How the main content of a page was chosen.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum How {
    /// The best words/tags ratio in the c-SET (the paper's main path).
    #[default]
    Candidates,
    /// Criterion 3: the page is wider than deep, all of `<body>` is the main content.
    WidePage,
    /// No element qualified for rating: all of `<body>` is the main content.
    NoCandidates,
}

/// Per-node aggregates of one walk over `<body>`, indexed by [`NodeId`].
struct Stats {
    /// Words in the subtree, link text included.
    words: Vec<u32>,
    /// Words in the subtree outside hyperlinks.
    plain_words: Vec<u32>,
    /// Visible text nodes in the subtree.
    text_nodes: Vec<u32>,
    /// Hyperlinks (`<a href>`) in the subtree, the node included.
    links: Vec<u32>,
    /// Elements in the subtree, the node included.
    tags: Vec<u32>,
    /// `<img>` elements in the subtree, the node included.
    images: Vec<u32>,
    /// Element children plus text children with visible text.
    children: Vec<u32>,
    /// Distance from the root.
    depth: Vec<u32>,
    /// Σ words(k) / distance(k, n) over text leaves k outside hyperlinks.
    word_ratio: Vec<f64>,
    /// Whether the node lies in the walked tree (under the root, outside invisible subtrees).
    seen: Vec<bool>,
    /// Elements of the walked tree in document order.
    elements: Vec<NodeId>,
    /// The largest depth of any node of the walked tree.
    max_depth: u32,
}

/// Whether element `id` shows no text, so that its subtree is left out: what the block builder
/// skips (scripts, styles, media, form lists, non-HTML content such as `<svg>`) and what a
/// browser hides (the `hidden` attribute, a closed `<dialog>`, inline `display:none` or
/// `visibility:hidden`), which the paper's `innerText` leaves out too. The folded panels the block
/// builder reads as page text (an accordion's, an FAQ's answers) are not left out here either:
/// one test, [`crate::page::is_hidden_element`], tells both.
fn is_invisible(dom: &Dom, id: NodeId) -> bool {
    let Some(name) = dom.element_name(id) else {
        return false;
    };
    if dom.namespace(id) != Some(&ns!(html)) || is_skipped_element(name) {
        return true;
    }
    crate::page::is_hidden_element(dom, id)
}

impl Stats {
    /// One walk of the subtree at `root`: sums flow up at each close edge, the word ratio flows up
    /// from each text node along the stack of open elements.
    fn collect(dom: &Dom, root: NodeId) -> Stats {
        let n = dom.len();
        let mut s = Stats {
            words: vec![0; n],
            plain_words: vec![0; n],
            text_nodes: vec![0; n],
            links: vec![0; n],
            tags: vec![0; n],
            images: vec![0; n],
            children: vec![0; n],
            depth: vec![0; n],
            word_ratio: vec![0.0; n],
            seen: vec![false; n],
            elements: Vec::new(),
            max_depth: 0,
        };
        // Open elements from the root down; `in_link` counts the hyperlinks among them.
        let mut stack: Vec<NodeId> = Vec::new();
        let mut in_link = 0u32;
        let mut walk = dom.traverse(root);
        while let Some(edge) = walk.next() {
            match edge {
                Edge::Open(id) => {
                    let i = id as usize;
                    if i >= n {
                        continue;
                    }
                    if id != root && is_invisible(dom, id) {
                        walk.skip_children();
                        continue;
                    }
                    let depth = u32::try_from(stack.len()).unwrap_or(u32::MAX);
                    if let Some(text) = dom.text(id) {
                        let words = count_words(text);
                        let visible = !text.trim().is_empty();
                        if !visible {
                            continue;
                        }
                        s.seen[i] = true;
                        s.depth[i] = depth;
                        s.max_depth = s.max_depth.max(depth);
                        s.text_nodes[i] = 1;
                        s.words[i] = words;
                        if in_link == 0 {
                            s.plain_words[i] = words;
                            if words > 0 {
                                let w = f64::from(words);
                                for (distance, &ancestor) in stack.iter().rev().enumerate() {
                                    s.word_ratio[ancestor as usize] += w / (distance as f64 + 1.0);
                                }
                            }
                        }
                        if let Some(&parent) = stack.last() {
                            let p = parent as usize;
                            s.children[p] += 1;
                            s.words[p] += words;
                            s.plain_words[p] += s.plain_words[i];
                            s.text_nodes[p] += 1;
                        }
                    } else if dom.is_element(id) {
                        s.seen[i] = true;
                        s.depth[i] = depth;
                        s.max_depth = s.max_depth.max(depth);
                        s.tags[i] = 1;
                        s.elements.push(id);
                        if dom.is_hyperlink(id) {
                            s.links[i] = 1;
                            in_link += 1;
                        }
                        if dom.element_name(id) == Some("img") {
                            s.images[i] = 1;
                        }
                        stack.push(id);
                    }
                }
                Edge::Close(id) => {
                    let i = id as usize;
                    // Only elements pushed at their open edge are popped; text and skipped
                    // subtrees were settled there.
                    if stack.last() != Some(&id) {
                        continue;
                    }
                    stack.pop();
                    if dom.is_hyperlink(id) {
                        in_link = in_link.saturating_sub(1);
                    }
                    if let Some(&parent) = stack.last() {
                        let p = parent as usize;
                        s.children[p] += 1;
                        s.words[p] += s.words[i];
                        s.plain_words[p] += s.plain_words[i];
                        s.text_nodes[p] += s.text_nodes[i];
                        s.links[p] += s.links[i];
                        s.tags[p] += s.tags[i];
                        s.images[p] += s.images[i];
                    }
                }
            }
        }
        s
    }

    /// Criteria 1 and 2: an element under the root, not a leaf, not of an excluded name.
    fn is_rated(&self, dom: &Dom, root: NodeId, id: NodeId) -> bool {
        id != root
            && self.children[id as usize] > 0
            && dom
                .element_name(id)
                .is_some_and(|n| !NOT_RATED.contains(&n))
    }

    /// The four ratios of Definition 3.1 for node `id`.
    fn ratios(&self, id: NodeId) -> [f64; 4] {
        let i = id as usize;
        let hyperlink = match self.links[i] {
            0 => 1.0,
            links => 1.0 / f64::from(links),
        };
        let children = if self.children[i] > 2 { 1.0 } else { 0.0 };
        let depth = f64::from(self.depth[i]);
        let max_depth = f64::from(self.max_depth);
        let position = if depth <= max_depth / 2.0 {
            1.0
        } else {
            max_depth / depth - 1.0
        };
        [self.word_ratio[i], hyperlink, children, position]
    }

    /// Algorithm 4's words/tags ratio.
    fn text_pond(&self, id: NodeId) -> f64 {
        let i = id as usize;
        f64::from(self.words[i]) / f64::from(self.tags[i].max(1))
    }

    /// Algorithm 5's text ratio: all text over the text outside hyperlinks (infinite for a node
    /// whose every word is link text; 1 for a node without words, which has no link text either).
    fn text_ratio(&self, id: NodeId) -> f64 {
        let i = id as usize;
        match (self.words[i], self.plain_words[i]) {
            (0, _) => 1.0,
            (_, 0) => f64::INFINITY,
            (all, plain) => f64::from(all) / f64::from(plain),
        }
    }
}

/// The root of the method's tree: `<body>`, else the document node.
fn body(dom: &Dom) -> NodeId {
    dom.body().unwrap_or(dom.root())
}

/// Whether `ancestor` is a proper ancestor of `id`.
fn is_ancestor(dom: &Dom, ancestor: NodeId, id: NodeId) -> bool {
    dom.ancestors(id).any(|a| a == ancestor)
}

/// Criterion 3: rated nodes on the deepest path below the root, against the rated children of
/// the root. True for a page wider than it is deep.
fn is_wide(dom: &Dom, root: NodeId, stats: &Stats) -> bool {
    // `rated_depth[n]`: rated nodes on the path from the root's child down to n, n included.
    // Elements are in document order, so a parent is always settled before its children.
    let mut rated_depth = vec![0u32; dom.len()];
    let mut deepest = 0u32;
    for &id in &stats.elements {
        if id == root {
            continue;
        }
        let above = dom
            .parent(id)
            .filter(|&p| p != root)
            .map_or(0, |p| rated_depth[p as usize]);
        let here = above + u32::from(stats.is_rated(dom, root, id));
        rated_depth[id as usize] = here;
        deepest = deepest.max(here);
    }
    let wide_children = dom
        .children(root)
        .filter(|&c| stats.seen.get(c as usize).copied().unwrap_or(false))
        .filter(|&c| stats.is_rated(dom, root, c))
        .count();
    (deepest as usize) < wide_children
}

/// Standardizes each coordinate to z-scores (Definition 3.2), in place.
fn standardize(points: &mut [[f64; 4]]) {
    if points.is_empty() {
        return;
    }
    let n = points.len() as f64;
    for k in 0..4 {
        let mean = points.iter().map(|p| p[k]).sum::<f64>() / n;
        let variance = points.iter().map(|p| (p[k] - mean).powi(2)).sum::<f64>() / n;
        let sd = variance.sqrt();
        for p in points.iter_mut() {
            p[k] = if sd > 0.0 { (p[k] - mean) / sd } else { 0.0 };
        }
    }
}

/// Algorithms 1 and 2: the indices of the `c` points farthest from the centroid, farthest first
/// (ties to the earlier point).
fn farthest_from_centroid(points: &[[f64; 4]], c: usize) -> Vec<usize> {
    if points.is_empty() {
        return Vec::new();
    }
    let n = points.len() as f64;
    let mut centroid = [0.0; 4];
    for p in points {
        for k in 0..4 {
            centroid[k] += p[k] / n;
        }
    }
    let distance: Vec<f64> = points
        .iter()
        .map(|p| {
            (0..4)
                .map(|k| (p[k] - centroid[k]).powi(2))
                .sum::<f64>()
                .sqrt()
        })
        .collect();
    let mut order: Vec<usize> = (0..points.len()).collect();
    // A stable sort keeps document order among equal distances.
    order.sort_by(|&a, &b| distance[b].total_cmp(&distance[a]));
    order.truncate(c);
    order
}

/// Algorithm 3: drops every candidate that has an ancestor in the set with the same text nodes.
fn reduce(dom: &Dom, stats: &Stats, candidates: &[NodeId]) -> Vec<NodeId> {
    candidates
        .iter()
        .copied()
        .filter(|&n2| {
            !candidates.iter().any(|&n1| {
                n1 != n2
                    && stats.text_nodes[n1 as usize] == stats.text_nodes[n2 as usize]
                    && is_ancestor(dom, n1, n2)
            })
        })
        .collect()
}

/// Algorithm 4: the candidates with the best words/tags ratio, with their siblings in the set.
fn select(dom: &Dom, stats: &Stats, candidates: &[NodeId]) -> Vec<NodeId> {
    let best = candidates
        .iter()
        .map(|&n| stats.text_pond(n))
        .fold(f64::NEG_INFINITY, f64::max);
    let winners: Vec<NodeId> = candidates
        .iter()
        .copied()
        .filter(|&n| stats.text_pond(n) == best)
        .collect();
    let mut main: Vec<NodeId> = candidates
        .iter()
        .copied()
        .filter(|&n| {
            winners.contains(&n)
                || winners
                    .iter()
                    .any(|&w| dom.parent(w).is_some() && dom.parent(w) == dom.parent(n))
        })
        .collect();
    main.sort_by_key(|&n| stats.elements.iter().position(|&e| e == n));
    main
}

/// Algorithm 5's second rule: a list whose items each hold a single link and nothing else.
fn is_link_list(dom: &Dom, stats: &Stats, id: NodeId) -> bool {
    if stats.images[id as usize] > 0 || stats.children[id as usize] < 2 {
        return false;
    }
    let visible = |c: NodeId| stats.seen.get(c as usize).copied().unwrap_or(false);
    let mut tag: Option<&str> = None;
    for child in dom.children(id).filter(|&c| visible(c)) {
        let Some(name) = dom.element_name(child) else {
            return false; // text among the items: not a pure list of links
        };
        if tag.is_some_and(|t| t != name) {
            return false;
        }
        tag = Some(name);
        let mut inner = dom.children(child).filter(|&c| visible(c));
        match (inner.next(), inner.next()) {
            (Some(only), None) if dom.element_name(only) == Some("a") => {}
            _ => return false,
        }
    }
    true
}

/// Algorithm 5: the link groups inside the main content, outermost first.
fn link_groups(dom: &Dom, stats: &Stats, main: &[NodeId]) -> Vec<NodeId> {
    let mut removed = Vec::new();
    for &m in main {
        let mut walk = dom.traverse(m);
        while let Some(edge) = walk.next() {
            let Edge::Open(id) = edge else { continue };
            if !stats.seen.get(id as usize).copied().unwrap_or(false) || !dom.is_element(id) {
                walk.skip_children();
                continue;
            }
            let link_heavy = stats.links[id as usize] > LINKS_THRESHOLD
                && stats.text_ratio(id) > TEXT_RATIO_THRESHOLD;
            if link_heavy || is_link_list(dom, stats, id) {
                removed.push(id);
                walk.skip_children();
            }
        }
    }
    removed
}

/// Runs the whole method on `page`: what it chose, and the statistics it chose by.
fn analyse(page: &Page) -> (Selection, Stats) {
    let dom = &page.dom;
    let root = body(dom);
    let stats = Stats::collect(dom, root);
    let whole_body = |how| {
        let main = vec![root];
        let removed = link_groups(dom, &stats, &main);
        Selection {
            root,
            main,
            removed,
            candidates: Vec::new(),
            how,
        }
    };

    if is_wide(dom, root, &stats) {
        let sel = whole_body(How::WidePage);
        return (sel, stats);
    }
    let rated: Vec<NodeId> = stats
        .elements
        .iter()
        .copied()
        .filter(|&id| stats.is_rated(dom, root, id))
        .collect();
    if rated.is_empty() {
        let sel = whole_body(How::NoCandidates);
        return (sel, stats);
    }
    let mut points: Vec<[f64; 4]> = rated.iter().map(|&id| stats.ratios(id)).collect();
    standardize(&mut points);
    let c_set: Vec<NodeId> = farthest_from_centroid(&points, C)
        .into_iter()
        .map(|k| rated[k])
        .collect();
    let candidates = reduce(dom, &stats, &c_set);
    let main = select(dom, &stats, &candidates);
    let removed = link_groups(dom, &stats, &main);
    let sel = Selection {
        root,
        main,
        removed,
        candidates,
        how: How::Candidates,
    };
    (sel, stats)
}

/// Runs the whole method on `page` and says what it chose.
pub fn selection(page: &Page) -> Selection {
    analyse(page).0
}

/// The nodes the method selects as the page's main content (before the link groups inside them
/// are removed), in document order.
pub fn main_content(page: &Page) -> Vec<NodeId> {
    selection(page).main
}

/// Where a node stands with respect to a [`Selection`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mark {
    Outside,
    /// Inside the main content node with this index in `Selection::main`.
    Main(usize),
    /// Inside the removed link group with this index in `Selection::removed`.
    Removed(usize),
}

/// Marks every node of the page: outside, in which main content node, or in which removed group.
fn marks(dom: &Dom, sel: &Selection) -> Vec<Mark> {
    let mut marks = vec![Mark::Outside; dom.len()];
    for (k, &m) in sel.main.iter().enumerate() {
        for edge in dom.traverse(m) {
            if let Edge::Open(id) = edge
                && let Some(slot) = marks.get_mut(id as usize)
            {
                *slot = Mark::Main(k);
            }
        }
    }
    for (k, &r) in sel.removed.iter().enumerate() {
        for edge in dom.traverse(r) {
            if let Edge::Open(id) = edge
                && let Some(slot) = marks.get_mut(id as usize)
            {
                *slot = Mark::Removed(k);
            }
        }
    }
    marks
}

/// A short name for an element in reasons: `div#main.story`.
fn describe(dom: &Dom, id: NodeId) -> String {
    let mut s = dom.element_name(id).unwrap_or("#document").to_string();
    if let Some(v) = dom.attr(id, "id").filter(|v| !v.trim().is_empty()) {
        let _ = write!(s, "#{}", v.trim());
    }
    if let Some(class) = dom
        .attr(id, "class")
        .and_then(|c| c.split_whitespace().next())
    {
        let _ = write!(s, ".{class}");
    }
    s
}

/// Labels every block of `page` (one label per block, in order): content when the block's node
/// lies inside a main content node and not inside a removed link group.
pub fn classify(page: &Page) -> Vec<Label> {
    let (sel, stats) = analyse(page);
    label_blocks(page, &sel, &stats)
}

/// Labels the blocks of `page` from a selection made on it.
fn label_blocks(page: &Page, sel: &Selection, stats: &Stats) -> Vec<Label> {
    let dom = &page.dom;
    let mut marks = marks(dom, sel);

    // A main content node that is an inline element (`<font>`, `<b>` inside a paragraph) holds
    // text that the block builder put into the blocks of its nearest block-level ancestor: those
    // blocks (that element's own, not its whole subtree) hold main content too.
    for (k, &m) in sel.main.iter().enumerate() {
        if !dom.element_name(m).is_some_and(is_inline_element) {
            continue;
        }
        let holder = dom
            .ancestors(m)
            .find(|&a| dom.element_name(a).is_none_or(|n| !is_inline_element(n)));
        if let Some(slot) = holder.and_then(|h| marks.get_mut(h as usize))
            && *slot == Mark::Outside
        {
            *slot = Mark::Main(k);
        }
    }

    let how = match sel.how {
        How::Candidates => "",
        How::WidePage => ", page wider than deep: all of body",
        How::NoCandidates => ", no candidate node: all of body",
    };
    let main_reasons: Vec<String> = sel
        .main
        .iter()
        .map(|&m| {
            format!(
                "inside the main content {} (words/tags {:.1}{how})",
                describe(dom, m),
                stats.text_pond(m)
            )
        })
        .collect();
    let removed_reasons: Vec<String> = sel
        .removed
        .iter()
        .map(|&r| {
            format!(
                "inside the link group {} removed by the post-process (text ratio {:.2}, links {})",
                describe(dom, r),
                stats.text_ratio(r),
                stats.links[r as usize]
            )
        })
        .collect();
    let outside = format!(
        "outside the main content {}",
        sel.main
            .iter()
            .map(|&m| describe(dom, m))
            .collect::<Vec<_>>()
            .join(" + ")
    );

    page.blocks
        .iter()
        .map(|b| {
            let mark = marks.get(b.node as usize).copied().unwrap_or(Mark::Outside);
            let (content, why) = match mark {
                Mark::Main(k) => (true, main_reasons[k].clone()),
                Mark::Removed(k) => (false, removed_reasons[k].clone()),
                Mark::Outside => (false, outside.clone()),
            };
            Label {
                verdict: if content {
                    Verdict::Content
                } else {
                    Verdict::Boilerplate
                },
                reason: Reason::Page {
                    extractor: NAME,
                    why: why.into(),
                },
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::page_from_html;

    fn sentence(n: usize, word: &str) -> String {
        vec![word; n].join(" ")
    }

    /// The element with `id="…"`.
    fn by_id(page: &Page, id: &str) -> NodeId {
        page.dom
            .element_with_id(id)
            .unwrap_or_else(|| panic!("no element #{id}"))
    }

    /// Whether the blocks whose text contains `needle` are all content (and there is one).
    fn content(page: &Page, labels: &[Label], needle: &str) -> bool {
        let hits: Vec<bool> = page
            .blocks
            .iter()
            .zip(labels)
            .filter(|(b, _)| b.text.contains(needle))
            .map(|(_, l)| l.is_content())
            .collect();
        assert!(!hits.is_empty(), "no block contains {needle:?}");
        hits.iter().all(|&c| c)
    }

    /// A page as news sites lay them out: header with navigation, the article beside a sidebar
    /// of links, a footer; `article` is the article element's inner HTML.
    fn layout(article: &str) -> String {
        format!(
            r#"<html><head><title>t</title></head><body><div id="page">{}<div id="main">
               <div id="article">{article}</div>
               <div id="sidebar"><h3>Most read</h3><ul>{}</ul></div></div>{}</div></body></html>"#,
            nav(),
            (0..5)
                .map(|i| format!(r#"<li><a href="/m{i}">Most read story {i}</a></li>"#))
                .collect::<String>(),
            footer()
        )
    }

    fn nav() -> String {
        let items: String = ["Home", "World", "Business", "Sport", "Science", "Culture"]
            .iter()
            .map(|s| format!(r#"<li><a href="/{s}">{s}</a></li>"#))
            .collect();
        format!(r#"<div id="top"><h1>The Daily Example</h1><ul id="nav">{items}</ul></div>"#)
    }

    fn article_paragraphs() -> String {
        (0..6)
            .map(|i| {
                format!(
                    "<p>Paragraph {i} of the story says {} and <em>more</em> {}.</p>",
                    sentence(25, "something"),
                    sentence(15, "besides")
                )
            })
            .collect()
    }

    fn footer() -> &'static str {
        r#"<div id="footer"><p>Copyright 2020 Example Media. All rights reserved.</p>
           <p><a href="/privacy">Privacy</a> <a href="/terms">Terms</a> <a href="/contact">Contact</a></p></div>"#
    }

    #[test]
    fn article_beside_nav_and_footer() {
        let html = layout(&format!(
            "<h2>Headline of the story</h2>{}",
            article_paragraphs()
        ));
        let page = page_from_html(&html, None);
        assert_eq!(main_content(&page), vec![by_id(&page, "article")]);
        let labels = classify(&page);
        assert_eq!(labels.len(), page.blocks.len());
        assert!(content(&page, &labels, "Paragraph 0"));
        assert!(content(&page, &labels, "Paragraph 5"));
        assert!(content(&page, &labels, "Headline of the story"));
        assert!(!content(&page, &labels, "Sport"));
        assert!(!content(&page, &labels, "The Daily Example"));
        assert!(!content(&page, &labels, "Copyright"));
        assert!(!content(&page, &labels, "Most read story 3"));
        let Reason::Page { extractor, why } = &labels[0].reason else {
            panic!("page reason expected");
        };
        assert_eq!(*extractor, NAME);
        assert!(
            why.starts_with("outside the main content div#article"),
            "{why}"
        );
    }

    #[test]
    fn page_wrapped_in_a_form() {
        // Old ASP.NET pages put the whole page inside one <form>: the wrapper must not decide.
        let html = format!(
            r#"<html><body><form id="aspnetForm" action="/x">{}<table><tr><td id="side"><a href="/1">One</a><br><a href="/2">Two</a></td>
               <td><div id="article"><h2>Headline</h2>{}</div></td></tr></table>{}</form></body></html>"#,
            nav(),
            article_paragraphs(),
            footer()
        );
        let page = page_from_html(&html, None);
        assert_eq!(main_content(&page), vec![by_id(&page, "article")]);
        let labels = classify(&page);
        assert!(content(&page, &labels, "Paragraph 3"));
        assert!(!content(&page, &labels, "Copyright"));
        assert!(!content(&page, &labels, "One"));
    }

    #[test]
    fn link_groups_inside_the_article_are_removed() {
        let related: String = (0..8)
            .map(|i| format!(r#"<a href="/r{i}">Related story number {i}</a>, "#))
            .collect();
        let list: String = (0..3)
            .map(|i| format!(r#"<li><a href="/s{i}">Share on network {i}</a></li>"#))
            .collect();
        let html = layout(&format!(
            r#"<h2>Headline</h2>{}<div id="related">See also: {related}</div>
               <ul id="share">{list}</ul>{}"#,
            article_paragraphs(),
            article_paragraphs(),
        ));
        let page = page_from_html(&html, None);
        let sel = selection(&page);
        assert_eq!(sel.main, vec![by_id(&page, "article")]);
        // Rule (a): text over non-link text > 1.5 with more than 7 links; rule (b): a list of
        // single links (only 3 of them, so rule (a) would not apply).
        assert_eq!(
            sel.removed,
            vec![by_id(&page, "related"), by_id(&page, "share")]
        );
        let labels = classify(&page);
        assert!(content(&page, &labels, "Paragraph 2"));
        assert!(!content(&page, &labels, "Related story number 4"));
        assert!(!content(&page, &labels, "Share on network 1"));
        let (_, label) = page
            .blocks
            .iter()
            .zip(&labels)
            .find(|(b, _)| b.text.contains("Share on network 1"))
            .unwrap_or_else(|| panic!("no share block"));
        assert!(label.reason.to_string().contains("link group ul#share"));
    }

    #[test]
    fn a_link_list_with_an_image_stays() {
        let dom = page_from_html(
            r#"<body><div id="l"><p><a href="/a"><img src="a.jpg"></a></p><p><a href="/b">b</a></p></div>
               <div id="m"><p><a href="/a">a</a></p><p><a href="/b">b</a></p></div>
               <div id="t"><p><a href="/a">a</a></p><p><a href="/b">b</a> and text</p></div></body>"#,
            None,
        );
        let stats = Stats::collect(&dom.dom, body(&dom.dom));
        assert!(!is_link_list(&dom.dom, &stats, by_id(&dom, "l")));
        assert!(is_link_list(&dom.dom, &stats, by_id(&dom, "m")));
        assert!(!is_link_list(&dom.dom, &stats, by_id(&dom, "t")));
    }

    #[test]
    fn wide_page_is_all_of_body() {
        // Criterion 3: depth in rated nodes (1) below the number of rated children of body (5).
        let paragraphs: String = (0..5)
            .map(|i| format!("<p>Old page paragraph {i} {}</p>", sentence(20, "text")))
            .collect();
        let page = page_from_html(&format!("<body>{paragraphs}Loose text</body>"), None);
        let sel = selection(&page);
        assert_eq!(sel.how, How::WidePage);
        assert_eq!(sel.main, vec![body(&page.dom)]);
        assert!(classify(&page).iter().all(Label::is_content));
    }

    #[test]
    fn inline_main_node_marks_its_block() {
        let page = page_from_html(
            r#"<body><div><p id="p">Lead <font id="f">the story <img src="x.jpg"> itself</font> tail</p><p id="q">Other</p></div></body>"#,
            None,
        );
        let stats = Stats::collect(&page.dom, body(&page.dom));
        let sel = Selection {
            root: body(&page.dom),
            main: vec![by_id(&page, "f")],
            ..Selection::default()
        };
        let labels = label_blocks(&page, &sel, &stats);
        let verdicts: Vec<(&str, bool)> = page
            .blocks
            .iter()
            .zip(&labels)
            .map(|(b, l)| (b.text.as_str(), l.is_content()))
            .collect();
        assert!(verdicts.contains(&("Other", false)), "{verdicts:?}");
        assert!(
            verdicts.iter().any(|&(t, c)| t.contains("the story") && c),
            "{verdicts:?}"
        );
        // The image inside the inline node is its own block, inside the main node.
        let image = page.blocks.iter().position(|b| b.image.is_some());
        assert!(image.is_some_and(|i| labels[i].is_content()));
    }

    #[test]
    fn ratios_of_a_small_tree() {
        let page = page_from_html(
            r#"<body><div id="a"><p id="p">one two three <a href="/x">link words</a></p>four five<span>six</span></div><b id="b">x</b></body>"#,
            None,
        );
        let dom = &page.dom;
        let stats = Stats::collect(dom, body(dom));
        let (a, p) = (by_id(&page, "a"), by_id(&page, "p"));
        // Word ratio of a: "one two three" at distance 2, "four five" at 1, "six" at 2.
        assert_eq!(stats.word_ratio[a as usize], 1.5 + 2.0 + 0.5);
        assert_eq!(stats.word_ratio[p as usize], 3.0);
        assert_eq!(stats.words[a as usize], 8);
        assert_eq!(stats.plain_words[a as usize], 6);
        assert_eq!(stats.links[a as usize], 1);
        // a's children: p, the text, span.
        assert_eq!(stats.children[a as usize], 3);
        // Depths from body: a 1, p 2, text in a 2 ... the link text 4: max depth 4.
        assert_eq!(stats.max_depth, 4);
        let [word, hyperlink, children, position] = stats.ratios(a);
        assert_eq!((word, hyperlink, children, position), (4.0, 1.0, 1.0, 1.0));
        // p at depth 2 = maxDepth/2 is still in the upper half.
        assert_eq!(stats.ratios(p)[3], 1.0);
        let x = page
            .dom
            .descendants(p)
            .find(|&n| dom.element_name(n) == Some("a"))
            .unwrap_or_else(|| panic!("no link"));
        // The link at depth 3 of 4: 4/3 - 1.
        assert!((stats.ratios(x)[3] - (4.0 / 3.0 - 1.0)).abs() < 1e-12);
        assert_eq!(stats.ratios(x)[1], 1.0);
        assert_eq!(stats.ratios(p)[1], 1.0);
        assert_eq!(stats.text_ratio(p), 5.0 / 3.0);
        // 8 words over a, p, the link and the span.
        assert_eq!(stats.text_pond(a), 2.0);
        assert!(!stats.is_rated(dom, body(dom), x));
        assert!(stats.is_rated(dom, body(dom), a));
        assert!(stats.is_rated(dom, body(dom), by_id(&page, "b")));
    }

    #[test]
    fn standardize_and_farthest() {
        let mut points = vec![[1.0, 5.0, 0.0, 2.0], [3.0, 5.0, 0.0, 2.0]];
        standardize(&mut points);
        assert_eq!(points, vec![[-1.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0]]);
        let points = vec![
            [0.0; 4],
            [3.0, 0.0, 0.0, 0.0],
            [0.0, -3.0, 0.0, 0.0],
            [1.0; 4],
        ];
        // Centroid (1, -0.5, 0.25, 0.25); squared distances 1.375, 4.375, 7.375, 3.375.
        assert_eq!(farthest_from_centroid(&points, 3), vec![2, 1, 3]);
        assert_eq!(farthest_from_centroid(&points, 9), vec![2, 1, 3, 0]);
        // Equal distances keep document order.
        let points = vec![[0.0; 4], [-1.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0]];
        assert_eq!(farthest_from_centroid(&points, 2), vec![1, 2]);
        assert!(farthest_from_centroid(&[], 3).is_empty());
    }

    #[test]
    fn reduction_keeps_the_ancestor_with_the_same_text() {
        let page = page_from_html(
            r#"<body><div id="o"><div id="m"><p id="i">text <img src="a.jpg"></p></div><p id="x">more</p></div></body>"#,
            None,
        );
        let dom = &page.dom;
        let stats = Stats::collect(dom, body(dom));
        let (o, m, i, x) = (
            by_id(&page, "o"),
            by_id(&page, "m"),
            by_id(&page, "i"),
            by_id(&page, "x"),
        );
        assert_eq!(reduce(dom, &stats, &[m, i]), vec![m]);
        assert_eq!(reduce(dom, &stats, &[i, m, o]), vec![m, o]);
        assert_eq!(reduce(dom, &stats, &[x, i]), vec![x, i]);
    }

    #[test]
    fn selection_takes_siblings_and_ties() {
        let page = page_from_html(
            r#"<body><div id="w"><div id="s1"><p>a b c d</p></div><div id="s2"><p>a b</p></div></div><div id="z"><p>a b c d</p></div></body>"#,
            None,
        );
        let dom = &page.dom;
        let stats = Stats::collect(dom, body(dom));
        let (w, s1, s2, z) = (
            by_id(&page, "w"),
            by_id(&page, "s1"),
            by_id(&page, "s2"),
            by_id(&page, "z"),
        );
        // s1 is best (4 words / 2 tags); its sibling s2 in the set comes along.
        assert_eq!(select(dom, &stats, &[w, s2, s1]), vec![s1, s2]);
        // s1 and z tie: both are selected.
        assert_eq!(select(dom, &stats, &[z, s1]), vec![s1, z]);
    }

    #[test]
    fn degenerate_pages_do_not_panic() {
        for html in [
            "",
            "<html></html>",
            "<body></body>",
            "<body>just text</body>",
            "<body><img src=a.jpg></body>",
            "<body><div><div></div></div></body>",
            "<frameset><frame src=a.html></frameset>",
            "<body><script>var a = 'no text';</script><style>p{}</style></body>",
        ] {
            let page = page_from_html(html, None);
            let labels = classify(&page);
            assert_eq!(labels.len(), page.blocks.len(), "{html:?}");
        }
        let page = page_from_html("<body>just text</body>", None);
        assert_eq!(selection(&page).how, How::NoCandidates);
        assert!(classify(&page).iter().all(Label::is_content));
    }

    #[test]
    fn deep_nesting_is_fine() {
        let depth = 100_000;
        let html = format!(
            "<body>{}<p>deep text here</p>{}</body>",
            "<div>".repeat(depth),
            "</div>".repeat(depth)
        );
        let page = page_from_html(&html, None);
        let labels = classify(&page);
        assert_eq!(labels.len(), page.blocks.len());
        let html = format!("<body>{}deep</body>", "<b><i>".repeat(depth));
        let page = page_from_html(&html, None);
        assert_eq!(classify(&page).len(), page.blocks.len());
    }
}
