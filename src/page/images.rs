//! An image's source: the lazy-loading attributes tried before `src`, the largest `srcset`
//! candidate, and the placeholders and tracking pixels that are no image at all.

use crate::dom::{Dom, NodeId};
use html5ever::local_name;

/// Attributes that lazy-loading scripts copy into `src`; when present, `src` usually holds a
/// placeholder, so they are tried first.
pub(super) const LAZY_SRC_ATTRS: [&str; 4] =
    ["data-src", "data-lazy-src", "data-original", "data-url"];

/// A source that can be shown and hashed: not empty, not an inline `data:` placeholder, not a
/// script or blank page.
pub(super) fn is_usable_src(src: &str) -> bool {
    let lower = src.get(..11).unwrap_or(src).to_ascii_lowercase();
    !src.is_empty()
        && src != "#"
        && !lower.starts_with("data:")
        && !lower.starts_with("javascript:")
        && !lower.starts_with("about:")
}

/// The largest candidate of a `srcset` value (by width descriptor `480w`, else density `2x`;
/// a candidate without descriptor counts as `1x`).
pub(super) fn largest_srcset_candidate(srcset: &str) -> Option<&str> {
    let mut best: Option<(f64, &str)> = None;
    let mut rest = srcset;
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_ascii_whitespace() || c == ',');
        if rest.is_empty() {
            break;
        }
        let url_end = rest
            .find(|c: char| c.is_ascii_whitespace())
            .unwrap_or(rest.len());
        let mut url = &rest[..url_end];
        rest = &rest[url_end..];
        let mut descriptor = "";
        if url.ends_with(',') {
            // A comma right after the URL ends the candidate: it has no descriptors.
            url = url.trim_end_matches(',');
        } else {
            let desc_end = rest.find(',').unwrap_or(rest.len());
            descriptor = rest[..desc_end].trim();
            rest = &rest[desc_end..];
        }
        let size = descriptor
            .split_ascii_whitespace()
            .find_map(|d| {
                // Widths and densities are compared on one scale: a width is far larger than any
                // density, and a srcset uses one kind or the other.
                if let Some(width) = d.strip_suffix('w') {
                    width.parse::<f64>().ok()
                } else {
                    d.strip_suffix('x')?.parse::<f64>().ok().map(|x| x / 1e6)
                }
            })
            .unwrap_or(1.0 / 1e6);
        if is_usable_src(url) && best.is_none_or(|(b, _)| size > b) {
            best = Some((size, url));
        }
    }
    best.map(|(_, url)| url)
}

/// The source of `<img>` `id`: a lazy attribute, `src`, or the largest `srcset`/`data-srcset`
/// candidate; inside a `<picture>` whose `<img>` has none of these, the first `<source>` without
/// a media condition (else the first `<source>`), as the browser's fallback choice would be.
pub(super) fn image_source(dom: &Dom, id: NodeId) -> Option<&str> {
    let direct = LAZY_SRC_ATTRS
        .iter()
        .chain(&["src"])
        .filter_map(|a| dom.attr(id, a))
        .map(str::trim)
        .find(|s| is_usable_src(s))
        .or_else(|| srcset_source(dom, id));
    if direct.is_some() {
        return direct;
    }
    let picture = dom
        .parent(id)
        .filter(|&p| dom.is_html(p, &local_name!("picture")))?;
    let sources: Vec<NodeId> = dom
        .children(picture)
        .filter(|&c| dom.is_html(c, &local_name!("source")))
        .collect();
    sources
        .iter()
        .filter(|&&s| dom.attr(s, "media").is_none())
        .chain(sources.iter())
        .find_map(|&s| srcset_source(dom, s))
}

pub(super) fn srcset_source(dom: &Dom, id: NodeId) -> Option<&str> {
    ["srcset", "data-srcset"]
        .iter()
        .filter_map(|a| dom.attr(id, a))
        .find_map(largest_srcset_candidate)
}

/// True for tracking pixels and spacers: a `width` or `height` attribute of at most 2 pixels.
pub(super) fn is_tiny(dom: &Dom, id: NodeId) -> bool {
    declares_size_at_most(dom, id, 2.0)
}

/// True when the element's `width` or `height` attribute declares at most `pixels`: a spacer
/// or a tracking pixel at 2, an icon at a few dozen. A value is read as HTML reads a dimension,
/// from its leading digits and their fraction (`16`, `16px`, `16 px`, `16.5`); a percentage is
/// no size in pixels, and a value without leading digits declares none.
pub(crate) fn declares_size_at_most(dom: &Dom, id: NodeId, pixels: f64) -> bool {
    ["width", "height"].iter().any(|side| {
        dom.attr(id, side)
            .and_then(declared_pixels)
            .is_some_and(|size| size <= pixels)
    })
}

/// The pixels a dimension attribute's `value` declares, if it declares any (see
/// [`declares_size_at_most`]).
fn declared_pixels(value: &str) -> Option<f64> {
    let value = value.trim();
    let digits = |s: &str| s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let whole = digits(value);
    if whole == 0 {
        return None;
    }
    let mut end = whole;
    if let Some(fraction) = value[whole..].strip_prefix('.') {
        end += 1 + digits(fraction);
    }
    if value[end..].trim_start().starts_with('%') {
        return None;
    }
    value[..end].trim_end_matches('.').parse().ok()
}

#[cfg(test)]
mod tests {
    use super::declared_pixels;

    #[test]
    fn a_dimension_is_read_from_its_leading_digits() {
        assert_eq!(declared_pixels("16"), Some(16.0));
        assert_eq!(declared_pixels(" 16px "), Some(16.0));
        assert_eq!(declared_pixels("16 px"), Some(16.0));
        assert_eq!(declared_pixels("16.5"), Some(16.5));
        assert_eq!(declared_pixels("2."), Some(2.0));
        assert_eq!(declared_pixels("100%"), None);
        assert_eq!(declared_pixels("50 %"), None);
        assert_eq!(declared_pixels("auto"), None);
        assert_eq!(declared_pixels(""), None);
    }
}
