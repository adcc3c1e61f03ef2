//! Writes the 4 x 5 and 2 x 8 tables of `src/clear/table.rs` (the value of
//! every set of cells of those boxes) into `OUT_DIR`, from which the crate
//! includes them: see `src/clear/table/box_dp.rs`, whose DP this runs.

use std::path::PathBuf;

#[path = "src/clear/table/box_dp.rs"]
mod box_dp;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/clear/table/box_dp.rs");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    for (rows, cols) in [(4, 5), (2, 8)] {
        let path = out.join(format!("box_{rows}x{cols}.bin"));
        if let Err(err) = std::fs::write(&path, box_dp::build_box(rows, cols)) {
            panic!("cannot write {}: {err}", path.display());
        }
    }
}
