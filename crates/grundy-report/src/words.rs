//! The one wording of grundy's front-ends: moves, players, play-outs,
//! counts and drawn grids, as every command of the command line prints them
//! and as the web API sends them (the `text` of a move).
//!
//! Rule: a move is a verb phrase in the user's convention (1-based
//! `(row,col)` for grids, `(x,y)` for the pawn): `clear (1,2)-(1,3)`,
//! `split at (2,4)`, `move pawn (6,5) -> (4,5)`; the board or pawn is named
//! only when there are several (`clear (1,2)-(1,3) on board 2`, `move pawn 2
//! (6,5) -> (4,5)`). A move with its value reads `<move>, leaving grundy
//! <v>`, the value of the whole position after it; a play-out line reads
//! `<n>. <Player>: <move>, leaving grundy <v>`. A change of value reads
//! `3 -> 2` and a nim-sum `1 xor 2` in every sentence ([`TO`], [`XOR`]):
//! plain ASCII, which every terminal, log and script reads alike. Every
//! front-end builds its
//! sentences from these functions and nowhere else, so the same move reads
//! the same from `grundy clear`, `grundy sum`, `grundy split`, `grundy pawn`
//! and the page; the command line's tests check that.

use std::fmt::Write as _;

/// The header of every play-out: the policy every game's engine plays
/// (`engine_move` of each game's module).
pub const PLAY_OUT_HEADER: &str =
    "Play-out (the winner plays winning moves; the loser plays the move leaving the largest value):";

/// Said when the position has no legal move at all.
pub const NO_MOVES: &str = "No moves: the player to move loses.";

/// Said when the position has moves but none wins.
pub const NO_WINNING_MOVES: &str = "No winning moves: every move leaves a non-zero value.";

/// Who moves at `ply` (0-based) of a game: `First player` or `Second
/// player`.
#[must_use]
pub fn player(ply: usize) -> &'static str {
    if ply % 2 == 0 {
        "First player"
    } else {
        "Second player"
    }
}

/// `First player wins.` or `Second player wins.`
#[must_use]
pub fn winner_sentence(first_wins: bool) -> &'static str {
    if first_wins {
        "First player wins."
    } else {
        "Second player wins."
    }
}

/// A rectangle-clearing move: `clear (1,2)-(1,3)`, with ` on board B`
/// (1-based) when `board` (0-based) is given, for a sum of several boards.
#[must_use]
pub fn clear_move(board: Option<usize>, rect: impl std::fmt::Display) -> String {
    match board {
        Some(index) => format!("clear {rect} on board {}", index + 1),
        None => format!("clear {rect}"),
    }
}

/// A splitting-game move: `split at (2,4)`.
#[must_use]
pub fn split_move(cell: grundy::split::Cell) -> String {
    format!("split at {cell}")
}

/// A pawn move: `move pawn (6,5) -> (4,5)`, with the pawn's number
/// (1-based) when `pawn` (0-based) is given, for several pawns.
#[must_use]
pub fn pawn_move(pawn: Option<usize>, from: grundy::pawn::Cell, to: grundy::pawn::Cell) -> String {
    match pawn {
        Some(index) => format!("move pawn {} {from} {TO} {to}", index + 1),
        None => format!("move pawn {from} {TO} {to}"),
    }
}

/// A move that cannot be played, and why: `<move> is illegal: <why>`
/// (`split at (1,2) is illegal: no longer in play: ...`).
#[must_use]
pub fn illegal(phrase: &str, why: &str) -> String {
    format!("{phrase} is illegal: {why}")
}

/// A move with the value it leaves: `<move>, leaving grundy <v>`.
#[must_use]
pub fn leaving(phrase: &str, value: u32) -> String {
    format!("{phrase}, leaving grundy {value}")
}

/// Why a move changes what it changes: `(<what>: grundy <before> ->
/// <after>)`.
#[must_use]
pub fn change(what: &str, before: u32, after: u32) -> String {
    format!("({what}: grundy {before} {TO} {after})")
}

/// The header of a list of `n` winning moves.
#[must_use]
pub fn winning_moves_header(n: usize) -> String {
    format!("Winning moves ({n}):")
}

