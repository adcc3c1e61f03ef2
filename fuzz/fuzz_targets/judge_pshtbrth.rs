//! Judge `pshtbrth`: the first byte picks a chunk size (1 to 64 bytes) for
//! `run_reader`, the rest is the input. Streamed in small chunks it must
//! give the same answers and the same located error as `run` (one piece);
//! the output is lines of `Pishty`/`Lotsy`; and an accepted input gets the
//! answers of a straightforward reading (split on whitespace, a plain XOR
//! loop over the engine's 4 x 4 values: no Fenwick tree, no word tricks).
#![no_main]

use grundy::clear::value4x4;
use grundy_cli::judge::{pshtbrth, skip_bom, JudgeError};
use grundy_fuzz::{check_answers, check_error};
use grundy_report::parse::ParseError;
use libfuzzer_sys::fuzz_target;

fn straightforward(input: &[u8]) -> String {
    let text = std::str::from_utf8(skip_bom(input)).expect("accepted input is ASCII");
    let tokens: Vec<&str> = text.split_ascii_whitespace().collect();
    let mut at = 0;
    let mut next = || {
        at += 1;
        tokens[at - 1]
    };
    let number = |token: &str| -> usize { token.parse().expect("a number") };
    let mut out = String::new();
    let tests = number(next());
    for _ in 0..tests {
        let n = number(next());
        let m = number(next());
        let mut values = Vec::with_capacity(n);
        for _ in 0..n {
            let rows = [next(), next(), next(), next()];
            values.push(value_of(rows));
        }
        for _ in 0..m {
            if number(next()) == 1 {
                let (l, r) = (number(next()), number(next()));
                let total = values[l - 1..r].iter().fold(0, |acc, v| acc ^ v);
                out.push_str(if total == 0 { "Lotsy\n" } else { "Pishty\n" });
            } else {
                let p = number(next());
                let rows = [next(), next(), next(), next()];
                values[p - 1] = value_of(rows);
            }
        }
    }
    out
}

fn value_of(rows: [&str; 4]) -> u32 {
    let mut cells = 0u64;
    for (r, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), 4, "an accepted row has 4 cells");
        for (c, ch) in row.bytes().enumerate() {
            if ch == b'1' {
                cells |= 1 << (4 * r + c);
            }
        }
    }
    value4x4(cells).value()
}

/// The parse error, if any (writing to a `Vec` does not fail).
fn parse_error(result: Result<(), JudgeError>) -> Result<(), ParseError> {
    result.map_err(|err| err.input().expect("a parse error").clone())
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, input)) = data.split_first() else {
        return;
    };
    let chunk = 1 + usize::from(first % 64);
    let mut whole = Vec::new();
    let whole_result = parse_error(pshtbrth::run(input, &mut whole));
    check_answers(&whole, &["Pishty", "Lotsy"]);
    match &whole_result {
        Err(err) => check_error(input, err),
        Ok(()) => assert_eq!(
            String::from_utf8_lossy(&whole),
            straightforward(input),
            "answers differ from the straightforward reading"
        ),
    }
    let mut streamed = Vec::new();
    let streamed_result = parse_error(pshtbrth::run_reader(input, &mut streamed, chunk));
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
