//! A stopped build resumed from arbitrary bytes where it keeps its work:
//! the partial file of its finished tiers (`PATH.partial`), the input
//! after its first byte; when that byte is odd, the rest is cut in halves,
//! the second being the file of the solved stretches of the tier under way
//! (`PATH.partial.solving`).
//! Whatever the bytes, `grundy_db::build_with` either refuses them with an
//! error or finishes a database byte for byte the same as a fresh build's:
//! damaged sections are solved again, never trusted. The box is 3 x 3
//! (built in milliseconds), kept in stretches of 16 slots so that its
//! larger tiers keep solved stretches.
#![no_main]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use grundy::clear::shapes::ShapeBox;
use grundy::tier::{BuildConfig, TierControl};
use grundy_db::{BuildFailed, DbError};
use libfuzzer_sys::fuzz_target;

/// A directory of this process's own, and the fresh build's bytes.
struct Scratch {
    dir: PathBuf,
    fresh: Vec<u8>,
}

fn shape_box() -> ShapeBox {
    ShapeBox::new(3, 3).expect("a 3 x 3 box")
}

fn build(path: &Path) -> Result<(), BuildFailed> {
    let config = BuildConfig {
        progress_slots: 16,
        ..BuildConfig::default()
    };
    grundy_db::build_with(path, shape_box(), &config, &TierControl::new(), |_| {}).map(|_| ())
}

fn scratch() -> &'static Scratch {
    static SCRATCH: OnceLock<Scratch> = OnceLock::new();
    SCRATCH.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("grundy-fuzz-partial-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a scratch directory");
        let path = dir.join("fresh.gdb");
        let _ = std::fs::remove_file(&path);
        build(&path).expect("a fresh build");
        let fresh = std::fs::read(&path).expect("the fresh database");
        Scratch { dir, fresh }
    })
}

fuzz_target!(|data: &[u8]| {
    let scratch = scratch();
    let path = scratch.dir.join("resumed.gdb");
    let partial = grundy_db::partial_path(&path);
    let mut solving = partial.as_os_str().to_owned();
    solving.push(".solving");
    let solving = PathBuf::from(solving);
    for leftover in [&path, &partial, &solving] {
        let _ = std::fs::remove_file(leftover);
    }
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let (kept, stretches) = if mode % 2 == 1 {
        rest.split_at(rest.len() / 2)
    } else {
        (rest, &[][..])
    };
    std::fs::write(&partial, kept).expect("the partial file written");
    if !stretches.is_empty() {
        std::fs::write(&solving, stretches).expect("the stretches written");
    }
    match build(&path) {
        Ok(()) => {
            let resumed = std::fs::read(&path).expect("the finished database");
            assert!(
                resumed == scratch.fresh,
                "a resumed build differs from a fresh one"
            );
            assert!(
                !partial.exists() && !solving.exists(),
                "its leftovers removed"
            );
        }
        // Only a partial file of another box, part or game is refused (the
        // user named the wrong file); damage of any other kind is redone.
        Err(err) => assert!(
            matches!(
                err,
                BuildFailed::Db(
                    DbError::BoxMismatch { .. }
                        | DbError::PartMismatch { .. }
                        | DbError::WrongGame { .. }
                )
            ),
            "{err}"
        ),
    }
});
