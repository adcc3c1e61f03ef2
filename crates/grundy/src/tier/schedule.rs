//! Driving the tiers: every tier of a game in order, from the prefix
//! already solved (a resumed build), each handed to the caller once solved.

use super::control::TierControl;
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
