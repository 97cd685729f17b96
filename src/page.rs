//! Page → blocks: a decoded HTML document cut into ordered text and image blocks, each with the
//! shallow features and the hash the rest of the engine works on (ARCHITECTURE.md, "Data flow").

use html5ever::{LocalName, local_name, ns};
use md5::{Digest, Md5};
use url::Url;

use crate::charset;
use crate::dom::{Dom, Edge, NodeId};
use crate::limits::{MAX_BLOCK_CHARS, MAX_BLOCKS, MAX_TAG_PATH_ELEMENTS};

/// The identity of a block for repeat counting: MD5 of the block's letters only (Unicode-aware),
/// lower-cased, of which the first 8 bytes are kept (see README.md for why collisions do not matter).
/// Images hash their resolved `src` instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockHash(pub [u8; 8]);

/// What kind of element a block came from, so the reader can typeset it and extractors can weigh it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BlockKind {
    /// `<h1>`…`<h6>`, with its level.
    Heading(u8),
    /// `<p>`.
    Paragraph,
    /// `<li>`, `<dt>`, `<dd>`, and paragraphs or generic containers inside them.
    ListItem,
    /// `<blockquote>`, and paragraphs or generic containers inside it.
    Quote,
    /// `<pre>`.
    Preformatted,
    /// `<td>`, `<th>`.
    TableCell,
    /// `<figcaption>`, `<caption>`.
    Caption,
    /// An `<img>` (or lazy image) with a usable source.
    Image,
    /// Anything else that holds text directly (div text, `<br>`-separated runs in a div, spans at
    /// top level).
    Other,
}

/// An image block's resolved source and alternative text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageInfo {
    /// Absolute URL when a base URL was known (lazy `data-src`/`srcset` resolved), else as written.
    pub src: String,
    /// The `alt` text, white space folded (may be empty).
    pub alt: String,
}

/// One text block: the text between two block-level tags, inline tags not splitting it.
#[derive(Debug, Clone)]
pub struct Block {
    /// Position in document order, 0-based (equal to the block's index in [`Page::blocks`]).
    pub position: u32,
    /// Text with entities decoded and white space folded to single spaces, trimmed.
    pub text: String,
    /// The element kind the text sits in.
    pub kind: BlockKind,
    /// The innermost block-level element that holds the block (for images, the `<img>` itself).
    pub node: NodeId,
    /// Ancestor path from `<html>` to `node`, like `html/body/div#main.story/p`.
    pub tag_path: String,
    /// Number of words (white-space separated tokens with at least one letter or digit; each
    /// Chinese or Japanese character counts as a word, as those scripts put no spaces between
    /// words).
    pub words: u32,
    /// Of those, the words inside `<a>` elements (link density = link_words / words).
    pub link_words: u32,
    /// Repeat-counting identity.
    pub hash: BlockHash,
    /// Set for [`BlockKind::Image`] blocks.
    pub image: Option<ImageInfo>,
}

/// A parsed page: its title, its DOM and its blocks in document order.
#[derive(Debug)]
pub struct Page {
    /// `<title>` text, white space folded (empty when none).
    pub title: String,
    /// The arena DOM the blocks point into.
    pub dom: Dom,
    /// Blocks in document order.
    pub blocks: Vec<Block>,
    /// What the page declares about itself (structured data, Open Graph type), found while
    /// cutting blocks so that no reader of it walks the whole tree again.
    pub declared: Declarations,
}

/// The elements in which a page declares what it is, in document order.
#[derive(Debug, Clone, Default)]
pub struct Declarations {
    /// JSON-LD scripts (`<script type="application/ld+json">`).
    pub json_ld: Vec<NodeId>,
    /// Microdata items with a type (`itemtype`), nested ones included.
    pub microdata: Vec<NodeId>,
    /// The first `<meta>` naming the Open Graph type (`property` or `name` `og:type`).
    pub og_type: Option<NodeId>,
}

impl BlockHash {
    /// The hash as 16 lower-case hex digits, for storage and reports.
    pub fn to_hex(&self) -> String {
        let mut out = String::with_capacity(16);
        for b in self.0 {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.push(HEX[usize::from(b >> 4)] as char);
            out.push(HEX[usize::from(b & 15)] as char);
        }
        out
    }
}

/// Words from which a block with little link text reads like a sentence of prose rather than a
/// label, a menu entry or a date.
pub const PROSE_WORDS: u32 = 10;

impl Block {
    /// True for a block of prose: [`PROSE_WORDS`] words or more, at most a third of them links.
    pub fn is_prose(&self) -> bool {
        self.words >= PROSE_WORDS && self.link_words * 3 <= self.words
    }

    /// Share of the block's words that are link text, 0 for a block without words. Navigation,
    /// related-article lists and tag clouds are mostly links; article text is not.
    pub fn link_density(&self) -> f32 {
        if self.words == 0 {
            0.0
        } else {
            self.link_words as f32 / self.words as f32
        }
    }
}

/// The block identity of a text: MD5 of its letters only (`char::is_alphabetic`, so Cyrillic and
/// CJK letters count), lower-cased, first 8 bytes. Punctuation, digits, white space and case do
/// not matter: "Привет, мир!" and "привет мир" hash alike, so a repeated line with a changing
/// date or counter is still recognised as the same block.
pub fn hash_text(text: &str) -> BlockHash {
    // The letters go to MD5 through a small buffer rather than a String of their own: a page has
    // hundreds of blocks, and MD5 of the concatenation does not depend on how it is cut.
    let mut hasher = Md5::new();
    let mut buf = [0u8; 256];
    let mut len = 0;
    for c in text.chars() {
        // Most text is ASCII, where a letter and its lower case are one byte each: the Unicode
        // tables are asked only for the rest (same bytes either way).
        if c.is_ascii() {
            if c.is_ascii_alphabetic() {
                if len + 1 > buf.len() {
                    hasher.update(&buf[..len]);
                    len = 0;
                }
                buf[len] = (c as u8).to_ascii_lowercase();
                len += 1;
            }
            continue;
        }
        if !c.is_alphabetic() {
            continue;
        }
        for lower in c.to_lowercase() {
            if len + 4 > buf.len() {
                hasher.update(&buf[..len]);
                len = 0;
            }
            len += lower.encode_utf8(&mut buf[len..]).len();
        }
    }
    hasher.update(&buf[..len]);
    let digest = hasher.finalize();
    let mut out = [0u8; 8];
    out.copy_from_slice(&digest[..8]);
    BlockHash(out)
}