/// Line `ply` (0-based) of a play-out: `<n>. <Player>: <text>`.
#[must_use]
pub fn play_line(ply: usize, text: &str) -> String {
    format!("{}. {}: {text}", ply + 1, player(ply))
}

/// The last line of a play-out of `plies` moves.
#[must_use]
pub fn play_end(plies: usize) -> String {
    format!("{} cannot move and loses.", player(plies))
}

/// Why a list of a pawn sum's winning moves may not be all: the pawns
/// (0-based, named from 1) that dropped out of a won sum, whose moves are
/// not examined, as a winning one would need their values or, when
/// `total_known` is false, the sum's total (a pawn left in the sum past
/// the region of values).
#[must_use]
pub fn unexamined_pawns(unexamined: &[usize], total_known: bool) -> String {
    let mut names: Vec<String> = unexamined.iter().map(|i| (i + 1).to_string()).collect();
    let (pawns, their) = if names.len() == 1 {
        ("pawn", "its value")
    } else {
        ("pawns", "their values")
    };
    let last = names.pop().unwrap_or_default();
    let listed = if names.is_empty() {
        last
    } else {
        format!("{} and {last}", names.join(", "))
    };
    let needed = if total_known { their } else { "the total" };
    format!(
        "Not every winning move is listed: the moves of {pawns} {listed} are not examined (they drop out of the sum: on a losing cell, value 0, or paired with a pawn on the same cell), as a winning one would need {needed}, computed below {side} x {side} only.",
        side = grundy::pawn::MAX_REGION_SIDE
    )
}

/// `n` and `word`, plural unless `n` is 1: `count(1, "cell")` is
/// `"1 cell"`, `count(3, "cell")` is `"3 cells"`, `count(2, "query")` is
/// `"2 queries"`. (Regular plurals only: every word grundy counts has one.)
#[must_use]
pub fn count(n: u64, word: &str) -> String {
    if n == 1 {
        return format!("1 {word}");
    }
    match word.strip_suffix('y') {
        Some(stem) if !stem.ends_with(['a', 'e', 'o', 'u']) => format!("{n} {stem}ies"),
        _ => format!("{n} {word}s"),
    }
}

/// A byte count for messages: bytes below 1 KiB, else KiB, MiB, GiB or
/// TiB with one decimal (`bytes(3 << 30)` is `"3.0 GiB"`), worded as the
/// engine's errors word sizes ([`grundy::bytes_in_words`]).
#[must_use]
pub fn bytes(n: u64) -> String {
    grundy::bytes_in_words(n)
}

/// Two sizes that a message compares (a need and a limit), worded so that
/// they read apart when they differ ([`grundy::bytes_apart`]): `4.00 MiB`
/// and `4.01 MiB`, not `4.0 MiB` twice.
#[must_use]
pub fn bytes_apart(a: u64, b: u64) -> (String, String) {
    grundy::bytes_apart(a, b)
}

/// A time budget in words, as the engine's errors word it
/// ([`grundy::seconds_in_words`]): `2 s`, `0.01 s`.
#[must_use]
pub fn seconds(span: std::time::Duration) -> String {
    grundy::seconds_in_words(span)
}

/// The indefinite article before `n` read aloud in English: `an` for
/// eight, eleven, eighteen, eighty..., eight hundred..., eleven thousand...
/// (the leading group of three digits starts with 8, or is 11 or 18), `a`
/// otherwise.
#[must_use]
pub fn article(n: u64) -> &'static str {
    let mut lead = n;
    while lead >= 1000 {
        lead /= 1000;
    }
    let first_digit = lead.to_string().as_bytes()[0];
    if first_digit == b'8' || lead == 11 || lead == 18 {
        "an"
    } else {
        "a"
    }
}

/// `a 4 x 4 board`, `an 8 x 8 board`: a size with its article.
#[must_use]
pub fn sized(rows: u64, cols: u64, what: &str) -> String {
    format!("{} {rows} x {cols} {what}", article(rows))
}

