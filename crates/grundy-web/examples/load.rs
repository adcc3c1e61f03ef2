//! A bounded load test over loopback: light clients send a fixed number of
//! `POST /api/v1/clear/analyze` on random 4 x 4 boards (answered from the
//! table), while heavy clients (optional) keep sending a full 6 x 6 board
//! (a search that runs into the server's budget) until the light ones are
//! done. It reports throughput and latency percentiles for each kind, and
//! stops by itself: after the light requests, or after `--max-seconds`,
//! whichever comes first. By default each light client sends its next
//! request as soon as it has the answer (a closed loop at full speed, which
//! measures the server's queueing at saturation); `--interval-ms T` makes
//! each one wait T ms between requests, like people clicking.
//!
//! ```sh
//! # against an in-process server on a free loopback port:
//! cargo run --release -p grundy-web --example load -- --requests 20000 --concurrency 32
//! # 64 light and 64 heavy clients together (issue 14):
//! cargo run --release -p grundy-web --example load -- --requests 20000 --concurrency 64 --heavy 64
//! cargo run --release -p grundy-web --example load -- --requests 5000 --concurrency 64 --heavy 64 --interval-ms 20
//! # against a running `grundy serve`:
//! cargo run --release -p grundy-web --example load -- --url http://127.0.0.1:8080
//! ```

use std::collections::BTreeMap;
use std::net::{SocketAddr, ToSocketAddrs as _};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

// The tests' client; this example reads only the status of an answer.
#[path = "../tests/web/client.rs"]
#[allow(dead_code)]
mod client;

mod support;

use client::{Client, Method};

/// The endpoint every request goes to.
const ENDPOINT: &str = "/api/v1/clear/analyze";

fn usage() -> ! {
    eprintln!(
        "usage: load [--requests N] [--concurrency C] [--heavy H] [--interval-ms T] [--max-seconds S] [--url http://127.0.0.1:PORT]"
    );
    std::process::exit(2);
}

/// A 4 x 4 board from 16 pseudo-random bits (a fixed LCG: runs are
/// repeatable).
fn board_body(seed: u64) -> String {
    let bits = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407)
        >> 48;
    support::board_body(bits, 4, 4)
}

/// The heavy request: the full 6 x 6 board of the issue's reproduction, far
/// beyond the 4 x 4 table (the search runs until the server's budget).
fn heavy_body() -> String {
    serde_json::json!({ "board": vec!["111111"; 6] }).to_string()
}

/// Latencies and answers of one kind of request.
#[derive(Default)]
struct Tally {
    latencies: Vec<Duration>,
    statuses: BTreeMap<String, usize>,
}

impl Tally {
    fn record(&mut self, latency: Duration, status: String) {
        self.latencies.push(latency);
        *self.statuses.entry(status).or_default() += 1;
    }

    fn report(&mut self, name: &str, elapsed: Duration) {
        let latencies = &mut self.latencies;
        latencies.sort_unstable();
        if latencies.is_empty() {
            println!("{name}: no requests");
            return;
        }
        let pct = |p: f64| support::percentile_ms(latencies.as_slice(), p);
        let statuses: Vec<String> = self
            .statuses
            .iter()
            .map(|(status, n)| format!("{status}: {n}"))
            .collect();
        println!(
            "{name}: {} requests in {:.2} s ({:.0}/s), answers {{{}}}",
            latencies.len(),
            elapsed.as_secs_f64(),
            latencies.len() as f64 / elapsed.as_secs_f64(),
            statuses.join(", ")
        );
        println!(
            "{name} latency ms: p50 {:.3}  p90 {:.3}  p99 {:.3}  max {:.3}",
            pct(0.50),
            pct(0.90),
            pct(0.99),
            pct(1.0)
        );
    }
}

/// Sends one POST and records its latency and status (or the error).
async fn send(client: &mut Client, body: String, tally: &Mutex<Tally>) {
    let sent = Instant::now();
    let status = match client.send(Method::POST, ENDPOINT, body.into_bytes()).await {
        Ok(response) => response.status.to_string(),
        Err(_) => "connection error".to_owned(),
    };
    tally.lock().expect("tally").record(sent.elapsed(), status);
}

