//! pith's Rust peers, dom_smoothie (a port of Readability.js) and rs-trafilatura (a port of
//! trafilatura), as plain functions from a page's bytes and URL to the main text they find. Both
//! the speed comparison and the quality comparison call them, so the two measure the same thing.

use std::panic::{AssertUnwindSafe, catch_unwind};

use pith::charset;
use pith::eval::run::Peer;

/// The peers as `pith eval` rows.
pub const PEERS: [Peer; 2] = [
    Peer {
        name: "dom_smoothie",
        extract: dom_smoothie,
    },
    Peer {
        name: "rs-trafilatura",
        extract: trafilatura,
    },
];

/// The URL's top-level domain, a hint for charset detection.
fn tld(url: &url::Url) -> Option<&str> {
    url.host_str()
        .and_then(|host| host.trim_end_matches('.').rsplit('.').next())
}

/// Readability's port; it gets pith's decoded text, as it takes no bytes. Empty when it finds no
/// article or panics.
pub fn dom_smoothie(bytes: &[u8], url: Option<&str>) -> String {
    let base = url.and_then(|u| url::Url::parse(u).ok());
    let decoded = charset::decode_with_tld(bytes, None, base.as_ref().and_then(tld));
    catch_unwind(AssertUnwindSafe(|| {
        dom_smoothie::Readability::new(decoded.text.as_str(), url, None)
            .and_then(|mut r| r.parse())
            .map(|a| a.text_content.to_string())
            .unwrap_or_default()
    }))
    .unwrap_or_default()
}

/// trafilatura's port, from bytes (it decodes itself). Empty when it finds nothing or panics.
pub fn trafilatura(bytes: &[u8], _url: Option<&str>) -> String {
    catch_unwind(AssertUnwindSafe(|| {
        rs_trafilatura::extract_bytes(bytes)
            .map(|r| r.content_text)
            .unwrap_or_default()
    }))
    .unwrap_or_default()
}
