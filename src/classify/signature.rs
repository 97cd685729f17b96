//! DOM signatures of content containers: a way to name "the same container" on every page of a
//! site, so that the site's pages can agree on where their content lives.
//!
//! A signature is the element path from `<body>` (exclusive) down to the container, each step written
//! `tag`, `tag#id`, `tag.class` or `tag#id.class`. Only the first class is kept, because later classes
//! tend to vary per page (WordPress's `category-…`, `tag-…`, `has-thumbnail`), and a number becomes
//! `0`, because ids like `post-48213` number the article rather than name the container; the
//! digits of a generated name (`sc-643c51a4`) are part of it and stay (see [`push_folded`]).

use crate::dom::{Dom, NodeId};

/// Longest signature kept, in steps: containers deeper than this are named by their last steps.
const MAX_STEPS: usize = 40;

/// One step, with or without the element's id.
fn step_with(dom: &Dom, node: NodeId, with_id: bool) -> Option<String> {
    let mut out = String::with_capacity(24);
    step_into(dom, node, with_id, &mut out).then_some(out)
}

/// Writes one step into `out` (cleared first); false when `node` is not an element.
fn step_into(dom: &Dom, node: NodeId, with_id: bool, out: &mut String) -> bool {
    out.clear();
    let Some(name) = dom.element_name(node) else {
        return false;
    };
    out.push_str(name);
    if let Some(id) = dom
        .attr(node, "id")
        .map(str::trim)
        .filter(|s| with_id && !s.is_empty())
    {
        out.push('#');
        push_folded(out, id);
    }
    if let Some(class) = dom
        .attr(node, "class")
        .and_then(|c| c.split_ascii_whitespace().next())
    {
        out.push('.');
        push_folded(out, class);
    }
    true
}

/// Appends `text` with its numbers folded to one `0` and separators escaped, so that numbered ids
/// of the same container compare equal and a step never contains `/`. A number is a run of ASCII
/// digits that stands as a part of the name by itself (`post-48213`, `zn--idx-0`) or ends a part
/// that is otherwise letters (`post48213`, `item12`). A part that mixes letters and digits
/// throughout (`sc-643c51a4-0`'s `643c51a4`, `css-1x2y3z`) is a generated hash: its digits are
/// part of its identity, and folding them would make different boxes of the page one signature.
pub(crate) fn push_folded(out: &mut String, text: &str) {
    // Parts are the runs of letters and digits between separators; each is written whole.
    let mut rest = text;
    while !rest.is_empty() {
        let part_len = rest
            .char_indices()
            .find(|&(_, c)| !c.is_alphanumeric())
            .map_or(rest.len(), |(i, _)| i);
        let (part, after) = rest.split_at(part_len);
        push_part(out, part);
        let mut chars = after.chars();
        if let Some(separator) = chars.next() {
            out.push(match separator {
                '/' | ' ' => '_',
                c => c,
            });
        }
        rest = chars.as_str();
    }
}

/// `name` with its numbers folded as a signature's steps fold them ([`push_folded`]): what
/// tells boxes made from one template (`card-12`, `card-7`) from boxes of different ones
/// (`sc-643c51a4`, `sc-913e22b0`).
pub fn fold_numbers(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    push_folded(&mut out, name);
    out
}

/// Writes one part of a name (letters and digits): a number, or letters ending in a number, with
/// the number as `0`; any other part as it is.
fn push_part(out: &mut String, part: &str) {
    let letters_end = part
        .char_indices()
        .find(|&(_, c)| c.is_ascii_digit())
        .map_or(part.len(), |(i, _)| i);
    let (letters, digits) = part.split_at(letters_end);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        out.push_str(letters);
        out.push('0');
    } else {
        out.push_str(part);
    }
}

/// The signature of `node`, or `None` when it is not an element below `<body>`.
pub fn signature(dom: &Dom, node: NodeId) -> Option<String> {
    path(dom, node, true)
}

/// The signature of `node` without ids: coarser, for places a site fills per page, where ids are
/// often generated (`msnbc7aff0b5…`, a player's random name) and would never repeat.
pub fn class_path(dom: &Dom, node: NodeId) -> Option<String> {
    path(dom, node, false)
}

