//! Helpers shared by the CLI tests.

use std::path::PathBuf;

use assert_cmd::Command;

/// The `grundy` binary.
pub fn grundy() -> Command {
    Command::cargo_bin("grundy").expect("the grundy binary is built")
}

/// A file under `tests/data/`.
pub fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// The contents of a file under `tests/data/`.
pub fn data_text(name: &str) -> String {
    std::fs::read_to_string(data(name)).expect("test data exists")
}

/// Runs `grundy judge PROBLEM` on a sample and compares with its `.out`.
pub fn check_judge_sample(problem: &str, sample: &str) {
    grundy()
        .args(["judge", problem])
        .write_stdin(data_text(&format!("{sample}.in")))
        .assert()
        .success()
        .stdout(data_text(&format!("{sample}.out")));
}

/// Runs the command and checks it fails with exit code 2 and an
/// `error: <source>:<line>:<col>: ...` message containing `what`.
pub fn assert_input_error(cmd: &mut Command, source: &str, line: usize, col: usize, what: &str) {
    let output = cmd.output().expect("runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "stderr: {stderr}");
    let prefix = format!("error: {source}:{line}:{col}: ");
    assert!(
        stderr.starts_with(&prefix),
        "expected {prefix:?}, got {stderr:?}"
    );
    assert!(stderr.contains(what), "expected {what:?} in {stderr:?}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// Asserts that the command succeeded, showing its stderr otherwise.
pub fn assert_success(output: &std::process::Output) {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Runs `grundy <game> --max-positions <budget> -` on `input` and asserts
/// that the search stops with exit 3 and a message naming the budget.
pub fn assert_position_budget_stops(game: &str, budget: u64, input: String) {
    let output = grundy()
        .args([game, "--max-positions", &budget.to_string(), "-"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--max-positions"), "{stderr}");
    assert!(
        stderr.contains(&format!("gave up after {budget} positions")),
        "{stderr}"
    );
}

/// The rectangle of a clearing move as the JSON outputs give it (`top`,
/// `left`, `bottom`, `right`, 0-based and inclusive).
pub fn json_rect(mv: &serde_json::Value) -> grundy::clear::Rect {
    let side = |name: &str| {
        u8::try_from(
            mv[name]
                .as_u64()
                .unwrap_or_else(|| panic!("no {name} in {mv}")),
        )
        .expect("a side of a small board")
    };
    grundy::clear::Rect {
        top: side("top"),
        left: side("left"),
        bottom: side("bottom"),
        right: side("right"),
    }
}
