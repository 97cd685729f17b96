//! One document through the engine: bytes → blocks → URL key → the site's URL Tree → labels.
//! The reader, `pith extract` and `pith eval` all call this, so what is measured is what is shown.

use crate::classify::page_level::{self, ArticleExtraction};
use crate::classify::{self, Label, Method, site};
use crate::page::{self, Page};
use crate::store::{DocId, Store, StoreError, TreeDocument, TreeInsert};
use crate::urlkey::{self, QueryRules, UrlKey, UrlKeyError};
use crate::urltree::{Branch, HistoryWindow};

/// A document offered to the engine.
#[derive(Debug, Clone, Copy)]
pub struct Document<'a> {
    /// The page bytes as served.
    pub bytes: &'a [u8],
    /// The charset the HTTP header declared, if any (a `Content-Type` value or a bare label).
    pub declared_charset: Option<&'a str>,
    /// The response URL (after redirects); `None` for a page with no known URL (no tree then).
    pub url: Option<&'a str>,
    /// The entry title as given in the feed (it becomes the URL key's `_cid_`).
    pub title: Option<&'a str>,
    /// The document's time in the stream, unix seconds (history window clock).
    pub time: i64,
    /// The feed entry's own text (its summary, or its content when it has no summary), HTML or
    /// plain: when it is the article's text at length, it says where the article lives on the
    /// page, which no page-level extractor knows.
    pub entry_text: Option<&'a str>,
}

/// A document after ingestion: parsed, keyed, and (with a URL) counted in its site's tree.
#[derive(Debug)]
pub struct Ingested {
    /// The parsed page.
    pub page: Page,
    /// pith's page-level extraction of it (computed once: the signature of its article's box goes
    /// into the site's memory, and the site-aware default starts from it).
    pub page_level: ArticleExtraction,
    /// Its URL key, when it has a URL.
    pub key: Option<UrlKey>,
    /// Its document in the tree, when it has a URL.
    pub doc: Option<DocId>,
    /// True when a document with the same URL key was already in the domain's tree, so this one
    /// was not counted again.
    pub duplicate: bool,
}

