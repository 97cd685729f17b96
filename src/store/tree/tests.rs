//! The URL Tree's tests: counting, exact removal, the history window, and the site's memory.

use super::*;
use crate::urltree::{BlockInput, Heuristic, Verdict, classify};

fn h(n: u64) -> BlockHash {
    BlockHash(n.to_be_bytes())
}

fn branch(parts: &[&str]) -> Vec<String> {
    parts.iter().map(|s| s.to_string()).collect()
}

/// Inserts without a memory record (most tests are about block counters).
trait InsertPlain {
    fn insert_plain(
        &mut self,
        branch: &[String],
        url_key: &str,
        hashes: &[BlockHash],
        added: i64,
        window: &HistoryWindow,
    ) -> Result<TreeInsert, StoreError>;
}

impl InsertPlain for Store {
    fn insert_plain(
        &mut self,
        branch: &[String],
        url_key: &str,
        hashes: &[BlockHash],
        added: i64,
        window: &HistoryWindow,
    ) -> Result<TreeInsert, StoreError> {
        // What a refresh does: the insert, then its sweep's window at the insert's time.
        let inserted = self.tree_insert(&TreeDocument {
            branch,
            url_key,
            hashes,
            memory: None,
            added,
        })?;
        self.tree_apply_window(window, added)?;
        Ok(inserted)
    }
}

const NO_WINDOW: HistoryWindow = HistoryWindow {
    max_docs: u32::MAX,
    max_age_secs: i64::MAX,
    keep_newest: u32::MAX,
};

#[test]
fn insert_counts_along_the_branch_and_dedups_hashes() {
    let mut store = Store::open_in_memory().unwrap();
    let b = branch(&["ex.com", "www.ex.com", "news", "a"]);
    let doc = store
        .insert_plain(
            &b,
            "http://www.ex.com/news/a",
            &[h(1), h(2), h(2)],
            0,
            &NO_WINDOW,
        )
        .unwrap();
    let br = store.tree_branch(doc.doc(), &[h(1), h(2), h(3)]).unwrap();
    assert_eq!(br.nodes.len(), 4);
    assert_eq!(br.nodes[0].path, "ex.com");
    assert_eq!(br.nodes[3].path, "ex.com/www.ex.com/news/a");
    for node in &br.nodes {
        assert_eq!(node.support, 1);
        assert_eq!(
            node.count(&h(2)),
            1,
            "a hash repeated within a page counts once"
        );
        assert_eq!(node.count(&h(3)), 0);
    }
    assert!(store.tree_consistency_errors().unwrap().is_empty());
}

#[test]
fn the_same_url_key_in_a_domain_is_never_counted_twice() {
    let mut store = Store::open_in_memory().unwrap();
    let b = branch(&["ex.com", "www.ex.com", "a"]);
    let first = store
        .insert_plain(&b, "http://www.ex.com/a", &[h(1)], 0, &NO_WINDOW)
        .unwrap();
    let second = store
        .insert_plain(&b, "http://www.ex.com/a", &[h(1)], 5, &NO_WINDOW)
        .unwrap();
    assert_eq!(second, TreeInsert::Duplicate(first.doc()));
    let br = store.tree_branch(first.doc(), &[h(1)]).unwrap();
    assert_eq!(br.nodes[0].support, 1);
    assert_eq!(br.nodes[0].count(&h(1)), 1);
    // The same key in another domain is another document.
    let other = store
        .insert_plain(
            &branch(&["other.org", "other.org", "a"]),
            "http://www.ex.com/a",
            &[h(1)],
            0,
            &NO_WINDOW,
        )
        .unwrap();
    assert!(matches!(other, TreeInsert::Inserted(_)));
}

