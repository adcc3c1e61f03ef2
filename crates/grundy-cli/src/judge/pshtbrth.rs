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
//! are kept as [`XorPrefixes`]: XORs of prefixes inside blocks of 64, of
//! blocks inside groups of 64, and so on, four levels for up to `64^4`
//! boards. A range is the XOR of two prefixes, each 4 loads with no loop;
//! a replacement XORs its change into at most 63 bytes per level, in one
//! or two cache lines. Both are `O(1)` for `N < 64^4`; a Fenwick tree's
//! `O(log N)` walks were 29% of the time (its loads are spread over the
//! tree, and 17 deep at `N = 10^5`).
//!
//! The parser is hand-written, because it is the hot path (about 21 MB at
//! the largest). Measured choices, each a few percent or more:
//! - a file (`grundy judge pshtbrth FILE`, or standard input when it is a
//!   file) is mapped and parsed in place ([`run`]): no copy at all (the
//!   kernel's copy was a sixth of the time; `cargo bench -p grundy-cli
//!   --bench judge_input`, one run: 30.1 ms streamed, 24.8 ms mapped);
//! - other input streams through one buffer of [`CHUNK`] bytes rather than
//!   being read whole ([`run_reader`]): the buffer stays in cache, and the
//!   process does not fault in 21 MB of fresh pages (about a fifth of the
//!   time when whole). Both go through one parser, generic over where the
//!   bytes are;
//! - a board in the usual layout (rows ending their lines) is checked and
//!   packed from three 64-bit words, a row from one word (ASCII `0`/`1`
//!   differ from `"0000"` only in their low bits), other layouts row by row;
//! - a number of up to 7 digits is read from one 64-bit word; longer ones,
//!   and every token cut by the end of the buffer, take a slow path out of
//!   line (`#[cold]`), which keeps the hot loop small;
//! - line ends are not counted while parsing: they are counted (with
//!   `memchr`'s vectorised count) in each consumed part of the buffer when
//!   it is dropped (streamed), and up to the error when one is reported;
//! - board values are looked up apart from the parsing, and queries are
//!   parsed a batch at a time and then run, so that table loads overlap;
//! - the answers go into one buffer, written out every
//!   [`crate::judge::FLUSH_AT`] bytes.

use std::io::{Read, Write};

use super::{answering, Answers, JudgeError, BOM};
use crate::input::{
    char_at, line_col, shown_number, Found, ParseError, ParseErrorKind, SHOWN_DIGITS,
};

/// The value of every 4 x 4 board, bit `4 * row + col`: the engine's
/// table, built at compile time by `build.rs`.
static VALUES: &[u8; 1 << 16] = include_bytes!(concat!(env!("OUT_DIR"), "/table4x4.bin"));

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
    let mut batch = Vec::with_capacity(BATCH);
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
        // Likewise queries are parsed a batch at a time, then run.
        let mut left_to_read = queries;
        while left_to_read > 0 {
            let size = left_to_read.min(BATCH as u64);
            left_to_read -= size;
            let mut failure = None;
            for _ in 0..size {
                match reader.query(boards, &mut values) {
                    Ok(op) => batch.push(op),
                    Err(err) => {
                        failure = Some(err);
                        break;
                    }
                }
            }
            // Each answer is written as one 8-byte word and the end moved
            // by its length: no call to copy 6 or 7 bytes.
            let mut at = 0;
            for op in batch.drain(..) {
                match op {
                    Op::Ask { left, right } => {
                        let (word, len) = ANSWERS[usize::from(prefixes.range(left, right) != 0)];
                        scratch[at..at + 8].copy_from_slice(word);
                        at += len;
                    }
                    Op::Set { index, delta } => prefixes.change(index, delta),
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
        return Err(reader
            .error(ParseErrorKind::Invalid(format!(
                "trailing input after the last of the {tests} tests"
            )))
            .into());
    }
    Ok(reader.read_error()?)
}

/// How many queries are parsed before they are run.
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
    /// looked up, and the old one replaced, as the query is parsed: those
    /// loads then overlap the parsing of the next queries.
    Set { index: usize, delta: u8 },
}

/// The XORs of the prefixes of a row of byte values, at four levels of
/// blocks of 64. With `v` the values and `x(a..b)` the XOR of `v[a..b]`:
/// level 0 holds `x(64 * (i / 64)..i)` for `i` in `0..=n`, the prefix of
/// `i`'s block up to `i`; level 1 the same over block XORs (the prefix of a
/// block's group of 64 blocks up to the block), and so on. The prefix
/// `x(0..i)` is then the XOR of level `k`'s entry `i >> 6k` over the
/// levels, because the top level's entries all lie in its first group when
/// `n < 64^4`.
#[derive(Clone, Debug, Default)]
pub struct XorPrefixes {
    /// Each level padded with zeros to whole blocks of 64.
    levels: [Vec<u8>; LEVELS],
    /// How many values.
    len: usize,
}

