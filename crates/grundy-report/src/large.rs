//! Rectangle clearing on boards of any size: the JSON report, the text
//! summary and the engine's move, worded once for the CLI, the web server
//! and Python.
//!
//! The JSON has the keys of the small boards' report ([`crate::clear::Report`]:
//! `rows`, `cols`, `grundy`, `winner`, `winning_moves`, `components`,
//! `boards`) and adds what only large boards need: `grundy` is `null` and
//! `winner` may be `null` when the budget ran out before the value was
//! known, each winning move has its `text` (how it wins, as the text
//! report words it: by the values, by pairs, by an outcome search),
//! `winning_moves_complete` says whether every winning move is listed,
//! `stopped` gives the budget that ran out, and `classes` lists the
//! shapes met (congruent components are one class; a class met an even
//! number of times cancels). It serialises lazily from the analysis, so a
//! 4096 x 4096 board streams its components' cells instead of building
//! them in memory.
//!
//! The text summarises by size and value, and draws the board only up to
//! [`DRAW_LIMIT`] rows and columns.

use std::fmt::Write as _;

use grundy::clear::large::{
    half_turn, ComponentInfo, EngineChoice, Guess, LargeAnalysis, LargeRect, LargeWinningMove,
    MoveReason, Part, WinReason,
};
use grundy::Nimber;
use serde::ser::{SerializeMap, SerializeSeq, Serializer};
use serde::Serialize;

use crate::words;

/// The largest side drawn in full by the text report.
pub const DRAW_LIMIT: u32 = 64;

/// The JSON report of a [`LargeAnalysis`] (see the module docs).
#[derive(Clone, Copy, Debug)]
pub struct LargeReport<'a> {
    /// The analysis.
    pub analysis: &'a LargeAnalysis,
}

/// `"first"`, `"second"`, or `None` when unknown.
#[must_use]
pub fn winner(analysis: &LargeAnalysis) -> Option<&'static str> {
    analysis.first_player_wins.map(crate::words::winner)
}

/// What a partial analysis proves, for a front-end that shows it beside
/// its "too large" message: the winner when known, the value when known,
/// and the winning moves found, each worded by [`winning_line`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Proven {
    /// `"first"`, `"second"`, or `None` when unknown.
    pub winner: Option<&'static str>,
    /// The value, when known.
    pub grundy: Option<u32>,
    /// The winning moves found (not always all of them).
    pub winning_moves: Vec<ProvenMove>,
}

/// A winning move of [`Proven`], with its words.
pub type ProvenMove = crate::Lined<LargeMoveReport>;

impl Proven {
    /// What `analysis` proves.
    #[must_use]
    pub fn of(analysis: &LargeAnalysis) -> Proven {
        let several = analysis.sizes.len() > 1;
        Proven {
            winner: winner(analysis),
            grundy: analysis.value.map(Nimber::value),
            winning_moves: analysis
                .winning
                .iter()
                .map(|m| ProvenMove {
                    mv: LargeMoveReport::new(
                        analysis.components[m.component as usize].board,
                        m.rect,
                    ),
                    text: winning_line(analysis, m, several),
                })
                .collect(),
        }
    }
}

/// A move of a large board in JSON: `board`, then the rectangle's corners,
/// 0-based and inclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LargeMoveReport {
    /// The board, 0-based.
    pub board: u32,
    /// First row.
    pub top: u32,
    /// First column.
    pub left: u32,
    /// Last row (inclusive).
    pub bottom: u32,
    /// Last column (inclusive).
    pub right: u32,
}

impl LargeMoveReport {
    /// The move clearing `rect` on board `board`.
    #[must_use]
    pub fn new(board: u32, rect: LargeRect) -> LargeMoveReport {
        LargeMoveReport {
            board,
            top: rect.top,
            left: rect.left,
            bottom: rect.bottom,
            right: rect.right,
        }
    }
}

impl Serialize for LargeReport<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let a = self.analysis;
        let (rows, cols) = a.sizes.first().copied().unwrap_or((0, 0));
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("rows", &rows)?;
        map.serialize_entry("cols", &cols)?;
        map.serialize_entry("grundy", &a.value.map(Nimber::value))?;
        map.serialize_entry("winner", &winner(a))?;
        map.serialize_entry("winning_moves", &WinningMoves(a))?;
        map.serialize_entry("winning_moves_complete", &a.winning_complete)?;
        map.serialize_entry("stopped", &a.stopped.as_ref().map(ToString::to_string))?;
        map.serialize_entry("components", &BoardComponents(a, 0))?;
        map.serialize_entry("classes", &Classes(a))?;
        map.serialize_entry("boards", &Boards(a))?;
        map.end()
    }
}

