//! Boards of any size against independent oracles: a cell-by-cell flood
//! fill, rectangles found by testing every corner pair, shapes normalised
//! by moving cell lists, and the mex recursion over sets of cells. None of
//! them shares code with the engine.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::time::Duration;

use proptest::prelude::*;

use super::*;
use crate::clear::{Bitboard, Board, Clear};
use crate::{Budget, MexSet, Nimber, SolveError};

type Cells = BTreeSet<(i64, i64)>;

fn cells_of(board: &LargeBoard) -> Cells {
    let mut out = Cells::new();
    for r in 0..board.rows() {
        for c in 0..board.cols() {
            if board.get(r, c) {
                out.insert((i64::from(r), i64::from(c)));
            }
        }
    }
    out
}

fn board_of(rows: u32, cols: u32, cells: &Cells) -> LargeBoard {
    let mut board = LargeBoard::zeros(u64::from(rows), u64::from(cols)).unwrap();
    for &(r, c) in cells {
        board.set(r as u32, c as u32, true);
    }
    board
}

/// Components by a cell-by-cell flood fill, in order of first cell.
fn naive_components(cells: &Cells) -> Vec<Cells> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for &start in cells {
        if !seen.insert(start) {
            continue;
        }
        let mut component = Cells::new();
        let mut stack = vec![start];
        while let Some((r, c)) = stack.pop() {
            component.insert((r, c));
            for next in [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)] {
                if cells.contains(&next) && seen.insert(next) {
                    stack.push(next);
                }
            }
        }
        out.push(component);
    }
    out
}

/// Every rectangle of ones, by testing each pair of corners.
fn naive_rects(cells: &Cells) -> Vec<(i64, i64, i64, i64)> {
    let mut out = Vec::new();
    for &(top, left) in cells {
        for &(bottom, right) in cells {
            if bottom < top || right < left {
                continue;
            }
            let full = (top..=bottom).all(|r| (left..=right).all(|c| cells.contains(&(r, c))));
            if full {
                out.push((top, left, bottom, right));
            }
        }
    }
    out
}

/// A shape moved so its box starts at (0, 0).
fn normalise(cells: &Cells) -> Cells {
    let top = cells.iter().map(|c| c.0).min().unwrap_or(0);
    let left = cells.iter().map(|c| c.1).min().unwrap_or(0);
    cells.iter().map(|&(r, c)| (r - top, c - left)).collect()
}

/// The least of a shape's 8 images, each normalised.
fn naive_class(cells: &Cells) -> Vec<(i64, i64)> {
    type Map = fn((i64, i64)) -> (i64, i64);
    let maps: [Map; 8] = [
        |(r, c)| (r, c),
        |(r, c)| (r, -c),
        |(r, c)| (-r, c),
        |(r, c)| (-r, -c),
        |(r, c)| (c, r),
        |(r, c)| (c, -r),
        |(r, c)| (-c, r),
        |(r, c)| (-c, -r),
    ];
    maps.iter()
        .map(|map| normalise(&cells.iter().map(|&x| map(x)).collect()))
        .map(|s| s.into_iter().collect::<Vec<_>>())
        .min()
        .unwrap()
}

/// The mex recursion over one connected shape's options, each option split
/// into components by the naive fill; memo on the normalised cells.
fn brute_component(cells: &Cells, memo: &mut HashMap<Cells, Nimber>) -> Nimber {
    let key = normalise(cells);
    if let Some(&value) = memo.get(&key) {
        return value;
    }
    let mut seen = MexSet::new();
    for (top, left, bottom, right) in naive_rects(&key) {
        let rest: Cells = key
            .iter()
            .filter(|&&(r, c)| !(top..=bottom).contains(&r) || !(left..=right).contains(&c))
            .copied()
            .collect();
        seen.insert(brute_value(&rest, memo));
    }
    let value = seen.mex();
    memo.insert(key, value);
    value
}

fn brute_value(cells: &Cells, memo: &mut HashMap<Cells, Nimber>) -> Nimber {
    naive_components(cells)
        .iter()
        .map(|c| brute_component(c, memo))
        .sum()
}

/// True when the shapes of `cells` pair up under congruence.
fn naive_pairs(cells: &Cells) -> bool {
    let mut odd: HashSet<Vec<(i64, i64)>> = HashSet::new();
    for component in naive_components(cells) {
        let class = naive_class(&component);
        if !odd.remove(&class) {
            odd.insert(class);
        }
    }
    odd.is_empty()
}

fn cleared(cells: &Cells, rect: LargeRect) -> Cells {
    cells
        .iter()
        .filter(|&&(r, c)| {
            !(i64::from(rect.top)..=i64::from(rect.bottom)).contains(&r)
                || !(i64::from(rect.left)..=i64::from(rect.right)).contains(&c)
        })
        .copied()
        .collect()
}

fn random_board(rows: u32, cols: u32, percent: u32, seed: u64) -> LargeBoard {
    let mut state = seed | 1;
    let mut board = LargeBoard::zeros(u64::from(rows), u64::from(cols)).unwrap();
    for r in 0..rows {
        for c in 0..cols {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            if (state % 100) < u64::from(percent) {
                board.set(r, c, true);
            }
        }
    }
    board
}

fn full(rows: u32, cols: u32) -> LargeBoard {
    let mut board = LargeBoard::zeros(u64::from(rows), u64::from(cols)).unwrap();
    for r in 0..rows {
        board.set_run(r, 0, cols);
    }
    board
}

