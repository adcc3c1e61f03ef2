//! What the load and abuse examples share: the in-process server they
//! target when no `--url` is given, the boards they send, and their
//! latency percentiles.

use std::net::SocketAddr;
use std::time::Duration;

/// Starts a server with the default configuration on a free loopback port,
/// on its own runtime thread, and returns its address.
pub fn serve_in_process() -> SocketAddr {
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
    rx.recv().expect("server address")
}

/// The request body `{"board": rows}` for a `rows x cols` board whose cell
/// `(r, c)` is set when bit `r * cols + c` of `bits` is.
pub fn board_body(bits: u64, rows: usize, cols: usize) -> String {
    let rows: Vec<String> = (0..rows)
        .map(|r| {
            (0..cols)
                .map(|c| {
                    if bits >> (r * cols + c) & 1 == 1 {
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

/// The `p` percentile (0 < p <= 1) of sorted, non-empty latencies, in ms.
pub fn percentile_ms(sorted: &[Duration], p: f64) -> f64 {
    let index = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[index].as_secs_f64() * 1e3
}
