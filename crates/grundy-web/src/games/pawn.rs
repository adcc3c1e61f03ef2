//! The pawn game over HTTP.
//!
//! A request gives the impassable cells and the pawns as `[x, y]` pairs,
//! coordinates as in `grundy pawn` (`x` the column, `y` the row, both from
//! 0 up to 10^9; a pawn moves left (x decreases) or down (y decreases)):
//! `{"blocked": [[1, 0]], "pawns": [[3, 2], [0, 4]]}`. Several pawns are a
//! sum. `analyze` answers the JSON of `grundy pawn --json` plus, when the
//! values come from a table (every pawn below 4096 on both axes), the total value
//! reached by every legal move (`moves`, `moves_total`, `moves_complete`),
//! and with `"region": [w, h]` (at most 64 x 64) the losing cells of that
//! region (`losing`, for the page's hints). `play` answers the engine's move
//! ([`grundy_report::pawn::engine_move`]) and the pawns after it.
//!
//! The value table covering the pawns costs one position per cell: a region
//! of more cells than the budget's `max_positions` is never built. A single
//! pawn then gets its outcome and its moves to losing cells, which need no
//! value; a sum gets a 422 from `analyze`, and from `play` the engine's
//! unproven guess (marked stopped, so the server tries it again under the
//! request's whole budget).

use grundy::pawn::{Blocked, Cell, CellKind, Outcomes, PawnError, MAX_COORD, MAX_REGION_SIDE};
use grundy::Budget;
use grundy_report::pawn::{
    by_pairs, engine_move, engine_report_of, guess_report, move_values, won_by_pairs_report,
    Analysis, AnalysisError, Dropped, MoveReport, Paired, Report,
};
use grundy_report::MoveValues;
use serde::{Deserialize, Serialize};

use super::{
    answer, job, pair_entry, parse_json, quoted, Answer, BudgetRequest, FromTables, Limits, WebGame,
};
use crate::ApiError;

/// The largest side of the region whose losing cells `analyze` lists.
pub const MAX_HINT_SIDE: u32 = 64;

/// The pawn game.
pub const GAME: WebGame = WebGame::new(
    "pawn",
    "Pawn on a grid with impassable cells",
    |endpoint, body, limits| {
        let position = parse_request(body, limits)?;
        Ok(job(endpoint, position, limits, analyze, play))
    },
);

#[derive(Debug, Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a JSON object with \"pawns\" ([x, y] pairs) and optional \"blocked\""
)]
struct PawnRequest {
    // Entries are read one by one (`pair_entry`), so a bad one is named
    // as `blocked[1]` with what it should be, not in serde's terms.
    #[serde(default, deserialize_with = "super::null_as_empty")]
    blocked: Vec<serde_json::Value>,
    pawns: Vec<serde_json::Value>,
    region: Option<serde_json::Value>,
    #[serde(default)]
    budget: BudgetRequest,
}

/// A validated request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PawnPosition {
    /// The impassable cells.
    pub blocked: Blocked,
    /// The pawns, at least one, none on an impassable cell.
    pub pawns: Vec<Cell>,
    /// The region whose losing cells to list, if asked.
    pub region: Option<(u32, u32)>,
    /// The search limits.
    pub budget: Budget,
}

/// Every answer builds the outcome and value tables of the position's walls:
/// work that needs a search slot.
impl FromTables for PawnPosition {
    fn answered_from_tables(&self) -> bool {
        false
    }
}

