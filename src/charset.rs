//! Page bytes → text: finds the character encoding of a served HTML page and decodes it.
//!
//! The order follows the HTML standard's encoding sniffing, with two fixes that real pages need:
//! 1. a byte order mark wins;
//! 2. BOM-less UTF-16 (NUL bytes in every other position) is recognised, since no
//!    ASCII-compatible declaration can be right for such bytes;
//! 3. the charset declared by the HTTP `Content-Type` header;
//! 4. a `<meta charset>` / `<meta http-equiv=Content-Type>` found by a prescan of the first bytes;
//! 5. detection with chardetng (UTF-8 when the bytes are valid UTF-8);
//! 6. windows-1252, the web's default.
//!
//! The fix: many pages declare ISO-8859-1 (or another single-byte encoding) but are UTF-8, typically
//! a template saved as Latin-1 by an old CMS and content stored as UTF-8. When a single-byte
//! declaration meets bytes that are valid UTF-8 and contain multi-byte sequences, the bytes win:
//! real single-byte text essentially never forms valid UTF-8 sequences by accident.

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252};

use crate::limits::{MAX_DETECT_BYTES, MAX_META_PRESCAN_BYTES};

/// Decoded page text and how its encoding was chosen.
#[derive(Debug, Clone)]
pub struct Decoded {
    /// The page as text; malformed byte sequences became U+FFFD, a BOM is removed.
    pub text: String,
    /// The encoding the bytes were decoded with.
    pub encoding: &'static Encoding,
    /// Where that encoding came from.
    pub source: CharsetSource,
}

/// Where the encoding of a page came from, for diagnostics and for the evaluation reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CharsetSource {
    /// A byte order mark at the start of the bytes.
    Bom,
    /// The charset declared by the HTTP `Content-Type` header.
    Header,
    /// A `<meta charset>` or `<meta http-equiv="Content-Type">` declaration in the page.
    Meta,
    /// Read from the bytes themselves: BOM-less UTF-16, UTF-8 that contradicts a single-byte
    /// declaration, or chardetng's guess when nothing was declared.
    Detected,
    /// Nothing declared and nothing to detect (pure ASCII): windows-1252, the web's default.
    Default,
}

/// Decodes page bytes to text. `declared` is the charset from the HTTP response, either a whole
/// `Content-Type` value (`text/html; charset=ISO-8859-1`) or just a label (`utf-8`). Never fails
/// and never panics: any bytes give some text.
pub fn decode(bytes: &[u8], declared: Option<&str>) -> Decoded {
    decode_with_tld(bytes, declared, None)
}

/// As [`decode`], with the top-level domain of the page's URL (`"ru"`, `"jp"`, `"com"`) as a hint
/// for the detector when nothing declares the encoding: the same bytes are likelier KOI8-R on a
/// `.ru` site than on a `.com` one.
pub fn decode_with_tld(bytes: &[u8], declared: Option<&str>, tld: Option<&str>) -> Decoded {
    let (encoding, source) = sniff(bytes, declared, tld);
    let text = match Encoding::for_bom(bytes) {
        // The BOM must go; `decode_with_bom_removal` only removes the BOM of `encoding` itself.
        Some((bom_encoding, len)) if bom_encoding == encoding => {
            encoding.decode_without_bom_handling(&bytes[len..]).0
        }
        _ => encoding.decode_without_bom_handling(bytes).0,
    };
    Decoded {
        text: text.into_owned(),
        encoding,
        source,
    }
}

/// Chooses the encoding of `bytes` without decoding them.
pub fn sniff(
    bytes: &[u8],
    declared: Option<&str>,
    tld: Option<&str>,
) -> (&'static Encoding, CharsetSource) {
    if let Some((encoding, _)) = Encoding::for_bom(bytes) {
        return (encoding, CharsetSource::Bom);
    }
    if let Some(encoding) = bomless_utf16(bytes) {
        return (encoding, CharsetSource::Detected);
    }
    if let Some(encoding) = declared.and_then(charset_from_content_type) {
        return check_declared(bytes, encoding, CharsetSource::Header);
    }
    if let Some(encoding) = prescan_meta(&bytes[..bytes.len().min(MAX_META_PRESCAN_BYTES)]) {
        return check_declared(bytes, encoding, CharsetSource::Meta);
    }
    detect(bytes, tld)
}

