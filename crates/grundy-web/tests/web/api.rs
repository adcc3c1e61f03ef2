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

use crate::client::{Client, Method};

pub(crate) async fn start(config: Config) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(grundy_web::serve_on(listener, config));
    addr
}

pub(crate) struct Reply {
    pub(crate) status: u16,
    pub(crate) content_type: String,
    pub(crate) json: Value,
}

pub(crate) async fn send(addr: SocketAddr, method: Method, path: &str, body: Vec<u8>) -> Reply {
    let response = Client::new(addr).send(method, path, body).await.unwrap();
    let json = serde_json::from_slice(&response.body).unwrap_or(Value::Null);
    Reply {
        status: response.status,
        content_type: response.content_type,
        json,
    }
}

pub(crate) async fn post(addr: SocketAddr, path: &str, body: &Value) -> Reply {
    send(addr, Method::POST, path, body.to_string().into_bytes()).await
}

/// Posts `body` to `path` and asserts that the answer is 200 (showing its
/// JSON otherwise): the reply.
async fn post_ok(addr: SocketAddr, path: &str, body: &Value) -> Reply {
    let reply = post(addr, path, body).await;
    assert_eq!(reply.status, 200, "{:?}", reply.json);
    reply
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
        let reply = post_ok(addr, "/api/v1/clear/analyze", &json!({ "board": rows })).await;
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
    let reply = post_ok(addr, "/api/v1/clear/analyze", &json!({ "boards": rows })).await;
    let answer = &reply.json;
    let total = sum_value(&boards);
    assert_eq!(answer["grundy"], total.value());
    assert_eq!(
        answer["winner"],
        if total.is_zero() { "second" } else { "first" }
    );
    // The top-level rows, cols and components repeat the first board's.
    assert_eq!(answer["rows"], answer["boards"][0]["rows"]);
    assert_eq!(answer["cols"], answer["boards"][0]["cols"]);
    assert_eq!(answer["components"], answer["boards"][0]["components"]);
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

/// The `options` of an analysis, checked move by move against the plain
/// brute force: every legal move listed once, legal, clearing the cells it
/// says, in the component it names, leaving that component and the total
/// the values the brute force gives; and the per-cell summaries are the
/// least value and the number of winning moves over the rectangles through
/// each cell.
fn check_options(answer: &Value, boards: &[Board]) {
    let options = &answer["options"];
    let mut legal = Vec::new();
    for (index, b) in boards.iter().enumerate() {
        b.for_each_rect(|rect, _| legal.push((index, rect)));
    }
    assert_eq!(options["total"], legal.len());
    assert_eq!(options["complete"], true);
    let listed = options["moves"].as_array().unwrap();
    assert_eq!(listed.len(), legal.len());
    let mut memo = HashMap::new();
    let mut best: Vec<Vec<Vec<Option<u64>>>> = boards
        .iter()
        .map(|b| vec![vec![None; b.cols()]; b.rows()])
        .collect();
    let mut winning: Vec<Vec<Vec<u64>>> = boards
        .iter()
        .map(|b| vec![vec![0; b.cols()]; b.rows()])
        .collect();
    for (option, &(index, rect)) in listed.iter().zip(&legal) {
        assert_eq!(option["board"], index);
        let [top, left, bottom, right] =
            ["top", "left", "bottom", "right"].map(|k| option[k].as_u64().unwrap() as usize);
        assert_eq!(
            (top, left, bottom, right),
            (
                rect.top.into(),
                rect.left.into(),
                rect.bottom.into(),
                rect.right.into()
            ),
            "in the game's move order"
        );
        let board = boards[index];
        let after = board.try_play(rect).expect("listed moves are legal");
        assert_eq!(
            option["cells"],
            (bottom - top + 1) * (right - left + 1),
            "{option}"
        );
        let mut sum_after = boards.to_vec();
        sum_after[index] = after;
        let total_after: Nimber = sum_after.iter().map(|b| brute(b, &mut memo)).sum();
        assert_eq!(option["grundy"], total_after.value(), "{option}");
        // The component named holds the rectangle; what is left of it has
        // the value given.
        let component =
            &answer["boards"][index]["components"][option["component"].as_u64().unwrap() as usize];
        let mut cells = 0u64;
        for cell in component["cells"].as_array().unwrap() {
            let (r, c) = (
                cell[0].as_u64().unwrap() as usize,
                cell[1].as_u64().unwrap() as usize,
            );
            cells |= 1 << (r * board.cols() + c);
        }
        for r in top..=bottom {
            for c in left..=right {
                assert!(cells & (1 << (r * board.cols() + c)) != 0, "{option}");
                let b = &mut best[index][r][c];
                let v = total_after.value() as u64;
                *b = Some(b.map_or(v, |x: u64| x.min(v)));
                winning[index][r][c] += u64::from(total_after.is_zero());
            }
        }
        let left_of_it = Board::new(board.rows(), board.cols(), cells & after.cells().0).unwrap();
        assert_eq!(
            option["component_after"],
            brute(&left_of_it, &mut memo).value(),
            "{option}"
        );
        // `moves` lists the same moves with the same totals.
        let mut plain = option.clone();
        for k in ["cells", "component", "component_after"] {
            plain.as_object_mut().unwrap().remove(k);
        }
        // (`moves` also words each move: `text`, checked by the wording
        // tests.)
        let listed_plain = answer["moves"].as_array().unwrap().iter().any(|m| {
            let mut m = m.clone();
            m.as_object_mut().unwrap().remove("text");
            m == plain
        });
        assert!(listed_plain, "{plain} not in moves");
    }
    for (index, summary) in options["boards"].as_array().unwrap().iter().enumerate() {
        assert_eq!(summary["best"], json!(best[index]), "board {index}");
        assert_eq!(summary["winning"], json!(winning[index]), "board {index}");
    }
}

#[tokio::test]
async fn analyze_lists_every_option_with_what_it_leaves() {
    let addr = start(Config::default()).await;
    let mut cases = vec![
        json!([["0110", "0000", "0000", "0001"]]),
        json!([["110", "111", "011"], ["11", "10"], ["1"]]),
        json!([["11111", "11111", "11111"]]),
        json!([["00", "00"]]),
    ];
    // Random boards of up to 4 x 4, alone and in pairs.
    let mut rng = Lcg(24);
    for _ in 0..12 {
        let mut sum = Vec::new();
        for _ in 0..=rng.below(2) {
            let (rows, cols) = (1 + rng.below(4) as usize, 1 + rng.below(4) as usize);
            let board: Vec<String> = (0..rows)
                .map(|_| {
                    (0..cols)
                        .map(|_| if rng.below(4) == 0 { '0' } else { '1' })
                        .collect()
                })
                .collect();
            sum.push(board);
        }
        cases.push(json!(sum));
    }
    for rows in cases {
        let boards = boards_of(&rows);
        let reply = post_ok(addr, "/api/v1/clear/analyze", &json!({ "boards": rows })).await;
        check_options(&reply.json, &boards);
    }
}

/// The analysis of a full 3 x 4 board (60 moves) by a server that lists
/// at most 10 moves, which must answer 200.
async fn analyze_full_3x4_listing_10_moves() -> Reply {
    let addr = start(Config {
        max_listed_moves: 10,
        ..Config::default()
    })
    .await;
    post_ok(
        addr,
        "/api/v1/clear/analyze",
        &json!({ "board": ["1111", "1111", "1111"] }),
    )
    .await
}

#[tokio::test]
async fn options_of_large_positions_are_a_sample_but_summaries_count_every_move() {
    let reply = analyze_full_3x4_listing_10_moves().await;
    let options = &reply.json["options"];
    assert_eq!(options["total"], 60);
    assert_eq!(options["complete"], false);
    assert_eq!(options["moves"].as_array().unwrap().len(), 10);
    // The summary of cell (1,1) counts every winning move through it, listed
    // or not: the winning moves with their top-left corner there.
    let board = parse_board(&["1111".into(), "1111".into(), "1111".into()]).unwrap();
    assert_eq!(reply.json["grundy"], sum_value(&[board]).value());
    let winning_through_corner = reply.json["winning_moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["top"] == 0 && m["left"] == 0)
        .count();
    assert_eq!(
        options["boards"][0]["winning"][0][0],
        winning_through_corner
    );
}

#[tokio::test]
async fn too_large_says_which_database_would_answer() {
    let addr = start(Config {
        budget: Budget::positions(50),
        ..Config::default()
    })
    .await;
    let board = json!({ "board": vec!["111111"; 6] });
    // The engine always plays (here the proven move that clears the board);
    // the analysis over budget says what would answer.
    let reply = post_ok(addr, "/api/v1/clear/play", &board).await;
    assert_eq!(reply.json["proven"], true);
    assert_eq!(reply.json["engine_wins"], true);
    for endpoint in ["analyze"] {
        let reply = post(addr, &format!("/api/v1/clear/{endpoint}"), &board).await;
        assert_eq!(reply.status, 422, "{:?}", reply.json);
        assert!(reply.json["error"].as_str().unwrap().contains("too large"));
        let tables = &reply.json["tables"];
        assert_eq!(tables["box"], json!([6, 6]), "{tables}");
        assert_eq!(tables["measured"]["file_size"], "395 MB");
        assert_eq!(tables["measured"]["cpu_seconds"], 2490.0);
        assert_eq!(tables["known_value"]["grundy"], 8);
        assert_eq!(tables["source"], "docs/results.md");
        // Who wins is proven all the same: clearing the whole board leaves
        // the opponent no move (the value 8 above agrees).
        let proven = &reply.json["proven"];
        assert_eq!(proven["winner"], "first", "{proven}");
        assert_eq!(proven["grundy"], Value::Null);
        let moves = proven["winning_moves"].as_array().unwrap();
        assert_eq!(moves.len(), 1, "{proven}");
        assert_eq!(
            (
                &moves[0]["top"],
                &moves[0]["bottom"],
                &moves[0]["left"],
                &moves[0]["right"]
            ),
            (&json!(0), &json!(5), &json!(0), &json!(5))
        );
        let text = moves[0]["text"].as_str().unwrap();
        assert!(text.starts_with("clear (1,1)-(6,6)"), "{text}");
    }
}

/// A dense block past the budget: the analysis answers 422, with the
/// winner and a winning move that the outcome search proved; the solver
/// confirms that the move leaves 0.
#[tokio::test]
async fn too_large_still_proves_who_wins_by_outcome_search() {
    let addr = start(Config {
        budget: Budget::positions(20_000),
        ..Config::default()
    })
    .await;
    let rows = [
        "1111110", "1111110", "1111100", "0111000", "0111000", "0111000", "0111000",
    ];
    let reply = post(addr, "/api/v1/clear/analyze", &json!({ "board": rows })).await;
    assert_eq!(reply.status, 422, "{:?}", reply.json);
    let proven = &reply.json["proven"];
    assert_eq!(proven["winner"], "first", "{proven}");
    let moves = proven["winning_moves"].as_array().unwrap();
    assert_eq!(moves.len(), 1, "{proven}");
    assert!(moves[0]["text"]
        .as_str()
        .unwrap()
        .contains("proven by outcome search"));
    let at = |key: &str| moves[0][key].as_u64().unwrap() as u8;
    let rect = grundy::clear::Rect {
        top: at("top"),
        left: at("left"),
        bottom: at("bottom"),
        right: at("right"),
    };
    let board =
        grundy::board!["1111110", "1111110", "1111100", "0111000", "0111000", "0111000", "0111000"];
    let after = board.try_play(rect).expect("a legal move");
    assert!(grundy::clear::Clear::solver()
        .value(&after)
        .unwrap()
        .is_zero());
}

#[tokio::test]
async fn analyze_samples_the_moves_of_large_positions() {
    let reply = analyze_full_3x4_listing_10_moves().await;
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
        let reply = post_ok(addr, "/api/v1/clear/play", &json!({ "boards": rows })).await;
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

/// Winning moves less their words: each carries its `text` (checked by the
/// wording tests), the rest is the move.
fn unworded(moves: &Value) -> Value {
    let mut moves = moves.clone();
    for mv in moves.as_array_mut().unwrap() {
        assert!(mv["text"].is_string(), "{mv} has no text");
        mv.as_object_mut().unwrap().remove("text");
    }
    moves
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
    // A field of the wrong type is named as JSON names it.
    for (path, body, what) in [
        (
            "/api/v1/pawn/analyze",
            json!({ "blocked": "x", "pawns": [[1, 1]] }),
            "invalid request: blocked: invalid type: string",
        ),
        (
            "/api/v1/clear/analyze",
            json!({ "boards": [["01"], 5] }),
            "invalid request: boards[1]: invalid type: integer `5`",
        ),
        (
            "/api/v1/clear/analyze",
            json!({ "board": ["1"], "budget": { "max_positions": -1 } }),
            "invalid request: budget: max_positions is -1: expected a whole number from 0",
        ),
        (
            "/api/v1/split/analyze",
            json!({ "grid": [1, 2] }),
            "invalid request: grid[0]: invalid type: integer `1`",
        ),
    ] {
        assert_error(post(addr, path, &body).await, 400, what).await;
    }
    // So is the field of a syntax error inside a value: a number past any
    // float, nesting past serde's limit (its field alone), a lone
    // surrogate in a row.
    let deep = format!(
        r#"{{"pawns":[[1,1]],"blocked":{}{}}}"#,
        "[".repeat(200),
        "]".repeat(200)
    );
    for (path, body, what) in [
        (
            "/api/v1/clear/analyze",
            r#"{"board":["1"],"budget":{"max_time_ms":1e400}}"#.to_owned(),
            "invalid request: budget.max_time_ms: number out of range",
        ),
        (
            "/api/v1/pawn/analyze",
            deep,
            "invalid request: blocked[...]: recursion limit exceeded",
        ),
        (
            "/api/v1/clear/analyze",
            r#"{"board":["\ud800"]}"#.to_owned(),
            "invalid request: board[0]: ",
        ),
    ] {
        let reply = send(addr, Method::POST, path, body.into_bytes()).await;
        assert_error(reply, 400, what).await;
    }
    let board = json!({ "board": ["1"] });
    for (path, what) in [
        ("/api/v1/nim/analyze", "unknown game 'nim'"),
        ("/api/v1/nim/play", "games: clear"),
        ("/api/v2/clear/analyze", "not found"),
    ] {
        assert_error(post(addr, path, &board).await, 404, what).await;
    }
    assert_error(
        send(addr, Method::GET, "/api/v1/clear/analyze", Vec::new()).await,
        405,
        "POST",
    )
    .await;
    assert_error(
        send(
            addr,
            Method::POST,
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
        "board: row 1, column 2: unexpected '2'",
    )
    .await;
    assert_error(
        send(addr, Method::POST, "/api/v1/clear/play", vec![b' '; 2048]).await,
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
        // The request's budget, which it lowered, not the server's.
        "this request's position budget",
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
        "gave up after 50 positions",
    )
    .await;
    // The engine answers within the budget whatever the board: on this
    // dense block of 33 cells neither pairs nor 50 positions of outcome
    // search prove a move (the search needs millions), so its move is
    // unproven but legal.
    let rows = [
        "1111000", "1111110", "1111110", "1111110", "1111100", "1110000", "1110000",
    ];
    let reply = post_ok(
        addr,
        "/api/v1/clear/play",
        &json!({ "board": rows, "budget": { "max_positions": 1_000_000_000u64 } }),
    )
    .await;
    assert!(reply.json["move"].is_object(), "{:?}", reply.json);
    assert_eq!(reply.json["proven"], false, "{:?}", reply.json);
    assert_eq!(reply.json["kind"], "unproven");
}

/// The rows of a random `rows x cols` board, each cell 1 with probability
/// `ones` in 256, from a small generator seeded by `seed`.
fn random_rows(seed: &mut u64, rows: usize, cols: usize, ones: u64) -> Vec<String> {
    (0..rows)
        .map(|_| {
            (0..cols)
                .map(|_| {
                    *seed = seed
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1_442_695_040_888_963_407);
                    if (*seed >> 56) < ones {
                        '1'
                    } else {
                        '0'
                    }
                })
                .collect()
        })
        .collect()
}

/// A server that keeps its memos (the default) and one that keeps none.
async fn warm_and_cold() -> (SocketAddr, SocketAddr) {
    let cold = Config {
        kept_memory: 0,
        ..Config::default()
    };
    (start(Config::default()).await, start(cold).await)
}

#[tokio::test]
async fn kept_memos_change_no_answer() {
    // The page's requests (analyze, then play, at every ply) on random
    // 5 x 5 boards, which need a search, sent to a server that keeps its
    // memos and to one that keeps none: the same analyses, byte for byte,
    // and the values of brute force.
    let (warm, cold) = warm_and_cold().await;
    let mut memo = HashMap::new();
    let mut seed = 7;
    let mut searched = 0;
    for _ in 0..8 {
        let mut rows = random_rows(&mut seed, 5, 5, 150);
        for _ply in 0..3 {
            let body = json!({ "board": rows });
            let board = parse_board(&rows).unwrap();
            let analysis = post_ok(warm, "/api/v1/clear/analyze", &body).await;
            assert_eq!(
                analysis.json,
                post(cold, "/api/v1/clear/analyze", &body).await.json
            );
            assert_eq!(analysis.json["grundy"], brute(&board, &mut memo).value());
            let tight = json!({ "board": rows, "budget": { "max_positions": 1 } });
            searched +=
                usize::from(post(cold, "/api/v1/clear/analyze", &tight).await.status == 422);
            // The engine may find another winning move when the memo holds
            // more: each is checked against brute force, and so is what it
            // leaves.
            let play = post(warm, "/api/v1/clear/play", &body).await;
            let other = post(cold, "/api/v1/clear/play", &body).await;
            for reply in [&play, &other] {
                assert_eq!(reply.status, 200, "{:?}", reply.json);
                if reply.json["move"].is_null() {
                    assert_eq!(board.cells().count(), 0);
                    // As `grundy clear --move --json` says it: no words.
                    assert_eq!(reply.json.get("text"), Some(&serde_json::Value::Null));
                    continue;
                }
                let after = boards_of(&reply.json["boards"]);
                let mut options = Vec::new();
                board.for_each_rect(|rect, _| options.push(board.play_unchecked(rect)));
                assert!(options.contains(&after[0]), "a legal move");
                assert_eq!(reply.json["grundy"], brute(&after[0], &mut memo).value());
                for key in ["engine_wins", "proven", "kind"] {
                    assert_eq!(reply.json[key], play.json[key], "{key}");
                }
            }
            if play.json["move"].is_null() {
                break;
            }
            rows = serde_json::from_value(play.json["boards"][0].clone()).unwrap();
        }
    }
    assert!(searched > 0, "some positions needed a search");
}

#[tokio::test]
async fn a_kept_memo_answers_the_same_position_again_without_a_search() {
    let (warm, cold) = warm_and_cold().await;
    let rows = ["11111", "11110", "11111", "01111", "11101"];
    let first = post_ok(warm, "/api/v1/clear/analyze", &json!({ "board": rows })).await;
    // One position of budget is far too little to value this board again,
    // unless the memo kept its value.
    let again = json!({ "board": rows, "budget": { "max_positions": 1 } });
    let reply = post_ok(warm, "/api/v1/clear/analyze", &again).await;
    assert_eq!(reply.json["grundy"], first.json["grundy"]);
    assert_error(
        post(cold, "/api/v1/clear/analyze", &again).await,
        422,
        "gave up after 1 position (",
    )
    .await;
}

#[tokio::test]
async fn boards_past_64_cells_are_analysed_and_played() {
    let addr = start(Config::default()).await;
    // Two equal 4 x 7 blocks and a line of 3: the pairs cancel, value 3.
    let block = ["1011111", "1111101", "1101101", "0111101"];
    let mut rows: Vec<String> = block
        .iter()
        .map(|r| format!("{r}00{}", r.chars().rev().collect::<String>()))
        .collect();
    rows.push("0".repeat(16));
    rows.push(format!("111{}", "0".repeat(13)));
    let body = json!({ "board": rows });
    let reply = post_ok(addr, "/api/v1/clear/analyze", &body).await;
    assert_eq!(reply.json["large"], true);
    assert_eq!(reply.json["grundy"], 3);
    assert_eq!(reply.json["winner"], "first");
    let reply = post_ok(addr, "/api/v1/clear/play", &body).await;
    assert_eq!(
        reply.json["move"],
        json!({"board": 0, "top": 5, "left": 0, "bottom": 5, "right": 2})
    );
    assert_eq!(reply.json["grundy"], 0);
    assert!(reply.json["reason"]
        .as_str()
        .unwrap()
        .contains("proven winning"));
    // A full 20 x 20 board minus its corners: the middle band halves it.
    let mut rows = vec!["1".repeat(20); 20];
    for r in [0, 19] {
        rows[r] = format!("0{}0", "1".repeat(18));
    }
    let reply = post_ok(addr, "/api/v1/clear/play", &json!({ "board": rows })).await;
    assert_eq!(
        reply.json["move"],
        json!({"board": 0, "top": 9, "left": 0, "bottom": 10, "right": 19})
    );
    assert!(reply.json["reason"]
        .as_str()
        .unwrap()
        .contains("two equal halves"));
}

/// Sends `request` as is over a new connection and returns what the server
/// answers until it closes the connection (at most 10 s).
async fn raw(addr: SocketAddr, request: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer))
        .await
        .expect("the server closes the connection")
        .unwrap();
    String::from_utf8_lossy(&answer).into_owned()
}

/// A POST of `body` with these extra header lines.
fn post_request(path: &str, headers: &str, body: &str) -> String {
    format!(
        "POST {path} HTTP/1.1\r\n{headers}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
}

const BOARD_4X4: &str = r#"{"board": ["0110", "0000", "0000", "0001"]}"#;

/// The raw answer to a POST of [`BOARD_4X4`] to the clear analysis with
/// these extra header lines.
async fn raw_analyze_4x4(addr: SocketAddr, headers: &str) -> String {
    raw(
        addr,
        &post_request("/api/v1/clear/analyze", headers, BOARD_4X4),
    )
    .await
}

fn status_of(answer: &str) -> u16 {
    answer
        .strip_prefix("HTTP/1.1 ")
        .and_then(|rest| rest.get(..3))
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {answer:?}"))
}

#[tokio::test]
async fn only_requests_naming_this_server_are_served() {
    let addr = start(Config {
        allow_hosts: vec!["box.lan".to_owned()],
        ..Config::default()
    })
    .await;
    let port = addr.port();
    let json = "Content-Type: application/json\r\n";
    // The issue's DNS-rebinding reproduction: a foreign Host is refused
    // before anything else is looked at.
    let rebound = raw(
        addr,
        &post_request(
            "/api/v1/clear/analyze",
            "Host: rebind.attacker.example\r\nOrigin: http://evil.example\r\nContent-Type: text/plain\r\n",
            r#"{"board":["111111","111111","111111","111111","111111","111111"]}"#,
        ),
    )
    .await;
    assert_eq!(status_of(&rebound), 421, "{rebound}");
    assert!(rebound.contains("--allow-host"), "{rebound}");
    for host in [
        format!("rebind.attacker.example:{port}"),
        "localhost".to_owned(),
        format!("localhost:{}", port.wrapping_add(1)),
        format!("127.0.0.2:{port}"),
    ] {
        let answer = raw_analyze_4x4(addr, &format!("Host: {host}\r\n{json}")).await;
        assert_eq!(status_of(&answer), 421, "{host}: {answer}");
    }
    // The page too: a rebound page cannot even load.
    let page = raw(
        addr,
        "GET / HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert_eq!(status_of(&page), 421, "{page}");
    for host in [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("LocalHost:{port}"),
        "box.lan:1234".to_owned(),
    ] {
        let answer = raw_analyze_4x4(addr, &format!("Host: {host}\r\n{json}")).await;
        assert_eq!(status_of(&answer), 200, "{host}: {answer}");
    }
}

#[tokio::test]
async fn posts_must_be_json() {
    let addr = start(Config::default()).await;
    let host = format!("Host: {addr}\r\n");
    for content_type in [
        "Content-Type: text/plain\r\n",
        "Content-Type: application/x-www-form-urlencoded\r\n",
        "Content-Type: multipart/form-data; boundary=x\r\n",
        "",
    ] {
        let answer = raw_analyze_4x4(addr, &format!("{host}{content_type}")).await;
        assert_eq!(status_of(&answer), 415, "{content_type:?}: {answer}");
        assert!(answer.contains("application/json"), "{answer}");
    }
    let answer = raw_analyze_4x4(
        addr,
        &format!("{host}Content-Type: application/json; charset=utf-8\r\n"),
    )
    .await;
    assert_eq!(status_of(&answer), 200, "{answer}");
}

#[tokio::test]
async fn cross_origin_requests_are_refused_unless_allowed() {
    let allowed = "http://tools.example:3000";
    for config in [
        Config::default(),
        Config {
            allow_origins: vec![allowed.to_owned()],
            ..Config::default()
        },
        // Spelt otherwise: the origin a browser sends is lower case,
        // without a trailing `/`, and both the guard and the CORS headers
        // compare with that form.
        Config {
            allow_origins: vec!["HTTP://Tools.Example:3000/".to_owned()],
            ..Config::default()
        },
    ] {
        let allowing = !config.allow_origins.is_empty();
        let addr = start(config).await;
        let request = |origin: &str| {
            post_request(
                "/api/v1/clear/analyze",
                &format!("Host: {addr}\r\nOrigin: {origin}\r\nContent-Type: application/json\r\n"),
                BOARD_4X4,
            )
        };
        for origin in ["http://evil.example", "null", &format!("https://{addr}")] {
            let answer = raw(addr, &request(origin)).await;
            assert_eq!(status_of(&answer), 403, "{origin}: {answer}");
            assert!(answer.contains("--allow-origin"), "{answer}");
        }
        // The page's own requests carry its origin: served.
        let own = raw(addr, &request(&format!("http://{addr}"))).await;
        assert_eq!(status_of(&own), 200, "{own}");
        let answer = raw(addr, &request(allowed)).await;
        if allowing {
            assert_eq!(status_of(&answer), 200, "{answer}");
            assert!(
                answer
                    .to_ascii_lowercase()
                    .contains(&format!("access-control-allow-origin: {allowed}")),
                "{answer}"
            );
            // The browser's preflight for a JSON POST is answered too.
            let preflight = raw(
                addr,
                &format!(
                    "OPTIONS /api/v1/clear/analyze HTTP/1.1\r\nHost: {addr}\r\nOrigin: {allowed}\r\n\
                     Access-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: content-type\r\n\
                     Connection: close\r\n\r\n"
                ),
            )
            .await;
            assert_eq!(status_of(&preflight), 200, "{preflight}");
            assert!(
                preflight
                    .to_ascii_lowercase()
                    .contains("access-control-allow-methods"),
                "{preflight}"
            );
            // The guard's own rejections (a body not JSON, one too large)
            // are readable by the allowed page too.
            let big = format!(r#"{{"board": ["{}"]}}"#, "1".repeat(70_000));
            for (content_type, body, status) in [
                ("text/plain", BOARD_4X4, 415),
                ("application/json", big.as_str(), 413),
            ] {
                let headers = format!(
                    "Host: {addr}\r\nOrigin: {allowed}\r\nContent-Type: {content_type}\r\n"
                );
                let answer =
                    raw(addr, &post_request("/api/v1/clear/analyze", &headers, body)).await;
                assert_eq!(status_of(&answer), status, "{answer}");
                assert!(
                    answer
                        .to_ascii_lowercase()
                        .contains(&format!("access-control-allow-origin: {allowed}")),
                    "{answer}"
                );
            }
        } else {
            assert_eq!(status_of(&answer), 403, "{answer}");
        }
    }
}

/// Connects and sends `sent`, then measures how long the server keeps the
/// connection open, reading what it answers (at most 10 s).
async fn held_open(addr: SocketAddr, sent: &str) -> (Duration, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let started = std::time::Instant::now();
    stream.write_all(sent.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer)).await;
    assert!(read.is_ok(), "still open after 10 s");
    (
        started.elapsed(),
        String::from_utf8_lossy(&answer).into_owned(),
    )
}

#[tokio::test]
async fn stalled_headers_and_bodies_are_cut_off() {
    let addr = start(Config {
        header_timeout: Duration::from_millis(400),
        body_timeout: Duration::from_millis(400),
        idle_timeout: Duration::from_secs(5),
        ..Config::default()
    })
    .await;
    // A request line and part of the headers, then nothing: closed when the
    // header timeout fires (well before the idle timeout), without answer.
    let (held, answer) = held_open(
        addr,
        &format!("POST /api/v1/clear/analyze HTTP/1.1\r\nHost: {addr}\r\nContent-"),
    )
    .await;
    assert!(held >= Duration::from_millis(350), "{held:?}");
    assert!(held < Duration::from_secs(3), "{held:?}");
    assert!(!answer.starts_with("HTTP/1.1 200"), "{answer}");
    // Nothing at all: the same.
    let (held, _) = held_open(addr, "").await;
    assert!(held < Duration::from_secs(3), "{held:?}");
    // Whole headers and a short body: 408 when the body timeout fires.
    let (held, answer) = held_open(
        addr,
        &format!(
            "POST /api/v1/clear/analyze HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"board\""
        ),
    )
    .await;
    assert_eq!(status_of(&answer), 408, "{answer}");
    assert!(held >= Duration::from_millis(350), "{held:?}");
    assert!(held < Duration::from_secs(3), "{held:?}");
}

#[tokio::test]
async fn idle_keep_alive_connections_are_closed() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let addr = start(Config {
        header_timeout: Duration::from_secs(8),
        idle_timeout: Duration::from_millis(400),
        ..Config::default()
    })
    .await;
    // A connection that never sends anything: closed after the idle
    // timeout, long before the header timeout.
    let (held, _) = held_open(addr, "").await;
    assert!(held >= Duration::from_millis(350), "{held:?}");
    assert!(held < Duration::from_secs(4), "{held:?}");
    // After a keep-alive request: the answer, then closed when idle.
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request = format!(
        "POST /api/v1/clear/analyze HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{BOARD_4X4}",
        BOARD_4X4.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let started = std::time::Instant::now();
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer))
        .await
        .expect("closed when idle")
        .unwrap();
    let answer = String::from_utf8_lossy(&answer);
    assert_eq!(status_of(&answer), 200, "{answer}");
    assert!(started.elapsed() < Duration::from_secs(4));
}

#[tokio::test]
async fn serves_the_page_and_the_game_list() {
    let addr = start(Config::default()).await;
    let mut client = Client::new(addr);
    for (path, kind, needle) in [
        ("/", "text/html", "grundy playground"),
        ("/app.js", "text/javascript", "/api/v1/"),
        ("/style.css", "text/css", ".grid"),
    ] {
        let response = client.send(Method::GET, path, Vec::new()).await.unwrap();
        assert_eq!(response.status, 200);
        let content_type = &response.content_type;
        assert!(content_type.starts_with(kind), "{path}: {content_type}");
        assert!(response.text().contains(needle), "{path}");
    }
    let reply = send(addr, Method::GET, "/api/v1/games", Vec::new()).await;
    assert_eq!(reply.json["games"][0]["name"], "clear");
}

/// A small deterministic generator for the pawn and split cases.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

/// Plain mex recursion for a pawn (brute force): left along the row, down
/// the column, stopping at impassable cells.
fn pawn_brute(walls: &[(u64, u64)], x: u64, y: u64) -> u32 {
    let mut seen = MexSet::new();
    for to in (0..x).rev() {
        if walls.contains(&(to, y)) {
            break;
        }
        seen.insert(Nimber::new(pawn_brute(walls, to, y)));
    }
    for to in (0..y).rev() {
        if walls.contains(&(x, to)) {
            break;
        }
        seen.insert(Nimber::new(pawn_brute(walls, x, to)));
    }
    seen.mex().value()
}

fn pawn_moves(walls: &[(u64, u64)], (x, y): (u64, u64)) -> Vec<(u64, u64)> {
    let mut moves = Vec::new();
    for to in (0..x).rev() {
        if walls.contains(&(to, y)) {
            break;
        }
        moves.push((to, y));
    }
    for to in (0..y).rev() {
        if walls.contains(&(x, to)) {
            break;
        }
        moves.push((x, to));
    }
    moves
}

#[tokio::test]
async fn pawn_analyze_and_play_agree_with_brute_force() {
    let addr = start(Config::default()).await;
    let mut rng = Lcg(7);
    for case in 0..40 {
        let side = 2 + rng.below(6);
        let pawn_count = 1 + rng.below(3) as usize;
        let pawns: Vec<(u64, u64)> = (0..pawn_count)
            .map(|_| (rng.below(side), rng.below(side)))
            .collect();
        let mut walls: Vec<(u64, u64)> = Vec::new();
        for _ in 0..rng.below(side * 2) {
            let w = (rng.below(side), rng.below(side));
            if !pawns.contains(&w) && !walls.contains(&w) {
                walls.push(w);
            }
        }
        let body = json!({
            "blocked": walls.iter().map(|&(x, y)| [x, y]).collect::<Vec<_>>(),
            "pawns": pawns.iter().map(|&(x, y)| [x, y]).collect::<Vec<_>>(),
            "region": [side, side],
        });
        let values: Vec<u32> = pawns
            .iter()
            .map(|&(x, y)| pawn_brute(&walls, x, y))
            .collect();
        let total = values.iter().fold(0, |a, v| a ^ v);
        let reply = post(addr, "/api/v1/pawn/analyze", &body).await;
        assert_eq!(reply.status, 200, "case {case}: {:?}", reply.json);
        let json = &reply.json;
        assert_eq!(json["grundy"], total, "case {case}");
        assert_eq!(json["winner"], if total == 0 { "second" } else { "first" });
        for (p, &v) in json["pawns"].as_array().unwrap().iter().zip(&values) {
            assert_eq!(p["grundy"], v);
            assert_eq!(p["losing"], v == 0);
        }
        // Every legal move listed once, with the brute-force total after it.
        let mut expected = Vec::new();
        for (index, &pawn) in pawns.iter().enumerate() {
            for (x, y) in pawn_moves(&walls, pawn) {
                let reached = total ^ values[index] ^ pawn_brute(&walls, x, y);
                expected.push(json!({"pawn": index, "x": x, "y": y, "grundy": reached}));
            }
        }
        // Each move's `text` is the CLI's wording, ending in the value it
        // leaves; the rest is compared with brute force.
        let mut listed = json["moves"].clone();
        for (m, e) in listed.as_array_mut().unwrap().iter_mut().zip(&expected) {
            let text = m.as_object_mut().unwrap().remove("text").unwrap();
            let text = text.as_str().unwrap();
            assert!(text.starts_with("move pawn "), "{text}");
            assert!(
                text.ends_with(&format!(", leaving grundy {}", e["grundy"])),
                "{text}"
            );
        }
        assert_eq!(listed, json!(expected), "case {case}");
        assert_eq!(json["moves_total"], expected.len());
        assert_eq!(json["moves_complete"], true);
        // The winning moves are exactly the moves reaching 0.
        let winning: Vec<Value> = expected
            .iter()
            .filter(|m| m["grundy"] == 0)
            .map(|m| json!({"pawn": m["pawn"], "x": m["x"], "y": m["y"]}))
            .collect();
        assert_eq!(
            unworded(&json["winning_moves"]),
            json!(winning),
            "case {case}"
        );
        // Losing cells of the region: brute-force value 0.
        let mut losing = Vec::new();
        for y in 0..side {
            for x in 0..side {
                if !walls.contains(&(x, y)) && pawn_brute(&walls, x, y) == 0 {
                    losing.push(json!([x, y]));
                }
            }
        }
        assert_eq!(json["losing"], json!(losing), "case {case}");

        let reply = post(addr, "/api/v1/pawn/play", &body).await;
        assert_eq!(reply.status, 200, "case {case}: {:?}", reply.json);
        let mv = &reply.json["move"];
        if expected.is_empty() {
            assert_eq!(*mv, Value::Null);
            continue;
        }
        let index = mv["pawn"].as_u64().unwrap() as usize;
        let to = (mv["x"].as_u64().unwrap(), mv["y"].as_u64().unwrap());
        assert!(pawn_moves(&walls, pawns[index]).contains(&to), "legal");
        let reached = total ^ values[index] ^ pawn_brute(&walls, to.0, to.1);
        assert_eq!(reply.json["grundy"], reached);
        assert_eq!(reached == 0, total != 0, "wins exactly when it can");
        assert_eq!(reply.json["engine_wins"], total != 0);
        assert_eq!(reply.json["proven"], true);
        assert_eq!(
            reply.json["kind"],
            if total != 0 { "winning" } else { "losing" }
        );
        let mut after = pawns.clone();
        after[index] = to;
        assert_eq!(
            reply.json["pawns"],
            json!(after.iter().map(|&(x, y)| [x, y]).collect::<Vec<_>>())
        );
    }
}

#[tokio::test]
async fn pawn_far_away_and_errors() {
    let addr = start(Config::default()).await;
    // One pawn beyond the value region: outcome and winning moves only. On
    // an empty grid the losing cells are the diagonal, so (10^9, 5) wins by
    // moving to (5, 5).
    let reply = post_ok(
        addr,
        "/api/v1/pawn/analyze",
        &json!({ "pawns": [[1_000_000_000u64, 5]] }),
    )
    .await;
    assert_eq!(reply.json["winner"], "first");
    assert_eq!(
        unworded(&reply.json["winning_moves"]),
        json!([{"pawn": 0, "x": 5, "y": 5}])
    );
    assert!(reply.json.get("moves").is_none());
    // A single pawn whose table passes the small lane's probe (200,000
    // positions) but not the request's budget (2,000,000) gets its value
    // in the heavy lane: 700 xor 600 with no impassable cell.
    let reply = post_ok(
        addr,
        "/api/v1/pawn/analyze",
        &json!({ "pawns": [[700, 600]] }),
    )
    .await;
    assert_eq!(reply.json["grundy"], 700 ^ 600, "{:?}", reply.json);
    assert_eq!(reply.json["moves_total"], 700 + 600, "{:?}", reply.json);
    // Past the request's budget too (1415 x 1415 cells): no values, and the
    // explanation makes no table of its own either.
    let reply = post_ok(
        addr,
        "/api/v1/pawn/analyze",
        &json!({ "pawns": [[1414, 1414]], "blocked": [[0, 0]] }),
    )
    .await;
    assert!(reply.json.get("moves_total").is_none(), "{:?}", reply.json);
    assert_eq!(reply.json["explain"]["mex"], json!([]), "{:?}", reply.json);
    // One far pawn with an impassable cell below-left: its winning move
    // reaches a losing cell, no XOR, and the explanation says which.
    let reply = post(
        addr,
        "/api/v1/pawn/analyze",
        &json!({ "pawns": [[5000, 6000]], "blocked": [[1, 1]] }),
    )
    .await;
    assert_eq!(
        reply.json["explain"]["by_outcome"], true,
        "{:?}",
        reply.json
    );
    assert!(
        reply.json["explain"].get("formula").is_none(),
        "{:?}",
        reply.json
    );
    // Pawns on open quadrants need no table, near as far: a sum whose
    // table would pass the budget (1501 x 1401 cells) has its value, x xor
    // y each, and the winning moves that make it 0.
    let reply = post_ok(
        addr,
        "/api/v1/pawn/analyze",
        &json!({ "pawns": [[1500, 1400], [3, 4]] }),
    )
    .await;
    let total = 1500 ^ 1400 ^ 3 ^ 4;
    assert_eq!(reply.json["grundy"], total, "{:?}", reply.json);
    let winning = reply.json["winning_moves"].as_array().unwrap();
    assert!(!winning.is_empty(), "{:?}", reply.json);
    for m in winning {
        let (x, y) = (m["x"].as_u64().unwrap(), m["y"].as_u64().unwrap());
        let other = if m["pawn"] == 0 { 3 ^ 4 } else { 1500 ^ 1400 };
        assert_eq!(x ^ y ^ other, 0, "{m}");
    }
    let reply = post(
        addr,
        "/api/v1/pawn/play",
        &json!({ "pawns": [[1_000_000_000u64, 5]] }),
    )
    .await;
    assert_eq!(reply.json["pawns"], json!([[5, 5]]));
    assert_eq!(reply.json["engine_wins"], true);
    // Far pawns with no impassable cell at or below-left are two Nim heaps
    // each: the sum's value is the XOR of their x xor y.
    let reply = post_ok(
        addr,
        "/api/v1/pawn/analyze",
        &json!({ "pawns": [[1_000_000_000u64, 5], [7, 999_999_999u64]], "blocked": [[6000, 7]] }),
    )
    .await;
    assert_eq!(
        reply.json["grundy"],
        (1_000_000_000u64 ^ 5) ^ (7 ^ 999_999_999u64)
    );
    // Pawns on one cell cancel in pairs, even where their values are past
    // the budget: sixteen at (1414, 1414) are lost (value 0), and with
    // fourteen there and a pawn on (2, 0), which the brute force values, the
    // engine's winning move takes that pawn to a cell the brute force
    // values 0.
    let walls = [(0u64, 1u64)];
    let far = [1414u64, 1414];
    let sixteen = vec![far; 16];
    let reply = post_ok(
        addr,
        "/api/v1/pawn/analyze",
        &json!({ "pawns": sixteen, "blocked": walls }),
    )
    .await;
    assert_eq!(reply.json["winner"], "second");
    assert_eq!(unworded(&reply.json["winning_moves"]), json!([]));
    let reply = post(
        addr,
        "/api/v1/pawn/play",
        &json!({ "pawns": sixteen, "blocked": walls }),
    )
    .await;
    assert_eq!(reply.json["proven"], true, "{:?}", reply.json);
    assert_eq!(reply.json["kind"], "losing");
    let mut pawns = vec![far; 14];
    pawns.push([2, 0]);
    assert_ne!(pawn_brute(&walls, 2, 0), 0);
    let reply = post(
        addr,
        "/api/v1/pawn/play",
        &json!({ "pawns": pawns, "blocked": walls }),
    )
    .await;
    assert_eq!(reply.json["proven"], true, "{:?}", reply.json);
    assert_eq!(reply.json["kind"], "winning");
    assert_eq!(reply.json["move"]["pawn"], 14);
    let to = (
        reply.json["move"]["x"].as_u64().unwrap(),
        reply.json["move"]["y"].as_u64().unwrap(),
    );
    assert!(pawn_moves(&walls, (2, 0)).contains(&to));
    assert_eq!(pawn_brute(&walls, to.0, to.1), 0);
    // Its analysis: the total and the winning moves of the pawn left, every
    // one the brute force finds, flagged as not all (the paired pawns'
    // moves are not examined).
    let reply = post_ok(
        addr,
        "/api/v1/pawn/analyze",
        &json!({ "pawns": pawns, "blocked": walls }),
    )
    .await;
    assert_eq!(reply.json["grundy"], pawn_brute(&walls, 2, 0));
    assert_eq!(reply.json["winning_moves_complete"], false);
    let mut listed: Vec<(u64, u64)> = reply.json["winning_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            assert_eq!(m["pawn"], 14);
            (m["x"].as_u64().unwrap(), m["y"].as_u64().unwrap())
        })
        .collect();
    let mut winning: Vec<(u64, u64)> = pawn_moves(&walls, (2, 0))
        .into_iter()
        .filter(|&(x, y)| pawn_brute(&walls, x, y) == 0)
        .collect();
    listed.sort_unstable();
    winning.sort_unstable();
    assert_eq!(listed, winning);
    for (body, status, what) in [
        (
            json!({ "pawns": [[1, 1]], "blocked": [[1, 1]] }),
            400,
            "pawns[0] is [1, 1], an impassable cell (blocked[0])",
        ),
        (
            json!({ "pawns": [[-1, 1]] }),
            400,
            "pawns[0] is [-1, 1]: negative x coordinate -1",
        ),
    ] {
        assert_error(
            post(addr, "/api/v1/pawn/analyze", &body).await,
            status,
            what,
        )
        .await;
        assert_error(post(addr, "/api/v1/pawn/play", &body).await, status, what).await;
    }
    // Sums whose values are out of reach: `analyze` says why, and `play`
    // still moves, unproven, a pawn that wins alone to a losing cell.
    for (body, status, what) in [
        (
            // (0, 0) lies below-left of the far pawn: no value for it.
            json!({ "pawns": [[1_000_000_000u64, 5], [1, 1]], "blocked": [[0, 0]] }),
            400,
            "pawn 1 at", // messages number pawns from 1
        ),
        // A far pawn valued without a table leaves the table of the others
        // bounded all the same. (An impassable cell at (0, 2999) closes the
        // near pawn's quadrant, so it needs a table, but not the far one's;
        // `grundy pawn` values (3000, 2999) 15 then: it wins, and does not
        // drop out.)
        (
            json!({ "pawns": [[1_000_000_000u64, 5], [3000, 2999]], "blocked": [[0, 2999]] }),
            422,
            "exceed the budget",
        ),
    ] {
        assert_error(
            post(addr, "/api/v1/pawn/analyze", &body).await,
            status,
            what,
        )
        .await;
        let reply = post_ok(addr, "/api/v1/pawn/play", &body).await;
        assert_eq!(reply.json["proven"], false, "{:?}", reply.json);
        assert_eq!(reply.json["kind"], "unproven", "{:?}", reply.json);
        assert!(
            reply.json["reason"].as_str().unwrap().contains(what),
            "{:?}",
            reply.json
        );
        let (pawn, x, y) = (
            reply.json["move"]["pawn"].as_u64().unwrap() as usize,
            reply.json["move"]["x"].as_u64().unwrap(),
            reply.json["move"]["y"].as_u64().unwrap(),
        );
        let from = &body["pawns"][pawn];
        let (fx, fy) = (from[0].as_u64().unwrap(), from[1].as_u64().unwrap());
        assert!(x == fx && y < fy || y == fy && x < fx, "{:?}", reply.json);
    }
    // A pawn on a losing cell has value 0 whatever the budget: it drops
    // out, and the engine's move of the others is proven, one that the
    // open grid's values (x xor y) say leaves 0. Its analysis has the
    // total and that pawn's winning move (on the open grid, to the
    // diagonal), not the dropped pawn's, which are unexamined. (The
    // impassable cell at (0, 3000) closes the near pawn's quadrant, so its
    // value needs a table past the budget, and leaves the far one's open;
    // `grundy pawn` says (3000, 3000) is a losing cell with it.)
    let body = json!({ "pawns": [[1_000_000_000u64, 5], [3000, 3000]], "blocked": [[0, 3000]] });
    let reply = post_ok(addr, "/api/v1/pawn/analyze", &body).await;
    assert_eq!(reply.json["grundy"], 1_000_000_000u64 ^ 5);
    assert_eq!(reply.json["winning_moves_complete"], false);
    assert_eq!(
        unworded(&reply.json["winning_moves"]),
        json!([{"pawn": 0, "x": 5, "y": 5}])
    );
    // A pawn on a losing cell below the region drops out of the sum too,
    // but its table fits the budget: its value and its winning moves are
    // given, and only the far pawn's are not examined. Every winning move
    // of the small pawns, by the brute force, is listed, and no other.
    let walls = [(1u64, 1u64)];
    let pawns = [(5000u64, 5000u64), (3, 3), (0, 1)];
    let body = json!({ "pawns": pawns, "blocked": walls });
    let reply = post_ok(addr, "/api/v1/pawn/analyze", &body).await;
    assert_eq!(reply.json["winning_moves_complete"], false);
    let total = pawn_brute(&walls, 3, 3) ^ pawn_brute(&walls, 0, 1);
    assert_eq!(reply.json["grundy"], total);
    assert_eq!(reply.json["pawns"][1]["grundy"], pawn_brute(&walls, 3, 3));
    let mut listed: Vec<(u64, u64, u64)> = reply.json["winning_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let at = |k: &str| m[k].as_u64().unwrap();
            (at("pawn"), at("x"), at("y"))
        })
        .collect();
    let mut expected = Vec::new();
    for (index, &(x, y)) in pawns.iter().enumerate().skip(1) {
        let before = pawn_brute(&walls, x, y);
        for (tx, ty) in pawn_moves(&walls, (x, y)) {
            if total ^ before ^ pawn_brute(&walls, tx, ty) == 0 {
                expected.push((index as u64, tx, ty));
            }
        }
    }
    listed.sort_unstable();
    expected.sort_unstable();
    // The dropped pawn has a winning move of its own, by the brute force:
    // the case its table must answer.
    assert!(expected.iter().any(|&(pawn, _, _)| pawn == 1));
    assert_eq!(listed, expected);
    let body = json!({ "pawns": [[1_000_000_000u64, 5], [3000, 3000]] });
    let reply = post(addr, "/api/v1/pawn/play", &body).await;
    assert_eq!(reply.json["proven"], true, "{:?}", reply.json);
    assert_eq!(reply.json["kind"], "winning", "{:?}", reply.json);
    assert_eq!(reply.json["move"]["pawn"], 0, "{:?}", reply.json);
    let (x, y) = (
        reply.json["move"]["x"].as_u64().unwrap(),
        reply.json["move"]["y"].as_u64().unwrap(),
    );
    assert!(x == 1_000_000_000 && y < 5 || y == 5 && x < 1_000_000_000);
    assert_eq!(x ^ y, 0, "{:?}", reply.json);
    // One pawn past the value budget needs no value: its outcome and moves,
    // as a pawn past the region gets them. On an empty grid the losing
    // cells are the diagonal, so (3000, 2999) wins by moving to (2999, 2999).
    let body = json!({ "pawns": [[3000, 2999]] });
    let reply = post_ok(addr, "/api/v1/pawn/analyze", &body).await;
    assert_eq!(reply.json["winner"], "first");
    assert_eq!(
        unworded(&reply.json["winning_moves"]),
        json!([{"pawn": 0, "x": 2999, "y": 2999}])
    );
    let reply = post(addr, "/api/v1/pawn/play", &body).await;
    assert_eq!(reply.json["pawns"], json!([[2999, 2999]]));
    assert_eq!(reply.json["proven"], true);
}