/// Who wins with best play, as every front-end says it: `"first"` (the
/// player to move) or `"second"`.
#[must_use]
pub const fn winner(first_wins: bool) -> &'static str {
    if first_wins {
        "first"
    } else {
        "second"
    }
}

/// The progress bar of a tier build (`indicatif`'s template), for the
/// command line and Python alike; `{msg}` carries the overall ETA where
/// the caller knows it.
pub const TIER_BAR_TEMPLATE: &str =
    "{prefix} [{elapsed_precise}] {wide_bar} {pos}/{len} shapes, tier ETA {eta}{msg}";

/// A tier build's line for a stored tier:
/// `tier  5:           12 shapes in     0.01 s`.
#[must_use]
pub fn tier_stored(tier: impl std::fmt::Display, shapes: u64, seconds: f64) -> String {
    format!(
        "tier {tier:>2}: {:>19} in {seconds:>8.2} s",
        count(shapes, "shape")
    )
}

/// A tier build's line for a tier resumed part way:
/// `tier  5: 40% restored from its solved stretches`.
#[must_use]
pub fn tier_restored(tier: impl std::fmt::Display, slots: usize, of: usize) -> String {
    format!(
        "tier {tier:>2}: {:.0}% restored from its solved stretches",
        100.0 * slots as f64 / of.max(1) as f64
    )
}

/// A grid drawn as text with 1-based row and column labels, as the page
/// labels it: a header line of column numbers, then one line per row,
/// its number first; `mark(row, col)` (0-based) gives each cell's
/// character. Each line starts with two spaces and ends with a newline.
#[must_use]
pub fn labelled_grid(rows: usize, cols: usize, mark: impl Fn(usize, usize) -> char) -> String {
    let row_width = rows.to_string().len();
    let col_width = cols.to_string().len();
    let mut out = String::new();
    let _ = write!(out, "  {:row_width$}", "");
    for col in 1..=cols {
        let _ = write!(out, " {col:>col_width$}");
    }
    out.push('\n');
    for row in 0..rows {
        let _ = write!(out, "  {:>row_width$}", row + 1);
        for col in 0..cols {
            let _ = write!(out, " {:>col_width$}", mark(row, col));
        }
        out.push('\n');
    }
    out
}

/// The sign of the nim-sum (XOR) in every sentence: `1 xor 2`.
pub const XOR: &str = "xor";

/// The sign of a change in every sentence: a pawn's `(6,5) -> (4,5)`, a
/// value's `3 -> 2`.
pub const TO: &str = "->";

/// `X xor X = 0`: why equal parts cancel.
pub const PAIR_CANCELS: &str = "X xor X = 0";

/// Why a shape that is its own half turn about an uncovered middle has value
/// 0, said of the shape.
pub const HALF_TURN_SHAPE: &str = "it is its own image under a half turn (a rotation by 180 degrees) about a middle that no rectangle of ones covers, so every reply has its mirror image as an answer";

/// Why a set that is its own half turn about an uncovered point has value 0.
pub const HALF_TURN: &str = "it leaves the shapes that do not cancel (or the whole board) as their own image under a half turn (a rotation by 180 degrees) about a point that no rectangle of ones covers, so every reply has its mirror image as an answer and the value is 0";

/// Names joined by [`XOR`]: `A xor B`.
#[must_use]
pub fn xor_names<S: AsRef<str>>(names: &[S]) -> String {
    names
        .iter()
        .map(AsRef::as_ref)
        .collect::<Vec<_>>()
        .join(&format!(" {XOR} "))
}

/// `First player wins with best play.`: the verdict of a position, which
/// holds only if the winner never errs.
#[must_use]
pub fn with_best_play(first_wins: bool) -> String {
    format!("{} wins with best play.", player(usize::from(!first_wins)))
}

/// How the components of a sum of boards are named, with board `board`'s
/// (0-based) component `letter` as the example: `Each component is named
/// by its board and its letter (1A: component A of board 1).`
#[must_use]
pub fn board_component_names(board: usize, letter: char) -> String {
    let n = board + 1;
    format!("Each component is named by its board and its letter ({n}{letter}: component {letter} of board {n}).")
}

