//! The recorded dataset pages, read once into memory so that disk never enters a timing.

use std::path::{Path, PathBuf};

/// One recorded page.
pub struct DatasetPage {
    /// Dataset name and page id, for messages.
    pub id: String,
    /// The page's URL as recorded (it decides the site and the tree branch).
    pub url: String,
    /// The entry title, when the manifest has one.
    pub title: Option<String>,
    /// The page bytes as served.
    pub bytes: Vec<u8>,
}

/// Where the shared datasets live, by the library's one rule
/// ([`pith::eval::dataset::datasets_dir`]); `../shared/datasets` beside the checkout when none
/// is found, so that the messages name the expected place.
pub fn root() -> PathBuf {
    let checkout = Path::new(env!("CARGO_MANIFEST_DIR"));
    pith::eval::dataset::datasets_dir(checkout)
        .unwrap_or_else(|| checkout.join("../shared/datasets"))
}

/// Every dataset directory under `root` with a manifest, in name order.
pub fn all_names(root: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root)
        .map(|dir| {
            dir.filter_map(Result::ok)
                .filter(|e| e.path().join("manifest.jsonl").is_file())
                .filter_map(|e| e.file_name().into_string().ok())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// The pages of the named datasets in stream order; unreadable lines and files are skipped with a
/// warning (a benchmark measures what it can read).
pub fn load(root: &Path, names: &[String], limit: Option<usize>) -> Vec<DatasetPage> {
    let mut pages = Vec::new();
    for name in names {
        let dir = root.join(name);
        let manifest = match std::fs::read_to_string(dir.join("manifest.jsonl")) {
            Ok(text) => text,
            Err(e) => {
                eprintln!("warning: {name}: {e}");
                continue;
            }
        };
        for line in manifest.lines().filter(|l| !l.trim().is_empty()) {
            let Ok(entry) = serde_json::from_str::<serde_json::Value>(line) else {
                eprintln!("warning: {name}: a manifest line is not JSON");
                continue;
            };
            let field = |k: &str| entry.get(k).and_then(|v| v.as_str()).map(str::to_string);
            let (Some(id), Some(url), Some(html)) = (field("id"), field("url"), field("html"))
            else {
                continue;
            };
            match std::fs::read(dir.join(&html)) {
                Ok(bytes) => pages.push(DatasetPage {
                    id: format!("{name}/{id}"),
                    url,
                    title: field("title"),
                    bytes,
                }),
                Err(e) => eprintln!("warning: {name}/{html}: {e}"),
            }
            if limit.is_some_and(|l| pages.len() >= l) {
                return pages;
            }
        }
    }
    pages
}
