//! The rules of an impartial game, as a trait the generic solver works on.
//!
//! A [`Game`] is a rules object, kept apart from the positions it judges (the
//! rules may carry tables or parameters; positions stay small `Clone` values).
//! It yields a position's options through a callback rather than a `Vec`, so a
//! solver can stream them into its own arena without an allocation per
//! position, and it may split a position into independent components: by the
//! Sprague-Grundy theorem the value of a position that is a sum of independent
//! games is the XOR of the components' values, so the solver memoises
//! components, not whole positions. A component's memo [`Game::Key`] may be a
//! canonical form (for example the shape of a region up to translation and
//! symmetry), so positions that are the same game are solved once.

use std::hash::Hash;
use std::time::Duration;

use crate::Nimber;

/// The rules of an impartial game under normal play (who cannot move loses).
///
/// Correctness contract, relied on by [`Solver`](crate::Solver):
/// - every play is finite (no position is reachable from itself);
/// - [`Game::for_each_component`] yields independent games whose sum is the
///   position: a move in the position is a move in exactly one component, and
///   it leaves the other components untouched;
/// - two components with equal [`Game::key`]s have equal values;
/// - [`Game::known_value`], when it answers, answers the true value.
pub trait Game {
    /// A position of the game (a whole board, or one component of it).
    type Position: Clone;
    /// A move, as reported to users.
    type Move: Clone;
    /// The memo key of a component.
    type Key: Clone + Eq + Hash;

    /// True when positions or keys hold memory behind a pointer, which
    /// [`Game::heap_bytes`] counts: the solver then counts it against its
    /// memory budget (the components and keys it holds pending, and the
    /// keys of its memo). False by default, at no cost.
    const HEAP: bool = false;

    /// The bytes `position` and `key` hold behind pointers, beyond their own
    /// size (only asked when [`Game::HEAP`] is true).
    fn heap_bytes(&self, _position: Option<&Self::Position>, _key: &Self::Key) -> usize {
        0
    }

    /// How long giving back `bytes` counted by [`Game::heap_bytes`] takes:
    /// a search stopped by its time budget gives back every part it holds
    /// pending, so it stops that much before the budget's end (only asked
    /// when [`Game::HEAP`] is true).
    fn release_time(&self, _bytes: usize) -> Duration {
        Duration::ZERO
    }

    /// Told, before each expansion, the bytes the search holds pending and
    /// all the bytes it holds, as its memory budget counts them (only when
    /// [`Game::HEAP`] is true): a game whose expansion checks limits of its
    /// own leaves time to give the pending parts back, and counts what the
    /// search holds against the memory budget with what it lists.
    fn hold_pending(&self, _pending: usize, _held: usize) {}

    /// Calls `visit` with every legal move from `position` and the position it
    /// leads to.
    fn for_each_option<F>(&self, position: &Self::Position, visit: F)
    where
        F: FnMut(Self::Move, Self::Position);

    /// Calls `visit` with each independent component of `position`. The
    /// default treats the whole position as one component. Empty components
    /// (value 0) may be skipped.
    fn for_each_component<F>(&self, position: &Self::Position, mut visit: F)
    where
        F: FnMut(Self::Position),
    {
        visit(position.clone());
    }

    /// Calls `visit` with the parts of every option of `component` (a
    /// position [`Game::for_each_component`] yielded), each option's parts
    /// followed by [`OptionPart::End`]; an option with no parts is a lone
    /// `End`. A part is a value already known (of one component, or of
    /// several together), or a component with its memo key. This is what the
    /// [`Solver`](crate::Solver) expands. The default is
    /// [`Game::for_each_option`], [`Game::for_each_component`] of each
    /// option, and [`Game::known_value`] or [`Game::key`] of each component.
    /// A game may override it to do that work in one pass: knowing the move
    /// can find an option's components faster (a move changes a component
    /// only near where it is played), and the known value and the key of a
    /// component often need the same measurements.
    fn for_each_option_part<F>(&self, component: &Self::Position, visit: F)
    where
        F: FnMut(OptionPart<Self::Position, Self::Key>),
    {
        option_parts_by_components(self, component, visit);
    }

