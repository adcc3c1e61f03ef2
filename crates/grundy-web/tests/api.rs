//! The JSON API, tested over HTTP against a server started in the test on a
//! free loopback port.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::time::Duration;

use grundy::clear::Board;
use grundy::{Budget, MexSet, Nimber};
use grundy_web::games::clear::parse_board;
use grundy_web::Config;
use serde_json::{json, Value};

async fn start(config: Config) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(grundy_web::serve_on(listener, config));
    addr
}

struct Reply {
    status: u16,
    content_type: String,
    json: Value,
}

async fn send(addr: SocketAddr, method: reqwest::Method, path: &str, body: Vec<u8>) -> Reply {
    let response = reqwest::Client::new()
        .request(method, format!("http://{addr}{path}"))
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let content_type = response
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    let text = response.text().await.unwrap();
    let json = serde_json::from_str(&text).unwrap_or(Value::Null);
    Reply {
        status,
        content_type,
        json,
    }
}

async fn post(addr: SocketAddr, path: &str, body: &Value) -> Reply {
    send(
        addr,
        reqwest::Method::POST,
        path,
        body.to_string().into_bytes(),
    )
    .await
}

/// Plain mex recursion over whole boards: the oracle.
fn brute(board: &Board, memo: &mut HashMap<Board, Nimber>) -> Nimber {
    if let Some(&v) = memo.get(board) {
        return v;
    }
    let mut seen = MexSet::new();
    let mut options = Vec::new();
    board.for_each_rect(|rect, _| options.push(board.play_unchecked(rect)));
    for option in options {
        seen.insert(brute(&option, memo));
    }
    let value = seen.mex();
    memo.insert(*board, value);
    value
}

fn sum_value(boards: &[Board]) -> Nimber {
    let mut memo = HashMap::new();
    boards.iter().map(|b| brute(b, &mut memo)).sum()
}

fn boards_of(json: &Value) -> Vec<Board> {
    json.as_array()
        .unwrap()
        .iter()
        .map(|rows| {
            let rows: Vec<String> = serde_json::from_value(rows.clone()).unwrap();
            parse_board(&rows).unwrap()
        })
        .collect()
}

/// A judge sample's board (rows of digits separated by spaces) and verdict.
fn gfg_sample(name: &str) -> (Vec<String>, String) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../grundy-cli/tests/data/");
    let input = std::fs::read_to_string(format!("{dir}{name}.in")).unwrap();
    let output = std::fs::read_to_string(format!("{dir}{name}.out")).unwrap();
    let rows = input
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_owned)
        .collect();
    (rows, output.trim().to_owned())
}

#[tokio::test]
async fn analyze_agrees_with_the_judge_samples() {
    let addr = start(Config::default()).await;
    for sample in ["gfg1", "gfg2"] {
        let (rows, verdict) = gfg_sample(sample);
        let reply = post(addr, "/api/v1/clear/analyze", &json!({ "board": rows })).await;
        assert_eq!(reply.status, 200, "{:?}", reply.json);
        assert!(reply.content_type.starts_with("application/json"));
        let expected = if verdict == "A" { "first" } else { "second" };
        assert_eq!(reply.json["winner"], expected, "{sample}");
        assert_eq!(reply.json["rows"], 4);
        assert_eq!(reply.json["cols"], 4);
    }
}

