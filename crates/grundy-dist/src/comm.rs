//! The ranks of a build and the one collective they need: an all-to-all
//! exchange of byte buffers. Everything else (reductions, gathers, agreeing
//! on errors) is built on it here, so that the MPI transport (`MpiComm`,
//! feature `mpi`) and the in-process one the tests use ([`LocalComm`],
//! threads) differ only in that one call.
//!
//! **Bounded exchanges.** [`Ranks::exchange`] splits a large exchange into
//! rounds of at most [`Ranks::round_bytes`] per destination, agreed by all
//! ranks, so that no single MPI call moves more than its 32-bit counts
//! allow and buffers stay bounded.

use std::cell::Cell;
use std::sync::{Arc, Barrier, Mutex};

/// A group of ranks that can exchange bytes. All ranks must make the same
/// sequence of calls (they are collective).
pub trait Comm {
    /// This rank, `0..size`.
    fn rank(&self) -> u32;
    /// How many ranks.
    fn size(&self) -> u32;
    /// How many ranks share this rank's node (and its memory).
    fn node_ranks(&self) -> u32;
    /// One all-to-all exchange: `send[r]` goes to rank `r`; the result
    /// holds, at index `r`, what rank `r` sent here.
    fn exchange_once(&self, send: &[Vec<u8>]) -> Vec<Vec<u8>>;
}

/// A [`Comm`] with the collectives a build needs, counting the bytes this
/// rank sends to other ranks.
pub struct Ranks<'c, C: Comm> {
    comm: &'c C,
    sent: Cell<u64>,
    round_bytes: usize,
}

