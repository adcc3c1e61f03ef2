//! The web API's request parsers and the searches behind them, through the
//! public `games::find(name).prepare(endpoint, body, limits)`, then the job
//! run under a small budget. The first byte picks the game and the endpoint
//! (analyze or play), the rest is the request body. Every answer is JSON
//! (an object), every error a client error (4xx: 400 for a bad request, 422
//! for a search over budget), never a 500 or a panic.
#![no_main]

use std::sync::LazyLock;
use std::time::Duration;

use grundy::Budget;
use grundy_web::games::{find, Endpoint, Limits};
use grundy_web::ApiError;
use libfuzzer_sys::fuzz_target;

const GAMES: [&str; 3] = ["clear", "pawn", "split"];

static LIMITS: LazyLock<Limits> = LazyLock::new(|| Limits {
    budget: Budget {
        max_positions: Some(20_000),
        max_time: Some(Duration::from_millis(200)),
    },
    max_listed_moves: 100,
    max_boards: 16,
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
        Ok(job) => match job() {
            Err(err) => check_error(name, &err),
            Ok(json) => {
                let value: serde_json::Value = serde_json::from_str(&json)
                    .unwrap_or_else(|e| panic!("{name}: the answer is not JSON ({e}): {json}"));
                assert!(
                    value.is_object(),
                    "{name}: the answer is not an object: {json}"
                );
            }
        },
    }
});
