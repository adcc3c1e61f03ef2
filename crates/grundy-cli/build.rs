//! Embeds two tables the binary would otherwise rebuild at run time, both
//! built here by the engine's own code:
//! - the value of every 4 x 4 rectangle-clearing board (64 KiB), so the
//!   `pshtbrth` judge does not spend a few milliseconds of every run (a
//!   tenth of it on the largest input) rebuilding it;
//! - the shape database of the 5 x 5 box (every shape that fits 5 x 5,
//!   solved by the tier solver and written by `grundy-db`), so `grundy
//!   clear`, `sum` and `serve` answer any board whose components fit 5 x 5
//!   with lookups and no search.
//!
//! Unit tests check both against the engine's own builds.

use std::path::PathBuf;

use grundy::clear::shapes::ShapeBox;
use grundy::tier::TierControl;

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let table = grundy::clear::table::build();
    std::fs::write(out.join("table4x4.bin"), &table[..]).expect("OUT_DIR is writable");

    let path = out.join("clear-5x5.gdb");
    let _ = std::fs::remove_file(grundy_db::partial_path(&path));
    let shape_box = ShapeBox::new(5, 5).expect("a supported box");
    // The one build entry of the CLI and Python: the tier engine's loop
    // into a database file.
    grundy_db::build(&path, shape_box, &TierControl::new(), |_| {})
        .expect("no budget, and OUT_DIR is writable");
    println!("cargo::rerun-if-changed=build.rs");
}