impl<'c, C: Comm> Ranks<'c, C> {
    /// Wraps `comm`; exchanges move at most `round_bytes` per destination
    /// per round.
    pub fn new(comm: &'c C, round_bytes: usize) -> Ranks<'c, C> {
        Ranks {
            comm,
            sent: Cell::new(0),
            round_bytes: round_bytes.max(8),
        }
    }

    /// This rank.
    pub fn rank(&self) -> u32 {
        self.comm.rank()
    }

    /// How many ranks.
    pub fn size(&self) -> u32 {
        self.comm.size()
    }

    /// How many ranks share this node.
    pub fn node_ranks(&self) -> u32 {
        self.comm.node_ranks()
    }

    /// The most bytes a round moves per destination.
    pub fn round_bytes(&self) -> usize {
        self.round_bytes
    }

    /// Bytes sent to other ranks so far.
    pub fn sent(&self) -> u64 {
        self.sent.get()
    }

    fn once(&self, send: &[Vec<u8>]) -> Vec<Vec<u8>> {
        let me = self.rank() as usize;
        let out: u64 = send
            .iter()
            .enumerate()
            .filter(|&(r, _)| r != me)
            .map(|(_, b)| b.len() as u64)
            .sum();
        self.sent.set(self.sent.get() + out);
        self.comm.exchange_once(send)
    }

    /// Sends the same bytes to every rank; returns every rank's, by rank.
    pub fn all_gather_bytes(&self, mine: &[u8]) -> Vec<Vec<u8>> {
        let send = vec![mine.to_vec(); self.size() as usize];
        self.once(&send)
    }

    /// Every rank's `x`, by rank.
    pub fn all_gather_u64(&self, x: u64) -> Vec<u64> {
        self.all_gather_bytes(&x.to_le_bytes())
            .iter()
            .map(|b| u64::from_le_bytes(b[..8].try_into().expect("8 bytes from each rank")))
            .collect()
    }

    /// The largest `x` over the ranks.
    pub fn max(&self, x: u64) -> u64 {
        self.all_gather_u64(x).into_iter().max().unwrap_or(x)
    }

    /// The smallest `x` over the ranks.
    pub fn min(&self, x: u64) -> u64 {
        self.all_gather_u64(x).into_iter().min().unwrap_or(x)
    }

    /// The sum of `x` over the ranks.
    pub fn sum(&self, x: u64) -> u64 {
        self.all_gather_u64(x).into_iter().sum()
    }

    /// Rank 0's `x`, on every rank.
    pub fn broadcast_u64(&self, x: u64) -> u64 {
        self.all_gather_u64(x)[0]
    }

    /// Agrees on an outcome: `Ok` on every rank when every rank's is `Ok`,
    /// else the first failing rank's message (with its rank) on every rank.
    ///
    /// # Errors
    ///
    /// `(rank, message)` of the first rank that failed.
    pub fn agree<T>(&self, local: Result<T, String>) -> Result<T, (u32, String)> {
        self.agree_bytes(local.map_err(String::into_bytes))
            .map_err(|(rank, bytes)| (rank, String::from_utf8_lossy(&bytes).into_owned()))
    }

    /// [`Ranks::agree`] of a failure given as bytes.
    ///
    /// # Errors
    ///
    /// `(rank, bytes)` of the first rank that failed.
    pub fn agree_bytes<T>(&self, local: Result<T, Vec<u8>>) -> Result<T, (u32, Vec<u8>)> {
        let mine: Vec<u8> = match &local {
            Ok(_) => Vec::new(),
            Err(message) => [&[1u8], &message[..]].concat(),
        };
        let all = self.all_gather_bytes(&mine);
        if let Some((rank, bytes)) = all.iter().enumerate().find(|(_, b)| !b.is_empty()) {
            return Err((rank as u32, bytes[1..].to_vec()));
        }
        local.map_err(|_| unreachable!("a failure is seen by every rank"))
    }

    /// An all-to-all exchange of any size, in rounds of at most
    /// [`Ranks::round_bytes`] per destination: `send[r]` goes to rank `r`;
    /// the result holds at index `r` what rank `r` sent here.
    pub fn exchange(&self, send: &[Vec<u8>]) -> Vec<Vec<u8>> {
        let size = self.size() as usize;
        debug_assert_eq!(send.len(), size);
        let longest = send.iter().map(Vec::len).max().unwrap_or(0);
        let rounds = self.max(longest.div_ceil(self.round_bytes) as u64).max(1) as usize;
        if rounds == 1 {
            return self.once(send);
        }
        let mut received = vec![Vec::new(); size];
        for round in 0..rounds {
            let piece: Vec<Vec<u8>> = send
                .iter()
                .map(|b| {
                    let from = (round * self.round_bytes).min(b.len());
                    let to = ((round + 1) * self.round_bytes).min(b.len());
                    b[from..to].to_vec()
                })
                .collect();
            for (r, bytes) in self.once(&piece).into_iter().enumerate() {
                received[r].extend_from_slice(&bytes);
            }
        }
        received
    }

    /// [`Ranks::exchange`] of plain values (`u64` keys, `u16` values).
    pub fn exchange_pod<T: bytemuck::Pod>(&self, send: &[Vec<T>]) -> Vec<Vec<T>> {
        let bytes: Vec<Vec<u8>> = send
            .iter()
            .map(|w| bytemuck::cast_slice(w).to_vec())
            .collect();
        self.exchange(&bytes)
            .iter()
            .map(|b| bytemuck::pod_collect_to_vec(b))
            .collect()
    }
}

/// Ranks as threads of one process, for tests and for checking the
/// partitioned build against the single one without MPI.
pub struct LocalComm {
    rank: u32,
    size: u32,
    shared: Arc<Shared>,
}

struct Shared {
    barrier: Barrier,
    /// `slots[r]`: what rank `r` sends in the current exchange.
    slots: Mutex<Vec<Vec<Vec<u8>>>>,
}

impl LocalComm {
    /// `size` ranks, one [`LocalComm`] per thread to run them on.
    #[must_use]
    pub fn group(size: u32) -> Vec<LocalComm> {
        let shared = Arc::new(Shared {
            barrier: Barrier::new(size as usize),
            slots: Mutex::new(vec![Vec::new(); size as usize]),
        });
        (0..size)
            .map(|rank| LocalComm {
                rank,
                size,
                shared: Arc::clone(&shared),
            })
            .collect()
    }
}

impl Comm for LocalComm {
    fn rank(&self) -> u32 {
        self.rank
    }

