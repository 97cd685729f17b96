//! The `pith` command line: every job the reader does (subscribe, refresh, list, read, search),
//! plus `extract` and `eval`. With no command, the window. The commands live in [`cli`]; this
//! file only runs one and turns its error into a message and an exit status.

#[macro_use]
mod cli;

use clap::Parser;

fn main() {
    let args = cli::Cli::parse();
    if let Err(e) = cli::run(args) {
        // The reader of the output went away (`| head`): nothing is wrong, and nothing to say.
        if cli::is_closed_pipe(&e) {
            return;
        }
        note!("error: {e:#}");
        if cli::reads_damage(&e) {
            note!(
                "the database file looks damaged: the next command that writes (such as `pith refresh`) checks it and moves it aside, kept; `pith restore BACKUP_FILE` puts a backup in its place"
            );
        }
        std::process::exit(1);
    }
}
