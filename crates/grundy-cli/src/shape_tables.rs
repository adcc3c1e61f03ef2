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
            // The error starts with the file's path.
            stderr_line!("warning: skipping {}", skipped.error);
        }
        Ok(found.into_lookup(Some(grundy_builtin::clear_5x5())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use grundy::clear::shapes::ShapeBox;
    use grundy::clear::ShapeKey;
    use grundy::tier::TierControl;
    use grundy::Nimber;

    fn build(path: &std::path::Path, rows: usize, cols: usize) {
        let shape_box = ShapeBox::new(rows, cols).unwrap();
        grundy_db::build(path, shape_box, &TierControl::new(), |_| {}).unwrap();
    }

    /// Each call opens what its own arguments name: a second call with
    /// another `--tables` reads the other database (a process-wide lookup
    /// would silently keep the first call's). Both fall back on the
    /// built-in 5 x 5 database.
    #[test]
    fn a_second_call_with_other_tables_reads_them() {
        let dir = tempfile::tempdir().unwrap();
        let (line, wide) = (dir.path().join("1x7.gdb"), dir.path().join("2x6.gdb"));
        build(&line, 1, 7);
        build(&wide, 2, 6);
        let seven = ShapeKey::from_cut(1, 7, 0x7F).unwrap();
        let two_by_six = ShapeKey::from_cut(2, 6, 0xFFF).unwrap();
        let small = ShapeKey::from_cut(3, 3, 0x1FF).unwrap();

        let first = TablesArgs {
            tables: vec![line.clone()],
        }
        .lookup()
        .unwrap();
        assert_eq!(first.lookup(&seven), Some(Nimber::new(7)));
        assert_eq!(first.lookup(&two_by_six), None);
        let second = TablesArgs {
            tables: vec![wide.clone()],
        }
        .lookup()
        .unwrap();
        assert_eq!(second.lookup(&seven), None);
        assert!(second.lookup(&two_by_six).is_some());
        // The built-in database answers shapes that fit 5 x 5, for both.
        let builtin = grundy_builtin::clear_5x5();
        assert!(builtin.lookup(&small).is_some());
        assert_eq!(first.lookup(&small), builtin.lookup(&small));
        assert_eq!(second.lookup(&small), builtin.lookup(&small));
        // A named file that is missing is an error.
        let missing = TablesArgs {
            tables: vec![dir.path().join("missing.gdb")],
        };
        assert!(missing.lookup().is_err());
    }
}
