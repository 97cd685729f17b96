//! The block builder: one iterative walk over the DOM that cuts it into blocks (text between two
//! block-level tags, images apart), each with its text, kind, tag path, word and link-word counts
//! and hash; and the text rules it applies (white space, CJK words, invisible characters).

use html5ever::{LocalName, local_name, ns};
use url::Url;

use super::elements::*;
use super::images::*;
use super::styles::{SheetClasses, position_of};
use super::{Block, BlockKind, Declarations, ImageInfo, hash_image, hash_text};
use crate::dom::{Dom, Edge, NodeId, for_each_name_token, name_holds};
use crate::limits::{MAX_BLOCK_CHARS, MAX_BLOCKS, MAX_TAG_PATH_ELEMENTS};

/// What an open element does to the walk, remembered until its close edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// Splits blocks; has an entry on the block stack.
    Block,
    /// Continues the current block.
    Inline,
    /// Suppresses its text but is walked (`<head>`, for the title inside it).
    Suppress,
}

#[derive(Debug, Clone, Copy)]
struct Frame {
    role: Role,
    /// The element added a segment to the tag path (skipped elements do not).
    segment: bool,
    /// An `<a href>`: its words are link words.
    link: bool,
    /// A `<pre>`-like element: line breaks are kept.
    pre: bool,
}

/// An open block-level element.
#[derive(Debug, Clone, Copy)]
struct BlockContext {
    node: NodeId,
    kind: BlockKind,
    /// Length of the tag path string up to and including this element.
    path_len: usize,
    /// Number of elements in that path.
    path_elements: usize,
}

pub(super) struct BlockBuilder<'a> {
    dom: &'a Dom,
    base: Option<&'a Url>,
    title: String,
    blocks: Vec<Block>,
    frames: Vec<Frame>,
    contexts: Vec<BlockContext>,
    /// Tag path of the open elements, `html/body/div#main`.
    path: String,
    /// Where each open element's segment starts in `path`.
    path_starts: Vec<usize>,
    links: u32,
    pre: u32,
    suppress: u32,
    /// `<noscript>` contents are page text (the DOM was parsed without scripting).
    noscript_visible: bool,
    /// What the page's style sheets say of its classes: which they hide at a reader's width,
    /// which they fix to the viewport.
    sheet_classes: SheetClasses,
    /// The declarations met.
    declared: Declarations,
    /// The shown `<h1>`, `<main>` and `<article>` elements: what an overlay may not hold.
    title_boxes: Vec<NodeId>,
    // The block being gathered.
    text: String,
    chars: usize,
    pending_space: bool,
    words: u32,
    link_words: u32,
    in_token: bool,
    token_has_alnum: bool,
    token_in_link: bool,
    /// Where the current token's unspaced-script text is cut into words.
    token_unspaced: UnspacedRun,
    /// Consecutive `<br>`s with only white space since.
    br_run: u32,
}

impl<'a> BlockBuilder<'a> {
    /// Reads `<noscript>` contents as page text.
    pub(super) fn showing_noscript(mut self) -> Self {
        self.noscript_visible = true;
        self
    }

