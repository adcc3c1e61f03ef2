//! `POST /api/v1/{game}/parse`: a position pasted as the command line's
//! text, read by the one parser of its format ([`grundy_report::parse`]),
//! answered as the rows the other endpoints take. The page's paste box
//! sends it, so a board copied from a file or a terminal reads exactly as
//! `grundy clear` or `grundy split` reads it.
//!
//! Request: `{"text": "0110\n0000\n\n11"}`, and for the splitting game an
//! optional `"format"`: `"matrix"` (default), `"cells"` or `"map"` (the
//! command line's `--cells` and `--map`; clear's one format, boards, may
//! be named `"boards"` or `"matrix"`). Answer: `{"boards": [[rows]]}`
//! for clear, `{"grid": [rows]}` for split; an error names the line and
//! column at fault. The pawn game has no text format of positions (its
//! command line reads only the impassable cells), so it has no `parse`.

use grundy_report::parse::clear::large_board_rows;
use grundy_report::parse::split::matrix_rows;
use grundy_report::parse::{self, ParseError};
use serde::Deserialize;

use super::{clear, parse_json, split, to_json};
use crate::ApiError;

#[derive(Debug, Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a JSON object with \"text\" and optional \"format\""
)]
struct PasteRequest {
    text: String,
    format: Option<String>,
}

/// A parse error of pasted text: `line L, column C: what`.
fn at_line(err: &ParseError) -> ApiError {
    ApiError::bad_request(format!(
        "line {}, column {}: {}",
        err.line, err.col, err.kind
    ))
}

/// Reads the text of `body` as a position of `game`.
///
/// # Errors
///
/// 400 for a body that is not a paste request, a game without a text
/// format, an unknown format, or text its parser refuses (with the line
/// and column); 404 for an unknown game.
pub fn parse_text(game: &str, body: &[u8]) -> Result<String, ApiError> {
    // The game first: a body meant for another route (`{"pawns": ...}`)
    // is not answered with the fields of a paste request.
    match game {
        "clear" | "split" => {}
        "pawn" => {
            return Err(ApiError::bad_request(
                "the pawn game has no text format of positions: place walls and pawns on the grid",
            ))
        }
        _ => {
            return Err(ApiError::new(
                axum::http::StatusCode::NOT_FOUND,
                format!("unknown game; games: {}", super::names()),
            ))
        }
    }
    let request: PasteRequest = parse_json(body)?;
    let text = request.text.as_bytes();
    match (game, request.format.as_deref()) {
        // Boards are rows of 0/1, the matrix format: both names read them.
        ("clear", None | Some("boards" | "matrix")) => {
            let boards = parse::clear::parse_large_boards(text, Some(clear::MAX_BOARD_BYTES))
                .map_err(|err| at_line(&err))?;
            let rows: Vec<Vec<String>> = boards
                .iter()
                .map(|b| large_board_rows(&b.board))
                .collect();
            to_json(&serde_json::json!({ "boards": rows }))
        }
        ("split", format) => {
            let parsed = match format {
                None | Some("matrix") => parse::split::parse_matrix(text),
                Some("cells") => parse::split::parse_cells(text),
                Some("map") => parse::split::parse_map(text),
                Some(other) => {
                    return Err(ApiError::bad_request(format!(
                        "unknown format \"{other}\": the splitting game reads \"matrix\", \"cells\" or \"map\""
                    )))
                }
            }
            .map_err(|err| at_line(&err))?;
            let grid = &parsed.grid;
            let (rows, cols) = (grid.rows(), grid.cols());
            let side = split::MAX_WEB_SIDE as u32;
            if rows > side || cols > side {
                return Err(ApiError::bad_request(format!(
                    "a {rows} x {cols} grid: this server takes grids of at most {side} x {side}"
                )));
            }
            to_json(&serde_json::json!({ "grid": matrix_rows(grid) }))
        }
        ("clear", Some(other)) => Err(ApiError::bad_request(format!(
            "unknown format \"{other}\": rectangle clearing reads \"boards\" (or \"matrix\": rows of 0/1, blank lines between boards)"
        ))),
        _ => Err(ApiError::new(
            axum::http::StatusCode::NOT_FOUND,
            format!("unknown game; games: {}", super::names()),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pasted_text_reads_as_the_command_line_reads_it() {
        let body = serde_json::json!({ "text": "0110\n0000\n\n1 1\n#.\n" }).to_string();
        let answer: serde_json::Value =
            serde_json::from_str(&parse_text("clear", body.as_bytes()).unwrap()).unwrap();
        assert_eq!(
            answer,
            serde_json::json!({ "boards": [["0110", "0000"], ["11", "10"]] })
        );
        let answer_clear = answer;
        let body = serde_json::json!({ "text": "2 3\n0 1\n1 2\n", "format": "cells" }).to_string();
        let answer: serde_json::Value =
            serde_json::from_str(&parse_text("split", body.as_bytes()).unwrap()).unwrap();
        assert_eq!(answer, serde_json::json!({ "grid": ["010", "001"] }));
        // The default format named, under either name, reads the same.
        for format in ["boards", "matrix"] {
            let named = serde_json::json!({ "text": "0110\n0000\n\n1 1\n#.\n", "format": format });
            let again: serde_json::Value =
                serde_json::from_str(&parse_text("clear", named.to_string().as_bytes()).unwrap())
                    .unwrap();
            assert_eq!(again, answer_clear, "{format}");
        }
        let wrong = serde_json::json!({ "text": "1\n", "format": "cells" }).to_string();
        let err = parse_text("clear", wrong.as_bytes()).unwrap_err();
        assert!(
            err.message.starts_with("unknown format \"cells\""),
            "{}",
            err.message
        );
        let bad = serde_json::json!({ "text": "01\n0x\n" }).to_string();
        let err = parse_text("clear", bad.as_bytes()).unwrap_err();
        assert!(
            err.message.starts_with("line 2, column 2: unexpected 'x'"),
            "{}",
            err.message
        );
        let big = serde_json::json!({ "text": "1 65\n0 0\n", "format": "cells" }).to_string();
        assert!(parse_text("split", big.as_bytes())
            .unwrap_err()
            .message
            .contains("at most 64 x 64"));
        // The pawn game has no parse, whatever the body holds: the answer
        // does not name a paste request's fields.
        for body in [body.as_str(), r#"{"pawns": [[1, 1]]}"#, "not json"] {
            let err = parse_text("pawn", body.as_bytes()).unwrap_err();
            assert!(
                err.message
                    .starts_with("the pawn game has no text format of positions"),
                "{body}: {}",
                err.message
            );
        }
        let err = parse_text("chess", br#"{"text": "1"}"#).unwrap_err();
        assert!(err.message.starts_with("unknown game"), "{}", err.message);
    }
}
