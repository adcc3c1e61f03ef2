//! The maintenance subcommands of `grundy tables`: merge the parts of a
//! build, convert a database to the compact format, checksum it, export it.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use grundy_db::check::{self, MergeError};

use crate::output::UsageError;
use grundy_report::words::count;

use super::*;

pub(super) fn merge(args: &MergeArgs) -> anyhow::Result<ExitCode> {
    let mut stdout = std::io::stdout().lock();
    let out = &mut stdout;
    let started = Instant::now();
    let set = open(&args.path)?;
    refuse_directory(&args.out)?;
    // A fresh output: a merge never resumes a partial file (and never
    // touches one a running build holds).
    let header = check::merge(&set, &args.out).map_err(|err| match err {
        MergeError::Create(err) => open_error(err),
        MergeError::Write(err) | MergeError::Read(err) => db_error(err),
        err => anyhow::anyhow!(err),
    })?;
    let shapes: u64 = header.tiers.iter().map(|t| t.positions).sum();
    writeln!(
        out,
        "merged {} of {} into {}: {} ({:.1} s)",
        count(set.parts().len() as u64, "part"),
        set.path().display(),
        args.out.display(),
        count(shapes, "shape"),
        started.elapsed().as_secs_f64()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// `tables convert OLD NEW`: [`grundy_db::convert()`].
pub(super) fn convert(args: &ConvertArgs) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    refuse_directory(&args.new)?;
    if args.new == args.old {
        return Err(UsageError(format!(
            "{}: convert writes a new file; give another path",
            args.new.display()
        ))
        .into());
    }
    let header = grundy_db::convert(&args.old, &args.new).map_err(db_error)?;
    let shapes: u64 = header.tiers.iter().map(|t| t.positions).sum();
    let bytes = header.end();
    let mut stdout = std::io::stdout().lock();
    writeln!(
        stdout,
        "converted {} into {}: {} in {bytes} bytes ({:.2} bytes a shape, {:.1} s)",
        args.old.display(),
        args.new.display(),
        count(shapes, "shape"),
        bytes as f64 / shapes.max(1) as f64,
        started.elapsed().as_secs_f64()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// `tables export`: [`grundy_db::meta::export_csv`] through a buffer.
pub(super) fn export(args: &ExportArgs) -> anyhow::Result<ExitCode> {
    let set = open(&args.path)?;
    match args.format {
        ExportFormat::Csv => {
            let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
            grundy_db::meta::export_csv(&set, &mut out)?;
            out.flush()?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

pub(super) fn checksum(args: &ChecksumArgs) -> anyhow::Result<ExitCode> {
    let mut stdout = std::io::stdout().lock();
    let out = &mut stdout;
    let set = open(&args.path)?;
    let shapes = set.shapes();
    writeln!(
        out,
        "{:08x}  {} ({} box, {}, {}; content crc32: tiers in order, shapes sorted by key)",
        set.content_crc().map_err(|e| UsageError(e.to_string()))?,
        set.path().display(),
        set.shape_box(),
        count(shapes, "shape"),
        count(set.parts().len() as u64, "part")
    )?;
    if args.sha256 {
        use sha2::Digest as _;
        for part in set.parts() {
            // The file as opened and checked (mapped: no second read).
            let digest = sha2::Sha256::digest(part.bytes());
            let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
            writeln!(out, "{hex}  {}", part.path().display())?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