fn analyzer() -> Analyzer {
    Analyzer::new(Clear::new(), Budget::UNLIMITED)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Labelling agrees with the naive fill, across word boundaries too.
    #[test]
    fn components_match_a_flood_fill(rows in 1u32..12, cols in 1u32..140, percent in 20u32..80, seed: u64) {
        let board = random_board(rows, cols, percent, seed);
        let cells = cells_of(&board);
        let naive = naive_components(&cells);
        let found = board.components();
        prop_assert_eq!(found.len(), naive.len());
        for (i, expected) in naive.iter().enumerate() {
            let mut got = Cells::new();
            for run in found.runs(i) {
                for c in run.start..run.end {
                    got.insert((i64::from(run.row), i64::from(c)));
                }
            }
            prop_assert_eq!(&got, expected);
            let extent = Extent::of(found.runs(i));
            prop_assert_eq!(extent.cells, expected.len() as u64);
        }
    }

    /// The rectangles are exactly the all-ones ones, each legal, in the
    /// small boards' order when the board is small.
    #[test]
    fn rects_match_every_corner_pair(rows in 1u32..7, cols in 1u32..70, percent in 50u32..95, seed: u64) {
        let board = random_board(rows, cols, percent, seed);
        let mut found = Vec::new();
        board.for_each_rect(|r| found.push(r));
        let got: BTreeSet<_> = found.iter().map(|r| (i64::from(r.top), i64::from(r.left), i64::from(r.bottom), i64::from(r.right))).collect();
        let expected: BTreeSet<_> = naive_rects(&cells_of(&board)).into_iter().collect();
        prop_assert_eq!(got.len(), found.len());
        prop_assert_eq!(got, expected);
        for r in &found {
            prop_assert!(board.is_legal(*r));
            let after = board.try_play(*r).unwrap();
            prop_assert_eq!(after.count_ones(), board.count_ones() - r.area());
        }
        if let Some(small) = board.to_board() {
            let mut order = Vec::new();
            small.for_each_rect(|r, _| order.push(LargeRect::from(r)));
            prop_assert_eq!(order, found);
        }
    }

    /// The word-wise images are the 8 symmetries cell by cell, on boards
    /// of several words a row and several 64-row bands, with ragged ends.
    #[test]
    fn images_move_each_cell_where_the_symmetry_says(rows in 1u32..200, cols in 1u32..200, percent in 0u32..=100, seed: u64, symmetry in 0u8..8) {
        let board = random_board(rows, cols, percent, seed);
        let image = board.transform(symmetry);
        let transposes = symmetry & 4 != 0;
        prop_assert_eq!((image.rows(), image.cols()), if transposes { (cols, rows) } else { (rows, cols) });
        prop_assert_eq!(image.count_ones(), board.count_ones());
        for r in 0..rows {
            for c in 0..cols {
                let r2 = if symmetry & 2 != 0 { rows - 1 - r } else { r };
                let c2 = if symmetry & 1 != 0 { cols - 1 - c } else { c };
                let (r2, c2) = if transposes { (c2, r2) } else { (r2, c2) };
                prop_assert_eq!(image.get(r2, c2), board.get(r, c), "cell ({}, {})", r, c);
            }
        }
    }

    /// Congruent shapes share a class, and a class is the naive one's.
    #[test]
    fn classes_are_congruence_classes(rows in 1u32..13, cols in 1u32..13, percent in 40u32..90, seed: u64, symmetry in 0u8..8) {
        let board = random_board(rows, cols, percent, seed);
        let Some((shape, _, _)) = board.cut() else { return Ok(()) };
        let image = shape.transform(symmetry);
        prop_assert_eq!(ShapeClass::of_cut(&shape), ShapeClass::of_cut(&image));
        let other = random_board(rows, cols, percent, seed ^ 0x9e37);
        if let Some((other, _, _)) = other.cut() {
            let same = naive_class(&cells_of(&shape)) == naive_class(&cells_of(&other));
            prop_assert_eq!(ShapeClass::of_cut(&shape) == ShapeClass::of_cut(&other), same);
        }
        if let Some(small) = shape.to_board() {
            let mut symmetric = small.transform(symmetry);
            symmetric = Board::new(symmetric.rows(), symmetric.cols(), symmetric.cells().0).unwrap();
            prop_assert_eq!(LargeBoard::from_board(&symmetric), image);
        }
    }

    /// Value and winning moves of boards with small components, against
    /// the naive components valued by the mex recursion.
    #[test]
    fn large_boards_match_brute_force(rows in 9u32..40, cols in 9u32..300, seed: u64) {
        let board = random_board(rows, cols, 18, seed);
        let cells = cells_of(&board);
        let components = naive_components(&cells);
        prop_assume!(components.iter().all(|c| c.len() <= 9));
        let mut memo = HashMap::new();
        let values: Vec<Nimber> = components.iter().map(|c| brute_component(c, &mut memo)).collect();
        let total: Nimber = values.iter().copied().sum();
        let analysis = analyse(std::slice::from_ref(&board), &mut analyzer());
        prop_assert_eq!(analysis.value, Some(total));
        prop_assert!(analysis.winning_complete);
        let mut expected = BTreeSet::new();
        for (component, value) in components.iter().zip(&values) {
            for (top, left, bottom, right) in naive_rects(component) {
                let rect = LargeRect { top: top as u32, left: left as u32, bottom: bottom as u32, right: right as u32 };
                let rest = cleared(component, rect);
                if brute_value(&rest, &mut memo) == *value ^ total {
                    expected.insert(rect);
                }
            }
        }
        let got: BTreeSet<LargeRect> = analysis.winning.iter().map(|m| m.rect).collect();
        prop_assert_eq!(got.len(), analysis.winning.len());
        prop_assert_eq!(got, expected);
    }

    /// Boards of at most 64 cells: the same value and winning moves as the
    /// small-board solver. At most 24 ones (the lowest dropped first), so
    /// no case takes the seconds a dense component of 30 would.
    #[test]
    fn small_boards_match_the_small_solver(rows in 1usize..=8, cols in 1usize..=8, bits: u64) {
        prop_assume!(rows * cols <= 64);
        let mut cells = bits & Bitboard::below((rows * cols) as u32).0;
        while cells.count_ones() > 24 {
            cells &= cells - 1;
        }
        let small = Board::new(rows, cols, cells).unwrap();
        let large = LargeBoard::from_board(&small);
        let mut solver = Clear::solver();
        let value = solver.value(&small).unwrap();
        let analysis = analyse(std::slice::from_ref(&large), &mut analyzer());
        prop_assert_eq!(analysis.value, Some(value));
        let expected: Vec<LargeRect> = solver.winning_moves(&small).unwrap().into_iter().map(|(r, _)| LargeRect::from(r)).collect();
        let mut got: Vec<LargeRect> = analysis.winning.iter().map(|m| m.rect).collect();
        let mut want = expected.clone();
        got.sort();
        want.sort();
        prop_assert_eq!(got, want);
    }

    /// Two congruent copies cancel: the value is the rest's (the brute
    /// force's, and the line's length).
    #[test]
    fn congruent_pairs_cancel(rows in 2u32..6, cols in 2u32..6, seed: u64, symmetry in 0u8..8, line in 1u32..6) {
        let shape = random_board(rows, cols, 60, seed);
        let Some((shape, _, _)) = shape.cut() else { return Ok(()) };
        let image = shape.transform(symmetry);
        let mut cells = Cells::new();
        for &(r, c) in &cells_of(&shape) { cells.insert((r, c)); }
        for &(r, c) in &cells_of(&image) { cells.insert((r, c + 8)); }
        for c in 0..line { cells.insert((8, i64::from(c))); }
        let board = board_of(9, 16, &cells);
        let mut analyzer = analyzer();
        analyzer.start();
        let mut analysis = classify(std::slice::from_ref(&board));
        value_unpaired(&mut analysis, &mut analyzer);
        // The whole board's brute force, where it is cheap: its positions
        // are pairs of the two copies' sub-positions, so a copy of 9 cells
        // or more makes it take seconds to minutes (the copies cancel
        // whatever their size, which the second check asserts).
        if cells_of(&shape).len() <= 8 {
            let mut memo = HashMap::new();
            prop_assert_eq!(analysis.value, Some(brute_value(&cells, &mut memo)));
        }
        prop_assert_eq!(analysis.value, Some(Nimber::new(line)));
    }

    /// The engine's move on small boards is legal, proven, and right.
    #[test]
    fn engine_moves_are_legal_and_proven(rows in 1u32..=4, cols in 1u32..=4, percent in 30u32..100, seed: u64) {
        let board = random_board(rows, cols, percent, seed);
        let cells = cells_of(&board);
        let mut memo = HashMap::new();
        let before = brute_value(&cells, &mut memo);
        match choose_move(std::slice::from_ref(&board), &mut analyzer()) {
            None => prop_assert!(cells.is_empty()),
            Some(choice) => {
                prop_assert!(board.is_legal(choice.rect));
                prop_assert!(choice.proven());
                let after = brute_value(&cleared(&cells, choice.rect), &mut memo);
                prop_assert_eq!(choice.wins(), !before.is_zero());
                if choice.wins() {
                    prop_assert!(after.is_zero());
                }
            }
        }
    }
}

/// The classes that cancel need no value for the total, yet the analysis
/// shows those known without a search: each against the brute force.
#[test]
fn classes_that_cancel_show_the_values_known_without_a_search() {
    // Two copies each of a line of 14 (a closed form), a 2 x 3 block and
    // an L of 4 (the small tables), on a board of more than 64 cells.
    let mut cells = Cells::new();
    for top in [0, 4] {
        cells.extend((0..14).map(|c| (top, c)));
        cells.extend((1..3).flat_map(|r| (16..19).map(move |c| (top + r, c))));
        cells.extend([(top, 21), (top + 1, 21), (top + 2, 21), (top + 2, 22)]);
    }
    let board = board_of(8, 24, &cells);
    let analysis = analyse(std::slice::from_ref(&board), &mut analyzer());
    assert_eq!(analysis.value, Some(Nimber::ZERO));
    assert_eq!(analysis.components.len(), 6);
    let mut memo = HashMap::new();
    for (index, info) in analysis.components.iter().enumerate() {
        let shape = match analysis.part(index) {
            Part::Small(small) => cells_of(&LargeBoard::from_board(&small)),
            Part::Large(large) => cells_of(&large),
        };
        let value = analysis.classes[info.class as usize].value;
        assert_eq!(
            value,
            Some(brute_component(&shape, &mut memo)),
            "component {index}"
        );
    }
}

/// A full board minus its four corners: symmetric both ways, and no
/// longer one rectangle.
fn cornerless(rows: u32, cols: u32) -> LargeBoard {
    let mut board = full(rows, cols);
    for (r, c) in [(0, 0), (0, cols - 1), (rows - 1, 0), (rows - 1, cols - 1)] {
        board.set(r, c, false);
    }
    board
}

/// Every full board is won at once (it is one rectangle), and every full
/// board minus its corners by its middle band, which leaves two congruent
/// halves: proven on every size to 12 x 12, checked by the naive pairing,
/// and by the brute force where it is feasible.
#[test]
fn full_boards_are_won_by_halving() {
    for rows in 1..=12u32 {
        for cols in 1..=12u32 {
            let board = full(rows, cols);
            let choice = choose_move(std::slice::from_ref(&board), &mut analyzer()).unwrap();
            assert!(
                choice.proven() && choice.wins(),
                "{rows} x {cols}: {choice:?}"
            );
            assert_eq!(choice.rect.area(), u64::from(rows * cols));
            if rows < 3 || cols < 3 {
                continue;
            }
            let board = cornerless(rows, cols);
            let choice = choose_move(std::slice::from_ref(&board), &mut analyzer()).unwrap();
            assert!(board.is_legal(choice.rect), "{rows} x {cols}");
            assert!(
                choice.proven() && choice.wins(),
                "{rows} x {cols}: {choice:?}"
            );
            assert_eq!(
                choice.reason,
                MoveReason::Pairs {
                    halves: true,
                    clears_all: false
                },
                "{rows} x {cols}"
            );
            let after = cleared(&cells_of(&board), choice.rect);
            assert!(naive_pairs(&after), "{rows} x {cols}: {choice:?}");
            if rows * cols <= 16 {
                let mut memo = HashMap::new();
                assert!(brute_value(&after, &mut memo).is_zero());
            }
        }
    }
}

