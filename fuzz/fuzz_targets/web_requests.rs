//! The web API's request parsers and the searches behind them, through the
//! public `games::find(name).prepare(endpoint, body, limits)`, then the job
//! run under a small budget. The first byte picks the game and the endpoint
//! (analyze or play), the rest is the request body. Every answer is JSON
//! (an object), every error a client error (4xx: 400 for a bad request, 422
//! for a search over budget), never a 500 or a panic. And the answers agree
//! with the theory: the winner is the first player exactly when the value is
//! not 0 and exactly when there is a winning move; no move keeps the value;
//! a complete list of moves holds as many moves to 0 as there are winning
//! moves; the engine claims a win only when it leaves value 0.
#![no_main]

use std::sync::LazyLock;
use std::time::Duration;

use grundy::Budget;
use grundy_web::games::memos::Kept;
use grundy_web::games::{find, Databases, Endpoint, Limits};
use grundy_web::ApiError;
use libfuzzer_sys::fuzz_target;

const GAMES: [&str; 3] = ["clear", "pawn", "split"];

static LIMITS: LazyLock<Limits> = LazyLock::new(|| Limits {
    budget: Budget {
        max_positions: Some(20_000),
        max_time: Some(Duration::from_millis(200)),
        max_memory: None,
    },
    max_listed_moves: 100,
    max_boards: 16,
    // No database: every clearing answer comes from the search itself.
    databases: Databases::default(),
    // No memo kept between inputs: each input's run is its own, so a
    // crash reproduces from its input alone.
    memos: Kept::default(),
    stop: None,
    // Run as a first run, with the whole budget.
    spent: Duration::ZERO,
});

fn check_error(game: &str, err: &ApiError) {
    assert!(
        err.status.is_client_error(),
        "{game}: status {} for {:?}",
        err.status,
        err.message
    );
    assert!(
        !err.message.is_empty(),
        "{game}: an error without a message"
    );
    // The body the server sends: {"error": message}.
    let body = serde_json::json!({ "error": err.message }).to_string();
    serde_json::from_str::<serde_json::Value>(&body).expect("an error body is JSON");
    let _ = err.to_string();
}

/// The answer's consistency, for the fields it has (a far pawn's value is
/// unknown, for one: then only the winner is given).
fn check_answer(name: &str, endpoint: Endpoint, json: &serde_json::Value) {
    let grundy = json.get("grundy").and_then(serde_json::Value::as_u64);
    if endpoint == Endpoint::Play {
        if json.get("engine_wins") == Some(&serde_json::Value::Bool(true)) {
            assert!(
                grundy.is_none_or(|g| g == 0),
                "{name}: a win claimed at {grundy:?}: {json}"
            );
        }
        return;
    }
    let winner = json.get("winner").and_then(serde_json::Value::as_str);
    let winning = json
        .get("winning_moves")
        .and_then(serde_json::Value::as_array);
    if let (Some(winner), Some(g)) = (winner, grundy) {
        assert_eq!(
            winner == "first",
            g != 0,
            "{name}: winner {winner} at value {g}: {json}"
        );
    }
    if let (Some(winner), Some(winning)) = (winner, winning) {
        assert_eq!(
            winner == "first",
            !winning.is_empty(),
            "{name}: winner {winner} with {} winning moves: {json}",
            winning.len()
        );
    }
    let Some(moves) = json.get("moves").and_then(serde_json::Value::as_array) else {
        return;
    };
    let total = json["moves_total"].as_u64().expect("moves_total") as usize;
    let complete = json["moves_complete"].as_bool().expect("moves_complete");
    assert!(moves.len() <= total, "{name}: more moves listed than exist");
    assert_eq!(complete, moves.len() == total, "{name}: moves_complete");
    let reached: Vec<u64> = moves
        .iter()
        .map(|m| m["grundy"].as_u64().expect("a listed move has a value"))
        .collect();
    if let Some(g) = grundy {
        assert!(
            !reached.contains(&g),
            "{name}: a move keeps the value {g}: {json}"
        );
    }
    if let (true, Some(winning)) = (complete, winning) {
        let to_zero = reached.iter().filter(|&&v| v == 0).count();
        assert_eq!(
            to_zero,
            winning.len(),
            "{name}: moves to 0 vs winning moves: {json}"
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, body)) = data.split_first() else {
        return;
    };
    let name = GAMES[usize::from(first % 3)];
    let endpoint = if first & 0x80 == 0 {
        Endpoint::Analyze
    } else {
        Endpoint::Play
    };
    let game = find(name).expect("a served game");
    match game.prepare(endpoint, body, &LIMITS) {
        Err(err) => check_error(name, &err),
        Ok(job) => match job.run() {
            Err(err) => check_error(name, &err),
            Ok(answer) => {
                let json = answer.json;
                let value: serde_json::Value = serde_json::from_str(&json)
                    .unwrap_or_else(|e| panic!("{name}: the answer is not JSON ({e}): {json}"));
                assert!(
                    value.is_object(),
                    "{name}: the answer is not an object: {json}"
                );
                check_answer(name, endpoint, &value);
            }
        },
    }
});