/// A component's letter, as `grundy clear` draws it: `A`..`Z`, `a`..`z`,
/// then `?`.
#[must_use]
pub fn component_letter(index: usize) -> char {
    const LETTERS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    LETTERS.get(index).map_or('?', |&b| b as char)
}

/// Values joined by [`XOR`]: `2 xor 1 xor 3`; `0` for none.
#[must_use]
pub fn xor_terms(values: &[u32]) -> String {
    if values.is_empty() {
        return "0".to_owned();
    }
    xor_names(&values.iter().map(u32::to_string).collect::<Vec<_>>())
}

/// The value of a sum as the XOR of its parts' values: `Grundy value 3 =
/// A xor B = 2 xor 1.`, then what it means for the player to move. `parts`
/// are the parts' names and values; `total` their XOR.
#[must_use]
pub fn value_as_xor(parts: &[(String, u32)], total: u32, has_moves: bool) -> String {
    let names: Vec<&str> = parts.iter().map(|(name, _)| name.as_str()).collect();
    let values: Vec<u32> = parts.iter().map(|&(_, v)| v).collect();
    let sum = match parts.len() {
        0 => format!("Grundy value {total}: nothing is left to play."),
        1 => format!("Grundy value {total} = {}, the only part.", names[0]),
        _ => format!(
            "Grundy value {total} = {} = {}.",
            xor_names(&names),
            xor_terms(&values)
        ),
    };
    let meaning = if parts.is_empty() || !has_moves {
        "It is 0: there is no move, so the player to move loses."
    } else if total == 0 {
        "It is 0: every move leaves a non-zero value, so the player to move loses."
    } else {
        "It is not 0: the player to move wins by a move that leaves 0."
    };
    format!("{sum} {meaning}")
}

/// Why a move wins: the part it changes, from which value to which, and
/// the XOR of every part after it: `A: 2 -> 1, so 1 xor 1 = 0`. `after_all`
/// holds every part's value after the move, the changed one included; a
/// single part reads `A: 2 -> 0`. `pieces` holds the values of the pieces
/// the part falls into, when the move cuts it in two or more (`A: 7 -> 0
/// (A is left in 2 pieces: 3 xor 3 = 0)`), else nothing: the part's new
/// value is their XOR.
#[must_use]
pub fn winning_arithmetic(
    part: &str,
    before: u32,
    after: u32,
    pieces: &[u32],
    after_all: &[u32],
) -> String {
    let total = after_all.iter().fold(0, |acc, v| acc ^ v);
    let split = if pieces.len() > 1 {
        format!(
            " ({part} is left in {} pieces: {} = {after})",
            pieces.len(),
            xor_terms(pieces)
        )
    } else {
        String::new()
    };
    if after_all.len() <= 1 {
        format!("{part}: {before} {TO} {after}{split}")
    } else {
        format!(
            "{part}: {before} {TO} {after}{split}, so {} = {total}",
            xor_terms(after_all)
        )
    }
}

/// Move lists at most this long are shown value by value; longer ones as
/// counts per value.
pub const MEX_LISTED: u64 = 24;

/// Past this many distinct values on one side of the mex, that side is
/// summed up in a phrase rather than listed value by value.
pub const MEX_VALUES_LISTED: usize = 32;