/// Applies the "declared single-byte, but really UTF-8" fix to a declared encoding.
fn check_declared(
    bytes: &[u8],
    encoding: &'static Encoding,
    source: CharsetSource,
) -> (&'static Encoding, CharsetSource) {
    if encoding.is_single_byte() && is_utf8_with_multibyte(bytes) {
        (UTF_8, CharsetSource::Detected)
    } else {
        (encoding, source)
    }
}

/// True when `bytes` are valid UTF-8 (a sequence cut off by the end of the bytes is forgiven: pages
/// get truncated) and contain at least one multi-byte sequence.
fn is_utf8_with_multibyte(bytes: &[u8]) -> bool {
    let Some(first) = bytes.iter().position(|b| !b.is_ascii()) else {
        return false;
    };
    match std::str::from_utf8(&bytes[first..]) {
        Ok(_) => true,
        // `error_len() == None`: the input ends inside a sequence that was valid so far.
        Err(e) => e.error_len().is_none() && e.valid_up_to() > 0,
    }
}

/// Recognises UTF-16 without a BOM by its NUL bytes: ASCII markup in UTF-16 has a zero in every
/// other byte, which an ASCII-compatible page never has.
fn bomless_utf16(bytes: &[u8]) -> Option<&'static Encoding> {
    let head = &bytes[..bytes.len().min(1024) & !1];
    let pairs = head.len() / 2;
    if pairs < 4 {
        return None;
    }
    let (mut even_zero, mut odd_zero) = (0, 0);
    for pair in head.chunks_exact(2) {
        even_zero += usize::from(pair[0] == 0 && pair[1] != 0);
        odd_zero += usize::from(pair[1] == 0 && pair[0] != 0);
    }
    // Most characters of a page's first KB are ASCII markup, so most pairs show the pattern.
    if even_zero * 10 >= pairs * 7 {
        Some(UTF_16BE)
    } else if odd_zero * 10 >= pairs * 7 {
        Some(UTF_16LE)
    } else {
        None
    }
}

/// The encoding named by a `Content-Type` value's `charset` parameter, or by a bare label.
pub fn charset_from_content_type(value: &str) -> Option<&'static Encoding> {
    let value = value.trim();
    let lower = value.to_ascii_lowercase();
    if let Some(at) = lower.find("charset") {
        let rest = lower[at + "charset".len()..].trim_start();
        let rest = rest.strip_prefix('=')?.trim_start();
        let label = match rest.strip_prefix(['"', '\'']) {
            Some(quoted) => quoted.split(['"', '\'']).next().unwrap_or(""),
            None => rest.split([';', ',', ' ', '\t']).next().unwrap_or(""),
        };
        return encoding_for_label(label);
    }
    if value.contains(['/', ';', '=']) {
        // A media type without a charset parameter (`text/html`) declares nothing.
        return None;
    }
    encoding_for_label(value)
}

/// Looks up an encoding label, tolerating `_` for `-` (`iso8859_1` occurs in the wild). The
/// "replacement" encoding (for labels such as ISO-2022-KR) would turn the page into one U+FFFD, so
/// such labels count as no declaration.
fn encoding_for_label(label: &str) -> Option<&'static Encoding> {
    let label = label.trim();
    if label.is_empty() {
        return None;
    }
    Encoding::for_label_no_replacement(label.as_bytes()).or_else(|| {
        let dashed = label.replace('_', "-");
        Encoding::for_label_no_replacement(dashed.as_bytes())
    })
}

