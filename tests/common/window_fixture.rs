//! A small reader database for the window's tests, benchmark and screenshots: one news site whose
//! pages share a template (navigation, promo, "most read", footer) around a unique article
//! (headline, byline, paragraphs with a link, a subheading, a list, a quote, code, a photo stored
//! offline), run through the real engine and stored through the Store API, as a refresh would.
//! Plus a feed whose last refresh failed. No network.

#![allow(dead_code)] // each test binary uses its own subset

use std::path::Path;

use pith::classify::{self, Method};
use pith::extract::{Document, Engine};
use pith::store::{EntryRef, NewArticle, NewImage, NewItem, PageBytes, Store};

/// The site's feed title.
pub const FEED: &str = "Example News";
/// A feed whose last refresh failed.
pub const BROKEN_FEED: &str = "Broken Feed";
/// Its error.
pub const BROKEN_ERROR: &str = "HTTP 503 Service Unavailable";
/// Template text that must never reach the reading pane.
pub const BOILERPLATE: [&str; 3] = [
    "Subscribe to the Example News newsletter for the morning headlines",
    "Copyright 2026 Example News Limited. All rights reserved.",
    "Weather in the capital turns cold again this weekend",
];

const NAMES: [&str; 16] = [
    "Alder", "Birch", "Cedar", "Dogwood", "Elm", "Fir", "Ginkgo", "Hazel", "Ivy", "Juniper",
    "Larch", "Maple", "Nutmeg", "Oak", "Pine", "Quince",
];

const SENTENCES: [&str; 8] = [
    "The council approved the new budget after a long debate that ran late into Tuesday evening",
    "Residents had asked for more money to be spent on roads, parks and the two primary schools",
    "The mayor said the plan would be reviewed again in the spring, when the revenue is known",
    "Opposition members argued that the tax increase would hurt the small businesses in town",
    "A public hearing drew more than two hundred people, many of them parents of young pupils",
    "Engineers warned that two of the old bridges need urgent repairs before the next winter",
    "The library will extend its opening hours on weekends from the first of March onwards",
    "Local police reported that burglaries fell by a third compared with the previous year",
];

/// Page `n`'s headline.
pub fn title(n: usize) -> String {
    format!(
        "{} Street residents win their fight for a new bridge",
        NAMES[n % NAMES.len()]
    )
}

/// A sentence of page `n`'s article that the reading pane must show.
pub fn content_sentence(n: usize) -> String {
    let name = NAMES[n % NAMES.len()];
    format!(
        "{}, and on {name} Street the neighbours celebrated the decision.",
        SENTENCES[n % SENTENCES.len()]
    )
}

/// Page `n`'s URL.
pub fn url(n: usize) -> String {
    format!(
        "https://www.examplenews.com/local/2026/{}-street-bridge-{n}",
        NAMES[n % NAMES.len()].to_lowercase()
    )
}

/// Page `n`'s photo URL.
pub fn photo(n: usize) -> String {
    format!("https://www.examplenews.com/images/bridge-{n}.png")
}

