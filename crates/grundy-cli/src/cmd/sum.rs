//! `grundy sum --queries FILE [BOARDS]`: a row of rectangle-clearing boards
//! played as sums over ranges, with a query script of range values, winners,
//! winning moves and replacements (see [`grundy_cli::queries`]). One output
//! line per query; the answers before a bad line stay printed.
//!
//! A board the budget cannot value does not stop the run: the sum holds it
//! as an empty board (value 0) and remembers it, so every range without it
//! is answered as usual, and so is a range whose unknown boards pair up
//! (congruent boards have equal values: X xor X = 0). Any other range with
//! one gets `unknown` for its value, and
//! its winner and move from the engine (`grundy clear --move`'s
//! `choose_move`), which proves what it can (a move that leaves pairs, an
//! outcome search) within what is left of the time budget and otherwise
//! names its best guess as unproven. The run then ends with the budget's
//! error and exit code 3, after every answer. Congruent boards of a range
//! cancel before they are searched too: a hard board and its copy cost no
//! search until a range holds one alone, and a range they leave lost gets
//! a proven losing move even when the budget is spent.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::time::{Duration, Instant};

use grundy::clear::large::{
    choose_move, Analyzer, EngineChoice, LargeBoard, LargeClear, LargeRect, MoveReason, Part,
    ShapeClass,
};
use grundy::clear::Clear;
use grundy::sum::GameSum;
use grundy::{Budget, SolveError, Solver};
use grundy_cli::queries::{Query, QueryReader};
use grundy_report::parse::clear::parse_large_boards;
use grundy_report::parse::ParseErrorKind;

use crate::cmd::{budget_flag, stopped_naming, BudgetArgs, DEFAULT_BOARD_MEMORY};
use crate::output::{read_source, solver_progress, OverBudgetError, UsageError};
use crate::shape_tables::TablesArgs;
use grundy_report::large::{EngineMoveReport, LargeMoveReport, MoveKind};
use grundy_report::{words, ValuedMove};

/// The time a sum with a board past 64 cells takes at most when
/// `--max-time` is not given, as `grundy clear`'s.
const DEFAULT_LARGE_TIME: std::time::Duration = std::time::Duration::from_secs(30);

/// The fewest ones of a board that a range pairs with a congruent one
/// rather than valuing it ([`Row::pair_pending`]): boards of at most 25
/// ones are valued at once (the built-in 5 x 5 database, the small tables,
/// small components), and a deferred board is paired again at each range
/// that holds it.
const PAIR_FROM_ONES: u64 = 26;

/// The query language, shown by `grundy sum --help`.
const QUERY_HELP: &str = "\
Query script: one query per line; boards are numbered from 1 in the order of
the board file, and L..R includes both ends (1 <= L <= R <= N, 1 <= P <= N).
  value L R    the grundy value of the sum of boards L..R
  winner L R   who wins that sum: first or second (player to move)
  move L R     a winning move in it, worded as `grundy clear` words moves:
               clear (r,c)-(r,c) on board B, leaving grundy 0 (board B:
               grundy X -> Y), corners 1-based and inclusive; on a lost
               sum the engine's move, as `grundy clear --move` words it
               (... : losing position: ...); none when it has no move
  set P        replace board P by the board on the following lines (up to a
               blank line, the next query or the end); prints board P: grundy V
One output line per query. A bad line stops the run with
error: <file>:<line>:<col>: <what> and exit code 2; answers already printed
stay printed.

A board the budget cannot value (board P: grundy unknown) leaves the value of
every range holding it unknown, unless such boards pair up there (congruent
boards cancel: X xor X = 0); their winner and move come from the engine,
as `grundy clear --move` plays: first, second or unknown, and the move
followed by `proven winning: ...`, `losing position: ...` or `unproven: ...`.
The budget is the whole run's: once it is spent, or an engine search (a
move, or such a range's winner) has run out of it, the move is a legal one
found without analysis (`unproven: no analysis ...`), where `grundy clear
--move` would give its search a budget of its own; a range of boards all
valued still gets its move by their values (a millisecond each once the
time is spent).
The run then ends with the budget's error and exit code 3.";

