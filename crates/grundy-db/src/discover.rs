//! Where the front-ends (the CLI's `clear`, `sum` and `serve`, Python, the
//! web server) find shape databases, in one place so they all agree.
//!
//! **Rule.** First match wins: the paths given (the CLI's `--tables`, a
//! file or a directory of `*.gdb` files; repeatable), else `GRUNDY_TABLES`
//! (paths separated as the platform's `PATH` is, `:` on Unix), else the
//! default directory (`$XDG_DATA_HOME/grundy/tables`, or
//! `~/.local/share/grundy/tables`) when it exists. A directory's files are
//! opened in name order. A damaged `*.gdb` found by scanning a directory is
//! skipped and reported ([`Found::skipped`]), so one bad file does not stop
//! the others from answering; a damaged file named (given, or in
//! `GRUNDY_TABLES`) is an error. The parts of a partitioned database are
//! opened once, with their set.
//!
//! **Cost.** Each file is mapped and its checksums checked once
//! ([`DbSet::open`]); the result is owned by the caller (no process-wide
//! cache), so a second search with other paths finds other databases, and
//! databases are unmapped when the last lookup holding them is dropped.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use grundy::clear::shapes::ShapeLookup;

use crate::{DbError, DbSet};

/// The environment variable that lists databases.
pub const ENV: &str = "GRUNDY_TABLES";

/// The default directory of databases, whether or not it exists:
/// `$XDG_DATA_HOME/grundy/tables`, else `$HOME/.local/share/grundy/tables`.
#[must_use]
pub fn default_dir() -> Option<PathBuf> {
    default_dir_of(
        std::env::var_os("XDG_DATA_HOME").as_deref(),
        std::env::var_os("HOME").as_deref(),
    )
}

fn default_dir_of(xdg_data_home: Option<&OsStr>, home: Option<&OsStr>) -> Option<PathBuf> {
    if let Some(data) = xdg_data_home.filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(data).join("grundy").join("tables"));
    }
    home.filter(|h| !h.is_empty())
        .map(|home| PathBuf::from(home).join(".local/share/grundy/tables"))
}

/// Why databases cannot be found.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DiscoverError {
    /// A directory to search cannot be listed.
    #[error("{}: cannot read: {error}", path.display())]
    ReadDir {
        /// The directory.
        path: PathBuf,
        /// The error.
        error: std::io::Error,
    },
    /// A directory named explicitly holds no database: searching without
    /// it would answer, only slower, with nothing said of why.
    #[error("{}: is a directory without a database (*.gdb)", path.display())]
    Empty {
        /// The directory.
        path: PathBuf,
    },
    /// A directory opened as one database holds several ([`open_only`]).
    #[error("{}: is a directory of several databases ({}); name one", path.display(), names.join(", "))]
    Several {
        /// The directory.
        path: PathBuf,
        /// The databases in it (a partitioned one as `PATH in N parts`),
        /// and its damaged files.
        names: Vec<String>,
    },
    /// A database named explicitly cannot be opened.
    #[error(transparent)]
    Open(#[from] DbError),
}

