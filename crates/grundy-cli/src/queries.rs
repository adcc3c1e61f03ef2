//! The query scripts of `grundy sum`: one query per line, run against a row
//! of `N` boards numbered from 1.
//!
//! ```text
//! value L R      the grundy value of the sum of boards L..=R
//! winner L R     who wins that sum: first or second
//! move L R       a winning move in that sum, or none
//! set P          replace board P by the board on the following lines
//! ```
//!
//! Indices are 1-based and inclusive, as in the contest problems:
//! `1 <= L <= R <= N`, `1 <= P <= N`. Words are separated by spaces or tabs;
//! blank lines and CRLF line ends are fine. The board after `set P` is in the
//! human format of [`grundy_report::parse::clear`] (rows of `0`/`1` or `.`/`#`) and ends at
//! a blank line, at the next query (a line that starts with a letter) or at
//! the end of the file. Queries are read one at a time ([`QueryReader`] is an
//! iterator), so the answers before a bad line can be printed.

use grundy::clear::large::LargeBoard;

use grundy_report::parse::clear::parse_large_boards;
use grundy_report::parse::{Found, ParseError, ParseErrorKind};

/// One query, with indices already checked and made 0-based.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Query {
    /// `value L R`: the value of the sum of boards `left..=right`.
    Value {
        /// First board, 0-based.
        left: usize,
        /// Last board, 0-based, inclusive.
        right: usize,
    },
    /// `winner L R`: who wins that sum.
    Winner {
        /// First board, 0-based.
        left: usize,
        /// Last board, 0-based, inclusive.
        right: usize,
    },
    /// `move L R`: a winning move in that sum.
    Move {
        /// First board, 0-based.
        left: usize,
        /// Last board, 0-based, inclusive.
        right: usize,
    },
    /// `set P` and a board: replace board `index`.
    Set {
        /// The board to replace, 0-based.
        index: usize,
        /// The new board, of any size.
        board: LargeBoard,
    },
}

/// Reads queries one at a time from a script, checking indices against a
/// row of `boards` boards.
#[derive(Clone, Debug)]
pub struct QueryReader<'a> {
    input: &'a [u8],
    /// Byte offset of the next line to read.
    pos: usize,
    /// 1-based number of that line.
    line: usize,
    boards: usize,
    failed: bool,
}

impl<'a> QueryReader<'a> {
    /// A reader of `input` for a row of `boards` boards.
    #[must_use]
    pub fn new(input: &'a [u8], boards: usize) -> QueryReader<'a> {
        QueryReader {
            input,
            pos: 0,
            line: 1,
            boards,
            failed: false,
        }
    }

    /// The next line (without its end), its start offset and number; `None`
    /// at the end of the input.
    fn next_line(&mut self) -> Option<(&'a [u8], usize, usize)> {
        if self.pos >= self.input.len() {
            return None;
        }
        let start = self.pos;
        let rest = &self.input[start..];
        let len = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
        self.pos = start + len + 1;
        let line = self.line;
        self.line += 1;
        let text = &rest[..len];
        Some((text.strip_suffix(b"\r").unwrap_or(text), start, line))
    }

    fn query(&mut self, text: &'a [u8], start: usize) -> Result<Query, ParseError> {
        let mut words = Words {
            input: self.input,
            text,
            start,
            pos: 0,
        };
        let (keyword, at) = words.next().expect("the line is not blank");
        match keyword {
            b"value" | b"winner" | b"move" => {
                let left = words.index("L", 1, self.boards, "value, winner and move take L R")?;
                let right =
                    words.index("R", left, self.boards, "value, winner and move take L R")?;
                words.end()?;
                let (left, right) = (left - 1, right - 1);
                Ok(match keyword {
                    b"value" => Query::Value { left, right },
                    b"winner" => Query::Winner { left, right },
                    _ => Query::Move { left, right },
                })
            }
            b"set" => {
                let index = words.index("P", 1, self.boards, "set takes P, then a board")? - 1;
                words.end()?;
                let board = self.board()?;
                Ok(Query::Set { index, board })
            }
            _ => Err(ParseError::at(
                self.input,
                at,
                ParseErrorKind::Invalid(format!(
                    "unknown query {:?}: expected value, winner, move or set",
                    String::from_utf8_lossy(keyword)
                )),
            )),
        }
    }

    /// The board on the lines after `set P`.
    fn board(&mut self) -> Result<LargeBoard, ParseError> {
        let start = self.pos.min(self.input.len());
        let first_line = self.line;
        let mut end = start;
        loop {
            let before = (self.pos, self.line);
            let Some((text, _, _)) = self.next_line() else {
                break;
            };
            let first = text.iter().find(|b| !matches!(b, b' ' | b'\t'));
            match first {
                None => break,
                Some(b) if b.is_ascii_alphabetic() => {
                    // The next query: leave it to be read.
                    (self.pos, self.line) = before;
                    break;
                }
                Some(_) => end = self.pos.min(self.input.len()),
            }
        }
        if end == start {
            return Err(ParseError::at(
                self.input,
                start,
                if start >= self.input.len() {
                    ParseErrorKind::UnexpectedEnd {
                        expected: "a board after set P (rows of 0 and 1)".into(),
                    }
                } else {
                    ParseErrorKind::UnexpectedChar {
                        found: Found::at(self.input, start),
                        expected: "a board after set P (rows of 0 and 1)".into(),
                    }
                },
            ));
        }
        let mut boards = parse_large_boards(&self.input[start..end], None).map_err(|mut err| {
            // The board's lines start at a line start of the script.
            err.line += first_line - 1;
            err
        })?;
        debug_assert_eq!(boards.len(), 1, "no blank line inside the block");
        Ok(boards.remove(0).board)
    }
}

impl Iterator for QueryReader<'_> {
    type Item = Result<Query, ParseError>;

