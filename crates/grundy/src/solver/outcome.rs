//! Outcome search: whether a component has a given value (above all 0: the
//! player to move loses), and a move to a position of value 0, found
//! without the value of every option.
//!
//! **Rule.** A component has value `t` exactly when none of its options has
//! value `t` and every smaller value is some option's; so one option of
//! value `t` proves that it has not. An option's value is the XOR of its
//! parts' values: an option with one unknown part beside known parts of
//! XOR `k` has value `t` exactly when that part has value `t xor k`, again
//! a question of one value, not a value to compute (Lemoine and Viennot,
//! "Nimbers are inevitable", 2012, ask the same of a sum beside a nim
//! heap).
//!
//! **Algorithm.** A component's options are listed once
//! ([`Game::for_each_option_part_until`]) into one vector of parts; the
//! parts the value memo knows are folded in a few options behind the
//! listing (their memo lines prefetched as they are listed, so that the
//! misses overlap) and equal parts cancelled (`X xor X = 0`). The first
//! option left with no unknown part and the value asked answers the
//! question, and the listing stops there: most components asked about are
//! won, and a won one usually shows a move to 0 a third of the way through
//! its options. Whether a component has value 0 is searched depth-first,
//! and the first option of value 0 found stops the search:
//! 1. an option with every part known, whose XOR is 0 (found as the
//!    options are listed);
//! 2. an option of one part whose known parts cancel: that part's own
//!    outcome, cheapest part first ([`Game::search_cost`]);
//! 3. the options left, cheapest first: their parts of value 0 drop out; one
//!    part left beside known parts of XOR `k` is asked whether it has value
//!    `k`; of several, all but the costliest are valued by the solver's
//!    value search, and the costliest is asked for the value that makes the
//!    XOR 0.
//!
//! Whether it has a value `t` other than 0 is answered no at once when an
//! option is seen to have value `t`: every part known with XOR `t`, or one
//! part of value 0 (by the search above) beside known parts of XOR `t`.
//! Otherwise the value search values its options in turn, cheapest first
//! (small parts have small values, and the values asked are mostly small),
//! and stops at the first of value `t`; only when none has is the value
//! found whole, kept in the memo and compared. Asking every question by
//! this search recursively, as for 0, measured slower (docs/design.md,
//! "Tried and dropped").
//!
//! A value found goes into the value memo, where later searches of either
//! kind find it. A value ruled out is kept beside the memo, read first: 0
//! in a set of won components, the others as bits of a word per component
//! (values below 64; a larger one is valued at once).
//!
//! **Cost.** A won component stops at its first option of value 0, where its
//! value needs every option's: a winning move of a dense 7 x 7 block takes
//! milliseconds where its value takes seconds (docs/benchmarks.md, "The
//! engine on dense blocks"). A lost one must refute every option, and the
//! questions of step 3 value what outcomes alone do not decide: the worst
//! case is the value search plus the questions tried first.
//!
//! **Bounds.** Each question decided counts as a solved position against the
//! [`Budget`](super::Budget) and consults it as the value search does. The
//! recursion is at most [`MAX_DEPTH`] deep; a component deeper than that is
//! valued by the value search, which keeps its own stack on the heap.

use super::{MoveAndPosition, SolveError, Solver, Table};
use crate::game::{option_parts_by_components, until};
use crate::{Game, Nimber, OptionPart};
use std::time::Instant;

/// How deep the outcome search recurses before handing a component to the
/// value search: every rectangle-clearing board of 64 cells fits, and the
/// thread's stack holds a few hundred bytes a level.
const MAX_DEPTH: usize = 256;

/// A part whose value is not known: the component and its key.
type Part<G> = (<G as Game>::Position, <G as Game>::Key);

/// Every option of a position: for each, the XOR of its known parts and
/// its unknown parts. The unknown parts of all options share one vector
/// (each option holds its range of it), so listing a position allocates
/// twice, not once an option: the outcome search lists every option of
/// every position it asks about, most of them with one unknown part.
struct Options<G: Game> {
    /// Per option: the XOR of its known parts, and where its unknown parts
    /// start and end in `parts`.
    options: Vec<(Nimber, u32, u32)>,
    parts: Vec<Part<G>>,
    /// An option of the value asked with every part known, at which the
    /// listing stopped: the options after it were not listed, and only
    /// those up to it were looked up.
    hit: Option<usize>,
}

impl<G: Game> Options<G> {
    fn len(&self) -> usize {
        self.options.len()
    }

