//! Why a database cannot be read or written, and where the file system
//! says so.

use std::path::{Path, PathBuf};

use grundy::clear::shapes::ShapeBox;

use crate::format::*;

/// Why a database cannot be read or written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DbError {
    /// An operating-system error. (Not a `#[source]`: the message holds
    /// it already, and an error chain would print it twice.)
    #[error("{}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        error: std::io::Error,
    },
    /// The file does not start with [`MAGIC`].
    #[error("{}: not a grundy shape database (no GRUNDYDB header)", path.display())]
    NotADatabase {
        /// The file.
        path: PathBuf,
    },
    /// Another format version.
    #[error("{}: format version {found}; this grundy reads versions {VERSION_SLOTS} and {VERSION}", path.display())]
    Version {
        /// The file.
        path: PathBuf,
        /// The version found.
        found: u32,
    },
    /// The file ends before a part it declares.
    #[error("{}: truncated: {what} needs bytes up to {needed}, the file has {len}", path.display())]
    Truncated {
        /// The file.
        path: PathBuf,
        /// The part that is cut.
        what: String,
        /// The bytes it needs.
        needed: u64,
        /// The file's length.
        len: u64,
    },
    /// A checksum does not match: the named section is corrupt.
    #[error("{}: checksum mismatch in section {section}: the file is corrupt", path.display())]
    Checksum {
        /// The file.
        path: PathBuf,
        /// `header` or `tier K`.
        section: String,
    },
    /// The header contradicts itself.
    #[error("{}: corrupt: {what}", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        what: String,
    },
    /// The build that writes this file has not finished.
    #[error("{}: an unfinished build ({}); {}", path.display(), match stored { 0 => format!("none of its {tiers} tiers yet"), _ => format!("tiers 1 to {stored} of {tiers}") }, match running { Some(Some(pid)) => format!("a build (process {pid}) is writing it now and holds its lock: wait for it to finish"), Some(None) => "a build is writing it now and holds its lock: wait for it to finish".to_owned(), None => "run `grundy tables build` again to resume it".to_owned() })]
    Incomplete {
        /// The file.
        path: PathBuf,
        /// Tiers stored.
        stored: usize,
        /// Tiers of the box.
        tiers: usize,
        /// `Some` when a running build holds the file's lock (with its
        /// process when the system says), as a reader found it.
        running: Option<Option<u32>>,
    },
    /// A stopped build's partial file, holding stored tiers, is where a
    /// convert or a merge would write: replacing it would lose them.
    #[error("{}: a stopped build of a {shape_box} box keeps tiers 1 to {stored} of {tiers} there; run its `grundy tables build` again to resume it, or remove it, or choose another output", path.display())]
    StoppedBuild {
        /// The partial file.
        path: PathBuf,
        /// Its box.
        shape_box: ShapeBox,
        /// Tiers stored.
        stored: usize,
        /// Tiers of the box.
        tiers: usize,
    },
    /// A partial file of another part or partitioning is in the way.
    #[error("{}: a partial build of {found}, not {expected}; remove it or choose another output", path.display())]
    PartMismatch {
        /// The file.
        path: PathBuf,
        /// What it is.
        found: String,
        /// What was asked for.
        expected: String,
    },
    /// The parts of a partitioned database do not make a whole.
    #[error("{}: {what}", path.display())]
    Parts {
        /// A file of the set, or the path asked for.
        path: PathBuf,
        /// What is wrong.
        what: String,
    },
    /// Another build holds the lock on the partial file: one writer per
    /// path.
    #[error("{}: another build is writing it{}; wait for it to finish or stop it, then run again", path.display(), holder.map(|pid| format!(" (process {pid} holds its lock)")).unwrap_or_default())]
    Busy {
        /// The partial file.
        path: PathBuf,
        /// The process holding the lock, where the system tells.
        holder: Option<u32>,
    },
    /// The file system is full (or the quota is used up).
    #[error("{}: out of disk space: writing it needs {needed} more bytes{}", path.display(), available.map(|a| format!(", {a} are available")).unwrap_or_default())]
    NoSpace {
        /// The file being written.
        path: PathBuf,
        /// The bytes the step needed.
        needed: u64,
        /// The bytes available to this user, where known.
        available: Option<u64>,
    },
    /// A database of another game: its header names it.
    #[error("{}: a database of {found}, not of {expected}", path.display())]
    WrongGame {
        /// The file.
        path: PathBuf,
        /// The game and parameters its header names.
        found: String,
        /// What this reader serves.
        expected: String,
    },
    /// A partial build of another box is in the way.
    #[error("{}: a partial build of a {found} box, not {expected}; remove it or choose another output", path.display())]
    BoxMismatch {
        /// The file.
        path: PathBuf,
        /// Its box.
        found: ShapeBox,
        /// The box asked for.
        expected: ShapeBox,
    },
}

pub(crate) type Result<T> = std::result::Result<T, DbError>;

/// For readers that write as they read ([`meta::export_csv`](crate::meta::export_csv)): a database
/// error met midway is invalid data.
impl From<DbError> for std::io::Error {
    fn from(e: DbError) -> std::io::Error {
        std::io::Error::new(std::io::ErrorKind::InvalidData, e)
    }
}

pub(crate) fn io(path: &Path) -> impl FnOnce(std::io::Error) -> DbError + '_ {
    move |error| DbError::Io {
        path: path.to_owned(),
        error,
    }
}

/// A write error: [`DbError::NoSpace`] for a full disk or quota (`needed`
/// bytes were being written), else [`DbError::Io`].
pub(crate) fn write_error(path: &Path, needed: u64) -> impl FnOnce(std::io::Error) -> DbError + '_ {
    move |error| {
        if is_no_space(&error) {
            DbError::NoSpace {
                path: path.to_owned(),
                needed,
                available: available_space(path),
            }
        } else {
            DbError::Io {
                path: path.to_owned(),
                error,
            }
        }
    }
}

pub(crate) fn is_no_space(e: &std::io::Error) -> bool {
    use std::io::ErrorKind;
    matches!(e.kind(), ErrorKind::StorageFull | ErrorKind::QuotaExceeded)
}

/// Bytes available to this user on the file system that holds `path` (a
/// file, or a directory; a file that does not exist yet is looked up by its
/// directory), by `statvfs` through `fs4`; `None` when the system does not
/// say.
#[must_use]
pub fn available_space(path: &Path) -> Option<u64> {
    let dir = if path.is_dir() {
        path
    } else {
        match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        }
    };
    fs4::available_space(dir).ok()
}
