//! `grundy split`: analyse a grid of the splitting game.
//!
//! Prints the grid (when it is small enough to draw), its value, the
//! winner and every winning move; with `--play` an optimal play-out;
//! `--json` prints the same for scripts (0-based cells).

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use grundy::split::{Cell, Position, SplitSolver};
use grundy::{Budget, Nimber, SolveError};
use grundy_report::parse::split::{parse_cells, parse_map, parse_matrix};
use grundy_report::split::{
    check_fits, explained_lines, plain_line, Analysis, CellReport, PartialReport, Refusal,
};
use grundy_report::words::{self, count};
use grundy_report::{explain, ValuedMove};

use crate::output::{read_source, solver_progress, OverBudgetError, WithPlay};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Grid file: rows of 0/1 (`1` or `x` a candidate, `0` or `.` a plain
    /// cell). `-` or nothing reads standard input.
    file: Option<PathBuf>,
    /// Read a cell list: a first line `R C` (rows and columns), then one
    /// line `row col` per candidate, counted from 0 as in the JSON; grids up
    /// to 10^9 x 10^9.
    #[arg(long, conflicts_with = "map")]
    cells: bool,
    /// Read a CAOS3-style map of `^` (open) and `#` (wall); the candidates
    /// are the open cells whose four arms of open cells are all at least 2
    /// long.
    #[arg(long)]
    map: bool,
    /// Print the analysis as JSON (`row`/`col` 0-based).
    #[arg(long)]
    json: bool,
    /// Also print an optimal play-out, move by move (with --json, as
    /// `play`: each move with the value it leaves).
    #[arg(long)]
    play: bool,
    /// Also say why, in Sprague-Grundy terms: the value as the XOR of the
    /// rectangles in play, each winning move with the parts it leaves and
    /// the arithmetic that makes it win, and each rectangle's value as the
    /// mex of the values its moves leave.
    /// With --json, the explanation is the object's `explain` field, as
    /// the web API gives it.
    #[arg(long)]
    explain: bool,
    /// Print only the engine's move for the player to move, on a grid of
    /// any size, and how it was chosen: `proven winning` (by the values, or
    /// because the rectangles it leaves pair up), `losing position` (every
    /// move loses), or `unproven` (the budget ran out first: its best
    /// guess). Always within the time budget (5 seconds unless --max-time
    /// is given); exits 0 whenever it prints a move.
    #[arg(long = "move", conflicts_with_all = ["play", "explain"])]
    engine_move: bool,
    #[command(flatten)]
    budget: SplitBudgetArgs,
}

/// Search limits of `grundy split`.
#[derive(Debug, Clone, clap::Args)]
pub struct SplitBudgetArgs {
    /// Give up after this many sub-rectangles: solved in a dense table (2
    /// bytes each; a table larger than what is left is refused at once), or
    /// examined by the search of grids too sparse for one.
    #[arg(long, default_value_t = 300_000_000, value_name = "N", value_parser = crate::cmd::parse_count, allow_hyphen_values = true)]
    pub max_positions: u64,
    /// Give up after this many seconds. An analysis gives the values three
    /// quarters of it: when they stop, the rest looks for a move proven
    /// winning without them (the rectangles it leaves pair up), printed
    /// with what else is known before the error (exit 3).
    #[arg(long, value_name = "SECONDS", value_parser = crate::cmd::parse_budget_seconds, allow_hyphen_values = true)]
    pub max_time: Option<Duration>,
    /// Give up when the search would hold more than this much memory, as
    /// in `2GiB` or `512MiB`: dense tables with their scratch, and the
    /// generic search's keys, counted from their allocated sizes.
    #[arg(long, value_name = "SIZE", default_value = "2GiB", value_parser = crate::cmd::parse_size, allow_hyphen_values = true)]
    pub max_memory: u64,
}

impl SplitBudgetArgs {
    fn budget(&self) -> Budget {
        Budget {
            max_positions: Some(self.max_positions),
            max_time: self.max_time,
            max_memory: None,
        }
    }

    /// A solver under these limits, for the value search of an analysis:
    /// with a time budget, three quarters of it, so that when the values
    /// stop, the pair search has the rest ([`print_partial`]), as `grundy
    /// clear` keeps a quarter for its outcome search.
    fn solver_for_values(&self) -> SplitSolver {
        let mut budget = self.budget();
        budget.max_time = budget.max_time.map(|limit| limit - limit / PAIR_SHARE);
        SplitSolver::new()
            .with_budget(budget)
            .with_memory_limit(self.max_memory)
    }
}