/// An L of two equal arms, in each of its four orientations, is its own
/// mirror image across a diagonal, and its corner cell halves it into two
/// equal lines: proven by pairs on every size, checked by the naive
/// pairing, and by the brute force where it is feasible.
#[test]
fn an_l_of_equal_arms_is_won_by_its_corner() {
    for n in [2u32, 3, 5, 8, 40, 300] {
        for (row, col) in [(0, 0), (0, n - 1), (n - 1, 0), (n - 1, n - 1)] {
            let mut board = LargeBoard::zeros(u64::from(n), u64::from(n)).unwrap();
            board.set_run(row, 0, n);
            for r in 0..n {
                board.set_run(r, col, col + 1);
            }
            let choice = choose_move(std::slice::from_ref(&board), &mut analyzer()).unwrap();
            let corner = LargeRect {
                top: row,
                left: col,
                bottom: row,
                right: col,
            };
            assert_eq!(
                choice.rect, corner,
                "{n}, corner ({row}, {col}): {choice:?}"
            );
            assert!(choice.proven() && choice.wins(), "{n}: {choice:?}");
            let after = cleared(&cells_of(&board), choice.rect);
            assert!(naive_pairs(&after), "{n}: {choice:?}");
            if 2 * n - 1 <= 16 {
                let mut memo = HashMap::new();
                assert!(brute_value(&after, &mut memo).is_zero(), "{n}");
            }
        }
    }
}

/// After the halving move, every reply is mirrored at once, to the end of
/// the game, on boards whose values nobody knows.
#[test]
fn replies_are_mirrored_to_the_end() {
    for (rows, cols, seed) in [(8, 8, 1u64), (9, 7, 2), (100, 100, 3), (3, 40, 4)] {
        let mut board = cornerless(rows, cols);
        let budget = Budget {
            max_time: Some(Duration::from_secs(5)),
            ..Budget::UNLIMITED
        };
        let mut state = seed;
        let mut plies = 0;
        loop {
            let Some(choice) = choose_move(
                std::slice::from_ref(&board),
                &mut Analyzer::new(Clear::new(), budget),
            ) else {
                break;
            };
            assert!(
                matches!(choice.reason, MoveReason::Pairs { .. }),
                "{rows} x {cols} ply {plies}: {choice:?}"
            );
            board = board.try_play(choice.rect).unwrap();
            assert!(
                naive_pairs(&cells_of(&board)),
                "{rows} x {cols} ply {plies}: {choice:?}"
            );
            // The opponent clears a random rectangle: the first cell's
            // widest rectangle, at a random cell.
            let cells: Vec<_> = cells_of(&board).into_iter().collect();
            if cells.is_empty() {
                break;
            }
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let (r, c) = cells[(state >> 33) as usize % cells.len()];
            let mut rect = LargeRect {
                top: r as u32,
                left: c as u32,
                bottom: r as u32,
                right: c as u32,
            };
            while board.is_legal(LargeRect {
                right: rect.right + 1,
                ..rect
            }) && (state >> 20) % 3 != 0
            {
                rect.right += 1;
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
            }
            board = board.try_play(rect).unwrap();
            plies += 1;
            if rows * cols > 1000 && plies > 6 {
                break;
            }
        }
    }
}

/// A dense shape no budget of a millisecond can value: the engine still
/// plays a legal move and says it is unproven.
#[test]
fn out_of_budget_the_engine_still_plays() {
    let rows = [
        "1011111", "1111101", "1101101", "0111101", "1011111", "0111110", "0111001",
    ];
    let mut board = LargeBoard::zeros(7, 7).unwrap();
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            board.set(r as u32, c as u32, ch == '1');
        }
    }
    let budget = Budget {
        max_time: Some(Duration::from_millis(1)),
        ..Budget::UNLIMITED
    };
    let choice = choose_move(
        std::slice::from_ref(&board),
        &mut Analyzer::new(Clear::new(), budget),
    )
    .unwrap();
    assert!(board.is_legal(choice.rect));
    assert!(!choice.proven(), "{choice:?}");
    let analysis = analyse(
        std::slice::from_ref(&board),
        &mut Analyzer::new(Clear::new(), budget),
    );
    assert_eq!(analysis.value, None);
    assert!(analysis.stopped.is_some());
    assert!(!analysis.winning_complete);
}

/// Two mirror-image dense blocks and a line of 3: value 3 at once, and the
/// line's clearing is the winning move the pairs prove.
#[test]
fn two_equal_hard_blocks_and_a_line() {
    let rows = [
        "1011111", "1111101", "1101101", "0111101", "1011111", "0111110", "0111001",
    ];
    let mut board = LargeBoard::zeros(9, 16).unwrap();
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            if ch == '1' {
                board.set(r as u32, c as u32, true);
                board.set(r as u32, 15 - c as u32, true);
            }
        }
    }
    board.set_run(8, 0, 3);
    let budget = Budget {
        max_time: Some(Duration::from_millis(200)),
        ..Budget::UNLIMITED
    };
    let mut analyzer = Analyzer::new(Clear::new(), budget);
    analyzer.start();
    let mut analysis = classify(std::slice::from_ref(&board));
    value_unpaired(&mut analysis, &mut analyzer);
    assert_eq!(analysis.value, Some(Nimber::new(3)));
    let choice = choose_move(
        std::slice::from_ref(&board),
        &mut Analyzer::new(Clear::new(), budget),
    )
    .unwrap();
    assert!(choice.wins());
    assert_eq!(
        choice.rect,
        LargeRect {
            top: 8,
            left: 0,
            bottom: 8,
            right: 2
        }
    );
}

/// A full 9 x 9 board (its value unknown within the budget) beside two
/// shapes of equal value that are not congruent (a 2 x 2 block and one
/// cell, valued by brute force): clearing the whole 9 x 9 leaves values
/// whose XOR is 0, so the engine proves it at once, and the analysis names
/// it, where the pairs alone prove nothing.
#[test]
fn a_shape_whose_others_cancel_by_their_values_is_played_to_zero() {
    let mut memo = HashMap::new();
    let block: Cells = [(0, 0), (0, 1), (1, 0), (1, 1)].into_iter().collect();
    let cell: Cells = [(0, 0)].into_iter().collect();
    assert_eq!(
        brute_value(&block, &mut memo),
        brute_value(&cell, &mut memo)
    );
    let boards = [full(9, 9), full(2, 2), full(1, 1)];
    let budget = Budget {
        max_time: Some(Duration::from_millis(300)),
        ..Budget::UNLIMITED
    };
    let choice = choose_move(&boards, &mut Analyzer::new(Clear::new(), budget)).unwrap();
    assert!(choice.proven() && choice.wins(), "{choice:?}");
    assert_eq!(
        (choice.board, choice.rect),
        (
            0,
            LargeRect {
                top: 0,
                left: 0,
                bottom: 8,
                right: 8
            }
        )
    );
    let analysis = analyse(&boards, &mut Analyzer::new(Clear::new(), budget));
    assert_eq!(analysis.first_player_wins, Some(true));
    assert!(analysis.others_cancel_by_values());
    assert_eq!(analysis.winning.len(), 1, "{:?}", analysis.winning);
    assert_eq!(analysis.winning[0].reason, WinReason::LeavesZero);
}

/// Two shapes past the small boards' 64 cells together, whose values the
/// budget does not reach: a 5 x 6 block less its corner, and a full 5 x 6
/// block below it. Clearing the full block's corner leaves two equal
/// shapes (X xor X = 0, whatever X is), and the analysis names that move
/// as the engine does, though its value search ran out of time first.
#[test]
fn a_move_that_leaves_pairs_is_found_when_the_values_run_out_of_time() {
    let mut board = LargeBoard::zeros(11, 6).unwrap();
    for row in (0..5).chain(6..11) {
        board.set_run(row, 0, 6);
    }
    board.set(0, 0, false);
    let corner = LargeRect {
        top: 6,
        left: 0,
        bottom: 6,
        right: 0,
    };
    let mut after = board.clone();
    after.set(6, 0, false);
    for row in 0..5 {
        for col in 0..6 {
            assert_eq!(
                after.get(row, col),
                after.get(row + 6, col),
                "({row}, {col})"
            );
        }
    }
    let budget = Budget {
        max_time: Some(Duration::from_millis(200)),
        ..Budget::UNLIMITED
    };
    let boards = std::slice::from_ref(&board);
    let choice = choose_move(boards, &mut Analyzer::new(Clear::new(), budget)).unwrap();
    assert!(choice.proven() && choice.wins(), "{choice:?}");
    assert_eq!(choice.rect, corner);
    let analysis = analyse(boards, &mut Analyzer::new(Clear::new(), budget));
    assert_eq!(
        analysis.first_player_wins,
        Some(true),
        "{:?}",
        analysis.stopped
    );
    assert!(
        analysis.winning.iter().any(|m| m.rect == corner),
        "{:?}",
        analysis.winning
    );
}

