//! What `grundy tables verify` and `merge` do, as library code the CLI
//! (and any other front-end) calls and prints.
//!
//! **Checks beyond checksums.** A checksum cannot tell a value that was
//! wrong when written, so the values are re-solved by an independent
//! method, the top-down search ([`Clear`] with its own small tables and no
//! database): the full boards of the box ([`full_boards`]), random shapes
//! ([`samples`]), or every shape of some tiers ([`tiers`]). The
//! [`census`] checks that the box holds every shape exactly once: the
//! placements of its shapes in the box's grid must add up to the grid's
//! connected cell sets, counted independently by a transfer matrix
//! ([`grundy::clear::census::connected_sets`]).
//!
//! **Cost.** Each re-solved shape is a search bounded by a position
//! budget; a shape over it is counted as skipped, never as checked. The
//! census and [`tiers`] run on rayon's threads; a worker keeps one solver
//! (its memo serves the next shapes) until it runs out of budget.
//!
//! **Merging.** [`merge`] writes the parts of a partitioned database as
//! one whole file, through [`Writer`], so the output is as atomic as a
//! build's.

use std::borrow::Cow;
use std::path::Path;

use grundy::clear::shapes::ShapeBox;
use grundy::clear::Clear;
use grundy::tier::{CompactError, CompactTier, Entry, Tier};
use grundy::{Budget, Nimber, SolveError, Solver};
use rayon::prelude::*;

use crate::{DbError, DbSet, Header, Writer};

/// A stored value the check found wrong, or a shape that cannot be one.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CheckError {
    /// The database cannot be read (a compact tier whose shapes its
    /// lookups do not all answer: damaged or forged).
    #[error(transparent)]
    Read(#[from] DbError),
    /// A stored key has cells outside the box.
    #[error("shape {key:#x} has cells outside the {shape_box} box")]
    Outside {
        /// The key.
        key: u64,
        /// The box.
        shape_box: ShapeBox,
    },
    /// A stored value disagrees with the top-down solver.
    #[error("shape {key:#x} is stored as {stored}, the top-down solver says {solved}")]
    Wrong {
        /// The key.
        key: u64,
        /// The value stored.
        stored: Nimber,
        /// The value re-solved.
        solved: Nimber,
    },
    /// A full board's stored value disagrees with the top-down solver.
    #[error(
        "the full {rows} x {cols} board is stored as {stored}, the top-down solver says {solved}"
    )]
    WrongFullBoard {
        /// Rows of the board.
        rows: usize,
        /// Columns of the board.
        cols: usize,
        /// The value stored.
        stored: Nimber,
        /// The value re-solved.
        solved: Nimber,
    },
    /// Tiers asked for that the box does not have.
    #[error("--tiers {first}-{last}: the {shape_box} box has tiers 1 to {}", shape_box.cells())]
    Tiers {
        /// The first tier asked for.
        first: Tier,
        /// The last tier asked for.
        last: Tier,
        /// The box.
        shape_box: ShapeBox,
    },
    /// The search failed otherwise than by its position budget.
    #[error(transparent)]
    Solve(#[from] SolveError),
}

/// The full boards of a box (`a x b`, `a <= b`, that fit it).
pub fn full_board_sizes(shape_box: ShapeBox) -> impl Iterator<Item = (usize, usize)> {
    (1..=shape_box.rows())
        .flat_map(move |a| (a..=shape_box.cols()).map(move |b| (a, b)))
        .filter(move |&(a, b)| shape_box.fits(a, b))
}

/// The outcome of [`census`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Census {
    /// Placements of the stored shapes in the box's grid.
    pub placements: u64,
    /// Connected cell sets of the grid, by the transfer matrix.
    pub connected_sets: u128,
}

impl Census {
    /// True when the box holds every shape once.
    #[must_use]
    pub fn holds(&self) -> bool {
        u128::from(self.placements) == self.connected_sets
    }
}

/// Counts the placements of every stored shape in the box's grid, against
/// the grid's connected cell sets (see the module doc).
///
/// # Errors
///
/// [`DbError::Corrupt`] for a compact tier whose shapes do not all answer
/// ([`tier_entries`]).
pub fn census(set: &DbSet) -> Result<Census, DbError> {
    let shape_box = set.shape_box();
    let (rows, cols) = (shape_box.rows(), shape_box.cols());
    let entries = tier_entries(set)?;
    let placements: u64 = entries
        .par_iter()
        .flat_map(|(_, t)| t.par_chunks(1 << 16))
        .map(|chunk| {
            chunk
                .iter()
                .filter_map(|&word| Entry::from_word(word))
                .map(|e| shape_box.placements(e.key(), rows, cols))
                .sum::<u64>()
        })
        .sum();
    Ok(Census {
        placements,
        connected_sets: grundy::clear::census::connected_sets(rows, cols),
    })
}

