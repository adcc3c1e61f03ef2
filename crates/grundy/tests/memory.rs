//! The memory budget against the heap the process really holds: an
//! allocator that counts the bytes each thread holds and its peak, around
//! searches that must stop near their budget. The searches' own counts are
//! what the budget compares; this checks those counts cover what the
//! search allocates.
//!
//! The allocator is hand-written, and so needs `unsafe`: it only forwards
//! to `System` and counts. `dhat`'s testing mode gives the same peak but
//! records a backtrace at every allocation, and these searches allocate
//! millions of boards.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use grundy::clear::large::{classify, Analyzer, LargeBoard, Part};
use grundy::clear::Clear;
use grundy::{Budget, SolveError};

/// The system allocator, counting per thread (the searches here run on
/// the test's thread alone).
struct Counting;

thread_local! {
    static HELD: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn count(bytes: isize) {
    // `try_with`: a thread being torn down no longer has its counters.
    let _ = HELD.try_with(|held| {
        let now = held.get() + bytes;
        held.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

// SAFETY: every call is passed to `System` unchanged; the counting touches
// only thread-local cells, which allocate nothing.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as isize);
        // SAFETY: the caller's contract is `System`'s.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(-(layout.size() as isize));
        // SAFETY: the caller's contract is `System`'s.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size as isize - layout.size() as isize);
        // SAFETY: the caller's contract is `System`'s.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The peak of the bytes this thread held while `run` ran, above what it
/// held before.
fn peak_during<R>(run: impl FnOnce() -> R) -> (R, u64) {
    let before = HELD.with(Cell::get);
    PEAK.with(|peak| peak.set(before));
    let result = run();
    let peak = PEAK.with(Cell::get) - before;
    (result, peak.max(0) as u64)
}

/// A board of `rows x cols` with about `percent` ones, from a fixed seed.
fn random_board(rows: u32, cols: u32, percent: u64, seed: u64) -> LargeBoard {
    let mut state = seed | 1;
    let mut board = LargeBoard::zeros(u64::from(rows), u64::from(cols)).unwrap();
    for r in 0..rows {
        for c in 0..cols {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            if state % 100 < percent {
                board.set(r, c, true);
            }
        }
    }
    board
}

/// The outcome search of a dense shape of about 760 cells (the engine's
/// move) holds a listing of options at each level of its recursion, each a
/// board of its own; under a budget of 16 MiB it stops with the budget's
/// error, its heap's peak near the budget.
#[test]
fn the_outcome_search_of_a_large_shape_holds_about_its_budget() {
    let board = random_board(30, 30, 85, 3);
    let analysis = classify(std::slice::from_ref(&board));
    let largest = (0..analysis.components.len())
        .max_by_key(|&i| analysis.components[i].extent.cells)
        .unwrap();
    let part = analysis.part(largest);
    assert!(matches!(part, Part::Large(_)));
    let limit = 16u64 << 20;
    let budget = Budget {
        max_memory: Some(limit),
        ..Budget::UNLIMITED
    };
    let mut analyzer = Analyzer::new(Clear::new(), budget);
    analyzer.start();
    let (result, peak) = peak_during(|| analyzer.move_to_zero(&part));
    assert!(
        matches!(result, Err(SolveError::MemoryBudget { limit: named, .. }) if named == limit),
        "{result:?}"
    );
    // The budget counts the memos and the listings; the allocator's own
    // rounding and the scratch of one option are the slack.
    assert!(
        peak < limit + limit / 4,
        "a peak of {peak} bytes under a budget of {limit}"
    );
}
