//! Judge `caos3`: errors are located; the output is lines of
//! `Asuna`/`Kirito`, one per test, and an accepted input answers all `T`.
#![no_main]

use grundy_cli::judge::{caos3, skip_bom};
use grundy_fuzz::{check_answers, check_error};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &[u8]| {
    let mut out = Vec::new();
    let result = caos3::run(input, &mut out);
    let lines = check_answers(&out, &["Asuna", "Kirito"]);
    assert!(lines <= 10, "at most 10 tests");
    match result {
        Err(err) => check_error(input, err.input().expect("a parse error")),
        Ok(()) => {
            let tests: usize = std::str::from_utf8(skip_bom(input))
                .ok()
                .and_then(|text| text.split_ascii_whitespace().next())
                .and_then(|t| t.parse().ok())
                .expect("an accepted input starts with T");
            assert_eq!(lines, tests, "one answer per test");
        }
    }
});
