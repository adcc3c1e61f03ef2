//! Limits on a search ([`Budget`]), why a search stopped before its answer
//! ([`SolveError`]), and the one wording of spans and sizes that the engine's
//! errors and every front-end's messages use.

use std::time::{Duration, Instant};

/// Limits on one solver's work.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Stop after solving this many components (each one is a table entry,
    /// so this also bounds memory), counting those a helper solved.
    pub max_positions: Option<u64>,
    /// Stop after this much wall time.
    pub max_time: Option<Duration>,
    /// Stop before the memo table and the search's scratch would hold more
    /// than this many bytes (measured from their allocations, see
    /// [`Table::allocated_bytes`](super::Table::allocated_bytes)).
    pub max_memory: Option<u64>,
}

impl Budget {
    /// No limits.
    pub const UNLIMITED: Budget = Budget {
        max_positions: None,
        max_time: None,
        max_memory: None,
    };

    /// A limit on the number of components solved.
    #[must_use]
    pub const fn positions(max_positions: u64) -> Budget {
        Budget {
            max_positions: Some(max_positions),
            ..Budget::UNLIMITED
        }
    }

    /// When the time budget of a search started at `start` runs out, with
    /// the budget: `None` without a time budget, and also when the end lies
    /// past what an [`Instant`] can hold (`Duration::MAX`, say), as no clock
    /// ever reaches it. Adding the two directly would panic there.
    ///
    /// # Examples
    ///
    /// ```
    /// use grundy::Budget;
    /// use std::time::{Duration, Instant};
    /// let now = Instant::now();
    /// let budget = Budget { max_time: Some(Duration::from_secs(2)), ..Budget::UNLIMITED };
    /// assert_eq!(budget.deadline(now), Some((now + Duration::from_secs(2), Duration::from_secs(2))));
    /// let endless = Budget { max_time: Some(Duration::MAX), ..Budget::UNLIMITED };
    /// assert_eq!(endless.deadline(now), None);
    /// ```
    #[must_use]
    pub fn deadline(&self, start: Instant) -> Option<(Instant, Duration)> {
        let limit = self.max_time?;
        Some((start.checked_add(limit)?, limit))
    }
}

/// Why a search stopped before it had an answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SolveError {
    /// The position budget ran out.
    // No advice here: the front-end names the limit to raise, once.
    #[error("{}", match needed {
        Some(needed) => format!("gave up before solving: the search would need at least {}, more than the position budget of {}", positions(*needed), positions(*limit)),
        // Solved or examined (the splitting game counts the positions its
        // search examines): the count reached, whatever it counts.
        None => format!("gave up after {} (the position budget)", positions(*limit)),
    })]
    PositionBudget {
        /// The budget that was reached.
        limit: u64,
        /// When a table past the budget was refused before it was solved
        /// (the splitting game's dense tables): the positions the search
        /// would have solved with it, at least.
        needed: Option<u64>,
    },
    /// The time budget ran out.
    #[error("gave up within the time budget of {}", seconds_in_words(*limit))]
    TimeBudget {
        /// The budget that was reached.
        limit: Duration,
    },
    /// The memory budget ran out: the next step could pass it.
    #[error(
        "gave up before the search's memory would pass {} (the memory budget; it would need {})",
        bytes_apart(*limit, *used).0,
        bytes_apart(*limit, *used).1
    )]
    MemoryBudget {
        /// The budget that was reached, in bytes.
        limit: u64,
        /// The bytes the search would hold after its next step (what it held
        /// when it stopped, and the growth that step needs).
        used: u64,
    },
    /// Stopped from outside: a helper's search by the search it helps, or
    /// a search by its caller's stop flag (such as
    /// [`SplitSolver::with_stop`](crate::split::SplitSolver::with_stop)).
    #[error("stopped from outside the search")]
    Stopped,
}

/// A count of positions for messages: `1 position`, `10 positions`.
fn positions(count: u64) -> String {
    if count == 1 {
        "1 position".to_owned()
    } else {
        format!("{count} positions")
    }
}

/// A time span for messages: seconds with at most three decimals
/// (`2 s`, `0.5 s`, `0.01 s`), and a span below a millisecond as such. The
/// one wording of time budgets: the engine's errors and every front-end's
/// messages (`grundy_report::words::seconds`) use it.
pub fn seconds_in_words(span: Duration) -> String {
    if !span.is_zero() && span < Duration::from_millis(1) {
        return "less than a millisecond".to_owned();
    }
    let text = format!("{:.3}", span.as_secs_f64());
    format!("{} s", text.trim_end_matches('0').trim_end_matches('.'))
}

/// A byte count for messages: bytes below 1 KiB, else KiB, MiB, GiB or
/// TiB with one decimal (`bytes_in_words(3 << 30)` is `"3.0 GiB"`). The
/// one wording of sizes: the engine's errors and every front-end's
/// messages (`grundy_report::words::bytes`) use it.
#[must_use]
pub fn bytes_in_words(bytes: u64) -> String {
    bytes_with_decimals(bytes, 1)
}

/// [`bytes_in_words`] with `decimals` decimals.
fn bytes_with_decimals(bytes: u64, decimals: usize) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    match bytes {
        1 => return "1 byte".to_owned(),
        0..1024 => return format!("{bytes} bytes"),
        _ => {}
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    // The next unit from where the rounding would show 1024 of this one:
    // 1023.96 MiB is `1.0 GiB`, not `1024.0 MiB`.
    let scale = 10f64.powi(decimals as i32);
    while (value * scale).round() / scale >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.decimals$} {}", UNITS[unit])
}

/// Two byte counts in words that read apart when they differ: as
/// [`bytes_in_words`], with a second or third decimal where its rounding
/// would word them alike (a budget of `4.0 MiB` the search "would need
/// `4.0 MiB`" to pass is `4.00 MiB` and `4.01 MiB`), else in bytes.
#[must_use]
pub fn bytes_apart(a: u64, b: u64) -> (String, String) {
    if a == b {
        return (bytes_in_words(a), bytes_in_words(b));
    }
    (1..=3)
        .map(|decimals| {
            (
                bytes_with_decimals(a, decimals),
                bytes_with_decimals(b, decimals),
            )
        })
        .find(|(x, y)| x != y)
        .unwrap_or_else(|| (format!("{a} bytes"), format!("{b} bytes")))
}
