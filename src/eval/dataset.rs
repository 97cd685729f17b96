//! Reading a recorded dataset: `DIR/manifest.jsonl`, one page a line in stream order.
//!
//! The datasets are third-party research data converted to one layout (see the datasets' README): each
//! manifest line is a JSON object with `id`, `url`, `site`, `html`, `gold`, `date`, `title` and extra,
//! dataset-specific fields, which are ignored here. A bad line must not cost the whole run, so every
//! line that cannot be used becomes a [`ManifestProblem`] with its line number and the rest still loads.
//!
//! Ids later become file names (per-page dumps, caches), and `html`/`gold` are joined to the dataset
//! directory, so both are checked here, once, instead of trusting every later user to do it.

use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};

use serde::Deserialize;
use thiserror::Error;

/// The manifest's file name inside a dataset directory.
pub const MANIFEST_FILE: &str = "manifest.jsonl";

/// One page of a dataset, as listed by its manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DatasetPage {
    /// The dataset's id of the page; unique within the manifest and safe to use as a file name.
    pub id: String,
    /// The page's URL, when the dataset knows it; a page without one cannot enter a URL Tree.
    pub url: Option<String>,
    /// The dataset's grouping of the page (a host or a brand name), used for per-site reports and
    /// the site split. Where the manifest gives none, the URL's host stands in, and for a page
    /// with neither, its id: every page belongs to some site.
    pub site: String,
    /// The kind of page (`article`, `forum`, `product`, …) where the dataset says, for per-type
    /// reports.
    pub page_type: Option<String>,
    /// The recorded page bytes, resolved against the dataset directory.
    pub html: PathBuf,
    /// The gold main-content text (UTF-8), resolved against the dataset directory.
    pub gold: PathBuf,
    /// The page's date as the dataset gives it (free form, usually `YYYY-MM-DD`), if known.
    pub date: Option<String>,
    /// The page's title as the dataset gives it, if known.
    pub title: Option<String>,
}

impl DatasetPage {
    /// Reads the recorded page bytes (in their original encoding).
    pub fn read_html(&self) -> Result<Vec<u8>, DatasetError> {
        std::fs::read(&self.html).map_err(|error| DatasetError::ReadFile {
            path: self.html.clone(),
            error,
        })
    }

    /// Reads the gold text. The datasets promise UTF-8; stray invalid bytes are replaced rather than
    /// failing the page, because scoring only looks at word tokens.
    pub fn read_gold(&self) -> Result<String, DatasetError> {
        let bytes = std::fs::read(&self.gold).map_err(|error| DatasetError::ReadFile {
            path: self.gold.clone(),
            error,
        })?;
        Ok(match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(err) => String::from_utf8_lossy(err.as_bytes()).into_owned(),
        })
    }
}

/// A manifest line that was skipped, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManifestProblem {
    /// 1-based line number in `manifest.jsonl`.
    pub line: usize,
    /// What is wrong with the line, for the user to fix the dataset.
    pub message: String,
}

/// The usable pages of a manifest in stream order, plus the lines that had to be skipped.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Manifest {
    /// Pages in the manifest's order (the stream order).
    pub pages: Vec<DatasetPage>,
    /// Skipped lines, in line order.
    pub problems: Vec<ManifestProblem>,
}

/// Why a dataset could not be read at all (as opposed to a single bad line, see [`ManifestProblem`]).
#[derive(Debug, Error)]
pub enum DatasetError {
    /// The manifest file is missing or unreadable.
    #[error("cannot read dataset manifest {path}: {error}")]
    ReadManifest {
        /// The manifest's path.
        path: PathBuf,
        /// The underlying I/O error.
        error: std::io::Error,
    },
    /// A page's html or gold file is missing or unreadable.
    #[error("cannot read dataset file {path}: {error}")]
    ReadFile {
        /// The file's path.
        path: PathBuf,
        /// The underlying I/O error.
        error: std::io::Error,
    },
}

/// The manifest fields pith uses; everything else on the line is ignored. `url`, `site`, `date`,
/// `title` and `page_type` may be null or absent; the others are required.
#[derive(Deserialize)]
struct RawPage {
    id: String,
    #[serde(default)]
    url: Option<String>,
    #[serde(default)]
    site: Option<String>,
    #[serde(default)]
    page_type: Option<String>,
    html: String,
    gold: String,
    #[serde(default)]
    date: Option<String>,
    #[serde(default)]
    title: Option<String>,
}

