//! `grundy tables`: build, describe and check shape databases (every
//! rectangle-clearing shape of a box, solved bottom-up by tiers).
//!
//! Where the other commands find databases is grundy-db's
//! [`grundy_db::discover`] (`--tables`, else `GRUNDY_TABLES`, else the
//! default directory), then the built-in 5 x 5 database
//! ([`grundy_builtin`]); see `crate::shape_tables`.

use std::process::ExitCode;

mod args;
mod build;
mod info;
mod maintenance;
mod verify;

pub use args::Args;
use args::*;
use build::*;
use info::*;
use maintenance::*;
use verify::*;

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    match &args.command {
        Command::Build(args) => {
            // A build's buffers come and go tier by tier: keep them from
            // fragmenting the heaps (see `crate::alloc`).
            crate::alloc::fix_mmap_threshold();
            build(args)
        }
        Command::Info(args) => info(args),
        Command::Verify(args) => verify(args),
        Command::Merge(args) => merge(args),
        Command::Convert(args) => convert(args),
        Command::Checksum(args) => checksum(args),
        Command::Export(args) => export(args),
    }
}
