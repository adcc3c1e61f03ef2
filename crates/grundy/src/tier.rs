//! Bottom-up solving by tiers: every position of a bounded game, solved once
//! and stored in compact tables.
//!
//! **Rule.** A [`TierGame`] sorts its positions into tiers so that every
//! option of a position leads to positions (components) of earlier tiers,
//! as GamesmanOne's tier solver does (`tier_solver.h`: a game names a
//! position's tier, enumerates a tier and a position's children, and the
//! solver does the rest). Rectangle clearing is one: a shape of `k` cells is
//! in tier `k`, and clearing a rectangle leaves components of fewer cells.
//!
//! **Algorithm.** Tiers are solved in order. A tier's positions are
//! generated from the previous tier's ([`TierGame::generate`], each canonical
//! position exactly once, so no global de-duplication is needed), sorted by a
//! mixing hash and laid out as a static linear-probing table
//! ([`TierTable`]). Then every position of the tier is valued in parallel
//! with rayon: the mex, over its options, of the XOR of the values of the
//! components the option leaves, each read from an earlier tier's table.
//!
//! **Cost.** One pass over each tier to generate it, one to solve it; a
//! lookup is one or two cache lines. Memory is one 8-byte slot per position
//! at a load factor of 3/4: about 10.7 bytes a position, index included.
//!
//! **Why it is correct.** By induction on the tiers: when a tier is solved,
//! every component its options leave lies in an earlier, fully solved tier,
//! so each value is the mex of exact option values. A slot holds a 52-bit key
//! and a 12-bit value; a value is at most the number of a position's
//! options, and a game must keep that under 4096 ([`MAX_VALUE`]); the solver
//! checks every value it stores and fails rather than truncate.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::Nimber;

/// A tier number.
pub type Tier = u32;

/// Bits of a slot that hold the value.
pub const VALUE_BITS: u32 = 12;
/// The largest value a [`TierTable`] stores.
pub const MAX_VALUE: u32 = (1 << VALUE_BITS) - 1;
/// The largest position key a [`TierTable`] stores (52 bits).
pub const MAX_KEY: u64 = (1 << (64 - VALUE_BITS)) - 1;

/// A game solved bottom-up by tiers. Positions are keys of at most 52 bits
/// ([`MAX_KEY`]), never 0, in a canonical form chosen by the game.
pub trait TierGame: Sync {
    /// Every tier, in solving order: options of a position lead only to
    /// positions of earlier tiers.
    fn tiers(&self) -> Vec<Tier>;

    /// The tier of a position.
    fn tier_of(&self, position: u64) -> Tier;

    /// The tier whose positions generate `tier`'s ([`TierGame::generate`]),
    /// or `None` when `tier`'s positions come from nothing.
    fn parent_tier(&self, tier: Tier) -> Option<Tier>;

    /// Calls `emit` with positions of `tier` generated from `parent` (a
    /// position of [`TierGame::parent_tier`], or `None`). Over all parents
    /// every canonical position of the tier is emitted exactly once.
    fn generate<E: FnMut(u64)>(&self, tier: Tier, parent: Option<u64>, emit: E);

    /// Calls `option` once per move of `position` with the XOR of the values
    /// of the components the game knows itself, and the components (earlier
    /// tiers' positions) whose values the solver must look up.
    fn for_each_option<F: FnMut(Nimber, &[u64])>(&self, position: u64, option: F);
}

/// Why a tier build stopped.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TierError {
    /// The time budget ran out.
    #[error("gave up after {limit:?} (the time budget)")]
    TimeBudget {
        /// The budget that was reached.
        limit: Duration,
    },
    /// Stopped from outside (for example on Ctrl-C).
    #[error("stopped on request")]
    Cancelled,
    /// A value does not fit a table slot.
    #[error("a value of {value} in tier {tier} exceeds the table's {MAX_VALUE}")]
    ValueTooLarge {
        /// The tier.
        tier: Tier,
        /// The value.
        value: u32,
    },
    /// The game named an option component that no earlier table holds.
    #[error("position {position:#x} of tier {tier} has an option component {child:#x} that no earlier tier holds")]
    MissingChild {
        /// The tier being solved.
        tier: Tier,
        /// The position being solved.
        position: u64,
        /// The component not found.
        child: u64,
    },
    /// A tier's parent tier is not solved before it.
    #[error("tier {tier} grows from tier {parent}, which is not solved before it")]
    MissingParent {
        /// The tier.
        tier: Tier,
        /// Its parent tier.
        parent: Tier,
    },
    /// The game generated a key outside the table's range.
    #[error("the game generated key {key:#x}, outside 1..={MAX_KEY:#x}")]
    BadKey {
        /// The key.
        key: u64,
    },
}

