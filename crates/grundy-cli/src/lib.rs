//! The front-end pieces of the `grundy` command that are worth testing and
//! fuzzing on their own: the judge formats, the pawn and query formats, and
//! (re-exported from `grundy_report::parse`, where the web server finds them
//! too) the board and grid parsers and the typed parse errors. The binary in
//! `main.rs` wires them to the engine.
#![deny(missing_docs)]

pub mod boards;
pub mod grids;
pub mod input;
pub mod judge;
pub mod pawns;
pub mod queries;
