//! `grundy.tables`: shape databases. `open` reads a `.gdb` file with
//! grundy-db's reader (memory-mapped, every checksum checked) or returns the
//! built-in 5 x 5 database; `build` runs the engine's tier solver into
//! grundy-db's resumable writer, as `grundy tables build` does, on a worker
//! thread while the calling thread draws progress and runs Python's signal
//! handlers (through grundy-db's `build`, the one build entry the CLI uses
//! too): Ctrl-C sets the solver's cancel flag, the finished tiers stay
//! in `PATH.partial`, and the same call resumes from them.
//!
//! An opened database is owned by its Python object and shared (`Arc`) with
//! the analyses made with it: it is unmapped when Python drops the last of
//! them. Each `open` reads the file anew, so a rebuilt file is seen.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use grundy::clear::shapes::{ShapeBox, ShapeLookup};
use grundy::clear::Board;
use grundy::tier::{Tier, TierControl, TierError, TierProgress};
use grundy_db::discover::DiscoverError;
use grundy_db::{BuildFailed, DbError, DbSet};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use rayon::prelude::*;

use crate::interrupt;
use crate::{budget_exceeded, parse, stopped_after, Limits};

/// The built-in 5 x 5 database ([`grundy_builtin`]), owned by the caller:
/// its bytes are compiled in, and opening them checks the header and the
/// checksums (a fraction of a millisecond).
fn builtin() -> Arc<DbSet> {
    Arc::new(grundy_builtin::clear_5x5())
}

/// The lookup analyses use: `db` (when given, which falls back on the
/// built-in database itself) or the built-in 5 x 5 one. Shared with the
/// analysis, and dropped with the last holder.
pub(crate) fn lookup(db: Option<&Bound<'_, Database>>) -> Arc<dyn ShapeLookup> {
    match db {
        Some(db) => db.get().lookup.clone(),
        None => builtin(),
    }
}

/// A shape database: every rectangle-clearing shape that fits a box, with
/// its value.
#[pyclass(frozen, module = "grundy.tables")]
pub struct Database {
    set: Arc<DbSet>,
    /// The database, then the built-in one for the shapes it lacks.
    lookup: Arc<dyn ShapeLookup>,
}

#[pyfunction]
#[pyo3(signature = (path))]
fn tables_open(py: Python<'_>, path: Option<PathBuf>) -> PyResult<Database> {
    match path {
        None => {
            let set = builtin();
            Ok(Database {
                lookup: set.clone(),
                set,
            })
        }
        // A directory of one database opens it, as the command line's
        // readers (`grundy tables info DIR`) do.
        Some(path) if path.is_dir() => {
            let set = grundy_db::discover::open_only(&path).map_err(|e| discover_error(py, e))?;
            Ok(Database::of_set(set))
        }
        Some(path) => {
            let set = DbSet::open(&path).map_err(|e| db_error(py, e, Some(NO_DATABASE)))?;
            Ok(Database::of_set(set))
        }
    }
}

/// An operating-system error on `path` as Python's own functions raise it:
/// `OSError(errno, strerror, filename)`, which Python makes the subclass of
/// the errno (`FileNotFoundError` for ENOENT, `IsADirectoryError`,
/// `PermissionError`, ...). `None` for an error with no errno (such as a
/// path that is not a regular file), which stays a `ValueError`.
///
/// `strerror` is the system's words for the errno (Python's own), or for
/// a missing file `missing` when given.
fn os_error(
    py: Python<'_>,
    path: &Path,
    error: &std::io::Error,
    missing: Option<&str>,
) -> Option<PyErr> {
    use std::io::ErrorKind;
    let errno = match error.raw_os_error() {
        Some(errno) => errno,
        None => {
            // Errors the engine makes from a kind alone (a directory where
            // a file is expected): the platform's errno of that name.
            let name = match error.kind() {
                ErrorKind::NotFound => "ENOENT",
                ErrorKind::PermissionDenied => "EACCES",
                ErrorKind::IsADirectory => "EISDIR",
                ErrorKind::NotADirectory => "ENOTDIR",
                _ => return None,
            };
            py.import("errno")
                .and_then(|m| m.getattr(name))
                .and_then(|v| v.extract::<i32>())
                .ok()?
        }
    };
    let strerror = match (error.kind(), missing) {
        (ErrorKind::NotFound, Some(words)) => words.to_owned(),
        _ => py
            .import("os")
            .and_then(|os| os.getattr("strerror"))
            .and_then(|f| f.call1((errno,)))
            .and_then(|words| words.extract::<String>())
            .unwrap_or_else(|_| error.to_string()),
    };
    Some(pyo3::exceptions::PyOSError::new_err((
        errno,
        strerror,
        // A `str`, as `os.fspath` gives it (a `PathBuf` would be a `Path`).
        path.as_os_str().to_os_string(),
    )))
}

