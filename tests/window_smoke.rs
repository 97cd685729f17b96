//! The real binary in a real window: `pith` with no command, started in a virtual X server (Xvfb)
//! that the test starts itself, on a database with real articles; driven with two keys (`j` opens
//! the newest article, `i` the inspector) and photographed with ImageMagick's `import`. Every step
//! waits for what must appear on screen (with a deadline that fails loudly), never for a fixed
//! time: the server's own "ready" report, the window, the item list, the article in the reading
//! pane, the inspector's shaded blocks. With `PITH_SCREENSHOTS=DIR` the pictures are kept there
//! (README's screenshots come from this test).
//!
//! Needs Xvfb, xdpyinfo, xwininfo, xdotool and ImageMagick (README's test command installs them);
//! without them the test fails and says so, it never passes silently.

mod common;

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::window_fixture as fx;

/// The longest any one wait may take: a bound that fails the test, not a time to wait.
const DEADLINE: Duration = Duration::from_secs(60);
/// The window's size (pith opens at 1280 × 800; the screen is that size too).
const WIDTH: u32 = 1280;
const HEIGHT: u32 = 800;

/// Kills a child process when dropped, so a failing assertion leaves no X server behind.
struct Reaped(Child);

impl Drop for Reaped {
    fn drop(&mut self) {
        // SIGTERM first: Xvfb then removes its lock file and socket.
        let _ = Command::new("kill").arg(self.0.id().to_string()).status();
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.0.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn require(tool: &str, package: &str) {
    let found = Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        found,
        "{tool} is not installed: the window smoke test needs it. Install it with \
         `apt-get install -y --no-install-recommends {package}` (README.md's test command does)"
    );
}

/// Polls `ready` until it gives a value; past `DEADLINE` the test fails with `what` and `why`'s
/// account of the last state.
fn wait_for<T>(what: &str, mut ready: impl FnMut() -> Option<T>, why: impl Fn() -> String) -> T {
    let deadline = Instant::now() + DEADLINE;
    loop {
        if let Some(v) = ready() {
            return v;
        }
        assert!(
            Instant::now() < deadline,
            "timed out after {} s waiting for {what}: {}",
            DEADLINE.as_secs(),
            why()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// An X server that this test started: Xvfb picks a free display itself (`-displayfd`, so two
/// tests never race for one) and reports it once it accepts clients; the test uses no other
/// display. Before it is used, the process must still be running and answer `xdpyinfo` as the
/// screen it was asked for; before each screenshot it must still be running.
struct Xvfb {
    display: String,
    log: PathBuf,
    process: Reaped,
}

impl Xvfb {
    fn start(dir: &Path) -> Xvfb {
        let log = dir.join("xvfb.log");
        let (reader, writer) = std::io::pipe().expect("a pipe for Xvfb's display number");
        let mut cmd = Command::new("Xvfb");
        // -noreset: by default Xvfb resets when its last client leaves (the probes below), and a
        // client connecting during that reset is refused.
        cmd.args([
            "-displayfd",
            "1",
            "-screen",
            "0",
            &format!("{WIDTH}x{HEIGHT}x24"),
            "-nolisten",
            "tcp",
            "-noreset",
        ])
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(std::fs::File::create(&log).unwrap());
        let mut process = Reaped(cmd.spawn().expect("start Xvfb"));
        // Our copy of the pipe's write end goes with the command: a dead Xvfb then reads as the
        // end of the pipe instead of a wait for ever.
        drop(cmd);
        let read_log = || std::fs::read_to_string(&log).unwrap_or_default();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = std::io::BufReader::new(reader).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = rx.recv_timeout(DEADLINE).unwrap_or_else(|_| {
            panic!(
                "Xvfb reported no display within {} s; its log:\n{}",
                DEADLINE.as_secs(),
                read_log()
            )
        });
        let number: u32 = line.trim().parse().unwrap_or_else(|_| {
            panic!(
                "Xvfb did not start (it reported {line:?}, exit {:?}); its log:\n{}",
                process.0.try_wait(),
                read_log()
            )
        });
        let display = format!(":{number}");
        assert!(
            matches!(process.0.try_wait(), Ok(None)),
            "Xvfb reported {display} and exited; its log:\n{}",
            read_log()
        );
        // Xvfb reported this display itself, so it is the one it listens on; it must answer as
        // the screen we asked for.
        let info = Command::new("xdpyinfo")
            .args(["-display", &display])
            .output()
            .expect("run xdpyinfo");
        assert!(
            info.status.success(),
            "Xvfb on {display} does not answer xdpyinfo; its log:\n{}",
            read_log()
        );
        let info = String::from_utf8_lossy(&info.stdout);
        assert!(
            info.contains(&format!("dimensions:    {WIDTH}x{HEIGHT} pixels")),
            "{display} is not the screen our Xvfb was asked for:\n{info}"
        );
        Xvfb {
            display,
            log,
            process,
        }
    }

    /// Fails the test if the server has gone.
    fn assert_alive(&mut self) {
        assert!(
            matches!(self.process.0.try_wait(), Ok(None)),
            "Xvfb on {} exited; its log:\n{}",
            self.display,
            std::fs::read_to_string(&self.log).unwrap_or_default()
        );
    }
}

/// The id of the viewable window named exactly "pith", if there is one.
fn pith_window(display: &str) -> Option<String> {
    let out = Command::new("xdotool")
        .args(["search", "--onlyvisible", "--name", "^pith$"])
        .env("DISPLAY", display)
        .stderr(Stdio::null())
        .output()
        .ok()?;
    let id = String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()?
        .trim()
        .to_string();
    let viewable = Command::new("xwininfo")
        .args(["-display", display, "-id", &id])
        .output()
        .is_ok_and(|o| {
            o.status.success() && String::from_utf8_lossy(&o.stdout).contains("IsViewable")
        });
    viewable.then_some(id)
}

/// The window's picture, as `import` takes it.
fn screenshot(display: &str, window: &str) -> image::RgbImage {
    let out = Command::new("import")
        .args(["-display", display, "-window", window, "png:-"])
        .output()
        .expect("run import");
    assert!(
        out.status.success(),
        "import failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let img = image::load_from_memory(&out.stdout)
        .expect("read the screenshot")
        .to_rgb8();
    assert_eq!(
        img.dimensions(),
        (WIDTH, HEIGHT),
        "the window is not the size pith opens at"
    );
    img
}

/// A rectangle of the window, in pixels (`x0..x1`, `y0..y1`).
#[derive(Debug, Clone, Copy)]
struct Area {
    x0: u32,
    y0: u32,
    x1: u32,
    y1: u32,
}

/// The window's panes at their default widths (feeds 220 px, items 360 px, the reading pane the
/// rest), between the toolbar and the status bar, each a few pixels inside its borders.
const FEEDS_PANE: Area = Area {
    x0: 8,
    y0: 40,
    x1: 210,
    y1: 760,
};
const ITEMS_PANE: Area = Area {
    x0: 232,
    y0: 40,
    x1: 570,
    y1: 760,
};
const READING_PANE: Area = Area {
    x0: 592,
    y0: 40,
    x1: 1270,
    y1: 760,
};

fn pixels(img: &image::RgbImage, a: Area) -> impl Iterator<Item = [u8; 3]> + '_ {
    (a.y0..a.y1).flat_map(move |y| (a.x0..a.x1).map(move |x| img.get_pixel(x, y).0))
}

fn luma(p: [u8; 3]) -> i32 {
    (i32::from(p[0]) * 3 + i32::from(p[1]) * 6 + i32::from(p[2])) / 10
}

/// An area's most common colour.
fn background(img: &image::RgbImage, a: Area) -> [u8; 3] {
    let mut counts = std::collections::HashMap::new();
    for p in pixels(img, a) {
        *counts.entry(p).or_insert(0usize) += 1;
    }
    counts
        .into_iter()
        .max_by_key(|&(_, n)| n)
        .map_or([0, 0, 0], |(p, _)| p)
}

/// The share of an area's pixels that stand out from its background: text, pictures, shaded
/// blocks.
fn ink(img: &image::RgbImage, a: Area) -> f64 {
    let background = luma(background(img, a));
    let total = (a.x1 - a.x0) * (a.y1 - a.y0);
    let inked = pixels(img, a)
        .filter(|&p| (luma(p) - background).abs() > 60)
        .count();
    inked as f64 / f64::from(total)
}

/// The share of an area's pixels that differ between two pictures.
fn changed(a_img: &image::RgbImage, b_img: &image::RgbImage, a: Area) -> f64 {
    let total = (a.x1 - a.x0) * (a.y1 - a.y0);
    let diff = pixels(a_img, a)
        .zip(pixels(b_img, a))
        .filter(|(p, q)| p != q)
        .count();
    diff as f64 / f64::from(total)
}

/// The unread markers (blue dots) down the items pane's left edge: how many rows show one.
fn unread_markers(img: &image::RgbImage) -> usize {
    let mut runs = 0;
    let mut inside = false;
    for y in ITEMS_PANE.y0..ITEMS_PANE.y1 {
        let blue = (ITEMS_PANE.x0 - 6..ITEMS_PANE.x0 + 12).any(|x| {
            // A bright blue, not the selected row's dark blue background.
            let [r, _, b] = img.get_pixel(x, y).0;
            b > 200 && i32::from(b) - i32::from(r) > 100
        });
        if blue && !inside {
            runs += 1;
        }
        inside = blue;
    }
    runs
}

/// Whether the items pane's first row (the newest item) is highlighted: most of it differs from
/// the pane's background.
fn first_row_selected(img: &image::RgbImage) -> bool {
    let row = Area {
        x0: ITEMS_PANE.x0 + 8,
        y0: 56,
        x1: ITEMS_PANE.x1 - 10,
        y1: 96,
    };
    let background = background(img, ITEMS_PANE);
    let total = (row.x1 - row.x0) * (row.y1 - row.y0);
    let lit = pixels(img, row).filter(|&p| p != background).count();
    lit as f64 / f64::from(total) > 0.5
}

/// Whether an area shows red text (the failing feed's error).
fn has_red(img: &image::RgbImage, a: Area) -> bool {
    pixels(img, a)
        .filter(|&[r, g, b]| r > 200 && g < 40 && b < 40)
        .count()
        > 20
}

/// The shares of an area's pixels tinted like the inspector's shades: green or blue (content,
/// new content) and red (boilerplate), each channel well above the others. The reader's grey
/// text and background have neither; its blue links are thin.
fn shaded(img: &image::RgbImage, a: Area) -> (f64, f64) {
    let total = f64::from((a.x1 - a.x0) * (a.y1 - a.y0));
    let (mut content, mut boilerplate) = (0usize, 0usize);
    for [r, g, b] in pixels(img, a).map(|p| p.map(i32::from)) {
        if (g > r + 12 && g > b + 6) || (b > r + 20 && b > g + 12) {
            content += 1;
        }
        if r > g + 12 && r > b + 12 {
            boilerplate += 1;
        }
    }
    (content as f64 / total, boilerplate as f64 / total)
}

/// Not blank: many distinct colours and real contrast (a black or single-colour frame has
/// neither).
fn assert_not_blank(img: &image::RgbImage, what: &str) {
    let mut colours = std::collections::HashSet::new();
    let (mut min, mut max) = (255, 0);
    for p in img.pixels() {
        colours.insert(p.0);
        min = min.min(luma(p.0));
        max = max.max(luma(p.0));
    }
    assert!(
        colours.len() > 50 && max - min > 100,
        "the {what} screenshot looks blank: {} colours, luma {min}..{max}",
        colours.len()
    );
}

/// The X server, pith's window on it, and where pictures go.
struct Session {
    xvfb: Xvfb,
    pith: Reaped,
    log: PathBuf,
    window: String,
    keep: Option<PathBuf>,
}

impl Session {
    fn pith_log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Fails the test if Xvfb or pith has gone.
    fn assert_alive(&mut self) {
        self.xvfb.assert_alive();
        let status = self.pith.0.try_wait();
        assert!(
            matches!(status, Ok(None)),
            "pith exited ({status:?}); its log:\n{}",
            self.pith_log()
        );
    }

    /// One screenshot after another until `done` holds for the last one; past the deadline the
    /// test fails with `explain`'s account of the last one (kept under PITH_SCREENSHOTS).
    fn shoot_until(
        &mut self,
        name: &str,
        done: impl Fn(&image::RgbImage) -> bool,
        explain: impl Fn(&image::RgbImage) -> String,
    ) -> image::RgbImage {
        let deadline = Instant::now() + DEADLINE;
        loop {
            self.assert_alive();
            let img = screenshot(&self.xvfb.display, &self.window);
            let ok = done(&img);
            if let Some(dir) = self
                .keep
                .as_ref()
                .filter(|_| ok || Instant::now() >= deadline)
            {
                std::fs::create_dir_all(dir).unwrap();
                img.save(dir.join(format!("{name}.png"))).unwrap();
            }
            if ok {
                return img;
            }
            assert!(
                Instant::now() < deadline,
                "timed out after {} s waiting for the {name} screen: {}; pith's log:\n{}",
                DEADLINE.as_secs(),
                explain(&img),
                self.pith_log()
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// Presses `key` in the focused window (XTEST, as a keyboard would).
    fn key(&self, key: &str) {
        let status = Command::new("xdotool")
            .args(["key", "--clearmodifiers", key])
            .env("DISPLAY", &self.xvfb.display)
            .status()
            .expect("run xdotool");
        assert!(status.success(), "xdotool key {key} failed");
    }
}

/// Guards the window as a person sees it: it opens on a real X server, lists the items, opens the
/// newest article in the reading pane on `j` and shows the inspector's shaded blocks on `i`,
/// each change in its own pane and nowhere else.
#[test]
fn the_window_opens_in_a_virtual_x_server_and_shows_the_list_the_article_and_the_inspector() {
    require("Xvfb", "xvfb");
    require("xdpyinfo", "x11-utils");
    require("xwininfo", "x11-utils");
    require("xdotool", "xdotool");
    require("import", "imagemagick");

    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pith.db");
    fx::build(&db, 12);

    let mut xvfb = Xvfb::start(dir.path());
    let display = xvfb.display.clone();
    let log = dir.path().join("pith.log");
    let mut pith = Reaped(
        Command::new(env!("CARGO_BIN_EXE_pith"))
            .arg("--db")
            .arg(&db)
            .env("DISPLAY", &display)
            .env_remove("WAYLAND_DISPLAY")
            // Mesa's software rasteriser: there is no GPU under Xvfb.
            .env("LIBGL_ALWAYS_SOFTWARE", "1")
            .env("PITH_LOOPBACK_ONLY", "1")
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .expect("start pith"),
    );
    let window = wait_for(
        "the pith window",
        || {
            xvfb.assert_alive();
            let status = pith.0.try_wait();
            assert!(
                matches!(status, Ok(None)),
                "pith exited ({status:?}); its log:\n{}",
                std::fs::read_to_string(&log).unwrap_or_default()
            );
            pith_window(&display)
        },
        || {
            format!(
                "no viewable window named pith; its log:\n{}",
                std::fs::read_to_string(&log).unwrap_or_default()
            )
        },
    );
    let mut s = Session {
        xvfb,
        pith,
        log,
        window,
        keep: std::env::var_os("PITH_SCREENSHOTS").map(PathBuf::from),
    };

    // The first screen: the feeds and the items are listed (the list comes from the window's
    // worker, then is drawn) and the reading pane is empty but for its hint.
    let first = s.shoot_until(
        "first-frame",
        |img| {
            unread_markers(img) == 12 && has_red(img, FEEDS_PANE) && ink(img, READING_PANE) < 0.005
        },
        |img| {
            format!(
                "{} unread markers (12 wanted), the broken feed's error {}, reading pane ink {:.4}",
                unread_markers(img),
                if has_red(img, FEEDS_PANE) {
                    "shown"
                } else {
                    "missing"
                },
                ink(img, READING_PANE)
            )
        },
    );
    assert_not_blank(&first, "first frame");

    // No window manager runs: give the window the keyboard focus ourselves.
    let status = Command::new("xdotool")
        .args(["windowfocus", "--sync", &s.window])
        .env("DISPLAY", &display)
        .status()
        .expect("run xdotool");
    assert!(status.success(), "xdotool could not focus the window");

    // `j`: the newest item is selected and marked read, and its article fills the reading pane.
    s.key("j");
    let article = s.shoot_until(
        "article",
        |img| {
            first_row_selected(img)
                && unread_markers(img) == 11
                && ink(img, READING_PANE) > 0.02
                && changed(&first, img, READING_PANE) > 0.05
        },
        |img| {
            format!(
                "first row {}, {} unread markers (11 wanted), reading pane ink {:.4} (0.02 \
                 wanted), changed {:.4} (0.05 wanted)",
                if first_row_selected(img) {
                    "selected"
                } else {
                    "not selected"
                },
                unread_markers(img),
                ink(img, READING_PANE),
                changed(&first, img, READING_PANE)
            )
        },
    );
    assert_not_blank(&article, "article");
    let (content, boilerplate) = shaded(&article, READING_PANE);
    assert!(
        content < 0.01 && boilerplate < 0.01,
        "the reader shows the inspector's shades before i: {content:.4}, {boilerplate:.4}"
    );

    // `i`: the inspector shades the article's blocks, content green or blue and boilerplate
    // red, in the reading pane; the list stays as it was.
    s.key("i");
    let inspector = s.shoot_until(
        "inspector",
        |img| {
            let (content, boilerplate) = shaded(img, READING_PANE);
            content > 0.03 && boilerplate > 0.03
        },
        |img| {
            let (content, boilerplate) = shaded(img, READING_PANE);
            format!(
                "shaded share: content {content:.4}, boilerplate {boilerplate:.4} (0.03 wanted)"
            )
        },
    );
    assert_not_blank(&inspector, "inspector");
    assert_eq!(
        changed(&article, &inspector, FEEDS_PANE) + changed(&article, &inspector, ITEMS_PANE),
        0.0,
        "opening the inspector changed the feeds or items pane"
    );
    s.assert_alive();
}