struct WinningMoves<'a>(&'a LargeAnalysis);

impl Serialize for WinningMoves<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let a = self.0;
        let several = a.sizes.len() > 1;
        let mut seq = serializer.serialize_seq(Some(a.winning.len()))?;
        for m in &a.winning {
            let board = a.components[m.component as usize].board;
            seq.serialize_element(&ProvenMove {
                mv: LargeMoveReport::new(board, m.rect),
                text: winning_line(a, m, several),
            })?;
        }
        seq.end()
    }
}

struct BoardComponents<'a>(&'a LargeAnalysis, u32);

impl Serialize for BoardComponents<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (a, board) = (self.0, self.1);
        let mut seq = serializer.serialize_seq(None)?;
        for (index, info) in a.components.iter().enumerate() {
            if info.board == board {
                seq.serialize_element(&Component(a, index, *info))?;
            }
        }
        seq.end()
    }
}

struct Component<'a>(&'a LargeAnalysis, usize, ComponentInfo);

impl Serialize for Component<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (a, index, info) = (self.0, self.1, self.2);
        let mut map = serializer.serialize_map(Some(3))?;
        map.serialize_entry("cells", &Cells(a, index))?;
        map.serialize_entry(
            "grundy",
            &a.classes[info.class as usize].value.map(Nimber::value),
        )?;
        map.serialize_entry("class", &info.class)?;
        map.end()
    }
}

struct Cells<'a>(&'a LargeAnalysis, usize);

impl Serialize for Cells<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let runs = self.0.component_runs(self.1);
        let mut seq = serializer.serialize_seq(None)?;
        for run in runs {
            for col in run.start..run.end {
                seq.serialize_element(&[run.row, col])?;
            }
        }
        seq.end()
    }
}

struct Classes<'a>(&'a LargeAnalysis);

impl Serialize for Classes<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Class {
            cells: u64,
            count: u32,
            grundy: Option<u32>,
            cancels: bool,
        }
        let mut seq = serializer.serialize_seq(Some(self.0.classes.len()))?;
        for class in &self.0.classes {
            seq.serialize_element(&Class {
                cells: class.cells,
                count: class.count,
                grundy: class.value.map(Nimber::value),
                cancels: class.cancels(),
            })?;
        }
        seq.end()
    }
}

struct Boards<'a>(&'a LargeAnalysis);

impl Serialize for Boards<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let a = self.0;
        let mut seq = serializer.serialize_seq(Some(a.sizes.len()))?;
        for (index, &(rows, cols)) in a.sizes.iter().enumerate() {
            struct Board<'a>(&'a LargeAnalysis, u32, u32, u32);
            impl Serialize for Board<'_> {
                fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                    let mut map = serializer.serialize_map(Some(4))?;
                    map.serialize_entry("rows", &self.2)?;
                    map.serialize_entry("cols", &self.3)?;
                    map.serialize_entry(
                        "grundy",
                        &self.0.board_value(self.1 as usize).map(Nimber::value),
                    )?;
                    map.serialize_entry("components", &BoardComponents(self.0, self.1))?;
                    map.end()
                }
            }
            seq.serialize_element(&Board(a, index as u32, rows, cols))?;
        }
        seq.end()
    }
}

/// How a component is named in text: its letter on a drawn board with at
/// most 52 components, else its first cell (1-based).
#[must_use]
pub fn component_name(analysis: &LargeAnalysis, index: usize) -> String {
    let info = analysis.components[index];
    // Counted to 53 at most: a name is asked for each line listed.
    let on_board = analysis
        .components
        .iter()
        .filter(|c| c.board == info.board)
        .take(53)
        .count();
    let (rows, cols) = analysis.sizes[info.board as usize];
    if on_board <= 52 && rows <= DRAW_LIMIT && cols <= DRAW_LIMIT {
        let several = analysis.sizes.len() > 1;
        format!(
            "component {}",
            crate::explain::component_name(several, info.board as usize, info.local as usize)
        )
    } else {
        let run = analysis.component_runs(index)[0];
        format!("the component at ({},{})", run.row + 1, run.start + 1)
    }
}

fn value_text(value: Option<Nimber>) -> String {
    value.map_or_else(|| "unknown".to_owned(), |v| v.to_string())
}