    pub(super) fn new(dom: &'a Dom, base: Option<&'a Url>) -> BlockBuilder<'a> {
        BlockBuilder {
            dom,
            base,
            title: String::new(),
            blocks: Vec::new(),
            frames: Vec::new(),
            contexts: Vec::new(),
            path: String::new(),
            path_starts: Vec::new(),
            links: 0,
            pre: 0,
            suppress: 0,
            noscript_visible: false,
            sheet_classes: SheetClasses::of(dom),
            declared: Declarations::default(),
            title_boxes: Vec::new(),
            text: String::new(),
            chars: 0,
            pending_space: false,
            words: 0,
            link_words: 0,
            in_token: false,
            token_has_alnum: false,
            token_in_link: false,
            token_unspaced: UnspacedRun::default(),
            br_run: 0,
        }
    }

    pub(super) fn run(mut self) -> (String, Vec<Block>, Declarations) {
        let dom = self.dom;
        let mut walk = dom.traverse(dom.root());
        while let Some(edge) = walk.next() {
            match edge {
                Edge::Open(id) => {
                    if let Some(text) = dom.text(id) {
                        if self.suppress == 0 {
                            self.push_text(text);
                        }
                    } else if dom.is_element(id) && !self.open_element(id) {
                        walk.skip_children();
                    }
                }
                Edge::Close(id) => {
                    if dom.is_element(id) {
                        self.close_element();
                    }
                }
            }
            if self.blocks.len() >= MAX_BLOCKS && !self.title.is_empty() {
                break;
            }
        }
        self.flush();
        self.blocks.truncate(MAX_BLOCKS);
        self.drop_overlays_holding_the_page();
        // Node ids follow the parser's creation order, which a misnested page may set apart
        // from document order.
        self.declared.overlays.sort_unstable();
        self.declared.dialogs.sort_unstable();

        (self.title, self.blocks, self.declared)
    }

    /// Notes a shown element the page lays over itself: fixed (see [`Declarations::overlays`]),
    /// its inline style fixes it or the strongest sheet rule among its classes does (the inline
    /// style wins over a sheet's rule, unless only the rule is `!important`); or a modal dialog
    /// (see [`Declarations::dialogs`]). Every such element is noted, one inside another too: an
    /// outer one may prove to be the page itself.
    fn note_overlay(&mut self, id: NodeId, name: &LocalName) {
        match *name {
            local_name!("html") | local_name!("head") | local_name!("body") => return,
            // What holds the page's title or marks its content is no overlay (see `run`).
            local_name!("h1") | local_name!("main") | local_name!("article") => {
                self.title_boxes.push(id);
            }
            _ => {}
        }
        let dom = self.dom;
        let inline = dom.attr(id, "style").and_then(position_of);
        let sheet = self.sheet_classes.position(dom, id);
        let fixed = match (inline, sheet) {
            (Some((_, false)), Some((fixed, true))) | (None, Some((fixed, _))) => fixed,
            (Some((fixed, _)), _) => fixed,
            (None, None) => false,
        };
        if fixed {
            self.declared.overlays.push(id);
        }
        // A modal dialog is laid over the page by what it says it is, wherever its sheet places
        // it. One that says it is not modal is a drawer or a sheet the page opens in place, as
        // a shop prints its product's details; one hidden from assistive technology is closed,
        // and its text is weighed as any box's.
        if is_shown_modal(dom, id, name) {
            self.declared.dialogs.push(id);
        }
    }

    /// Leaves out of the overlays and dialogs noted those that hold the page's `<h1>`, its
    /// `<main>` or an `<article>`: an app's root or an article's pane fixed so that it scrolls
    /// inside itself, or a story opened in a modal over its site's front, is the page, not laid
    /// over it. Each such box marks its ancestors once.
    fn drop_overlays_holding_the_page(&mut self) {
        if self.declared.overlays.is_empty() && self.declared.dialogs.is_empty()
            || self.title_boxes.is_empty()
        {
            return;
        }
        let dom = self.dom;
        let mut holds = vec![false; dom.len()];
        for &b in &self.title_boxes {
            for n in std::iter::once(b).chain(dom.ancestors(b)) {
                match holds.get_mut(n as usize) {
                    Some(seen) if !*seen => *seen = true,
                    // Marked from another box already, and its ancestors with it.
                    _ => break,
                }
            }
        }
        let holds_the_page = |o: &NodeId| holds.get(*o as usize).copied().unwrap_or(false);
        self.declared.overlays.retain(|o| !holds_the_page(o));
        self.declared.dialogs.retain(|o| !holds_the_page(o));
    }

    /// Notes an element in which the page declares what it is (read before any skipping, so
    /// that the head's `<meta>` counts).
    fn note_declaration(&mut self, id: NodeId, name: &LocalName) {
        let dom = self.dom;
        if *name == local_name!("noscript") {
            self.declared.noscripts.push(id);
        } else if *name == local_name!("script") {
            if dom
                .attr(id, "type")
                .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/ld+json"))
            {
                self.declared.json_ld.push(id);
            }
        } else if *name == local_name!("link") {
            if self.declared.canonical.is_none()
                && dom.attr(id, "rel").is_some_and(|rel| {
                    rel.split_ascii_whitespace()
                        .any(|r| r.eq_ignore_ascii_case("canonical"))
                })
                && dom.attr(id, "href").is_some_and(is_web_url)
            {
                self.declared.canonical = Some(id);
            }
        } else if *name == local_name!("meta") {
            let property = dom
                .attr(id, "property")
                .or_else(|| dom.attr(id, "name"))
                .map(str::trim);
            if self.declared.canonical.is_none()
                && property == Some("og:url")
                && dom.attr(id, "content").is_some_and(is_web_url)
            {
                self.declared.canonical = Some(id);
            }
            if self.declared.og_type.is_none() && property == Some("og:type") {
                self.declared.og_type = Some(id);
            }
            if dom
                .attr(id, "name")
                .is_some_and(|n| n.trim().eq_ignore_ascii_case("author"))
            {
                self.declared.author_metas.push(id);
            }
        } else if dom.attr(id, "itemtype").is_some() {
            self.declared.microdata.push(id);
        }
    }

    /// Handles an element's open edge; returns false when its subtree is to be skipped. Every
    /// element gets a frame (popped by `close_element`), skipped ones an inline one that does
    /// nothing.
    fn open_element(&mut self, id: NodeId) -> bool {
        let dom = self.dom;
        let skip = Frame {
            role: Role::Inline,
            segment: false,
            link: false,
            pre: false,
        };
        let Some(name) = dom.local_name(id) else {
            self.frames.push(skip);
            return false;
        };
        if dom.namespace(id) != Some(&ns!(html)) {
            // `<svg>`/`<math>` content: titles and labels of drawings, not page text.
            self.frames.push(skip);
            return false;
        }
        if *name == local_name!("title") {
            if self.title.is_empty() {
                self.title = fold_whitespace(&dom.text_content(id));
            }
            self.frames.push(skip);
            return false;
        }
        self.note_declaration(id, name);
        let shown_noscript = self.noscript_visible && *name == local_name!("noscript");
        if (is_skipped(name) && !shown_noscript)
            || is_hidden(dom, id, name)
            || (!matches!(
                *name,
                local_name!("html") | local_name!("head") | local_name!("body")
            ) && self.sheet_classes.hide(dom, id))
        {
            self.frames.push(skip);
            return false;
        }
        self.note_overlay(id, name);
        if *name == local_name!("input") && asks_for_an_email_address(dom, id) {
            self.declared.email_fields.push(id);
        }
        self.push_path_segment(id, name);
        if *name == local_name!("head") {
            self.frames.push(Frame {
                role: Role::Suppress,
                segment: true,
                link: false,
                pre: false,
            });
            self.suppress += 1;
            return true;
        }
        if *name == local_name!("br") {
            self.line_break();
        } else if *name == local_name!("img") {
            if self.suppress == 0 {
                self.image(id);
            }
        } else if *name == local_name!("hr") {
            self.flush();
        }
        let href = (*name == local_name!("a"))
            .then(|| dom.attr(id, "href"))
            .flatten();
        let fragment = href
            .and_then(|h| h.trim().strip_prefix('#'))
            .filter(|f| !f.is_empty());
        if fragment.is_some() {
            self.declared.in_page_links.push(id);
        }
        // A heading's permalink to itself leads nowhere else: its words are the heading's.
        let link = href.is_some() && !fragment.is_some_and(|f| is_heading_permalink(dom, id, f));
        let pre = matches!(
            *name,
            local_name!("pre")
                | local_name!("listing")
                | local_name!("xmp")
                | local_name!("plaintext")
        );
        self.links += u32::from(link);
        self.pre += u32::from(pre);
        let role = if is_inline(name) {
            Role::Inline
        } else {
            self.flush();
            self.open_block(id, name);
            Role::Block
        };
        self.frames.push(Frame {
            role,
            segment: true,
            link,
            pre,
        });
        true
    }

    fn close_element(&mut self) {
        let Some(frame) = self.frames.pop() else {
            return;
        };
        if frame.role == Role::Block {
            self.flush();
            self.contexts.pop();
        }
        if frame.role == Role::Suppress {
            self.suppress = self.suppress.saturating_sub(1);
        }
        self.links = self.links.saturating_sub(u32::from(frame.link));
        self.pre = self.pre.saturating_sub(u32::from(frame.pre));
        if frame.segment {
            self.pop_path_segment();
        }
    }

    /// Enters a block-level element. Its kind is its own (`<p>` → Paragraph, `<td>` → TableCell…)
    /// — innermost wins — except that a paragraph or generic container inside a list item or a
    /// quote takes the kind of that list item or quote: `<li><p>text</p></li>` is a list item and
    /// `<blockquote><p>text</p></blockquote>` a quote, which is what a reader cares about.
    /// Headings, preformatted text, table cells and captions keep their own kind wherever they
    /// are.
    fn open_block(&mut self, id: NodeId, name: &LocalName) {
        let mut kind = own_kind(name);
        if matches!(kind, BlockKind::Paragraph | BlockKind::Other)
            && let Some(outer) = self.contexts.last()
            && matches!(outer.kind, BlockKind::ListItem | BlockKind::Quote)
        {
            kind = outer.kind;
        }
        self.contexts.push(BlockContext {
            node: id,
            kind,
            path_len: self.path.len(),
            path_elements: self.path_starts.len(),
        });
    }
}

