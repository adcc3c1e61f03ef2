//! `grundy clear`: analyse rectangle-clearing boards, alone or as a sum.
//!
//! For each board: its components (lettered on the drawing) and their values;
//! then the total, the winner, every winning move with the reason it wins
//! (which component it changes, and to what), and with `--play` an optimal
//! play-out. `--json` prints the same analysis for scripts.
//!
//! Boards of at most 64 cells keep that report; larger boards (any size,
//! bounded by `--max-memory`) get the summary of
//! [`grundy_report::large`]: components by size and value, the shapes that
//! cancel in pairs, the value when the budget allows, every winning move
//! found, and the drawing up to 64 x 64. `--move` prints the engine's move
//! on any board, with whether it is proven.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use std::io::Write as _;

use grundy::clear::large::{Analyzer, EngineChoice, LargeBoard};
use grundy::clear::{Bitboard, Board, Clear, ClearSolver};
use grundy::{Nimber, SolveError};
use grundy_report::clear::{engine_move, Analysis, EngineMove, MoveReport};
use grundy_report::large::{EngineMoveReport, LargeReport};
use grundy_report::parse::clear::parse_large_boards;
use grundy_report::parse::ParseErrorKind;
use grundy_report::{explain, words, ValuedMove};

use crate::cmd::{stopped, BudgetArgs, DEFAULT_BOARD_MEMORY};
use crate::output::{read_source, solver_progress, OverBudgetError, UsageError, WithPlay};
use crate::shape_tables::TablesArgs;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Board file: rows of 0/1 (or ./#), spaces optional; blank lines
    /// separate boards, which are then played as a sum. `-` or nothing
    /// reads standard input.
    file: Option<PathBuf>,
    /// Print the analysis as JSON: `row`/`col` and rectangle corners
    /// 0-based and inclusive, `board` 0-based.
    #[arg(long)]
    json: bool,
    /// Also print an optimal play-out, move by move (with --json, as
    /// `play`: each move with the total value it leaves). Boards of at most
    /// 64 cells only.
    #[arg(long)]
    play: bool,
    /// Print only the engine's move for the player to move, on a board of
    /// any size, and how it was chosen: `proven winning` (with the reason),
    /// `losing position` (every move loses), or `unproven` (the budget ran
    /// out first: its best guess). Always within the time budget (5 seconds
    /// unless --max-time is given); exits 0 whenever it prints a move. A
    /// board whose cells alone pass --max-memory gets no move (exit 3).
    #[arg(long = "move", conflicts_with_all = ["play", "explain"])]
    engine_move: bool,
    /// With text output of boards past 64 cells: list at most this many
    /// winning moves (--json lists every one). Such boards are analysed
    /// for at most 30 seconds unless --max-time is given; what is known
    /// then is printed, and the exit code is 3.
    #[arg(long, default_value_t = 100, value_name = "N")]
    max_listed: usize,
    /// Also say why, in Sprague-Grundy terms: the value as the XOR of the
    /// components' values, each winning move with the arithmetic that
    /// makes it win, and each component's value as the mex of the values
    /// its moves leave (boards of at most 64 cells).
    /// With --json, the explanation is the object's `explain` field, as
    /// the web API gives it.
    #[arg(long)]
    explain: bool,
    /// Threads for the value searches of components: 1, or 2 for a helper
    /// thread that joins each search once it has solved 65,536 shapes
    /// (about a tenth of a second), searches the same component in the
    /// opposite order, and shares what it finds. The
    /// helper holds at most a quarter of the memory budget of the search
    /// it helps (2 GiB without --max-memory). Default: 2 when the process
    /// may run on two cores.
    #[arg(long, value_name = "N", value_parser = crate::cmd::whole_in(1u8, Some(2)), allow_hyphen_values = true)]
    threads: Option<u8>,
    #[command(flatten)]
    budget: BudgetArgs,
    #[command(flatten)]
    tables: TablesArgs,
}

/// The seed article's 4 x 4 example: the first player wins.
const DEFAULT_BOARD: Board = grundy::board!["0110", "0000", "0000", "0001"];

/// The analyzer of boards of any size, reading `--tables`, within the
/// budget given, its time `default_time` when `--max-time` is not; its
/// solver of the components that fit 64 cells has a helper with
/// `--threads 2`.
fn analyzer(args: &Args, default_time: std::time::Duration) -> anyhow::Result<Analyzer> {
    let shapes = args.tables.lookup()?;
    let mut budget = args.budget.budget();
    budget.max_time = Some(budget.max_time.unwrap_or(default_time));
    let small = small_solver(
        Clear::with_shapes(shapes),
        args.threads.unwrap_or_else(grundy::clear::default_threads),
    );
    Ok(Analyzer::with_small_solver(small, budget))
}

