//! The window's layout on everyday pages and screens: text in every script drawn with real
//! glyphs (never the replacement box), a small window that still reads as an article, and the
//! inspector's panes side by side after a pin. Driven with egui_kittest over the real `App`.
//!
//! The scripts test needs system fonts for CJK and Arabic/Hebrew: Debian's `fonts-noto-cjk` and
//! `fonts-noto-core` (README.md's test command installs them).

mod common;

use common::window_fixture as fx;
use common::window_harness::{harness_sized, has_label_containing, settle};
use egui_kittest::kittest::Queryable;

/// Lines of an article in the scripts the bundled fonts lack (and emoji), each as a paragraph.
const SCRIPTS: [(&str, &str); 6] = [
    ("Chinese", "北京市政府周二宣布新的公共交通计划"),
    ("Thai", "กรุงเทพมหานครประกาศแผนการขนส่งสาธารณะใหม่"),
    ("Japanese", "東京の図書館は週末の開館時間を延長します"),
    ("Arabic", "أعلن مجلس المدينة عن ميزانية جديدة للمدارس"),
    ("Hebrew", "מועצת העיר אישרה את התקציב החדש לבתי הספר"),
    (
        "emoji",
        "The crowd cheered 🎉 and waved 👍 at the parade 😀",
    ),
];

fn scripts_article() -> (tempfile::TempDir, String) {
    let paragraphs: String = SCRIPTS
        .iter()
        .map(|(_, line)| format!("<p>{line}. {} {line}.</p>\n", fx::content_sentence(2)))
        .collect();
    let title = format!("{} {}", SCRIPTS[0].1, SCRIPTS[3].1);
    let html = format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>{title}</title></head><body>\
         <main><article><h1>{title}</h1>\n{paragraphs}<pre>    {}\n        {}</pre>\
         </article></main></body></html>",
        SCRIPTS[2].1, SCRIPTS[4].1
    );
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pith.db");
    fx::build_article(
        &db,
        "https://www.examplenews.com/world/2026/scripts",
        &title,
        &html,
    );
    (dir, title)
}

/// Chinese, Thai, Japanese, Arabic, Hebrew and emoji in the item list, the reading pane (proportional
/// and monospace) and the inspector: every character has a glyph in the window's fonts, so none
/// is drawn as the replacement box.
#[test]
fn text_in_every_script_is_drawn_with_real_glyphs() {
    let (dir, title) = scripts_article();
    let mut h = harness_sized(&dir.path().join("pith.db"), [1400.0, 1000.0]);
    settle(&mut h);
    // The list shows the title; open it and then the inspector.
    h.get_by_label(&title).click();
    settle(&mut h);
    for (script, line) in SCRIPTS {
        assert!(
            has_label_containing(&h, line),
            "the {script} line is in the reading pane"
        );
    }
    h.key_press(egui::Key::I);
    settle(&mut h);
    assert!(h.state().inspector);
    assert!(has_label_containing(&h, SCRIPTS[0].1));
    for family in [egui::FontFamily::Proportional, egui::FontFamily::Monospace] {
        let font = egui::FontId::new(14.0, family.clone());
        for (script, line) in SCRIPTS {
            let missing: Vec<char> = h.ctx.fonts_mut(|fonts| {
                line.chars()
                    .filter(|c| !c.is_whitespace() && !fonts.has_glyph(&font, *c))
                    .collect()
            });
            assert!(
                missing.is_empty(),
                "{script} in {family:?}: no glyph for {missing:?} (are fonts-noto-cjk and \
                 fonts-noto-core installed? `fc-list :lang=zh` lists the CJK fonts)"
            );
        }
    }
}

/// The width of an average character of `text` at `font`, from the window's own fonts.
fn average_char_width(
    h: &egui_kittest::Harness<'static, pith::ui::App>,
    text: &str,
    font: &egui::FontId,
) -> f32 {
    let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    let total: f32 = h
        .ctx
        .fonts_mut(|fonts| chars.iter().map(|c| fonts.glyph_width(font, *c)).sum());
    // Spaces count as characters of a line too, at their own width.
    let spaces = text.chars().filter(|c| c.is_whitespace()).count();
    let space = h.ctx.fonts_mut(|fonts| fonts.glyph_width(font, ' '));
    (total + space * spaces as f32) / text.chars().count() as f32
}

/// At 800 × 560 the panes give way so that the article keeps a readable line: at least 45
/// average characters wide (it was about three words), and the list is still there.
#[test]
fn a_small_window_keeps_a_readable_line_in_the_article() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pith.db");
    fx::build(&db, 6);
    let mut h = harness_sized(&db, [800.0, 560.0]);
    settle(&mut h);
    h.get_by_label(&fx::title(5)).click();
    settle(&mut h);
    assert!(h.state().open.is_some());
    let sentence = fx::content_sentence(5);
    let paragraph = h.get_by_label_contains(&sentence);
    let width = paragraph.rect().width();
    let text = h
        .state()
        .open
        .as_ref()
        .unwrap()
        .article
        .blocks
        .iter()
        .find(|b| b.text.contains(&sentence))
        .expect("the paragraph is a block")
        .text
        .clone();
    let font = egui::FontId::proportional(h.state().text_size);
    let average = average_char_width(&h, &text, &font);
    let chars = width / average;
    assert!(
        chars >= 45.0,
        "the article's line holds {chars:.0} average characters ({width:.0} pt wide)"
    );
    assert!(
        paragraph.rect().right() <= 800.0,
        "the paragraph fits the window"
    );
    // The list is still there beside it.
    assert!(has_label_containing(&h, &fx::title(4)));
}

/// After a pin, the inspector's "Why" pane stays beside the block list (it grew over it) and the
/// pin's line wraps inside it (it ran off the pane, cut off).
#[test]
fn the_inspector_keeps_its_panes_apart_after_a_pin() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pith.db");
    fx::build(&db, 12);
    let size = [1100.0, 760.0];
    let mut h = harness_sized(&db, size);
    settle(&mut h);
    h.get_by_label(&fx::title(11)).click();
    settle(&mut h);
    h.key_press(egui::Key::I);
    settle(&mut h);
    let promo = fx::BOILERPLATE[0];
    h.get_by_label(promo).click();
    settle(&mut h);
    assert!(h.state().inspected.is_some(), "the block is selected");
    // The pointer leaves the block first, taking its hover card with it.
    h.get_by_label("Pin: always content").hover();
    h.run_steps(2);
    let button = h.get_by_label("Pin: always content");
    button.click();
    settle(&mut h);
    assert_eq!(h.state().pins.len(), 1, "{:?}", h.state().status);
    // The block is selected again after the pin, so the explanation is long too.
    h.get_by_label(promo).click();
    settle(&mut h);

    let why = h.get_by_label("Why").rect();
    let pin = h.get_by_label_contains("always content: ").rect();
    let list = h.get_by_label(promo).rect();
    assert!(
        list.right() <= why.left(),
        "the block list ({list:?}) runs under the Why pane ({why:?})"
    );
    assert!(
        pin.left() >= why.left() - 1.0 && pin.right() <= size[0],
        "the pin's line ({pin:?}) leaves its pane (from {:.0} to {:.0})",
        why.left(),
        size[0]
    );
    assert!(
        pin.height() > 20.0,
        "the pin's long line wraps rather than running on ({pin:?})"
    );
}