    /// The next query; after an error, `None`.
    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        loop {
            let (text, start, _) = self.next_line()?;
            if text.iter().all(|b| matches!(b, b' ' | b'\t')) {
                continue;
            }
            let result = self.query(text, start);
            self.failed = result.is_err();
            return Some(result);
        }
    }
}

/// The words of one line.
struct Words<'a> {
    input: &'a [u8],
    text: &'a [u8],
    /// Offset of the line in `input`.
    start: usize,
    pos: usize,
}

impl<'a> Words<'a> {
    fn skip_blanks(&mut self) {
        while matches!(self.text.get(self.pos), Some(b' ' | b'\t')) {
            self.pos += 1;
        }
    }

    /// The next word and its offset in the input.
    fn next(&mut self) -> Option<(&'a [u8], usize)> {
        self.skip_blanks();
        let begin = self.pos;
        while self
            .text
            .get(self.pos)
            .is_some_and(|b| !matches!(b, b' ' | b'\t'))
        {
            self.pos += 1;
        }
        (self.pos > begin).then(|| (&self.text[begin..self.pos], self.start + begin))
    }

    /// A 1-based index in `min..=max`.
    fn index(
        &mut self,
        what: &str,
        min: usize,
        max: usize,
        usage: &str,
    ) -> Result<usize, ParseError> {
        let Some((word, at)) = self.next() else {
            return Err(ParseError::at(
                self.input,
                self.start + self.pos,
                ParseErrorKind::Invalid(format!("missing {what}: {usage}")),
            ));
        };
        if let Some(i) = word.iter().position(|b| !b.is_ascii_digit()) {
            return Err(ParseError::at(
                self.input,
                at + i,
                ParseErrorKind::UnexpectedChar {
                    found: Found::at(self.input, at + i),
                    expected: format!("a digit in {what}"),
                },
            ));
        }
        let value = std::str::from_utf8(word)
            .ok()
            .and_then(|w| w.parse::<usize>().ok());
        match value {
            Some(v) if (min..=max).contains(&v) => Ok(v),
            // Plain words for each way out: below L, no such board.
            Some(v) if v >= 1 && v < min => Err(ParseError::at(
                self.input,
                at,
                ParseErrorKind::Invalid(format!(
                    "{what} {v} is less than L {min}: a range L R needs L <= R"
                )),
            )),
            _ => Err(ParseError::at(
                self.input,
                at,
                ParseErrorKind::Invalid(format!(
                    "{what} {} is not a board: {}",
                    String::from_utf8_lossy(word),
                    match max {
                        1 => "there is 1 board, board 1".to_owned(),
                        n => format!("there are {n} boards, 1 to {n}"),
                    }
                )),
            )),
        }
    }

