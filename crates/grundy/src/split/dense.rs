//! The value of every sub-rectangle of a pattern, by a cache-friendly DP.
//!
//! Every position reachable from a pattern is a sum of its sub-rectangles,
//! so one table of all `R(R+1)/2 x C(C+1)/2` sub-rectangles answers the
//! value of the pattern, of every option, and of every later position.
//!
//! The table is built band by band: a *band* is a range of rows `x0..=x1`
//! with every column range `y0..=y1`. A move at `(x, y)` deletes row `x`,
//! so its four parts lie in the strictly shorter bands `x0..x` and
//! `x+1..=x1`; bands are computed in order of height and all bands of one
//! height are independent. Within a band,
//! with `W_x = band(x0, x-1) ^ band(x+1, x1)` (entry-wise), the option of
//! `(x0, x1, y0, y1)` at `(x, y)` is `W_x[y0][y-1] ^ W_x[y+1][y1]`. The band
//! is filled one `y0` at a time: the seen-sets of `(y0, y1)` for every `y1`
//! form one small row that stays in L1; for each candidate `(x, y)` with
//! `y >= y0` the first term is fixed and the second runs over a contiguous
//! row of `W_x`, each result setting one bit in the seen-set of `(y0, y1)`.
//! The seen-sets are bitsets whose width is the next power of two above the
//! largest value so far (the XOR of values below `2^k` stays below `2^k`, and
//! the mex of such a set is at most `2^k`).
//!
//! **Parallelism** (rayon). The sweeps of one band for different `y0` are
//! independent (each writes its own row of the band), so a band big enough
//! to pay for it is computed by every core at once, sweep by sweep, and
//! its `W` rows too: the cores then share one band's `W` in cache instead
//! of each streaming its own band's. Small bands (the first levels) go to
//! the cores whole instead, one band per task. Either way at most one band
//! per core is in flight, which bounds the scratch ([`DenseTable::bytes`]).
//!
//! Cost: `sum over candidates (x, y) of (x+1)(R-x)(y+1)(C-y)` bit-sets, the
//! same count as the editorial's DP, but streamed through L1/L2-resident
//! rows instead of random probes of a 4-D array, on every core. Memory: two
//! bytes per sub-rectangle (values are at most the number of candidates,
//! which is checked to fit `u16`).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use super::Pattern;
use crate::{Budget, Nimber, SolveError};

/// The most candidates a pattern solved by [`DenseTable`] may have, so that
/// every value fits the table's `u16` entries (a value never exceeds the
/// number of candidates: the mex of `k` options is at most `k`).
pub const MAX_DENSE_CANDIDATES: usize = u16::MAX as usize;

/// Index of the pair `lo <= hi` in a row-major upper triangle of side `n`.
#[inline]
fn tri(n: usize, lo: usize, hi: usize) -> usize {
    debug_assert!(lo <= hi && hi < n);
    lo * (2 * n - lo + 1) / 2 + (hi - lo)
}

/// The value of every sub-rectangle of one pattern.
#[derive(Clone, Debug)]
pub struct DenseTable {
    rows: usize,
    cols: usize,
    /// `bands[tri(rows, x0, x1)][tri(cols, y0, y1)]`.
    bands: Vec<Box<[u16]>>,
}

impl DenseTable {
    /// Number of table entries (sub-rectangles) for a `rows x cols` pattern.
    #[must_use]
    pub fn entries(rows: usize, cols: usize) -> u64 {
        let r = rows as u64 * (rows as u64 + 1) / 2;
        let c = cols as u64 * (cols as u64 + 1) / 2;
        r.saturating_mul(c)
    }