impl BlockBuilder<'_> {
    /// Appends `tag`, `tag#id`, `tag.c1.c2` or `tag#id.c1.c2` to the tag path.
    fn push_path_segment(&mut self, id: NodeId, name: &LocalName) {
        let start = if self.path.is_empty() {
            0
        } else {
            self.path.push('/');
            self.path.len()
        };
        self.path_starts.push(start);
        self.path.push_str(name);
        if let Some(element_id) = self.dom.attr(id, "id").map(str::trim)
            && !element_id.is_empty()
        {
            self.path.push('#');
            self.path.push_str(element_id);
        }
        if let Some(classes) = self.dom.attr(id, "class") {
            for class in classes.split_ascii_whitespace() {
                self.path.push('.');
                self.path.push_str(class);
            }
        }
    }

    fn pop_path_segment(&mut self) {
        if let Some(start) = self.path_starts.pop() {
            // The separator before the segment goes too.
            self.path.truncate(start.saturating_sub(1));
        }
    }

    /// The tag path of the first `elements` open elements (`len` bytes of `path`), keeping the
    /// last [`MAX_TAG_PATH_ELEMENTS`] of them.
    fn tag_path(&self, len: usize, elements: usize) -> String {
        if elements <= MAX_TAG_PATH_ELEMENTS {
            return self.path[..len].to_owned();
        }
        let start = self.path_starts[elements - MAX_TAG_PATH_ELEMENTS];
        format!("…/{}", &self.path[start..len])
    }

    /// `<br>`: one is a space, a second in a row (with only white space between) ends the block,
    /// so that text laid out with `<br><br>` instead of `<p>` still comes out one block per
    /// paragraph.
    fn line_break(&mut self) {
        if self.suppress > 0 {
            return;
        }
        self.end_token();
        self.br_run += 1;
        if self.br_run >= 2 {
            self.flush();
        } else if self.pre > 0 {
            self.push_newline();
        } else {
            self.pending_space = !self.text.is_empty();
        }
    }

    /// Writes out a folded space that is due (one space for a run of white space).
    fn push_pending_space(&mut self) {
        if self.pending_space {
            self.text.push(' ');
            self.chars += 1;
            self.pending_space = false;
        }
    }

    fn push_newline(&mut self) {
        if !self.text.is_empty() && self.chars < MAX_BLOCK_CHARS {
            self.text.push('\n');
            self.chars += 1;
        }
        self.pending_space = false;
    }

    /// Adds text to the current block: white space folded (line breaks kept inside `<pre>`),
    /// words counted as they complete.
    fn push_text(&mut self, text: &str) {
        let in_link = self.links > 0;
        let pre = self.pre > 0;
        let mut at = 0;
        while let Some(rest) = text.get(at..) {
            // A run of printable ASCII (no white space, nothing invisible, no CJK) continues one
            // token: it is copied at once rather than char by char, with the same result.
            let run = rest.bytes().take_while(u8::is_ascii_graphic).count();
            if run > 0 {
                let room =
                    MAX_BLOCK_CHARS.saturating_sub(self.chars + usize::from(self.pending_space));
                let take = run.min(room);
                let Some(part) = rest.get(..take).filter(|p| !p.is_empty()) else {
                    break;
                };
                self.push_plain(part, in_link);
                if take < run {
                    break;
                }
                at += take;
                continue;
            }
            let Some(c) = rest.chars().next() else {
                break;
            };
            at += c.len_utf8();
            if self.chars + usize::from(self.pending_space) >= MAX_BLOCK_CHARS {
                break;
            }
            if c.is_whitespace() {
                self.end_token();
                if pre && c == '\n' {
                    self.push_newline();
                } else if pre {
                    // Preformatted text keeps its spaces: a line's indentation is its meaning.
                    // A tab is four spaces: what a reader draws, whatever the font.
                    self.push_pending_space();
                    let width = if c == '\t' { 4 } else { 1 };
                    let width = width.min(MAX_BLOCK_CHARS.saturating_sub(self.chars));
                    for _ in 0..width {
                        self.text.push(' ');
                    }
                    self.chars += width;
                } else if !self.text.is_empty() {
                    self.pending_space = true;
                }
                continue;
            }
            if is_invisible(c) {
                continue;
            }
            self.br_run = 0;
            self.push_pending_space();
            self.text.push(c);
            self.chars += 1;
            if is_cjk(c) {
                self.end_token();
                self.words += 1;
                self.link_words += u32::from(in_link);
            } else if is_cjk_punctuation(c) {
                self.end_token();
            } else {
                if !self.in_token {
                    self.in_token = true;
                    self.token_has_alnum = false;
                    self.token_in_link = in_link;
                }
                if self.token_unspaced.cuts_before(c) {
                    if self.token_has_alnum {
                        self.words += 1;
                        self.link_words += u32::from(self.token_in_link);
                    }
                    self.token_has_alnum = false;
                    self.token_in_link = in_link;
                }
                if !self.token_has_alnum && c.is_alphanumeric() {
                    self.token_has_alnum = true;
                    // A word is link text when its first letter or digit is.
                    self.token_in_link = in_link;
                }
            }
        }
    }

    /// Adds `part`, printable ASCII without white space, as [`BlockBuilder::push_text`] adds
    /// those chars one by one.
    fn push_plain(&mut self, part: &str, in_link: bool) {
        self.br_run = 0;
        self.push_pending_space();
        self.text.push_str(part);
        self.chars += part.len();
        if !self.in_token {
            self.in_token = true;
            self.token_has_alnum = false;
            self.token_in_link = in_link;
        }
        if !self.token_has_alnum && part.bytes().any(|b| b.is_ascii_alphanumeric()) {
            self.token_has_alnum = true;
            // A word is link text when its first letter or digit is.
            self.token_in_link = in_link;
        }
    }

    fn end_token(&mut self) {
        if self.in_token && self.token_has_alnum {
            self.words += 1;
            self.link_words += u32::from(self.token_in_link);
        }
        self.in_token = false;
        self.token_has_alnum = false;
        self.token_unspaced = UnspacedRun::default();
    }

    /// Ends the current block: adds it when it has text, and starts an empty one.
    fn flush(&mut self) {
        self.end_token();
        // Preformatted text keeps its first line's indentation: only blank lines before it go.
        let text = if self.pre > 0 {
            let kept = self.text.trim_end();
            let first_line = kept
                .char_indices()
                .take_while(|&(_, c)| c.is_whitespace())
                .filter(|&(_, c)| c == '\n')
                .last()
                .map_or(0, |(i, _)| i + 1);
            &kept[first_line..]
        } else {
            self.text.trim()
        };
        if !text.trim().is_empty()
            && self.blocks.len() < MAX_BLOCKS
            && let Some(context) = self.contexts.last()
        {
            let text = text.to_owned();
            self.blocks.push(Block {
                position: self.blocks.len() as u32,
                hash: hash_text(&text),
                text,
                kind: context.kind,
                node: context.node,
                tag_path: self.tag_path(context.path_len, context.path_elements),
                words: self.words,
                link_words: self.link_words,
                image: None,
            });
        }
        self.text.clear();
        self.chars = 0;
        self.pending_space = false;
        self.words = 0;
        self.link_words = 0;
        self.br_run = 0;
    }

    /// `<img>`: ends the text block before it and becomes a block of its own, when it has a
    /// usable source and is not a tracking pixel.
    fn image(&mut self, id: NodeId) {
        let dom = self.dom;
        let Some(src) = image_source(dom, id) else {
            return;
        };
        if is_tiny(dom, id) {
            return;
        }
        let src = match self.base {
            Some(base) => base.join(src).map_or_else(|_| src.to_owned(), String::from),
            None => src.to_owned(),
        };
        let mut alt = fold_whitespace(dom.attr(id, "alt").unwrap_or(""));
        truncate_chars(&mut alt, MAX_BLOCK_CHARS);
        self.flush();
        if self.blocks.len() >= MAX_BLOCKS {
            return;
        }
        // The img's own segment is already on the path.
        self.blocks.push(Block {
            position: self.blocks.len() as u32,
            text: alt.clone(),
            kind: BlockKind::Image,
            node: id,
            tag_path: self.tag_path(self.path.len(), self.path_starts.len()),
            words: 0,
            link_words: 0,
            hash: hash_image(&src),
            image: Some(ImageInfo { src, alt }),
        });
    }
}

