//! `grundy tables info`: a database's box, counts per tier, full-board
//! values and checksums, in words or as JSON.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use grundy::clear::shapes::ShapeBox;
use grundy::tier::Tier;
use grundy::Nimber;
use grundy_db::check;
use grundy_db::DbSet;

use crate::output::UsageError;
use grundy_report::words::count;

use super::*;

/// The full boards a database holds, by the file's own lookups.
pub(super) fn print_full_boards(out: &mut impl Write, set: &DbSet) -> std::io::Result<()> {
    print_boards(out, set.shape_box(), |a, b| set.full_board(a, b))
}

pub(super) fn print_boards(
    out: &mut impl Write,
    shape_box: ShapeBox,
    value: impl Fn(usize, usize) -> Option<Nimber>,
) -> std::io::Result<()> {
    writeln!(out, "full boards:")?;
    for (a, b) in check::full_board_sizes(shape_box) {
        if let Some(value) = value(a, b) {
            writeln!(out, "  {a} x {b}: {value}")?;
        }
    }
    Ok(())
}

/// Every full board of the box must be in a database; one that is not is
/// damage the checksums cannot see (a fingerprint changed and the
/// checksums written again), which `info` names rather than leave its
/// line out.
fn check_full_boards(set: &DbSet) -> anyhow::Result<()> {
    let shape_box = set.shape_box();
    let missing: Vec<String> = check::full_board_sizes(shape_box)
        .filter(|&(a, b)| shape_box.full_key(a, b).is_some() && set.full_board(a, b).is_none())
        .map(|(a, b)| format!("{a} x {b}"))
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    Err(UsageError(format!(
        "{}: corrupt: the full board {} not found (`grundy tables verify --all` checks every shape)",
        set.path().display(),
        match missing.len() {
            1 => format!("{} is", missing[0]),
            _ => format!("{} are", missing.join(", ")),
        }
    ))
    .into())
}

/// The database at `path`: a file, a part of a partitioned build, the path
/// the build was asked to write, or a directory holding one database (its
/// `*.gdb` files found as `--tables DIR` finds them: one file, or the parts
/// of one build).
pub(super) fn open(path: &Path) -> anyhow::Result<DbSet> {
    if path.is_dir() {
        return open_dir(path);
    }
    DbSet::open(path).map_err(|e| UsageError(e.to_string()).into())
}

/// The one database in the directory `dir` ([`grundy_db::discover::open_only`]).
fn open_dir(dir: &Path) -> anyhow::Result<DbSet> {
    grundy_db::discover::open_only(dir).map_err(|e| UsageError(e.to_string()).into())
}

pub(super) fn info(args: &InfoArgs) -> anyhow::Result<ExitCode> {
    if args.json {
        return info_json(args);
    }
    let mut stdout = crate::output::stdout();
    let out = &mut stdout;
    let set = open(&args.path)?;
    let shape_box = set.shape_box();
    let tiers = shape_box.cells();
    let shapes = set.shapes();
    writeln!(out, "{}", set.path().display())?;
    writeln!(
        out,
        "format version {}, rectangle clearing, box {shape_box} ({}), {}",
        set.version(),
        count(tiers as u64, "tier"),
        count(shapes, "shape"),
    )?;
    let parts = set.parts();
    if parts.len() > 1 {
        writeln!(
            out,
            "partitioned: {} parts of build {:016x}",
            parts.len(),
            parts[0].header().part.map_or(0, |p| p.build_id)
        )?;
        for p in parts {
            writeln!(out, "  {}", p.path().display())?;
        }
    }
    writeln!(
        out,
        "tier       shapes   largest value   crc32{}",
        if parts.len() > 1 {
            " (one per part)"
        } else {
            ""
        }
    )?;
    for t in 0..tiers {
        let entries: Vec<grundy_db::TierEntry> =
            parts.iter().map(|p| p.header().tiers[t]).collect();
        writeln!(
            out,
            "{:>4} {:>12} {:>15}   {}",
            t + 1,
            entries.iter().map(|e| e.positions).sum::<u64>(),
            entries.iter().map(|e| e.max_value).max().unwrap_or(0),
            entries
                .iter()
                .map(|e| format!("{:08x}", e.crc32))
                .collect::<Vec<_>>()
                .join(" ")
        )?;
    }
    let largest = parts
        .iter()
        .flat_map(|p| p.header().tiers.iter().map(|t| t.max_value))
        .max()
        .unwrap_or(0);
    writeln!(out, "largest value: {largest}")?;
    print_boards(out, shape_box, |a, b| set.full_board(a, b))?;
    check_full_boards(&set)?;
    if args.values {
        writeln!(out, "shapes per value:")?;
        for (value, count) in value_counts(&set)?.iter().enumerate() {
            if *count > 0 {
                writeln!(out, "  {value:>4} {count:>12}")?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// How many shapes have each value.
pub(super) fn value_counts(set: &DbSet) -> anyhow::Result<Vec<u64>> {
    let mut counts: Vec<u64> = Vec::new();
    for tier in Tier::all(set.shape_box().cells()) {
        let tier_counts = set.value_counts(tier);
        if counts.len() < tier_counts.len() {
            counts.resize(tier_counts.len(), 0);
        }
        counts
            .iter_mut()
            .zip(&tier_counts)
            .for_each(|(c, n)| *c += n);
    }
    Ok(counts)
}

/// `tables info --json`: [`grundy_db::meta::describe`], pretty-printed.
pub(super) fn info_json(args: &InfoArgs) -> anyhow::Result<ExitCode> {
    let set = open(&args.path)?;
    check_full_boards(&set)?;
    let meta = grundy_db::meta::describe(&set).map_err(|e| UsageError(e.to_string()))?;
    let mut stdout = crate::output::stdout();
    serde_json::to_writer_pretty(&mut stdout, &meta)?;
    writeln!(stdout)?;
    Ok(ExitCode::SUCCESS)
}
