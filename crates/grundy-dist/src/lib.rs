//! Shape databases built over several processes (MPI ranks): the tier
//! build of [`grundy::tier`], partitioned.
//!
//! **Partition.** A shape belongs to rank [`owner`]`(key, P)`, a hash of its
//! key. Each rank stores its shapes of every tier in its own part file
//! (`STEM.part-R-of-P.gdb`, see [`grundy_db::DbSet`]), so disk and memory
//! per rank are `1/P` of the database.
//!
//! **Algorithm, per tier.**
//! 1. *Generate.* Each rank grows the next tier from its own shapes of the
//!    previous one ([`generate_keys`]: reverse search, so every shape is
//!    generated exactly once over all ranks) and sends each key to its
//!    owner in one all-to-all exchange.
//! 2. *Solve.* A shape's value needs the values of the components its
//!    options leave, most owned by other ranks. Two ways, chosen per tier:
//!    - *replicated lower tiers*: while every earlier tier is replicated on
//!      every rank, the tier is solved locally ([`solve_slots`]);
//!    - *queries*: otherwise each round gathers the options of a batch of
//!      shapes ([`OptionBatch`]), asks each owner for the values it needs in
//!      one all-to-all exchange (keys sorted and de-duplicated), gets the
//!      values back in a second, and values the batch. Components in
//!      replicated tiers or owned by the rank itself are looked up locally.
//! 3. *Store.* Each rank appends its tier to its part file and syncs it,
//!    then, if the tier is to be replicated, all ranks gather it.
//!
//! [`Exchange::Auto`] replicates tiers while the replicas fit the memory
//! budget (half the node's available memory shared by its ranks, or
//! `--memory`), then switches to queries: the lower tiers, small and the
//! most asked for, stay local; the big top tiers are never copied.
//!
//! **Agreement.** Every step is collective. Errors, budgets and Ctrl-C are
//! agreed between rounds ([`Ranks::agree`]), so all ranks stop at the same
//! point with the same tiers stored, and a build resumes from the last tier
//! every part holds. Ranks check at start-up that they run the same binary
//! with the same options.
//!
//! **Why it is correct.** The tiers hold the same shapes as in the single
//! build (the same generation, split by owner), and each value is the same
//! mex over the same option values, read from the owner instead of a local
//! table. A tier's table is laid out by its keys alone, so the parts,
//! joined ([`TierTable::from_entries`]), give the single build's bytes; the
//! tests check that, shape by shape, at 1, 2 and 3 ranks.

#![deny(missing_docs)]

pub mod comm;

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use grundy::clear::shapes::{ClearShapes, ShapeBox};
use grundy::tier::{
    capacity_for, generate_keys, owner, solve_slots, OptionBatch, Tier, TierControl, TierError,
    TierGame, TierTable, VALUE_BITS,
};
use grundy::Nimber;
use grundy_db::{part_path, Part, Writer};
use rayon::prelude::*;

#[cfg(feature = "mpi")]
pub use comm::MpiComm;
pub use comm::{launched_by_mpi, Comm, LocalComm, Ranks};

/// How ranks get the values of shapes other ranks own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exchange {
    /// Replicate lower tiers while they fit the memory budget, then query.
    Auto,
    /// Replicate every tier on every rank.
    Replicate,
    /// Replicate nothing: ask the owners.
    Query,
}

impl std::fmt::Display for Exchange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Exchange::Auto => "auto",
            Exchange::Replicate => "replicate",
            Exchange::Query => "query",
        })
    }
}

/// A fault to inject, for tests of crash recovery: `rank` aborts the
/// process halfway through solving `tier`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fault {
    /// The rank that dies.
    pub rank: u32,
    /// The tier it dies in.
    pub tier: Tier,
}

