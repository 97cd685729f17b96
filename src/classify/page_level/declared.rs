//! What the page declares about its own article: schema.org's `articleBody` in its JSON-LD, the
//! text a publisher hands to search engines as the article. When pith's choice misses most of
//! that text, the choice was wrong (a modal, a teaser box, one column of a split layout), and the
//! page's blocks whose words are the declared body's are the article. Also what else the page
//! declares of itself: its type (an article, a product, a discussion) and its author's name.

use std::collections::HashSet;

use html5ever::local_name;

use super::stats::Stats;
use crate::classify::Label;
use crate::dom::{Dom, NodeId, for_each_name_token, name_holds};
use crate::page::{BlockKind, Page};

/// A declared body shorter than this (in words) is a summary, not the article.
const MIN_BODY_WORDS: usize = 50;

/// The extraction agrees with the declared body when it holds at least this share of the
/// body's distinct words.
pub(super) const AGREES: f32 = 0.6;

/// A block belongs to the declared body when at least this share of its words are the body's.
const BLOCK_IN_BODY: f32 = 0.7;

/// The article's text as the page declares it.
pub(super) struct DeclaredBody {
    /// Its distinct lower-case words.
    pub words: HashSet<String>,
    /// How many words it has in all.
    pub tokens: usize,
}

/// The declared body, when the page declares one of some length: the longest `articleBody` of
/// the page's JSON-LD `documents` (see [`parse_json_ld`]).
pub(super) fn article_body(documents: &[serde_json::Value]) -> Option<DeclaredBody> {
    // The longest `articleBody` string of all the documents.
    let mut best: Option<&str> = None;
    for document in documents {
        for_each_object(document, 0, &mut |map, _| {
            if let Some(body) = map.get("articleBody").and_then(serde_json::Value::as_str)
                && best.is_none_or(|b| body.len() > b.len())
            {
                best = Some(body);
            }
        });
    }
    DeclaredBody::from_text(best?, MIN_BODY_WORDS)
}

impl DeclaredBody {
    /// The body of `text`, when it has at least `min_words` words.
    fn from_text(text: &str, min_words: usize) -> Option<DeclaredBody> {
        let words = super::words(text);
        (words.len() >= min_words).then(|| DeclaredBody {
            tokens: words.len(),
            words: words.into_iter().collect(),
        })
    }
}

/// The feed entry's text as a declared body, when it is the article at length (a full-content
/// feed) rather than a teaser. HTML is cut into blocks as a page would be, so that markup and
/// entities never count as words.
pub(super) fn entry_body(entry_text: &str) -> Option<DeclaredBody> {
    let fragment = crate::page::page_from_html(entry_text, None);
    // Its length in a page's words (a Chinese character one each), as the reader weighs the same
    // text against a page (`classify::entry_stands_in`).
    let words: u32 = fragment.blocks.iter().map(|b| b.words).sum();
    if words < super::FULL_TEXT_ENTRY_WORDS as u32 {
        return None;
    }
    let lines: Vec<&str> = fragment.blocks.iter().map(|b| b.text.as_str()).collect();
    DeclaredBody::from_text(&lines.join(" "), 1)
}

/// Schema.org types of an article.
const ARTICLE_TYPES: &[&str] = &[
    "Article",
    "NewsArticle",
    "BlogPosting",
    "ReportageNewsArticle",
    "OpinionNewsArticle",
    "AnalysisNewsArticle",
];

/// Schema.org types by which a page declares itself a discussion: a forum thread or a question
/// with its answers, whose replies are the page's text rather than comments around it.
const DISCUSSION_TYPES: &[&str] = &["DiscussionForumPosting", "QAPage"];

/// The JSON-LD scripts of the page, parsed (those that parse): read once per extraction, and
/// handed to every question about what the page declares (see `NodeFacts::json_ld`), since
/// parsing them is most of what answering costs.
pub(super) fn parse_json_ld(page: &Page) -> Vec<serde_json::Value> {
    page.declared
        .json_ld
        .iter()
        .map(|&id| script_text(&page.dom, id))
        .filter(|text| could_declare(text))
        .filter_map(|text| serde_json::from_str(&text).ok())
        .collect()
}

