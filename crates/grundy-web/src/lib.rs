//! `grundy-web`: the web playground and JSON API behind `grundy serve`.
//!
//! [`router`] builds the axum application: the page (HTML, CSS and vanilla
//! JavaScript embedded in the binary, so nothing is needed at run time) and
//! the JSON API under `/api/v1`:
//!
//! - `GET  /api/v1/games`: the games served;
//! - `POST /api/v1/{game}/analyze`: value, winner, winning moves, components
//!   and the value every legal move leads to;
//! - `POST /api/v1/{game}/play`: the engine's move;
//! - `POST /api/v1/{game}/parse`: a position pasted as the command line's
//!   text, read by its format's one parser ([`games::paste`]).
//!
//! Each game is one module of [`games`] defining its [`games::WebGame`]; the
//! server looks `{game}` up in [`games::ALL`] and answers an unknown name
//! with a JSON 404.
//!
//! **Safety.** Requests are untrusted. Connections are bounded
//! (the `server` module: a cap on open connections, hyper's header
//! read timeout, an idle keep-alive timeout); every request passes the
//! checks of the `guard` module (its `Host` must name this server, a foreign
//! `Origin` is refused, POSTs must be `application/json`, the body is read
//! within a timeout and a size cap); bodies are parsed into validated engine
//! types (typed errors, never a panic). A request whose answer needs no
//! search ([`games::Job::answered_from_tables`], e.g. a clear board whose
//! components all fit the small tables) is answered at once, inline:
//! cheap requests never wait behind searches. The others are solved on the
//! blocking pool under a per-request [`Budget`] (positions and time; 422
//! when it runs out), in one of two **lanes**, so that a small search never
//! waits behind large ones:
//!
//! - the *small lane* ([`Config::small_lane`] searches at once, reserved
//!   for it) runs every search first under the small [`Config::probe`]
//!   budget (tens of milliseconds). Most searches people send finish
//!   within it, and are answered from it. Each client has at most
//!   [`Config::probes_per_client`] requests there at once (the `turns`
//!   module), so a burst from one client holds another's small search
//!   back by that many probes at most;
//! - a search that runs out of the probe budget is *heavy*, whether it
//!   found nothing to answer (a 422) or answered short of the whole
//!   answer (an unproven move, a large board's unknown value: see
//!   `games::Answer`): it is prepared
//!   again under what the probe left of the request's time budget
//!   (`Limits::spent`; the two together keep within it, and messages name
//!   the whole budget) and queued for the *heavy
//!   lane* ([`Config::max_concurrent`] searches at once). At most
//!   [`Config::max_queued`] heavy requests wait; beyond, a 503 at once.
//!   The request's body is remembered (a hash, in a bounded set), so the
//!   same heavy request sent again goes straight to the heavy lane without
//!   costing the small lane a probe again, and waits behind the requests
//!   new to the heavy lane (see `HeavyLane`).
//!
//! This is shortest-job-first without knowing the cost in advance (a
//! two-level feedback queue): the cost of a heavy request's probe, wasted,
//! is bounded by the probe budget, and the small lane's reserved cores
//! are never taken by a heavy search. A request whose own budget is within
//! the probe budget is final in the small lane. A request waits at most
//! [`Config::queue_timeout`] for a lane (503 after, with `Retry-After`).
//! Every error is `{"error": "..."}` with its status.
//!
//! Rectangle clearing's search memos are kept between requests
//! ([`games::memos`], at most [`Config::kept_memory`] bytes): the page's
//! `play` of a position it has just analysed, and the `analyze` after a
//! move, find the values the last search computed, and a heavy run goes on
//! from its probe. A heavy request answered in full is kept whole
//! (the `answers` module, a sixteenth of the kept memory): the same request sent
//! again is answered at once, never queued behind other clients' searches.
#![deny(missing_docs)]

