//! Fuzz target `feed`: see `fuzz/check.rs` for what it checks.
#![no_main]

#[path = "../check.rs"]
mod check;

libfuzzer_sys::fuzz_target!(
    init: {
        // parse_feed catches a panic inside feed-rs (quick-xml panics on some encoding
        // declarations) and returns an error, as the reader must. libfuzzer-sys's panic hook
        // would abort on that caught panic; a panic that escapes parse_feed still aborts, because
        // libfuzzer-sys checks every run with catch_unwind.
        std::panic::set_hook(Box::new(|_| {}));
    },
    |data: &[u8]| check::feed(data)
);
