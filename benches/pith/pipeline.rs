//! Throughput of every pipeline stage, of the whole pipeline, of html5ever parsing alone and of two
//! peer extractors, on the same pages in the same process. Contenders are interleaved page by page
//! (the order rotates), so a noisy neighbour slows all of them alike and the ratios hold.

use std::time::{Duration, Instant};

use pith::charset;
use pith::classify;
use pith::dom::Dom;
use pith::extract::{Document, Engine, Ingested};
use pith::limits;
use pith::page::{self, BlockKind};
use pith::store::{Store, TreeDocument, TreeInsert};
use pith::urlkey;

use crate::datasets::DatasetPage;
use crate::items::ItemSink;
use crate::{Args, bench_method, mb, rss_kb};

const STAGES: [&str; 7] = [
    "charset decoding",
    "HTML parsing (html5ever → arena DOM)",
    "block building (incl. hashing)",
    "hashing (MD5 of letters, re-run alone)",
    "URL key + URL Tree insert",
    "classification (tree branch + heuristic)",
    "storing (item, page, labelled blocks, FTS)",
];

const CONTENDERS: [&str; 5] = [
    "parse only (decode + html5ever)",
    "pith pipeline",
    "dom_smoothie 0.19",
    "rs-trafilatura 0.2",
    "pith pipeline without storing",
];

fn tld(url: &url::Url) -> Option<&str> {
    url.host_str()
        .and_then(|host| host.trim_end_matches('.').rsplit('.').next())
}

/// A database as the reader's refresh opens it (its writing connection's page cache included,
/// unless `--default-cache`).
pub fn open_store(args: &Args, path: &std::path::Path) -> anyhow::Result<Store> {
    let store = Store::open(path)?;
    if !args.default_cache {
        store.tune_for_refresh()?;
    }
    Ok(store)
}

/// Commits the store's batch when the reader's refresh would (`limits::REFRESH_BATCH_*`).
pub fn commit_if_due(store: &mut Store) -> anyhow::Result<()> {
    store.commit_batch_if_due(limits::REFRESH_BATCH_WRITES, limits::REFRESH_BATCH_AGE)?;
    Ok(())
}

/// The floor: decoding plus html5ever building pith's arena DOM, nothing else.
fn parse_only(page: &DatasetPage, base: Option<&url::Url>) -> usize {
    let decoded = charset::decode_with_tld(&page.bytes, None, base.and_then(tld));
    Dom::parse(&decoded.text).len()
}

/// pith as the reader runs it: ingest (decode, parse, blocks, URL key, tree insert), classify,
/// store.
fn pith_pipeline(
    engine: &Engine,
    store: &mut Store,
    items: Option<&mut ItemSink>,
    page: &DatasetPage,
    time: i64,
) -> usize {
    let doc = Document {
        bytes: &page.bytes,
        declared_charset: None,
        url: Some(&page.url),
        title: page.title.as_deref(),
        time,
        entry_text: None,
    };
    let Ok(ingested) = engine.ingest(store, &doc) else {
        return 0;
    };
    let Ok(labels) = engine.classify(store, &ingested, bench_method()) else {
        return 0;
    };
    let clean = classify::content_text(&ingested.page, &labels);
    if let Some(items) = items {
        let _ = store_item(items, store, page, &ingested, &labels, &clean);
    }
    clean.len()
}

/// The store stage: the item with its page, labelled blocks and clean text.
fn store_item(
    items: &mut ItemSink,
    store: &mut Store,
    page: &DatasetPage,
    ingested: &Ingested,
    labels: &[classify::Label],
    clean: &str,
) -> anyhow::Result<()> {
    let (domain, url_key) = match &ingested.key {
        Some(k) => (k.domain.as_str(), k.key.as_str()),
        None => ("", page.url.as_str()),
    };
    items.store(
        store,
        &page.url,
        &page.bytes,
        &ingested.page,
        labels,
        clean,
        (domain, url_key),
        ingested.doc,
    )
}

