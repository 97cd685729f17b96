//! The record's round trip: what a page encodes to reads back as its blocks, labels and reading
//! details; older forms still read; damaged records are errors, never panics.

use super::*;
use crate::classify::{self, Method};
use crate::store::{EntryRef, NewArticle, NewItem};

const URL: &str = "https://news.example/2026/harbour";

const HTML: &str = r#"<html><head><title>Harbour news</title></head><body>
    <nav><a href="/">Home</a> <a href="/world">World</a></nav>
    <article><h1>Harbour news</h1>
    <p>The harbour opened again on Monday, after three weeks of repairs to the quay, and the
    first ferries came in before noon with a "full" load, <a href="/ferries">the operator</a>
    said, as <a href="https://port.example/notice">the port's notice</a> had promised.</p>
    <img src="/img/quay.jpg" alt="The quay">
    <p>Fishermen said the new crane lifts twice what the old one did, ça va.</p>
    <ol start="3"><li>First the quay was drained, which took the whole of the first week.</li>
    <li>Then the crane came, on a barge from the yard across the bay, in one piece.</li></ol>
    </article>
    <footer>© Example 2026</footer></body></html>"#;

fn labelled_page() -> (Page, Vec<Label>, Vec<Label>) {
    let base = url::Url::parse(URL).unwrap();
    let page = crate::page::page_from_html(HTML, Some(&base));
    let page_level = classify::page_level::extract(&page).labels;
    let labels = classify::classify(Method::PithPage, &page, None);
    (page, labels, page_level)
}

/// What a page's record must read back as, built from the page directly.
fn expected(page: &Page, labels: &[Label], page_level: Option<&[Label]>) -> Vec<LabelledBlock> {
    let base = url::Url::parse(URL).ok();
    let markers = crate::page::markup::list_markers(page);
    page.blocks
        .iter()
        .zip(labels)
        .enumerate()
        .map(|(i, (b, l))| LabelledBlock {
            position: b.position,
            kind: format!("{:?}", b.kind),
            text: b.text.clone(),
            image: b.image.as_ref().map(|i| i.src.clone()),
            content: l.is_content(),
            reason: l.reason.to_string(),
            details: Some(BlockDetails {
                words: b.words,
                link_words: b.link_words,
                alt: b.image.as_ref().map(|i| i.alt.clone()).unwrap_or_default(),
                list_marker: markers[i],
                links: if l.is_content() {
                    crate::page::markup::block_links(page, b, base.as_ref())
                } else {
                    Vec::new()
                },
                page_level: page_level.map(|p| (p[i].is_content(), p[i].reason.to_string())),
            }),
        })
        .collect()
}

/// A record of the form written before [`RECORD`]: labels only.
fn blocks_form(blocks: &[LabelledBlock]) -> Vec<u8> {
    fn intern<'a>(strings: &mut Vec<&'a str>, s: &'a str) -> u64 {
        let at = strings.iter().position(|t| *t == s).unwrap_or_else(|| {
            strings.push(s);
            strings.len() - 1
        });
        at as u64
    }
    let mut strings: Vec<&str> = Vec::new();
    let mut body = Vec::new();
    for b in blocks {
        put_uint(&mut body, u64::from(b.position));
        put_uint(&mut body, intern(&mut strings, &b.kind));
        body.push(u8::from(b.content) | if b.image.is_some() { IMAGE } else { 0 });
        put_uint(&mut body, intern(&mut strings, &b.reason));
        put_str(&mut body, &b.text);
        if let Some(src) = &b.image {
            put_str(&mut body, src);
        }
    }
    let mut out = vec![BLOCKS];
    put_uint(&mut out, strings.len() as u64);
    for s in &strings {
        put_str(&mut out, s);
    }
    put_uint(&mut out, blocks.len() as u64);
    out.extend_from_slice(&body);
    out
}

/// A record of the oldest form: JSON in a zlib stream.
fn json_form(blocks: &[LabelledBlock]) -> Vec<u8> {
    use std::io::Write;
    let old: Vec<OldBlock> = blocks
        .iter()
        .map(|b| OldBlock {
            position: b.position,
            kind: b.kind.clone(),
            text: b.text.clone(),
            image: b.image.clone(),
            content: b.content,
            reason: b.reason.clone(),
        })
        .collect();
    let json = serde_json::to_vec(&old).unwrap();
    let mut zlib = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
    zlib.write_all(&json).unwrap();
    zlib.finish().unwrap()
}

fn without_details(blocks: &[LabelledBlock]) -> Vec<LabelledBlock> {
    blocks
        .iter()
        .map(|b| LabelledBlock {
            details: None,
            ..b.clone()
        })
        .collect()
}