/// Plain mex recursion for a rectangle of the splitting game (brute force):
/// rectangles as (top, left, bottom, right), inclusive.
fn split_brute(
    cands: &[(u32, u32)],
    rect: (u32, u32, u32, u32),
    memo: &mut HashMap<(u32, u32, u32, u32), u32>,
) -> u32 {
    if let Some(&v) = memo.get(&rect) {
        return v;
    }
    let (top, left, bottom, right) = rect;
    let mut seen = MexSet::new();
    for &(r, c) in cands {
        if r < top || r > bottom || c < left || c > right {
            continue;
        }
        let mut value = 0;
        for (t, b) in [(top, r.wrapping_sub(1)), (r + 1, bottom)] {
            for (l, rt) in [(left, c.wrapping_sub(1)), (c + 1, right)] {
                if t <= b && b != u32::MAX && l <= rt && rt != u32::MAX {
                    value ^= split_brute(cands, (t, l, b, rt), memo);
                }
            }
        }
        seen.insert(Nimber::new(value));
    }
    let value = seen.mex().value();
    memo.insert(rect, value);
    value
}

/// The rectangles after `moves` from the whole `rows x cols` grid.
fn split_rects(rows: u32, cols: u32, moves: &[(u32, u32)]) -> Vec<(u32, u32, u32, u32)> {
    let mut rects = vec![(0, 0, rows - 1, cols - 1)];
    for &(r, c) in moves {
        let i = rects
            .iter()
            .position(|&(t, l, b, rt)| (t..=b).contains(&r) && (l..=rt).contains(&c))
            .expect("a legal move");
        let (t, l, b, rt) = rects.remove(i);
        for (t2, b2) in [(t, r.wrapping_sub(1)), (r + 1, b)] {
            for (l2, r2) in [(l, c.wrapping_sub(1)), (c + 1, rt)] {
                if t2 <= b2 && b2 != u32::MAX && l2 <= r2 && r2 != u32::MAX {
                    rects.push((t2, l2, b2, r2));
                }
            }
        }
    }
    rects
}

