//! Size and scale: long generated same-site streams pushed through the URL Tree (insert, then read
//! the branch and classify), with the database's bytes per stored page and the time per page as the
//! domain's tree grows from 100 to 10,000 pages.

use std::time::{Duration, Instant};

use pith::classify;
use pith::extract::{Engine, Ingested};
use pith::page;
use pith::store::{Store, TreeDocument, TreeInsert};
use pith::urlkey;

use crate::datasets::DatasetPage;
use crate::streamgen::{self, Generated, Lcg, Template};
use crate::{Args, bench_method, rss_kb};

/// What one page cost in the tree.
#[derive(Default, Clone, Copy)]
struct PageCost {
    insert: Duration,
    classify: Duration,
    hashes: usize,
}

/// Parses a generated page (untimed: parsing is measured by the pipeline run) and pushes it
/// through the tree, timing insert and classification apart.
fn push(engine: &Engine, store: &mut Store, generated: &Generated) -> anyhow::Result<PageCost> {
    let base = url::Url::parse(&generated.url).ok();
    let parsed = page::parse_page(generated.html.as_bytes(), Some("utf-8"), base.as_ref());
    let key = urlkey::url_key(&generated.url, Some(&generated.title), &engine.rules)?;
    let hashes: Vec<_> = parsed.blocks.iter().map(|b| b.hash).collect();
    let branch = key.branch();
    let start = Instant::now();
    let outcome = store.tree_insert(&TreeDocument {
        branch: &branch,
        url_key: &key.key,
        hashes: &hashes,
        memory: None,
        added: generated.time,
    })?;
    // The refresh commits its batch when due; the commit is the insert's cost.
    crate::pipeline::commit_if_due(store)?;
    let insert = start.elapsed();
    // The site's window, untimed (a refresh's sweep applies it): this measures a page's own
    // insert and classification.
    store.tree_apply_window_in(&key.domain, &engine.window, generated.time)?;
    let (TreeInsert::Inserted(doc) | TreeInsert::Duplicate(doc)) = outcome;
    let mut unique = hashes.clone();
    unique.sort_unstable();
    unique.dedup();
    let page_level = pith::classify::page_level::extract(&parsed);
    let ingested = Ingested {
        page_level,
        page: parsed,
        key: Some(key),
        doc: Some(doc),
        duplicate: false,
    };
    let start = Instant::now();
    let labels = engine.classify(store, &ingested, bench_method())?;
    let classify = start.elapsed();
    std::hint::black_box(classify::content_text(&ingested.page, &labels).len());
    Ok(PageCost {
        insert,
        classify,
        hashes: unique.len(),
    })
}

fn mean_us(costs: &[PageCost], pick: impl Fn(&PageCost) -> Duration) -> f64 {
    if costs.is_empty() {
        return 0.0;
    }
    costs.iter().map(|c| pick(c).as_secs_f64()).sum::<f64>() * 1e6 / costs.len() as f64
}

/// Bytes per stored page: (URL Tree tables, whole file).
fn per_page(store: &Store, pages: usize) -> anyhow::Result<(f64, f64)> {
    let (tree, file) = store.tree_bytes()?;
    let n = pages.max(1) as f64;
    Ok((tree as f64 / n, file as f64 / n))
}

fn pick_template<'a>(templates: &'a [Template], wanted: Option<&str>) -> Option<&'a Template> {
    match wanted {
        Some(id) => templates.iter().find(|t| t.id.contains(id)),
        None => templates
            .iter()
            .find(|t| t.url.path_segments().is_some_and(|s| s.count() >= 3)),
    }
}