/// The block identity of an image: MD5 of `"img\0"` followed by its resolved source, first 8
/// bytes. The prefix keeps an image from colliding with a text block whose letters spell a URL.
pub fn hash_image(src: &str) -> BlockHash {
    md5_prefix(&[b"img\0", src.as_bytes()])
}

fn md5_prefix(parts: &[&[u8]]) -> BlockHash {
    let mut hasher = Md5::new();
    for part in parts {
        hasher.update(part);
    }
    let digest = hasher.finalize();
    let mut out = [0u8; 8];
    out.copy_from_slice(&digest[..8]);
    BlockHash(out)
}

/// Decodes page bytes ([`charset::decode`]: BOM, `declared_charset` from the HTTP header, meta,
/// detection), parses them and cuts them into blocks. `base_url` (the response URL) resolves
/// relative image sources and hints the encoding detector with its top-level domain.
pub fn parse_page(bytes: &[u8], declared_charset: Option<&str>, base_url: Option<&Url>) -> Page {
    let tld = base_url
        .and_then(Url::host_str)
        .and_then(|host| host.trim_end_matches('.').rsplit('.').next());
    let decoded = charset::decode_with_tld(bytes, declared_charset, tld);
    page_from_html(&decoded.text, base_url)
}

/// Parses already decoded HTML and cuts it into blocks (see [`parse_page`]).
///
/// A page that shows next to no text while a `<noscript>` holds much markup is read as a
/// browser without JavaScript shows it (forum software such as Discourse serves its posts that
/// way, and draws them with script otherwise); the reading with more prose wins.
pub fn page_from_html(html: &str, base_url: Option<&Url>) -> Page {
    let page = page_from_dom(Dom::parse(html), base_url);
    let shown = prose_words(&page);
    if shown >= LITTLE_PROSE_WORDS {
        return page;
    }
    if let Some(repaired) = close_runaway_title(html) {
        let closed = page_from_dom(Dom::parse(&repaired), base_url);
        if prose_words(&closed) > shown {
            return closed;
        }
    }
    if !has_noscript_content(&page.dom) {
        return page;
    }
    let dom = Dom::parse_without_scripting(html);
    let base = document_base(&dom, base_url);
    let (title, blocks, declared) = BlockBuilder::new(&dom, base.as_ref())
        .showing_noscript()
        .run();
    let without = Page {
        title,
        dom,
        blocks,
        declared,
    };
    if prose_words(&without) > shown {
        without
    } else {
        page
    }
}

/// A page whose `<title>` is never closed is all title to a browser: everything after the start
/// tag is the title's text, and the page shows nothing. (Damaged captures do this: `<title>BBC
/// SPORTi library-->` and the rest of the page.) Returns the page with the title closed at the
/// first markup after its start tag, when the title runs into markup.
fn close_runaway_title(html: &str) -> Option<String> {
    let lower_start = find_ascii_ci(html, "<title")?;
    let open_end = lower_start + html[lower_start..].find('>')? + 1;
    let rest = &html[open_end..];
    let markup = rest.as_bytes().windows(2).position(|w| {
        w[0] == b'<' && (w[1].is_ascii_alphabetic() || matches!(w[1], b'/' | b'!'))
    })?;
    // A title closed before any markup is a title; only one that swallows tags runs away.
    let close = find_ascii_ci(rest, "</title");
    if close.is_some_and(|c| c <= markup) {
        return None;
    }
    let mut repaired = String::with_capacity(html.len() + 8);
    repaired.push_str(&html[..open_end + markup]);
    repaired.push_str("</title>");
    repaired.push_str(&rest[markup..]);
    Some(repaired)
}

