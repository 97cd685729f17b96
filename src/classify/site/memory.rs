//! The site's memory: what each page leaves in its site's URL Tree besides its block hashes, and
//! how the site-aware rule reads it back.
//!
//! A page contributes the DOM signature of the box its article was in (so that the site's
//! pages can agree on where their articles live) and the slots where it carried prose of its own
//! outside its article (so that the site can take such prose back where most of its pages
//! have it). The store counts both at every node of the page's branch and keeps the page's record
//! to uncount it exactly when the page leaves the tree; it keeps them as opaque keys
//! ([`MemoryRecord`]), and this module alone knows what a key means.

use crate::classify::page_level::ArticleExtraction;
use crate::classify::signature;
use crate::dom::NodeId;
use crate::page::{BlockHash, Page};
use crate::store::{CountsAt, DocId, MemoryRead, MemoryRecord, Store, StoreError};
use crate::urltree::{Branch, NodeStats};

/// The prefix that tells a prose slot's key from a container signature in the site's memory
/// (a signature starts with a tag name, which never holds a colon).
pub const SLOT_PREFIX: &str = "slot:";

/// How many of a node's most frequent container signatures the rule reads.
pub const LISTED_CONTAINERS: usize = 8;

/// A place where a page carries prose of its own outside its article: its element's class path
/// (the DOM signature without ids, which a site often generates per page), hashed to keep the
/// memory small (paths run to hundreds of bytes).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SlotKey(String);

impl SlotKey {
    /// The slot of `node` in `page`; `None` when it is not an element below `<body>`.
    pub fn of(page: &Page, node: NodeId) -> Option<SlotKey> {
        use md5::{Digest, Md5};
        let signature = signature::class_path(&page.dom, node)?;
        let digest = Md5::digest(signature.as_bytes());
        let mut key = String::from(SLOT_PREFIX);
        for byte in &digest[..8] {
            key.push_str(&format!("{byte:02x}"));
        }
        Some(SlotKey(key))
    }

    /// The key as the site's memory counts it.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// What one page leaves in its site's memory.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageMemory {
    /// The DOM signature of the box the page-level extractor's article lives in (its main
    /// container, or the element holding all its containers); `None` when it found none.
    pub container: Option<String>,
    /// The slots where the page carried prose of its own before its article (at most
    /// [`super::MAX_SLOTS_PER_PAGE`]), in page order.
    pub slots: Vec<SlotKey>,
}

/// The signature of the box the page-level article lives in: its main container, or the
/// smallest element holding every container when it has several (a main box and the siblings
/// or parts that belong with it). The site's pages agree on that box, not on whichever part
/// scored best on each page: a site that prints its article in parts alike in name has its
/// pages pick different parts, and a memory of one part would cut the next page's article down
/// to it. When that element is `<body>` (the main container and a sibling are children of it),
/// it names no box, and the main container is remembered.
fn article_box(page: &Page, containers: &[NodeId]) -> Option<String> {
    let dom = &page.dom;
    let (&first, rest) = containers.split_first()?;
    let mut held = first;
    for &part in rest {
        while !super::inside_any(page, part, &[held]) {
            held = dom.parent(held)?;
        }
    }
    signature::signature(dom, held).or_else(|| signature::signature(dom, first))
}

impl PageMemory {
    /// What `page` contributes, as pith's page-level extractor saw it (`page_level`).
    pub fn of_page(page: &Page, page_level: &ArticleExtraction) -> PageMemory {
        PageMemory {
            container: article_box(page, &page_level.containers),
            slots: super::prose_outside(page, &page_level.labels, &page_level.containers)
                .into_iter()
                .map(|(_, key)| key)
                .collect(),
        }
    }

    /// The record the store keeps: the container's signature first (an empty entry when there is
    /// none, so that the slots never take its place), then the slots. `None` when the page leaves
    /// nothing.
    pub fn encode(&self) -> Option<MemoryRecord> {
        if self.container.is_none() && self.slots.is_empty() {
            return None;
        }
        let container = self.container.as_deref().unwrap_or_default();
        Some(MemoryRecord::from_keys(
            std::iter::once(container).chain(self.slots.iter().map(SlotKey::as_str)),
        ))
    }

    /// A stored record read back. Lenient, as records are the store's and older ones were written
    /// as text: the first entry is the container unless it is empty or a slot, every other entry
    /// with the slot prefix is a slot, and anything else is ignored.
    pub fn decode(record: &MemoryRecord) -> PageMemory {
        let mut memory = PageMemory::default();
        for (i, entry) in record.entries().enumerate() {
            if entry.starts_with(SLOT_PREFIX) {
                memory.slots.push(SlotKey(entry.to_string()));
            } else if i == 0 && !entry.is_empty() {
                memory.container = Some(entry.to_string());
            }
        }
        memory
    }
}

/// The container signatures most of `node`'s pages had their article in, most frequent first,
/// with how many pages had each (as read by [`read_branch`]).
pub fn containers(node: &NodeStats) -> &[(String, u32)] {
    &node.memory_top
}