/// One tier's positions and values: a static linear-probing hash table of
/// 8-byte slots, `key << 12 | value`, 0 for an empty slot.
///
/// Position `key` has home slot `⌊mix(key) · capacity / 2^64⌋` and lies at
/// the first slot from its home holding it; slots are laid out in order of
/// `mix(key)` (a bijection), so the layout depends only on the set of keys,
/// never on the order they were found in, and a build resumed or repeated
/// writes the same bytes. The array ends with at least one empty slot, so a
/// probe always stops without wrapping around.
#[derive(Clone, Debug)]
pub struct TierTable<S = Vec<u64>> {
    positions: u64,
    capacity: u64,
    slots: S,
}

/// Multiplier of the mixing hash (odd, so the map is a bijection of `u64`).
const MIX: u64 = 0x9E37_79B9_7F4A_7C15;

fn mix(key: u64) -> u64 {
    let x = key.wrapping_mul(MIX);
    x ^ (x >> 29)
}

/// The home slot of a mixed key in a table of `capacity` slots.
fn home(mixed: u64, capacity: u64) -> u64 {
    ((u128::from(mixed) * u128::from(capacity)) >> 64) as u64
}

/// The capacity (home slots) for `positions` keys: a load factor of 3/4;
/// `None` when it does not fit a `u64` (a count no table in memory has, but
/// one a crafted file header may claim).
#[must_use]
pub const fn capacity_for(positions: u64) -> Option<u64> {
    // In u128, `positions * 4 + 2` cannot overflow.
    let capacity = (positions as u128 * 4).div_ceil(3) + 1;
    if capacity > u64::MAX as u128 {
        None
    } else {
        Some(capacity as u64)
    }
}

/// [`capacity_for`] of a table being built in memory, whose key count is a
/// `Vec`'s length and so far below the overflow.
fn capacity_in_memory(positions: u64) -> u64 {
    capacity_for(positions).expect("a table in memory has fewer than 2^62 keys")
}

impl TierTable<Vec<u64>> {
    /// A table of the given keys, values 0. Keys must be distinct, non-zero
    /// and at most [`MAX_KEY`].
    ///
    /// # Errors
    ///
    /// [`TierError::BadKey`] for a key out of range.
    pub fn from_keys(mut keys: Vec<u64>) -> Result<TierTable, TierError> {
        if let Some(&key) = keys.iter().find(|&&k| k == 0 || k > MAX_KEY) {
            return Err(TierError::BadKey { key });
        }
        let positions = keys.len() as u64;
        let capacity = capacity_in_memory(positions);
        keys.par_iter_mut().for_each(|k| *k = mix(*k));
        keys.par_sort_unstable();
        let mut slots = vec![0u64; capacity as usize + 1];
        let mut next = 0u64;
        for &mixed in &keys {
            let at = home(mixed, capacity).max(next);
            if at as usize + 1 >= slots.len() {
                slots.resize(at as usize + 2, 0);
            }
            slots[at as usize] = unmix(mixed) << VALUE_BITS;
            next = at + 1;
        }
        Ok(TierTable {
            positions,
            capacity,
            slots,
        })
    }
}

impl TierTable<Vec<u64>> {
    /// A table of the given entries, `key << VALUE_BITS | value` as
    /// [`TierTable::slots`] holds them, with distinct keys in
    /// `1..=MAX_KEY`. The layout is the one [`TierTable::from_keys`] gives
    /// for the same keys, whatever the order of `entries`, so a tier joined
    /// from the parts of a partitioned build equals a single build's.
    ///
    /// # Errors
    ///
    /// [`TierError::BadKey`] for an entry with key 0.
    pub fn from_entries(mut entries: Vec<u64>) -> Result<TierTable, TierError> {
        if let Some(&entry) = entries.iter().find(|&&e| e >> VALUE_BITS == 0) {
            return Err(TierError::BadKey {
                key: entry >> VALUE_BITS,
            });
        }
        let positions = entries.len() as u64;
        let capacity = capacity_in_memory(positions);
        // Sorting by the mixed key in the comparator keeps the values in
        // place without a second array.
        entries.par_sort_unstable_by_key(|&e| mix(e >> VALUE_BITS));
        let mut slots = vec![0u64; capacity as usize + 1];
        let mut next = 0u64;
        for &entry in &entries {
            let at = home(mix(entry >> VALUE_BITS), capacity).max(next);
            if at as usize + 1 >= slots.len() {
                slots.resize(at as usize + 2, 0);
            }
            slots[at as usize] = entry;
            next = at + 1;
        }
        Ok(TierTable {
            positions,
            capacity,
            slots,
        })
    }
}

