//! `grundy tables`: build, describe and check shape databases (every
//! rectangle-clearing shape of a box, solved bottom-up by tiers).
//!
//! Where the other commands find databases is grundy-db's
//! [`grundy_db::discover`] (`--tables`, else `GRUNDY_TABLES`, else the
//! default directory), then the built-in 5 x 5 database
//! ([`grundy_builtin`]); see `crate::shape_tables`.

use std::io::{IsTerminal as _, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context as _;
use grundy::clear::shapes::{ClearShapes, ShapeBox};
use grundy::tier::{TierControl, TierProgress};
use grundy::Nimber;
use grundy_db::check::{self, CheckError, MergeError};
use grundy_db::{BuildFailed, DbError, DbSet};

use crate::output::{NoSpaceError, UsageError};
use grundy_report::words::{self, count};

#[derive(Debug, clap::Args)]
#[command(after_help = tables_help())]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

/// Where databases are looked for, with this machine's default directory
/// (`grundy clear --help` and the other commands' `--tables` point here).
fn tables_help() -> String {
    let here = grundy_db::discover::default_dir().map_or_else(
        || "neither XDG_DATA_HOME nor HOME is set here".to_owned(),
        |dir| format!("here: {}", dir.display()),
    );
    format!(
        "\
Where databases are found: clear, sum and serve consult, before searching,
the databases given with --tables (files or directories of *.gdb), else the
paths in GRUNDY_TABLES (`:`-separated), else every *.gdb in the default
directory: $XDG_DATA_HOME/grundy/tables, or ~/.local/share/grundy/tables
without XDG_DATA_HOME ({here}). `grundy tables build` writes there unless
given --out. The built-in 5 x 5 database is always used."
    )
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    /// Solve every shape of a box, tier by tier, into a database file. A
    /// stopped build resumes from its last complete tier when run again.
    Build(BuildArgs),
    /// The box, the counts per tier, the full-board values, the checksums.
    Info(InfoArgs),
    /// Check the file (checksums, counts, layout), then re-solve by an
    /// independent top-down search the full boards and random shapes (or,
    /// with --all or --tiers, every shape of the tiers chosen).
    Verify(VerifyArgs),
    /// Join the parts of a partitioned (MPI) build into one file, the same
    /// bytes a single-process build writes.
    Merge(MergeArgs),
    /// Rewrite a database (either format version, whole or in parts) in the
    /// compact format of at most 2 bytes a shape, which builds write.
    Convert(ConvertArgs),
    /// A CRC-32 of the content in a canonical order (tier by tier, shapes
    /// sorted by key): equal for equal databases, however many parts.
    Checksum(ChecksumArgs),
    /// Every shape with its value, as CSV (streamed): columns tier, key,
    /// value, height, width, shape (rows of 0/1 joined by `/`).
    Export(ExportArgs),
}

#[derive(Debug, clap::Args)]
struct ExportArgs {
    /// The database: a file, a part of a partitioned build, or the path the
    /// build was asked to write.
    path: PathBuf,
    /// The output format.
    #[arg(long, value_enum, default_value_t = ExportFormat::Csv)]
    format: ExportFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum ExportFormat {
    /// One line per shape; see `docs/data/README.md` for the columns and
    /// how a key decodes.
    Csv,
}

#[derive(Debug, clap::Args)]
struct MergeArgs {
    /// A part of the build, or the path the build was asked to write.
    path: PathBuf,
    /// The merged database.
    #[arg(long, value_name = "PATH")]
    out: PathBuf,
}

#[derive(Debug, clap::Args)]
struct ConvertArgs {
    /// The database to read: a file, a part of a partitioned build, or the
    /// path the build was asked to write.
    old: PathBuf,
    /// The compact database to write.
    new: PathBuf,
}

#[derive(Debug, clap::Args)]
struct ChecksumArgs {
    /// A database: a file, a part of a partitioned build, or the path the
    /// build was asked to write.
    path: PathBuf,
    /// Also print the SHA-256 of each file's bytes, as `sha256sum` does, to
    /// compare with published ones (a file's bytes depend only on its box
    /// and, for a part, the number of parts and the build id).
    #[arg(long)]
    sha256: bool,
}

#[derive(Debug, clap::Args)]
struct BuildArgs {
    /// The box, ROWSxCOLS (e.g. 6x6 or 5x7): every shape that fits it in
    /// either orientation. At most 52 cells; the long side up to 8, or up
    /// to 16 when the short side is at most 4 (4x9, 3x12), or up to 26 when
    /// it is at most 2.
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
    /// A tier of more slots than this (a slot is about 0.75 shape) is
    /// solved in stretches of SLOTS, each kept in PATH.partial.solving
    /// until the tier is written, so a stop in the middle of a long tier
    /// loses at most one stretch. The bytes written are the same whatever
    /// the value. Builds of one process only. [default: 16777216]
    #[arg(long, value_name = "SLOTS", value_parser = clap::value_parser!(u64).range(1..))]
    keep_every: Option<u64>,
    /// Partitioned builds (under mpirun, or --local-ranks): how ranks get
    /// values of shapes other ranks own. `replicate` copies every tier to
    /// every rank, `query` asks the owner in batched all-to-all exchanges,
    /// `auto` (the default) replicates lower tiers while they fit the memory
    /// budget, then queries.
    #[arg(long, value_enum)]
    exchange: Option<ExchangeArg>,
    /// Partitioned builds: bytes of replicated tiers a rank may hold (e.g.
    /// 4GiB; default: half the node's available memory, shared by its
    /// ranks).
    #[arg(long, value_name = "BYTES", value_parser = crate::cmd::parse_size)]
    memory: Option<u64>,
    /// Run the partitioned build as N ranks in this process (threads, no
    /// MPI), writing N parts as `mpirun -n N` would: to try partitioned
    /// databases, or to check them against a single build.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=64))]
    local_ranks: Option<u32>,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum ExchangeArg {
    Auto,
    Replicate,
    Query,
}

#[derive(Debug, clap::Args)]
struct InfoArgs {
    /// The database: a file, a part of a partitioned build, or the path the
    /// build was asked to write.
    path: PathBuf,
    /// Also print how many shapes have each value.
    #[arg(long)]
    values: bool,
    /// Print the metadata as JSON instead: shapes, largest value and
    /// histogram of values per tier, full boards, size and SHA-256 of each
    /// file, and the build's record when `PATH.build.json` is beside it.
    #[arg(long, conflicts_with = "values")]
    json: bool,
}

#[derive(Debug, clap::Args)]
struct VerifyArgs {
    /// The database: a file, a part of a partitioned build, or the path the
    /// build was asked to write.
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
    /// Most distinct shapes the top-down search may solve for each full
    /// board (the values `tables info` lists; a board over it is reported
    /// as not checked), and under --all or --tiers, per worker before its
    /// memo is started afresh.
    #[arg(long, default_value_t = 5_000_000, value_name = "N")]
    board_positions: u64,
    /// Re-solve every shape of every tier top-down (instead of random
    /// samples); exit 3 if a shape alone is over --board-positions.
    #[arg(long, conflicts_with = "tiers")]
    all: bool,
    /// As --all, for the tiers (shape sizes in cells) A-B or A only.
    #[arg(long, value_name = "A-B", value_parser = parse_tiers)]
    tiers: Option<(usize, usize)>,
    /// Also check that the box holds every shape once: the placements of
    /// its shapes in the ROWS x COLS grid must add up to the grid's connected
    /// cell sets (OEIS A287151), counted independently by a transfer matrix.
    #[arg(long)]
    census: bool,
}

/// Parses `A-B` or `A` (tiers, at least 1).
fn parse_tiers(text: &str) -> Result<(usize, usize), String> {
    let number = |s: &str| -> Result<usize, String> {
        match s.trim().parse::<usize>() {
            Ok(n) if n >= 1 => Ok(n),
            _ => Err(format!(
                "`{s}` is not a tier (a number of cells, 1 or more)"
            )),
        }
    };
    let (a, b) = match text.split_once('-') {
        Some((a, b)) => (number(a)?, number(b)?),
        None => (number(text)?, number(text)?),
    };
    if a > b {
        return Err(format!("`{text}`: the first tier is after the last"));
    }
    Ok((a, b))
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
    let (rows, cols) = (side(a)?, side(b)?);
    if rows == 0 || cols == 0 {
        return Err(format!(
            "`{text}`: a side is zero; a box has at least 1 row and 1 column"
        ));
    }
    ShapeBox::new(rows, cols).map_err(|_| {
        format!(
            "{} is not supported: at most {} cells, and a long side up to {} (16 when the short side is at most 4, 26 when it is at most 2)",
            words::sized(rows as u64, cols as u64, "box"),
            grundy::clear::shapes::MAX_BOX_CELLS,
            grundy::clear::shapes::MAX_SIDE,
        )
    })
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    match &args.command {
        Command::Build(args) => {
            // A build's buffers come and go tier by tier: keep them from
            // fragmenting the heaps (see `crate::alloc`).
            crate::alloc::fix_mmap_threshold();
            build(args)
        }
        Command::Info(args) => info(args),
        Command::Verify(args) => verify(args),
        Command::Merge(args) => merge(args),
        Command::Convert(args) => convert(args),
        Command::Checksum(args) => checksum(args),
        Command::Export(args) => export(args),
    }
}

/// A build's progress, drawn by indicatif when stderr is a terminal: the
/// tier's bar with its ETA, and an overall ETA for the boxes whose shape
/// count is known ([`known_shapes`]).
struct BuildBar {
    bar: indicatif::ProgressBar,
    tiers: usize,
    last_tier: AtomicU64,
    /// Shapes of the tiers finished before the current one.
    done_before: AtomicU64,
    /// Shapes of the current tier.
    tier_total: AtomicU64,
    /// Shapes done when this run started (a resumed build's tiers).
    done_at_start: u64,
    /// Every shape of the box, when known.
    all_shapes: Option<u64>,
    started: Instant,
}

/// The shape counts of the boxes built and checked so far (docs/results.md:
/// each confirmed by `tables verify --census`, the placements adding up to
/// the grid's connected cell sets), for the overall ETA of a build. A box
/// not listed gets the tier's ETA only: its count is known only once built.
fn known_shapes(shape_box: ShapeBox) -> Option<u64> {
    grundy_report::databases::shapes_of(shape_box.rows(), shape_box.cols())
}

impl BuildBar {
    /// The bar of a build of `shape_box` with `done_at_start` shapes in
    /// tiers already built (a resumed build).
    fn new(shape_box: ShapeBox, done_at_start: u64) -> BuildBar {
        let bar = if std::io::stderr().is_terminal() {
            indicatif::ProgressBar::new(0)
        } else {
            indicatif::ProgressBar::hidden()
        };
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{prefix} [{elapsed_precise}] {wide_bar} {pos}/{len} shapes, tier ETA {eta}{msg}",
            )
            .expect("a valid template"),
        );
        BuildBar {
            bar,
            tiers: shape_box.cells(),
            last_tier: AtomicU64::new(0),
            done_before: AtomicU64::new(done_at_start),
            tier_total: AtomicU64::new(0),
            done_at_start,
            all_shapes: known_shapes(shape_box),
            started: Instant::now(),
        }
    }

    fn update(&self, progress: TierProgress) {
        match progress {
            TierProgress::Generating { tier } => {
                self.bar
                    .set_prefix(format!("tier {}/{} generating", tier + 1, self.tiers));
            }
            TierProgress::Solving { tier, done, total } => {
                let tier = u64::from(tier) + 1;
                if self.last_tier.swap(tier, Ordering::Relaxed) != tier {
                    let finished = self.tier_total.swap(total, Ordering::Relaxed);
                    self.done_before.fetch_add(finished, Ordering::Relaxed);
                    self.bar.reset();
                    self.bar.set_length(total);
                    self.bar
                        .set_prefix(format!("tier {tier}/{} solving", self.tiers));
                }
                self.bar.set_position(done);
                if let Some(eta) = self.overall_eta(done) {
                    self.bar
                        .set_message(format!(", overall ETA {}", indicatif::HumanDuration(eta)));
                }
            }
            TierProgress::Stored(report) => {
                let line = format!(
                    "tier {:>2}: {:>19} in {:>8.2} s",
                    report.tier + 1,
                    count(report.positions, "shape"),
                    report.elapsed.as_secs_f64()
                );
                if self.bar.is_hidden() {
                    eprintln!("{line}");
                } else {
                    self.bar.println(line);
                }
            }
            TierProgress::Restored { tier, slots, of } => {
                let line = format!(
                    "tier {:>2}: {:.0}% restored from its solved stretches",
                    tier + 1,
                    100.0 * slots as f64 / of.max(1) as f64
                );
                if self.bar.is_hidden() {
                    eprintln!("{line}");
                } else {
                    self.bar.println(line);
                }
            }
            TierProgress::Resuming { .. } => {}
        }
    }

    /// The time left for the whole box at this run's rate so far, when the
    /// box's shape count is known. (Later tiers cost more a shape, so it
    /// errs early; it settles as the build goes.)
    fn overall_eta(&self, done_in_tier: u64) -> Option<Duration> {
        let all = self.all_shapes?;
        let done = self.done_before.load(Ordering::Relaxed) + done_in_tier;
        let this_run = done.checked_sub(self.done_at_start).filter(|&n| n > 0)?;
        let per_shape = self.started.elapsed().as_secs_f64() / this_run as f64;
        Some(Duration::from_secs_f64(
            per_shape * all.saturating_sub(done) as f64,
        ))
    }
}

fn build(args: &BuildArgs) -> anyhow::Result<ExitCode> {
    let shape_box = args.shape_box;
    let path = build_path(args)?;
    if let Some(threads) = args.threads {
        if threads == 0 {
            return Err(UsageError("--threads must be at least 1".into()).into());
        }
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global()
            .context("starting the worker threads")?;
    }
    let partitioned = args.local_ranks.is_some() || grundy_dist::launched_by_mpi();
    if partitioned && args.keep_every.is_some() {
        return Err(UsageError(
            "--keep-every applies to builds of one process: a partitioned build keeps whole tiers"
                .into(),
        )
        .into());
    }
    if let Some(ranks) = args.local_ranks {
        return build_local(args, path, ranks);
    }
    if grundy_dist::launched_by_mpi() {
        #[cfg(feature = "mpi")]
        return build_mpi(args, path);
        #[cfg(not(feature = "mpi"))]
        return Err(UsageError(
            "started by an MPI launcher, but this grundy was built without MPI: every rank would build the whole box into the same file. Build it with `cargo build --release --features mpi` (see docs/distributed.md)".into(),
        )
        .into());
    }
    if args.exchange.is_some() || args.memory.is_some() {
        return Err(UsageError(
            "--exchange and --memory apply to partitioned builds: run under mpirun (a grundy built with --features mpi) or give --local-ranks N".into(),
        )
        .into());
    }
    let started = Instant::now();
    // The bar starts once the store says how much a resumed build holds.
    let bar: std::sync::OnceLock<BuildBar> = std::sync::OnceLock::new();
    let report = |p: TierProgress| {
        if let Some(bar) = bar.get() {
            bar.update(p);
        }
    };
    let mut control = TierControl::new();
    control.max_time = args.max_time;
    control.progress = Some(&report);
    let mut first_tier = 1;
    let mut opened = false;
    let mut config = grundy::tier::BuildConfig::default();
    if let Some(slots) = args.keep_every {
        config.progress_slots = usize::try_from(slots).unwrap_or(usize::MAX);
    }
    let outcome = grundy_db::build_with(&path, shape_box, &config, &control, |store| {
        opened = true;
        if let Some(note) = store.writer().note() {
            eprintln!("note: {note}");
        }
        warn_if_short_of_space(&path, shape_box);
        let stored = grundy::tier::TierStore::stored(store);
        if stored > 0 {
            eprintln!(
                "resuming {} from tier {} of {}",
                store.writer().partial().display(),
                stored + 1,
                shape_box.cells()
            );
        }
        first_tier = stored + 1;
        let _ = bar.set(BuildBar::new(shape_box, store.stored_shapes()));
    });
    if let Some(bar) = bar.get() {
        bar.bar.finish_and_clear();
    }
    let built = match outcome {
        Ok(built) => built,
        Err(err @ BuildFailed::Stopped { .. }) => {
            eprintln!("error: {err}");
            return Ok(ExitCode::from(3));
        }
        Err(BuildFailed::Db(err)) if opened => return Err(db_error(err)),
        Err(BuildFailed::Db(err)) => return Err(open_error(err)),
        Err(err) => return Err(anyhow::Error::new(err).context("building the database")),
    };
    // A record left by an earlier build of this path must not describe the
    // new file, even if writing the new record fails below.
    let _ = std::fs::remove_file(grundy_db::meta::build_record_path(&path));
    let record = build_record(args, &path, first_tier, started);
    grundy_db::meta::write_build_record(&path, &record)?;
    let shapes: u64 = built.header.tiers.iter().map(|t| t.positions).sum();
    let elapsed = started.elapsed().as_secs_f64();
    let mut stdout = std::io::stdout().lock();
    let out = &mut stdout;
    writeln!(
        out,
        "wrote {}: {} of the {shape_box} box in {elapsed:.1} s ({:.0} shapes/s)",
        path.display(),
        count(shapes, "shape"),
        shapes as f64 / elapsed.max(1e-9)
    )?;
    print_full_boards(out, &built.set)?;
    Ok(ExitCode::SUCCESS)
}

/// A database error while writing, as the CLI reports it: a full disk is
/// exit 4, another I/O error exit 1, a file in the way exit 2.
fn db_error(err: DbError) -> anyhow::Error {
    match err {
        DbError::NoSpace { .. } => NoSpaceError(err.to_string()).into(),
        DbError::Io { .. } => anyhow::Error::new(err),
        _ => UsageError(err.to_string()).into(),
    }
}

/// A database error while starting a build: as [`db_error`], but an output
/// that cannot be opened is bad input (exit 2).
fn open_error(err: DbError) -> anyhow::Error {
    match err {
        DbError::Io { .. } => UsageError(err.to_string()).into(),
        err => db_error(err),
    }
}

/// `--out` names the file; a directory is refused before anything starts.
fn refuse_directory(path: &Path) -> anyhow::Result<()> {
    if path.is_dir() {
        return Err(UsageError(format!(
            "{}: is a directory; --out names the database file (e.g. {})",
            path.display(),
            path.join("clear.gdb").display()
        ))
        .into());
    }
    Ok(())
}

/// Warns on stderr when the database of `shape_box` (its size known from a
/// past build) will not fit the free space where `path` is written. Only a
/// warning: the space may be freed meanwhile, and root may use reserved
/// blocks; a full disk during the build is exit 4.
fn warn_if_short_of_space(path: &Path, shape_box: ShapeBox) {
    let Some(shapes) = known_shapes(shape_box) else {
        return;
    };
    // About 1.92 bytes a shape, and a page of padding per tier at most.
    let estimate = grundy_db::estimated_size([shapes])
        .saturating_add(shape_box.cells() as u64 * grundy_db::HEADER_LEN as u64);
    let partial = grundy_db::partial_path(path);
    let written = std::fs::metadata(&partial).map_or(0, |m| m.len());
    let Some(available) = grundy_db::available_space(&partial) else {
        return;
    };
    if estimate.saturating_sub(written) > available {
        eprintln!(
            "warning: the {shape_box} database takes about {estimate} bytes ({shapes} shapes), but only {available} bytes are free for {}: the build will stop (exit 4) when the disk is full",
            partial.display()
        );
    }
}

/// What `PATH.build.json` says of a finished build: the command (the
/// output by its file name alone, so the record does not depend on the
/// directory) and what this run measured.
fn build_record(
    args: &BuildArgs,
    path: &Path,
    first_tier: usize,
    started: Instant,
) -> grundy_db::meta::BuildRecord {
    let mut command = format!("grundy tables build --box {}", args.shape_box);
    if let Some(threads) = args.threads {
        command.push_str(&format!(" --threads {threads}"));
    }
    if args.out.is_some() {
        if let Some(name) = path.file_name() {
            command.push_str(&format!(" --out {}", name.to_string_lossy()));
        }
    }
    let cpu = grundy_db::meta::cpu_seconds();
    grundy_db::meta::BuildRecord {
        command,
        grundy_version: env!("CARGO_PKG_VERSION").into(),
        first_tier,
        measured: grundy_db::meta::Measured {
            threads: rayon::current_num_threads(),
            cpu_user_seconds: cpu.map(|c| c.0),
            cpu_system_seconds: cpu.map(|c| c.1),
            wall_seconds: (started.elapsed().as_secs_f64() * 1000.0).round() / 1000.0,
            peak_rss_bytes: grundy_db::meta::peak_rss(),
        },
    }
}

/// Where a build writes: `--out`, or the default directory.
fn build_path(args: &BuildArgs) -> anyhow::Result<PathBuf> {
    Ok(match &args.out {
        Some(out) => {
            refuse_directory(out)?;
            out.clone()
        }
        None => {
            let dir = grundy_db::discover::default_dir().ok_or_else(|| {
                UsageError("no default directory (HOME is not set): give --out PATH".into())
            })?;
            std::fs::create_dir_all(&dir)
                .map_err(|e| UsageError(format!("{}: cannot create: {e}", dir.display())))?;
            dir.join(format!("clear-{}.gdb", args.shape_box))
        }
    })
}

/// The options of one rank of a partitioned build.
fn dist_options<'a>(
    args: &BuildArgs,
    path: PathBuf,
    log: &'a (dyn Fn(&str) + Sync),
) -> grundy_dist::Options<'a> {
    use grundy_dist::{Exchange, Fault, Options};
    let mut opts = Options::new(path);
    opts.report_keys = check::full_board_sizes(args.shape_box)
        .filter_map(|(a, b)| args.shape_box.full_key(a, b))
        .collect();
    opts.exchange = match args.exchange.unwrap_or(ExchangeArg::Auto) {
        ExchangeArg::Auto => Exchange::Auto,
        ExchangeArg::Replicate => Exchange::Replicate,
        ExchangeArg::Query => Exchange::Query,
    };
    opts.memory = args.memory;
    opts.max_time = args.max_time;
    opts.log = Some(log);
    // Fault injection for the crash-recovery test in `.ci/run`:
    // GRUNDY_DIST_FAULT=RANK:TIER kills that rank halfway through the tier
    // (1-based, as the tier lines show it).
    opts.fault = std::env::var("GRUNDY_DIST_FAULT").ok().and_then(|v| {
        let (rank, tier) = v.split_once(':')?;
        Some(Fault {
            rank: rank.parse().ok()?,
            tier: tier.parse::<u32>().ok()?.checked_sub(1)?,
        })
    });
    opts
}

