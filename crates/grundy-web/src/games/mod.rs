//! The games the server plays, one module each, behind one trait.
//!
//! A game turns a request body into a validated position (cheaply, on the
//! async side, so bad input costs no search slot) and returns a [`Job`]: the
//! search, run later on the blocking pool under the request's budget. Adding
//! a game is one module defining its [`WebGame`] as `GAME` and one line in
//! [`ALL`].
//!
//! A position may be **answered from tables**: every value the answer needs
//! is known without search (a table, a closed form, a shape database). Its
//! game says so through [`FromTables`], and the server runs such a job at
//! once instead of queueing it for a search slot, so cheap requests never
//! wait behind searches. [`known_without_search`] is the predicate for games
//! of the generic [`Solver`](grundy::Solver): every component has a
//! [`Game::known_value`].

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use grundy::clear::shapes::ShapeLookup;
use grundy::{Budget, Game, SolveError};
use serde::de::DeserializeOwned;
use serde::Deserialize;

use crate::ApiError;

pub mod clear;
pub mod memos;
pub mod paste;
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
    /// The shape databases rectangle clearing consults.
    pub databases: Databases,
    /// Rectangle clearing's search memos kept between requests.
    pub memos: memos::Kept<grundy::clear::ClearSolver>,
    /// Set when the request is gone (its client disconnected): the
    /// searches stop at their next check instead of spending the budget.
    pub stop: Option<Arc<AtomicBool>>,
    /// The time the request's probe already searched (in the small lane):
    /// taken from the time budget of the run after it, so that the two
    /// keep within the request's budget; messages name the whole budget
    /// ([`whole_budget`]).
    pub spent: Duration,
}

/// `budget` less the time `spent` already (see [`Limits::spent`]).
#[must_use]
pub fn budget_after(budget: Budget, spent: Duration) -> Budget {
    Budget {
        max_time: budget.max_time.map(|t| t.saturating_sub(spent)),
        ..budget
    }
}

/// A time budget's stop named with the request's `whole` budget, when the
/// search ran under what its probe left ([`budget_after`]).
#[must_use]
pub fn whole_budget(err: SolveError, whole: Budget) -> SolveError {
    match (err, whole.max_time) {
        (SolveError::TimeBudget { .. }, Some(limit)) => SolveError::TimeBudget { limit },
        (err, _) => err,
    }
}

/// Shape databases the rectangle-clearing endpoints consult before
/// searching: owned by the server's state (a clone shares them), none by
/// default.
#[derive(Clone, Default)]
pub struct Databases(Option<Arc<dyn ShapeLookup>>);

impl Databases {
    /// These databases.
    #[must_use]
    pub fn new(lookup: Arc<dyn ShapeLookup>) -> Databases {
        Databases(Some(lookup))
    }

    /// The rules of rectangle clearing, reading these databases.
    #[must_use]
    pub fn clear_rules(&self) -> grundy::clear::Clear {
        self.0
            .clone()
            .map_or_else(grundy::clear::Clear::new, grundy::clear::Clear::with_shapes)
    }
}

impl std::fmt::Debug for Databases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "Databases(some)"
        } else {
            "Databases(none)"
        })
    }
}

/// A job's answer: the response's JSON, and whether a budget stopped the
/// search short of the whole answer (a move left unproven, a value left
/// unknown). Under the small lane's probe such an answer is not final: the
/// server runs the job again under the request's own budget.
#[derive(Debug)]
pub struct Answer {
    /// The response's body.
    pub json: String,
    /// True when the budget ran out before the whole answer was found.
    pub stopped: bool,
}

/// `value` serialised as an [`Answer`].
///
/// # Errors
///
/// 500 if serialisation fails (it does not for the report types).
pub fn answer<T: serde::Serialize>(value: &T, stopped: bool) -> Result<Answer, ApiError> {
    to_json(value).map(|json| Answer { json, stopped })
}

/// A prepared answer: the work that returns the response's JSON, and
/// whether it needs a search.
pub struct Job {
    run: Box<dyn FnOnce() -> Result<Answer, ApiError> + Send>,
    from_tables: bool,
}

