//! Small hand-built pages whose right answer is clear.

use url::Url;

use super::*;
use crate::page::page_from_html;

/// The text of a paragraph of article prose, numbered so that every one is distinct.
fn prose_text(n: usize) -> String {
    format!(
        "Paragraph {n} of the article tells the story in full sentences, with commas, clauses \
         and details, so that it reads like the text a person came to read."
    )
}

/// A paragraph of article prose ([`prose_text`]).
fn prose(n: usize) -> String {
    format!("<p>{}</p>", prose_text(n))
}

fn paragraphs(range: std::ops::Range<usize>) -> String {
    range.map(prose).collect()
}

const NAV: &str = "<ul class=menu><li><a href=/a>Home</a></li><li><a href=/b>World</a></li>\
                   <li><a href=/c>Business</a></li><li><a href=/d>Sport</a></li></ul>";

/// `html` cut into blocks as a page of a news site.
fn page_at(html: &str) -> Page {
    let base = Url::parse("https://example.com/news/story").ok();
    page_from_html(html, base.as_ref())
}

fn run(html: &str) -> (Page, ArticleExtraction) {
    let page = page_at(html);
    let extraction = extract(&page);
    assert_eq!(extraction.labels.len(), page.blocks.len());
    (page, extraction)
}

/// The text of the blocks labelled content (images as `[img src]`), one per line.
fn kept(page: &Page, x: &ArticleExtraction) -> Vec<String> {
    page.blocks
        .iter()
        .zip(&x.labels)
        .filter(|(_, l)| l.is_content())
        .map(|(b, _)| match &b.image {
            Some(i) => format!("[img {}]", i.src),
            None => b.text.clone(),
        })
        .collect()
}

fn has(kept: &[String], needle: &str) -> bool {
    kept.iter().any(|k| k.contains(needle))
}

/// The reason given to the first block whose text holds `needle`, as the inspector shows it
/// (`pith-page: ...`); `None` when no block holds it.
fn reason_of(page: &Page, x: &ArticleExtraction, needle: &str) -> Option<String> {
    page.blocks
        .iter()
        .zip(&x.labels)
        .find(|(b, _)| b.text.contains(needle))
        .map(|(_, l)| l.reason.to_string())
}

#[test]
fn an_article_in_an_unspaced_script_is_an_article() {
    // Thai puts no spaces between words: counted by spaces, each paragraph below would be two
    // or three words, and the page no article at all (only its headline was kept).
    let paragraphs = [
        "กรุงเทพมหานครเป็นเมืองหลวงและเมืองที่มีประชากรมากที่สุดของประเทศไทย \
         เป็นศูนย์กลางการปกครอง การศึกษา การคมนาคมขนส่ง การเงินการธนาคาร",
        "ในช่วงฤดูฝนปีนี้ กรมอุตุนิยมวิทยาคาดการณ์ว่าจะมีฝนตกหนักในหลายพื้นที่ของภาคกลาง\
         และภาคตะวันออก ประชาชนควรติดตามข่าวสารอย่างใกล้ชิด",
        "นายกรัฐมนตรีกล่าวว่ารัฐบาลได้เตรียมงบประมาณสำหรับการช่วยเหลือผู้ประสบภัยไว้แล้ว \
         และได้สั่งการให้หน่วยงานที่เกี่ยวข้องลงพื้นที่ตรวจสอบความเสียหายโดยเร็วที่สุด",
        "นักวิชาการด้านสิ่งแวดล้อมเห็นว่าการวางผังเมืองที่ดีและการดูแลระบบระบายน้ำ\
         อย่างสม่ำเสมอเป็นปัจจัยสำคัญที่จะช่วยลดผลกระทบจากน้ำท่วมในระยะยาว",
    ];
    let body: String = paragraphs.iter().map(|p| format!("<p>{p}</p>")).collect();
    let html = format!(
        "<html><head><title>ฝนตกหนักในกรุงเทพ</title></head><body>\
         <ul class=menu><li><a href=/a>หน้าแรก</a></li><li><a href=/b>ข่าวการเมือง</a></li>\
         <li><a href=/c>ข่าวกีฬา</a></li><li><a href=/d>บันเทิง</a></li></ul>\
         <div class=main><h1>ฝนตกหนักในกรุงเทพ</h1>{body}</div>\
         <aside><ul><li><a href=/n/1>รัฐบาลเร่งแก้ปัญหาน้ำท่วมในภาคเหนือ</a></li>\
         <li><a href=/n/2>ตลาดหุ้นไทยปิดบวกต่อเนื่องเป็นวันที่สาม</a></li></ul></aside>\
         </body></html>"
    );
    let (page, x) = run(&html);
    let kept = kept(&page, &x);
    for p in paragraphs {
        assert!(has(&kept, &p[..30]), "{kept:?}");
    }
    assert!(!has(&kept, "หน้าแรก") && !has(&kept, "ตลาดหุ้น"), "{kept:?}");
}

#[test]
fn page_wrapped_in_a_form() {
    let html = format!(
        "<html><head><title>Budget passes - Daily</title></head><body>\
         <form id=aspnetForm action=x><input type=hidden name=__VIEWSTATE value=abc>\
         <div id=header>{NAV}</div>\
         <div id=wrapper><div id=leftnav>{NAV}</div>\
         <div id=story><h1>Budget passes</h1>{}</div>\
         <div id=footer><p>Copyright 2010 Daily News. All rights reserved.</p></div></div>\
         </form></body></html>",
        paragraphs(0..6)
    );
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    assert!(has(&k, "Budget passes"));
    for n in 0..6 {
        assert!(has(&k, &format!("Paragraph {n} ")), "{k:?}");
    }
    assert!(!has(&k, "Home") && !has(&k, "Copyright"), "{k:?}");
    let main = x.containers[0];
    assert_eq!(page.dom.attr(main, "id"), Some("story"));
}

#[test]
fn article_inside_header() {
    let html = format!(
        "<html><body><nav>{NAV}</nav><header class=top><h1>Storm hits coast</h1>{}</header>\
         <footer><p>About us · Contact · Jobs</p></footer></body></html>",
        paragraphs(0..5)
    );
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    assert!(has(&k, "Storm hits coast"));
    for n in 0..5 {
        assert!(has(&k, &format!("Paragraph {n} ")), "{k:?}");
    }
    assert!(!has(&k, "Business") && !has(&k, "About us"), "{k:?}");
}

#[test]
fn comments_longer_than_the_article_are_boilerplate() {
    let comment = |n: usize| {
        format!(
            "<div class=item><div class=who><a href=/u{n}>reader{n}</a> March 3, 2019 at 10:4{}</div>\
             <p>Comment {n}: I have been following this for years, and honestly, the whole thing \
             is a mess, which nobody in charge seems willing to admit, sadly.</p>\
             <p>Second thought {n}: as always, the details matter more than the headlines, and \
             these details, frankly, are worrying for all of us here.</p></div>",
            n % 10
        )
    };
    let comments: String = (0..12).map(comment).collect();
    let html = format!(
        "<html><head><title>Council votes on park</title></head><body>{NAV}\
         <div class=main><h1>Council votes on park</h1>{}</div>\
         <div class=discussion><h3>Responses</h3>{comments}</div></body></html>",
        paragraphs(0..4)
    );
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    for n in 0..4 {
        assert!(has(&k, &format!("Paragraph {n} ")), "{k:?}");
    }
    assert!(!has(&k, "Comment ") && !has(&k, "Second thought"), "{k:?}");
    assert!(has(&k, "Council votes on park"));
}

#[test]
fn br_separated_text() {
    let body: String = (0..5)
        .map(|n| {
            format!(
                "Line {n} of an old page, written with breaks, in long sentences, with commas, \
                 and no paragraph tags at all.<br><br>"
            )
        })
        .collect();
    let html = format!(
        "<html><body><table><tr><td class=nav>{NAV}</td><td>{body}</td></tr></table></body></html>"
    );
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    for n in 0..5 {
        assert!(has(&k, &format!("Line {n} ")), "{k:?}");
    }
    assert!(!has(&k, "Home"), "{k:?}");
}

#[test]
fn lazy_images_inside_kept_logo_outside_dropped() {
    let html = format!(
        "<html><body><div class=logo><img src=/logo.png alt=Logo></div>{NAV}\
         <article><h1>Bridge opens</h1>{}\
         <figure><img src=data:image/gif;base64,R0lGOD data-src=/photo1.jpg alt=Bridge>\
         <figcaption>The new bridge at dawn.</figcaption></figure>\
         <img srcset=\"/photo2-small.jpg 480w, /photo2-big.jpg 1200w\">{}</article></body></html>",
        paragraphs(0..3),
        paragraphs(3..6)
    );
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    assert!(has(&k, "[img https://example.com/photo1.jpg]"), "{k:?}");
    assert!(has(&k, "[img https://example.com/photo2-big.jpg]"), "{k:?}");
    assert!(!has(&k, "logo.png"), "{k:?}");
    // The figure's caption says what the picture shows, not the story: it goes, and says why.
    assert!(!has(&k, "The new bridge at dawn."), "{k:?}");
    let caption = reason_of(&page, &x, "The new bridge at dawn.").expect("the caption is a block");
    assert!(caption.contains("figure's caption"), "{caption}");
}

#[test]
fn a_tables_caption_stays_with_its_table() {
    let html = format!(
        "<html><body>{NAV}<article><h1>Rainfall</h1>{}<table><caption>Rainfall by month in \
         2024, in millimetres</caption><tr><td>January</td><td>80</td></tr><tr><td>February\
         </td><td>64</td></tr></table>{}</article></body></html>",
        paragraphs(0..3),
        paragraphs(3..6)
    );
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    assert!(has(&k, "Rainfall by month in 2024"), "{k:?}");
}

#[test]
fn a_heading_with_four_of_five_words_in_the_title_is_the_headline() {
    // 4 of 5 words is exactly the bar for a heading: the search must not give up before it.
    let html = format!(
        "<html><head><title>Rates rise again today</title></head><body><h1>The Paper</h1>{NAV}\
         <div class=heading><h2>Rates rise again today, sadly</h2></div>\
         <div class=article-body>{}</div></body></html>",
        paragraphs(0..5)
    );
    let (page, x) = run(&html);
    let headline = page
        .blocks
        .iter()
        .zip(&x.labels)
        .find(|(b, _)| b.text.starts_with("Rates rise again"))
        .map(|(_, l)| l.reason.to_string());
    assert_eq!(headline.as_deref(), Some("pith-page: headline"));
    assert!(!has(&kept(&page, &x), "The Paper"));
}

#[test]
fn headline_kept_outside_the_container() {
    let html = format!(
        "<html><head><title>Rates rise again | The Paper</title></head><body>{NAV}\
         <div class=heading><h2>Most read</h2><h1>Rates rise again</h1></div>\
         <div class=article-body>{}</div></body></html>",
        paragraphs(0..5)
    );
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    assert!(has(&k, "Rates rise again"), "{k:?}");
    assert!(!has(&k, "Most read"), "{k:?}");
    let reason = page
        .blocks
        .iter()
        .zip(&x.labels)
        .find(|(b, _)| b.text == "Rates rise again")
        .map(|(_, l)| l.reason.to_string());
    assert_eq!(reason.as_deref(), Some("pith-page: headline"));
}

#[test]
fn share_bar_and_related_list_inside_the_container_removed() {
    let html = format!(
        "<html><body>{NAV}<div id=story><h1>Rain ends drought</h1>\
         <div class=share-tools><a href=/fb>Facebook</a> <a href=/tw>Twitter</a> <span>Email</span></div>\
         {}<h3>Related stories</h3><ul><li><a href=/r1>Dry summer ahead for farmers</a></li>\
         <li><a href=/r2>Reservoirs at record low levels</a></li></ul>{}</div></body></html>",
        paragraphs(0..3),
        paragraphs(3..5)
    );
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    for n in 0..5 {
        assert!(has(&k, &format!("Paragraph {n} ")), "{k:?}");
    }
    assert!(!has(&k, "Facebook") && !has(&k, "Email"), "{k:?}");
    assert!(
        !has(&k, "Related stories") && !has(&k, "Reservoirs"),
        "{k:?}"
    );
    let reasons: Vec<String> = x.labels.iter().map(|l| l.reason.to_string()).collect();
    assert!(
        reasons.iter().any(|r| r.contains("removed: class 'share'")),
        "{reasons:?}"
    );
    assert!(
        reasons
            .iter()
            .any(|r| r.contains("in main container div#story")),
        "{reasons:?}"
    );
}

#[test]
fn pages_without_text_give_empty_results() {
    for html in [
        "",
        "<html></html>",
        "<html><body><div><span></span></div></body></html>",
    ] {
        let (page, x) = run(html);
        assert!(page.blocks.is_empty());
        assert!(x.labels.is_empty() && x.containers.is_empty());
    }
    // Only images, only a menu: no panic, one label per block.
    let (_, x) = run("<html><body><img src=/a.png><img src=/b.png></body></html>");
    assert_eq!(x.labels.len(), 2);
    let (_, x) = run(&format!("<html><body>{NAV}</body></html>"));
    assert_eq!(x.labels.len(), 4);
}

#[test]
fn short_page_falls_back_to_long_blocks() {
    let html = format!(
        "<html><body>{NAV}<div><p>Only one paragraph here, with enough words to be prose, \
         but not enough to make a container stand out.</p></div></body></html>"
    );
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    assert!(has(&k, "Only one paragraph"), "{k:?}");
    assert!(!has(&k, "Home"), "{k:?}");
}

#[test]
fn deep_nesting_does_not_overflow() {
    let html = format!(
        "{}{}{}",
        "<div>".repeat(5000),
        paragraphs(0..3),
        "</div>".repeat(5000)
    );
    let (page, x) = run(&html);
    assert!(has(&kept(&page, &x), "Paragraph 0 "));
}

/// One post of a forum thread: a byline, then its own distinct sentences.
fn post(n: usize) -> String {
    format!(
        "<article class=\"cPost ipsComment\" id=elComment_{n}>\
         <div class=author><a href=/u/{n}>member{n}</a> Posted March {n}, 2024</div>\
         <div class=post-body><p>Reply {n} says what this member thinks about the question, \
         with reasons, examples and a little story, so that it reads as a real answer.</p>\
         <p>And a second paragraph of reply {n}, adding a detail or two that others missed, \
         in plain and full sentences.</p></div></article>"
    )
}

#[test]
fn a_forum_thread_keeps_every_post_not_just_one() {
    // Forum software names its posts after comments (`ipsComment`), which inside an article
    // would be removed; the page says in its structured data that it is a discussion.
    let posts: String = (1..=6).map(post).collect();
    let html = format!(
        "<html><head><title>Which telescope first? - Forum</title>\
         <script type=\"application/ld+json\">{{\"@type\": \"DiscussionForumPosting\"}}</script>\
         </head><body><nav>{NAV}</nav><h1>Which telescope first?</h1>\
         <div class=thread>{posts}</div><footer><p>Powered by forum software, all rights \
         reserved by the community and its members.</p></footer></body></html>"
    );
    let (page, x) = run(&html);
    let kept = kept(&page, &x);
    for n in 1..=6 {
        assert!(
            has(&kept, &format!("Reply {n} says")),
            "post {n}: {kept:#?}"
        );
        assert!(
            has(&kept, &format!("second paragraph of reply {n}")),
            "{kept:#?}"
        );
    }
    assert!(!has(&kept, "World"), "{kept:#?}");
    assert!(!has(&kept, "Powered by"), "{kept:#?}");
    // The inspector says which step decided: the thread is the container, every post in it.
    for (block, label) in page.blocks.iter().zip(&x.labels) {
        if block.text.starts_with("Reply ") {
            assert!(
                matches!(&label.reason, Reason::Page { why, .. } if why.contains("div.thread")),
                "{label:?}"
            );
        }
    }
}

#[test]
fn the_declared_article_body_overrides_a_container_that_misses_it() {
    // The story is laid out as loose lines in a table, which scores poorly; a subscription box
    // of real paragraphs scores well. The page's JSON-LD says which text is the article.
    let lines: Vec<String> = (0..6)
        .map(|n| {
            format!(
                "Line {n} of the council story reports the vote on the new budget and what \
                 it means for schools roads and parks"
            )
        })
        .collect();
    let cells: String = lines
        .iter()
        .map(|l| format!("<tr><td>{l}</td><td><a href=/x>x</a></td></tr>"))
        .collect();
    let body = lines.join(" ");
    let html = format!(
        "<html><head><title>Council passes budget</title>\
         <script type=\"application/ld+json\">{{\"@context\": \"https://schema.org\", \
         \"@graph\": [{{\"@type\": \"NewsArticle\", \"articleBody\": \"{body}\"}}]}}</script>\
         </head><body>{NAV}<div class=offer><h2>Subscribe</h2><p>Get every story, every \
         morning, with offers, puzzles, recipes, and more, for one low price, and cancel, \
         whenever you like, online.</p><p>Already a subscriber? Sign in, and read on, on any \
         device, at home, at work, or on the go, with no limits.</p><p>Questions? Call us, \
         or write, any day, from eight to eight, and we will help, gladly, at once.</p></div>\
         <table>{cells}</table></body></html>"
    );
    let (page, x) = run(&html);
    let kept = kept(&page, &x);
    for n in 0..6 {
        assert!(
            has(&kept, &format!("Line {n} of the council story")),
            "{kept:#?}"
        );
    }
    assert!(!has(&kept, "Get every story"), "{kept:#?}");
}

#[test]
fn a_shop_category_keeps_its_grid_of_products() {
    // Every card is one link around its name and price, so no paragraph scores; the page's own
    // repetition says where its content is.
    let cards: String = (1..=10)
        .map(|n| {
            format!(
                "<li class=\"product-card product-card--{n}\"><a href=/p/{n}>\
                 <img src=/img/{n}.jpg alt=\"\"><h3>Walnut desk drawer model {n}</h3>\
                 <span class=price>$ {n}9 and up</span></a><button>Add to cart</button></li>"
            )
        })
        .collect();
    let html = format!(
        "<html><head><title>Desk accessories - Shop</title></head><body>\
         <nav>{NAV}</nav><h1>Desk accessories</h1><ul class=products>{cards}</ul>\
         <footer><ul class=links><li><a href=/a>About us and our story</a></li>\
         <li><a href=/b>Shipping and returns policy</a></li><li><a href=/c>Contact our \
         customer team</a></li><li><a href=/d>Careers at the shop</a></li></ul></footer>\
         </body></html>"
    );
    let (page, x) = run(&html);
    let kept = kept(&page, &x);
    for n in 1..=10 {
        assert!(
            has(&kept, &format!("Walnut desk drawer model {n}")),
            "{kept:#?}"
        );
        assert!(has(&kept, &format!("$ {n}9 and up")), "{kept:#?}");
    }
    assert!(has(&kept, "Desk accessories"), "{kept:#?}");
    assert!(!has(&kept, "Add to cart"), "{kept:#?}");
    assert!(!has(&kept, "Shipping and returns"), "{kept:#?}");
    assert!(!has(&kept, "World"), "{kept:#?}");
}

/// Twelve cards of a shop's grid of watches: a linked name, an item number, a price and a line.
fn watch_cards() -> String {
    (1..=12)
        .map(|n| {
            format!(
                "<div class=\"col-6 col-md-3\"><div class=card><a href=/p/{n}>\
                 <img src=/img/{n}.jpg alt=\"\"></a><div class=card-body>\
                 <a href=/p/{n}>Automatic watch model {n}</a><div>Item# 5{n}37</div>\
                 <div>$ {n}99.00</div><div>Steel case, leather strap</div></div></div></div>"
            )
        })
        .collect()
}

/// The name of card `n` of [`watch_cards`].
fn watch_name(n: usize) -> String {
    format!("Automatic watch model {n}")
}

/// The price of card `n` of [`watch_cards`].
fn watch_price(n: usize) -> String {
    format!("$ {n}99.00")
}

/// Asserts that `kept` holds the `line` (see [`watch_name`], [`watch_price`]) of every card of
/// [`watch_cards`]: the failure lists the cards missing, by number.
fn assert_every_watch_card_kept(kept: &[String], line: impl Fn(usize) -> String) {
    let missing: Vec<usize> = (1..=12).filter(|&n| !has(kept, &line(n))).collect();
    assert_eq!(missing, Vec::<usize>::new(), "{kept:#?}");
}

/// A shop's category whose only long lines are its guarantees, in boxes named as promotions:
/// nothing on it stands out, so the extraction falls back to those lines. (Named as modals, they
/// would be the fallback's furniture, kept only on a page of no prose of its own.) `head` goes into `<head>`; the intro
/// and the grid of twelve cards sit between `open` and `close`.
fn shop_category_with_guarantees(head: &str, open: &str, close: &str) -> String {
    let cards = watch_cards();
    let guarantee = |what: &str| {
        format!(
            "<p>{what}: examine your purchase in the privacy and convenience of your own home, \
             knowing that it is covered by our promise, for thirty days, with nothing to sign \
             and no questions asked.</p>"
        )
    };
    format!(
        "<html><head><title>Automatic watches - Shop</title>{head}</head><body>\
         <div class=\"promo fade\" id=returns><div class=promo-body>{}</div></div>\
         <div class=\"promo fade\" id=warranty><div class=promo-body>{}</div></div>\
         <div class=\"promo fade\" id=shipping><div class=promo-body>{}</div></div>\
         <nav>{NAV}</nav>{open}<div class=intro><h1>Automatic watches</h1>\
         <p>Want the power to control time? Ours run on your movement alone, with no \
         battery.</p></div><div class=row>{cards}</div>{close}</body></html>",
        guarantee("Our returns"),
        guarantee("Our warranty"),
        guarantee("Our shipping")
    )
}

/// The fallback's scattered guarantees are no article: the grid of products holds about as many
/// words, and it is the page. In a box of its own the grid has an introduction; straight in
/// `<body>`, the box around it is the page, and none of the fallback's lines is the grid's.
#[test]
fn a_shop_category_whose_long_lines_are_its_guarantees_keeps_its_grid() {
    for (open, close) in [("<section>", "</section>"), ("", "")] {
        let (page, x) = run(&shop_category_with_guarantees("", open, close));
        let kept = kept(&page, &x);
        assert_eq!(has(&kept, "Want the power"), !open.is_empty(), "{kept:#?}");
        assert_every_watch_card_kept(&kept, watch_name);
        assert_every_watch_card_kept(&kept, watch_price);
        for guarantee in ["Our returns", "Our warranty", "Our shipping"] {
            assert!(!has(&kept, guarantee), "{guarantee}: {kept:#?}");
        }
    }
}

/// The same page calling itself an article (`og:type`): the article's worth the fallback kept
/// stands, and the grid beside it is not taken for the page.
#[test]
fn a_page_that_calls_itself_an_article_keeps_its_fallback_beside_a_grid() {
    let head = "<meta property=\"og:type\" content=\"article\">";
    let (page, x) = run(&shop_category_with_guarantees(
        head,
        "<section>",
        "</section>",
    ));
    let kept = kept(&page, &x);
    assert!(has(&kept, "Our warranty"), "{kept:#?}");
    assert!(!has(&kept, "Automatic watch model 3"), "{kept:#?}");
}

#[test]
fn a_full_text_feed_entry_says_where_the_article_is() {
    // The same trap as above, with no JSON-LD: the feed entry carries the story's full text.
    let lines: Vec<String> = (0..9)
        .map(|n| {
            format!(
                "Line {n} of the harbour story reports how the new ferry timetable was agreed \
                 and what it changes for commuters"
            )
        })
        .collect();
    let cells: String = lines
        .iter()
        .map(|l| format!("<tr><td>{l}</td><td><a href=/x>x</a></td></tr>"))
        .collect();
    let entry: String = lines.iter().map(|l| format!("<p>{l}.</p>")).collect();
    let html = format!(
        "<html><head><title>Ferry timetable agreed</title></head><body>{NAV}\
         <div class=offer><h2>Subscribe</h2><p>Get every story, every morning, with offers, \
         puzzles, recipes, and more, for one low price, and cancel, whenever you like.</p>\
         <p>Already a subscriber? Sign in, and read on, on any device, at home, at work, or on \
         the go, with no limits.</p><p>Questions? Call us, or write, any day, from eight to \
         eight, and we will help, gladly, at once.</p></div><table>{cells}</table></body></html>"
    );
    let base = Url::parse("https://example.com/news/story").ok();
    let page = page_from_html(&html, base.as_ref());
    let with_entry = extract_with_entry(&page, Some(&entry));
    let kept_with = kept(&page, &with_entry);
    for n in 0..9 {
        assert!(
            has(&kept_with, &format!("Line {n} of the harbour story")),
            "{kept_with:#?}"
        );
    }
    assert!(!has(&kept_with, "Get every story"), "{kept_with:#?}");
    // A summary of a sentence or two says too little to overrule the page.
    let summary = format!("<p>{}.</p>", lines[0]);
    assert_eq!(extract_with_entry(&page, Some(&summary)), extract(&page));
}

#[test]
fn a_ticker_of_linked_teasers_is_no_reason_to_widen_a_story() {
    // A "breaking news" list above the story: each entry links its headline and runs on into a
    // summary, together more prose than the story itself.
    let ticker: String = (0..14)
        .map(|n| {
            format!(
                "<li><a href=/s/{n}>Headline number {n} about another matter</a> NEW DELHI: \
                 the summary of story {n} goes on for a while, with names, places and a \
                 quote or two from officials.</li>"
            )
        })
        .collect();
    let html = format!(
        "<html><head><title>Deportees return home</title></head><body>{NAV}\
         <div class=top><div class=breaking><ul>{ticker}</ul></div></div>\
         <div class=content><div class=main><div class=story><h2>Deportees return home</h2>{}\
         </div><div class=tools><a href=/print>Print</a></div></div></div></body></html>",
        paragraphs(0..5)
    );
    let (page, x) = run(&html);
    let kept = kept(&page, &x);
    assert!(has(&kept, "Paragraph 4 of the article"), "{kept:#?}");
    assert!(!has(&kept, "the summary of story"), "{kept:#?}");
}

#[test]
fn an_extraction_of_short_lines_is_not_widened_to_a_smaller_box_of_prose() {
    // A product's details are short lines, none of them prose; a small how-to box has three
    // sentences. Keeping the details is right: they hold more text than the box.
    let specs: String = (0..16)
        .map(|n| format!("<li>Detail {n}: staple cotton percale, woven tight, soft</li>"))
        .collect();
    let html = format!(
        "<html><head><title>Classic sheet set</title></head><body>{NAV}\
         <div class=product><h1>Classic sheet set</h1><ul class=details>{specs}</ul></div>\
         <div class=steps><p>Wash the sheets in cold water before the first night of use and \
         keep them apart from towels</p><p>Tumble dry them on low heat and take them out while \
         still warm to keep them smooth</p><p>Iron them only if you like crisp sheets with a \
         smooth cool feel in the summer</p><p>Store them folded in a dry cupboard away from the \
         sun and damp air</p></div>\
         </body></html>"
    );
    let (page, x) = run(&html);
    let kept = kept(&page, &x);
    assert!(has(&kept, "Detail 15: staple cotton"), "{kept:#?}");
}

#[test]
fn the_posts_beside_the_longest_one_are_its_peers_not_its_comments() {
    // No structured data: the thread is alike posts with bylines, and the longest post is where
    // the page's prose is densest. Its alike siblings are the rest of the thread.
    let reply = |n: usize, paragraphs: usize| {
        let body: String = (0..paragraphs)
            .map(|p| {
                format!(
                    "<p>Reply {n} part {p} says what this member thinks of the question, with \
                     reasons, examples and a little story, so it reads as a real answer.</p>"
                )
            })
            .collect();
        format!(
            "<div class=\"topic-body crawler-post\" id=post_{n}>\
             <div class=meta><span class=creator>member{n}</span> March {n}, 2024</div>\
             <div class=post>{body}</div></div>"
        )
    };
    let posts: String = (1..=5)
        .map(|n| reply(n, if n == 2 { 3 } else { 2 }))
        .collect();
    let html = format!(
        "<html><head><title>Best films of 2024 - Board</title></head><body><nav>{NAV}</nav>\
         <div id=main-outlet><h1>Best films of 2024</h1>{posts}</div></body></html>"
    );
    let (page, x) = run(&html);
    let kept = kept(&page, &x);
    for n in 1..=5 {
        assert!(
            has(&kept, &format!("Reply {n} part 0 ")),
            "post {n}: {kept:#?}"
        );
    }
    assert!(!has(&kept, "Business"), "{kept:#?}");
}