/// Parses and validates a request body.
///
/// # Errors
///
/// 400 with a message naming the entry at fault.
pub fn parse_request(body: &[u8], limits: &Limits) -> Result<PawnPosition, ApiError> {
    let request: PawnRequest = parse_json(body)?;
    if request.pawns.is_empty() {
        return Err(ApiError::bad_request(
            "\"pawns\" is empty: give at least one pawn as [x, y]",
        ));
    }
    if request.pawns.len() > limits.max_boards {
        return Err(ApiError::bad_request(format!(
            "{} pawns: this server takes sums of at most {}",
            request.pawns.len(),
            limits.max_boards
        )));
    }
    // What a coordinate may be, as the command line says it.
    let coordinates = format!("coordinates are 0 to {MAX_COORD}");
    let cell = |list: &str, index: usize, entry: &serde_json::Value| {
        let at = format!("{list}[{index}]");
        let [x, y] = pair_entry(&at, entry, ["x", "y"], " coordinate", &coordinates)?;
        // The command line's words for a coordinate past the bound, with
        // its axis.
        for (name, value) in [("x", x), ("y", y)] {
            if value > u64::from(MAX_COORD) {
                return Err(ApiError::bad_request(format!(
                    "{at} is {}: {name} coordinate {value} is out of range 0 to {MAX_COORD}",
                    quoted(entry)
                )));
            }
        }
        Cell::new(x, y).map_err(|err| ApiError::bad_request(format!("{at}: {err}")))
    };
    let blocked_cells = request
        .blocked
        .iter()
        .enumerate()
        .map(|(i, entry)| cell("blocked", i, entry))
        .collect::<Result<Vec<_>, _>>()?;
    let blocked = Blocked::new(&blocked_cells).map_err(|err| match err {
        PawnError::DuplicateBlocked { first, second, .. } => ApiError::bad_request(format!(
            "blocked[{second}] is {}, as blocked[{first}] is: each impassable cell is listed once",
            quoted(&request.blocked[second])
        )),
        other => ApiError::bad_request(format!("blocked: {other}")),
    })?;
    let pawns = request
        .pawns
        .iter()
        .enumerate()
        .map(|(i, entry)| cell("pawns", i, entry))
        .collect::<Result<Vec<_>, _>>()?;
    if let Some((index, pawn)) = pawns
        .iter()
        .enumerate()
        .find(|(_, p)| blocked.contains(**p))
    {
        let wall = blocked_cells.iter().position(|c| c == pawn).unwrap_or(0);
        return Err(ApiError::bad_request(format!(
            "pawns[{index}] is {}, an impassable cell (blocked[{wall}]): a pawn stands on an open one",
            quoted(&request.pawns[index])
        )));
    }
    let sides = format!("sides are 1 to {MAX_HINT_SIDE}");
    let region = match &request.region {
        None => None,
        Some(entry) => match pair_entry("region", entry, ["width", "height"], "", &sides)? {
            [w, h]
                if (1..=MAX_HINT_SIDE.into()).contains(&w)
                    && (1..=MAX_HINT_SIDE.into()).contains(&h) =>
            {
                // Both at most MAX_HINT_SIDE: they fit.
                Some((w as u32, h as u32))
            }
            [w, h] => {
                return Err(ApiError::bad_request(format!(
                    "region is {}: {w} x {h}, but {sides}",
                    quoted(entry)
                )))
            }
        },
    };
    Ok(PawnPosition {
        blocked,
        pawns,
        region,
        budget: request.budget.within(limits.budget),
    })
}

/// A sum of pawns whose values are out of reach here: why (the error
/// `analyze` answers), and whether a larger budget reaches them.
struct OutOfReach {
    error: ApiError,
    budget: bool,
}

/// What the analysis of a position settles: the analysis, or a sum won
/// but out of reach but for the pawns left when those sharing a cell cancel
/// in pairs ([`Paired::Won`]: the engine's move is proven, the analysis
/// is not whole), or out of reach.
enum Settled {
    Analysis(Analysis),
    WonByPairs {
        left: Vec<usize>,
        analysis: Analysis,
        dropped: Dropped,
    },
    OutOfReach(OutOfReach),
}

/// Runs the analysis ([`analysis_within`]); a sum out of reach is settled
/// still when the pawns sharing a cell cancel in pairs and the others are
/// in reach ([`by_pairs`]).
fn analysis_of(position: &PawnPosition, outcomes: &Outcomes) -> Result<Settled, ApiError> {
    let out = match analysis_within(position, &position.pawns, outcomes)? {
        Ok(analysis) => return Ok(Settled::Analysis(analysis)),
        Err(out) => out,
    };
    let paired = by_pairs(outcomes, &position.pawns, |left| {
        analysis_within(position, left, outcomes).ok()?.ok()
    });
    Ok(match paired {
        Some(Paired::Lost(analysis)) => Settled::Analysis(analysis),
        Some(Paired::Won {
            left,
            analysis,
            dropped,
        }) => Settled::WonByPairs {
            left,
            analysis,
            dropped,
        },
        None => Settled::OutOfReach(out),
    })
}

