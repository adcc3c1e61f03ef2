//! Databases built over several processes (MPI ranks) or threads: the
//! engine's one build loop ([`grundy::tier::build`]) with the ranks of a
//! [`Comm`] as its [`Distribution`] and one store per rank. This crate
//! knows no game: [`build`] is generic over [`TierGame`] and over the
//! rank's store ([`PartStore`]; for shape databases, a part file of
//! `grundy-db`).
//!
//! **Partition.** A position belongs to rank [`owner`]`(key, P)`, a hash of
//! its key. Each rank stores its positions of every tier in its own store
//! (for files, `STEM.part-R-of-P.gdb`, see [`grundy_db::DbSet`]), so disk
//! and memory per rank are `1/P` of the database.
//!
//! **Algorithm.** The engine's loop (see [`grundy::tier::schedule`]):
//! generate each tier from the rank's own parents and send keys to their
//! owners; solve it from replicated earlier tiers while they fit the
//! memory budget ([`Exchange::Auto`]: half the node's available memory
//! shared by its ranks, or `--memory`), else by asking owners for the
//! values of batches of options; store it; replicate it if it fits.
//!
//! **Agreement.** Every step is collective. Errors, budgets and Ctrl-C are
//! agreed between rounds ([`Distribution::agree`]), so all ranks stop at
//! the same point with the same tiers stored, and a build resumes from the
//! last tier every part holds. A rank that stops answering cannot agree:
//! the others' [`watchdog`] ends them once the time budget and a grace
//! have passed. Ranks check at start-up that they run the same binary with
//! the same options and game.
//!
//! **Why it is correct.** The tiers hold the same positions as in the
//! single build (the same generation, split by owner), and each value is
//! the same mex over the same option values, read from the owner instead of
//! a local table. A tier's table is laid out by its keys alone, so the
//! parts, joined ([`TierTable::from_entries`]), give the single build's
//! bytes; the tests check that, position by position, at 1, 2 and 3 ranks,
//! for rectangle clearing and for a second game.

#![deny(missing_docs)]

pub mod comm;
pub mod watchdog;

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

pub use grundy::tier::Exchange;
use grundy::tier::{
    build as build_tiers, owner, BuildConfig, BuildError, Distribution, PartStop, Tier,
    TierControl, TierError, TierGame, TierProgress, TierReport, TierStore, TierTable, TierValues,
};
use grundy_db::Part;
use grundy_report::words::count;

#[cfg(feature = "mpi")]
pub use comm::MpiComm;
pub use comm::{launched_by_mpi, launched_size, Comm, LocalComm, Ranks};

/// A fault to inject, for tests of crash recovery: `rank` aborts the
/// process halfway through solving `tier`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fault {
    /// The rank that dies.
    pub rank: u32,
    /// The tier it dies in.
    pub tier: Tier,
}

/// What to build and how (the game and the stores are [`build`]'s).
pub struct Options<'a> {
    /// The database to write: the file itself with one rank, else the
    /// parts beside it ([`grundy_db::part_path`]).
    pub out: PathBuf,
    /// How values of other ranks' positions are obtained.
    pub exchange: Exchange,
    /// Bytes of replicas a rank may hold (default: half the node's
    /// available memory, shared by the node's ranks).
    pub memory: Option<u64>,
    /// Stop (keeping the stored tiers) after this much time. With more
    /// than one rank, a [`watchdog::Watchdog`] also ends the process (exit
    /// 3) when a rank stops answering and the build has not returned by
    /// this plus [`watchdog::grace`].
    pub max_time: Option<Duration>,
    /// Called with the watchdog's message instead of ending the process
    /// ([`watchdog::give_up`]) when it fires (tests).
    pub on_stall: Option<&'a (dyn Fn(&str) + Sync)>,
    /// Set to stop at the next round (Ctrl-C).
    pub cancel: Option<&'a AtomicBool>,
    /// Identifies the binary (e.g. a checksum of the executable): ranks
    /// running different binaries refuse to start.
    pub binary: u64,
    /// Positions a rank values per round.
    pub batch: usize,
    /// The most bytes an exchange round moves per destination.
    pub round_bytes: usize,
    /// Called on rank 0 with one line per tier and notes.
    pub log: Option<&'a (dyn Fn(&str) + Sync)>,
    /// A fault to inject (tests).
    pub fault: Option<Fault>,
    /// Positions whose values the report gives (e.g. full boards), asked of
    /// their owners once the build is done.
    pub report_keys: Vec<u64>,
}

