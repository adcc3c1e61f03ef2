//! The engine's move on a board of any size: always a legal move, and a
//! word on whether it is proven.
//!
//! **Moves proven by pairs.** After a move, if every class of components
//! is met an even number of times, the position is a sum of games `X ⊕ X`
//! and its value is 0, whatever the values are: the move wins. Candidates
//! are found without search and each is checked by labelling what it
//! leaves ([`leaves_pairs`]):
//! - *halving*: a shape left alone (every other class cancels) that is its
//!   own mirror image across its middle row (or column) loses that row (the
//!   middle two when the height is even) when those rows are one rectangle
//!   of ones. No cell of one half then touches the other, and the mirror
//!   maps each component of one half onto one of the other. On a full
//!   `a x b` board this is the middle row or column: a proof on every size,
//!   though full boards' values are unknown past 6 x 6;
//! - *mirroring*: after a reply in one of two equal shapes, the largest
//!   shape left alone is matched against the others placed in it under
//!   each of the 8 symmetries; where they cover it but for one rectangle,
//!   clearing that rectangle restores the pairs, and where they cover it
//!   but for a few cells (the reply's image beside the images of pieces
//!   it cut off, whose classes are met elsewhere too), one of the
//!   rectangles of those cells does. So after a halving move
//!   the engine answers every reply at once, on any size.
//!
//! **Moves proven by a half turn.** When the shapes that do not cancel lie
//! on one board and past 64 cells together, a move that leaves them their
//! own image under a half turn about a point no rectangle of ones covers
//! wins ([`half_turn_move`], [`half_turn`]): a ring with one side thickened
//! loses the extra row, and each reply after it is answered by its image.
//!
//! **Moves proven by outcomes.** When one class does not cancel (a board of
//! one component, say), the total is that shape's value, and a move in it
//! to a shape of value 0 wins. The outcome search
//! ([`Solver::move_to_zero`](crate::Solver::move_to_zero)) looks for one
//! such move and stops at the first, where a value needs every option's: a
//! dense 7 x 7 block is answered in milliseconds where its value takes
//! seconds or minutes. No such move proves the position lost.
//!
//! **Moves proven by values.** Otherwise the classes that do not cancel are
//! valued within the budget; a non-zero total gives a move to 0 in some
//! component (v → v ⊕ V), a zero total proves the position lost.
//!
//! **Unproven.** When the budget runs out first, the engine still plays:
//! the rectangle that halves the largest shape left alone if it has one,
//! else the move of that shape leaving the fewest unpaired cells among
//! the first ones tried (a move whose total after is known and not 0 last:
//! it is known to lose), else, with no time left to try moves, that
//! shape's first cell; it says which ([`Guess`]) and what it could not
//! prove.

use std::collections::HashSet;

use rustc_hash::FxHashSet;

use super::analysis::{
    class_of, classify_until, known_values, lone_outcome, parts_after, value_unpaired, Analyzer,
    LargeAnalysis, LargeWinningMove, WinReason,
};
use super::game::{Part, ShapeClass};
use super::grid::{Extent, LargeBoard, LargeRect, Run};
use super::half_turn;
use crate::{Nimber, SolveError};

/// Why the engine chose its move.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MoveReason {
    /// The move wins: it changes a component's value so the total is 0.
    Values {
        /// The component's value.
        before: Nimber,
        /// Its value after the move.
        after: Nimber,
        /// The board's value before the move.
        total: Nimber,
    },
    /// The move wins: the one shape whose copies do not cancel goes to
    /// value 0, found by outcome search (every move from there has an
    /// answer back to 0), without the values.
    LeavesZero,
    /// The move wins: the shapes it leaves and the other shapes that do not
    /// cancel all have known values, whose XOR is 0 (the value of the
    /// shape it is played in was not needed, nor found).
    KnownTotal,
    /// The move wins: what it leaves of the shapes that do not cancel is
    /// its own half turn about a point no rectangle of ones covers, so
    /// every reply has its image as an answer
    /// ([`half_turn`]).
    HalfTurn,
    /// The move wins: every component left has a congruent partner.
    Pairs {
        /// It cut one shape into two mirror-image halves.
        halves: bool,
        /// It cleared every one: no component is left at all.
        clears_all: bool,
    },
    /// Every move loses (the value is 0); this one leaves the largest value
    /// (when the values of the options were found) or keeps the largest
    /// shape whole.
    Losing {
        /// The value the move leaves, when it was computed.
        leaves: Option<Nimber>,
    },
    /// The budget ran out before a proof.
    Unproven {
        /// Classes valued out of those that do not cancel.
        valued: usize,
        /// Classes that do not cancel.
        unpaired: usize,
        /// Cells of the largest shape left alone.
        largest: u64,
        /// The budget that ran out.
        stopped: Option<SolveError>,
        /// How the move was chosen.
        guess: Guess,
    },
    /// The budget refused the analysis itself (the boards need more
    /// memory to label than it allows): a legal move, found without one.
    Unanalysed {
        /// The budget that refused it.
        stopped: SolveError,
    },
}

/// How an unproven move was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Guess {
    /// The rectangle across the middle of the largest shape left alone,
    /// which cuts it into two halves.
    Halves,
    /// Among the first moves of the largest shape left alone, the one
    /// leaving the fewest unpaired cells.
    FewestUnpaired,
    /// No time was left to try moves: the first cell of the largest shape
    /// left alone.
    FirstCell,
    /// In the one shape that does not cancel, the first move its search
    /// did not show to lose before the budget ran out (its memos read, no
    /// search: [`crate::Solver::move_not_shown_to_lose`]).
    NotShownToLose {
        /// The moves the search showed to lose.
        refuted: usize,
        /// The shape's moves.
        moves: usize,
    },
}

/// The engine's move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineChoice {
    /// The board it is played on (0-based).
    pub board: u32,
    /// The rectangle to clear, in board coordinates.
    pub rect: LargeRect,
    /// The component it is played in (an index into the analysis'
    /// components).
    pub component: u32,
    /// Why this move.
    pub reason: MoveReason,
}