/// What one rank reports at the end of a partitioned build.
fn dist_outcome(
    shape_box: ShapeBox,
    rank: u32,
    outcome: Result<grundy_dist::Report, grundy_dist::DistError>,
) -> anyhow::Result<ExitCode> {
    use grundy_dist::DistError;
    match outcome {
        Ok(report) => {
            if rank == 0 {
                let mut stdout = std::io::stdout().lock();
                print_dist_report(&mut stdout, shape_box, &report)?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(err @ DistError::Stopped { .. }) => {
            if rank == 0 {
                eprintln!("error: {err}");
            }
            Ok(ExitCode::from(3))
        }
        Err(DistError::Mismatch(m)) => Err(UsageError(m).into()),
        Err(err @ DistError::NoSpace { .. }) => Err(NoSpaceError(err.to_string()).into()),
        Err(err @ DistError::Setup { .. }) => Err(UsageError(err.to_string()).into()),
        Err(err) => Err(anyhow::Error::new(err).context("building the database")),
    }
}

/// `tables build --local-ranks N`: the partitioned build over threads.
fn build_local(args: &BuildArgs, path: PathBuf, ranks: u32) -> anyhow::Result<ExitCode> {
    let log = |line: &str| eprintln!("{line}");
    let opts = dist_options(args, path, &log);
    let comms = grundy_dist::LocalComm::group(ranks);
    let outcomes: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> = comms
            .iter()
            .map(|comm| {
                let opts = &opts;
                scope.spawn(move || {
                    let game = ClearShapes::new(args.shape_box);
                    grundy_dist::build(&game, comm, opts, |r, n| {
                        grundy_dist::open_part_file(&opts.out, args.shape_box, r, n)
                    })
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a rank thread does not panic"))
            .collect()
    });
    let mut outcomes = outcomes.into_iter();
    dist_outcome(
        args.shape_box,
        0,
        outcomes.next().expect("at least one rank"),
    )
}

/// `tables build` under an MPI launcher: one rank of a partitioned build.
#[cfg(feature = "mpi")]
fn build_mpi(args: &BuildArgs, path: PathBuf) -> anyhow::Result<ExitCode> {
    let comm = grundy_dist::MpiComm::init()
        .ok_or_else(|| anyhow::anyhow!("MPI could not be initialized"))?;
    let log = |line: &str| eprintln!("{line}");
    let mut opts = dist_options(args, path, &log);
    opts.binary = binary_fingerprint();
    let rank = grundy_dist::Comm::rank(&comm);
    let game = ClearShapes::new(args.shape_box);
    let outcome = grundy_dist::build(&game, &comm, &opts, |r, n| {
        grundy_dist::open_part_file(&opts.out, args.shape_box, r, n)
    });
    dist_outcome(args.shape_box, rank, outcome)
}

/// A CRC-32 of this executable's bytes: ranks running different builds of
/// grundy refuse to work together.
#[cfg(feature = "mpi")]
fn binary_fingerprint() -> u64 {
    use std::io::Read as _;
    let crc = || -> std::io::Result<u32> {
        let mut file = std::fs::File::open(std::env::current_exe()?)?;
        let mut hasher = crc32fast::Hasher::new();
        // Streamed, so the check does not add the binary's size to the
        // rank's peak memory.
        let mut buf = vec![0u8; 1 << 16];
        loop {
            let n = file.read(&mut buf)?;
            if n == 0 {
                return Ok(hasher.finalize());
            }
            hasher.update(&buf[..n]);
        }
    };
    crc().map_or(0, u64::from)
}

fn print_dist_report(
    out: &mut impl Write,
    shape_box: ShapeBox,
    report: &grundy_dist::Report,
) -> std::io::Result<()> {
    let shapes: u64 = report.own_shapes.iter().sum();
    writeln!(
        out,
        "wrote {} ({}): {} in {:.1} s over {}",
        count(report.files.len() as u64, "file"),
        report
            .files
            .iter()
            .map(|f| f.display().to_string())
            .collect::<Vec<_>>()
            .join(", "),
        count(shapes, "shape"),
        report.seconds,
        count(u64::from(report.ranks), "rank")
    )?;
    writeln!(
        out,
        "rank       shapes   shapes/s   bytes sent   replicas (bytes)   peak RSS (bytes)"
    )?;
    for r in 0..report.ranks as usize {
        writeln!(
            out,
            "{r:>4} {:>12} {:>10.0} {:>12} {:>18} {:>18}",
            report.own_shapes[r],
            report.own_shapes[r] as f64 / report.seconds.max(1e-9),
            report.sent[r],
            report.replica_bytes[r],
            report.peak_rss[r]
        )?;
    }
    // The values of `report_keys`: the full boards, in order.
    let boards: Vec<(usize, usize)> = check::full_board_sizes(shape_box)
        .filter(|&(a, b)| shape_box.full_key(a, b).is_some())
        .collect();
    print_boards(out, shape_box, |a, b| {
        let i = boards.iter().position(|&x| x == (a, b))?;
        report.values.get(i).copied().flatten().map(Nimber::new)
    })
}

/// The full boards a database holds, by the file's own lookups.
fn print_full_boards(out: &mut impl Write, set: &DbSet) -> std::io::Result<()> {
    print_boards(out, set.shape_box(), |a, b| set.full_board(a, b))
}

fn print_boards(
    out: &mut impl Write,
    shape_box: ShapeBox,
    value: impl Fn(usize, usize) -> Option<Nimber>,
) -> std::io::Result<()> {
    writeln!(out, "full boards:")?;
    for (a, b) in check::full_board_sizes(shape_box) {
        if let Some(value) = value(a, b) {
            writeln!(out, "  {a} x {b}: {value}")?;
        }
    }
    Ok(())
}

fn open(path: &Path) -> anyhow::Result<DbSet> {
    DbSet::open(path).map_err(|e| UsageError(e.to_string()).into())
}

fn info(args: &InfoArgs) -> anyhow::Result<ExitCode> {
    if args.json {
        return info_json(args);
    }
    let mut stdout = std::io::stdout().lock();
    let out = &mut stdout;
    let set = open(&args.path)?;
    let shape_box = set.shape_box();
    let tiers = shape_box.cells();
    let shapes: u64 = (1..=tiers).map(|t| set.positions(t)).sum();
    writeln!(out, "{}", set.path().display())?;
    writeln!(
        out,
        "format version {}, rectangle clearing, box {shape_box} ({}), {}",
        set.version(),
        count(tiers as u64, "tier"),
        count(shapes, "shape"),
    )?;
    let parts = set.parts();
    if parts.len() > 1 {
        writeln!(
            out,
            "partitioned: {} parts of build {:016x}",
            parts.len(),
            parts[0].header().part.map_or(0, |p| p.build_id)
        )?;
        for p in parts {
            writeln!(out, "  {}", p.path().display())?;
        }
    }
    writeln!(
        out,
        "tier       shapes   largest value   crc32{}",
        if parts.len() > 1 {
            " (one per part)"
        } else {
            ""
        }
    )?;
    for t in 0..tiers {
        let entries: Vec<grundy_db::TierEntry> =
            parts.iter().map(|p| p.header().tiers[t]).collect();
        writeln!(
            out,
            "{:>4} {:>12} {:>15}   {}",
            t + 1,
            entries.iter().map(|e| e.positions).sum::<u64>(),
            entries.iter().map(|e| e.max_value).max().unwrap_or(0),
            entries
                .iter()
                .map(|e| format!("{:08x}", e.crc32))
                .collect::<Vec<_>>()
                .join(" ")
        )?;
    }
    let largest = parts
        .iter()
        .flat_map(|p| p.header().tiers.iter().map(|t| t.max_value))
        .max()
        .unwrap_or(0);
    writeln!(out, "largest value: {largest}")?;
    print_boards(out, shape_box, |a, b| set.full_board(a, b))?;
    if args.values {
        writeln!(out, "shapes per value:")?;
        for (value, count) in value_counts(&set)?.iter().enumerate() {
            if *count > 0 {
                writeln!(out, "  {value:>4} {count:>12}")?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// How many shapes have each value.
fn value_counts(set: &DbSet) -> anyhow::Result<Vec<u64>> {
    let mut counts: Vec<u64> = Vec::new();
    for tier in 1..=set.shape_box().cells() {
        let tier_counts = set.value_counts(tier);
        if counts.len() < tier_counts.len() {
            counts.resize(tier_counts.len(), 0);
        }
        counts
            .iter_mut()
            .zip(&tier_counts)
            .for_each(|(c, n)| *c += n);
    }
    Ok(counts)
}

fn verify(args: &VerifyArgs) -> anyhow::Result<ExitCode> {
    let mut stdout = std::io::stdout().lock();
    let out = &mut stdout;
    let started = Instant::now();
    let set = open(&args.path)?;
    writeln!(
        out,
        "{}: {} header(s) and {} section checksums good ({:.2} s)",
        set.path().display(),
        set.parts().len(),
        set.parts()
            .iter()
            .map(|p| p.header().tiers.len())
            .sum::<usize>(),
        started.elapsed().as_secs_f64()
    )?;
    let started = Instant::now();
    set.check_layout().map_err(|e| UsageError(e.to_string()))?;
    writeln!(
        out,
        "layout good: every shape where lookups find it ({:.2} s)",
        started.elapsed().as_secs_f64()
    )?;
    let shape_box = set.shape_box();
    if args.census {
        let started = Instant::now();
        let (rows, cols) = (shape_box.rows(), shape_box.cols());
        let census = check::census(&set).map_err(db_error)?;
        let (placements, expected) = (census.placements, census.connected_sets);
        if !census.holds() {
            return Err(UsageError(format!(
                "{}: the shapes have {placements} placements in the {rows} x {cols} grid, \
                 but it has {expected} connected cell sets: shapes are missing or repeated",
                args.path.display()
            ))
            .into());
        }
        writeln!(
            out,
            "census: the shapes' {placements} placements in the {rows} x {cols} grid are its \
             {expected} connected cell sets (transfer matrix) ({:.1} s)",
            started.elapsed().as_secs_f64()
        )?;
    }
    full_board_check(out, args, &set)?;
    if args.all || args.tiers.is_some() {
        return verify_tiers(out, args, &set);
    }
    let sampled = check::samples(&set, args.samples, args.seed, args.max_positions)
        .map_err(|err| check_error(&args.path, err))?;
    writeln!(
        out,
        "{} re-solved top-down {} ({} skipped: over {} each)",
        count(sampled.checked, "random shape"),
        if sampled.checked == 1 {
            "agrees"
        } else {
            "agree"
        },
        sampled.skipped,
        count(args.max_positions, "position")
    )?;
    Ok(ExitCode::SUCCESS)
}

/// A failed check: a wrong or impossible value is the database's fault,
/// named with its path (exit 2); a failed search is an error of its own.
fn check_error(path: &Path, err: CheckError) -> anyhow::Error {
    match err {
        CheckError::Solve(err) => err.into(),
        CheckError::Read(err) => db_error(err),
        CheckError::Tiers { .. } => UsageError(err.to_string()).into(),
        err => UsageError(format!("{}: {err}", path.display())).into(),
    }
}

/// The full boards' values, as `tables info` lists them, against the
/// top-down solver (`Solver` on `Clear` with its own small tables: no shape
/// database).
fn full_board_check(out: &mut impl Write, args: &VerifyArgs, set: &DbSet) -> anyhow::Result<()> {
    let started = Instant::now();
    let full = check::full_boards(set, args.board_positions)
        .map_err(|err| check_error(&args.path, err))?;
    let over: Vec<String> = full
        .over_budget
        .iter()
        .map(|(a, b)| format!("{a} x {b}"))
        .collect();
    writeln!(
        out,
        "{} full boards re-solved top-down agree{} ({:.2} s)",
        full.checked,
        if over.is_empty() {
            String::new()
        } else {
            format!(
                "; not checked, over {} positions (--board-positions): {}",
                args.board_positions,
                over.join(", ")
            )
        },
        started.elapsed().as_secs_f64()
    )?;
    Ok(())
}

/// `verify --all` / `--tiers A-B`: every shape of the tiers, re-solved
/// top-down ([`check::tiers`]); any skipped shape makes the exit code 3.
fn verify_tiers(out: &mut impl Write, args: &VerifyArgs, set: &DbSet) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let (first, last) = args.tiers.unwrap_or((1, set.shape_box().cells()));
    let tally = check::tiers(set, first, last, args.board_positions)
        .map_err(|err| check_error(&args.path, err))?;
    writeln!(
        out,
        "every shape of tiers {first} to {last}: {} re-solved top-down agree, {} skipped (over {} positions) ({:.1} s)",
        tally.checked,
        tally.skipped,
        args.board_positions,
        started.elapsed().as_secs_f64()
    )?;
    if tally.skipped > 0 {
        eprintln!(
            "error: {} shapes were not checked (over --board-positions {}): raise it to check them",
            tally.skipped, args.board_positions
        );
        return Ok(ExitCode::from(3));
    }
    Ok(ExitCode::SUCCESS)
}

fn merge(args: &MergeArgs) -> anyhow::Result<ExitCode> {
    let mut stdout = std::io::stdout().lock();
    let out = &mut stdout;
    let started = Instant::now();
    let set = open(&args.path)?;
    refuse_directory(&args.out)?;
    // A fresh output: a merge never resumes a partial file (and never
    // touches one a running build holds).
    let header = check::merge(&set, &args.out).map_err(|err| match err {
        MergeError::Create(err) => open_error(err),
        MergeError::Write(err) | MergeError::Read(err) => db_error(err),
        err => anyhow::anyhow!(err),
    })?;
    let shapes: u64 = header.tiers.iter().map(|t| t.positions).sum();
    writeln!(
        out,
        "merged {} of {} into {}: {} ({:.1} s)",
        count(set.parts().len() as u64, "part"),
        set.path().display(),
        args.out.display(),
        count(shapes, "shape"),
        started.elapsed().as_secs_f64()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// `tables convert OLD NEW`: [`grundy_db::convert`].
fn convert(args: &ConvertArgs) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    refuse_directory(&args.new)?;
    if args.new == args.old {
        return Err(UsageError(format!(
            "{}: convert writes a new file; give another path",
            args.new.display()
        ))
        .into());
    }
    let header = grundy_db::convert(&args.old, &args.new).map_err(db_error)?;
    let shapes: u64 = header.tiers.iter().map(|t| t.positions).sum();
    let bytes = header.end();
    let mut stdout = std::io::stdout().lock();
    writeln!(
        stdout,
        "converted {} into {}: {} in {bytes} bytes ({:.2} bytes a shape, {:.1} s)",
        args.old.display(),
        args.new.display(),
        count(shapes, "shape"),
        bytes as f64 / shapes.max(1) as f64,
        started.elapsed().as_secs_f64()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// `tables info --json`: [`grundy_db::meta::describe`], pretty-printed.
fn info_json(args: &InfoArgs) -> anyhow::Result<ExitCode> {
    let set = open(&args.path)?;
    let meta = grundy_db::meta::describe(&set).map_err(|e| UsageError(e.to_string()))?;
    let mut stdout = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut stdout, &meta)?;
    writeln!(stdout)?;
    Ok(ExitCode::SUCCESS)
}

/// `tables export`: [`grundy_db::meta::export_csv`] through a buffer.
fn export(args: &ExportArgs) -> anyhow::Result<ExitCode> {
    let set = open(&args.path)?;
    match args.format {
        ExportFormat::Csv => {
            let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
            grundy_db::meta::export_csv(&set, &mut out)?;
            out.flush()?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn checksum(args: &ChecksumArgs) -> anyhow::Result<ExitCode> {
    let mut stdout = std::io::stdout().lock();
    let out = &mut stdout;
    let set = open(&args.path)?;
    let shapes: u64 = (1..=set.shape_box().cells())
        .map(|t| set.positions(t))
        .sum();
    writeln!(
        out,
        "{:08x}  {} ({} box, {}, {}; content crc32: tiers in order, shapes sorted by key)",
        set.content_crc().map_err(|e| UsageError(e.to_string()))?,
        set.path().display(),
        set.shape_box(),
        count(shapes, "shape"),
        count(set.parts().len() as u64, "part")
    )?;
    if args.sha256 {
        use sha2::Digest as _;
        for part in set.parts() {
            // The file as opened and checked (mapped: no second read).
            let digest = sha2::Sha256::digest(part.bytes());
            let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
            writeln!(out, "{hex}  {}", part.path().display())?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxes_parse() {
        assert_eq!(parse_box("6x6"), Ok(ShapeBox::new(6, 6).unwrap()));
        assert_eq!(parse_box("7X5"), Ok(ShapeBox::new(5, 7).unwrap()));
        assert_eq!(parse_box("4x9"), Ok(ShapeBox::new(4, 9).unwrap()));
        assert_eq!(parse_box("18x2"), Ok(ShapeBox::new(2, 18).unwrap()));
        for bad in [
            "6", "x6", "6x", "axb", "0x5", "9x9", "7x8", "-1x5", "6x6x6", "5x9", "4x14", "3x17",
            "2x27",
        ] {
            assert!(parse_box(bad).is_err(), "{bad}");
        }
    }
}