#[test]
fn code_with_many_commas_does_not_pull_the_container_away_from_the_prose() {
    let code: String = (0..30)
        .map(|n| format!("result_{n} = combine(a, b, c, d, e, f, g, h, i, j)\n"))
        .collect();
    let html = format!(
        "<html><head><title>itertools - Docs</title></head><body><nav>{NAV}</nav>\
         <div class=body><h1>itertools</h1><section>{}</section>\
         <div class=highlight><pre>{code}</pre></div><section>{}</section></div>\
         </body></html>",
        paragraphs(0..3),
        paragraphs(3..5)
    );
    let (page, x) = run(&html);
    let kept = kept(&page, &x);
    for n in 0..5 {
        assert!(has(&kept, &format!("Paragraph {n} ")), "{kept:#?}");
    }
    assert!(has(&kept, "result_3 = combine"), "{kept:#?}");
}

#[test]
fn an_article_cut_into_parts_keeps_every_part_made_from_the_containers_template() {
    // A ranking: an introduction, then one section per entry whose text box is made from the
    // introduction's own template (`rich-text`), each shorter than the introduction.
    let entry = |n: usize| {
        format!(
            "<section class=ranking id=r{n}><div class=pad><div class=container-large>\
             <div class=rank-wrap><div class=rank-head><h2>{n}.</h2>\
             <h2><a href=/tools/{n}>Builder {n}</a></h2></div>\
             <div class=\"rich-text w-richtext\"><h3>Why builder {n} made the list</h3>\
             <p>Builder {n} earns its place for small shops, with templates, hosting and a \
             store in one plan, and support that answers within the hour.</p>\
             <p>Its weak side, for builder {n}, is the price of the larger plans, which grows \
             quickly once a shop sells more than a few dozen items.</p></div></div></div></div>\
             </section>"
        )
    };
    let entries: String = (1..=4).map(entry).collect();
    let html = format!(
        "<html><head><title>The best website builders</title></head><body><nav>{NAV}</nav>\
         <main><section class=intro><div class=pad><div class=container-large>\
         <h1>The best website builders</h1><div class=\"rich-text intro w-richtext\">{}</div>\
         <div class=chapters><ol><li><a href=#r1>1</a> Builder 1</li>\
         <li><a href=#r2>2</a> Builder 2</li></ol></div></div></div></section>{entries}</main>\
         <footer><p>Copyright, all rights reserved by the publisher of these rankings.</p>\
         </footer></body></html>",
        paragraphs(0..5)
    );
    let (page, x) = run(&html);
    let kept = kept(&page, &x);
    assert!(has(&kept, "Paragraph 4 "), "{kept:#?}");
    for n in 1..=4 {
        assert!(
            has(&kept, &format!("Builder {n} earns its place")),
            "{kept:#?}"
        );
        assert!(has(&kept, &format!("for builder {n}, is the price")));
    }
    assert!(!has(&kept, "all rights reserved"), "{kept:#?}");
}

/// A page built one panel per section (`section.panel > div.body`), the longest panel in the
/// middle: the panels before and after it join it, however short (one paragraph, a list), as
/// long as they are the same panel; a box of another class stays out.
#[test]
fn a_page_of_panels_keeps_its_short_panels_too() {
    let long_panel = format!(
        "<section class=panel><div class=head><h2>What the cover pays for</h2></div>\
         <div class=body>{}</div></section>",
        paragraphs(0..5)
    );
    let short_panel = |title: &str, body: &str| {
        format!(
            "<section class=panel><div class=head><h2>{title}</h2></div><div class=body>{body}\
             </div></section>"
        )
    };
    let html = format!(
        "<html><head><title>Travel cover</title></head><body><nav>{NAV}</nav><main>\
         <h1>Travel cover</h1>{}{long_panel}{}{}<section class=partners><div class=body><p>Our \
         partners also sell car hire, hotel rooms and airport parking at a discount, and \
         members get points on every booking.</p></div></section></main></body></html>",
        short_panel(
            "Why cover matters",
            "<p>Cover pays when a trip is cut short by illness, a storm or a strike, and it \
             pays the doctor abroad, which a home policy rarely does.</p>"
        ),
        short_panel(
            "What it does not cover",
            "<p>Some reasons to cancel are left out of every plan:</p><ul><li>Racing and \
             other dangerous sports</li><li>Travel to get medical care</li><li>A change of \
             mind</li></ul>"
        ),
        short_panel(
            "How much it costs",
            "<p>Cover typically costs five to ten percent of the trip, more for a long trip \
             to a far country with an older traveller.</p>"
        ),
    );
    let (page, x) = run(&html);
    let kept = kept(&page, &x);
    assert!(has(&kept, "Paragraph 4 "), "{kept:#?}");
    for line in [
        "Cover pays when a trip",
        "Some reasons to cancel",
        "A change of mind",
        "Cover typically costs",
    ] {
        assert!(has(&kept, line), "{line}: {kept:#?}");
    }
    assert!(!has(&kept, "car hire"), "{kept:#?}");
}

#[test]
fn a_consent_managers_long_text_is_never_the_article() {
    let cookies: String = (0..5)
        .map(|n| {
            format!(
                "<p>Purpose {n}: we and our partners store and access information on your \
                 device, such as cookies, and process personal data, such as unique \
                 identifiers, for personalised advertising, measurement and audience insight.</p>"
            )
        })
        .collect();
    let cards: String = (0..6)
        .map(|n| format!("<li><a href=/r/{n}>Tomato sauce recipe number {n}</a></li>"))
        .collect();
    let html = format!(
        "<html><head><title>Tomato sauces</title></head><body>\
         <div id=onetrust-consent-sdk><div class=ot-pc-content>{cookies}</div></div>\
         <main><h1>Tomato sauces</h1><p>Our collection of tomato sauce recipes has something \
         for everyone, from quick weeknight dinners, to slow Sunday ragus, to sauces for the \
         freezer.</p><ul class=cards>{cards}</ul></main></body></html>"
    );
    let (page, x) = run(&html);
    let kept = kept(&page, &x);
    assert!(!has(&kept, "Purpose "), "{kept:#?}");
    assert!(has(&kept, "Our collection of tomato sauce"), "{kept:#?}");
}

#[test]
fn a_linked_title_heads_the_summary_under_it_a_bare_link_does_not() {
    let base = Url::parse("https://example.com/").ok();
    let page = page_from_html(
        "<body><div id=list><h2><a href=/a>The first entry of the list</a></h2>\
         <p>Its summary says in a dozen words what the entry is about.</p>\
         <p><a href=/more>Read more stories here</a></p><p>Short.</p>\
         <h2><a href=/b>The last entry of the list</a></h2></div>\
         <p>A summary outside the list, long enough to be one, though.</p></body>",
        base.as_ref(),
    );
    let stats = Stats::compute(&page);
    let end = stats.get(page.dom.root()).end;
    let list = page.dom.elements_by_name("div").next().unwrap();
    let list_end = stats.get(list).end;
    assert!(widen::heads_a_summary(&page, &stats, 0, end));
    assert!(
        !widen::heads_a_summary(&page, &stats, 2, end),
        "next is short"
    );
    assert!(widen::heads_a_summary(&page, &stats, 4, end));
    assert!(
        !widen::heads_a_summary(&page, &stats, 4, list_end),
        "its summary is outside the region"
    );
    // A card's category tag between the title and the summary is passed over; a longer link
    // line there is another entry's, and two short links in a row are a menu.
    let card = |between: &str| {
        page_from_html(
            &format!(
                "<body><div class=card><h5><a href=/a>Battlefield 6 teases what the game has \
                 in store for its fans</a></h5><div><a href=/pc>{between}</a></div><p>Players \
                 get a hint at what the updates of next year will bring.</p></div></body>"
            ),
            base.as_ref(),
        )
    };
    for (between, heads) in [
        ("PC Gaming", true),
        ("More from the gaming desk", false),
        ("PC</a></div><div><a href=/news>News", false),
    ] {
        let page = card(between);
        let stats = Stats::compute(&page);
        let end = stats.get(page.dom.root()).end;
        assert_eq!(
            widen::heads_a_summary(&page, &stats, 0, end),
            heads,
            "{between}"
        );
    }
}

#[test]
fn a_thread_whose_first_post_is_the_container_keeps_the_short_replies_too() {
    let post = |n: usize, body: &str| {
        format!(
            "<div class=\"topic-body crawler-post\" id=post_{n}>\
             <div class=\"crawler-post-meta\"><span class=creator>member{n}</span>\
             <time>March {n}, 2024</time></div><div class=post itemprop=text>{body}</div>\
             <div class=\"crawler-post-infos\"><span>{n} Likes</span></div></div>"
        )
    };
    // Discourse marks each post's text `itemprop=text`: the first post's text box is the
    // container, and the replies are its peers.
    let first = post(1, &paragraphs(0..6));
    let replies: String = (2..=6)
        .map(|n| {
            post(
                n,
                &format!(
                    "<p>Reply {n}: same issue here since the last update, and turning the \
                     setting off did not help at all.</p>"
                ),
            )
        })
        .collect();
    let html = format!(
        "<html><head><title>Auto dubbing - Community</title></head><body><nav>{NAV}</nav>\
         <div id=main-outlet><h1>Auto dubbing</h1><div class=thread>{first}{replies}</div></div>\
         </body></html>"
    );
    let (page, x) = run(&html);
    let kept = kept(&page, &x);
    assert!(has(&kept, "Paragraph 5 "), "{kept:#?}");
    for n in 2..=6 {
        assert!(has(&kept, &format!("Reply {n}: same issue")), "{kept:#?}");
    }
}

#[test]
fn a_box_loosely_named_meta_that_holds_the_articles_paragraphs_stays() {
    // HubSpot names the article's rich-text field `hs_cos_wrapper_meta_field`.
    let html = format!(
        "<html><head><title>Packing tips</title></head><body><nav>{NAV}</nav>\
         <div class=post-body><h1>Packing tips</h1>{}\
         <div class=\"hs_cos_wrapper hs_cos_wrapper_meta_field\">{}</div>\
         <div class=post-meta><span>Tags: moving</span></div></div></body></html>",
        paragraphs(0..4),
        paragraphs(4..7)
    );
    let (page, x) = run(&html);
    let kept = kept(&page, &x);
    for n in 0..7 {
        assert!(has(&kept, &format!("Paragraph {n} ")), "{kept:#?}");
    }
    assert!(!has(&kept, "Tags: moving"), "{kept:#?}");
}

#[test]
fn a_manuals_discussion_section_is_not_a_comment_thread() {
    // git's manual pages end with a section headed DISCUSSION: more of the manual, no bylines.
    let html = format!(
        "<html><head><title>git-commit</title></head><body><nav>{NAV}</nav>\
         <div id=main><h1>git-commit</h1>{}<h2>DISCUSSION</h2>{}</div></body></html>",
        paragraphs(0..4),
        paragraphs(4..7)
    );
    let (page, x) = run(&html);
    let kept = kept(&page, &x);
    for n in 0..7 {
        assert!(has(&kept, &format!("Paragraph {n} ")), "{kept:#?}");
    }
}

/// A wiki's list page: a short introduction and sections of linked names.
fn index_page(entries: usize, entry_extra: &str) -> String {
    let sections: String = ["Alpha", "Beta", "Gamma", "Delta"]
        .iter()
        .enumerate()
        .map(|(s, name)| {
            let items: String = (0..entries)
                .map(|i| {
                    format!("<li><a href=/wiki/{s}-{i}>{name} language {i}</a>{entry_extra}</li>")
                })
                .collect();
            format!("<h2>{name}</h2><div class=cols><ul>{items}</ul></div>")
        })
        .collect();
    format!(
        "<html><head><title>List of languages</title></head><body><nav>{NAV}</nav>\
         <div id=content><h1>List of languages</h1>{}{sections}</div>\
         <footer><p>About us · Contact · Jobs</p></footer></body></html>",
        prose(0)
    )
}

#[test]
fn an_index_of_links_keeps_its_links() {
    let (page, x) = run(&index_page(12, ""));
    let k = kept(&page, &x);
    assert!(has(&k, "Paragraph 0 "), "{k:?}");
    for name in ["Alpha language 0", "Beta language 11", "Delta language 5"] {
        assert!(has(&k, name), "{name} missing: {k:?}");
    }
    assert!(!has(&k, "Business") && !has(&k, "About us"), "{k:?}");
}

#[test]
fn links_beside_an_article_or_in_a_shops_grid_are_not_an_index() {
    // Beside an article of its own, a list of links is its menu or related stories, however
    // long the list.
    let html = index_page(60, "").replace(&prose(0), &paragraphs(0..7));
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    assert!(has(&k, "Paragraph 6 "), "{k:?}");
    assert!(!has(&k, "Alpha language 0"), "{k:?}");
    // Entries that carry their own controls (a box to compare) are a shop's cards.
    let (page, x) = run(&index_page(12, "<input type=checkbox name=compare>"));
    assert!(
        x.labels.iter().all(|l| !matches!(&l.reason,
            Reason::Page { why, .. } if why.contains("a list of links"))),
        "{:?}",
        kept(&page, &x)
    );
}

#[test]
fn a_reply_quoting_a_post_above_does_not_repeat_it() {
    let post = |n: usize, body: &str| {
        format!(
            "<article class=message><div class=user><a href=/u{n}>member{n}</a> \
             Mar 3, 2024</div><div class=message-body>{body}</div></article>"
        )
    };
    let original = "<p>My breaker trips whenever the dryer and the heater run together, and I \
                    would like to know whether a bigger panel is the fix or a bad idea.</p>";
    let quote = format!(
        "<blockquote class=bbCodeBlock--quote><div>member0 said:</div>{original}\
         <div>Click to expand...</div><div>Click to shrink...</div></blockquote>"
    );
    // One reply quotes the post and a line of its own that no post says: that quotation is
    // not a repeat as a whole.
    let mixed = format!(
        "<blockquote class=bbCodeBlock--quote><div>member9 said:</div>{original}\
         <p>The dryer also shares its circuit with the kitchen outlets in this old house.</p>\
         </blockquote>"
    );
    let replies: String = (1..5)
        .map(|n| {
            post(
                n,
                &format!(
                    "{}<p>Reply {n}: check the load calculation first, because a larger \
                     panel on the same service changes nothing, as the inspector will say.</p>",
                    if n == 3 { &mixed } else { &quote }
                ),
            )
        })
        .collect();
    let html = format!(
        "<html><body><nav>{NAV}</nav><div class=thread><h1>Breaker trips</h1>{}{replies}\
         </div></body></html>",
        post(0, original)
    );
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    assert_eq!(
        k.iter().filter(|t| t.contains("My breaker trips")).count(),
        1,
        "the quoted post once: {k:?}"
    );
    for n in 1..5 {
        assert!(has(&k, &format!("Reply {n}: ")), "{k:?}");
    }
    assert!(!has(&k, "Click to expand"), "{k:?}");
    assert!(!has(&k, "Click to shrink"), "{k:?}");
    // A quotation whose every long line repeats goes whole, its attribution too; the one with
    // a line of its own keeps that line and its attribution.
    assert!(!has(&k, "member0 said:"), "{k:?}");
    assert!(
        has(&k, "member9 said:") && has(&k, "kitchen outlets"),
        "{k:?}"
    );
    // A post body named for quoting (XenForo's `js-selectToQuote`) that copies a line from
    // above, around a quotation of a line said nowhere else: only the copied line goes.
    let body = |n: usize, inner: &str| {
        format!(
            "<article class=message><div class=user><a href=/u{n}>member{n}</a></div>\
             <div class=\"message-body js-selectToQuote\">{inner}</div></article>"
        )
    };
    let first = "<p>The dryer and the heater share one breaker, and it trips when both of them \
                 run on a cold evening.</p>";
    let replies: String = ["an electrician", "the inspector", "my neighbour"]
        .iter()
        .enumerate()
        .map(|(n, who)| {
            body(
                n + 1,
                &format!(
                    "<p>A dedicated circuit for the dryer is what {who} will most likely \
                     suggest to you.</p>"
                ),
            )
        })
        .collect();
    let copying = body(
        4,
        &format!(
            "{first}<blockquote class=bbCodeBlock--quote><div>member7 said:</div><p>Back on the \
             first page someone said the panel was rated for far more than this house uses.</p>\
             </blockquote><p>Thanks, that worked.</p>"
        ),
    );
    let html = format!(
        "<html><body><nav>{NAV}</nav><div class=thread><h1>Breaker trips</h1>{}{replies}\
         {copying}</div></body></html>",
        body(0, first)
    );
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    assert_eq!(
        k.iter()
            .filter(|t| t.contains("The dryer and the heater"))
            .count(),
        1,
        "{k:?}"
    );
    for line in [
        "what my neighbour will",
        "member7 said:",
        "Back on the first page",
        "Thanks, that worked.",
    ] {
        assert!(has(&k, line), "{line}: {k:?}");
    }
    // A quotation that repeats nothing is the article's own text.
    let html = format!(
        "<html><body><div class=story><h1>Town hall</h1>{}<blockquote><p>We will not raise \
         the rates this year, whatever the council decides in the spring.</p></blockquote>\
         </div></body></html>",
        paragraphs(0..4)
    );
    let (page, x) = run(&html);
    assert!(has(&kept(&page, &x), "We will not raise"));
}

/// A shop's product page: the name and price in one box, the features in another, the
/// description (the longest text) in a third, all in the product's column.
fn product_page(declared: bool) -> String {
    let ld = if declared {
        r#"<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Loke Jacket","offers":{"@type":"Offer","price":"120.00"}}</script>"#
    } else {
        ""
    };
    format!(
        "<html><head><title>Loke Jacket</title>{ld}</head><body><nav>{NAV}</nav>\
         <main><section class=product-info><div class=title-box><h1>Loke Jacket</h1>\
         <div class=price>$120.00</div></div>\
         <div class=features><ul><li>Waterproof shell with sealed seams</li>\
         <li>Packs into its own pocket</li><li>Adjustable hood and hem</li></ul></div>\
         <div class=description>{}</div></section>\
         <section class=reviews-teaser><a href=/reviews>Read all reviews</a></section></main>\
         <footer><p>About us · Contact · Jobs</p></footer></body></html>",
        paragraphs(0..3)
    )
}

#[test]
fn a_declared_product_keeps_its_whole_column() {
    let (page, x) = run(&product_page(true));
    let k = kept(&page, &x);
    for line in ["Loke Jacket", "$120.00", "Waterproof shell", "Paragraph 2 "] {
        assert!(has(&k, line), "{line} missing: {k:?}");
    }
    assert!(!has(&k, "Business") && !has(&k, "About us"), "{k:?}");
    // Without the declaration, a page is not read as a shop's: the description is the text.
    let (page, x) = run(&product_page(false));
    let k = kept(&page, &x);
    assert!(
        has(&k, "Paragraph 2 ") && !has(&k, "Waterproof shell"),
        "{k:?}"
    );
}

/// A declared product whose name is printed as `name` (its markup), on a page titled with it.
fn product_named(name: &str) -> String {
    format!(
        "<html><head><title>Loke Rain Jacket</title>{PRODUCT_FOR_SALE}</head><body>\
         <nav>{NAV}</nav><main><section class=product-info><div class=title-box>{name}\
         <div class=price>$120.00</div></div>\
         <div class=features><ul><li>Waterproof shell with sealed seams</li>\
         <li>Packs into its own pocket</li><li>Adjustable hood and hem</li></ul></div>\
         <div class=description>{}</div></section></main></body></html>",
        paragraphs(0..3)
    )
}

/// The product's name begins its column whether the shop prints it as the page's `<h1>` or as a
/// line in a `<div>`; a lower heading reading as the title does not place the column.
#[test]
fn a_products_name_in_a_div_begins_its_column() {
    for name in [
        "<h1>Loke Rain Jacket</h1>",
        "<div class=product-name>Loke Rain Jacket</div>",
    ] {
        let (page, x) = run(&product_named(name));
        let k = kept(&page, &x);
        for line in ["$120.00", "Waterproof shell", "Paragraph 2 "] {
            assert!(has(&k, line), "{name}: {line} missing: {k:?}");
        }
    }
    let (page, x) = run(&product_named("<h2>Loke Rain Jacket</h2>"));
    let k = kept(&page, &x);
    assert!(
        has(&k, "Paragraph 2 ") && !has(&k, "Waterproof shell"),
        "{k:?}"
    );
}

/// A product page whose column ends in the shop's review widget: customers' opinions, in
/// sentences, alike items each with a rating (no author or date line, which would make them
/// a list of posts).
fn product_page_with_reviews(declaration: &str) -> String {
    let ld = declaration;
    let reviews: String = (0..4)
        .map(|n| {
            format!(
                "<div class=individual-review><p class=rating>Rated {n} out of 5 stars</p>\
                 <p>Review {n}: I wore this jacket on a week of rainy walks, and it kept me dry, \
                 though the hood runs small and the zip sticks when it is cold outside.</p></div>"
            )
        })
        .collect();
    format!(
        "<html><head><title>Loke Jacket</title>{ld}</head><body><nav>{NAV}</nav>\
         <main><section class=product-info><h1>Loke Jacket</h1><div class=price>$120.00</div>\
         <div class=description>{}</div>\
         <section class=product-reviews><h2>What customers say</h2>{reviews}</section>\
         </section></main></body></html>",
        paragraphs(0..3)
    )
}

/// A JSON-LD `Product` on sale, as a shop declares its product page.
const PRODUCT_FOR_SALE: &str = r#"<script type="application/ld+json">{"@type":"Product","name":"Loke Jacket","offers":{"@type":"Offer","price":"120.00"}}</script>"#;

/// True when no kept or dropped block of `page` was dropped as a product's customer review.
fn no_review_dropped(page: &Page, x: &ArticleExtraction) -> bool {
    page.blocks
        .iter()
        .zip(&x.labels)
        .all(|(_, l)| !l.reason.to_string().contains("customer review"))
}

#[test]
fn a_declared_products_customer_reviews_are_not_its_description() {
    let (page, x) = run(&product_page_with_reviews(PRODUCT_FOR_SALE));
    let k = kept(&page, &x);
    assert!(has(&k, "Loke Jacket") && has(&k, "Paragraph 2 "), "{k:?}");
    assert!(!has(&k, "Review 1:") && !has(&k, "Rated 2"), "{k:?}");
    let reason = page
        .blocks
        .iter()
        .zip(&x.labels)
        .find(|(b, _)| b.text.starts_with("Review 1:"))
        .map(|(_, l)| l.reason.to_string());
    assert_eq!(
        reason.as_deref(),
        Some("pith-page: removed: a customer review on a product's page")
    );
    // Microdata says it as well: a `Product` item with an offer inside.
    let microdata = product_page_with_reviews("").replace(
        "<section class=product-info>",
        "<section class=product-info itemscope itemtype=https://schema.org/Product>\
         <div itemprop=offers itemscope itemtype=https://schema.org/Offer></div>",
    );
    let (page, x) = run(&microdata);
    assert!(!no_review_dropped(&page, &x), "{:?}", kept(&page, &x));
    // A page that does not call itself a product keeps what the extraction chose.
    let (page, x) = run(&product_page_with_reviews(""));
    assert!(no_review_dropped(&page, &x), "{:?}", kept(&page, &x));
}

/// A service page that declares a `Product` with only its ratings (how a business asks a search
/// engine for stars beside its link) sells nothing: its testimonials, in a box named reviews,
/// are its own text.
#[test]
fn a_product_declared_only_for_its_ratings_keeps_its_testimonials() {
    let ratings_only = r#"<script type="application/ld+json">{"@type":"Product","name":"Pest control","aggregateRating":{"@type":"AggregateRating","ratingValue":"4.9","reviewCount":"212"}}</script>"#;
    let (page, x) = run(&product_page_with_reviews(ratings_only));
    let k = kept(&page, &x);
    assert!(no_review_dropped(&page, &x), "{k:?}");
    assert!(has(&k, "Review 1:") && has(&k, "Paragraph 2 "), "{k:?}");
    // Offers given as nothing are no offers.
    for empty in ["null", "[]", "{}", "\"\""] {
        let ld = format!(
            r#"<script type="application/ld+json">{{"@type":"Product","name":"Pest control","offers":{empty}}}</script>"#
        );
        let (page, x) = run(&product_page_with_reviews(&ld));
        assert!(
            no_review_dropped(&page, &x),
            "{empty}: {:?}",
            kept(&page, &x)
        );
    }
    // A product whose offer stands beside it in the page's graph is on sale.
    let graph = r##"<script type="application/ld+json">{"@graph":[{"@type":"Product","@id":"#p","name":"Loke Jacket"},{"@type":"Offer","itemOffered":{"@id":"#p"},"price":"120.00"}]}</script>"##;
    let (page, x) = run(&product_page_with_reviews(graph));
    assert!(!no_review_dropped(&page, &x), "{:?}", kept(&page, &x));
    // An offer of the page's service, beside a product with ratings only, sells no product.
    let service = r#"<script type="application/ld+json">{"@graph":[{"@type":"Product","name":"Pest control","aggregateRating":{"ratingValue":"4.9"}},{"@type":"Offer","itemOffered":{"@type":"Service","name":"Inspection"}}]}</script>"#;
    let (page, x) = run(&product_page_with_reviews(service));
    assert!(no_review_dropped(&page, &x), "{:?}", kept(&page, &x));
    // Microdata with ratings and no offer is the same.
    let microdata = product_page_with_reviews("").replace(
        "<section class=product-info>",
        "<section class=product-info itemscope itemtype=https://schema.org/Product>\
         <div itemprop=aggregateRating itemscope itemtype=https://schema.org/AggregateRating>\
         </div>",
    );
    let (page, x) = run(&microdata);
    assert!(no_review_dropped(&page, &x), "{:?}", kept(&page, &x));
}

/// A forum thread's opening post and its replies in one box (the opening post's paragraphs
/// straight in it, as many forums print the first post): on a page that declares itself a
/// discussion (schema.org `DiscussionForumPosting`, or a box named as a thread), the replies with
/// their author and date lines are the thread's posts and stay; without the declaration they
/// read as comments under an article and go.
#[test]
fn replies_of_a_declared_discussion_are_its_posts() {
    let reply = |n: usize| {
        format!(
            "<div class=reply><div class=who><a href=/u{n}>member{n}</a> March 3, 2024</div>\
             <p>Reply {n}: a telescope with a wide aperture shows more, but mounts matter, and a \
             shaky one spoils every view, so spend on the mount first.</p></div>"
        )
    };
    let replies: String = (0..6).map(reply).collect();
    let page_with = |declaration: &str, wrapper: &str| {
        format!(
            "<html><head><title>First telescope?</title>{declaration}</head><body>{NAV}\
             <div class={wrapper}><h1>First telescope?</h1>{}{replies}</div></body></html>",
            paragraphs(0..3)
        )
    };
    let declared = page_with(
        "<script type=\"application/ld+json\">{\"@type\": \"DiscussionForumPosting\", \
         \"headline\": \"First telescope?\"}</script>",
        "story",
    );
    // Forum software that declares nothing names its thread's box so.
    for html in [declared, page_with("", "thread_view")] {
        let (page, x) = run(&html);
        let k = kept(&page, &x);
        for n in 0..3 {
            assert!(has(&k, &format!("Paragraph {n} ")), "{k:?}");
        }
        for n in 0..6 {
            assert!(has(&k, &format!("Reply {n}:")), "{k:?}");
        }
    }
    let (page, x) = run(&page_with("", "story"));
    let k = kept(&page, &x);
    assert!(has(&k, "Paragraph 0 ") && !has(&k, "Reply 0:"), "{k:?}");
}

