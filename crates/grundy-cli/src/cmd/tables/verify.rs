//! `grundy tables verify`: the file's checks, then values re-solved by the
//! engine, independently of the database ([`RESOLVED`]).

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use grundy::tier::Tier;
use grundy_db::check::{self, CheckError};
use grundy_db::DbSet;

use crate::output::UsageError;
use grundy_report::words::count;

use super::*;

/// How the values are re-solved: by the engine's own solver, which reads no
/// database. It looks a shape that fits 4 x 5 or 2 x 8 (either way round)
/// up in its small tables (built by a DP over the subsets, so still
/// independent of the tier build) and searches the others top-down; the
/// position budgets bound the searches only.
const RESOLVED: &str =
    "re-solved by the engine (its 4 x 5 and 2 x 8 tables, else a top-down search)";

pub(super) fn verify(args: &VerifyArgs) -> anyhow::Result<ExitCode> {
    let mut stdout = crate::output::stdout();
    let out = &mut stdout;
    let started = Instant::now();
    let set = open(&args.path)?;
    // Tiers the box lacks are refused before any check runs.
    if let Some((first, last)) = args.tiers {
        let shape_box = set.shape_box();
        if first > last || last.index() >= shape_box.cells() {
            let err = CheckError::Tiers {
                first,
                last,
                shape_box,
            };
            return Err(check_error(&args.path, err));
        }
    }
    writeln!(
        out,
        "{}: {} header(s) and {} section checksums good ({:.2} s)",
        set.path().display(),
        set.parts().len(),
        set.parts()
            .iter()
            .map(|p| p.header().tiers.len())
            .sum::<usize>(),
        started.elapsed().as_secs_f64()
    )?;
    let started = Instant::now();
    set.check_layout().map_err(|e| UsageError(e.to_string()))?;
    writeln!(
        out,
        "layout good: every shape where lookups find it ({:.2} s)",
        started.elapsed().as_secs_f64()
    )?;
    let shape_box = set.shape_box();
    if args.census {
        let started = Instant::now();
        let (rows, cols) = (shape_box.rows(), shape_box.cols());
        let census = check::census(&set).map_err(db_error)?;
        let (placements, expected) = (census.placements, census.connected_sets);
        if !census.holds() {
            return Err(UsageError(format!(
                "{}: the shapes have {placements} placements in the {rows} x {cols} grid, \
                 but it has {expected} connected cell sets: shapes are missing or repeated",
                args.path.display()
            ))
            .into());
        }
        writeln!(
            out,
            "census: the shapes' {placements} placements in the {rows} x {cols} grid are its \
             {expected} connected cell sets (transfer matrix) ({:.1} s)",
            started.elapsed().as_secs_f64()
        )?;
    }
    full_board_check(out, args, &set)?;
    if args.all || args.tiers.is_some() {
        return verify_tiers(out, args, &set);
    }
    let sampled = check::samples(&set, args.samples, args.seed, args.max_positions)
        .map_err(|err| check_error(&args.path, err))?;
    // At or past the database's shapes, each is checked once, and said so.
    let shapes = if sampled.every {
        format!(
            "all {} (--samples {} covers them)",
            count(sampled.checked + sampled.skipped, "shape"),
            args.samples
        )
    } else {
        count(sampled.checked, "random shape")
    };
    writeln!(
        out,
        "{shapes} {RESOLVED} {} ({} skipped: searches over {} each)",
        if sampled.checked == 1 {
            "agrees"
        } else {
            "agree"
        },
        sampled.skipped,
        count(args.max_positions, "position")
    )?;
    Ok(ExitCode::SUCCESS)
}

/// A failed check: a wrong or impossible value is the database's fault,
/// named with its path (exit 2); a failed search is an error of its own.
pub(super) fn check_error(path: &Path, err: CheckError) -> anyhow::Error {
    match err {
        CheckError::Solve(err) => err.into(),
        CheckError::Read(err) => db_error(err),
        CheckError::Tiers { .. } => UsageError(err.to_string()).into(),
        err => UsageError(format!("{}: {err}", path.display())).into(),
    }
}

/// The full boards' values, as `tables info` lists them, against the
/// top-down solver (`Solver` on `Clear` with its own small tables: no shape
/// database).
pub(super) fn full_board_check(
    out: &mut impl Write,
    args: &VerifyArgs,
    set: &DbSet,
) -> anyhow::Result<()> {
    let started = Instant::now();
    let full = check::full_boards(set, args.board_positions)
        .map_err(|err| check_error(&args.path, err))?;
    let over: Vec<String> = full
        .over_budget
        .iter()
        .map(|(a, b)| format!("{a} x {b}"))
        .collect();
    writeln!(
        out,
        "{} {RESOLVED} {}{} ({:.2} s)",
        count(full.checked as u64, "full board"),
        if full.checked == 1 { "agrees" } else { "agree" },
        if over.is_empty() {
            String::new()
        } else {
            format!(
                "; not checked, searches over {} (--board-positions): {}",
                count(args.board_positions, "position"),
                over.join(", ")
            )
        },
        started.elapsed().as_secs_f64()
    )?;
    Ok(())
}

/// `verify --all` / `--tiers A-B`: every shape of the tiers, re-solved
/// top-down ([`check::tiers`]); any skipped shape makes the exit code 3.
pub(super) fn verify_tiers(
    out: &mut impl Write,
    args: &VerifyArgs,
    set: &DbSet,
) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let (first, last) = args
        .tiers
        .unwrap_or((Tier::FIRST, Tier::at(set.shape_box().cells() - 1)));
    let tally = check::tiers(set, first, last, args.board_positions)
        .map_err(|err| check_error(&args.path, err))?;
    writeln!(
        out,
        "every shape of tiers {first} to {last}: {} {RESOLVED} agree, {} skipped (searches over {}) ({:.1} s)",
        tally.checked,
        tally.skipped,
        count(args.board_positions, "position"),
        started.elapsed().as_secs_f64()
    )?;
    if tally.skipped > 0 {
        stderr_line!(
            "error: {} {} not checked (over --board-positions {}): raise it to check them",
            count(tally.skipped, "shape"),
            if tally.skipped == 1 { "was" } else { "were" },
            args.board_positions
        );
        return Ok(ExitCode::from(3));
    }
    Ok(ExitCode::SUCCESS)
}
