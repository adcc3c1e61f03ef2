//! `grundy tables`: build, describe and check shape databases (every
//! rectangle-clearing shape of a box, solved bottom-up by tiers), and find
//! the databases the other commands read.
//!
//! Where databases are found, first match wins: `--tables PATH` (a file or a
//! directory of `*.gdb` files; repeatable), else `GRUNDY_TABLES` (paths
//! separated by `:`), else the default directory
//! (`$XDG_DATA_HOME/grundy/tables`, or `~/.local/share/grundy/tables`) when
//! it exists. The 5 x 5 database built into the binary is always consulted
//! last.

use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use grundy::clear::shapes::{ClearShapes, ShapeBox, ShapeLookup, ShapeTables};
use grundy::clear::{Board, Clear};
use grundy::tier::{solve_tiers, TierControl, TierError, TierProgress, TierTable};
use grundy::{Budget, Nimber, SolveError, Solver};
use grundy_db::{Database, DbError, Writer};

use crate::output::UsageError;

/// Where the other commands look for databases.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct TablesArgs {
    /// A shape database (`grundy tables build`) or a directory of them
    /// (`*.gdb`), consulted before searching; repeatable. Default: the
    /// paths in GRUNDY_TABLES (`:`-separated), else the default directory
    /// (see `grundy tables --help`). The built-in 5 x 5 one is always used.
    #[arg(long, value_name = "PATH")]
    pub tables: Vec<PathBuf>,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    /// Solve every shape of a box, tier by tier, into a database file. A
    /// stopped build resumes from its last complete tier when run again.
    Build(BuildArgs),
    /// The box, the counts per tier, the full-board values, the checksums.
    Info(InfoArgs),
    /// Check every checksum, and re-solve random shapes top-down.
    Verify(VerifyArgs),
}

#[derive(Debug, clap::Args)]
struct BuildArgs {
    /// The box, ROWSxCOLS (e.g. 6x6 or 5x7): every shape that fits it in
    /// either orientation. Sides up to 8, at most 52 cells.
    #[arg(long = "box", value_name = "ROWSxCOLS", value_parser = parse_box)]
    shape_box: ShapeBox,
    /// The database file (default: clear-ROWSxCOLS.gdb in the default
    /// directory, where the other commands find it).
    #[arg(long, value_name = "PATH")]
    out: Option<PathBuf>,
    /// Worker threads (default: every core).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Stop after this many seconds, keeping the finished tiers (exit 3;
    /// run again to resume).
    #[arg(long, value_name = "SECONDS", value_parser = crate::cmd::parse_seconds, allow_hyphen_values = true)]
    max_time: Option<Duration>,
}

#[derive(Debug, clap::Args)]
struct InfoArgs {
    /// The database file.
    path: PathBuf,
    /// Also print how many shapes have each value.
    #[arg(long)]
    values: bool,
}

#[derive(Debug, clap::Args)]
struct VerifyArgs {
    /// The database file.
    path: PathBuf,
    /// How many random shapes to re-solve top-down.
    #[arg(long, default_value_t = 1000, value_name = "N")]
    samples: u64,
    /// Seed of the random choice of shapes.
    #[arg(long, default_value_t = 1, value_name = "N")]
    seed: u64,
    /// Most distinct shapes the top-down search may solve per sample; a
    /// sample over it is counted as skipped, not as checked.
    #[arg(long, default_value_t = 200_000, value_name = "N")]
    max_positions: u64,
}

/// Parses `AxB` (also `AXB`, `A×B`) into a supported box.
fn parse_box(text: &str) -> Result<ShapeBox, String> {
    let text = text.trim();
    let (a, b) = text
        .split_once(['x', 'X', '×'])
        .ok_or_else(|| format!("`{text}` is not ROWSxCOLS, e.g. 6x6"))?;
    let side = |s: &str| -> Result<usize, String> {
        s.trim()
            .parse::<usize>()
            .map_err(|_| format!("`{s}` is not a number of rows or columns"))
    };
    ShapeBox::new(side(a)?, side(b)?).map_err(|e| e.to_string())
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    match &args.command {
        Command::Build(args) => build(args),
        Command::Info(args) => info(args),
        Command::Verify(args) => verify(args),
    }
}

