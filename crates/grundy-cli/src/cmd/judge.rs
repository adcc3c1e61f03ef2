//! `grundy judge PROBLEM [FILE]`: a file (or standard input) to standard
//! output in a contest problem's exact format. Answers are written as they
//! come, in chunks, and the answers before a parse error stay printed.

use std::path::PathBuf;
use std::process::ExitCode;

use grundy_cli::judge::{self as formats, JudgeError};

use crate::output::{map_source, read_raw, InputError, UsageError};

#[derive(Debug, clap::Args)]
#[command(
    after_help = TOKENS,
    subcommand_value_name = "PROBLEM",
    subcommand_help_heading = "Problems",
    override_usage = "grundy judge <PROBLEM> [FILE]"
)]
pub struct Args {
    /// The problem whose format to read and write; `grundy judge PROBLEM
    /// --help` gives its format.
    #[command(subcommand)]
    problem: Problem,
}

/// The input file of a judge (`-` or nothing: standard input).
#[derive(Debug, clap::Args)]
struct FileArg {
    /// The input file (`-` or nothing: standard input).
    file: Option<PathBuf>,
}

/// The tokenising rule every judge follows (see `grundy_cli::judge`).
const TOKENS: &str = "\
Every judge reads whitespace-separated tokens (any spaces, tabs, blank lines,
CRLF; a leading byte order mark is skipped); numbers may have leading zeros,
their value is checked against the format's range; nothing may follow the
last test. A bad token stops the run with error: <file>:<line>:<col>: <what>
and exit code 2; the answers before it stay printed.";

#[derive(Debug, clap::Subcommand)]
enum Problem {
    /// One 4 x 4 rectangle-clearing board: A or B.
    #[command(after_help = GFG)]
    Gfg(FileArg),
    /// Many 4 x 4 boards, range queries and replacements: Pishty or Lotsy.
    #[command(after_help = PSHTBRTH)]
    Pshtbrth(FileArg),
    /// A pawn on a grid with impassable cells: Alice or Bob per start.
    #[command(after_help = GRIDGAME)]
    Gridgame(FileArg),
    /// CAOS3: maps of '^'/'#', the splitting game: Asuna or Kirito.
    #[command(after_help = CAOS3)]
    Caos3(FileArg),
}

const GFG: &str = "\
Input: one 4 x 4 rectangle-clearing board, 16 cells 0/1, each its own token
(4 lines of 4, separated by spaces).
Output: A when the first player wins, else B.";

const PSHTBRTH: &str = "\
Input: T, the number of tests; each test is N M, then N 4 x 4 boards (4 rows
of 4 characters 0/1, a row one token), then M queries:
  1 L R    who wins the sum of boards L..R (1 <= L <= R <= N)
  2 P      followed by a board: it replaces board P (1 <= P <= N)
The statement allows T 1..=5 and N, M 1..=10^5; this judge takes T, N and M
up to 10^7 each (larger inputs for stress tests), and `grundy check --replay`
notes an input past the statement.
Output: one line per query 1: Pishty when the first player wins, else Lotsy.";

const GRIDGAME: &str = "\
Input: T (1..=10^4) tests; each is N (1..=10^5), then N lines X Y of
distinct impassable cells, then Q (1..=10^5), then Q lines X Y of starting
cells (never impassable); coordinates 0 to 10^9; over all tests, N sums to
at most 10^5 and so does Q. The pawn moves any distance left (x decreases)
or down (y decreases) over free cells.
Output: one line per start: Alice when the first player wins, else Bob.";

const CAOS3: &str = "\
Input: T (1..=10) tests; each is R C (1..=20 each), then R rows of C
characters, ^ (open) or # (wall). The candidates are the ^ cells whose four
arms of contiguous ^ cells are all at least 2 long; a move deletes a
candidate's row and column from its rectangle.
Output: one line per test: Asuna when the first player wins, else Kirito.";

impl Problem {
    fn file(&self) -> Option<&std::path::Path> {
        let (Problem::Gfg(arg)
        | Problem::Pshtbrth(arg)
        | Problem::Gridgame(arg)
        | Problem::Caos3(arg)) = self;
        arg.file.as_deref()
    }
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let path = args.problem.file().filter(|p| p.as_os_str() != "-");
    let stdout = crate::output::stdout();
    if let Problem::Gridgame(_) = args.problem {
        // Its buffers are megabytes of fresh memory (see `crate::alloc`).
        crate::alloc::arm_judge_region();
    }
    // The judges with inputs of megabytes parse a file in place, mapped:
    // no copy, and no fresh memory to fault in (see `map_source`).
    if let Problem::Pshtbrth(_) | Problem::Gridgame(_) = args.problem {
        if let Some((name, map)) = map_source(path)? {
            let result = match args.problem {
                Problem::Pshtbrth(_) => formats::pshtbrth::run(&map, stdout),
                _ => formats::gridgame::run(&map, stdout),
            };
            return finish(result, name);
        }
    }
    if let Problem::Pshtbrth(_) = args.problem {
        // Not a file: streamed, its inputs are tens of megabytes (see the
        // module).
        let (name, result) = match path {
            None => (
                {
                    crate::output::stdin_hint();
                    "<stdin>".to_owned()
                },
                formats::pshtbrth::run_reader(
                    std::io::stdin().lock(),
                    stdout,
                    formats::pshtbrth::CHUNK,
                ),
            ),
            Some(path) => {
                // A directory opens, and fails only at its first read: said
                // here, as the other judges' whole reads say it.
                let file = std::fs::File::open(path)
                    .and_then(|file| {
                        if file.metadata()?.is_dir() {
                            Err(std::io::Error::from_raw_os_error(libc::EISDIR))
                        } else {
                            Ok(file)
                        }
                    })
                    .map_err(|err| UsageError(format!("{}: cannot read: {err}", path.display())))?;
                (
                    path.display().to_string(),
                    formats::pshtbrth::run_reader(file, stdout, formats::pshtbrth::CHUNK),
                )
            }
        };
        return finish(result, name);
    }
    let source = read_raw(path)?;
    let result = match args.problem {
        Problem::Gfg(_) => formats::gfg::run(&source.bytes, stdout),
        Problem::Pshtbrth(_) => formats::pshtbrth::run(&source.bytes, stdout),
        Problem::Gridgame(_) => formats::gridgame::run(&source.bytes, stdout),
        Problem::Caos3(_) => formats::caos3::run(&source.bytes, stdout),
    };
    finish(result, source.name)
}

/// The answers are written already: reports the error, if any, with the
/// source's name.
fn finish(result: Result<(), JudgeError>, source_name: String) -> anyhow::Result<ExitCode> {
    match result {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(JudgeError::Input(error)) => Err(InputError { source_name, error }.into()),
        Err(err @ JudgeError::Write(_)) => Err(err.into()),
    }
}
