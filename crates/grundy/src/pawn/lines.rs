//! The sweep over lines (rows, or columns of the transposed grid) that finds
//! every losing cell, stored as diagonal runs and per-line lists.
//!
//! Vocabulary: a *line* is a row `y` (or a column), a *position* is `x` along
//! it; *across* is the other direction. See the module docs of
//! [`crate::pawn`] for why the sweep is correct.

use super::MAX_COORD;

/// What a cell is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CellKind {
    /// Impassable.
    Blocked,
    /// The player to move from here loses (value 0).
    Losing,
    /// The player to move from here wins.
    Winning,
}

/// Marks a piece that is a line with impassable cells (the low bits index
/// the blocked lines); other pieces are diagonal runs holding their first
/// losing position.
const BLOCKED_LINE: u64 = 1 << 63;

/// Past every position: the end of the last slot.
const INFINITY: u64 = u64::MAX >> 2;

/// Every losing cell of the grid, line by line: the lines `0..=MAX_COORD`
/// are cut into *pieces*, each either a band of lines without impassable
/// cells whose losing cells form a diagonal run (position `p0 + (line -
/// start)`), or one line with impassable cells and its list of losing
/// positions (at most one per segment between impassable cells).
///
/// Built once in O(N log N) ([`LosingLines::new`]); each query is one binary
/// search over the pieces plus, on a line with impassable cells, two over
/// that line's short lists: O(log N), online.
///
/// # Examples
///
/// ```
/// use grundy::pawn::{Blocked, Cell, CellKind, LosingLines};
/// let cell = |x, y| Cell::new(x, y).unwrap();
/// let blocked = Blocked::new(&[cell(1, 1), cell(4, 2)]).unwrap();
/// let rows = LosingLines::rows(&blocked);
/// assert_eq!(rows.classify(2, 2), CellKind::Winning); // x = 2, y = 2
/// assert_eq!(rows.classify(2, 1), CellKind::Losing); // x = 1, y = 2
/// assert_eq!(rows.classify(1, 1), CellKind::Blocked);
/// assert_eq!(rows.classify(5, 6), CellKind::Losing); // x = 6, y = 5
/// // Row 5 has no impassable cell: from (7, 5) the move along the row to a
/// // losing cell goes to (6, 5).
/// assert_eq!(rows.losing_before(5, 7), Some(6));
/// ```
#[derive(Clone, Debug)]
pub struct LosingLines {
    /// First line of each piece, strictly increasing, starting at 0.
    piece_start: Vec<u32>,
    /// Per piece: the run's first losing position, or `BLOCKED_LINE | index`.
    piece: Vec<u64>,
    /// The impassable cells as `line << 32 | position`, strictly increasing.
    keys: Vec<u64>,
    /// Per blocked line (and one past the end): its first index in `keys`.
    keys_start: Vec<u32>,
    /// The losing positions of the blocked lines, line by line.
    losing: Vec<u64>,
    /// Per blocked line (and one past the end): its first index in `losing`.
    losing_start: Vec<u32>,
}

impl LosingLines {
    /// The losing cells by rows: lines are rows `y`, positions are `x`.
    #[must_use]
    pub fn rows(blocked: &super::Blocked) -> LosingLines {
        LosingLines::from_keys(blocked.row_keys().to_vec())
    }

    /// As [`LosingLines::rows`], consuming the set (no copy of the cells).
    #[must_use]
    pub fn rows_of(blocked: super::Blocked) -> LosingLines {
        LosingLines::from_keys(blocked.into_row_keys())
    }

    /// The losing cells by columns: lines are columns `x`, positions are `y`.
    #[must_use]
    pub fn columns(blocked: &super::Blocked) -> LosingLines {
        LosingLines::from_keys(blocked.column_keys())
    }

    /// Sweeps the lines given impassable cells as `line << 32 | position`,
    /// strictly increasing, both parts at most [`MAX_COORD`].
    pub(crate) fn from_keys(keys: Vec<u64>) -> LosingLines {
        debug_assert!(keys.windows(2).all(|w| w[0] < w[1]));
        let slots = Slots::new(&keys);
        Sweep {
            slots,
            out: LosingLines {
                piece_start: Vec::with_capacity(2 * keys.len() + 1),
                piece: Vec::with_capacity(2 * keys.len() + 1),
                keys_start: Vec::new(),
                losing: Vec::with_capacity(keys.len() + 1),
                losing_start: Vec::new(),
                keys,
            },
        }
        .run()
    }

    /// Number of pieces (diagonal runs and lines with impassable cells): a
    /// measure of the structure's size, O(N).
    #[must_use]
    pub fn pieces(&self) -> usize {
        self.piece.len()
    }

