//! Cross-checks of the clearing solver against a brute-force twin: plain mex
//! over every rectangle of the raw bitmask, with no decomposition, no
//! symmetry and no table (memoised on the raw mask only, so 5 x 5 boards
//! finish).

use std::collections::HashMap;

use proptest::prelude::*;

use super::*;
use crate::{Budget, MexSet};

/// Every rectangle of a `rows x cols` board, as masks.
fn all_rect_masks(rows: usize, cols: usize) -> Vec<u64> {
    let mut masks = Vec::new();
    for top in 0..rows {
        for bottom in top..rows {
            for left in 0..cols {
                for right in left..cols {
                    let mut mask = 0u64;
                    for r in top..=bottom {
                        for c in left..=right {
                            mask |= 1 << (r * cols + c);
                        }
                    }
                    masks.push(mask);
                }
            }
        }
    }
    masks
}

pub(super) struct Brute {
    rects: Vec<u64>,
    memo: HashMap<u64, u32>,
}

impl Brute {
    pub(super) fn new(rows: usize, cols: usize) -> Brute {
        Brute {
            rects: all_rect_masks(rows, cols),
            memo: HashMap::new(),
        }
    }

    pub(super) fn value(&mut self, cells: u64) -> u32 {
        if let Some(&v) = self.memo.get(&cells) {
            return v;
        }
        let mut seen = MexSet::new();
        for i in 0..self.rects.len() {
            let rect = self.rects[i];
            if cells & rect == rect {
                seen.insert(Nimber::new(self.value(cells ^ rect)));
            }
        }
        let v = seen.mex().value();
        self.memo.insert(cells, v);
        v
    }
}

#[test]
fn table_and_solver_match_brute_force_on_every_4x4_board() {
    let mut brute = Brute::new(4, 4);
    let mut solver = Solver::new(Clear::without_known_values());
    let mut zeros = 0;
    for cells in 0..(1u64 << 16) {
        let expected = brute.value(cells);
        assert_eq!(
            value4x4(cells).value(),
            expected,
            "table, cells {cells:#06x}"
        );
        let board = Board::new(4, 4, cells).unwrap();
        assert_eq!(
            solver.value(&board).unwrap().value(),
            expected,
            "solver, {board:?}"
        );
        zeros += usize::from(expected == 0);
    }
    // The published count of second-player wins among 4 x 4 boards (the
    // brute force above computed it independently of the table).
    assert_eq!(zeros, 8268);
}

/// A box table checked against independent values: every set inside 4 x 4
/// against the 4 x 4 table (its own DP), random sets against the plain brute
/// force (up to 14 cells, so it stays fast), denser ones and the full box
/// against the search without tables.
fn check_box_table(rows: usize, cols: usize, value: fn(u64) -> Nimber) {
    let cells_of = |r: usize, c: usize| 1u64 << (cols * r + c);
    for small in 0..(1u64 << 16) {
        let spread = (0..16)
            .filter(|i| small >> i & 1 == 1 && i / 4 < rows && i % 4 < cols)
            .fold(0, |s, i| s | cells_of(i / 4, i % 4));
        let inside = (0..16)
            .filter(|i| small >> i & 1 == 1)
            .all(|i| i / 4 < rows && i % 4 < cols);
        if inside {
            assert_eq!(value(spread), value4x4(small), "cells {small:#06x}");
        }
    }
    let all = (1u64 << (rows * cols)) - 1;
    let mut brute = Brute::new(rows, cols);
    let mut search = Solver::new(Clear::without_known_values());
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    for round in 0..3000 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let mut cells = state & all;
        let cap = if round % 100 == 0 { 64 } else { 14 };
        while cells.count_ones() > cap {
            cells &= cells - 1;
        }
        let board = Board::new(rows, cols, cells).unwrap();
        let expected = if cap == 64 {
            search.value(&board).unwrap()
        } else {
            Nimber::new(brute.value(cells))
        };
        assert_eq!(value(cells), expected, "{board:?}");
    }
    let full = Board::new(rows, cols, all).unwrap();
    assert_eq!(value(all), search.value(&full).unwrap());
}

