//! The "store" stage: what the reader's refresh writes per article once it is classified, through
//! the same calls (`src/refresh/pipeline.rs`, `classify` and `store_article`): the raw page
//! compressed, the blocks with their labels and reasons encoded for the inspector, and the item
//! with its clean text in the full-text index, in one transaction, in the same database file as the
//! URL Tree. Image downloads are left out (the datasets have no images to fetch).

use pith::classify::Label;
use pith::page::Page;
use pith::store::{EntryRef, FeedId, NewArticle, NewItem, PageBytes, Store};

/// Stores classified pages as items of one feed.
pub struct ItemSink {
    feed: FeedId,
    entries: u64,
}

impl ItemSink {
    /// Subscribes the benchmark's feed in `store`.
    pub fn open(store: &mut Store) -> anyhow::Result<ItemSink> {
        let (feed, _) = store.feed_add("http://bench.invalid/feed", Some("bench"), None, 0)?;
        Ok(ItemSink { feed, entries: 0 })
    }

    /// Stores one classified page as a new item, as the refresh does.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &mut self,
        store: &mut Store,
        url: &str,
        raw: &[u8],
        page: &Page,
        labels: &[Label],
        clean: &str,
        (domain, url_key): (&str, &str),
        tree_doc: Option<i64>,
    ) -> anyhow::Result<()> {
        self.entries += 1;
        let identity = format!("{:032x}", self.entries);
        let raw = PageBytes::compress(raw)?;
        let blocks = PageBytes::encode_labelled(page, labels);
        let title = page.title.as_str();
        store.item_store(
            &EntryRef {
                feed: self.feed,
                identity: &identity,
            },
            &NewItem {
                link: url,
                title,
                summary: None,
                published: None,
                added: 0,
            },
            &NewArticle {
                url,
                declared_charset: None,
                raw: &raw,
                domain,
                url_key,
                tree_doc,
                blocks: &blocks,
                text: clean,
                images: &[],
                known_images: &[],
            },
        )?;
        Ok(())
    }
}
