//! The item list: one fixed-height row per item (title, site, date, unread dot, star), drawn only
//! for the rows in view (`ScrollArea::show_rows`), so 100,000 items scroll as smoothly as ten.

use egui::text::{LayoutJob, TextFormat, TextWrapping};
use egui::{Color32, FontId, Painter, Pos2, Role, Sense, Shape, Stroke, Ui, WidgetInfo};

use crate::store::ItemRow;

/// Height of one row, in points.
pub const ROW_HEIGHT: f32 = 44.0;

/// A date as the list and the reader show it (UTC).
pub fn format_date(secs: i64) -> String {
    chrono::DateTime::from_timestamp(secs, 0)
        .map(|d| d.format("%Y-%m-%d %H:%M").to_string())
        .unwrap_or_default()
}

/// What the user did in the list this frame.
#[derive(Debug, Default)]
pub struct ListOutput {
    /// The row clicked.
    pub clicked: Option<usize>,
    /// The rows in view.
    pub visible: std::ops::Range<usize>,
}

/// Draws the rows; `selected` is highlighted, and `scroll_to` (a row index) is brought into view.
pub fn show(
    ui: &mut Ui,
    rows: &[ItemRow],
    selected: Option<usize>,
    scroll_to: Option<usize>,
) -> ListOutput {
    let mut out = ListOutput::default();
    let spacing = ui.spacing().item_spacing.y;
    let mut area = egui::ScrollArea::vertical()
        .id_salt("item-list")
        .auto_shrink([false, false]);
    if let Some(row) = scroll_to {
        // Place the row about a third down the view, as mail and feed readers do.
        let view = ui.available_height();
        let y = row as f32 * (ROW_HEIGHT + spacing) - view / 3.0;
        area = area.vertical_scroll_offset(y.max(0.0));
    }
    let visuals = ui.visuals().clone();
    area.show_rows(ui, ROW_HEIGHT, rows.len(), |ui, range| {
        out.visible = range.clone();
        for i in range {
            let row = &rows[i];
            let (rect, response) = ui
                .allocate_exact_size(egui::vec2(ui.available_width(), ROW_HEIGHT), Sense::click());
            response.widget_info(|| {
                let mut info = WidgetInfo::labeled(Role::ListItem, true, &row.title);
                info.selected = Some(selected == Some(i));
                info
            });
            if response.clicked() {
                out.clicked = Some(i);
            }
            if !ui.is_rect_visible(rect) {
                continue;
            }
            let painter = ui.painter_at(rect);
            if selected == Some(i) {
                painter.rect_filled(rect, 4.0, visuals.selection.bg_fill);
            } else if response.hovered() {
                painter.rect_filled(rect, 4.0, visuals.widgets.hovered.weak_bg_fill);
            }
            let text = if selected == Some(i) {
                visuals.selection.stroke.color
            } else if row.read {
                visuals.weak_text_color()
            } else {
                visuals.strong_text_color()
            };
            if !row.read {
                painter.circle_filled(
                    egui::pos2(rect.left() + 8.0, rect.top() + 13.0),
                    4.0,
                    visuals.hyperlink_color,
                );
            }
            let left = rect.left() + 18.0;
            let right = rect.right() - 22.0;
            let mut job = LayoutJob {
                wrap: TextWrapping::truncate_at_width((right - left).max(10.0)),
                ..Default::default()
            };
            job.append(
                &row.title,
                0.0,
                TextFormat::simple(FontId::proportional(14.0), text),
            );
            let galley = painter.layout_job(job);
            painter.galley(egui::pos2(left, rect.top() + 4.0), galley, text);
            let mut meta = LayoutJob {
                wrap: TextWrapping::truncate_at_width((right - left).max(10.0)),
                ..Default::default()
            };
            let weak = visuals.weak_text_color();
            let mut line = format!("{} · {}", row.feed, format_date(row.date));
            if row.failed {
                line.push_str(" · page not fetched");
            }
            meta.append(
                &line,
                0.0,
                TextFormat::simple(FontId::proportional(11.5), weak),
            );
            let galley = painter.layout_job(meta);
            painter.galley(egui::pos2(left, rect.top() + 24.0), galley, weak);
            if row.starred {
                star(
                    &painter,
                    egui::pos2(rect.right() - 12.0, rect.top() + 12.0),
                    7.0,
                    Color32::from_rgb(0xe0, 0xa0, 0x20),
                );
            }
        }
    });
    out
}

/// A five-pointed star, filled: drawn rather than typed, since the default fonts have no star.
fn star(painter: &Painter, center: Pos2, radius: f32, color: Color32) {
    let point = |i: usize, r: f32| {
        let angle = std::f32::consts::TAU * i as f32 / 10.0 - std::f32::consts::FRAC_PI_2;
        center + egui::vec2(angle.cos(), angle.sin()) * r
    };
    let inner: Vec<Pos2> = (0..5).map(|i| point(2 * i + 1, radius * 0.4)).collect();
    // A star is not convex: its inner pentagon plus one triangle per point.
    painter.add(Shape::convex_polygon(inner.clone(), color, Stroke::NONE));
    for i in 0..5 {
        let tip = point(2 * i, radius);
        let left = inner[(i + 4) % 5];
        let right = inner[i];
        painter.add(Shape::convex_polygon(
            vec![left, tip, right],
            color,
            Stroke::NONE,
        ));
    }
}
