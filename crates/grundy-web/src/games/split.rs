//! The splitting game over HTTP.
//!
//! A request gives the grid as rows of `0`/`1` (`1` or `x` a candidate, `0`
//! or `.` a plain cell; at most [`MAX_WEB_SIDE`] on a side) and the moves
//! played so far as 0-based `[row, col]` cells, replayed and checked:
//! `{"grid": ["0110", "1001"], "moves": [[0, 1]]}`. `analyze` answers the
//! JSON of `grundy split --json` for the position reached (`rows`, `cols`,
//! `grundy`, `winner`, `winning_moves`), the rectangles still in play
//! with their values (`rects`), why each winning move wins (`explanations`:
//! the parts it leaves with their values, and the XOR of the `others`), and the value every legal move leaves (`moves`,
//! `moves_total`, `moves_complete`). `play` answers the engine's move, the
//! rectangles it leaves where it was played (`parts`) and the rectangles in
//! play after it.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use grundy::split::{choose_move, Cell, Grid, Position, SplitReason, SplitSolver};
use grundy::Budget;
use grundy_report::split::{
    winning_line, Analysis, CellReport, EngineMoveReport, RectReport, Report, MAX_EXPLAINED,
};
use grundy_report::MoveValues;
use serde::{Deserialize, Serialize};

use super::{
    answer, at_row, job, pair_entry, parse_json, quoted, Answer, BudgetRequest, FromTables, Limits,
    WebGame,
};
use crate::ApiError;
use grundy_report::parse::split::parse_matrix_rows;
use grundy_report::words;

/// The longest side of a grid sent to the server.
pub const MAX_WEB_SIDE: usize = 64;

/// The splitting game.
pub const GAME: WebGame = WebGame::new(
    "split",
    "Splitting a grid at candidates",
    |endpoint, body, limits| {
        let position = parse_request(body, limits)?;
        Ok(job(endpoint, position, limits, analyze, play))
    },
);

#[derive(Debug, Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a JSON object with \"grid\" (rows) and optional \"moves\""
)]
struct SplitRequest {
    grid: Vec<String>,
    // Read one by one (`pair_entry`), so a bad entry is named as
    // `moves[1]` with what it should be, not in serde's terms.
    #[serde(default, deserialize_with = "super::null_as_empty")]
    moves: Vec<serde_json::Value>,
    #[serde(default)]
    budget: BudgetRequest,
}

/// A validated request: the position reached and the budget.
#[derive(Clone, Debug)]
pub struct SplitPosition {
    /// The position after the moves.
    pub position: Position,
    /// The search limits.
    pub budget: Budget,
    /// The time the request's probe already searched ([`Limits::spent`]).
    pub spent: Duration,
    /// The request's stop flag ([`Limits::stop`]).
    pub stop: Option<Arc<AtomicBool>>,
}

/// Every answer searches the rectangles in play: it needs a search slot.
impl FromTables for SplitPosition {
    fn answered_from_tables(&self) -> bool {
        false
    }
}

/// Parses a grid's rows, with the one parser of the matrix format
/// ([`grundy_report::parse::split::parse_matrix_rows`], also the command
/// line's), then this server's size limit.
///
/// # Errors
///
/// A message naming the 1-based row and column at fault.
pub fn parse_grid(rows: &[String]) -> Result<Grid, String> {
    if rows.len() > MAX_WEB_SIDE {
        return Err(format!(
            "{} rows: this server takes grids of at most {MAX_WEB_SIDE} x {MAX_WEB_SIDE}",
            rows.len()
        ));
    }
    let grid = parse_matrix_rows(rows).map_err(|err| at_row(&err, rows))?;
    if grid.cols() as usize > MAX_WEB_SIDE {
        return Err(format!(
            "rows of {} cells: this server takes grids of at most {MAX_WEB_SIDE} x {MAX_WEB_SIDE}",
            grid.cols()
        ));
    }
    Ok(grid)
}

