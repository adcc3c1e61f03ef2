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

//!
//! **Layout of the module** (after GamesmanOne's tier solver, where each
//! concern is a file of its own): [`table`] is the in-memory tier table and
//! its slot encoding; [`worker`] generates and solves one tier; [`schedule`]
//! is the one build loop (scheduling, resume, values from replicas or
//! owners), for one process, threads and ranks; [`store`] is where tiers go
//! (memory here; files in `grundy-db`); [`values`] is how the worker reads
//! earlier tiers, whatever stores them; [`distribution`] is how the parts
//! of a build talk ([`Solo`] here; threads and MPI in `grundy-dist`);
//! [`exchange`] is where a part gets earlier tiers' values (its own,
//! replicas, or queries to owners);
//! [`partition`] splits a tier between parts (owners and option batches);
//! [`hash`] names every hash the engine uses, each once;
//! [`control`] holds the budgets and progress hooks every loop checks.

use std::fmt;
use std::time::Duration;

use crate::Nimber;

pub mod compact;
pub mod control;
pub mod distribution;
pub mod exchange;
pub mod hash;
pub mod lines;
pub mod partition;
pub mod schedule;
pub mod store;
pub mod table;
pub mod values;
pub mod worker;

/// The most worker threads a build takes: four times the hardware threads
/// of a large two-socket server. More only slows a build down, and a count
/// mistyped by a few digits would start that many threads, each with its
/// stack, before any work (a million never finished starting).
pub const MAX_THREADS: usize = 1024;

pub use compact::{CompactError, CompactTier};
pub use control::{TierControl, TierProgress};
pub use distribution::{Distribution, PartStop, Solo};
pub use lines::LineTier;
pub use partition::{owner, OptionBatch};
pub use schedule::{build, solve_tiers, BuildConfig, BuildError, Built, Exchange, TierReport};
pub use store::{MemoryStore, TierStore};
pub use table::{capacity_for, Entry, TierTable};
pub use values::TierValues;
pub use worker::{generate_keys, generate_tier, solve_slots, solve_tier};

/// A tier: an index `0..tier_count()` of [`TierGame`], in solving order,
/// the engine's one numbering (per-tier arrays, files' directories, every
/// crate's API). It is shown as the index plus one ([`fmt::Display`]), the
/// project's 1-based convention for people; for rectangle clearing that is
/// the shapes' cell count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Tier(u32);

impl Tier {
    /// The first tier solved.
    pub const FIRST: Tier = Tier(0);

    /// Tier `index` (0-based).
    #[must_use]
    pub const fn new(index: u32) -> Self {
        Tier(index)
    }

    /// Tier `index` (0-based) of a per-tier array.
    ///
    /// # Panics
    ///
    /// When `index` does not fit 32 bits: no game has that many tiers.
    #[must_use]
    pub fn at(index: usize) -> Self {
        Tier(u32::try_from(index).expect("a tier index fits 32 bits"))
    }

    /// The tier shown as `number` to people (1-based), `None` for 0.
    #[must_use]
    pub const fn from_number(number: u32) -> Option<Self> {
        match number.checked_sub(1) {
            Some(index) => Some(Tier(index)),
            None => None,
        }
    }

    /// The 0-based index, as stored in files.
    #[must_use]
    pub const fn get(self) -> u32 {
        self.0
    }

    /// The 0-based index into a per-tier array.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The tier before this one, `None` for the first.
    #[must_use]
    pub const fn previous(self) -> Option<Self> {
        Tier::from_number(self.0)
    }

    /// The 1-based number people see.
    #[must_use]
    pub const fn number(self) -> u32 {
        self.0 + 1
    }

    /// The tiers `0..count`, in solving order.
    pub fn all(count: usize) -> impl DoubleEndedIterator<Item = Tier> + ExactSizeIterator {
        (0..count).map(Tier::at)
    }
}

impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Through u32's formatting, so widths and alignment apply.
        fmt::Display::fmt(&self.number(), f)
    }
}

/// Bits of a slot that hold the value.
pub const VALUE_BITS: u32 = 12;
/// The largest value a [`TierTable`] stores.
pub const MAX_VALUE: u32 = (1 << VALUE_BITS) - 1;
/// The largest position key a [`TierTable`] stores (52 bits).
pub const MAX_KEY: u64 = (1 << (64 - VALUE_BITS)) - 1;

