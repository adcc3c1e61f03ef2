//! The value of every set of cells of a small box (4 x 4, 4 x 5, 2 x 8),
//! each table built by a DP over the subsets: the 4 x 4 one on first use
//! (under half a millisecond), the 4 x 5 and 2 x 8 ones by the build
//! script, into the binary (`table/box_dp.rs`).
//!
//! [`SmallTables`] is the value the solvers hold. Each table is a pure
//! function of its box, so one copy per process is kept ([`table`],
//! [`SmallTables::shared`]); whether it is made yet is never asked: a
//! [`Clear`](super::Clear) keeps its own note of whether it has taken the
//! 4 x 5 and 2 x 8 tables.

use std::sync::OnceLock;

use crate::Nimber;

mod box_dp;
pub use box_dp::build_box;
use box_dp::UNKNOWN;

static TABLE: OnceLock<Box<[u8; 1 << 16]>> = OnceLock::new();

/// The value of a 4 x 4 board given as 16 bits, bit `4 * row + col`.
/// The first call builds the 65,536-entry table (under half a millisecond);
/// later calls are one load.
///
/// # Examples
///
/// ```
/// use grundy::clear::value4x4;
/// assert_eq!(value4x4(0).value(), 0);
/// assert_eq!(value4x4(0b1111).value(), 4); // a row of four
/// ```
#[must_use]
pub fn value4x4(cells: u64) -> Nimber {
    Nimber::new(u32::from(table()[(cells & 0xFFFF) as usize]))
}

/// The whole table, for callers that look up millions of boards.
#[must_use]
pub fn table() -> &'static [u8; 1 << 16] {
    TABLE.get_or_init(build)
}

/// The runs of ones of every 4-bit row: `(count, runs)`, each run as its
/// bits. A row has at most 10 runs (all intervals of `0b1111`).
const RUNS: [(u8, [u8; 10]); 16] = {
    let mut runs = [(0u8, [0u8; 10]); 16];
    let mut row = 0;
    while row < 16 {
        let mut left = 0;
        while left < 4 {
            let mut right = left;
            let mut run = 0u8;
            while right < 4 && row >> right & 1 == 1 {
                run |= 1 << right;
                let (count, list) = &mut runs[row];
                list[*count as usize] = run;
                *count += 1;
                right += 1;
            }
            left += 1;
        }
        row += 1;
    }
    runs
};

/// The 8 images of a 4 x 4 board under the symmetries of the square:
/// the board and its transpose, each flipped left-right, top-bottom and both.
/// Bit `4 * row + col`; every step is a few shifts and masks.
const fn symmetric_images(board: u16) -> [u16; 8] {
    const fn flip_rows(x: u16) -> u16 {
        (x << 12) | ((x << 4) & 0x0F00) | ((x >> 4) & 0x00F0) | (x >> 12)
    }
    const fn flip_cols(x: u16) -> u16 {
        let x = ((x >> 1) & 0x5555) | ((x & 0x5555) << 1);
        ((x >> 2) & 0x3333) | ((x & 0x3333) << 2)
    }
    const fn transpose(x: u16) -> u16 {
        // Swap the off-diagonal cells inside each 2 x 2 block (distance 3),
        // then the two off-diagonal 2 x 2 blocks (distance 6).
        let t = (x ^ (x >> 3)) & 0x0A0A;
        let x = x ^ t ^ (t << 3);
        let t = (x ^ (x >> 6)) & 0x00CC;
        x ^ t ^ (t << 6)
    }
    let t = transpose(board);
    [
        board,
        flip_cols(board),
        flip_rows(board),
        flip_rows(flip_cols(board)),
        t,
        flip_cols(t),
        flip_rows(t),
        flip_rows(flip_cols(t)),
    ]
}

