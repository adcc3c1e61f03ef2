//! Rectangle clearing: the analysis of one board or of a sum of boards.
//!
//! A board's value is the XOR of its 4-connected components' values, and a
//! sum's value the XOR of its boards' values (Sprague-Grundy). A winning move
//! exists when the total is non-zero: on board `i`, it is a move to a board
//! of value `value_i ^ total`, so the total becomes 0. Winning moves are
//! searched among each board's legal moves ([`Solver::moves_to`](grundy::Solver::moves_to)), never
//! guessed from values. [`move_values`] gives the total reached by every
//! legal move (or an evenly spread sample of them), and [`engine_move`] the
//! move a computer player makes. Everything runs on the caller's solver, so
//! the caller's [`Budget`] bounds it.

use std::time::Instant;

use grundy::clear::large::{
    analyse_after_stop, classify, Analyzer, LargeAnalysis, LargeBoard, OUTCOME_SHARE,
};
use grundy::clear::{Bitboard, Board, ClearSolver, Rect};
use grundy::{Budget, Nimber, SolveError};
use serde::Serialize;

use crate::{spread, words, MoveValues, ValuedMove};

/// One board's components (as cells of the board) and values.
#[derive(Clone, Debug)]
pub struct BoardAnalysis {
    /// Each 4-connected component of the ones, with its value.
    pub components: Vec<(Bitboard, Nimber)>,
    /// The XOR of the components' values.
    pub value: Nimber,
}

/// A winning move and why it wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WinningMove {
    /// The board it is played on (0-based).
    pub board: usize,
    /// The rectangle cleared.
    pub rect: Rect,
    /// The component it is played in, an index into that board's components.
    pub component: usize,
    /// That component's value after the move (the total becomes 0).
    pub after: Nimber,
}

/// What [`Analysis::of_or_partial`] knows when the budget ran out first.
#[derive(Clone, Debug)]
pub struct Partial {
    /// What is known, as the analysis of a board past 64 cells: its
    /// `stopped` is `None` when the outcome search completed it (the
    /// position is lost: value 0, no winning move).
    pub analysis: LargeAnalysis,
    /// The budget that stopped the values, which the play-out and the
    /// explanation need.
    pub values_stopped: SolveError,
    /// The shapes the value search solved before it stopped.
    pub positions_solved: u64,
}

/// The analysis of a sum of boards.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// Each board's analysis, in order.
    pub boards: Vec<BoardAnalysis>,
    /// The XOR of all boards' values.
    pub total: Nimber,
    /// Every winning move, board by board in the game's move order.
    pub winning: Vec<WinningMove>,
}

/// The budget that stopped a value search that went on from its memo
/// (after `first` stopped it) and stopped again with `resumed`, worded as
/// the user's `budget`: the time when the clock ran out again, else the
/// budget that ended the search last, since raising the time alone would
/// not get past it.
fn resumed_stop(first: SolveError, resumed: SolveError, budget: Budget) -> SolveError {
    match resumed {
        SolveError::TimeBudget { .. } => first,
        SolveError::PositionBudget { limit, needed } => SolveError::PositionBudget {
            limit: budget.max_positions.unwrap_or(limit),
            needed,
        },
        other => other,
    }
}

