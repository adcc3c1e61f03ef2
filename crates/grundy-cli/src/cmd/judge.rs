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
    /// CAOS3: T maps of '^'/'#'; the splitting game: Asuna or Kirito.
    Caos3,
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let source = read_source(None)?;
    let mut out = Vec::new();
    let result = match args.problem {
        Problem::Gfg => formats::gfg::run(&source.bytes, &mut out),
        Problem::Caos3 => formats::caos3::run(&source.bytes, &mut out),
    };
    // Whatever was answered before an error is printed, then the error.
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(&out)?;
    stdout.flush()?;
    result.map_err(|err| source.error(err))?;
    Ok(ExitCode::SUCCESS)
}
