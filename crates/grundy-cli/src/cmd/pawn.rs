//! `grundy pawn`: pawns on a grid with impassable cells.
//!
//! For one pawn anywhere up to 10^9: the winner and the winning moves (the
//! losing cells it can reach, at most one along its row and one down its
//! column), from the online structure. When the pawns lie below
//! 4096 x 4096, also the Grundy values; several pawns are a sum, whose
//! total is the XOR of their values and whose winning moves say which pawn
//! goes where. `--draw` pictures a small region; `--json` prints the same
//! analysis for scripts.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use grundy::pawn::{Blocked, Cell, CellKind, Outcomes, MAX_REGION_SIDE};
use grundy_cli::input::{ParseError, ParseErrorKind};
use grundy_cli::pawns::{parse_blocked, parse_cell, parse_region};
use grundy_report::pawn::{Analysis, AnalysisError};

use crate::output::{read_source, UsageError};

/// The largest side of a `--draw` region.
const MAX_DRAW_SIDE: u64 = 200;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// File of impassable cells, one `X Y` per line (`#` starts a comment);
    /// `-` reads standard input. Without it no cell is impassable.
    #[arg(long, value_name = "FILE")]
    blocked: Option<PathBuf>,
    /// A pawn's cell, `X,Y` (0..=1000000000); repeat for a sum of pawns that
    /// ignore each other.
    #[arg(long = "at", value_name = "X,Y", value_parser = parse_cell, allow_hyphen_values = true)]
    at: Vec<Cell>,
    /// Draw the region with corners X0,Y0 and X1,Y1 (inclusive, at most
    /// 200 x 200): `#` impassable, `*` losing, `.` winning, the pawns by
    /// number (or `P` for one).
    #[arg(long, value_name = "X0,Y0,X1,Y1", value_parser = parse_region, allow_hyphen_values = true)]
    draw: Option<(Cell, Cell)>,
    /// Print the analysis as JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    if args.at.is_empty() && args.draw.is_none() {
        return Err(UsageError("give a pawn with --at X,Y, or a region with --draw".into()).into());
    }
    let (blocked, source_name) = match &args.blocked {
        None => (Blocked::empty(), None),
        Some(path) => {
            let source = read_source(Some(path))?;
            let parsed = parse_blocked(&source.bytes).map_err(|err| source.error(err))?;
            for (index, &pawn) in args.at.iter().enumerate() {
                if let Some(offset) = parsed.offset_of(pawn) {
                    return Err(source
                        .error(ParseError::at(
                            &source.bytes,
                            offset,
                            ParseErrorKind::Invalid(format!(
                                "pawn {index} (--at {},{}) stands on this impassable cell",
                                pawn.x(),
                                pawn.y()
                            )),
                        ))
                        .into());
                }
            }
            (parsed.blocked, Some(source.name))
        }
    };
    if let Some((low, high)) = args.draw {
        let (width, height) = (
            u64::from(high.x() - low.x()) + 1,
            u64::from(high.y() - low.y()) + 1,
        );
        if width > MAX_DRAW_SIDE || height > MAX_DRAW_SIDE {
            return Err(UsageError(format!(
                "--draw: a {width} x {height} region is too large to draw; sides are at most {MAX_DRAW_SIDE}"
            ))
            .into());
        }
    }
    let outcomes = Outcomes::new(&blocked);
    let analysis = Analysis::of(&blocked, &outcomes, &args.at).map_err(|err| match err {
        AnalysisError::SumBeyondRegion { .. } => anyhow::Error::new(UsageError(err.to_string())),
        other => anyhow::Error::new(other),
    })?;
    let picture = args
        .draw
        .map(|(low, high)| draw(&outcomes, &args.at, low, high));
    let mut out = String::new();
    if args.json {
        out = serde_json::to_string(&analysis.report(&args.at, picture))
            .context("serialising JSON")?;
        out.push('\n');
    } else {
        let _ = writeln!(
            out,
            "Impassable cells: {}{}",
            blocked.len(),
            source_name.map_or(String::new(), |name| format!(" (from {name})"))
        );
        if !args.at.is_empty() {
            render(&analysis, &args.at, &mut out);
        }
        if let Some(picture) = picture {
            if !args.at.is_empty() {
                out.push('\n');
            }
            let (low, high) = args.draw.expect("drawn");
            let _ = writeln!(
                out,
                "Region x {}..={}, y {}..={} (y grows upwards; pawns move left and down):",
                low.x(),
                high.x(),
                low.y(),
                high.y()
            );
            for line in picture {
                let _ = writeln!(out, "{line}");
            }
            let _ = writeln!(
                out,
                "  # impassable   * losing (second player wins)   . winning   {} pawn",
                if args.at.len() > 1 { "0-9" } else { "P" }
            );
        }
    }
    print!("{out}");
    Ok(ExitCode::SUCCESS)
}

fn render(analysis: &Analysis, pawns: &[Cell], out: &mut String) {
    let several = pawns.len() > 1;
    for (index, (&pawn, &(kind, value))) in pawns.iter().zip(&analysis.pawns).enumerate() {
        let label = if several {
            format!("Pawn {index}")
        } else {
            "Pawn".to_owned()
        };
        let value = match value {
                Some(v) => format!("grundy {v}"),
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
        let _ = writeln!(
            out,
            "Total grundy value: {total} (= {})",
            parts.join(" xor ")
        );
    }
    let _ = writeln!(
        out,
        "{}",
        if analysis.first_wins {
            "First player wins."
        } else {
            "Second player wins."
        }
    );
    if analysis.moves.is_empty() {
        let _ = writeln!(
            out,
            "No winning moves: every move leaves {}.",
            if several {
                "a non-zero total"
            } else {
                "a winning cell to the opponent"
            }
        );
        return;
    }
    let _ = writeln!(out, "Winning moves ({}):", analysis.moves.len());
    for mv in &analysis.moves {
        let from = pawns[mv.pawn];
        let direction = if mv.to.y() == from.y() {
            "along the row"
        } else {
            "down the column"
        };
        let who = if several {
            format!("pawn {}: ", mv.pawn)
        } else {
            String::new()
        };
        let why = match (analysis.pawns[mv.pawn].1, mv.after) {
            (Some(before), Some(after)) if several => {
                format!("grundy {before} -> {after}, total 0")
            }
            _ => "to a losing cell".to_owned(),
        };
        let _ = writeln!(out, "  {who}{from} -> {} {direction}, {why}", mv.to);
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
            let mark = if let Some(index) = pawns.iter().position(|&p| p == here) {
                if pawns.len() == 1 {
                    'P'
                } else {
                    char::from_digit(index as u32, 10).unwrap_or('P')
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