/// Runs every stage of pith one after the other on one page, timing each; the sum is the
/// pipeline without the second hashing pass.
fn staged(
    engine: &Engine,
    store: &mut Store,
    items: &mut ItemSink,
    page: &DatasetPage,
    time: i64,
    totals: &mut [Duration; 7],
) {
    let base = url::Url::parse(&page.url).ok();
    let mut t = Instant::now();
    let mut lap = |i: usize, totals: &mut [Duration; 7]| {
        let now = Instant::now();
        totals[i] += now - t;
        t = now;
    };
    let decoded = charset::decode_with_tld(&page.bytes, None, base.as_ref().and_then(tld));
    lap(0, totals);
    let dom = Dom::parse(&decoded.text);
    lap(1, totals);
    let parsed = page::page_from_dom(dom, base.as_ref());
    lap(2, totals);
    let mut fold = 0u8;
    for block in &parsed.blocks {
        let hash = match (&block.kind, &block.image) {
            (BlockKind::Image, Some(image)) => page::hash_image(&image.src),
            _ => page::hash_text(&block.text),
        };
        fold ^= hash.0[0];
    }
    std::hint::black_box(fold);
    lap(3, totals);
    let key = urlkey::url_key(&page.url, page.title.as_deref(), &engine.rules).ok();
    let mut doc = None;
    if let Some(key) = &key {
        let hashes: Vec<_> = parsed.blocks.iter().map(|b| b.hash).collect();
        let branch = key.branch();
        let tree_doc = TreeDocument {
            branch: &branch,
            url_key: &key.key,
            hashes: &hashes,
            memory: None,
            added: time,
        };
        doc = match store.tree_insert(&tree_doc) {
            Ok(TreeInsert::Inserted(id) | TreeInsert::Duplicate(id)) => Some(id),
            Err(_) => None,
        };
    }
    lap(4, totals);
    let page_level = pith::classify::page_level::extract(&parsed);
    let ingested = Ingested {
        page_level,
        page: parsed,
        key,
        doc,
        duplicate: false,
    };
    let labels = engine
        .classify(store, &ingested, bench_method())
        .unwrap_or_default();
    lap(5, totals);
    let clean = classify::content_text(&ingested.page, &labels);
    let _ = store_item(items, store, page, &ingested, &labels, &clean);
    lap(6, totals);
}

