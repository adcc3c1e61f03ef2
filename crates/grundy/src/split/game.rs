//! The splitting game as a [`Game`] on compressed patterns, for the generic
//! memoising [`Solver`](crate::Solver): the path for patterns whose dense
//! table would not fit in memory (huge sparse grids), where the closed forms
//! and the block split cut the search down.

use super::Pattern;
use crate::{Game, Nimber};

/// The rules of the splitting game on sums of compressed patterns.
///
/// A position is a list of patterns (a sum of rectangles); components are
/// the independent [blocks](Pattern::blocks) of each; keys are canonical
/// forms under the 8 symmetries; known values are the closed forms of
/// [`Pattern::known_value`].
///
/// # Examples
///
/// ```
/// use grundy::split::{Pattern, Split};
/// use grundy::{Nimber, Solver};
///
/// // An L of three candidates: any move leaves one candidate or none.
/// let l = Pattern::from_cells([(0, 0), (0, 1), (1, 0)]);
/// assert_eq!(Solver::new(Split).value(&vec![l]).unwrap(), Nimber::new(2));
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Split;

/// A move of [`Split`]: the part, then the candidate's row and column in
/// that part's pattern.
pub type PartMove = (usize, usize, usize);

impl Game for Split {
    type Position = Vec<Pattern>;
    type Move = PartMove;
    type Key = Pattern;

    fn for_each_option<F>(&self, parts: &Vec<Pattern>, visit: F)
    where
        F: FnMut(PartMove, Vec<Pattern>),
    {
        options_until(parts, visit, || false);
    }

    fn for_each_component<F>(&self, parts: &Vec<Pattern>, visit: F)
    where
        F: FnMut(Vec<Pattern>),
    {
        components(parts, visit);
    }

    /// The canonical form of a component (a one-pattern list).
    fn key(&self, component: &Vec<Pattern>) -> Pattern {
        component
            .first()
            .map_or_else(Pattern::empty, Pattern::canonical)
    }

    fn known_value(&self, component: &Vec<Pattern>) -> Option<Nimber> {
        match component.as_slice() {
            [] => Some(Nimber::ZERO),
            [one] => one.known_value(),
            _ => None,
        }
    }
}

/// Calls `visit` with every option of `parts`, asking `stop` before each
/// (an option costs a sort of the part's candidates, so a part of 10^5
/// candidates takes seconds to expand in full); returns early when told.
pub(super) fn options_until<F>(parts: &[Pattern], mut visit: F, mut stop: impl FnMut() -> bool)
where
    F: FnMut(PartMove, Vec<Pattern>),
{
    for (index, part) in parts.iter().enumerate() {
        for (row, col) in part.cells() {
            if stop() {
                return;
            }
            let mut next: Vec<Pattern> = parts
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != index)
                .map(|(_, p)| p.clone())
                .collect();
            next.extend(
                part.split_at(row, col)
                    .into_iter()
                    .filter(|p| !p.is_empty()),
            );
            visit((index, row, col), next);
        }
    }
}

/// The components of a sum of patterns: a pattern with a closed form is
/// one, any other is cut into its blocks.
pub(super) fn components<F>(parts: &[Pattern], mut visit: F)
where
    F: FnMut(Vec<Pattern>),
{
    for part in parts {
        if part.known_value().is_some() {
            visit(vec![part.clone()]);
            continue;
        }
        for block in part.blocks() {
            visit(vec![block.pattern]);
        }
    }
}
