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
use grundy::pawn::{
    Blocked, Cell, CellKind, Outcomes, PawnSum, ValueTable, WinningMoves, MAX_REGION_SIDE,
};
use grundy::Nimber;
use grundy_cli::input::{ParseError, ParseErrorKind};
use grundy_cli::pawns::{parse_blocked, parse_cell, parse_region};
use serde::Serialize;

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
    let analysis = Analysis::of(&blocked, &outcomes, &args.at)?;
    let picture = args
        .draw
        .map(|(low, high)| draw(&outcomes, &args.at, low, high));
    let mut out = String::new();
    if args.json {
        out =
            serde_json::to_string(&analysis.json(&args.at, picture)).context("serialising JSON")?;
        out.push('\n');
    } else {
        let _ = writeln!(
            out,
            "Impassable cells: {}{}",
            blocked.len(),
            source_name.map_or(String::new(), |name| format!(" (from {name})"))
        );
        if !args.at.is_empty() {
            analysis.render(&args.at, &mut out);
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

/// Why a winning move wins, for the text output.
struct Move {
    pawn: usize,
    to: Cell,
    /// The moved pawn's value after the move, when values are known.
    after: Option<Nimber>,
}

struct Analysis {
    /// Per pawn: its outcome alone and its value when computed.
    pawns: Vec<(CellKind, Option<Nimber>)>,
    /// The total value, when every pawn's value is known.
    total: Option<Nimber>,
    first_wins: bool,
    moves: Vec<Move>,
}

impl Analysis {
    fn of(blocked: &Blocked, outcomes: &Outcomes, pawns: &[Cell]) -> anyhow::Result<Analysis> {
        let kinds: Vec<CellKind> = pawns.iter().map(|&p| outcomes.classify(p)).collect();
        let in_region = pawns
            .iter()
            .all(|p| p.x() < MAX_REGION_SIDE && p.y() < MAX_REGION_SIDE);
        if !in_region {
            if pawns.len() > 1 {
                let (index, far) = pawns
                    .iter()
                    .enumerate()
                    .find(|(_, p)| p.x() >= MAX_REGION_SIDE || p.y() >= MAX_REGION_SIDE)
                    .expect("one is outside");
                return Err(UsageError(format!(
                    "a sum of pawns needs Grundy values, which are computed for cells below \
                     {MAX_REGION_SIDE} x {MAX_REGION_SIDE}; pawn {index} at {far} is beyond"
                ))
                .into());
            }
            // One pawn far away: the outcome and the moves to losing cells.
            let pawn = pawns[0];
            let moves: WinningMoves = outcomes.winning_moves(pawn)?;
            return Ok(Analysis {
                pawns: vec![(kinds[0], None)],
                total: None,
                first_wins: kinds[0] == CellKind::Winning,
                moves: moves
                    .iter()
                    .map(|to| Move {
                        pawn: 0,
                        to,
                        after: None,
                    })
                    .collect(),
            });
        }
        if pawns.is_empty() {
            return Ok(Analysis {
                pawns: Vec::new(),
                total: None,
                first_wins: false,
                moves: Vec::new(),
            });
        }
        let table = ValueTable::covering(blocked, pawns)?;
        let sum = PawnSum::new(&table, pawns)?;
        let moves = sum
            .winning_moves
            .iter()
            .map(|&(pawn, to)| Move {
                pawn,
                to,
                after: table.value(to),
            })
            .collect();
        Ok(Analysis {
            pawns: kinds
                .into_iter()
                .zip(sum.values.iter().map(|&v| Some(v)))
                .collect(),
            total: Some(sum.total),
            first_wins: !sum.total.is_zero(),
            moves,
        })
    }

    fn render(&self, pawns: &[Cell], out: &mut String) {
        let several = pawns.len() > 1;
        for (index, (&pawn, &(kind, value))) in pawns.iter().zip(&self.pawns).enumerate() {
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
            let parts: Vec<String> = self
                .pawns
                .iter()
                .map(|(_, v)| v.map_or("?".into(), |v| v.to_string()))
                .collect();
            let total = self.total.map_or("?".into(), |t| t.to_string());
            let _ = writeln!(
                out,
                "Total grundy value: {total} (= {})",
                parts.join(" xor ")
            );
        }
        let _ = writeln!(
            out,
            "{}",
            if self.first_wins {
                "First player wins."
            } else {
                "Second player wins."
            }
        );
        if self.moves.is_empty() {
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
        let _ = writeln!(out, "Winning moves ({}):", self.moves.len());
        for mv in &self.moves {
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
            let why = match (self.pawns[mv.pawn].1, mv.after) {
                (Some(before), Some(after)) if several => {
                    format!("grundy {before} -> {after}, total 0")
                }
                _ => "to a losing cell".to_owned(),
            };
            let _ = writeln!(out, "  {who}{from} -> {} {direction}, {why}", mv.to);
        }
    }

    fn json(&self, pawns: &[Cell], picture: Option<Vec<String>>) -> JsonAnalysis {
        JsonAnalysis {
            winner: if pawns.is_empty() {
                None
            } else if self.first_wins {
                Some("first")
            } else {
                Some("second")
            },
            grundy: self.total.map(Nimber::value),
            winning_moves: self
                .moves
                .iter()
                .map(|mv| JsonMove {
                    pawn: mv.pawn,
                    x: mv.to.x(),
                    y: mv.to.y(),
                })
                .collect(),
            pawns: pawns
                .iter()
                .zip(&self.pawns)
                .map(|(&pawn, &(kind, value))| JsonPawn {
                    x: pawn.x(),
                    y: pawn.y(),
                    losing: kind == CellKind::Losing,
                    grundy: value.map(Nimber::value),
                })
                .collect(),
            picture,
        }
    }
}

#[derive(Serialize)]
struct JsonAnalysis {
    #[serde(skip_serializing_if = "Option::is_none")]
    winner: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    grundy: Option<u32>,
    winning_moves: Vec<JsonMove>,
    pawns: Vec<JsonPawn>,
    #[serde(skip_serializing_if = "Option::is_none")]
    picture: Option<Vec<String>>,
}

#[derive(Serialize)]
struct JsonMove {
    pawn: usize,
    x: u32,
    y: u32,
}

#[derive(Serialize)]
struct JsonPawn {
    x: u32,
    y: u32,
    /// True when this pawn's cell alone is a second-player win.
    losing: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    grundy: Option<u32>,
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