/// The words of a missing database file.
const NO_DATABASE: &str = "no such database (build one with grundy.tables.build)";

/// A database that cannot be opened: an `OSError` subclass when the file
/// system refused (see [`os_error`]), else a `ValueError` (not a database,
/// damaged, another version) with grundy-db's message. `missing`: the
/// words of a missing file, as for [`os_error`].
fn db_error(py: Python<'_>, err: DbError, missing: Option<&str>) -> PyErr {
    if let DbError::Io { path, error } = &err {
        if let Some(raised) = os_error(py, path, error, missing) {
            return raised;
        }
    }
    PyValueError::new_err(err.to_string())
}

impl Database {
    /// A database opened, falling back on the built-in one.
    fn of_set(set: DbSet) -> Database {
        let set = Arc::new(set);
        let lookup: Vec<Arc<dyn ShapeLookup>> = vec![set.clone(), builtin()];
        Database {
            set,
            lookup: Arc::new(lookup),
        }
    }
}

/// A discovery's error as Python raises it: the file system's as the
/// `OSError` subclass of its errno, a database's as [`db_error`] words it,
/// the rest (a directory without a database, or of several) as
/// `ValueError` in the command line's words.
fn discover_error(py: Python<'_>, err: DiscoverError) -> PyErr {
    match err {
        DiscoverError::Open(err) => db_error(py, err, None),
        DiscoverError::ReadDir { path, error } => {
            os_error(py, &path, &error, None).unwrap_or_else(|| {
                PyValueError::new_err(format!("{}: cannot read: {error}", path.display()))
            })
        }
        other => PyValueError::new_err(other.to_string()),
    }
}

/// The databases grundy-db's discovery finds, as the CLI's `clear`, `sum`
/// and `serve` find them ([`grundy_db::discover`]: `paths`, else
/// `GRUNDY_TABLES`, else the default directory), with the damaged files it
/// skipped (path and reason) for the caller to warn about.
/// The databases found, and the damaged files skipped (path, reason).
type Discovered = (Vec<Database>, Vec<(PathBuf, String)>);

#[pyfunction]
#[pyo3(signature = (paths))]
fn tables_discover(py: Python<'_>, paths: Vec<PathBuf>) -> PyResult<Discovered> {
    let found = grundy_db::discover::Search::new(&paths)
        .open()
        .map_err(|e| discover_error(py, e))?;
    let skipped = found
        .skipped
        .into_iter()
        .map(|s| (s.path, s.error.to_string()))
        .collect();
    Ok((
        found.sets.into_iter().map(Database::of_set).collect(),
        skipped,
    ))
}

#[pymethods]
impl Database {
    /// The box `(rows, cols)`: every shape that fits it either way round.
    #[getter(r#box)]
    fn shape_box(&self) -> (usize, usize) {
        let b = self.set.shape_box();
        (b.rows(), b.cols())
    }

    /// The file (or the name of the built-in database).
    #[getter]
    fn path(&self) -> PathBuf {
        self.set.path().to_owned()
    }

    /// How many files hold it: 1, or the parts of a partitioned build.
    #[getter]
    fn part_count(&self) -> usize {
        self.set.parts().len()
    }