#[tokio::test]
async fn split_analyze_and_play_agree_with_brute_force() {
    let addr = start(Config::default()).await;
    let mut rng = Lcg(11);
    for case in 0..40 {
        let (rows, cols) = (1 + rng.below(6) as u32, 1 + rng.below(6) as u32);
        let mut cands = Vec::new();
        let mut grid = Vec::new();
        for r in 0..rows {
            let mut line = String::new();
            for c in 0..cols {
                let on = rng.below(2) == 0;
                line.push(if on { '1' } else { '0' });
                if on {
                    cands.push((r, c));
                }
            }
            grid.push(line);
        }
        // Replay a few random legal moves first (found by brute force).
        let mut moves: Vec<(u32, u32)> = Vec::new();
        for _ in 0..rng.below(3) {
            let rects = split_rects(rows, cols, &moves);
            let legal: Vec<(u32, u32)> = cands
                .iter()
                .copied()
                .filter(|&(r, c)| {
                    rects
                        .iter()
                        .any(|&(t, l, b, rt)| (t..=b).contains(&r) && (l..=rt).contains(&c))
                })
                .collect();
            if legal.is_empty() {
                break;
            }
            moves.push(legal[rng.below(legal.len() as u64) as usize]);
        }
        let mut memo = HashMap::new();
        let mut value_of = |rects: &[(u32, u32, u32, u32)]| {
            rects
                .iter()
                .fold(0, |acc, &rect| acc ^ split_brute(&cands, rect, &mut memo))
        };
        let rects = split_rects(rows, cols, &moves);
        let total = value_of(&rects);
        let body = json!({ "grid": grid, "moves": moves.iter().map(|&(r, c)| [r, c]).collect::<Vec<_>>() });
        let reply = post(addr, "/api/v1/split/analyze", &body).await;
        assert_eq!(reply.status, 200, "case {case}: {:?}", reply.json);
        let json = &reply.json;
        assert_eq!(json["rows"], rows);
        assert_eq!(json["cols"], cols);
        assert_eq!(json["grundy"], total, "case {case}");
        assert_eq!(json["winner"], if total == 0 { "second" } else { "first" });
        // Every legal move listed with the brute-force value after it.
        let mut expected = HashMap::new();
        for &(r, c) in &cands {
            if rects
                .iter()
                .any(|&(t, l, b, rt)| (t..=b).contains(&r) && (l..=rt).contains(&c))
            {
                let mut after = moves.clone();
                after.push((r, c));
                expected.insert((r, c), value_of(&split_rects(rows, cols, &after)));
            }
        }
        let listed = json["moves"].as_array().unwrap();
        assert_eq!(listed.len(), expected.len(), "case {case}");
        assert_eq!(json["moves_total"], expected.len());
        for m in listed {
            let cell = (
                m["row"].as_u64().unwrap() as u32,
                m["col"].as_u64().unwrap() as u32,
            );
            assert_eq!(m["grundy"], expected[&cell], "case {case} move {cell:?}");
        }
        // Winning moves: exactly the legal moves leaving 0.
        let mut winning: Vec<(u32, u32)> = json["winning_moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                (
                    m["row"].as_u64().unwrap() as u32,
                    m["col"].as_u64().unwrap() as u32,
                )
            })
            .collect();
        winning.sort_unstable();
        let mut zero: Vec<(u32, u32)> = expected
            .iter()
            .filter(|(_, &v)| v == 0)
            .map(|(&c, _)| c)
            .collect();
        zero.sort_unstable();
        assert_eq!(winning, zero, "case {case}");

        let reply = post(addr, "/api/v1/split/play", &body).await;
        assert_eq!(reply.status, 200, "case {case}: {:?}", reply.json);
        let mv = &reply.json["move"];
        if expected.is_empty() {
            assert_eq!(*mv, Value::Null);
            continue;
        }
        let cell = (
            mv["row"].as_u64().unwrap() as u32,
            mv["col"].as_u64().unwrap() as u32,
        );
        let reached = *expected.get(&cell).expect("a legal move");
        assert_eq!(reply.json["grundy"], reached);
        assert_eq!(reached == 0, total != 0, "wins exactly when it can");
        assert_eq!(reply.json["engine_wins"], reached == 0);
        assert_eq!(reply.json["proven"], true);
        assert_eq!(
            reply.json["kind"],
            if reached == 0 { "winning" } else { "losing" }
        );
    }
}

