//! The judges' input on the largest tests, read two ways: what `grundy
//! judge` does with `GRUNDY_NO_MAP` set (`gridgame`: the file read whole
//! into fresh memory; `pshtbrth`: streamed through one buffer), and what it
//! does with a regular file otherwise (mapped, and parsed in place).
//! This is the benchmark behind the `unsafe` call of `grundy judge`
//! (`output::map`). Each iteration is one run of the `grundy` binary with
//! standard input from a file, as a judge's `< input`: a process, because
//! the cost that mapping saves is a fresh process's page faults and copy,
//! which a loop inside one process would not pay again (its allocator
//! reuses the memory).
//!
//! The binary is the release build's, beside this benchmark's directory
//! (`cargo build --release` first), or `GRUNDY_BIN`:
//!
//! ```sh
//! cargo build --release && cargo bench -p grundy-bench --bench judge_input
//! ```

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use criterion::{criterion_group, criterion_main, Criterion};

mod common;

use common::Stream;

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
    let board = |rng: &mut Stream, out: &mut String| {
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

/// The `grundy` binary: `GRUNDY_BIN`, or the one in the target directory
/// of this benchmark (`target/release/deps/judge_input-*` runs it from
/// `target/release/grundy`).
fn grundy_binary() -> PathBuf {
    if let Some(path) = std::env::var_os("GRUNDY_BIN") {
        return PathBuf::from(path);
    }
    let exe = std::env::current_exe().expect("the benchmark's own path");
    let path = exe
        .parent()
        .and_then(Path::parent)
        .map(|dir| dir.join("grundy"))
        .expect("the benchmark runs from target/PROFILE/deps");
    assert!(
        path.is_file(),
        "{} not found: run `cargo build --release` first, or set GRUNDY_BIN",
        path.display()
    );
    path
}

/// Runs `grundy judge PROBLEM` with standard input from `path`, mapped or,
/// with `GRUNDY_NO_MAP` set, read into memory.
fn judge(grundy: &Path, problem: &str, path: &Path, mapped: bool) {
    let mut command = std::process::Command::new(grundy);
    command
        .args(["judge", problem])
        .stdin(File::open(path).expect("the input"))
        .stdout(std::process::Stdio::null());
    if !mapped {
        command.env("GRUNDY_NO_MAP", "1");
    }
    assert!(command.status().expect("runs").success());
}

fn bench_inputs(c: &mut Criterion) {
    let grundy = grundy_binary();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let inputs = [
        ("gridgame", "judge_input/gridgame_1e5", gridgame_input()),
        ("pshtbrth", "judge_input/pshtbrth_21mb", pshtbrth_input()),
    ];
    for (problem, name, input) in inputs {
        let path = dir.path().join(problem);
        File::create(&path)
            .and_then(|mut f| f.write_all(&input))
            .expect("written");
        let mut group = c.benchmark_group(name);
        group.sample_size(30);
        group.bench_function("read", |b| b.iter(|| judge(&grundy, problem, &path, false)));
        group.bench_function("mapped", |b| {
            b.iter(|| judge(&grundy, problem, &path, true))
        });
        group.finish();
    }
}

criterion_group!(benches, bench_inputs);
criterion_main!(benches);
