//! The HTTP client: bounded bodies, redirects followed by hand (so that every hop is checked and the
//! response URL is known), conditional GET, and every request started only when its host's
//! politeness allows ([`crate::politeness`] holds the rules). Knows nothing of SQL.

use std::io::Read;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime};

use url::Url;

use crate::limits;
use crate::politeness::{HostBook, Start};

/// The User-Agent pith sends: its name, version and where it comes from, so that a site owner can
/// tell what is asking.
pub const USER_AGENT: &str = concat!(
    "pith/",
    env!("CARGO_PKG_VERSION"),
    " (feed reader; +https://github.com/pith-reader/pith)"
);

/// How the client behaves; [`FetchConfig::default`] gives the limits of [`crate::limits`].
#[derive(Debug, Clone)]
pub struct FetchConfig {
    /// Sent with every request.
    pub user_agent: String,
    /// Time to establish a connection.
    pub connect_timeout: Duration,
    /// Time for one whole request (one redirect hop), connection to last body byte.
    pub request_timeout: Duration,
    /// Redirects followed before giving up.
    pub max_redirects: u32,
    /// Concurrent connections to one host.
    pub per_host_connections: usize,
    /// Pause between the starts of two requests to one host.
    pub host_delay: Duration,
    /// The longest Retry-After waited out (once) before failing the fetch.
    pub max_retry_wait: Duration,
    /// Refuse every host but the loopback address (tests and benchmarks: their fixture pages
    /// name real sites, and no test request may leave the machine).
    pub loopback_only: bool,
}

impl Default for FetchConfig {
    fn default() -> Self {
        FetchConfig {
            user_agent: USER_AGENT.to_string(),
            connect_timeout: Duration::from_secs(limits::CONNECT_TIMEOUT_SECS),
            request_timeout: Duration::from_secs(limits::REQUEST_TIMEOUT_SECS),
            max_redirects: limits::MAX_REDIRECTS,
            per_host_connections: limits::MAX_CONNECTIONS_PER_HOST,
            host_delay: Duration::from_millis(limits::HOST_DELAY_MILLIS),
            max_retry_wait: Duration::from_secs(limits::MAX_RETRY_AFTER_WAIT_SECS),
            loopback_only: false,
        }
    }
}

/// One GET to make.
#[derive(Debug, Clone, Default)]
pub struct Request<'a> {
    /// The URL (http or https).
    pub url: &'a str,
    /// The largest body accepted, after decompression.
    pub max_bytes: u64,
    /// `ETag` of the copy we hold (sent as `If-None-Match`).
    pub etag: Option<&'a str>,
    /// `Last-Modified` of the copy we hold (sent as `If-Modified-Since`).
    pub last_modified: Option<&'a str>,
    /// The `Accept` header.
    pub accept: Option<&'a str>,
}

/// A successful response (2xx), its body read and decompressed.
#[derive(Debug, Clone)]
pub struct Response {
    /// The URL the body came from, after redirects.
    pub url: String,
    /// The HTTP status.
    pub status: u16,
    /// The body.
    pub body: Vec<u8>,
    /// The media type of `Content-Type`, lower-cased, without parameters.
    pub mime: Option<String>,
    /// The whole `Content-Type` value (the engine reads its charset).
    pub content_type: Option<String>,
    /// The `ETag` validator.
    pub etag: Option<String>,
    /// The `Last-Modified` validator.
    pub last_modified: Option<String>,
}

impl Response {
    /// The `charset` parameter of `Content-Type`, if any.
    pub fn charset(&self) -> Option<&str> {
        let ct = self.content_type.as_deref()?;
        ct.split(';').skip(1).find_map(|p| {
            let (k, v) = p.split_once('=')?;
            k.trim()
                .eq_ignore_ascii_case("charset")
                .then(|| v.trim().trim_matches('"'))
        })
    }
}

/// The outcome of a GET that did not fail.
#[derive(Debug, Clone)]
pub enum Fetched {
    /// A body.
    Body(Response),
    /// 304: the copy we hold (conditional GET) is current.
    NotModified,
}