/// The text report: per board a summary (and the drawing when small
/// enough), the classes by size and value, pairs that cancel, the total,
/// the winner and every winning move (at most `max_moves` listed).
#[must_use]
pub fn render(analysis: &LargeAnalysis, max_moves: usize) -> String {
    let mut out = String::new();
    let several = analysis.sizes.len() > 1;
    for (board, &(rows, cols)) in analysis.sizes.iter().enumerate() {
        let title = if several {
            format!("Board {}", board + 1)
        } else {
            "Board".to_owned()
        };
        let on_board: Vec<usize> = (0..analysis.components.len())
            .filter(|&i| analysis.components[i].board as usize == board)
            .collect();
        let ones: u64 = on_board
            .iter()
            .map(|&i| analysis.components[i].extent.cells)
            .sum();
        let _ = writeln!(
            out,
            "{title} ({rows} x {cols}): {}, {}.",
            words::count(ones, "one"),
            words::count(on_board.len() as u64, "component")
        );
        if rows <= DRAW_LIMIT && cols <= DRAW_LIMIT {
            draw(analysis, board, &on_board, &mut out);
        }
        if on_board.is_empty() {
            let _ = writeln!(out, "  (no ones: no moves)");
        }
        let _ = writeln!(
            out,
            "{title} grundy value: {}\n",
            value_text(analysis.board_value(board))
        );
    }
    summary_by_shape(analysis, &mut out);
    // Each shape with an odd count leaves one component out of its pairs.
    let left = analysis.unpaired().count();
    let components: u64 = analysis.classes.iter().map(|c| u64::from(c.count)).sum();
    let paired = components - left as u64;
    if paired > 0 {
        let _ = writeln!(
            out,
            "Pairs: {paired} of the {} cancel in pairs, as equal shapes have equal values ({}); {} left.",
            words::count(components, "component"),
            words::PAIR_CANCELS,
            match left {
                0 => "none is".to_owned(),
                1 => "1 is".to_owned(),
                _ => format!("{left} are"),
            }
        );
    }
    let left_words = if left == 1 {
        "the 1 component left".to_owned()
    } else {
        format!("the {left} components left")
    };
    let valued = analysis.unpaired().filter(|c| c.value.is_some()).count();
    match analysis.value {
        Some(_) if left == 0 => {
            let _ = writeln!(out, "Total grundy value: 0 (every component cancels)");
        }
        Some(value) => {
            let _ = writeln!(out, "Total grundy value: {value} (the XOR of {left_words})");
        }
        None => {
            let _ = writeln!(
                out,
                "Total grundy value: unknown: {valued} of {left_words} valued before the budget ran out{}",
                analysis
                    .stopped
                    .as_ref()
                    .map(|e| format!(" ({e})"))
                    .unwrap_or_default()
            );
        }
    }
    match analysis.first_player_wins {
        Some(first) => {
            let _ = writeln!(out, "{}", words::with_best_play(first));
        }
        None => {
            let _ = writeln!(out, "Winner: unknown within the budget.");
        }
    }
    if analysis.components.is_empty() {
        let _ = writeln!(out, "{}", words::NO_MOVES);
        return out;
    }
    if analysis.value.is_some_and(Nimber::is_zero) {
        let _ = writeln!(out, "{}", words::NO_WINNING_MOVES);
        return out;
    }
    if analysis.winning.is_empty() && analysis.value.is_none() {
        return out;
    }
    let header = words::winning_moves_header(analysis.winning.len());
    if analysis.winning_complete {
        let _ = writeln!(out, "{header}");
    } else {
        let n = analysis.winning.len();
        let _ = writeln!(
            out,
            "Winning moves found ({n}; the budget ran out before every one was found):"
        );
    }
    for m in analysis.winning.iter().take(max_moves) {
        let _ = writeln!(out, "  {}", winning_line(analysis, m, several));
    }
    if analysis.winning.len() > max_moves {
        let _ = writeln!(
            out,
            "  ... and {} more (--json lists them all)",
            analysis.winning.len() - max_moves
        );
    }
    out
}