/// Chinese and Japanese characters: scripts written without spaces, where each character counts
/// as a word (a fair stand-in for real segmentation, and what keeps a Chinese paragraph from
/// counting as one word). Hangul is not here: Korean separates words with spaces.
pub(crate) fn is_cjk(c: char) -> bool {
    matches!(c,
        '\u{3040}'..='\u{30FF}'      // Hiragana, Katakana
        | '\u{31F0}'..='\u{31FF}'    // Katakana phonetic extensions
        | '\u{3400}'..='\u{4DBF}'    // CJK extension A
        | '\u{4E00}'..='\u{9FFF}'    // CJK unified ideographs
        | '\u{F900}'..='\u{FAFF}'    // CJK compatibility ideographs
        | '\u{FF66}'..='\u{FF9D}'    // Half-width Katakana
        | '\u{20000}'..='\u{323AF}' // CJK extensions B–H, compatibility supplement
    )
}

/// Thai, Lao, Khmer, Myanmar and Tibetan: scripts written without spaces between words (a space
/// there ends a phrase or a sentence), whose words are several characters long (a consonant, its
/// vowel and tone marks, a syllable or two). Counted as space-separated tokens, a paragraph of
/// them would be a handful of words, and an article in them no article at all.
pub(crate) fn is_unspaced(c: char) -> bool {
    matches!(c,
        '\u{0E00}'..='\u{0EFF}'    // Thai, Lao
        | '\u{0F00}'..='\u{0FFF}'  // Tibetan
        | '\u{1000}'..='\u{109F}'  // Myanmar
        | '\u{1780}'..='\u{17FF}'  // Khmer
        | '\u{19E0}'..='\u{19FF}'  // Khmer symbols
        | '\u{A9E0}'..='\u{A9FF}'  // Myanmar extended B
        | '\u{AA60}'..='\u{AA7F}' // Myanmar extended A
    )
}