/// Whether `body` starts as an HTML document does (WHATWG MIME sniffing's HTML patterns): after
/// white space and a byte-order mark, `<!DOCTYPE HTML`, `<HTML`, `<HEAD`, `<BODY`, `<P`, `<!--`
/// and the like, in any case, followed by a space or `>`.
pub fn sniffs_as_html(body: &[u8]) -> bool {
    const TAGS: [&[u8]; 17] = [
        b"<!doctype html",
        b"<html",
        b"<head",
        b"<script",
        b"<iframe",
        b"<h1",
        b"<div",
        b"<font",
        b"<table",
        b"<a",
        b"<style",
        b"<title",
        b"<b",
        b"<body",
        b"<br",
        b"<p",
        b"<!--",
    ];
    let body = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body);
    let start = body
        .iter()
        .position(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0C'))
        .unwrap_or(body.len());
    let head = &body[start..];
    TAGS.iter().any(|tag| {
        head.len() > tag.len()
            && head[..tag.len()].eq_ignore_ascii_case(tag)
            && (*tag == b"<!--" || matches!(head[tag.len()], b' ' | b'>'))
    })
}

/// Why a fetch failed; the message is what `pith feeds` shows.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum FetchError {
    /// Not a URL.
    #[error("not a valid URL: {0}")]
    BadUrl(String),
    /// Only http and https are fetched.
    #[error("unsupported URL scheme {0:?} (only http and https)")]
    Scheme(String),
    /// The server answered with an error status.
    #[error("HTTP {status} {}", reason_phrase(*status))]
    Status {
        /// The status code.
        status: u16,
    },
    /// 429 or 503 with a Retry-After longer than we wait (or still asking after one wait).
    #[error("HTTP {status} {}: the server asks to retry after {retry_after_secs} s", reason_phrase(*status))]
    RetryAfter {
        /// 429 or 503.
        status: u16,
        /// Seconds from now.
        retry_after_secs: u64,
    },
    /// Earlier in this run the host asked us to wait; no request was sent.
    #[error("not fetched: its host answered 429/503 with a Retry-After that has not passed yet")]
    HostDeferred,
    /// More redirects than allowed.
    #[error("more than {0} redirects")]
    TooManyRedirects(u32),
    /// A redirect back to a URL already visited.
    #[error("redirect loop at {0}")]
    RedirectLoop(String),
    /// A host refused by [`FetchConfig::loopback_only`].
    #[error("refused: {0} is not the loopback address (loopback-only mode)")]
    NotLoopback(String),
    /// A redirect without a usable Location.
    #[error("redirect ({status}) without a usable Location header")]
    BadRedirect {
        /// The 3xx status.
        status: u16,
    },
    /// The body exceeds the cap.
    #[error("response body larger than the {} limit", human_bytes(*.0))]
    TooLarge(u64),
    /// The connection or the request took too long.
    #[error("timed out ({0})")]
    Timeout(String),
    /// The compressed body could not be decompressed.
    #[error("broken {encoding} compression: {detail}")]
    Decompress {
        /// gzip, deflate or br.
        encoding: String,
        /// What the decoder said.
        detail: String,
    },
    /// The host name does not resolve.
    #[error("host not found: {0}")]
    HostNotFound(String),
    /// Connecting or talking to the server failed.
    #[error("connection failed: {0}")]
    Connection(String),
}

impl FetchError {
    /// The Retry-After this error carries, for remembering it across runs.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            FetchError::RetryAfter {
                retry_after_secs, ..
            } => Some(Duration::from_secs(*retry_after_secs)),
            _ => None,
        }
    }
}

fn reason_phrase(status: u16) -> &'static str {
    ureq::http::StatusCode::from_u16(status)
        .ok()
        .and_then(|s| s.canonical_reason())
        .unwrap_or("")
}

/// `n` bytes for people: `10 MB`, `512 KB`.
pub fn human_bytes(n: u64) -> String {
    if n >= 1024 * 1024 && n.is_multiple_of(1024 * 1024) {
        format!("{} MB", n / (1024 * 1024))
    } else if n >= 1024 {
        format!("{} KB", n / 1024)
    } else {
        format!("{n} bytes")
    }
}