use std::collections::HashSet;
use std::hash::{BuildHasher, RandomState};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, PathRejection};
use axum::extract::{DefaultBodyLimit, Extension, Path, State};
use axum::http::{header, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use grundy::Budget;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

mod answers;
mod error;
pub mod games;
mod guard;
mod page;
mod server;
mod turns;

pub use error::ApiError;
pub use games::Databases;
pub use guard::{accepted_hosts, check_allow_host, check_allow_origin, ANY as ANY_HOST};

use games::{Endpoint, Limits};
use server::Client;

/// Server limits.
#[derive(Clone, Debug)]
pub struct Config {
    /// Largest accepted request body, in bytes (413 beyond).
    pub max_body_bytes: usize,
    /// The most work one request may do; a request may ask for less.
    pub budget: Budget,
    /// How many heavy searches (past the probe budget) may run at once.
    pub max_concurrent: usize,
    /// How many searches the small lane runs at once: cores reserved for
    /// small searches, which heavy ones never take.
    pub small_lane: usize,
    /// The budget of a search's first run, in the small lane; a search
    /// that runs out of it is heavy (it never raises the request's own).
    pub probe: Budget,
    /// How many of one client's searches (an IPv4 address, an IPv6 /64)
    /// may wait for the small lane or run in it at once; its others wait
    /// behind them, so that another client's small search waits behind at
    /// most this many probes of each client (see the `turns` module).
    pub probes_per_client: usize,
    /// How many heavy requests may wait for the heavy lane, of each kind:
    /// new ones and ones seen heavy before (503 beyond).
    pub max_queued: usize,
    /// How long a request waits for a lane before a 503.
    pub queue_timeout: Duration,
    /// The most moves `analyze` lists with their values (a sample beyond).
    pub max_listed_moves: usize,
    /// The most boards in one sum.
    pub max_boards: usize,
    /// The most connections open at once. Beyond, the longest-waiting
    /// connection of the client holding the most gives way; when none is
    /// waiting, the new one gets a 503 and is closed.
    pub max_connections: usize,
    /// The most connections one client (an IPv4 address, an IPv6 /64) may
    /// hold. Beyond, its own longest-waiting connection gives way; when
    /// none is waiting, the new one gets a 503 and is closed.
    pub max_connections_per_client: usize,
    /// How long a client may take to send a request's line and headers,
    /// counted from when the server starts waiting for it.
    pub header_timeout: Duration,
    /// How long a client may take to send a request's body (408 beyond).
    pub body_timeout: Duration,
    /// How long a keep-alive connection may stay idle (no request in
    /// progress, no byte of a next one) before it is closed.
    pub idle_timeout: Duration,
    /// `Host` values accepted besides the bound address and `localhost`
    /// with its port: `name` (any port), `name:port`, or `*` (any host).
    pub allow_hosts: Vec<String>,
    /// Origins (`http://example.org:8000`) whose cross-origin requests are
    /// accepted and get CORS headers; `*` accepts every origin.
    pub allow_origins: Vec<String>,
    /// Shape databases the rectangle-clearing endpoints consult before
    /// searching (for example those `grundy serve` finds); none by default.
    /// Owned by the server's state and shared by its requests.
    pub databases: Databases,
    /// The most bytes of rectangle clearing's search memos kept between
    /// requests, all together ([`games::memos`]); 0 keeps none.
    pub kept_memory: usize,
    /// Called on the heavy search's thread after each heavy search ends:
    /// the front-end's way to hand the memory the search freed back to the
    /// system (the allocator may otherwise keep it for later; `grundy
    /// serve` trims glibc's heaps). None by default.
    pub release_memory: Option<fn()>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            max_body_bytes: 64 * 1024,
            budget: Budget {
                max_positions: Some(2_000_000),
                max_time: Some(Duration::from_secs(2)),
                max_memory: Some(256 << 20),
            },
            // One core is the small lane's; the others run heavy searches.
            max_concurrent: std::thread::available_parallelism()
                .map_or(1, |n| n.get().saturating_sub(1).max(1)),
            small_lane: 1,
            probe: Budget {
                max_positions: Some(200_000),
                max_time: Some(Duration::from_millis(25)),
                max_memory: None,
            },
            probes_per_client: 2,
            max_queued: 32,
            queue_timeout: Duration::from_secs(10),
            max_listed_moves: 2_000,
            max_boards: 16,
            max_connections: 512,
            max_connections_per_client: 64,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(5),
            allow_hosts: Vec::new(),
            allow_origins: Vec::new(),
            databases: Databases::default(),
            kept_memory: 256 << 20,
            release_memory: None,
        }
    }
}

