//! Rectangle clearing over HTTP.
//!
//! A request names one board (`"board": ["0110", "0000"]`) or a sum
//! (`"boards": [["0110"], ["11", "11"]]`): rows of `0`/`1` (also `.`/`#`,
//! spaces ignored), all rows of a board the same length, 1 to 64 cells per
//! board. `analyze` answers the JSON of `grundy clear --json` plus the total
//! value reached by every legal move (`moves`, `moves_total`,
//! `moves_complete`); `play` answers the engine's move
//! ([`grundy_report::clear::engine_move`]) and the boards after it.

use grundy::clear::Board;
use grundy::{Budget, Nimber};
use grundy_report::clear::{engine_move, move_values, Analysis, MoveReport, Report};
use grundy_report::parse::clear::parse_board_rows;
use grundy_report::words;
use grundy_report::MoveValues;
use serde::{Deserialize, Serialize};

use super::{
    at_row, job, known_without_search, parse_json, to_json, BudgetRequest, FromTables, Limits,
    WebGame,
};
use crate::ApiError;

/// Rectangle clearing.
pub const GAME: WebGame = WebGame::new("clear", "Rectangle clearing", |endpoint, body, limits| {
    let position = parse_request(body, limits)?;
    Ok(job(endpoint, position, limits, analyze, play))
});

/// The body of a request, as sent.
#[derive(Debug, Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a JSON object with \"board\" (rows) or \"boards\" (a list of boards)"
)]
struct ClearRequest {
    board: Option<Vec<String>>,
    boards: Option<Vec<Vec<String>>>,
    #[serde(default)]
    budget: BudgetRequest,
}

/// A validated request: the boards of the sum and the budget to search with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClearPosition {
    /// The boards, at least one.
    pub boards: Vec<Board>,
    /// The search limits.
    pub budget: Budget,
}

/// Answered from tables when every component of every board has a known
/// value (the 4 x 4, 4 x 5 and 2 x 8 tables, a straight line, a shape
/// database): then so do all their options, whose components are smaller
/// shapes of the same box.
impl FromTables for ClearPosition {
    fn answered_from_tables(&self) -> bool {
        known_without_search(&crate::clear_rules(), &self.boards)
    }
}

