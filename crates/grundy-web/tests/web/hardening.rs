//! The server against abusive clients (issue 25, items 6 to 9): duplicate
//! headers, the security headers, slow connections from one address, and
//! small searches while the heavy lane is full. Raw HTTP over tokio
//! sockets, from chosen loopback addresses (127.0.0.2, 127.0.0.3, ...: all
//! of 127/8 is loopback), against a server started in the test. The tests
//! assert behaviour with generous timeouts, never latencies; the load
//! figures come from `examples/load.rs`.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::Duration;

use grundy::clear::Board;
use grundy::{Budget, MexSet, Nimber};
use grundy_web::Config;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

async fn start(config: Config) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(grundy_web::serve_on(listener, config));
    addr
}

/// A connection to `addr` from the loopback address `127.0.0.<last>`.
async fn connect_from(last: u8, addr: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket
        .bind(SocketAddr::new(
            IpAddr::V4(Ipv4Addr::new(127, 0, 0, last)),
            0,
        ))
        .unwrap();
    socket.connect(addr).await.unwrap()
}

/// Sends `request` (which says `Connection: close`) and reads the answer
/// until the server closes the connection (at most 30 s).
async fn exchange(mut stream: TcpStream, request: &str) -> String {
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(30), stream.read_to_end(&mut answer))
        .await
        .expect("the server answers and closes the connection")
        .unwrap();
    String::from_utf8_lossy(&answer).into_owned()
}

fn status_of(answer: &str) -> u16 {
    answer
        .strip_prefix("HTTP/1.1 ")
        .and_then(|rest| rest.get(..3))
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {answer:?}"))
}

/// The value of header `name` (lower case) in a raw answer.
fn header<'a>(answer: &'a str, name: &str) -> Option<&'a str> {
    let head = answer.split("\r\n\r\n").next()?;
    head.lines().skip(1).find_map(|line| {
        let (key, value) = line.split_once(':')?;
        key.eq_ignore_ascii_case(name).then(|| value.trim())
    })
}

fn body_json(answer: &str) -> Value {
    let body = answer.split_once("\r\n\r\n").map_or("", |(_, body)| body);
    serde_json::from_str(body).unwrap_or(Value::Null)
}