/// Parses and validates a request body, replaying its moves.
///
/// # Errors
///
/// 400 naming the row, column or move at fault.
pub fn parse_request(body: &[u8], limits: &Limits) -> Result<SplitPosition, ApiError> {
    let request: SplitRequest = parse_json(body)?;
    let grid =
        parse_grid(&request.grid).map_err(|what| ApiError::bad_request(format!("grid: {what}")))?;
    let mut position = Position::new(grid);
    for (index, entry) in request.moves.iter().enumerate() {
        let at = format!("moves[{index}]");
        let [row, col] = pair_entry(
            &at,
            entry,
            ["row", "col"],
            "",
            "rows and columns count from 0",
        )?;
        let (Ok(row), Ok(col)) = (u32::try_from(row), u32::try_from(col)) else {
            let grid = position.grid();
            return Err(ApiError::bad_request(format!(
                "{at} is {}: outside the {} x {} grid",
                quoted(entry),
                grid.rows(),
                grid.cols()
            )));
        };
        let cell = Cell::new(row, col);
        position = position.try_play(cell).map_err(|_| {
            ApiError::bad_request(format!(
                "{at}: {}",
                grundy_report::split::illegal_move(&position, cell)
            ))
        })?;
    }
    Ok(SplitPosition {
        position,
        budget: request.budget.within(limits.budget),
        spent: limits.spent,
        stop: limits.stop.clone(),
    })
}

fn rects(position: &Position) -> Vec<RectReport> {
    position.rects().iter().map(|&r| r.into()).collect()
}

/// A rectangle in play with its value.
#[derive(Serialize)]
struct ValuedRect {
    #[serde(flatten)]
    rect: RectReport,
    grundy: u32,
}

/// Why a winning move wins: the parts it leaves where it is played, with
/// their values, and the XOR of the rectangles it leaves untouched; the
/// XOR of it all is 0.
#[derive(Serialize)]
struct Explanation {
    row: u32,
    col: u32,
    parts: Vec<ValuedRect>,
    others: u32,
}

/// The rectangles of `position` with their values.
fn valued_rects(
    solver: &mut SplitSolver,
    position: &Position,
) -> Result<Vec<ValuedRect>, ApiError> {
    let values = solver.rect_values(position)?;
    Ok(position
        .rects()
        .iter()
        .zip(values)
        .map(|(&rect, value)| ValuedRect {
            rect: rect.into(),
            grundy: value.value(),
        })
        .collect())
}

#[derive(Serialize)]
struct AnalyzeResponse {
    #[serde(flatten)]
    report: Report,
    /// The rectangles in play with their values.
    rects: Vec<ValuedRect>,
    /// The first winning moves (at most [`MAX_EXPLAINED`]), explained.
    explanations: Vec<Explanation>,
    #[serde(flatten)]
    moves: MoveValues<CellReport>,
    /// Why, in Sprague-Grundy terms ([`grundy_report::explain`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    explain: Option<grundy_report::explain::Explanation>,
}

