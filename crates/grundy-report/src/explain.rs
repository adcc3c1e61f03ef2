//! Why a position has its value and why a move wins, in the words of
//! Sprague-Grundy theory: the value as the XOR of its parts' values, each
//! winning move with the arithmetic that makes the XOR 0, and each part's
//! value as the mex of the values its moves leave. `grundy clear --explain`,
//! `grundy pawn --explain`, `grundy split --explain` print it and the web
//! API sends it (`explain` of an `analyze` answer); every sentence comes
//! from [`words`].
//!
//! The parts: a clear board's 4-connected components (a sum's components
//! named by board and letter, `2A`), the pawns of a sum, the splitting
//! game's rectangles still in play. A move changes one part, so a winning
//! move takes part `p` from `v_p` to `v_p ^ total`.

use grundy::clear::{Bitboard, Board, ClearSolver};
use grundy::pawn::{
    Blocked, Cell as PawnCell, CellKind, OpenQuadrants, PawnError, ValueTable, MAX_REGION_SIDE,
};
use grundy::split::{Position, SplitSolver};
use grundy::{Nimber, SolveError};
use serde::Serialize;

use crate::{clear, pawn, split, words};

/// One part of a position with its value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Part {
    /// Its name: `A`, `2A` (board 2's component A), `pawn 1`,
    /// `(1,1)-(3,4)`.
    pub name: String,
    /// Its value.
    pub grundy: u32,
}

/// A part's value as the mex of the values its moves leave.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Mex {
    /// The part's name.
    pub part: String,
    /// The mex: the least value no move of the part leaves, which is the
    /// part's value.
    pub grundy: u32,
    /// How many moves the part has.
    pub moves: u64,
    /// Each value its moves leave (of the part alone) and how many leave
    /// it, sorted by value.
    pub counts: Vec<ValueCount>,
    /// The same in words ([`words::mex_text`]).
    pub text: String,
}

/// How many moves leave a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ValueCount {
    /// The value left.
    pub grundy: u32,
    /// How many moves leave it.
    pub count: u64,
}

impl Mex {
    /// The mex of part `part` whose moves leave `values`.
    #[must_use]
    pub fn of(part: &str, values: impl IntoIterator<Item = u32>) -> Mex {
        let (counts, mex) = words::mex_counts(values);
        Mex {
            part: part.to_owned(),
            grundy: mex,
            moves: counts.iter().map(|&(_, n)| n).sum(),
            text: words::mex_text(part, &counts, mex),
            counts: counts
                .into_iter()
                .map(|(grundy, count)| ValueCount { grundy, count })
                .collect(),
        }
    }
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde passes fields by reference
fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Why a position has its value and why its winning moves win.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Explanation {
    /// `First player wins with best play.`
    pub heading: String,
    /// The value as the XOR of the parts' values, and what it means.
    pub value: String,
    /// The parts, with their values.
    pub parts: Vec<Part>,
    /// Each winning move with the arithmetic that makes it win, in the
    /// order of the report's `winning_moves`: `clear (1,2)-(1,2): A: 2 ->
    /// 1, so 1 xor 1 = 0`.
    pub winning: Vec<String>,
    /// The winning moves past those of `winning`, which win the same way
    /// but are not explained (a splitting game with more than
    /// [`MAX_SPLIT_EXPLAINED`]); absent from the JSON when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub winning_unexplained: usize,
    /// Each part's value as a mex, in the order of `parts`, when asked
    /// for.
    pub mex: Vec<Mex>,
    /// The parts valued by a formula rather than by their moves' values:
    /// a pawn with no impassable cell at or below-left of it, past the
    /// region of values, is two Nim heaps (`pawn 1 at (5000,6000) = 5000
    /// xor 6000 = 1272`). Absent from the JSON when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub formula: Vec<String>,
    /// Whether the winning moves win by reaching a losing cell, with no
    /// values at all (one pawn past the values), rather than by an XOR;
    /// in the JSON only when true.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub by_outcome: bool,
    /// What a part is in this game's words (`component`, `pawn`,
    /// `rectangle`), for the text's mex header.
    #[serde(skip)]
    part_word: &'static str,
}

impl Explanation {
    /// `has_moves`: whether the player to move has a move at all (a
    /// component of a board always has one; a pawn at a corner may not).
    fn new(
        first_wins: bool,
        parts: Vec<Part>,
        total: u32,
        has_moves: bool,
        part_word: &'static str,
    ) -> Explanation {
        let named: Vec<(String, u32)> = parts.iter().map(|p| (p.name.clone(), p.grundy)).collect();
        Explanation {
            heading: words::with_best_play(first_wins),
            value: words::value_as_xor(&named, total, has_moves),
            parts,
            winning: Vec::new(),
            winning_unexplained: 0,
            mex: Vec::new(),
            formula: Vec::new(),
            by_outcome: false,
            part_word,
        }
    }