/// Byte offset of the first ASCII-case-insensitive occurrence of `needle` (ASCII) in `haystack`.
fn find_ascii_ci(haystack: &str, needle: &str) -> Option<usize> {
    let n = needle.len();
    haystack
        .as_bytes()
        .windows(n)
        .position(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
}

/// Prose words under which a page shows next to no text.
const LITTLE_PROSE_WORDS: u32 = 50;

/// `<noscript>` text (in bytes of markup) from which it may hold the page's content rather than
/// a "please turn on JavaScript" line or a tracking pixel.
const NOSCRIPT_CONTENT_BYTES: usize = 1000;

/// Words in the page's blocks of prose.
fn prose_words(page: &Page) -> u32 {
    page.blocks
        .iter()
        .filter(|b| b.is_prose())
        .map(|b| b.words)
        .sum()
}

/// True when one of the `<noscript>` elements of `dom` holds much markup.
fn has_noscript_content(dom: &Dom) -> bool {
    dom.elements_by_name("noscript")
        .any(|id| dom.text_content(id).len() >= NOSCRIPT_CONTENT_BYTES)
}

/// Cuts an already parsed DOM into blocks (see [`parse_page`]). Separate from parsing so that the
/// benchmark can time the two stages apart on the very same code path.
pub fn page_from_dom(dom: Dom, base_url: Option<&Url>) -> Page {
    let base = document_base(&dom, base_url);
    let (title, blocks, declared) = BlockBuilder::new(&dom, base.as_ref()).run();
    Page {
        title,
        dom,
        blocks,
        declared,
    }
}

/// The URL relative image sources resolve against: the first `<base href>`, itself resolved
/// against `base_url`, else `base_url`.
fn document_base(dom: &Dom, base_url: Option<&Url>) -> Option<Url> {
    let href = dom
        .elements_by_name("base")
        .find_map(|id| dom.attr(id, "href"))
        .map(str::trim)
        .filter(|h| !h.is_empty());
    // A page may not point its relative links and images at another scheme (`<base
    // href="file:///">` would make them local paths): only a web base is taken.
    let web = |u: Url| matches!(u.scheme(), "http" | "https").then_some(u);
    match (href, base_url) {
        (Some(href), Some(base)) => base
            .join(href)
            .ok()
            .and_then(web)
            .or_else(|| Some(base.clone())),
        (Some(href), None) => Url::parse(href).ok().and_then(web),
        (None, base) => base.cloned(),
    }
}

// ---------------------------------------------------------------------------------------------
// Element classes. Every HTML element is exactly one of: inline (does not split a block),
// skipped (contributes nothing, and does not split either: it renders no text box), or
// block-level (splits). Block-level is the default, so unknown and custom elements
// (`<my-widget>`) split blocks: a wrong split costs less than text of two regions run together.

/// Inline elements: text inside them continues the surrounding block. `<img>`, `<picture>` and
/// `<br>` are listed here too; they are handled on their own (image blocks, line breaks).
fn is_inline(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("a")
            | local_name!("abbr")
            | local_name!("acronym")
            | local_name!("applet")
            | local_name!("b")
            | local_name!("bdi")
            | local_name!("bdo")
            | local_name!("big")
            | local_name!("blink")
            | local_name!("br")
            | local_name!("cite")
            | local_name!("code")
            | local_name!("data")
            | local_name!("del")
            | local_name!("dfn")
            | local_name!("em")
            | local_name!("font")
            | local_name!("i")
            | local_name!("img")
            | local_name!("input")
            | local_name!("ins")
            | local_name!("kbd")
            | local_name!("label")
            | local_name!("mark")
            | local_name!("meter")
            | local_name!("nobr")
            | local_name!("object")
            | local_name!("output")
            | local_name!("picture")
            | local_name!("progress")
            | local_name!("q")
            | local_name!("rb")
            | local_name!("rp")
            | local_name!("rt")
            | local_name!("rtc")
            | local_name!("ruby")
            | local_name!("s")
            | local_name!("samp")
            | local_name!("small")
            | local_name!("source")
            | local_name!("span")
            | local_name!("strike")
            | local_name!("strong")
            | local_name!("sub")
            | local_name!("sup")
            | local_name!("time")
            | local_name!("tt")
            | local_name!("u")
            | local_name!("var")
            | local_name!("wbr")
    )
}

/// Elements whose contents are not page text: code, styles, embedded documents and media, form
/// widgets whose text is option lists, and metadata.
///
/// `<object>` and `<applet>` are not here: their children are the fallback a browser shows when
/// the plugin is missing, which for Flash and Java is always now (in cleanportaleval, msnbc's
/// video captions, part of the gold text, sit inside `<object>`). `<video>`, `<audio>` and
/// `<canvas>` fallbacks, by contrast, only show in browsers too old to matter.
fn is_skipped(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("script")
            | local_name!("style")
            | local_name!("noscript")
            | local_name!("template")
            | local_name!("svg")
            | local_name!("math")
            | local_name!("iframe")
            | local_name!("frame")
            | local_name!("frameset")
            | local_name!("noframes")
            | local_name!("embed")
            | local_name!("noembed")
            | local_name!("canvas")
            | local_name!("audio")
            | local_name!("video")
            | local_name!("select")
            | local_name!("datalist")
            | local_name!("textarea")
            | local_name!("link")
            | local_name!("meta")
            | local_name!("base")
            | local_name!("param")
            | local_name!("track")
    )
}

/// Block-level elements pith knows by name, for documentation and for callers; every element
/// that is neither [inline](is_inline_element) nor skipped splits blocks, listed here or not.
pub const BLOCK_LEVEL_ELEMENTS: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "body",
    "button",
    "caption",
    "center",
    "col",
    "colgroup",
    "dd",
    "details",
    "dialog",
    "dir",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "header",
    "hgroup",
    "hr",
    "html",
    "legend",
    "li",
    "listing",
    "main",
    "marquee",
    "menu",
    "nav",
    "ol",
    "optgroup",
    "option",
    "p",
    "plaintext",
    "pre",
    "search",
    "section",
    "summary",
    "table",
    "tbody",
    "td",
    "tfoot",
    "th",
    "thead",
    "title",
    "tr",
    "ul",
    "xmp",
];

/// True when an HTML element of this local name continues the surrounding block.
pub fn is_inline_element(name: &str) -> bool {
    is_inline(&LocalName::from(name))
}

/// True when an HTML element of this local name contributes no text (script, style, media…).
pub fn is_skipped_element(name: &str) -> bool {
    is_skipped(&LocalName::from(name))
}

/// The kind an element gives the text directly inside it, before inheritance (see
/// [`BlockBuilder::open_block`]).
fn own_kind(name: &LocalName) -> BlockKind {
    match *name {
        local_name!("h1") => BlockKind::Heading(1),
        local_name!("h2") => BlockKind::Heading(2),
        local_name!("h3") => BlockKind::Heading(3),
        local_name!("h4") => BlockKind::Heading(4),
        local_name!("h5") => BlockKind::Heading(5),
        local_name!("h6") => BlockKind::Heading(6),
        local_name!("p") => BlockKind::Paragraph,
        local_name!("li") | local_name!("dt") | local_name!("dd") => BlockKind::ListItem,
        local_name!("blockquote") => BlockKind::Quote,
        local_name!("pre") | local_name!("listing") | local_name!("xmp") => BlockKind::Preformatted,
        local_name!("td") | local_name!("th") => BlockKind::TableCell,
        local_name!("figcaption") | local_name!("caption") => BlockKind::Caption,
        _ => BlockKind::Other,
    }
}

