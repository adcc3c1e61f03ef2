//! A database file as the tier engine's store ([`TierStore`]), and the one
//! build of a whole database that the CLI's `tables build` and Python's
//! `tables.build` run: the engine's build loop ([`grundy::tier::build`])
//! into a [`FileStore`], finished by the rename into place. A partitioned
//! build (`grundy-dist`) runs the same loop into one `FileStore` per part.

use std::path::{Path, PathBuf};

use grundy::clear::shapes::{ClearShapes, ShapeBox};
use grundy::tier::{
    build as build_tiers, BuildConfig, BuildError, Solo, Tier, TierControl, TierError, TierReport,
    TierStore, TierTable, TierValues,
};
use grundy::tier::{CompactTier, Entry, LineTier};
use rayon::prelude::*;

use crate::solving::{remove_beside, Solving};
use crate::{DbError, DbSet, Header, Part, Writer};

/// A database file (or one part of a partitioned one) being written, each
/// tier appended and synced as it is solved. A whole database is written
/// in the compact format ([`FileStore::open_compact`], version 2): the
/// view of a sealed tier is the [`CompactTier`] it wrote, so the build
/// keeps about 2 bytes a shape of every earlier tier, never its table. A
/// part of a partitioned build is written in version 1 ([`FileStore::open`],
/// [`Writer::append`]; `tables merge` joins the parts into the compact
/// file a single build writes): its view is its table.
#[derive(Debug)]
pub struct FileStore {
    writer: Writer,
    stored: Vec<StoredTier>,
    /// The tier written last, as the build will hold it once sealed.
    written: Option<(Tier, Written)>,
    compact: bool,
    shape_box: ShapeBox,
    /// The solved stretches of the tier under way, kept beside the file.
    solving: Option<Solving>,
}

/// The read view of one stored tier: its table (a part of a partitioned
/// build) or the compact form it was written in (a whole database).
#[derive(Debug)]
pub enum StoredTier {
    /// The tier's hash table (format version 1).
    Table(TierTable),
    /// The tier as written in format version 2.
    Compact(CompactTier<TierBytes>),
    /// A tier the build has just solved, held in lines of one cache line a
    /// lookup ([`LineTier`]): a compact tier reads a part's record and then
    /// an entry, two dependent misses that bound a large box's build.
    Lines(LineTier<TierBytes>),
}

/// Positions from which a tier the build has just solved is held as a
/// [`LineTier`] rather than in its compact form: a lookup reads one cache
/// line, not a part's record and then an entry. Below it a tier's records
/// stay in cache, and the lines, with more to compute a lookup, are slower
/// (`docs/design.md`, "Tried and dropped"; the gain above it is in
/// `docs/results.md`, "The tier engine, step by step"). This crate's own tests, whose boxes
/// are small, hold tiers from 1,000 positions in lines, so that its builds
/// (checked against fresh and embedded databases) go through both forms.
pub const LINES_FROM: u64 = if cfg!(test) { 1_000 } else { 4_000_000 };

/// A solved tier as the build will hold it once it is sealed.
#[derive(Debug)]
enum Written {
    /// Its compact bytes, as written.
    Compact(Vec<u8>),
    /// Lines built from its table ([`LINES_FROM`] positions or more).
    Lines(LineTier),
}

/// A compact tier's bytes as a build holds them: a copy in anonymous memory
/// advised to use transparent huge pages (`MADV_HUGEPAGE`).
///
/// Why: a build of a large box spends most of its time reading earlier
/// tiers at random (a compact lookup reads a part's record, then an entry),
/// and with 4 KiB pages nearly every read of a tier of hundreds of
/// megabytes also misses the TLB; huge pages value a large 6 x 6 tier
/// about 1.3x as fast (`large_tier`'s `heap` and `huge` modes,
/// `docs/results.md`). The advice is only advice: where the system gives no huge
/// pages the bytes stay in ordinary pages of the map; the values read are
/// the same. The map is exactly the bytes (a lookup reads them through
/// `as_ref`, which must cost nothing: an enum of a map or a `Vec` here
/// would not be inlined on every read), so only its whole 2 MiB pages inside can be
/// huge: all but at most 4 MiB of a tier.
#[derive(Debug)]
pub struct TierBytes(memmap2::MmapMut);