/// What to build and how.
pub struct Options<'a> {
    /// The box.
    pub shape_box: ShapeBox,
    /// The database to write: the file itself with one rank, else the
    /// parts beside it ([`part_path`]).
    pub out: PathBuf,
    /// How values of other ranks' shapes are obtained.
    pub exchange: Exchange,
    /// Bytes of replicas a rank may hold (default: half the node's
    /// available memory, shared by the node's ranks).
    pub memory: Option<u64>,
    /// Stop (keeping the stored tiers) after this much time.
    pub max_time: Option<Duration>,
    /// Set to stop at the next round (Ctrl-C).
    pub cancel: Option<&'a AtomicBool>,
    /// Identifies the binary (e.g. a checksum of the executable): ranks
    /// running different binaries refuse to start.
    pub binary: u64,
    /// Shapes a rank values per round.
    pub batch: usize,
    /// The most bytes an exchange round moves per destination.
    pub round_bytes: usize,
    /// Called on rank 0 with one line per tier and notes.
    pub log: Option<&'a (dyn Fn(&str) + Sync)>,
    /// A fault to inject (tests).
    pub fault: Option<Fault>,
}

impl<'a> Options<'a> {
    /// Defaults for a box and an output path.
    #[must_use]
    pub fn new(shape_box: ShapeBox, out: PathBuf) -> Options<'a> {
        Options {
            shape_box,
            out,
            exchange: Exchange::Auto,
            memory: None,
            max_time: None,
            cancel: None,
            binary: 0,
            batch: 1 << 14,
            round_bytes: 64 << 20,
            log: None,
            fault: None,
        }
    }

    /// The options every rank must share, as text.
    fn shared(&self) -> String {
        format!(
            "--box {} --out {} --exchange {} --memory {:?} --max-time {:?}",
            self.shape_box,
            self.out.display(),
            self.exchange,
            self.memory,
            self.max_time
        )
    }
}

/// How a tier was solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Every earlier tier was in local memory.
    Local,
    /// Values of other ranks' shapes were asked for.
    Queried,
}

/// One tier of a build, as every rank saw it.
#[derive(Clone, Debug)]
pub struct TierReport {
    /// The tier.
    pub tier: Tier,
    /// Shapes of the tier, over all ranks.
    pub positions: u64,
    /// Shapes of the tier this rank owns.
    pub own: u64,
    /// How it was solved.
    pub mode: Mode,
    /// Whether it was then replicated on every rank.
    pub replicated: bool,
    /// Wall time of the tier.
    pub seconds: f64,
    /// Bytes every rank sent to others for this tier, summed.
    pub sent: u64,
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
    /// Value of every full board of the box, `(rows, cols, value)`.
    pub full_boards: Vec<(usize, usize, Nimber)>,
    /// Per rank: shapes owned.
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
    /// A rank cannot open or set up its part file (an unwritable path, a
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
    #[error("{reason}; every part keeps tiers 1 to {kept}: run the same command again to resume")]
    Stopped {
        /// Why.
        reason: TierError,
        /// Tiers stored.
        kept: usize,
    },
}

const STOP_TIME: &str = "\u{1}stop:time";
const STOP_CANCEL: &str = "\u{1}stop:cancel";
/// Marks a rank's message as a full disk, for [`DistError::NoSpace`].
const NO_SPACE: &str = "\u{1}nospace:";

/// A database error as a rank's message (ranks agree on strings).
fn db_message(e: &grundy_db::DbError) -> String {
    match e {
        grundy_db::DbError::NoSpace { .. } => format!("{NO_SPACE}{e}"),
        _ => e.to_string(),
    }
}

struct Build<'r, 'c, 'o, C: Comm> {
    ranks: &'r Ranks<'c, C>,
    opts: &'o Options<'o>,
    game: ClearShapes,
    started: Instant,
    me: u32,
    parts: u32,
    /// This rank's tables, tier `t` at `t - 1`.
    own: Vec<TierTable>,
    /// Replicated tables, tier `t` at `t` (a prefix of the tiers).
    replicas: Vec<Option<TierTable>>,
    replicate_more: bool,
    budget: u64,
}

/// Bytes of a table of `positions` shapes.
fn table_bytes(positions: u64) -> u64 {
    capacity_for(positions)
        .map_or(u64::MAX, |c| c.saturating_add(2))
        .saturating_mul(8)
}

