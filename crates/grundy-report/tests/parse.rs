//! Golden inputs of the shared text parsers (`tests/data/parse/`): each
//! `clear-*.in` / `split-*.in` with the `.out` written by hand from the
//! format's rules in the README (the boards or grid read, or the located
//! error). The command line and the web server call these parsers, so
//! these files pin the syntax both accept.

use std::fmt::Write as _;
use std::path::Path;

use grundy_report::parse::clear::parse_boards;
use grundy_report::parse::split::parse_matrix;

fn render_clear(input: &[u8]) -> String {
    match parse_boards(input) {
        Err(err) => format!("error: {err}\n"),
        Ok(boards) => {
            let mut out = String::new();
            for (index, parsed) in boards.iter().enumerate() {
                if index > 0 {
                    out.push('\n');
                }
                let _ = writeln!(out, "board {} (line {})", index + 1, parsed.line);
                for row in 0..parsed.board.rows() {
                    for col in 0..parsed.board.cols() {
                        out.push(if parsed.board.get(row, col) { '1' } else { '0' });
                    }
                    out.push('\n');
                }
            }
            out
        }
    }
}

fn render_split(input: &[u8]) -> String {
    match parse_matrix(input) {
        Err(err) => format!("error: {err}\n"),
        Ok(parsed) => {
            let grid = &parsed.grid;
            let cells: Vec<String> = grid.candidates().iter().map(ToString::to_string).collect();
            format!(
                "grid {} x {}, candidates {}\n",
                grid.rows(),
                grid.cols(),
                cells.join(" ")
            )
        }
    }
}

#[test]
fn golden_inputs_read_as_written() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/parse");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "in") {
            continue;
        }
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let input = std::fs::read(&path).unwrap();
        let expected = std::fs::read_to_string(path.with_extension("out")).unwrap();
        let got = if name.starts_with("clear-") {
            render_clear(&input)
        } else {
            render_split(&input)
        };
        assert_eq!(got, expected, "{name}");
        checked += 1;
    }
    assert!(checked >= 8, "only {checked} golden inputs");
}