/// A meta declaration's label mapped as the HTML standard says: a page that can be read far enough
/// to find the meta is ASCII-compatible, so UTF-16 there means UTF-8; x-user-defined means
/// windows-1252.
fn meta_encoding(label: &[u8]) -> Option<&'static Encoding> {
    let label = std::str::from_utf8(label).ok()?;
    let encoding = encoding_for_label(label)?;
    Some(if encoding == UTF_16BE || encoding == UTF_16LE {
        UTF_8
    } else if encoding.name() == "x-user-defined" {
        WINDOWS_1252
    } else {
        encoding
    })
}

/// Detection when nothing declared the encoding.
fn detect(bytes: &[u8], tld: Option<&str>) -> (&'static Encoding, CharsetSource) {
    if bytes.is_ascii() {
        return (WINDOWS_1252, CharsetSource::Default);
    }
    if is_utf8_with_multibyte(bytes) {
        return (UTF_8, CharsetSource::Detected);
    }
    // The detector only learns from non-ASCII bytes (and two bytes of context before them); pages
    // often open with long ASCII scripts, so its window starts just before the first one.
    let first = bytes.iter().position(|b| !b.is_ascii()).unwrap_or(0);
    let window = &bytes[first.saturating_sub(16)..];
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    detector.feed(&window[..window.len().min(MAX_DETECT_BYTES)], true);
    // chardetng asserts that the TLD is lower-case ASCII without dots.
    let tld = tld
        .map(|t| t.trim_matches('.').to_ascii_lowercase())
        .filter(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'));
    let encoding = detector.guess(
        tld.as_deref().map(str::as_bytes),
        chardetng::Utf8Detection::Allow,
    );
    (encoding, CharsetSource::Detected)
}

// ---------------------------------------------------------------------------------------------
// The HTML standard's "prescan a byte stream to determine its encoding", on a byte slice.

/// Finds the encoding declared by a `<meta>` element in `bytes` (the start of a page), skipping
/// comments and the attributes of other tags the way the HTML standard's prescan does.
pub fn prescan_meta(bytes: &[u8]) -> Option<&'static Encoding> {
    let mut i = 0;
    while i < bytes.len() {
        let rest = &bytes[i..];
        if rest.starts_with(b"<!--") {
            // Searching from the opener's dashes: `<!-->` is a whole (empty) comment.
            i += 2 + find(&rest[2..], b"-->").map_or(rest.len(), |p| p + 3);
        } else if starts_with_ignore_case(rest, b"<meta")
            && rest.get(5).is_some_and(|&b| is_space(b) || b == b'/')
        {
            let (encoding, end) = meta_declaration(bytes, i + 5);
            if encoding.is_some() {
                return encoding;
            }
            i = end;
        } else if rest.len() >= 2
            && rest[0] == b'<'
            && (rest[1].is_ascii_alphabetic()
                || (rest[1] == b'/' && rest.get(2).is_some_and(u8::is_ascii_alphabetic)))
        {
            // Another tag: skip its name and its attributes, whose values may contain `>`.
            let mut j = i + 1;
            while j < bytes.len() && !is_space(bytes[j]) && bytes[j] != b'>' {
                j += 1;
            }
            while let Some((_, _, next)) = attribute(bytes, j) {
                j = next;
            }
            i = j + 1;
        } else if rest.starts_with(b"<!") || rest.starts_with(b"</") || rest.starts_with(b"<?") {
            i += find(rest, b">").map_or(rest.len(), |p| p + 1);
        } else {
            i += 1;
        }
    }
    None
}

