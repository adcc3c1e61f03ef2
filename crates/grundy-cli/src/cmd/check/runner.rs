//! Running the user's solution on one input, under limits, and judging what
//! it printed.
//!
//! The input is a file on the child's standard input, and its standard
//! output and error go to files: no pipe to drain, so a child that prints a
//! lot cannot block, and one that stops reading cannot block us. A watcher
//! loop polls the child (every 0.25 ms at first, backing off to 10 ms):
//! past the time limit (CPU time, from `/proc/<pid>/stat`, or twice it plus
//! a second of wall-clock time), past the memory limit (its peak resident size,
//! `VmHWM` in `/proc/<pid>/status`, so a spike between two polls still
//! counts), past the output limit (on standard output or standard error,
//! both files that would fill the disk), or past the whole run's deadline, it is
//! killed (SIGKILL) and always reaped. A run that ends by itself is reaped
//! by `wait4`, whose CPU time (the run's and that of the children it
//! waited for) is exact to the microsecond, where `/proc` counts in ticks
//! of 10 ms: that figure decides its time limit. Written by hand rather
//! than with a crate: `std::process` has everything but the polling and a
//! child's resource usage, and `setrlimit` in the child would need
//! `unsafe` (`pre_exec`).
//!
//! Only CMD itself is watched: a CMD that starts its solution through a
//! shell should `exec` it, or its solution's memory is not counted, nor its
//! time until CMD waits for it. Each run is a process group of its own, killed whole when the
//! run ends, so that what CMD started (a shell's child, a process left in
//! the background) does not outlive it; a process that starts a session of
//! its own (`setsid`) leaves the group, and only a subreaper's tracking
//! of every descendant would reach it. A signal to `grundy check` (Ctrl-C,
//! SIGTERM, SIGHUP) sets [`Limits::interrupted`]: the watcher kills its run
//! as at the deadline, so that no run outlives the check.

use std::ffi::OsString;
use std::fs::File;
use std::io::Read as _;
use std::os::unix::process::{CommandExt as _, ExitStatusExt as _};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The limits of one run.
#[derive(Clone, Debug)]
pub struct Limits {
    /// CPU time (and twice that plus a second of wall-clock time).
    pub time: Duration,
    /// Peak resident memory, in bytes.
    pub memory: u64,
    /// Bytes of standard output.
    pub output: u64,
    /// The whole run's deadline, if any.
    pub deadline: Option<Instant>,
    /// Set when the check was asked to stop (a signal): the run is killed.
    pub interrupted: Arc<AtomicBool>,
}

impl Limits {
    /// Whether the check was asked to stop.
    pub fn is_interrupted(&self) -> bool {
        self.interrupted.load(Ordering::Relaxed)
    }
}

/// How a run ended.
#[derive(Debug)]
pub enum Ended {
    /// It exited (or was killed by a signal) on its own.
    Exited(std::process::ExitStatus),
    /// Killed at the time limit: of CPU time, or (`wall`) of wall-clock
    /// time, twice the limit and a second, for a run that waits.
    TimeLimit { wall: bool },
    /// Killed past the memory limit.
    MemoryLimit,
    /// Killed past the output limit, on standard output or (`stderr`) on
    /// standard error.
    OutputLimit { stderr: bool },
    /// Killed at the whole run's deadline: no verdict.
    Deadline,
    /// Killed, or ended by the same signal, as the check was asked to stop:
    /// no verdict.
    Interrupted,
}

/// One run of the solution.
#[derive(Debug)]
pub struct Run {
    pub ended: Ended,
    pub stdout: Vec<u8>,
    /// The end of its standard error, for the report.
    pub stderr_tail: String,
    pub wall: Duration,
    /// Peak resident memory seen, in bytes.
    pub peak_memory: Option<u64>,
    /// CPU time (user and system, with the children it waited for): exact
    /// when the run ended by itself, else as last polled.
    pub cpu: Option<Duration>,
}

/// Why a run was not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Accepted,
    /// All tokens are answer words, in the right number, some wrong.
    WrongAnswer {
        first: usize,
    },
    /// Missing, extra or unknown tokens.
    Unparsable {
        what: String,
    },
    /// A non-zero exit status or a signal.
    RuntimeError {
        how: String,
    },
    /// Past the CPU time limit, or (`wall`) the wall-clock one.
    TimeLimit {
        wall: bool,
    },
    MemoryLimit,
    /// Past the output limit on standard output, or (`stderr`) on standard
    /// error.
    OutputLimit {
        stderr: bool,
    },
}

impl Verdict {
    /// Whether two failures are of the same kind, for the shrinker: a wrong
    /// answer stays a wrong answer, a crash a crash (any status).
    pub fn same_kind(&self, other: &Verdict) -> bool {
        std::mem::discriminant(self) == std::mem::discriminant(other)
    }

