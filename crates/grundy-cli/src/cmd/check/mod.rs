//! `grundy check PROBLEM -- CMD [ARGS...]`: stress-tests a contest
//! solution against the exact judges, and shrinks the first input it gets
//! wrong to a 1-minimal one.
//!
//! Case `i` of `N` is generated from its own seed (the run's seed and `i`),
//! so the run is reproducible whatever `--jobs`; its size bound grows as
//! `max_size^((i/(N-1))^2)` (caos3, gfg: `^(i/(N-1))`): most cases are tiny (where a bug is found fast
//! and shrinks in few runs), the last is the largest, on which the solution
//! is timed against `grundy judge`. The first cases are the problem's edge
//! cases, and a quarter of the rest are edge cases again at larger sizes.
//! The expected answers come from the judges in this process
//! ([`grundy_cli::judge`]); the solution runs in a child process under
//! limits ([`runner`]). With several jobs the reported case is still the
//! first failing one: cases are handed out in order and every earlier case
//! finishes before the report.
//!
//! Exit codes: 0 every case passed; 1 a case failed (shrunk and written to
//! `--out`); 2 bad usage, a bad `--replay` file, or a CMD that cannot be
//! started; 3 `--max-time` ran out before every planned case had run.

mod problems;
mod runner;
mod shrink;

use std::ffi::OsString;
use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::ValueEnum;
use grundy_cli::judge::JudgeError;
use rand::rngs::StdRng;
use rand::{RngExt as _, SeedableRng as _};

use self::problems::{Caos3, Case, Gen, Gfg, Gridgame, Pshtbrth};
use self::runner::{Limits, Run, Scratch, SpawnError, Verdict};
use self::shrink::{Minimality, Outcome};
use crate::output::{InputError, UsageError};
use grundy_report::words;

#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// The problem whose judge gives the expected answers.
    #[arg(value_enum)]
    problem: Problem,
    /// The solution to test, with its arguments, after `--`. It reads the
    /// input on standard input and prints its answers.
    #[arg(last = true, required = true, value_name = "CMD")]
    cmd: Vec<OsString>,
    /// The seed of the random cases (default: from the clock; the report
    /// prints it).
    #[arg(long, conflicts_with = "replay")]
    seed: Option<u64>,
    /// How many cases to run.
    #[arg(long, default_value_t = 500, value_parser = crate::cmd::whole_in(1u64, Some(10_000_000)), conflicts_with = "replay", allow_hyphen_values = true)]
    cases: u64,
    /// The largest total number of boards, queries, impassable cells or
    /// starts of a case (caos3: the largest map side, at most 20; not for
    /// gfg, whose input is one 4 x 4 board); the last case has five tests
    /// of this many boards and queries each for pshtbrth, whose statement
    /// bounds each test [default: the statement's limit].
    // Bounded above by the statement's limit, which `run` checks.
    #[arg(long, value_parser = crate::cmd::whole_in(1u64, None), conflicts_with = "replay", allow_hyphen_values = true)]
    max_size: Option<u64>,
    /// gridgame: the largest coordinate.
    #[arg(long, default_value_t = DEFAULT_MAX_COORD, value_parser = crate::cmd::whole_in(1u32, Some(DEFAULT_MAX_COORD)), conflicts_with = "replay", allow_hyphen_values = true)]
    max_coord: u32,
    /// Whitespace: `any` also generates the variants the judges accept
    /// (CRLF, blank lines, tabs, no final newline); `plain` only the
    /// samples' layout.
    #[arg(long, value_enum, default_value = "any", conflicts_with = "replay")]
    whitespace: Whitespace,
    /// The time limit of one run, in seconds of CPU time, at least 0.01
    /// (and twice that plus a second of wall-clock time) [default: the
    /// statement's, 1 s].
    #[arg(long, value_parser = parse_time_limit, allow_hyphen_values = true)]
    time_limit: Option<Duration>,
    /// The memory limit of one run: peak resident memory (`512MB`,
    /// `1GiB`).
    #[arg(long, default_value = "256MiB", value_parser = parse_memory_limit, allow_hyphen_values = true)]
    memory_limit: u64,
    /// How many cases (and shrinking runs) to run at once.
    #[arg(long, default_value_t = 1, value_parser = crate::cmd::whole_in(1u64, Some(256)), allow_hyphen_values = true)]
    jobs: u64,
    /// Where to write failing.in, expected.out and received.out.
    #[arg(long, default_value = "grundy-check")]
    out: PathBuf,
    /// Run this input (`-`: standard input) and shrink it if it fails,
    /// instead of random cases
    /// (so without --seed, --cases, --max-size, --max-coord or
    /// --whitespace).
    #[arg(long, value_name = "FILE")]
    replay: Option<PathBuf>,
    /// A budget for the whole run, in seconds: past it, running stops (exit
    /// 3, or 1 with the smallest failing case so far when shrinking).
    #[arg(long, value_parser = super::parse_seconds, allow_hyphen_values = true)]
    max_time: Option<Duration>,
    /// The most runs of CMD spent shrinking.
    #[arg(long, default_value_t = 3000, value_parser = crate::cmd::whole_in(1u64, None), allow_hyphen_values = true)]
    shrink_runs: u64,
}

/// The least `--memory-limit`: no program's process, a shell's or a
/// C++ solution's, starts in less resident memory, so a smaller limit
/// would blame every solution.
const LEAST_MEMORY_LIMIT: u64 = 1 << 20;

