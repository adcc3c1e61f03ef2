//! A bounded abuse test over loopback, for issue 25's two server goals.
//! It measures; it asserts nothing (the tests in `tests/web/hardening.rs` do).
//!
//! - `trickle`: `--slow N` connections send a request's headers one byte a
//!   second from `--sources K` addresses (127.0.0.2, 127.0.0.3, ...; all of
//!   127/8 is loopback), reopening each one the server closes (at most
//!   `--slow` reopens a second), while a fresh client at 127.0.0.1 sends a
//!   small request on a new connection every 100 ms. Reports the fresh
//!   client's latencies (connect to last byte) and answers, and how many
//!   slow connections the server held open (from the client's side: the
//!   ones not yet closed).
//! - `lanes`: `--heavy H` clients at 127.0.0.2 keep sending a full 8 x 8 board (a search
//!   that runs into the server's time budget; on a 503 they wait its
//!   `Retry-After`), while one small client at 127.0.0.3 sends random 3 x 7 boards with
//!   3/4 of the cells set (a small search each, mostly beyond the built-in
//!   tables), one every 20 ms, from `--warmup W` seconds on (default 2).
//!   Each board is first sent alone, before the heavy clients start, and
//!   the answers under load are reported by that time alone: under 1 ms
//!   (tables, or tiny searches), 1 to 25 ms (small searches), and beyond
//!   the server's probe budget (25 ms). Those last were seen heavy in the
//!   calibration, so the server treats them as repeats: they wait behind
//!   the heavy clients' repeats, or get a 503 when that queue is full.
//!   In the first seconds every heavy request is new to the server, and a
//!   small one that needs more than the probe waits behind them; from one
//!   queue timeout (10 s) on, the heavy requests are known and a new one
//!   waits for one heavy search at most (see the crate comment).
//!
//! Hard caps: at most 2,000 slow connections, 256 heavy clients, 60 s in
//! all (warm-up and measuring; plus 3 s to open the slow connections); the
//! target must be a loopback address (`--url`), or an in-process server.
//!
//! ```sh
//! grundy serve --addr 127.0.0.1:8080 &
//! cargo run --release -p grundy-web --example abuse -- trickle --slow 1000 --sources 1 --seconds 15 --url http://127.0.0.1:8080
//! cargo run --release -p grundy-web --example abuse -- lanes --heavy 64 --seconds 20 --url http://127.0.0.1:8080
//! cargo run --release -p grundy-web --example abuse -- lanes --heavy 64 --warmup 12 --seconds 30 --url http://127.0.0.1:8080
//! ```

use std::collections::BTreeMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

mod support;

const MAX_SLOW: usize = 2_000;
const MAX_HEAVY: usize = 256;
const MAX_SECONDS: u64 = 60;

fn usage() -> ! {
    eprintln!(
        "usage: abuse trickle [--slow N] [--sources K] [--seconds S] [--url http://127.0.0.1:PORT]\n       abuse lanes [--heavy H] [--warmup W] [--seconds S] [--url http://127.0.0.1:PORT]"
    );
    std::process::exit(2);
}

/// Latencies and answers.
#[derive(Default)]
struct Tally {
    latencies: Vec<Duration>,
    answers: BTreeMap<String, usize>,
}

impl Tally {
    fn record(&mut self, latency: Duration, answer: String) {
        if answer == "200" {
            self.latencies.push(latency);
        }
        *self.answers.entry(answer).or_default() += 1;
    }

    fn report(&mut self, name: &str) {
        let answers: Vec<String> = self
            .answers
            .iter()
            .map(|(answer, n)| format!("{answer}: {n}"))
            .collect();
        println!("{name}: answers {{{}}}", answers.join(", "));
        let latencies = &mut self.latencies;
        if latencies.is_empty() {
            return;
        }
        latencies.sort_unstable();
        let pct = |p: f64| support::percentile_ms(latencies.as_slice(), p);
        println!(
            "{name} latency of the 200s, ms: p50 {:.1}  p90 {:.1}  p99 {:.1}  max {:.1}  ({} requests)",
            pct(0.5),
            pct(0.9),
            pct(0.99),
            pct(1.0),
            latencies.len()
        );
    }
}

/// A connection to `server` from `127.0.0.<last>`.
async fn connect_from(last: u8, server: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(
        IpAddr::V4(Ipv4Addr::new(127, 0, 0, last)),
        0,
    ))?;
    socket.connect(server).await
}

