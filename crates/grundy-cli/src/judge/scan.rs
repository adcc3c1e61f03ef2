//! The judges' byte scanner: a cursor over input that is all in memory (a
//! mapped file, parsed in place) or streamed through one buffer, which
//! places errors at their line and column in the whole input without
//! counting lines on the hot path, and reads a number of up to 7 digits
//! from one 64-bit word. `pshtbrth` reads its tokens with it; `gridgame`
//! uses its word-at-a-time digits.

use std::io::Read;

use super::BOM;
use grundy_report::parse::{
    line_col, shown_number, Found, ParseError, ParseErrorKind, SHOWN_DIGITS,
};

/// Where a [`Reader`]'s bytes come from.
pub(super) trait Source {
    /// The buffer.
    fn buf(&self) -> &[u8];
    /// Drops the first `count` of the `end` bytes buffered.
    fn drop_front(&mut self, count: usize, end: usize);
    /// Moves the unconsumed `buf[pos..end]` to the front and reads more
    /// after it: the new `(pos, end)`, and what the read returned.
    fn read_more(&mut self, pos: usize, end: usize) -> (usize, usize, std::io::Result<usize>);
}

/// A stream read a chunk at a time into one buffer.
pub(super) struct Streamed<R> {
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
pub(super) struct Reader<S> {
    pub(super) source: S,
    pub(super) pos: usize,
    pub(super) end: usize,
    pub(super) eof: bool,
    /// A read error, reported after the bytes before it are parsed.
    pub(super) read_failed: Option<std::io::Error>,
    /// Line ends in the input before `buf[0]`.
    pub(super) lines: usize,
    /// The bytes of the line that `buf[0]` is on before `buf[0]`, when it
    /// began in an earlier chunk.
    pub(super) line_prefix: Vec<u8>,
}

impl<R: Read> Reader<Streamed<R>> {
    pub(super) fn new(source: R, chunk: usize) -> Self {
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
    pub(super) fn whole(input: &'a [u8]) -> Self {
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
    pub(super) fn skip_bom(&mut self) {
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
    pub(super) fn refill(&mut self) -> bool {
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
    pub(super) fn ensure(&mut self, count: usize) -> bool {
        while self.end - self.pos < count {
            if !self.refill() {
                return false;
            }
        }
        true
    }

    #[inline(always)]
    pub(super) fn skip_whitespace(&mut self) {
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
    pub(super) fn ends_token(&self, offset: usize) -> bool {
        offset >= self.end || self.source.buf()[offset].is_ascii_whitespace()
    }

    pub(super) fn read_error(&mut self) -> Result<(), ParseError> {
        match self.read_failed.take() {
            None => Ok(()),
            Some(err) => Err(self.error(ParseErrorKind::Invalid(format!(
                "cannot read the input: {err}"
            )))),
        }
    }

    /// The line and column of `offset` in the buffer, in the whole input.
    #[cold]
    pub(super) fn place(&self, offset: usize) -> (usize, usize) {
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
    pub(super) fn error_at(&self, offset: usize, kind: ParseErrorKind) -> ParseError {
        let (line, col) = self.place(offset);
        ParseError { line, col, kind }
    }

    pub(super) fn error(&self, kind: ParseErrorKind) -> ParseError {
        self.error_at(self.pos, kind)
    }

    /// The error for what is at `pos` when `expected` was wanted.
    #[cold]
    pub(super) fn unexpected(&mut self, expected: &str) -> ParseError {
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
                found: Found::at(&self.source.buf()[..self.end], self.pos),
                expected: expected.to_owned(),
            })
        }
    }

    /// An unsigned number in `min..=max`, as a whole token.
    #[inline(always)]
    pub(super) fn number(&mut self, what: &str, min: u64, max: u64) -> Result<u64, ParseError> {
        self.number_or(what, min, max, |what, value, min, max| {
            ParseErrorKind::OutOfRange {
                what: what.to_owned(),
                value,
                min,
                max,
            }
        })
    }

    /// [`Reader::number`], with `range_error` making the error of a number
    /// outside `min..=max` (as [`Reader::long_number`] takes it).
    #[inline(always)]
    pub(super) fn number_or(
        &mut self,
        what: &str,
        min: u64,
        max: u64,
        range_error: fn(&str, String, u64, u64) -> ParseErrorKind,
    ) -> Result<u64, ParseError> {
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
        self.long_number(what, min, max, range_error)
    }

    /// A number token of any length in `min..=max` (`range_error` makes the
    /// error otherwise, from `what`, the number as shown, `min` and `max`).
    /// The token may be longer than the buffer: its start is placed before
    /// it is dropped. The value saturates at `u64::MAX`.
    #[cold]
    #[inline(never)]
    pub(super) fn long_number(
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
}

/// Eight ASCII `'0'`s: XOR turns the bytes `'0'..='9'` into the digits
/// 0..=9, and every other byte into a value above 9.
pub(super) const DIGIT_ZEROS: u64 = 0x3030_3030_3030_3030;

/// How many of the 8 bytes (first byte lowest) are digits before the first
/// that is not, after XOR with [`DIGIT_ZEROS`]; 8 when all are.
#[inline]
pub(super) fn digit_run(digits: u64) -> usize {
    // A byte above 9 gets its high bit set by adding 0x76 (or had it). The
    // addition may carry into the next byte, but only out of a non-digit,
    // and only the lowest flagged byte matters.
    let not_digit = (digits.wrapping_add(0x7676_7676_7676_7676) | digits) & 0x8080_8080_8080_8080;
    (not_digit.trailing_zeros() / 8) as usize
}

/// The number written by 8 digit bytes, first (most significant) byte
/// lowest: pairs, then quadruples, then the whole, by three multiplies.
#[inline]
pub(super) fn swar_value(digits: u64) -> u64 {
    let pairs = (digits.wrapping_mul(10 * 256 + 1) >> 8) & 0x00FF_00FF_00FF_00FF;
    let quads = (pairs.wrapping_mul(100 * 65_536 + 1) >> 16) & 0x0000_FFFF_0000_FFFF;
    quads.wrapping_mul(10_000 * (1 << 32) + 1) >> 32
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

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
}