#[test]
fn a_record_reads_back_as_the_page_its_labels_and_what_a_reader_needs() {
    let (page, labels, page_level) = labelled_page();
    let want = expected(&page, &labels, Some(&page_level));
    // The page has what the record must carry: both verdicts, an image with a description,
    // numbered list items, links (one relative) in content.
    assert!(want.iter().any(|b| b.content) && want.iter().any(|b| !b.content));
    let details = |b: &LabelledBlock| b.details.clone().unwrap();
    assert!(want.iter().any(|b| details(b).alt == "The quay"));
    assert!(
        want.iter()
            .any(|b| details(b).list_marker == Some(ListMarker::Number(4)))
    );
    assert!(want.iter().any(|b| {
        details(b)
            .links
            .iter()
            .any(|l| l.href == "https://news.example/ferries")
    }));
    let record = encode(&page, Some(URL), &labels, Some(&page_level));
    assert_eq!(record.stored().first(), Some(&RECORD));
    let got = decode(record.stored()).unwrap();
    assert_eq!(got, want);
    // The hashes come back from the texts and images.
    let hashes: Vec<BlockHash> = got.iter().map(LabelledBlock::hash).collect();
    let page_hashes: Vec<BlockHash> = page.blocks.iter().map(|b| b.hash).collect();
    assert_eq!(hashes, page_hashes);
    // Without page-level labels and a URL: no page-level verdicts, absolute links only.
    let bare = decode(PageBytes::encode_labelled(&page, &labels).stored()).unwrap();
    let links: Vec<String> = bare
        .iter()
        .flat_map(|b| details(b).links.into_iter().map(|l| l.href))
        .collect();
    assert_eq!(links, ["https://port.example/notice"]);
    assert!(bare.iter().all(|b| details(b).page_level.is_none()));
    assert_eq!(without_details(&bare), without_details(&want));
    assert_eq!(decode(&[RECORD, 0, 0]).unwrap(), []);
}

#[test]
fn kinds_read_back_from_their_names() {
    let mut kinds = vec![
        BlockKind::Paragraph,
        BlockKind::ListItem,
        BlockKind::Quote,
        BlockKind::Preformatted,
        BlockKind::TableCell,
        BlockKind::Caption,
        BlockKind::Image,
        BlockKind::Other,
    ];
    kinds.extend((1..=6).map(BlockKind::Heading));
    for kind in kinds {
        assert_eq!(parse_kind(&format!("{kind:?}")), Some(kind));
    }
    assert_eq!(parse_kind("Heading(x)"), None);
    assert_eq!(parse_kind("Marquee"), None);
}

/// Records of every form read back, through the store too.
#[test]
fn records_of_every_form_read_back() {
    let (page, labels, page_level) = labelled_page();
    let want = expected(&page, &labels, Some(&page_level));
    let labels_only = without_details(&want);
    let old_forms = [blocks_form(&labels_only), json_form(&labels_only)];
    assert_eq!(old_forms[0].first(), Some(&BLOCKS));
    assert_eq!(old_forms[1].first(), Some(&0x78));
    for old in &old_forms {
        assert_eq!(decode(old).unwrap(), labels_only);
    }
    assert_eq!(decode(&json_form(&[])).unwrap(), []);

    let mut store = Store::open_in_memory().unwrap();
    let (feed, _) = store
        .feed_add("http://ex.test/feed", None, None, 0)
        .unwrap();
    let raw = PageBytes::compress(HTML.as_bytes()).unwrap();
    let records = [
        encode(&page, Some(URL), &labels, Some(&page_level)),
        PageBytes::kept(old_forms[0].clone()),
        PageBytes::kept(old_forms[1].clone()),
    ];
    for (n, record) in records.iter().enumerate() {
        let link = format!("http://ex.test/{n}");
        let stored = store
            .item_store(
                &EntryRef {
                    feed,
                    identity: &link,
                },
                &NewItem {
                    link: &link,
                    title: "Harbour news",
                    summary: None,
                    published: None,
                    added: 1,
                },
                &NewArticle {
                    url: &link,
                    declared_charset: None,
                    raw: &raw,
                    domain: "ex.test",
                    url_key: &link,
                    tree_doc: None,
                    blocks: record,
                    text: "harbour",
                    images: &[],
                    known_images: &[],
                },
            )
            .unwrap();
        let expect = if n == 0 { &want } else { &labels_only };
        assert_eq!(&store.item_blocks(stored.id()).unwrap(), expect, "form {n}");
    }
    assert!(store.item_blocks(99).unwrap().is_empty());
}