#[tokio::test]
async fn split_errors_are_json() {
    let addr = start(Config {
        budget: Budget::positions(50),
        ..Config::default()
    })
    .await;
    for (body, status, what) in [
        (json!({ "grid": ["0102"] }), 400, "row 1, column 4"),
        (
            json!({ "grid": ["11"], "moves": [[0, 0], [0, 1]] }),
            400,
            "moves[1]: split at (1,2) is illegal",
        ),
        (
            json!({ "grid": ["11", "1"] }),
            400,
            "row 2, column 2: ragged row: 1 cell, but the first row has 2",
        ),
        (json!({ "grid": ["1".repeat(65)] }), 400, "at most 64"),
    ] {
        assert_error(
            post(addr, "/api/v1/split/analyze", &body).await,
            status,
            what,
        )
        .await;
        assert_error(post(addr, "/api/v1/split/play", &body).await, status, what).await;
    }
    // A random-looking 24 x 24 grid needs far more than 50 positions.
    let mut rng = Lcg(3);
    let grid: Vec<String> = (0..24)
        .map(|_| {
            (0..24)
                .map(|_| if rng.below(3) == 0 { '1' } else { '0' })
                .collect()
        })
        .collect();
    assert_error(
        post(addr, "/api/v1/split/analyze", &json!({ "grid": grid })).await,
        422,
        "too large",
    )
    .await;
    // The engine still plays there: a legal move, unproven, its value
    // unknown.
    let reply = post_ok(addr, "/api/v1/split/play", &json!({ "grid": grid })).await;
    let (row, col) = (
        reply.json["move"]["row"].as_u64().unwrap() as usize,
        reply.json["move"]["col"].as_u64().unwrap() as usize,
    );
    assert_eq!(grid[row].as_bytes()[col], b'1', "{:?}", reply.json);
    assert_eq!(reply.json["kind"], "unproven", "{:?}", reply.json);
    assert_eq!(reply.json["proven"], false);
    assert_eq!(reply.json["grundy"], Value::Null);
    assert_eq!(reply.json["engine_wins"], false);
    assert!(reply.json["reason"]
        .as_str()
        .unwrap()
        .starts_with("unproven: "));
}

