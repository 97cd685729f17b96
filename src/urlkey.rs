//! URL keys: a response URL plus the feed entry's title → a nearly unique document identifier
//! and the branch of the URL Tree the document belongs to (Sluban & Grčar, CIKM 2013, §3).
//!
//! The paper's normalization has three steps. Step 1 (follow redirects) belongs to the HTTP
//! layer: this module starts from the response URL. Step 2 ([`canonicalize`]) lower-cases the
//! scheme and host, drops default ports, user information and the fragment, puts path and
//! query into one canonical percent-encoding, adds `_cid_=<hex MD5 of the title>` and sorts
//! the query parameters by name. Step 3 ([`url_key`]) applies the [`QueryRules`]: the first
//! rule whose regular expression matches decides which parameters stay; with no matching rule
//! the query is dropped.
//!
//! Canonical percent-encoding (decode everything, then encode one fixed set, upper-case hex):
//! - query names and values: `+` and `%20` both mean a space; everything except ASCII
//!   letters, digits and `- . _ ~ ! $ ' ( ) * , ; : @ / ?` is percent-encoded (so `&`, `=`,
//!   `+`, `#`, `%`, space, `"`, `<`, `>`, brackets, braces, controls and every non-ASCII
//!   byte are). A parameter with an empty value is written as its bare name (`?a` and
//!   `?a=` are the same).
//! - path segments: everything except ASCII letters, digits and
//!   `- . _ ~ ! $ & ' ( ) * + , ; = : @` is percent-encoded; `+` stays a plus sign, and an
//!   encoded slash inside a segment (`%2F`) stays encoded because it is not a separator.
//!
//! This module knows nothing of HTTP or SQL.

use std::fmt;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use md5::{Digest, Md5};
use regex::Regex;
use thiserror::Error;

/// Longest response URL (in bytes) that gets a key; longer ones are refused with
/// [`UrlKeyError::TooLong`]. Defined with the other bounds in [`crate::limits`].
pub use crate::limits::MAX_URL_LEN;

/// Name of the query parameter that carries the hex MD5 of the entry title (paper, step 2).
pub const CID_PARAM: &str = "_cid_";

/// The built-in rule list (the paper's Table 1 plus pith's few additions), in the user file format.
pub const BUILTIN_RULES_TEXT: &str = include_str!("../assets/query-rules.txt");

/// Why a rule list could not be read.
#[derive(Debug, Error)]
pub enum RuleError {
    /// A rule's regular expression does not compile.
    #[error("line {line}: bad regular expression `{pattern}`: {error}")]
    BadRegex {
        /// 1-based line number in the rule text.
        line: usize,
        /// The regular expression as written.
        pattern: String,
        /// What the regex compiler said.
        error: regex::Error,
    },
    /// A rule line has a regular expression but no parameters to keep.
    #[error(
        "line {line}: rule `{pattern}` has no parameter list (expected `REGEX  PARAM[,PARAM…]`)"
    )]
    MissingParams {
        /// 1-based line number in the rule text.
        line: usize,
        /// The regular expression as written.
        pattern: String,
    },
    /// The rule file could not be read.
    #[error("cannot read rule file {}: {error}", path.display())]
    Io {
        /// The file that was asked for.
        path: PathBuf,
        /// What the operating system said.
        error: std::io::Error,
    },
    /// The rule file was read but one of its lines is wrong.
    #[error("rule file {}: {error}", path.display())]
    InFile {
        /// The file the bad line is in.
        path: PathBuf,
        /// The error on that line.
        error: Box<RuleError>,
    },
}

/// Why a URL got no key.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum UrlKeyError {
    /// The URL is longer than [`MAX_URL_LEN`] bytes.
    #[error("URL is {len} bytes long; the limit is {max}")]
    TooLong {
        /// Length of the URL in bytes.
        len: usize,
        /// The limit, [`MAX_URL_LEN`].
        max: usize,
    },
    /// The text is not a URL at all.
    #[error("not a valid URL: {error}")]
    Invalid {
        /// What the URL parser said.
        error: url::ParseError,
    },
    /// The URL names no host (`http:///x`, `mailto:x@y`, `file:///…`).
    #[error("URL has no host")]
    NoHost,
    /// The URL's scheme is neither `http` nor `https`.
    #[error("unsupported URL scheme `{scheme}` (only http and https)")]
    UnsupportedScheme {
        /// The scheme, lower-cased.
        scheme: String,
    },
}

/// One query rule: where it applies and which query parameters it keeps.
#[derive(Debug, Clone)]
pub struct QueryRule {
    pattern: String,
    // Compiled once, anchored at the start of the match target: `^(?:pattern)`.
    anchored: Regex,
    keep: Vec<String>,
}

impl QueryRule {
    /// The regular expression as written in the rule file.
    pub fn pattern(&self) -> &str {
        &self.pattern
    }

    /// The parameter names this rule keeps (decoded, case-sensitive).
    pub fn keep(&self) -> &[String] {
        &self.keep
    }

    /// Whether this rule applies to `target`, the step-2 URL without its `scheme://`.
    pub fn matches(&self, target: &str) -> bool {
        self.anchored.is_match(target)
    }
}

/// An ordered list of query rules (paper, step 3); the first matching rule decides.
///
/// See `assets/query-rules.txt` for the text format, what a rule's regex is matched against,
/// and the built-in rules.
#[derive(Debug, Clone, Default)]
pub struct QueryRules {
    rules: Vec<QueryRule>,
}

impl QueryRules {
    /// The built-in rules (`assets/query-rules.txt`): the paper's Table 1 and pith's additions.
    ///
    /// Compiled once per process; later calls clone the compiled list (cheap: regexes share
    /// their compiled form).
    pub fn builtin() -> QueryRules {
        static BUILTIN: OnceLock<QueryRules> = OnceLock::new();
        BUILTIN
            .get_or_init(|| {
                // Cannot fail: the text is compiled into the binary and the test
                // `builtin_rule_file_parses_and_has_table_1` proves it parses.
                QueryRules::parse(BUILTIN_RULES_TEXT).expect("built-in query rules parse")
            })
            .clone()
    }

    /// Parses rules in the user file format (`REGEX  PARAM[,PARAM…]` per line, `#` comments,
    /// blank lines ignored). Errors name the 1-based line and what is wrong with it.
    pub fn parse(text: &str) -> Result<QueryRules, RuleError> {
        let mut rules = Vec::new();
        for (index, raw_line) in text.lines().enumerate() {
            let line = index + 1;
            let trimmed = raw_line.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let mut tokens = trimmed.split_whitespace();
            let Some(pattern) = tokens.next() else {
                continue;
            };
            let keep: Vec<String> = tokens
                .take_while(|token| !token.starts_with('#'))
                .flat_map(|token| token.split(','))
                .filter(|name| !name.is_empty())
                .map(str::to_owned)
                .collect();
            if keep.is_empty() {
                return Err(RuleError::MissingParams {
                    line,
                    pattern: pattern.to_owned(),
                });
            }
            let bad_regex = |error| RuleError::BadRegex {
                line,
                pattern: pattern.to_owned(),
                error,
            };
            // Validating the pattern on its own first guarantees its parentheses balance,
            // so wrapping it cannot change its meaning (`a)|(b` would otherwise escape the
            // anchor), and the error message quotes what the user wrote.
            Regex::new(pattern).map_err(bad_regex)?;
            let anchored = Regex::new(&format!("^(?:{pattern})")).map_err(bad_regex)?;
            rules.push(QueryRule {
                pattern: pattern.to_owned(),
                anchored,
                keep,
            });
        }
        Ok(QueryRules { rules })
    }