/// `--max-positions` in `sum`'s words: one thread, and `move` queries
/// where `clear` has `--threads` and `--move`.
const MAX_POSITIONS_HELP: &str = "Give up after solving this many distinct shapes. A row's \
boards are searched as boards of any size, whose memo takes more a shape than `grundy clear`'s \
(12 to 24 bytes there): measured peak RSS was 1.63 GB when the default 20,000,000 ran out on \
one dense 7 x 7 board (`value 1 1`); --max-memory bounds it. The memo also keeps the shapes a database \
(--tables) answered, which this count leaves out: up to about twice the memory (560 MB measured \
at 20,000,000 shapes on a 7 x 7 block with the 5 x 6 database). The outcome search of a `move` \
query counts each question it decides as a shape, and keeps the values it rules out beside the \
memo (408 to 416 MB measured at 20,000,000 on a dense 7 x 7 block)";

#[derive(Debug, clap::Args)]
#[command(after_help = QUERY_HELP, mut_arg("max_positions", |arg| arg.help(MAX_POSITIONS_HELP)))]
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
    let max_bytes = args.budget.max_memory.unwrap_or(DEFAULT_BOARD_MEMORY);
    // Boards whose analysis would pass the memory budget but whose cells fit
    // are still answered, as `grundy clear --move` still plays them: each is
    // of unknown value from the start, and every move is a legal one found
    // without analysis. Boards whose cells alone pass it are refused: a
    // budget, not bad input, so exit 3, located like a parse error.
    let (parsed, refused) = match parse_large_boards(&board_source.bytes, Some(max_bytes)) {
        Ok(parsed) => (parsed, None),
        Err(err) => match err.kind {
            ParseErrorKind::OverMemory {
                needs,
                limit,
                cell_bytes,
                ..
            } if cell_bytes <= limit => {
                let parsed = parse_large_boards(&board_source.bytes, None)
                    .map_err(|err| board_source.error(err))?;
                (
                    parsed,
                    Some(SolveError::MemoryBudget { limit, used: needs }),
                )
            }
            ParseErrorKind::OverMemory { .. } => {
                let err = grundy_report::parse::clear::cells_over_memory(err, "`grundy sum`");
                return Err(OverBudgetError(board_source.error(err).to_string()).into());
            }
            _ => return Err(board_source.error(err).into()),
        },
    };
    let boards: Vec<LargeBoard> = parsed.into_iter().map(|b| b.board).collect();
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
    let mut solver = Solver::new(LargeClear::new(Clear::with_shapes(shapes.clone())))
        .with_budget(budget)
        .with_progress(progress);
    // One expansion of a large shape lists every rectangle: the clock and
    // the memory budget bound it too.
    let started = Instant::now();
    let deadline = budget.deadline(started);
    solver.game_mut().set_limits(
        deadline,
        budget
            .max_memory
            .unwrap_or(grundy::clear::large::game::DEFAULT_MAX_OPTION_BYTES),
        budget.max_positions,
    );
    let mut row = Row {
        sum: GameSum::new(solver),
        boards: Vec::with_capacity(boards.len()),
        unknown: BTreeMap::new(),
        classes: HashMap::new(),
        board_classes: HashMap::new(),
        unknown_tags: XorTree::new(boards.len()),
        nonempty: BTreeSet::new(),
        pending: BTreeSet::new(),
        deferred: BTreeSet::new(),
        order: VecDeque::new(),
        stopped: None,
        ran_out: Vec::new(),
        incomplete: false,
        plays_stopped: None,
        shapes,
        budget,
        deadline: deadline.map(|(at, _)| at),
    };
    // The boards are valued fewest ones first, as the answers need them: a
    // hard board early in the row must not spend the run's time before the
    // easy ones after it, and an answer is written as soon as its boards
    // are valued, not after every board.
    let mut order: Vec<usize> = (0..boards.len()).collect();
    order.sort_by_key(|&index| boards[index].count_ones());
    row.order = order.into();
    row.pending = (0..boards.len()).collect();
    for board in boards {
        row.push_unvalued(board);
    }
    let count = row.boards.len();
    if let Some(err) = refused {
        // No board is valued within the budget: each is unknown, and each
        // move is found without analysis.
        for index in 0..count {
            row.pending.remove(&index);
            row.stop(index, err.clone());
        }
        row.order.clear();
        row.plays_stopped = Some(err);
    }

    // Answers are written out in bounded chunks, as the judges do.
    let mut stdout =
        std::io::BufWriter::with_capacity(grundy_cli::judge::FLUSH_AT, crate::output::stdout());
    let result = answer(
        &mut row,
        QueryReader::new(&query_source.bytes, count),
        args.json,
        &mut stdout,
    );
    bar.finish_and_clear();
    // Answers already written stay printed, whatever comes next.
    stdout.flush()?;
    match result? {
        // Exit 3 says that an answer is incomplete; a board the budget left
        // unvalued that no answer needed is no reason for it.
        Ok(()) => match row.stopped {
            Some(err) if row.incomplete => Err(stopped_naming(err, &row.ran_out)),
            _ => Ok(ExitCode::SUCCESS),
        },
        Err(err) => Err(query_source.error(err).into()),
    }
}

