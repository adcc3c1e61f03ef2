//! Shared front-end plumbing: reading an input source, writing standard
//! output, reporting errors with the right exit code, and a progress bar for
//! long searches.

use std::io::{IsTerminal, Read, Seek, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use grundy::SolveError;
use grundy_report::parse::ParseError;

/// A parse error in a named source: displays as `<file>:<line>:<col>: <what>`.
#[derive(Debug, thiserror::Error)]
#[error("{source_name}:{error}")]
pub struct InputError {
    /// The file name, or `<stdin>`.
    pub source_name: String,
    /// What went wrong, and where.
    pub error: ParseError,
}

/// Bad input or usage that has no line and column (a missing file, a bad
/// combination of flags): exit code 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

/// The disk filled up while writing a file (the message names the file and
/// the bytes needed): exit code 4.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct NoSpaceError(pub String);

/// Standard output, locked, whose write errors name it (`standard output:
/// No space left on device`) and keep their kind: `main` stops quietly on a
/// closed pipe and [`exit_code_for`] gives a full disk exit code 4, whichever
/// command was writing. Every command writes through it (`print!` panics on
/// a failed write).
pub struct Stdout(std::io::StdoutLock<'static>);

/// Standard output, locked (see [`Stdout`]).
#[must_use]
pub fn stdout() -> Stdout {
    Stdout(std::io::stdout().lock())
}

/// Writes `text` to standard output and flushes it (see [`Stdout`]).
///
/// # Errors
///
/// When the write fails.
pub fn print(text: &str) -> std::io::Result<()> {
    let mut out = stdout();
    out.write_all(text.as_bytes())?;
    out.flush()
}

fn named(err: std::io::Error) -> std::io::Error {
    std::io::Error::new(err.kind(), format!("standard output: {err}"))
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf).map_err(named)
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.0.write_all(buf).map_err(named)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush().map_err(named)
    }
}

/// An input refused up front by a budget, located as a parse error is
/// (`<file>:<line>:<col>: ... needs ..., over the limit of ...`): exit code
/// 3, as a search the budget stopped.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct OverBudgetError(pub String);

/// An input read whole, with the name to use in error messages.
pub struct Source {
    pub name: String,
    pub bytes: Vec<u8>,
}

impl Source {
    /// Attaches this source's name to a parse error.
    pub fn error(&self, error: ParseError) -> InputError {
        InputError {
            source_name: self.name.clone(),
            error,
        }
    }
}

/// Reads a file, or standard input for `None` or `-`, without a leading
/// UTF-8 byte order mark.
pub fn read_source(path: Option<&Path>) -> anyhow::Result<Source> {
    let mut source = read_raw(path)?;
    grundy_report::parse::strip_bom(&mut source.bytes);
    // The parsers skip one mark too (for text from Python and the web):
    // a second one here would be skipped silently.
    if source.bytes.starts_with(grundy_report::parse::BOM) {
        let kind = grundy_report::parse::ParseErrorKind::Invalid(
            "a second byte order mark (a file may start with one)".into(),
        );
        let error = ParseError::at(&source.bytes, 0, kind);
        return Err(source.error(error).into());
    }
    Ok(source)
}

/// Maps a regular file (or standard input when it is one) for reading, with
/// the name to use in error messages; `None` when it cannot be mapped (a
/// pipe, a terminal, an empty file), for the caller to read it instead.
///
/// Reading a judge's input whole faults in a page of fresh memory per 4 KB
/// and copies every byte; mapping it takes the page-cache pages as they
/// are. With the environment variable `GRUNDY_NO_MAP` set, nothing is
/// mapped, for measurements: `cargo bench -p grundy-bench --bench
/// judge_input` runs the judges on their largest inputs both ways.
///
/// # Errors
///
/// A file that cannot be opened.
pub fn map_source(path: Option<&Path>) -> anyhow::Result<Option<(String, memmap2::Mmap)>> {
    if std::env::var_os("GRUNDY_NO_MAP").is_some() {
        return Ok(None);
    }
    let (name, file) = match path.filter(|p| *p != Path::new("-")) {
        None => {
            #[cfg(unix)]
            {
                use std::os::fd::AsFd;
                match std::io::stdin().as_fd().try_clone_to_owned() {
                    Ok(fd) => ("<stdin>".to_owned(), std::fs::File::from(fd)),
                    Err(_) => return Ok(None),
                }
            }
            #[cfg(not(unix))]
            return Ok(None);
        }
        Some(p) => match std::fs::File::open(p) {
            Ok(file) => (p.display().to_string(), file),
            Err(err) => {
                return Err(UsageError(format!("{}: cannot read: {err}", p.display())).into())
            }
        },
    };
    match file.metadata() {
        Ok(meta) if meta.is_file() && meta.len() > 0 => {}
        _ => return Ok(None),
    }
    // Standard input may be a file already partly read (`{ read -r line;
    // grundy judge ...; } < in.txt`): only one still at its start is
    // mapped, and it is left at its end, as reading it would.
    let mut file = file;
    if !matches!(file.stream_position(), Ok(0)) {
        return Ok(None);
    }
    let Ok(map) = map(&file) else {
        return Ok(None);
    };
    // A failed seek leaves the offset where it was: only what a later
    // reader of a shared standard input sees could differ.
    let _ = file.seek(std::io::SeekFrom::End(0));
    Ok(Some((name, map)))
}