/// The solver of boards of at most 64 cells: with a helper thread when
/// `threads` is 2.
fn small_solver(rules: Clear, threads: u8) -> ClearSolver {
    rules.into_solver_on(threads)
}

/// The time the analysis of a board past 64 cells takes at most when
/// `--max-time` is not given: one expansion of a large shape lists every
/// rectangle (25 million on a full 100 x 100 board), so only a clock bounds
/// it in practice.
const DEFAULT_LARGE_TIME: std::time::Duration = std::time::Duration::from_secs(30);

/// The time `--move` takes at most when `--max-time` is not given.
const DEFAULT_MOVE_TIME: std::time::Duration = std::time::Duration::from_secs(5);

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let source = read_source(args.file.as_deref())?;
    let max_bytes = args.budget.max_memory.unwrap_or(DEFAULT_BOARD_MEMORY);
    let parsed = match parse_large_boards(&source.bytes, Some(max_bytes)) {
        Ok(parsed) => parsed,
        Err(err) => {
            let ParseErrorKind::OverMemory {
                needs,
                limit,
                cell_bytes,
                ..
            } = err.kind
            else {
                return Err(source.error(err).into());
            };
            if args.engine_move && cell_bytes > limit {
                // What `--move` needs is the cells alone: the refusal names
                // that, not the analysis it would not have made.
                let err = grundy_report::parse::clear::cells_over_memory(err, "--move");
                return Err(OverBudgetError(source.error(err).to_string()).into());
            }
            // A budget, not bad input: exit 3, located like a parse error.
            let refused = SolveError::MemoryBudget { limit, used: needs };
            if args.engine_move && cell_bytes <= limit {
                // The engine still plays: the boards fit, their analysis
                // does not, and a legal move needs none.
                let parsed =
                    parse_large_boards(&source.bytes, None).map_err(|err| source.error(err))?;
                let boards: Vec<LargeBoard> = parsed.into_iter().map(|b| b.board).collect();
                let choice = grundy::clear::large::unanalysed_move(&boards, refused);
                return print_engine_move(choice.as_ref(), boards.len(), args.json);
            }
            return Err(OverBudgetError(source.error(err).to_string()).into());
        }
    };
    let large: Vec<LargeBoard> = parsed.into_iter().map(|b| b.board).collect();
    if args.engine_move {
        return engine_move_of(&large, args);
    }
    let small: Option<Vec<Board>> = large.iter().map(LargeBoard::to_board).collect();
    match small {
        Some(boards) => analyse(
            &boards,
            args.json,
            args.play,
            &args.budget,
            &args.tables,
            args.explain,
            args.threads.unwrap_or_else(grundy::clear::default_threads),
        ),
        None if args.play => Err(UsageError(
            "--play plays boards of at most 64 cells out; for a larger board, --move gives the engine's move".into(),
        )
        .into()),
        None if args.explain => Err(UsageError(
            "--explain explains boards of at most 64 cells; a larger board's report gives each class of shapes, the pairs that cancel and the total".into(),
        )
        .into()),
        None => analyse_large(&large, args),
    }
}

/// The analysis of boards past 64 cells (see the module docs); exit 3 after
/// the report when the budget ran out before everything was known.
fn analyse_large(boards: &[LargeBoard], args: &Args) -> anyhow::Result<ExitCode> {
    let mut analyzer = analyzer(args, DEFAULT_LARGE_TIME)?;
    let analysis = grundy::clear::large::analyse(boards, &mut analyzer);
    print_large(&analysis, args.json, args.max_listed, (false, false))?;
    match analysis.stopped {
        Some(err) => Err(stopped(err)),
        None => Ok(ExitCode::SUCCESS),
    }
}

/// The winning moves the text of a partial analysis lists at most (the
/// default of `--max-listed`).
const DEFAULT_MAX_LISTED: usize = 100;

/// Prints the analysis of boards in the form of boards past 64 cells:
/// JSON, or text listing at most `max_listed` winning moves.
fn print_large(
    analysis: &grundy::clear::large::LargeAnalysis,
    json: bool,
    max_listed: usize,
    (play, explain): (bool, bool),
) -> anyhow::Result<()> {
    let mut out = std::io::BufWriter::new(crate::output::stdout());
    if json {
        let report = crate::output::Unfinished {
            report: LargeReport { analysis },
            play,
            explain,
        };
        report.write_line(&mut out)?;
    } else {
        out.write_all(grundy_report::large::render(analysis, max_listed).as_bytes())?;
    }
    out.flush()?;
    Ok(())
}

