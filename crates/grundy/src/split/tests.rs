//! Cross-checks of the splitting solver against a brute-force twin: the
//! plain recursive definition over the sub-rectangles of the raw grid (no
//! compression, no symmetry, no blocks, no closed forms; memoised on the raw
//! rectangle only), and the properties the solver relies on, each proved by
//! a proptest against that twin.

use std::collections::HashMap;

use proptest::prelude::*;

use super::*;
use crate::MexSet;

/// The raw grid as rows of booleans.
type Raw = Vec<Vec<bool>>;

struct Brute<'a> {
    grid: &'a Raw,
    memo: HashMap<(usize, usize, usize, usize), u32>,
}

impl<'a> Brute<'a> {
    fn new(grid: &'a Raw) -> Brute<'a> {
        Brute {
            grid,
            memo: HashMap::new(),
        }
    }

    /// Value of rows `r0..r1`, columns `c0..c1` (half-open).
    fn value(&mut self, r0: usize, r1: usize, c0: usize, c1: usize) -> u32 {
        if r0 >= r1 || c0 >= c1 {
            return 0;
        }
        if let Some(&v) = self.memo.get(&(r0, r1, c0, c1)) {
            return v;
        }
        let mut seen = MexSet::new();
        for x in r0..r1 {
            for y in c0..c1 {
                if self.grid[x][y] {
                    let v = self.value(r0, x, c0, y)
                        ^ self.value(r0, x, y + 1, c1)
                        ^ self.value(x + 1, r1, c0, y)
                        ^ self.value(x + 1, r1, y + 1, c1);
                    seen.insert(Nimber::new(v));
                }
            }
        }
        let v = seen.mex().value();
        self.memo.insert((r0, r1, c0, c1), v);
        v
    }

    fn whole(&mut self) -> u32 {
        let rows = self.grid.len();
        let cols = self.grid.first().map_or(0, Vec::len);
        self.value(0, rows, 0, cols)
    }
}

fn brute(grid: &Raw) -> u32 {
    Brute::new(grid).whole()
}

fn to_grid(raw: &Raw) -> Grid {
    let rows = raw.len();
    let cols = raw[0].len();
    let cells = raw.iter().enumerate().flat_map(|(r, row)| {
        row.iter()
            .enumerate()
            .filter(|&(_, &b)| b)
            .map(move |(c, _)| Cell::new(r as u32, c as u32))
    });
    Grid::new(rows as u64, cols as u64, cells).unwrap()
}

fn raw_strategy(max_side: usize) -> impl Strategy<Value = Raw> {
    (1..=max_side, 1..=max_side, 0.05..0.95f64).prop_flat_map(|(rows, cols, density)| {
        proptest::collection::vec(
            proptest::collection::vec(proptest::bool::weighted(density), cols),
            rows,
        )
    })
}

fn solve(raw: &Raw) -> u32 {
    SplitSolver::new()
        .value(&Position::new(to_grid(raw)))
        .unwrap()
        .value()
}

/// The solver forced onto the generic path (no dense tables).
fn solve_generic(raw: &Raw) -> u32 {
    SplitSolver::new()
        .with_dense_limit(0)
        .value(&Position::new(to_grid(raw)))
        .unwrap()
        .value()
}

fn transpose(raw: &Raw) -> Raw {
    (0..raw[0].len())
        .map(|c| raw.iter().map(|row| row[c]).collect())
        .collect()
}

#[test]
fn hand_checked_small_cases() {
    // One candidate: 1. A full 2 x 2: every move leaves one candidate: 0.
    assert_eq!(brute(&vec![vec![true]]), 1);
    assert_eq!(brute(&vec![vec![true; 2]; 2]), 0);
    assert_eq!(solve(&vec![vec![true; 2]; 2]), 0);
    // A full 2 x 3: the middle moves leave 1 ^ 1 = 0, the ends leave 1: 2.
    assert_eq!(brute(&vec![vec![true; 3]; 2]), 2);
    assert_eq!(solve(&vec![vec![true; 3]; 2]), 2);
}

#[test]
fn the_caos3_sample_grid_is_a_first_player_win() {
    // The sample's candidates by the CAOS3 rule, derived by hand: cells
    // whose four arms of '^' are all at least 2 long.
    let map = [
        "^#^#^^^", "^#^^^#^", "^#^^^^^", "^^^#^^^", "^^^^^^^", "^^^^^^^", "^^^^^^^",
    ];
    let open = |r: i32, c: i32| {
        (0..7).contains(&r) && (0..7).contains(&c) && map[r as usize].as_bytes()[c as usize] == b'^'
    };
    let arm = |r: i32, c: i32, dr: i32, dc: i32| {
        let mut k = 0;
        while open(r + dr * (k + 1), c + dc * (k + 1)) {
            k += 1;
        }
        k
    };
    let raw: Raw = (0..7)
        .map(|r| {
            (0..7)
                .map(|c| {
                    open(r, c)
                        && [(0, 1), (0, -1), (1, 0), (-1, 0)]
                            .iter()
                            .all(|&(dr, dc)| arm(r, c, dr, dc) >= 2)
                })
                .collect()
        })
        .collect();
    let expected = brute(&raw);
    assert_ne!(expected, 0, "the sample answer is Asuna");
    assert_eq!(solve(&raw), expected);
}

#[test]
fn huge_sparse_grid_is_its_compressed_pattern() {
    // 300 candidates on 40 rows and 40 columns spread over 10^9 x 10^9.
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let rows: Vec<u32> = (0..40).map(|i| i * 24_000_000 + 17).collect();
    let cols: Vec<u32> = (0..40).map(|i| i * 24_900_000 + 3).collect();
    let mut raw = vec![vec![false; 40]; 40];
    let mut placed = 0;
    while placed < 300 {
        let (r, c) = ((next() % 40) as usize, (next() % 40) as usize);
        if !raw[r][c] {
            raw[r][c] = true;
            placed += 1;
        }
    }
    let cells = (0..40).flat_map(|r| {
        let raw = &raw;
        let (rows, cols) = (&rows, &cols);
        (0..40)
            .filter(move |&c| raw[r][c])
            .map(move |c| Cell::new(rows[r], cols[c]))
    });
    let grid = Grid::new(1_000_000_000, 1_000_000_000, cells.collect::<Vec<_>>()).unwrap();
    let value = SplitSolver::new().value(&Position::new(grid)).unwrap();
    assert_eq!(value.value(), solve(&raw));
}

#[test]
fn long_permutation_uses_the_closed_form() {
    // 100,000 candidates on distinct rows and columns of a 10^9 grid.
    let cells: Vec<Cell> = (0..100_000u32)
        .map(|i| Cell::new(i * 7919 % 1_000_000 * 1000, i * 10_000))
        .collect();
    let grid = Grid::new(1_000_000_000, 1_000_000_000, cells).unwrap();
    let mut solver = SplitSolver::new();
    assert_eq!(solver.value(&Position::new(grid)).unwrap(), Nimber::ZERO);
}

#[test]
fn an_isolated_candidate_does_not_simply_flip_the_value() {
    // (1,1) shares its row and column with no one, yet adding it to the L
    // of the three others keeps the value (2), where in a permutation each
    // isolated candidate flips the parity: isolated candidates reduce only
    // in the line-groups closed form.
    let with = vec![
        vec![true, false, true],
        vec![false, true, false],
        vec![true, false, false],
    ];
    let mut without = with.clone();
    without[1][1] = false;
    assert_eq!(brute(&with), brute(&without));
    assert_eq!(Pattern::from_matrix(&with).line_groups(), None);
    assert_eq!(solve(&with), brute(&with));
}

#[test]
fn bad_grids_and_moves_are_refused() {
    assert!(matches!(
        Grid::new(0, 5, []),
        Err(GridError::BadSize { .. })
    ));
    assert!(matches!(
        Grid::new(2_000_000_000, 5, []),
        Err(GridError::BadSize { .. })
    ));
    assert!(matches!(
        Grid::new(3, 3, [Cell::new(3, 0)]),
        Err(GridError::OutsideGrid { .. })
    ));
    assert_eq!(
        Grid::new(3, 3, [Cell::new(1, 1), Cell::new(0, 2), Cell::new(1, 1)]),
        Err(GridError::Duplicate(Cell::new(1, 1)))
    );
    let position = Position::new(Grid::from_rows(&["11", "01"]));
    assert_eq!(
        position.try_play(Cell::new(1, 0)),
        Err(GridError::IllegalMove(Cell::new(1, 0)))
    );
    // A move off the grid is told as such, not as a cell without a
    // candidate.
    assert_eq!(
        position.try_play(Cell::new(5, 0)),
        Err(GridError::OutsideGrid {
            cell: Cell::new(5, 0),
            rows: 2,
            cols: 2
        })
    );
    let after = position.try_play(Cell::new(0, 0)).unwrap();
    // Row 0 and column 0 are gone: (1,1) remains, (0,1) does not.
    assert_eq!(
        after.moves().map(|(_, c)| c).collect::<Vec<_>>(),
        vec![Cell::new(1, 1)]
    );
    assert!(after.try_play(Cell::new(0, 1)).is_err());
}

#[test]
fn budget_stops_a_large_table_and_exit_resumes() {
    let raw = vec![vec![true; 12]; 12];
    let position = Position::new(to_grid(&raw));
    let mut solver = SplitSolver::new().with_budget(Budget::positions(100));
    // Refused before solving: the dense table holds every sub-rectangle of
    // the 12 x 12 grid, C(13, 2)^2 of them, past the budget.
    let rectangles = (13 * 12 / 2) * (13 * 12 / 2);
    assert_eq!(
        solver.value(&position),
        Err(SolveError::PositionBudget {
            limit: 100,
            needed: Some(rectangles)
        })
    );
    let mut solver = solver.with_budget(Budget::UNLIMITED);
    assert_eq!(solver.value(&position).unwrap().value(), brute(&raw));
}

/// A time budget past what the clock can count (it overflows `Instant` when
/// added to it) is no time limit, on the dense tables' path and on the
/// generic search's, whose guard then gets no deadline.
#[test]
fn a_time_budget_past_the_clock_is_no_limit() {
    let endless = Budget {
        max_time: Some(std::time::Duration::MAX),
        ..Budget::UNLIMITED
    };
    let raw = vec![vec![true; 6]; 5];
    let position = Position::new(to_grid(&raw));
    for dense_limit in [None, Some(0)] {
        let mut solver = SplitSolver::new().with_budget(endless);
        if let Some(limit) = dense_limit {
            solver = solver.with_dense_limit(limit);
        }
        assert_eq!(solver.value(&position).unwrap().value(), brute(&raw));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn solver_matches_brute_force_up_to_8x8(raw in raw_strategy(8)) {
        let expected = brute(&raw);
        prop_assert_eq!(solve(&raw), expected);
    }

    #[test]
    fn generic_path_matches_brute_force_up_to_6x6(raw in raw_strategy(6)) {
        prop_assert_eq!(solve_generic(&raw), brute(&raw));
    }

    #[test]
    fn winning_moves_are_exactly_the_moves_to_zero(raw in raw_strategy(7)) {
        let position = Position::new(to_grid(&raw));
        let mut solver = SplitSolver::new();
        let winning = solver.winning_moves(&position).unwrap();
        let mut expected = Vec::new();
        for (_, cell) in position.moves() {
            let (x, y) = (cell.row as usize, cell.col as usize);
            let mut b = Brute::new(&raw);
            let (rows, cols) = (raw.len(), raw[0].len());
            let after = b.value(0, x, 0, y) ^ b.value(0, x, y + 1, cols)
                ^ b.value(x + 1, rows, 0, y) ^ b.value(x + 1, rows, y + 1, cols);
            if after == 0 {
                expected.push(cell);
            }
            // The played position, valued again from scratch, agrees; so
            // does the same solver (reading the root's table), and so do
            // the played position's own options.
            let played = position.try_play(cell).unwrap();
            prop_assert_eq!(SplitSolver::new().value(&played).unwrap().value(), after);
            prop_assert_eq!(solver.value(&played).unwrap().value(), after);
            prop_assert_eq!(solver.options(&played).unwrap(), SplitSolver::new().options(&played).unwrap());
        }
        prop_assert_eq!(&winning, &expected);
        prop_assert_eq!(winning.is_empty(), brute(&raw) == 0);
    }

    /// `--cells`-style grids with huge coordinates: the value is the value
    /// of the small grid the candidates compress to.
    #[test]
    fn huge_coordinates_compare_after_compression(
        raw in raw_strategy(7),
        row_gaps in proptest::collection::vec(0u32..100_000_000, 7),
        col_gaps in proptest::collection::vec(0u32..100_000_000, 7),
    ) {
        let place = |gaps: &[u32]| {
            let mut at = Vec::new();
            let mut pos = 0u32;
            for &g in gaps {
                pos += g;
                at.push(pos);
                pos += 1;
            }
            at
        };
        let (rows, cols) = (place(&row_gaps), place(&col_gaps));
        let cells: Vec<Cell> = raw.iter().enumerate().flat_map(|(r, row)| {
            let (rows, cols) = (&rows, &cols);
            row.iter().enumerate().filter(|&(_, &b)| b).map(move |(c, _)| Cell::new(rows[r], cols[c]))
        }).collect();
        let grid = Grid::new(u64::from(MAX_SIDE), u64::from(MAX_SIDE), cells).unwrap();
        let position = Position::new(grid);
        let mut solver = SplitSolver::new();
        prop_assert_eq!(solver.value(&position).unwrap().value(), brute(&raw));
        for cell in solver.winning_moves(&position).unwrap() {
            prop_assert!(solver.value(&position.try_play(cell).unwrap()).unwrap().is_zero());
        }
    }

    /// Inserting rows and columns without candidates keeps the value.
    #[test]
    fn compression_invariance(raw in raw_strategy(6), at_row in 0usize..7, at_col in 0usize..7) {
        let mut wider = raw.clone();
        let at_row = at_row.min(raw.len());
        wider.insert(at_row, vec![false; raw[0].len()]);
        let at_col = at_col.min(raw[0].len());
        for row in &mut wider {
            row.insert(at_col, false);
        }
        prop_assert_eq!(brute(&wider), brute(&raw));
    }

    /// A rectangle's value does not depend on where it sits: the value of a
    /// sub-rectangle of a larger grid (with other candidates around it) is
    /// the value of its own grid.
    #[test]
    fn translation_invariance(raw in raw_strategy(8), r0 in 0usize..8, c0 in 0usize..8,
                              h in 1usize..8, w in 1usize..8) {
        let (rows, cols) = (raw.len(), raw[0].len());
        let (r0, c0) = (r0 % rows, c0 % cols);
        let (r1, c1) = ((r0 + h).min(rows), (c0 + w).min(cols));
        let inner: Raw = raw[r0..r1].iter().map(|row| row[c0..c1].to_vec()).collect();
        prop_assert_eq!(Brute::new(&raw).value(r0, r1, c0, c1), brute(&inner));
    }

    /// The 8 symmetries of the square preserve the value, and the canonical
    /// form is the same for all 8 images.
    #[test]
    fn symmetries_preserve_the_value(raw in raw_strategy(7)) {
        let value = brute(&raw);
        let flipped_rows: Raw = raw.iter().rev().cloned().collect();
        let flipped_cols: Raw = raw.iter().map(|r| r.iter().rev().copied().collect()).collect();
        prop_assert_eq!(brute(&flipped_rows), value);
        prop_assert_eq!(brute(&flipped_cols), value);
        prop_assert_eq!(brute(&transpose(&raw)), value);
        let pattern = Pattern::from_matrix(&raw);
        let key = pattern.canonical();
        for s in 0..8 {
            let image = pattern.transform(s);
            prop_assert_eq!(image.canonical(), key.clone());
            let image_raw: Raw = (0..image.rows().max(1))
                .map(|r| (0..image.cols().max(1)).map(|c| image.get(r, c)).collect())
                .collect();
            prop_assert_eq!(brute(&image_raw), value);
        }
    }

    /// No two candidates share a row or a column: the value is k mod 2.
    #[test]
    fn k_mod_2_when_no_row_or_column_is_shared(
        perm in Just((0..8usize).collect::<Vec<_>>()).prop_shuffle(),
        keep in proptest::collection::vec(any::<bool>(), 8),
    ) {
        let mut raw = vec![vec![false; 8]; 8];
        let mut k = 0;
        for (r, &c) in perm.iter().enumerate() {
            if keep[r] {
                raw[r][c] = true;
                k += 1;
            }
        }
        prop_assert_eq!(brute(&raw), k % 2);
        prop_assert_eq!(Pattern::from_matrix(&raw).known_value(), Some(Nimber::new(k % 2)));
    }

    /// Line groups (built from runs of a row or a column placed in
    /// distinct rows and columns, so nothing cuts a run): the value is the
    /// number of groups mod 2, and every option leaves that number minus
    /// one, mod 2; the solver's options agree with brute force.
    #[test]
    fn line_groups_have_value_groups_mod_2(
        groups in proptest::collection::vec((any::<bool>(), 1usize..=3), 1..=5),
        order in Just((0..5usize).collect::<Vec<_>>()).prop_shuffle(),
    ) {
        // Group i takes the next rows; its columns come in `order`.
        let order: Vec<usize> = order.into_iter().filter(|&i| i < groups.len()).collect();
        let width = |&(horizontal, len): &(bool, usize)| if horizontal { len } else { 1 };
        let height = |&(horizontal, len): &(bool, usize)| if horizontal { 1 } else { len };
        let mut col_at = vec![0; groups.len()];
        let mut col = 0;
        for &i in &order {
            col_at[i] = col;
            col += width(&groups[i]);
        }
        let rows: usize = groups.iter().map(height).sum();
        let mut raw = vec![vec![false; col]; rows];
        let mut row = 0;
        for (i, group) in groups.iter().enumerate() {
            for r in 0..height(group) {
                for c in 0..width(group) {
                    raw[row + r][col_at[i] + c] = true;
                }
            }
            row += height(group);
        }
        let m = groups.len();
        let pattern = Pattern::from_matrix(&raw);
        prop_assert_eq!(pattern.line_groups(), Some(m));
        prop_assert_eq!(brute(&raw) as usize, m % 2);
        prop_assert_eq!(solve(&raw) as usize, m % 2);
        let position = Position::new(to_grid(&raw));
        let (rows, cols) = (raw.len(), raw[0].len());
        let options = SplitSolver::new().options(&position).unwrap();
        prop_assert_eq!(options.len(), pattern.count());
        for (cell, value) in options {
            let (x, y) = (cell.row as usize, cell.col as usize);
            let mut b = Brute::new(&raw);
            let after = b.value(0, x, 0, y) ^ b.value(0, x, y + 1, cols)
                ^ b.value(x + 1, rows, 0, y) ^ b.value(x + 1, rows, y + 1, cols);
            prop_assert_eq!(value.value(), after);
            prop_assert_eq!(after as usize, (m + 1) % 2);
        }
    }

    /// Whenever a random grid's candidates form line groups, brute force
    /// agrees with the closed form.
    #[test]
    fn line_groups_closed_form_matches_brute_force(raw in raw_strategy(7)) {
        let pattern = Pattern::from_matrix(&raw);
        if let Some(groups) = pattern.line_groups() {
            prop_assert_eq!(brute(&raw) as usize, groups % 2);
        }
        if let Some(value) = pattern.known_value() {
            prop_assert_eq!(value.value(), brute(&raw));
        }
    }

    /// One row or one column of candidates: value 1.
    #[test]
    fn a_single_line_has_value_one(cells in proptest::collection::vec(any::<bool>(), 1..12)) {
        prop_assume!(cells.iter().any(|&b| b));
        prop_assert_eq!(brute(&vec![cells.clone()]), 1);
        prop_assert_eq!(brute(&transpose(&vec![cells])), 1);
    }

    /// Two grids placed in opposite quadrants (either diagonal) make a sum:
    /// the value is the XOR; and the block split finds the parts.
    #[test]
    fn opposite_quadrants_are_a_sum(a in raw_strategy(4), b in raw_strategy(4), anti in any::<bool>()) {
        let (ar, ac, br, bc) = (a.len(), a[0].len(), b.len(), b[0].len());
        let mut raw = vec![vec![false; ac + bc]; ar + br];
        for r in 0..ar {
            for c in 0..ac {
                raw[r][if anti { bc + c } else { c }] = a[r][c];
            }
        }
        for r in 0..br {
            for c in 0..bc {
                raw[ar + r][if anti { c } else { ac + c }] = b[r][c];
            }
        }
        prop_assert_eq!(brute(&raw), brute(&a) ^ brute(&b));
        let pattern = Pattern::from_matrix(&raw);
        let from_blocks = pattern.blocks().iter().fold(0, |acc, block| {
            let raw: Raw = (0..block.pattern.rows())
                .map(|r| (0..block.pattern.cols()).map(|c| block.pattern.get(r, c)).collect())
                .collect();
            acc ^ brute(&raw)
        });
        prop_assert_eq!(from_blocks, brute(&raw));
    }

    /// The dense table holds the value of every sub-rectangle, whether
    /// its bands go whole to one core or are shared by all, sweep by sweep.
    #[test]
    fn dense_table_holds_every_sub_rectangle(raw in raw_strategy(10), shared in any::<bool>()) {
        let pattern = Pattern::from_matrix(&raw);
        prop_assume!(!pattern.is_empty());
        let min_shared = if shared { 0 } else { usize::MAX };
        let table = DenseTable::build_sharing(
            &pattern, Budget::UNLIMITED, Instant::now(), None, &mut |_, _| {}, min_shared,
        ).unwrap();
        let compact: Raw = (0..pattern.rows())
            .map(|r| (0..pattern.cols()).map(|c| pattern.get(r, c)).collect())
            .collect();
        let mut b = Brute::new(&compact);
        for r0 in 0..pattern.rows() {
            for r1 in r0 + 1..=pattern.rows() {
                for c0 in 0..pattern.cols() {
                    for c1 in c0 + 1..=pattern.cols() {
                        prop_assert_eq!(table.value(r0..r1, c0..c1).value(), b.value(r0, r1, c0, c1));
                    }
                }
            }
        }
    }
}

/// Issue 25, item 10: the position budget stops the generic search while
/// its first expansion runs, before any position is solved: the search
/// examines (makes keys for) at most the budget and one option's parts
/// more, instead of running on until time or memory stop it.
#[test]
fn the_position_budget_bounds_the_generic_search() {
    let mut state = 25u64;
    let mut raw = vec![vec![false; 60]; 60];
    for row in &mut raw {
        for cell in row.iter_mut() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            *cell = state % 3 == 0;
        }
    }
    let limit = 50;
    let mut solver = SplitSolver::new()
        .with_dense_limit(0)
        .with_budget(Budget::positions(limit));
    let result = solver.value(&Position::new(to_grid(&raw)));
    assert_eq!(
        result,
        Err(SolveError::PositionBudget {
            limit,
            needed: None
        })
    );
    let examined = solver
        .guard
        .examined
        .load(std::sync::atomic::Ordering::Relaxed);
    // `should_stop` runs before every option, which makes at most four keys.
    assert!(examined <= limit + 4, "examined {examined}");
    assert!(solver.positions_solved() < limit);
}

/// The tier engine's build of every sub-rectangle ([`tiers::SplitRects`],
/// a second game of the one build loop) against the brute force, every
/// sub-rectangle of random small grids.
mod tier_build {
    use super::*;
    use crate::tier::{build, BuildConfig, MemoryStore, Solo, TierControl, TierGame};

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn every_sub_rectangle_matches_the_brute_force(raw in raw_strategy(7)) {
            let game = tiers::SplitRects::new(&raw).unwrap();
            let built = build(
                &game,
                &mut MemoryStore::new(),
                &Solo,
                &BuildConfig::default(),
                &TierControl::new(),
            )
            .unwrap();
            let (rows, cols) = (raw.len() as u32, raw[0].len() as u32);
            let mut brute = Brute::new(&raw);
            let mut checked = 0;
            for r0 in 0..rows {
                for r1 in r0 + 1..=rows {
                    for c0 in 0..cols {
                        for c1 in c0 + 1..=cols {
                            let key = tiers::SplitRects::key(r0, r1, c0, c1);
                            let tier = &built.own[game.tier_of(key).index()];
                            let want = brute.value(r0 as usize, r1 as usize, c0 as usize, c1 as usize);
                            prop_assert_eq!(tier.get(key), Some(Nimber::new(want)));
                            checked += 1;
                        }
                    }
                }
            }
            let stored: u64 = built.own.iter().map(crate::tier::TierTable::positions).sum();
            prop_assert_eq!(stored, checked);
        }
    }
}