    /// Nothing more on the line.
    fn end(&mut self) -> Result<(), ParseError> {
        match self.next() {
            None => Ok(()),
            Some((_, at)) => Err(ParseError::at(
                self.input,
                at,
                ParseErrorKind::UnexpectedChar {
                    found: Found::at(self.input, at),
                    expected: "the end of the line".into(),
                },
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(script: &str, boards: usize) -> Vec<Result<Query, ParseError>> {
        QueryReader::new(script.as_bytes(), boards).collect()
    }

    #[test]
    fn reads_every_query_type() {
        let script =
            "value 1 3\r\n\nwinner 2 2\n  move\t1 3\nset 2\n0110\n.##.\nvalue 1 1\nset 3\n1\n\n";
        let queries: Vec<Query> = read(script, 3).into_iter().map(Result::unwrap).collect();
        assert_eq!(
            queries,
            [
                Query::Value { left: 0, right: 2 },
                Query::Winner { left: 1, right: 1 },
                Query::Move { left: 0, right: 2 },
                Query::Set {
                    index: 1,
                    board: LargeBoard::from_board(&grundy::board!["0110", "0110"])
                },
                Query::Value { left: 0, right: 0 },
                Query::Set {
                    index: 2,
                    board: LargeBoard::from_board(&grundy::board!["1"])
                },
            ]
        );
    }

    fn error(script: &str, boards: usize) -> String {
        read(script, boards)
            .into_iter()
            .find_map(Result::err)
            .expect("an error")
            .to_string()
    }

    #[test]
    fn errors_name_line_and_column_and_stop_the_reader() {
        assert_eq!(
            error("value 2 1\n", 3),
            "1:9: R 1 is less than L 2: a range L R needs L <= R"
        );
        assert_eq!(
            error("value 1 2\nset 4\n1\n", 3),
            "2:5: P 4 is not a board: there are 3 boards, 1 to 3"
        );
        assert_eq!(
            error("value 0 2\n", 3),
            "1:7: L 0 is not a board: there are 3 boards, 1 to 3"
        );
        assert_eq!(
            error("value 1 2\n", 1),
            "1:9: R 2 is not a board: there is 1 board, board 1"
        );
        assert_eq!(
            error("move 3 99999999999999999999999\n", 4),
            "1:8: R 99999999999999999999999 is not a board: there are 4 boards, 1 to 4"
        );
        assert_eq!(
            error("\nwho 1 2\n", 3),
            "2:1: unknown query \"who\": expected value, winner, move or set"
        );
        assert_eq!(
            error("move 1\n", 3),
            "1:7: missing R: value, winner and move take L R"
        );
        assert_eq!(
            error("move 1 x\n", 3),
            "1:8: unexpected 'x', expected a digit in R"
        );
        assert_eq!(
            error("move 1 2 3\n", 3),
            "1:10: unexpected '3', expected the end of the line"
        );
        assert_eq!(
            error("set 1\n", 3),
            "2:1: unexpected end of input, expected a board after set P (rows of 0 and 1)"
        );
        assert_eq!(
            error("set 1\nvalue 1 1\n", 3),
            "2:1: unexpected 'v', expected a board after set P (rows of 0 and 1)"
        );
        assert_eq!(
            error("set 1\n01\n012\n", 3),
            "3:3: unexpected '2', expected a cell: 0 or 1 (or . and #)"
        );
        assert_eq!(
            error("set 1\n01\n011\n", 3),
            "3:3: ragged row: 3 cells, but the first row has 2"
        );
        // Boards of any size are taken: 8 x 9 is 72 cells.
        let big = format!("set 1\n{}", "000000000\n".repeat(8));
        match read(&big, 1).remove(0) {
            Ok(Query::Set { board, .. }) => assert_eq!((board.rows(), board.cols()), (8, 9)),
            other => panic!("{other:?}"),
        }
        // After an error, nothing more is read.
        assert_eq!(read("who\nvalue 1 1\n", 1).len(), 1);
    }
}