    /// Option `index`: the XOR of its known parts, and its unknown parts.
    fn get(&self, index: usize) -> (Nimber, &[Part<G>]) {
        let (known, start, end) = self.options[index];
        (known, &self.parts[start as usize..end as usize])
    }

    fn iter(&self) -> impl Iterator<Item = (Nimber, &[Part<G>])> {
        (0..self.len()).map(|index| self.get(index))
    }
}

/// What [`Solver::move_not_shown_to_lose`] read of a position's moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MovesShown {
    /// The move chosen, by its place in [`Game::for_each_option`]'s order.
    pub index: usize,
    /// It is known to lead to value 0: it wins.
    pub wins: bool,
    /// The moves shown to lose (0 when `wins`). When it is every move, the
    /// position has value 0: each of its options is known not to.
    pub refuted: usize,
    /// The position's moves (those listed before a winning one, when
    /// `wins`).
    pub moves: usize,
}

/// The bit of `target` in a word of ruled-out values, if it has one.
fn target_bit(target: Nimber) -> Option<u64> {
    1u64.checked_shl(target.value())
}

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
        self.component_has_value(component, Nimber::ZERO)
    }

    /// True when `component` has value `target`, decided by outcome search
    /// (see the module docs): a no stops at the first option found to have
    /// value `target`.
    ///
    /// # Errors
    ///
    /// [`SolveError`] when the budget runs out first. What was found is
    /// kept, so a later call resumes the work.
    ///
    /// # Examples
    ///
    /// ```
    /// use grundy::clear::Clear;
    /// use grundy::Nimber;
    /// // A ring of eight cells: its value by the value search, then asked
    /// // of a fresh solver, which only answers yes or no.
    /// let ring = grundy::board!["111", "101", "111"];
    /// let value = Clear::solver().value(&ring).unwrap();
    /// let mut solver = Clear::solver();
    /// assert!(solver.component_has_value(ring.clone(), value).unwrap());
    /// assert!(!solver.component_has_value(ring, value ^ Nimber::new(1)).unwrap());
    /// ```
    pub fn component_has_value(
        &mut self,
        component: G::Position,
        target: Nimber,
    ) -> Result<bool, SolveError> {
        if let Some(value) = self.game.known_value(&component) {
            return Ok(value == target);
        }
        let key = self.game.key(&component);
        self.started.get_or_insert_with(Instant::now);
        self.has_value(component, key, target, 0)
    }

    /// A legal move from `position` to a position of value 0, with that
    /// position, or `None` when there is none (the value of `position` is 0).
    /// The moves are tried in the order of the module docs (those whose
    /// value one component's outcome decides first, cheapest first, then
    /// the others): the move is a winning move, not always the first one
    /// [`Solver::winning_moves`] lists.
    ///
    /// # Errors
    ///
    /// [`SolveError`] when the budget runs out first.
    pub fn move_to_zero(
        &mut self,
        position: &G::Position,
    ) -> Result<Option<MoveAndPosition<G>>, SolveError> {
        self.started.get_or_insert_with(Instant::now);
        // Listed move by move, so that option `i` is the `i`-th move.
        let options = self.option_parts(position, Listing::ByMoves, Nimber::ZERO)?;
        let held = self.hold_listing(&options)?;
        let zero = match options.hit {
            Some(index) => Ok(Some(index)),
            None => self.first_zero_option(&options, 0),
        };
        drop(options);
        self.outcome_heap -= held;
        // The move is listed again rather than kept with every other from
        // the start: on a large board each move's position is a board of
        // its own, and all of them would be held through the whole search.
        match zero? {
            Some(index) => self.nth_option(position, index).map(Some),
            None => Ok(None),
        }
    }

    /// What the memos show of the moves of `position` once a search of it
    /// stopped (the budget ran out), read without searching further: a move
    /// to a position of value 0 when one is known (it wins), else the first
    /// move not shown to lose. A move is shown to lose when the position it
    /// leads to is known not to have value 0: every part known and their
    /// XOR not 0, or one part left that the search ruled out as the value
    /// that would make the XOR 0. The options are listed once and looked up
    /// in the memos; no budget is consulted, so it answers after the budget
    /// is spent. `None` when `position` has no move, or its listing was
    /// interrupted.
    #[must_use]
    pub fn move_not_shown_to_lose(
        &self,
        position: &G::Position,
    ) -> Option<(MoveAndPosition<G>, MovesShown)> {
        let options = self
            .option_parts(position, Listing::ByMoves, Nimber::ZERO)
            .ok()?;
        let shown = match options.hit {
            Some(index) => MovesShown {
                index,
                wins: true,
                refuted: 0,
                moves: options.len(),
            },
            None => {
                let refuted = |(known, parts): (Nimber, &[Part<G>])| match parts {
                    [] => !known.is_zero(),
                    [(_, key)] => self.ruled_out(key, known),
                    _ => false,
                };
                let refuted_moves = options.iter().filter(|&option| refuted(option)).count();
                let index = (0..options.len())
                    .find(|&index| !refuted(options.get(index)))
                    .or((options.len() > 0).then_some(0))?;
                MovesShown {
                    index,
                    wins: false,
                    refuted: refuted_moves,
                    moves: options.len(),
                }
            }
        };
        let found = self.nth_option(position, shown.index).ok()?;
        Some((found, shown))
    }

    /// Move `index` of `position`, in the order [`Game::for_each_option`]
    /// lists them, with the position it leads to.
    fn nth_option(
        &self,
        position: &G::Position,
        index: usize,
    ) -> Result<MoveAndPosition<G>, SolveError> {
        let mut seen = 0;
        let mut found = None;
        self.game.for_each_option(position, |mv, option| {
            if seen == index {
                found = Some((mv, option));
            }
            seen += 1;
        });
        if let Some(err) = self.game.interrupted() {
            return Err(err);
        }
        Ok(found.expect("the game lists the same moves each time"))
    }

    /// Counts `options` against the memory budget while the caller holds
    /// them ([`Solver::outcome_heap`], given back by the caller), and stops
    /// the search when they would pass it: each level of the outcome
    /// search's recursion holds a listing of its component's options, and on
    /// a large board each part is a board of its own.
    fn hold_listing(&mut self, options: &Options<G>) -> Result<usize, SolveError> {
        let mut bytes = options.options.capacity() * std::mem::size_of::<(Nimber, u32, u32)>()
            + options.parts.capacity() * std::mem::size_of::<Part<G>>();
        if G::HEAP {
            bytes += options
                .parts
                .iter()
                .map(|(component, key)| self.game.heap_bytes(Some(component), key))
                .sum::<usize>();
        }
        self.outcome_heap += bytes;
        if G::HEAP {
            if let Err(err) = self.check_memory() {
                self.outcome_heap -= bytes;
                return Err(err);
            }
        }
        Ok(bytes)
    }

    /// True when the component of `key` has value `target`.
    fn has_value(
        &mut self,
        component: G::Position,
        key: G::Key,
        target: Nimber,
        depth: usize,
    ) -> Result<bool, SolveError> {
        if let Some(value) = self.table.get(&key) {
            return Ok(value == target);
        }
        if self.ruled_out(&key, target) {
            return Ok(false);
        }
        self.check_positions_left()?;
        if depth >= MAX_DEPTH || target_bit(target).is_none() {
            let value = self.value_unless_an_option_is(component, key, target)?;
            return Ok(value == Some(target));
        }
        let options = self.option_parts(&component, Listing::Fast, target)?;
        let held = self.hold_listing(&options)?;
        let decided = if options.hit.is_some() {
            Ok(Some(false))
        } else if target.is_zero() {
            self.first_zero_option(&options, depth)
                .map(|zero| Some(zero.is_none()))
        } else {
            self.witness_of(&options, target, depth)
                .map(|seen| seen.then_some(false))
        };
        drop(options);
        self.outcome_heap -= held;
        let has = match decided? {
            Some(has) => has,
            None => match self.value_unless_an_option_is(component, key.clone(), target)? {
                Some(value) => return Ok(value == target),
                None => false,
            },
        };
        if has {
            if self.not_values.remove(&key).is_some() && G::HEAP {
                self.memo_heap -= self.game.heap_bytes(None, &key);
            }
            self.remember(key, target);
        } else {
            self.rule_out(key, target);
        }
        self.solved += 1;
        self.check_budget()?;
        Ok(has)
    }

    /// Whether `target` is ruled out as the value of the component of `key`.
    fn ruled_out(&self, key: &G::Key, target: Nimber) -> bool {
        if target.is_zero() {
            return self.won.contains(key);
        }
        target_bit(target)
            .is_some_and(|bit| self.not_values.get(key).is_some_and(|&out| out & bit != 0))
    }

    /// Keeps that the component of `key` does not have value `target`.
    fn rule_out(&mut self, key: G::Key, target: Nimber) {
        // A key new to the sets is counted as the memo's keys are.
        let heap = if G::HEAP {
            self.game.heap_bytes(None, &key)
        } else {
            0
        };
        if target.is_zero() {
            if self.won.insert(key) {
                self.memo_heap += heap;
            }
        } else if let Some(bit) = target_bit(target) {
            match self.not_values.entry(key) {
                std::collections::hash_map::Entry::Occupied(mut ruled) => *ruled.get_mut() |= bit,
                std::collections::hash_map::Entry::Vacant(new) => {
                    new.insert(bit);
                    self.memo_heap += heap;
                }
            }
        }
    }

    /// Whether one of `options` has value `target` (not 0) for a reason
    /// found by outcomes alone: every part known, or one unknown part of
    /// value 0 beside known parts whose XOR is `target`.
    fn witness_of(
        &mut self,
        options: &Options<G>,
        target: Nimber,
        depth: usize,
    ) -> Result<bool, SolveError> {
        if options
            .iter()
            .any(|(known, parts)| parts.is_empty() && known == target)
        {
            return Ok(true);
        }
        for (known, parts) in options.iter() {
            if parts.len() == 1 && known == target {
                let (component, key) = parts[0].clone();
                if self.has_value(component, key, Nimber::ZERO, depth + 1)? {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    /// The index of an option of value 0 among `options`, if one is, by
    /// steps 1 to 3 of the module docs.
    fn first_zero_option(
        &mut self,
        options: &Options<G>,
        depth: usize,
    ) -> Result<Option<usize>, SolveError> {
        if let Some(index) = options
            .iter()
            .position(|(known, parts)| parts.is_empty() && known.is_zero())
        {
            return Ok(Some(index));
        }
        // The options in order of their costliest part, cheapest first.
        let cost = |game: &G, parts: &[Part<G>]| {
            parts
                .iter()
                .map(|(component, _)| game.search_cost(component))
                .max()
                .unwrap_or(0)
        };
        let alone = |(known, parts): (Nimber, &[Part<G>])| known.is_zero() && parts.len() == 1;
        let mut order: Vec<(u64, usize)> = (0..options.len())
            .filter(|&i| alone(options.get(i)))
            .map(|i| (cost(&self.game, options.get(i).1), i))
            .collect();
        order.sort_unstable();
        for &(_, i) in &order {
            let (component, key) = options.get(i).1[0].clone();
            if self.has_value(component, key, Nimber::ZERO, depth + 1)? {
                return Ok(Some(i));
            }
        }
        // The others: parts of value 0 drop out first; then one part left
        // is asked for the value that makes the XOR 0, and of several, all
        // but the costliest are valued and the costliest asked; cheapest
        // option first.
        let mut rest = Vec::new();
        for (index, (known, parts)) in options.iter().enumerate() {
            if parts.is_empty() || alone((known, parts)) {
                continue;
            }
            let mut left = Vec::new();
            for (component, key) in parts {
                if !self.has_value(component.clone(), key.clone(), Nimber::ZERO, depth + 1)? {
                    left.push((component.clone(), key.clone()));
                }
            }
            let want = known;
            match left.len() {
                0 if want.is_zero() => return Ok(Some(index)),
                0 => {}
                1 if want.is_zero() => {} // one part, not of value 0
                _ => rest.push((cost(&self.game, &left), index, want, left)),
            }
        }
        rest.sort_unstable_by_key(|&(cost, index, _, _)| (cost, index));
        for (_, index, mut want, mut left) in rest {
            let costliest = (0..left.len())
                .max_by_key(|&i| self.game.search_cost(&left[i].0))
                .expect("at least one part");
            let (component, key) = left.swap_remove(costliest);
            for (part, _) in left {
                want ^= self.component_value(part)?;
            }
            if self.has_value(component, key, want, depth + 1)? {
                return Ok(Some(index));
            }
        }
        Ok(None)
    }

    /// Every option of `position` as the XOR of its parts known to the game
    /// or the value memo, and its other parts, equal ones cancelled; or,
    /// as soon as one is found, an option of value `target` with every
    /// part known, and the listing stops there.
    fn option_parts(
        &self,
        position: &G::Position,
        listing: Listing,
        target: Nimber,
    ) -> Result<Options<G>, SolveError> {
        if G::HEAP {
            // The game's listing stops before what it lists and what the
            // search holds (the listings of the levels above included)
            // would pass the memory budget.
            self.game
                .hold_pending(self.pending_heap + self.outcome_heap, self.memory_bytes());
        }
        let mut list = Options {
            options: Vec::new(),
            parts: Vec::new(),
            hit: None,
        };
        let mut known = Nimber::ZERO;
        // The parts to look up in the memo, by their index in `parts`:
        // their lines are prefetched as they are listed, and looked up
        // `LAG` options later, so that the misses overlap.
        let mut probes: Vec<u32> = Vec::new();
        let mut resolve = Resolve::default();
        let mut start = 0;
        let (game, table) = (&self.game, &self.table);
        let visit = |part| {
            match part {
                OptionPart::Known(value) => known ^= value,
                OptionPart::Lookup(component, key) => match game.known_value(&component) {
                    Some(value) => known ^= value,
                    None => list.parts.push((component, key)),
                },
                OptionPart::Unknown(component, key) => {
                    table.prefetch(&key);
                    probes.push(list.parts.len() as u32);
                    list.parts.push((component, key));
                }
                OptionPart::End => {
                    // A position has fewer than 2^32 parts of options in
                    // all: rectangle clearing's largest board lists about
                    // 10^5.
                    let end = list.parts.len() as u32;
                    list.options.push((known, start, end));
                    start = end;
                    known = Nimber::ZERO;
                    while resolve.options + LAG < list.options.len() {
                        if resolve.next(&mut list, &probes, table, target) {
                            return true;
                        }
                    }
                }
            }
            false
        };
        match listing {
            Listing::Fast => self.game.for_each_option_part_until(position, visit),
            Listing::ByMoves => option_parts_by_components(&self.game, position, until(visit)),
        }
        if let Some(err) = self.game.interrupted() {
            return Err(err);
        }
        while list.hit.is_none() && resolve.options < list.options.len() {
            resolve.next(&mut list, &probes, table, target);
        }
        Ok(list)
    }
}

/// How many options after its own an option's memo lookups wait, so that
/// the lines prefetched when it was listed have arrived.
const LAG: usize = 4;

/// How far [`Solver::option_parts`] has looked up the options' parts.
#[derive(Default)]
struct Resolve {
    /// The options before this one are looked up.
    options: usize,
    /// The parts they keep are `parts[..write]`.
    write: usize,
    /// The next entry of the probes.
    probe: usize,
}

impl Resolve {
    /// Looks up the parts of the next option: the parts found in the memo
    /// join its known XOR, the others move down over them, and equal ones
    /// cancel. True, with the option as `list.hit`, when it is left with
    /// no part and value `target`.
    fn next<G: Game, T: Table<G::Key>>(
        &mut self,
        list: &mut Options<G>,
        probes: &[u32],
        table: &T,
        target: Nimber,
    ) -> bool {
        let index = self.options;
        self.options += 1;
        let (mut known, start, end) = list.options[index];
        let first = self.write;
        for read in start as usize..end as usize {
            if probes.get(self.probe) == Some(&(read as u32)) {
                self.probe += 1;
                if let Some(value) = table.get(&list.parts[read].1) {
                    known ^= value;
                    continue;
                }
            }
            list.parts.swap(self.write, read);
            self.write += 1;
        }
        self.write = first + cancel_pairs(&mut list.parts[first..self.write]);
        list.options[index] = (known, first as u32, self.write as u32);
        if first == self.write && known == target {
            list.hit = Some(index);
            return true;
        }
        false
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
/// of each odd count, in place: the kept parts are gathered at the front,
/// and their number returned; a part that meets its twin there takes the
/// twin out (the last kept part moves to its place).
fn cancel_pairs<P, K: PartialEq>(parts: &mut [(P, K)]) -> usize {
    // Most options have one part: nothing to cancel.
    if parts.len() < 2 {
        return parts.len();
    }
    let mut kept = 0;
    for next in 0..parts.len() {
        let key = &parts[next].1;
        match parts[..kept].iter().position(|(_, k)| k == key) {
            Some(twin) => {
                parts.swap(twin, kept - 1);
                kept -= 1;
            }
            None => {
                parts.swap(kept, next);
                kept += 1;
            }
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    proptest! {
        /// The kept parts are each key of odd count once, each one of the
        /// parts given: against counting each key.
        #[test]
        fn cancel_pairs_keeps_the_keys_of_odd_count(
            keys in proptest::collection::vec(0u8..4, 0..9),
        ) {
            let mut parts: Vec<(usize, u8)> = keys.iter().copied().enumerate().collect();
            let kept = super::cancel_pairs(&mut parts);
            let mut kept_keys: Vec<u8> = parts[..kept].iter().map(|&(_, key)| key).collect();
            kept_keys.sort_unstable();
            let odd: Vec<u8> = (0..4u8)
                .filter(|k| keys.iter().filter(|&x| x == k).count() % 2 == 1)
                .collect();
            prop_assert_eq!(kept_keys, odd);
            for &(index, key) in &parts[..kept] {
                prop_assert_eq!(key, keys[index]);
            }
        }
    }
}
