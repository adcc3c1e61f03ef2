//! Allocator tuning for long database builds.
//!
//! glibc's malloc serves allocations over its mmap threshold (128 KiB at
//! start) by `mmap`, and returns them to the system when freed. But each
//! time such a block is freed, it raises the threshold to the block's size
//! (up to 32 MiB), so a build's later per-chunk and per-tier buffers come
//! from the heaps of rayon's worker threads instead, where freed memory
//! stays mapped and fragments. Fixing the threshold turns the dynamic
//! adjustment off: a 5 x 6 build on 2 threads peaks at 65.6 MB with it and
//! 103.6 MB without, and takes 39.9 s of CPU against 44.8 s, writing the
//! same bytes (compare with `MALLOC_MMAP_THRESHOLD_=131072`, which sets
//! the same tunable, under `/usr/bin/time -v`).

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