impl<'a> Options<'a> {
    /// Defaults for an output path.
    #[must_use]
    pub fn new(out: PathBuf) -> Options<'a> {
        Options {
            out,
            exchange: Exchange::Auto,
            memory: None,
            max_time: None,
            on_stall: None,
            cancel: None,
            binary: 0,
            batch: 1 << 14,
            round_bytes: 64 << 20,
            log: None,
            fault: None,
            report_keys: Vec::new(),
        }
    }

    /// The options every rank must share, as text: as a command line would
    /// give them (`--memory` in bytes, `--max-time` in seconds; an option
    /// not given is left out).
    fn shared(&self, game: &impl TierGame) -> String {
        let mut text = format!(
            "--game {} --out {} --exchange {}",
            game.id(),
            self.out.display(),
            self.exchange
        );
        if let Some(memory) = self.memory {
            text.push_str(&format!(" --memory {memory}"));
        }
        if let Some(max_time) = self.max_time {
            text.push_str(&format!(" --max-time {}", max_time.as_secs_f64()));
        }
        text
    }
}

/// A rank's store in a partitioned build: the engine's [`TierStore`], plus
/// what the ranks agree on around the build.
pub trait PartStore: TierStore {
    /// Whether `error` is a full disk ([`DistError::NoSpace`]).
    fn is_no_space(error: &Self::Error) -> bool {
        let _ = error;
        false
    }

    /// What the store did that the user should hear of.
    fn note(&self) -> Option<String> {
        None
    }

    /// Completes the store once every tier is in, not yet in place (for
    /// files: the header marked complete and synced, under the partial
    /// name). Every rank completes its part before any publishes it, so
    /// that a rank that cannot leaves the parts of an earlier build whole.
    ///
    /// # Errors
    ///
    /// The store's.
    fn complete(&mut self) -> Result<(), Self::Error>;

    /// Puts the completed store in place (for files: the rename).
    ///
    /// # Errors
    ///
    /// The store's.
    fn publish(self) -> Result<(), Self::Error>;
}

impl PartStore for grundy_db::FileStore {
    fn is_no_space(error: &grundy_db::DbError) -> bool {
        matches!(error, grundy_db::DbError::NoSpace { .. })
    }

    fn note(&self) -> Option<String> {
        self.writer().note().map(str::to_owned)
    }

    fn complete(&mut self) -> Result<(), grundy_db::DbError> {
        grundy_db::FileStore::complete(self)
    }

    fn publish(self) -> Result<(), grundy_db::DbError> {
        grundy_db::FileStore::publish(self).map(|_| ())
    }
}

/// In-memory parts (tests, and games with no file format).
impl PartStore for grundy::tier::MemoryStore {
    fn complete(&mut self) -> Result<(), std::convert::Infallible> {
        Ok(())
    }

    fn publish(self) -> Result<(), std::convert::Infallible> {
        Ok(())
    }
}

/// A finished build.
#[derive(Clone, Debug)]
pub struct Report {
    /// Ranks.
    pub ranks: u32,
    /// Tiers found stored at the start (a resumed build).
    pub resumed: usize,
    /// The tiers built now.
    pub tiers: Vec<TierReport>,
    /// The values of [`Options::report_keys`], in order (`None`: no tier
    /// holds the key).
    pub values: Vec<Option<u32>>,
    /// Per rank: positions owned.
    pub own_shapes: Vec<u64>,
    /// Per rank: bytes sent to other ranks.
    pub sent: Vec<u64>,
    /// Per rank: peak resident memory (bytes; 0 where unknown).
    pub peak_rss: Vec<u64>,
    /// Per rank: bytes of replicated tiers held at the end.
    pub replica_bytes: Vec<u64>,
    /// Wall time of the build.
    pub seconds: f64,
    /// The files written (one, or one per rank).
    pub files: Vec<PathBuf>,
}