/// What a JSON-LD document must spell somewhere to answer any question pith asks of it: a type
/// it looks for ([`ARTICLE_TYPES`], [`DISCUSSION_TYPES`], [`PRODUCT_TYPES`], whose names these
/// hold, and `FAQPage`), an offer (whose `itemOffered` may name by `@id` a product another
/// document declares), or the `articleBody` key.
const DECLARING_WORDS: &[&str] = &[
    "Article",
    "BlogPosting",
    "DiscussionForumPosting",
    "QAPage",
    "Product",
    "Offer",
    "FAQPage",
    "articleBody",
];

/// True when the raw JSON-LD `text` spells one of [`DECLARING_WORDS`]. Most of a page's
/// documents name only its breadcrumbs, its publisher or its search box, and parsing them was
/// most of what reading a page's declarations cost. (A document that spells its type with
/// `\u` escapes is passed over: the types are plain ASCII words, and no publisher escapes them.)
fn could_declare(text: &str) -> bool {
    DECLARING_WORDS.iter().any(|word| text.contains(word))
}

/// A script's text: borrowed from its one text node (the usual case), else joined.
fn script_text(dom: &Dom, id: NodeId) -> std::borrow::Cow<'_, str> {
    let mut children = dom.children(id);
    if let (Some(only), None) = (children.next(), children.next())
        && let Some(text) = dom.text(only)
    {
        return std::borrow::Cow::Borrowed(text);
    }
    std::borrow::Cow::Owned(dom.text_content(id))
}

/// The schema.org types the page declares for itself: the `@type` of each JSON-LD document
/// (or of each entry of its list or `@graph`) and of the `mainEntity` such a document names,
/// and the `itemtype` of microdata items that are not inside another item. Types nested deeper
/// (the comments of an article, the author of a post) describe parts of the page, not the page.
fn page_types(page: &Page, documents: &[serde_json::Value]) -> Vec<String> {
    let dom = &page.dom;
    let mut types = Vec::new();
    for_each_page_entry(documents, |entry| types.extend(entry_types(entry)));
    for id in top_level_items(page) {
        if let Some(itemtype) = dom.attr(id, "itemtype") {
            types.extend(item_types(itemtype).map(str::to_owned));
        }
    }
    types
}

/// Calls `visit` with each JSON-LD entry that describes the page: each document (or each entry
/// of its list or `@graph`) and the `mainEntity` such a document names (XenForo's `WebPage` of
/// a `DiscussionForumPosting`).
fn for_each_page_entry(documents: &[serde_json::Value], mut visit: impl FnMut(&serde_json::Value)) {
    for document in documents {
        let entries: Vec<&serde_json::Value> = match document {
            serde_json::Value::Array(list) => list.iter().collect(),
            other => vec![other],
        };
        for entry in entries {
            visit(entry);
            if let Some(serde_json::Value::Array(graph)) = entry.get("@graph") {
                graph.iter().for_each(&mut visit);
            }
            if let Some(main) = entry.get("mainEntity") {
                visit(main);
            }
        }
    }
}

/// The `@type` of a JSON-LD entry: one name or a list of them.
fn entry_types(entry: &serde_json::Value) -> Vec<String> {
    match entry.get("@type") {
        Some(serde_json::Value::String(t)) => vec![t.clone()],
        Some(serde_json::Value::Array(list)) => list
            .iter()
            .filter_map(|t| t.as_str().map(str::to_owned))
            .collect(),
        _ => Vec::new(),
    }
}

/// The microdata items that are not inside another item: those that describe the page.
fn top_level_items(page: &Page) -> impl Iterator<Item = NodeId> + '_ {
    let dom = &page.dom;
    page.declared.microdata.iter().copied().filter(move |&id| {
        !std::iter::successors(dom.parent(id), |&p| dom.parent(p))
            .any(|p| dom.attr(p, "itemscope").is_some())
    })
}

/// The type names of a microdata `itemtype` (`https://schema.org/Product` → `Product`).
fn item_types(itemtype: &str) -> impl Iterator<Item = &str> {
    itemtype
        .split_ascii_whitespace()
        .filter_map(|url| url.rsplit('/').next())
}

/// Schema.org types of a thing for sale.
const PRODUCT_TYPES: &[&str] = &["Product", "ProductGroup"];

