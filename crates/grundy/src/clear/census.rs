//! The number of connected cell sets of a grid (OEIS A287151), counted
//! without the shape machinery: the independent check of a database's
//! shape count.
//!
//! **Algorithm.** A transfer matrix over columns. After each column, a state
//! is the column's occupied cells labelled by which of them are already
//! joined through earlier columns; states are counted, not listed. A new
//! column joins vertical neighbours in it and each of its cells to the cell
//! to its left. A label of the old column that reaches no new cell is a
//! finished component: the set stays connected only if it was the sole
//! label and the new column, and so every later one, is empty, and then the
//! set is counted whole. After the last column, states of one label are
//! connected sets.
//!
//! **Cost.** At most the set partitions of `rows` occupied cells (under 5,000
//! states for 8 rows) times `2^rows` columns, per column: microseconds for
//! the grids of the databases. `rows` is the short side (up to 16).

use std::collections::HashMap;

/// Connected (4-neighbour) non-empty cell sets of the `rows x cols` grid.
///
/// # Panics
///
/// When both sides are over 16 (the states would not fit a `u64`), or the
/// count overflows `u128`.
#[must_use]
pub fn connected_sets(rows: usize, cols: usize) -> u128 {
    let (rows, cols) = (rows.min(cols), rows.max(cols));
    assert!(rows <= 16, "a short side of at most 16");
    if rows == 0 {
        return 0;
    }
    // A state: 4 bits per cell of the column, 0 empty, else a label 1..=15
    // numbered in order of first appearance.
    let mut states: HashMap<u64, u128> = HashMap::new();
    let mut total = 0u128;
    for _ in 0..cols {
        let mut next: HashMap<u64, u128> = HashMap::new();
        // Sets that start in this column.
        for column in 1u32..1 << rows {
            if let Some(state) = join(rows, 0, column) {
                *next.entry(state).or_default() += 1;
            }
        }
        for (&state, &count) in &states {
            let labels = label_count(rows, state);
            for column in 0u32..1 << rows {
                match join(rows, state, column) {
                    Some(joined) => *next.entry(joined).or_default() += count,
                    // A component ends here: a whole set when it was the
                    // only one and nothing follows.
                    None if column == 0 && labels == 1 => total += count,
                    None => {}
                }
            }
        }
        states = next;
    }
    total
        + states
            .iter()
            .filter(|&(&state, _)| label_count(rows, state) == 1)
            .map(|(_, &count)| count)
            .sum::<u128>()
}

fn label_at(state: u64, row: usize) -> usize {
    ((state >> (4 * row)) & 0xF) as usize
}

fn label_count(rows: usize, state: u64) -> usize {
    (0..rows).map(|r| label_at(state, r)).max().unwrap_or(0)
}

/// The state after `column` (bit `r` for row `r`) follows `state`, or
/// `None` when a label of `state` reaches no cell of the column.
fn join(rows: usize, state: u64, column: u32) -> Option<u64> {
    // Union-find over the old labels (1..=15) and the new cells (16 + r).
    let mut parent: [usize; 32] = std::array::from_fn(|i| i);
    fn find(parent: &mut [usize; 32], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    let union = |parent: &mut [usize; 32], a: usize, b: usize| {
        let (a, b) = (find(parent, a), find(parent, b));
        parent[a] = b;
    };
    let occupied = |r: usize| column >> r & 1 == 1;
    for r in 0..rows {
        if !occupied(r) {
            continue;
        }
        if r + 1 < rows && occupied(r + 1) {
            union(&mut parent, 16 + r, 16 + r + 1);
        }
        let left = label_at(state, r);
        if left != 0 {
            union(&mut parent, left, 16 + r);
        }
    }
    // Every old label must reach a new cell.
    for label in 1..=label_count(rows, state) {
        let root = find(&mut parent, label);
        if !(0..rows).any(|r| occupied(r) && find(&mut parent, 16 + r) == root) {
            return None;
        }
    }
    // Relabel the new cells in order of first appearance.
    let mut names = [0usize; 32];
    let mut next_name = 0;
    let mut out = 0u64;
    for r in 0..rows {
        if !occupied(r) {
            continue;
        }
        let root = find(&mut parent, 16 + r);
        if names[root] == 0 {
            next_name += 1;
            names[root] = next_name;
        }
        out |= (names[root] as u64) << (4 * r);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clear::Board;

    /// Brute force over every subset of small grids.
    #[test]
    fn counts_match_brute_force() {
        for rows in 1..=4 {
            for cols in rows..=(20 / rows).min(6) {
                let brute = (1u64..1 << (rows * cols))
                    .filter(|&bits| Board::new(rows, cols, bits).unwrap().components().len() == 1)
                    .count() as u128;
                assert_eq!(connected_sets(rows, cols), brute, "{rows} x {cols}");
                assert_eq!(connected_sets(cols, rows), brute, "{cols} x {rows}");
            }
        }
    }

    /// The terms of OEIS A287151 quoted in issue 10 (an independent source).
    #[test]
    fn counts_match_the_published_terms() {
        assert_eq!(connected_sets(5, 5), 2_301_877);
        assert_eq!(connected_sets(5, 6), 45_280_509);
        assert_eq!(connected_sets(5, 7), 889_477_656);
        assert_eq!(connected_sets(6, 6), 1_732_082_741);
        assert_eq!(connected_sets(6, 7), 66_037_462_454);
        assert_eq!(connected_sets(7, 7), 4_872_949_974_666);
    }
}