/// `--memory-limit`: a size of at least [`LEAST_MEMORY_LIMIT`].
fn parse_memory_limit(text: &str) -> Result<u64, String> {
    let size = super::parse_size(text)?;
    if size < LEAST_MEMORY_LIMIT {
        return Err(format!(
            "{} is less than any process needs: give at least 1MiB",
            text.trim()
        ));
    }
    Ok(size)
}

/// `--time-limit`: as [`super::parse_seconds`], and at least a hundredth
/// of a second, the tick of the clock a run's CPU time is read from
/// (`/proc`): a smaller limit could not be told from 0.
fn parse_time_limit(text: &str) -> Result<Duration, String> {
    let limit = super::parse_seconds(text)?;
    if limit < Duration::from_millis(10) {
        return Err(
            "must be at least 0.01 seconds: a run's CPU time is counted in hundredths of a second"
                .to_owned(),
        );
    }
    Ok(limit)
}

/// `--memory-limit`'s default, 256 MiB, which the replay command leaves out.
const DEFAULT_MEMORY_LIMIT: u64 = 256 << 20;

const AFTER_HELP: &str = "\
Exit status: 0 every case passed, 1 a failing case was found (shrunk and
written to --out), 2 bad usage or a CMD that cannot run, 3 --max-time ran
out before every case had run, 130 stopped by a signal (Ctrl-C, SIGTERM,
SIGHUP).

