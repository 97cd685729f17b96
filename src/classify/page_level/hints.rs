//! What an element's name, `class`, `id`, `role` and `itemprop` say about it: authors name their
//! containers after what they hold (`article-body`, `comments`, `share-bar`), and that is the
//! cheapest strong evidence an extractor gets.

use html5ever::local_name;

use crate::dom::{Dom, NodeId, for_each_name_token, is_heading, name_holds, name_holds_any};

/// The weight one attribute (`class` or `id`) adds when it says "article text" or takes away when
/// it says "not article text"; the same scale as the paragraph scores it competes with.
const ATTR_WEIGHT: f32 = 25.0;

/// An element's hint: a weight for container scoring and, when negative, the word that made it so
/// (for reasons such as `removed: class 'share'`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(super) struct Hint {
    /// Added to the element's candidate score.
    pub weight: f32,
    /// The negative word found in `class`/`id`, when one was.
    pub negative: Option<&'static str>,
    /// A positive word or attribute was found (`article`, `itemprop=articleBody`, `<main>`…).
    pub positive: bool,
    /// A structural mark of the article itself was found (`itemprop=articleBody`, `role=main`,
    /// `<article>`, `<main>`): stronger than any class name.
    pub structural: bool,
}

impl Hint {
    /// True when the element's own names say it is not the article (and nothing says it is).
    pub fn is_negative(&self) -> bool {
        self.weight < 0.0 && self.negative.is_some()
    }

    /// True when the element's negative word names a prompt drawn over or after the page (see
    /// [`PROMPT_WORDS`]).
    pub fn names_a_prompt(&self) -> bool {
        self.negative
            .is_some_and(|word| PROMPT_WORDS.contains(&word))
    }

    /// True when a negative word names the element, even beside a positive one: inside an
    /// article, `comment-body` and `post-share` are the comment and the share bar, the generic
    /// positive word (`body`, `post`) only says where they sit.
    pub fn names_negative(&self) -> bool {
        self.negative.is_some() && !self.structural
    }

    /// True when the element names itself after what stands around an article (any negative
    /// word but [`NOT_AROUND_WORDS`]): a share bar, a related-stories box, a modal.
    pub fn names_surroundings(&self) -> bool {
        self.names_negative()
            && self
                .negative
                .is_some_and(|word| !NOT_AROUND_WORDS.contains(&word))
    }
}

/// Words in `class`/`id` that mark article text. Matched inside tokens (`storytext`, `postbody`).
const POSITIVE_STEMS: &[&str] = &[
    "article", "content", "story", "body", "entry", "main", "text", "blog", "post",
];

/// Words in `class`/`id` that mark everything around an article. Matched inside tokens, so each is
/// long or distinctive enough not to hide inside an unrelated word.
const NEGATIVE_STEMS: &[&str] = &[
    "comment",
    "sidebar",
    "related",
    "share",
    "sharing",
    "social",
    "promo",
    "footer",
    "widget",
    "breadcrumb",
    "newsletter",
    "subscribe",
    "subscription",
    "popup",
    "modal",
    "cookie",
    "consent",
    "onetrust",
    "gdpr",
    "sponsor",
    "banner",
    "outbrain",
    "taboola",
    "disqus",
    "recommend",
    "toolbar",
    "masthead",
    "pagination",
    "pager",
    "signup",
    "menu",
    "navbar",
    "navigation",
    "advert",
    "adsense",
    "skyscraper",
    "shoutbox",
    "trending",
    "mostread",
    "popular",
    "byline",
    "carousel",
    "slideshow",
    // A forum post's signature and its author's pane (join date, post count) beside the post.
    "signature",
    "userinfo",
    "postprofile",
    // Legal fine print: on a shop's or a fund's page often the longest box of prose in one
    // place, and never the page's text.
    "disclaimer",
    "disclosure",
];

