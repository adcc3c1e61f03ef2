//! The pawn game's report: per pawn its outcome alone and its value, the
//! total value of the sum, the winner and every winning move, as printed by
//! `grundy pawn --json` and answered by the web server; plus the value
//! every legal move leads to and the engine's move.
//!
//! One pawn anywhere up to 10^9 gets its outcome and winning moves from
//! [`Outcomes`] (online, no table); when every pawn lies below
//! [`MAX_REGION_SIDE`] on both axes a [`ValueTable`] covering them gives the
//! Grundy values, so sums of pawns work and every move's value is known.
//! Past that region a pawn with no impassable cell at or below-left of it
//! still has a value, `x xor y` ([`OpenQuadrants`]), so sums of such pawns
//! work at any size too.

use grundy::pawn::{
    Blocked, Cell, CellKind, OpenQuadrants, Outcomes, PawnError, PawnSum, ValueTable,
    MAX_REGION_SIDE,
};
use grundy::Nimber;
use serde::Serialize;

use crate::{spread, words, MoveValues, ValuedMove};

/// Why a set of pawns cannot be analysed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AnalysisError {
    /// A sum of pawns with one beyond the region of computable values (past
    /// the table, with an impassable cell at or below-left of it).
    #[error(
        "a sum of pawns needs Grundy values, which are computed for cells below \
         {MAX_REGION_SIDE} x {MAX_REGION_SIDE}, and beyond only for cells with no impassable \
         cell at or below-left of them (their value is x xor y); pawn {number} at {cell} is \
         beyond, with impassable cells below-left",
        number = .index + 1
    )]
    SumBeyondRegion {
        /// The pawn's index, 0-based (the message numbers pawns from 1).
        index: usize,
        /// Its cell.
        cell: Cell,
    },
    /// The engine refused a pawn or the region.
    #[error(transparent)]
    Pawn(#[from] PawnError),
}

/// A winning move: which pawn goes where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WinningMove {
    /// The pawn's index.
    pub pawn: usize,
    /// Where it goes.
    pub to: Cell,
    /// The moved pawn's value after the move, when values are known.
    pub after: Option<Nimber>,
}

/// What the engine found about some pawns on one grid of impassable cells.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// Per pawn: its outcome alone and its value when computed.
    pub pawns: Vec<(CellKind, Option<Nimber>)>,
    /// The total value, when every pawn's value is known.
    pub total: Option<Nimber>,
    /// True when the first player wins.
    pub first_wins: bool,
    /// Every winning move.
    pub moves: Vec<WinningMove>,
    /// The values covering every pawn, when they lie in the region.
    pub table: Option<ValueTable>,
    /// The pawns whose moves are not examined, so that `moves` may miss
    /// some: in a won sum settled without the values of the pawns that
    /// drop out of it ([`by_pairs`]), those pawns (a winning move of one
    /// would need its value). Empty otherwise.
    pub unexamined: Vec<usize>,
}

impl Analysis {
    /// One pawn's outcome and its moves to losing cells, with its value
    /// only on a losing cell (0): what a single pawn needs, at any size
    /// and for any walls ([`Outcomes`] sweeps only the impassable cells'
    /// lines).
    ///
    /// # Errors
    ///
    /// [`PawnError`] for a pawn on an impassable cell.
    pub fn outcome_only(outcomes: &Outcomes, pawn: Cell) -> Result<Analysis, PawnError> {
        let kind = outcomes.classify(pawn);
        let moves = outcomes.winning_moves(pawn)?;
        // A losing cell's value is 0 by definition; a winning one's needs
        // the values around it.
        let value = (kind == CellKind::Losing).then_some(Nimber::ZERO);
        Ok(Analysis {
            pawns: vec![(kind, value)],
            total: value,
            first_wins: kind == CellKind::Winning,
            moves: moves
                .iter()
                .map(|to| WinningMove {
                    pawn: 0,
                    to,
                    after: None,
                })
                .collect(),
            table: None,
            unexamined: Vec::new(),
        })
    }

    /// Analyses `pawns` (a sum when there are several). A sum with pawns
    /// out of reach of the values is settled when those pawns drop out
    /// ([`by_pairs`]: pawns sharing a cell cancel, a pawn on a losing cell
    /// has value 0): lost, or won with the winning moves of the pawns left,
    /// and the dropped pawns' moves unexamined ([`Paired::whole`]).
    ///
    /// # Errors
    ///
    /// [`AnalysisError::SumBeyondRegion`] for a sum with a pawn at
    /// [`MAX_REGION_SIDE`] or beyond that no such drop settles;
    /// [`AnalysisError::Pawn`] for a pawn on an impassable cell.
    pub fn of(
        blocked: &Blocked,
        outcomes: &Outcomes,
        pawns: &[Cell],
    ) -> Result<Analysis, AnalysisError> {
        match Analysis::of_all(blocked, outcomes, pawns) {
            Err(err @ AnalysisError::SumBeyondRegion { .. }) => {
                match by_pairs(outcomes, pawns, |left| {
                    Analysis::of_all(blocked, outcomes, left).ok()
                }) {
                    Some(paired) => {
                        let mut analysis = paired.whole(outcomes, pawns);
                        analysis.examine_in_region(blocked, pawns, None)?;
                        Ok(analysis)
                    }
                    None => Err(err),
                }
            }
            analysis => analysis,
        }
    }

    /// The analysis of pawns that all stand on open quadrants (no
    /// impassable cell at or below-left of any): each pawn's value is `x
    /// xor y` ([`OpenQuadrants`]) wherever it stands, with no table, so a
    /// caller whose budget refuses the table still has the values and
    /// every winning move. `None` when a pawn's quadrant is not open, or
    /// there is no pawn.
    #[must_use]
    pub fn on_open_quadrants(
        blocked: &Blocked,
        outcomes: &Outcomes,
        pawns: &[Cell],
    ) -> Option<Analysis> {
        let open = OpenQuadrants::new(blocked);
        if pawns.is_empty() || !pawns.iter().all(|&p| open.is_open(p)) {
            return None;
        }
        let values: Vec<Nimber> = pawns
            .iter()
            .map(|&p| open.value(p).expect("an open quadrant"))
            .collect();
        let moves_to = |pawn, target| Ok::<_, PawnError>(open.moves_to(pawn, target));
        Analysis::of_values(&kinds_of(outcomes, pawns), pawns, values, moves_to).ok()
    }

