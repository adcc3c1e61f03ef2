//! The engine's move in the splitting game: always a move, within a budget,
//! and whether it is proven.
//!
//! **Rule.** A position is a sum of rectangles, and rectangles whose
//! candidates form congruent patterns (rows and columns without a
//! candidate left out) have equal values ([`Pattern::canonical`]), so two
//! rectangles of one class cancel (`X xor X = 0`). A move that leaves every class an
//! even number of times, except classes whose values the closed forms give
//! ([`Pattern::known_value`]) and whose XOR is 0, leaves a total of 0: it
//! wins, with no value searched (splitting a point-symmetric grid at its
//! centre leaves two such pairs).
//!
//! **Algorithm.** First the pair search: the moves of the rectangles whose
//! class is unpaired, nearest their rectangle's centre first, at most
//! [`MAX_PAIR_TRIES`] of them and within a quarter of the time; each costs
//! the canonical forms of its four parts. Then the values with what is
//! left of the budget ([`SplitSolver::options`]): the first move to 0, or
//! in a lost position the move leaving the largest value. When the budget
//! runs out first, the best guess is the move tried that leaves the fewest
//! candidates in unpaired rectangles (a position the opponent must then
//! value), or the first legal move.
//!
//! **Cost.** The pair search is O(tries * k log k) for rectangles of `k`
//! candidates; the values are the solver's.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::{Cell, Pattern, Position, Rect, SplitSolver};
use crate::{Budget, Nimber, SolveError};

/// How many moves the pair search tries at most.
pub const MAX_PAIR_TRIES: usize = 4096;

/// The share of the time budget the pair search may take, as a fraction
/// `1 / PAIR_SHARE`; the values get the rest.
const PAIR_SHARE: u32 = 4;

/// Why the engine plays its move.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SplitReason {
    /// Proven winning by the values: the move leaves a total of 0.
    Values {
        /// The position's value before the move.
        total: Nimber,
    },
    /// Proven winning without the values: the rectangles left pair up, and
    /// those without a partner have closed-form values of XOR 0.
    Pairs {
        /// No candidate is left at all: the opponent cannot move.
        leaves_nothing: bool,
        /// Pairs of rectangles with candidates left in congruent patterns (each pair
        /// cancels: X xor X = 0).
        pairs: usize,
        /// Rectangles with candidates left without a partner of their pattern,
        /// whose closed-form values have XOR 0.
        alone: usize,
    },
    /// Every move loses (the value is 0); this one leaves the largest value.
    Losing {
        /// The value the move leaves.
        leaves: Nimber,
    },
    /// The budget ran out before a proof: the best guess.
    Unproven {
        /// The budget that ran out.
        stopped: Option<SolveError>,
    },
}

/// The engine's move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitChoice {
    /// The candidate played.
    pub cell: Cell,
    /// Why.
    pub reason: SplitReason,
}

impl SplitChoice {
    /// True when the move is proven best: it wins, or every move loses.
    #[must_use]
    pub fn proven(&self) -> bool {
        !matches!(self.reason, SplitReason::Unproven { .. })
    }

    /// True when the move is proven to win.
    #[must_use]
    pub fn wins(&self) -> bool {
        matches!(
            self.reason,
            SplitReason::Values { .. } | SplitReason::Pairs { .. }
        )
    }
}

/// The engine's move in `position` within `budget` (its time for the pair
/// search and the values together; its positions and `max_memory` for the
/// values), or `None` when no candidate is left (the player to move has
/// lost). Always answers otherwise.
#[must_use]
pub fn choose_move(position: &Position, budget: Budget, max_memory: u64) -> Option<SplitChoice> {
    choose_move_until(position, budget, max_memory, None)
}

/// [`choose_move`], stopped early once `cancel` is set (from any thread,
/// for example on Ctrl-C): the pair search and the values check it where
/// they check the clock, and the move is then the unproven guess, with
/// [`SolveError::Stopped`].
#[must_use]
pub fn choose_move_until(
    position: &Position,
    budget: Budget,
    max_memory: u64,
    cancel: Option<Arc<AtomicBool>>,
) -> Option<SplitChoice> {
    let (_, first) = position.moves().next()?;
    let started = Instant::now();
    let pair_deadline = budget
        .max_time
        .and_then(|limit| started.checked_add(limit / PAIR_SHARE));
    let search = pair_search(position, pair_deadline, cancel.as_deref());
    if let Some(paired) = search.paired {
        return Some(paired_choice(position, paired));
    }
    let mut values_budget = budget;
    if let Some(limit) = budget.max_time {
        let left = limit.saturating_sub(started.elapsed());
        values_budget.max_time = Some(left.max(Duration::from_millis(1)));
    }
    let mut solver = SplitSolver::new()
        .with_budget(values_budget)
        .with_memory_limit(max_memory);
    if let Some(cancel) = cancel {
        solver = solver.with_stop(cancel);
    }
    match solver
        .value(position)
        .and_then(|total| Ok((total, solver.options(position)?)))
    {
        Ok((total, options)) => {
            if let Some(&(cell, _)) = options.iter().find(|(_, v)| v.is_zero()) {
                return Some(SplitChoice {
                    cell,
                    reason: SplitReason::Values { total },
                });
            }
            // First of the largest: compare reversed indices.
            let (_, &(cell, leaves)) = options
                .iter()
                .enumerate()
                .max_by_key(|&(i, &(_, v))| (v, std::cmp::Reverse(i)))?;
            Some(SplitChoice {
                cell,
                reason: SplitReason::Losing { leaves },
            })
        }
        Err(mut err) => {
            // What ran out is the whole time budget, not the part of it
            // the values were given.
            if let (SolveError::TimeBudget { limit }, Some(whole)) = (&mut err, budget.max_time) {
                *limit = whole;
            }
            Some(SplitChoice {
                cell: search.guess.unwrap_or(first),
                reason: SplitReason::Unproven { stopped: Some(err) },
            })
        }
    }
}