impl TierBytes {
    /// `bytes` (not empty: a compact tier has a header), moved into an
    /// anonymous map advised to use huge pages.
    ///
    /// # Errors
    ///
    /// The system's, when it maps no memory.
    pub fn new(bytes: &[u8]) -> std::io::Result<TierBytes> {
        let mut map = memmap2::MmapMut::map_anon(bytes.len().max(1))?;
        #[cfg(target_os = "linux")]
        {
            // Advice only: refused, the copy is in ordinary pages.
            let _ = map.advise(memmap2::Advice::HugePage);
        }
        map[..bytes.len()].copy_from_slice(bytes);
        Ok(TierBytes(map))
    }
}

impl AsRef<[u8]> for TierBytes {
    #[inline]
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

/// A compact tier read from `bytes`, held as [`TierBytes`].
fn held(bytes: Vec<u8>, path: &Path) -> Result<CompactTier<TierBytes>, DbError> {
    let held = TierBytes::new(&bytes).map_err(|error| DbError::Io {
        path: path.to_owned(),
        error,
    })?;
    drop(bytes);
    CompactTier::from_bytes(held).map_err(|e| DbError::Corrupt {
        path: path.to_owned(),
        what: e.to_string(),
    })
}

impl StoredTier {
    /// Positions the tier holds.
    #[must_use]
    pub fn positions(&self) -> u64 {
        TierValues::positions(self)
    }
}

impl TierValues for StoredTier {
    fn positions(&self) -> u64 {
        match self {
            StoredTier::Table(t) => t.positions(),
            StoredTier::Compact(c) => TierValues::positions(c),
            StoredTier::Lines(l) => TierValues::positions(l),
        }
    }

    #[inline]
    fn probe_key(&self, key: u64) -> u64 {
        match self {
            StoredTier::Table(t) => t.probe_key(key),
            StoredTier::Compact(c) => c.probe_key(key),
            StoredTier::Lines(l) => l.probe_key(key),
        }
    }

    #[inline]
    fn prefetch_key(&self, probe: u64) {
        match self {
            StoredTier::Table(t) => t.prefetch_key(probe),
            StoredTier::Compact(c) => c.prefetch_key(probe),
            StoredTier::Lines(l) => l.prefetch_key(probe),
        }
    }

    #[inline]
    fn locate(&self, probe: u64) -> usize {
        match self {
            StoredTier::Table(t) => t.locate(probe),
            StoredTier::Compact(c) => c.locate(probe),
            StoredTier::Lines(l) => l.locate(probe),
        }
    }

    #[inline]
    fn prefetch(&self, at: usize) {
        match self {
            StoredTier::Table(t) => t.prefetch(at),
            StoredTier::Compact(c) => c.prefetch(at),
            StoredTier::Lines(l) => l.prefetch(at),
        }
    }

    #[inline]
    fn value_at(&self, probe: u64, at: usize) -> Option<u32> {
        match self {
            StoredTier::Table(t) => t.value_at(probe, at),
            StoredTier::Compact(c) => c.value_at(probe, at),
            StoredTier::Lines(l) => l.value_at(probe, at),
        }
    }

