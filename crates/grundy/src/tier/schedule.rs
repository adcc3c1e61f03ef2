//! The tier manager: the ONE build loop, for a single process, threads
//! and partitioned ranks alike (GamesmanOne's `tier_manager`). What varies
//! is pluggable: where tiers are stored ([`TierStore`]), how the parts talk
//! ([`Distribution`]), and where the values of earlier tiers come from
//! ([`Exchange`]: this part's own tiers, replicas, or queries to owners).
//!
//! **Per tier** `t` (in solving order, `0..tier_count()`):
//! 1. *Generate* `t`'s positions from this part's positions of its parent
//!    tier ([`generate_keys`](super::generate_keys): every position exactly once over all parts)
//!    and send each to its [`owner`] (one part: no exchange).
//! 2. *Seal* the tiers whose keys are no longer needed: the store hands
//!    back their read views ([`TierStore::seal`]).
//! 3. *Solve* `t`: locally ([`solve_slots`]) when every earlier tier is in
//!    this part's memory (one part, or replicated on every part), else in
//!    rounds of [`OptionBatch`](super::OptionBatch)es whose components are asked of their
//!    owners in two exchanges.
//! 4. *Store* `t` ([`TierStore::write`]) and, if the values source says
//!    so, replicate it on every part.
//!
//! **Agreement and resume.** Errors, budgets and cancellation are agreed
//! between steps ([`Distribution::agree`]), so every part stops at the same
//! point with the same tiers stored. A build resumes from the tiers every
//! part's store holds under one build id; it regenerates (never re-solves)
//! the keys of the stored tiers it still needs as parents. A build of one
//! part solves a large tier in stretches of [`BuildConfig::progress_slots`]
//! and hands each to the store to keep ([`TierStore::keep_solved`]); on
//! resume the store restores what it kept of the tier under way
//! ([`TierStore::solved_prefix`]), so a stop costs at most a stretch. The
//! table is laid out by its keys alone, so the restored slots are those
//! solved before, and the values the same.
//!
//! **Why it is correct.** Each part holds the positions it owns of the
//! single build's tiers (the same generation, split by owner), and each
//! value is the same mex over the same option values, read locally or from
//! the owner. A tier's table is laid out by its keys alone, so one part
//! writes the single build's bytes, and parts joined give them too.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::control::{TierControl, TierProgress};
use super::distribution::{Distribution, PartStop, Solo};
pub use super::exchange::Exchange;
use super::exchange::{PartExchange, ValueExchange};
use super::partition::owner;
use super::store::{MemoryStore, TierStore};
use super::table::slot;
use super::worker::{generate_from, solve_slots, solve_stretch};
use super::{Tier, TierError, TierGame, TierTable, TierValues};

/// How to build, beyond the game, the store and the parts.
pub struct BuildConfig<'a> {
    /// Where values of other parts' positions come from.
    pub exchange: Exchange,
    /// Bytes of replicated tiers a part may hold ([`Exchange::Auto`]).
    pub replica_budget: u64,
    /// Positions a part values per round of a partitioned tier.
    pub batch: usize,
    /// Slots a build of one part solves between two saves of its progress
    /// ([`TierStore::keep_solved`]): what a stop in the middle of a tier
    /// loses at most. The default, 2^24 slots (about 12.6 million
    /// positions), is about a minute of the 2 cores on a 4 x 10 box's
    /// largest tiers, and saving it (2 bytes a slot) takes well under a
    /// second; a tier of fewer slots is solved in one stretch.
    pub progress_slots: usize,
    /// The id of a fresh build (part 0's is used): the parts' stores
    /// resume only from tiers written under one id.
    pub build_id: u64,
    /// Called before each round of a tier with `(tier, round, rounds)`
    /// (tests inject faults with it).
    pub on_round: Option<&'a (dyn Fn(Tier, usize, usize) + Sync)>,
}

impl Default for BuildConfig<'_> {
    fn default() -> Self {
        BuildConfig {
            exchange: Exchange::Auto,
            replica_budget: u64::MAX,
            batch: 1 << 14,
            progress_slots: 1 << 24,
            build_id: 1,
            on_round: None,
        }
    }
}

