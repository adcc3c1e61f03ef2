//! The one integration-test binary of the `grundy` command: each game's
//! tests live in a module under `tests/cli/`.

mod check;
mod clear;
mod common;
mod conventions;
mod explain;
mod judge;
mod large;
mod pawn;
mod serve;
mod split;
mod sum;
mod tables;
