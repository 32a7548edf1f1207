"""A scripted session in Neovim's built-in LSP client: Debian's `nvim`
runs headless with the configuration docs/EDITORS.md shows
(tests/lsp/nvim/init.lua), opens a shipped game, misspells a relation and
writes the diagnostics it receives (tests/lsp/nvim/session.lua); they must
be those `tabula check` prints for the same text."""

import os
import pathlib
import shutil
import subprocess

import pytest

from conftest import IN_CI, ROOT, TABULA, check_cli

HERE = pathlib.Path(__file__).resolve().parent


def test_neovim_shows_the_diagnostic_of_a_typo(tmp_path):
    nvim = shutil.which("nvim")
    if nvim is None:
        message = "nvim is not installed (apt-get install -y neovim)"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    game = ROOT / "games" / "pawn_whopping.rules"
    out = tmp_path / "diagnostics.txt"
    env = dict(os.environ, TABULA=str(TABULA), NVIM_OUT=str(out), HOME=str(tmp_path))
    subprocess.run(
        [nvim, "--headless", "-n", "-i", "NONE", "-u", str(HERE / "nvim" / "init.lua"),
         str(game), "-c", f"luafile {HERE / 'nvim' / 'session.lua'}"],
        env=env, cwd=tmp_path, timeout=300, check=False,
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    shown = out.read_text().splitlines()
    typo = tmp_path / "pawn_whopping.rules"
    typo.write_text(game.read_text().replace("using can_move.", "using can_mvoe.", 1))
    line, column, code, message = check_cli(typo)
    assert shown[0] == f"{line}:{column}: warning {code} {message}"
    assert code == "W0001"
    # Every diagnostic of check, in the same order.
    printed = subprocess.run(
        [str(TABULA), "check", "--playouts", "0", str(typo)],
        capture_output=True, text=True, check=False,
    ).stderr
    expected = []
    for first in printed.splitlines():
        if first.startswith(f"{typo}:"):
            place, rest = first[len(f"{typo}:"):].split(": ", 1)
            severity, rest = rest.split("[", 1)
            code, message = rest.split("]: ", 1)
            expected.append(f"{place}: {severity} {code} {message}")
    assert shown == expected