    fn value(&self, key: u64) -> Option<u32> {
        match self {
            StoredTier::Table(t) => t.value(key),
            StoredTier::Compact(c) => TierValues::value(c, key),
            StoredTier::Lines(l) => TierValues::value(l, key),
        }
    }
}

impl FileStore {
    /// Starts or resumes the build of `shape_box` into `path` in format
    /// version 1 (one part of a partitioned build with `part`): see
    /// [`Writer::create_or_resume_part`].
    ///
    /// # Errors
    ///
    /// As [`Writer::create_or_resume_part`].
    pub fn open(
        path: &Path,
        shape_box: ShapeBox,
        part: Option<Part>,
    ) -> Result<FileStore, DbError> {
        let (writer, stored) = Writer::create_or_resume_part(path, shape_box, part)?;
        Ok(FileStore {
            writer,
            stored: stored.into_iter().map(StoredTier::Table).collect(),
            written: None,
            compact: false,
            shape_box,
            solving: None,
        })
    }

    /// Starts or resumes the build of the whole database of `shape_box`
    /// into `path` in the compact format: see
    /// [`Writer::create_or_resume_compact`].
    ///
    /// # Errors
    ///
    /// As [`Writer::create_or_resume_compact`].
    pub fn open_compact(path: &Path, shape_box: ShapeBox) -> Result<FileStore, DbError> {
        let (writer, stored) = Writer::create_or_resume_compact(path, shape_box)?;
        let stored = stored
            .into_iter()
            .map(|tier| held(tier.into_bytes(), writer.partial()).map(StoredTier::Compact))
            .collect::<Result<_, _>>()?;
        Ok(FileStore {
            writer,
            stored,
            written: None,
            compact: true,
            shape_box,
            solving: None,
        })
    }

    /// The writer (its header, partial file and note).
    #[must_use]
    pub fn writer(&self) -> &Writer {
        &self.writer
    }

    /// Of the tier under way, the slots solved and kept beside the file
    /// and the slots of its table, once a stretch of it is kept.
    #[must_use]
    pub fn under_way(&self) -> Option<(usize, usize)> {
        self.solving
            .as_ref()
            .filter(|s| s.end() > 0)
            .map(|s| (s.end(), s.slots()))
    }

    /// Shapes of the tiers stored by an earlier run.
    #[must_use]
    pub fn stored_shapes(&self) -> u64 {
        self.stored.iter().map(StoredTier::positions).sum()
    }

    /// Marks the file complete and renames it into place
    /// ([`Writer::finish`]).
    ///
    /// # Errors
    ///
    /// As [`Writer::finish`].
    pub fn finish(mut self) -> Result<Header, DbError> {
        self.complete()?;
        self.publish()
    }

    /// Marks the file complete, not yet in place ([`Writer::complete`]).
    ///
    /// # Errors
    ///
    /// As [`Writer::complete`].
    pub fn complete(&mut self) -> Result<(), DbError> {
        self.writer.complete()
    }

    /// Renames the completed file into place ([`Writer::publish`]) and
    /// removes what was kept beside it for a resume.
    ///
    /// # Errors
    ///
    /// As [`Writer::publish`].
    pub fn publish(self) -> Result<Header, DbError> {
        let partial = self.writer.partial().to_owned();
        let header = self.writer.publish()?;
        remove_beside(&partial)?;
        Ok(header)
    }

    /// The tier under way is in the file: its solved stretches are kept
    /// no longer (removed before anything else is built, so a build
    /// stopped from here on leaves no stale stretches beside the file).
    fn forget_stretches(&mut self) -> Result<(), DbError> {
        match self.solving.take() {
            Some(solving) => solving.remove(),
            None => Ok(()),
        }
    }

    fn corrupt(&self, what: String) -> DbError {
        DbError::Corrupt {
            path: self.writer.partial().to_owned(),
            what,
        }
    }
}

impl TierStore for FileStore {
    type Error = DbError;
    type Values = StoredTier;

    fn stored(&self) -> usize {
        self.stored.len()
    }

    fn build_id(&self) -> u64 {
        self.writer.header().part.map_or(0, |p| p.build_id)
    }

    fn resume(&mut self, tiers: usize, build_id: u64) -> Result<Vec<StoredTier>, DbError> {
        self.writer.restart(tiers, build_id)?;
        self.stored.truncate(tiers);
        Ok(std::mem::take(&mut self.stored))
    }

