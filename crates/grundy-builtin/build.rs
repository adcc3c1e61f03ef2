//! Builds the database of every shape that fits 5 x 5 with the engine's
//! tier solver and grundy-db's writer, into `OUT_DIR/clear-5x5.gdb`, which
//! the library compiles in. One build script for every front-end (the
//! `grundy` binary and the Python extension link this crate).

use std::path::PathBuf;

use grundy::clear::shapes::ShapeBox;
use grundy::tier::TierControl;

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let path = out.join("clear-5x5.gdb");
    let shape_box = ShapeBox::new(5, 5).expect("a supported box");
    // A fresh build: never resume a partial file of an older engine.
    let _ = std::fs::remove_file(grundy_db::partial_path(&path));
    // The one build entry of the CLI and Python: the tier engine's loop
    // into a database file (a stale partial file was removed above).
    grundy_db::build(&path, shape_box, &TierControl::new(), |_| {})
        .expect("no budget, and OUT_DIR is writable");
    println!("cargo::rerun-if-changed=build.rs");
}
