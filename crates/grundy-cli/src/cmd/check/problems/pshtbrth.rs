//! `pshtbrth`'s test cases: tests of 4 x 4 boards in a row, range queries
//! and replacements.

use std::ops::Range;

use grundy_cli::judge::{self, JudgeError};
use rand::rngs::StdRng;
use rand::RngExt as _;

use super::*;

/// A `pshtbrth` query, 1-based as in the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Query {
    Ask(u32, u32),
    Set(u32, u16),
}

/// One test: its boards and its queries.
#[derive(Clone, Debug)]
pub struct Row {
    boards: Vec<u16>,
    queries: Vec<Query>,
}

/// `pshtbrth`: tests of boards and queries.
#[derive(Clone, Debug)]
pub struct Pshtbrth {
    tests: Vec<Row>,
    layout: Layout,
}

impl Pshtbrth {
    /// The boards of a test's replacement queries, in order, with their
    /// query index.
    fn set_items(test: &Row) -> Vec<usize> {
        (0..test.queries.len())
            .filter(|&q| matches!(test.queries[q], Query::Set(..)))
            .collect()
    }

    fn drop_boards(test: &Row, range: &Range<usize>) -> Option<Row> {
        if !keeps_one(test.boards.len(), range) {
            return None;
        }
        let (start, len) = (range.start as u32 + 1, range.len() as u32);
        let end = start + len - 1; // 1-based, inclusive
        let remap_left = |i: u32| if i < start { i } else { i.max(end + 1) - len };
        let remap_right = |i: u32| {
            if i < start {
                Some(i)
            } else if i > end {
                Some(i - len)
            } else if start > 1 {
                Some(start - 1)
            } else {
                None
            }
        };
        let mut queries = Vec::new();
        for &query in &test.queries {
            match query {
                Query::Ask(l, r) => {
                    if l >= start && r <= end {
                        continue;
                    }
                    let (l2, r2) = (remap_left(l), remap_right(r)?);
                    if l2 <= r2 {
                        queries.push(Query::Ask(l2, r2));
                    }
                }
                Query::Set(p, board) => {
                    if p < start {
                        queries.push(query);
                    } else if p > end {
                        queries.push(Query::Set(p - len, board));
                    }
                }
            }
        }
        if queries.is_empty() {
            return None;
        }
        let mut boards = test.boards.clone();
        boards.drain(range.clone());
        Some(Row { boards, queries })
    }
}

impl Case for Pshtbrth {
    const NAME: &'static str = "pshtbrth";
    const WORDS: [&'static str; 2] = ["Pishty", "Lotsy"];
    const TIME_LIMIT: f64 = 1.0;
    const EDGES: &'static [&'static str] = &[
        "a single board",
        "empty boards",
        "full boards",
        "only range queries",
        "only replacements",
        "five tests",
    ];
    const ELEMENTS: &'static str = "dropping any one test, board or query, clearing any one cell, \
         narrowing any one range by one board, or making the whitespace plainer";
    type Test = Row;

    fn generate(rng: &mut StdRng, gen: &Gen) -> Pshtbrth {
        let size = gen.size.max(1);
        // The last case is the statement's largest input: five tests, each
        // of `size` boards and queries (the statement bounds each test, not
        // their sum; at 10^5, about 21 MB, as the original judge's largest).
        let tests = match gen.edge {
            Some(5) => size.min(5),
            Some(0) => 1,
            _ if gen.full => 5,
            _ => rng.random_range(1..=size.clamp(1, 3)),
        };
        let per_test = if gen.full {
            size
        } else {
            (size / tests).max(1)
        };
        let tests = (0..tests)
            .map(|_| {
                let n = if gen.edge == Some(0) {
                    1
                } else if gen.full {
                    per_test
                } else {
                    rng.random_range(1..=per_test)
                };
                let m = if gen.full {
                    per_test
                } else {
                    rng.random_range(1..=per_test)
                };
                let density = match gen.edge {
                    Some(1) => 0.0,
                    Some(2) => 1.0,
                    _ => [0.15, 0.3, 0.5, 0.7][rng.random_range(0..4)],
                };
                let asks = match gen.edge {
                    Some(3) => 1.0,
                    Some(4) => 0.0,
                    _ if gen.full => 0.9,
                    _ => rng.random_range(0.3..0.95),
                };
                // In the last case the ranges span most of the row: the
                // worst case of a solution that XORs a range board by board
                // (O(N M) in all), which random ranges (a third of the row
                // on average) would let pass.
                let span = |rng: &mut StdRng| {
                    if gen.full {
                        let eighth = (n as u32 / 8).max(1);
                        let left = rng.random_range(1..=eighth);
                        let right =
                            rng.random_range((n as u32 + 1).saturating_sub(eighth)..=n as u32);
                        (left.min(right), left.max(right))
                    } else {
                        let a = rng.random_range(1..=n as u32);
                        let b = rng.random_range(1..=n as u32);
                        (a.min(b), a.max(b))
                    }
                };
                let boards = (0..n).map(|_| random_board(rng, density)).collect();
                let queries = (0..m)
                    .map(|_| {
                        if rng.random_bool(asks) {
                            let (left, right) = span(rng);
                            Query::Ask(left, right)
                        } else {
                            Query::Set(rng.random_range(1..=n as u32), random_board(rng, density))
                        }
                    })
                    .collect();
                Row { boards, queries }
            })
            .collect();
        Pshtbrth {
            tests,
            layout: Layout::random(rng, gen.layouts),
        }
    }