    /// The analysis of pawns of `kinds` whose every value is known
    /// (`values`), with no table: the total, and when it is not 0 every
    /// move to a cell that makes it 0, found by `moves_to(pawn, target)`.
    fn of_values(
        kinds: &[CellKind],
        pawns: &[Cell],
        values: Vec<Nimber>,
        mut moves_to: impl FnMut(Cell, Nimber) -> Result<Vec<Cell>, PawnError>,
    ) -> Result<Analysis, PawnError> {
        let total: Nimber = values.iter().copied().sum();
        let mut moves = Vec::new();
        if !total.is_zero() {
            for (index, (&pawn, &value)) in pawns.iter().zip(&values).enumerate() {
                let target = value ^ total;
                moves.extend(moves_to(pawn, target)?.into_iter().map(|to| WinningMove {
                    pawn: index,
                    to,
                    after: Some(target),
                }));
            }
        }
        Ok(Analysis {
            pawns: kinds
                .iter()
                .copied()
                .zip(values.into_iter().map(Some))
                .collect(),
            total: Some(total),
            first_wins: !total.is_zero(),
            moves,
            table: None,
            unexamined: Vec::new(),
        })
    }

    /// [`Analysis::of`] without pairing equal pawns: for a caller that
    /// pairs them itself ([`by_pairs`]), as the web's budgeted analysis
    /// does, so that a sum out of reach is paired once.
    pub fn of_all(
        blocked: &Blocked,
        outcomes: &Outcomes,
        pawns: &[Cell],
    ) -> Result<Analysis, AnalysisError> {
        let kinds = kinds_of(outcomes, pawns);
        let beyond = pawns
            .iter()
            .any(|p| p.x() >= MAX_REGION_SIDE || p.y() >= MAX_REGION_SIDE);
        if beyond {
            let closed = match Analysis::past_the_region(blocked, pawns, &kinds)? {
                Ok(analysis) => return Ok(analysis),
                Err(closed) => closed,
            };
            if pawns.len() > 1 {
                return Err(AnalysisError::SumBeyondRegion {
                    index: closed,
                    cell: pawns[closed],
                });
            }
            // One pawn far away: the outcome and the moves to losing cells.
            return Ok(Analysis::outcome_only(outcomes, pawns[0])?);
        }
        if pawns.is_empty() {
            return Ok(Analysis {
                pawns: Vec::new(),
                total: None,
                first_wins: false,
                moves: Vec::new(),
                table: None,
                unexamined: Vec::new(),
            });
        }
        let table = ValueTable::covering(blocked, pawns)?;
        let sum = PawnSum::new(&table, pawns)?;
        let moves = sum
            .winning_moves
            .iter()
            .map(|&(pawn, to)| WinningMove {
                pawn,
                to,
                after: table.value(to),
            })
            .collect();
        Ok(Analysis {
            pawns: kinds
                .into_iter()
                .zip(sum.values.iter().map(|&v| Some(v)))
                .collect(),
            total: Some(sum.total),
            first_wins: !sum.total.is_zero(),
            moves,
            table: Some(table),
            unexamined: Vec::new(),
        })
    }

    /// The pawns of `unexamined` that lie below [`MAX_REGION_SIDE`] (on a
    /// losing cell, or paired on a shared cell, beside a pawn out of
    /// reach): their values from a table covering them, and their winning
    /// moves added; those past the region stay unexamined. Nothing to do
    /// without a total, or when the table would hold more than `max_cells`
    /// cells (a server's budget).
    ///
    /// # Errors
    ///
    /// [`AnalysisError::Pawn`] for a pawn on an impassable cell.
    pub fn examine_in_region(
        &mut self,
        blocked: &Blocked,
        pawns: &[Cell],
        max_cells: Option<u64>,
    ) -> Result<(), AnalysisError> {
        let Some(total) = self.total else {
            return Ok(());
        };
        let inside: Vec<usize> = self
            .unexamined
            .iter()
            .copied()
            .filter(|&i| pawns[i].x() < MAX_REGION_SIDE && pawns[i].y() < MAX_REGION_SIDE)
            .collect();
        let width = inside.iter().map(|&i| u64::from(pawns[i].x()) + 1).max();
        let height = inside.iter().map(|&i| u64::from(pawns[i].y()) + 1).max();
        let needed = width.unwrap_or(0) * height.unwrap_or(0);
        if inside.is_empty() || max_cells.is_some_and(|max| needed > max) {
            return Ok(());
        }
        let cells: Vec<Cell> = inside.iter().map(|&i| pawns[i]).collect();
        let table = ValueTable::covering(blocked, &cells)?;
        for &i in &inside {
            let value = table
                .value(pawns[i])
                .ok_or(PawnError::OnBlocked(pawns[i]))?;
            self.pawns[i].1 = Some(value);
            let target = value ^ total;
            self.moves
                .extend(
                    table
                        .moves_to(pawns[i], target)?
                        .into_iter()
                        .map(|to| WinningMove {
                            pawn: i,
                            to,
                            after: Some(target),
                        }),
                );
        }
        self.moves.sort_by_key(|m| m.pawn);
        self.unexamined.retain(|i| !inside.contains(i));
        Ok(())
    }