    /// Bytes building the table of `pattern` needs at most, from the sizes
    /// of what it allocates: the table ([`DenseTable::table_bytes`]) and,
    /// for each rayon worker, the scratch of one band (its `W` rows, one
    /// row of seen-sets as wide as the largest possible value, and the
    /// band being filled).
    #[must_use]
    pub fn bytes(pattern: &Pattern) -> u64 {
        // In u128: a 10^5 x 10^5 pattern's table overflows u64.
        let (rows, cols) = (pattern.rows() as u128, pattern.cols() as u128);
        let tri_rows = rows * (rows + 1) / 2;
        let tri_cols = cols * (cols + 1) / 2;
        let entry = std::mem::size_of::<u16>() as u128;
        let table =
            tri_rows * tri_cols * entry + tri_rows * std::mem::size_of::<Box<[u16]>>() as u128;
        let width_bits = (pattern.count() as u128 + 1).next_power_of_two().max(64);
        let scratch = rows * tri_cols * entry + cols * (width_bits / 8) + tri_cols * entry;
        let workers = rayon::current_num_threads() as u128;
        u64::try_from(table + workers * scratch).unwrap_or(u64::MAX)
    }

    /// Bytes this table holds: its entries and one boxed slice per band.
    #[must_use]
    pub fn table_bytes(&self) -> u64 {
        let slices = self.bands.len() * std::mem::size_of::<Box<[u16]>>();
        let entries: usize = self.bands.iter().map(|band| band.len()).sum();
        (slices + entries * std::mem::size_of::<u16>()) as u64
    }

    /// Builds the table of `pattern`, checking `budget` between bands
    /// (`max_positions` counts table entries; a table larger than the
    /// budget is refused before any work) and telling `progress` about
    /// each finished band height.
    ///
    /// # Errors
    ///
    /// [`SolveError`] when the budget runs out.
    ///
    /// # Panics
    ///
    /// When the pattern has more than [`MAX_DENSE_CANDIDATES`] candidates.
    pub fn build(
        pattern: &Pattern,
        budget: Budget,
        started: Instant,
        progress: &mut dyn FnMut(u64, usize),
    ) -> Result<DenseTable, SolveError> {
        DenseTable::build_sharing(pattern, budget, started, None, progress, MIN_SHARED_BAND)
    }

    /// [`DenseTable::build`], sharing bands of at least `min_shared_band`
    /// `W` entries between the cores (the tests force either way), and
    /// stopping with [`SolveError::Stopped`] once `cancel` is set (checked
    /// where the clock is).
    pub(crate) fn build_sharing(
        pattern: &Pattern,
        budget: Budget,
        started: Instant,
        cancel: Option<&AtomicBool>,
        progress: &mut dyn FnMut(u64, usize),
        min_shared_band: usize,
    ) -> Result<DenseTable, SolveError> {
        assert!(
            pattern.count() <= MAX_DENSE_CANDIDATES,
            "dense tables hold values below 2^16"
        );
        let (rows, cols) = (pattern.rows(), pattern.cols());
        let entries = DenseTable::entries(rows, cols);
        if let Some(limit) = budget.max_positions {
            if entries > limit {
                return Err(SolveError::PositionBudget {
                    limit,
                    needed: Some(entries),
                });
            }
        }
        let tri_cols = cols * (cols + 1) / 2;
        let row_cells: Vec<Vec<u32>> = (0..rows)
            .map(|r| pattern.row_cells(r).map(|c| c as u32).collect())
            .collect();
        let zero_band = vec![0u16; tri_cols].into_boxed_slice();
        let mut bands: Vec<Box<[u16]>> = vec![Box::default(); rows * (rows + 1) / 2];
        let stop = AtomicBool::new(false);
        let solved = AtomicU64::new(0);
        let mut max_value = 0u16;
        for height in 1..=rows {
            let width_bits = (u32::from(max_value) + 1).next_power_of_two().max(64) as usize;
            let words = width_bits / 64;
            let ctx = BandContext {
                rows,
                cols,
                row_cells: &row_cells,
                bands: &bands,
                zero: &zero_band,
                stop: &stop,
                cancel,
                budget,
                started,
            };
            let inside = height * tri_cols >= min_shared_band;
            let one = |x0: usize| {
                let band = ctx.band(x0, x0 + height - 1, words, inside);
                solved.fetch_add(tri_cols as u64, Ordering::Relaxed);
                band
            };
            let level: Vec<Option<Box<[u16]>>> = if inside {
                (0..=rows - height).map(one).collect()
            } else {
                (0..=rows - height).into_par_iter().map(one).collect()
            };
            for (x0, band) in level.into_iter().enumerate() {
                let Some(band) = band else {
                    if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
                        return Err(SolveError::Stopped);
                    }
                    let limit = budget.max_time.unwrap_or_default();
                    return Err(SolveError::TimeBudget { limit });
                };
                max_value = max_value.max(band.iter().copied().max().unwrap_or(0));
                bands[tri(rows, x0, x0 + height - 1)] = band;
            }
            progress(solved.load(Ordering::Relaxed), height);
        }
        Ok(DenseTable { rows, cols, bands })
    }

    /// Rows of the pattern.
    #[must_use]
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Columns of the pattern.
    #[must_use]
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The value of the sub-rectangle of rows `x0..x1` and columns `y0..y1`
    /// (half-open; empty ranges give 0).
    #[must_use]
    pub fn value(&self, rows: std::ops::Range<usize>, cols: std::ops::Range<usize>) -> Nimber {
        if rows.is_empty() || cols.is_empty() {
            return Nimber::ZERO;
        }
        let band = &self.bands[tri(self.rows, rows.start, rows.end - 1)];
        Nimber::new(u32::from(band[tri(self.cols, cols.start, cols.end - 1)]))
    }

    /// The value of the whole pattern.
    #[must_use]
    pub fn root(&self) -> Nimber {
        self.value(0..self.rows, 0..self.cols)
    }

    /// The value left by a move at `(x, y)` in the sub-rectangle
    /// `rows x cols`: the XOR of its four parts.
    #[must_use]
    pub fn option_value(
        &self,
        rows: std::ops::Range<usize>,
        cols: std::ops::Range<usize>,
        x: usize,
        y: usize,
    ) -> Nimber {
        self.value(rows.start..x, cols.start..y)
            ^ self.value(rows.start..x, y + 1..cols.end)
            ^ self.value(x + 1..rows.end, cols.start..y)
            ^ self.value(x + 1..rows.end, y + 1..cols.end)
    }
}