    /// [`Game::for_each_option_part`] that stops when `visit` returns true:
    /// no part after that one is visited. The outcome search stops there at
    /// the first option that decides its question. The default lists every
    /// option and visits nothing after the stop; a game may override it to
    /// stop listing as well, which saves the work of the options left.
    fn for_each_option_part_until<F>(&self, component: &Self::Position, visit: F)
    where
        F: FnMut(OptionPart<Self::Position, Self::Key>) -> bool,
    {
        self.for_each_option_part(component, until(visit));
    }

    /// The memo key of a component.
    fn key(&self, component: &Self::Position) -> Self::Key;

    /// The value of a component when it is known without search (a closed
    /// form, or a precomputed table). The default knows nothing.
    fn known_value(&self, component: &Self::Position) -> Option<Nimber> {
        let _ = component;
        None
    }

    /// Why the game stopped yielding options early, if it did: a game whose
    /// single expansion can be long (thousands of options, each costly) may
    /// check its own budget while it yields them and stop. The solver asks
    /// after every expansion and abandons the search with this error, so a
    /// frame with missing options is never valued. The default never stops.
    fn interrupted(&self) -> Option<crate::SolveError> {
        None
    }

    /// A rough measure of the work a component takes to decide, smaller
    /// first: the outcome search ([`crate::Solver::component_is_zero`])
    /// tries the options of cheaper parts first, as a move to 0 found there
    /// ends the search sooner. Only the order of the search depends on it,
    /// never an answer. The default, 0 for all, keeps the game's order.
    fn search_cost(&self, component: &Self::Position) -> u64 {
        let _ = component;
        0
    }
}

/// `visit` as a callback that ignores everything after the call at which
/// `visit` returned true: a listing that cannot stop, made to look stopped.
pub(crate) fn until<T>(mut visit: impl FnMut(T) -> bool) -> impl FnMut(T) {
    let mut stopped = false;
    move |item| {
        if !stopped {
            stopped = visit(item);
        }
    }
}

/// The default [`Game::for_each_option_part`], for games that override it
/// only for some positions: [`Game::for_each_option`], then
/// [`Game::for_each_component`] of each option, then [`Game::known_value`]
/// or [`Game::key`] of each component.
pub fn option_parts_by_components<G, F>(game: &G, component: &G::Position, mut visit: F)
where
    G: Game + ?Sized,
    F: FnMut(OptionPart<G::Position, G::Key>),
{
    game.for_each_option(component, |_, option| {
        game.for_each_component(&option, |part| match game.known_value(&part) {
            Some(value) => visit(OptionPart::Known(value)),
            None => {
                let key = game.key(&part);
                visit(OptionPart::Unknown(part, key));
            }
        });
        visit(OptionPart::End);
    });
}

/// One step of [`Game::for_each_option_part`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionPart<P, K> {
    /// The value of some components of the current option, known without
    /// search: they take part in the option's XOR and no further.
    Known(Nimber),
    /// A component of the current option whose value is not known, with its
    /// memo key: [`Game::known_value`] would not answer it, so the solver
    /// searches it without asking.
    Unknown(P, K),
    /// A component of the current option whose value the game knows without
    /// search ([`Game::known_value`] answers it) but did not look up, with
    /// its memo key. The game's table is then slower to read than the
    /// caller's memo (a shape database: two dependent cache misses a
    /// lookup, where the memo's probes are prefetched together), so the
    /// caller looks the component up in its memo, with the other parts, and
    /// asks [`Game::known_value`] only when the memo does not hold it.
    Lookup(P, K),
    /// The current option has no more parts.
    End,
}
