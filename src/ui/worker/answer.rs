//! What one job does on the database thread's connection: the read or the write it asks for,
//! and the reply it gets. Nothing here knows of threads or of the integrity check (`db.rs` decides
//! when a job may run).

use super::{DecodedImage, Job, MAX_IMAGE_SIDE, Manage, Reply};
use crate::extract::Engine;
use crate::reading::{self, Article};
use crate::refresh;
use crate::store::{ItemId, ItemScope, Store};
use crate::ui::pins;

/// Answers `job` on `store` (a write only once the file's check has passed: `db.rs` holds it
/// until then).
pub(super) fn handle(store: &mut Store, engine: &Engine, job: Job) -> Reply {
    match job {
        Job::Feeds => Reply::Feeds(store.feeds().map_err(|e| e.to_string())),
        Job::Items { filter, generation } => {
            let rows = store.item_rows(&filter).map_err(|e| e.to_string());
            let more = filter.limit > 0 && rows.as_ref().is_ok_and(|r| r.len() >= filter.limit);
            Reply::Items {
                generation,
                rows,
                append: filter.after.is_some(),
                more,
            }
        }
        Job::ItemCount { filter, generation } => Reply::ItemCount {
            generation,
            count: store.item_count(&filter).map_err(|e| e.to_string()),
        },
        Job::Search { query, generation } => Reply::Items {
            generation,
            rows: store
                .search(&query, 500)
                .and_then(|hits| {
                    let ids: Vec<ItemId> = hits.iter().map(|h| h.id).collect();
                    store.item_rows_by_id(&ids)
                })
                .map_err(|e| e.to_string()),
            append: false,
            more: false,
        },
        Job::Open { id, mark_read } => {
            let reply = open(store, engine, id);
            if mark_read && opened(&reply) {
                // A failure to mark read is not worth losing the article over.
                let _ = store.set_read(ItemScope::Item(id), true);
            }
            reply
        }
        Job::SetRead { id, read } => Reply::ReadSet {
            id,
            read: store
                .set_read(ItemScope::Item(id), read)
                .map(|_| read)
                .map_err(|e| e.to_string()),
        },
        Job::ToggleStar { id } => Reply::Starred {
            id,
            starred: match store.toggle_star(id) {
                Ok(Some(s)) => Ok(s),
                Ok(None) => Err(format!("item {id} is gone")),
                Err(e) => Err(e.to_string()),
            },
        },
        Job::Tree { domain } => Reply::Tree {
            nodes: store.tree_nodes(&domain).map_err(|e| e.to_string()),
            domain,
        },
        Job::Pins { domain } => Reply::Pins {
            pins: pins::list(store, &domain).map_err(|e| e.to_string()),
            domain,
        },
        Job::PinAdd {
            domain,
            hash,
            verdict,
            text,
            reopen,
        } => match pins::add(store, &domain, hash, verdict, &text, refresh::unix_now()) {
            Ok(_) => open(store, engine, reopen),
            Err(e) => Reply::Pins {
                domain,
                pins: Err(e.to_string()),
            },
        },
        Job::PinRemove { id, domain, reopen } => match (pins::remove(store, id), reopen) {
            (Ok(_), Some(item)) => open(store, engine, item),
            (Ok(_), None) => Reply::Pins {
                pins: pins::list(store, &domain).map_err(|e| e.to_string()),
                domain,
            },
            (Err(e), _) => Reply::Pins {
                domain,
                pins: Err(e.to_string()),
            },
        },
        Job::ImportOpml { path } => Reply::Imported(import_opml(store, &path)),
        Job::Settings { keys } => Reply::Settings(
            keys.into_iter()
                .map(|k| store.setting(k).map(|v| (k, v)))
                .collect::<Result<_, _>>()
                .map_err(|e| e.to_string()),
        ),
        Job::SaveSetting { key, value } => {
            Reply::Saved(store.set_setting(key, &value).map_err(|e| e.to_string()))
        }
        Job::Manage(change) => Reply::Managed(manage(store, change)),
    }
}

