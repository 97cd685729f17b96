//! `cargo bench --bench pith -- lists --out FILE [--feeds 300] [--pages 368000]`: search and the
//! item list on a database the size of user 2's year (300 feeds × 20 items a day, about 368,000
//! items kept), built in minutes rather than the year's two hours. The items go in through the
//! store (`Store::item_store_failed`: item row, entry, full-text row; no pages or records, which
//! neither a search nor a list reads), with titles and texts drawn from a Zipf-distributed
//! vocabulary so that a common word matches most items and a rare one a few, as in English. The
//! file is kept and reused when it exists (`--out`): delete it to build it again.
//!
//! Printed: the window's search (500 hits and their list rows) and `pith search` (20 hits with
//! their snippets) on 20 words from the most common to rare ones; the first page of each list
//! (all, unread, starred, one feed), a later page, each list's count; the subscriptions with their
//! counts; and, for comparison, the whole list in one query (what the window read before paging).

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use pith::limits::LIST_PAGE_ROWS;
use pith::store::{EntryRef, ItemFilter, NewItem, Store};

use crate::Args;

/// The vocabulary's size.
const VOCABULARY: usize = 20_000;
/// Words of an item's text (a kept article's clean text is a few hundred words).
const TEXT_WORDS: usize = 350;
/// The words searched, each with its rank in the vocabulary (1 the most common): from words in
/// almost every item to words in a few hundred.
const SEARCHED: &[(&str, usize)] = &[
    ("government", 3),
    ("people", 5),
    ("market", 8),
    ("school", 12),
    ("between", 18),
    ("report", 25),
    ("million", 40),
    ("health", 60),
    ("children", 90),
    ("company", 130),
    ("water", 200),
    ("police", 300),
    ("university", 450),
    ("season", 700),
    ("energy", 1_000),
    ("history", 1_500),
    ("president", 2_500),
    ("family", 4_000),
    ("business", 7_000),
    ("during", 12_000),
];

/// A small, fixed pseudo-random sequence (the file is the same on every build).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The vocabulary, most common first: made-up words, with the searched words at their ranks.
fn vocabulary() -> Vec<String> {
    let mut words: Vec<String> = (0..VOCABULARY)
        .map(|i| {
            let mut w = String::new();
            let mut n = i + 1;
            while n > 0 {
                w.push(char::from(b'a' + (n % 19) as u8));
                n /= 19;
            }
            // Never one of the searched words: those are longer than these made-up ones.
            format!("q{w}")
        })
        .collect();
    for &(word, rank) in SEARCHED {
        words[rank - 1] = word.to_string();
    }
    words
}

/// Cumulative Zipf weights (1/rank) over the vocabulary.
fn zipf() -> Vec<f64> {
    let mut total = 0.0;
    (0..VOCABULARY)
        .map(|r| {
            total += 1.0 / (r as f64 + 1.0);
            total
        })
        .collect()
}

fn draw<'a>(rng: &mut Rng, words: &'a [String], cumulative: &[f64]) -> &'a str {
    let x = rng.unit() * cumulative[cumulative.len() - 1];
    let i = cumulative.partition_point(|&c| c < x);
    &words[i.min(words.len() - 1)]
}

fn text(rng: &mut Rng, words: &[String], cumulative: &[f64], n: usize) -> String {
    let mut out = String::new();
    for i in 0..n {
        if i > 0 {
            out.push(if i % 17 == 0 { '.' } else { ' ' });
            if i % 17 == 0 {
                out.push(' ');
            }
        }
        out.push_str(draw(rng, words, cumulative));
    }
    out
}