/// Reads `dir/manifest.jsonl`.
///
/// Lines that are not JSON objects, lack a required field (`id`, `site`, `html`, `gold`), have an id
/// that is not a safe file name, repeat an earlier id, or point outside `dir` are reported in
/// [`Manifest::problems`] and skipped; empty lines are skipped silently. Only a missing or unreadable
/// manifest file is an error.
pub fn read_manifest(dir: &Path) -> Result<Manifest, DatasetError> {
    let path = dir.join(MANIFEST_FILE);
    let bytes = std::fs::read(&path).map_err(|error| DatasetError::ReadManifest {
        path: path.clone(),
        error,
    })?;
    Ok(parse_manifest(dir, &bytes))
}

/// Parses the bytes of a `manifest.jsonl` as [`read_manifest`] does; `dir` is what relative paths
/// are resolved against (nothing is read from it). Public so that the reader of untrusted dataset
/// files can be fuzzed without a file system.
pub fn parse_manifest(dir: &Path, bytes: &[u8]) -> Manifest {
    let mut manifest = Manifest::default();
    let mut seen_ids = HashSet::new();
    // Split bytes rather than text so that one line of bad UTF-8 only costs that line.
    for (index, raw_line) in bytes.split(|&b| b == b'\n').enumerate() {
        let line = index + 1;
        let mut problem =
            |message: String| manifest.problems.push(ManifestProblem { line, message });
        let Ok(text) = std::str::from_utf8(raw_line) else {
            problem("line is not valid UTF-8".to_owned());
            continue;
        };
        // Editors on some systems add a byte-order mark and CRLF line ends; neither is data.
        let text = if line == 1 {
            text.trim_start_matches('\u{feff}')
        } else {
            text
        };
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        match parse_line(dir, text) {
            Ok(page) => {
                if seen_ids.insert(page.id.clone()) {
                    manifest.pages.push(page);
                } else {
                    problem(format!(
                        "duplicate id {:?} (an earlier line has it)",
                        page.id
                    ));
                }
            }
            Err(message) => problem(message),
        }
    }
    manifest
}

/// Turns one non-empty manifest line into a page, or says what is wrong with it.
fn parse_line(dir: &Path, text: &str) -> Result<DatasetPage, String> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|err| {
        // serde_json appends "at line 1 column N"; the line is always 1 here, so keep only the column.
        let message = err.to_string();
        let message = message
            .rsplit_once(" at line ")
            .map_or(message.as_str(), |(head, _)| head);
        format!("not valid JSON: {message} (column {})", err.column())
    })?;
    if !value.is_object() {
        return Err("not a JSON object".to_owned());
    }
    // Errors from a Value carry no position, so their text is just the reason ("missing field `id`").
    let raw: RawPage = serde_json::from_value(value).map_err(|err| err.to_string())?;
    check_id(&raw.id)?;
    let html = resolve(dir, "html", &raw.html)?;
    let gold = resolve(dir, "gold", &raw.gold)?;
    let site = raw
        .site
        .filter(|s| !s.trim().is_empty())
        .or_else(|| {
            raw.url
                .as_deref()
                .and_then(|u| url::Url::parse(u).ok())
                .and_then(|u| u.host_str().map(str::to_owned))
        })
        .unwrap_or_else(|| raw.id.clone());
    Ok(DatasetPage {
        site,
        page_type: raw.page_type.filter(|t| !t.trim().is_empty()),
        id: raw.id,
        url: raw.url,
        html,
        gold,
        date: raw.date,
        title: raw.title,
    })
}

/// Accepts only ids that can be used as a single file name on any platform pith runs on.
fn check_id(id: &str) -> Result<(), String> {
    if id.is_empty() {
        return Err("empty id".to_owned());
    }
    if id == "." || id == ".." {
        return Err(format!("id {id:?} is not a usable file name"));
    }
    if id.contains(['/', '\\', '\0']) {
        return Err(format!(
            "id {id:?} contains a path separator or NUL and cannot be used as a file name"
        ));
    }
    Ok(())
}

/// Joins a manifest path to the dataset directory, refusing anything that could leave it.
fn resolve(dir: &Path, field: &str, relative: &str) -> Result<PathBuf, String> {
    if relative.is_empty() {
        return Err(format!("empty `{field}` path"));
    }
    if relative.contains('\0') {
        return Err(format!("`{field}` path contains NUL"));
    }
    let path = Path::new(relative);
    let escapes = path.components().any(|component| {
        matches!(
            component,
            Component::ParentDir | Component::RootDir | Component::Prefix(_)
        )
    });
    if escapes || path.is_absolute() {
        return Err(format!(
            "`{field}` path {relative:?} is absolute or leaves the dataset directory"
        ));
    }
    Ok(dir.join(path))
}