/// The part (`0..parts`) that owns `key` in a build partitioned into
/// `parts` parts (MPI ranks). The hash is independent of the one that lays
/// out a table, so each part's keys still spread over its whole table.
#[must_use]
pub fn owner(key: u64, parts: u32) -> u32 {
    // splitmix64's finaliser: a different mixing than `mix`.
    let mut x = key.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^= x >> 31;
    ((u128::from(x) * u128::from(parts)) >> 64) as u32
}

impl TierTable<Vec<u64>> {
    /// Positions in the slots `range`, in slot order.
    pub fn positions_in(&self, range: std::ops::Range<usize>) -> impl Iterator<Item = u64> + '_ {
        self.slots[range]
            .iter()
            .filter(|&&s| s != 0)
            .map(|&s| s >> VALUE_BITS)
    }

    /// Sets the values of the positions in the slots `range`, in slot
    /// order (as [`TierTable::positions_in`] lists them).
    ///
    /// # Errors
    ///
    /// [`TierError::ValueTooLarge`] for a value over [`MAX_VALUE`].
    ///
    /// # Panics
    ///
    /// When `values` does not have one value per position of the range.
    pub fn set_values(
        &mut self,
        tier: Tier,
        range: std::ops::Range<usize>,
        values: &[u32],
    ) -> Result<(), TierError> {
        let mut values = values.iter();
        for slot in self.slots[range].iter_mut().filter(|s| **s != 0) {
            let value = *values.next().expect("a value per position");
            if value > MAX_VALUE {
                return Err(TierError::ValueTooLarge { tier, value });
            }
            *slot = (*slot & !u64::from(MAX_VALUE)) | u64::from(value);
        }
        assert!(values.next().is_none(), "a value per position");
        Ok(())
    }
}

/// The inverse of [`mix`].
fn unmix(mixed: u64) -> u64 {
    // x ^ (x >> 29) is undone by xoring the shift back in twice (29 * 3 > 64).
    let mut x = mixed;
    x ^= x >> 29;
    x ^= x >> 58;
    x.wrapping_mul(MIX_INVERSE)
}

/// The multiplicative inverse of [`MIX`] modulo 2^64.
const MIX_INVERSE: u64 = {
    // Newton's iteration doubles the correct low bits each step.
    let mut inv = MIX;
    let mut i = 0;
    while i < 6 {
        inv = inv.wrapping_mul(2u64.wrapping_sub(MIX.wrapping_mul(inv)));
        i += 1;
    }
    inv
};

impl<S: AsRef<[u64]>> TierTable<S> {
    /// A table over stored slots, as [`TierTable::slots`] gave them.
    ///
    /// # Errors
    ///
    /// A message when the slots cannot be such a table (too few slots, no
    /// empty slot at the end, or a count that does not match).
    pub fn from_parts(positions: u64, capacity: u64, slots: S) -> Result<TierTable<S>, String> {
        let s = slots.as_ref();
        if Some(capacity) != capacity_for(positions) {
            return Err(format!(
                "capacity {capacity} does not fit {positions} positions"
            ));
        }
        if (s.len() as u64) <= capacity || s.last() != Some(&0) {
            return Err(format!(
                "{} slots cannot hold a table of capacity {capacity}",
                s.len()
            ));
        }
        Ok(TierTable {
            positions,
            capacity,
            slots,
        })
    }

    /// How many positions the table holds.
    #[must_use]
    pub fn positions(&self) -> u64 {
        self.positions
    }

    /// The number of home slots.
    #[must_use]
    pub fn capacity(&self) -> u64 {
        self.capacity
    }

    /// The raw slots, `key << 12 | value` or 0.
    #[must_use]
    pub fn slots(&self) -> &[u64] {
        self.slots.as_ref()
    }

    /// The value of `key`, or `None` when the table does not hold it.
    #[inline]
    #[must_use]
    pub fn get(&self, key: u64) -> Option<Nimber> {
        self.probe(key, home(mix(key), self.capacity) as usize)
            .map(Nimber::new)
    }

    /// The value of `key`, probing from slot `at` (its home slot).
    #[inline]
    fn probe(&self, key: u64, mut at: usize) -> Option<u32> {
        let slots = self.slots.as_ref();
        while let Some(&slot) = slots.get(at) {
            if slot == 0 {
                return None;
            }
            if slot >> VALUE_BITS == key {
                return Some((slot & u64::from(MAX_VALUE)) as u32);
            }
            at += 1;
        }
        None
    }

