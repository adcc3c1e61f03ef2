//! `grundy check`: deliberately wrong solutions (small Python programs in
//! `tests/data/check/`) are caught and shrunk to tiny cases; correct ones
//! (the judge itself, and an independent brute force per problem written
//! from the statement) pass hundreds of cases; exit codes and verdicts.
//!
//! The shrunk cases are measured here by reading `failing.in` directly, and
//! each is checked to be a real failure: `expected.out` is what `grundy
//! judge` prints for it, and the solution run again on it does not print
//! that. Wall times are printed (run with `--nocapture`), never asserted.

use std::path::Path;
use std::process::Output;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::common::{data, grundy};

/// The Python interpreter itself (not a shell shim in front of it), run
/// with `-S -E`: the fixtures need no site packages, and it starts three
/// times faster, which is most of a small case's run. `-B`: the wrong
/// fixtures import their brute force, and a test writes no `__pycache__`
/// into the source tree.
fn python() -> Vec<String> {
    static PYTHON: OnceLock<String> = OnceLock::new();
    let path = PYTHON.get_or_init(|| {
        let output = std::process::Command::new("python3")
            .args(["-c", "import sys; print(sys.executable)"])
            .output()
            .expect("python3 is installed");
        String::from_utf8(output.stdout).unwrap().trim().to_owned()
    });
    vec![path.clone(), "-S".into(), "-E".into(), "-B".into()]
}

fn script(name: &str) -> String {
    data(&format!("check/{name}.py")).display().to_string()
}

/// A `grundy check` run: its output, the `--out` directory, how long it took.
struct Checked {
    output: Output,
    dir: tempfile::TempDir,
    wall: Duration,
}

impl Checked {
    fn code(&self) -> Option<i32> {
        self.output.status.code()
    }
    fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.output.stdout).into_owned()
    }
    fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.output.stderr).into_owned()
    }
    fn file(&self, name: &str) -> String {
        std::fs::read_to_string(self.dir.path().join(name)).unwrap_or_default()
    }
}

fn run_check(problem: &str, options: &[&str], cmd: &[String]) -> Checked {
    let dir = tempfile::tempdir().unwrap();
    let start = Instant::now();
    let output = grundy()
        .args(["check", problem, "--out"])
        .arg(dir.path())
        .args(options)
        .arg("--")
        .args(cmd)
        .timeout(Duration::from_secs(600))
        .output()
        .unwrap();
    Checked {
        output,
        dir,
        wall: start.elapsed(),
    }
}

/// How big a case is: tests (or boards), boards, queries, and cells (set
/// cells of boards; impassable cells; caos3: candidates).
#[derive(Debug, Default)]
struct Size {
    tests: usize,
    boards: usize,
    queries: usize,
    cells: usize,
}

/// Reads a judge input's size, by the statement's format.
fn size_of(problem: &str, input: &str) -> Size {
    let mut tokens = input.split_ascii_whitespace();
    let mut next = || tokens.next().expect("a complete input");
    let mut size = Size::default();
    match problem {
        "gfg" => {
            size.tests = 1;
            size.boards = 1;
            size.cells = input.split_ascii_whitespace().filter(|&t| t == "1").count();
        }
        "pshtbrth" => {
            let ones = |row: &str| row.bytes().filter(|&b| b == b'1').count();
            size.tests = next().parse::<usize>().unwrap();
            for _ in 0..size.tests {
                let (n, m) = (
                    next().parse::<usize>().unwrap(),
                    next().parse::<usize>().unwrap(),
                );
                size.boards += n;
                size.queries += m;
                for _ in 0..4 * n {
                    size.cells += ones(next());
                }
                for _ in 0..m {
                    if next().parse::<usize>().unwrap() == 1 {
                        next().parse::<usize>().unwrap();
                        next().parse::<usize>().unwrap();
                    } else {
                        next().parse::<usize>().unwrap();
                        for _ in 0..4 {
                            size.cells += ones(next());
                        }
                    }
                }
            }
        }
        "caos3" => {
            size.tests = next().parse::<usize>().unwrap();
            for _ in 0..size.tests {
                let rows = next().parse::<usize>().unwrap();
                let _cols = next().parse::<usize>().unwrap();
                let map: Vec<Vec<bool>> = (0..rows)
                    .map(|_| next().bytes().map(|b| b == b'^').collect())
                    .collect();
                size.cells += grundy_cli::judge::caos3::candidates(&map).len();
            }
        }
        "gridgame" => {
            size.tests = next().parse::<usize>().unwrap();
            for _ in 0..size.tests {
                let n = next().parse::<usize>().unwrap();
                size.cells += n;
                for _ in 0..2 * n {
                    next().parse::<usize>().unwrap();
                }
                let q = next().parse::<usize>().unwrap();
                size.queries += q;
                for _ in 0..2 * q {
                    next().parse::<usize>().unwrap();
                }
            }
        }
        _ => unreachable!("{problem}"),
    }
    size
}

