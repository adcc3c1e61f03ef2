use std::collections::HashSet;

use super::*;
use crate::clear::frame::Square;
use crate::clear::{Board, Clear, KeyError, ShapeKey};
use crate::tier::{solve_tiers, TierControl, TierError};
use crate::Solver;

/// Builds every tier of a box in memory.
pub(crate) fn build(shape_box: ShapeBox) -> ShapeTables {
    build_game(ClearShapes::new(shape_box), shape_box)
}

/// Builds every tier of a box in a wide frame.
fn build_wide(shape_box: ShapeBox) -> ShapeTables {
    build_game(ClearShapes::in_wide_frame(shape_box), shape_box)
}

fn build_game(game: ClearShapes, shape_box: ShapeBox) -> ShapeTables {
    let mut tables = Vec::new();
    solve_tiers::<_, TierError, _>(&game, &mut tables, &TierControl::new(), |_, _| Ok(()))
        .expect("no budget");
    ShapeTables::new(shape_box, tables).expect("every tier")
}

/// Every connected subset of the `rows x cols` grid as a bitmask in the 8 x 8
/// frame, found by brute force over all subsets.
fn connected_subsets(rows: usize, cols: usize) -> Vec<u64> {
    let n = rows * cols;
    (1u64..1 << n)
        .map(|bits| {
            (0..n)
                .filter(|i| bits >> i & 1 == 1)
                .fold(0u64, |s, i| s | 1 << (8 * (i / cols) + i % cols))
        })
        .filter(|&s| is_connected::<Square>(s))
        .collect()
}

/// Plain brute force: the value of every subset of a `rows x cols` board,
/// bit `row * cols + col`, by mex over every all-ones rectangle, subsets in
/// increasing order (clearing cells gives a smaller number). No components,
/// no symmetry, no tables.
fn brute_force_all(rows: usize, cols: usize) -> Vec<u8> {
    let n = rows * cols;
    let mut rects = Vec::new();
    for top in 0..rows {
        for bottom in top..rows {
            for left in 0..cols {
                for right in left..cols {
                    let mut mask = 0u32;
                    for r in top..=bottom {
                        for c in left..=right {
                            mask |= 1 << (r * cols + c);
                        }
                    }
                    rects.push(mask);
                }
            }
        }
    }
    let mut values = vec![0u8; 1 << n];
    let mut seen = [false; 256];
    for set in 1u32..1 << n {
        seen.fill(false);
        for &rect in &rects {
            if set & rect == rect {
                seen[values[(set ^ rect) as usize] as usize] = true;
            }
        }
        values[set as usize] = seen.iter().position(|s| !s).expect("under 256") as u8;
    }
    values
}

/// A frame shape as a `rows x cols` mask, bit `row * cols + col`.
fn to_grid(square: u64, cols: usize) -> u32 {
    let mut grid = 0u32;
    for i in 0..64 {
        if square >> i & 1 == 1 {
            grid |= 1 << ((i / 8) * cols + i % 8);
        }
    }
    grid
}

#[test]
fn boxes_are_validated() {
    assert_eq!(ShapeBox::new(6, 5).unwrap(), ShapeBox::new(5, 6).unwrap());
    assert!(ShapeBox::new(0, 3).is_err());
    assert!(ShapeBox::new(5, 9).is_err());
    assert!(ShapeBox::new(7, 8).is_err());
    assert!(ShapeBox::new(4, 14).is_err()); // 56 cells
    assert!(ShapeBox::new(3, 17).is_err());
    assert!(ShapeBox::new(1, 27).is_err());
    assert!(ShapeBox::new(9, 4).is_ok());
    assert!(ShapeBox::new(3, 16).is_ok());
    assert!(ShapeBox::new(2, 26).is_ok());
    assert!(ShapeBox::new(7, 7).is_ok());
    assert!(ShapeBox::new(6, 8).is_ok());
}

#[test]
fn pack_round_trips() {
    let b = ShapeBox::new(5, 7).unwrap();
    for s in connected_subsets(3, 4).into_iter().take(3000) {
        let anchored = anchor_8x8(s);
        let key = b.key_of(anchored).unwrap();
        assert_eq!(b.pack(b.unpack(key)), key);
        assert_eq!(key.count_ones(), s.count_ones());
    }
}

