//! `grundy judge PROBLEM`: standard input to standard output in a contest
//! problem's exact format. Answers printed before a parse error stay printed.

use std::io::Write;
use std::process::ExitCode;

use clap::ValueEnum;
use grundy_cli::judge as formats;

use crate::output::read_source;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The problem whose format to read and write.
    #[arg(value_enum)]
    problem: Problem,
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
    if let Problem::Pshtbrth = args.problem {
        // Streamed: its inputs are tens of megabytes (see the module).
        let mut out = Vec::new();
        let result =
            formats::pshtbrth::run_reader(std::io::stdin(), &mut out, formats::pshtbrth::CHUNK);
        return finish(&out, result, "<stdin>");
    }
    let source = read_source(None)?;
    let mut out = Vec::new();
    let result = match args.problem {
        Problem::Gfg => formats::gfg::run(&source.bytes, &mut out),
        Problem::Pshtbrth => formats::pshtbrth::run(&source.bytes, &mut out),
        Problem::Gridgame => formats::gridgame::run(&source.bytes, &mut out),
        Problem::Caos3 => formats::caos3::run(&source.bytes, &mut out),
    };
    // Whatever was answered before an error is printed, then the error.
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(&out)?;
    stdout.flush()?;
    result.map_err(|err| source.error(err))?;
    Ok(ExitCode::SUCCESS)
}

/// Prints the answers, then the error if any.
fn finish(
    out: &[u8],
    result: Result<(), grundy_cli::input::ParseError>,
    source_name: &str,
) -> anyhow::Result<ExitCode> {
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(out)?;
    stdout.flush()?;
    result.map_err(|error| crate::output::InputError {
        source_name: source_name.to_owned(),
        error,
    })?;
    Ok(ExitCode::SUCCESS)
}
