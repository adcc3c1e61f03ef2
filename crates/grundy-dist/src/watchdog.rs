//! The time budget's backstop when a rank stops answering.
//!
//! The ranks agree on `--max-time` between rounds ([`grundy::tier::build`]),
//! so a build over healthy ranks stops on its budget by itself. A rank that
//! stops answering (suspended, a hung node, a lost link) never reaches the
//! next agreement, and the others wait in MPI's blocking collectives, which
//! have no timeout. So each rank runs a [`Watchdog`] over its build: once
//! the budget plus [`grace`] has passed and the build has not returned, it
//! ends this rank's process with exit 3 ([`give_up`]). The parts keep the
//! tiers they had synced, so the next run resumes from the last tier every
//! part holds, as after any crash.

use std::sync::mpsc;
use std::thread::Scope;
use std::time::Duration;

/// How long past its time budget a build may take before its watchdog
/// fires: 10 s plus a tenth of the budget.
///
/// A healthy build notices its budget at its next checkpoint, then
/// finishes the step under way and agrees with the other ranks to stop.
/// Steps are short (a round of 16,384 shapes; writing a tier, which checks
/// the budget itself), except those without a checkpoint inside: a tier's
/// replication exchange, syncing a part, and completing and publishing
/// the parts. These grow with the box, and so does the budget a box is
/// given, hence the tenth; the 10 s cover the fixed costs (a slow disk's
/// sync, MPI's latency on a loaded machine) when the budget is short.
#[must_use]
pub fn grace(budget: Duration) -> Duration {
    Duration::from_secs(10) + budget / 10
}

/// A thread that calls `on_fire` once `after` has passed, unless the
/// watchdog is dropped first. It lives in a [`std::thread::scope`], so it
/// is joined, and cannot fire, once the scope is left.
pub struct Watchdog {
    // Dropping it wakes the thread, which then returns without firing.
    _cancel: mpsc::Sender<()>,
}

impl Watchdog {
    /// Starts the watchdog in `scope`.
    pub fn start<'scope>(
        scope: &'scope Scope<'scope, '_>,
        after: Duration,
        on_fire: impl FnOnce() + Send + 'scope,
    ) -> Watchdog {
        let (cancel, cancelled) = mpsc::channel::<()>();
        scope.spawn(move || {
            // Nothing is ever sent: `Disconnected` is the cancellation,
            // `Timeout` the deadline (spurious wake-ups are the channel's).
            if let Err(mpsc::RecvTimeoutError::Timeout) = cancelled.recv_timeout(after) {
                on_fire();
            }
        });
        Watchdog { _cancel: cancel }
    }
}

/// What a rank says when its watchdog fires.
#[must_use]
pub fn message(rank: u32, budget: Duration) -> String {
    format!(
        "error: rank {rank}: the time budget of {} ran out while this rank waited for the others (a rank stopped answering?); stopping, the parts resume from the last complete tier",
        seconds(budget)
    )
}

/// Ends this process with exit 3 after saying `message` on stderr: the
/// watchdog's default action.
///
/// It ends with `_exit` (through `signal_hook`'s safe wrapper), not
/// [`std::process::exit`]: the build's thread is still inside MPI, and
/// `exit` would run the atexit handlers and the shared libraries'
/// destructors (Open MPI's, UCX's, PMIx's) under it, which tear down the
/// state that thread is using; they may block on its locks or crash it,
/// and the process would hang or end with a signal instead of exit 3.
/// `_exit` runs nothing: the parts keep what they synced (a tier counts
/// only once synced), and `mpirun` sees the rank end and ends the others.
/// Nothing is lost from standard output: a partitioned build writes it
/// only after the build returns.
pub fn give_up(message: &str) -> ! {
    use std::io::Write as _;
    // One write of the whole line (stderr is unbuffered), so the ranks'
    // lines do not interleave.
    let _ = std::io::stderr().write_all(format!("{message}\n").as_bytes());
    signal_hook::low_level::exit(3)
}

/// A span as messages give it: seconds, with up to 3 decimals.
fn seconds(span: Duration) -> String {
    let text = format!("{:.3}", span.as_secs_f64());
    format!("{} s", text.trim_end_matches('0').trim_end_matches('.'))
}
