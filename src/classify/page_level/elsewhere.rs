//! Lists in an article that lead to other sites: a release note's pull requests, a guide's
//! resources, a gear list's shops, the newsletters a writer recommends. Cleaning drops link-dense
//! lists and link lines from an article's box because beside an article they are menus and related
//! stories; those lead around the site itself. A list whose every entry links out, mostly to
//! sites of other owners, and says something in each entry is a part of the text that cites
//! elsewhere, as a sentence citing one link is. So is a list whose links lead to documents (an
//! agency's fliers and forms, a report's annexes): what the page offers to read, not pages
//! around it.

use html5ever::local_name;
use rustc_hash::FxHashMap;

use super::stats::Stats;
use crate::dom::{Dom, NodeId};
use crate::page::Page;
use crate::urlkey;

/// Words per entry, on average, from which a list's entries say something of their own: share
/// buttons and a footer's app-store badges name a site or a network in a word or two.
const ENTRY_WORDS: u32 = 3;

/// The share of a list's links that must lead to another owner's site, in thirds.
const ELSEWHERE_THIRDS: u32 = 2;

/// How many levels above a line's node its list item is looked for: the line is the item
/// itself or a paragraph in it. A line deeper inside an entry is some part of it (a gallery's
/// photo credit in a figure's caption, linking to the photographer's site) more often than the
/// entry's citation.
const ITEM_DEPTH: usize = 1;

/// File extensions of documents a page offers to read or download (lower-case, with the dot).
const DOCUMENT_EXTENSIONS: &[&str] = &[
    ".pdf", ".doc", ".docx", ".odt", ".rtf", ".epub", ".xls", ".xlsx", ".ods", ".csv", ".ppt",
    ".pptx", ".odp",
];

/// Most links of a box of links to documents: a box of more is a site's index, and is not
/// read further.
const MAX_DOCUMENT_LINKS: u32 = 64;

/// Most nodes of a box that [`leads_to_documents`] walks: a box of links to documents holds a
/// few per link, and a hostile page's nested boxes, each asked, cost no more than this each.
const MAX_DOCUMENT_NODES: usize = 512;

/// True when `id` is a box of links to documents ([`leads_to_documents`]), or a line of a list
/// of them: a list item, or a node up to [`ITEM_DEPTH`] levels inside one, whose list does. The
/// cleaning asks of a list and then of each of its items, whose one link each says too little
/// alone; each box's answer is kept.
pub(super) fn in_list_leading_to_documents(
    page: &Page,
    cache: &mut ElsewhereCache,
    id: NodeId,
) -> bool {
    let dom = &page.dom;
    let asked = list_of(dom, id).unwrap_or(id);
    if let Some(&known) = cache.documents.get(&asked) {
        return known;
    }
    let answer = leads_to_documents(dom, asked);
    cache.documents.insert(asked, answer);
    answer
}

/// True when at least two links inside `id`, and two in three of its links, lead to documents
/// (a path, or a query's last value, ending in one of [`DOCUMENT_EXTENSIONS`]): an agency's
/// fliers and forms, a report's annexes, a course's syllabus and handbook. Such links are what
/// the page offers to read, not a menu's or related stories' pages. A box of more than
/// [`MAX_DOCUMENT_LINKS`] links, or [`MAX_DOCUMENT_NODES`] nodes, is none.
fn leads_to_documents(dom: &Dom, id: NodeId) -> bool {
    let (mut links, mut documents) = (0u32, 0u32);
    for (walked, node) in dom.descendants(id).enumerate() {
        if walked >= MAX_DOCUMENT_NODES {
            return false;
        }
        if !dom.is_hyperlink(node) {
            continue;
        }
        links += 1;
        if links > MAX_DOCUMENT_LINKS {
            return false;
        }
        if dom.attr(node, "href").is_some_and(names_a_document) {
            documents += 1;
        }
    }
    documents >= 2 && documents * 3 >= links * 2
}

/// True when `href` leads to a document: its path ends in a document's extension, or its query
/// does (`huddoc?id=DOC_35701.pdf`, a download script's file name).
fn names_a_document(href: &str) -> bool {
    let href = href.trim();
    let href = href.split('#').next().unwrap_or(href);
    let path = href.split('?').next().unwrap_or(href);
    let ends_in_extension = |s: &str| {
        DOCUMENT_EXTENSIONS.iter().any(|ext| {
            s.len() >= ext.len()
                && s.is_char_boundary(s.len() - ext.len())
                && s[s.len() - ext.len()..].eq_ignore_ascii_case(ext)
        })
    };
    ends_in_extension(path) || ends_in_extension(href)
}

