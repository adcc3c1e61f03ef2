//! The contest problems' exact input and output formats.
//!
//! One tokenising rule holds for every judge:
//! - tokens are separated by ASCII whitespace (space, tab, line feed,
//!   carriage return, form feed), any amount of it, so CRLF line ends and
//!   blank lines are fine; a UTF-8 byte order mark at the very start is
//!   skipped (error columns do not count it);
//! - a number is one token of decimal digits: leading zeros are allowed and
//!   the number of digits is not limited, the *value* is checked against
//!   the format's range (`007` is 7, `000…0001` with a hundred zeros is 1);
//!   anything else in the token (a sign, a letter) is an error at that byte;
//! - a cell, row or map row is one token: a `gfg` cell is the one-character
//!   token `0` or `1`, a `pshtbrth` board row exactly 4 of them, a `caos3`
//!   map row exactly `C` characters `^`/`#`;
//! - after the last answer's input only whitespace may follow.
//!
//! Every judge writes its answers through an [`Answers`] buffer that is
//! handed to the writer every [`FLUSH_AT`] bytes, so memory does not grow
//! with the number of answers, and the answers before an error are written
//! before the error is returned.

use std::io::Write;

use grundy_report::parse::ParseError;

/// The error after the last test a judge's input announced: the same words
/// for every judge.
fn trailing_input(tests: impl Into<u64>) -> grundy_report::parse::ParseErrorKind {
    let tests = tests.into();
    grundy_report::parse::ParseErrorKind::Invalid(format!(
        "trailing input after the {tests} test{} announced",
        if tests == 1 { "" } else { "s" }
    ))
}

pub mod caos3;
pub mod gfg;
pub mod gridgame;
pub mod pshtbrth;
mod scan;

/// The UTF-8 byte order mark, which some editors put at the start of a file.
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

/// `input` without a leading UTF-8 byte order mark.
#[must_use]
pub fn skip_bom(input: &[u8]) -> &[u8] {
    input.strip_prefix(BOM).unwrap_or(input)
}

/// Answers are written out whenever this many bytes are buffered: large
/// enough that a write costs little per answer, small enough to stay in
/// cache and bound memory.
pub const FLUSH_AT: usize = 1 << 16;

/// Why a judge stopped: bad input (the answers before it are written), or
/// the answers could not be written.
#[derive(Debug, thiserror::Error)]
pub enum JudgeError {
    /// The input breaks the format, at a line and column.
    #[error(transparent)]
    Input(#[from] ParseError),
    /// Writing the answers failed.
    // The cause follows in the error chain (`: No space left on device`).
    #[error("cannot write the answers")]
    Write(#[from] std::io::Error),
}

impl JudgeError {
    /// The parse error, if that is what this is.
    #[must_use]
    pub fn input(&self) -> Option<&ParseError> {
        match self {
            JudgeError::Input(err) => Some(err),
            JudgeError::Write(_) => None,
        }
    }
}

/// An output buffer of whole answer lines, written out in chunks of about
/// [`FLUSH_AT`] bytes.
#[derive(Debug)]
pub struct Answers<W: Write> {
    buf: Vec<u8>,
    out: W,
}

impl<W: Write> Answers<W> {
    /// A buffer in front of `out`.
    pub fn new(out: W) -> Self {
        Answers {
            buf: Vec::with_capacity(FLUSH_AT + 256),
            out,
        }
    }

    /// Appends one answer, and writes the buffer out when it is full.
    ///
    /// # Errors
    ///
    /// A failed write.
    #[inline]
    pub fn push(&mut self, answer: &[u8]) -> std::io::Result<()> {
        self.buf.extend_from_slice(answer);
        self.flush_if_full()
    }

    /// The buffer itself, for a batch of answers followed by
    /// [`Answers::flush_if_full`].
    #[inline]
    pub fn buffer(&mut self) -> &mut Vec<u8> {
        &mut self.buf
    }

    /// Writes the buffer out if it holds [`FLUSH_AT`] bytes or more.
    ///
    /// # Errors
    ///
    /// A failed write.
    #[inline]
    pub fn flush_if_full(&mut self) -> std::io::Result<()> {
        if self.buf.len() >= FLUSH_AT {
            self.write_out()?;
        }
        Ok(())
    }

    #[cold]
    fn write_out(&mut self) -> std::io::Result<()> {
        self.out.write_all(&self.buf)?;
        self.buf.clear();
        Ok(())
    }

    /// Writes out everything buffered and flushes the writer.
    ///
    /// # Errors
    ///
    /// A failed write.
    pub fn finish(&mut self) -> std::io::Result<()> {
        self.write_out()?;
        self.out.flush()
    }
}

/// Runs a judge's `answer` over `out`, then writes out the answers it gave
/// (all of them, or those before its error), then returns its error.
pub(crate) fn answering<W: Write>(
    out: W,
    answer: impl FnOnce(&mut Answers<W>) -> Result<(), JudgeError>,
) -> Result<(), JudgeError> {
    let mut answers = Answers::new(out);
    let result = answer(&mut answers);
    answers.finish()?;
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer that records the size of every write it is given.
    struct Sizes(Vec<usize>);

    impl Write for Sizes {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.push(buf.len());
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn answers_are_written_in_bounded_chunks_and_all_at_the_end() {
        let mut sizes = Sizes(Vec::new());
        let mut answers = Answers::new(&mut sizes);
        for _ in 0..100_000 {
            answers.push(b"Pishty\n").unwrap();
        }
        answers.finish().unwrap();
        assert!(sizes.0.len() > 10, "{:?}", sizes.0);
        assert!(sizes.0.iter().all(|&size| size < FLUSH_AT + 7));
        assert_eq!(sizes.0.iter().sum::<usize>(), 700_000);
    }

    #[test]
    fn a_bom_is_skipped_once() {
        assert_eq!(skip_bom(b"\xEF\xBB\xBF1 2"), b"1 2");
        assert_eq!(skip_bom(b"\xEF\xBB\xBF\xEF\xBB\xBF1"), b"\xEF\xBB\xBF1");
        assert_eq!(skip_bom(b"\xEF\xBB"), b"\xEF\xBB");
    }
}
