//! `grundy pawn`: pawns on a grid with impassable cells.
//!
//! For one pawn anywhere up to 10^9: the winner and the winning moves (the
//! losing cells it can reach, at most one along its row and one down its
//! column), from the online structure. When the pawns lie below
//! 4096 x 4096, or beyond with no impassable cell at or below-left of them
//! (value `x xor y`), also the Grundy values; several pawns are a sum, whose
//! total is the XOR of their values and whose winning moves say which pawn
//! goes where. `--draw` pictures a small region; `--play` plays the pawns
//! out; `--json` prints the same analysis for scripts. Cells are `(x,y)`
//! from the origin in text, JSON and files alike; pawns are numbered from 1
//! in text and from 0 in JSON.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use grundy::pawn::{Blocked, Cell, CellKind, Outcomes, MAX_REGION_SIDE};
use grundy_report::parse::pawn::{parse_blocked, parse_cell, parse_region};
use grundy_report::parse::{ParseError, ParseErrorKind};
use grundy_report::pawn::{engine_move, play_out, Analysis, AnalysisError, MoveReport, Step};
use grundy_report::{explain, words, ValuedMove};

use crate::output::{read_source, UsageError, WithPlay};

/// The largest side of a `--draw` region.
const MAX_DRAW_SIDE: u64 = 200;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// File of impassable cells, one `X Y` or `X,Y` per line; `-` reads
    /// standard input. Without it no cell is impassable.
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
    /// The file of impassable cells, as FILE (either spelling; not both).
    #[arg(long, value_name = "FILE", conflicts_with = "file")]
    blocked: Option<PathBuf>,
    /// A pawn's cell, `X,Y` or `X Y` (0 to 1000000000); repeat for a sum of
    /// pawns that ignore each other.
    #[arg(long = "at", value_name = "X,Y", value_parser = parse_cell, allow_hyphen_values = true)]
    at: Vec<Cell>,
    /// Draw the region with opposite corners X0,Y0 and X1,Y1 (inclusive,
    /// in either order, at most 200 x 200): `#` impassable, `*` losing, `.` winning, the pawns by
    /// number (or `P` for one).
    #[arg(long, value_name = "X0,Y0,X1,Y1", value_parser = parse_region, allow_hyphen_values = true)]
    draw: Option<(Cell, Cell)>,
    /// Print the analysis as JSON (`pawn` 0-based).
    #[arg(long)]
    json: bool,
    /// Also play the pawns out, move by move (pawns below 4096 x 4096;
    /// with --json, as `play`: each move with the total value it leaves).
    #[arg(long)]
    play: bool,
    /// Also say why, in Sprague-Grundy terms: losing cells (no move to a
    /// losing cell), the value as the XOR of the pawns' values, each
    /// winning move's arithmetic, and each pawn's value as the mex of the
    /// values its moves leave.
    /// With --json, the explanation is the object's `explain` field, as
    /// the web API gives it.
    #[arg(long)]
    explain: bool,
    /// Print only the engine's move for the player to move, and how it was
    /// chosen: `proven winning`, `losing position` (every move loses), or
    /// `unproven` (a sum with a pawn whose value is out of reach: its best
    /// guess); exits 0 whenever it prints a move.
    #[arg(long = "move", conflicts_with_all = ["play", "explain", "draw"])]
    engine_move: bool,
}