fn analyze(request: &SplitPosition, max_listed_moves: usize) -> Result<Answer, ApiError> {
    // The probe's memo is not kept: what it searched is searched again,
    // within what it left of the budget.
    let mut solver =
        SplitSolver::new().with_budget(super::budget_after(request.budget, request.spent));
    if let Some(stop) = &request.stop {
        solver = solver.with_stop(stop.clone());
    }
    let analysis = Analysis::of(&mut solver, &request.position)
        .map_err(|err| super::whole_budget(err, request.budget))?;
    let before = request.position.rects();
    let mut explanations = Vec::new();
    let winning = analysis.winning_moves();
    // Past the first MAX_EXPLAINED, the report words a winning move as
    // the move alone, as `grundy split` lists it.
    let mut lines = Vec::new();
    for &cell in winning.iter().take(MAX_EXPLAINED) {
        let after = request
            .position
            .try_play(cell)
            .map_err(|err| ApiError::internal(format!("a winning move: {err}")))?;
        let values = solver
            .rect_values(&after)
            .map_err(|err| super::whole_budget(err, request.budget))?;
        let left: Vec<_> = after.rects().iter().copied().zip(values).collect();
        lines.push(winning_line(cell, &left));
        let mut parts = Vec::new();
        let mut others = grundy::Nimber::ZERO;
        for (rect, value) in left {
            if before.contains(&rect) {
                others ^= value;
            } else {
                parts.push(ValuedRect {
                    rect: rect.into(),
                    grundy: value.value(),
                });
            }
        }
        explanations.push(Explanation {
            row: cell.row,
            col: cell.col,
            parts,
            others: others.value(),
        });
    }
    let explain = grundy_report::explain::split(&mut solver, &request.position, &analysis).ok();
    answer(
        &AnalyzeResponse {
            report: analysis.report(&request.position, &lines),
            rects: valued_rects(&mut solver, &request.position)?,
            explanations,
            moves: analysis.move_values(max_listed_moves),
            explain,
        },
        false,
    )
}

#[derive(Serialize)]
struct PlayResponse {
    /// The engine's move, or `null` when it has none (it has lost).
    #[serde(rename = "move")]
    mv: Option<CellReport>,
    /// The move in words, as `grundy split --move` says it (the value it
    /// leaves is `grundy`); `null` without a move.
    text: Option<String>,
    /// The rectangles the move leaves where it was played (empty ones and
    /// ones without a candidate left out).
    parts: Vec<RectReport>,
    /// The rectangles in play after the move.
    rects: Vec<RectReport>,
    /// The value after the move, when known (`null` when the budget ran
    /// out before the values).
    grundy: Option<u32>,
    /// True when the move is proven to leave value 0: the engine wins with
    /// best play.
    engine_wins: bool,
    /// True when the move is proven best (it wins, or every move loses).
    proven: bool,
    /// `"winning"`, `"losing"`, `"unproven"` or `"none"`, as `grundy split
    /// --move` says.
    kind: &'static str,
    /// Why, in the words of `grundy split --move`.
    reason: String,
}

/// The memory a fallback engine move may use for its dense tables: the
/// solver's default limit on a table (2^28 entries of two bytes).
const ENGINE_MEMORY: u64 = 2 * grundy::split::DEFAULT_DENSE_LIMIT;

