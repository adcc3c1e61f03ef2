//! A hint to the processor to start loading a cache line, for lookups
//! batched so that their misses overlap: the memo table of the top-down
//! solver (`clear/memo.rs`) and the tier worker's reads of earlier tiers
//! (`tier/worker.rs`).
//!
//! **Why not a plain load.** A load must complete before it retires, so a
//! batch of touched lines fills the reorder buffer and stalls on the first
//! miss; a prefetch retires at once and the loads of the whole batch are in
//! flight together. Measured where it is used (see the callers' comments).

/// Asks the processor to start loading the cache line at `address`.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
#[inline(always)]
pub(crate) fn prefetch<T>(address: *const T) {
    use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
    // SAFETY: `_mm_prefetch` needs SSE, which every x86_64 processor has
    // (it is in the x86_64 baseline that rustc targets). A prefetch is a
    // hint: it never faults and does not read the memory into the program,
    // so any address is sound; callers pass addresses inside live slices.
    unsafe { _mm_prefetch::<_MM_HINT_T0>(address.cast()) }
}

/// No prefetch off x86_64: the batching alone is kept.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
pub(crate) fn prefetch<T>(_address: *const T) {}

/// [`prefetch`] of `slice[at]`, when `at` is in bounds (else nothing).
#[inline(always)]
pub(crate) fn prefetch_in<T>(slice: &[T], at: usize) {
    if let Some(item) = slice.get(at) {
        prefetch(item);
    }
}
