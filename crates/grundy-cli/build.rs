//! Embeds the value of every 4 x 4 rectangle-clearing board (64 KiB),
//! built here by the engine's own code, so the `pshtbrth` judge does not
//! spend a few milliseconds of every run (a tenth of it on the largest
//! input) rebuilding it. (The 5 x 5 shape database the commands consult is
//! built by the `grundy-builtin` crate, for the binary and Python alike.)
//!
//! A unit test checks it against the engine's own build.

use std::path::PathBuf;

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let table = grundy::clear::table::build();
    std::fs::write(out.join("table4x4.bin"), &table[..]).expect("OUT_DIR is writable");
    println!("cargo::rerun-if-changed=build.rs");
}