struct AppState {
    limits: Limits,
    probe: Budget,
    small: Arc<Semaphore>,
    /// Each client's turns at the small lane.
    turns: Arc<turns::Turns>,
    heavy: Arc<HeavyLane>,
    queue_timeout: Duration,
    /// [`Config::max_body_bytes`], for the 413's message.
    max_body_bytes: usize,
    /// [`Config::release_memory`].
    release_memory: Option<fn()>,
    /// Hashes of requests whose probe ran out (see the crate comment).
    known_heavy: Mutex<HashSet<u64>>,
    /// Whole answers of heavy requests (the `answers` module).
    answers: answers::Answers,
    hasher: RandomState,
}

/// The most request hashes remembered as heavy; the set is emptied when
/// full (a forgotten request costs one probe more).
const KNOWN_HEAVY: usize = 4096;

/// The whole answers of heavy requests (the `answers` module) keep this part of
/// [`Config::kept_memory`] (16 MB of the default 256), the memos the rest.
const KEPT_ANSWERS_SHARE: usize = 16;

/// The application with the default [`Config`], as served on `local`.
pub fn router(local: SocketAddr) -> Router {
    router_with(&Config::default(), local)
}

/// The application with the given limits, as served on `local` (the
/// address its `Host` check accepts, with `localhost` and
/// [`Config::allow_hosts`]).
pub fn router_with(config: &Config, local: SocketAddr) -> Router {
    let state = Arc::new(AppState {
        limits: Limits {
            spent: Duration::ZERO,
            budget: config.budget,
            max_listed_moves: config.max_listed_moves,
            max_boards: config.max_boards,
            databases: config.databases.clone(),
            // One kept memo for each search that may run at once, in all
            // what the whole answers leave of the kept memory.
            memos: games::memos::Kept::new(
                config.small_lane.max(1) + config.max_concurrent.max(1),
                config.kept_memory - config.kept_memory / KEPT_ANSWERS_SHARE,
            ),
            stop: None,
        },
        probe: config.probe,
        small: Arc::new(Semaphore::new(config.small_lane.max(1))),
        turns: Arc::new(turns::Turns::new(config.probes_per_client)),
        heavy: Arc::new(HeavyLane {
            state: Mutex::new(LaneState {
                max_running: config.max_concurrent.max(1),
                max_waiting: config.max_queued,
                ..LaneState::default()
            }),
            freed: tokio::sync::Notify::new(),
        }),
        queue_timeout: config.queue_timeout,
        max_body_bytes: config.max_body_bytes,
        release_memory: config.release_memory,
        known_heavy: Mutex::new(HashSet::new()),
        answers: answers::Answers::new(config.kept_memory / KEPT_ANSWERS_SHARE),
        hasher: RandomState::new(),
    });
    let guard = Arc::new(guard::Guard::new(
        local,
        &config.allow_hosts,
        &config.allow_origins,
        config.body_timeout,
        config.max_body_bytes,
    ));
    let mut app = Router::new()
        .route("/", get(page::index).fallback(page_method_not_allowed))
        .route(
            "/app.js",
            get(page::script).fallback(page_method_not_allowed),
        )
        .route(
            "/style.css",
            get(page::style).fallback(page_method_not_allowed),
        )
        .route(
            "/api/v1/games",
            get(list_games).fallback(method_not_allowed),
        )
        .route(
            "/api/v1/{game}/analyze",
            post(analyze).fallback(method_not_allowed),
        )
        .route(
            "/api/v1/{game}/play",
            post(play).fallback(method_not_allowed),
        )
        .route(
            "/api/v1/{game}/parse",
            post(parse).fallback(method_not_allowed),
        )
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(config.max_body_bytes))
        .with_state(state);
    if let Some(cors) = guard::cors_layer(&config.allow_origins) {
        app = app.layer(cors);
    }
    // Outermost: nothing runs for a request that fails the guard, and its
    // rejections get the security headers too.
    app.layer(axum::middleware::from_fn_with_state(guard, guard::check))
        .layer(axum::middleware::map_response(guard::security_headers))
}

