//! Judge format `pshtbrth`: `T` tests; each has `N M`, then `N` 4 x 4
//! rectangle-clearing boards (4 rows of 4 characters `0`/`1`), then `M`
//! queries: `1 L R` asks who wins the sum of boards `L..=R` (1-based), and
//! `2 P` followed by a board replaces board `P`. Each `1` query prints
//! `Pishty` (the first player wins) or `Lotsy`.
//!
//! Tokens follow the rule of every judge ([`crate::judge`]): any whitespace
//! between them (blank lines after boards or not, CRLF, tabs); numbers with
//! any leading zeros (the query type too: `01` is 1); a board row is one
//! token of exactly 4 cells. `T`, `N` and `M` may exceed the original
//! limits (5, 10^5, 10^5) up to [`MAX_COUNT`]: the engine scales. Input
//! after the last test is an error, as is any index outside
//! `1 <= L <= R <= N`, `1 <= P <= N`.
//!
//! Each board is read as a 16-bit mask and looked up in the 65,536-entry
//! table of 4 x 4 values (the engine's, embedded at build time). The values
//! are kept as the engine's [`XorPrefixes`], which answers a range and makes
//! a replacement in `O(1)` each (a Fenwick tree's `O(log N)` walks, spread
//! over the tree, are what would cost).
//!
//! The parser is hand-written, because it is the hot path (about 21 MB at
//! the largest), on the judges' shared byte scanner
//! (`judge/scan.rs`): this module adds the board and query tokens.
//! Measured choices, each a few percent or more (`cargo bench -p
//! grundy-bench --bench judge_input`):
//! - a file (`grundy judge pshtbrth FILE`, or standard input when it is a
//!   file) is mapped and parsed in place ([`run`]): no copy at all, where
//!   the kernel's copy is a large part of the time;
//! - other input streams through one buffer of [`CHUNK`] bytes rather than
//!   being read whole ([`run_reader`]): the buffer stays in cache, and the
//!   process does not fault in 21 MB of fresh pages (about a fifth of the
//!   time when whole). Both go through one parser, generic over where the
//!   bytes are;
//! - a board in the usual layout (rows ending their lines) is checked and
//!   packed from three 64-bit words, each word's cells gathered by one
//!   multiply (about 1 ms of 23 against gathering row by row: `perf stat
//!   -r 40 -e task-clock grundy judge pshtbrth FILE`), a row from one word
//!   (ASCII `0`/`1` differ from `"0000"` only in their low bits), other
//!   layouts row by row;
//! - a number of up to 7 digits is read from one 64-bit word; longer ones,
//!   and every token cut by the end of the buffer, take a slow path out of
//!   line (`#[cold]`), which keeps the hot loop small;
//! - line ends are not counted while parsing: they are counted (with
//!   `memchr`'s vectorised count) in each consumed part of the buffer when
//!   it is dropped (streamed), and up to the error when one is reported;
//! - board values are looked up apart from the parsing, so that the
//!   table loads overlap; a query is run as soon as it is parsed, which
//!   branches once on its type: a batch parsed first and run after would
//!   branch twice, in an order no predictor can learn (about 12% of the
//!   time on the largest shared input, docs/benchmarks.md);
//! - the answers go into one buffer, written out every
//!   [`crate::judge::FLUSH_AT`] bytes.

use std::io::{Read, Write};

use grundy::sum::XorPrefixes;
use grundy_report::parse::{ParseError, ParseErrorKind};

use super::scan::{Reader, Source};
use super::{answering, Answers, JudgeError};

// The value of every 4 x 4 board, bit `4 * row + col`: the engine's table,
// compiled in by grundy-builtin rather than rebuilt on every run.
use grundy_builtin::TABLE_4X4 as VALUES;

/// How many bytes are read at a time.
pub const CHUNK: usize = 1 << 18;

/// The largest `T`, `N` or `M` accepted.
pub const MAX_COUNT: u64 = 10_000_000;

/// Answers every test of `input`, writing the answers to `out`: the input
/// is parsed in place (a mapped file is not copied).
///
/// # Errors
///
/// A missing or malformed token, an index out of range, or trailing input,
/// with its line and column: the answers to the queries before it are
/// written first. Or a failed write.
pub fn run(input: &[u8], out: impl Write) -> Result<(), JudgeError> {
    answering(out, |answers| {
        let mut reader = Reader::whole(input);
        reader.skip_bom();
        answer(&mut reader, answers)
    })
}

/// Answers every test read from `source`, `chunk` bytes at a time (any
/// size works; [`CHUNK`] is the fast one).
///
/// # Errors
///
/// As [`run`]; a read error is reported at the place it interrupted.
pub fn run_reader(source: impl Read, out: impl Write, chunk: usize) -> Result<(), JudgeError> {
    answering(out, |answers| {
        let mut reader = Reader::new(source, chunk);
        reader.skip_bom();
        answer(&mut reader, answers)
    })
}

