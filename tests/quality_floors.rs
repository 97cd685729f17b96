//! Quality floors in pages, for every method on every shared dataset and on every site with ten
//! pages or more: `pith eval -m all` (causal) must not lose pages. A mean alone lets a change
//! trade a few good pages for many slightly better ones unseen; the count of pages below half
//! F1 catches the page that goes blank. The floors live in `tests/fixtures/quality_floors.tsv`,
//! each the measured value less a margin in pages; see that file's header.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use pith::classify::Method;
use pith::eval::report::PageResult;
use pith::eval::run::Mode;

/// The floors file, one line per (dataset, method, site or `*` for the whole set).
const FLOORS: &str = include_str!("fixtures/quality_floors.tsv");

/// Sites with this many pages or more have floors of their own.
const SITE_PAGES: usize = 10;

/// A page below this F1 kept less than half of what it should (or twice too much): a page a
/// reader would call broken.
const BROKEN_F1: f64 = 0.5;

/// One line of the floors file.
#[derive(Debug)]
struct Floor {
    method: String,
    /// `*` for the whole dataset.
    site: String,
    pages: usize,
    /// The mean F1 floor; only for the whole dataset.
    f1: Option<f64>,
    max_below_half: usize,
}

fn floors_of(dataset: &str) -> Vec<Floor> {
    FLOORS
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|f| f.first() == Some(&dataset))
        .map(|f| {
            assert_eq!(f.len(), 8, "a floors line has 8 fields: {f:?}");
            Floor {
                method: f[1].to_string(),
                site: f[2].to_string(),
                pages: f[3].parse().expect("pages"),
                f1: (f[5] != "-").then(|| f[5].parse().expect("floor")),
                max_below_half: f[7].parse().expect("max below half"),
            }
        })
        .collect()
}

/// What the floors are checked against, for one method and one group of pages.
#[derive(Debug, Default)]
struct Measured {
    pages: usize,
    f1_sum: f64,
    below_half: usize,
}

impl Measured {
    fn add(&mut self, r: &PageResult) {
        self.pages += 1;
        self.f1_sum += r.score.f1;
        self.below_half += usize::from(r.score.f1 < BROKEN_F1);
    }

    fn mean(&self) -> f64 {
        self.f1_sum / self.pages.max(1) as f64
    }
}

/// Runs every method on `dataset` and checks each against its floors; every method and every
/// site of ten pages or more must have one, so that nothing goes unchecked. All failures are
/// reported together.
fn check(dataset: &str) {
    let methods: Vec<String> = Method::all().iter().map(|m| m.to_string()).collect();
    let names: Vec<&str> = methods.iter().map(String::as_str).collect();
    let results = common::run_results(dataset, &names, Mode::Causal);
    let mut measured: BTreeMap<(String, String), Measured> = BTreeMap::new();
    for r in &results {
        measured
            .entry((r.method.clone(), "*".to_string()))
            .or_default()
            .add(r);
        measured
            .entry((r.method.clone(), r.site.clone()))
            .or_default()
            .add(r);
    }
    if std::env::var_os("PITH_FLOORS_PRINT").is_some() {
        for ((method, site), m) in &measured {
            if site == "*" || m.pages >= SITE_PAGES {
                println!(
                    "{dataset}\t{method}\t{site}\t{}\t{:.4}\t-\t{}\t-",
                    m.pages,
                    m.mean(),
                    m.below_half
                );
            }
        }
    }
    let floors = floors_of(dataset);
    let mut failures = Vec::new();
    let mut covered = BTreeSet::new();
    for floor in &floors {
        let key = (floor.method.clone(), floor.site.clone());
        covered.insert(key.clone());
        let Some(m) = measured.get(&key) else {
            failures.push(format!("{key:?}: no pages measured"));
            continue;
        };
        if m.pages != floor.pages {
            failures.push(format!(
                "{key:?}: {} pages, the floor was set on {}",
                m.pages, floor.pages
            ));
        }
        if let Some(f1) = floor.f1
            && m.mean() < f1
        {
            failures.push(format!(
                "{key:?}: mean F1 {:.4} below its floor {f1}",
                m.mean()
            ));
        }
        if m.below_half > floor.max_below_half {
            failures.push(format!(
                "{key:?}: {} pages below F1 {BROKEN_F1}, at most {} allowed",
                m.below_half, floor.max_below_half
            ));
        }
    }
    for (key, m) in &measured {
        if (key.1 == "*" || m.pages >= SITE_PAGES) && !covered.contains(key) {
            failures.push(format!("{key:?}: {} pages and no floor", m.pages));
        }
    }
    assert!(
        covered.iter().filter(|(_, site)| site == "*").count() == methods.len(),
        "{dataset}: every method has a floor"
    );
    println!("{dataset}: {} floors checked", floors.len());
    assert!(failures.is_empty(), "{dataset}:\n{}", failures.join("\n"));
}

#[test]
fn cleanportaleval_keeps_its_floors() {
    check("cleanportaleval");
}

#[test]
fn msvcode_big9_keeps_its_floors() {
    check("msvcode-big9");
}

#[test]
fn l3s_gn1_keeps_its_floors() {
    check("l3s-gn1");
}

#[test]
fn scrapinghub_aeb_keeps_its_floors() {
    check("scrapinghub-aeb");
}

#[test]
fn wcxb_dev400_keeps_its_floors() {
    check("wcxb-dev400");
}