#[test]
fn the_4x5_and_2x8_tables_match_brute_force_and_the_search() {
    check_box_table(4, 5, value4x5);
    check_box_table(2, 8, value2x8);
    // Every value fits the builder's 64-bit set of seen values (it checks
    // as it builds), and the two boxes agree where they overlap (2 x 5).
    for cells in 0..(1u64 << 10) {
        let (top, bottom) = (cells & 0x1F, cells >> 5);
        assert_eq!(value4x5(top | bottom << 5), value2x8(top | bottom << 8));
    }
}

#[test]
fn a_row_of_k_ones_has_value_k() {
    for k in 1..=16 {
        let row = Board::new(1, k, (1u64 << k) - 1).unwrap();
        let mut brute = Brute::new(1, k);
        assert_eq!(brute.value(row.cells().0), k as u32, "brute force");
        assert_eq!(
            Solver::new(Clear::without_known_values())
                .value(&row)
                .unwrap()
                .value(),
            k as u32,
            "searched"
        );
        assert_eq!(
            Clear::solver().value(&row).unwrap().value(),
            k as u32,
            "formula"
        );
        let column = Board::new(k, 1, (1u64 << k) - 1).unwrap();
        assert_eq!(Clear::solver().value(&column).unwrap().value(), k as u32);
    }
}

#[test]
fn every_symmetry_of_a_shape_has_the_same_key_and_value() {
    let shape = crate::board!["110", "011", "010", "111"];
    let key = shape.canonical();
    let mut brute_values = Vec::new();
    for symmetry in 0..8 {
        let image = shape.transform(symmetry);
        assert_eq!(image.canonical(), key);
        assert_eq!(image.cells().count(), shape.cells().count());
        let mut brute = Brute::new(image.rows(), image.cols());
        brute_values.push(brute.value(image.cells().0));
    }
    assert!(brute_values.windows(2).all(|w| w[0] == w[1]));
}

#[test]
fn components_partition_the_ones() {
    let board = crate::board!["1100", "0001", "1011", "1000"];
    let components = board.components();
    assert_eq!(components.len(), 3);
    let union = components.iter().fold(Bitboard::EMPTY, |acc, &c| acc | c);
    assert_eq!(union, board.cells());
    let sum: u32 = components.iter().map(|c| c.count()).sum();
    assert_eq!(sum, board.cells().count());
}

#[test]
fn illegal_moves_are_refused() {
    let board = crate::board!["110", "011"];
    let rect = Rect {
        top: 0,
        left: 0,
        bottom: 1,
        right: 1,
    };
    assert_eq!(board.try_play(rect), Err(BoardError::IllegalMove(rect)));
    let off = Rect {
        top: 0,
        left: 2,
        bottom: 0,
        right: 3,
    };
    assert!(board.try_play(off).is_err());
    assert!(Board::new(9, 8, 0).is_err());
    assert!(Board::new(2, 2, 0b10000).is_err());
}

/// Random boards up to `max_side` on a side with at most `max_ones` ones:
/// the raw-mask brute force visits up to `2^ones` subsets, so the cap keeps
/// it to a fraction of a second per case.
/// The cells of a `rows x cols` board (row-major), each set with
/// probability `density`, drawn from `seed` by xorshift: a cheap, seedable
/// stream, so proptest can shrink the seed.
pub(super) fn random_cells(rows: usize, cols: usize, density: f64, seed: u64) -> u64 {
    let mut state = seed | 1;
    let mut cells = 0u64;
    for i in 0..rows * cols {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        if (state % 1000) as f64 / 1000.0 < density {
            cells |= 1 << i;
        }
    }
    cells
}

