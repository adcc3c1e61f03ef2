//! The front-ends' text formats: ONE parser per format, shared by the
//! command line, the web server (and the Python package), with typed errors
//! that carry a line and a column.
//!
//! Why here: the engine (`grundy`) has no formats, and every front-end
//! already depends on this crate for its reports and its wording
//! ([`crate::words`]); a separate crate would have exactly the same
//! dependents and dependencies. [`clear`] reads rectangle-clearing boards,
//! [`split`] the splitting game's grids, [`pawn`] the pawn game's impassable
//! cells and coordinates; the judge formats (in the command
//! line's `judge` module) use the same [`ParseError`] and [`Scanner`].
//! (`grundy::clear::Board::from_rows`, behind the engine's `board!` macro,
//! reads literals in source code at compile time and panics on a bad one:
//! it is not a user format.)
//!
//! Parsers track only a byte offset on their hot path; the line and column of
//! an error are computed from that offset when the error is made, so correct
//! input pays nothing for good error messages.

pub mod clear;
pub mod pawn;
mod rows;
pub mod split;

use std::fmt;

/// What went wrong while parsing, without the place.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// A character that the format does not allow here.
    #[error("unexpected {found}, expected {expected}")]
    UnexpectedChar {
        /// The character found, quoted for display.
        found: Found,
        /// What the format wanted.
        expected: String,
    },
    /// The input ended early.
    #[error("unexpected end of input, expected {expected}")]
    UnexpectedEnd {
        /// What the format wanted.
        expected: String,
    },
    /// The input holds nothing to parse.
    #[error("empty input: expected {expected}")]
    Empty {
        /// What the format wanted.
        expected: String,
    },
    /// A row of a grid whose length differs from the first row's.
    #[error("ragged row: {}, but the first row has {expected}", count(*.found as u64, "cell"))]
    RaggedRow {
        /// The first row's length.
        expected: usize,
        /// This row's length.
        found: usize,
    },
    /// A number outside the range the format or the game allows.
    #[error("{what} {value} is out of range {min} to {max}")]
    OutOfRange {
        /// What the number stands for.
        what: String,
        /// The number, as written.
        value: String,
        /// The least allowed value.
        min: u64,
        /// The greatest allowed value.
        max: u64,
    },
    /// Something the input states twice that must be unique.
    #[error("duplicate {what}")]
    Duplicate {
        /// What is repeated, with its first place if known.
        what: String,
    },
    /// A size the game does not support.
    #[error("{0}")]
    TooLarge(String),
    /// Boards whose analysis needs more memory than the budget allows: a
    /// budget, not bad input (the command line exits 3).
    #[error("{message}")]
    OverMemory {
        /// The refusal in words.
        message: String,
        /// The bytes the analysis of the boards up to here needs.
        needs: u64,
        /// The budget.
        limit: u64,
        /// The bytes the cells of every board of the input take alone.
        cell_bytes: u64,
    },
    /// Any other violation of the format, described in words.
    #[error("{0}")]
    Invalid(String),
}

/// What was found in the input: a character, shown quoted (`'x'`) or by
/// name, or a byte that begins no UTF-8 character (a UTF-16 or Latin-1
/// file), shown by its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Found {
    /// A character.
    Char(char),
    /// A byte that is not UTF-8 there.
    Byte(u8),
}

impl Found {
    /// What is at byte `offset` of `input`: the UTF-8 character that
    /// starts there (a stray `é` is itself), else the byte.
    #[must_use]
    pub fn at(input: &[u8], offset: usize) -> Found {
        let end = (offset + 4).min(input.len());
        let tail = &input[offset.min(end)..end];
        let valid = match std::str::from_utf8(tail) {
            Ok(s) => s,
            Err(e) => std::str::from_utf8(&tail[..e.valid_up_to()]).unwrap_or(""),
        };
        match (valid.chars().next(), tail.first()) {
            (Some(c), _) => Found::Char(c),
            (None, Some(&byte)) => Found::Byte(byte),
            (None, None) => Found::Char('\u{FFFD}'),
        }
    }
}

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Found::Byte(byte) => write!(f, "byte 0x{byte:02X} (not UTF-8 text)"),
            Found::Char('\n') => f.write_str("end of line"),
            Found::Char('\r') => f.write_str("carriage return"),
            Found::Char('\t') => f.write_str("tab"),
            Found::Char(' ') => f.write_str("space"),
            // Whitespace to C's `isspace`, not to these formats (ASCII
            // whitespace: space, tab, line feed, carriage return, form feed).
            Found::Char('\u{B}') => f.write_str("vertical tab U+000B (not whitespace here)"),
            Found::Char(c) if c.is_control() => {
                write!(f, "control character U+{:04X}", c as u32)
            }
            Found::Char('\u{FEFF}') => f.write_str("byte-order mark U+FEFF"),
            Found::Char(c) if c.is_ascii() => write!(f, "{c:?}"),
            // Characters that print as nothing (a zero-width space) or as a
            // space are named by their code point alone; any other by both,
            // so that a look-alike of a digit shows what it is.
            Found::Char(c) if c.is_whitespace() || c.escape_debug().count() > 1 => {
                write!(f, "character U+{:04X}", c as u32)
            }
            Found::Char(c) => write!(f, "'{c}' (U+{:04X})", c as u32),
        }
    }
}