/// The mex of a part: the values its moves leave, sorted, the first missing
/// one marked. `counts` holds each value left with how many moves leave it,
/// sorted by value; `mex` is the first value missing. Up to [`MEX_LISTED`]
/// moves every value is listed (`A: its 4 moves leave 0, 1, 1, [2 missing],
/// 3, so A = mex = 2.`), beyond as counts (`A: its 225 moves leave 0 (4
/// times), 1 (30 times), ..., [8 missing], 9 (2 times), so A = mex = 8.`),
/// and past [`MEX_VALUES_LISTED`] distinct values below or above the mex,
/// that side in one phrase (`every value from 0 to 1094 (4,095 moves)`,
/// `3,000 larger values, 1096 to 4095 (3,000 moves)`).
#[must_use]
pub fn mex_text(part: &str, counts: &[(u32, u64)], mex: u32) -> String {
    let moves: u64 = counts.iter().map(|&(_, n)| n).sum();
    if moves == 0 {
        return format!("{part}: no moves, so {part} = mex of nothing = 0.");
    }
    let listed = moves <= MEX_LISTED;
    let each = |items: &mut Vec<String>, side: &[(u32, u64)]| {
        for &(value, n) in side {
            if listed {
                items.extend(std::iter::repeat_n(value.to_string(), n as usize));
            } else {
                items.push(format!(
                    "{value} ({})",
                    if n == 1 {
                        "once".to_owned()
                    } else {
                        format!("{n} times")
                    }
                ));
            }
        }
    };
    let split = counts.partition_point(|&(value, _)| value < mex);
    let (below, above) = counts.split_at(split);
    let moves_of = |side: &[(u32, u64)]| count(side.iter().map(|&(_, n)| n).sum(), "move");
    let mut items = Vec::new();
    if below.len() > MEX_VALUES_LISTED {
        // Every value below the mex is left: that is what makes it the mex.
        items.push(format!(
            "every value from 0 to {} ({})",
            mex - 1,
            moves_of(below)
        ));
    } else {
        each(&mut items, below);
    }
    items.push(format!("[{mex} missing]"));
    match above {
        [] => {}
        [(first, _), .., (last, _)] if above.len() > MEX_VALUES_LISTED => items.push(format!(
            "{}, {first} to {last} ({})",
            count(above.len() as u64, "larger value"),
            moves_of(above)
        )),
        _ => each(&mut items, above),
    }
    let verb = if moves == 1 { "leaves" } else { "leave" };
    format!(
        "{part}: its {} {verb} {}, so {part} = mex = {mex}.",
        count(moves, "move"),
        items.join(", ")
    )
}