/// The analysis of `pawns` on `position`'s grid, with a value table no
/// larger than the budget: the table covers the pawns inside its region
/// (with pawns past it too, when those have open quadrants and so values
/// without a table). A single pawn needs no value: past the budget it gets
/// its outcome and its moves to losing cells, as a pawn past the region
/// does.
fn analysis_within(
    position: &PawnPosition,
    pawns: &[Cell],
    outcomes: &Outcomes,
) -> Result<Result<Analysis, OutOfReach>, ApiError> {
    let bad = |err: &dyn std::fmt::Display| ApiError::bad_request(err.to_string());
    let inside: Vec<_> = pawns
        .iter()
        .filter(|p| p.x() < MAX_REGION_SIDE && p.y() < MAX_REGION_SIDE)
        .collect();
    if !inside.is_empty() {
        let width = inside.iter().map(|p| u64::from(p.x()) + 1).max();
        let height = inside.iter().map(|p| u64::from(p.y()) + 1).max();
        let cells = width.unwrap_or(1) * height.unwrap_or(1);
        if let Some(max) = position.budget.max_positions.filter(|&max| cells > max) {
            // Pawns on open quadrants need no table: x xor y each.
            if let Some(analysis) = Analysis::on_open_quadrants(&position.blocked, outcomes, pawns)
            {
                return Ok(Ok(analysis));
            }
            if let [pawn] = pawns[..] {
                return Ok(Ok(
                    Analysis::outcome_only(outcomes, pawn).map_err(|e| bad(&e))?
                ));
            }
            return Ok(Err(OutOfReach {
                error: ApiError::new(
                    axum::http::StatusCode::UNPROCESSABLE_ENTITY,
                    format!(
                        "position too large for this server: the values of the {cells} cells \
                         below the pawns exceed the budget of {}",
                        grundy_report::words::count(max, "position")
                    ),
                ),
                budget: true,
            }));
        }
    }
    // Not `Analysis::of`: `analysis_of` pairs the pawns of a sum out of reach.
    match Analysis::of_all(&position.blocked, outcomes, pawns) {
        Ok(analysis) => Ok(Ok(analysis)),
        Err(err @ AnalysisError::SumBeyondRegion { .. }) => Ok(Err(OutOfReach {
            error: bad(&err),
            budget: false,
        })),
        Err(err) => Err(bad(&err)),
    }
}

#[derive(Serialize)]
struct AnalyzeResponse {
    #[serde(flatten)]
    report: Report,
    #[serde(flatten)]
    moves: Option<MoveValues<MoveReport>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    losing: Option<Vec<[u32; 2]>>,
    /// Why, in Sprague-Grundy terms ([`grundy_report::explain`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    explain: Option<grundy_report::explain::Explanation>,
}

fn analyze(position: &PawnPosition, max_listed_moves: usize) -> Result<Answer, ApiError> {
    let outcomes = Outcomes::new(&position.blocked);
    let analysis = match analysis_of(position, &outcomes)? {
        Settled::Analysis(analysis) => analysis,
        // Won, with the winning moves of the pawns left, and of the dropped
        // ones where their table fits the budget; the others' moves are
        // not examined (`winning_moves_complete` false).
        Settled::WonByPairs {
            left,
            analysis,
            dropped,
        } => {
            let mut whole = Paired::Won {
                left,
                analysis,
                dropped,
            }
            .whole(&outcomes, &position.pawns);
            whole
                .examine_in_region(
                    &position.blocked,
                    &position.pawns,
                    position.budget.max_positions,
                )
                .map_err(|err| ApiError::bad_request(err.to_string()))?;
            whole
        }
        Settled::OutOfReach(out) => return Err(out.error),
    };
    let moves = move_values(&analysis, &position.pawns, max_listed_moves)
        .map_err(|err| ApiError::bad_request(err.to_string()))?;
    let losing = position.region.map(|(width, height)| {
        let mut cells = Vec::new();
        for y in 0..height {
            for x in 0..width {
                let here = Cell::new(u64::from(x), u64::from(y)).expect("below 64");
                if outcomes.classify(here) == CellKind::Losing {
                    cells.push([x, y]);
                }
            }
        }
        cells
    });
    let explain = grundy_report::explain::pawn(&analysis, &position.pawns, &position.blocked).ok();
    answer(
        &AnalyzeResponse {
            report: analysis.report(&position.pawns, None),
            moves,
            losing,
            explain,
        },
        table_past_budget(position),
    )
}

/// Whether the value table of the pawns inside the region of values would
/// pass the budget: the answer then lacks values that a larger budget
/// would give (a single pawn's value, a dropped pawn's moves), so under the
/// small lane's probe it is not final (see [`Answer::stopped`]).
fn table_past_budget(position: &PawnPosition) -> bool {
    let inside = position
        .pawns
        .iter()
        .filter(|p| p.x() < MAX_REGION_SIDE && p.y() < MAX_REGION_SIDE);
    let width = inside.clone().map(|p| u64::from(p.x()) + 1).max();
    let height = inside.map(|p| u64::from(p.y()) + 1).max();
    let cells = width.unwrap_or(0) * height.unwrap_or(0);
    position.budget.max_positions.is_some_and(|max| cells > max)
}