/// Pasted text goes through the guarded router to the CLI's parser; an
/// analyze answer's explanation gives each component's mex as the oracle's
/// value of that component alone, and parts that XOR to the total.
#[tokio::test]
async fn parse_reads_pasted_text_and_analyze_explains_with_the_oracles_values() {
    let addr = start(Config::default()).await;
    let reply = post(
        addr,
        "/api/v1/clear/parse",
        &json!({"text": "0110\n0000\n\n1 1\n"}),
    )
    .await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.json, json!({"boards": [["0110", "0000"], ["11"]]}));
    let bad = post(addr, "/api/v1/clear/parse", &json!({"text": "0x\n"})).await;
    assert_eq!(bad.status, 400);
    assert!(bad.json["error"]
        .as_str()
        .unwrap()
        .starts_with("line 1, column 2"));
    let get = send(addr, Method::GET, "/api/v1/clear/parse", Vec::new()).await;
    assert_eq!(get.status, 405);

    let rows = ["0110", "0011", "1000"];
    let reply = post(addr, "/api/v1/clear/analyze", &json!({ "board": rows })).await;
    assert_eq!(reply.status, 200);
    let explain = &reply.json["explain"];
    let mut memo = HashMap::new();
    let mut xor = 0;
    for (i, comp) in reply.json["components"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
    {
        let mut alone = vec![vec!['0'; 4]; 3];
        for cell in comp["cells"].as_array().unwrap() {
            let (r, c) = (cell[0].as_u64().unwrap(), cell[1].as_u64().unwrap());
            alone[r as usize][c as usize] = '1';
        }
        let alone: Vec<String> = alone
            .into_iter()
            .map(|row| row.into_iter().collect())
            .collect();
        let value = brute(&parse_board(&alone).unwrap(), &mut memo).value();
        assert_eq!(explain["mex"][i]["grundy"], json!(value));
        assert_eq!(explain["parts"][i]["grundy"], json!(value));
        xor ^= value;
    }
    assert_eq!(reply.json["grundy"], json!(xor));
}