#[test]
fn removal_is_exact_and_prunes_empty_nodes() {
    let mut store = Store::open_in_memory().unwrap();
    let a = store
        .insert_plain(
            &branch(&["ex.com", "ex.com", "x"]),
            "k1",
            &[h(1), h(2)],
            0,
            &NO_WINDOW,
        )
        .unwrap();
    let b = store
        .insert_plain(
            &branch(&["ex.com", "ex.com", "y"]),
            "k2",
            &[h(1), h(3)],
            0,
            &NO_WINDOW,
        )
        .unwrap();
    assert!(store.tree_remove(a.doc()).unwrap());
    assert!(!store.tree_remove(a.doc()).unwrap());
    let br = store.tree_branch(b.doc(), &[h(1), h(2), h(3)]).unwrap();
    assert_eq!(br.nodes[0].support, 1);
    assert_eq!(br.nodes[0].count(&h(1)), 1);
    assert_eq!(br.nodes[0].count(&h(2)), 0);
    let segments: Vec<_> = store
        .tree_nodes("ex.com")
        .unwrap()
        .into_iter()
        .map(|n| n.segment)
        .collect();
    assert_eq!(segments, vec!["ex.com", "ex.com", "y"]);
    assert!(store.tree_remove(b.doc()).unwrap());
    assert!(store.tree_nodes("ex.com").unwrap().is_empty());
    assert!(store.tree_consistency_errors().unwrap().is_empty());
}

/// A small deterministic generator so the property test needs no extra crate.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self, bound: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % bound
    }
}

#[test]
fn any_sequence_of_inserts_and_removes_equals_a_rebuild() {
    for seed in 0..8 {
        let mut rng = Lcg(seed);
        let mut store = Store::open_in_memory().unwrap();
        let mut live: Vec<DocId> = Vec::new();
        for step in 0..120 {
            if !live.is_empty() && rng.next(3) == 0 {
                let i = rng.next(live.len() as u64) as usize;
                let doc = live.swap_remove(i);
                assert!(store.tree_remove(doc).unwrap());
            } else {
                let domain = ["a.com", "b.org"][rng.next(2) as usize];
                let mut b = branch(&[domain, domain]);
                for _ in 0..rng.next(3) {
                    b.push(format!("s{}", rng.next(3)));
                }
                let hashes: Vec<_> = (0..rng.next(12)).map(|_| h(rng.next(20))).collect();
                let key = format!("{}-{step}", b.join("/"));
                let window = if rng.next(4) == 0 {
                    HistoryWindow {
                        max_docs: 6,
                        max_age_secs: 30,
                        keep_newest: 3,
                    }
                } else {
                    NO_WINDOW
                };
                let container = ["div#main", "article.story", ""][rng.next(3) as usize];
                let memory = (!container.is_empty()).then(|| MemoryRecord::from_keys([container]));
                let outcome = store
                    .tree_insert(&TreeDocument {
                        branch: &b,
                        url_key: &key,
                        hashes: &hashes,
                        memory: memory.as_ref(),
                        added: step,
                    })
                    .unwrap();
                store.tree_apply_window(&window, step).unwrap();
                live.push(outcome.doc());
                // The window may have removed some documents: keep only those still stored.
                let mut still = Vec::new();
                for doc in live.drain(..) {
                    if !store.tree_branch(doc, &[]).unwrap().nodes.is_empty() {
                        still.push(doc);
                    }
                }
                live = still;
            }
            let errors = store.tree_consistency_errors().unwrap();
            assert!(errors.is_empty(), "seed {seed} step {step}: {errors:?}");
        }
        // A rebuild from the documents (the schema upgrade's) gives a tree just as exact,
        // and one that reads the same.
        let probe: Vec<_> = (0..20).map(h).collect();
        let before: Vec<Branch> = live
            .iter()
            .map(|&doc| store.tree_branch(doc, &probe).unwrap())
            .collect();
        rebuild_counters(&store.conn).unwrap();
        let errors = store.tree_consistency_errors().unwrap();
        assert!(errors.is_empty(), "seed {seed} after a rebuild: {errors:?}");
        let after: Vec<Branch> = live
            .iter()
            .map(|&doc| store.tree_branch(doc, &probe).unwrap())
            .collect();
        assert_eq!(before, after, "seed {seed}");
    }
}

/// Every node of `got` (the branch `b`) has the support and the counts of `probe` that a
/// brute-force recount over the live documents gives.
fn assert_counts_are_a_recount(
    got: &Branch,
    b: &[String],
    live: &[(DocId, Vec<String>, Vec<BlockHash>)],
    probe: &[BlockHash],
    context: &str,
) {
    for (depth, node) in got.nodes.iter().enumerate() {
        let under: Vec<_> = live
            .iter()
            .filter(|(_, ob, _)| ob.len() > depth && ob[..=depth] == b[..=depth])
            .collect();
        assert_eq!(node.support as usize, under.len(), "{context}");
        for hash in probe {
            let want = under.iter().filter(|(_, _, hs)| hs.contains(hash)).count();
            assert_eq!(
                node.count(hash) as usize,
                want,
                "{context} depth {depth} {hash:?}"
            );
        }
    }
}