/// Serves the application with `config` on the first of `addrs` that can be
/// bound, until Ctrl-C.
///
/// # Errors
///
/// When no address can be bound, or the server fails.
pub async fn serve_with(addrs: &[SocketAddr], config: Config) -> std::io::Result<()> {
    let listener = TcpListener::bind(addrs).await?;
    serve_on(listener, config).await
}

/// Serves the application with the default [`Config`] on `addr` until
/// Ctrl-C.
///
/// # Errors
///
/// When the address cannot be bound, or the server fails.
pub async fn serve(addr: SocketAddr) -> std::io::Result<()> {
    serve_with(&[addr], Config::default()).await
}

/// Serves the application on a bound listener until Ctrl-C (tests bind
/// `127.0.0.1:0` and read the port from the listener). On Ctrl-C the server
/// stops accepting and returns; open connections end with the runtime.
///
/// # Errors
///
/// When the listener has no local address.
pub async fn serve_on(listener: TcpListener, config: Config) -> std::io::Result<()> {
    // The 4 x 5 and 2 x 8 tables are built on first use (some
    // milliseconds): build them now, off the async threads, so no request
    // that is answered inline from the tables pays for it.
    let _ = tokio::task::spawn_blocking(grundy::clear::table::warm_small_tables).await;
    let app = router_with(&config, listener.local_addr()?);
    let limits = server::ConnLimits {
        max_connections: config.max_connections,
        max_per_client: config.max_connections_per_client,
        header_timeout: config.header_timeout,
        idle_timeout: config.idle_timeout,
    };
    server::run(listener, app, limits, async {
        // Without a signal handler the server simply runs until killed.
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    })
    .await
}

/// Runs [`serve_on`] on a new multi-threaded runtime, blocking the caller:
/// for front-ends that are not async themselves. It binds the first of
/// `addrs` that can be bound; `on_ready` is called with the bound address
/// once the server accepts connections.
///
/// # Errors
///
/// When the runtime cannot start, no address can be bound, or the server
/// fails.
pub fn run_blocking(
    addrs: &[SocketAddr],
    config: Config,
    on_ready: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = TcpListener::bind(addrs).await?;
        on_ready(listener.local_addr()?);
        serve_on(listener, config).await
    })
}

async fn list_games() -> Response {
    let games: Vec<serde_json::Value> = games::ALL
        .iter()
        .map(|g| serde_json::json!({ "name": g.name(), "title": g.title() }))
        .collect();
    // The command line's fixed sentences, for the page to say as it says
    // them (grundy-report's one formatter).
    let words = serde_json::json!({
        "no_moves": grundy_report::words::NO_MOVES,
        "no_winning_moves": grundy_report::words::NO_WINNING_MOVES,
    });
    json_response(
        StatusCode::OK,
        serde_json::json!({ "games": games, "words": words }).to_string(),
    )
}

async fn analyze(
    State(state): State<Arc<AppState>>,
    client: Option<Extension<Client>>,
    game: Result<Path<String>, PathRejection>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let client = client.map(|Extension(client)| client);
    handle(&state, client, game, Endpoint::Analyze, body).await
}

async fn play(
    State(state): State<Arc<AppState>>,
    client: Option<Extension<Client>>,
    game: Result<Path<String>, PathRejection>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let client = client.map(|Extension(client)| client);
    handle(&state, client, game, Endpoint::Play, body).await
}

/// Pasted text read by its format's one parser ([`games::paste`]): no
/// search, answered at once.
async fn parse(
    game: Result<Path<String>, PathRejection>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let answer = match (game, body) {
        (Err(rejection), _) => Err(ApiError::new(rejection.status(), rejection.body_text())),
        (_, Err(rejection)) => Err(ApiError::new(
            rejection.status(),
            format!("cannot read the request body: {}", rejection.body_text()),
        )),
        (Ok(Path(game)), Ok(body)) => games::paste::parse_text(&game, &body),
    };
    match answer {
        Ok(json) => json_response(StatusCode::OK, json),
        Err(err) => err.into_response(),
    }
}