/// Reads the attributes of a `<meta` tag starting at `start` (just after `<meta`); returns the
/// declared encoding, if any, and where scanning resumes.
fn meta_declaration(bytes: &[u8], start: usize) -> (Option<&'static Encoding>, usize) {
    let mut j = start;
    let mut seen_http_equiv = false;
    let mut seen_content = false;
    let mut seen_charset = false;
    let mut got_pragma = false;
    // Some(true): a pragma (http-equiv content=...) is needed; Some(false): charset attribute.
    let mut need_pragma: Option<bool> = None;
    let mut charset: Option<&'static Encoding> = None;
    while let Some((name, value, next)) = attribute(bytes, j) {
        j = next;
        if name.eq_ignore_ascii_case(b"http-equiv") {
            if seen_http_equiv {
                continue;
            }
            seen_http_equiv = true;
            if value.eq_ignore_ascii_case(b"content-type") {
                got_pragma = true;
            }
        } else if name.eq_ignore_ascii_case(b"content") {
            if seen_content {
                continue;
            }
            seen_content = true;
            if charset.is_none()
                && let Some(label) = charset_in_content(value)
                && let Some(encoding) = meta_encoding(label)
            {
                charset = Some(encoding);
                need_pragma = Some(true);
            }
        } else if name.eq_ignore_ascii_case(b"charset") {
            if seen_charset {
                continue;
            }
            seen_charset = true;
            if let Some(encoding) = meta_encoding(value) {
                charset = Some(encoding);
                need_pragma = Some(false);
            }
        }
    }
    let end = j + 1;
    match need_pragma {
        Some(true) if !got_pragma => (None, end),
        Some(_) => (charset, end),
        None => (None, end),
    }
}

/// The standard's "algorithm for extracting a character encoding from a meta element": the label
/// after `charset=` in a `content` value.
fn charset_in_content(value: &[u8]) -> Option<&[u8]> {
    let mut i = 0;
    loop {
        let at = i + find_ignore_case(&value[i..], b"charset")?;
        let mut j = at + 7;
        while j < value.len() && is_space(value[j]) {
            j += 1;
        }
        if value.get(j) != Some(&b'=') {
            i = at + 7;
            continue;
        }
        j += 1;
        while j < value.len() && is_space(value[j]) {
            j += 1;
        }
        return match value.get(j) {
            Some(&q @ (b'"' | b'\'')) => {
                let rest = &value[j + 1..];
                rest.iter().position(|&b| b == q).map(|end| &rest[..end])
            }
            Some(_) => {
                let rest = &value[j..];
                let end = rest
                    .iter()
                    .position(|&b| is_space(b) || b == b';')
                    .unwrap_or(rest.len());
                Some(&rest[..end])
            }
            None => None,
        };
    }
}

/// The standard's "get an attribute" step at `i`: returns (name, value, position after it), or
/// `None` at the end of the tag (`>`) or of the bytes. Names are returned as written; callers
/// compare them ignoring ASCII case.
fn attribute(bytes: &[u8], mut i: usize) -> Option<(&[u8], &[u8], usize)> {
    while i < bytes.len() && (is_space(bytes[i]) || bytes[i] == b'/') {
        i += 1;
    }
    if i >= bytes.len() || bytes[i] == b'>' {
        return None;
    }
    let name_start = i;
    // The first character may be `=`: it is then part of the name.
    i += 1;
    while i < bytes.len() && !is_space(bytes[i]) && !matches!(bytes[i], b'=' | b'/' | b'>') {
        i += 1;
    }
    let name = &bytes[name_start..i];
    while i < bytes.len() && is_space(bytes[i]) {
        i += 1;
    }
    if i >= bytes.len() || bytes[i] != b'=' {
        return Some((name, &[], i));
    }
    i += 1;
    while i < bytes.len() && is_space(bytes[i]) {
        i += 1;
    }
    match bytes.get(i) {
        None => Some((name, &[], i)),
        Some(&q @ (b'"' | b'\'')) => {
            let start = i + 1;
            let end = bytes[start..]
                .iter()
                .position(|&b| b == q)
                .map_or(bytes.len(), |p| start + p);
            Some((name, &bytes[start..end], (end + 1).min(bytes.len())))
        }
        Some(_) => {
            let start = i;
            while i < bytes.len() && !is_space(bytes[i]) && bytes[i] != b'>' {
                i += 1;
            }
            Some((name, &bytes[start..i], i))
        }
    }
}

fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')
}

fn starts_with_ignore_case(bytes: &[u8], prefix: &[u8]) -> bool {
    bytes.len() >= prefix.len() && bytes[..prefix.len()].eq_ignore_ascii_case(prefix)
}

/// The first `needle` (not empty) in `haystack`.
pub(crate) fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// The first `needle` (not empty) in `haystack`, ASCII case ignored.
pub(crate) fn find_ignore_case(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle))
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::{GBK, KOI8_R, SHIFT_JIS, WINDOWS_1251};

    /// A page around `body`, with an optional `<meta charset>` declaration.
    fn page(body: &str, meta: Option<&str>) -> String {
        let meta = meta.map_or(String::new(), |m| format!("<meta charset=\"{m}\">"));
        format!(
            "<!DOCTYPE html><html><head>{meta}<title>t</title></head><body><p>{body}</p></body></html>"
        )
    }

    fn encode(encoding: &'static Encoding, text: &str) -> Vec<u8> {
        let (bytes, used, unmappable) = encoding.encode(text);
        assert_eq!(used, encoding);
        assert!(
            !unmappable,
            "{} cannot encode the test text",
            encoding.name()
        );
        bytes.into_owned()
    }

    fn utf16(text: &str, big_endian: bool, bom: bool) -> Vec<u8> {
        let mut out = Vec::new();
        if bom {
            out.extend_from_slice(if big_endian {
                &[0xFE, 0xFF]
            } else {
                &[0xFF, 0xFE]
            });
        }
        for unit in text.encode_utf16() {
            let b = if big_endian {
                unit.to_be_bytes()
            } else {
                unit.to_le_bytes()
            };
            out.extend_from_slice(&b);
        }
        out
    }

    /// Checks one encoding three ways: declared by meta, declared by header, and detected.
    fn round_trip(encoding: &'static Encoding, label: &str, paragraph: &str, needle: &str) {
        let with_meta = encode(encoding, &page(paragraph, Some(label)));
        let d = decode(&with_meta, None);
        assert_eq!((d.encoding, d.source), (encoding, CharsetSource::Meta));
        assert!(d.text.contains(needle));

        let bare = encode(encoding, &page(paragraph, None));
        let header = format!("text/html; charset={label}");
        let d = decode(&bare, Some(&header));
        assert_eq!((d.encoding, d.source), (encoding, CharsetSource::Header));
        assert!(d.text.contains(needle));

        // Detection may name a superset that decodes these bytes identically (KOI8-U for
        // KOI8-R): the text is what must come out right.
        let d = decode(&bare, None);
        assert_eq!(d.source, CharsetSource::Detected);
        assert!(d.text.contains(needle), "detected {}", d.encoding.name());
        assert!(!d.text.contains('\u{FFFD}'));
    }

    #[test]
    fn windows_1252() {
        let para = "Un café naïve à côté de la fenêtre, où l'été dure; le garçon déjà parti \
                    pour l'élection. Très répandu, ce problème reste entier.";
        round_trip(WINDOWS_1252, "windows-1252", para, "café naïve");
        // ISO-8859-1 is windows-1252 on the web.
        let d = decode(&encode(WINDOWS_1252, &page(para, None)), Some("ISO-8859-1"));
        assert_eq!(d.encoding, WINDOWS_1252);
        assert!(d.text.contains("café naïve"));
    }

    #[test]
    fn shift_jis() {
        let para = "日本語のテキストです。これは文字コードの判定を試すための段落で、\
                    ひらがなとカタカナと漢字が十分に含まれています。東京は晴れでした。";
        round_trip(SHIFT_JIS, "Shift_JIS", para, "日本語のテキスト");
    }

    #[test]
    fn gbk() {
        let para = "中文网页内容。这是一个用于测试字符编码检测的段落，其中包含足够多的汉字，\
                    以便检测器能够做出正确的判断。今天北京的天气很好，我们去公园散步。";
        round_trip(GBK, "gbk", para, "中文网页内容");
    }

    #[test]
    fn koi8_r() {
        let para = "Русский текст для проверки определения кодировки. Это достаточно длинный \
                    абзац, в котором много обычных русских слов, чтобы детектор не ошибся.";
        round_trip(KOI8_R, "koi8-r", para, "Русский текст");
    }

    #[test]
    fn windows_1251_with_tld_hint() {
        let para = "Русский текст для проверки определения кодировки. Это достаточно длинный \
                    абзац, в котором много обычных русских слов, чтобы детектор не ошибся.";
        let bytes = encode(WINDOWS_1251, &page(para, None));
        let d = decode_with_tld(&bytes, None, Some("ru"));
        assert_eq!(d.encoding, WINDOWS_1251);
        assert!(d.text.contains("Русский текст"));
    }

    #[test]
    fn utf16_with_bom() {
        let html = page("Русский текст, 日本語のテキスト, café", None);
        for big_endian in [false, true] {
            let d = decode(
                &utf16(&html, big_endian, true),
                Some("text/html; charset=utf-8"),
            );
            assert_eq!(d.source, CharsetSource::Bom);
            assert_eq!(d.encoding, if big_endian { UTF_16BE } else { UTF_16LE });
            assert!(d.text.starts_with("<!DOCTYPE html>"), "BOM removed");
            assert!(d.text.contains("日本語のテキスト"));
        }
    }

    #[test]
    fn utf16_without_bom() {
        let html = page("Русский текст, 日本語のテキスト, café", None);
        for big_endian in [false, true] {
            let d = decode(&utf16(&html, big_endian, false), Some("iso-8859-1"));
            assert_eq!(d.source, CharsetSource::Detected);
            assert_eq!(d.encoding, if big_endian { UTF_16BE } else { UTF_16LE });
            assert!(d.text.contains("Русский текст"));
        }
    }

    #[test]
    fn utf8_bom_and_utf8_detection() {
        let html = page("Русский текст", None);
        let mut bytes = vec![0xEF, 0xBB, 0xBF];
        bytes.extend_from_slice(html.as_bytes());
        let d = decode(&bytes, Some("windows-1252"));
        assert_eq!((d.encoding, d.source), (UTF_8, CharsetSource::Bom));
        assert_eq!(d.text, html);

        let d = decode(html.as_bytes(), None);
        assert_eq!((d.encoding, d.source), (UTF_8, CharsetSource::Detected));
        assert_eq!(d.text, html);
    }

    #[test]
    fn utf8_declared_latin1_is_utf8() {
        let html = page("It’s a café — naïve “quotes”", None);
        let d = decode(html.as_bytes(), Some("text/html; charset=ISO-8859-1"));
        assert_eq!((d.encoding, d.source), (UTF_8, CharsetSource::Detected));
        assert!(d.text.contains("It’s a café — naïve “quotes”"));

        let html = page("It’s a café", Some("iso-8859-1"));
        let d = decode(html.as_bytes(), None);
        assert_eq!((d.encoding, d.source), (UTF_8, CharsetSource::Detected));
        assert!(d.text.contains("It’s a café"));

        // A page cut inside a multi-byte sequence is still UTF-8.
        let mut cut = html.as_bytes().to_vec();
        cut.extend_from_slice(&"’".as_bytes()[..2]);
        assert_eq!(decode(&cut, Some("iso-8859-1")).encoding, UTF_8);
    }

    #[test]
    fn real_latin1_stays_latin1() {
        // Latin-1 bytes are not valid UTF-8, so the declaration stands.
        let bytes = encode(WINDOWS_1252, &page("café naïve", None));
        let d = decode(&bytes, Some("iso-8859-1"));
        assert_eq!(
            (d.encoding, d.source),
            (WINDOWS_1252, CharsetSource::Header)
        );
        // An ASCII page declared Latin-1 keeps its declaration too.
        let d = decode(page("plain", None).as_bytes(), Some("iso-8859-1"));
        assert_eq!(d.source, CharsetSource::Header);
    }

    #[test]
    fn header_beats_meta() {
        let bytes = encode(KOI8_R, &page("Русский текст", Some("windows-1251")));
        let d = decode(&bytes, Some("koi8-r"));
        assert_eq!((d.encoding, d.source), (KOI8_R, CharsetSource::Header));
        assert!(d.text.contains("Русский текст"));
    }

    #[test]
    fn header_values() {
        assert_eq!(
            charset_from_content_type("text/html; charset=\"UTF-8\""),
            Some(UTF_8)
        );
        assert_eq!(
            charset_from_content_type("text/html;Charset = iso8859_1 ; x=y"),
            Some(WINDOWS_1252)
        );
        assert_eq!(charset_from_content_type("Shift_JIS"), Some(SHIFT_JIS));
        assert_eq!(charset_from_content_type("text/html"), None);
        assert_eq!(charset_from_content_type("text/html; charset="), None);
        assert_eq!(charset_from_content_type("charset=bogus"), None);
        assert_eq!(charset_from_content_type(""), None);
        assert_eq!(charset_from_content_type("iso-2022-kr"), None);
    }

    #[test]
    fn meta_forms() {
        let cases: &[(&[u8], Option<&'static Encoding>)] = &[
            (b"<meta charset=utf-8>", Some(UTF_8)),
            (b"<META CHARSET='Shift_JIS'>", Some(SHIFT_JIS)),
            (
                b"<meta http-equiv=\"Content-Type\" content=\"text/html; charset=koi8-r\">",
                Some(KOI8_R),
            ),
            (
                b"<meta content='text/html;charset=gbk' http-equiv='content-type'>",
                Some(GBK),
            ),
            // A content charset without the http-equiv pragma declares nothing.
            (b"<meta content=\"text/html; charset=koi8-r\">", None),
            // UTF-16 in a meta means UTF-8.
            (b"<meta charset=utf-16le>", Some(UTF_8)),
            // Inside a comment or an attribute value it is not a declaration.
            (
                b"<!-- <meta charset=koi8-r> --><meta charset=gbk>",
                Some(GBK),
            ),
            (
                b"<div title='<meta charset=koi8-r>'><meta charset=gbk>",
                Some(GBK),
            ),
            (
                b"<script>x</script><meta/charset=windows-1251>",
                Some(WINDOWS_1251),
            ),
            (b"<meta name=x>", None),
            (b"<meta charset=", None),
            (b"<meta", None),
            (b"<", None),
            (b"", None),
        ];
        for (html, want) in cases {
            assert_eq!(
                prescan_meta(html),
                *want,
                "{}",
                String::from_utf8_lossy(html)
            );
        }
    }

    #[test]
    fn ascii_is_default() {
        let d = decode(b"<p>plain ascii</p>", None);
        assert_eq!(
            (d.encoding, d.source),
            (WINDOWS_1252, CharsetSource::Default)
        );
        let d = decode(b"", None);
        assert_eq!(d.text, "");
    }

    #[test]
    fn never_panics_on_odd_bytes() {
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        for len in [0usize, 1, 2, 3, 7, 64, 1000, 5000] {
            for _ in 0..20 {
                let bytes: Vec<u8> = (0..len)
                    .map(|_| {
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        (state >> 24) as u8
                    })
                    .collect();
                for declared in [None, Some("utf-16"), Some("text/html; charset=")] {
                    let _ = decode(&bytes, declared);
                    let _ = decode_with_tld(&bytes, declared, Some("XN--P1AI.."));
                }
            }
        }
        for odd in [
            &b"<meta charset=\"utf-8"[..],
            b"<!--",
            b"<meta content='charset=",
            b"\0\0\0",
        ] {
            let _ = decode(odd, None);
        }
    }
}