/// Characters of an unspaced script ([`is_unspaced`]) that count as one word: Thai text runs
/// about four and a half characters a word, marks included, and a little under is the safe side
/// (a paragraph is not taken for longer than it is).
const UNSPACED_WORD_CHARS: u32 = 5;

/// Where a token's unspaced-script text ([`is_unspaced`]) is cut into words: after
/// [`UNSPACED_WORD_CHARS`] of its characters the next letter starts a word, as after a space. A
/// tone mark never starts one; a vowel sign may (Rust's letters include most), which moves a cut
/// by a character and changes no count. The block builder and boilerpipe's tokens both cut here,
/// so that their word counts agree.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct UnspacedRun(u32);

impl UnspacedRun {
    /// Notes the token's next character `c`; true when a word ends before it.
    pub(crate) fn cuts_before(&mut self, c: char) -> bool {
        if !is_unspaced(c) {
            return false;
        }
        let cut = self.0 >= UNSPACED_WORD_CHARS && c.is_alphanumeric();
        if cut {
            self.0 = 0;
        }
        self.0 += 1;
        cut
    }
}

/// Calls `f(width, is_word)` for every token of `text` in order, with the block builder's word
/// definition: white-space separated tokens, a word when it holds a letter or digit; every CJK
/// character is a word of its own and CJK punctuation a token of its own; a token of an unspaced
/// script (Thai, Khmer…) is cut where [`UnspacedRun`] cuts it. Widths are in characters
/// (boilerpipe's text density wraps lines by them, one column between tokens: a CJK character
/// takes two, as on screen).
pub(crate) fn for_each_token(text: &str, mut f: impl FnMut(usize, bool)) {
    let mut width = 0usize;
    let mut alnum = false;
    // Where the token's unspaced-script text is cut, as the block builder cuts it.
    let mut unspaced = UnspacedRun::default();
    for c in text.chars() {
        let single = is_cjk(c) || is_cjk_punctuation(c);
        if c.is_whitespace() || single {
            if width > 0 {
                f(width, alnum);
            }
            width = 0;
            alnum = false;
            unspaced = UnspacedRun::default();
            if single {
                f(1, is_cjk(c));
            }
        } else {
            if unspaced.cuts_before(c) {
                f(width, alnum);
                width = 0;
                alnum = false;
            }
            width += 1;
            alnum |= c.is_alphanumeric();
        }
    }
    if width > 0 {
        f(width, alnum);
    }
}

