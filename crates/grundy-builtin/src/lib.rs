//! The data compiled into grundy's front-ends, kept in `data/` beside this
//! crate: the database of every rectangle-clearing shape that fits 5 x 5
//! (582 KB, written by grundy-db), so `grundy clear`, `sum`, `serve` and the
//! Python package answer any board whose components fit 5 x 5 with lookups
//! and no search; and the value of every 4 x 4 board (64 KiB), so the
//! `pshtbrth` judge does not rebuild it on every run.
//!
//! Both are files in the repository rather than outputs of a build script:
//! a build script would compile the engine a second time for the build
//! host and run the tier solver on every cold build (the Python wheel's
//! among them). They are derived data all the same, never edited by hand:
//! this crate's tests build both afresh with the engine and compare them
//! byte for byte, and `GRUNDY_BLESS=1 cargo test -p grundy-builtin` writes
//! the fresh files in their place after a change to the engine or the
//! format.
//!
//! The bytes are `static` arrays (constant data, no state); each call of
//! [`clear_5x5`] checks them as a file is checked (header and checksums,
//! well under a millisecond) and hands out a database the caller owns.

#![deny(missing_docs)]

use grundy_db::{Database, DbSet};

/// The name the built-in database reports as its path.
pub const NAME: &str = "<built-in clear-5x5.gdb>";

/// The file's bytes, aligned for in-place `u64` slots.
#[repr(C, align(4096))]
struct Aligned<T: ?Sized>(T);

static BYTES: &Aligned<[u8]> = &Aligned(*include_bytes!("../data/clear-5x5.gdb"));

/// The bytes of the built-in database (a complete `.gdb` file).
#[must_use]
pub fn bytes() -> &'static [u8] {
    &BYTES.0
}

/// The database of every shape that fits 5 x 5.
///
/// # Panics
///
/// Never in a build that passed this crate's tests: they check that the
/// bytes are the file grundy-db's writer writes for the 5 x 5 box.
#[must_use]
pub fn clear_5x5() -> DbSet {
    DbSet::whole(
        Database::from_static(NAME, bytes()).expect("the tests check the built-in database"),
    )
}

/// The value of every 4 x 4 rectangle-clearing board, indexed by the board
/// with cell (row, col) at bit `4 * row + col`: the engine's
/// `grundy::clear::table::build()`, as this crate's tests check.
pub static TABLE_4X4: &[u8; 1 << 16] = include_bytes!("../data/table4x4.bin");

#[cfg(test)]
mod tests {
    use std::path::Path;

    use grundy::clear::shapes::ShapeBox;
    use grundy::tier::TierControl;

    /// Compares `fresh` with the committed file `data/NAME`; with
    /// `GRUNDY_BLESS=1` in the environment, a different file is replaced.
    fn same_as_committed(name: &str, committed: &[u8], fresh: &[u8]) {
        if committed == fresh {
            return;
        }
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("data")
            .join(name);
        if std::env::var_os("GRUNDY_BLESS").is_some_and(|v| v == "1") {
            std::fs::write(&path, fresh).unwrap();
            eprintln!("wrote {}: rebuild to embed it", path.display());
            return;
        }
        panic!(
            "{} ({} bytes) differs from a fresh build ({} bytes): if the engine or the file format changed on purpose, run `GRUNDY_BLESS=1 cargo test -p grundy-builtin` and commit the new file",
            path.display(),
            committed.len(),
            fresh.len()
        );
    }

    /// The built-in database is, byte for byte, the file grundy-db writes
    /// for the 5 x 5 box with the engine's tier solver.
    #[test]
    fn the_built_in_database_is_a_fresh_build() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("clear-5x5.gdb");
        let shape_box = ShapeBox::new(5, 5).unwrap();
        grundy_db::build(&path, shape_box, &TierControl::new(), |_| {}).unwrap();
        let fresh = std::fs::read(&path).unwrap();
        same_as_committed("clear-5x5.gdb", super::bytes(), &fresh);
        // And it opens as the database of that box.
        assert_eq!(super::clear_5x5().shape_box(), shape_box);
    }

    /// The built-in 4 x 4 table is the engine's build of it.
    #[test]
    fn the_built_in_table_is_a_fresh_build() {
        let fresh = grundy::clear::table::build();
        same_as_committed("table4x4.bin", super::TABLE_4X4, &fresh[..]);
    }
}