/// The budget is read as the coordinates are: whole numbers as JSON
/// writes them (`100.0`, `1e2`), `null` for a field (or the budget, or an
/// optional list) left out, and errors in plain words, never serde's type
/// names.
#[tokio::test]
async fn optional_fields_take_null_and_whole_numbers_as_json_writes_them() {
    let addr = start(Config::default()).await;
    for budget in [
        json!({ "max_positions": 1000.0 }),
        json!({ "max_positions": 1e3, "max_time_ms": null }),
        Value::Null,
    ] {
        let reply = post(
            addr,
            "/api/v1/clear/analyze",
            &json!({ "board": ["11"], "budget": budget }),
        )
        .await;
        assert_eq!(reply.status, 200, "{budget}: {:?}", reply.json);
    }
    let reply = post(
        addr,
        "/api/v1/pawn/analyze",
        &json!({ "pawns": [[1, 2]], "blocked": null }),
    )
    .await;
    assert_eq!(reply.status, 200, "{:?}", reply.json);
    let reply = post(
        addr,
        "/api/v1/split/analyze",
        &json!({ "grid": ["1"], "moves": null }),
    )
    .await;
    assert_eq!(reply.status, 200, "{:?}", reply.json);
    for (budget, what) in [
        (
            json!({ "max_positions": 1.5 }),
            "max_positions is 1.5: not a whole number",
        ),
        (
            json!({ "max_time_ms": "soon" }),
            "max_time_ms is \"soon\": expected a whole number from 0",
        ),
        (
            json!({ "max_time_ms": 1e17 }),
            "max_time_ms is 1e17: not exact past 2^53 with a fraction or an exponent: write it in plain digits",
        ),
        (
            json!({ "max_time_ms": 1e20 }),
            "max_time_ms is 1e20: too large: expected a whole number from 0 below 2^64",
        ),
        (json!({ "max_moves": 1 }), "unknown field \"max_moves\""),
        (json!([1]), "expected an object"),
        (json!(5), "expected an object"),
    ] {
        let reply = post(
            addr,
            "/api/v1/clear/analyze",
            &json!({ "board": ["11"], "budget": budget }),
        )
        .await;
        let message = reply.json["error"].as_str().unwrap_or_default().to_owned();
        assert_error(reply, 400, what).await;
        assert!(
            !message.contains("BudgetRequest") && !message.contains("u64"),
            "{message}"
        );
    }
    // A field given twice is refused, not read as its last value.
    for body in [
        r#"{"board": ["11"], "budget": {"max_time_ms": 5, "max_time_ms": 6}}"#,
        r#"{"board": ["11"], "budget": {"max_time_ms": 100, "max_time_ms": null}}"#,
    ] {
        let reply = send(
            addr,
            Method::POST,
            "/api/v1/clear/analyze",
            body.as_bytes().to_vec(),
        )
        .await;
        let message = reply.json["error"].as_str().unwrap_or_default().to_owned();
        assert_error(reply, 400, "\"max_time_ms\" is given twice").await;
        assert!(
            !message.contains("BudgetRequest") && !message.contains("u64"),
            "{message}"
        );
    }
}