/// Number of words in `text`, counted as the block builder counts [`super::Block::words`].
pub fn count_words(text: &str) -> u32 {
    let mut words = 0u32;
    for_each_token(text, |_, word| words += u32::from(word));
    words
}

/// CJK punctuation (`。`, `、`, `「`…): separates words like a space does, but is kept in the text.
pub(crate) fn is_cjk_punctuation(c: char) -> bool {
    matches!(c, '\u{3000}'..='\u{303F}' | '\u{FF01}'..='\u{FF0F}' | '\u{FF1A}'..='\u{FF20}')
}

/// Invisible characters that are dropped from block text: zero-width space, zero-width no-break
/// space (a stray BOM) and the soft hyphen, which would otherwise split or glue words unseen.
fn is_invisible(c: char) -> bool {
    matches!(c, '\u{200B}' | '\u{FEFF}' | '\u{00AD}')
}

/// Folds white space to single spaces, drops invisible characters and trims, as block text is
/// written: for titles and alt texts, and to find an element's text in its block's.
pub(crate) fn fold_whitespace(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split(char::is_whitespace).filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.extend(word.chars().filter(|&c| !is_invisible(c)));
    }
    out
}

/// Cuts `s` to at most `max` chars.
pub(super) fn truncate_chars(s: &mut String, max: usize) {
    if let Some((at, _)) = s.char_indices().nth(max) {
        s.truncate(at);
    }
}