/// A shape past the small tables beside another that does not cancel,
/// under position budgets that stop its value search and a time budget
/// that does not: the analysis finds the value exactly when the value
/// search alone finds it within the same position budget (it goes on in
/// the time the pairs leave only after a stop by the clock), and otherwise
/// names the position budget.
#[test]
fn a_position_budget_stops_the_analysis_of_several_shapes() {
    let shape = block(&["11111", "10101", "11111", "10001", "11111"]);
    let boards = [shape.clone(), full(1, 1)];
    let mut found = 0;
    for positions in [10, 40, 160, 640, 2560, 10240] {
        let budget = Budget {
            max_positions: Some(positions),
            max_time: Some(Duration::from_secs(30)),
            ..Budget::UNLIMITED
        };
        let analysis = analyse(&boards, &mut Analyzer::new(Clear::new(), budget));
        let part = classify(std::slice::from_ref(&shape)).part(0);
        let alone = Analyzer::new(Clear::new(), budget).value(&part);
        assert_eq!(analysis.value.is_some(), alone.is_ok(), "{positions}");
        if analysis.value.is_none() {
            assert!(
                matches!(analysis.stopped, Some(SolveError::PositionBudget { .. })),
                "{positions}: {:?}",
                analysis.stopped
            );
        } else {
            found += 1;
        }
    }
    assert!(found > 0 && found < 6, "{found}");
}

/// A time budget past what the clock can count (`Duration::MAX`, which
/// overflows `Instant` when added to it) is no time limit: the analysis and
/// the engine's move are those of a budget without one.
#[test]
fn a_time_budget_past_the_clock_is_no_limit() {
    let mut board = LargeBoard::zeros(9, 12).unwrap();
    board.set_run(0, 0, 3);
    board.set_run(4, 5, 9);
    board.set_run(8, 2, 9);
    let endless = Budget {
        max_time: Some(Duration::MAX),
        ..Budget::UNLIMITED
    };
    let boards = std::slice::from_ref(&board);
    let with = analyse(boards, &mut Analyzer::new(Clear::new(), endless));
    let without = analyse(boards, &mut Analyzer::new(Clear::new(), Budget::UNLIMITED));
    // Three lines of 3, 4 and 7 cells: a line of k cells has value k.
    assert_eq!(with.value, Some(Nimber::new(3 ^ 4 ^ 7)));
    assert_eq!(with.value, without.value);
    let chosen = |budget| {
        choose_move(boards, &mut Analyzer::new(Clear::new(), budget))
            .unwrap()
            .rect
    };
    assert_eq!(chosen(endless), chosen(Budget::UNLIMITED));
}

/// Listing rectangles stops at the first `false` from the visitor, and
/// lists all `n (n + 1) / 2` of a line of `n` cells otherwise.
#[test]
fn the_rectangle_listing_stops_when_told() {
    let n = 1000u32;
    let mut line = LargeBoard::zeros(1, u64::from(n)).unwrap();
    line.set_run(0, 0, n);
    let mut visited = 0u64;
    let finished = line.for_each_rect_while(|_| {
        visited += 1;
        visited < 10
    });
    assert!(!finished);
    assert_eq!(visited, 10);
    let mut all = 0u64;
    assert!(line.for_each_rect_while(|_| {
        all += 1;
        true
    }));
    assert_eq!(all, u64::from(n) * u64::from(n + 1) / 2);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// A straight line past 64 cells gets its moves to a value by the
    /// closed form, the same as the search lists them, either way round.
    #[test]
    fn a_lines_moves_to_a_value_are_the_searchs(n in 65u32..160, target in 0u32..200, tall: bool) {
        let (rows, cols) = if tall { (n, 1) } else { (1, n) };
        let mut line = LargeBoard::zeros(u64::from(rows), u64::from(cols)).unwrap();
        for i in 0..n {
            if tall { line.set(i, 0, true) } else { line.set(0, i, true) }
        }
        let part = Part::Large(std::sync::Arc::new(line));
        let mut got = analyzer().moves_to(&part, Nimber::new(target)).unwrap();
        let mut searched: Vec<LargeRect> = crate::Solver::new(LargeClear::new(Clear::new()))
            .moves_to(&part, Nimber::new(target))
            .unwrap()
            .into_iter()
            .map(|(rect, _)| rect)
            .collect();
        got.sort();
        searched.sort();
        prop_assert_eq!(got, searched);
    }
}

/// A large board's options stop at the memory limit of one listing: a line
/// of 2^16 cells (2^31 rectangles, each option a copy of the board) lists a
/// few hundred options, and the game says why it stopped.
#[test]
fn a_large_listing_stops_at_its_memory_limit() {
    let n = 1u32 << 16;
    let mut line = LargeBoard::zeros(1, u64::from(n)).unwrap();
    line.set_run(0, 0, n);
    use crate::Game;
    let part = Part::Large(std::sync::Arc::new(line));
    let mut game = LargeClear::new(Clear::new());
    game.set_limits(None, 1 << 20, None);
    let mut listed = 0u64;
    game.for_each_option(&part, |_, _| listed += 1);
    assert!(listed > 0 && listed <= 256, "{listed}");
    assert!(matches!(
        game.interrupted(),
        Some(crate::SolveError::MemoryBudget { .. })
    ));
}

/// On a board of megabytes each option is a copy of that size, so the
/// memory limit is checked at every option, not every 256th: the listing
/// stops within one option of the limit.
#[test]
fn a_listing_of_large_copies_stops_within_one_of_its_limit() {
    let n = 1u32 << 23;
    let mut line = LargeBoard::zeros(1, u64::from(n)).unwrap();
    line.set_run(0, 0, n);
    let each = line.allocated_bytes() as u64;
    use crate::Game;
    let part = Part::Large(std::sync::Arc::new(line));
    let mut game = LargeClear::new(Clear::new());
    game.set_limits(None, 4 * each, None);
    let mut listed = 0u64;
    game.for_each_option(&part, |_, _| listed += 1);
    assert!((1..=4).contains(&listed), "{listed}");
    assert!(matches!(
        game.interrupted(),
        Some(crate::SolveError::MemoryBudget { .. })
    ));
}

/// A position budget bounds one expansion of a large board too: each
/// option listed is a position examined.
#[test]
fn a_listing_stops_at_the_position_budget() {
    use crate::Game;
    let mut full = LargeBoard::zeros(100, 100).unwrap();
    for row in 0..100 {
        full.set_run(row, 0, 100);
    }
    let part = Part::Large(std::sync::Arc::new(full));
    let mut game = LargeClear::new(Clear::new());
    game.set_limits(None, u64::MAX, Some(10));
    let mut listed = 0u64;
    game.for_each_option(&part, |_, _| listed += 1);
    assert_eq!(listed, 10);
    assert!(matches!(
        game.interrupted(),
        Some(crate::SolveError::PositionBudget {
            limit: 10,
            needed: None
        })
    ));
}

/// The search of a wide shape counts the boards it holds (each pending
/// part and memoised shape a board of its own) and stops near its memory
/// budget, not after a descent has passed it many times over.
#[test]
fn a_wide_shapes_search_stops_near_its_memory_budget() {
    let mut wide = LargeBoard::zeros(3, 100).unwrap();
    for row in 0..3 {
        wide.set_run(row, 0, 100);
    }
    let limit = 16u64 << 20;
    let budget = Budget {
        max_memory: Some(2 * limit),
        ..Budget::UNLIMITED
    };
    let analysis = analyse(
        std::slice::from_ref(&wide),
        &mut Analyzer::new(Clear::new(), budget),
    );
    // The error names the user's budget, and what both memos held with the
    // growth step that would have passed it.
    match analysis.stopped {
        Some(crate::SolveError::MemoryBudget { used, limit: named }) => {
            assert_eq!(named, 2 * limit);
            assert!(used > named, "{used} bytes counted against {named}");
            assert!(used < 3 * limit, "{used} bytes counted against {named}");
        }
        other => panic!("{other:?}"),
    }
}

/// A line's value is known at once, and so are its winning moves, within
/// a memory budget far below its 2^31 options: the moves to 0 leave two
/// equal lines (X xor X = 0), one for each length below half the line.
#[test]
fn a_long_lines_winning_moves_need_no_search() {
    let n = 1u32 << 16;
    let mut line = LargeBoard::zeros(1, u64::from(n)).unwrap();
    line.set_run(0, 0, n);
    let budget = Budget {
        max_memory: Some(1 << 20),
        ..Budget::UNLIMITED
    };
    let analysis = analyse(
        std::slice::from_ref(&line),
        &mut Analyzer::new(Clear::new(), budget),
    );
    assert_eq!(analysis.value, Some(Nimber::new(n)));
    assert!(analysis.winning_complete);
    assert_eq!(analysis.winning.len() as u32, n / 2);
    for m in &analysis.winning {
        let (left, right) = (m.rect.left, n - 1 - m.rect.right);
        assert_eq!((m.rect.top, m.rect.bottom, left), (0, 0, right), "{m:?}");
    }
}

