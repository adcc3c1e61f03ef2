//! The request guard: a web page must not be able to drive the server.
//!
//! A page on another site can make the browser send requests to
//! `127.0.0.1`: directly (blind "simple" requests, which need no CORS
//! preflight when their `Content-Type` is `text/plain` or a form type), or,
//! after DNS rebinding, as same-origin requests whose answers it can read.
//! Every request passes these checks, in this order, before any handler:
//!
//! 0. **One of each** (400): a request with two `Host`, `Origin` or
//!    `Content-Type` headers is refused. Which of two a check, a proxy or
//!    a handler reads is anyone's guess, so a second `Host` could smuggle
//!    a name past the check. Likewise a request target in absolute form
//!    (`GET http://name/ HTTP/1.1`) must name the same authority as `Host`.
//!    A body given both a `Content-Length` and a chunked
//!    `Transfer-Encoding` never reaches these checks with both: hyper
//!    reads it as chunked and closes the connection after the answer (RFC
//!    9112, section 6.3), so nothing after it is read as a request.
//! 1. **Host** (421 Misdirected Request): the `Host` header must name the
//!    server as bound (its IP and port), `localhost` with the port, or an
//!    entry of `--allow-host`. A rebound name (`rebind.attacker.example`) is
//!    not one of them, so DNS rebinding gets nothing. A request without
//!    `Host` is a 400.
//! 2. **Origin** (403): a request carrying an `Origin` must come from the
//!    server's own origin (`http://` and the request's `Host`) or from an
//!    origin of `--allow-origin` (which also get CORS headers, see
//!    [`cors_layer`]). Requests without `Origin` (curl, scripts) pass.
//! 3. **Content-Type** (415): a POST must say `application/json`. The
//!    "simple" types a page can send without a preflight are refused, so a
//!    blind cross-site POST does nothing even from an old browser that sends
//!    no `Origin`.
//! 4. **Body** (408 / 413): the body is read whole before routing, within
//!    the body read timeout and the body size cap, so a client trickling its
//!    body holds a connection for a bounded time.
//!
//! Each check is a comparison of a few short strings: no cost worth
//! measuring per request. The rejections are JSON errors like the API's.
//!
//! Every answer, the page's, the API's and the rejections', carries the
//! [security headers](security_headers): a Content-Security-Policy that
//! lets the page load its script, style and API from this server only and
//! nothing else (no inline script or style, no framing), `nosniff`, and
//! `X-Frame-Options: DENY` for browsers without CSP's `frame-ancestors`.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tower_http::cors::{AllowOrigin, CorsLayer};

use crate::{truncate, ApiError};

/// Allows everything in `--allow-host` and `--allow-origin`.
pub const ANY: &str = "*";

/// One accepted `Host`: a name (lower case; IPv6 in brackets) and a port,
/// or any port when `None`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct HostRule {
    host: String,
    port: Option<u16>,
}

/// The checks' settings, fixed when the server starts.
#[derive(Debug)]
pub(crate) struct Guard {
    hosts: Vec<HostRule>,
    any_host: bool,
    origins: Vec<String>,
    any_origin: bool,
    body_timeout: Duration,
    max_body_bytes: usize,
}

impl Guard {
    /// The guard of a server bound to `local`, with the extra hosts and
    /// origins allowed by the configuration.
    pub(crate) fn new(
        local: SocketAddr,
        allow_hosts: &[String],
        allow_origins: &[String],
        body_timeout: Duration,
        max_body_bytes: usize,
    ) -> Guard {
        let port = Some(local.port());
        let mut hosts = vec![
            HostRule {
                host: ip_host(local.ip()),
                port,
            },
            HostRule {
                host: "localhost".to_owned(),
                port,
            },
        ];
        if local.ip().is_unspecified() {
            // Bound to every interface: loopback reaches it too.
            for ip in [
                IpAddr::V4(Ipv4Addr::LOCALHOST),
                IpAddr::V6(Ipv6Addr::LOCALHOST),
            ] {
                hosts.push(HostRule {
                    host: ip_host(ip),
                    port,
                });
            }
        }
        let mut any_host = false;
        for entry in allow_hosts {
            if entry.trim() == ANY {
                any_host = true;
            } else if let Some((host, port)) = split_host_port(entry.trim()) {
                hosts.push(HostRule {
                    host: host.to_ascii_lowercase(),
                    port,
                });
            }
        }
        let any_origin = allow_origins.iter().any(|o| o.trim() == ANY);
        let origins = allow_origins
            .iter()
            .filter(|o| o.trim() != ANY)
            .map(|o| normalise_origin(o))
            .collect();
        Guard {
            hosts,
            any_host,
            origins,
            any_origin,
            body_timeout,
            max_body_bytes,
        }
    }

