//! `grundy serve`: the web playground and JSON API (crate `grundy-web`).
//!
//! Binds to loopback by default: the page and API are for the person at this
//! machine. Another address must be given on purpose, and gets a warning.
//! `--addr` takes an IP or a host name (`localhost:8080`), resolved here; the
//! server binds the first address that works. Connection limits and the
//! request guard (Host, Origin, Content-Type) are `grundy_web`'s; their flags
//! are here.

use std::net::{SocketAddr, ToSocketAddrs};
use std::process::ExitCode;
use std::time::Duration;

use crate::output::UsageError;

/// The most heavy analyses `--max-concurrent` lets run at once.
const MAX_CONCURRENT: usize = 1024;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Address to listen on: IP:PORT or HOST:PORT (port 0 picks a free port).
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "HOST:PORT")]
    addr: String,
    /// How many heavy analyses (past the small lane's probe budget) may run
    /// at once, 1 to 1024 (default: the number of cores less one, which the
    /// small lane keeps for small analyses; at least 1).
    #[arg(long, value_name = "N")]
    max_concurrent: Option<usize>,
    /// Per-request search limits (requests may ask for less, never more).
    #[command(flatten)]
    budget: ServeBudgetArgs,
    /// Connection limits: what a slow or idle client may hold.
    #[command(flatten)]
    connections: ConnectionArgs,
    /// Also accept requests whose Host header is NAME (any port) or
    /// NAME:PORT; `*` accepts any Host. The bound address and localhost
    /// (with the port) are always accepted. Repeatable.
    #[arg(long, value_name = "NAME[:PORT]", value_parser = grundy_web::check_allow_host)]
    allow_host: Vec<String>,
    /// Accept cross-origin requests from ORIGIN (for example
    /// http://127.0.0.1:3000) and send it CORS headers; `*` accepts every
    /// origin. Repeatable.
    #[arg(long, value_name = "ORIGIN", value_parser = grundy_web::check_allow_origin)]
    allow_origin: Vec<String>,
    #[command(flatten)]
    tables: crate::shape_tables::TablesArgs,
}

/// Like `grundy clear`'s budget, with web-sized defaults: a request must answer fast.
#[derive(Debug, clap::Args)]
struct ServeBudgetArgs {
    /// Most distinct shapes one request may solve.
    #[arg(long, default_value_t = 2_000_000, value_name = "N", value_parser = crate::cmd::parse_count, allow_hyphen_values = true)]
    max_positions: u64,
    /// Most seconds one request may search.
    #[arg(long, default_value = "2", value_name = "SECONDS", value_parser = crate::cmd::parse_seconds, allow_hyphen_values = true)]
    max_time: Duration,
    /// Most memory one request's search may hold (its memos and the parts
    /// it holds pending; a large board past it gets the answer so far, as
    /// past the time budget): a size as `grundy clear --max-memory` takes
    /// it (e.g. 512MiB), at least 1MiB.
    #[arg(long, default_value = "256MiB", value_name = "SIZE", value_parser = parse_request_memory, allow_hyphen_values = true)]
    max_memory: u64,
    /// Most memory for search memos, and for whole answers of heavy
    /// requests (a sixteenth of it), kept between requests, all together:
    /// what one analysis found answers the next at once. A size (e.g.
    /// 64MiB) of at least 1MiB, or 0 to keep none.
    #[arg(long, default_value = "256MiB", value_name = "SIZE", value_parser = parse_kept_memory, allow_hyphen_values = true)]
    kept_memory: u64,
}

#[derive(Debug, clap::Args)]
struct ConnectionArgs {
    /// Most connections open at once; beyond, the longest-waiting connection
    /// (no request in progress) of the client holding the most is closed,
    /// or, if none waits, the new one gets a 503.
    #[arg(long, default_value_t = 512, value_name = "N")]
    max_connections: usize,
    /// Most connections one client (IPv4 address, IPv6 /64) may hold;
    /// beyond, its own longest-waiting connection is closed, or, if none
    /// waits, the new one gets a 503.
    #[arg(long, default_value_t = 64, value_name = "N")]
    max_connections_per_client: usize,
    /// Seconds a client has to send a request's line and headers, counted from
    /// when the server starts waiting for it (the connection is closed after).
    #[arg(long, default_value = "10", value_name = "SECONDS", value_parser = crate::cmd::parse_seconds, allow_hyphen_values = true)]
    header_timeout: Duration,
    /// Seconds a client has to send a request's body (408 after).
    #[arg(long, default_value = "10", value_name = "SECONDS", value_parser = crate::cmd::parse_seconds, allow_hyphen_values = true)]
    body_timeout: Duration,
    /// Seconds a keep-alive connection may stay idle before it is closed.
    #[arg(long, default_value = "5", value_name = "SECONDS", value_parser = crate::cmd::parse_seconds, allow_hyphen_values = true)]
    idle_timeout: Duration,
}