/// How many of `node`'s pages had prose of their own in `slot` (as read by [`read_branch`]).
pub fn slot_count(node: &NodeStats, slot: &SlotKey) -> u32 {
    node.memory_counts.get(slot.as_str()).copied().unwrap_or(0)
}

/// Reads document `doc`'s branch with the counts of `hashes` at the nodes `counts` names and, at
/// those nodes, the site's memory as the rule needs it (for the slots `doc` recorded when it was
/// inserted). Empty when the document is not in the tree.
pub fn read_branch(
    store: &Store,
    doc: DocId,
    hashes: &[BlockHash],
    counts: CountsAt,
) -> Result<Branch, StoreError> {
    let memory = recorded(store, doc)?;
    read_with(store, doc, hashes, counts, &memory)
}

/// What `doc` recorded in its site's memory (nothing when it is not in the tree).
pub(super) fn recorded(store: &Store, doc: DocId) -> Result<PageMemory, StoreError> {
    Ok(store
        .tree_doc_memory(doc)?
        .map(|record| PageMemory::decode(&record))
        .unwrap_or_default())
}

/// As [`read_branch`], with the document's memory already read.
pub(super) fn read_with(
    store: &Store,
    doc: DocId,
    hashes: &[BlockHash],
    counts: CountsAt,
    memory: &PageMemory,
) -> Result<Branch, StoreError> {
    // The rule reads the most frequent containers at each node, and how often the page's own
    // slots held prose there.
    let slots: Vec<&str> = memory.slots.iter().map(SlotKey::as_str).collect();
    let read = MemoryRead {
        counted: &slots,
        top: LISTED_CONTAINERS,
        unlisted_prefix: SLOT_PREFIX,
    };
    store.tree_branch_read(doc, hashes, counts, Some(&read))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::page_from_html;

    /// An article printed in parts: the page-level extractor's main container is one part and the
    /// others are its siblings; the page leaves the box holding them all in the site's memory, and
    /// an article of one container leaves that container.
    #[test]
    fn a_page_remembers_the_box_holding_its_articles_parts() {
        let page = page_from_html(
            r#"<body><div id="rail"><section id="body-text"><div class="l-container">
            <div class="part" id="a"><p>First part of the story, long enough to read.</p></div>
            <div class="part" id="b"><p>Second part of the story, long enough to read.</p></div>
            <div class="read-all" id="c"><p>The rest of the story, long enough to read.</p></div>
            </div></section><aside><p>Elsewhere on the site today.</p></aside></div></body>"#,
            None,
        );
        let by_id = |id: &str| page.dom.element_with_id(id).unwrap();
        let remembered = |containers: Vec<NodeId>| {
            let extraction = ArticleExtraction {
                labels: Vec::new(),
                containers,
            };
            PageMemory::of_page(&page, &extraction).container
        };
        assert_eq!(
            remembered(vec![by_id("c"), by_id("a"), by_id("b")]).as_deref(),
            Some("div#rail/section#body-text/div.l-container")
        );
        assert_eq!(
            remembered(vec![by_id("c")]).as_deref(),
            Some("div#rail/section#body-text/div.l-container/div#c.read-all")
        );
        assert_eq!(remembered(Vec::new()), None);
        // A main container and a sibling that are children of `<body>`: the main container.
        let flat = page_from_html(
            r#"<body><div id="main"><p>The story, long enough to read.</p></div>
            <div class="box"><p>Our newsletter, every morning.</p></div></body>"#,
            None,
        );
        let body_children: Vec<NodeId> = flat
            .dom
            .children(flat.dom.body().unwrap())
            .filter(|&n| flat.dom.is_element(n))
            .collect();
        let extraction = ArticleExtraction {
            labels: Vec::new(),
            containers: body_children,
        };
        assert_eq!(
            PageMemory::of_page(&flat, &extraction).container.as_deref(),
            Some("div#main")
        );
    }

    #[test]
    fn a_record_reads_back_as_the_memory_it_was_made_of() {
        let slot = |s: &str| SlotKey(format!("{SLOT_PREFIX}{s}"));
        for memory in [
            PageMemory {
                container: Some("div#main/article.post".into()),
                slots: vec![slot("aa"), slot("bb")],
            },
            PageMemory {
                container: None,
                slots: vec![slot("aa")],
            },
            PageMemory {
                container: Some("main".into()),
                slots: Vec::new(),
            },
        ] {
            let record = memory.encode().unwrap();
            assert_eq!(PageMemory::decode(&record), memory, "{record:?}");
        }
        assert_eq!(PageMemory::default().encode(), None);
        // The form older files hold: the container first, an empty line when there was none.
        let old = MemoryRecord::from_keys(["", "slot:aa", "slot:bb"]);
        assert_eq!(old.as_str(), "\nslot:aa\nslot:bb");
        assert_eq!(
            PageMemory::decode(&old),
            PageMemory {
                container: None,
                slots: vec![slot("aa"), slot("bb")],
            }
        );
        assert_eq!(
            PageMemory {
                container: None,
                slots: vec![slot("aa"), slot("bb")],
            }
            .encode(),
            Some(old)
        );
    }
}