/// Each tier holds exactly the canonical forms of the connected sets of the
/// box (in either orientation), each once: checked against brute force over
/// every subset of the grid.
#[test]
fn tiers_hold_every_shape_once() {
    for (rows, cols) in [
        (1, 1),
        (1, 5),
        (2, 2),
        (2, 4),
        (3, 3),
        (3, 4),
        (4, 4),
        (3, 5),
    ] {
        let shape_box = ShapeBox::new(rows, cols).unwrap();
        let tables = build(shape_box);
        let expected: HashSet<u64> = connected_subsets(rows, cols)
            .into_iter()
            .map(|s| shape_box.key_of(anchor_8x8(s)).unwrap())
            .collect();
        let found: Vec<u64> = tables
            .tiers()
            .iter()
            .flat_map(|t| t.iter().map(|(k, _)| k))
            .collect();
        assert_eq!(found.len(), expected.len(), "{rows} x {cols}");
        assert_eq!(found.into_iter().collect::<HashSet<_>>(), expected);
    }
}

/// A box built in a wide frame equals the box built in the 8 x 8 frame,
/// tier by tier and slot by slot: the frames give every shape one key and
/// one value.
#[test]
fn wide_frames_build_the_same_tables() {
    for (rows, cols) in [
        (1, 6),
        (2, 2),
        (2, 7),
        (2, 8),
        (3, 3),
        (3, 6),
        (4, 4),
        (4, 5),
    ] {
        let shape_box = ShapeBox::new(rows, cols).unwrap();
        let square = build(shape_box);
        let wide = build_wide(shape_box);
        for (k, (a, b)) in square.tiers().iter().zip(wide.tiers()).enumerate() {
            assert_eq!(a.slots(), b.slots(), "{shape_box} tier {}", k + 1);
        }
    }
}

/// Every connected subset of the `rows x cols` grid, bit `row * cols + col`.
fn connected_grid_subsets(rows: usize, cols: usize) -> Vec<u64> {
    let board = |bits: u64| Board::new(rows, cols, bits).unwrap();
    (1u64..1 << (rows * cols))
        .filter(|&bits| board(bits).components().len() == 1)
        .collect()
}

/// Boxes wider than 8 (built in the wide frames) hold every shape once,
/// checked against brute force over every subset of the grid; every shape's
/// value agrees with the plain brute force and with the top-down solver.
#[test]
#[ignore = "exhaustive, 7 to 12 s: CI runs it (.ci/run, the ignored tests)"]
fn wide_boxes_agree_with_brute_force_and_top_down() {
    for (rows, cols) in [(1, 20), (2, 10), (3, 9)] {
        let shape_box = ShapeBox::new(rows, cols).unwrap();
        let tables = build(shape_box);
        let expected: HashSet<u64> = if rows * cols <= 20 {
            connected_grid_subsets(rows, cols)
                .into_iter()
                .filter_map(|bits| shape_box.key_of_board(&Board::new(rows, cols, bits).unwrap()))
                .collect()
        } else {
            HashSet::new()
        };
        let brute = (rows * cols <= 20).then(|| brute_force_all(rows, cols));
        let mut solver = Solver::new(Clear::new());
        let mut found = HashSet::new();
        for tier in tables.tiers() {
            for (key, value) in tier.iter() {
                assert!(found.insert(key), "{shape_box}: {key:#x} twice");
                let board = shape_box.board(key).unwrap();
                if let Some(brute) = &brute {
                    assert_eq!(u32::from(brute[key as usize]), value.value(), "{key:#x}");
                }
                // Top-down on every shape of the two small boxes; on 3 x 9,
                // every shape 9 columns wide (the ones no 8 x 8 build holds)
                // up to 14 cells and a sample of the rest.
                let c = board.crop(board.cells()).cols();
                let check =
                    rows * cols <= 20 || (c == 9 && (key.count_ones() <= 14 || key % 97 == 0));
                if check {
                    assert_eq!(solver.value(&board).unwrap(), value, "{shape_box} {key:#x}");
                }
                // The front-ends' lookup finds the shape, and so does the
                // solver's, by the shape's key.
                assert_eq!(tables.value(&board), Some(value), "{key:#x}");
                let shape = ShapeKey::of_board(&board).unwrap();
                assert_eq!(shape_box.key(&shape), Some(key), "{key:#x}");
                assert_eq!(tables.lookup(&shape), Some(value), "{key:#x}");
            }
        }
        if rows * cols <= 20 {
            assert_eq!(found, expected, "{shape_box}");
        } else {
            assert!(found.len() > 100_000);
        }
    }
}