/// Negative words that do not name what stands around an article: every other negative word
/// does (sharing buttons, related stories, navigation, modals, footers, sidebars, sponsors, a
/// poster's signature, pagination), and inside a region kept recall first a box so named is set
/// apart ([`Hint::names_surroundings`]). These are left out, each for a reason:
/// - they also name a page's own parts: `widget`, `carousel`, `slideshow`, `gallery`, `menu` (a
///   restaurant's), `promo`, `banner` (a page's hero), `masthead`, `byline`, `bio`, `print`,
///   `meta`, `tags`, `extra`;
/// - legal fine print (`disclaimer`, `disclosure`) is in some golds of a product's page;
/// - comments (`comment`, `disqus`, `shoutbox`): a thread's posts are its text, and comment
///   sections are set apart by their own test;
/// - a consent manager's words make its box furniture already; `cookie` is also a recipe;
/// - `skyscraper` (an ad slot) holds no text a region would keep;
/// - `role`, the mark of a landmark role (`navigation`, `banner`, `complementary`…), is read by
///   the furniture test itself.
const NOT_AROUND_WORDS: &[&str] = &[
    "widget",
    "carousel",
    "slideshow",
    "gallery",
    "menu",
    "promo",
    "banner",
    "masthead",
    "byline",
    "bio",
    "print",
    "meta",
    "tags",
    "tag",
    "extra",
    "extras",
    "disclaimer",
    "disclosure",
    "comment",
    "disqus",
    "shoutbox",
    "cookie",
    "consent",
    "onetrust",
    "gdpr",
    "skyscraper",
    "role",
];

/// Negative words that name a prompt a page draws over or after itself, asking something of the
/// reader (to subscribe, to sign up, to dismiss a modal): never the page's text, and unlike
/// navigation or a sidebar, never a box the page's content is wrongly named after (`skip-nav`
/// names the target of a skip link, the content itself).
const PROMPT_WORDS: &[&str] = &[
    "modal",
    "popup",
    "newsletter",
    "subscribe",
    "subscription",
    "signup",
];

/// Negative words that name an offer to subscribe or sign up (a newsletter's box, a paywall's
/// prompt): such a box asks something of the reader and holds none of the page's prose. Prompt
/// words all (see [`PROMPT_WORDS`]); `modal` and `popup` are not among them, as a page builder's
/// popups may hold the page's own details.
const OFFER_WORDS: &[&str] = &["newsletter", "subscribe", "subscription", "signup"];

/// True when the element is named as an offer to subscribe or sign up: its `id` or `class` holds
/// one of [`OFFER_WORDS`] (any of its names: a paywall's prompt is often named `modal` first and
/// `subscription-offer` after), its names say it is not the article (`hint`, so that a section's
/// id made from its heading, `<section id=newsletter>` headed "Newsletter", is a subject), and no
/// positive word names it too: `subscriber-content` and a newsletter's `newsletter-body` are the
/// text a reader subscribed to.
pub(super) fn names_an_offer(dom: &Dom, id: NodeId, hint: &Hint) -> bool {
    hint.negative.is_some() && !hint.positive && names_any(dom, id, OFFER_WORDS)
}

/// Negative words that name a consent manager's box (cookie notices, GDPR bars): text about the
/// site, never the page's. `cookie` is not one: it is also a recipe.
const CONSENT_WORDS: &[&str] = &["consent", "onetrust", "gdpr"];

/// True when the element's `id` or `class` names a consent manager's box (see
/// [`CONSENT_WORDS`], matched inside names, in any case): the one test that scoring and
/// widening both use.
pub(super) fn names_consent(dom: &Dom, id: NodeId) -> bool {
    names_any(dom, id, CONSENT_WORDS)
}

/// [`names_consent`] of one `id` or `class` value.
pub(super) fn value_names_consent(value: &str) -> bool {
    name_holds_any(value, CONSENT_WORDS)
}

/// True when the element's `id` or `class` holds one of `words` (lower-case ASCII) inside a
/// name, in any case. Each attribute is looked up once and searched in place: the furniture
/// test asks this of most boxes of a page, several times.
fn names_any(dom: &Dom, id: NodeId, words: &[&str]) -> bool {
    ["id", "class"]
        .iter()
        .filter_map(|name| dom.attr(id, name))
        .any(|value| name_holds_any(value, words))
}
/// True when `node` or one of its ancestors below `<body>` has an `id` or `class` that holds
/// `word` (lower-case ASCII, matched inside names in any case: `individual-review`,
/// `okeReviews`). `memo` holds one entry per node (0 unknown, 1 no, 2 yes), so that a page's
/// blocks ask each ancestor once.
pub(super) fn in_named_box(dom: &Dom, memo: &mut [u8], node: NodeId, word: &str) -> bool {
    let mut path = Vec::new();
    let mut answer = false;
    let mut at = Some(node);
    while let Some(n) = at {
        match memo.get(n as usize) {
            Some(0) => {}
            Some(&known) => {
                answer = known == 2;
                break;
            }
            None => break,
        }
        if dom.is_html(n, &local_name!("body")) || !dom.is_element(n) && n != node {
            break;
        }
        path.push(n);
        if dom.is_element(n) && names_any(dom, n, &[word]) {
            answer = true;
            break;
        }
        at = dom.parent(n);
    }
    for n in path {
        if let Some(slot) = memo.get_mut(n as usize) {
            *slot = if answer { 2 } else { 1 };
        }
    }
    answer
}