#[test]
fn a_template_in_every_page_becomes_full_rows_and_stays_exact() {
    // Every page carries the template h(100..105), except now and then one that lacks one
    // of them: full rows are made, dropped again, and survive removals, and every count
    // read back equals a recount.
    for seed in 0..4 {
        let mut rng = Lcg(seed + 300);
        let mut store = Store::open_in_memory().unwrap();
        let mut live: Vec<(DocId, Vec<String>, Vec<BlockHash>)> = Vec::new();
        for step in 0..120 {
            if live.len() > 8 && rng.next(5) == 0 {
                let i = rng.next(live.len() as u64) as usize;
                let (doc, _, _) = live.swap_remove(i);
                assert!(store.tree_remove(doc).unwrap());
            } else {
                let mut b = branch(&["t.com", "t.com", "news"]);
                b.push(format!("d{}", rng.next(3)));
                let mut hashes: Vec<_> = (100..105).map(h).collect();
                if rng.next(10) == 0 {
                    hashes.remove(rng.next(5) as usize);
                }
                hashes.extend((0..rng.next(6)).map(|_| h(rng.next(40))));
                let doc = store
                    .insert_plain(&b, &format!("k{step}"), &hashes, step, &NO_WINDOW)
                    .unwrap()
                    .doc();
                live.push((doc, b, hashes));
            }
            assert_eq!(
                store.tree_consistency_errors().unwrap(),
                Vec::<String>::new(),
                "seed {seed} step {step}"
            );
            let probe: Vec<_> = (100..105).chain(0..40).map(h).collect();
            for (doc, b, _) in live.iter().step_by(3) {
                let got = store.tree_branch(*doc, &probe).unwrap();
                assert_counts_are_a_recount(
                    &got,
                    b,
                    &live,
                    &probe,
                    &format!("seed {seed} step {step}"),
                );
            }
        }
        let full_rows: i64 = store
            .conn
            .query_row(
                "SELECT count(*) FROM tree_counter WHERE node >= ?1",
                [FULL_BASE],
                |r| r.get(0),
            )
            .unwrap();
        assert!(full_rows > 0, "seed {seed}: the template never became full");
    }
}

/// Counters are only stored where they are not implied; every branch read back must still
/// give the exact counts a brute-force recount over the live documents gives, for any hashes.
#[test]
fn branches_read_back_equal_a_brute_force_recount() {
    for seed in 0..6 {
        let mut rng = Lcg(seed + 100);
        let mut store = Store::open_in_memory().unwrap();
        // doc id → (branch, hashes)
        let mut live: Vec<(DocId, Vec<String>, Vec<BlockHash>)> = Vec::new();
        for step in 0..150 {
            if !live.is_empty() && rng.next(4) == 0 {
                let i = rng.next(live.len() as u64) as usize;
                let (doc, _, _) = live.swap_remove(i);
                assert!(store.tree_remove(doc).unwrap());
            } else {
                let mut b = branch(&["a.com", "a.com"]);
                for _ in 0..rng.next(4) {
                    b.push(format!("s{}", rng.next(2)));
                }
                let hashes: Vec<_> = (0..rng.next(10)).map(|_| h(rng.next(15))).collect();
                let doc = store
                    .insert_plain(&b, &format!("k{step}"), &hashes, step, &NO_WINDOW)
                    .unwrap()
                    .doc();
                live.push((doc, b, hashes));
            }
            let probe: Vec<_> = (0..15).map(h).collect();
            for (doc, b, _) in &live {
                let got = store.tree_branch(*doc, &probe).unwrap();
                assert_eq!(got.nodes.len(), b.len());
                assert_counts_are_a_recount(
                    &got,
                    b,
                    &live,
                    &probe,
                    &format!("seed {seed} step {step}"),
                );
                // Counts read at one node only: the same counts there, none elsewhere.
                for min_support in [0, 1, 2, 4] {
                    let one = store
                        .tree_branch_read(*doc, &probe, CountsAt::DeepestAbove(min_support), None)
                        .unwrap();
                    let wanted = got.nodes.iter().rposition(|n| n.support > min_support);
                    for (depth, (a, full)) in one.nodes.iter().zip(&got.nodes).enumerate() {
                        assert_eq!(a.support, full.support);
                        assert_eq!(a.memory_top, full.memory_top);
                        if Some(depth) == wanted {
                            assert_eq!(a.counts, full.counts, "seed {seed} step {step}");
                        } else {
                            assert!(a.counts.is_empty(), "seed {seed} step {step}");
                        }
                    }
                }
            }
        }
        assert!(store.tree_consistency_errors().unwrap().is_empty());
    }
}

