//! `grundy serve`: usage errors exit 2 before anything is bound. (The server
//! itself is tested over HTTP in crates/grundy-web/tests/.)

use crate::common::grundy;

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
}