    /// The kind, in words.
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Accepted => "accepted",
            Verdict::WrongAnswer { .. } => "wrong answer",
            Verdict::Unparsable { .. } => "output that does not parse",
            Verdict::RuntimeError { .. } => "runtime error",
            Verdict::TimeLimit { .. } => "time limit exceeded",
            Verdict::MemoryLimit => "memory limit exceeded",
            Verdict::OutputLimit { .. } => "output limit exceeded",
        }
    }

    /// Whether the failure is about the input's size rather than one of its
    /// elements: shrunk coarsely (see the shrinker).
    pub fn is_resource(&self) -> bool {
        matches!(
            self,
            Verdict::TimeLimit { .. } | Verdict::MemoryLimit | Verdict::OutputLimit { .. }
        )
    }
}

/// Where a worker keeps its input and output files.
pub struct Scratch {
    input: PathBuf,
    stdout: PathBuf,
    stderr: PathBuf,
}

impl Scratch {
    /// The files of worker `id` in `dir`.
    pub fn new(dir: &Path, id: usize) -> Scratch {
        Scratch {
            input: dir.join(format!("{id}.in")),
            stdout: dir.join(format!("{id}.out")),
            stderr: dir.join(format!("{id}.err")),
        }
    }
}

/// Why the solution could not be started at all.
#[derive(Debug, thiserror::Error)]
#[error("cannot run {program}: {source}")]
pub struct SpawnError {
    program: String,
    source: std::io::Error,
}

/// Runs `cmd` with `input` on its standard input.
///
/// # Errors
///
/// The command cannot be started, or the scratch files cannot be written.
pub fn run(
    cmd: &[OsString],
    input: &[u8],
    scratch: &Scratch,
    limits: &Limits,
) -> anyhow::Result<Run> {
    std::fs::write(&scratch.input, input)?;
    // The clock includes starting the program, as a judge's would.
    let start = Instant::now();
    let mut child = Command::new(&cmd[0])
        .args(&cmd[1..])
        .process_group(0)
        .stdin(File::open(&scratch.input)?)
        .stdout(File::create(&scratch.stdout)?)
        .stderr(File::create(&scratch.stderr)?)
        .spawn()
        .map_err(|source| SpawnError {
            program: cmd[0].to_string_lossy().into_owned(),
            source,
        })?;
    let status_path = PathBuf::from(format!("/proc/{}/status", child.id()));
    let stat_path = PathBuf::from(format!("/proc/{}/stat", child.id()));
    let mut peak = None;
    let mut pause = Duration::from_micros(250);
    let mut cpu = None;
    let ended = loop {
        if has_exited(&child) {
            // Its CPU time is read as it is reaped, to the microsecond: a
            // run that passes the limit and ends before the next poll, or
            // by less than the polls' ticks of 10 ms, would otherwise pass.
            let (status, used) = reap(&child)?;
            cpu = Some(used);
            break if interrupted_with(status, limits) {
                Ended::Interrupted
            } else if used > limits.time {
                Ended::TimeLimit { wall: false }
            } else {
                Ended::Exited(status)
            };
        }
        let now = Instant::now();
        // The limit is on CPU time, as judges count it (steady on a loaded
        // machine); wall time past twice the limit and a second also ends
        // it (a program that sleeps or waits).
        cpu = cpu_time(&stat_path).or(cpu);
        peak = peak_memory(&status_path).or(peak);
        let over = if cpu.is_some_and(|cpu| cpu > limits.time) {
            Some(Ended::TimeLimit { wall: false })
        } else if now - start > 2 * limits.time + Duration::from_secs(1) {
            Some(Ended::TimeLimit { wall: true })
        } else if limits.deadline.is_some_and(|d| now > d) {
            Some(Ended::Deadline)
        } else if limits.is_interrupted() {
            Some(Ended::Interrupted)
        } else if peak.is_some_and(|p| p > limits.memory) {
            Some(Ended::MemoryLimit)
        } else if std::fs::metadata(&scratch.stdout).is_ok_and(|m| m.len() > limits.output) {
            Some(Ended::OutputLimit { stderr: false })
        } else if std::fs::metadata(&scratch.stderr).is_ok_and(|m| m.len() > limits.output) {
            // Its standard error is a file too, which would fill the disk.
            Some(Ended::OutputLimit { stderr: true })
        } else {
            None
        };
        if let Some(ended) = over {
            // Already exited between the poll and now: the kill fails, the
            // wait reaps it either way.
            kill_group(&child);
            let _ = child.kill();
            child.wait()?;
            break ended;
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(10));
    };
    let wall = start.elapsed();
    // What the run left behind in its group. The group's number stays
    // taken while any process holds it, so no other process is reached.
    kill_group(&child);
    let mut stdout = Vec::new();
    File::open(&scratch.stdout)?
        .take(limits.output + 1)
        .read_to_end(&mut stdout)?;
    let tail = stderr_tail(&scratch.stderr).unwrap_or_default();
    Ok(Run {
        ended,
        stdout,
        stderr_tail: tail,
        wall,
        peak_memory: peak,
        cpu,
    })
}