/// The share of `--max-time` an analysis keeps for the pair search when
/// the values stop: `1 / PAIR_SHARE`.
const PAIR_SHARE: u32 = 4;

/// The pair search's time when the values stop without `--max-time` (on
/// `--max-positions` or `--max-memory`); its tries are bounded too
/// ([`grundy::split::engine::MAX_PAIR_TRIES`]).
const PAIR_TIME: Duration = Duration::from_secs(1);

/// The time `--move` takes at most when `--max-time` is not given, as
/// `grundy clear --move`'s.
const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(5);

/// `--move`: the engine's move within the time budget.
fn engine_move_of(position: &Position, args: &Args) -> anyhow::Result<ExitCode> {
    let mut budget = args.budget.budget();
    budget.max_time = Some(budget.max_time.unwrap_or(DEFAULT_MOVE_TIME));
    let choice = grundy::split::choose_move(position, budget, args.budget.max_memory);
    let report = choice
        .as_ref()
        .map(grundy_report::split::EngineMoveReport::new);
    let out = crate::output::engine_move_output(report.as_ref(), args.json)?;
    crate::output::print(&out)?;
    Ok(ExitCode::SUCCESS)
}

/// Grids drawn in the text output at most this wide and tall.
const DRAW_LIMIT: u32 = 80;

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let source = read_source(args.file.as_deref())?;
    let parsed = if args.cells {
        parse_cells(&source.bytes)
    } else if args.map {
        parse_map(&source.bytes)
    } else {
        parse_matrix(&source.bytes)
    }
    .map_err(|err| source.error(err))?;
    // The engine plays any grid within its time: it needs no table that
    // fits (its fallback guesses), so only the analysis is refused here.
    if args.engine_move {
        return engine_move_of(&Position::new(parsed.grid), args);
    }
    if !args.cells {
        check_fits(
            &parsed,
            &source.bytes,
            args.budget.max_memory,
            "--max-memory",
        )
        .or_else(|refusal| {
            match refusal {
                Refusal::Unsupported(err) => Err(anyhow::Error::new(source.error(err))),
                // A budget, not bad input: exit 3, located like a parse
                // error, after what is known without the table (a move the
                // pairs prove), as when a search stops.
                Refusal::OverBudget(err, needs) => {
                    let refused = SolveError::MemoryBudget {
                        limit: args.budget.max_memory,
                        used: needs,
                    };
                    let position = Position::new(parsed.grid.clone());
                    print_known(&position, &parsed.walls, args, &refused, Instant::now())?;
                    Err(anyhow::Error::new(OverBudgetError(
                        source.error(err).to_string(),
                    )))
                }
            }
        })?;
    }
    let position = Position::new(parsed.grid.clone());
    let shown = Budget {
        max_memory: Some(args.budget.max_memory),
        ..args.budget.budget()
    };
    let (bar, progress) = solver_progress("solving", &shown);
    let started = Instant::now();
    let mut solver = args.budget.solver_for_values().with_progress(progress);
    let analysis = Analysis::of(&mut solver, &position);
    bar.finish_and_clear();
    let analysis = match analysis {
        Ok(analysis) => analysis,
        Err(err) => return print_partial(&position, &parsed.walls, args, err, started),
    };
    let (value, winning) = (analysis.value, analysis.winning_moves());
    let mut out = String::new();
    if args.json {
        let play = if args.play {
            let steps = play_out(&mut solver, &position)?;
            let moves = steps.iter().map(|step| {
                ValuedMove::new(
                    CellReport::from(step.cell),
                    &words::split_move(step.cell),
                    step.left.value(),
                )
            });
            Some(moves.collect())
        } else {
            None
        };
        let explain = if args.explain {
            Some(explain::split(&mut solver, &position, &analysis).map_err(super::stopped)?)
        } else {
            None
        };
        let lines = explained_lines(&mut solver, &position, &winning);
        out = WithPlay {
            report: analysis.report(&position, &lines),
            play,
            explain,
        }
        .to_line()?;
    } else {
        // The winning lines, with why, of the first moves, on a grid of any size: each
        // costs a valuation of the rectangles the move leaves.
        let lines = explained_lines(&mut solver, &position, &winning);
        render(&position, &parsed.walls, value, &winning, &lines, &mut out);
        if args.explain {
            out.push('\n');
            for line in explain::split(&mut solver, &position, &analysis)?.lines() {
                let _ = writeln!(out, "{line}");
            }
        }
        if args.play {
            out.push('\n');
            let steps = play_out(&mut solver, &position)?;
            render_play_out(&steps, &parsed.walls, &mut out);
        }
    }
    crate::output::print(&out)?;
    Ok(ExitCode::SUCCESS)
}