/// One winning move in words: `clear (1,2)-(1,2), leaving grundy 0
/// (component A: grundy 2 -> 1)`, or with the pairs it leaves.
#[must_use]
pub fn winning_line(analysis: &LargeAnalysis, m: &LargeWinningMove, several: bool) -> String {
    let info = analysis.components[m.component as usize];
    let phrase = words::clear_move(several.then_some(info.board as usize), m.rect);
    let (height, width) = (
        m.rect.bottom - m.rect.top + 1,
        m.rect.right - m.rect.left + 1,
    );
    // Only a lone component can be cleared at once (and counting the ones
    // of millions of components for each line listed would cost seconds).
    let clears_all =
        analysis.components.len() == 1 && u64::from(height) * u64::from(width) == analysis.ones();
    let why = match m.reason {
        _ if clears_all => "(it clears every one: the opponent cannot move)".to_owned(),
        WinReason::Values { before, after } => words::change(
            &component_name(analysis, m.component as usize),
            before.value(),
            after.value(),
        ),
        WinReason::Pairs { halves: true } => {
            format!("(it cuts a shape into two equal halves, and every shape left has an equal partner: {})", words::PAIR_CANCELS)
        }
        WinReason::Pairs { halves: false } => {
            format!("(every shape left has an equal partner: {})", words::PAIR_CANCELS)
        }
        WinReason::HalfTurn => format!("({})", words::HALF_TURN),
        WinReason::LeavesZero if analysis.components.len() == 1 => {
            "(proven by outcome search, without the values)".to_owned()
        }
        WinReason::LeavesZero if analysis.others_cancel_by_values() => format!(
            "(the other shapes that do not cancel have values whose XOR is 0, so the total is the value of {}, and the move leaves it a shape of value 0: proven by outcome search, without its value)",
            component_name(analysis, m.component as usize)
        ),
        WinReason::LeavesZero => format!(
            "({} is the only shape that does not cancel, and the move leaves it a shape of value 0: proven by outcome search, without the values)",
            component_name(analysis, m.component as usize)
        ),
    };
    format!("{} {why}", words::leaving(&phrase, 0))
}

/// The classes by cell count and value: `cells  grundy  components`.
fn summary_by_shape(analysis: &LargeAnalysis, out: &mut String) {
    let mut rows: std::collections::BTreeMap<(u64, Option<u32>), (u64, usize)> =
        std::collections::BTreeMap::new();
    for class in &analysis.classes {
        let entry = rows
            .entry((class.cells, class.value.map(Nimber::value)))
            .or_default();
        entry.0 += u64::from(class.count);
        entry.1 += 1;
    }
    if rows.is_empty() {
        return;
    }
    let _ = writeln!(out, "Components by size and value:");
    let _ = writeln!(
        out,
        "  {:>8}  {:>8}  {:>10}  {:>7}",
        "cells", "grundy", "components", "shapes"
    );
    let mut unknown = false;
    for ((cells, value), (count, shapes)) in rows {
        unknown |= value.is_none();
        let value = value.map_or_else(|| "?".to_owned(), |v| v.to_string());
        let _ = writeln!(out, "  {cells:>8}  {value:>8}  {count:>10}  {shapes:>7}");
    }
    if unknown {
        let cancelling = analysis
            .classes
            .iter()
            .any(|c| c.value.is_none() && c.cancels());
        let stopped = analysis
            .classes
            .iter()
            .any(|c| c.value.is_none() && !c.cancels());
        let why = match (cancelling, stopped) {
            (true, false) => "its copies cancel in pairs, so its value is not needed",
            (false, _) => "the budget ran out before it was valued",
            (true, true) => {
                "its copies cancel in pairs, or the budget ran out before it was valued"
            }
        };
        let _ = writeln!(out, "  (grundy ?: {why})");
    }
    // A value 0 found without a search is worth its reason: a reader sees a
    // ring of hundreds of cells valued at once.
    let by_half_turn = analysis
        .classes
        .iter()
        .filter(|c| c.value == Some(Nimber::ZERO))
        .filter(|c| match analysis.part(c.first as usize) {
            Part::Large(shape) => half_turn::is_lost(&shape),
            Part::Small(_) => false,
        })
        .count();
    if by_half_turn > 0 {
        let _ = writeln!(
            out,
            "  (grundy 0 without a search for {}: {})",
            if by_half_turn == 1 {
                "1 shape".to_owned()
            } else {
                format!("{by_half_turn} shapes")
            },
            words::HALF_TURN_SHAPE
        );
    }
    out.push('\n');
}