/// The row of boards: their sum, with each board the budget could not value
/// held as an empty one and listed in `unknown`.
struct Row {
    sum: GameSum<LargeClear>,
    /// The boards as given (the sum holds an empty board for an unknown one).
    boards: Vec<LargeBoard>,
    /// Each board of unknown value, with the number of its congruence
    /// class in `classes` (`None` for an empty board): two of one class
    /// cancel.
    unknown: BTreeMap<usize, Option<u32>>,
    /// The congruence classes of the boards of unknown value, numbered.
    classes: HashMap<ShapeClass, u32>,
    /// The class of each board whose class was asked ([`Row::class_of`]),
    /// until the board is replaced.
    board_classes: HashMap<usize, Option<u32>>,
    /// A random-looking tag of each unknown board's class, XOR-summed over
    /// ranges: a range whose classes all pair up has XOR 0, so a non-zero
    /// XOR says at once that its value is unknown, and [`Row::known`]
    /// counts the classes only when it is 0 (a long script of moves on
    /// long ranges would count them at every query).
    unknown_tags: XorTree,
    /// The boards with a one: the first of a range is where a move without
    /// analysis is found at once.
    nonempty: BTreeSet<usize>,
    /// The boards not valued yet (held as empty boards).
    pending: BTreeSet<usize>,
    /// Boards not valued yet that a query's range paired with a congruent
    /// board (their values cancel there): held in `unknown` with their
    /// class, and valued only when a range needs one alone.
    deferred: BTreeSet<usize>,
    /// The order in which boards are valued: fewest ones first.
    order: VecDeque<usize>,
    /// The first budget that ran out, for the exit code and the message.
    stopped: Option<SolveError>,
    /// The flags of every budget that ran out, in the order they did: the
    /// message names them all.
    ran_out: Vec<&'static str>,
    /// Whether an answer was left incomplete by a budget (`unknown`, an
    /// unproven move): the run then exits 3.
    incomplete: bool,
    /// The budget an engine search (a move, or a winner of a range of
    /// unknown value) ran out of: later moves are played without one.
    plays_stopped: Option<SolveError>,
    shapes: std::sync::Arc<dyn grundy::clear::shapes::ShapeLookup>,
    budget: Budget,
    /// When the run's time budget ends.
    deadline: Option<Instant>,
}

/// What the engine said of a range that holds a board of unknown value.
struct Played {
    choice: Option<EngineChoice>,
    /// The board, 0-based, that the choice's board 0 is: the range's first,
    /// or its first with a one when the move was found without analysis.
    left: usize,
}

impl Row {
    fn empty() -> Part {
        Part::of(LargeBoard::zeros(1, 1).expect("a 1 x 1 board"))
    }

    /// Starts one search of the row's solver (a board's value, or the
    /// move of a range of known values). `--max-positions` bounds each
    /// search, as it bounds `grundy clear`'s one: a board past it does not
    /// leave the boards after it unvalued, nor their moves unsearched. The
    /// time budget stays the run's (what is left of it), and the memory
    /// budget bounds the memo all searches share.
    fn fresh_search(&mut self) {
        self.search_with_at_least(Duration::ZERO);
    }