/// Negative words that name a box's part in a template loosely (`hs_cos_wrapper_meta_field`
/// holds a whole article body): they remove a box of short lines, not one holding paragraphs.
pub(super) const LOOSE_WORDS: &[&str] = &["meta", "extra", "extras", "tags", "tag"];

/// Negative words that only count as a whole token (or a token's prefix, for `nav`): short
/// enough to sit inside other words (`ad` in `head`, `meta` in `metallica`). `gallery` is a
/// slideshow's box (its captions repeat per photo), `print` a box shown only on paper (a print
/// header, a print-only notice), `bio` an author's biography under the article.
const NEGATIVE_TOKENS: &[&str] = &[
    "ad", "ads", "nav", "meta", "tags", "tag", "extra", "extras", "gallery", "print", "bio",
];

/// The ASCII lower-case letters of `word` as bits (`a` = bit 0). A token can only contain a stem
/// whose letters it all has, so one AND rules out most stems before any substring search: the
/// search over every stem for every class and id token was the extractor's largest cost.
const fn letters(word: &str) -> u32 {
    let bytes = word.as_bytes();
    let mut mask = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_lowercase() {
            mask |= 1 << (bytes[i] - b'a');
        }
        i += 1;
    }
    mask
}

/// [`letters`] of each word.
const fn letter_masks<const N: usize>(words: &[&str]) -> [u32; N] {
    let mut masks = [0; N];
    let mut i = 0;
    while i < N {
        masks[i] = letters(words[i]);
        i += 1;
    }
    masks
}

const POSITIVE_MASKS: [u32; POSITIVE_STEMS.len()] = letter_masks(POSITIVE_STEMS);
const NEGATIVE_MASKS: [u32; NEGATIVE_STEMS.len()] = letter_masks(NEGATIVE_STEMS);

/// The first of `stems` (in list order) that `token` contains; `masks` are their [`letters`],
/// `have` the token's.
fn first_stem_in(
    token: &str,
    have: u32,
    stems: &[&'static str],
    masks: &[u32],
) -> Option<&'static str> {
    stems
        .iter()
        .zip(masks)
        .find(|&(stem, &need)| need & !have == 0 && token.contains(stem))
        .map(|(stem, _)| *stem)
}