#[test]
fn a_disclaimer_box_is_never_the_article() {
    // A fund company's page: its text cut into short cards, each in a grid cell of its own, and
    // the legal fine print in one long box at the end. The fine print holds the most prose in
    // one place, but it names itself a disclaimer; the page's text is the cards.
    let cards: String = (1..=6)
        .map(|n| {
            format!(
                "<div class=grid><div class=cell><div class=richtext><h3>Benefit {n}</h3>\
                 <p>Benefit {n}: our funds pass economies of scale along to the people who \
                 invest in them, so that more of the returns stay with them, year after year, \
                 whatever the markets do.</p>\
                 </div></div></div>"
            )
        })
        .collect();
    let fine_print: String = (1..=4)
        .map(|n| {
            format!(
                "<p>Risk note {n}: all investing is subject to risk, including the possible loss \
                 of the money you invest; diversification does not ensure a profit or protect \
                 against a loss, and past performance is no guarantee of future returns, which \
                 will vary with the markets, the fees and the taxes that apply to each \
                 investor.</p>"
            )
        })
        .collect();
    // Named by its id, or by its class.
    for name in ["id=disclosures", "class=legal-disclaimer"] {
        let html = format!(
            "<html><head><title>Index funds</title></head><body><nav>{NAV}</nav><main>\
             <h1>Index funds</h1><div class=grid>{cards}</div><div class=grid>\
             <div class=cell><div {name}><div class=richtext>{fine_print}</div></div></div>\
             </div></main></body></html>"
        );
        let (page, x) = run(&html);
        let kept = kept(&page, &x);
        for n in 1..=6 {
            assert!(
                has(&kept, &format!("Benefit {n}: our funds")),
                "{name}: {kept:#?}"
            );
        }
        assert!(!has(&kept, "Risk note"), "{name}: {kept:#?}");
    }
}

#[test]
fn a_gallery_a_print_only_box_and_the_authors_bio_are_not_the_story() {
    let gallery: String = (1..=4)
        .map(|n| {
            format!(
                "<div class=slide><img src=/g/{n}.jpg alt=\"\"><p>Photo {n} of the parade: the \
                 crowd on Main Street cheers as the floats pass the old town hall.</p></div>"
            )
        })
        .collect();
    let html = format!(
        "<html><head><title>Parade draws thousands</title></head><body>{NAV}<article>\
         <div class=\"print header\"><p>Printed from the Daily Example, your town's paper \
         since 1887, for personal use only.</p></div><h1>Parade draws thousands</h1>{}\
         <div class=gallery>{gallery}</div>{}<div class=\"author bio\"><p>Jane Doe covers the \
         city council and local events for the paper, and has lived in the town for twenty \
         years.</p></div></article></body></html>",
        paragraphs(0..3),
        paragraphs(3..6)
    );
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    assert!(has(&k, "Paragraph 0 "), "{k:?}");
    assert!(has(&k, "Paragraph 5 "), "{k:?}");
    assert!(!has(&k, "Photo 2 of the parade"), "{k:?}");
    assert!(!has(&k, "Printed from"), "{k:?}");
    assert!(!has(&k, "Jane Doe covers"), "{k:?}");
}

#[test]
fn a_line_left_with_its_templates_placeholders_is_not_text() {
    let html = format!(
        "<html><body>{NAV}<article><h1>Templates</h1>{}<p>This story appears in the \
         {{{{article.magazine.pretty_date}}}} issue of {{{{article.magazine.pubName}}}}. \
         Subscribe</p><p>In a template, write <code>{{{{ person }}}}</code> where the name goes, \
         and the engine fills it in when the page is made.</p><pre>&lt;h1&gt;Hello {{{{ person \
         }}}}!&lt;/h1&gt;</pre>{}</article></body></html>",
        paragraphs(0..3),
        paragraphs(3..6)
    );
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    assert!(!has(&k, "This story appears"), "{k:?}");
    assert!(has(&k, "where the name goes"), "{k:?}");
    assert!(has(&k, "Hello {{ person }}!"), "{k:?}");
    assert!(has(&k, "Paragraph 5 "), "{k:?}");
}

/// A thread whose first post stands in a box of its own and whose few replies follow in a
/// list of their own, each named as a comment (the way Vanilla prints a thread), beside a list
/// of other threads in `others_box` (`aside`, or a plain `div`). `declaration` goes in the
/// page's head.
fn thread_with_comments(declaration: &str, others_box: &str) -> String {
    let comment = |n: usize| {
        format!(
            "<li class=\"Item Alt ItemComment noPhotoWrap pageBox\" id=Comment_{n}><div class=Comment><div class=Author>\
             <a href=/u/{n}>member{n}</a> <span class=Meta>March {n}, 2025</span></div>\
             <div class=Message><p>Comment {n}: sad to see it go, though we all saw it coming \
             for a while, and thanks for the years of work on it.</p></div></div></li>"
        )
    };
    let comments: String = (1..=3).map(comment).collect();
    // Longer than the replies, and with prose of their own: only their linked titles say they
    // are other pages' entries.
    let other = |n: usize| {
        format!(
            "<li class=Other><a href=/t/{n}>Another thread about the project number {n}</a> \
             <p>Its opening post asks, at some length and with several examples, whether the \
             project number {n} will carry on, and who will keep it.</p></li>"
        )
    };
    let others: String = (1..=8).map(other).collect();
    format!(
        "<html><head><title>The project is ending - Forum</title>{declaration}</head><body>\
         <nav>{NAV}</nav><div class=Main><h1>The project is ending</h1>\
         <div class=Discussion><div class=Author><a href=/u/0>admin</a> December 2, 2024</div>\
         <div class=Message>{}</div></div>\
         <div class=Replies><h2>Replies</h2>\
         <ul class=\"MessageList DataList\">{comments}</ul></div></div>\
         <{others_box} class=MoreThreads><h3>Other threads</h3><ul>{others}</ul></{others_box}>\
         </body></html>",
        paragraphs(0..4)
    )
}

/// On a page that declares itself a discussion, the replies after the first post are the
/// thread, however short beside it; the list of other threads is not. The declaration counts
/// when it is the `mainEntity` of a `WebPage` (as XenForo prints it) and when it carries the
/// first post as its `articleBody`, which settles the first post but not the replies. Without
/// the declaration the replies are comments under an article and stay out.
#[test]
fn the_replies_after_a_declared_discussions_first_post_are_its_thread() {
    let first_post: String = (0..4)
        .map(|n| {
            format!(
                "Paragraph {n} of the article tells the story in full sentences, with commas, \
                 clauses and details, so that it reads like the text a person came to read."
            )
        })
        .collect::<Vec<_>>()
        .join("\\n\\n");
    let declarations = [
        "<meta property=og:type content=article>\
         <script type=\"application/ld+json\">{\"@type\": \"DiscussionForumPosting\", \
         \"headline\": \"The project is ending\"}</script>"
            .to_string(),
        "<script type=\"application/ld+json\">{\"@type\": \"WebPage\", \"mainEntity\": \
         {\"@type\": \"DiscussionForumPosting\", \"headline\": \"The project is ending\"}}\
         </script>"
            .to_string(),
        format!(
            "<script type=\"application/ld+json\">{{\"@type\": \"DiscussionForumPosting\", \
             \"articleBody\": \"{first_post}\"}}</script>"
        ),
    ];
    for declaration in &declarations {
        let (page, x) = run(&thread_with_comments(declaration, "aside"));
        let k = kept(&page, &x);
        for n in 0..4 {
            assert!(has(&k, &format!("Paragraph {n} ")), "{declaration}: {k:#?}");
        }
        for n in 1..=3 {
            assert!(has(&k, &format!("Comment {n}:")), "{declaration}: {k:#?}");
        }
        assert!(!has(&k, "Another thread"), "{declaration}: {k:#?}");
        assert!(!has(&k, "World"), "{declaration}: {k:#?}");
        let reply = page
            .blocks
            .iter()
            .position(|b| b.text.starts_with("Comment 1:"))
            .and_then(|i| x.labels.get(i));
        assert!(
            matches!(reply.map(|l| &l.reason), Some(Reason::Page { why, .. })
                if why.starts_with("thread: the page declares a discussion")),
            "the inspector says which step kept a reply: {reply:?}"
        );
    }
    let (page, x) = run(&thread_with_comments("", "aside"));
    let k = kept(&page, &x);
    assert!(has(&k, "Paragraph 0 ") && !has(&k, "Comment 1:"), "{k:#?}");
}

/// The search for a thread's posts passes over a list of other threads, even one longer than
/// the replies and with prose of its own: its entries link their titles.
#[test]
fn a_list_of_other_threads_is_not_the_thread() {
    let declaration = "<script type=\"application/ld+json\">{\"@type\": \
                       \"DiscussionForumPosting\"}</script>";
    let base = Url::parse("https://example.com/t/the-project-is-ending").ok();
    let page = page_from_html(&thread_with_comments(declaration, "div"), base.as_ref());
    let stats = Stats::compute(&page);
    let mut facts = NodeFacts::new(&page.dom);
    let thread = grid::find_thread(&page, &stats, &mut facts).map(|t| t.items);
    let posts: Vec<NodeId> = (0..page.dom.len() as NodeId)
        .filter(|&n| {
            page.dom
                .attr(n, "id")
                .is_some_and(|id| id.starts_with("Comment_"))
        })
        .collect();
    assert_eq!(posts.len(), 3);
    assert_eq!(thread, Some(posts));
}

/// The two cells of one post (its author's card and its text) are alike boxes too, but only
/// one holds prose: they are not a thread, and the card's lines stay out.
#[test]
fn the_two_cells_of_one_post_are_not_a_thread() {
    let html = format!(
        "<html><head><title>A question - Forum</title>\
         <script type=\"application/ld+json\">{{\"@type\": \"DiscussionForumPosting\"}}</script>\
         </head><body><nav>{NAV}</nav><h1>A question</h1>\
         <article class=message><div class=\"message-inner\">\
         <div class=\"message-cell message-cell--user\"><h4><a href=/u/1>asker</a></h4>\
         <dl><dt>Joined</dt><dd>Nov 4, 2011</dd><dt>Messages</dt><dd>65,334</dd>\
         <dt>Location</dt><dd>Somewhere far away</dd><dt>Reaction score</dt><dd>1,024</dd></dl>\
         </div><div class=\"message-cell message-cell--main\">{}</div></div></article>\
         </body></html>",
        paragraphs(0..4)
    );
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    assert!(has(&k, "Paragraph 3 "), "{k:#?}");
    assert!(
        !has(&k, "65,334") && !has(&k, "Somewhere far away"),
        "{k:#?}"
    );
}

/// A XenForo thread: each post is an author's card (name, join date, post count, location)
/// beside its text, under a permalink that is the post's date. The permalinks are not linked
/// titles, so the posts are a thread and not a list of other pages; every post's card holds no
/// prose in any post and goes. What the posts' authors write stays: a list three of the four
/// posts hold (their markup has no class: no template made it), a table one post holds, and the
/// template's one-line permalink.
#[test]
fn a_declared_threads_posts_keep_their_text_without_their_authors_cards() {
    let post = |n: usize, text: &str| {
        format!(
            "<article class=\"message message--post\" id=js-post-{n}><div class=message-inner>\
             <div class=\"message-cell message-cell--user\"><h4><a href=/m/{n}>member{n}</a></h4>\
             <h5>Senior Member</h5><dl><dt>Joined</dt><dd>Nov 4, 2011</dd>\
             <dt>Messages</dt><dd>6{n},334</dd><dt>Location</dt><dd>Faraway {n}</dd></dl></div>\
             <div class=\"message-cell message-cell--main\">\
             <div class=message-attribution><a href=/p/{n}>Nov 2{n}, 2025</a></div>\
             <div class=bbWrapper>{text}</div></div></div></article>"
        )
    };
    let reply = |n: usize| {
        format!(
            "<p>Reply {n}: we rented from the same agency twice, and both times the car was \
             clean, on time and cheaper than the airport's desks.</p>\
             <ul><li>Agency {n}</li><li>Airport {n}</li><li>Station {n}</li></ul>"
        )
    };
    let table = "<div class=bbTable><table><tr><td>Day one</td></tr><tr><td>Day two</td></tr>\
                 <tr><td>Day three</td></tr></table></div>";
    let posts = [
        post(1, &paragraphs(0..3)),
        post(2, &reply(2)),
        post(3, &format!("{}{table}", reply(3))),
        post(4, &reply(4)),
    ]
    .concat();
    let html = format!(
        "<html><head><title>Car rental or car hire? - Forum</title>\
         <script type=\"application/ld+json\">{{\"@type\": \"WebPage\", \"mainEntity\": \
         {{\"@type\": \"DiscussionForumPosting\"}}}}</script></head><body><nav>{NAV}</nav>\
         <h1>Car rental or car hire?</h1><div class=block-body>{posts}</div></body></html>"
    );
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    assert!(has(&k, "Paragraph 2 ") && has(&k, "Reply 4:"), "{k:#?}");
    for line in ["Agency 2", "Station 4", "Day two"] {
        assert!(has(&k, line), "{line}: {k:#?}");
    }
    assert!(has(&k, "Nov 24, 2025"), "{k:#?}");
    for card in ["Faraway", "Joined", "Senior Member", "64,334"] {
        assert!(!has(&k, card), "{card}: {k:#?}");
    }
}

/// A vBulletin thread as Warrior Forum prints it: the page declares an `Article` (each reply a
/// microdata `Comment`), the first post stands in `#main-post` inside a box named `ThreadView`,
/// and the replies follow in `#comments`. `thread_box` names the box around both (the first
/// post's own box names no thread).
fn thread_view(thread_box: &str, reply_class: &str) -> String {
    let reply = |n: usize| {
        format!(
            "<li class=\"{reply_class}\" itemscope itemtype=http://schema.org/Comment>\
             <div class=DiscussionBoard-author><a href=/u/{n} itemprop=author>member{n}</a>\
             <span>March {n}, 2024</span></div><div class=DiscussionBoard-message>\
             <p>Reply {n}: that method still works, though clicks cost more than they did, so \
             build the list first and test the pages before you pay for any traffic.</p>\
             </div></li>"
        )
    };
    let replies: String = (1..=5).map(reply).collect();
    format!(
        "<html><head><title>Will this method work?</title>\
         <meta property=og:type content=article>\
         <script type=\"application/ld+json\">{{\"@type\": \"Article\", \
         \"headline\": \"Will this method work?\"}}</script></head><body><nav>{NAV}</nav>\
         <main><article class=\"{thread_box} Card\"><h1>Will this method work?</h1>\
         <div id=main-post class=MainPost>{}</div>\
         <section id=comments class=DiscussionBoard><ul class=DiscussionBoard-list>{replies}\
         </ul></section></article></main></body></html>",
        paragraphs(0..4)
    )
}

/// A page whose first post sits in a box named as a thread's view is a discussion, whatever type
/// it declares, and its replies are its posts, also inside a box named as comments. A box of
/// another name (a story's, or `thread` alone, as WordPress names a post tagged so) makes the same
/// replies comments under an article; and posts named as comments (the comments under one post,
/// as Stack Exchange prints them) stay out as before.
#[test]
fn a_box_named_as_a_thread_makes_the_page_a_discussion() {
    let (page, x) = run(&thread_view("ThreadView", "DiscussionBoard-item"));
    let k = kept(&page, &x);
    for n in 0..4 {
        assert!(has(&k, &format!("Paragraph {n} ")), "{k:#?}");
    }
    for n in 1..=5 {
        assert!(has(&k, &format!("Reply {n}:")), "{k:#?}");
    }
    assert!(!has(&k, "World"), "{k:#?}");
    for (thread_box, reply_class) in [
        ("StoryView", "DiscussionBoard-item"),
        ("tag-twitter-thread", "DiscussionBoard-item"),
        ("thread-even", "DiscussionBoard-item"),
        ("ThreadView", "DiscussionBoard-comment"),
    ] {
        let (page, x) = run(&thread_view(thread_box, reply_class));
        let k = kept(&page, &x);
        assert!(
            has(&k, "Paragraph 0 "),
            "{thread_box} {reply_class}: {k:#?}"
        );
        assert!(!has(&k, "Reply 1:"), "{thread_box} {reply_class}: {k:#?}");
    }
}

/// A shop's category page: an introduction long enough to be an article, with a link that skips
/// to the results (`skip`), then a grid of products holding more words than the introduction but
/// not four times as many.
fn category_with_skip_link(skip: &str) -> String {
    let card = |n: usize| {
        format!(
            "<li class=card><a href=/p/{n}><h3>Trail runner number {n} for wet ground</h3></a>\
             <p class=price>$1{n}9.00</p><p class=rating>4.{n} out of 5 stars from 2{n} \
             reviews</p></li>"
        )
    };
    let cards: String = (1..=10).map(card).collect();
    format!(
        "<html><head><title>Running shoes</title></head><body><nav>{NAV}</nav><main>\
         <div class=intro>{skip}<h1>Running shoes</h1><p>Our running shoes are chosen by \
         runners who test them on roads, trails and tracks, in rain and heat, for a season \
         before we sell them, and we keep only the pairs that held up.</p><p>Find a road \
         shoe for daily miles, a trail shoe for rough ground, or a racing flat for the day \
         that counts, with free returns for a month.</p></div>\
         <div id=results><ul class=grid>{cards}</ul></div></main><aside id=care>\
         <p>Care for your shoes: rinse off the mud after every run, let them dry away from the \
         heater, and keep them out of the sun, so the foam keeps its spring and the uppers keep \
         their shape for longer.</p><p>Replace a road shoe after some five hundred miles, a \
         trail shoe sooner when its lugs wear flat, and never wash either in the machine, \
         whatever the label says about the laces and the insoles.</p></aside></body></html>"
    )
}

#[test]
fn a_grid_the_article_links_into_is_the_pages_content() {
    let skip = "<a class=sr-only href=#results>Skip to search results</a>";
    let (page, x) = run(&category_with_skip_link(skip));
    let k = kept(&page, &x);
    assert!(has(&k, "Our running shoes are chosen"), "{k:#?}");
    for n in [1, 10] {
        assert!(
            has(&k, &format!("Trail runner number {n} for")),
            "{n}: {k:#?}"
        );
    }
    // Without the link (or with one to another box that could hold a grid) the grid is too small
    // beside the introduction to be more than related products.
    for skip in ["", "<a class=sr-only href=#care>Skip to shoe care</a>"] {
        let (page, x) = run(&category_with_skip_link(skip));
        let k = kept(&page, &x);
        assert!(has(&k, "Our running shoes are chosen"), "{k:#?}");
        assert!(!has(&k, "Trail runner number 1 for"), "{skip}: {k:#?}");
    }
}

/// The structured data by which [`category_with_faq`] declares its questions and answers.
const FAQ_DECLARED: &str = r#"<script type="application/ld+json">
{"@context":"https://schema.org","@type":"FAQPage","mainEntity":[]}</script>"#;

/// A shop's category of graphics cards, declaring its questions and answers ([`FAQ_DECLARED`]):
/// its headline, then `between` (the grid, in the first layouts), then its questions and
/// answers, each answer `answer(n)`; `above` stands before the headline.
fn category_with_faq(above: &str, between: &str, answer: impl Fn(usize) -> String) -> String {
    let faq: String = (1..=4)
        .map(|n| format!("<h3>{}</h3><p>{}</p>", faq_question(n), answer(n)))
        .collect();
    format!(
        "<html><head><title>Graphics cards | Example Shop</title>{FAQ_DECLARED}</head>\
         <body><nav>{NAV}</nav>\
         <main>{above}<h1>Graphics cards</h1>{between}\
         <section class=faq><h2>Frequently asked questions</h2>{faq}</section></main>\
         <footer><p>Prices include tax.</p></footer></body></html>"
    )
}

/// The `n`th question of [`category_with_faq`].
fn faq_question(n: usize) -> String {
    format!("How much memory does card model {n} need for games?")
}

/// An answer of [`category_with_faq`]'s questions: prose of its own.
fn faq_answer(n: usize) -> String {
    format!(
        "For answer {n}, most games at high resolution fill eight to twelve gigabytes, so a card \
         with sixteen leaves room for textures, mods and the next few years of releases, while \
         older titles run well on less."
    )
}

/// Eight product cards of a category's grid.
fn graphics_cards() -> String {
    let cards: String = (1..=8)
        .map(|n| {
            format!(
                "<div class=card><a href=/p/{n}>Graphics card model {n} with sixteen \
                 gigabytes</a><p>Three fans, boost clock two point six</p><p>$4{n}9.99</p></div>"
            )
        })
        .collect();
    format!("<div class=products>{cards}</div>")
}

#[test]
fn a_listing_under_its_headline_is_kept_above_its_faq() {
    let (page, x) = run(&category_with_faq("", &graphics_cards(), faq_answer));
    let k = kept(&page, &x);
    for n in [1, 8] {
        assert!(has(&k, &format!("Graphics card model {n} with")), "{k:#?}");
    }
    assert!(has(&k, "$419.99"), "{k:#?}");
    // The questions and answers stay beside the grid.
    assert!(has(&k, &faq_question(2)), "{k:#?}");
    assert!(has(&k, "For answer 4, most games"), "{k:#?}");
    assert!(!has(&k, "Prices include tax"), "{k:#?}");
    let why = reason_of(&page, &x, "Graphics card model 3 with").unwrap_or_default();
    assert!(
        why.contains("questions and answers printed after the grid"),
        "{why}"
    );
    // The grid and the questions are both the page's boxes: the site's memory of where its
    // pages' text stands is the box around both.
    let held = |needle: &str| {
        page.blocks
            .iter()
            .filter(|b| b.text.contains(needle))
            .any(|b| {
                std::iter::successors(Some(b.node), |&n| page.dom.parent(n))
                    .any(|n| x.containers.contains(&n))
            })
    };
    assert!(held("Graphics card model 1 with"), "{:?}", x.containers);
    assert!(held(&faq_question(2)), "{:?}", x.containers);
    // A listing that fills the page, its `<main>` around all of it, is still the main's.
    let bare = category_with_faq("", &graphics_cards(), faq_answer)
        .replace(&format!("<nav>{NAV}</nav>"), "")
        .replace("<footer><p>Prices include tax.</p></footer>", "");
    let (page, x) = run(&bare);
    let k = kept(&page, &x);
    assert!(has(&k, "Graphics card model 8 with"), "{k:#?}");
    assert!(has(&k, "For answer 4, most games"), "{k:#?}");
    // A footer of the listing's own, inside the `<main>`, is no footer of the page's.
    let counted = bare.replace(
        "</div><section",
        "<footer>Showing 8 of 40</footer></div><section",
    );
    let (page, x) = run(&counted);
    assert!(
        has(&kept(&page, &x), "Graphics card model 8 with"),
        "{counted}"
    );
    // A service's directory: groups of links under headings of their own, no linked title
    // each (no comments: none stands above what it answers).
    let groups: String = (1..=6)
        .map(|g| {
            let links: String = (1..=4)
                .map(|n| format!("<li><a href=/s/{g}/{n}>Service {g}x{n}</a></li>"))
                .collect();
            format!("<div class=group><h3>Group of services {g}</h3><ul>{links}</ul></div>")
        })
        .collect();
    let (page, x) = run(&category_with_faq(
        "",
        &format!("<div>{groups}</div>"),
        faq_answer,
    ));
    let k = kept(&page, &x);
    assert!(has(&k, "Group of services 6"), "{k:#?}");
    assert!(has(&k, "Service 1x1"), "{k:#?}");
    assert!(has(&k, "For answer 4, most games"), "{k:#?}");
}

#[test]
fn a_grid_above_the_headline_or_above_prose_is_not_the_pages_listing() {
    // Printed above the headline, the cards are a strip of offers, not what the page lists.
    let (page, x) = run(&category_with_faq(&graphics_cards(), "", faq_answer));
    let k = kept(&page, &x);
    assert!(has(&k, "For answer 4, most games"), "{k:#?}");
    assert!(!has(&k, "Graphics card model 1 with"), "{k:#?}");
    // Under the headline, above prose, the cards are the products an article names, and too
    // few beside it to be its grid: an article whose subheadings ask (each over paragraphs)...
    let article = |n: usize| {
        (0..4)
            .map(|i| prose_text(n * 10 + i))
            .collect::<Vec<_>>()
            .join("</p><p>")
    };
    let (page, x) = run(&category_with_faq("", &graphics_cards(), article));
    let k = kept(&page, &x);
    assert!(has(&k, "Paragraph 43 of the article"), "{k:#?}");
    assert!(!has(&k, "Graphics card model 1 with"), "{k:#?}");
    // ... or one that asks its reader a question or two.
    let html = category_with_faq("", &graphics_cards(), faq_answer)
        .replace(&faq_question(3), "Memory for card model 3")
        .replace(&faq_question(4), "Memory for card model 4");
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    assert!(has(&k, "For answer 4, most games"), "{k:#?}");
    assert!(!has(&k, "Graphics card model 1 with"), "{k:#?}");
}

#[test]
fn only_a_page_declaring_its_faq_and_no_article_lists_above_it() {
    let listed = |html: &str| {
        let (page, x) = run(html);
        let k = kept(&page, &x);
        assert!(has(&k, "For answer 4, most games"), "{k:#?}");
        has(&k, "Graphics card model 1 with")
    };
    let category = category_with_faq("", &graphics_cards(), faq_answer);
    assert!(listed(&category));
    // An explainer asking its questions declares no FAQ: the cards are its strip of offers.
    assert!(!listed(&category.replace(FAQ_DECLARED, "")));
    // Nor does a page that calls itself an article list anything above its questions.
    let article = category.replace(
        FAQ_DECLARED,
        &format!("{FAQ_DECLARED}<meta property=\"og:type\" content=\"article\">"),
    );
    assert!(!listed(&article));
    // A table of contents linking to the questions below is their index, not a listing.
    let contents: String = (1..=8)
        .map(|n| {
            format!(
                "<li class=entry><a href=#q{n}>Question {n} on the memory cards need today</a></li>"
            )
        })
        .collect();
    let toc = category_with_faq(
        "",
        &format!("<ul class=contents>{contents}</ul>"),
        faq_answer,
    );
    let (page, x) = run(&toc);
    let k = kept(&page, &x);
    assert!(has(&k, "For answer 4, most games"), "{k:#?}");
    assert!(!has(&k, "Question 1 on the memory"), "{k:#?}");
    // Questions a reader asked in the comments under prose are no FAQ of the page's.
    let comments: String = (1..=4)
        .map(|n| format!("<div class=comment><p>{}</p></div>", faq_question(n)))
        .collect();
    let explainer = category_with_faq("", &graphics_cards(), prose_text)
        .replace(&faq_question(1), "Memory for card model 1")
        .replace(&faq_question(2), "Memory for card model 2")
        .replace(&faq_question(3), "Memory for card model 3")
        .replace(&faq_question(4), "Memory for card model 4")
        .replace("</section></main>", &format!("{comments}</section></main>"));
    let (page, x) = run(&explainer);
    assert!(!has(&kept(&page, &x), "Graphics card model 1 with"));
    // Cards in a column of their own beside the questions, the two sharing only a wrapper of
    // the whole page, are that column's, not what the questions' part of the page lists.
    let beside = category
        .replace("<body>", "<body><div id=page>")
        .replace("</body>", "</div></body>")
        .replace(&format!("<h1>Graphics cards</h1>{}", graphics_cards()), "")
        .replace(
            "<main>",
            &format!(
                "<div class=band><h1>Graphics cards</h1></div><div class=rail>{}</div><main>",
                graphics_cards()
            ),
        );
    assert!(!listed(&beside));
    // Within the questions' part of the page, under the headline, they are its listing.
    let inside = beside
        .replace("<div class=rail>", "<main><div class=rail>")
        .replace("</div><main><section", "</div><section");
    assert!(listed(&inside), "{inside}");
}