    /// [`Row::fresh_search`], with at least `floor` of time even when the
    /// run's is spent.
    fn search_with_at_least(&mut self, floor: Duration) {
        let mut budget = self.budget;
        let now = Instant::now();
        if let Some(deadline) = self.deadline {
            let left = deadline.saturating_duration_since(now);
            budget.max_time = Some(left.max(floor));
        }
        let solver = self.sum.solver_mut();
        solver.set_budget(budget);
        if !floor.is_zero() {
            // A listing the run's budget stopped stops every listing after
            // it: this search's own clock lifts that.
            solver.game_mut().set_limits(
                budget.deadline(now),
                budget
                    .max_memory
                    .unwrap_or(grundy::clear::large::game::DEFAULT_MAX_OPTION_BYTES),
                budget.max_positions,
            );
        }
    }

    /// Notes that `err`'s budget ran out: the first is the run's error, and
    /// every one is named in its message.
    fn note_stop(&mut self, err: SolveError) {
        let flag = budget_flag(&err);
        if !self.ran_out.contains(&flag) {
            self.ran_out.push(flag);
        }
        self.stopped.get_or_insert(err);
    }

    /// `err` as the run's budget words it: a search given what was left of
    /// the time ran out of the run's time.
    fn run_error(&self, mut err: SolveError) -> SolveError {
        if let (SolveError::TimeBudget { limit }, Some(run)) = (&mut err, self.budget.max_time) {
            *limit = run;
        }
        err
    }

    /// Appends `board`, held as an empty board until [`Row::set`] values it.
    fn push_unvalued(&mut self, board: LargeBoard) {
        if !board.is_empty() {
            self.nonempty.insert(self.boards.len());
        }
        self.boards.push(board);
        self.sum
            .push(Row::empty())
            .expect("an empty board needs no search");
    }

    /// Replaces board `index`: its value, or `None` when the budget ran out.
    fn set(&mut self, index: usize, board: LargeBoard) -> Option<grundy::Nimber> {
        self.pending.remove(&index);
        self.deferred.remove(&index);
        self.board_classes.remove(&index);
        if board.is_empty() {
            self.nonempty.remove(&index);
        } else {
            self.nonempty.insert(index);
        }
        self.boards[index] = board;
        self.value_board(index)
    }

    /// Values the boards not valued yet, in their order (fewest ones
    /// first), until none of `left..=right` is left but those that pair up
    /// there ([`Row::pair_pending`]); the answers written so far are
    /// flushed first, as the searches may be long.
    fn ensure(&mut self, left: usize, right: usize, out: &mut impl Write) -> std::io::Result<()> {
        let deferred_here = self.deferred.range(left..=right).next().is_some();
        if self.pending.range(left..=right).next().is_none()
            && (!deferred_here || self.known(left, right))
        {
            return Ok(());
        }
        self.pair_pending(left, right);
        if self.pending.range(left..=right).next().is_none() {
            return Ok(());
        }
        out.flush()?;
        // Deferred boards keep their place in the order, for the range
        // that needs one alone.
        let mut skipped = Vec::new();
        while self.pending.range(left..=right).next().is_some() {
            let Some(index) = self.order.pop_front() else {
                break;
            };
            if self.pending.remove(&index) {
                self.value_board(index);
            } else if self.deferred.contains(&index) {
                skipped.push(index);
            }
        }
        for index in skipped.into_iter().rev() {
            self.order.push_front(index);
        }
        Ok(())
    }

    /// Defers the boards of `left..=right` not valued yet whose values
    /// cancel there: of each congruence class, the boards not valued yet
    /// when, with the class's boards of unknown value in the range, they
    /// are even in number, else all but one. A hard board and its copy in
    /// one range then cost no search at all (X xor X = 0), where valuing
    /// the first would spend the budget on a value the answer does not
    /// need. The boards deferred for an earlier range come back first:
    /// they may not pair in this one.
    fn pair_pending(&mut self, left: usize, right: usize) {
        let back: Vec<usize> = self.deferred.range(left..=right).copied().collect();
        for index in back {
            self.deferred.remove(&index);
            if let Some(class) = self.unknown.remove(&index) {
                self.unknown_tags.toggle(index, tag(class));
            }
            self.pending.insert(index);
        }
        let candidates: Vec<usize> = self
            .pending
            .range(left..=right)
            .copied()
            .filter(|&index| self.boards[index].count_ones() >= PAIR_FROM_ONES)
            .collect();
        if candidates.is_empty() {
            return;
        }
        let mut by_class: BTreeMap<u32, (usize, Vec<usize>)> = BTreeMap::new();
        for index in candidates {
            if let Some(class) = self.class_of(index) {
                by_class.entry(class).or_default().1.push(index);
            }
        }
        for class in self.unknown.range(left..=right).filter_map(|(_, c)| *c) {
            if let Some((unknown, _)) = by_class.get_mut(&class) {
                *unknown += 1;
            }
        }
        for (class, (unknown, boards)) in by_class {
            let paired = if (unknown + boards.len()) % 2 == 0 {
                &boards[..]
            } else {
                &boards[1..]
            };
            for &index in paired {
                self.pending.remove(&index);
                self.deferred.insert(index);
                self.unknown.insert(index, Some(class));
                self.unknown_tags.toggle(index, tag(Some(class)));
            }
        }
    }