#[tokio::test]
async fn analyze_lists_every_move_with_the_value_it_reaches() {
    let addr = start(Config::default()).await;
    let rows = json!([["110", "111", "011"], ["11", "10"], ["1"]]);
    let boards = boards_of(&rows);
    let reply = post(addr, "/api/v1/clear/analyze", &json!({ "boards": rows })).await;
    assert_eq!(reply.status, 200, "{:?}", reply.json);
    let answer = &reply.json;
    let total = sum_value(&boards);
    assert_eq!(answer["grundy"], total.value());
    assert_eq!(
        answer["winner"],
        if total.is_zero() { "second" } else { "first" }
    );
    assert!(answer.get("rows").is_none(), "rows only for a single board");
    assert_eq!(answer["boards"].as_array().unwrap().len(), 3);
    let mut legal = 0;
    for b in &boards {
        b.for_each_rect(|_, _| legal += 1);
    }
    assert_eq!(answer["moves_total"], legal);
    assert_eq!(answer["moves_complete"], true);
    let moves = answer["moves"].as_array().unwrap();
    assert_eq!(moves.len(), legal);
    let mut winning_from_moves = Vec::new();
    for m in moves {
        let index = m["board"].as_u64().unwrap() as usize;
        let rect = grundy::clear::Rect {
            top: m["top"].as_u64().unwrap() as u8,
            left: m["left"].as_u64().unwrap() as u8,
            bottom: m["bottom"].as_u64().unwrap() as u8,
            right: m["right"].as_u64().unwrap() as u8,
        };
        let mut after = boards.clone();
        after[index] = boards[index]
            .try_play(rect)
            .expect("listed moves are legal");
        assert_eq!(m["grundy"], sum_value(&after).value(), "{m}");
        if m["grundy"] == 0 {
            let mut plain = m.clone();
            plain.as_object_mut().unwrap().remove("grundy");
            winning_from_moves.push(plain);
        }
    }
    assert_eq!(
        answer["winning_moves"].as_array().unwrap(),
        &winning_from_moves
    );
}

#[tokio::test]
async fn analyze_samples_the_moves_of_large_positions() {
    let addr = start(Config {
        max_listed_moves: 10,
        ..Config::default()
    })
    .await;
    let reply = post(
        addr,
        "/api/v1/clear/analyze",
        &json!({ "board": ["1111", "1111", "1111"] }),
    )
    .await;
    assert_eq!(reply.status, 200, "{:?}", reply.json);
    // A 3 x 4 board has (3 * 4 / 2) * (4 * 5 / 2) = 6 * 10 = 60 rectangles.
    assert_eq!(reply.json["moves_total"], 60);
    assert_eq!(reply.json["moves_complete"], false);
    assert_eq!(reply.json["moves"].as_array().unwrap().len(), 10);
}

#[tokio::test]
async fn play_answers_a_legal_move_that_wins_when_it_can() {
    let addr = start(Config::default()).await;
    for rows in [
        json!([["0110", "0000", "0000", "0001"]]),
        json!([["111", "101"], ["11"]]),
        json!([["1"], ["1"]]),
    ] {
        let boards = boards_of(&rows);
        let before = sum_value(&boards);
        let reply = post(addr, "/api/v1/clear/play", &json!({ "boards": rows })).await;
        assert_eq!(reply.status, 200, "{:?}", reply.json);
        let mv = &reply.json["move"];
        let index = mv["board"].as_u64().unwrap() as usize;
        let rect = grundy::clear::Rect {
            top: mv["top"].as_u64().unwrap() as u8,
            left: mv["left"].as_u64().unwrap() as u8,
            bottom: mv["bottom"].as_u64().unwrap() as u8,
            right: mv["right"].as_u64().unwrap() as u8,
        };
        let mut after = boards.clone();
        after[index] = boards[index]
            .try_play(rect)
            .expect("the engine's move is legal");
        assert_eq!(boards_of(&reply.json["boards"]), after);
        let reached = sum_value(&after);
        assert_eq!(reply.json["grundy"], reached.value());
        assert_eq!(
            reached.is_zero(),
            !before.is_zero(),
            "wins exactly when it can"
        );
        assert_eq!(reply.json["engine_wins"], reached.is_zero());
    }
    let reply = post(
        addr,
        "/api/v1/clear/play",
        &json!({ "board": ["00", "00"] }),
    )
    .await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.json["move"], Value::Null);
    assert_eq!(reply.json["engine_wins"], false);
}

async fn assert_error(reply: Reply, status: u16, what: &str) {
    assert_eq!(reply.status, status, "{:?}", reply.json);
    assert!(reply.content_type.starts_with("application/json"));
    let message = reply.json["error"].as_str().expect("an error message");
    assert!(message.contains(what), "{what:?} not in {message:?}");
}

