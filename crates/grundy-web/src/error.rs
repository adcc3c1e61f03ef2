//! The API's error: a status and a message, sent as `{"error": "..."}`.

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

/// An error answered to a request: its HTTP status and a message for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// What went wrong.
    pub message: String,
    /// More fields of the error's JSON body, beside `"error"` (for example
    /// what would answer a position too large for the server).
    pub details: Option<serde_json::Map<String, serde_json::Value>>,
}

impl ApiError {
    /// An error with this status and message.
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            details: None,
        }
    }

    /// This error with `details`' fields in its JSON body too.
    #[must_use]
    pub fn with_details(mut self, details: serde_json::Map<String, serde_json::Value>) -> ApiError {
        self.details = Some(details);
        self
    }

    /// Adds one detail, when it could be put in JSON (a detail that could
    /// not is left out: the error still says what went wrong).
    #[must_use]
    pub fn with_detail(
        mut self,
        key: &str,
        value: Result<serde_json::Value, serde_json::Error>,
    ) -> ApiError {
        if let Ok(value) = value {
            self.details
                .get_or_insert_with(Default::default)
                .insert(key.to_owned(), value);
        }
        self
    }

    /// 400: the request is malformed or names an impossible position.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// 500: a fault of the server's.
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, message)
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.status, self.message)
    }
}

impl std::error::Error for ApiError {}

/// 422: the search budget ran out. The engine's own message tells a CLI
/// user to raise the budget; a web user cannot, so this one says which of
/// the request's budgets ran out, in plain words: the server's, or lower
/// where the request asked for less (`"budget"`).
impl From<grundy::SolveError> for ApiError {
    fn from(err: grundy::SolveError) -> ApiError {
        let what = match err {
            grundy::SolveError::PositionBudget {
                limit,
                needed: Some(needed),
            } => format!(
                "gave up before solving: the search would need at least {}, more than this request's position budget, {}",
                grundy_report::words::count(needed, "position"),
                grundy_report::words::count(limit, "position")
            ),
            grundy::SolveError::PositionBudget { limit, .. } => format!(
                "gave up after {} (this request's position budget)",
                grundy_report::words::count(limit, "position")
            ),
            grundy::SolveError::TimeBudget { limit } => format!(
                "gave up within this request's time budget, {}",
                grundy_report::words::seconds(limit)
            ),
            grundy::SolveError::MemoryBudget { limit, .. } => format!(
                "gave up before the search's memory would pass {} (this request's memory budget)",
                grundy_report::words::bytes(limit)
            ),
            other => other.to_string(),
        };
        ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!("position too large for this server: {what}"),
        )
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut fields = self.details.unwrap_or_default();
        fields.insert("error".to_owned(), self.message.into());
        let body = serde_json::Value::Object(fields).to_string();
        (
            self.status,
            [(header::CONTENT_TYPE, "application/json")],
            body,
        )
            .into_response()
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::ApiError;

    /// A time budget is said as the request gave it, to the millisecond,
    /// in the engine's words (a budget of 10 ms is not "0.0 s").
    #[test]
    fn a_time_budget_is_said_as_given() {
        for (millis, words) in [
            (10, "0.01 s"),
            (49, "0.049 s"),
            (300, "0.3 s"),
            (2000, "2 s"),
        ] {
            let err = ApiError::from(grundy::SolveError::TimeBudget {
                limit: Duration::from_millis(millis),
            });
            assert_eq!(err.status, axum::http::StatusCode::UNPROCESSABLE_ENTITY);
            assert!(
                err.message
                    .ends_with(&format!("this request's time budget, {words}")),
                "{}",
                err.message
            );
        }
    }
}
