//! The reading pane: only an article's content blocks, typeset for reading: a measure of about 70
//! characters, headings by level, bulleted list items, quotes, monospace preformatted text, the
//! images kept as content from the offline store, and links that open in the system browser.

use std::collections::HashMap;
use std::sync::Arc;

use egui::text::{LayoutJob, TextFormat};
use egui::{Color32, FontId, Galley, Role, Sense, Stroke, TextureHandle, Ui, WidgetInfo};

use crate::page::BlockKind;
use crate::reading::{Article, ArticleBlock, ListMarker};
use crate::safety::openable_link;

/// The longest line, in characters: about what books and good web typography use.
pub const MEASURE_CHARS: f32 = 70.0;

/// The width of [`MEASURE_CHARS`] characters at `size` points in the proportional font (an average
/// character is about half an em wide).
pub fn measure_width(size: f32) -> f32 {
    chars_width(MEASURE_CHARS, size)
}

/// The width of `chars` average characters at `size` points in the proportional font.
pub fn chars_width(chars: f32, size: f32) -> f32 {
    chars * size * 0.5
}

/// Draws the article; returns the link the user clicked, already checked by [`openable_link`]
/// (the blocks' links were checked when the article was opened, the item's address here).
pub fn show(
    ui: &mut Ui,
    article: &Article,
    textures: &HashMap<String, TextureHandle>,
    size: f32,
) -> Option<String> {
    let mut clicked = None;
    let item = &article.item;
    let strong = ui.visuals().strong_text_color();
    let weak = ui.visuals().weak_text_color();
    // The line height follows the title's own font, so a title over two lines never overlaps.
    let title_font = heading_font(size, 1);
    let title_line = title_font.size * 1.25;
    paragraph(ui, &item.title, &[], title_font, strong, title_line);
    let date = item.published.unwrap_or(item.added);
    let mut meta = item.feeds.join(", ");
    if !meta.is_empty() {
        meta.push_str(" · ");
    }
    meta.push_str(&super::items::format_date(date));
    if item.starred {
        meta.push_str(" · starred");
    }
    ui.label(egui::RichText::new(meta).size(size * 0.8).color(weak));
    let link = item.response_url.as_deref().unwrap_or(&item.link);
    if let Some(url) = openable_link(link, None) {
        let r = ui.add(egui::Link::new(
            egui::RichText::new(link).size(size * 0.75).color(weak),
        ));
        if r.clicked() {
            clicked = Some(url.into());
        }
    }
    ui.add_space(size);

    if let Some(feed) = &article.feed_text {
        if let Some(notice) = crate::reading::feed_text_notice(item, feed.because) {
            ui.label(
                egui::RichText::new(notice)
                    .italics()
                    .color(ui.visuals().warn_fg_color),
            );
            ui.add_space(size * 0.5);
        }
        let text = ui.visuals().text_color();
        paragraph(
            ui,
            &feed.text,
            &[],
            FontId::proportional(size),
            text,
            size * 1.5,
        );
        return clicked;
    }
    let mut shown = 0;
    for (i, block) in article.content().enumerate() {
        // The page's own headline repeats the title above: shown once.
        if i == 0
            && matches!(block.kind, BlockKind::Heading(_))
            && crate::reading::repeats_title(&block.text, &item.title)
        {
            shown += 1;
            continue;
        }
        if let Some(link) = show_block(ui, block, textures, size) {
            clicked = Some(link);
        }
        shown += 1;
    }
    if shown == 0 {
        ui.label(
            egui::RichText::new(
                "No block of this page was kept as content. Press i to inspect it.",
            )
            .italics()
            .color(weak),
        );
    }
    clicked
}

/// How much larger than the text a heading of `level` is: the one scale of the reading pane's
/// headings, for their font and their line height alike.
fn heading_scale(level: u8) -> f32 {
    match level {
        1 => 1.75,
        2 => 1.45,
        3 => 1.25,
        4 => 1.1,
        _ => 1.0,
    }
}

/// A heading's font at text size `size`.
fn heading_font(size: f32, level: u8) -> FontId {
    FontId::proportional(size * heading_scale(level))
}

/// A heading's line height at text size `size`: a little more than its font, so that a heading
/// over two lines never overlaps itself.
fn heading_line(size: f32, level: u8) -> f32 {
    heading_font(size, level).size * 1.3
}