/// What is known when the value search stopped (`err`): the grid, the value
/// unknown, and a winning move when the pair search proves one within what
/// is left of `--max-time` (the rectangles it leaves pair up); then the
/// error, exit 3, as `grundy clear` does. The play-out and the explanation,
/// which need every value, are left out (`null` in JSON).
fn print_partial(
    position: &Position,
    walls: &[Cell],
    args: &Args,
    mut err: SolveError,
    started: Instant,
) -> anyhow::Result<ExitCode> {
    // What ran out is the whole time budget, not the values' share.
    if let (SolveError::TimeBudget { limit }, Some(whole)) = (&mut err, args.budget.max_time) {
        *limit = whole;
    }
    print_known(position, walls, args, &err, started)?;
    let left_out = match (args.play, args.explain) {
        (true, true) => Some("no play-out and no explanation, which need every value"),
        (true, false) => Some("no play-out, which needs every value"),
        (false, true) => Some("no explanation, which needs every value"),
        (false, false) => None,
    };
    let err = super::stopped(err);
    Err(match left_out {
        Some(left_out) => err.context(left_out),
        None => err,
    })
}

/// Prints what is known of `position` without its values, which `err`
/// stopped: the grid, the value unknown, and a move the pair search proves
/// within its share of the time (`started` is when the analysis began).
fn print_known(
    position: &Position,
    walls: &[Cell],
    args: &Args,
    err: &SolveError,
    started: Instant,
) -> anyhow::Result<()> {
    // The pair search's share of the time, and never past the whole budget.
    let share = args
        .budget
        .max_time
        .map_or(PAIR_TIME, |limit| limit / PAIR_SHARE);
    let deadline = Instant::now().checked_add(share).map(|end| {
        args.budget
            .max_time
            .and_then(|limit| started.checked_add(limit))
            .map_or(end, |whole| end.min(whole))
    });
    let paired = grundy::split::paired_move(position, deadline);
    let report = PartialReport::new(position, paired.as_ref(), err);
    let out = if args.json {
        crate::output::Unfinished {
            report,
            play: args.play,
            explain: args.explain,
        }
        .to_line()?
    } else {
        let mut out = String::new();
        render_header(position, walls, &mut out);
        let _ = writeln!(out, "Grundy value: unknown ({})", report.stopped);
        match report.winning_moves.first() {
            Some(line) => {
                let _ = writeln!(out, "{}", words::winner_sentence(true));
                let _ = writeln!(
                    out,
                    "A winning move, proven without the values (others may exist):"
                );
                let _ = writeln!(out, "  {}", line.text);
            }
            None => {
                let _ = writeln!(out, "Winner: unknown within the budget.");
            }
        }
        out
    };
    crate::output::print(&out)?;
    Ok(())
}

/// The grid's size and candidates, and the grid drawn when small enough.
fn render_header(position: &Position, walls: &[Cell], out: &mut String) {
    let grid = position.grid();
    let _ = writeln!(
        out,
        "Grid ({} x {}), {}:",
        grid.rows(),
        grid.cols(),
        count(grid.candidates().len() as u64, "candidate")
    );
    if grid.rows() <= DRAW_LIMIT && grid.cols() <= DRAW_LIMIT {
        if !walls.is_empty() {
            let _ = writeln!(
                out,
                "(From the map: 1 a candidate, an open cell whose four arms of open cells are each at least 2 long; . another open cell; # a wall.)"
            );
        }
        draw(position, walls, out);
    } else {
        let compressed = grid.pattern_in(grid.full());
        let _ = writeln!(
            out,
            "  (too large to draw; the candidates lie on {} and {})",
            count(compressed.pattern.rows() as u64, "row"),
            count(compressed.pattern.cols() as u64, "column")
        );
    }
}

