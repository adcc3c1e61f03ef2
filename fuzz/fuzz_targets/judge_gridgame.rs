//! Judge `gridgame`: errors are located; the output is lines of
//! `Alice`/`Bob`; and an accepted input gets the answers of a
//! straightforward reading (split on whitespace, each start classified on
//! its own by the engine's `Outcomes`, by rows and, as a cross-check, by
//! columns) instead of the judge's sorted walk.
#![no_main]

use grundy::pawn::{Blocked, Cell, CellKind, Outcomes};
use grundy_cli::judge::{gridgame, skip_bom};
use grundy_fuzz::{check_answers, check_error};
use libfuzzer_sys::fuzz_target;

fn straightforward(input: &[u8]) -> String {
    let text = std::str::from_utf8(skip_bom(input)).expect("accepted input is ASCII");
    let mut tokens = text
        .split_ascii_whitespace()
        .map(|t| t.parse::<u64>().expect("a number"));
    let mut next = || tokens.next().expect("a token");
    let mut out = String::new();
    for _ in 0..next() {
        let cells: Vec<Cell> = (0..next())
            .map(|_| Cell::new(next(), next()).expect("in range"))
            .collect();
        let outcomes = Outcomes::new(&Blocked::new(&cells).expect("distinct"));
        for _ in 0..next() {
            let (x, y) = (next(), next());
            let kind = outcomes.classify(Cell::new(x, y).expect("in range"));
            let by_columns = outcomes.columns().classify(x as u32, y as u32);
            assert_eq!(kind, by_columns, "({x},{y}): rows and columns disagree");
            assert_ne!(
                kind,
                CellKind::Blocked,
                "({x},{y}): a start on a wall accepted"
            );
            out.push_str(if kind == CellKind::Losing {
                "Bob\n"
            } else {
                "Alice\n"
            });
        }
    }
    out
}

fuzz_target!(|input: &[u8]| {
    let mut out = Vec::new();
    let result = gridgame::run(input, &mut out);
    check_answers(&out, &["Alice", "Bob"]);
    match result {
        Err(err) => check_error(input, err.input().expect("a parse error")),
        Ok(()) => assert_eq!(
            String::from_utf8_lossy(&out),
            straightforward(input),
            "answers differ from the straightforward reading"
        ),
    }
});