Example:
  grundy check gridgame --seed 1 -- python3 sol.py
  grundy check gridgame --replay grundy-check/failing.in -- python3 sol.py";

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Problem {
    /// One 4 x 4 rectangle-clearing board: A or B.
    Gfg,
    /// Boards, range queries and replacements: Pishty or Lotsy.
    Pshtbrth,
    /// A pawn among impassable cells: Alice or Bob per start.
    Gridgame,
    /// The splitting game on '^'/'#' maps: Asuna or Kirito.
    Caos3,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Whitespace {
    Any,
    Plain,
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let statement_size = match args.problem {
        Problem::Gfg => 16,
        Problem::Pshtbrth | Problem::Gridgame => 100_000,
        Problem::Caos3 => 20,
    };
    // A flag that would change nothing is a mistake to say, not to ignore.
    if args.max_coord != DEFAULT_MAX_COORD && !matches!(args.problem, Problem::Gridgame) {
        return Err(UsageError("--max-coord applies to gridgame only".into()).into());
    }
    if args.max_size.is_some() && matches!(args.problem, Problem::Gfg) {
        return Err(UsageError(
            "--max-size does not apply to gfg, whose board is always 4 x 4".into(),
        )
        .into());
    }
    if let Some(size) = args.max_size.filter(|&size| size > statement_size) {
        return Err(UsageError(format!(
            "--max-size {size} is past the statement's limit of {statement_size}"
        ))
        .into());
    }
    match args.problem {
        Problem::Gfg => check::<Gfg>(args, statement_size),
        Problem::Pshtbrth => check::<Pshtbrth>(args, statement_size),
        Problem::Gridgame => check::<Gridgame>(args, statement_size),
        Problem::Caos3 => check::<Caos3>(args, statement_size),
    }
}

/// `--max-coord` when not given: the statement's largest coordinate.
const DEFAULT_MAX_COORD: u32 = 1_000_000_000;

/// A scratch directory, removed when dropped.
struct ScratchDir(PathBuf);

impl ScratchDir {
    fn new() -> anyhow::Result<ScratchDir> {
        let base = std::env::temp_dir();
        for n in 0..1000 {
            let dir = base.join(format!("grundy-check-{}-{n}", std::process::id()));
            match std::fs::create_dir(&dir) {
                Ok(()) => return Ok(ScratchDir(dir)),
                Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(err) => {
                    return Err(UsageError(format!(
                        "cannot make a scratch directory in {}: {err}",
                        base.display()
                    ))
                    .into())
                }
            }
        }
        Err(UsageError("cannot make a scratch directory".into()).into())
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// What a check run needs at hand: the command, the limits, the scratch
/// files of each worker.
struct Bench {
    cmd: Vec<OsString>,
    limits: Limits,
    scratch: Vec<Scratch>,
}

/// One run of a case: its input, the judge's answers, the run, the verdict
/// (`None`: stopped by the deadline).
struct Tried {
    input: Vec<u8>,
    expected: Vec<u8>,
    run: Run,
    verdict: Option<Verdict>,
}

impl Bench {
    fn try_input<C: Case>(&self, input: Vec<u8>, worker: usize) -> anyhow::Result<Tried> {
        let mut expected = Vec::new();
        C::judge(&input, &mut expected).map_err(|err| {
            anyhow::anyhow!(
                "internal error: the {} judge rejects a generated input: {err}",
                C::NAME
            )
        })?;
        // Past the deadline, or once asked to stop, nothing more is run (a
        // run in progress is stopped by the runner).
        let stop = if self.limits.is_interrupted() {
            Some(runner::Ended::Interrupted)
        } else if self.limits.deadline.is_some_and(|d| Instant::now() > d) {
            Some(runner::Ended::Deadline)
        } else {
            None
        };
        let run = if let Some(ended) = stop {
            Run {
                ended,
                stdout: Vec::new(),
                stderr_tail: String::new(),
                wall: Duration::ZERO,
                peak_memory: None,
                cpu: None,
            }
        } else {
            runner::run(&self.cmd, &input, &self.scratch[worker], &self.limits)?
        };
        let verdict = runner::verdict(&run, &expected, C::WORDS);
        Ok(Tried {
            input,
            expected,
            run,
            verdict,
        })
    }
}

/// A failing case found by the random runs.
struct Failure<C> {
    index: u64,
    case: C,
    tried: Tried,
}

fn check<C: Case>(args: &Args, statement_size: u64) -> anyhow::Result<ExitCode> {
    let start = Instant::now();
    let scratch_dir = ScratchDir::new()?;
    let jobs = args.jobs as usize;
    let time_limit = args
        .time_limit
        .unwrap_or(Duration::from_secs_f64(C::TIME_LIMIT));
    let bench = Bench {
        cmd: args.cmd.clone(),
        limits: Limits {
            time: time_limit,
            memory: args.memory_limit,
            output: 64 << 20,
            deadline: args.max_time.map(|t| start + t),
            interrupted: interrupt_on_signals()?,
        },
        scratch: (0..jobs.max(2))
            .map(|id| Scratch::new(&scratch_dir.0, id))
            .collect(),
    };
    let mut out = Lenient::new(crate::output::stdout());
    let result = match &args.replay {
        Some(path) => replay::<C>(args, &bench, path, &mut out),
        None => random_cases::<C>(args, &bench, statement_size, start, &mut out),
    };
    drop(scratch_dir);
    // The verdict stands when no one reads it any more (`| head`), and a
    // failure's files were written all the same; any other failed write
    // is an error of its own.
    let result = match out.error {
        Some(err) if err.kind() != std::io::ErrorKind::BrokenPipe && result.is_ok() => {
            Err(anyhow::Error::new(err).context("writing the report"))
        }
        _ => result,
    };
    result.map_err(|err| {
        if err.downcast_ref::<SpawnError>().is_some() {
            UsageError(err.to_string()).into()
        } else {
            err
        }
    })
}

/// The exit code of a check stopped by a signal (as a shell reports
/// SIGINT's).
const INTERRUPTED: u8 = 130;

/// A flag that SIGINT, SIGTERM and SIGHUP set instead of ending the
/// process: the runs in progress are killed and reaped (each watcher sees
/// the flag within 10 ms), the seed and what was found are reported, and
/// the check exits [`INTERRUPTED`]. A second signal does the same, not an
/// exit at once: the runs are process groups of their own, which the
/// terminal's Ctrl-C does not reach, so only the check can end them.
fn interrupt_on_signals() -> anyhow::Result<Arc<AtomicBool>> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let flag = Arc::new(AtomicBool::new(false));
    for signal in [SIGINT, SIGTERM, SIGHUP] {
        signal_hook::flag::register(signal, Arc::clone(&flag))?;
    }
    Ok(flag)
}

/// Standard output for a check's report: the first failed write is kept
/// and later output dropped, so that a reader who went away (`| head`)
/// stops neither the shrinking nor the writing of the failure's files.
struct Lenient<W> {
    inner: W,
    error: Option<std::io::Error>,
}

impl<W: std::io::Write> Lenient<W> {
    fn new(inner: W) -> Lenient<W> {
        Lenient { inner, error: None }
    }
}

impl<W: std::io::Write> std::io::Write for Lenient<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.error.is_none() {
            if let Err(err) = self.inner.write_all(buf) {
                self.error = Some(err);
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if self.error.is_none() {
            if let Err(err) = self.inner.flush() {
                self.error = Some(err);
            }
        }
        Ok(())
    }
}

/// The size bound of case `i` of `n`.
fn size_of(i: u64, n: u64, max: u64) -> usize {
    if n <= 1 || i + 1 >= n {
        return max as usize;
    }
    let p = i as f64 / (n - 1) as f64;
    // Squared for the large limits (10^5): most cases stay small; not for
    // caos3's 20, whose maps need a side of 3 to 5 for any candidate.
    let exponent = if max >= 1000 { p * p } else { p };
    ((max as f64).powf(exponent).round() as usize).clamp(1, max as usize)
}

/// Case `i` of the run.
fn generate<C: Case>(args: &Args, seed: u64, i: u64, max_size: u64) -> C {
    let mut rng = StdRng::seed_from_u64(seed ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let edges = C::EDGES.len() as u64;
    let edge = if i + 1 == args.cases {
        None
    } else if i < edges {
        Some(i as usize)
    } else {
        rng.random_bool(0.25)
            .then(|| rng.random_range(0..C::EDGES.len()))
    };
    let gen = Gen {
        size: size_of(i, args.cases, max_size),
        full: i + 1 == args.cases,
        max_coord: args.max_coord,
        edge,
        layouts: args.whitespace == Whitespace::Any,
    };
    C::generate(&mut rng, &gen)
}

fn random_cases<C: Case>(
    args: &Args,
    bench: &Bench,
    statement_size: u64,
    start: Instant,
    stdout: &mut impl std::io::Write,
) -> anyhow::Result<ExitCode> {
    // A short seed, easy to type again, that two runs started in the same
    // second (two solutions checked side by side) do not share.
    let seed = args.seed.unwrap_or_else(|| {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos());
        (nanos as u64 ^ u64::from(std::process::id()).rotate_left(20)) % 1_000_000
    });
    let max_size = args.max_size.unwrap_or(statement_size).min(statement_size);
    let n = args.cases;
    let bar = if std::io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(n);
        bar.set_style(
            indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} cases [{elapsed}]")
                .expect("static template"),
        );
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    let state = run_cases::<C>(args, bench, seed, max_size, &bar);
    bar.finish_and_clear();
    if let Some(err) = state.error {
        return Err(err);
    }
    if let Some(failure) = state.failure {
        let verdict = failure.tried.verdict.clone().expect("a failure");
        writeln!(
            stdout,
            "case {} of {n} fails (--seed {seed}{}): {}",
            failure.index + 1,
            if statement_size > 16 {
                format!(", size up to {}", size_of(failure.index, n, max_size))
            } else {
                String::new()
            },
            describe(&verdict, bench.limits.time, args.memory_limit),
        )?;
        shrink_and_report::<C>(args, bench, failure.case, failure.tried, stdout)?;
        if bench.limits.is_interrupted() {
            writeln!(stdout, "interrupted: the shrinking stopped early")?;
            return Ok(ExitCode::from(INTERRUPTED));
        }
        return Ok(ExitCode::FAILURE);
    }
    if state.stopped {
        let (what, code) = if bench.limits.is_interrupted() {
            ("interrupted", INTERRUPTED)
        } else {
            ("stopped: --max-time ran out", 3)
        };
        let progress = match state.passed {
            0 if n == 1 => "before the one case passed".to_owned(),
            0 => format!("before any of the {n} cases passed"),
            passed => format!("after {passed} of {n} cases, all passed"),
        };
        writeln!(stdout, "{what} {progress} (--seed {seed})")?;
        return Ok(ExitCode::from(code));
    }
    // gfg has one size: its board.
    let sizes = if statement_size > 16 {
        format!(", sizes up to {max_size}")
    } else {
        String::new()
    };
    let all = if n == 1 {
        "the one case passed".to_owned()
    } else {
        format!("all {n} cases passed")
    };
    writeln!(
        stdout,
        "{all} (--seed {seed}{sizes}, {:.1} s)",
        start.elapsed().as_secs_f64()
    )?;
    let (index, bytes) = state.largest;
    let largest: C = generate(args, seed, index, max_size);
    time_largest::<C>(
        args,
        bench,
        &largest,
        index,
        bytes,
        max_size,
        statement_size,
        stdout,
    )?;
    Ok(ExitCode::SUCCESS)
}

/// What the workers of [`random_cases`] found.
struct CasesFound<C> {
    failure: Option<Failure<C>>,
    /// The case with the largest input: index, bytes.
    largest: (u64, usize),
    passed: u64,
    stopped: bool,
    error: Option<anyhow::Error>,
}

/// Runs cases `0..args.cases` of `seed` on `args.jobs` workers, each case
/// once, until they pass, the first fails (the workers still run the
/// cases before it, so the failure reported is the first), the time
/// budget or an interrupt stops them, or the bench errs.
fn run_cases<C: Case>(
    args: &Args,
    bench: &Bench,
    seed: u64,
    max_size: u64,
    bar: &indicatif::ProgressBar,
) -> CasesFound<C> {
    let n = args.cases;
    let state = Mutex::new(CasesFound::<C> {
        failure: None,
        largest: (0, 0),
        passed: 0,
        stopped: false,
        error: None,
    });
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for worker in 0..args.jobs as usize {
            let (state, next, bar) = (&state, &next, &bar);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed) as u64;
                {
                    let state = state.lock().expect("no worker panics");
                    let failed_before = state.failure.as_ref().is_some_and(|f| f.index < i);
                    if i >= n || failed_before || state.stopped || state.error.is_some() {
                        return;
                    }
                }
                let case: C = generate(args, seed, i, max_size);
                let tried = bench.try_input::<C>(case.render(), worker);
                let mut state = state.lock().expect("no worker panics");
                match tried {
                    Err(err) => state.error = Some(err),
                    Ok(tried) => match &tried.verdict {
                        None => state.stopped = true,
                        Some(Verdict::Accepted) => {
                            state.passed += 1;
                            if tried.input.len() >= state.largest.1 {
                                state.largest = (i, tried.input.len());
                            }
                            bar.inc(1);
                        }
                        Some(_) => {
                            if state.failure.as_ref().is_none_or(|f| i < f.index) {
                                state.failure = Some(Failure {
                                    index: i,
                                    case,
                                    tried,
                                });
                            }
                        }
                    },
                }
            });
        }
    });
    state.into_inner().expect("no worker panics")
}