    /// Pawns some of which lie past the region of [`ValueTable`]: their
    /// values are still known when each such pawn's lower-left quadrant
    /// is open ([`OpenQuadrants`]: `x xor y`), and those inside the region
    /// come from a table covering them. `Err` with the index of the first
    /// pawn past the region that has an impassable cell at or below-left
    /// of it. No table covers every pawn, so `table` is `None` (no
    /// per-move values, no play-out).
    fn past_the_region(
        blocked: &Blocked,
        pawns: &[Cell],
        kinds: &[CellKind],
    ) -> Result<Result<Analysis, usize>, AnalysisError> {
        let open = OpenQuadrants::new(blocked);
        let in_region = |p: &Cell| p.x() < MAX_REGION_SIDE && p.y() < MAX_REGION_SIDE;
        if let Some(closed) = pawns
            .iter()
            .position(|p| !in_region(p) && !open.is_open(*p))
        {
            return Ok(Err(closed));
        }
        let inside: Vec<Cell> = pawns.iter().copied().filter(in_region).collect();
        let table = if inside.is_empty() {
            None
        } else {
            Some(ValueTable::covering(blocked, &inside)?)
        };
        let mut values = Vec::with_capacity(pawns.len());
        for &pawn in pawns {
            let value = match (&table, in_region(&pawn)) {
                (Some(table), true) => table.value(pawn).ok_or(PawnError::OnBlocked(pawn))?,
                _ => open.value(pawn).expect("checked open"),
            };
            values.push(value);
        }
        let moves_to = |pawn, target| match (&table, in_region(&pawn)) {
            (Some(table), true) => table.moves_to(pawn, target),
            _ => Ok(open.moves_to(pawn, target)),
        };
        Ok(Ok(Analysis::of_values(kinds, pawns, values, moves_to)?))
    }

    /// A winning move of `pawns` as `grundy pawn` lists it: `<move>,
    /// leaving grundy 0`, then why: in a sum whose values are known, the
    /// moved pawn's change of value (`(pawn 2: grundy 3 -> 1)`), else `(to
    /// a losing cell)`, which is all a single pawn needs.
    #[must_use]
    pub fn winning_line(&self, pawns: &[Cell], m: &WinningMove) -> String {
        let several = pawns.len() > 1;
        let phrase = words::pawn_move(several.then_some(m.pawn), pawns[m.pawn], m.to);
        let why = match (self.pawns[m.pawn].1, m.after) {
            (Some(before), Some(after)) if several => words::change(
                &format!("pawn {}", m.pawn + 1),
                before.value(),
                after.value(),
            ),
            _ => "(to a losing cell)".to_owned(),
        };
        format!("{} {why}", words::leaving(&phrase, 0))
    }

    /// The JSON report of `grundy pawn --json`; `picture` is the drawn
    /// region, if any.
    #[must_use]
    pub fn report(&self, pawns: &[Cell], picture: Option<Vec<String>>) -> Report {
        Report {
            winner: (!pawns.is_empty()).then(|| crate::words::winner(self.first_wins)),
            grundy: self.total.map(Nimber::value),
            winning_moves: self
                .moves
                .iter()
                .map(|mv| crate::Lined {
                    mv: MoveReport {
                        pawn: mv.pawn,
                        x: mv.to.x(),
                        y: mv.to.y(),
                    },
                    text: self.winning_line(pawns, mv),
                })
                .collect(),
            winning_moves_complete: self.unexamined.is_empty(),
            pawns: pawns
                .iter()
                .zip(&self.pawns)
                .map(|(&pawn, &(kind, value))| PawnReport {
                    x: pawn.x(),
                    y: pawn.y(),
                    losing: kind == CellKind::Losing,
                    grundy: value.map(Nimber::value),
                })
                .collect(),
            picture,
        }
    }
}

/// One move of a play-out ([`play_out`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The pawn moved (0-based).
    pub pawn: usize,
    /// Where it was.
    pub from: Cell,
    /// Where it went.
    pub to: Cell,
    /// The total value after the move.
    pub total_after: Nimber,
}

/// Plays the pawns out with the values of `table` (which covers them): the
/// player facing a non-zero total plays the first winning move (as listed
/// by the analysis: pawn by pawn, left along the row then down the column,
/// nearest first); the player facing zero plays the first move leaving the
/// largest total, the hardest to answer by hand, as the web engine does.
/// Every move lowers a pawn's `x + y`, so the play-out ends. `stop` is
/// asked before each move (a caller's Ctrl-C: it may unwind).
///
/// # Errors
///
/// [`PawnError`] when a pawn lies outside `table` or on an impassable cell.
pub fn play_out(
    table: &ValueTable,
    start: &[Cell],
    mut stop: impl FnMut(),
) -> Result<Vec<Step>, PawnError> {
    let mut pawns = start.to_vec();
    let mut steps = Vec::new();
    loop {
        stop();
        let values: Vec<Nimber> = pawns
            .iter()
            .map(|&p| {
                table.value(p).ok_or_else(|| {
                    // The table's own error for the cell: outside it, or
                    // impassable.
                    table
                        .for_each_move(p, |_, _| {})
                        .err()
                        .unwrap_or(PawnError::OnBlocked(p))
                })
            })
            .collect::<Result<_, _>>()?;
        let total: Nimber = values.iter().copied().sum();
        let mut chosen: Option<Step> = None;
        for (index, &from) in pawns.iter().enumerate() {
            table.for_each_move(from, |to, value| {
                let total_after = total ^ values[index] ^ value;
                let better = match &chosen {
                    None => true,
                    Some(best) if total.is_zero() => total_after > best.total_after,
                    Some(best) => !best.total_after.is_zero() && total_after.is_zero(),
                };
                if better {
                    chosen = Some(Step {
                        pawn: index,
                        from,
                        to,
                        total_after,
                    });
                }
            })?;
        }
        let Some(step) = chosen else {
            return Ok(steps);
        };
        pawns[step.pawn] = step.to;
        steps.push(step);
    }
}

/// What dropping the pawns of a sum that need no value settles
/// ([`by_pairs`]).
#[derive(Clone, Debug)]
pub enum Paired {
    /// The pawns left lose: so does the whole sum. Its analysis: no winning
    /// move, the pawns on losing cells of value 0, the paired pawns' values
    /// unknown unless the others' analysis gave them, no table.
    Lost(Analysis),
    /// The pawns left win: `left` (indices into the whole sum) with their
    /// own analysis, whose winning moves win the whole sum too (the whole
    /// sum has more, moves of the dropped pawns, which need their values).
    Won {
        /// The pawns left, as indices into the whole sum.
        left: Vec<usize>,
        /// Their analysis, indices into `left`.
        analysis: Analysis,
        /// Why the others dropped out.
        dropped: Dropped,
    },
}

