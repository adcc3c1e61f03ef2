//! The shape database compiled into grundy's front-ends: every
//! rectangle-clearing shape that fits 5 x 5 (about 2.9 MB), built by this
//! crate's build script with the engine's tier solver and written by
//! grundy-db, so `grundy clear`, `sum`, `serve` and the Python package
//! answer any board whose components fit 5 x 5 with lookups and no search.
//!
//! The bytes are a `static` array (constant data, no state); each call of
//! [`clear_5x5`] checks them as a file is checked (header and checksums,
//! well under a millisecond) and hands out a database the caller owns.
//! A test checks the database against a fresh build.

#![deny(missing_docs)]

use grundy_db::{Database, DbSet};

/// The name the built-in database reports as its path.
pub const NAME: &str = "<built-in clear-5x5.gdb>";

/// The file's bytes, aligned for in-place `u64` slots.
#[repr(C, align(4096))]
struct Aligned<T: ?Sized>(T);

static BYTES: &Aligned<[u8]> =
    &Aligned(*include_bytes!(concat!(env!("OUT_DIR"), "/clear-5x5.gdb")));

/// The bytes of the built-in database (a complete `.gdb` file).
#[must_use]
pub fn bytes() -> &'static [u8] {
    &BYTES.0
}

/// The database of every shape that fits 5 x 5.
///
/// # Panics
///
/// Never in a build of this crate: the build script wrote the bytes with
/// grundy-db's writer, and a test opens them.
#[must_use]
pub fn clear_5x5() -> DbSet {
    DbSet::whole(Database::from_static(NAME, bytes()).expect("build.rs wrote a valid database"))
}

#[cfg(test)]
mod tests {
    use grundy::clear::shapes::{ClearShapes, ShapeBox};
    use grundy::tier::{solve_tiers, Entry, TierControl, TierError};

    /// The built-in database equals a fresh build of the 5 x 5 box.
    #[test]
    fn the_built_in_database_equals_a_fresh_build() {
        let shape_box = ShapeBox::new(5, 5).unwrap();
        let mut fresh = Vec::new();
        solve_tiers::<_, TierError, _>(
            &ClearShapes::new(shape_box),
            &mut fresh,
            &TierControl::new(),
            |_, _| Ok(()),
        )
        .unwrap();
        let set = super::clear_5x5();
        assert_eq!(set.shape_box(), shape_box);
        // Every tier's shapes and values, as the compact file gives them
        // back (its keys regenerated), against the tables in memory.
        let mut tiers = 0;
        set.for_each_tier(|tier, entries| {
            let mut expected: Vec<Entry> = fresh[tier.index()].entries().collect();
            expected.sort_unstable();
            assert_eq!(entries, &expected[..], "tier {tier}");
            tiers += 1;
            Ok::<(), grundy_db::DbError>(())
        })
        .unwrap();
        assert_eq!(tiers, fresh.len());
    }
}
