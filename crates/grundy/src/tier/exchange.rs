//! Where a part gets the values of earlier tiers (the values source of the
//! build loop): its own tiers when it is the only part; tiers replicated on
//! every part while they fit a budget ([`Exchange`]); else queries to the
//! owners, a batch of options at a time, in two all-to-all exchanges (the
//! keys asked, sorted and de-duplicated, then their values).
//!
//! **Cost.** Replicating a tier moves every entry to every part once; a
//! queried round moves each distinct remote key of its batch there and a
//! 16-bit value back. Lower tiers are small and asked for most, so
//! [`Exchange::Auto`] replicates them and queries only the big top tiers.
//!
//! The build loop sees this as the third seam beside [`TierStore`] and
//! [`Distribution`]: a `ValueExchange` holds the replicas and answers a
//! round's lookups; the loop only asks it and agrees on the outcome.
//! Every method is collective where it says so: all parts call it in the
//! same order.
//!
//! [`TierStore`]: super::TierStore

use rayon::prelude::*;

use super::distribution::Distribution;
use super::partition::{owner, OptionBatch};
use super::table::{capacity_for, slot};
use super::{Tier, TierError, TierGame, TierTable, TierValues};

/// Where a part gets the values of positions other parts own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exchange {
    /// Replicate earlier tiers while they fit the replica budget, then
    /// query.
    Auto,
    /// Replicate every tier on every part.
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

/// Bytes of a table of `positions` positions.
fn table_bytes(positions: u64) -> u64 {
    capacity_for(positions)
        .map_or(u64::MAX, |c| c.saturating_add(2))
        .saturating_mul(8)
}

/// Where a part gets the values of earlier tiers it does not hold itself
/// (see the module documentation). Methods that return a local outcome
/// leave it to the caller to agree on it between the parts.
pub(super) trait ValueExchange {
    /// Whether a later tier may still be replicated (once one is not, no
    /// later one is).
    fn may_replicate(&self) -> bool;

    /// Whether to replicate a tier of `positions` positions, agreed by
    /// every part (collective); a `false` ends replication for good.
    fn should_replicate(&mut self, positions: u64) -> bool;

    /// Every part's `entries` of a tier (`key << VALUE_BITS | value`)
    /// gathered into one table (collective; the outcome is local).
    fn gather(&self, entries: Vec<u64>) -> Result<TierTable, TierError>;

    /// Holds `table` as the replica of tier `tier`.
    fn hold(&mut self, tier: usize, table: TierTable);

    /// The replica of tier `tier`, when this part holds one.
    fn replica(&self, tier: usize) -> Option<&TierTable>;

    /// Bytes of the replicas held.
    fn replica_bytes(&self) -> u64;

    /// Values the positions in `range` of `table` (tier `tier`): their
    /// options' components are read from the replicas, from `own` (this
    /// part's views of earlier tiers) when this part owns them, else asked
    /// of their owners (collective; the outcome is local).
    fn query_round<G: TierGame, V: TierValues>(
        &self,
        game: &G,
        own: &[V],
        tier: Tier,
        table: &mut TierTable,
        range: std::ops::Range<usize>,
    ) -> Result<(), TierError>;
}

/// The value exchange of a build over `D`: replicas while the mode and
/// the budget allow, then queries to the owners.
pub(super) struct PartExchange<'a, D> {
    dist: &'a D,
    me: u32,
    parts: u32,
    mode: Exchange,
    /// Bytes of replicas a part may hold ([`Exchange::Auto`]).
    budget: u64,
    /// Tiers with every position, on every part, by tier.
    replicas: Vec<Option<TierTable>>,
    replicate_more: bool,
}

impl<'a, D: Distribution> PartExchange<'a, D> {
    /// The exchange of a build of `tiers` tiers over `dist`.
    pub(super) fn new(dist: &'a D, mode: Exchange, budget: u64, tiers: usize) -> Self {
        PartExchange {
            dist,
            me: dist.part(),
            parts: dist.parts(),
            mode,
            budget,
            replicas: vec![None; tiers],
            replicate_more: true,
        }
    }
}