impl Analysis {
    /// [`Analysis::of`] under `budget`, and when the budget runs out first,
    /// what the large-board analysis still knows, as `Err`: the values the
    /// memo holds, and the winner with a proven winning move where moves
    /// that leave pairs or an outcome search find one
    /// ([`grundy::clear::large::analysis`], "Who wins without the value").
    /// When one class of shapes does not cancel and `budget` has a time,
    /// the value search leaves `1 / OUTCOME_SHARE` of it for that outcome
    /// search, and goes on from its memo with the time the outcome search
    /// leaves; later searches on `solver` keep the budget of the value
    /// search that finished.
    ///
    /// # Errors
    ///
    /// The partial analysis, as above. `solver` keeps the memo, with what
    /// every search found (a later search goes on from it).
    pub fn of_or_partial(
        solver: &mut ClearSolver,
        boards: &[Board],
        budget: Budget,
    ) -> Result<Analysis, Box<Partial>> {
        let started = Instant::now();
        let large: Vec<LargeBoard> = boards.iter().map(LargeBoard::from_board).collect();
        let mut first = budget;
        if classify(&large).lone_class().is_some() {
            first.max_time = budget.max_time.map(|limit| limit - limit / OUTCOME_SHARE);
        }
        solver.set_budget(first);
        let err = match Analysis::of(solver, boards) {
            Ok(analysis) => return Ok(analysis),
            Err(SolveError::TimeBudget { .. }) if budget.max_time.is_some() => {
                SolveError::TimeBudget {
                    limit: budget.max_time.unwrap_or_default(),
                }
            }
            Err(err) => err,
        };
        let mut positions_solved = solver.positions_solved();
        let fresh = solver.game().clone().into_solver();
        let memo = std::mem::replace(solver, fresh);
        let mut analyzer = Analyzer::with_small_solver(memo, budget);
        let analysis = analyse_after_stop(&large, &mut analyzer, err.clone(), started);
        *solver = analyzer.into_small_solver();
        let mut values_stopped = err;
        let left = budget
            .max_time
            .and_then(|limit| limit.checked_sub(started.elapsed()));
        if let (None, Some(left)) = (analysis.value, left) {
            // The outcome search left time: the value search goes on from
            // its memo, with what is left of its own position budget.
            solver.set_budget(Budget {
                max_time: Some(left),
                max_positions: budget
                    .max_positions
                    .map(|limit| limit.saturating_sub(positions_solved)),
                ..budget
            });
            match Analysis::of(solver, boards) {
                Ok(full) => return Ok(full),
                Err(resumed) => {
                    positions_solved += solver.positions_solved();
                    values_stopped = resumed_stop(values_stopped, resumed, budget);
                }
            }
        }
        Err(Box::new(Partial {
            analysis,
            values_stopped,
            positions_solved,
        }))
    }

    /// Analyses `boards` as a sum.
    ///
    /// # Errors
    ///
    /// [`SolveError`] when the solver's budget runs out.
    pub fn of(solver: &mut ClearSolver, boards: &[Board]) -> Result<Analysis, SolveError> {
        let mut analysed = Vec::with_capacity(boards.len());
        for board in boards {
            let mut components = Vec::new();
            for cells in board.components() {
                components.push((cells, solver.value(&board.crop(cells))?));
            }
            let value = components.iter().map(|&(_, v)| v).sum();
            analysed.push(BoardAnalysis { components, value });
        }
        let total: Nimber = analysed.iter().map(|b| b.value).sum();
        let mut winning = Vec::new();
        if !total.is_zero() {
            for (index, (board, analysis)) in boards.iter().zip(&analysed).enumerate() {
                let target = analysis.value ^ total;
                for (rect, _) in solver.moves_to(board, target)? {
                    let mask = board.geometry().rect_mask(rect);
                    let component = analysis
                        .components
                        .iter()
                        .position(|(cells, _)| cells.contains(mask))
                        .expect("a rectangle of ones lies in one component");
                    let after = analysis.components[component].1 ^ total;
                    winning.push(WinningMove {
                        board: index,
                        rect,
                        component,
                        after,
                    });
                }
            }
        }
        Ok(Analysis {
            boards: analysed,
            total,
            winning,
        })
    }

    /// Winning move `m` in words, as every front-end lists it:
    /// `clear (1,1)-(2,2), leaving grundy 0 (component A: grundy 1 -> 0)`;
    /// `several` when the position is a sum of boards, whose components are
    /// named by board and letter as the explanation names them: `clear
    /// (1,1)-(2,2) on board 1, leaving grundy 0 (component 1A: grundy 1 ->
    /// 0)`.
    #[must_use]
    pub fn winning_line(&self, m: &WinningMove, several: bool) -> String {
        let before = self.boards[m.board].components[m.component].1;
        let phrase = words::clear_move(several.then_some(m.board), m.rect);
        format!(
            "{} {}",
            words::leaving(&phrase, 0),
            words::change(
                &format!(
                    "component {}",
                    crate::explain::component_name(several, m.board, m.component)
                ),
                before.value(),
                m.after.value()
            )
        )
    }