/// Two connections insert into one site in turn: each must count what the other added
/// (a repeat of the other's page is a repeat, not a new hash).
#[test]
fn two_connections_inserting_into_one_site_count_every_repeat() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("two.db");
    let mut stores = [Store::open(&path).unwrap(), Store::open(&path).unwrap()];
    let mut rng = Lcg(3);
    let mut live: Vec<(DocId, Vec<String>, Vec<BlockHash>)> = Vec::new();
    for step in 0..60 {
        let b = branch(&["ex.com", "ex.com", &format!("d{}", rng.next(3))]);
        // A template, and text of which some comes back on a later page.
        let mut hashes: Vec<BlockHash> = (1000..1005).map(h).collect();
        hashes.extend((0..6).map(|_| h(rng.next(400))));
        let store = &mut stores[step % 2];
        let doc = store
            .insert_plain(&b, &format!("k{step}"), &hashes, step as i64, &NO_WINDOW)
            .unwrap()
            .doc();
        live.push((doc, b, hashes));
        let errors = store.tree_consistency_errors().unwrap();
        assert!(errors.is_empty(), "step {step}: {errors:?}");
    }
    let probe: Vec<BlockHash> = (0..400).chain(1000..1005).map(h).collect();
    for (doc, b, _) in &live {
        let got = stores[0].tree_branch(*doc, &probe).unwrap();
        assert_counts_are_a_recount(&got, b, &live, &probe, "two connections");
    }
}

#[test]
fn history_window_caps_documents_and_ages_out_old_ones() {
    let mut store = Store::open_in_memory().unwrap();
    let window = HistoryWindow {
        max_docs: 5,
        max_age_secs: 100,
        keep_newest: 2,
    };
    let day = |i: i64| i * 10;
    for i in 0..8 {
        store
            .insert_plain(
                &branch(&["ex.com", "ex.com", &format!("p{i}")]),
                &format!("k{i}"),
                &[h(1), h(100 + i as u64)],
                day(i),
                &window,
            )
            .unwrap();
    }
    // At most 5 documents: the 3 oldest left.
    assert_eq!(store.tree_doc_count("ex.com").unwrap(), 5);
    // A document far in the future: everything older than 100 s leaves, but the 2 newest stay.
    store
        .insert_plain(
            &branch(&["ex.com", "ex.com", "late"]),
            "late",
            &[h(1)],
            10_000,
            &window,
        )
        .unwrap();
    assert_eq!(store.tree_doc_count("ex.com").unwrap(), 2);
    assert!(store.tree_consistency_errors().unwrap().is_empty());
}

/// A window that keeps at most `max_docs` documents per domain, whatever their age.
fn capped(max_docs: u32) -> HistoryWindow {
    HistoryWindow {
        max_docs,
        ..NO_WINDOW
    }
}

/// An insert leaves the window to the sweep: a domain holds more than the window allows until
/// the window is applied, which then takes out the oldest documents exactly, in steps across
/// several domains (more documents go than one step's bound).
#[test]
fn inserts_leave_the_window_to_its_own_pass_over_every_domain() {
    let mut store = Store::open_in_memory().unwrap();
    let window = capped(10);
    let per_domain = crate::limits::RETENTION_STEP_ROWS + 50;
    let domains = ["a.com", "b.org", "c.net"];
    for domain in domains {
        for i in 0..per_domain {
            store
                .tree_insert(&TreeDocument {
                    branch: &branch(&[domain, domain, &format!("s{}", i % 3)]),
                    url_key: &format!("{domain}/{i}"),
                    hashes: &[h(1), h(2 + i as u64 % 7), h(1000 + i as u64)],
                    memory: None,
                    added: i as i64,
                })
                .unwrap();
        }
        assert_eq!(store.tree_doc_count(domain).unwrap() as usize, per_domain);
    }
    let removed = store.tree_apply_window(&window, per_domain as i64).unwrap();
    assert_eq!(removed, domains.len() * (per_domain - 10));
    for domain in domains {
        assert_eq!(store.tree_doc_count(domain).unwrap(), 10);
        // The oldest left, the newest stayed.
        assert!(
            store
                .tree_find(domain, &format!("{domain}/0"))
                .unwrap()
                .is_none()
        );
        let oldest_kept = format!("{domain}/{}", per_domain - 10);
        assert!(store.tree_find(domain, &oldest_kept).unwrap().is_some());
    }
    assert!(store.tree_consistency_errors().unwrap().is_empty());
    // Nothing left to do: a second pass removes nothing.
    assert_eq!(
        store.tree_apply_window(&window, per_domain as i64).unwrap(),
        0
    );
}

