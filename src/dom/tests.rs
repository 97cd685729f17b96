use super::*;
use crate::limits::{MAX_DEPTH, MAX_TEXT_NODE_BYTES};
use html5ever::local_name;
use std::time::Instant;

fn names(dom: &Dom, ids: impl Iterator<Item = NodeId>) -> Vec<String> {
    ids.map(|id| match dom.data(id) {
        Some(NodeData::Element(e)) => e.name.local.to_string(),
        Some(NodeData::Text(t)) => format!("#{t}"),
        Some(NodeData::Document) => "#document".into(),
        None => "?".into(),
    })
    .collect()
}

#[test]
fn builds_a_tree() {
    let dom = Dom::parse(
        "<!DOCTYPE html><title>T</title><!-- gone --><p class=a id=x>Hello &amp; <b>bold</b>",
    );
    assert_eq!(
        names(&dom, dom.descendants(dom.root())),
        [
            "html",
            "head",
            "title",
            "#T",
            "body",
            "p",
            "#Hello & ",
            "b",
            "#bold"
        ]
    );
    let p = dom.first_element_by_name("p").unwrap();
    assert_eq!(dom.attr(p, "class"), Some("a"));
    assert_eq!(dom.attr(p, "id"), Some("x"));
    assert_eq!(dom.attr(p, "style"), None);
    assert_eq!(dom.element_name(p), Some("p"));
    assert!(dom.is_html(p, &local_name!("p")));
    assert_eq!(dom.namespace(p), Some(&ns!(html)));
    assert_eq!(names(&dom, dom.children(p)), ["#Hello & ", "b"]);
    assert_eq!(names(&dom, dom.ancestors(p)), ["body", "html", "#document"]);
    assert_eq!(dom.parent(dom.root()), None);
    assert_eq!(dom.text_content(p), "Hello & bold");
    let b = dom.first_element_by_name("b").unwrap();
    assert_eq!(
        dom.prev_sibling(b).and_then(|t| dom.text(t)),
        Some("Hello & ")
    );
    assert_eq!(dom.next_sibling(b), None);
    assert_eq!(dom.depth(b), 4);
    assert!(dom.is_element(b) && !dom.is_text(b));
    assert_eq!(dom.limits_hit(), LimitsHit::default());
    // Unknown ids are answered, not panicked on.
    assert_eq!(dom.parent(NodeId::MAX), None);
    assert_eq!(dom.element_name(NodeId::MAX), None);
    assert_eq!(dom.children(NodeId::MAX).count(), 0);
    assert_eq!(dom.descendants(NodeId::MAX).count(), 0);
}

#[test]
fn traverse_opens_and_closes() {
    let dom = Dom::parse("<body><div><p>a</p><script>x</script></div><i>b</i>");
    let body = dom.first_element_by_name("body").unwrap();
    let mut walk = dom.traverse(body);
    let mut seen = Vec::new();
    while let Some(edge) = walk.next() {
        match edge {
            Edge::Open(id) => {
                seen.push(format!("<{}", names(&dom, std::iter::once(id))[0]));
                if dom.element_name(id) == Some("script") {
                    walk.skip_children();
                }
            }
            Edge::Close(id) => seen.push(format!("{}>", names(&dom, std::iter::once(id))[0])),
        }
    }
    assert_eq!(
        seen.join(" "),
        "<body <div <p <#a #a> p> <script script> div> <i <#b #b> i> body>"
    );
}

#[test]
fn adjacent_text_merges_and_misnesting_is_repaired() {
    let dom = Dom::parse("<p>a<!-- c -->b</p><b>1<p>2</b>3</p>");
    let body = dom.first_element_by_name("body").unwrap();
    let p = dom.first_child(body).unwrap();
    assert_eq!(names(&dom, dom.children(p)), ["#ab"]);
    // The adoption agency: <b>1<p>2</b>3</p> → <b>1</b><p><b>2</b>3</p>.
    assert_eq!(
        names(&dom, dom.descendants(body)),
        ["p", "#ab", "b", "#1", "p", "b", "#2", "#3"]
    );
}