/// A game's name and parameters, as a database header records them: a file
/// written for one game (or box) is refused by another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameId {
    /// The game's name, ASCII, padded with zero bytes (`clear`).
    pub name: [u8; 8],
    /// The game's parameters (for clearing: the box's rows and columns).
    pub params: [u32; 2],
}

impl GameId {
    /// The id of game `name` (at most 8 bytes, cut past that) with
    /// `params`.
    #[must_use]
    pub fn new(name: &str, params: [u32; 2]) -> GameId {
        let mut bytes = [0u8; 8];
        for (b, c) in bytes.iter_mut().zip(name.bytes()) {
            *b = c;
        }
        GameId {
            name: bytes,
            params,
        }
    }

    /// The name, without its padding.
    #[must_use]
    pub fn name(&self) -> String {
        let end = self.name.iter().position(|&b| b == 0).unwrap_or(8);
        String::from_utf8_lossy(&self.name[..end]).into_owned()
    }
}

impl std::fmt::Display for GameId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {} x {}", self.name(), self.params[0], self.params[1])
    }
}

/// A game solved bottom-up by tiers. Positions are keys of at most 52 bits
/// ([`MAX_KEY`]), never 0, in a canonical form chosen by the game.
///
/// **Tier numbering** (the one convention of the engine and of every
/// front-end): tiers are the indices `0..tier_count()`, in solving order;
/// the engine's per-tier arrays (stored tiers, replicas, a file's
/// directory) are indexed by them. Text shows tier `t` as `t + 1` (of
/// `tier_count()`), the project's 1-based convention for people.
pub trait TierGame: Sync {
    /// The game and its parameters, for a database header.
    fn id(&self) -> GameId;

    /// How many tiers: they are `0..tier_count()`, in solving order, and
    /// options of a position lead only to positions of earlier tiers.
    fn tier_count(&self) -> usize;

    /// The tier of a position (below [`TierGame::tier_count`]).
    fn tier_of(&self, position: u64) -> Tier;

    /// The earlier tier whose positions generate `tier`'s
    /// ([`TierGame::generate`]), or `None` when `tier`'s positions come
    /// from nothing.
    fn parent_tier(&self, tier: Tier) -> Option<Tier>;

    /// Calls `emit` with positions of `tier` generated from `parent` (a
    /// position of [`TierGame::parent_tier`], or `None`). Over all parents
    /// every canonical position of the tier is emitted exactly once.
    fn generate<E: FnMut(u64)>(&self, tier: Tier, parent: Option<u64>, emit: E);

    /// Calls `option` once per move of `position` with the XOR of the values
    /// of the components the game knows itself, and the components (earlier
    /// tiers' positions) whose values the solver must look up.
    fn for_each_option<F: FnMut(Nimber, &[u64])>(&self, position: u64, option: F);

    /// Where `position` comes in the order a tier's positions are valued
    /// in (ties in any order): positions close in this order should share
    /// many of their options' components, whose reads of earlier tiers then
    /// hit the cache. Only speed depends on it. Orders compare the words'
    /// highest bits first, and a large tier's only its top 40 or so. The
    /// default is the key's bits reversed, so its lowest bits weigh most.
    #[inline]
    fn solve_order(&self, position: u64) -> u64 {
        position.reverse_bits()
    }
}

/// Why a tier build stopped.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TierError {
    /// The time budget ran out.
    #[error("gave up after {} (the time budget)", crate::solver::seconds_in_words(*limit))]
    TimeBudget {
        /// The budget that was reached.
        limit: Duration,
    },
    /// Stopped from outside (for example on Ctrl-C).
    #[error("stopped on request")]
    Cancelled,
    /// The memory budget ran out: the front-end's measure of the memory
    /// (the process's resident memory, for the command line) passed it.
    #[error(
        "gave up at the memory budget of {}: the build's memory reached, or with its next allocation would reach, {}",
        crate::solver::bytes_apart(*limit, *used).0,
        crate::solver::bytes_apart(*limit, *used).1
    )]
    MemoryBudget {
        /// The budget, bytes.
        limit: u64,
        /// What was measured past it, or measured with an allocation about
        /// to be made, bytes.
        used: u64,
    },
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

#[cfg(test)]
mod tests;