    /// What this analysis proves, in the form a stopped one's is given
    /// ([`crate::large::Proven`]): the winner, the value and every winning
    /// move with its words; for an answer that stopped after the values
    /// (listing each move's value, say).
    #[must_use]
    pub fn proven(&self, several: bool) -> crate::large::Proven {
        crate::large::Proven {
            winner: Some(winner(self.total)),
            grundy: Some(self.total.value()),
            winning_moves: self
                .winning
                .iter()
                .map(|m| crate::large::ProvenMove {
                    mv: crate::large::LargeMoveReport::new(m.board as u32, m.rect.into()),
                    text: self.winning_line(m, several),
                })
                .collect(),
        }
    }

    /// The JSON report of this analysis of `boards` (the boards it was made
    /// from, at least one). Coordinates are 0-based, corners inclusive.
    #[must_use]
    pub fn report(&self, boards: &[Board]) -> Report {
        let boards_json: Vec<BoardReport> = boards
            .iter()
            .zip(&self.boards)
            .map(|(board, analysis)| BoardReport {
                rows: board.rows(),
                cols: board.cols(),
                grundy: analysis.value.value(),
                components: analysis
                    .components
                    .iter()
                    .map(|&(cells, value)| ComponentReport {
                        cells: cells
                            .cells()
                            .map(|i| [i as usize / board.cols(), i as usize % board.cols()])
                            .collect(),
                        grundy: value.value(),
                    })
                    .collect(),
            })
            .collect();
        let first = &boards_json[0];
        Report {
            rows: first.rows,
            cols: first.cols,
            grundy: self.total.value(),
            winner: winner(self.total),
            winning_moves: self
                .winning
                .iter()
                .map(|m| crate::Lined {
                    mv: MoveReport::new(m.board, m.rect),
                    text: self.winning_line(m, boards.len() > 1),
                })
                .collect(),
            components: first.components.clone(),
            boards: boards_json,
        }
    }
}

/// `"first"` when the player to move wins (non-zero value), else `"second"`.
#[must_use]
pub fn winner(total: Nimber) -> &'static str {
    crate::words::winner(!total.is_zero())
}

/// The JSON of `grundy clear --json`. `rows`, `cols` and `components` repeat
/// the first board's (the only one, unless the position is a sum), so a
/// script reading one board needs nothing else.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// Rows of the first board.
    pub rows: usize,
    /// Columns of the first board.
    pub cols: usize,
    /// The total value.
    pub grundy: u32,
    /// `"first"` or `"second"`: who wins with best play.
    pub winner: &'static str,
    /// Every winning move, with its line ([`Analysis::winning_line`]).
    pub winning_moves: Vec<crate::Lined<MoveReport>>,
    /// The first board's components.
    pub components: Vec<ComponentReport>,
    /// Every board, 0-based as `board` in moves.
    pub boards: Vec<BoardReport>,
}

/// One board of a [`Report`].
#[derive(Clone, Debug, Serialize)]
pub struct BoardReport {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// The board's value.
    pub grundy: u32,
    /// Its components.
    pub components: Vec<ComponentReport>,
}

/// One component of a board: its cells as `[row, col]` and its value.
#[derive(Clone, Debug, Serialize)]
pub struct ComponentReport {
    /// The cells, `[row, col]`, 0-based.
    pub cells: Vec<[usize; 2]>,
    /// The component's value.
    pub grundy: u32,
}

/// A move: clear the rectangle `top..=bottom` x `left..=right` of `board`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct MoveReport {
    /// The board, 0-based.
    pub board: usize,
    /// First row, 0-based.
    pub top: u8,
    /// First column, 0-based.
    pub left: u8,
    /// Last row (inclusive), 0-based.
    pub bottom: u8,
    /// Last column (inclusive), 0-based.
    pub right: u8,
}

impl MoveReport {
    /// The move clearing `rect` on board `board`.
    #[must_use]
    pub fn new(board: usize, rect: Rect) -> MoveReport {
        MoveReport {
            board,
            top: rect.top,
            left: rect.left,
            bottom: rect.bottom,
            right: rect.right,
        }
    }

