//! The value of every 4 x 4 board, built once.

use std::sync::OnceLock;

use crate::Nimber;

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

/// Marks an entry not yet computed; values on a 4 x 4 board stay far below.
const UNKNOWN: u8 = u8::MAX;

/// Builds the table by a DP over the boards in increasing order: clearing
/// a rectangle from `s` gives `s ^ rect < s`, so every option is done first.
/// Symmetric boards have equal values, so only the first board of each
/// orbit under the 8 symmetries of the square is computed (8,548 of the
/// 65,536, by Burnside's lemma) and its value is written to the whole orbit: every board below
/// `s` is then filled, either computed or copied from its orbit's first.
/// Rectangles are enumerated from each board's own runs of ones (about 17
/// per board on average, from a const table of each row's runs) rather than
/// by testing all 100 rectangles of the 4 x 4 square.
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

static TABLE_4X5: OnceLock<Box<[u8; 1 << 20]>> = OnceLock::new();

/// The value of a 4 x 5 board given as 20 bits, bit `5 * row + col` (any
/// set of cells: the value of several components is the XOR of theirs).
/// The first call builds the 1,048,576-entry table, which takes some
/// milliseconds (see [`build_4x5`]); later calls are one load.
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
pub fn table_4x5() -> &'static [u8; 1 << 20] {
    TABLE_4X5.get_or_init(build_4x5)
}

/// The runs of ones of every 5-bit row, each run as its bits: at most 15
/// (all intervals of `0b11111`).
const RUNS_5: [(u8, [u8; 15]); 32] = {
    let mut runs = [(0u8, [0u8; 15]); 32];
    let mut row = 0;
    while row < 32 {
        let mut left = 0;
        while left < 5 {
            let mut right = left;
            let mut run = 0u8;
            while right < 5 && row >> right & 1 == 1 {
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

/// The images of a 4 x 5 board under the symmetries of the 4 x 5
/// rectangle: itself, mirrored left to right, top to bottom, and both.
const fn images_4x5(board: u32) -> [u32; 4] {
    const fn flip_rows(x: u32) -> u32 {
        ((x & 0x1F) << 15) | ((x & 0x3E0) << 5) | ((x >> 5) & 0x3E0) | (x >> 15)
    }
    const fn flip_cols(x: u32) -> u32 {
        // Within each 5-bit row: swap bits 0 and 4, 1 and 3; bit 2 stays.
        const B0: u32 = 0b00001_00001_00001_00001;
        const B1: u32 = B0 << 1;
        const B2: u32 = B0 << 2;
        ((x & B0) << 4) | ((x & B1) << 2) | (x & B2) | ((x >> 2) & B1) | ((x >> 4) & B0)
    }
    let mirrored = flip_cols(board);
    [board, mirrored, flip_rows(board), flip_rows(mirrored)]
}

/// Builds the 4 x 5 table: the same DP as the 4 x 4 table's, over the
/// 2^20 subsets in increasing order, each value stored for the set's four
/// images at once (so a quarter of the sets are expanded). About 10 to 20
/// ms on one core of the development machine.
#[must_use]
pub fn build_4x5() -> Box<[u8; 1 << 20]> {
    let mut table = vec![UNKNOWN; 1 << 20].into_boxed_slice();
    table[0] = 0;
    for set in 1..(1usize << 20) {
        if table[set] != UNKNOWN {
            continue;
        }
        let rows = [set & 0x1F, (set >> 5) & 0x1F, (set >> 10) & 0x1F, set >> 15];
        let mut seen: u64 = 0;
        for top in 0..4 {
            let mut common = 0x1F;
            let mut repeat = 0usize;
            for (bottom, &row) in rows.iter().enumerate().skip(top) {
                common &= row;
                if common == 0 {
                    break;
                }
                repeat |= 1 << (5 * bottom);
                let (count, runs) = &RUNS_5[common];
                for &run in &runs[..*count as usize] {
                    seen |= 1u64 << (table[set ^ (usize::from(run) * repeat)] & 63);
                }
            }
        }
        // A 4 x 5 board has at most 150 rectangles, but its values stay
        // far below 63 (the largest is checked by a test).
        let value = (!seen).trailing_zeros();
        debug_assert!(value < 63);
        for image in images_4x5(set as u32) {
            table[image as usize] = value as u8;
        }
    }
    table.try_into().expect("2^20 entries")
}

#[cfg(test)]
mod tests {
    use super::symmetric_images;

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