/// Page `n`'s HTML.
pub fn page(n: usize) -> String {
    let name = NAMES[n % NAMES.len()];
    let s = |i: usize| SENTENCES[(n + i) % SENTENCES.len()];
    let [promo, copyright, weather] = BOILERPLATE;
    format!(
        r#"<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title} - Example News</title></head>
<body>
<header class="site-header"><nav class="menu"><a href="/">Home</a> <a href="/local">Local</a> <a href="/world">World</a> <a href="/tech">Technology</a> <a href="/sport">Sport</a></nav>
<div class="promo"><p>{promo}</p></div></header>
<main><article class="story" id="story-{n}">
<h1>{title}</h1>
<p class="byline">By Jane Doe, local affairs reporter</p>
<p>{content} The vote was close, and <a href="https://council.examplenews.org/minutes/{n}">the minutes of the meeting</a> show how the {name} Street residents made their case.</p>
<p>{s1}. People on {name} Street said they had waited for this for a decade.</p>
<h2>What happens next on {name} Street</h2>
<p>{s2}. Work on the {name} bridge is expected to start in the autumn.</p>
<ul><li>The {name} bridge closes for three months from September.</li><li>Buses to {name} Street take the river road meanwhile.</li><li>A footbridge stays open for the {name} school run.</li></ul>
<blockquote><p>"We never gave up on {name} Street," said one resident who has lived there for forty years.</p></blockquote>
<ol start="2"><li>Residents vote on the {name} detour in October.</li><li>The council publishes the final plan for {name} Street in November.</li></ol>
<pre>closure:
    {name} bridge, 2026-09-01 to 2026-11-30</pre>
<figure><img src="/images/bridge-{n}.png" alt="The old {name} bridge at dusk"><figcaption>The old {name} bridge at dusk, photographed from the river bank.</figcaption></figure>
<p>{s3}. The council meets again next month to discuss the {name} Street traffic plan.</p>
</article></main>
<aside class="most-read"><h3>Most read</h3><ul>
<li><a href="/local/weather">{weather}</a></li>
<li><a href="/local/market">The Saturday market moves to the harbour square</a></li>
<li><a href="/sport/derby">Late goal settles the derby in front of a record crowd</a></li></ul></aside>
<footer class="site-footer"><p>{copyright}</p><p><a href="/contact">Contact us</a> | <a href="/privacy">Privacy policy</a> | <a href="/terms">Terms of use</a></p></footer>
</body></html>"#,
        title = title(n),
        content = content_sentence(n),
        s1 = s(1),
        s2 = s(2),
        s3 = s(3),
    )
}

/// A small PNG (a gradient), as the photo stored offline.
pub fn png(seed: usize) -> Vec<u8> {
    let img = image::RgbImage::from_fn(96, 64, |x, y| {
        image::Rgb([(x * 2) as u8, (y * 3) as u8, ((seed * 40) % 255) as u8])
    });
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png)
        .expect("encode png");
    out.into_inner()
}

/// What was built.
#[derive(Debug, Clone)]
pub struct Fixture {
    /// The site's feed.
    pub feed: i64,
    /// The broken feed.
    pub broken: i64,
    /// Item ids of the site's pages, page 0 first.
    pub items: Vec<i64>,
}

/// Turns the window's refresh clock off: the fixture's feeds name addresses no test may reach.
fn no_refresh_on_its_own(store: &mut Store) {
    store
        .set_setting(pith::ui::schedule::SETTING, "0")
        .expect("setting");
}

/// Builds the database at `path`: `pages` pages of the site (all in the tree first, as a new
/// feed's entries are, then classified and stored; page `n` is published at `base + n` hours so
/// the last page is the newest).
pub fn build(path: &Path, pages: usize) -> Fixture {
    let mut store = Store::open(path).expect("open store");
    let engine = Engine::default();
    let now = 1_790_000_000;
    let (feed, _) = store
        .feed_add(
            "https://www.examplenews.com/feed.xml",
            Some(FEED),
            Some("https://www.examplenews.com/"),
            now,
        )
        .expect("feed");
    store
        .feed_fetched(feed, Some(FEED), None, None, None, now)
        .expect("fetched");
    let (broken, _) = store
        .feed_add(
            "https://broken.example.org/rss",
            Some(BROKEN_FEED),
            None,
            now,
        )
        .expect("feed");
    store
        .feed_failed(broken, BROKEN_ERROR, None, now)
        .expect("failed");

    no_refresh_on_its_own(&mut store);
    let htmls: Vec<String> = (0..pages).map(page).collect();
    let mut ingested = Vec::new();
    for (n, html) in htmls.iter().enumerate() {
        let u = url(n);
        let t = title(n);
        let doc = Document {
            bytes: html.as_bytes(),
            declared_charset: Some("text/html; charset=utf-8"),
            url: Some(&u),
            title: Some(&t),
            time: now + n as i64 * 3600,
            entry_text: None,
        };
        ingested.push(engine.ingest(&mut store, &doc).expect("ingest"));
    }
    let mut items = Vec::new();
    for (n, ing) in ingested.iter().enumerate() {
        let labels = engine
            .classify(&store, ing, Method::default_method())
            .expect("classify");
        let text = classify::content_text(&ing.page, &labels);
        let key = ing.key.as_ref().expect("url key");
        let u = url(n);
        let t = title(n);
        let identity = format!("entry-{n}");
        let raw = PageBytes::compress(htmls[n].as_bytes()).expect("compress");
        let encoded = PageBytes::encode_labelled(&ing.page, &labels);
        let images = [NewImage {
            url: photo(n),
            content_type: Some("image/png".into()),
            data: Ok(png(n)),
        }];
        let stored = store
            .item_store(
                &EntryRef {
                    feed,
                    identity: &identity,
                },
                &NewItem {
                    link: &u,
                    title: &t,
                    summary: Some("A summary from the feed."),
                    published: Some(now + n as i64 * 3600),
                    added: now + n as i64 * 3600,
                },
                &NewArticle {
                    url: &u,
                    declared_charset: Some("text/html; charset=utf-8"),
                    raw: &raw,
                    domain: &key.domain,
                    url_key: &key.key,
                    tree_doc: ing.doc,
                    blocks: &encoded,
                    text: &text,
                    images: &images,
                    known_images: &[],
                },
            )
            .expect("store item");
        items.push(stored.id());
    }
    Fixture {
        feed,
        broken,
        items,
    }
}