/// Lists of entries with their tier, from [`tier_entries`].
pub type TierEntries<'a> = Vec<(Tier, Cow<'a, [u64]>)>;

/// Every tier's entries (as [`Entry::word`]s, 0 for an empty slot) with
/// its tier, one list a part and tier: borrowed from
/// the slots of a version-1 file, regenerated from a compact one
/// ([`DbSet::for_each_tier`], which requires every shape of the box to be
/// answered, one list a tier).
///
/// # Errors
///
/// What [`DbSet::for_each_tier`] finds wrong.
pub fn tier_entries(set: &DbSet) -> Result<TierEntries<'_>, DbError> {
    if set.version() == crate::VERSION_SLOTS {
        return Ok(Tier::all(set.shape_box().cells())
            .flat_map(|tier| {
                set.tier(tier)
                    .map(move |t| (tier, Cow::Borrowed(t.slots())))
            })
            .collect());
    }
    let mut all = Vec::new();
    set.for_each_tier(|tier, entries| {
        all.push((tier, Cow::Owned(entries.iter().map(|e| e.word()).collect())));
        Ok::<(), DbError>(())
    })?;
    Ok(all)
}

/// The outcome of [`full_boards`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FullBoards {
    /// Full boards re-solved and found equal.
    pub checked: usize,
    /// Full boards not checked: over the position budget.
    pub over_budget: Vec<(usize, usize)>,
}

/// Re-solves the full boards the database holds (as `tables info` lists
/// them) top-down, each within `positions` distinct shapes.
///
/// # Errors
///
/// [`CheckError::WrongFullBoard`] at the first disagreement;
/// [`CheckError::Solve`] for a search that fails otherwise.
pub fn full_boards(set: &DbSet, positions: u64) -> Result<FullBoards, CheckError> {
    let shape_box = set.shape_box();
    let mut outcome = FullBoards::default();
    for (rows, cols) in full_board_sizes(shape_box) {
        let Some(stored) = set.full_board(rows, cols) else {
            continue;
        };
        let board = shape_box
            .full_key(rows, cols)
            .and_then(|key| shape_box.board(key))
            .expect("a full board of the box");
        let mut solver = Solver::new(Clear::new()).with_budget(Budget::positions(positions));
        match solver.value(&board) {
            Ok(solved) if solved == stored => outcome.checked += 1,
            Ok(solved) => {
                return Err(CheckError::WrongFullBoard {
                    rows,
                    cols,
                    stored,
                    solved,
                })
            }
            Err(SolveError::PositionBudget { .. }) => outcome.over_budget.push((rows, cols)),
            Err(err) => return Err(err.into()),
        }
    }
    Ok(outcome)
}

/// Shapes re-solved and found equal, and shapes skipped (over budget).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checked {
    /// Shapes re-solved and found equal.
    pub checked: u64,
    /// Shapes not checked: over the position budget.
    pub skipped: u64,
    /// True when [`samples`] was asked for at least as many shapes as the
    /// database holds, and so checked each of them once ([`tiers`] leaves
    /// it false).
    pub every: bool,
}