/// What one page's questions about lists leading elsewhere keep, each answered once: where the
/// page stands, and each list's answer. Kept per page in [`super::select::NodeFacts`].
#[derive(Default)]
pub(super) struct ElsewhereCache {
    /// Where the page stands and its site's owner, once asked; `None` inside when the page says
    /// nowhere where it stands.
    place: Option<Option<(url::Url, String)>>,
    /// Per list element, whether it leads elsewhere.
    lists: FxHashMap<NodeId, bool>,
    /// Per box asked (a list for its items), whether it leads to documents.
    documents: FxHashMap<NodeId, bool>,
}

impl ElsewhereCache {
    /// Where the page stands and its site's owner, read the first time it is asked.
    fn place(&mut self, page: &Page) -> Option<&(url::Url, String)> {
        self.place
            .get_or_insert_with(|| {
                let url = unarchived(page.own_url()?);
                let owner = urlkey::owner(url.host_str()?);
                Some((url, owner))
            })
            .as_ref()
    }
}

/// True when the links inside `id` lead mostly to sites of other owners than the page's (see
/// [`links_lead_elsewhere`]): a reading list's entries, which cite elsewhere, rather than
/// related stories, which lead around the site itself. A page that says nowhere where it
/// stands leads nowhere.
pub(super) fn box_leads_elsewhere(page: &Page, cache: &mut ElsewhereCache, id: NodeId) -> bool {
    cache
        .place(page)
        .is_some_and(|(url, owner)| links_lead_elsewhere(page, id, url, owner))
}

/// True when `id` is a list, or a list item's line (the item, or a node up to
/// [`ITEM_DEPTH`] levels inside one), whose list leads elsewhere ([`leads_elsewhere`]).
pub(super) fn in_list_leading_elsewhere(
    page: &Page,
    stats: &Stats,
    cache: &mut ElsewhereCache,
    id: NodeId,
) -> bool {
    list_of(&page.dom, id).is_some_and(|list| leads_elsewhere(page, stats, cache, list))
}

/// The list `id` is, or whose line it is: the list around a list item, or around a node up to
/// [`ITEM_DEPTH`] levels inside one.
fn list_of(dom: &Dom, id: NodeId) -> Option<NodeId> {
    if is_list(dom, id) {
        return Some(id);
    }
    std::iter::once(id)
        .chain(dom.ancestors(id))
        .take(ITEM_DEPTH + 1)
        .find(|&n| dom.is_html(n, &local_name!("li")))
        .and_then(|item| dom.parent(item))
        .filter(|&parent| is_list(dom, parent))
}

/// True when `list` (a `<ul>` or `<ol>`) leads elsewhere: every item holds a link, the items
/// hold [`ENTRY_WORDS`] words each on average, and of its links at least
/// [`ELSEWHERE_THIRDS`] in three lead to a site of another owner than the page's. A page that
/// says nowhere where it stands (no base URL, no canonical URL) leads nowhere.
fn leads_elsewhere(page: &Page, stats: &Stats, cache: &mut ElsewhereCache, list: NodeId) -> bool {
    if let Some(&known) = cache.lists.get(&list) {
        return known;
    }
    // Where the page stands is read only for a list whose entries could cite elsewhere.
    let answer =
        is_list_of_linked_entries(page, stats, list) && box_leads_elsewhere(page, cache, list);
    cache.lists.insert(list, answer);
    answer
}

/// True when every item of `list` holds a link, the items hold [`ENTRY_WORDS`] words each on
/// average, and none is an author or date line.
fn is_list_of_linked_entries(page: &Page, stats: &Stats, list: NodeId) -> bool {
    let dom = &page.dom;
    let a = stats.get(list);
    if a.list_items == 0 || a.words < ENTRY_WORDS * a.list_items || a.bylines > 0 {
        return false;
    }
    let mut items = dom
        .children(list)
        .filter(|&c| dom.is_html(c, &local_name!("li")))
        .peekable();
    items.peek().is_some() && items.all(|item| dom.descendants(item).any(|n| dom.is_hyperlink(n)))
}

/// True when at least [`ELSEWHERE_THIRDS`] in three of the links in `list` (a list, or any
/// box) lead to a site of another owner than `own`'s, the page standing at `url`.
fn links_lead_elsewhere(page: &Page, list: NodeId, url: &url::Url, own: &str) -> bool {
    let dom = &page.dom;
    let hrefs: Vec<&str> = dom
        .descendants(list)
        .filter(|&n| dom.is_hyperlink(n))
        .filter_map(|n| dom.attr(n, "href"))
        .map(str::trim)
        .collect();
    // Decided as soon as the links left cannot change the answer: a menu's or related stories'
    // links, on the site itself, settle it in their first third.
    let needed = (hrefs.len() as u32 * ELSEWHERE_THIRDS).div_ceil(3).max(1);
    let mut elsewhere = 0u32;
    for (seen, href) in hrefs.iter().enumerate() {
        let left = (hrefs.len() - seen) as u32;
        if elsewhere + left < needed {
            return false;
        }
        elsewhere += u32::from(leads_to_another_owner(href, url, own));
        if elsewhere >= needed {
            return true;
        }
    }
    false
}

