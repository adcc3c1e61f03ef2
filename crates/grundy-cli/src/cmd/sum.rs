//! `grundy sum --queries FILE [BOARDS]`: a row of rectangle-clearing boards
//! played as sums over ranges, with a query script of range values, winners,
//! winning moves and replacements (see [`grundy_cli::queries`]). One output
//! line per query; the answers before a bad line stay printed.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use grundy::clear::large::{LargeBoard, LargeClear, Part};
use grundy::clear::Clear;
use grundy::sum::GameSum;
use grundy::Solver;
use grundy_cli::queries::{Query, QueryReader};
use grundy_report::parse::clear::parse_large_boards;

use crate::cmd::clear::{stopped, BudgetArgs};
use crate::output::{read_source, solver_progress, UsageError};
use crate::shape_tables::TablesArgs;
use grundy_report::large::LargeMoveReport;
use grundy_report::{words, ValuedMove};

/// The time a sum with a board past 64 cells takes at most when
/// `--max-time` is not given, as `grundy clear`'s.
const DEFAULT_LARGE_TIME: std::time::Duration = std::time::Duration::from_secs(30);

/// The query language, shown by `grundy sum --help`.
const QUERY_HELP: &str = "\
Query script: one query per line; boards are numbered from 1 in the order of
the board file, and L..R includes both ends (1 <= L <= R <= N, 1 <= P <= N).
  value L R    the grundy value of the sum of boards L..R
  winner L R   who wins that sum: first or second (player to move)
  move L R     a winning move in it, worded as `grundy clear` words moves:
               clear (r,c)-(r,c) on board B, leaving grundy 0 (the board:
               grundy X -> Y), corners 1-based and inclusive; or none
  set P        replace board P by the board on the following lines (up to a
               blank line, the next query or the end); prints board P: grundy V
One output line per query. A bad line stops the run with
error: <file>:<line>:<col>: <what> and exit code 2; answers already printed
stay printed.";

#[derive(Debug, clap::Args)]
#[command(after_help = QUERY_HELP)]
pub struct Args {
    /// The query script (`-` for standard input).
    #[arg(long, value_name = "FILE")]
    queries: PathBuf,
    /// Board file: rows of 0/1 (or ./#), blank lines between boards, any
    /// sizes (bounded by --max-memory; a sum with a board past 64 cells is
    /// given 30 seconds unless --max-time is set). `-` or nothing reads
    /// standard input.
    boards: Option<PathBuf>,
    /// Print each answer as one line of JSON (JSON Lines): board numbers
    /// (`board`, and a range's `left` and `right`) 0-based, rectangle
    /// corners 0-based and inclusive, as in `grundy clear --json`; a move
    /// as in clear's `play`, with the value it leaves the range (`grundy`,
    /// 0) and its `text`.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    budget: BudgetArgs,
    #[command(flatten)]
    tables: TablesArgs,
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let is_stdin = |path: Option<&std::path::Path>| path.is_none_or(|p| p.as_os_str() == "-");
    if is_stdin(Some(&args.queries)) && is_stdin(args.boards.as_deref()) {
        return Err(UsageError(
            "the queries and the boards cannot both come from standard input: name a file for one"
                .into(),
        )
        .into());
    }
    let board_source = read_source(args.boards.as_deref())?;
    let max_bytes = args.budget.max_memory.unwrap_or(8 << 30);
    let boards: Vec<LargeBoard> = parse_large_boards(&board_source.bytes, Some(max_bytes))
        .map_err(|err| board_source.error(err))?
        .into_iter()
        .map(|b| b.board)
        .collect();
    let query_source = read_source(Some(&args.queries))?;

