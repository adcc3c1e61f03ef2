//! The value of every 4 x 4 board, built once.

use std::sync::OnceLock;

use crate::Nimber;

static TABLE: OnceLock<Box<[u8; 1 << 16]>> = OnceLock::new();

/// The value of a 4 x 4 board given as 16 bits, bit `4 * row + col`.
/// The first call builds the 65,536-entry table (about a millisecond);
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

/// Builds the table by a DP over the boards in increasing order: clearing
/// a rectangle from `s` gives `s ^ rect < s`, so every option is done first.
/// Rectangles are enumerated from each board's own runs of ones (a few dozen
/// per board) rather than by testing all 100 rectangles of the 4 x 4 square.
#[must_use]
pub fn build() -> Box<[u8; 1 << 16]> {
    let mut table = vec![0u8; 1 << 16].into_boxed_slice();
    for set in 1..(1usize << 16) {
        let rows = [set & 0xF, (set >> 4) & 0xF, (set >> 8) & 0xF, set >> 12];
        // Values stay far below 64 on a 4 x 4 board (at most 100 options),
        // so a u128 of seen values is ample and branch-free.
        let mut seen: u128 = 0;
        for top in 0..4 {
            let mut lefts = rows[top];
            while lefts != 0 {
                let left = lefts.trailing_zeros();
                lefts &= lefts - 1;
                let mut run = 0usize;
                for right in left..4 {
                    if rows[top] >> right & 1 == 0 {
                        break;
                    }
                    run |= 1 << right;
                    let mut mask = 0usize;
                    for (bottom, &row) in rows.iter().enumerate().skip(top) {
                        if row & run != run {
                            break;
                        }
                        mask |= run << (4 * bottom);
                        seen |= 1u128 << table[set ^ mask];
                    }
                }
            }
        }
        let value = (!seen).trailing_zeros();
        debug_assert!(value < 128);
        table[set] = value as u8;
    }
    table.try_into().expect("65,536 entries")
}
