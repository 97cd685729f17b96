//! An arena DOM built by html5ever's tree builder: nodes in one vector, addressed by index.
//!
//! Why an arena: the block builder and the extractors walk the tree many times; indices are cheap to
//! copy and store (blocks keep the [`NodeId`] of their element), the whole page is freed at once, and
//! dropping it can never recurse. Nothing in this module recurses: every walk is iterative over the
//! parent/sibling links, so a page with 100,000 nested tags cannot overflow the stack.
//!
//! Comments, doctypes and processing instructions are not kept. `<template>` contents are parsed
//! into a separate fragment that is not reachable from [`Dom::root`]: they are inert in a browser and
//! contribute no text. A declarative shadow root (`<template shadowrootmode="open">`, a web
//! component rendered on the server) is no inert template: a browser shows it, so its contents
//! are parsed into its host, where the template stood among the host's own children. Slots are
//! not filled: a browser shows the host's children at the shadow tree's `<slot>`s, and hides
//! those no slot takes; here they stay where they were written. Its `<style>` elements are
//! noted ([`Dom::is_shadow_style`]): they style the component, not the page. The bounds of
//! [`crate::limits`] are enforced while parsing (depth, node count, text size);
//! [`Dom::limits_hit`] says whether any of them cut this document.

mod guard;
pub(crate) use guard::is_raw_text;
mod sink;

use std::cell::RefCell;

use html5ever::TokenizerResult;
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{BufferQueue, Tokenizer, TokenizerOpts};
use html5ever::tree_builder::{TreeBuilder, TreeBuilderOpts};
use html5ever::{LocalName, Namespace, QualName, local_name, ns};

use crate::limits::MAX_NODES;

use guard::{Guard, OpenTags};
use sink::Sink;

/// How much input the tokenizer is given at a time.
const INPUT_CHUNK_BYTES: usize = 256 * 1024;

/// The end of the first chunk of `s`: at most `max` bytes, cut at a char boundary (a chunk
/// always holds at least one char, so parsing always progresses).
fn chunk_end(s: &str, max: usize) -> usize {
    if s.len() <= max {
        return s.len();
    }
    let mut end = max;
    while end > 0 && !s.is_char_boundary(end) {
        end -= 1;
    }
    if end == 0 {
        s.chars().next().map_or(s.len(), char::len_utf8)
    } else {
        end
    }
}

/// Index of a node in a [`Dom`]. The document node is always 0.
pub type NodeId = u32;

/// The "no node" value of the internal links.
const NONE: NodeId = NodeId::MAX;

/// What a node is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NodeData {
    /// The document node (the root), or the fragment that holds a `<template>`'s contents.
    Document,
    /// An element.
    Element(ElementData),
    /// A run of text; adjacent text is merged into one node, entities are already decoded.
    Text(String),
}

/// An element's name and attributes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ElementData {
    /// Namespace and local name; HTML elements are in the HTML namespace, `<svg>` and `<math>`
    /// content in theirs. The local name of an HTML element is lower case.
    pub name: QualName,
    /// Attributes in source order, by local name (namespace prefixes such as `xlink:` dropped).
    pub attrs: Vec<(LocalName, String)>,
}

/// One node with its tree links.
#[derive(Debug, Clone)]
struct Node {
    parent: NodeId,
    prev_sibling: NodeId,
    next_sibling: NodeId,
    first_child: NodeId,
    last_child: NodeId,
    /// Depth when the node was attached (document = 0). Moves by the tree builder (misnested
    /// markup) do not update a moved subtree's descendants, so this is approximate there; it is
    /// only used to bound nesting.
    depth: u32,
    data: NodeData,
}

impl Node {
    fn new(data: NodeData) -> Node {
        Node {
            parent: NONE,
            prev_sibling: NONE,
            next_sibling: NONE,
            first_child: NONE,
            last_child: NONE,
            depth: 0,
            data,
        }
    }
}