/// `client` is the connection's client, which the server puts in each
/// request; a router used without the server (tests) has none, and its
/// requests take no turns.
async fn handle(
    state: &AppState,
    client: Option<Client>,
    game: Result<Path<String>, PathRejection>,
    endpoint: Endpoint,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let game = match game {
        Ok(Path(game)) => game,
        Err(rejection) => {
            return ApiError::new(rejection.status(), rejection.body_text()).into_response()
        }
    };
    match handle_inner(state, client, &game, endpoint, body).await {
        Ok(json) => json_response(StatusCode::OK, json),
        Err(err) if err.status == StatusCode::SERVICE_UNAVAILABLE => {
            let mut response = err.into_response();
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, header::HeaderValue::from_static("1"));
            response
        }
        Err(err) => err.into_response(),
    }
}

/// The `"budget"` field of a request body (the game's parser has checked
/// the whole body already; this reads the one field again).
#[derive(serde::Deserialize)]
struct BudgetField {
    #[serde(default)]
    budget: games::BudgetRequest,
}

async fn handle_inner(
    state: &AppState,
    client: Option<Client>,
    game: &str,
    endpoint: Endpoint,
    body: Result<Bytes, BytesRejection>,
) -> Result<String, ApiError> {
    let Some(rules) = games::find(game) else {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!(
                "unknown game '{}'; games: {}",
                truncate(game, 40),
                games::names()
            ),
        ));
    };
    let body = body.map_err(|rejection| {
        ApiError::new(
            rejection.status(),
            if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                guard::body_too_large(state.max_body_bytes)
            } else {
                format!("cannot read the request body: {}", rejection.body_text())
            },
        )
    })?;
    // A request whose client goes away is dropped here, at an await: its
    // searches, running on blocking threads, then stop at their next check
    // rather than spend the rest of the budget for nobody.
    let stop = Arc::new(AtomicBool::new(false));
    let _stop_when_dropped = StopWhenDropped(stop.clone());
    let request_limits = Limits {
        stop: Some(stop),
        ..state.limits.clone()
    };
    // Parse before taking a search slot: bad input costs no slot.
    let mut job = rules.prepare(endpoint, &body, &request_limits)?;
    if job.answered_from_tables() {
        // No search: a few lookups, cheaper than a trip to the blocking
        // pool, and never behind the searches waiting for a slot.
        return job.run().map(|answer| answer.json);
    }
    let play = endpoint == Endpoint::Play;
    let key = state.hasher.hash_one((game, play, &body[..]));
    if let Some(json) = state.answers.get(key, game, play, &body) {
        return Ok(json);
    }
    let mut new_heavy = false;
    if !lock(&state.known_heavy).contains(&key) {
        // The small lane, under the probe budget (never above the
        // request's own).
        let asked = serde_json::from_slice::<BudgetField>(&body)
            .map(|field| field.budget)
            .unwrap_or_default()
            .within(state.limits.budget);
        let probe = games::BudgetRequest {
            max_positions: state.probe.max_positions,
            max_time_ms: state
                .probe
                .max_time
                .map(|t| u64::try_from(t.as_millis()).unwrap_or(u64::MAX)),
        }
        .within(asked);
        let limits = Limits {
            budget: probe,
            ..request_limits.clone()
        };
        let small_job = rules.prepare(endpoint, &body, &limits)?;
        let deadline = tokio::time::Instant::now() + state.queue_timeout;
        let turn = match client {
            Some(client) => Some(state.turns.wait(client, deadline).await?),
            None => None,
        };
        let (answer, searched) = run_in(&state.small, deadline, small_job).await;
        drop(turn);
        match answer {
            // The probe was the whole budget, or it was enough.
            _ if probe == asked => return answer.map(|answer| answer.json),
            // The probe ran out: with nothing to answer (422), or with an
            // unproven move or an unknown value that more time may settle.
            Ok(games::Answer { stopped: true, .. }) => {}
            Err(err) if err.status == StatusCode::UNPROCESSABLE_ENTITY => {}
            _ => return answer.map(|answer| answer.json),
        }
        let mut known = lock(&state.known_heavy);
        if known.len() >= KNOWN_HEAVY {
            known.clear();
        }
        // New unless the same request, probed meanwhile, ran out first
        // (many copies sent at once are one new request).
        new_heavy = known.insert(key);
        drop(known);
        // The heavy run has what the probe left of the request's time
        // budget: the two together keep within it.
        job = rules.prepare(
            endpoint,
            &body,
            &Limits {
                spent: searched,
                ..request_limits
            },
        )?;
    }
    // The heavy lane.
    let permit = state.heavy.acquire(new_heavy, state.queue_timeout).await?;
    let release = state.release_memory;
    let answer = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let answer = job.run();
        if let Some(release) = release {
            release();
        }
        answer
    })
    .await
    .map_err(|_| ApiError::internal("the analysis failed unexpectedly"))??;
    if !answer.stopped {
        // Answered whole: the same request sent again is answered at once.
        state
            .answers
            .put(key, game, play, body.clone(), answer.json.clone());
    }
    Ok(answer.json)
}