/// What one attribute value says: (positive word found, negative word found).
/// Negative words in `skip` are passed over: the next one the value holds counts instead
/// (`elementor-widget-share-buttons` is a share bar on a page whose every box is a widget).
/// A name that says what the box holds (see [`names_what_it_holds`]) says nothing of either.
fn attr_words(value: &str, skip: &[&'static str]) -> (bool, Option<&'static str>) {
    let mut positive = false;
    let mut negative = None;
    let mut read = |name: &str| {
        for_each_name_token(name, |t| {
            let have = letters(t);
            if negative.is_none() {
                negative = first_stem_in(t, have, NEGATIVE_STEMS, &NEGATIVE_MASKS)
                    .or_else(|| {
                        NEGATIVE_TOKENS
                            .iter()
                            .find(|s| t == **s || (**s == "nav" && t.starts_with("nav")))
                            .copied()
                    })
                    .filter(|word| !skip.contains(word));
            }
            if !positive {
                // `tbody`-like tokens are no evidence; `body` is when it stands for the article's.
                positive = first_stem_in(t, have, POSITIVE_STEMS, &POSITIVE_MASKS).is_some()
                    && t != "tbody";
            }
        })
    };
    // Most values hold no name of what a box holds, and are read whole in one pass.
    if value.split_ascii_whitespace().any(names_what_it_holds) {
        value
            .split_ascii_whitespace()
            .filter(|name| !names_what_it_holds(name))
            .for_each(read);
    } else {
        read(value);
    }
    (positive, negative)
}

/// True when a class name says what its box holds rather than what it is: `has-side-banner`
/// is a row with a banner beside its product list, `has-sidebar` (or `hasSidebar`) a layout
/// with a sidebar, WordPress's `has-post-thumbnail` a post with a picture, Gutenberg's
/// `has-text-color` a block with a colour of its own. The box is none of these, and the words
/// are no hint of what it is, for or against. (`HASHTAG-share` is a share bar: a name in capitals
/// is read whole.)
fn names_what_it_holds(name: &str) -> bool {
    let bytes = name.as_bytes();
    bytes.len() > 4
        && matches!(bytes[0], b'h' | b'H')
        && &bytes[1..3] == b"as"
        && (matches!(bytes[3], b'-' | b'_') || bytes[3].is_ascii_uppercase())
}

/// The negative word a page builder also gives every module it lays out (Elementor's
/// `elementor-widget`, HubSpot's `hs_cos_wrapper_widget`, Amazon's `celwidget`): on a page
/// whose template names its boxes so by the dozen, the word says nothing about any one of them.
const MODULE_WORD: &str = "widget";

/// Elements of one page whose `class` [`MODULE_WORD`] must name to be the template's name for
/// every box rather than the mark of a few boxes beside the article. Nested elements count
/// each (a builder's module and its inner container are two; so are a sidebar widget and its
/// title): a classic sidebar's widgets stay well under it, a page builder's page holds forty
/// and more (its columns, modules and their containers).
const MODULE_WORD_ELEMENTS: u32 = 40;

/// [`attr_words`] of the `class` and `id` values of one page, each distinct value worked out
/// once: a page repeats the same few class names on hundreds of elements.
#[derive(Debug)]
pub(super) struct AttrWords<'a> {
    /// The page's DOM, whose classes [`AttrWords::names_every_module`] counts.
    dom: &'a Dom,
    seen: rustc_hash::FxHashMap<&'a str, (bool, Option<&'static str>)>,
    /// [`attr_words`] of the values whose first negative word is [`MODULE_WORD`] on a page
    /// that gives it every box, with that word passed over.
    beyond: rustc_hash::FxHashMap<&'a str, (bool, Option<&'static str>)>,
    /// Whether this page's template gives [`MODULE_WORD`] to every box (see
    /// [`MODULE_WORD_ELEMENTS`]), once a hint first meets the word.
    module_word_everywhere: Option<bool>,
}

