//! Judge `pshtbrth`: the first byte picks a chunk size (1 to 64 bytes) for
//! `run_reader`, the rest is the input. Streamed in small chunks it must
//! give the same answers and the same located error as `run` (one piece);
//! the output is lines of `Pishty`/`Lotsy`.
#![no_main]

use grundy_cli::judge::pshtbrth;
use grundy_fuzz::{check_answers, check_error};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&first, input)) = data.split_first() else {
        return;
    };
    let chunk = 1 + usize::from(first % 64);
    let mut whole = Vec::new();
    let whole_result = pshtbrth::run(input, &mut whole);
    check_answers(&whole, &["Pishty", "Lotsy"]);
    if let Err(err) = &whole_result {
        check_error(input, err);
    }
    let mut streamed = Vec::new();
    let streamed_result = pshtbrth::run_reader(input, &mut streamed, chunk);
    assert_eq!(
        String::from_utf8_lossy(&streamed),
        String::from_utf8_lossy(&whole),
        "chunk {chunk}: answers differ"
    );
    assert_eq!(
        streamed_result, whole_result,
        "chunk {chunk}: results differ"
    );
});
