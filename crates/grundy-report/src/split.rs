//! The splitting game's report: the grid's size, the value, the winner and
//! every winning move, as printed by `grundy split --json` and answered by
//! the web server; plus the value every legal move leads to and the
//! engine's move. All from [`SplitSolver::options`], which lists every
//! legal move of a position with the value it leaves, so a winning move is
//! a legal move leaving 0, never a guess.

use grundy::split::{
    Cell, DenseTable, Position, Rect, SplitChoice, SplitReason, SplitSolver, MAX_DENSE_CANDIDATES,
};
use grundy::{Nimber, SolveError};
use serde::Serialize;

use crate::parse::split::ParsedGrid;
use crate::parse::{ParseError, ParseErrorKind};
use crate::{spread, words, MoveValues, ValuedMove};

/// The JSON of `grundy split --json` (cells 0-based).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Report {
    /// Rows of the grid.
    pub rows: u32,
    /// Columns of the grid.
    pub cols: u32,
    /// The position's value.
    pub grundy: u32,
    /// `"first"` or `"second"`: who wins with the player to move first.
    pub winner: &'static str,
    /// Every winning move, with its line: why it wins for the first
    /// [`MAX_EXPLAINED`] ([`winning_line`]), the move alone after them
    /// ([`plain_line`]).
    pub winning_moves: Vec<crate::Lined<CellReport>>,
}

/// A cell, 0-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CellReport {
    /// Row.
    pub row: u32,
    /// Column.
    pub col: u32,
}

impl From<Cell> for CellReport {
    fn from(cell: Cell) -> CellReport {
        CellReport {
            row: cell.row,
            col: cell.col,
        }
    }
}

/// A rectangle, corners inclusive, 0-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RectReport {
    /// First row.
    pub top: u32,
    /// First column.
    pub left: u32,
    /// Last row.
    pub bottom: u32,
    /// Last column.
    pub right: u32,
}

impl From<Rect> for RectReport {
    fn from(rect: Rect) -> RectReport {
        RectReport {
            top: rect.top,
            left: rect.left,
            bottom: rect.bottom,
            right: rect.right,
        }
    }
}

/// A position's value and every legal move with the value it leaves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The value.
    pub value: Nimber,
    /// Every legal move and the value it leaves, in [`Position::moves`]
    /// order.
    pub options: Vec<(Cell, Nimber)>,
}

impl Analysis {
    /// Solves `position`.
    ///
    /// # Errors
    ///
    /// [`SolveError`] when the solver's budget runs out.
    pub fn of(solver: &mut SplitSolver, position: &Position) -> Result<Analysis, SolveError> {
        let value = solver.value(position)?;
        let options = solver.options(position)?;
        Ok(Analysis { value, options })
    }

    /// The winning moves: the legal moves leaving 0.
    #[must_use]
    pub fn winning_moves(&self) -> Vec<Cell> {
        self.options
            .iter()
            .filter(|(_, v)| v.is_zero())
            .map(|&(c, _)| c)
            .collect()
    }

    /// The JSON report, the winning moves worded by `explained`
    /// ([`explained_lines`]), and the moves past them by [`plain_line`].
    #[must_use]
    pub fn report(&self, position: &Position, explained: &[String]) -> Report {
        Report {
            rows: position.grid().rows(),
            cols: position.grid().cols(),
            grundy: self.value.value(),
            winner: crate::clear::winner(self.value),
            winning_moves: self
                .winning_moves()
                .into_iter()
                .enumerate()
                .map(|(i, cell)| crate::Lined {
                    mv: cell.into(),
                    text: explained
                        .get(i)
                        .cloned()
                        .unwrap_or_else(|| plain_line(cell)),
                })
                .collect(),
        }
    }

    /// Every legal move with the value it leaves, or `limit` of them spread
    /// evenly when there are more.
    #[must_use]
    pub fn move_values(&self, limit: usize) -> MoveValues<CellReport> {
        let moves = spread(self.options.clone(), limit)
            .into_iter()
            .map(|(cell, value)| {
                ValuedMove::new(cell.into(), &words::split_move(cell), value.value())
            })
            .collect();
        MoveValues::new(moves, self.options.len())
    }