/// `--move`: the engine's move within the time budget.
fn engine_move_of(boards: &[LargeBoard], args: &Args) -> anyhow::Result<ExitCode> {
    let mut analyzer = analyzer(args, DEFAULT_MOVE_TIME)?;
    let choice = grundy::clear::large::choose_move(boards, &mut analyzer);
    print_engine_move(choice.as_ref(), boards.len(), args.json)
}

/// Prints the engine's move on a sum of `boards` boards (exit 0).
fn print_engine_move(
    choice: Option<&EngineChoice>,
    boards: usize,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let report = choice.map(|choice| EngineMoveReport::new(choice, boards));
    let out = crate::output::engine_move_output(report.as_ref(), json)?;
    crate::output::print(&out)?;
    Ok(ExitCode::SUCCESS)
}

pub fn run_default() -> anyhow::Result<ExitCode> {
    crate::output::print(
        "No input given: analysing the built-in example (see `grundy clear --help`).\n\n",
    )?;
    let budget = BudgetArgs {
        max_positions: 1_000_000,
        max_time: None,
        max_memory: None,
    };
    analyse(
        &[DEFAULT_BOARD],
        false,
        true,
        &budget,
        &TablesArgs::default(),
        false,
        1,
    )
}

fn analyse(
    boards: &[Board],
    json: bool,
    play: bool,
    budget: &BudgetArgs,
    tables: &TablesArgs,
    explain: bool,
    threads: u8,
) -> anyhow::Result<ExitCode> {
    let shapes = tables.lookup()?;
    let (bar, progress) = solver_progress("solving", &budget.budget());
    let mut solver = small_solver(Clear::with_shapes(shapes), threads).with_progress(progress);
    let analysis = Analysis::of_or_partial(&mut solver, boards, budget.budget());
    bar.finish_and_clear();
    // Name the shape database that would answer at once, if one would.
    let with_hint = |err| {
        let hint = grundy_report::databases::TablesHint::of(boards).sentence();
        let err = stopped(err);
        match hint {
            Some(hint) => err.context(format!("{hint}; without it")),
            None => err,
        }
    };
    let analysis = match analysis {
        Ok(analysis) => analysis,
        Err(partial) => {
            // What is known, as for a board past 64 cells; the play-out and
            // the explanation need every value.
            print_large(&partial.analysis, json, DEFAULT_MAX_LISTED, (play, explain))?;
            // Say what was left out, not only why.
            let left_out = match (play, explain) {
                (true, true) => Some("no play-out and no explanation, which need every value"),
                (true, false) => Some("no play-out, which needs every value"),
                (false, true) => Some("no explanation, which needs every value"),
                (false, false) => None,
            };
            let err = match partial.analysis.stopped {
                Some(err) => with_hint(err),
                None if left_out.is_some() => with_hint(partial.values_stopped),
                None => return Ok(ExitCode::SUCCESS),
            };
            return Err(match left_out {
                Some(left_out) => err.context(left_out),
                None => err,
            });
        }
    };
    let play = if play {
        Some(play_out(&mut solver, boards)?)
    } else {
        None
    };
    let mut out = String::new();
    if json {
        let play = play.as_ref().map(|steps| {
            steps
                .iter()
                .map(|step| {
                    ValuedMove::new(
                        MoveReport::new(step.board, step.rect),
                        &step_phrase(boards, step),
                        step.total_after.value(),
                    )
                })
                .collect()
        });
        let explain = if explain {
            let moves =
                explain::clear_component_moves(&mut solver, boards, &analysis).map_err(stopped)?;
            let pieces =
                explain::clear_winning_pieces(&mut solver, boards, &analysis).map_err(stopped)?;
            Some(explain::clear(
                boards,
                &analysis,
                Some(&moves),
                Some(&pieces),
            ))
        } else {
            None
        };
        out = WithPlay {
            report: analysis.report(boards),
            play,
            explain,
        }
        .to_line()?;
    } else {
        analysis.render(boards, &mut out);
        if explain {
            let moves =
                explain::clear_component_moves(&mut solver, boards, &analysis).map_err(stopped)?;
            let pieces =
                explain::clear_winning_pieces(&mut solver, boards, &analysis).map_err(stopped)?;
            out.push('\n');
            for line in explain::clear(boards, &analysis, Some(&moves), Some(&pieces)).lines() {
                let _ = writeln!(out, "{line}");
            }
        }
        if let Some(steps) = &play {
            out.push('\n');
            render_play_out(boards, steps, &mut out);
        }
    }
    crate::output::print(&out)?;
    Ok(ExitCode::SUCCESS)
}

