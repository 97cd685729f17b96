//! A page with its class names made unreadable, for `pith eval --unnamed`: how much of pith's
//! quality rests on the words sites put in their class names (`comments`, `share`, `sidebar`).
//! Sites built with CSS-in-JS or a minifier print names such as `sc-bdVaJa` or `css-1x2y3z`,
//! and a reader meets them every day; what the page's structure, text and semantic elements say
//! must carry those pages. Every class token is replaced by an opaque one derived from it, so
//! that what was alike stays alike (the posts of a thread still share their class) and only the
//! words are gone. Ids, element names, roles and structured data are left as they are.

/// `html` with the tokens of every `class` attribute replaced by opaque ones ([`opaque`]).
/// Comments and the text of raw-text elements (`<script>`, `<style>`, `<textarea>`, `<title>`,
/// …) are copied as they are, so a sheet's selectors keep their names and no longer match (as
/// on a site whose names are generated, the sheet would name the generated ones).
pub fn hide_class_names(html: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(html.len());
    let mut i = 0;
    while i < html.len() {
        if html[i] != b'<' {
            out.push(html[i]);
            i += 1;
            continue;
        }
        if html[i..].starts_with(b"<!--") {
            let end = find(html, i + 4, b"-->").map_or(html.len(), |e| e + 3);
            out.extend_from_slice(&html[i..end]);
            i = end;
            continue;
        }
        if !html.get(i + 1).is_some_and(u8::is_ascii_alphabetic) {
            out.push(b'<');
            i += 1;
            continue;
        }
        let name_end = i
            + 1
            + html[i + 1..]
                .iter()
                .position(|b| b.is_ascii_whitespace() || matches!(b, b'>' | b'/'))
                .unwrap_or(html.len() - i - 1);
        let name = &html[i + 1..name_end];
        out.extend_from_slice(&html[i..name_end]);
        i = copy_attributes(html, name_end, &mut out);
        if let Some(raw) = RAW_TEXT.iter().find(|r| name.eq_ignore_ascii_case(r)) {
            // The element's text runs to its end tag, markup or not.
            let mut close = Vec::with_capacity(raw.len() + 2);
            close.extend_from_slice(b"</");
            close.extend_from_slice(raw);
            let end = find_ci(html, i, &close).unwrap_or(html.len());
            out.extend_from_slice(&html[i..end]);
            i = end;
        }
    }
    out
}

/// Elements whose content is text to the HTML tokenizer, not markup.
const RAW_TEXT: &[&[u8]] = &[
    b"script",
    b"style",
    b"textarea",
    b"title",
    b"xmp",
    b"iframe",
    b"noembed",
    b"noframes",
    b"plaintext",
];

/// Copies a start tag's attributes from `at` (just after its name) through its closing `>`,
/// replacing the value of a `class` attribute; returns where the tag ends.
fn copy_attributes(html: &[u8], mut at: usize, out: &mut Vec<u8>) -> usize {
    while at < html.len() {
        let b = html[at];
        if b == b'>' {
            out.push(b);
            return at + 1;
        }
        if b.is_ascii_whitespace() || b == b'/' {
            out.push(b);
            at += 1;
            continue;
        }
        // An attribute's name, then perhaps `=` and a value.
        let name_end = at
            + html[at..]
                .iter()
                .position(|b| b.is_ascii_whitespace() || matches!(b, b'=' | b'>' | b'/'))
                .unwrap_or(html.len() - at);
        let is_class = html[at..name_end].eq_ignore_ascii_case(b"class");
        out.extend_from_slice(&html[at..name_end]);
        at = name_end;
        let mut look = at;
        while html.get(look).is_some_and(u8::is_ascii_whitespace) {
            look += 1;
        }
        if html.get(look) != Some(&b'=') {
            continue;
        }
        out.extend_from_slice(&html[at..=look]);
        at = look + 1;
        while html.get(at).is_some_and(u8::is_ascii_whitespace) {
            out.push(html[at]);
            at += 1;
        }
        // The value, where the tag goes on after it, and its quotes as written (the closing one
        // missing in a damaged page's last tag).
        let (value, next, opening, closing) = match html.get(at) {
            Some(&q @ (b'"' | b'\'')) => match html[at + 1..].iter().position(|&b| b == q) {
                Some(p) => (&html[at + 1..at + 1 + p], at + p + 2, Some(q), Some(q)),
                None => (&html[at + 1..], html.len(), Some(q), None),
            },
            _ => {
                let end = at
                    + html[at..]
                        .iter()
                        .position(|b| b.is_ascii_whitespace() || *b == b'>')
                        .unwrap_or(html.len() - at);
                (&html[at..end], end, None, None)
            }
        };
        out.extend(opening);
        if is_class {
            write_opaque_tokens(value, out);
        } else {
            out.extend_from_slice(value);
        }
        out.extend(closing);
        at = next;
    }
    html.len()
}