/// A damaged record is an error, never a panic or a huge allocation: every truncation and every
/// single-byte change of a record.
#[test]
fn damaged_records_do_not_decode_or_panic() {
    let (page, labels, page_level) = labelled_page();
    let record = encode(&page, Some(URL), &labels, Some(&page_level))
        .stored()
        .to_vec();
    for len in 0..record.len() {
        assert!(decode(&record[..len]).is_err(), "cut at {len}");
    }
    for at in 1..record.len() {
        for byte in [0x00, 0x7f, 0x80, 0xff] {
            let mut bad = record.clone();
            bad[at] = byte;
            let _ = decode(&bad);
        }
    }
    for form in [RECORD, BLOCKS] {
        let huge = [form, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f];
        assert_eq!(decode(&huge), Err(RecordError::Damaged));
    }
    assert_eq!(decode(&[]), Err(RecordError::Empty));
    assert!(matches!(
        decode(&[0x78, 1, 2]),
        Err(RecordError::OldForm(_))
    ));
    // A link whose range does not cut its text at characters ("ç" is two bytes).
    let mut w = Writer::default();
    let kind = w.string("Paragraph");
    let links = [Link {
        range: 0..1,
        href: "https://ex.test/".into(),
    }];
    w.block(&BlockRecord {
        position: 0,
        kind,
        content: true,
        reason: kind,
        text: "ça",
        image: None,
        words: 1,
        link_words: 1,
        page_level: None,
        list_marker: None,
        links: &links,
    });
    assert_eq!(decode(w.finish().stored()), Err(RecordError::Damaged));
}

/// A file written before the index held letter pairs: its items' rows are written again, a batch
/// at a time, from what each item shows (here its feed summary, its page never fetched), until
/// every row is current; a word inside a Chinese sentence is then found.
#[test]
fn rows_of_an_older_index_form_are_written_again_batch_by_batch() {
    let mut store = Store::open_in_memory().unwrap();
    // A new file's rows are all current: nothing to do.
    assert_eq!(store.search_form().unwrap(), crate::store::SEARCH_FORM);
    assert_eq!(store.reindex_search(10).unwrap(), 0);
    let (feed, _) = store
        .feed_add("https://a.test/feed", Some("A"), None, 0)
        .unwrap();
    for i in 0..5 {
        let (identity, link) = (format!("entry {i}"), format!("https://a.test/{i}"));
        let summary = format!("<p>北京市今天发布了新的交通规定{i}。</p>");
        store
            .item_store_failed(
                &EntryRef {
                    feed,
                    identity: &identity,
                },
                &NewItem {
                    link: &link,
                    title: "新闻",
                    summary: Some(&summary),
                    published: None,
                    added: 0,
                },
                // An older version indexed no text for it.
                "",
                "failed",
            )
            .unwrap();
    }
    let found = |store: &Store| store.search("交通", 10).unwrap().len();
    assert_eq!(found(&store), 0);
    // As a file of an older version reads.
    store.set_setting("search_index_form", "1").unwrap();
    assert_eq!(store.reindex_search(2).unwrap(), 2);
    assert_eq!(found(&store), 2);
    assert!(store.search_form().unwrap() < crate::store::SEARCH_FORM);
    // The cursor names the form it counts towards; one left towards another form is not
    // followed (the rows it passed are not of this form), a bare id is the form-2 version's
    // (followed while the current form is 2: a later form restarts from the first item).
    let cursor = store.setting("search_reindexed_to").unwrap().unwrap();
    let (form, through) = cursor.split_once(':').unwrap();
    assert_eq!(form, crate::store::SEARCH_FORM.to_string());
    store
        .set_setting(
            "search_reindexed_to",
            &format!("{}:{through}", crate::store::SEARCH_FORM + 1),
        )
        .unwrap();
    assert_eq!(store.items_to_reindex(10).unwrap().len(), 5);
    store.set_setting("search_reindexed_to", through).unwrap();
    let after_bare = if crate::store::SEARCH_FORM == 2 { 3 } else { 5 };
    assert_eq!(store.items_to_reindex(10).unwrap().len(), after_bare);
    store.set_setting("search_reindexed_to", &cursor).unwrap();
    assert_eq!(store.reindex_search(2).unwrap(), 2);
    assert_eq!(store.reindex_search(2).unwrap(), 1);
    assert_eq!(found(&store), 5);
    assert_eq!(store.search_form().unwrap(), crate::store::SEARCH_FORM);
    assert_eq!(store.reindex_search(2).unwrap(), 0);
}