/// True when the page's structured data declares a product that is offered for sale: a JSON-LD
/// `Product` with its `offers` (or a `ProductGroup` with its variants), or named by an `Offer`
/// of the page's own, or a microdata `Product` with an offer or a price inside. A `Product`
/// with only ratings is how a service page or a review asks a search engine for stars beside
/// its link; the page sells nothing, and its testimonials are its own text.
fn declares_product_for_sale(page: &Page, documents: &[serde_json::Value]) -> bool {
    // A product with its offers (or variants) in it, or an offer beside it in the page's entries
    // that names it (a `@graph` whose `Offer` names the product by `itemOffered`).
    let given = |value: Option<&serde_json::Value>| match value {
        None | Some(serde_json::Value::Null) => false,
        Some(serde_json::Value::Array(list)) => !list.is_empty(),
        Some(serde_json::Value::Object(map)) => !map.is_empty(),
        Some(serde_json::Value::String(text)) => !text.trim().is_empty(),
        Some(_) => true,
    };
    let is_product = |types: &[String]| types.iter().any(|t| PRODUCT_TYPES.contains(&t.as_str()));
    let id_of =
        |entry: &serde_json::Value| entry.get("@id").and_then(|v| v.as_str()).map(str::to_owned);
    let mut for_sale = false;
    // The ids of the page's products, and those its offers name.
    let (mut product_ids, mut offered_ids) = (Vec::new(), Vec::new());
    for_each_page_entry(documents, |entry| {
        let types = entry_types(entry);
        if is_product(&types) {
            for_sale |= given(entry.get("offers")) || given(entry.get("hasVariant"));
            product_ids.extend(id_of(entry));
        }
        if types.iter().any(|t| t.ends_with("Offer"))
            && let Some(item) = entry.get("itemOffered")
        {
            for_sale |= is_product(&entry_types(item));
            offered_ids.extend(id_of(item));
        }
    });
    if for_sale || offered_ids.iter().any(|id| product_ids.contains(id)) {
        return true;
    }
    let dom = &page.dom;
    top_level_items(page).any(|id| {
        dom.attr(id, "itemtype")
            .is_some_and(|t| item_types(t).any(|t| PRODUCT_TYPES.contains(&t)))
            && dom.descendants(id).any(|d| {
                dom.attr(d, "itemprop").is_some_and(|p| {
                    p.split_ascii_whitespace()
                        .any(|p| matches!(p, "offers" | "price"))
                }) || dom
                    .attr(d, "itemtype")
                    .is_some_and(|t| item_types(t).any(|t| t.ends_with("Offer")))
            })
    })
}

/// The page's Open Graph type (`<meta property="og:type">`), lower-cased, if it has one.
fn og_type(page: &Page) -> Option<String> {
    let dom = &page.dom;
    page.declared
        .og_type
        .and_then(|id| dom.attr(id, "content"))
        .map(|c| c.trim().to_ascii_lowercase())
}

/// True when the page calls itself an article: `<meta property="og:type" content="article">`
/// or an article type in its structured data (`documents`: its JSON-LD, see [`parse_json_ld`]).
pub(super) fn declares_article(page: &Page, documents: &[serde_json::Value]) -> bool {
    og_type(page).is_some_and(|t| t == "article") || is_article_type(&page_types(page, documents))
}

/// True when the page calls itself a product (`og:type` `product…`, or a `Product` for sale in
/// its structured data): a shop's page, whose boxes beside the description are its marketing.
pub(super) fn declares_product(page: &Page, documents: &[serde_json::Value]) -> bool {
    og_type(page).is_some_and(|t| t.starts_with("product"))
        || declares_product_for_sale(page, documents)
}

/// True when the page's structured data declares questions and answers (`FAQPage`): what a shop
/// or a service marks the FAQ at its foot as, for search engines.
pub(super) fn declares_faq(page: &Page, documents: &[serde_json::Value]) -> bool {
    page_types(page, documents).iter().any(|t| t == "FAQPage")
}

/// True when the page's structured data declares the page a discussion.
pub(super) fn declares_discussion(page: &Page, documents: &[serde_json::Value]) -> bool {
    page_types(page, documents)
        .iter()
        .any(|t| DISCUSSION_TYPES.contains(&t.as_str()))
}