impl Job {
    /// The work `run`; `from_tables` when it needs no search (see
    /// [`FromTables`]).
    pub fn new(
        run: impl FnOnce() -> Result<Answer, ApiError> + Send + 'static,
        from_tables: bool,
    ) -> Job {
        Job {
            run: Box::new(run),
            from_tables,
        }
    }

    /// True when the answer needs no search: the server runs it at once,
    /// without a search slot.
    #[must_use]
    pub fn answered_from_tables(&self) -> bool {
        self.from_tables
    }

    /// Does the work.
    ///
    /// # Errors
    ///
    /// [`ApiError`] 422 when the search budget runs out before anything
    /// worth answering was found.
    pub fn run(self) -> Result<Answer, ApiError> {
        (self.run)()
    }
}

/// Whether a validated position is answered from tables: both its
/// `analyze` and its `play` need only values known without search, at a
/// cost of lookups (a few per legal move), never a search. Games whose
/// positions always need a search answer `false`.
pub trait FromTables {
    /// True when answering needs no search.
    fn answered_from_tables(&self) -> bool;
}

/// True when every component of every one of `positions` has a value known
/// without search under `rules` ([`Game::known_value`]).
///
/// This makes the answers search-free when the known values are closed
/// under moves: every option of a known component splits into known
/// components. Rectangle clearing's are (an option of a component inside a
/// 4 x 4, 4 x 5 or 2 x 8 box stays inside it; an option of a line is two
/// lines), and the games' tests check it on random positions.
pub fn known_without_search<G: Game>(rules: &G, positions: &[G::Position]) -> bool {
    positions.iter().all(|position| {
        let mut known = true;
        rules.for_each_component(position, |component| {
            known = known && rules.known_value(&component).is_some();
        });
        known
    })
}

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
pub fn job<P: FromTables + Send + 'static>(
    endpoint: Endpoint,
    position: P,
    limits: &Limits,
    analyze: fn(&P, usize) -> Result<Answer, ApiError>,
    play: fn(&P) -> Result<Answer, ApiError>,
) -> Job {
    let max_listed_moves = limits.max_listed_moves;
    let from_tables = position.answered_from_tables();
    match endpoint {
        Endpoint::Analyze => Job::new(move || analyze(&position, max_listed_moves), from_tables),
        Endpoint::Play => Job::new(move || play(&position), from_tables),
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
/// never raise them. Read by hand (`BudgetRequest::from_fields`), as the
/// coordinates are: whole numbers as JSON writes them (`100`, `100.0`,
/// `1e2`), `null` for a field left out, and errors in plain words.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BudgetRequest {
    /// The most positions to solve.
    pub max_positions: Option<u64>,
    /// The most milliseconds to search.
    pub max_time_ms: Option<u64>,
}

impl<'de> Deserialize<'de> for BudgetRequest {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let fields = deserializer.deserialize_any(Fields)?;
        BudgetRequest::from_fields(fields).map_err(serde::de::Error::custom)
    }
}

/// A budget's fields as given, read one by one so that one given twice is
/// refused (a `serde_json::Value` keeps the last); `null` has none.
struct Fields;

impl<'de> serde::de::Visitor<'de> for Fields {
    type Value = Vec<(String, serde_json::Value)>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(BUDGET_FIELDS)
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(Vec::new())
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut fields: Self::Value = Vec::new();
        while let Some((name, value)) = map.next_entry::<String, serde_json::Value>()? {
            if fields.iter().any(|(seen, _)| *seen == name) {
                let name = quoted(&serde_json::Value::String(name));
                return Err(serde::de::Error::custom(format!("{name} is given twice")));
            }
            fields.push((name, value));
        }
        Ok(fields)
    }
}

/// What a budget is, for its errors.
const BUDGET_FIELDS: &str =
    "an object {\"max_positions\": N, \"max_time_ms\": T}, each a whole number from 0 or null";

impl BudgetRequest {
    /// The budget `fields` ask for; else why not.
    fn from_fields(fields: Vec<(String, serde_json::Value)>) -> Result<BudgetRequest, String> {
        let mut budget = BudgetRequest::default();
        for (name, field) in fields {
            let slot = match name.as_str() {
                "max_positions" => &mut budget.max_positions,
                "max_time_ms" => &mut budget.max_time_ms,
                _ => {
                    let name = quoted(&serde_json::Value::String(name.clone()));
                    return Err(format!("unknown field {name}: expected {BUDGET_FIELDS}"));
                }
            };
            *slot = whole_number(&field)
                .map_err(|why| format!("{name} is {}: {why}", quoted(&field)))?;
        }
        Ok(budget)
    }
}