/// True for elements a browser hides (see [`is_hidden`]), for classifiers that walk the DOM
/// themselves and must leave out what the block builder leaves out.
pub(crate) fn is_hidden_element(dom: &Dom, id: NodeId) -> bool {
    dom.local_name(id)
        .is_some_and(|name| is_hidden(dom, id, name))
}

/// True for elements that no text box is made for: the `hidden` attribute, a closed
/// `<dialog>`, or an inline style with `display:none` / `visibility:hidden`.
///
/// One `hidden` element is shown: React's streamed server rendering sends a suspended part of
/// the page as `<div hidden id="S:3">` at the end of the body, and its inline script moves it
/// in place of `<template id="B:3">` at once. Pages built that way (Next.js among them) hold
/// their whole content there.
fn is_hidden(dom: &Dom, id: NodeId, name: &LocalName) -> bool {
    let mut style = None;
    for (attr, value) in dom.attrs(id) {
        match *attr {
            local_name!("hidden") => {
                return !is_streamed_part(dom, id, name) && !is_folded_panel(dom, id);
            }
            local_name!("style") => style = Some(value.as_str()),
            _ => {}
        }
    }
    if *name == local_name!("dialog") && dom.attr(id, "open").is_none() {
        return true;
    }
    if is_folded_panel(dom, id) {
        return false;
    }
    style.is_some_and(|style| {
        let compact: String = style
            .chars()
            .filter(|c| !c.is_ascii_whitespace())
            .map(|c| c.to_ascii_lowercase())
            .collect();
        compact.contains("display:none") || compact.contains("visibility:hidden")
    })
}

/// True for the folded panel of an accordion (WAI-ARIA's pattern: `role="region"` and
/// `aria-labelledby` naming the heading button that opens it). Its text is the page's own,
/// folded away until the reader asks, and a reading pane shows it unfolded.
fn is_folded_panel(dom: &Dom, id: NodeId) -> bool {
    dom.attr(id, "role")
        .is_some_and(|r| r.trim().eq_ignore_ascii_case("region"))
        && dom.attr(id, "aria-labelledby").is_some()
}

/// True for `<div hidden id="S:N">`, a part of the page that React's streaming renderer sends
/// late and reveals with script (see [`is_hidden`]).
fn is_streamed_part(dom: &Dom, id: NodeId, name: &LocalName) -> bool {
    *name == local_name!("div")
        && dom.attr(id, "id").is_some_and(|i| {
            i.strip_prefix("S:")
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        })
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

/// CJK punctuation (`。`, `、`, `「`…): separates words like a space does, but is kept in the text.
pub(crate) fn is_cjk_punctuation(c: char) -> bool {
    matches!(c, '\u{3000}'..='\u{303F}' | '\u{FF01}'..='\u{FF0F}' | '\u{FF1A}'..='\u{FF20}')
}

/// Invisible characters that are dropped from block text: zero-width space, zero-width no-break
/// space (a stray BOM) and the soft hyphen, which would otherwise split or glue words unseen.
fn is_invisible(c: char) -> bool {
    matches!(c, '\u{200B}' | '\u{FEFF}' | '\u{00AD}')
}

/// Folds white space to single spaces and trims: for titles and alt texts.
fn fold_whitespace(text: &str) -> String {
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
fn truncate_chars(s: &mut String, max: usize) {
    if let Some((at, _)) = s.char_indices().nth(max) {
        s.truncate(at);
    }
}

// ---------------------------------------------------------------------------------------------
// Images.

/// Attributes that lazy-loading scripts copy into `src`; when present, `src` usually holds a
/// placeholder, so they are tried first.
const LAZY_SRC_ATTRS: [&str; 4] = ["data-src", "data-lazy-src", "data-original", "data-url"];

/// A source that can be shown and hashed: not empty, not an inline `data:` placeholder, not a
/// script or blank page.
fn is_usable_src(src: &str) -> bool {
    let lower = src.get(..11).unwrap_or(src).to_ascii_lowercase();
    !src.is_empty()
        && src != "#"
        && !lower.starts_with("data:")
        && !lower.starts_with("javascript:")
        && !lower.starts_with("about:")
}

/// The largest candidate of a `srcset` value (by width descriptor `480w`, else density `2x`;
/// a candidate without descriptor counts as `1x`).
fn largest_srcset_candidate(srcset: &str) -> Option<&str> {
    let mut best: Option<(f64, &str)> = None;
    let mut rest = srcset;
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_ascii_whitespace() || c == ',');
        if rest.is_empty() {
            break;
        }
        let url_end = rest
            .find(|c: char| c.is_ascii_whitespace())
            .unwrap_or(rest.len());
        let mut url = &rest[..url_end];
        rest = &rest[url_end..];
        let mut descriptor = "";
        if url.ends_with(',') {
            // A comma right after the URL ends the candidate: it has no descriptors.
            url = url.trim_end_matches(',');
        } else {
            let desc_end = rest.find(',').unwrap_or(rest.len());
            descriptor = rest[..desc_end].trim();
            rest = &rest[desc_end..];
        }
        let size = descriptor
            .split_ascii_whitespace()
            .find_map(|d| {
                // Widths and densities are compared on one scale: a width is far larger than any
                // density, and a srcset uses one kind or the other.
                if let Some(width) = d.strip_suffix('w') {
                    width.parse::<f64>().ok()
                } else {
                    d.strip_suffix('x')?.parse::<f64>().ok().map(|x| x / 1e6)
                }
            })
            .unwrap_or(1.0 / 1e6);
        if is_usable_src(url) && best.is_none_or(|(b, _)| size > b) {
            best = Some((size, url));
        }
    }
    best.map(|(_, url)| url)
}

