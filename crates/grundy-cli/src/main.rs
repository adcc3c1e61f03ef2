//! `grundy`: analyse impartial games on grids, and answer their contest
//! problems in the judges' formats.
//!
//! Exit codes: 0 on success, 2 for bad input or usage (with
//! `error: <file>:<line>:<col>: <what>` on stderr), 3 when a search budget
//! runs out, 1 for anything else.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// `eprintln!` that never panics: when the reader of standard error goes
/// away (`grundy tables build ... 2>&1 | head`), the rest of the messages
/// are lost, not the command's work (`eprintln!` panics there).
macro_rules! stderr_line {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}

mod alloc;
mod cmd;
mod output;
mod shape_tables;

use cmd::{check, clear, judge, pawn, serve, split, sum, tables};

#[global_allocator]
static ALLOCATOR: alloc::Allocator = alloc::Allocator;

/// Sprague-Grundy values, winners and winning moves of impartial grid games.
#[derive(Debug, Parser)]
#[command(name = "grundy", version, after_help = NO_COMMAND_HELP)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

/// What `grundy` alone does, and the conventions every command follows.
const NO_COMMAND_HELP: &str = "\
With no command, grundy says so in a first line, then analyses a built-in
4 x 4 rectangle-clearing board and plays it out (as `grundy clear --play`
would).

The games' commands and `judge` read a FILE, or standard input for `-`.
Grid cells are (row,col) counted from 1 in text, `row`/`col` counted from
0 in JSON and in `split --cells` files; the pawn's cells are (x,y) from the
origin everywhere. Boards and pawns are numbered from 1 in text and from 0
in JSON; `sum`'s query scripts and the judge formats number boards from 1,
as the contest problems do.";

/// The subcommands, in the order `--help` lists them: the four games, then
/// the judge formats and the server.
#[derive(Debug, Subcommand)]
enum Command {
    /// Rectangle clearing: a move clears an all-ones rectangle of a 0/1 board.
    Clear(clear::Args),
    /// Range queries on a row of boards played as sums: values, winners,
    /// winning moves and replacements.
    Sum(sum::Args),
    /// A pawn moving left or down on a grid with impassable cells.
    Pawn(pawn::Args),
    /// The splitting game: a move deletes a candidate's row and column from
    /// its rectangle.
    Split(split::Args),
    /// Answer a contest problem: judge PROBLEM [FILE] reads FILE (or
    /// standard input) in the problem's exact format.
    Judge(judge::Args),
    /// Stress-test a contest solution against the judge; shrink what it
    /// gets wrong.
    Check(check::Args),
    /// Serve the web playground and JSON API (loopback by default).
    Serve(serve::Args),
    /// Shape databases for rectangle clearing: build, info, verify, merge, convert, checksum, export.
    Tables(tables::Args),
}

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        // A reader that went away (`grundy tables info ... | head`) is not
        // an error of ours: stop quietly, as `split` does.
        Err(err)
            if err.chain().any(|e| {
                e.downcast_ref::<std::io::Error>()
                    .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
                    || e.downcast_ref::<serde_json::Error>()
                        .is_some_and(|e| e.io_error_kind() == Some(std::io::ErrorKind::BrokenPipe))
            }) =>
        {
            ExitCode::SUCCESS
        }
        Err(err) => {
            output::report_error(&err);
            output::exit_code_for(&err)
        }
    }
}

fn run() -> anyhow::Result<ExitCode> {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            // clap prints help/version to stdout (exit 0) and usage errors
            // to stderr; usage errors exit 2 like every other bad input.
            let printed = err.print();
            if err.use_stderr() {
                return Ok(ExitCode::from(2));
            }
            // Help on a full or closed standard output is that error, as
            // for every other command's output (see `output::Stdout`).
            printed.map_err(|e| std::io::Error::new(e.kind(), format!("standard output: {e}")))?;
            return Ok(ExitCode::SUCCESS);
        }
    };
    match cli.command {
        None => clear::run_default(),
        Some(Command::Clear(args)) => clear::run(&args),
        Some(Command::Sum(args)) => sum::run(&args),
        Some(Command::Pawn(args)) => pawn::run(&args),
        Some(Command::Split(args)) => split::run(&args),
        Some(Command::Judge(args)) => judge::run(&args),
        Some(Command::Check(args)) => check::run(&args),
        Some(Command::Serve(args)) => serve::run(&args),
        Some(Command::Tables(args)) => tables::run(&args),
    }
}