    fn host_allowed(&self, host: &str, port: Option<u16>) -> bool {
        // No port in `Host` means the scheme's default, 80 for http.
        let port = port.unwrap_or(80);
        self.any_host
            || self.hosts.iter().any(|rule| {
                rule.host.eq_ignore_ascii_case(host) && rule.port.is_none_or(|p| p == port)
            })
    }

    /// The `Access-Control-Allow-Origin` of an answer to a request from
    /// `origin` that the guard itself rejects after the origin check (a
    /// body too large, too slow, not JSON), as the CORS layer words it for
    /// the answers behind the guard: `*` when every origin is allowed, the
    /// origin when `--allow-origin` names it, none otherwise (the server's
    /// own origin needs none).
    fn cors_origin(&self, origin: &str) -> Option<HeaderValue> {
        if self.any_origin {
            return Some(HeaderValue::from_static("*"));
        }
        self.origins
            .contains(&normalise_origin(origin))
            .then(|| HeaderValue::from_str(origin).ok())
            .flatten()
    }

    fn origin_allowed(&self, origin: &str, host: &str, port: Option<u16>) -> bool {
        if self.any_origin || self.origins.contains(&normalise_origin(origin)) {
            return true;
        }
        // The server's own origin: http:// and the Host the request names.
        let Some(rest) = origin.strip_prefix("http://") else {
            return false;
        };
        match split_host_port(rest) {
            Some((origin_host, origin_port)) => {
                origin_host.eq_ignore_ascii_case(host)
                    && origin_port.unwrap_or(80) == port.unwrap_or(80)
            }
            None => false,
        }
    }
}

/// The `Host` headers a server bound to `local` with these `--allow-host`
/// entries answers, as its guard checks them (`host:port`, or `host` for
/// any port), or `None` when `*` lets any through: what the server says
/// it accepts is what it accepts.
#[must_use]
pub fn accepted_hosts(local: SocketAddr, allow_hosts: &[String]) -> Option<Vec<String>> {
    let guard = Guard::new(local, allow_hosts, &[], Duration::ZERO, 0);
    if guard.any_host {
        return None;
    }
    let hosts = guard.hosts.iter().map(|rule| match rule.port {
        Some(port) => format!("{}:{port}", rule.host),
        None => rule.host.clone(),
    });
    Some(hosts.collect())
}

/// An IP as it appears in a `Host` header (IPv6 in brackets).
fn ip_host(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => format!("[{v6}]"),
    }
}

/// `host[:port]` or `[v6][:port]` into the host and the port (if given and
/// valid). `None` when the text is not of that form.
fn split_host_port(text: &str) -> Option<(&str, Option<u16>)> {
    let (host, port) = if text.starts_with('[') {
        let end = text.find(']')?;
        let (host, rest) = text.split_at(end + 1);
        match rest {
            "" => (host, None),
            _ => (host, Some(rest.strip_prefix(':')?)),
        }
    } else {
        match text.rsplit_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (text, None),
        }
    };
    if host.is_empty() || host.contains(['/', '@', ' ', ':']) && !host.starts_with('[') {
        return None;
    }
    match port {
        None => Some((host, None)),
        Some(port) => Some((host, Some(port.parse().ok()?))),
    }
}

/// An `--allow-host` entry checked: `*`, or a name or address with an
/// optional port, as a `Host` header names one. The server would drop
/// anything else without a word, so the command line refuses it.
///
/// # Errors
///
/// What is wrong with `text`, in words.
pub fn check_allow_host(text: &str) -> Result<String, String> {
    let text = text.trim();
    if text == ANY || split_host_port(text).is_some() {
        return Ok(text.to_owned());
    }
    Err(format!(
        "`{text}` is not a host: expected NAME, NAME:PORT (a port from 0 to 65535) or *"
    ))
}

/// An `--allow-origin` entry checked and put in the form browsers send
/// (`http://` or `https://`, a host and an optional port, lower case, no
/// path): `*`, or the origin. A malformed one would never match a request.
///
/// # Errors
///
/// What is wrong with `text`, in words.
pub fn check_allow_origin(text: &str) -> Result<String, String> {
    let trimmed = text.trim();
    if trimmed == ANY {
        return Ok(ANY.to_owned());
    }
    let origin = normalise_origin(trimmed);
    let rest = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"));
    match rest {
        Some(rest) if split_host_port(rest).is_some() && HeaderValue::from_str(&origin).is_ok() => {
            Ok(origin)
        }
        _ => Err(format!(
            "`{trimmed}` is not an origin: expected http:// or https://, a host and an optional port, \
             with no path (for example http://127.0.0.1:3000), or *"
        )),
    }
}