/// Which bounds of [`crate::limits`] cut a document while it was parsed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LimitsHit {
    /// Start tags were dropped or nodes re-attached because of [`MAX_DEPTH`].
    pub depth: bool,
    /// The input was cut because the DOM reached [`MAX_NODES`].
    pub nodes: bool,
    /// Some text node was cut at [`MAX_TEXT_NODE_BYTES`].
    pub text: bool,
}

/// A parsed HTML document: all nodes in one vector, linked by index.
#[derive(Debug, Clone)]
pub struct Dom {
    nodes: Vec<Node>,
    limits_hit: LimitsHit,
    /// The `<style>` elements of declarative shadow roots, sorted (see [`Dom::is_shadow_style`]).
    shadow_styles: Vec<NodeId>,
}

impl Default for Dom {
    fn default() -> Dom {
        Dom {
            nodes: vec![Node::new(NodeData::Document)],
            limits_hit: LimitsHit::default(),
            shadow_styles: Vec::new(),
        }
    }
}

impl Dom {
    /// Parses a whole HTML document the way a browser does (html5ever's tree builder: implied
    /// `<html>`/`<head>`/`<body>`, misnested tags repaired, entities decoded), within the bounds of
    /// [`crate::limits`]. Never fails: any string gives some tree, the empty string a document
    /// with an empty `<html><head></head><body></body></html>`.
    pub fn parse(html: &str) -> Dom {
        Dom::parse_with(html, true)
    }

    /// Parses `html` as a browser with JavaScript turned off does: the contents of `<noscript>`
    /// are markup (elements and text), not one raw text node.
    pub fn parse_without_scripting(html: &str) -> Dom {
        Dom::parse_with(html, false)
    }

    fn parse_with(html: &str, scripting_enabled: bool) -> Dom {
        let sink = Sink::default();
        let opts = TreeBuilderOpts {
            drop_doctype: true,
            scripting_enabled,
            ..TreeBuilderOpts::default()
        };
        let guard = Guard {
            tree_builder: TreeBuilder::new(sink, opts),
            open: RefCell::new(OpenTags::default()),
        };
        let tokenizer = Tokenizer::new(guard, TokenizerOpts::default());
        let input = BufferQueue::default();
        // Bounded attributes per tag first: the tokenizer's duplicate check is quadratic in them.
        let html = &*crate::attrguard::limit_attributes(html);
        // Fed in chunks, so that the parser's copy of a huge page is never whole in memory and
        // the input after the node cap is not even tokenized.
        let mut rest = html;
        while !rest.is_empty() {
            let (chunk, tail) = rest.split_at(chunk_end(rest, INPUT_CHUNK_BYTES));
            rest = tail;
            input.push_back(StrTendril::from_slice(chunk));
            // The tokenizer pauses at every `</script>` (so that a browser could run it) and at a
            // `<meta charset>` (so that a browser could re-decode); neither applies here.
            while !matches!(tokenizer.feed(&input), TokenizerResult::Done) {}
            if tokenizer.sink.tree_builder.sink.arena.borrow().nodes.len() >= MAX_NODES {
                tokenizer
                    .sink
                    .tree_builder
                    .sink
                    .arena
                    .borrow_mut()
                    .limits_hit
                    .nodes = true;
                break;
            }
        }
        tokenizer.end();
        let guard = &tokenizer.sink;
        let mut arena = guard.tree_builder.sink.arena.take();
        arena.settle_shadow_roots();
        let mut limits_hit = arena.limits_hit;
        limits_hit.depth |= guard.open.borrow().dropped_any;
        Dom {
            nodes: arena.nodes,
            limits_hit,
            shadow_styles: arena.shadow_styles,
        }
    }

    fn node(&self, id: NodeId) -> Option<&Node> {
        self.nodes.get(id as usize)
    }

    fn link(&self, id: NodeId, f: impl Fn(&Node) -> NodeId) -> Option<NodeId> {
        self.node(id).map(f).filter(|&l| l != NONE)
    }

    /// True when `id` is a `<style>` of a declarative shadow root: it styles its own component
    /// alone (a browser scopes it there), not the page around it.
    pub fn is_shadow_style(&self, id: NodeId) -> bool {
        self.shadow_styles.binary_search(&id).is_ok()
    }