    /// Checks the layout every lookup relies on: occupied slots in strictly
    /// increasing order of the mixed key (so keys are distinct), each at or
    /// after its home slot with no empty slot in between. A table read from
    /// a file whose checksums were forged can break it; then a stored key
    /// could be missed. One pass, one multiplication a slot.
    ///
    /// # Errors
    ///
    /// A message naming the first slot out of place.
    pub fn check_layout(&self) -> Result<(), String> {
        let slots = self.slots.as_ref();
        let mut last: Option<u64> = None;
        for (i, &slot) in slots.iter().enumerate() {
            if slot == 0 {
                continue;
            }
            let key = slot >> VALUE_BITS;
            let mixed = mix(key);
            let at_home = home(mixed, self.capacity) as usize;
            // The previous slot is occupied (by a key of an earlier home,
            // whose own run is checked) whenever this one is past its home.
            let in_run = at_home == i || (at_home < i && slots[i - 1] != 0);
            if key == 0 || last.is_some_and(|l| l >= mixed) || !in_run {
                return Err(format!("slot {i} (key {key:#x}) is out of place"));
            }
            last = Some(mixed);
        }
        Ok(())
    }

    /// Every `(key, value)`, in slot order.
    pub fn iter(&self) -> impl Iterator<Item = (u64, Nimber)> + '_ {
        self.slots.as_ref().iter().filter(|&&s| s != 0).map(|&s| {
            (
                s >> VALUE_BITS,
                Nimber::new((s & u64::from(MAX_VALUE)) as u32),
            )
        })
    }

    /// The largest value stored, 0 for an empty table.
    #[must_use]
    pub fn max_value(&self) -> u32 {
        self.slots
            .as_ref()
            .par_iter()
            .map(|&s| (s & u64::from(MAX_VALUE)) as u32)
            .max()
            .unwrap_or(0)
    }
}

/// What a tier build reports as it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TierProgress {
    /// Generating a tier's positions.
    Generating {
        /// The tier.
        tier: Tier,
    },
    /// Solving a tier: `done` of `total` positions valued.
    Solving {
        /// The tier.
        tier: Tier,
        /// Positions valued so far.
        done: u64,
        /// Positions in the tier.
        total: u64,
    },
}

/// Limits and hooks of a tier build.
#[derive(Default)]
pub struct TierControl<'a> {
    /// Stop after this much wall time (measured from the control's start).
    pub max_time: Option<Duration>,
    /// Set from outside to stop the build at the next check.
    pub cancel: Option<&'a AtomicBool>,
    /// Called now and then from worker threads.
    pub progress: Option<&'a (dyn Fn(TierProgress) + Sync)>,
    started: Option<Instant>,
}

impl<'a> TierControl<'a> {
    /// A control with no limits, starting its clock now.
    #[must_use]
    pub fn new() -> TierControl<'a> {
        TierControl {
            started: Some(Instant::now()),
            ..TierControl::default()
        }
    }

    fn check(&self) -> Result<(), TierError> {
        if self.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Err(TierError::Cancelled);
        }
        if let (Some(limit), Some(started)) = (self.max_time, self.started) {
            if started.elapsed() > limit {
                return Err(TierError::TimeBudget { limit });
            }
        }
        Ok(())
    }

    fn report(&self, progress: TierProgress) {
        if let Some(report) = self.progress {
            report(progress);
        }
    }
}

/// Positions a worker handles between two budget checks.
const CHUNK: usize = 4096;

/// Generates the positions of `tier` from its parent tier's table (or from
/// nothing) and lays them out as a table with every value 0.
///
/// # Errors
///
/// A budget or cancellation ([`TierControl`]), or a bad key from the game.
pub fn generate_tier<G: TierGame, S: AsRef<[u64]> + Sync>(
    game: &G,
    tier: Tier,
    parent: Option<&TierTable<S>>,
    control: &TierControl<'_>,
) -> Result<TierTable, TierError> {
    let keys = generate_keys(game, tier, parent, control)?;
    control.check()?;
    TierTable::from_keys(keys)
}

/// The keys of `tier`'s positions generated from the positions of
/// `parent` (a table of the parent tier, or only part of it), in no
/// particular order.
///
/// # Errors
///
/// A budget or cancellation ([`TierControl`]).
pub fn generate_keys<G: TierGame, S: AsRef<[u64]> + Sync>(
    game: &G,
    tier: Tier,
    parent: Option<&TierTable<S>>,
    control: &TierControl<'_>,
) -> Result<Vec<u64>, TierError> {
    control.check()?;
    control.report(TierProgress::Generating { tier });
    let keys: Vec<u64> = match parent {
        None => {
            let mut keys = Vec::new();
            game.generate(tier, None, |k| keys.push(k));
            keys
        }
        Some(parent) => {
            let chunks: Result<Vec<Vec<u64>>, TierError> = parent
                .slots()
                .par_chunks(CHUNK)
                .map(|chunk| {
                    control.check()?;
                    let mut out = Vec::new();
                    for &slot in chunk {
                        if slot != 0 {
                            game.generate(tier, Some(slot >> VALUE_BITS), |k| out.push(k));
                        }
                    }
                    Ok(out)
                })
                .collect();
            let chunks = chunks?;
            let mut keys = Vec::with_capacity(chunks.iter().map(Vec::len).sum());
            for chunk in chunks {
                keys.extend_from_slice(&chunk);
            }
            keys
        }
    };
    Ok(keys)
}