    /// The engine's move: the first winning move; in a lost position the
    /// first move leaving the largest value (the hardest to answer by hand,
    /// as `grundy split --play`). `None` when there is no move.
    #[must_use]
    pub fn engine_move(&self) -> Option<(Cell, Nimber)> {
        if self.value.is_zero() {
            self.options
                .iter()
                .enumerate()
                .max_by_key(|&(i, (_, v))| (*v, std::cmp::Reverse(i)))
                .map(|(_, &option)| option)
        } else {
            self.options.iter().find(|(_, v)| v.is_zero()).copied()
        }
    }
}

/// Winning moves explained part by part, at most this many: each costs a
/// valuation of the rectangles the move leaves.
pub const MAX_EXPLAINED: usize = 64;

/// The lines of the first winning moves of `winning` (at most
/// [`MAX_EXPLAINED`]), each with the rectangles it leaves and their values
/// ([`winning_line`]): fewer when the solver's budget runs out on one,
/// since the value and the moves are already known and the report must not
/// be lost for a reason.
pub fn explained_lines(
    solver: &mut SplitSolver,
    position: &Position,
    winning: &[Cell],
) -> Vec<String> {
    let mut lines = Vec::with_capacity(winning.len().min(MAX_EXPLAINED));
    for &cell in winning.iter().take(MAX_EXPLAINED) {
        // A winning move is legal: the engine listed it from this position.
        let Ok(after) = position.try_play(cell) else {
            break;
        };
        let Ok(values) = solver.rect_values(&after) else {
            break;
        };
        let left: Vec<_> = after.rects().iter().copied().zip(values).collect();
        lines.push(winning_line(cell, &left));
    }
    lines
}

/// A winning move past the explained ones, as `grundy split` lists it:
/// `split at (2,3), leaving grundy 0`.
#[must_use]
pub fn plain_line(cell: Cell) -> String {
    words::leaving(&words::split_move(cell), 0)
}

/// A winning move as `grundy split` lists it: `split at (1,3), leaving
/// grundy 0 (rectangles left with candidates: (2,1)-(5,2) grundy 2,
/// (2,4)-(5,5) grundy 2)`, `left` being every rectangle in play after the
/// move with its value (their XOR is 0: why the move wins; `rectangle`
/// when one is left), or `(no candidate left)` when there is none.
#[must_use]
pub fn winning_line(cell: Cell, left: &[(Rect, Nimber)]) -> String {
    let parts: Vec<String> = left
        .iter()
        .map(|(rect, value)| format!("{rect} grundy {value}"))
        .collect();
    let why = if parts.is_empty() {
        "(no candidate left)".to_owned()
    } else {
        let rectangles = if parts.len() == 1 {
            "rectangle"
        } else {
            "rectangles"
        };
        format!("({rectangles} left with candidates: {})", parts.join(", "))
    };
    format!("{} {why}", words::leaving(&words::split_move(cell), 0))
}

/// Why `cell` is no move of `position`, as every front-end says it after
/// the move in the command line's words ([`words::illegal`]): outside the
/// grid, not a candidate, or a candidate an earlier move took out of play.
#[must_use]
pub fn why_illegal(position: &grundy::split::Position, cell: Cell) -> String {
    let grid = position.grid();
    if cell.row >= grid.rows() || cell.col >= grid.cols() {
        format!("it lies outside the {} x {} grid", grid.rows(), grid.cols())
    } else if !grid.is_candidate(cell) {
        format!("cell {cell} is 0, not a candidate")
    } else {
        // A candidate is in play until a move deletes its row or column
        // (its own move included): the rectangle holding it keeps a
        // candidate, so it is never dropped.
        "no longer in play: an earlier move deleted its row or column".to_owned()
    }
}

