//! Builds the 5 x 5 shape database that `grundy.tables.open()` returns and
//! every analysis consults, with the engine's tier solver, as the `grundy`
//! binary's build script does (that one lives in grundy-cli's binary, which
//! a Python extension cannot link): the same inputs, so the same bytes.

use std::path::PathBuf;

use grundy::clear::shapes::{ClearShapes, ShapeBox};
use grundy::tier::{solve_tiers, TierControl};

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let path = out.join("clear-5x5.gdb");
    let shape_box = ShapeBox::new(5, 5).expect("a supported box");
    let _ = std::fs::remove_file(grundy_db::partial_path(&path));
    let (mut writer, mut tables) =
        grundy_db::Writer::create_or_resume(&path, shape_box).expect("OUT_DIR is writable");
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