/// One tier of a build, as every part saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TierReport {
    /// The tier.
    pub tier: Tier,
    /// Positions of the tier, over all parts.
    pub positions: u64,
    /// Positions of the tier this part owns.
    pub own: u64,
    /// Whether values of other parts' positions were asked for.
    pub queried: bool,
    /// Whether it was then replicated on every part.
    pub replicated: bool,
    /// Wall time of the tier.
    pub elapsed: Duration,
    /// Bytes every part sent to others for this tier, summed.
    pub sent: u64,
}

/// A finished build: this part's tiers and what each took.
pub struct Built<V> {
    /// Tiers found stored at the start (a resumed build).
    pub resumed: usize,
    /// The tiers built now.
    pub tiers: Vec<TierReport>,
    /// This part's view of every tier, in order.
    pub own: Vec<V>,
    /// Bytes of replicated tiers this part holds at the end.
    pub replica_bytes: u64,
}

/// Why a build stopped.
#[derive(Debug)]
pub enum BuildError<E> {
    /// A budget or cancellation (agreed by every part), or this part's
    /// game failed.
    Tier(TierError),
    /// This part's store failed.
    Store(E),
    /// Another part failed; its message.
    Part {
        /// The first part that failed.
        part: u32,
        /// What it said.
        message: String,
    },
}

impl<E: std::fmt::Display> std::fmt::Display for BuildError<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BuildError::Tier(e) => e.fmt(f),
            BuildError::Store(e) => e.fmt(f),
            BuildError::Part { part, message } => write!(f, "part {part}: {message}"),
        }
    }
}

impl<E: std::fmt::Display + std::fmt::Debug> std::error::Error for BuildError<E> {}

impl<E> From<TierError> for BuildError<E> {
    fn from(e: TierError) -> Self {
        BuildError::Tier(e)
    }
}

/// The state of one part's build between its steps.
struct Loop<'a, G, S: TierStore, D> {
    game: &'a G,
    store: &'a mut S,
    dist: &'a D,
    config: &'a BuildConfig<'a>,
    control: &'a TierControl<'a>,
    me: u32,
    parts: u32,
    /// This part's view of each sealed tier.
    own: Vec<S::Values>,
    /// Solved and written tiers not yet sealed (their keys still needed).
    pending: Vec<Option<TierTable>>,
    /// Keys of sealed (or resumed) tiers still needed as parents.
    parent_keys: Vec<Option<Vec<u64>>>,
    /// Per tier: the last tier generated from it.
    last_child: Vec<Option<usize>>,
    /// Where values of other parts' positions come from.
    exchange: PartExchange<'a, D>,
}