fn play(request: &SplitPosition) -> Result<Answer, ApiError> {
    // The engine's move as `grundy split --move` chooses and words it:
    // the cheap proofs first (no candidate left, pairs), then the values.
    let memory = request
        .budget
        .max_memory
        .map_or(ENGINE_MEMORY, |limit| limit.min(ENGINE_MEMORY));
    let choice = choose_move(
        &request.position,
        super::budget_after(request.budget, request.spent),
        memory,
    )
    .map(|mut choice| {
        if let SplitReason::Unproven { stopped } = &mut choice.reason {
            *stopped = stopped
                .take()
                .map(|err| super::whole_budget(err, request.budget));
        }
        choice
    });
    let Some(choice) = choice else {
        return answer(
            &PlayResponse {
                mv: None,
                text: None,
                parts: Vec::new(),
                rects: rects(&request.position),
                // No candidate: the position's value is 0.
                grundy: Some(0),
                engine_wins: false,
                proven: true,
                kind: "none",
                reason: words::NO_MOVES.to_owned(),
            },
            false,
        );
    };
    let report = EngineMoveReport::new(&choice);
    let stopped = !report.proven;
    let after = request
        .position
        .try_play(choice.cell)
        .map_err(|err| ApiError::internal(format!("the engine's own move: {err}")))?;
    let parts = after
        .rects()
        .iter()
        .filter(|r| !request.position.rects().contains(r))
        .map(|&r| r.into())
        .collect();
    answer(
        &PlayResponse {
            mv: Some(choice.cell.into()),
            text: Some(report.text),
            parts,
            rects: rects(&after),
            grundy: report.grundy,
            engine_wins: choice.wins(),
            proven: report.proven,
            kind: report.kind,
            reason: report.reason,
        },
        stopped,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn limits() -> Limits {
        super::super::test_limits(100_000)
    }

    #[test]
    fn rejects_bad_requests_with_messages() {
        let cases: &[(&[u8], &str)] = &[
            (b"", "invalid request"),
            (br#"{"grid": []}"#, "empty input"),
            (
                br#"{"grid": ["01", "0y"]}"#,
                "grid: row 2, column 2: unexpected 'y'",
            ),
            (
                br#"{"grid": ["01", "011"]}"#,
                "grid: row 2, column 3: ragged row: 3 cells, but the first row has 2",
            ),
            (br#"{"grid": [""]}"#, "row 1, column 1: empty row"),
            // An illegal move in the command line's words, its entry
            // named as JSON names it.
            (
                br#"{"grid": ["11"], "moves": [[0, 0], [0, 1]]}"#,
                "moves[1]: split at (1,2) is illegal: no longer in play: an earlier move deleted its row or column",
            ),
            (
                br#"{"grid": ["10"], "moves": [[5, 5]]}"#,
                "moves[0]: split at (6,6) is illegal: it lies outside the 1 x 2 grid",
            ),
            (
                br#"{"grid": ["10"], "moves": [[0, 1]]}"#,
                "moves[0]: split at (1,2) is illegal: cell (1,2) is 0, not a candidate",
            ),
            (
                br#"{"grid": ["10"], "moves": [[0, -1]]}"#,
                "moves[0] is [0, -1]: negative col -1: rows and columns count from 0",
            ),
            (
                br#"{"grid": ["10"], "moves": [[0, 0], [0]]}"#,
                "moves[1] is [0]: expected [row, col], two whole numbers: rows and columns count from 0",
            ),
            (
                br#"{"grid": ["10"], "moves": [[5000000000, 0]]}"#,
                "moves[0] is [5000000000, 0]: outside the 1 x 2 grid",
            ),
            (br#"{"grid": ["1"], "extra": 1}"#, "unknown field"),
        ];
        for (body, what) in cases {
            let err = parse_request(body, &limits()).unwrap_err();
            super::super::assert_bad_request(&err, what);
        }
        let tall = vec!["0".to_owned(); MAX_WEB_SIDE + 1];
        assert!(parse_grid(&tall).unwrap_err().contains("at most 64"));
        assert!(parse_grid(&["0".repeat(MAX_WEB_SIDE + 1)])
            .unwrap_err()
            .contains("rows of 65 cells"));
    }

    fn row_text() -> impl Strategy<Value = String> {
        proptest::collection::vec(prop_oneof![Just('0'), Just('1'), any::<char>()], 0..7)
            .prop_map(|chars| chars.into_iter().collect())
    }

    proptest! {
        /// Any bytes: an error or a valid position, never a panic.
        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let _ = parse_request(&bytes, &limits());
        }

        /// Arbitrary rows and moves: a 400, or a position reached by legal
        /// moves whose analysis and play answer without panicking.
        #[test]
        fn arbitrary_grids_and_moves(
            rows in proptest::collection::vec(row_text(), 0..6),
            moves in proptest::collection::vec([0u32..7, 0u32..7], 0..3),
        ) {
            let body = serde_json::json!({ "grid": rows, "moves": moves }).to_string();
            match parse_request(body.as_bytes(), &limits()) {
                Ok(position) => {
                    prop_assert_eq!(position.position.grid().rows() as usize, rows.len());
                    prop_assert!(analyze(&position, 100).is_ok());
                    prop_assert!(play(&position).is_ok());
                }
                Err(err) => prop_assert_eq!(err.status, axum::http::StatusCode::BAD_REQUEST),
            }
        }
    }
}