impl EngineChoice {
    /// True when the move is proven best: it wins, or the position is lost
    /// whatever is played.
    #[must_use]
    pub fn proven(&self) -> bool {
        !matches!(
            self.reason,
            MoveReason::Unproven { .. } | MoveReason::Unanalysed { .. }
        )
    }

    /// True when the move is proven to win.
    #[must_use]
    pub fn wins(&self) -> bool {
        matches!(
            self.reason,
            MoveReason::Values { .. }
                | MoveReason::LeavesZero
                | MoveReason::KnownTotal
                | MoveReason::HalfTurn
                | MoveReason::Pairs { .. }
        )
    }
}

/// A legal move found without an analysis (no labelling, no search, no
/// memory beyond the boards): when the ones of all the boards form one
/// rectangle, that rectangle, cleared whole (a proven win: the opponent
/// cannot move); otherwise the first run of ones of the first board that
/// has one, cleared whole. What the engine plays when `stopped` refused
/// the analysis itself; `None` when no board has a one.
#[must_use]
pub fn unanalysed_move(boards: &[LargeBoard], stopped: SolveError) -> Option<EngineChoice> {
    if let Some((index, rect)) = one_rectangle(boards) {
        return Some(EngineChoice {
            board: index as u32,
            rect,
            component: 0,
            reason: MoveReason::Pairs {
                halves: false,
                clears_all: true,
            },
        });
    }
    for (index, board) in boards.iter().enumerate() {
        for row in 0..board.rows() {
            let mut first = None;
            board.for_each_run(row, |start, end| {
                first.get_or_insert((start, end));
            });
            if let Some((start, end)) = first {
                return Some(EngineChoice {
                    board: index as u32,
                    rect: LargeRect {
                        top: row,
                        left: start,
                        bottom: row,
                        right: end - 1,
                    },
                    component: 0,
                    reason: MoveReason::Unanalysed { stopped },
                });
            }
        }
    }
    None
}

/// The board and the rectangle of the ones of `boards` when they fill one
/// rectangle of one board, in one pass over the runs.
fn one_rectangle(boards: &[LargeBoard]) -> Option<(usize, LargeRect)> {
    let mut found: Option<(usize, LargeRect)> = None;
    let mut ones = 0u64;
    for (index, board) in boards.iter().enumerate() {
        for row in 0..board.rows() {
            let mut runs = 0u32;
            let mut clash = false;
            board.for_each_run(row, |start, end| {
                runs += 1;
                ones += u64::from(end - start);
                match &mut found {
                    None => {
                        found = Some((
                            index,
                            LargeRect {
                                top: row,
                                left: start,
                                bottom: row,
                                right: end - 1,
                            },
                        ));
                    }
                    Some((at, rect)) => {
                        clash |= *at != index || rect.left != start || rect.right != end - 1;
                        rect.bottom = row;
                    }
                }
            });
            if clash || runs > 1 {
                return None;
            }
        }
    }
    let (index, rect) = found?;
    (rect.area() == ones).then_some((index, rect))
}

/// How many unpaired shapes the pair search looks at: past that, a single
/// move cannot pair everything and values decide.
const MAX_UNPAIRED_FOR_PAIRS: usize = 64;

/// How many placements of the other shapes the mirror search tries in the
/// largest one, over the 8 symmetries.
const MAX_PLACEMENTS: usize = 4096;

/// The engine's move on `board`, or `None` when it has no ones (the player
/// to move has lost). Runs within `analyzer`'s budget and always answers.
#[must_use]
pub fn choose_move(boards: &[LargeBoard], analyzer: &mut Analyzer) -> Option<EngineChoice> {
    analyzer.start();
    let Some(mut analysis) = classify_until(boards, || analyzer.halted()) else {
        // Labelling and grouping millions of components spent the budget:
        // a legal move that needs neither.
        return unanalysed_move(boards, analyzer.halt_error());
    };
    if analysis.components.is_empty() {
        return None;
    }
    // What tables and closed forms know at once: with them, the others of a
    // shape left alone may cancel by their values.
    known_values(&mut analysis, analyzer);
    if analysis.unpaired().all(|class| class.value.is_some()) {
        // Every value the total needs is known, so no search runs here: a
        // total of 0 is a lost position, proven now, and no search for a
        // winning move (which has none to find) spends the budget.
        value_unpaired(&mut analysis, analyzer);
        if analysis.value.is_some_and(Nimber::is_zero) {
            return Some(losing_move(&mut analysis, analyzer));
        }
    }
    if let Some(found) = cancelling_move(&analysis, analyzer) {
        let WinReason::Pairs { halves } = found.reason else {
            unreachable!("cancelling moves win by pairs")
        };
        return Some(EngineChoice {
            board: analysis.components[found.component as usize].board,
            rect: found.rect,
            component: found.component,
            reason: MoveReason::Pairs {
                halves,
                clears_all: found.rect.area() == analysis.ones(),
            },
        });
    }
    if let Some(choice) = restoring_move(&mut analysis, analyzer) {
        return Some(choice);
    }
    if let Some(found) = half_turn_move(&analysis, analyzer) {
        return Some(EngineChoice {
            board: analysis.components[found.component as usize].board,
            rect: found.rect,
            component: found.component,
            reason: MoveReason::HalfTurn,
        });
    }
    if let Some(choice) = lone_shape_move(&mut analysis, analyzer) {
        return Some(choice);
    }
    if analysis.stopped.is_some() {
        // The outcome search ran out: a value search costs more.
        return Some(unproven_move(&analysis, analyzer));
    }
    value_unpaired(&mut analysis, analyzer);
    match analysis.value {
        Some(total) if !total.is_zero() => {
            if let Some(choice) = winning_by_values(&mut analysis, analyzer, total) {
                return Some(choice);
            }
        }
        Some(_) => return Some(losing_move(&mut analysis, analyzer)),
        None => {}
    }
    Some(unproven_move(&analysis, analyzer))
}

