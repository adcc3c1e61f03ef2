//! Rectangle clearing over HTTP.
//!
//! A request names one board (`"board": ["0110", "0000"]`) or a sum
//! (`"boards": [["0110"], ["11", "11"]]`): rows of `0`/`1` (also `.`/`#`,
//! spaces ignored), all rows of a board the same length, of any size the
//! body limit lets through. `analyze` answers, for boards of at most 64
//! cells, the JSON of `grundy clear --json` plus the total value reached by
//! every legal move (`moves`, `moves_total`, `moves_complete`) and the
//! [`Options`]: every rectangle with the component it is played in, what it
//! leaves of that component and of the total, and per cell the best value a
//! rectangle through it leaves. For a sum with a larger board it answers
//! the large boards' report ([`grundy_report::large`], `"large": true`):
//! the value when the budget finds it, the winning moves found (by values,
//! or by pairs of equal shapes), and no per-move list. `play` answers the
//! engine's move on any board ([`grundy::clear::large::choose_move`], as
//! `grundy clear --move`): always a move within the budget, with whether it
//! is proven and why, and the boards after it.
//!
//! A position over the server's budget is a 422 whose body also holds
//! `"tables"`, a [`TablesHint`]: the shape database that would answer it at
//! once (its box, and its build cost as measured in `docs/results.md`), and
//! the value of the full board when `docs/results.md` gives it.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use grundy::clear::large::{Analyzer, LargeBoard, MoveReason};
use grundy::clear::{Bitboard, Board, Clear, ClearSolver};
use grundy::{Budget, SolveError};
use grundy_report::clear::{Analysis, MoveReport, Report};
use grundy_report::databases::TablesHint;
use grundy_report::large::{EngineMoveReport, LargeMoveReport, LargeReport, Proven};
use grundy_report::parse::clear::{large_board_rows, parse_board_rows, parse_large_board_rows};
use grundy_report::words;
use grundy_report::{spread, MoveValues, ValuedMove};
use serde::{Deserialize, Serialize};