#[derive(Serialize)]
struct PlayResponse {
    /// The engine's move, or `null` when no pawn can move (it has lost).
    #[serde(rename = "move")]
    mv: Option<MoveReport>,
    /// The move in words, as `grundy pawn --move` says it (the total it
    /// leaves is `grundy`); `null` without a move.
    text: Option<String>,
    /// The pawns after the move.
    pawns: Vec<[u32; 2]>,
    /// The total value after the move, when values are computed (`null`
    /// when not).
    grundy: Option<u32>,
    /// True when the engine wins with best play.
    engine_wins: bool,
    /// True when the move is proven best (it wins, or every move loses):
    /// always, as outcomes and values here are exact.
    proven: bool,
    /// `"winning"`, `"losing"` or `"none"`, as `grundy pawn --move` says.
    kind: &'static str,
    /// Why, in the words of `grundy pawn --move`.
    reason: String,
}

fn play(position: &PawnPosition) -> Result<Answer, ApiError> {
    let outcomes = Outcomes::new(&position.blocked);
    let analysis = match analysis_of(position, &outcomes)? {
        Settled::Analysis(analysis) => analysis,
        Settled::WonByPairs {
            left,
            analysis,
            dropped,
        } => {
            let report = won_by_pairs_report(&outcomes, &position.pawns, &left, &analysis, dropped)
                .map_err(|err| ApiError::bad_request(err.to_string()))?
                .ok_or_else(|| ApiError::internal("a won sum has a move"))?;
            // Proven winning, so the total it leaves is 0.
            return reported_play(position, report, Some(0), true, false);
        }
        Settled::OutOfReach(out) => return guessed_play(position, &outcomes, &out),
    };
    let chosen = engine_move(&analysis, &outcomes, &position.pawns)
        .map_err(|err| ApiError::bad_request(err.to_string()))?;
    let report = engine_report_of(&analysis, &outcomes, &position.pawns)
        .map_err(|err| ApiError::bad_request(err.to_string()))?;
    let mut pawns: Vec<[u32; 2]> = position.pawns.iter().map(|p| [p.x(), p.y()]).collect();
    let grundy = match (chosen, &report) {
        (Some((mv, _)), Some(report)) => {
            pawns[mv.pawn] = [mv.x, mv.y];
            report.grundy
        }
        _ => analysis.total.map(|v| v.value()),
    };
    answer(
        &PlayResponse {
            mv: chosen.map(|(mv, _)| mv),
            text: report.as_ref().map(|r| r.text.clone()),
            pawns,
            grundy,
            engine_wins: chosen.is_some() && analysis.first_wins,
            proven: true,
            kind: report.as_ref().map_or("none", |r| r.kind),
            reason: report.map_or_else(|| grundy_report::words::NO_MOVES.to_owned(), |r| r.reason),
        },
        false,
    )
}

/// The answer of `play` for the engine's move `report`, leaving the total
/// `grundy` (when known): a proven win (`proven_win`, on a sum won by
/// pairs) or a guess; `stopped` as [`answer`] takes it.
fn reported_play(
    position: &PawnPosition,
    report: grundy_report::pawn::EngineMoveReport,
    grundy: Option<u32>,
    proven_win: bool,
    stopped: bool,
) -> Result<Answer, ApiError> {
    let mut pawns: Vec<[u32; 2]> = position.pawns.iter().map(|p| [p.x(), p.y()]).collect();
    pawns[report.mv.pawn] = [report.mv.x, report.mv.y];
    answer(
        &PlayResponse {
            mv: Some(report.mv),
            text: Some(report.text),
            pawns,
            grundy,
            engine_wins: proven_win,
            proven: proven_win,
            kind: report.kind,
            reason: report.reason,
        },
        stopped,
    )
}