/// An origin for comparison: lower case, without a trailing `/`.
fn normalise_origin(origin: &str) -> String {
    origin.trim().trim_end_matches('/').to_ascii_lowercase()
}

/// CORS headers and preflight answers for the `--allow-origin` origins;
/// `None` when there are none (same-origin use needs no CORS).
pub(crate) fn cors_layer(allow_origins: &[String]) -> Option<CorsLayer> {
    if allow_origins.is_empty() {
        return None;
    }
    let origin = if allow_origins.iter().any(|o| o.trim() == ANY) {
        AllowOrigin::any()
    } else {
        AllowOrigin::list(
            allow_origins
                .iter()
                .filter_map(|o| HeaderValue::from_str(&normalise_origin(o)).ok()),
        )
    };
    Some(
        CorsLayer::new()
            .allow_origin(origin)
            .allow_methods([Method::GET, Method::POST])
            .allow_headers([header::CONTENT_TYPE]),
    )
}

/// An error answer that also closes the connection (the rest of the request
/// may still be on its way).
fn reject(status: StatusCode, message: String) -> Response {
    let mut response = ApiError::new(status, message).into_response();
    response
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

/// The middleware: the checks of the module comment, then the request with
/// its body read.
pub(crate) async fn check(
    State(guard): State<Arc<Guard>>,
    request: Request,
    next: Next,
) -> Response {
    let (parts, body) = request.into_parts();
    for name in [header::HOST, header::ORIGIN, header::CONTENT_TYPE] {
        if parts.headers.get_all(&name).iter().nth(1).is_some() {
            return reject(
                StatusCode::BAD_REQUEST,
                format!("more than one {name} header"),
            );
        }
    }
    let Some(host_header) = parts
        .headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
    else {
        return reject(
            StatusCode::BAD_REQUEST,
            "missing or unreadable Host header".to_owned(),
        );
    };
    let Some((host, port)) = split_host_port(host_header) else {
        return reject(
            StatusCode::BAD_REQUEST,
            format!("malformed Host header {:?}", truncate(host_header, 80)),
        );
    };
    if let Some(authority) = parts.uri.authority() {
        if !authority.as_str().eq_ignore_ascii_case(host_header) {
            return reject(
                StatusCode::BAD_REQUEST,
                format!(
                    "the request target names {:?} but the Host header {:?}",
                    truncate(authority.as_str(), 80),
                    truncate(host_header, 80)
                ),
            );
        }
    }
    if !guard.host_allowed(host, port) {
        return reject(
            StatusCode::MISDIRECTED_REQUEST,
            format!(
                "host {:?} is not this server's name (its address or localhost, with the port); \
                 a server started with --allow-host NAME accepts another name",
                truncate(host_header, 80)
            ),
        );
    }
    if let Some(origin) = parts.headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        if !guard.origin_allowed(origin, host, port) {
            return reject(
                StatusCode::FORBIDDEN,
                format!(
                    "cross-origin request from {:?} refused; start the server with --allow-origin to accept it",
                    truncate(origin, 80)
                ),
            );
        }
    }
    // A cross-origin page the server allows must be able to read the
    // rejections below, as it reads the answers behind the guard.
    let cors_origin = parts
        .headers
        .get(header::ORIGIN)
        .and_then(|origin| origin.to_str().ok())
        .and_then(|origin| guard.cors_origin(origin));
    let refuse = |status, message| {
        let mut response = reject(status, message);
        if let Some(origin) = &cors_origin {
            let headers = response.headers_mut();
            headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin.clone());
            headers.insert(header::VARY, HeaderValue::from_static("origin"));
        }
        response
    };
    // The API's bodies only: a POST elsewhere (the page's files) is a
    // wrong method, which the router names (405), whatever its type.
    if parts.method == Method::POST
        && parts.uri.path().starts_with("/api/")
        && !is_json(parts.headers.get(header::CONTENT_TYPE))
    {
        return refuse(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "POST bodies must be sent with Content-Type: application/json".to_owned(),
        );
    }
    // A body announced past the limit (its Content-Length) is refused
    // before it is awaited: a client that announces more than it sends
    // would otherwise get a 408 only at the body's time limit.
    if axum::body::HttpBody::size_hint(&body).lower() > guard.max_body_bytes as u64 {
        return refuse(
            StatusCode::PAYLOAD_TOO_LARGE,
            body_too_large(guard.max_body_bytes),
        );
    }
    let read = axum::body::to_bytes(body, guard.max_body_bytes);
    let bytes = match tokio::time::timeout(guard.body_timeout, read).await {
        Err(_) => {
            return refuse(
                StatusCode::REQUEST_TIMEOUT,
                // In seconds, as `--body-timeout` and every budget say it.
                format!(
                    "the request body did not arrive within {}",
                    grundy::seconds_in_words(guard.body_timeout)
                ),
            );
        }
        Ok(Err(err)) => {
            let too_large = std::error::Error::source(&err)
                .is_some_and(|source| source.is::<http_body_util::LengthLimitError>());
            return if too_large {
                refuse(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    body_too_large(guard.max_body_bytes),
                )
            } else {
                refuse(
                    StatusCode::BAD_REQUEST,
                    format!("cannot read the request body: {err}"),
                )
            };
        }
        Ok(Ok(bytes)) => bytes,
    };
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

