//! The maintenance subcommands of `grundy tables`: merge the parts of a
//! build, convert a database to the compact format, checksum it, export it.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use grundy_db::check::{self, MergeError};
use grundy_db::DbSet;

use crate::output::UsageError;
use grundy_report::words::count;

use super::*;

pub(super) fn merge(args: &MergeArgs) -> anyhow::Result<ExitCode> {
    let mut stdout = crate::output::stdout();
    let out = &mut stdout;
    let started = Instant::now();
    let set = open(&args.path)?;
    let out_path = output_path(&args.out, "--out")?;
    refuse_an_input(&out_path, &set, "merge")?;
    // A fresh output: a merge never resumes a partial file (and never
    // touches one a running build holds).
    let header = check::merge(&set, &out_path).map_err(|err| match err {
        MergeError::Create(err) => open_error(err),
        MergeError::Write(err) | MergeError::Read(err) => db_error(err),
        err => anyhow::anyhow!(err),
    })?;
    remove_build_record(&out_path)?;
    let shapes: u64 = header.tiers.iter().map(|t| t.positions).sum();
    // A whole database (no part fields) is copied tier by tier: "merged 1
    // part" would say it was one part of a partitioned one.
    let what = match set.parts() {
        [db] if db.header().part.is_none() => "the whole database".to_owned(),
        parts => format!("{} of", count(parts.len() as u64, "part")),
    };
    writeln!(
        out,
        "merged {what} {} into {}: {} ({:.1} s)",
        set.path().display(),
        out_path.display(),
        count(shapes, "shape"),
        started.elapsed().as_secs_f64()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// `tables convert OLD NEW`: [`grundy_db::convert()`].
pub(super) fn convert(args: &ConvertArgs) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let new = output_path(&args.new, "NEW")?;
    let old = open(&args.old)?;
    refuse_an_input(&new, &old, "convert")?;
    // The database as opened: a directory's names its file or parts.
    let old_path = if args.old.is_dir() {
        old.parts()[0].path().to_owned()
    } else {
        args.old.clone()
    };
    drop(old);
    let header = grundy_db::convert(&old_path, &new).map_err(|err| match err {
        // The output's directory missing or not writable (the error names
        // the output or its `.partial` beside it): the user's path.
        grundy_db::DbError::Io { ref path, .. } if path.parent() == new.parent() => {
            UsageError(err.to_string()).into()
        }
        err => db_error(err),
    })?;
    remove_build_record(&new)?;
    let shapes: u64 = header.tiers.iter().map(|t| t.positions).sum();
    let bytes = header.end();
    let mut stdout = crate::output::stdout();
    writeln!(
        stdout,
        "converted {} into {}: {} in {bytes} bytes ({:.1} bytes a shape with each tier's 4 KiB alignment, {:.1} s)",
        args.old.display(),
        new.display(),
        count(shapes, "shape"),
        bytes as f64 / shapes.max(1) as f64,
        started.elapsed().as_secs_f64()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// Removes the build record of the file `convert`, `merge` or a
/// partitioned build just replaced at `path`. A record describes the build
/// that solved a file (its command, CPU time and memory); `convert` and
/// `merge` solve nothing, so there is no build to record, and a
/// partitioned build, whose parts `merge` joins, writes no record either.
pub(super) fn remove_build_record(path: &Path) -> anyhow::Result<()> {
    let record = grundy_db::meta::build_record_path(path);
    match std::fs::remove_file(&record) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(anyhow::anyhow!(
            "{}: cannot remove the record of the build this file replaced: {e}",
            record.display()
        )),
        _ => Ok(()),
    }
}

/// Refuses an output that is the file of one of the parts of `set`, which
/// `command` reads (writing it would destroy the database being read).
fn refuse_an_input(out: &Path, set: &DbSet, command: &str) -> anyhow::Result<()> {
    let Ok(out_path) = std::fs::canonicalize(out) else {
        // Not there yet: no input is at that path.
        return Ok(());
    };
    for part in set.parts() {
        if std::fs::canonicalize(part.path()).is_ok_and(|p| p == out_path) {
            return Err(UsageError(format!(
                "{}: is {}, which {command} reads; write to another path",
                out.display(),
                if set.parts().len() > 1 {
                    format!("a part of {}", set.path().display())
                } else {
                    "the database".to_owned()
                }
            ))
            .into());
        }
    }
    Ok(())
}

/// `tables export`: [`grundy_db::meta::export_csv`] through a buffer. A
/// damaged tier found while writing is exit 2, as `verify` reports it; a
/// full disk under standard output exit 4.
pub(super) fn export(args: &ExportArgs) -> anyhow::Result<ExitCode> {
    let set = open(&args.path)?;
    match args.format {
        ExportFormat::Csv => {
            let mut out = std::io::BufWriter::with_capacity(1 << 16, crate::output::stdout());
            grundy_db::meta::export_csv(&set, &mut out)
                .and_then(|_| out.flush())
                .map_err(export_error)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn export_error(err: std::io::Error) -> anyhow::Error {
    if err
        .get_ref()
        .is_some_and(|inner| inner.is::<grundy_db::DbError>())
    {
        return UsageError(err.to_string()).into();
    }
    // Named by the writer: `main` stops quietly on a closed pipe and exits
    // 4 on a full disk.
    anyhow::Error::new(err)
}

pub(super) fn checksum(args: &ChecksumArgs) -> anyhow::Result<ExitCode> {
    let mut stdout = crate::output::stdout();
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