/// When a single class does not cancel, the total is that shape's value:
/// a move in it to value 0 wins, and none exists exactly when the total is
/// 0. The outcome search finds such a move without the values (see the
/// module docs). `None` when more than one class is left, or when the
/// budget ran out (noted in the analysis); a lost position is played by
/// [`losing_move`].
fn lone_shape_move(analysis: &mut LargeAnalysis, analyzer: &mut Analyzer) -> Option<EngineChoice> {
    match lone_outcome(analysis, analyzer) {
        Some(found) => Some(EngineChoice {
            board: analysis.components[found.component as usize].board,
            rect: found.rect,
            component: found.component,
            reason: MoveReason::LeavesZero,
        }),
        // The outcome search found the lone shape lost: the total is 0.
        None if analysis.value.is_some_and(Nimber::is_zero) => {
            Some(losing_move(analysis, analyzer))
        }
        None => None,
    }
}

/// A winning move from the values: in the first component, smallest
/// first (then first on the board), whose value has the total's highest
/// bit. The components of a class share their value, so the classes are
/// ordered, each by its first component, rather than the components: a
/// board of 10^8 random cells has tens of millions of components, whose
/// sort alone takes seconds, and a few dozen classes of lines.
fn winning_by_values(
    analysis: &mut LargeAnalysis,
    analyzer: &mut Analyzer,
    total: Nimber,
) -> Option<EngineChoice> {
    let mut order: Vec<(u64, usize)> = analysis
        .classes
        .iter()
        .map(|class| (class.cells, class.first as usize))
        .collect();
    order.sort_unstable();
    for (_, index) in order {
        let info = analysis.components[index];
        let class = info.class as usize;
        let before = match analysis.classes[class].value {
            Some(value) => value,
            None => {
                let part = analysis.part(index);
                match analyzer.value(&part) {
                    Ok(value) => {
                        analysis.classes[class].value = Some(value);
                        value
                    }
                    Err(err) => {
                        analysis.stopped.get_or_insert(err);
                        return None;
                    }
                }
            }
        };
        let after = before ^ total;
        if after >= before {
            continue;
        }
        match analyzer.moves_to(&analysis.part(index), after) {
            Ok(moves) => {
                if let Some(rect) = moves.first() {
                    return Some(EngineChoice {
                        board: info.board,
                        rect: rect.offset(info.extent.top, info.extent.left),
                        component: index as u32,
                        reason: MoveReason::Values {
                            before,
                            after,
                            total,
                        },
                    });
                }
            }
            Err(err) => {
                analysis.stopped.get_or_insert(err);
                return None;
            }
        }
    }
    None
}

/// The move in a lost position: with the options' values, the one leaving
/// the largest value (then the smallest rectangle), as the small boards'
/// engine plays; without them, one cell of the largest component, which
/// keeps the most to play for. The options are valued only when every
/// component fits 64 cells: a shape past that lists a board of its own for
/// each of its options (a frame of 500 x 500 has about 10^6 of them), each
/// to value by a search, to choose among moves that all lose.
fn losing_move(analysis: &mut LargeAnalysis, analyzer: &mut Analyzer) -> EngineChoice {
    let total = analysis.value.unwrap_or(Nimber::ZERO);
    let mut best: Option<(Nimber, u64, LargeRect, u32)> = None;
    let all_small =
        (0..analysis.components.len()).all(|index| analysis.components[index].extent.fits_board());
    for index in (0..analysis.components.len()).filter(|_| all_small) {
        let info = analysis.components[index];
        // The classes that cancel were not valued for the total.
        let class = info.class as usize;
        let value = match analysis.classes[class].value {
            Some(value) => value,
            None => match analyzer.value(&analysis.part(index)) {
                Ok(value) => {
                    analysis.classes[class].value = Some(value);
                    value
                }
                Err(_) => {
                    best = None;
                    break;
                }
            },
        };
        match analyzer.options_with_values(&analysis.part(index)) {
            Ok(options) => {
                for (rect, after) in options {
                    let leaves = total ^ value ^ after;
                    let candidate = (leaves, rect.area(), rect, index as u32);
                    let better = best
                        .as_ref()
                        .is_none_or(|b| leaves > b.0 || (leaves == b.0 && rect.area() < b.1));
                    if better {
                        best = Some(candidate);
                    }
                }
            }
            Err(_) => {
                best = None;
                break;
            }
        }
    }
    if let Some((leaves, _, rect, index)) = best {
        let info = analysis.components[index as usize];
        return EngineChoice {
            board: info.board,
            rect: rect.offset(info.extent.top, info.extent.left),
            component: index,
            reason: MoveReason::Losing {
                leaves: Some(leaves),
            },
        };
    }
    let (index, rect) = first_cell_of_largest(analysis, |_| true);
    EngineChoice {
        board: analysis.components[index as usize].board,
        rect,
        component: index,
        reason: MoveReason::Losing { leaves: None },
    }
}

/// The first cell of the largest component among those `keep` accepts (any
/// when it accepts none), in board coordinates.
fn first_cell_of_largest(
    analysis: &LargeAnalysis,
    keep: impl Fn(usize) -> bool,
) -> (u32, LargeRect) {
    let largest = |filter: &dyn Fn(usize) -> bool| {
        (0..analysis.components.len())
            .filter(|&i| filter(i))
            .max_by_key(|&i| (analysis.components[i].extent.cells, std::cmp::Reverse(i)))
    };
    let index = largest(&keep)
        .or_else(|| largest(&|_| true))
        .expect("the board has a component");
    let run = analysis.component_runs(index)[0];
    let cell = LargeRect {
        top: run.row,
        left: run.start,
        bottom: run.row,
        right: run.start,
    };
    (index as u32, cell)
}