/// Where the shared folder (the datasets and the feed corpora, kept outside the repository) is
/// for a checkout at `checkout`: `$PITH_SHARED`, else `../shared` beside the checkout, else one
/// level further up (a git worktree inside the checkout's parent). The one rule the tests and
/// the benchmarks follow; `None` when none of those is a folder.
pub fn shared_dir(checkout: &Path) -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("PITH_SHARED") {
        return Some(PathBuf::from(dir));
    }
    [checkout.join("../shared"), checkout.join("../../shared")]
        .into_iter()
        .find(|d| d.join("datasets").is_dir() || d.join("corpora").is_dir())
}

/// Where the shared datasets are for a checkout at `checkout`: `$PITH_DATASETS`, else the
/// `datasets` folder of [`shared_dir`].
pub fn datasets_dir(checkout: &Path) -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("PITH_DATASETS") {
        return Some(PathBuf::from(dir));
    }
    shared_dir(checkout)
        .map(|d| d.join("datasets"))
        .filter(|d| d.is_dir())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn write_manifest(text: &str) -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("temp dir");
        fs::write(dir.path().join(MANIFEST_FILE), text).expect("write manifest");
        dir
    }

    const GOOD: &str = r#"{"id": "a1", "url": "http://x.org/1", "site": "x.org", "html": "pages/a1.html", "gold": "gold/a1.txt", "date": "2010-01-02", "title": "One", "extra": {"n": 1}}"#;

    #[test]
    fn reads_a_good_line_with_extra_fields() {
        let dir = write_manifest(&format!("{GOOD}\n"));
        let manifest = read_manifest(dir.path()).expect("manifest");
        assert!(manifest.problems.is_empty(), "{:?}", manifest.problems);
        assert_eq!(
            manifest.pages,
            vec![DatasetPage {
                id: "a1".into(),
                url: Some("http://x.org/1".into()),
                site: "x.org".into(),
                page_type: None,
                html: dir.path().join("pages/a1.html"),
                gold: dir.path().join("gold/a1.txt"),
                date: Some("2010-01-02".into()),
                title: Some("One".into()),
            }]
        );
    }

    #[test]
    fn nulls_and_absent_optional_fields_are_none() {
        let dir = write_manifest(
            "{\"id\": \"b\", \"url\": null, \"site\": \"s\", \"html\": \"p/b.html\", \"gold\": \"g/b.txt\", \"date\": null, \"title\": null}\n\
             {\"id\": \"c\", \"site\": \"s\", \"html\": \"p/c.html\", \"gold\": \"g/c.txt\"}",
        );
        let manifest = read_manifest(dir.path()).expect("manifest");
        assert!(manifest.problems.is_empty(), "{:?}", manifest.problems);
        assert_eq!(manifest.pages.len(), 2);
        for page in &manifest.pages {
            assert_eq!((&page.url, &page.date, &page.title), (&None, &None, &None));
        }
    }

    #[test]
    fn a_page_without_url_or_site_is_a_page_of_its_own_site() {
        // The shape of two wcxb-dev400 lines: no URL, no site, no date, but a page type.
        let dir = write_manifest(
            "{\"id\": \"d1\", \"url\": null, \"site\": null, \"html\": \"p/d1.html\", \"gold\": \"g/d1.txt\", \"page_type\": \"forum\"}\n\
             {\"id\": \"d2\", \"url\": \"https://www.example.org/a\", \"site\": null, \"html\": \"p/d2.html\", \"gold\": \"g/d2.txt\", \"page_type\": null}",
        );
        let manifest = read_manifest(dir.path()).expect("manifest");
        assert!(manifest.problems.is_empty(), "{:?}", manifest.problems);
        let got: Vec<(&str, &str, Option<&str>)> = manifest
            .pages
            .iter()
            .map(|p| (p.id.as_str(), p.site.as_str(), p.page_type.as_deref()))
            .collect();
        assert_eq!(
            got,
            [("d1", "d1", Some("forum")), ("d2", "www.example.org", None)]
        );
    }

    #[test]
    fn bad_lines_are_reported_with_their_line_number_and_the_rest_loads() {
        let lines = [
            GOOD,                                                                         // 1
            "",                                                                        // 2: silent
            "{not json",                                                               // 3
            r#"{"id": "x", "site": "s", "html": "p/x.html"}"#,                         // 4: no gold
            r#"{"id": "", "site": "s", "html": "p.html", "gold": "g.txt"}"#,           // 5
            r#"{"id": "a/b", "site": "s", "html": "p.html", "gold": "g.txt"}"#,        // 6
            r#"{"id": "a\\b", "site": "s", "html": "p.html", "gold": "g.txt"}"#,       // 7
            r#"{"id": "..", "site": "s", "html": "p.html", "gold": "g.txt"}"#,         // 8
            r#"{"id": ".", "site": "s", "html": "p.html", "gold": "g.txt"}"#,          // 9
            r#"{"id": "n\u0000", "site": "s", "html": "p.html", "gold": "g.txt"}"#,    // 10
            r#"{"id": "e1", "site": "s", "html": "../p.html", "gold": "g.txt"}"#,      // 11
            r#"{"id": "e2", "site": "s", "html": "p.html", "gold": "/etc/passwd"}"#,   // 12
            r#"{"id": "e3", "site": "s", "html": "a/../../p.html", "gold": "g.txt"}"#, // 13
            r#"{"id": "e4", "site": "s", "html": "", "gold": "g.txt"}"#,               // 14
            r#"{"id": 5, "site": "s", "html": "p.html", "gold": "g.txt"}"#,            // 15
            r#"[1, 2]"#,                                                               // 16
            GOOD,                                                                      // 17: dup
            "   ",                                                                     // 18: silent
            r#"{"id": "ok2", "site": "s", "html": "./p/ok2.html", "gold": "g/ok2.txt"}"#, // 19
        ];
        let dir = write_manifest(&lines.join("\r\n"));
        let manifest = read_manifest(dir.path()).expect("manifest");
        let ids: Vec<&str> = manifest.pages.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, ["a1", "ok2"]);
        let problem_lines: Vec<usize> = manifest.problems.iter().map(|p| p.line).collect();
        assert_eq!(
            problem_lines,
            [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]
        );
        let message = |line: usize| {
            manifest
                .problems
                .iter()
                .find(|p| p.line == line)
                .map(|p| p.message.clone())
                .unwrap_or_default()
        };
        assert!(message(3).starts_with("not valid JSON"), "{}", message(3));
        assert!(!message(3).contains("at line"), "{}", message(3));
        assert!(message(4).contains("gold"), "{}", message(4));
        assert!(message(12).contains("html") || message(12).contains("gold"));
        assert!(message(17).contains("duplicate"), "{}", message(17));
    }

    #[test]
    fn invalid_utf8_and_bom_are_handled() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut bytes = "\u{feff}".as_bytes().to_vec();
        bytes.extend_from_slice(GOOD.as_bytes());
        bytes.extend_from_slice(b"\n{\"id\": \"\xff\"}\n");
        fs::write(dir.path().join(MANIFEST_FILE), bytes).expect("write");
        let manifest = read_manifest(dir.path()).expect("manifest");
        assert_eq!(manifest.pages.len(), 1);
        assert_eq!(manifest.problems.len(), 1);
        assert_eq!(manifest.problems[0].line, 2);
    }

    #[test]
    fn missing_manifest_is_an_error_naming_the_path() {
        let dir = tempfile::tempdir().expect("temp dir");
        let err = read_manifest(dir.path()).expect_err("must fail");
        let text = err.to_string();
        assert!(
            text.contains(&dir.path().join(MANIFEST_FILE).display().to_string()),
            "{text}"
        );
    }

    #[test]
    fn read_gold_and_html() {
        let dir = write_manifest(GOOD);
        fs::create_dir_all(dir.path().join("pages")).expect("mkdir");
        fs::create_dir_all(dir.path().join("gold")).expect("mkdir");
        fs::write(dir.path().join("pages/a1.html"), b"<p>caf\xe9</p>").expect("write");
        fs::write(dir.path().join("gold/a1.txt"), b"caf\xc3\xa9 \xff").expect("write");
        let manifest = read_manifest(dir.path()).expect("manifest");
        let page = &manifest.pages[0];
        assert_eq!(page.read_html().expect("html"), b"<p>caf\xe9</p>");
        assert_eq!(page.read_gold().expect("gold"), "café \u{fffd}");
        fs::remove_file(&page.gold).expect("rm");
        let err = page.read_gold().expect_err("gone");
        assert!(err.to_string().contains("a1.txt"), "{err}");
    }

    fn datasets_dir() -> PathBuf {
        super::datasets_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
            .expect("the shared datasets (set PITH_DATASETS or PITH_SHARED)")
    }

    #[test]
    fn real_manifests_load_completely() {
        let root = datasets_dir();
        for (name, count) in [
            ("cleanportaleval", 71),
            ("msvcode-big9", 360),
            ("l3s-gn1", 621),
            ("scrapinghub-aeb", 181),
        ] {
            let dir = root.join(name);
            let manifest = read_manifest(&dir).unwrap_or_else(|err| panic!("{err}"));
            assert!(
                manifest.problems.is_empty(),
                "{name}: {:?}",
                manifest.problems
            );
            assert_eq!(manifest.pages.len(), count, "{name}");
            for page in &manifest.pages {
                assert!(page.html.is_file(), "{name}: {}", page.html.display());
                assert!(page.gold.is_file(), "{name}: {}", page.gold.display());
            }
        }
    }
}