/// Why a build stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DistError {
    /// The ranks run different binaries or were given different options.
    #[error("{0}")]
    Mismatch(String),
    /// A rank cannot open or set up its store (an unwritable path, a
    /// partial file of another box or partitioning): bad input.
    #[error("rank {rank}: {message}")]
    Setup {
        /// The first rank that failed.
        rank: u32,
        /// What it said.
        message: String,
    },
    /// A rank failed.
    #[error("rank {rank}: {message}")]
    Rank {
        /// The first rank that failed.
        rank: u32,
        /// What it said.
        message: String,
    },
    /// A rank's disk is full ([`grundy_db::DbError::NoSpace`]): the parts
    /// keep the tiers stored so far.
    #[error("rank {rank}: {message}")]
    NoSpace {
        /// The first rank that failed.
        rank: u32,
        /// What it said (the file and the bytes it needed).
        message: String,
    },
    /// A budget ran out or the build was cancelled; the parts keep the
    /// tiers stored so far.
    #[error("{reason}; every part keeps {}: run the same command again to resume", grundy_db::store::kept_tiers(*kept))]
    Stopped {
        /// Why.
        reason: TierError,
        /// Tiers stored.
        kept: usize,
    },
}

/// Marks a rank's message as a full disk, for [`DistError::NoSpace`].
const NO_SPACE: &str = "\u{1}nospace:";

/// A store error as a rank's message (ranks agree on strings).
fn store_message<S: PartStore>(e: &S::Error) -> String {
    if S::is_no_space(e) {
        format!("{NO_SPACE}{e}")
    } else {
        e.to_string()
    }
}

/// [`store_message`] as a [`Tagged`] store's error.
fn tagged<S: PartStore>(e: S::Error) -> TaggedError {
    TaggedError(store_message::<S>(&e))
}

/// A rank's store, its errors tagged for the other ranks: a full disk on
/// one rank is [`DistError::NoSpace`] on every rank.
struct Tagged<S>(S);

/// A store error, displayed with its tag.
#[derive(Debug)]
struct TaggedError(String);

impl std::fmt::Display for TaggedError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl<S: PartStore> TierStore for Tagged<S> {
    type Error = TaggedError;
    type Values = S::Values;

    fn stored(&self) -> usize {
        self.0.stored()
    }

    fn build_id(&self) -> u64 {
        self.0.build_id()
    }

    fn resume(&mut self, tiers: usize, build_id: u64) -> Result<Vec<S::Values>, TaggedError> {
        self.0.resume(tiers, build_id).map_err(tagged::<S>)
    }

