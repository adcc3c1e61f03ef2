//! The front-end pieces of the `grundy` command that are worth testing and
//! fuzzing on their own: the judge formats and the query format. The board,
//! grid and pawn parsers and the typed parse errors are
//! `grundy_report::parse`'s, where the web server and Python find them too.
//! The binary in `main.rs` wires them to the engine.
#![deny(missing_docs)]

pub mod judge;
pub mod queries;