/// The board of a dense block given as rows of `0`/`1`.
fn block(rows: &[&str]) -> LargeBoard {
    let mut board = LargeBoard::zeros(rows.len() as u64, rows[0].len() as u64).unwrap();
    for (r, row) in rows.iter().enumerate() {
        for (c, cell) in row.bytes().enumerate() {
            board.set(r as u32, c as u32, cell == b'1');
        }
    }
    board
}

/// One dense 7 x 7 block of 29 cells (block 1 of `bench/ab-blocks.sh`):
/// its value is out of reach of a 20,000-position budget, but the outcome
/// search proves a winning move within it, and the solver values what the
/// move leaves at 0.
#[test]
fn the_outcome_search_proves_a_move_where_the_value_is_out_of_reach() {
    let rows = [
        "1111110", "1111110", "1111100", "0111000", "0111000", "0111000", "0111000",
    ];
    let board = block(&rows);
    let budget = Budget::positions(20_000);
    let small = board.to_board().unwrap();
    assert!(matches!(
        Clear::solver().with_budget(budget).value(&small),
        Err(crate::SolveError::PositionBudget { .. })
    ));
    let choice = choose_move(
        std::slice::from_ref(&board),
        &mut Analyzer::new(Clear::new(), budget),
    )
    .unwrap();
    assert_eq!(choice.reason, MoveReason::LeavesZero);
    assert!(board.is_legal(choice.rect));
    let after = board.try_play(choice.rect).unwrap().to_board().unwrap();
    assert!(Clear::solver().value(&after).unwrap().is_zero());
}

/// A full 3 x 8 board beside a line of 5, with a budget too small to value
/// the 3 x 8: clearing its first six columns leaves a 3 x 2 block, valued by
/// the small tables, beside the line; when those two values cancel, the
/// move is proven from the known total, not guessed, and the solver
/// values what it leaves at 0.
#[test]
fn a_move_whose_known_total_is_zero_is_proven() {
    let boards = [block(&["11111111"; 3]), block(&["11111"])];
    let budget = Budget::positions(10);
    assert!(Clear::solver()
        .with_budget(budget)
        .value(&boards[0].to_board().unwrap())
        .is_err());
    // The 3 x 2 block and the line of 5 have the same value (the solver's),
    // so such a move exists.
    let value = |b: &LargeBoard| Clear::solver().value(&b.to_board().unwrap()).unwrap();
    assert_eq!(value(&block(&["11"; 3])), value(&boards[1]));
    let choice = choose_move(&boards, &mut Analyzer::new(Clear::new(), budget)).unwrap();
    assert_eq!(choice.reason, MoveReason::KnownTotal);
    let played = choice.board as usize;
    assert!(boards[played].is_legal(choice.rect));
    let after = boards[played].try_play(choice.rect).unwrap();
    let total = boards.iter().enumerate().fold(Nimber::ZERO, |t, (i, b)| {
        t ^ value(if i == played { &after } else { b })
    });
    assert!(total.is_zero());
}

/// A board past 64 cells holding one dense block: its value is past a
/// 20,000-position budget, and the analysis still names the winner with a
/// move proven by outcome search, which the solver values at 0.
#[test]
fn a_large_analysis_past_its_budget_proves_a_move_by_outcome_search() {
    let rows = [
        "000000000",
        "011111100",
        "011111100",
        "011111000",
        "001110000",
        "001110000",
        "001110000",
        "001110000",
        "000000000",
    ];
    let board = block(&rows);
    let mut analyzer = Analyzer::new(Clear::new(), Budget::positions(20_000));
    let analysis = analyse(std::slice::from_ref(&board), &mut analyzer);
    assert!(analysis.value.is_none() && analysis.stopped.is_some());
    assert_eq!(analysis.first_player_wins, Some(true));
    let [found] = analysis.winning.as_slice() else {
        panic!("one winning move: {:?}", analysis.winning)
    };
    assert_eq!(found.reason, WinReason::LeavesZero);
    // What the move leaves, cut to the block's 7 x 7 box, is small.
    let inner: Vec<&str> = rows[1..8].iter().map(|row| &row[1..8]).collect();
    let rect = LargeRect {
        top: found.rect.top - 1,
        left: found.rect.left - 1,
        bottom: found.rect.bottom - 1,
        right: found.rect.right - 1,
    };
    let after = block(&inner).try_play(rect).unwrap().to_board().unwrap();
    assert!(Clear::solver().value(&after).unwrap().is_zero());
}

proptest! {
    /// Without an analysis the engine still plays a legal move, and calls
    /// it proven exactly when the ones of all the boards form one
    /// rectangle (clearing it leaves the opponent no move), checked
    /// against the cells: the move then clears every one.
    #[test]
    fn an_unanalysed_move_is_legal_and_proven_only_when_it_clears_all(
        boards in proptest::collection::vec((1u32..6, 1u32..6, 0u32..100, any::<u64>(), any::<bool>()), 1..4)
    ) {
        let boards: Vec<LargeBoard> = boards
            .iter()
            .map(|&(rows, cols, percent, seed, block)| {
                if block {
                    // A rectangle of ones somewhere, or none.
                    let mut board = LargeBoard::zeros(u64::from(rows), u64::from(cols)).unwrap();
                    let (top, left) = ((seed % 7) as u32 % rows, (seed / 7 % 7) as u32 % cols);
                    let (bottom, right) = ((seed / 49 % 7) as u32 % rows, (seed / 343 % 7) as u32 % cols);
                    for r in top..=bottom {
                        for c in left..=right {
                            board.set(r, c, true);
                        }
                    }
                    board
                } else {
                    random_board(rows, cols, percent, seed)
                }
            })
            .collect();
        let stopped = crate::SolveError::PositionBudget { limit: 0, needed: None };
        let ones: usize = boards.iter().map(|b| cells_of(b).len()).sum();
        match unanalysed_move(&boards, stopped) {
            None => prop_assert_eq!(ones, 0),
            Some(choice) => {
                let board = &boards[choice.board as usize];
                prop_assert!(board.is_legal(choice.rect));
                let clears_all = cells_of(board).len() == ones
                    && cleared(&cells_of(board), choice.rect).is_empty();
                // The ones form one rectangle exactly when some legal move
                // clears them all.
                let one_rectangle = boards.iter().any(|b| {
                    let cells = cells_of(b);
                    cells.len() == ones && !cells.is_empty() && {
                        let (r0, c0) = (cells.iter().map(|p| p.0).min().unwrap(), cells.iter().map(|p| p.1).min().unwrap());
                        let (r1, c1) = (cells.iter().map(|p| p.0).max().unwrap(), cells.iter().map(|p| p.1).max().unwrap());
                        ((r1 - r0 + 1) * (c1 - c0 + 1)) as usize == cells.len()
                    }
                });
                prop_assert_eq!(choice.proven(), one_rectangle, "{:?}", choice);
                prop_assert_eq!(choice.proven(), clears_all, "{:?}", choice);
            }
        }
    }
}

/// A budget spent before the engine starts: on a board of more components
/// than one grouping step, the engine plays a legal move without grouping
/// them (the budget named); on a board of few, it groups them all the
/// same, and pairs still prove a win.
#[test]
fn a_spent_budget_plays_at_once_on_many_components_and_pairs_on_few() {
    let spent = Budget {
        max_time: Some(std::time::Duration::ZERO),
        ..Budget::UNLIMITED
    };
    // 101 x 100 isolated ones: 10,100 components.
    let mut many = LargeBoard::zeros(201, 200).unwrap();
    for r in 0..101 {
        for c in 0..100 {
            many.set(2 * r, 2 * c, true);
        }
    }
    let mut analyzer = Analyzer::new(Clear::new(), spent);
    let choice = choose_move(std::slice::from_ref(&many), &mut analyzer).unwrap();
    assert!(many.is_legal(choice.rect), "{choice:?}");
    assert!(
        matches!(
            choice.reason,
            MoveReason::Unanalysed {
                stopped: crate::SolveError::TimeBudget { .. }
            }
        ),
        "{choice:?}"
    );
    // Two equal 3 x 3 blocks and a single one: clearing the single one
    // leaves pairs, which the engine proves without any time.
    let mut few = LargeBoard::zeros(3, 9).unwrap();
    for r in 0..3 {
        few.set_run(r, 0, 3);
        few.set_run(r, 4, 7);
    }
    few.set(0, 8, true);
    let mut analyzer = Analyzer::new(Clear::new(), spent);
    let choice = choose_move(std::slice::from_ref(&few), &mut analyzer).unwrap();
    assert!(choice.wins(), "{choice:?}");
    assert_eq!((choice.rect.top, choice.rect.left), (0, 8), "{choice:?}");
}