    /// The reason of a move that takes part `index` to `after`, cutting
    /// it into `pieces` (their values; nothing when it is not cut): every
    /// part's value after it, XORed.
    fn arithmetic(&self, index: usize, after: u32, pieces: &[u32]) -> String {
        let after_all: Vec<u32> = self
            .parts
            .iter()
            .enumerate()
            .map(|(i, p)| if i == index { after } else { p.grundy })
            .collect();
        let part = &self.parts[index];
        words::winning_arithmetic(&part.name, part.grundy, after, pieces, &after_all)
    }

    /// The explanation as text lines, as `--explain` prints it.
    #[must_use]
    pub fn lines(&self) -> Vec<String> {
        let mut lines = vec![
            format!("Why, in Sprague-Grundy terms: {}", self.heading),
            format!("  {}", self.value),
        ];
        if !self.winning.is_empty() {
            lines.push(
                if self.by_outcome {
                    "  Each winning move reaches a losing cell:"
                } else if self.parts.len() > 1 {
                    "  Each winning move makes the XOR 0:"
                } else {
                    // One part: no XOR to speak of, its value goes to 0.
                    "  Each winning move takes its value to 0:"
                }
                .to_owned(),
            );
            lines.extend(self.winning.iter().map(|w| format!("    {w}")));
            if self.winning_unexplained > 0 {
                lines.push(format!(
                    "    ... and {}, not explained here",
                    words::count(self.winning_unexplained as u64, "more winning move")
                ));
            }
        }
        if !self.mex.is_empty() {
            let word = self.part_word;
            lines.push(format!(
                "  Each {word}'s value is the mex (least value missing) of the values its moves leave it, the {word} alone:"
            ));
            lines.extend(self.mex.iter().map(|m| format!("    {}", m.text)));
        }
        if !self.formula.is_empty() {
            lines.push(
                "  A pawn with no impassable cell at or below-left of it moves as two Nim heaps, x and y, so its value is x xor y:"
                    .to_owned(),
            );
            lines.extend(self.formula.iter().map(|f| format!("    {f}")));
        }
        lines
    }
}

/// The name of component `component` of board `board` (0-based): its
/// letter, after the board's number (1-based) in a sum.
#[must_use]
pub fn component_name(several: bool, board: usize, component: usize) -> String {
    let letter = words::component_letter(component);
    if several {
        format!("{}{letter}", board + 1)
    } else {
        letter.to_string()
    }
}

/// Every move of every component of `boards` as `(board, component,
/// value left of that component)`, valued by `solver`; the component's own
/// search solved these shapes, so they are memo hits or table lookups.
///
/// # Errors
///
/// [`SolveError`] when the solver's budget runs out.
pub fn clear_component_moves(
    solver: &mut ClearSolver,
    boards: &[Board],
    analysis: &clear::Analysis,
) -> Result<Vec<(usize, usize, u32)>, SolveError> {
    let mut out = Vec::new();
    for (index, (board, analysed)) in boards.iter().zip(&analysis.boards).enumerate() {
        let mut rects = Vec::new();
        board.for_each_rect(|rect, mask| rects.push((rect, mask)));
        for (_, mask) in rects {
            let Some(component) = analysed
                .components
                .iter()
                .position(|(cells, _)| cells.contains(mask))
            else {
                continue;
            };
            let cells = analysed.components[component].0;
            let left = solver.value(&board.crop(Bitboard(cells.0 & !mask.0)))?;
            out.push((index, component, left.value()));
        }
    }
    Ok(out)
}

/// The values of the pieces each winning move of `analysis` cuts its
/// component into, in the order of `analysis.winning`, sorted; nothing for
/// a move that leaves one piece or none. Valued by `solver`, whose search
/// of the component solved them (memo hits or table lookups).
///
/// # Errors
///
/// [`SolveError`] when the solver's budget runs out.
pub fn clear_winning_pieces(
    solver: &mut ClearSolver,
    boards: &[Board],
    analysis: &clear::Analysis,
) -> Result<Vec<Vec<u32>>, SolveError> {
    let mut out = Vec::with_capacity(analysis.winning.len());
    for m in &analysis.winning {
        let board = &boards[m.board];
        let component = analysis.boards[m.board].components[m.component].0;
        let left = board.crop(board.play_unchecked(m.rect).cells() & component);
        let pieces = left.components();
        let mut values = Vec::new();
        if pieces.len() > 1 {
            for piece in pieces {
                values.push(solver.value(&left.crop(piece))?.value());
            }
            values.sort_unstable();
        }
        out.push(values);
    }
    Ok(out)
}

/// The explanation of a clear position (one board or a sum) from its
/// analysis; with `component_moves` (from [`clear_component_moves`], or
/// the web server's options) also each component's mex, and with
/// `pieces` (from [`clear_winning_pieces`]) the pieces each winning move
/// cuts its component into.
#[must_use]
pub fn clear(
    boards: &[Board],
    analysis: &clear::Analysis,
    component_moves: Option<&[(usize, usize, u32)]>,
    pieces: Option<&[Vec<u32>]>,
) -> Explanation {
    let several = boards.len() > 1;
    let mut parts = Vec::new();
    let mut first_part = Vec::with_capacity(analysis.boards.len());
    for (index, board) in analysis.boards.iter().enumerate() {
        first_part.push(parts.len());
        for (component, &(_, value)) in board.components.iter().enumerate() {
            parts.push(Part {
                name: component_name(several, index, component),
                grundy: value.value(),
            });
        }
    }
    let total = analysis.total.value();
    let mut explanation = Explanation::new(total != 0, parts, total, true, "component");
    if several {
        if let Some(first) = analysis
            .boards
            .iter()
            .position(|b| !b.components.is_empty())
        {
            explanation.value = format!(
                "{} {}",
                words::board_component_names(first, words::component_letter(0)),
                explanation.value
            );
        }
    }
    explanation.winning = analysis
        .winning
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let phrase = words::clear_move(several.then_some(m.board), m.rect);
            let cut = pieces.and_then(|p| p.get(i)).map_or(&[][..], Vec::as_slice);
            let why =
                explanation.arithmetic(first_part[m.board] + m.component, m.after.value(), cut);
            format!("{phrase}: {why}")
        })
        .collect();
    if let Some(moves) = component_moves {
        explanation.mex = explanation
            .parts
            .iter()
            .enumerate()
            .map(|(part, p)| {
                let values = moves
                    .iter()
                    .filter(|&&(b, c, _)| first_part[b] + c == part)
                    .map(|&(_, _, v)| v);
                Mex::of(&p.name, values)
            })
            .collect();
    }
    explanation
}

