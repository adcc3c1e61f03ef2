//! Allocator tuning for long database builds.
//!
//! glibc's malloc serves allocations over its mmap threshold (128 KiB at
//! start) by `mmap`, and returns them to the system when freed. But each
//! time such a block is freed, it raises the threshold to the block's size
//! (up to 32 MiB), so a build's later per-chunk and per-tier buffers come
//! from the heaps of rayon's worker threads instead, where freed memory
//! stays mapped and fragments. Fixing the threshold turns the dynamic
//! adjustment off. Measured on `grundy tables build --box 5x6 --threads 2`
//! (release, `/usr/bin/time -v`, the same binary with and without
//! `MALLOC_MMAP_THRESHOLD_=131072`, which sets the same tunable): peak
//! 103.6 MB -> 65.6 MB, 44.8 s -> 39.9 s of CPU, the same bytes.

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