/// The value the brute force gives the whole grid after a move at `cell`.
fn brute_after(brute: &mut Brute<'_>, cell: Cell) -> u32 {
    let (x, y) = (cell.row as usize, cell.col as usize);
    let rows = brute.grid.len();
    let cols = brute.grid[0].len();
    brute.value(0, x, 0, y)
        ^ brute.value(0, x, y + 1, cols)
        ^ brute.value(x + 1, rows, 0, y)
        ^ brute.value(x + 1, rows, y + 1, cols)
}

/// `raw` made point-symmetric: each candidate's image under the half
/// turn is a candidate too.
fn half_turn_symmetric(raw: &Raw) -> Raw {
    let (rows, cols) = (raw.len(), raw[0].len());
    (0..rows)
        .map(|r| {
            (0..cols)
                .map(|c| raw[r][c] || raw[rows - 1 - r][cols - 1 - c])
                .collect()
        })
        .collect()
}

proptest! {
    /// The engine's move, with no budget and with a budget of one
    /// position (no values: the pair search alone, or a guess), against
    /// the brute force: a move proven to win leaves 0, a lost position has
    /// value 0 and the move leaves the largest value, and every move is
    /// legal.
    #[test]
    fn the_engine_move_is_legal_and_right_when_proven(raw in raw_strategy(7), symmetric in any::<bool>()) {
        let raw = if symmetric { half_turn_symmetric(&raw) } else { raw };
        let position = Position::new(to_grid(&raw));
        let mut brute = Brute::new(&raw);
        let total = brute.whole();
        for budget in [Budget::UNLIMITED, Budget::positions(1)] {
            let Some(choice) = choose_move(&position, budget, u64::MAX) else {
                prop_assert!(position.moves().next().is_none());
                prop_assert_eq!(total, 0);
                continue;
            };
            prop_assert!(position.rect_of(choice.cell).is_some(), "{:?}", choice);
            let after = brute_after(&mut brute, choice.cell);
            match choice.reason {
                SplitReason::Values { total: t } => {
                    prop_assert_eq!(t.value(), total);
                    prop_assert_eq!(after, 0);
                }
                SplitReason::Pairs { leaves_nothing, pairs, alone } => {
                    prop_assert_eq!(after, 0);
                    prop_assert_eq!(leaves_nothing, position.play_unchecked(choice.cell).moves().next().is_none());
                    // The counts are those of the rectangles with candidates
                    // left, grouped by congruence.
                    let left = position.play_unchecked(choice.cell);
                    let grid = left.grid();
                    let mut classes: HashMap<_, usize> = HashMap::new();
                    for &rect in left.rects() {
                        if grid.candidates_in(rect).next().is_some() {
                            *classes.entry(grid.pattern_in(rect).pattern.canonical()).or_default() += 1;
                        }
                    }
                    prop_assert_eq!(pairs, classes.values().map(|n| n / 2).sum::<usize>());
                    prop_assert_eq!(alone, classes.values().filter(|&&n| n % 2 == 1).count());
                }
                SplitReason::Losing { leaves } => {
                    prop_assert_eq!(total, 0);
                    prop_assert_eq!(leaves.value(), after);
                    let most = position.moves().map(|(_, c)| brute_after(&mut brute, c)).max();
                    prop_assert_eq!(Some(after), most);
                }
                SplitReason::Unproven { .. } => {
                    prop_assert!(budget != Budget::UNLIMITED, "{:?}", choice);
                }
            }
        }
    }
}