/// The board with its components lettered (or `1` past 52 components).
fn draw(analysis: &LargeAnalysis, board: usize, on_board: &[usize], out: &mut String) {
    let (rows, cols) = analysis.sizes[board];
    let mut marks = vec!['.'; rows as usize * cols as usize];
    for (n, &index) in on_board.iter().enumerate() {
        let mark = if on_board.len() <= 52 {
            words::component_letter(n)
        } else {
            '1'
        };
        for run in analysis.component_runs(index) {
            for col in run.start..run.end {
                marks[run.row as usize * cols as usize + col as usize] = mark;
            }
        }
    }
    out.push_str(&words::labelled_grid(
        rows as usize,
        cols as usize,
        |r, c| marks[r * cols as usize + c],
    ));
}

/// The engine's move in JSON: `{"move": {...}, "proven", "kind", "reason"}`.
pub type EngineMoveReport = crate::EngineMove<LargeMoveReport>;

impl EngineMoveReport {
    /// The report of `choice` on a sum of `boards` boards.
    #[must_use]
    pub fn new(choice: &EngineChoice, boards: usize) -> EngineMoveReport {
        EngineMoveReport {
            mv: LargeMoveReport::new(choice.board, choice.rect),
            proven: choice.proven(),
            kind: kind(choice),
            grundy: leaves(choice),
            reason: reason(choice),
            text: words::clear_move((boards > 1).then_some(choice.board as usize), choice.rect),
        }
    }
}

/// What the engine's move is known to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    /// Proven to win.
    Winning,
    /// Every move loses: the position is lost.
    Losing,
    /// The budget ran out before a proof.
    Unproven,
}

impl MoveKind {
    /// The kind of the engine's choice.
    #[must_use]
    pub fn of(choice: &EngineChoice) -> MoveKind {
        match choice.reason {
            MoveReason::Losing { .. } => MoveKind::Losing,
            MoveReason::Unproven { .. } | MoveReason::Unanalysed { .. } => MoveKind::Unproven,
            _ => MoveKind::Winning,
        }
    }

    /// `"winning"`, `"losing"` or `"unproven"`, as the JSON says it.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            MoveKind::Winning => "winning",
            MoveKind::Losing => "losing",
            MoveKind::Unproven => "unproven",
        }
    }
}

/// `"winning"`, `"losing"` or `"unproven"`.
#[must_use]
pub fn kind(choice: &EngineChoice) -> &'static str {
    MoveKind::of(choice).as_str()
}

/// The value of the whole position after the engine's move, when known: 0
/// after a winning move, the value left after a losing one whose options
/// were valued.
#[must_use]
pub fn leaves(choice: &EngineChoice) -> Option<u32> {
    match choice.reason {
        MoveReason::Losing { leaves } => leaves.map(Nimber::value),
        _ => choice.wins().then_some(0),
    }
}

/// Why the engine plays its move, in the theory's words.
#[must_use]
pub fn reason(choice: &EngineChoice) -> String {
    match &choice.reason {
        MoveReason::Values {
            before,
            after,
            total,
        } => format!(
            "proven winning: the total (the XOR of every component's value) is {total}; this move takes one component from {before} to {after}, so the total becomes {} = 0 (the old value cancels out, the new one comes in)",
            words::xor_terms(&[total.value(), before.value(), after.value()])
        ),
        MoveReason::LeavesZero => {
            "proven winning: leaves a total of 0; an outcome search showed that every reply has an answer back to 0, without computing the values".to_owned()
        }
        MoveReason::HalfTurn => format!("proven winning: {}", words::HALF_TURN),
        MoveReason::KnownTotal => {
            "proven winning: leaves a total of 0; every shape it leaves and every other shape that does not cancel has a known value, and their XOR is 0 (the value of the shape it is played in is not needed)".to_owned()
        }
        MoveReason::Pairs {
            clears_all: true, ..
        } => "proven winning: it clears every one: the opponent cannot move".to_owned(),
        MoveReason::Pairs { halves: true, .. } => {
            format!("proven winning: it cuts a shape into two equal halves, and every shape left has an equal partner: {}", words::PAIR_CANCELS)
        }
        MoveReason::Pairs { halves: false, .. } => {
            format!("proven winning: every shape left has an equal partner: {}", words::PAIR_CANCELS)
        }
        MoveReason::Losing { leaves: Some(v) } => format!(
            "losing position: the total is 0, so every move loses; this one leaves {v}, the largest value a move leaves (chosen as likely the hardest to answer)"
        ),
        MoveReason::Losing { leaves: None } => {
            "losing position: the total is 0, so every move loses; this one clears a single cell, keeping its shape almost whole".to_owned()
        }
        MoveReason::Unproven {
            valued,
            unpaired,
            largest,
            stopped,
            guess,
        } if valued == unpaired => format!(
            "unproven: every shape that does not cancel is valued and the total is not 0, but the budget ran out{} before the options of a shape were valued to find the move to a total of 0 (the largest shape has {}); best guess: {}",
            stopped.as_ref().map(|e| format!(" ({e})")).unwrap_or_default(),
            words::count(*largest, "cell"),
            guess_words(*guess),
        ),
        MoveReason::Unproven {
            valued,
            unpaired,
            largest,
            stopped,
            guess,
        } => format!(
            "unproven: the budget ran out{} with {valued} of {} that {} not cancel valued (the largest has {}); best guess: {}",
            stopped.as_ref().map(|e| format!(" ({e})")).unwrap_or_default(),
            words::count(*unpaired as u64, "shape"),
            if *unpaired == 1 { "does" } else { "do" },
            words::count(*largest, "cell"),
            guess_words(*guess),
        ),
        MoveReason::Unanalysed { stopped } => format!(
            "unproven: no analysis ({stopped}); a legal move: the first run of ones, cleared"
        ),
        _ => "unproven".to_owned(),
    }
}

