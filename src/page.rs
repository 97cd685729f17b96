//! Page → blocks: a decoded HTML document cut into ordered text and image blocks, each with the
//! shallow features and the hash the rest of the engine works on (ARCHITECTURE.md, "Data flow").

mod builder;
mod elements;
mod images;
pub mod markup;
mod styles;

use md5::{Digest, Md5};
use url::Url;

use crate::charset;
use crate::dom::{Dom, NodeId};

use builder::BlockBuilder;
pub use builder::count_words;
pub(crate) use builder::{fold_whitespace, for_each_token, is_cjk, is_unspaced};
pub(crate) use elements::is_hidden_element;
pub use elements::{BLOCK_LEVEL_ELEMENTS, is_inline_element, is_skipped_element};
pub(crate) use images::declares_size_at_most;

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
    /// words, and Thai, Lao, Khmer, Myanmar and Tibetan text a word every few characters).
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
    /// The URL the page's relative links resolve against (its `<base href>`, else the response
    /// URL), when one is known: where the page stands, and so which of its links lead elsewhere.
    pub base: Option<Url>,
}

/// The elements in which a page declares what it is, in document order (but for the overlays,
/// sorted by id), and how it lays itself out.
#[derive(Debug, Clone, Default)]
pub struct Declarations {
    /// JSON-LD scripts (`<script type="application/ld+json">`).
    pub json_ld: Vec<NodeId>,
    /// Microdata items with a type (`itemtype`), nested ones included.
    pub microdata: Vec<NodeId>,
    /// The first `<meta>` naming the Open Graph type (`property` or `name` `og:type`).
    pub og_type: Option<NodeId>,
    /// The `<meta name="author">` elements: who the page says wrote it.
    pub author_metas: Vec<NodeId>,
    /// The shown links that point within the page (`<a href="#search-results">`, a non-empty
    /// fragment): where the page's text says its parts are. Noted as the blocks are cut, since
    /// the builder reads every link's `href` anyway.
    pub in_page_links: Vec<NodeId>,
    /// The first `<link rel="canonical">` or `<meta property="og:url">` naming an absolute web
    /// URL: the URL the page gives as its own, which says where it stands when no response URL
    /// is known.
    pub canonical: Option<NodeId>,
    /// The `<noscript>` elements outside hidden boxes: where a page drawn by its scripts may hold
    /// its text for a browser without them (see [`page_from_html`]). One inside a hidden box
    /// would show nothing without scripts either.
    pub noscripts: Vec<NodeId>,
    /// The shown elements the page lays over itself, sorted by id (the one list here not in
    /// document order): fixed to the viewport by their inline style (`position: fixed`) or by
    /// the strongest rule of its `<style>` sheets among their classes; the inline style wins
    /// unless only the rule is `!important`. (A framework's class alone is not read: Tailwind's
    /// `fixed` is also what older sites call a fixed-width layout, the article inside it.) A
    /// consent notice, a chat or an offer stays in place while the page scrolls under it; no
    /// name is needed, as plugins and component libraries print them under generated classes.
    /// `<html>`, `<head>` and `<body>` are never noted (a script locking the page's scrolling
    /// fixes `<body>`), nor is a box holding the page's `<h1>`, its `<main>` or an `<article>`
    /// (an app's root fixed to scroll inside itself); a fixed box inside another is noted too.
    pub overlays: Vec<NodeId>,
    /// The shown modal dialogs, sorted by id: an open `<dialog>`, or an element marked
    /// `role="dialog"`, `role="alertdialog"` or `aria-modal="true"`, but not one that says it is
    /// no modal (`aria-modal="false"`: a shop's drawer of details) or is hidden from assistive
    /// technology (`aria-hidden="true"`: closed). A consent manager's notice, a sign-up offer, a
    /// newsletter's prompt: the page declares them laid over itself, whatever their size or
    /// their sheet. As with [`Declarations::overlays`], one holding the page's `<h1>`, its
    /// `<main>` or an `<article>` is not noted (a story opened over its site's front).
    pub dialogs: Vec<NodeId>,
    /// The shown fields that ask for an email address (`type="email"`, or a text field named or
    /// autofilled for one), in document order: where the page asks for an address (a
    /// newsletter's sign-up, a comment form, a log-in).
    pub email_fields: Vec<NodeId>,
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

impl Page {
    /// Where the page stands: its base URL (its `<base href>`, else the response URL), else the
    /// web URL it declares as its own ([`Declarations::canonical`]).
    pub fn own_url(&self) -> Option<Url> {
        if let Some(base) = &self.base {
            return Some(base.clone());
        }
        let node = self.declared.canonical?;
        let written = self
            .dom
            .attr(node, "href")
            .or_else(|| self.dom.attr(node, "content"))?;
        crate::safety::fetchable_url(written, None)
    }
}

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
/// A page that shows next to no text is read again: with a damaged capture's runaway `<title>`
/// closed, or its runaway `<script>` start tag dropped. When a `<noscript>` holds much markup,
/// the page is also read as a browser without JavaScript shows it (forum software such as
/// Discourse serves its posts that way, and draws them with script otherwise): that reading wins
/// when it shows more prose and the page showed next to none, or when it shows
/// [`NOSCRIPT_OVER_SHOWN`] times as much (the script's shell printing a cookie notice or a "turn
/// on JavaScript" paragraph besides).
pub fn page_from_html(html: &str, base_url: Option<&Url>) -> Page {
    let page = page_from_dom(Dom::parse(html), base_url);
    let shown = prose_words(&page);
    if shown < LITTLE_PROSE_WORDS {
        for repair in [close_runaway_title, drop_runaway_script_tag] {
            if let Some(repaired) = repair(html) {
                let closed = page_from_dom(Dom::parse(&repaired), base_url);
                if prose_words(&closed) > shown {
                    return closed;
                }
            }
        }
    }
    let noscript = noscript_markup(&page.dom, &page.declared.noscripts);
    // Whether reading again can pay: the letters of the noscript's markup outside its tags bound
    // the words it adds (an image's fallback adds none), and the page's words, prose or not,
    // bound the prose they can make (a line the noscript's text lengthens into prose).
    let could_outweigh = shown < LITTLE_PROSE_WORDS || {
        let all_words: usize = page.blocks.iter().map(|b| b.words as usize).sum();
        all_words + noscript.letters >= NOSCRIPT_OVER_SHOWN * shown as usize
    };
    if noscript.largest < NOSCRIPT_CONTENT_BYTES || !could_outweigh {
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
        base,
    };
    let without_words = prose_words(&without);
    if without_words > shown
        && (shown < LITTLE_PROSE_WORDS
            || without_words as usize >= NOSCRIPT_OVER_SHOWN * shown as usize)
    {
        without
    } else {
        page
    }
}

/// Letters and digits of an HTML fragment outside its tags, in one pass and without a parse: how
/// much a fragment says, and a bound on the words of its [`fragment_text`] (every word holds one
/// at least). A `<` opens a tag only before a letter, `/`, `!` or `?`, as in HTML: the `<` of
/// `a < b` is text, and the letters after it count.
pub fn fragment_letters(html: &str) -> usize {
    let mut in_tag = false;
    let mut letters = 0;
    let mut chars = html.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '<' if !in_tag
                && chars
                    .peek()
                    .is_some_and(|&n| n.is_ascii_alphabetic() || matches!(n, '/' | '!' | '?')) =>
            {
                in_tag = true;
            }
            '>' => in_tag = false,
            c if !in_tag && c.is_alphanumeric() => letters += 1,
            _ => {}
        }
    }
    letters
}