impl<D: Distribution> ValueExchange for PartExchange<'_, D> {
    fn may_replicate(&self) -> bool {
        self.parts > 1 && self.replicate_more
    }

    fn should_replicate(&mut self, positions: u64) -> bool {
        let replicate = self.may_replicate()
            && match self.mode {
                Exchange::Replicate => true,
                Exchange::Query => false,
                Exchange::Auto => {
                    let need = self.replica_bytes() + table_bytes(positions);
                    let fits = u64::from(need <= self.budget);
                    self.dist.all_gather(fits).into_iter().min() == Some(1)
                }
            };
        self.replicate_more = replicate;
        replicate
    }

    fn gather(&self, entries: Vec<u64>) -> Result<TierTable, TierError> {
        let send = vec![entries; self.parts as usize];
        let all = self.dist.exchange_words(&send).concat();
        TierTable::from_slot_words(all)
    }

    fn hold(&mut self, tier: usize, table: TierTable) {
        self.replicas[tier] = Some(table);
    }

    fn replica(&self, tier: usize) -> Option<&TierTable> {
        self.replicas.get(tier).and_then(Option::as_ref)
    }

    fn replica_bytes(&self) -> u64 {
        self.replicas
            .iter()
            .flatten()
            .map(|t| t.slots().len() as u64 * 8)
            .sum()
    }

    fn query_round<G: TierGame, V: TierValues>(
        &self,
        game: &G,
        own: &[V],
        tier: Tier,
        table: &mut TierTable,
        range: std::ops::Range<usize>,
    ) -> Result<(), TierError> {
        let (me, parts) = (self.me, self.parts);
        let replicas = &self.replicas;
        let full = |kt: usize| replicas.get(kt).and_then(Option::as_ref);
        let positions: Vec<u64> = table.positions_in(range.clone()).collect();
        let batches: Vec<OptionBatch> = positions
            .par_chunks(256)
            .map(|chunk| {
                let mut batch = OptionBatch::new();
                for &p in chunk {
                    batch.push(game, p);
                }
                batch
            })
            .collect();
        let mut requests = vec![Vec::new(); parts as usize];
        for batch in &batches {
            for &key in batch.keys() {
                if full(game.tier_of(key).index()).is_some() {
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
        let asked = self.dist.exchange_words(&requests);
        let answers: Vec<Vec<u16>> = asked
            .par_iter()
            .map(|keys| {
                keys.iter()
                    .map(|&k| {
                        own.get(game.tier_of(k).index())
                            .and_then(|v| v.value(k))
                            .map_or(u16::MAX, |v| v as u16)
                    })
                    .collect()
            })
            .collect();
        let replies = self.dist.exchange_values(&answers);
        // The answers as one static hash table for the round: a lookup is a
        // cache line or two, where a binary search of the sorted requests
        // costs a chain of dependent misses (tiers 3x slower, measured).
        let answered: Vec<u64> = requests
            .iter()
            .zip(&replies)
            .flat_map(|(keys, values)| keys.iter().zip(values))
            .filter(|&(_, &v)| v != u16::MAX)
            .map(|(&k, &v)| slot(k, u32::from(v)))
            .collect();
        let answered = TierTable::from_slot_words(answered)?;
        let answered = &answered;
        let lookup = |key: u64| -> Option<u32> {
            let kt = game.tier_of(key).index();
            if let Some(full) = full(kt) {
                return full.get(key).map(crate::Nimber::value);
            }
            if owner(key, parts) == me {
                return own.get(kt)?.value(key);
            }
            answered.get(key).map(crate::Nimber::value)
        };
        let values: Result<Vec<Vec<u32>>, TierError> =
            batches.par_iter().map(|b| b.values(tier, lookup)).collect();
        table.set_values(tier, range, &values?.concat())
    }
}