/// Values every position of `table` (a tier generated by [`generate_tier`])
/// from the tables of earlier tiers: `earlier[t]` is tier `t`'s table.
///
/// # Errors
///
/// A budget or cancellation, a value over [`MAX_VALUE`], or a component
/// that no earlier table holds (a bug in the game).
pub fn solve_tier<G, S>(
    game: &G,
    tier: Tier,
    table: &mut TierTable,
    earlier: &[Option<&TierTable<S>>],
    control: &TierControl<'_>,
) -> Result<(), TierError>
where
    G: TierGame,
    S: AsRef<[u64]> + Sync,
{
    let total = table.positions;
    solve_slots_of(game, tier, &mut table.slots, total, earlier, control)
}

/// Values the positions in the slots `slots` of `table` (a tier generated
/// by [`generate_tier`]; empty slots are skipped), from the tables
/// of earlier tiers, as [`solve_tier`] does for a whole table. A build can
/// so solve a tier stretch by stretch and check something between them
/// (a partitioned build agrees on stopping between stretches).
///
/// # Errors
///
/// As [`solve_tier`].
pub fn solve_slots<G, S>(
    game: &G,
    tier: Tier,
    table: &mut TierTable,
    slots: std::ops::Range<usize>,
    earlier: &[Option<&TierTable<S>>],
    control: &TierControl<'_>,
) -> Result<(), TierError>
where
    G: TierGame,
    S: AsRef<[u64]> + Sync,
{
    let slots = &mut table.slots[slots];
    let total = slots.iter().filter(|&&s| s != 0).count() as u64;
    solve_slots_of(game, tier, slots, total, earlier, control)
}

fn solve_slots_of<G, S>(
    game: &G,
    tier: Tier,
    slots: &mut [u64],
    total: u64,
    earlier: &[Option<&TierTable<S>>],
    control: &TierControl<'_>,
) -> Result<(), TierError>
where
    G: TierGame,
    S: AsRef<[u64]> + Sync,
{
    let done = AtomicU64::new(0);
    slots.par_chunks_mut(CHUNK).try_for_each_init(
        Scratch::default,
        |scratch, chunk| -> Result<(), TierError> {
            control.check()?;
            let mut valued = 0u64;
            for slot in chunk.iter_mut() {
                if *slot == 0 {
                    continue;
                }
                let position = *slot >> VALUE_BITS;
                let value = value_of(game, tier, position, earlier, scratch)?;
                *slot |= u64::from(value);
                valued += 1;
            }
            let so_far = done.fetch_add(valued, Ordering::Relaxed) + valued;
            control.report(TierProgress::Solving {
                tier,
                done: so_far,
                total,
            });
            Ok(())
        },
    )
}

/// Solves every tier of `game` not yet in `tables` (a prefix of
/// [`TierGame::tiers`], solved, in that order), calling `done` after each
/// tier so a front-end can store it before the next begins: a build stopped
/// at any point keeps every tier that `done` saw.
///
/// # Errors
///
/// What [`generate_tier`], [`solve_tier`] or `done` return.
pub fn solve_tiers<G, E, D>(
    game: &G,
    tables: &mut Vec<TierTable>,
    control: &TierControl<'_>,
    mut done: D,
) -> Result<(), E>
where
    G: TierGame,
    E: From<TierError>,
    D: FnMut(Tier, &TierTable) -> Result<(), E>,
{
    let tiers = game.tiers();
    let top = tiers.iter().max().map_or(0, |&t| t as usize);
    for &tier in &tiers[tables.len().min(tiers.len())..] {
        // Tier number -> its table, for the tiers solved so far.
        let mut earlier: Vec<Option<&TierTable>> = vec![None; top + 1];
        for (&t, table) in tiers.iter().zip(tables.iter()) {
            earlier[t as usize] = Some(table);
        }
        let parent = match game.parent_tier(tier) {
            None => None,
            Some(p) => Some(
                earlier
                    .get(p as usize)
                    .copied()
                    .flatten()
                    .ok_or(TierError::MissingParent { tier, parent: p })?,
            ),
        };
        let mut table = generate_tier(game, tier, parent, control)?;
        solve_tier(game, tier, &mut table, &earlier, control)?;
        done(tier, &table)?;
        tables.push(table);
    }
    Ok(())
}

