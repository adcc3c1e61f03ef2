//! Converting a database to the compact format (version 2), for
//! `grundy tables convert OLD NEW`: every tier's shapes and values, read
//! from `OLD` (either version, whole or in parts), are laid out afresh as
//! compact tiers and written to `NEW` as a build writes it (one writer with
//! the lock on `NEW.partial`, renamed into place when complete). Cost: one
//! pass over `OLD`, one compact tier in memory at a time.

use std::path::Path;

use grundy::tier::CompactTier;

use crate::{DbError, DbSet, Header, Writer};

/// Converts the database at `old` (any version, a whole file or the parts
/// of one build) into a compact database at `new`.
///
/// # Errors
///
/// The errors of [`DbSet::open`] and [`DbSet::for_each_tier`] for `old`,
/// and of [`Writer`] for `new`; [`DbError::Corrupt`] if a tier cannot be
/// laid out.
pub fn convert(old: &Path, new: &Path) -> Result<Header, DbError> {
    let set = DbSet::open(old)?;
    let mut writer = Writer::create_compact(new, set.shape_box())?;
    set.for_each_tier(|tier, entries| {
        let bytes = CompactTier::build_from_entries(entries).map_err(|e| DbError::Corrupt {
            path: new.to_owned(),
            what: format!("tier {tier}: {e}"),
        })?;
        writer.append_compact(&bytes)
    })?;
    writer.finish()
}
