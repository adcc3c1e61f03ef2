//! Allocator tuning: glibc's mmap threshold for long database builds, and a
//! region of huge pages for the judges' large buffers.
//!
//! **The mmap threshold.** glibc's malloc serves allocations over its mmap
//! threshold (128 KiB at start) by `mmap`, and returns them to the system
//! when freed. But each time such a block is freed, it raises the threshold
//! to the block's size (up to 32 MiB), so a build's later per-chunk and
//! per-tier buffers come from the heaps of rayon's worker threads instead,
//! where freed memory stays mapped and fragments. Fixing the threshold turns
//! the dynamic adjustment off: a 5 x 6 build on 2 threads peaks at 65.6 MB
//! with it and 103.6 MB without, and takes 39.9 s of CPU against 44.8 s,
//! writing the same bytes (compare with `MALLOC_MMAP_THRESHOLD_=131072`,
//! which sets the same tunable, under `/usr/bin/time -v`).
//!
//! **The judges' region.** A `gridgame` run on the largest input lasts
//! about 13 ms, and its buffers (the cells, the queries, the sorts'
//! scratch) take about 6 MB, each page of which costs a page fault when
//! first written: 1,700 faults a run. Once [`arm_judge_region`] has run,
//! [`Allocator`] serves every allocation of 64 KiB and more from one
//! reserved region marked for transparent huge pages
//! (`madvise(MADV_HUGEPAGE)`), which faults once per 2 MiB: 270 faults a
//! run, and without it the run takes about 1.17 times as long
//! (`bench/ab-judge.sh gridgame INPUT 60 WITH WITHOUT`, figures in
//! `docs/benchmarks.md`). Only `grundy judge gridgame` arms it: the other
//! judges' memory is their mapped input or a few small buffers, and they
//! measured the same either way. Hand-written because the crate
//! allocators measured no better: `mimalloc` cut the faults to 250 but ran
//! slower (`docs/design.md`, "Tried and dropped"). The region is a bump
//! allocator: memory freed there is not reused (a judge process ends once
//! its input is answered), so a new block has never been written; the last
//! block grows in place (a growing `Vec` is not copied) and any block
//! shrinks in place, keeping its bytes; once the region is full, or when it
//! cannot be reserved, allocations go to the system allocator as before.
//! Every other command allocates from the system as if [`Allocator`] were
//! not there.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Fixes glibc's mmap threshold at its initial 128 KiB (see the module
/// doc). Elsewhere than Linux with glibc, does nothing.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
pub fn fix_mmap_threshold() {
    // SAFETY: `mallopt` only sets a tunable of glibc's allocator, which is
    // thread-safe and takes effect for later allocations; it reads no
    // memory of ours. A failure (return 0) leaves the default in place.
    let _ = unsafe { libc::mallopt(libc::M_MMAP_THRESHOLD, 128 * 1024) };
}

/// Fixes glibc's mmap threshold at its initial 128 KiB (see the module
/// doc). Elsewhere than Linux with glibc, does nothing.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn fix_mmap_threshold() {}

/// Hands the free memory of glibc's heaps back to the system. A search on
/// a worker thread fills that thread's heap with small blocks; freed, they
/// stay resident (`grundy serve`, idle after six concurrent analyses at
/// `--max-memory 64 --kept-memory 32`, held three full 64 MiB heaps), and
/// `malloc_trim` releases every free page of every heap. Elsewhere than
/// Linux with glibc, does nothing.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
pub fn release_free_memory() {
    // SAFETY: `malloc_trim` walks glibc's own heaps, each under its lock,
    // and returns pages no allocation holds; it reads no memory of ours.
    let _ = unsafe { libc::malloc_trim(0) };
}

/// Hands the free memory of the allocator back to the system: nothing to
/// do elsewhere than Linux with glibc.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn release_free_memory() {}

/// Allocations of at least this many bytes come from the judges' region.
const LARGE: usize = 64 << 10;

/// The judges' region's size: address space only until written
/// (`MAP_NORESERVE`), and 36 times the largest `gridgame` input's buffers.
const REGION: usize = 256 << 20;

/// A transparent huge page.
const HUGE_PAGE: usize = 2 << 20;

