//! The few words several commands print the same way: a time, a block's verdict, a pin's verdict.

use pith::store::PinVerdict;

/// A unix time as the lists print it (`2026-05-01 09:30 UTC`), or `never`.
pub fn when(secs: Option<i64>) -> String {
    let Some(secs) = secs else {
        return "never".into();
    };
    chrono::DateTime::from_timestamp(secs, 0)
        .map(|d| d.format("%Y-%m-%d %H:%M UTC").to_string())
        .unwrap_or_else(|| secs.to_string())
}

/// A block's verdict as the block listings print it (`pith read --blocks`, `pith extract
/// --blocks`), padded to one width.
pub fn verdict_label(content: bool) -> &'static str {
    if content {
        "CONTENT    "
    } else {
        "BOILERPLATE"
    }
}

/// A pin's verdict in a sentence ("always content").
pub fn verdict_name(verdict: PinVerdict) -> &'static str {
    match verdict {
        PinVerdict::Content => "content",
        PinVerdict::Boilerplate => "boilerplate",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_printed_in_utc_and_an_absent_one_as_never() {
        assert_eq!(when(None), "never");
        assert_eq!(when(Some(0)), "1970-01-01 00:00 UTC");
        assert_eq!(when(Some(1_790_000_000)), "2026-09-21 14:13 UTC");
        // Out of chrono's range: the number itself rather than a panic.
        assert_eq!(when(Some(i64::MAX)), i64::MAX.to_string());
    }

    #[test]
    fn block_verdicts_line_up() {
        assert_eq!(verdict_label(true).len(), verdict_label(false).len());
    }
}
