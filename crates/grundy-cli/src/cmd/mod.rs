//! The subcommands, one module each.

pub mod clear;
pub mod judge;
pub mod pawn;
pub mod serve;
pub mod split;
pub mod sum;