/// The least memory flag of `serve`: a request's search, or a kept memo,
/// needs more than that to be of use, and a bare number is bytes (as for
/// every command), so `--max-memory 64` meaning megabytes is caught here.
const LEAST_SERVE_MEMORY: u64 = 1 << 20;

/// `bytes` (read from `text`) if at least [`LEAST_SERVE_MEMORY`]; `zero`
/// says what 0 would mean, where it is allowed.
fn at_least_a_mebibyte(text: &str, bytes: u64, zero: Option<&str>) -> Result<u64, String> {
    if bytes < LEAST_SERVE_MEMORY {
        let text = text.trim();
        // A bare number small enough to be meant as mebibytes (the flag's
        // old unit) gets the spelling that means it.
        let hint = if text.bytes().all(|b| b.is_ascii_digit()) && (1..1 << 16).contains(&bytes) {
            format!(": a size without a unit is bytes (write {text}MiB for mebibytes)")
        } else {
            String::new()
        };
        let zero = zero.map_or_else(String::new, |zero| format!("; or 0, {zero}"));
        let (given, _) = grundy_report::words::bytes_apart(bytes, LEAST_SERVE_MEMORY);
        return Err(format!(
            "{given} is less than 1MiB, too little for a search{hint}{zero}"
        ));
    }
    Ok(bytes)
}

/// `--max-memory`: a size, at least [`LEAST_SERVE_MEMORY`].
fn parse_request_memory(text: &str) -> Result<u64, String> {
    // Sizes below one byte (0, 0.1) are below the mebibyte too: said so,
    // with the least there is.
    let bytes = crate::cmd::parse_size(text).or_else(|err| match text.trim().parse::<f64>() {
        Ok(number) if (0.0..1.0).contains(&number) => Ok(0),
        _ => Err(err),
    })?;
    at_least_a_mebibyte(text, bytes, None)
}

/// `--kept-memory`: 0, or a size of at least [`LEAST_SERVE_MEMORY`].
fn parse_kept_memory(text: &str) -> Result<u64, String> {
    if text.trim() == "0" {
        return Ok(0);
    }
    at_least_a_mebibyte(text, crate::cmd::parse_size(text)?, Some("to keep none"))
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    // Each request's memo is freed when it ends: with the threshold fixed
    // it goes back to the system rather than staying in a worker thread's
    // heap (see `crate::alloc`).
    crate::alloc::fix_mmap_threshold();
    let databases = grundy_web::games::Databases::new(args.tables.lookup()?);
    let budget = grundy::Budget {
        max_positions: Some(args.budget.max_positions),
        max_time: Some(args.budget.max_time),
        max_memory: Some(args.budget.max_memory),
    };
    let mut config = grundy_web::Config {
        budget,
        max_connections: args.connections.max_connections,
        max_connections_per_client: args.connections.max_connections_per_client,
        header_timeout: args.connections.header_timeout,
        body_timeout: args.connections.body_timeout,
        idle_timeout: args.connections.idle_timeout,
        allow_hosts: args.allow_host.clone(),
        allow_origins: args.allow_origin.clone(),
        databases,
        kept_memory: usize::try_from(args.budget.kept_memory).unwrap_or(usize::MAX),
        release_memory: Some(crate::alloc::release_free_memory),
        ..grundy_web::Config::default()
    };
    if let Some(n) = args.max_concurrent {
        if n == 0 {
            return Err(UsageError("--max-concurrent must be at least 1".to_owned()).into());
        }
        // Each analysis that may run holds a kept memo and a blocking
        // thread: a mistyped count would reserve room for that many.
        if n > MAX_CONCURRENT {
            return Err(
                UsageError(format!("--max-concurrent must be at most {MAX_CONCURRENT}")).into(),
            );
        }
        config.max_concurrent = n;
    }
    if config.max_connections == 0 {
        return Err(UsageError("--max-connections must be at least 1".to_owned()).into());
    }
    if config.max_connections_per_client == 0 {
        return Err(
            UsageError("--max-connections-per-client must be at least 1".to_owned()).into(),
        );
    }
    let addrs = resolve(&args.addr)?;
    // A name given to --addr is how the user will reach the server: accept
    // it as a Host too.
    if let Some((host, port)) = args.addr.rsplit_once(':') {
        if host.parse::<std::net::IpAddr>().is_err() && !host.starts_with('[') {
            // Port 0 is the system's choice, known only once bound: the
            // name is accepted with any port (`localhost` is accepted with
            // the bound one in any case).
            config.allow_hosts.push(if port == "0" {
                host.to_owned()
            } else {
                args.addr.clone()
            });
        }
    }
    let allowed = config.allow_hosts.clone();
    grundy_web::run_blocking(&addrs, config, |addr| {
        // Said once bound, so that it names the port the system chose.
        if !addr.ip().is_loopback() {
            stderr_line!(
                "warning: listening on {addr}, not loopback: anyone who can reach this address can use the server"
            );
        }
        // A server whose standard output is closed or full still serves.
        let _ = crate::output::print(&ready_message(addr, &allowed));
    })
    .map_err(|err| UsageError(format!("cannot serve on {}: {err}", args.addr)))?;
    Ok(ExitCode::SUCCESS)
}