/// The source of `<img>` `id`: a lazy attribute, `src`, or the largest `srcset`/`data-srcset`
/// candidate; inside a `<picture>` whose `<img>` has none of these, the first `<source>` without
/// a media condition (else the first `<source>`), as the browser's fallback choice would be.
fn image_source(dom: &Dom, id: NodeId) -> Option<&str> {
    let direct = LAZY_SRC_ATTRS
        .iter()
        .chain(&["src"])
        .filter_map(|a| dom.attr(id, a))
        .map(str::trim)
        .find(|s| is_usable_src(s))
        .or_else(|| srcset_source(dom, id));
    if direct.is_some() {
        return direct;
    }
    let picture = dom
        .parent(id)
        .filter(|&p| dom.is_html(p, &local_name!("picture")))?;
    let sources: Vec<NodeId> = dom
        .children(picture)
        .filter(|&c| dom.is_html(c, &local_name!("source")))
        .collect();
    sources
        .iter()
        .filter(|&&s| dom.attr(s, "media").is_none())
        .chain(sources.iter())
        .find_map(|&s| srcset_source(dom, s))
}

fn srcset_source(dom: &Dom, id: NodeId) -> Option<&str> {
    ["srcset", "data-srcset"]
        .iter()
        .filter_map(|a| dom.attr(id, a))
        .find_map(largest_srcset_candidate)
}

/// True for tracking pixels and spacers: a `width` or `height` attribute of at most 2 pixels.
fn is_tiny(dom: &Dom, id: NodeId) -> bool {
    ["width", "height"].iter().any(|a| {
        dom.attr(id, a).is_some_and(|v| {
            let v = v.trim().trim_end_matches("px").trim();
            v.parse::<f64>().is_ok_and(|n| n <= 2.0)
        })
    })
}

// ---------------------------------------------------------------------------------------------
// The block builder: one iterative walk over the DOM.

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

struct BlockBuilder<'a> {
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
    /// The declarations met.
    declared: Declarations,
    // The block being gathered.
    text: String,
    chars: usize,
    pending_space: bool,
    words: u32,
    link_words: u32,
    in_token: bool,
    token_has_alnum: bool,
    token_in_link: bool,
    /// Consecutive `<br>`s with only white space since.
    br_run: u32,
}

impl<'a> BlockBuilder<'a> {
    /// Reads `<noscript>` contents as page text.
    fn showing_noscript(mut self) -> Self {
        self.noscript_visible = true;
        self
    }