    /// Reads and parses a rule file (see [`QueryRules::parse`]).
    pub fn load_file(path: impl AsRef<Path>) -> Result<QueryRules, RuleError> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|error| RuleError::Io {
            path: path.to_owned(),
            error,
        })?;
        QueryRules::parse(&text).map_err(|error| RuleError::InFile {
            path: path.to_owned(),
            error: Box::new(error),
        })
    }

    /// Puts `user`'s rules in front of these, so that they are tried first.
    pub fn extend_front(&mut self, user: QueryRules) {
        let mut rules = user.rules;
        rules.append(&mut self.rules);
        self.rules = rules;
    }

    /// Number of rules.
    pub fn len(&self) -> usize {
        self.rules.len()
    }

    /// Whether the list has no rules (then every query is dropped).
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// The rules, in the order they are tried.
    pub fn rules(&self) -> &[QueryRule] {
        &self.rules
    }

    /// The first rule that applies to `target` (the step-2 URL without its `scheme://`).
    pub fn first_match(&self, target: &str) -> Option<&QueryRule> {
        self.rules.iter().find(|rule| rule.matches(target))
    }
}

/// A document's URL key and where it hangs in the URL Tree.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct UrlKey {
    /// The final URL key (after step 3), e.g. `http://abcnews.go.com/kabc/story?id=8691010`:
    /// the identity used for within-domain duplicate detection.
    pub key: String,
    /// `http` or `https`.
    pub scheme: String,
    /// The host, lower-cased, IDNA names in punycode, without a trailing dot or port;
    /// an IPv6 address in brackets.
    pub host: String,
    /// The port when it is not the scheme's default.
    pub port: Option<u16>,
    /// The registrable domain of the host (see [`registrable_domain`]): the URL Tree node
    /// below the root.
    pub domain: String,
    /// The path in canonical percent-encoding, starting with `/`.
    pub path: String,
    /// The query the rules kept, canonical and without the `?`; `None` when dropped.
    pub query: Option<String>,
}

impl UrlKey {
    /// The URL Tree branch below the root: the domain, the host (with `:port` when not the
    /// default), each non-empty path segment percent-decoded, then `?<query>` when a query
    /// was kept. E.g. `http://www.bbc.co.uk/news/world-15051554` →
    /// `["bbc.co.uk", "www.bbc.co.uk", "news", "world-15051554"]`.
    ///
    /// A segment that does not decode to UTF-8 stays in its canonical percent-encoded form.
    pub fn branch(&self) -> Vec<String> {
        let mut branch = vec![self.domain.clone(), self.authority()];
        branch.extend(
            self.path
                .split('/')
                .filter(|segment| !segment.is_empty())
                .map(|segment| {
                    let bytes = percent_decode(segment.as_bytes(), false);
                    String::from_utf8(bytes).unwrap_or_else(|_| segment.to_owned())
                }),
        );
        if let Some(query) = &self.query {
            branch.push(format!("?{query}"));
        }
        branch
    }

    fn authority(&self) -> String {
        match self.port {
            Some(port) => format!("{}:{port}", self.host),
            None => self.host.clone(),
        }
    }
}

impl fmt::Display for UrlKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.key)
    }
}

/// The registrable domain of a host by the public suffix list: `bbc.co.uk` for
/// `news.bbc.co.uk`, `news.eu` for `www.news.eu`. An IP address, a single-label host
/// (`localhost`) or a host that is itself a public suffix (`co.uk`) is its own domain.
///
/// The result is lower-case ASCII (IDNA labels in punycode), without a trailing dot;
/// an IPv6 address is written in brackets, as in URLs.
pub fn registrable_domain(host: &str) -> String {
    let host = host.trim();
    let host = host.strip_suffix('.').unwrap_or(host);
    if let Ok(ip) = host.parse::<IpAddr>() {
        return format_ip(ip);
    }
    match url::Host::parse(host) {
        Ok(url::Host::Domain(ascii)) => domain_of_ascii(&ascii),
        Ok(url::Host::Ipv4(ip)) => ip.to_string(),
        Ok(url::Host::Ipv6(ip)) => format!("[{ip}]"),
        // Not a valid host name (the URL parser would have refused it): look it up as it is.
        Err(_) => {
            let lower = host.to_ascii_lowercase();
            psl::domain_str(&lower).unwrap_or(&lower).to_owned()
        }
    }
}

/// Who owns a host: the first label of its registrable domain (see [`registrable_domain`]),
/// `bbc` for `www.bbc.co.uk` and for `bbc.com`, so that one publisher's sites in several
/// countries are one owner. An IP address is its own owner.
pub fn owner(host: &str) -> String {
    let domain = registrable_domain(host);
    if domain.starts_with('[') || domain.parse::<IpAddr>().is_ok() {
        return domain;
    }
    match domain.split_once('.') {
        Some((first, _)) => first.to_owned(),
        None => domain,
    }
}

fn format_ip(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => format!("[{v6}]"),
    }
}

/// Registrable domain of a lower-case ASCII (punycode) host name.
fn domain_of_ascii(ascii: &str) -> String {
    let ascii = ascii.strip_suffix('.').unwrap_or(ascii);
    // The suffix list is stored with Unicode labels, so internationalized suffixes are only
    // found in Unicode form; IDNA maps label by label, so the number of labels is the same
    // in both forms and the answer can be cut from the ASCII name.
    let unicode = url::quirks::domain_to_unicode(ascii);
    let lookup = if unicode.is_empty() { ascii } else { &unicode };
    let Some(domain) = psl::domain_str(lookup) else {
        return ascii.to_owned();
    };
    let labels = domain.split('.').count();
    let total = ascii.split('.').count();
    if labels >= total {
        return ascii.to_owned();
    }
    ascii
        .splitn(total - labels + 1, '.')
        .last()
        .unwrap_or(ascii)
        .to_owned()
}

/// Step 2 of the paper: the canonical form of `response_url`, with `_cid_=<hex MD5 of the
/// title>` added when a title is given (replacing any `_cid_` the URL already carries) and the
/// query parameters sorted by name (stably: repeated names keep their order).
///
/// E.g. `http://abcnews.go.com/kabc/story?section=news/local/los_angeles&id=8691010` without
/// a title → `http://abcnews.go.com/kabc/story?id=8691010&section=news/local/los_angeles`.
pub fn canonicalize(response_url: &str, entry_title: Option<&str>) -> Result<String, UrlKeyError> {
    let canonical = Canonical::new(response_url, entry_title)?;
    let query = (!canonical.params.is_empty()).then(|| encode_query(canonical.params.iter()));
    Ok(canonical.to_url(query.as_deref()))
}

/// Steps 2 and 3 of the paper: the URL key of the document at `response_url` (the URL after
/// redirects) whose feed entry has the title `entry_title`, normalized with `rules`.
pub fn url_key(
    response_url: &str,
    entry_title: Option<&str>,
    rules: &QueryRules,
) -> Result<UrlKey, UrlKeyError> {
    let canonical = Canonical::new(response_url, entry_title)?;
    let rule = rules.first_match(&canonical.match_target());
    let kept: Vec<&Param> = match rule {
        Some(rule) => canonical
            .params
            .iter()
            .filter(|param| rule.keep.iter().any(|name| name.as_bytes() == param.name))
            .collect(),
        None => Vec::new(),
    };
    let query = (!kept.is_empty()).then(|| encode_query(kept.iter().copied()));
    let key = canonical.to_url(query.as_deref());
    Ok(UrlKey {
        key,
        scheme: canonical.scheme.to_owned(),
        host: canonical.host,
        port: canonical.port,
        domain: canonical.domain,
        path: canonical.path,
        query,
    })
}