/// The move when no proof was found in the budget: halve the largest
/// unpaired shape when it has a middle band, else clear the move among the
/// first tried that leaves the fewest unpaired cells.
fn unproven_move(analysis: &LargeAnalysis, analyzer: &mut Analyzer) -> EngineChoice {
    let unpaired: Vec<&super::analysis::ClassInfo> = analysis.unpaired().collect();
    let reason = |guess| MoveReason::Unproven {
        valued: unpaired.iter().filter(|c| c.value.is_some()).count(),
        unpaired: unpaired.len(),
        largest: unpaired.iter().map(|c| c.cells).max().unwrap_or(0),
        stopped: analysis.stopped.clone(),
        guess,
    };
    let lone = |i: usize| !analysis.classes[analysis.components[i].class as usize].cancels();
    let (index, cell) = first_cell_of_largest(analysis, lone);
    let info = analysis.components[index as usize];
    let part = analysis.part(index as usize);
    if let Part::Large(shape) = &part {
        if let Some(rect) = band_moves(shape).into_iter().next() {
            return EngineChoice {
                board: info.board,
                rect: rect.offset(info.extent.top, info.extent.left),
                component: index,
                reason: reason(Guess::Halves),
            };
        }
    }
    // One shape that does not cancel is the whole game: what its search
    // showed of its moves before the budget ran out (a lookup a move, no
    // search) beats a move chosen blind, and may even prove one.
    if unpaired.len() == 1 {
        if let Some((rect, shown)) = analyzer.move_not_shown_to_lose(&part) {
            let reason = if shown.wins {
                MoveReason::LeavesZero
            } else if shown.refuted == shown.moves {
                // Every option is known not to be 0: the shape is.
                MoveReason::Losing { leaves: None }
            } else {
                reason(Guess::NotShownToLose {
                    refuted: shown.refuted,
                    moves: shown.moves,
                })
            };
            return EngineChoice {
                board: info.board,
                rect: rect.offset(info.extent.top, info.extent.left),
                component: index,
                reason,
            };
        }
    }
    if analyzer.halted() {
        // No time to rank moves: the set of unpaired classes alone takes
        // a third of a second with hundreds of thousands of them.
        return EngineChoice {
            board: info.board,
            rect: cell,
            component: index,
            reason: reason(Guess::FirstCell),
        };
    }
    // Few unpaired cells left for the opponent: among the first moves of
    // the shape (bounded), the one whose parts pair best with the rest.
    // The unpaired classes by reference (a board of 10^8 random cells has
    // about 850,000 of them: no key is cloned) and their cells in all.
    let odd: FxHashSet<&ShapeClass> = analysis.unpaired().map(|c| &c.key).collect();
    let odd_cells: u64 = analysis.unpaired().map(|c| c.cells).sum();
    let own = class_of(&part);
    let own_cells = part.count_ones();
    // The total of the other unpaired shapes, when each is valued: a move
    // whose pieces are all known then leaves a known total: 0 is a proven
    // win, played at once; one that leaves a non-zero total is known to
    // lose (ranked after every other).
    let others = analysis
        .unpaired()
        .filter(|c| c.key != own)
        .try_fold(Nimber::ZERO, |total, c| c.value.map(|v| total ^ v));
    let mut best: Option<((bool, u64), LargeRect)> = None;
    let mut wins = None;
    let (mut tried, mut ranked) = (0usize, 0usize);
    for_each_rect_of(&part, &mut |rect| {
        tried += 1;
        if tried > 2048 || analyzer.halted() {
            return false;
        }
        ranked += 1;
        let total = others.and_then(|others| {
            parts_after(&part, rect)
                .iter()
                .try_fold(others, |total, piece| {
                    analyzer.known_value(piece).map(|v| total ^ v)
                })
        });
        if total.is_some_and(|total| total.is_zero()) {
            wins = Some(rect);
            return false;
        }
        let rank = (
            total.is_some(),
            unpaired_cells_after(&odd, odd_cells, (&own, own_cells), &part, rect),
        );
        if best.is_none_or(|(best, _)| rank < best) {
            best = Some((rank, rect));
        }
        true
    });
    let offset = |rect: LargeRect| rect.offset(info.extent.top, info.extent.left);
    if let Some(rect) = wins {
        return EngineChoice {
            board: info.board,
            rect: offset(rect),
            component: index,
            reason: MoveReason::KnownTotal,
        };
    }
    // One move ranked is no ranking: the budget ran out at once.
    let (rect, guess) = match best {
        Some((_, rect)) if ranked > 1 => (offset(rect), Guess::FewestUnpaired),
        _ => (cell, Guess::FirstCell),
    };
    EngineChoice {
        board: info.board,
        rect,
        component: index,
        reason: reason(guess),
    }
}

fn for_each_rect_of(part: &Part, visit: &mut dyn FnMut(LargeRect) -> bool) {
    match part {
        // At most 64 cells: a few hundred rectangles, listed whole.
        Part::Small(board) => {
            let mut going = true;
            board.for_each_rect(|rect, _| {
                if going {
                    going = visit(LargeRect::from(rect));
                }
            });
        }
        Part::Large(board) => {
            board.for_each_rect_while(visit);
        }
    }
}

/// The classes met an odd number of times, with one cell count each.
fn odd_classes(analysis: &LargeAnalysis) -> HashSet<ShapeClass> {
    analysis.unpaired().map(|c| c.key.clone()).collect()
}

fn toggle(set: &mut HashSet<ShapeClass>, key: ShapeClass) {
    if !set.remove(&key) {
        set.insert(key);
    }
}

/// The cells in classes met an odd number of times after `rect` is cleared
/// in `part` (a component of class `own`, with its cells), given the
/// classes `odd` met an odd number of times before and their `odd_cells`:
/// each class the move toggles (its own, and each piece's) an odd number of
/// times adds its cells when it was paired and takes them away when it was
/// not; the set itself is not copied.
fn unpaired_cells_after(
    odd: &FxHashSet<&ShapeClass>,
    odd_cells: u64,
    (own, own_cells): (&ShapeClass, u64),
    part: &Part,
    rect: LargeRect,
) -> u64 {
    // The classes toggled, each with its cells and whether it flips.
    let mut toggled: Vec<(ShapeClass, u64, bool)> = vec![(own.clone(), own_cells, true)];
    for piece in parts_after(part, rect) {
        let key = class_of(&piece);
        match toggled.iter_mut().find(|(k, _, _)| *k == key) {
            Some(entry) => entry.2 = !entry.2,
            None => toggled.push((key, piece.count_ones(), true)),
        }
    }
    toggled
        .iter()
        .filter(|(_, _, flips)| *flips)
        .fold(odd_cells, |cells, (key, count, _)| {
            if odd.contains(key) {
                cells - count
            } else {
                cells + count
            }
        })
}