/// The placements of every shape of a box in its grid add up to the grid's
/// connected cell sets, counted independently by a transfer matrix: every
/// connected set is one placement of one image of one shape, so the box
/// holds every shape once. Boxes of both kinds of frame.
#[test]
fn placements_add_up_to_the_connected_sets() {
    for (rows, cols) in [(1, 20), (2, 12), (3, 9), (4, 5), (3, 8), (2, 2)] {
        let shape_box = ShapeBox::new(rows, cols).unwrap();
        let tables = build(shape_box);
        let placements: u64 = tables
            .tiers()
            .iter()
            .flat_map(|t| t.iter())
            .map(|(key, _)| shape_box.placements(key, rows, cols))
            .sum();
        assert_eq!(
            u128::from(placements),
            crate::clear::census::connected_sets(rows, cols),
            "{shape_box}"
        );
    }
}

/// The number of placements of every shape of a box in the `rows x cols`
/// grid adds up to the number of connected cell sets of that grid, OEIS
/// A287151 (for 5 x 5: 2,301,877).
#[test]
fn placements_count_every_connected_set() {
    let shape_box = ShapeBox::new(5, 5).unwrap();
    let tables = build(shape_box);
    let mut total = 0u64;
    let mut shapes = 0u64;
    for tier in tables.tiers() {
        for (key, _) in tier.iter() {
            shapes += 1;
            let board = Board::new(8, 8, shape_box.unpack(key)).unwrap();
            let images: HashSet<u64> = (0..8u8)
                .map(|s| {
                    let image = board.transform(s);
                    anchor_8x8(image.in_8x8_frame().unwrap())
                })
                .collect();
            for image in images {
                let (r, c) = extent_8x8(image);
                if r <= 5 && c <= 5 {
                    total += ((5 - r + 1) * (5 - c + 1)) as u64;
                }
            }
        }
    }
    assert_eq!(total, 2_301_877);
    assert!(shapes > 0);
}

/// On every shape up to 4 x 4, the tier solver, the top-down solver
/// (without known values) and the plain brute force agree.
#[test]
fn small_shapes_agree_with_brute_force_and_top_down() {
    let brute = brute_force_all(4, 4);
    let tables = build(ShapeBox::new(4, 4).unwrap());
    let mut solver = Solver::new(Clear::without_known_values());
    let mut checked = 0;
    for tier in tables.tiers() {
        for (key, value) in tier.iter() {
            let square = ShapeBox::new(4, 4).unwrap().unpack(key);
            assert_eq!(u32::from(brute[to_grid(square, 4) as usize]), value.value());
            let board = Board::new(8, 8, square).unwrap();
            assert_eq!(solver.value(&board).unwrap(), value);
            checked += 1;
        }
    }
    assert!(checked > 100);
}

/// On all of 5 x 5, shape by shape: the tier solver against the plain brute
/// force over all 2^25 subsets and against the top-down solver.
#[test]
#[ignore = "exhaustive, 7 to 12 s: CI runs it (.ci/run, the ignored tests)"]
fn every_5x5_shape_agrees_with_brute_force_and_top_down() {
    let shape_box = ShapeBox::new(5, 5).unwrap();
    let brute = brute_force_all(5, 5);
    let tables = build(shape_box);
    let mut solver = Clear::solver();
    let mut checked = 0u64;
    for tier in tables.tiers() {
        for (key, value) in tier.iter() {
            let square = shape_box.unpack(key);
            assert_eq!(
                u32::from(brute[to_grid(square, 5) as usize]),
                value.value(),
                "{key:#x}"
            );
            let board = Board::new(8, 8, square).unwrap();
            assert_eq!(solver.value(&board).unwrap(), value, "{key:#x}");
            checked += 1;
        }
    }
    assert!(checked > 100_000);
    // The full board through the lookups front-ends use.
    let full = Board::new(5, 5, (1 << 25) - 1).unwrap();
    assert_eq!(
        tables.value(&full),
        Some(Nimber::new(u32::from(brute[(1 << 25) - 1])))
    );
}

#[test]
fn lookups_refuse_what_the_box_does_not_hold() {
    let tables = build(ShapeBox::new(3, 3).unwrap());
    let two_parts = Board::new(3, 3, 0b101).unwrap();
    assert_eq!(tables.value(&two_parts), None);
    let long = Board::new(1, 4, 0b1111).unwrap();
    assert_eq!(tables.value(&long), None);
    assert_eq!(
        tables.full_board(3, 3),
        tables.value(&Board::new(3, 3, 0x1FF).unwrap())
    );
    assert_eq!(tables.full_board(2, 5), None);
}