fn main() {
    let mut requests = 20_000usize;
    let mut concurrency = 32usize;
    let mut heavy = 0usize;
    let mut max_seconds = 120u64;
    let mut interval = Duration::ZERO;
    let mut url: Option<String> = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = args.next().unwrap_or_else(|| usage());
        match arg.as_str() {
            "--requests" => requests = value.parse().unwrap_or_else(|_| usage()),
            "--concurrency" => concurrency = value.parse().unwrap_or_else(|_| usage()),
            "--heavy" => heavy = value.parse().unwrap_or_else(|_| usage()),
            "--max-seconds" => max_seconds = value.parse().unwrap_or_else(|_| usage()),
            "--interval-ms" => {
                interval = Duration::from_millis(value.parse().unwrap_or_else(|_| usage()));
            }
            "--url" => url = Some(value),
            _ => usage(),
        }
    }
    if requests == 0 || concurrency == 0 || max_seconds == 0 {
        usage();
    }
    let addr: SocketAddr = match url {
        Some(url) => {
            let authority = url
                .trim_start_matches("http://")
                .split('/')
                .next()
                .unwrap_or("");
            let host = authority
                .rsplit_once(':')
                .map_or(authority, |(host, _)| host);
            if !matches!(host, "127.0.0.1" | "localhost" | "[::1]") {
                eprintln!("load: loopback only (got {url})");
                std::process::exit(2);
            }
            match authority.to_socket_addrs().ok().and_then(|mut a| a.next()) {
                Some(addr) => addr,
                None => {
                    eprintln!("load: no address with a port in {url}");
                    std::process::exit(2);
                }
            }
        }
        None => support::serve_in_process(),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let deadline = Duration::from_secs(max_seconds);
    runtime.block_on(async move {
        let next = Arc::new(AtomicUsize::new(0));
        let light_done = Arc::new(AtomicBool::new(false));
        let light = Arc::new(Mutex::new(Tally::default()));
        let heavy_tally = Arc::new(Mutex::new(Tally::default()));
        let started = Instant::now();
        // Heavy clients first, so the search slots are taken when the light
        // requests start; they go on until the light ones are done.
        let mut heavy_workers = Vec::new();
        if heavy > 0 {
            for _ in 0..heavy {
                let mut client = Client::new(addr);
                let (done, tally) = (light_done.clone(), heavy_tally.clone());
                heavy_workers.push(tokio::spawn(async move {
                    while !done.load(Ordering::Relaxed) {
                        send(&mut client, heavy_body(), &tally).await;
                    }
                }));
            }
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
        let light_started = Instant::now();
        let mut workers = Vec::new();
        for _ in 0..concurrency {
            let mut client = Client::new(addr);
            let (next, tally) = (next.clone(), light.clone());
            workers.push(tokio::spawn(async move {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= requests {
                        break;
                    }
                    send(&mut client, board_body(i as u64), &tally).await;
                    if !interval.is_zero() {
                        tokio::time::sleep(interval).await;
                    }
                }
            }));
        }
        let all_light = async {
            for worker in workers {
                worker.await.expect("light worker");
            }
        };
        let finished = tokio::time::timeout(deadline, all_light).await.is_ok();
        let light_elapsed = light_started.elapsed();
        light_done.store(true, Ordering::Relaxed);
        // Heavy requests still in flight are abandoned: the run is bounded.
        for worker in heavy_workers {
            worker.abort();
        }
        if !finished {
            println!("stopped after --max-seconds {max_seconds}");
        }
        let mut light = light.lock().expect("tally");
        let mut heavy_tally = heavy_tally.lock().expect("tally");
        println!(
            "{concurrency} light clients (random 4 x 4 boards, {} ms between requests), {heavy} heavy clients (6 x 6 full board)",
            interval.as_millis()
        );
        light.report("light", light_elapsed);
        if heavy > 0 {
            heavy_tally.report("heavy", started.elapsed());
        }
        let failed: usize = light
            .statuses
            .iter()
            .filter(|(status, _)| status.as_str() != "200")
            .map(|(_, n)| n)
            .sum();
        if failed > 0 || !finished {
            std::process::exit(1);
        }
    });
}