/// Maps a file for reading.
#[allow(unsafe_code)]
fn map(file: &std::fs::File) -> std::io::Result<memmap2::Mmap> {
    // SAFETY: the map is only read, through bounds-checked slices. If
    // another program changes the file while the judge runs, the answers
    // may be wrong (as they would be for a file changed while it is read),
    // and truncating it could fault the process: the accepted cost of
    // reading a judge's input without copying it (see `map_source`).
    unsafe { memmap2::Mmap::map(file) }
}

/// Reads a file, or standard input for `None` or `-`, as it is: for the
/// judges, whose formats skip one leading byte order mark themselves (a
/// second is then an error at 1:1, whether the input is mapped, streamed or
/// read whole).
pub fn read_raw(path: Option<&Path>) -> anyhow::Result<Source> {
    match path {
        None => read_stdin(),
        Some(p) if p == Path::new("-") => read_stdin(),
        Some(p) => match std::fs::read(p) {
            Ok(bytes) => Ok(Source {
                name: p.display().to_string(),
                bytes,
            }),
            Err(err) => Err(UsageError(format!("{}: cannot read: {err}", p.display())).into()),
        },
    }
}

fn read_stdin() -> anyhow::Result<Source> {
    stdin_hint();
    let mut bytes = Vec::new();
    read_stdin_to_end(&mut bytes)
        .map_err(|err| UsageError(format!("<stdin>: cannot read: {err}")))?;
    Ok(Source {
        name: "<stdin>".to_owned(),
        bytes,
    })
}

/// When standard input is a terminal, says on stderr that the command waits
/// for typed input, and how to end it, instead of waiting silently (a
/// command run without its FILE by mistake would look hung).
pub fn stdin_hint() {
    if std::io::stdin().is_terminal() {
        let end = if cfg!(windows) {
            "Ctrl-Z then Enter"
        } else {
            "Ctrl-D"
        };
        stderr_line!(
            "grundy: reading standard input from the terminal; type the input and end it with {end} (or give a FILE; see --help)"
        );
    }
}

/// Reads all of standard input. On Unix it is read through a `File` on a
/// duplicate of descriptor 0, so that when it is a regular file (a judge's
/// `< input`) the buffer is sized once from the file's length instead of
/// doubling and copying megabytes several times.
#[cfg(unix)]
fn read_stdin_to_end(bytes: &mut Vec<u8>) -> std::io::Result<usize> {
    use std::os::fd::AsFd;
    let stdin = std::io::stdin();
    match stdin.as_fd().try_clone_to_owned() {
        Ok(fd) => std::fs::File::from(fd).read_to_end(bytes),
        Err(_) => stdin.lock().read_to_end(bytes),
    }
}

#[cfg(not(unix))]
fn read_stdin_to_end(bytes: &mut Vec<u8>) -> std::io::Result<usize> {
    std::io::stdin().lock().read_to_end(bytes)
}

/// A game's JSON report followed by its play-out, when `--play` asked for
/// one: `{...the report's fields..., "play": [move, ...]}`, each move with
/// the value it leaves (`grundy`), the first player's move first.
#[derive(serde::Serialize)]
pub struct WithPlay<R, M> {
    #[serde(flatten)]
    pub report: R,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub play: Option<Vec<grundy_report::ValuedMove<M>>>,
    /// With `--explain`: the explanation, as the API's `explain` field.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explain: Option<grundy_report::explain::Explanation>,
}

impl<R: serde::Serialize, M: serde::Serialize> WithPlay<R, M> {
    /// The JSON line.
    pub fn to_line(&self) -> anyhow::Result<String> {
        let mut line = serde_json::to_string(self)
            .map_err(|err| anyhow::Error::new(err).context("serialising JSON"))?;
        line.push('\n');
        Ok(line)
    }
}

/// A partial JSON report (the search stopped before every value was known)
/// followed by `"play": null` and `"explain": null` when `--play` or
/// `--explain` asked for what needs every value: what is unknown is `null`,
/// never a missing field.
#[derive(serde::Serialize)]
pub struct Unfinished<R> {
    #[serde(flatten)]
    pub report: R,
    #[serde(skip_serializing_if = "std::ops::Not::not", serialize_with = "null")]
    pub play: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not", serialize_with = "null")]
    pub explain: bool,
}

impl<R: serde::Serialize> Unfinished<R> {
    /// The JSON line.
    pub fn to_line(&self) -> anyhow::Result<String> {
        let mut line = serde_json::to_string(self)
            .map_err(|err| anyhow::Error::new(err).context("serialising JSON"))?;
        line.push('\n');
        Ok(line)
    }

