//! Times building the 4 x 4 table.
//! `cargo run --release -p grundy --example clear_table`
use std::time::Instant;

fn main() {
    let runs = 50;
    let start = Instant::now();
    let mut zeros = 0;
    for _ in 0..runs {
        let table = grundy::clear::table::build();
        zeros += table.iter().filter(|&&v| v == 0).count();
    }
    println!(
        "4 x 4 table: {:?} per build, {} zeros, max {}",
        start.elapsed() / runs,
        zeros / runs as usize,
        grundy::clear::table::table().iter().max().unwrap()
    );
}