/// A JSON value as an optional whole number from 0: `null` is none, and
/// `2.0` and `2e3` are whole numbers too (JSON has one kind of number;
/// exact up to 2^53); else why not, in plain words.
fn whole_number(value: &serde_json::Value) -> Result<Option<u64>, String> {
    const EXACT: f64 = 9_007_199_254_740_992.0;
    const WHOLE: &str = "expected a whole number from 0";
    match value {
        serde_json::Value::Null => Ok(None),
        serde_json::Value::Number(number) => match (number.as_u64(), number.as_f64()) {
            (Some(n), _) => Ok(Some(n)),
            (None, Some(n)) if n < 0.0 => Err(WHOLE.to_owned()),
            (None, Some(n)) if n.fract() != 0.0 => Err(format!("not a whole number: {WHOLE}")),
            (None, Some(n)) if n <= EXACT => Ok(Some(n as u64)),
            // JSON's decimals and exponents are read as doubles, exact to
            // 2^53 only: past it, a budget in plain digits up to 2^64 is.
            (None, Some(n)) if n < 18_446_744_073_709_551_616.0 => Err(format!(
                "not exact past 2^53 with a fraction or an exponent: write it in plain digits ({WHOLE} below 2^64)"
            )),
            _ => Err(format!("too large: {WHOLE} below 2^64")),
        },
        _ => Err(format!("{WHOLE} (or null)")),
    }
}

/// An optional list that `null` leaves out too, as it does `"region"` and
/// `"boards"`: one rule for every optional field. Used with
/// `#[serde(default, deserialize_with = "...")]`.
///
/// # Errors
///
/// What serde says of a value that is neither a list nor `null`.
pub fn null_as_empty<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Ok(Option::<Vec<T>>::deserialize(deserializer)?.unwrap_or_default())
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
/// A body that is not a JSON object is refused first, in plain words: serde
/// would otherwise read a JSON array as the struct's fields in order, or
/// answer in its own terms ("expected struct ClearRequest with 3 elements").
/// The request structs name themselves for people with
/// `#[serde(expecting = ...)]`.
///
/// # Errors
///
/// 400 with serde's message (which gives line and column) when the body is
/// not JSON or not of the expected shape.
pub fn parse_json<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    if body.starts_with(b"\xEF\xBB\xBF") {
        // JSON over HTTP has no byte order mark (RFC 8259, section 8.1).
        return Err(ApiError::bad_request(
            "invalid request: the body starts with a byte order mark (EF BB BF); send the JSON object without one",
        ));
    }
    let first = body.iter().find(|b| !b.is_ascii_whitespace());
    if first.is_none() {
        return Err(ApiError::bad_request(
            "invalid request: the body is empty; send a JSON object, {...}",
        ));
    }
    if first.is_some_and(|&b| b != b'{') {
        return Err(ApiError::bad_request(
            "invalid request: the body must be a JSON object, {...}",
        ));
    }
    // The field at fault named as JSON names it (`blocked`, `boards[1]`),
    // where serde alone gives a line and column of the body.
    let mut reader = serde_json::Deserializer::from_slice(body);
    let value: T = serde_path_to_error::deserialize(&mut reader).map_err(|err| {
        let path = err.path().to_string();
        let inner = err.into_inner();
        let what = too_large_integer(body, &inner).unwrap_or_else(|| inner.to_string());
        // A syntax error inside a value (a number past f64, nesting past
        // serde's limit, a bad escape in a string) is in the field the
        // path names; other syntax errors fall between fields.
        let message = inner.to_string();
        let in_value = [
            "number out of range",
            "recursion limit",
            "escape",
            "surrogate",
            "unicode code point",
        ]
        .iter()
        .any(|what| message.contains(what));
        if path == "." || inner.is_eof() || (inner.is_syntax() && !in_value) {
            ApiError::bad_request(format!("invalid request: {what}"))
        } else {
            // Deep nesting makes a path of hundreds of `[0]`: its field is
            // enough.
            let path = if path.len() > 80 {
                let field = path.split(['.', '[']).next().unwrap_or_default();
                format!("{field}[...]")
            } else {
                path
            };
            ApiError::bad_request(format!("invalid request: {path}: {what}"))
        }
    })?;
    reader
        .end()
        .map_err(|err| ApiError::bad_request(format!("invalid request: {err}")))?;
    Ok(value)
}

