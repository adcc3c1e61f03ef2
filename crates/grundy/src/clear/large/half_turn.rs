//! Positions won or lost by a half turn: the mirror strategy about a point.
//!
//! **Rule.** Let a set of cells be its own image under a half turn (a
//! rotation by 180 degrees) about a point `c`, and let no rectangle of ones
//! cover `c`: the middle block (the one or two middle rows by the one or
//! two middle columns around `c`) is not all ones. Then its value is 0,
//! whatever its shape: every rectangle `R` the opponent clears misses `c`,
//! so `R` and its image are disjoint (two boxes that are each other's image
//! overlap exactly when both cover `c`), the image is still all ones after
//! `R` is cleared, and clearing it restores the symmetry with `c` still
//! uncovered. A frame of any size, or any ring around an empty middle, is
//! lost for the player to move. A symmetric set whose middle block is all
//! ones is won: clearing the middle block leaves the first case.
//!
//! This is what the pairs of the engine (`X ⊕ X = 0`) cannot see: a ring
//! is one component, its own partner.
//!
//! **Algorithm.** [`is_lost`] compares a shape cut to its box with its half
//! turn (word operations, O(words)). [`winning_move`] looks for the move
//! that leaves a set symmetric about some point: for a candidate point, the
//! cells whose image is not in the set must form one rectangle of ones
//! (then it is the move), and the middle block of what is left must not be
//! all ones. The candidates are the middle of the set's box, then the
//! points shifted from it along one axis by up to the box's side, then
//! along both, nearest first: after the opponent cleared a rectangle `R`
//! from a symmetric set, the box is the old box unless `R` covered a whole
//! end of it, and then only that end moved (`R`'s image, still there,
//! holds the other end), along one axis or, for a corner, both. So the
//! answer to every reply in a symmetric set is found, within the words the
//! search may compare (below): the rectangle the reply's image is, with the
//! middle of the old box.
//!
//! **Cost.** A candidate point compares the set's rows with those of its
//! half turn, moved, and stops at the first row that is not one run of a
//! rectangle, so most points cost a row or two; `2 (rows + cols)`
//! points along one axis and `4 rows cols` along both, with the budget
//! asked every [`CHECK_EVERY`], and at most 2^23 words compared,
//! each point counted as 16 more (or 8 times the set's
//! words, if more): every point of a box of up to about 350 x 350.
//!
//! **Why it is correct.** The move is checked, not assumed: what it leaves
//! is the set's cells whose images are in the set, which is symmetric (the
//! half turn swaps a cell and its image), and its middle block is read
//! cell by cell. The tests compare with a brute force on every small case.

use super::grid::{LargeBoard, LargeRect};

/// How many candidate points [`winning_move`] tries between two calls of
/// its `halted`.
pub const CHECK_EVERY: usize = 16;

/// The middle block of a set symmetric about the point whose coordinates,
/// doubled, are `(rows2, cols2)`: the middle row (an even sum) or the two
/// rows around the point (an odd one), by the same of columns.
fn middle_block(rows2: i64, cols2: i64) -> (i64, i64, i64, i64) {
    (
        rows2.div_euclid(2),
        (rows2 + 1).div_euclid(2),
        cols2.div_euclid(2),
        (cols2 + 1).div_euclid(2),
    )
}

/// True when `shape` (cut to its box) is its own half turn about the box's
/// middle and its middle block is not all ones: a position of value 0 by
/// the mirror strategy (see the module docs).
#[must_use]
pub fn is_lost(shape: &LargeBoard) -> bool {
    let (rows, cols) = (shape.rows(), shape.cols());
    if rows == 0 || cols == 0 {
        return false;
    }
    let (top, bottom, left, right) = middle_block(i64::from(rows - 1), i64::from(cols - 1));
    let middle = LargeRect {
        top: top as u32,
        left: left as u32,
        bottom: bottom as u32,
        right: right as u32,
    };
    // The middle block first, then the rows from the outside in: on most
    // shapes a few words say no, with nothing allocated.
    if shape.is_legal(middle) {
        return false;
    }
    (0..rows.div_ceil(2)).all(|r| {
        let (row, image) = (shape.row_words(r), shape.row_words(rows - 1 - r));
        (0..row.len()).all(|w| mirrored_word(image, cols, w) == row[w])
    })
}

