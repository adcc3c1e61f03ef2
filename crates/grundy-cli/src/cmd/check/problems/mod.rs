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

use std::ops::Range;

use grundy_cli::judge::{self, JudgeError};
use grundy_report::parse::Scanner;
use rand::rngs::StdRng;
use rand::RngExt as _;

mod caos3;
mod gfg;
mod gridgame;
mod pshtbrth;

pub use caos3::Caos3;
pub use gfg::Gfg;
pub use gridgame::Gridgame;
pub use pshtbrth::Pshtbrth;

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
    /// The run's last case: one test whose every count is the size (five
    /// such tests for pshtbrth, whose statement bounds each test), so that
    /// a run reaches the largest indices its sizes allow (a solution that
    /// fails past board 65,536 is caught at the default 10^5).
    pub full: bool,
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
    /// Lower every x (`y`: y) of a test equal to `from` to `to`: points
    /// that share a column (a row) keep sharing it, which lowering one
    /// coordinate at a time would break.
    LowerAll {
        test: usize,
        y: bool,
        from: u32,
        to: u32,
    },
    /// Lower every x (`y`: y) of a test that is at least `at` by `at - to`:
    /// the gap below `at` closes to end at `to`, and the coordinates keep
    /// their order, so points that share a column (a row) keep sharing it
    /// and points on either side of another stay there.
    CloseGap {
        test: usize,
        y: bool,
        at: u32,
        to: u32,
    },
    /// Lower both coordinates of one impassable cell or start by `by`: the
    /// point slides along its diagonal (where the losing cells of a grid
    /// without impassable cells lie).
    LowerBoth {
        test: usize,
        list: List,
        item: usize,
        by: u32,
    },
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
            Edit::Shift { .. } | Edit::LowerAll { .. } | Edit::CloseGap { .. } => true,
            _ => false,
        }
    }
}

/// Ranges to drop from a list of `len`: halves, quarters, ... single
/// items; `coarse`: halves and quarters only.
fn chunks(len: usize, coarse: bool) -> Vec<Range<usize>> {
    chunk_levels(len, coarse).concat()
}

/// The ranges of [`chunks`], one level of sizes a vector: the halves, then
/// the quarters, and so on.
fn chunk_levels(len: usize, coarse: bool) -> Vec<Vec<Range<usize>>> {
    let mut out = Vec::new();
    let mut size = len.div_ceil(2).max(1);
    loop {
        if coarse && size * 4 < len {
            break;
        }
        out.push(
            (0..len)
                .step_by(size)
                .map(|s| s..(s + size).min(len))
                .collect(),
        );
        if size == 1 {
            break;
        }
        size = size.div_ceil(2);
    }
    out
}

/// The drops of a case of `tests` tests whose test `t` has a list `list`
/// of `len` items, for each `(t, list, len)` of `lists`: coarsest first
/// across all of them (the halves of the tests and of every list, then
/// their quarters, and so on to single items), each keeping at least one
/// item. By levels, as delta debugging goes: a long list's single items
/// (70,000 boards) come after every other list's halves, so one failing
/// query among thousands is reached in a few dozen runs rather than after
/// every board was dropped alone.
fn drops(tests: usize, lists: &[(usize, List, usize)], coarse: bool) -> Vec<Edit> {
    let test_levels = chunk_levels(tests, coarse);
    let list_levels: Vec<Vec<Vec<Range<usize>>>> = lists
        .iter()
        .map(|&(_, _, len)| chunk_levels(len, coarse))
        .collect();
    let depth = list_levels
        .iter()
        .map(Vec::len)
        .chain([test_levels.len()])
        .max()
        .unwrap_or(0);
    let mut edits = Vec::new();
    for level in 0..depth {
        if let Some(ranges) = test_levels.get(level) {
            edits.extend(
                ranges
                    .iter()
                    .filter(|r| keeps_one(tests, r))
                    .cloned()
                    .map(Edit::DropTests),
            );
        }
        for (&(test, list, len), levels) in lists.iter().zip(&list_levels) {
            if let Some(ranges) = levels.get(level) {
                edits.extend(
                    ranges
                        .iter()
                        .filter(|r| keeps_one(len, r))
                        .map(|range| Edit::Drop {
                            test,
                            list,
                            range: range.clone(),
                        }),
                );
            }
        }
    }
    edits
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
    /// Whether its inputs hold lists (tests, boards, queries, cells),
    /// which the shrink halves and quarters: gfg's one board holds none.
    const HAS_LISTS: bool = true;

    /// The one-step reductions [`Case::edits`] tries on this case, for its
    /// 1-minimal claim: [`Case::ELEMENTS`], unless the case's size leaves
    /// some out.
    fn elements(&self) -> std::borrow::Cow<'static, str> {
        Self::ELEMENTS.into()
    }

    /// The case's tests (items of [`Edit::DropTests`]).
    type Test;

    /// A random case within the problem's constraints.
    fn generate(rng: &mut StdRng, gen: &Gen) -> Self;
    /// The input text.
    fn render(&self) -> Vec<u8>;
    /// The one-step reductions to try, coarse ones first.
    fn edits(&self, coarse: bool) -> Vec<Edit>;
    /// The case after `edit`, or `None` if it would not be valid: the edits
    /// every problem shares (plainer whitespace, fewer tests) here, the
    /// others by [`Case::edit`].
    fn apply(&self, edit: &Edit) -> Option<Self> {
        let mut next = self.clone();
        match edit {
            Edit::Plain(flag) => *next.layout_mut() = self.layout().without(*flag),
            Edit::DropTests(range) => {
                let tests = next.tests_mut()?;
                if !keeps_one(tests.len(), range) {
                    return None;
                }
                tests.drain(range.clone());
            }
            _ => next.edit(edit)?,
        }
        Some(next)
    }
    /// Makes an edit of this problem's own in place; `None` if the result
    /// would not be valid (then the case is dropped) or the edit is not one
    /// of this problem's.
    fn edit(&mut self, edit: &Edit) -> Option<()>;
    /// The tests, for a problem whose input holds several.
    fn tests_mut(&mut self) -> Option<&mut Vec<Self::Test>>;
    /// The whitespace variant, to change.
    fn layout_mut(&mut self) -> &mut Layout;
    /// The case an input holds; `input` was accepted by the judge.
    fn read(input: &[u8]) -> Option<Self>;
    /// Its size in words.
    fn size(&self) -> String;
    /// Where it passes the statement's limits, which this problem's judge
    /// does not enforce (a replayed file; generated cases stay within).
    fn past_the_statement(&self) -> Option<String> {
        None
    }
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
    grundy_report::words::count(n as u64, word)
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
                full: i % 7 == 0,
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
            // Every edit of the small cases (each is judged: the largest
            // caos3 case has thousands of edits).
            if gen.size <= 30 && input.len() <= 4096 {
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
}