/// The HTTP client, shared by all workers of a refresh (it is `Sync`).
pub struct Fetcher {
    agent: ureq::Agent,
    config: FetchConfig,
    /// Politeness: every host's connections, pauses and deferrals.
    hosts: Mutex<HostBook>,
    host_freed: Condvar,
}

/// A connection slot for one host; dropping it frees the slot.
struct HostPermit<'a> {
    fetcher: &'a Fetcher,
    host: String,
}

impl Drop for HostPermit<'_> {
    fn drop(&mut self) {
        self.fetcher.lock_hosts().finish(&self.host);
        self.fetcher.host_freed.notify_all();
    }
}

/// The politeness key of a URL: host and port (two servers on one machine are two servers).
pub fn host_key(url: &Url) -> String {
    match (url.host_str(), url.port()) {
        (Some(h), Some(p)) => format!("{}:{p}", h.to_ascii_lowercase()),
        (Some(h), None) => h.to_ascii_lowercase(),
        (None, _) => String::new(),
    }
}

impl Fetcher {
    /// A client with `config`.
    pub fn new(config: FetchConfig) -> Fetcher {
        let agent_config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .max_redirects(0)
            .user_agent(config.user_agent.as_str())
            .accept_encoding("gzip, deflate, br")
            .timeout_connect(Some(config.connect_timeout))
            .timeout_per_call(Some(config.request_timeout))
            .max_idle_connections_per_host(config.per_host_connections.max(1))
            .build();
        Fetcher {
            agent: agent_config.new_agent(),
            hosts: Mutex::new(HostBook::new(
                config.per_host_connections,
                config.host_delay,
            )),
            config,
            host_freed: Condvar::new(),
        }
    }

    /// The configuration in force.
    pub fn config(&self) -> &FetchConfig {
        &self.config
    }

    fn lock_hosts(&self) -> MutexGuard<'_, HostBook> {
        // A worker that panicked while holding the lock left plain counters behind; they are
        // still usable, so poisoning is ignored.
        self.hosts.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// When a request to `host` could start, asked at `now` ([`HostBook::ready_at`]): lets a
    /// scheduler pick work for ready hosts first.
    pub fn host_ready_at(&self, host: &str, now: Instant) -> Option<Instant> {
        self.lock_hosts().ready_at(host, now)
    }