/// The tables a rank holds, shared by its worker threads.
#[derive(Clone, Copy)]
struct View<'a> {
    own: &'a [TierTable],
    replicas: &'a [Option<TierTable>],
    parts: u32,
}

impl<'a> View<'a> {
    /// The table of tier `t` with every shape, when this rank holds one.
    fn full(self, t: usize) -> Option<&'a TierTable> {
        if self.parts == 1 {
            self.own.get(t.wrapping_sub(1))
        } else {
            self.replicas.get(t).and_then(Option::as_ref)
        }
    }

    /// This rank's table of tier `t`.
    fn own(self, t: usize) -> Option<&'a TierTable> {
        self.own.get(t.wrapping_sub(1))
    }
}

impl<C: Comm> Build<'_, '_, '_, C> {
    /// Agrees on the outcome of a step, and on stopping: an error on any
    /// rank, or a budget or cancellation seen by any, stops all.
    fn checkpoint(&self, local: Result<(), String>) -> Result<(), DistError> {
        let local = local.and_then(|()| {
            if self.opts.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
                Err(STOP_CANCEL.to_owned())
            } else if self
                .opts
                .max_time
                .is_some_and(|limit| self.started.elapsed() > limit)
            {
                Err(STOP_TIME.to_owned())
            } else {
                Ok(())
            }
        });
        self.ranks.agree(local).map_err(|(rank, message)| {
            let reason = match message.as_str() {
                STOP_TIME => TierError::TimeBudget {
                    limit: self.opts.max_time.unwrap_or_default(),
                },
                STOP_CANCEL => TierError::Cancelled,
                _ => return DistError::Rank { rank, message },
            };
            DistError::Stopped {
                reason,
                kept: self.own.len(),
            }
        })
    }

    fn log(&self, line: &str) {
        if self.me == 0 {
            if let Some(log) = self.opts.log {
                log(line);
            }
        }
    }

    fn view(&self) -> View<'_> {
        View {
            own: &self.own,
            replicas: &self.replicas,
            parts: self.parts,
        }
    }

    /// The table of tier `t` with every shape, when this rank holds one.
    fn full(&self, t: usize) -> Option<&TierTable> {
        self.view().full(t)
    }

    fn replica_bytes(&self) -> u64 {
        self.replicas
            .iter()
            .flatten()
            .map(|t| t.slots().len() as u64 * 8)
            .sum()
    }

    /// Whether to replicate tier `t` of `positions` shapes: agreed by all.
    fn should_replicate(&self, positions: u64) -> bool {
        if self.parts == 1 || !self.replicate_more {
            return false;
        }
        match self.opts.exchange {
            Exchange::Replicate => true,
            Exchange::Query => false,
            Exchange::Auto => {
                let need = self.replica_bytes() + table_bytes(positions);
                self.ranks.min(u64::from(need <= self.budget)) == 1
            }
        }
    }

    /// Gathers this rank's shapes of tier `t` on every rank.
    fn replicate(&mut self, t: usize) -> Result<(), DistError> {
        let mine: Vec<u64> = self.own[t - 1]
            .slots()
            .iter()
            .copied()
            .filter(|&s| s != 0)
            .collect();
        let send = vec![mine; self.parts as usize];
        let all = self.ranks.exchange_pod(&send).concat();
        let table = TierTable::from_entries(all).map_err(|e| e.to_string());
        let table = self
            .ranks
            .agree(table)
            .map_err(|(rank, message)| DistError::Rank { rank, message })?;
        if self.replicas.len() <= t {
            self.replicas.resize_with(t + 1, || None);
        }
        self.replicas[t] = Some(table);
        Ok(())
    }

    /// Generates this rank's shapes of tier `t`.
    fn generate(&self, t: usize) -> Result<TierTable, DistError> {
        let quiet = TierControl::new();
        let keys = if t == 1 {
            // Tier 1 grows from nothing, the same on every rank: rank 0's.
            if self.me == 0 {
                generate_keys::<_, Vec<u64>>(&self.game, 1, None, &quiet)
            } else {
                Ok(Vec::new())
            }
        } else {
            generate_keys(&self.game, t as Tier, Some(&self.own[t - 2]), &quiet)
        };
        let keys = self.ranks.agree(keys.map_err(|e| e.to_string()));
        let keys = keys.map_err(|(rank, message)| DistError::Rank { rank, message })?;
        let mut send = vec![Vec::new(); self.parts as usize];
        for key in keys {
            send[owner(key, self.parts) as usize].push(key);
        }
        let mine = self.ranks.exchange_pod(&send).concat();
        let table = TierTable::from_keys(mine).map_err(|e| e.to_string());
        self.ranks
            .agree(table)
            .map_err(|(rank, message)| DistError::Rank { rank, message })
    }

    /// One round of a queried tier: the shapes in `range` of `table`.
    fn query_round(
        &self,
        t: usize,
        table: &mut TierTable,
        range: std::ops::Range<usize>,
    ) -> Result<(), String> {
        let tier = t as Tier;
        let (game, view, me) = (self.game, self.view(), self.me);
        let positions: Vec<u64> = table.positions_in(range.clone()).collect();
        let batches: Vec<OptionBatch> = positions
            .par_chunks(256)
            .map(|chunk| {
                let mut batch = OptionBatch::new();
                for &p in chunk {
                    batch.push(&game, p);
                }
                batch
            })
            .collect();
        let parts = self.parts;
        let mut requests = vec![Vec::new(); parts as usize];
        for batch in &batches {
            for &key in batch.keys() {
                let kt = game.tier_of(key) as usize;
                if view.full(kt).is_some() {
                    continue;
                }
                let o = owner(key, parts);
                if o != me {
                    requests[o as usize].push(key);
                }
            }
        }
        requests.par_iter_mut().for_each(|r| {
            r.sort_unstable();
            r.dedup();
        });
        let asked = self.ranks.exchange_pod(&requests);
        let answers: Vec<Vec<u16>> = asked
            .par_iter()
            .map(|keys| {
                keys.iter()
                    .map(|&k| {
                        view.own(game.tier_of(k) as usize)
                            .and_then(|table| table.get(k))
                            .map_or(u16::MAX, |v| v.value() as u16)
                    })
                    .collect()
            })
            .collect();
        let replies = self.ranks.exchange_pod(&answers);
        // The answers as one static hash table for the round: a lookup is a
        // cache line or two, where a binary search of the sorted requests
        // cost a chain of dependent misses (3x slower tiers, measured).
        let answered: Vec<u64> = requests
            .iter()
            .zip(&replies)
            .flat_map(|(keys, values)| keys.iter().zip(values))
            .filter(|&(_, &v)| v != u16::MAX)
            .map(|(&k, &v)| k << VALUE_BITS | u64::from(v))
            .collect();
        let answered = TierTable::from_entries(answered).map_err(|e| e.to_string())?;
        let answered = &answered;
        let lookup = |key: u64| -> Option<u32> {
            let kt = game.tier_of(key) as usize;
            if let Some(full) = view.full(kt) {
                return full.get(key).map(Nimber::value);
            }
            let o = owner(key, parts) as usize;
            if o == me as usize {
                return view.own(kt)?.get(key).map(Nimber::value);
            }
            answered.get(key).map(Nimber::value)
        };
        let values: Result<Vec<Vec<u32>>, TierError> =
            batches.par_iter().map(|b| b.values(tier, lookup)).collect();
        let values = values.map_err(|e| e.to_string())?.concat();
        table
            .set_values(tier, range, &values)
            .map_err(|e| e.to_string())
    }

    fn solve(&self, t: usize, table: &mut TierTable) -> Result<Mode, DistError> {
        let local = (1..t).all(|e| self.full(e).is_some());
        let mode = if local { Mode::Local } else { Mode::Queried };
        let chunk = (self.opts.batch.max(1) * 4).div_ceil(3) + 1;
        let len = table.slots().len();
        let rounds = self.ranks.max(len.div_ceil(chunk) as u64) as usize;
        let earlier: Vec<Option<&TierTable>> = (0..t).map(|e| self.full(e)).collect();
        let quiet = TierControl::new();
        for round in 0..rounds {
            if let Some(fault) = self.opts.fault {
                if fault.rank == self.me && fault.tier as usize == t && round == rounds / 2 {
                    std::process::abort();
                }
            }
            let range = (round * chunk).min(len)..((round + 1) * chunk).min(len);
            let outcome = if local {
                solve_slots(&self.game, t as Tier, table, range, &earlier, &quiet)
                    .map_err(|e| e.to_string())
            } else {
                self.query_round(t, table, range)
            };
            self.checkpoint(outcome)?;
        }
        Ok(mode)
    }
}

