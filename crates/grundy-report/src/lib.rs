//! Analysis reports of grundy's games: what the engine found about a
//! position (values, components, winner, winning moves, the value every move
//! leads to, the engine's move), as plain structs that serialise to the JSON
//! the front-ends print.
//!
//! The engine (`grundy`) knows nothing of serde or text; the command line,
//! the web server (and the Python package) need the same analysis, the same
//! JSON, the same text formats ([`parse`]: one parser per format) and the
//! same wording ([`words`]: one formatter for moves, players and play-outs),
//! so they live here, one module per game, and no front-end depends on
//! another.
#![deny(missing_docs)]

pub mod clear;
pub mod databases;
pub mod explain;
pub mod large;
#[cfg(test)]
mod oracle;
pub mod parse;
pub mod pawn;
pub mod split;
pub mod words;

use serde::Serialize;

/// An engine's move as every game's `--move` gives it, `M` being the
/// game's move: `{"move": M, "proven", "kind", "grundy", "reason", "text"}`
/// in JSON (`grundy` only when known);
/// `text`, then `reason`, in words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EngineMove<M> {
    /// The move, 0-based.
    #[serde(rename = "move")]
    pub mv: M,
    /// True when the move is proven best (it wins, or every move loses).
    pub proven: bool,
    /// `"winning"`, `"losing"` (every move loses) or `"unproven"`.
    pub kind: &'static str,
    /// The value of the whole position after the move, when the engine
    /// knows it: 0 after a proven winning move, the value left after a
    /// losing one; `null` in the JSON when unknown (an unproven move, or a
    /// lost position whose options were not valued), as every unknown
    /// value is.
    pub grundy: Option<u32>,
    /// Why it was chosen: `proven winning: ...`, `losing position: ...` or
    /// `unproven: ...`.
    pub reason: String,
    /// The move in words ([`words`]): `clear (1,2)-(1,3)`, `split at
    /// (2,3)`, `move pawn (6,5) -> (4,5)`.
    pub text: String,
}

/// A winning move with its line: the move and why it wins, as the command
/// line lists it (each game's `winning_line`, e.g. `split at (1,3), leaving
/// grundy 0 (rectangles left with candidates: ...)`), so that every
/// front-end's JSON and text word it once: `{...the move's fields, "text"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Lined<M> {
    /// The move, its fields inlined in the JSON.
    #[serde(flatten)]
    pub mv: M,
    /// The move and why it wins, in words.
    pub text: String,
}

/// A move with the value of the position it leaves (0: a winning move).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ValuedMove<M> {
    /// The move, its fields inlined in the JSON.
    #[serde(flatten)]
    pub mv: M,
    /// The value after the move (of the whole sum, for a sum).
    pub grundy: u32,
    /// The move in words, as the command line prints it
    /// ([`words::leaving`]): `clear (1,2)-(1,2), leaving grundy 0`.
    pub text: String,
}

impl<M> ValuedMove<M> {
    /// `mv`, worded `phrase` (one of [`words`]' move phrases), leaving
    /// `grundy`.
    #[must_use]
    pub fn new(mv: M, phrase: &str, grundy: u32) -> Self {
        ValuedMove {
            mv,
            grundy,
            text: words::leaving(phrase, grundy),
        }
    }
}

/// The values reached by the legal moves of a position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveValues<M> {
    /// The moves listed, in the game's move order.
    pub moves: Vec<ValuedMove<M>>,
    /// How many legal moves the position has in all.
    pub moves_total: usize,
    /// False when `moves` is an evenly spread sample, not every move.
    pub moves_complete: bool,
}

impl<M> MoveValues<M> {
    /// The listed `moves` out of the `moves_total` legal ones.
    #[must_use]
    pub fn new(moves: Vec<ValuedMove<M>>, moves_total: usize) -> Self {
        Self {
            moves_complete: moves.len() == moves_total,
            moves,
            moves_total,
        }
    }
}

/// All of `all` when there are at most `limit`, else `limit` of them spread
/// evenly over their order: indices `i * len / limit` for `i < limit` are
/// strictly increasing, so the sample holds `limit` distinct items. Games
/// sample their moves with it before valuing them, so a large position
/// costs `limit` valuations, not one per move.
#[must_use]
pub fn spread<T: Copy>(all: Vec<T>, limit: usize) -> Vec<T> {
    let len = all.len();
    if len <= limit {
        all
    } else {
        (0..limit).map(|i| all[i * len / limit]).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::spread;

    #[test]
    fn spread_keeps_everything_or_limit_distinct_items_in_order() {
        for len in 0..40 {
            let all: Vec<usize> = (0..len).collect();
            for limit in 0..45 {
                let sample = spread(all.clone(), limit);
                assert_eq!(sample.len(), len.min(limit));
                assert!(sample.windows(2).all(|pair| pair[0] < pair[1]));
                if limit > 0 && len > 0 {
                    assert_eq!(sample[0], 0, "the sample starts at the first item");
                }
            }
        }
    }
}