/// Every shape of the 5 x 5 box, in each of its 8 images and moved about a
/// larger board, gets one [`ShapeKey`], which the box turns back into the
/// shape's slot key: the same key the raw 8 x 8 path ([`ShapeBox::key_of`])
/// gives, and so the same value as [`ShapeTables::get`].
#[test]
fn shape_keys_round_trip_on_every_5x5_shape() {
    let shape_box = ShapeBox::new(5, 5).unwrap();
    let tables = build(shape_box);
    let mut shapes = 0u64;
    for tier in tables.tiers() {
        for (key, value) in tier.iter() {
            let square = shape_box.unpack(key);
            assert_eq!(shape_box.key_of(square), Some(key), "{key:#x}");
            let shape = ShapeKey::from_anchored_8x8(square).unwrap();
            assert_eq!(shape_box.key(&shape), Some(key), "{key:#x}");
            assert_eq!(tables.lookup(&shape), tables.get(key), "{key:#x}");
            assert_eq!(tables.get(key), Some(value));
            assert_eq!(shape.len(), key.count_ones() as usize);
            assert_eq!(
                ShapeKey::from_cut(shape.rows(), shape.cols(), shape.cells()),
                Ok(shape)
            );
            assert_eq!(ShapeKey::of_board(&shape.to_board()), Ok(shape));
            let board = shape_box.board(key).unwrap();
            for symmetry in 0..8 {
                let image = board.transform(symmetry);
                assert_eq!(ShapeKey::of_board(&image), Ok(shape), "{key:#x} {symmetry}");
                // Moved one row down and one column right on a 7 x 8 board.
                let cut = image.crop(image.cells());
                let moved = (0..cut.rows())
                    .flat_map(|r| (0..cut.cols()).map(move |c| (r, c)))
                    .filter(|&(r, c)| cut.get(r, c))
                    .fold(0u64, |bits, (r, c)| bits | 1 << (8 * (r + 1) + c + 1));
                let moved = Board::new(7, 8, moved).unwrap();
                assert_eq!(ShapeKey::of_board(&moved), Ok(shape), "{key:#x} {symmetry}");
            }
            shapes += 1;
        }
    }
    assert!(shapes > 100_000);
}

/// A box answers `None` for a shape it does not hold, in either frame, and
/// keys refuse cells that are not one shape cut to its box.
#[test]
fn shape_keys_outside_the_box_are_refused() {
    let tables = build(ShapeBox::new(3, 3).unwrap());
    let line = ShapeKey::of_board(&Board::new(4, 1, 0b1111).unwrap()).unwrap();
    assert_eq!((line.rows(), line.cols()), (1, 4));
    assert_eq!(tables.shape_box().key(&line), None);
    assert_eq!(tables.lookup(&line), None);
    let wide = ShapeKey::from_cut(2, 10, (1 << 20) - 1).unwrap();
    assert_eq!(tables.lookup(&wide), None);
    let full = ShapeKey::from_cut(3, 3, 0x1FF).unwrap();
    assert_eq!(tables.lookup(&full), tables.full_board(3, 3));

    assert_eq!(
        ShapeKey::of_board(&Board::new(3, 3, 0b101).unwrap()),
        Err(KeyError::NotOneComponent)
    );
    assert_eq!(
        ShapeKey::of_board(&Board::new(3, 3, 0).unwrap()),
        Err(KeyError::NotOneComponent)
    );
    assert_eq!(ShapeKey::from_cut(2, 2, 0b0001), Err(KeyError::NotCut));
    assert_eq!(
        ShapeKey::from_cut(2, 2, 0b1001),
        Err(KeyError::NotOneComponent)
    );
    assert!(matches!(
        ShapeKey::from_cut(2, 2, 0b1_0000),
        Err(KeyError::Board(_))
    ));
    assert_eq!(ShapeKey::from_anchored_8x8(0b10), Err(KeyError::NotCut));
    assert_eq!(
        ShapeKey::from_anchored_8x8(0b101),
        Err(KeyError::NotOneComponent)
    );
}

/// The solver with a database of a wide box (2 x 10, read by the wide
/// frame's keys) gives every board of a 2 x 12 grid sampled the value the
/// solver finds without it.
#[test]
fn a_wide_database_answers_the_solver() {
    let tables: std::sync::Arc<dyn ShapeLookup> =
        std::sync::Arc::new(build(ShapeBox::new(2, 10).unwrap()));
    let mut with = Clear::with_shapes(tables).into_solver();
    let mut without = Clear::solver();
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..200 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let board = Board::new(2, 12, (state | state >> 24) & 0xFF_FFFF).unwrap();
        assert_eq!(
            with.value(&board).unwrap(),
            without.value(&board).unwrap(),
            "{board:?}"
        );
    }
}
