//! Judge `gfg`: an error is located and prints nothing; an accepted board
//! prints exactly one line, `A` or `B`.
#![no_main]

use grundy_cli::judge::gfg;
use grundy_fuzz::{check_answers, check_error};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &[u8]| {
    let mut out = Vec::new();
    let result = gfg::run(input, &mut out);
    let lines = check_answers(&out, &["A", "B"]);
    match result {
        Ok(()) => assert_eq!(lines, 1, "one board, one answer"),
        Err(err) => {
            check_error(input, err.input().expect("a parse error"));
            assert_eq!(lines, 0, "an answer before an error");
        }
    }
});
