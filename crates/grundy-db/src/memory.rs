//! A memory budget for long builds, measured rather than counted.
//!
//! **Rule.** A build given a budget stops (its finished tiers kept, so it
//! resumes) once the process's resident memory passes it.
//!
//! **Method.** [`MemoryWatch::start`] samples `VmRSS` of
//! `/proc/self/status` every [`EVERY`] on a thread of its own and keeps
//! the first sample past the budget; the build's checks read it with one
//! atomic load ([`MemoryWatch::over`], handed to
//! [`TierControl::memory`](grundy::tier::TierControl)). The engine stops at
//! its next check, between chunks of a tier's generation or solving, and
//! before each of its large allocations (a tier's keys gathered, its
//! table) asks with their size, which is added to a fresh sample: a build
//! stops before the allocation that would pass the budget.
//!
//! **Why measured.** A build's memory is its tiers' keys and tables, the
//! earlier tiers it reads, the worker threads' buffers and the allocator's
//! slack: the resident memory is what the system runs out of, and it
//! counts all of them, where a sum of the build's own allocations would
//! leave out the last two. What can pass the budget is what the build
//! writes between two samples and its next check, and the smaller
//! allocations it does not announce (`docs/results.md`, "A memory budget
//! for database builds", measures it).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// How often the resident memory is sampled.
pub const EVERY: Duration = Duration::from_millis(10);

/// The resident memory of this process (`VmRSS` of `/proc/self/status`),
/// bytes; `None` where unavailable.
#[must_use]
pub fn resident() -> Option<u64> {
    status_kb("/proc/self/status", "VmRSS:")
}

/// The memory the system can give without swapping (`MemAvailable` of
/// `/proc/meminfo`), bytes; `None` where unavailable.
#[must_use]
pub fn available() -> Option<u64> {
    status_kb("/proc/meminfo", "MemAvailable:")
}

/// A build's budget when none is given: what the process holds plus what
/// the system has available, as the build starts, or the limit of the
/// process's control group (a container's memory limit, cgroup v2's
/// `memory.max`) when that is lower. A box too large for the machine then
/// stops, its finished tiers kept, rather than being killed by the system
/// when it runs out.
#[must_use]
pub fn default_budget() -> Option<u64> {
    let system = resident()?.saturating_add(available()?);
    Some(cgroup_limit().map_or(system, |limit| limit.min(system)))
}

/// The memory limit of this process's control group, bytes: cgroup v2's
/// `memory.max`, or v1's `memory.limit_in_bytes`, each read under the
/// group's path and, as inside a container whose own group is mounted as
/// the root, at the root; the least found. `None` without a limit (`max`,
/// or v1's near 2^63) or where none can be read.
fn cgroup_limit() -> Option<u64> {
    let groups = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let mut files = Vec::new();
    for line in groups.lines() {
        let mut fields = line.splitn(3, ':');
        let (_, controllers, path) = (fields.next(), fields.next()?, fields.next()?);
        let path = path.trim_end_matches('/');
        if controllers.is_empty() {
            files.push(format!("/sys/fs/cgroup{path}/memory.max"));
            files.push("/sys/fs/cgroup/memory.max".to_owned());
        } else if controllers.split(',').any(|c| c == "memory") {
            files.push(format!("/sys/fs/cgroup/memory{path}/memory.limit_in_bytes"));
            files.push("/sys/fs/cgroup/memory/memory.limit_in_bytes".to_owned());
        }
    }
    files
        .iter()
        .filter_map(|file| {
            std::fs::read_to_string(file)
                .ok()?
                .trim()
                .parse::<u64>()
                .ok()
        })
        .filter(|&limit| limit < 1 << 62)
        .min()
}

fn status_kb(path: &str, field: &str) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    let line = text.lines().find(|l| l.starts_with(field))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kb.checked_mul(1024)
}

/// A thread that samples the resident memory against a budget until
/// dropped.
pub struct MemoryWatch {
    limit: u64,
    /// The first sample past the budget, or 0.
    over: Arc<AtomicU64>,
    done: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl MemoryWatch {
    /// Starts sampling against `limit` bytes, after a first sample taken
    /// now. `None` where the resident memory cannot be read.
    ///
    /// # Errors
    ///
    /// The thread could not be started.
    pub fn start(limit: u64) -> std::io::Result<Option<MemoryWatch>> {
        let Some(first) = resident() else {
            return Ok(None);
        };
        let over = Arc::new(AtomicU64::new(if first > limit { first } else { 0 }));
        let done = Arc::new(AtomicBool::new(false));
        let thread = {
            let (over, done) = (Arc::clone(&over), Arc::clone(&done));
            std::thread::Builder::new()
                .name("memory watch".to_owned())
                .spawn(move || {
                    while !done.load(Ordering::Relaxed) && over.load(Ordering::Relaxed) == 0 {
                        std::thread::sleep(EVERY);
                        if let Some(used) = resident().filter(|&used| used > limit) {
                            over.store(used, Ordering::Relaxed);
                        }
                    }
                })?
        };
        Ok(Some(MemoryWatch {
            limit,
            over,
            done,
            thread: Some(thread),
        }))
    }

    /// The watch of a build given `limit` (`None`: [`default_budget`]),
    /// started now; `None` where neither the budget nor the resident memory
    /// can be read.
    ///
    /// # Errors
    ///
    /// The thread could not be started.
    pub fn for_build(limit: Option<u64>) -> std::io::Result<Option<MemoryWatch>> {
        match limit.or_else(default_budget) {
            Some(limit) => MemoryWatch::start(limit),
            None => Ok(None),
        }
    }

    /// `Some((limit, used))` once a sample passed the budget, or, for
    /// `extra` bytes about to be allocated, when the resident memory
    /// sampled now plus `extra` would pass it: the
    /// [`TierControl::memory`](grundy::tier::TierControl) of a build.
    #[must_use]
    pub fn over(&self, extra: u64) -> Option<(u64, u64)> {
        match self.over.load(Ordering::Relaxed) {
            0 if extra == 0 => None,
            0 => {
                let used = resident()?.saturating_add(extra);
                (used > self.limit).then_some((self.limit, used))
            }
            used => Some((self.limit, used)),
        }
    }
}

impl Drop for MemoryWatch {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A budget below what the process holds is passed at once, with the
    /// sample that passed it; one far above it stays quiet.
    #[test]
    fn a_watch_reports_the_first_sample_past_its_budget() {
        if resident().is_none() {
            return; // no /proc here
        }
        let watch = MemoryWatch::start(1 << 20).unwrap().unwrap();
        let (limit, used) = watch.over(0).expect("a process holds more than 1 MiB");
        assert_eq!(limit, 1 << 20);
        assert!(used > limit);
        let roomy = MemoryWatch::start(u64::MAX / 2).unwrap().unwrap();
        std::thread::sleep(EVERY * 3);
        assert_eq!(roomy.over(0), None);
        // An allocation past the budget is refused before it is made.
        let (_, would) = roomy.over(u64::MAX / 2).expect("past the budget");
        assert!(would > u64::MAX / 2);
    }
}
