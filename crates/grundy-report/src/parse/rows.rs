//! The JSON form shared by the grid formats: a board or a grid given as its
//! rows, one string a row, checked row by row and joined into the text its
//! format's parser reads (which then locates errors at row and column, the
//! row standing for the line).

use super::{Found, ParseError, ParseErrorKind};

/// The rows joined by line ends, for the text parser of the `thing`'s
/// format (`"board"`, `"grid"`); `cells` names the format's cells in the
/// message of a character no row may hold.
///
/// # Errors
///
/// A line break or a byte order mark inside a row, and a row holding no
/// cell, each located at its row and column.
pub(crate) fn joined<S: AsRef<str>>(
    rows: &[S],
    cells: &str,
    thing: &str,
) -> Result<String, ParseError> {
    let mut text = String::new();
    for (index, row) in rows.iter().enumerate() {
        let row = row.as_ref();
        let located = |col: usize, kind: ParseErrorKind| ParseError {
            line: index + 1,
            col,
            kind,
        };
        if let Some((col, c)) = row
            .chars()
            .enumerate()
            .find(|&(_, c)| matches!(c, '\n' | '\r' | '\u{FEFF}'))
        {
            return Err(located(
                col + 1,
                ParseErrorKind::UnexpectedChar {
                    found: Found::Char(c),
                    expected: format!(
                        "a cell: {cells}; a row is one line, without a byte order mark"
                    ),
                },
            ));
        }
        if row.chars().all(|c| c == ' ' || c == '\t') {
            return Err(located(
                1,
                ParseErrorKind::Invalid(format!("empty row: every row of a {thing} holds cells")),
            ));
        }
        text.push_str(row);
        text.push('\n');
    }
    Ok(text)
}
