//! Where the commands write: their results to standard output, whose closed pipe ends a command
//! quietly (`pith items | head -1`), and their progress and warnings to standard error, which
//! never stops one.

use std::io::Write;

/// Writes a line to standard output. A closed pipe (`pith items | head -1`) ends the command
/// through `?`, and `main` then exits quietly, as command-line tools do.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!($crate::cli::output::output(), $($arg)*)?
    }};
}

/// Writes progress or a warning to standard error, ignoring a closed or failing stderr:
/// progress is never a reason to stop work (a refresh run as `pith refresh 2>&1 | head -1`
/// still stores every item).
macro_rules! note {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}

/// Standard output, whose closed pipe is told apart from every other broken pipe (a feed's
/// server hanging up is an error to report; the reader of our output going away is not).
pub struct Output(std::io::StdoutLock<'static>);

/// The payload of the error [`Output`] gives when its reader has gone.
#[derive(Debug)]
pub struct OutputClosed;

impl std::fmt::Display for OutputClosed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("standard output was closed")
    }
}

impl std::error::Error for OutputClosed {}

impl Output {
    fn mark(e: std::io::Error) -> std::io::Error {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::io::Error::new(std::io::ErrorKind::BrokenPipe, OutputClosed)
        } else {
            e
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf).map_err(Output::mark)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush().map_err(Output::mark)
    }
}

/// Standard output for the commands' results (see [`Output`]).
pub fn output() -> Output {
    Output(std::io::stdout().lock())
}

/// True when `e` comes from writing to standard output after its reader closed it.
pub fn is_closed_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .and_then(|io| io.get_ref())
            .is_some_and(|inner| inner.is::<OutputClosed>())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_closed_standard_output_counts_as_closed() {
        let closed = anyhow::Error::from(Output::mark(std::io::ErrorKind::BrokenPipe.into()))
            .context("writing the list");
        assert!(is_closed_pipe(&closed));
        // A server hanging up is a broken pipe too, but not ours: an error to report.
        let server = anyhow::Error::from(std::io::Error::from(std::io::ErrorKind::BrokenPipe));
        assert!(!is_closed_pipe(&server));
        let other = anyhow::Error::from(Output::mark(std::io::ErrorKind::PermissionDenied.into()));
        assert!(!is_closed_pipe(&other));
    }
}