/// Sets its flag when dropped: with the request's future, when the
/// client has gone ([`Limits::stop`]), or once it has answered (by then
/// its searches have ended).
struct StopWhenDropped(Arc<AtomicBool>);

impl Drop for StopWhenDropped {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// The heavy lane: at most `max_running` searches at once, and at most
/// `max_waiting` requests waiting of each kind: *new* ones (whose probe
/// just ran out) and *known* ones (the same request seen heavy before).
/// New ones go first: a search that is merely medium-sized waits for one
/// heavy search to end, not behind every repeat of the heavy requests (a
/// third level of the feedback queue). Tokio's semaphore is FIFO only,
/// hence this small one: a count under a mutex, and a `Notify` that wakes
/// the waiters when a place frees.
struct HeavyLane {
    state: Mutex<LaneState>,
    freed: tokio::sync::Notify,
}

#[derive(Default)]
struct LaneState {
    max_running: usize,
    max_waiting: usize,
    running: usize,
    waiting_new: usize,
    waiting_known: usize,
}

impl HeavyLane {
    /// A place in the lane, waiting at most `queue_timeout` (503 after, or
    /// at once when too many wait already).
    async fn acquire(
        self: &Arc<Self>,
        new: bool,
        queue_timeout: Duration,
    ) -> Result<LanePlace, ApiError> {
        {
            let mut state = lock(&self.state);
            if state.running < state.max_running && (new || state.waiting_new == 0) {
                state.running += 1;
                return Ok(LanePlace(self.clone()));
            }
            let max_waiting = state.max_waiting;
            let waiting = if new {
                &mut state.waiting_new
            } else {
                &mut state.waiting_known
            };
            if *waiting >= max_waiting {
                return Err(busy());
            }
            *waiting += 1;
        }
        let _waiter = Waiter { lane: self, new };
        let wait = async {
            loop {
                // Registered before the check, so no wake-up is lost.
                let freed = self.freed.notified();
                let mut freed = std::pin::pin!(freed);
                freed.as_mut().enable();
                {
                    let mut state = lock(&self.state);
                    if state.running < state.max_running && (new || state.waiting_new == 0) {
                        state.running += 1;
                        return LanePlace(self.clone());
                    }
                }
                freed.await;
            }
        };
        tokio::time::timeout(queue_timeout, wait)
            .await
            .map_err(|_| busy())
    }
}

/// A request waiting for the heavy lane, counted until dropped.
struct Waiter<'a> {
    lane: &'a HeavyLane,
    new: bool,
}

impl Drop for Waiter<'_> {
    fn drop(&mut self) {
        let mut state = lock(&self.lane.state);
        if self.new {
            state.waiting_new -= 1;
        } else {
            state.waiting_known -= 1;
        }
        drop(state);
        // A new waiter gone may let known ones in.
        self.lane.freed.notify_waiters();
    }
}

/// A running heavy search's place, given back when dropped.
struct LanePlace(Arc<HeavyLane>);