/// A parse error at a place in the input. Displays as `line:col: what`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{col}: {kind}")]
pub struct ParseError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub col: usize,
    /// What went wrong.
    pub kind: ParseErrorKind,
}

impl ParseError {
    /// An error at byte `offset` of `input`.
    #[must_use]
    pub fn at(input: &[u8], offset: usize, kind: ParseErrorKind) -> ParseError {
        let (line, col) = line_col(input, offset);
        ParseError { line, col, kind }
    }
}

/// The UTF-8 byte order mark, which some editors put at the start of a file.
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Drops a leading UTF-8 byte order mark, so that every format reads a file
/// saved with one as if it had none (lines and columns then count from the
/// first visible character).
pub fn strip_bom(bytes: &mut Vec<u8>) {
    if bytes.starts_with(BOM) {
        bytes.drain(..BOM.len());
    }
}

pub use crate::words::count;

/// `input` without a leading UTF-8 byte order mark. The text parsers read a file saved with one as if it
/// had none, lines and columns counted from the first visible character.
#[must_use]
pub fn without_bom(input: &[u8]) -> &[u8] {
    input.strip_prefix(BOM).unwrap_or(input)
}

/// The 1-based line and column (in characters) of byte `offset` of `input`.
#[must_use]
pub fn line_col(input: &[u8], offset: usize) -> (usize, usize) {
    let offset = offset.min(input.len());
    let before = &input[..offset];
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let col = 1 + String::from_utf8_lossy(&before[line_start..])
        .chars()
        .count();
    (line, col)
}

/// A number of `digits` digits that begin with `prefix`, as an error
/// message shows it: whole up to [`SHOWN_DIGITS`] digits, else its first
/// digits and how many there are (a number may have any number of digits).
#[must_use]
pub fn shown_number(prefix: &[u8], digits: usize) -> String {
    if digits <= SHOWN_DIGITS && prefix.len() >= digits {
        String::from_utf8_lossy(&prefix[..digits]).into_owned()
    } else {
        let head = &prefix[..prefix.len().min(SHOWN_DIGITS / 2)];
        format!("{}... ({digits} digits)", String::from_utf8_lossy(head))
    }
}

/// The most digits an error message shows of a number.
pub const SHOWN_DIGITS: usize = 32;

/// A cursor over whitespace-separated tokens, for the judge formats. All
/// whitespace (spaces, tabs, blank lines, CRLF) between tokens is skipped.
///
/// Hand-written rather than built on a parser crate: it is the hot path of
/// every judge mode (tens of megabytes), where a byte loop over a slice is
/// what a general tokenizer measurably is not.
#[derive(Clone, Debug)]
pub struct Scanner<'a> {
    input: &'a [u8],
    pos: usize,
}

impl<'a> Scanner<'a> {
    /// A scanner at the start of `input`.
    #[must_use]
    #[inline]
    pub fn new(input: &'a [u8]) -> Scanner<'a> {
        Scanner { input, pos: 0 }
    }

    /// The whole input.
    #[must_use]
    #[inline]
    pub fn input(&self) -> &'a [u8] {
        self.input
    }

    /// The current byte offset.
    #[must_use]
    #[inline]
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Moves to byte `offset`.
    #[inline]
    pub fn set_position(&mut self, offset: usize) {
        self.pos = offset.min(self.input.len());
    }

    /// Skips whitespace; returns the next byte without consuming it.
    #[inline]
    pub fn peek_token(&mut self) -> Option<u8> {
        while let Some(&b) = self.input.get(self.pos) {
            if !b.is_ascii_whitespace() {
                return Some(b);
            }
            self.pos += 1;
        }
        None
    }

    /// True when only whitespace is left.
    #[inline]
    pub fn at_end(&mut self) -> bool {
        self.peek_token().is_none()
    }

    /// An error at the current position.
    #[must_use]
    pub fn error(&self, kind: ParseErrorKind) -> ParseError {
        ParseError::at(self.input, self.pos, kind)
    }

    /// An error at byte `offset`.
    #[must_use]
    pub fn error_at(&self, offset: usize, kind: ParseErrorKind) -> ParseError {
        ParseError::at(self.input, offset, kind)
    }