/// Runs `cmd` on `input` and returns what it printed.
fn run_on(cmd: &[String], input: &Path) -> Output {
    std::process::Command::new(&cmd[0])
        .args(&cmd[1..])
        .stdin(std::fs::File::open(input).unwrap())
        .output()
        .unwrap()
}

fn tokens(text: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(text)
        .split_ascii_whitespace()
        .map(str::to_owned)
        .collect()
}

/// Checks a wrong solution: caught, shrunk to at most 3 tests (or boards),
/// 5 queries and 4 cells, the files written, the failure real, the case
/// 1-minimal.
fn caught(problem: &str, name: &str, options: &[&str], verdict: &str) {
    let mut cmd = python();
    cmd.push(script(name));
    // A generous time limit: a loaded machine, and Python (pshtbrth's
    // fixtures solve a full board's 65,536 positions in about 0.3 s).
    let mut all = vec![
        "--seed",
        "1",
        "--cases",
        "60",
        "--jobs",
        "2",
        "--time-limit",
        "10",
    ];
    all.extend_from_slice(options);
    let checked = run_check(problem, &all, &cmd);
    let stdout = checked.stdout();
    eprintln!(
        "{name}: caught and shrunk in {:.1} s (grundy check {problem} {} -- python3 {name}.py)\n{}",
        checked.wall.as_secs_f64(),
        all.join(" "),
        stdout.lines().take(3).collect::<Vec<_>>().join("\n")
    );
    assert_eq!(checked.code(), Some(1), "{stdout}\n{}", checked.stderr());
    assert!(
        stdout.contains(&format!("verdict: {verdict}")),
        "{verdict}: {stdout}"
    );
    assert!(stdout.contains("\n1-minimal: "), "{stdout}");
    // The shrink line shows a change of sizes only where the sizes changed.
    let change = stdout
        .lines()
        .find_map(|l| l.strip_prefix("shrunk in "))
        .and_then(|l| l.split_once("): "))
        .map(|(_, change)| change);
    if let Some((before, after)) = change.and_then(|c| c.split_once(" -> ")) {
        assert_ne!(before, after, "{stdout}");
    }
    let failing = checked.dir.path().join("failing.in");
    let input = checked.file("failing.in");
    let size = size_of(problem, &input);
    assert!(
        size.tests <= 3 && size.boards <= 3 && size.queries <= 5 && size.cells <= 4,
        "{name}: {size:?}\n{input}"
    );
    // The expected answers are the judge's; the solution really fails.
    let judged = grundy()
        .args(["judge", problem])
        .arg(&failing)
        .output()
        .unwrap();
    assert!(judged.status.success());
    assert_eq!(checked.file("expected.out").as_bytes(), judged.stdout);
    let again = run_on(&cmd, &failing);
    assert_eq!(checked.file("received.out").as_bytes(), again.stdout);
    assert!(
        !again.status.success() || tokens(&again.stdout) != tokens(&judged.stdout),
        "{name} passes its shrunk case"
    );
    // The replay command runs it again, with the same verdict.
    let replay = stdout
        .lines()
        .find_map(|l| l.strip_prefix("replay: grundy check "))
        .expect("a replay command");
    assert!(replay.contains("--replay "), "{replay}");
    let replayed = run_check(
        problem,
        &["--replay", failing.to_str().unwrap(), "--shrink-runs", "1"],
        &cmd,
    );
    assert_eq!(replayed.code(), Some(1), "{}", replayed.stdout());
    assert!(replayed.stdout().contains(verdict), "{}", replayed.stdout());
}

#[test]
fn gfg_off_by_one_rectangles() {
    caught("gfg", "gfg_offbyone", &[], "wrong answer");
}

#[test]
fn pshtbrth_missing_xor() {
    caught("pshtbrth", "pshtbrth_noxor", &[], "wrong answer");
}

#[test]
fn pshtbrth_ignored_update() {
    caught("pshtbrth", "pshtbrth_noupdate", &[], "wrong answer");
}

#[test]
fn pshtbrth_range_off_by_one() {
    caught("pshtbrth", "pshtbrth_offbyone", &[], "wrong answer");
}

#[test]
fn caos3_candidates_without_the_arm_rule() {
    caught("caos3", "caos3_noarm", &[], "wrong answer");
}

#[test]
fn caos3_arm_rule_off_by_one() {
    caught("caos3", "caos3_arm1", &[], "wrong answer");
}