/// The name of pawn `index` (0-based): `pawn 2` in a sum, `the pawn`
/// alone.
fn pawn_name(several: bool, index: usize) -> String {
    if several {
        format!("pawn {}", index + 1)
    } else {
        "the pawn".to_owned()
    }
}

/// The explanation of pawns from their analysis: with values (pawns below
/// 4096 x 4096) the XOR of the pawns' values and each pawn's mex; a single
/// pawn far away in terms of losing cells only (a losing cell is one with
/// no move to a losing cell).
///
/// # Errors
///
/// [`PawnError`] when a pawn is off the value table.
pub fn pawn(
    analysis: &pawn::Analysis,
    pawns: &[PawnCell],
    blocked: &Blocked,
) -> Result<Explanation, PawnError> {
    let several = pawns.len() > 1;
    let Some(total) = analysis.total else {
        // One pawn beyond the values: outcomes only; in a sum, the others
        // drop out of it (`Analysis::of`: on a losing cell, or paired).
        let mut explanation = Explanation::new(analysis.first_wins, Vec::new(), 0, true, "pawn");
        explanation.by_outcome = true;
        let (kind, at) = (analysis.pawns.first().map(|p| p.0), pawns.first());
        explanation.value = match (kind, at) {
            _ if several => {
                let each: Vec<String> = analysis
                    .pawns
                    .iter()
                    .zip(pawns)
                    .enumerate()
                    .map(|(i, (&(kind, _), at))| {
                        let name = pawn_name(true, i);
                        let dropped = analysis.unexamined.contains(&i);
                        match kind {
                            CellKind::Losing if dropped => format!(
                                "{name} at {at} is a losing cell, value 0, so it drops out of the sum"
                            ),
                            CellKind::Losing => format!("{name} at {at} is a losing cell"),
                            _ if dropped => format!(
                                "{name} at {at} drops out of the sum, paired with a pawn on the same cell"
                            ),
                            _ => format!(
                                "{name} at {at} is a winning cell: a move from it reaches a losing cell"
                            ),
                        }
                    })
                    .collect();
                format!("{} ({LOSING_CELLS}).", each.join("; "))
            }
            (Some(CellKind::Losing), Some(at)) => format!(
                "{at} is a losing cell: no move from it reaches a losing cell ({LOSING_CELLS})."
            ),
            (Some(_), Some(at)) => format!(
                "{at} is a winning cell: a move from it reaches a losing cell ({LOSING_CELLS})."
            ),
            _ => "No pawn.".to_owned(),
        };
        explanation.winning = analysis
            .moves
            .iter()
            .map(|m| {
                format!(
                    "{}: {} is a losing cell{}",
                    words::pawn_move(several.then_some(m.pawn), pawns[m.pawn], m.to),
                    m.to,
                    if several {
                        ", and the other pawns drop out of the sum"
                    } else {
                        ""
                    }
                )
            })
            .collect();
        return Ok(explanation);
    };
    // A settled sum with pawns of no value: they pair off on shared cells
    // (`pawn::by_pairs`), and the XOR is of the others.
    let parts: Vec<Part> = analysis
        .pawns
        .iter()
        .enumerate()
        .filter_map(|(i, &(_, v))| {
            v.map(|v| Part {
                name: pawn_name(several, i),
                grundy: v.value(),
            })
        })
        .collect();
    let paired: Vec<String> = analysis
        .pawns
        .iter()
        .enumerate()
        .filter(|(_, &(_, v))| v.is_none())
        .map(|(i, _)| (i + 1).to_string())
        .collect();
    // A pawn with no move (at the origin, or walled in) is worded so, not
    // as one whose every move leaves a non-zero value.
    let mut has_moves = analysis.table.is_none();
    if let Some(table) = &analysis.table {
        for &at in pawns {
            table.for_each_move(at, |_, _| has_moves = true)?;
        }
    }
    let mut explanation =
        Explanation::new(!total.is_zero(), parts, total.value(), has_moves, "pawn");
    if !paired.is_empty() {
        // Paired pawns come two or more: `pawns 1 and 2`, `pawns 1, 2, 3 and 4`.
        let (last, others) = paired.split_last().expect("not empty");
        let pairs = format!(
            "Pawns {} and {last} stand on shared cells in pairs, and a pair cancels (a game added to itself has value 0)",
            others.join(", ")
        );
        explanation.value = if explanation.parts.is_empty() {
            format!("{pairs}, so the grundy value is 0. It is 0: every move leaves a non-zero value, so the player to move loses.")
        } else {
            format!("{pairs}, so the XOR leaves them out. {}", explanation.value)
        };
    }
    if !several {
        if let (Some(&(kind, _)), Some(at)) = (analysis.pawns.first(), pawns.first()) {
            let cell = if !has_moves {
                "a losing cell: it has no move"
            } else if kind == CellKind::Losing {
                "a losing cell: no move from it reaches a losing cell"
            } else {
                "a winning cell: a move from it reaches a losing cell"
            };
            explanation.value = format!(
                "{} {at} is {cell} (a losing cell is one of value 0; {LOSING_CELLS}).",
                explanation.value
            );
        }
    }
    // The parts are the pawns with values: a pawn's part is counted among
    // those before it that have one.
    let part_of = |pawn: usize| {
        analysis.pawns[..pawn]
            .iter()
            .filter(|(_, v)| v.is_some())
            .count()
    };
    explanation.winning = analysis
        .moves
        .iter()
        .map(|m| {
            let phrase = words::pawn_move(several.then_some(m.pawn), pawns[m.pawn], m.to);
            let after = m.after.map_or(0, Nimber::value);
            let mut why = explanation.arithmetic(part_of(m.pawn), after, &[]);
            if !several {
                // Not in parentheses: the cell's own would double them.
                why = format!("{why}, as {} is a losing cell", m.to);
            }
            format!("{phrase}: {why}")
        })
        .collect();
    // The table covers every pawn; or, when pawns past the region are
    // valued by the formula (open quadrants), none, and the analysis made
    // one of the pawns inside, within its budget: the same one is made
    // again here. Any other analysis without a table made none (its pawns
    // valued by their outcome, or past the budget), and none is made.
    let in_region = |p: &PawnCell| p.x() < MAX_REGION_SIDE && p.y() < MAX_REGION_SIDE;
    let open = OpenQuadrants::new(blocked);
    let by_formula = |index: usize| {
        let at = pawns[index];
        !in_region(&at) && open.is_open(at) && analysis.pawns[index].1.is_some()
    };
    let inside: Vec<PawnCell> = pawns.iter().copied().filter(in_region).collect();
    let own;
    let table = match &analysis.table {
        Some(table) => Some(table),
        None if !inside.is_empty()
            && (0..pawns.len()).any(by_formula)
            && analysis.pawns.iter().all(|(_, v)| v.is_some()) =>
        {
            own = ValueTable::covering(blocked, &inside)?;
            Some(&own)
        }
        None => None,
    };
    for (index, &at) in pawns.iter().enumerate() {
        let name = pawn_name(several, index);
        match (table, analysis.pawns[index].1) {
            (Some(table), Some(_)) if in_region(&at) => {
                let mut values = Vec::new();
                table.for_each_move(at, |_, v| values.push(v.value()))?;
                explanation.mex.push(Mex::of(&name, values));
            }
            // Past the region, or below it with no table (a budget that
            // refused it): an open quadrant's value is its formula.
            (_, Some(value)) if open.is_open(at) => explanation.formula.push(format!(
                "{name} at {at} = {} xor {} = {value}",
                at.x(),
                at.y()
            )),
            _ => {}
        }
    }
    Ok(explanation)
}