    fn write(
        &mut self,
        tier: Tier,
        table: &TierTable,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<(), TaggedError> {
        self.0.write(tier, table, stop).map_err(tagged::<S>)
    }

    fn seal(&mut self, tier: Tier, table: TierTable) -> Result<S::Values, TaggedError> {
        self.0.seal(tier, table).map_err(tagged::<S>)
    }

    fn solved_prefix(&mut self, tier: Tier, table: &mut TierTable) -> Result<usize, TaggedError> {
        self.0.solved_prefix(tier, table).map_err(tagged::<S>)
    }

    fn keep_solved(
        &mut self,
        tier: Tier,
        table: &TierTable,
        solved: std::ops::Range<usize>,
    ) -> Result<(), TaggedError> {
        self.0.keep_solved(tier, table, solved).map_err(tagged::<S>)
    }

    fn regenerated(
        &mut self,
        tier: Tier,
        view: &mut S::Values,
        keys: &[u64],
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<(), TaggedError> {
        self.0
            .regenerated(tier, view, keys, stop)
            .map_err(tagged::<S>)
    }
}

/// The ranks of a [`Comm`] as the engine's [`Distribution`].
impl<C: Comm> Distribution for Ranks<'_, C> {
    fn part(&self) -> u32 {
        self.rank()
    }

    fn parts(&self) -> u32 {
        self.size()
    }

    fn all_gather(&self, x: u64) -> Vec<u64> {
        self.all_gather_u64(x)
    }

    fn agree(&self, stopped: Option<&PartStop>) -> Option<(u32, PartStop)> {
        let local = stopped.map_or(Ok(()), |s| Err(s.to_bytes()));
        Ranks::agree_bytes(self, local)
            .err()
            .map(|(rank, bytes)| (rank, PartStop::from_bytes(&bytes)))
    }

    fn exchange_words(&self, send: &[Vec<u64>]) -> Vec<Vec<u64>> {
        self.exchange_pod(send)
    }

    fn exchange_values(&self, send: &[Vec<u16>]) -> Vec<Vec<u16>> {
        self.exchange_pod(send)
    }

    fn sent(&self) -> u64 {
        Ranks::sent(self)
    }
}

/// Available memory of the node, from `/proc/meminfo` (bytes).
fn mem_available() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Peak resident memory of this process (bytes): the databases' own
/// measure, so that a distributed build reports what a single one does.
pub use grundy_db::meta::peak_rss;

fn rank_error((rank, message): (u32, String)) -> DistError {
    match message.strip_prefix(NO_SPACE) {
        Some(message) => DistError::NoSpace {
            rank,
            message: message.to_owned(),
        },
        None => DistError::Rank { rank, message },
    }
}

fn setup_error((rank, message): (u32, String)) -> DistError {
    if message.starts_with(NO_SPACE) {
        return rank_error((rank, message));
    }
    DistError::Setup { rank, message }
}

/// The shape databases' part store: `opts.out` itself with one rank, else
/// part `rank` beside it.
///
/// # Errors
///
/// As [`grundy_db::FileStore::open`].
pub fn open_part_file(
    out: &std::path::Path,
    shape_box: grundy::clear::shapes::ShapeBox,
    rank: u32,
    ranks: u32,
) -> Result<grundy_db::FileStore, grundy_db::DbError> {
    if ranks > 1 {
        let part = Part {
            index: rank,
            parts: ranks,
            build_id: 0,
        };
        grundy_db::FileStore::open(
            &grundy_db::part_path(out, rank, ranks),
            shape_box,
            Some(part),
        )
    } else {
        grundy_db::FileStore::open_compact(out, shape_box)
    }
}

/// Builds (or resumes) every tier of `game` over the ranks of `comm`, into
/// the store `open(rank, ranks)` gives each rank. Every rank calls it with
/// its own options; they must agree.
///
/// # Errors
///
/// [`DistError::Mismatch`] when ranks run different binaries or options,
/// [`DistError::Stopped`] on a budget or cancellation (the parts keep the
/// stored tiers), [`DistError::Setup`] when a rank cannot open its store,
/// [`DistError::NoSpace`] for a full disk, [`DistError::Rank`] for any
/// other rank's failure.
///
/// With a time budget and more than one rank, the build runs under a
/// [`watchdog::Watchdog`]: when it has not returned by the budget plus
/// [`watchdog::grace`] (a rank stopped answering, and this one waits for
/// it in an exchange), the process ends with exit 3, or
/// [`Options::on_stall`] is called.
pub fn build<G, C, S, O>(
    game: &G,
    comm: &C,
    opts: &Options<'_>,
    open: O,
) -> Result<Report, DistError>
where
    G: TierGame,
    C: Comm,
    S: PartStore,
    O: FnOnce(u32, u32) -> Result<S, S::Error>,
{
    // One rank waits for nobody: its budget is checked as a single
    // build's.
    let deadline = opts
        .max_time
        .filter(|_| comm.size() > 1)
        .map(|budget| budget + watchdog::grace(budget));
    build_watched(comm.rank(), opts, deadline, || {
        build_ranks(game, comm, opts, open)
    })
}

/// Runs `run`, rank `rank`'s part of a [`build`], under a watchdog that
/// fires `deadline` after the start, if any.
fn build_watched<R>(
    rank: u32,
    opts: &Options<'_>,
    deadline: Option<Duration>,
    run: impl FnOnce() -> R,
) -> R {
    let Some(deadline) = deadline else {
        return run();
    };
    let message = watchdog::message(rank, opts.max_time.unwrap_or_default());
    let on_stall = opts.on_stall;
    std::thread::scope(|scope| {
        let _watchdog = watchdog::Watchdog::start(scope, deadline, || match on_stall {
            Some(on_stall) => on_stall(&message),
            None => watchdog::give_up(&message),
        });
        run()
    })
}

/// [`build`] without its watchdog.
fn build_ranks<G, C, S, O>(
    game: &G,
    comm: &C,
    opts: &Options<'_>,
    open: O,
) -> Result<Report, DistError>
where
    G: TierGame,
    C: Comm,
    S: PartStore,
    O: FnOnce(u32, u32) -> Result<S, S::Error>,
{
    let started = Instant::now();
    let ranks = Ranks::new(comm, opts.round_bytes);
    let (me, parts) = (comm.rank(), comm.size());

    // Same binary and options everywhere, or nobody starts.
    let identity = format!("{:016x} {}", opts.binary, opts.shared(game));
    let all = ranks.all_gather_bytes(identity.as_bytes());
    let mut problems = Vec::new();
    for (r, theirs) in all.iter().enumerate().skip(1) {
        let (their_binary, their_opts) = identity_of(theirs);
        let (first_binary, first_opts) = identity_of(&all[0]);
        if their_binary != first_binary {
            problems.push(format!(
                "rank {r} runs another grundy binary than rank 0 (fingerprint {their_binary} against {first_binary})"
            ));
        } else if their_opts != first_opts {
            problems.push(format!(
                "rank {r} was given other options than rank 0 ({their_opts} against {first_opts})"
            ));
        }
    }
    if !problems.is_empty() {
        return Err(DistError::Mismatch(format!(
            "the ranks do not agree: {}",
            problems.join("; ")
        )));
    }

    let opened = open(me, parts).map_err(|e| store_message::<S>(&e));
    let store = ranks.agree(opened).map_err(setup_error)?;
    let log = |line: &str| {
        if me == 0 {
            if let Some(log) = opts.log {
                log(line);
            }
        }
    };
    if let (Some(note), Some(log)) = (store.note(), opts.log) {
        log(&format!("rank {me}: {note}"));
    }
    // Every rank gathers, so rank 0 can say why the build starts afresh.
    let stored = ranks.all_gather_u64(store.stored() as u64);
    let ids = ranks.all_gather_u64(store.build_id());
    if let Some(line) = afresh_note(&stored, &ids) {
        log(&line);
    }
    let mut store = Tagged(store);

    let budget = opts.memory.unwrap_or_else(|| {
        mem_available().unwrap_or(4 << 30) / 2 / u64::from(comm.node_ranks().max(1))
    });
    let fault = opts.fault;
    let on_round = move |tier: Tier, round: usize, rounds: usize| {
        if let Some(fault) = fault {
            if fault.rank == me && fault.tier == tier && round == rounds / 2 {
                std::process::abort();
            }
        }
    };
    let config = BuildConfig {
        exchange: opts.exchange,
        replica_budget: ranks.min(budget),
        batch: opts.batch,
        build_id: fresh_id(),
        on_round: Some(&on_round),
        ..BuildConfig::default()
    };
    let tier_count = game.tier_count();
    let kept = std::sync::atomic::AtomicUsize::new(0);
    let progress = |p: TierProgress| match p {
        TierProgress::Resuming { stored } => {
            kept.store(stored, Ordering::Relaxed);
            log(&format!(
                "resuming from tier {} of {tier_count} ({})",
                stored + 1,
                count(u64::from(parts), "rank")
            ));
        }
        TierProgress::Stored(t) => {
            kept.fetch_add(1, Ordering::Relaxed);
            log(&tier_line(&t));
        }
        _ => {}
    };
    let mut control = TierControl::new();
    control.max_time = opts.max_time;
    control.cancel = opts.cancel;
    control.progress = Some(&progress);
    let built = match build_tiers(game, &mut store, &ranks, &config, &control) {
        Ok(built) => built,
        Err(BuildError::Tier(reason @ (TierError::TimeBudget { .. } | TierError::Cancelled))) => {
            return Err(DistError::Stopped {
                reason,
                kept: kept.load(Ordering::Relaxed),
            })
        }
        Err(BuildError::Tier(e)) => {
            return Err(DistError::Rank {
                rank: me,
                message: e.to_string(),
            })
        }
        Err(BuildError::Store(TaggedError(message))) => return Err(rank_error((me, message))),
        Err(BuildError::Part { part, message }) => return Err(rank_error((part, message))),
    };
    let completed = store.0.complete().map_err(|e| store_message::<S>(&e));
    ranks.agree(completed).map_err(rank_error)?;
    let published = store.0.publish().map_err(|e| store_message::<S>(&e));
    ranks.agree(published).map_err(rank_error)?;

    // The values asked for: each rank answers for the keys it owns.
    let mut found = Vec::new();
    for (i, &key) in opts.report_keys.iter().enumerate() {
        if owner(key, parts) == me {
            let value = built
                .own
                .get(game.tier_of(key).index())
                .and_then(|t| t.value(key));
            if let Some(v) = value {
                found.extend_from_slice(&(i as u64).to_le_bytes());
                found.extend_from_slice(&u64::from(v).to_le_bytes());
            }
        }
    }
    let mut values = vec![None; opts.report_keys.len()];
    for bytes in ranks.all_gather_bytes(&found) {
        for c in bytes.chunks_exact(16) {
            let i = u64::from_le_bytes(c[..8].try_into().expect("8 bytes")) as usize;
            let v = u64::from_le_bytes(c[8..].try_into().expect("8 bytes")) as u32;
            values[i] = Some(v);
        }
    }

    let own_shapes = ranks.all_gather_u64(built.own.iter().map(TierValues::positions).sum());
    let replica_bytes = ranks.all_gather_u64(built.replica_bytes);
    let sent = ranks.all_gather_u64(ranks.sent());
    let peak_rss = ranks.all_gather_u64(peak_rss().unwrap_or(0));
    let files = if parts == 1 {
        vec![opts.out.clone()]
    } else {
        (0..parts)
            .map(|r| grundy_db::part_path(&opts.out, r, parts))
            .collect()
    };
    Ok(Report {
        ranks: parts,
        resumed: built.resumed,
        tiers: built.tiers,
        values,
        own_shapes,
        sent,
        peak_rss,
        replica_bytes,
        seconds: started.elapsed().as_secs_f64(),
        files,
    })
}

/// Why a build over several parts starts afresh though some parts keep
/// tiers (`stored` and `ids`: each part's stored tiers and build id), as
/// the engine decides it ([`grundy::tier::build`] resumes from the tiers
/// every part keeps under part 0's build id), or `None` when it resumes or
/// nothing was kept.
fn afresh_note(stored: &[u64], ids: &[u64]) -> Option<String> {
    let parts = stored.len();
    if parts < 2 || stored.iter().all(|&s| s == 0) {
        return None;
    }
    let of = |r: usize| format!("part {r} of {parts}");
    let keeps = |r: usize| {
        format!(
            "{} keeps {}",
            of(r),
            grundy_db::store::kept_tiers(stored[r] as usize)
        )
    };
    let reason = if let Some(r) = stored.iter().position(|&s| s == 0) {
        let other = stored.iter().position(|&s| s > 0).expect("one keeps tiers");
        format!(
            "{} keeps no tier (its partial file is missing or empty) while {}",
            of(r),
            keeps(other)
        )
    } else {
        let r = (1..parts).find(|&r| ids[r] != ids[0])?;
        format!("{} is of another build than part 0", of(r))
    };
    Some(format!(
        "starting afresh from tier 1: {reason}, and a build resumes only from tiers every part keeps"
    ))
}

/// The log line of a stored tier.
fn tier_line(t: &TierReport) -> String {
    format!(
        "tier {:>2}: {:>12} {} in {:>8.2} s, {}{}, {} bytes exchanged",
        t.tier.number(),
        t.positions,
        if t.positions == 1 { "shape" } else { "shapes" },
        t.elapsed.as_secs_f64(),
        if t.queried {
            "solved with queries"
        } else {
            "solved from local tables"
        },
        if t.replicated { " and replicated" } else { "" },
        t.sent
    )
}

/// A rank's identity as gathered, `binary options`, split into the
/// binary's fingerprint and the options.
fn identity_of(bytes: &[u8]) -> (String, String) {
    let text = String::from_utf8_lossy(bytes);
    let (binary, opts) = text.split_once(' ').unwrap_or((&text, ""));
    (binary.to_owned(), opts.to_owned())
}

/// A build id: the time and the process id, mixed. Only rank 0's is used.
fn fresh_id() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let x =
        (nanos ^ u64::from(std::process::id()).rotate_left(32)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (x ^ (x >> 31)).max(1)
}

#[cfg(test)]
mod tests;
