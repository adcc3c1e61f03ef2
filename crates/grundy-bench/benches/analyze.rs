//! The Rust side of `grundy.clear.analyze` on a 4 x 4 board, for comparing
//! with the Python call (README, Python section): the same steps the
//! extension takes (the CLI's board parser, a fresh solver on the built-in
//! shapes, grundy-report's analysis), minus Python. The extension consults
//! the built-in 5 x 5 database first; a 4 x 4 board never reaches it (the
//! engine's 4 x 4 table answers first), so the plain solver is the same work.
//!
//! And the board parser alone on 10^4 boards, with LF and with CRLF line
//! ends: the two should cost about the same (a byte the first pass skipped
//! must cost the second pass nothing).
//!
//! `cargo bench -p grundy-bench --bench analyze`

use criterion::{criterion_group, criterion_main, Criterion};
use grundy::clear::Clear;
use grundy_report::clear::Analysis;
use std::hint::black_box;

fn analyze_4x4(c: &mut Criterion) {
    for (name, text) in [
        ("readme_example", "0110\n0000\n0000\n0001"),
        ("full", "1111\n1111\n1111\n1111"),
        ("random", "1011\n1110\n0111\n1101"),
    ] {
        c.bench_function(&format!("clear_analyze_4x4/{name}"), |b| {
            b.iter(|| {
                let boards: Vec<_> =
                    grundy_report::parse::clear::parse_boards(black_box(text.as_bytes()))
                        .unwrap()
                        .into_iter()
                        .map(|p| p.board)
                        .collect();
                let mut solver = Clear::new().into_solver();
                Analysis::of(&mut solver, &boards).unwrap()
            });
        });
    }
}

fn parse_boards_10k(c: &mut Criterion) {
    let board = ["1101", "0110", "1111", "0011"];
    for (name, end) in [("lf", "\n"), ("crlf", "\r\n")] {
        let text: String = (0..10_000)
            .map(|_| {
                board
                    .iter()
                    .map(|row| format!("{row}{end}"))
                    .collect::<String>()
                    + end
            })
            .collect();
        c.bench_function(&format!("parse_boards_10k/{name}"), |b| {
            b.iter(|| {
                grundy_report::parse::clear::parse_boards(black_box(text.as_bytes())).unwrap()
            });
        });
    }
}

criterion_group!(benches, analyze_4x4, parse_boards_10k);
criterion_main!(benches);
