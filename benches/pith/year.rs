//! A simulated year under the retention policy (issue 15): `cargo bench --bench pith -- year
//! --feeds F --per-day N`. Every feed is its own site (`www.siteN.com`) built on a real dataset
//! page's template (`streamgen`); each day every feed brings N articles, each one an item stored
//! as a refresh stores it (`Store::item_store`: compressed page, record, search text, entry), and
//! its page's hashes go into the site's URL Tree. The reader reads half the items as they come
//! and stars one in 200; the rest stay unread. At the end of each day the store's retention sweep
//! runs at the simulated time (`Store::retention_sweep` takes `now`), with the default periods,
//! and every feed's tombstones of entries it no longer lists (its last 50) are forgotten.
//!
//! What is real and what is cloned: one article in `--classify-every` per feed is generated from
//! its template, parsed, inserted into the tree and classified by the engine (the timed ingest);
//! the others are clones of the feed's last real one: the same compressed page, record and text
//! (so the same sizes), with the hashes of its content blocks replaced by fresh ones (a new
//! article on the same template, as the tree sees it), inserted into the tree too. So the file's
//! size, the URL Tree, the full-text index and retention's work are those of every article; only
//! the parsing and classification of the clones are left out, to keep a year within minutes.

use std::time::{Duration, Instant};

use pith::classify;
use pith::extract::{Engine, Ingested};
use pith::page::{self, BlockHash};
use pith::store::{
    EntryRef, FeedId, ItemFilter, NewArticle, NewItem, PageBytes, Retention, Store, SweepLimits,
    TreeDocument,
};
use pith::urlkey;

use crate::datasets::DatasetPage;
use crate::streamgen::{self, Lcg, Template};
use crate::{Args, bench_method};

const DAY: i64 = 86_400;

/// A feed's last real article: what its clones copy.
struct Last {
    raw: PageBytes,
    blocks: PageBytes,
    text: String,
    /// The page's unique hashes, and which of them are content (replaced in a clone).
    hashes: Vec<(BlockHash, bool)>,
    branch: Vec<String>,
}

/// One simulated feed.
struct Feed {
    id: FeedId,
    host: String,
    template: usize,
    last: Option<Last>,
    /// Its entries' identities, newest last (the feed lists its last 50).
    listed: std::collections::VecDeque<String>,
}

/// Measures at a checkpoint day.
struct Checkpoint {
    day: i64,
    file: u64,
    items: i64,
    pages: i64,
    ingest_us: f64,
    /// The window's search: ids and ranks of up to 500 hits, then their list rows.
    search_ms: f64,
    /// `pith search`: 20 hits with their snippets, cut from each hit's record.
    snippets_ms: f64,
    list_ms: f64,
    swept_ms: f64,
    /// Documents the day's sweep took out of the URL Tree, and its time for them.
    tree_removed: usize,
    window_ms: f64,
}

fn file_bytes(store: &Store) -> anyhow::Result<u64> {
    store.checkpoint()?;
    Ok(store.space_file_bytes()?)
}

/// A real article: what its clones copy, its URL, URL key, tree document, title, time, and what
/// its tree insert and classification took.
type RealArticle = (Last, String, String, Option<i64>, String, i64, Duration);

/// A real article: generated, parsed, inserted, classified (timed), stored.
#[allow(clippy::too_many_arguments)]
fn real_article(
    engine: &Engine,
    store: &mut Store,
    template: &Template,
    feed: &Feed,
    pool: &[String],
    index: usize,
    spacing: i64,
    rng: &mut Lcg,
) -> anyhow::Result<RealArticle> {
    let generated = streamgen::generate(template, Some(&feed.host), pool, index, spacing, rng);
    let base = url::Url::parse(&generated.url).ok();
    let parsed = page::parse_page(generated.html.as_bytes(), Some("utf-8"), base.as_ref());
    let key = urlkey::url_key(&generated.url, Some(&generated.title), &engine.rules)?;
    let hashes: Vec<_> = parsed.blocks.iter().map(|b| b.hash).collect();
    let branch = key.branch();
    let start = Instant::now();
    let doc = store
        .tree_insert(&TreeDocument {
            branch: &branch,
            url_key: &key.key,
            hashes: &hashes,
            memory: None,
            added: generated.time,
        })?
        .doc();
    let page_level = pith::classify::page_level::extract(&parsed);
    let ingested = Ingested {
        page_level,
        page: parsed,
        key: Some(key.clone()),
        doc: Some(doc),
        duplicate: false,
    };
    let labels = engine.classify(store, &ingested, bench_method())?;
    let ingest = start.elapsed();
    let text = classify::content_text(&ingested.page, &labels);
    let blocks = classify::labelled::encode(
        &ingested.page,
        Some(&generated.url),
        &labels,
        Some(ingested.page_level.labels.as_slice()),
    );
    let mut content: Vec<(BlockHash, bool)> = ingested
        .page
        .blocks
        .iter()
        .zip(&labels)
        .map(|(b, l)| (b.hash, l.is_content()))
        .collect();
    content.sort_by_key(|(h, _)| *h);
    content.dedup_by_key(|(h, _)| *h);
    let last = Last {
        raw: PageBytes::compress(generated.html.as_bytes())?,
        blocks,
        text,
        hashes: content,
        branch,
    };
    Ok((
        last,
        generated.url,
        key.key,
        Some(doc),
        generated.title,
        generated.time,
        ingest,
    ))
}