/// What the server says once it listens: where to open the page (with the
/// port bound, which `--addr HOST:0` leaves to the system), and which Host
/// headers it answers (`grundy_web::accepted_hosts`, the guard's own list).
fn ready_message(addr: SocketAddr, allowed: &[String]) -> String {
    let port = addr.port();
    let browse = if addr.ip().is_unspecified() {
        format!("localhost:{port}")
    } else {
        // The bound address as a Host header writes it (IPv6 in brackets).
        SocketAddr::new(addr.ip(), port).to_string()
    };
    let rule = match grundy_web::accepted_hosts(addr, allowed) {
        None => "Requests may name any Host (--allow-host *).".to_owned(),
        Some(hosts) => format!(
            "Requests must name one of these in their Host header: {}; others are refused (add names with --allow-host NAME[:PORT], or * for any).",
            hosts.join(", ")
        ),
    };
    format!(
        "grundy playground on http://{browse}/ (listening on {addr}, port {port}; Ctrl-C stops it)\n{rule}\n"
    )
}

/// The addresses `--addr` names: an IP:PORT as is, a HOST:PORT resolved.
fn resolve(addr: &str) -> Result<Vec<SocketAddr>, UsageError> {
    if let Ok(addr) = addr.parse::<SocketAddr>() {
        return Ok(vec![addr]);
    }
    let usage = |what: String| UsageError(format!("--addr {addr:?}: {what}"));
    let Some((host, port)) = addr.rsplit_once(':') else {
        return Err(usage("expected HOST:PORT, e.g. 127.0.0.1:8080".to_owned()));
    };
    if host.is_empty() || port.parse::<u16>().is_err() {
        return Err(usage(
            "expected HOST:PORT with a port 0 to 65535, e.g. localhost:8080".to_owned(),
        ));
    }
    let addrs: Vec<SocketAddr> = addr
        .to_socket_addrs()
        .map_err(|err| usage(format!("cannot resolve {host:?}: {err}")))?
        .collect();
    if addrs.is_empty() {
        return Err(usage(format!("{host:?} resolves to no address")));
    }
    Ok(addrs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ready_message_names_the_hosts_or_says_any() {
        let addr: SocketAddr = "127.0.0.1:8080".parse().unwrap();
        let named = ready_message(addr, &["tools.example".to_owned()]);
        assert!(
            named.contains("127.0.0.1:8080, localhost:8080, tools.example; others are refused"),
            "{named}"
        );
        let any = ready_message(addr, &[" * ".to_owned()]);
        assert!(any.contains("Requests may name any Host"), "{any}");
        assert!(!any.contains("others are refused"), "{any}");
    }
}