/// A point-symmetric grid far past a short budget: split at its centre,
/// its four parts are two pairs of half-turn images, so the move is proven
/// without a value; a random grid as large gets a legal guess, unproven.
#[test]
fn large_grids_get_a_move_within_a_short_budget() {
    let side = 121;
    let raw = random_raw(side);
    let mut symmetric = half_turn_symmetric(&raw);
    symmetric[side / 2][side / 2] = true;
    let budget = Budget {
        max_time: Some(std::time::Duration::from_millis(200)),
        ..Budget::positions(1 << 20)
    };
    let position = Position::new(to_grid(&symmetric));
    let choice = choose_move(&position, budget, 1 << 30).unwrap();
    let centre = Cell::new(side as u32 / 2, side as u32 / 2);
    assert_eq!(choice.cell, centre, "{choice:?}");
    assert_eq!(
        choice.reason,
        SplitReason::Pairs {
            leaves_nothing: false,
            pairs: 2,
            alone: 0,
        }
    );
    let parts = position.grid().full().split_at(centre);
    let class = |rect| position.grid().pattern_in(rect).pattern.canonical();
    assert_eq!(class(parts[0]), class(parts[3]));
    assert_eq!(class(parts[1]), class(parts[2]));

    let position = Position::new(to_grid(&raw));
    let choice = choose_move(&position, budget, 1 << 30).unwrap();
    assert!(position.rect_of(choice.cell).is_some(), "{choice:?}");
    assert!(
        matches!(choice.reason, SplitReason::Unproven { stopped: Some(_) }),
        "{choice:?}"
    );
}