/// Makes one change to the subscriptions; what was done, in words.
fn manage(store: &mut Store, change: Manage) -> Result<String, String> {
    let e = |e: crate::store::StoreError| e.to_string();
    match change {
        Manage::Unsubscribe(feed) => match store.feed_remove(feed).map_err(e)? {
            true => Ok("Unsubscribed.".into()),
            false => Err(format!("feed {feed} is gone")),
        },
        Manage::Rename(feed, name) => match store.feed_rename(feed, name.as_deref()).map_err(e)? {
            true => Ok(match name {
                Some(name) => format!("Renamed to {name}."),
                None => "The feed's own title is back.".into(),
            }),
            false => Err(format!("feed {feed} is gone")),
        },
        Manage::Move(feed, folder) => {
            match store.feed_set_folder(feed, folder.as_deref()).map_err(e)? {
                true => Ok(match folder {
                    Some(folder) => format!("Moved to {folder}."),
                    None => "Moved to the top level.".into(),
                }),
                false => Err(format!("feed {feed} is gone")),
            }
        }
        Manage::ExportOpml(path) => {
            let list: Vec<_> = store
                .feeds()
                .map_err(e)?
                .into_iter()
                .map(crate::feeds::opml_feed)
                .collect();
            let text = crate::feeds::opml_export(&list).map_err(|e| e.to_string())?;
            std::fs::write(&path, text).map_err(|e| format!("writing {}: {e}", path.display()))?;
            Ok(format!("Wrote {} feeds to {}.", list.len(), path.display()))
        }
        Manage::MarkFeedsRead(feeds) => {
            let mut n = 0;
            for feed in feeds {
                n += store.set_read(ItemScope::Feed(feed), true).map_err(e)?;
            }
            Ok(format!("Marked {n} items read."))
        }
        Manage::MarkRead(scope) => {
            let n = store.set_read(scope, true).map_err(e)?;
            Ok(format!("Marked {n} items read."))
        }
    }
}

/// Opens an article for reading, with its stored images decoded: the reply to [`Job::Open`].
pub(super) fn open(store: &Store, engine: &Engine, id: ItemId) -> Reply {
    match reading::open_article(store, engine, id) {
        Ok(Some(article)) => {
            let images = decode_images(store, &article);
            Reply::Opened {
                id,
                article: Ok(Some(Box::new(article))),
                images,
            }
        }
        Ok(None) => Reply::Opened {
            id,
            article: Ok(None),
            images: Vec::new(),
        },
        Err(e) => Reply::Opened {
            id,
            article: Err(e.to_string()),
            images: Vec::new(),
        },
    }
}

/// Decodes the article's content images from the offline store (never the network). An image
/// that is missing or does not decode is skipped: the reader shows its alt text instead.
fn decode_images(store: &Store, article: &Article) -> Vec<DecodedImage> {
    let mut out = Vec::new();
    for block in article.content() {
        let Some(img) = &block.image else { continue };
        if out.iter().any(|d: &DecodedImage| d.url == img.src) {
            continue;
        }
        let Ok(Some(bytes)) = store.image_data(&img.src) else {
            continue;
        };
        if let Some(image) = decode_image(&bytes) {
            out.push(DecodedImage {
                url: img.src.clone(),
                image,
            });
        }
    }
    out
}

/// A hostile image must not claim gigabytes of memory.
fn limits_for_decode() -> image::Limits {
    let mut limits = image::Limits::default();
    limits.max_alloc = Some(256 * 1024 * 1024);
    limits.max_image_width = Some(16_384);
    limits.max_image_height = Some(16_384);
    limits
}

/// PNG, JPEG, GIF or WebP bytes to pixels, shrunk to [`MAX_IMAGE_SIDE`]; `None` if they do not
/// decode.
pub fn decode_image(bytes: &[u8]) -> Option<egui::ColorImage> {
    let mut reader = image::ImageReader::new(std::io::Cursor::new(bytes))
        .with_guessed_format()
        .ok()?;
    reader.limits(limits_for_decode());
    // The pixel count is checked before decoding: width and height each within bounds can still
    // multiply to more than pith will ever draw.
    let (width, height) = reader.into_dimensions().ok()?;
    if u64::from(width) * u64::from(height) > crate::limits::MAX_IMAGE_PIXELS {
        return None;
    }
    let mut reader = image::ImageReader::new(std::io::Cursor::new(bytes))
        .with_guessed_format()
        .ok()?;
    reader.limits(limits_for_decode());
    let mut img = reader.decode().ok()?;
    if img.width() > MAX_IMAGE_SIDE || img.height() > MAX_IMAGE_SIDE {
        img = img.resize(
            MAX_IMAGE_SIDE,
            MAX_IMAGE_SIDE,
            image::imageops::FilterType::Triangle,
        );
    }
    let rgba = img.to_rgba8();
    let size = [rgba.width() as usize, rgba.height() as usize];
    Some(egui::ColorImage::from_rgba_unmultiplied(
        size,
        rgba.as_raw(),
    ))
}

/// Subscribes to every feed of an OPML file: (feeds in the file, new ones).
fn import_opml(store: &mut Store, path: &std::path::Path) -> Result<(usize, usize), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    let done = refresh::import_opml(store, &bytes, refresh::unix_now())
        .map_err(|e| format!("in {}: {e}", path.display()))?;
    Ok((done.feeds, done.new))
}

/// Whether `reply` opened an article (and so it may be marked read).
pub(super) fn opened(reply: &Reply) -> bool {
    matches!(
        reply,
        Reply::Opened {
            article: Ok(Some(_)),
            ..
        }
    )
}
