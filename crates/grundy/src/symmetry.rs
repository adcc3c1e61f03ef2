//! The 8 symmetries of the square acting on the cells of a `rows x cols`
//! grid, shared by the games whose values they preserve (rectangle clearing
//! and the splitting game: each maps rectangles to rectangles, so moves to
//! moves). A symmetry is a `u8`: bit 0 mirrors the columns, bit 1 mirrors
//! the rows, and bit 2 then transposes.

/// Whether `symmetry` transposes (swaps the grid's sides).
const fn transposes(symmetry: u8) -> bool {
    symmetry & 4 != 0
}

/// The `(rows, cols)` of the image of a `rows x cols` grid.
pub(crate) const fn image_shape(symmetry: u8, rows: usize, cols: usize) -> (usize, usize) {
    if transposes(symmetry) {
        (cols, rows)
    } else {
        (rows, cols)
    }
}

/// Where cell `(row, col)` of a `rows x cols` grid goes.
pub(crate) const fn image_cell(
    symmetry: u8,
    (rows, cols): (usize, usize),
    (row, col): (usize, usize),
) -> (usize, usize) {
    let col = if symmetry & 1 != 0 {
        cols - 1 - col
    } else {
        col
    };
    let row = if symmetry & 2 != 0 {
        rows - 1 - row
    } else {
        row
    };
    if transposes(symmetry) {
        (col, row)
    } else {
        (row, col)
    }
}

#[cfg(test)]
mod tests {
    use super::{image_cell, image_shape};
    use std::collections::HashSet;

    /// Each of the 8 maps a grid's cells one-to-one onto its image's cells,
    /// and the 8 are distinct on a non-square grid's corner cells.
    #[test]
    fn every_symmetry_is_a_bijection_onto_the_image() {
        for (rows, cols) in [(1, 1), (2, 3), (3, 2), (4, 4), (1, 5)] {
            for symmetry in 0..8 {
                let (out_rows, out_cols) = image_shape(symmetry, rows, cols);
                let mut seen = HashSet::new();
                for row in 0..rows {
                    for col in 0..cols {
                        let (r, c) = image_cell(symmetry, (rows, cols), (row, col));
                        assert!(r < out_rows && c < out_cols);
                        assert!(seen.insert((r, c)));
                    }
                }
            }
        }
        let corners: HashSet<_> = (0..8)
            .map(|symmetry| {
                (
                    image_cell(symmetry, (3, 3), (0, 1)),
                    image_cell(symmetry, (3, 3), (1, 0)),
                )
            })
            .collect();
        assert_eq!(corners.len(), 8);
    }
}