fn answer<S: Source, W: Write>(
    reader: &mut Reader<S>,
    answers: &mut Answers<W>,
) -> Result<(), JudgeError> {
    let tests = reader.number("the number of tests T", 1, MAX_COUNT)?;
    let mut masks = Vec::new();
    let mut values = Vec::new();
    let mut prefixes = XorPrefixes::default();
    let mut scratch = [0; 8 * BATCH];
    for _ in 0..tests {
        let boards = reader.number("the number of boards N", 1, MAX_COUNT)?;
        let queries = reader.number("the number of queries M", 1, MAX_COUNT)?;
        masks.clear();
        for _ in 0..boards {
            masks.push(reader.board()? as u16);
        }
        // Looked up apart from the parsing, the table loads overlap.
        values.clear();
        values.extend(masks.iter().map(|&mask| VALUES[usize::from(mask)]));
        prefixes.rebuild(&values);
        // The answers of a batch of queries are gathered in `scratch`.
        let mut left_to_read = queries;
        while left_to_read > 0 {
            let size = left_to_read.min(BATCH as u64);
            left_to_read -= size;
            let mut failure = None;
            // Each answer is written as one 8-byte word and the end moved
            // by its length: no call to copy 6 or 7 bytes.
            let mut at = 0;
            for _ in 0..size {
                match reader.query(boards, &mut values) {
                    Ok(Op::Ask { left, right }) => {
                        let (word, len) = ANSWERS[usize::from(prefixes.range(left, right) != 0)];
                        scratch[at..at + 8].copy_from_slice(word);
                        at += len;
                    }
                    Ok(Op::Set { index, delta }) => {
                        // A board replaced by one of the same value changes
                        // no prefix.
                        if delta != 0 {
                            prefixes.change(index, delta);
                        }
                    }
                    Err(err) => {
                        failure = Some(err);
                        break;
                    }
                }
            }
            answers.buffer().extend_from_slice(&scratch[..at]);
            answers.flush_if_full()?;
            // The answers before a bad query are given, then the error.
            if let Some(err) = failure {
                return Err(err.into());
            }
        }
    }
    reader.skip_whitespace();
    if reader.pos < reader.end {
        return Err(reader.error(super::trailing_input(tests)).into());
    }
    Ok(reader.read_error()?)
}

/// How many queries are answered into `scratch` before it is copied to
/// the output buffer.
const BATCH: usize = 256;

/// The answers for a zero and a non-zero value, padded to 8 bytes, and
/// their lengths.
const ANSWERS: [(&[u8; 8], usize); 2] = [(b"Lotsy\n\0\0", 6), (b"Pishty\n\0", 7)];

/// A parsed query, 0-based.
#[derive(Clone, Copy, Debug)]
enum Op {
    /// Who wins on boards `left..right`.
    Ask { left: usize, right: usize },
    /// Board `index` changes its value by `delta` (XOR). The new value is
    /// looked up, and the old one replaced, as the query is parsed.
    Set { index: usize, delta: u8 },
}

/// The error of a query's `R` outside `L..=N` (`min` is `L`): below `L`
/// it says so, rather than a range that starts at `L`.
fn right_end_error(what: &str, value: String, min: u64, max: u64) -> ParseErrorKind {
    match value.parse::<u64>() {
        Ok(right) if right < min => ParseErrorKind::Invalid(format!(
            "{what} {value} is less than L {min}: a range L R needs L <= R"
        )),
        _ => ParseErrorKind::OutOfRange {
            what: what.to_owned(),
            value,
            min,
            max,
        },
    }
}

impl<S: Source> Reader<S> {
    /// One query, with its indices checked against `boards`; a
    /// replacement is made in `values` at once.
    #[inline(always)]
    fn query(&mut self, boards: u64, values: &mut [u8]) -> Result<Op, ParseError> {
        if self.query_type()? == 1 {
            let left = self.number("L", 1, boards)?;
            let right = self.number_or("R", left, boards, right_end_error)?;
            Ok(Op::Ask {
                left: left as usize - 1,
                right: right as usize,
            })
        } else {
            let index = self.number("P", 1, boards)? as usize - 1;
            let cells = self.board()?;
            let value = VALUES[cells & 0xFFFF];
            let old = std::mem::replace(&mut values[index], value);
            Ok(Op::Set {
                index,
                delta: old ^ value,
            })
        }
    }

