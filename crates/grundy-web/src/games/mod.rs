//! The games the server plays, one module each, behind one trait.
//!
//! A game turns a request body into a validated position (cheaply, on the
//! async side, so bad input costs no search slot) and returns a [`Job`]: the
//! search, run later on the blocking pool under the request's budget. Adding
//! a game is one module defining its [`WebGame`] as `GAME` and one line in
//! [`ALL`].

use grundy::Budget;
use serde::de::DeserializeOwned;
use serde::Deserialize;

use crate::ApiError;

pub mod clear;
pub mod pawn;
pub mod split;

/// Which API call a request is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Endpoint {
    /// `POST /api/v1/{game}/analyze`.
    Analyze,
    /// `POST /api/v1/{game}/play`.
    Play,
}

/// What a request may do.
#[derive(Clone, Debug)]
pub struct Limits {
    /// The most work per request.
    pub budget: Budget,
    /// The most moves listed with values by `analyze`.
    pub max_listed_moves: usize,
    /// The most boards in a sum.
    pub max_boards: usize,
}

/// A prepared search: returns the response's JSON.
pub type Job = Box<dyn FnOnce() -> Result<String, ApiError> + Send>;

/// Validates a request body for an endpoint and returns the search to run.
pub type Prepare = fn(Endpoint, &[u8], &Limits) -> Result<Job, ApiError>;

/// A game served under `/api/v1/{name}/`: its names and how it turns a
/// request into a [`Job`]. Each game module defines one as `GAME`.
pub struct WebGame {
    name: &'static str,
    title: &'static str,
    prepare: Prepare,
}

impl WebGame {
    /// A game called `name` in URLs and `title` for people.
    pub const fn new(name: &'static str, title: &'static str, prepare: Prepare) -> Self {
        Self {
            name,
            title,
            prepare,
        }
    }

    /// The name in the URL.
    #[must_use]
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// A title for people.
    #[must_use]
    pub fn title(&self) -> &'static str {
        self.title
    }

    /// Validates `body` for `endpoint` and returns the search to run.
    ///
    /// # Errors
    ///
    /// [`ApiError`] 400 when the body is not a valid request.
    pub fn prepare(
        &self,
        endpoint: Endpoint,
        body: &[u8],
        limits: &Limits,
    ) -> Result<Job, ApiError> {
        (self.prepare)(endpoint, body, limits)
    }
}

/// The job `endpoint` asks for on a validated `position`: its `analyze`
/// (listing at most `limits.max_listed_moves` moves) or its `play`.
pub fn job<P: Send + 'static>(
    endpoint: Endpoint,
    position: P,
    limits: &Limits,
    analyze: fn(&P, usize) -> Result<String, ApiError>,
    play: fn(&P) -> Result<String, ApiError>,
) -> Job {
    let max_listed_moves = limits.max_listed_moves;
    match endpoint {
        Endpoint::Analyze => Box::new(move || analyze(&position, max_listed_moves)),
        Endpoint::Play => Box::new(move || play(&position)),
    }
}

/// Every game served.
pub static ALL: &[WebGame] = &[clear::GAME, pawn::GAME, split::GAME];

/// The game called `name`.
pub fn find(name: &str) -> Option<&'static WebGame> {
    ALL.iter().find(|game| game.name == name)
}

/// The games' names, comma-separated, for error messages.
pub fn names() -> String {
    ALL.iter()
        .map(|game| game.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The optional `"budget"` of a request: it may lower the server's limits,
/// never raise them.
#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BudgetRequest {
    /// The most positions to solve.
    pub max_positions: Option<u64>,
    /// The most milliseconds to search.
    pub max_time_ms: Option<u64>,
}

impl BudgetRequest {
    /// The tighter of this request's and the server's limits.
    #[must_use]
    pub fn within(&self, server: Budget) -> Budget {
        fn tighter<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
            match (a, b) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            }
        }
        Budget {
            max_positions: tighter(self.max_positions, server.max_positions),
            max_time: tighter(
                self.max_time_ms.map(std::time::Duration::from_millis),
                server.max_time,
            ),
            max_memory: server.max_memory,
        }
    }
}

/// Parses a JSON body into `T`.
///
/// # Errors
///
/// 400 with serde's message (which gives line and column) when the body is
/// not JSON or not of the expected shape.
pub fn parse_json<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(body)
        .map_err(|err| ApiError::bad_request(format!("invalid request: {err}")))
}

/// Serialises a response body.
///
/// # Errors
///
/// 500 if serialisation fails (it does not for the report types).
pub fn to_json<T: serde::Serialize>(value: &T) -> Result<String, ApiError> {
    serde_json::to_string(value).map_err(|err| ApiError::internal(format!("serialising: {err}")))
}