/// How losing cells are found, for a reader new to them: from the corner
/// up, without going round in circles.
const LOSING_CELLS: &str = "losing cells are found from the corner up: a cell with no move is losing, and a cell is losing when no move from it reaches a losing cell";

/// Winning moves of the splitting game explained part by part, at most
/// this many (each costs the values of the parts it leaves).
pub const MAX_SPLIT_EXPLAINED: usize = 64;

/// The explanation of a splitting-game position from its analysis: the
/// rectangles in play holding a candidate are the parts; each winning move
/// (up to [`MAX_SPLIT_EXPLAINED`]) takes its rectangle to the XOR of the
/// parts it leaves there; each rectangle's mex from the analysis's options.
///
/// # Errors
///
/// [`SolveError`] when the solver's budget runs out.
pub fn split(
    solver: &mut SplitSolver,
    position: &Position,
    analysis: &split::Analysis,
) -> Result<Explanation, SolveError> {
    let values = solver.rect_values(position)?;
    let rects = position.rects();
    // Rectangles without a candidate are worth 0 and take no move: left
    // out of the sum.
    let live: Vec<usize> = (0..rects.len())
        .filter(|&i| position.grid().candidates_in(rects[i]).next().is_some())
        .collect();
    let parts: Vec<Part> = live
        .iter()
        .map(|&i| Part {
            name: rects[i].to_string(),
            grundy: values[i].value(),
        })
        .collect();
    let total = analysis.value;
    let mut explanation =
        Explanation::new(!total.is_zero(), parts, total.value(), true, "rectangle");
    let part_of = |cell| {
        position
            .rect_of(cell)
            .and_then(|r| live.iter().position(|&i| i == r))
    };
    let winning = analysis.winning_moves();
    explanation.winning_unexplained = winning.len().saturating_sub(MAX_SPLIT_EXPLAINED);
    for cell in winning.into_iter().take(MAX_SPLIT_EXPLAINED) {
        let Some(part) = part_of(cell) else { continue };
        let after = position.play_unchecked(cell);
        let after_values = solver.rect_values(&after)?;
        let left: Vec<(String, u32)> = after
            .rects()
            .iter()
            .zip(&after_values)
            .filter(|(r, _)| !rects.contains(*r))
            .map(|(r, v)| (r.to_string(), v.value()))
            .collect();
        let rect_after = left.iter().fold(0, |acc, (_, v)| acc ^ v);
        let why = explanation.arithmetic(part, rect_after, &[]);
        let pieces = if left.is_empty() {
            "it leaves no candidate there".to_owned()
        } else {
            let named: Vec<String> = left.iter().map(|(r, v)| format!("{r} = {v}")).collect();
            if left.len() > 1 {
                // The rectangle's new value is the XOR of its pieces.
                let values: Vec<u32> = left.iter().map(|&(_, v)| v).collect();
                format!(
                    "it leaves {}, and {} = {rect_after}",
                    named.join(", "),
                    words::xor_terms(&values)
                )
            } else {
                format!("it leaves {}", named.join(", "))
            }
        };
        explanation
            .winning
            .push(format!("{}: {why} ({pieces})", words::split_move(cell)));
    }
    explanation.mex = live
        .iter()
        .zip(&explanation.parts)
        .map(|(&rect, part)| {
            let before = values[rect];
            let moves = analysis
                .options
                .iter()
                .filter(|(cell, _)| position.rect_of(*cell) == Some(rect))
                .map(|&(_, left)| (left ^ total ^ before).value());
            Mex::of(&part.name, moves)
        })
        .collect();
    Ok(explanation)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::{brute, small_board};
    use grundy::clear::Clear;
    use proptest::prelude::*;

    /// A splitting game's explanation gives the first
    /// [`MAX_SPLIT_EXPLAINED`] winning moves and counts the others, in the
    /// JSON only when there are any.
    #[test]
    fn a_long_list_of_split_winning_moves_counts_what_it_leaves_out() {
        let explained = |row: &str| {
            let position = Position::new(grundy::split::Grid::from_rows(&[row]));
            let mut solver = SplitSolver::new();
            let analysis = split::Analysis::of(&mut solver, &position).unwrap();
            let moves = analysis.winning_moves().len();
            (moves, split(&mut solver, &position, &analysis).unwrap())
        };
        let (moves, long) = explained(&"1".repeat(100));
        assert_eq!(long.winning.len(), MAX_SPLIT_EXPLAINED);
        assert_eq!(long.winning_unexplained, moves - MAX_SPLIT_EXPLAINED);
        let json = serde_json::to_value(&long).unwrap();
        assert_eq!(json["winning_unexplained"], moves - MAX_SPLIT_EXPLAINED);
        let (moves, short) = explained("11111");
        assert_eq!((short.winning.len(), short.winning_unexplained), (moves, 0));
        let json = serde_json::to_value(&short).unwrap();
        assert!(json.get("winning_unexplained").is_none(), "{json}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Each component's mex is its brute-force value; the parts XOR to
        /// the brute-force total; each winning move's arithmetic ends in 0
        /// and names the value the brute force gives what is left.
        #[test]
        fn clear_explanations_match_brute_force(boards in proptest::collection::vec(small_board(), 1..3)) {
            let mut solver = Clear::solver();
            let analysis = clear::Analysis::of(&mut solver, &boards).unwrap();
            let moves = clear_component_moves(&mut solver, &boards, &analysis).unwrap();
            let pieces = clear_winning_pieces(&mut solver, &boards, &analysis).unwrap();
            let explanation = clear(&boards, &analysis, Some(&moves), Some(&pieces));
            let total: Nimber = boards.iter().map(brute).sum();
            let parts = explanation.parts.iter().fold(0, |acc, p| acc ^ p.grundy);
            prop_assert_eq!(parts, total.value());
            let mut part = 0;
            for (board, analysed) in boards.iter().zip(&analysis.boards) {
                for &(cells, _) in &analysed.components {
                    let alone = brute(&board.crop(cells));
                    prop_assert_eq!(explanation.mex[part].grundy, alone.value());
                    prop_assert_eq!(explanation.parts[part].grundy, alone.value());
                    part += 1;
                }
            }
            prop_assert_eq!(explanation.winning.len(), analysis.winning.len());
            for (m, text) in analysis.winning.iter().zip(&explanation.winning) {
                let after = boards[m.board].play_unchecked(m.rect);
                let (cells, _) = analysis.boards[m.board].components[m.component];
                let rest = after.crop(Bitboard(cells.0 & after.cells().0));
                let left = brute(&rest);
                prop_assert_eq!(left, m.after);
                if explanation.parts.len() > 1 {
                    prop_assert!(text.ends_with(" = 0"), "{}", text);
                }
                // The pieces named are those left, each valued by brute
                // force, their XOR the component's new value.
                let mut want: Vec<u32> = rest
                    .components()
                    .into_iter()
                    .map(|piece| brute(&rest.crop(piece)).value())
                    .collect();
                want.sort_unstable();
                let name = &explanation.parts[text_part(&explanation, text)].name;
                if want.len() > 1 {
                    let said = format!(
                        " ({name} is left in {} pieces: {} = {})",
                        want.len(),
                        words::xor_terms(&want),
                        left.value()
                    );
                    prop_assert!(text.contains(&said), "{} lacks {}", text, said);
                } else {
                    prop_assert!(!text.contains("pieces"), "{}", text);
                }
            }
        }
    }

    /// The index of the part a winning move's text names first (`A: ...`).
    fn text_part(explanation: &Explanation, text: &str) -> usize {
        let why = text.split_once(": ").unwrap().1;
        let name = why.split_once(':').unwrap().0;
        explanation
            .parts
            .iter()
            .position(|p| p.name == name)
            .unwrap()
    }

    #[test]
    fn the_seed_example_reads_as_the_theory() {
        let boards = [grundy::board!["0110", "0000", "0000", "0001"]];
        let mut solver = Clear::solver();
        let analysis = clear::Analysis::of(&mut solver, &boards).unwrap();
        let moves = clear_component_moves(&mut solver, &boards, &analysis).unwrap();
        let pieces = clear_winning_pieces(&mut solver, &boards, &analysis).unwrap();
        let explanation = clear(&boards, &analysis, Some(&moves), Some(&pieces));
        assert_eq!(explanation.heading, "First player wins with best play.");
        assert!(explanation
            .value
            .starts_with("Grundy value 3 = A xor B = 2 xor 1."));
        assert_eq!(
            explanation.winning,
            [
                "clear (1,2)-(1,2): A: 2 -> 1, so 1 xor 1 = 0",
                "clear (1,3)-(1,3): A: 2 -> 1, so 1 xor 1 = 0"
            ]
        );
        assert_eq!(
            explanation.mex[0].text,
            "A: its 3 moves leave 0, 1, 1, [2 missing], so A = mex = 2."
        );
    }
}
