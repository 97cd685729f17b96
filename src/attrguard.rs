//! A pass in front of the HTML tokenizer that keeps at most [`limits::MAX_ATTRIBUTES`] attributes
//! per tag. html5ever checks every new attribute against all earlier ones of its tag (duplicates
//! are dropped), so a tag with n attributes costs n² / 2 comparisons: a 5 MB page that is one tag
//! of 500,000 attributes would take minutes. Real tags have a few dozen attributes at most.
//!
//! The scan follows the tokenizer's states for tags (tag name, attribute name, quoted and unquoted
//! values, self-closing) and comments, so that it counts attributes where the tokenizer sees them;
//! where it is unsure (inside script or textarea text, which the tokenizer does not read as tags)
//! it errs toward counting, which at worst trims text that is dropped or is a pathological page
//! anyway. Bytes are scanned, not chars: every byte that matters is ASCII, which in UTF-8 never
//! occurs inside a multi-byte character, so every cut lands on a char boundary.

use std::borrow::Cow;

use crate::limits;

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Data,
    TagName,
    BeforeAttrName,
    AttrName,
    AfterAttrName,
    BeforeAttrValue,
    DoubleQuoted,
    SingleQuoted,
    Unquoted,
    AfterQuotedValue,
    SelfClosing,
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

/// `html` with the attributes of each tag beyond the first [`limits::MAX_ATTRIBUTES`] removed;
/// borrowed unchanged when no tag has that many (every real page).
pub(crate) fn limit_attributes(html: &str) -> Cow<'_, str> {
    let bytes = html.as_bytes();
    let mut out: Option<String> = None;
    // Copied up to here (into `out`).
    let mut copied = 0;
    let mut state = State::Data;
    let mut count = 0usize;
    // Where the tag's surplus attributes start, once it has too many.
    let mut cut: Option<usize> = None;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match state {
            State::Data => {
                let Some(lt) = bytes[i..].iter().position(|&c| c == b'<') else {
                    break;
                };
                i += lt + 1;
                match bytes.get(i) {
                    Some(c) if c.is_ascii_alphabetic() => {
                        state = State::TagName;
                        count = 0;
                    }
                    Some(b'/') if bytes.get(i + 1).is_some_and(u8::is_ascii_alphabetic) => {
                        i += 1;
                        state = State::TagName;
                        count = 0;
                    }
                    Some(b'!') if bytes[i..].starts_with(b"!--") => {
                        i = comment_end(bytes, i + 3);
                    }
                    Some(b'!' | b'?') | Some(b'/') => {
                        // Doctype and bogus comments end at the next '>'.
                        i = bytes[i..]
                            .iter()
                            .position(|&c| c == b'>')
                            .map_or(bytes.len(), |p| i + p + 1);
                    }
                    _ => {}
                }
                continue;
            }
            State::TagName => {
                if is_space(b) {
                    state = State::BeforeAttrName;
                } else if b == b'/' {
                    state = State::SelfClosing;
                } else if b == b'>' {
                    state = State::Data;
                }
            }
            State::BeforeAttrName => {
                if b == b'/' {
                    state = State::SelfClosing;
                } else if b == b'>' {
                    state = State::Data;
                } else if !is_space(b) {
                    state = State::AttrName;
                    count += 1;
                    if count > limits::MAX_ATTRIBUTES && cut.is_none() {
                        cut = Some(i);
                    }
                }
            }
            State::AttrName => {
                if is_space(b) {
                    state = State::AfterAttrName;
                } else if b == b'/' {
                    state = State::SelfClosing;
                } else if b == b'=' {
                    state = State::BeforeAttrValue;
                } else if b == b'>' {
                    state = State::Data;
                }
            }
            State::AfterAttrName => {
                if b == b'/' {
                    state = State::SelfClosing;
                } else if b == b'=' {
                    state = State::BeforeAttrValue;
                } else if b == b'>' {
                    state = State::Data;
                } else if !is_space(b) {
                    state = State::BeforeAttrName;
                    continue; // reconsumed as a new attribute's first byte
                }
            }
            State::BeforeAttrValue => {
                if b == b'"' {
                    state = State::DoubleQuoted;
                } else if b == b'\'' {
                    state = State::SingleQuoted;
                } else if b == b'>' {
                    state = State::Data;
                } else if !is_space(b) {
                    state = State::Unquoted;
                }
            }
            State::DoubleQuoted | State::SingleQuoted => {
                let quote = if state == State::DoubleQuoted {
                    b'"'
                } else {
                    b'\''
                };
                match bytes[i..].iter().position(|&c| c == quote) {
                    Some(p) => {
                        i += p;
                        state = State::AfterQuotedValue;
                    }
                    None => i = bytes.len(),
                }
            }
            State::Unquoted => {
                if is_space(b) {
                    state = State::BeforeAttrName;
                } else if b == b'>' {
                    state = State::Data;
                }
            }
            State::AfterQuotedValue => {
                if is_space(b) {
                    state = State::BeforeAttrName;
                } else if b == b'/' {
                    state = State::SelfClosing;
                } else if b == b'>' {
                    state = State::Data;
                } else {
                    state = State::BeforeAttrName;
                    continue;
                }
            }
            State::SelfClosing => {
                if b == b'>' {
                    state = State::Data;
                } else {
                    state = State::BeforeAttrName;
                    continue;
                }
            }
        }
        if state == State::Data
            && let Some(start) = cut.take()
        {
            // The tag ends at `i` (its '>'): drop its surplus attributes, keep the '>'.
            let s = out.get_or_insert_with(|| String::with_capacity(html.len()));
            s.push_str(&html[copied..start]);
            copied = i;
        }
        i += 1;
    }
    if out.is_none() && cut.is_none() {
        return Cow::Borrowed(html);
    }
    let mut s = out.unwrap_or_default();
    // A tag still open at the end of input: the tokenizer would read (and compare) all its
    // attributes before dropping it, so its surplus goes too.
    let end = cut.unwrap_or(html.len()).max(copied);
    s.push_str(&html[copied..end]);
    Cow::Owned(s)
}