    /// Waits until the host lets a request start ([`HostBook::try_start`]).
    fn acquire(&self, host: &str) -> Result<HostPermit<'_>, FetchError> {
        let mut hosts = self.lock_hosts();
        loop {
            let now = Instant::now();
            hosts = match hosts.try_start(host, now) {
                Start::Now => {
                    return Ok(HostPermit {
                        fetcher: self,
                        host: host.to_string(),
                    });
                }
                Start::Deferred => return Err(FetchError::HostDeferred),
                Start::At(t) => {
                    self.host_freed
                        .wait_timeout(hosts, t.saturating_duration_since(now))
                        .unwrap_or_else(|e| e.into_inner())
                        .0
                }
                Start::WhenFreed => self
                    .host_freed
                    .wait(hosts)
                    .unwrap_or_else(|e| e.into_inner()),
            };
        }
    }

    /// GETs `req.url`, following redirects, with the host's politeness rules.
    pub fn get(&self, req: &Request<'_>) -> Result<Fetched, FetchError> {
        let mut retried = false;
        loop {
            match self.get_once(req) {
                Err(FetchError::RetryAfter {
                    status,
                    retry_after_secs,
                }) => {
                    let host = Url::parse(req.url)
                        .map(|u| host_key(&u))
                        .unwrap_or_default();
                    // A short wait: every request to the host waits with us, then one retry.
                    let wait_out = self.lock_hosts().retry_after(
                        &host,
                        Instant::now(),
                        Duration::from_secs(retry_after_secs),
                        self.config.max_retry_wait,
                        retried,
                    );
                    if !wait_out {
                        return Err(FetchError::RetryAfter {
                            status,
                            retry_after_secs,
                        });
                    }
                    retried = true;
                }
                other => return other,
            }
        }
    }

    fn get_once(&self, req: &Request<'_>) -> Result<Fetched, FetchError> {
        let mut url = parse_http_url(req.url)?;
        let mut visited = vec![url.to_string()];
        let mut redirects = 0;
        loop {
            if self.config.loopback_only && !is_loopback(&url) {
                return Err(FetchError::NotLoopback(
                    url.host_str().unwrap_or("").to_string(),
                ));
            }
            let host = host_key(&url);
            let permit = self.acquire(&host)?;
            let mut builder = self.agent.get(url.as_str());
            if let Some(accept) = req.accept {
                builder = builder.header("Accept", accept);
            }
            // Validators belong to the URL subscribed to; a redirected hop is asked plainly.
            if redirects == 0 {
                if let Some(etag) = req.etag {
                    builder = builder.header("If-None-Match", etag);
                }
                if let Some(lm) = req.last_modified {
                    builder = builder.header("If-Modified-Since", lm);
                }
            }
            let mut response = builder
                .call()
                .map_err(|e| map_ureq_error(e, &url, self.config.request_timeout))?;
            let status = response.status().as_u16();
            let header = |name: &str| -> Option<String> {
                response
                    .headers()
                    .get(name)
                    .and_then(|v| v.to_str().ok())
                    .map(|s| s.trim().to_string())
            };
            match status {
                200..=299 => {
                    let encoding = header("content-encoding");
                    let content_type = header("content-type");
                    let etag = header("etag");
                    let last_modified = header("last-modified");
                    let body = read_body(response.body_mut(), encoding.as_deref(), req.max_bytes)?;
                    drop(permit);
                    let mime = content_type.as_deref().map(|ct| {
                        ct.split(';')
                            .next()
                            .unwrap_or("")
                            .trim()
                            .to_ascii_lowercase()
                    });
                    return Ok(Fetched::Body(Response {
                        url: url.to_string(),
                        status,
                        body,
                        mime,
                        content_type,
                        etag,
                        last_modified,
                    }));
                }
                304 => return Ok(Fetched::NotModified),
                301 | 302 | 303 | 307 | 308 => {
                    let location = header("location").ok_or(FetchError::BadRedirect { status })?;
                    let next = url
                        .join(&location)
                        .map_err(|_| FetchError::BadRedirect { status })?;
                    check_scheme(&next)?;
                    drop(permit);
                    redirects += 1;
                    if redirects > self.config.max_redirects {
                        return Err(FetchError::TooManyRedirects(self.config.max_redirects));
                    }
                    if visited.iter().any(|v| v == next.as_str()) {
                        return Err(FetchError::RedirectLoop(next.to_string()));
                    }
                    visited.push(next.to_string());
                    url = next;
                }
                429 | 503 => {
                    let retry = header("retry-after").and_then(|v| parse_retry_after(&v));
                    return Err(match retry {
                        Some(secs) => FetchError::RetryAfter {
                            status,
                            retry_after_secs: secs,
                        },
                        None => FetchError::Status { status },
                    });
                }
                _ => return Err(FetchError::Status { status }),
            }
        }
    }
}

fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        None => false,
    }
}

fn parse_http_url(s: &str) -> Result<Url, FetchError> {
    if s.len() > limits::MAX_URL_LEN {
        return Err(too_long(s.len()));
    }
    let url = Url::parse(s.trim()).map_err(|e| FetchError::BadUrl(e.to_string()))?;
    check_scheme(&url)?;
    Ok(url)
}

/// Only http and https, and no URL (a redirect target included) longer than
/// [`limits::MAX_URL_LEN`]: nothing a server or page names can make pith read a local file.
fn check_scheme(url: &Url) -> Result<(), FetchError> {
    match url.scheme() {
        "http" | "https" if url.as_str().len() > limits::MAX_URL_LEN => {
            Err(too_long(url.as_str().len()))
        }
        "http" | "https" => Ok(()),
        other => Err(FetchError::Scheme(other.to_string())),
    }
}