    fn size(&self) -> u32 {
        self.size
    }

    fn node_ranks(&self) -> u32 {
        self.size
    }

    fn exchange_once(&self, send: &[Vec<u8>]) -> Vec<Vec<u8>> {
        let me = self.rank as usize;
        self.shared.slots.lock().expect("no rank panicked")[me] = send.to_vec();
        self.shared.barrier.wait();
        let received = {
            let slots = self.shared.slots.lock().expect("no rank panicked");
            slots.iter().map(|s| s[me].clone()).collect()
        };
        // Nobody overwrites its slot before every rank has read it.
        self.shared.barrier.wait();
        received
    }
}

/// Ranks over MPI: `MPI_Alltoall` of the counts, then `MPI_Alltoallv`.
#[cfg(feature = "mpi")]
pub struct MpiComm {
    world: mpi::topology::SimpleCommunicator,
    node_ranks: u32,
    // Finalizes MPI when dropped, after `world`.
    _universe: mpi::environment::Universe,
}

#[cfg(feature = "mpi")]
impl MpiComm {
    /// True when an MPI launcher (`mpirun`, `mpiexec`, `srun`) started this
    /// process, as the launchers' environment variables tell.
    #[must_use]
    pub fn launched() -> bool {
        launched_by_mpi()
    }

    /// Initializes MPI (only the calling thread makes MPI calls), or `None`
    /// when it cannot be.
    #[must_use]
    pub fn init() -> Option<MpiComm> {
        use mpi::traits::{Communicator as _, CommunicatorCollectives as _};
        let (universe, _) = mpi::initialize_with_threading(mpi::Threading::Funneled)?;
        let world = universe.world();
        let node = world.split_shared(world.rank());
        let node_ranks = node.size().max(1) as u32;
        world.barrier();
        Some(MpiComm {
            world,
            node_ranks,
            _universe: universe,
        })
    }
}

/// True when an MPI launcher started this process: Open MPI's `mpirun`
/// (`OMPI_COMM_WORLD_SIZE`), PMI launchers such as MPICH's Hydra or Slurm
/// (`PMI_SIZE`), or PMIx ones (`PMIX_RANK`).
#[must_use]
pub fn launched_by_mpi() -> bool {
    ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"]
        .iter()
        .any(|v| std::env::var_os(v).is_some())
}

/// The number of processes the MPI launcher started, as its environment
/// tells before MPI is initialized: Open MPI's `OMPI_COMM_WORLD_SIZE` or
/// PMI's `PMI_SIZE`; `None` when neither is set (no launcher, or a PMIx
/// launcher, which names no size).
#[must_use]
pub fn launched_size() -> Option<u32> {
    ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE"]
        .iter()
        .find_map(|v| std::env::var(v).ok()?.trim().parse().ok())
}

#[cfg(feature = "mpi")]
impl Comm for MpiComm {
    fn rank(&self) -> u32 {
        use mpi::traits::Communicator as _;
        self.world.rank() as u32
    }

    fn size(&self) -> u32 {
        use mpi::traits::Communicator as _;
        self.world.size() as u32
    }

    fn node_ranks(&self) -> u32 {
        self.node_ranks
    }