    /// A query type: the number 1 or 2.
    #[inline(always)]
    fn query_type(&mut self) -> Result<u8, ParseError> {
        self.skip_whitespace();
        match self.source.buf()[..self.end].get(self.pos..self.pos + 2) {
            Some(&[kind @ (b'1' | b'2'), after]) if after.is_ascii_whitespace() => {
                self.pos += 1;
                Ok(kind - b'0')
            }
            _ => self.long_query_type(),
        }
    }

    #[cold]
    #[inline(never)]
    fn long_query_type(&mut self) -> Result<u8, ParseError> {
        let value = self.long_number(
            "a query type: 1 (who wins on L..R) or 2 (replace board P)",
            1,
            2,
            |_, value, _, _| {
                ParseErrorKind::Invalid(format!(
                    "unknown query type {value}: expected 1 (who wins on L..R) or 2 (replace board P)"
                ))
            },
        )?;
        Ok(value as u8)
    }

    /// A 4 x 4 board as 16 bits, bit `4 * row + col`.
    #[inline(always)]
    fn board(&mut self) -> Result<usize, ParseError> {
        self.skip_whitespace();
        // The usual layout, checked in three words: four rows of 4 cells,
        // each ending its line (bytes 4, 9, 14, 19), with more input after.
        if let Some(bytes) = self.source.buf()[..self.end].get(self.pos..self.pos + 24) {
            let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8"));
            let (first, second, third) = (word(0), word(8), word(16));
            if first & 0xFEFE_FEFF_FEFE_FEFE == 0x3030_300A_3030_3030
                && second & 0xFEFF_FEFE_FEFE_FFFE == 0x300A_3030_3030_0A30
                && third & 0xFFFE_FEFE == 0x0A30_3030
            {
                self.pos += 20;
                // The cells' low bits, a byte each, gathered word by word:
                // cells 0-3 and 4-6 (bytes 0-3, 5-7), 7 and 8-11 and 12
                // (bytes 8, 10-13, 15), 13-15 (bytes 16-18); a line end's
                // low bit is 0.
                let (a, b, c) = (
                    gather_bytes(first),
                    gather_bytes(second),
                    gather_bytes(third & 0xFF_FFFF),
                );
                return Ok((a & 0xF
                    | a >> 5 << 4
                    | (b & 1) << 7
                    | (b >> 2 & 0xF) << 8
                    | b >> 7 << 12
                    | c << 13) as usize);
            }
        }
        self.board_by_rows()
    }

    /// A board in any other layout, or cut by the end of the buffer.
    #[cold]
    #[inline(never)]
    fn board_by_rows(&mut self) -> Result<usize, ParseError> {
        let mut cells = 0;
        for row in 0..4 {
            cells |= self.row()? << (4 * row);
        }
        Ok(cells)
    }

    /// One board row: a token of exactly 4 cells `0`/`1`, as 4 bits.
    #[inline]
    fn row(&mut self) -> Result<usize, ParseError> {
        self.skip_whitespace();
        // The 4 cells and the byte after them, if the input has it.
        self.ensure(5);
        if self.end - self.pos < 4 {
            return Err(self.bad_row());
        }
        let at = self.pos;
        let word = u32::from_le_bytes(self.source.buf()[at..at + 4].try_into().expect("4 bytes"));
        // '0' is 0x30 and '1' is 0x31: all four bytes are cells exactly when
        // clearing their low bits leaves "0000".
        if word & 0xFEFE_FEFE != 0x3030_3030 || !self.ends_token(at + 4) {
            return Err(self.bad_row());
        }
        self.pos += 4;
        Ok(gather_row(word))
    }

    /// The precise error for a row that failed the fast check.
    #[cold]
    fn bad_row(&mut self) -> ParseError {
        for col in 0..4 {
            match self.source.buf()[..self.end].get(self.pos) {
                Some(b'0' | b'1') => self.pos += 1,
                Some(b) if b.is_ascii_whitespace() => {
                    return self.error(ParseErrorKind::Invalid(format!(
                        "a board row has 4 cells, this one has {col}"
                    )))
                }
                _ => return self.unexpected("a cell 0 or 1 (a board row is 4 of them)"),
            }
        }
        self.error(ParseErrorKind::Invalid(
            "a board row has 4 cells, this one has more".into(),
        ))
    }
}

/// The low bit of each byte of `word` (little-endian), as bits 0..8: one
/// multiply moves byte `k`'s bit to bit `56 + k`, and no two partial
/// products meet, so nothing carries.
#[inline]
fn gather_bytes(word: u64) -> u64 {
    (word & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// The cells of a row from its four ASCII bytes `0`/`1` (little-endian):
/// the low bits (bits 0, 8, 16, 24) gathered into bits 0..4.
#[inline]
fn gather_row(word: u32) -> usize {
    let bits = word & 0x0101_0101;
    ((bits | bits >> 7 | bits >> 14 | bits >> 21) & 0xF) as usize
}

#[cfg(test)]
mod tests;