/// Times the solution against `grundy judge` on the largest input, one run
/// each, alone.
#[allow(clippy::too_many_arguments)]
fn time_largest<C: Case>(
    args: &Args,
    bench: &Bench,
    case: &C,
    index: u64,
    bytes: usize,
    max_size: u64,
    statement_size: u64,
    out: &mut impl std::io::Write,
) -> anyhow::Result<()> {
    let input = case.render();
    // The CPU time the verdict was given on.
    let solution = runner::run(&bench.cmd, &input, &bench.scratch[0], &bench.limits)?;
    let cpu = solution.cpu.map(|cpu| cpu.as_secs_f64());
    let judge_cmd = vec![
        std::env::current_exe()?.into_os_string(),
        "judge".into(),
        C::NAME.into(),
    ];
    let judge = runner::run(&judge_cmd, &input, &bench.scratch[1], &bench.limits)?;
    if let Some(failed) =
        runner::verdict(&solution, &judge.stdout, C::WORDS).filter(|v| *v != Verdict::Accepted)
    {
        writeln!(
            out,
            "warning: run alone on the largest input, the solution gave: {}",
            describe(&failed, bench.limits.time, args.memory_limit)
        )?;
    }
    let (mine, theirs) = (solution.wall.as_secs_f64(), judge.wall.as_secs_f64());
    let limit = bench.limits.time.as_secs_f64();
    // The limit is on CPU time, as the runs count it; the wall time only
    // where the CPU time cannot be read.
    let (used, clock) = cpu.map_or((mine, "wall"), |cpu| (cpu, "CPU"));
    writeln!(
        out,
        "largest input (case {}, {}), wall time: solution {mine:.3} s, grundy judge {theirs:.3} s \
         ({:.1}x the judge); {clock} time {used:.2} s, {:.0}% of the {limit} s time limit",
        index + 1,
        human_bytes(bytes),
        mine / theirs.max(1e-6),
        100.0 * used / limit
    )?;
    if used > 0.5 * limit {
        writeln!(
            out,
            "warning: time-limit risk: the solution used {:.0}% of the {limit} s limit ({clock} time) on the largest input",
            100.0 * used / limit
        )?;
    }
    if max_size < statement_size && args.max_size.is_some() {
        writeln!(
            out,
            "note: inputs were limited to --max-size {max_size}; the statement allows {statement_size}"
        )?;
    }
    if args.max_coord < DEFAULT_MAX_COORD {
        writeln!(
            out,
            "note: coordinates were limited to --max-coord {}; the statement allows {DEFAULT_MAX_COORD}",
            args.max_coord
        )?;
    }
    Ok(())
}

