//! The four problems' test cases for `grundy check`: a structure per
//! problem that generates random valid inputs, renders them in a layout the
//! judges accept, lists the one-step reductions ([`Edit`]s) the shrinker
//! tries, and reads a judge-validated file back (for `--replay`).
//!
//! Every edit keeps the input valid (counts stay at least 1, query indices
//! are remapped when boards go, impassable cells stay distinct and never
//! under a start): `apply` returns `None` rather than an invalid case. The
//! list of edits of a case is what "one element" means when the report says
//! the shrunk case is 1-minimal: dropping any one test, board, query, row,
//! column, impassable cell or start, clearing any one cell, lowering any one
//! number, or making the whitespace plainer.

use std::collections::HashSet;
use std::ops::Range;

use grundy_cli::input::Scanner;
use grundy_cli::judge::{self, JudgeError};
use rand::rngs::StdRng;
use rand::RngExt as _;

/// What a generated case should look like.
#[derive(Clone, Copy, Debug)]
pub struct Gen {
    /// The most boards, queries, cells or map sides, summed over tests.
    pub size: usize,
    /// The largest coordinate (`gridgame`).
    pub max_coord: u32,
    /// Which edge case to force, if any (an index into the problem's list).
    pub edge: Option<usize>,
    /// Whether whitespace variants may be generated.
    pub layouts: bool,
}

/// A whitespace variant the judges accept (any whitespace between tokens).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Layout {
    /// `\r\n` line ends.
    pub crlf: bool,
    /// Extra blank lines (some holding spaces).
    pub blank_lines: bool,
    /// Tabs and runs of spaces between tokens on a line.
    pub wide: bool,
    /// No line end after the last line.
    pub no_final_newline: bool,
}

impl Layout {
    fn random(rng: &mut StdRng, allowed: bool) -> Layout {
        if !allowed || rng.random_bool(0.75) {
            return Layout::default();
        }
        loop {
            let layout = Layout {
                crlf: rng.random_bool(0.5),
                blank_lines: rng.random_bool(0.5),
                wide: rng.random_bool(0.5),
                no_final_newline: rng.random_bool(0.5),
            };
            if layout != Layout::default() {
                return layout;
            }
        }
    }

    /// The edits that turn one variant off.
    fn edits(self) -> Vec<Edit> {
        let mut edits = Vec::new();
        for (on, flag) in [
            (self.crlf, 0),
            (self.blank_lines, 1),
            (self.wide, 2),
            (self.no_final_newline, 3),
        ] {
            if on {
                edits.push(Edit::Plain(flag));
            }
        }
        edits
    }

    fn without(mut self, flag: u8) -> Layout {
        match flag {
            0 => self.crlf = false,
            1 => self.blank_lines = false,
            2 => self.wide = false,
            _ => self.no_final_newline = false,
        }
        self
    }

    /// The variants in words, or `None` for the plain layout.
    pub fn describe(self) -> Option<String> {
        let words: Vec<&str> = [
            (self.crlf, "CRLF line ends"),
            (self.blank_lines, "extra blank lines"),
            (self.wide, "tabs and runs of spaces"),
            (self.no_final_newline, "no final line end"),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .map(|&(_, word)| word)
        .collect();
        (!words.is_empty()).then(|| words.join(", "))
    }
}

/// Writes tokens and lines in a [`Layout`].
struct Text {
    buf: Vec<u8>,
    layout: Layout,
    at_line_start: bool,
    lines: usize,
}

impl Text {
    fn new(layout: Layout) -> Text {
        Text {
            buf: Vec::new(),
            layout,
            at_line_start: true,
            lines: 0,
        }
    }

    fn token(&mut self, token: impl std::fmt::Display) {
        if !self.at_line_start {
            self.buf.extend_from_slice(if self.layout.wide {
                if self.lines % 2 == 0 {
                    b"\t"
                } else {
                    b"   "
                }
            } else {
                b" "
            });
        }
        let _ = std::io::Write::write_fmt(&mut self.buf, format_args!("{token}"));
        self.at_line_start = false;
    }

