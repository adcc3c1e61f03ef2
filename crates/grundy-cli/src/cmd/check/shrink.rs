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
pub const RESOURCE_RUNS: usize = 8;

/// How far the shrinking got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Minimality {
    /// None of the final case's `reductions` one-step reductions fails
    /// the same way: `other` of them fail in another way, the rest pass.
    OneMinimal {
        reductions: usize,
        other: usize,
        /// How many two-step reductions were all tried too, if they were.
        pairs: Option<usize>,
    },
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

/// Runs batches of smaller cases, remembering what it has seen.
struct Trier<'a, C> {
    run: &'a (dyn Fn(&C, usize) -> anyhow::Result<Option<Outcome>> + Sync),
    runs: usize,
    max_runs: usize,
    /// Inputs known not to fail the same way: a later pass need not run
    /// them again.
    seen: HashSet<u64>,
    /// Those of them that fail in another way.
    other: HashSet<u64>,
}

/// What a batch showed.
enum Batch {
    /// The index of the first case that fails the same way, if any.
    Done(Option<usize>),
    /// The run budget or the deadline stopped it.
    Stopped,
}

impl<C: Case> Trier<'_, C> {
    /// Runs up to `jobs` cases at once.
    fn try_batch(&mut self, batch: &[(C, u64)]) -> anyhow::Result<Batch> {
        if self.runs + batch.len() > self.max_runs {
            return Ok(Batch::Stopped);
        }
        self.runs += batch.len();
        let run = self.run;
        let results: Vec<anyhow::Result<Option<Outcome>>> = std::thread::scope(|scope| {
            let handles: Vec<_> = batch
                .iter()
                .enumerate()
                .map(|(worker, (smaller, _))| scope.spawn(move || run(smaller, worker)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a shrink worker does not panic"))
                .collect()
        });
        let mut first = None;
        for (k, ((_, print), result)) in batch.iter().zip(results).enumerate() {
            match result? {
                None => return Ok(Batch::Stopped),
                Some(Outcome::Same) => {
                    first = first.or(Some(k));
                }
                Some(outcome) => {
                    self.seen.insert(*print);
                    if outcome == Outcome::Other {
                        self.other.insert(*print);
                    }
                }
            }
        }
        Ok(Batch::Done(first))
    }
}

/// The most one-step reductions for which every pair of them is tried
/// after the one-step loop ends, and the most runs that may take.
const PAIR_LIMIT: usize = 12;
const PAIR_RUNS: usize = 150;

/// Shrinks `case`. `run(case, worker)` runs the solution (worker `0..jobs`
/// owns its scratch files) and says how it went, or `None` when the
/// deadline stopped it.
///
/// After the one-step loop, when the case has at most [`PAIR_LIMIT`]
/// one-step reductions, every two-step reduction is tried as well (at most
/// [`PAIR_RUNS`] runs): greedy removal can stop at a local minimum (two
/// boards of equal value, where clearing a cell of either one changes the
/// answer) that a pair of steps gets past.
///
/// # Errors
///
/// An error of `run`.
pub fn shrink<C: Case>(
    case: C,
    resource: bool,
    max_runs: usize,
    jobs: usize,
    run: &(dyn Fn(&C, usize) -> anyhow::Result<Option<Outcome>> + Sync),
) -> anyhow::Result<Shrunk<C>> {
    let mut trier = Trier {
        run,
        runs: 0,
        max_runs: if resource {
            max_runs.min(RESOURCE_RUNS)
        } else {
            max_runs
        },
        seen: HashSet::new(),
        other: HashSet::new(),
    };
    let mut case = case;
    let mut steps = 0;
    // A resource limit's few runs are its plan, not a budget cut short.
    let stopped = |case, trier: &Trier<'_, C>, steps| Shrunk {
        case,
        runs: trier.runs,
        steps,
        minimality: if resource && trier.runs + jobs > trier.max_runs {
            Minimality::Coarse
        } else {
            Minimality::Stopped
        },
    };
    'shrinking: loop {
        // One-step reductions, until a whole pass takes none.
        loop {
            let mut taken = false;
            let mut edits = case.edits(resource);
            let mut i = 0;
            while i < edits.len() {
                let mut batch = Vec::new();
                let mut indices = Vec::new();
                let mut j = i;
                while batch.len() < jobs && j < edits.len() {
                    if let Some(smaller) = case.apply(&edits[j]) {
                        let print = fingerprint(&smaller.render());
                        if !trier.seen.contains(&print) {
                            batch.push((smaller, print));
                            indices.push(j);
                        }
                    }
                    j += 1;
                }
                if batch.is_empty() {
                    i = j;
                    continue;
                }
                match trier.try_batch(&batch)? {
                    Batch::Stopped => return Ok(stopped(case, &trier, steps)),
                    Batch::Done(None) => i = j,
                    Batch::Done(Some(k)) => {
                        let index = indices[k];
                        case = batch.swap_remove(k).0;
                        steps += 1;
                        taken = true;
                        // After a big cut, the halves of the new case first.
                        i = if edits[index].is_coarse() { 0 } else { index };
                        edits = case.edits(resource);
                    }
                }
            }
            if !taken {
                break;
            }
        }
        if resource {
            return Ok(Shrunk {
                case,
                runs: trier.runs,
                steps,
                minimality: Minimality::Coarse,
            });
        }
        let ones: Vec<C> = case
            .edits(false)
            .iter()
            .filter_map(|e| case.apply(e))
            .collect();
        let prints: Vec<u64> = ones.iter().map(|c| fingerprint(&c.render())).collect();
        let other = prints.iter().filter(|p| trier.other.contains(p)).count();
        let mut pairs_checked = None;
        if ones.len() <= PAIR_LIMIT {
            let mut pairs = Vec::new();
            let mut listed = HashSet::new();
            for one in &ones {
                for edit in one.edits(false) {
                    if let Some(two) = one.apply(&edit) {
                        let print = fingerprint(&two.render());
                        if listed.insert(print) && !trier.seen.contains(&print) {
                            pairs.push((two, print));
                        }
                    }
                }
            }
            if pairs.len() <= PAIR_RUNS && trier.runs + pairs.len() <= trier.max_runs {
                for batch in pairs.chunks(jobs) {
                    match trier.try_batch(batch)? {
                        Batch::Stopped => return Ok(stopped(case, &trier, steps)),
                        Batch::Done(None) => {}
                        Batch::Done(Some(k)) => {
                            case = batch[k].0.clone();
                            steps += 1;
                            continue 'shrinking;
                        }
                    }
                }
                pairs_checked = Some(listed.len());
            }
        }
        return Ok(Shrunk {
            case,
            runs: trier.runs,
            steps,
            minimality: Minimality::OneMinimal {
                reductions: ones.len(),
                other,
                pairs: pairs_checked,
            },
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cmd::check::problems::{Gridgame, Pshtbrth};

    /// A failure that needs one query among hundreds and a board far down
    /// a long list (as a solution that values boards past 65,536 wrongly):
    /// the queries' halves are tried before the boards' single items, so
    /// a small run budget takes the queries down to one.
    #[test]
    fn a_long_list_does_not_starve_the_others() {
        let (boards, queries) = (600, 400);
        let mut input = format!("1\n{boards} {queries}\n");
        for b in 0..boards {
            let row = format!("{:04b}\n", b % 16);
            input += &row.repeat(4);
        }
        for q in 0..queries {
            input += &format!("1 {} {}\n", q + 1, q + 200);
        }
        // Fails when some question reaches past board 550.
        let fails = |case: &Pshtbrth| {
            let text = String::from_utf8(case.render()).unwrap();
            text.lines()
                .filter_map(|line| line.strip_prefix("1 "))
                .filter_map(|rest| rest.split_once(' '))
                .any(|(_, right)| right.parse::<u32>().unwrap() > 550)
        };
        let run = |case: &Pshtbrth, _worker: usize| -> anyhow::Result<Option<Outcome>> {
            Ok(Some(if fails(case) {
                Outcome::Same
            } else {
                Outcome::Passes
            }))
        };
        let case = Pshtbrth::read(input.as_bytes()).unwrap();
        assert!(fails(&case));
        let shrunk = shrink(case, false, 100, 2, &run).unwrap();
        let text = String::from_utf8(shrunk.case.render()).unwrap();
        let asked = text.lines().filter(|line| line.starts_with("1 ")).count();
        assert_eq!(asked, 1, "{}", &text[..text.len().min(200)]);
        assert!(fails(&shrunk.case));
    }

    /// A gridgame test: its impassable cells and its starts.
    type Points = (Vec<(u64, u64)>, Vec<(u64, u64)>);

    /// The impassable cells and starts of a gridgame case's tests, read
    /// back from its text.
    fn gridgame_points(case: &Gridgame) -> Vec<Points> {
        let text = String::from_utf8(case.render()).unwrap();
        let n: Vec<u64> = text
            .split_whitespace()
            .map(|t| t.parse().unwrap())
            .collect();
        let mut at = 1;
        let points = |at: &mut usize| {
            let count = n[*at] as usize;
            let list = (0..count)
                .map(|i| (n[*at + 1 + 2 * i], n[*at + 2 + 2 * i]))
                .collect::<Vec<_>>();
            *at += 1 + 2 * count;
            list
        };
        (0..n[0])
            .map(|_| {
                let cells = points(&mut at);
                (cells, points(&mut at))
            })
            .collect()
    }

    fn gridgame_oracle(
        fails: impl Fn(&[(u64, u64)], &[(u64, u64)]) -> bool + Sync,
    ) -> impl Fn(&Gridgame, usize) -> anyhow::Result<Option<Outcome>> + Sync {
        move |case: &Gridgame, _worker: usize| {
            let failing = gridgame_points(case)
                .iter()
                .any(|(cells, starts)| fails(cells, starts));
            Ok(Some(if failing {
                Outcome::Same
            } else {
                Outcome::Passes
            }))
        }
    }

    /// A failure that needs a start just above an impassable cell that is
    /// not on the bottom row (a solution that forgets to remove a cell from
    /// its set, as a probe wrote one) shrinks from coordinates near 10^9 to
    /// the smallest such case: moving every point down together would put
    /// the cell on the bottom row, but the gap below them closes to 1.
    #[test]
    fn gridgame_gaps_close_to_the_smallest_failing_coordinates() {
        let case = Gridgame::read(b"1\n1\n5 968658565\n1\n5 968658566\n").unwrap();
        let run = gridgame_oracle(|cells, starts| {
            cells
                .iter()
                .any(|&(cx, cy)| cy >= 1 && starts.iter().any(|&(sx, sy)| sx == cx && sy == cy + 1))
        });
        assert!(run(&case, 0).unwrap() == Some(Outcome::Same));
        let shrunk = shrink(case, false, 3000, 2, &run).unwrap();
        let text = String::from_utf8(shrunk.case.render()).unwrap();
        assert_eq!(text, "1\n1\n0 1\n1\n0 2\n");
        assert!(shrunk.runs < 500, "{} runs", shrunk.runs);
        assert!(matches!(shrunk.minimality, Minimality::OneMinimal { .. }));
    }

    /// A failure only on the diagonal past a large x (a solution wrong past
    /// 999,999,000) shrinks by sliding the start down its diagonal in
    /// halving steps, not one unit a run.
    #[test]
    fn gridgame_starts_slide_down_their_diagonal() {
        let case = Gridgame::read(b"1\n1\n7 3\n1\n1000000000 1000000000\n").unwrap();
        let run =
            gridgame_oracle(|_, starts| starts.iter().any(|&(x, y)| x == y && x > 999_999_000));
        let shrunk = shrink(case, false, 3000, 2, &run).unwrap();
        let (cells, starts) = gridgame_points(&shrunk.case).remove(0);
        assert_eq!(starts, [(999_999_001, 999_999_001)]);
        assert_eq!(cells, [(0, 0)]);
        assert!(shrunk.runs < 500, "{} runs", shrunk.runs);
        assert!(matches!(shrunk.minimality, Minimality::OneMinimal { .. }));
    }

    /// With an oracle for "fails" (a start with x + y >= 10 in a test that
    /// has an impassable cell at x = 3), the shrinker ends at the smallest
    /// such case, and every one-step reduction of it passes.
    #[test]
    fn shrinks_to_a_one_minimal_case() {
        let input = b"3\n2\n3 4\n9 9\n3\n1 1\n7 8\n20 20\n1\n5 5\n1\n0 0\n1\n3 0\n1\n2 2\n";
        let case = Gridgame::read(input).unwrap();
        let run = gridgame_oracle(|cells, starts| {
            cells.iter().any(|&(x, _)| x == 3) && starts.iter().any(|&(x, y)| x + y >= 10)
        });
        let fails = |case: &Gridgame| run(case, 0).unwrap() == Some(Outcome::Same);
        assert!(fails(&case));
        let shrunk = shrink(case, false, 10_000, 2, &run).unwrap();
        // One test, the cell lowered to (3,0), one start on x + y = 10.
        let text = String::from_utf8(shrunk.case.render()).unwrap();
        let start = text.strip_prefix("1\n1\n3 0\n1\n").expect(&text);
        let sum: u64 = start
            .split_whitespace()
            .map(|t| t.parse::<u64>().unwrap())
            .sum();
        assert_eq!(sum, 10, "{text}");
        assert!(matches!(
            shrunk.minimality,
            Minimality::OneMinimal { other: 0, .. }
        ));
        for edit in shrunk.case.edits(false) {
            if let Some(smaller) = shrunk.case.apply(&edit) {
                assert!(!fails(&smaller), "{edit:?}");
            }
        }
    }
}