#[test]
fn parsing_continues_after_meta_charset_and_across_chunks() {
    // html5ever pauses at a `<meta charset>`; the rest of the page must still be parsed.
    let dom = Dom::parse("<head><meta charset=utf-8></head><body><p>after meta</p>");
    assert_eq!(dom.text_content(dom.root()), "after meta");
    // Text spanning the parser's input chunks arrives whole, multi-byte chars intact.
    let long = "ж".repeat(INPUT_CHUNK_BYTES);
    let dom = Dom::parse(&format!("<p>a{long}b</p>"));
    let p = dom.first_element_by_name("p").unwrap();
    assert_eq!(dom.children(p).count(), 1);
    assert_eq!(dom.text_content(p), format!("a{long}b"));
    assert_eq!(chunk_end("жж", 3), 2);
    assert_eq!(chunk_end("жж", 1), 2);
    assert_eq!(chunk_end("", 1), 0);
}

#[test]
fn template_contents_are_not_in_the_tree() {
    let dom = Dom::parse("<body><template><p>hidden</p></template><p>shown</p>");
    let all: String = dom
        .descendants(dom.root())
        .filter_map(|id| dom.text(id))
        .collect();
    assert_eq!(all, "shown");
    assert_eq!(dom.elements_by_name("p").count(), 1);
}

/// The text of every text node under the root, in document order.
fn all_text(dom: &Dom) -> String {
    dom.descendants(dom.root())
        .filter_map(|id| dom.text(id))
        .collect()
}

/// A server-rendered web component's shadow root is what a browser shows: its contents stand
/// in the host, before the host's own children, and no `<template>` is left in the tree.
#[test]
fn a_declarative_shadow_root_is_parsed_into_its_host() {
    for mode in ["open", "closed"] {
        let dom = Dom::parse(&format!(
            "<body><story-card><template shadowrootmode={mode}><h2>Title</h2><p>shadow</p>\
             <slot></slot></template><p>light</p></story-card>"
        ));
        assert_eq!(all_text(&dom), "Titleshadowlight", "{mode}");
        let card = dom.first_element_by_name("story-card").expect("the host");
        assert_eq!(
            names(&dom, dom.children(card)),
            ["h2", "p", "slot", "p"],
            "{mode}"
        );
        assert_eq!(dom.elements_by_name("template").count(), 0, "{mode}");
    }
}

/// Where a browser refuses a shadow root, the template stays inert: a host that may take none
/// (a link, a name the standard reserves), a second root on one host, one inside an inert
/// template.
#[test]
fn a_shadow_root_a_browser_refuses_stays_inert() {
    for html in [
        "<body><a href=/x><template shadowrootmode=open><p>inert</p></template>shown</a>",
        "<body><div><template shadowrootmode=open>shown</template>\
         <template shadowrootmode=open><p>inert</p></template></div>",
        "<body><a-b><template><template shadowrootmode=open><p>inert</p></template></template>\
         shown</a-b>",
        "<body><annotation-xml><template shadowrootmode=open><p>inert</p></template>shown\
         </annotation-xml>",
    ] {
        let dom = Dom::parse(html);
        assert_eq!(all_text(&dom), "shown", "{html}");
    }
}

/// A shadow root stands where its template stood among the host's own children, its text in
/// nodes of its own (a word of the host's before it is not joined to the root's first), nested
/// roots in their hosts, `<body>` a host as a browser allows; its sheets are noted as its own.
#[test]
fn a_shadow_root_stands_where_its_template_stood() {
    let dom = Dom::parse(
        "<body><div id=h>light<template shadowrootmode=open>shadow</template>after</div>",
    );
    let host = dom.first_element_by_name("div").expect("the host");
    assert_eq!(
        names(&dom, dom.children(host)),
        ["#light", "#shadow", "#after"]
    );
    let dom = Dom::parse(
        "<body><template shadowrootmode=open><x-a><template shadowrootmode=open><b>in</b>\
         <style>.c{display:none}</style></template><i>light</i></x-a><style>.d{}</style>\
         </template><style>.e{}</style></body>",
    );
    assert_eq!(all_text(&dom), "in.c{display:none}light.d{}.e{}");
    let body = dom.first_element_by_name("body").expect("the body");
    assert_eq!(names(&dom, dom.children(body)), ["x-a", "style", "style"]);
    let shadow: Vec<bool> = dom
        .elements_by_name("style")
        .map(|s| dom.is_shadow_style(s))
        .collect();
    assert_eq!(shadow, [true, true, false]);
    // A heading may host a root too, as the standard's containers may.
    let dom = Dom::parse("<body><h2><template shadowrootmode=open>in</template></h2>");
    assert_eq!(all_text(&dom), "in");
}

