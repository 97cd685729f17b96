//! A site's URL Tree as a collapsible outline: every node with its `n_s`, the current page's branch
//! open and emphasised, and the node that decided the page marked.

use std::collections::HashMap;

use egui::{Color32, RichText, Ui};

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
    let mut children: HashMap<i64, Vec<&TreeNodeInfo>> = HashMap::new();
    for node in nodes {
        children.entry(node.parent).or_default().push(node);
    }
    for list in children.values_mut() {
        list.sort_by(|a, b| b.support.cmp(&a.support).then(a.segment.cmp(&b.segment)));
    }
    let roots: Vec<&TreeNodeInfo> = children.get(&0).cloned().unwrap_or_default();
    for root in roots {
        node_ui(ui, root, &root.segment, &children, branch, decided);
    }
}

fn node_ui(
    ui: &mut Ui,
    node: &TreeNodeInfo,
    path: &str,
    children: &HashMap<i64, Vec<&TreeNodeInfo>>,
    branch: &[String],
    decided: Option<&str>,
) {
    let on_branch = branch.iter().any(|p| p == path);
    let is_decider = decided == Some(path);
    let mut label = format!("{}   n_s = {}", node.segment, node.support);
    if is_decider {
        // Said in words too, not only by colour.
        label.push_str("   (decided this page)");
    }
    let mut text = RichText::new(label);
    if on_branch {
        text = text.strong();
    }
    if is_decider {
        text = text.background_color(Color32::from_rgba_unmultiplied(230, 190, 40, 90));
    }
    let kids = children.get(&node.id);
    match kids {
        Some(kids) if !kids.is_empty() => {
            egui::CollapsingHeader::new(text)
                .id_salt(("tree-node", node.id))
                .default_open(on_branch)
                .show(ui, |ui| {
                    for child in kids.iter().take(MAX_CHILDREN) {
                        let child_path = format!("{path}/{}", child.segment);
                        node_ui(ui, child, &child_path, children, branch, decided);
                    }
                    if kids.len() > MAX_CHILDREN {
                        ui.label(
                            RichText::new(format!("… {} more", kids.len() - MAX_CHILDREN)).weak(),
                        );
                    }
                });
        }
        _ => {
            ui.label(text);
        }
    }
}
