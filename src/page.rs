//! Page → blocks: a decoded HTML document cut into ordered text and image blocks, each with the
//! shallow features and the hash the rest of the engine works on (DESIGN.md §Blocks).

use crate::dom::{Dom, NodeId};

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
    /// `<p>`, or text in a generic container.
    Paragraph,
    /// `<li>`, `<dt>`, `<dd>`.
    ListItem,
    /// `<blockquote>`.
    Quote,
    /// `<pre>`.
    Preformatted,
    /// `<td>`, `<th>`.
    TableCell,
    /// `<figcaption>`, `<caption>`.
    Caption,
    /// An `<img>` (or lazy image) with a usable source.
    Image,
    /// Anything else that holds text directly (div text, `<br>`-separated runs, spans at top level).
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
    /// Number of words (white-space separated tokens with at least one letter or digit).
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
}