impl<'a> AttrWords<'a> {
    /// An empty cache for the page of `dom`.
    pub fn new(dom: &'a Dom) -> AttrWords<'a> {
        AttrWords {
            dom,
            seen: Default::default(),
            beyond: Default::default(),
            module_word_everywhere: None,
        }
    }

    /// [`attr_words`] of `value`, passing over [`MODULE_WORD`] when this page's template gives
    /// it every box (see [`AttrWords::names_every_module`]).
    fn get(&mut self, value: &'a str) -> (bool, Option<&'static str>) {
        let found = self.cached(value);
        match found.1 {
            Some(word) if self.names_every_module(word) => *self
                .beyond
                .entry(value)
                .or_insert_with(|| attr_words(value, &[MODULE_WORD])),
            _ => found,
        }
    }

    /// [`attr_words`] of `value` with nothing passed over, worked out once per value.
    fn cached(&mut self, value: &'a str) -> (bool, Option<&'static str>) {
        *self
            .seen
            .entry(value)
            .or_insert_with(|| attr_words(value, &[]))
    }

    /// True when `word` is [`MODULE_WORD`] and this page's template gives it every box: no
    /// evidence about any one of them. The elements whose `class` names it are counted the
    /// first time a hint meets the word (most pages never do), with a plain substring test
    /// before the cached class words.
    fn names_every_module(&mut self, word: &str) -> bool {
        if word != MODULE_WORD {
            return false;
        }
        if let Some(known) = self.module_word_everywhere {
            return known;
        }
        let dom = self.dom;
        let mut count = 0;
        // Every node of the arena in turn: the page is read whole, in no particular order.
        for id in 0..dom.len() as NodeId {
            if let Some(class) = dom.attr(id, "class")
                && name_holds(class, MODULE_WORD.as_bytes())
                && self.cached(class).1 == Some(MODULE_WORD)
            {
                count += 1;
            }
        }
        let everywhere = count >= MODULE_WORD_ELEMENTS;
        self.module_word_everywhere = Some(everywhere);
        everywhere
    }
}

/// The hint of element `id`: `class` and `id` each add or take [`ATTR_WEIGHT`] (both at once
/// cancel, as in `comment-body`); `itemprop=articleBody`, `role=main`, `<article>` and `<main>`
/// add; `<nav>`, `<aside>` and `<footer>` take away. Element names weigh less than the author's
/// own words, so an article inside `<header>` or `<aside>` is still found.
pub(super) fn hint<'a>(dom: &'a Dom, id: NodeId, words: &mut AttrWords<'a>) -> Hint {
    let mut out = Hint::default();
    let Some(name) = dom.local_name(id) else {
        return out;
    };
    for (attr, value) in dom.attrs(id) {
        match *attr {
            local_name!("class") | local_name!("id") => {
                let (positive, mut negative) = words.get(value);
                // A section's id made from its heading's words (`<section id="cookies"><h3>
                // Cookies</h3>`, as documentation generators write them) names its subject,
                // not a widget: a manual's section on cookies or menus is the manual's text.
                if negative.is_some()
                    && *attr == local_name!("id")
                    && names_its_heading(dom, id, value)
                {
                    negative = None;
                }
                if positive {
                    out.weight += ATTR_WEIGHT;
                    out.positive = true;
                }
                if let Some(word) = negative {
                    out.weight -= ATTR_WEIGHT;
                    out.negative.get_or_insert(word);
                }
            }
            local_name!("itemprop") => {
                let v = value.to_ascii_lowercase();
                if v.contains("articlebody") || v.contains("text") {
                    out.weight += 2.0 * ATTR_WEIGHT;
                    out.positive = true;
                    out.structural = true;
                }
            }
            local_name!("role") => {
                let v = value.to_ascii_lowercase();
                if v == "main" || v == "article" {
                    out.weight += ATTR_WEIGHT;
                    out.positive = true;
                    out.structural = true;
                } else if matches!(
                    v.as_str(),
                    "navigation" | "complementary" | "contentinfo" | "banner" | "menu"
                ) {
                    out.weight -= ATTR_WEIGHT;
                    out.negative.get_or_insert("role");
                }
            }
            _ => {}
        }
    }
    match *name {
        local_name!("article") | local_name!("main") => {
            out.weight += 10.0;
            out.positive = true;
            out.structural = true;
        }
        local_name!("nav") | local_name!("aside") | local_name!("footer") => out.weight -= 10.0,
        _ => {}
    }
    out
}

/// True when `value`, the `id` of element `id`, is its heading's words run together (`cookies`,
/// `setting-cookies`, `menus-1` for "Setting Cookies¶", "Menus"), and the heading links to it: the
/// element is that heading, or a section whose first child element is that heading. Only letters
/// and digits are compared, in any case, so the generators' separators and a heading's permalink
/// sign do not matter; a number after the words (a second section of the same name) is allowed.
/// A heading that opens a comment section ("Comments", "Leave a reply") does not count: that
/// section is furniture by its title too.
fn names_its_heading(dom: &Dom, id: NodeId, value: &str) -> bool {
    let heading = if dom.local_name(id).is_some_and(is_heading) {
        id
    } else {
        match dom.children(id).find(|&c| dom.is_element(c)) {
            Some(first) if dom.local_name(first).is_some_and(is_heading) => first,
            _ => return false,
        }
    };
    let slug = |text: &str| -> String {
        text.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    };
    // The generators' own sign: the heading links to itself by that id (Sphinx's `headerlink`,
    // MDN's and Docusaurus's anchors). A cookie notice headed "Cookie notice" has none.
    let links_to_itself = dom.descendants(heading).any(|n| {
        dom.is_html(n, &local_name!("a"))
            && dom
                .attr(n, "href")
                .and_then(|h| h.strip_prefix('#'))
                .is_some_and(|fragment| fragment == value)
    });
    if !links_to_itself {
        return false;
    }
    let text = dom.text_content(heading);
    // A section headed "Comments" is the page's comments whatever made its id.
    if super::clean::comment_opening(&text).is_some() {
        return false;
    }
    let title = slug(&text);
    let name = slug(value);
    !title.is_empty()
        && name
            .strip_prefix(title.as_str())
            .is_some_and(|rest| rest.chars().all(|c| c.is_ascii_digit()))
}