/// True when `container`, the box an extraction chose, sits in a box named as a thread's view:
/// the words `thread` and `view` in a row in its class or id (XenForo 1's `thread_view` around
/// the posts, XenForo 2's `template-thread_view` on `<html>`, vBulletin's `ThreadView` around the
/// first post). Forum software names its thread pages so also where it declares no structured
/// data, or declares the thread an `Article`. `thread` alone says less: WordPress names a
/// comment `thread-even` and a post tagged so `tag-twitter-thread`, Disqus its comment box
/// `disqus_thread`.
pub(super) fn names_thread(dom: &Dom, container: NodeId) -> bool {
    std::iter::successors(Some(container), |&n| dom.parent(n)).any(|n| {
        ["class", "id"].iter().any(|attr| {
            let (mut thread, mut view) = (false, false);
            // Cheap first: the page's every ancestor of its container is asked, and few of their
            // names hold the word at all.
            if let Some(value) = dom.attr(n, attr).filter(|v| name_holds(v, b"thread")) {
                for_each_name_token(value, |word| {
                    view |= thread && word == "view";
                    thread = word == "thread";
                });
            }
            view
        })
    })
}

/// Most words a name may have to be a person's: longer, the field holds a team or a credit line.
const MAX_NAME_WORDS: usize = 5;

/// Titles before a name, dropped from it: "Dr. Jane Doe" is Jane Doe, and "Dr." opens other
/// lines than her biography.
const HONORIFICS: &[&str] = &[
    "dr", "mr", "mrs", "ms", "mx", "prof", "sir", "dame", "rev", "fr",
];

/// First words of bylines that name no person: a publisher, a desk, a team ("The Associated
/// Press", "A Staff Reporter", "Our Correspondent", "News Desk", "Guest Author").
const NOT_A_FIRST_NAME: &[&str] = &[
    "the",
    "a",
    "an",
    "our",
    "staff",
    "news",
    "editorial",
    "guest",
    "team",
    "web",
    "desk",
    "sponsored",
    "special",
    "press",
    "admin",
    "editor",
    "editors",
    "contributor",
    "contributing",
];

/// The names the page declares as its authors' and that read as a person's ([`as_person_name`]):
/// the `author` of each JSON-LD entry of an article type ([`ARTICLE_TYPES`]; a discussion's
/// author is its first poster, whose name opens replies) that describes the page: a name, a
/// `Person` with its `name`, a list of them, or a reference by `@id` to a `Person` the same
/// documents describe (a `Person` in a script of its own is not parsed: see
/// [`DECLARING_WORDS`]); and the page's `<meta name="author">`. A field naming
/// several people ("Jane Doe and John Smith", "Jane Doe, John Smith") gives each.
pub(super) fn author_names(page: &Page, documents: &[serde_json::Value]) -> Vec<String> {
    let mut raw: Vec<String> = Vec::new();
    // The graph's described things by `@id`, built when an author is only a reference.
    let mut named: Option<Vec<(&str, &serde_json::Value)>> = None;
    for_each_page_entry(documents, |entry| {
        let Some(author) = entry
            .get("author")
            .filter(|_| is_article_type(&entry_types(entry)))
        else {
            return;
        };
        let people: Vec<&serde_json::Value> = match author {
            serde_json::Value::Array(list) => list.iter().collect(),
            other => vec![other],
        };
        for person in people {
            let described = match person.get("@id").and_then(serde_json::Value::as_str) {
                Some(id) if person.get("name").is_none() => named
                    .get_or_insert_with(|| named_by_id(documents))
                    .iter()
                    .find(|(i, _)| *i == id)
                    .map(|(_, v)| *v),
                _ => Some(person),
            };
            match described {
                Some(serde_json::Value::String(name)) => raw.push(name.clone()),
                Some(thing @ serde_json::Value::Object(_)) if is_person(thing) => {
                    raw.extend(
                        thing
                            .get("name")
                            .and_then(serde_json::Value::as_str)
                            .map(str::to_owned),
                    );
                }
                _ => {}
            }
        }
    });
    raw.extend(
        page.declared
            .author_metas
            .iter()
            .filter_map(|&meta| page.dom.attr(meta, "content"))
            .map(str::to_owned),
    );
    let mut names: Vec<String> = raw
        .iter()
        .flat_map(|r| split_people(r))
        .filter_map(as_person_name)
        .collect();
    names.sort();
    names.dedup();
    names
}