/// How an unproven move was chosen, in the words of its reason.
fn guess_words(guess: Guess) -> String {
    match guess {
        Guess::Halves => "this move cuts the largest shape left alone into two halves".to_owned(),
        Guess::FewestUnpaired => {
            "of the first moves tried in the largest shape left alone, this one leaves the fewest unpaired cells".to_owned()
        }
        Guess::FirstCell => {
            "no time was left to try moves: this one clears the first cell of the largest shape left alone".to_owned()
        }
        Guess::NotShownToLose { refuted: 0, moves } => format!(
            "the search had not yet shown any of the {} of the shape left alone to lose: this is the first",
            words::count(moves as u64, "move")
        ),
        Guess::NotShownToLose { refuted, moves } => format!(
            "the search showed {refuted} of the {} of the shape left alone to lose: this is the first of the others",
            words::count(moves as u64, "move")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use grundy::clear::large::LargeRect;

    fn choice(reason: MoveReason) -> EngineChoice {
        EngineChoice {
            board: 0,
            rect: LargeRect {
                top: 0,
                left: 0,
                bottom: 0,
                right: 0,
            },
            component: 0,
            reason,
        }
    }

    /// An unproven move whose shapes were all valued says so, rather than
    /// "8 of 8 shapes valued"; one with shapes left unvalued counts them.
    #[test]
    fn an_unproven_reason_says_how_far_the_values_got() {
        let unproven = |valued| MoveReason::Unproven {
            valued,
            unpaired: 8,
            largest: 30,
            stopped: None,
            guess: Guess::Halves,
        };
        let all = reason(&choice(unproven(8)));
        assert!(
            all.starts_with(
                "unproven: every shape that does not cancel is valued and the total is not 0, \
                 but the budget ran out"
            ),
            "{all}"
        );
        let some = reason(&choice(unproven(3)));
        assert!(
            some.contains("with 3 of 8 shapes that do not cancel valued"),
            "{some}"
        );
        assert_eq!(kind(&choice(unproven(8))), "unproven");
        assert_eq!(kind(&choice(MoveReason::KnownTotal)), "winning");
    }

    /// An unproven move's reason says how it was chosen, each way in its
    /// own words.
    #[test]
    fn an_unproven_reason_names_its_guess() {
        let guessed = |guess| {
            reason(&choice(MoveReason::Unproven {
                valued: 0,
                unpaired: 1,
                largest: 30,
                stopped: None,
                guess,
            }))
        };
        assert!(guessed(Guess::Halves)
            .ends_with("best guess: this move cuts the largest shape left alone into two halves"));
        assert!(
            guessed(Guess::FewestUnpaired).contains("this one leaves the fewest unpaired cells")
        );
        assert!(guessed(Guess::FirstCell)
            .contains("no time was left to try moves: this one clears the first cell"));
        assert!(guessed(Guess::NotShownToLose {
            refuted: 29,
            moves: 192
        })
        .ends_with(
            "best guess: the search showed 29 of the 192 moves of the shape left alone to lose: this is the first of the others"
        ));
        assert!(guessed(Guess::NotShownToLose {
            refuted: 0,
            moves: 1
        })
        .ends_with("had not yet shown any of the 1 move of the shape left alone to lose: this is the first"));
    }
}
