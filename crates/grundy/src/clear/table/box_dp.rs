//! The DP that values every set of cells of a small box, shared by the
//! engine (`table.rs`) and the crate's build script, which runs it for the
//! 4 x 5 and 2 x 8 tables so that they are part of the binary: a process
//! reads them from its mapped file rather than spending about 20 ms
//! building them before its first search (a `grundy clear` with a budget
//! of a few milliseconds would spend that past it). This file uses nothing
//! of the crate, so that the build script can include it.

/// Marks an entry not yet computed; values on a small box stay far below.
pub const UNKNOWN: u8 = u8::MAX;

/// The value of every set of cells of a `rows x cols` box (bit
/// `cols * row + col`), for boxes of at most 24 cells: the DP of the 4 x 4
/// table over the subsets in increasing order (every option of a set is a
/// smaller number), each value stored for the set's images under the box's
/// mirror symmetries at once, so about a quarter of the sets are expanded.
/// The 4 x 5 box takes about 20 ms on one core of the development machine,
/// which the build script spends instead of each process.
///
/// # Panics
///
/// When the box has more than 24 cells, or a value reaches 63 (the set of
/// values seen is one `u64`; no box this small comes near).
#[must_use]
pub fn build_box(rows: usize, cols: usize) -> Box<[u8]> {
    assert!(
        rows >= 1 && cols >= 1 && rows * cols <= 24,
        "a box of at most 24 cells"
    );
    let full_row = (1usize << cols) - 1;
    // The runs of ones of every row, each as its bits, and every row
    // mirrored left to right.
    let runs: Vec<Vec<usize>> = (0..=full_row)
        .map(|row| {
            let mut found = Vec::new();
            for left in 0..cols {
                let mut run = 0;
                for right in left..cols {
                    if row >> right & 1 == 0 {
                        break;
                    }
                    run |= 1 << right;
                    found.push(run);
                }
            }
            found
        })
        .collect();
    let mirrored: Vec<usize> = (0..=full_row)
        .map(|row| (0..cols).fold(0, |m, c| m | (row >> c & 1) << (cols - 1 - c)))
        .collect();
    let mut table = vec![UNKNOWN; 1 << (rows * cols)].into_boxed_slice();
    table[0] = 0;
    let mut rows_of = [0usize; 24];
    for set in 1..table.len() {
        if table[set] != UNKNOWN {
            continue;
        }
        for (r, row) in rows_of[..rows].iter_mut().enumerate() {
            *row = (set >> (cols * r)) & full_row;
        }
        let mut seen: u64 = 0;
        for top in 0..rows {
            let mut common = full_row;
            let mut repeat = 0usize;
            for (bottom, &row) in rows_of[..rows].iter().enumerate().skip(top) {
                common &= row;
                if common == 0 {
                    break;
                }
                repeat |= 1 << (cols * bottom);
                for &run in &runs[common] {
                    seen |= 1u64 << (table[set ^ (run * repeat)] & 63);
                }
            }
        }
        let value = (!seen).trailing_zeros();
        assert!(value < 63, "values of small boxes stay below 63");
        let (mut up, mut across, mut both) = (0, 0, 0);
        for (r, &row) in rows_of[..rows].iter().enumerate() {
            up |= row << (cols * (rows - 1 - r));
            across |= mirrored[row] << (cols * r);
            both |= mirrored[row] << (cols * (rows - 1 - r));
        }
        for image in [set, up, across, both] {
            table[image] = value as u8;
        }
    }
    table
}