    /// What `grundy tables info PATH [--values]` prints, as a dict.
    #[pyo3(signature = (values = false))]
    fn info<'py>(&self, py: Python<'py>, values: bool) -> PyResult<Bound<'py, PyDict>> {
        let set = &self.set;
        let shape_box = set.shape_box();
        let tiers = shape_box.cells();
        let dict = PyDict::new(py);
        dict.set_item("path", set.path())?;
        dict.set_item("format_version", set.version())?;
        dict.set_item("box", (shape_box.rows(), shape_box.cols()))?;
        dict.set_item("shapes", set.shapes())?;
        dict.set_item(
            "parts",
            set.parts()
                .iter()
                .map(|p| p.path().to_owned())
                .collect::<Vec<_>>(),
        )?;
        let mut rows = Vec::new();
        let mut largest = 0;
        for t in 0..tiers {
            let entries: Vec<grundy_db::TierEntry> =
                set.parts().iter().map(|p| p.header().tiers[t]).collect();
            let tier = PyDict::new(py);
            tier.set_item("tier", Tier::at(t).number())?;
            tier.set_item("shapes", entries.iter().map(|e| e.positions).sum::<u64>())?;
            let max = entries.iter().map(|e| e.max_value).max().unwrap_or(0);
            largest = largest.max(max);
            tier.set_item("largest_value", max)?;
            tier.set_item("crc32", entries.iter().map(|e| e.crc32).collect::<Vec<_>>())?;
            rows.push(tier);
        }
        dict.set_item("tiers", rows)?;
        dict.set_item("largest_value", largest)?;
        let full = PyDict::new(py);
        for a in 1..=shape_box.rows() {
            for b in a..=shape_box.cols() {
                if shape_box.fits(a, b) {
                    if let Some(v) = set.full_board(a, b) {
                        full.set_item((a, b), v.value())?;
                    }
                }
            }
        }
        dict.set_item("full_boards", full)?;
        let crc = set
            .content_crc()
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        dict.set_item("content_crc32", crc)?;
        if values {
            let mut counts = vec![0u64; grundy::tier::MAX_VALUE as usize + 1];
            for tier in Tier::all(set.shape_box().cells()) {
                for (value, n) in set.value_counts(tier).iter().enumerate() {
                    counts[value] += n;
                }
            }
            let per_value = PyDict::new(py);
            for (value, count) in counts.iter().enumerate().filter(|(_, &c)| c > 0) {
                per_value.set_item(value, count)?;
            }
            dict.set_item("shapes_per_value", per_value)?;
        }
        Ok(dict)
    }

    /// The value of one board (text), components outside the database
    /// searched under the budget.
    #[pyo3(signature = (texts, max_positions, max_time, max_memory))]
    fn value_text(
        &self,
        py: Python<'_>,
        texts: Vec<(String, String)>,
        max_positions: Option<u64>,
        max_time: Option<f64>,
        max_memory: Option<u64>,
    ) -> PyResult<u32> {
        let boards = parse::all_boards(&texts)?;
        let limits = Limits::new(max_positions, max_time, max_memory);
        let lookup = self.lookup.clone();
        let outcome = interrupt::run(py, |pending| {
            let mut solver = crate::clear::solver(lookup, &limits, pending, 1);
            let mut total = grundy::Nimber::ZERO;
            for board in &boards {
                total ^= solver
                    .value(board)
                    .map_err(|e| (e, solver.positions_solved()))?;
            }
            Ok(total.value())
        })?;
        outcome.map_err(|(err, solved): (grundy::SolveError, u64)| stopped_after(py, &err, solved))
    }

    /// The values of `count` boards of `rows x cols`, each given as a
    /// little-endian u64 of its cells (bit `row * cols + col`), as
    /// little-endian u32s. Runs on every core with the GIL released.
    #[pyo3(signature = (packed, count, rows, cols, max_positions, max_time, max_memory))]
    #[allow(clippy::too_many_arguments)]
    fn values_packed<'py>(
        &self,
        py: Python<'py>,
        packed: &[u8],
        count: usize,
        rows: usize,
        cols: usize,
        max_positions: Option<u64>,
        max_time: Option<f64>,
        max_memory: Option<u64>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        if packed.len() != count * 8 {
            return Err(PyValueError::new_err(
                "internal: packed boards of the wrong length",
            ));
        }
        let limits = Limits::new(max_positions, max_time, max_memory);
        let lookup = &self.lookup;
        // Boards solved per task: large enough that a worker's solver (and
        // its memo) is reused over many boards.
        const CHUNK: usize = 1 << 14;
        let full = Board::new(rows, cols, 0)
            .map_err(|e| PyValueError::new_err(e.to_string()))?
            .geometry()
            .full()
            .0;
        // Rayon's workers cannot run Python's signal handlers: this thread
        // runs them while the workers solve, and a Ctrl-C stops each worker
        // at its next board or progress report.
        let outcome: Result<Vec<u8>, (usize, grundy::SolveError)> =
            interrupt::run_watched(py, |stop| {
                let chunks: Result<Vec<Vec<u8>>, _> = packed
                    .par_chunks(CHUNK * 8)
                    .enumerate()
                    .map_init(
                        || {
                            grundy::clear::Clear::with_shapes(lookup.clone())
                                .into_solver()
                                .with_budget(stop.budget(limits.budget()))
                                .with_progress(stop.callback())
                        },
                        |solver, (chunk, bytes)| {
                            let mut out = Vec::with_capacity(bytes.len() / 2);
                            for (i, word) in bytes.chunks_exact(8).enumerate() {
                                stop.check();
                                let bits = u64::from_le_bytes(word.try_into().expect("8 bytes"));
                                let index = chunk * CHUNK + i;
                                let board = Board::new(rows, cols, bits & full)
                                    .expect("a valid size, and cells masked to it");
                                let value = solver.value(&board).map_err(|e| (index, e))?;
                                out.extend_from_slice(&value.value().to_le_bytes());
                            }
                            Ok(out)
                        },
                    )
                    .collect();
                chunks.map(|c| c.concat())
            })?;
        match outcome {
            Ok(bytes) => Ok(PyBytes::new(py, &bytes)),
            Err((index, err)) => {
                let dict = PyDict::new(py);
                dict.set_item("board", index)?;
                Err(budget_exceeded(py, &err, dict))
            }
        }
    }

    fn __repr__(&self) -> String {
        let b = self.set.shape_box();
        format!(
            "Database(box=({}, {}), path={})",
            b.rows(),
            b.cols(),
            crate::repr_str(&self.set.path().display().to_string())
        )
    }
}