/// Levels of [`XorPrefixes`]: enough for `64^4 > MAX_COUNT` values.
const LEVELS: usize = 4;

impl XorPrefixes {
    /// The prefixes of `values`.
    ///
    /// # Panics
    ///
    /// When there are `64^4` values or more.
    #[must_use]
    pub fn new(values: &[u8]) -> XorPrefixes {
        let mut prefixes = XorPrefixes::default();
        prefixes.rebuild(values);
        prefixes
    }

    /// Replaces the values by `values`, keeping the memory.
    ///
    /// # Panics
    ///
    /// When there are `64^4` values or more.
    pub fn rebuild(&mut self, values: &[u8]) {
        assert!(values.len() < 1 << (6 * LEVELS), "too many values");
        self.len = values.len();
        let mut below: Vec<u8> = values.to_vec();
        for level in &mut self.levels {
            // `below` holds this level's values; the next level's are the
            // XORs of its blocks.
            level.clear();
            level.reserve(below.len() + 1);
            let mut next = Vec::with_capacity(below.len() / 64 + 1);
            for block in below.chunks(64) {
                let mut sum = 0;
                for &value in block {
                    level.push(sum);
                    sum ^= value;
                }
                next.push(sum);
            }
            // The entry for `i = n`: the prefix of the block that `n` opens,
            // or the whole last block when `n` ends one.
            // The next level's values are the whole blocks' XORs only.
            if below.len() % 64 == 0 {
                level.push(0);
            } else {
                level.push(next.pop().expect("a block"));
            }
            level.resize(level.len().next_multiple_of(64), 0);
            below = next;
        }
    }

    /// The XOR of the values `0..end`.
    #[inline]
    fn prefix(&self, end: usize) -> u8 {
        let [zero, one, two, three] = &self.levels;
        zero[end] ^ one[end >> 6] ^ two[end >> 12] ^ three[end >> 18]
    }

    /// The XOR of the values `start..end`.
    ///
    /// # Panics
    ///
    /// When `end` is past the values.
    #[inline(always)]
    #[must_use]
    pub fn range(&self, start: usize, end: usize) -> u8 {
        assert!(
            start <= end && end <= self.len,
            "range {start}..{end} of {} values",
            self.len
        );
        self.prefix(end) ^ self.prefix(start)
    }

    /// XORs `delta` into the value at `index`: into every later prefix in
    /// its block, at each level. Branch-free: the whole block of 64 is
    /// XORed with `delta` under a mask from [`LATER`] (a loop of 0 to 63
    /// bytes costs a mispredicted branch per level; the levels are padded
    /// to whole blocks for this).
    ///
    /// # Panics
    ///
    /// When `index` is past the values.
    #[inline(always)]
    pub fn change(&mut self, index: usize, delta: u8) {
        assert!(index < self.len, "index {index} past {} values", self.len);
        let mut index = index;
        for level in &mut self.levels {
            let start = index & !63;
            let block: &mut [u8; 64] = (&mut level[start..start + 64])
                .try_into()
                .expect("levels are whole blocks");
            let mask = &LATER[index & 63];
            for (prefix, later) in block.iter_mut().zip(mask) {
                *prefix ^= delta & later;
            }
            index >>= 6;
        }
    }
}

/// `LATER[i][j]` is all ones when `j > i`: the prefixes of a block that
/// include the value at offset `i`.
static LATER: [[u8; 64]; 64] = {
    let mut masks = [[0; 64]; 64];
    let mut i = 0;
    while i < 64 {
        let mut j = i + 1;
        while j < 64 {
            masks[i][j] = 0xFF;
            j += 1;
        }
        i += 1;
    }
    masks
};

/// Where a [`Reader`]'s bytes come from.
trait Source {
    /// The buffer.
    fn buf(&self) -> &[u8];
    /// Drops the first `count` of the `end` bytes buffered.
    fn drop_front(&mut self, count: usize, end: usize);
    /// Moves the unconsumed `buf[pos..end]` to the front and reads more
    /// after it: the new `(pos, end)`, and what the read returned.
    fn read_more(&mut self, pos: usize, end: usize) -> (usize, usize, std::io::Result<usize>);
}

/// A stream read a chunk at a time into one buffer.
struct Streamed<R> {
    source: R,
    buf: Vec<u8>,
    chunk: usize,
}

impl<R: Read> Source for Streamed<R> {
    #[inline(always)]
    fn buf(&self) -> &[u8] {
        &self.buf
    }

    fn drop_front(&mut self, count: usize, end: usize) {
        self.buf.copy_within(count..end, 0);
    }

