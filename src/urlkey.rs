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
/// [`UrlKeyError::TooLong`]. Browsers and servers commonly stop around 8 KiB; a longer
/// "article URL" is a tracking blob or an attack, not a document address.
pub const MAX_URL_LEN: usize = 8192;

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
