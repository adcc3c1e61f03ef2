//! The splitting game's rectangles as a [`TierGame`]: every sub-rectangle
//! of a small raw grid, solved bottom-up by the tier engine (a second game
//! for the one build loop, beside rectangle clearing).
//!
//! **Rule.** A position is one rectangle `rows r0..r1, columns c0..c1`
//! (half-open) of the grid; a move picks a candidate `(x, y)` in it and
//! leaves the four rectangles around it, whose values XOR to the option's.
//! Tier `a - 1` holds the rectangles of area `a`: every part of a move is
//! smaller, so it lies in an earlier tier.
//!
//! **Algorithm and cost.** Each tier is generated from nothing (every
//! rectangle of that area, `O(rows · cols)` per tier to enumerate); a
//! rectangle has one option per candidate in it. It builds every
//! sub-rectangle, `O(rows² · cols²)` positions: for small grids, as a test
//! of the engine and a cross-check of the split solver, not for its
//! 10^9-sided inputs (that is [`super::SplitSolver`]'s job).
//!
//! **Why it is correct.** A rectangle's value is the mex over its
//! candidates of the XOR of its four parts' values (Sprague-Grundy), which
//! is what [`TierGame::for_each_option`] hands the engine.

use crate::tier::{GameId, Tier, TierGame};
use crate::Nimber;

/// The most rows or columns of a grid: a key holds 6 bits a coordinate.
pub const MAX_TIER_SIDE: usize = 63;

/// Every sub-rectangle of a raw grid of candidates, as a [`TierGame`].
#[derive(Clone, Debug)]
pub struct SplitRects {
    rows: u32,
    cols: u32,
    /// Per row, a bit per candidate column.
    candidates: Vec<u64>,
}

impl SplitRects {
    /// The game on `grid` (rows of booleans, `true` a candidate); `None`
    /// for an empty or ragged grid, or one past [`MAX_TIER_SIDE`].
    #[must_use]
    pub fn new(grid: &[Vec<bool>]) -> Option<SplitRects> {
        let rows = grid.len();
        let cols = grid.first()?.len();
        if rows > MAX_TIER_SIDE
            || cols == 0
            || cols > MAX_TIER_SIDE
            || grid.iter().any(|r| r.len() != cols)
        {
            return None;
        }
        let candidates = grid
            .iter()
            .map(|row| {
                row.iter()
                    .enumerate()
                    .filter(|&(_, &c)| c)
                    .fold(0u64, |bits, (y, _)| bits | 1 << y)
            })
            .collect();
        Some(SplitRects {
            rows: rows as u32,
            cols: cols as u32,
            candidates,
        })
    }

    /// The key of rectangle rows `r0..r1`, columns `c0..c1` (non-empty).
    #[must_use]
    pub fn key(r0: u32, r1: u32, c0: u32, c1: u32) -> u64 {
        1 << 24 | u64::from(r0) << 18 | u64::from(r1) << 12 | u64::from(c0) << 6 | u64::from(c1)
    }

    /// The rectangle of a key: `(r0, r1, c0, c1)`.
    #[must_use]
    pub fn rect(key: u64) -> (u32, u32, u32, u32) {
        let field = |at: u32| (key >> at & 63) as u32;
        (field(18), field(12), field(6), field(0))
    }
}

impl TierGame for SplitRects {
    fn id(&self) -> GameId {
        GameId::new("split", [self.rows, self.cols])
    }

    fn tier_count(&self) -> usize {
        (self.rows * self.cols) as usize
    }

    fn tier_of(&self, position: u64) -> Tier {
        let (r0, r1, c0, c1) = SplitRects::rect(position);
        Tier::new((r1 - r0) * (c1 - c0) - 1)
    }

    fn parent_tier(&self, _tier: Tier) -> Option<Tier> {
        None
    }

    fn generate<E: FnMut(u64)>(&self, tier: Tier, _parent: Option<u64>, mut emit: E) {
        let area = tier.number();
        for height in (1..=self.rows).filter(|h| area % h == 0) {
            let width = area / height;
            if width > self.cols {
                continue;
            }
            for r0 in 0..=self.rows - height {
                for c0 in 0..=self.cols - width {
                    emit(SplitRects::key(r0, r0 + height, c0, c0 + width));
                }
            }
        }
    }

    fn for_each_option<F: FnMut(Nimber, &[u64])>(&self, position: u64, mut option: F) {
        let (r0, r1, c0, c1) = SplitRects::rect(position);
        let mut parts = Vec::with_capacity(4);
        for x in r0..r1 {
            let mut row = self.candidates[x as usize] >> c0;
            while row != 0 {
                let y = c0 + row.trailing_zeros();
                row &= row - 1;
                if y >= c1 {
                    break;
                }
                parts.clear();
                for (a, b, c, d) in [
                    (r0, x, c0, y),
                    (r0, x, y + 1, c1),
                    (x + 1, r1, c0, y),
                    (x + 1, r1, y + 1, c1),
                ] {
                    if a < b && c < d {
                        parts.push(SplitRects::key(a, b, c, d));
                    }
                }
                option(Nimber::ZERO, &parts);
            }
        }
    }
}