/// Every object of `documents` with an `@id` and a `name`, by its id: what an entry's reference
/// (`"author": {"@id": …}`) names.
fn named_by_id(documents: &[serde_json::Value]) -> Vec<(&str, &serde_json::Value)> {
    let mut all = Vec::new();
    for document in documents {
        for_each_object(document, 0, &mut |map, value| {
            if let Some(id) = map.get("@id").and_then(serde_json::Value::as_str)
                && map.contains_key("name")
            {
                all.push((id, value));
            }
        });
    }
    all
}

/// True when one of `types` is an article's ([`ARTICLE_TYPES`]).
fn is_article_type(types: &[String]) -> bool {
    types.iter().any(|t| ARTICLE_TYPES.contains(&t.as_str()))
}

/// True for a JSON-LD object that is a `Person`, or says nothing of its type: an `Organization`
/// as author is a publisher, whose name opens its own sentences.
fn is_person(thing: &serde_json::Value) -> bool {
    let types = entry_types(thing);
    types.is_empty() || types.iter().any(|t| t == "Person")
}

/// The people an author field names: split at " and ", "&", "," and ";".
fn split_people(raw: &str) -> impl Iterator<Item = &str> {
    raw.split([',', ';', '&'])
        .flat_map(|part| part.split(" and "))
        .map(str::trim)
        .filter(|part| !part.is_empty())
}

/// `raw` as a person's name, if it reads as one: a credit's leading "By" (or "By:", "Written
/// by") and titles ([`HONORIFICS`]) dropped, two to [`MAX_NAME_WORDS`] words; the first at least
/// two letters, nothing but letters, hyphens and apostrophes ("Jean-Luc", "D'Arcy"), not written
/// in lower case, and no byline's word for a desk or a team ([`NOT_A_FIRST_NAME`]); no address
/// in any word. A single word is a handle or a brand as often as a first name, and "The" opens a
/// publisher's name.
fn as_person_name(raw: &str) -> Option<String> {
    let mut words: Vec<&str> = raw.split_whitespace().collect();
    let bare = |w: &str| w.trim_end_matches([':', '.', ',']).to_lowercase();
    if words.first().is_some_and(|w| bare(w) == "written") {
        words.remove(0);
    }
    if words.first().is_some_and(|w| bare(w) == "by") {
        words.remove(0);
    }
    while words
        .first()
        .is_some_and(|w| HONORIFICS.contains(&bare(w).as_str()))
    {
        words.remove(0);
    }
    let first = words.first()?;
    let letters = first.chars().filter(|c| c.is_alphabetic()).count();
    let reads_as_name = (2..=MAX_NAME_WORDS).contains(&words.len())
        && letters >= 2
        && first
            .chars()
            .all(|c| c.is_alphabetic() || matches!(c, '-' | '\'' | '\u{2019}'))
        && !first.starts_with(char::is_lowercase)
        && !NOT_A_FIRST_NAME.contains(&bare(first).as_str())
        && !words.iter().any(|w| w.contains('@') || w.contains("://"));
    reads_as_name.then(|| words.join(" "))
}

/// How deep JSON-LD is walked: documents nest `@graph` lists and entries in entries, never
/// deeply.
const MAX_JSON_DEPTH: u32 = 8;

/// Calls `visit` with every object in `value` (itself included), in document order, down to
/// [`MAX_JSON_DEPTH`] levels.
fn for_each_object<'a>(
    value: &'a serde_json::Value,
    depth: u32,
    visit: &mut impl FnMut(&'a serde_json::Map<String, serde_json::Value>, &'a serde_json::Value),
) {
    if depth > MAX_JSON_DEPTH {
        return;
    }
    match value {
        serde_json::Value::Object(map) => {
            visit(map, value);
            for child in map.values() {
                for_each_object(child, depth + 1, visit);
            }
        }
        serde_json::Value::Array(items) => {
            for child in items {
                for_each_object(child, depth + 1, visit);
            }
        }
        _ => {}
    }
}

/// How many of `text`'s words are in `body`, and how many words it has.
fn share_in_body(text: &str, body: &HashSet<String>, buffer: &mut String) -> (usize, usize) {
    let (mut inside, mut total) = (0, 0);
    for word in super::word_tokens(text) {
        total += 1;
        inside += usize::from(body.contains(super::lower_into(word, buffer)));
    }
    (inside, total)
}

