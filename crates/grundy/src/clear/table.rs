//! The value of every 4 x 4 board, built once.

use std::sync::OnceLock;

use crate::Nimber;

static TABLE: OnceLock<Box<[u8; 1 << 16]>> = OnceLock::new();

/// The value of a 4 x 4 board given as 16 bits, bit `4 * row + col`.
/// The first call builds the 65,536-entry table (a few milliseconds);
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

/// Builds the table by a DP over the boards in increasing order: clearing
/// a rectangle from `s` gives `s ^ rect < s`, so every option is done first.
/// Rectangles are enumerated from each board's own runs of ones (about 17
/// per board on average, from a const table of each row's runs) rather than
/// by testing all 100 rectangles of the 4 x 4 square.
#[must_use]
pub fn build() -> Box<[u8; 1 << 16]> {
    let mut table = vec![0u8; 1 << 16].into_boxed_slice();
    for set in 1..(1usize << 16) {
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
        table[set] = value as u8;
    }
    table.try_into().expect("65,536 entries")
}