/// A POST of `body` with these extra header lines (each ending in CRLF).
fn post(path: &str, headers: &str, body: &str) -> String {
    format!(
        "POST {path} HTTP/1.1\r\n{headers}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
}

fn get(path: &str, addr: SocketAddr) -> String {
    format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n")
}

const BOARD_4X4: &str = r#"{"board": ["0110", "0000", "0000", "0001"]}"#;

/// True when the server has closed `stream` (EOF or a reset) within 10 s.
async fn closed_by_server(stream: &mut TcpStream) -> bool {
    let mut byte = [0u8; 1];
    matches!(
        tokio::time::timeout(Duration::from_secs(10), stream.read(&mut byte)).await,
        Ok(Ok(0) | Err(_))
    )
}

/// True when the server still holds `stream` open: nothing arrives within
/// `wait`.
async fn still_open(stream: &mut TcpStream, wait: Duration) -> bool {
    let mut byte = [0u8; 1];
    tokio::time::timeout(wait, stream.read(&mut byte))
        .await
        .is_err()
}

/// A body announced past the limit is a 413 before any of it is sent,
/// not a 408 once the body's time runs out (the time set here is past the
/// exchange's 30 s, so waiting for the body fails the test).
#[tokio::test]
async fn a_body_announced_past_the_limit_is_refused_at_once() {
    let config = Config {
        body_timeout: Duration::from_secs(60),
        ..Config::default()
    };
    let limit = config.max_body_bytes;
    let addr = start(config).await;
    for announced in [limit + 1, 1_000_000_000_000] {
        let request = format!(
            "POST /api/v1/clear/analyze HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
             Content-Length: {announced}\r\nConnection: close\r\n\r\n"
        );
        let answer = exchange(TcpStream::connect(addr).await.unwrap(), &request).await;
        assert_eq!(status_of(&answer), 413, "{answer}");
        // The limit named, as every refusal names its bound (the default
        // config's 64 KiB).
        assert!(body_json(&answer)["error"]
            .as_str()
            .unwrap()
            .contains("too large: over the server's limit of 64.0 KiB"));
    }
}

/// Item 6: two `Host`, `Origin` or `Content-Type` headers are a 400, and so
/// is a request target naming another authority than `Host`.
#[tokio::test]
async fn duplicate_headers_are_refused() {
    let addr = start(Config::default()).await;
    let path = "/api/v1/clear/analyze";
    let cases = [
        format!("Host: {addr}\r\nHost: evil.example\r\n"),
        format!("Host: evil.example\r\nHost: {addr}\r\n"),
        format!("Host: {addr}\r\nOrigin: http://{addr}\r\nOrigin: http://evil.example\r\n"),
        format!("Host: {addr}\r\nContent-Type: text/plain\r\n"),
    ];
    for headers in &cases {
        let answer = exchange(connect_from(1, addr).await, &post(path, headers, BOARD_4X4)).await;
        assert_eq!(status_of(&answer), 400, "{headers:?}: {answer}");
        assert!(
            body_json(&answer)["error"]
                .as_str()
                .is_some_and(|e| e.starts_with("more than one")),
            "{answer}"
        );
    }
    // The absolute form must name the Host's authority.
    let request = post(
        &format!("http://evil.example{path}"),
        &format!("Host: {addr}\r\n"),
        BOARD_4X4,
    );
    let answer = exchange(connect_from(1, addr).await, &request).await;
    assert_eq!(status_of(&answer), 400, "{answer}");
    // One of each is served, in either form.
    for target in [path.to_owned(), format!("http://{addr}{path}")] {
        let request = post(
            &target,
            &format!("Host: {addr}\r\nOrigin: http://{addr}\r\n"),
            BOARD_4X4,
        );
        let answer = exchange(connect_from(1, addr).await, &request).await;
        assert_eq!(status_of(&answer), 200, "{answer}");
    }
}

/// A body whose length is given both ways (`Content-Length` and chunked):
/// read as chunked, answered, and the connection closed at once (hyper
/// drops the `Content-Length`, as RFC 9112, section 6.3, has a server do),
/// so bytes sent after it, which a proxy reading by length would take for
/// the body's, are never read as a request of their own. With one length
/// the connection stays open and the next request is answered.
#[tokio::test]
async fn a_body_with_two_lengths_closes_the_connection() {
    let addr = start(Config::default()).await;
    let chunked = format!("{:x}\r\n{BOARD_4X4}\r\n0\r\n\r\n", BOARD_4X4.len());
    let next = format!("GET /api/v1/games HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    for (lengths, answers) in [
        ("Content-Length: 4\r\nTransfer-Encoding: chunked\r\n", 1),
        ("Transfer-Encoding: chunked\r\nContent-Length: 4\r\n", 1),
        ("Transfer-Encoding: chunked\r\n", 2),
    ] {
        let request = format!(
            "POST /api/v1/clear/analyze HTTP/1.1\r\nHost: {addr}\r\n\
             Content-Type: application/json\r\n{lengths}\r\n{chunked}{next}"
        );
        let answer = exchange(connect_from(1, addr).await, &request).await;
        assert_eq!(status_of(&answer), 200, "{lengths:?}: {answer}");
        assert_eq!(
            answer.matches("HTTP/1.1 ").count(),
            answers,
            "{lengths:?}: {answer}"
        );
    }
}

/// Item 9: every answer carries the security headers, and the page obeys
/// the policy (no inline script, style or handler), so the policy does not
/// break it.
#[tokio::test]
async fn every_answer_carries_the_security_headers() {
    let addr = start(Config::default()).await;
    let requests = [
        get("/", addr),
        get("/app.js", addr),
        get("/style.css", addr),
        get("/api/v1/games", addr),
        get("/nowhere", addr),
        post(
            "/api/v1/clear/analyze",
            &format!("Host: {addr}\r\n"),
            BOARD_4X4,
        ),
        // Refused by the guard (a foreign Host): the headers all the same.
        get("/", "10.1.2.3:80".parse().unwrap()),
    ];
    let mut page = String::new();
    for request in &requests {
        let answer = exchange(connect_from(1, addr).await, request).await;
        let csp = header(&answer, "content-security-policy")
            .unwrap_or_else(|| panic!("no CSP in {answer}"));
        for directive in [
            "default-src 'none'",
            "script-src 'self'",
            "style-src 'self'",
            "connect-src 'self'",
            "frame-ancestors 'none'",
            "base-uri 'none'",
        ] {
            assert!(csp.contains(directive), "{directive} missing in {csp}");
        }
        assert!(!csp.contains("unsafe"), "{csp}");
        assert_eq!(header(&answer, "x-content-type-options"), Some("nosniff"));
        assert_eq!(header(&answer, "x-frame-options"), Some("DENY"));
        if request.starts_with("GET / ") && status_of(&answer) == 200 {
            page = answer;
        }
    }
    // The page under that policy: scripts only from files, no <style>, no
    // style attributes, no inline event handlers.
    let html = page.split_once("\r\n\r\n").unwrap().1.to_ascii_lowercase();
    assert!(html.contains("<script src=\"/app.js\""), "{html}");
    for tag in html.split("<script").skip(1) {
        let open = tag.split('>').next().unwrap();
        assert!(open.contains("src="), "inline script: <script{open}>");
    }
    assert!(!html.contains("<style"), "inline <style> in the page");
    assert!(!html.contains(" style="), "a style attribute in the page");
    for word in html.split(|c: char| c.is_whitespace() || c == '<') {
        let handler = word.starts_with("on") && word.contains('=') && !word.starts_with("one");
        assert!(!handler, "an inline event handler in the page: {word}");
    }
}

/// A slow client: the request line and part of the headers, then nothing.
async fn slow_connection(from: u8, addr: SocketAddr) -> TcpStream {
    let mut stream = connect_from(from, addr).await;
    stream
        .write_all(format!("POST /api/v1/clear/analyze HTTP/1.1\r\nHost: {addr}\r\nX-").as_bytes())
        .await
        .unwrap();
    stream
}

/// Item 7: a client holding many slow connections holds at most its cap of
/// them; its oldest give way to its new ones, and other clients are served
/// at once.
#[tokio::test]
async fn slow_connections_from_one_address_lock_nobody_out() {
    let addr = start(Config {
        max_connections: 32,
        max_connections_per_client: 4,
        header_timeout: Duration::from_secs(60),
        idle_timeout: Duration::from_secs(60),
        ..Config::default()
    })
    .await;
    let mut slow = Vec::new();
    for _ in 0..40 {
        slow.push(slow_connection(2, addr).await);
        // Accepted in order, so "oldest" is well defined.
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let request = post(
        "/api/v1/clear/analyze",
        &format!("Host: {addr}\r\n"),
        BOARD_4X4,
    );
    // Another client is served.
    let answer = exchange(connect_from(1, addr).await, &request).await;
    assert_eq!(status_of(&answer), 200, "{answer}");
    // So is a new connection of the slow client itself: its own oldest
    // waiting connection gives way.
    let answer = exchange(connect_from(2, addr).await, &request).await;
    assert_eq!(status_of(&answer), 200, "{answer}");
    // All but the newest few of the 40 were shed: closed by the server.
    let mut closed = 0;
    for stream in &mut slow[..36] {
        closed += usize::from(closed_by_server(stream).await);
    }
    assert_eq!(closed, 36);
    // The newest 3 (one gave way to the full request) are still open.
    let mut open = 0;
    for stream in &mut slow[36..] {
        open += usize::from(still_open(stream, Duration::from_millis(300)).await);
    }
    assert_eq!(open, 3);
}

/// Item 7: at the global cap, the longest-waiting connection of the client
/// holding the most gives way, so a new client is served; a client with
/// few connections keeps them.
#[tokio::test]
async fn at_the_global_cap_the_heaviest_client_gives_way() {
    let addr = start(Config {
        max_connections: 8,
        max_connections_per_client: 64,
        header_timeout: Duration::from_secs(60),
        idle_timeout: Duration::from_secs(60),
        ..Config::default()
    })
    .await;
    let mut heavy = Vec::new();
    for _ in 0..8 {
        heavy.push(slow_connection(2, addr).await);
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    // Two slow connections of a second client: each sheds one of the first.
    let mut light = Vec::new();
    for _ in 0..2 {
        light.push(slow_connection(3, addr).await);
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    // A third client is served: the first client's oldest gives way again.
    let request = post(
        "/api/v1/clear/analyze",
        &format!("Host: {addr}\r\n"),
        BOARD_4X4,
    );
    let answer = exchange(connect_from(4, addr).await, &request).await;
    assert_eq!(status_of(&answer), 200, "{answer}");
    for stream in &mut heavy[..3] {
        assert!(closed_by_server(stream).await);
    }
    // The second client's connections survived: they finish their
    // requests and are answered.
    let rest = format!(
        "Y: 1\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{BOARD_4X4}",
        BOARD_4X4.len()
    );
    for stream in light {
        let answer = exchange(stream, &rest).await;
        assert_eq!(status_of(&answer), 200, "{answer}");
    }
}

/// The full 8 x 8 board: far beyond any budget of these tests, it holds
/// its lane until the time budget runs out.
const BOARD_8X8: &str = r#"{"board": ["11111111","11111111","11111111","11111111","11111111","11111111","11111111","11111111"]}"#;

/// An L of 8 cells in a 3 x 6 box: beyond the small tables, so a search,
/// but a small one.
const BOARD_L: &str = r#"{"board": ["111111", "100000", "100000"]}"#;

/// Plain mex recursion over whole boards: the oracle.
fn brute(board: &Board, memo: &mut HashMap<Board, Nimber>) -> Nimber {
    if let Some(&v) = memo.get(board) {
        return v;
    }
    let mut options = Vec::new();
    board.for_each_rect(|rect, _| options.push(board.play_unchecked(rect)));
    let mut seen = MexSet::new();
    for option in options {
        seen.insert(brute(&option, memo));
    }
    let value = seen.mex();
    memo.insert(*board, value);
    value
}

fn heavy_config() -> Config {
    Config {
        max_concurrent: 1,
        max_queued: 0,
        budget: Budget {
            max_positions: None,
            max_time: Some(Duration::from_millis(1500)),
            max_memory: None,
        },
        ..Config::default()
    }
}

/// Item 8: with the heavy lane busy and its queue full, small searches
/// are still answered (the small lane), a heavy request more gets a 503
/// with Retry-After at once, and the heavy one ends with its 422.
#[tokio::test]
async fn small_searches_are_served_while_the_heavy_lane_is_full() {
    let addr = start(heavy_config()).await;
    let analyze =
        |body: &'static str| post("/api/v1/clear/analyze", &format!("Host: {addr}\r\n"), body);
    let slow = tokio::spawn({
        let request = analyze(BOARD_8X8);
        async move { exchange(connect_from(1, addr).await, &request).await }
    });
    // Past its probe (25 ms) and into the heavy lane.
    tokio::time::sleep(Duration::from_millis(400)).await;
    let answer = exchange(connect_from(1, addr).await, &analyze(BOARD_8X8)).await;
    assert_eq!(status_of(&answer), 503, "{answer}");
    assert_eq!(header(&answer, "retry-after"), Some("1"), "{answer}");
    assert!(!slow.is_finished());
    // Small searches, both endpoints: answered, and right (against plain
    // mex recursion over whole boards).
    let rows = ["111111", "100000", "100000"].map(String::from);
    let board = grundy_web::games::clear::parse_board(&rows).unwrap();
    let expected = brute(&board, &mut HashMap::new()).value();
    for _ in 0..3 {
        let answer = exchange(connect_from(1, addr).await, &analyze(BOARD_L)).await;
        assert_eq!(status_of(&answer), 200, "{answer}");
        assert_eq!(body_json(&answer)["grundy"], json!(expected), "{answer}");
        let play = post("/api/v1/clear/play", &format!("Host: {addr}\r\n"), BOARD_L);
        let answer = exchange(connect_from(1, addr).await, &play).await;
        assert_eq!(status_of(&answer), 200, "{answer}");
    }
    // A heavy board asking for a small budget of its own is answered (its
    // 422) in the small lane too: its probe is its whole budget.
    let answer = exchange(
        connect_from(1, addr).await,
        &analyze(
            r#"{"board": ["11111111","11111111","11111111","11111111","11111111","11111111","11111111","11111111"], "budget": {"max_positions": 100, "max_time_ms": 20}}"#,
        ),
    )
    .await;
    assert_eq!(status_of(&answer), 422, "{answer}");
    assert!(!slow.is_finished());
    let answer = slow.await.unwrap();
    assert_eq!(status_of(&answer), 422, "{answer}");
    assert!(answer.contains("time budget"), "{answer}");
    // The heavy lane is free again.
    let answer = exchange(connect_from(1, addr).await, &analyze(BOARD_L)).await;
    assert_eq!(status_of(&answer), 200, "{answer}");
}

/// A burst of new heavy requests from one client does not hold another
/// client's small search behind all of their probes: each client has at
/// most `probes_per_client` requests at the small lane. Told by order, not
/// latency: the small search is answered before most of the burst is, as
/// each of the burst's requests is answered (a 503, the heavy lane's queue
/// being full, or its 422) soon after its own probe.
#[tokio::test]
async fn a_burst_of_heavy_requests_does_not_hold_another_clients_small_search() {
    let config = Config {
        max_concurrent: 1,
        max_queued: 0,
        probes_per_client: 2,
        probe: Budget {
            max_positions: None,
            max_time: Some(Duration::from_millis(100)),
            max_memory: None,
        },
        budget: Budget {
            max_positions: None,
            max_time: Some(Duration::from_millis(300)),
            max_memory: None,
        },
        ..Config::default()
    };
    let addr = start(config).await;
    let answered = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let burst = 16;
    let mut requests = Vec::new();
    for cleared in 0..burst {
        // Distinct full 8 x 8 boards but one cell: each is new, so probed.
        let mut rows = vec!["11111111".to_owned(); 8];
        rows[cleared / 8].replace_range(cleared % 8..=cleared % 8, "0");
        let body = json!({ "board": rows }).to_string();
        let request = post("/api/v1/clear/analyze", &format!("Host: {addr}\r\n"), &body);
        let answered = answered.clone();
        requests.push(tokio::spawn(async move {
            let answer = exchange(connect_from(2, addr).await, &request).await;
            answered.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            answer
        }));
    }
    // The burst is sent and waiting (no probe of it has ended yet).
    tokio::time::sleep(Duration::from_millis(50)).await;
    let small = post(
        "/api/v1/clear/analyze",
        &format!("Host: {addr}\r\n"),
        BOARD_L,
    );
    let answer = exchange(connect_from(3, addr).await, &small).await;
    let before = answered.load(std::sync::atomic::Ordering::SeqCst);
    assert_eq!(status_of(&answer), 200, "{answer}");
    assert!(
        before < burst / 2,
        "{before} of the burst's {burst} requests were answered before the small search"
    );
    for request in requests {
        let status = status_of(&request.await.unwrap());
        assert!(status == 503 || status == 422, "{status}");
    }
}

static RELEASED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

fn count_release() {
    RELEASED.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
}

/// The front-end's `release_memory` runs after each heavy search (the
/// memory it freed goes back to the system there), and not after a small
/// one the probe answered.
#[tokio::test]
async fn memory_is_released_after_each_heavy_search() {
    let addr = start(Config {
        probe: Budget {
            max_positions: Some(1),
            max_time: None,
            max_memory: None,
        },
        release_memory: Some(count_release),
        ..Config::default()
    })
    .await;
    let analyze = |body: &str| post("/api/v1/clear/analyze", &format!("Host: {addr}\r\n"), body);
    // A single cell: the probe's one position answers it.
    let answer = exchange(connect_from(1, addr).await, &analyze(r#"{"board": ["1"]}"#)).await;
    assert_eq!(status_of(&answer), 200, "{answer}");
    assert_eq!(RELEASED.load(std::sync::atomic::Ordering::SeqCst), 0);
    // Rings of 3 x 7 and 3 x 8: no table holds them, so the probe runs out.
    let rings = [
        r#"{"board": ["1111111", "1000001", "1111111"]}"#,
        r#"{"board": ["11111111", "10000001", "11111111"]}"#,
    ];
    for (n, body) in rings.into_iter().enumerate() {
        let answer = exchange(connect_from(1, addr).await, &analyze(body)).await;
        assert_eq!(status_of(&answer), 200, "{answer}");
        assert_eq!(RELEASED.load(std::sync::atomic::Ordering::SeqCst), n + 1);
    }
}

/// A search whose probe runs out with an answer short of the whole one (an
/// unproven move, a large board's unknown value) runs again under the
/// request's budget, as one whose probe ran out with nothing (a 422) does.
/// The probe here is one position, which none of these three answers.
#[tokio::test]
async fn an_answer_the_probe_left_unproven_is_searched_again_in_full() {
    let addr = start(Config {
        probe: Budget {
            max_positions: Some(1),
            max_time: None,
            max_memory: None,
        },
        ..Config::default()
    })
    .await;
    let ask = |path: &str, body: &str| post(path, &format!("Host: {addr}\r\n"), body);
    let block = r#"["0110000","0111011","1100110","1111110","0000110","1101100","1111001"]"#;
    let answer = exchange(
        connect_from(1, addr).await,
        &ask("/api/v1/clear/play", &format!(r#"{{"board": {block}}}"#)),
    )
    .await;
    assert_eq!(status_of(&answer), 200, "{answer}");
    let play = body_json(&answer);
    assert_eq!(play["proven"], json!(true), "{answer}");
    assert_eq!(play["kind"], json!("winning"), "{answer}");
    assert_eq!(play["grundy"], json!(0), "{answer}");
    // The same block on a board of more than 64 cells: the large-board
    // analysis, whose value the probe leaves unknown.
    let padded = r#"["0110000000","0111011000","1100110000","1111110000","0000110000","1101100000","1111001000","0000000000","0000000000","0000000000"]"#;
    let answer = exchange(
        connect_from(1, addr).await,
        &ask(
            "/api/v1/clear/analyze",
            &format!(r#"{{"board": {padded}}}"#),
        ),
    )
    .await;
    assert_eq!(status_of(&answer), 200, "{answer}");
    let analysis = body_json(&answer);
    assert!(analysis["grundy"].is_u64(), "{answer}");
    assert_eq!(analysis["stopped"], Value::Null, "{answer}");
    let split = r#"{"grid": ["10110101","01101011","11010110","10101101","01011010","10110101","01101011","11010110"]}"#;
    let answer = exchange(
        connect_from(1, addr).await,
        &ask("/api/v1/split/play", split),
    )
    .await;
    assert_eq!(status_of(&answer), 200, "{answer}");
    let play = body_json(&answer);
    assert_eq!(play["proven"], json!(true), "{answer}");
}

/// Item 7's last resort: when every connection is busy with a request,
/// none can give way, and a new one gets a 503 at once.
#[tokio::test]
async fn connections_beyond_the_cap_are_refused_when_all_are_busy() {
    let addr = start(Config {
        max_connections: 2,
        max_queued: 1,
        ..heavy_config()
    })
    .await;
    let analyze = post(
        "/api/v1/clear/analyze",
        &format!("Host: {addr}\r\n"),
        BOARD_8X8,
    );
    let busy: Vec<_> = (0..2)
        .map(|_| {
            let request = analyze.clone();
            tokio::spawn(async move { exchange(connect_from(1, addr).await, &request).await })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut third = connect_from(2, addr).await;
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), third.read_to_end(&mut answer))
        .await
        .expect("refused at once")
        .unwrap();
    let answer = String::from_utf8_lossy(&answer);
    assert_eq!(status_of(&answer), 503, "{answer}");
    assert!(answer.contains("too many open connections"), "{answer}");
    for task in busy {
        let answer = task.await.unwrap();
        assert_eq!(status_of(&answer), 422, "{answer}");
    }
    // Their places are free again.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let request = post(
        "/api/v1/clear/analyze",
        &format!("Host: {addr}\r\n"),
        BOARD_4X4,
    );
    let answer = exchange(connect_from(2, addr).await, &request).await;
    assert_eq!(status_of(&answer), 200, "{answer}");
}

/// A request the heavy lane answered in full is answered again from the
/// kept memo, through the small lane, while the heavy lane is full: not
/// queued behind other clients' searches (nor refused with a 503).
#[tokio::test]
async fn a_heavy_request_answered_in_full_is_answered_again_at_once() {
    let addr = start(Config {
        // One position: every search past a table is heavy.
        probe: Budget {
            max_positions: Some(1),
            max_time: None,
            max_memory: None,
        },
        ..heavy_config()
    })
    .await;
    let analyze = |body: &str| post("/api/v1/clear/analyze", &format!("Host: {addr}\r\n"), body);
    let block = r#"{"board": ["011011","111111","011110","110110","111100"]}"#;
    let first = exchange(connect_from(1, addr).await, &analyze(block)).await;
    assert_eq!(status_of(&first), 200, "{first}");
    let slow = tokio::spawn({
        let request = analyze(BOARD_8X8);
        async move { exchange(connect_from(2, addr).await, &request).await }
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    let again = exchange(connect_from(1, addr).await, &analyze(block)).await;
    assert_eq!(status_of(&again), 200, "{again}");
    assert_eq!(body_json(&again)["grundy"], body_json(&first)["grundy"]);
    assert!(!slow.is_finished());
    assert_eq!(status_of(&slow.await.unwrap()), 422);
}

/// A heavy search whose client hangs up stops at its next check instead
/// of spending the server's budget (60 s here) for nobody: the heavy lane
/// (one search, one waiting) serves the next heavy request, which asks
/// for 1 s of its own, well within the 30 s it may wait in the queue.
#[tokio::test]
async fn a_search_whose_client_hangs_up_stops() {
    let config = Config {
        max_concurrent: 1,
        max_queued: 1,
        queue_timeout: Duration::from_secs(30),
        budget: Budget {
            max_positions: None,
            max_time: Some(Duration::from_secs(60)),
            max_memory: None,
        },
        ..Config::default()
    };
    let addr = start(config).await;
    let analyze = |body: &str| post("/api/v1/clear/analyze", &format!("Host: {addr}\r\n"), body);
    let mut gone = connect_from(1, addr).await;
    gone.write_all(analyze(BOARD_8X8).as_bytes()).await.unwrap();
    // Past its probe (25 ms) and into the heavy lane, then hung up.
    tokio::time::sleep(Duration::from_millis(500)).await;
    drop(gone);
    let answer = exchange(
        connect_from(2, addr).await,
        &analyze(
            r#"{"board": ["11111111","11111111","11111111","11111110","11111111","11111111","11111111","11111111"], "budget": {"max_time_ms": 1000}}"#,
        ),
    )
    .await;
    assert_eq!(status_of(&answer), 422, "{answer}");
    assert!(answer.contains("time budget, 1 s"), "{answer}");
}

/// A method a route does not take gets a 405 that says which it takes, in
/// words and in `Allow`, on the page's files as on the API; a request for
/// something that is not a path (CONNECT's `host:port`) is named in its 404.
#[tokio::test]
async fn wrong_methods_and_targets_are_named() {
    let addr = start(Config::default()).await;
    let request = |method: &str, target: &str| {
        format!("{method} {target} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
    };
    for (method, path, allow) in [
        ("PUT", "/", "GET,HEAD"),
        ("DELETE", "/app.js", "GET,HEAD"),
        ("POST", "/style.css", "GET,HEAD"),
        ("OPTIONS", "/", "GET,HEAD"),
        ("GET", "/api/v1/clear/analyze", "POST"),
    ] {
        let answer = exchange(connect_from(1, addr).await, &request(method, path)).await;
        assert_eq!(status_of(&answer), 405, "{method} {path}: {answer}");
        let allowed = header(&answer, "allow")
            .unwrap_or_default()
            .replace(' ', "");
        assert_eq!(allowed, allow, "{method} {path}: {answer}");
        let error = body_json(&answer)["error"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        assert!(
            error.starts_with("method not allowed"),
            "{method} {path}: {answer}"
        );
    }
    // Without a JSON type too: the content type is the API's rule.
    let plain = format!(
        "POST /style.css HTTP/1.1\r\nHost: {addr}\r\nContent-Type: text/plain\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    );
    let answer = exchange(connect_from(1, addr).await, &plain).await;
    assert_eq!(status_of(&answer), 405, "{answer}");
    let answer = exchange(
        connect_from(1, addr).await,
        &request("CONNECT", &addr.to_string()),
    )
    .await;
    let error = body_json(&answer)["error"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(error.contains(&addr.to_string()), "{answer}");
}
