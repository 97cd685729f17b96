//! The system's file dialog for OPML import and export, behind the [`FilePicker`] seam (a test
//! puts its own picker in the window's `Config`). A dialog waits for the user as long as they like,
//! so it runs on a thread of its own and answers as a reply.

use std::path::PathBuf;
use std::thread;

use super::{Reply, Worker};

/// What a file is picked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PickFor {
    /// An OPML file to import.
    ImportOpml,
    /// Where to write the subscriptions' OPML file.
    ExportOpml,
}

/// Asks the user for a file. Runs on a thread of its own (it may wait for the user as long as
/// they like), never on the window's.
pub trait FilePicker: Send + Sync + std::fmt::Debug {
    /// The file chosen, or `None` when none was (cancelled, or no dialog could be shown).
    fn pick(&self, purpose: PickFor) -> Option<PathBuf>;
}

/// The system's file dialog through `rfd`: on Linux the desktop portal over D-Bus (libdbus,
/// loaded at run time), else `zenity`.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemFilePicker;

impl FilePicker for SystemFilePicker {
    fn pick(&self, purpose: PickFor) -> Option<PathBuf> {
        // rfd returns `None` both when the user cancels and when there is no portal and no
        // zenity (it only logs the latter), so the window cannot tell the two apart: its message
        // covers both.
        let dialog = rfd::FileDialog::new().add_filter("OPML", &["opml", "xml"]);
        match purpose {
            PickFor::ImportOpml => dialog.set_title("Import subscriptions (OPML)").pick_file(),
            PickFor::ExportOpml => dialog
                .set_title("Export subscriptions (OPML)")
                .set_file_name("pith-subscriptions.opml")
                .save_file(),
        }
    }
}

impl Worker {
    /// Asks the configured [`FilePicker`] for a file on a thread of its own (a dialog waits for
    /// the user; the frame never does); the answer comes as [`Reply::Picked`].
    pub fn pick_file(&self, purpose: PickFor) {
        let picker = self.config.file_picker.clone();
        let tx = self.reply_tx.clone();
        let ctx = self.ctx.clone();
        let spawned = thread::Builder::new()
            .name("pith-file-dialog".into())
            .spawn(move || {
                // A dialog that panics (a toolkit with no display to show on) still answers:
                // without an answer the window would wait for the dialog, its Browse buttons
                // disabled, for ever.
                let path =
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| picker.pick(purpose)))
                        .unwrap_or(None);
                let _ = tx.send(Reply::Picked { purpose, path });
                ctx.request_repaint();
            });
        if spawned.is_err() {
            let _ = self.reply_tx.send(Reply::Picked {
                purpose,
                path: None,
            });
        }
    }
}