    #[inline]
    fn piece_of(&self, line: u32) -> usize {
        // piece_start[0] == 0, so the partition point is at least 1.
        self.piece_start.partition_point(|&s| s <= line) - 1
    }

    /// The impassable and the losing positions of blocked line `index`.
    #[inline]
    fn blocked_line(&self, index: usize) -> (&[u64], &[u64]) {
        let keys = &self.keys[self.keys_start[index] as usize..self.keys_start[index + 1] as usize];
        let losing =
            &self.losing[self.losing_start[index] as usize..self.losing_start[index + 1] as usize];
        (keys, losing)
    }

    /// What the cell at `position` on `line` is.
    #[inline]
    #[must_use]
    pub fn classify(&self, line: u32, position: u32) -> CellKind {
        self.classify_in(self.piece_of(line), line, position)
    }

    /// A cursor for queries sorted by line: see [`LineCursor`].
    #[must_use]
    pub fn cursor(&self) -> LineCursor<'_> {
        LineCursor {
            lines: self,
            index: 0,
        }
    }

    /// [`LosingLines::classify`] with the piece of `line` known.
    #[inline]
    fn classify_in(&self, index: usize, line: u32, position: u32) -> CellKind {
        let piece = self.piece[index];
        let position = u64::from(position);
        if piece & BLOCKED_LINE == 0 {
            let losing = piece + u64::from(line - self.piece_start[index]);
            return if losing == position {
                CellKind::Losing
            } else {
                CellKind::Winning
            };
        }
        let (keys, losing) = self.blocked_line((piece & !BLOCKED_LINE) as usize);
        let key = u64::from(line) << 32 | position;
        if keys.binary_search(&key).is_ok() {
            CellKind::Blocked
        } else if losing.binary_search(&position).is_ok() {
            CellKind::Losing
        } else {
            CellKind::Winning
        }
    }

    /// The first position of the segment of `line` that holds `position`:
    /// one past the last impassable cell before it, or 0.
    #[must_use]
    pub fn segment_start(&self, line: u32, position: u32) -> u64 {
        let piece = self.piece[self.piece_of(line)];
        if piece & BLOCKED_LINE == 0 {
            return 0;
        }
        let (keys, _) = self.blocked_line((piece & !BLOCKED_LINE) as usize);
        let key = u64::from(line) << 32 | u64::from(position);
        let before = keys.partition_point(|&k| k < key);
        if before == 0 {
            0
        } else {
            (keys[before - 1] & 0xFFFF_FFFF) + 1
        }
    }

    /// The losing cell before `position` in its segment of `line` (the one
    /// move to a losing cell along this line), if any; `None` also on an
    /// impassable cell.
    #[must_use]
    pub fn losing_before(&self, line: u32, position: u32) -> Option<u64> {
        self.probe(line, position).flatten()
    }

    /// `None` when the cell is impassable, else its
    /// [`LosingLines::losing_before`]: one search for both.
    #[inline]
    pub(crate) fn probe(&self, line: u32, position: u32) -> Option<Option<u64>> {
        let index = self.piece_of(line);
        let piece = self.piece[index];
        let position = u64::from(position);
        if piece & BLOCKED_LINE == 0 {
            let losing = piece + u64::from(line - self.piece_start[index]);
            return Some((losing < position).then_some(losing));
        }
        let (keys, losing) = self.blocked_line((piece & !BLOCKED_LINE) as usize);
        let key = u64::from(line) << 32 | position;
        let blocked_before = keys.partition_point(|&k| k < key);
        if keys.get(blocked_before) == Some(&key) {
            return None;
        }
        let start = if blocked_before == 0 {
            0
        } else {
            (keys[blocked_before - 1] & 0xFFFF_FFFF) + 1
        };
        let losing_before = losing.partition_point(|&p| p < position);
        Some(
            (losing_before > 0 && losing[losing_before - 1] >= start)
                .then(|| losing[losing_before - 1]),
        )
    }
}

/// Answers [`LosingLines::classify`] for queries in increasing order of
/// lines faster than independent binary searches: it gallops forward from the
/// previous query's piece, so a sorted batch walks the pieces once, in cache
/// order. A query on an earlier line falls back to a binary search.
///
/// # Examples
///
/// ```
/// use grundy::pawn::{Blocked, Cell, LosingLines};
/// let cell = |x, y| Cell::new(x, y).unwrap();
/// let rows = LosingLines::rows(&Blocked::new(&[cell(1, 1), cell(4, 2)]).unwrap());
/// let mut cursor = rows.cursor();
/// for (line, position) in [(0, 3), (2, 1), (2, 2), (5, 6), (900, 7)] {
///     assert_eq!(cursor.classify(line, position), rows.classify(line, position));
/// }
/// ```
#[derive(Clone, Debug)]
pub struct LineCursor<'a> {
    lines: &'a LosingLines,
    index: usize,
}