pub(super) fn board_strategy(max_side: usize, max_ones: u32) -> impl Strategy<Value = Board> {
    (1..=max_side, 1..=max_side, 0.0..1.0f64, any::<u64>()).prop_map(
        move |(rows, cols, density, seed)| {
            let mut cells = random_cells(rows, cols, density, seed);
            while cells.count_ones() > max_ones {
                cells &= cells - 1;
            }
            Board::new(rows, cols, cells).unwrap()
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn solver_matches_brute_force_up_to_5x5(board in board_strategy(5, 15)) {
        let expected = Brute::new(board.rows(), board.cols()).value(board.cells().0);
        prop_assert_eq!(Clear::solver().value(&board).unwrap().value(), expected);
        prop_assert_eq!(
            Solver::new(Clear::without_known_values()).value(&board).unwrap().value(),
            expected
        );
    }

    #[test]
    fn value_of_a_board_is_the_xor_of_its_components(board in board_strategy(6, 18)) {
        let mut solver = Clear::solver();
        let whole = solver.value(&board).unwrap();
        let parts: Nimber = board
            .components()
            .into_iter()
            .map(|c| solver.value(&board.crop(c)).unwrap())
            .sum();
        prop_assert_eq!(whole, parts);
    }

    #[test]
    fn winning_moves_are_legal_and_are_all_the_moves_to_zero(board in board_strategy(5, 15)) {
        let mut solver = Clear::solver();
        let mut brute = Brute::new(board.rows(), board.cols());
        let winning = solver.winning_moves(&board).unwrap();
        for (rect, after) in &winning {
            prop_assert!(board.is_legal(*rect));
            prop_assert_eq!(board.try_play(*rect).unwrap(), *after);
            prop_assert_eq!(brute.value(after.cells().0), 0);
        }
        let mut expected = Vec::new();
        board.for_each_rect(|rect, mask| {
            if brute.value(board.cells().0 ^ mask.0) == 0 {
                expected.push(rect);
            }
        });
        prop_assert_eq!(winning.iter().map(|(r, _)| *r).collect::<Vec<_>>(), expected);
        if brute.value(board.cells().0) == 0 {
            prop_assert!(winning.is_empty());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The outcome search against the brute force: a component is lost
    /// exactly when its value is 0, and the move it finds is legal and
    /// leaves value 0, found exactly when the board's value is not 0 (a
    /// sum of several components goes through its valued branch).
    #[test]
    fn outcome_search_matches_brute_force(board in board_strategy(5, 15)) {
        let mut brute = Brute::new(board.rows(), board.cols());
        let value = brute.value(board.cells().0);
        let mut solver = Clear::solver();
        match solver.move_to_zero(&board).unwrap() {
            Some((rect, after)) => {
                prop_assert!(value != 0);
                prop_assert!(board.is_legal(rect));
                prop_assert_eq!(board.try_play(rect).unwrap(), after);
                prop_assert_eq!(brute.value(after.cells().0), 0);
            }
            None => prop_assert_eq!(value, 0),
        }
        for component in board.components() {
            let part = board.crop(component);
            let zero = Brute::new(part.rows(), part.cols()).value(part.cells().0) == 0;
            prop_assert_eq!(Clear::solver().component_is_zero(part).unwrap(), zero);
            let mut bare = Solver::new(Clear::without_known_values());
            prop_assert_eq!(bare.component_is_zero(part).unwrap(), zero);
        }
    }

    /// What the memos show of a position's moves after an outcome search
    /// stopped by a position budget, against the brute force: the move is
    /// legal; a move said to win leaves value 0; the moves before the one
    /// chosen are the ones shown to lose, so each leaves a value other than
    /// 0; and when every move is shown to lose, the board's value is 0.
    #[test]
    fn moves_not_shown_to_lose_match_brute_force(
        board in board_strategy(5, 16),
        positions in 0u64..40,
    ) {
        let mut brute = Brute::new(board.rows(), board.cols());
        let rules = Clear::without_known_values();
        let mut moves = Vec::new();
        rules.for_each_option(&board, |rect, after| moves.push((rect, after)));
        let budget = Budget { max_positions: Some(positions), ..Budget::UNLIMITED };
        let mut solver = Solver::new(rules).with_budget(budget);
        let searched = solver.move_to_zero(&board);
        let Some(((rect, after), shown)) = solver.move_not_shown_to_lose(&board) else {
            prop_assert!(moves.is_empty());
            return Ok(());
        };
        prop_assert_eq!(shown.moves <= moves.len(), true);
        prop_assert_eq!((rect, after), moves[shown.index]);
        prop_assert_eq!(board.try_play(rect).unwrap(), after);
        if shown.wins {
            prop_assert_eq!(brute.value(after.cells().0), 0);
            return Ok(());
        }
        prop_assert_eq!(shown.moves, moves.len());
        if shown.refuted == shown.moves {
            prop_assert_eq!(brute.value(board.cells().0), 0, "{:?}", searched);
        } else {
            prop_assert!(shown.index <= shown.refuted);
            for (rect, after) in &moves[..shown.index] {
                prop_assert_ne!(brute.value(after.cells().0), 0, "{:?}", rect);
            }
        }
    }

    /// The search for one value against the brute force: a component has
    /// value `t` exactly when the brute force says so, for every `t` up to
    /// one past its value, asked of one solver in a shuffled order (so the
    /// values ruled out and proved by one question serve the next), with
    /// and without the built-in values of small shapes.
    #[test]
    fn value_questions_match_brute_force(board in board_strategy(5, 15), seed in any::<u64>()) {
        for component in board.components() {
            let part = board.crop(component);
            let value = Brute::new(part.rows(), part.cols()).value(part.cells().0);
            let mut targets: Vec<u32> = (0..=value + 1).collect();
            let mut state = seed | 1;
            for i in (1..targets.len()).rev() {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                targets.swap(i, (state % (i as u64 + 1)) as usize);
            }
            let mut solver = Clear::solver();
            let mut bare = Solver::new(Clear::without_known_values());
            for &target in &targets {
                let target = Nimber::new(target);
                let expected = value == target.value();
                prop_assert_eq!(solver.component_has_value(part, target).unwrap(), expected);
                prop_assert_eq!(bare.component_has_value(part, target).unwrap(), expected);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// The bit-trick canonical form of shapes up to 8 x 8 names the same
    /// classes as the cell-by-cell transforms: every image of a shape gets
    /// the same key, and the key is the 8 x 8 encoding of one of the images.
    #[test]
    fn fast_canonical_form_is_an_image_and_a_class_invariant(board in board_strategy(8, 64)) {
        prop_assume!(!board.cells().is_empty());
        let shape = board.crop(board.cells());
        let key = shape.canonical();
        prop_assert_eq!((key.0, key.1), (0, 0));
        let mut encodings = Vec::new();
        for symmetry in 0..8 {
            let image = shape.transform(symmetry);
            prop_assert_eq!(image.canonical(), key);
            let mut square = 0u64;
            for cell in image.cells().cells() {
                let (row, col) = (cell as usize / image.cols(), cell as usize % image.cols());
                square |= 1 << (8 * row + col);
            }
            encodings.push(square);
        }
        prop_assert!(encodings.contains(&key.2));
        // And the general path agrees on which shapes are the same.
        let general = shape.canonical_by_transforms();
        for symmetry in 0..8 {
            prop_assert_eq!(shape.transform(symmetry).canonical_by_transforms(), general);
        }
    }
}

/// Random boards that do not fit the 8 x 8 frame: `rows x cols` with one
/// side from 9 to `max_long` and the other at most 64 / that, with at most
/// `max_ones` ones (the brute force's cost); tall or wide at random.
fn wide_board_strategy(max_long: usize, max_ones: u32) -> impl Strategy<Value = Board> {
    (
        9..=max_long,
        1..=7usize,
        any::<bool>(),
        0.3..1.0f64,
        any::<u64>(),
    )
        .prop_map(move |(long, short, tall, density, seed)| {
            let short = short.min(64 / long);
            let (rows, cols) = if tall { (long, short) } else { (short, long) };
            let mut cells = random_cells(rows, cols, density, seed);
            while cells.count_ones() > max_ones {
                cells &= cells - 1;
            }
            Board::new(rows, cols, cells).unwrap()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// Boards wider or taller than the frame take the wide path (components
    /// cut and turned wide, word-level keys): values match brute force.
    #[test]
    fn solver_matches_brute_force_beyond_the_8x8_frame(board in wide_board_strategy(20, 13)) {
        let expected = Brute::new(board.rows(), board.cols()).value(board.cells().0);
        prop_assert_eq!(Clear::solver().value(&board).unwrap().value(), expected);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Boards of exactly the wide frames' sizes (4 x 16 and 2 x 32) are
    /// worked in place, cells anywhere: values match brute force, and every
    /// translation of the cells has the same key.
    #[test]
    fn boards_of_the_wide_frames_match_brute_force(
        wide in any::<bool>(),
        bits in any::<u64>(),
        keep in 6..15u32,
        shift in 1..4u32,
    ) {
        let (rows, cols) = if wide { (2, 32) } else { (4, 16) };
        // Runs of ones, more connected than independent random cells.
        let mut cells = bits | (bits >> 1) | (bits >> cols);
        while cells.count_ones() > keep {
            cells &= cells - 1;
        }
        let board = Board::new(rows, cols, cells).unwrap();
        let expected = Brute::new(rows, cols).value(cells);
        prop_assert_eq!(Clear::solver().value(&board).unwrap().value(), expected);
        // Moved right (cells that leave their row are dropped, so compare
        // only when none does).
        let last_col = (0..rows).fold(0u64, |m, r| m | ((1u64 << shift) - 1) << (r * cols + cols - shift as usize));
        if cells & last_col == 0 {
            let moved = Board::new(rows, cols, cells << shift).unwrap();
            let cut = board.crop(board.cells());
            let key = board.canonical();
            prop_assert_eq!(moved.canonical(), key);
            // The key of a component wider than 8 is the cut board's.
            if board.components().len() == 1 && cut.cols() > 8 {
                prop_assert_eq!(cut.canonical(), key);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// The row-run flood fill finds the same components as the one-step
    /// growth, on boards of every size.
    #[test]
    fn run_fill_matches_step_growth(
        board in prop_oneof![board_strategy(8, 64), wide_board_strategy(64, 64)]
    ) {
        let masks = board.geometry().grow_masks();
        let mut rest = board.cells();
        while !rest.is_empty() {
            let seed = rest.lowest();
            let mut grown = seed;
            loop {
                let next = masks.grow(grown) & rest;
                if next == grown {
                    break;
                }
                grown = next;
            }
            prop_assert_eq!(masks.fill(seed, rest), grown);
            rest ^= grown;
        }
    }

    /// The word-level key of shapes wider than 8 is the cell-by-cell one,
    /// for every image of the shape.
    #[test]
    fn wide_canonical_form_matches_the_transforms(board in wide_board_strategy(64, 64)) {
        prop_assume!(!board.cells().is_empty());
        let shape = board.crop(board.cells());
        prop_assume!(shape.rows() > 8 || shape.cols() > 8);
        let general = shape.canonical_by_transforms();
        for symmetry in 0..8 {
            prop_assert_eq!(shape.transform(symmetry).canonical(), general);
        }
    }
}

/// An option summed up: the XOR of its known parts and the sorted keys of
/// the others.
type OptionSummary = (Nimber, Vec<MemoKey>);

/// Every option of `component` as `for_each_option_part` yields it, checked
/// against `for_each_option`, `for_each_component`, `known_value` and `key`:
/// the same options in the same order, the same XOR of known values, and the
/// same unknown components, each one connected component given with its key.
fn check_option_parts(rules: &Clear, component: &Board) -> Result<(), TestCaseError> {
    let mut parted: Vec<OptionSummary> = vec![(Nimber::ZERO, Vec::new())];
    let mut unknown = Vec::new();
    let mut lookups = Vec::new();
    rules.for_each_option_part(component, |part| {
        let open = parted.last_mut().expect("an open option");
        match part {
            OptionPart::Known(value) => open.0 ^= value,
            OptionPart::Lookup(board, key) => {
                if let Some(value) = rules.known_value(&board) {
                    open.0 ^= value;
                }
                lookups.push((board, key));
            }
            OptionPart::Unknown(board, key) => {
                open.1.push(key);
                unknown.push((board, key));
            }
            OptionPart::End => {
                open.1.sort_unstable();
                parted.push((Nimber::ZERO, Vec::new()));
            }
        }
    });
    prop_assert_eq!(parted.pop(), Some((Nimber::ZERO, Vec::new())));
    for (board, key) in unknown {
        prop_assert_eq!(board.components().len(), 1, "{:?}", board);
        prop_assert_eq!(rules.known_value(&board), None);
        prop_assert_eq!(rules.key(&board), key);
        prop_assert_eq!(board.canonical(), key);
    }
    for (board, key) in lookups {
        prop_assert_eq!(board.components().len(), 1, "{:?}", board);
        prop_assert!(rules.known_value(&board).is_some(), "{:?}", board);
        prop_assert_eq!(board.canonical(), key);
    }
    let mut plain: Vec<OptionSummary> = Vec::new();
    rules.for_each_option(component, |_, option| {
        let mut summary = (Nimber::ZERO, Vec::new());
        rules.for_each_component(&option, |piece| match rules.known_value(&piece) {
            Some(value) => summary.0 ^= value,
            None => summary.1.push(rules.key(&piece)),
        });
        summary.1.sort_unstable();
        plain.push(summary);
    });
    prop_assert_eq!(parted, plain);
    check_listing_stops(rules, component)
}

/// `for_each_option_part_until` visits what `for_each_option_part` does,
/// in the same order, up to and including the part at which it is told to
/// stop, and nothing after: stops at parts and at option ends, at the
/// start, the middle and the end of the listing.
fn check_listing_stops(rules: &Clear, component: &Board) -> Result<(), TestCaseError> {
    let mut all = Vec::new();
    rules.for_each_option_part(component, |part| all.push(part));
    let n = all.len();
    for stop in [
        0,
        1,
        2,
        n / 7,
        n / 3,
        n / 2,
        n.saturating_sub(2),
        n.saturating_sub(1),
    ] {
        if stop >= n {
            continue;
        }
        let mut seen = Vec::new();
        rules.for_each_option_part_until(component, |part| {
            seen.push(part);
            seen.len() == stop + 1
        });
        prop_assert_eq!(&seen[..], &all[..=stop], "stop at {} of {}", stop, n);
    }
    Ok(())
}

/// Full boards and boards with a few holes, in every frame: large
/// components, whose options split in many ways.
#[test]
fn option_parts_of_large_components_are_their_options_components() {
    for (rows, cols) in [
        (5, 5),
        (8, 8),
        (6, 7),
        (4, 16),
        (3, 10),
        (2, 32),
        (2, 12),
        (1, 20),
    ] {
        let full = Board::new(rows, cols, 0).unwrap().geometry().full().0;
        for holes in [0u64, 0x0010_0400_8020_0100, 0x8000_0000_0001_0002] {
            let board = Board::new(rows, cols, full & !holes).unwrap();
            for rules in [
                Clear::new(),
                Clear::without_known_values(),
                Clear::with_shapes(shape_databases()),
            ] {
                let mut components = Vec::new();
                rules.for_each_component(&board, |component| components.push(component));
                for component in &components {
                    check_option_parts(&rules, component).unwrap();
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The option parts found from the move (fills that start next to the
    /// rectangle and stop once they hold all its neighbours) are the
    /// options' components, in the 8 x 8 frame, the wide frames and beyond,
    /// with and without the known values, and with shape databases (whose
    /// shapes come as lookups).
    #[test]
    fn option_parts_are_the_options_components(
        board in prop_oneof![board_strategy(8, 64), wide_board_strategy(64, 64)]
    ) {
        for rules in [
            Clear::new(),
            Clear::without_known_values(),
            Clear::with_shapes(shape_databases()),
        ] {
            let mut components = Vec::new();
            rules.for_each_component(&board, |component| components.push(component));
            for component in &components {
                check_option_parts(&rules, component)?;
            }
        }
    }
}

/// Databases of every shape of 3 x 6 and of 2 x 10, solved once for the
/// tests: their shapes fit neither small table, so an option part the
/// databases hold is a lookup, in the 8 x 8 frame and in a wide one.
fn shape_databases() -> std::sync::Arc<dyn ShapeLookup> {
    static DATABASES: std::sync::OnceLock<std::sync::Arc<dyn ShapeLookup>> =
        std::sync::OnceLock::new();
    DATABASES
        .get_or_init(|| {
            std::sync::Arc::new(vec![
                small_tables_on_demand::database(3, 6),
                small_tables_on_demand::database(2, 10),
            ])
        })
        .clone()
}

/// A component the databases hold comes as a lookup, in the 8 x 8 frame
/// (full 3 x 7 less its last column: a full 3 x 6) and in a wide one (full
/// 2 x 11 less its last column: a full 2 x 10); without databases the same
/// parts are unknown.
#[test]
fn parts_the_databases_hold_are_lookups() {
    let lookups = |rules: &Clear, rows: usize, cols: usize| {
        let board = Board::new(rows, cols, (1 << (rows * cols)) - 1).unwrap();
        let mut found = 0;
        rules.for_each_component(&board, |component| {
            rules.for_each_option_part(&component, |part| {
                if let OptionPart::Lookup(..) = part {
                    found += 1;
                }
            });
        });
        found
    };
    for (rows, cols) in [(3, 7), (2, 11)] {
        assert!(lookups(&Clear::with_shapes(shape_databases()), rows, cols) > 0);
        assert_eq!(lookups(&Clear::new(), rows, cols), 0);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The value search with shape databases, whose shapes it looks up
    /// through its memo (`OptionPart::Lookup`), finds the values and the
    /// winning moves of the search without any known value (itself checked
    /// against brute force above).
    #[test]
    fn searches_with_databases_match_searches_without(board in board_strategy(6, 18)) {
        let mut with = Clear::with_shapes(shape_databases()).into_solver();
        let mut without = Clear::without_known_values().into_solver();
        prop_assert_eq!(with.value(&board).unwrap(), without.value(&board).unwrap());
        let moves = |solver: &mut ClearSolver| {
            solver
                .winning_moves(&board)
                .unwrap()
                .into_iter()
                .map(|(mv, _)| mv)
                .collect::<Vec<_>>()
        };
        prop_assert_eq!(moves(&mut with), moves(&mut without));
    }
}

/// The memory budget bounds a search whose memo fills with the databases'
/// values as well as with searched shapes: stopped at several budgets, the
/// memo never holds more than the budget.
#[test]
fn the_memory_budget_bounds_a_search_with_databases() {
    let board = Board::new(6, 6, (1 << 36) - 1).unwrap();
    for limit in [64 << 10, 256 << 10, 1 << 20] {
        let mut solver = Clear::with_shapes(shape_databases())
            .into_solver()
            .with_budget(crate::Budget {
                max_memory: Some(limit),
                ..crate::Budget::default()
            });
        let stopped = solver.value(&board);
        assert!(
            matches!(stopped, Err(crate::SolveError::MemoryBudget { .. })),
            "{stopped:?}"
        );
        let held = crate::Table::allocated_bytes(solver.table()) as u64;
        assert!(held <= limit, "{held} bytes held, budget {limit}");
    }
}

/// A memory budget stops a search before what it holds passes the budget,
/// its scratch included, on one thread and helped.
#[test]
fn a_memory_budget_stops_before_what_the_search_holds_passes_it() {
    let board =
        crate::board!["1111110", "1111110", "1111100", "0111000", "0111000", "0111000", "0111000"];
    for threads in [1, 2] {
        for limit in [3_000_000, 10_000_000, 30_000_000] {
            let mut solver = Clear::new()
                .into_solver_on(threads)
                .with_budget(crate::Budget {
                    max_memory: Some(limit),
                    ..crate::Budget::default()
                });
            let stopped = solver.value(&board);
            assert!(
                matches!(stopped, Err(crate::SolveError::MemoryBudget { .. })),
                "{stopped:?}"
            );
            let held = solver.held_bytes() as u64;
            assert!(
                held <= limit,
                "{held} bytes held, budget {limit}, {threads} threads"
            );
        }
    }
}

/// A spent time budget ends a search within one read of the clock: a
/// dense block (tens of thousands of shapes) stops with `TimeBudget` after
/// at most `CHECK_INTERVAL` shapes.
#[test]
fn a_spent_time_budget_stops_within_one_read_of_the_clock() {
    let board =
        crate::board!["1011111", "1111101", "1101101", "0111101", "1011111", "0111110", "0111001"];
    let mut solver = Clear::solver().with_budget(crate::Budget {
        max_time: Some(std::time::Duration::ZERO),
        ..crate::Budget::default()
    });
    let stopped = solver.value(&board);
    assert!(
        matches!(stopped, Err(crate::SolveError::TimeBudget { .. })),
        "{stopped:?}"
    );
    let solved = solver.positions_solved();
    assert!(
        solved <= crate::solver::CHECK_INTERVAL,
        "{solved} shapes solved past a spent budget"
    );
}

/// A stop flag set from outside ends a search at its next check with
/// `Stopped`; taken away, the same solver goes on from its memo to the
/// value a fresh solver finds.
#[test]
fn a_stop_flag_ends_a_search_and_the_solver_goes_on_after() {
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    let board = crate::board!["11111", "11011", "11111", "10111", "11110"];
    let mut solver = Clear::solver();
    solver.set_stop(Some(Arc::new(AtomicBool::new(true))));
    assert!(matches!(
        solver.value(&board),
        Err(crate::SolveError::Stopped)
    ));
    solver.set_stop(None);
    assert_eq!(
        solver.value(&board).unwrap(),
        Clear::solver().value(&board).unwrap()
    );
}

/// The small tables are taken by the rules on demand, and only for a
/// search: with a shape database that holds a position, its moves and
/// their values come from the database and the rules take no table (a
/// full 5 x 5 board answered by the CLI in about the time of a 4 x 4 one).
/// The oracle for the database's answers is the tables themselves, which
/// the tests above check against brute force.
mod small_tables_on_demand {
    use std::sync::Arc;

    use super::super::shapes::{ClearShapes, ShapeBox, ShapeLookup, ShapeTables};
    use super::super::{Board, Clear, Rect};
    use crate::tier::{solve_tiers, TierControl, TierError};
    use crate::Nimber;

    /// Every tier of a box, solved in memory.
    pub(super) fn database(rows: usize, cols: usize) -> Arc<dyn ShapeLookup> {
        let shape_box = ShapeBox::new(rows, cols).expect("a box");
        let mut tiers = Vec::new();
        solve_tiers::<_, TierError, _>(
            &ClearShapes::new(shape_box),
            &mut tiers,
            &TierControl::new(),
            |_, _| Ok(()),
        )
        .expect("no budget");
        Arc::new(ShapeTables::new(shape_box, tiers).expect("every tier"))
    }

    /// Boards of a 4 x 5 grid, full and random (a fixed xorshift, so the
    /// run is the same every time), with about 3 of 4 cells set.
    fn boards() -> Vec<Board> {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut out = vec![Board::new(4, 5, (1 << 20) - 1).expect("4 x 5")];
        for _ in 0..200 {
            let cells = (next() | next()) & ((1 << 20) - 1);
            out.push(Board::new(4, 5, cells).expect("4 x 5"));
        }
        out
    }

    type Options = Vec<(Rect, Nimber)>;

    /// The value and the valued options of `board` under `clear` (a clone:
    /// the rules' note of the tables is shared with it).
    fn options(clear: &Clear, board: &Board) -> (Nimber, Options) {
        let mut solver = clear.clone().into_solver();
        let value = solver.value(board).expect("no budget");
        let moves = solver
            .options_with_values(board)
            .expect("no budget")
            .into_iter()
            .map(|(mv, _, value)| (mv, value))
            .collect();
        (value, moves)
    }

    #[test]
    fn a_database_answers_without_the_tables_and_a_search_takes_them() {
        let with_4x5 = Clear::with_shapes(database(4, 5));
        let boards = boards();
        let from_database: Vec<_> = boards.iter().map(|b| options(&with_4x5, b)).collect();
        assert!(
            !with_4x5.small_tables_taken(),
            "the database holds every shape of these boards: no table taken"
        );

        // A full 5 x 5 board with a database of a smaller box is searched,
        // and the search takes the tables.
        let board = Board::new(5, 5, (1 << 25) - 1).expect("5 x 5");
        let with_2x3 = Clear::with_shapes(database(2, 3));
        let searched = with_2x3.clone().into_solver().value(&board);
        assert!(with_2x3.small_tables_taken(), "a search takes the tables");
        assert!(!with_4x5.small_tables_taken(), "other rules keep their own");
        assert_eq!(searched, Clear::new().into_solver().value(&board));

        let plain = Clear::new();
        for (board, got) in boards.iter().zip(&from_database) {
            assert_eq!(*got, options(&plain, board), "{board:?}");
        }
        assert!(
            plain.small_tables_taken(),
            "without a database, on first use"
        );
    }
}
