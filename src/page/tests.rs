use super::images::largest_srcset_candidate;
use super::*;
use crate::limits::{MAX_BLOCK_CHARS, MAX_BLOCKS, MAX_TAG_PATH_ELEMENTS};

fn page(html: &str) -> Page {
    page_from_html(html, None)
}

/// The `id`s of `nodes` of `page`, in their order (a node without one left out).
fn ids_of<'p>(page: &'p Page, nodes: &[crate::dom::NodeId]) -> Vec<&'p str> {
    nodes
        .iter()
        .filter_map(|&n| page.dom.attr(n, "id"))
        .collect()
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

/// The page's modal dialogs are noted whatever their sheet says: `role="dialog"` or
/// `alertdialog`, `aria-modal="true"`, an open `<dialog>` (a closed one is hidden). A sheet that
/// says it is no modal, one hidden from assistive technology (a closed modal of a component
/// library), and one holding the page's `<h1>` (a story opened over its front) are not.
#[test]
fn the_pages_modal_dialogs_are_declared() {
    let p = page(
        "<html><body>\
         <div id=a role=dialog>Cookies</div><div id=b role=' AlertDialog '>Sure?</div>\
         <div id=c aria-modal=TRUE>Sign up</div><dialog id=d open>Offer</dialog>\
         <dialog id=e>Closed</dialog><div id=f role=dialog aria-modal=false>Details</div>\
         <div id=g role=dialog aria-hidden=true>Closed modal</div>\
         <div id=h role=dialog><h1>The story</h1><p>Text</p></div>\
         <div id=k role=region>Banner</div><p>Text</p></body></html>",
    );
    let ids = ids_of(&p, &p.declared.dialogs);
    assert_eq!(ids, ["a", "b", "c", "d"]);
}

/// The shown email fields are noted: where a page asks for an address. One in a hidden box is
/// not, nor is any other field.
#[test]
fn the_pages_email_fields_are_declared() {
    let p = page(
        "<body><p>Text</p><form><input id=a type=email><input id=b type=text>\
         <input id=c type=' EMAIL '></form><div hidden><input id=d type=email></div>\
         <div style='display:none'><input id=e type=email></div></body>",
    );
    let ids = ids_of(&p, &p.declared.email_fields);
    assert_eq!(ids, ["a", "c"]);
}

/// A page older than `type="email"` asks for an address in a text field that the form names
/// for one or that a browser fills with one (a type it does not know is text to it); a search
/// box, a hidden field or a password is no such field, whatever its name, nor one whose name
/// is about mail rather than an address (a subject, a flag, a friend's address).
#[test]
fn a_text_field_named_for_an_email_address_is_declared() {
    let p = page(
        "<body><p>Text</p><form><input id=a type=text name=EMAIL>\
         <input id=subscribe-e-mail><input id=c autocomplete='section-news email'>\
         <input id=d type=text name=q><input id=e type=hidden name=email>\
         <input id=f type=password name=email_password><input id=g type=text>\
         <input id=h name=email_subject><input id=i name=noemail><input id=j \
         name=is_email_verified><input id=k name=recipientEmail><input id=l type=string \
         name=yourEmail><input id=m name=loginemail></form></body>",
    );
    let ids = ids_of(&p, &p.declared.email_fields);
    assert_eq!(ids, ["a", "subscribe-e-mail", "c", "l", "m"]);
}