/// Where a comment whose text starts at `from` ends (after its `-->`, `--!>`, or the abrupt
/// `<!-->` and `<!--->`), or the end of input.
fn comment_end(bytes: &[u8], from: usize) -> usize {
    let rest = &bytes[from..];
    if rest.starts_with(b">") {
        return from + 1;
    }
    if rest.starts_with(b"->") {
        return from + 2;
    }
    let mut j = from;
    while let Some(p) = bytes[j..].iter().position(|&c| c == b'-') {
        let at = j + p;
        if bytes[at..].starts_with(b"-->") {
            return at + 3;
        }
        if bytes[at..].starts_with(b"--!>") {
            return at + 4;
        }
        j = at + 1;
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn many(n: usize) -> String {
        (0..n).map(|i| format!(" a{i}=\"v>{i}\"")).collect()
    }

    #[test]
    fn real_pages_pass_unchanged() {
        for html in [
            "<p class=\"x\" id=y data-z>t</p>",
            "<!-- <div a b c> --><p>x</p>",
            "<img src=\"a>b\" alt='c\"d'/><br/>",
            "</p a=1>text < 3 > 2 <!doctype html><? pi ?>",
            "unterminated <div a=\"",
        ] {
            assert!(matches!(limit_attributes(html), Cow::Borrowed(_)), "{html}");
        }
    }

    #[test]
    fn surplus_attributes_are_dropped_and_the_rest_kept() {
        let html = format!(
            "<div{}>text</div><p{}>more</p>",
            many(limits::MAX_ATTRIBUTES + 500),
            many(3)
        );
        let out = limit_attributes(&html);
        let dom = crate::dom::Dom::parse(&out);
        let div = dom.first_element_by_name("div").unwrap();
        assert_eq!(dom.attrs(div).len(), limits::MAX_ATTRIBUTES);
        assert_eq!(dom.attr(div, "a0"), Some("v>0"));
        assert_eq!(dom.text_content(div), "text");
        let p = dom.first_element_by_name("p").unwrap();
        assert_eq!(dom.attrs(p).len(), 3);
        assert_eq!(dom.text_content(p), "more");
        // Unterminated at the end of input.
        let open = format!("<p>x</p><div{}", many(limits::MAX_ATTRIBUTES * 2));
        let out = limit_attributes(&open);
        assert!(out.len() < open.len() / 2, "{}", out.len());
        assert!(out.starts_with("<p>x</p><div a0="));
    }

    #[test]
    fn bare_unquoted_and_self_closing_attributes_count() {
        let bare: String = (0..limits::MAX_ATTRIBUTES * 3)
            .map(|i| format!(" b{i} c{i}=x/"))
            .collect();
        let html = format!("<span{bare}>kept</span>");
        let dom = crate::dom::Dom::parse(&limit_attributes(&html));
        let span = dom.first_element_by_name("span").unwrap();
        assert!(dom.attrs(span).len() <= limits::MAX_ATTRIBUTES);
        assert_eq!(dom.text_content(span), "kept");
    }
}