    fn exchange_once(&self, send: &[Vec<u8>]) -> Vec<Vec<u8>> {
        use mpi::datatype::{Partition, PartitionMut};
        use mpi::traits::CommunicatorCollectives as _;
        let count = |n: usize| mpi::Count::try_from(n).expect("a round fits MPI's counts");
        let send_counts: Vec<mpi::Count> = send.iter().map(|b| count(b.len())).collect();
        let mut recv_counts = vec![0 as mpi::Count; send.len()];
        self.world
            .all_to_all_into(&send_counts[..], &mut recv_counts[..]);
        let displs = |counts: &[mpi::Count]| -> Vec<mpi::Count> {
            counts
                .iter()
                .scan(0, |at, &c| {
                    let here = *at;
                    *at += c;
                    Some(here)
                })
                .collect()
        };
        let send_displs = displs(&send_counts);
        let recv_displs = displs(&recv_counts);
        // Open MPI refuses equal send and receive addresses (MPI_ERR_ARG),
        // which two empty vectors have: both buffers get a byte at least.
        let mut flat: Vec<u8> = send.concat();
        if flat.is_empty() {
            flat.push(0);
        }
        let total: usize = recv_counts.iter().map(|&c| c as usize).sum();
        let mut recv = vec![0u8; total.max(1)];
        {
            let sent = Partition::new(&flat[..], &send_counts[..], &send_displs[..]);
            let mut received = PartitionMut::new(&mut recv[..], &recv_counts[..], &recv_displs[..]);
            self.world.all_to_all_varcount_into(&sent, &mut received);
        }
        recv_counts
            .iter()
            .zip(&recv_displs)
            .map(|(&c, &d)| recv[d as usize..(d + c) as usize].to_vec())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run<T: Send + 'static>(
        size: u32,
        f: impl Fn(LocalComm) -> T + Send + Sync + 'static,
    ) -> Vec<T> {
        let f = Arc::new(f);
        let handles: Vec<_> = LocalComm::group(size)
            .into_iter()
            .map(|c| {
                let f = Arc::clone(&f);
                std::thread::spawn(move || f(c))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    }

    #[test]
    fn exchanges_in_rounds_deliver_everything() {
        // Rank r sends rank s the bytes (r, s, i) for i < 10 * (r + s) + 3,
        // in rounds of 8 bytes.
        let got = run(3, |c| {
            let ranks = Ranks::new(&c, 8);
            let me = c.rank();
            let send: Vec<Vec<u8>> = (0..3u32)
                .map(|s| {
                    (0..10 * (me + s) + 3)
                        .map(|i| (me * 100 + s * 10 + i % 10) as u8)
                        .collect()
                })
                .collect();
            (me, ranks.exchange(&send), ranks.sent())
        });
        for (me, received, sent) in got {
            for (r, bytes) in received.iter().enumerate() {
                let r = r as u32;
                let expected: Vec<u8> = (0..10 * (r + me) + 3)
                    .map(|i| (r * 100 + me * 10 + i % 10) as u8)
                    .collect();
                assert_eq!(bytes, &expected);
            }
            // The size exchange of each round is counted too: it is traffic.
            let payload: u64 = (0..3u32)
                .filter(|&s| s != me)
                .map(|s| u64::from(10 * (me + s) + 3))
                .sum();
            assert!(sent >= payload, "{sent} < {payload}");
        }
    }

    #[test]
    fn reductions_and_agreement() {
        let got = run(3, |c| {
            let ranks = Ranks::new(&c, 1 << 20);
            let me = u64::from(c.rank());
            let agreed = ranks.agree(if me == 1 {
                Err("rank one fails".to_string())
            } else {
                Ok(())
            });
            let fine = ranks.agree::<u64>(Ok(me));
            (
                ranks.max(me),
                ranks.min(me + 5),
                ranks.sum(me),
                ranks.broadcast_u64(me + 7),
                agreed,
                fine,
            )
        });
        for (me, (max, min, sum, b, agreed, fine)) in got.into_iter().enumerate() {
            assert_eq!((max, min, sum, b), (2, 5, 3, 7));
            assert_eq!(agreed, Err((1, "rank one fails".to_string())));
            assert_eq!(fine, Ok(me as u64));
        }
    }
}