    /// Skips spaces and tabs (and a carriage return), not line breaks;
    /// true when the line ends there (a line break or the end of input).
    /// For formats of one record a line, where the judges' formats see only
    /// tokens.
    pub fn line_ends(&mut self) -> bool {
        while let Some(b' ' | b'\t' | b'\r') = self.input.get(self.pos) {
            self.pos += 1;
        }
        matches!(self.input.get(self.pos), None | Some(b'\n'))
    }

    /// Requires the line to go on with a token (`what`, the record's next
    /// field, on the same line as the last).
    ///
    /// # Errors
    ///
    /// [`ParseErrorKind::Invalid`] at the line's end, naming `record`.
    pub fn more_on_line(&mut self, what: &str, record: &str) -> Result<(), ParseError> {
        if self.line_ends() {
            return Err(self.error(ParseErrorKind::Invalid(format!(
                "the line ends before {what}: lines are `{record}`"
            ))));
        }
        Ok(())
    }

    /// Requires the line to end here (after blanks): one record a line.
    ///
    /// # Errors
    ///
    /// [`ParseErrorKind::UnexpectedChar`] at what follows on the line.
    pub fn end_of_line(&mut self, record: &str) -> Result<(), ParseError> {
        if self.line_ends() {
            return Ok(());
        }
        Err(self.error(ParseErrorKind::UnexpectedChar {
            found: Found::at(self.input, self.pos),
            expected: format!("the end of the line after `{record}`"),
        }))
    }

    /// The error for a missing or malformed token at the current position.
    #[must_use]
    pub fn expected(&mut self, expected: &str) -> ParseError {
        match self.peek_token() {
            None => self.error(ParseErrorKind::UnexpectedEnd {
                expected: expected.to_owned(),
            }),
            Some(_) => self.error(ParseErrorKind::UnexpectedChar {
                found: Found::at(self.input, self.pos),
                expected: expected.to_owned(),
            }),
        }
    }

    /// Reads an unsigned integer in `min..=max`. `what` names it in errors.
    ///
    /// # Errors
    ///
    /// A missing number, a stray character, or a value out of range.
    #[inline]
    pub fn u64_in(&mut self, what: &str, min: u64, max: u64) -> Result<u64, ParseError> {
        let start = match self.peek_token() {
            Some(b) if b.is_ascii_digit() => self.pos,
            _ => return Err(self.expected(what)),
        };
        let mut value: u64 = 0;
        let mut overflow = false;
        while let Some(&b) = self.input.get(self.pos) {
            if !b.is_ascii_digit() {
                break;
            }
            match value
                .checked_mul(10)
                .and_then(|v| v.checked_add(u64::from(b - b'0')))
            {
                Some(v) => value = v,
                None => overflow = true,
            }
            self.pos += 1;
        }
        if let Some(&b) = self.input.get(self.pos) {
            if !b.is_ascii_whitespace() {
                return Err(self.error(ParseErrorKind::UnexpectedChar {
                    found: Found::at(self.input, self.pos),
                    expected: format!("a digit or whitespace in {what}"),
                }));
            }
        }
        if overflow || value < min || value > max {
            return Err(self.error_at(
                start,
                ParseErrorKind::OutOfRange {
                    what: what.to_owned(),
                    value: shown_number(&self.input[start..self.pos], self.pos - start),
                    min,
                    max,
                },
            ));
        }
        Ok(value)
    }

    /// Reads a `usize` in `min..=max`.
    ///
    /// # Errors
    ///
    /// As [`Scanner::u64_in`].
    #[inline]
    pub fn usize_in(&mut self, what: &str, min: usize, max: usize) -> Result<usize, ParseError> {
        // Both bounds fit a u64 on every supported target.
        self.u64_in(what, min as u64, max as u64)
            .map(|v| v as usize)
    }

    /// Consumes one byte.
    #[inline]
    pub fn bump(&mut self) {
        self.pos += 1;
    }

    /// Reads the next non-whitespace token as raw bytes.
    #[inline]
    pub fn token(&mut self) -> Option<&'a [u8]> {
        self.peek_token()?;
        let start = self.pos;
        while self
            .input
            .get(self.pos)
            .is_some_and(|b| !b.is_ascii_whitespace())
        {
            self.pos += 1;
        }
        Some(&self.input[start..self.pos])
    }
}

