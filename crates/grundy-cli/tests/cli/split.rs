//! `grundy split` and `grundy judge caos3`.

use crate::common::{assert_input_error, check_judge_sample, grundy};

#[test]
fn judge_caos3_sample() {
    check_judge_sample("caos3", "caos3");
}

#[test]
fn judge_caos3_rejects_bad_maps() {
    assert_input_error(
        grundy()
            .args(["judge", "caos3"])
            .write_stdin("1\n2 3\n^^^\n^.^\n"),
        "<stdin>",
        4,
        2,
        "unexpected '.'",
    );
    assert_input_error(
        grundy().args(["judge", "caos3"]).write_stdin("1\n30 3\n"),
        "<stdin>",
        2,
        1,
        "out of range 1..=20",
    );
}