fn too_long(len: usize) -> FetchError {
    FetchError::BadUrl(format!(
        "a URL of {len} bytes (longer than the {} byte limit)",
        limits::MAX_URL_LEN
    ))
}

/// Seconds to wait from a `Retry-After` value: delta-seconds or an HTTP date.
pub fn parse_retry_after(value: &str) -> Option<u64> {
    let value = value.trim();
    if let Ok(secs) = value.parse::<u64>() {
        return Some(secs);
    }
    let when = chrono::DateTime::parse_from_rfc2822(value).ok()?;
    let now = chrono::DateTime::<chrono::Utc>::from(SystemTime::now());
    Some(u64::try_from((when.with_timezone(&chrono::Utc) - now).num_seconds()).unwrap_or(0))
}

fn map_ureq_error(e: ureq::Error, url: &Url, limit: Duration) -> FetchError {
    match e {
        ureq::Error::Timeout(t) => FetchError::Timeout(format!(
            "{t}: no complete answer within {} s",
            limit.as_secs()
        )),
        ureq::Error::HostNotFound => {
            FetchError::HostNotFound(url.host_str().unwrap_or("").to_string())
        }
        ureq::Error::BodyExceedsLimit(n) => FetchError::TooLarge(n),
        ureq::Error::BadUri(s) => FetchError::BadUrl(s),
        ureq::Error::Io(io) if io.kind() == std::io::ErrorKind::TimedOut => {
            FetchError::Timeout(io.to_string())
        }
        other => FetchError::Connection(other.to_string()),
    }
}

/// Reads the body, decompressed (ureq decodes gzip and brotli; deflate is decoded here), failing
/// as soon as more than `max` bytes have come out, so that a compression bomb costs no more than
/// `max` bytes of memory.
fn read_body(
    body: &mut ureq::Body,
    encoding: Option<&str>,
    max: u64,
) -> Result<Vec<u8>, FetchError> {
    let encoding = encoding.unwrap_or("").trim().to_ascii_lowercase();
    let reader = body.with_config().limit(u64::MAX).reader();
    let mut out = Vec::new();
    let result = if encoding == "deflate" {
        read_capped(DeflateAny::new(reader), max, &mut out)
    } else {
        read_capped(reader, max, &mut out)
    };
    match result {
        Ok(()) => Ok(out),
        Err(e) => Err(map_body_error(e, &encoding, max)),
    }
}

fn read_capped(reader: impl Read, max: u64, out: &mut Vec<u8>) -> std::io::Result<()> {
    let mut limited = reader.take(max.saturating_add(1));
    limited.read_to_end(out)?;
    if out.len() as u64 > max {
        return Err(std::io::Error::other(OverCap));
    }
    Ok(())
}

#[derive(Debug)]
struct OverCap;
impl std::fmt::Display for OverCap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("body over the cap")
    }
}
impl std::error::Error for OverCap {}

fn map_body_error(e: std::io::Error, encoding: &str, max: u64) -> FetchError {
    if e.get_ref().is_some_and(|inner| inner.is::<OverCap>()) {
        return FetchError::TooLarge(max);
    }
    // ureq wraps its own errors (timeouts, limits) in io::Error; unwrap them for a clear message.
    let text = e.to_string();
    if e.kind() == std::io::ErrorKind::TimedOut || text.contains("timeout") {
        return FetchError::Timeout(text);
    }
    // ureq decodes gzip and brotli itself and drops the Content-Encoding header; its error
    // message names the encoding.
    if let Some(name) = text.split_whitespace().next()
        && text.contains("decompression failed")
    {
        let encoding = match name {
            "brotli" => "br",
            other => other,
        };
        return FetchError::Decompress {
            encoding: encoding.to_string(),
            detail: text.clone(),
        };
    }
    match encoding {
        "gzip" | "x-gzip" | "br" | "deflate" => FetchError::Decompress {
            encoding: encoding.to_string(),
            detail: text,
        },
        _ => FetchError::Connection(text),
    }
}

