//! An arena DOM built by html5ever's tree builder: nodes in one vector, addressed by index.
//!
//! Why an arena: the block builder and the extractors walk the tree many times; indices are cheap to
//! copy and store (blocks keep the [`NodeId`] of their element), the whole page is freed at once, and
//! dropping it can never recurse. Nothing in this module recurses: every walk is iterative over the
//! parent/sibling links, so a page with 100,000 nested tags cannot overflow the stack.
//!
//! Comments, doctypes and processing instructions are not kept. `<template>` contents are parsed
//! into a separate fragment that is not reachable from [`Dom::root`]: they are inert in a browser and
//! contribute no text. The bounds of [`crate::limits`] are enforced while parsing (depth, node count,
//! text size); [`Dom::limits_hit`] says whether any of them cut this document.

use std::borrow::Cow;
use std::cell::{Ref, RefCell};
use std::collections::{HashMap, HashSet};

use html5ever::TokenizerResult;
use html5ever::interface::tree_builder::{ElementFlags, NodeOrText, QuirksMode, TreeSink};
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{
    BufferQueue, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
};
use html5ever::tree_builder::{TreeBuilder, TreeBuilderOpts};
use html5ever::{Attribute, LocalName, Namespace, QualName, local_name, ns};

use crate::limits::{MAX_DEPTH, MAX_NODES, MAX_TEXT_NODE_BYTES};

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
}

