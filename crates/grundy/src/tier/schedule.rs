//! Driving the tiers: every tier of a game in order, from the prefix
//! already solved (a resumed build), each handed to the caller once solved.

use super::control::TierControl;
use super::values::TierValues;
use super::worker::{generate_tier, solve_tier};
use super::{Tier, TierError, TierGame, TierTable};

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

/// As [`solve_tiers`], keeping in memory only what `done` returns for each
/// tier (a read view of what it stored, such as a
/// [`CompactTier`](super::CompactTier) of 2 bytes a position) and the last
/// solved table, whose keys generate the next tier. Peak memory is so the
/// views of the earlier tiers plus the current and parent tiers' tables
/// while a tier is generated (the parent is freed before the tier is
/// solved).
/// `stored` holds the views of the tiers a resumed build already has (a
/// prefix of [`TierGame::tiers`]); since a view may hold no keys, the keys
/// of the parent tier are then regenerated, by generation only (no values),
/// from the first tier.
///
/// # Errors
///
/// What [`generate_tier`], [`solve_tier`] or `done` return.
pub fn solve_tiers_stored<G, V, E, D>(
    game: &G,
    stored: &mut Vec<V>,
    control: &TierControl<'_>,
    mut done: D,
) -> Result<(), E>
where
    G: TierGame,
    V: TierValues,
    E: From<TierError>,
    D: FnMut(Tier, &TierTable) -> Result<V, E>,
{
    let tiers = game.tiers();
    let top = tiers.iter().max().map_or(0, |&t| t as usize);
    let mut last: Option<(Tier, TierTable)> = None;
    for (i, &tier) in tiers.iter().enumerate().skip(stored.len()) {
        let parent = match game.parent_tier(tier) {
            None => None,
            Some(p) => {
                if last.as_ref().map(|(t, _)| *t) != Some(p) {
                    if !tiers[..i].contains(&p) {
                        return Err(TierError::MissingParent { tier, parent: p }.into());
                    }
                    drop(last.take());
                    last = Some((p, regenerate(game, p, tiers.len(), control)?));
                }
                last.as_ref().map(|(_, table)| table)
            }
        };
        let mut table = generate_tier(game, tier, parent, control)?;
        // The parent's keys have served: free them before solving.
        drop(last.take());
        let mut earlier: Vec<Option<&V>> = vec![None; top + 1];
        for (&t, view) in tiers.iter().zip(stored.iter()) {
            earlier[t as usize] = Some(view);
        }
        solve_tier(game, tier, &mut table, &earlier, control)?;
        drop(earlier);
        let view = done(tier, &table)?;
        stored.push(view);
        last = Some((tier, table));
    }
    Ok(())
}

/// The positions of `tier` (values 0), generated from the first tier along
/// the chain of parents (at most `tiers` long).
fn regenerate<G: TierGame>(
    game: &G,
    tier: Tier,
    tiers: usize,
    control: &TierControl<'_>,
) -> Result<TierTable, TierError> {
    let mut chain = vec![tier];
    while let Some(p) = game.parent_tier(*chain.last().expect("not empty")) {
        if chain.len() > tiers {
            return Err(TierError::MissingParent { tier, parent: p });
        }
        chain.push(p);
    }
    let mut table: Option<TierTable> = None;
    for &t in chain.iter().rev() {
        table = Some(generate_tier(game, t, table.as_ref(), control)?);
    }
    Ok(table.expect("the chain holds `tier`"))
}