fn human_bytes(bytes: usize) -> String {
    if bytes >= 1 << 20 {
        format!("{:.1} MB", bytes as f64 / 1e6)
    } else if bytes >= 1 << 10 {
        format!("{:.1} kB", bytes as f64 / 1e3)
    } else {
        format!("{bytes} bytes")
    }
}

/// A verdict in words, with its details.
fn describe(verdict: &Verdict, time: Duration, memory: u64) -> String {
    match verdict {
        Verdict::Accepted => "accepted".into(),
        Verdict::WrongAnswer { first } => format!("wrong answer (answer {})", first + 1),
        Verdict::Unparsable { what } => format!("output that does not parse: {what}"),
        Verdict::RuntimeError { how } => format!("runtime error: {how}"),
        Verdict::TimeLimit { wall: false } => {
            format!("time limit exceeded ({} s of CPU time)", time.as_secs_f64())
        }
        Verdict::TimeLimit { wall: true } => format!(
            "time limit exceeded (waited {} s of wall-clock time, twice the {} s limit and a second)",
            (2.0 * time.as_secs_f64() + 1.0),
            time.as_secs_f64()
        ),
        // A limit given in decimal units (`10MB`) is no whole number of
        // MiB: rounded to a tenth rather than printed to 16 digits.
        Verdict::MemoryLimit if memory % (1 << 20) == 0 => {
            format!("memory limit exceeded ({} MiB)", memory >> 20)
        }
        Verdict::MemoryLimit => format!(
            "memory limit exceeded ({})",
            grundy_report::words::bytes(memory)
        ),
        Verdict::OutputLimit { stderr: false } => "output limit exceeded (64 MiB)".into(),
        Verdict::OutputLimit { stderr: true } => {
            "output limit exceeded (64 MiB on standard error)".into()
        }
    }
}