#[test]
fn foreign_content_keeps_its_namespace() {
    let dom = Dom::parse("<body><svg><g><text>t</text></g></svg><math><mi>x</mi></math>");
    let svg = dom.first_element_by_name("svg").unwrap();
    assert_eq!(dom.namespace(svg), Some(&ns!(svg)));
    assert!(!dom.is_html(svg, &local_name!("svg")));
    let mi = dom.first_element_by_name("mi").unwrap();
    assert_eq!(dom.namespace(mi), Some(&ns!(mathml)));
    // HTML inside an HTML annotation of MathML is HTML again.
    let dom = Dom::parse(
        "<math><annotation-xml encoding='text/html'><section>x</section></annotation-xml></math>",
    );
    let section = dom.first_element_by_name("section").unwrap();
    assert_eq!(dom.namespace(section), Some(&ns!(html)));
}

#[test]
fn empty_input() {
    let dom = Dom::parse("");
    assert_eq!(
        names(&dom, dom.descendants(dom.root())),
        ["html", "head", "body"]
    );
    assert!(!dom.is_empty());
    assert!(Dom::default().is_empty());
}

/// Parses `html`, prints the time, and checks that nesting stayed within the cap.
fn parse_timed(what: &str, html: &str) -> Dom {
    let start = Instant::now();
    let dom = Dom::parse(html);
    let elapsed = start.elapsed();
    let max_depth = (0..dom.len() as NodeId).map(|id| dom.depth(id)).max();
    println!(
        "{what}: {} bytes parsed in {elapsed:?}, {} nodes, max depth {max_depth:?}, {:?}",
        html.len(),
        dom.len(),
        dom.limits_hit()
    );
    assert!(max_depth.unwrap_or(0) <= MAX_DEPTH);
    dom
}

#[test]
fn deep_div_nesting_is_bounded() {
    let n = 100_000;
    let html = format!("{}deep text{}", "<div>".repeat(n), "</div>".repeat(n));
    let dom = parse_timed("100,000 nested <div>", &html);
    assert!(dom.limits_hit().depth);
    assert!(dom.len() < 1000);
    let text = dom.descendants(dom.root()).find_map(|id| dom.text(id));
    assert_eq!(text, Some("deep text"));
    // Walking and dropping it must not recurse either.
    assert_eq!(dom.descendants(dom.root()).count(), dom.len() - 1);
    drop(dom);
}

#[test]
fn deep_formatting_nesting_is_bounded() {
    let n = 100_000;
    let html = format!("{}x{}", "<b>".repeat(n), "</b>".repeat(n));
    let dom = parse_timed("100,000 nested <b>", &html);
    assert!(dom.len() < 1000);
    // Distinct attributes defeat the parser's limit of three identical formatting elements:
    // without the depth cap this input takes minutes (quadratic "Noah's Ark" checks).
    let html: String = (0..n).map(|i| format!("<b id={i}>")).collect();
    let dom = parse_timed("100,000 nested <b id=…>", &html);
    assert!(dom.len() < 1000);
    let html = format!("<svg>{}", "<g>".repeat(n));
    parse_timed("100,000 nested svg <g>", &html);
    let html = "<table><tr><td>".repeat(n / 3);
    parse_timed("33,000 nested tables", &html);
}

#[test]
fn reconstruction_blowup_is_bounded_by_the_node_cap() {
    // Each <p> reconstructs every earlier unclosed <b>: quadratic elements without a cap.
    let html: String = (0..3000)
        .map(|i| format!("<p><b id={i}>x</p>"))
        .chain(std::iter::repeat_n("<p>y</p>".to_owned(), 3000))
        .collect();
    let dom = parse_timed("3,000 misnested <b> reconstructed", &html);
    assert!(dom.limits_hit().nodes);
    assert!(dom.len() <= MAX_NODES + 10_000);
}

#[test]
fn long_text_is_capped() {
    let html = format!("<p>{}</p>", "é".repeat(MAX_TEXT_NODE_BYTES));
    let dom = Dom::parse(&html);
    let text = dom
        .descendants(dom.root())
        .find_map(|id| dom.text(id))
        .unwrap();
    assert!(text.len() <= MAX_TEXT_NODE_BYTES);
    assert!(text.len() > MAX_TEXT_NODE_BYTES - 4);
    assert!(dom.limits_hit().text);
}