impl Paired {
    /// The analysis of the whole sum of `pawns` (those [`by_pairs`] was
    /// given): each pawn's value where known (0 on a losing cell, the
    /// analysis's for the pawns left, unknown for a pawn paired off), and
    /// for a won sum the winning moves of the pawns left, which win the
    /// whole sum too, and the dropped pawns' moves unexamined (a winning one
    /// would need its pawn's value).
    #[must_use]
    pub fn whole(self, outcomes: &Outcomes, pawns: &[Cell]) -> Analysis {
        match self {
            Paired::Lost(analysis) => analysis,
            Paired::Won { left, analysis, .. } => {
                let kinds = kinds_of(outcomes, pawns);
                let values = values_of_whole(&kinds, &left, &analysis);
                Analysis {
                    pawns: kinds.into_iter().zip(values).collect(),
                    total: analysis.total,
                    first_wins: true,
                    moves: analysis
                        .moves
                        .iter()
                        .map(|m| WinningMove {
                            pawn: left[m.pawn],
                            ..*m
                        })
                        .collect(),
                    table: None,
                    unexamined: (0..pawns.len()).filter(|i| !left.contains(i)).collect(),
                }
            }
        }
    }
}

/// Each pawn's outcome alone.
fn kinds_of(outcomes: &Outcomes, pawns: &[Cell]) -> Vec<CellKind> {
    pawns.iter().map(|&pawn| outcomes.classify(pawn)).collect()
}

/// Each pawn's value in a sum of pawns of `kinds` whose pawns `left` (indices
/// into the sum) have `analysis`: 0 on a losing cell, the analysis's for
/// a pawn left, unknown for the others (paired off).
fn values_of_whole(kinds: &[CellKind], left: &[usize], analysis: &Analysis) -> Vec<Option<Nimber>> {
    let mut values: Vec<Option<Nimber>> = kinds
        .iter()
        .map(|&kind| (kind == CellKind::Losing).then_some(Nimber::ZERO))
        .collect();
    for (&i, &(_, value)) in left.iter().zip(&analysis.pawns) {
        values[i] = value;
    }
    values
}

/// Why pawns of a sum drop out of it without their values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Dropped {
    /// Some share a cell: a pawn's game added to itself has value 0.
    pub pairs: bool,
    /// Some stand on losing cells, whose value is 0 by definition.
    pub losing: bool,
}

impl Dropped {
    /// Why, in words: `the pawns that share a cell cancel in pairs`, ...
    #[must_use]
    pub fn words(self) -> &'static str {
        match (self.pairs, self.losing) {
            (true, true) => {
                "the pawns that share a cell cancel in pairs and those on losing cells have value 0"
            }
            (true, false) => "the pawns that share a cell cancel in pairs",
            (false, true) => "the pawns on losing cells have value 0",
            (false, false) => "no pawn drops out",
        }
    }
}

/// The pawns left when those sharing a cell are paired off, as indices in
/// order (one pawn of each cell that an odd number of pawns hold); `None`
/// when no two pawns share a cell. A pawn's game added to itself has value
/// 0, so a pair changes neither the sum's value nor who wins.
#[must_use]
pub fn unpaired(pawns: &[Cell]) -> Option<Vec<usize>> {
    let mut count = std::collections::HashMap::new();
    for &pawn in pawns {
        *count.entry(pawn).or_insert(0usize) += 1;
    }
    if count.len() == pawns.len() {
        return None;
    }
    let mut kept = std::collections::HashSet::new();
    Some(
        (0..pawns.len())
            .filter(|&i| count[&pawns[i]] % 2 == 1 && kept.insert(pawns[i]))
            .collect(),
    )
}

/// The pawns of a sum left when those that need no value drop out: those
/// sharing a cell paired off ([`unpaired`]), and those on losing cells
/// (value 0 whatever the walls, so they change neither the value nor who
/// wins); `None` when none drops out.
#[must_use]
pub fn left_of_sum(outcomes: &Outcomes, pawns: &[Cell]) -> Option<(Vec<usize>, Dropped)> {
    let paired = unpaired(pawns);
    let pairs = paired.is_some();
    let mut left = paired.unwrap_or_else(|| (0..pawns.len()).collect());
    let before = left.len();
    left.retain(|&i| outcomes.classify(pawns[i]) != CellKind::Losing);
    let losing = left.len() < before;
    (pairs || losing).then_some((left, Dropped { pairs, losing }))
}

/// Settles a sum of `pawns` whose values are out of reach when the pawns
/// that need no value drop out ([`left_of_sum`]: those sharing a cell,
/// those on losing cells) and the others are in reach: `analyse` analyses
/// the pawns left (`None` when it cannot). `None` when no pawn drops out,
/// or the pawns left cannot be settled: neither their total nor, for one
/// pawn, its outcome known.
pub fn by_pairs(
    outcomes: &Outcomes,
    pawns: &[Cell],
    analyse: impl FnOnce(&[Cell]) -> Option<Analysis>,
) -> Option<Paired> {
    let (left, dropped) = left_of_sum(outcomes, pawns)?;
    let cells: Vec<Cell> = left.iter().map(|&i| pawns[i]).collect();
    let analysis = if cells.is_empty() {
        Analysis {
            pawns: Vec::new(),
            total: Some(Nimber::ZERO),
            first_wins: false,
            moves: Vec::new(),
            table: None,
            unexamined: Vec::new(),
        }
    } else {
        analyse(&cells)?
    };
    // Without a total, only one pawn's outcome alone settles it.
    if analysis.total.is_none() && cells.len() != 1 {
        return None;
    }
    if analysis.first_wins {
        return Some(Paired::Won {
            left,
            analysis,
            dropped,
        });
    }
    let kinds = kinds_of(outcomes, pawns);
    let values = values_of_whole(&kinds, &left, &analysis);
    Some(Paired::Lost(Analysis {
        pawns: kinds.into_iter().zip(values).collect(),
        total: analysis.total,
        first_wins: false,
        moves: Vec::new(),
        table: None,
        unexamined: Vec::new(),
    }))
}