fn path(dom: &Dom, node: NodeId, with_id: bool) -> Option<String> {
    let mut steps = Vec::new();
    let mut current = Some(node);
    while let Some(n) = current {
        match dom.element_name(n) {
            Some("body") | Some("html") => break,
            Some(_) => {
                if let Some(s) = step_with(dom, n, with_id) {
                    steps.push(s);
                }
            }
            None => return None,
        }
        current = dom.parent(n);
    }
    if steps.is_empty() {
        return None;
    }
    steps.truncate(MAX_STEPS);
    steps.reverse();
    Some(steps.join("/"))
}

/// Every element of `dom` whose signature is `wanted`, found by walking down from `<body>` one step
/// at a time (no signature is computed for elements off the path).
pub fn find(dom: &Dom, wanted: &str) -> Vec<NodeId> {
    let Some(body) = dom.body() else {
        return Vec::new();
    };
    let steps: Vec<&str> = wanted.split('/').collect();
    if steps.len() >= MAX_STEPS {
        // A truncated signature no longer starts at <body>; matching it from the top would be wrong.
        return Vec::new();
    }
    let mut frontier = vec![body];
    // One buffer for every child's step: a site's signatures are looked up on every page.
    let mut buffer = String::with_capacity(32);
    for want in steps {
        let mut next = Vec::new();
        for &parent in &frontier {
            for child in dom.children(parent) {
                // The tag is the step's start: most children are rejected on it alone.
                let tag_fits = dom.element_name(child).is_some_and(|name| {
                    want.strip_prefix(name)
                        .is_some_and(|rest| rest.is_empty() || rest.starts_with(['#', '.']))
                });
                if tag_fits && step_into(dom, child, true, &mut buffer) && buffer == want {
                    next.push(child);
                }
            }
        }
        if next.is_empty() {
            return Vec::new();
        }
        frontier = next;
    }
    frontier
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::page_from_html;

    fn node_with_id(dom: &Dom, id: &str) -> NodeId {
        dom.element_with_id(id).expect("element with id")
    }

    #[test]
    fn signatures_fold_numbers_and_keep_the_first_class() {
        let page = page_from_html(
            r#"<html><body class="single postid-5"><div id="wrap"><article id="post-48213"
            class="post-48213 post type-post category-news"><p>Text</p></article></div></body></html>"#,
            None,
        );
        let node = node_with_id(&page.dom, "post-48213");
        assert_eq!(
            signature(&page.dom, node).as_deref(),
            Some("div#wrap/article#post-0.post-0")
        );
    }

    /// A generated name's digits are part of it: folding them would make the boxes of a page
    /// built with CSS-in-JS (or of one read without its names) one signature.
    #[test]
    fn a_generated_names_digits_stay_and_numbers_fold() {
        let folded = |name: &str| {
            let mut out = String::new();
            push_folded(&mut out, name);
            out
        };
        for (name, want) in [
            ("post-48213", "post-0"),
            ("post48213", "post0"),
            ("zn--idx-12", "zn--idx-0"),
            ("2017/03 x", "0_0_x"),
            ("sc-643c51a4-0", "sc-643c51a4-0"),
            ("css-1x2y3z", "css-1x2y3z"),
            ("x3e59b148", "x3e59b148"),
            ("x0e0b0", "x0e0b0"),
            ("h2", "h0"),
            ("\u{e9}t\u{e9}-7", "\u{e9}t\u{e9}-0"),
            ("", ""),
            ("--", "--"),
        ] {
            assert_eq!(folded(name), want, "{name}");
        }
    }

    #[test]
    fn the_same_container_is_found_on_another_page() {
        let a = page_from_html(
            r#"<body><div id="main"><div class="story" id="s-1"><p>One</p></div></div></body>"#,
            None,
        );
        let b = page_from_html(
            r#"<body><div id="main"><div class="ad">x</div><div class="story" id="s-22"><p>Two</p></div></div></body>"#,
            None,
        );
        let sig = signature(&a.dom, node_with_id(&a.dom, "s-1")).unwrap();
        let found = find(&b.dom, &sig);
        assert_eq!(found, vec![node_with_id(&b.dom, "s-22")]);
        assert!(find(&b.dom, "div#main/section.story").is_empty());
        assert!(find(&b.dom, "").is_empty());
    }

    #[test]
    fn body_and_non_elements_have_no_signature() {
        let page = page_from_html("<body><p>x</p></body>", None);
        let body = page.dom.first_element_by_name("body").unwrap();
        assert_eq!(signature(&page.dom, body), None);
        let empty = page_from_html("", None);
        assert!(find(&empty.dom, "div").is_empty());
    }
}
