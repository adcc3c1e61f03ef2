//! The API's words: every move as the command line words it (one
//! formatter, `grundy_report::words`), and every bad entry of a request
//! named as JSON names it (`blocked[1]`, lists from 0) with what it should
//! be.

use grundy_web::Config;
use serde_json::{json, Value};

use crate::api::{post, send, start};
use crate::client::Method;

/// The error message of a request that must be a 400.
async fn error_of(addr: std::net::SocketAddr, path: &str, body: &Value) -> String {
    let reply = post(addr, path, body).await;
    assert_eq!(reply.status, 400, "{body}: {:?}", reply.json);
    reply.json["error"].as_str().expect("an error").to_owned()
}

/// Each `pawn` and `split` request both routes refuse in these words.
async fn refused(addr: std::net::SocketAddr, game: &str, body: Value, message: &str) {
    for route in ["analyze", "play"] {
        let got = error_of(addr, &format!("/api/v1/{game}/{route}"), &body).await;
        assert_eq!(got, message, "{route} {body}");
    }
}

#[tokio::test]
async fn bad_pawn_entries_are_named_as_json_names_them() {
    let addr = start(Config::default()).await;
    let range = "coordinates are 0 to 1000000000";
    for (body, message) in [
        (
            json!({"blocked": [[1, 1], [2_000_000_000u64, 1]], "pawns": [[4, 4]]}),
            "blocked[1] is [2000000000, 1]: x coordinate 2000000000 is out of range 0 to 1000000000"
                .to_owned(),
        ),
        (
            json!({"blocked": [[0, 0], [3, 3], [0, 0]], "pawns": [[4, 4]]}),
            "blocked[2] is [0, 0], as blocked[0] is: each impassable cell is listed once"
                .to_owned(),
        ),
        (
            json!({"blocked": [[1, 1]], "pawns": [[4, 4], [1, 1]]}),
            "pawns[1] is [1, 1], an impassable cell (blocked[0]): a pawn stands on an open one"
                .to_owned(),
        ),
        (
            json!({"pawns": [[-1, 2]]}),
            format!("pawns[0] is [-1, 2]: negative x coordinate -1: {range}"),
        ),
        (
            json!({"pawns": [[2, 1_000_000_001u64]]}),
            "pawns[0] is [2, 1000000001]: y coordinate 1000000001 is out of range 0 to 1000000000"
                .to_owned(),
        ),
        (
            json!({"pawns": [[2]]}),
            format!("pawns[0] is [2]: expected [x, y], two whole numbers: {range}"),
        ),
        (
            json!({"pawns": [[2, 2, 2]]}),
            format!("pawns[0] is [2, 2, 2]: expected [x, y], two whole numbers: {range}"),
        ),
        (
            json!({"pawns": [[2, 2]], "blocked": [[0, "1"]]}),
            format!("blocked[0] is [0, \"1\"]: expected [x, y], two whole numbers: {range}"),
        ),
    ] {
        refused(addr, "pawn", body, &message).await;
    }
}

const GRID: [&str; 5] = ["01100", "10010", "00100", "11001", "00110"];

#[tokio::test]
async fn an_illegal_split_move_reads_as_the_command_line_words_moves() {
    let addr = start(Config::default()).await;
    let rows = "rows and columns count from 0";
    for (moves, message) in [
        (
            json!([[0, 2], [0, 1]]),
            "moves[1]: split at (1,2) is illegal: no longer in play: an earlier move deleted its row or column"
                .to_owned(),
        ),
        (
            json!([[9, 9]]),
            "moves[0]: split at (10,10) is illegal: it lies outside the 5 x 5 grid".to_owned(),
        ),
        (
            json!([[0, 0]]),
            "moves[0]: split at (1,1) is illegal: cell (1,1) is 0, not a candidate".to_owned(),
        ),
        (
            json!([[0, 2], [-1, 0]]),
            format!("moves[1] is [-1, 0]: negative row -1: {rows}"),
        ),
        (
            json!([[0]]),
            format!("moves[0] is [0]: expected [row, col], two whole numbers: {rows}"),
        ),
    ] {
        refused(addr, "split", json!({"grid": GRID, "moves": moves}), &message).await;
    }
}