/// `--move`: the engine's move.
fn engine_move_of(blocked: &Blocked, outcomes: &Outcomes, args: &Args) -> anyhow::Result<ExitCode> {
    if args.at.is_empty() {
        return Err(UsageError("--move needs a pawn: give one with --at X,Y".into()).into());
    }
    let report = grundy_report::pawn::engine_report(blocked, outcomes, &args.at)?;
    let out = crate::output::engine_move_output(report.as_ref(), args.json)?;
    crate::output::print(&out)?;
    Ok(ExitCode::SUCCESS)
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    if args.at.is_empty() && args.draw.is_none() {
        return Err(UsageError("give a pawn with --at X,Y, or a region with --draw".into()).into());
    }
    if args.play && args.at.is_empty() {
        return Err(UsageError("--play needs a pawn: give one with --at X,Y".into()).into());
    }
    let (blocked, source_name) = read_blocked(args)?;
    if let Some((low, high)) = args.draw {
        let (width, height) = (
            u64::from(high.x() - low.x()) + 1,
            u64::from(high.y() - low.y()) + 1,
        );
        if width > MAX_DRAW_SIDE || height > MAX_DRAW_SIDE {
            return Err(UsageError(format!(
                "--draw: {} is too large to draw; sides are at most {MAX_DRAW_SIDE}",
                words::sized(width, height, "region")
            ))
            .into());
        }
    }
    let outcomes = Outcomes::new(&blocked);
    if args.engine_move {
        return engine_move_of(&blocked, &outcomes, args);
    }
    let analysis = Analysis::of(&blocked, &outcomes, &args.at).map_err(|err| match err {
        AnalysisError::SumBeyondRegion { .. } => anyhow::Error::new(UsageError(err.to_string())),
        other => anyhow::Error::new(other),
    })?;
    let picture = args
        .draw
        .map(|(low, high)| draw(&outcomes, &args.at, low, high));
    let play = if args.play {
        let Some(table) = &analysis.table else {
            // The play-out walks a table of values, which covers pawns
            // below the region only: name the first pawn past it.
            let beyond = args
                .at
                .iter()
                .find(|p| p.x() >= MAX_REGION_SIDE || p.y() >= MAX_REGION_SIDE)
                .unwrap_or(&args.at[0]);
            return Err(UsageError(format!(
                "--play needs a table of values, made for cells below {MAX_REGION_SIDE} x {MAX_REGION_SIDE}; {beyond} is beyond"
            ))
            .into());
        };
        Some(play_out(table, &args.at, || {})?)
    } else {
        None
    };
    let out = if args.json {
        render_json(args, &analysis, &blocked, picture, play.as_deref())?
    } else {
        let analysed = Analysed {
            blocked: &blocked,
            source_name: source_name.as_deref(),
            outcomes: &outcomes,
            analysis: &analysis,
        };
        render_text(args, &analysed, picture, play.as_deref())?
    };
    crate::output::print(&out)?;
    // A list of winning moves that may miss some is a search cut short, as
    // a budget cuts one (exit 3), so that no script takes it for all.
    if analysis.unexamined.is_empty() {
        Ok(ExitCode::SUCCESS)
    } else {
        Ok(ExitCode::from(3))
    }
}

/// The impassable cells of the file given (none without one), with the
/// file's name; a pawn of `--at` on one of them is an error located there.
fn read_blocked(args: &Args) -> anyhow::Result<(Blocked, Option<String>)> {
    let Some(path) = args.file.as_ref().or(args.blocked.as_ref()) else {
        return Ok((Blocked::empty(), None));
    };
    let source = read_source(Some(path))?;
    let parsed = parse_blocked(&source.bytes).map_err(|err| source.error(err))?;
    for (index, &pawn) in args.at.iter().enumerate() {
        if let Some(offset) = parsed.offset_of(pawn) {
            return Err(source
                .error(ParseError::at(
                    &source.bytes,
                    offset,
                    ParseErrorKind::Invalid(format!(
                        "pawn {} (--at {},{}) stands on this impassable cell",
                        index + 1,
                        pawn.x(),
                        pawn.y()
                    )),
                ))
                .into());
        }
    }
    Ok((parsed.blocked, Some(source.name)))
}

/// The JSON line of `grundy pawn --json`, with the play-out and the
/// explanation when asked for.
fn render_json(
    args: &Args,
    analysis: &Analysis,
    blocked: &Blocked,
    picture: Option<Vec<String>>,
    play: Option<&[Step]>,
) -> anyhow::Result<String> {
    let several = args.at.len() > 1;
    let play = play.map(|steps| {
        steps
            .iter()
            .map(|step| {
                let mv = MoveReport {
                    pawn: step.pawn,
                    x: step.to.x(),
                    y: step.to.y(),
                };
                let phrase = words::pawn_move(several.then_some(step.pawn), step.from, step.to);
                ValuedMove::new(mv, &phrase, step.total_after.value())
            })
            .collect()
    });
    let explain = if args.explain && !args.at.is_empty() {
        Some(explain::pawn(analysis, &args.at, blocked)?)
    } else {
        None
    };
    WithPlay {
        report: analysis.report(&args.at, picture),
        play,
        explain,
    }
    .to_line()
}