/// Builds the table by a DP over the boards in increasing order: clearing
/// a rectangle from `s` gives `s ^ rect < s`, so every option is done first.
/// Symmetric boards have equal values, so only the first board of each
/// orbit under the 8 symmetries of the square is computed (8,548 of the
/// 65,536, by Burnside's lemma) and its value is written to the whole orbit: every board below
/// `s` is then filled, either computed or copied from its orbit's first.
/// Rectangles are enumerated from each board's own runs of ones (about 17
/// per board on average, from a const table of each row's runs) rather than
/// by testing all 100 rectangles of the 4 x 4 square.
// A loop of its own rather than `build_box(4, 4)` (the same table, a test
// checks): every clear command builds this table as it starts, and the
// square's eight symmetries with the const runs make it about twice as
// fast (docs/design.md, "Tried and dropped").
#[must_use]
pub fn build() -> Box<[u8; 1 << 16]> {
    let mut table = vec![UNKNOWN; 1 << 16].into_boxed_slice();
    table[0] = 0;
    for set in 1..(1usize << 16) {
        if table[set] != UNKNOWN {
            continue;
        }
        let rows = [set & 0xF, (set >> 4) & 0xF, (set >> 8) & 0xF, set >> 12];
        // Values stay far below 64 on a 4 x 4 board (the table's largest
        // is 15), so a u64 of seen values is ample and branch-free.
        let mut seen: u64 = 0;
        for top in 0..4 {
            // `common`: the columns that are one on every row top..=bottom;
            // each of its runs spans a rectangle of those rows.
            let mut common = 0xF;
            let mut repeat = 0usize;
            for (bottom, &row) in rows.iter().enumerate().skip(top) {
                common &= row;
                if common == 0 {
                    break;
                }
                repeat |= 1 << (4 * bottom);
                let (count, runs) = &RUNS[common];
                for &run in &runs[..*count as usize] {
                    seen |= 1u64 << (table[set ^ (usize::from(run) * repeat)] & 63);
                }
            }
        }
        let value = (!seen).trailing_zeros();
        debug_assert!(value < 64);
        // `set < 2^16`: the cast keeps every bit.
        for image in symmetric_images(set as u16) {
            table[usize::from(image)] = value as u8;
        }
    }
    table.try_into().expect("65,536 entries")
}

/// The value of a 4 x 5 board given as 20 bits, bit `5 * row + col` (any
/// set of cells: the value of several components is the XOR of theirs).
/// One load from the table in the binary ([`SmallTables::shared`]).
///
/// # Examples
///
/// ```
/// use grundy::clear::table::value4x5;
/// assert_eq!(value4x5(0b11111).value(), 5); // a row of five
/// assert_eq!(value4x5(0b1_00001).value(), 2); // a vertical domino
/// ```
#[must_use]
pub fn value4x5(cells: u64) -> Nimber {
    Nimber::new(u32::from(table_4x5()[(cells & 0xF_FFFF) as usize]))
}

/// The whole 4 x 5 table (see [`value4x5`]).
#[must_use]
pub fn table_4x5() -> &'static [u8] {
    &SmallTables::shared().t4x5[..]
}

/// Makes the small tables now ([`SmallTables::shared`]: the 4 x 4 one's
/// build, under half a millisecond), if not made yet: for servers, before
/// they take requests.
pub fn warm_small_tables() {
    let _ = SmallTables::shared();
}

/// The value of a 2 x 8 board given as 16 bits, bit `8 * row + col` (any
/// set of cells): one load from the table in the binary
/// ([`SmallTables::shared`]). Shapes of
/// two rows are most of a 2 x n board's components.
///
/// # Examples
///
/// ```
/// use grundy::clear::table::value2x8;
/// assert_eq!(value2x8(0xFF).value(), 8); // a row of eight
/// assert_eq!(value2x8(0xFFFF).value(), 16); // the full 2 x 8 board
/// ```
#[must_use]
pub fn value2x8(cells: u64) -> Nimber {
    Nimber::new(u32::from(table_2x8()[(cells & 0xFFFF) as usize]))
}

/// The whole 2 x 8 table (see [`value2x8`]).
#[must_use]
pub fn table_2x8() -> &'static [u8] {
    &SmallTables::shared().t2x8[..]
}

/// The 4 x 4, 4 x 5 and 2 x 8 tables together, built: the value of every
/// set of cells of those boxes, one load each with no lazy initialisation
/// check per lookup (the tier build values millions of components by them,
/// [`Clear`](super::Clear) its small components).
pub struct SmallTables {
    t4x4: &'static [u8; 1 << 16],
    t4x5: &'static [u8; 1 << 20],
    t2x8: &'static [u8; 1 << 16],
}

/// The 4 x 5 table, [`build_box`]`(4, 5)` as the build script wrote it.
static TABLE_4X5: &[u8; 1 << 20] = include_bytes!(concat!(env!("OUT_DIR"), "/box_4x5.bin"));
/// The 2 x 8 table, [`build_box`]`(2, 8)` as the build script wrote it.
static TABLE_2X8: &[u8; 1 << 16] = include_bytes!(concat!(env!("OUT_DIR"), "/box_2x8.bin"));

impl std::fmt::Debug for SmallTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SmallTables { 4 x 4, 4 x 5, 2 x 8 }")
    }
}

static SHARED: OnceLock<SmallTables> = OnceLock::new();

impl SmallTables {
    /// The three tables: the 4 x 4 one built now if not yet (under half a
    /// millisecond), the 4 x 5 and 2 x 8 ones from the binary.
    #[must_use]
    pub fn build() -> SmallTables {
        SmallTables {
            t4x4: table(),
            t4x5: TABLE_4X5,
            t2x8: TABLE_2X8,
        }
    }