/// A bump allocator over one range of addresses: blocks are handed out in
/// increasing order and never reused (so a new block has never been
/// written), and the last block can grow in place. Thread-safe (a compare-and-swap per block); an empty region
/// (`start == end`, before it is armed) hands out nothing.
struct Bump {
    start: AtomicUsize,
    /// Where the next block may start; `start <= next <= end`.
    next: AtomicUsize,
    end: AtomicUsize,
}

impl Bump {
    const fn empty() -> Bump {
        Bump {
            start: AtomicUsize::new(0),
            next: AtomicUsize::new(0),
            end: AtomicUsize::new(0),
        }
    }

    /// Takes `start..end`, once: later calls are ignored. Called before the
    /// process starts other threads (see [`arm_judge_region`]).
    fn set(&self, start: usize, end: usize) {
        if self.is_set() {
            return;
        }
        self.start.store(start, Ordering::Relaxed);
        self.next.store(start, Ordering::Relaxed);
        self.end.store(end, Ordering::Release);
    }

    /// Whether a range was taken.
    fn is_set(&self) -> bool {
        self.end.load(Ordering::Acquire) != 0
    }

    /// Whether `address` lies in the region.
    fn contains(&self, address: usize) -> bool {
        let end = self.end.load(Ordering::Acquire);
        address < end && address >= self.start.load(Ordering::Relaxed)
    }

    /// The address of a new block of `layout`, or `None` when it does not
    /// fit what is left.
    fn take(&self, layout: Layout) -> Option<usize> {
        let end = self.end.load(Ordering::Acquire);
        let mut next = self.next.load(Ordering::Relaxed);
        loop {
            // `align` is a power of two.
            let at = next.checked_add(layout.align() - 1)? & !(layout.align() - 1);
            let block_end = at.checked_add(layout.size())?;
            if block_end > end {
                return None;
            }
            match self.next.compare_exchange_weak(
                next,
                block_end,
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => return Some(at),
                Err(moved) => next = moved,
            }
        }
    }