/// Builds the file: `items` items over a year, spread over `feeds` feeds; older items mostly
/// read, a few starred.
fn build(path: &Path, feeds: usize, items: usize) -> Result<()> {
    let mut store = Store::open(path)?;
    store.tune_for_refresh()?;
    let start = 1_750_000_000i64;
    let mut ids = Vec::new();
    for f in 0..feeds {
        let url = format!("https://site{f}.example/feed.xml");
        let title = format!("Site {f} news");
        let (id, _) = store.feed_add(&url, Some(&title), None, start)?;
        store.feed_fetched(id, Some(&title), None, None, None, start)?;
        ids.push(id);
    }
    let words = vocabulary();
    let cumulative = zipf();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let year = 365 * 86_400;
    let t = Instant::now();
    store.begin_batch();
    for i in 0..items {
        // Arrival order is time order, as in a refresh: an item's id grows with its time.
        let added = start + (i as i64 * year) / items as i64;
        // A feed's date is often a little before it was fetched; a few have none.
        let published = (i % 13 != 0).then(|| added - (rng.next() % 7200) as i64);
        let feed = ids[(rng.next() % ids.len() as u64) as usize];
        let title = text(&mut rng, &words, &cumulative, 8);
        let body = text(&mut rng, &words, &cumulative, TEXT_WORDS);
        let summary: String = body.chars().take(200).collect();
        let identity = format!("item-{i}");
        let link = format!("https://site.example/{i}");
        let id = store.item_store_failed(
            &EntryRef {
                feed,
                identity: &identity,
            },
            &NewItem {
                link: &link,
                title: &title,
                summary: Some(&summary),
                published,
                added,
            },
            &body,
            "not fetched (built by the bench)",
        )?;
        // Read: most of what is older than a month, half of the rest; starred: 1 in 200.
        let age = year - (added - start);
        let read_share = if age > 30 * 86_400 { 0.95 } else { 0.5 };
        if rng.unit() < read_share {
            store.set_read_at(id, added + 3_600)?;
        }
        if rng.next().is_multiple_of(200) {
            store.toggle_star(id)?;
        }
        store.commit_batch_if_due(2_000, Duration::from_secs(5))?;
        if (i + 1) % 20_000 == 0 {
            println!("  {} items in {:.0} s", i + 1, t.elapsed().as_secs_f64());
        }
    }
    store.commit_batch()?;
    store.checkpoint()?;
    Ok(())
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn median_max(mut times: Vec<f64>) -> (f64, f64) {
    times.sort_by(f64::total_cmp);
    (times[times.len() / 2], times.last().copied().unwrap_or(0.0))
}

/// Runs the bench (see the module's comment).
pub fn run(args: &Args) -> Result<()> {
    let path = args
        .out
        .clone()
        .context("say where the database is (or is built): --out FILE")?;
    let items = if args.pages == 10_000 {
        368_000
    } else {
        args.pages
    };
    if !path.exists() {
        println!(
            "building {} ({} feeds, {items} items)",
            path.display(),
            args.feeds
        );
        let t = Instant::now();
        build(&path, args.feeds, items)?;
        println!("built in {:.0} s", t.elapsed().as_secs_f64());
    }
    let store = Store::open(&path)?;
    let (count, _, _) = store.item_counts()?;
    println!(
        "{}: {count} items, {:.0} MB",
        path.display(),
        std::fs::metadata(&path)?.len() as f64 / 1e6
    );
    for round in 0..2 {
        println!("round {}", round + 1);
        let mut window = Vec::new();
        let mut cli = Vec::new();
        for &(word, rank) in SEARCHED {
            let t = Instant::now();
            let hits = store.search(word, 500)?;
            let ids: Vec<_> = hits.iter().map(|h| h.id).collect();
            std::hint::black_box(store.item_rows_by_id(&ids)?);
            let w = ms(t.elapsed());
            let t = Instant::now();
            for hit in store.search(word, 20)? {
                let text = store.item_search_text(hit.id)?;
                std::hint::black_box(pith::store::snippet(&text, word, 12));
            }
            let c = ms(t.elapsed());
            if round == 1 {
                println!(
                    "  search {word:>10} (rank {rank:>5}): {} hits, window {w:.1} ms, pith search {c:.1} ms",
                    hits.len()
                );
            }
            window.push(w);
            cli.push(c);
        }
        let (wm, wx) = median_max(window);
        let (cm, cx) = median_max(cli);
        println!(
            "  window search: median {wm:.1} ms, max {wx:.1} ms; pith search: median {cm:.1} ms, max {cx:.1} ms"
        );
        let feed = store.feeds()?.first().map(|f| f.id);
        for (name, filter) in [
            ("all", ItemFilter::default()),
            (
                "unread",
                ItemFilter {
                    unread: true,
                    ..ItemFilter::default()
                },
            ),
            (
                "starred",
                ItemFilter {
                    starred: true,
                    ..ItemFilter::default()
                },
            ),
            (
                "one feed",
                ItemFilter {
                    feed,
                    ..ItemFilter::default()
                },
            ),
        ] {
            let page = ItemFilter {
                limit: LIST_PAGE_ROWS,
                ..filter
            };
            let t = Instant::now();
            let first = store.item_rows(&page)?;
            let first_ms = ms(t.elapsed());
            // The eleventh page, reached page by page as scrolling reaches it.
            let mut after = first.last().map(|r| r.key());
            let t = Instant::now();
            let mut later = 0;
            for _ in 0..10 {
                let rows = store.item_rows(&ItemFilter { after, ..page })?;
                later = rows.len();
                after = rows.last().map(|r| r.key());
                if after.is_none() {
                    break;
                }
            }
            let later_ms = ms(t.elapsed()) / 10.0;
            let t = Instant::now();
            let n = store.item_count(&filter)?;
            let count_ms = ms(t.elapsed());
            println!(
                "  list {name:>8}: first page ({} rows) {first_ms:.2} ms, a later page ({later} rows) {later_ms:.2} ms, count {n} in {count_ms:.1} ms",
                first.len()
            );
        }
        let t = Instant::now();
        let feeds = store.feeds()?;
        println!(
            "  subscriptions with their counts ({} feeds): {:.0} ms",
            feeds.len(),
            ms(t.elapsed())
        );
        let t = Instant::now();
        let all = store.item_rows(&ItemFilter::default())?;
        println!(
            "  the whole list in one query ({} rows, as before paging): {:.0} ms",
            all.len(),
            ms(t.elapsed())
        );
    }
    Ok(())
}
