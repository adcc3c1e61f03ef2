//! Rectangle clearing on boards of any size.
//!
//! **Rule.** The game of [`crate::clear`]: a move clears a rectangle of
//! ones; who cannot move loses. A board of any `rows x cols` is a
//! [`LargeBoard`] (rows of 64-bit words); its value is the XOR of its
//! 4-connected components' values, as on small boards.
//!
//! **Algorithm.** The board is labelled once ([`LargeBoard::components`],
//! runs joined by a union-find). A component whose bounding box holds at
//! most 64 cells is a small [`Board`](crate::clear::Board) and is valued by
//! the small-board solver with its tables and shape databases; a larger one
//! (a 30-cell snake may span 15 x 15) is searched by [`LargeClear`], which
//! hands every part that fits back to the small-board rules. Components are
//! grouped into classes by canonical form under the 8 symmetries, and a
//! class met an even number of times cancels (`X ⊕ X = 0`): only the others
//! are valued for the total ([`analysis`]). The engine ([`engine`]) also
//! finds moves that win by pairs alone, without any value: halving a
//! symmetric shape, and mirroring the opponent's reply afterwards; and
//! [`half_turn`] values a shape that is its own half turn about an
//! uncovered middle (a ring, a frame) at 0 on any size, with the move
//! that makes a shape so and the answer to every reply.
//!
//! **Cost.** Labelling is O(words + runs); each component costs one
//! canonical form (a few word operations when it fits 64 cells, a pass over
//! its box for each of the 8 symmetries otherwise) and one hash; each class
//! one search. A 1000 x 1000 board at 20% ones has about 100,000 components
//! in a few thousand classes, nearly all valued by table.
//!
//! **Why it is correct.** Components are independent games (a rectangle of
//! ones is connected, so it lies in one component); congruent shapes are
//! the same game (each symmetry maps rectangles to rectangles); and a sum
//! in which every game has an equal partner has value 0. Each rule is
//! checked against a brute force on whole boards in the tests.

pub mod analysis;
pub mod engine;
pub mod game;
pub mod grid;
pub mod half_turn;

pub use analysis::{
    analyse, analyse_after_stop, analysis_bytes, classify, value_unpaired, Analyzer, ClassInfo,
    ComponentInfo, LargeAnalysis, LargeWinningMove, WinReason, OUTCOME_SHARE,
};
pub use engine::{choose_move, unanalysed_move, EngineChoice, Guess, MoveReason};
pub use game::{LargeClear, Part, ShapeClass};
pub use grid::{Components, Extent, LargeBoard, LargeBoardError, LargeRect, Run};

#[cfg(test)]
mod tests;
