//! A bounded load test of `POST /api/v1/clear/analyze` on random 4 x 4
//! boards: a fixed number of requests over loopback, a fixed number in
//! flight, then a report of throughput and latency percentiles. It stops by
//! itself.
//!
//! ```sh
//! # against an in-process server on a free loopback port:
//! cargo run --release -p grundy-web --example load -- --requests 20000 --concurrency 32
//! # against a running `grundy serve`:
//! cargo run --release -p grundy-web --example load -- --url http://127.0.0.1:8080
//! ```

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn usage() -> ! {
    eprintln!("usage: load [--requests N] [--concurrency C] [--url http://127.0.0.1:PORT]");
    std::process::exit(2);
}

/// A 4 x 4 board from 16 pseudo-random bits (a fixed LCG: runs are
/// repeatable).
fn board_body(seed: u64) -> String {
    let bits = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407)
        >> 48;
    let rows: Vec<String> = (0..4)
        .map(|r| {
            (0..4)
                .map(|c| {
                    if bits >> (r * 4 + c) & 1 == 1 {
                        '1'
                    } else {
                        '0'
                    }
                })
                .collect()
        })
        .collect();
    serde_json::json!({ "board": rows }).to_string()
}

fn main() {
    let mut requests = 20_000usize;
    let mut concurrency = 32usize;
    let mut url: Option<String> = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = args.next().unwrap_or_else(|| usage());
        match arg.as_str() {
            "--requests" => requests = value.parse().unwrap_or_else(|_| usage()),
            "--concurrency" => concurrency = value.parse().unwrap_or_else(|_| usage()),
            "--url" => url = Some(value),
            _ => usage(),
        }
    }
    if requests == 0 || concurrency == 0 {
        usage();
    }
    let base = match url {
        Some(url) => {
            let host = url
                .trim_start_matches("http://")
                .split(['/', ':'])
                .next()
                .unwrap_or("");
            if !matches!(host, "127.0.0.1" | "localhost" | "[::1]") {
                eprintln!("load: loopback only (got {url})");
                std::process::exit(2);
            }
            url.trim_end_matches('/').to_owned()
        }
        None => {
            // An in-process server on its own runtime thread.
            let (tx, rx) = std::sync::mpsc::channel();
            std::thread::spawn(move || {
                let runtime = tokio::runtime::Runtime::new().expect("runtime");
                runtime.block_on(async move {
                    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                    tx.send(listener.local_addr().unwrap()).unwrap();
                    grundy_web::serve_on(listener, grundy_web::Config::default())
                        .await
                        .unwrap();
                });
            });
            format!("http://{}", rx.recv().expect("server address"))
        }
    };
    let endpoint = format!("{base}/api/v1/clear/analyze");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async move {
        let client = reqwest::Client::new();
        let next = Arc::new(AtomicUsize::new(0));
        let started = Instant::now();
        let mut workers = Vec::new();
        for _ in 0..concurrency {
            let client = client.clone();
            let next = next.clone();
            let endpoint = endpoint.clone();
            workers.push(tokio::spawn(async move {
                let mut latencies = Vec::new();
                let mut errors = 0usize;
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= requests {
                        break;
                    }
                    let body = board_body(i as u64);
                    let sent = Instant::now();
                    let ok = match client
                        .post(&endpoint)
                        .header("content-type", "application/json")
                        .body(body)
                        .send()
                        .await
                    {
                        Ok(response) => {
                            let status = response.status();
                            response.bytes().await.is_ok() && status.is_success()
                        }
                        Err(_) => false,
                    };
                    latencies.push(sent.elapsed());
                    errors += usize::from(!ok);
                }
                (latencies, errors)
            }));
        }
        let mut latencies: Vec<Duration> = Vec::with_capacity(requests);
        let mut errors = 0;
        for worker in workers {
            let (l, e) = worker.await.expect("worker");
            latencies.extend(l);
            errors += e;
        }
        let elapsed = started.elapsed();
        latencies.sort_unstable();
        let pct = |p: f64| {
            let index =
                ((latencies.len() as f64 * p).ceil() as usize).clamp(1, latencies.len()) - 1;
            latencies[index].as_secs_f64() * 1e3
        };
        println!(
            "{requests} requests, {concurrency} in flight, {errors} errors, {:.2} s",
            elapsed.as_secs_f64()
        );
        println!(
            "throughput {:.0} requests/s",
            requests as f64 / elapsed.as_secs_f64()
        );
        println!(
            "latency ms: p50 {:.3}  p90 {:.3}  p99 {:.3}  max {:.3}",
            pct(0.50),
            pct(0.90),
            pct(0.99),
            pct(1.0)
        );
        if errors > 0 {
            std::process::exit(1);
        }
    });
}