/// The page's Content-Security-Policy: its script, style, icon and API
/// calls come from this server; no inline script or style (the page has
/// none: it sets styles through the CSSOM, which CSP allows), no plugins,
/// no `<base>`, forms post only here, and no site may frame it.
pub(crate) const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; \
     form-action 'self'; frame-ancestors 'none'";

/// Adds the security headers to every answer (see the module comment).
pub(crate) async fn security_headers(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    response
}

/// True for `application/json`, with or without parameters.
fn is_json(content_type: Option<&HeaderValue>) -> bool {
    content_type
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|mime| mime.trim().eq_ignore_ascii_case("application/json"))
}

/// The 413's message, with the limit: as every refusal names its bound.
pub(crate) fn body_too_large(limit: usize) -> String {
    format!(
        "request body too large: over the server's limit of {}",
        grundy_report::words::bytes(limit as u64)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guard(allow_hosts: &[&str], allow_origins: &[&str]) -> Guard {
        let own = |list: &[&str]| list.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        Guard::new(
            "127.0.0.1:8080".parse().unwrap(),
            &own(allow_hosts),
            &own(allow_origins),
            Duration::from_secs(1),
            1024,
        )
    }

    #[test]
    fn splits_hosts_and_ports() {
        assert_eq!(
            split_host_port("localhost:8080"),
            Some(("localhost", Some(8080)))
        );
        assert_eq!(split_host_port("example.org"), Some(("example.org", None)));
        assert_eq!(split_host_port("[::1]:80"), Some(("[::1]", Some(80))));
        assert_eq!(split_host_port("[::1]"), Some(("[::1]", None)));
        assert_eq!(split_host_port("a:b"), None);
        assert_eq!(split_host_port(":80"), None);
        assert_eq!(split_host_port("[::1]x"), None);
        assert_eq!(split_host_port("a:99999"), None);
    }

    #[test]
    fn accepts_the_bound_address_and_localhost_only() {
        let g = guard(&[], &[]);
        assert!(g.host_allowed("127.0.0.1", Some(8080)));
        assert!(g.host_allowed("LocalHost", Some(8080)));
        assert!(!g.host_allowed("localhost", Some(8081)));
        assert!(!g.host_allowed("localhost", None));
        assert!(!g.host_allowed("rebind.attacker.example", Some(8080)));
        let g = guard(&["box.lan", "proxy.example:443"], &[]);
        assert!(g.host_allowed("box.lan", Some(1234)));
        assert!(g.host_allowed("proxy.example", Some(443)));
        assert!(!g.host_allowed("proxy.example", None));
        assert!(guard(&["*"], &[]).host_allowed("anything", None));
    }

    #[test]
    fn accepts_the_own_origin_and_the_allowed_ones() {
        let g = guard(&[], &["http://tools.example/"]);
        assert!(g.origin_allowed("http://localhost:8080", "localhost", Some(8080)));
        assert!(!g.origin_allowed("http://localhost:8080", "127.0.0.1", Some(8080)));
        assert!(!g.origin_allowed("https://localhost:8080", "localhost", Some(8080)));
        assert!(!g.origin_allowed("http://evil.example", "localhost", Some(8080)));
        assert!(!g.origin_allowed("null", "localhost", Some(8080)));
        assert!(g.origin_allowed("http://TOOLS.example", "localhost", Some(8080)));
        assert!(guard(&[], &["*"]).origin_allowed("null", "localhost", Some(8080)));
    }

    #[test]
    fn content_type_must_be_json() {
        let json = |s: &'static str| Some(HeaderValue::from_static(s));
        assert!(is_json(json("application/json").as_ref()));
        assert!(is_json(json("Application/JSON; charset=utf-8").as_ref()));
        assert!(!is_json(json("text/plain").as_ref()));
        assert!(!is_json(json("application/x-www-form-urlencoded").as_ref()));
        assert!(!is_json(None));
    }
}
