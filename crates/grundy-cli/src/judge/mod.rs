//! The contest problems' exact input and output formats. Each judge reads the
//! whole input from a byte slice and appends its answers to `out`, so the
//! answers before a parse error can still be printed.

pub mod caos3;
pub mod gfg;
pub mod gridgame;
pub mod pshtbrth;