    /// The number of the congruence class of board `index`, `None` for an
    /// empty board.
    fn class_of(&mut self, index: usize) -> Option<u32> {
        if let Some(&class) = self.board_classes.get(&index) {
            return class;
        }
        let class = self
            .boards
            .get(index)
            .and_then(LargeBoard::cut)
            .map(|(cut, _, _)| {
                let next = self.classes.len() as u32;
                *self.classes.entry(ShapeClass::of_cut(&cut)).or_insert(next)
            });
        self.board_classes.insert(index, class);
        class
    }

    /// Values board `index` as the row holds it: its value, or `None` when
    /// the budget ran out (the sum then holds it as an empty board).
    fn value_board(&mut self, index: usize) -> Option<grundy::Nimber> {
        let board = self.boards[index].clone();
        self.fresh_search();
        match self.sum.set(index, Part::of(board)) {
            Ok(value) => {
                if let Some(class) = self.unknown.remove(&index) {
                    self.unknown_tags.toggle(index, tag(class));
                }
                Some(value)
            }
            Err(err) => {
                self.stop(index, err);
                self.sum
                    .set(index, Row::empty())
                    .expect("an empty board needs no search");
                None
            }
        }
    }

    fn stop(&mut self, index: usize, err: SolveError) {
        let err = self.run_error(err);
        let class = self.class_of(index);
        if let Some(old) = self.unknown.insert(index, class) {
            self.unknown_tags.toggle(index, tag(old));
        }
        self.unknown_tags.toggle(index, tag(class));
        self.note_stop(err);
    }

    /// True when the value of `left..=right` is known: every board of it
    /// is valued, or those that are not pair up by congruence (their
    /// values cancel, and the sum holds each as empty).
    fn known(&self, left: usize, right: usize) -> bool {
        if self.unknown_tags.range(left, right) != 0 {
            return false;
        }
        let mut odd = std::collections::HashSet::new();
        for class in self.unknown.range(left..=right).map(|(_, class)| class) {
            if !odd.remove(class) {
                odd.insert(class);
            }
        }
        odd.is_empty()
    }

    /// A legal move of `left..=right` found without analysis, in the time
    /// of one board: that of `unanalysed_move` on the range's first board
    /// with a one and the next, if the range has one (the move then never
    /// clears every one of the range).
    fn unanalysed(&self, left: usize, right: usize, err: SolveError) -> Played {
        let mut firsts = self.nonempty.range(left..=right);
        let Some(&first) = firsts.next() else {
            return Played { choice: None, left };
        };
        let boards: Vec<LargeBoard> = std::iter::once(&first)
            .chain(firsts.next())
            .map(|&index| self.boards[index].clone())
            .collect();
        let choice = grundy::clear::large::unanalysed_move(&boards, err);
        Played {
            choice,
            left: first,
        }
    }

