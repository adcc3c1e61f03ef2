//! The `--tables` option of `clear`, `sum` and `serve`, and the lookup it
//! gives them: grundy-db's discovery ([`grundy_db::discover`]: `--tables`,
//! else `GRUNDY_TABLES`, else the default directory) followed by the
//! built-in 5 x 5 database ([`grundy_builtin`]). Each call opens what its
//! own arguments name; the lookup is owned by the caller and dropped with
//! it.

use std::path::PathBuf;
use std::sync::Arc;

use grundy::clear::shapes::ShapeLookup;
use grundy_db::discover::Search;

use crate::output::UsageError;

/// Where the other commands look for databases.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct TablesArgs {
    /// A shape database (`grundy tables build`) or a directory of them
    /// (`*.gdb`), consulted before searching; repeatable. Default: the
    /// paths in GRUNDY_TABLES (`:`-separated), else the default directory
    /// (see `grundy tables --help`). The built-in 5 x 5 one is always used.
    #[arg(long, value_name = "PATH")]
    pub tables: Vec<PathBuf>,
}

impl TablesArgs {
    /// The databases found, then the built-in one. A damaged file found by
    /// scanning a directory is skipped with a warning on stderr; a damaged
    /// or missing file named (by `--tables` or `GRUNDY_TABLES`) is an
    /// error, exit 2.
    pub fn lookup(&self) -> anyhow::Result<Arc<dyn ShapeLookup>> {
        // A named database that cannot be opened, or a directory that
        // cannot be listed, is the user's to fix: exit 2.
        let found = Search::new(&self.tables)
            .open()
            .map_err(|err| UsageError(err.to_string()))?;
        for skipped in &found.skipped {
            // One damaged file found in a directory must not stop the
            // commands (the other databases and the built-in one still
            // answer): warn and go on.
            eprintln!(
                "warning: skipping {}: {}",
                skipped.path.display(),
                skipped.error
            );
        }
        Ok(found.into_lookup(Some(grundy_builtin::clear_5x5())))
    }
}