#[test]
fn random_bytes_parse() {
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    // Markup-heavy alphabet, so that tags, attributes and misnesting actually occur.
    let alphabet = b"<<>>/=\"' abpditrlmsvg!-&;#x\n\0\xc3\xa9\xff";
    for len in [0, 1, 10, 1000, 20_000] {
        for _ in 0..10 {
            let bytes: Vec<u8> = (0..len)
                .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                .collect();
            let html = String::from_utf8_lossy(&bytes);
            let dom = Dom::parse(&html);
            assert!(dom.descendants(dom.root()).count() < dom.len());
        }
    }
}

#[test]
fn fifty_megabyte_page() {
    let paragraph = "<p class=\"story\">A sentence of an article with a <a href=\"/x\">link</a> \
                     and some <b>bold</b> words, repeated to make a very large page.</p>\n";
    let mut html = String::from("<html><head><title>Big</title></head><body><div id=main>");
    while html.len() < 50 * 1024 * 1024 {
        html.push_str(paragraph);
    }
    let dom = parse_timed("50 MB page", &html);
    assert!(dom.len() > 1_000_000);
}

#[test]
fn body_is_the_parsers_body_or_none() {
    for html in [
        "<p>no tags around</p>",
        "<html><head><title>t</title><script>var body;</script><meta name=body></head><body class=x><p>a</p></body></html>",
        "<body><svg><body></body></svg></body>",
        "<html><body><template><body></body></template><p>a</p></body></html>",
    ] {
        let dom = Dom::parse(html);
        let body = dom.body();
        assert!(body.is_some(), "{html}");
        assert_eq!(body, dom.first_element_by_name("body"), "{html}");
        assert_eq!(
            dom.parent(body.unwrap()).and_then(|p| dom.element_name(p)),
            Some("html")
        );
    }
    // A frameset document has no body.
    let dom = Dom::parse("<html><frameset><frame src=a></frameset></html>");
    assert_eq!(dom.body(), None);
    assert_eq!(dom.first_element_by_name("body"), None);
}

fn name_tokens(v: &str) -> Vec<String> {
    let mut out = Vec::new();
    for_each_name_token(v, |t| out.push(t.to_string()));
    out
}

#[test]
fn class_and_id_words_split_at_punctuation_and_camel_case() {
    assert_eq!(
        name_tokens("articleBody main-text"),
        ["article", "body", "main", "text"]
    );
    assert_eq!(name_tokens("  post_content2 "), ["post", "content2"]);
    assert_eq!(name_tokens("HTMLPage"), ["htmlpage"]);
}

/// ASCII names are cut from their bytes, others through the Unicode tables: both read a name
/// the same way, so a class with one accented letter splits as its ASCII twin does.
#[test]
fn ascii_and_unicode_names_split_alike() {
    let cases = [
        "articleBody main-text",
        "  post_content2 ",
        "HTMLPage",
        "sc-643c51a4-0 okReviews 2col",
        "a1B2c3D md:px-4 lg:w-9/40 --Tail",
        "x",
        "",
        "---",
    ];
    for case in cases {
        // The same name with an accented letter appended after a separator: the general path,
        // whose words are the ASCII ones and then the accented one.
        let unicode = format!("{case} é");
        let mut expected = name_tokens(case);
        expected.push("é".to_string());
        assert_eq!(name_tokens(&unicode), expected, "{case:?}");
    }
    assert_eq!(
        name_tokens("a1B2c3D md:px-4 lg:w-9/40 --Tail"),
        [
            "a1", "b2c3", "d", "md", "px", "4", "lg", "w", "9", "40", "tail"
        ]
    );
    assert_eq!(name_tokens("Straße-Kopf"), ["straße", "kopf"]);
}

#[test]
fn name_holds_finds_words_in_any_case_one_or_several() {
    assert!(name_holds("bbCodeBlock--Quote", b"quote"));
    assert!(!name_holds("quo", b"quote"));
    assert!(name_holds("x", b""));
    assert!(name_holds_any("site-GDPR-bar", &["consent", "gdpr"]));
    assert!(name_holds_any("onetrust", &["consent", "onetrust"]));
    assert!(!name_holds_any("cons", &["consent", "gdpr"]));
    assert!(!name_holds_any("", &["consent"]));
}
