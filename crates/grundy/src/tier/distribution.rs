//! How the parts of a build talk (GamesmanOne's `tier_mpi`): the few
//! collectives the build loop needs, behind a trait. [`Solo`] is one
//! process; `grundy-dist` implements it over threads and MPI ranks. Every
//! call is collective: all parts make the same calls in the same order.

/// The parts of a build (ranks) and their collectives.
pub trait Distribution {
    /// This part, `0..parts()`.
    fn part(&self) -> u32;

    /// How many parts.
    fn parts(&self) -> u32;

    /// Every part's `x`, by part.
    fn all_gather(&self, x: u64) -> Vec<u64>;

    /// Agrees on the outcome of a step: `None` on every part when no part
    /// failed, else the first failing part and its message, on every part.
    fn agree(&self, failed: Option<&str>) -> Option<(u32, String)>;

    /// An all-to-all exchange of words: `send[p]` goes to part `p`; the
    /// result holds, at index `p`, what part `p` sent here.
    fn exchange_words(&self, send: &[Vec<u64>]) -> Vec<Vec<u64>>;

    /// As [`Distribution::exchange_words`], of 16-bit values.
    fn exchange_values(&self, send: &[Vec<u16>]) -> Vec<Vec<u16>>;

    /// Bytes this part has sent to others so far.
    fn sent(&self) -> u64 {
        0
    }
}

/// A build in one process: one part, every collective a no-op.
#[derive(Clone, Copy, Debug, Default)]
pub struct Solo;

impl Distribution for Solo {
    fn part(&self) -> u32 {
        0
    }

    fn parts(&self) -> u32 {
        1
    }

    fn all_gather(&self, x: u64) -> Vec<u64> {
        vec![x]
    }

    fn agree(&self, failed: Option<&str>) -> Option<(u32, String)> {
        failed.map(|m| (0, m.to_owned()))
    }

    fn exchange_words(&self, send: &[Vec<u64>]) -> Vec<Vec<u64>> {
        send.to_vec()
    }

    fn exchange_values(&self, send: &[Vec<u16>]) -> Vec<Vec<u16>> {
        send.to_vec()
    }
}