/// The one database in the directory `dir` (a file, or the parts of one
/// build), found as `--tables DIR` finds its databases: what the readers
/// (`tables info`, `checksum`, `verify`, Python's `grundy.tables.open`)
/// open when given a directory.
///
/// # Errors
///
/// [`DiscoverError::Empty`] without a database, [`DiscoverError::Several`]
/// with more than one (a damaged file counts, as it may be the one meant),
/// the damaged file's error when it is the only one, and those of
/// [`Search::open`].
pub fn open_only(dir: &Path) -> Result<DbSet, DiscoverError> {
    let found = Search::with_env(&[dir.to_owned()], None, None).open()?;
    let (mut sets, skipped) = (found.sets, found.skipped);
    if sets.len() == 1 && skipped.is_empty() {
        return Ok(sets.pop().expect("one database"));
    }
    if sets.is_empty() {
        return Err(match skipped.into_iter().next() {
            // A damaged database is named as a reader of its file names it.
            Some(skipped) => DiscoverError::Open(skipped.error),
            None => DiscoverError::Empty {
                path: dir.to_owned(),
            },
        });
    }
    let names = sets
        .iter()
        .map(|s| match s.parts() {
            [_] => s.path().display().to_string(),
            // A partitioned build is named by its first part, the file to
            // name to open it: the path it was asked to write may be a
            // whole file's beside it.
            [first, _] => format!("{} and its other part", first.path().display()),
            parts => format!(
                "{} and its {} other parts",
                parts[0].path().display(),
                parts.len() - 1
            ),
        })
        .chain(skipped.iter().map(|s| s.path.display().to_string()))
        .collect();
    Err(DiscoverError::Several {
        path: dir.to_owned(),
        names,
    })
}

/// Where to look, decided once (see the module doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Search {
    paths: Vec<PathBuf>,
    /// True when the paths were named (given or by the environment): a
    /// missing or damaged file is then an error.
    named: bool,
}

impl Search {
    /// The search for these paths, else those of `GRUNDY_TABLES`, else the
    /// default directory, read from this process's environment.
    #[must_use]
    pub fn new(given: &[PathBuf]) -> Search {
        Search::with_env(given, std::env::var_os(ENV).as_deref(), default_dir())
    }

    /// [`Search::new`] with the environment given: the value of
    /// `GRUNDY_TABLES` and the default directory.
    #[must_use]
    pub fn with_env(
        given: &[PathBuf],
        env: Option<&OsStr>,
        default_dir: Option<PathBuf>,
    ) -> Search {
        if !given.is_empty() {
            return Search {
                paths: given.to_vec(),
                named: true,
            };
        }
        // Empty entries are left out, as in `PATH`: `GRUNDY_TABLES=$NEW:$GRUNDY_TABLES`
        // with the variable unset leaves a trailing `:`.
        let paths: Vec<PathBuf> = env
            .map(|env| {
                std::env::split_paths(env)
                    .filter(|p| !p.as_os_str().is_empty())
                    .collect()
            })
            .unwrap_or_default();
        if !paths.is_empty() {
            return Search { paths, named: true };
        }
        Search {
            paths: default_dir.filter(|d| d.is_dir()).into_iter().collect(),
            named: false,
        }
    }

    /// The paths searched, in order.
    #[must_use]
    pub fn paths(&self) -> &[PathBuf] {
        &self.paths
    }

    /// Opens every database found, in order.
    ///
    /// # Errors
    ///
    /// [`DiscoverError::ReadDir`] for a directory that cannot be listed;
    /// [`DiscoverError::Empty`] for a named directory without a `*.gdb`
    /// file; [`DiscoverError::Open`] for a named file that is missing or
    /// damaged.
    pub fn open(&self) -> Result<Found, DiscoverError> {
        let mut found = Found::default();
        // The files of partitioned databases already opened with their set.
        let mut seen: Vec<PathBuf> = Vec::new();
        for path in &self.paths {
            let scanned = path.is_dir();
            let files = if scanned {
                let files = gdb_files(path)?;
                if files.is_empty() && self.named {
                    return Err(DiscoverError::Empty { path: path.clone() });
                }
                files
            } else if self.named || path.exists() {
                vec![path.clone()]
            } else {
                Vec::new()
            };
            for file in files {
                if seen.contains(&file) {
                    continue;
                }
                let set = match DbSet::open(&file) {
                    Ok(set) => set,
                    Err(error) if scanned => {
                        // Each part of a damaged set fails as the set
                        // does, naming the same file: one entry for it.
                        let text = error.to_string();
                        if !found.skipped.iter().any(|s| s.error.to_string() == text) {
                            found.skipped.push(Skipped { path: file, error });
                        }
                        continue;
                    }
                    Err(error) => return Err(error.into()),
                };
                seen.extend(set.parts().iter().map(|p| p.path().to_owned()));
                found.sets.push(set);
            }
        }
        Ok(found)
    }
}