/// The engine's proven move on a sum that [`by_pairs`] found won: the
/// pawns left's winning move, in the whole sum's numbering.
///
/// # Errors
///
/// As [`engine_move`].
pub fn won_by_pairs_report(
    outcomes: &Outcomes,
    pawns: &[Cell],
    left: &[usize],
    analysis: &Analysis,
    dropped: Dropped,
) -> Result<Option<EngineMoveReport>, PawnError> {
    let cells: Vec<Cell> = left.iter().map(|&i| pawns[i]).collect();
    let Some(report) = engine_report_of(analysis, outcomes, &cells)? else {
        return Ok(None);
    };
    let mv = MoveReport {
        pawn: left[report.mv.pawn],
        ..report.mv
    };
    let why = report
        .reason
        .strip_prefix("proven winning: ")
        .unwrap_or(&report.reason);
    Ok(Some(EngineMoveReport {
        text: move_text(pawns, &mv),
        mv,
        proven: true,
        kind: report.kind,
        grundy: report.grundy,
        reason: format!(
            "proven winning: {}, and of the others {why}",
            dropped.words()
        ),
    }))
}

/// The JSON of `grundy pawn --json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Report {
    /// `"first"` or `"second"`; absent with no pawn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<&'static str>,
    /// The total value, when computed (`null` when not).
    pub grundy: Option<u32>,
    /// Every winning move, or some when `winning_moves_complete` is false,
    /// each with its line ([`Analysis::winning_line`]).
    pub winning_moves: Vec<crate::Lined<MoveReport>>,
    /// Present, and false, when `winning_moves` may miss some
    /// ([`Analysis::unexamined`]).
    #[serde(skip_serializing_if = "is_true")]
    pub winning_moves_complete: bool,
    /// The pawns.
    pub pawns: Vec<PawnReport>,
    /// The drawn region, top row first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub picture: Option<Vec<String>>,
}

fn is_true(value: &bool) -> bool {
    *value
}

/// A move: pawn `pawn` goes to `(x, y)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct MoveReport {
    /// The pawn's index, 0-based.
    pub pawn: usize,
    /// Its `x` after the move (along the row, from the origin).
    pub x: u32,
    /// Its `y` after the move (up the column, from the origin).
    pub y: u32,
}

/// One pawn of the report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PawnReport {
    /// `x`, along the row from the origin.
    pub x: u32,
    /// `y`, up the column from the origin.
    pub y: u32,
    /// True when this pawn's cell alone is a second-player win.
    pub losing: bool,
    /// Its value, when computed (`null` when not).
    pub grundy: Option<u32>,
}

/// The total value reached by every legal move of `pawns`, or by `limit`
/// of them spread evenly when there are more. `None` when the analysis has
/// no values (one pawn beyond the region).
///
/// # Errors
///
/// [`PawnError`] when a pawn is off the table or on an impassable cell.
pub fn move_values(
    analysis: &Analysis,
    pawns: &[Cell],
    limit: usize,
) -> Result<Option<MoveValues<MoveReport>>, PawnError> {
    let (Some(table), Some(total)) = (&analysis.table, analysis.total) else {
        return Ok(None);
    };
    let mut all = Vec::new();
    for (index, &pawn) in pawns.iter().enumerate() {
        let before = table.value(pawn).ok_or(PawnError::OnBlocked(pawn))?;
        table.for_each_move(pawn, |to, value| {
            all.push((index, to, (total ^ before ^ value).value()));
        })?;
    }
    let moves_total = all.len();
    let several = pawns.len() > 1;
    let moves = spread(all, limit)
        .into_iter()
        .map(|(index, to, grundy)| {
            let mv = MoveReport {
                pawn: index,
                x: to.x(),
                y: to.y(),
            };
            let phrase = words::pawn_move(several.then_some(index), pawns[index], to);
            ValuedMove::new(mv, &phrase, grundy)
        })
        .collect();
    Ok(Some(MoveValues::new(moves, moves_total)))
}

/// The engine's move: the first winning move when there is one; else, with
/// values, the move leaving the largest total (the hardest to answer by
/// hand), and without values a one-step move. `None` when no pawn can move.
/// The second field is the total after the move, when values are known.
///
/// # Errors
///
/// As [`move_values`].
pub fn engine_move(
    analysis: &Analysis,
    outcomes: &Outcomes,
    pawns: &[Cell],
) -> Result<Option<(MoveReport, Option<Nimber>)>, PawnError> {
    if let Some(first) = analysis.moves.first() {
        let report = MoveReport {
            pawn: first.pawn,
            x: first.to.x(),
            y: first.to.y(),
        };
        return Ok(Some((report, analysis.total.map(|_| Nimber::ZERO))));
    }
    if let Some(values) = move_values(analysis, pawns, usize::MAX)? {
        // First of the largest: max_by_key keeps the last maximum, so
        // compare reversed indices.
        return Ok(values
            .moves
            .iter()
            .enumerate()
            .max_by_key(|&(i, m)| (m.grundy, std::cmp::Reverse(i)))
            .map(|(_, m)| (m.mv, Some(Nimber::new(m.grundy)))));
    }
    for (index, &pawn) in pawns.iter().enumerate() {
        let steps = [
            (pawn.x() > 0).then(|| (u64::from(pawn.x()) - 1, u64::from(pawn.y()))),
            (pawn.y() > 0).then(|| (u64::from(pawn.x()), u64::from(pawn.y()) - 1)),
        ];
        for (x, y) in steps.into_iter().flatten() {
            let to = Cell::new(x, y)?;
            if outcomes.is_legal_move(pawn, to) {
                let report = MoveReport {
                    pawn: index,
                    x: to.x(),
                    y: to.y(),
                };
                return Ok(Some((report, None)));
            }
        }
    }
    Ok(None)
}

/// A move in words: `move pawn (6,5) -> (4,5)`, naming the pawn (from 1)
/// when there are several.
fn move_text(pawns: &[Cell], mv: &MoveReport) -> String {
    let to = Cell::new(u64::from(mv.x), u64::from(mv.y)).expect("a move lands on the grid");
    words::pawn_move((pawns.len() > 1).then_some(mv.pawn), pawns[mv.pawn], to)
}

/// The engine's move as `grundy pawn --move` says it: `{"move": {"pawn",
/// "x", "y"}, "proven", "kind", "reason", "text"}`.
pub type EngineMoveReport = crate::EngineMove<MoveReport>;