/// True when `value` is an absolute web URL (http or https, with a host: what pith would fetch):
/// a canonical URL that says where a page stands. A relative one says nothing without the base
/// it would need.
fn is_web_url(value: &str) -> bool {
    crate::safety::fetchable_url(value, None).is_some()
}

/// How far above a link its heading may be (`<h2><span><a>`, `<h2><code><a>`).
const PERMALINK_DEPTH: usize = 3;

/// True when the `<a>` at `id` whose `href` is `#fragment` is a heading's permalink: inside an
/// `<h1>`–`<h6>` ([`PERMALINK_DEPTH`] levels up at most), with the fragment naming that link, its
/// heading, or the section right around the heading (`<h3 id="usage"><a href="#usage">`, as MDN
/// and GitHub Docs print it; Sphinx names the section). Documentation links each section's
/// heading so; the heading is still text, not a link to another page, and no longer counts as
/// link-dense. A bare `#` (a script's toggle), links to other fragments and a fragment naming
/// the page's `<body>` (a masthead's "back to top") stay links.
fn is_heading_permalink(dom: &Dom, id: NodeId, fragment: &str) -> bool {
    let Some(heading) = std::iter::successors(dom.parent(id), |&n| dom.parent(n))
        .take(PERMALINK_DEPTH)
        .find(|&n| dom.local_name(n).is_some_and(crate::dom::is_heading))
    else {
        return false;
    };
    let names_it = |n: NodeId| dom.attr(n, "id") == Some(fragment);
    names_it(id)
        || dom.attr(id, "name") == Some(fragment)
        || names_it(heading)
        || dom.parent(heading).is_some_and(|section| {
            !dom.is_html(section, &local_name!("body"))
                && !dom.is_html(section, &local_name!("html"))
                && names_it(section)
        })
}

