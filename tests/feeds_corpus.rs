//! Every file of the feedparser corpus through pith's feed parsing: no panic on any, and where the
//! file's `Expect:` line is a plain equality on a feed or entry title, link or id, pith's value
//! must match. Prints matched/checked and the mismatches by kind; asserts a floor.

mod common;

use std::path::{Path, PathBuf};

use pith::feeds::{ParsedFeed, parse_feed};

/// Measured when the test was written; a drop means a regression in feed parsing.
const MATCH_FLOOR: usize = 314;

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// A Python string literal's value (the escapes the corpus uses).
fn unescape(s: &str) -> Option<String> {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            '\\' => out.push('\\'),
            '\'' => out.push('\''),
            '"' => out.push('"'),
            'u' => {
                let hex: String = (0..4).filter_map(|_| chars.next()).collect();
                out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
            }
            'x' => {
                let hex: String = (0..2).filter_map(|_| chars.next()).collect();
                out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
            }
            _ => return None,
        }
    }
    Some(out)
}

#[derive(Debug)]
struct Check {
    entry: Option<usize>,
    field: String,
    want: String,
}

/// `[not bozo and ]feed['title'] == 'x'` or `entries[N]['link'] == u'x'`, and nothing else.
fn plain_check(expect: &str) -> Option<Check> {
    let re = regex::Regex::new(
        r#"^(?:not bozo and )?(feed|entries\[(\d+)\])\['(title|link|id)'\] == u?(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")$"#,
    )
    .unwrap();
    let c = re.captures(expect.trim())?;
    let raw = c.get(4).or(c.get(5))?.as_str();
    Some(Check {
        entry: c.get(2).and_then(|m| m.as_str().parse().ok()),
        field: c[3].to_string(),
        want: unescape(raw)?,
    })
}

fn value(feed: &ParsedFeed, check: &Check) -> Option<String> {
    match check.entry {
        None => match check.field.as_str() {
            "title" => feed.title.clone(),
            "link" => feed.link.clone(),
            _ => Some(feed.id.clone()),
        },
        Some(i) => {
            let e = feed.entries.get(i)?;
            match check.field.as_str() {
                "title" => e.title.clone(),
                "link" => e.link.clone(),
                _ => Some(e.id.clone()),
            }
        }
    }
}

#[test]
fn the_feedparser_corpus_parses_without_panic_and_matches() {
    let root = common::shared_dir().join("corpora/feedparser");
    let mut all = Vec::new();
    files(&root, &mut all);
    all.sort();
    let feeds: Vec<PathBuf> = all
        .into_iter()
        .filter(|p| {
            matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("xml" | "rdf" | "json" | "atom" | "rss")
            )
        })
        .collect();
    assert!(
        feeds.len() > 2000,
        "corpus not found or incomplete: {} files",
        feeds.len()
    );

    let mut parsed_ok = 0;
    let mut panics = Vec::new();
    let mut checked = 0;
    let mut matched = 0;
    let mut kinds: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for path in &feeds {
        let bytes = std::fs::read(path).unwrap();
        let rel = path
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        // feedparser's own harness serves the files from this address; relative links resolve
        // against it.
        let base = format!("http://127.0.0.1:8097/tests/{rel}");
        let result = std::panic::catch_unwind(|| parse_feed(&bytes, Some(&base), None));
        let parsed = match result {
            Err(_) => {
                panics.push(rel.clone());
                continue;
            }
            Ok(r) => r,
        };
        if parsed.is_ok() {
            parsed_ok += 1;
        }
        let text = String::from_utf8_lossy(&bytes);
        let Some(expect) = text
            .lines()
            .find_map(|l| l.trim().strip_prefix("Expect:").map(str::trim))
        else {
            continue;
        };
        let Some(check) = plain_check(expect) else {
            continue;
        };
        checked += 1;
        let got = parsed.as_ref().ok().and_then(|f| value(f, &check));
        if got.as_deref() == Some(check.want.as_str()) {
            matched += 1;
        } else {
            let scope = if check.entry.is_some() {
                "entry"
            } else {
                "feed"
            };
            let kind = match (&got, parsed.is_err()) {
                (_, true) => format!("{scope} {}: feed-rs refuses the file", check.field),
                (None, false) => format!("{scope} {}: no value", check.field),
                (Some(_), false) => format!("{scope} {}: different value", check.field),
            };
            kinds
                .entry(kind)
                .or_default()
                .push(format!("{rel}: want {:?}, got {:?}", check.want, got));
        }
    }
    println!(
        "feedparser corpus: {} files, {parsed_ok} parsed, {} panics; plain equality checks: {matched} matched of {checked} checked",
        feeds.len(),
        panics.len()
    );
    for (kind, cases) in &kinds {
        println!("  {kind}: {}", cases.len());
        for c in cases.iter().take(3) {
            println!("      {c}");
        }
    }
    assert!(panics.is_empty(), "panicked on {panics:?}");
    assert!(checked >= 400, "only {checked} plain checks found");
    assert!(
        matched >= MATCH_FLOOR,
        "{matched} matched, floor {MATCH_FLOOR}"
    );
}
