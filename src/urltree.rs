//! The URL Tree's classification logic (Sluban & Grčar, CIKM 2013, §4): given the statistics of the
//! nodes on a document's branch, label each of its blocks content or boilerplate, and say why.
//!
//! Persistence (inserting and removing documents, reading a branch back) lives in [`crate::store`];
//! this module only decides. A branch runs from the registrable domain (the root of one site's tree)
//! down to the document's leaf, one node per URL-key segment.

use std::collections::HashMap;

use rustc_hash::FxHashMap;
use std::fmt;

use crate::page::BlockHash;

/// The paper's default minimum support `n_min` for a node to decide (strict heuristic).
pub const DEFAULT_N_MIN: u32 = 5;
/// The paper's default boilerplate threshold `c_max`: a block seen more often than this is boilerplate.
pub const DEFAULT_C_MAX: u32 = 1;

/// Which documents a domain's tree remembers (the authors' production setting): at most `max_docs`
/// per domain; documents older than `max_age_secs` leave, but the `keep_newest` newest always stay.
/// Leaving decrements exactly what inserting incremented, so counters never drift.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HistoryWindow {
    /// Most documents kept per domain.
    pub max_docs: u32,
    /// Documents older than this (relative to the newest insertion's time) leave the tree.
    pub max_age_secs: i64,
    /// The newest documents that stay whatever their age.
    pub keep_newest: u32,
}

impl Default for HistoryWindow {
    fn default() -> Self {
        HistoryWindow {
            max_docs: 10_000,
            max_age_secs: 14 * 24 * 60 * 60,
            keep_newest: 100,
        }
    }
}

/// A classification heuristic over a URL Tree branch, with its parameters (paper §4 and §5.4; `vote`
/// is the authors' production setting).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Heuristic {
    /// From the leaf toward the root, the first node with `n_s ≥ n_min` decides; `c(b) > c_max` is
    /// boilerplate. With no such node, the root (domain) decides.
    Strict {
        /// Minimum support of a deciding node.
        n_min: u32,
        /// Boilerplate when the count exceeds this.
        c_max: u32,
    },
    /// As strict, but only nodes with `n_s > support` qualify.
    StrictSupport {
        /// Support a node must exceed to decide.
        support: u32,
        /// Boilerplate when the count exceeds this.
        c_max: u32,
    },
    /// Strict, always evaluated at the domain node.
    StrictAtDomain {
        /// Boilerplate when the count exceeds this.
        c_max: u32,
    },
    /// Strict at the domain, but once the domain's support exceeds `support` the threshold becomes
    /// `relaxed_c_max` (paper: 2).
    RelaxedAtDomain {
        /// Domain support above which the relaxed threshold applies.
        support: u32,
        /// Threshold while the domain is young.
        c_max: u32,
        /// Threshold once the domain is older than `support` documents.
        relaxed_c_max: u32,
    },
    /// Every node with `n_s ≥ min_support` votes boilerplate when `c(b) > n_s/100 + 1`; the majority
    /// decides and a tie is boilerplate. With no voter at all the block is content: nothing is known.
    Vote {
        /// Minimum support of a voting node.
        min_support: u32,
    },
}

impl Heuristic {
    /// The paper's strict heuristic (n_min 5, c_max 1).
    pub const STRICT: Heuristic = Heuristic::Strict {
        n_min: DEFAULT_N_MIN,
        c_max: DEFAULT_C_MAX,
    };

    /// Every heuristic with the paper's (and the production code's) parameters, in the order the
    /// paper reports them.
    pub fn defaults() -> Vec<Heuristic> {
        vec![
            Heuristic::STRICT,
            Heuristic::StrictSupport {
                support: 100,
                c_max: DEFAULT_C_MAX,
            },
            Heuristic::StrictAtDomain {
                c_max: DEFAULT_C_MAX,
            },
            Heuristic::RelaxedAtDomain {
                support: 500,
                c_max: DEFAULT_C_MAX,
                relaxed_c_max: 2,
            },
            Heuristic::Vote { min_support: 5 },
        ]
    }