/// A `side x side` grid of xorshift bits, each a candidate half the time.
fn random_raw(side: usize) -> Raw {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut random = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % 2 == 0
    };
    (0..side)
        .map(|_| (0..side).map(|_| random()).collect())
        .collect()
}

/// The stop flag ends the engine's search under a budget with no limit
/// (the random 121 x 121 grid above is far past a 200 ms budget): set
/// before the call, or from another thread during it, the move is a legal
/// guess, unproven, stopped from outside.
#[test]
fn the_stop_flag_ends_an_engine_move_without_a_budget() {
    use std::sync::atomic::AtomicBool;
    let position = Position::new(to_grid(&random_raw(121)));
    let set = Arc::new(AtomicBool::new(true));
    let choice = choose_move_until(&position, Budget::UNLIMITED, u64::MAX, Some(set)).unwrap();
    assert!(position.rect_of(choice.cell).is_some(), "{choice:?}");
    assert_eq!(
        choice.reason,
        SplitReason::Unproven {
            stopped: Some(SolveError::Stopped)
        }
    );

    let cancel = Arc::new(AtomicBool::new(false));
    let setter = {
        let cancel = Arc::clone(&cancel);
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(300));
            cancel.store(true, Ordering::Relaxed);
        })
    };
    let started = Instant::now();
    let choice = choose_move_until(&position, Budget::UNLIMITED, u64::MAX, Some(cancel)).unwrap();
    setter.join().unwrap();
    assert!(position.rect_of(choice.cell).is_some(), "{choice:?}");
    assert_eq!(
        choice.reason,
        SplitReason::Unproven {
            stopped: Some(SolveError::Stopped)
        }
    );
    // Debug builds included: one sweep or one option is far shorter.
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
}

/// The solver's own searches (dense tables and the generic search) stop
/// on the flag too, and the solver answers again once it is cleared.
#[test]
fn the_stop_flag_ends_a_solver_search() {
    use std::sync::atomic::AtomicBool;
    let cancel = Arc::new(AtomicBool::new(true));
    let position = Position::new(Grid::from_rows(&["110", "011", "101"]));
    for dense_limit in [u64::MAX, 0] {
        cancel.store(true, Ordering::Relaxed);
        let mut solver = SplitSolver::new()
            .with_dense_limit(dense_limit)
            .with_stop(Arc::clone(&cancel));
        assert_eq!(solver.value(&position), Err(SolveError::Stopped));
        cancel.store(false, Ordering::Relaxed);
        let mut plain = SplitSolver::new().with_dense_limit(dense_limit);
        assert_eq!(solver.value(&position), plain.value(&position));
    }
}
