//! A database file as the tier engine's store ([`TierStore`]), and the one
//! build of a whole database that the CLI's `tables build` and Python's
//! `tables.build` run: the engine's build loop ([`grundy::tier::build`])
//! into a [`FileStore`], finished by the rename into place. A partitioned
//! build (`grundy-dist`) runs the same loop into one `FileStore` per part.

use std::path::{Path, PathBuf};

use grundy::clear::shapes::{ClearShapes, ShapeBox, ShapeTables};
use grundy::tier::{
    build as build_tiers, BuildConfig, BuildError, Solo, Tier, TierControl, TierError, TierReport,
    TierStore, TierTable,
};

use crate::{DbError, Header, Part, Writer};

/// A database file (or one part of a partitioned one) being written: each
/// tier appended and synced as it is solved ([`Writer::append`]); the
/// view of a tier is its table, kept in memory.
#[derive(Debug)]
pub struct FileStore {
    writer: Writer,
    stored: Vec<TierTable>,
}

impl FileStore {
    /// Starts or resumes the build of `shape_box` into `path` (one part of
    /// a partitioned build with `part`): see [`Writer::create_or_resume_part`].
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
        Ok(FileStore { writer, stored })
    }

    /// The writer (its header, partial file and note).
    #[must_use]
    pub fn writer(&self) -> &Writer {
        &self.writer
    }

    /// Shapes of the tiers stored by an earlier run.
    #[must_use]
    pub fn stored_shapes(&self) -> u64 {
        self.stored.iter().map(TierTable::positions).sum()
    }

    /// Marks the file complete and renames it into place
    /// ([`Writer::finish`]).
    ///
    /// # Errors
    ///
    /// As [`Writer::finish`].
    pub fn finish(self) -> Result<Header, DbError> {
        self.writer.finish()
    }
}

impl TierStore for FileStore {
    type Error = DbError;
    type Values = TierTable;

    fn stored(&self) -> usize {
        self.stored.len()
    }

    fn build_id(&self) -> u64 {
        self.writer.header().part.map_or(0, |p| p.build_id)
    }

    fn resume(&mut self, tiers: usize, build_id: u64) -> Result<Vec<TierTable>, DbError> {
        self.writer.restart(tiers, build_id)?;
        self.stored.truncate(tiers);
        Ok(std::mem::take(&mut self.stored))
    }

    fn write(&mut self, _tier: Tier, table: &TierTable) -> Result<(), DbError> {
        self.writer.append(table)
    }

    fn seal(&mut self, _tier: Tier, table: TierTable) -> Result<TierTable, DbError> {
        Ok(table)
    }
}

/// Why [`build`] stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BuildFailed {
    /// A budget ran out or the build was cancelled: the partial file keeps
    /// the tiers stored so far, and the same call resumes from them.
    #[error("{reason}; {} keeps tiers 1 to {kept}: run the same command again to resume", partial.display())]
    Stopped {
        /// Why.
        reason: TierError,
        /// The partial file.
        partial: PathBuf,
        /// Tiers it keeps.
        kept: usize,
    },
    /// The engine failed (a bug in the game).
    #[error(transparent)]
    Tier(TierError),
    /// The file could not be opened or written.
    #[error(transparent)]
    Db(DbError),
}

/// A database built by [`build`].
#[derive(Debug)]
pub struct BuiltFile {
    /// Its header, complete.
    pub header: Header,
    /// Its tables.
    pub tables: ShapeTables,
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
    let mut store = FileStore::open(path, shape_box, None).map_err(BuildFailed::Db)?;
    opened(&store);
    let game = ClearShapes::new(shape_box);
    let built = build_tiers(&game, &mut store, &Solo, &BuildConfig::default(), control);
    let built = match built {
        Ok(built) => built,
        Err(BuildError::Tier(reason @ (TierError::TimeBudget { .. } | TierError::Cancelled))) => {
            return Err(BuildFailed::Stopped {
                reason,
                partial: store.writer().partial().to_owned(),
                kept: store.writer().header().tiers.len(),
            })
        }
        Err(BuildError::Tier(e)) => return Err(BuildFailed::Tier(e)),
        Err(BuildError::Store(e)) => return Err(BuildFailed::Db(e)),
        Err(BuildError::Part { message, .. }) => unreachable!("one part: {message}"),
    };
    let header = store.finish().map_err(BuildFailed::Db)?;
    let tables = ShapeTables::new(shape_box, built.own).map_err(|what| {
        BuildFailed::Db(DbError::Corrupt {
            path: path.to_owned(),
            what,
        })
    })?;
    Ok(BuiltFile {
        header,
        tables,
        resumed: built.resumed,
        tiers: built.tiers,
    })
}
