//! The inspector: the whole original page as its blocks in order, each shaded by its label, and for
//! the block under the pointer or clicked, why: the reason, the tree node that speaks for the
//! site with its `n_s`, `c(b)`, words, link density and the page-level verdict. A block can be
//! pinned "always content" or "always boilerplate" for its site from here.

use egui::{Color32, RichText, Sense, Ui};

use crate::reading::{Article, ArticleBlock};
use crate::ui::pins::{PinRow, PinVerdict};

/// What a block's shading says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shade {
    /// Content the site had shown before.
    Content,
    /// Content seen for the first time on this site.
    NewContent,
    /// Boilerplate.
    Boilerplate,
}

impl Shade {
    /// The block's shade.
    pub fn of(block: &ArticleBlock) -> Shade {
        if block.is_new_content() {
            Shade::NewContent
        } else if block.is_content() {
            Shade::Content
        } else {
            Shade::Boilerplate
        }
    }

    /// The word shown on the block (also what tests and screen readers find).
    pub fn name(self) -> &'static str {
        match self {
            Shade::Content => "content",
            Shade::NewContent => "new content",
            Shade::Boilerplate => "boilerplate",
        }
    }

    /// Background tint, readable on light and dark themes.
    pub fn color(self) -> Color32 {
        match self {
            Shade::Content => Color32::from_rgba_unmultiplied(70, 170, 90, 48),
            Shade::NewContent => Color32::from_rgba_unmultiplied(70, 130, 230, 56),
            Shade::Boilerplate => Color32::from_rgba_unmultiplied(210, 80, 70, 40),
        }
    }
}

/// Whether the block's label came from a pin.
pub fn is_pinned(block: &ArticleBlock) -> bool {
    matches!(block.label.reason, crate::classify::Reason::Pinned { .. })
}

/// The label word of a block, with "pinned" when a pin decided it.
pub fn label_word(block: &ArticleBlock) -> String {
    let name = Shade::of(block).name();
    if is_pinned(block) {
        format!("{name} (pinned)")
    } else {
        name.to_string()
    }
}

/// What the user asked for in the inspector.
#[derive(Debug, Default)]
pub struct InspectorOutput {
    /// Pin block `.0` with `.1`.
    pub pin: Option<(usize, PinVerdict)>,
    /// Remove this pin.
    pub unpin: Option<i64>,
}

/// The explanation of one block, one fact a line.
pub fn explain(article: &Article, block: &ArticleBlock) -> Vec<(String, String)> {
    let mut out = vec![
        ("verdict".to_string(), label_word(block)),
        ("reason".to_string(), block.label.reason.to_string()),
        ("method".to_string(), article.method.to_string()),
    ];
    match (&article.branch, article.deciding_node) {
        (Some(branch), Some(n)) => {
            let node = &branch.nodes[n];
            out.push(("tree node".into(), node.path.clone()));
            out.push(("n_s".into(), node.support.to_string()));
            out.push(("c(b)".into(), block.count.to_string()));
        }
        (Some(branch), None) => {
            let support = branch.nodes.first().map_or(0, |n| n.support);
            out.push((
                "tree node".into(),
                format!("none yet: the site has {support} pages, the page-level extractor decides"),
            ));
        }
        (None, _) => out.push(("tree node".into(), "not in a URL Tree".into())),
    }
    out.push((
        "seen on the site".into(),
        match block.domain_count {
            0 | 1 => "only on this page (content seen for the first time)".into(),
            n => format!("on {n} pages"),
        },
    ));
    out.push(("words".into(), block.words.to_string()));
    out.push((
        "link density".into(),
        format!("{:.2}", block.link_density()),
    ));
    out.push((
        "page-level verdict".into(),
        format!(
            "{}: {}",
            if block.page_level.is_content() {
                "content"
            } else {
                "boilerplate"
            },
            block.page_level.reason
        ),
    ));
    out.push(("element".into(), block.tag_path.clone()));
    out.push(("hash".into(), block.hash.to_hex()));
    out
}