/// Runs the comparison and prints its tables.
pub fn run(args: &Args, pages: &[DatasetPage]) -> anyhow::Result<()> {
    let engine = Engine::default();
    let bytes: usize = pages.iter().map(|p| p.bytes.len()).sum();
    let n = pages.len() as f64;
    println!(
        "{} pages, {:.1} MB, {} rounds, method {}",
        pages.len(),
        mb(bytes),
        args.rounds,
        bench_method()
    );
    let bases: Vec<Option<url::Url>> = pages.iter().map(|p| url::Url::parse(&p.url).ok()).collect();
    // Stage breakdown: one pass per round on a fresh database.
    let mut stage_totals = [Duration::ZERO; 7];
    for round in 0..args.rounds {
        let dir = tempfile::tempdir()?;
        let mut store = open_store(args, &dir.path().join("pith.db"))?;
        let mut items = ItemSink::open(&mut store)?;
        store.begin_batch();
        for (i, page) in pages.iter().enumerate() {
            staged(
                &engine,
                &mut store,
                &mut items,
                page,
                i as i64,
                &mut stage_totals,
            );
            let t = Instant::now();
            commit_if_due(&mut store)?;
            // A commit belongs to the stages that wrote: the tree insert and the storing.
            stage_totals[6] += t.elapsed();
        }
        store.commit_batch()?;
        eprintln!("stages: round {} done", round + 1);
    }
    println!("\n### pith stage by stage\n");
    println!("| stage | pages/s | MB/s | ms/page |");
    println!("|---|---:|---:|---:|");
    let rounds = args.rounds as f64;
    let mut pipeline = Duration::ZERO;
    for (i, (name, total)) in STAGES.iter().zip(stage_totals).enumerate() {
        if i != 3 {
            pipeline += total;
        }
        let secs = total.as_secs_f64() / rounds;
        println!(
            "| {name} | {:.0} | {:.1} | {:.3} |",
            n / secs,
            mb(bytes) / secs,
            secs * 1000.0 / n
        );
    }
    let secs = pipeline.as_secs_f64() / rounds;
    println!(
        "| **sum of stages (hashing counted once)** | {:.0} | {:.1} | {:.3} |",
        n / secs,
        mb(bytes) / secs,
        secs * 1000.0 / n
    );

    // Contenders interleaved page by page, the starting contender rotating.
    let mut per_round: Vec<[Duration; 5]> = Vec::new();
    let mut sink = 0usize;
    for round in 0..args.rounds {
        let dir = tempfile::tempdir()?;
        let mut store = open_store(args, &dir.path().join("pith.db"))?;
        let mut items = ItemSink::open(&mut store)?;
        // Its own tree, so that both pith runs see each page once.
        let mut bare_store = open_store(args, &dir.path().join("bare.db"))?;
        let mut totals = [Duration::ZERO; 5];
        store.begin_batch();
        bare_store.begin_batch();
        for (i, page) in pages.iter().enumerate() {
            for k in 0..5 {
                let which = (i + round + k) % 5;
                if (which == 2 || which == 3) && args.no_peers {
                    continue;
                }
                let start = Instant::now();
                sink ^= match which {
                    0 => parse_only(page, bases[i].as_ref()),
                    1 => {
                        let n =
                            pith_pipeline(&engine, &mut store, Some(&mut items), page, i as i64);
                        let _ = commit_if_due(&mut store);
                        n
                    }
                    2 => crate::peers::dom_smoothie(&page.bytes, Some(&page.url)).len(),
                    3 => crate::peers::trafilatura(&page.bytes, Some(&page.url)).len(),
                    _ => {
                        let n = pith_pipeline(&engine, &mut bare_store, None, page, i as i64);
                        let _ = commit_if_due(&mut bare_store);
                        n
                    }
                };
                totals[which] += start.elapsed();
            }
        }
        let start = Instant::now();
        store.commit_batch()?;
        totals[1] += start.elapsed();
        let start = Instant::now();
        bare_store.commit_batch()?;
        totals[4] += start.elapsed();
        eprintln!("contenders: round {} done", round + 1);
        per_round.push(totals);
    }
    std::hint::black_box(sink);
    let mut sums = [Duration::ZERO; 5];
    for totals in &per_round {
        for (s, t) in sums.iter_mut().zip(totals) {
            *s += *t;
        }
    }
    println!("\n### Same pages, same process, interleaved page by page\n");
    println!("| contender | pages/s | MB/s | ms/page |");
    println!("|---|---:|---:|---:|");
    for (name, total) in CONTENDERS.iter().zip(sums) {
        if total.is_zero() {
            continue;
        }
        let secs = total.as_secs_f64() / rounds;
        println!(
            "| {name} | {:.0} | {:.1} | {:.3} |",
            n / secs,
            mb(bytes) / secs,
            secs * 1000.0 / n
        );
    }
    println!("\n### Throughput ratios (per round, then overall)\n");
    println!("| throughput ratio | bar | rounds | overall |");
    println!("|---|---:|---|---:|");
    for (pith, k, bar) in [
        (1usize, 0usize, "≥ 0.5"),
        (1, 2, "≥ 3"),
        (1, 3, "—"),
        (4, 0, "—"),
        (4, 2, "—"),
    ] {
        if sums[k].is_zero() {
            continue;
        }
        let each: Vec<String> = per_round
            .iter()
            .map(|t| format!("{:.2}", t[k].as_secs_f64() / t[pith].as_secs_f64()))
            .collect();
        println!(
            "| {} / {} | {bar} | {} | **{:.2}** |",
            CONTENDERS[pith],
            CONTENDERS[k],
            each.join(", "),
            sums[k].as_secs_f64() / sums[pith].as_secs_f64()
        );
    }
    println!(
        "\nmemory: resident {} MB now, peak {} MB",
        rss_kb("VmRSS") / 1024,
        rss_kb("VmHWM") / 1024
    );
    Ok(())
}