/// Parses and validates a request body.
///
/// # Errors
///
/// 400 with a message naming the board and row at fault.
pub fn parse_request(body: &[u8], limits: &Limits) -> Result<ClearPosition, ApiError> {
    let request: ClearRequest = parse_json(body)?;
    let rows_of_boards = match (request.board, request.boards) {
        (Some(board), None) => vec![board],
        (None, Some(boards)) => boards,
        _ => {
            return Err(ApiError::bad_request(
                "give exactly one of \"board\" (rows) and \"boards\" (a list of boards)",
            ))
        }
    };
    if rows_of_boards.is_empty() {
        return Err(ApiError::bad_request(
            "\"boards\" is empty: give at least one board",
        ));
    }
    if rows_of_boards.len() > limits.max_boards {
        return Err(ApiError::bad_request(format!(
            "{} boards: this server takes sums of at most {}",
            rows_of_boards.len(),
            limits.max_boards
        )));
    }
    let boards = rows_of_boards
        .iter()
        .enumerate()
        .map(|(index, rows)| {
            parse_board(rows)
                .map_err(|what| ApiError::bad_request(format!("board {}: {what}", index + 1)))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(ClearPosition {
        boards,
        budget: request.budget.within(limits.budget),
    })
}

/// Parses one board from its rows, with the one parser of the board format
/// ([`grundy_report::parse::clear::parse_board_rows`], also the command
/// line's).
///
/// # Errors
///
/// A message naming the 1-based row and column at fault.
pub fn parse_board(rows: &[String]) -> Result<Board, String> {
    parse_board_rows(rows).map_err(|err| at_row(&err))
}

/// A board's rows as strings of `0` and `1`.
#[must_use]
pub fn board_rows(board: &Board) -> Vec<String> {
    (0..board.rows())
        .map(|r| {
            (0..board.cols())
                .map(|c| if board.get(r, c) { '1' } else { '0' })
                .collect()
        })
        .collect()
}

#[derive(Serialize)]
struct AnalyzeResponse {
    #[serde(flatten)]
    report: Report,
    #[serde(flatten)]
    moves: MoveValues<MoveReport>,
}

fn analyze(position: &ClearPosition, max_listed_moves: usize) -> Result<String, ApiError> {
    let mut solver = crate::clear_rules()
        .into_solver()
        .with_budget(position.budget);
    let analysis = Analysis::of(&mut solver, &position.boards)?;
    let moves = move_values(&mut solver, &position.boards, max_listed_moves)?;
    to_json(&AnalyzeResponse {
        report: analysis.report(&position.boards),
        moves,
    })
}

#[derive(Serialize)]
struct PlayResponse {
    /// The engine's move, or `null` when it has none (it has lost).
    #[serde(rename = "move")]
    mv: Option<MoveReport>,
    /// The move in words, as the command line says it.
    #[serde(skip_serializing_if = "Option::is_none")]
    text: Option<String>,
    /// The boards after the move.
    boards: Vec<Vec<String>>,
    /// The total value after the move.
    grundy: u32,
    /// True when the move leaves value 0: the engine wins with best play.
    engine_wins: bool,
}

fn play(position: &ClearPosition) -> Result<String, ApiError> {
    let mut solver = crate::clear_rules()
        .into_solver()
        .with_budget(position.budget);
    let mut boards = position.boards.clone();
    let chosen = engine_move(&mut solver, &boards)?;
    let several = boards.len() > 1;
    let (mv, text, grundy) = match chosen {
        Some(chosen) => {
            boards[chosen.board] = chosen.after;
            let phrase = words::clear_move(several.then_some(chosen.board), chosen.rect);
            (
                Some(MoveReport::new(chosen.board, chosen.rect)),
                Some(words::leaving(&phrase, chosen.total_after.value())),
                chosen.total_after,
            )
        }
        None => (None, None, Nimber::ZERO),
    };
    to_json(&PlayResponse {
        mv,
        text,
        boards: boards.iter().map(board_rows).collect(),
        grundy: grundy.value(),
        engine_wins: mv.is_some() && grundy.is_zero(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use grundy::clear::MAX_CELLS;
    use proptest::prelude::*;

    fn limits() -> Limits {
        Limits {
            budget: Budget::positions(1000),
            max_listed_moves: 100,
            max_boards: 4,
        }
    }

    #[test]
    fn reads_one_board_or_several() {
        let one =
            parse_request(br#"{"board": ["0110", "0000", "0000", "0001"]}"#, &limits()).unwrap();
        assert_eq!(
            one.boards,
            vec![grundy::board!["0110", "0000", "0000", "0001"]]
        );
        let two = parse_request(
            br##"{"boards": [["1 1", "#."], ["1"]], "budget": {"max_positions": 5}}"##,
            &limits(),
        )
        .unwrap();
        assert_eq!(
            two.boards,
            vec![grundy::board!["11", "10"], grundy::board!["1"]]
        );
        assert_eq!(two.budget.max_positions, Some(5));
    }

    #[test]
    fn rejects_bad_requests_with_messages() {
        let cases: &[(&[u8], &str)] = &[
            (b"", "invalid request"),
            (b"[]", "invalid request"),
            // Plain words, not serde's "expected struct ClearRequest with
            // 3 elements" (and an array is never read as the fields).
            (br#"[["1"], null, {}]"#, "the body must be a JSON object"),
            (br#"  "board""#, "the body must be a JSON object"),
            (br#"{"board": ["01"], "boards": [["1"]]}"#, "exactly one"),
            (br#"{}"#, "exactly one"),
            (br#"{"boards": []}"#, "empty"),
            (
                br#"{"boards": [["1"],["1"],["1"],["1"],["1"]]}"#,
                "at most 4",
            ),
            (
                br#"{"board": ["01", "0x"]}"#,
                "board 1: row 2, column 2: unexpected 'x'",
            ),
            (
                br#"{"board": ["01", "011"]}"#,
                "board 1: row 2, column 1: ragged row: 3 cells, but the first row has 2",
            ),
            (br#"{"board": []}"#, "empty input"),
            (br#"{"board": ["", "1"]}"#, "row 1, column 1: empty row"),
            (br#"{"board": ["1"], "extra": 1}"#, "unknown field"),
        ];
        for (body, what) in cases {
            let err = parse_request(body, &limits()).unwrap_err();
            assert_eq!(err.status, axum::http::StatusCode::BAD_REQUEST);
            assert!(
                err.message.contains(what),
                "{what:?} not in {:?}",
                err.message
            );
            assert!(
                !err.message.contains("ClearRequest"),
                "a Rust type name in {:?}",
                err.message
            );
        }
        let nine_rows = vec!["00000000".to_owned(); 9];
        assert!(parse_board(&nine_rows)
            .unwrap_err()
            .contains("at most 64 cells"));
        assert!(parse_board(&["0".repeat(65)])
            .unwrap_err()
            .contains("at most 64 cells"));
        assert_eq!(parse_board(&["1".repeat(64)]).unwrap().cols(), 64);
    }

    #[test]
    fn a_request_cannot_raise_the_budget() {
        let position = parse_request(
            br#"{"board": ["1"], "budget": {"max_positions": 999999, "max_time_ms": 5}}"#,
            &limits(),
        )
        .unwrap();
        assert_eq!(position.budget.max_positions, Some(1000));
        assert_eq!(
            position.budget.max_time,
            Some(std::time::Duration::from_millis(5))
        );
    }

    fn row_text() -> impl Strategy<Value = String> {
        proptest::collection::vec(
            prop_oneof![Just('0'), Just('1'), Just(' '), Just('#'), any::<char>()],
            0..12,
        )
        .prop_map(|chars| chars.into_iter().collect())
    }

    proptest! {
        /// Any bytes: an error or a valid position, never a panic.
        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let _ = parse_request(&bytes, &limits());
        }

        /// Well-formed JSON with arbitrary rows: errors are 400s, and what
        /// is accepted holds boards of at most 64 cells matching the rows.
        #[test]
        fn arbitrary_rows_are_validated(boards in proptest::collection::vec(proptest::collection::vec(row_text(), 0..10), 0..6)) {
            let body = serde_json::json!({ "boards": boards }).to_string();
            match parse_request(body.as_bytes(), &limits()) {
                Ok(position) => {
                    prop_assert_eq!(position.boards.len(), boards.len());
                    for (board, rows) in position.boards.iter().zip(&boards) {
                        prop_assert!(board.rows() * board.cols() <= MAX_CELLS);
                        prop_assert_eq!(board.rows(), rows.len());
                        for (r, row) in rows.iter().enumerate() {
                            let cells: Vec<bool> = row.chars().filter(|&c| c != ' ' && c != '\t').map(|c| c == '1' || c == '#').collect();
                            prop_assert_eq!(cells.len(), board.cols());
                            for (c, &one) in cells.iter().enumerate() {
                                prop_assert_eq!(board.get(r, c), one);
                            }
                        }
                    }
                }
                Err(err) => prop_assert_eq!(err.status, axum::http::StatusCode::BAD_REQUEST),
            }
        }

        /// Printing a board's rows and parsing them gives it back.
        #[test]
        fn rows_round_trip(rows in 1usize..=8, cols in 1usize..=8, cells in any::<u64>()) {
            let board = Board::new(rows, cols, cells & grundy::clear::Bitboard::below((rows * cols) as u32).0).unwrap();
            prop_assert_eq!(parse_board(&board_rows(&board)).unwrap(), board);
        }
    }
}