/// Writes `value`'s white-space-separated tokens as opaque ones, with the white space between.
fn write_opaque_tokens(value: &[u8], out: &mut Vec<u8>) {
    let mut start = None;
    for (i, &b) in value.iter().enumerate() {
        match (b.is_ascii_whitespace(), start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                out.extend_from_slice(opaque(&value[s..i]).as_bytes());
                out.push(b);
                start = None;
            }
            (true, None) => out.push(b),
            (false, Some(_)) => {}
        }
    }
    if let Some(s) = start {
        out.extend_from_slice(opaque(&value[s..]).as_bytes());
    }
}

/// An opaque class token for `token`: the same for the same token, holding none of its words
/// (`x` and eight hex digits of its FNV-1a hash).
pub fn opaque(token: &[u8]) -> String {
    let mut hash: u32 = 0x811c_9dc5;
    for &b in token {
        hash ^= u32::from(b);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    format!("x{hash:08x}")
}

fn find(haystack: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    haystack
        .get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| from + p)
}

fn find_ci(haystack: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    haystack
        .get(from..)?
        .windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle))
        .map(|p| from + p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hidden(html: &str) -> String {
        String::from_utf8(hide_class_names(html.as_bytes())).unwrap()
    }

    #[test]
    fn class_tokens_become_opaque_and_alike_stays_alike() {
        let out = hidden(r#"<div class="post  comments" id=main><p class=post>x</p></div>"#);
        let (post, comments) = (opaque(b"post"), opaque(b"comments"));
        assert_eq!(
            out,
            format!(r#"<div class="{post}  {comments}" id=main><p class={post}>x</p></div>"#)
        );
        assert!(!out.contains("comments") && out.contains("id=main"));
    }

    #[test]
    fn other_attributes_text_comments_and_raw_text_stay() {
        let html = "<a href='/class=x' data-class=\"share\" CLASS = 'share'>class=\"share\"</a>\
                    <!-- <b class=share> --><script>var s = '<i class=\"share\">';</script>\
                    <style>.share{display:none}</style><br/><p class>t</p>";
        let out = hidden(html);
        let share = opaque(b"share");
        assert_eq!(
            out,
            format!(
                "<a href='/class=x' data-class=\"share\" CLASS = '{share}'>class=\"share\"</a>\
                 <!-- <b class=share> --><script>var s = '<i class=\"share\">';</script>\
                 <style>.share{{display:none}}</style><br/><p class>t</p>"
            )
        );
    }

    #[test]
    fn damaged_markup_ends_without_a_panic() {
        for html in [
            "<div class=\"open",
            "<div class=",
            "<div class",
            "<",
            "<script>never closed",
            "<!-- open",
            "<p class='a'",
            "\u{e9}<b class=\u{e9}t\u{e9}>",
        ] {
            let out = hide_class_names(html.as_bytes());
            assert!(out.len() >= html.len().min(1), "{html:?}");
        }
        assert_eq!(
            hidden("<div class=\"open"),
            format!("<div class=\"{}", opaque(b"open"))
        );
    }
}