/// A reader that goes away (`grundy check ... | head -1`) stops neither
/// the shrinking nor the failure's files, and the exit status still says
/// that a case failed.
#[test]
fn a_failure_is_kept_when_no_one_reads_the_report() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("grundy"))
        .args(["check", "caos3", "--seed", "3", "--out"])
        .arg(dir.path())
        .arg("--")
        .args(python())
        .arg(script("caos3_arm1"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The report's reader closes at once: every write to it fails.
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    for name in ["failing.in", "expected.out", "received.out"] {
        assert!(dir.path().join(name).is_file(), "{name}: {stderr}");
    }
}

/// A `--out` that cannot be made (here under a regular file) does not lose
/// the failure: the case goes to the temporary directory, the report says
/// where, and the exit status still says that a case failed.
#[test]
fn a_failure_is_kept_when_its_out_dir_cannot_be_written() {
    let file = tempfile::NamedTempFile::new().unwrap();
    let temporary = tempfile::tempdir().unwrap();
    let output = grundy()
        .args(["check", "caos3", "--seed", "3", "--out"])
        .arg(file.path().join("cases"))
        .arg("--")
        .args(python())
        .arg(script("caos3_arm1"))
        .env("TMPDIR", temporary.path())
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    let written: Vec<_> = std::fs::read_dir(temporary.path())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    assert_eq!(written.len(), 1, "{written:?}");
    assert!(stderr.contains("cannot create"), "{stderr}");
    assert!(
        stderr.contains(&format!("written to {} instead", written[0].display())),
        "{stderr}"
    );
    assert!(
        stdout.contains(&format!(
            "--replay {}",
            written[0].join("failing.in").display()
        )),
        "{stdout}"
    );
    for name in ["failing.in", "expected.out", "received.out"] {
        assert!(written[0].join(name).is_file(), "{name}: {stderr}");
    }
}

#[test]
fn caos3_crash_on_a_large_map() {
    caught("caos3", "caos3_crash", &[], "runtime error: exit status 1");
}

#[test]
fn gridgame_coordinates_off_by_one() {
    caught(
        "gridgame",
        "gridgame_offbyone",
        &["--max-coord", "30"],
        "wrong answer",
    );
}

#[test]
fn gridgame_impassable_cells_ignored() {
    caught(
        "gridgame",
        "gridgame_noblock",
        &["--max-coord", "30"],
        "wrong answer",
    );
}

#[test]
fn gridgame_crash_on_large_coordinates() {
    caught(
        "gridgame",
        "gridgame_crash",
        &[],
        "runtime error: exit status 1",
    );
    // Its threshold, found by lowering numbers: coordinates up to 1000
    // work, 1001 crashes.
}

/// An O(N M) solution (right, but a plain loop per range query): a time
/// limit exceeded on large inputs, shrunk by halves only (a time limit is
/// about size), and said so.
#[test]
fn a_quadratic_solution_times_out() {
    let mut cmd = python();
    cmd.push(script("pshtbrth_quadratic"));
    let options = [
        "--seed",
        "1",
        "--cases",
        "30",
        "--max-size",
        "60000",
        "--time-limit",
        "1",
        "--jobs",
        "2",
        "--shrink-runs",
        "4",
    ];
    let checked = run_check("pshtbrth", &options, &cmd);
    let stdout = checked.stdout();
    eprintln!(
        "pshtbrth_quadratic: timeout caught in {:.1} s (grundy check pshtbrth {} -- python3 \
         pshtbrth_quadratic.py)\n{}",
        checked.wall.as_secs_f64(),
        options.join(" "),
        stdout.lines().take(3).collect::<Vec<_>>().join("\n")
    );
    assert_eq!(checked.code(), Some(1), "{stdout}");
    // Of CPU time, or of wall-clock time (twice the limit and a second)
    // when the machine is loaded enough to hold it off the CPU that long.
    assert!(
        stdout.contains("verdict: time limit exceeded (1 s of CPU time)")
            || stdout.contains("verdict: time limit exceeded (waited 3 s of wall-clock time"),
        "{stdout}"
    );
    assert!(stdout.contains("not shrunk to 1-minimal"), "{stdout}");
    // Still large: its time is in N M.
    assert!(size_of("pshtbrth", &checked.file("failing.in")).boards > 1000);
}

/// A time limit exceeded on the smallest input the generator makes (one
/// board, one query): the shrink of a time or memory verdict tries halves
/// and quarters of the lists only, and the report says that none of those
/// is valid, not that the input has no smaller valid one (its cells could
/// be cleared).
#[test]
fn a_time_limit_on_a_tiny_input_says_what_was_tried() {
    let mut cmd = python();
    cmd.extend(["-c".to_owned(), "while True: pass".to_owned()]);
    let input = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(input.path(), "1\n1 1\n0000\n0110\n0000\n0001\n1 1 1\n").unwrap();
    let replay = input.path().display().to_string();
    let options = ["--replay", &replay, "--time-limit", "0.2"];
    let checked = run_check("pshtbrth", &options, &cmd);
    let stdout = checked.stdout();
    assert_eq!(checked.code(), Some(1), "{stdout}");
    assert!(stdout.contains("verdict: time limit exceeded"), "{stdout}");
    assert!(
        stdout.contains("not shrunk: no half or quarter of its lists is a valid input: 1 test, 1 board, 1 query"),
        "{stdout}"
    );
    assert!(!stdout.contains("no smaller valid input"), "{stdout}");
    assert!(
        stdout.contains("(time limit exceeded depends on the input's size, so only halves and quarters of its lists were tried"),
        "{stdout}"
    );
}

/// A correct solution passes `cases` cases; prints the time.
fn passes(problem: &str, cmd: &[String], what: &str, options: &[&str]) {
    let checked = run_check(problem, options, cmd);
    let stdout = checked.stdout();
    eprintln!(
        "{problem}, {what}: {:.1} s (grundy check {problem} {} -- {what})\n{}",
        checked.wall.as_secs_f64(),
        options.join(" "),
        stdout.trim_end()
    );
    assert_eq!(checked.code(), Some(0), "{stdout}\n{}", checked.stderr());
    assert!(stdout.contains("cases passed"), "{stdout}");
    assert!(stdout.contains("largest input"), "{stdout}");
    // A lowered limit is named, as what the cases did not reach.
    if let Some(at) = options.iter().position(|o| *o == "--max-coord") {
        let note = format!(
            "note: coordinates were limited to --max-coord {}; the statement allows 1000000000",
            options[at + 1]
        );
        assert!(stdout.contains(&note), "{stdout}");
    }
}

fn judge_cmd(problem: &str) -> Vec<String> {
    vec![
        env!("CARGO_BIN_EXE_grundy").to_owned(),
        "judge".to_owned(),
        problem.to_owned(),
    ]
}

#[test]
#[ignore = "500 cases of each problem, 6 s: CI runs it (.ci/run, the ignored tests)"]
fn the_judge_passes_500_cases_of_every_problem() {
    // gfg has one size, its 4 x 4 board: no --max-size.
    for (problem, size) in [
        ("gfg", None),
        ("pshtbrth", Some("20000")),
        ("caos3", Some("20")),
        ("gridgame", Some("20000")),
    ] {
        let mut options = vec!["--seed", "2", "--cases", "500", "--jobs", "2"];
        if let Some(size) = size {
            options.extend(["--max-size", size]);
        }
        passes(problem, &judge_cmd(problem), "grundy judge", &options);
    }
}

/// The brute force's options: small sizes (it is a brute force), a
/// generous time limit (a loaded machine).
fn brute_options(problem: &str, cases: &'static str) -> Vec<&'static str> {
    let mut options = vec![
        "--seed",
        "3",
        "--cases",
        cases,
        "--jobs",
        "2",
        "--time-limit",
        "10",
    ];
    options.extend_from_slice(match problem {
        "pshtbrth" => &["--max-size", "200"],
        "caos3" => &["--max-size", "10"],
        "gridgame" => &["--max-size", "200", "--max-coord", "30"],
        _ => &[],
    });
    options
}

fn brute(problem: &str) -> Vec<String> {
    let mut cmd = python();
    cmd.push(script(&format!("{problem}_brute")));
    cmd
}

/// Independent brute forces pass too (a few cases here; the 500 of each
/// are the ignored test below, run by CI's `.ci/check-brute`).
#[test]
fn independent_brute_forces_pass() {
    for problem in ["gfg", "pshtbrth", "caos3", "gridgame"] {
        passes(
            problem,
            &brute(problem),
            &format!("python3 {problem}_brute.py"),
            &brute_options(problem, "40"),
        );
    }
}

/// `--whitespace plain` lays every input out as the sample does: a reader
/// of lines written for the sample's layout passes.
#[test]
fn plain_inputs_are_laid_out_as_the_sample() {
    let mut cmd = python();
    cmd.push(script("pshtbrth_lines"));
    let mut options = brute_options("pshtbrth", "40");
    options.extend(["--whitespace", "plain"]);
    passes("pshtbrth", &cmd, "python3 pshtbrth_lines.py", &options);
}

#[test]
#[ignore = "about a minute: 2000 Python runs; CI runs it (.ci/check-brute)"]
fn independent_brute_forces_pass_500_cases() {
    for problem in ["gfg", "pshtbrth", "caos3", "gridgame"] {
        passes(
            problem,
            &brute(problem),
            &format!("python3 {problem}_brute.py"),
            &brute_options(problem, "500"),
        );
    }
}

fn sh(script: &str) -> Vec<String> {
    vec!["sh".into(), "-c".into(), script.into()]
}

#[test]
fn verdicts_tell_failures_apart() {
    let options = ["--seed", "1", "--cases", "5", "--shrink-runs", "30"];
    let cases = [
        (
            "echo yes",
            "output that does not parse: answer 1 is \"yes\", not A or B",
        ),
        (
            "true",
            "output that does not parse: 1 answer expected, 0 printed: 1 missing",
        ),
        ("echo A; echo B", "output that does not parse"),
        (
            "kill -SEGV $$",
            "runtime error: killed by SIGSEGV (signal 11)",
        ),
        ("echo A; exit 3", "runtime error: exit status 3"),
        (
            "exec sleep 5",
            "time limit exceeded (waited 1.6 s of wall-clock time, twice the 0.3 s limit and a second)",
        ),
    ];
    for (script, verdict) in cases {
        let mut all = options.to_vec();
        all.extend(["--time-limit", "0.3"]);
        let checked = run_check("gfg", &all, &sh(script));
        let stdout = checked.stdout();
        assert_eq!(checked.code(), Some(1), "{script}: {stdout}");
        assert!(stdout.contains(verdict), "{script}: {verdict}: {stdout}");
    }
    // Past the memory limit: killed, whatever it would have printed.
    let mut hog = python();
    hog.extend([
        "-c".into(),
        "import time\nx = bytearray(400 << 20)\ntime.sleep(2)\nprint('A')".into(),
    ]);
    let checked = run_check(
        "gfg",
        &[
            "--cases",
            "1",
            "--memory-limit",
            "64MiB",
            "--time-limit",
            "5",
        ],
        &hog,
    );
    assert_eq!(checked.code(), Some(1), "{}", checked.stdout());
    assert!(
        checked.stdout().contains("memory limit exceeded (64 MiB)"),
        "{}",
        checked.stdout()
    );
}

#[test]
fn usage_errors_exit_2() {
    let missing = run_check("gfg", &[], &["/no/such/solution".to_owned()]);
    assert_eq!(missing.code(), Some(2));
    assert!(
        missing
            .stderr()
            .starts_with("error: cannot run /no/such/solution"),
        "{}",
        missing.stderr()
    );
    let output = grundy().args(["check", "gfg"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2), "CMD is required");
    let output = grundy()
        .args(["check", "chess", "--", "true"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    for bad in [
        ["--cases", "0"],
        ["--time-limit", "0"],
        ["--memory-limit", "2G"],
        ["--max-coord", "1000000001"],
        ["--jobs", "0"],
    ] {
        let checked = run_check("gridgame", &bad, &["true".to_owned()]);
        assert_eq!(checked.code(), Some(2), "{bad:?}");
    }
    // Flags that would change nothing: said, not ignored.
    for (problem, bad, what) in [
        (
            "caos3",
            ["--max-coord", "30"],
            "--max-coord applies to gridgame only",
        ),
        (
            "caos3",
            ["--max-size", "21"],
            "past the statement's limit of 20",
        ),
        (
            "gridgame",
            ["--max-size", "100001"],
            "past the statement's limit of 100000",
        ),
        (
            "gridgame",
            ["--max-size", "1000001"],
            "past the statement's limit of 100000",
        ),
        // Finer than the CPU clock's hundredths of a second.
        (
            "gfg",
            ["--time-limit", "0.001"],
            "must be at least 0.01 seconds",
        ),
        (
            "gfg",
            ["--time-limit", "1e-300"],
            "must be at least 0.01 seconds",
        ),
        // Options of random cases, which a replay has none of.
        ("gfg", ["--seed", "5"], "cannot be used with"),
        ("gfg", ["--cases", "5"], "cannot be used with"),
        ("gridgame", ["--max-coord", "5"], "cannot be used with"),
        (
            "gfg",
            ["--max-size", "5"],
            "--max-size does not apply to gfg",
        ),
        // A limit no process fits would blame every solution.
        (
            "gfg",
            ["--memory-limit", "1"],
            "1 is less than any process needs: give at least 1MiB",
        ),
        (
            "gfg",
            ["--memory-limit", "900KiB"],
            "900KiB is less than any process needs",
        ),
    ] {
        // The options of random cases are given with `--replay`.
        let mut options = bad.to_vec();
        if what == "cannot be used with" {
            options.extend(["--replay", "failing.in"]);
        }
        let checked = run_check(problem, &options, &["true".to_owned()]);
        assert_eq!(checked.code(), Some(2), "{bad:?}");
        assert!(checked.stderr().contains(what), "{}", checked.stderr());
    }
    // A replay file the judge rejects: located, like every input error.
    let bad = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(bad.path(), "1\n1\n5 -1\n").unwrap();
    let checked = run_check(
        "gridgame",
        &["--replay", bad.path().to_str().unwrap()],
        &["true".to_owned()],
    );
    assert_eq!(checked.code(), Some(2));
    let prefix = format!("error: {}:3:3: ", bad.path().display());
    assert!(
        checked.stderr().starts_with(&prefix),
        "{}",
        checked.stderr()
    );
}

#[test]
fn the_whole_run_budget_exits_3() {
    // Every run sleeps 0.2 s: 0.5 s is not enough for 100 cases.
    let checked = run_check(
        "gfg",
        &["--cases", "100", "--max-time", "0.5"],
        &sh("sleep 0.2; exec \"$0\" judge gfg"
            .replace("$0", env!("CARGO_BIN_EXE_grundy"))
            .as_str()),
    );
    assert_eq!(checked.code(), Some(3), "{}", checked.stdout());
    assert!(
        checked.stdout().contains("--max-time ran out after"),
        "{}",
        checked.stdout()
    );
    assert!(checked.wall < Duration::from_secs(30));
}

/// The time limit is on CPU time: a solution that computes for 1.1 s of a
/// 2 s limit is warned of, one that sleeps 0.6 s of a 1 s limit is not.
#[test]
fn a_slow_solution_is_warned_of() {
    let judge = env!("CARGO_BIN_EXE_grundy");
    let python = python().join(" ");
    // Past half of a 2 s limit, well within its wall-clock bound of 5 s
    // (twice the limit and a second) on a loaded machine.
    let busy = format!(
        "{python} -c 'import time\nt = time.process_time()\nwhile time.process_time() - t < 1.1: pass'; exec {judge} judge gfg"
    );
    let checked = run_check("gfg", &["--cases", "2", "--time-limit", "2"], &sh(&busy));
    let stdout = checked.stdout();
    assert_eq!(checked.code(), Some(0), "{stdout}");
    assert!(stdout.contains("warning: time-limit risk"), "{stdout}");
    assert!(stdout.contains("(CPU time)"), "{stdout}");
    assert!(stdout.contains("x the judge"), "{stdout}");
    let sleeping = format!("sleep 0.6; exec {judge} judge gfg");
    let checked = run_check(
        "gfg",
        &["--cases", "2", "--time-limit", "1"],
        &sh(&sleeping),
    );
    let stdout = checked.stdout();
    assert_eq!(checked.code(), Some(0), "{stdout}");
    assert!(!stdout.contains("warning: time-limit risk"), "{stdout}");
}

/// CPU time spent in a child the solution waits for counts, even when the
/// solution ends just after: a wrapper script whose program computes past
/// the limit fails, whether a poll sees it running or not.
#[test]
fn time_spent_in_a_waited_for_child_counts() {
    let judge = env!("CARGO_BIN_EXE_grundy");
    let python = python().join(" ");
    let wrapper = format!(
        "{python} -c 'import time\nt = time.process_time()\nwhile time.process_time() - t < 0.3: pass'; {judge} judge gfg"
    );
    let checked = run_check(
        "gfg",
        &["--cases", "1", "--time-limit", "0.2", "--shrink-runs", "1"],
        &sh(&wrapper),
    );
    let stdout = checked.stdout();
    assert_eq!(checked.code(), Some(1), "{stdout}");
    // The case's first run; the shrink's runs may end on the wall clock
    // on a loaded machine.
    let first = stdout.lines().next().unwrap_or_default();
    assert!(
        first.ends_with("time limit exceeded (0.2 s of CPU time)"),
        "{stdout}"
    );
    // Past the limit by less than the ticks of 10 ms that `/proc` counts
    // in: the time is read to the microsecond as the run is reaped.
    let script = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.31: pass";
    let cmd: Vec<String> = python
        .split(' ')
        .map(str::to_owned)
        .chain(["-c".to_owned(), script.to_owned()])
        .collect();
    for _ in 0..3 {
        let checked = run_check(
            "gfg",
            &["--cases", "1", "--time-limit", "0.3", "--shrink-runs", "1"],
            &cmd,
        );
        let first = checked
            .stdout()
            .lines()
            .next()
            .unwrap_or_default()
            .to_owned();
        assert!(
            first.ends_with("time limit exceeded (0.3 s of CPU time)"),
            "{}",
            checked.stdout()
        );
    }
}

/// A shrink that only made the layout plainer says so, not that numbers
/// fell: a gfg board has no numbers. The solution is wrong only on boards
/// of 9 cells, as seed 20's first case is (laid out with tabs and blank
/// lines), so no cell can go and only the layout gets plainer.
#[test]
fn a_shrink_of_the_layout_alone_is_worded_as_such() {
    let judge = env!("CARGO_BIN_EXE_grundy");
    let script = format!(
        "import subprocess, sys\n\
         data = sys.stdin.buffer.read()\n\
         answer = subprocess.run([{judge:?}, 'judge', 'gfg'], input=data, capture_output=True).stdout.decode().strip()\n\
         if data.split().count(b'1') == 9: answer = {{'A': 'B', 'B': 'A'}}[answer]\n\
         print(answer)\n"
    );
    let mut cmd = python();
    cmd.extend(["-c".to_owned(), script]);
    let checked = run_check("gfg", &["--seed", "20", "--cases", "1"], &cmd);
    let stdout = checked.stdout();
    assert_eq!(checked.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("one 4 x 4 board, 9 cells set, laid out more plainly"),
        "{stdout}"
    );
}

#[test]
fn replay_of_a_passing_input_exits_0_and_the_first_failure_is_the_same_with_jobs() {
    let sample = data("gridgame.in");
    let checked = run_check(
        "gridgame",
        &["--replay", sample.to_str().unwrap()],
        &judge_cmd("gridgame"),
    );
    assert_eq!(checked.code(), Some(0), "{}", checked.stdout());
    assert!(checked.stdout().contains("accepted"));
    let mut cmd = python();
    cmd.push(script("gridgame_noblock"));
    let first = |jobs: &str| {
        let checked = run_check(
            "gridgame",
            &[
                "--seed",
                "9",
                "--cases",
                "80",
                "--jobs",
                jobs,
                "--max-coord",
                "30",
            ],
            &cmd,
        );
        assert_eq!(checked.code(), Some(1));
        (
            checked.stdout().lines().next().unwrap().to_owned(),
            checked.file("failing.in"),
        )
    };
    assert_eq!(first("1"), first("3"));
}

#[test]
fn a_failure_that_needs_a_whitespace_variant_is_kept_with_it() {
    // A solution that breaks on CRLF line ends: the shrunk case keeps them
    // (and only them), and the report says the failure needs them.
    let solution = format!(
        "input=$(cat); if [[ $input == *$'\\r'* ]]; then echo Z; \
         else printf '%s\\n' \"$input\" | {} judge gfg; fi",
        env!("CARGO_BIN_EXE_grundy")
    );
    let checked = run_check(
        "gfg",
        &["--seed", "1", "--cases", "200"],
        &["bash".to_owned(), "-c".to_owned(), solution],
    );
    let stdout = checked.stdout();
    assert_eq!(checked.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("whitespace: CRLF line ends (the same"),
        "{stdout}"
    );
    assert_eq!(checked.file("failing.in"), "0 0 0 0\r\n".repeat(4));
}

/// `grundy judge pshtbrth` takes inputs past the statement's limits (the
/// engine scales); a replayed file past them is still run, with a note
/// that names the limit, and a file within them gets none.
#[test]
fn a_replay_past_the_statement_is_noted() {
    let test = "1 1\n0000\n0000\n0000\n0001\n\n1 1 1\n";
    for (tests, noted) in [(5, false), (6, true)] {
        let file = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(file.path(), format!("{tests}\n{}", test.repeat(tests))).unwrap();
        let checked = run_check(
            "pshtbrth",
            &["--replay", file.path().to_str().unwrap()],
            &judge_cmd("pshtbrth"),
        );
        let stdout = checked.stdout();
        assert_eq!(checked.code(), Some(0), "{stdout}");
        assert!(stdout.contains("accepted"), "{stdout}");
        assert_eq!(stdout.contains("note: "), noted, "{stdout}");
        if noted {
            assert!(
                stdout.contains("past the statement's limits: T = 6 (at most 5)"),
                "{stdout}"
            );
        }
    }
}

/// Whether process `pid` is gone (or a zombie no one will wait for, which
/// holds no CPU or memory).
fn gone(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).map_or(true, |stat| {
        stat.rsplit(')')
            .next()
            .is_some_and(|rest| rest.trim_start().starts_with('Z'))
    })
}

/// Waits up to 20 s for `path` to hold a process id, which it returns.
fn wait_for_pid(path: &Path) -> String {
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(20) {
        if let Ok(pid) = std::fs::read_to_string(path) {
            if pid.ends_with('\n') {
                return pid.trim().to_owned();
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("no process id in {}", path.display());
}

/// A signal to `check` (SIGTERM, as `kill PID` sends; twice) stops it: the
/// run in progress, a solution that ignores the signal and spins, is
/// killed, and the check says where it was (the seed to run again) and
/// exits 130.
#[test]
fn a_signal_stops_the_check_and_its_runs() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pid");
    let spin = format!(
        "echo $$ > {}; trap '' INT TERM HUP; while :; do :; done",
        pidfile.display()
    );
    let mut check = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args([
            "check",
            "gfg",
            "--seed",
            "5",
            "--cases",
            "50",
            "--time-limit",
            "600",
            "--out",
        ])
        .arg(dir.path().join("out"))
        .args(["--", "sh", "-c", &spin])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let solution = wait_for_pid(&pidfile);
    // Twice, as an impatient user presses Ctrl-C: the second must not end
    // the check before it has ended its run.
    for _ in 0..2 {
        let status = std::process::Command::new("kill")
            .args(["-TERM", &check.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
    }
    let started = Instant::now();
    let output = loop {
        if check.try_wait().unwrap().is_some() {
            break check.wait_with_output().unwrap();
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "check did not stop"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(130), "{stdout}");
    assert!(
        stdout.contains("interrupted before any of the 50 cases passed"),
        "{stdout}"
    );
    assert!(stdout.contains("--seed 5"), "{stdout}");
    assert!(
        gone(&solution),
        "the solution {solution} outlived the check"
    );
}

/// What a run leaves behind in the background (here a `sleep` a shell
/// starts before it runs the judge) is killed when the run ends.
#[test]
fn what_a_run_starts_does_not_outlive_it() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pid");
    let judge = env!("CARGO_BIN_EXE_grundy");
    let script = format!(
        "sleep 300 & echo $! > {}; exec {judge} judge gfg",
        pidfile.display()
    );
    let checked = run_check("gfg", &["--seed", "1", "--cases", "1"], &sh(&script));
    assert_eq!(checked.code(), Some(0), "{}", checked.stdout());
    let sleeper = wait_for_pid(&pidfile);
    assert!(gone(&sleeper), "the run's sleep {sleeper} outlived it");
}

/// A solution that floods its standard error is judged on what it
/// printed, and the report shows the end of its standard error only.
#[test]
fn a_flood_on_standard_error_is_read_from_its_end() {
    let judge = env!("CARGO_BIN_EXE_grundy");
    // 40 MB on standard error, then a wrong answer.
    let script = format!(
        "head -c 40000000 /dev/zero | tr '\\0' x >&2; echo LAST >&2; {judge} judge gfg | tr AB BA"
    );
    let checked = run_check(
        "gfg",
        &["--seed", "1", "--cases", "1", "--shrink-runs", "1"],
        &sh(&script),
    );
    let stdout = checked.stdout();
    assert_eq!(checked.code(), Some(1), "{stdout}");
    assert!(stdout.contains("wrong answer"), "{stdout}");
    assert!(stdout.contains("LAST"), "{stdout}");
    assert!(stdout.len() < 20_000, "{} bytes of report", stdout.len());
}

/// Standard error is bounded as standard output is (64 MiB): a solution
/// that floods it is stopped, not left to fill the disk.
#[test]
fn a_flood_past_the_output_limit_on_standard_error_is_stopped() {
    let checked = run_check(
        "gfg",
        &["--seed", "1", "--cases", "1", "--shrink-runs", "1"],
        &sh("exec cat /dev/zero >&2"),
    );
    let stdout = checked.stdout();
    assert_eq!(checked.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("output limit exceeded (64 MiB on standard error)"),
        "{stdout}"
    );
}

/// The replay command repeats the memory limit the failure was found
/// under; a replay of `--out`'s own failing.in whose case comes out
/// otherwise (here another solution, wrong on every input) keeps the input
/// it was given as replayed.in, byte for byte.
#[test]
fn a_replay_repeats_the_memory_limit_and_keeps_the_case_it_replaced() {
    let mut cmd = python();
    cmd.push(script("gfg_offbyone"));
    let options = ["--seed", "1", "--cases", "60", "--memory-limit", "1GiB"];
    let checked = run_check("gfg", &options, &cmd);
    let stdout = checked.stdout();
    assert_eq!(checked.code(), Some(1), "{stdout}");
    let replay = stdout
        .lines()
        .find_map(|l| l.strip_prefix("replay: "))
        .expect("a replay command");
    assert!(replay.contains(" --memory-limit 1GiB "), "{replay}");
    let failing = checked.dir.path().join("failing.in");
    let found = std::fs::read(&failing).unwrap();

    let mut wrong = python();
    wrong.extend(["-c".to_owned(), "print('C')".to_owned()]);
    let replayed = grundy()
        .args(["check", "gfg", "--replay"])
        .arg(&failing)
        .arg("--out")
        .arg(checked.dir.path())
        .arg("--")
        .args(&wrong)
        .timeout(Duration::from_secs(300))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&replayed.stdout);
    assert_eq!(replayed.status.code(), Some(1), "{text}");
    assert!(text.contains("kept the input replayed as "), "{text}");
    let kept = checked.dir.path().join("replayed.in");
    assert_eq!(std::fs::read(kept).unwrap(), found);
    assert_ne!(std::fs::read(&failing).unwrap(), found, "{text}");
}

/// The worked example of docs/check.md quotes its solution: the lines it
/// shows are the fixture's, so the page cannot drift from what it runs.
#[test]
fn the_worked_example_quotes_its_fixture() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let page = std::fs::read_to_string(root.join("docs/check.md")).unwrap();
    let fixture = std::fs::read_to_string(
        root.join("crates/grundy-cli/tests/data/check/pshtbrth_noupdate.py"),
    )
    .unwrap();
    let quoted = page
        .split("```python\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("a python block in docs/check.md");
    let lines: Vec<&str> = fixture.lines().collect();
    let block: Vec<&str> = quoted.lines().collect();
    assert!(
        lines.windows(block.len()).any(|w| w == block.as_slice()),
        "docs/check.md quotes lines that pshtbrth_noupdate.py does not have in a row:\n{quoted}"
    );
}

/// `--replay -` reads the input from standard input, as `-` does for every
/// command, and names it `<stdin>`; a wrong answer's report shows the end
/// of the solution's standard error too (here the answer it printed there
/// instead of on standard output).
#[test]
fn a_replay_reads_standard_input_and_a_wrong_answer_shows_standard_error() {
    let sample = std::fs::read(data("gridgame.in")).unwrap();
    let replay = |cmd: &[String]| {
        let dir = tempfile::tempdir().unwrap();
        let output = grundy()
            .args(["check", "gridgame", "--replay", "-", "--out"])
            .arg(dir.path())
            .arg("--")
            .args(cmd)
            .write_stdin(sample.clone())
            .timeout(Duration::from_secs(300))
            .output()
            .unwrap();
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stdout).into_owned(),
        )
    };
    let (code, stdout) = replay(&judge_cmd("gridgame"));
    assert_eq!(code, Some(0), "{stdout}");
    assert!(stdout.contains("<stdin>: accepted"), "{stdout}");
    let judge = env!("CARGO_BIN_EXE_grundy");
    let (code, stdout) = replay(&sh(&format!("{judge} judge gridgame >&2")));
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains("<stdin>: output that does not parse"),
        "{stdout}"
    );
    assert!(stdout.contains("its standard error ends:"), "{stdout}");
    assert!(
        stdout.contains("    Alice") || stdout.contains("    Bob"),
        "{stdout}"
    );
}