    fn render(&self) -> Vec<u8> {
        let mut text = Text::new(self.layout);
        let board = |text: &mut Text, mask: u16| {
            for row in 0..4 {
                let cells: String = (0..4)
                    .map(|col| {
                        if mask >> (4 * row + col) & 1 == 1 {
                            '1'
                        } else {
                            '0'
                        }
                    })
                    .collect();
                text.line(&[&cells]);
            }
        };
        text.line(&[&self.tests.len()]);
        for test in &self.tests {
            text.line(&[&test.boards.len(), &test.queries.len()]);
            for &mask in &test.boards {
                board(&mut text, mask);
                // The sample's layout: a blank line after each board (not
                // after a replacement's), so that a line-by-line reader
                // written for the sample reads every case.
                text.blank();
            }
            for query in &test.queries {
                match *query {
                    Query::Ask(l, r) => text.line(&[&1, &l, &r]),
                    Query::Set(p, mask) => {
                        text.line(&[&2, &p]);
                        board(&mut text, mask);
                    }
                }
            }
        }
        text.finish()
    }

    fn edits(&self, coarse: bool) -> Vec<Edit> {
        let lists: Vec<(usize, List, usize)> = (self.tests.iter().enumerate())
            .flat_map(|(t, test)| {
                [
                    (t, List::Boards, test.boards.len()),
                    (t, List::Queries, test.queries.len()),
                ]
            })
            .collect();
        let mut edits = drops(self.tests.len(), &lists, coarse);
        let elements: usize = self
            .tests
            .iter()
            .map(|t| t.boards.len() + t.queries.len())
            .sum();
        if coarse || elements > 400 {
            return edits;
        }
        for (t, test) in self.tests.iter().enumerate() {
            let sets = Pshtbrth::set_items(test);
            let masks = test.boards.iter().copied().chain(sets.iter().map(|&q| {
                let Query::Set(_, mask) = test.queries[q] else {
                    unreachable!("a set item")
                };
                mask
            }));
            for (item, mask) in masks.enumerate() {
                edits.extend(board_cuts(mask).into_iter().map(|cells| Edit::Keep {
                    test: t,
                    item,
                    cells,
                }));
            }
            for (q, query) in test.queries.iter().enumerate() {
                if let Query::Ask(l, r) = *query {
                    if l < r {
                        for left in [true, false] {
                            edits.push(Edit::Narrow {
                                test: t,
                                query: q,
                                left,
                            });
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
                let row = &self.tests[*test];
                self.tests[*test] = match list {
                    List::Boards => Pshtbrth::drop_boards(row, range)?,
                    List::Queries => {
                        if !keeps_one(row.queries.len(), range) {
                            return None;
                        }
                        let mut row = row.clone();
                        row.queries.drain(range.clone());
                        row
                    }
                    _ => return None,
                };
            }
            &Edit::Keep { test, item, cells } => {
                let row = &mut self.tests[test];
                let n = row.boards.len();
                if item < n {
                    row.boards[item] &= cells;
                } else {
                    let q = Pshtbrth::set_items(row)[item - n];
                    if let Query::Set(_, mask) = &mut row.queries[q] {
                        *mask &= cells;
                    }
                }
            }
            &Edit::Narrow { test, query, left } => {
                let Query::Ask(l, r) = self.tests[test].queries[query] else {
                    return None;
                };
                self.tests[test].queries[query] = if left {
                    Query::Ask(l + 1, r)
                } else {
                    Query::Ask(l, r - 1)
                };
            }
            _ => return None,
        }
        Some(())
    }

    fn tests_mut(&mut self) -> Option<&mut Vec<Row>> {
        Some(&mut self.tests)
    }

    fn read(input: &[u8]) -> Option<Pshtbrth> {
        let mut reader = Reader::new(input);
        let tests = (0..reader.num()?)
            .map(|_| {
                let (n, m) = (reader.num()?, reader.num()?);
                let boards = (0..n).map(|_| reader.board()).collect::<Option<_>>()?;
                let queries = (0..m)
                    .map(|_| match reader.num()? {
                        1 => Some(Query::Ask(reader.num()? as u32, reader.num()? as u32)),
                        _ => Some(Query::Set(reader.num()? as u32, reader.board()?)),
                    })
                    .collect::<Option<_>>()?;
                Some(Row { boards, queries })
            })
            .collect::<Option<_>>()?;
        Some(Pshtbrth {
            tests,
            layout: Layout::default(),
        })
    }

    fn past_the_statement(&self) -> Option<String> {
        // The judge scales past the statement (T up to 5, N and M up to
        // 10^5 each), up to `judge::pshtbrth::MAX_COUNT`.
        let mut past = Vec::new();
        if self.tests.len() > 5 {
            past.push(format!("T = {} (at most 5)", self.tests.len()));
        }
        for (t, test) in self.tests.iter().enumerate() {
            for (what, n) in [("N", test.boards.len()), ("M", test.queries.len())] {
                if n > 100_000 {
                    past.push(format!("test {}: {what} = {n} (at most 100000)", t + 1));
                }
            }
        }
        (!past.is_empty()).then(|| past.join(", "))
    }

    fn size(&self) -> String {
        let boards: usize = self.tests.iter().map(|t| t.boards.len()).sum();
        let queries: usize = self.tests.iter().map(|t| t.queries.len()).sum();
        let cells: u32 = self
            .tests
            .iter()
            .flat_map(|t| {
                t.boards
                    .iter()
                    .copied()
                    .chain(t.queries.iter().map(|q| match q {
                        Query::Set(_, mask) => *mask,
                        Query::Ask(..) => 0,
                    }))
            })
            .map(u16::count_ones)
            .sum();
        format!(
            "{}, {}, {}, {} set",
            plural(self.tests.len(), "test"),
            plural(boards, "board"),
            plural(queries, "query"),
            plural(cells as usize, "cell")
        )
    }

    fn judge(input: &[u8], out: &mut Vec<u8>) -> Result<(), JudgeError> {
        judge::pshtbrth::run(input, out)
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
    use rand::SeedableRng as _;

    /// The last case is the statement's largest input, its ranges over
    /// most of the row: a solution that XORs each range board by board
    /// meets its worst case there.
    #[test]
    fn the_last_case_is_the_largest_with_long_ranges() {
        let gen = Gen {
            size: 1000,
            max_coord: 0,
            edge: None,
            layouts: false,
            full: true,
        };
        for seed in 0..5 {
            let case = Pshtbrth::generate(&mut StdRng::seed_from_u64(seed), &gen);
            assert_eq!(case.tests.len(), 5);
            for test in &case.tests {
                assert_eq!((test.boards.len(), test.queries.len()), (1000, 1000));
                let spans: Vec<u32> = (test.queries.iter())
                    .filter_map(|query| match *query {
                        Query::Ask(left, right) => Some(right - left + 1),
                        Query::Set(..) => None,
                    })
                    .collect();
                assert!(spans.len() > 800, "{} ranges", spans.len());
                assert!(spans.iter().all(|&span| span >= 750), "{spans:?}");
            }
        }
    }

    #[test]
    fn dropping_boards_remaps_queries() {
        let test = Row {
            boards: vec![1, 2, 3, 4],
            queries: vec![Query::Ask(1, 4), Query::Ask(2, 3), Query::Set(4, 9)],
        };
        let dropped = Pshtbrth::drop_boards(&test, &(1..3)).unwrap();
        assert_eq!(dropped.boards, vec![1, 4]);
        assert_eq!(dropped.queries, vec![Query::Ask(1, 2), Query::Set(2, 9)]);
        let dropped = Pshtbrth::drop_boards(&test, &(0..1)).unwrap();
        assert_eq!(
            dropped.queries,
            vec![Query::Ask(1, 3), Query::Ask(1, 2), Query::Set(3, 9)]
        );
    }
}
