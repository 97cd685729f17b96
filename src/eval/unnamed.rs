//! A page with its class names made unreadable, for `pith eval --unnamed`: how much of pith's
//! quality rests on the words sites put in their class names (`comments`, `share`, `sidebar`).
//! Sites built with CSS-in-JS or a minifier print names such as `sc-bdVaJa` or `css-1x2y3z`,
//! and a reader meets them every day; what the page's structure, text and semantic elements say
//! must carry those pages. Every class token is replaced by an opaque one derived from it, so
//! that what was alike stays alike (the posts of a thread still share their class) and only the
//! words are gone. Ids, element names, roles and structured data are left as they are.

/// `html` with the tokens of every `class` attribute replaced by opaque ones ([`opaque`]).
/// Comments and the text of raw-text elements (`<script>`, `<textarea>`, `<title>`, …) are
/// copied as they are; a `<style>` sheet's class selectors get the same opaque names as the
/// elements ([`write_opaque_sheet`]), since on a site whose names are generated the sheet names
/// the generated ones and still matches.
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
            let end = comment_end(html, i + 4);
            out.extend_from_slice(&html[i..end]);
            i = end;
            continue;
        }
        if matches!(html.get(i + 1), Some(b'!' | b'?')) {
            // A doctype, a bogus comment (`<?php … ?>`, `<![CDATA[`): text up to the next `>`.
            let end = find(html, i + 2, b">").map_or(html.len(), |e| e + 1);
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
        if is_raw_text(name) {
            // The element's text runs to its end tag, markup or not.
            let end = if name.eq_ignore_ascii_case(b"script") {
                script_end(html, i)
            } else {
                end_tag(html, i, name).unwrap_or(html.len())
            };
            if name.eq_ignore_ascii_case(b"style") {
                write_opaque_sheet(&html[i..end], &mut out);
            } else {
                out.extend_from_slice(&html[i..end]);
            }
            i = end;
        }
    }
    out
}

/// Writes a `<style>` sheet with its class selectors' names made opaque as the elements' are
/// (`.share` → `.x…z`), so that a rule still matches the elements it named, as on a site whose
/// generated names the sheet names too. A name is read as pith's sheet reader reads one: ASCII
/// letters, digits, `-` and `_`, not starting with a digit (`1.5em` is a number); one that goes
/// on with an escape (`.md\:hidden`) is left whole, as pith's reader never reads escaped names.
/// Comments, strings and escapes are copied as they are (a `.png` in an unquoted `url(…)` is
/// renamed, which no reader of the sheet minds).
fn write_opaque_sheet(sheet: &[u8], out: &mut Vec<u8>) {
    let is_name_byte = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_');
    let mut at = 0;
    while at < sheet.len() {
        let b = sheet[at];
        match b {
            b'/' if sheet.get(at + 1) == Some(&b'*') => {
                let end = find(sheet, at + 2, b"*/").map_or(sheet.len(), |e| e + 2);
                out.extend_from_slice(&sheet[at..end]);
                at = end;
            }
            b'"' | b'\'' => {
                // A string ends at its quote, or (unclosed, as CSS reads it) at the line's end; an
                // escaped quote (`"\""`) does not end it.
                let mut end = at + 1;
                while end < sheet.len() && sheet[end] != b && sheet[end] != b'\n' {
                    end += if sheet[end] == b'\\' { 2 } else { 1 };
                }
                let end = (end + 1).min(sheet.len());
                out.extend_from_slice(&sheet[at..end]);
                at = end;
            }
            b'\\' => {
                // An escape and the character it escapes (`.a\.b` is one name, `a.b`).
                let end = (at + 2).min(sheet.len());
                out.extend_from_slice(&sheet[at..end]);
                at = end;
            }
            b'.' if sheet
                .get(at + 1)
                .is_some_and(|&c| is_name_byte(c) && !c.is_ascii_digit()) =>
            {
                let start = at + 1;
                let end = start
                    + sheet[start..]
                        .iter()
                        .position(|&c| !is_name_byte(c))
                        .unwrap_or(sheet.len() - start);
                out.push(b'.');
                if sheet.get(end) == Some(&b'\\') {
                    out.extend_from_slice(&sheet[start..end]);
                } else {
                    out.extend_from_slice(opaque(&sheet[start..end]).as_bytes());
                }
                at = end;
            }
            _ => {
                out.push(b);
                at += 1;
            }
        }
    }
}

