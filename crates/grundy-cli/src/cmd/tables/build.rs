//! `grundy tables build`: a database built tier by tier, in one process or
//! in several (MPI), with its progress, its record and its errors.

use std::io::{IsTerminal as _, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context as _;
use grundy::clear::shapes::{ClearShapes, ShapeBox};
use grundy::tier::{Tier, TierControl, TierProgress};
use grundy::Nimber;
use grundy_db::check;
use grundy_db::{BuildFailed, DbError};

use crate::output::{NoSpaceError, UsageError};
use grundy_report::words::{self, count};

use super::*;

/// A build's progress, drawn by indicatif when stderr is a terminal: the
/// tier's bar with its ETA, and an overall ETA for the boxes whose shape
/// count is known ([`known_shapes`]).
pub(super) struct BuildBar {
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
pub(super) fn known_shapes(shape_box: ShapeBox) -> Option<u64> {
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
            indicatif::ProgressStyle::with_template(words::TIER_BAR_TEMPLATE)
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
                    .set_prefix(format!("tier {tier}/{} generating", self.tiers));
            }
            TierProgress::Solving { tier, done, total } => {
                let tier = u64::from(tier.number());
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
                let line =
                    words::tier_stored(report.tier, report.positions, report.elapsed.as_secs_f64());
                if self.bar.is_hidden() {
                    stderr_line!("{line}");
                } else {
                    self.bar.println(line);
                }
            }
            TierProgress::Restored { tier, slots, of } => {
                let line = words::tier_restored(tier, slots, of);
                if self.bar.is_hidden() {
                    stderr_line!("{line}");
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

pub(super) fn build(args: &BuildArgs) -> anyhow::Result<ExitCode> {
    if let Some(refusal) = local_ranks_under_mpi(
        args.local_ranks,
        grundy_dist::launched_by_mpi(),
        grundy_dist::launched_size(),
    ) {
        return Err(UsageError(refusal).into());
    }
    if matches!(args.exchange, Some(ExchangeArg::Replicate)) && args.memory.is_some() {
        return Err(UsageError(
            "--memory budgets the tiers `--exchange auto` replicates; `--exchange replicate` copies every tier whatever the budget: give one or the other".into(),
        )
        .into());
    }
    let shape_box = args.shape_box;
    let path = build_path(args)?;
    if let Some(threads) = args.threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global()
            .context("starting the worker threads")?;
    }
    let partitioned = args.local_ranks.is_some() || grundy_dist::launched_by_mpi();
    if partitioned && args.max_memory.is_some() {
        return Err(UsageError(
            "--max-memory applies to builds of one process: a partitioned build's --memory budgets the tiers each rank replicates"
                .into(),
        )
        .into());
    }
    if partitioned && args.keep_every.is_some() {
        return Err(UsageError(
            "--keep-every applies to builds of one process: a partitioned build keeps whole tiers"
                .into(),
        )
        .into());
    }
    let cancel = cancel_on_signals()?;
    if let Some(ranks) = args.local_ranks {
        return build_local(args, path, ranks, &cancel);
    }
    if grundy_dist::launched_by_mpi() {
        #[cfg(feature = "mpi")]
        return build_mpi(args, path, &cancel);
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
    note_other_partials(&path, 1);
    let started = Instant::now();
    // The bar starts once the store says how much a resumed build holds.
    let bar: std::sync::OnceLock<BuildBar> = std::sync::OnceLock::new();
    let report = |p: TierProgress| {
        if let Some(bar) = bar.get() {
            bar.update(p);
        }
    };
    // Started after the arguments are checked, before the build reads
    // anything: its first sample is the process as it starts.
    let watch = grundy_db::memory::MemoryWatch::for_build(args.max_memory)
        .context("starting the thread that watches the memory budget")?;
    let over_memory = |extra| watch.as_ref().and_then(|watch| watch.over(extra));
    let mut control = TierControl::new();
    control.max_time = args.max_time;
    control.cancel = Some(&cancel);
    control.progress = Some(&report);
    control.memory = Some(&over_memory);
    let mut first_tier = 1;
    let mut opened = false;
    let mut config = grundy::tier::BuildConfig::default();
    if let Some(slots) = args.keep_every {
        config.progress_slots = usize::try_from(slots).unwrap_or(usize::MAX);
    }
    let outcome = grundy_db::build_with(&path, shape_box, &config, &control, |store| {
        opened = true;
        if let Some(note) = store.writer().note() {
            stderr_line!("note: {note}");
        }
        warn_if_short_of_space(&path, shape_box);
        let stored = grundy::tier::TierStore::stored(store);
        if stored > 0 {
            stderr_line!(
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
            stderr_line!("error: {err}");
            if let (
                BuildFailed::Stopped {
                    reason: grundy::tier::TierError::MemoryBudget { limit, .. },
                    ..
                },
                None,
            ) = (&err, args.max_memory)
            {
                stderr_line!(
                    "note: that budget, {}, was the default: what the process held plus the memory the system had available as the build started (or the limit of its control group, if lower); --max-memory sets another, and a machine with more memory resumes it",
                    grundy::solver::bytes_in_words(*limit)
                );
            }
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
    let mut stdout = crate::output::stdout();
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

/// Why `--local-ranks` is refused here, if it is: under an MPI launcher
/// of more than one process (`launched`, with `size` processes when the
/// launcher says), each process would run every rank's thread and write
/// every part. Under `mpirun -n 1` one process runs the ranks as threads.
fn local_ranks_under_mpi(
    local_ranks: Option<u32>,
    launched: bool,
    size: Option<u32>,
) -> Option<String> {
    if local_ranks.is_none() || !launched || size == Some(1) {
        return None;
    }
    let processes = size.map_or_else(|| "several".to_owned(), |n| n.to_string());
    Some(format!(
        "--local-ranks cannot be used under mpirun ({processes} processes): each process would build every part. Give the ranks as mpirun -n N, or run --local-ranks N without mpirun"
    ))
}

/// A flag that SIGINT and SIGTERM set: the build (every rank of a
/// partitioned one, which agree on it) stops at its next check with exit 3,
/// its files resumable. A second SIGINT ends the process at once (exit
/// 130), as Ctrl-C does without the flag; the partial files still resume
/// from their last complete tier. SIGTERM only sets the flag: an MPI
/// launcher may send it after the terminal's SIGINT.
fn cancel_on_signals() -> anyhow::Result<std::sync::Arc<std::sync::atomic::AtomicBool>> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    use std::sync::{atomic::AtomicBool, Arc};
    let flag = Arc::new(AtomicBool::new(false));
    // The shutdown first: it sees the flag as the first signal left it.
    signal_hook::flag::register_conditional_shutdown(SIGINT, 130, Arc::clone(&flag))
        .context("handling SIGINT")?;
    for signal in [SIGINT, SIGTERM] {
        signal_hook::flag::register(signal, Arc::clone(&flag)).context("handling signals")?;
    }
    Ok(flag)
}

/// A database error while writing, as the CLI reports it: a full disk is
/// exit 4, a directory, a missing one or an unwritable file in the way exit
/// 2, another I/O error exit 1, another file in the way exit 2.
pub(super) fn db_error(err: DbError) -> anyhow::Error {
    use std::io::ErrorKind;
    match err {
        DbError::NoSpace { .. } => NoSpaceError(err.to_string()).into(),
        // A directory, or a file the user may not write, where the build
        // keeps a file beside its output: the user's to fix.
        DbError::Io { ref error, .. }
            if matches!(
                error.kind(),
                ErrorKind::IsADirectory
                    | ErrorKind::NotADirectory
                    | ErrorKind::NotFound
                    | ErrorKind::PermissionDenied
            ) =>
        {
            UsageError(err.to_string()).into()
        }
        DbError::Io { .. } => anyhow::Error::new(err),
        _ => UsageError(err.to_string()).into(),
    }
}

/// A database error while starting a build: as [`db_error`], but an output
/// that cannot be opened is bad input (exit 2).
pub(super) fn open_error(err: DbError) -> anyhow::Error {
    match err {
        DbError::Io { .. } => UsageError(err.to_string()).into(),
        err => db_error(err),
    }
}

/// The file an output (`what`: `--out`, or `NEW` of `convert`) names, its
/// symbolic links followed: the database is renamed into place, which would
/// replace a link itself, so the build writes beside the file the link
/// names (and a link that names nothing yet names where the file goes).
/// Anything there that is not a regular file is refused before any work:
/// the rename would replace a directory's name, a device, a FIFO or a
/// socket.
pub(super) fn output_path(path: &Path, what: &str) -> anyhow::Result<PathBuf> {
    if path.as_os_str().as_encoded_bytes().ends_with(b"/") {
        // `out/`: a directory meant, which the rename cannot fill. The
        // example is a file in it, unless a file already takes its name.
        let name = path.as_os_str().to_string_lossy();
        let file = Path::new(name.trim_end_matches('/'));
        let example = if file.is_file() {
            file.to_owned()
        } else {
            path.join("clear.gdb")
        };
        return Err(UsageError(format!(
            "{}: ends with /, a directory; {what} names the database file (e.g. {})",
            path.display(),
            example.display()
        ))
        .into());
    }
    let mut target = path.to_owned();
    // As the kernel's limit on links followed in one lookup (Linux's 40).
    for _ in 0..40 {
        let Ok(metadata) = std::fs::symlink_metadata(&target) else {
            // Not there: the file is created there (or its directory's
            // error names the cause).
            return Ok(target);
        };
        if metadata.file_type().is_symlink() {
            let link = std::fs::read_link(&target)
                .map_err(|e| UsageError(format!("{}: {e}", path.display())))?;
            target = match target.parent() {
                Some(dir) => dir.join(link),
                None => link,
            };
            continue;
        }
        if metadata.is_file() {
            return Ok(target);
        }
        let through = if target == path {
            String::new()
        } else {
            format!(" (through a symbolic link to {})", target.display())
        };
        if metadata.is_dir() {
            return Err(UsageError(format!(
                "{}: is a directory{through}; {what} names the database file (e.g. {})",
                path.display(),
                path.join("clear.gdb").display()
            ))
            .into());
        }
        return Err(UsageError(format!(
            "{}: is {}{through}, not a regular file; {what} names the database file, which a finished build replaces",
            path.display(),
            grundy_db::file_kind(&metadata)
        ))
        .into());
    }
    Err(UsageError(format!(
        "{}: too many levels of symbolic links",
        path.display()
    ))
    .into())
}

/// Warns on stderr when the database of `shape_box` (its size known from a
/// past build) will not fit the free space where `path` is written. Only a
/// warning: the space may be freed meanwhile, and root may use reserved
/// blocks; a full disk during the build is exit 4.
pub(super) fn warn_if_short_of_space(path: &Path, shape_box: ShapeBox) {
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
        stderr_line!(
            "{}",
            short_of_space(shape_box, shapes, estimate, available, &partial)
        );
    }
}

/// The warning of [`warn_if_short_of_space`]. The estimate is an upper
/// bound (every tier's padding counted as a whole page), so a build it
/// says does not fit may still fit: the warning says what may happen.
fn short_of_space(
    shape_box: ShapeBox,
    shapes: u64,
    estimate: u64,
    available: u64,
    partial: &Path,
) -> String {
    format!(
        "warning: the {shape_box} database takes up to about {estimate} bytes ({}), but only {available} bytes are free for {}: the build may stop on a full disk (exit 4)",
        count(shapes, "shape"),
        partial.display()
    )
}

/// What `PATH.build.json` says of a finished build: the command (the
/// output by its file name alone, so the record does not depend on the
/// directory) and what this run measured.
pub(super) fn build_record(
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
pub(super) fn build_path(args: &BuildArgs) -> anyhow::Result<PathBuf> {
    Ok(match &args.out {
        Some(out) => output_path(out, "--out")?,
        None => {
            let dir = grundy_db::discover::default_dir().ok_or_else(|| {
                UsageError("no default directory (HOME is not set): give --out PATH".into())
            })?;
            std::fs::create_dir_all(&dir)
                .map_err(|e| UsageError(format!("{}: cannot create: {e}", dir.display())))?;
            output_path(
                &dir.join(format!("clear-{}.gdb", args.shape_box)),
                "the default path",
            )?
        }
    })
}

/// The options of one rank of a partitioned build.
pub(super) fn dist_options<'a>(
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
            tier: Tier::from_number(tier.parse().ok()?)?,
        })
    });
    opts
}

/// Says on stderr which partial files beside `path` are of builds over
/// another number of ranks than `ranks` (1: a build of one process): this
/// build neither resumes from them nor removes them (a build over that
/// number of ranks may be resumed with them). Those a running build holds
/// are left out: the writer refuses to start beside it, and says so.
pub(super) fn note_other_partials(path: &Path, ranks: u32) {
    let others: Vec<PathBuf> = grundy_db::other_partials(path, ranks)
        .into_iter()
        .filter(|partial| grundy_db::held_by_a_build(partial).is_none())
        .collect();
    if others.is_empty() {
        return;
    }
    stderr_line!(
        "note: {} of a build over another number of ranks, which this build over {} does not resume and leaves as they are: {} (run with that number of ranks to resume them, or remove them)",
        if others.len() == 1 { "a partial file" } else { "partial files" },
        count(u64::from(ranks), "rank"),
        others
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
}

/// What one rank reports at the end of a partitioned build of `path`.
pub(super) fn dist_outcome(
    shape_box: ShapeBox,
    path: &Path,
    rank: u32,
    outcome: Result<grundy_dist::Report, grundy_dist::DistError>,
) -> anyhow::Result<ExitCode> {
    use grundy_dist::DistError;
    match outcome {
        Ok(report) => {
            if rank == 0 {
                // A partitioned build writes no record: one an earlier
                // single build left must not describe the new database,
                // unless that build's file stays beside the parts, which
                // readers given its name open (said below).
                let stays = path.is_file() && !report.files.iter().any(|f| f == path);
                if !stays {
                    remove_build_record(path)?;
                }
                let mut stdout = crate::output::stdout();
                print_dist_report(&mut stdout, shape_box, &report)?;
                // Not removed: it is a database of its own, which readers
                // given its name open before any parts.
                if stays {
                    stderr_line!(
                        "note: {} from an earlier build is still there: readers given that name open it, not these parts (name a part, such as {}, or remove it)",
                        path.display(),
                        grundy_db::part_path(path, 0, report.ranks).display()
                    );
                } else if let Err(err) = grundy_db::DbSet::open(path) {
                    // The parts of an earlier build over another number of
                    // ranks, say, leave the name to no one.
                    stderr_line!(
                        "note: readers given {} cannot open these parts: {err}",
                        path.display()
                    );
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(err @ DistError::Stopped { .. }) => {
            if rank == 0 {
                stderr_line!("error: {err}");
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
pub(super) fn build_local(
    args: &BuildArgs,
    path: PathBuf,
    ranks: u32,
    cancel: &std::sync::atomic::AtomicBool,
) -> anyhow::Result<ExitCode> {
    let log = |line: &str| stderr_line!("{line}");
    note_other_partials(&path, ranks);
    let mut opts = dist_options(args, path, &log);
    opts.cancel = Some(cancel);
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
        &opts.out,
        0,
        outcomes.next().expect("at least one rank"),
    )
}

/// `tables build` under an MPI launcher: one rank of a partitioned build.
#[cfg(feature = "mpi")]
pub(super) fn build_mpi(
    args: &BuildArgs,
    path: PathBuf,
    cancel: &std::sync::atomic::AtomicBool,
) -> anyhow::Result<ExitCode> {
    let comm = grundy_dist::MpiComm::init()
        .ok_or_else(|| anyhow::anyhow!("MPI could not be initialized"))?;
    let log = |line: &str| stderr_line!("{line}");
    let rank = grundy_dist::Comm::rank(&comm);
    if rank == 0 {
        note_other_partials(&path, grundy_dist::Comm::size(&comm));
    }
    let mut opts = dist_options(args, path, &log);
    opts.binary = binary_fingerprint();
    opts.cancel = Some(cancel);
    let game = ClearShapes::new(args.shape_box);
    let outcome = grundy_dist::build(&game, &comm, &opts, |r, n| {
        grundy_dist::open_part_file(&opts.out, args.shape_box, r, n)
    });
    dist_outcome(args.shape_box, &opts.out, rank, outcome)
}

/// A CRC-32 of this executable's bytes: ranks running different builds of
/// grundy refuse to work together.
#[cfg(feature = "mpi")]
pub(super) fn binary_fingerprint() -> u64 {
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

pub(super) fn print_dist_report(
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The estimate is an upper bound: the warning says the build may
    /// stop, never that it will.
    /// `--local-ranks` under mpirun of several processes (or of a count
    /// the launcher does not say) is refused; under `mpirun -n 1` or
    /// without mpirun it runs.
    #[test]
    fn local_ranks_are_refused_under_mpirun_of_several_processes() {
        let refused = local_ranks_under_mpi(Some(2), true, Some(2)).unwrap();
        assert!(
            refused.starts_with("--local-ranks cannot be used under mpirun (2 processes)"),
            "{refused}"
        );
        assert!(local_ranks_under_mpi(Some(2), true, None).is_some());
        assert_eq!(local_ranks_under_mpi(Some(2), true, Some(1)), None);
        assert_eq!(local_ranks_under_mpi(Some(2), false, None), None);
        assert_eq!(local_ranks_under_mpi(None, true, Some(4)), None);
    }

    #[test]
    fn the_space_warning_says_the_build_may_stop() {
        let shape_box = ShapeBox::new(4, 6).unwrap();
        let text = short_of_space(shape_box, 1, 2, 1, Path::new("x.gdb.partial"));
        assert!(text.contains("may stop on a full disk (exit 4)"), "{text}");
        assert!(text.contains("up to about 2 bytes (1 shape)"), "{text}");
        assert!(!text.contains("will"), "{text}");
    }
}
