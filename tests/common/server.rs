//! A loopback HTTP server for the feed tests: std::net and threads, bound to 127.0.0.1 only. Routes
//! are closures by path; every request is logged (path, validators, User-Agent) so tests can check
//! what pith asked. It also misbehaves on demand: any status, delays, bodies that lie.

#![allow(dead_code)] // each test binary uses its own subset

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

/// A request as the server saw it.
#[derive(Debug, Clone)]
pub struct Seen {
    /// Path and query.
    pub path: String,
    /// Lower-cased header names and their values.
    pub headers: HashMap<String, String>,
    /// The port it came in on.
    pub port: u16,
}

impl Seen {
    /// Whether the request carried a validator (conditional GET).
    pub fn conditional(&self) -> bool {
        self.headers.contains_key("if-none-match") || self.headers.contains_key("if-modified-since")
    }
}

/// What to answer.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// Wait this long before answering.
    pub delay: Duration,
}

impl Reply {
    pub fn ok(content_type: &str, body: impl Into<Vec<u8>>) -> Reply {
        Reply {
            status: 200,
            headers: vec![("Content-Type".into(), content_type.into())],
            body: body.into(),
            delay: Duration::ZERO,
        }
    }
    pub fn status(status: u16) -> Reply {
        Reply {
            status,
            headers: vec![("Content-Type".into(), "text/plain".into())],
            body: format!("status {status}").into_bytes(),
            delay: Duration::ZERO,
        }
    }
    pub fn redirect(status: u16, location: &str) -> Reply {
        let mut r = Reply::status(status);
        r.headers.push(("Location".into(), location.into()));
        r
    }
    pub fn header(mut self, name: &str, value: &str) -> Reply {
        self.headers.push((name.into(), value.into()));
        self
    }
    pub fn delayed(mut self, delay: Duration) -> Reply {
        self.delay = delay;
        self
    }
    /// A server's conditional GET by entity tag: 304 when the request's `If-None-Match` names
    /// `etag`, else `self` carrying that `ETag`.
    pub fn etagged(self, seen: &Seen, etag: &str) -> Reply {
        if seen.headers.get("if-none-match").map(String::as_str) == Some(etag) {
            // No body: a 304 has none, and bytes after it would be read as the next response.
            let mut r = Reply::status(304);
            r.body.clear();
            r
        } else {
            self.header("ETag", etag)
        }
    }
}

pub type Handler = Arc<dyn Fn(&Seen) -> Reply + Send + Sync>;

/// Routes shared by one or more listeners.
#[derive(Default)]
pub struct Routes {
    map: Mutex<HashMap<String, Handler>>,
    log: Mutex<Vec<Seen>>,
    active: AtomicUsize,
    max_active: AtomicUsize,
}

impl Routes {
    /// Serves `reply` at `path` (replacing what was there).
    pub fn set(&self, path: &str, reply: Reply) {
        self.handle(path, move |_| reply.clone());
    }
    /// Serves what `f` answers at `path`.
    pub fn handle(&self, path: &str, f: impl Fn(&Seen) -> Reply + Send + Sync + 'static) {
        self.map
            .lock()
            .unwrap()
            .insert(path.to_string(), Arc::new(f));
    }
    /// Every request so far.
    pub fn log(&self) -> Vec<Seen> {
        self.log.lock().unwrap().clone()
    }
    /// Requests to `path` so far.
    pub fn hits(&self, path: &str) -> Vec<Seen> {
        self.log().into_iter().filter(|s| s.path == path).collect()
    }
    /// The paths of every request so far, in the order they arrived.
    pub fn paths(&self) -> Vec<String> {
        self.log().into_iter().map(|s| s.path).collect()
    }
    /// Forgets the log.
    pub fn clear_log(&self) {
        self.log.lock().unwrap().clear();
    }
    /// The most requests in progress at once so far.
    pub fn max_concurrent(&self) -> usize {
        self.max_active.load(Ordering::SeqCst)
    }
}

/// One listener on 127.0.0.1 with an ephemeral port.
pub struct Server {
    pub addr: SocketAddr,
    pub routes: Arc<Routes>,
    stop: Arc<AtomicBool>,
}

impl Server {
    /// A server with its own routes.
    pub fn start() -> Server {
        Server::start_with(Arc::new(Routes::default()))
    }

