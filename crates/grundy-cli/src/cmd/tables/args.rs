//! The arguments of `grundy tables` and its subcommands, and their
//! parsers.

use std::path::PathBuf;
use std::time::Duration;

use grundy::clear::shapes::ShapeBox;
use grundy::tier::Tier;

#[derive(Debug, clap::Args)]
#[command(after_help = tables_help())]
pub struct Args {
    #[command(subcommand)]
    pub(super) command: Command,
}

/// Where databases are looked for, with this machine's default directory
/// (`grundy clear --help` and the other commands' `--tables` point here).
pub(super) fn tables_help() -> String {
    let here = grundy_db::discover::default_dir().map_or_else(
        || "neither XDG_DATA_HOME nor HOME is set here".to_owned(),
        |dir| format!("here: {}", dir.display()),
    );
    format!(
        "\
Where databases are found: clear, sum and serve consult, before searching,
the databases given with --tables (files or directories of *.gdb), else the
paths in GRUNDY_TABLES (`:`-separated), else every *.gdb in the default
directory: $XDG_DATA_HOME/grundy/tables, or ~/.local/share/grundy/tables
without XDG_DATA_HOME ({here}). `grundy tables build` writes there unless
given --out. The built-in 5 x 5 database is always used."
    )
}

#[derive(Debug, clap::Subcommand)]
pub(super) enum Command {
    /// Solve every shape of a box, tier by tier, into a database file. A
    /// stopped build resumes from its last complete tier when run again.
    Build(BuildArgs),
    /// The box, the counts per tier, the full-board values, the checksums.
    Info(InfoArgs),
    /// Check the file (checksums, counts, layout), then re-solve with the
    /// engine, which reads no database (its 4 x 5 and 2 x 8 tables, else a
    /// top-down search), the full boards and random shapes (or, with --all
    /// or --tiers, every shape of the tiers chosen).
    Verify(VerifyArgs),
    /// Join the parts of a partitioned (MPI) build into one file, the same
    /// bytes a single-process build writes.
    Merge(MergeArgs),
    /// Rewrite a database (either format version, whole or in parts) in the
    /// compact format of at most 2 bytes a shape, which builds write.
    Convert(ConvertArgs),
    /// A CRC-32 of the content in a canonical order (tier by tier, shapes
    /// sorted by key): equal for equal databases, however many parts.
    Checksum(ChecksumArgs),
    /// Every shape with its value, as CSV (streamed): columns tier, key,
    /// value, height, width, shape (rows of 0/1 joined by `/`).
    Export(ExportArgs),
}