/// A reference page that prints its headline and first paragraphs in a header box and the body in
/// a box beside it, as MDN does.
fn opening_page(opening: &str) -> String {
    format!(
        "<html><head><title>Using the Fetch API</title></head><body>{NAV}\
         <main><div class=page-header><h1>Using the Fetch API</h1>{opening}</div>\
         <div class=page-body>{}</div></main>\
         <footer><p>Content available under a Creative Commons licence.</p></footer></body></html>",
        paragraphs(0..8)
    )
}

const OPENING_FIRST: &str = "The Fetch API provides an interface for making requests and \
                             processing the responses that come back.";
const OPENING_SECOND: &str = "You make a request by calling fetch(), which is available as a \
                              global function in windows and workers alike.";

#[test]
fn an_opening_between_the_headline_and_the_body_is_kept() {
    let html = opening_page(&format!(
        "<p>{OPENING_FIRST}</p><p>{OPENING_SECOND}</p><pre>const r = await fetch(url);</pre>"
    ));
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    assert!(has(&k, "Using the Fetch API"), "{k:?}");
    assert!(has(&k, "Paragraph 0 of the article"), "{k:?}");
    assert!(has(&k, "interface for making requests"), "{k:?}");
    assert!(has(&k, "global function in windows"), "{k:?}");
    assert!(
        has(&k, "await fetch(url)"),
        "the opening's code sample: {k:?}"
    );
    assert!(!has(&k, "Creative Commons"), "{k:?}");
    assert_eq!(
        reason_of(&page, &x, "interface for making requests"),
        Some(format!("pith-page: {LEDE}"))
    );
}

#[test]
fn a_lone_standfirst_a_long_gap_a_caption_or_a_box_apart_is_not_an_opening() {
    // One paragraph is a standfirst, which collections keep or drop by convention.
    let (page, x) = run(&opening_page(&format!("<p>{OPENING_FIRST}</p>")));
    assert!(!has(&kept(&page, &x), "interface for making requests"));
    // A gap longer than the body is not the body's opening (a shop's grid under its title).
    let grid: String = (0..70)
        .map(|n| format!("<li><a href=/p/{n}>Product number {n} in stock</a></li>"))
        .collect();
    let (page, x) = run(&opening_page(&format!(
        "<p>{OPENING_FIRST}</p><p>{OPENING_SECOND}</p><ul class=products>{grid}</ul>"
    )));
    assert!(!has(&kept(&page, &x), "interface for making requests"));
    // A figure's caption describes the photo.
    let (page, x) = run(&opening_page(&format!(
        "<figure><img src=/a.jpg><figcaption><p>{OPENING_FIRST}</p><p>{OPENING_SECOND}</p>\
         </figcaption></figure>"
    )));
    assert!(!has(&kept(&page, &x), "interface for making requests"));
    // Without a box of their own shared with the body, the paragraphs may be anything.
    let html = format!(
        "<html><head><title>Using the Fetch API</title></head><body>\
         <div class=top><h1>Using the Fetch API</h1><p>{OPENING_FIRST}</p>\
         <p>{OPENING_SECOND}</p></div><div class=page-body>{}</div></body></html>",
        paragraphs(0..8)
    );
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    assert!(has(&k, "Paragraph 0 of the article"), "{k:?}");
    assert!(!has(&k, "interface for making requests"), "{k:?}");
    // Nor in the site's banner inside a page wrapper.
    let html = format!(
        "<html><head><title>Using the Fetch API</title></head><body><div id=page>\
         <header class=top><h1>Using the Fetch API</h1><p>{OPENING_FIRST}</p>\
         <p>{OPENING_SECOND}</p></header><div class=page-body>{}</div></div></body></html>",
        paragraphs(0..8)
    );
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    assert!(has(&k, "Paragraph 0 of the article"), "{k:?}");
    assert!(!has(&k, "interface for making requests"), "{k:?}");
}

#[test]
fn an_opening_leaves_out_what_a_container_would_and_ends_at_a_teaser() {
    // A newsletter box's paragraphs are cleaned away as a container's would be; a byline stays
    // out; the opening itself stays.
    let html = format!(
        "<html><head><title>Using the Fetch API</title></head><body>{NAV}<main>\
         <div class=page-header><h1>Using the Fetch API</h1><p>{OPENING_FIRST}</p>\
         <p>{OPENING_SECOND}</p></div>\
         <p>By Jane Doe and John Roe, Staff Writers, March 3 2024</p>\
         <div class=newsletter><p>Get the best of our reference pages in your inbox every week, \
         free.</p><p>Join forty thousand developers who read it on Monday mornings already.</p>\
         </div><div class=page-body>{}</div></main></body></html>",
        paragraphs(0..8)
    );
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    assert!(has(&k, "interface for making requests"), "{k:?}");
    assert!(has(&k, "global function in windows"), "{k:?}");
    assert!(!has(&k, "in your inbox"), "{k:?}");
    assert!(!has(&k, "Jane Doe"), "{k:?}");
    // Teasers of other stories: their linked titles end the opening, and their summaries are
    // not the article's.
    let (page, x) = run(&opening_page(&format!(
        "<p>{OPENING_FIRST}</p><p>{OPENING_SECOND}</p>\
         <h3><a href=/other>Streams in the browser, explained</a></h3>\
         <p>A summary of another story about streams that the page points its readers to.</p>\
         <h3><a href=/third>Caching responses for offline use</a></h3>\
         <p>A summary of a third story about caches that the page points its readers to.</p>"
    )));
    let k = kept(&page, &x);
    assert!(has(&k, "interface for making requests"), "{k:?}");
    assert!(!has(&k, "another story about streams"), "{k:?}");
    assert!(!has(&k, "third story about caches"), "{k:?}");
}

/// An article whose JSON-LD names its author, with `body` in its box after the headline.
fn article_by_jane(body: &str) -> String {
    format!(
        "<html><head><title>Storm - Daily</title><script type=\"application/ld+json\">\
         {{\"@type\":\"NewsArticle\",\"author\":{{\"@type\":\"Person\",\"name\":\"Jane Doe\"}}}}\
         </script></head><body>{NAV}<article><h1>Storm</h1>{body}</article></body></html>"
    )
}

#[test]
fn the_declared_authors_biography_under_the_article_goes() {
    let bio = "<div class=box><h4>About the author</h4><img src=/jane.jpg alt=\"Jane Doe\">\
               <p>Jane Doe is a reporter who has covered the weather desk for ten years and \
               writes the morning briefing.</p></div>";
    let html = article_by_jane(&format!(
        "{}<p>Jane Doe contributed reporting from Miami.</p>{bio}",
        paragraphs(0..6)
    ));
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    assert!(has(&k, "Paragraph 5 of the article"), "{k:?}");
    assert!(has(&k, "contributed reporting"), "a byline: {k:?}");
    assert!(!has(&k, "Jane Doe is a reporter"), "{k:?}");
    assert!(!has(&k, "About the author"), "its box's heading: {k:?}");
    assert!(!has(&k, "jane.jpg"), "its portrait: {k:?}");
    assert!(
        reason_of(&page, &x, "Jane Doe is a reporter").is_some_and(|r| r.contains("biography")),
        "{:?}",
        reason_of(&page, &x, "Jane Doe is a reporter")
    );
    // By first name, in a box of its own or as the last prose kept; not a late paragraph of the
    // article that opens with the first name, nor a paragraph naming somebody else, nor a
    // speaker's label.
    let html = article_by_jane(&format!(
        "{}<p>John Smith is a reporter who covers the harbour and wrote the second \
         part.</p><p>Jane Doe: So what happened when the wind turned, and where did the \
         crew go then?</p><p>Jane and her crew flew into the eye of the storm twice before \
         the forecast changed for the better.</p><div><p>Jane writes the morning briefing \
         and has covered the weather desk for ten years.</p></div>",
        paragraphs(0..6)
    ));
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    assert!(
        has(&k, "Jane and her crew"),
        "among the article's paragraphs: {k:?}"
    );
    assert!(has(&k, "So what happened"), "a speaker's label: {k:?}");
    assert!(has(&k, "John Smith is a reporter"), "{k:?}");
    assert!(
        !has(&k, "Jane writes the morning"),
        "in a box of its own: {k:?}"
    );
    // An article about its author: a long line before the last quarter opens with the name,
    // and the late one is the article's too.
    let html = article_by_jane(&format!(
        "<p>Jane Doe is the forecaster who saw the storm first, three days before it came \
         ashore.</p>{}<div><p>Jane Doe still writes the morning briefing and has covered the \
         weather desk for ten years.</p></div>",
        paragraphs(0..6)
    ));
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    assert!(has(&k, "Jane Doe is the forecaster"), "{k:?}");
    assert!(
        has(&k, "Jane Doe still writes"),
        "the article's subject: {k:?}"
    );
}

#[test]
fn a_biographys_box_gives_up_its_heading_but_never_the_headline() {
    // A page of short lines (a poem) whose biography shares the article's box: the walk back over
    // the biography's heading lines stops at the headline and after a few lines.
    let stanza: String = (0..12)
        .map(|n| format!("<p>Line {n} of the poem, short</p>"))
        .collect();
    let html = article_by_jane(&format!(
        "{stanza}<p>Jane Doe is a poet who has written about the sea and its storms for \
         twenty years.</p>"
    ));
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    assert!(!has(&k, "Jane Doe is a poet"), "{k:?}");
    assert!(
        !has(&k, "Line 11 of the poem"),
        "the line heading it: {k:?}"
    );
    assert!(
        has(&k, "Line 8 of the poem"),
        "at most three lines go with it: {k:?}"
    );
    assert!(has(&k, "Storm"), "the headline stays: {k:?}");
}

#[test]
fn a_declared_bodys_article_loses_its_captions_and_its_authors_biography() {
    // The JSON-LD articleBody agrees with the container, which settles the article; a figure's
    // caption and the author's biography are no part of a body as its publisher wrote it.
    let body = (0..6).map(prose_text).collect::<Vec<_>>().join(" ");
    let html = format!(
        "<html><head><title>Storm - Daily</title><script type=\"application/ld+json\">\
         {{\"@type\":\"NewsArticle\",\"articleBody\":\"{body}\",\
         \"author\":{{\"name\":\"Jane Doe\"}}}}</script></head><body>{NAV}<article>\
         <h1>Storm</h1>{}<figure><img src=/bay.jpg><figcaption>The storm over the bay, seen \
         from the pier at dawn.</figcaption></figure>{}<p>Jane Doe is a reporter who has \
         covered the weather desk for ten years and writes the morning briefing.</p>\
         </article></body></html>",
        paragraphs(0..3),
        paragraphs(3..6)
    );
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    assert!(has(&k, "Paragraph 5 of the article"), "{k:?}");
    assert!(
        reason_of(&page, &x, "Paragraph 5").is_some_and(|r| r.contains("main container")),
        "the container's choice stands: {:?}",
        reason_of(&page, &x, "Paragraph 5")
    );
    assert!(!has(&k, "The storm over the bay"), "{k:?}");
    assert!(!has(&k, "Jane Doe is a reporter"), "{k:?}");
}

#[test]
fn a_reference_pages_linked_code_terms_head_their_descriptions() {
    // MDN lists a class's methods as terms linking to their own pages: each names code and heads
    // its description. Terms that name no code (a list of related stories) are links.
    let html = format!(
        "<html><head><title>Promise - Reference</title></head><body>{NAV}<article>\
         <h1>Promise</h1>{}<h2>Static methods</h2><dl>\
         <dt><a href=/all><code>Promise.all()</code></a></dt><dd>Takes an iterable of promises \
         and returns a single promise that fulfills when all of them do.</dd>\
         <dt><a href=/race><code>Promise.race()</code></a></dt><dd>Takes an iterable of \
         promises and settles as soon as the first of them settles.</dd></dl>\
         <h2>Elsewhere</h2><dl><dt><a href=/story>Council passes the new budget</a></dt>\
         <dd>The vote came late on Tuesday after a long debate about the schools.</dd></dl>\
         </article></body></html>",
        paragraphs(0..6)
    );
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    assert!(has(&k, "Promise.all()"), "{k:?}");
    assert!(has(&k, "Promise.race()"), "{k:?}");
    assert!(
        has(&k, "Takes an iterable of promises and returns"),
        "{k:?}"
    );
    assert!(!has(&k, "Council passes the new budget"), "no code: {k:?}");
}

#[test]
fn a_sentence_linking_one_thing_stays_a_line_of_links_goes() {
    // Half of each sentence below is its link: by link density alone each would go as a
    // link-dense block. One link inside a sentence is a citation; several, or a linked title
    // that ends as no sentence ends, are links.
    let html = format!(
        "<html><head><title>Functions - Guide</title></head><body>{NAV}<article>\
         <h1>Functions</h1>{}\
         <p>See <a href=/scopes>function scopes and closures</a> for more information.</p>{}\
         <p>The suspect, <a href=/webb>Michael Webb of Ohio</a>, was convicted.</p>\
         <ul><li>Add <a href=/deps>external packages as dependencies</a> to the module.</li>\
         <li>Upgrade or downgrade the versions of what the module depends on as needed, over \
         time and as often as the project calls for it.</li>\
         <li><a href=/a>Dependencies</a></li></ul>\
         <p>Follow our newsroom on <a href=/f>Facebook</a>, <a href=/t>Twitter</a>, \
         <a href=/i>Instagram</a>, <a href=/k>TikTok</a> and <a href=/y>YouTube</a>.</p>\
         <p>Read more from our newsroom: <a href=/other>Another story about the caches</a></p>\
         <p>Next from our newsroom: <a href=/fed>Will the Fed cut rates again this year?</a></p>\
         <p>Read more about <a href=/bay>the storm over the bay</a>...</p>\
         <p><img src=/chart.png alt=Chart>Compare <a href=/map>the forecast for the coast</a> \
         on the map.</p>\
         <ul><li>(Read <a href=/glossary>the glossary of storm terms</a> for the words.)</li>\
         <li>Each term the forecasters use is explained there in plain words, with an example \
         from a real storm and a drawing.</li></ul>\
         <p><a href=/guide>The guide to functions</a>, read it.</p>\
         <p>Start with <a href=/long>the long and complete guide to every kind of function \
         the language has</a> here.</p>\
         </article></body></html>",
        paragraphs(0..3),
        paragraphs(3..6)
    );
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    assert!(has(&k, "for more information."), "{k:?}");
    assert!(has(&k, "was convicted."), "a link inside: {k:?}");
    assert!(has(&k, "Add external packages"), "a list's entry: {k:?}");
    assert!(!k.iter().any(|l| l == "Dependencies"), "a bare link: {k:?}");
    assert!(!has(&k, "Follow our newsroom"), "several links: {k:?}");
    assert!(
        !has(&k, "Will the Fed"),
        "a headline ending inside its link: {k:?}"
    );
    assert!(!has(&k, "the storm over the bay"), "an ellipsis: {k:?}");
    assert!(has(&k, "on the map."), "after an inline image: {k:?}");
    assert!(has(&k, "the glossary of storm terms"), "in brackets: {k:?}");
    assert!(!has(&k, "Read more from"), "no sentence's end: {k:?}");
    assert!(
        !has(&k, "The guide to functions"),
        "two words of its own: {k:?}"
    );
    assert!(
        reason_of(&page, &x, "Start with").is_some_and(|r| r.contains("link text")),
        "mostly its link: {:?}",
        reason_of(&page, &x, "Start with")
    );
    assert!(
        reason_of(&page, &x, "Follow our newsroom").is_some_and(|r| r.contains("link-dense block")),
        "{:?}",
        reason_of(&page, &x, "Follow our newsroom")
    );
}

#[test]
fn a_heading_with_a_link_button_and_the_entry_it_heads_stay_a_widget_of_buttons_goes() {
    // Substack puts a button that copies the section's link in each section heading, Stripe's
    // API reference one in each attribute's heading.
    let html = format!(
        "<html><head><title>Edge first - Notes</title></head><body>{NAV}<article>\
         <h1>Edge first</h1>{}\
         <h2 class=header-anchor-post>The cloud is not the computer<div class=anchor-parent>\
         <div class=anchor><button aria-label=Link><svg></svg></button></div></div></h2>{}\
         <ul class=attributes><li><h4><button aria-label=Link></button>id string</h4>\
         <div><p>Unique identifier for the object.</p></div></li>\
         <li><h4><button aria-label=Link></button>amount integer</h4>\
         <div><p>Amount intended to be collected.</p></div></li></ul>\
         <div class=cta><button>Get the app</button><span>Free forever</span></div>\
         <div class=player><h4>Listen to this article<button>Play</button></h4>\
         <span>Twelve minutes</span></div>\
         </article></body></html>",
        paragraphs(0..4),
        paragraphs(4..8)
    );
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    assert!(has(&k, "The cloud is not the computer"), "{k:?}");
    assert!(
        has(&k, "Unique identifier for the object."),
        "an entry headed so: {k:?}"
    );
    assert!(has(&k, "Paragraph 7 of the article"), "{k:?}");
    assert!(
        !has(&k, "Free forever"),
        "the widget around a button: {k:?}"
    );
    assert!(
        !has(&k, "Twelve minutes"),
        "a worded button is a control: {k:?}"
    );
}

#[test]
fn a_manual_section_on_cookies_stays_a_comment_section_named_so_goes() {
    // Documentation generators make a section's id from its heading: the section is about
    // cookies, it is no cookie notice.
    let html = format!(
        "<html><head><title>Quickstart - Flask</title></head><body>{NAV}\
         <div class=body><h1>Quickstart</h1>{}\
         <section id=cookies><h3>Cookies<a class=headerlink href=#cookies>\u{b6}</a></h3>\
         <p>To access cookies you can use the cookies attribute, and to set them you use the \
         set_cookie method of response objects, which the framework creates for you.</p></section>\
         {}</div></body></html>",
        paragraphs(0..4),
        paragraphs(4..6)
    );
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    assert!(has(&k, "set_cookie method"), "{k:?}");
    assert!(has(&k, "Cookies"), "{k:?}");
    // A blog's comment section whose id is its heading's word is still its comments.
    let html = format!(
        "<html><head><title>My trip - Blog</title></head><body>{NAV}\
         <article><h1>My trip</h1>{}</article>\
         <section id=comments><h2>Comments</h2>\
         <div><p>Anna on March 3, 2024 at 10:12</p><p>What a lovely trip, thank you for \
         writing it all down in such detail, I will go there next year.</p></div>\
         <div><p>Ben on March 4, 2024 at 08:40</p><p>I went there last summer and the food \
         was the best part of the whole journey, do try the market stalls.</p></div>\
         </section></body></html>",
        paragraphs(0..6)
    );
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    assert!(has(&k, "Paragraph 5 of the article"), "{k:?}");
    assert!(!has(&k, "lovely trip"), "{k:?}");
}

#[test]
fn a_container_chosen_elsewhere_gets_the_refining_steps_too() {
    // The site's pages agree on `#side`, not the longer `#story` this page alone would choose.
    // Inside it, the steps that refine a region still run: the figure's caption goes as it would
    // in a container the page chose itself. (That widening does not run there, the site's own
    // test `a_template_box_with_more_prose_than_a_short_article_goes` shows.)
    let html = format!(
        "<html><body>{NAV}<div id=story><h1>Bridge opens</h1>{}</div>\
         <div id=side>{}<figure><img src=/photo.jpg alt=Bridge>\
         <figcaption>The new bridge at dawn, from the east bank.</figcaption></figure>{}</div>\
         </body></html>",
        paragraphs(0..6),
        paragraphs(10..12),
        paragraphs(12..14)
    );
    let base = Url::parse("https://example.com/news/story").ok();
    let page = page_from_html(&html, base.as_ref());
    let side = page
        .dom
        .elements_by_name("div")
        .find(|&d| page.dom.attr(d, "id") == Some("side"))
        .expect("the side box");
    let x = extract_in(&page, side);
    assert_eq!(x.containers, vec![side]);
    let k = kept(&page, &x);
    assert!(
        has(&k, "Paragraph 10 ") && has(&k, "Paragraph 13 "),
        "{k:?}"
    );
    assert!(!has(&k, "Paragraph 0 "), "{k:?}");
    assert!(has(&k, "[img https://example.com/photo.jpg]"), "{k:?}");
    assert!(!has(&k, "The new bridge at dawn"), "{k:?}");
}

/// A shop's listing whose introduction and grid share one box, so that the container keeps the
/// grid's box whole; the introduction links into the grid, which is then kept as the page's
/// content. `grid` is the grid's children; `card(n, class)` makes a card.
fn listing_with_grid(grid: &str) -> String {
    format!(
        "<html><head><title>Running shoes</title></head><body><nav>{NAV}</nav><main>\
         <div class=listing><a class=sr-only href=#results>Skip to search results</a>\
         <h1>Running shoes</h1><p>Our running shoes are chosen by runners who test them on \
         roads, trails and tracks, in rain and heat, for a season before we sell them, and we \
         keep only the pairs that held up.</p><p>Find a road shoe for daily miles, a trail \
         shoe for rough ground, or a racing flat for the day that counts, with free returns \
         for a month.</p><div id=results><ul class=grid>{grid}</ul></div></div></main>\
         </body></html>"
    )
}

fn shoe_card(n: usize, class: &str) -> String {
    format!(
        "<li class={class}><a href=/p/{n}><h3>Trail runner number {n} for wet ground and deep \
         mud on long days</h3></a>\
         <p class=price>$1{n}9.00</p><p class=rating>4.{n} out of 5 stars from 2{n} \
         reviews</p></li>"
    )
}

#[test]
fn a_promotions_tile_among_a_grids_items_goes_and_a_group_heading_stays() {
    let cards = |range: std::ops::RangeInclusive<usize>| {
        range.map(|n| shoe_card(n, "card")).collect::<String>()
    };
    let grid = format!(
        "<li class=note><p>Prices include tax.</p></li>\
         {}<li class=promo-tile><h2>Get fifty in value</h2><p>Earn a reward of fifty dollars \
         when you are approved for the store card and make a first purchase before the end of \
         the month.</p></li>{}<li class=group-title><h3>Trail runners for dry ground</h3></li>\
         {}<li class=note><p>Ten shoes shown.</p></li>",
        cards(1..=4),
        cards(5..=7),
        cards(8..=10)
    );
    let (page, x) = run(&listing_with_grid(&grid));
    let k = kept(&page, &x);
    assert!(has(&k, "Our running shoes are chosen"), "{k:#?}");
    for n in [1, 4, 5, 10] {
        assert!(
            has(&k, &format!("Trail runner number {n} for")),
            "{n}: {k:#?}"
        );
    }
    // A box of headings alone titles the cards after it; what stands before the first card or
    // after the last is no tile set among them.
    assert!(has(&k, "Trail runners for dry ground"), "{k:#?}");
    assert!(has(&k, "Prices include tax."), "{k:#?}");
    assert!(has(&k, "Ten shoes shown."), "{k:#?}");
    assert!(!has(&k, "Earn a reward of fifty dollars"), "{k:#?}");
    assert!(!has(&k, "Get fifty in value"), "{k:#?}");
    let tile = reason_of(&page, &x, "Earn a reward").expect("the tile's text is a block");
    assert!(tile.contains("promotion"), "{tile}");
}

#[test]
fn a_second_run_of_alike_items_is_no_tile_set_among_the_first() {
    // Every third card is on sale, in a class of its own (`card-sale`): the others are the
    // grid, and the sale cards between them are items too, not promotions.
    let grid: String = (1..=16)
        .map(|n| shoe_card(n, if n % 3 == 0 { "card-sale" } else { "card" }))
        .collect();
    let (page, x) = run(&listing_with_grid(&grid));
    let k = kept(&page, &x);
    assert!(
        x.labels
            .iter()
            .any(|l| matches!(&l.reason, Reason::Page { why, .. } if why.starts_with("grid:"))),
        "the grid is kept: {k:#?}"
    );
    // The sale cards keep what the container kept of them (their prices and ratings; their
    // linked titles, outside the grid, it removed): nothing of them goes as a promotion.
    for n in 1..=16 {
        assert!(has(&k, &format!("4.{n} out of 5 stars")), "{n}: {k:#?}");
        if n % 3 != 0 {
            assert!(
                has(&k, &format!("Trail runner number {n} for")),
                "{n}: {k:#?}"
            );
        }
    }
}

#[test]
fn a_description_lists_terms_stay_with_their_descriptions() {
    // A list of papers: each term is the paper's identifier and its links, each description its
    // title, authors and subjects. When the descriptions are kept as a grid, their terms go
    // with them.
    let entries: String = (1..=6)
        .map(|n| {
            format!(
                "<dt><a href=/abs/{n}>arXiv:2603.0549{n}</a> [<a href=/pdf/{n}>pdf</a>]</dt>\
                 <dd><div>Title: Sparse attention number {n} in long contexts</div>\
                 <div>Ana Rossi, Bo Chen</div></dd>"
            )
        })
        .collect();
    let html =
        format!("<html><body><dl id=articles><div>Listing note</div>{entries}</dl></body></html>");
    let page = page_from_html(&html, None);
    let stats = Stats::compute(&page);
    let dom = &page.dom;
    let parent = dom.elements_by_name("dl").next().expect("the list");
    let items: Vec<NodeId> = dom.elements_by_name("dd").collect();
    let grid = grid::Grid {
        parent,
        items,
        words: 60,
    };
    let picks = grid::keep(&page, &stats, &grid, "grid");
    let pick_of = |text: &str| {
        let index = page
            .blocks
            .iter()
            .position(|b| b.text.starts_with(text))
            .expect("a block");
        &picks[index]
    };
    for n in [1, 6] {
        assert!(
            matches!(pick_of(&format!("arXiv:2603.0549{n}")), Pick::Keep(_)),
            "{n}"
        );
        assert!(matches!(
            pick_of(&format!("Title: Sparse attention number {n}")),
            Pick::Keep(_)
        ));
    }
    // What stands before the first paper's term is no paper's.
    assert!(matches!(pick_of("Listing note"), Pick::Outside));
}

/// A page builder's page: its heading and each of its `modules` paragraphs sit in a module of
/// their own, each a `widget` with a `widget-container` inside (as Elementor builds them: two
/// elements named so per module); a share-buttons module stands among them.
fn page_builder_page(modules: usize) -> String {
    let module = |inner: String, kind: &str| {
        format!(
            "<div class='elementor-element elementor-widget elementor-widget-{kind}'>\
             <div class=elementor-widget-container>{inner}</div></div>"
        )
    };
    let body: String = (0..modules)
        .map(|n| module(prose(n), "text-editor"))
        .collect();
    let share = module(
        "<p>Share this article with your friends and family on every network you use \
         today.</p>"
            .to_string(),
        "share-buttons",
    );
    format!(
        "<html><body><nav>{NAV}</nav><div class=elementor-section><div class=elementor-column>\
         {}{body}{share}</div></div><footer><p>Copyright the publisher, every year since it was \
         founded.</p></footer></body></html>",
        module(
            "<h1>Saving money in your twenties</h1>".to_string(),
            "heading"
        )
    )
}

#[test]
fn a_word_the_template_gives_every_module_says_nothing() {
    // 20 modules of two elements each (the heading's, 18 paragraphs', the share buttons') name
    // 40 boxes `widget`: the word is the builder's name for any box, and the article's
    // paragraphs, each in one, are the article the container holds (not text that widening had
    // to bring back after the
    // container lost it all). The share module is still what its next word says.
    let (page, x) = run(&page_builder_page(18));
    let k = kept(&page, &x);
    for n in [0, 9, 17] {
        assert!(has(&k, &format!("Paragraph {n} of")), "{n}: {k:#?}");
        let why = reason_of(&page, &x, &format!("Paragraph {n} of")).unwrap_or_default();
        assert!(why.starts_with("pith-page: in main container"), "{why}");
    }
    assert!(!has(&k, "Share this article"), "{k:#?}");
    assert_eq!(
        reason_of(&page, &x, "Share this article").as_deref(),
        Some("pith-page: removed: class 'share'")
    );
    // One module fewer (38 boxes): the word still marks each box, and the container's choice
    // starves.
    let (page, x) = run(&page_builder_page(17));
    let why = reason_of(&page, &x, "Paragraph 9 of").unwrap_or_default();
    assert!(!why.starts_with("pith-page: in main container"), "{why}");
    // A handful of widgets beside the article are what the word says: boxes around it.
    let widgets: String = (0..5)
        .map(|n| {
            format!(
                "<div class=widget><p>Widget box {n}: our partners offer loans at rates you \
                 will like, apply today and get an answer within the hour.</p></div>"
            )
        })
        .collect();
    let html = format!(
        "<html><body><div class=content><h1>Saving money</h1>{}{widgets}{}</div>\
         </body></html>",
        paragraphs(0..4),
        paragraphs(4..8)
    );
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    assert!(has(&k, "Paragraph 7 of"), "{k:#?}");
    assert!(!has(&k, "Widget box"), "{k:#?}");
    assert_eq!(
        reason_of(&page, &x, "Widget box").as_deref(),
        Some("pith-page: removed: class 'widget'")
    );
}

