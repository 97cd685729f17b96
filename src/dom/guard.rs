//! The guard between tokenizer and tree builder: enforces [`MAX_DEPTH`] and [`MAX_NODES`] on the
//! token stream, before the tree builder sees it, with a cheap model of the open elements.

use std::cell::RefCell;

use html5ever::tokenizer::{TagKind, Token, TokenSink, TokenSinkResult};
use html5ever::tree_builder::TreeBuilder;
use html5ever::{LocalName, local_name};

use super::sink::Sink;
use super::{NodeId, is_heading};
use crate::limits::{MAX_DEPTH, MAX_NODES};

/// Forwards tokens to the tree builder, dropping those that would nest elements deeper than
/// [`MAX_DEPTH`] and everything once the DOM holds [`MAX_NODES`] nodes.
pub(super) struct Guard {
    pub(super) tree_builder: TreeBuilder<NodeId, Sink>,
    pub(super) open: RefCell<OpenTags>,
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
pub(super) struct OpenTags {
    stack: Vec<LocalName>,
    /// Names of dropped start tags and how many of each, so that their end tags go too.
    dropped: Vec<(LocalName, u32)>,
    pub(super) dropped_any: bool,
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
pub(crate) fn is_raw_text(n: &LocalName) -> bool {
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
