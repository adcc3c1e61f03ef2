//! The accept loop: hyper's HTTP/1 connections with read timeouts and a cap
//! on open connections, so idle or slow clients cannot exhaust the server.
//!
//! `axum::serve` has no read timeouts and no cap, so this is the glue
//! between tokio's listener, hyper's connection builder and the axum
//! router, with four bounds:
//!
//! - **Connections** ([`ConnLimits::max_connections`]): a semaphore taken
//!   before a connection is served. Over the cap, the new connection gets a
//!   `503` written without waiting (one non-blocking write into an empty
//!   socket buffer) and is closed, so the excess costs no task and no memory.
//! - **Header read timeout** ([`ConnLimits::header_timeout`]): hyper's own
//!   `header_read_timeout` (with tokio's timer). Hyper starts it when it
//!   begins waiting for a request, on a new connection or after the previous
//!   response; the request line and headers must be complete before it
//!   fires, or the connection is closed.
//! - **Idle keep-alive timeout** ([`ConnLimits::idle_timeout`]): a connection
//!   with no request in progress and no byte of a next one received for this
//!   long is closed. A per-connection watchdog sleeps until the idle
//!   deadline; the request counter and a "bytes read" flag (set by the
//!   socket wrapper, cleared when a response is done) say whether the
//!   connection is idle. It also bounds a client that stops reading a
//!   response: once the handler is done, the connection counts as idle.
//! - **Body read timeout**: in the request guard ([`crate::guard`]), which
//!   reads the body before routing.
//!
//! Searches are bounded by their budgets and the search slots (see the
//! crate comment), so every phase of a connection has a time bound.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::extract::Request;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio::time::Instant;
use tower::Service;

/// The bounds on connections.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ConnLimits {
    pub max_connections: usize,
    pub header_timeout: Duration,
    pub idle_timeout: Duration,
}

/// What an over-the-cap connection is told before it is closed.
static BUSY: LazyLock<Vec<u8>> = LazyLock::new(|| {
    let body = r#"{"error":"too many open connections; try again shortly"}"#;
    format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
});

/// Serves `app` on `listener` until `shutdown` completes.
pub(crate) async fn run(
    listener: TcpListener,
    app: Router,
    limits: ConnLimits,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    let slots = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .keep_alive(true);
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(err) => {
                    // Out of descriptors (or a similar resource error):
                    // back off instead of spinning; a reset peer: go on.
                    if !matches!(
                        err.kind(),
                        io::ErrorKind::ConnectionAborted | io::ErrorKind::ConnectionReset
                    ) {
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                    continue;
                }
            },
            () = &mut shutdown => return Ok(()),
        };
        let Ok(permit) = slots.clone().try_acquire_owned() else {
            refuse(&stream);
            continue;
        };
        // Small JSON answers: send them now rather than after Nagle's delay.
        let _ = stream.set_nodelay(true);
        let http = http.clone();
        let app = app.clone();
        tokio::spawn(async move {
            serve_connection(stream, &http, app, limits.idle_timeout).await;
            drop(permit);
        });
    }
}

/// Answers 503 to a connection over the cap, without waiting for anything.
fn refuse(stream: &TcpStream) {
    // Read what already arrived, so closing sends FIN rather than RST (an
    // RST may discard the 503 before the client reads it).
    let mut scratch = [0u8; 4096];
    let _ = stream.try_read(&mut scratch);
    let _ = stream.try_write(&BUSY);
}

/// Serves one connection until the client closes it, hyper closes it (a
/// header timeout, an error, `Connection: close`), or it stays idle for
/// `idle_timeout`.
async fn serve_connection(
    stream: TcpStream,
    http: &hyper::server::conn::http1::Builder,
    app: Router,
    idle_timeout: Duration,
) {
    let activity = Arc::new(Activity::new());
    let io = TokioIo::new(Watched {
        stream,
        activity: activity.clone(),
    });
    let service = hyper::service::service_fn({
        let activity = activity.clone();
        move |request: Request<Incoming>| {
            let busy = activity.begin();
            let mut app = app.clone();
            async move {
                // The router is always ready: no poll_ready needed.
                let response = app.call(request).await;
                drop(busy);
                response
            }
        }
    });
    let connection = http.serve_connection(io, service);
    let mut connection = std::pin::pin!(connection);
    loop {
        let wake = activity.idle_since().map_or_else(
            || Instant::now() + idle_timeout,
            |since| since + idle_timeout,
        );
        tokio::select! {
            _ = connection.as_mut() => return,
            () = tokio::time::sleep_until(wake) => {
                if activity.idle_since().is_some_and(|since| since.elapsed() >= idle_timeout) {
                    // Dropping the connection closes the socket.
                    return;
                }
            }
        }
    }
}

/// Whether a connection is in use: requests in progress, bytes of a next
/// request received, and since when it has been idle.
struct Activity {
    in_flight: AtomicUsize,
    read_since_idle: AtomicBool,
    idle_since: Mutex<Instant>,
}

impl Activity {
    fn new() -> Activity {
        Activity {
            in_flight: AtomicUsize::new(0),
            read_since_idle: AtomicBool::new(false),
            idle_since: Mutex::new(Instant::now()),
        }
    }

    /// A request starts; the returned guard ends it when dropped (also when
    /// the connection is dropped mid-request).
    fn begin(self: &Arc<Self>) -> Busy {
        self.in_flight.fetch_add(1, Ordering::SeqCst);
        Busy(self.clone())
    }

    /// Since when the connection has been idle, or `None` while it is not.
    fn idle_since(&self) -> Option<Instant> {
        if self.in_flight.load(Ordering::SeqCst) > 0 || self.read_since_idle.load(Ordering::SeqCst)
        {
            return None;
        }
        Some(*self.idle_since.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

/// A request in progress (see [`Activity::begin`]).
struct Busy(Arc<Activity>);

impl Drop for Busy {
    fn drop(&mut self) {
        let activity = &self.0;
        *activity
            .idle_since
            .lock()
            .unwrap_or_else(|e| e.into_inner()) = Instant::now();
        activity.read_since_idle.store(false, Ordering::SeqCst);
        activity.in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The socket, noting in [`Activity`] when request bytes arrive.
struct Watched {
    stream: TcpStream,
    activity: Arc<Activity>,
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.stream).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.activity.read_since_idle.store(true, Ordering::SeqCst);
        }
        polled
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}