    fn newline(&mut self) {
        if self.layout.wide && self.lines % 3 == 1 {
            self.buf.extend_from_slice(b" \t");
        }
        self.buf
            .extend_from_slice(if self.layout.crlf { b"\r\n" } else { b"\n" });
        self.at_line_start = true;
        self.lines += 1;
        if self.layout.blank_lines && self.lines % 3 == 0 {
            self.blank();
        }
    }

    fn line(&mut self, tokens: &[&dyn std::fmt::Display]) {
        for token in tokens {
            self.token(token);
        }
        self.newline();
    }

    fn blank(&mut self) {
        if self.layout.wide {
            self.buf.extend_from_slice(b"  ");
        }
        self.buf
            .extend_from_slice(if self.layout.crlf { b"\r\n" } else { b"\n" });
    }

    fn finish(mut self) -> Vec<u8> {
        if self.layout.no_final_newline {
            while self.buf.last().is_some_and(u8::is_ascii_whitespace) {
                self.buf.pop();
            }
        }
        self.buf
    }
}

/// A one-step reduction of a case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Edit {
    /// Turn off one whitespace variant (see [`Layout::edits`]).
    Plain(u8),
    /// Drop these tests.
    DropTests(Range<usize>),
    /// Drop these items of one list of a test.
    Drop {
        test: usize,
        list: List,
        range: Range<usize>,
    },
    /// Keep only these cells of a board, clear the others (`item`: a
    /// board, then the boards of the replacement queries in order).
    Keep {
        test: usize,
        item: usize,
        cells: u16,
    },
    /// Close one open map cell.
    Clear { test: usize, cell: u16 },
    /// Shrink a range query: raise its L (`left`) or lower its R.
    Narrow {
        test: usize,
        query: usize,
        left: bool,
    },
    /// Subtract the smallest x (`y`: y) from every x of a test.
    Shift { test: usize, y: bool },
    /// Lower one coordinate of an impassable cell or a start.
    Lower {
        test: usize,
        list: List,
        item: usize,
        y: bool,
        to: u32,
    },
}

/// The lists of a test that edits drop from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum List {
    Boards,
    Queries,
    Cells,
    Rows,
    Cols,
}

impl Edit {
    /// Whether this edit removes more than one element (the shrinker starts
    /// over after one of those is taken).
    pub fn is_coarse(&self) -> bool {
        match self {
            Edit::DropTests(range) | Edit::Drop { range, .. } => range.len() > 1,
            Edit::Shift { .. } => true,
            _ => false,
        }
    }
}

/// Ranges to drop from a list of `len`: halves, quarters, ... single
/// items; `coarse`: halves and quarters only.
fn chunks(len: usize, coarse: bool) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut size = len.div_ceil(2).max(1);
    loop {
        if coarse && size * 4 < len {
            break;
        }
        out.extend((0..len).step_by(size).map(|s| s..(s + size).min(len)));
        if size == 1 {
            break;
        }
        size = size.div_ceil(2);
    }
    out
}

/// The cells of a board to keep: all but half of its cells, only half of
/// them, ..., all but one, only one (the smaller boards first at each
/// level).
fn board_cuts(mask: u16) -> Vec<u16> {
    let bits: Vec<u16> = (0..16)
        .filter(|b| mask >> b & 1 == 1)
        .map(|b| 1 << b)
        .collect();
    let mut out = Vec::new();
    for range in chunks(bits.len(), false) {
        let chunk = bits[range].iter().fold(0, |m, &b| m | b);
        let rest = mask & !chunk;
        let pair = if chunk.count_ones() <= rest.count_ones() {
            [chunk, rest]
        } else {
            [rest, chunk]
        };
        for keep in pair {
            if keep != mask && !out.contains(&keep) {
                out.push(keep);
            }
        }
    }
    out
}