/// A row of `found` cells where `expected` were due, located at the cell
/// the rows disagree on: the first one too many, or just after the last
/// one of a short row (as the judges' own readers locate it). `line` is
/// the row's text from `line_start`; cells are its bytes other than spaces
/// and tabs, which the parsers have checked already.
pub(crate) fn ragged_row(
    input: &[u8],
    line_start: usize,
    line: &[u8],
    expected: usize,
    found: usize,
) -> ParseError {
    let mut cells = 0;
    let mut after_last = line_start;
    for (i, &byte) in line.iter().enumerate() {
        if byte == b' ' || byte == b'\t' {
            continue;
        }
        if cells == expected {
            after_last = line_start + i;
            break;
        }
        cells += 1;
        after_last = line_start + i + 1;
    }
    ParseError::at(
        input,
        after_last,
        ParseErrorKind::RaggedRow { expected, found },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_lines_and_characters() {
        let text = "ab\ncé\nx";
        assert_eq!(line_col(text.as_bytes(), 0), (1, 1));
        assert_eq!(line_col(text.as_bytes(), 3), (2, 1));
        // after 'c' and the two-byte 'é'
        assert_eq!(line_col(text.as_bytes(), 6), (2, 3));
        assert_eq!(line_col(text.as_bytes(), 7), (3, 1));
    }

    #[test]
    fn bom_is_dropped_and_counts_are_plural_unless_one() {
        let mut bytes = b"\xEF\xBB\xBF01\n".to_vec();
        strip_bom(&mut bytes);
        assert_eq!(bytes, b"01\n");
        strip_bom(&mut bytes);
        assert_eq!(bytes, b"01\n", "only a leading mark is dropped");
        assert_eq!(count(0, "cell"), "0 cells");
        assert_eq!(count(1, "cell"), "1 cell");
        assert_eq!(count(2, "row"), "2 rows");
        let ragged = ParseErrorKind::RaggedRow {
            expected: 3,
            found: 1,
        };
        assert_eq!(
            ragged.to_string(),
            "ragged row: 1 cell, but the first row has 3"
        );
    }

    /// A character is shown as itself, a byte that starts no UTF-8
    /// character (a UTF-16 or Latin-1 file) by its value.
    #[test]
    fn what_was_found_is_a_character_or_a_byte() {
        assert_eq!(Found::at("1é".as_bytes(), 1), Found::Char('é'));
        assert_eq!(Found::at(b"1\xE90", 1), Found::Byte(0xE9));
        assert_eq!(Found::at(b"\xFF\xFE1\x00", 0), Found::Byte(0xFF));
        assert_eq!(Found::at(b"1\n", 1), Found::Char('\n'));
        // A character cut by the end of the input is a byte too.
        assert_eq!(Found::at(&"é".as_bytes()[..1], 0), Found::Byte(0xC3));
        assert_eq!(Found::Byte(0xFF).to_string(), "byte 0xFF (not UTF-8 text)");
        assert_eq!(Found::Char('é').to_string(), "'é' (U+00E9)");
        assert_eq!(
            Found::Char('\u{FEFF}').to_string(),
            "byte-order mark U+FEFF"
        );
        assert_eq!(Found::Char('\u{200B}').to_string(), "character U+200B");
        assert_eq!(Found::Char('\u{A0}').to_string(), "character U+00A0");
        assert_eq!(Found::Char('x').to_string(), "'x'");
        assert_eq!(Found::Char('\u{7}').to_string(), "control character U+0007");
        assert_eq!(
            Found::Char('\u{B}').to_string(),
            "vertical tab U+000B (not whitespace here)"
        );
    }

    #[test]
    fn scanner_reports_place_and_range() {
        let mut s = Scanner::new(b" 12\r\n\n 7x 99");
        assert_eq!(s.u64_in("N", 1, 100).unwrap(), 12);
        let err = s.u64_in("M", 1, 100).unwrap_err();
        assert_eq!((err.line, err.col), (3, 3));
        assert!(err.to_string().contains("unexpected 'x'"), "{err}");
        let mut s = Scanner::new(b"5 1000");
        s.u64_in("N", 1, 10).unwrap();
        let err = s.u64_in("M", 1, 100).unwrap_err();
        assert_eq!(err.to_string(), "1:3: M 1000 is out of range 1 to 100");
        let mut s = Scanner::new(b"  ");
        assert_eq!(
            s.u64_in("T", 1, 5).unwrap_err().kind,
            ParseErrorKind::UnexpectedEnd {
                expected: "T".into()
            }
        );
        let mut s = Scanner::new(b"99999999999999999999999");
        assert!(matches!(
            s.u64_in("T", 1, 5).unwrap_err().kind,
            ParseErrorKind::OutOfRange { .. }
        ));
        // Leading zeros and any number of digits; long ones are abbreviated.
        let zeros = "0".repeat(100);
        let text = format!("{zeros}5 {zeros}6");
        let mut s = Scanner::new(text.as_bytes());
        assert_eq!(s.u64_in("T", 1, 5).unwrap(), 5);
        assert_eq!(
            s.u64_in("N", 1, 5).unwrap_err().to_string(),
            "1:103: N 0000000000000000... (101 digits) is out of range 1 to 5"
        );
    }
}