fn show_block(
    ui: &mut Ui,
    block: &ArticleBlock,
    textures: &HashMap<String, TextureHandle>,
    size: f32,
) -> Option<String> {
    let text_color = ui.visuals().text_color();
    let strong = ui.visuals().strong_text_color();
    let mut clicked = None;
    match block.kind {
        BlockKind::Heading(level) => {
            ui.add_space(size * 0.6);
            clicked = paragraph(
                ui,
                &block.text,
                &block.links,
                heading_font(size, level),
                strong,
                heading_line(size, level),
            );
            ui.add_space(size * 0.3);
        }
        BlockKind::ListItem => {
            ui.horizontal_top(|ui| {
                ui.add_space(size * 0.8);
                let marker = match block.list_marker {
                    Some(ListMarker::Number(n)) => format!("{n}."),
                    Some(ListMarker::Continued) => String::new(),
                    _ => "•".to_string(),
                };
                ui.label(egui::RichText::new(marker).size(size).color(text_color));
                ui.add_space(size * 0.3);
                ui.vertical(|ui| {
                    clicked = paragraph(
                        ui,
                        &block.text,
                        &block.links,
                        FontId::proportional(size),
                        text_color,
                        size * 1.5,
                    );
                });
            });
            ui.add_space(size * 0.25);
        }
        BlockKind::Quote => {
            let bar = ui.visuals().weak_text_color();
            let r = ui.horizontal_top(|ui| {
                ui.add_space(size * 1.2);
                ui.vertical(|ui| {
                    clicked = paragraph(
                        ui,
                        &block.text,
                        &block.links,
                        FontId::proportional(size),
                        text_color,
                        size * 1.5,
                    );
                });
            });
            let rect = r.response.rect;
            ui.painter().vline(
                rect.left() + size * 0.5,
                rect.y_range(),
                Stroke::new(3.0, bar),
            );
            ui.add_space(size * 0.8);
        }
        BlockKind::Preformatted => {
            egui::Frame::NONE
                .fill(ui.visuals().code_bg_color)
                .inner_margin(8.0)
                .corner_radius(4.0)
                .show(ui, |ui| {
                    ui.set_width(ui.available_width());
                    paragraph(
                        ui,
                        &block.text,
                        &[],
                        FontId::monospace(size * 0.85),
                        text_color,
                        size * 1.3,
                    );
                });
            ui.add_space(size * 0.8);
        }
        BlockKind::Image => {
            let Some(img) = &block.image else {
                return None;
            };
            match textures.get(&img.src) {
                Some(texture) => {
                    let max = ui.available_width();
                    let [w, h] = texture.size();
                    let scale = (max / w as f32).min(1.0);
                    let size2 = egui::vec2(w as f32 * scale, h as f32 * scale);
                    let r = ui.add(egui::Image::new((texture.id(), size2)));
                    r.widget_info(|| WidgetInfo::labeled(Role::Image, true, &img.alt));
                }
                None => {
                    let alt = if img.alt.is_empty() {
                        "image not stored offline"
                    } else {
                        &img.alt
                    };
                    ui.label(
                        egui::RichText::new(format!("[image: {alt}]"))
                            .italics()
                            .color(ui.visuals().weak_text_color()),
                    );
                }
            }
            if !img.alt.is_empty() && textures.contains_key(&img.src) {
                ui.label(
                    egui::RichText::new(&img.alt)
                        .size(size * 0.8)
                        .color(ui.visuals().weak_text_color()),
                );
            }
            ui.add_space(size * 0.8);
        }
        BlockKind::Caption => {
            clicked = paragraph(
                ui,
                &block.text,
                &block.links,
                FontId::proportional(size * 0.85),
                ui.visuals().weak_text_color(),
                size * 1.3,
            );
            ui.add_space(size * 0.8);
        }
        BlockKind::Paragraph | BlockKind::TableCell | BlockKind::Other => {
            clicked = paragraph(
                ui,
                &block.text,
                &block.links,
                FontId::proportional(size),
                text_color,
                size * 1.5,
            );
            ui.add_space(size * 0.8);
        }
    }
    clicked
}

/// One wrapped run of text with its links underlined and clickable; returns the link clicked.
/// Drawn from one galley, so the text wraps as a whole and a link is found by the character
/// under the pointer.
pub fn paragraph(
    ui: &mut Ui,
    text: &str,
    links: &[crate::reading::Link],
    font: FontId,
    color: Color32,
    line_height: f32,
) -> Option<String> {
    let link_color = ui.visuals().hyperlink_color;
    let width = ui.available_width().max(40.0);
    let mut job = LayoutJob::default();
    job.wrap.max_width = width;
    let plain = TextFormat {
        font_id: font.clone(),
        color,
        line_height: Some(line_height),
        ..Default::default()
    };
    let linked = TextFormat {
        color: link_color,
        underline: Stroke::new(1.0, link_color),
        ..plain.clone()
    };
    let mut at = 0;
    for link in links {
        if link.range.start < at
            || link.range.end > text.len()
            || !text.is_char_boundary(link.range.start)
            || !text.is_char_boundary(link.range.end)
        {
            continue;
        }
        job.append(&text[at..link.range.start], 0.0, plain.clone());
        job.append(&text[link.range.clone()], 0.0, linked.clone());
        at = link.range.end;
    }
    job.append(&text[at..], 0.0, plain);
    let galley: Arc<Galley> = ui.painter().layout_job(job);
    let sense = if links.is_empty() {
        Sense::hover()
    } else {
        Sense::click()
    };
    let (rect, response) = ui.allocate_exact_size(galley.size(), sense);
    response.widget_info(|| WidgetInfo::labeled(Role::Label, true, text));
    let mut clicked = None;
    if !links.is_empty()
        && let Some(pos) = response.hover_pos()
    {
        let index = galley.cursor_from_pos(pos - rect.min).index.0;
        let byte = text
            .char_indices()
            .nth(index)
            .map_or(text.len(), |(b, _)| b);
        if let Some(link) = links.iter().find(|l| l.range.contains(&byte)) {
            ui.ctx().set_cursor_icon(egui::CursorIcon::PointingHand);
            response.clone().on_hover_text(&link.href);
            if response.clicked() {
                clicked = Some(link.href.clone());
            }
        }
    }
    ui.painter().galley(rect.min, galley, color);
    clicked
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every level's line height follows its own font (h5 and h6 had text-sized fonts on lines
    /// made for a larger one).
    #[test]
    fn a_heading_line_is_its_own_font_and_a_little_more() {
        for level in 1..=6 {
            let font = heading_font(20.0, level).size;
            assert!(
                (heading_line(20.0, level) - font * 1.3).abs() < 1e-4,
                "h{level}"
            );
            assert!(font >= 20.0, "h{level} is never smaller than the text");
        }
        assert!(heading_font(20.0, 4).size > heading_font(20.0, 5).size);
    }
}