/// `cell` played on `position` as the command line words an illegal move:
/// `split at (1,2) is illegal: <why>` ([`why_illegal`]).
#[must_use]
pub fn illegal_move(position: &grundy::split::Position, cell: Cell) -> String {
    words::illegal(&words::split_move(cell), &why_illegal(position, cell))
}

/// Why a rectangle valued without a search has its value
/// ([`grundy::split::Pattern::known_value`]), in words for the engine's
/// reasons.
const LINE_GROUPS: &str = "every play there takes one move for each group of candidates linked by shared rows and columns (each group lies on one line that no other candidate's line cuts)";

/// Why the rectangles a move leaves cancel in pairs, in words for the
/// engine's reasons: the two of a pair need not be congruent (a 1 x 1 and a
/// 2 x 1 rectangle of one candidate each are one game), as the splitting
/// game reads only where the candidates are ([`grundy::split::Pattern::canonical`]).
const PAIRED: &str = "the rectangles it leaves pair up, the two of each pair with their candidates in one pattern (rows and columns without a candidate left out, up to rotation and reflection), so equal in value";

/// The engine's move in JSON, as `grundy split --move --json` prints it and
/// `grundy.split.engine_move` returns it: `{"move": {"row", "col"},
/// "proven", "kind", "reason", "text"}`.
pub type EngineMoveReport = crate::EngineMove<CellReport>;

impl EngineMoveReport {
    /// The report of `choice`.
    #[must_use]
    pub fn new(choice: &SplitChoice) -> EngineMoveReport {
        let kind = match choice.reason {
            SplitReason::Losing { .. } => "losing",
            SplitReason::Unproven { .. } => "unproven",
            _ => "winning",
        };
        let reason = match &choice.reason {
            SplitReason::Values { total } => format!(
                "proven winning: the value is {total}, and this move leaves 0"
            ),
            SplitReason::Pairs {
                leaves_nothing,
                pairs,
                alone,
            } => format!(
                "proven winning: {}",
                paired_reason(*leaves_nothing, *pairs, *alone)
            ),
            SplitReason::Losing { leaves } => format!(
                "losing position: the value is 0, so every move loses; this one leaves {leaves}, the largest value a move leaves (chosen as likely the hardest to answer)"
            ),
            SplitReason::Unproven { stopped } => format!(
                "unproven: the budget ran out{}; best guess: the move tried that leaves the fewest candidates in rectangles without a partner of the same pattern",
                stopped.as_ref().map(|e| format!(" ({e})")).unwrap_or_default()
            ),
            _ => "unproven".to_owned(),
        };
        let grundy = match choice.reason {
            SplitReason::Losing { leaves } => Some(leaves.value()),
            _ => choice.wins().then_some(0),
        };
        EngineMoveReport {
            mv: choice.cell.into(),
            proven: choice.proven(),
            kind,
            grundy,
            reason,
            text: words::split_move(choice.cell),
        }
    }
}

/// Why a move the pair search proved wins ([`SplitReason::Pairs`]), without
/// the words "proven winning".
fn paired_reason(leaves_nothing: bool, pairs: usize, alone: usize) -> String {
    let pair = words::PAIR_CANCELS;
    match (leaves_nothing, pairs, alone) {
        (true, _, _) => "it leaves no candidate: the opponent cannot move".to_owned(),
        (_, _, 0) => format!("{PAIRED} ({pair})"),
        (_, 0, 1) => format!("the one rectangle with candidates it leaves has value 0: {LINE_GROUPS}, and it has an even number of them"),
        (_, 0, _) => format!("in each rectangle it leaves {LINE_GROUPS}, so its value is their number mod 2, and these values' XOR is 0"),
        (_, _, 1) => format!("{PAIRED} ({pair}), but for one, whose value is 0: {LINE_GROUPS}, and it has an even number of them"),
        _ => format!("{PAIRED} ({pair}), but for {alone} rectangles, in each of which {LINE_GROUPS}, so its value is their number mod 2, and these values' XOR is 0"),
    }
}