/// A move proven winning by the pair search alone ([`SplitReason::Pairs`]:
/// no value searched), or `None` when none is found among the first
/// [`MAX_PAIR_TRIES`] moves tried, or before `deadline`. For a caller whose
/// value search stopped: what can still be proven of the position.
#[must_use]
pub fn paired_move(position: &Position, deadline: Option<Instant>) -> Option<SplitChoice> {
    let paired = pair_search(position, deadline, None).paired?;
    Some(paired_choice(position, paired))
}

/// The choice of a move the pair search proved: `(cell, pairs, alone)`.
fn paired_choice(position: &Position, (cell, pairs, alone): (Cell, usize, usize)) -> SplitChoice {
    let leaves_nothing = position.play_unchecked(cell).moves().next().is_none();
    SplitChoice {
        cell,
        reason: SplitReason::Pairs {
            leaves_nothing,
            pairs,
            alone,
        },
    }
}

/// What the pair search found: a proven move (with the pairs of rectangles
/// of one pattern it leaves and the rectangles left alone), and the best
/// guess.
struct PairSearch {
    paired: Option<(Cell, usize, usize)>,
    guess: Option<Cell>,
}

/// The classes of rectangles: how many of each, with their closed-form
/// values and candidate counts.
#[derive(Default)]
struct Classes {
    odd: HashMap<Pattern, (Option<Nimber>, usize)>,
}

impl Classes {
    fn toggle(&mut self, class: &Pattern) {
        if self.odd.remove(class).is_none() {
            self.odd
                .insert(class.clone(), (class.known_value(), class.count()));
        }
    }

    /// The XOR of the unpaired classes when the closed forms give them all.
    fn known_total(&self) -> Option<Nimber> {
        self.odd.values().map(|&(value, _)| value).sum()
    }

    /// The candidates in unpaired rectangles.
    fn unpaired_candidates(&self) -> usize {
        self.odd.values().map(|&(_, count)| count).sum()
    }
}

fn pair_search(
    position: &Position,
    deadline: Option<Instant>,
    cancel: Option<&AtomicBool>,
) -> PairSearch {
    let out_of_time = || {
        cancel.is_some_and(|c| c.load(Ordering::Relaxed))
            || deadline.is_some_and(|d| Instant::now() >= d)
    };
    let grid = position.grid();
    let class_of = |rect: Rect| -> Option<Pattern> {
        grid.pattern_in(rect).pattern.canonical_until(&out_of_time)
    };
    let mut classes = Classes::default();
    let mut own = Vec::with_capacity(position.rects().len());
    for &rect in position.rects() {
        let Some(class) = class_of(rect) else {
            return PairSearch {
                paired: None,
                guess: None,
            };
        };
        classes.toggle(&class);
        own.push(class);
    }
    let mut best: Option<(usize, Cell)> = None;
    let mut tried = 0;
    for (index, &rect) in position.rects().iter().enumerate() {
        if !classes.odd.contains_key(&own[index]) {
            continue;
        }
        // Nearest the centre first: a point-symmetric pattern pairs its
        // parts only when split at its centre.
        let mut cells: Vec<Cell> = grid.candidates_in(rect).collect();
        let centre = |c: &Cell| {
            let dr = (2 * i64::from(c.row) - i64::from(rect.top) - i64::from(rect.bottom)).abs();
            let dc = (2 * i64::from(c.col) - i64::from(rect.left) - i64::from(rect.right)).abs();
            dr + dc
        };
        cells.sort_by_key(centre);
        for cell in cells {
            if tried >= MAX_PAIR_TRIES || out_of_time() {
                return PairSearch {
                    paired: None,
                    guess: best.map(|(_, c)| c),
                };
            }
            tried += 1;
            let mut parts = Vec::with_capacity(4);
            for part in rect.split_at(cell) {
                if grid.candidates_in(part).next().is_none() {
                    continue;
                }
                match class_of(part) {
                    Some(class) => parts.push(class),
                    None => {
                        return PairSearch {
                            paired: None,
                            guess: best.map(|(_, c)| c),
                        }
                    }
                }
            }
            classes.toggle(&own[index]);
            for part in &parts {
                classes.toggle(part);
            }
            let proven = classes.known_total() == Some(Nimber::ZERO);
            let left = classes.unpaired_candidates();
            // One rectangle of each odd class is alone; the others pair.
            let alone = classes.odd.len();
            let pairs = (own.len() - 1 + parts.len() - alone) / 2;
            for part in &parts {
                classes.toggle(part);
            }
            classes.toggle(&own[index]);
            if proven {
                return PairSearch {
                    paired: Some((cell, pairs, alone)),
                    guess: Some(cell),
                };
            }
            if best.is_none_or(|(fewest, _)| left < fewest) {
                best = Some((left, cell));
            }
        }
    }
    PairSearch {
        paired: None,
        guess: best.map(|(_, c)| c),
    }
}