    /// Parses a heuristic name as printed by [`fmt::Display`]: `strict`, `strict-N` (n_min N),
    /// `strict-support-N`, `strict-at-domain`, `relaxed-at-domain-N`, `vote`, `vote-N` (min support).
    pub fn parse(name: &str) -> Result<Heuristic, HeuristicError> {
        let number = |rest: &str| -> Result<u32, HeuristicError> {
            rest.parse::<u32>()
                .map_err(|_| HeuristicError::BadParameter(name.to_string()))
        };
        let h = match name {
            "strict" => Heuristic::STRICT,
            "strict-at-domain" => Heuristic::StrictAtDomain {
                c_max: DEFAULT_C_MAX,
            },
            "vote" => Heuristic::Vote { min_support: 5 },
            _ => {
                if let Some(rest) = name.strip_prefix("strict-support-") {
                    Heuristic::StrictSupport {
                        support: number(rest)?,
                        c_max: DEFAULT_C_MAX,
                    }
                } else if let Some(rest) = name.strip_prefix("relaxed-at-domain-") {
                    Heuristic::RelaxedAtDomain {
                        support: number(rest)?,
                        c_max: DEFAULT_C_MAX,
                        relaxed_c_max: 2,
                    }
                } else if let Some(rest) = name.strip_prefix("vote-") {
                    Heuristic::Vote {
                        min_support: number(rest)?,
                    }
                } else if let Some(rest) = name.strip_prefix("strict-") {
                    Heuristic::Strict {
                        n_min: number(rest)?,
                        c_max: DEFAULT_C_MAX,
                    }
                } else {
                    return Err(HeuristicError::Unknown(name.to_string()));
                }
            }
        };
        Ok(h)
    }
}

impl fmt::Display for Heuristic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Heuristic::Strict { n_min, .. } if n_min == DEFAULT_N_MIN => write!(f, "strict"),
            Heuristic::Strict { n_min, .. } => write!(f, "strict-{n_min}"),
            Heuristic::StrictSupport { support, .. } => write!(f, "strict-support-{support}"),
            Heuristic::StrictAtDomain { .. } => write!(f, "strict-at-domain"),
            Heuristic::RelaxedAtDomain { support, .. } => write!(f, "relaxed-at-domain-{support}"),
            Heuristic::Vote { min_support: 5 } => write!(f, "vote"),
            Heuristic::Vote { min_support } => write!(f, "vote-{min_support}"),
        }
    }
}

/// A heuristic name that does not parse.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum HeuristicError {
    /// Not one of the known heuristic names.
    #[error(
        "unknown URL Tree heuristic {0:?} (known: strict, strict-N, strict-support-N, strict-at-domain, relaxed-at-domain-N, vote, vote-N)"
    )]
    Unknown(String),
    /// The numeric parameter is missing or not a whole number.
    #[error("bad parameter in heuristic {0:?}: expected a whole number after the last '-'")]
    BadParameter(String),
}

/// One node of a branch as the classifier sees it: where it is, its support, and the counts of the
/// hashes of the document being classified.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NodeStats {
    /// The node's segments from the domain down, joined by `/` (e.g. `bbc.co.uk/www.bbc.co.uk/news`).
    pub path: String,
    /// `n_s`: documents inserted under this node.
    pub support: u32,
    /// `c(b)` for the hashes asked about; a hash absent here has count 0.
    pub counts: FxHashMap<BlockHash, u32>,
    /// The site's memory here, as a read asked for it (`store::MemoryRead`): its most counted
    /// keys, with how many documents under this node had each. What the keys mean is
    /// `classify::site`'s (the site-aware rule lists its container signatures here).
    pub memory_top: Vec<(String, u32)>,
    /// The counts here of the memory keys a read asked about (the site-aware rule asks for the
    /// prose slots of the document it classifies); a key no document under this node had is
    /// absent.
    pub memory_counts: HashMap<String, u32>,
}

