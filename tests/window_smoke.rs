//! The real binary in a real window: `pith` with no command, started in a virtual X server (Xvfb)
//! on a database with real articles, waited for, driven with two keys (`j` opens the newest
//! article, `i` the inspector) and photographed with ImageMagick's `import`. Each screenshot must
//! not be blank. With `PITH_SCREENSHOTS=DIR` the pictures are kept there (README's screenshots
//! come from this test).
//!
//! Needs Xvfb, xwininfo, xdotool and ImageMagick (README's test command installs them); without
//! them the test fails and says so, it never passes silently.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::window_fixture as fx;

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

/// A display number with no X server on it.
fn free_display() -> u32 {
    (90..200)
        .find(|n| {
            !Path::new(&format!("/tmp/.X11-unix/X{n}")).exists()
                && !Path::new(&format!("/tmp/.X{n}-lock")).exists()
        })
        .expect("a free X display number")
}

fn wait_for(what: &str, timeout: Duration, mut ready: impl FnMut() -> bool) {
    let deadline = Instant::now() + timeout;
    while !ready() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn window_is_mapped(display: &str) -> bool {
    Command::new("xwininfo")
        .args(["-display", display, "-name", "pith"])
        .output()
        .is_ok_and(|o| {
            o.status.success() && String::from_utf8_lossy(&o.stdout).contains("IsViewable")
        })
}

fn screenshot(display: &str, out: &Path) -> image::RgbImage {
    let status = Command::new("import")
        .args(["-display", display, "-window", "root"])
        .arg(out)
        .status()
        .expect("run import");
    assert!(status.success(), "import failed");
    image::open(out).expect("read the screenshot").to_rgb8()
}

/// Not blank: many distinct colours and real contrast (a black or single-colour frame has
/// neither).
fn assert_not_blank(img: &image::RgbImage, what: &str) {
    let mut colours = std::collections::HashSet::new();
    let (mut min, mut max) = (255u8, 0u8);
    for p in img.pixels() {
        colours.insert(p.0);
        let luma = ((u32::from(p.0[0]) * 3 + u32::from(p.0[1]) * 6 + u32::from(p.0[2])) / 10) as u8;
        min = min.min(luma);
        max = max.max(luma);
    }
    assert!(
        colours.len() > 50 && max - min > 100,
        "the {what} screenshot looks blank: {} colours, luma {min}..{max}",
        colours.len()
    );
}

fn key(display: &str, key: &str) {
    let status = Command::new("xdotool")
        .args(["key", "--clearmodifiers", key])
        .env("DISPLAY", display)
        .status()
        .expect("run xdotool");
    assert!(status.success(), "xdotool key {key} failed");
}

#[test]
fn the_window_opens_in_a_virtual_x_server_and_is_not_blank() {
    require("Xvfb", "xvfb");
    require("xwininfo", "x11-utils");
    require("xdotool", "xdotool");
    require("import", "imagemagick");

    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pith.db");
    fx::build(&db, 12);

    let n = free_display();
    let display = format!(":{n}");
    let _xvfb = Reaped(
        Command::new("Xvfb")
            // -noreset: by default Xvfb resets when its last client leaves (the readiness probe
            // below), and a client connecting during that reset is refused.
            .args([
                &display,
                "-screen",
                "0",
                "1280x800x24",
                "-nolisten",
                "tcp",
                "-noreset",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start Xvfb"),
    );
    // Ready when a client can talk to it, not merely when its socket exists.
    wait_for("Xvfb", Duration::from_secs(20), || {
        Command::new("xwininfo")
            .args(["-display", &display, "-root"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    });

    let log = dir.path().join("pith.log");
    let _pith = Reaped(
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
    let started = Instant::now();
    let deadline = Duration::from_secs(60);
    while !window_is_mapped(&display) {
        if started.elapsed() > deadline {
            panic!(
                "the pith window did not appear; its log:\n{}",
                std::fs::read_to_string(&log).unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    // The first frames: the list arrives from the worker, then is drawn.
    std::thread::sleep(Duration::from_secs(3));

    let keep: Option<PathBuf> = std::env::var_os("PITH_SCREENSHOTS").map(PathBuf::from);
    let shot = |name: &str| -> image::RgbImage {
        let path = match &keep {
            Some(dir) => {
                std::fs::create_dir_all(dir).unwrap();
                dir.join(format!("{name}.png"))
            }
            None => std::env::temp_dir().join(format!("pith-smoke-{}-{name}.png", n)),
        };
        let img = screenshot(&display, &path);
        if keep.is_none() {
            let _ = std::fs::remove_file(&path);
        }
        img
    };
    let first = shot("first-frame");
    assert_not_blank(&first, "first frame");

    // No window manager runs: give the window the keyboard focus ourselves.
    let status = Command::new("xdotool")
        .args(["search", "--name", "^pith$", "windowfocus", "--sync"])
        .env("DISPLAY", &display)
        .status()
        .expect("run xdotool");
    assert!(status.success(), "xdotool could not focus the window");
    key(&display, "j");
    std::thread::sleep(Duration::from_secs(2));
    let article = shot("article");
    assert_not_blank(&article, "article");
    assert!(first != article, "pressing j changed nothing on screen");

    key(&display, "i");
    std::thread::sleep(Duration::from_secs(2));
    let inspector = shot("inspector");
    assert_not_blank(&inspector, "inspector");
    assert!(article != inspector, "pressing i changed nothing on screen");
}
