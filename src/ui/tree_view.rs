//! A site's URL Tree as a collapsible outline: every node with its `n_s`, the current page's branch
//! open and emphasised, and the node that decided the page marked. Which nodes show and in which
//! order is [`crate::outline`]'s, the same outline `pith tree` prints; this only draws it.

use egui::{Color32, RichText, Ui};

use crate::outline::{self, Limits, Marks, Row};
use crate::store::TreeNodeInfo;

/// Children shown per node (the most supported first); a busy site's leaves are many.
pub const MAX_CHILDREN: usize = 100;

/// Draws the tree of one domain. `branch` holds the paths (segments joined by `/`, as
/// [`crate::urltree::NodeStats::path`]) of the page's branch; `decided` is the deciding node's path.
pub fn show(ui: &mut Ui, nodes: &[TreeNodeInfo], branch: &[String], decided: Option<&str>) {
    if nodes.is_empty() {
        ui.label(RichText::new("This site has no tree yet.").italics());
        return;
    }
    let marks = Marks {
        branch,
        decider: decided,
    };
    // Every level: a collapsed node costs nothing to draw, so only the children are capped.
    let limits = Limits {
        depth: usize::MAX,
        top: MAX_CHILDREN,
    };
    draw(ui, &outline::rows(nodes, marks, limits));
}

/// Draws `rows`: siblings, each followed by its subtree (the rows after it that are deeper).
fn draw(ui: &mut Ui, rows: &[Row<'_>]) {
    let mut at = 0;
    while at < rows.len() {
        let depth = rows[at].depth();
        let end = rows[at + 1..]
            .iter()
            .position(|r| r.depth() <= depth)
            .map_or(rows.len(), |n| at + 1 + n);
        match &rows[at] {
            Row::Node {
                node,
                on_branch,
                decides,
                ..
            } => node_ui(ui, node, *on_branch, *decides, &rows[at + 1..end]),
            Row::More { nodes, .. } => {
                ui.label(RichText::new(format!("… {nodes} more")).weak());
            }
        }
        at = end;
    }
}

/// One node: a header that opens on its subtree `below`, or a plain line for a leaf.
fn node_ui(ui: &mut Ui, node: &TreeNodeInfo, on_branch: bool, decides: bool, below: &[Row<'_>]) {
    let mut label = format!("{}   n_s = {}", node.segment, node.support);
    if decides {
        // Said in words too, not only by colour.
        label.push_str("   (decided this page)");
    }
    let mut text = RichText::new(label);
    if on_branch {
        text = text.strong();
    }
    if decides {
        text = text.background_color(Color32::from_rgba_unmultiplied(230, 190, 40, 90));
    }
    if below.is_empty() {
        ui.label(text);
        return;
    }
    egui::CollapsingHeader::new(text)
        .id_salt(("tree-node", node.id))
        .default_open(on_branch)
        .show(ui, |ui| draw(ui, below));
}