impl NodeStats {
    /// `c(b)` at this node.
    pub fn count(&self, hash: &BlockHash) -> u32 {
        self.counts.get(hash).copied().unwrap_or(0)
    }
}

/// The nodes of one document's branch, from the domain node (index 0) to the leaf.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Branch {
    /// Domain first, leaf last. Never empty for a document in the tree.
    pub nodes: Vec<NodeStats>,
}

/// Content or boilerplate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Part of the article.
    Content,
    /// Template, navigation, advertising and the like.
    Boilerplate,
}

/// Why the URL Tree labelled a block as it did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeReason {
    /// The heuristic that decided.
    pub heuristic: Heuristic,
    /// Path of the node that decided (for `vote`, the deepest voting node; empty if none voted).
    pub node: String,
    /// `n_s` of that node.
    pub support: u32,
    /// `c(b)` of the block's hash at that node.
    pub count: u32,
    /// The hash was never seen before this document (its count at the domain is at most 1).
    pub unseen: bool,
    /// For `vote`: votes for boilerplate and the number of voters.
    pub votes: Option<(u32, u32)>,
    /// The block is entirely link text, which the authors' production code calls boilerplate.
    pub all_link_text: bool,
}

impl fmt::Display for TreeReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.all_link_text {
            return write!(f, "{}: block is entirely link text", self.heuristic);
        }
        write!(
            f,
            "{} at {}: n_s={} c(b)={}",
            self.heuristic,
            if self.node.is_empty() {
                "(no node)"
            } else {
                &self.node
            },
            self.support,
            self.count
        )?;
        if let Some((bp, voters)) = self.votes {
            write!(f, " votes={bp}/{voters}")?;
        }
        if self.unseen {
            write!(f, " content-unseen")?;
        }
        Ok(())
    }
}

/// What the tree needs to know of a block: its hash and whether all its words are link text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockInput {
    /// The block's repeat-counting identity.
    pub hash: BlockHash,
    /// Every word of the block is inside a link (and it has at least one word).
    pub all_link_text: bool,
}

/// Labels every block of a document from its branch with one heuristic. The document must already
/// be in the tree (the paper inserts before classifying), so every hash has a count of at least 1.
pub fn classify(
    heuristic: Heuristic,
    branch: &Branch,
    blocks: &[BlockInput],
) -> Vec<(Verdict, TreeReason)> {
    blocks
        .iter()
        .map(|block| classify_block(heuristic, branch, block))
        .collect()
}