/// A query parameter, decoded to raw bytes (not necessarily UTF-8).
struct Param {
    name: Vec<u8>,
    value: Vec<u8>,
}

/// A URL after step 2, kept in parts.
struct Canonical {
    scheme: &'static str,
    host: String,
    port: Option<u16>,
    domain: String,
    path: String,
    params: Vec<Param>,
}

impl Canonical {
    fn new(response_url: &str, entry_title: Option<&str>) -> Result<Canonical, UrlKeyError> {
        if response_url.len() > MAX_URL_LEN {
            return Err(UrlKeyError::TooLong {
                len: response_url.len(),
                max: MAX_URL_LEN,
            });
        }
        // The URL parser strips the same characters from both ends.
        let raw = response_url.trim_matches(|c: char| c <= ' ');
        let url = url::Url::parse(raw).map_err(|error| match error {
            url::ParseError::EmptyHost => UrlKeyError::NoHost,
            error => UrlKeyError::Invalid { error },
        })?;
        if url.host().is_none() {
            return Err(UrlKeyError::NoHost);
        }
        let scheme = match url.scheme() {
            "http" => "http",
            "https" => "https",
            other => {
                return Err(UrlKeyError::UnsupportedScheme {
                    scheme: other.to_owned(),
                });
            }
        };
        // The URL standard forgives `http:///x` and `http:x` by taking `x` as the host; for
        // a document address that is a broken URL, not a page on a host called `x`.
        if !has_authority(raw) {
            return Err(UrlKeyError::NoHost);
        }
        let host = match url.host() {
            Some(url::Host::Domain(name)) => name.strip_suffix('.').unwrap_or(name).to_owned(),
            Some(url::Host::Ipv4(ip)) => ip.to_string(),
            Some(url::Host::Ipv6(ip)) => format!("[{ip}]"),
            None => return Err(UrlKeyError::NoHost),
        };
        if host.is_empty() {
            return Err(UrlKeyError::NoHost);
        }
        let domain = registrable_domain(&host);
        let path = canonical_path(url.path());

        let mut params = parse_query(url.query().unwrap_or(""));
        if let Some(title) = entry_title {
            // The title decides `_cid_`; a `_cid_` the site put in the URL must not compete.
            params.retain(|param| param.name != CID_PARAM.as_bytes());
            params.push(Param {
                name: CID_PARAM.as_bytes().to_vec(),
                value: hex_md5(title).into_bytes(),
            });
        }
        // Stable, so repeated names keep their order (`?id=2&id=1` may mean something).
        params.sort_by(|a, b| a.name.cmp(&b.name));

        Ok(Canonical {
            scheme,
            host,
            port: url.port(),
            domain,
            path,
            params,
        })
    }

    fn authority(&self) -> String {
        match self.port {
            Some(port) => format!("{}:{port}", self.host),
            None => self.host.clone(),
        }
    }

    /// What a rule's regex is matched against: the step-2 URL without `scheme://`.
    fn match_target(&self) -> String {
        let mut target = self.authority();
        target.push_str(&self.path);
        if !self.params.is_empty() {
            target.push('?');
            target.push_str(&encode_query(self.params.iter()));
        }
        target
    }

    /// `scheme://authority/path`, then `?query` when one is given.
    fn to_url(&self, query: Option<&str>) -> String {
        let mut url = format!("{}://{}{}", self.scheme, self.authority(), self.path);
        if let Some(query) = query {
            url.push('?');
            url.push_str(query);
        }
        url
    }
}

/// Whether the text after `scheme:` starts with `//` followed by a non-empty authority.
fn has_authority(raw: &str) -> bool {
    let Some((_, rest)) = raw.split_once(':') else {
        return false;
    };
    // The URL parser also takes backslashes for slashes in http(s) URLs, and drops tabs and
    // newlines anywhere.
    let mut chars = rest.chars().filter(|c| !matches!(c, '\t' | '\n' | '\r'));
    let is_slash = |c: Option<char>| matches!(c, Some('/' | '\\'));
    is_slash(chars.next())
        && is_slash(chars.next())
        && !matches!(chars.next(), None | Some('/' | '\\' | '?' | '#'))
}

fn hex_md5(text: &str) -> String {
    let digest = Md5::digest(text.as_bytes());
    const LOWER_HEX: &[u8; 16] = b"0123456789abcdef";
    let mut hex = String::with_capacity(2 * digest.len());
    for byte in digest.iter() {
        hex.push(char::from(LOWER_HEX[usize::from(byte >> 4)]));
        hex.push(char::from(LOWER_HEX[usize::from(byte & 0x0f)]));
    }
    hex
}

/// Upper-case hex digits of percent-encoding (RFC 3986 §2.1 prefers upper case).
const HEX: &[u8; 16] = b"0123456789ABCDEF";

fn parse_query(query: &str) -> Vec<Param> {
    query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            Param {
                name: percent_decode(name.as_bytes(), true),
                value: percent_decode(value.as_bytes(), true),
            }
        })
        .collect()
}

fn encode_query<'a>(params: impl Iterator<Item = &'a Param>) -> String {
    let mut query = String::new();
    for (index, param) in params.enumerate() {
        if index > 0 {
            query.push('&');
        }
        percent_encode_into(&mut query, &param.name, is_query_safe);
        if !param.value.is_empty() {
            query.push('=');
            percent_encode_into(&mut query, &param.value, is_query_safe);
        }
    }
    query
}

fn canonical_path(path: &str) -> String {
    let mut canonical = String::with_capacity(path.len());
    for (index, segment) in path.split('/').enumerate() {
        if index > 0 {
            canonical.push('/');
        }
        let decoded = percent_decode(segment.as_bytes(), false);
        percent_encode_into(&mut canonical, &decoded, is_path_safe);
    }
    if !canonical.starts_with('/') {
        canonical.insert(0, '/');
    }
    canonical
}

/// Decodes `%XX` escapes (and `+` as a space in query components). A `%` not followed by
/// two hex digits is taken literally.
fn percent_decode(input: &[u8], plus_is_space: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len());
    let mut i = 0;
    while i < input.len() {
        let byte = input[i];
        if byte == b'%'
            && let (Some(high), Some(low)) = (
                input.get(i + 1).and_then(|b| hex_value(*b)),
                input.get(i + 2).and_then(|b| hex_value(*b)),
            )
        {
            out.push(high << 4 | low);
            i += 3;
            continue;
        }
        out.push(if plus_is_space && byte == b'+' {
            b' '
        } else {
            byte
        });
        i += 1;
    }
    out
}

fn hex_value(byte: u8) -> Option<u8> {
    match byte {
        b'0'..=b'9' => Some(byte - b'0'),
        b'a'..=b'f' => Some(byte - b'a' + 10),
        b'A'..=b'F' => Some(byte - b'A' + 10),
        _ => None,
    }
}

fn percent_encode_into(out: &mut String, bytes: &[u8], is_safe: fn(u8) -> bool) {
    for &byte in bytes {
        if is_safe(byte) {
            out.push(char::from(byte));
        } else {
            out.push('%');
            out.push(char::from(HEX[usize::from(byte >> 4)]));
            out.push(char::from(HEX[usize::from(byte & 0x0f)]));
        }
    }
}