impl<G, S, D> Loop<'_, G, S, D>
where
    G: TierGame,
    S: TierStore,
    D: Distribution,
{
    /// Agrees on a step's outcome: this part's own error stays typed; a
    /// stop seen elsewhere becomes the same [`TierError`] here.
    fn agree<T>(&self, local: Result<T, BuildError<S::Error>>) -> Result<T, BuildError<S::Error>> {
        if self.parts == 1 {
            return local;
        }
        let stop = match &local {
            Ok(_) => None,
            Err(BuildError::Tier(TierError::TimeBudget { .. })) => Some(PartStop::TimeBudget),
            Err(BuildError::Tier(TierError::Cancelled)) => Some(PartStop::Cancelled),
            Err(e) => Some(PartStop::Failed(e.to_string())),
        };
        match (self.dist.agree(stop.as_ref()), local) {
            (_, Err(e)) => Err(e),
            (None, Ok(x)) => Ok(x),
            (Some((part, stop)), Ok(_)) => Err(match stop {
                PartStop::TimeBudget => BuildError::Tier(TierError::TimeBudget {
                    limit: self.control.max_time.unwrap_or_default(),
                }),
                PartStop::Cancelled => BuildError::Tier(TierError::Cancelled),
                PartStop::Failed(message) => BuildError::Part { part, message },
            }),
        }
    }

    /// A checkpoint between steps: budgets and cancellation, agreed.
    fn checkpoint(&self) -> Result<(), BuildError<S::Error>> {
        self.agree(self.control.check().map_err(BuildError::Tier))
    }

    fn sum(&self, x: u64) -> u64 {
        self.dist.all_gather(x).into_iter().sum()
    }

    fn min(&self, x: u64) -> u64 {
        self.dist.all_gather(x).into_iter().min().unwrap_or(x)
    }

    fn max(&self, x: u64) -> u64 {
        self.dist.all_gather(x).into_iter().max().unwrap_or(x)
    }

    /// Replicates tier `t` (its entries, from `entries`) if the value
    /// exchange says so; once a tier is not, no later one is.
    fn maybe_replicate(
        &mut self,
        t: usize,
        positions: u64,
        entries: impl FnOnce() -> Vec<u64>,
    ) -> Result<bool, BuildError<S::Error>> {
        if !self.exchange.should_replicate(positions) {
            return Ok(false);
        }
        let table = self.exchange.gather(entries());
        let table = self.agree(table.map_err(BuildError::Tier))?;
        self.exchange.hold(t, table);
        Ok(true)
    }

    /// This part's keys of tier `t`, generated from this part's keys of its
    /// parent and gathered from every part by owner.
    fn generate(&self, t: usize) -> Result<Vec<u64>, BuildError<S::Error>> {
        let tier = Tier::at(t);
        let keys = match self.game.parent_tier(tier) {
            // A first tier grows from nothing, the same on every part: part 0's.
            None if self.me == 0 => generate_from(self.game, tier, None, self.control),
            None => Ok(Vec::new()),
            Some(p) => {
                let p = p.index();
                match (&self.pending[p], &self.parent_keys[p]) {
                    (Some(table), _) => {
                        generate_from(self.game, tier, Some((table.slots(), true)), self.control)
                    }
                    (None, Some(keys)) => {
                        generate_from(self.game, tier, Some((keys, false)), self.control)
                    }
                    (None, None) => Err(TierError::MissingParent {
                        tier,
                        parent: Tier::at(p),
                    }),
                }
            }
        };
        let keys = self.agree(keys.map_err(BuildError::Tier))?;
        if self.parts == 1 {
            return Ok(keys);
        }
        let mut send = vec![Vec::new(); self.parts as usize];
        for key in keys {
            send[owner(key, self.parts) as usize].push(key);
        }
        Ok(self.dist.exchange_words(&send).concat())
    }

    /// Drops the keys no tier after `t` needs, and seals every pending
    /// tier, keeping the keys of those still parents of later tiers.
    fn seal_after_generating(&mut self, t: usize) -> Result<(), BuildError<S::Error>> {
        for p in 0..t {
            if self.last_child[p].is_none_or(|c| c <= t) {
                self.parent_keys[p] = None;
            }
            if let Some(table) = self.pending[p].take() {
                if self.last_child[p].is_some_and(|c| c > t) {
                    let bytes = table.positions().saturating_mul(8);
                    self.agree(self.control.reserve(bytes).map_err(BuildError::Tier))?;
                    self.parent_keys[p] = Some(table.iter().map(|(k, _)| k).collect());
                }
                let sealed = self.store.seal(Tier::at(p), table);
                let sealed = self.agree(sealed.map_err(BuildError::Store))?;
                debug_assert_eq!(self.own.len(), p);
                self.own.push(sealed);
            }
        }
        Ok(())
    }

    /// Values tier `t`'s positions in `table`, from slot `kept` on (the
    /// slots before were solved by an interrupted build and restored by
    /// the store); says whether it queried.
    fn solve(
        &mut self,
        t: usize,
        table: &mut TierTable,
        kept: usize,
    ) -> Result<bool, BuildError<S::Error>> {
        if self.parts == 1 {
            self.solve_alone(t, table, kept)?;
            return Ok(false);
        }
        let tier = Tier::at(t);
        let len = table.slots().len();
        // Parts agree between rounds of a batch each.
        let chunk = (self.config.batch.max(1) * 4).div_ceil(3) + 1;
        let rounds = self.max(len.div_ceil(chunk) as u64) as usize;
        let local = (0..t).all(|e| self.exchange.replica(e).is_some());
        let replicas: Vec<Option<&TierTable>> = (0..self.pending.len())
            .map(|e| self.exchange.replica(e))
            .collect();
        for round in 0..rounds {
            if let Some(hook) = self.config.on_round {
                hook(tier, round, rounds);
            }
            let range = (round * chunk).min(len)..((round + 1) * chunk).min(len);
            let outcome = if local {
                solve_slots(self.game, tier, table, range, &replicas, self.control)
                    .map_err(BuildError::Tier)
            } else {
                self.exchange
                    .query_round(self.game, &self.own, tier, table, range)
                    .map_err(BuildError::Tier)
            };
            self.agree(outcome)?;
            self.checkpoint()?;
        }
        Ok(!local)
    }

    /// One part's tier: solved in stretches of
    /// [`BuildConfig::progress_slots`] from slot `kept` on, each handed to
    /// the store to keep before the next (the workers check the budget
    /// within a stretch). Stretch `k` covers the same slots whether or not
    /// the build was resumed, so `on_round` sees the same rounds.
    fn solve_alone(
        &mut self,
        t: usize,
        table: &mut TierTable,
        kept: usize,
    ) -> Result<(), BuildError<S::Error>> {
        let tier = Tier::at(t);
        let len = table.slots().len();
        let chunk = self.config.progress_slots.max(1);
        let rounds = len.div_ceil(chunk).max(1);
        let own: Vec<Option<&S::Values>> = self.own.iter().map(Some).collect();
        let mut done = table.slots()[..kept].iter().filter(|&&s| s != 0).count() as u64;
        let mut start = kept;
        for round in kept / chunk..rounds {
            if let Some(hook) = self.config.on_round {
                hook(tier, round, rounds);
            }
            let range = start..((round + 1) * chunk).min(len);
            done += solve_stretch(
                self.game,
                tier,
                table,
                range.clone(),
                done,
                &own,
                self.control,
            )
            .map_err(BuildError::Tier)?;
            start = range.end;
            // The last stretch needs no keeping: the tier is written next.
            if start < len {
                self.store
                    .keep_solved(tier, table, range)
                    .map_err(BuildError::Store)?;
            }
            self.checkpoint()?;
        }
        Ok(())
    }
}