    fn read_more(&mut self, pos: usize, end: usize) -> (usize, usize, std::io::Result<usize>) {
        self.buf.copy_within(pos..end, 0);
        let end = end - pos;
        if self.buf.len() < end + self.chunk {
            self.buf.resize(end + self.chunk, 0);
        }
        loop {
            match self.source.read(&mut self.buf[end..end + self.chunk]) {
                Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
                result => return (0, end, result),
            }
        }
    }
}

/// An input that is all in memory (a mapped file): parsed in place.
impl<'a> Source for &'a [u8] {
    #[inline(always)]
    fn buf(&self) -> &[u8] {
        self
    }

    fn drop_front(&mut self, count: usize, _end: usize) {
        let whole: &'a [u8] = self;
        *self = &whole[count..];
    }

    fn read_more(&mut self, pos: usize, end: usize) -> (usize, usize, std::io::Result<usize>) {
        (pos, end, Ok(0))
    }
}

/// A cursor over a byte stream, buffered by hand (or over bytes all in
/// memory): `buf[pos..end]` is what is read and not yet consumed.
struct Reader<S> {
    source: S,
    pos: usize,
    end: usize,
    eof: bool,
    /// A read error, reported after the bytes before it are parsed.
    read_failed: Option<std::io::Error>,
    /// Line ends in the input before `buf[0]`.
    lines: usize,
    /// The bytes of the line that `buf[0]` is on before `buf[0]`, when it
    /// began in an earlier chunk.
    line_prefix: Vec<u8>,
}

impl<R: Read> Reader<Streamed<R>> {
    fn new(source: R, chunk: usize) -> Self {
        let chunk = chunk.max(1);
        Reader {
            source: Streamed {
                source,
                // Room for a chunk and the unread tail of the one before.
                buf: vec![0; chunk + 64],
                chunk,
            },
            pos: 0,
            end: 0,
            eof: false,
            read_failed: None,
            lines: 0,
            line_prefix: Vec::new(),
        }
    }
}

impl<'a> Reader<&'a [u8]> {
    fn whole(input: &'a [u8]) -> Self {
        Reader {
            source: input,
            pos: 0,
            end: input.len(),
            eof: true,
            read_failed: None,
            lines: 0,
            line_prefix: Vec::new(),
        }
    }
}

impl<S: Source> Reader<S> {
    /// Drops a byte order mark at the start, as if it were not there.
    fn skip_bom(&mut self) {
        self.ensure(BOM.len());
        if self.source.buf()[..self.end].starts_with(BOM) {
            self.source.drop_front(BOM.len(), self.end);
            self.end -= BOM.len();
        }
    }

    /// Reads more input after `buf[..end]`, first dropping the consumed
    /// `buf[..pos]`. False at the end of the input.
    #[cold]
    #[inline(never)]
    fn refill(&mut self) -> bool {
        if self.eof {
            return false;
        }
        // Keep what an error message needs: the line count, and the
        // current line's start.
        let consumed = &self.source.buf()[..self.pos];
        match memchr::memrchr(b'\n', consumed) {
            Some(last) => {
                self.lines += 1 + memchr::memchr_iter(b'\n', &consumed[..last]).count();
                self.line_prefix.clear();
                self.line_prefix.extend_from_slice(&consumed[last + 1..]);
            }
            None => self.line_prefix.extend_from_slice(consumed),
        }
        let (pos, end, read) = self.source.read_more(self.pos, self.end);
        (self.pos, self.end) = (pos, end);
        match read {
            Ok(0) => {
                self.eof = true;
                false
            }
            Ok(read) => {
                self.end += read;
                true
            }
            Err(err) => {
                self.read_failed = Some(err);
                self.eof = true;
                false
            }
        }
    }

    /// True when at least `count` unread bytes are in the buffer (reading
    /// more if needed); false when the input ends first.
    #[inline]
    fn ensure(&mut self, count: usize) -> bool {
        while self.end - self.pos < count {
            if !self.refill() {
                return false;
            }
        }
        true
    }

    #[inline(always)]
    fn skip_whitespace(&mut self) {
        loop {
            while self.pos < self.end && self.source.buf()[self.pos].is_ascii_whitespace() {
                self.pos += 1;
            }
            if self.pos < self.end || !self.refill() {
                return;
            }
        }
    }

    /// True when the byte at `offset` (in the buffer, or just past its end
    /// at the end of input) ends a token.
    #[inline]
    fn ends_token(&self, offset: usize) -> bool {
        offset >= self.end || self.source.buf()[offset].is_ascii_whitespace()
    }

    fn read_error(&mut self) -> Result<(), ParseError> {
        match self.read_failed.take() {
            None => Ok(()),
            Some(err) => Err(self.error(ParseErrorKind::Invalid(format!(
                "cannot read the input: {err}"
            )))),
        }
    }