    fn new(dom: &'a Dom, base: Option<&'a Url>) -> BlockBuilder<'a> {
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
            declared: Declarations::default(),
            text: String::new(),
            chars: 0,
            pending_space: false,
            words: 0,
            link_words: 0,
            in_token: false,
            token_has_alnum: false,
            token_in_link: false,
            br_run: 0,
        }
    }

    fn run(mut self) -> (String, Vec<Block>, Declarations) {
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
        (self.title, self.blocks, self.declared)
    }

    /// Notes an element in which the page declares what it is (read before any skipping, so
    /// that hidden microdata and the head's `<meta>` count).
    fn note_declaration(&mut self, id: NodeId, name: &LocalName) {
        let dom = self.dom;
        if *name == local_name!("script") {
            if dom
                .attr(id, "type")
                .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/ld+json"))
            {
                self.declared.json_ld.push(id);
            }
        } else if *name == local_name!("meta") {
            if self.declared.og_type.is_none()
                && dom
                    .attr(id, "property")
                    .or_else(|| dom.attr(id, "name"))
                    .is_some_and(|p| p.trim() == "og:type")
            {
                self.declared.og_type = Some(id);
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
        if (is_skipped(name) && !shown_noscript) || is_hidden(dom, id, name) {
            self.frames.push(skip);
            return false;
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
        let link = *name == local_name!("a") && dom.attr(id, "href").is_some();
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

#[cfg(test)]
mod tests {
    use super::*;

    fn page(html: &str) -> Page {
        page_from_html(html, None)
    }

    fn texts(page: &Page) -> Vec<&str> {
        page.blocks.iter().map(|b| b.text.as_str()).collect()
    }

    #[test]
    fn inline_tags_do_not_split() {
        let p = page("<p>Hello <b>bold</b> <a href=x>link</a> world</p>");
        assert_eq!(texts(&p), ["Hello bold link world"]);
        let b = &p.blocks[0];
        assert_eq!((b.words, b.link_words), (4, 1));
        assert_eq!(b.kind, BlockKind::Paragraph);
        assert!((b.link_density() - 0.25).abs() < 1e-6);

        let p = page("<p>Hello <b>bold</b> <a href=x>two links</a> world</p>");
        assert_eq!((p.blocks[0].words, p.blocks[0].link_words), (5, 2));
        // An anchor without href is not a link.
        let p = page("<p>Hello <a name=x>anchor</a></p>");
        assert_eq!(p.blocks[0].link_words, 0);
        // Inline tags inside a word do not split it.
        let p = page("<p>foo<b>bar</b> baz</p>");
        assert_eq!(texts(&p), ["foobar baz"]);
        assert_eq!(p.blocks[0].words, 2);
    }

    #[test]
    fn block_tags_split() {
        let p = page("<div>a<div>b</div>c</div>");
        assert_eq!(texts(&p), ["a", "b", "c"]);
        let outer = p.blocks[0].node;
        assert_eq!(p.blocks[2].node, outer);
        assert_ne!(p.blocks[1].node, outer);
        assert_eq!(
            p.blocks.iter().map(|b| b.position).collect::<Vec<_>>(),
            [0, 1, 2]
        );
        // Unknown and custom elements split; <hr> splits.
        let p = page("<body>a<my-widget>b</my-widget>c<hr>d<span>e</span>");
        assert_eq!(texts(&p), ["a", "b", "c", "de"]);
        // Empty blocks are dropped.
        let p = page("<div> </div><div>\u{a0}</div><p>x</p>");
        assert_eq!(texts(&p), ["x"]);
    }

    #[test]
    fn double_br_splits() {
        let p = page("<div>one<br>still one<br> <br>two<br><br><br>three</div>");
        assert_eq!(texts(&p), ["one still one", "two", "three"]);
        let p = page("<div>a<br><b></b>\n<br>b</div>");
        assert_eq!(texts(&p), ["a", "b"]);
    }

    #[test]
    fn scripts_styles_and_hidden_contribute_nothing() {
        let p = page(
            "<head><style>p{}</style><script>var x=1</script></head><body>\
             <p>a<script>document.write('x')</script>b</p>\
             <noscript>enable js</noscript><template><p>tpl</p></template>\
             <div hidden>hidden</div><div style='DISPLAY: none !important'>none</div>\
             <p style='visibility:hidden'>invisible</p><svg><text>drawing</text></svg>\
             <select><option>choice</option></select><textarea>typed</textarea>\
             <iframe>frame</iframe><dialog>closed</dialog><dialog open>open</dialog>\
             <p style='color:red'>shown</p>",
        );
        assert_eq!(texts(&p), ["ab", "open", "shown"]);
    }

    #[test]
    fn a_page_that_draws_its_text_with_script_is_read_from_its_noscript() {
        let post = |n: usize| {
            format!(
                "<div class=post><p>Post {n} of the thread, written by a member in full \
                 sentences, with a question, an answer or an opinion about the topic.</p></div>"
            )
        };
        let posts: String = (0..8).map(post).collect();
        let html = format!(
            "<body><section id=splash>Loading…</section>\
             <noscript data-path=/t/1><div id=main-outlet>{posts}</div></noscript>\
             <noscript><img src=/pixel.gif></noscript></body>"
        );
        let p = page(&html);
        let posts_read = texts(&p).iter().filter(|t| t.starts_with("Post ")).count();
        assert_eq!(posts_read, 8, "{:?}", texts(&p));
        // The same noscript beside a page that shows its text stays unread.
        let shown = page(&format!("<body>{posts}<noscript>{posts}</noscript></body>"));
        assert_eq!(shown.blocks.len(), 8, "{:?}", texts(&shown));
    }

    #[test]
    fn a_title_that_is_never_closed_does_not_swallow_the_page() {
        let story = "<p>The match ended in a draw after a long and tense evening, and the \
                     manager said his side had deserved more from the game.</p>";
        let html = format!(
            "<html><head><title>BBC SPORT library-->\n<script src=x.js></script></head>\
             <body>{}</body></html>",
            story.repeat(6)
        );
        let p = page(&html);
        assert_eq!(p.blocks.len(), 6, "{:?}", texts(&p));
        assert_eq!(p.title, "BBC SPORT library-->");
        // A closed title is left alone, markup-like text in it too.
        let fine = page("<title>a < b</title><p>text</p>");
        assert_eq!((fine.title.as_str(), texts(&fine)), ("a < b", vec!["text"]));
    }

    #[test]
    fn a_part_streamed_by_react_is_page_text_other_hidden_parts_are_not() {
        let p = page(
            "<body><main><template id=\"B:0\"></template></main>\
             <div hidden id=\"S:0\"><p>The streamed article text.</p></div>\
             <div hidden id=\"S:x\"><p>not a part</p></div><div hidden><p>hidden</p></div>\
             <script>$RC(\"B:0\",\"S:0\")</script></body>",
        );
        assert_eq!(texts(&p), ["The streamed article text."]);
    }

    #[test]
    fn a_folded_accordion_panel_is_page_text_other_hidden_boxes_are_not() {
        let p = page(
            "<body><h3><a id=h1 role=button aria-controls=c1>1. Read your bill</a></h3>\
             <div id=c1 style=\"display:none;\" role=region aria-labelledby=h1>\
             <p>Folded text.</p></div>\
             <div role=region aria-labelledby=h2 hidden><p>Folded too.</p></div>\
             <div style=\"display: none\" aria-labelledby=h3><p>a popup</p></div>\
             <div role=region style=display:none><p>unnamed region</p></div></body>",
        );
        assert_eq!(
            texts(&p),
            ["1. Read your bill", "Folded text.", "Folded too."]
        );
    }

    #[test]
    fn entities_and_white_space() {
        let p = page("<p>caf&eacute; &amp;&nbsp;&nbsp;co&#8217;s\n\t  end&#xA0;</p>");
        assert_eq!(texts(&p), ["café & co’s end"]);
        let p = page("<p>\u{a0}lead\u{2003}em\u{3000}ideo zero\u{200b}width soft\u{ad}hy</p>");
        assert_eq!(texts(&p), ["lead em ideo zerowidth softhy"]);
    }

    #[test]
    fn pre_keeps_line_breaks_and_indentation() {
        let indented = page("<pre>\n\n    body();\n}\n  \n</pre>");
        assert_eq!(
            texts(&indented),
            ["    body();\n}"],
            "the first line keeps its indentation"
        );
        let p = page("<pre>\nfn main() {\n    let  x = 1;\n\tx\n}\n</pre><p>a\n  b</p>");
        // Indentation and runs of spaces are the code's own; outside <pre> white space folds.
        assert_eq!(texts(&p), ["fn main() {\n    let  x = 1;\n    x\n}", "a b"]);
        assert_eq!(p.blocks[0].kind, BlockKind::Preformatted);
    }

    #[test]
    fn title() {
        let p = page("<html><head><title>  The\n title </title></head><body><p>x</p>");
        assert_eq!(p.title, "The title");
        assert_eq!(texts(&p), ["x"]);
        // An SVG title is not the page title.
        let p = page("<body><svg><title>icon</title></svg><p>x</p>");
        assert_eq!(p.title, "");
        assert_eq!(page("").title, "");
        assert!(page("").blocks.is_empty());
    }

    #[test]
    fn kinds() {
        let p = page(
            "<h1>h</h1><h3>h3</h3><p>p</p><ul><li>li<p>in li</p><h4>head in li</h4></li></ul>\
             <dl><dt>dt</dt><dd>dd</dd></dl><blockquote>q<p>in quote</p></blockquote>\
             <table><caption>cap</caption><tr><td>td<p>p in td</p><div>div in td</div></td>\
             <th>th</th></tr></table><figure><figcaption>fc</figcaption></figure>\
             <div>div</div><pre>pre</pre>",
        );
        let kinds: Vec<(&str, BlockKind)> =
            p.blocks.iter().map(|b| (b.text.as_str(), b.kind)).collect();
        use BlockKind::*;
        assert_eq!(
            kinds,
            [
                ("h", Heading(1)),
                ("h3", Heading(3)),
                ("p", Paragraph),
                ("li", ListItem),
                ("in li", ListItem),
                ("head in li", Heading(4)),
                ("dt", ListItem),
                ("dd", ListItem),
                ("q", Quote),
                ("in quote", Quote),
                ("cap", Caption),
                ("td", TableCell),
                ("p in td", Paragraph),
                ("div in td", Other),
                ("th", TableCell),
                ("fc", Caption),
                ("div", Other),
                ("pre", Preformatted),
            ]
        );
    }

    #[test]
    fn tag_paths() {
        let p = page(
            "<body class='home'><div id=main class=' story  wide '><p>x <b>y</b></p>\
             <section id=s>z</section></div>",
        );
        assert_eq!(p.blocks[0].tag_path, "html/body.home/div#main.story.wide/p");
        assert_eq!(
            p.blocks[1].tag_path,
            "html/body.home/div#main.story.wide/section#s"
        );
        let deep = format!("{}deep{}", "<div>".repeat(100), "</div>".repeat(100));
        let p = page(&deep);
        let path = &p.blocks[0].tag_path;
        assert!(path.starts_with("…/div/"), "{path}");
        assert_eq!(path.split('/').count(), MAX_TAG_PATH_ELEMENTS + 1);
    }

    #[test]
    fn images() {
        let base = Url::parse("https://example.com/news/story.html").unwrap();
        let html = "<p>before<img src='a.jpg' alt=' An  image '>after</p>\
             <img src='data:image/gif;base64,R0lGOD' data-src='/lazy.jpg'>\
             <img data-lazy-src='//cdn.example.com/l2.jpg'>\
             <img srcset='s.jpg 480w, l.jpg 1200w, m.jpg 800w'>\
             <img srcset='one.jpg, two.jpg 2x'>\
             <picture><source media='(max-width:600px)' srcset='small.webp'>\
             <source srcset='big.webp 2x, mid.webp 1x'><img></picture>\
             <img src='pixel.gif' width=1 height=1><img src='spacer.gif' width='1px'>\
             <img alt='no source'><img src='data:image/png;base64,xx'>";
        let p = page_from_html(html, Some(&base));
        let images: Vec<(&str, &str)> = p
            .blocks
            .iter()
            .filter_map(|b| b.image.as_ref())
            .map(|i| (i.src.as_str(), i.alt.as_str()))
            .collect();
        assert_eq!(
            images,
            [
                ("https://example.com/news/a.jpg", "An image"),
                ("https://example.com/lazy.jpg", ""),
                ("https://cdn.example.com/l2.jpg", ""),
                ("https://example.com/news/l.jpg", ""),
                ("https://example.com/news/two.jpg", ""),
                ("https://example.com/news/big.webp", ""),
            ]
        );
        assert_eq!(texts(&p)[..3], ["before", "An image", "after"]);
        let img = &p.blocks[1];
        assert_eq!(img.kind, BlockKind::Image);
        assert_eq!((img.words, img.link_words), (0, 0));
        assert_eq!(img.hash, hash_image("https://example.com/news/a.jpg"));
        assert_eq!(img.tag_path, "html/body/p/img");
        assert_eq!(p.dom.element_name(img.node), Some("img"));

        // <base href> wins over the page URL; without any base, sources stay as written.
        let html = "<head><base href='https://static.example.org/img/'></head><img src='x.png'>";
        let p = page_from_html(html, Some(&base));
        assert_eq!(
            p.blocks[0].image.as_ref().unwrap().src,
            "https://static.example.org/img/x.png"
        );
        let p = page("<img src='x.png'>");
        assert_eq!(p.blocks[0].image.as_ref().unwrap().src, "x.png");
    }

    #[test]
    fn srcset_parsing() {
        assert_eq!(
            largest_srcset_candidate("a.jpg 1x, b.jpg 3x, c.jpg 2x"),
            Some("b.jpg")
        );
        assert_eq!(largest_srcset_candidate("a.jpg, b.jpg 2x"), Some("b.jpg"));
        // As the standard says: a comma without white space is part of the URL.
        assert_eq!(
            largest_srcset_candidate("a.jpg,b.jpg 2x"),
            Some("a.jpg,b.jpg")
        );
        assert_eq!(
            largest_srcset_candidate("a.jpg?w=1,2 100w, b.jpg 50w"),
            Some("a.jpg?w=1,2")
        );
        assert_eq!(largest_srcset_candidate(" , "), None);
        assert_eq!(
            largest_srcset_candidate("data:image/gif;base64,AAA 1x"),
            None
        );
        assert_eq!(largest_srcset_candidate("x.jpg 1.5x junk"), Some("x.jpg"));
        assert_eq!(
            largest_srcset_candidate("x.jpg 100é, y.jpg 10w"),
            Some("y.jpg")
        );
    }

    #[test]
    fn hashes() {
        // Punctuation, case, digits and white space do not matter; letters do.
        assert_eq!(hash_text("Hello, World! 2024"), hash_text("hello world"));
        assert_eq!(hash_text("Привет, мир!"), hash_text("привет мир"));
        assert_eq!(hash_text("ПРИВЕТ МИР 1"), hash_text("привет мир"));
        assert_ne!(hash_text("привет мир"), hash_text("привет мор"));
        assert_eq!(
            hash_text("日本語のテキスト。"),
            hash_text("日本語の テキスト")
        );
        assert_ne!(hash_text("日本語のテキスト"), hash_text("日本語のテクスト"));
        assert_eq!(hash_text("中文，网页"), hash_text("中文网页"));
        assert_ne!(hash_text("hello"), hash_text("hallo"));
        assert_ne!(hash_text("ab"), hash_image("ab"));
        // MD5("") = d41d8cd98f00b204e9800998ecf8427e.
        assert_eq!(hash_text("123 !?").to_hex(), "d41d8cd98f00b204");
        // MD5("abc") = 900150983cd24fb0d6963f7d28e17f72.
        assert_eq!(hash_text("A-b c!").to_hex(), "900150983cd24fb0");
        // Long texts (hashed through a buffer, in pieces) hash as their letters in one piece.
        let long = "Ünïcödé ΣΊΣΥΦΟΣ straße, İstanbul; 日本語 ".repeat(40);
        let letters: String = long
            .chars()
            .filter(|c| c.is_alphabetic())
            .flat_map(char::to_lowercase)
            .collect();
        assert!(letters.len() > 1_000);
        assert_eq!(hash_text(&long), md5_prefix(&[letters.as_bytes()]));
        let p = page("<p>Same text, here.</p><div>same TEXT here</div>");
        assert_eq!(p.blocks[0].hash, p.blocks[1].hash);
        assert_eq!(p.blocks[0].hash, hash_text("same text here"));
    }

    #[test]
    fn cjk_words() {
        let p = page("<p>日本語のテキスト、です。</p><p>中文网页内容 and English</p>");
        assert_eq!(p.blocks[0].words, 10);
        assert_eq!(p.blocks[1].words, 6 + 2);
        let p = page("<p><a href=x>链接</a>文字</p>");
        assert_eq!((p.blocks[0].words, p.blocks[0].link_words), (4, 2));
        // Tokens without letters or digits are not words.
        let p = page("<p>— | · 42 a</p>");
        assert_eq!(p.blocks[0].words, 2);
    }

    #[test]
    fn deep_nesting_is_bounded() {
        let n = 100_000;
        let html = format!(
            "{}text{}",
            "<div><b>".repeat(n / 2),
            "</b></div>".repeat(n / 2)
        );
        let p = page(&html);
        assert_eq!(texts(&p), ["text"]);
        assert!(p.blocks[0].tag_path.starts_with("…/"));
    }

    /// A word is link text when its first letter or digit is, wherever its punctuation starts,
    /// and a word goes on across text nodes.
    #[test]
    fn words_across_links_and_text_nodes() {
        let p = page(r#"<p>--<a href="/x">ab</a> <a href="/y">..</a>cd e<b>f</b>g ‹h›</p>"#);
        assert_eq!(p.blocks[0].text, "--ab ..cd efg ‹h›");
        assert_eq!((p.blocks[0].words, p.blocks[0].link_words), (4, 1));
    }

    #[test]
    fn long_blocks_and_many_blocks_are_capped() {
        let p = page(&format!("<p>{}</p>", "word ".repeat(MAX_BLOCK_CHARS)));
        assert_eq!(p.blocks[0].text.chars().count(), MAX_BLOCK_CHARS - 1);
        assert_eq!(p.blocks[0].words as usize, MAX_BLOCK_CHARS / 5);
        // Runs of plain ASCII are copied whole: the cap still falls on the same char.
        let p = page(&format!("<p>{}</p>", "ab".repeat(MAX_BLOCK_CHARS)));
        assert_eq!(p.blocks[0].text.len(), MAX_BLOCK_CHARS);
        assert_eq!(p.blocks[0].words, 1);
        let p = page(&format!("<p>é é {}</p>", "x".repeat(MAX_BLOCK_CHARS)));
        assert_eq!(p.blocks[0].text.chars().count(), MAX_BLOCK_CHARS);
        assert!(p.blocks[0].text.starts_with("é é xxx"));
        assert_eq!(p.blocks[0].words, 3);
        let p = page(&"<p>x</p>".repeat(MAX_BLOCKS + 10));
        assert_eq!(p.blocks.len(), MAX_BLOCKS);
        assert_eq!(
            p.blocks.last().map(|b| b.position),
            Some(MAX_BLOCKS as u32 - 1)
        );
    }

    #[test]
    fn parse_page_decodes() {
        let (bytes, _, _) = encoding_rs::WINDOWS_1252.encode("<title>Café</title><p>naïve</p>");
        let p = parse_page(&bytes, Some("text/html; charset=iso-8859-1"), None);
        assert_eq!(p.title, "Café");
        assert_eq!(texts(&p), ["naïve"]);
        // UTF-8 bytes declared ISO-8859-1 are read as UTF-8.
        let p = parse_page("<p>naïve</p>".as_bytes(), Some("iso-8859-1"), None);
        assert_eq!(texts(&p), ["naïve"]);
    }

    #[test]
    fn random_bytes_give_some_page() {
        let mut state: u64 = 0xD1B5_4A32_D192_ED03;
        let alphabet = b"<<>>/=\"' abpimgsrcdvlhtref!-&;#\n\xd0\xb6\xe6\x97\xa5\xff\x00";
        for len in [0, 1, 2, 100, 10_000] {
            for _ in 0..10 {
                let bytes: Vec<u8> = (0..len)
                    .map(|_| {
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        alphabet[(state % alphabet.len() as u64) as usize]
                    })
                    .collect();
                let p = parse_page(&bytes, None, None);
                for (i, b) in p.blocks.iter().enumerate() {
                    assert_eq!(b.position as usize, i);
                    assert!(!b.text.is_empty() || b.kind == BlockKind::Image);
                    assert!(b.link_words <= b.words);
                }
            }
        }
    }

    #[test]
    fn page_is_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<Page>();
    }

    #[test]
    fn element_classes() {
        assert!(is_inline_element("span") && is_inline_element("a"));
        assert!(!is_inline_element("div") && !is_inline_element("my-widget"));
        assert!(is_skipped_element("script") && !is_skipped_element("p"));
        for name in BLOCK_LEVEL_ELEMENTS {
            assert!(
                !is_inline_element(name) && !is_skipped_element(name),
                "{name}"
            );
        }
    }
}
