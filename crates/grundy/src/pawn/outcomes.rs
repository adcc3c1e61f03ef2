//! Outcomes and winning moves of single pawns, online, at any coordinates:
//! the sweep of free columns that finds each segment's losing cell, its
//! O(N log N) build and O(log N) queries, and why a segment holds at most one
//! losing cell, are in [`crate::pawn`] ("Outcomes").

use super::{Blocked, Cell, CellKind, LosingLines, PawnError};
use crate::Outcome;

/// The winning moves of a pawn: a move to a losing cell. A row segment holds
/// at most one losing cell, and so does a column segment, so there are at
/// most two.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct WinningMoves {
    /// The losing cell before the pawn in its row segment, if any.
    pub along_row: Option<Cell>,
    /// The losing cell below the pawn in its column segment, if any.
    pub along_column: Option<Cell>,
}

impl WinningMoves {
    /// The moves, the one along the row first.
    pub fn iter(&self) -> impl Iterator<Item = Cell> {
        self.along_row.into_iter().chain(self.along_column)
    }

    /// How many (0, 1 or 2).
    #[must_use]
    pub fn len(&self) -> usize {
        usize::from(self.along_row.is_some()) + usize::from(self.along_column.is_some())
    }

    /// True when there is none: the pawn's cell is losing.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Every losing cell of a grid, by rows and by columns, for online queries
/// in O(log N): outcome, winning moves, legality of a move.
///
/// # Examples
///
/// ```
/// use grundy::pawn::{Blocked, Cell, Outcomes};
/// use grundy::Outcome;
/// let cell = |x, y| Cell::new(x, y).unwrap();
/// // The problem's sample.
/// let outcomes = Outcomes::new(&Blocked::new(&[cell(1, 1), cell(4, 2)]).unwrap());
/// assert_eq!(outcomes.outcome(cell(2, 2)).unwrap(), Outcome::FirstPlayerWins);
/// assert_eq!(outcomes.outcome(cell(1, 2)).unwrap(), Outcome::SecondPlayerWins);
/// let moves = outcomes.winning_moves(cell(2, 2)).unwrap();
/// assert!(moves.iter().all(|to| outcomes.is_legal_move(cell(2, 2), to)));
/// assert!(moves.iter().all(|to| outcomes.is_losing(to)));
/// assert!(outcomes.outcome(cell(1, 1)).is_err()); // impassable
/// ```
#[derive(Clone, Debug)]
pub struct Outcomes {
    rows: LosingLines,
    columns: LosingLines,
}

impl Outcomes {
    /// Sweeps the grid by rows and by columns: O(N log N).
    #[must_use]
    pub fn new(blocked: &Blocked) -> Outcomes {
        Outcomes {
            rows: LosingLines::rows(blocked),
            columns: LosingLines::columns(blocked),
        }
    }

    /// The losing cells by rows (enough for outcomes alone).
    #[must_use]
    pub fn rows(&self) -> &LosingLines {
        &self.rows
    }

    /// The losing cells by columns.
    #[must_use]
    pub fn columns(&self) -> &LosingLines {
        &self.columns
    }

    /// What `cell` is.
    #[must_use]
    pub fn classify(&self, cell: Cell) -> CellKind {
        self.rows.classify(cell.y(), cell.x())
    }

    /// True when `cell` is losing for the player to move (false when it is
    /// impassable).
    #[must_use]
    pub fn is_losing(&self, cell: Cell) -> bool {
        self.classify(cell) == CellKind::Losing
    }

    /// The winner with the pawn on `cell`.
    ///
    /// # Errors
    ///
    /// [`PawnError::OnBlocked`] when `cell` is impassable.
    pub fn outcome(&self, cell: Cell) -> Result<Outcome, PawnError> {
        match self.classify(cell) {
            CellKind::Blocked => Err(PawnError::OnBlocked(cell)),
            CellKind::Losing => Ok(Outcome::SecondPlayerWins),
            CellKind::Winning => Ok(Outcome::FirstPlayerWins),
        }
    }

    /// Every move from `cell` to a losing cell.
    ///
    /// # Errors
    ///
    /// [`PawnError::OnBlocked`] when `cell` is impassable.
    pub fn winning_moves(&self, cell: Cell) -> Result<WinningMoves, PawnError> {
        let (x, y) = (cell.x(), cell.y());
        let Some(along_row) = self.rows.probe(y, x) else {
            return Err(PawnError::OnBlocked(cell));
        };
        Ok(WinningMoves {
            along_row: along_row.map(|to| Cell::from_parts(to, u64::from(y))),
            along_column: self
                .columns
                .losing_before(x, y)
                .map(|to| Cell::from_parts(u64::from(x), to)),
        })
    }

    /// True when the pawn may move from `from` to `to`: same row or column,
    /// strictly closer to the origin, no impassable cell on the way or at
    /// `to`, and `from` itself not impassable.
    #[must_use]
    pub fn is_legal_move(&self, from: Cell, to: Cell) -> bool {
        if self.classify(from) == CellKind::Blocked {
            return false;
        }
        if from.y() == to.y() && to.x() < from.x() {
            u64::from(to.x()) >= self.rows.segment_start(from.y(), from.x())
        } else if from.x() == to.x() && to.y() < from.y() {
            u64::from(to.y()) >= self.columns.segment_start(from.x(), from.y())
        } else {
            false
        }
    }
}
