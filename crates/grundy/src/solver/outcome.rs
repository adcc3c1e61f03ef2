//! Outcome search: whether a component's value is 0, and a move to a
//! position of value 0, found without the value of every option.
//!
//! **Rule.** A component is lost for the player to move (value 0) exactly
//! when none of its options has value 0. An option's value is the XOR of its
//! parts' values, so an option whose known parts cancel and which has one
//! unknown part has value 0 exactly when that part does: its outcome is all
//! that is asked, not its value.
//!
//! **Algorithm.** Depth-first over a component's options, each listed once
//! ([`Game::for_each_option_part`]) with the parts the value memo knows
//! folded in and equal parts cancelled (`X xor X = 0`):
//! 1. an option with nothing left and a zero XOR is a move to 0: the
//!    component is won, and the search stops;
//! 2. the options of one part are searched for that part's outcome,
//!    cheapest part first ([`Game::search_cost`]), and the first lost part
//!    stops the search the same way;
//! 3. in the options left, parts whose value is 0 drop out; one part left
//!    alone is not 0, so the option is not either; only then are the parts
//!    valued, by the solver's value search, cheapest option first, and
//!    their XOR compared with 0.
//!
//! A component none of whose options is 0 is lost: its value is 0, and it
//! goes into the value memo, where later searches of either kind find it.
//! A won one is kept in a set beside the memo, which is read first (a value
//! of 0 is a loss, any other a win).
//!
//! **Cost.** A won component stops at its first option to 0, where its value
//! needs every option's: a winning move of a dense 7 x 7 block takes
//! milliseconds where its value takes seconds (docs/benchmarks.md, "The
//! engine on dense blocks"). A lost one must refute every option, and step 3 values the
//! parts that outcomes alone do not decide: the worst case is the value
//! search plus the outcomes tried first.
//!
//! **Bounds.** Each component decided counts as a solved position against
//! the [`Budget`](super::Budget) and consults it as the value search does.
//! The recursion is at most [`MAX_DEPTH`] deep; a component deeper than that
//! is decided by the value search, which keeps its own stack on the heap.

use super::{MoveAndPosition, SolveError, Solver, Table};
use crate::game::option_parts_by_components;
use crate::{Game, Nimber, OptionPart};
use std::time::Instant;

/// How deep the outcome search recurses before handing a component to the
/// value search: every rectangle-clearing board of 64 cells fits, and the
/// thread's stack holds a few hundred bytes a level.
const MAX_DEPTH: usize = 256;

/// One option: the XOR of its known parts and its unknown parts.
type Parts<G> = (Nimber, Vec<(<G as Game>::Position, <G as Game>::Key)>);

impl<G: Game, T: Table<G::Key>> Solver<G, T> {
    /// True when `component` has value 0 (the player to move loses it),
    /// decided by outcome search: a won component stops at its first move to
    /// 0 (see the module docs).
    ///
    /// # Errors
    ///
    /// [`SolveError`] when the budget runs out first. The outcomes and values
    /// found are kept, so a later call resumes the work.
    ///
    /// # Examples
    ///
    /// ```
    /// use grundy::clear::{Board, Clear};
    /// let mut solver = Clear::solver();
    /// // Two cells in a row: clearing both wins.
    /// assert!(!solver.component_is_zero(grundy::board!["11"]).unwrap());
    /// ```
    pub fn component_is_zero(&mut self, component: G::Position) -> Result<bool, SolveError> {
        if let Some(value) = self.game.known_value(&component) {
            return Ok(value.is_zero());
        }
        let key = self.game.key(&component);
        self.started.get_or_insert_with(Instant::now);
        self.is_zero(component, key, 0)
    }

    /// A legal move from `position` to a position of value 0, with that
    /// position, or `None` when there is none (the value of `position` is 0).
    /// The moves are tried in the order of the module docs (those whose
    /// value one component's outcome decides first, cheapest first, then
    /// the others by value): the move is a winning move, not always the
    /// first one [`Solver::winning_moves`] lists.
    ///
    /// # Errors
    ///
    /// [`SolveError`] when the budget runs out first.
    pub fn move_to_zero(
        &mut self,
        position: &G::Position,
    ) -> Result<Option<MoveAndPosition<G>>, SolveError> {
        let mut moves = self.options_of(position)?;
        self.started.get_or_insert_with(Instant::now);
        // Listed move by move, so that option `i` is `moves[i]`'s.
        let options = self.option_parts(position, Listing::ByMoves)?;
        Ok(self
            .first_zero_option(&options, 0)?
            .map(|index| moves.swap_remove(index)))
    }