impl<'a, G, S, D> Loop<'a, G, S, D>
where
    G: TierGame,
    S: TierStore,
    D: Distribution,
{
    /// The loop of a fresh build, before it looks at the store.
    ///
    /// # Errors
    ///
    /// [`TierError::MissingParent`] when a tier's parent does not come
    /// before it.
    fn new(
        game: &'a G,
        store: &'a mut S,
        dist: &'a D,
        config: &'a BuildConfig<'a>,
        control: &'a TierControl<'a>,
    ) -> Result<Self, TierError> {
        let n = game.tier_count();
        let mut last_child = vec![None; n];
        for t in 0..n {
            if let Some(p) = game.parent_tier(Tier::at(t)) {
                if p.index() >= t {
                    return Err(TierError::MissingParent {
                        tier: Tier::at(t),
                        parent: p,
                    });
                }
                last_child[p.index()] = Some(t);
            }
        }
        Ok(Loop {
            game,
            store,
            dist,
            config,
            control,
            me: dist.part(),
            parts: dist.parts(),
            own: Vec::new(),
            pending: vec![None; n],
            parent_keys: vec![None; n],
            last_child,
            exchange: PartExchange::new(dist, config.exchange, config.replica_budget, n),
        })
    }

    /// Resumes from the tiers every part's store holds under one build id:
    /// their views, and the keys (regenerated, never re-solved) of those
    /// still needed as parents or to be replicated. Returns how many.
    fn resume(&mut self) -> Result<usize, BuildError<S::Error>> {
        let n = self.pending.len();
        let stored = self.store.stored().min(n) as u64;
        let stored_id = self.store.build_id();
        let fresh = self.config.build_id;
        let leader_id = self
            .dist
            .all_gather(if stored == 0 { fresh } else { stored_id })[0];
        let mine = if self.parts == 1 || stored_id == leader_id {
            stored
        } else {
            0
        };
        let resumed = self.min(mine) as usize;
        let build_id = if resumed == 0 {
            self.dist.all_gather(fresh)[0]
        } else {
            leader_id
        };
        let views = self.store.resume(resumed, build_id);
        self.own = self.agree(views.map_err(BuildError::Store))?;
        if resumed > 0 {
            self.control
                .report(TierProgress::Resuming { stored: resumed });
        }
        for t in 0..resumed {
            self.regenerate(t)?;
        }
        Ok(resumed)
    }

    /// Regenerates the keys of stored tier `t`: kept when `t` is still a
    /// parent, replicated when the value exchange says so.
    fn regenerate(&mut self, t: usize) -> Result<(), BuildError<S::Error>> {
        let control = self.control;
        let keys = self.generate(t)?;
        let stop = || control.check().is_err();
        let reheld = self
            .store
            .regenerated(Tier::at(t), &mut self.own[t], &keys, &stop);
        let reheld = reheld.map_err(|e| match control.check() {
            Err(stopped) => BuildError::Tier(stopped),
            Ok(()) => BuildError::Store(e),
        });
        self.agree(reheld)?;
        for p in 0..t {
            if self.last_child[p].is_none_or(|c| c <= t) {
                self.parent_keys[p] = None;
            }
        }
        let positions = self.sum(keys.len() as u64);
        let own = &self.own[t];
        let entries: Vec<u64> = if self.exchange.may_replicate() {
            keys.iter()
                .filter_map(|&k| own.value(k).map(|v| slot(k, v)))
                .collect()
        } else {
            Vec::new()
        };
        self.maybe_replicate(t, positions, || entries)?;
        if self.last_child[t].is_some() {
            self.parent_keys[t] = Some(keys);
        }
        Ok(())
    }

    /// Builds tier `t`: generate, seal what is no longer needed, solve
    /// (from what a stopped build kept), store, maybe replicate.
    fn build_tier(&mut self, t: usize) -> Result<TierReport, BuildError<S::Error>> {
        let (control, dist) = (self.control, self.dist);
        self.checkpoint()?;
        let started = Instant::now();
        let sent_before = dist.sent();
        control.report(TierProgress::Generating { tier: Tier::at(t) });
        let keys = self.generate(t)?;
        // The parents' tables have served once the keys exist: sealed (and
        // freed) before the table is laid out, so a build's peak holds the
        // new tier's keys and table but not its parent's table too.
        self.seal_after_generating(t)?;
        let table_bytes = super::table::bytes_in_memory(keys.len() as u64);
        self.agree(control.reserve(table_bytes).map_err(BuildError::Tier))?;
        let mut table = self.agree(TierTable::from_keys(keys).map_err(BuildError::Tier))?;
        let positions = self.sum(table.positions());
        // A tier solved in one stretch has nothing kept to restore.
        let kept = if self.parts == 1 && table.slots().len() > self.config.progress_slots.max(1) {
            self.store
                .solved_prefix(Tier::at(t), &mut table)
                .map_err(BuildError::Store)?
        } else {
            0
        };
        if kept > 0 {
            control.report(TierProgress::Restored {
                tier: Tier::at(t),
                slots: kept,
                of: table.slots().len(),
            });
        }
        let queried = self.solve(t, &mut table, kept)?;
        self.write(t, &table)?;
        let own_positions = table.positions();
        let replicated = {
            let tbl = &table;
            self.maybe_replicate(t, positions, || {
                tbl.slots().iter().copied().filter(|&s| s != 0).collect()
            })?
        };
        self.pending[t] = Some(table);
        let sent = self.sum(dist.sent() - sent_before);
        let report = TierReport {
            tier: Tier::at(t),
            positions,
            own: own_positions,
            queried,
            replicated,
            elapsed: started.elapsed(),
            sent,
        };
        control.report(TierProgress::Stored(report));
        Ok(report)
    }

    /// Hands solved tier `t` to the store, agreed.
    fn write(&mut self, t: usize, table: &TierTable) -> Result<(), BuildError<S::Error>> {
        let control = self.control;
        let asked_to_stop = AtomicBool::new(false);
        let stop = || {
            let stop = control.check().is_err();
            if stop {
                asked_to_stop.store(true, Ordering::Relaxed);
            }
            stop
        };
        let needs = self.store.write_bytes(table.positions());
        self.agree(control.reserve(needs).map_err(BuildError::Tier))?;
        let written = self.store.write(Tier::at(t), table, &stop);
        // A store that failed once told to stop gave up for the budget (or
        // a cancellation): reported as that, so the build ends as stopped.
        let written =
            written.map_err(
                |e| match (asked_to_stop.load(Ordering::Relaxed), control.check()) {
                    (true, Err(stopped)) => BuildError::Tier(stopped),
                    _ => BuildError::Store(e),
                },
            );
        self.agree(written)
    }
}