/// The window applied to one domain leaves the others as they are.
#[test]
fn the_window_of_one_domain_leaves_the_others() {
    let mut store = Store::open_in_memory().unwrap();
    let window = capped(3);
    for domain in ["a.com", "b.org"] {
        for i in 0..5u64 {
            store
                .tree_insert(&TreeDocument {
                    branch: &branch(&[domain, domain]),
                    url_key: &format!("{domain}/{i}"),
                    hashes: &[h(1), h(100 + i)],
                    memory: None,
                    added: i as i64,
                })
                .unwrap();
        }
    }
    assert_eq!(store.tree_apply_window_in("a.com", &window, 5).unwrap(), 2);
    assert_eq!(store.tree_doc_count("a.com").unwrap(), 3);
    assert_eq!(store.tree_doc_count("b.org").unwrap(), 5);
    assert_eq!(
        store
            .tree_apply_window_in("nowhere.net", &window, 5)
            .unwrap(),
        0
    );
    assert!(store.tree_consistency_errors().unwrap().is_empty());
}

#[test]
fn classification_on_a_stored_tree() {
    let mut store = Store::open_in_memory().unwrap();
    let mut last = 0;
    for i in 0..6 {
        last = store
            .insert_plain(
                &branch(&["ex.com", "www.ex.com", "news", &format!("s{i}")]),
                &format!("k{i}"),
                &[h(1), h(1000 + i)],
                i as i64,
                &NO_WINDOW,
            )
            .unwrap()
            .doc();
    }
    let br = store.tree_branch(last, &[h(1), h(1005)]).unwrap();
    let labels = classify(
        Heuristic::STRICT,
        &br,
        &[
            BlockInput {
                hash: h(1),
                all_link_text: false,
            },
            BlockInput {
                hash: h(1005),
                all_link_text: false,
            },
        ],
    );
    assert_eq!(labels[0].0, Verdict::Boilerplate);
    assert_eq!(labels[0].1.node, "ex.com/www.ex.com/news");
    assert_eq!(labels[0].1.support, 6);
    assert_eq!(labels[0].1.count, 6);
    assert_eq!(labels[1].0, Verdict::Content);
    assert!(labels[1].1.unseen);
}

mod memory_tests {
    use super::*;

    /// Reads a branch with the site memory's keys under "slot:" counted for `slots`, and at most
    /// eight of the others listed (as the site-aware rule reads it).
    fn read(store: &Store, doc: DocId, slots: &[&str]) -> Branch {
        let read = MemoryRead {
            counted: slots,
            top: 8,
            unlisted_prefix: "slot:",
        };
        store
            .tree_branch_read(doc, &[], CountsAt::Every, Some(&read))
            .unwrap()
    }

    #[test]
    fn memory_keys_are_counted_along_the_branch_and_leave_exactly() {
        let mut store = Store::open_in_memory().unwrap();
        let mut docs = Vec::new();
        for (i, sig) in ["div#story", "div#story", "div#story", "article.post"]
            .iter()
            .enumerate()
        {
            let branch: Vec<String> = ["ex.com", "www.ex.com", "news", &format!("a{i}")]
                .iter()
                .map(|s| s.to_string())
                .collect();
            let key = format!("k{i}");
            let memory = MemoryRecord::from_keys([*sig]);
            docs.push(
                store
                    .tree_insert(&TreeDocument {
                        branch: &branch,
                        url_key: &key,
                        hashes: &[],
                        memory: Some(&memory),
                        added: i as i64,
                    })
                    .unwrap()
                    .doc(),
            );
        }
        let branch = read(&store, docs[3], &[]);
        assert_eq!(
            branch.nodes[2].memory_top,
            vec![
                ("div#story".to_string(), 3),
                ("article.post".to_string(), 1)
            ]
        );
        assert_eq!(
            branch.nodes[3].memory_top,
            vec![("article.post".to_string(), 1)]
        );
        // Read without the memory, a branch has its outline only.
        assert!(
            store.tree_branch(docs[3], &[]).unwrap().nodes[2]
                .memory_top
                .is_empty()
        );
        assert_eq!(
            store.tree_doc_memory(docs[3]).unwrap(),
            Some(MemoryRecord::from_keys(["article.post"]))
        );
        store.tree_remove(docs[0]).unwrap();
        let branch = read(&store, docs[3], &[]);
        assert_eq!(branch.nodes[0].memory_top[0], ("div#story".to_string(), 2));
        assert!(store.tree_consistency_errors().unwrap().is_empty());
        assert_eq!(store.tree_doc_memory(docs[0]).unwrap(), None);
    }

