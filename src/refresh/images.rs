//! The images an article keeps as content: which of them to download (each once per refresh,
//! none already stored), and each download, within the per-image cap and what is left of the
//! article's budget. Downloads are tasks of their own, so that a worker never sleeps on one
//! host's politeness while other hosts have work; the article is stored after its last image.

use std::collections::HashSet;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, MutexGuard};

use crate::fetch::{FetchError, Fetched, Request};
use crate::limits;
use crate::store::NewImage;

use super::RefreshError;
use super::pipeline::{Article, Connection, Cx};
use super::schedule::FeedJob;

/// The content images of an article split in two: those stored already (or claimed by another
/// article of this refresh, which downloads them), and those this article downloads. `claimed`
/// holds every image URL some article of this refresh has claimed.
pub(super) fn claim(
    conn: &dyn Connection,
    claimed: &Mutex<HashSet<String>>,
    urls: Vec<String>,
) -> Result<(Vec<String>, Vec<String>), RefreshError> {
    let mut known = Vec::new();
    let mut to_fetch = Vec::new();
    for url in urls {
        let claimed_now = claimed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(url.clone());
        if !claimed_now || conn.db()?.image_known(&url)? {
            known.push(url);
        } else {
            to_fetch.push(url);
        }
    }
    Ok((known, to_fetch))
}

/// A classified article waiting for its images; stored (in one write) when the last one is in.
pub(super) struct ImageBatch {
    pub job: Arc<FeedJob>,
    pub entry: usize,
    pub article: Article,
    state: Mutex<BatchState>,
}

struct BatchState {
    left: usize,
    budget: u64,
    images: Vec<NewImage>,
}

impl ImageBatch {
    /// An article of `job`'s entry `entry` waiting for `images` downloads.
    pub(super) fn new(job: Arc<FeedJob>, entry: usize, article: Article, images: usize) -> Self {
        ImageBatch {
            job,
            entry,
            article,
            state: Mutex::new(BatchState {
                left: images,
                budget: limits::MAX_ARTICLE_IMAGE_BYTES,
                images: Vec::new(),
            }),
        }
    }

    fn lock(&self) -> MutexGuard<'_, BatchState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Downloads one image of an article; returns every image of it once this was the last. Failures
/// are kept too (stored, so that they are not tried again).
pub(super) fn download(cx: &Cx<'_>, batch: &ImageBatch, url: &str) -> Option<Vec<NewImage>> {
    let budget = batch.lock().budget;
    let image = fetch_image(cx, url, budget);
    let mut state = batch.lock();
    if let Ok(bytes) = &image.data {
        state.budget = state.budget.saturating_sub(bytes.len() as u64);
    }
    state.images.push(image);
    state.left -= 1;
    (state.left == 0).then(|| std::mem::take(&mut state.images))
}

/// An image download's outcome as stored: its content type and bytes, or why it has none.
fn fetch_image(cx: &Cx<'_>, url: &str, budget: u64) -> NewImage {
    let (content_type, data) = if budget == 0 {
        (None, Err("over the article's image budget".to_string()))
    } else {
        cx.requests.images.fetch_add(1, Ordering::Relaxed);
        let req = Request {
            url,
            max_bytes: limits::MAX_IMAGE_BYTES.min(budget),
            accept: Some("image/*"),
            ..Request::default()
        };
        match cx.fetcher.get(&req) {
            Ok(Fetched::Body(r)) if r.mime.as_deref().is_some_and(|m| m.starts_with("image/")) => {
                (r.content_type, Ok(r.body))
            }
            Ok(Fetched::Body(r)) => (
                r.content_type.clone(),
                Err(format!(
                    "not an image ({})",
                    r.mime.as_deref().unwrap_or("no content type")
                )),
            ),
            Ok(Fetched::NotModified) => (None, Err("unexpected 304".to_string())),
            Err(FetchError::TooLarge(_)) if budget < limits::MAX_IMAGE_BYTES => {
                (None, Err("over the article's image budget".to_string()))
            }
            Err(e) => (None, Err(e.to_string())),
        }
    };
    NewImage {
        url: url.to_string(),
        content_type,
        data,
    }
}