/// `play`'s `text` is the move alone, as `--move` and Python's
/// `engine_move` word it; the value it leaves is `grundy`.
#[tokio::test]
async fn the_engine_move_is_worded_alone() {
    use grundy_report::words;
    let addr = start(Config::default()).await;
    let reply = post(addr, "/api/v1/clear/play", &json!({"board": ["0001"]})).await;
    assert_eq!(reply.json["text"], "clear (1,4)-(1,4)");
    assert_eq!(reply.json["grundy"], 0);
    let reply = post(
        addr,
        "/api/v1/clear/play",
        &json!({"boards": [["0110", "0000", "0000", "0001"], ["11", "11"]]}),
    )
    .await;
    let mv = &reply.json["move"];
    let rect = grundy::clear::Rect {
        top: mv["top"].as_u64().unwrap() as u8,
        left: mv["left"].as_u64().unwrap() as u8,
        bottom: mv["bottom"].as_u64().unwrap() as u8,
        right: mv["right"].as_u64().unwrap() as u8,
    };
    let board = mv["board"].as_u64().unwrap() as usize;
    assert_eq!(reply.json["text"], words::clear_move(Some(board), rect));
    let reply = post(
        addr,
        "/api/v1/pawn/play",
        &json!({"blocked": [[1, 1], [4, 2]], "pawns": [[2, 2], [6, 5]]}),
    )
    .await;
    let text = reply.json["text"].as_str().unwrap();
    assert!(text.starts_with("move pawn "), "{text}");
    assert!(!text.contains("leaving"), "{text}");
    let reply = post(addr, "/api/v1/split/play", &json!({"grid": GRID})).await;
    let mv = &reply.json["move"];
    let cell = grundy::split::Cell::new(
        mv["row"].as_u64().unwrap() as u32,
        mv["col"].as_u64().unwrap() as u32,
    );
    assert_eq!(reply.json["text"], words::split_move(cell));
    assert_eq!(reply.json["grundy"], 0);
}

/// The texts of an answer's winning moves.
fn lines(answer: &Value) -> Vec<String> {
    answer["winning_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            m["text"]
                .as_str()
                .expect("a winning move's text")
                .to_owned()
        })
        .collect()
}

/// Every winning move carries the line `grundy clear`, `grundy pawn` and
/// `grundy split` list it by (these lines are theirs, as printed), so the
/// page shows the command line's words rather than its own.
#[tokio::test]
async fn winning_moves_carry_the_command_lines_lines() {
    let addr = start(Config::default()).await;
    let split = post(addr, "/api/v1/split/analyze", &json!({"grid": GRID})).await;
    assert!(lines(&split.json).contains(
        &"split at (1,3), leaving grundy 0 (rectangles left with candidates: (2,1)-(5,2) grundy 2, (2,4)-(5,5) grundy 2)".to_owned()
    ), "{:?}", lines(&split.json));
    let split = post(
        addr,
        "/api/v1/split/analyze",
        &json!({"grid": ["010", "000", "000"]}),
    )
    .await;
    assert_eq!(
        lines(&split.json),
        ["split at (1,2), leaving grundy 0 (no candidate left)"]
    );
    // A single pawn past 4096: no values, its moves to losing cells.
    let pawn = post(
        addr,
        "/api/v1/pawn/analyze",
        &json!({"blocked": [[1, 1], [4, 2]], "pawns": [[5000, 3]]}),
    )
    .await;
    assert!(lines(&pawn.json)
        .contains(&"move pawn (5000,3) -> (3,3), leaving grundy 0 (to a losing cell)".to_owned()));
    let pawns = post(
        addr,
        "/api/v1/pawn/analyze",
        &json!({"blocked": [[1, 1], [4, 2]], "pawns": [[2, 2], [6, 5]]}),
    )
    .await;
    for line in lines(&pawns.json) {
        assert!(line.contains(", leaving grundy 0 (pawn "), "{line}");
    }
    let clear = post(
        addr,
        "/api/v1/clear/analyze",
        &json!({"boards": [["0110", "0000", "0000", "0001"], ["11", "11"]]}),
    )
    .await;
    let clear = lines(&clear.json);
    for line in [
        "clear (1,2)-(1,3) on board 1, leaving grundy 0 (component 1A: grundy 2 -> 0)",
        "clear (1,1)-(1,1) on board 2, leaving grundy 0 (component 2A: grundy 1 -> 3)",
    ] {
        assert!(clear.contains(&line.to_owned()), "{line} not in {clear:?}");
    }
}

/// The fixed sentences the page says are the command line's.
#[tokio::test]
async fn the_game_list_gives_the_command_lines_sentences() {
    let addr = start(Config::default()).await;
    let reply = send(addr, Method::GET, "/api/v1/games", Vec::new())
        .await
        .json;
    assert_eq!(reply["words"]["no_moves"], grundy_report::words::NO_MOVES);
    assert_eq!(
        reply["words"]["no_winning_moves"],
        grundy_report::words::NO_WINNING_MOVES
    );
}