/// True when the content `labels` hold at least [`AGREES`] of the body's distinct words.
pub(super) fn agrees(page: &Page, labels: &[Label], body: &DeclaredBody) -> bool {
    let body = &body.words;
    let mut found: HashSet<&str> = HashSet::new();
    let mut buffer = String::new();
    for (block, label) in page.blocks.iter().zip(labels) {
        if !label.is_content() {
            continue;
        }
        for word in super::word_tokens(&block.text) {
            if let Some(w) = body.get(super::lower_into(word, &mut buffer)) {
                found.insert(w.as_str());
            }
        }
    }
    found.len() as f32 >= AGREES * body.len() as f32
}

/// Fewest words a block needs to count as a line of the declared body: a one-word line (`Home`)
/// is in any body.
const MIN_BODY_BLOCK_WORDS: u32 = 3;

/// What the declared body says of one block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum BodyVerdict {
    /// A line of the declared body, inside its region.
    Body,
    /// A line of the declared body outside its region (a teaser of the same story).
    BodyElsewhere,
    /// Inside the region, an image.
    ImageInside,
    /// Not the declared body's text.
    Other,
}

/// The blocks that are the declared body: text blocks whose words are mostly the body's, inside
/// the deepest element holding most of them (so that a teaser of the same story elsewhere on the
/// page stays out). `None` when the page's blocks do not show most of the body (it is drawn by
/// script, or declared but not shown).
pub(super) fn body_blocks(
    page: &Page,
    stats: &Stats,
    body: &DeclaredBody,
) -> Option<(NodeId, Vec<BodyVerdict>)> {
    let dom = &page.dom;
    let mut buffer = String::new();
    let in_body: Vec<bool> = page
        .blocks
        .iter()
        .map(|b| {
            if b.kind == BlockKind::Image || b.words < MIN_BODY_BLOCK_WORDS {
                return false;
            }
            let (inside, total) = share_in_body(&b.text, &body.words, &mut buffer);
            inside as f32 >= BLOCK_IN_BODY * total as f32
        })
        .collect();
    let mut per_node = vec![0u32; dom.len()];
    let mut total = 0u32;
    for (block, &yes) in page.blocks.iter().zip(&in_body) {
        if !yes {
            continue;
        }
        total = total.saturating_add(block.words);
        let mut at = Some(block.node);
        while let Some(n) = at {
            if let Some(slot) = per_node.get_mut(n as usize) {
                *slot = slot.saturating_add(block.words);
            }
            at = dom.parent(n);
        }
    }
    // The page must show most of the declared body.
    if (total as usize) * 2 < body.tokens {
        return None;
    }
    let region = super::deepest_holding(dom, &per_node, (total / 5 * 4).max(1));
    if !dom.is_element(region) || dom.is_html(region, &local_name!("html")) {
        return None;
    }
    let span = stats.get(region);
    let verdicts = page
        .blocks
        .iter()
        .zip(&in_body)
        .map(|(block, &yes)| {
            let pre = stats.get(block.node).pre;
            let inside = span.pre <= pre && pre < span.end;
            match (yes, inside) {
                (true, true) => BodyVerdict::Body,
                (true, false) => BodyVerdict::BodyElsewhere,
                (false, true) if block.kind == BlockKind::Image => BodyVerdict::ImageInside,
                _ => BodyVerdict::Other,
            }
        })
        .collect();
    Some((region, verdicts))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every type the declarations are read for is spelled by a word the pre-filter looks for:
    /// a type added to a list without its word would be passed over unparsed.
    #[test]
    fn every_type_looked_for_passes_the_filter() {
        for name in ARTICLE_TYPES
            .iter()
            .chain(DISCUSSION_TYPES)
            .chain(PRODUCT_TYPES)
            .chain(["articleBody"].iter())
        {
            assert!(
                could_declare(&format!("{{\"@type\":\"{name}\"}}")),
                "{name}"
            );
        }
    }

    /// Documents that name only a page's breadcrumbs or publisher are not parsed; one that
    /// declares an article among them is, and answers.
    #[test]
    fn only_documents_that_could_declare_are_parsed() {
        let html = r#"<html><head>
            <script type="application/ld+json">{"@type":"BreadcrumbList","itemListElement":[]}</script>
            <script type="application/ld+json">{"@type":"Organization","name":"Daily"}</script>
            <script type="application/ld+json">{"@type":"NewsArticle","headline":"Storm"}</script>
            </head><body><p>Text.</p></body></html>"#;
        let page = crate::page::page_from_html(html, None);
        let documents = parse_json_ld(&page);
        assert_eq!(documents.len(), 1, "{documents:?}");
        assert!(declares_article(&page, &documents));
        assert!(!declares_discussion(&page, &documents));
    }

    /// A product declared in one document and offered by `@id` in another is for sale: the
    /// offer's document spells no product type, and is parsed all the same.
    #[test]
    fn an_offer_naming_a_product_of_another_document_is_read() {
        let html = r##"<html><head>
            <script type="application/ld+json">{"@type":"Product","@id":"#p","name":"Kettle"}</script>
            <script type="application/ld+json">{"@type":"Offer","itemOffered":{"@id":"#p"},"price":"30"}</script>
            </head><body><p>Text.</p></body></html>"##;
        let page = crate::page::page_from_html(html, None);
        let documents = parse_json_ld(&page);
        assert_eq!(documents.len(), 2, "{documents:?}");
        assert!(declares_product(&page, &documents));
    }
    /// An article's author is read as JSON-LD writes it (a `Person`, a list of them, a
    /// reference by `@id` into the graph) and from the head's `<meta name="author">`; a
    /// publisher, a handle or a credit line is no person's name.
    #[test]
    fn the_authors_a_page_declares_are_read_as_names() {
        let names = |head: &str| {
            let html = format!("<html><head>{head}</head><body><p>Text.</p></body></html>");
            let page = crate::page::page_from_html(&html, None);
            author_names(&page, &parse_json_ld(&page))
        };
        let ld = |json: &str| format!(r#"<script type="application/ld+json">{json}</script>"#);
        assert_eq!(
            names(&ld(
                r#"{"@type":"NewsArticle","author":{"@type":"Person","name":"Jane Doe"}}"#
            )),
            ["Jane Doe"]
        );
        assert_eq!(
            names(&ld(
                r#"{"@type":"BlogPosting","author":[{"name":"Ann Lee"},"By Bo Chen","The Associated Press","Reuters"]}"#
            )),
            ["Ann Lee", "Bo Chen"]
        );
        assert_eq!(
            names(&ld(
                r##"{"@graph":[{"@type":"Article","author":{"@id":"#ann"}},{"@type":"Person","@id":"#ann","name":"Ann Lee"}]}"##
            )),
            ["Ann Lee"]
        );
        assert_eq!(
            names(r#"<meta name="Author" content="Jean-Luc Aufranc (CNXSoft)">"#),
            ["Jean-Luc Aufranc (CNXSoft)"]
        );
        assert!(names(r#"<meta name="author" content="Jane Doe jane@example.com">"#).is_empty());
        assert!(
            names(&ld(
                r#"{"@type":"Organization","author":{"name":"Jane Doe"}}"#
            ))
            .is_empty(),
            "a document that declares no article is not read"
        );
        assert!(
            names(&ld(
                r#"{"@type":"DiscussionForumPosting","author":{"name":"Jane Doe"},"comment":{"@type":"Article"}}"#
            ))
            .is_empty(),
            "a discussion's author is its first poster"
        );
        assert!(
            names(&ld(
                r##"{"@graph":[{"@type":"Article","author":[{"@id":"#org"},{"@type":"Organization","name":"Daily News"}]},{"@type":"Organization","@id":"#org","name":"Daily Mail"}]}"##
            ))
            .is_empty(),
            "a publisher as author"
        );
        assert_eq!(
            names(&ld(
                r#"{"@type":"NewsArticle","author":"Dr. Jane Doe and John Smith, Mary-Kay O'Neil"}"#
            )),
            ["Jane Doe", "John Smith", "Mary-Kay O'Neil"]
        );
        for byline in [
            "A Staff Reporter",
            "Our Correspondent",
            "News Desk",
            "staff writer",
            "J. Doe",
        ] {
            assert!(
                names(&format!(r#"<meta name="author" content="{byline}">"#)).is_empty(),
                "{byline}"
            );
        }
        assert_eq!(
            names(r#"<meta name="author" content="By: Bo Chen">"#),
            ["Bo Chen"]
        );
    }
}