/// True when `<input>` `id` asks for an email address: `type="email"`, or, on a page older than
/// that type, a field a browser shows for text (no type, `text`, or one it does not know) that
/// it would fill with an address (`autocomplete="email"`) or that the form names for one (a
/// word `email` or `e-mail` in its `name` or `id`, and none saying it is about mail rather than
/// an address: `email_subject`, `is_email_verified`, `recipient_email`).
fn asks_for_an_email_address(dom: &Dom, id: NodeId) -> bool {
    let (mut kind, mut autocomplete, mut names_email) = (None, None, false);
    for (attr, value) in dom.attrs(id) {
        match *attr {
            local_name!("type") => kind = Some(value.trim()),
            local_name!("autocomplete") => autocomplete = Some(value.as_str()),
            local_name!("name") | local_name!("id") => {
                names_email |= names_an_email_field(value);
            }
            _ => {}
        }
    }
    if let Some(kind) = kind {
        if kind.eq_ignore_ascii_case("email") {
            return true;
        }
        if NOT_TEXT_INPUTS.iter().any(|t| kind.eq_ignore_ascii_case(t)) {
            return false;
        }
    }
    names_email
        || autocomplete.is_some_and(|a| {
            a.split_ascii_whitespace()
                .any(|token| token.eq_ignore_ascii_case("email"))
        })
}

/// Input types a browser shows as something other than a line of text (or not at all).
const NOT_TEXT_INPUTS: &[&str] = &[
    "hidden",
    "password",
    "checkbox",
    "radio",
    "submit",
    "button",
    "reset",
    "image",
    "file",
    "search",
    "url",
    "tel",
    "number",
    "range",
    "color",
    "date",
    "datetime-local",
    "month",
    "week",
    "time",
];

/// Words in a field's name that make it about mail, not the reader's address.
const NOT_AN_ADDRESS: &[&str] = &[
    "subject",
    "message",
    "body",
    "verified",
    "recipient",
    "friend",
    "no",
    "not",
    "opt",
    "optin",
    "optout",
    "format",
    "frequency",
    "preference",
    "preferences",
];

/// True when a field's `name` or `id` names an email address: one of its words (see
/// [`for_each_name_token`]) is `email` or ends in it (`youremail`, but not `noemail`), or is `e`
/// then `mail`, and none of them is in [`NOT_AN_ADDRESS`].
fn names_an_email_field(value: &str) -> bool {
    if !name_holds(value, b"mail") {
        return false;
    }
    let (mut email, mut about_mail, mut after_e) = (false, false, false);
    for_each_name_token(value, |word| {
        // Names run together end in the word (`youremail`, `loginemail`), but for a negation.
        email |= word
            .strip_suffix("email")
            .is_some_and(|before| !matches!(before, "no" | "not"))
            || (after_e && word == "mail");
        about_mail |= NOT_AN_ADDRESS.contains(&word);
        after_e = word == "e";
    });
    email && !about_mail
}
