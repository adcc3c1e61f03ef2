//! Builds the database of every shape that fits 5 x 5 with the engine's
//! tier solver and grundy-db's writer, into `OUT_DIR/clear-5x5.gdb`, which
//! the library compiles in. One build script for every front-end (the
//! `grundy` binary and the Python extension link this crate).

use std::path::PathBuf;

use grundy::clear::shapes::{ClearShapes, ShapeBox};
use grundy::tier::{solve_tiers, TierControl};

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let path = out.join("clear-5x5.gdb");
    let shape_box = ShapeBox::new(5, 5).expect("a supported box");
    // A fresh build: never resume a partial file of an older engine.
    let _ = std::fs::remove_file(grundy_db::partial_path(&path));
    let mut writer = grundy_db::Writer::create(&path, shape_box).expect("OUT_DIR is writable");
    let mut tables = Vec::new();
    solve_tiers::<_, Box<dyn std::error::Error>, _>(
        &ClearShapes::new(shape_box),
        &mut tables,
        &TierControl::new(),
        |_, table| writer.append(table).map_err(Into::into),
    )
    .expect("no budget, and OUT_DIR is writable");
    writer.finish().expect("OUT_DIR is writable");
    println!("cargo::rerun-if-changed=build.rs");
}