/// Word `w` of row `words` of a board `cols` wide with its columns in
/// reverse order.
fn mirrored_word(words: &[u64], cols: u32, w: usize) -> u64 {
    // Reversing the padded bits puts column `c` at `64 * words - 1 - c`;
    // the mirror wants `cols - 1 - c`, `pad` lower (the padding is zero).
    let pad = words.len() * 64 - cols as usize;
    let from = w * 64 + pad;
    let reversed = |i: usize| {
        words
            .len()
            .checked_sub(i + 1)
            .map_or(0, |at| words[at].reverse_bits())
    };
    let (word, shift) = (from / 64, from % 64);
    if shift == 0 {
        reversed(word)
    } else {
        reversed(word) >> shift | reversed(word + 1) << (64 - shift)
    }
}

/// The one run of ones of a row of `stride` words given word by word, its
/// first and last columns; `Ok(None)` when it has none, and `Err(())` at
/// the word where a second run shows, without reading the words after it
/// (most candidate points of [`winning_move`] fail in their first row's
/// first word or two). `read` counts the words read.
fn single_run(
    stride: usize,
    word: impl Fn(usize) -> u64,
    read: &mut u64,
) -> Result<Option<(u32, u32)>, ()> {
    let mut start: Option<u32> = None;
    let mut end: Option<u32> = None;
    for w in 0..stride {
        *read += 1;
        let bits = word(w);
        let base = (w * 64) as u32;
        if bits == 0 {
            if start.is_some() && end.is_none() {
                end = Some(base);
            }
            continue;
        }
        if end.is_some() {
            return Err(());
        }
        let (at, bits) = match start {
            None => {
                let at = bits.trailing_zeros();
                start = Some(base + at);
                (at, bits >> at)
            }
            // The run went on to the word's edge: it goes on here, or
            // another run begins.
            Some(_) if bits & 1 == 0 => return Err(()),
            Some(_) => (0, bits),
        };
        let ones = (!bits).trailing_zeros();
        if at + ones < 64 {
            // It ends in this word, and nothing may follow it.
            if bits >> ones != 0 {
                return Err(());
            }
            end = Some(base + at + ones);
        }
    }
    Ok(start.map(|first| (first, end.unwrap_or((stride * 64) as u32) - 1)))
}

/// The 64 bits of `words` (a row, bit `c % 64` of word `c / 64` is column
/// `c`) from column `from` on, zeros outside the row.
fn bits_from(words: &[u64], from: i64) -> u64 {
    let word = from.div_euclid(64);
    let shift = from.rem_euclid(64) as u32;
    let at = |i: i64| {
        usize::try_from(i)
            .ok()
            .and_then(|i| words.get(i))
            .copied()
            .unwrap_or(0)
    };
    if shift == 0 {
        at(word)
    } else {
        at(word) >> shift | at(word + 1) << (64 - shift)
    }
}

/// A move of `set` (cut to its box) that leaves a set that is its own half
/// turn about some point with the middle block not all ones, which then has
/// value 0 (see the module docs); in the box's coordinates. `None` when no
/// candidate point gives one, or when `halted` says so.
#[must_use]
pub fn winning_move(set: &LargeBoard, halted: &dyn Fn() -> bool) -> Option<LargeRect> {
    let (rows, cols) = (i64::from(set.rows()), i64::from(set.cols()));
    if rows == 0 || cols == 0 {
        return None;
    }
    let turned = set.transform(3);
    // Along both axes at once, nearest first: a reply that cleared a
    // corner of `d` rows and columns is answered about the point `d` away.
    let both = (1..rows.max(cols)).flat_map(move |d| {
        let ring = move |dr: i64, dc: i64| {
            (dr.abs() < rows && dc.abs() < cols && dr.abs().max(dc.abs()) == d).then_some((dr, dc))
        };
        (-d..=d)
            .flat_map(move |dr| (-d..=d).map(move |dc| (dr, dc)))
            .filter(|&(dr, dc)| dr != 0 && dc != 0)
            .filter_map(move |(dr, dc)| ring(dr, dc))
    });
    let shifts = std::iter::once((0, 0))
        .chain(
            (1..rows)
                .flat_map(|k| [(-k, 0), (k, 0)])
                .chain((1..cols).flat_map(|k| [(0, -k), (0, k)])),
        )
        .chain(both);
    let stride = set.row_words(0).len();
    let most = MAX_WORDS.max(WORDS_PER_SET_WORD * rows as u64 * stride as u64);
    let mut words = 0;
    for (tried, (dr, dc)) in shifts.enumerate() {
        if tried % CHECK_EVERY == CHECK_EVERY - 1 && halted() || words > most {
            return None;
        }
        words += CANDIDATE_WORDS;
        if let Some(rect) = move_about(set, &turned, dr, dc, &mut words) {
            return Some(rect);
        }
    }
    None
}