/// The options of a batch of positions, gathered so that the components
/// they name can be looked up somewhere else (in another process's tables)
/// before the positions are valued ([`OptionBatch::values`]).
///
/// Valuing a position needs every component of every option: gathering
/// them for a batch lets a partitioned build ask each owner once per batch
/// instead of once per lookup.
#[derive(Clone, Debug, Default)]
pub struct OptionBatch {
    positions: Vec<u64>,
    /// Per position: the end of its options in `options`.
    ends: Vec<u32>,
    /// Per option: the XOR of its known components, and the end of its
    /// components in `keys`.
    options: Vec<(u32, u32)>,
    keys: Vec<u64>,
}

impl OptionBatch {
    /// An empty batch.
    #[must_use]
    pub fn new() -> OptionBatch {
        OptionBatch::default()
    }

    /// Empties the batch, keeping its buffers.
    pub fn clear(&mut self) {
        self.positions.clear();
        self.ends.clear();
        self.options.clear();
        self.keys.clear();
    }

    /// Adds a position and gathers its options.
    ///
    /// # Panics
    ///
    /// When the batch outgrows `u32` indices (4 billion options or keys):
    /// batches are meant to be thousands of positions.
    pub fn push<G: TierGame>(&mut self, game: &G, position: u64) {
        let OptionBatch {
            positions,
            ends,
            options,
            keys,
        } = self;
        positions.push(position);
        game.for_each_option(position, |known, components| {
            keys.extend_from_slice(components);
            options.push((
                known.value(),
                u32::try_from(keys.len()).expect("a batch of under 2^32 keys"),
            ));
        });
        ends.push(u32::try_from(options.len()).expect("a batch of under 2^32 options"));
    }

    /// The positions, in the order they were pushed.
    #[must_use]
    pub fn positions(&self) -> &[u64] {
        &self.positions
    }

    /// Every component the options name (with repeats), to be looked up.
    #[must_use]
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// Bytes the batch's buffers hold.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.positions.capacity() * 8
            + self.ends.capacity() * 4
            + self.options.capacity() * 8
            + self.keys.capacity() * 8
    }

    /// The value of every position, in order: the mex over its options of
    /// the XOR of the option's known value and its components' values,
    /// each from `lookup`.
    ///
    /// # Errors
    ///
    /// [`TierError::MissingChild`] when `lookup` knows a component not,
    /// [`TierError::ValueTooLarge`] past [`MAX_VALUE`].
    pub fn values<L: FnMut(u64) -> Option<u32>>(
        &self,
        tier: Tier,
        mut lookup: L,
    ) -> Result<Vec<u32>, TierError> {
        let mut seen = ValueSet::default();
        let mut out = Vec::with_capacity(self.positions.len());
        let (mut option, mut key) = (0usize, 0usize);
        for (&position, &end) in self.positions.iter().zip(&self.ends) {
            seen.clear();
            for &(known, keys_end) in &self.options[option..end as usize] {
                let mut value = known;
                for &child in &self.keys[key..keys_end as usize] {
                    value ^= lookup(child).ok_or(TierError::MissingChild {
                        tier,
                        position,
                        child,
                    })?;
                }
                key = keys_end as usize;
                seen.insert(value);
            }
            option = end as usize;
            let value = seen.mex();
            if value > MAX_VALUE {
                return Err(TierError::ValueTooLarge { tier, value });
            }
            out.push(value);
        }
        Ok(out)
    }
}

/// Per-worker buffers of [`value_of`].
#[derive(Default)]
struct Scratch {
    /// Per option: the XOR of its known components, and the end of its
    /// components in `keys`.
    options: Vec<(u32, usize)>,
    /// Components to look up, with their tables' index in `earlier` and
    /// home slot once resolved.
    keys: Vec<u64>,
    homes: Vec<(u32, usize)>,
    seen: ValueSet,
}