    let shapes = args.tables.lookup()?;
    let mut budget = args.budget.budget();
    if boards
        .iter()
        .any(|b| u64::from(b.rows()) * u64::from(b.cols()) > 64)
    {
        budget.max_time = Some(budget.max_time.unwrap_or(DEFAULT_LARGE_TIME));
    }
    let (bar, progress) = solver_progress("solving", &budget);
    let mut solver = Solver::new(LargeClear::new(Clear::with_shapes(shapes)))
        .with_budget(budget)
        .with_progress(progress);
    // One expansion of a large shape lists every rectangle: the clock and
    // the memory budget bound it too.
    let deadline = budget.deadline(std::time::Instant::now());
    solver.game_mut().set_limits(
        deadline,
        budget
            .max_memory
            .unwrap_or(grundy::clear::large::game::DEFAULT_MAX_OPTION_BYTES),
    );
    let sum = GameSum::with_positions(solver, boards.into_iter().map(Part::of));
    bar.finish_and_clear();
    let mut sum = sum.map_err(stopped)?;
    let count = sum.len();

    // Answers are written out in bounded chunks, as the judges do.
    let mut stdout =
        std::io::BufWriter::with_capacity(grundy_cli::judge::FLUSH_AT, std::io::stdout().lock());
    let result = answer(
        &mut sum,
        QueryReader::new(&query_source.bytes, count),
        args.json,
        &mut stdout,
    );
    // Answers already written stay printed, whatever comes next.
    stdout.flush()?;
    match result? {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(err) => Err(query_source.error(err).into()),
    }
}

/// Runs every query; the outer error is a failed write or search, the inner
/// one a bad line of the script.
fn answer(
    sum: &mut GameSum<LargeClear>,
    queries: QueryReader<'_>,
    json: bool,
    out: &mut impl Write,
) -> anyhow::Result<Result<(), grundy_report::parse::ParseError>> {
    for query in queries {
        let query = match query {
            Ok(query) => query,
            Err(err) => return Ok(Err(err)),
        };
        let winner = |value: grundy::Nimber| if value.is_zero() { "second" } else { "first" };
        match query {
            Query::Value { left, right } => {
                let value = sum.value(left..=right);
                if json {
                    let line = serde_json::json!({
                        "query": "value", "left": left, "right": right,
                        "grundy": value.value(),
                    });
                    writeln!(out, "{line}")?;
                } else {
                    writeln!(out, "{value}")?;
                }
            }
            Query::Winner { left, right } => {
                let value = sum.value(left..=right);
                if json {
                    let line = serde_json::json!({
                        "query": "winner", "left": left, "right": right,
                        "grundy": value.value(), "winner": winner(value),
                    });
                    writeln!(out, "{line}")?;
                } else {
                    writeln!(out, "{}", winner(value))?;
                }
            }
            Query::Move { left, right } => {
                let win = sum.winning_move(left..=right).map_err(stopped)?;
                // The move as `grundy clear` words it: the board is always
                // named (a range of a row of boards), and a winning move
                // leaves the range 0.
                let valued = win.as_ref().map(|win| {
                    let phrase = words::clear_move(Some(win.index), win.mv);
                    ValuedMove::new(LargeMoveReport::new(win.index as u32, win.mv), &phrase, 0)
                });
                if json {
                    let line = serde_json::json!({
                        "query": "move", "left": left, "right": right, "move": valued,
                    });
                    writeln!(out, "{line}")?;
                } else {
                    match (win, valued) {
                        (Some(win), Some(valued)) => writeln!(
                            out,
                            "{} {}",
                            valued.text,
                            words::change("the board", win.from.value(), win.to.value())
                        )?,
                        _ => writeln!(out, "none")?,
                    }
                }
            }
            Query::Set { index, board } => {
                let value = sum.set(index, Part::of(board)).map_err(stopped)?;
                if json {
                    let line = serde_json::json!({
                        "query": "set", "board": index, "grundy": value.value(),
                    });
                    writeln!(out, "{line}")?;
                } else {
                    writeln!(out, "board {}: grundy {value}", index + 1)?;
                }
            }
        }
    }
    Ok(Ok(()))
}
