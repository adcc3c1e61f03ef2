//! The one set of grid parsers, `grundy_report::parse::split` (the command
//! line's and, for matrices, the web server's): `parse_matrix_rows` (the
//! JSON form) on the input's lines locates its errors, and what it accepts
//! `parse_matrix` reads as the same grid. `parse_matrix`, `parse_map` and
//! `parse_cells` on the same bytes: errors
//! are located; an accepted grid records where each candidate was written
//! (a candidate character for a matrix, a `^` for a map), a map keeps its
//! walls for a drawing, and a matrix or a cell list printed again parses to
//! the same grid.
#![no_main]

use std::fmt::Write;

use grundy::split::{Cell, Grid};
use grundy_fuzz::check_error;
use grundy_report::parse::split::{
    parse_cells, parse_map, parse_matrix, parse_matrix_rows, ParsedGrid, MAX_WALLS_KEPT,
};
use grundy_report::parse::ParseError;
use libfuzzer_sys::fuzz_target;

/// Checks the offsets of an accepted grid against the bytes there.
fn check_offsets(input: &[u8], parsed: &ParsedGrid, at_candidate: &[u8]) {
    let grid = &parsed.grid;
    for &cell in grid.candidates() {
        assert!(cell.row < grid.rows() && cell.col < grid.cols());
        let offset = parsed
            .offset_of(cell)
            .unwrap_or_else(|| panic!("no offset for candidate {cell:?}"));
        assert!(offset < input.len(), "offset {offset} past the input");
        if !at_candidate.is_empty() {
            assert!(
                at_candidate.contains(&input[offset]),
                "candidate {cell:?} at byte {:?}",
                input[offset] as char
            );
        }
    }
}

fn matrix_text(grid: &Grid) -> String {
    let mut text = String::new();
    for row in 0..grid.rows() {
        for col in 0..grid.cols() {
            text.push(if grid.is_candidate(Cell::new(row, col)) {
                '1'
            } else {
                '0'
            });
        }
        text.push('\n');
    }
    text
}

fn cells_text(grid: &Grid) -> String {
    let mut text = format!("{} {}\n", grid.rows(), grid.cols());
    for cell in grid.candidates() {
        writeln!(text, "{} {}", cell.row, cell.col).expect("a String takes writes");
    }
    text
}

fn check(input: &[u8], result: Result<ParsedGrid, ParseError>, at_candidate: &[u8]) {
    match result {
        Err(err) => check_error(input, &err),
        Ok(parsed) => check_offsets(input, &parsed, at_candidate),
    }
}

fuzz_target!(|input: &[u8]| {
    if let Ok(text) = std::str::from_utf8(input) {
        let mut rows: Vec<&str> = text.split('\n').collect();
        if rows.last() == Some(&"") {
            rows.pop();
        }
        match parse_matrix_rows(&rows) {
            Err(err) => check_error(input, &err),
            Ok(grid) => {
                let parsed = parse_matrix(input).expect("rows accepted as a grid");
                assert_eq!(parsed.grid, grid, "rows and text agree");
            }
        }
    }
    let matrix = parse_matrix(input);
    if let Ok(parsed) = &matrix {
        // Rows and columns are bounded by the input's lines and bytes here.
        let again = parse_matrix(matrix_text(&parsed.grid).as_bytes()).expect("a matrix parses");
        assert_eq!(again.grid, parsed.grid, "matrix round trip");
    }
    check(input, matrix, b"1xX");
    let map = parse_map(input);
    if let Ok(parsed) = &map {
        // The walls kept for a drawing are the map's `#`s, row by row of
        // its cells (blanks, a mark and line ends aside), and no candidate.
        let cells = parsed.grid.rows() as usize * parsed.grid.cols() as usize;
        let walls: usize = input.iter().filter(|&&b| b == b'#').count();
        if cells <= MAX_WALLS_KEPT {
            assert_eq!(parsed.walls.len(), walls, "every wall kept");
            assert!(parsed.walls.windows(2).all(|w| w[0] < w[1]), "walls sorted");
            assert!(parsed.walls.iter().all(|&w| !parsed.grid.is_candidate(w)));
        } else {
            assert!(parsed.walls.is_empty(), "no walls kept past a drawing");
        }
    }
    check(input, map, b"^");
    let cells = parse_cells(input);
    if let Ok(parsed) = &cells {
        let again = parse_cells(cells_text(&parsed.grid).as_bytes()).expect("a cell list parses");
        assert_eq!(again.grid, parsed.grid, "cell list round trip");
    }
    check(input, cells, b"");
});