/// The value of one position: the mex over its options. The options'
/// components are gathered first and their home slots read in one pass
/// before any is compared: the reads are independent, so their cache
/// misses overlap instead of waiting one after another.
fn value_of<G, S>(
    game: &G,
    tier: Tier,
    position: u64,
    earlier: &[Option<&TierTable<S>>],
    scratch: &mut Scratch,
) -> Result<u32, TierError>
where
    G: TierGame,
    S: AsRef<[u64]>,
{
    let Scratch {
        options,
        keys,
        homes,
        seen,
    } = scratch;
    options.clear();
    keys.clear();
    homes.clear();
    seen.clear();
    // An option with no component to look up (most of them, in small
    // boxes) goes straight into the set; only the others wait for pass 2.
    game.for_each_option(position, |known, components| {
        if components.is_empty() {
            seen.insert(known.value());
        } else {
            keys.extend_from_slice(components);
            options.push((known.value(), keys.len()));
        }
    });
    let missing = |child: u64| TierError::MissingChild {
        tier,
        position,
        child,
    };
    // Pass 1: each key's table and home slot, and a touch of that slot.
    let mut touched = 0u64;
    for &key in keys.iter() {
        let t = game.tier_of(key);
        let table = earlier
            .get(t as usize)
            .copied()
            .flatten()
            .ok_or_else(|| missing(key))?;
        let at = home(mix(key), table.capacity) as usize;
        touched ^= table.slots.as_ref().get(at).copied().unwrap_or(0);
        homes.push((t, at));
    }
    std::hint::black_box(touched);
    // Pass 2: the probes, now mostly cache hits.
    let mut first = 0;
    for &(known, end) in options.iter() {
        let mut value = known;
        for i in first..end {
            let (t, at) = homes[i];
            let table = earlier[t as usize].expect("resolved in pass 1");
            value ^= table.probe(keys[i], at).ok_or_else(|| missing(keys[i]))?;
        }
        first = end;
        seen.insert(value);
    }
    let value = seen.mex();
    if value > MAX_VALUE {
        return Err(TierError::ValueTooLarge { tier, value });
    }
    Ok(value)
}

/// A set of option values for the mex, cleared cheaply between positions
/// (only the words written are zeroed). Values past [`MAX_VALUE`] are kept
/// as "too large" so the mex stays exact up to the slot's range.
#[derive(Default)]
struct ValueSet {
    words: Vec<u64>,
    dirty: usize,
}

// Inlined: `insert` runs once per option, and as a call it cost 5% of a
// build's instructions (callgrind, the 5 x 5 box).
impl ValueSet {
    #[inline]
    fn clear(&mut self) {
        self.words[..self.dirty].fill(0);
        self.dirty = 0;
    }

    #[inline]
    fn insert(&mut self, value: u32) {
        let word = (value / 64) as usize;
        if word >= self.words.len() {
            self.words.resize(word + 1, 0);
        }
        self.words[word] |= 1 << (value % 64);
        self.dirty = self.dirty.max(word + 1);
    }