/// With no time to try moves, an unproven move in a shape left alone is its
/// first move (no move was shown to lose), or the band that halves it when
/// it is past 64 cells, and its reason names that guess.
#[test]
fn a_spent_budget_names_the_guess_it_plays() {
    let spent = Budget {
        max_time: Some(std::time::Duration::ZERO),
        ..Budget::UNLIMITED
    };
    let dense = block(&[
        "1111110", "1111110", "1111100", "0111000", "0111000", "0111000", "0111000",
    ]);
    // Its options' parts are all small enough for the built-in tables:
    // reading them, with no search, proves a move that leaves 0.
    let mut analyzer = Analyzer::new(Clear::new(), spent);
    let choice = choose_move(std::slice::from_ref(&dense), &mut analyzer).unwrap();
    assert_eq!(choice.reason, MoveReason::LeavesZero, "{choice:?}");
    assert!(dense.is_legal(choice.rect), "{choice:?}");
    let after = cleared(&cells_of(&dense), choice.rect);
    assert_eq!(brute_value(&after, &mut HashMap::new()), Nimber::ZERO);
    // A denser block of 41 cells, whose options' parts no table holds.
    let dense = block(&[
        "1111111", "1110111", "1110111", "1111101", "1010111", "0011101", "1111111",
    ]);
    let mut analyzer = Analyzer::new(Clear::new(), spent);
    let choice = choose_move(std::slice::from_ref(&dense), &mut analyzer).unwrap();
    assert!(
        matches!(
            choice.reason,
            MoveReason::Unproven {
                guess: Guess::NotShownToLose { refuted: 0, .. },
                ..
            }
        ),
        "{choice:?}"
    );
    assert_eq!(choice.rect.area(), 1, "{choice:?}");
    assert!(dense.is_legal(choice.rect), "{choice:?}");

    // 9 x 9 less three cells (78 cells, no half turn, no pair).
    let mut large = LargeBoard::zeros(9, 9).unwrap();
    for r in 0..9 {
        large.set_run(r, 0, 9);
    }
    for (r, c) in [(0, 0), (0, 1), (2, 8)] {
        large.set(r, c, false);
    }
    let mut analyzer = Analyzer::new(Clear::new(), spent);
    let choice = choose_move(std::slice::from_ref(&large), &mut analyzer).unwrap();
    assert!(large.is_legal(choice.rect), "{choice:?}");
    assert!(
        matches!(
            choice.reason,
            MoveReason::Unproven {
                guess: Guess::Halves,
                ..
            }
        ),
        "{choice:?}"
    );
}

/// A set of cells in a `rows x cols` box that is its own half turn: each
/// cell of `bits` (row-major over the box) with its image.
fn half_turn_set(rows: i64, cols: i64, bits: u64) -> Cells {
    let mut cells = Cells::new();
    for r in 0..rows {
        for c in 0..cols {
            if bits >> ((r * cols + c) % 64) & 1 != 0 {
                cells.insert((r, c));
                cells.insert((rows - 1 - r, cols - 1 - c));
            }
        }
    }
    cells
}

fn box_of(cells: &Cells) -> (i64, i64, i64, i64) {
    let rows = cells.iter().map(|c| c.0);
    let cols = cells.iter().map(|c| c.1);
    (
        rows.clone().min().unwrap(),
        rows.max().unwrap(),
        cols.clone().min().unwrap(),
        cols.max().unwrap(),
    )
}

/// `cells` cut to their box, as a board, with the box's corner.
fn cut_of(cells: &Cells) -> (LargeBoard, i64, i64) {
    let (top, bottom, left, right) = box_of(cells);
    let moved: Cells = cells.iter().map(|&(r, c)| (r - top, c - left)).collect();
    (
        board_of((bottom - top + 1) as u32, (right - left + 1) as u32, &moved),
        top,
        left,
    )
}

/// The move `half_turn::winning_move` finds for `cells`, checked against
/// the brute force: a rectangle of ones whose clearing leaves value 0.
fn checked_half_turn_move(
    cells: &Cells,
    memo: &mut HashMap<Cells, Nimber>,
) -> Result<Option<LargeRect>, TestCaseError> {
    let (shape, top, left) = cut_of(cells);
    let Some(rect) = half_turn::winning_move(&shape, &|| false) else {
        return Ok(None);
    };
    prop_assert!(shape.is_legal(rect), "{rect:?} in {cells:?}");
    let rect = rect.offset(top as u32, left as u32);
    prop_assert!(
        brute_value(&cleared(cells, rect), memo).is_zero(),
        "{rect:?} in {cells:?}"
    );
    Ok(Some(rect))
}

proptest! {
    // The brute force of up to 16 cells, once per reply: 64 cases keep
    // these two to seconds.
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A set that is its own half turn, its middle block not all ones, has
    /// value 0 by the brute force; with its middle block all ones, the move
    /// found wins.
    #[test]
    fn a_half_turn_set_is_lost_when_its_middle_is_uncovered(
        rows in 1i64..5, cols in 1i64..5, bits in any::<u64>(), middle in any::<bool>()
    ) {
        let mut cells = half_turn_set(rows, cols, bits);
        let (r2, c2) = (rows - 1, cols - 1);
        let block: Vec<(i64, i64)> = (r2.div_euclid(2)..=(r2 + 1).div_euclid(2))
            .flat_map(|r| (c2.div_euclid(2)..=(c2 + 1).div_euclid(2)).map(move |c| (r, c)))
            .collect();
        for &cell in &block {
            if middle {
                cells.insert(cell);
            } else {
                cells.remove(&cell);
            }
        }
        prop_assume!(!cells.is_empty());
        let mut memo = HashMap::new();
        let value = brute_value(&cells, &mut memo);
        let (shape, _, _) = cut_of(&cells);
        if half_turn::is_lost(&shape) {
            prop_assert!(value.is_zero(), "{cells:?}");
        }
        if !middle && box_of(&cells) == (0, rows - 1, 0, cols - 1) {
            prop_assert!(half_turn::is_lost(&shape), "{cells:?}");
        }
        let found = checked_half_turn_move(&cells, &mut memo)?;
        if middle {
            prop_assert!(found.is_some(), "{cells:?}");
        }
    }

    /// After any reply in a set that is its own half turn with an uncovered
    /// middle, the answer is found (a reply that moved the box's rows and
    /// its columns too), and every move found leaves value 0 by the brute
    /// force.
    #[test]
    fn every_reply_in_a_half_turn_set_is_answered(
        rows in 1i64..5, cols in 1i64..5, bits in any::<u64>()
    ) {
        let mut cells = half_turn_set(rows, cols, bits);
        let (r2, c2) = (rows - 1, cols - 1);
        cells.remove(&(r2.div_euclid(2), c2.div_euclid(2)));
        cells.remove(&((r2 + 1).div_euclid(2), (c2 + 1).div_euclid(2)));
        prop_assume!(!cells.is_empty());
        let mut memo = HashMap::new();
        for (top, left, bottom, right) in naive_rects(&cells) {
            let rect = LargeRect {
                top: top as u32,
                left: left as u32,
                bottom: bottom as u32,
                right: right as u32,
            };
            let after = cleared(&cells, rect);
            if after.is_empty() {
                continue;
            }
            let found = checked_half_turn_move(&after, &mut memo)?;
            prop_assert!(found.is_some(), "reply {rect:?} in {cells:?}");
        }
    }
}

/// A frame of any size is lost (the analysis values it 0 at once, with no
/// search); one side made thicker is won by clearing the extra row, and the
/// engine answers every reply after that until the opponent cannot move,
/// each answer proven (a half turn, or pairs once the frame is cut).
#[test]
fn a_frame_is_lost_and_a_thickened_one_is_played_out_by_half_turns() {
    let frame = |rows: u32, cols: u32, thick: bool| {
        let mut board = LargeBoard::zeros(u64::from(rows), u64::from(cols)).unwrap();
        for r in 0..rows {
            if r == 0 || r == rows - 1 || (thick && r == 1) {
                board.set_run(r, 0, cols);
            } else {
                board.set(r, 0, true);
                board.set(r, cols - 1, true);
            }
        }
        board
    };
    let analysis = analyse(&[frame(40, 25, false)], &mut analyzer());
    assert_eq!(analysis.value, Some(Nimber::ZERO));
    assert!(analysis.winning_complete && analysis.winning.is_empty());

    let mut board = frame(12, 9, true);
    let mut state = 7u64;
    let mut engine_moves = 0;
    loop {
        let choice = choose_move(std::slice::from_ref(&board), &mut analyzer())
            .expect("the engine's turn comes with a move left");
        assert!(choice.wins(), "{choice:?}");
        if engine_moves == 0 {
            assert_eq!(choice.reason, MoveReason::HalfTurn);
            assert_eq!(
                choice.rect,
                LargeRect {
                    top: 1,
                    left: 1,
                    bottom: 1,
                    right: 7
                }
            );
        }
        board = board.try_play(choice.rect).unwrap();
        engine_moves += 1;
        // The opponent: a random rectangle of ones.
        let mut rects = Vec::new();
        board.for_each_rect(|rect| rects.push(rect));
        if rects.is_empty() {
            break;
        }
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1);
        let reply = rects[(state >> 33) as usize % rects.len()];
        board.play_unchecked(reply);
        assert!(!board.is_empty(), "the opponent cleared the last one");
    }
    assert!(engine_moves > 1);
}

