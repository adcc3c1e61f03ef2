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
    /// stopped, else the first part that stopped and why, on every part.
    fn agree(&self, stopped: Option<&PartStop>) -> Option<(u32, PartStop)>;

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

    fn agree(&self, stopped: Option<&PartStop>) -> Option<(u32, PartStop)> {
        stopped.map(|s| (0, s.clone()))
    }

    fn exchange_words(&self, send: &[Vec<u64>]) -> Vec<Vec<u64>> {
        send.to_vec()
    }

    fn exchange_values(&self, send: &[Vec<u16>]) -> Vec<Vec<u16>> {
        send.to_vec()
    }
}

/// Why a part stopped, as it tells the others when they agree on a step
/// ([`Distribution::agree`]): a budget or a cancellation is the same typed
/// stop on every part; any other failure is the part's message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PartStop {
    /// The time budget ran out.
    TimeBudget,
    /// Stopped from outside (for example on Ctrl-C).
    Cancelled,
    /// The part failed; what it said.
    Failed(String),
}

impl PartStop {
    /// The first byte of each kind of stop in [`PartStop::to_bytes`].
    const FAILED: u8 = 0;
    const TIME: u8 = 1;
    const CANCEL: u8 = 2;

    /// The stop as bytes, for a distribution that sends bytes
    /// ([`PartStop::from_bytes`] reads them back).
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        match self {
            PartStop::TimeBudget => vec![Self::TIME],
            PartStop::Cancelled => vec![Self::CANCEL],
            PartStop::Failed(message) => [&[Self::FAILED], message.as_bytes()].concat(),
        }
    }

    /// The stop [`PartStop::to_bytes`] wrote (bytes it cannot have written
    /// are read as a failure with them as its message, lossily).
    #[must_use]
    pub fn from_bytes(bytes: &[u8]) -> PartStop {
        match bytes {
            [Self::TIME] => PartStop::TimeBudget,
            [Self::CANCEL] => PartStop::Cancelled,
            [Self::FAILED, message @ ..] => {
                PartStop::Failed(String::from_utf8_lossy(message).into_owned())
            }
            _ => PartStop::Failed(String::from_utf8_lossy(bytes).into_owned()),
        }
    }
}

impl std::fmt::Display for PartStop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PartStop::TimeBudget => f.write_str("the time budget ran out"),
            PartStop::Cancelled => f.write_str("stopped on request"),
            PartStop::Failed(message) => f.write_str(message),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::PartStop;

    #[test]
    fn a_stop_reads_back_as_written() {
        for stop in [
            PartStop::TimeBudget,
            PartStop::Cancelled,
            PartStop::Failed(String::new()),
            PartStop::Failed("disk full".into()),
            PartStop::Failed("\u{1}".into()),
        ] {
            assert_eq!(PartStop::from_bytes(&stop.to_bytes()), stop);
        }
    }
}
