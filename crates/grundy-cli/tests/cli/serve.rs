//! `grundy serve`: usage errors exit 2 before anything is bound. (The server
//! itself is tested over HTTP in crates/grundy-web/tests/.)

use crate::common::grundy;

/// A `grundy serve` process, stopped when dropped (also when an assertion
/// fails), and its standard output.
struct Server {
    child: std::process::Child,
    stdout: std::io::BufReader<std::process::ChildStdout>,
}

impl Server {
    /// Starts `grundy serve ARGS`.
    fn start(args: &[&str]) -> Server {
        use std::process::{Command, Stdio};
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("grundy"))
            .arg("serve")
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = std::io::BufReader::new(child.stdout.take().unwrap());
        Server { child, stdout }
    }

    /// The next line it prints (the first is the banner naming its address).
    fn line(&mut self) -> String {
        use std::io::BufRead;
        let mut line = String::new();
        self.stdout.read_line(&mut line).unwrap();
        line
    }

    /// The address its banner (its first line) names, `HOST:PORT`.
    fn addr(&mut self) -> String {
        let banner = self.line();
        banner
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no address in {banner:?}"))
            .to_owned()
    }
}

/// `body` POSTed to `path` at `addr` as plain HTTP/1.1 over std's
/// TcpStream (which keeps the CLI's test dependencies as they are): the
/// whole response, head and body.
fn post_raw(addr: &str, path: &str, body: &str) -> String {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    response
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn bad_addresses_and_limits_are_usage_errors() {
    let output = grundy()
        .args(["serve", "--addr", "localhost:port"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let output = grundy()
        .args(["serve", "--addr", "127.0.0.1:0", "--max-concurrent", "0"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.starts_with("error: --max-concurrent must be at least 1"),
        "{stderr}"
    );
    let output = grundy()
        .args(["serve", "--addr", "127.0.0.1:0", "--max-time", "-1"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    for (flags, what) in [
        (
            &["--max-connections", "0"][..],
            "--max-connections must be at least 1",
        ),
        (
            &["--header-timeout", "0"][..],
            "positive, finite number of seconds",
        ),
        (
            &["--body-timeout", "1e19"][..],
            "must be at most 1000000000 seconds",
        ),
        (
            &["--max-concurrent", "1000000000000"][..],
            "--max-concurrent must be at most 1024",
        ),
        (&["--idle-timeout", "x"][..], "not a number of seconds"),
        // Memory flags take sizes, as every command's do; a bare number is
        // bytes, and too few for a search.
        (
            &["--max-memory", "64"][..],
            "64 bytes is less than 1MiB, too little for a search: a size without a unit is bytes (write 64MiB for mebibytes)",
        ),
        (&["--max-memory", "0"][..], "0 bytes is less than 1MiB, too little for a search\n"),
        (&["--max-memory", "-1"][..], "a size cannot be negative"),
        (&["--max-memory", "512KiB"][..], "512.0 KiB is less than 1MiB"),
        (&["--kept-memory", "32"][..], "write 32MiB for mebibytes); or 0, to keep none"),
        (&["--max-memory", "1048575"][..], "1023.999 KiB is less than 1MiB, too little for a search\n"),
        (&["--allow-host", ""][..], "is not a host"),
        (&["--allow-host", "x.example:99999"][..], "is not a host"),
        (&["--allow-origin", "not a url"][..], "is not an origin"),
        (
            &["--allow-origin", "http://x.example/path"][..],
            "is not an origin",
        ),
        (
            &["--allow-origin", "ftp://x.example"][..],
            "is not an origin",
        ),
    ] {
        let output = grundy()
            .args(["serve", "--addr", "127.0.0.1:0"])
            .args(flags)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{flags:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(what), "{flags:?}: {stderr}");
    }
    let output = grundy()
        .args(["serve", "--addr", "no-such-host.invalid:8080"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("cannot resolve"), "{stderr}");
}

/// `--addr` takes a host name: `localhost:0` binds a loopback address and
/// serves, with `Host: localhost:PORT` accepted.
#[test]
fn addr_takes_a_host_name() {
    use std::io::{Read, Write};
    use std::net::TcpStream;

    let mut server = Server::start(&["--addr", "localhost:0"]);
    let banner = server.line();
    let addr: std::net::SocketAddr = banner
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .and_then(|addr| addr.parse().ok())
        .unwrap_or_else(|| panic!("no address in {banner:?}"));
    assert!(addr.ip().is_loopback(), "{addr}");
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "GET /api/v1/games HTTP/1.1\r\nHost: localhost:{}\r\nConnection: close\r\n\r\n",
        addr.port()
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    drop(server);
}

/// `POST /api/v1/{clear,pawn,split}/analyze` answer exactly the CLI's
/// `--json`, plus the move values (and split's rectangles in play). A plain HTTP/1.1 request over std's TcpStream keeps the
/// CLI's test dependencies as they are.
#[test]
fn analyze_answers_the_same_json_as_the_cli() {
    let mut server = Server::start(&["--addr", "127.0.0.1:0"]);
    let addr = server.addr();

    let text = "0110\n0000\n0000\n0001\n\n111\n101\n";
    let cli = grundy()
        .args(["clear", "--json", "-"])
        .write_stdin(text)
        .output()
        .unwrap();
    assert!(cli.status.success());
    let cli: serde_json::Value = serde_json::from_slice(&cli.stdout).unwrap();

    let post = |path: &str, body: &str| -> serde_json::Value {
        let response = post_raw(&addr, path, body);
        let (head, body) = response.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
        serde_json::from_str(body).unwrap()
    };
    // The API's additions: the keys named. Each winning move's `text`
    // (the line the command line lists it by) is in both.
    let without = |mut web: serde_json::Value, keys: &[&str]| {
        let object = web.as_object_mut().unwrap();
        for key in keys {
            assert!(object.remove(*key).is_some(), "{key} missing");
        }
        web
    };
    // The theory's explanation (`explain`) is the API's addition to every
    // game's answer.
    let moves = ["moves", "moves_total", "moves_complete", "explain"];
    let web = post(
        "/api/v1/clear/analyze",
        r#"{"boards": [["0110", "0000", "0000", "0001"], ["111", "101"]]}"#,
    );
    // The page's option list is the API's own addition too.
    let clear_extras = [
        "moves",
        "moves_total",
        "moves_complete",
        "options",
        "explain",
    ];
    assert_eq!(without(web, &clear_extras), cli);

    // The pawn: a sum of two pawns with walls, as `grundy pawn --json`.
    let cli = grundy()
        .args([
            "pawn",
            "--json",
            "--blocked",
            "-",
            "--at",
            "5,3",
            "--at",
            "2,6",
        ])
        .write_stdin("2 3\n5 1\n0 6\n")
        .output()
        .unwrap();
    assert!(cli.status.success());
    let cli: serde_json::Value = serde_json::from_slice(&cli.stdout).unwrap();
    let web = post(
        "/api/v1/pawn/analyze",
        r#"{"blocked": [[2, 3], [5, 1], [0, 6]], "pawns": [[5, 3], [2, 6]]}"#,
    );
    assert_eq!(without(web, &moves), cli);

    // Split, as `grundy split --json`.
    let cli = grundy()
        .args(["split", "--json", "-"])
        .write_stdin("01101\n10010\n01110\n11001\n")
        .output()
        .unwrap();
    assert!(cli.status.success());
    let cli: serde_json::Value = serde_json::from_slice(&cli.stdout).unwrap();
    let web = post(
        "/api/v1/split/analyze",
        r#"{"grid": ["01101", "10010", "01110", "11001"]}"#,
    );
    assert_eq!(
        without(
            web,
            &[
                "moves",
                "moves_total",
                "moves_complete",
                "rects",
                "explanations",
                "explain"
            ]
        ),
        cli
    );

    // The engine's move, as `grundy split --move --json` chooses and words
    // it: here the cheap proof (no candidate left) before the values.
    for grid in ["100110", "00000/00000/01010/00101/10001"] {
        let cli = grundy()
            .args(["split", "--move", "--json", "-"])
            .write_stdin(grid.replace('/', "\n"))
            .output()
            .unwrap();
        assert!(cli.status.success());
        let cli: serde_json::Value = serde_json::from_slice(&cli.stdout).unwrap();
        let rows: Vec<String> = grid.split('/').map(|r| format!("{r:?}")).collect();
        let web = post(
            "/api/v1/split/play",
            &format!(r#"{{"grid": [{}]}}"#, rows.join(", ")),
        );
        for key in ["move", "proven", "kind", "reason"] {
            assert_eq!(web[key], cli[key], "{grid}: {key}");
        }
    }
    drop(server);
}

/// Issue 24: bound to every interface with port 0, the server says the
/// port it got, where to browse, and which Host headers it answers.
#[test]
fn a_port_0_server_says_its_port_and_the_host_rule() {
    let mut server = Server::start(&["--addr", "0.0.0.0:0"]);
    let (banner, rule) = (server.line(), server.line());
    drop(server);
    let port: u16 = banner
        .split("http://localhost:")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .and_then(|port| port.parse().ok())
        .unwrap_or_else(|| panic!("no port in {banner:?}"));
    assert_ne!(port, 0, "{banner}");
    assert!(banner.contains(&format!("port {port}")), "{banner}");
    for host in [
        format!("localhost:{port}"),
        format!("127.0.0.1:{port}"),
        format!("[::1]:{port}"),
    ] {
        assert!(rule.contains(&host), "{host} in {rule}");
    }
    assert!(rule.contains("Host header"), "{rule}");
    assert!(rule.contains("--allow-host"), "{rule}");
}

/// A client that shuts its sending side before its answer (as `nc -N`
/// does, and as a page or `curl -m` closing the connection does) is taken
/// as gone, by the real server as by the test one: the connection is
/// closed, and the search that a heavy request started stops (see
/// grundy-web's `a_search_whose_client_hangs_up_stops`). A client that
/// keeps its side open gets its answer.
#[test]
fn a_client_that_hangs_up_is_taken_as_gone() {
    use std::io::{Read, Write};
    use std::net::{Shutdown, TcpStream};

    let mut server = Server::start(&["--addr", "127.0.0.1:0"]);
    let banner = server.line();
    let port: u16 = banner
        .split("http://127.0.0.1:")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .and_then(|port| port.parse().ok())
        .unwrap_or_else(|| panic!("no port in {banner:?}"));
    let heavy = format!(r#"{{"board":{:?}}}"#, vec!["11111111"; 8]);
    let ask = |body: &str, hang_up: bool| {
        let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
        stream
            .set_read_timeout(Some(std::time::Duration::from_secs(10)))
            .unwrap();
        let request = format!(
            "POST /api/v1/clear/analyze HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        stream.write_all(request.as_bytes()).unwrap();
        if hang_up {
            stream.shutdown(Shutdown::Write).unwrap();
        }
        let mut answer = String::new();
        let _ = stream.read_to_string(&mut answer);
        answer
    };
    assert_eq!(ask(&heavy, true), "");
    let answer = ask(r#"{"board":["0110","1111"]}"#, false);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer:?}");
}

/// A name bound on port 0 (the system's choice) is accepted with any port:
/// `NAME:0` could never match a request's Host.
#[test]
fn a_name_on_port_0_is_accepted_with_any_port() {
    let mut server = Server::start(&["--addr", "localhost:0"]);
    let banner = server.line();
    let hosts = server.line();
    assert!(banner.contains("grundy playground on"), "{banner}");
    assert!(
        hosts.starts_with("Requests must name one of these"),
        "{hosts}"
    );
    assert!(!hosts.contains(":0,") && !hosts.contains(":0;"), "{hosts}");
    assert!(
        hosts.contains(", localhost;") || hosts.contains(", localhost,"),
        "{hosts}"
    );
}

/// `--max-memory` is a size, as every command's: `1MiB` bounds a request's
/// search to a mebibyte, which a dense 7 x 7 block passes.
#[test]
fn max_memory_takes_a_size() {
    let mut server = Server::start(&[
        "--addr",
        "127.0.0.1:0",
        "--max-memory",
        "1MiB",
        "--kept-memory",
        "0",
    ]);
    let addr = server.addr();
    let body = r#"{"boards": [["1111111", "1011111", "1111101", "1101101", "0111101", "1011111", "0111110"]]}"#;
    let response = post_raw(&addr, "/api/v1/clear/analyze", body);
    assert!(
        response.contains("gave up before the search's memory would pass 1.0 MiB"),
        "{response}"
    );
}