/// A dense board that was its own half turn about an uncovered middle,
/// after the reply `clear (8,27)-(9,27)`, which cut off a lone cell beside
/// two others (found by a probe of the engine): the shapes that do not
/// cancel (the large one and the first lone cell) are not symmetric, but
/// the whole board after the mirror reply is.
const AFTER_A_CUTTING_REPLY: [&str; 26] = [
    "100000000000000000000000000000",
    "000111111111111111110011101000",
    "000111111111111111100111101000",
    "000111101111111111111111111000",
    "000110111101101101111011101000",
    "000111110111111111111110111000",
    "000111111111111111111111111000",
    "000101111111111111011111110000",
    "000110010101111011011001110000",
    "000111111111001110111110101000",
    "000101111011111110100111110000",
    "000111111111101011111111011000",
    "000011111101000011111011111000",
    "000111110111110000101111110000",
    "000110111111110101111111111000",
    "000011111001011111110111101000",
    "000101011111011100111111111000",
    "000111100110110111101010011000",
    "000111111110111111111111101000",
    "000111111111111111111111111000",
    "000111011111111111111011111000",
    "000101110111101101101111011000",
    "000111111111111111111101111000",
    "000101111001111111111111111000",
    "000101110011111111111111111000",
    "000000000000000000000000000001",
];

/// The board of `rows` (`0`/`1`), and the engine's move on it within 20 s.
fn board_and_engine_move(rows: &[&str]) -> (LargeBoard, EngineChoice) {
    let mut board = LargeBoard::zeros(rows.len() as u64, rows[0].len() as u64).unwrap();
    for (r, row) in rows.iter().enumerate() {
        for (c, cell) in row.bytes().enumerate() {
            board.set(r as u32, c as u32, cell == b'1');
        }
    }
    let budget = Budget {
        max_time: Some(std::time::Duration::from_secs(20)),
        ..Budget::UNLIMITED
    };
    let choice = choose_move(
        std::slice::from_ref(&board),
        &mut Analyzer::new(Clear::new(), budget),
    )
    .unwrap();
    (board, choice)
}

/// The engine answers that reply by its mirror image, proven, and the
/// board it leaves is its own half turn about an uncovered middle
/// ([`half_turn::is_lost`], which compares the board with its image).
#[test]
fn a_reply_that_cuts_off_a_lone_cell_beside_others_gets_its_mirror_answer() {
    let (board, choice) = board_and_engine_move(&AFTER_A_CUTTING_REPLY);
    assert_eq!(choice.reason, MoveReason::HalfTurn, "{choice:?}");
    assert_eq!(
        choice.rect,
        LargeRect {
            top: 17,
            left: 3,
            bottom: 18,
            right: 3
        }
    );
    let after = board.try_play(choice.rect).unwrap();
    assert!(half_turn::is_lost(&after));
}

/// Two equal shapes (the engine had left them as pairs) beside two lone
/// cells, after a reply in one shape that cut two more lone cells off it
/// (found by a probe of the engine): the cells are met four times, an even
/// number, so the shapes that do not cancel are the two shapes' leftovers,
/// whose cells differ by the reply's and by the two cut-off cells.
const AFTER_A_REPLY_THAT_CUT_OFF_A_PAIR: [&str; 20] = [
    "00000000000000100000",
    "10000000000001100000",
    "00111111110001110000",
    "00111100111111110000",
    "00101110011101010000",
    "01101000111110000000",
    "01101110010100000000",
    "01000010111100000000",
    "01111110000000000000",
    "01101110000111000000",
    "00000011101001110110",
    "00000000000001111110",
    "00000000110101000010",
    "00000000100001110110",
    "00000001110100010110",
    "00001010110001110100",
    "00001111111100111100",
    "00001110001111111100",
    "00000110000000000000",
    "00000100000000000000",
];

/// The engine answers that reply by the rectangle that restores the pairs,
/// proven, and every shape it leaves has a congruent partner
/// ([`naive_pairs`], by cell lists).
#[test]
fn a_reply_that_cut_off_cells_met_elsewhere_gets_its_pairing_answer() {
    let (board, choice) = board_and_engine_move(&AFTER_A_REPLY_THAT_CUT_OFF_A_PAIR);
    assert!(
        matches!(choice.reason, MoveReason::Pairs { .. }),
        "{choice:?}"
    );
    assert!(board.is_legal(choice.rect), "{choice:?}");
    assert!(
        naive_pairs(&cleared(&cells_of(&board), choice.rect)),
        "{choice:?}"
    );
}

/// A comb of two equal halves beside lines whose lengths XOR to 0, after a
/// reply that cut a tooth of one half (found by a probe of the engine):
/// the lines cancel by their values, not in pairs, and the cut-off piece
/// joins them.
const AFTER_A_REPLY_BESIDE_LINES: [&str; 20] = [
    "01111111110111111111",
    "00101010100010101010",
    "00101010100010101010",
    "00101010100010101010",
    "00101000100010100010",
    "00101000100010101010",
    "00101000100010101010",
    "00101010100010101010",
    "00101010100010101010",
    "00101010100010101010",
    "00101010100010100010",
    "00101010100010101010",
    "00101010100010101010",
    "00101010100010101010",
    "00101010100010101010",
    "00101010100010101010",
    "00101010100010101010",
    "00101010100010001010",
    "00101010100010101010",
    "10101010100010101010",
];

/// Two equal shapes beside small shapes that cancel by their values, one of
/// which no table values (8 cells), after a reply in one of the two (found
/// by a probe of the engine's self-play).
const AFTER_A_REPLY_BESIDE_A_SHAPE_NO_TABLE_VALUES: [&str; 35] = [
    "11100000000000000000000000000001110",
    "10111010000101000000101111010111010",
    "11110000000000000000000000000011110",
    "11110000011111100001111110000011110",
    "10110000111011110011110111000011010",
    "11010000110111110011111011000010110",
    "01010111110111010010111011111010100",
    "11110111111100110011001111111011110",
    "11110110111111110011111111011011110",
    "11100111111111110011111111111001110",
    "11110111001111110011111100111011110",
    "01110110111001100001100111011011100",
    "11010110111011110011110111011010110",
    "11000000000000000000000000000000110",
    "10010110111110110011011111011010010",
    "01110110111111110011111111011011100",
    "11110110101111000000111101011011110",
    "10010110111111110011111111011010010",
    "11110100100101010010101001001011110",
    "01100100111000000000000111001001100",
    "11110010111111000011111111010011110",
    "01000010111011010010110111010000100",
    "11110110001101110011101100011011110",
    "11110100111101110011101111001011110",
    "01110110011011110011110110011011100",
    "11110000000000110011000000001011110",
    "11110010010111110011111010010011110",
    "00000000000000000000000000000000000",
    "10111110111111111011111111111110101",
    "00000000000000000000000000000000000",
    "00000000000000000000000000000000000",
    "00000000000000000000000000000000000",
    "10100000000000000000000000000000000",
    "00000000000000000000000000000000000",
    "00000000000000000000000000000000000",
];

/// Two equal shapes and a larger shape that is its own half turn (value
/// 0), after a reply that cut a lone cell off one of the two (found by a
/// probe of the engine's self-play): the move belongs in the partner, not
/// in the largest shape.
const AFTER_A_REPLY_BESIDE_A_HALF_TURN: [&str; 30] = [
    "0111111001101101110111000111111111111111",
    "1111111000000011010110100111111111111011",
    "1111111100000101111101100111011100000000",
    "0000000000001110111011011101011111011111",
    "1101111010011100111111111111101111111101",
    "1001111111111110111011110111011111110111",
    "1010111111110010101110111111110111111111",
    "1011101111101010111110110110001101010011",
    "1011111101111010111100000001110000000011",
    "1010111111111110111111000101111010111100",
    "1001110111011110111111111111110011001110",
    "1011111110010110111111111011110010001100",
    "1011111001010000111110111111111011111110",
    "1110110000000000111111000111111011101111",
    "1010111101011011111001001110100111101111",
    "1111011010010111001001111101101011110101",
    "1111011101111110001111110000000000110111",
    "0111111101111111110111110000101001111101",
    "0011000100111101111111110110100111111101",
    "0111001100111111111111110111101110111001",
    "0011110101111010001111110111111111110101",
    "1100000000111000000011110101111011111101",
    "1100101011000110110111110101011111011101",
    "1111111110111111110111010100111111110101",
    "1110111111101110111101110111111111111001",
    "1011111111011111111111110011100101111011",
    "1111101111101011101101110111000000000000",
    "0000000011101110011011111010101011111111",
    "1101111111111110010110101100000001111111",
    "1111111111111110001110111011011001111110",
];