/// A short post or summary of prose, numbered so that every one is distinct.
fn short_prose(n: usize) -> String {
    format!(
        "<p>Post {n}: I tried the new driver last night, and the card runs cooler now, though \
         the fan still spins up when a game loads, which is loud but fine.</p>"
    )
}

/// A section front: a few stories, each a linked title over its summary, and nothing else of
/// length. Nothing is kept: it is no article, and the step that widens leaves teasers alone. A
/// front whose titles are a word or two cannot be told from a thread's posts under their
/// authors' names: it keeps its summaries, never a blank page.
#[test]
fn a_front_of_linked_titles_over_summaries_is_no_article() {
    /// A story's title line, made from its number.
    type Title = fn(usize) -> String;
    let front = |title: Title| {
        let stories: String = (0..3)
            .map(|n| format!("<div class=s{n}>{}{}</div>", title(n), short_prose(n)))
            .collect();
        format!("<html><body><nav>{NAV}</nav><div class=front>{stories}</div></body></html>")
    };
    let titles: [(&str, Title); 2] = [
        ("a heading", |n| {
            format!("<h2><a href=/s{n}>Council approves the budget {n}</a></h2>")
        }),
        ("a linked line", |n| {
            format!("<div><a href=/s{n}>Council approves the budget</a></div>")
        }),
    ];
    for (name, title) in titles {
        let (page, x) = run(&front(title));
        assert!(kept(&page, &x).is_empty(), "{name}: {:?}", kept(&page, &x));
        assert_eq!(
            reason_of(&page, &x, "Post 1:").as_deref(),
            Some("pith-page: no article: every paragraph is a teaser under a link"),
            "{name}"
        );
    }
    let (page, x) = run(&front(|n| format!("<h2><a href=/s{n}>Budget{n}</a></h2>")));
    assert!(has(&kept(&page, &x), "Post 1:"), "{:?}", kept(&page, &x));
}

/// A shop's list of `cards` and, after it, a related-stories box of `stories` linked titles
/// over summaries, with `byline` between them: the page's only prose.
fn shop_with_related_stories(cards: &str, stories: usize, byline: &str) -> String {
    let stories: String = (0..stories)
        .map(|n| {
            format!(
                "<div><h3><a href=/story/{n}>Council approves the budget {n}</a></h3>{byline}{}\
                 </div>",
                short_prose(n)
            )
        })
        .collect();
    format!(
        "<html><head><title>Trail shoes</title></head><body><nav>{NAV}</nav><div class=w1>\
         <h1>Trail shoes</h1><ul class=cards>{cards}</ul></div><div class=more>\
         <h2>More stories</h2>{stories}</div></body></html>"
    )
}

/// A related-stories box printed after a shop's list: its summaries, each under a story's linked
/// title, are the page's only prose, and the page reads as a front of teasers. The teasers stay
/// out, but the list, printed before them and holding none of them, is what the page shows: it
/// is kept, not a blank pane, and the blocks left out say why in the grid's terms. A front
/// whose own list holds the teasers stays empty, and so does one whose list of latest headlines
/// follows its teasers.
#[test]
fn a_grid_beside_a_related_stories_box_is_kept_when_the_teasers_are_not() {
    let html = shop_with_related_stories(&shoe_cards(), 3, "");
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    assert!(has(&k, "Trail runner model 7"), "{k:#?}");
    assert!(!has(&k, "Post 1:"), "{k:#?}");
    assert!(
        reason_of(&page, &x, "Trail runner model 7")
            .is_some_and(|r| r.starts_with("pith-page: grid: ")),
        "{:?}",
        reason_of(&page, &x, "Trail runner model 7")
    );
    assert_eq!(
        reason_of(&page, &x, "Post 1:").as_deref(),
        Some("pith-page: grid: a teaser of another page, after the page's grid")
    );
    assert_eq!(
        reason_of(&page, &x, "Sport").as_deref(),
        Some("pith-page: grid: outside the page's grid of items")
    );

    let teasers: String = (0..4)
        .map(|n| {
            format!(
                "<li><h3><a href=/story/{n}>Council approves the budget {n}</a></h3>{}</li>",
                short_prose(n)
            )
        })
        .collect();
    let html = format!("<html><body><nav>{NAV}</nav><ul class=front>{teasers}</ul></body></html>");
    let (page, x) = run(&html);
    assert!(kept(&page, &x).is_empty(), "{:#?}", kept(&page, &x));

    let stories: String = (0..3)
        .map(|n| {
            format!(
                "<div class=s{n}><h2><a href=/s{n}>Council approves the budget {n}</a></h2>{}</div>",
                short_prose(n)
            )
        })
        .collect();
    let latest: String = (0..8)
        .map(|n| {
            format!(
                "<li class=l><a href=/l{n}>Latest headline about the city budget vote {n}</a></li>"
            )
        })
        .collect();
    let html = format!(
        "<html><body><nav>{NAV}</nav><div class=front>{stories}</div>\
         <ul class=latest>{latest}</ul></body></html>"
    );
    let (page, x) = run(&html);
    assert!(kept(&page, &x).is_empty(), "{:#?}", kept(&page, &x));
}

/// A teaser may carry a line between its title and its summary: its author, its date. The
/// related-stories box after a shop's list is still a box of teasers, and the list is kept.
/// A line of links there is no author's line: a listing's row under its title says what it
/// links, and the prose under it is no teaser.
#[test]
fn a_teasers_author_line_leaves_it_a_teaser() {
    let html = shop_with_related_stories(&shoe_cards(), 3, "<div>Carrie Healey</div>");
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    assert!(has(&k, "Trail runner model 7"), "{k:#?}");
    assert!(!has(&k, "Post 1:"), "{k:#?}");

    let linked = "<div><a href=/u/1>dang</a> <a href=/i/1>2 hours ago</a> | <a href=/h/1>hide</a>\
                  </div>";
    let html = shop_with_related_stories(&shoe_cards(), 3, linked);
    let (page, x) = run(&html);
    assert!(has(&kept(&page, &x), "Post 1:"), "{:#?}", kept(&page, &x));

    // A list of trails, each a heading, a line of facts and a link to its map, beside the
    // related stories: under the link closing one entry stands the next entry's heading, not
    // a teaser's author, and the trails are the page's.
    let trails: String = (0..8)
        .map(|n| {
            format!(
                "<li class=t><h2>Trail park {n}</h2><div>Trail {n} is rated for beginners, \
                 runs five miles through pine woods, and has a steward.</div>\
                 <div><a href=/map/{n}>View the trail map</a></div></li>"
            )
        })
        .collect();
    let html = shop_with_related_stories(&trails, 3, "");
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    assert!(
        has(&k, "Trail 1 is rated") && has(&k, "Trail 7 is rated"),
        "{k:#?}"
    );
}

/// A related-stories box too long for a front of teasers, on a shop's page whose long list of
/// short lines holds no prose: the box is chosen, but teasers are a list of other pages, not an
/// article, and the shop's list, more than twice their words (not four times, as beside an
/// article), is the page's.
#[test]
fn kept_teasers_weigh_against_a_grid_as_no_article() {
    let cards: String = (1..=40)
        .map(|n| {
            format!(
                "<li class=card><a href=/shoe/{n}>Trail runner model {n} in blue</a>\
                 <span>$ 8{n}.00</span><form><button>Add to cart</button></form></li>"
            )
        })
        .collect();
    let html = shop_with_related_stories(&cards, 6, "");
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    assert!(has(&k, "Trail runner model 27 in blue"), "{k:#?}");
    assert!(!has(&k, "Post 1:"), "{k:#?}");
}

/// `count` related stories as a blog theme prints them: each an image, a linked title, its
/// author's name and a summary that links nothing, in a box whose class carries its number.
fn related_teasers(count: usize) -> String {
    (0..count)
        .map(|n| {
            format!(
                "<div class=p{n}><a href=/s{n}><img src=/i{n}.jpg alt=''></a>\
                 <h4><a href=/s{n}>Council approves the budget {n}</a></h4><div>Carrie Healey</div>\
                 <p>Summary {n}: the council met for three hours, heard residents on every side, \
                 and agreed to wait for a second study of the traffic before it votes on the new \
                 plan in the spring, when more of them can come.</p></div>"
            )
        })
        .collect()
}

/// A story's related box as a blog theme prints it inside the story's own box: a heading, then
/// teasers side by side, each an image, a linked title, its author and a summary. The summaries
/// link nothing, so the box is not dense with links; the teasers after the heading go with it,
/// and say why. A guide's "Recommended courses:" followed by its entries and then more of the
/// guide is a section of the article, and stays.
#[test]
fn teasers_closing_a_related_box_go_with_its_heading() {
    let teasers = related_teasers(3);
    let html = format!(
        "<html><body><nav>{NAV}</nav><div class=body><h1>Rain ends drought</h1>{}\
         <div class=more><h4>Related Stories</h4>{teasers}</div></div></body></html>",
        paragraphs(0..5)
    );
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    assert!(has(&k, "Paragraph 4 of"), "{k:#?}");
    assert!(!has(&k, "Summary 0:") && !has(&k, "Summary 2:"), "{k:#?}");
    assert_eq!(
        reason_of(&page, &x, "Summary 1:").as_deref(),
        Some("pith-page: removed: a teaser of another page, after a related heading")
    );

    let entries: String = (0..2)
        .map(|n| {
            format!(
                "<div><h3><a href=/c{n}>Intensive foundation course {n}</a></h3>\
                 <p>Course {n} teaches the basics of layout, colour and type over twelve weeks, \
                 with a tutor who reads every exercise and answers within two days.</p></div>"
            )
        })
        .collect();
    let html = format!(
        "<html><body><nav>{NAV}</nav><div class=body><h1>The best design courses</h1>{}\
         <h5>Recommended courses:</h5>{entries}{}</div></body></html>",
        paragraphs(0..3),
        paragraphs(3..6)
    );
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    assert!(
        has(&k, "Course 0 teaches") && has(&k, "Course 1 teaches"),
        "{k:#?}"
    );
    assert!(has(&k, "Paragraph 5 of"), "{k:#?}");
}

/// The story's related box with its teasers wrapped in one list box after the heading, which
/// their summaries keep from being dense with links: the box goes with its heading. Boxes too
/// long for teasers (a section of 120 words or more each) stay.
#[test]
fn a_related_headings_box_of_teasers_goes_and_long_sections_stay() {
    let story = |boxes: &str| {
        format!(
            "<html><body><nav>{NAV}</nav><div class=body><h1>Rain ends drought</h1>{}\
             <div class=more><h4>Related Stories</h4>{boxes}</div></div></body></html>",
            paragraphs(0..10)
        )
    };
    let (page, x) = run(&story(&format!(
        "<div class=list>{}</div>",
        related_teasers(3)
    )));
    let k = kept(&page, &x);
    assert!(has(&k, "Paragraph 9 of"), "{k:#?}");
    assert!(!has(&k, "Summary 1:"), "{k:#?}");

    let sections: String = (0..3)
        .map(|n| {
            format!(
                "<div><h4><a href=/s{n}>Council approves the budget {n}</a></h4>{}</div>",
                paragraphs(10 + 5 * n..15 + 5 * n)
            )
        })
        .collect();
    let (page, x) = run(&story(&sections));
    let k = kept(&page, &x);
    assert!(
        has(&k, "Paragraph 11 of") && has(&k, "Paragraph 24 of"),
        "{k:#?}"
    );
}

/// Entries after a heading that opens like a related box are the article's own when they are
/// its core (a guide's two recommended books, the densest box of its prose), or when their
/// links lead to other owners' sites (a reading list citing elsewhere, where related stories
/// lead around the site itself).
#[test]
fn recommended_entries_of_the_article_stay_after_a_related_heading() {
    let books = |site: &str| -> String {
        (0..3)
            .map(|n| {
                format!(
                    "<div><h4><a href={site}/book/{n}>The history of the city budget {n}</a></h4>\
                     <p>Book {n} follows the council through ten years of votes, with the \
                     minutes, the letters and the people who wrote them.</p></div>"
                )
            })
            .collect()
    };
    let html = format!(
        "<html><body><nav>{NAV}</nav><div class=body><h1>Rain ends drought</h1>{}\
         <h3>Recommended reading</h3>{}</div></body></html>",
        paragraphs(0..3),
        books("https://www.bookshop.org")
    );
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    assert!(
        has(&k, "Book 0 follows") && has(&k, "Book 2 follows"),
        "{k:#?}"
    );

    let long_books: String = (0..2)
        .map(|n| {
            format!(
                "<div><h4><a href=/book/{n}>The history of the city budget {n}</a></h4>{}</div>",
                paragraphs(20 + 3 * n..23 + 3 * n)
            )
        })
        .collect();
    let html = format!(
        "<html><body><nav>{NAV}</nav><h1>Two books on the budget</h1><p>Our picks.</p>\
         <h3>Recommended books</h3><div class=picks>{long_books}</div></body></html>"
    );
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    assert!(
        has(&k, "Paragraph 20 of") && has(&k, "Paragraph 25 of"),
        "{k:#?}"
    );
}

/// Related stories printed right after the story's box, with no heading: teasers whose
/// summaries score as prose beside the story. They are other pages, and the box holding them
/// is not taken along with the story as its sibling.
#[test]
fn a_box_of_teasers_beside_the_story_is_not_its_sibling() {
    let teasers = related_teasers(3);
    let html = format!(
        "<html><body><nav>{NAV}</nav><div class=page><div class=story><h1>Rain ends drought</h1>\
         {}</div><div class=more>{teasers}</div></div></body></html>",
        paragraphs(0..4)
    );
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    assert!(has(&k, "Paragraph 3 of"), "{k:#?}");
    assert!(!has(&k, "Summary 1:"), "{k:#?}");
}

/// A thread of short posts whose boxes no name tells apart: each post's text sits under its
/// author's linked name and its linked number (`#1`), not under a story's title. The posts are
/// the page's text, not teasers of a section front.
#[test]
fn posts_under_their_authors_and_numbers_are_no_teasers() {
    let posts: String = (0..3)
        .map(|n| {
            format!(
                "<div class=a{n}><div class=b{n}><a href=/members/{n}>member{n}</a></div>\
                 <div class=c{n}><a href=/threads/7/post-{n}>#{n}</a></div>{}</div>",
                short_prose(n)
            )
        })
        .collect();
    let html = format!(
        "<html><body><nav>{NAV}</nav><h1>Which card for 1440p?</h1><div class=z>{posts}</div>\
         </body></html>"
    );
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    for n in 0..3 {
        assert!(has(&k, &format!("Post {n}:")), "{k:?}");
    }
    // The names and numbers in headings, as some forums print them, say the same.
    let html = html
        .replace("<div class=b", "<h3 class=b")
        .replace("</a></div><div class=c", "</a></h3><h3 class=c")
        .replace("</a></div><p>", "</a></h3><p>");
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    for n in 0..3 {
        assert!(has(&k, &format!("Post {n}:")), "headings: {k:?}");
    }
}

/// A page whose offer, in a box of its own printed before everything else (as a dialog's markup
/// often is), holds more prose than its article: the offer only says what the site sells.
/// `standfirst` is printed just before the headline, inside the part of the page that holds it.
fn offer_before_the_headline(standfirst: &str) -> String {
    let offer: String = (1..=9)
        .map(|n| {
            format!(
                "<p>Offer {n}: subscribe today, and for a whole year every story, every \
                 archive, every newsletter and every puzzle is yours, for less than a coffee \
                 a week, with nothing to sign.</p>"
            )
        })
        .collect();
    format!(
        "<html><head><title>River floods the old town</title></head><body>\
         <div id=x1><div>{offer}</div></div><nav>{NAV}</nav>\
         <div class=page>{standfirst}<h1>River floods the old town</h1>\
         <div class=story>{}</div></div></body></html>",
        paragraphs(0..5)
    )
}

/// Asserts that the extraction of `html` keeps the article's last paragraph (`article`) and
/// none of the box the headline sets apart, whose lines start with `apart` and say `why`.
fn assert_set_apart(html: &str, article: &str, apart: &str, why: &str) {
    let (page, x) = run(html);
    let kept = kept(&page, &x);
    assert!(has(&kept, article), "{kept:#?}");
    assert!(!has(&kept, apart), "{kept:#?}");
    assert_eq!(
        reason_of(&page, &x, apart).as_deref(),
        Some(format!("pith-page: outside main container: {why}").as_str())
    );
}

/// A box that ends before the page's headline, in a part of the page of its own, is not where
/// the article is: the story under the headline is kept, not the longer offer above it.
#[test]
fn prose_printed_before_the_headline_apart_from_it_is_not_the_article() {
    assert_set_apart(
        &offer_before_the_headline(""),
        "Paragraph 4 of the article",
        "Offer 3: subscribe",
        "before the page's headline, in a part of its own",
    );
}

/// A heading that repeats the title inside a dialog (or navigation, a footer, an aside) is not
/// where the article begins: the story before it keeps its score, and the page keeps it.
#[test]
fn a_title_repeated_inside_a_dialog_is_no_headline() {
    let html = format!(
        "<html><head><title>Subscribe to the Town Crier</title></head><body><nav>{NAV}</nav>\
         <div class=story>{}</div><div role=dialog aria-modal=true><h2>Subscribe to the Town \
         Crier</h2><p>Every story of the town for a year, and the archive since 1921, for less \
         than a coffee a week: sign up today, cancel whenever you like.</p><p>Our reporters \
         cover the council, the courts, the schools and the river, every day of the week.</p>\
         </div></body></html>",
        paragraphs(0..3)
    );
    let (page, x) = run(&html);
    let mut facts = NodeFacts::new(&page.dom);
    assert_eq!(titled_heading(&page, &mut facts), None);
    let why = reason_of(&page, &x, "Paragraph 0 of the article").unwrap_or_default();
    assert!(why.contains("in main container div.story"), "{why}");
}

/// The logo's heading in the page's own header, the site's name, reads as the title of a section
/// front ("World | Example Times") but is not where an article begins; an article's own header
/// holds its headline.
#[test]
fn a_logo_in_the_pages_header_is_no_headline() {
    let titled = |body: &str| {
        let html = format!(
            "<html><head><title>World | Example Times</title></head><body>{body}</body></html>"
        );
        let page = page_from_html(&html, None);
        let mut facts = NodeFacts::new(&page.dom);
        titled_heading(&page, &mut facts).map(|i| page.blocks[i].text.clone())
    };
    assert_eq!(
        titled("<header><h1>Example Times</h1></header><p>Text</p>"),
        None
    );
    assert_eq!(
        titled("<div role=banner><h1>Example Times</h1></div><p>Text</p>"),
        None
    );
    assert_eq!(
        titled("<article><header><h1>Example Times</h1></header><p>Text</p></article>"),
        Some("Example Times".to_string())
    );
}

/// Only boxes apart from the headline are damped: inside the part that holds it, what stands
/// before it (a standfirst, a thread's first post printed above its title) keeps its score.
#[test]
fn only_candidates_apart_from_the_headline_are_damped() {
    let html = offer_before_the_headline(
        "<div class=standfirst><p>The river rose two metres overnight, and by dawn the old \
         town's lanes, cellars and squares were under water, with more rain to come.</p></div>",
    );
    let base = Url::parse("https://example.com/news/story").ok();
    let page = page_from_html(&html, base.as_ref());
    let stats = Stats::compute(&page);
    let mut facts = NodeFacts::new(&page.dom);
    let before = select::score(&page, &stats, &mut facts);
    let headline = titled_heading(&page, &mut facts).expect("the title's heading");
    assert_eq!(page.blocks[headline].text, "River floods the old town");
    let mut after = select::score(&page, &stats, &mut facts);
    select::damp_outside_the_article(&page, &stats, &facts, &mut after, headline);
    let holder = |needle: &str| {
        let block = page
            .blocks
            .iter()
            .find(|b| b.text.contains(needle))
            .unwrap();
        page.dom.parent(block.node).unwrap()
    };
    let offer = holder("Offer 1: subscribe");
    let standfirst = holder("The river rose two metres");
    let story = holder("Paragraph 1 of the article");
    let (was, is) = (before.get(offer).unwrap(), after.get(offer).unwrap());
    assert!((is - was * 0.25).abs() < 1e-4, "offer {was} -> {is}");
    assert_eq!(before.get(standfirst), after.get(standfirst));
    assert_eq!(before.get(story), after.get(story));
}

/// A service page whose fine print, in the page's own `<footer>`, is longer than its text.
/// `title` is the page's `<title>`; its heading reads "Car insurance quotes in minutes".
fn service_page_with_fine_print(title: &str) -> String {
    let fine_print: String = (1..=9)
        .map(|n| {
            format!(
                "<p>Disclosure {n}: discounts, coverages, payment plans and features are not \
                 available in all states, in all situations, or to all customers, and prices \
                 vary with the driver, the vehicle and the place.</p>"
            )
        })
        .collect();
    format!(
        "<html><head><title>{title}</title></head><body><nav>{NAV}</nav>\
         <div class=content><h1>Car insurance quotes in minutes</h1><div class=text>{}</div>\
         </div><footer><div class=legal>{fine_print}</div></footer></body></html>",
        paragraphs(0..4)
    )
}

/// With the page's headline found, its own footer is not the article, however long the fine
/// print in it: the text under the headline is kept.
#[test]
fn the_pages_own_footer_is_not_the_article_once_its_headline_is_known() {
    assert_set_apart(
        &service_page_with_fine_print("Car insurance quotes in minutes | Insurer"),
        "Paragraph 3 of the article",
        "Disclosure 4:",
        "in the page's own footer, the headline found",
    );
}

/// Without a heading that reads as the title (a section front, a list), the footer is not set
/// apart: the page says nothing of where its text begins, and a section front's lists may run
/// into its footer. Here that leaves the page's longest prose, the fine print, to win.
#[test]
fn the_footer_is_left_alone_on_a_page_without_a_headline() {
    let (page, x) = run(&service_page_with_fine_print("Insurer"));
    let mut facts = NodeFacts::new(&page.dom);
    assert_eq!(titled_heading(&page, &mut facts), None);
    let kept = kept(&page, &x);
    assert!(has(&kept, "Disclosure 1:"), "{kept:#?}");
}

/// A footer inside an article, a section, main, an aside or nav is that part's, not the page's.
#[test]
fn only_a_footer_outside_every_sectioning_element_is_the_pages() {
    for (html, expected) in [
        ("<footer><p>Fine print</p></footer>", true),
        (
            "<div><footer><div><p>Fine print</p></div></footer></div>",
            true,
        ),
        ("<article><footer><p>Tags</p></footer></article>", false),
        ("<main><footer><p>Tags</p></footer></main>", false),
        (
            "<section><div><footer><p>Tags</p></footer></div></section>",
            false,
        ),
        (
            "<footer><section><p>Fine print</p></section></footer>",
            true,
        ),
        ("<div><p>Text</p></div>", false),
    ] {
        let dom = crate::dom::Dom::parse(&format!("<html><body>{html}</body></html>"));
        let p = dom.first_element_by_name("p").expect("the paragraph");
        assert_eq!(select::page_footer_around(&dom, p), expected, "{html}");
    }
}

/// With the headline inside the region the page marks as its main content, a longer box of prose
/// outside that region (a shop's guarantees, printed after it in a box without a name) is not the
/// article: the text under the headline is kept.
#[test]
fn outside_the_marked_main_region_that_holds_the_headline_is_no_article() {
    let guarantees: String = (1..=6)
        .map(|n| {
            format!(
                "<p>Guarantee {n}: examine your purchase in the privacy of your own home, \
                 knowing that it is covered by our promise, for thirty days, with nothing to \
                 sign and no questions asked.</p>"
            )
        })
        .collect();
    // The region marked by role, straight in <body>, or a <main> in a wrapper beside the box.
    let page_with = |open: &str, close: &str| {
        format!(
            "<html><head><title>Automatic watch model 7 - Shop</title></head><body>\
             <nav>{NAV}</nav><div class=page>{open}<h1>Automatic watch model 7</h1>\
             <div class=about>{}</div>{close}<div class=x9>{guarantees}</div></div></body></html>",
            paragraphs(0..4)
        )
    };
    for (open, close) in [("<div role=main>", "</div>"), ("<main>", "</main>")] {
        assert_set_apart(
            &page_with(open, close),
            "Paragraph 3 of the article",
            "Guarantee 2:",
            "outside the page's main region, which holds its headline",
        );
    }
    // Unmarked, the page says nothing of where its content is, and the longer box wins.
    let (page, x) = run(&page_with("<div class=x1>", "</div>"));
    let unmarked = kept(&page, &x);
    assert!(has(&unmarked, "Guarantee 1:"), "{unmarked:#?}");
}

/// Counting the words of an ASCII line from its bytes finds what the word splitter finds.
#[test]
fn words_counted_from_bytes_match_the_splitter() {
    for text in [
        "",
        "   ",
        "River floods the old town",
        "  --River--floods, the old_town!! ",
        "a1b2 c3",
        "Ünïcode wörds — and ASCII",
        "x",
    ] {
        assert_eq!(
            count_word_tokens(text),
            word_tokens(text).count(),
            "{text:?}"
        );
    }
}

/// A shop's category whose only prose is an offer printed before its headline, in a part of the
/// page of its own: that box is no article even though nothing else stands out, and the grid of
/// products under the headline is the page.
#[test]
fn a_box_set_apart_by_the_headline_is_no_article_even_alone() {
    let cards = watch_cards();
    let offer: String = (1..=3)
        .map(|n| {
            format!(
                "<p>Offer {n}: join our club today, and for a whole year every watch, every \
                 strap and every service is ten percent less, with free returns and nothing \
                 to sign.</p>"
            )
        })
        .collect();
    let html = format!(
        "<html><head><title>Automatic watches - Shop</title></head><body>\
         <div id=x1><div>{offer}</div></div><nav>{NAV}</nav><div class=page>\
         <h1>Automatic watches</h1><div class=row>{cards}</div></div></body></html>"
    );
    let (page, x) = run(&html);
    let kept = kept(&page, &x);
    assert!(!has(&kept, "Offer 1: join"), "{kept:#?}");
    assert_every_watch_card_kept(&kept, watch_name);
}

/// An `<aside>` inside the article that holds media is an embed beside the text (a video
/// playlist whose captions repeat), and goes; an aside of text alone (a fact box) is the
/// article's own, and stays. Neither box carries a class that says which it is.
#[test]
fn an_aside_with_media_inside_the_article_goes_and_one_of_text_stays() {
    let html = format!(
        "<html><head><title>Storm</title></head><body>{NAV}<article><div>{}\
         <aside><div><figure><img src=/v1.jpg alt=''></figure>\
         <p>Caption A national park far beyond Hawaii that few visitors ever reach.</p>\
         <p>The national park of the islands, a haven of rainforest and empty beaches, \
         lies thousands of miles from the coast.</p></div></aside>\
         {}<aside><p><strong>Fact:</strong> You do not need to be active for long periods \
         to get the amount of activity the guidelines recommend, and short bouts count.</p>\
         </aside>{}</div></article></body></html>",
        paragraphs(0..3),
        paragraphs(3..6),
        paragraphs(6..8),
    );
    let (page, x) = run(&html);
    let kept = kept(&page, &x);
    assert!(has(&kept, "Paragraph 7"), "{kept:?}");
    assert!(has(&kept, "short bouts count"), "{kept:?}");
    assert!(!has(&kept, "haven of rainforest"), "{kept:?}");
    assert_eq!(
        reason_of(&page, &x, "haven of rainforest").as_deref(),
        Some("pith-page: removed: <aside> holding media")
    );
}