    /// The document node, ancestor of everything in the page.
    pub fn root(&self) -> NodeId {
        0
    }

    /// Number of nodes held, including `<template>` contents that are not reachable from the root.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True when the DOM holds only the document node (never the case after [`Dom::parse`], which
    /// always creates `<html>`, `<head>` and `<body>`).
    pub fn is_empty(&self) -> bool {
        self.nodes.len() <= 1
    }

    /// Which parsing bounds cut this document, if any.
    pub fn limits_hit(&self) -> LimitsHit {
        self.limits_hit
    }

    /// What node `id` is; `None` for an id not in this DOM.
    pub fn data(&self, id: NodeId) -> Option<&NodeData> {
        self.node(id).map(|n| &n.data)
    }

    /// The parent of `id`; `None` for the root, for a detached node and for an unknown id.
    pub fn parent(&self, id: NodeId) -> Option<NodeId> {
        self.link(id, |n| n.parent)
    }

    /// The first child of `id`.
    pub fn first_child(&self, id: NodeId) -> Option<NodeId> {
        self.link(id, |n| n.first_child)
    }

    /// The last child of `id`.
    pub fn last_child(&self, id: NodeId) -> Option<NodeId> {
        self.link(id, |n| n.last_child)
    }

    /// The sibling after `id`.
    pub fn next_sibling(&self, id: NodeId) -> Option<NodeId> {
        self.link(id, |n| n.next_sibling)
    }

    /// The sibling before `id`.
    pub fn prev_sibling(&self, id: NodeId) -> Option<NodeId> {
        self.link(id, |n| n.prev_sibling)
    }

    /// Depth of `id` below the document node (the root is 0, `<html>` 1), as attached by the
    /// parser: exact except inside subtrees the parser moved while repairing misnested markup.
    pub fn depth(&self, id: NodeId) -> u32 {
        self.node(id).map_or(0, |n| n.depth)
    }