    /// The rectangle.
    #[must_use]
    pub fn rect(&self) -> Rect {
        Rect {
            top: self.top,
            left: self.left,
            bottom: self.bottom,
            right: self.right,
        }
    }
}

/// Each board's value, and their total: the value of the sum `boards`.
fn values_and_total(
    solver: &mut ClearSolver,
    boards: &[Board],
) -> Result<(Vec<Nimber>, Nimber), SolveError> {
    let values = boards
        .iter()
        .map(|b| solver.value(b))
        .collect::<Result<Vec<_>, _>>()?;
    let total = values.iter().copied().sum();
    Ok((values, total))
}

/// The total value reached by every legal move of the sum `boards`, or by
/// `limit` of them spread evenly over the move order when there are more.
///
/// # Errors
///
/// [`SolveError`] when the solver's budget runs out.
pub fn move_values(
    solver: &mut ClearSolver,
    boards: &[Board],
    limit: usize,
) -> Result<MoveValues<MoveReport>, SolveError> {
    let (values, total) = values_and_total(solver, boards)?;
    let mut all = Vec::new();
    for (index, board) in boards.iter().enumerate() {
        board.for_each_rect(|rect, _| all.push((index, rect)));
    }
    let moves_total = all.len();
    let chosen = spread(all, limit);
    let several = boards.len() > 1;
    let mut moves = Vec::with_capacity(chosen.len());
    for (index, rect) in chosen {
        let after = boards[index].play_unchecked(rect);
        let reached = total ^ values[index] ^ solver.value(&after)?;
        moves.push(ValuedMove::new(
            MoveReport::new(index, rect),
            &words::clear_move(several.then_some(index), rect),
            reached.value(),
        ));
    }
    Ok(MoveValues::new(moves, moves_total))
}

/// A move chosen by [`engine_move`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineMove {
    /// The board it is played on.
    pub board: usize,
    /// The rectangle cleared.
    pub rect: Rect,
    /// That board after the move.
    pub after: Board,
    /// The total value after the move: 0 when the move wins.
    pub total_after: Nimber,
}