/// Bytes written literally in query names and values (see the module documentation).
fn is_query_safe(byte: u8) -> bool {
    byte.is_ascii_alphanumeric()
        || matches!(
            byte,
            b'-' | b'.'
                | b'_'
                | b'~'
                | b'!'
                | b'$'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b','
                | b';'
                | b':'
                | b'@'
                | b'/'
                | b'?'
        )
}

/// Bytes written literally in path segments (see the module documentation).
fn is_path_safe(byte: u8) -> bool {
    byte.is_ascii_alphanumeric()
        || matches!(
            byte,
            b'-' | b'.'
                | b'_'
                | b'~'
                | b'!'
                | b'$'
                | b'&'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
                | b':'
                | b'@'
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn builtin() -> QueryRules {
        QueryRules::builtin()
    }

    fn key(url: &str, title: Option<&str>) -> String {
        match url_key(url, title, &builtin()) {
            Ok(key) => key.key,
            Err(error) => panic!("{url}: {error}"),
        }
    }

    fn full(url: &str, title: Option<&str>) -> UrlKey {
        match url_key(url, title, &builtin()) {
            Ok(key) => key,
            Err(error) => panic!("{url}: {error}"),
        }
    }

    fn step2(url: &str, title: Option<&str>) -> String {
        match canonicalize(url, title) {
            Ok(canonical) => canonical,
            Err(error) => panic!("{url}: {error}"),
        }
    }

    fn strs(branch: &[&str]) -> Vec<String> {
        branch.iter().map(|s| s.to_string()).collect()
    }

    const ABC_RESPONSE: &str =
        "http://abcnews.go.com/kabc/story?section=news/local/los_angeles&id=8691010";
    const CNN_TITLE: &str = "Tropical depression forms near Honduras, Nicaragua";
    const CNN_TITLE_MD5: &str = "4beb83dd62348bb8163382516824946e";

    // ---- MD5 of the title -------------------------------------------------------------

    #[test]
    fn md5_hex_of_known_strings() {
        assert_eq!(hex_md5(""), "d41d8cd98f00b204e9800998ecf8427e");
        assert_eq!(
            hex_md5("The quick brown fox jumps over the lazy dog"),
            "9e107d9d372bb6826bd81d3542a419d6"
        );
        assert_eq!(hex_md5(CNN_TITLE), CNN_TITLE_MD5);
        // UTF-8 bytes of the title, as given.
        assert_eq!(
            hex_md5("Čestitke: Ljubljana 日本"),
            "3bb5dcd67bf2280b3bce56482dd86599"
        );
    }

    #[test]
    fn cid_is_md5_of_the_title_as_given() {
        let canonical = step2("http://example.com/a", Some(CNN_TITLE));
        assert_eq!(
            canonical,
            format!("http://example.com/a?_cid_={CNN_TITLE_MD5}")
        );
        // Not trimmed or folded: a different title is a different document.
        assert_ne!(
            step2("http://example.com/a", Some(&format!(" {CNN_TITLE}"))),
            canonical
        );
        // An empty title is still a title.
        assert_eq!(
            step2("http://example.com/a", Some("")),
            "http://example.com/a?_cid_=d41d8cd98f00b204e9800998ecf8427e"
        );
    }

    #[test]
    fn title_cid_replaces_a_cid_already_in_the_url() {
        assert_eq!(
            step2("http://example.com/a?_cid_=site&x=1", Some(CNN_TITLE)),
            format!("http://example.com/a?_cid_={CNN_TITLE_MD5}&x=1")
        );
        // Without a title the URL's own parameter is an ordinary parameter.
        assert_eq!(
            step2("http://example.com/a?x=1&_cid_=site", None),
            "http://example.com/a?_cid_=site&x=1"
        );
    }

    // ---- The paper's and the slides' examples --------------------------------------------

    #[test]
    fn paper_abcnews_example_step_2_with_title() {
        assert_eq!(
            step2(ABC_RESPONSE, Some(CNN_TITLE)),
            format!(
                "http://abcnews.go.com/kabc/story?_cid_={CNN_TITLE_MD5}&id=8691010&section=news/local/los_angeles"
            )
        );
    }

    #[test]
    fn slides_abcnews_example_step_2_without_title() {
        assert_eq!(
            step2(ABC_RESPONSE, None),
            "http://abcnews.go.com/kabc/story?id=8691010&section=news/local/los_angeles"
        );
    }

    #[test]
    fn paper_abcnews_example_step_3() {
        let expected = "http://abcnews.go.com/kabc/story?id=8691010";
        assert_eq!(key(ABC_RESPONSE, Some(CNN_TITLE)), expected);
        assert_eq!(key(ABC_RESPONSE, None), expected);
        let full = full(ABC_RESPONSE, Some(CNN_TITLE));
        assert_eq!(full.domain, "go.com");
        assert_eq!(full.host, "abcnews.go.com");
        assert_eq!(full.query.as_deref(), Some("id=8691010"));
        assert_eq!(
            full.branch(),
            strs(&["go.com", "abcnews.go.com", "kabc", "story", "?id=8691010"])
        );
        assert_eq!(full.to_string(), expected);
    }

    #[test]
    fn paper_google_news_request_url_is_not_the_document() {
        // Step 1 (redirects) is the HTTP layer's job; keyed as it is, the request URL is a
        // google.com page whose query no rule keeps.
        let request = "http://news.google.com/news/url?sa=t&fd=R&usg=AFQjCNHEIIAoeLGPfbkX6IdaQ2xoYptq-w&url=http://abcnews.go.com/kabc/story?section%3Dnews/local/los_angeles%26id%3D8691010";
        assert_eq!(
            step2(request, None),
            "http://news.google.com/news/url?fd=R&sa=t&url=http://abcnews.go.com/kabc/story?section%3Dnews/local/los_angeles%26id%3D8691010&usg=AFQjCNHEIIAoeLGPfbkX6IdaQ2xoYptq-w"
        );
        let full = full(request, None);
        assert_eq!(full.key, "http://news.google.com/news/url");
        assert_eq!(full.domain, "google.com");
    }

    #[test]
    fn paper_ft_example_drops_its_query() {
        let full = full(
            "http://www.ft.com/world/2013/02/news.html?feed=3",
            Some("x"),
        );
        assert_eq!(full.key, "http://www.ft.com/world/2013/02/news.html");
        assert_eq!(full.query, None);
        assert_eq!(full.domain, "ft.com");
        assert_eq!(
            full.branch(),
            strs(&["ft.com", "www.ft.com", "world", "2013", "02", "news.html"])
        );
    }

    #[test]
    fn paper_news_eu_example_domain() {
        let full = full("http://www.news.eu/politics/europe/article1.html", None);
        assert_eq!(full.domain, "news.eu");
        assert_eq!(full.key, "http://www.news.eu/politics/europe/article1.html");
        assert_eq!(
            full.branch(),
            strs(&[
                "news.eu",
                "www.news.eu",
                "politics",
                "europe",
                "article1.html"
            ])
        );
    }

    #[test]
    fn paper_bbc_and_reuters_examples() {
        let feeds = full("http://www.bbc.co.uk/news/10628494", None);
        assert_eq!(feeds.domain, "bbc.co.uk");
        assert_eq!(
            feeds.branch(),
            strs(&["bbc.co.uk", "www.bbc.co.uk", "news", "10628494"])
        );
        let site = full("http://www.bbc.co.uk", None);
        assert_eq!(site.key, "http://www.bbc.co.uk/");
        assert_eq!(site.branch(), strs(&["bbc.co.uk", "www.bbc.co.uk"]));
        let reuters = full("http://www.reuters.com", None);
        assert_eq!(reuters.key, "http://www.reuters.com/");
        assert_eq!(reuters.domain, "reuters.com");
        assert_eq!(reuters.branch(), strs(&["reuters.com", "www.reuters.com"]));
    }

    #[test]
    fn brief_and_slides_bbc_article_branches() {
        assert_eq!(
            full("http://www.bbc.co.uk/news/world-15051554", None).branch(),
            strs(&["bbc.co.uk", "www.bbc.co.uk", "news", "world-15051554"])
        );
        // The article on the slides (its page is shown there).
        let article = full("http://www.bbc.co.uk/news/world-us-canada-15051554", None);
        assert_eq!(
            article.key,
            "http://www.bbc.co.uk/news/world-us-canada-15051554"
        );
        assert_eq!(
            article.branch(),
            strs(&[
                "bbc.co.uk",
                "www.bbc.co.uk",
                "news",
                "world-us-canada-15051554"
            ])
        );
    }

    #[test]
    fn dataset_page_cnn_example() {
        // The dataset page's sample document: response URL with feedburner tracking.
        let response = "http://edition.cnn.com/2011/10/23/world/americas/tropical-weather/index.html?eref=edition_americas&utm_source=feedburner&utm_medium=feed&utm_campaign=Feed:+rss/edition_americas+(RSS:+Americas)";
        assert_eq!(
            step2(response, Some(CNN_TITLE)),
            format!(
                "http://edition.cnn.com/2011/10/23/world/americas/tropical-weather/index.html?_cid_={CNN_TITLE_MD5}&eref=edition_americas&utm_campaign=Feed:%20rss/edition_americas%20(RSS:%20Americas)&utm_medium=feed&utm_source=feedburner"
            )
        );
        let full = full(response, Some(CNN_TITLE));
        assert_eq!(
            full.key,
            "http://edition.cnn.com/2011/10/23/world/americas/tropical-weather/index.html"
        );
        assert_eq!(full.domain, "cnn.com"); // the dataset's `domainName`
    }

    // ---- Table 1, one rule at a time ---------------------------------------------------

    /// Asserts the key of `url` (with a title) keeps exactly `kept` as its query.
    fn assert_keeps(url: &str, kept: Option<&str>) {
        let full = full(url, Some(CNN_TITLE));
        assert_eq!(full.query.as_deref(), kept, "{url}");
    }

    #[test]
    fn table1_abcnews_keeps_id() {
        assert_keeps(
            "http://abcnews.go.com/International/wireStory?section=news/international&id=14794711&ref=rss",
            Some("id=14794711"),
        );
        // Any page on the host: without an id the query goes.
        assert_keeps("http://abcnews.go.com/Politics/?ref=rss", None);
    }

    #[test]
    fn table1_fitchratings_keeps_pr_id() {
        assert_keeps(
            "http://www.fitchratings.com/creditdesk/press_releases/detail.cfm?pr_id=731190&cm_sp=homepage-_-FeaturedContent-_-Press",
            Some("pr_id=731190"),
        );
    }

    #[test]
    fn table1_chinadaily_bbs_keeps_tid() {
        let full = full(
            "http://bbs.chinadaily.com.cn/viewthread.php?tid=712345&extra=page%3D1",
            None,
        );
        assert_eq!(
            full.key,
            "http://bbs.chinadaily.com.cn/viewthread.php?tid=712345"
        );
        assert_eq!(full.domain, "chinadaily.com.cn");
    }

    #[test]
    fn table1_hurriyetdailynews_keeps_n() {
        assert_keeps(
            "http://www.hurriyetdailynews.com/n.php?n=turkey-quake-death-toll-rises-2011-10-24&utm_source=rss",
            Some("n=turkey-quake-death-toll-rises-2011-10-24"),
        );
    }

    #[test]
    fn table1_golfcanada_keeps_article_id() {
        assert_keeps(
            "http://globeandmail.golfcanada.ca/news/article.aspx?pageNum=1&articleId=2345&cid=rss",
            Some("articleId=2345"),
        );
        // Names are case-sensitive: `articleid` is another parameter.
        assert_keeps(
            "http://globeandmail.golfcanada.ca/news/story?articleid=2345",
            None,
        );
    }

    #[test]
    fn table1_podcast_ft_keeps_pid() {
        assert_keeps(
            "http://podcast.ft.com/index.php?pid=1234&ftcamp=rss",
            Some("pid=1234"),
        );
        // Only on index.php.
        assert_keeps("http://podcast.ft.com/player.html?pid=1234", None);
    }

    #[test]
    fn table1_aljazeera_keeps_cid() {
        let url =
            "http://www.aljazeera.com/news/africa/2011/10/2011102412345678.html?utm_source=rss";
        assert_eq!(
            key(url, Some(CNN_TITLE)),
            format!(
                "http://www.aljazeera.com/news/africa/2011/10/2011102412345678.html?_cid_={CNN_TITLE_MD5}"
            )
        );
        // No title, no `_cid_`: the query goes.
        assert_eq!(
            key(url, None),
            "http://www.aljazeera.com/news/africa/2011/10/2011102412345678.html"
        );
        assert_eq!(
            key("http://www.aljazeera.com", Some(CNN_TITLE)),
            format!("http://www.aljazeera.com/?_cid_={CNN_TITLE_MD5}")
        );
        // A host that only starts with the same name is not Al Jazeera.
        assert_keeps("http://www.aljazeera.com.example.org/a?x=1", None);
    }

    #[test]
    fn table1_dailymail_home_keeps_cid() {
        assert_eq!(
            key(
                "http://www.dailymail.co.uk/home/index.html?ito=feeds-newsxml",
                Some(CNN_TITLE)
            ),
            format!("http://www.dailymail.co.uk/home/index.html?_cid_={CNN_TITLE_MD5}")
        );
        // Articles have their own URLs: no `_cid_`.
        assert_eq!(
            key(
                "http://www.dailymail.co.uk/news/article-2052123/Gaddafi-buried.html?ito=feeds-newsxml",
                Some(CNN_TITLE)
            ),
            "http://www.dailymail.co.uk/news/article-2052123/Gaddafi-buried.html"
        );
    }

    #[test]
    fn table1_foxnews_on_air_keeps_cid() {
        assert_keeps(
            "http://www.foxnews.com/on-air/hannity/index.html?intcmp=rss",
            Some(&format!("_cid_={CNN_TITLE_MD5}")),
        );
        assert_keeps(
            "http://www.foxnews.com/on-air/on-the-record/2011/10/24/index.html",
            Some(&format!("_cid_={CNN_TITLE_MD5}")),
        );
        assert_keeps(
            "http://www.foxnews.com/politics/2011/10/24/story.html?intcmp=rss",
            None,
        );
    }

    #[test]
    fn cid_is_dropped_where_no_rule_keeps_it() {
        assert_keeps(ABC_RESPONSE, Some("id=8691010"));
        assert_keeps("http://www.example.com/a/b.html?x=1", None);
        assert_eq!(
            key("http://www.example.com/a/b.html", Some(CNN_TITLE)),
            "http://www.example.com/a/b.html"
        );
    }

    // ---- pith's added rules ------------------------------------------------------------

    #[test]
    fn added_youtube_keeps_video_id() {
        assert_keeps(
            "https://www.youtube.com/watch?v=dQw4w9WgXcQ&feature=youtu.be&t=42",
            Some("v=dQw4w9WgXcQ"),
        );
        assert_keeps("https://m.youtube.com/watch?list=PL1&v=abc", Some("v=abc"));
    }

    #[test]
    fn added_hacker_news_keeps_item_id() {
        assert_keeps(
            "https://news.ycombinator.com/item?id=38000000&utm_source=rss",
            Some("id=38000000"),
        );
    }

    #[test]
    fn added_wordpress_plain_permalinks() {
        assert_keeps(
            "https://blog.example.org/?p=123&utm_source=rss",
            Some("p=123"),
        );
        assert_keeps("https://example.org/blog/?p=7", Some("p=7"));
        assert_keeps("https://example.org/index.php?p=7&foo=bar", Some("p=7"));
        assert_keeps("https://example.org/?page_id=45", Some("page_id=45"));
        // Not an id: not a WordPress post.
        assert_keeps("https://example.org/?p=latest", None);
        assert_keeps("https://example.org/?s=search+terms", None);
    }

    #[test]
    fn added_forum_rules_drop_session_ids() {
        assert_keeps(
            "https://forum.example.net/viewtopic.php?f=2&t=123&p=456&sid=0123456789abcdef#p456",
            Some("p=456&t=123"),
        );
        assert_keeps(
            "https://forum.example.net/forums/showthread.php?t=99&s=deadbeef",
            Some("t=99"),
        );
        assert_keeps(
            "https://bbs.example.cn/viewthread.php?tid=5&extra=page%3D1",
            Some("tid=5"),
        );
    }

    #[test]
    fn added_script_id_rule() {
        assert_keeps(
            "http://www.example.co.za/story.php?id=31337&from=rss",
            Some("id=31337"),
        );
        assert_keeps(
            "http://news.example.com/news.asp?cat=3&id=17&sessionid=abc",
            Some("id=17"),
        );
        assert_keeps(
            "http://example.com/Article.aspx?ArticleID=99&sid=x&aid=partner",
            Some("ArticleID=99"),
        );
        // Static pages are not covered.
        assert_keeps("http://example.com/story.html?id=1", None);
    }

    #[test]
    fn rules_are_anchored_at_the_host() {
        // `abcnews\.go\.com` must not fire because the name appears in the query.
        assert_keeps("http://example.com/share?id=1&u=abcnews.go.com", None);
        // …nor on another host that merely contains it.
        assert_keeps("http://notabcnews.go.com/story?id=1", None);
    }

    // ---- Canonical form ----------------------------------------------------------------

    #[test]
    fn parameter_order_does_not_matter() {
        assert_eq!(
            step2("http://example.com/a?b=2&a=1&c=3", None),
            step2("http://example.com/a?c=3&a=1&b=2", None)
        );
        assert_eq!(
            step2("http://example.com/a?c=3&a=1&b=2", None),
            "http://example.com/a?a=1&b=2&c=3"
        );
        assert_eq!(
            key(
                "http://abcnews.go.com/kabc/story?id=8691010&section=news/local/los_angeles",
                None
            ),
            key(ABC_RESPONSE, None)
        );
    }

    #[test]
    fn repeated_names_keep_their_order() {
        assert_eq!(
            step2("http://example.com/a?id=2&b=1&id=1", None),
            "http://example.com/a?b=1&id=2&id=1"
        );
    }

    #[test]
    fn percent_encoding_variants_are_one_form() {
        let forms = [
            "http://example.com/a?q=A%20b&x=caf%C3%A9",
            "http://example.com/a?q=%41+b&x=caf%c3%a9",
            "http://example.com/a?x=café&q=A b",
            "http://example.com/a?%71=%41%20%62&%78=caf%C3%A9",
        ];
        for form in forms {
            assert_eq!(
                step2(form, None),
                "http://example.com/a?q=A%20b&x=caf%C3%A9",
                "{form}"
            );
        }
    }

    #[test]
    fn reserved_characters_in_values_stay_encoded() {
        assert_eq!(
            step2(
                "http://example.com/a?q=%26%3D%2B%23%25%22%3C%3E&r=/:@?!$'()*,;-._~",
                None
            ),
            "http://example.com/a?q=%26%3D%2B%23%25%22%3C%3E&r=/:@?!$'()*,;-._~"
        );
        // A stray `%` is a literal percent sign.
        assert_eq!(
            step2("http://example.com/a?q=100%&r=%zz", None),
            "http://example.com/a?q=100%25&r=%25zz"
        );
    }

    #[test]
    fn empty_values_and_empty_pairs() {
        assert_eq!(
            step2("http://example.com/a?b=&a&&c=1&", None),
            "http://example.com/a?a&b&c=1"
        );
        assert_eq!(step2("http://example.com/a?", None), "http://example.com/a");
    }

    #[test]
    fn path_encoding_variants_are_one_form() {
        let a = step2("http://example.com/%7Euser/caf%c3%a9/a+b", None);
        let b = step2("http://example.com/~user/café/a+b", None);
        assert_eq!(a, b);
        assert_eq!(a, "http://example.com/~user/caf%C3%A9/a+b");
        // An encoded slash is not a separator and stays encoded.
        assert_eq!(
            step2("http://example.com/a%2fb/c", None),
            "http://example.com/a%2Fb/c"
        );
    }

    #[test]
    fn fragment_is_dropped() {
        assert_eq!(
            key("http://example.com/a.html#comments", None),
            "http://example.com/a.html"
        );
        assert_eq!(
            key("http://news.ycombinator.com/item?id=1#reply", None),
            "http://news.ycombinator.com/item?id=1"
        );
    }

    #[test]
    fn scheme_and_host_are_lower_cased_path_is_not() {
        let full = full("HTTP://WWW.BBC.CO.UK/News/World-15051554", None);
        assert_eq!(full.key, "http://www.bbc.co.uk/News/World-15051554");
        assert_eq!(full.scheme, "http");
        assert_eq!(full.host, "www.bbc.co.uk");
        assert_eq!(full.domain, "bbc.co.uk");
    }

    #[test]
    fn default_ports_are_dropped_others_kept() {
        assert_eq!(key("http://example.com:80/a", None), "http://example.com/a");
        assert_eq!(
            key("https://example.com:443/a", None),
            "https://example.com/a"
        );
        let other = full("http://example.com:8080/a/", None);
        assert_eq!(other.key, "http://example.com:8080/a/");
        assert_eq!(other.port, Some(8080));
        assert_eq!(other.host, "example.com");
        assert_eq!(
            other.branch(),
            strs(&["example.com", "example.com:8080", "a"])
        );
        // Rules see `host:port/…`: one written as `host/path` does not fire on another port.
        assert_keeps("http://podcast.ft.com/index.php?pid=1", Some("pid=1"));
        assert_keeps("http://podcast.ft.com:8080/index.php?pid=1", None);
    }

    #[test]
    fn user_info_and_trailing_dot_are_dropped() {
        assert_eq!(
            key("http://user:secret@www.example.com./a", None),
            "http://www.example.com/a"
        );
    }

    #[test]
    fn idna_host_becomes_punycode() {
        let full = full("http://www.Bücher.de/Straße", None);
        assert_eq!(full.host, "www.xn--bcher-kva.de");
        assert_eq!(full.domain, "xn--bcher-kva.de");
        assert_eq!(full.key, "http://www.xn--bcher-kva.de/Stra%C3%9Fe");
        assert_eq!(
            full.branch(),
            strs(&["xn--bcher-kva.de", "www.xn--bcher-kva.de", "Straße"])
        );
    }

    #[test]
    fn leading_and_trailing_space_is_ignored() {
        assert_eq!(
            key("  http://example.com/a \n", None),
            "http://example.com/a"
        );
    }

    // ---- Domains -----------------------------------------------------------------------

    #[test]
    fn registrable_domains() {
        assert_eq!(registrable_domain("news.bbc.co.uk"), "bbc.co.uk");
        assert_eq!(registrable_domain("www.bbc.co.uk"), "bbc.co.uk");
        assert_eq!(registrable_domain("www.news.eu"), "news.eu");
        assert_eq!(registrable_domain("bbc.co.uk"), "bbc.co.uk");
        assert_eq!(registrable_domain("WWW.BBC.CO.UK."), "bbc.co.uk");
        assert_eq!(registrable_domain("a.b.c.example.com"), "example.com");
        // A public suffix is its own domain.
        assert_eq!(registrable_domain("co.uk"), "co.uk");
        assert_eq!(registrable_domain("com"), "com");
        // Private-section suffixes: each blog is its own site.
        assert_eq!(registrable_domain("foo.blogspot.com"), "foo.blogspot.com");
        // Single labels and addresses.
        assert_eq!(registrable_domain("localhost"), "localhost");
        assert_eq!(registrable_domain("127.0.0.1"), "127.0.0.1");
        assert_eq!(registrable_domain("[::1]"), "[::1]");
        assert_eq!(registrable_domain("::1"), "[::1]");
        // Unknown top-level domains count as one-label suffixes.
        assert_eq!(
            registrable_domain("www.example.internal"),
            "example.internal"
        );
        assert_eq!(registrable_domain(""), "");
    }

    #[test]
    fn owners_are_the_registrable_domains_first_label() {
        // One publisher's sites in several countries have one owner.
        assert_eq!(owner("www.bbc.co.uk"), "bbc");
        assert_eq!(owner("bbc.com"), "bbc");
        assert_eq!(owner("news.BBC.co.uk."), "bbc");
        assert_eq!(owner("github.com"), "github");
        assert_ne!(owner("lemmy.ml"), owner("github.com"));
        // Each blog of a blog host is its own owner.
        assert_eq!(owner("foo.blogspot.com"), "foo");
        assert_ne!(owner("foo.blogspot.com"), owner("bar.blogspot.com"));
        assert_eq!(owner("localhost"), "localhost");
        assert_eq!(owner("127.0.0.1"), "127.0.0.1");
        assert_eq!(owner("[::1]"), "[::1]");
        assert_eq!(owner(""), "");
    }

    #[test]
    fn registrable_domain_of_internationalized_suffix() {
        // `個人.香港` is a two-label public suffix listed in Unicode only.
        let host = url::quirks::domain_to_ascii("www.example.個人.香港");
        let expected = url::quirks::domain_to_ascii("example.個人.香港");
        assert!(host.starts_with("www.example.xn--"), "{host}");
        assert_eq!(registrable_domain(&host), expected);
        assert_eq!(registrable_domain("www.example.個人.香港"), expected);
    }

    #[test]
    fn ip_hosts_are_their_own_domain() {
        let v4 = full("http://192.168.1.20:8000/feed/item?id=3", None);
        assert_eq!(v4.domain, "192.168.1.20");
        assert_eq!(v4.key, "http://192.168.1.20:8000/feed/item");
        let v6 = full("http://[2001:DB8::1]/a", None);
        assert_eq!(v6.host, "[2001:db8::1]");
        assert_eq!(v6.domain, "[2001:db8::1]");
        assert_eq!(v6.key, "http://[2001:db8::1]/a");
        assert_eq!(full("http://localhost/a", None).domain, "localhost");
    }

    // ---- Branches ----------------------------------------------------------------------

    #[test]
    fn branch_without_path() {
        assert_eq!(
            full("https://example.com", None).branch(),
            strs(&["example.com", "example.com"])
        );
    }

    #[test]
    fn branch_with_trailing_slash() {
        let full = full("https://www.example.com/news/", None);
        assert_eq!(full.key, "https://www.example.com/news/");
        assert_eq!(
            full.branch(),
            strs(&["example.com", "www.example.com", "news"])
        );
        // Empty segments never become nodes.
        assert_eq!(
            super::tests::full("https://www.example.com//news//a", None).branch(),
            strs(&["example.com", "www.example.com", "news", "a"])
        );
    }

    #[test]
    fn branch_with_kept_query() {
        assert_eq!(
            full("https://www.youtube.com/watch?v=abc&feature=share", None).branch(),
            strs(&["youtube.com", "www.youtube.com", "watch", "?v=abc"])
        );
    }

    #[test]
    fn branch_segments_are_decoded() {
        assert_eq!(
            full("http://example.com/caf%C3%A9/a%2Fb/100%25", None).branch(),
            strs(&["example.com", "example.com", "café", "a/b", "100%"])
        );
        // Not UTF-8: the canonical encoded form.
        assert_eq!(
            full("http://example.com/%FF%fe", None).branch(),
            strs(&["example.com", "example.com", "%FF%FE"])
        );
    }

    // ---- Errors ------------------------------------------------------------------------

    fn error(url: &str) -> UrlKeyError {
        match url_key(url, Some("t"), &builtin()) {
            Ok(key) => panic!("{url} gave {key}"),
            Err(error) => error,
        }
    }

    #[test]
    fn urls_without_host_are_refused() {
        for url in [
            "http:///x",
            "https:///",
            "http://",
            "http:example.com/a",
            "http:/example.com/a",
            "http://?q=1",
            "http://#x",
            "mailto:x@y",
            "file:///etc/passwd",
            "javascript:alert(1)",
        ] {
            assert_eq!(error(url), UrlKeyError::NoHost, "{url}");
        }
    }

    #[test]
    fn other_schemes_are_refused() {
        assert_eq!(
            error("ftp://ftp.example.com/pub/file.txt"),
            UrlKeyError::UnsupportedScheme {
                scheme: "ftp".to_owned()
            }
        );
        assert_eq!(
            error("WS://example.com/socket"),
            UrlKeyError::UnsupportedScheme {
                scheme: "ws".to_owned()
            }
        );
    }

    #[test]
    fn garbage_is_refused() {
        for url in [
            "",
            "   ",
            "not a url",
            "/relative/path",
            "example.com/a",
            "http://exa mple.com/",
        ] {
            assert!(
                matches!(error(url), UrlKeyError::Invalid { .. }),
                "{url}: {:?}",
                error(url)
            );
        }
        assert!(matches!(error("http://[::1/"), UrlKeyError::Invalid { .. }));
        assert!(matches!(
            error("http://example.com:99999/"),
            UrlKeyError::Invalid { .. }
        ));
    }

    #[test]
    fn over_long_urls_are_refused() {
        let prefix = "http://example.com/";
        let at_limit = format!("{prefix}{}", "a".repeat(MAX_URL_LEN - prefix.len()));
        assert_eq!(at_limit.len(), MAX_URL_LEN);
        assert!(url_key(&at_limit, None, &builtin()).is_ok());
        let over = format!("{at_limit}a");
        assert_eq!(
            error(&over),
            UrlKeyError::TooLong {
                len: MAX_URL_LEN + 1,
                max: MAX_URL_LEN
            }
        );
        assert!(error(&over).to_string().contains("8192"));
        assert!(canonicalize(&over, None).is_err());
    }

    #[test]
    fn odd_inputs_never_panic() {
        let odd = [
            "http://a/%",
            "http://a/%%%%",
            "http://a/?%",
            "http://a/?=",
            "http://a/?==&&==",
            "http://a/?%FF=%FE",
            "http://a/?a=%00%01%7F",
            "http://a/\u{0}",
            "http://a/😀?😀=😀#😀",
            "http://😀.com/",
            "http://xn--/",
            "http://a..b/",
            "http://.../",
            "http://a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z/",
            "https://1.2.3.4.5/",
            "http://0x7f.1/",
            "http://[::ffff:1.2.3.4]/",
            "http:\\\\example.com\\a\\b",
            "http://example.com:/a",
            "http://@example.com/",
            "\u{feff}http://example.com/",
        ];
        for url in odd {
            if let Ok(key) = url_key(url, Some("t"), &builtin()) {
                assert!(key.key.starts_with("http"), "{url} → {}", key.key);
                assert!(!key.branch().is_empty());
            }
            let _ = canonicalize(url, None);
        }
    }

    // ---- Rule file format --------------------------------------------------------------

    #[test]
    fn builtin_rule_file_parses_and_has_table_1() {
        let rules = match QueryRules::parse(BUILTIN_RULES_TEXT) {
            Ok(rules) => rules,
            Err(error) => panic!("built-in rules: {error}"),
        };
        assert!(rules.len() >= 9);
        let table1: Vec<(&str, &str)> = rules
            .rules()
            .iter()
            .take(9)
            .map(|rule| (rule.pattern(), rule.keep()[0].as_str()))
            .collect();
        assert_eq!(
            table1,
            vec![
                (r"abcnews\.go\.com", "id"),
                (r"www\.fitchratings\.com.*?/detail\.cfm", "pr_id"),
                (r"bbs\.chinadaily\.com\.cn/viewthread\.php", "tid"),
                (r"www\.hurriyetdailynews\.com/n\.php", "n"),
                (r"globeandmail\.golfcanada\.ca", "articleId"),
                (r"podcast\.ft\.com/index\.php", "pid"),
                (r"www\.aljazeera\.com(/.*)?$", "_cid_"),
                (r"www\.dailymail\.co\.uk/home/index\.html", "_cid_"),
                (r"www\.foxnews\.com/on-air.*?/index\.html", "_cid_"),
            ]
        );
        assert!(
            rules
                .rules()
                .iter()
                .take(9)
                .all(|rule| rule.keep().len() == 1)
        );
        assert_eq!(QueryRules::builtin().len(), rules.len());
    }

    #[test]
    fn user_format_comments_blank_lines_and_lists() {
        let text = "# my rules\n\
                    \n\
                    \t  # indented comment\n\
                    example\\.com/a   one\n\
                    example\\.com/b\ttwo,three   # trailing comment\n\
                    example\\.com/c   four, five\n";
        let rules = match QueryRules::parse(text) {
            Ok(rules) => rules,
            Err(error) => panic!("{error}"),
        };
        assert_eq!(rules.len(), 3);
        assert!(!rules.is_empty());
        assert_eq!(rules.rules()[0].keep(), ["one"]);
        assert_eq!(rules.rules()[1].keep(), ["two", "three"]);
        assert_eq!(rules.rules()[2].keep(), ["four", "five"]);
        assert_eq!(rules.rules()[1].pattern(), r"example\.com/b");
        let key = match url_key("http://example.com/b?three=3&two=2&x=1", None, &rules) {
            Ok(key) => key.key,
            Err(error) => panic!("{error}"),
        };
        assert_eq!(key, "http://example.com/b?three=3&two=2");
        assert!(QueryRules::parse("").is_ok_and(|rules| rules.is_empty()));
    }

    #[test]
    fn bad_regex_is_reported_with_its_line() {
        let text = "# header\n\nfine\\.com  id\nbroken(\\.com  id\n";
        match QueryRules::parse(text) {
            Err(RuleError::BadRegex { line, pattern, .. }) => {
                assert_eq!(line, 4);
                assert_eq!(pattern, r"broken(\.com");
            }
            other => panic!("expected a bad regex error, got {other:?}"),
        }
        let message = QueryRules::parse(text).map(|_| ()).unwrap_err().to_string();
        assert!(
            message.starts_with("line 4: bad regular expression"),
            "{message}"
        );
        // A pattern that would escape the anchor once wrapped is refused on its own.
        assert!(matches!(
            QueryRules::parse("a)|(b  id"),
            Err(RuleError::BadRegex { line: 1, .. })
        ));
    }

    #[test]
    fn missing_parameter_list_is_reported_with_its_line() {
        for text in [
            "ok\\.com id\n  lonely\\.com  \n",
            "ok\\.com id\nlonely\\.com # no params\n",
            "ok\\.com id\nlonely\\.com ,\n",
        ] {
            match QueryRules::parse(text) {
                Err(RuleError::MissingParams { line, pattern }) => {
                    assert_eq!(line, 2, "{text}");
                    assert_eq!(pattern, r"lonely\.com");
                }
                other => panic!("{text}: expected missing params, got {other:?}"),
            }
        }
        let message = QueryRules::parse("x  ")
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(
            message.contains("line 1") && message.contains("no parameter list"),
            "{message}"
        );
    }

    #[test]
    fn user_rules_are_tried_before_builtins() {
        let mut rules = QueryRules::builtin();
        let builtin_len = rules.len();
        let user = match QueryRules::parse("abcnews\\.go\\.com/kabc  section\n") {
            Ok(user) => user,
            Err(error) => panic!("{error}"),
        };
        rules.extend_front(user);
        assert_eq!(rules.len(), builtin_len + 1);
        assert_eq!(rules.rules()[0].pattern(), r"abcnews\.go\.com/kabc");
        let key = match url_key(ABC_RESPONSE, None, &rules) {
            Ok(key) => key.key,
            Err(error) => panic!("{error}"),
        };
        assert_eq!(
            key,
            "http://abcnews.go.com/kabc/story?section=news/local/los_angeles"
        );
        // Elsewhere on the host the built-in rule still applies.
        let other = match url_key(
            "http://abcnews.go.com/US/story?id=5&section=x",
            None,
            &rules,
        ) {
            Ok(key) => key.key,
            Err(error) => panic!("{error}"),
        };
        assert_eq!(other, "http://abcnews.go.com/US/story?id=5");
    }

    #[test]
    fn empty_rule_list_drops_every_query() {
        let none = QueryRules::default();
        let key = match url_key(ABC_RESPONSE, Some("t"), &none) {
            Ok(key) => key.key,
            Err(error) => panic!("{error}"),
        };
        assert_eq!(key, "http://abcnews.go.com/kabc/story");
    }

    #[test]
    fn load_file_reads_and_reports_errors_with_the_path() {
        let dir = match tempfile::tempdir() {
            Ok(dir) => dir,
            Err(error) => panic!("{error}"),
        };
        let good = dir.path().join("rules.txt");
        let bad = dir.path().join("bad.txt");
        if let Err(error) = std::fs::write(&good, "# mine\nexample\\.org/item  itemid\n")
            .and_then(|()| std::fs::write(&bad, "\n\nexample\\.org/[  itemid\n"))
        {
            panic!("{error}");
        }
        let rules = match QueryRules::load_file(&good) {
            Ok(rules) => rules,
            Err(error) => panic!("{error}"),
        };
        assert_eq!(rules.len(), 1);
        match QueryRules::load_file(&bad) {
            Err(RuleError::InFile { path, error }) => {
                assert_eq!(path, bad);
                assert!(matches!(*error, RuleError::BadRegex { line: 3, .. }));
            }
            other => panic!("expected an error in the file, got {other:?}"),
        }
        let missing = dir.path().join("missing.txt");
        match QueryRules::load_file(&missing) {
            Err(error @ RuleError::Io { .. }) => {
                assert!(error.to_string().contains("missing.txt"));
            }
            other => panic!("expected an I/O error, got {other:?}"),
        }
    }
}