    /// The engine's move on `left..=right`, within what is left of the time
    /// budget (a millisecond when none is: the engine always answers).
    fn play(&mut self, left: usize, right: usize) -> Played {
        let spent = match (self.deadline, self.budget.max_time) {
            (Some(deadline), Some(limit)) if Instant::now() >= deadline => {
                Some(SolveError::TimeBudget { limit })
            }
            // A range of known value is searched again: an unknown board's
            // spent search says nothing of it, and its own search is
            // bounded by the budget.
            _ if self.known(left, right) => None,
            _ => self.plays_stopped.clone(),
        };
        if let Some(err) = spent {
            // The run's time is spent, or an earlier move's search on a
            // range of unknown value ran out of the budget (another would
            // again): a legal move without analysis, at once, so that a
            // long script keeps its budget.
            self.note_stop(err.clone());
            return self.unanalysed(left, right, err);
        }
        let mut budget = self.budget;
        // The memory budget bounds the run: the move's search gets what the
        // row's memo does not hold.
        let held = self.sum.solver_mut().held_bytes() as u64;
        if let Some(limit) = budget.max_memory.as_mut() {
            *limit = limit.saturating_sub(held).max(1);
        }
        if let Some(deadline) = self.deadline {
            let left_over = deadline.saturating_duration_since(Instant::now());
            budget.max_time = Some(left_over.max(Duration::from_millis(1)));
        }
        let mut analyzer = Analyzer::new(Clear::with_shapes(self.shapes.clone()), budget);
        let mut choice = choose_move(&self.boards[left..=right], &mut analyzer);
        if let Some(grundy::clear::large::MoveReason::Unproven {
            stopped: Some(err), ..
        }) = choice.as_mut().map(|c| &mut c.reason)
        {
            // What ran out is the run's budget, not the part of it this
            // move was given.
            *err = self.run_error(err.clone());
            if let (SolveError::MemoryBudget { limit, used }, Some(run)) =
                (&mut *err, self.budget.max_memory)
            {
                *limit = run;
                *used = used.saturating_add(held);
            }
            self.note_stop(err.clone());
            self.plays_stopped.get_or_insert(err.clone());
        }
        Played { choice, left }
    }
}