    /// The line and column of `offset` in the buffer, in the whole input.
    #[cold]
    fn place(&self, offset: usize) -> (usize, usize) {
        let before = &self.source.buf()[..offset];
        let lines = self.lines + memchr::memchr_iter(b'\n', before).count();
        let col = match memchr::memrchr(b'\n', before) {
            Some(last) => line_col(&before[last + 1..], offset - last - 1).1,
            None => {
                let mut line = self.line_prefix.clone();
                line.extend_from_slice(before);
                line_col(&line, line.len()).1
            }
        };
        (lines + 1, col)
    }

    /// An error at `offset` in the buffer, placed in the whole input.
    #[cold]
    fn error_at(&self, offset: usize, kind: ParseErrorKind) -> ParseError {
        let (line, col) = self.place(offset);
        ParseError { line, col, kind }
    }

    fn error(&self, kind: ParseErrorKind) -> ParseError {
        self.error_at(self.pos, kind)
    }

    /// The error for what is at `pos` when `expected` was wanted.
    #[cold]
    fn unexpected(&mut self, expected: &str) -> ParseError {
        if let Err(err) = self.read_error() {
            return err;
        }
        if self.pos >= self.end {
            self.error(ParseErrorKind::UnexpectedEnd {
                expected: expected.to_owned(),
            })
        } else {
            self.ensure(4);
            self.error(ParseErrorKind::UnexpectedChar {
                found: Found(char_at(&self.source.buf()[..self.end], self.pos)),
                expected: expected.to_owned(),
            })
        }
    }

    /// An unsigned number in `min..=max`, as a whole token.
    #[inline(always)]
    fn number(&mut self, what: &str, min: u64, max: u64) -> Result<u64, ParseError> {
        self.skip_whitespace();
        let start = self.pos;
        // The usual case: 1 to 7 digits and whitespace, within 8 bytes.
        if let Some(bytes) = self.source.buf()[..self.end].get(start..start + 8) {
            let digits = u64::from_le_bytes(bytes.try_into().expect("8 bytes")) ^ DIGIT_ZEROS;
            let len = digit_run(digits);
            if (1..8).contains(&len) && self.source.buf()[start + len].is_ascii_whitespace() {
                let value = swar_value(digits << (64 - 8 * len));
                if (min..=max).contains(&value) {
                    self.pos = start + len;
                    return Ok(value);
                }
            }
        }
        self.long_number(what, min, max, |what, value, min, max| {
            ParseErrorKind::OutOfRange {
                what: what.to_owned(),
                value,
                min,
                max,
            }
        })
    }

    /// A number token of any length in `min..=max` (`range_error` makes the
    /// error otherwise, from `what`, the number as shown, `min` and `max`).
    /// The token may be longer than the buffer: its start is placed before
    /// it is dropped. The value saturates at `u64::MAX`.
    #[cold]
    #[inline(never)]
    fn long_number(
        &mut self,
        what: &str,
        min: u64,
        max: u64,
        range_error: fn(&str, String, u64, u64) -> ParseErrorKind,
    ) -> Result<u64, ParseError> {
        self.skip_whitespace();
        // The token's start while it is in the buffer, else its place.
        let mut start = Some(self.pos);
        let mut place = None;
        let mut value: u64 = 0;
        let mut digits = 0;
        let mut head = [0; SHOWN_DIGITS];
        loop {
            if self.pos >= self.end {
                if let Some(start) = start.take() {
                    place = Some(self.place(start));
                }
                if !self.refill() {
                    break;
                }
            }
            let digit = self.source.buf()[self.pos].wrapping_sub(b'0');
            if digit > 9 {
                break;
            }
            value = value.saturating_mul(10).saturating_add(u64::from(digit));
            if let Some(shown) = head.get_mut(digits) {
                *shown = self.source.buf()[self.pos];
            }
            digits += 1;
            self.pos += 1;
        }
        if digits == 0 {
            return Err(self.unexpected(what));
        }
        if !self.ends_token(self.pos) {
            return Err(self.unexpected("a digit or whitespace"));
        }
        if (min..=max).contains(&value) {
            return Ok(value);
        }
        let (line, col) = match (start, place) {
            (Some(start), _) => self.place(start),
            (None, Some(place)) => place,
            (None, None) => unreachable!("the start is placed before it is dropped"),
        };
        let shown = shown_number(&head[..digits.min(SHOWN_DIGITS)], digits);
        Err(ParseError {
            line,
            col,
            kind: range_error(what, shown, min, max),
        })
    }

