//! Analysis reports of grundy's games: what the engine found about a
//! position (values, components, winner, winning moves, the value every move
//! leads to, the engine's move), as plain structs that serialise to the JSON
//! the front-ends print.
//!
//! The engine (`grundy`) knows nothing of serde; the command line and the web
//! server both need the same analysis and the same JSON, so it lives here,
//! one module per game, and neither front-end depends on the other.
#![deny(missing_docs)]

pub mod clear;
pub mod pawn;
pub mod split;