/// Runs the year and prints its table.
pub fn run(args: &Args, pages: &[DatasetPage]) -> anyhow::Result<()> {
    let (templates, pool) = streamgen::templates(pages)?;
    anyhow::ensure!(!templates.is_empty(), "no template page in the datasets");
    let engine = Engine::default();
    let policy = Retention::DEFAULT;
    let feeds_n = args.feeds;
    let per_day = args.per_day.max(1);
    let days = args.days;
    let every = args.classify_every.max(1);
    println!(
        "\n### A simulated year: {feeds_n} feeds × {per_day} items a day × {days} days ({} templates; 1 article in {every} per feed parsed and classified, the rest cloned; half read at once, 1 in 200 starred; retention: read {} days, unread {} days, starred forever)\n",
        templates.len().min(feeds_n),
        policy.read_days,
        policy.unread_days
    );
    let dir = match &args.year_dir {
        Some(d) => {
            std::fs::create_dir_all(d)?;
            tempfile::tempdir_in(d)?
        }
        None => tempfile::tempdir()?,
    };
    let path = dir.path().join("year.db");
    let mut store = crate::pipeline::open_store(args, &path)?;
    let mut feeds = Vec::with_capacity(feeds_n);
    for f in 0..feeds_n {
        let host = format!("www.site{f}.com");
        let (id, _) = store.feed_add(&format!("https://{host}/feed"), None, None, 0)?;
        feeds.push(Feed {
            id,
            host,
            template: f % templates.len(),
            last: None,
            listed: Default::default(),
        });
    }
    let spacing = DAY / per_day as i64;
    let mut rng = Lcg(2024);
    let mut fresh: u64 = 1;
    let mut checkpoints = Vec::new();
    // Day 14: the URL Tree's history window (14 days) is full, so every site's tree has its steady
    // size from then on: the fair baseline for ingest (day 1's trees are empty, and so cheap).
    let marks = [1, 7, 14, 30, 60, 90, 120, 150, 180, 240, 300, 365];
    let words: Vec<String> = pool
        .iter()
        .flat_map(|s| s.split_whitespace().map(str::to_lowercase))
        .filter(|w| w.len() >= 6 && w.chars().all(char::is_alphabetic))
        .take(2_000)
        .collect();
    let started = Instant::now();
    // The ingest times of the last real articles (a day of 5 items per feed may have none).
    let mut ingest: std::collections::VecDeque<Duration> = Default::default();
    for day in 0..days {
        store.begin_batch();
        for slot in 0..per_day {
            let index = day as usize * per_day + slot;
            for feed in feeds.iter_mut() {
                let identity = format!("{:x}-{index}", feed.id);
                let real = feed.last.is_none() || index.is_multiple_of(every);
                let (url, key, doc, title, time) = if real {
                    let (last, url, key, doc, title, time, took) = real_article(
                        &engine,
                        &mut store,
                        &templates[feed.template],
                        feed,
                        &pool,
                        index,
                        spacing,
                        &mut rng,
                    )?;
                    ingest.push_back(took);
                    // Day 1's real articles are the feeds' first ones; later, the last 500.
                    if day > 0 && ingest.len() > 500 {
                        ingest.pop_front();
                    }
                    feed.last = Some(last);
                    (url, key, doc, title, time)
                } else {
                    let last = feed.last.as_ref().expect("a real article first");
                    let hashes: Vec<BlockHash> = last
                        .hashes
                        .iter()
                        .map(|&(h, content)| {
                            if content {
                                fresh += 1;
                                BlockHash((fresh.wrapping_mul(0x9E37_79B9_7F4A_7C15)).to_be_bytes())
                            } else {
                                h
                            }
                        })
                        .collect();
                    let time = streamgen::STREAM_START + index as i64 * spacing;
                    let url = format!("https://{}/clone/story-{index}", feed.host);
                    let key = format!("{}/clone/story-{index}", feed.host);
                    let mut branch = last.branch.clone();
                    branch.push(format!("story-{index}"));
                    let doc = store
                        .tree_insert(&TreeDocument {
                            branch: &branch,
                            url_key: &key,
                            hashes: &hashes,
                            memory: None,
                            added: time,
                        })?
                        .doc();
                    (
                        url,
                        key,
                        Some(doc),
                        format!("Story {index} on {}", feed.host),
                        time,
                    )
                };
                let last = feed.last.as_ref().expect("set above");
                let domain = urlkey::url_key(&url, None, &engine.rules)?.domain;
                let stored = store.item_store(
                    &EntryRef {
                        feed: feed.id,
                        identity: &identity,
                    },
                    &NewItem {
                        link: &url,
                        title: &title,
                        summary: None,
                        published: Some(time),
                        added: time,
                    },
                    &NewArticle {
                        url: &url,
                        declared_charset: None,
                        raw: &last.raw,
                        domain: &domain,
                        url_key: &key,
                        tree_doc: doc,
                        blocks: &last.blocks,
                        text: &last.text,
                        images: &[],
                        known_images: &[],
                    },
                )?;
                let roll = rng.below(200);
                if roll == 0 {
                    store.toggle_star(stored.id())?;
                }
                if roll % 2 == 1 {
                    // Read on its simulated day: retention counts a read item's period from its
                    // reading, and the wall clock's time is years past the simulated one.
                    store.set_read_at(stored.id(), time)?;
                }
                feed.listed.push_back(identity);
                if feed.listed.len() > 50 {
                    feed.listed.pop_front();
                }
                crate::pipeline::commit_if_due(&mut store)?;
            }
        }
        store.commit_batch()?;
        // The day's refreshes end with retention at the simulated time.
        let now = streamgen::STREAM_START + (day + 1) * DAY;
        let sweep_start = Instant::now();
        // The sweep's first step, timed apart: the documents that left the URL Tree's window
        // (what an insert did before removals were batched here).
        let tree_removed = store.tree_apply_window(&engine.window, now)?;
        let window_ms = sweep_start.elapsed().as_secs_f64() * 1e3;
        loop {
            let swept =
                store.retention_sweep(&policy, &engine.window, now, &SweepLimits::default())?;
            if swept.finished {
                break;
            }
        }
        for feed in &feeds {
            let listed: Vec<&str> = feed.listed.iter().map(String::as_str).collect();
            store.entries_forget_unlisted(feed.id, &listed)?;
        }
        let swept_ms = sweep_start.elapsed().as_secs_f64() * 1e3;
        let d = day + 1;
        if marks.contains(&d) || d == days {
            let file = file_bytes(&store)?;
            let (items, _, pages) = store.item_counts()?;
            // The median of the last real articles: on 2 cores shared with compiles, a mean
            // swung 3× between checkpoints with whatever else ran; the median follows the trees.
            let mut recent: Vec<Duration> = ingest.iter().copied().collect();
            recent.sort();
            let ingest_us = recent
                .get(recent.len() / 2)
                .map_or(0.0, |d| d.as_secs_f64() * 1e6);
            let mut search = Vec::new();
            let mut snippets = Vec::new();
            for w in words.iter().step_by(words.len().max(20) / 20).take(20) {
                let t = Instant::now();
                let hits = store.search(w, 500)?;
                let ids: Vec<_> = hits.iter().map(|h| h.id).collect();
                std::hint::black_box(store.item_rows_by_id(&ids)?);
                search.push(t.elapsed().as_secs_f64() * 1e3);
                let t = Instant::now();
                for hit in store.search(w, 20)? {
                    let text = store.item_search_text(hit.id)?;
                    std::hint::black_box(pith::store::snippet(&text, w, 12));
                }
                snippets.push(t.elapsed().as_secs_f64() * 1e3);
            }
            search.sort_by(f64::total_cmp);
            snippets.sort_by(f64::total_cmp);
            let t = Instant::now();
            // What the window reads to show the list: its first page.
            std::hint::black_box(
                store
                    .item_rows(&ItemFilter {
                        limit: pith::limits::LIST_PAGE_ROWS,
                        ..ItemFilter::default()
                    })?
                    .len(),
            );
            let list_ms = t.elapsed().as_secs_f64() * 1e3;
            checkpoints.push(Checkpoint {
                day: d,
                file,
                items,
                pages,
                ingest_us,
                search_ms: search.last().copied().unwrap_or(0.0),
                snippets_ms: snippets.last().copied().unwrap_or(0.0),
                list_ms,
                swept_ms,
                tree_removed,
                window_ms,
            });
            // Each checkpoint's row as it comes, so that a run stopped early still tells.
            let c = checkpoints.last().expect("pushed above");
            eprintln!(
                "day {d}: {:.0} MB, {items} items, {pages} pages ({:.0} s); ingest {:.0} µs, searches {:.1} / {:.1} ms, sweep {:.0} ms ({} tree documents out, {:.0} µs each)",
                file as f64 / 1e6,
                started.elapsed().as_secs_f64(),
                c.ingest_us,
                c.search_ms,
                c.snippets_ms,
                c.swept_ms,
                c.tree_removed,
                c.window_ms * 1e3 / c.tree_removed.max(1) as f64
            );
        }
    }
    println!(
        "| day | file MB | items | raw pages | ingest µs/page, median of the last 500 (insert+classify; × day 14, × day 1) | slowest of 20 window searches ms (500 hits + rows) | slowest of 20 `pith search` ms (20 hits + snippets) | item list first page (window open) ms | day's sweep ms | of it, URL Tree documents out: count, µs each |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    let first_ingest = checkpoints.first().map_or(1.0, |c| c.ingest_us);
    let steady_ingest = checkpoints
        .iter()
        .find(|c| c.day == 14)
        .map_or(first_ingest, |c| c.ingest_us);
    for c in &checkpoints {
        println!(
            "| {} | {:.0} | {} | {} | {:.0} ({:.2}×, {:.2}×) | {:.1} | {:.1} | {:.0} | {:.0} | {}, {:.0} |",
            c.day,
            c.file as f64 / 1e6,
            c.items,
            c.pages,
            c.ingest_us,
            c.ingest_us / steady_ingest,
            c.ingest_us / first_ingest,
            c.search_ms,
            c.snippets_ms,
            c.list_ms,
            c.swept_ms,
            c.tree_removed,
            c.window_ms * 1e3 / c.tree_removed.max(1) as f64
        );
    }
    let report = store.space()?;
    let part = |name: &str| {
        report
            .parts
            .iter()
            .find(|p| p.name == name)
            .map_or(0, |p| p.bytes)
    };
    // A kept article without its page: its record as stored once the page went (measured on
    // those records alone: the records beside a page are stored uncompressed), and its share of
    // the full-text index, the item rows, the feed entries and the images (averaged over all).
    let items = report.items.total.max(1);
    let (record_only, record_only_bytes) = store.record_only_bytes()?;
    let record_each = record_only_bytes as f64 / record_only.max(1) as f64;
    let shared_each =
        (part("full-text index") + part("items") + part("feed entries") + part("images")) as f64
            / items as f64;
    println!(
        "\nat the end: {} items ({} with their page, {} from their record alone, {} tombstones); per item without its page {:.1} KB (its record {:.1} KB + full-text index, items, entries and images {:.1} KB); raw page {:.1} KB each; URL Tree {:.0} MB; free {:.0} MB",
        report.items.total,
        report.items.with_page,
        report.items.record_only,
        report.items.tombstones,
        (record_each + shared_each) / 1e3,
        record_each / 1e3,
        shared_each / 1e3,
        part("raw pages") as f64 / report.items.with_page.max(1) as f64 / 1e3,
        part("URL Tree") as f64 / 1e6,
        (report.free_pages * report.page_size) as f64 / 1e6
    );
    for p in &report.parts {
        println!(
            "  {}: {} rows, {:.1} MB",
            p.name,
            p.rows,
            p.bytes as f64 / 1e6
        );
    }
    if let (Some(a), Some(b)) = (
        checkpoints.iter().find(|c| c.day == 120),
        checkpoints.last(),
    ) {
        println!(
            "size at day {} / day 120: {:.3}",
            b.day,
            b.file as f64 / a.file as f64
        );
    }
    eprintln!("year: {:.0} s", started.elapsed().as_secs_f64());
    if args.year_keep {
        drop(store);
        let kept = dir.keep();
        println!("database kept: {}", kept.join("year.db").display());
    }
    Ok(())
}