/// The default directory of databases, whether or not it exists.
pub fn default_dir() -> Option<PathBuf> {
    if let Some(data) = std::env::var_os("XDG_DATA_HOME").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(data).join("grundy").join("tables"));
    }
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(|home| PathBuf::from(home).join(".local/share/grundy/tables"))
}

/// A build's progress, drawn by indicatif when stderr is a terminal.
struct BuildBar {
    bar: indicatif::ProgressBar,
    tiers: usize,
    last_tier: AtomicU64,
}

impl BuildBar {
    fn new(tiers: usize) -> BuildBar {
        let bar = if std::io::stderr().is_terminal() {
            indicatif::ProgressBar::new(0)
        } else {
            indicatif::ProgressBar::hidden()
        };
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{prefix} [{elapsed_precise}] {wide_bar} {pos}/{len} shapes, tier ETA {eta}",
            )
            .expect("a valid template"),
        );
        BuildBar {
            bar,
            tiers,
            last_tier: AtomicU64::new(0),
        }
    }

    fn update(&self, progress: TierProgress) {
        match progress {
            TierProgress::Generating { tier } => {
                self.bar
                    .set_prefix(format!("tier {tier}/{} generating", self.tiers));
            }
            TierProgress::Solving { tier, done, total } => {
                if self.last_tier.swap(u64::from(tier), Ordering::Relaxed) != u64::from(tier) {
                    self.bar.reset();
                    self.bar.set_length(total);
                    self.bar
                        .set_prefix(format!("tier {tier}/{} solving", self.tiers));
                }
                self.bar.set_position(done);
            }
        }
    }
}

