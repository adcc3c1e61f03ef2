//! The accept loop: hyper's HTTP/1 connections with read timeouts, a cap on
//! open connections and a cap per client, so idle or slow clients cannot
//! exhaust the server, nor lock other clients out.
//!
//! `axum::serve` has no read timeouts and no cap, so this is the glue
//! between tokio's listener, hyper's connection builder and the axum
//! router, with these bounds:
//!
//! - **Connections** ([`ConnLimits::max_connections`] in all,
//!   [`ConnLimits::max_per_client`] per client address): a registry of the
//!   open connections, consulted when one is accepted. A client is its IP
//!   address (an IPv6 address by its /64 prefix, which one subscriber
//!   usually holds whole; an IPv4-mapped one as IPv4).
//!   A connection is *waiting* while no request of it is being handled: it
//!   has not yet sent a whole request line and headers (a slow or idle
//!   client), or its last answer is done (idle keep-alive). When a new
//!   connection would pass a cap, the server **sheds** a waiting
//!   connection to make room, as a production server does with abusive
//!   clients: over the client's own cap, that client's longest-waiting
//!   connection; over the global cap, the longest-waiting connection of
//!   the client holding the most connections. So a client trickling bytes
//!   on a thousand connections holds at most its cap of them, and a new
//!   client is served at once: the trickler's oldest connection gives way,
//!   never the newcomer. Only when no connection of the right kind is
//!   waiting (all are busy with requests) is the new one refused: a `503`
//!   written without waiting (one non-blocking write into an empty socket
//!   buffer), and closed, so the excess costs no task and no memory. The
//!   registry is a hash map under a mutex; shedding scans it (at most
//!   `max_connections` entries, microseconds) only when a cap is reached.
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

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::extract::Request;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;
use tokio::time::Instant;
use tower::Service;

/// The bounds on connections.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ConnLimits {
    pub max_connections: usize,
    pub max_per_client: usize,
    pub header_timeout: Duration,
    pub idle_timeout: Duration,
}

/// What an over-the-cap connection is told before it is closed.
static BUSY: LazyLock<Vec<u8>> = LazyLock::new(|| {
    let body = r#"{"error":"too many open connections; try again shortly"}"#;
    format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nx-content-type-options: nosniff\r\nretry-after: 1\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{body}",
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
    let registry = Arc::new(Mutex::new(Registry::default()));
    let mut http = hyper::server::conn::http1::Builder::new();
    // No `half_close`: a read side that ends before the answer is written
    // means the client has gone (browsers and curl close the whole
    // connection when they give up), so hyper drops the request, and its
    // searches stop (`Limits::stop`) instead of spending their budget for
    // nobody. A client that shuts its sending side once its request is
    // sent (as `nc -N` does) is not answered: that is rare in HTTP/1.
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .keep_alive(true)
        .half_close(false);
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
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
        let activity = Arc::new(Activity::new());
        let admitted = registry
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .admit(client_of(peer.ip()), &activity, limits);
        let Some((id, shed)) = admitted else {
            refuse(&stream);
            continue;
        };
        let place = Place {
            registry: registry.clone(),
            id,
        };
        // Small JSON answers: send them now rather than after Nagle's delay.
        let _ = stream.set_nodelay(true);
        let http = http.clone();
        let app = app.clone();
        tokio::spawn(async move {
            serve_connection(
                stream,
                client_of(peer.ip()),
                &http,
                app,
                activity,
                &shed,
                limits.idle_timeout,
            )
            .await;
            drop(place);
        });
    }
}

/// A client, as the per-client cap counts them: an IPv4 address, or the
/// /64 prefix of an IPv6 one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Client {
    V4([u8; 4]),
    V6Prefix(u64),
}

/// The client an address belongs to.
pub(crate) fn client_of(ip: IpAddr) -> Client {
    match ip {
        IpAddr::V4(v4) => Client::V4(v4.octets()),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => Client::V4(v4.octets()),
            None => Client::V6Prefix((u128::from(v6) >> 64) as u64),
        },
    }
}

/// One open connection: its client, whether it is waiting (see the module
/// comment), and how to tell its task to drop it.
struct Open {
    client: Client,
    activity: Arc<Activity>,
    shed: Arc<Notify>,
}

/// The open connections (see the module comment).
#[derive(Default)]
struct Registry {
    open: HashMap<u64, Open>,
    per_client: HashMap<Client, usize>,
    next_id: u64,
}