/// True when clearing `rect` (in the component's own coordinates) in
/// `part`, a component of class `own`, leaves every class an even number
/// of times, given the classes `odd` met an odd number of times before.
#[must_use]
pub fn leaves_pairs(
    odd: &HashSet<ShapeClass>,
    own: &ShapeClass,
    part: &Part,
    rect: LargeRect,
) -> bool {
    let mut odd = odd.clone();
    toggle(&mut odd, own.clone());
    for piece in parts_after(part, rect) {
        toggle(&mut odd, class_of(&piece));
    }
    odd.is_empty()
}

/// A winning move found by pairs alone (see the module docs), in board
/// coordinates; `None` when none was found.
pub fn cancelling_move(
    analysis: &LargeAnalysis,
    analyzer: &mut Analyzer,
) -> Option<LargeWinningMove> {
    // Counted before the set is made: a board of 10^8 random cells leaves
    // about 850,000 shapes unpaired, whose set takes a second to hash.
    if analysis.unpaired().nth(MAX_UNPAIRED_FOR_PAIRS).is_some() {
        return None;
    }
    let odd = odd_classes(analysis);
    if odd.is_empty() {
        return None;
    }
    // One component of each odd class: the first.
    let mut lone: Vec<usize> = analysis
        .unpaired()
        .map(|c| c.first as usize)
        .collect::<Vec<_>>();
    lone.sort_by_key(|&i| std::cmp::Reverse(analysis.components[i].extent.cells));
    let largest = lone[0];
    let info = analysis.components[largest];
    let part = analysis.part(largest);
    let own = class_of(&part);
    let found = |rect: LargeRect, halves: bool| LargeWinningMove {
        rect: rect.offset(info.extent.top, info.extent.left),
        component: largest as u32,
        reason: WinReason::Pairs { halves },
    };
    let shape = match &part {
        Part::Small(board) => LargeBoard::from_board(board),
        Part::Large(board) => LargeBoard::clone(board),
    };
    if lone.len() == 1 {
        let whole = LargeRect {
            top: 0,
            left: 0,
            bottom: shape.rows() - 1,
            right: shape.cols() - 1,
        };
        if shape.is_legal(whole) {
            return Some(found(whole, false));
        }
        for rect in band_moves(&shape) {
            if leaves_pairs(&odd, &own, &part, rect) {
                return Some(found(rect, true));
            }
        }
        return None;
    }
    if analyzer.halted() {
        return None;
    }
    // The others in one frame: only when they are on the largest's board
    // (a reply in one of two equal shapes stays on its board).
    if lone[1..]
        .iter()
        .any(|&i| analysis.components[i].board != info.board)
    {
        return None;
    }
    let others: Vec<Run> = lone[1..]
        .iter()
        .flat_map(|&i| analysis.component_runs(i).iter().copied())
        .collect();
    let mut accept = |rect: LargeRect| leaves_pairs(&odd, &own, &part, rect);
    if let Some(rect) = mirror_reply(&shape, &others, &mut accept, &|| analyzer.halted()) {
        return Some(found(rect, false));
    }
    // The others' classes may be met elsewhere too, so the instance taken
    // above may not be the reply's piece: try every rectangle of the area
    // the reply must have, by classes alone.
    let others_cells: u64 = lone[1..]
        .iter()
        .map(|&i| analysis.components[i].extent.cells)
        .sum();
    let area = info.extent.cells.checked_sub(others_cells)?;
    RectsByArea::new(&shape)
        .find(area, analyzer, &mut accept)
        .map(|rect| found(rect, false))
}

/// A winning move after a reply in one of two equal shapes where shapes of
/// known values cancel by their values beside the pairs (lines of 1, 5, 9
/// and 13 cells, whose XOR is 0): the other shapes of unknown value that
/// do not cancel are placed in the largest one as [`cancelling_move`]
/// places them, and a rectangle of what they leave is the move when what
/// does not cancel after it has known values whose XOR is 0. `None` when
/// every shape that does not cancel has an unknown value (then
/// [`cancelling_move`] has looked), or none is found.
fn restoring_move(analysis: &mut LargeAnalysis, analyzer: &mut Analyzer) -> Option<EngineChoice> {
    // Counted before the set is made, as in `cancelling_move`.
    if analysis.unpaired().nth(MAX_UNPAIRED_FOR_PAIRS).is_some() || analyzer.halted() {
        return None;
    }
    let odd = odd_classes(analysis);
    // The small shapes that do not cancel, valued first (a search of a few
    // milliseconds each, which the values' route would make anyway): what
    // cancels by values is often a shape no table holds.
    for class in 0..analysis.classes.len() {
        let info = &analysis.classes[class];
        if info.cancels() || info.value.is_some() || info.cells > SMALL_VALUED_CELLS {
            continue;
        }
        let part = analysis.part(info.first as usize);
        match analyzer.value(&part) {
            Ok(value) => analysis.classes[class].value = Some(value),
            Err(_) => return None,
        }
    }
    let analysis = &*analysis;
    let mut lone: Vec<usize> = analysis.unpaired().map(|c| c.first as usize).collect();
    lone.sort_by_key(|&i| std::cmp::Reverse(analysis.components[i].extent.cells));
    let valued = |i: usize| {
        analysis
            .classes
            .iter()
            .any(|c| c.first as usize == i && c.value.is_some())
    };
    // Some shape that does not cancel is valued (else `cancelling_move`
    // has looked); the move is played in the largest of unknown value (a
    // larger one of known value, such as a shape that is its own half
    // turn, stays as it is).
    if lone.len() < 2 || lone.iter().all(|&i| !valued(i)) {
        return None;
    }
    let largest = *lone.iter().find(|&&i| !valued(i))?;
    lone.retain(|&i| i != largest);
    let info = analysis.components[largest];
    let on_board = |i: &usize| analysis.components[*i].board == info.board;
    let known: std::collections::HashMap<&ShapeClass, Nimber> = analysis
        .classes
        .iter()
        .filter_map(|c| Some((&c.key, c.value?)))
        .collect();
    let part = analysis.part(largest);
    let own = class_of(&part);
    let shape = match &part {
        Part::Small(board) => LargeBoard::from_board(board),
        Part::Large(board) => LargeBoard::clone(board),
    };
    // What the reply left of the partner: the other shapes of unknown
    // value together, or one of the largest others alone (valued or not).
    let unknown: Vec<usize> = lone.iter().copied().filter(|&i| !valued(i)).collect();
    let mut placings: Vec<Vec<usize>> = Vec::new();
    if !unknown.is_empty() && unknown.iter().all(on_board) {
        placings.push(unknown.clone());
    }
    for &i in lone
        .iter()
        .filter(|i| on_board(i))
        .take(MAX_SINGLE_PLACINGS)
    {
        if unknown != [i] {
            placings.push(vec![i]);
        }
    }
    let mut accept = |rect: LargeRect| {
        let mut left = odd.clone();
        toggle(&mut left, own.clone());
        for piece in parts_after(&part, rect) {
            toggle(&mut left, class_of(&piece));
        }
        left.iter()
            .try_fold(Nimber::ZERO, |total, key| Some(total ^ *known.get(key)?))
            .is_some_and(Nimber::is_zero)
    };
    // The reply's rectangle and the pieces it cut off are few cells: a
    // placing that leaves more is not tried (a small shape in a huge one
    // has thousands of places, each a pass over the huge one).
    let cells = |placed: &Vec<usize>| -> u64 {
        placed
            .iter()
            .map(|&i| analysis.components[i].extent.cells)
            .sum()
    };
    placings.retain(|placed| info.extent.cells.saturating_sub(cells(placed)) <= MAX_LEFTOVER_CELLS);
    let rect = placings.iter().find_map(|placed| {
        let others: Vec<Run> = placed
            .iter()
            .flat_map(|&i| analysis.component_runs(i).iter().copied())
            .collect();
        (!analyzer.halted())
            .then(|| mirror_reply(&shape, &others, &mut accept, &|| analyzer.halted()))?
    })?;
    Some(EngineChoice {
        board: info.board,
        rect: rect.offset(info.extent.top, info.extent.left),
        component: largest as u32,
        reason: MoveReason::KnownTotal,
    })
}