#[derive(Debug, clap::Args)]
pub(super) struct ExportArgs {
    /// The database: a file, a part of a partitioned build, or the path the
    /// build was asked to write.
    pub(super) path: PathBuf,
    /// The output format.
    #[arg(long, value_enum, default_value_t = ExportFormat::Csv)]
    pub(super) format: ExportFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(super) enum ExportFormat {
    /// One line per shape; see `docs/data/README.md` for the columns and
    /// how a key decodes.
    Csv,
}

#[derive(Debug, clap::Args)]
pub(super) struct MergeArgs {
    /// A part of the build, or the path the build was asked to write.
    pub(super) path: PathBuf,
    /// The merged database.
    #[arg(long, value_name = "PATH")]
    pub(super) out: PathBuf,
}

#[derive(Debug, clap::Args)]
pub(super) struct ConvertArgs {
    /// The database to read: a file, a part of a partitioned build, or the
    /// path the build was asked to write.
    pub(super) old: PathBuf,
    /// The compact database to write.
    pub(super) new: PathBuf,
}

#[derive(Debug, clap::Args)]
pub(super) struct ChecksumArgs {
    /// A database: a file, a part of a partitioned build, or the path the
    /// build was asked to write.
    pub(super) path: PathBuf,
    /// Also print the SHA-256 of each file's bytes, as `sha256sum` does, to
    /// compare with published ones (a file's bytes depend only on its box
    /// and, for a part, the number of parts and the build id).
    #[arg(long)]
    pub(super) sha256: bool,
}

#[derive(Debug, clap::Args)]
pub(super) struct BuildArgs {
    /// The box, ROWSxCOLS (e.g. 6x6 or 5x7): every shape that fits it in
    /// either orientation. At most 52 cells; the long side up to 8, or up
    /// to 16 when the short side is at most 4 (4x9, 3x12), or up to 26 when
    /// it is at most 2.
    #[arg(long = "box", value_name = "ROWSxCOLS", value_parser = parse_box)]
    pub(super) shape_box: ShapeBox,
    /// The database file (default: clear-ROWSxCOLS.gdb in the default
    /// directory, where the other commands find it).
    #[arg(long, value_name = "PATH")]
    pub(super) out: Option<PathBuf>,
    /// Worker threads, at most 1024 (default: every core).
    #[arg(long, value_name = "N", value_parser = parse_threads)]
    pub(super) threads: Option<usize>,
    /// Stop after this many seconds, keeping the finished tiers (exit 3;
    /// run again to resume).
    #[arg(long, value_name = "SECONDS", value_parser = crate::cmd::parse_budget_seconds, allow_hyphen_values = true)]
    pub(super) max_time: Option<Duration>,
    /// Stop once the process's resident memory passes this size, sampled
    /// every 10 ms, keeping the finished tiers (exit 3; run again with more
    /// to resume): bytes, or with a unit such as 512MB, 2GiB (kB/MB/GB are
    /// powers of 1000, KiB/MiB/GiB of 1024). Builds of one process only
    /// (a partitioned build's --memory budgets its replicated tiers).
    /// Default: what the process holds plus what the system has available
    /// (MemAvailable) as the build starts, so that a box too large for the
    /// machine stops, to resume elsewhere, rather than being killed by the
    /// system.
    #[arg(long, value_name = "SIZE", value_parser = crate::cmd::parse_size, allow_hyphen_values = true)]
    pub(super) max_memory: Option<u64>,
    /// A tier of more slots than this (a slot is about 0.75 shape) is
    /// solved in stretches of SLOTS, each kept in PATH.partial.solving
    /// until the tier is written, so a stop in the middle of a long tier
    /// loses at most one stretch. The bytes written are the same whatever
    /// the value. Builds of one process only. [default: 16777216]
    #[arg(long, value_name = "SLOTS", value_parser = crate::cmd::whole_in(1u64, None), allow_hyphen_values = true)]
    pub(super) keep_every: Option<u64>,
    /// Partitioned builds (under mpirun, or --local-ranks): how ranks get
    /// values of shapes other ranks own. `replicate` copies every tier to
    /// every rank, `query` asks the owner in batched all-to-all exchanges,
    /// `auto` (the default) replicates lower tiers while they fit the memory
    /// budget, then queries.
    #[arg(long, value_enum)]
    pub(super) exchange: Option<ExchangeArg>,
    /// Partitioned builds: bytes of replicated tiers a rank may hold (e.g.
    /// 4GiB; default: half the node's available memory, shared by its
    /// ranks).
    #[arg(long, value_name = "BYTES", value_parser = crate::cmd::parse_size, allow_hyphen_values = true)]
    pub(super) memory: Option<u64>,
    /// Run the partitioned build as N ranks (1 to 64) in this process
    /// (threads, no MPI), writing N parts as `mpirun -n N` would: to try
    /// partitioned databases, or to check them against a single build.
    #[arg(long, value_name = "N", value_parser = crate::cmd::whole_in(1u32, Some(64)), allow_hyphen_values = true)]
    pub(super) local_ranks: Option<u32>,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub(super) enum ExchangeArg {
    Auto,
    Replicate,
    Query,
}

#[derive(Debug, clap::Args)]
pub(super) struct InfoArgs {
    /// The database: a file, a part of a partitioned build, or the path the
    /// build was asked to write.
    pub(super) path: PathBuf,
    /// Also print how many shapes have each value.
    #[arg(long)]
    pub(super) values: bool,
    /// Print the metadata as JSON instead: shapes, largest value and
    /// histogram of values per tier, full boards, size and SHA-256 of each
    /// file, and the build's record when `PATH.build.json` is beside it.
    #[arg(long, conflicts_with = "values")]
    pub(super) json: bool,
}

#[derive(Debug, clap::Args)]
pub(super) struct VerifyArgs {
    /// The database: a file, a part of a partitioned build, or the path the
    /// build was asked to write.
    pub(super) path: PathBuf,
    /// How many random shapes to re-solve top-down.
    #[arg(long, default_value_t = 1000, value_name = "N", value_parser = crate::cmd::parse_count, allow_hyphen_values = true)]
    pub(super) samples: u64,
    /// Seed of the random choice of shapes.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub(super) seed: u64,
    /// Most distinct shapes the top-down search may solve per sample; a
    /// sample over it is counted as skipped, not as checked.
    #[arg(long, default_value_t = 200_000, value_name = "N", value_parser = crate::cmd::parse_count, allow_hyphen_values = true)]
    pub(super) max_positions: u64,
    /// Most distinct shapes the top-down search may solve for each full
    /// board (the values `tables info` lists; a board over it is reported
    /// as not checked), and under --all or --tiers, per worker before its
    /// memo is started afresh.
    #[arg(long, default_value_t = 5_000_000, value_name = "N", value_parser = crate::cmd::parse_count, allow_hyphen_values = true)]
    pub(super) board_positions: u64,
    /// Re-solve every shape of every tier top-down (instead of random
    /// samples); exit 3 if a shape alone is over --board-positions.
    #[arg(long, conflicts_with = "tiers")]
    pub(super) all: bool,
    /// As --all, for the tiers (shape sizes in cells) A-B or A only.
    #[arg(long, value_name = "A-B", value_parser = parse_tiers)]
    pub(super) tiers: Option<(Tier, Tier)>,
    /// Also check that the box holds every shape once: the placements of
    /// its shapes in the ROWS x COLS grid must add up to the grid's connected
    /// cell sets (OEIS A287151), counted independently by a transfer matrix.
    #[arg(long)]
    pub(super) census: bool,
}

/// Parses `A-B` or `A` (tiers as people number them, from 1: a shape's
/// cells).
pub(super) fn parse_tiers(text: &str) -> Result<(Tier, Tier), String> {
    let number = |s: &str| -> Result<Tier, String> {
        match s.trim().parse::<u32>().ok().and_then(Tier::from_number) {
            Some(tier) => Ok(tier),
            None => Err(format!(
                "`{s}` is not a tier (a number of cells, 1 or more)"
            )),
        }
    };
    let (a, b) = match text.split_once('-') {
        Some((a, b)) => (number(a)?, number(b)?),
        None => (number(text)?, number(text)?),
    };
    if a > b {
        return Err(format!("`{text}`: the first tier is after the last"));
    }
    Ok((a, b))
}

/// Parses `AxB` (also `AXB`, `A×B`) into a supported box.
pub(super) fn parse_box(text: &str) -> Result<ShapeBox, String> {
    let text = text.trim();
    let (a, b) = text
        .split_once(['x', 'X', '×'])
        .ok_or_else(|| format!("`{text}` is not ROWSxCOLS, e.g. 6x6"))?;
    let side = |s: &str| -> Result<usize, String> {
        s.trim()
            .parse::<usize>()
            .map_err(|_| format!("`{s}` is not a number of rows or columns"))
    };
    let (rows, cols) = (side(a)?, side(b)?);
    if rows == 0 || cols == 0 {
        return Err(format!(
            "`{text}`: a side is zero; a box has at least 1 row and 1 column"
        ));
    }
    ShapeBox::new(rows, cols).map_err(|err| err.to_string())
}

/// Parses `--threads`: 1 to [`grundy::tier::MAX_THREADS`], worded as every
/// count ([`crate::cmd::whole_in`]).
fn parse_threads(text: &str) -> Result<usize, String> {
    crate::cmd::whole_in(1, Some(grundy::tier::MAX_THREADS))(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxes_parse() {
        assert_eq!(parse_box("6x6"), Ok(ShapeBox::new(6, 6).unwrap()));
        assert_eq!(parse_box("7X5"), Ok(ShapeBox::new(5, 7).unwrap()));
        assert_eq!(parse_box("4x9"), Ok(ShapeBox::new(4, 9).unwrap()));
        assert_eq!(parse_box("18x2"), Ok(ShapeBox::new(2, 18).unwrap()));
        for bad in [
            "6", "x6", "6x", "axb", "0x5", "9x9", "7x8", "-1x5", "6x6x6", "5x9", "4x14", "3x17",
            "2x27",
        ] {
            assert!(parse_box(bad).is_err(), "{bad}");
        }
    }
}