    /// The children of `id`, in order.
    pub fn children(&self, id: NodeId) -> Children<'_> {
        Children {
            dom: self,
            next: self.first_child(id),
        }
    }

    /// The ancestors of `id`, from its parent up to the root (`id` itself not included).
    pub fn ancestors(&self, id: NodeId) -> Ancestors<'_> {
        Ancestors {
            dom: self,
            next: self.parent(id),
        }
    }

    /// The first element, in document order, whose `id` attribute is `id`: how a test names the
    /// box it asks about.
    #[cfg(test)]
    pub(crate) fn element_with_id(&self, id: &str) -> Option<NodeId> {
        self.descendants(self.root())
            .find(|&n| self.attr(n, "id") == Some(id))
    }

    /// The descendants of `id` in document order (pre-order), `id` itself not included.
    pub fn descendants(&self, id: NodeId) -> Descendants<'_> {
        Descendants {
            traverse: self.traverse(id),
        }
    }

    /// Every node of the subtree at `id` (itself included) in document order, each as an
    /// [`Edge::Open`] before its descendants and an [`Edge::Close`] after them: what a walk needs
    /// when it keeps state per open element (the block builder does), without recursion.
    pub fn traverse(&self, id: NodeId) -> Traverse<'_> {
        Traverse {
            dom: self,
            root: id,
            next: self.node(id).map(|_| Edge::Open(id)),
            last_opened: None,
            budget: 2 * self.nodes.len(),
        }
    }

    /// The element's local name (`"div"`, `"svg"`); `None` for text and document nodes.
    pub fn element_name(&self, id: NodeId) -> Option<&str> {
        self.local_name(id).map(|l| &**l)
    }

    /// The element's local name as an atom, for cheap comparisons with `local_name!("p")`.
    pub fn local_name(&self, id: NodeId) -> Option<&LocalName> {
        self.element(id).map(|e| &e.name.local)
    }

    /// The element's namespace (`ns!(html)` for HTML elements).
    pub fn namespace(&self, id: NodeId) -> Option<&Namespace> {
        self.element(id).map(|e| &e.name.ns)
    }

    /// True when `id` is an HTML element with local name `name`.
    pub fn is_html(&self, id: NodeId, name: &LocalName) -> bool {
        self.element(id)
            .is_some_and(|e| e.name.ns == ns!(html) && e.name.local == *name)
    }

    /// True when `id` is a hyperlink: an HTML `<a>` with an `href`, what a page's link words and
    /// link targets are counted from.
    pub fn is_hyperlink(&self, id: NodeId) -> bool {
        self.is_html(id, &local_name!("a")) && self.attr(id, "href").is_some()
    }

    /// The element's name and attributes; `None` for other nodes.
    pub fn element(&self, id: NodeId) -> Option<&ElementData> {
        match self.data(id) {
            Some(NodeData::Element(e)) => Some(e),
            _ => None,
        }
    }

    /// The value of attribute `name` (lower case, as HTML attribute names are) of element `id`.
    pub fn attr(&self, id: NodeId, name: &str) -> Option<&str> {
        self.element(id)?
            .attrs
            .iter()
            .find(|(n, _)| &**n == name)
            .map(|(_, v)| v.as_str())
    }

    /// All attributes of element `id` (empty for other nodes).
    pub fn attrs(&self, id: NodeId) -> &[(LocalName, String)] {
        self.element(id).map_or(&[], |e| &e.attrs)
    }

    /// The text of text node `id`; `None` for other nodes.
    pub fn text(&self, id: NodeId) -> Option<&str> {
        match self.data(id) {
            Some(NodeData::Text(t)) => Some(t),
            _ => None,
        }
    }

    /// True when `id` is an element.
    pub fn is_element(&self, id: NodeId) -> bool {
        self.element(id).is_some()
    }

    /// True when `id` is a text node.
    pub fn is_text(&self, id: NodeId) -> bool {
        self.text(id).is_some()
    }

    /// All text below `id` concatenated in document order, as in the DOM's `textContent` (so it
    /// includes `<script>` and `<style>` text; white space is not folded).
    pub fn text_content(&self, id: NodeId) -> String {
        let mut out = String::new();
        if let Some(t) = self.text(id) {
            out.push_str(t);
        }
        for d in self.descendants(id) {
            if let Some(t) = self.text(d) {
                out.push_str(t);
            }
        }
        out
    }

    /// The first element (in document order, reachable from the root) with local name `name`,
    /// e.g. `"body"` or `"title"`.
    pub fn first_element_by_name(&self, name: &str) -> Option<NodeId> {
        self.elements_by_name(name).next()
    }

    /// The document's `<body>`: where the HTML parser puts it (a child of `<html>`, which is a
    /// child of the document), else the first `<body>` in document order. The same element as
    /// `first_element_by_name("body")` without walking the whole `<head>` before it: signatures
    /// are looked up from it on every page of a known site.
    pub fn body(&self) -> Option<NodeId> {
        let is = |id: NodeId, name: &str| self.element_name(id) == Some(name);
        self.children(self.root())
            .find(|&c| is(c, "html"))
            .and_then(|html| self.children(html).find(|&c| is(c, "body")))
            .or_else(|| self.first_element_by_name("body"))
    }

    /// All elements reachable from the root with local name `name`, in document order.
    pub fn elements_by_name<'a>(&'a self, name: &'a str) -> impl Iterator<Item = NodeId> + 'a {
        self.descendants(self.root())
            .filter(move |&id| self.element_name(id) == Some(name))
    }
}

/// Iterator over a node's children, see [`Dom::children`].
#[derive(Debug, Clone)]
pub struct Children<'a> {
    dom: &'a Dom,
    next: Option<NodeId>,
}

impl Iterator for Children<'_> {
    type Item = NodeId;
    fn next(&mut self) -> Option<NodeId> {
        let id = self.next?;
        self.next = self.dom.next_sibling(id);
        Some(id)
    }
}

/// Iterator over a node's ancestors, see [`Dom::ancestors`].
#[derive(Debug, Clone)]
pub struct Ancestors<'a> {
    dom: &'a Dom,
    next: Option<NodeId>,
}