/// What `grundy split --json` prints when the search stops before the
/// value is known: the value and the winner `null` (as every unknown value
/// is), unless a move is proven winning without values (the rectangles it
/// leaves pair up: [`grundy::split::paired_move`]), which is then the one
/// winning move listed; `winning_moves_complete` is false either way, as in
/// the partial report of `grundy clear --json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PartialReport {
    /// Rows of the grid.
    pub rows: u32,
    /// Columns of the grid.
    pub cols: u32,
    /// The position's value: unknown.
    pub grundy: Option<u32>,
    /// `"first"` when a move is proven winning, else unknown.
    pub winner: Option<&'static str>,
    /// The move proven winning, if any, with why.
    pub winning_moves: Vec<crate::Lined<CellReport>>,
    /// Always false: other winning moves may exist.
    pub winning_moves_complete: bool,
    /// Why the search stopped.
    pub stopped: String,
}

impl PartialReport {
    /// The report of `position`, whose search stopped with `stopped`, and
    /// whose pair search found `paired` (a [`SplitReason::Pairs`] choice).
    #[must_use]
    pub fn new(
        position: &Position,
        paired: Option<&SplitChoice>,
        stopped: &SolveError,
    ) -> PartialReport {
        let winning_moves = paired
            .and_then(|choice| match choice.reason {
                SplitReason::Pairs {
                    leaves_nothing,
                    pairs,
                    alone,
                } => Some(crate::Lined {
                    mv: choice.cell.into(),
                    text: format!(
                        "{} ({})",
                        words::leaving(&words::split_move(choice.cell), 0),
                        paired_reason(leaves_nothing, pairs, alone)
                    ),
                }),
                _ => None,
            })
            .into_iter()
            .collect::<Vec<_>>();
        PartialReport {
            rows: position.grid().rows(),
            cols: position.grid().cols(),
            grundy: None,
            winner: (!winning_moves.is_empty()).then_some("first"),
            winning_moves,
            winning_moves_complete: false,
            stopped: stopped.to_string(),
        }
    }
}

/// Why [`check_fits`] refuses a grid (each error located in the input).
pub enum Refusal {
    /// A block has more candidates than a dense table holds (exit 2).
    Unsupported(ParseError),
    /// A block's table needs these bytes, more than `--max-memory` (exit 3).
    OverBudget(ParseError, u64),
}

