//! A site's URL Tree as an outline: which nodes show, in which order, at which depth, and what the
//! hidden ones add up to. The window's inspector draws it (`ui::tree_view`) and `pith tree` prints
//! it, so both show the same tree the same way; each only chooses its words and its limits.
//! Knows nothing of egui, so the command line builds without the window.

use std::collections::HashMap;

use crate::store::TreeNodeInfo;

/// How much of the tree to show. A busy site's tree has thousands of leaves: a reader wants its
/// main sections, and the one branch the page in question lives on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Levels below the domain node to show (the domain node is level 0).
    pub depth: usize,
    /// Children shown per node, the most supported first.
    pub top: usize,
}

/// What the outline is asked to mark: the page's branch and the node that decided it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Marks<'a> {
    /// The paths of the page's branch (segments joined by `/`, as
    /// [`crate::urltree::NodeStats::path`]). Its nodes are always shown, whatever the limits, so
    /// the page's place in the tree is never among the hidden.
    pub branch: &'a [String],
    /// The path of the node that speaks for the site on the page, if one does.
    pub decider: Option<&'a str>,
}

/// One line of the outline, in reading order (depth first, children by support).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Row<'a> {
    /// A node of the tree.
    Node {
        /// Levels below the domain node (the domain node is 0).
        depth: usize,
        /// The node, as the store gave it.
        node: &'a TreeNodeInfo,
        /// The node is on the page's branch.
        on_branch: bool,
        /// The node speaks for the site on the page.
        decides: bool,
    },
    /// The children of the node above that the limits hid, counted so nothing vanishes unsaid.
    More {
        /// The depth the hidden children would have had.
        depth: usize,
        /// How many children are hidden.
        nodes: usize,
        /// The documents under them (their summed `n_s`).
        documents: u64,
    },
}

impl Row<'_> {
    /// Levels below the domain node.
    pub fn depth(&self) -> usize {
        match self {
            Row::Node { depth, .. } | Row::More { depth, .. } => *depth,
        }
    }
}

/// The outline of one domain's tree. `nodes` is [`crate::store::Store::tree_nodes`]'s answer:
/// the domain node (parent 0) and its descendants. Empty when `nodes` is.
///
/// Under each node: its children sorted by support (most first, then by segment, so the order is
/// stable), the first `limits.top` of them shown while the node is above `limits.depth`, the
/// branch's always, and one [`Row::More`] after them for the rest.
pub fn rows<'a>(nodes: &'a [TreeNodeInfo], marks: Marks<'_>, limits: Limits) -> Vec<Row<'a>> {
    let mut children: HashMap<i64, Vec<&TreeNodeInfo>> = HashMap::new();
    for node in nodes {
        children.entry(node.parent).or_default().push(node);
    }
    for list in children.values_mut() {
        list.sort_by(|a, b| b.support.cmp(&a.support).then(a.segment.cmp(&b.segment)));
    }
    let on_branch = |path: &str| marks.branch.iter().any(|b| b == path);

    /// What is left to write, last first: a node with its path, or a count of hidden children.
    enum Todo<'a> {
        Node(&'a TreeNodeInfo, String, usize),
        More(usize, usize, u64),
    }
    let mut out = Vec::with_capacity(nodes.len());
    // An explicit stack rather than recursion: a tree is as deep as a site's URLs are long.
    let mut stack: Vec<Todo<'a>> = children
        .get(&0)
        .into_iter()
        .flatten()
        .rev()
        .map(|&root| Todo::Node(root, root.segment.clone(), 0))
        .collect();
    while let Some(todo) = stack.pop() {
        let (node, path, depth) = match todo {
            Todo::More(depth, nodes, documents) => {
                out.push(Row::More {
                    depth,
                    nodes,
                    documents,
                });
                continue;
            }
            Todo::Node(node, path, depth) => (node, path, depth),
        };
        out.push(Row::Node {
            depth,
            node,
            on_branch: on_branch(&path),
            decides: marks.decider == Some(path.as_str()),
        });
        let Some(kids) = children.get(&node.id) else {
            continue;
        };
        let mut hidden = 0;
        let mut hidden_documents = 0u64;
        let mut shown = Vec::new();
        for (i, &kid) in kids.iter().enumerate() {
            let kid_path = format!("{path}/{}", kid.segment);
            if (depth < limits.depth && i < limits.top) || on_branch(&kid_path) {
                shown.push(Todo::Node(kid, kid_path, depth + 1));
            } else {
                hidden += 1;
                hidden_documents += u64::from(kid.support);
            }
        }
        // Pushed first, so popped after every shown child's subtree.
        if hidden > 0 {
            stack.push(Todo::More(depth + 1, hidden, hidden_documents));
        }
        stack.extend(shown.into_iter().rev());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(id: i64, parent: i64, segment: &str, support: u32) -> TreeNodeInfo {
        TreeNodeInfo {
            id,
            parent,
            segment: segment.to_string(),
            support,
        }
    }

    /// ex.com (9) with news (5: a 3, b 1, c 1), blog (3: post 3) and about (1).
    fn site() -> Vec<TreeNodeInfo> {
        vec![
            node(1, 0, "ex.com", 9),
            node(2, 1, "about", 1),
            node(3, 1, "blog", 3),
            node(4, 1, "news", 5),
            node(5, 3, "post", 3),
            node(6, 4, "a", 3),
            node(7, 4, "b", 1),
            node(8, 4, "c", 1),
        ]
    }

    /// The rows as `depth segment` or `depth +N/D`, with `*` on the branch and `!` on the decider.
    fn sketch(rows: &[Row<'_>]) -> Vec<String> {
        rows.iter()
            .map(|row| match row {
                Row::Node {
                    depth,
                    node,
                    on_branch,
                    decides,
                } => format!(
                    "{depth} {}{}{}",
                    node.segment,
                    if *on_branch { "*" } else { "" },
                    if *decides { "!" } else { "" }
                ),
                Row::More {
                    depth,
                    nodes,
                    documents,
                } => format!("{depth} +{nodes}/{documents}"),
            })
            .collect()
    }

    const ALL: Limits = Limits {
        depth: usize::MAX,
        top: usize::MAX,
    };

    #[test]
    fn depth_first_with_the_most_supported_children_first() {
        let nodes = site();
        let rows = rows(&nodes, Marks::default(), ALL);
        assert_eq!(
            sketch(&rows),
            [
                "0 ex.com", "1 news", "2 a", "2 b", "2 c", "1 blog", "2 post", "1 about"
            ]
        );
        assert!(super::rows(&[], Marks::default(), ALL).is_empty());
    }

    #[test]
    fn limits_hide_children_and_count_them_after_the_shown_ones() {
        let nodes = site();
        let limits = Limits { depth: 1, top: 2 };
        assert_eq!(
            sketch(&rows(&nodes, Marks::default(), limits)),
            ["0 ex.com", "1 news", "2 +3/5", "1 blog", "2 +1/3", "1 +1/1"]
        );
    }

    #[test]
    fn the_branch_is_shown_past_the_limits_and_the_decider_is_marked() {
        let nodes = site();
        let branch = [
            "ex.com".to_string(),
            "ex.com/news".into(),
            "ex.com/news/c".into(),
        ];
        let marks = Marks {
            branch: &branch,
            decider: Some("ex.com/news"),
        };
        let limits = Limits { depth: 1, top: 1 };
        assert_eq!(
            sketch(&rows(&nodes, marks, limits)),
            ["0 ex.com*", "1 news*!", "2 c*", "2 +2/4", "1 +2/4"]
        );
    }
}