/// Builds (or resumes) every tier of `game` into `store`, as part
/// `dist.part()` of `dist.parts()`: the one build loop (see the module
/// documentation). Every part calls it with the same game and config.
///
/// # Errors
///
/// [`BuildError::Tier`] for a budget or cancellation (the store keeps
/// every tier written) or a bad game; [`BuildError::Store`] when this
/// part's store fails; [`BuildError::Part`] when another part failed.
pub fn build<G, S, D>(
    game: &G,
    store: &mut S,
    dist: &D,
    config: &BuildConfig<'_>,
    control: &TierControl<'_>,
) -> Result<Built<S::Values>, BuildError<S::Error>>
where
    G: TierGame,
    S: TierStore,
    D: Distribution,
{
    let mut b = Loop::new(game, store, dist, config, control)?;
    let resumed = b.resume()?;
    let n = game.tier_count();
    let tiers = (resumed..n)
        .map(|t| b.build_tier(t))
        .collect::<Result<Vec<_>, _>>()?;
    b.seal_after_generating(n)?;
    let replica_bytes = b.exchange.replica_bytes();
    Ok(Built {
        resumed,
        tiers,
        own: b.own,
        replica_bytes,
    })
}

/// Solves every tier of `game` not yet in `tables` (a prefix of the tiers,
/// solved, in order) in this process, calling `done` after each tier so a
/// front-end can store it before the next begins: [`build`] with one part
/// and a store in memory that calls `done`.
///
/// # Errors
///
/// What [`build`] or `done` return.
pub fn solve_tiers<G, E, D>(
    game: &G,
    tables: &mut Vec<TierTable>,
    control: &TierControl<'_>,
    done: D,
) -> Result<(), E>
where
    G: TierGame,
    E: From<TierError>,
    D: FnMut(Tier, &TierTable) -> Result<(), E>,
{
    /// `done`'s error: one part never sends it to another, so it needs no
    /// text of its own.
    struct Done<E>(E);
    impl<E> std::fmt::Display for Done<E> {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("the done hook failed")
        }
    }
    /// The memory store, calling `done` on each write.
    struct Hooked<D> {
        memory: MemoryStore,
        done: D,
    }
    impl<E, D: FnMut(Tier, &TierTable) -> Result<(), E>> TierStore for Hooked<D> {
        type Error = Done<E>;
        type Values = TierTable;
        fn stored(&self) -> usize {
            self.memory.stored()
        }
        fn resume(&mut self, tiers: usize, id: u64) -> Result<Vec<TierTable>, Done<E>> {
            Ok(self.memory.resume(tiers, id).unwrap_or_else(|e| match e {}))
        }
        fn write(
            &mut self,
            tier: Tier,
            table: &TierTable,
            _stop: &(dyn Fn() -> bool + Sync),
        ) -> Result<(), Done<E>> {
            (self.done)(tier, table).map_err(Done)
        }
        fn seal(&mut self, _tier: Tier, table: TierTable) -> Result<TierTable, Done<E>> {
            Ok(table)
        }
    }
    let mut store = Hooked {
        memory: MemoryStore::with_tiers(std::mem::take(tables)),
        done,
    };
    let built = build(game, &mut store, &Solo, &BuildConfig::default(), control);
    match built {
        Ok(built) => {
            *tables = built.own;
            Ok(())
        }
        Err(BuildError::Tier(e)) => Err(E::from(e)),
        Err(BuildError::Store(Done(e))) => Err(e),
        Err(BuildError::Part { message, .. }) => unreachable!("one part: {message}"),
    }
}