/// Shrinks a failing case, writes it out and prints the report.
fn shrink_and_report<C: Case>(
    args: &Args,
    bench: &Bench,
    case: C,
    tried: Tried,
    out: &mut impl std::io::Write,
) -> anyhow::Result<()> {
    let verdict = tried.verdict.clone().expect("a failure");
    let before = case.size();
    let (layout_before, render_before) = (case.layout(), case.render());
    let started = Instant::now();
    // The runs that failed the same way, by input: the final case's is
    // reported (not run again: a time limit near its edge may pass then).
    let failures = Mutex::new(std::collections::HashMap::new());
    let still_fails = |smaller: &C, worker: usize| -> anyhow::Result<Option<Outcome>> {
        let tried = bench.try_input::<C>(smaller.render(), worker)?;
        Ok(tried.verdict.clone().map(|v| {
            if v.same_kind(&verdict) {
                let mut failures = failures.lock().expect("no worker panics");
                failures.insert(tried.input.clone(), tried);
                Outcome::Same
            } else if v == Verdict::Accepted {
                Outcome::Passes
            } else {
                Outcome::Other
            }
        }))
    };
    let shrunk = shrink::shrink(
        case,
        verdict.is_resource(),
        args.shrink_runs as usize,
        args.jobs as usize,
        &still_fails,
    )?;
    let took = started.elapsed();
    let final_try = failures
        .into_inner()
        .expect("no worker panics")
        .remove(&shrunk.case.render())
        .unwrap_or(tried);
    // A time or memory verdict is shrunk by halves and quarters of the
    // lists alone (its cause is the input's size): "no smaller valid input"
    // would claim more than was tried.
    let coarse = matches!(shrunk.minimality, Minimality::Coarse);
    if shrunk.steps == 0 {
        match shrunk.runs {
            0 if coarse => writeln!(
                out,
                "not shrunk: no {} is a valid input: {}",
                if C::HAS_LISTS {
                    "half or quarter of its lists"
                } else {
                    "smaller input of those tried"
                },
                shrunk.case.size()
            )?,
            0 => writeln!(
                out,
                "not shrunk: it has no smaller valid input: {}",
                shrunk.case.size()
            )?,
            1 => writeln!(
                out,
                "not shrunk: the one smaller input tried ({:.1} s) does not fail this way: {}",
                took.as_secs_f64(),
                shrunk.case.size()
            )?,
            runs => writeln!(
                out,
                "not shrunk: none of the {runs} smaller inputs tried ({:.1} s) fails this way: {}",
                took.as_secs_f64(),
                shrunk.case.size()
            )?,
        }
    } else {
        let after = shrunk.case.size();
        // A step removes an element, lowers a number or makes the layout
        // plainer: when no count changed, the numbers or the layout did.
        let change = if after == before {
            let mut relaid = shrunk.case.clone();
            *relaid.layout_mut() = layout_before;
            let numbers = relaid.render() != render_before;
            let plainer = shrunk.case.layout() != layout_before;
            match (numbers, plainer) {
                (true, true) => format!("{after}, with smaller numbers, laid out more plainly"),
                (true, false) => format!("{after}, with smaller numbers"),
                _ => format!("{after}, laid out more plainly"),
            }
        } else {
            format!("{before} -> {after}")
        };
        writeln!(
            out,
            "shrunk in {}, {} taken ({:.1} s): {change}",
            words::count(shrunk.runs as u64, "run"),
            words::count(shrunk.steps as u64, "step"),
            took.as_secs_f64(),
        )?;
    }
    match shrunk.minimality {
        Minimality::OneMinimal { reductions: 0, .. } => writeln!(
            out,
            "1-minimal: no one-step reduction of it ({}) is a valid input",
            shrunk.case.elements()
        )?,
        Minimality::OneMinimal {
            reductions,
            other,
            pairs,
        } => {
            let kinds = if C::HAS_LISTS {
                format!("halves and quarters of its lists, and {}", shrunk.case.elements())
            } else {
                shrunk.case.elements().into_owned()
            };
            let others = match other {
                0 if reductions == 1 => ": it passes".to_owned(),
                0 => ": they all pass".to_owned(),
                1 if reductions == 1 => "; it fails in another way".to_owned(),
                1 => "; 1 of them fails in another way".to_owned(),
                _ => format!("; {other} of them fail in another way"),
            };
            if reductions == 1 {
                writeln!(
                    out,
                    "1-minimal: its one one-step reduction ({kinds}) does not fail this way{others}"
                )?;
            } else {
                writeln!(
                    out,
                    "1-minimal: none of its {reductions} one-step reductions ({kinds}) fails this \
                     way{others}"
                )?;
            }
            if let Some(pairs) = pairs.filter(|&p| p > 0) {
                if pairs == 1 {
                    writeln!(out, "(nor does its one two-step reduction)")?;
                } else {
                    writeln!(
                        out,
                        "(nor does any of its {pairs} two-step reductions)"
                    )?;
                }
            }
        }
        Minimality::Coarse => {
            let tried = if C::HAS_LISTS {
                "only halves and quarters of its lists were tried"
            } else {
                "it was shrunk in a few runs only"
            };
            // Not shrunk at all is said above, with the size.
            if shrunk.steps == 0 {
                writeln!(
                    out,
                    "({} depends on the input's size, so {tried}, at most {} runs)",
                    verdict.name(),
                    shrink::RESOURCE_RUNS
                )?;
            } else {
                writeln!(
                    out,
                    "not shrunk to 1-minimal: {} depends on the input's size, so {tried} (at \
                     most {} runs)",
                    verdict.name(),
                    shrink::RESOURCE_RUNS
                )?;
            }
        }
        Minimality::Stopped if bench.limits.is_interrupted() => writeln!(
            out,
            "not verified 1-minimal: shrinking was interrupted"
        )?,
        Minimality::Stopped => writeln!(
            out,
            "not verified 1-minimal: shrinking stopped at its budget (--shrink-runs {} or --max-time)",
            args.shrink_runs
        )?,
    }
    // One more run of the final case: a failure that does not repeat makes
    // the shrinking's "passes" untrustworthy, and the user should know.
    if !verdict.is_resource() {
        let again = bench.try_input::<C>(shrunk.case.render(), 0)?;
        if again
            .verdict
            .as_ref()
            .is_some_and(|v| !v.same_kind(&verdict))
        {
            writeln!(
                out,
                "note: run again, this case did not fail this way: the solution is not \
                 deterministic, so the shrinking above may have stopped early"
            )?;
        }
    }
    let one_minimal = matches!(shrunk.minimality, Minimality::OneMinimal { .. });
    if let Some(layout) = shrunk.case.layout().describe().filter(|_| one_minimal) {
        writeln!(
            out,
            "whitespace: {layout} (the same case laid out plainly does not fail this way)"
        )?;
    }
    report(args, bench, &final_try, out)
}