/// The text of an HTML fragment (a feed entry's summary or content; plain text is a fragment
/// too), its blocks on their own lines, and its words counted as a page's blocks count them.
pub fn fragment_text(html: &str) -> (String, u32) {
    let fragment = page_from_html(html, None);
    let lines: Vec<&str> = fragment
        .blocks
        .iter()
        .filter(|b| !b.text.is_empty())
        .map(|b| b.text.as_str())
        .collect();
    let words = fragment.blocks.iter().map(|b| b.words).sum();
    (lines.join("\n"), words)
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
    let close = title_end_tag(rest);
    if close.is_some_and(|c| c <= markup) {
        return None;
    }
    let mut repaired = String::with_capacity(html.len() + 8);
    repaired.push_str(&html[..open_end + markup]);
    repaired.push_str("</title>");
    repaired.push_str(&rest[markup..]);
    Some(repaired)
}

/// A `<script>` start tag one of whose quoted attribute values runs over a `</script>` is a
/// damaged capture's (`<script src="/te.backgroundColor='yellow'; … </script>`, a file name
/// spliced into the code of the script after it): the value runs on to the next quote, the tag to
/// the next `>`, and the script to the next `</script>` after that, swallowing the page between.
/// Returns the page without the damaged tag, up to the end of the `</script>` inside its value
/// (where the script it was spliced into ended), so that the rest reads as the page's author
/// wrote it.
fn drop_runaway_script_tag(html: &str) -> Option<String> {
    let mut from = 0;
    while let Some(found) = find_ascii_ci(&html[from..], "<script") {
        let start = from + found;
        let name_end = start + "<script".len();
        let tag = &html[name_end..];
        // `<scripts>` or `<script-x>` is another element.
        if !tag
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_whitespace() || matches!(b, b'/' | b'>'))
        {
            from = name_end;
            continue;
        }
        match scan_start_tag(tag) {
            StartTag::Runaway(end) => {
                let mut repaired = String::with_capacity(html.len());
                repaired.push_str(&html[..start]);
                repaired.push_str(&html[name_end + end..]);
                return Some(repaired);
            }
            // The search goes on after the tag: a `<script` inside its values is no tag.
            StartTag::Ends(end) => from = name_end + end,
            // A value never closed swallows the rest of the page: no tag follows.
            StartTag::Unterminated => return None,
        }
    }
    None
}

