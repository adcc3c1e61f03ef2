//! `gridgame`'s test cases: tests of impassable cells and starting cells.

use std::collections::HashSet;

use grundy_cli::judge::{self, JudgeError};
use rand::rngs::StdRng;
use rand::RngExt as _;

use super::*;

/// One test: its impassable cells and its starting cells.
#[derive(Clone, Debug)]
pub struct Field {
    cells: Vec<(u32, u32)>,
    starts: Vec<(u32, u32)>,
}

/// The most cells and starts, over its tests, of a case whose coordinates
/// are lowered one by one: each coordinate brings a few dozen edits, and a
/// larger case would spend the shrinking runs on them.
const MOST_POINTS_LOWERED: usize = 100;

impl Gridgame {
    /// The case's impassable cells and starts, over its tests.
    fn points(&self) -> usize {
        self.tests
            .iter()
            .map(|t| t.cells.len() + t.starts.len())
            .sum()
    }
}

impl Field {
    fn valid(&self) -> bool {
        let blocked: HashSet<(u32, u32)> = self.cells.iter().copied().collect();
        blocked.len() == self.cells.len() && self.starts.iter().all(|s| !blocked.contains(s))
    }
}

/// `gridgame`: tests of impassable cells and starting cells.
#[derive(Clone, Debug)]
pub struct Gridgame {
    tests: Vec<Field>,
    layout: Layout,
}

impl Case for Gridgame {
    const NAME: &'static str = "gridgame";
    const WORDS: [&'static str; 2] = ["Alice", "Bob"];
    const TIME_LIMIT: f64 = 1.0;
    const EDGES: &'static [&'static str] = &[
        "a single test",
        "cells near the largest coordinate",
        "cells at the origin",
        "many tests of one cell and one start",
        "starts on the diagonal",
    ];
    const ELEMENTS: &'static str = "dropping any one test, impassable cell or start, lowering any \
         one coordinate, both coordinates of one point alike, every coordinate of one value, or \
         every coordinate from one value up (closing the gap below it), or making the whitespace \
         plainer";
    type Test = Field;

    fn generate(rng: &mut StdRng, gen: &Gen) -> Gridgame {
        let size = gen.size.max(1);
        let max = gen.max_coord;
        let tests = match gen.edge {
            Some(3) => size.min(judge::gridgame::MAX_TESTS),
            Some(0) => 1,
            _ if gen.full => 1,
            _ => rng.random_range(1..=size.clamp(1, 3)),
        };
        let per_test = (size / tests).max(1);
        let tests = (0..tests)
            .map(|_| {
                let (n, q) = if gen.edge == Some(3) {
                    (1, 1)
                } else if gen.full {
                    (per_test, per_test)
                } else {
                    (
                        rng.random_range(1..=per_test),
                        rng.random_range(1..=per_test),
                    )
                };
                // A square window holding the cells at about a third of its
                // area, so that they interact, somewhere in the grid.
                let width =
                    (((3 * (n + q)) as f64).sqrt().ceil() as u64 + 2).min(u64::from(max) + 1);
                let room = u64::from(max) + 1 - width;
                let origin = |rng: &mut StdRng| match gen.edge {
                    Some(1) => room as u32,
                    Some(2) => 0,
                    _ if rng.random_bool(0.5) => 0,
                    _ => rng.random_range(0..=room) as u32,
                };
                let (ox, oy) = (origin(rng), origin(rng));
                let point = |rng: &mut StdRng| {
                    (
                        ox + rng.random_range(0..width) as u32,
                        oy + rng.random_range(0..width) as u32,
                    )
                };
                let mut blocked = HashSet::new();
                let mut cells = Vec::new();
                // Bounded: the window has room for every cell and start.
                while cells.len() < n && blocked.len() as u64 + 1 < width * width {
                    let cell = point(rng);
                    if blocked.insert(cell) {
                        cells.push(cell);
                    }
                }
                if cells.is_empty() {
                    cells.push((max, max));
                    blocked.insert((max, max));
                }
                let mut starts = Vec::new();
                for _ in 0..q * 4 {
                    if starts.len() == q {
                        break;
                    }
                    let mut start = point(rng);
                    if gen.edge == Some(4) {
                        start.1 = start.0.saturating_sub(ox).saturating_add(oy).min(max);
                    } else if rng.random_bool(0.05) {
                        start = (rng.random_range(0..=max), rng.random_range(0..=max));
                    }
                    if !blocked.contains(&start) {
                        starts.push(start);
                    }
                }
                if starts.is_empty() {
                    // The window has a free cell: the loop above left one.
                    let side = width as u32;
                    let free = (0..side * side)
                        .map(|i| (ox + i % side, oy + i / side))
                        .find(|cell| !blocked.contains(cell))
                        .expect("a free cell in the window");
                    starts.push(free);
                }
                Field { cells, starts }
            })
            .collect();
        Gridgame {
            tests,
            layout: Layout::random(rng, gen.layouts),
        }
    }

