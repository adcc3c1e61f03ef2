//! `grundy clear`: placeholder until the analyser lands.
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: &Args) -> anyhow::Result<ExitCode> {
    Ok(ExitCode::SUCCESS)
}

pub fn run_default() -> anyhow::Result<ExitCode> {
    Ok(ExitCode::SUCCESS)
}
