//! What a page may make pith do: nothing but be read. A stored page is data from a stranger, so
//! the reader never runs it (no scripts: the block pipeline keeps no script text, see
//! [`crate::page::is_skipped_element`]), never fetches for it at reading time (images are
//! downloaded at refresh, by the HTTP client, which only speaks http and https), and opens its
//! links only in the system browser and only for the schemes decided here. A link that would make
//! the browser (or pith) run code, read a local file or hand a blob to some other program is not
//! openable: the reader shows its text, not a link.
//!
//! Knows nothing of the window. [`openable_link`] is pith's one test of a link: opening an
//! article (`reading::open_article`, for the window and `pith read` alike) keeps only the links it
//! allows, and the window asks it again for every URL it hands to the system (a clicked link, the
//! item's own address). The refresh asks [`fetchable_url`] before it downloads an image.

use url::Url;

use crate::limits;

/// The schemes a link may open in the system browser. `mailto` hands an address to the mail
/// program, which asks the user before sending anything.
pub const OPENABLE_SCHEMES: &[&str] = &["http", "https", "mailto"];

/// The URL a link in a page may open in the system browser, or `None` when it must not be opened.
///
/// `href` is the attribute as written; `base` is the page's response URL (relative links resolve
/// against it). Refused: schemes other than [`OPENABLE_SCHEMES`] (`javascript:`, `data:`,
/// `file:`, `vbscript:`, `blob:`, custom protocol handlers …), a relative link whose base is not
/// itself http(s) (a page saved from disk must not lead to its neighbours), http(s) URLs without a
/// host, user names or passwords in the URL (a phishing device: `https://bank.com@evil.example`),
/// and anything longer than [`limits::MAX_URL_LEN`].
pub fn openable_link(href: &str, base: Option<&Url>) -> Option<Url> {
    if href.len() > limits::MAX_URL_LEN {
        return None;
    }
    let url = resolve(href, base)?;
    if url.as_str().len() > limits::MAX_URL_LEN {
        return None;
    }
    match url.scheme() {
        "http" | "https" => web_url_ok(&url).then_some(url),
        // A mailto without an address would only open an empty composer window.
        "mailto" => (!url.path().trim().is_empty()).then_some(url),
        _ => None,
    }
}

/// The URL pith may download for a page (an image, at refresh time), or `None`: only http and
/// https with a host, without credentials, within [`limits::MAX_URL_LEN`]. A page can thus never
/// make pith read a local file (`file:`), decode an inline blob (`data:`) or reach another scheme.
pub fn fetchable_url(src: &str, base: Option<&Url>) -> Option<Url> {
    if src.len() > limits::MAX_URL_LEN {
        return None;
    }
    let url = resolve(src, base)?;
    (matches!(url.scheme(), "http" | "https")
        && url.as_str().len() <= limits::MAX_URL_LEN
        && web_url_ok(&url))
    .then_some(url)
}

/// Resolves `href` against `base`, but only against a web base: a relative reference from a
/// `file:` (or any other) page is refused rather than turned into a path on this machine.
fn resolve(href: &str, base: Option<&Url>) -> Option<Url> {
    // The URL parser strips surrounding white space and control characters and drops tabs and
    // newlines inside, as browsers do, so `java\nscript:` is seen as the scheme it would act as.
    match Url::parse(href) {
        Ok(url) => Some(url),
        Err(url::ParseError::RelativeUrlWithoutBase) => {
            let base = base.filter(|b| matches!(b.scheme(), "http" | "https"))?;
            base.join(href).ok()
        }
        Err(_) => None,
    }
}