#[tokio::test]
async fn errors_are_json_with_the_right_status() {
    let addr = start(Config {
        max_body_bytes: 1024,
        ..Config::default()
    })
    .await;
    let board = json!({ "board": ["1"] });
    assert_error(
        post(addr, "/api/v1/nim/analyze", &board).await,
        404,
        "unknown game 'nim'",
    )
    .await;
    assert_error(
        post(addr, "/api/v1/nim/play", &board).await,
        404,
        "games: clear",
    )
    .await;
    assert_error(
        post(addr, "/api/v2/clear/analyze", &board).await,
        404,
        "not found",
    )
    .await;
    assert_error(
        send(
            addr,
            reqwest::Method::GET,
            "/api/v1/clear/analyze",
            Vec::new(),
        )
        .await,
        405,
        "POST",
    )
    .await;
    assert_error(
        send(
            addr,
            reqwest::Method::POST,
            "/api/v1/clear/analyze",
            b"{not json".to_vec(),
        )
        .await,
        400,
        "invalid request",
    )
    .await;
    assert_error(
        post(addr, "/api/v1/clear/analyze", &json!({ "board": ["12"] })).await,
        400,
        "board 1: row 1, column 2: unexpected '2'",
    )
    .await;
    assert_error(
        send(
            addr,
            reqwest::Method::POST,
            "/api/v1/clear/play",
            vec![b' '; 2048],
        )
        .await,
        413,
        "too large",
    )
    .await;
    // A request may lower the budget: one position is not enough for a
    // 5 x 5 board (its components are beyond the 4 x 4 table).
    assert_error(
        post(
            addr,
            "/api/v1/clear/analyze",
            &json!({ "board": vec!["11111"; 5], "budget": { "max_positions": 1 } }),
        )
        .await,
        422,
        "position budget",
    )
    .await;
}

#[tokio::test]
async fn the_server_budget_bounds_every_request() {
    let addr = start(Config {
        budget: Budget::positions(50),
        ..Config::default()
    })
    .await;
    let big =
        json!({ "board": vec!["11111111"; 8], "budget": { "max_positions": 1_000_000_000u64 } });
    assert_error(
        post(addr, "/api/v1/clear/analyze", &big).await,
        422,
        "gave up after solving 50 positions",
    )
    .await;
    assert_error(
        post(addr, "/api/v1/clear/play", &big).await,
        422,
        "position budget",
    )
    .await;
}

#[tokio::test]
async fn heavy_requests_wait_for_a_slot_and_give_up_with_503() {
    let addr = start(Config {
        max_concurrent: 1,
        queue_timeout: Duration::from_millis(50),
        budget: Budget {
            max_positions: None,
            max_time: Some(Duration::from_millis(1500)),
        },
        ..Config::default()
    })
    .await;
    // The full 8 x 8 board is far beyond 1.5 s: it holds the only slot.
    let slow = tokio::spawn(async move {
        post(
            addr,
            "/api/v1/clear/analyze",
            &json!({ "board": vec!["11111111"; 8] }),
        )
        .await
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_error(
        post(addr, "/api/v1/clear/analyze", &json!({ "board": ["1"] })).await,
        503,
        "busy",
    )
    .await;
    assert_error(slow.await.unwrap(), 422, "time budget").await;
    // The slot is free again.
    let reply = post(addr, "/api/v1/clear/analyze", &json!({ "board": ["1"] })).await;
    assert_eq!(reply.status, 200);
}

#[tokio::test]
async fn serves_the_page_and_the_game_list() {
    let addr = start(Config::default()).await;
    let client = reqwest::Client::new();
    for (path, kind, needle) in [
        ("/", "text/html", "grundy playground"),
        ("/app.js", "text/javascript", "/api/v1/"),
        ("/style.css", "text/css", ".grid"),
    ] {
        let response = client
            .get(format!("http://{addr}{path}"))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 200);
        let content_type = response.headers()["content-type"]
            .to_str()
            .unwrap()
            .to_owned();
        assert!(content_type.starts_with(kind), "{path}: {content_type}");
        assert!(response.text().await.unwrap().contains(needle), "{path}");
    }
    let reply = send(addr, reqwest::Method::GET, "/api/v1/games", Vec::new()).await;
    assert_eq!(reply.json["games"][0]["name"], "clear");
}