impl Registry {
    /// Registers a new connection of `client`, shedding a waiting one when
    /// a cap is reached; `None` when it must be refused. Returns its id and
    /// the signal that sheds it.
    fn admit(
        &mut self,
        client: Client,
        activity: &Arc<Activity>,
        limits: ConnLimits,
    ) -> Option<(u64, Arc<Notify>)> {
        let own = self.per_client.get(&client).copied().unwrap_or(0);
        if own >= limits.max_per_client.max(1) {
            let victim = self.longest_waiting(|open| open.client == client)?;
            self.shed(victim);
        } else if self.open.len() >= limits.max_connections.max(1) {
            let heaviest = self
                .open
                .values()
                .filter(|open| open.activity.waiting_since().is_some())
                .map(|open| open.client)
                .max_by_key(|client| self.per_client.get(client).copied().unwrap_or(0))?;
            let victim = self.longest_waiting(|open| open.client == heaviest)?;
            self.shed(victim);
        }
        let id = self.next_id;
        self.next_id += 1;
        let shed = Arc::new(Notify::new());
        self.open.insert(
            id,
            Open {
                client,
                activity: activity.clone(),
                shed: shed.clone(),
            },
        );
        *self.per_client.entry(client).or_insert(0) += 1;
        Some((id, shed))
    }

    /// The connection among `which` waiting the longest, if any waits.
    fn longest_waiting(&self, which: impl Fn(&Open) -> bool) -> Option<u64> {
        self.open
            .iter()
            .filter(|(_, open)| which(open))
            .filter_map(|(&id, open)| Some((open.activity.waiting_since()?, id)))
            .min()
            .map(|(_, id)| id)
    }

    /// Drops a connection from the registry and tells its task to close it.
    /// (A request that began since it was chosen is cut short with it: a
    /// race of microseconds, against a client that was the slowest.)
    fn shed(&mut self, id: u64) {
        if let Some(open) = self.remove(id) {
            open.shed.notify_one();
        }
    }

    fn remove(&mut self, id: u64) -> Option<Open> {
        let open = self.open.remove(&id)?;
        if let Some(count) = self.per_client.get_mut(&open.client) {
            *count -= 1;
            if *count == 0 {
                self.per_client.remove(&open.client);
            }
        }
        Some(open)
    }
}

/// A connection's place in the registry, given back when its task ends
/// (also if the task panics).
struct Place {
    registry: Arc<Mutex<Registry>>,
    id: u64,
}

impl Drop for Place {
    fn drop(&mut self) {
        self.registry
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(self.id);
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

/// Serves one connection of `client` (put in each request's extensions,
/// for the handlers' turns at the small lane) until the client closes it,
/// hyper closes it (a header timeout, an error, `Connection: close`), it
/// stays idle for `idle_timeout`, or the registry sheds it.
async fn serve_connection(
    stream: TcpStream,
    client: Client,
    http: &hyper::server::conn::http1::Builder,
    app: Router,
    activity: Arc<Activity>,
    shed: &Notify,
    idle_timeout: Duration,
) {
    let io = TokioIo::new(Watched {
        stream,
        activity: activity.clone(),
    });
    let service = hyper::service::service_fn({
        let activity = activity.clone();
        move |mut request: Request<Incoming>| {
            // The handlers give each client its turns at the small lane.
            request.extensions_mut().insert(client);
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
            // Dropping the connection closes the socket.
            () = shed.notified() => return,
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

    /// Since when the connection has been waiting for a request line and
    /// headers (since it was accepted or its last answer was done), or
    /// `None` while a request is being handled. Bytes of a next request
    /// may have arrived: a trickling client is waiting too.
    fn waiting_since(&self) -> Option<Instant> {
        if self.in_flight.load(Ordering::SeqCst) > 0 {
            return None;
        }
        Some(*self.idle_since.lock().unwrap_or_else(|e| e.into_inner()))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clients_are_ipv4_addresses_and_ipv6_prefixes() {
        let client = |ip: &str| client_of(ip.parse().unwrap());
        assert_eq!(client("127.0.0.2"), client("::ffff:127.0.0.2"));
        assert_ne!(client("127.0.0.2"), client("127.0.0.3"));
        assert_eq!(client("2001:db8:1:2::1"), client("2001:db8:1:2:ffff::9"));
        assert_ne!(client("2001:db8:1:2::1"), client("2001:db8:1:3::1"));
    }
}
