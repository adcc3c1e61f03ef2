//! What several benchmarks share (each includes this module with
//! `mod common;`): a fixed pseudo-random stream, so that every run measures
//! the same inputs.

/// xorshift64: a repeatable stream of numbers from a nonzero seed.
pub struct Stream(pub u64);

impl Stream {
    /// The next number below `n` (slightly biased for large `n`, which no
    /// benchmark input minds).
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}