fn render(
    position: &Position,
    walls: &[Cell],
    value: Nimber,
    winning: &[Cell],
    lines: &[String],
    out: &mut String,
) {
    render_header(position, walls, out);
    let grid = position.grid();
    let _ = writeln!(out, "Grundy value: {value}");
    let _ = writeln!(out, "{}", words::winner_sentence(!value.is_zero()));
    if grid.candidates().is_empty() {
        let _ = writeln!(out, "{}", words::NO_MOVES);
        return;
    }
    if value.is_zero() {
        let _ = writeln!(out, "{}", words::NO_WINNING_MOVES);
        return;
    }
    let _ = writeln!(out, "{}", words::winning_moves_header(winning.len()));
    for (i, &cell) in winning.iter().enumerate() {
        match lines.get(i) {
            Some(line) => {
                let _ = writeln!(out, "  {line}");
            }
            None => {
                let _ = writeln!(out, "  {}", plain_line(cell));
            }
        }
    }
    if lines.len() < winning.len() {
        let _ = writeln!(
            out,
            "  (the rectangles each leaves are given for the first {} of them)",
            lines.len()
        );
    }
}

/// Draws the grid, rows and columns numbered from 1: `1` a candidate that
/// can still be played, `.` a plain cell, `-` a cell no longer in play (on
/// a deleted row or column, or in a rectangle with no candidate left).
/// The grid: `1` a candidate, `.` a plain cell (`#` where `walls`, a
/// map's, has it), `-` out of play.
fn draw(position: &Position, walls: &[Cell], out: &mut String) {
    let grid = position.grid();
    let any = !grid.candidates().is_empty();
    let (rows, cols) = (grid.rows() as usize, grid.cols() as usize);
    out.push_str(&words::labelled_grid(rows, cols, |row, col| {
        let cell = Cell::new(row as u32, col as u32);
        let live = position.rects().iter().any(|r| r.contains(cell));
        if any && !live {
            '-'
        } else if grid.is_candidate(cell) {
            '1'
        } else if walls.binary_search(&cell).is_ok() {
            '#'
        } else {
            '.'
        }
    }));
}

/// One move of a play-out.
struct Step {
    cell: Cell,
    /// The value it leaves.
    left: Nimber,
    /// The position after it, kept only for grids small enough to draw.
    after: Option<Position>,
}

/// Plays the position out with [`Analysis::engine_move`], as the page's
/// engine does: the player facing a non-zero value plays the first winning
/// move; the player facing zero plays the first move that leaves the
/// largest value (the hardest for the opponent to answer by hand). A move
/// removes at least its own candidate, so the play-out ends.
fn play_out(solver: &mut SplitSolver, position: &Position) -> anyhow::Result<Vec<Step>> {
    let small = position.grid().rows() <= DRAW_LIMIT && position.grid().cols() <= DRAW_LIMIT;
    let mut position = position.clone();
    let mut steps = Vec::new();
    loop {
        let Some((cell, left)) = Analysis::of(solver, &position)?.engine_move() else {
            return Ok(steps);
        };
        position = position.try_play(cell).context("the engine's own move")?;
        steps.push(Step {
            cell,
            left,
            after: small.then(|| position.clone()),
        });
    }
}

/// The play-out in words, each move followed by the grid (when small).
fn render_play_out(steps: &[Step], walls: &[Cell], out: &mut String) {
    let _ = writeln!(out, "{}", words::PLAY_OUT_HEADER);
    if steps.iter().any(|step| step.after.is_some()) {
        let _ = writeln!(
            out,
            "(In the grids: 1 a candidate, . a plain cell{}, - out of play: on a deleted row or column, or in a rectangle with no candidate left.)",
            if walls.is_empty() { "" } else { ", # a wall" }
        );
    }
    for (ply, step) in steps.iter().enumerate() {
        let text = words::leaving(&words::split_move(step.cell), step.left.value());
        let _ = writeln!(out, "{}", words::play_line(ply, &text));
        if let Some(after) = &step.after {
            draw(after, walls, out);
        }
    }
    let _ = writeln!(out, "{}", words::play_end(steps.len()));
}