/// What [`scan_start_tag`] found of a start tag's attributes.
enum StartTag {
    /// A quoted value holds a `</script …>`: the offset just past it.
    Runaway(usize),
    /// The tag ends before the offset given, its values whole.
    Ends(usize),
    /// A quoted value, or the tag, runs to the end of the page.
    Unterminated,
}

/// Reads the attributes of a start tag (`tag` begins after its name) as the tokenizer does: a
/// value is quoted when a quote follows its `=` (white space between), and runs whole to the
/// same quote; any other quote is a character of a name or of an unquoted value. The tag ends at
/// the first `>` outside a quoted value.
fn scan_start_tag(tag: &str) -> StartTag {
    let bytes = tag.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'>' => return StartTag::Ends(i + 1),
            b'=' => {
                i += 1;
                while bytes.get(i).is_some_and(u8::is_ascii_whitespace) {
                    i += 1;
                }
                let Some(&quote @ (b'"' | b'\'')) = bytes.get(i) else {
                    continue;
                };
                let value_start = i + 1;
                let Some(value_len) = tag[value_start..].find(quote as char) else {
                    return StartTag::Unterminated;
                };
                let value = &tag[value_start..value_start + value_len];
                if let Some(close) = find_ascii_ci(value, "</script")
                    && let Some(close_end) = value[close..].find('>')
                {
                    return StartTag::Runaway(value_start + close + close_end + 1);
                }
                i = value_start + value_len + 1;
            }
            _ => i += 1,
        }
    }
    StartTag::Unterminated
}

/// Byte offset of the first end tag that closes a title in `html`: `</title` followed by white
/// space, `/` or `>`, as the HTML tokenizer reads a tag name. `</titlevalue="true" -->` (a damaged
/// template's) is an end tag of another name, which a browser's title runs through.
fn title_end_tag(html: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(found) = find_ascii_ci(&html[from..], "</title") {
        let at = from + found;
        let after = html.as_bytes().get(at + "</title".len());
        if after.is_none_or(|b| matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ' | b'/' | b'>')) {
            return Some(at);
        }
        from = at + "</title".len();
    }
    None
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

/// Words in the page's blocks of prose, but for those in a dialog laid over it (see
/// [`Declarations::dialogs`]): a cookie notice says nothing of whether the page shows its text.
fn prose_words(page: &Page) -> u32 {
    // Every node under a dialog marked once (a nested dialog is inside its outer one already).
    let mut in_dialog = Vec::new();
    if !page.declared.dialogs.is_empty() {
        in_dialog = vec![false; page.dom.len()];
        for &dialog in &page.declared.dialogs {
            if in_dialog.get(dialog as usize).copied().unwrap_or(true) {
                continue;
            }
            for edge in page.dom.traverse(dialog) {
                if let crate::dom::Edge::Open(n) = edge
                    && let Some(mark) = in_dialog.get_mut(n as usize)
                {
                    *mark = true;
                }
            }
        }
    }
    page.blocks
        .iter()
        .filter(|b| b.is_prose() && !in_dialog.get(b.node as usize).copied().unwrap_or(false))
        .map(|b| b.words)
        .sum()
}

/// Where a page shows some prose already, its reading without scripting must show this many times
/// as much to win: then the `<noscript>` carries the page, and the script's shell around it
/// printed only a notice. A page that prints its article and a `<noscript>` copy of it (or of a
/// teaser) reads at most twice as long without scripting, and stays as scripts draw it.
const NOSCRIPT_OVER_SHOWN: usize = 3;

/// The markup of a page's `<noscript>` elements (parsed with scripting, they hold it as text).
struct NoscriptMarkup {
    /// Bytes of the largest: one of [`NOSCRIPT_CONTENT_BYTES`] or more may hold the page's
    /// content.
    largest: usize,
    /// Letters and digits outside tags in all of them (see [`fragment_letters`]).
    letters: usize,
}

/// Measures the markup of `noscripts`, the `<noscript>` elements of `dom` (noted as the blocks
/// were cut, so that no second walk of the tree looks for them).
fn noscript_markup(dom: &Dom, noscripts: &[NodeId]) -> NoscriptMarkup {
    let mut markup = NoscriptMarkup {
        largest: 0,
        letters: 0,
    };
    for &id in noscripts {
        let mut bytes = 0;
        for text in dom.children(id).filter_map(|child| dom.text(child)) {
            bytes += text.len();
            markup.letters += fragment_letters(text);
        }
        markup.largest = markup.largest.max(bytes);
    }
    markup
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
        base,
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

#[cfg(test)]
mod tests;