/// Runs both scenarios and prints their tables.
pub fn run(args: &Args, pages: &[DatasetPage]) -> anyhow::Result<()> {
    let (templates, pool) = streamgen::templates(pages)?;
    anyhow::ensure!(
        !templates.is_empty() && !pool.is_empty(),
        "no dataset page has three long paragraphs to use as a template"
    );
    let engine = Engine::default();
    println!(
        "{} templates, {} sentences in the pool, method {}, history window {:?}",
        templates.len(),
        pool.len(),
        bench_method(),
        engine.window
    );

    // One domain, `args.pages` pages.
    let template = pick_template(&templates, args.template.as_deref())
        .ok_or_else(|| anyhow::anyhow!("no template matches"))?;
    let dir = tempfile::tempdir()?;
    let mut store = crate::pipeline::open_store(args, &dir.path().join("pith.db"))?;
    let mut rng = Lcg(7);
    let mut costs = Vec::with_capacity(args.pages);
    let mut checkpoints = Vec::new();
    let first = streamgen::generate(template, None, &pool, 0, args.spacing, &mut rng);
    println!(
        "\n### One domain: template {} ({}), e.g. {}\n",
        template.id,
        template.url.host_str().unwrap_or(""),
        first.url
    );
    store.begin_batch();
    for i in 0..args.pages {
        let generated = streamgen::generate(template, None, &pool, i, args.spacing, &mut rng);
        costs.push(push(&engine, &mut store, &generated)?);
        let n = i + 1;
        if n == 100 || n == 1_000 || n == 10_000 || n == args.pages {
            let stored = store
                .tree_doc_count(&urlkey::url_key(&generated.url, None, &engine.rules)?.domain)?;
            let (tree, file) = per_page(&store, stored as usize)?;
            // The window: the last half of the pages up to this checkpoint.
            let window = &costs[n / 2..n];
            checkpoints.push((n, stored, tree, file, window.to_vec(), rss_kb("VmRSS")));
            eprintln!("one domain: {n} pages");
        }
    }
    let mean_hashes =
        costs.iter().map(|c| c.hashes).sum::<usize>() as f64 / costs.len().max(1) as f64;
    println!("mean unique hashes per page: {mean_hashes:.0}\n");
    println!(
        "| pages in the domain | stored | tree bytes/page | file bytes/page | insert µs/page | classify µs/page | insert+classify µs/page | resident MB |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|");
    let mut base_total = None;
    for (n, stored, tree, file, window, rss) in &checkpoints {
        let insert = mean_us(window, |c| c.insert);
        let classify = mean_us(window, |c| c.classify);
        let total = insert + classify;
        let base = *base_total.get_or_insert(total);
        println!(
            "| {n} | {stored} | {tree:.0} | {file:.0} | {insert:.0} | {classify:.0} | {total:.0} ({:.2}×) | {} |",
            total / base,
            rss / 1024
        );
    }
    drop(store);

    // Many domains, interleaved as a reader's refresh would interleave them.
    let domains = args.domains.min(10_000);
    let per_domain = args.per_domain;
    let dir = tempfile::tempdir()?;
    let mut store = crate::pipeline::open_store(args, &dir.path().join("pith.db"))?;
    let mut rng = Lcg(11);
    let mut costs = Vec::with_capacity(domains * per_domain);
    let hosts: Vec<String> = (0..domains).map(|d| format!("www.site{d}.com")).collect();
    let start = Instant::now();
    store.begin_batch();
    for i in 0..per_domain {
        for (d, host) in hosts.iter().enumerate() {
            let template = &templates[d % templates.len()];
            let generated =
                streamgen::generate(template, Some(host), &pool, i, args.spacing, &mut rng);
            costs.push(push(&engine, &mut store, &generated)?);
        }
    }
    let wall = start.elapsed();
    let (tree, file) = per_page(&store, costs.len())?;
    println!(
        "\n### {domains} domains × {per_domain} pages ({} templates, interleaved)\n",
        templates.len().min(domains)
    );
    println!(
        "| pages | tree bytes/page | file bytes/page | insert µs/page | classify µs/page | resident MB |"
    );
    println!("|---:|---:|---:|---:|---:|---:|");
    println!(
        "| {} | {tree:.0} | {file:.0} | {:.0} | {:.0} | {} |",
        costs.len(),
        mean_us(&costs, |c| c.insert),
        mean_us(&costs, |c| c.classify),
        rss_kb("VmRSS") / 1024
    );
    eprintln!(
        "many domains: {:.1} s including generation and parsing",
        wall.as_secs_f64()
    );
    println!("\nmemory: peak resident {} MB", rss_kb("VmHWM") / 1024);
    Ok(())
}
