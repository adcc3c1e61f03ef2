//! The judges' input on the largest tests, read two ways: what `grundy
//! judge` did before (`gridgame`: the file read whole into fresh memory;
//! `pshtbrth`: streamed through one buffer) and what it does for a file now
//! (mapped, and parsed in place). This is the benchmark behind the one
//! `unsafe` call of `grundy judge` (`output::map`): the inputs are written
//! to a temporary file, as a judge's `< input` is, and each iteration
//! reads (or maps) and answers it whole, so the page faults and copies are
//! measured with the parsing.

use std::fs::File;
use std::hint::black_box;
use std::io::Write;
use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion};
use grundy_cli::judge::{gridgame, pshtbrth};

struct Stream(u64);

impl Stream {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// One test of 10^5 impassable cells and 10^5 starts, coordinates up to
/// 10^9, a third of the starts near the diagonal (as
/// `shared/baselines/gen_gridgame.py`, whose cells are uniform at this
/// size).
fn gridgame_input() -> Vec<u8> {
    let mut rng = Stream(0x9E37_79B9_7F4A_7C15);
    let max = 1_000_000_001;
    let mut cells = std::collections::HashSet::new();
    while cells.len() < 100_000 {
        cells.insert((rng.below(max), rng.below(max)));
    }
    let mut out = format!("1\n{}\n", cells.len());
    for (x, y) in &cells {
        out += &format!("{x} {y}\n");
    }
    out += "100000\n";
    let mut starts = 0;
    while starts < 100_000 {
        let x = rng.below(max);
        let y = if rng.below(3) == 0 {
            x.saturating_sub(rng.below(4))
        } else {
            rng.below(max)
        };
        if !cells.contains(&(x, y)) {
            out += &format!("{x} {y}\n");
            starts += 1;
        }
    }
    out.into_bytes()
}

/// Five tests of 10^5 boards and 10^5 queries, half of them replacements
/// (as `shared/baselines/gen_pshtbrth.py`): about 21 MB.
fn pshtbrth_input() -> Vec<u8> {
    let mut rng = Stream(7);
    let n = 100_000;
    let mut out = String::from("5\n");
    let mut board = |rng: &mut Stream, out: &mut String| {
        let density = rng.below(101);
        for _ in 0..4 {
            for _ in 0..4 {
                out.push(if rng.below(100) < density { '1' } else { '0' });
            }
            out.push('\n');
        }
    };
    for _ in 0..5 {
        out += &format!("{n} {n}\n");
        for _ in 0..n {
            board(&mut rng, &mut out);
            out.push('\n');
        }
        for _ in 0..n {
            if rng.below(2) == 0 {
                let left = 1 + rng.below(n);
                out += &format!("1 {left} {}\n", left + rng.below(n - left + 1));
            } else {
                out += &format!("2 {}\n", 1 + rng.below(n));
                board(&mut rng, &mut out);
            }
        }
    }
    out.into_bytes()
}

#[allow(unsafe_code)]
fn map(path: &Path) -> memmap2::Mmap {
    let file = File::open(path).expect("the input file");
    // SAFETY: the file is this benchmark's own temporary file, which
    // nothing else writes while it is mapped.
    unsafe { memmap2::Mmap::map(&file) }.expect("mapped")
}

fn bench_inputs(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let gridgame_path = dir.path().join("gridgame.in");
    let pshtbrth_path = dir.path().join("pshtbrth.in");
    File::create(&gridgame_path)
        .and_then(|mut f| f.write_all(&gridgame_input()))
        .expect("written");
    File::create(&pshtbrth_path)
        .and_then(|mut f| f.write_all(&pshtbrth_input()))
        .expect("written");

    let mut group = c.benchmark_group("judge_input/gridgame_1e5");
    group.sample_size(30);
    group.bench_function("read_whole", |b| {
        b.iter(|| {
            let bytes = std::fs::read(&gridgame_path).expect("read");
            gridgame::run(black_box(&bytes), std::io::sink()).expect("answers")
        })
    });
    group.bench_function("mapped", |b| {
        b.iter(|| gridgame::run(black_box(&map(&gridgame_path)), std::io::sink()).expect("answers"))
    });
    group.finish();

    let mut group = c.benchmark_group("judge_input/pshtbrth_21mb");
    group.sample_size(20);
    group.bench_function("streamed", |b| {
        b.iter(|| {
            let file = File::open(&pshtbrth_path).expect("opened");
            pshtbrth::run_reader(file, std::io::sink(), pshtbrth::CHUNK).expect("answers")
        })
    });
    group.bench_function("mapped_in_place", |b| {
        b.iter(|| pshtbrth::run(black_box(&map(&pshtbrth_path)), std::io::sink()).expect("answers"))
    });
    group.finish();
}

criterion_group!(benches, bench_inputs);
criterion_main!(benches);