    fn render(&self) -> Vec<u8> {
        let mut text = Text::new(self.layout);
        text.line(&[&self.tests.len()]);
        for test in &self.tests {
            text.line(&[&test.cells.len()]);
            for (x, y) in &test.cells {
                text.line(&[x, y]);
            }
            text.line(&[&test.starts.len()]);
            for (x, y) in &test.starts {
                text.line(&[x, y]);
            }
        }
        text.finish()
    }

    fn elements(&self) -> std::borrow::Cow<'static, str> {
        if self.points() <= MOST_POINTS_LOWERED {
            Self::ELEMENTS.into()
        } else {
            format!(
                "dropping any one test, impassable cell or start, moving every point of a test \
                 toward an axis together, or making the whitespace plainer; its coordinates are \
                 lowered one by one only once it has at most {MOST_POINTS_LOWERED} cells and \
                 starts"
            )
            .into()
        }
    }

    fn edits(&self, coarse: bool) -> Vec<Edit> {
        let lists: Vec<(usize, List, usize)> = (self.tests.iter().enumerate())
            .flat_map(|(t, test)| {
                [
                    (t, List::Cells, test.cells.len()),
                    (t, List::Queries, test.starts.len()),
                ]
            })
            .collect();
        let mut edits = drops(self.tests.len(), &lists, coarse);
        if coarse {
            return edits;
        }
        for t in 0..self.tests.len() {
            edits.push(Edit::Shift { test: t, y: false });
            edits.push(Edit::Shift { test: t, y: true });
        }
        if self.points() <= MOST_POINTS_LOWERED {
            for (t, test) in self.tests.iter().enumerate() {
                for y in [false, true] {
                    let values: std::collections::BTreeSet<u32> = test
                        .cells
                        .iter()
                        .chain(&test.starts)
                        .map(|&(px, py)| if y { py } else { px })
                        .collect();
                    let mut floor = 0;
                    for &at in &values {
                        edits.extend(lowerings(at - floor).into_iter().map(|to| Edit::CloseGap {
                            test: t,
                            y,
                            at,
                            to: floor + to,
                        }));
                        floor = at + 1;
                    }
                }
            }
            for (t, test) in self.tests.iter().enumerate() {
                for y in [false, true] {
                    let mut shared: Vec<u32> = test
                        .cells
                        .iter()
                        .chain(&test.starts)
                        .map(|&(px, py)| if y { py } else { px })
                        .collect();
                    shared.sort_unstable();
                    let shared: std::collections::BTreeSet<u32> = shared
                        .windows(2)
                        .filter(|w| w[0] == w[1])
                        .map(|w| w[0])
                        .collect();
                    for from in shared {
                        edits.extend(lowerings(from).into_iter().map(|to| Edit::LowerAll {
                            test: t,
                            y,
                            from,
                            to,
                        }));
                    }
                }
            }
            for (t, test) in self.tests.iter().enumerate() {
                for (list, points) in [(List::Cells, &test.cells), (List::Queries, &test.starts)] {
                    for (item, &(x, y)) in points.iter().enumerate() {
                        let least = x.min(y);
                        edits.extend(lowerings(least).into_iter().map(|to| Edit::LowerBoth {
                            test: t,
                            list,
                            item,
                            by: least - to,
                        }));
                        for (v, is_y) in [(x, false), (y, true)] {
                            edits.extend(lowerings(v).into_iter().map(|to| Edit::Lower {
                                test: t,
                                list,
                                item,
                                y: is_y,
                                to,
                            }));
                        }
                    }
                }
            }
        }
        edits.extend(self.layout.edits());
        edits
    }

    fn edit(&mut self, edit: &Edit) -> Option<()> {
        match edit {
            Edit::Drop { test, list, range } => {
                let field = &mut self.tests[*test];
                let points = match list {
                    List::Cells => &mut field.cells,
                    _ => &mut field.starts,
                };
                if !keeps_one(points.len(), range) {
                    return None;
                }
                points.drain(range.clone());
            }
            &Edit::Shift { test, y } => {
                let field = &mut self.tests[test];
                let coord = |p: &(u32, u32)| if y { p.1 } else { p.0 };
                let least = field.cells.iter().chain(&field.starts).map(coord).min()?;
                if least == 0 {
                    return None;
                }
                for p in field.cells.iter_mut().chain(field.starts.iter_mut()) {
                    if y {
                        p.1 -= least;
                    } else {
                        p.0 -= least;
                    }
                }
            }
            &Edit::LowerAll { test, y, from, to } => {
                let field = &mut self.tests[test];
                for p in field.cells.iter_mut().chain(field.starts.iter_mut()) {
                    let coord = if y { &mut p.1 } else { &mut p.0 };
                    if *coord == from {
                        *coord = to;
                    }
                }
                if !field.valid() {
                    return None;
                }
            }
            &Edit::CloseGap { test, y, at, to } => {
                let field = &mut self.tests[test];
                for p in field.cells.iter_mut().chain(field.starts.iter_mut()) {
                    let coord = if y { &mut p.1 } else { &mut p.0 };
                    if *coord >= at {
                        *coord -= at - to;
                    }
                }
            }
            &Edit::LowerBoth {
                test,
                list,
                item,
                by,
            } => {
                let field = &mut self.tests[test];
                let point = match list {
                    List::Cells => &mut field.cells[item],
                    _ => &mut field.starts[item],
                };
                *point = (point.0 - by, point.1 - by);
                if !field.valid() {
                    return None;
                }
            }
            &Edit::Lower {
                test,
                list,
                item,
                y,
                to,
            } => {
                let field = &mut self.tests[test];
                let point = match list {
                    List::Cells => &mut field.cells[item],
                    _ => &mut field.starts[item],
                };
                if y {
                    point.1 = to;
                } else {
                    point.0 = to;
                }
                if !field.valid() {
                    return None;
                }
            }
            _ => return None,
        }
        Some(())
    }

    fn tests_mut(&mut self) -> Option<&mut Vec<Field>> {
        Some(&mut self.tests)
    }

    fn read(input: &[u8]) -> Option<Gridgame> {
        let mut reader = Reader::new(input);
        let points = |reader: &mut Reader<'_>| -> Option<Vec<(u32, u32)>> {
            (0..reader.num()?)
                .map(|_| Some((reader.num()? as u32, reader.num()? as u32)))
                .collect()
        };
        let tests = (0..reader.num()?)
            .map(|_| {
                Some(Field {
                    cells: points(&mut reader)?,
                    starts: points(&mut reader)?,
                })
            })
            .collect::<Option<_>>()?;
        Some(Gridgame {
            tests,
            layout: Layout::default(),
        })
    }

    fn size(&self) -> String {
        let cells: usize = self.tests.iter().map(|t| t.cells.len()).sum();
        let starts: usize = self.tests.iter().map(|t| t.starts.len()).sum();
        let largest = self
            .tests
            .iter()
            .flat_map(|t| t.cells.iter().chain(&t.starts))
            .map(|&(x, y)| x.max(y))
            .max()
            .unwrap_or(0);
        format!(
            "{}, {}, {}, coordinates up to {largest}",
            plural(self.tests.len(), "test"),
            plural(cells, "impassable cell"),
            plural(starts, "start")
        )
    }

    fn judge(input: &[u8], out: &mut Vec<u8>) -> Result<(), JudgeError> {
        judge::gridgame::run(input, out)
    }

    fn layout(&self) -> Layout {
        self.layout
    }

    fn layout_mut(&mut self) -> &mut Layout {
        &mut self.layout
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 1-minimal claim names the reductions tried: past 100 cells and
    /// starts a case's coordinates are not lowered one by one, and the
    /// claim says so rather than listing steps it did not try.
    #[test]
    fn the_claim_names_only_the_reductions_tried() {
        let case = |starts: usize| {
            let lines: String = (0..starts).map(|i| format!("{} 5\n", i + 1)).collect();
            Gridgame::read(format!("1\n1\n0 0\n{starts}\n{lines}").as_bytes()).unwrap()
        };
        let small = case(99);
        assert_eq!(small.elements(), Gridgame::ELEMENTS);
        assert!(small
            .edits(false)
            .iter()
            .any(|e| matches!(e, Edit::CloseGap { .. })));
        let large = case(100);
        assert!(!large.edits(false).iter().any(|e| matches!(
            e,
            Edit::CloseGap { .. } | Edit::LowerBoth { .. } | Edit::Lower { .. }
        )));
        assert!(
            large
                .elements()
                .ends_with("lowered one by one only once it has at most 100 cells and starts"),
            "{}",
            large.elements()
        );
    }

    /// Points that share a column keep sharing it as they are lowered:
    /// a failure that needs an impassable cell and a start on one large x
    /// shrinks to a small x, which lowering one coordinate never reaches.
    #[test]
    fn shared_coordinates_are_lowered_together() {
        let case = Gridgame::read(b"1\n1\n847898794 5\n1\n847898794 6\n").unwrap();
        let lowered: Vec<Gridgame> = case
            .edits(false)
            .iter()
            .filter(|edit| matches!(edit, Edit::LowerAll { y: false, .. }))
            .filter_map(|edit| case.apply(edit))
            .collect();
        assert!(!lowered.is_empty());
        for smaller in &lowered {
            let field = &smaller.tests[0];
            let (cell, start) = (field.cells[0], field.starts[0]);
            assert_eq!(cell.0, start.0, "{smaller:?}");
            assert!(cell.0 < 847_898_794);
            assert_eq!((cell.1, start.1), (5, 6));
        }
        assert!(lowered.iter().any(|c| c.tests[0].cells[0].0 == 0));
    }
}