/// Re-solves `count` distinct random shapes top-down (a tier weighted by
/// its shapes, then a random occupied slot of it, drawn again when it was
/// drawn before; `seed` fixes the choice), or every shape once when the
/// database holds no more than `count`, each with a fresh solver within
/// `positions` distinct shapes.
///
/// # Errors
///
/// [`CheckError::Wrong`] or [`CheckError::Outside`] at the first bad
/// shape; [`CheckError::Solve`] for a search that fails otherwise.
pub fn samples(set: &DbSet, count: u64, seed: u64, positions: u64) -> Result<Checked, CheckError> {
    use rand::{RngExt as _, SeedableRng as _};
    let shape_box = set.shape_box();
    let entries = tier_entries(set)?;
    let tables: Vec<(u64, &[u64])> = entries
        .iter()
        .map(|(_, e)| (e.iter().filter(|&&s| s != 0).count() as u64, &**e))
        .collect();
    let total: u64 = tables.iter().map(|t| t.0).sum();
    let mut outcome = Checked::default();
    if total == 0 {
        return Ok(outcome);
    }
    // Distinct shapes: `count` of them, or every one when the database
    // holds no more (a count past it would only check shapes again).
    let wanted = count.min(total);
    let mut picked: Vec<Entry> = if wanted == total {
        tables
            .iter()
            .flat_map(|t| t.1.iter().filter_map(|&w| Entry::from_word(w)))
            .collect()
    } else {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut seen = std::collections::HashSet::new();
        let mut picked = Vec::new();
        while (picked.len() as u64) < wanted {
            let mut pick = rng.random_range(0..total);
            let tier = tables
                .iter()
                .find(|t| {
                    if pick < t.0 {
                        true
                    } else {
                        pick -= t.0;
                        false
                    }
                })
                .expect("pick < total");
            let slots = tier.1;
            let entry = loop {
                if let Some(entry) = Entry::from_word(slots[rng.random_range(0..slots.len())]) {
                    break entry;
                }
            };
            if seen.insert(entry.key()) {
                picked.push(entry);
            }
        }
        picked
    };
    outcome.every = wanted == total;
    for entry in picked.drain(..) {
        let (key, stored) = (entry.key(), entry.value());
        let Some(board) = shape_box.board(key) else {
            return Err(CheckError::Outside { key, shape_box });
        };
        // A fresh solver per sample keeps memory to one sample's budget.
        let mut solver = Solver::new(Clear::new()).with_budget(Budget::positions(positions));
        match solver.value(&board) {
            Ok(solved) if solved == stored => outcome.checked += 1,
            Ok(solved) => {
                return Err(CheckError::Wrong {
                    key,
                    stored,
                    solved,
                })
            }
            Err(SolveError::PositionBudget { .. }) => outcome.skipped += 1,
            Err(err) => return Err(err.into()),
        }
    }
    Ok(outcome)
}

/// Re-solves every shape of tiers `first..=last` top-down. Each worker
/// keeps one solver (its memo serves the next shapes) until it has solved
/// `positions` components, then starts a fresh one, so memory stays
/// bounded; a shape over the budget even alone is counted as skipped.
///
/// # Errors
///
/// [`CheckError::Tiers`] for tiers the box lacks; [`CheckError::Wrong`] or
/// [`CheckError::Outside`] for a bad shape.
pub fn tiers(set: &DbSet, first: Tier, last: Tier, positions: u64) -> Result<Checked, CheckError> {
    let shape_box = set.shape_box();
    if first > last || last.index() >= shape_box.cells() {
        return Err(CheckError::Tiers {
            first,
            last,
            shape_box,
        });
    }
    #[derive(Default)]
    struct Tally {
        checked: u64,
        skipped: u64,
        bad: Option<CheckError>,
    }
    let budget = Budget::positions(positions);
    let fresh = || Solver::new(Clear::new()).with_budget(budget);
    let entries = tier_entries(set)?;
    let slots: Vec<&[u64]> = entries
        .iter()
        .filter(|(tier, _)| (first..=last).contains(tier))
        .map(|(_, e)| &**e)
        .collect();
    let tally = slots
        .par_iter()
        .flat_map(|s| s.par_chunks(1 << 12))
        .fold(
            || (fresh(), Tally::default()),
            |(mut solver, mut tally), chunk| {
                for entry in chunk.iter().filter_map(|&word| Entry::from_word(word)) {
                    if tally.bad.is_some() {
                        break;
                    }
                    let (key, stored) = (entry.key(), entry.value());
                    let Some(board) = shape_box.board(key) else {
                        tally.bad = Some(CheckError::Outside { key, shape_box });
                        break;
                    };
                    let mut value = solver.value(&board);
                    if matches!(value, Err(SolveError::PositionBudget { .. })) {
                        solver = fresh();
                        value = solver.value(&board);
                    }
                    match value {
                        Ok(solved) if solved == stored => tally.checked += 1,
                        Ok(solved) => {
                            tally.bad = Some(CheckError::Wrong {
                                key,
                                stored,
                                solved,
                            });
                        }
                        Err(_) => {
                            tally.skipped += 1;
                            solver = fresh();
                        }
                    }
                }
                (solver, tally)
            },
        )
        .map(|(_, tally)| tally)
        .reduce(Tally::default, |a, b| Tally {
            checked: a.checked + b.checked,
            skipped: a.skipped + b.skipped,
            bad: a.bad.or(b.bad),
        });
    match tally.bad {
        Some(bad) => Err(bad),
        None => Ok(Checked {
            checked: tally.checked,
            skipped: tally.skipped,
            every: false,
        }),
    }
}

/// Why a merge failed: the output could not be started, or written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MergeError {
    /// The output cannot be created (a path the user gave).
    #[error(transparent)]
    Create(DbError),
    /// Writing the output failed.
    #[error(transparent)]
    Write(DbError),
    /// The parts cannot be read (a compact part whose shapes its lookups
    /// do not all answer).
    #[error(transparent)]
    Read(DbError),
    /// A tier's entries do not make a compact tier (a database this crate
    /// did not write).
    #[error("tier {tier}: {error}")]
    Tier {
        /// The tier.
        tier: Tier,
        /// What is wrong.
        error: CompactError,
    },
}