/// serde_json reads an integer past 64 bits as a float, and then refuses
/// it as `invalid type: floating point `1.8446744073709552e+19``, which is
/// not what the client sent: the message for the integer as written, when
/// `err` is that refusal of a token of digits (the error's column is the
/// token's last byte).
fn too_large_integer(body: &[u8], err: &serde_json::Error) -> Option<String> {
    const FLOAT: &str = "invalid type: floating point `";
    let message = err.to_string();
    let rest = message.strip_prefix(FLOAT)?;
    let (_, after) = rest.split_once('`')?;
    let line_start = body
        .split(|&b| b == b'\n')
        .take(err.line().checked_sub(1)?)
        .map(|line| line.len() + 1)
        .sum::<usize>();
    let end = line_start.checked_add(err.column())?;
    let token_start = body[..end.min(body.len())]
        .iter()
        .rposition(|b| !(b.is_ascii_digit() || *b == b'-'))
        .map_or(0, |at| at + 1);
    let token = std::str::from_utf8(body.get(token_start..end)?).ok()?;
    let digits = token.strip_prefix('-').unwrap_or(token);
    let integer = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && !matches!(
            token_start.checked_sub(1).and_then(|at| body.get(at)),
            Some(b'.' | b'e' | b'E' | b'+')
        );
    let why = if token.starts_with('-') {
        "negative"
    } else {
        "too large"
    };
    integer.then(|| format!("invalid value: integer `{token}` ({why}){after}"))
}

/// A JSON value as an error message quotes it: arrays with `, ` between
/// their items (`[-1, 2]`), anything else as compact JSON, cut short past
/// a few dozen characters (a request may hold kilobytes in one entry).
#[must_use]
pub fn quoted(value: &serde_json::Value) -> String {
    const LONGEST: usize = 40;
    let item = |item: &serde_json::Value| match item {
        serde_json::Value::Number(number) => number_as_written(number),
        other => other.to_string(),
    };
    let text = match value {
        serde_json::Value::Array(items) => format!(
            "[{}]",
            items.iter().map(item).collect::<Vec<_>>().join(", ")
        ),
        other => item(other),
    };
    if text.chars().count() <= LONGEST {
        text
    } else {
        format!("{}...", text.chars().take(LONGEST).collect::<String>())
    }
}

/// A JSON number as a client most likely wrote it: serde_json reads an
/// integer past 64 bits as a float, which would print as
/// `1.8446744073709552e+19`; a whole number of 20 digits (just past 64
/// bits, where such integers are written) prints whole
/// (`18446744073709551616`, exact to the float's 53 bits), the rest as
/// serde_json prints them, but for the exponent's sign, which JSON writers
/// leave out when it is `+` (`1e30` as `1e30`, not serde_json's `1e+30`).
fn number_as_written(number: &serde_json::Number) -> String {
    match number.as_f64() {
        Some(n) if number.is_f64() && n.fract() == 0.0 && (1e19..1e20).contains(&n.abs()) => {
            format!("{n:.0}")
        }
        _ => number.to_string().replacen("e+", "e", 1),
    }
}