/// Available memory of the node, from `/proc/meminfo` (bytes).
fn mem_available() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Peak resident memory of this process, from `/proc/self/status` (bytes).
#[must_use]
pub fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

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

/// Builds (or resumes) the database of `opts.shape_box` over the ranks of
/// `comm`. Every rank calls it with its own options; they must agree.
///
/// # Errors
///
/// [`DistError::Mismatch`] when ranks run different binaries or options,
/// [`DistError::Stopped`] on a budget or cancellation (the parts keep the
/// stored tiers), [`DistError::Setup`] when a rank cannot open its part,
/// [`DistError::Rank`] for any other rank's failure (I/O, a corrupt
/// partial file).
pub fn build<C: Comm>(comm: &C, opts: &Options<'_>) -> Result<Report, DistError> {
    let started = Instant::now();
    let ranks = Ranks::new(comm, opts.round_bytes);
    let (me, parts) = (comm.rank(), comm.size());

    // Same binary and options everywhere, or nobody starts.
    let identity = format!("{:016x} {}", opts.binary, opts.shared());
    let all = ranks.all_gather_bytes(identity.as_bytes());
    let mut problems = Vec::new();
    for (r, theirs) in all.iter().enumerate().skip(1) {
        let theirs = String::from_utf8_lossy(theirs);
        let (their_binary, their_opts) = theirs.split_once(' ').unwrap_or((&theirs, ""));
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

    let part = (parts > 1).then_some(Part {
        index: me,
        parts,
        build_id: 0,
    });
    let file = if parts > 1 {
        part_path(&opts.out, me, parts)
    } else {
        opts.out.clone()
    };
    let opened =
        Writer::create_or_resume_part(&file, opts.shape_box, part).map_err(|e| db_message(&e));
    let (mut writer, mut own) = ranks.agree(opened).map_err(setup_error)?;
    if let (Some(note), Some(log)) = (writer.note(), opts.log) {
        log(&format!("rank {me}: {note}"));
    }

    // Resume from the tiers every part holds, under one build id.
    let fresh = fresh_id();
    let stored_id = writer.header().part.map_or(0, |p| p.build_id);
    let leader_id = ranks.broadcast_u64(if own.is_empty() { fresh } else { stored_id });
    let mine = if parts == 1 || stored_id == leader_id {
        own.len() as u64
    } else {
        0
    };
    let resumed = ranks.min(mine) as usize;
    let build_id = if resumed == 0 {
        ranks.broadcast_u64(fresh)
    } else {
        leader_id
    };
    own.truncate(resumed);
    let restarted = writer
        .restart(resumed, build_id)
        .map_err(|e| db_message(&e));
    ranks.agree(restarted).map_err(setup_error)?;

    let budget = opts.memory.unwrap_or_else(|| {
        mem_available().unwrap_or(4 << 30) / 2 / u64::from(comm.node_ranks().max(1))
    });
    let mut b = Build {
        ranks: &ranks,
        opts,
        game: ClearShapes::new(opts.shape_box),
        started,
        me,
        parts,
        own,
        replicas: Vec::new(),
        replicate_more: true,
        budget: ranks.min(budget),
    };
    if resumed > 0 {
        b.log(&format!(
            "resuming from tier {} of {} ({parts} ranks)",
            resumed + 1,
            opts.shape_box.cells()
        ));
        for t in 1..=resumed {
            let positions = ranks.sum(b.own[t - 1].positions());
            if b.should_replicate(positions) {
                b.replicate(t)?;
            } else {
                b.replicate_more = false;
            }
        }
    }

    let mut reports = Vec::new();
    for t in resumed + 1..=opts.shape_box.cells() {
        b.checkpoint(Ok(()))?;
        let tier_started = Instant::now();
        let sent_before = ranks.sent();
        let mut table = b.generate(t)?;
        let positions = ranks.sum(table.positions());
        let mode = b.solve(t, &mut table)?;
        let appended = writer.append(&table).map_err(|e| db_message(&e));
        ranks.agree(appended).map_err(rank_error)?;
        let own_positions = table.positions();
        b.own.push(table);
        let replicated = b.should_replicate(positions);
        if replicated {
            b.replicate(t)?;
        } else {
            b.replicate_more = false;
        }
        let sent = ranks.sum(ranks.sent() - sent_before);
        let seconds = tier_started.elapsed().as_secs_f64();
        b.log(&format!(
            "tier {t:>2}: {positions:>12} shapes in {seconds:>8.2} s, {} {}, {sent} bytes exchanged",
            match mode {
                Mode::Local => "solved from local tables",
                Mode::Queried => "solved with queries",
            },
            if replicated { "and replicated" } else { "" }
        ));
        reports.push(TierReport {
            tier: t as Tier,
            positions,
            own: own_positions,
            mode,
            replicated,
            seconds,
            sent,
        });
    }
    let finished = writer.finish().map(|_| ()).map_err(|e| db_message(&e));
    ranks.agree(finished).map_err(rank_error)?;

    // Full boards: each rank answers for the ones it owns.
    let boards: Vec<(usize, usize)> = (1..=opts.shape_box.rows())
        .flat_map(|a| (a..=opts.shape_box.cols()).map(move |c| (a, c)))
        .filter(|&(a, c)| opts.shape_box.fits(a, c))
        .collect();
    let mut found = Vec::new();
    for (i, &(a, c)) in boards.iter().enumerate() {
        let Some(key) = opts.shape_box.full_key(a, c) else {
            continue;
        };
        if owner(key, parts) == me {
            if let Some(v) = b.own[key.count_ones() as usize - 1].get(key) {
                found.extend_from_slice(&(i as u64).to_le_bytes());
                found.extend_from_slice(&u64::from(v.value()).to_le_bytes());
            }
        }
    }
    let mut full_boards: Vec<(usize, usize, Nimber)> = ranks
        .all_gather_bytes(&found)
        .iter()
        .flat_map(|bytes| {
            bytes
                .chunks_exact(16)
                .map(|c| {
                    let i = u64::from_le_bytes(c[..8].try_into().expect("8 bytes")) as usize;
                    let v = u64::from_le_bytes(c[8..].try_into().expect("8 bytes")) as u32;
                    (boards[i].0, boards[i].1, Nimber::new(v))
                })
                .collect::<Vec<_>>()
        })
        .collect();
    full_boards.sort_by_key(|&(a, c, _)| (a, c));

    let own_shapes = ranks.all_gather_u64(b.own.iter().map(TierTable::positions).sum());
    let replica_bytes = ranks.all_gather_u64(b.replica_bytes());
    let sent = ranks.all_gather_u64(ranks.sent());
    let peak_rss = ranks.all_gather_u64(peak_rss().unwrap_or(0));
    let files = if parts == 1 {
        vec![opts.out.clone()]
    } else {
        (0..parts).map(|r| part_path(&opts.out, r, parts)).collect()
    };
    Ok(Report {
        ranks: parts,
        resumed,
        tiers: reports,
        full_boards,
        own_shapes,
        sent,
        peak_rss,
        replica_bytes,
        seconds: started.elapsed().as_secs_f64(),
        files,
    })
}

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

/// Entries of a tier, `key << 12 | value`, as a check can compare them.
#[must_use]
pub fn entries(table: &TierTable<impl AsRef<[u64]>>) -> Vec<u64> {
    table
        .slots()
        .iter()
        .copied()
        .filter(|&s| s >> VALUE_BITS != 0)
        .collect()
}

#[cfg(test)]
mod tests;