    /// True when the component of `key` has value 0.
    fn is_zero(
        &mut self,
        component: G::Position,
        key: G::Key,
        depth: usize,
    ) -> Result<bool, SolveError> {
        if let Some(value) = self.table.get(&key) {
            return Ok(value.is_zero());
        }
        if self.won.contains(&key) {
            return Ok(false);
        }
        if depth >= MAX_DEPTH {
            return Ok(self.component_value(component)?.is_zero());
        }
        let options = self.option_parts(&component, Listing::Fast)?;
        let zero = self.first_zero_option(&options, depth)?.is_none();
        if zero {
            self.table.insert(key, Nimber::ZERO);
        } else {
            self.won.insert(key);
        }
        self.solved += 1;
        self.check_budget()?;
        Ok(zero)
    }

    /// The index of an option of value 0 among `options`, if one is, by
    /// steps 1 to 3 of the module docs.
    fn first_zero_option(
        &mut self,
        options: &[Parts<G>],
        depth: usize,
    ) -> Result<Option<usize>, SolveError> {
        if let Some(index) = options
            .iter()
            .position(|(known, parts)| parts.is_empty() && known.is_zero())
        {
            return Ok(Some(index));
        }
        // The options in order of their costliest part, cheapest first.
        let cost = |game: &G, parts: &[(G::Position, G::Key)]| {
            parts
                .iter()
                .map(|(component, _)| game.search_cost(component))
                .max()
                .unwrap_or(0)
        };
        let alone = |(known, parts): &Parts<G>| known.is_zero() && parts.len() == 1;
        let mut order: Vec<(u64, usize)> = (0..options.len())
            .filter(|&i| alone(&options[i]))
            .map(|i| (cost(&self.game, &options[i].1), i))
            .collect();
        order.sort_unstable();
        for &(_, i) in &order {
            let (component, key) = options[i].1[0].clone();
            if self.is_zero(component, key, depth + 1)? {
                return Ok(Some(i));
            }
        }
        // The others: parts of value 0 drop out first; those left are valued
        // last, cheapest first.
        let mut valued = Vec::new();
        for (index, (known, parts)) in options.iter().enumerate() {
            if parts.is_empty() || alone(&options[index]) {
                continue;
            }
            let mut left = Vec::new();
            for (component, key) in parts {
                if !self.is_zero(component.clone(), key.clone(), depth + 1)? {
                    left.push((component.clone(), key.clone()));
                }
            }
            match left.len() {
                0 if known.is_zero() => return Ok(Some(index)),
                0 => {}
                1 if known.is_zero() => {}
                _ => valued.push((cost(&self.game, &left), index, *known, left)),
            }
        }
        valued.sort_unstable_by_key(|&(cost, index, _, _)| (cost, index));
        for (_, index, known, left) in valued {
            let mut total = known;
            for (component, _) in left {
                total ^= self.component_value(component)?;
            }
            if total.is_zero() {
                return Ok(Some(index));
            }
        }
        Ok(None)
    }

    /// Every option of `position` as the XOR of its parts known to the game
    /// or the value memo, and its other parts, equal ones cancelled.
    fn option_parts(
        &self,
        position: &G::Position,
        listing: Listing,
    ) -> Result<Vec<Parts<G>>, SolveError> {
        let mut options = Vec::new();
        let mut known = Nimber::ZERO;
        let mut unknown = Vec::new();
        let (game, table) = (&self.game, &self.table);
        let visit = |part| match part {
            OptionPart::Known(value) => known ^= value,
            OptionPart::Lookup(component, key) => match game.known_value(&component) {
                Some(value) => known ^= value,
                None => unknown.push((component, key)),
            },
            OptionPart::Unknown(component, key) => match table.get(&key) {
                Some(value) => known ^= value,
                None => unknown.push((component, key)),
            },
            OptionPart::End => {
                cancel_pairs::<G>(&mut unknown);
                options.push((known, std::mem::take(&mut unknown)));
                known = Nimber::ZERO;
            }
        };
        match listing {
            Listing::Fast => self.game.for_each_option_part(position, visit),
            Listing::ByMoves => option_parts_by_components(&self.game, position, visit),
        }
        match self.game.interrupted() {
            Some(err) => Err(err),
            None => Ok(options),
        }
    }
}

/// How [`Solver::option_parts`] lists the options.
#[derive(Clone, Copy)]
enum Listing {
    /// The game's own [`Game::for_each_option_part`], in any order: enough
    /// to decide a component.
    Fast,
    /// Move by move, in the order of [`Game::for_each_option`], to name the
    /// move that wins.
    ByMoves,
}

/// Removes the parts that come in equal pairs (`X xor X = 0`), keeping one
/// of each odd count.
fn cancel_pairs<G: Game>(parts: &mut Vec<(G::Position, G::Key)>) {
    let mut kept: Vec<(G::Position, G::Key)> = Vec::with_capacity(parts.len());
    for part in parts.drain(..) {
        match kept.iter().position(|(_, key)| *key == part.1) {
            Some(twin) => {
                kept.swap_remove(twin);
            }
            None => kept.push(part),
        }
    }
    *parts = kept;
}