/// `v - d` for `d` = `v`, `v/2`, `v/4`, ..., 1: the values an edit lowers a
/// number to, the largest step first.
fn lowerings(v: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let mut d = v;
    while d > 0 {
        out.push(v - d);
        d /= 2;
    }
    out.dedup();
    out
}

/// Whether a test list (of tests, boards, ...) may lose `range`: at least
/// one item must stay.
fn keeps_one(len: usize, range: &Range<usize>) -> bool {
    range.len() < len
}

/// One problem's test case.
pub trait Case: Clone + Send + Sync + std::fmt::Debug + 'static {
    /// The problem's name on the command line.
    const NAME: &'static str;
    /// The two answer words, first player wins first.
    const WORDS: [&'static str; 2];
    /// The time limit of the statement, in seconds.
    const TIME_LIMIT: f64;
    /// The edge cases [`Case::generate`] can be asked for, by name.
    const EDGES: &'static [&'static str];
    /// What "one element" means for this problem, for the 1-minimal claim.
    const ELEMENTS: &'static str;

    /// A random case within the problem's constraints.
    fn generate(rng: &mut StdRng, gen: &Gen) -> Self;
    /// The input text.
    fn render(&self) -> Vec<u8>;
    /// The one-step reductions to try, coarse ones first.
    fn edits(&self, coarse: bool) -> Vec<Edit>;
    /// The case after `edit`, or `None` if it would not be valid.
    fn apply(&self, edit: &Edit) -> Option<Self>;
    /// The case an input holds; `input` was accepted by the judge.
    fn read(input: &[u8]) -> Option<Self>;
    /// Its size in words.
    fn size(&self) -> String;
    /// The judge's answers.
    fn judge(input: &[u8], out: &mut Vec<u8>) -> Result<(), JudgeError>;
    /// The whitespace variant.
    fn layout(&self) -> Layout;
}

/// Reads the numbers and tokens of an input the judge accepted.
struct Reader<'a>(Scanner<'a>);

impl<'a> Reader<'a> {
    fn new(input: &'a [u8]) -> Reader<'a> {
        Reader(Scanner::new(judge::skip_bom(input)))
    }
    fn num(&mut self) -> Option<u64> {
        self.0.u64_in("a number", 0, u64::MAX).ok()
    }
    fn token(&mut self) -> Option<&'a [u8]> {
        self.0.token()
    }
    /// A pshtbrth board: 4 tokens of 4 cells, bit `4 * row + col`.
    fn board(&mut self) -> Option<u16> {
        let mut mask = 0u16;
        for row in 0..4 {
            let token = self.token()?;
            for (col, &b) in token.iter().enumerate() {
                if b == b'1' {
                    mask |= 1 << (4 * row + col);
                }
            }
        }
        Some(mask)
    }
}

fn random_board(rng: &mut StdRng, density: f64) -> u16 {
    (0..16).fold(0u16, |mask, bit| {
        mask | (u16::from(rng.random_bool(density)) << bit)
    })
}

fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

// ---------------------------------------------------------------- gfg

/// `gfg`: one 4 x 4 board.
#[derive(Clone, Debug)]
pub struct Gfg {
    cells: u16,
    layout: Layout,
}

impl Case for Gfg {
    const NAME: &'static str = "gfg";
    const WORDS: [&'static str; 2] = ["A", "B"];
    const TIME_LIMIT: f64 = 1.0;
    const EDGES: &'static [&'static str] = &["empty board", "full board", "one cell"];
    const ELEMENTS: &'static str = "clearing any one cell or making the whitespace plainer";

    fn generate(rng: &mut StdRng, gen: &Gen) -> Gfg {
        let cells = match gen.edge {
            Some(0) => 0,
            Some(1) => u16::MAX,
            Some(_) => 1 << rng.random_range(0..16),
            None => {
                let density = rng.random_range(0.1..0.9);
                random_board(rng, density)
            }
        };
        Gfg {
            cells,
            layout: Layout::random(rng, gen.layouts),
        }
    }