/// The most cells of a shape that does not cancel that [`restoring_move`]
/// values before it looks.
const SMALL_VALUED_CELLS: u64 = 24;

/// How many of the largest other shapes [`restoring_move`] places alone.
const MAX_SINGLE_PLACINGS: usize = 4;

/// A winning move that leaves the shapes that do not cancel (one of each
/// class met an odd number of times, all on one board), or else the whole
/// board, their own half turn about an uncovered point
/// ([`half_turn::winning_move`]), in board coordinates. Only where the outcome search cannot go: when those shapes
/// together do not fit a small board's 64 cells.
pub fn half_turn_move(analysis: &LargeAnalysis, analyzer: &Analyzer) -> Option<LargeWinningMove> {
    // Each try gathers the runs of the shapes into one board first (a
    // third of a second with millions of runs), so none starts past the
    // budget.
    if analyzer.halted() {
        return None;
    }
    let lone: Vec<usize> = analysis.unpaired().map(|c| c.first as usize).collect();
    half_turn_of(analysis, analyzer, &lone).or_else(|| {
        if analyzer.halted() {
            return None;
        }
        // A class met three times or more stands for itself by its first
        // instance, which need not be the one the mirror leaves alone (a
        // reply that cut off a lone cell beside two others): the whole
        // board, when it holds every component, is tried too.
        let all: Vec<usize> = (0..analysis.components.len()).collect();
        (all.len() > lone.len()).then_some(())?;
        half_turn_of(analysis, analyzer, &all)
    })
}

/// [`half_turn_move`] for the set of components `lone`, all on one board.
fn half_turn_of(
    analysis: &LargeAnalysis,
    analyzer: &Analyzer,
    lone: &[usize],
) -> Option<LargeWinningMove> {
    let board = analysis.components[*lone.first()?].board;
    if lone.iter().any(|&i| analysis.components[i].board != board) {
        return None;
    }
    let runs: Vec<Run> = lone
        .iter()
        .flat_map(|&i| analysis.component_runs(i).iter().copied())
        .collect();
    let extent = Extent::of(&runs);
    if extent.fits_board() {
        return None;
    }
    let set = LargeBoard::from_runs(&runs, &extent);
    let rect = half_turn::winning_move(&set, &|| analyzer.halted())?;
    let rect = rect.offset(extent.top, extent.left);
    // The component it is played in: the one holding its first cell.
    let component = *lone.iter().find(|&&i| {
        analysis
            .component_runs(i)
            .iter()
            .any(|run| run.row == rect.top && (run.start..run.end).contains(&rect.left))
    })?;
    Some(LargeWinningMove {
        rect,
        component: component as u32,
        reason: WinReason::HalfTurn,
    })
}

/// How many rectangles of ones the pairs search checks at most, over all
/// the areas it tries.
const MAX_AREA_CANDIDATES: usize = 20_000;

/// How many placements of a rectangle (all ones or not) the pairs search
/// looks at, over all the areas it tries: about a few tens of
/// milliseconds, on a shape of any size.
const MAX_AREA_PLACEMENTS: u64 = 1 << 24;

/// The rectangles of ones of one shape, by their area: a table of prefix
/// sums tells whether a rectangle is all ones in O(1).
struct RectsByArea<'a> {
    shape: &'a LargeBoard,
    sums: Vec<u32>,
    /// Rectangles of ones checked so far.
    tried: usize,
    /// Placements looked at so far.
    placed: u64,
}

impl<'a> RectsByArea<'a> {
    fn new(shape: &'a LargeBoard) -> Self {
        let (rows, cols) = (shape.rows() as usize, shape.cols() as usize);
        let width = cols + 1;
        let mut sums = vec![0u32; (rows + 1) * width];
        for r in 0..rows {
            for c in 0..cols {
                let one = u32::from(shape.get(r as u32, c as u32));
                sums[(r + 1) * width + c + 1] =
                    one + sums[r * width + c + 1] + sums[(r + 1) * width + c] - sums[r * width + c];
            }
        }
        RectsByArea {
            shape,
            sums,
            tried: 0,
            placed: 0,
        }
    }