/// What can go wrong while running a document through the engine.
#[derive(Debug, thiserror::Error)]
pub enum ExtractError {
    /// The URL does not make a URL key.
    #[error(transparent)]
    UrlKey(#[from] UrlKeyError),
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// The engine's settings: query rules for URL keys and the tree's history window.
#[derive(Debug, Clone)]
pub struct Engine {
    /// The URL-key query rules (user rules first, then the built-in list).
    pub rules: QueryRules,
    /// Which documents each domain's tree remembers.
    pub window: HistoryWindow,
}

impl Default for Engine {
    fn default() -> Self {
        Engine {
            rules: QueryRules::builtin(),
            window: HistoryWindow::default(),
        }
    }
}

impl Engine {
    /// Parses the document and, when it has a URL, inserts its block hashes into its site's tree
    /// (before any classification, as the paper does). A within-domain duplicate is not counted.
    pub fn ingest(&self, store: &mut Store, doc: &Document<'_>) -> Result<Ingested, ExtractError> {
        let mut opened = self.parse(doc, None)?;
        self.insert(store, &mut opened, doc.time)?;
        Ok(opened)
    }

    /// The second half of [`Engine::ingest`]: inserts a parsed document (from
    /// [`Engine::parse`] with no tree document) into its site's tree, recording its tree
    /// document and whether it was a duplicate. Apart so that a refresh parses pages in
    /// parallel and only the insert waits for the database.
    pub fn insert(
        &self,
        store: &mut Store,
        opened: &mut Ingested,
        time: i64,
    ) -> Result<(), ExtractError> {
        let Ingested {
            page,
            page_level,
            key,
            ..
        } = &*opened;
        let (tree_doc, duplicate) = match key {
            Some(key) => {
                let memory = site::PageMemory::of_page(page, page_level).encode();
                let hashes: Vec<_> = page.blocks.iter().map(|b| b.hash).collect();
                let branch = key.branch();
                let tree_doc = TreeDocument {
                    branch: &branch,
                    url_key: &key.key,
                    hashes: &hashes,
                    memory: memory.as_ref(),
                    added: time,
                };
                match store.tree_insert(&tree_doc)? {
                    TreeInsert::Inserted(id) => (Some(id), false),
                    TreeInsert::Duplicate(id) => (Some(id), true),
                }
            }
            None => (None, false),
        };
        opened.doc = tree_doc;
        opened.duplicate = duplicate;
        Ok(())
    }

    /// Parses a document (its page, pith's page-level extraction, its URL key) without touching
    /// the tree. `tree_doc` is its document in its site's tree: `None` for a page not inserted
    /// yet (then [`Engine::insert`] counts it), or the document of a page ingested earlier, which
    /// is parsed again from its stored bytes and not counted again, so that it is classified with
    /// what its site's tree knows now: labels are never frozen when a page arrives.
    pub fn parse(
        &self,
        doc: &Document<'_>,
        tree_doc: Option<DocId>,
    ) -> Result<Ingested, ExtractError> {
        let key = doc
            .url
            .map(|url| urlkey::url_key(url, doc.title, &self.rules))
            .transpose()?;
        let base = doc.url.and_then(|u| url::Url::parse(u).ok());
        let page = page::parse_page(doc.bytes, doc.declared_charset, base.as_ref());
        let page_level = page_level::extract_with_entry(&page, doc.entry_text);
        Ok(Ingested {
            page,
            page_level,
            key,
            doc: tree_doc,
            duplicate: false,
        })
    }

    /// The branch statistics an ingested document's blocks are counted with, read from the tree
    /// now (so a page classified again later sees what the site's tree knows then): every node's
    /// support and the counts of every block. What the site-aware rule reads of the site's memory
    /// is `site`'s to read ([`site::read_branch`]).
    pub fn branch(
        &self,
        store: &Store,
        ingested: &Ingested,
    ) -> Result<Option<Branch>, ExtractError> {
        let Some(doc) = ingested.doc else {
            return Ok(None);
        };
        let hashes: Vec<_> = ingested.page.blocks.iter().map(|b| b.hash).collect();
        let branch = store.tree_branch(doc, &hashes)?;
        // A document that has since left the tree (history window) is classified without one.
        Ok((!branch.nodes.is_empty()).then_some(branch))
    }

    /// Labels an ingested document's blocks with `method`, reading its branch from the tree, and
    /// applies the user's pins for its site (they override every method).
    pub fn classify(
        &self,
        store: &Store,
        ingested: &Ingested,
        method: Method,
    ) -> Result<Vec<Label>, ExtractError> {
        store.read_snapshot(|| self.classify_reading(store, ingested, method))
    }

    /// [`Engine::classify`]'s work, inside its read transaction.
    fn classify_reading(
        &self,
        store: &Store,
        ingested: &Ingested,
        method: Method,
    ) -> Result<Vec<Label>, ExtractError> {
        let mut labels = match method {
            Method::Site => {
                site::classify_in_tree(store, &ingested.page, &ingested.page_level, ingested.doc)?
            }
            _ => {
                let branch = if method.uses_tree() {
                    self.branch(store, ingested)?
                } else {
                    None
                };
                classify::classify_with(
                    method,
                    &ingested.page,
                    branch.as_ref(),
                    &ingested.page_level,
                )
            }
        };
        if let Some(key) = &ingested.key {
            let pins = store.pin_verdicts(&key.domain)?;
            classify::apply_pins(&ingested.page, &mut labels, &pins);
        }
        Ok(labels)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::PinVerdict;

    fn page(n: usize) -> String {
        format!(
            "<html><body><nav><a href='/'>Home</a> <a href='/world'>World</a></nav>\
             <article><h1>Story number {n}</h1>\
             <p>The council met on day {n} and spoke at length about the river, the bridge and \
             the budget that the town will need next year to keep both open.</p>\
             <p>Residents asked questions for an hour; the mayor answered most of them in turn, \
             story {n} of the series.</p></article>\
             <footer>Copyright Example News, all rights reserved.</footer></body></html>"
        )
    }

    #[test]
    fn pins_override_the_method_on_every_page_of_the_site_and_only_there() {
        let engine = Engine::default();
        let mut store = Store::open_in_memory().unwrap();
        let mut last = None;
        for n in 0..3 {
            let html = page(n);
            let url = format!("https://news.example.com/story/{n}");
            let doc = Document {
                bytes: html.as_bytes(),
                declared_charset: None,
                url: Some(&url),
                title: None,
                time: n as i64,
                entry_text: None,
            };
            last = Some(engine.ingest(&mut store, &doc).unwrap());
        }
        let ingested = last.unwrap();
        let method = Method::default_method();
        let before = engine.classify(&store, &ingested, method).unwrap();
        let footer = ingested
            .page
            .blocks
            .iter()
            .position(|b| b.text.starts_with("Copyright"))
            .unwrap();
        let first_paragraph = ingested
            .page
            .blocks
            .iter()
            .position(|b| b.text.starts_with("The council"))
            .unwrap();
        assert!(!before[footer].is_content());
        assert!(before[first_paragraph].is_content());

        let domain = &ingested.key.as_ref().unwrap().domain;
        let pages_blocks = &ingested.page.blocks;
        store
            .pin_add(
                domain,
                pages_blocks[footer].hash,
                PinVerdict::Content,
                "Copyright",
                9,
            )
            .unwrap();
        store
            .pin_add(
                domain,
                pages_blocks[first_paragraph].hash,
                PinVerdict::Boilerplate,
                "The council",
                9,
            )
            .unwrap();
        // A pin of another site changes nothing here.
        store
            .pin_add(
                "other.example",
                pages_blocks[0].hash,
                PinVerdict::Boilerplate,
                "Home",
                9,
            )
            .unwrap();
        let after = engine.classify(&store, &ingested, method).unwrap();
        assert!(after[footer].is_content());
        assert_eq!(
            after[footer].reason,
            classify::Reason::Pinned {
                was: crate::urltree::Verdict::Boilerplate
            }
        );
        assert!(!after[first_paragraph].is_content());
        for (i, (a, b)) in before.iter().zip(&after).enumerate() {
            if i != footer && i != first_paragraph {
                assert_eq!(a, b, "block {i} is not pinned and keeps its label");
            }
        }
        // Removing the pin gives the method's label back.
        let pin = store.pins(Some(domain)).unwrap()[0].id;
        store.pin_remove(pin).unwrap();
        store.pin_remove(pin + 1).unwrap();
        assert_eq!(engine.classify(&store, &ingested, method).unwrap(), before);
    }
}