/// Runs every query; the outer error is a failed write or search, the inner
/// one a bad line of the script.
fn answer(
    row: &mut Row,
    queries: QueryReader<'_>,
    json: bool,
    out: &mut impl Write,
) -> anyhow::Result<Result<(), grundy_report::parse::ParseError>> {
    for query in queries {
        let query = match query {
            Ok(query) => query,
            Err(err) => return Ok(Err(err)),
        };
        let winner = grundy_report::clear::winner;
        if let Query::Value { left, right }
        | Query::Winner { left, right }
        | Query::Move { left, right } = query
        {
            row.ensure(left, right, out)?;
        }
        match query {
            Query::Value { left, right } if !row.known(left, right) => {
                row.incomplete = true;
                if json {
                    let line = serde_json::json!({
                        "query": "value", "left": left, "right": right, "grundy": null,
                    });
                    writeln!(out, "{line}")?;
                } else {
                    writeln!(out, "unknown")?;
                }
            }
            Query::Value { left, right } => {
                let value = row.sum.value(left..=right);
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
            Query::Winner { left, right } if !row.known(left, right) => {
                // The answers so far are out before a search that may be
                // long (and whose run may be stopped from outside).
                out.flush()?;
                let played = row.play(left, right);
                let who = match played.choice.as_ref().map(MoveKind::of) {
                    Some(MoveKind::Unproven) => None,
                    Some(MoveKind::Losing) | None => Some(words::winner(false)),
                    Some(MoveKind::Winning) => Some(words::winner(true)),
                };
                row.incomplete |= who.is_none();
                if json {
                    let line = serde_json::json!({
                        "query": "winner", "left": left, "right": right,
                        "grundy": null, "winner": who,
                    });
                    writeln!(out, "{line}")?;
                } else {
                    writeln!(out, "{}", who.unwrap_or("unknown"))?;
                }
            }
            Query::Winner { left, right } => {
                let value = row.sum.value(left..=right);
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
            Query::Move { left, right } => answer_move(row, left, right, json, out)?,
            Query::Set { index, board } => {
                let value = row.set(index, board);
                row.incomplete |= value.is_none();
                if json {
                    let line = serde_json::json!({
                        "query": "set", "board": index, "grundy": value.map(grundy::Nimber::value),
                    });
                    writeln!(out, "{line}")?;
                } else {
                    match value {
                        Some(value) => writeln!(out, "board {}: grundy {value}", index + 1)?,
                        None => writeln!(out, "board {}: grundy unknown", index + 1)?,
                    }
                }
            }
        }
    }
    Ok(Ok(()))
}

/// The answer to a `move` query on boards `left..=right`: by values when
/// every board's is known and the search for a winning move finishes,
/// else the engine's move (a proven win on a range of known value worded
/// as one found by values).
fn answer_move(
    row: &mut Row,
    left: usize,
    right: usize,
    json: bool,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let by_values = if row.known(left, right) {
        // A millisecond even when the run's time is spent, as the engine
        // gets one (`Row::play`): the boards' values are known, so their
        // winning move most often needs no search at all.
        row.search_with_at_least(Duration::from_millis(1));
        match row.sum.winning_move(left..=right) {
            Ok(win) => Some(win),
            Err(err) => {
                let err = row.run_error(err);
                row.note_stop(err);
                None
            }
        }
    } else {
        None
    };
    match by_values {
        Some(Some(win)) => {
            let win = Some((win.index, win.mv, win.from, win.to));
            write_valued_move(out, json, left, right, win)?;
        }
        // A lost range of boards all valued: the move leaving the largest
        // value, each board's found once (a script of many `move` queries
        // on long lost ranges would list every board's options each time).
        Some(None) if row.unknown.range(left..=right).next().is_none() => {
            row.search_with_at_least(Duration::from_millis(1));
            // Among equal values the fewest cells cleared, as the engine
            // of `grundy clear --move` plays a lost position.
            match row.sum.losing_move(left..=right, LargeRect::area) {
                Ok(found) => {
                    let choice = found.map(|m| EngineChoice {
                        board: (m.index - left) as u32,
                        rect: m.mv,
                        component: 0,
                        reason: MoveReason::Losing {
                            leaves: Some(m.from ^ m.to),
                        },
                    });
                    write_engine_move(out, json, left, right, Played { choice, left })?;
                }
                Err(err) => {
                    // The values say the range is lost whatever is
                    // played: a legal move found without analysis is as
                    // proven a losing move, its value left unknown.
                    let err = row.run_error(err);
                    row.note_stop(err.clone());
                    let mut played = row.unanalysed(left, right, err);
                    if let Some(choice) = played.choice.as_mut() {
                        as_losing_move(choice);
                    }
                    write_engine_move(out, json, left, right, played)?;
                }
            }
        }
        // A lost range still gets a move while it has one, as `grundy clear
        // --move` plays one: the engine's, worded as a losing position.
        // Its boards of unknown value pair up (the range is known): the
        // range is lost whatever the engine proves, so a move it could not
        // prove is a losing one, as above.
        Some(None) => {
            out.flush()?;
            let mut played = row.play(left, right);
            if let Some(choice) = played.choice.as_mut() {
                if MoveKind::of(choice) == MoveKind::Unproven {
                    as_losing_move(choice);
                }
            }
            write_played_move(row, out, json, left, right, played)?;
        }
        None => {
            out.flush()?;
            let played = row.play(left, right);
            // On a range of known value, a proven win is a move to a total
            // of 0, worded as one found by values.
            write_played_move(row, out, json, left, right, played)?;
        }
    }
    Ok(())
}

/// A legal move of a range known to be lost, played as the engine plays a
/// lost position it cannot value: the first cell of the move's rectangle,
/// which keeps its shape almost whole, a proven losing move.
fn as_losing_move(choice: &mut EngineChoice) {
    let (top, left) = (choice.rect.top, choice.rect.left);
    choice.rect = LargeRect {
        top,
        left,
        bottom: top,
        right: left,
    };
    choice.reason = MoveReason::Losing { leaves: None };
}

/// The engine's move on a range it played without the values: a proven win
/// on a range of known value worded as one found by values, else as the
/// engine words it (an unproven move leaves the run incomplete).
fn write_played_move(
    row: &mut Row,
    out: &mut impl Write,
    json: bool,
    left: usize,
    right: usize,
    played: Played,
) -> std::io::Result<()> {
    match (row.known(left, right), &played.choice) {
        (true, Some(choice)) if MoveKind::of(choice) == MoveKind::Winning => {
            let index = played.left + choice.board as usize;
            let from = row.sum.value(index..=index);
            let to = from ^ row.sum.value(left..=right);
            let win = Some((index, choice.rect, from, to));
            write_valued_move(out, json, left, right, win)
        }
        _ => {
            row.incomplete |= played
                .choice
                .as_ref()
                .is_some_and(|c| MoveKind::of(c) == MoveKind::Unproven);
            write_engine_move(out, json, left, right, played)
        }
    }
}

/// A winning move found by values, worded as `grundy clear` words moves:
/// the board is always named (a range of a row of boards), and a winning
/// move leaves the range 0.
fn write_valued_move(
    out: &mut impl Write,
    json: bool,
    left: usize,
    right: usize,
    win: Option<(usize, LargeRect, grundy::Nimber, grundy::Nimber)>,
) -> std::io::Result<()> {
    // The text line, why it wins included, is the JSON's `text` too.
    let valued = win.map(|(index, mv, from, to)| {
        let phrase = words::clear_move(Some(index), mv);
        let mut valued = ValuedMove::new(LargeMoveReport::new(index as u32, mv), &phrase, 0);
        valued.text = format!(
            "{} {}",
            valued.text,
            words::change(&format!("board {}", index + 1), from.value(), to.value())
        );
        valued
    });
    if json {
        let line = match valued {
            Some(valued) => serde_json::json!({
                "query": "move", "left": left, "right": right, "move": valued, "proven": true,
                "kind": "winning",
            }),
            None => no_move_json(left, right),
        };
        return writeln!(out, "{line}");
    }
    match valued {
        Some(valued) => writeln!(out, "{}", valued.text),
        None => writeln!(out, "none"),
    }
}

/// The engine's move on a range, with how it was chosen, as `grundy clear
/// --move` says it: `proven winning: ...`, `losing position: ...` or
/// `unproven: ...`.
fn write_engine_move(
    out: &mut impl Write,
    json: bool,
    left: usize,
    right: usize,
    played: Played,
) -> std::io::Result<()> {
    let report = played.choice.map(|mut choice| {
        // The engine numbers the range's boards from 0; the answers name
        // them in the row, always (as if the sum had several boards).
        choice.board += played.left as u32;
        EngineMoveReport::new(&choice, usize::MAX)
    });
    if json {
        let line = match &report {
            Some(r) => serde_json::json!({
                "query": "move", "left": left, "right": right,
                "move": {
                    "board": r.mv.board, "top": r.mv.top, "left": r.mv.left,
                    "bottom": r.mv.bottom, "right": r.mv.right, "grundy": r.grundy, "text": r.text,
                },
                "proven": r.proven,
                "kind": r.kind,
                "reason": r.reason,
            }),
            None => no_move_json(left, right),
        };
        return writeln!(out, "{line}");
    }
    match report {
        Some(report) => writeln!(out, "{}: {}", report.text, report.reason),
        None => writeln!(out, "none"),
    }
}

/// A `move` query's JSON on a range without a move, worded as every
/// game's `--move --json` words it: lost, value 0, and why.
fn no_move_json(left: usize, right: usize) -> serde_json::Value {
    serde_json::json!({
        "query": "move", "left": left, "right": right, "move": null, "proven": true,
        "kind": "none", "grundy": 0, "reason": words::NO_MOVES,
    })
}

/// The tag of a class of boards of unknown value in [`Row::unknown_tags`]:
/// spread over 64 bits (SplitMix64's finaliser), so that unpaired classes
/// rarely XOR to 0; when they do, [`Row::known`] counts them and is still
/// right.
fn tag(class: Option<u32>) -> u64 {
    let mut z = u64::from(class.map_or(0, |c| c + 1)).wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A Fenwick tree of XORs over the row's boards: a board's tag toggled, and
/// the XOR of a range, in O(log n) each.
struct XorTree {
    tree: Vec<u64>,
}

impl XorTree {
    fn new(len: usize) -> XorTree {
        XorTree {
            tree: vec![0; len + 1],
        }
    }

    fn toggle(&mut self, index: usize, tag: u64) {
        let mut at = index + 1;
        while at < self.tree.len() {
            self.tree[at] ^= tag;
            at += at & at.wrapping_neg();
        }
    }

    /// The XOR of the tags of boards `0..end`.
    fn prefix(&self, end: usize) -> u64 {
        let mut at = end;
        let mut xor = 0;
        while at > 0 {
            xor ^= self.tree[at];
            at &= at - 1;
        }
        xor
    }

    /// The XOR of the tags of boards `left..=right`.
    fn range(&self, left: usize, right: usize) -> u64 {
        self.prefix(right + 1) ^ self.prefix(left)
    }
}