/// The engine answers those replies by their mirror images, proven: what
/// it leaves pairs up but for shapes whose values (by brute force, or 0 by
/// a half turn: [`half_turn::is_lost`] compares a shape with its image)
/// XOR to 0.
#[test]
fn a_reply_beside_shapes_that_cancel_by_value_gets_its_mirror_answer() {
    for rows in [
        &AFTER_A_REPLY_BESIDE_LINES[..],
        &AFTER_A_REPLY_BESIDE_A_SHAPE_NO_TABLE_VALUES[..],
        &AFTER_A_REPLY_BESIDE_A_HALF_TURN[..],
    ] {
        a_mirror_answer_by_values(rows);
    }
}

fn a_mirror_answer_by_values(rows: &[&str]) {
    let (board, choice) = board_and_engine_move(rows);
    assert_eq!(choice.reason, MoveReason::KnownTotal, "{choice:?}");
    assert!(board.is_legal(choice.rect), "{choice:?}");
    let after = cleared(&cells_of(&board), choice.rect);
    let mut odd: HashMap<Vec<(i64, i64)>, Cells> = HashMap::new();
    for component in naive_components(&after) {
        let class = naive_class(&component);
        if odd.remove(&class).is_none() {
            odd.insert(class, component);
        }
    }
    let mut memo = HashMap::new();
    let total = odd.values().fold(Nimber::ZERO, |total, component| {
        if component.len() > 16 {
            let cut = normalise(component);
            let rows = cut.iter().map(|c| c.0).max().unwrap() as u32 + 1;
            let cols = cut.iter().map(|c| c.1).max().unwrap() as u32 + 1;
            assert!(
                half_turn::is_lost(&board_of(rows, cols, &cut)),
                "a large shape left alone: {choice:?}"
            );
            return total;
        }
        total ^ brute_value(component, &mut memo)
    });
    assert!(total.is_zero(), "{choice:?} leaves {total:?}");
}

proptest! {
    /// Past one word a row: a board is lost by a half turn exactly when it
    /// equals its image under `transform(3)` (the half turn, tested against
    /// cell lists above) and its middle block is not all ones.
    #[test]
    fn the_half_turn_of_wide_rows_agrees_with_the_transform(
        rows in 1u32..5, cols in 60u32..140, seed in any::<u64>(), flip in any::<bool>()
    ) {
        let random = random_board(rows, cols, 50, seed);
        let mut board = random.clone();
        for r in 0..rows {
            for c in 0..cols {
                if random.get(r, c) {
                    board.set(rows - 1 - r, cols - 1 - c, true);
                }
            }
        }
        // Sometimes the middle emptied, sometimes one cell off.
        let (mr, mc) = ((rows - 1) / 2, (cols - 1) / 2);
        for r in mr..=rows / 2 {
            for c in mc..=cols / 2 {
                board.set(r, c, seed % 3 == 0);
            }
        }
        if flip {
            let (r, c) = ((seed >> 8) as u32 % rows, (seed >> 16) as u32 % cols);
            board.set(r, c, !board.get(r, c));
        }
        let middle = LargeRect { top: mr, left: mc, bottom: rows / 2, right: cols / 2 };
        let expected = board.transform(3) == board && !board.is_legal(middle);
        prop_assert_eq!(half_turn::is_lost(&board), expected);
    }
}

/// The values of lines of 0 to `n` cells by the mex over their moves
/// (clearing cells `i..=j` of a line of `k` leaves lines of `i` and
/// `k - 1 - j` cells), a recursion of its own.
fn line_values(n: usize) -> Vec<u32> {
    let mut values = vec![0u32; n + 1];
    for k in 1..=n {
        let mut seen = HashSet::new();
        for i in 0..k {
            for j in i..k {
                seen.insert(values[i] ^ values[k - 1 - j]);
            }
        }
        values[k] = (0..).find(|v| !seen.contains(v)).unwrap();
    }
    values
}

/// Rows of runs, a row of zeros between two: lines only, whose total is
/// the XOR of [`line_values`] over every run.
fn rows_of_runs(rows: u32, cols: u32, percent: u32, seed: u64) -> LargeBoard {
    let cells = random_board(rows, cols, percent, seed);
    let mut board = LargeBoard::zeros(u64::from(2 * rows - 1), u64::from(cols)).unwrap();
    for r in 0..rows {
        for c in 0..cols {
            board.set(2 * r, c, cells.get(r, c));
        }
    }
    board
}

/// The XOR of the values of the runs of `board`'s rows (a board of rows of
/// runs: no run touches another row's).
fn total_of_runs(board: &LargeBoard, values: &[u32]) -> u32 {
    let mut total = 0;
    for r in 0..board.rows() {
        let mut run = 0;
        for c in 0..=board.cols() {
            if c < board.cols() && board.get(r, c) {
                run += 1;
            } else {
                total ^= values[run];
                run = 0;
            }
        }
    }
    total
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// On rows of runs past 64 cells, whose every value the closed form of
    /// lines gives at once, the engine's move is proven and right by the
    /// values of the lines' own recursion: a win exactly when their XOR is
    /// not 0, and then to a total of 0. Several classes that do not cancel
    /// with all their values known once made it call a won position lost.
    #[test]
    fn the_engine_plays_rows_of_runs_by_their_values(rows in 1u32..4, cols in 65u32..160, percent in 50u32..95, seed: u64) {
        let values = line_values(160);
        let board = rows_of_runs(rows, cols, percent, seed);
        let before = total_of_runs(&board, &values);
        let Some(choice) = choose_move(std::slice::from_ref(&board), &mut analyzer()) else {
            prop_assert!(board.is_empty());
            return Ok(());
        };
        prop_assert!(board.is_legal(choice.rect));
        prop_assert!(choice.proven(), "{:?}", choice);
        prop_assert_eq!(choice.wins(), before != 0, "{:?}", choice);
        let after = total_of_runs(&board.try_play(choice.rect).unwrap(), &values);
        if choice.wins() {
            prop_assert_eq!(after, 0);
        }
    }
}

/// A set that is its own half turn about an uncovered middle, beside a
/// pair of equal shapes, is lost, and the engine says so without a search:
/// with a budget of no position at all its move is still proven losing.
#[test]
fn a_half_turn_set_beside_a_pair_is_played_as_lost_without_a_search() {
    let mut board = LargeBoard::zeros(20, 20).unwrap();
    // A ring of 16 x 16 about the middle of rows 2..=17 and columns 2..=17.
    for r in 2..18 {
        if r == 2 || r == 17 {
            board.set_run(r, 2, 18);
        } else {
            board.set(r, 2, true);
            board.set(r, 17, true);
        }
    }
    // Two equal L shapes in opposite corners.
    for (r, c) in [(0, 0), (1, 0), (0, 1), (19, 19), (18, 19), (19, 18)] {
        board.set(r, c, true);
    }
    let mut memo = HashMap::new();
    let cells = cells_of(&board);
    let ring: Cells = cells
        .iter()
        .copied()
        .filter(|&(r, c)| (2..18).contains(&r) && (2..18).contains(&c))
        .collect();
    // The ring's value by the half-turn rule is checked against the brute
    // force on small rings in the proptests above; here the L shapes'
    // values are (one L of three cells), and they cancel.
    assert_eq!(ring.len(), 60);
    let l: Cells = [(0, 0), (1, 0), (0, 1)].into_iter().collect();
    assert!(!brute_value(&l, &mut memo).is_zero());
    let mut analyzer = Analyzer::new(Clear::new(), Budget::positions(0));
    let choice = choose_move(std::slice::from_ref(&board), &mut analyzer).unwrap();
    assert!(board.is_legal(choice.rect));
    assert!(choice.proven(), "{choice:?}");
    assert!(!choice.wins(), "{choice:?}");
    assert!(
        matches!(choice.reason, MoveReason::Losing { .. }),
        "{choice:?}"
    );
}

/// Labelling asks its `halt` as it goes, not only once the board is
/// labelled: a board of a million runs, halted at the first question, is
/// given up after at most one step of work (the count of questions shows
/// how far it got); never halted, it labels as `components` does.
#[test]
fn labelling_is_given_up_as_it_goes() {
    // One-wide stripes: 500 runs a row, 2,000 rows.
    let mut board = LargeBoard::zeros(2000, 1000).unwrap();
    for r in 0..2000 {
        for c in (0..1000).step_by(2) {
            board.set(r, c, true);
        }
    }
    let asked = std::cell::Cell::new(0);
    let halt = || {
        asked.set(asked.get() + 1);
        true
    };
    assert!(board.components_until(&halt).is_none());
    assert_eq!(asked.get(), 1);
    let asked = std::cell::Cell::new(0);
    let never = || {
        asked.set(asked.get() + 1);
        false
    };
    let labelled = board.components_until(&never).unwrap();
    // Four passes of a million runs, one question each 65,536 of them.
    assert!(
        asked.get() >= 4 * (1_000_000 / grid::COMPONENTS_CHECK_EVERY),
        "{}",
        asked.get()
    );
    assert_eq!(labelled.len(), 500);
    assert_eq!(labelled.len(), board.components().len());
    let analysis = analysis::classify_until(std::slice::from_ref(&board), || true);
    assert!(analysis.is_none());
}