/// Bands with at least this many `W` entries (height times column pairs)
/// are shared by the cores sweep by sweep; smaller ones go whole to one
/// core each (a sweep of a small band is too short to hand out).
pub(super) const MIN_SHARED_BAND: usize = 1 << 15;

struct BandContext<'a> {
    rows: usize,
    cols: usize,
    row_cells: &'a [Vec<u32>],
    bands: &'a [Box<[u16]>],
    zero: &'a [u16],
    stop: &'a AtomicBool,
    cancel: Option<&'a AtomicBool>,
    budget: Budget,
    started: Instant,
}

impl BandContext<'_> {
    fn band_of(&self, x0: usize, x1_exclusive: usize) -> &[u16] {
        if x0 >= x1_exclusive {
            self.zero
        } else {
            &self.bands[tri(self.rows, x0, x1_exclusive - 1)]
        }
    }

    fn out_of_time(&self) -> bool {
        if self.stop.load(Ordering::Relaxed) {
            return true;
        }
        if self.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            self.stop.store(true, Ordering::Relaxed);
            return true;
        }
        if let Some(limit) = self.budget.max_time {
            if self.started.elapsed() >= limit {
                self.stop.store(true, Ordering::Relaxed);
                return true;
            }
        }
        false
    }

    /// The band `x0..=x1`, or `None` when the time budget ran out; with
    /// `shared`, computed by every core (see the module comment).
    fn band(&self, x0: usize, x1: usize, words: usize, shared: bool) -> Option<Box<[u16]>> {
        match words {
            1 => self.band_with::<1>(x0, x1, shared),
            2 => self.band_with::<2>(x0, x1, shared),
            4 => self.band_with::<4>(x0, x1, shared),
            8 => self.band_with::<8>(x0, x1, shared),
            16 => self.band_with::<16>(x0, x1, shared),
            32 => self.band_with::<32>(x0, x1, shared),
            64 => self.band_with::<64>(x0, x1, shared),
            128 => self.band_with::<128>(x0, x1, shared),
            256 => self.band_with::<256>(x0, x1, shared),
            512 => self.band_with::<512>(x0, x1, shared),
            _ => self.band_with::<1024>(x0, x1, shared),
        }
    }

    fn band_with<const WORDS: usize>(
        &self,
        x0: usize,
        x1: usize,
        shared: bool,
    ) -> Option<Box<[u16]>> {
        let n = self.cols;
        let tri_n = n * (n + 1) / 2;
        // W for every row of the band: W_x = band(x0, x-1) ^ band(x+1, x1).
        let mut ws = vec![0u16; (x1 - x0 + 1) * tri_n];
        let fill_w = |(x, w): (usize, &mut [u16])| {
            if self.row_cells[x].is_empty() {
                return;
            }
            let above = self.band_of(x0, x);
            let below = self.band_of(x + 1, x1 + 1);
            for ((w, &a), &b) in w.iter_mut().zip(above).zip(below) {
                *w = a ^ b;
            }
        };
        if shared {
            (x0..x1 + 1)
                .into_par_iter()
                .zip(ws.par_chunks_exact_mut(tri_n))
                .for_each(fill_w);
        } else {
            (x0..=x1).zip(ws.chunks_exact_mut(tri_n)).for_each(fill_w);
        }
        // The band's row for each `y0`: entries `(y0, y1)`, `y1 >= y0`.
        let mut out = vec![0u16; tri_n].into_boxed_slice();
        let mut rows = Vec::with_capacity(n);
        let mut rest: &mut [u16] = &mut out;
        for y0 in 0..n {
            let (row, tail) = rest.split_at_mut(n - y0);
            rows.push((y0, row));
            rest = tail;
        }
        let sweep = |seen: &mut Vec<[u64; WORDS]>, (y0, row): (usize, &mut [u16])| {
            if !self.out_of_time() {
                self.sweep::<WORDS>(&ws, x0, x1, y0, seen, row);
            }
        };
        let new_seen = || vec![[0u64; WORDS]; n];
        if shared {
            rows.into_par_iter().for_each_init(new_seen, sweep);
        } else {
            let mut seen = new_seen();
            rows.into_iter().for_each(|task| sweep(&mut seen, task));
        }
        if self.stop.load(Ordering::Relaxed) {
            return None;
        }
        Some(out)
    }

    /// The values of `(x0, x1, y0, y1)` for every `y1 >= y0` into `row`.
    /// One row of seen-sets, `(y0, y1)` for every `y1`: it stays in L1
    /// while the rows of every W stream past it.
    fn sweep<const WORDS: usize>(
        &self,
        ws: &[u16],
        x0: usize,
        x1: usize,
        y0: usize,
        seen: &mut [[u64; WORDS]],
        row: &mut [u16],
    ) {
        let n = self.cols;
        let tri_n = n * (n + 1) / 2;
        let mask = WORDS * 64 - 1;
        seen[y0..].fill([0; WORDS]);
        for (x, w) in (x0..=x1).zip(ws.chunks_exact(tri_n)) {
            let cells = &self.row_cells[x];
            let from = cells.partition_point(|&y| (y as usize) < y0);
            for &y in &cells[from..] {
                let y = y as usize;
                let left = if y0 < y { w[tri(n, y0, y - 1)] } else { 0 };
                // W[y+1][y1] for y1 = y+1..n: one contiguous row.
                let right: &[u16] = if y + 1 < n {
                    let start = tri(n, y + 1, y + 1);
                    &w[start..start + (n - 1 - y)]
                } else {
                    &[]
                };
                let (first, rest) = seen[y..].split_first_mut().expect("y1 = y");
                let v = usize::from(left) & mask;
                first[v >> 6] |= 1 << (v & 63);
                for (slot, &r) in rest.iter_mut().zip(right) {
                    let v = usize::from(left ^ r) & mask;
                    slot[v >> 6] |= 1 << (v & 63);
                }
            }
        }
        for (value, set) in row.iter_mut().zip(&seen[y0..]) {
            *value = crate::nimber::mex_of_words(set) as u16;
        }
    }
}