use super::memos::{Kept, Lent};
use super::{
    answer, at_row, job, known_without_search, parse_json, Answer, BudgetRequest, FromTables,
    Limits, WebGame,
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

/// The most memory a request's boards may need to analyse
/// ([`grundy::clear::large::analysis_bytes`]); the body limit usually
/// bounds them first.
pub const MAX_BOARD_BYTES: u64 = 64 << 20;

/// A validated request: the boards of the sum and the budget to search with.
#[derive(Clone, Debug)]
pub struct ClearPosition {
    /// The boards as small boards, when every one has at most 64 cells;
    /// else empty.
    pub boards: Vec<Board>,
    /// The boards, at least one, whatever their size.
    pub large: Vec<LargeBoard>,
    /// The search limits.
    pub budget: Budget,
    /// The time the request's probe already searched ([`Limits::spent`]).
    pub spent: Duration,
    /// The rules, with the server's shape databases.
    pub rules: Clear,
    /// The server's kept memos, which the search borrows.
    pub memos: Kept<ClearSolver>,
    /// The request's stop flag ([`Limits::stop`]).
    pub stop: Option<Arc<AtomicBool>>,
}

/// Answered from tables when every component of every board has a known
/// value (the 4 x 4, 4 x 5 and 2 x 8 tables, a straight line, a shape
/// database): then so do all their options, whose components are smaller
/// shapes of the same box.
impl FromTables for ClearPosition {
    fn answered_from_tables(&self) -> bool {
        !self.boards.is_empty() && known_without_search(&self.rules, &self.boards)
    }
}

impl ClearPosition {
    /// A solver of these rules under this budget: the server's memo kept
    /// last, or a fresh one ([`super::memos`]).
    fn lend_solver(&self) -> Lent<ClearSolver> {
        self.memos.lend(self.run_budget(), self.stop.clone(), || {
            self.rules.clone().into_solver()
        })
    }

    /// The budget the search runs under: the request's, less what its
    /// probe searched ([`Limits::spent`]; the search goes on from the
    /// probe's memo). Messages name the request's `budget`
    /// ([`super::whole_budget`]).
    fn run_budget(&self) -> Budget {
        super::budget_after(self.budget, self.spent)
    }

    /// `reason` with a budget's stop named with the request's budget.
    fn whole_reason(&self, reason: &mut MoveReason) {
        match reason {
            MoveReason::Unproven { stopped, .. } => {
                *stopped = stopped
                    .take()
                    .map(|err| super::whole_budget(err, self.budget));
            }
            MoveReason::Unanalysed { stopped } => {
                *stopped = super::whole_budget(stopped.clone(), self.budget);
            }
            _ => {}
        }
    }
}

/// Parses and validates a request body.
///
/// # Errors
///
/// 400 with a message naming the board and row at fault.
pub fn parse_request(body: &[u8], limits: &Limits) -> Result<ClearPosition, ApiError> {
    let request: ClearRequest = parse_json(body)?;
    let (rows_of_boards, one) = match (request.board, request.boards) {
        (Some(board), None) => (vec![board], true),
        (None, Some(boards)) => (boards, false),
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
    let large = rows_of_boards
        .iter()
        .enumerate()
        .map(|(index, rows)| {
            parse_large_board(rows).map_err(|what| {
                // Named as the JSON names it; a board of `boards` with
                // its number in the text too (from 1).
                ApiError::bad_request(if one {
                    format!("board: {what}")
                } else {
                    format!("boards[{index}] (board {}): {what}", index + 1)
                })
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let boards = large
        .iter()
        .map(LargeBoard::to_board)
        .collect::<Option<Vec<_>>>()
        .unwrap_or_default();
    Ok(ClearPosition {
        boards,
        large,
        budget: request.budget.within(limits.budget),
        spent: limits.spent,
        rules: limits.databases.clear_rules(),
        memos: limits.memos.clone(),
        stop: limits.stop.clone(),
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
    parse_board_rows(rows).map_err(|err| at_row(&err, rows))
}

/// [`parse_board`] for a board of any size up to [`MAX_BOARD_BYTES`].
///
/// # Errors
///
/// A message naming the 1-based row and column at fault.
pub fn parse_large_board(rows: &[String]) -> Result<LargeBoard, String> {
    parse_large_board_rows(rows, Some(MAX_BOARD_BYTES)).map_err(|err| at_row(&err, rows))
}

#[derive(Serialize)]
struct AnalyzeResponse {
    #[serde(flatten)]
    report: Report,
    #[serde(flatten)]
    moves: MoveValues<MoveReport>,
    options: Options,
    /// Why, in Sprague-Grundy terms ([`grundy_report::explain`]), with
    /// every component's mex; absent when the budget ran out first.
    #[serde(skip_serializing_if = "Option::is_none")]
    explain: Option<grundy_report::explain::Explanation>,
}

/// The `analyze` answer for a sum with a board past 64 cells.
#[derive(Serialize)]
struct LargeAnalyzeResponse<'a> {
    #[serde(flatten)]
    report: LargeReport<'a>,
    large: bool,
}

fn analyze(position: &ClearPosition, max_listed_moves: usize) -> Result<Answer, ApiError> {
    let mut solver = position.lend_solver();
    if position.boards.is_empty() {
        let mut analyzer = Analyzer::with_small_solver(solver.take(), position.run_budget());
        let mut analysis = grundy::clear::large::analyse(&position.large, &mut analyzer);
        solver.put(analyzer.into_small_solver());
        analysis.stopped = analysis
            .stopped
            .map(|err| super::whole_budget(err, position.budget));
        return answer(
            &LargeAnalyzeResponse {
                report: LargeReport {
                    analysis: &analysis,
                },
                large: true,
            },
            analysis.stopped.is_some(),
        );
    }
    let started = Instant::now();
    let analysis = Analysis::of_or_partial(&mut solver, &position.boards, position.run_budget())
        .map_err(|partial| {
            too_large(
                super::whole_budget(partial.values_stopped, position.budget),
                &position.boards,
            )
            .with_detail(
                "proven",
                serde_json::to_value(Proven::of(&partial.analysis)),
            )
        })?;
    // The moves' values get what the value search left of the request's
    // budget (`of_or_partial` leaves the solver its own, smaller share).
    let solved = solver.positions_solved();
    solver.set_budget(budget_left(
        position.run_budget(),
        started.elapsed(),
        solved,
    ));
    let several = position.boards.len() > 1;
    let options = options(&mut solver, &position.boards, &analysis, max_listed_moves)
        .map_err(|err| options_stopped(err, position, &analysis))?;
    let explain =
        grundy_report::explain::clear_component_moves(&mut solver, &position.boards, &analysis)
            .and_then(|moves| {
                let pieces = grundy_report::explain::clear_winning_pieces(
                    &mut solver,
                    &position.boards,
                    &analysis,
                )?;
                Ok(grundy_report::explain::clear(
                    &position.boards,
                    &analysis,
                    Some(&moves),
                    Some(&pieces),
                ))
            })
            .ok();
    let moves = MoveValues::new(
        options
            .moves
            .iter()
            .map(|option| {
                let phrase =
                    words::clear_move(several.then_some(option.mv.board), option.mv.rect());
                ValuedMove::new(option.mv, &phrase, option.grundy)
            })
            .collect(),
        options.total,
    );
    answer(
        &AnalyzeResponse {
            report: analysis.report(&position.boards),
            moves,
            options,
            explain,
        },
        false,
    )
}

/// The 422 of a request whose values were found but whose moves' values
/// ran out of budget: what the analysis proved (the value, the winner and
/// every winning move), and the request's budget named whole.
fn options_stopped(err: SolveError, position: &ClearPosition, analysis: &Analysis) -> ApiError {
    let several = position.boards.len() > 1;
    too_large(as_request_s(err, position.budget), &position.boards)
        .with_detail("proven", serde_json::to_value(analysis.proven(several)))
}

/// What is left of `budget` after `elapsed` and `solved` positions.
fn budget_left(budget: Budget, elapsed: Duration, solved: u64) -> Budget {
    Budget {
        max_time: budget.max_time.map(|t| t.saturating_sub(elapsed)),
        max_positions: budget.max_positions.map(|n| n.saturating_sub(solved)),
        ..budget
    }
}

/// A budget's stop worded with the request's whole budget, not with what
/// was left of it for the step that stopped ([`budget_left`]).
fn as_request_s(err: SolveError, budget: Budget) -> SolveError {
    match err {
        SolveError::TimeBudget { limit } => SolveError::TimeBudget {
            limit: budget.max_time.unwrap_or(limit),
        },
        SolveError::PositionBudget { limit, .. } => SolveError::PositionBudget {
            limit: budget.max_positions.unwrap_or(limit),
            needed: None,
        },
        other => other,
    }
}

/// The 422 for a search over budget, with what would answer it.
fn too_large(err: SolveError, boards: &[Board]) -> ApiError {
    let error = ApiError::from(err);
    let mut details = serde_json::Map::new();
    if let Ok(hint) = serde_json::to_value(TablesHint::of(boards)) {
        details.insert("tables".to_owned(), hint);
    }
    error.with_details(details)
}

/// One legal move and what it leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct OptionReport {
    /// The move.
    #[serde(flatten)]
    pub mv: MoveReport,
    /// How many cells it clears.
    pub cells: u32,
    /// The component it is played in: an index into its board's
    /// `components`.
    pub component: usize,
    /// The value of what is left of that component (the XOR of its parts).
    pub component_after: u32,
    /// The total value after the move: 0 when the move wins.
    pub grundy: u32,
}

/// One board's cells summarised over every rectangle through them, row by
/// row (`[row][col]`, 0-based).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CellSummary {
    /// The smallest total value a rectangle covering the cell leaves (0: a
    /// winning rectangle covers it); `null` for a cell with no one.
    pub best: Vec<Vec<Option<u32>>>,
    /// How many winning rectangles cover the cell.
    pub winning: Vec<Vec<u32>>,
}

/// Every legal move of a position with what it leaves: the `options` of an
/// `analyze` answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Options {
    /// The moves listed, in the game's move order (board, then top row,
    /// left column, right column, bottom row): every legal move, or an evenly
    /// spread sample of them when there are more than the server lists.
    pub moves: Vec<OptionReport>,
    /// How many legal moves the position has.
    pub total: usize,
    /// False when `moves` is a sample.
    pub complete: bool,
    /// Per board, each cell summarised over every legal move (listed or
    /// not).
    pub boards: Vec<CellSummary>,
}

/// Every legal move of the sum `boards`, valued by the solver, and the
/// per-cell summaries; `analysis` is the solver's analysis of `boards`. At
/// most `limit` moves are listed (spread evenly over the move order); the
/// summaries count every move.
///
/// Cost: one value per legal move, of the component the move is played in
/// with the rectangle taken out. The search of the component's own value
/// solved (or looked up) every one of them, so these are memo hits or table
/// lookups, not new searches; plus, per move, one step per cell it clears
/// for the summaries.
///
/// # Errors
///
/// [`SolveError`] when the solver's budget runs out.
pub fn options(
    solver: &mut ClearSolver,
    boards: &[Board],
    analysis: &Analysis,
    limit: usize,
) -> Result<Options, SolveError> {
    let mut all = Vec::new();
    let mut summaries = Vec::with_capacity(boards.len());
    for (index, (board, analysed)) in boards.iter().zip(&analysis.boards).enumerate() {
        let mut rects = Vec::new();
        board.for_each_rect(|rect, mask| rects.push((rect, mask)));
        let mut summary = CellSummary {
            best: vec![vec![None; board.cols()]; board.rows()],
            winning: vec![vec![0; board.cols()]; board.rows()],
        };
        for (rect, mask) in rects {
            let component = analysed
                .components
                .iter()
                .position(|(cells, _)| cells.contains(mask))
                .expect("a rectangle of ones lies in one component");
            let (cells, before) = analysed.components[component];
            let left = solver.value(&board.crop(Bitboard(cells.0 & !mask.0)))?;
            let grundy = analysis.total ^ before ^ left;
            for row in usize::from(rect.top)..=usize::from(rect.bottom) {
                for col in usize::from(rect.left)..=usize::from(rect.right) {
                    let best = &mut summary.best[row][col];
                    *best = Some(best.map_or(grundy.value(), |b| b.min(grundy.value())));
                    summary.winning[row][col] += u32::from(grundy.is_zero());
                }
            }
            all.push(OptionReport {
                mv: MoveReport::new(index, rect),
                cells: mask.count(),
                component,
                component_after: left.value(),
                grundy: grundy.value(),
            });
        }
        summaries.push(summary);
    }
    let total = all.len();
    let moves = spread(all, limit);
    Ok(Options {
        complete: moves.len() == total,
        moves,
        total,
        boards: summaries,
    })
}

#[derive(Serialize)]
struct PlayResponse {
    /// The engine's move, or `null` when it has none (it has lost).
    #[serde(rename = "move")]
    mv: Option<LargeMoveReport>,
    /// The move in words, as `grundy clear --move` says it (the total it
    /// leaves is `grundy`); `null` without a move.
    text: Option<String>,
    /// The boards after the move.
    boards: Vec<Vec<String>>,
    /// The total value after the move, when known (0 after a winning move).
    grundy: Option<u32>,
    /// True when the move is proven to win: the engine wins with best play.
    engine_wins: bool,
    /// True when the move is proven best (it wins, or every move loses).
    proven: bool,
    /// `"winning"`, `"losing"`, `"unproven"`, or `"none"` without a move.
    kind: &'static str,
    /// Why, in the theory's words (as `grundy clear --move` says it).
    reason: String,
}

fn play(position: &ClearPosition) -> Result<Answer, ApiError> {
    let mut solver = position.lend_solver();
    let mut analyzer = Analyzer::with_small_solver(solver.take(), position.run_budget());
    let mut boards = position.large.clone();
    let mut chosen = grundy::clear::large::choose_move(&boards, &mut analyzer);
    solver.put(analyzer.into_small_solver());
    if let Some(chosen) = &mut chosen {
        position.whole_reason(&mut chosen.reason);
    }
    let response = match chosen {
        Some(chosen) => {
            let board = chosen.board as usize;
            boards[board].play_unchecked(chosen.rect);
            let report = EngineMoveReport::new(&chosen, boards.len());
            PlayResponse {
                mv: Some(report.mv),
                text: Some(report.text),
                boards: boards.iter().map(large_board_rows).collect(),
                grundy: report.grundy,
                engine_wins: chosen.wins(),
                proven: report.proven,
                kind: report.kind,
                reason: report.reason,
            }
        }
        None => PlayResponse {
            mv: None,
            text: None,
            boards: boards.iter().map(large_board_rows).collect(),
            grundy: Some(0),
            engine_wins: false,
            proven: true,
            kind: "none",
            reason: words::NO_MOVES.to_owned(),
        },
    };
    let stopped = !response.proven;
    answer(&response, stopped)
}

#[cfg(test)]
mod tests {
    use super::*;
    use grundy::clear::shapes::ShapeBox;
    use grundy::clear::MAX_CELLS;
    use grundy_report::parse::clear::board_rows;
    use proptest::prelude::*;

    fn limits() -> Limits {
        super::super::test_limits(1000)
    }

    /// Values found but the moves' values stopped: the 422 carries what
    /// the analysis proved and names the request's whole time budget, not
    /// the share left to the step that stopped.
    #[test]
    fn moves_stopped_after_the_values_keep_what_the_values_prove() {
        let position = parse_request(
            br#"{"boards": [["111", "101"], ["11"]], "budget": {"max_time_ms": 300}}"#,
            &limits(),
        )
        .unwrap();
        let analysis = Analysis::of(&mut Clear::solver(), &position.boards).unwrap();
        assert!(!analysis.winning.is_empty());
        let stopped = SolveError::TimeBudget {
            limit: Duration::from_millis(200),
        };
        let err = options_stopped(stopped, &position, &analysis);
        assert_eq!(err.status, axum::http::StatusCode::UNPROCESSABLE_ENTITY);
        assert!(
            err.message.ends_with("time budget, 0.3 s"),
            "{}",
            err.message
        );
        let details = err.details.expect("details");
        let proven = &details["proven"];
        assert_eq!(proven["grundy"], analysis.total.value());
        assert_eq!(proven["winner"], "first");
        let moves = proven["winning_moves"].as_array().unwrap();
        assert_eq!(moves.len(), analysis.winning.len());
        for (json, m) in moves.iter().zip(&analysis.winning) {
            assert_eq!(json["board"], m.board);
            assert_eq!(json["top"], m.rect.top);
            assert_eq!(json["right"], m.rect.right);
            assert_eq!(json["text"], analysis.winning_line(m, true));
        }
        assert!(details.contains_key("tables"));
    }

    /// A heavy run after its probe has what the probe left of the time
    /// budget ([`Limits::spent`]), and names the request's whole budget:
    /// with all of it spent, the analysis and the engine's move stop at
    /// once, their words naming 0.2 s.
    #[test]
    fn a_run_after_its_probe_has_what_is_left_and_names_the_whole_budget() {
        let dense = br#"{"board": ["1011111", "1111101", "1101101", "0111101", "1011111", "0111110", "0111001"], "budget": {"max_time_ms": 200}}"#;
        let spent = Limits {
            spent: Duration::from_millis(200),
            budget: Budget::UNLIMITED,
            ..limits()
        };
        let position = parse_request(dense, &spent).unwrap();
        assert_eq!(position.run_budget().max_time, Some(Duration::ZERO));
        let err = analyze(&position, 100).unwrap_err();
        assert_eq!(err.status, axum::http::StatusCode::UNPROCESSABLE_ENTITY);
        assert!(
            err.message.ends_with("this request's time budget, 0.2 s"),
            "{}",
            err.message
        );
        let played: serde_json::Value =
            serde_json::from_str(&play(&position).unwrap().json).unwrap();
        assert_eq!(played["proven"], false, "{played}");
        let reason = played["reason"].as_str().unwrap();
        assert!(reason.contains("time budget of 0.2 s"), "{reason}");
        // A 9 x 9 board past 64 cells: the analysis of boards of any size.
        let large = br#"{"board": ["111111111", "111111111", "111111111", "111111111", "111111111", "111111111", "111111111", "111111111", "110111111"], "budget": {"max_time_ms": 200}}"#;
        let position = parse_request(large, &spent).unwrap();
        let answer = analyze(&position, 100).unwrap();
        let json: serde_json::Value = serde_json::from_str(&answer.json).unwrap();
        let stopped = json["stopped"].as_str().unwrap_or_default();
        assert!(stopped.contains("time budget of 0.2 s"), "{json}");
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

    /// The server's databases come with its limits (the state each request
    /// is prepared with), not from a global: a board a database holds is
    /// answered from tables with them and searched without, to the same
    /// value.
    #[test]
    fn the_databases_of_the_limits_answer() {
        use grundy::clear::shapes::{ClearShapes, ShapeTables};
        use grundy::tier::{solve_tiers, TierControl, TierError};
        let shape_box = ShapeBox::new(3, 6).unwrap();
        let mut tiers = Vec::new();
        solve_tiers::<_, TierError, _>(
            &ClearShapes::new(shape_box),
            &mut tiers,
            &TierControl::new(),
            |_, _| Ok(()),
        )
        .unwrap();
        let tables = ShapeTables::new(shape_box, tiers).unwrap();
        let with = Limits {
            databases: super::super::Databases::new(std::sync::Arc::new(tables)),
            ..limits()
        };
        let body = br#"{"board": ["111111", "110111", "111111"]}"#;
        let known = parse_request(body, &with).unwrap();
        let searched = parse_request(body, &limits()).unwrap();
        assert!(known.answered_from_tables());
        assert!(!searched.answered_from_tables());
        let value = |position: &ClearPosition| {
            let mut solver = position.rules.clone().into_solver();
            solver.value(&position.boards[0]).unwrap()
        };
        assert_eq!(value(&known), value(&searched));
    }

    #[test]
    fn rejects_bad_requests_with_messages() {
        let cases: &[(&[u8], &str)] = &[
            (b"", "the body is empty; send a JSON object"),
            (b" \r\n", "the body is empty; send a JSON object"),
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
                "board: row 2, column 2: unexpected 'x'",
            ),
            (
                br#"{"board": ["01", "011"]}"#,
                "board: row 2, column 3: ragged row: 3 cells, but the first row has 2",
            ),
            (br#"{"board": []}"#, "empty input"),
            (br#"{"board": ["", "1"]}"#, "row 1, column 1: empty row"),
            (br#"{"board": ["1"], "extra": 1}"#, "unknown field"),
        ];
        for (body, what) in cases {
            let err = parse_request(body, &limits()).unwrap_err();
            super::super::assert_bad_request(&err, what);
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
