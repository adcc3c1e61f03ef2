//! The front-end pieces of the `grundy` command that are worth testing and
//! fuzzing on their own: the text formats (human and judge) and their typed
//! parse errors. The binary in `main.rs` wires them to the engine.
#![deny(missing_docs)]

pub mod boards;
pub mod grids;
pub mod input;
pub mod judge;
pub mod pawns;
pub mod queries;