    /// The process's one copy of the tables, built on the first call (a
    /// pure value: every call gets the same tables).
    #[must_use]
    pub fn shared() -> &'static SmallTables {
        SHARED.get_or_init(SmallTables::build)
    }

    /// The value of a 4 x 4 set of cells, bit `4 * row + col`.
    #[inline(always)]
    #[must_use]
    pub fn value_4x4(&self, index: u64) -> Nimber {
        Nimber::new(u32::from(self.t4x4[(index & 0xFFFF) as usize]))
    }

    /// The value of a 4 x 5 set of cells, bit `5 * row + col`.
    #[inline(always)]
    #[must_use]
    pub fn value_4x5(&self, index: u64) -> Nimber {
        Nimber::new(u32::from(self.t4x5[(index & 0xF_FFFF) as usize]))
    }

    /// The value of a 2 x 8 set of cells, bit `8 * row + col`.
    #[inline(always)]
    #[must_use]
    pub fn value_2x8(&self, index: u64) -> Nimber {
        Nimber::new(u32::from(self.t2x8[(index & 0xFFFF) as usize]))
    }

    /// The value of a set of cells anchored at the top-left of the 8 x 8
    /// frame (bit `8 * row + col`) with a `rows x cols` bounding box, when
    /// it fits 4 x 4, 4 x 5 or 2 x 8 either way round (any set, connected or
    /// not: the tables value every subset of their box). This takes in the
    /// straight lines up to 8 cells.
    #[inline(always)]
    pub(crate) fn value_8x8(&self, anchored: u64, rows: usize, cols: usize) -> Option<u32> {
        use super::bits::square::{corner_4x4, corner_4x5, transpose_8x8};
        let index = if rows <= 4 && cols <= 4 {
            return Some(self.value_4x4(corner_4x4(anchored)).value());
        } else if rows <= 4 && cols <= 5 {
            corner_4x5(anchored)
        } else if rows <= 5 && cols <= 4 {
            corner_4x5(transpose_8x8(anchored))
        } else if rows <= 2 {
            return Some(self.value_2x8(anchored).value());
        } else if cols <= 2 {
            return Some(self.value_2x8(transpose_8x8(anchored)).value());
        } else {
            return None;
        };
        Some(self.value_4x5(index).value())
    }
}

#[cfg(test)]
mod tests {
    use super::{build, build_box, symmetric_images};

    /// The 4 x 4 table's own loop and the general one agree on every set.
    #[test]
    fn the_4x4_loop_is_the_general_one() {
        assert_eq!(&build()[..], &build_box(4, 4)[..]);
    }

    /// The tables in the binary are the DP's, run here (the build script
    /// wrote them whole, each box to its own file).
    #[test]
    fn the_tables_in_the_binary_are_the_dps() {
        assert_eq!(&super::TABLE_4X5[..], &build_box(4, 5)[..]);
        assert_eq!(&super::TABLE_2X8[..], &build_box(2, 8)[..]);
    }

    /// The image of `board` under the map of cells `(row, col) -> f(row, col)`.
    fn map_cells(board: u16, f: impl Fn(usize, usize) -> (usize, usize)) -> u16 {
        let mut image = 0;
        for cell in (0..16).filter(|cell| board >> cell & 1 == 1) {
            let (row, col) = f(cell / 4, cell % 4);
            image |= 1 << (4 * row + col);
        }
        image
    }

    /// The bit tricks agree with moving each cell by coordinates, for every
    /// board, and the 65,536 boards fall into the 8,548 orbits counted by
    /// Burnside's lemma: (2^16 + 2*2^4 + 3*2^8 + 2*2^10) / 8 (the identity, the
    /// quarter turns, the half turn and two axis flips, the two diagonal flips).
    #[test]
    fn symmetric_images_move_every_cell() {
        type CellMap = fn(usize, usize) -> (usize, usize);
        let maps: [CellMap; 8] = [
            |r, c| (r, c),
            |r, c| (r, 3 - c),
            |r, c| (3 - r, c),
            |r, c| (3 - r, 3 - c),
            |r, c| (c, r),
            |r, c| (c, 3 - r),
            |r, c| (3 - c, r),
            |r, c| (3 - c, 3 - r),
        ];
        let mut first_of_orbit = 0;
        for board in 0..=u16::MAX {
            let images = symmetric_images(board);
            for (image, map) in images.iter().zip(maps) {
                assert_eq!(*image, map_cells(board, map), "board {board:#06x}");
            }
            if images.iter().all(|&image| image >= board) {
                first_of_orbit += 1;
            }
        }
        let burnside = ((1 << 16) + 2 * (1 << 4) + 3 * (1 << 8) + 2 * (1 << 10)) / 8;
        assert_eq!(first_of_orbit, burnside);
    }
}
