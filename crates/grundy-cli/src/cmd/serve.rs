//! `grundy serve`: the web playground and JSON API (crate `grundy-web`).
//!
//! Binds to loopback by default: the page and API are for the person at this
//! machine. Another address must be given on purpose, and gets a warning.

use std::net::SocketAddr;
use std::process::ExitCode;

use crate::output::UsageError;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Address to listen on (port 0 picks a free port).
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "IP:PORT")]
    addr: SocketAddr,
    /// How many analyses may run at once (default: the number of cores).
    #[arg(long, value_name = "N")]
    max_concurrent: Option<usize>,
    /// Per-request search limits (requests may ask for less, never more).
    #[command(flatten)]
    budget: ServeBudgetArgs,
    #[command(flatten)]
    tables: crate::cmd::tables::TablesArgs,
}

/// Like `grundy clear`'s budget, with web-sized defaults: a request must answer fast.
#[derive(Debug, clap::Args)]
struct ServeBudgetArgs {
    /// Most distinct shapes one request may solve.
    #[arg(long, default_value_t = 2_000_000, value_name = "N")]
    max_positions: u64,
    /// Most seconds one request may search.
    #[arg(long, default_value = "2", value_name = "SECONDS", value_parser = crate::cmd::parse_seconds, allow_hyphen_values = true)]
    max_time: std::time::Duration,
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    grundy_web::set_shape_tables(crate::cmd::tables::shape_lookup(&args.tables)?);
    let budget = grundy::Budget {
        max_positions: Some(args.budget.max_positions),
        max_time: Some(args.budget.max_time),
    };
    let mut config = grundy_web::Config {
        budget,
        ..grundy_web::Config::default()
    };
    if let Some(n) = args.max_concurrent {
        if n == 0 {
            return Err(UsageError("--max-concurrent must be at least 1".to_owned()).into());
        }
        config.max_concurrent = n;
    }
    if !args.addr.ip().is_loopback() {
        eprintln!(
            "warning: listening on {}, not loopback: anyone who can reach this address can use the server",
            args.addr
        );
    }
    grundy_web::run_blocking(args.addr, config, |addr| {
        println!("grundy playground on http://{addr}/ (Ctrl-C stops it)");
    })
    .map_err(|err| UsageError(format!("cannot serve on {}: {err}", args.addr)))?;
    Ok(ExitCode::SUCCESS)
}