/// The computer player's move in the sum `boards`, or `None` when there is no
/// legal move (the player to move has lost).
///
/// Facing a non-zero total it plays the first winning move. Facing zero it
/// has no winning move and, as every game's engine does
/// ([`words::PLAY_OUT_HEADER`]), plays the move leaving the largest value,
/// the hardest to answer by hand; among those the smallest rectangle (it
/// keeps the game long, giving the opponent the most chances to go wrong),
/// then the first in move order.
///
/// # Errors
///
/// [`SolveError`] when the solver's budget runs out.
pub fn engine_move(
    solver: &mut ClearSolver,
    boards: &[Board],
) -> Result<Option<EngineMove>, SolveError> {
    let (values, total) = values_and_total(solver, boards)?;
    if !total.is_zero() {
        for (index, board) in boards.iter().enumerate() {
            let target = values[index] ^ total;
            if let Some((rect, after)) = solver.moves_to(board, target)?.into_iter().next() {
                return Ok(Some(EngineMove {
                    board: index,
                    rect,
                    after,
                    total_after: Nimber::ZERO,
                }));
            }
        }
    }
    let mut best: Option<(usize, EngineMove)> = None;
    for (index, board) in boards.iter().enumerate() {
        for (rect, after, value) in solver.options_with_values(board)? {
            let leaves = value ^ values[index] ^ total;
            let better = match &best {
                None => true,
                Some((area, chosen)) => {
                    leaves > chosen.total_after
                        || (leaves == chosen.total_after && rect.area() < *area)
                }
            };
            if better {
                best = Some((
                    rect.area(),
                    EngineMove {
                        board: index,
                        rect,
                        after,
                        total_after: leaves,
                    },
                ));
            }
        }
    }
    Ok(best.map(|(_, chosen)| chosen))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::{brute, small_board};
    use grundy::clear::large::{Part, WinReason};
    use proptest::prelude::*;
    use std::time::Duration;

    /// Checks a partial analysis of `boards`, whose value is `total`,
    /// against brute force.
    fn check_partial(
        boards: &[Board],
        analysis: &LargeAnalysis,
        total: Nimber,
    ) -> Result<(), TestCaseError> {
        if let Some(value) = analysis.value {
            prop_assert_eq!(value, total);
        }
        if let Some(first) = analysis.first_player_wins {
            prop_assert_eq!(first, !total.is_zero());
        }
        for (index, class) in analysis.classes.iter().enumerate() {
            if let (Some(value), Part::Small(shape)) =
                (class.value, analysis.part(class.first as usize))
            {
                prop_assert_eq!(value, brute(&shape), "class {}", index);
            }
        }
        for m in &analysis.winning {
            let board = analysis.components[m.component as usize].board as usize;
            let after = LargeBoard::from_board(&boards[board])
                .try_play(m.rect)
                .unwrap();
            let reached = total ^ brute(&boards[board]) ^ brute(&after.to_board().unwrap());
            prop_assert!(reached.is_zero(), "{:?} leaves {}", m, reached);
        }
        if analysis.stopped.is_none() {
            prop_assert!(analysis.value.is_some() && analysis.winning_complete);
        }
        Ok(())
    }

    /// A value search that goes on after the outcome search and stops
    /// again is reported by the budget that stopped it last: the time when
    /// the clock ran out again (the first stop, the whole time budget),
    /// else the budget that would still stop it with more time, worded as
    /// the user's.
    #[test]
    fn a_resumed_search_names_the_budget_that_stopped_it_last() {
        let budget = Budget {
            max_positions: Some(1000),
            max_time: Some(Duration::from_secs(2)),
            max_memory: Some(1 << 20),
        };
        let first = SolveError::TimeBudget {
            limit: Duration::from_secs(2),
        };
        let again = SolveError::TimeBudget {
            limit: Duration::from_millis(300),
        };
        assert_eq!(resumed_stop(first.clone(), again, budget), first);
        let positions = SolveError::PositionBudget {
            limit: 400,
            needed: None,
        };
        assert_eq!(
            resumed_stop(first.clone(), positions, budget),
            SolveError::PositionBudget {
                limit: 1000,
                needed: None
            }
        );
        let memory = SolveError::MemoryBudget {
            limit: 1 << 20,
            used: 3 << 19,
        };
        assert_eq!(resumed_stop(first, memory.clone(), budget), memory);
    }

    /// A dense block past a position budget: the value search stops, and
    /// the outcome search still proves a winning move, which the solver
    /// confirms leaves value 0.
    #[test]
    fn a_stopped_analysis_still_proves_a_winning_move() {
        let rows = [
            "1111110", "1111110", "1111100", "0111000", "0111000", "0111000", "0111000",
        ];
        let board = grundy_parse_rows(&rows);
        let mut solver = grundy::clear::Clear::solver();
        let partial = Analysis::of_or_partial(&mut solver, &[board], Budget::positions(20_000))
            .expect_err("the value is past 20,000 positions");
        let analysis = &partial.analysis;
        assert!(analysis.stopped.is_some());
        assert_eq!(analysis.first_player_wins, Some(true));
        let [found] = analysis.winning.as_slice() else {
            panic!("one winning move: {:?}", analysis.winning)
        };
        assert_eq!(found.reason, WinReason::LeavesZero);
        let after = LargeBoard::from_board(&board).try_play(found.rect).unwrap();
        let value = grundy::clear::Clear::solver().value(&after.to_board().unwrap());
        assert!(value.unwrap().is_zero());
    }

    /// Boards whose value search stops and whose outcome search proves the
    /// position lost: the analysis is then complete, value 0, as brute force
    /// says. The first three found among the 3 x 4 boards and small budgets,
    /// so that the path is taken.
    #[test]
    fn an_outcome_search_can_complete_a_stopped_analysis() {
        let mut completed = 0;
        for (bits, positions) in (0..1u64 << 12).flat_map(|bits| (1..12).map(move |p| (bits, p))) {
            let board = Board::new(3, 4, bits).unwrap();
            let mut solver = grundy::clear::Clear::without_known_values().into_solver();
            if let Err(partial) =
                Analysis::of_or_partial(&mut solver, &[board], Budget::positions(positions))
            {
                let total = brute(&board);
                check_partial(&[board], &partial.analysis, total).unwrap();
                if partial.analysis.stopped.is_none() {
                    assert!(total.is_zero());
                    completed += 1;
                    if completed == 3 {
                        break;
                    }
                }
            }
        }
        assert_eq!(completed, 3, "stopped analyses completed by outcome search");
    }

    fn grundy_parse_rows(rows: &[&str]) -> Board {
        crate::parse::clear::parse_board_rows(rows).unwrap()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Every move's reported value is the brute-force value of the sum
        /// after it; sampling keeps `limit` distinct moves.
        #[test]
        fn move_values_match_brute_force(boards in proptest::collection::vec(small_board(), 1..3), limit in 1usize..30) {
            let brute_values: Vec<Nimber> = boards.iter().map(brute).collect();
            let total: Nimber = brute_values.iter().copied().sum();
            let mut solver = grundy::clear::Clear::solver();
            let values = move_values(&mut solver, &boards, limit).unwrap();
            prop_assert!(values.moves.len() <= limit);
            for m in &values.moves {
                let several = boards.len() > 1;
                let phrase = words::clear_move(several.then_some(m.mv.board), m.mv.rect());
                prop_assert_eq!(&m.text, &words::leaving(&phrase, m.grundy));
            }
            prop_assert_eq!(values.moves_complete, values.moves_total <= limit);
            let distinct: std::collections::HashSet<_> = values.moves.iter().map(|m| m.mv).collect();
            prop_assert_eq!(distinct.len(), values.moves.len());
            prop_assert_eq!(values.moves.len(), values.moves_total.min(limit));
            for m in &values.moves {
                let after = boards[m.mv.board].try_play(m.mv.rect()).unwrap();
                let expected = total ^ brute_values[m.mv.board] ^ brute(&after);
                prop_assert_eq!(m.grundy, expected.value());
            }
            let analysis = Analysis::of(&mut solver, &boards).unwrap();
            prop_assert_eq!(analysis.total, total);
        }

        /// Under any position budget, with or without a short time budget
        /// (so that, by the clock, the value search may resume after the
        /// outcome search or not), an analysis that stops says only what is
        /// true: its values, its winner and its winning moves agree with
        /// brute force, and one that the outcome search completed has the
        /// value.
        #[test]
        fn partial_analyses_agree_with_brute_force(
            boards in proptest::collection::vec(small_board(), 1..3),
            positions in 1u64..60,
            micros in proptest::option::of(0u64..2000),
        ) {
            let total: Nimber = boards.iter().map(brute).sum();
            let mut solver = grundy::clear::Clear::without_known_values().into_solver();
            let budget = Budget {
                max_time: micros.map(std::time::Duration::from_micros),
                ..Budget::positions(positions)
            };
            match Analysis::of_or_partial(&mut solver, &boards, budget) {
                Ok(analysis) => prop_assert_eq!(analysis.total, total),
                Err(partial) => check_partial(&boards, &partial.analysis, total)?,
            }
        }

        /// The engine's move is legal, and wins whenever a win exists.
        #[test]
        fn engine_move_is_legal_and_wins_when_it_can(boards in proptest::collection::vec(small_board(), 1..3)) {
            let total: Nimber = boards.iter().map(brute).sum();
            let mut solver = grundy::clear::Clear::solver();
            match engine_move(&mut solver, &boards).unwrap() {
                None => prop_assert!(boards.iter().all(|b| b.cells().is_empty())),
                Some(chosen) => {
                    let after = boards[chosen.board].try_play(chosen.rect).unwrap();
                    prop_assert_eq!(after, chosen.after);
                    let mut next = boards.clone();
                    next[chosen.board] = after;
                    let reached: Nimber = next.iter().map(brute).sum();
                    prop_assert_eq!(reached, chosen.total_after);
                    prop_assert_eq!(reached.is_zero(), !total.is_zero());
                }
            }
        }
    }
}