/// True when the element named `name` holds text to the HTML tokenizer, not markup (the DOM
/// guard's list). `<noscript>` is read as markup, as pith reads it where a page shows no prose,
/// so its classes go too.
fn is_raw_text(name: &[u8]) -> bool {
    let Ok(name) = std::str::from_utf8(name) else {
        return false;
    };
    let name = html5ever::LocalName::from(name.to_ascii_lowercase());
    name != html5ever::local_name!("noscript") && crate::dom::is_raw_text(&name)
}

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
/// (`x`, eight hex digits of its FNV-1a hash, and `z`). It ends in a letter so that it reads as
/// a generated hash, as CSS-in-JS names do: a token ending in digits (`x17676759`) would read as
/// a word and a number to the site memory's signatures, which fold numbers, and different
/// boxes would share one signature.
pub fn opaque(token: &[u8]) -> String {
    let mut hash: u32 = 0x811c_9dc5;
    for &b in token {
        hash ^= u32::from(b);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    format!("x{hash:08x}z")
}

/// Where a comment whose text starts at `from` (after `<!--`) ends, past its closing: `<!-->` and
/// `<!--->` end at once, and `--!>` closes one as `-->` does.
fn comment_end(html: &[u8], from: usize) -> usize {
    let rest = html.get(from..).unwrap_or_default();
    if rest.starts_with(b">") {
        return from + 1;
    }
    if rest.starts_with(b"->") {
        return from + 2;
    }
    // `--!>` counts only before the first `-->`: each is searched once, so a page of many
    // comments costs its length, not its length times its comments.
    let close = find(html, from, b"-->");
    let bound = close.unwrap_or(html.len());
    match find(&html[..bound], from, b"--!>") {
        Some(bang) => bang + 4,
        None => close.map_or(html.len(), |e| e + 3),
    }
}

/// The first end tag of `name` at or after `from`: `</name` followed by white space, `/` or `>`
/// (`</scripts` is no end tag of `script`).
fn end_tag(html: &[u8], from: usize, name: &[u8]) -> Option<usize> {
    tag(html, from, b"</", name)
}

/// The first `opening` (`<` or `</`) followed by `name` and then white space, `/` or `>`, at or
/// after `from`.
fn tag(html: &[u8], from: usize, opening: &[u8], name: &[u8]) -> Option<usize> {
    let mut at = from;
    loop {
        let found = find_ci(html, at, opening)?;
        let after = found + opening.len();
        if html
            .get(after..after + name.len())
            .is_some_and(|n| n.eq_ignore_ascii_case(name))
            && html
                .get(after + name.len())
                .is_none_or(|b| b.is_ascii_whitespace() || matches!(b, b'/' | b'>'))
        {
            return Some(found);
        }
        at = after;
    }
}

/// Where a script's text that starts at `from` ends, as the HTML tokenizer reads it: at the first
/// `</script>`, but for one inside a `<!--` section that opened a `<script` of its own (old ad
/// code's `document.write('<!--<script>…</script>-->')`), which closes that one.
fn script_end(html: &[u8], from: usize) -> usize {
    #[derive(PartialEq)]
    enum State {
        Text,
        Escaped,
        DoubleEscaped,
    }
    let mut state = State::Text;
    let mut at = from;
    // The next `</script`, found again only once passed: every search below stops at it, so a
    // script of many comments costs its length.
    let mut close = end_tag(html, at, b"script");
    loop {
        if close.is_some_and(|c| c < at) {
            close = end_tag(html, at, b"script");
        }
        let bound = close.unwrap_or(html.len());
        let before = &html[..bound];
        let (comment_open, comment_close, inner_open) = match state {
            State::Text => (find(before, at, b"<!--"), None, None),
            State::Escaped => {
                // A `<script` counts only before the section's `-->`.
                let comment_close = find(before, at, b"-->");
                let inner = &before[..comment_close.unwrap_or(before.len())];
                (None, comment_close, tag(inner, at, b"<", b"script"))
            }
            State::DoubleEscaped => (None, find(before, at, b"-->"), None),
        };
        // The earliest of the events this state knows; the end tag comes last of all.
        let event = [(comment_open, 1u8), (comment_close, 2), (inner_open, 3)]
            .iter()
            .filter_map(|&(p, e)| p.map(|p| (p, e)))
            .min();
        match (event, &state) {
            (None, State::DoubleEscaped) => match close {
                // The inner script's end: back to the escaped text.
                Some(c) => {
                    state = State::Escaped;
                    at = c + 2;
                }
                None => return html.len(),
            },
            (None, _) => return close.unwrap_or(html.len()),
            (Some((position, 1)), _) => {
                // After `<!`: `<!-->` and `<!--->` close at once, as the tokenizer reads them.
                state = State::Escaped;
                at = position + 2;
            }
            (Some((position, 2)), _) => {
                state = State::Text;
                at = position + 3;
            }
            (Some((position, _)), _) => {
                state = State::DoubleEscaped;
                at = position + 7;
            }
        }
    }
}

/// The first `needle` in `haystack` at or after `from`.
fn find(haystack: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    crate::charset::find(haystack.get(from..)?, needle).map(|p| from + p)
}

/// The first `needle` in `haystack` at or after `from`, ASCII case ignored.
fn find_ci(haystack: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    crate::charset::find_ignore_case(haystack.get(from..)?, needle).map(|p| from + p)
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
    fn other_attributes_text_comments_and_raw_text_stay_but_a_sheets_names() {
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
                 <style>.{share}{{display:none}}</style><br/><p class>t</p>"
            )
        );
    }

    /// A sheet's class selectors are renamed as the elements are, so a rule that hid a class
    /// still hides it; numbers, escaped names, strings and comments stay as written.
    #[test]
    fn a_sheets_class_selectors_get_the_elements_opaque_names() {
        let (hidden_at, b) = (opaque(b"hidden-md_2"), opaque(b"b"));
        let html = "<style>@media (min-width:1px){.hidden-md_2{display:none}}\
                    a.b,.md\\:hidden{margin:1.5em .5em -.25em}\
                    /* .note */ p::after{content:\".quoted\"}\
                    q{quotes:'.open\n.b{}\
                    i::before{content:\"\\\".in\"}.a\\.b{}.b{}</style><i class='hidden-md_2'>";
        assert_eq!(
            hidden(html),
            format!(
                "<style>@media (min-width:1px){{.{hidden_at}{{display:none}}}}\
                 a.{b},.md\\:hidden{{margin:1.5em .5em -.25em}}\
                 /* .note */ p::after{{content:\".quoted\"}}\
                 q{{quotes:'.open\n.{b}{{}}\
                 i::before{{content:\"\\\".in\"}}.a\\.b{{}}.{b}{{}}</style><i class='{hidden_at}'>"
            )
        );
    }

    /// The page reads as the named one did where its sheet hides a breakpoint's copy: the
    /// rename keeps the rule and the elements it hides together.
    #[test]
    fn a_copy_the_sheet_hides_stays_hidden_once_the_names_go() {
        let html = "<html><head><style>@media (min-width: 1200px) { .hidden-desk { display: \
                    none } }</style></head><body><div class=hidden-desk><p>The phone copy of \
                    the paragraph.</p></div><div class=hidden-phone><p>The desktop copy of the \
                    paragraph.</p></div></body></html>";
        let unnamed = hidden(html);
        let texts = |html: &str| -> Vec<String> {
            crate::page::page_from_html(html, None)
                .blocks
                .iter()
                .map(|b| b.text.clone())
                .collect()
        };
        assert_eq!(texts(&unnamed), ["The desktop copy of the paragraph."]);
        assert_eq!(texts(&unnamed), texts(html));
    }

    /// An opaque token reads as a generated hash to the site memory's signatures, whatever its
    /// digits: none folds into another (`article`'s hash is all decimal digits).
    #[test]
    fn an_opaque_token_is_never_folded_as_a_number() {
        for token in [&b"article"[..], b"body", b"comments", b"x"] {
            let name = opaque(token);
            let page = crate::page::page_from_html(
                &format!("<body><div class={name}><p>Text.</p></div></body>"),
                None,
            );
            let div = page.dom.first_element_by_name("div").unwrap();
            assert_eq!(
                crate::classify::signature::signature(&page.dom, div),
                Some(format!("div.{name}")),
            );
        }
    }

    #[test]
    fn damaged_markup_keeps_its_bytes_and_ends() {
        let open = opaque(b"open");
        for (html, want) in [
            (
                "<div class=\"open".to_owned(),
                format!("<div class=\"{open}"),
            ),
            ("<div class=".to_owned(), "<div class=".to_owned()),
            ("<div class".to_owned(), "<div class".to_owned()),
            ("<".to_owned(), "<".to_owned()),
            ("a < b".to_owned(), "a < b".to_owned()),
            (
                "<script>never closed".to_owned(),
                "<script>never closed".to_owned(),
            ),
            (
                "<!-- open <b class=x>".to_owned(),
                "<!-- open <b class=x>".to_owned(),
            ),
            ("<p class='open'".to_owned(), format!("<p class='{open}'")),
            (
                "\u{e9}<b class=\u{e9}t\u{e9}>".to_owned(),
                format!("\u{e9}<b class={}>", opaque("\u{e9}t\u{e9}".as_bytes())),
            ),
        ] {
            assert_eq!(hidden(&html), want, "{html:?}");
        }
    }

    /// What the HTML tokenizer reads as no markup stays as it is: comments however they close,
    /// doctypes and bogus comments (a template's `<?php … ?>` with a quote in it), and a script
    /// up to its own end tag.
    #[test]
    fn comments_bogus_comments_and_scripts_are_read_as_the_tokenizer_reads_them() {
        let x = opaque(b"x");
        for (html, want) in [
            ("<!--><b class=x>".to_owned(), format!("<!--><b class={x}>")),
            (
                "<!---><b class=x>".to_owned(),
                format!("<!---><b class={x}>"),
            ),
            (
                "<!-- a --!><b class=x>".to_owned(),
                format!("<!-- a --!><b class={x}>"),
            ),
            (
                "<!DOCTYPE html><?php echo '<span class=\"'; ?><b class=x>".to_owned(),
                format!("<!DOCTYPE html><?php echo '<span class=\"'; ?><b class={x}>"),
            ),
            (
                "<script>a = '</scripts><b class=\"x\">';</script><b class=x>".to_owned(),
                format!("<script>a = '</scripts><b class=\"x\">';</script><b class={x}>"),
            ),
            (
                "<script><!-- w('<script>s()</script><i class=\"x\">') --></script><b class=x>"
                    .to_owned(),
                format!(
                    "<script><!-- w('<script>s()</script><i class=\"x\">') --></script><b class={x}>"
                ),
            ),
            (
                "<script><!-- plain </script><b class=x>".to_owned(),
                format!("<script><!-- plain </script><b class={x}>"),
            ),
            (
                "<script><!-->w('<script>s()</script><i class=x>')</script>".to_owned(),
                format!("<script><!-->w('<script>s()</script><i class={x}>')</script>"),
            ),
        ] {
            assert_eq!(hidden(&html), want, "{html:?}");
        }
    }
}
