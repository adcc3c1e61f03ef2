//! `grundy`: Sprague-Grundy values, winners and winning moves of impartial
//! games played on grids.
//!
//! The engine is organised as shared pieces and one module per game:
//! - [`nimber`]: [`Nimber`], [`mex`], nim-sums and the [`Outcome`];
//! - [`game`]: the [`Game`] trait, the rules of an impartial game with an
//!   optional split of positions into independent components;
//! - [`solver`]: a generic iterative [`Solver`] that memoises component values
//!   in a [`Table`] and finds every move to a target value among legal moves;
//! - [`clear`]: the rectangle-clearing game on boards of up to 64 cells;
//! - [`split`]: the splitting game on grids of up to 10^9 x 10^9 cells;
//! - [`pawn`]: a pawn on a grid of up to 10^9 x 10^9 with impassable cells;
//! - [`radix`]: a stable radix sort of `u64` items by 30-bit keys;
//! - [`tier`]: bottom-up solving by tiers, a game-neutral [`tier::TierGame`]
//!   API and compact static tables of every position's value;
//! - [`sum`]: sums of many components with point updates, range values and
//!   winning moves ([`sum::FenwickTree`], [`sum::SegmentTree`], [`sum::GameSum`]).
//!
//! The engine knows nothing of text formats, terminals or HTTP: front-ends
//! parse input into the validated types here, call the engine and render.
#![deny(missing_docs)]

pub mod clear;
pub mod game;
pub mod nimber;
pub mod pawn;
mod prefetch;
pub mod radix;
pub mod solver;
pub mod split;
pub mod sum;
mod symmetry;
pub mod tier;

pub use game::{Game, OptionPart};
pub use nimber::{mex, nim_sum, MexSet, Nimber, Outcome};
pub use solver::{
    bytes_apart, bytes_in_words, seconds_in_words, Budget, HashTable, MoveAndPosition, Moves,
    MovesShown, Progress, SolveError, Solver, Table, ValuedMoves,
};
