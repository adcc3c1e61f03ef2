//! Every text the Python API accepts goes through the command line's own
//! parsers (`grundy_report::parse`, shared with the web server), so a
//! board, a grid or a list of impassable cells means the same thing, and
//! fails with the same located message, in Python as in `grundy clear FILE`.

use grundy::clear::Board;
use grundy::pawn::Blocked;
use grundy::split::Grid;
use grundy_report::parse::split::ParsedGrid;
use grundy_report::parse::ParseError;
use pyo3::exceptions::PyValueError;
use pyo3::PyErr;

/// `<source>:<line>:<col>: <what>`, as the CLI prints after `error: `.
pub fn located(source: &str, err: &ParseError) -> PyErr {
    PyValueError::new_err(format!("{source}:{err}"))
}

/// Rectangle-clearing boards: rows of 0/1 (or ./#), blank lines between
/// the boards of a sum.
pub fn boards(text: &str, source: &str) -> Result<Vec<Board>, PyErr> {
    let parsed = grundy_report::parse::clear::parse_boards(text.as_bytes())
        .map_err(|e| located(source, &e))?;
    Ok(parsed.into_iter().map(|b| b.board).collect())
}

/// The boards of every `(text, source)` pair, in order.
pub fn all_boards(texts: &[(String, String)]) -> Result<Vec<Board>, PyErr> {
    let mut all = Vec::new();
    for (text, source) in texts {
        all.extend(boards(text, source)?);
    }
    Ok(all)
}

/// A splitting-game grid as rows of 0/1 (`1`/`x` candidate).
pub fn matrix(text: &str, source: &str) -> Result<Grid, PyErr> {
    grundy_report::parse::split::parse_matrix(text.as_bytes())
        .map(|p| p.grid)
        .map_err(|e| located(source, &e))
}

/// A splitting-game grid as rows of 0/1, with where each candidate was
/// written (for a located refusal of a grid too large).
pub fn parsed_matrix(text: &str, source: &str) -> Result<ParsedGrid, PyErr> {
    grundy_report::parse::split::parse_matrix(text.as_bytes()).map_err(|e| located(source, &e))
}

/// A splitting-game grid as `R C` then one `row col` per candidate.
pub fn cells(text: &str, source: &str) -> Result<Grid, PyErr> {
    grundy_report::parse::split::parse_cells(text.as_bytes())
        .map(|p| p.grid)
        .map_err(|e| located(source, &e))
}

/// Impassable cells of the pawn game, one `X Y` (or `X,Y`) a line.
pub fn blocked(text: &str, source: &str) -> Result<Blocked, PyErr> {
    grundy_report::parse::pawn::parse_blocked(text.as_bytes())
        .map(|p| p.blocked)
        .map_err(|e| located(source, &e))
}