impl Iterator for Ancestors<'_> {
    type Item = NodeId;
    fn next(&mut self) -> Option<NodeId> {
        let id = self.next?;
        self.next = self.dom.parent(id);
        Some(id)
    }
}

/// One step of a [`Traverse`] walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edge {
    /// Entering a node: its descendants follow.
    Open(NodeId),
    /// Leaving a node: all its descendants have been seen.
    Close(NodeId),
}

/// Iterative walk of a subtree with open and close events, see [`Dom::traverse`].
#[derive(Debug, Clone)]
pub struct Traverse<'a> {
    dom: &'a Dom,
    root: NodeId,
    next: Option<Edge>,
    last_opened: Option<NodeId>,
    budget: usize,
}

impl Traverse<'_> {
    /// Skips the descendants of the node whose [`Edge::Open`] was just returned: the next edge is
    /// its [`Edge::Close`]. Used to prune subtrees (`<script>`, hidden elements) without walking
    /// them. Does nothing after any other edge.
    pub fn skip_children(&mut self) {
        if let Some(id) = self.last_opened
            && self.next != Some(Edge::Close(id))
        {
            self.next = Some(Edge::Close(id));
        }
    }
}

impl Iterator for Traverse<'_> {
    type Item = Edge;
    fn next(&mut self) -> Option<Edge> {
        let edge = self.next?;
        // Each node opens and closes once; more edges than that would mean a cycle, which the
        // tree builder never makes, but a walk must end even then.
        self.budget = self.budget.checked_sub(1)?;
        self.next = match edge {
            Edge::Open(id) => match self.dom.first_child(id) {
                Some(child) => Some(Edge::Open(child)),
                None => Some(Edge::Close(id)),
            },
            Edge::Close(id) if id == self.root => None,
            Edge::Close(id) => match self.dom.next_sibling(id) {
                Some(sibling) => Some(Edge::Open(sibling)),
                None => self.dom.parent(id).map(Edge::Close),
            },
        };
        self.last_opened = match edge {
            Edge::Open(id) => Some(id),
            Edge::Close(_) => None,
        };
        Some(edge)
    }
}

/// Iterator over a node's descendants in document order, see [`Dom::descendants`].
#[derive(Debug, Clone)]
pub struct Descendants<'a> {
    traverse: Traverse<'a>,
}

impl Iterator for Descendants<'_> {
    type Item = NodeId;
    fn next(&mut self) -> Option<NodeId> {
        loop {
            match self.traverse.next()? {
                Edge::Open(id) if id != self.traverse.root => return Some(id),
                _ => {}
            }
        }
    }
}

/// True for the six heading elements, `<h1>` to `<h6>`: the token guard closes a heading that
/// opens inside another, and the block builder knows a heading's permalink by it.
pub fn is_heading(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("h1")
            | local_name!("h2")
            | local_name!("h3")
            | local_name!("h4")
            | local_name!("h5")
            | local_name!("h6")
    )
}

/// True when `value` (a `class`, an `id`) holds `word`, given in lower-case ASCII, anywhere and
/// in any case: the cheap test before a name is cut into its words, or where a word inside a
/// name is enough (`bbCodeBlock--quote` holds `quote`).
pub fn name_holds(value: &str, word: &[u8]) -> bool {
    debug_assert!(
        !word.iter().any(u8::is_ascii_uppercase),
        "words are given lower-case"
    );
    let haystack = value.as_bytes();
    let Some((&first, rest)) = word.split_first() else {
        return true;
    };
    let Some(last_start) = haystack.len().checked_sub(word.len()) else {
        return false;
    };
    // The word's first letter in either case first, then the rest: a page's long class lists
    // (utility classes) are searched for several words each, byte by byte.
    let upper = first.to_ascii_uppercase();
    haystack[..=last_start].iter().enumerate().any(|(at, &b)| {
        (b == first || b == upper) && haystack[at + 1..at + word.len()].eq_ignore_ascii_case(rest)
    })
}