/// Prints the failing case, the answers side by side, writes the files and
/// the replay command.
fn report(
    args: &Args,
    bench: &Bench,
    tried: &Tried,
    out: &mut impl std::io::Write,
) -> anyhow::Result<()> {
    let verdict = tried.verdict.clone();
    match &verdict {
        Some(Verdict::Accepted) => {}
        Some(v) => {
            writeln!(
                out,
                "verdict: {} ({:.3} s{})",
                describe(v, bench.limits.time, args.memory_limit),
                tried.run.wall.as_secs_f64(),
                // A run too short for its memory to be read shows none.
                tried.run.peak_memory.filter(|&peak| peak > 0).map_or_else(
                    String::new,
                    |peak| format!(", peak memory {:.1} MiB", peak as f64 / f64::from(1 << 20))
                )
            )?;
        }
        None => {}
    }
    let text = String::from_utf8_lossy(&tried.input);
    let lines: Vec<&str> = text.lines().collect();
    writeln!(out, "\nfailing.in ({} lines):", lines.len())?;
    for line in lines.iter().take(40) {
        match line.trim_end_matches('\r') {
            "" => writeln!(out)?,
            line => writeln!(out, "    {line}")?,
        }
    }
    if lines.len() > 40 {
        writeln!(out, "    ... {} more lines", lines.len() - 40)?;
    }
    // Whatever the verdict: a solution that writes its answers or its
    // debugging there shows why at once.
    if !tried.run.stderr_tail.is_empty() {
        writeln!(out, "\nits standard error ends:")?;
        let tail: Vec<&str> = tried.run.stderr_tail.lines().collect();
        for line in &tail[tail.len().saturating_sub(8)..] {
            writeln!(out, "    {line}")?;
        }
    }
    side_by_side(&tried.expected, &tried.run.stdout, out)?;
    // A replay of `--out`'s own failing.in whose case came out otherwise
    // (another verdict, say, after a partial fix) would overwrite the
    // reproducer it was given: that one is kept as replayed.in.
    let replayed = args
        .replay
        .as_deref()
        .filter(|input| same_file(input, &args.out.join("failing.in")))
        .and_then(|input| std::fs::read(input).ok())
        .filter(|bytes| *bytes != tried.input);
    let mut files = vec![
        ("failing.in", &tried.input),
        ("expected.out", &tried.expected),
        ("received.out", &tried.run.stdout),
    ];
    if let Some(bytes) = &replayed {
        files.insert(0, ("replayed.in", bytes));
    }
    // The failure is the run's result (exit 1): a `--out` that cannot be
    // written must not lose the case, so it goes to a directory of its own
    // under the system's temporary directory instead.
    let dir = match write_case(&args.out, &files) {
        Ok(()) => args.out.clone(),
        Err(err) => {
            let fallback =
                std::env::temp_dir().join(format!("grundy-check-{}", std::process::id()));
            write_case(&fallback, &files).map_err(|second| {
                UsageError(format!(
                    "{err}; the case could not be written to {} either: {second}",
                    fallback.display()
                ))
            })?;
            stderr_line!(
                "warning: {err}: the case was written to {} instead",
                fallback.display()
            );
            fallback
        }
    };
    let shown = dir.display();
    if replayed.is_some() {
        writeln!(
            out,
            "\nkept the input replayed as {shown}/replayed.in (failing.in now holds this case)"
        )?;
    }
    writeln!(
        out,
        "\nwrote {shown}/failing.in, {shown}/expected.out, {shown}/received.out\nreplay: {}",
        replay_command(args, &dir)
    )?;
    Ok(())
}

/// Whether `a` and `b` name one existing file.
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// A size as `--memory-limit` takes it, in the largest binary unit that
/// divides it.
fn size_flag(bytes: u64) -> String {
    for (unit, scale) in [("GiB", 1u64 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)] {
        if bytes % scale == 0 {
            return format!("{}{unit}", bytes / scale);
        }
    }
    bytes.to_string()
}

/// Writes the files of a failing case into `dir`, made if missing.
fn write_case(dir: &Path, files: &[(&str, &Vec<u8>)]) -> Result<(), String> {
    std::fs::create_dir_all(dir)
        .map_err(|err| format!("{}: cannot create: {err}", dir.display()))?;
    for (name, bytes) in files {
        write_atomically(&dir.join(name), bytes).map_err(|err| err.to_string())?;
    }
    Ok(())
}

/// Expected and received answers side by side, the first differing line
/// marked (lines compared by their tokens).
fn side_by_side(
    expected: &[u8],
    received: &[u8],
    out: &mut impl std::io::Write,
) -> std::io::Result<()> {
    let expected = String::from_utf8_lossy(expected);
    let received = String::from_utf8_lossy(received);
    let (want, got): (Vec<&str>, Vec<&str>) =
        (expected.lines().collect(), received.lines().collect());
    let rows = want.len().max(got.len());
    fn tokens<'a>(line: Option<&&'a str>) -> Option<Vec<&'a str>> {
        line.map(|l| l.split_ascii_whitespace().collect())
    }
    let first = (0..rows).find(|&i| tokens(want.get(i)) != tokens(got.get(i)));
    let width = want
        .iter()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0)
        .max("(nothing)".len());
    writeln!(out, "\n    line  {:width$} | received", "expected")?;
    let from = first.unwrap_or(0).saturating_sub(5);
    for i in from..rows.min(from + 20) {
        let shown = |l: Option<&&str>| {
            l.map_or("(nothing)".to_owned(), |l| {
                l.trim_end_matches('\r').chars().take(60).collect()
            })
        };
        writeln!(
            out,
            "  {} {:>4}  {:width$} | {}",
            if Some(i) == first { '>' } else { ' ' },
            i + 1,
            shown(want.get(i)),
            shown(got.get(i)),
        )?;
    }
    if rows > from + 20 {
        writeln!(out, "    ... {} more lines", rows - from - 20)?;
    }
    match first {
        Some(i) => writeln!(out, "  first difference: line {}", i + 1),
        None if rows == 0 => writeln!(out, "  (no answers expected, none printed)"),
        None => writeln!(out, "  (the lines agree: see the verdict)"),
    }
}

/// Writes a file whole: to a temporary name first, then renamed, so that a
/// reader never sees part of it.
fn write_atomically(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let temporary = path.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&temporary, bytes)
        .and_then(|()| std::fs::rename(&temporary, path))
        .map_err(|err| UsageError(format!("{}: cannot write: {err}", path.display())).into())
}