/// Flat comments after an old blog's post: the "Comments" heading stands in a band of its own
/// with a short notice, and each comment follows it as a paragraph and its "Posted by" line, in
/// the post's own box. The band does not end the comment section; the container's end does.
#[test]
fn flat_comments_after_a_heading_band_go_to_the_end_of_the_container() {
    let comments = bylined_comments(3);
    let html = format!(
        "<html><head><title>Race and the nomination</title></head><body>{NAV}\
         <div id=article><div class=x1><h1>Race and the nomination</h1>{}\
         <p class=by>By Jane Writer | January 14, 2008; 4:38 PM ET</p>\
         <div class=x2><h3>Comments</h3><p>Please email us to report offensive comments.</p></div>\
         {comments}</div></div></body></html>",
        paragraphs(0..5)
    );
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    assert!(has(&k, "Paragraph 4 "), "{k:?}");
    for n in 1..=3 {
        assert!(!has(&k, &format!("Comment {n}:")), "{k:?}");
    }
    assert_eq!(
        reason_of(&page, &x, "Comment 3:").as_deref(),
        Some("pith-page: removed: from the comments heading on")
    );
}

/// A news story's photo gallery inside the story's box: pictures whose captions each say
/// "N of 4", longer together than the story. Without class names only the counters tell it
/// apart; it goes, and the story stays.
#[test]
fn a_slideshow_counted_one_of_n_inside_the_article_goes() {
    let slide = |n: usize| {
        format!(
            "<div><img src=/p{n}.jpg alt=''><div>Photos: the long war</div>\
             <div>Ten years of war, photograph {n}: soldiers keep radio contact from a dug-in \
             tank position in the north, waiting for word from the commanders, as the \
             winter sets in over the valley and the supply roads close.</div>\
             <div>Hide Caption</div><div>{n} of 4</div></div>"
        )
    };
    let slides: String = (1..=4).map(slide).collect();
    let html = format!(
        "<html><head><title>Talks stall</title></head><body>{NAV}<article><h1>Talks stall</h1>\
         <div>{}<div class=g><div class=s>{slides}</div></div>{}</div></article></body></html>",
        paragraphs(0..2),
        paragraphs(2..5),
    );
    let (page, x) = run(&html);
    let kept = kept(&page, &x);
    for n in 0..5 {
        assert!(has(&kept, &format!("Paragraph {n} ")), "{kept:?}");
    }
    assert!(
        !has(&kept, "dug-in tank") && !has(&kept, "of 4"),
        "{kept:?}"
    );
    assert_eq!(
        reason_of(&page, &x, "photograph 3").as_deref(),
        Some("pith-page: removed: a slideshow (its slides count '1 of N')")
    );
}

/// A gallery whose viewer counts the slide it shows twice ("Image 1 of 8") and keeps no
/// picture of its own, beside a strip of thumbnails with their captions: the box around both
/// is the slideshow, and goes whole.
#[test]
fn a_slideshow_is_the_box_around_its_counters_and_its_pictures() {
    let thumb = |n: usize| {
        format!(
            "<li><img src=/t{n}.jpg alt=''><div>Defense ministers shake hands in the capital \
             on Wednesday, photograph {n}, before talks on the coast guard and the sea.</div></li>"
        )
    };
    let strip: String = (1..=3).map(thumb).collect();
    let html = format!(
        "<html><head><title>Talks stall</title></head><body>{NAV}<article><h1>Talks stall</h1>\
         <div><div class=g><ul class=strip>{strip}</ul>\
         <div class=viewer><div><div>Image 1 of 8</div><p>Caption</p><p>Close</p></div>\
         <div><div>Image 1 of / 8</div><div>Defense ministers shake hands in the capital on \
         Wednesday, photograph 1, before talks on the coast guard and the sea.</div></div>\
         </div></div>{}</div></article></body></html>",
        paragraphs(0..5),
    );
    let (page, x) = run(&html);
    let kept = kept(&page, &x);
    assert!(has(&kept, "Paragraph 4 "), "{kept:?}");
    assert!(!has(&kept, "photograph") && !has(&kept, "of 8"), "{kept:?}");
    assert_eq!(
        reason_of(&page, &x, "photograph 2").as_deref(),
        Some("pith-page: removed: a slideshow (its slides count '1 of N')")
    );
}

/// A box of short lines that opens like a comment section in the middle of an article ("Have
/// your say" and a line of invitation), followed by more of the article with a few datelines:
/// the box goes, the article's paragraphs after it stay.
#[test]
fn datelines_after_a_mid_article_comment_box_do_not_make_a_heading_band() {
    let html = format!(
        "<html><head><title>Council votes on park</title></head><body>{NAV}\
         <div id=article><div class=x1><h1>Council votes on park</h1>{}\
         <div class=x2><h3>Comments</h3><p>Tell us what you think below.</p></div>\
         {}<p class=t>Updated 10:32 AM</p>{}<p class=t>Updated 11:05 AM</p>{}\
         <p class=t>Updated 11:40 AM</p>{}</div></div></body></html>",
        paragraphs(0..4),
        paragraphs(4..8),
        paragraphs(8..11),
        paragraphs(11..14),
        paragraphs(14..16),
    );
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    for n in 0..16 {
        assert!(has(&k, &format!("Paragraph {n} ")), "{k:?}");
    }
    assert!(!has(&k, "Tell us what you think"), "{k:?}");
}

/// An `<aside>` holding a pull quote set in a `<figure>`, and one holding an icon-sized image
/// beside its fact: neither holds media, and both stay with the article.
#[test]
fn an_aside_with_a_pull_quote_figure_or_an_icon_stays() {
    let html = format!(
        "<html><head><title>Storm</title></head><body>{NAV}<article><div>{}\
         <aside><figure><blockquote><p>We will rebuild the harbour before the winter storms \
         come back, whatever it costs the town and its people.</p></blockquote></figure></aside>\
         {}<aside><img src=/i/info.svg width=16 height=16 alt=''><p>Fact: the harbour wall \
         was first built in 1852 and raised twice since, the last time after the great flood.\
         </p></aside>{}</div></article></body></html>",
        paragraphs(0..3),
        paragraphs(3..6),
        paragraphs(6..8),
    );
    let (page, x) = run(&html);
    let kept = kept(&page, &x);
    assert!(has(&kept, "We will rebuild the harbour"), "{kept:?}");
    assert!(has(&kept, "first built in 1852"), "{kept:?}");
}

/// A gallery page: the slides, each counted "N of 4", are the article itself (its densest
/// prose, beside a short introduction), and stay.
#[test]
fn a_slideshow_that_is_the_article_stays() {
    let slide = |n: usize| {
        format!(
            "<div><img src=/p{n}.jpg alt=''><p>Slide {n} of the gallery tells its part of the \
             story in full sentences, with commas, clauses and details, so that it reads like \
             the text a person came to read, and then some more of it.</p><div>{n} of 4</div></div>"
        )
    };
    let slides: String = (1..=4).map(slide).collect();
    let html = format!(
        "<html><head><title>Ten years of war</title></head><body>{NAV}<article>\
         <h1>Ten years of war</h1><div>{}<div class=g>{slides}</div></div></article>\
         </body></html>",
        paragraphs(0..2)
    );
    let (page, x) = run(&html);
    let kept = kept(&page, &x);
    for n in 1..=4 {
        assert!(has(&kept, &format!("Slide {n} of the gallery")), "{kept:?}");
    }
    assert!(has(&kept, "Paragraph 1 "), "{kept:?}");
}

/// A page whose comment heading, in the box `band`, stands after the article's box and before
/// `n` comments, each with its byline.
fn comments_after(band: &str, n: usize) -> String {
    let comments = bylined_comments(n);
    format!(
        "<html><head><title>Race and the nomination</title></head><body>{NAV}\
         <div id=article><h1>Race and the nomination</h1><div class=x1>{}</div>\
         {band}{comments}</div></body></html>",
        paragraphs(0..5)
    )
}

/// The box around a comment heading is a band only when it holds no prose besides the heading,
/// and only when three bylined comments or more follow it: a box of the article's own prose
/// that ends in a "Comments" line, or two bylines after a band, end the comment section at the
/// box (the comments after it stay, as they did before bands were read).
#[test]
fn a_heading_band_needs_a_box_without_prose_and_three_bylines_after_it() {
    let band = "<div class=x2><h3>Comments</h3><p>Please email us to report offensive comments.</p>\
                </div>";
    let (page, x) = run(&comments_after(band, 3));
    assert!(!has(&kept(&page, &x), "Comment 3:"));
    let (page, x) = run(&comments_after(band, 2));
    assert!(has(&kept(&page, &x), "Comment 2:"));
    let boxed = format!(
        "<div class=x2>{}<h3>Comments</h3><p>Please email us to report offensive comments.</p>\
         </div>",
        prose(9)
    );
    let (page, x) = run(&comments_after(&boxed, 3));
    assert!(has(&kept(&page, &x), "Comment 3:"));
}

/// `n` comments as an old blog prints them: each a paragraph in a box of its own, then its
/// "Posted by" line.
fn bylined_comments(n: usize) -> String {
    (1..=n)
        .map(|n| {
            format!(
                "<div class=c{n}><p>Comment {n}: what in the world is this poll telling us, \
                 honestly, when the numbers moved so far in a single month and nobody can say \
                 why?</p></div><p class=by>Posted by: Reader {n} | January 14, 2008 06:2{n} PM</p>"
            )
        })
        .collect()
}

/// A quiz inside the article whose "1 of 3" counters stand three boxes below its only picture:
/// counters that far from any picture are a quiz's, not a gallery's, and the quiz stays (as
/// it would not if the slideshow's pictures could stand any number of levels above its
/// counters).
#[test]
fn counters_far_below_a_picture_are_no_slideshow() {
    let question = |n: usize| {
        format!(
            "<div><div>{n} of 3</div><p>Question {n}: which river runs through the old \
             capital, and which bridge was built over it first, in the years before the war?\
             </p></div>"
        )
    };
    let quiz: String = (1..=3).map(question).collect();
    let html = format!(
        "<html><head><title>Ten years of war</title></head><body>{NAV}<article>\
         <h1>Ten years of war</h1>{}<div><img src=/quiz.jpg alt=''><div><div><div>{quiz}\
         </div></div></div></div></article></body></html>",
        paragraphs(0..6)
    );
    let (page, x) = run(&html);
    let kept = kept(&page, &x);
    assert!(has(&kept, "Paragraph 5 "), "{kept:?}");
    for n in 1..=3 {
        assert!(
            has(&kept, &format!("Question {n}: which river")),
            "{kept:?}"
        );
    }
}

/// The page of [`widening_keeps_an_opening_chosen_before_the_region`]: a headline, a line
/// asking for a subscription (`#signup`), an offer in a dialog (`#offer`, two paragraphs), a box
/// of two paragraphs (`#intro`), a box of thirty (`#schedule`), and a box of two more (`#legal`).
fn opening_schedule_and_notice() -> Page {
    let html = format!(
        "<html><head><title>Algorithms for data science</title></head><body>{NAV}\
         <h1>Algorithms for data science</h1><div id=signup><p>Subscribe today for full \
         access to every course.</p></div><div id=offer role=dialog>{}</div>\
         <div id=intro>{}</div><div id=schedule>{}</div><div id=legal>{}</div></body></html>",
        paragraphs(40..42),
        paragraphs(0..2),
        paragraphs(2..32),
        paragraphs(32..34),
    );
    let base = Url::parse("https://example.com/courses/224").ok();
    page_from_html(&html, base.as_ref())
}

/// What widening makes of `page` when the first extraction chose the boxes with ids `chosen`
/// (the first of them its main container): their blocks and the headline content, every other
/// block boilerplate.
fn widened_from(page: &Page, chosen: &[&str]) -> (Vec<String>, Vec<NodeId>) {
    let dom = &page.dom;
    let boxes: Vec<NodeId> = chosen
        .iter()
        .map(|id| dom.element_with_id(id).expect("the page has the box"))
        .collect();
    let stats = Stats::compute(page);
    let mut facts = NodeFacts::of_page(page, &stats);
    let labels = page
        .blocks
        .iter()
        .map(|b| {
            let inside = boxes.iter().any(|&c| stats.contains(c, b.node));
            if inside || matches!(b.kind, crate::page::BlockKind::Heading(1)) {
                page_label(Verdict::Content, "chosen".into())
            } else {
                page_label(Verdict::Boilerplate, "not chosen".into())
            }
        })
        .collect();
    let first = ArticleExtraction {
        labels,
        containers: boxes,
    };
    let x = widen_if_starved(page, &stats, &mut facts, first, false);
    (kept(page, &x), x.containers)
}

/// When the page's prose stands in a region after the box first chosen, widening keeps the
/// region and that box both: the box is the page's opening, and says so. Only that box: a part
/// of the first choice after the region goes. A box chosen after the region (a notice at the
/// page's end), one too short to be an article (a subscription line), or one in a dialog (an
/// offer) was the wrong choice, and goes.
#[test]
fn widening_keeps_an_opening_chosen_before_the_region() {
    let page = opening_schedule_and_notice();
    let id = |name: &str| {
        page.dom
            .element_with_id(name)
            .expect("the page has the box")
    };
    let (kept, containers) = widened_from(&page, &["intro", "legal"]);
    for n in 0..32 {
        assert!(has(&kept, &format!("Paragraph {n} ")), "{kept:?}");
    }
    for n in 32..34 {
        assert!(!has(&kept, &format!("Paragraph {n} ")), "{kept:?}");
    }
    assert_eq!(kept.iter().filter(|k| k.contains("Algorithms")).count(), 1);
    assert_eq!(containers, vec![id("schedule"), id("intro")]);
    let stats = Stats::compute(&page);
    let mut facts = NodeFacts::new(&page.dom);
    let x = widen_if_starved(
        &page,
        &stats,
        &mut facts,
        ArticleExtraction {
            labels: page
                .blocks
                .iter()
                .map(|b| {
                    let v = if stats.contains(id("intro"), b.node) {
                        Verdict::Content
                    } else {
                        Verdict::Boilerplate
                    };
                    page_label(v, "chosen".into())
                })
                .collect(),
            containers: vec![id("intro")],
        },
        false,
    );
    assert_eq!(
        reason_of(&page, &x, "Paragraph 1 ").as_deref(),
        Some(format!("pith-page: {}", widen::OPENING).as_str())
    );
    for chosen in ["legal", "signup", "offer"] {
        let (kept, _) = widened_from(&page, &[chosen]);
        assert!(has(&kept, "Paragraph 31 "), "{chosen}: {kept:?}");
        for gone in ["Paragraph 32 ", "Subscribe today", "Paragraph 40 "] {
            assert!(!has(&kept, gone), "{chosen}: {kept:?}");
        }
    }
}

/// A page built of `<div>`s whose footer is named `footer_class` and holds more prose than its
/// story (a newsletter's pitch, the company's history, the towns it serves), with `after` after
/// the footer.
fn story_and_named_footer(footer_class: &str, after: &str) -> Page {
    let footer: String = (10..19).map(prose).collect();
    let html = format!(
        "<html><head><title>Town fair</title></head><body><div id=top>{NAV}</div>\
         <div id=story><h1>Town fair</h1>{}</div>\
         <div id=bottom class=\"{footer_class}\">{footer}</div>{after}</body></html>",
        paragraphs(0..3)
    );
    page_at(&html)
}

/// The prose of a box named as the page's footer, standing after the article chosen or around
/// the page's last prose, is not the page's prose: it neither starves the story nor becomes the
/// widened region. Named otherwise, the same box is prose of the page, and outweighs the story.
#[test]
fn a_footer_named_so_is_not_the_pages_prose() {
    // A note after the footer holds the page's last prose: the footer stands after the article
    // chosen, and the story stands, unwidened.
    let note = format!("<div class=note><p>{}</p></div>", prose_text(30));
    let page = story_and_named_footer("site-footer", &note);
    let story = page.dom.element_with_id("story").expect("the story");
    let (kept, containers) = widened_from(&page, &["story"]);
    assert!(has(&kept, "Paragraph 1 "), "{kept:?}");
    assert!(!has(&kept, "Paragraph 10 "), "{kept:?}");
    assert_eq!(containers, vec![story]);
    // Nothing chosen: the footer holds the page's last prose, and the story is the region.
    let page = story_and_named_footer("site-footer", "");
    let story = page.dom.element_with_id("story").expect("the story");
    let (kept, containers) = widened_from(&page, &[]);
    assert!(has(&kept, "Paragraph 1 "), "{kept:?}");
    assert!(!has(&kept, "Paragraph 10 "), "{kept:?}");
    assert_eq!(containers, vec![story]);
    // The name is the evidence: a box named for nothing is the page's prose.
    let page = story_and_named_footer("bottom-box", "");
    let (kept, _) = widened_from(&page, &["story"]);
    assert!(has(&kept, "Paragraph 10 "), "{kept:?}");
}

/// A footer that was itself the first choice (its fine print, for want of an article) is judged
/// as any first choice is: its prose counts, and the story three times as long replaces it.
#[test]
fn a_footer_chosen_first_is_still_widened_away_from() {
    let html = format!(
        "<html><head><title>Town fair</title></head><body>{NAV}\
         <div id=story><h1>Town fair</h1>{}</div>\
         <div id=bottom class=site-footer>{}</div></body></html>",
        paragraphs(0..10),
        paragraphs(20..24)
    );
    let page = page_at(&html);
    let story = page.dom.element_with_id("story").expect("the story");
    let (kept, containers) = widened_from(&page, &["bottom"]);
    assert!(has(&kept, "Paragraph 9 "), "{kept:?}");
    assert!(!has(&kept, "Paragraph 21 "), "{kept:?}");
    assert_eq!(containers, vec![story]);
}

/// A blog's archive beside a post, in a `<div>` (no `<aside>` says it stands aside): years of
/// months of linked titles, many times the post's words, all of them links.
fn post_beside_an_archive(summary: &str) -> String {
    let years: String = (2014..2026)
        .map(|year| {
            let months: String = ["January", "April", "July", "October"]
                .iter()
                .map(|month| {
                    let posts: String = (0..3)
                        .map(|n| {
                            format!(
                                "<li class=entry><a href=/blog/{year}/{month}/{n}>Why you \
                                 should taste wine number {n} of {month} {year}</a>{summary}</li>"
                            )
                        })
                        .collect();
                    format!("<li><a href=/blog/{year}/{month}>{month}</a><ul>{posts}</ul></li>")
                })
                .collect();
            format!(
                "<li class=year><a href=/blog/{year}>{year}</a><ul class=months>{months}</ul></li>"
            )
        })
        .collect();
    format!(
        "<html><head><title>Tasting notes</title></head><body>{NAV}<div class=columns>\
         <div class=post><h1>Tasting notes</h1>{}</div>\
         <div class=right-col><h2>Archive</h2><ul class=years>{years}</ul></div>\
         </div></body></html>",
        paragraphs(0..4)
    )
}

/// Beside an article, a grid whose items are lists (an archive's years of months) joins it only
/// when the items' own words dwarf it: an archive of linked titles, however long, is the
/// navigation beside the post; the same entries each with its summary are a list the post
/// introduces.
#[test]
fn an_archive_of_links_beside_a_post_is_not_the_page() {
    let (page, x) = run(&post_beside_an_archive(""));
    let links_only = kept(&page, &x);
    assert!(
        has(&links_only, "Paragraph 3 of the article"),
        "{links_only:#?}"
    );
    assert!(
        !has(&links_only, "wine number 1 of July 2019"),
        "{links_only:#?}"
    );
    let summary = "<p>A short note on the grapes, the region and the food to serve.</p>";
    let (page, x) = run(&post_beside_an_archive(summary));
    let summarised = kept(&page, &x);
    assert!(
        has(&summarised, "Paragraph 3 of the article"),
        "{summarised:#?}"
    );
    assert!(
        has(&summarised, "wine number 1 of July 2019"),
        "{summarised:#?}"
    );
}

/// A job board's page built of `<div>`s: its title and a line of introduction, and columns of
/// links either in the site's bar before the title (`menu_before`) or in the page after it.
fn job_board(menu_before: bool) -> String {
    let columns: String = ["Countries", "Skills", "Roles", "Levels", "Contracts"]
        .iter()
        .map(|label| {
            let links: String = (0..8)
                .map(|n| format!("<li><a href=/jobs/{label}/{n}>Remote {label} jobs {n}</a></li>"))
                .collect();
            format!("<div class=column><div class=label>{label}</div><ul>{links}</ul></div>")
        })
        .collect();
    let menu = format!("<div class=bar><div class=columns>{columns}</div></div>");
    let (before, after) = if menu_before {
        (menu.as_str(), "")
    } else {
        ("", menu.as_str())
    };
    format!(
        "<html><head><title>Remote engineer jobs</title></head><body>{before}\
         <div class=page><div class=intro><h1>Remote engineer jobs</h1><p>Find remote engineer \
         jobs at companies hiring now, in your time zone, full time or freelance.</p></div>\
         {after}</div></body></html>"
    )
}

/// A grid printed before the page's headline in a part of its own is the site's menus, and the
/// page's introduction stands; the same columns after the headline are the page's grid.
#[test]
fn a_grid_of_menus_before_the_headline_is_not_the_page() {
    let (page, x) = run(&job_board(true));
    let menus_first = kept(&page, &x);
    assert!(
        has(&menus_first, "Find remote engineer jobs"),
        "{menus_first:#?}"
    );
    assert!(
        !has(&menus_first, "Remote Skills jobs 3"),
        "{menus_first:#?}"
    );
    let (page, x) = run(&job_board(false));
    let grid_after = kept(&page, &x);
    assert!(has(&grid_after, "Remote Skills jobs 3"), "{grid_after:#?}");
}

/// A shop's guide: an introduction of an article's length, then cards each wrapped whole in one
/// link (its title and its summary) with its colour swatches and sizes listed, many times the
/// introduction's words.
#[test]
fn cards_wrapped_in_links_beside_an_introduction_are_the_page() {
    let cards: String = (0..24)
        .map(|n| {
            format!(
                "<div class=card><a href=/guides/{n}><h3>Guide number {n} to a better garden</h3>\
                 <p>Everything about soil, light and water for plant {n}, with the tools you \
                 need, the mistakes to avoid and the season to begin.</p></a>\
                 <ul class=swatches><li></li><li></li><li></li></ul>\
                 <ul class=sizes><li>S</li><li>M</li><li>L</li></ul></div>"
            )
        })
        .collect();
    let html = format!(
        "<html><head><title>Garden guides</title></head><body>{NAV}<div class=page>\
         <div class=intro><h1>Garden guides</h1>{}</div><div class=cards>{cards}</div>\
         </div></body></html>",
        paragraphs(0..2)
    );
    let (page, x) = run(&html);
    let kept = kept(&page, &x);
    assert!(has(&kept, "Paragraph 1 of the article"), "{kept:#?}");
    assert!(has(&kept, "soil, light and water for plant 7"), "{kept:#?}");
}

/// After a wrong first choice (an offer printed before the article), what stands after it is not
/// placed at the page's end by that: a guide whose box is named as some footer of the site's
/// template still counts as the page's prose, and widening finds it.
#[test]
fn after_a_wrong_first_choice_a_box_named_footer_is_still_prose() {
    let html = format!(
        "<html><head><title>City guide</title></head><body>{NAV}\
         <div id=offer><p>Subscribe for one dollar a week.</p></div>\
         <div id=guide class=page-footer>{}</div>\
         <div class=note><p>{}</p></div></body></html>",
        paragraphs(0..8),
        prose_text(30)
    );
    let page = page_at(&html);
    let guide = page.dom.element_with_id("guide").expect("the guide");
    let (kept, containers) = widened_from(&page, &["offer"]);
    assert!(has(&kept, "Paragraph 7 "), "{kept:?}");
    assert_eq!(containers, vec![guide]);
}

/// A release note's lists of changes, each entry a pull request on another site, for
/// [`a_list_leading_to_other_sites_is_the_articles_text`].
fn release_note(head: &str, base: Option<&Url>) -> (Page, ArticleExtraction) {
    let html = format!(
        "<html><head><title>Release 4.2</title>{head}</head><body>{NAV}<div id=post>\
         <h1>Release 4.2</h1>{}\
         <h2>alice</h2><ul><li><a href='https://github.com/org/app/pull/1'>Keep remote \
         images when their host is down</a></li></ul>\
         <h2>bob</h2><ul><li><a href='https://github.com/org/app/pull/2'>Fix the jump to \
         content link</a></li><li><a href='https://github.com/org/app/pull/3'>Sort the \
         settings page by name</a></li></ul>{}\
         <ul><li><a href='https://facebook.com/share'>Facebook</a></li>\
         <li><a href='https://twitter.com/share'>Twitter</a></li></ul>\
         <ul><li><a href='/r1'>Release 4.1 brought faster search</a></li>\
         <li><a href='https://www.example.co.uk/r0'>Release 4.0 and its new reader</a></li></ul>\
         <ul><li>Call us on 555 0100 any day</li><li><a href='https://upload.streamhost.net/'>Send \
         us your pictures here</a></li></ul>\
         </div></body></html>",
        paragraphs(0..3),
        paragraphs(3..5)
    );
    let page = page_from_html(&html, base);
    let extraction = extract(&page);
    (page, extraction)
}

/// A list in the article whose every entry links out, mostly to other owners' sites, and says
/// something, is the article's own text: the pull requests of a release note stay. Share buttons
/// (a word an entry), the site's own stories (here and on its site in another country) and a
/// list with an entry that links nowhere still go as link lines.
#[test]
fn a_list_leading_to_other_sites_is_the_articles_text() {
    let base = Url::parse("https://www.example.com/news/release-4-2").ok();
    let (page, x) = release_note("", base.as_ref());
    let k = kept(&page, &x);
    for n in 0..5 {
        assert!(has(&k, &format!("Paragraph {n} ")), "{k:?}");
    }
    assert!(
        has(&k, "Keep remote images when their host is down"),
        "{k:?}"
    );
    assert!(has(&k, "Fix the jump to content link"), "{k:?}");
    assert!(has(&k, "Sort the settings page by name"), "{k:?}");
    for gone in [
        "Facebook",
        "faster search",
        "its new reader",
        "Send us your pictures",
    ] {
        assert!(!has(&k, gone), "{gone}: {k:?}");
    }
    // Without a response URL the page's canonical URL says where it stands; a page that says
    // nowhere where it stands has no list leading elsewhere.
    let canonical = "<link rel=canonical href='https://www.example.com/news/release-4-2'>";
    let (page, x) = release_note(canonical, None);
    assert!(has(&kept(&page, &x), "Fix the jump to content link"));
    let (page, x) = release_note("", None);
    assert!(!has(&kept(&page, &x), "Fix the jump to content link"));
}

/// What an article of a news site ([`page_at`]) keeps of `list` printed between its paragraphs.
fn kept_with_list(list: &str) -> Vec<String> {
    let html = format!(
        "<html><head><title>The story</title></head><body>{NAV}<div id=story>\
         <h1>The story</h1>{}{list}{}</div></body></html>",
        paragraphs(0..3),
        paragraphs(3..5)
    );
    let (page, x) = run(&html);
    kept(&page, &x)
}

