//! The tree sink: html5ever's tree builder calls it to build the arena. It takes `&self`, hence
//! the `RefCell`. Comments, doctypes and processing instructions are dropped here, text nodes are
//! capped, `<template>` contents go to a fragment of their own, and a declarative shadow root's
//! into its host (through a box dissolved once the page is parsed).

use std::borrow::Cow;
use std::cell::{Ref, RefCell};
use std::collections::{HashMap, HashSet};

use html5ever::interface::tree_builder::{ElementFlags, NodeOrText, QuirksMode, TreeSink};
use html5ever::tendril::StrTendril;
use html5ever::{Attribute, QualName, local_name, ns};

use super::{ElementData, LimitsHit, NONE, Node, NodeData, NodeId, is_heading};
use crate::limits::{MAX_DEPTH, MAX_TEXT_NODE_BYTES};

/// The DOM under construction.
#[derive(Debug)]
pub(super) struct Arena {
    pub(super) nodes: Vec<Node>,
    /// `<template>` element → the detached fragment holding its contents, or, for a declarative
    /// shadow root's template, the box its contents are parsed into inside the host (see
    /// [`Arena::settle_shadow_roots`]).
    template_contents: HashMap<NodeId, NodeId>,
    /// Elements a declarative shadow root was attached to: one each.
    shadow_hosts: HashSet<NodeId>,
    /// The boxes holding the declarative shadow roots' contents while parsing, in the order
    /// they were attached.
    shadow_roots: Vec<NodeId>,
    /// The `<style>` elements of declarative shadow roots, sorted: each styles its own
    /// component, not the page.
    pub(super) shadow_styles: Vec<NodeId>,
    /// MathML `<annotation-xml>` elements whose encoding makes their content HTML.
    integration_points: HashSet<NodeId>,
    /// Returned by `elem_name` for a handle that is not an element (html5ever only asks about
    /// elements, but a wrong answer is better than a panic).
    placeholder_name: QualName,
    pub(super) limits_hit: LimitsHit,
}

impl Default for Arena {
    fn default() -> Arena {
        Arena {
            nodes: vec![Node::new(NodeData::Document)],
            template_contents: HashMap::new(),
            shadow_hosts: HashSet::new(),
            shadow_roots: Vec::new(),
            shadow_styles: Vec::new(),
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

    /// True when element `id` may take a shadow root, as a browser's `attachShadow` allows: an
    /// autonomous custom element (a name with a hyphen) or one of the standard's few containers,
    /// in the HTML namespace, and none yet.
    fn can_host_shadow_root(&self, id: NodeId) -> bool {
        let Some(Node {
            data: NodeData::Element(e),
            ..
        }) = self.get(id)
        else {
            return false;
        };
        e.name.ns == ns!(html)
            && !self.shadow_hosts.contains(&id)
            && ((e.name.local.contains('-') && !is_reserved_custom_name(&e.name.local))
                || matches!(
                    e.name.local,
                    local_name!("article")
                        | local_name!("aside")
                        | local_name!("blockquote")
                        | local_name!("body")
                        | local_name!("div")
                        | local_name!("footer")
                        | local_name!("header")
                        | local_name!("main")
                        | local_name!("nav")
                        | local_name!("p")
                        | local_name!("section")
                        | local_name!("span")
                )
                || is_heading(&e.name.local))
    }

    /// Puts the declarative shadow roots' contents in their hosts' tree, where the boxes that
    /// held them while parsing stood (their own nodes: the host's children parsed before and
    /// after them stay apart, not merged into one text), and notes their `<style>` elements.
    /// Each box is walked once: a nested root's box is left to its own turn.
    pub(super) fn settle_shadow_roots(&mut self) {
        let roots = std::mem::take(&mut self.shadow_roots);
        let is_root: HashSet<NodeId> = roots.iter().copied().collect();
        let mut stack = Vec::new();
        for &root in &roots {
            self.push_children(root, &mut stack);
            while let Some(n) = stack.pop() {
                if is_root.contains(&n) {
                    continue;
                }
                if let Some(Node {
                    data: NodeData::Element(e),
                    ..
                }) = self.get(n)
                    && e.name.ns == ns!(html)
                    && e.name.local == local_name!("style")
                {
                    self.shadow_styles.push(n);
                }
                self.push_children(n, &mut stack);
            }
        }
        for &root in &roots {
            while let Some(child) = self.get(root).map(|r| r.first_child).filter(|&c| c != NONE) {
                self.insert_before(root, child);
            }
            self.detach(root);
        }
        self.shadow_styles.sort_unstable();
    }

    /// Pushes the children of `id` onto `stack`.
    fn push_children(&self, id: NodeId, stack: &mut Vec<NodeId>) {
        let mut child = self.get(id).map_or(NONE, |n| n.first_child);
        while let Some(c) = self.get(child) {
            stack.push(child);
            child = c.next_sibling;
        }
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

/// Hyphenated names the standard reserves, which are no custom elements and take no shadow
/// root (MathML's and SVG's).
fn is_reserved_custom_name(name: &str) -> bool {
    matches!(
        name,
        "annotation-xml"
            | "color-profile"
            | "font-face"
            | "font-face-src"
            | "font-face-uri"
            | "font-face-format"
            | "font-face-name"
            | "missing-glyph"
    )
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
pub(super) struct Sink {
    pub(super) arena: RefCell<Arena>,
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

    /// A declarative shadow root (`<template shadowrootmode="open">`, as servers render web
    /// components) is what a browser shows in its host's place: its contents are parsed into a
    /// box appended to the host, which [`Arena::settle_shadow_roots`] dissolves once the page is
    /// parsed. Refused, as a browser refuses it, where the host may take no shadow root or has
    /// one: the template then stays inert.
    fn attach_declarative_shadow(
        &self,
        location: &NodeId,
        template: &NodeId,
        _attrs: &[Attribute],
    ) -> bool {
        let mut arena = self.arena.borrow_mut();
        if !arena.can_host_shadow_root(*location) {
            return false;
        }
        arena.shadow_hosts.insert(*location);
        let name = QualName::new(None, ns!(html), local_name!("div"));
        let root = arena.push(NodeData::Element(ElementData {
            name,
            attrs: Vec::new(),
        }));
        arena.append_node(*location, root);
        arena.shadow_roots.push(root);
        arena.template_contents.insert(*template, root);
        true
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