/// The engine's move on `pawns` (`None` when no pawn can move), always:
/// with values or outcomes, [`engine_move`]'s, proven; for a sum with a
/// pawn past the values ([`AnalysisError::SumBeyondRegion`]), a guess: the
/// first pawn that wins alone moved to a losing cell (its own game then
/// lost, which wins when the others cancel), else a one-step move.
///
/// # Errors
///
/// [`PawnError`] for a pawn on an impassable cell.
pub fn engine_report(
    blocked: &Blocked,
    outcomes: &Outcomes,
    pawns: &[Cell],
) -> Result<Option<EngineMoveReport>, PawnError> {
    match Analysis::of_all(blocked, outcomes, pawns) {
        Ok(analysis) => engine_report_of(&analysis, outcomes, pawns),
        Err(AnalysisError::SumBeyondRegion { index: closed, .. }) => {
            match by_pairs(outcomes, pawns, |left| {
                Analysis::of_all(blocked, outcomes, left).ok()
            }) {
                Some(Paired::Won {
                    left,
                    analysis,
                    dropped,
                }) => won_by_pairs_report(outcomes, pawns, &left, &analysis, dropped),
                Some(lost) => engine_report_of(&lost.whole(outcomes, pawns), outcomes, pawns),
                None => guess_report(
                    outcomes,
                    pawns,
                    format!(
                        "unproven: a sum needs every pawn's value, and pawn {} lies past {MAX_REGION_SIDE} x {MAX_REGION_SIDE} with impassable cells below-left; best guess: a pawn that wins alone moved to a losing cell",
                        closed + 1
                    ),
                ),
            }
        }
        Err(AnalysisError::Pawn(err)) => Err(err),
    }
}

/// The engine's guess on a sum of `pawns` whose values are out of reach
/// (`reason` says why, and what the guess is): the first pawn that wins
/// alone moved to a losing cell (its own game then lost, which wins when
/// the others cancel), else a one-step move; `None` when no pawn can move.
///
/// # Errors
///
/// [`PawnError`] for a pawn on an impassable cell.
pub fn guess_report(
    outcomes: &Outcomes,
    pawns: &[Cell],
    reason: String,
) -> Result<Option<EngineMoveReport>, PawnError> {
    let mut guess = None;
    for (index, &pawn) in pawns.iter().enumerate() {
        if let Some(to) = outcomes.winning_moves(pawn)?.iter().next() {
            guess = Some(MoveReport {
                pawn: index,
                x: to.x(),
                y: to.y(),
            });
            break;
        }
    }
    if guess.is_none() {
        let empty = Analysis {
            pawns: Vec::new(),
            total: None,
            first_wins: false,
            moves: Vec::new(),
            table: None,
            unexamined: Vec::new(),
        };
        guess = engine_move(&empty, outcomes, pawns)?.map(|(mv, _)| mv);
    }
    Ok(guess.map(|mv| EngineMoveReport {
        text: move_text(pawns, &mv),
        mv,
        proven: false,
        kind: "unproven",
        grundy: None,
        reason,
    }))
}