/// Builds (or resumes) the database of every shape of the `rows x cols`
/// box into `out`. `progress(tier, tiers, done, total)` is called from
/// this thread a few times a second; without it, `own_bar` draws the
/// engine's indicatif bar on a terminal (or prints a line per tier to
/// Python's stderr elsewhere, such as a notebook).
#[pyfunction]
#[pyo3(signature = (rows, cols, out, threads, progress, own_bar, max_time, max_memory))]
#[allow(clippy::too_many_arguments)]
fn tables_build(
    py: Python<'_>,
    rows: usize,
    cols: usize,
    out: PathBuf,
    threads: Option<usize>,
    progress: Option<Py<PyAny>>,
    own_bar: bool,
    max_time: Option<f64>,
    max_memory: Option<u64>,
) -> PyResult<Database> {
    let shape_box = ShapeBox::new(rows, cols)
        .map_err(|e| PyValueError::new_err(format!("box {rows}x{cols}: {e}")))?;
    if out.is_dir() {
        // Refused before the work: the build would end renaming its file
        // onto the directory.
        let error = std::io::Error::from(std::io::ErrorKind::IsADirectory);
        if let Some(raised) = os_error(py, &out, &error, None) {
            return Err(raised);
        }
    }
    let pool = thread_pool(threads)?;
    let tiers = shape_box.cells() as u64;
    let opened = AtomicBool::new(false);
    // For the build record, as the CLI writes it: the tier this call began
    // at (a resumed build measures only its own run), and its own CPU time
    // (the notebook's process did other work before).
    let first_tier = AtomicU64::new(1);
    let started = std::time::Instant::now();
    let cpu_before = grundy_db::meta::cpu_seconds();
    let cancel = AtomicBool::new(false);
    let progress_now = BuildProgress::new();
    let report = |p: TierProgress| progress_now.report(p);
    let watch = grundy_db::memory::MemoryWatch::for_build(max_memory).map_err(|e| {
        PyRuntimeError::new_err(format!(
            "starting the thread that watches the memory budget: {e}"
        ))
    })?;
    let over_memory = |extra| watch.as_ref().and_then(|watch| watch.over(extra));
    let mut control = TierControl::new();
    control.max_time = max_time.and_then(crate::time_budget);
    control.cancel = Some(&cancel);
    control.progress = Some(&report);
    control.memory = Some(&over_memory);
    let bar =
        if own_bar && progress.is_none() && std::io::IsTerminal::is_terminal(&std::io::stderr()) {
            let bar = indicatif::ProgressBar::new(0);
            bar.set_style(
                indicatif::ProgressStyle::with_template(grundy_report::words::TIER_BAR_TEMPLATE)
                    .expect("a valid template"),
            );
            Some(bar)
        } else {
            None
        };
    let mut interrupted: Option<PyErr> = None;
    let outcome = std::thread::scope(|scope| {
        let worker = scope.spawn(|| {
            pool.install(|| {
                // The one build entry of the CLI and Python.
                grundy_db::build(&out, shape_box, &control, |store| {
                    opened.store(true, Ordering::Relaxed);
                    let stored = grundy::tier::TierStore::stored(store) as u64;
                    first_tier.store(stored + 1, Ordering::Relaxed);
                })
            })
        });
        let mut shown = (0, u64::MAX, u64::MAX);
        loop {
            let finished = py.detach(|| {
                let until = std::time::Instant::now() + Duration::from_millis(100);
                while std::time::Instant::now() < until && !worker.is_finished() {
                    std::thread::sleep(Duration::from_millis(5));
                }
                worker.is_finished()
            });
            if interrupted.is_none() {
                if let Err(err) = py.check_signals() {
                    cancel.store(true, Ordering::Relaxed);
                    interrupted = Some(err);
                }
            }
            let now = progress_now.now();
            let lines = progress_now.take_lines();
            if now != shown {
                if let Some(callback) = &progress {
                    if let Err(err) = callback.call1(py, (now.0, tiers, now.1, now.2)) {
                        cancel.store(true, Ordering::Relaxed);
                        interrupted.get_or_insert(err);
                    }
                } else if let Some(bar) = &bar {
                    if now.0 != shown.0 {
                        bar.reset();
                    }
                    bar.set_prefix(format!("tier {}/{tiers}", now.0));
                    bar.set_length(now.2);
                    bar.set_position(now.1);
                }
                shown = now;
            }
            if own_bar && progress.is_none() {
                for line in &lines {
                    match &bar {
                        Some(bar) => bar.println(line),
                        None => {
                            let _ = py
                                .import("sys")
                                .and_then(|sys| sys.getattr("stderr"))
                                .and_then(|err| err.call_method1("write", (format!("{line}\n"),)));
                        }
                    }
                }
            }
            if finished {
                break;
            }
        }
        worker.join().expect("the build thread does not panic")
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    if let Err(failed) = outcome {
        return Err(build_error(
            py,
            failed,
            interrupted,
            opened.load(Ordering::Relaxed),
        ));
    }
    // A record left by an earlier build of this path must not describe the
    // new file, even if writing the new record fails below.
    let _ = std::fs::remove_file(grundy_db::meta::build_record_path(&out));
    let cpu = grundy_db::meta::cpu_seconds()
        .zip(cpu_before)
        .map(|(after, before)| (after.0 - before.0, after.1 - before.1));
    let record = grundy_db::meta::BuildRecord {
        // The CLI's command that does the same (the output by its file name
        // alone, as the CLI's record names it).
        command: format!(
            "grundy tables build --box {shape_box}{} --out {}",
            threads.map_or(String::new(), |t| format!(" --threads {t}")),
            out.file_name()
                .map_or(String::new(), |n| n.to_string_lossy().into_owned())
        ),
        grundy_version: env!("CARGO_PKG_VERSION").into(),
        first_tier: first_tier.load(Ordering::Relaxed) as usize,
        measured: grundy_db::meta::Measured {
            threads: pool.current_num_threads(),
            cpu_user_seconds: cpu.map(|c| (c.0 * 100.0).round() / 100.0),
            cpu_system_seconds: cpu.map(|c| (c.1 * 100.0).round() / 100.0),
            wall_seconds: (started.elapsed().as_secs_f64() * 1000.0).round() / 1000.0,
            // The process's peak is the notebook's, not the build's.
            peak_rss_bytes: None,
        },
    };
    if let Err(err) = grundy_db::meta::write_build_record(&out, &record) {
        // The file system's refusal, as the OSError of its errno.
        return Err(db_error(py, err, None));
    }
    if let Some(err) = interrupted {
        // Ctrl-C after the last tier: the file is whole, but the caller
        // asked to stop.
        return Err(err);
    }
    tables_open(py, Some(out))
}

/// The build's worker threads: `threads` of them, or rayon's default.
fn thread_pool(threads: Option<usize>) -> PyResult<rayon::ThreadPool> {
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(threads) = threads {
        // Checked by the Python half too; a direct caller gets the same.
        if !(1..=grundy::tier::MAX_THREADS).contains(&threads) {
            return Err(PyValueError::new_err(format!(
                "threads must be an integer from 1 to {}, got {threads}",
                grundy::tier::MAX_THREADS
            )));
        }
        pool = pool.num_threads(threads);
    }
    pool.build()
        .map_err(|e| PyRuntimeError::new_err(format!("starting the worker threads: {e}")))
}

/// What a build's workers report, read by the thread that draws the
/// progress (tiers 1-based, as the command line shows them).
struct BuildProgress {
    tier: AtomicU64,
    done: AtomicU64,
    total: AtomicU64,
    /// The lines of the tiers stored or restored since the last read.
    lines: Mutex<Vec<String>>,
}

impl BuildProgress {
    fn new() -> BuildProgress {
        BuildProgress {
            tier: AtomicU64::new(1),
            done: AtomicU64::new(0),
            total: AtomicU64::new(0),
            lines: Mutex::new(Vec::new()),
        }
    }

    /// Takes a worker's report.
    fn report(&self, progress: TierProgress) {
        let line = |text: String| {
            self.lines
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(text);
        };
        match progress {
            TierProgress::Generating { tier } => {
                self.tier.store(u64::from(tier.number()), Ordering::Relaxed);
                self.done.store(0, Ordering::Relaxed);
                self.total.store(0, Ordering::Relaxed);
            }
            TierProgress::Solving { tier, done, total } => {
                self.tier.store(u64::from(tier.number()), Ordering::Relaxed);
                self.done.store(done, Ordering::Relaxed);
                self.total.store(total, Ordering::Relaxed);
            }
            TierProgress::Stored(t) => line(grundy_report::words::tier_stored(
                t.tier,
                t.positions,
                t.elapsed.as_secs_f64(),
            )),
            TierProgress::Restored { tier, slots, of } => {
                line(grundy_report::words::tier_restored(tier, slots, of));
            }
            TierProgress::Resuming { stored } => {
                self.tier.store(stored as u64 + 1, Ordering::Relaxed);
            }
        }
    }

    /// `(tier, done, total)` now.
    fn now(&self) -> (u64, u64, u64) {
        (
            self.tier.load(Ordering::Relaxed),
            self.done.load(Ordering::Relaxed),
            self.total.load(Ordering::Relaxed),
        )
    }

    /// The tier lines reported since the last call.
    fn take_lines(&self) -> Vec<String> {
        std::mem::take(&mut *self.lines.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

/// What a build stopped by a budget found: `{"tiers": kept, "partial":
/// path}`.
fn kept_dict<'py>(py: Python<'py>, kept: usize, partial: &Path) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("tiers", kept)?;
    dict.set_item("partial", partial)?;
    Ok(dict)
}

/// A failed build as Python raises it: Ctrl-C (or the progress callback's
/// own exception) as itself, the time or memory budget as
/// `BudgetExceeded` with the tiers kept, a file the system refused as Python's `OSError`, a file that
/// could not be opened (`opened` false) as bad input, and the rest as a
/// failure of the build.
fn build_error(
    py: Python<'_>,
    failed: BuildFailed,
    interrupted: Option<PyErr>,
    opened: bool,
) -> PyErr {
    match failed {
        BuildFailed::Stopped {
            reason: TierError::Cancelled,
            ..
        } => interrupted.unwrap_or_else(|| pyo3::exceptions::PyKeyboardInterrupt::new_err(())),
        BuildFailed::Stopped {
            reason: TierError::TimeBudget { limit },
            ref partial,
            kept,
            earlier_stretches,
            ..
        } => {
            let dict = match kept_dict(py, kept, partial) {
                Ok(dict) => dict,
                Err(err) => return err,
            };
            // The build's words, as for the memory budget below.
            let advice = match (failed.stalled(), earlier_stretches) {
                (true, true) => "no tier finished within this max_time, which ran out before the tier under way was read back with the solved stretches an earlier run kept: call again with a larger max_time to resume",
                (true, false) => "no tier finished within this max_time, and the tier under way is solved again from its start (only large tiers keep their solved stretches): call again with a larger max_time to resume",
                (false, _) => "call again to resume",
            };
            let message = format!(
                "the build stopped: {}; {} keeps {}: {advice}",
                TierError::TimeBudget { limit },
                partial.display(),
                grundy_db::store::kept_tiers(kept)
            );
            crate::new_budget_exceeded(py, &message, "max_time", limit.as_secs_f64(), dict)
        }
        BuildFailed::Stopped {
            reason: TierError::MemoryBudget { limit, used },
            ref partial,
            kept,
            ..
        } => {
            let dict = match kept_dict(py, kept, partial) {
                Ok(dict) => dict,
                Err(err) => return err,
            };
            // The build's words for the budget and what the partial file
            // keeps; the way to resume in Python's.
            let message = format!(
                "the build stopped: {}; {} keeps {}: call again with a larger max_memory to resume",
                TierError::MemoryBudget { limit, used },
                partial.display(),
                grundy_db::store::kept_tiers(kept)
            );
            crate::new_budget_exceeded(py, &message, "max_memory", limit, dict)
        }
        BuildFailed::Db(err) => {
            // The file system refused the file (a missing directory, no
            // permission): as Python's own functions raise it.
            if let DbError::Io { path, error } = &err {
                if let Some(raised) = os_error(py, path, error, None) {
                    return raised;
                }
            }
            // A file that cannot be opened (another box, a busy path): bad
            // input; later, a failure of the build.
            if opened {
                PyRuntimeError::new_err(format!("building the database: {err}"))
            } else {
                PyValueError::new_err(err.to_string())
            }
        }
        err => PyRuntimeError::new_err(format!("building the database: {err}")),
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Database>()?;
    m.add_function(wrap_pyfunction!(tables_open, m)?)?;
    m.add_function(wrap_pyfunction!(tables_discover, m)?)?;
    m.add_function(wrap_pyfunction!(tables_build, m)?)?;
    m.add("TABLES_MAX_THREADS", grundy::tier::MAX_THREADS)?;
    Ok(())
}