    #[test]
    fn keys_under_the_unlisted_prefix_are_counted_apart_and_leave_exactly() {
        let mut store = Store::open_in_memory().unwrap();
        let stored = [
            vec!["div#story", "slot:aa", "slot:bb"],
            vec!["div#story", "slot:aa"],
            vec!["", "slot:aa"],
            vec!["div#story"],
        ];
        let mut docs = Vec::new();
        for (i, keys) in stored.iter().enumerate() {
            let branch: Vec<String> = ["ex.com", "www.ex.com", &format!("a{i}")]
                .iter()
                .map(|s| s.to_string())
                .collect();
            let key = format!("k{i}");
            let memory = MemoryRecord::from_keys(keys.iter().copied());
            docs.push(
                store
                    .tree_insert(&TreeDocument {
                        branch: &branch,
                        url_key: &key,
                        hashes: &[],
                        memory: Some(&memory),
                        added: i as i64,
                    })
                    .unwrap()
                    .doc(),
            );
        }
        // The first document asks for its own slots; the listed keys never include a slot.
        let branch = read(&store, docs[0], &["slot:aa", "slot:bb"]);
        let domain = &branch.nodes[0];
        assert_eq!(domain.memory_top, vec![("div#story".to_string(), 3)]);
        assert_eq!(domain.memory_counts.get("slot:aa"), Some(&3));
        assert_eq!(domain.memory_counts.get("slot:bb"), Some(&1));
        assert_eq!(branch.nodes[2].memory_counts.get("slot:aa"), Some(&1));
        // A key asked about that no document under a node had is absent there.
        assert_eq!(branch.nodes[2].memory_counts.get("slot:zz"), None);
        // Asked about nothing, a read counts nothing.
        assert!(read(&store, docs[3], &[]).nodes[0].memory_counts.is_empty());
        store.tree_remove(docs[1]).unwrap();
        let branch = read(&store, docs[0], &["slot:aa"]);
        assert_eq!(branch.nodes[0].memory_counts.get("slot:aa"), Some(&2));
        assert_eq!(
            branch.nodes[0].memory_top,
            vec![("div#story".to_string(), 2)]
        );
        assert!(store.tree_consistency_errors().unwrap().is_empty());
    }

    /// A prefix holding `LIKE`'s wildcards is taken literally.
    #[test]
    fn the_unlisted_prefix_is_a_literal_prefix() {
        let mut store = Store::open_in_memory().unwrap();
        let branch: Vec<String> = vec!["ex.com".into()];
        let memory = MemoryRecord::from_keys(["a_b:1", "axb:2", "a%:3"]);
        let doc = store
            .tree_insert(&TreeDocument {
                branch: &branch,
                url_key: "k",
                hashes: &[],
                memory: Some(&memory),
                added: 0,
            })
            .unwrap()
            .doc();
        let listed = |prefix: &str| -> Vec<String> {
            let read = MemoryRead {
                counted: &[],
                top: 8,
                unlisted_prefix: prefix,
            };
            let branch = store
                .tree_branch_read(doc, &[], CountsAt::Every, Some(&read))
                .unwrap();
            branch.nodes[0]
                .memory_top
                .iter()
                .map(|(k, _)| k.clone())
                .collect()
        };
        assert_eq!(listed("a_"), ["a%:3", "axb:2"]);
        assert_eq!(listed("a%"), ["a_b:1", "axb:2"]);
        assert_eq!(listed(""), Vec::<String>::new());
    }
}