    /// One query, with its indices checked against `boards`; a
    /// replacement is made in `values` at once.
    #[inline(always)]
    fn query(&mut self, boards: u64, values: &mut [u8]) -> Result<Op, ParseError> {
        if self.query_type()? == 1 {
            let left = self.number("L", 1, boards)?;
            let right = self.number("R", left, boards)?;
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
                return Ok(gather_row(first as u32)
                    | gather_row((first >> 40 | second << 24) as u32) << 4
                    | gather_row((second >> 16) as u32) << 8
                    | gather_row((second >> 56 | third << 8) as u32) << 12);
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

/// Eight ASCII `'0'`s: XOR turns the bytes `'0'..='9'` into the digits
/// 0..=9, and every other byte into a value above 9.
pub(crate) const DIGIT_ZEROS: u64 = 0x3030_3030_3030_3030;

/// How many of the 8 bytes (first byte lowest) are digits before the first
/// that is not, after XOR with [`DIGIT_ZEROS`]; 8 when all are.
#[inline]
pub(crate) fn digit_run(digits: u64) -> usize {
    // A byte above 9 gets its high bit set by adding 0x76 (or had it). The
    // addition may carry into the next byte, but only out of a non-digit,
    // and only the lowest flagged byte matters.
    let not_digit = (digits.wrapping_add(0x7676_7676_7676_7676) | digits) & 0x8080_8080_8080_8080;
    (not_digit.trailing_zeros() / 8) as usize
}

/// The number written by 8 digit bytes, first (most significant) byte
/// lowest: pairs, then quadruples, then the whole, by three multiplies.
#[inline]
pub(crate) fn swar_value(digits: u64) -> u64 {
    let pairs = (digits.wrapping_mul(10 * 256 + 1) >> 8) & 0x00FF_00FF_00FF_00FF;
    let quads = (pairs.wrapping_mul(100 * 65_536 + 1) >> 16) & 0x0000_FFFF_0000_FFFF;
    quads.wrapping_mul(10_000 * (1 << 32) + 1) >> 32
}

/// The cells of a row from its four ASCII bytes `0`/`1` (little-endian):
/// the low bits (bits 0, 8, 16, 24) gathered into bits 0..4.
#[inline]
fn gather_row(word: u32) -> usize {
    let bits = word & 0x0101_0101;
    ((bits | bits >> 7 | bits >> 14 | bits >> 21) & 0xF) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    /// The answers and the parse error, parsed in place.
    fn answer(input: &str) -> (String, Result<(), ParseError>) {
        answer_in_place(input.as_bytes())
    }

    fn answer_in_place(input: &[u8]) -> (String, Result<(), ParseError>) {
        let mut out = Vec::new();
        let result =
            run(input, &mut out).map_err(|err| err.input().expect("a parse error").clone());
        (String::from_utf8(out).unwrap(), result)
    }

    /// The answers and the parse error, `chunk` bytes at a time.
    fn answer_bytes(input: &[u8], chunk: usize) -> (String, Result<(), ParseError>) {
        let mut out = Vec::new();
        let result = run_reader(input, &mut out, chunk)
            .map_err(|err| err.input().expect("a parse error").clone());
        (String::from_utf8(out).unwrap(), result)
    }

    /// The value of a 4 x 4 board by plain mex recursion over all 100
    /// rectangles, without the engine's table.
    fn brute_value(cells: u16, memo: &mut HashMap<u16, u32>) -> u32 {
        if let Some(&v) = memo.get(&cells) {
            return v;
        }
        let mut seen = Vec::new();
        for top in 0..4 {
            for bottom in top..4 {
                for left in 0..4 {
                    for right in left..4 {
                        let mut rect = 0u16;
                        for r in top..=bottom {
                            for c in left..=right {
                                rect |= 1 << (4 * r + c);
                            }
                        }
                        if cells & rect == rect {
                            seen.push(brute_value(cells ^ rect, memo));
                        }
                    }
                }
            }
        }
        let v = (0..).find(|v| !seen.contains(v)).unwrap();
        memo.insert(cells, v);
        v
    }

    /// The straightforward implementation: split on whitespace, brute-force
    /// values, a plain XOR loop per query.
    fn straightforward(input: &str) -> String {
        let mut memo = HashMap::new();
        let tokens: Vec<&str> = input.split_ascii_whitespace().collect();
        let mut at = 0;
        let mut next = || {
            at += 1;
            tokens[at - 1]
        };
        let mut out = String::new();
        let tests: usize = next().trim_start_matches('\u{FEFF}').parse().unwrap();
        for _ in 0..tests {
            let n: usize = next().parse().unwrap();
            let m: usize = next().parse().unwrap();
            let mut values = Vec::new();
            for _ in 0..n {
                let rows = [next(), next(), next(), next()];
                values.push(brute_value(cells_of(rows), &mut memo));
            }
            for _ in 0..m {
                if next().parse::<u8>().unwrap() == 1 {
                    let l: usize = next().parse().unwrap();
                    let r: usize = next().parse().unwrap();
                    let total = values[l - 1..r].iter().fold(0, |acc, v| acc ^ v);
                    out.push_str(if total == 0 { "Lotsy\n" } else { "Pishty\n" });
                } else {
                    let p: usize = next().parse().unwrap();
                    let rows = [next(), next(), next(), next()];
                    values[p - 1] = brute_value(cells_of(rows), &mut memo);
                }
            }
        }
        out
    }

    fn cells_of(rows: [&str; 4]) -> u16 {
        let mut cells = 0u16;
        for (row, text) in rows.iter().enumerate() {
            for (col, ch) in text.chars().enumerate() {
                if ch == '1' {
                    cells |= 1 << (4 * row + col);
                }
            }
        }
        cells
    }

    /// A random valid input, with random whitespace between lines.
    fn random_input() -> impl Strategy<Value = String> {
        let test = (1usize..7, 1usize..12).prop_flat_map(|(n, m)| {
            (
                proptest::collection::vec(any::<u16>(), n),
                proptest::collection::vec(
                    (any::<bool>(), any::<usize>(), any::<usize>(), any::<u16>()),
                    m,
                ),
            )
        });
        (
            proptest::collection::vec(test, 1..4),
            // Mostly plain line ends, so that whole boards take the fast path.
            proptest::collection::vec(0usize..12, 256),
        )
            .prop_map(|(tests, seps)| {
                const SEPS: [&str; 12] = [
                    "\n",
                    "\r\n",
                    "\n\n",
                    " \n",
                    "\t\r\n\r\n",
                    "\n \n",
                    "\n",
                    "\n",
                    "\n",
                    "\n",
                    "\n",
                    "\n",
                ];
                let mut seps = seps.into_iter().cycle();
                let mut text = String::new();
                let mut line = |text: &mut String, s: &str| {
                    text.push_str(s);
                    text.push_str(SEPS[seps.next().unwrap()]);
                };
                let board = |cells: u16| -> Vec<String> {
                    (0..4)
                        .map(|r| {
                            (0..4)
                                .map(|c| {
                                    if cells >> (4 * r + c) & 1 == 1 {
                                        '1'
                                    } else {
                                        '0'
                                    }
                                })
                                .collect()
                        })
                        .collect()
                };
                line(&mut text, &tests.len().to_string());
                for (boards, queries) in &tests {
                    let n = boards.len();
                    line(&mut text, &format!("{n} {}", queries.len()));
                    for &b in boards {
                        board(b).iter().for_each(|row| line(&mut text, row));
                    }
                    for &(ask, a, b, cells) in queries {
                        if ask {
                            let (l, r) = (a % n + 1, b % n + 1);
                            line(&mut text, &format!("1 {} {}", l.min(r), l.max(r)));
                        } else {
                            line(&mut text, &format!("2 {}", a % n + 1));
                            board(cells).iter().for_each(|row| line(&mut text, row));
                        }
                    }
                }
                text
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn matches_the_straightforward_implementation(input in random_input()) {
            let (out, result) = answer(&input);
            prop_assert_eq!(result, Ok(()));
            prop_assert_eq!(out, straightforward(&input));
        }

        /// Streamed in small chunks or read in one piece, every input
        /// (valid, or with one byte changed) gives the same answers and the
        /// same located error as parsed in place.
        #[test]
        fn chunk_size_changes_nothing(
            input in random_input(),
            chunk in 1usize..40,
            at in any::<usize>(),
            byte in prop_oneof![Just(b'x'), Just(b'\n'), Just(b' '), Just(b'2'), Just(b'0'), any::<u8>()],
        ) {
            let mut bytes = input.into_bytes();
            for _ in 0..2 {
                let (in_place, in_place_result) = answer_in_place(&bytes);
                for chunk in [chunk, bytes.len() + 1] {
                    let (streamed, streamed_result) = answer_bytes(&bytes, chunk);
                    prop_assert_eq!(&streamed, &in_place);
                    prop_assert_eq!(&streamed_result, &in_place_result);
                }
                let at = at % bytes.len();
                bytes[at] = byte;
            }
        }

        /// Cut anywhere, the input gives an error or an answer, never a
        /// panic; and the answers given are a prefix of the full answers.
        #[test]
        fn truncated_input_keeps_earlier_answers(input in random_input(), cut in any::<usize>()) {
            let full = straightforward(&input);
            let cut = cut % (input.len() + 1);
            let (out, _) = answer(&input[..cut]);
            prop_assert!(full.starts_with(&out));
        }

        /// The tokenising rule of every judge: leading zeros on any number
        /// (the query type too), as many as one likes, a BOM, CRLF; read in
        /// any chunks, the answers are those of the plain input.
        #[test]
        fn leading_zeros_and_a_bom_change_nothing(
            input in random_input(),
            zeros in proptest::collection::vec(0usize..45, 64),
            chunk in 1usize..50,
        ) {
            let expected = straightforward(&input);
            let mut zeros = zeros.into_iter().cycle();
            let mut padded = String::from("\u{FEFF}");
            for line in input.split_inclusive('\n') {
                let mut words = Vec::new();
                for word in line.split(' ') {
                    // Board rows are the tokens of 4 characters.
                    if (1..4).contains(&word.trim().len()) {
                        words.push("0".repeat(zeros.next().unwrap()) + word);
                    } else {
                        words.push(word.to_owned());
                    }
                }
                padded.push_str(&words.join(" "));
            }
            let (out, result) = answer_bytes(padded.as_bytes(), chunk);
            prop_assert_eq!(result, Ok(()));
            prop_assert_eq!(&out, &expected);
            let (out, result) = answer_in_place(padded.as_bytes());
            prop_assert_eq!(result, Ok(()));
            prop_assert_eq!(&out, &expected);
            prop_assert_eq!(straightforward(&padded), expected);
        }

        /// Prefix XORs by blocks agree with a plain loop, through changes.
        #[test]
        fn xor_prefixes_match_a_plain_loop(
            values in proptest::collection::vec(any::<u8>(), 0..9000),
            changes in proptest::collection::vec((any::<usize>(), any::<u8>()), 0..40),
            ranges in proptest::collection::vec((any::<usize>(), any::<usize>()), 1..40),
        ) {
            let mut values = values;
            let mut prefixes = XorPrefixes::new(&values);
            let n = values.len();
            let check = |prefixes: &XorPrefixes, values: &[u8]| -> Result<(), TestCaseError> {
                for &(a, b) in &ranges {
                    let (a, b) = (a % (n + 1), b % (n + 1));
                    let (start, end) = (a.min(b), a.max(b));
                    let plain = values[start..end].iter().fold(0, |acc, v| acc ^ v);
                    prop_assert_eq!(prefixes.range(start, end), plain, "{}..{}", start, end);
                }
                prop_assert_eq!(prefixes.range(0, n), values.iter().fold(0, |acc, v| acc ^ v));
                Ok(())
            };
            check(&prefixes, &values)?;
            for &(index, value) in &changes {
                if n == 0 {
                    break;
                }
                let index = index % n;
                prefixes.change(index, values[index] ^ value);
                values[index] = value;
                check(&prefixes, &values)?;
            }
            // The same entries as built afresh (the padding may differ).
            let fresh = XorPrefixes::new(&values);
            for (level, (changed, built)) in prefixes.levels.iter().zip(&fresh.levels).enumerate() {
                let used = (n >> (6 * level)) + 1;
                prop_assert_eq!(&changed[..used], &built[..used]);
            }
        }
    }

    /// Every length of a row of values around the block sizes, each range.
    #[test]
    fn xor_prefixes_at_block_edges() {
        for n in [0, 1, 63, 64, 65, 127, 128, 4095, 4096, 4097, 262_144] {
            let values: Vec<u8> = (0..n).map(|i| (i * 37 % 251) as u8).collect();
            let prefixes = XorPrefixes::new(&values);
            let mut plain = 0;
            assert_eq!(prefixes.range(0, 0), 0, "n {n}, end 0");
            for (i, &value) in values.iter().enumerate() {
                plain ^= value;
                assert_eq!(prefixes.range(0, i + 1), plain, "n {n}, end {}", i + 1);
            }
        }
    }

    /// A number of any length is read; it is range-checked, not counted,
    /// and shown abbreviated.
    #[test]
    fn numbers_have_any_number_of_digits() {
        let zeros = "0".repeat(CHUNK + 10);
        let padded = SAMPLE.replacen("1\n3 6", &format!("{zeros}1\n3 {zeros}6"), 1);
        let (out, result) = answer(&padded);
        assert_eq!(result, Ok(()));
        assert_eq!(out, answer(SAMPLE).0);
        let huge = SAMPLE.replacen("3 6", &format!("3 {zeros}10000000000000000000000"), 1);
        for chunk in [7, CHUNK] {
            let (_, result) = answer_bytes(huge.as_bytes(), chunk);
            assert_eq!(
                result.unwrap_err().to_string(),
                format!(
                    "2:3: the number of queries M 0000000000000000... ({} digits) is out of range 1..=10000000",
                    CHUNK + 33
                )
            );
        }
    }

    proptest! {
        /// The word-at-a-time number reader agrees with `str::parse`.
        #[test]
        fn swar_digits_match_parse(bytes in proptest::array::uniform8(
            prop_oneof![4 => b'0'..=b'9', 1 => any::<u8>()])) {
            let digits = u64::from_le_bytes(bytes) ^ DIGIT_ZEROS;
            let len = digit_run(digits);
            let expected = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
            prop_assert_eq!(len, expected);
            if (1..8).contains(&len) {
                let text = std::str::from_utf8(&bytes[..len]).unwrap();
                prop_assert_eq!(swar_value(digits << (64 - 8 * len)), text.parse::<u64>().unwrap());
            }
        }
    }

    /// Enough queries to cross several batches, and an error in the third.
    #[test]
    fn answers_across_batches() {
        let mut state = 12345u64;
        let mut next = |below: u64| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) % below
        };
        let board = |cells: u64| -> String {
            (0..4)
                .map(|r| {
                    format!("{:04b}\n", (cells >> (4 * r)) & 0xF)
                        .chars()
                        .rev()
                        .skip(1)
                        .collect::<String>()
                        + "\n"
                })
                .collect()
        };
        let (n, m) = (40, 3 * BATCH as u64 - 7);
        let mut text = format!("1\n{n} {m}\n");
        (0..n).for_each(|_| text += &board(next(1 << 16)));
        let mut last_ask = 0;
        for _ in 0..m {
            if next(2) == 0 {
                let (a, b) = (next(n) + 1, next(n) + 1);
                last_ask = text.len();
                text += &format!("1 {} {}\n", a.min(b), a.max(b));
            } else {
                text += &format!("2 {}\n{}", next(n) + 1, board(next(1 << 16)));
            }
        }
        let expected = straightforward(&text);
        let (out, result) = answer(&text);
        assert_eq!(result, Ok(()));
        assert_eq!(out, expected);
        // The last question made bad: every answer before it is given.
        let bad = format!(
            "{}1 0 1\n{}",
            &text[..last_ask],
            &text[text[last_ask..].find('\n').unwrap() + last_ask + 1..]
        );
        let (out, result) = answer(&bad);
        assert!(result.is_err());
        assert_eq!(
            out,
            expected[..expected.trim_end().rfind('\n').unwrap() + 1]
        );
    }

    #[test]
    fn the_embedded_table_is_the_engines() {
        assert_eq!(VALUES, grundy::clear::table::table());
    }

    const SAMPLE: &str = "1\n3 6\n0110\n0000\n0000\n0001\n\n0000\n0000\n0000\n0000\n\n1000\n1000\n0000\n0000\n\n1 1 1\n1 2 2\n1 3 3\n1 1 3\n2 2\n0001\n0010\n0100\n1000\n1 1 3\n";

    fn error_of(input: &str) -> (String, String) {
        let (out, result) = answer(input);
        (out, result.unwrap_err().to_string())
    }

    #[test]
    fn bad_input_is_located_and_earlier_answers_stay() {
        // A query type that does not exist, after two answers.
        let bad = SAMPLE.replace("1 3 3\n", "3 3 3\n");
        let (out, err) = error_of(&bad);
        assert_eq!(out, "Pishty\nLotsy\n");
        assert_eq!(
            err,
            "20:1: unknown query type 3: expected 1 (who wins on L..R) or 2 (replace board P)"
        );
        let (_, err) = error_of(&SAMPLE.replace("1 3 3\n", "x 3 3\n"));
        assert_eq!(
            err,
            "20:1: unexpected 'x', expected a query type: 1 (who wins on L..R) or 2 (replace board P)"
        );
        // L > R, P > N.
        let (_, err) = error_of(&SAMPLE.replace("1 1 3\n2 2", "1 3 2\n2 2"));
        assert_eq!(err, "21:5: R 2 is out of range 3..=3");
        let (_, err) = error_of(&SAMPLE.replace("\n2 2\n", "\n2 4\n"));
        assert_eq!(err, "22:3: P 4 is out of range 1..=3");
        let (_, err) = error_of(&SAMPLE.replace("1 1 1\n", "1 0 1\n"));
        assert_eq!(err, "18:3: L 0 is out of range 1..=3");
        // Bad cells and rows of the wrong length.
        let (_, err) = error_of(&SAMPLE.replacen("0000", "0020", 1));
        assert_eq!(
            err,
            "4:3: unexpected '2', expected a cell 0 or 1 (a board row is 4 of them)"
        );
        let (_, err) = error_of(&SAMPLE.replacen("0000", "00000", 1));
        assert_eq!(err, "4:5: a board row has 4 cells, this one has more");
        let (_, err) = error_of(&SAMPLE.replacen("0000", "000", 1));
        assert_eq!(err, "4:4: a board row has 4 cells, this one has 3");
        // Truncated: the answers so far stay.
        let cut = &SAMPLE[..SAMPLE.find("0010").unwrap()];
        let (out, err) = error_of(cut);
        assert_eq!(out, "Pishty\nLotsy\nPishty\nPishty\n");
        assert!(err.contains("unexpected end of input"), "{err}");
        // Trailing input, and a number glued to a letter.
        let (_, err) = error_of(&format!("{SAMPLE}7\n"));
        assert_eq!(err, "28:1: trailing input after the last of the 1 tests");
        let (_, err) = error_of(&SAMPLE.replace("3 6", "3x 6"));
        assert_eq!(err, "2:2: unexpected 'x', expected a digit or whitespace");
        let (_, err) = error_of("");
        assert_eq!(
            err,
            "1:1: unexpected end of input, expected the number of tests T"
        );
    }
}