impl LineCursor<'_> {
    /// What the cell at `position` on `line` is.
    #[inline]
    pub fn classify(&mut self, line: u32, position: u32) -> CellKind {
        let starts = &self.lines.piece_start;
        if line < starts[self.index] {
            self.index = self.lines.piece_of(line);
        } else {
            let mut low = self.index;
            let mut step = 1;
            while low + step < starts.len() && starts[low + step] <= line {
                low += step;
                step *= 2;
            }
            let high = (low + step).min(starts.len());
            self.index = low + starts[low..high].partition_point(|&s| s <= line) - 1;
        }
        self.lines.classify_in(self.index, line, position)
    }
}

/// The free positions across the sweep, kept per *slot*. The slots are the
/// ranges between consecutive keys of `{0} ∪ {b, b + 1 : b impassable
/// position}`; a slot `[b, b + 1)` holds only `b`. Within a slot positions
/// are only ever taken from the left (the sweep takes the first free position
/// at or after a slot's key), and only single-position slots are freed again
/// (an impassable cell frees its own position), so a slot's free positions
/// are always `[next_free, end)`.
struct Slots {
    /// Slot keys (first positions), strictly increasing, `keys[0] == 0`.
    keys: Vec<u64>,
    /// Per slot: its first free position (== its end when none is free).
    next_free: Vec<u64>,
    /// Per slot: set when it has a free position.
    nonempty: Vec<u64>,
    /// Per word of `nonempty`: set when that word is non-zero.
    summary: Vec<u64>,
    /// Every slot below this one is empty (a hint that spares the search
    /// for the first free position a scan over the emptied slots).
    low: usize,
    /// Per impassable cell (in key order): the slot of its position.
    slot_of: Vec<u32>,
    /// Per impassable cell (in key order): the slot of its position + 1.
    slot_after: Vec<u32>,
}

impl Slots {
    fn new(cells: &[u64]) -> Slots {
        let n = cells.len();
        // Positions with their cell index, sorted by position. Indices fit
        // 32 bits and positions 30, so one u64 sort does it.
        let mut by_position: Vec<u64> = cells
            .iter()
            .enumerate()
            .map(|(i, &k)| (k & 0xFFFF_FFFF) << 32 | i as u64)
            .collect();
        by_position.sort_unstable();
        let mut keys = Vec::with_capacity(2 * n + 1);
        keys.push(0u64);
        let mut slot_of = vec![0u32; n];
        let mut slot_after = vec![0u32; n];
        let mut previous = u64::MAX;
        let (mut at, mut after) = (0u32, 0u32);
        for &entry in &by_position {
            let position = entry >> 32;
            if position != previous {
                // keys.last() <= previous + 1 <= position here.
                if *keys.last().expect("starts with 0") != position {
                    keys.push(position);
                }
                at = (keys.len() - 1) as u32;
                keys.push(position + 1);
                after = (keys.len() - 1) as u32;
                previous = position;
            }
            let index = (entry & 0xFFFF_FFFF) as usize;
            slot_of[index] = at;
            slot_after[index] = after;
        }
        let slots = keys.len();
        let words = slots.div_ceil(64);
        let mut nonempty = vec![u64::MAX; words];
        if slots % 64 != 0 {
            nonempty[words - 1] = (1u64 << (slots % 64)) - 1;
        }
        let mut summary = vec![u64::MAX; words.div_ceil(64)];
        if words % 64 != 0 {
            let last = summary.len() - 1;
            summary[last] = (1u64 << (words % 64)) - 1;
        }
        Slots {
            next_free: keys.clone(),
            keys,
            nonempty,
            summary,
            low: 0,
            slot_of,
            slot_after,
        }
    }

    #[inline]
    fn end(&self, slot: usize) -> u64 {
        self.keys.get(slot + 1).copied().unwrap_or(INFINITY)
    }

    /// The first slot at or after `slot` with a free position. The last slot
    /// is unbounded, so there always is one.
    #[inline]
    fn first_nonempty_from(&mut self, slot: usize) -> usize {
        let found = self.search_from(slot.max(self.low));
        if slot <= self.low {
            self.low = found;
        }
        found
    }