/// Draws the inspector: the blocks on the left, the selected block's explanation, pins and the
/// site's tree on the right (`tree` draws the tree section).
pub fn show(
    ui: &mut Ui,
    article: &Article,
    selected: &mut Option<usize>,
    pins: &[PinRow],
    tree: impl FnOnce(&mut Ui),
) -> InspectorOutput {
    let mut out = InspectorOutput::default();
    // The explanation never takes more than half the pane: a long line in it (a pin's text, an
    // element path) wraps instead of pushing the panel over the block list.
    let widest = (ui.available_width() * 0.5).max(200.0);
    egui::Panel::right("inspector-detail")
        .default_size(340.0_f32.min(widest))
        .resizable(true)
        .show(ui, |ui| {
            egui::ScrollArea::vertical()
                .id_salt("inspector-detail-scroll")
                .auto_shrink([false, false])
                .show(ui, |ui| {
                    detail(ui, article, *selected, pins, &mut out);
                    ui.separator();
                    egui::CollapsingHeader::new(RichText::new("URL Tree of this site").strong())
                        .id_salt("inspector-tree")
                        .default_open(true)
                        .show(ui, tree);
                });
        });
    egui::CentralPanel::default().show(ui, |ui| {
        let counts = article.blocks.iter().fold((0, 0), |(c, b), block| {
            if block.is_content() {
                (c + 1, b)
            } else {
                (c, b + 1)
            }
        });
        ui.label(
            RichText::new(format!(
                "{} blocks: {} content, {} boilerplate",
                article.blocks.len(),
                counts.0,
                counts.1
            ))
            .strong(),
        );
        ui.horizontal(|ui| {
            for shade in [Shade::Content, Shade::NewContent, Shade::Boilerplate] {
                ui.label(
                    RichText::new(format!(" {} ", shade.name()))
                        .small()
                        .background_color(shade.color()),
                );
            }
        });
        ui.separator();
        if !article.has_page() {
            ui.label("No page is stored for this item: only the feed's summary.");
            return;
        }
        if article.blocks.is_empty() {
            ui.label("The stored page has no text at all: a script draws it, or it is empty.");
            return;
        }
        egui::ScrollArea::vertical()
            .id_salt("inspector-blocks")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                for (i, block) in article.blocks.iter().enumerate() {
                    let shade = Shade::of(block);
                    let is_selected = *selected == Some(i);
                    let mut frame = egui::Frame::NONE
                        .fill(shade.color())
                        .inner_margin(egui::Margin::symmetric(8, 4))
                        .corner_radius(3.0);
                    if is_selected {
                        frame = frame
                            .stroke(egui::Stroke::new(2.0, ui.visuals().selection.stroke.color));
                    }
                    let r = frame
                        .show(ui, |ui| {
                            ui.set_width(ui.available_width());
                            ui.horizontal(|ui| {
                                // Not selectable: a click anywhere on the block selects the block.
                                ui.add(
                                    egui::Label::new(
                                        RichText::new(label_word(block)).small().strong(),
                                    )
                                    .selectable(false),
                                );
                                ui.add(
                                    egui::Label::new(
                                        RichText::new(format!("{:?}", block.kind)).small().weak(),
                                    )
                                    .selectable(false),
                                );
                            });
                            let text = if block.text.is_empty() {
                                block
                                    .image
                                    .as_ref()
                                    .map(|i| format!("[image] {}", i.src))
                                    .unwrap_or_default()
                            } else {
                                block.text.clone()
                            };
                            let text = if block.is_content() {
                                RichText::new(text)
                            } else {
                                RichText::new(text).weak()
                            };
                            ui.add(egui::Label::new(text).selectable(false));
                        })
                        .response
                        .interact(Sense::click());
                    let r = r.on_hover_ui(|ui| {
                        ui.set_max_width(420.0);
                        for (k, v) in explain(article, block).into_iter().take(9) {
                            ui.label(format!("{k}: {v}"));
                        }
                    });
                    if r.clicked() {
                        *selected = Some(i);
                    }
                    ui.add_space(2.0);
                }
            });
    });
    out
}

fn detail(
    ui: &mut Ui,
    article: &Article,
    selected: Option<usize>,
    pins: &[PinRow],
    out: &mut InspectorOutput,
) {
    ui.heading("Why");
    match selected.and_then(|i| article.blocks.get(i).map(|b| (i, b))) {
        None => {
            ui.label("Hover over a block to see why it was kept or removed; click to pin it.");
        }
        Some((i, block)) => {
            // First, so the buttons stay in view however long the explanation is.
            if article.domain.is_some() {
                ui.horizontal_wrapped(|ui| {
                    if ui.button("Pin: always content").clicked() {
                        out.pin = Some((i, PinVerdict::Content));
                    }
                    if ui.button("Pin: always boilerplate").clicked() {
                        out.pin = Some((i, PinVerdict::Boilerplate));
                    }
                });
            }
            ui.add_space(6.0);
            egui::Grid::new("why-grid")
                .num_columns(2)
                .striped(true)
                .show(ui, |ui| {
                    for (k, v) in explain(article, block) {
                        ui.label(RichText::new(k).strong());
                        ui.add(egui::Label::new(v).wrap());
                        ui.end_row();
                    }
                });
        }
    }
    ui.separator();
    ui.label(
        RichText::new(format!(
            "Pins of {}",
            article.domain.as_deref().unwrap_or("this page")
        ))
        .strong(),
    );
    if pins.is_empty() {
        ui.label(RichText::new("none").weak());
    }
    for pin in pins {
        let verdict = match pin.verdict {
            PinVerdict::Content => "always content",
            PinVerdict::Boilerplate => "always boilerplate",
        };
        // The whole text, wrapped to the pane (the store keeps 200 characters of it).
        ui.add(egui::Label::new(format!("{verdict}: {}", pin.text)).wrap());
        if ui.small_button("Remove pin").clicked() {
            out.unpin = Some(pin.id);
        }
        ui.add_space(4.0);
    }
}
