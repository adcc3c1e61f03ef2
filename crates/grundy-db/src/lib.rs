//! Shape databases: the file format of solved
//! [`ShapeTables`](grundy::clear::shapes::ShapeTables), written
//! atomically and resumably by one writer at a time, read back through a
//! memory map.
//!
//! The file format is described in [`mod@format`]; [`Header`] encodes its
//! header, [`Database`] reads a file, [`Writer`] writes one (with its lock)
//! and [`DbSet`] answers from a whole file or from the parts of a
//! partitioned build.

#![deny(missing_docs)]

#[cfg(not(target_endian = "little"))]
compile_error!("shape databases are read in place as little-endian u64 slots");

mod database;
mod error;
pub mod format;
mod header;
mod set;
mod writer;

pub use database::{Database, Section, Slots};
pub use error::{available_space, DbError};
pub use format::{HEADER_LEN, MAGIC, MAX_TIERS, VERSION, VERSION_SLOTS};
pub use header::{estimated_size, Header, Part, TierEntry};
pub use set::{other_partials, part_path, DbSet};
pub use writer::{file_kind, held_by_a_build, partial_path, Writer};

pub(crate) use error::{io, Result};

pub mod check;
pub mod convert;
pub mod discover;
pub mod memory;
pub mod meta;
mod solving;
pub mod store;

pub use store::{build, build_with, BuildFailed, BuiltFile, FileStore};

pub use convert::convert;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_compact;