/// Reaps `child`, which has ended ([`has_exited`]): its exit status and
/// its CPU time, user and system, with that of the children it waited for,
/// to the microsecond (`wait4`'s resource usage; `/proc` counts in ticks of
/// 10 ms, each field rounded down). Hand-written: neither `std` nor
/// `rustix` gives a child's resource usage. `child` must not be waited for
/// again.
#[allow(unsafe_code)]
fn reap(child: &std::process::Child) -> std::io::Result<(std::process::ExitStatus, Duration)> {
    use std::os::unix::process::ExitStatusExt as _;
    let pid = libc::pid_t::try_from(child.id()).map_err(std::io::Error::other)?;
    let mut status: libc::c_int = 0;
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: `wait4` writes our child's exit status and resource usage
    // through the two pointers, which point to live, writable locals of
    // the right types; it touches no other memory of ours.
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, usage.as_mut_ptr()) };
    if reaped != pid {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: `wait4` succeeded, so it filled `usage` (zeroed before, so
    // every byte is initialised either way).
    let usage = unsafe { usage.assume_init() };
    let time = |t: libc::timeval| {
        Duration::from_secs(u64::try_from(t.tv_sec).unwrap_or(0))
            + Duration::from_micros(u64::try_from(t.tv_usec).unwrap_or(0))
    };
    Ok((
        std::process::ExitStatus::from_raw(status),
        time(usage.ru_utime) + time(usage.ru_stime),
    ))
}

/// Whether `child` has ended, leaving it unreaped (`waitid` with
/// `WNOWAIT`), so that its `/proc` entry still holds its final CPU time.
fn has_exited(child: &std::process::Child) -> bool {
    use rustix::process::{waitid, Pid, WaitId, WaitIdOptions};
    let Some(pid) = Pid::from_raw(child.id() as i32) else {
        return true;
    };
    let options = WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT;
    // An error (none is expected for our own child) counts as ended: the
    // wait then reaps it or says what went wrong.
    waitid(WaitId::Pid(pid), options).map_or(true, |status| status.is_some())
}

/// Kills every process of `child`'s group (the run's own group: see
/// [`run`]); a group already empty is no error.
fn kill_group(child: &std::process::Child) {
    use rustix::process::{kill_process_group, Pid, Signal};
    let _ = kill_process_group(Pid::from_child(child), Signal::KILL);
}

/// How much of a run's standard error the report shows: its end.
const STDERR_TAIL: u64 = 2000;

/// The last [`STDERR_TAIL`] bytes of the run's standard error, read from
/// its end: a run may have written gigabytes there.
fn stderr_tail(path: &Path) -> std::io::Result<String> {
    use std::io::{Seek as _, SeekFrom};
    let mut file = File::open(path)?;
    let len = file.metadata()?.len();
    file.seek(SeekFrom::Start(len.saturating_sub(STDERR_TAIL)))?;
    let mut tail = Vec::new();
    file.take(STDERR_TAIL).read_to_end(&mut tail)?;
    Ok(String::from_utf8_lossy(&tail).into_owned())
}

/// Whether a run that ended with `status` ended because the check was
/// asked to stop: a signal sent to every process (a hang-up, a `kill` of
/// the whole session) reaches the run too, which may end before this
/// process has handled its own, so a run killed by SIGINT, SIGTERM or
/// SIGHUP waits a moment for the flag.
fn interrupted_with(status: std::process::ExitStatus, limits: &Limits) -> bool {
    if limits.is_interrupted() {
        return true;
    }
    if !matches!(status.signal(), Some(1 | 2 | 15)) {
        return false;
    }
    std::thread::sleep(Duration::from_millis(100));
    limits.is_interrupted()
}

/// The peak resident size of a running process, from `/proc`.
fn peak_memory(status: &Path) -> Option<u64> {
    let text = std::fs::read_to_string(status).ok()?;
    let line = text.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// The CPU time (user and system) of a running process, with that of the
/// children it has waited for (a wrapper script's), from `/proc`, in clock
/// ticks of 1/100 s (the value of `USER_HZ` on Linux), each of the four
/// fields rounded down: the polls' estimate, which [`reap`] makes exact.
fn cpu_time(stat: &Path) -> Option<Duration> {
    let text = std::fs::read_to_string(stat).ok()?;
    // After the command name in parentheses: state is field 3, utime 14,
    // stime 15, cutime 16, cstime 17.
    let fields = text.get(text.rfind(')')? + 1..)?.split_ascii_whitespace();
    let mut ticks = 0u64;
    for field in fields.skip(11).take(4) {
        ticks += field.parse::<u64>().ok()?;
    }
    Some(Duration::from_millis(10 * ticks))
}

/// A signal's name, for the report.
fn signal_name(signal: i32) -> &'static str {
    match signal {
        1 => "SIGHUP",
        2 => "SIGINT",
        3 => "SIGQUIT",
        4 => "SIGILL",
        5 => "SIGTRAP",
        6 => "SIGABRT",
        7 => "SIGBUS",
        8 => "SIGFPE",
        9 => "SIGKILL",
        11 => "SIGSEGV",
        13 => "SIGPIPE",
        15 => "SIGTERM",
        24 => "SIGXCPU",
        25 => "SIGXFSZ",
        _ => "a signal",
    }
}

/// The verdict on a run, given the judge's answers; `None` when the run was
/// stopped by the whole run's deadline.
pub fn verdict(run: &Run, expected: &[u8], words: [&str; 2]) -> Option<Verdict> {
    let status = match run.ended {
        Ended::Deadline | Ended::Interrupted => return None,
        Ended::TimeLimit { wall } => return Some(Verdict::TimeLimit { wall }),
        Ended::MemoryLimit => return Some(Verdict::MemoryLimit),
        Ended::OutputLimit { stderr } => return Some(Verdict::OutputLimit { stderr }),
        Ended::Exited(status) => status,
    };
    if let Some(signal) = status.signal() {
        return Some(Verdict::RuntimeError {
            how: format!("killed by {} (signal {signal})", signal_name(signal)),
        });
    }
    if let Some(code) = status.code().filter(|&c| c != 0) {
        return Some(Verdict::RuntimeError {
            how: format!("exit status {code}"),
        });
    }
    Some(compare(&run.stdout, expected, words))
}

/// Compares token by token, with the judges' rule: tokens are separated by
/// any ASCII whitespace.
pub fn compare(received: &[u8], expected: &[u8], words: [&str; 2]) -> Verdict {
    let tokens = |text: &[u8]| -> Vec<Vec<u8>> {
        text.split(u8::is_ascii_whitespace)
            .filter(|t| !t.is_empty())
            .map(<[u8]>::to_vec)
            .collect()
    };
    let (got, want) = (tokens(received), tokens(expected));
    if let Some((i, token)) = got
        .iter()
        .enumerate()
        .find(|(_, t)| !words.iter().any(|w| w.as_bytes() == t.as_slice()))
    {
        let shown: String = String::from_utf8_lossy(token).chars().take(40).collect();
        return Verdict::Unparsable {
            what: format!(
                "answer {} is {shown:?}, not {} or {}",
                i + 1,
                words[0],
                words[1]
            ),
        };
    }
    if got.len() != want.len() {
        return Verdict::Unparsable {
            what: if got.len() < want.len() {
                format!(
                    "{} expected, {} printed: {} missing",
                    grundy_report::words::count(want.len() as u64, "answer"),
                    got.len(),
                    want.len() - got.len()
                )
            } else {
                format!(
                    "{} expected, {} printed: {} extra",
                    grundy_report::words::count(want.len() as u64, "answer"),
                    got.len(),
                    got.len() - want.len()
                )
            },
        };
    }
    match got.iter().zip(&want).position(|(g, w)| g != w) {
        Some(first) => Verdict::WrongAnswer { first },
        None => Verdict::Accepted,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outputs_are_compared_token_by_token() {
        let words = ["Alice", "Bob"];
        let want = b"Alice\nBob\n";
        assert_eq!(compare(b"  Alice\r\n\tBob", want, words), Verdict::Accepted);
        assert_eq!(
            compare(b"Alice Alice", want, words),
            Verdict::WrongAnswer { first: 1 }
        );
        assert!(matches!(
            compare(b"Alice", want, words),
            Verdict::Unparsable { what } if what.contains("1 missing")
        ));
        assert!(matches!(
            compare(b"Alice Bob Bob", want, words),
            Verdict::Unparsable { what } if what.contains("1 extra")
        ));
        assert!(matches!(
            compare(b"alice Bob", want, words),
            Verdict::Unparsable { what } if what.contains("answer 1 is \"alice\"")
        ));
    }

    /// The tail is the file's last bytes, short files whole.
    #[test]
    fn the_stderr_tail_is_the_files_end() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("err");
        let text: String = (0..5000)
            .map(|i| char::from(b'a' + (i % 26) as u8))
            .collect();
        std::fs::write(&path, &text).unwrap();
        assert_eq!(stderr_tail(&path).unwrap(), text[5000 - 2000..]);
        std::fs::write(&path, "short").unwrap();
        assert_eq!(stderr_tail(&path).unwrap(), "short");
    }
}