/// What the text report is made from: the cells read, where from, and
/// the analysis of the pawns.
struct Analysed<'a> {
    blocked: &'a Blocked,
    source_name: Option<&'a str>,
    outcomes: &'a Outcomes,
    analysis: &'a Analysis,
}

/// The text report: the cells read, the pawns' analysis and explanation,
/// the drawn region with its legend, and the play-out.
fn render_text(
    args: &Args,
    analysed: &Analysed<'_>,
    picture: Option<Vec<String>>,
    play: Option<&[Step]>,
) -> anyhow::Result<String> {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Impassable cells: {}{}",
        analysed.blocked.len(),
        analysed
            .source_name
            .map_or(String::new(), |name| format!(" (from {name})"))
    );
    if !args.at.is_empty() {
        let has_moves = engine_move(analysed.analysis, analysed.outcomes, &args.at)?.is_some();
        render(analysed.analysis, &args.at, has_moves, &mut out);
        if args.explain {
            out.push('\n');
            for line in explain::pawn(analysed.analysis, &args.at, analysed.blocked)?.lines() {
                let _ = writeln!(out, "{line}");
            }
        }
    }
    if let Some(picture) = picture {
        if !args.at.is_empty() {
            out.push('\n');
        }
        let (low, high) = args.draw.expect("drawn");
        let _ = writeln!(
            out,
            "Region x {} to {}, y {} to {} (y grows upwards; pawns move left and down):",
            low.x(),
            high.x(),
            low.y(),
            high.y()
        );
        // Only the rows' cells hold a `+` (their labels are numbers).
        let shared = picture.iter().any(|line| line.contains('+'));
        for line in picture {
            let _ = writeln!(out, "{line}");
        }
        let _ = writeln!(out, "{}", x_axis(low, high));
        let _ = writeln!(
            out,
            "  # impassable   * losing (second player wins)   . winning   {}",
            match args.at.len() {
                1 => "P pawn".to_owned(),
                2..=9 => format!("1-{} pawns", args.at.len()),
                _ => "1-9 pawns (P the others)".to_owned(),
            } + if shared {
                "   + pawns sharing a cell"
            } else {
                ""
            }
        );
    }
    if let Some(steps) = play {
        out.push('\n');
        render_play_out(&args.at, steps, &mut out);
    }
    Ok(out)
}

fn render(analysis: &Analysis, pawns: &[Cell], has_moves: bool, out: &mut String) {
    let several = pawns.len() > 1;
    for (index, (&pawn, &(kind, value))) in pawns.iter().zip(&analysis.pawns).enumerate() {
        let label = if several {
            format!("Pawn {}", index + 1)
        } else {
            "Pawn".to_owned()
        };
        let inside = pawn.x() < MAX_REGION_SIDE && pawn.y() < MAX_REGION_SIDE;
        let value = match value {
            Some(v) => format!("grundy {v}"),
            // Within the region, a pawn goes unvalued only when it drops
            // out of a sum settled without values (paired on its cell).
            None if inside => {
                "grundy not computed (it drops out of the sum, paired with a pawn on the same cell)"
                    .to_owned()
            }
            None => format!(
                "grundy not computed (values are computed below {MAX_REGION_SIDE} x {MAX_REGION_SIDE})"
            ),
        };
        let alone = if kind == CellKind::Losing {
            "losing"
        } else {
            "winning"
        };
        let _ = writeln!(out, "{label} at {pawn}: {alone} cell, {value}");
    }
    if several {
        let parts: Vec<String> = analysis
            .pawns
            .iter()
            .map(|(_, v)| v.map_or("?".into(), |v| v.to_string()))
            .collect();
        let total = analysis.total.map_or("?".into(), |t| t.to_string());
        // A value not computed in a settled sum: its pawn has a partner on
        // the same cell, and the two cancel (grundy_report::pawn::by_pairs).
        let paired = if analysis.total.is_some() && analysis.pawns.iter().any(|(_, v)| v.is_none())
        {
            "; the pawns that share a cell cancel in pairs"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "Total grundy value: {total} (= {}{paired})",
            words::xor_names(&parts)
        );
    }
    let _ = writeln!(out, "{}", words::winner_sentence(analysis.first_wins));
    if !has_moves {
        let _ = writeln!(out, "{}", words::NO_MOVES);
        return;
    }
    if analysis.moves.is_empty() && analysis.unexamined.is_empty() {
        let _ = writeln!(out, "{}", words::NO_WINNING_MOVES);
        return;
    }
    if !analysis.unexamined.is_empty() {
        let _ = writeln!(
            out,
            "{}",
            words::unexamined_pawns(&analysis.unexamined, analysis.total.is_some())
        );
    }
    if analysis.moves.is_empty() {
        return;
    }
    let _ = writeln!(out, "{}", words::winning_moves_header(analysis.moves.len()));
    for mv in &analysis.moves {
        let _ = writeln!(out, "  {}", analysis.winning_line(pawns, mv));
    }
}

