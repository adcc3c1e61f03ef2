//! The subcommands, one module each.

pub mod clear;
pub mod judge;
pub mod split;
