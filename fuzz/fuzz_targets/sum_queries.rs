//! `queries::QueryReader`: the first byte picks the number of boards `N`
//! (1 to 16), the rest is the script. Every query read has indices inside
//! `1..=N` (0-based here) with `L <= R` and a board of at most 64 cells; an
//! error is located and ends the reading.
#![no_main]

use grundy_cli::queries::{Query, QueryReader};
use grundy_fuzz::check_error;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&first, script)) = data.split_first() else {
        return;
    };
    let boards = 1 + usize::from(first % 16);
    let mut reader = QueryReader::new(script, boards);
    let mut read = 0;
    while let Some(result) = reader.next() {
        read += 1;
        assert!(read <= script.len(), "more queries than bytes");
        match result {
            Ok(Query::Value { left, right })
            | Ok(Query::Winner { left, right })
            | Ok(Query::Move { left, right }) => {
                assert!(
                    left <= right && right < boards,
                    "{left}..={right} of {boards}"
                );
            }
            Ok(Query::Set { index, board }) => {
                assert!(index < boards, "set {index} of {boards}");
                assert!(board.rows() * board.cols() <= 64 && board.rows() >= 1);
            }
            Err(err) => {
                check_error(script, &err);
                assert!(reader.next().is_none(), "the reader goes on after an error");
                break;
            }
        }
    }
});