/// The command that runs the failing case again.
fn replay_command(args: &Args, out: &Path) -> String {
    let problem = args
        .problem
        .to_possible_value()
        .map_or_else(String::new, |v| v.get_name().to_owned());
    let mut words = vec![
        "grundy".to_owned(),
        "check".to_owned(),
        problem,
        "--replay".to_owned(),
        shell_quote(&out.join("failing.in").into_os_string()),
    ];
    if let Some(limit) = args.time_limit {
        words.push(format!("--time-limit {}", limit.as_secs_f64()));
    }
    if args.memory_limit != DEFAULT_MEMORY_LIMIT {
        words.push(format!("--memory-limit {}", size_flag(args.memory_limit)));
    }
    if out != Path::new("grundy-check") {
        words.push(format!("--out {}", shell_quote(out.as_os_str())));
    }
    words.push("--".to_owned());
    words.extend(args.cmd.iter().map(|w| shell_quote(w)));
    words.join(" ")
}

fn shell_quote(word: &std::ffi::OsStr) -> String {
    let word = word.to_string_lossy();
    if !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./=:,+@%".contains(c))
    {
        word.into_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// `--replay FILE`: runs one input; shrinks it if it fails.
fn replay<C: Case>(
    args: &Args,
    bench: &Bench,
    path: &Path,
    out: &mut impl std::io::Write,
) -> anyhow::Result<ExitCode> {
    // `-` is standard input, as for every command (the solution's own
    // standard input is the case, not grundy's).
    let (name, input) = if path == Path::new("-") {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes)
            .map_err(|err| UsageError(format!("<stdin>: cannot read: {err}")))?;
        ("<stdin>".to_owned(), bytes)
    } else {
        let bytes = std::fs::read(path)
            .map_err(|err| UsageError(format!("{}: cannot read: {err}", path.display())))?;
        (path.display().to_string(), bytes)
    };
    // The judge validates it first: a located error, exit 2.
    if let Err(JudgeError::Input(error)) = C::judge(&input, &mut Vec::new()) {
        return Err(InputError {
            source_name: name,
            error,
        }
        .into());
    }
    if let Some(past) = C::read(&input).and_then(|case| case.past_the_statement()) {
        writeln!(
            out,
            "note: {name}: past the statement's limits: {past} (grundy's judge takes it; the original judge would not)"
        )?;
    }
    let tried = bench.try_input::<C>(input.clone(), 0)?;
    let verdict = match &tried.verdict {
        None if bench.limits.is_interrupted() => {
            writeln!(out, "interrupted")?;
            return Ok(ExitCode::from(INTERRUPTED));
        }
        None => {
            writeln!(out, "stopped: --max-time ran out")?;
            return Ok(ExitCode::from(3));
        }
        Some(Verdict::Accepted) => {
            writeln!(
                out,
                "{name}: accepted ({:.3} s)",
                tried.run.wall.as_secs_f64()
            )?;
            return Ok(ExitCode::SUCCESS);
        }
        Some(v) => v.clone(),
    };
    writeln!(
        out,
        "{name}: {}",
        describe(&verdict, bench.limits.time, args.memory_limit)
    )?;
    let case = C::read(&input).expect("the judge accepted it");
    let plain = bench.try_input::<C>(case.render(), 0)?;
    if plain
        .verdict
        .as_ref()
        .is_some_and(|v| v.same_kind(&verdict))
    {
        shrink_and_report::<C>(args, bench, case, plain, out)?;
    } else {
        // Whitespace is to blame only if the file itself fails again: a
        // solution that answers one input differently from run to run
        // would be blamed on a layout otherwise.
        let again = bench.try_input::<C>(input.clone(), 0)?;
        let repeats = again
            .verdict
            .as_ref()
            .is_some_and(|v| v.same_kind(&verdict));
        if repeats && case.render() != input {
            writeln!(
                out,
                "not shrunk: the same input laid out plainly does not fail this way, so the \
                 failure depends on this file's layout{}",
                layout_of(&input)
            )?;
        } else {
            writeln!(
                out,
                "not shrunk: the failure does not repeat on every run of the same input (the \
                 solution is not deterministic, or depends on time or memory near a limit)"
            )?;
        }
        report(args, bench, &tried, out)?;
    }
    Ok(ExitCode::FAILURE)
}

/// What of a file's layout the printed input does not show, for a failure
/// that depends on the layout: `" (a byte-order mark; CRLF line ends)"`,
/// or `""` when nothing is hidden.
fn layout_of(input: &[u8]) -> String {
    let mut seen = Vec::new();
    if input.starts_with(b"\xEF\xBB\xBF") {
        seen.push("a byte-order mark at its start");
    }
    if input.windows(2).any(|w| w == b"\r\n") {
        seen.push("CRLF line ends");
    }
    if input.contains(&b'\t') {
        seen.push("tabs");
    }
    if !input.is_empty() && !input.ends_with(b"\n") {
        seen.push("no final newline");
    }
    if seen.is_empty() {
        String::new()
    } else {
        format!(" ({})", seen.join("; "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_layout_names_what_the_printed_input_hides() {
        assert_eq!(
            layout_of(b"\xEF\xBB\xBF0 1\r\n1\t0"),
            " (a byte-order mark at its start; CRLF line ends; tabs; no final newline)"
        );
        assert_eq!(layout_of(b"0 1\n\n1 0\n"), "");
    }

    /// 10^7 bytes is 9.54 MiB: worded to a tenth, as other sizes are.
    #[test]
    fn memory_limits_are_worded_in_mib() {
        let second = Duration::from_secs(1);
        let words = |bytes| describe(&Verdict::MemoryLimit, second, bytes);
        assert_eq!(words(64 << 20), "memory limit exceeded (64 MiB)");
        assert_eq!(words(10_000_000), "memory limit exceeded (9.5 MiB)");
    }
}