/// True when `href`, on a page standing at `url` on a site `own` owns, leads to a web page of
/// another owner. A relative link stays on the page's own site and is not parsed: most links of a
/// site's own menus are written so. Not relative: a link with a scheme, one naming a host
/// (`//host`, which the URL parser also reads in `\\host` and `/\host`), and a Wayback copy's
/// link written from its root (`/web/20131206074843/http://other.org/`).
fn leads_to_another_owner(href: &str, url: &url::Url, own: &str) -> bool {
    let has_scheme = href.split_once(':').is_some_and(|(scheme, _)| {
        scheme.starts_with(|c: char| c.is_ascii_alphabetic())
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    });
    // `href[1..]` only after an ASCII first byte: always a character boundary.
    let names_host = href.starts_with(['/', '\\']) && href[1..].starts_with(['/', '\\']);
    if !has_scheme && !names_host && !href.starts_with("/web/") {
        return false;
    }
    crate::safety::fetchable_url(href, Some(url))
        .map(unarchived)
        .and_then(|t| t.host_str().map(urlkey::owner))
        .is_some_and(|owner| owner != own)
}

/// Where a link leads: for a copy the Wayback Machine saved, whose links it rewrote to its own
/// copies (`https://web.archive.org/web/20131206074843/http://nymag.com/author/…`), the address
/// the link had on the page; any other link as it is.
fn unarchived(target: url::Url) -> url::Url {
    let archived = target
        .host_str()
        .is_some_and(|h| h == "archive.org" || h.ends_with(".archive.org"));
    if !archived {
        return target;
    }
    let mut segments = target.path().splitn(4, '/').skip(1);
    let (Some("web"), Some(stamp), Some(rest)) =
        (segments.next(), segments.next(), segments.next())
    else {
        return target;
    };
    if !stamp.starts_with(|c: char| c.is_ascii_digit()) {
        return target;
    }
    let original = match target.query() {
        Some(query) => format!("{rest}?{query}"),
        None => rest.to_owned(),
    };
    url::Url::parse(&original).unwrap_or(target)
}

/// A `<ul>` or an `<ol>`.
fn is_list(dom: &Dom, node: NodeId) -> bool {
    dom.is_html(node, &local_name!("ul")) || dom.is_html(node, &local_name!("ol"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unarchived_str(url: &str) -> String {
        unarchived(url::Url::parse(url).unwrap()).into()
    }

    #[test]
    fn links_leading_to_another_owner() {
        let url = url::Url::parse("https://www.example.com/news/story").unwrap();
        let own = urlkey::owner("www.example.com");
        let leads = |href: &str| leads_to_another_owner(href, &url, &own);
        for elsewhere in [
            "https://github.com/org/app/pull/1",
            "HTTP://GitHub.com/org",
            "//cdn.other.org/file",
            " https://other.org/padded ",
            "\\\\other.org/backslashed",
        ] {
            assert!(leads(elsewhere.trim()), "{elsewhere}");
        }
        for here in [
            "/news/other-story",
            "other-story",
            "?page=2",
            "#comments",
            "https://blog.example.com/post",
            "https://www.example.co.uk/uk-edition",
            "mailto:desk@other.org",
            "javascript:void(0)",
            "tel:+15550100",
            "",
        ] {
            assert!(!leads(here), "{here}");
        }
        // On a Wayback copy standing at its original address, a link written from the
        // archive's root leads where it led.
        let archived_at = unarchived(
            url::Url::parse("https://web.archive.org/web/2013/http://www.example.com/story")
                .unwrap(),
        );
        assert_eq!(archived_at.host_str(), Some("www.example.com"));
        let copy = url::Url::parse("https://web.archive.org/web/2013/http://www.example.com/story")
            .unwrap();
        assert!(leads_to_another_owner(
            "/web/2013/http://other.org/page",
            &copy,
            &own
        ));
        assert!(!leads_to_another_owner(
            "/web/2013/http://www.example.com/page",
            &copy,
            &own
        ));
    }

    #[test]
    fn an_archived_copys_links_lead_where_they_led_on_the_page() {
        assert_eq!(
            unarchived_str(
                "https://web.archive.org/web/20131206074843/http://nymag.com/author/joe%20c?p=1"
            ),
            "http://nymag.com/author/joe%20c?p=1"
        );
        assert_eq!(
            unarchived_str(
                "https://web-beta.archive.org/web/20090923020729im_/http://fox.com/a.jpg"
            ),
            "http://fox.com/a.jpg"
        );
        // The archive's own pages, and other sites' `/web/` paths, are what they are.
        for url in [
            "https://web.archive.org/about/",
            "https://web.archive.org/web/*/example.com",
            "https://example.com/web/2013/http://other.org/",
            "https://archive.org.example.net/web/2013/http://other.org/",
        ] {
            assert_eq!(unarchived_str(url), url);
        }
    }
}
