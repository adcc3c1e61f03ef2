"""Shared fixtures: the `grundy` binary the answers are checked against.

The binary is GRUNDY_BIN, else the repository's target/debug/grundy (built
by `cargo build -p grundy-cli`, as .ci/python does). A missing binary fails
the tests that need it with a clear message; it never skips them.
"""

import json
import os
import pathlib
import subprocess
from typing import Any, List, Optional

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]


def grundy_bin() -> pathlib.Path:
    path = pathlib.Path(os.environ.get("GRUNDY_BIN", REPO / "target" / "debug" / "grundy"))
    if not path.is_file():
        pytest.fail(
            f"the grundy binary is missing at {path}: run `cargo build -p grundy-cli` "
            "or set GRUNDY_BIN to the binary",
            pytrace=False,
        )
    return path


class Cli:
    def __init__(self, binary: pathlib.Path) -> None:
        self.binary = binary

    def run(self, args: List[str], stdin: Optional[str] = None) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(self.binary), *args],
            input=stdin,
            capture_output=True,
            text=True,
            timeout=120,
        )

    def json(self, args: List[str], stdin: Optional[str] = None) -> Any:
        done = self.run([*args, "--json"], stdin)
        assert done.returncode == 0, f"grundy {' '.join(args)}: {done.stderr}"
        return json.loads(done.stdout)

    def json_lines(self, args: List[str], stdin: Optional[str] = None) -> List[Any]:
        done = self.run([*args, "--json"], stdin)
        assert done.returncode == 0, f"grundy {' '.join(args)}: {done.stderr}"
        return [json.loads(line) for line in done.stdout.splitlines()]


@pytest.fixture(scope="session")
def cli() -> Cli:
    return Cli(grundy_bin())
