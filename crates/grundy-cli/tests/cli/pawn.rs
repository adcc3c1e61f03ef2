//! `grundy judge gridgame` and `grundy pawn`.

use crate::common::{assert_input_error, check_judge_sample, grundy};

#[test]
fn judge_gridgame_sample() {
    check_judge_sample("gridgame", "gridgame");
}

#[test]
fn judge_gridgame_rejects_bad_input_with_its_place() {
    assert_input_error(
        grundy()
            .args(["judge", "gridgame"])
            .write_stdin("1\n2\n1 1\n1 1\n1\n0 0\n"),
        "<stdin>",
        4,
        1,
        "duplicate impassable cell (1,1), first listed on line 3",
    );
    assert_input_error(
        grundy()
            .args(["judge", "gridgame"])
            .write_stdin("1\n1\n4 2\n2\n0 0\n4 2\n"),
        "<stdin>",
        6,
        1,
        "the starting cell (4,2) is impassable",
    );
    assert_input_error(
        grundy()
            .args(["judge", "gridgame"])
            .write_stdin("1\n1\n-4 2\n"),
        "<stdin>",
        3,
        1,
        "negative x coordinate -4",
    );
    assert_input_error(
        grundy()
            .args(["judge", "gridgame"])
            .write_stdin("1\n1\n4 1000000001\n"),
        "<stdin>",
        3,
        3,
        "out of range 0..=1000000000",
    );
    assert_input_error(
        grundy()
            .args(["judge", "gridgame"])
            .write_stdin("1\n2\n4 2\n"),
        "<stdin>",
        4,
        1,
        "unexpected end of input",
    );
}

#[test]
fn judge_gridgame_prints_the_answers_before_an_error() {
    let output = grundy()
        .args(["judge", "gridgame"])
        .write_stdin("2\n1\n1 1\n1\n0 0\n1\n1 1\n2\n3 3\n1 1\n")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    // (0,0) has no move: Bob; then (3,3) is answered before the bad (1,1).
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(stdout.lines().count(), 2, "{stdout}");
    assert!(stdout.starts_with("Bob\n"), "{stdout}");
}
