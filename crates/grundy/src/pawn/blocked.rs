//! Validated cells and sets of impassable cells: coordinates checked
//! against [`MAX_COORD`](super::MAX_COORD) once, a set sorted row by row and
//! a repeated cell refused, so that the sweeps of [`crate::pawn`] take them
//! as given.

use std::fmt;

use super::{Axis, PawnError, MAX_COORD};

/// A cell `(x, y)` with both coordinates in `0..=`[`MAX_COORD`].
///
/// # Examples
///
/// ```
/// use grundy::pawn::Cell;
/// let cell = Cell::new(3, 1_000_000_000).unwrap();
/// assert_eq!((cell.x(), cell.y()), (3, 1_000_000_000));
/// assert!(Cell::new(1_000_000_001, 0).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell {
    // y first: the derived order is row by row, as the sweep goes.
    y: u32,
    x: u32,
}

impl Cell {
    /// The cell `(x, y)`.
    ///
    /// # Errors
    ///
    /// [`PawnError::CoordinateOutOfRange`] when a coordinate exceeds
    /// [`MAX_COORD`].
    // Inlined into other crates: the `gridgame` judge makes 10^5 cells
    // with it, and a call for each took 4% of its time (docs/benchmarks.md).
    #[inline]
    pub fn new(x: u64, y: u64) -> Result<Cell, PawnError> {
        for (axis, value) in [(Axis::X, x), (Axis::Y, y)] {
            if value > u64::from(MAX_COORD) {
                return Err(PawnError::CoordinateOutOfRange { axis, value });
            }
        }
        // Both fit: checked against MAX_COORD < 2^32 above.
        Ok(Cell {
            x: x as u32,
            y: y as u32,
        })
    }

    /// The column.
    #[must_use]
    pub const fn x(self) -> u32 {
        self.x
    }

    /// The row.
    #[must_use]
    pub const fn y(self) -> u32 {
        self.y
    }

    /// The sort key of the row-major order: `y << 32 | x`.
    pub(crate) const fn row_key(self) -> u64 {
        (self.y as u64) << 32 | self.x as u64
    }

    /// The sort key of the column-major order: `x << 32 | y`.
    pub(crate) const fn column_key(self) -> u64 {
        (self.x as u64) << 32 | self.y as u64
    }

    /// A cell known to be in range (coordinates from a validated cell).
    pub(crate) fn from_parts(x: u64, y: u64) -> Cell {
        debug_assert!(x <= u64::from(MAX_COORD) && y <= u64::from(MAX_COORD));
        Cell {
            x: x as u32,
            y: y as u32,
        }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.x, self.y)
    }
}

/// A set of distinct impassable cells, kept sorted row by row.
///
/// # Examples
///
/// ```
/// use grundy::pawn::{Blocked, Cell, PawnError};
/// let a = Cell::new(1, 1).unwrap();
/// let b = Cell::new(4, 2).unwrap();
/// let blocked = Blocked::new(&[b, a]).unwrap();
/// assert!(blocked.contains(a));
/// assert_eq!(blocked.iter().collect::<Vec<_>>(), vec![a, b]);
/// assert!(matches!(
///     Blocked::new(&[a, b, a]),
///     Err(PawnError::DuplicateBlocked { first: 0, second: 2, .. })
/// ));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Blocked {
    /// Row-major keys ([`Cell::row_key`]), strictly increasing.
    row_keys: Vec<u64>,
}

impl Blocked {
    /// No impassable cell.
    #[must_use]
    pub fn empty() -> Blocked {
        Blocked::default()
    }

    /// The set of `cells`.
    ///
    /// # Errors
    ///
    /// [`PawnError::DuplicateBlocked`] with the indices of the first repeated
    /// cell's two listings (the earliest second listing in input order).
    pub fn new(cells: &[Cell]) -> Result<Blocked, PawnError> {
        Blocked::new_with_scratch(cells, &mut Vec::new())
    }

    /// [`Blocked::new`] with `scratch` as the working space of its sort,
    /// as for [`crate::radix::sort_by_high_half`]: its contents are
    /// replaced, and keeping it between calls saves allocating (the
    /// `gridgame` judge keeps one for all its sorts).
    ///
    /// # Errors
    ///
    /// As [`Blocked::new`].
    pub fn new_with_scratch(cells: &[Cell], scratch: &mut Vec<u64>) -> Result<Blocked, PawnError> {
        let mut row_keys: Vec<u64> = cells.iter().map(|c| c.row_key()).collect();
        sort_keys(&mut row_keys, scratch);
        if row_keys.windows(2).any(|w| w[0] == w[1]) {
            return Err(first_duplicate(cells));
        }
        Ok(Blocked { row_keys })
    }

    /// How many cells.
    #[must_use]
    pub fn len(&self) -> usize {
        self.row_keys.len()
    }

    /// True when there is no impassable cell.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.row_keys.is_empty()
    }

    /// True when `cell` is impassable.
    #[must_use]
    pub fn contains(&self, cell: Cell) -> bool {
        self.row_keys.binary_search(&cell.row_key()).is_ok()
    }

    /// The cells, row by row, each row by increasing `x`.
    pub fn iter(&self) -> impl Iterator<Item = Cell> + '_ {
        self.row_keys
            .iter()
            .map(|&k| Cell::from_parts(k & 0xFFFF_FFFF, k >> 32))
    }

    /// The cells in rows `0..height` and columns `0..width`, row by row.
    pub fn within(&self, width: u32, height: u32) -> impl Iterator<Item = Cell> + '_ {
        let end = self
            .row_keys
            .partition_point(|&k| k >> 32 < u64::from(height));
        self.row_keys[..end]
            .iter()
            .map(|&k| Cell::from_parts(k & 0xFFFF_FFFF, k >> 32))
            .filter(move |c| c.x < width)
    }

    /// The row-major keys, strictly increasing.
    pub(crate) fn row_keys(&self) -> &[u64] {
        &self.row_keys
    }

    /// The column-major keys ([`Cell::column_key`]), strictly increasing.
    pub(crate) fn column_keys(&self) -> Vec<u64> {
        let mut keys: Vec<u64> = self.iter().map(Cell::column_key).collect();
        sort_keys(&mut keys, &mut Vec::new());
        keys
    }
}

/// Sorts `line << 32 | position` keys: a radix sort by line, then a sort of
/// each line's few positions (callgrind, 10^5 random cells: 8.8M
/// instructions against 15.1M for `sort_unstable`). `scratch` as for
/// [`crate::radix::sort_by_high_half`].
fn sort_keys(keys: &mut Vec<u64>, scratch: &mut Vec<u64>) {
    crate::radix::sort_by_high_half(keys, scratch);
    let mut i = 0;
    while i < keys.len() {
        let line = keys[i] >> 32;
        let mut j = i + 1;
        while j < keys.len() && keys[j] >> 32 == line {
            j += 1;
        }
        if j - i > 1 {
            keys[i..j].sort_unstable();
        }
        i = j;
    }
}

/// The first cell listed twice: the earliest second listing in input order,
/// with its first listing. Only called once a duplicate is known to exist.
fn first_duplicate(cells: &[Cell]) -> PawnError {
    let mut seen = std::collections::HashMap::with_capacity(cells.len());
    for (index, &cell) in cells.iter().enumerate() {
        if let Some(&first) = seen.get(&cell) {
            return PawnError::DuplicateBlocked {
                cell,
                first,
                second: index,
            };
        }
        seen.insert(cell, index);
    }
    unreachable!("first_duplicate is called only when a duplicate exists")
}