    fn render(&self) -> Vec<u8> {
        let mut text = Text::new(self.layout);
        for row in 0..4 {
            for col in 0..4 {
                text.token(self.cells >> (4 * row + col) & 1);
            }
            text.newline();
        }
        text.finish()
    }

    fn edits(&self, _coarse: bool) -> Vec<Edit> {
        let mut edits: Vec<Edit> = board_cuts(self.cells)
            .into_iter()
            .map(|cells| Edit::Keep {
                test: 0,
                item: 0,
                cells,
            })
            .collect();
        edits.extend(self.layout.edits());
        edits
    }

    fn apply(&self, edit: &Edit) -> Option<Gfg> {
        let mut next = self.clone();
        match *edit {
            Edit::Plain(flag) => next.layout = self.layout.without(flag),
            Edit::Keep { cells, .. } => next.cells &= cells,
            _ => return None,
        }
        Some(next)
    }

    fn read(input: &[u8]) -> Option<Gfg> {
        let mut reader = Reader::new(input);
        let mut cells = 0;
        for bit in 0..16 {
            if reader.token()? == b"1" {
                cells |= 1 << bit;
            }
        }
        Some(Gfg {
            cells,
            layout: Layout::default(),
        })
    }

    fn size(&self) -> String {
        format!(
            "one 4 x 4 board, {} set",
            plural(self.cells.count_ones() as usize, "cell")
        )
    }

    fn judge(input: &[u8], out: &mut Vec<u8>) -> Result<(), JudgeError> {
        judge::gfg::run(input, out)
    }

    fn layout(&self) -> Layout {
        self.layout
    }
}

// ---------------------------------------------------------------- pshtbrth

/// A `pshtbrth` query, 1-based as in the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Query {
    Ask(u32, u32),
    Set(u32, u16),
}

#[derive(Clone, Debug)]
struct Row {
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