    /// The first rectangle of ones with `area` cells that `accept` accepts,
    /// while the counts of the whole search stay within
    /// [`MAX_AREA_CANDIDATES`] and [`MAX_AREA_PLACEMENTS`], and within the
    /// budget's time.
    fn find(
        &mut self,
        area: u64,
        analyzer: &Analyzer,
        accept: &mut dyn FnMut(LargeRect) -> bool,
    ) -> Option<LargeRect> {
        let (rows, cols) = (u64::from(self.shape.rows()), u64::from(self.shape.cols()));
        if area == 0 || area > rows * cols {
            return None;
        }
        let width = cols as usize + 1;
        let sums = &self.sums;
        let ones = |top: usize, left: usize, h: usize, w: usize| {
            sums[(top + h) * width + left + w] + sums[top * width + left]
                - sums[top * width + left + w]
                - sums[(top + h) * width + left]
        };
        for h in 1..=rows.min(area) {
            if area % h != 0 || area / h > cols {
                continue;
            }
            let w = area / h;
            for top in 0..=(rows - h) as usize {
                // A row of placements at a time, then the budget.
                self.placed += cols - w + 1;
                if self.placed > MAX_AREA_PLACEMENTS
                    || self.tried > MAX_AREA_CANDIDATES
                    || analyzer.halted()
                {
                    return None;
                }
                for left in 0..=(cols - w) as usize {
                    if u64::from(ones(top, left, h as usize, w as usize)) != area {
                        continue;
                    }
                    self.tried += 1;
                    if self.tried > MAX_AREA_CANDIDATES {
                        return None;
                    }
                    let rect = LargeRect {
                        top: top as u32,
                        left: left as u32,
                        bottom: (top + h as usize - 1) as u32,
                        right: (left + w as usize - 1) as u32,
                    };
                    if accept(rect) {
                        return Some(rect);
                    }
                }
            }
        }
        None
    }
}

/// The middle band of rows of `shape` (one row when the height is odd, two
/// when even) when those rows are one and the same run, and the same for
/// columns; then, for a square shape, the least square on each diagonal
/// that covers the shape's cells on it, when all ones: the halving
/// candidates, in the shape's coordinates. (A move that leaves the two
/// mirror images of a reflection covers every cell the reflection fixes,
/// and is a rectangle it maps to itself: across a diagonal, a square on
/// it, such as the corner cell of an L of two equal arms.)
#[must_use]
pub fn band_moves(shape: &LargeBoard) -> Vec<LargeRect> {
    let mut out = Vec::new();
    let band = |board: &LargeBoard| -> Option<(u32, u32, u32, u32)> {
        let rows = board.rows();
        if rows < 2 {
            return None;
        }
        let (first, last) = if rows % 2 == 1 {
            (rows / 2, rows / 2)
        } else {
            (rows / 2 - 1, rows / 2)
        };
        let mut span = None;
        for row in first..=last {
            let mut runs = Vec::new();
            board.for_each_run(row, |s, e| runs.push((s, e)));
            if runs.len() != 1 || span.is_some_and(|s| s != runs[0]) {
                return None;
            }
            span = Some(runs[0]);
        }
        span.map(|(s, e)| (first, last, s, e - 1))
    };
    if let Some((top, bottom, left, right)) = band(shape) {
        out.push(LargeRect {
            top,
            left,
            bottom,
            right,
        });
    }
    // Columns: the same on the transpose (symmetry 4), mapped back.
    if let Some((left, right, top, bottom)) = band(&shape.transform(4)) {
        out.push(LargeRect {
            top,
            left,
            bottom,
            right,
        });
    }
    let n = shape.rows();
    if n > 1 && n == shape.cols() {
        // The first and last index `i` whose cell `at(i)` is a one.
        let span = |at: &dyn Fn(u32) -> (u32, u32)| {
            (0..n)
                .filter(|&i| shape.get(at(i).0, at(i).1))
                .fold(None, |span, i| {
                    Some(span.map_or((i, i), |(first, _): (u32, u32)| (first, i)))
                })
        };
        if let Some((k, l)) = span(&|i| (i, i)) {
            out.push(LargeRect {
                top: k,
                left: k,
                bottom: l,
                right: l,
            });
        }
        // The anti-diagonal: cells (i, n - 1 - i), and the square of rows
        // k..=l it maps to itself.
        if let Some((k, l)) = span(&|i| (i, n - 1 - i)) {
            out.push(LargeRect {
                top: k,
                left: n - 1 - l,
                bottom: l,
                right: n - 1 - k,
            });
        }
        out.retain(|&rect| shape.is_legal(rect));
    }
    out
}

/// The rectangle of `shape` that leaves exactly a congruent copy of the
/// cells `others` (runs in board coordinates), found by placing `others`
/// in `shape` under each symmetry and checking that what is left of
/// `shape` is one rectangle, accepted by `accept`. `None` too once
/// `halted` (read at each placement and each rectangle tried): each
/// `accept` labels what a rectangle leaves, tens of microseconds on a
/// shape of a few hundred cells, and the tries run to thousands.
fn mirror_reply(
    shape: &LargeBoard,
    others: &[Run],
    accept: &mut dyn FnMut(LargeRect) -> bool,
    halted: &dyn Fn() -> bool,
) -> Option<LargeRect> {
    let extent = super::grid::Extent::of(others);
    if extent.cells >= shape.count_ones() {
        return None;
    }
    let rest = LargeBoard::from_runs(others, &extent);
    let (rows, cols) = (shape.rows(), shape.cols());
    let mut placements = 0usize;
    let mut tried = 0usize;
    for symmetry in 0..8u8 {
        let image = rest.transform(symmetry);
        let (h, w) = (image.rows(), image.cols());
        if h > rows || w > cols {
            continue;
        }
        let mut image_runs = Vec::new();
        for row in 0..h {
            image.for_each_run(row, |s, e| {
                image_runs.push(Run {
                    row,
                    start: s,
                    end: e,
                })
            });
        }
        for dy in 0..=rows - h {
            for dx in 0..=cols - w {
                placements += 1;
                if placements > MAX_PLACEMENTS || halted() {
                    return None;
                }
                // The reply may also have cut off pieces whose classes
                // it made even (two lone cells beside two others met
                // elsewhere), or whose values cancel with others', which
                // are not among the others placed: their images are left
                // here beside the reply's, so a rectangle of the cells left
                // is the answer.
                let cells = match leftover(shape, &image_runs, dy, dx) {
                    Leftover::None => continue,
                    Leftover::Rect(rect) if accept(rect) => return Some(rect),
                    Leftover::Rect(rect) if rect.area() <= MAX_LEFTOVER_CELLS => {
                        let (h, w) = (rect.bottom - rect.top + 1, rect.right - rect.left + 1);
                        let Ok(mut board) = LargeBoard::zeros(u64::from(h), u64::from(w)) else {
                            continue;
                        };
                        for row in 0..h {
                            board.set_run(row, 0, w);
                        }
                        LeftoverCells {
                            top: rect.top,
                            left: rect.left,
                            board,
                        }
                    }
                    Leftover::Rect(_) => continue,
                    Leftover::Cells(cells) => cells,
                };
                let mut answer = None;
                let mut stopped = false;
                cells.board.for_each_rect_while(|rect| {
                    tried += 1;
                    stopped = halted();
                    let rect = rect.offset(cells.top, cells.left);
                    if !stopped && accept(rect) {
                        answer = Some(rect);
                    }
                    answer.is_none() && !stopped && tried < MAX_LEFTOVER_RECTS
                });
                if answer.is_some() || stopped || tried >= MAX_LEFTOVER_RECTS {
                    return answer;
                }
            }
        }
    }
    None
}