/// The values left by some moves, counted per value and sorted, with
/// their mex (the least value no move leaves).
#[must_use]
pub fn mex_counts(values: impl IntoIterator<Item = u32>) -> (Vec<(u32, u64)>, u32) {
    let mut map = std::collections::BTreeMap::new();
    for value in values {
        *map.entry(value).or_insert(0u64) += 1;
    }
    let mex = (0..)
        .find(|v| !map.contains_key(v))
        .expect("a finite set misses a value");
    (map.into_iter().collect(), mex)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A part with thousands of distinct values left: the values below
    /// the mex, all there, and those above it, each in one phrase whose
    /// counts add up to the moves.
    #[test]
    fn a_long_mex_is_summed_up_on_each_side() {
        let values = (0..40).chain(41..141).chain(41..141);
        let (counts, mex) = mex_counts(values);
        assert_eq!(mex, 40);
        assert_eq!(
            mex_text("A", &counts, mex),
            "A: its 240 moves leave every value from 0 to 39 (40 moves), [40 missing], \
             100 larger values, 41 to 140 (200 moves), so A = mex = 40."
        );
        // Few values on a side: listed with their counts.
        let (counts, mex) = mex_counts((0..30).chain([31, 31]));
        let text = mex_text("B", &counts, mex);
        assert!(
            text.contains("29 (once), [30 missing], 31 (2 times)"),
            "{text}"
        );
    }

    #[test]
    fn articles_follow_the_spoken_number() {
        let an = [
            8, 11, 18, 80, 83, 800, 899, 8000, 11_000, 18_500, 80_000_000,
        ];
        let a = [
            1, 2, 4, 10, 12, 16, 19, 26, 64, 100, 110, 180, 1000, 1_100, 111_000,
        ];
        for n in an {
            assert_eq!(article(n), "an", "{n}");
        }
        for n in a {
            assert_eq!(article(n), "a", "{n}");
        }
        assert_eq!(sized(8, 8, "box"), "an 8 x 8 box");
        assert_eq!(sized(6, 6, "box"), "a 6 x 6 box");
        assert_eq!(count(1, "shape"), "1 shape");
        // The tier lines as their docs show them, the command line's and
        // Python's alike.
        assert_eq!(
            tier_stored(5, 12, 0.0123),
            "tier  5:           12 shapes in     0.01 s"
        );
        assert_eq!(
            tier_restored(26, 61, 100),
            "tier 26: 61% restored from its solved stretches"
        );
        assert_eq!(count(0, "shape"), "0 shapes");
        assert_eq!(count(2, "query"), "2 queries");
        assert_eq!(count(2, "key"), "2 keys");
        assert!(unexamined_pawns(&[0], true).contains("the moves of pawn 1 are"));
        assert!(unexamined_pawns(&[0], true).contains("would need its value,"));
        assert!(unexamined_pawns(&[0, 2, 4], true).contains("the moves of pawns 1, 3 and 5 are"));
        assert!(unexamined_pawns(&[0, 2], false).contains("would need the total,"));
    }

    #[test]
    fn moves_read_the_same_everywhere() {
        use grundy::clear::Rect;
        let rect = Rect {
            top: 0,
            left: 1,
            bottom: 0,
            right: 2,
        };
        assert_eq!(clear_move(None, rect), "clear (1,2)-(1,3)");
        assert_eq!(clear_move(Some(1), rect), "clear (1,2)-(1,3) on board 2");
        assert_eq!(split_move(grundy::split::Cell::new(1, 3)), "split at (2,4)");
        let cell = |x, y| grundy::pawn::Cell::new(x, y).unwrap();
        assert_eq!(
            pawn_move(Some(1), cell(6, 5), cell(4, 5)),
            "move pawn 2 (6,5) -> (4,5)"
        );
        assert_eq!(
            play_line(1, &leaving("split at (2,4)", 0)),
            "2. Second player: split at (2,4), leaving grundy 0"
        );
        assert_eq!(play_end(2), "First player cannot move and loses.");
    }

    #[test]
    fn grids_are_labelled_from_one() {
        let grid = labelled_grid(2, 3, |r, c| if r == c { '1' } else { '.' });
        assert_eq!(grid, "    1 2 3\n  1 1 . .\n  2 . 1 .\n");
        let wide = labelled_grid(1, 10, |_, _| '.');
        assert_eq!(
            wide,
            "     1  2  3  4  5  6  7  8  9 10\n  1  .  .  .  .  .  .  .  .  .  .\n"
        );
    }
    #[test]
    fn explanations_read_as_the_theory() {
        assert_eq!(xor_terms(&[2, 1, 3]), "2 xor 1 xor 3");
        assert_eq!(with_best_play(true), "First player wins with best play.");
        assert_eq!(with_best_play(false), "Second player wins with best play.");
        assert_eq!(
            winning_arithmetic("A", 2, 1, &[], &[1, 1]),
            "A: 2 -> 1, so 1 xor 1 = 0"
        );
        assert_eq!(winning_arithmetic("A", 2, 0, &[], &[0]), "A: 2 -> 0");
        assert_eq!(
            winning_arithmetic("A", 7, 0, &[3, 3], &[0]),
            "A: 7 -> 0 (A is left in 2 pieces: 3 xor 3 = 0)"
        );
        assert_eq!(
            winning_arithmetic("B", 4, 1, &[1, 2, 2], &[1, 0, 1]),
            "B: 4 -> 1 (B is left in 3 pieces: 1 xor 2 xor 2 = 1), so 1 xor 0 xor 1 = 0"
        );
        assert!(value_as_xor(&[("A".into(), 2), ("B".into(), 1)], 3, true)
            .starts_with("Grundy value 3 = A xor B = 2 xor 1."));
        let (counts, mex) = mex_counts([3, 1, 0, 1]);
        assert_eq!((counts.as_slice(), mex), (&[(0, 1), (1, 2), (3, 1)][..], 2));
        assert_eq!(
            mex_text("A", &counts, mex),
            "A: its 4 moves leave 0, 1, 1, [2 missing], 3, so A = mex = 2."
        );
        let (counts, mex) = mex_counts((0..30).map(|i| i % 3));
        assert_eq!(
            mex_text("B", &counts, mex),
            "B: its 30 moves leave 0 (10 times), 1 (10 times), 2 (10 times), [3 missing], so B = mex = 3."
        );
        assert_eq!(
            mex_text("C", &[], 0),
            "C: no moves, so C = mex of nothing = 0."
        );
    }
}
