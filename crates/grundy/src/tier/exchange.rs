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

use rayon::prelude::*;

use super::distribution::Distribution;
use super::partition::{owner, OptionBatch};
use super::schedule::{BuildError, Loop};
use super::store::TierStore;
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

impl<G, S, D> Loop<'_, G, S, D>
where
    G: TierGame,
    S: TierStore,
    D: Distribution,
{
    pub(super) fn replica_bytes(&self) -> u64 {
        self.replicas
            .iter()
            .flatten()
            .map(|t| t.slots().len() as u64 * 8)
            .sum()
    }

    /// Whether to replicate a tier of `positions` positions: agreed by all.
    pub(super) fn should_replicate(&self, positions: u64) -> bool {
        if self.parts == 1 || !self.replicate_more {
            return false;
        }
        match self.config.exchange {
            Exchange::Replicate => true,
            Exchange::Query => false,
            Exchange::Auto => {
                let need = self.replica_bytes() + table_bytes(positions);
                self.min(u64::from(need <= self.config.replica_budget)) == 1
            }
        }
    }

    /// Gathers every part's positions of tier `t` on every part.
    pub(super) fn replicate(
        &mut self,
        t: usize,
        mine: Vec<u64>,
    ) -> Result<(), BuildError<S::Error>> {
        let send = vec![mine; self.parts as usize];
        let all = self.dist.exchange_words(&send).concat();
        let table = TierTable::from_entries(all).map_err(BuildError::Tier);
        let table = self.agree(table)?;
        self.replicas[t] = Some(table);
        Ok(())
    }

    /// Replicates tier `t` (its entries, from `entries`) if the values
    /// source says so; once a tier is not, no later one is.
    pub(super) fn maybe_replicate(
        &mut self,
        t: usize,
        positions: u64,
        entries: impl FnOnce() -> Vec<u64>,
    ) -> Result<bool, BuildError<S::Error>> {
        if self.should_replicate(positions) {
            self.replicate(t, entries())?;
            Ok(true)
        } else {
            self.replicate_more = false;
            Ok(false)
        }
    }

    /// One round of a queried tier: the positions in `range` of `table`.
    pub(super) fn query_round(
        &self,
        t: usize,
        table: &mut TierTable,
        range: std::ops::Range<usize>,
    ) -> Result<(), BuildError<S::Error>> {
        let tier = t as Tier;
        let (game, me, parts) = (self.game, self.me, self.parts);
        let (own, replicas) = (&self.own, &self.replicas);
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
                if full(game.tier_of(key) as usize).is_some() {
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
                        own.get(game.tier_of(k) as usize)
                            .and_then(|v| v.value(k))
                            .map_or(u16::MAX, |v| v as u16)
                    })
                    .collect()
            })
            .collect();
        let replies = self.dist.exchange_values(&answers);
        // The answers as one static hash table for the round: a lookup is a
        // cache line or two, where a binary search of the sorted requests
        // cost a chain of dependent misses (3x slower tiers, measured).
        let answered: Vec<u64> = requests
            .iter()
            .zip(&replies)
            .flat_map(|(keys, values)| keys.iter().zip(values))
            .filter(|&(_, &v)| v != u16::MAX)
            .map(|(&k, &v)| slot(k, u32::from(v)))
            .collect();
        let answered = TierTable::from_entries(answered)?;
        let answered = &answered;
        let lookup = |key: u64| -> Option<u32> {
            let kt = game.tier_of(key) as usize;
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
        table.set_values(tier, range, &values?.concat())?;
        Ok(())
    }
}