fn web_url_ok(url: &Url) -> bool {
    url.host_str().is_some_and(|h| !h.is_empty())
        && url.username().is_empty()
        && url.password().is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn web_base() -> Url {
        Url::parse("https://news.example.com/2024/05/story.html").unwrap()
    }

    #[test]
    fn web_and_mail_links_open() {
        let base = web_base();
        let open = |h: &str| openable_link(h, Some(&base)).map(|u| u.to_string());
        assert_eq!(
            open("https://other.example/a?b=1#c").as_deref(),
            Some("https://other.example/a?b=1#c")
        );
        assert_eq!(
            open("http://plain.example/").as_deref(),
            Some("http://plain.example/")
        );
        assert_eq!(
            open("../../about").as_deref(),
            Some("https://news.example.com/about")
        );
        assert_eq!(
            open("//cdn.example/x").as_deref(),
            Some("https://cdn.example/x")
        );
        assert_eq!(
            open("  https://spaced.example/  ").as_deref(),
            Some("https://spaced.example/")
        );
        assert_eq!(
            open("mailto:editor@example.com").as_deref(),
            Some("mailto:editor@example.com")
        );
        assert_eq!(
            open("HTTPS://UPPER.EXAMPLE/").as_deref(),
            Some("https://upper.example/")
        );
    }

    #[test]
    fn code_data_and_local_links_never_open() {
        let base = web_base();
        for href in [
            "javascript:alert(1)",
            "JavaScript:alert(1)",
            " javascript:alert(1)",
            "java\nscript:alert(1)",
            "java\tscript:alert(1)",
            "\u{1}javascript:alert(1)",
            "vbscript:msgbox(1)",
            "data:text/html,<script>alert(1)</script>",
            "data:image/png;base64,AAAA",
            "file:///etc/passwd",
            "FILE:///C:/Windows/win.ini",
            "file://host/share",
            "blob:https://news.example.com/uuid",
            "ftp://files.example/x",
            "about:blank",
            "chrome://settings",
            "ms-settings:",
            "tel:+123",
            "ssh://host",
            "mailto:",
            "http://",
            "https://user:pw@bank.example@evil.example/",
            "https://bank.example@evil.example/",
        ] {
            assert_eq!(
                openable_link(href, Some(&base)),
                None,
                "{href:?} must not open"
            );
            assert_eq!(
                fetchable_url(href, Some(&base)),
                None,
                "{href:?} must not be fetched"
            );
        }
    }

    #[test]
    fn relative_links_need_a_web_base() {
        let file_base = Url::parse("file:///home/me/saved/page.html").unwrap();
        for href in [
            "other.html",
            "../.ssh/id_rsa",
            "/etc/passwd",
            "//host/x",
            "?q",
            "#top",
        ] {
            assert_eq!(openable_link(href, Some(&file_base)), None, "{href:?}");
            assert_eq!(openable_link(href, None), None, "{href:?}");
            assert_eq!(fetchable_url(href, Some(&file_base)), None, "{href:?}");
        }
        let data_base = Url::parse("data:text/html,hello").unwrap();
        assert_eq!(openable_link("x.html", Some(&data_base)), None);
        // An absolute web link is fine whatever the base.
        assert!(openable_link("https://example.com/", Some(&file_base)).is_some());
    }

    #[test]
    fn over_long_urls_are_refused() {
        let base = web_base();
        let long = format!("https://example.com/{}", "a".repeat(limits::MAX_URL_LEN));
        assert_eq!(openable_link(&long, Some(&base)), None);
        assert_eq!(fetchable_url(&long, Some(&base)), None);
        // Short input that resolves to something too long against a long base.
        let long_base = Url::parse(&format!(
            "https://example.com/{}/",
            "b".repeat(limits::MAX_URL_LEN - 30)
        ))
        .unwrap();
        assert_eq!(
            openable_link("cccccccccccccccccccccccccccccccccccc", Some(&long_base)),
            None
        );
        let ok = format!("https://example.com/{}", "a".repeat(1000));
        assert!(openable_link(&ok, Some(&base)).is_some());
    }

    #[test]
    fn images_are_fetched_only_over_the_web() {
        let base = web_base();
        assert_eq!(
            fetchable_url("/img/a.jpg", Some(&base))
                .map(|u| u.to_string())
                .as_deref(),
            Some("https://news.example.com/img/a.jpg")
        );
        assert_eq!(fetchable_url("mailto:a@b.example", Some(&base)), None);
        assert_eq!(fetchable_url("/img/a.jpg", None), None);
    }
}