/// Two thirds of a list's links leading to other owners make it one that leads elsewhere; half
/// do not. A list holding an author line is a byline or dated teasers, whatever it links to.
#[test]
fn a_list_leads_elsewhere_from_two_thirds_of_its_links_and_without_bylines() {
    let entry = |href: &str, n: usize| {
        format!(
            "<li><a href='{href}'>Resource number {n} for further reading on the subject \
             today</a></li>"
        )
    };
    let two_of_three = format!(
        "<ul>{}{}{}</ul>",
        entry("https://one.org/a", 1),
        entry("https://two.net/b", 2),
        entry("/news/ours", 3)
    );
    let k = kept_with_list(&two_of_three);
    assert!(has(&k, "Resource number 1 "), "{k:?}");
    assert!(has(&k, "Resource number 3 "), "{k:?}");
    let one_of_two = format!(
        "<ul>{}{}</ul>",
        entry("https://one.org/a", 1),
        entry("/news/ours", 2)
    );
    let k = kept_with_list(&one_of_two);
    assert!(!has(&k, "Resource number 1 "), "{k:?}");
    let bylined = format!(
        "<ul>{}{}<li>By <a href='https://people.org/jane'>Jane Doe</a></li></ul>",
        entry("https://one.org/a", 1),
        entry("https://two.net/b", 2)
    );
    let k = kept_with_list(&bylined);
    assert!(!has(&k, "Resource number 1 "), "{k:?}");
}

/// A box that is an index of other sites (each entry a linked name and a line about it, under
/// a short introduction) is still a list of links: its entries stay as the page's text, and
/// the box says so.
#[test]
fn an_index_of_other_sites_is_still_a_list_of_links() {
    let entries: String = (1..=12)
        .map(|n| {
            format!(
                "<li><a href='https://site{n}.org/'>Resource {n}</a> exercises and drills \
                 for learners</li>"
            )
        })
        .collect();
    let html = format!(
        "<html><head><title>Resources</title></head><body>{NAV}<div id=guide>\
         <h1>Resources</h1><p>Sites to practise with.</p><ul>{entries}</ul></div></body></html>"
    );
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    assert!(has(&k, "Resource 12 exercises"), "{k:?}");
    let why = reason_of(&page, &x, "Resource 7 ").expect("an entry's reason");
    assert!(why.contains("a list of links"), "{why}");
}

/// A shop's page of short lines (a name, a price, a size): no container stands out, and the page
/// falls back to its long lines. `before` stands first in `<body>`, `after` last.
fn page_of_short_lines(before: &str, after: &str) -> String {
    let lines: String = (1..=6)
        .map(|n| format!("<div class=c{n}><span>Trail shoe size {n}</span></div>"))
        .collect();
    format!(
        "<html><head><title>Trail shoe</title></head><body>{before}<nav>{NAV}</nav>\
         <h1>Trail shoe</h1>{lines}<div class=price>$ 89.00</div>{after}</body></html>"
    )
}

/// Consent notice prose, about the site and never the page's.
const CONSENT_PROSE: &str = "<p>We and our partners use cookies and similar technologies to \
    store and access information on your device, to personalise content and advertising, and to \
    analyse our traffic, and you can change your mind at any time.</p>";

/// A consent manager's notice is not the page's text even where it is the only prose there is:
/// the fallback keeps the page's headline and leaves the notice out (the page's description may
/// then stand for its text).
#[test]
fn the_fallback_never_keeps_a_consent_notice() {
    for notice in [
        format!("<div id=cmp-consent-box>{CONSENT_PROSE}<button>Accept</button></div>"),
        format!("<div class='CookieConsent bar'><div>{CONSENT_PROSE}</div></div>"),
    ] {
        let (page, x) = run(&page_of_short_lines(&notice, ""));
        let kept = kept(&page, &x);
        assert!(has(&kept, "Trail shoe"), "{notice}: {kept:#?}");
        assert!(!has(&kept, "our partners"), "{notice}: {kept:#?}");
        let reason = reason_of(&page, &x, "our partners").unwrap_or_default();
        assert!(reason.contains("consent notice"), "{notice}: {reason}");
    }
    // The same prose in a box not named so is the page's only prose, and is kept.
    let plain = format!("<div class=x7>{CONSENT_PROSE}</div>");
    let (page, x) = run(&page_of_short_lines(&plain, ""));
    assert!(has(&kept(&page, &x), "our partners"));
}

/// Prose in a page's footer or header is kept by the fallback only when no prose stands outside
/// them: a page of scattered lines is never left blank, and otherwise the footer's words about the
/// shop are not the page's.
#[test]
fn the_fallback_keeps_furniture_prose_only_when_the_page_has_none_of_its_own() {
    let sizes: String = (1..=6)
        .map(|n| format!("<div class=s{n}><a href=/p/{n}>Trail shoe size {n}</a></div>"))
        .collect();
    let about = "<footer><p>Our shop has sold running shoes since 1984, from a small store on the \
                 harbour to runners everywhere.</p></footer>";
    let page_with = |own: &str| {
        format!(
            "<html><head><title>Trail shoe</title></head><body><nav>{NAV}</nav>\
             <h1>Trail shoe</h1>{sizes}{own}<div class=price>$ 89.00</div>{about}</body></html>"
        )
    };
    let (page, x) = run(&page_with(""));
    assert!(
        has(&kept(&page, &x), "since 1984"),
        "{:#?}",
        kept(&page, &x)
    );
    let reason = reason_of(&page, &x, "since 1984").unwrap_or_default();
    assert!(reason.contains("fallback"), "{reason}");
    // A headline long enough to read as prose is kept wherever it stands, and is not the page's
    // own prose beside the footer's (both short, so that nothing stands out).
    let long = "Trail shoe for muddy mountain runs and wet autumn weekends";
    let html = page_with("")
        .replace("Trail shoe<", &format!("{long}<"))
        .replace(
            "from a small store on the harbour to runners everywhere.",
            "to everyone.",
        );
    let (page, x) = run(&html);
    let kept_long = kept(&page, &x);
    assert!(has(&kept_long, long), "{kept_long:#?}");
    assert!(has(&kept_long, "since 1984"), "{kept_long:#?}");
    // Two lines of its own, each too short to make its box stand out.
    let own = "<div class=a><div><p>Wash the shoe by hand in cold water and let it dry away \
               from the heater.</p></div></div><div class=b><div><p>Brush the sole clean after \
               every muddy trail run, and store it dry.</p></div></div>";
    let (page, x) = run(&page_with(own));
    let kept = kept(&page, &x);
    assert!(has(&kept, "Wash the shoe"), "{kept:#?}");
    assert!(has(&kept, "Brush the sole"), "{kept:#?}");
    assert!(!has(&kept, "since 1984"), "{kept:#?}");
    let reason = reason_of(&page, &x, "since 1984").unwrap_or_default();
    assert!(reason.contains("furniture"), "{reason}");
}

/// A subscription prompt printed last on a shop's category page, named as one: the only prose
/// there is, but its name weighs more against it than its paragraphs for it, so it is no article
/// and the page's grid of products is kept.
#[test]
fn a_named_prompt_is_no_article_on_a_page_of_cards() {
    let html = grid_with_offer("");
    let (page, x) = run(&html);
    let kept = kept(&page, &x);
    assert!(!has(&kept, "limit of free articles"), "{kept:#?}");
    assert_every_watch_card_kept(&kept, watch_name);
}

/// A newsletter's sign-up after a shop's short introduction and its few cards holds three times
/// the introduction's prose: counted as the page's, it starved the introduction, and widening
/// kept the sign-up alone. It is no prose of the page, and the introduction stands, whether its
/// name says what it is or its form asking for an address does.
#[test]
fn a_newsletter_sign_up_does_not_starve_the_page_beside_it() {
    let cards: String = (1..=4)
        .map(|n| {
            format!(
                "<div class=card><a href=/p/{n}>Desk accessory {n}</a><div>$ {n}9.00</div></div>"
            )
        })
        .collect();
    for name in ["newsletter-signup", "k3q"] {
        let html = format!(
            "<html><head><title>Standing desk accessories</title></head><body><nav>{NAV}</nav>\
         <div class=intro><h1>Standing desk accessories</h1><p>Choose from hundreds of \
         accessories designed to complement your workspace, from monitor arms and keyboard trays \
         to cable management, lighting and anti-fatigue mats for every desk.</p></div>\
         <div class=grid>{cards}</div><div class={name}><p>Join our newsletter and get \
         the latest news, new arrivals and exclusive offers delivered to your inbox every single \
         week, with tips from our designers.</p><p>You can unsubscribe at any time, and we never \
         share your email address with anyone, ever, for any reason, as our privacy policy \
         explains in detail.</p><p>Members also hear first about our seasonal sales, our limited \
         editions and the events we hold in our showrooms around the country each spring.</p>\
         <form><input type=email><button>Sign up</button></form></div></body></html>"
        );
        let (page, x) = run(&html);
        let kept = kept(&page, &x);
        assert!(has(&kept, "Choose from hundreds"), "{kept:#?}");
        assert!(!has(&kept, "Join our newsletter"), "{kept:#?}");
        assert!(!has(&kept, "Members also hear"), "{name}: {kept:#?}");
    }
}

/// A name on the page's wrappers says nothing of one part of it: a `<body>` or a wrapper named
/// for an accepted consent leaves the page's own lines its text.
#[test]
fn a_consent_name_on_the_pages_wrapper_does_not_blank_it() {
    let own = "<div class=a><div><p>Wash the shoe by hand in cold water and let it dry away \
               from the heater.</p></div></div><div class=b><div><p>Brush the sole clean after \
               every muddy trail run, and store it dry.</p></div></div>";
    let plain = page_of_short_lines("", own);
    for html in [
        plain.replace("<body>", "<body class='cookie-consent-accepted'>"),
        plain
            .replace("<body>", "<body><div id=gdpr-root>")
            .replace("</body>", "</div></body>"),
    ] {
        let (page, x) = run(&html);
        let kept = kept(&page, &x);
        assert!(has(&kept, "Wash the shoe"), "{kept:#?}");
        assert!(has(&kept, "Brush the sole"), "{kept:#?}");
    }
}

/// A newsletter's sign-up beside the page's own lines is its furniture to the fallback: it asks
/// something of the reader and says nothing of the page, whether its name says so or its form
/// asking for an address does.
#[test]
fn the_fallback_leaves_a_sign_up_beside_the_pages_own_lines() {
    let own = "<div class=a><div><p>Wash the shoe by hand in cold water and let it dry away \
               from the heater.</p></div></div><div class=b><div><p>Brush the sole clean after \
               every muddy trail run, and store it dry.</p></div></div>";
    for name in ["newsletter-signup", "k3q"] {
        let sign_up = format!(
            "<div class={name}><p>Join our newsletter for the latest news, new arrivals and \
             offers in your inbox every single week.</p><form><input type=email>\
             <button>Sign up</button></form></div>"
        );
        let html = page_of_short_lines("", &format!("{own}{sign_up}"));
        assert_keeps_but_leaves(&html, "Wash the shoe", "Join our newsletter", "fallback");
    }
}

/// Asserts that the extraction of `html` keeps the line holding `own` and leaves the one holding
/// `left`, with a reason that says `why`.
fn assert_keeps_but_leaves(html: &str, own: &str, left: &str, why: &str) {
    let (page, x) = run(html);
    let kept = kept(&page, &x);
    assert!(has(&kept, own), "{kept:#?}");
    assert!(!has(&kept, left), "{kept:#?}");
    let reason = reason_of(&page, &x, left).unwrap_or_default();
    assert!(reason.contains(why), "{reason}");
}

/// Only a prompt's box that scores below nothing gives way: a newsletter's own issue, whose
/// paragraphs outweigh its name, is the page's article; a box scoring below nothing that names
/// no prompt still stands out (a skip link's target named `skip-nav` is the page's content).
#[test]
fn a_prompt_gives_way_only_when_it_scores_below_nothing() {
    let issue = format!(
        "<html><head><title>This week</title></head><body><nav>{NAV}</nav>\
         <div class=newsletter-issue>{}</div></body></html>",
        paragraphs(1..9)
    );
    let (page, x) = run(&issue);
    let reason = reason_of(&page, &x, "Paragraph 3").unwrap_or_default();
    assert!(reason.contains("in main container"), "{reason}");
    let html = format!(
        "<html><body><div id=offer class=newsletter-signup>{}</div>\
         <div id=target class=skip-nav-target>{}</div></body></html>",
        paragraphs(1..4),
        paragraphs(4..7)
    );
    let page = page_at(&html);
    let stats = Stats::compute(&page);
    let mut facts = NodeFacts::new(&page.dom);
    let choice = |id: &str, score: f32| {
        let main = page.dom.element_with_id(id).expect("the page has it");
        Choice {
            main,
            score,
            siblings: Vec::new(),
            core: main,
        }
    };
    assert!(!stands_out(&stats, &mut facts, &choice("offer", -3.0)));
    assert!(stands_out(&stats, &mut facts, &choice("offer", 3.0)));
    assert!(stands_out(&stats, &mut facts, &choice("target", -3.0)));
}

/// A subscription offer printed after a shop's grid of cards, named as one.
fn grid_with_offer(head: &str) -> String {
    let prompt = "<div class='tp-modal subscription-offer'><div class=tp-body>\
        <div class=tp-title>Subscribe to keep reading</div><p>You have reached your limit of free \
        articles this month. Subscribe today for unlimited access to our journalism, our daily \
        newsletters and exclusive stories.</p><p>Already a subscriber? Log in to continue \
        reading, or ask our customer service team, available every day from seven until \
        nine.</p><p>Gift subscriptions, student rates and group plans are also on offer, and \
        every plan can be paused or cancelled online at any time.</p><button>Subscribe now\
        </button></div></div>";
    format!(
        "<html><head><title>Automatic watches - Shop</title>{head}</head><body><nav>{NAV}</nav>\
         <h1>Automatic watches</h1><div class=row>{}</div>{prompt}</body></html>",
        watch_cards()
    )
}

/// The same shop's category calling itself an article (as a blog's theme says of every page):
/// the offer gives way, and the fallback's keeping it for want of prose of the page's own is no
/// article's worth that would stand against the grid.
#[test]
fn an_offer_kept_for_want_of_prose_does_not_stand_against_the_grid() {
    let (page, x) = run(&grid_with_offer(
        "<meta property=\"og:type\" content=\"article\">",
    ));
    let kept = kept(&page, &x);
    assert!(!has(&kept, "limit of free articles"), "{kept:#?}");
    assert_every_watch_card_kept(&kept, watch_price);
}

/// Three paragraphs of a consent notice, as a plugin prints them under generated classes.
fn unnamed_notice(style: &str) -> String {
    format!(
        "<div class=q7x style='{style}'><div class=q7y>{CONSENT_PROSE}{CONSENT_PROSE}\
         {CONSENT_PROSE}<button>Accept all</button><button>Settings</button></div></div>"
    )
}

/// Eight cards of a shop's list of shoes: a linked name, a price and a line each.
fn shoe_cards() -> String {
    (1..=8)
        .map(|n| {
            format!(
                "<li class=card><a href=/shoe/{n}>Trail runner model {n}</a>\
                 <span>$ 8{n}.00</span><span>Grippy on wet rock</span></li>"
            )
        })
        .collect()
}

/// A shop's list of shoes, `notice` printed first in `<body>` and `wrap` around the rest.
fn shoe_list(notice: &str, body_style: &str, wrap: &str) -> String {
    let cards = shoe_cards();
    format!(
        "<html><head><title>Trail shoes</title></head><body style='{body_style}'>{notice}\
         <div class=w1 style='{wrap}'><h1>Trail shoes</h1><ul class=cards>{cards}</ul></div>\
         </body></html>"
    )
}

/// A box its inline style fixes to the viewport is laid over the page (a consent plugin's notice
/// under generated classes): its paragraphs make no article, and the page's own list is kept.
/// Fixed wrappers are the page itself: a `<body>` fixed while a dialog locks the scrolling, an
/// app's root fixed around the whole page.
#[test]
fn a_box_fixed_over_the_page_is_no_article_whatever_its_name() {
    let fixed = "position: fixed; bottom: 0; z-index: 9999";
    // Fixed by its inline style, or by the rule a CSS-in-JS library prints for its class.
    let by_sheet = format!(
        "<style>.q7x{{position:fixed;bottom:0}}</style>{}",
        unnamed_notice("")
    );
    for notice in [unnamed_notice(fixed), by_sheet] {
        let (page, x) = run(&shoe_list(&notice, "", ""));
        let list = kept(&page, &x);
        assert!(has(&list, "Trail runner model 3"), "{list:#?}");
        assert!(has(&list, "Trail runner model 8"), "{list:#?}");
        assert!(!has(&list, "our partners"), "{list:#?}");
    }
    // Printed in the flow, the same notice is the page's only prose and wins: the position
    // alone tells the two apart.
    let (page, x) = run(&shoe_list(&unnamed_notice("margin: 0"), "", ""));
    assert!(has(&kept(&page, &x), "our partners"));
    // A fixed `<body>` or a fixed wrapper around the page is no overlay.
    for (body, wrap) in [(fixed, ""), ("", fixed)] {
        let (page, x) = run(&shoe_list("", body, wrap));
        let list = kept(&page, &x);
        assert!(
            has(&list, "Trail runner model 3"),
            "{body} {wrap}: {list:#?}"
        );
    }
}

/// Prose fixed over the page, by its style or its sheet's rule, is laid over it as a dialog is:
/// the fallback leaves it beside the page's own lines, and never keeps it, even on a page of
/// short lines with no prose of its own.
#[test]
fn the_fallback_never_keeps_a_box_fixed_over_the_page() {
    let own = "<div class=a><div><p>Wash the shoe by hand in cold water and let it dry away \
               from the heater.</p></div></div>";
    let notice = format!("<div class=q7x style='position:fixed;top:0'>{CONSENT_PROSE}</div>");
    let html = page_of_short_lines(&notice, own);
    assert_keeps_but_leaves(&html, "Wash the shoe", "our partners", "laid over the page");
    let notice = format!("<div class=n9><div>{CONSENT_PROSE}</div><button>Accept</button></div>");
    let html =
        page_of_short_lines(&notice, "").replacen("</head>", &format!("{FIXED_SHEET}</head>"), 1);
    assert_keeps_but_leaves(&html, "Trail shoe", "our partners", "laid over the page");
}

/// Prose fixed over the page is no prose of the page to widening either: beside a product's
/// short description, a notice three times as long does not make the description look starved
/// and the whole page its region.
#[test]
fn a_box_fixed_over_the_page_does_not_starve_a_short_description() {
    let intro = "<div class=intro><p>This trail shoe grips wet rock and loose gravel alike, \
                 drains fast after a river crossing, and weighs less than a pair of road \
                 shoes, so it carries you through a whole day in the hills.</p></div>";
    let notice = unnamed_notice("position:fixed;bottom:0");
    let (page, x) = run(&page_of_short_lines(&notice, intro));
    let kept = kept(&page, &x);
    assert!(has(&kept, "This trail shoe grips"), "{kept:#?}");
    assert!(!has(&kept, "our partners"), "{kept:#?}");
}

/// A list inside a box fixed over the page (a consent notice's partners) is no prose of the
/// page's, though it holds more words than the page's own cards: widening does not take it for
/// the page's region, and the cards are the page's text.
#[test]
fn a_list_fixed_over_the_page_is_not_its_prose_region() {
    let partners: String = (1..=6)
        .map(|n| {
            format!(
                "<li class=v9q>Partner number {n} stores and reads cookies on your device for \
                 measurement, audience research and personalised advertising</li>"
            )
        })
        .collect();
    let notice = format!("<div class=q7x style='position:fixed;inset:0'><ul>{partners}</ul></div>");
    let (page, x) = run(&shoe_list(&notice, "", ""));
    let kept = kept(&page, &x);
    let why = reason_of(&page, &x, "Partner number 3");
    assert!(has(&kept, "Trail runner model 3"), "{kept:#?} {why:?}");
    assert!(!has(&kept, "Partner number"), "{kept:#?}");
}

/// A box fixed inside a fixed wrapper of the whole page (an app's root that scrolls inside
/// itself) is still laid over the page, and the wrapper, holding the page's `<h1>` or most of
/// its blocks, is the page: its list is kept, the notice is not.
#[test]
fn a_notice_fixed_inside_a_fixed_page_is_still_laid_over_it() {
    let cards = shoe_cards();
    let notice = unnamed_notice("position: fixed; bottom: 0");
    for title in ["<h1>Trail shoes</h1>", "<div class=t>Trail shoes</div>"] {
        let html = format!(
            "<html><head><title>Trail shoes</title></head><body>\
             <div class=app style='position: fixed; inset: 0; overflow: auto'>{notice}{title}\
             <ul class=cards>{cards}</ul></div></body></html>"
        );
        let (page, x) = run(&html);
        let list = kept(&page, &x);
        assert!(has(&list, "Trail runner model 3"), "{title}: {list:#?}");
        assert!(!has(&list, "our partners"), "{title}: {list:#?}");
    }
}

/// A box that says it is a modal dialog (`role="dialog"`, `aria-modal="true"`, an open
/// `<dialog>`) is laid over the page wherever its sheet places it: its prose makes no article
/// beside a shop's list, and the list is kept. A sheet that says it is no modal
/// (`aria-modal="false"`: a drawer of the page's own) is weighed as any box.
#[test]
fn a_dialog_is_laid_over_the_page_whatever_its_style() {
    let inner = format!(
        "<div class=q7y>{CONSENT_PROSE}{CONSENT_PROSE}{CONSENT_PROSE}\
         <button>Accept all</button><button>Settings</button></div>"
    );
    for notice in [
        format!("<div class=q7x role=dialog aria-label=Privacy>{inner}</div>"),
        format!("<div class=q7x role=alertdialog>{inner}</div>"),
        format!("<div class=q7x aria-modal=true>{inner}</div>"),
        format!("<dialog open class=q7x>{inner}</dialog>"),
    ] {
        let (page, x) = run(&shoe_list(&notice, "", ""));
        let list = kept(&page, &x);
        assert!(has(&list, "Trail runner model 3"), "{notice}: {list:#?}");
        assert!(has(&list, "Trail runner model 8"), "{notice}: {list:#?}");
        assert!(!has(&list, "our partners"), "{notice}: {list:#?}");
    }
    // Inside an article's box, the dialog goes from it.
    let html = format!(
        "<html><head><title>Story</title></head><body><nav>{NAV}</nav><div class=x9>\
         <h1>Story</h1>{}<div class=q7x role=dialog>{inner}</div>{}</div></body></html>",
        paragraphs(0..3),
        paragraphs(3..6)
    );
    let (page, x) = run(&html);
    let why = reason_of(&page, &x, "our partners").unwrap_or_default();
    assert!(why.contains("removed: a dialog"), "{why}");
    assert!(has(&kept(&page, &x), "Paragraph 5 of"));
    let drawer = format!("<div class=q7x role=dialog aria-modal=false>{inner}</div>");
    let (page, x) = run(&shoe_list(&drawer, "", ""));
    assert!(has(&kept(&page, &x), "our partners"));
}

/// A dialog's prose is never the page's text, even where the page has none of its own: the
/// fallback keeps the headline and leaves the dialog out, as it does a consent manager's box;
/// the page's furniture still stands in for prose there.
#[test]
fn the_fallback_never_keeps_a_dialog() {
    let notice = format!("<div class=q7x role=dialog><div>{CONSENT_PROSE}</div></div>");
    let (page, x) = run(&page_of_short_lines(&notice, ""));
    let list = kept(&page, &x);
    assert!(has(&list, "Trail shoe"), "{list:#?}");
    assert!(!has(&list, "our partners"), "{list:#?}");
    assert!(
        reason_of(&page, &x, "our partners").is_some_and(|r| r.contains("laid over the page")),
        "{:?}",
        reason_of(&page, &x, "our partners")
    );
    // A shop drawn by its scripts may print little but its name: the dialog then holds most of
    // the page's blocks, and is still no text of the page.
    // Its inner box too, which holds as much of the page.
    for notice in [
        format!(
            "<div class=q7x role=dialog>{}</div>",
            CONSENT_PROSE.repeat(12)
        ),
        format!(
            "<div class=q7x role=dialog><div class=in>{}</div></div>",
            CONSENT_PROSE.repeat(12)
        ),
    ] {
        let html = format!(
            "<html><head><title>Trail shoe</title></head><body><h1>Trail shoe</h1>{notice}\
             </body></html>"
        );
        let (page, x) = run(&html);
        let list = kept(&page, &x);
        assert!(!has(&list, "our partners"), "{notice}: {list:#?}");
    }
}

/// A story opened in a modal over its site's front is the page: a dialog holding a heading that
/// reads as the page's title is no box laid over it, and its paragraphs are the article.
#[test]
fn a_dialog_holding_the_pages_headline_is_the_page() {
    let html = format!(
        "<html><head><title>The bridge that swayed</title></head><body><nav>{NAV}</nav>\
         <div class=q7x role=dialog aria-modal=true><h2>The bridge that swayed</h2>{}</div>\
         </body></html>",
        paragraphs(0..6)
    );
    let (page, x) = run(&html);
    let list = kept(&page, &x);
    assert!(has(&list, "Paragraph 0 of"), "{list:#?}");
    assert!(has(&list, "Paragraph 5 of"), "{list:#?}");
}

/// A newsletter's sign-up: a title, a pitch, and a form asking for an email address, under a
/// generated class that says nothing.
const SIGN_UP: &str = "<div class=k3q><h3>Get our newsletter</h3><p>The week's best stories, \
    handpicked by our editors and delivered to your inbox every Friday morning, with no spam \
    and a link to leave at any time.</p><form action=/subscribe><input type=email \
    placeholder='Your email'><button>Sign up</button></form></div>";

/// A sign-up printed in the middle of an article asks the reader something: it is no text of
/// the article, however it is named, and the paragraphs on either side stay, as does a short
/// line sharing a box with it.
#[test]
fn a_sign_up_inside_an_article_is_not_its_text() {
    // Its field as pages print it now, and as older pages did (a text field named for it).
    for sign_up in [
        SIGN_UP.to_string(),
        SIGN_UP.replace("type=email", "type=text name=EMAIL"),
    ] {
        let html = format!(
            "<html><head><title>Story</title></head><body><nav>{NAV}</nav><div class=x9>\
             <h1>Story</h1>{}<div class=x7><p class=c2>Photographs by Ana Ruiz</p>{sign_up}</div>\
             {}</div></body></html>",
            paragraphs(0..3),
            paragraphs(3..6)
        );
        let (page, x) = run(&html);
        let list = kept(&page, &x);
        assert!(has(&list, "Paragraph 0 of"), "{list:#?}");
        assert!(has(&list, "Paragraph 5 of"), "{list:#?}");
        assert!(!has(&list, "handpicked"), "{list:#?}");
        assert!(!has(&list, "Get our newsletter"), "{list:#?}");
        // The sign-up's box ends at its title: the credit printed beside it is the article's.
        assert!(has(&list, "Photographs by Ana Ruiz"), "{list:#?}");
        assert!(
            reason_of(&page, &x, "handpicked").is_some_and(|r| r.contains("email address")),
            "{:?}",
            reason_of(&page, &x, "handpicked")
        );
    }
    // A bare form among the article's paragraphs, with no title or pitch of its own: the box
    // around it says more than a sign-up, and only the form goes.
    let html = format!(
        "<html><head><title>Story</title></head><body><nav>{NAV}</nav><div class=x9>\
         <h1>Story</h1><div class=x8>{}<form><input type=email><button>Sign up</button></form>\
         {}</div></div></body></html>",
        paragraphs(0..3),
        paragraphs(3..6)
    );
    let (page, x) = run(&html);
    for n in [0, 5] {
        let why = reason_of(&page, &x, &format!("Paragraph {n} of")).unwrap_or_default();
        assert!(why.contains("main container"), "{why}");
    }
}

/// A page that is itself a newsletter's sign-up (its headline, its pitch and the form in one
/// box) is no sign-up printed on a page: its pitch is its text, beside the publisher's line.
#[test]
fn a_sign_up_under_the_pages_headline_is_its_text() {
    let html = format!(
        "<html><head><title>The Friday letter</title></head><body><nav>{NAV}</nav>\
         <div class=x8><h1>The Friday letter</h1><p>Every Friday our editors choose the five \
         stories of the week worth your evening, and write a line on why each one matters to \
         you.</p><p>It is free, it comes once a week, and every issue ends with a long read \
         saved for the weekend, chosen by a different writer.</p><form><input type=email>\
         <button>Sign up</button></form></div><div class=x6><p>Published by The Weekly, twelve \
         Harbour Street, Leeds, since 1998, and read in forty countries.</p></div></body></html>"
    );
    let (page, x) = run(&html);
    let list = kept(&page, &x);
    assert!(has(&list, "Every Friday our editors"), "{list:#?}");
}