/// The region's rows, top (`high.y()`) first, each prefixed by its `y`.
fn draw(outcomes: &Outcomes, pawns: &[Cell], low: Cell, high: Cell) -> Vec<String> {
    let label_width = high.y().to_string().len();
    let mut lines = Vec::new();
    for y in (low.y()..=high.y()).rev() {
        let mut line = format!("{y:>label_width$} ");
        for x in low.x()..=high.x() {
            let here = Cell::new(u64::from(x), u64::from(y)).expect("inside the region");
            let mut here_pawns = pawns.iter().enumerate().filter(|&(_, &p)| p == here);
            let mark = if let Some((index, _)) = here_pawns.next() {
                if pawns.len() == 1 {
                    'P'
                } else if here_pawns.next().is_some() {
                    // A cell holds one character: a number would hide the
                    // other pawns there.
                    '+'
                } else {
                    // Pawns are numbered from 1 in text: 1 to 9 fit a cell.
                    char::from_digit(index as u32 + 1, 10).unwrap_or('P')
                }
            } else {
                match outcomes.classify(here) {
                    CellKind::Blocked => '#',
                    CellKind::Losing => '*',
                    CellKind::Winning => '.',
                }
            };
            line.push(mark);
        }
        lines.push(line);
    }
    lines
}

/// The line under [`draw`]'s rows: `x` in the column of the rows' `y`
/// labels, then the `x` of the first column and of every fifth column after
/// it (`x` a multiple of 5) where its number fits, each over its column.
fn x_axis(low: Cell, high: Cell) -> String {
    let label_width = high.y().to_string().len();
    let mut line = format!("{:>label_width$} ", "x");
    let start = line.len();
    // A label every other column while they are one digit (a cell is one
    // character wide), else every fifth.
    let step = if high.x() < 10 { 2 } else { 5 };
    for x in low.x()..=high.x() {
        let column = start + (x - low.x()) as usize;
        let first = x == low.x();
        // One space at least between two numbers.
        if first || (x % step == 0 && line.len() < column) {
            line.extend(std::iter::repeat_n(' ', column - line.len()));
            line.push_str(&x.to_string());
        }
    }
    line
}

/// The play-out in words.
fn render_play_out(start: &[Cell], steps: &[Step], out: &mut String) {
    let several = start.len() > 1;
    let _ = writeln!(out, "{}", words::PLAY_OUT_HEADER);
    for (ply, step) in steps.iter().enumerate() {
        let phrase = words::pawn_move(several.then_some(step.pawn), step.from, step.to);
        let text = words::leaving(&phrase, step.total_after.value());
        let _ = writeln!(out, "{}", words::play_line(ply, &text));
    }
    let _ = writeln!(out, "{}", words::play_end(steps.len()));
}