impl Default for Dom {
    fn default() -> Dom {
        Dom {
            nodes: vec![Node::new(NodeData::Document)],
            limits_hit: LimitsHit::default(),
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
        let arena = guard.tree_builder.sink.arena.take();
        let mut limits_hit = arena.limits_hit;
        limits_hit.depth |= guard.open.borrow().dropped_any;
        Dom {
            nodes: arena.nodes,
            limits_hit,
        }
    }

    fn node(&self, id: NodeId) -> Option<&Node> {
        self.nodes.get(id as usize)
    }

    fn link(&self, id: NodeId, f: impl Fn(&Node) -> NodeId) -> Option<NodeId> {
        self.node(id).map(f).filter(|&l| l != NONE)
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

// ---------------------------------------------------------------------------------------------
// Tree sink: html5ever calls these to build the tree. It takes `&self`, hence the RefCell.

/// The DOM under construction.
#[derive(Debug)]
struct Arena {
    nodes: Vec<Node>,
    /// `<template>` element → the detached fragment holding its contents.
    template_contents: HashMap<NodeId, NodeId>,
    /// MathML `<annotation-xml>` elements whose encoding makes their content HTML.
    integration_points: HashSet<NodeId>,
    /// Returned by `elem_name` for a handle that is not an element (html5ever only asks about
    /// elements, but a wrong answer is better than a panic).
    placeholder_name: QualName,
    limits_hit: LimitsHit,
}

impl Default for Arena {
    fn default() -> Arena {
        Arena {
            nodes: vec![Node::new(NodeData::Document)],
            template_contents: HashMap::new(),
            integration_points: HashSet::new(),
            placeholder_name: QualName::new(None, ns!(html), local_name!("span")),
            limits_hit: LimitsHit::default(),
        }
    }
}

impl Arena {
    fn push(&mut self, data: NodeData) -> NodeId {
        // Node ids fit in u32: the node count is bounded by MAX_NODES plus one token's worth.
        let id = self.nodes.len() as NodeId;
        self.nodes.push(Node::new(data));
        id
    }

    fn get(&self, id: NodeId) -> Option<&Node> {
        self.nodes.get(id as usize)
    }

    fn get_mut(&mut self, id: NodeId) -> Option<&mut Node> {
        self.nodes.get_mut(id as usize)
    }

    /// Unlinks `id` from its parent and siblings.
    fn detach(&mut self, id: NodeId) {
        let Some(node) = self.get_mut(id) else { return };
        let (parent, prev, next) = (node.parent, node.prev_sibling, node.next_sibling);
        node.parent = NONE;
        node.prev_sibling = NONE;
        node.next_sibling = NONE;
        match self.get_mut(prev) {
            Some(p) => p.next_sibling = next,
            None => {
                if let Some(p) = self.get_mut(parent) {
                    p.first_child = next;
                }
            }
        }
        match self.get_mut(next) {
            Some(n) => n.prev_sibling = prev,
            None => {
                if let Some(p) = self.get_mut(parent) {
                    p.last_child = prev;
                }
            }
        }
    }

    /// Where a new child of `parent` goes so that nesting stays within [`MAX_DEPTH`]: `parent`
    /// itself, or its ancestor just above the cap.
    fn capped_parent(&mut self, parent: NodeId) -> NodeId {
        let mut p = parent;
        while let Some(node) = self.get(p) {
            if node.depth < MAX_DEPTH || node.parent == NONE {
                break;
            }
            p = node.parent;
        }
        if p != parent {
            self.limits_hit.depth = true;
        }
        p
    }

    /// Appends the existing node `child` as the last child of `parent`.
    fn append_node(&mut self, parent: NodeId, child: NodeId) {
        if parent == child || self.get(parent).is_none() || self.get(child).is_none() {
            return;
        }
        self.detach(child);
        let parent = self.capped_parent(parent);
        let (last, depth) = match self.get(parent) {
            Some(p) => (p.last_child, p.depth + 1),
            None => return,
        };
        if let Some(c) = self.get_mut(child) {
            c.parent = parent;
            c.prev_sibling = last;
            c.depth = depth;
        }
        match self.get_mut(last) {
            Some(l) => l.next_sibling = child,
            None => {
                if let Some(p) = self.get_mut(parent) {
                    p.first_child = child;
                }
            }
        }
        if let Some(p) = self.get_mut(parent) {
            p.last_child = child;
        }
    }

    /// Inserts the existing node `child` just before `sibling`.
    fn insert_before(&mut self, sibling: NodeId, child: NodeId) {
        let Some((parent, prev, depth)) = self
            .get(sibling)
            .map(|s| (s.parent, s.prev_sibling, s.depth))
        else {
            return;
        };
        if parent == NONE || child == sibling || self.get(child).is_none() {
            return;
        }
        self.detach(child);
        // `detach` may have changed `sibling`'s previous sibling (when `child` was it).
        let prev = if prev == child {
            self.get(sibling).map_or(NONE, |s| s.prev_sibling)
        } else {
            prev
        };
        if let Some(c) = self.get_mut(child) {
            c.parent = parent;
            c.prev_sibling = prev;
            c.next_sibling = sibling;
            c.depth = depth;
        }
        if let Some(s) = self.get_mut(sibling) {
            s.prev_sibling = child;
        }
        match self.get_mut(prev) {
            Some(p) => p.next_sibling = child,
            None => {
                if let Some(p) = self.get_mut(parent) {
                    p.first_child = child;
                }
            }
        }
    }

    /// Appends text to text node `id`, within [`MAX_TEXT_NODE_BYTES`]. Returns false when `id`
    /// is not a text node.
    fn append_to_text(&mut self, id: NodeId, text: &str) -> bool {
        let Some(Node {
            data: NodeData::Text(existing),
            ..
        }) = self.nodes.get_mut(id as usize)
        else {
            return false;
        };
        let room = MAX_TEXT_NODE_BYTES.saturating_sub(existing.len());
        let kept = truncate_at_char_boundary(text, room);
        existing.push_str(kept);
        if kept.len() < text.len() {
            self.limits_hit.text = true;
        }
        true
    }

    fn new_text(&mut self, text: &str) -> NodeId {
        let kept = truncate_at_char_boundary(text, MAX_TEXT_NODE_BYTES);
        if kept.len() < text.len() {
            self.limits_hit.text = true;
        }
        self.push(NodeData::Text(kept.to_owned()))
    }
}

/// The longest prefix of `s` of at most `max` bytes that ends at a char boundary.
fn truncate_at_char_boundary(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// html5ever's view of the arena.
#[derive(Debug, Default)]
struct Sink {
    arena: RefCell<Arena>,
}

/// Handle for comments, doctypes and processing instructions: they are not kept, and appending
/// this handle does nothing.
const DROPPED: NodeId = NONE - 1;

impl TreeSink for Sink {
    type Handle = NodeId;
    type Output = ();
    type ElemName<'a> = Ref<'a, QualName>;

    fn finish(self) {}

    fn parse_error(&self, _msg: Cow<'static, str>) {}

    fn get_document(&self) -> NodeId {
        0
    }

    fn elem_name<'a>(&'a self, target: &'a NodeId) -> Ref<'a, QualName> {
        Ref::map(self.arena.borrow(), |a| match a.get(*target) {
            Some(Node {
                data: NodeData::Element(e),
                ..
            }) => &e.name,
            _ => &a.placeholder_name,
        })
    }

    fn create_element(&self, name: QualName, attrs: Vec<Attribute>, flags: ElementFlags) -> NodeId {
        let attrs = attrs
            .into_iter()
            .map(|a| (a.name.local, String::from(a.value)))
            .collect();
        let mut arena = self.arena.borrow_mut();
        let id = arena.push(NodeData::Element(ElementData { name, attrs }));
        if flags.template {
            let contents = arena.push(NodeData::Document);
            arena.template_contents.insert(id, contents);
        }
        if flags.mathml_annotation_xml_integration_point {
            arena.integration_points.insert(id);
        }
        id
    }

    fn create_comment(&self, _text: StrTendril) -> NodeId {
        DROPPED
    }

    fn create_pi(&self, _target: StrTendril, _data: StrTendril) -> NodeId {
        DROPPED
    }

    fn append(&self, parent: &NodeId, child: NodeOrText<NodeId>) {
        let mut arena = self.arena.borrow_mut();
        match child {
            NodeOrText::AppendNode(node) => arena.append_node(*parent, node),
            NodeOrText::AppendText(text) => {
                let parent = arena.capped_parent(*parent);
                let last = arena.get(parent).map_or(NONE, |p| p.last_child);
                if !arena.append_to_text(last, &text) {
                    let node = arena.new_text(&text);
                    arena.append_node(parent, node);
                }
            }
        }
    }

    fn append_based_on_parent_node(
        &self,
        element: &NodeId,
        prev_element: &NodeId,
        child: NodeOrText<NodeId>,
    ) {
        let has_parent = self
            .arena
            .borrow()
            .get(*element)
            .is_some_and(|e| e.parent != NONE);
        if has_parent {
            self.append_before_sibling(element, child);
        } else {
            self.append(prev_element, child);
        }
    }

    fn append_doctype_to_document(&self, _: StrTendril, _: StrTendril, _: StrTendril) {}

    fn get_template_contents(&self, target: &NodeId) -> NodeId {
        let mut arena = self.arena.borrow_mut();
        if let Some(&contents) = arena.template_contents.get(target) {
            return contents;
        }
        // html5ever only asks for elements it created as templates; answer anyway with a fresh
        // detached fragment rather than panicking.
        let contents = arena.push(NodeData::Document);
        arena.template_contents.insert(*target, contents);
        contents
    }

    fn is_mathml_annotation_xml_integration_point(&self, handle: &NodeId) -> bool {
        self.arena.borrow().integration_points.contains(handle)
    }

    fn same_node(&self, x: &NodeId, y: &NodeId) -> bool {
        x == y
    }

    fn set_quirks_mode(&self, _mode: QuirksMode) {}

    fn append_before_sibling(&self, sibling: &NodeId, new_node: NodeOrText<NodeId>) {
        let mut arena = self.arena.borrow_mut();
        match new_node {
            NodeOrText::AppendNode(node) => arena.insert_before(*sibling, node),
            NodeOrText::AppendText(text) => {
                let prev = arena.get(*sibling).map_or(NONE, |s| s.prev_sibling);
                if !arena.append_to_text(prev, &text) {
                    let node = arena.new_text(&text);
                    arena.insert_before(*sibling, node);
                }
            }
        }
    }

    fn add_attrs_if_missing(&self, target: &NodeId, attrs: Vec<Attribute>) {
        let mut arena = self.arena.borrow_mut();
        if let Some(Node {
            data: NodeData::Element(e),
            ..
        }) = arena.nodes.get_mut(*target as usize)
        {
            for a in attrs {
                if !e.attrs.iter().any(|(n, _)| *n == a.name.local) {
                    e.attrs.push((a.name.local, String::from(a.value)));
                }
            }
        }
    }

    fn remove_from_parent(&self, target: &NodeId) {
        self.arena.borrow_mut().detach(*target);
    }

    fn reparent_children(&self, node: &NodeId, new_parent: &NodeId) {
        let mut arena = self.arena.borrow_mut();
        let mut child = arena.get(*node).map_or(NONE, |n| n.first_child);
        while child != NONE {
            let next = arena.get(child).map_or(NONE, |c| c.next_sibling);
            arena.append_node(*new_parent, child);
            child = next;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Guard between tokenizer and tree builder: enforces MAX_DEPTH and MAX_NODES on the token stream.

/// Forwards tokens to the tree builder, dropping those that would nest elements deeper than
/// [`MAX_DEPTH`] and everything once the DOM holds [`MAX_NODES`] nodes.
struct Guard {
    tree_builder: TreeBuilder<NodeId, Sink>,
    open: RefCell<OpenTags>,
}

impl TokenSink for Guard {
    type Handle = NodeId;

    fn process_token(&self, token: Token, line_number: u64) -> TokenSinkResult<NodeId> {
        if !matches!(token, Token::EOFToken) {
            let full = {
                let mut arena = self.tree_builder.sink.arena.borrow_mut();
                let full = arena.nodes.len() >= MAX_NODES;
                arena.limits_hit.nodes |= full;
                full
            };
            if full {
                return TokenSinkResult::Continue;
            }
        }
        if let Token::TagToken(tag) = &token
            && !self
                .open
                .borrow_mut()
                .admit(tag.kind, &tag.name, tag.self_closing)
        {
            return TokenSinkResult::Continue;
        }
        self.tree_builder.process_token(token, line_number)
    }

    fn end(&self) {
        self.tree_builder.end();
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
        self.tree_builder
            .adjusted_current_node_present_but_not_in_html_namespace()
    }
}

/// A cheap model of the tree builder's stack of open elements, good enough to see pathological
/// nesting coming: start tags push, end tags pop to their match, and the common implied end tags
/// (`<p>`, `<li>`, `<dt>`/`<dd>`, table parts, `<option>`, `<a>`) close what the parser would
/// close. It may differ from the real stack on misnested markup; it only decides when start tags
/// are dropped, which on real pages (nesting below 100) never happens.
#[derive(Debug, Default)]
struct OpenTags {
    stack: Vec<LocalName>,
    /// Names of dropped start tags and how many of each, so that their end tags go too.
    dropped: Vec<(LocalName, u32)>,
    dropped_any: bool,
    /// Open `<svg>`/`<math>` elements: inside them `<x/>` really is self-closing.
    foreign: u32,
    /// How many elements of each [`closable_slot`] are open, so that the implied-end-tag search is
    /// skipped when there is nothing to close (it would scan the whole stack on deep pages).
    closable: [u32; CLOSABLE_SLOTS],
}

impl OpenTags {
    /// Updates the model with one tag and says whether the tree builder should see it.
    fn admit(&mut self, kind: TagKind, name: &LocalName, self_closing: bool) -> bool {
        match kind {
            TagKind::StartTag => self.start(name, self_closing),
            TagKind::EndTag => self.end(name),
        }
    }

    fn start(&mut self, name: &LocalName, self_closing: bool) -> bool {
        if matches!(
            *name,
            local_name!("html") | local_name!("head") | local_name!("body")
        ) {
            return true;
        }
        if self.foreign > 0 {
            if breaks_out_of_foreign_content(name) {
                if let Some(i) = self
                    .stack
                    .iter()
                    .position(|n| matches!(*n, local_name!("svg") | local_name!("math")))
                {
                    self.truncate(i);
                }
            } else if self_closing {
                return true;
            }
        }
        if self.foreign == 0 {
            self.implied_end_tags(name);
        }
        if is_void(name) {
            return true;
        }
        // Raw text elements hold only text, so they cannot deepen the tree further.
        if self.stack.len() + 1 >= MAX_DEPTH as usize && !is_raw_text(name) {
            match self.dropped.iter_mut().find(|(n, _)| n == name) {
                Some((_, count)) => *count += 1,
                None => self.dropped.push((name.clone(), 1)),
            }
            self.dropped_any = true;
            return false;
        }
        if matches!(*name, local_name!("svg") | local_name!("math")) {
            self.foreign += 1;
        }
        if let Some(slot) = closable_slot(name) {
            self.closable[slot] += 1;
        }
        self.stack.push(name.clone());
        true
    }

    fn end(&mut self, name: &LocalName) -> bool {
        if let Some(i) = self.dropped.iter().position(|(n, _)| n == name) {
            self.dropped[i].1 -= 1;
            if self.dropped[i].1 == 0 {
                self.dropped.swap_remove(i);
            }
            return false;
        }
        if let Some(i) = self.stack.iter().rposition(|n| n == name) {
            self.truncate(i);
        }
        true
    }

    /// Pops the stack down to `len` entries.
    fn truncate(&mut self, len: usize) {
        for n in self.stack.drain(len..) {
            if matches!(n, local_name!("svg") | local_name!("math")) {
                self.foreign = self.foreign.saturating_sub(1);
            }
            if let Some(slot) = closable_slot(&n) {
                self.closable[slot] = self.closable[slot].saturating_sub(1);
            }
        }
    }

    /// Index of the nearest open element matching `target`, looking no further down than an
    /// element matching `stop`.
    fn find_open(
        &self,
        target: impl Fn(&LocalName) -> bool,
        stop: impl Fn(&LocalName) -> bool,
    ) -> Option<usize> {
        for (i, n) in self.stack.iter().enumerate().rev() {
            if target(n) {
                return Some(i);
            }
            if stop(n) || is_scope_boundary(n) {
                return None;
            }
        }
        None
    }

    /// Closes the nearest open element in `slot` that `target` accepts, unless an element that
    /// `stop` accepts (or a scope boundary) comes first.
    fn close(
        &mut self,
        slot: usize,
        target: impl Fn(&LocalName) -> bool,
        stop: impl Fn(&LocalName) -> bool,
    ) {
        if self.closable[slot] == 0 {
            return;
        }
        if let Some(i) = self.find_open(target, stop) {
            self.truncate(i);
        }
    }

    fn implied_end_tags(&mut self, name: &LocalName) {
        let never = |_: &LocalName| false;
        if closes_p(name) {
            self.close(SLOT_P, |n| *n == local_name!("p"), never);
        }
        let Some(slot) = closable_slot(name) else {
            if is_heading(name) && self.stack.last().is_some_and(is_heading) {
                self.truncate(self.stack.len() - 1);
            }
            return;
        };
        let same_slot = |n: &LocalName| closable_slot(n) == Some(slot);
        match slot {
            SLOT_LI => self.close(slot, same_slot, |n| {
                matches!(*n, local_name!("ul") | local_name!("ol"))
            }),
            SLOT_DT_DD => self.close(slot, same_slot, |n| *n == local_name!("dl")),
            SLOT_OPTION => {
                // Only the current node is closed: `<option>` ends an `<option>`, `<optgroup>`
                // ends an `<option>` and then an `<optgroup>`.
                self.close(slot, |n| *n == local_name!("option"), |_| true);
                if *name == local_name!("optgroup") {
                    self.close(slot, |n| *n == local_name!("optgroup"), |_| true);
                }
            }
            SLOT_TR => self.close(slot, same_slot, |n| *n == local_name!("table")),
            SLOT_CELL => self.close(slot, same_slot, |n| {
                matches!(*n, local_name!("tr") | local_name!("table"))
            }),
            SLOT_TABLE_SECTION => self.close(slot, same_slot, |n| *n == local_name!("table")),
            SLOT_A | SLOT_NOBR | SLOT_BUTTON => self.close(slot, same_slot, never),
            _ => {}
        }
    }
}

const SLOT_P: usize = 0;
const SLOT_LI: usize = 1;
const SLOT_DT_DD: usize = 2;
const SLOT_OPTION: usize = 3;
const SLOT_TR: usize = 4;
const SLOT_CELL: usize = 5;
const SLOT_TABLE_SECTION: usize = 6;
const SLOT_A: usize = 7;
const SLOT_NOBR: usize = 8;
const SLOT_BUTTON: usize = 9;
const CLOSABLE_SLOTS: usize = 10;

/// The elements a later start tag may implicitly close, grouped by what closes them.
fn closable_slot(n: &LocalName) -> Option<usize> {
    Some(match *n {
        local_name!("p") => SLOT_P,
        local_name!("li") => SLOT_LI,
        local_name!("dt") | local_name!("dd") => SLOT_DT_DD,
        local_name!("option") | local_name!("optgroup") => SLOT_OPTION,
        local_name!("tr") => SLOT_TR,
        local_name!("td") | local_name!("th") => SLOT_CELL,
        local_name!("thead") | local_name!("tbody") | local_name!("tfoot") => SLOT_TABLE_SECTION,
        local_name!("a") => SLOT_A,
        local_name!("nobr") => SLOT_NOBR,
        local_name!("button") => SLOT_BUTTON,
        _ => return None,
    })
}

fn is_heading(n: &LocalName) -> bool {
    matches!(
        *n,
        local_name!("h1")
            | local_name!("h2")
            | local_name!("h3")
            | local_name!("h4")
            | local_name!("h5")
            | local_name!("h6")
    )
}

/// Elements that never have contents (the tree builder does not push them).
fn is_void(n: &LocalName) -> bool {
    matches!(
        *n,
        local_name!("area")
            | local_name!("base")
            | local_name!("basefont")
            | local_name!("bgsound")
            | local_name!("br")
            | local_name!("col")
            | local_name!("embed")
            | local_name!("frame")
            | local_name!("hr")
            | local_name!("image")
            | local_name!("img")
            | local_name!("input")
            | local_name!("keygen")
            | local_name!("link")
            | local_name!("meta")
            | local_name!("param")
            | local_name!("source")
            | local_name!("track")
            | local_name!("wbr")
    )
}

/// Elements whose contents the tokenizer reads as text.
fn is_raw_text(n: &LocalName) -> bool {
    matches!(
        *n,
        local_name!("script")
            | local_name!("style")
            | local_name!("textarea")
            | local_name!("title")
            | local_name!("xmp")
            | local_name!("iframe")
            | local_name!("noembed")
            | local_name!("noframes")
            | local_name!("noscript")
            | local_name!("plaintext")
    )
}

/// Elements that limit the search for an open element to close (the standard's "scope").
fn is_scope_boundary(n: &LocalName) -> bool {
    matches!(
        *n,
        local_name!("table")
            | local_name!("td")
            | local_name!("th")
            | local_name!("caption")
            | local_name!("html")
            | local_name!("template")
            | local_name!("object")
            | local_name!("applet")
            | local_name!("marquee")
            | local_name!("button")
    )
}

/// Start tags that close an open `<p>` (the standard's "in body" insertion mode).
fn closes_p(n: &LocalName) -> bool {
    is_heading(n)
        || matches!(
            *n,
            local_name!("address")
                | local_name!("article")
                | local_name!("aside")
                | local_name!("blockquote")
                | local_name!("center")
                | local_name!("details")
                | local_name!("dialog")
                | local_name!("dir")
                | local_name!("div")
                | local_name!("dl")
                | local_name!("dd")
                | local_name!("dt")
                | local_name!("fieldset")
                | local_name!("figcaption")
                | local_name!("figure")
                | local_name!("footer")
                | local_name!("form")
                | local_name!("header")
                | local_name!("hgroup")
                | local_name!("hr")
                | local_name!("li")
                | local_name!("listing")
                | local_name!("main")
                | local_name!("menu")
                | local_name!("nav")
                | local_name!("ol")
                | local_name!("p")
                | local_name!("plaintext")
                | local_name!("pre")
                | local_name!("section")
                | local_name!("summary")
                | local_name!("table")
                | local_name!("ul")
                | local_name!("xmp")
        )
}

/// HTML start tags that end `<svg>`/`<math>` content.
fn breaks_out_of_foreign_content(n: &LocalName) -> bool {
    is_heading(n)
        || matches!(
            *n,
            local_name!("b")
                | local_name!("big")
                | local_name!("blockquote")
                | local_name!("body")
                | local_name!("br")
                | local_name!("center")
                | local_name!("code")
                | local_name!("dd")
                | local_name!("div")
                | local_name!("dl")
                | local_name!("dt")
                | local_name!("em")
                | local_name!("embed")
                | local_name!("head")
                | local_name!("hr")
                | local_name!("i")
                | local_name!("img")
                | local_name!("li")
                | local_name!("listing")
                | local_name!("menu")
                | local_name!("meta")
                | local_name!("nobr")
                | local_name!("ol")
                | local_name!("p")
                | local_name!("pre")
                | local_name!("ruby")
                | local_name!("s")
                | local_name!("small")
                | local_name!("span")
                | local_name!("strong")
                | local_name!("strike")
                | local_name!("sub")
                | local_name!("sup")
                | local_name!("table")
                | local_name!("tt")
                | local_name!("u")
                | local_name!("ul")
                | local_name!("var")
        )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    fn names(dom: &Dom, ids: impl Iterator<Item = NodeId>) -> Vec<String> {
        ids.map(|id| match dom.data(id) {
            Some(NodeData::Element(e)) => e.name.local.to_string(),
            Some(NodeData::Text(t)) => format!("#{t}"),
            Some(NodeData::Document) => "#document".into(),
            None => "?".into(),
        })
        .collect()
    }

    #[test]
    fn builds_a_tree() {
        let dom = Dom::parse(
            "<!DOCTYPE html><title>T</title><!-- gone --><p class=a id=x>Hello &amp; <b>bold</b>",
        );
        assert_eq!(
            names(&dom, dom.descendants(dom.root())),
            [
                "html",
                "head",
                "title",
                "#T",
                "body",
                "p",
                "#Hello & ",
                "b",
                "#bold"
            ]
        );
        let p = dom.first_element_by_name("p").unwrap();
        assert_eq!(dom.attr(p, "class"), Some("a"));
        assert_eq!(dom.attr(p, "id"), Some("x"));
        assert_eq!(dom.attr(p, "style"), None);
        assert_eq!(dom.element_name(p), Some("p"));
        assert!(dom.is_html(p, &local_name!("p")));
        assert_eq!(dom.namespace(p), Some(&ns!(html)));
        assert_eq!(names(&dom, dom.children(p)), ["#Hello & ", "b"]);
        assert_eq!(names(&dom, dom.ancestors(p)), ["body", "html", "#document"]);
        assert_eq!(dom.parent(dom.root()), None);
        assert_eq!(dom.text_content(p), "Hello & bold");
        let b = dom.first_element_by_name("b").unwrap();
        assert_eq!(
            dom.prev_sibling(b).and_then(|t| dom.text(t)),
            Some("Hello & ")
        );
        assert_eq!(dom.next_sibling(b), None);
        assert_eq!(dom.depth(b), 4);
        assert!(dom.is_element(b) && !dom.is_text(b));
        assert_eq!(dom.limits_hit(), LimitsHit::default());
        // Unknown ids are answered, not panicked on.
        assert_eq!(dom.parent(NodeId::MAX), None);
        assert_eq!(dom.element_name(NodeId::MAX), None);
        assert_eq!(dom.children(NodeId::MAX).count(), 0);
        assert_eq!(dom.descendants(NodeId::MAX).count(), 0);
    }

    #[test]
    fn traverse_opens_and_closes() {
        let dom = Dom::parse("<body><div><p>a</p><script>x</script></div><i>b</i>");
        let body = dom.first_element_by_name("body").unwrap();
        let mut walk = dom.traverse(body);
        let mut seen = Vec::new();
        while let Some(edge) = walk.next() {
            match edge {
                Edge::Open(id) => {
                    seen.push(format!("<{}", names(&dom, std::iter::once(id))[0]));
                    if dom.element_name(id) == Some("script") {
                        walk.skip_children();
                    }
                }
                Edge::Close(id) => seen.push(format!("{}>", names(&dom, std::iter::once(id))[0])),
            }
        }
        assert_eq!(
            seen.join(" "),
            "<body <div <p <#a #a> p> <script script> div> <i <#b #b> i> body>"
        );
    }

    #[test]
    fn adjacent_text_merges_and_misnesting_is_repaired() {
        let dom = Dom::parse("<p>a<!-- c -->b</p><b>1<p>2</b>3</p>");
        let body = dom.first_element_by_name("body").unwrap();
        let p = dom.first_child(body).unwrap();
        assert_eq!(names(&dom, dom.children(p)), ["#ab"]);
        // The adoption agency: <b>1<p>2</b>3</p> → <b>1</b><p><b>2</b>3</p>.
        assert_eq!(
            names(&dom, dom.descendants(body)),
            ["p", "#ab", "b", "#1", "p", "b", "#2", "#3"]
        );
    }

    #[test]
    fn parsing_continues_after_meta_charset_and_across_chunks() {
        // html5ever pauses at a `<meta charset>`; the rest of the page must still be parsed.
        let dom = Dom::parse("<head><meta charset=utf-8></head><body><p>after meta</p>");
        assert_eq!(dom.text_content(dom.root()), "after meta");
        // Text spanning the parser's input chunks arrives whole, multi-byte chars intact.
        let long = "ж".repeat(INPUT_CHUNK_BYTES);
        let dom = Dom::parse(&format!("<p>a{long}b</p>"));
        let p = dom.first_element_by_name("p").unwrap();
        assert_eq!(dom.children(p).count(), 1);
        assert_eq!(dom.text_content(p), format!("a{long}b"));
        assert_eq!(chunk_end("жж", 3), 2);
        assert_eq!(chunk_end("жж", 1), 2);
        assert_eq!(chunk_end("", 1), 0);
    }

    #[test]
    fn template_contents_are_not_in_the_tree() {
        let dom = Dom::parse("<body><template><p>hidden</p></template><p>shown</p>");
        let all: String = dom
            .descendants(dom.root())
            .filter_map(|id| dom.text(id))
            .collect();
        assert_eq!(all, "shown");
        assert_eq!(dom.elements_by_name("p").count(), 1);
    }

    #[test]
    fn foreign_content_keeps_its_namespace() {
        let dom = Dom::parse("<body><svg><g><text>t</text></g></svg><math><mi>x</mi></math>");
        let svg = dom.first_element_by_name("svg").unwrap();
        assert_eq!(dom.namespace(svg), Some(&ns!(svg)));
        assert!(!dom.is_html(svg, &local_name!("svg")));
        let mi = dom.first_element_by_name("mi").unwrap();
        assert_eq!(dom.namespace(mi), Some(&ns!(mathml)));
        // HTML inside an HTML annotation of MathML is HTML again.
        let dom = Dom::parse(
            "<math><annotation-xml encoding='text/html'><section>x</section></annotation-xml></math>",
        );
        let section = dom.first_element_by_name("section").unwrap();
        assert_eq!(dom.namespace(section), Some(&ns!(html)));
    }

    #[test]
    fn empty_input() {
        let dom = Dom::parse("");
        assert_eq!(
            names(&dom, dom.descendants(dom.root())),
            ["html", "head", "body"]
        );
        assert!(!dom.is_empty());
        assert!(Dom::default().is_empty());
    }

    /// Parses `html`, prints the time, and checks that nesting stayed within the cap.
    fn parse_timed(what: &str, html: &str) -> Dom {
        let start = Instant::now();
        let dom = Dom::parse(html);
        let elapsed = start.elapsed();
        let max_depth = (0..dom.len() as NodeId).map(|id| dom.depth(id)).max();
        println!(
            "{what}: {} bytes parsed in {elapsed:?}, {} nodes, max depth {max_depth:?}, {:?}",
            html.len(),
            dom.len(),
            dom.limits_hit()
        );
        assert!(max_depth.unwrap_or(0) <= MAX_DEPTH);
        dom
    }

    #[test]
    fn deep_div_nesting_is_bounded() {
        let n = 100_000;
        let html = format!("{}deep text{}", "<div>".repeat(n), "</div>".repeat(n));
        let dom = parse_timed("100,000 nested <div>", &html);
        assert!(dom.limits_hit().depth);
        assert!(dom.len() < 1000);
        let text = dom.descendants(dom.root()).find_map(|id| dom.text(id));
        assert_eq!(text, Some("deep text"));
        // Walking and dropping it must not recurse either.
        assert_eq!(dom.descendants(dom.root()).count(), dom.len() - 1);
        drop(dom);
    }

    #[test]
    fn deep_formatting_nesting_is_bounded() {
        let n = 100_000;
        let html = format!("{}x{}", "<b>".repeat(n), "</b>".repeat(n));
        let dom = parse_timed("100,000 nested <b>", &html);
        assert!(dom.len() < 1000);
        // Distinct attributes defeat the parser's limit of three identical formatting elements:
        // without the depth cap this input takes minutes (quadratic "Noah's Ark" checks).
        let html: String = (0..n).map(|i| format!("<b id={i}>")).collect();
        let dom = parse_timed("100,000 nested <b id=…>", &html);
        assert!(dom.len() < 1000);
        let html = format!("<svg>{}", "<g>".repeat(n));
        parse_timed("100,000 nested svg <g>", &html);
        let html = "<table><tr><td>".repeat(n / 3);
        parse_timed("33,000 nested tables", &html);
    }

    #[test]
    fn reconstruction_blowup_is_bounded_by_the_node_cap() {
        // Each <p> reconstructs every earlier unclosed <b>: quadratic elements without a cap.
        let html: String = (0..3000)
            .map(|i| format!("<p><b id={i}>x</p>"))
            .chain(std::iter::repeat_n("<p>y</p>".to_owned(), 3000))
            .collect();
        let dom = parse_timed("3,000 misnested <b> reconstructed", &html);
        assert!(dom.limits_hit().nodes);
        assert!(dom.len() <= MAX_NODES + 10_000);
    }

    #[test]
    fn long_text_is_capped() {
        let html = format!("<p>{}</p>", "é".repeat(MAX_TEXT_NODE_BYTES));
        let dom = Dom::parse(&html);
        let text = dom
            .descendants(dom.root())
            .find_map(|id| dom.text(id))
            .unwrap();
        assert!(text.len() <= MAX_TEXT_NODE_BYTES);
        assert!(text.len() > MAX_TEXT_NODE_BYTES - 4);
        assert!(dom.limits_hit().text);
    }

    #[test]
    fn random_bytes_parse() {
        let mut state: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        // Markup-heavy alphabet, so that tags, attributes and misnesting actually occur.
        let alphabet = b"<<>>/=\"' abpditrlmsvg!-&;#x\n\0\xc3\xa9\xff";
        for len in [0, 1, 10, 1000, 20_000] {
            for _ in 0..10 {
                let bytes: Vec<u8> = (0..len)
                    .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                    .collect();
                let html = String::from_utf8_lossy(&bytes);
                let dom = Dom::parse(&html);
                assert!(dom.descendants(dom.root()).count() < dom.len());
            }
        }
    }

    #[test]
    fn fifty_megabyte_page() {
        let paragraph = "<p class=\"story\">A sentence of an article with a <a href=\"/x\">link</a> \
                         and some <b>bold</b> words, repeated to make a very large page.</p>\n";
        let mut html = String::from("<html><head><title>Big</title></head><body><div id=main>");
        while html.len() < 50 * 1024 * 1024 {
            html.push_str(paragraph);
        }
        let dom = parse_timed("50 MB page", &html);
        assert!(dom.len() > 1_000_000);
    }
}
