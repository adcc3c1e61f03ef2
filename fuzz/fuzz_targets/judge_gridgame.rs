//! Judge `gridgame`: errors are located; the output is lines of
//! `Alice`/`Bob`, and an accepted input answers every query.
#![no_main]

use grundy_cli::judge::gridgame;
use grundy_fuzz::{check_answers, check_error};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &[u8]| {
    let mut out = Vec::new();
    let result = gridgame::run(input, &mut out);
    let lines = check_answers(&out, &["Alice", "Bob"]);
    match result {
        Err(err) => check_error(input, &err),
        Ok(()) => {
            // T, then per test N, N pairs, Q, Q pairs: Q <= tokens / 2.
            let tokens = input
                .split(u8::is_ascii_whitespace)
                .filter(|t| !t.is_empty())
                .count();
            assert!(
                lines >= 1 && lines <= tokens / 2,
                "{lines} answers for {tokens} tokens"
            );
        }
    }
});
