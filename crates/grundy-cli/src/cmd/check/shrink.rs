//! Shrinking a failing case: greedy delta debugging over the problem's
//! one-step reductions ([`Case::edits`]).
//!
//! The edits are tried in order (halves of a list first, then quarters,
//! ..., then single elements, cells and numbers), up to `jobs` at a time;
//! the first one whose case still fails in the same way is taken and the
//! edits of the new case listed again. The loop ends after a whole pass in
//! which no edit was taken: then every one-step reduction of the final
//! case passes, so it is 1-minimal by construction (no separate check is
//! needed, and none would be cheaper). Each taken edit removes an element
//! or lowers a number, so the loop ends; it is also bounded by a number of
//! runs and by the whole run's deadline, and says so when either stopped it.
//!
//! A time, memory or output limit is about the input's size, not one of its
//! elements, and costs a full time limit per failing run: those are shrunk
//! only by halves and quarters of each list, and at most
//! [`RESOURCE_RUNS`] runs.

use std::collections::HashSet;
use std::hash::{Hash as _, Hasher as _};

use super::problems::Case;

/// The most runs spent shrinking a time, memory or output limit.
pub const RESOURCE_RUNS: usize = 24;

/// How far the shrinking got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Minimality {
    /// None of the final case's `reductions` one-step reductions fails
    /// the same way: `other` of them fail in another way, the rest pass.
    OneMinimal { reductions: usize, other: usize },
    /// Shrunk by halves and quarters only (a resource limit).
    Coarse,
    /// Stopped by the run or time budget.
    Stopped,
}

/// The shrinker's result.
#[derive(Debug)]
pub struct Shrunk<C> {
    pub case: C,
    /// How many times the solution ran.
    pub runs: usize,
    /// How many edits were taken.
    pub steps: usize,
    pub minimality: Minimality,
}

fn fingerprint(input: &[u8]) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    input.hash(&mut hasher);
    hasher.finish()
}

/// What one run of a smaller case showed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// It fails the same way.
    Same,
    /// It passes.
    Passes,
    /// It fails in another way (a crash instead of a wrong answer, ...).
    Other,
}

/// Shrinks `case`. `run(case, worker)` runs the solution (worker `0..jobs`
/// owns its scratch files) and says how it went, or `None` when the
/// deadline stopped it.
///
/// # Errors
///
/// An error of `still_fails`.
pub fn shrink<C: Case>(
    case: C,
    resource: bool,
    max_runs: usize,
    jobs: usize,
    run: &(dyn Fn(&C, usize) -> anyhow::Result<Option<Outcome>> + Sync),
) -> anyhow::Result<Shrunk<C>> {
    let max_runs = if resource {
        max_runs.min(RESOURCE_RUNS)
    } else {
        max_runs
    };
    let mut shrunk = Shrunk {
        case,
        runs: 0,
        steps: 0,
        minimality: Minimality::Stopped,
    };
    // Inputs known not to fail the same way: a later pass need not run
    // them again; and those that fail another way.
    let mut seen = HashSet::new();
    let mut other = HashSet::new();
    loop {
        let mut taken = false;
        let mut edits = shrunk.case.edits(resource);
        let mut i = 0;
        while i < edits.len() {
            let mut batch = Vec::new();
            let mut j = i;
            while batch.len() < jobs && j < edits.len() {
                if let Some(smaller) = shrunk.case.apply(&edits[j]) {
                    let print = fingerprint(&smaller.render());
                    if !seen.contains(&print) {
                        batch.push((j, smaller, print));
                    }
                }
                j += 1;
            }
            if batch.is_empty() {
                i = j;
                continue;
            }
            if shrunk.runs + batch.len() > max_runs {
                return Ok(shrunk);
            }
            shrunk.runs += batch.len();
            let results: Vec<anyhow::Result<Option<Outcome>>> = std::thread::scope(|scope| {
                let handles: Vec<_> = batch
                    .iter()
                    .enumerate()
                    .map(|(worker, (_, smaller, _))| scope.spawn(move || run(smaller, worker)))
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("a shrink worker does not panic"))
                    .collect()
            });
            let mut accepted = None;
            for ((index, smaller, print), result) in batch.into_iter().zip(results) {
                match result? {
                    None => return Ok(shrunk),
                    Some(Outcome::Same) if accepted.is_none() => {
                        accepted = Some((index, smaller));
                    }
                    Some(Outcome::Same) => {}
                    Some(outcome) => {
                        seen.insert(print);
                        if outcome == Outcome::Other {
                            other.insert(print);
                        }
                    }
                }
            }
            match accepted {
                Some((index, smaller)) => {
                    shrunk.case = smaller;
                    shrunk.steps += 1;
                    taken = true;
                    // After a big cut, the halves of the new case first.
                    i = if edits[index].is_coarse() { 0 } else { index };
                    edits = shrunk.case.edits(resource);
                }
                None => i = j,
            }
        }
        if !taken {
            shrunk.minimality = if resource {
                Minimality::Coarse
            } else {
                let prints: Vec<u64> = edits
                    .iter()
                    .filter_map(|e| shrunk.case.apply(e))
                    .map(|c| fingerprint(&c.render()))
                    .collect();
                Minimality::OneMinimal {
                    reductions: prints.len(),
                    other: prints.iter().filter(|p| other.contains(p)).count(),
                }
            };
            return Ok(shrunk);
        }
    }
}