/// Adds `count` more items to the site's feed without pages (their summaries only, as a feed
/// whose pages failed): cheap, for a list of 100,000 items.
pub fn add_bulk_items(path: &Path, feed: i64, count: usize) {
    let mut store = Store::open(path).expect("open store");
    let start = 1_780_000_000;
    for i in 0..count {
        let identity = format!("bulk-{i}");
        let link = format!("https://www.examplenews.com/archive/{i}");
        let title = format!("Archive story number {i} about the town and its people");
        store
            .item_store_failed(
                &EntryRef {
                    feed,
                    identity: &identity,
                },
                &NewItem {
                    link: &link,
                    title: &title,
                    summary: Some("<p>An archived summary.</p>"),
                    published: Some(start + i as i64 * 60),
                    added: start + i as i64 * 60,
                },
                "An archived summary.",
                "archived",
            )
            .expect("store bulk item");
    }
}

/// Builds a database at `path` with one feed and one item: the page `html` at `url`, titled
/// `title`, run through the real engine (alone in its site's tree) and stored as a refresh
/// would. Returns the item's id. For tests that need a page of their own.
pub fn build_article(path: &Path, url: &str, title: &str, html: &str) -> i64 {
    build_article_with_entry_text(path, url, title, html, None)
}

/// [`build_article`] with the feed entry's own text (`summary`, HTML), as the refresh stores it
/// and reading takes it as evidence.
pub fn build_article_with_entry_text(
    path: &Path,
    url: &str,
    title: &str,
    html: &str,
    summary: Option<&str>,
) -> i64 {
    let mut store = Store::open(path).expect("open store");
    let engine = Engine::default();
    let now = 1_790_000_000;
    let (feed, _) = store
        .feed_add(
            "https://www.examplenews.com/feed.xml",
            Some(FEED),
            None,
            now,
        )
        .expect("feed");
    store
        .feed_fetched(feed, Some(FEED), None, None, None, now)
        .expect("fetched");
    no_refresh_on_its_own(&mut store);
    let doc = Document {
        bytes: html.as_bytes(),
        declared_charset: Some("text/html; charset=utf-8"),
        url: Some(url),
        title: Some(title),
        time: now,
        entry_text: summary,
    };
    let ingested = engine.ingest(&mut store, &doc).expect("ingest");
    let labels = engine
        .classify(&store, &ingested, Method::default_method())
        .expect("classify");
    let text = classify::content_text(&ingested.page, &labels);
    let key = ingested.key.as_ref().expect("url key");
    let raw = PageBytes::compress(html.as_bytes()).expect("compress");
    let encoded = PageBytes::encode_labelled(&ingested.page, &labels);
    store
        .item_store(
            &EntryRef {
                feed,
                identity: "the-article",
            },
            &NewItem {
                link: url,
                title,
                summary,
                published: Some(now),
                added: now,
            },
            &NewArticle {
                url,
                declared_charset: Some("text/html; charset=utf-8"),
                raw: &raw,
                domain: &key.domain,
                url_key: &key.key,
                tree_doc: ingested.doc,
                blocks: &encoded,
                text: &text,
                images: &[],
                known_images: &[],
            },
        )
        .expect("store item")
        .id()
}
