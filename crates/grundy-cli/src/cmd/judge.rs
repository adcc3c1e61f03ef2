//! `grundy judge PROBLEM [FILE]`: a file (or standard input) to standard
//! output in a contest problem's exact format. Answers are written as they
//! come, in chunks, and the answers before a parse error stay printed.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::ValueEnum;
use grundy_cli::judge::{self as formats, JudgeError};

use crate::output::{map_source, read_source, InputError, UsageError};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The problem whose format to read and write.
    #[arg(value_enum)]
    problem: Problem,
    /// The input file (`-` or nothing: standard input).
    file: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Problem {
    /// One 4 x 4 rectangle-clearing board, digits separated by spaces: A or B.
    Gfg,
    /// Many 4 x 4 boards, range queries and replacements: Pishty or Lotsy.
    Pshtbrth,
    /// A pawn on a grid with impassable cells: T tests of N cells and Q
    /// starts, Alice or Bob per start.
    Gridgame,
    /// CAOS3: T maps of '^'/'#'; the splitting game: Asuna or Kirito.
    Caos3,
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let path = args.file.as_deref().filter(|p| p.as_os_str() != "-");
    let stdout = std::io::stdout().lock();
    // The judges with inputs of megabytes parse a file in place, mapped:
    // no copy, and no fresh memory to fault in (see `map_source`).
    if let Problem::Pshtbrth | Problem::Gridgame = args.problem {
        if let Some((name, map)) = map_source(path)? {
            let result = match args.problem {
                Problem::Pshtbrth => formats::pshtbrth::run(&map, stdout),
                _ => formats::gridgame::run(&map, stdout),
            };
            return finish(result, name);
        }
    }
    if let Problem::Pshtbrth = args.problem {
        // Not a file: streamed, its inputs are tens of megabytes (see the
        // module).
        let (name, result) = match path {
            None => (
                "<stdin>".to_owned(),
                formats::pshtbrth::run_reader(
                    std::io::stdin().lock(),
                    stdout,
                    formats::pshtbrth::CHUNK,
                ),
            ),
            Some(path) => {
                let file = std::fs::File::open(path)
                    .map_err(|err| UsageError(format!("{}: cannot read: {err}", path.display())))?;
                (
                    path.display().to_string(),
                    formats::pshtbrth::run_reader(file, stdout, formats::pshtbrth::CHUNK),
                )
            }
        };
        return finish(result, name);
    }
    let source = read_source(path)?;
    let result = match args.problem {
        Problem::Gfg => formats::gfg::run(&source.bytes, stdout),
        Problem::Pshtbrth => formats::pshtbrth::run(&source.bytes, stdout),
        Problem::Gridgame => formats::gridgame::run(&source.bytes, stdout),
        Problem::Caos3 => formats::caos3::run(&source.bytes, stdout),
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