impl Drop for LanePlace {
    fn drop(&mut self) {
        lock(&self.0.state).running -= 1;
        self.0.freed.notify_waiters();
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

fn busy() -> ApiError {
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "the server is busy with other analyses; try again shortly",
    )
}

/// Runs `job` on the blocking pool once a permit of `lane` is free,
/// waiting until `deadline` at most for it (503 after).
/// Runs `job` once `lane` has room (503 past `deadline`): its answer, and
/// how long it ran (zero when it did not).
async fn run_in(
    lane: &Arc<Semaphore>,
    deadline: tokio::time::Instant,
    job: games::Job,
) -> (Result<games::Answer, ApiError>, Duration) {
    let permit = match tokio::time::timeout_at(deadline, lane.clone().acquire_owned()).await {
        Ok(Ok(permit)) => permit,
        Ok(Err(_)) => {
            let err = ApiError::internal("the server is shutting down");
            return (Err(err), Duration::ZERO);
        }
        Err(_) => return (Err(busy()), Duration::ZERO),
    };
    let ran = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let started = std::time::Instant::now();
        let answer = job.run();
        (answer, started.elapsed())
    })
    .await;
    match ran {
        Ok(ran) => ran,
        Err(_) => (
            Err(ApiError::internal("the analysis failed unexpectedly")),
            Duration::ZERO,
        ),
    }
}

async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method not allowed: the API takes POST (GET for /api/v1/games)",
    )
}

/// The page's files are only read: the answer says so, in `Allow` too (a
/// method router's fallback answers without it).
async fn page_method_not_allowed() -> Response {
    let mut response = ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method not allowed: the page's files are read with GET (or HEAD)",
    )
    .into_response();
    response
        .headers_mut()
        .insert(header::ALLOW, header::HeaderValue::from_static("GET,HEAD"));
    response
}

async fn not_found(uri: Uri) -> ApiError {
    // A target that is not a path (CONNECT's `host:port`) is named whole.
    let target = if uri.path().is_empty() {
        uri.to_string()
    } else {
        uri.path().to_owned()
    };
    ApiError::new(
        StatusCode::NOT_FOUND,
        format!("not found: {}", truncate(&target, 80)),
    )
}

fn json_response(status: StatusCode, body: String) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// At most `max` characters of `text`, for echoing user input in errors.
fn truncate(text: &str, max: usize) -> String {
    let mut out: String = text.chars().take(max).collect();
    if text.chars().count() > max {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lane(max_running: usize, max_waiting: usize) -> Arc<HeavyLane> {
        Arc::new(HeavyLane {
            state: Mutex::new(LaneState {
                max_running,
                max_waiting,
                ..LaneState::default()
            }),
            freed: tokio::sync::Notify::new(),
        })
    }

    /// A request new to the heavy lane goes before a repeat that has waited
    /// longer; each kind's queue is bounded; places come back.
    #[tokio::test]
    async fn the_heavy_lane_serves_new_requests_first() {
        let lane = lane(1, 1);
        let wait = Duration::from_secs(30);
        let running = lane.acquire(false, wait).await.unwrap();
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let known = tokio::spawn({
            let (lane, tx) = (lane.clone(), tx.clone());
            async move {
                let place = lane.acquire(false, wait).await.unwrap();
                tx.send("known").unwrap();
                place
            }
        });
        tokio::time::sleep(Duration::from_millis(50)).await;
        // The known queue is full: one more known request is refused.
        let refused = lane.acquire(false, wait).await.err().unwrap();
        assert_eq!(refused.status, StatusCode::SERVICE_UNAVAILABLE);
        let new = tokio::spawn({
            let lane = lane.clone();
            async move {
                let place = lane.acquire(true, wait).await.unwrap();
                tx.send("new").unwrap();
                tokio::time::sleep(Duration::from_millis(50)).await;
                drop(place);
            }
        });
        tokio::time::sleep(Duration::from_millis(50)).await;
        drop(running);
        assert_eq!(rx.recv().await, Some("new"));
        assert_eq!(rx.recv().await, Some("known"));
        new.await.unwrap();
        drop(known.await.unwrap());
        let state = lock(&lane.state);
        assert_eq!(
            (state.running, state.waiting_new, state.waiting_known),
            (0, 0, 0)
        );
    }

    /// A request that waits past the queue timeout gets a 503 and leaves
    /// the queue.
    #[tokio::test]
    async fn the_heavy_lane_times_out() {
        let lane = lane(1, 4);
        let running = lane.acquire(true, Duration::from_secs(1)).await.unwrap();
        let late = lane.acquire(true, Duration::from_millis(50)).await;
        assert_eq!(late.err().unwrap().status, StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(lock(&lane.state).waiting_new, 0);
        drop(running);
        assert!(lane.acquire(false, Duration::from_secs(1)).await.is_ok());
    }
}