/// Reads the entry `at` of a request (`pawns[1]`, `moves[0]`, `region`:
/// named as JSON names it, lists from 0) as a pair of whole numbers from
/// 0, whose parts are called `names` (`["x", "y"]`, `["row", "col"]`;
/// `noun` follows a name in a sentence: `x coordinate`):
/// the one reading of every pair the API takes, so a wrong entry is
/// refused in the same words wherever it is, naming the entry, what it
/// is and what is expected, rather than in serde's terms. `range` says
/// what the numbers may be (`coordinates are 0 to 1000000000`).
///
/// # Errors
///
/// 400: `<at> is [-1, 2]: negative x coordinate -1: <range>`, or an entry that is
/// not two whole numbers.
pub fn pair_entry(
    at: &str,
    value: &serde_json::Value,
    names: [&str; 2],
    noun: &str,
    range: &str,
) -> Result<[u64; 2], ApiError> {
    let [first, second] = names;
    let bad = |why: String| ApiError::bad_request(format!("{at} is {}: {why}", quoted(value)));
    let shape = || {
        bad(format!(
            "expected [{first}, {second}], two whole numbers: {range}"
        ))
    };
    let Some([a, b]) = value
        .as_array()
        .and_then(|items| <&[_; 2]>::try_from(&items[..]).ok())
    else {
        return Err(shape());
    };
    let mut pair = [0u64; 2];
    for ((slot, item), name) in pair.iter_mut().zip([a, b]).zip(names) {
        let number = match item {
            serde_json::Value::Number(number) => number_as_written(number),
            other => other.to_string(),
        };
        // JSON has one kind of number: `2.0` and `2e3` are whole numbers
        // too, read exactly up to 2^53.
        const EXACT: f64 = 9_007_199_254_740_992.0;
        *slot = match (item.as_u64(), item.as_f64()) {
            (Some(n), _) => n,
            (None, Some(n)) if n < 0.0 => {
                return Err(bad(format!("negative {name}{noun} {number}: {range}")))
            }
            (None, Some(n)) if n.fract() != 0.0 => {
                return Err(bad(format!(
                    "{name}{noun} {number} is not a whole number: {range}"
                )))
            }
            (None, Some(n)) if n <= EXACT => n as u64,
            (None, Some(_)) => {
                return Err(bad(format!("{name}{noun} {number} is too large: {range}")))
            }
            (None, None) => return Err(shape()),
        };
    }
    Ok(pair)
}

/// A parse error of the shared text parsers ([`grundy_report::parse`]) on
/// `rows`, in the API's words: `row R, column C: what`, `C` counting the
/// row's cells as the page draws them (the spaces the format allows
/// between cells are not columns; the parser's column counts characters).
#[must_use]
pub fn at_row(err: &grundy_report::parse::ParseError, rows: &[String]) -> String {
    let col = rows.get(err.line.wrapping_sub(1)).map_or(err.col, |row| {
        1 + row
            .chars()
            .take(err.col.saturating_sub(1))
            .filter(|c| !c.is_whitespace())
            .count()
    });
    format!("row {}, column {col}: {}", err.line, err.kind)
}

/// Serialises a response body.
///
/// # Errors
///
/// 500 if serialisation fails (it does not for the report types).
pub fn to_json<T: serde::Serialize>(value: &T) -> Result<String, ApiError> {
    serde_json::to_string(value).map_err(|err| ApiError::internal(format!("serialising: {err}")))
}

/// The limits of the games' unit tests: at most `positions` positions,
/// 100 moves listed, 4 boards, no databases.
#[cfg(test)]
fn test_limits(positions: u64) -> Limits {
    Limits {
        budget: Budget::positions(positions),
        max_listed_moves: 100,
        max_boards: 4,
        databases: Databases::default(),
        memos: memos::Kept::default(),
        stop: None,
        spent: Duration::ZERO,
    }
}