    /// A listener sharing `routes` with others.
    pub fn start_with(routes: Arc<Routes>) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        let addr = listener.local_addr().unwrap();
        assert!(addr.ip().is_loopback());
        let stop = Arc::new(AtomicBool::new(false));
        let (r, s) = (Arc::clone(&routes), Arc::clone(&stop));
        thread::spawn(move || {
            for conn in listener.incoming() {
                if s.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(conn) = conn else { continue };
                let r = Arc::clone(&r);
                thread::spawn(move || serve(conn, &r, addr.port()));
            }
        });
        Server { addr, routes, stop }
    }

    /// The absolute URL of `path` on this server.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop so that it sees the flag.
        let _ = TcpStream::connect(self.addr);
    }
}

fn serve(conn: TcpStream, routes: &Routes, port: u16) {
    let _ = conn.set_read_timeout(Some(Duration::from_secs(30)));
    let mut reader = BufReader::new(match conn.try_clone() {
        Ok(c) => c,
        Err(_) => return,
    });
    let mut writer = conn;
    // Keep-alive: answer requests on this connection until the client closes it.
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let path = line.split_whitespace().nth(1).unwrap_or("/").to_string();
        let mut headers = HashMap::new();
        loop {
            let mut h = String::new();
            if reader.read_line(&mut h).unwrap_or(0) == 0 {
                return;
            }
            let h = h.trim_end();
            if h.is_empty() {
                break;
            }
            if let Some((k, v)) = h.split_once(':') {
                headers.insert(k.trim().to_ascii_lowercase(), v.trim().to_string());
            }
        }
        let seen = Seen {
            path: path.clone(),
            headers,
            port,
        };
        let now = routes.active.fetch_add(1, Ordering::SeqCst) + 1;
        routes.max_active.fetch_max(now, Ordering::SeqCst);
        routes.log.lock().unwrap().push(seen.clone());
        let handler = routes.map.lock().unwrap().get(&path).cloned();
        let reply = match handler {
            Some(h) => h(&seen),
            None => Reply::status(404),
        };
        if !reply.delay.is_zero() {
            thread::sleep(reply.delay);
        }
        let mut head = format!("HTTP/1.1 {} X\r\n", reply.status);
        let mut has_length = false;
        for (k, v) in &reply.headers {
            has_length |= k.eq_ignore_ascii_case("content-length");
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        if !has_length {
            head.push_str(&format!("Content-Length: {}\r\n", reply.body.len()));
        }
        head.push_str("\r\n");
        let ok = writer.write_all(head.as_bytes()).is_ok() && writer.write_all(&reply.body).is_ok();
        let _ = writer.flush();
        routes.active.fetch_sub(1, Ordering::SeqCst);
        if !ok {
            return;
        }
    }
}

/// gzip-compresses `data`.
pub fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// zlib-compresses `data` (HTTP's `deflate`).
pub fn zlib(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// An RSS 2.0 document with `items` as (title, link, description).
pub fn rss(title: &str, items: &[(String, String, String)]) -> String {
    let mut s = format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<rss version=\"2.0\"><channel><title>{title}</title><link>http://127.0.0.1/</link>\n"
    );
    for (t, l, d) in items {
        s.push_str(&format!(
            "<item><title>{t}</title><link>{l}</link><description>{d}</description><guid>{l}</guid></item>\n"
        ));
    }
    s.push_str("</channel></rss>\n");
    s
}

/// An article page with a site template around `body_paragraphs`.
pub fn article(title: &str, paragraphs: &[&str], image: Option<&str>) -> String {
    let mut s = format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>{title}</title></head><body>\
         <div id=\"nav\"><a href=\"/\">Home</a> <a href=\"/world\">World</a> <a href=\"/sport\">Sport</a></div>\
         <div id=\"main\"><h1>{title}</h1>"
    );
    for p in paragraphs {
        s.push_str(&format!("<p>{p}</p>"));
    }
    if let Some(src) = image {
        s.push_str(&format!("<img src=\"{src}\" alt=\"A photo for {title}\">"));
    }
    s.push_str("</div><div id=\"footer\"><p>Copyright The Loopback Gazette. All rights reserved.</p></div></body></html>");
    s
}