    /// The JSON line, written to `out` as it is serialised: the report of a
    /// board of millions of cells lists millions of moves and cells, a
    /// document of gigabytes that is never held whole.
    pub fn write_line(&self, mut out: impl Write) -> anyhow::Result<()> {
        serde_json::to_writer(&mut out, self).map_err(|err| {
            if err.is_io() {
                anyhow::Error::new(std::io::Error::from(err))
            } else {
                anyhow::Error::new(err).context("serialising JSON")
            }
        })?;
        out.write_all(b"\n")?;
        Ok(())
    }
}

/// Serialises a field asked for but unknown as `null`.
#[allow(clippy::trivially_copy_pass_by_ref)] // serde's `serialize_with` passes a reference
fn null<S: serde::Serializer>(_: &bool, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_none()
}

/// Prints `error: ...` (with the cause chain) to stderr.
pub fn report_error(err: &anyhow::Error) {
    let mut message = format!("error: {err}");
    for cause in err.chain().skip(1) {
        message.push_str(&format!(": {cause}"));
    }
    stderr_line!("{message}");
}

/// 2 for bad input or usage, 3 for an exhausted budget, 4 for a full disk,
/// 1 otherwise.
pub fn exit_code_for(err: &anyhow::Error) -> ExitCode {
    if err.downcast_ref::<InputError>().is_some() || err.downcast_ref::<UsageError>().is_some() {
        ExitCode::from(2)
    } else if err.downcast_ref::<SolveError>().is_some()
        || err.downcast_ref::<OverBudgetError>().is_some()
    {
        ExitCode::from(3)
    } else if err.downcast_ref::<NoSpaceError>().is_some() || disk_full(err) {
        ExitCode::from(4)
    } else {
        ExitCode::from(1)
    }
}

/// True when a write in the error's chain failed on a full disk (a file's
/// writer words its own [`NoSpaceError`]; standard output and the rest come
/// here).
fn disk_full(err: &anyhow::Error) -> bool {
    let full = Some(std::io::ErrorKind::StorageFull);
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>().map(std::io::Error::kind) == full
            || e.downcast_ref::<serde_json::Error>()
                .is_some_and(|e| e.io_error_kind() == full)
    })
}

/// A progress callback for [`grundy::Solver::with_progress`] that draws a
/// spinner on stderr when stderr is a terminal, and does nothing otherwise;
/// it shows the search's `budget`, so a user watching it knows when it will
/// stop. The returned bar must be finished by the caller.
pub fn solver_progress(
    what: &str,
    budget: &grundy::Budget,
) -> (
    indicatif::ProgressBar,
    impl FnMut(grundy::Progress) + Send + 'static,
) {
    let bar = if std::io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new_spinner();
        bar.set_style(
            indicatif::ProgressStyle::with_template("{spinner} {msg} [{elapsed}]")
                .expect("static template"),
        );
        bar.enable_steady_tick(Duration::from_millis(120));
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    let what = what.to_owned();
    let of_at_most = budget
        .max_positions
        .map_or(String::new(), |n| format!(" of at most {n}"));
    // `N of at most M positions solved, depth D, stops after T s or at S MiB`
    let mut limits = Vec::new();
    if let Some(time) = budget.max_time {
        limits.push(format!("stops after {} s", time.as_secs_f64()));
    }
    if let Some(bytes) = budget.max_memory {
        limits.push(format!("or at {} MiB", bytes >> 20));
    }
    let limits = if limits.is_empty() {
        String::new()
    } else {
        format!(", {}", limits.join(" "))
    };
    let handle = bar.clone();
    let callback = move |progress: grundy::Progress| {
        handle.set_message(format!(
            "{what}: {}{of_at_most} positions solved, depth {}{limits}",
            progress.positions, progress.depth
        ));
    };
    (bar, callback)
}

/// What `--move` prints, for every game alike: the engine's move and why,
/// or that there is none, as two lines of text or one line of JSON
/// (`{"move": null, "proven": true, "kind": "none", ...}` when there is no
/// move).
///
/// # Errors
///
/// When `report` does not serialise.
pub fn engine_move_output<M: serde::Serialize>(
    report: Option<&grundy_report::EngineMove<M>>,
    json: bool,
) -> anyhow::Result<String> {
    let no_moves = grundy_report::words::NO_MOVES;
    Ok(match (report, json) {
        (Some(report), true) => serde_json::to_string(report)? + "\n",
        (Some(report), false) => format!("{}\n{}\n", report.text, report.reason),
        (None, true) => {
            // The fields of `EngineMove`, in its order, so that both answers
            // read alike.
            #[derive(serde::Serialize)]
            struct NoMove {
                #[serde(rename = "move")]
                mv: Option<()>,
                proven: bool,
                kind: &'static str,
                // A position without a move has value 0, as the API says.
                grundy: u32,
                reason: &'static str,
                text: Option<()>,
            }
            serde_json::to_string(&NoMove {
                mv: None,
                proven: true,
                kind: "none",
                grundy: 0,
                reason: no_moves,
                text: None,
            })? + "\n"
        }
        (None, false) => format!("{no_moves}\n"),
    })
}