/// The text rendering of an [`Analysis`].
trait Render {
    fn render(&self, boards: &[Board], out: &mut String);
}

impl Render for Analysis {
    fn render(&self, boards: &[Board], out: &mut String) {
        let several = boards.len() > 1;
        for (index, (board, analysis)) in boards.iter().zip(&self.boards).enumerate() {
            let title = if several {
                format!("Board {}", index + 1)
            } else {
                "Board".to_owned()
            };
            let _ = writeln!(
                out,
                "{title} ({} x {}), components lettered:",
                board.rows(),
                board.cols()
            );
            draw(board, &analysis.components, out);
            for (i, (cells, value)) in analysis.components.iter().enumerate() {
                let _ = writeln!(
                    out,
                    "  {}  {}  grundy {value}",
                    words::component_letter(i),
                    words::count(u64::from(cells.count()), "cell")
                );
            }
            if analysis.components.is_empty() {
                let _ = writeln!(out, "  (no ones: no moves)");
            }
            let parts: Vec<String> = analysis
                .components
                .iter()
                .map(|(_, v)| v.to_string())
                .collect();
            let _ = writeln!(
                out,
                "{title} grundy value: {}{}\n",
                analysis.value,
                xor_of(&parts)
            );
        }
        if several {
            let parts: Vec<String> = self.boards.iter().map(|b| b.value.to_string()).collect();
            let _ = writeln!(out, "Total grundy value: {}{}", self.total, xor_of(&parts));
        }
        let _ = writeln!(out, "{}", words::winner_sentence(!self.total.is_zero()));
        if boards.iter().all(|b| b.cells().is_empty()) {
            let _ = writeln!(out, "{}", words::NO_MOVES);
            return;
        }
        if self.total.is_zero() {
            let _ = writeln!(out, "{}", words::NO_WINNING_MOVES);
            return;
        }
        let _ = writeln!(out, "{}", words::winning_moves_header(self.winning.len()));
        for m in &self.winning {
            let _ = writeln!(out, "  {}", self.winning_line(m, several));
        }
    }
}

/// The phrase of a play-out step, as every command words a clear move.
fn step_phrase(boards: &[Board], step: &EngineMove) -> String {
    words::clear_move((boards.len() > 1).then_some(step.board), step.rect)
}

fn xor_of(parts: &[String]) -> String {
    if parts.len() < 2 {
        String::new()
    } else {
        format!(" (= {})", words::xor_names(parts))
    }
}

/// The board with its components lettered, rows and columns numbered.
fn draw(board: &Board, components: &[(Bitboard, Nimber)], out: &mut String) {
    out.push_str(&words::labelled_grid(
        board.rows(),
        board.cols(),
        |row, col| {
            let index = board.geometry().index(row, col);
            components
                .iter()
                .position(|(cells, _)| cells.has(index))
                .map_or('.', words::component_letter)
        },
    ));
}

/// The board's ones as `1`, rows and columns numbered.
fn draw_plain(board: &Board, out: &mut String) {
    out.push_str(&words::labelled_grid(
        board.rows(),
        board.cols(),
        |row, col| {
            if board.get(row, col) {
                '1'
            } else {
                '.'
            }
        },
    ));
}

/// Plays the position out with [`engine_move`] for both sides: the player
/// facing a non-zero total plays the first winning move; the player facing
/// zero plays the move leaving the largest value (the smallest such
/// rectangle), as every game's engine does.
/// Every move clears at least one cell, so it ends within 64 moves a board.
fn play_out(solver: &mut ClearSolver, boards: &[Board]) -> anyhow::Result<Vec<EngineMove>> {
    let mut boards = boards.to_vec();
    let mut steps = Vec::new();
    while let Some(chosen) = engine_move(solver, &boards)? {
        boards[chosen.board] = chosen.after;
        steps.push(chosen);
    }
    Ok(steps)
}

/// The play-out in words, each move followed by the board it changed.
fn render_play_out(boards: &[Board], steps: &[EngineMove], out: &mut String) {
    let _ = writeln!(out, "{}", words::PLAY_OUT_HEADER);
    for (ply, step) in steps.iter().enumerate() {
        let text = words::leaving(&step_phrase(boards, step), step.total_after.value());
        let _ = writeln!(out, "{}", words::play_line(ply, &text));
        draw_plain(&step.after, out);
    }
    let _ = writeln!(out, "{}", words::play_end(steps.len()));
}