    fn mex(&self) -> u32 {
        for (i, &w) in self.words[..self.dirty].iter().enumerate() {
            if w != u64::MAX {
                return i as u32 * 64 + w.trailing_ones();
            }
        }
        self.dirty as u32 * 64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unmix_inverts_mix() {
        for key in [1u64, 2, 3, 0xdead_beef, MAX_KEY, 1 << 40, 12345678901] {
            assert_eq!(unmix(mix(key)), key);
        }
        assert_eq!(MIX.wrapping_mul(MIX_INVERSE), 1);
    }

    #[test]
    fn table_finds_every_key_and_no_other() {
        let keys: Vec<u64> = (1..5000u64).map(|k| k * 7919 % 100_003 + 1).collect();
        let table = TierTable::from_keys(keys.clone()).unwrap();
        assert_eq!(table.positions(), keys.len() as u64);
        for &k in &keys {
            assert_eq!(table.get(k), Some(Nimber::ZERO));
        }
        let present: std::collections::HashSet<u64> = keys.iter().copied().collect();
        for k in 1..120_000u64 {
            if !present.contains(&k) {
                assert_eq!(table.get(k), None, "{k}");
            }
        }
        assert_eq!(*table.slots().last().unwrap(), 0);
    }

    #[test]
    fn layout_does_not_depend_on_key_order() {
        let keys: Vec<u64> = (1..3000u64).map(|k| k * 104_729).collect();
        let mut reversed = keys.clone();
        reversed.reverse();
        let a = TierTable::from_keys(keys).unwrap();
        let b = TierTable::from_keys(reversed).unwrap();
        assert_eq!(a.slots(), b.slots());
    }

    #[test]
    fn bad_keys_are_refused() {
        assert_eq!(
            TierTable::from_keys(vec![0]).unwrap_err(),
            TierError::BadKey { key: 0 }
        );
        assert!(TierTable::from_keys(vec![MAX_KEY + 1]).is_err());
    }

    /// Subtraction game "take 1, 2 or 3" with heaps as tiers: value n mod 4.
    struct Take123 {
        heaps: u32,
    }

    impl TierGame for Take123 {
        fn tiers(&self) -> Vec<Tier> {
            (1..=self.heaps).collect()
        }
        fn tier_of(&self, position: u64) -> Tier {
            position as Tier
        }
        fn parent_tier(&self, tier: Tier) -> Option<Tier> {
            (tier > 1).then(|| tier - 1)
        }
        fn generate<E: FnMut(u64)>(&self, tier: Tier, _parent: Option<u64>, mut emit: E) {
            emit(u64::from(tier));
        }
        fn for_each_option<F: FnMut(Nimber, &[u64])>(&self, position: u64, mut option: F) {
            for take in 1..=3.min(position) {
                if position == take {
                    option(Nimber::ZERO, &[]);
                } else {
                    option(Nimber::ZERO, &[position - take]);
                }
            }
        }
    }

    #[test]
    fn solves_a_subtraction_game() {
        let game = Take123 { heaps: 40 };
        let control = TierControl::new();
        let mut tables: Vec<TierTable> = Vec::new();
        for tier in game.tiers() {
            let parent = game.parent_tier(tier).map(|t| &tables[t as usize - 1]);
            let mut table = generate_tier(&game, tier, parent, &control).unwrap();
            let earlier: Vec<Option<&TierTable>> = std::iter::once(None)
                .chain(tables.iter().map(Some))
                .collect();
            solve_tier(&game, tier, &mut table, &earlier, &control).unwrap();
            tables.push(table);
        }
        for n in 1..=40u64 {
            assert_eq!(
                tables[n as usize - 1].get(n),
                Some(Nimber::new((n % 4) as u32))
            );
        }
    }

    #[test]
    fn from_entries_lays_out_as_from_keys() {
        let keys: Vec<u64> = (1..4000u64)
            .map(|k| k * 2_654_435_761 % 1_000_003 + 1)
            .collect();
        let by_keys = TierTable::from_keys(keys.clone()).unwrap();
        let mut entries: Vec<u64> = keys
            .iter()
            .rev()
            .map(|&k| k << VALUE_BITS | (k % 7))
            .collect();
        entries.rotate_left(1234);
        let by_entries = TierTable::from_entries(entries).unwrap();
        for (a, b) in by_keys.slots().iter().zip(by_entries.slots()) {
            assert_eq!(a >> VALUE_BITS, b >> VALUE_BITS);
            if *b != 0 {
                assert_eq!(b & u64::from(MAX_VALUE), (b >> VALUE_BITS) % 7);
            }
        }
        assert_eq!(by_keys.slots().len(), by_entries.slots().len());
        assert!(TierTable::from_entries(vec![5]).is_err());
    }

    #[test]
    fn owners_spread_keys_evenly() {
        for parts in [1u32, 2, 3, 7] {
            let mut counts = vec![0u32; parts as usize];
            for key in 1..=30_000u64 {
                counts[owner(key, parts) as usize] += 1;
            }
            let even = 30_000 / parts;
            for &c in &counts {
                assert!(c.abs_diff(even) < even / 10 + 50, "{parts}: {counts:?}");
            }
        }
    }

    /// Valuing by batches, with lookups in other tables, gives what the
    /// tier solver stored, position by position.
    #[test]
    fn option_batches_value_as_solve_tier() {
        let game = Take123 { heaps: 30 };
        let mut tables: Vec<TierTable> = Vec::new();
        solve_tiers::<_, TierError, _>(&game, &mut tables, &TierControl::new(), |_, _| Ok(()))
            .unwrap();
        for (i, table) in tables.iter().enumerate() {
            let mut batch = OptionBatch::new();
            for (key, _) in table.iter() {
                batch.push(&game, key);
            }
            let values = batch
                .values(i as Tier + 1, |child| {
                    tables[child as usize - 1].get(child).map(Nimber::value)
                })
                .unwrap();
            let solved: Vec<u32> = table.iter().map(|(_, v)| v.value()).collect();
            assert_eq!(values, solved);
            assert_eq!(batch.positions().len(), 1);
        }
        let mut batch = OptionBatch::new();
        batch.push(&game, 9);
        assert!(matches!(
            batch.values(9, |_| None),
            Err(TierError::MissingChild { .. })
        ));
    }

    #[test]
    fn value_set_mex() {
        let mut s = ValueSet::default();
        s.clear();
        assert_eq!(s.mex(), 0);
        for v in [0, 1, 2, 5] {
            s.insert(v);
        }
        assert_eq!(s.mex(), 3);
        s.clear();
        assert_eq!(s.mex(), 0);
        for v in 0..200 {
            s.insert(v);
        }
        assert_eq!(s.mex(), 200);
    }
}