/// Sends one request on a new connection and reads the answer to its end:
/// its status (or what failed), its `Retry-After`, and the time taken.
async fn exchange(from: u8, server: SocketAddr, request: &str) -> (String, Option<u64>, Duration) {
    let sent = Instant::now();
    let attempt = async {
        let mut stream = connect_from(from, server).await?;
        stream.write_all(request.as_bytes()).await?;
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).await?;
        std::io::Result::Ok(answer)
    };
    let answer = match tokio::time::timeout(Duration::from_secs(30), attempt).await {
        Err(_) => return ("timeout".to_owned(), None, sent.elapsed()),
        Ok(Err(err)) => return (format!("{:?}", err.kind()), None, sent.elapsed()),
        Ok(Ok(answer)) => answer,
    };
    let took = sent.elapsed();
    let text = String::from_utf8_lossy(&answer);
    let mut status = text
        .strip_prefix("HTTP/1.1 ")
        .and_then(|rest| rest.get(..3))
        .unwrap_or("no answer")
        .to_owned();
    if status == "503" && text.contains("too many open connections") {
        status.push_str(" (connections)");
    }
    let retry = text
        .lines()
        .take_while(|line| !line.is_empty())
        .find_map(|line| {
            let (key, value) = line.split_once(':')?;
            key.eq_ignore_ascii_case("retry-after")
                .then(|| value.trim().parse().ok())?
        });
    (status, retry, took)
}

