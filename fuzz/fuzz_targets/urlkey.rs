//! Fuzz target `urlkey`: see `fuzz/check.rs` for what it checks.
#![no_main]

#[path = "../check.rs"]
mod check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| check::urlkey(data));