    /// Resizes the block at `at` of `old` bytes to `new` bytes where it
    /// lies: true when it did. A block shrinks in place and keeps its
    /// bytes, so none is handed out again; it grows when it is the last
    /// block handed out and the new size fits.
    fn resize_last(&self, at: usize, old: usize, new: usize) -> bool {
        if new <= old {
            return true;
        }
        let end = self.end.load(Ordering::Acquire);
        match at.checked_add(new) {
            Some(new_end) if new_end <= end => self
                .next
                .compare_exchange(at + old, new_end, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok(),
            _ => false,
        }
    }
}

/// The CLI's global allocator: the system's, and once the judges' region is
/// armed, that region for allocations of 64 KiB and more (see the module
/// doc).
pub struct Allocator;

static REGION_BUMP: Bump = Bump::empty();

/// Reserves the judges' region and marks it for transparent huge pages (see
/// the module doc); from now on large allocations come from it. When the
/// reservation fails, nothing changes; a second call changes nothing either.
/// Call it before starting threads. Elsewhere than Linux, does nothing.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
pub fn arm_judge_region() {
    if REGION_BUMP.is_set() {
        return;
    }
    let length = REGION + HUGE_PAGE;
    // SAFETY: a fresh anonymous private mapping at an address the kernel
    // chooses touches no memory of ours; its result is checked below.
    let mapped = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            length,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    if mapped == libc::MAP_FAILED {
        return;
    }
    // Huge pages cover only whole 2 MiB-aligned stretches.
    let start = (mapped as usize).next_multiple_of(HUGE_PAGE);
    // SAFETY: `start..start + REGION` lies inside the mapping just made,
    // which nothing else uses yet. A failure only leaves small pages.
    let _ = unsafe { libc::madvise(start as *mut libc::c_void, REGION, libc::MADV_HUGEPAGE) };
    REGION_BUMP.set(start, start + REGION);
}

/// Reserves the judges' region (see the module doc). Elsewhere than Linux,
/// does nothing.
#[cfg(not(target_os = "linux"))]
pub fn arm_judge_region() {}

// SAFETY: every block comes either from `System` under the same layout, or
// from the region: `Bump::take` hands out aligned, disjoint ranges inside
// the mapping, which is readable, writable and never unmapped, so a block
// stays valid until the process ends. A pointer is given back to `System`
// only when it does not lie in the region, so `System` frees only its own.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Allocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.size() >= LARGE {
            if let Some(at) = REGION_BUMP.take(layout) {
                return at as *mut u8;
            }
        }
        // SAFETY: the caller's layout has a non-zero size.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if layout.size() >= LARGE {
            // The region's memory is never reused, so a new block has
            // never been written since the kernel zeroed it.
            if let Some(at) = REGION_BUMP.take(layout) {
                return at as *mut u8;
            }
        }
        // SAFETY: as `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if REGION_BUMP.contains(ptr as usize) {
            return;
        }
        // SAFETY: not in the region, so `System` allocated it with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let address = ptr as usize;
        let in_region = REGION_BUMP.contains(address);
        // Unarmed, every block is the system's, and its `realloc` may grow a
        // block in place (or remap it) where a copy would not.
        if !in_region && (new_size < LARGE || !REGION_BUMP.is_set()) {
            // SAFETY: `System` allocated `ptr` with `layout`.
            return unsafe { System.realloc(ptr, layout, new_size) };
        }
        if in_region && REGION_BUMP.resize_last(address, layout.size(), new_size) {
            return ptr;
        }
        // SAFETY: the caller guarantees that `new_size`, rounded up to the
        // alignment, does not overflow `isize`.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        // SAFETY: `new_size` is non-zero (the caller's contract).
        let new = unsafe { self.alloc(new_layout) };
        if !new.is_null() {
            // SAFETY: both blocks are valid for the shorter length and
            // disjoint (`new` is a fresh block); the old one is then freed
            // by whoever allocated it.
            unsafe {
                std::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size));
                self.dealloc(ptr, layout);
            }
        }
        new
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A region over a buffer of ours, so that the addresses are real.
    fn region(buffer: &mut [u8]) -> (Bump, usize) {
        let bump = Bump::empty();
        let start = buffer.as_mut_ptr() as usize;
        bump.set(start, start + buffer.len());
        (bump, start)
    }

    fn layout(size: usize, align: usize) -> Layout {
        Layout::from_size_align(size, align).unwrap()
    }

    #[test]
    fn blocks_are_aligned_disjoint_and_inside() {
        let mut buffer = vec![0u8; 10_000];
        let (bump, start) = region(&mut buffer);
        let mut blocks = Vec::new();
        for (size, align) in [(100, 1), (300, 64), (7, 8), (1000, 256), (1, 4096)] {
            if let Some(at) = bump.take(layout(size, align)) {
                assert_eq!(at % align, 0);
                assert!(bump.contains(at) && at + size <= start + 10_000);
                blocks.push((at, at + size));
            }
        }
        assert!(blocks.len() >= 4, "most blocks fit 10,000 bytes");
        blocks.sort_unstable();
        assert!(blocks.windows(2).all(|w| w[0].1 <= w[1].0), "{blocks:?}");
    }

    #[test]
    fn a_full_region_hands_out_nothing() {
        let mut buffer = vec![0u8; 1000];
        let (bump, _) = region(&mut buffer);
        assert!(bump.take(layout(600, 1)).is_some());
        assert!(bump.take(layout(600, 1)).is_none());
        assert!(bump.take(layout(400, 1)).is_some());
        assert!(Bump::empty().take(layout(1, 1)).is_none());
        assert!(!Bump::empty().contains(0));
    }

    #[test]
    fn only_the_last_block_resizes_in_place() {
        let mut buffer = vec![0u8; 1000];
        let (bump, _) = region(&mut buffer);
        let first = bump.take(layout(100, 1)).unwrap();
        let last = bump.take(layout(100, 1)).unwrap();
        assert!(!bump.resize_last(first, 100, 200), "a block follows it");
        assert!(bump.resize_last(last, 100, 500));
        assert!(!bump.resize_last(last, 500, 901), "past the region");
        let next = bump.take(layout(10, 1)).unwrap();
        assert_eq!(
            next,
            last + 500,
            "the grown block ends where the next starts"
        );
        assert!(bump.resize_last(next, 10, 5), "a block shrinks in place");
        assert_eq!(
            bump.take(layout(1, 1)),
            Some(next + 10),
            "and gives no byte back: a new block was never written"
        );
    }

    #[test]
    fn a_region_is_taken_once() {
        let mut a = vec![0u8; 100];
        let mut b = vec![0u8; 100];
        let (bump, start) = region(&mut a);
        let other = b.as_mut_ptr() as usize;
        bump.set(other, other + 100);
        assert_eq!(bump.take(layout(10, 1)), Some(start));
    }
}