/// The matrix and map formats promise to solve any grid whose tables fit
/// the memory budget `max_memory`: refuse, at its first candidate, a block
/// whose table (with its scratch) would not, with the bytes it needs, or
/// that no dense table can hold. `option` names the budget as the
/// front-end spells it (`--max-memory`, `max_memory`). `grundy split` and
/// the Python package both check here, so they refuse the same grids.
///
/// # Errors
///
/// The first block refused, as a [`Refusal`].
pub fn check_fits(
    parsed: &ParsedGrid,
    input: &[u8],
    max_memory: u64,
    option: &str,
) -> Result<(), Refusal> {
    let grid = &parsed.grid;
    let compressed = grid.pattern_in(grid.full());
    if compressed.pattern.known_value().is_some() {
        return Ok(());
    }
    for block in compressed.pattern.blocks() {
        let p = &block.pattern;
        let entries = DenseTable::entries(p.rows(), p.cols());
        let needs = DenseTable::bytes(p);
        if p.known_value().is_some() || needs <= max_memory && p.count() <= MAX_DENSE_CANDIDATES {
            continue;
        }
        let (x, y) = p.cells().next().expect("a block holds a candidate");
        let cell = Cell::new(
            compressed.rows[block.rows[x]],
            compressed.cols[block.cols[y]],
        );
        let at = parsed.offset_of(cell).unwrap_or(0);
        if p.count() > MAX_DENSE_CANDIDATES {
            return Err(Refusal::Unsupported(ParseError::at(
                input,
                at,
                ParseErrorKind::TooLarge(format!(
                    "grid too large: the candidates from here form a block of {} candidates on {} rows and {} columns; a block holds at most {MAX_DENSE_CANDIDATES}",
                    p.count(),
                    p.rows(),
                    p.cols(),
                )),
            )));
        }
        let (need, allowed) = words::bytes_apart(needs, max_memory);
        let error = ParseError::at(
            input,
            at,
            ParseErrorKind::TooLarge(format!(
                "grid too large for {option}: the candidates from here form a block on {} rows and {} columns, whose table of {entries} sub-rectangles needs {} with its scratch; {option} allows {}",
                p.rows(),
                p.cols(),
                need,
                allowed,
            )),
        );
        return Err(Refusal::OverBudget(error, needs));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use grundy::split::Cell;

    /// A winning line reads as `grundy split` prints it.
    #[test]
    fn a_winning_line_names_what_the_move_leaves() {
        let rect = |top, left, bottom, right| Rect {
            top,
            left,
            bottom,
            right,
        };
        assert_eq!(
            winning_line(
                Cell::new(0, 2),
                &[
                    (rect(1, 0, 4, 1), Nimber::new(2)),
                    (rect(1, 3, 4, 4), Nimber::new(2))
                ]
            ),
            "split at (1,3), leaving grundy 0 (rectangles left with candidates: \
             (2,1)-(5,2) grundy 2, (2,4)-(5,5) grundy 2)"
        );
        assert_eq!(
            winning_line(Cell::new(0, 0), &[(rect(1, 1, 2, 3), Nimber::new(0))]),
            "split at (1,1), leaving grundy 0 (rectangle left with candidates: \
             (2,2)-(3,4) grundy 0)"
        );
        assert_eq!(
            winning_line(Cell::new(1, 2), &[]),
            "split at (2,3), leaving grundy 0 (no candidate left)"
        );
    }

    /// The reason of a move proven by pairs says what the move leaves:
    /// pairs only when some rectangles pair, closed forms only when some
    /// are alone.
    #[test]
    fn a_pair_proof_says_what_it_leaves() {
        let reason = |leaves_nothing, pairs, alone| {
            EngineMoveReport::new(&SplitChoice {
                cell: Cell::new(0, 0),
                reason: SplitReason::Pairs {
                    leaves_nothing,
                    pairs,
                    alone,
                },
            })
            .reason
        };
        assert!(reason(true, 0, 0).contains("no candidate"));
        for (pairs, alone) in [(1, 0), (2, 0), (0, 1), (0, 2), (1, 1), (3, 2)] {
            let text = reason(false, pairs, alone);
            assert_eq!(text.contains("pair up"), pairs > 0, "{text}");
            assert_eq!(text.contains(LINE_GROUPS), alone > 0, "{text}");
        }
    }

    /// A pair need not be congruent: after (5,3) of this grid the engine
    /// answers (2,1), which leaves a 1 x 1 and a 2 x 1 rectangle of one
    /// candidate each, one game (and a rectangle of value 0); the reason
    /// says so without calling them congruent.
    #[test]
    fn a_pair_of_one_pattern_is_not_called_congruent() {
        let grid = crate::parse::split::parse_matrix(b"01100\n10010\n00100\n11001\n00110\n")
            .unwrap()
            .grid;
        let position = Position::new(grid).try_play(Cell::new(4, 2)).unwrap();
        let choice =
            grundy::split::choose_move(&position, grundy::Budget::UNLIMITED, u64::MAX).unwrap();
        assert!(
            matches!(
                choice.reason,
                SplitReason::Pairs {
                    pairs: 1,
                    alone: 1,
                    ..
                }
            ),
            "{choice:?}"
        );
        let left = position.try_play(choice.cell).unwrap();
        let sizes: Vec<(u32, u32)> = left
            .rects()
            .iter()
            .filter(|r| left.grid().candidates_in(**r).count() == 1)
            .map(|r| (r.bottom - r.top + 1, r.right - r.left + 1))
            .collect();
        assert_eq!(sizes.len(), 2, "{sizes:?}");
        assert_ne!(sizes[0], sizes[1], "not congruent: {sizes:?}");
        let text = EngineMoveReport::new(&choice).reason;
        assert!(
            text.contains("in one pattern") && !text.contains("congruent"),
            "{text}"
        );
    }
}