fn classify_block(
    heuristic: Heuristic,
    branch: &Branch,
    block: &BlockInput,
) -> (Verdict, TreeReason) {
    let domain = branch.nodes.first();
    let unseen = domain.is_none_or(|d| d.count(&block.hash) <= 1);
    let mut reason = TreeReason {
        heuristic,
        node: String::new(),
        support: 0,
        count: 0,
        unseen,
        votes: None,
        all_link_text: false,
    };
    let threshold_verdict = |node: &NodeStats, c_max: u32, reason: &mut TreeReason| {
        let count = node.count(&block.hash);
        reason.node.clone_from(&node.path);
        reason.support = node.support;
        reason.count = count;
        if count > c_max {
            Verdict::Boilerplate
        } else {
            Verdict::Content
        }
    };
    let verdict = match (heuristic, domain) {
        (_, None) => Verdict::Content,
        (Heuristic::Strict { n_min, c_max }, Some(root)) => {
            let node = branch
                .nodes
                .iter()
                .rev()
                .find(|n| n.support >= n_min)
                .unwrap_or(root);
            threshold_verdict(node, c_max, &mut reason)
        }
        (Heuristic::StrictSupport { support, c_max }, Some(root)) => {
            let node = branch
                .nodes
                .iter()
                .rev()
                .find(|n| n.support > support)
                .unwrap_or(root);
            threshold_verdict(node, c_max, &mut reason)
        }
        (Heuristic::StrictAtDomain { c_max }, Some(root)) => {
            threshold_verdict(root, c_max, &mut reason)
        }
        (
            Heuristic::RelaxedAtDomain {
                support,
                c_max,
                relaxed_c_max,
            },
            Some(root),
        ) => {
            let limit = if root.support > support {
                relaxed_c_max
            } else {
                c_max
            };
            threshold_verdict(root, limit, &mut reason)
        }
        (Heuristic::Vote { min_support }, Some(_)) => {
            let mut voters = 0;
            let mut boilerplate_votes = 0;
            for node in branch.nodes.iter().filter(|n| n.support >= min_support) {
                voters += 1;
                let count = node.count(&block.hash);
                if count > node.support / 100 + 1 {
                    boilerplate_votes += 1;
                }
                // The deepest voter is the most specific evidence; report it.
                reason.node.clone_from(&node.path);
                reason.support = node.support;
                reason.count = count;
            }
            reason.votes = Some((boilerplate_votes, voters));
            if voters > 0 && 2 * boilerplate_votes >= voters {
                Verdict::Boilerplate
            } else {
                Verdict::Content
            }
        }
    };
    if block.all_link_text {
        reason.all_link_text = true;
        return (Verdict::Boilerplate, reason);
    }
    (verdict, reason)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(n: u8) -> BlockHash {
        BlockHash([n, 0, 0, 0, 0, 0, 0, 0])
    }

    fn node(path: &str, support: u32, counts: &[(u8, u32)]) -> NodeStats {
        NodeStats {
            path: path.to_string(),
            support,
            counts: counts.iter().map(|&(k, c)| (h(k), c)).collect(),
            memory_top: Vec::new(),
            memory_counts: HashMap::new(),
        }
    }

    fn input(n: u8) -> BlockInput {
        BlockInput {
            hash: h(n),
            all_link_text: false,
        }
    }

    /// A small site: domain with 600 documents, a section with 120, a leaf with 1.
    /// Hash 1 is everywhere (template), hash 2 was seen twice in the section, hash 3 only here,
    /// hash 4 is repeated 3 times at the domain but only once in the section.
    fn site() -> Branch {
        Branch {
            nodes: vec![
                node("ex.com", 600, &[(1, 600), (2, 2), (3, 1), (4, 3)]),
                node(
                    "ex.com/www.ex.com",
                    600,
                    &[(1, 600), (2, 2), (3, 1), (4, 3)],
                ),
                node(
                    "ex.com/www.ex.com/news",
                    120,
                    &[(1, 120), (2, 2), (3, 1), (4, 1)],
                ),
                node(
                    "ex.com/www.ex.com/news/story-1",
                    1,
                    &[(1, 1), (2, 1), (3, 1), (4, 1)],
                ),
            ],
        }
    }

    fn verdicts(heuristic: Heuristic) -> Vec<Verdict> {
        classify(
            heuristic,
            &site(),
            &[input(1), input(2), input(3), input(4)],
        )
        .into_iter()
        .map(|(v, _)| v)
        .collect()
    }

    use Verdict::{Boilerplate as B, Content as C};

    #[test]
    fn strict_decides_at_the_deepest_supported_node() {
        let labels = classify(Heuristic::STRICT, &site(), &[input(2)]);
        assert_eq!(labels[0].1.node, "ex.com/www.ex.com/news");
        assert_eq!(labels[0].1.support, 120);
        assert_eq!(labels[0].1.count, 2);
        assert_eq!(verdicts(Heuristic::STRICT), vec![B, B, C, C]);
    }

    #[test]
    fn strict_support_skips_nodes_at_or_below_the_support() {
        let h = Heuristic::StrictSupport {
            support: 120,
            c_max: 1,
        };
        // The section has exactly 120 documents: not more than 120, so the host decides.
        let labels = classify(h, &site(), &[input(4)]);
        assert_eq!(labels[0].1.node, "ex.com/www.ex.com");
        assert_eq!(verdicts(h), vec![B, B, C, B]);
    }

    #[test]
    fn strict_at_domain_and_relaxed() {
        let at_domain = Heuristic::StrictAtDomain { c_max: 1 };
        assert_eq!(verdicts(at_domain), vec![B, B, C, B]);
        // Domain support 600 > 500: threshold 2, so hash 2 (count 2) becomes content.
        let relaxed = Heuristic::RelaxedAtDomain {
            support: 500,
            c_max: 1,
            relaxed_c_max: 2,
        };
        assert_eq!(verdicts(relaxed), vec![B, C, C, B]);
        // A young domain keeps the strict threshold.
        let young = Heuristic::RelaxedAtDomain {
            support: 600,
            c_max: 1,
            relaxed_c_max: 2,
        };
        assert_eq!(verdicts(young), vec![B, B, C, B]);
    }

    #[test]
    fn vote_majority_and_tie() {
        let v = Heuristic::Vote { min_support: 5 };
        // Voters: domain (600: threshold 7), host (600: 7), section (120: threshold 2).
        // Hash 1: 3 of 3 boilerplate. Hash 2: 0 of 3. Hash 4: 0 of 3 (3 ≤ 7, 1 ≤ 2).
        assert_eq!(verdicts(v), vec![B, C, C, C]);
        // A tie is boilerplate: two voters, one each way.
        let branch = Branch {
            nodes: vec![node("a", 100, &[(9, 3)]), node("a/b", 10, &[(9, 1)])],
        };
        let labels = classify(v, &branch, &[input(9)]);
        assert_eq!(labels[0].1.votes, Some((1, 2)));
        assert_eq!(labels[0].0, B);
        // No voter: nothing is known, content.
        let young = Branch {
            nodes: vec![node("a", 2, &[(9, 2)])],
        };
        assert_eq!(classify(v, &young, &[input(9)])[0].0, C);
    }

    #[test]
    fn young_tree_falls_back_to_the_root_and_marks_unseen() {
        let branch = Branch {
            nodes: vec![
                node("a", 2, &[(1, 2), (2, 1)]),
                node("a/x", 1, &[(1, 1), (2, 1)]),
            ],
        };
        let labels = classify(Heuristic::STRICT, &branch, &[input(1), input(2)]);
        assert_eq!(labels[0].0, B);
        assert_eq!(labels[0].1.node, "a");
        assert!(!labels[0].1.unseen);
        assert_eq!(labels[1].0, C);
        assert!(labels[1].1.unseen);
        assert!(
            labels[1]
                .to_owned()
                .1
                .to_string()
                .contains("content-unseen")
        );
    }

    #[test]
    fn all_link_text_is_boilerplate_for_every_heuristic() {
        let block = BlockInput {
            hash: h(3),
            all_link_text: true,
        };
        for heuristic in Heuristic::defaults() {
            let labels = classify(heuristic, &site(), &[block]);
            assert_eq!(labels[0].0, B, "{heuristic}");
            assert!(labels[0].1.all_link_text);
        }
    }

    #[test]
    fn names_round_trip() {
        for heuristic in Heuristic::defaults() {
            assert_eq!(Heuristic::parse(&heuristic.to_string()), Ok(heuristic));
        }
        assert_eq!(
            Heuristic::parse("strict-10"),
            Ok(Heuristic::Strict {
                n_min: 10,
                c_max: 1
            })
        );
        assert!(matches!(
            Heuristic::parse("strict-support-x"),
            Err(HeuristicError::BadParameter(_))
        ));
        assert!(matches!(
            Heuristic::parse("readability"),
            Err(HeuristicError::Unknown(_))
        ));
    }
}