/// True when `value` holds one of `words` (each given in lower-case ASCII) anywhere and in any
/// case: [`name_holds`] for several words in one pass over the value. An empty word is held by
/// every value, as [`name_holds`] has it. ([`name_holds`] keeps its own scan rather than calling
/// this with one word: looking for one first letter in both cases, without lower-casing every
/// byte, measured 1.6% cheaper over a page-level extraction.)
pub fn name_holds_any(value: &str, words: &[&str]) -> bool {
    debug_assert!(
        !words
            .iter()
            .any(|w| w.bytes().any(|b| b.is_ascii_uppercase())),
        "words are given lower-case"
    );
    if words.iter().any(|w| w.is_empty()) {
        return true;
    }
    // The words' first letters as a set of bytes, both cases: most bytes of a long class list
    // start none of the words and cost one look-up, whether or not the caller's word list was
    // folded into this function at compile time.
    let mut starts = [false; 256];
    for word in words {
        if let Some(&first) = word.as_bytes().first() {
            starts[usize::from(first)] = true;
            starts[usize::from(first.to_ascii_uppercase())] = true;
        }
    }
    let haystack = value.as_bytes();
    haystack.iter().enumerate().any(|(at, &b)| {
        if !starts[usize::from(b)] {
            return false;
        }
        let b = b.to_ascii_lowercase();
        words.iter().any(|word| {
            let word = word.as_bytes();
            word.first() == Some(&b)
                && haystack
                    .get(at + 1..at + word.len())
                    .is_some_and(|rest| rest.eq_ignore_ascii_case(&word[1..]))
        })
    })
}

/// Splits `value`, a `class` or `id`, into lower-case words: at every non-alphanumeric character
/// and at camelCase boundaries (`articleBody` → `article`, `body`), calling `f` on each. Authors
/// name their boxes so, and both the block builder and the extractor read the names.
pub fn for_each_name_token(value: &str, mut f: impl FnMut(&str)) {
    if value.is_ascii() {
        ascii_name_tokens(value, f);
        return;
    }
    let mut token = String::new();
    let mut prev_lower = false;
    for c in value.chars() {
        if c.is_alphanumeric() {
            if c.is_uppercase() && prev_lower && !token.is_empty() {
                f(&token);
                token.clear();
            }
            prev_lower = c.is_lowercase() || c.is_ascii_digit();
            // Class names are nearly all ASCII: no case tables for them.
            if c.is_ascii() {
                token.push(c.to_ascii_lowercase());
            } else {
                token.extend(c.to_lowercase());
            }
        } else {
            if !token.is_empty() {
                f(&token);
                token.clear();
            }
            prev_lower = false;
        }
    }
    if !token.is_empty() {
        f(&token);
    }
}

/// [`for_each_name_token`] for an ASCII `value` (nearly every class and id): the same words,
/// cut from the value's bytes and passed as they stand when they hold no capital, with no table
/// of Unicode cases asked.
fn ascii_name_tokens(value: &str, mut f: impl FnMut(&str)) {
    let mut lowered = String::new();
    let mut emit = |token: &str| {
        if token.bytes().any(|b| b.is_ascii_uppercase()) {
            lowered.clear();
            lowered.extend(token.chars().map(|c| c.to_ascii_lowercase()));
            f(&lowered);
        } else {
            f(token);
        }
    };
    let mut start: Option<usize> = None;
    let mut prev_lower = false;
    for (at, b) in value.bytes().enumerate() {
        if b.is_ascii_alphanumeric() {
            if b.is_ascii_uppercase()
                && prev_lower
                && let Some(from) = start
            {
                emit(&value[from..at]);
                start = Some(at);
            }
            start.get_or_insert(at);
            prev_lower = b.is_ascii_lowercase() || b.is_ascii_digit();
        } else {
            if let Some(from) = start.take() {
                emit(&value[from..at]);
            }
            prev_lower = false;
        }
    }
    if let Some(from) = start {
        emit(&value[from..]);
    }
}

#[cfg(test)]
mod tests;