/// Writes every shape of `set` (one whole file or all the parts of a
/// partitioned build, either format version) into a fresh whole database
/// at `out`, in the compact format: the bytes a single build writes. A merge never
/// resumes a partial file, and never touches one a running build holds.
///
/// # Errors
///
/// [`MergeError::Create`] when `out` cannot be created (or is busy),
/// [`MergeError::Write`] when writing fails (a full disk among them).
pub fn merge(set: &DbSet, out: &Path) -> Result<Header, MergeError> {
    let shape_box = set.shape_box();
    let lists = tier_entries(set).map_err(MergeError::Read)?;
    let mut writer = Writer::create_compact(out, shape_box).map_err(MergeError::Create)?;
    for tier in Tier::all(shape_box.cells()) {
        let entries: Vec<Entry> = lists
            .iter()
            .filter(|(t, _)| *t == tier)
            .flat_map(|(_, e)| e.iter().filter_map(|&word| Entry::from_word(word)))
            .collect();
        let bytes = CompactTier::build_from_entries(&entries)
            .map_err(|error| MergeError::Tier { tier, error })?;
        writer.append_compact(&bytes).map_err(MergeError::Write)?;
    }
    writer.finish().map_err(MergeError::Write)
}

#[cfg(test)]
mod tests {
    use super::*;
    use grundy::clear::shapes::ClearShapes;
    use grundy::tier::Tier;
    use grundy::tier::{solve_tiers, TierControl, TierError};

    /// A database in format version 1 (8-byte slots, as the parts of a
    /// partitioned build are written).
    fn build_v1(path: &Path, shape_box: ShapeBox) {
        let mut writer = Writer::create(path, shape_box).unwrap();
        let mut tables = Vec::new();
        solve_tiers::<_, TierError, _>(
            &ClearShapes::new(shape_box),
            &mut tables,
            &TierControl::new(),
            |_, t| {
                writer.append(t).unwrap();
                Ok(())
            },
        )
        .unwrap();
        writer.finish().unwrap();
    }

    /// A sound database, in either format version, passes every check,
    /// and a merge of it reads back with the same content, in the bytes of
    /// a single build.
    #[test]
    fn a_sound_database_passes_and_merges_to_the_same_content() {
        let dir = tempfile::tempdir().unwrap();
        let shape_box = ShapeBox::new(3, 4).unwrap();
        let v1 = dir.path().join("3x4-v1.gdb");
        build_v1(&v1, shape_box);
        let v2 = dir.path().join("3x4.gdb");
        crate::build(&v2, shape_box, &TierControl::new(), |_| {}).unwrap();
        for path in [v1, v2.clone()] {
            sound(&path, shape_box, &v2);
        }
    }

    fn sound(path: &Path, shape_box: ShapeBox, single: &Path) {
        let dir = tempfile::tempdir().unwrap();
        let set = DbSet::open(path).unwrap();
        assert!(census(&set).unwrap().holds());
        let full = full_boards(&set, 1_000_000).unwrap();
        assert_eq!(full.checked, full_board_sizes(shape_box).count());
        let sampled = samples(&set, 50, 7, 100_000).unwrap();
        assert_eq!(
            sampled,
            Checked {
                checked: 50,
                skipped: 0,
                every: false,
            }
        );
        let all = tiers(&set, Tier::FIRST, Tier::new(11), 1_000_000).unwrap();
        let shapes: u64 = Tier::all(12).map(|t| set.positions(t)).sum();
        assert_eq!(
            all,
            Checked {
                checked: shapes,
                skipped: 0,
                every: false,
            }
        );
        // Past the shapes, each once.
        let each = samples(&set, u64::MAX, 7, 1_000_000).unwrap();
        assert_eq!(
            each,
            Checked {
                checked: shapes,
                skipped: 0,
                every: true,
            }
        );
        assert!(matches!(
            tiers(&set, Tier::new(2), Tier::new(12), 10),
            Err(CheckError::Tiers { .. })
        ));

        let out = dir.path().join("merged.gdb");
        let header = merge(&set, &out).unwrap();
        assert!(header.complete);
        assert_eq!(
            DbSet::open(&out).unwrap().content_crc().unwrap(),
            set.content_crc().unwrap()
        );
        assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(single).unwrap());
        assert!(matches!(
            merge(&set, &dir.path().join("no/such/dir.gdb")),
            Err(MergeError::Create(_))
        ));
    }
}