/// Among a shop's cards a sign-up's pitch is the only prose there is: it makes no article, and
/// the cards are the page's text. The sign-up's box ends at its title: the cards beside it,
/// short as they are, stay out of it.
#[test]
fn a_sign_up_among_a_lists_cards_is_no_article() {
    let cards = shoe_cards();
    let html = format!(
        "<html><head><title>Trail shoes</title></head><body><div class=w1><h1>Trail shoes</h1>\
         <div class=g2><ul class=cards>{cards}</ul>{SIGN_UP}</div></div></body></html>"
    );
    let (page, x) = run(&html);
    let list = kept(&page, &x);
    assert!(has(&list, "Trail runner model 3"), "{list:#?}");
    assert!(has(&list, "Trail runner model 8"), "{list:#?}");
    assert!(!has(&list, "handpicked"), "{list:#?}");
    let why = reason_of(&page, &x, "handpicked").unwrap_or_default();
    assert!(why.contains("email address"), "{why}");
}

/// A short post with its own subscription form inside its `<article>` (the page's `<h1>` is the
/// site's name) is no sign-up: the post is the page's text.
#[test]
fn a_short_post_with_a_subscription_form_is_no_sign_up() {
    let html = "<html><head><title>A note on tides</title></head><body><h1>The Harbour Log</h1>\
         <article class=x5><h2>A note on tides</h2><p>The spring tides this week run higher \
         than the tables say, so moor long and check your lines at night, as the old hands on \
         the north quay have done every March since the wall was built.</p>\
         <form><input type=email><button>Subscribe</button></form></article>\
         <div class=x6><p>Published by The Harbour Log, twelve Quay Street, since 1998.</p>\
         </div></body></html>";
    let (page, x) = run(html);
    let list = kept(&page, &x);
    assert!(has(&list, "The spring tides this week"), "{list:#?}");
}

/// A contact page's introduction shares its box with the form asking for an address, as a
/// sign-up's pitch does: beside the page's own prose it would go, but where it is the only prose
/// there is, the page is not left blank.
#[test]
fn a_contact_pages_only_prose_is_kept_beside_its_form() {
    let html = format!(
        "<html><head><title>Contact us</title></head><body><nav>{NAV}</nav><div class=x9>\
         <h1>Contact us</h1><div class=x8><p>Write to us about an order, a return or anything \
         else, and someone from our team in Leeds answers within a working day, often \
         sooner.</p><form><label>Email <input type=email></label><textarea></textarea>\
         <button>Send</button></form></div></div></body></html>"
    );
    let (page, x) = run(&html);
    let list = kept(&page, &x);
    assert!(has(&list, "Write to us about an order"), "{list:#?}");
}

/// A shop's list of `cards` entries, then a comment section under its count: `comments`
/// comments, each an avatar, a name with a date and three lines of prose, and a reply link.
fn shop_with_comments(cards: usize, comments: usize) -> String {
    let cards: String = (1..=cards)
        .map(|n| {
            format!(
                "<li class=k1><a href=/desk/{n}>Standing desk model {n} in walnut</a>\
                 <span>$ 4{n}9.00</span><span>Ships in a week</span></li>"
            )
        })
        .collect();
    let list: String = (1..=comments)
        .map(|n| {
            format!(
                "<li class=k2><div class=k3><img src=/a/{n}.png alt=''> <b>Reader {n}</b> \
                 <span>March {n}, 2025 at 4:1{n} pm</span></div><p>Comment {n}: we bought one \
                 of these last spring, and the motor still runs quietly, though the cable tray \
                 took us an hour to fit and the manual never said which screws go where.</p>\
                 <a href=#reply-{n}>Reply</a></li>"
            )
        })
        .collect();
    format!(
        "<html><head><title>Standing desks</title></head><body><nav>{NAV}</nav><div class=k4>\
         <h1>Standing desks</h1><ul class=k5>{cards}</ul></div><div class=k6>\
         <h3>{comments} Comments</h3><ol class=k7>{list}</ol></div></body></html>"
    )
}

/// Comments kept for want of other prose on a shop's short list (its entries are short lines)
/// are readers' words about the page, neither its article nor an introduction the list would
/// need to dwarf, and their own list of alike items is no grid of the page's: the list is kept
/// and the comments go, as they would beside an article. Their names and dates weigh nothing
/// either: eleven comments outweighed the list by those lines alone.
#[test]
fn kept_comments_weigh_nothing_against_a_grid() {
    for comments in [5, 11] {
        let (page, x) = run(&shop_with_comments(12, comments));
        let k = kept(&page, &x);
        assert!(
            has(&k, "Standing desk model 9 in walnut"),
            "{comments}: {k:#?}"
        );
        assert!(!has(&k, "Comment 2:"), "{comments}: {k:#?}");
    }
}

/// A thread's replies under their "5 Replies" line, with a longer list of similar threads
/// printed after them: the replies are the page's, and a list after a side section is never
/// weighed against what it holds.
#[test]
fn a_list_after_the_comments_is_not_weighed_against_them() {
    let similar: String = (1..=20)
        .map(|n| {
            format!(
                "<li class=t><a href=/t/{n}>Similar thread {n} on glue and clamps for oak</a>\
                 <span>1{n} replies</span></li>"
            )
        })
        .collect();
    let html = format!(
        "<html><head><title>Forums</title></head><body><nav>{NAV}</nav><div class=hd>\
         <h1>Which glue for oak?</h1></div><div class=op><p>I am gluing up an oak table top, \
         six boards wide, and wonder which glue holds best in a damp workshop over winter.</p>\
         </div><div class=replies><h3>5 Replies</h3>{}</div><ul class=sim>{similar}</ul>\
         </body></html>",
        bylined_comments(5)
    );
    let (page, x) = run(&html);
    let k = kept(&page, &x);
    assert!(has(&k, "Comment 3:"), "{k:#?}");
    assert!(!has(&k, "Similar thread 4"), "{k:#?}");
}

/// A side section opens with its line and holds its entries: two signed comments with prose
/// after "Discussion" make one, a lone one does not (an article's section under its author's
/// note), nor do bylines over no prose (an entry's author and date under "3 Comments"), nor a
/// loose opening followed by other words ("Discussion board"); two teasers under "More
/// stories" make one. A box that also holds the headline or an `<h1>` is the page itself
/// (comments printed in the article's own box, a forum's banner above its question), and a
/// section that keeps nothing is not read.
#[test]
fn side_sections_open_with_their_line_and_hold_their_entries() {
    let sections_keeping = |html: &str, keep: &dyn Fn(&str) -> bool| {
        let page = page_at(html);
        let stats = Stats::compute(&page);
        let mut facts = NodeFacts::new(&page.dom);
        let labels: Vec<Label> = page
            .blocks
            .iter()
            .map(|b| {
                let verdict = if keep(&b.text) {
                    Verdict::Content
                } else {
                    Verdict::Boilerplate
                };
                page_label(verdict, "".into())
            })
            .collect();
        side_sections(&page, &stats, &mut facts, &labels, &mut None)
            .into_iter()
            .map(|run| page.blocks[run].iter().map(|b| b.text.clone()).collect())
            .collect::<Vec<Vec<String>>>()
    };
    let sections = |html: &str| sections_keeping(html, &|_| true);
    let after_a_list = |side: &str| {
        format!(
            "<html><head><title>Standing desks</title></head><body><h1>Standing desks</h1>\
             <ul class=k5><li>Desk one</li><li>Desk two</li></ul><div class=k6>{side}</div>\
             <p>Shipping and returns</p></body></html>"
        )
    };
    let found = sections(&after_a_list(&format!(
        "<h3>Discussion</h3>{}",
        bylined_comments(2)
    )));
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].first().map(String::as_str), Some("Discussion"));
    assert!(
        found[0].iter().any(|line| line.starts_with("Comment 2:")),
        "{found:#?}"
    );
    assert!(
        !found[0].iter().any(|line| line.contains("Shipping")),
        "{found:#?}"
    );
    // A section that keeps nothing is not read: it weighs nothing either way.
    let signed = after_a_list(&format!("<h3>Discussion</h3>{}", bylined_comments(2)));
    let found = sections_keeping(&signed, &|text| text.contains("Shipping"));
    assert!(found.is_empty(), "{found:#?}");
    for side in [
        format!("<h3>Discussion</h3>{}", bylined_comments(1)),
        "<h3>3 Comments</h3><p>By Alice Example</p><p>March 3, 2025</p>".to_string(),
        format!("<h3>Discussion board</h3>{}", bylined_comments(2)),
    ] {
        let found = sections(&after_a_list(&side));
        assert!(found.is_empty(), "{side}: {found:#?}");
    }
    let found = sections(&after_a_list(&format!(
        "<h3>More stories</h3>{}",
        related_teasers(2)
    )));
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].first().map(String::as_str), Some("More stories"));
    let in_the_article = format!(
        "<html><head><title>Beginning woodworking</title></head><body><div class=q1>\
         <h2>Beginning woodworking</h2>{}<h3>Comments</h3>{}</div></body></html>",
        paragraphs(0..2),
        bylined_comments(3)
    );
    let found = sections(&in_the_article);
    assert!(found.is_empty(), "{found:#?}");
    // The same under a `<title>` that names the site, not the page: the `<h1>` says it.
    let in_the_article = in_the_article
        .replace("<title>Beginning woodworking", "<title>Forums")
        .replace("h2>", "h1>");
    let found = sections(&in_the_article);
    assert!(found.is_empty(), "{found:#?}");
}

/// Teasers a related heading sets aside are not counted again with the teasers the page keeps
/// elsewhere: the grid step weighs the page's own teasers against its own prose.
#[test]
fn teasers_in_a_side_section_are_not_counted_again() {
    let html = format!(
        "<html><head><title>Standing desks</title></head><body><h1>Standing desks</h1>\
         <div class=k9>{}</div><div class=k6><h3>More stories</h3>{}</div></body></html>",
        related_teasers(2),
        related_teasers(3).replace("budget", "plan")
    );
    let page = page_at(&html);
    let stats = Stats::compute(&page);
    let mut facts = NodeFacts::new(&page.dom);
    let labels = vec![page_label(Verdict::Content, "".into()); page.blocks.len()];
    let sides = side_sections(&page, &stats, &mut facts, &labels, &mut None);
    assert_eq!(sides.len(), 1, "{sides:?}");
    let summary_words = |n: usize| {
        page.blocks
            .iter()
            .filter(|b| b.text.starts_with(&format!("Summary {n}:")))
            .map(|b| b.words)
            .sum::<u32>()
    };
    let outside = kept_teaser_words_outside(&page, &labels, &sides);
    assert_eq!(
        outside,
        summary_words(0) / 2 + summary_words(1) / 2,
        "{sides:?}"
    );
}

/// A sheet that fixes class `n9` to the viewport, as a consent tool's does its banner.
const FIXED_SHEET: &str =
    "<style>.n9{position:fixed;bottom:0;left:0;right:0;z-index:9999;background:#fff}</style>";

/// Three alike paragraphs of a consent notice, each long enough to pass for a post.
fn consent_paragraphs(class: &str) -> String {
    [
        "We and our partners store and access information on your device, such as cookies, \
         and process personal data for personalised advertising, content measurement and \
         audience research.",
        "With your permission we and our partners may use precise geolocation data. You may \
         click to consent, or access more detailed information and change your preferences \
         before consenting.",
        "Some processing of your personal data may not require your consent, but you have a \
         right to object. You can change your preferences at any time from the link at the \
         bottom of the page.",
    ]
    .iter()
    .map(|p| format!("<p class={class}>{p}</p>"))
    .collect()
}

/// On a thread with no replies yet, the search for its posts passes over a box laid over the
/// page by its sheet and over one asking for an email address, whatever their names: a
/// cookie notice's three alike paragraphs are no replies.
#[test]
fn a_box_laid_over_a_thread_or_asking_for_an_email_holds_no_posts() {
    let boxes = [
        format!(
            "<div class=n9><h2>We value your privacy</h2>{}<button>Accept all</button></div>",
            consent_paragraphs("m2")
        ),
        format!(
            "<div class=k3q><h2>Stay in the loop</h2>{}<form><input type=email>\
             <button>Sign up</button></form></div>",
            consent_paragraphs("m2")
        ),
    ];
    for laid in &boxes {
        let html = format!(
            "<html><head><title>The project is ending - Forum</title>{FIXED_SHEET}\
             <script type=\"application/ld+json\">{{\"@type\": \"DiscussionForumPosting\", \
             \"headline\": \"The project is ending\"}}</script></head><body><nav>{NAV}</nav>\
             <div class=Main><h1>The project is ending</h1><div class=Discussion>\
             <div class=Author><a href=/u/0>admin</a> December 2, 2024</div>\
             <div class=Message>{}</div></div></div>{laid}</body></html>",
            paragraphs(0..4)
        );
        let (page, x) = run(&html);
        let list = kept(&page, &x);
        assert!(has(&list, "Paragraph 3 "), "{laid}: {list:#?}");
        assert!(!has(&list, "our partners"), "{laid}: {list:#?}");
    }
}

/// Widening keeps a region's text, but not a box laid over the page inside it, nor a sign-up:
/// neither is the page's text, as neither counted as its prose.
#[test]
fn widening_leaves_out_a_box_laid_over_the_page_and_a_sign_up() {
    let html = format!(
        "<html><head><title>Town fair</title>{FIXED_SHEET}</head><body>{NAV}\
         <div id=story><h1>Town fair</h1>{}<div class=n9>{CONSENT_PROSE}</div>{}{SIGN_UP}{}</div>\
         <div id=note><p>Short note.</p></div></body></html>",
        paragraphs(0..3),
        paragraphs(3..6),
        paragraphs(6..9),
    );
    let page = page_at(&html);
    let (kept, _) = widened_from(&page, &["note"]);
    assert!(has(&kept, "Paragraph 0 "), "{kept:?}");
    assert!(has(&kept, "Paragraph 8 "), "{kept:?}");
    assert!(!has(&kept, "our partners"), "{kept:?}");
    assert!(!has(&kept, "handpicked by our editors"), "{kept:?}");
}

/// A drawer the sheet fixes over a product page (a cart's suggestions) holds alike items, but
/// none of the page's own: the search for the page's grid passes over it.
#[test]
fn a_drawer_laid_over_the_page_holds_no_grid_of_its_own() {
    let suggestions: String = (1..=5)
        .map(|n| {
            format!(
                "<div class=rec><a href=/p/{n}>Trail sock pair number {n}</a> in a soft merino \
                 wool blend, cushioned at the heel</div>"
            )
        })
        .collect();
    let drawer = format!("<div class=n9><h2>You may also like</h2>{suggestions}</div>");
    let html =
        page_of_short_lines("", &drawer).replacen("</head>", &format!("{FIXED_SHEET}</head>"), 1);
    let (page, x) = run(&html);
    let list = kept(&page, &x);
    assert!(has(&list, "Trail shoe"), "{list:#?}");
    assert!(!has(&list, "merino"), "{list:#?}");
}

/// A story a server renders inside a web component's declarative shadow root is the page's
/// article, as a browser shows it: its paragraphs are kept, not left in an inert template.
#[test]
fn a_story_in_a_declarative_shadow_root_is_kept() {
    let html = format!(
        "<html><head><title>The bridge that swayed</title></head><body><nav>{NAV}</nav>\
         <story-body><template shadowrootmode=open><h1>The bridge that swayed</h1>{}\
         <slot></slot></template></story-body></body></html>",
        paragraphs(0..6)
    );
    let (page, x) = run(&html);
    let list = kept(&page, &x);
    assert!(has(&list, "Paragraph 0 "), "{list:#?}");
    assert!(has(&list, "Paragraph 5 "), "{list:#?}");
}

/// A reading pane the site fixes to the viewport, holding the heading that reads as the page's
/// title, is the page, not a box laid over it, as a dialog holding it is: its paragraphs stay.
#[test]
fn a_fixed_pane_holding_the_pages_title_is_the_page() {
    let links: String = (0..8)
        .map(|n| format!("<li><a href=/s/{n}>Section {n}</a></li>"))
        .collect();
    let html = format!(
        "<html><head><title>Tide tables</title>{FIXED_SHEET}</head><body><ul>{links}</ul>\
         <div class=n9><h2>Tide tables</h2>{}</div></body></html>",
        paragraphs(0..3)
    );
    let (page, x) = run(&html);
    let list = kept(&page, &x);
    assert!(has(&list, "Paragraph 0 of"), "{list:#?}");
    assert!(has(&list, "Paragraph 2 of"), "{list:#?}");
}

/// A story a site loads below the one a reader opened: its own `<article>` under its own
/// `<h1>`, with more prose than the first.
fn next_story(paragraphs: usize) -> String {
    let body: String = (0..paragraphs)
        .map(|n| {
            format!(
                "<p>Next story paragraph {n}: the harbour authority said dredging of the \
                 northern channel will begin in the autumn, two years late, after a survey \
                 found the silt deeper than the plan had assumed.</p>"
            )
        })
        .collect();
    format!(
        "<article class=x9><h1>Dredging of the harbour channel delayed until autumn</h1>\
         <div class=x8>By Sam Porter, March 4</div><div class=x7>{body}</div></article>"
    )
}

/// The next story a site appends below the opened one is not the article, however much prose
/// it holds: whether both stories are `<article>`s side by side, or the opened one is not marked
/// and the next sits in the box beside it, or in the very box that holds its paragraphs, or the
/// opened one is a short post, far less of the page's prose than the next. The opened story's headline reads as the page's
/// title; the next one's does not.
#[test]
fn the_next_story_loaded_below_the_article_is_not_its_text() {
    let title = "<title>River floods the old town | Valley Times</title>";
    let side_by_side = format!(
        "<html><head>{title}</head><body>{NAV}<div class=feed>\
         <article class=x9><h1>River floods the old town</h1><div class=x7>{}</div></article>\
         {}</div></body></html>",
        paragraphs(0..4),
        next_story(8),
    );
    let same_box = format!(
        "<html><head>{title}</head><body>{NAV}<main><div class=x1>\
         <h1>River floods the old town</h1>{}</div>{}</main></body></html>",
        paragraphs(0..4),
        next_story(8),
    );
    let loose = format!(
        "<html><head>{title}</head><body>{NAV}<main><h1>River floods the old town</h1>{}{}\
         </main></body></html>",
        paragraphs(0..4),
        next_story(3),
    );
    // A short post is far less of the page's prose than the next story: still the article.
    let short = format!(
        "<html><head>{title}</head><body>{NAV}<main><div class=x1><h1>River floods the old \
         town</h1></div><article class=x2>{}</article>{}</main></body></html>",
        paragraphs(0..2),
        next_story(10),
    );
    for (html, last) in [(side_by_side, 3), (same_box, 3), (loose, 3), (short, 1)] {
        let (page, x) = run(&html);
        let kept = kept(&page, &x);
        assert!(has(&kept, "Paragraph 0 of"), "{kept:#?}");
        assert!(has(&kept, &format!("Paragraph {last} of")), "{kept:#?}");
        assert!(!has(&kept, "Next story paragraph"), "{kept:#?}");
        assert!(!has(&kept, "Dredging"), "{kept:#?}");
        let why = reason_of(&page, &x, "Next story paragraph 0").unwrap_or_default();
        assert!(why.contains("another story"), "{why}");
    }
}

/// An article's own parts printed as `<article>`s under lower headings than its title (a
/// live blog's entries, a guide's steps) are its text, and so is an `<article>` that opens with
/// the page's own title again.
#[test]
fn an_articles_sections_under_lower_headings_are_not_other_stories() {
    let entries: String = (0..3)
        .map(|n| {
            format!(
                "<article><h2>Update {n}</h2>{}</article>",
                paragraphs(n * 2..n * 2 + 2)
            )
        })
        .collect();
    let html = format!(
        "<html><head><title>River floods the old town | Valley Times</title></head><body>{NAV}\
         <article><header><h1>River floods the old town</h1></header>{}{entries}</article>\
         </body></html>",
        paragraphs(10..12),
    );
    let (page, x) = run(&html);
    let sections_kept = kept(&page, &x);
    for n in [0, 5, 10] {
        assert!(
            has(&sections_kept, &format!("Paragraph {n} of")),
            "{sections_kept:#?}"
        );
    }
    let retitled = format!(
        "<html><head><title>River floods the old town | Valley Times</title></head><body>{NAV}\
         <div class=hero><h1>River floods the old town</h1></div>\
         <article><h1>River floods the old town</h1>{}</article></body></html>",
        paragraphs(0..5),
    );
    let (page, x) = run(&retitled);
    let retitled_kept = kept(&page, &x);
    assert!(has(&retitled_kept, "Paragraph 4 of"), "{retitled_kept:#?}");
}

/// A list of links to documents inside the article (an agency's fliers and forms) is what the
/// page offers to read and stays; a list of links to the site's pages beside it goes as a menu.
#[test]
fn links_to_documents_inside_the_article_are_its_text() {
    let fliers = "<div class=resources><a class=card href=/uploads/home-repair-flier.pdf>Home \
                  Repair Program Flier</a> <a class=card href=/uploads/window-program.PDF>Window \
                  Replacement Program Flier</a> <a class=card href=/docs/get?file=eligible-repairs.docx>\
                  Eligible Repairs Fact Sheet</a></div>";
    let pages = "<div class=more><a href=/cdbg/>Community Development Block Grant</a> \
                 <a href=/rental-rehab/>Rental Rehabilitation Loan Program</a> \
                 <a href=/wap/>Weatherization Assistance Program</a></div>";
    let html = format!(
        "<html><head><title>Home repair programs</title></head><body>{NAV}<article>\
         <h1>Home repair programs</h1>{}{fliers}{}{pages}</article></body></html>",
        paragraphs(0..3),
        paragraphs(3..5),
    );
    let (page, x) = run(&html);
    let kept_box = kept(&page, &x);
    assert!(has(&kept_box, "Home Repair Program Flier"), "{kept_box:#?}");
    assert!(
        !has(&kept_box, "Community Development Block Grant"),
        "{kept_box:#?}"
    );
    // The same links as a list: each item holds one link, and its list says what it is.
    let list = html.replace(
        fliers,
        "<ul><li><a href=/u/a.pdf>Home Repair Program Flier</a></li><li><a href=/u/b.pdf>\
         Window Replacement Program Flier</a></li><li><a href=/d/get?file=c.docx>Eligible \
         Repairs Fact Sheet</a></li></ul>",
    );
    let (page, x) = run(&list);
    let kept_list = kept(&page, &x);
    assert!(
        has(&kept_list, "Window Replacement Program Flier"),
        "{kept_list:#?}"
    );
}

/// A page whose own text is a few short lines (a recipe's ingredients under its title) and
/// whose only prose is the next story below it, inside the region the page marks as main: the
/// lines are the article, and no step that falls back on the page's prose or its main region
/// takes the next story for it.
#[test]
fn the_next_story_is_not_the_text_of_a_page_of_short_lines() {
    let lines: String = [
        "Two cups of flour",
        "One cup of milk",
        "Three large eggs",
        "A pinch of salt",
    ]
    .iter()
    .map(|l| format!("<li>{l}</li>"))
    .collect();
    let html = format!(
        "<html><head><title>Fluffy buttermilk pancakes | Valley Kitchen</title></head><body>{NAV}<main>\
         <article><h1>Fluffy buttermilk pancakes</h1><ul class=ingredients>{lines}</ul></article>{}</main>\
         </body></html>",
        next_story(8),
    );
    let (page, x) = run(&html);
    let kept = kept(&page, &x);
    assert!(!has(&kept, "Next story paragraph"), "{kept:#?}");
    assert!(has(&kept, "Three large eggs"), "{kept:#?}");
}

/// A story in a feed of alike ones, each an `<article>` under its own title and byline: the
/// opened story is the article; two next stories beside it are neither parts of it (twins of
/// its box) nor, in the fallback, the prose of a story that holds only a video.
#[test]
fn alike_next_stories_are_no_parts_of_the_opened_one_nor_its_fallback() {
    let story = |class: &str, title: &str, by: &str, body: &str| {
        format!(
            "<article class={class}><h1>{title}</h1><div class=by>{by}</div>\
             <div class=body>{body}</div></article>"
        )
    };
    let next = |title: &str, n: usize| {
        let body: String = (0..8)
            .map(|p| {
                format!(
                    "<p>{title} paragraph {p}: the harbour authority said on Tuesday that the \
                     work on the northern channel will begin in the autumn, two years late.</p>"
                )
            })
            .collect();
        story("story", title, &format!("By Sam Porter, March {n}"), &body)
    };
    let page = |opened: &str| {
        format!(
            "<html><head><title>River floods the old town | Valley Times</title></head><body>\
             {NAV}<div class=feed>{opened}{}{}</div><footer>Copyright</footer></body></html>",
            next("Dredging delayed until autumn", 2),
            next("Mayor resigns after audit", 3),
        )
    };
    let prose = story(
        "story",
        "River floods the old town",
        "By Ann Lee, March 1",
        &paragraphs(0..3),
    );
    let (p, x) = run(&page(&prose));
    let kept_prose = kept(&p, &x);
    assert!(has(&kept_prose, "Paragraph 2 of"), "{kept_prose:#?}");
    assert!(
        !has(&kept_prose, "paragraph 0: the harbour"),
        "{kept_prose:#?}"
    );
    let video = "<article class=clip><h1>River floods the old town</h1><div class=by>By Ann Lee, \
                 March 1</div><video src=/v.mp4></video><p>Water rose overnight.</p></article>";
    let (p, x) = run(&page(video));
    let kept_video = kept(&p, &x);
    assert!(
        has(&kept_video, "River floods the old town"),
        "{kept_video:#?}"
    );
    assert!(
        !has(&kept_video, "paragraph 0: the harbour"),
        "{kept_video:#?}"
    );
    // With one next story, no box holds both: nothing stands out, and the page falls back.
    let one_next = format!(
        "<html><head><title>River floods the old town | Valley Times</title></head><body>\
         {NAV}<div class=feed>{video}{}</div><footer>Copyright</footer></body></html>",
        next("Dredging delayed until autumn", 2),
    );
    let (p, x) = run(&one_next);
    let kept_one = kept(&p, &x);
    assert!(has(&kept_one, "River floods the old town"), "{kept_one:#?}");
    assert!(!has(&kept_one, "paragraph 0: the harbour"), "{kept_one:#?}");
    let why = reason_of(&p, &x, "paragraph 0: the harbour").unwrap_or_default();
    assert!(why.contains("another story"), "{why}");
}

/// Where the heading that reads as the title stands in a band of its own, outside any
/// `<article>`, the `<article>` right under it is the body it opens, whatever heading opens
/// that (a section's name as the title, the story's own headline in the body; a static site's
/// post whose Markdown opens with `# Background`).
#[test]
fn the_body_under_a_headline_in_a_band_of_its_own_is_the_article() {
    let banner = format!(
        "<html><head><title>Press releases | City of Valley</title></head><body>{NAV}\
         <div class=page-banner><h2>Press releases</h2></div><div id=content><article>\
         <h1>Council votes to fund the new river crossing</h1><p>March 3, 2024</p>{}</article>\
         </div></body></html>",
        paragraphs(0..4),
    );
    let post = format!(
        "<html><head><title>Migrating our cluster to Kubernetes</title></head><body>{NAV}\
         <div class=post-header><h1>Migrating our cluster to Kubernetes</h1><div>March 3, 2024\
         </div></div><article class=post-content><h1>Background</h1>{}<h2>The plan</h2>{}\
         </article></body></html>",
        paragraphs(0..2),
        paragraphs(2..4),
    );
    for html in [banner, post] {
        let (page, x) = run(&html);
        let kept = kept(&page, &x);
        assert!(has(&kept, "Paragraph 0 of"), "{kept:#?}");
        assert!(has(&kept, "Paragraph 3 of"), "{kept:#?}");
    }
}