/// The `*.gdb` files of a directory, by name.
fn gdb_files(dir: &Path) -> Result<Vec<PathBuf>, DiscoverError> {
    let read_dir = |error| DiscoverError::ReadDir {
        path: dir.to_owned(),
        error,
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(read_dir)?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "gdb"))
        .collect();
    files.sort();
    Ok(files)
}

/// A damaged database found by scanning a directory, left out.
#[derive(Debug)]
pub struct Skipped {
    /// The file.
    pub path: PathBuf,
    /// Why it was left out.
    pub error: DbError,
}

/// The databases a [`Search`] opened.
#[derive(Debug, Default)]
pub struct Found {
    /// The databases, in the order searched.
    pub sets: Vec<DbSet>,
    /// Damaged files skipped, for the caller to report.
    pub skipped: Vec<Skipped>,
}

impl Found {
    /// One lookup over the databases found, then `fallback` (the built-in
    /// database): the first that holds a shape answers.
    #[must_use]
    pub fn into_lookup(self, fallback: Option<DbSet>) -> Arc<dyn ShapeLookup> {
        let mut sets = self.sets;
        sets.extend(fallback);
        if sets.len() == 1 {
            // One database: no list to walk on the hot path.
            return Arc::new(sets.pop().expect("one set"));
        }
        Arc::new(sets)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_dir_follows_xdg_then_home() {
        let os = |s: &'static str| Some(OsStr::new(s));
        assert_eq!(
            default_dir_of(os("/data"), os("/home/u")),
            Some(PathBuf::from("/data/grundy/tables"))
        );
        assert_eq!(
            default_dir_of(os(""), os("/home/u")),
            Some(PathBuf::from("/home/u/.local/share/grundy/tables"))
        );
        assert_eq!(default_dir_of(None, None), None);
    }

    #[test]
    fn given_paths_then_the_environment_then_the_default_directory() {
        let dir = tempfile::tempdir().unwrap();
        let given = [PathBuf::from("a.gdb")];
        let env = OsStr::new("b.gdb:c");
        let default = Some(dir.path().to_owned());
        let search = Search::with_env(&given, Some(env), default.clone());
        assert_eq!(search.paths(), &given);
        let search = Search::with_env(&[], Some(env), default.clone());
        assert_eq!(
            search.paths(),
            &[PathBuf::from("b.gdb"), PathBuf::from("c")]
        );
        let search = Search::with_env(&[], Some(OsStr::new("")), default.clone());
        assert_eq!(search.paths(), &[dir.path().to_owned()]);
        // A default directory that does not exist is no error: nothing found.
        let missing = Search::with_env(&[], None, Some(dir.path().join("none")));
        assert!(missing.paths().is_empty());
        assert!(missing.open().unwrap().sets.is_empty());
    }

    /// A directory named (given or by the environment) without a `*.gdb`
    /// file is an error; the default directory empty is no error.
    #[test]
    fn a_named_directory_without_a_database_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("notes.txt"), "not a database").unwrap();
        let named = [dir.path().to_owned()];
        let env = dir.path().as_os_str();
        for search in [
            Search::with_env(&named, None, None),
            Search::with_env(&[], Some(env), None),
        ] {
            let err = search.open().unwrap_err();
            assert!(matches!(&err, DiscoverError::Empty { path } if path == dir.path()));
            assert_eq!(
                err.to_string(),
                format!(
                    "{}: is a directory without a database (*.gdb)",
                    dir.path().display()
                )
            );
        }
        let default = Search::with_env(&[], None, Some(dir.path().to_owned()));
        assert_eq!(default.paths(), named);
        assert!(default.open().unwrap().sets.is_empty());
    }
}
