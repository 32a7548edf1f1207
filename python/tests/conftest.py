"""Shared fixtures of the Python package's tests: where the repository, its
games, the conformance games and the `tabula` binary are.

The package must be installed (`pip install ./python`, see docs/PYTHON.md).
Parts that need the conformance games (../shared/conformance beside the
repository) or the built binary (target/release/tabula) skip when these
are absent, unless CI=true, where they fail.
"""

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "games"
CONFORMANCE = ROOT.parent / "shared" / "conformance" / "games"
BINARY = ROOT / "target" / "release" / "tabula"
IN_CI = os.environ.get("CI") == "true"

SEED_GAMES = [
    "pawn_whopping.rules",
    "tablan.rules",
    "chaupar.rules",
    "generals.rules",
    "pachisi.rules",
]


def need(condition: bool, why: str) -> None:
    """Skips the test when `condition` is false, or fails it under CI=true."""
    if condition:
        return
    if IN_CI:
        pytest.fail(f"{why} (CI=true: required)")
    pytest.skip(why)


def conformance_games() -> list[Path]:
    return sorted(CONFORMANCE.glob("*")) if CONFORMANCE.is_dir() else []


def need_conformance() -> None:
    need(CONFORMANCE.is_dir(), f"{CONFORMANCE} not found: conformance games skipped")


def need_binary() -> None:
    need(BINARY.exists(), f"{BINARY} not built (cargo build --release)")


def cli_json(*args: str) -> dict:
    """Runs the built `tabula` with `args` and reads its JSON output."""
    need_binary()
    out = subprocess.run(
        [str(BINARY), *args], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)


def cli_perft(path: Path, depth: int) -> list[dict]:
    return cli_json("perft", str(path), "--depth", str(depth), "--json")["levels"]