/// The element's tag weight as a container (Readability's initial scores): generic containers a
/// little up, list and form parts a little down, headings down.
pub(super) fn tag_weight(dom: &Dom, id: NodeId) -> f32 {
    match dom.local_name(id) {
        Some(n) => match *n {
            local_name!("div") | local_name!("article") | local_name!("section") => 5.0,
            local_name!("pre") | local_name!("td") | local_name!("blockquote") => 3.0,
            local_name!("address")
            | local_name!("ol")
            | local_name!("ul")
            | local_name!("dl")
            | local_name!("dd")
            | local_name!("dt")
            | local_name!("li")
            | local_name!("form") => -3.0,
            local_name!("th") => -5.0,
            ref heading if is_heading(heading) => -5.0,
            _ => 0.0,
        },
        None => 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A prompt's words are negative words, or a prompt could never be named by one; an offer's
    /// are prompt words, so that a box the scores let fall back for its name is an offer's or a
    /// modal's alike.
    #[test]
    fn prompt_and_offer_words_are_negative_words() {
        for word in PROMPT_WORDS {
            assert!(
                NEGATIVE_STEMS.contains(word) || NEGATIVE_TOKENS.contains(word),
                "{word} is no negative word"
            );
        }
        for word in OFFER_WORDS {
            assert!(PROMPT_WORDS.contains(word), "{word} is no prompt word");
        }
    }

    /// The words left out of the surroundings are negative words (or the landmark roles'
    /// mark): a word dropped from the negative lists leaves no stale exception behind.
    #[test]
    fn words_left_out_of_the_surroundings_are_negative_words() {
        for word in NOT_AROUND_WORDS {
            assert!(
                NEGATIVE_STEMS.contains(word) || NEGATIVE_TOKENS.contains(word) || *word == "role",
                "{word} is no negative word"
            );
        }
    }

    /// A name that says what a box holds is no hint of what the box is; the same words as the
    /// box's own name are.
    #[test]
    fn a_name_of_what_a_box_holds_is_no_hint() {
        for value in [
            "row has-side-banner",
            "layout hasSidebar",
            "has_comments wrap",
        ] {
            assert_eq!(attr_words(value, &[]), (false, None), "{value}");
        }
        assert_eq!(attr_words("side-banner", &[]), (false, Some("banner")));
        assert_eq!(attr_words("sidebar", &[]), (false, Some("sidebar")));
        assert_eq!(attr_words("has-post-thumbnail", &[]), (false, None));
        assert_eq!(attr_words("post has-post-thumbnail", &[]), (true, None));
        // Words that merely begin with the letters are names of what the box is.
        assert_eq!(attr_words("hashtag-bar share", &[]), (false, Some("share")));
        assert_eq!(attr_words("hasbro-footer", &[]), (false, Some("footer")));
        assert_eq!(attr_words("HASHTAG-share", &[]), (false, Some("share")));
        // The whole value is read when no name in it says what the box holds.
        assert_eq!(
            attr_words("phase purchase-sidebar", &[]),
            (false, Some("sidebar"))
        );
        assert_eq!(attr_words("Has-Sidebar story", &[]), (true, None));
        // Names in other scripts are read as before, and never split inside a character.
        assert_eq!(attr_words("hasÜber-banner", &[]), (false, Some("banner")));
        assert_eq!(attr_words("has-ñandú-sidebar", &[]), (false, None));
    }

    /// The letter masks only skip searches that could not succeed: the stem found is the one a
    /// plain search of every stem in list order finds.
    #[test]
    fn masks_find_what_a_plain_search_finds() {
        let plain =
            |t: &str, stems: &[&'static str]| stems.iter().find(|s| t.contains(*s)).copied();
        let mut tokens: Vec<String> = POSITIVE_STEMS
            .iter()
            .chain(NEGATIVE_STEMS)
            .chain(NEGATIVE_TOKENS)
            .flat_map(|s| {
                [
                    s.to_string(),
                    format!("x{s}y"),
                    s[1..].to_string(),
                    format!("{s}{s}"),
                ]
            })
            .collect();
        tokens.extend(
            [
                "socialshare",
                "sharingbar",
                "postbody",
                "über",
                "navigationmenu",
                "",
                "a1b2",
                "ñav",
            ]
            .map(String::from),
        );
        for t in &tokens {
            let have = letters(t);
            assert_eq!(
                first_stem_in(t, have, NEGATIVE_STEMS, &NEGATIVE_MASKS),
                plain(t, NEGATIVE_STEMS),
                "{t}"
            );
            assert_eq!(
                first_stem_in(t, have, POSITIVE_STEMS, &POSITIVE_MASKS),
                plain(t, POSITIVE_STEMS),
                "{t}"
            );
        }
    }

    #[test]
    fn words_in_attributes() {
        assert_eq!(attr_words("entry-content", &[]), (true, None));
        assert_eq!(attr_words("comment-list", &[]), (false, Some("comment")));
        assert_eq!(attr_words("comment-body", &[]), (true, Some("comment")));
        assert_eq!(attr_words("header", &[]), (false, None));
        assert_eq!(attr_words("thread", &[]), (false, None));
        assert_eq!(attr_words("top-ad", &[]), (false, Some("ad")));
        assert_eq!(attr_words("navMain", &[]), (true, Some("nav")));
        assert_eq!(attr_words("tbody", &[]), (false, None));
        // A forum post's author pane and signature are not the post.
        assert_eq!(
            attr_words("message-userExtras", &[]),
            (false, Some("extras"))
        );
        assert_eq!(attr_words("postprofile", &[]), (true, Some("postprofile")));
        assert_eq!(attr_words("userinfo", &[]), (false, Some("userinfo")));
        assert_eq!(attr_words("post-signature", &[]), (true, Some("signature")));
    }

    #[test]
    fn consent_boxes_are_named_in_any_case_in_id_or_class() {
        let dom = Dom::parse(
            "<div id=onetrust-consent-sdk></div><div class='CookieConsent bar'></div>\
             <div id=x class=GDPR-Notice></div><div class=recipe-cookie></div>\
             <div id=content class=ConSENTinel></div><div class=consen-t></div>",
        );
        let found: Vec<bool> = dom
            .elements_by_name("div")
            .map(|d| names_consent(&dom, d))
            .collect();
        assert_eq!(found, [true, true, true, false, true, false]);
    }

    #[test]
    fn an_id_made_from_the_heading_names_a_subject_not_a_widget() {
        // Each box: (markup, the negative word its hint keeps).
        let boxes: &[(&str, Option<&str>)] = &[
            (
                "<section id=cookies><h3>Cookies<a class=headerlink href=#cookies>\u{b6}</a></h3>\
                 </section>",
                None,
            ),
            (
                "<section id=setting-cookies-2><h2><a href=#setting-cookies-2>#</a>Setting \
                 Cookies</h2></section>",
                None,
            ),
            (
                "<section id=respond-to-review-comments><h2>Respond to review comments\
                 <a href=#respond-to-review-comments>\u{b6}</a></h2></section>",
                None,
            ),
            ("<h2 id=menus><a href=#menus>Menus</a></h2>", None),
            // No link to itself: a widget headed by its own name.
            (
                "<div id=cookie-notice><h3>Cookie notice</h3><p>We use cookies.</p></div>",
                Some("cookie"),
            ),
            ("<section id=menus><h2>Menus</h2></section>", Some("menu")),
            // A comment section, even when its heading links to it.
            (
                "<h2 id=comments><a href=#comments>Comments</a></h2>",
                Some("comment"),
            ),
            (
                "<div id=cookies><p>We use cookies to improve your visit.</p></div>",
                Some("cookie"),
            ),
            (
                "<section id=cookie-bar><h3><a href=#cookie-bar>Cookies</a></h3></section>",
                Some("cookie"),
            ),
            (
                "<section class=cookies><h3><a href=#cookies>Cookies</a></h3></section>",
                Some("cookie"),
            ),
        ];
        for (markup, expected) in boxes {
            let dom = Dom::parse(markup);
            let body = dom.body().expect("a body");
            let element = dom
                .children(body)
                .find(|&c| dom.is_element(c))
                .expect("a box");
            let mut words = AttrWords::new(&dom);
            assert_eq!(
                hint(&dom, element, &mut words).negative,
                *expected,
                "{markup}"
            );
        }
    }
}