/// The words of rows [`winning_move`] compares at most over all its
/// candidates, each candidate counted as [`CANDIDATE_WORDS`] more, or
/// [`WORDS_PER_SET_WORD`] times the set's own words when that is more:
/// about a tenth of a second. Most candidates stop in their first row's
/// first word or two, but a box of `n x n` has `4 n^2` points along both
/// axes, and a row of a long thin board is thousands of words, with as
/// many candidates as columns (there the values of its runs, known at
/// once, find a winning move instead).
const MAX_WORDS: u64 = 1 << 23;

/// What a candidate costs besides its words, in words: measured on random
/// sets, a candidate that fails in its first word takes about as long as
/// comparing 16 words.
const CANDIDATE_WORDS: u64 = 16;

/// See [`MAX_WORDS`].
const WORDS_PER_SET_WORD: u64 = 8;

/// The move of [`winning_move`] for the point whose half turn maps the box's
/// cell `(r, c)` to `(rows - 1 - r + dr, cols - 1 - c + dc)`: `turned` (the
/// set's half turn within its box) moved by `(dr, dc)` is the set's image.
/// `words` counts the words of rows compared.
fn move_about(
    set: &LargeBoard,
    turned: &LargeBoard,
    dr: i64,
    dc: i64,
    words: &mut u64,
) -> Option<LargeRect> {
    let (rows, cols) = (i64::from(set.rows()), i64::from(set.cols()));
    let stride = set.row_words(0).len();
    // The rectangle of the cells whose image is missing, grown row by row.
    let mut rect: Option<LargeRect> = None;
    for r in 0..rows {
        let have = set.row_words(r as u32);
        let from = r - dr;
        let image = (0..rows)
            .contains(&from)
            .then(|| turned.row_words(from as u32));
        let unmatched = |w: usize| {
            let image = image.map_or(0, |words| bits_from(words, w as i64 * 64 - dc));
            have[w] & !image
        };
        let Ok(span) = single_run(stride, unmatched, words) else {
            return None;
        };
        let Some((left, right)) = span else {
            continue;
        };
        let row = r as u32;
        match rect.as_mut() {
            None => {
                rect = Some(LargeRect {
                    top: row,
                    left,
                    bottom: row,
                    right,
                });
            }
            Some(found) => {
                if found.bottom + 1 != row || found.left != left || found.right != right {
                    return None;
                }
                found.bottom = row;
            }
        }
    }
    // What is left is the cells whose image is in the set; with none
    // unmatched, the set itself, whose move is its middle block.
    let (top, bottom, left, right) = middle_block(rows - 1 + dr, cols - 1 + dc);
    let left_after = |r: i64, c: i64| {
        (0..rows).contains(&r)
            && (0..cols).contains(&c)
            && set.get(r as u32, c as u32)
            && !rect.is_some_and(|m| {
                (i64::from(m.top)..=i64::from(m.bottom)).contains(&r)
                    && (i64::from(m.left)..=i64::from(m.right)).contains(&c)
            })
    };
    let middle_all_ones = (top..=bottom).all(|r| (left..=right).all(|c| left_after(r, c)));
    match rect {
        Some(found) if !middle_all_ones => Some(found),
        Some(_) => None,
        None if middle_all_ones => Some(LargeRect {
            top: top as u32,
            left: left as u32,
            bottom: bottom as u32,
            right: right as u32,
        }),
        None => None,
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    /// The runs of ones of `words`, read bit by bit.
    fn runs(words: &[u64]) -> Vec<(u32, u32)> {
        let bit = |c: u32| words[(c / 64) as usize] >> (c % 64) & 1 != 0;
        let cols = 64 * words.len() as u32;
        let mut found = Vec::new();
        let mut c = 0;
        while c < cols {
            if bit(c) {
                let start = c;
                while c < cols && bit(c) {
                    c += 1;
                }
                found.push((start, c - 1));
            } else {
                c += 1;
            }
        }
        found
    }

    proptest! {
        /// `single_run` gives the one run, none, or an error exactly when
        /// the bit-by-bit reading finds two or more; runs made of a few
        /// words of ones and zeros cross the words' edges.
        #[test]
        fn single_run_agrees_with_reading_bit_by_bit(
            words in proptest::collection::vec(
                prop_oneof![Just(0u64), Just(u64::MAX), any::<u64>(), (0u32..64).prop_map(|k| u64::MAX << k), (0u32..64).prop_map(|k| u64::MAX >> k)],
                1..5,
            )
        ) {
            let mut read = 0;
            let got = super::single_run(words.len(), |w| words[w], &mut read);
            let want = runs(&words);
            match want.len() {
                0 => prop_assert_eq!(got, Ok(None)),
                1 => prop_assert_eq!(got, Ok(Some(want[0]))),
                _ => prop_assert_eq!(got, Err(())),
            }
            prop_assert!(read <= words.len() as u64);
        }
    }
}