/// `Content-Encoding: deflate` is zlib-wrapped by the standard but raw deflate from some servers;
/// the first two bytes tell which.
struct DeflateAny<R: Read> {
    inner: DeflateInner<R>,
}

enum DeflateInner<R: Read> {
    Pending(Option<R>),
    Zlib(Box<flate2::read::ZlibDecoder<std::io::Chain<std::io::Cursor<Vec<u8>>, R>>>),
    Raw(Box<flate2::read::DeflateDecoder<std::io::Chain<std::io::Cursor<Vec<u8>>, R>>>),
}

impl<R: Read> DeflateAny<R> {
    fn new(reader: R) -> Self {
        DeflateAny {
            inner: DeflateInner::Pending(Some(reader)),
        }
    }
}

impl<R: Read> Read for DeflateAny<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if let DeflateInner::Pending(reader) = &mut self.inner {
            let Some(mut reader) = reader.take() else {
                return Ok(0);
            };
            let mut head = Vec::with_capacity(2);
            (&mut reader).take(2).read_to_end(&mut head)?;
            // A zlib header: CM = 8 and the 16-bit header a multiple of 31.
            let zlib = head.len() == 2
                && head[0] & 0x0f == 8
                && (u16::from(head[0]) << 8 | u16::from(head[1])) % 31 == 0;
            let chained = std::io::Cursor::new(head).chain(reader);
            self.inner = if zlib {
                DeflateInner::Zlib(Box::new(flate2::read::ZlibDecoder::new(chained)))
            } else {
                DeflateInner::Raw(Box::new(flate2::read::DeflateDecoder::new(chained)))
            };
        }
        match &mut self.inner {
            DeflateInner::Zlib(d) => d.read(buf),
            DeflateInner::Raw(d) => d.read(buf),
            DeflateInner::Pending(_) => Ok(0),
        }
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn html_is_sniffed_from_its_first_bytes() {
        for yes in [
            &b"<!DOCTYPE html><html>"[..],
            b"\xEF\xBB\xBF  \n<html lang=en>",
            b"<HTML>",
            b"<p>text",
            b"<!-- a comment --><html>",
            b"\r\n<head>",
        ] {
            assert!(sniffs_as_html(yes), "{:?}", String::from_utf8_lossy(yes));
        }
        for no in [
            &b"%PDF-1.7"[..],
            b"\x89PNG\r\n",
            b"<?xml version=\"1.0\"?><rss>",
            b"<pre>",
            b"<html",
            b"",
            b"plain text <html>",
        ] {
            assert!(!sniffs_as_html(no), "{:?}", String::from_utf8_lossy(no));
        }
    }

    use super::*;

    #[test]
    fn retry_after_reads_seconds_and_dates() {
        assert_eq!(parse_retry_after("120"), Some(120));
        assert_eq!(parse_retry_after("Sun, 06 Nov 1994 08:49:37 GMT"), Some(0));
        assert_eq!(parse_retry_after("soon"), None);
    }

    #[test]
    fn charset_comes_from_content_type() {
        let r = Response {
            url: String::new(),
            status: 200,
            body: Vec::new(),
            mime: None,
            content_type: Some("text/html; charset=\"ISO-8859-1\"".into()),
            etag: None,
            last_modified: None,
        };
        assert_eq!(r.charset(), Some("ISO-8859-1"));
    }

    #[test]
    fn only_http_and_https_are_fetched() {
        let f = Fetcher::new(FetchConfig::default());
        let req = Request {
            url: "file:///etc/passwd",
            max_bytes: 10,
            ..Request::default()
        };
        assert_eq!(f.get(&req).err(), Some(FetchError::Scheme("file".into())));
        let req = Request {
            url: "not a url",
            max_bytes: 10,
            ..Request::default()
        };
        assert!(matches!(f.get(&req), Err(FetchError::BadUrl(_))));
    }

    #[test]
    fn human_sizes() {
        assert_eq!(human_bytes(10 * 1024 * 1024), "10 MB");
        assert_eq!(human_bytes(512 * 1024), "512 KB");
    }
}