/// What [`leftover`] finds of a shape once other cells are placed in it.
enum Leftover {
    /// The placed cells are not all in the shape, or leave no cell, or
    /// more than [`MAX_LEFTOVER_CELLS`] that are not one rectangle.
    None,
    /// The cells left are one rectangle of ones.
    Rect(LargeRect),
    /// The cells left, cut to their box at `(top, left)` of the shape.
    Cells(LeftoverCells),
}

/// The cells a placement leaves, cut to their box.
struct LeftoverCells {
    top: u32,
    left: u32,
    board: LargeBoard,
}

/// The most cells a placement may leave for [`mirror_reply`] to try each
/// rectangle of them: the reply and the pieces it cut off.
const MAX_LEFTOVER_CELLS: u64 = 256;

/// The most rectangles of the cells placements leave that [`mirror_reply`]
/// tries, each checked by labelling the shape (a few microseconds).
const MAX_LEFTOVER_RECTS: usize = 4096;

/// The cells of `shape` that `runs` moved by `(dy, dx)` leave, when those
/// lie inside `shape`: one rectangle of ones, or a few cells.
fn leftover(shape: &LargeBoard, runs: &[Run], dy: u32, dx: u32) -> Leftover {
    let Ok(mut covered) = LargeBoard::zeros(u64::from(shape.rows()), u64::from(shape.cols()))
    else {
        return Leftover::None;
    };
    for run in runs {
        covered.set_run(run.row + dy, run.start + dx, run.end + dx);
    }
    let mut left: Vec<Run> = Vec::new();
    for row in 0..shape.rows() {
        let (have, placed) = (shape.row_words(row), covered.row_words(row));
        if placed.iter().zip(have).any(|(p, h)| p & !h != 0) {
            return Leftover::None;
        }
        for_each_run_of(have, placed, shape.cols(), |start, end| {
            left.push(Run { row, start, end });
        });
    }
    if left.is_empty() {
        return Leftover::None;
    }
    let extent = Extent::of(&left);
    if extent.cells == u64::from(extent.rows) * u64::from(extent.cols) {
        return Leftover::Rect(LargeRect {
            top: extent.top,
            left: extent.left,
            bottom: extent.top + extent.rows - 1,
            right: extent.left + extent.cols - 1,
        });
    }
    if extent.cells > MAX_LEFTOVER_CELLS {
        return Leftover::None;
    }
    Leftover::Cells(LeftoverCells {
        top: extent.top,
        left: extent.left,
        board: LargeBoard::from_runs(&left, &extent),
    })
}

/// Runs of the cells in `have` but not in `placed` (one row's words).
fn for_each_run_of(have: &[u64], placed: &[u64], cols: u32, visit: impl FnMut(u32, u32)) {
    let left: Vec<u64> = have.iter().zip(placed).map(|(h, p)| h & !p).collect();
    super::grid::runs_in(&left, cols, visit);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clear::large::analysis::classify;

    /// The unpaired cells a move leaves, counted from the toggles, equal
    /// the count made the plain way: the set of unpaired classes copied,
    /// toggled by the move's own class and its pieces', and each class's
    /// cells summed.
    #[test]
    fn unpaired_cells_after_a_move_match_a_plain_count() {
        let mut checked = 0;
        for seed in 1..12u64 {
            let mut state = seed;
            let mut board = LargeBoard::zeros(12, 13).unwrap();
            for r in 0..12 {
                for c in 0..13 {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    if state % 100 < 62 {
                        board.set(r, c, true);
                    }
                }
            }
            let analysis = classify(std::slice::from_ref(&board));
            let odd: FxHashSet<&ShapeClass> = analysis.unpaired().map(|c| &c.key).collect();
            let odd_cells: u64 = analysis.unpaired().map(|c| c.cells).sum();
            for index in 0..analysis.components.len() {
                let part = analysis.part(index);
                let own = class_of(&part);
                let mut tried = 0;
                for_each_rect_of(&part, &mut |rect| {
                    let mut plain: HashSet<ShapeClass> = odd_classes(&analysis);
                    toggle(&mut plain, own.clone());
                    let mut cells: Vec<(ShapeClass, u64)> = analysis
                        .classes
                        .iter()
                        .map(|c| (c.key.clone(), c.cells))
                        .collect();
                    for piece in parts_after(&part, rect) {
                        let key = class_of(&piece);
                        cells.push((key.clone(), piece.count_ones()));
                        toggle(&mut plain, key);
                    }
                    let want: u64 = plain
                        .iter()
                        .map(|key| cells.iter().find(|(k, _)| k == key).unwrap().1)
                        .sum();
                    let got = unpaired_cells_after(
                        &odd,
                        odd_cells,
                        (&own, part.count_ones()),
                        &part,
                        rect,
                    );
                    assert_eq!(got, want, "seed {seed}, component {index}, {rect:?}");
                    checked += 1;
                    tried += 1;
                    tried < 40
                });
            }
        }
        assert!(checked > 1000, "{checked} moves checked");
    }
}