/// [`engine_report`] from an analysis already made (by a front-end that
/// bounds its table first): the move [`engine_move`] chooses, proven.
///
/// # Errors
///
/// As [`engine_move`].
pub fn engine_report_of(
    analysis: &Analysis,
    outcomes: &Outcomes,
    pawns: &[Cell],
) -> Result<Option<EngineMoveReport>, PawnError> {
    let Some((mv, after)) = engine_move(analysis, outcomes, pawns)? else {
        return Ok(None);
    };
    let (kind, grundy, reason) = if analysis.first_wins {
        let reason = match (analysis.total, analysis.moves.first()) {
            (Some(total), Some(first)) => {
                let before = analysis.pawns[first.pawn].1.unwrap_or(Nimber::ZERO);
                format!(
                            "proven winning: the total is {total}; this pawn goes from {before} to {}, so the total becomes 0",
                            before ^ total
                        )
            }
            _ => "proven winning: it moves to a losing cell (one with no move to a losing cell)"
                .to_owned(),
        };
        ("winning", Some(0), reason)
    } else {
        let reason = match after {
                    Some(left) => format!(
                        "losing position: the total is 0, so every move loses; this one leaves {left}, the largest total a move leaves (chosen as likely the hardest to answer)"
                    ),
                    None if analysis.total.is_some() || pawns.len() > 1 => "losing position: the total is 0, so every move loses; this one moves a single step".to_owned(),
                    None => "losing position: a losing cell, so every move loses; this one moves a single step".to_owned(),
                };
        ("losing", after.map(Nimber::value), reason)
    };
    Ok(Some(EngineMoveReport {
        text: move_text(pawns, &mv),
        mv,
        proven: true,
        kind,
        grundy,
        reason,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A winning line reads as `grundy pawn` lists it: a single pawn's
    /// move goes to a losing cell (near or past the region of values); a
    /// sum's names the pawn's change of value.
    #[test]
    fn winning_lines_read_as_the_command_line_prints_them() {
        let cell = |x, y| Cell::new(x, y).unwrap();
        let blocked = Blocked::new(&[cell(1, 1), cell(4, 2)]).unwrap();
        let outcomes = Outcomes::new(&blocked);
        for (pawn, line) in [
            (
                cell(2, 2),
                "move pawn (2,2) -> (1,2), leaving grundy 0 (to a losing cell)",
            ),
            (
                cell(5000, 3),
                "move pawn (5000,3) -> (3,3), leaving grundy 0 (to a losing cell)",
            ),
        ] {
            let analysis = Analysis::of(&blocked, &outcomes, &[pawn]).unwrap();
            let lines: Vec<String> = analysis
                .moves
                .iter()
                .map(|m| analysis.winning_line(&[pawn], m))
                .collect();
            assert!(lines.iter().any(|l| l == line), "{lines:?}");
        }
        let pawns = [cell(2, 2), cell(3, 0)];
        let analysis = Analysis::of(&blocked, &outcomes, &pawns).unwrap();
        let line = analysis.winning_line(&pawns, &analysis.moves[0]);
        assert!(line.starts_with("move pawn "), "{line}");
        assert!(line.contains(", leaving grundy 0 (pawn "), "{line}");
    }

    /// Plain mex recursion over the pawn's moves (brute force).
    fn brute(blocked: &[(u32, u32)], x: u32, y: u32) -> u32 {
        let free = |a: u32, b: u32| !blocked.contains(&(a, b));
        let mut seen = Vec::new();
        for to in (0..x).rev() {
            if !free(to, y) {
                break;
            }
            seen.push(brute(blocked, to, y));
        }
        for to in (0..y).rev() {
            if !free(x, to) {
                break;
            }
            seen.push(brute(blocked, x, to));
        }
        (0..).find(|v| !seen.contains(v)).expect("a mex exists")
    }

    /// The cells a pawn at `(x, y)` moves to: left along its row, then
    /// down its column, each up to the first wall.
    fn brute_moves(walls: &[(u32, u32)], (x, y): (u32, u32)) -> Vec<(u32, u32)> {
        let mut targets = Vec::new();
        for to in (0..x).rev() {
            if walls.contains(&(to, y)) {
                break;
            }
            targets.push((to, y));
        }
        for to in (0..y).rev() {
            if walls.contains(&(x, to)) {
                break;
            }
            targets.push((x, to));
        }
        targets
    }

    /// The cell `(x, y)` of small coordinates.
    fn small_cell((x, y): (u32, u32)) -> Cell {
        Cell::new(u64::from(x), u64::from(y)).unwrap()
    }

    /// The impassable cells `walls`, and the outcomes of their grid.
    fn walled(walls: &[(u32, u32)]) -> (Blocked, Outcomes) {
        let cells: Vec<Cell> = walls.iter().map(|&w| small_cell(w)).collect();
        let blocked = Blocked::new(&cells).unwrap();
        let outcomes = Outcomes::new(&blocked);
        (blocked, outcomes)
    }

    /// The engine's move on a sum whose pawns in reach total `total` (not
    /// 0) is proven winning, legal, and leaves a total of 0 by the brute
    /// force.
    fn proven_win(
        outcomes: &Outcomes,
        walls: &[(u32, u32)],
        cells: &[Cell],
        total: u32,
        report: &EngineMoveReport,
    ) -> Result<(), proptest::test_runner::TestCaseError> {
        prop_assert!(report.proven);
        prop_assert_eq!(report.kind, "winning");
        let from = cells[report.mv.pawn];
        let to = Cell::new(u64::from(report.mv.x), u64::from(report.mv.y)).unwrap();
        prop_assert!(outcomes.is_legal_move(from, to));
        let before = brute(walls, from.x(), from.y());
        prop_assert_eq!(total ^ before ^ brute(walls, to.x(), to.y()), 0);
        Ok(())
    }

    /// The analysis of a won sum with pawns dropped out (`total`, not 0,
    /// by the brute force over the pawns in reach): its total, and for
    /// every pawn not dropped exactly the brute force's winning moves; the
    /// dropped pawns' moves unexamined, none listed; the explanation's
    /// arithmetic of each move ends in 0.
    fn partial_win(
        walls: &[(u32, u32)],
        cells: &[Cell],
        total: u32,
        analysis: &Analysis,
    ) -> Result<(), proptest::test_runner::TestCaseError> {
        prop_assert!(analysis.first_wins);
        prop_assert_eq!(analysis.total, Some(Nimber::new(total)));
        prop_assert!(!analysis.unexamined.is_empty());
        prop_assert!(!analysis.report(cells, None).winning_moves_complete);
        // Only pawns past the values' region go unexamined: a dropped pawn
        // below it has its value and its moves.
        for &i in &analysis.unexamined {
            prop_assert!(cells[i].x() >= MAX_REGION_SIDE || cells[i].y() >= MAX_REGION_SIDE);
        }
        for (index, &at) in cells.iter().enumerate() {
            let mut listed: Vec<Cell> = analysis
                .moves
                .iter()
                .filter(|m| m.pawn == index)
                .map(|m| m.to)
                .collect();
            if analysis.unexamined.contains(&index) {
                prop_assert!(listed.is_empty());
                continue;
            }
            let (x, y) = (at.x(), at.y());
            let before = brute(walls, x, y);
            prop_assert_eq!(analysis.pawns[index].1, Some(Nimber::new(before)));
            let mut winning: Vec<Cell> = brute_moves(walls, (x, y))
                .into_iter()
                .filter(|&(tx, ty)| total ^ before ^ brute(walls, tx, ty) == 0)
                .map(small_cell)
                .collect();
            listed.sort_unstable();
            winning.sort_unstable();
            prop_assert_eq!(listed, winning);
        }
        let walled: Vec<Cell> = walls
            .iter()
            .map(|&(x, y)| Cell::new(u64::from(x), u64::from(y)).unwrap())
            .collect();
        let explanation =
            crate::explain::pawn(analysis, cells, &Blocked::new(&walled).unwrap()).unwrap();
        prop_assert_eq!(explanation.winning.len(), analysis.moves.len());
        for line in &explanation.winning {
            prop_assert!(line.ends_with(" = 0") || !line.contains("xor"), "{}", line);
        }
        Ok(())
    }

    proptest! {
        /// Move values equal the brute-force total after the move; the
        /// winning moves are exactly those reaching 0; the engine's move is
        /// legal and winning whenever the position is.
        #[test]
        fn moves_match_brute_force(
            walls in proptest::collection::btree_set((0u32..6, 0u32..6), 0..10),
            pawns in proptest::collection::vec((0u32..6, 0u32..6), 1..3),
        ) {
            let walls: Vec<(u32, u32)> = walls.into_iter().filter(|w| !pawns.contains(w)).collect();
            let cell = |(x, y): (u32, u32)| Cell::new(u64::from(x), u64::from(y)).unwrap();
            let blocked = Blocked::new(&walls.iter().map(|&w| cell(w)).collect::<Vec<_>>()).unwrap();
            let cells: Vec<Cell> = pawns.iter().map(|&p| cell(p)).collect();
            let outcomes = Outcomes::new(&blocked);
            let analysis = Analysis::of(&blocked, &outcomes, &cells).unwrap();
            let values: Vec<u32> = pawns.iter().map(|&(x, y)| brute(&walls, x, y)).collect();
            let total = values.iter().fold(0, |a, v| a ^ v);
            prop_assert_eq!(analysis.total, Some(Nimber::new(total)));
            let listed = move_values(&analysis, &cells, usize::MAX).unwrap().unwrap();
            let mut count = 0;
            for (index, &(x, y)) in pawns.iter().enumerate() {
                for (tx, ty) in brute_moves(&walls, (x, y)) {
                    let reached = total ^ values[index] ^ brute(&walls, tx, ty);
                    let found = listed.moves.iter().find(|m| m.mv.pawn == index && m.mv.x == tx && m.mv.y == ty);
                    prop_assert_eq!(found.map(|m| m.grundy), Some(reached));
                    let winning = analysis.moves.iter().any(|m| m.pawn == index && m.to == cell((tx, ty)));
                    prop_assert_eq!(winning, reached == 0);
                    count += 1;
                }
            }
            prop_assert_eq!(listed.moves_total, count);
            match engine_move(&analysis, &outcomes, &cells).unwrap() {
                None => prop_assert_eq!(count, 0),
                Some((mv, after)) => {
                    let from = cells[mv.pawn];
                    prop_assert!(outcomes.is_legal_move(from, cell((mv.x, mv.y))));
                    prop_assert_eq!(after.map(Nimber::is_zero), Some(total != 0));
                }
            }
        }

        /// Pawns on losing cells past the values' region drop out of a sum
        /// (value 0 whatever the walls): with the others lost, the sum is;
        /// with them won, the engine's winning move is theirs, proven.
        #[test]
        fn pawns_on_losing_cells_past_the_region_drop_out(
            walls in proptest::collection::btree_set((0u32..6, 0u32..6), 1..10),
            pawns in proptest::collection::vec((0u32..6, 0u32..6), 0..3),
            far_rows in proptest::collection::btree_set(5000u64..5020, 1..3),
        ) {
            let walls: Vec<(u32, u32)> = walls.into_iter().filter(|w| !pawns.contains(w)).collect();
            prop_assume!(!walls.is_empty());
            let cell = small_cell;
            let (blocked, outcomes) = walled(&walls);
            // A far row's losing cell: where a pawn far right of it moves
            // along the row to win.
            let mut cells: Vec<Cell> = pawns.iter().map(|&p| cell(p)).collect();
            for (i, &y) in far_rows.iter().enumerate() {
                let from = Cell::new(9000, y).unwrap();
                let to = outcomes.winning_moves(from).unwrap().iter().find(|to| u64::from(to.y()) == y);
                let to = to.expect("a row with no wall at or past x 9000 has a losing cell");
                prop_assert_eq!(outcomes.classify(to), CellKind::Losing);
                cells.insert(i.min(cells.len()), to);
            }
            let total = pawns.iter().fold(0, |a, &(x, y)| a ^ brute(&walls, x, y));
            let analysis = Analysis::of(&blocked, &outcomes, &cells);
            let report = engine_report(&blocked, &outcomes, &cells).unwrap();
            if total == 0 {
                let analysis = analysis.unwrap();
                prop_assert!(!analysis.first_wins);
                prop_assert!(analysis.moves.is_empty());
                prop_assert_eq!(analysis.total, Some(Nimber::ZERO));
                for (&at, &(kind, value)) in cells.iter().zip(&analysis.pawns) {
                    if at.x() >= 5000 {
                        prop_assert_eq!((kind, value), (CellKind::Losing, Some(Nimber::ZERO)));
                    }
                }
                if let Some(report) = report {
                    prop_assert!(report.proven);
                    prop_assert_eq!(report.kind, "losing");
                }
            } else {
                partial_win(&walls, &cells, total, &analysis.unwrap())?;
                let report = report.unwrap();
                prop_assert!(report.reason.contains("losing cells have value 0"), "{}", report.reason);
                proven_win(&outcomes, &walls, &cells, total, &report)?;
            }
        }

        /// Pawns past the values' region, each with a wall below-left (so
        /// no value), in pairs on one cell, beside pawns the brute force
        /// values: the sum is settled by the others alone. Lost when their
        /// total is 0 (no winning move); else the engine's move is proven
        /// and takes one of them to a cell whose brute-force value makes
        /// the total 0.
        #[test]
        fn pawns_sharing_a_cell_cancel_in_pairs(
            walls in proptest::collection::btree_set((0u32..6, 0u32..6), 1..10),
            pawns in proptest::collection::vec((0u32..6, 0u32..6), 0..3),
            far in proptest::collection::vec((5000u32..5003, 5000u32..5003), 1..3),
        ) {
            let walls: Vec<(u32, u32)> = walls.into_iter().filter(|w| !pawns.contains(w)).collect();
            prop_assume!(!walls.is_empty());
            let cell = small_cell;
            let (blocked, outcomes) = walled(&walls);
            // Each far pawn twice, the pairs between the others.
            let mut cells: Vec<Cell> = pawns.iter().map(|&p| cell(p)).collect();
            for (i, &f) in far.iter().enumerate() {
                cells.insert(i.min(cells.len()), cell(f));
                cells.push(cell(f));
            }
            // The others pair off too where they share a cell; the brute
            // force values all of them, pairs included.
            let total = pawns.iter().fold(0, |a, &(x, y)| a ^ brute(&walls, x, y));
            let analysis = Analysis::of(&blocked, &outcomes, &cells);
            let report = engine_report(&blocked, &outcomes, &cells).unwrap();
            if total == 0 {
                let analysis = analysis.unwrap();
                prop_assert!(!analysis.first_wins);
                prop_assert!(analysis.moves.is_empty());
                // The explanation says why the unvalued pawns drop out, and
                // never that nothing is left to play.
                let why = crate::explain::pawn(&analysis, &cells, &blocked).unwrap().value;
                // Paired pawns on losing cells are valued (0), the others not.
                if analysis.pawns.iter().any(|&(_, v)| v.is_none()) {
                    prop_assert!(why.contains("a pair cancels"), "{}", why);
                }
                prop_assert!(!why.contains("nothing is left"), "{}", why);
                if let Some(report) = report {
                    prop_assert!(report.proven);
                    prop_assert_eq!(report.kind, "losing");
                }
            } else {
                partial_win(&walls, &cells, total, &analysis.unwrap())?;
                proven_win(&outcomes, &walls, &cells, total, &report.unwrap())?;
            }
        }
    }
}