    fn generate(rng: &mut StdRng, gen: &Gen) -> Pshtbrth {
        let size = gen.size.max(1);
        let tests = match gen.edge {
            Some(5) => 5,
            Some(0) => 1,
            _ => rng.random_range(1..=size.clamp(1, 3)),
        };
        let per_test = (size / tests).max(1);
        let tests = (0..tests)
            .map(|_| {
                let n = if gen.edge == Some(0) {
                    1
                } else {
                    rng.random_range(1..=per_test)
                };
                let m = rng.random_range(1..=per_test);
                let density = match gen.edge {
                    Some(1) => 0.0,
                    Some(2) => 1.0,
                    _ => [0.15, 0.3, 0.5, 0.7][rng.random_range(0..4)],
                };
                let asks = match gen.edge {
                    Some(3) => 1.0,
                    Some(4) => 0.0,
                    _ => rng.random_range(0.3..0.95),
                };
                let boards = (0..n).map(|_| random_board(rng, density)).collect();
                let queries = (0..m)
                    .map(|_| {
                        if rng.random_bool(asks) {
                            let a = rng.random_range(1..=n as u32);
                            let b = rng.random_range(1..=n as u32);
                            Query::Ask(a.min(b), a.max(b))
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
            for (i, &mask) in test.boards.iter().enumerate() {
                board(&mut text, mask);
                // The statement's layout: a blank line between boards.
                if i + 1 < test.boards.len() {
                    text.blank();
                }
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
        let mut edits: Vec<Edit> = chunks(self.tests.len(), coarse)
            .into_iter()
            .filter(|r| keeps_one(self.tests.len(), r))
            .map(Edit::DropTests)
            .collect();
        for (t, test) in self.tests.iter().enumerate() {
            for list in [List::Boards, List::Queries] {
                let len = match list {
                    List::Boards => test.boards.len(),
                    _ => test.queries.len(),
                };
                edits.extend(
                    chunks(len, coarse)
                        .into_iter()
                        .filter(|r| keeps_one(len, r))
                        .map(|range| Edit::Drop {
                            test: t,
                            list,
                            range,
                        }),
                );
            }
        }
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

    fn apply(&self, edit: &Edit) -> Option<Pshtbrth> {
        let mut next = self.clone();
        match edit {
            Edit::Plain(flag) => next.layout = self.layout.without(*flag),
            Edit::DropTests(range) => {
                if !keeps_one(self.tests.len(), range) {
                    return None;
                }
                next.tests.drain(range.clone());
            }
            Edit::Drop { test, list, range } => {
                let row = &self.tests[*test];
                next.tests[*test] = match list {
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
                let row = &mut next.tests[test];
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
                next.tests[test].queries[query] = if left {
                    Query::Ask(l + 1, r)
                } else {
                    Query::Ask(l, r - 1)
                };
            }
            _ => return None,
        }
        Some(next)
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
            plural(queries, "query").replace("querys", "queries"),
            plural(cells as usize, "cell")
        )
    }

    fn judge(input: &[u8], out: &mut Vec<u8>) -> Result<(), JudgeError> {
        judge::pshtbrth::run(input, out)
    }

    fn layout(&self) -> Layout {
        self.layout
    }
}

// ---------------------------------------------------------------- caos3

/// `caos3`: maps of open (`^`) and wall (`#`) cells.
#[derive(Clone, Debug)]
pub struct Caos3 {
    maps: Vec<Vec<Vec<bool>>>,
    layout: Layout,
}

impl Case for Caos3 {
    const NAME: &'static str = "caos3";
    const WORDS: [&'static str; 2] = ["Asuna", "Kirito"];
    const TIME_LIMIT: f64 = 1.0;
    const EDGES: &'static [&'static str] = &[
        "a 1 x 1 map",
        "all walls",
        "all open",
        "a single test of the largest side",
        "ten tests",
    ];
    const ELEMENTS: &'static str =
        "dropping any one test, row or column, closing any one open cell, \
         or making the whitespace plainer";

    fn generate(rng: &mut StdRng, gen: &Gen) -> Caos3 {
        let side = gen.size.clamp(1, judge::caos3::MAX_SIDE);
        let tests = match gen.edge {
            Some(0 | 3) => 1,
            Some(4) => 10,
            _ => rng.random_range(1..=3),
        };
        let maps = (0..tests)
            .map(|_| {
                let (rows, cols) = match gen.edge {
                    Some(0) => (1, 1),
                    Some(3) => (side, side),
                    _ => (rng.random_range(1..=side), rng.random_range(1..=side)),
                };
                let open = match gen.edge {
                    Some(1) => 0.0,
                    Some(2) => 1.0,
                    _ => [0.7, 0.85, 0.95, 1.0][rng.random_range(0..4)],
                };
                (0..rows)
                    .map(|_| (0..cols).map(|_| rng.random_bool(open)).collect())
                    .collect()
            })
            .collect();
        Caos3 {
            maps,
            layout: Layout::random(rng, gen.layouts),
        }
    }

    fn render(&self) -> Vec<u8> {
        let mut text = Text::new(self.layout);
        text.line(&[&self.maps.len()]);
        for map in &self.maps {
            text.line(&[&map.len(), &map[0].len()]);
            for row in map {
                let row: String = row.iter().map(|&o| if o { '^' } else { '#' }).collect();
                text.line(&[&row]);
            }
        }
        text.finish()
    }

    fn edits(&self, coarse: bool) -> Vec<Edit> {
        let mut edits: Vec<Edit> = chunks(self.maps.len(), coarse)
            .into_iter()
            .filter(|r| keeps_one(self.maps.len(), r))
            .map(Edit::DropTests)
            .collect();
        for (t, map) in self.maps.iter().enumerate() {
            for (list, len) in [(List::Rows, map.len()), (List::Cols, map[0].len())] {
                edits.extend(
                    chunks(len, coarse)
                        .into_iter()
                        .filter(|r| keeps_one(len, r))
                        .map(|range| Edit::Drop {
                            test: t,
                            list,
                            range,
                        }),
                );
            }
        }
        if coarse {
            return edits;
        }
        for (t, map) in self.maps.iter().enumerate() {
            let cols = map[0].len();
            for (r, row) in map.iter().enumerate() {
                for (c, &open) in row.iter().enumerate() {
                    if open {
                        edits.push(Edit::Clear {
                            test: t,
                            cell: (r * cols + c) as u16,
                        });
                    }
                }
            }
        }
        edits.extend(self.layout.edits());
        edits
    }

    fn apply(&self, edit: &Edit) -> Option<Caos3> {
        let mut next = self.clone();
        match edit {
            Edit::Plain(flag) => next.layout = self.layout.without(*flag),
            Edit::DropTests(range) => {
                if !keeps_one(self.maps.len(), range) {
                    return None;
                }
                next.maps.drain(range.clone());
            }
            Edit::Drop { test, list, range } => {
                let map = &mut next.maps[*test];
                match list {
                    List::Rows if keeps_one(map.len(), range) => {
                        map.drain(range.clone());
                    }
                    List::Cols if keeps_one(map[0].len(), range) => {
                        for row in map.iter_mut() {
                            row.drain(range.clone());
                        }
                    }
                    _ => return None,
                }
            }
            &Edit::Clear { test, cell, .. } => {
                let map = &mut next.maps[test];
                let cols = map[0].len();
                map[usize::from(cell) / cols][usize::from(cell) % cols] = false;
            }
            _ => return None,
        }
        Some(next)
    }

    fn read(input: &[u8]) -> Option<Caos3> {
        let mut reader = Reader::new(input);
        let maps = (0..reader.num()?)
            .map(|_| {
                let (rows, _cols) = (reader.num()?, reader.num()?);
                (0..rows)
                    .map(|_| Some(reader.token()?.iter().map(|&b| b == b'^').collect()))
                    .collect::<Option<_>>()
            })
            .collect::<Option<_>>()?;
        Some(Caos3 {
            maps,
            layout: Layout::default(),
        })
    }

    fn size(&self) -> String {
        let open: usize = self.maps.iter().flatten().flatten().filter(|&&o| o).count();
        let candidates: usize = self
            .maps
            .iter()
            .map(|map| judge::caos3::candidates(map).len())
            .sum();
        let shapes: Vec<String> = self
            .maps
            .iter()
            .map(|m| format!("{} x {}", m.len(), m[0].len()))
            .collect();
        format!(
            "{} ({}), {} open, {}",
            plural(self.maps.len(), "test"),
            shapes.join(", "),
            plural(open, "cell"),
            plural(candidates, "candidate")
        )
    }

    fn judge(input: &[u8], out: &mut Vec<u8>) -> Result<(), JudgeError> {
        judge::caos3::run(input, out)
    }

    fn layout(&self) -> Layout {
        self.layout
    }
}

// ---------------------------------------------------------------- gridgame

#[derive(Clone, Debug)]
struct Field {
    cells: Vec<(u32, u32)>,
    starts: Vec<(u32, u32)>,
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
         one coordinate, or making the whitespace plainer";

    fn generate(rng: &mut StdRng, gen: &Gen) -> Gridgame {
        let size = gen.size.max(1);
        let max = gen.max_coord;
        let tests = match gen.edge {
            Some(3) => size.min(judge::gridgame::MAX_TESTS),
            Some(0) => 1,
            _ => rng.random_range(1..=size.clamp(1, 3)),
        };
        let per_test = (size / tests).max(1);
        let tests = (0..tests)
            .map(|_| {
                let (n, q) = if gen.edge == Some(3) {
                    (1, 1)
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

    fn edits(&self, coarse: bool) -> Vec<Edit> {
        let mut edits: Vec<Edit> = chunks(self.tests.len(), coarse)
            .into_iter()
            .filter(|r| keeps_one(self.tests.len(), r))
            .map(Edit::DropTests)
            .collect();
        for (t, test) in self.tests.iter().enumerate() {
            for (list, len) in [
                (List::Cells, test.cells.len()),
                (List::Queries, test.starts.len()),
            ] {
                edits.extend(
                    chunks(len, coarse)
                        .into_iter()
                        .filter(|r| keeps_one(len, r))
                        .map(|range| Edit::Drop {
                            test: t,
                            list,
                            range,
                        }),
                );
            }
        }
        if coarse {
            return edits;
        }
        for t in 0..self.tests.len() {
            edits.push(Edit::Shift { test: t, y: false });
            edits.push(Edit::Shift { test: t, y: true });
        }
        let points: usize = self
            .tests
            .iter()
            .map(|t| t.cells.len() + t.starts.len())
            .sum();
        if points <= 100 {
            for (t, test) in self.tests.iter().enumerate() {
                for (list, points) in [(List::Cells, &test.cells), (List::Queries, &test.starts)] {
                    for (item, &(x, y)) in points.iter().enumerate() {
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

    fn apply(&self, edit: &Edit) -> Option<Gridgame> {
        let mut next = self.clone();
        match edit {
            Edit::Plain(flag) => next.layout = self.layout.without(*flag),
            Edit::DropTests(range) => {
                if !keeps_one(self.tests.len(), range) {
                    return None;
                }
                next.tests.drain(range.clone());
            }
            Edit::Drop { test, list, range } => {
                let field = &mut next.tests[*test];
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
                let field = &mut next.tests[test];
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
            &Edit::Lower {
                test,
                list,
                item,
                y,
                to,
            } => {
                let field = &mut next.tests[test];
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
        Some(next)
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng as _;

    /// Every generated case, and every edit of it, is accepted by the judge,
    /// and reads back to the same input.
    fn generated_cases_are_valid<C: Case>() {
        let mut rng = StdRng::seed_from_u64(7);
        for i in 0..300 {
            let gen = Gen {
                size: [1, 2, 5, 30, 200][i % 5],
                max_coord: [1_000_000_000, 3][i % 2],
                edge: (i % 3 == 0).then_some(i / 3 % C::EDGES.len()),
                layouts: true,
            };
            let case = C::generate(&mut rng, &gen);
            let input = case.render();
            let mut out = Vec::new();
            C::judge(&input, &mut out)
                .unwrap_or_else(|err| panic!("{} {gen:?}: {err}\n{case:?}", C::NAME));
            let mut plain = C::read(&input).expect("reads back");
            for flag in 0..4 {
                plain = plain.apply(&Edit::Plain(flag)).unwrap();
            }
            assert_eq!(
                C::read(&plain.render()).unwrap().render(),
                plain.render(),
                "{}",
                C::NAME
            );
            if gen.size <= 30 {
                for edit in case.edits(false) {
                    if let Some(smaller) = case.apply(&edit) {
                        C::judge(&smaller.render(), &mut Vec::new())
                            .unwrap_or_else(|err| panic!("{} {edit:?}: {err}\n{case:?}", C::NAME));
                    }
                }
            }
        }
    }

    #[test]
    fn every_problem_generates_valid_inputs() {
        generated_cases_are_valid::<Gfg>();
        generated_cases_are_valid::<Pshtbrth>();
        generated_cases_are_valid::<Caos3>();
        generated_cases_are_valid::<Gridgame>();
    }

    #[test]
    fn chunks_go_from_halves_to_single_items() {
        assert_eq!(chunks(1, false), vec![0..1]);
        assert_eq!(chunks(3, false), vec![0..2, 2..3, 0..1, 1..2, 2..3]);
        assert_eq!(chunks(8, true), vec![0..4, 4..8, 0..2, 2..4, 4..6, 6..8]);
        assert_eq!(lowerings(5), vec![0, 3, 4]);
        assert_eq!(
            board_cuts(0b1011),
            vec![0b1000, 0b0011, 0b0001, 0b1010, 0b0010, 0b1001]
        );
        assert_eq!(lowerings(0), Vec::<u32>::new());
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