/// The engine's guess on a sum whose values are out of reach
/// ([`guess_report`]), marked stopped when a larger budget may value it.
fn guessed_play(
    position: &PawnPosition,
    outcomes: &Outcomes,
    out: &OutOfReach,
) -> Result<Answer, ApiError> {
    let reason = format!(
        "unproven: {}; best guess: a pawn that wins alone moved to a losing cell",
        out.error.message
    );
    let report = guess_report(outcomes, &position.pawns, reason)
        .map_err(|err| ApiError::bad_request(err.to_string()))?;
    let Some(report) = report else {
        return answer(
            &PlayResponse {
                mv: None,
                text: None,
                pawns: position.pawns.iter().map(|p| [p.x(), p.y()]).collect(),
                grundy: None,
                engine_wins: false,
                proven: true,
                kind: "none",
                reason: grundy_report::words::NO_MOVES.to_owned(),
            },
            false,
        );
    };
    reported_play(position, report, None, false, out.budget)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn limits() -> Limits {
        super::super::test_limits(10_000)
    }

    #[test]
    fn reads_pawns_and_walls() {
        let p = parse_request(
            br#"{"blocked": [[1, 0], [2, 2]], "pawns": [[3, 0], [0, 1000000000]], "region": [8, 8]}"#,
            &limits(),
        )
        .unwrap();
        assert_eq!(p.blocked.len(), 2);
        assert_eq!(p.pawns[1].y(), 1_000_000_000);
        assert_eq!(p.region, Some((8, 8)));
    }

    #[test]
    fn rejects_bad_requests_with_messages() {
        let cases: &[(&[u8], &str)] = &[
            (b"", "invalid request"),
            (br#"{"pawns": []}"#, "at least one pawn"),
            (br#"{"blocked": []}"#, "missing field `pawns`"),
            // Every entry named as JSON names it, lists from 0.
            (
                br#"{"pawns": [[1, -1]]}"#,
                "pawns[0] is [1, -1]: negative y coordinate -1: coordinates are 0 to 1000000000",
            ),
            (
                br#"{"pawns": [[1]]}"#,
                "pawns[0] is [1]: expected [x, y], two whole numbers: coordinates are 0 to 1000000000",
            ),
            (
                br#"{"pawns": [[2, 2], [1.5, 0]]}"#,
                "pawns[1] is [1.5, 0]: x coordinate 1.5 is not a whole number",
            ),
            (
                br#"{"pawns": [[2, 2], "2,2"]}"#,
                "pawns[1] is \"2,2\": expected [x, y]",
            ),
            (
                br#"{"pawns": [[1000000001, 0]]}"#,
                "pawns[0] is [1000000001, 0]: x coordinate 1000000001 is out of range 0 to 1000000000",
            ),
            (
                br#"{"pawns": [[1, 1]], "blocked": [[0, 0], [2000000000, 1]]}"#,
                "blocked[1] is [2000000000, 1]: x coordinate 2000000000 is out of range",
            ),
            (
                br#"{"pawns": [[1, 1]], "blocked": [[0, -3]]}"#,
                "blocked[0] is [0, -3]: negative y coordinate -3",
            ),
            (
                br#"{"pawns": [[4,4]], "blocked": [[0,0],[3,3],[0,0]]}"#,
                "blocked[2] is [0, 0], as blocked[0] is: each impassable cell is listed once",
            ),
            (
                br#"{"pawns": [[2,2],[1,1]], "blocked": [[0,0],[1,1]]}"#,
                "pawns[1] is [1, 1], an impassable cell (blocked[1]): a pawn stands on an open one",
            ),
            (
                br#"{"pawns": [[1,1],[1,1],[1,1],[1,1],[1,1]]}"#,
                "at most 4",
            ),
            (
                br#"{"pawns": [[1,1]], "region": [0, 3]}"#,
                "region is [0, 3]: 0 x 3, but sides are 1 to 64",
            ),
            (
                br#"{"pawns": [[1,1]], "region": [-1, 3]}"#,
                "region is [-1, 3]: negative width -1: sides are 1 to 64",
            ),
            (br#"{"pawns": [[1,1]], "x": 1}"#, "unknown field"),
        ];
        for (body, what) in cases {
            let err = parse_request(body, &limits()).unwrap_err();
            super::super::assert_bad_request(&err, what);
        }
    }

    proptest! {
        /// Any bytes: an error or a valid position, never a panic.
        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let _ = parse_request(&bytes, &limits());
        }

        /// Arbitrary coordinates in valid JSON: a 400, or a position whose
        /// analysis and play answer (or refuse with a JSON error) without
        /// panicking.
        #[test]
        fn arbitrary_cells_never_panic(
            blocked in proptest::collection::vec([0u64..8, 0u64..8], 0..8),
            pawns in proptest::collection::vec(prop_oneof![[0u64..8, 0u64..8], [any::<u64>(), any::<u64>()]], 0..3),
        ) {
            let body = serde_json::json!({ "blocked": blocked, "pawns": pawns, "region": [8, 8] }).to_string();
            match parse_request(body.as_bytes(), &limits()) {
                Ok(position) => {
                    let _ = analyze(&position, 100);
                    let _ = play(&position);
                }
                Err(err) => prop_assert_eq!(err.status, axum::http::StatusCode::BAD_REQUEST),
            }
        }
    }
}