/// What stops a build: the engine, or the file.
#[derive(Debug, thiserror::Error)]
enum BuildError {
    #[error(transparent)]
    Tier(#[from] TierError),
    #[error(transparent)]
    Db(#[from] DbError),
}

fn build(args: &BuildArgs) -> anyhow::Result<ExitCode> {
    let shape_box = args.shape_box;
    let out = match &args.out {
        Some(out) => out.clone(),
        None => {
            let dir = default_dir().ok_or_else(|| {
                UsageError("no default directory (HOME is not set): give --out PATH".into())
            })?;
            std::fs::create_dir_all(&dir)
                .map_err(|e| UsageError(format!("{}: cannot create: {e}", dir.display())))?;
            dir.join(format!("clear-{shape_box}.gdb"))
        }
    };
    if let Some(threads) = args.threads {
        if threads == 0 {
            return Err(UsageError("--threads must be at least 1".into()).into());
        }
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global()
            .context("starting the worker threads")?;
    }
    let started = Instant::now();
    let (mut writer, mut tables) =
        Writer::create_or_resume(&out, shape_box).map_err(|e| UsageError(e.to_string()))?;
    if !tables.is_empty() {
        eprintln!(
            "resuming {} from tier {} of {}",
            writer.partial().display(),
            tables.len() + 1,
            shape_box.cells()
        );
    }
    let bar = BuildBar::new(shape_box.cells());
    let report = |p: TierProgress| bar.update(p);
    let mut control = TierControl::new();
    control.max_time = args.max_time;
    control.progress = Some(&report);
    let game = ClearShapes::new(shape_box);
    let mut tier_times = Vec::new();
    let mut tier_started = Instant::now();
    let outcome = solve_tiers::<_, BuildError, _>(&game, &mut tables, &control, |tier, table| {
        writer.append(table)?;
        let elapsed = tier_started.elapsed();
        tier_times.push((tier, table.positions(), elapsed));
        let line = format!(
            "tier {tier:>2}: {:>12} shapes in {:>8.2} s",
            table.positions(),
            elapsed.as_secs_f64()
        );
        if bar.bar.is_hidden() {
            eprintln!("{line}");
        } else {
            bar.bar.println(line);
        }
        tier_started = Instant::now();
        Ok(())
    });
    bar.bar.finish_and_clear();
    match outcome {
        Ok(()) => {}
        Err(BuildError::Tier(err @ (TierError::TimeBudget { .. } | TierError::Cancelled))) => {
            eprintln!(
                "error: {err}; {} keeps tiers 1 to {}: run the same command again to resume",
                writer.partial().display(),
                writer.header().tiers.len()
            );
            return Ok(ExitCode::from(3));
        }
        Err(err) => return Err(anyhow::Error::new(err).context("building the database")),
    }
    let header = writer.finish()?;
    let shapes: u64 = header.tiers.iter().map(|t| t.positions).sum();
    let elapsed = started.elapsed().as_secs_f64();
    println!(
        "wrote {}: {shapes} shapes of the {shape_box} box in {elapsed:.1} s ({:.0} shapes/s)",
        out.display(),
        shapes as f64 / elapsed.max(1e-9)
    );
    let tables = ShapeTables::new(shape_box, tables).map_err(anyhow::Error::msg)?;
    print_full_boards(&tables);
    Ok(ExitCode::SUCCESS)
}

/// Every full board the box holds, `a x b` with `a <= b`.
fn full_boards(shape_box: ShapeBox) -> impl Iterator<Item = (usize, usize)> {
    (1..=shape_box.rows())
        .flat_map(move |a| (a..=shape_box.cols()).map(move |b| (a, b)))
        .filter(move |&(a, b)| shape_box.fits(a, b))
}

fn print_full_boards<S: AsRef<[u64]>>(tables: &ShapeTables<S>) {
    println!("full boards:");
    for (a, b) in full_boards(tables.shape_box()) {
        if let Some(value) = tables.full_board(a, b) {
            println!("  {a} x {b}: {value}");
        }
    }
}

fn open(path: &Path) -> anyhow::Result<Database> {
    Database::open(path).map_err(|e| UsageError(e.to_string()).into())
}

fn info(args: &InfoArgs) -> anyhow::Result<ExitCode> {
    let db = open(&args.path)?;
    let header = db.header();
    let shapes: u64 = header.tiers.iter().map(|t| t.positions).sum();
    println!("{}", args.path.display());
    println!(
        "format version {}, rectangle clearing, box {} ({} tiers), {shapes} shapes",
        grundy_db::VERSION,
        header.shape_box,
        header.tiers.len()
    );
    println!("tier       shapes   largest value   crc32");
    for (i, t) in header.tiers.iter().enumerate() {
        println!(
            "{:>4} {:>12} {:>15}   {:08x}",
            i + 1,
            t.positions,
            t.max_value,
            t.crc32
        );
    }
    let largest = header.tiers.iter().map(|t| t.max_value).max().unwrap_or(0);
    println!("largest value: {largest}");
    print_full_boards(db.tables());
    if args.values {
        println!("shapes per value:");
        for (value, count) in value_counts(db.tables()).iter().enumerate() {
            if *count > 0 {
                println!("  {value:>4} {count:>12}");
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// How many shapes have each value.
fn value_counts<S: AsRef<[u64]>>(tables: &ShapeTables<S>) -> Vec<u64> {
    let mut counts = vec![0u64; grundy::tier::MAX_VALUE as usize + 1];
    for tier in tables.tiers() {
        for (_, value) in tier.iter() {
            counts[value.value() as usize] += 1;
        }
    }
    let used = counts.iter().rposition(|&c| c > 0).map_or(0, |i| i + 1);
    counts.truncate(used);
    counts
}

fn verify(args: &VerifyArgs) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let db = open(&args.path)?;
    println!(
        "{}: header and {} section checksums good ({:.2} s)",
        args.path.display(),
        db.header().tiers.len(),
        started.elapsed().as_secs_f64()
    );
    let tables = db.tables();
    let shape_box = tables.shape_box();
    // Random shapes: a random tier weighted by its shapes, then a random
    // occupied slot of it.
    use rand::{RngExt as _, SeedableRng as _};
    let mut rng = rand::rngs::StdRng::seed_from_u64(args.seed);
    let total: u64 = tables.tiers().iter().map(TierTable::positions).sum();
    let (mut checked, mut skipped) = (0u64, 0u64);
    for _ in 0..args.samples {
        let mut pick = rng.random_range(0..total);
        let tier = tables
            .tiers()
            .iter()
            .find(|t| {
                if pick < t.positions() {
                    true
                } else {
                    pick -= t.positions();
                    false
                }
            })
            .expect("pick < total");
        let slots = tier.slots();
        let slot = loop {
            let s = slots[rng.random_range(0..slots.len())];
            if s != 0 {
                break s;
            }
        };
        let key = slot >> grundy::tier::VALUE_BITS;
        let stored = Nimber::new((slot & u64::from(grundy::tier::MAX_VALUE)) as u32);
        let board = Board::new(8, 8, shape_box.unpack(key)).expect("a shape in the 8 x 8 frame");
        // A fresh solver per sample keeps memory to one sample's budget.
        let mut solver =
            Solver::new(Clear::new()).with_budget(Budget::positions(args.max_positions));
        match solver.value(&board) {
            Ok(value) if value == stored => checked += 1,
            Ok(value) => {
                return Err(UsageError(format!(
                    "{}: shape {key:#x} is stored as {stored}, the top-down solver says {value}",
                    args.path.display()
                ))
                .into())
            }
            Err(SolveError::PositionBudget { .. }) => skipped += 1,
            Err(err) => return Err(err.into()),
        }
    }
    println!(
        "{checked} random shapes re-solved top-down agree ({skipped} skipped: over {} positions each)",
        args.max_positions
    );
    Ok(ExitCode::SUCCESS)
}

/// The databases the other commands consult: found as the module doc says,
/// opened (and checked) once per process.
pub fn shape_lookup(args: &TablesArgs) -> anyhow::Result<&'static dyn ShapeLookup> {
    static LOADED: OnceLock<Vec<Box<dyn ShapeLookup + Send>>> = OnceLock::new();
    if let Some(loaded) = LOADED.get() {
        return Ok(loaded);
    }
    let mut paths = args.tables.clone();
    let mut explicit = !paths.is_empty();
    if paths.is_empty() {
        if let Some(env) = std::env::var_os("GRUNDY_TABLES").filter(|e| !e.is_empty()) {
            paths = std::env::split_paths(&env).collect();
            explicit = true;
        } else if let Some(dir) = default_dir().filter(|d| d.is_dir()) {
            paths.push(dir);
        }
    }
    let mut loaded: Vec<Box<dyn ShapeLookup + Send>> = Vec::new();
    for path in paths {
        let files = if path.is_dir() {
            let mut files: Vec<PathBuf> = std::fs::read_dir(&path)
                .map_err(|e| UsageError(format!("{}: cannot read: {e}", path.display())))?
                .filter_map(|entry| entry.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "gdb"))
                .collect();
            files.sort();
            files
        } else if explicit || path.exists() {
            vec![path]
        } else {
            Vec::new()
        };
        for file in files {
            loaded.push(Box::new(open(&file)?.tables().clone()));
        }
    }
    loaded.push(Box::new(embedded().clone()));
    Ok(LOADED.get_or_init(|| loaded))
}

/// The database of every shape that fits 5 x 5, built by `build.rs` with
/// the engine's tier solver and compiled in.
pub fn embedded() -> &'static ShapeTables<grundy_db::Slots> {
    #[repr(C, align(4096))]
    struct Aligned<T: ?Sized>(T);
    static BYTES: &Aligned<[u8]> =
        &Aligned(*include_bytes!(concat!(env!("OUT_DIR"), "/clear-5x5.gdb")));
    static TABLES: OnceLock<Database> = OnceLock::new();
    TABLES
        .get_or_init(|| {
            Database::from_static("<built-in clear-5x5.gdb>", &BYTES.0)
                .expect("build.rs wrote a valid database (checked by a test)")
        })
        .tables()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxes_parse() {
        assert_eq!(parse_box("6x6"), Ok(ShapeBox::new(6, 6).unwrap()));
        assert_eq!(parse_box("7X5"), Ok(ShapeBox::new(5, 7).unwrap()));
        for bad in ["6", "x6", "6x", "axb", "0x5", "9x9", "7x8", "-1x5", "6x6x6"] {
            assert!(parse_box(bad).is_err(), "{bad}");
        }
    }

    /// The built-in database equals a fresh build of the 5 x 5 box.
    #[test]
    fn the_embedded_database_equals_a_fresh_build() {
        let shape_box = ShapeBox::new(5, 5).unwrap();
        let mut fresh = Vec::new();
        solve_tiers::<_, TierError, _>(
            &ClearShapes::new(shape_box),
            &mut fresh,
            &TierControl::new(),
            |_, _| Ok(()),
        )
        .unwrap();
        let embedded = embedded();
        assert_eq!(embedded.tiers().len(), fresh.len());
        for (e, f) in embedded.tiers().iter().zip(&fresh) {
            assert_eq!(e.slots(), f.slots());
        }
    }
}