/// Asserts that `err` refuses a request as bad (a 400), in words that say
/// `what`.
#[cfg(test)]
#[track_caller]
fn assert_bad_request(err: &ApiError, what: &str) {
    assert_eq!(err.status, axum::http::StatusCode::BAD_REQUEST);
    assert!(
        err.message.contains(what),
        "{what:?} not in {:?}",
        err.message
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use grundy::clear::{Board, Clear};
    use proptest::prelude::*;

    fn board(rows: usize, cols: usize, cells: u64) -> Board {
        let mask = grundy::clear::Bitboard::below((rows * cols) as u32).0;
        Board::new(rows, cols, cells & mask).unwrap()
    }

    /// An integer past 64 bits is named as the client wrote it, not as the
    /// float serde_json reads it as; a float stays one.
    #[test]
    fn an_integer_too_large_is_said_as_written() {
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct Budget {
            max_positions: u64,
        }
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct Request {
            budget: Budget,
        }
        let message = |body: &str| parse_json::<Request>(body.as_bytes()).unwrap_err().message;
        for (number, said) in [
            (
                "18446744073709551616",
                "invalid value: integer `18446744073709551616` (too large), expected u64",
            ),
            (
                "-99999999999999999999",
                "invalid value: integer `-99999999999999999999` (negative), expected u64",
            ),
            ("1e30", "invalid type: floating point `1e+30`, expected u64"),
            ("2.5", "invalid type: floating point `2.5`, expected u64"),
        ] {
            for body in [
                format!(r#"{{"budget": {{"max_positions": {number}}}}}"#),
                format!("{{\n  \"budget\": {{\n    \"max_positions\": {number} }}\n}}"),
            ] {
                let text = message(&body);
                assert!(
                    text.starts_with(&format!(
                        "invalid request: budget.max_positions: {said} at line "
                    )),
                    "{body}: {text}"
                );
            }
        }
    }

    /// A coordinate past 64 bits is quoted whole, as written, not as the
    /// float serde_json reads it as.
    #[test]
    fn a_pair_past_64_bits_is_quoted_whole() {
        let value: serde_json::Value = serde_json::from_str("[0, 18446744073709551616]").unwrap();
        let err = pair_entry(
            "pawns[0]",
            &value,
            ["x", "y"],
            " coordinate",
            "coordinates are 0 to 1000000000",
        )
        .unwrap_err();
        assert_eq!(
            err.message,
            "pawns[0] is [0, 18446744073709551616]: y coordinate 18446744073709551616 is too large: coordinates are 0 to 1000000000"
        );
        let value: serde_json::Value = serde_json::from_str("[1e30, 2.5]").unwrap();
        let err = pair_entry(
            "moves[1]",
            &value,
            ["row", "col"],
            "",
            "rows and columns count from 0",
        )
        .unwrap_err();
        assert!(
            err.message
                .starts_with("moves[1] is [1e30, 2.5]: row 1e30 is too large"),
            "{}",
            err.message
        );
    }

    #[test]
    fn a_body_with_a_byte_order_mark_is_named_so() {
        let err = parse_json::<serde_json::Value>(b"\xEF\xBB\xBF{\"board\": [\"1\"]}").unwrap_err();
        assert!(format!("{err:?}").contains("byte order mark"), "{err:?}");
        assert!(parse_json::<serde_json::Value>(b" {\"board\": [\"1\"]}").is_ok());
    }

    #[test]
    fn clear_boards_within_the_tables_are_known() {
        let rules = Clear::new();
        let full = |rows, cols| board(rows, cols, u64::MAX);
        assert!(known_without_search(
            &rules,
            &[full(4, 4), full(1, 64), full(2, 3)]
        ));
        // Boxes of 4 x 5 and 2 x 8, either way round, are in the tables.
        let in_tables = [full(4, 5), full(5, 4), full(2, 5), full(2, 8), full(8, 2)];
        assert!(known_without_search(&rules, &in_tables));
        assert!(!known_without_search(&rules, &[full(4, 4), full(5, 5)]));
        assert!(!known_without_search(&rules, &[full(3, 6)]));
        assert!(!known_without_search(&rules, &[full(2, 9)]));
    }

    proptest! {
        /// The predicate is sound for clear: when it holds, analyze (with
        /// its options) and play solve no position (every value comes from the table or the
        /// line formula), and it holds for every option too (closed under
        /// moves).
        #[test]
        fn clear_from_tables_means_no_search(
            shapes in proptest::collection::vec((1usize..=8, 1usize..=8, any::<u64>(), any::<u64>()), 1..4)
        ) {
            let boards: Vec<Board> = shapes
                .iter()
                .map(|&(rows, cols, a, b)| board(rows, cols, a & b))
                .collect();
            let rules = Clear::new();
            if known_without_search(&rules, &boards) {
                let mut solver = Clear::solver();
                let analysis = grundy_report::clear::Analysis::of(&mut solver, &boards).unwrap();
                grundy_report::clear::move_values(&mut solver, &boards, usize::MAX).unwrap();
                clear::options(&mut solver, &boards, &analysis, usize::MAX).unwrap();
                grundy_report::clear::engine_move(&mut solver, &boards).unwrap();
                prop_assert_eq!(solver.positions_solved(), 0);
                for (index, b) in boards.iter().enumerate() {
                    b.for_each_rect(|rect, _| {
                        let mut after = boards.clone();
                        after[index] = b.play_unchecked(rect);
                        assert!(known_without_search(&rules, &after), "{after:?}");
                    });
                }
            }
        }
    }
}