    #[inline]
    fn search_from(&self, slot: usize) -> usize {
        let word = slot / 64;
        let bits = self.nonempty[word] & (u64::MAX << (slot % 64));
        if bits != 0 {
            return word * 64 + bits.trailing_zeros() as usize;
        }
        let mut group = (word + 1) / 64;
        let mut mask = if (word + 1) % 64 == 0 {
            u64::MAX
        } else {
            u64::MAX << ((word + 1) % 64)
        };
        loop {
            let set = self.summary[group] & mask;
            if set != 0 {
                let w = group * 64 + set.trailing_zeros() as usize;
                return w * 64 + self.nonempty[w].trailing_zeros() as usize;
            }
            group += 1;
            mask = u64::MAX;
        }
    }

    #[inline]
    fn set_nonempty(&mut self, slot: usize) {
        self.nonempty[slot / 64] |= 1 << (slot % 64);
        self.summary[slot / 4096] |= 1 << ((slot / 64) % 64);
    }

    #[inline]
    fn clear_nonempty(&mut self, slot: usize) {
        let word = slot / 64;
        self.nonempty[word] &= !(1 << (slot % 64));
        if self.nonempty[word] == 0 {
            self.summary[word / 64] &= !(1 << (word % 64));
        }
    }

    /// Frees the single position of slot `slot` (an impassable cell's).
    #[inline]
    fn free(&mut self, slot: usize) {
        self.next_free[slot] = self.keys[slot];
        self.set_nonempty(slot);
        self.low = self.low.min(slot);
    }

    /// Takes `count` free positions from the left of slot `slot`.
    #[inline]
    fn take(&mut self, slot: usize, count: u64) {
        self.next_free[slot] += count;
        if self.next_free[slot] == self.end(slot) {
            self.clear_nonempty(slot);
        }
    }
}

struct Sweep {
    slots: Slots,
    out: LosingLines,
}

impl Sweep {
    fn run(mut self) -> LosingLines {
        let n = self.out.keys.len();
        let mut line = 0u64; // the next line to sweep
        let mut i = 0;
        while i < n {
            let this = self.out.keys[i] >> 32;
            let mut j = i + 1;
            while j < n && self.out.keys[j] >> 32 == this {
                j += 1;
            }
            if this > line {
                self.band(line, this - 1);
            }
            self.blocked_line(this, i, j);
            line = this + 1;
            i = j;
        }
        if line <= u64::from(MAX_COORD) {
            self.band(line, u64::from(MAX_COORD));
        }
        self.out.keys_start.push(n as u32);
        self.out.losing_start.push(self.out.losing.len() as u32);
        self.out
    }

    /// Lines `first..=last`, none with an impassable cell: each takes the
    /// first free position, so they take runs of consecutive free positions.
    fn band(&mut self, mut first: u64, last: u64) {
        while first <= last {
            let slot = self.slots.first_nonempty_from(0);
            let free = self.slots.next_free[slot];
            let count = (last - first + 1).min(self.slots.end(slot) - free);
            let out = &mut self.out;
            let continues = match (out.piece_start.last(), out.piece.last()) {
                (Some(&start), Some(&piece)) => {
                    piece & BLOCKED_LINE == 0 && piece + (first - u64::from(start)) == free
                }
                _ => false,
            };
            if !continues {
                out.piece_start.push(first as u32);
                out.piece.push(free);
            }
            self.slots.take(slot, count);
            first += count;
        }
    }

    /// Line `line` with impassable cells `keys[i..j]`.
    fn blocked_line(&mut self, line: u64, i: usize, j: usize) {
        let out = &mut self.out;
        out.piece_start.push(line as u32);
        out.piece.push(BLOCKED_LINE | out.keys_start.len() as u64);
        out.keys_start.push(i as u32);
        out.losing_start.push(out.losing.len() as u32);
        // Impassable cells end their column segments: their columns are free
        // again (for the lines after this one; they are not in any segment of
        // this line, and each segment search below stops before them).
        for t in i..j {
            self.slots.free(self.slots.slot_of[t] as usize);
        }
        for t in i..=j {
            let (start, start_slot) = if t == i {
                (0, 0)
            } else {
                (
                    (self.out.keys[t - 1] & 0xFFFF_FFFF) + 1,
                    self.slots.slot_after[t - 1] as usize,
                )
            };
            let end = if t < j {
                self.out.keys[t] & 0xFFFF_FFFF
            } else {
                INFINITY
            };
            if start >= end {
                continue;
            }
            let slot = self.slots.first_nonempty_from(start_slot);
            let free = self.slots.next_free[slot];
            if free < end {
                self.out.losing.push(free);
                self.slots.take(slot, 1);
            }
        }
    }
}