/// A dialog the shell prints (a cookie notice) is not the page's prose: beside it, a page whose
/// text stands in its `<noscript>` still shows next to nothing, and is read without scripting.
#[test]
fn a_dialogs_prose_does_not_keep_a_page_from_its_noscript() {
    let sentence = "We and our partners use cookies to store and access information on your \
                    device, to personalise content and to analyse our traffic.";
    let notice = format!(
        "<div class=x1 role=dialog><p>{sentence} {sentence} {sentence} {sentence} {sentence} \
         {sentence}</p><button>OK</button></div>"
    );
    let post = |n: usize| {
        format!(
            "<div class=post><p>Post {n} of the thread, written by a member in full \
             sentences, with a question, an answer or an opinion about the topic.</p></div>"
        )
    };
    let posts: String = (0..8).map(post).collect();
    let html = format!("<body><noscript><div>{posts}</div></noscript>{notice}</body>");
    let p = page(&html);
    let posts_read = texts(&p).iter().filter(|t| t.starts_with("Post ")).count();
    assert_eq!(posts_read, 8, "{:?}", texts(&p));
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

/// A script's shell may print prose of its own (a cookie notice, a "turn on JavaScript"
/// paragraph) before the `<noscript>` holding the page: the noscript's reading still wins when it
/// shows three times the prose. Short of that (a noscript of a few posts and an image's fallback
/// beside the notice), the page stays as scripts draw it.
#[test]
fn a_noscript_page_behind_a_shell_that_prints_a_notice_is_read_from_its_noscript() {
    let sentence = "We and our partners use cookies to store and access information on your \
                    device, to personalise content and to analyse our traffic.";
    let notice = format!(
        "<div class=x1><p>{sentence} {sentence} {sentence} {sentence}</p><button>OK</button></div>"
    );
    let post = |n: usize| {
        format!(
            "<div class=post><p>Post {n} of the thread, written by a member in full \
             sentences, with a question, an answer or an opinion about the topic.</p></div>"
        )
    };
    let posts: String = (0..10).map(post).collect();
    let p = page(&format!(
        "<body>{notice}<noscript><div>{posts}</div></noscript></body>"
    ));
    let posts_read = texts(&p).iter().filter(|t| t.starts_with("Post ")).count();
    assert_eq!(posts_read, 10, "{:?}", texts(&p));

    // Seven posts and an image's fallback: the noscript holds markup enough to be read, and more
    // prose than the notice, but not three times as much.
    let image = format!("<img src=\"/images/{}.jpg\" alt=\"\">", "a".repeat(600));
    let few: String = (0..7).map(post).collect::<String>() + &image;
    let p = page(&format!(
        "<body>{notice}<noscript><div>{few}</div></noscript></body>"
    ));
    assert!(
        !texts(&p).iter().any(|t| t.starts_with("Post ")),
        "{:?}",
        texts(&p)
    );
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
    let spaced = page("<title>a < b</title ><p>text</p>");
    assert_eq!(
        (spaced.title.as_str(), texts(&spaced)),
        ("a < b", vec!["text"])
    );
}

#[test]
fn a_script_tag_whose_value_runs_away_does_not_swallow_the_page() {
    let story = "<p>The match ended in a draw after a long and tense evening, and the \
                 manager said his side had deserved more from the game.</p>";
    // A file name spliced into the script after it: the value runs to the next double quote
    // (in the body's first attribute), and the script to the last `</script>`.
    let html = format!(
        "<html><head><script type=\"text/javascript\" src=\"/te.color='yellow';\n}}\n\
         //-->\n</script>\n<script>function f(a) {{ a.style.color='red'; }}</script>\
         </head><body class=\"page\">{}<script src=\"/late.js\"></script></body></html>",
        story.repeat(6)
    );
    let p = page(&html);
    assert_eq!(p.blocks.len(), 6, "{:?}", texts(&p));
    // Scripts that are not damaged stay as they are, and so does a page with its prose shown.
    let fine = page(&format!(
        "<script src=\"a.js\"></script><script>var s = '</scr' + 'ipt>';</script>{}",
        story.repeat(2)
    ));
    assert_eq!(fine.blocks.len(), 2, "{:?}", texts(&fine));
    assert_eq!(
        super::drop_runaway_script_tag("<script src=\"a.js\"></script>"),
        None
    );
    assert_eq!(
        super::drop_runaway_script_tag("<p>a</p><script src=\"x</script>\">y</script><p>b</p>"),
        Some("<p>a</p>\">y</script><p>b</p>".to_owned())
    );
    assert_eq!(
        super::drop_runaway_script_tag("<scripts src=\"</script>\">"),
        None
    );
}

/// A site builder renders a section once per screen size and lets its style sheet show one: the
/// page reads as a desktop browser shows it, the article once.
#[test]
fn a_breakpoints_copies_that_the_sheet_hides_at_a_readers_width_are_hidden() {
    let variant = |hidden: &str, size: &str| {
        format!(
            "<div class=\"ssr-variant {hidden}\"><h1>Title</h1><p>The {size} copy of the \
             article's paragraph.</p></div>"
        )
    };
    let html = format!(
        "<html><head><style>@media (min-width: 1200px) {{ .hidden-desk {{ display: none \
         !important }} }} @media (min-width: 810px) and (max-width: 1199px) {{ .hidden-tab \
         {{ display: none }} }} @media (max-width: 809px) {{ .hidden-phone {{ display: none }} \
         }}</style></head><body>{}{}{}</body></html>",
        variant("hidden-tab hidden-phone", "desktop"),
        variant("hidden-desk hidden-phone", "tablet"),
        variant("hidden-desk hidden-tab", "phone"),
    );
    let p = page(&html);
    assert_eq!(
        texts(&p),
        ["Title", "The desktop copy of the article's paragraph."]
    );
}

/// The cascade decides between two classes of one element: Bootstrap's `d-md-none d-xl-block`
/// shows at a desktop width, its later important rule winning. A print sheet hides nothing on a
/// screen, and a hidden class on `<html>` does not hide the document.
#[test]
fn the_sheets_cascade_and_media_decide_what_a_class_hides() {
    let html = "<html class=\"d-md-none\"><head><title>T</title><style>\
                .ssr-variant { display: contents } \
                @media (min-width: 768px) { .d-md-none { display: none !important } } \
                @media (min-width: 1200px) { .d-xl-block { display: block !important } } \
                </style><style media=\"print\">@media (min-width: 1px) { .screen { display: \
                none } }</style></head><body>\
                <p class=\"d-md-none d-xl-block\">Shown at a desktop width.</p>\
                <p class=\"d-md-none\">Hidden from tablets up.</p>\
                <p class=\"ssr-variant d-md-none\">Hidden though shown as contents.</p>\
                <p class=\"screen\">Hidden only on paper.</p></body></html>";
    let p = page(html);
    assert_eq!(p.title, "T");
    assert_eq!(
        texts(&p),
        ["Shown at a desktop width.", "Hidden only on paper."]
    );
}

#[test]
fn an_end_tag_that_only_starts_like_the_titles_does_not_close_it() {
    // A damaged template's `</titlevalue="true" -->` is an end tag of another name: a browser's
    // title runs through it, and the page is read again with the title closed.
    let story = "<p>President Bush urged the oil producers to pump more oil into the market, \
                 and said that high prices were hurting the economies of their customers.</p>";
    let html = format!(
        "<html><head><title id=TitleID>Bush to Saudis - CBN News</titlevalue=\"true\" -->\n\
         </head><body>{}</body></html>",
        story.repeat(5)
    );
    let p = page(&html);
    assert_eq!(p.blocks.len(), 5, "{:?}", texts(&p));
    assert!(
        p.title.starts_with("Bush to Saudis - CBN News"),
        "{}",
        p.title
    );
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

/// WAI-ARIA's accordion may name no region: its header is a heading holding a button that
/// declares `aria-expanded`, and the panel right after it is folded (by the `hidden` attribute or
/// a style). That panel is page text; a box hidden after a heading without such a button, after
/// a heading whose button declares nothing, after such a button outside a heading (a menu's
/// toggle), or marked as a dialog, is not.
#[test]
fn a_box_folded_after_a_heading_with_an_expanding_button_is_page_text() {
    let p = page(
        "<body><h3><button aria-expanded=false><span>+</span><p>What shoe is best?</p>\
         </button></h3><!-- panel --><div aria-hidden=true hidden><p>A neutral one.</p></div>\
         <h3><button aria-expanded=\"false\">How often to replace it?</button></h3>\
         <div style=\"display: none\"><p>Every 500 miles.</p></div>\
         <h3>Sizes</h3><div hidden><p>a hidden table</p></div>\
         <h3><button>Open</button></h3><div hidden><p>a button declaring nothing</p></div>\
         <h3><button aria-expanded=false>Sign in</button></h3>\
         <div role=dialog hidden><p>a dialog</p></div>\
         <div><button aria-expanded=false>Menu</button></div><div hidden><p>a menu</p></div>\
         </body>",
    );
    assert_eq!(
        texts(&p),
        [
            "+",
            "What shoe is best?",
            "A neutral one.",
            "How often to replace it?",
            "Every 500 miles.",
            "Sizes",
            "Open",
            "Sign in",
            "Menu"
        ]
    );
}

/// Scripts fold an FAQ's answer, the rest of a text behind "read more" and an accordion's panel
/// with an inline style, and name the box for what it is (by its class or its id): those boxes
/// are page text. A box the style hides under any other name (a popup, a menu) is not, nor one
/// whose name also says it is a menu or other stories, nor one the `hidden` attribute hides
/// whatever its name.
#[test]
fn a_box_named_as_a_folded_part_is_page_text_other_hidden_boxes_are_not() {
    let p = page(
        "<body><div class=faq__question>What is a certificate?</div>\
         <div class=faq__answer style=\"display: none;\"><p>A short course's proof.</p></div>\
         <p>The intro begins<span class=readMoreText style=display:none> and goes on.</span></p>\
         <div class=\"toggle__content\" style=\"display:none\"><p>Jojoba oil.</p></div>\
         <div id=answer-3 style=\"visibility: hidden\"><p>Three hours.</p></div>\
         <div class=popup style=display:none><p>a popup</p></div>\
         <div class=more-stories style=display:none><p>another story</p></div>\
         <div class=read-next style=display:none><p>the next story</p></div>\
         <div class=\"navbar-collapse collapse\" style=display:none><p>a folded menu</p></div>\
         <div class=menu-wrapper style=\"visibility: hidden\"><p>a menu</p></div>\
         <div class=accordion-panel hidden><p>hidden by the attribute</p></div></body>",
    );
    assert_eq!(
        texts(&p),
        [
            "What is a certificate?",
            "A short course's proof.",
            "The intro begins and goes on.",
            "Jojoba oil.",
            "Three hours."
        ]
    );
}

/// An FAQ built with generated class names folds each answer with an inline style right after
/// its question: alike folded boxes, each after a short shown line and holding a sentence, are
/// page text. A box folded once (a popup), a folded submenu of links, a box after a long text
/// rather than a toggle, a folded box of a few words, and one after a folded line stay hidden.
#[test]
fn alike_folded_boxes_each_after_a_short_line_are_page_text() {
    let answer = |n: u32| {
        format!(
            "<div class=q-3xk>Question {n}?</div>\
             <div class=a-9zt style=\"display: none\"><p>The answer {n} is a sentence of more \
             than eight words.</p></div>"
        )
    };
    let html = format!(
        "<body><section>{}{}</section>\
         <div><p>Sign up</p><div class=m-1 style=display:none><p>a popup of more than eight \
         words of marketing text</p></div></div>\
         <ul><li><a href=/a>Shop</a><div class=s-2 style=display:none><a href=/b>Women's \
         shoes and boots</a> <a href=/c>Men's shoes and boots</a> <a href=/d>Kids</a></div></li>\
         <li><a href=/e>Sale</a><div class=s-2 style=display:none><a href=/f>Half price on \
         shoes</a> <a href=/g>Half price on coats and jackets</a></div></li></ul>\
         <div><p>{long}</p><div class=l-4 style=display:none><p>one of two boxes after long \
         texts, folded</p></div><p>{long}</p><div class=l-4 style=display:none><p>the second \
         of two boxes after long texts</p></div></div>\
         <div><p>Size</p><div class=t-5 style=display:none><p>Too short.</p></div>\
         <p>Colour</p><div class=t-5 style=display:none><p>Short too.</p></div></div>\
         <div><p class=h-6 style=display:none>Folded line</p><div class=f-7 \
         style=display:none><p>a folded box after a folded line, of more words</p></div>\
         <p class=h-6 style=display:none>Folded line</p><div class=f-7 \
         style=display:none><p>another folded box after a folded line, of more words</p>\
         </div></div></body>",
        answer(1),
        answer(2),
        long = "word ".repeat(31),
    );
    let p = page(&html);
    let shown = texts(&p);
    assert!(
        shown.contains(&"The answer 1 is a sentence of more than eight words.")
            && shown.contains(&"The answer 2 is a sentence of more than eight words."),
        "{shown:?}"
    );
    for hidden in [
        "popup",
        "Women",
        "Half price",
        "long texts",
        "short",
        "folded box",
    ] {
        assert!(
            !shown
                .iter()
                .any(|t| t.to_lowercase().contains(&hidden.to_lowercase())),
            "{hidden} shown: {shown:?}"
        );
    }
}

/// Each question and its answer may stand in a box of their own, a script or a comment between
/// them; an answer in Chinese counts its characters as words; a toggle of thirty words and an
/// answer of eight are still a toggle and an answer. Folded boxes named or marked as dialogs
/// (a shop's size guides after their buttons) stay hidden, and so does a popup holding a box
/// of its own class (alike boxes stand beside each other, not inside), and a box after a line
/// the `hidden` attribute hides.
#[test]
fn folded_answers_in_boxes_of_their_own_are_page_text_dialogs_are_not() {
    let pair = |question: &str, answer: &str| {
        format!(
            "<div class=w-1><button>{question}</button><!-- toggle --><script>f()</script>\
             <div class=a-2 style=display:none><p>{answer}</p></div></div>"
        )
    };
    let thirty = "word ".repeat(29) + "end?";
    let html = format!(
        "<body><section>{}{}</section>\
         <div><button>Size guide</button><div class=\"modal fade\" style=display:none><p>Chest \
         and waist in inches for every size we sell.</p></div>\
         <button>Fit guide</button><div class=\"modal fade\" style=display:none><p>How each \
         cut fits, from slim to relaxed, explained.</p></div></div>\
         <div><button>Terms</button><div class=d-3 role=dialog style=display:none><p>The terms \
         of the offer, in eight words or more.</p></div>\
         <button>Rules</button><div class=d-3 role=dialog style=display:none><p>The rules of \
         the draw, in eight words or more.</p></div></div>\
         <div><p>Open</p><div class=n-4 style=display:none><p>A popup of more than eight words \
         around a box.</p><div class=n-4 style=display:none><p>The box inside the popup, of \
         eight words or more.</p></div></div></div>\
         <div><p hidden>Step one</p><div class=h-5 style=display:none><p>A step whose title the \
         hidden attribute hides too.</p></div><p hidden>Step two</p><div class=h-5 \
         style=display:none><p>Another step whose title is hidden as well.</p></div></div></body>",
        pair("什么是证书？", "证书是一门短期课程的证明文件。"),
        pair(&thirty, "One, two, three, four, five, six, seven, eight."),
    );
    let p = page(&html);
    let shown = texts(&p);
    assert!(
        shown.contains(&"证书是一门短期课程的证明文件。")
            && shown.contains(&"One, two, three, four, five, six, seven, eight."),
        "{shown:?}"
    );
    for hidden in [
        "Chest",
        "How each",
        "The terms",
        "The rules",
        "popup",
        "inside",
        "step",
    ] {
        assert!(
            !shown.iter().any(|t| t.contains(hidden)),
            "{hidden} shown: {shown:?}"
        );
    }
}

#[test]
fn a_tabs_hidden_panels_are_page_text_other_hidden_boxes_are_not() {
    let p = page(
        "<body><div role=tablist><button role=tab>Windows</button><button role=tab>macOS</button>\
         </div><section role=tabpanel><p>Run the installer.</p></section>\
         <section role=tabpanel aria-hidden=true hidden><p>Use Homebrew.</p></section>\
         <div role=TabPanel style=display:none><p>Use APT.</p></div>\
         <section role=tab hidden><p>a hidden tab</p></section>\
         <div hidden class=tabpanel><p>no role</p></div></body>",
    );
    assert_eq!(
        texts(&p),
        [
            "Windows",
            "macOS",
            "Run the installer.",
            "Use Homebrew.",
            "Use APT."
        ]
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
fn unspaced_scripts_count_a_word_every_few_characters() {
    // Twelve Thai words in 54 characters, no space between them: eleven words counted, not one.
    let thai = "ประเทศไทยเป็นประเทศที่ตั้งอยู่ในเอเชียตะวันออกเฉียงใต้";
    let p = page(&format!("<p>{thai}</p>"));
    assert_eq!(p.blocks[0].words, 11);
    // A space ends a phrase and starts the count again; Latin words around count as before. A
    // mark stays with its letter: "วันนี้" is six characters, the last a tone mark, and one word.
    let p = page("<p>ข่าวไทย วันนี้ and more</p>");
    assert_eq!(p.blocks[0].words, 2 + 1 + 2);
    // A linked phrase's words are link words, cut at the same places.
    let p = page("<p><a href=x>กรุงเทพมหานคร</a>เป็นเมืองหลวง</p>");
    assert_eq!((p.blocks[0].words, p.blocks[0].link_words), (5, 3));
    // Khmer, Lao, Myanmar and Tibetan too.
    for text in [
        "ប្រទេសកម្ពុជាជាប្រទេសមួយ",
        "ປະເທດລາວເປັນປະເທດໜຶ່ງ",
        "မြန်မာနိုင်ငံသည်အာရှ",
        "བོད་ཀྱི་སྐད་ཡིག",
    ] {
        let chars = text.chars().count() as u32;
        let words = page(&format!("<p>{text}</p>")).blocks[0].words;
        assert!(
            (chars / 7..=chars.div_ceil(5)).contains(&words),
            "{text}: {words}"
        );
        assert!(words > 1, "{text}");
    }
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

#[test]
fn a_tooltips_text_is_not_page_text_the_word_it_explains_is() {
    let p = page(
        "<body><h4>Cup style <tool-tip class=tool-tip><span>More information</span>\
         <div class=tool-tip__content>Open-back designs leak sound.</div></tool-tip></h4>\
         <p>Open-back</p>\
         <p>Planar <span class=tooltip>drivers<span class=tooltiptext>a thin film moves \
         the air</span></span> sound clean.</p>\
         <div class=\"q-tooltip-content\">a hint</div>\
         <div class=tooltipContent>another hint</div>\
         <div class=tooltipcontent>a third hint</div>\
         <div role=tooltip>Copied!</div>\
         <p>Fast <span class=\"tooltip text-sm\">GPUs</span> and <span \
         class=tooltip-trigger-text>cores</span> and <span class=\"tooltip box-border\">\
         fans</span>.</p>\
         <p class=tips-and-tricks>Tips for the first week.</p>\
         <p class=multiple>Multiple colours.</p></body>",
    );
    assert_eq!(
        texts(&p),
        [
            "Cup style",
            "More information",
            "Open-back",
            "Planar drivers sound clean.",
            "Fast GPUs and cores and fans.",
            "Tips for the first week.",
            "Multiple colours."
        ]
    );
}

#[test]
fn a_headings_permalink_to_itself_is_no_link_words() {
    let p = page(
        "<body id=top><h1><a href=#top>The Site Name</a></h1>\
         <h3 id=usage><a href=#usage>Making a request</a></h3>\
         <section id=reading><h2>Reading the body<a class=headerlink href=#reading>¶</a></h2>\
         </section>\
         <h2><a id=streams name=streams href=#streams>Streaming the body</a></h2>\
         <h4><a href=#>Show the rest</a></h4>\
         <h4 id=faq><a href=#other>Another section</a></h4>\
         <h4><a href=/guide>The whole guide</a></h4>\
         <p id=note><a href=#note>A paragraph's own link</a></p></body>",
    );
    let links: Vec<(&str, u32)> = p
        .blocks
        .iter()
        .map(|b| (b.text.as_str(), b.link_words))
        .collect();
    assert_eq!(
        links,
        [
            ("The Site Name", 3),
            ("Making a request", 0),
            ("Reading the body¶", 0),
            ("Streaming the body", 0),
            ("Show the rest", 3),
            ("Another section", 2),
            ("The whole guide", 3),
            ("A paragraph's own link", 4)
        ]
    );
}

#[test]
fn a_page_stands_at_its_base_else_at_the_url_it_declares_its_own() {
    let canonical = "<html><head><link rel=canonical href='https://www.example.org/a/b'>\
                     <meta property=og:url content='https://other.example/x'></head>\
                     <body><p>Text</p></body></html>";
    // Without a response URL, the canonical link (the first declaration) says where it stands.
    let declared = page(canonical);
    assert_eq!(
        declared.own_url().map(String::from).as_deref(),
        Some("https://www.example.org/a/b")
    );
    // The base URL goes first: the response URL, where the reader is, or the page's own
    // `<base href>` resolved against it.
    let base = Url::parse("https://mirror.example.net/copy").unwrap();
    let fetched = page_from_html(canonical, Some(&base));
    assert_eq!(fetched.own_url(), Some(base.clone()));
    let based = page_from_html(
        "<html><head><base href='https://static.example.net/site/'></head></html>",
        Some(&base),
    );
    assert_eq!(
        based.own_url().map(String::from).as_deref(),
        Some("https://static.example.net/site/")
    );
    // A relative canonical link is passed over for an absolute `og:url` after it.
    let relative_first = page(
        "<html><head><link rel=canonical href='/a/b'>\
         <meta property=og:url content='https://news.example/a/b'></head></html>",
    );
    assert_eq!(
        relative_first.own_url().map(String::from).as_deref(),
        Some("https://news.example/a/b")
    );
    // `og:url` stands in for a missing canonical link.
    let og =
        page("<html><head><meta property=og:url content='https://news.example/s'></head></html>");
    assert_eq!(
        og.own_url().map(String::from).as_deref(),
        Some("https://news.example/s")
    );
    // A relative or non-web URL, or none, says nothing.
    for html in [
        "<html><head><link rel=canonical href='/a/b'></head></html>",
        "<html><head><link rel=canonical href='file:///etc/passwd'></head></html>",
        "<html><head><link rel=stylesheet href='https://cdn.example/s.css'></head></html>",
        "<p>No declaration</p>",
    ] {
        assert_eq!(page(html).own_url(), None, "{html}");
    }
}

/// A fragment's letters outside its tags: what a tag's attributes say does not count, and a `<`
/// before a space or a digit is text, as in HTML, so the letters after it do.
#[test]
fn a_fragments_letters_are_counted_outside_its_tags_only() {
    assert_eq!(fragment_letters("<p>Hello <b>you</b></p>"), 8);
    assert_eq!(
        fragment_letters("<img src=\"/images/photo.jpg\" alt=\"A photo\">"),
        0
    );
    assert_eq!(fragment_letters("if a < b and b <3 then c"), 14);
    assert_eq!(fragment_letters("<!-- note --><?php x ?></div>ok"), 2);
}

/// `count_words` counts as the block builder counts a block's words, in every script.
#[test]
fn words_are_counted_as_the_block_builder_counts_them() {
    for text in [
        "ประเทศไทยเป็นประเทศที่ตั้งอยู่ในเอเชียตะวันออกเฉียงใต้",
        "ข่าวไทย วันนี้ and more",
        "ABCไทยไทยไทย 42 ฿฿฿฿฿฿฿",
        "中文文本 and ប្រទេសកម្ពុជា",
        "plain English words only",
    ] {
        let page = page_from_html(&format!("<p>{text}</p>"), None);
        assert_eq!(count_words(text), page.blocks[0].words, "{text}");
    }
}

/// The page notes the boxes it lays over itself: fixed by an inline style or by a class its
/// sheet fixes (a generated one), one inside another too; not its wrappers, not a hidden box, not
/// a class another rule of the sheet puts back in the flow, not a class named `fixed` that no
/// sheet of the page fixes (an old layout's fixed width), not a box whose inline style puts it
/// back in the flow (unless the sheet's rule is important), and not a box holding the page's
/// `<h1>` (an app's root fixed to scroll inside itself).
#[test]
fn the_boxes_a_page_lays_over_itself_are_noted() {
    let p = page(
        "<html><head><style>.sc-x1{position:fixed;bottom:0} .sc-y2{position:fixed} \
         .sc-y2{position:relative} .sc-i{position:fixed!important}</style></head>\
         <body style='position:fixed'>\
         <div id=a style='position: fixed'><div id=inner style='POSITION:Fixed'>x</div></div>\
         <div id=b class='sc-x1'>Cookies</div><div id=c class='bar sc-x1'>Chat</div>\
         <div id=d class=sc-y2>In the flow</div><div id=e class=fixed>A fixed-width layout</div>\
         <div id=f style='display:none'><div style='position:fixed'>hidden</div></div>\
         <div id=g class=sc-x1 style='position: relative'>Back in the flow</div>\
         <div id=h class=sc-i style='position: relative'>Fixed all the same</div>\
         <div id=k style='position:fixed;overflow:auto'><h1>The page</h1></div>\
         <div id=m style='background-position: fixed; position: fixed; position: static'>m</div>\
         <p>Text</p></body></html>",
    );
    let ids = ids_of(&p, &p.declared.overlays);
    assert_eq!(ids, ["a", "inner", "b", "c", "h"]);
    assert_eq!(p.declared.overlays.len(), 5);
}

/// A web component's own sheet styles the component alone: a rule in its shadow root that hides
/// `.content` at a reader's width does not hide the page's own `.content` box.
#[test]
fn a_shadow_roots_sheet_does_not_style_the_page() {
    let article = "<div class=content><h1>Title</h1><p>The first paragraph of the story, long \
                   enough to be read as prose by anyone.</p></div>";
    let p = page(&format!(
        "<body><x-menu><template shadowrootmode=open><style>@media (min-width:768px)\
         {{.content{{display:none}}}} .bar{{position:fixed;top:0}}</style><nav class=content>\
         Menu</nav><slot></slot></template></x-menu>{article}</body>"
    ));
    let texts: Vec<&str> = p.blocks.iter().map(|b| b.text.as_str()).collect();
    assert!(
        texts.iter().any(|t| t.starts_with("The first paragraph")),
        "{texts:?}"
    );
    // The same rule in the page's own sheet hides the box, as a browser does.
    let p = page(&format!(
        "<head><style>@media (min-width:768px){{.content{{display:none}}}}</style></head>\
         <body>{article}<p>Shown</p></body>"
    ));
    let texts: Vec<&str> = p.blocks.iter().map(|b| b.text.as_str()).collect();
    assert!(
        !texts.iter().any(|t| t.starts_with("The first paragraph")),
        "{texts:?}"
    );
}