fn post(server: SocketAddr, path: &str, body: &str) -> String {
    format!(
        "POST {path} HTTP/1.1\r\nHost: {server}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
}

/// A random 3 x 7 board (xorshift), each cell set with probability 3/4,
/// so that most boards hold a component beyond the tables (4 x 5, 2 x 8).
fn board_3x7(state: &mut u64) -> String {
    let mut next = || {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    };
    let bits = next() | next();
    support::board_body(bits, 3, 7)
}

/// One slow connection: a request's headers, one byte a second, reopened
/// when the server closes it, until `stop`. Counts itself in `open` while
/// connected.
async fn trickler(
    from: u8,
    server: SocketAddr,
    stop: Arc<AtomicBool>,
    open: Arc<AtomicUsize>,
    reopened: Arc<AtomicUsize>,
) {
    let header = format!("POST /api/v1/clear/analyze HTTP/1.1\r\nHost: {server}\r\nX-Pad: ");
    while !stop.load(Ordering::Relaxed) {
        let Ok(mut stream) = connect_from(from, server).await else {
            tokio::time::sleep(Duration::from_secs(1)).await;
            continue;
        };
        open.fetch_add(1, Ordering::Relaxed);
        let bytes = header.bytes().chain(std::iter::repeat(b'a'));
        for byte in bytes {
            if stop.load(Ordering::Relaxed) || stream.write_all(&[byte]).await.is_err() {
                break;
            }
            // Wait a second, noticing a close by the server meanwhile.
            let mut buf = [0u8; 256];
            match tokio::time::timeout(Duration::from_secs(1), stream.read(&mut buf)).await {
                Err(_) => {}
                Ok(_) => break,
            }
        }
        open.fetch_sub(1, Ordering::Relaxed);
        reopened.fetch_add(1, Ordering::Relaxed);
        // At most one reopen per connection a second.
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

async fn trickle(server: SocketAddr, slow: usize, sources: usize, seconds: u64) {
    let stop = Arc::new(AtomicBool::new(false));
    let open = Arc::new(AtomicUsize::new(0));
    let reopened = Arc::new(AtomicUsize::new(0));
    let mut tasks = Vec::new();
    for i in 0..slow {
        let from = 2 + (i % sources) as u8;
        tasks.push(tokio::spawn(trickler(
            from,
            server,
            stop.clone(),
            open.clone(),
            reopened.clone(),
        )));
    }
    // Let them all connect and start trickling.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let mut fresh = Tally::default();
    let request = post(
        server,
        "/api/v1/clear/analyze",
        r#"{"board": ["0110", "0000", "0000", "0001"]}"#,
    );
    let started = Instant::now();
    let mut held = Vec::new();
    while started.elapsed() < Duration::from_secs(seconds) {
        let (status, _, took) = exchange(1, server, &request).await;
        fresh.record(took, status);
        held.push(open.load(Ordering::Relaxed));
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    stop.store(true, Ordering::Relaxed);
    for task in tasks {
        task.abort();
    }
    held.sort_unstable();
    println!(
        "{slow} trickling connections from {sources} address(es): open on the client side min {} median {} max {} while probing; {} closed by the server and reopened",
        held.first().unwrap_or(&0),
        held.get(held.len() / 2).unwrap_or(&0),
        held.last().unwrap_or(&0),
        reopened.load(Ordering::Relaxed)
    );
    fresh.report("fresh client (127.0.0.1, new connection each)");
}

async fn lanes(server: SocketAddr, heavy: usize, seconds: u64, warmup: u64) {
    // The boards, each first sent alone to calibrate: the categories below
    // are by the time a board takes alone.
    let mut state = 25u64;
    let boards: Vec<String> = (0..(seconds as usize * 30).clamp(100, 1500))
        .map(|_| post(server, "/api/v1/clear/analyze", &board_3x7(&mut state)))
        .collect();
    let mut alone = Vec::with_capacity(boards.len());
    for request in &boards {
        let (_, _, took) = exchange(3, server, request).await;
        alone.push(took);
    }
    let stop = Arc::new(AtomicBool::new(false));
    let heavy_tally = Arc::new(Mutex::new(Tally::default()));
    let full = serde_json::json!({ "board": vec!["11111111"; 8] }).to_string();
    let heavy_request = post(server, "/api/v1/clear/analyze", &full);
    let mut tasks = Vec::new();
    for _ in 0..heavy {
        let (stop, tally, request) = (stop.clone(), heavy_tally.clone(), heavy_request.clone());
        tasks.push(tokio::spawn(async move {
            while !stop.load(Ordering::Relaxed) {
                let (status, retry, took) = exchange(2, server, &request).await;
                tally.lock().expect("tally").record(took, status);
                let pause = Duration::from_secs(retry.unwrap_or(0)).max(Duration::from_millis(10));
                tokio::time::sleep(pause).await;
            }
        }));
    }
    tokio::time::sleep(Duration::from_secs(warmup)).await;
    let names = [
        "small, under 1 ms alone (tables or tiny searches)",
        "small, 1 to 25 ms alone (searches)",
        "beyond the probe, over 25 ms alone",
    ];
    let mut tallies: Vec<Tally> = names.iter().map(|_| Tally::default()).collect();
    let started = Instant::now();
    let mut i = 0;
    while started.elapsed() < Duration::from_secs(seconds) {
        let (status, _, took) = exchange(3, server, &boards[i % boards.len()]).await;
        let kind = match alone[i % boards.len()].as_secs_f64() * 1e3 {
            ms if ms < 1.0 => 0,
            ms if ms <= 25.0 => 1,
            _ => 2,
        };
        tallies[kind].record(took, status);
        i += 1;
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    stop.store(true, Ordering::Relaxed);
    for task in tasks {
        task.abort();
    }
    println!("{heavy} heavy clients (full 8 x 8), then after {warmup} s one small client for {seconds} s (random 3 x 7 boards, 3/4 of the cells set, 20 ms apart; each board timed alone first)");
    for (name, tally) in names.iter().zip(&mut tallies) {
        tally.report(name);
    }
    heavy_tally.lock().expect("tally").report("heavy");
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mode = args.next().unwrap_or_else(|| usage());
    let (mut slow, mut sources, mut heavy, mut seconds) = (1000usize, 1usize, 64usize, 15u64);
    let mut warmup = 2u64;
    let mut url: Option<String> = None;
    while let Some(arg) = args.next() {
        let value = args.next().unwrap_or_else(|| usage());
        match arg.as_str() {
            "--slow" => slow = value.parse().unwrap_or_else(|_| usage()),
            "--sources" => sources = value.parse().unwrap_or_else(|_| usage()),
            "--heavy" => heavy = value.parse().unwrap_or_else(|_| usage()),
            "--seconds" => seconds = value.parse().unwrap_or_else(|_| usage()),
            "--warmup" => warmup = value.parse().unwrap_or_else(|_| usage()),
            "--url" => url = Some(value),
            _ => usage(),
        }
    }
    if slow > MAX_SLOW
        || heavy > MAX_HEAVY
        || seconds > MAX_SECONDS
        || !(1..=200).contains(&sources)
    {
        eprintln!("abuse: at most {MAX_SLOW} slow connections, {MAX_HEAVY} heavy clients, {MAX_SECONDS} s, 1 to 200 sources");
        std::process::exit(2);
    }
    let server: SocketAddr = match url {
        Some(url) => {
            let addr = url.trim_start_matches("http://").trim_end_matches('/');
            match addr.parse::<SocketAddr>() {
                Ok(addr) if addr.ip().is_loopback() => addr,
                _ => {
                    eprintln!(
                        "abuse: --url must be http://127.0.0.1:PORT (loopback only), got {url}"
                    );
                    std::process::exit(2);
                }
            }
        }
        None => support::serve_in_process(),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async move {
        match mode.as_str() {
            "trickle" => trickle(server, slow, sources, seconds).await,
            "lanes" => lanes(server, heavy, seconds, warmup).await,
            _ => usage(),
        }
    });
}