    fn write(
        &mut self,
        tier: Tier,
        table: &TierTable,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<(), DbError> {
        if self.compact {
            let bytes =
                CompactTier::build_until(table, stop).map_err(|e| self.corrupt(e.to_string()))?;
            self.writer.append_compact(&bytes)?;
            self.forget_stretches()?;
            let held = if table.positions() < LINES_FROM {
                Written::Compact(bytes)
            } else {
                drop(bytes);
                Written::Lines(
                    LineTier::build_until(table, stop).map_err(|e| self.corrupt(e.to_string()))?,
                )
            };
            self.written = Some((tier, held));
            Ok(())
        } else {
            self.writer.append(table)?;
            self.forget_stretches()
        }
    }

    /// The compact encoding's build (its parts' keys gathered, the
    /// encoding, about 2 bytes a position, then lines from
    /// [`LINES_FROM`]), with what the allocator keeps of it: 16 bytes a
    /// position, from the resident memory sampled around the writes of
    /// 3 x 10's largest tiers (`docs/results.md`, "A memory budget for
    /// database builds"), where 4 bytes let the build pass its budget by
    /// 12%.
    fn write_bytes(&self, positions: u64) -> u64 {
        if self.compact {
            positions.saturating_mul(16)
        } else {
            0
        }
    }

    fn solved_prefix(&mut self, tier: Tier, table: &mut TierTable) -> Result<usize, DbError> {
        let solving = Solving::open(self.writer.partial(), self.shape_box, tier, table)?;
        let end = solving.end();
        self.solving = Some(solving);
        Ok(end)
    }

    fn keep_solved(
        &mut self,
        tier: Tier,
        table: &TierTable,
        solved: std::ops::Range<usize>,
    ) -> Result<(), DbError> {
        match &mut self.solving {
            Some(solving) if solving.tier() == tier => solving.keep(table, solved),
            _ => Err(self.corrupt(format!(
                "tier {tier}: a stretch kept before the tier was opened"
            ))),
        }
    }

    /// A large tier read back compact is held in lines again, as the build
    /// that solved it held it ([`LINES_FROM`]): a compact lookup reads a
    /// part's record and then an entry, two misses one after the other,
    /// and a resumed build would read every earlier tier so. The lines are
    /// built from the regenerated keys and the values the compact tier
    /// gives for them, so they are the lines the unbroken build held (they
    /// depend only on the keys and values). Setting them up costs some
    /// seconds and memory on resume, repaid within a large tier
    /// (`docs/results.md`, "The tier engine, step by step").
    fn regenerated(
        &mut self,
        tier: Tier,
        view: &mut StoredTier,
        keys: &[u64],
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<(), DbError> {
        let StoredTier::Compact(compact) = view else {
            return Ok(());
        };
        if !self.compact || (keys.len() as u64) < LINES_FROM {
            return Ok(());
        }
        // A chunk's keys are read between two asks of `stop`; `None`:
        // stopped (the build loop reports the stop, not this error).
        let entries: Result<Vec<Entry>, Option<u64>> = keys
            .par_chunks(1 << 16)
            .flat_map_iter(|chunk| {
                let stopped = stop();
                let chunk = if stopped { &chunk[..0] } else { chunk };
                stopped
                    .then_some(Err(None))
                    .into_iter()
                    .chain(chunk.iter().map(|&key| {
                        TierValues::value(compact, key)
                            .and_then(|value| Entry::new(key, value))
                            .ok_or(Some(key))
                    }))
            })
            .collect();
        let entries = entries.map_err(|key| match key {
            Some(key) => self.corrupt(format!(
                "tier {tier}: the regenerated shape {key:#x} has no value in the file"
            )),
            None => self.corrupt("stopped while reading a tier back".to_owned()),
        })?;
        let table = TierTable::from_entries(entries).map_err(|e| self.corrupt(e.to_string()))?;
        let lines = LineTier::build_until(&table, stop).map_err(|e| self.corrupt(e.to_string()))?;
        drop(table);
        let lines = lines
            .with_bytes(TierBytes::new)
            .map_err(|error| DbError::Io {
                path: self.writer.partial().to_owned(),
                error,
            })?;
        *view = StoredTier::Lines(lines);
        Ok(())
    }

    fn seal(&mut self, tier: Tier, table: TierTable) -> Result<StoredTier, DbError> {
        if !self.compact {
            return Ok(StoredTier::Table(table));
        }
        drop(table);
        match self.written.take() {
            Some((written, Written::Compact(bytes))) if written == tier => {
                held(bytes, self.writer.partial()).map(StoredTier::Compact)
            }
            Some((written, Written::Lines(lines))) if written == tier => lines
                .with_bytes(TierBytes::new)
                .map(StoredTier::Lines)
                .map_err(|error| DbError::Io {
                    path: self.writer.partial().to_owned(),
                    error,
                }),
            _ => Err(self.corrupt(format!("tier {tier} sealed before it was written"))),
        }
    }
}

/// Why [`build`] stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BuildFailed {
    /// A budget ran out or the build was cancelled: the partial file keeps
    /// the tiers stored so far (and, beside it, what was solved of the
    /// tier under way), and the same call resumes from them.
    #[error("{reason}; {} keeps {}{}: {}", partial.display(), kept_tiers(*kept), kept_of_next(*kept, *under_way, *earlier_stretches), resume_advice(reason, self.stalled(), *earlier_stretches))]
    Stopped {
        /// Why.
        reason: TierError,
        /// The partial file.
        partial: PathBuf,
        /// Tiers it keeps.
        kept: usize,
        /// Tiers it held when this build began (a resumed build's).
        started_with: usize,
        /// Of the tier under way (tier `kept + 1`, 1-based), the slots
        /// solved and kept and the slots of its table; `None` when none
        /// were kept.
        under_way: Option<(usize, usize)>,
        /// Whether stretches of the tier under way that an earlier run
        /// kept lie beside the partial file unread: the budget ran out
        /// before this run read them back (they are kept for the next).
        earlier_stretches: bool,
    },
    /// The engine failed (a bug in the game).
    #[error(transparent)]
    Tier(TierError),
    /// The file could not be opened or written.
    #[error(transparent)]
    Db(DbError),
}

/// The tiers a stopped build keeps, in words: `no tier`, `tier 1`,
/// `tiers 1 to 12`.
pub fn kept_tiers(kept: usize) -> String {
    match kept {
        0 => "no tier".to_owned(),
        1 => "tier 1".to_owned(),
        _ => format!("tiers 1 to {kept}"),
    }
}

impl BuildFailed {
    /// Whether a build stopped by its time budget kept nothing new: no
    /// tier finished and no stretch of the one under way kept (only large
    /// tiers keep stretches), so the same budget would stop it again at
    /// the same place.
    #[must_use]
    pub fn stalled(&self) -> bool {
        matches!(
            self,
            BuildFailed::Stopped {
                reason: TierError::TimeBudget { .. },
                kept,
                started_with,
                under_way: None,
                ..
            } if kept == started_with
        )
    }
}

/// The words of [`BuildFailed::Stopped`] on how to resume: past the memory
/// budget the same command would stop at the same tier again, and so would
/// a time budget in which no tier finished (`stalled`).
fn resume_advice(reason: &TierError, stalled: bool, earlier_stretches: bool) -> &'static str {
    match reason {
        TierError::MemoryBudget { .. } => {
            "run the same command with a larger memory budget to resume"
        }
        TierError::TimeBudget { .. } if stalled && earlier_stretches => {
            "no tier finished within this time budget, which ran out before the tier under way was read back with its solved stretches, so resume with a larger time budget: the same one would stop here again"
        }
        TierError::TimeBudget { .. } if stalled => {
            "no tier finished within this time budget, and the tier under way is solved again from its start (only large tiers keep their solved stretches), so resume with a larger time budget: the same one would stop here again"
        }
        _ => "run the same command again to resume",
    }
}

/// The words of [`BuildFailed::Stopped`] on the tier under way.
fn kept_of_next(kept: usize, under_way: Option<(usize, usize)>, earlier_stretches: bool) -> String {
    match under_way {
        Some((solved, slots)) if slots > 0 => format!(
            " and {:.0}% of tier {} (its solved stretches)",
            100.0 * solved as f64 / slots as f64,
            kept + 1
        ),
        _ if earlier_stretches => format!(
            " and the solved stretches of tier {} that an earlier run kept",
            kept + 1
        ),
        _ => String::new(),
    }
}

/// A database built by [`build`].
#[derive(Debug)]
pub struct BuiltFile {
    /// Its header, complete.
    pub header: Header,
    /// The finished file, opened (and so checked) as a reader opens it.
    pub set: DbSet,
    /// Tiers found stored at the start (a resumed build).
    pub resumed: usize,
    /// The tiers built now.
    pub tiers: Vec<TierReport>,
}

/// Builds (or resumes) the database of every shape of `shape_box` into
/// `path` in this process: the engine's build loop into a [`FileStore`],
/// then [`FileStore::finish`]. `opened` sees the store before the first
/// tier (its note, the tiers it resumes from).
///
/// # Errors
///
/// [`BuildFailed::Stopped`] on a budget or cancellation (the partial file
/// keeps every stored tier), [`BuildFailed::Db`] when the file cannot be
/// opened or written.
pub fn build(
    path: &Path,
    shape_box: ShapeBox,
    control: &TierControl<'_>,
    opened: impl FnOnce(&FileStore),
) -> Result<BuiltFile, BuildFailed> {
    build_with(path, shape_box, &BuildConfig::default(), control, opened)
}

/// [`build`] with the loop's `config` (how often the tier under way is
/// kept, a hook between its stretches), for tests and tools.
///
/// # Errors
///
/// As [`build`].
pub fn build_with(
    path: &Path,
    shape_box: ShapeBox,
    config: &BuildConfig<'_>,
    control: &TierControl<'_>,
    opened: impl FnOnce(&FileStore),
) -> Result<BuiltFile, BuildFailed> {
    let mut store = FileStore::open_compact(path, shape_box).map_err(BuildFailed::Db)?;
    opened(&store);
    let started_with = store.writer().header().tiers.len();
    let game = ClearShapes::new(shape_box);
    let built = build_tiers(&game, &mut store, &Solo, config, control);
    let built = match built {
        Ok(built) => built,
        Err(BuildError::Tier(
            reason @ (TierError::TimeBudget { .. }
            | TierError::Cancelled
            | TierError::MemoryBudget { .. }),
        )) => {
            return Err(BuildFailed::Stopped {
                reason,
                partial: store.writer().partial().to_owned(),
                kept: store.writer().header().tiers.len(),
                started_with,
                under_way: store.under_way(),
                earlier_stretches: store.under_way().is_none()
                    && crate::solving::solving_path(store.writer().partial()).exists(),
            })
        }
        Err(BuildError::Tier(e)) => return Err(BuildFailed::Tier(e)),
        Err(BuildError::Store(e)) => return Err(BuildFailed::Db(e)),
        Err(BuildError::Part { message, .. }) => unreachable!("one part: {message}"),
    };
    // The views hold what was written; the file is read back instead.
    drop(built.own);
    let header = store.finish().map_err(BuildFailed::Db)?;
    let set = DbSet::open(path).map_err(BuildFailed::Db)?;
    Ok(BuiltFile {
        header,
        set,
        resumed: built.resumed,
        tiers: built.tiers,
    })
}
