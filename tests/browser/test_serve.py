"""The page of `tabula serve` in a real browser: Debian's chromium driven by
Playwright for Python (never a browser of Playwright's own).

Plays a whole pawn race by clicking the cells each move names, undoes and
redoes, forces nature's throw in Tablan and lets an agent move; after every
step the board and the facts shown on the page are compared with what
`tabula repl` gives for the page's own transcript.

Needs target/release/tabula (`cargo build --release`), /usr/bin/chromium
(`apt-get install chromium`) and .venv (`scripts/venv`). Without them the
tests are skipped, unless CI=true, when they fail.
"""

import json
import os
import re
import shutil
import subprocess
import tempfile
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TABULA = ROOT / "target" / "release" / "tabula"
CHROMIUM = "/usr/bin/chromium"
PAWNS = "games/pawn_whopping.rules"
TABLAN = "games/tablan.rules"
UNDER_CI = os.environ.get("CI", "").lower() in ("true", "1")


def need(ok, reason):
    """Skips the test when `ok` is false, or fails it under CI."""
    if ok:
        return
    if UNDER_CI:
        pytest.fail(reason + " (CI=true: the browser test must run)")
    pytest.skip(reason)


try:
    from playwright.sync_api import sync_playwright
except ImportError:  # checked in the fixture, so that CI fails loudly
    sync_playwright = None


@pytest.fixture(scope="module")
def browser_context():
    need(sync_playwright is not None, "Playwright for Python is missing: run scripts/venv")
    need(Path(CHROMIUM).exists(), "no " + CHROMIUM + ": apt-get install -y chromium")
    need(TABULA.exists(), "no target/release/tabula: cargo build --release")
    profile = tempfile.mkdtemp(prefix="tabula-chromium-")
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            profile,
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
            viewport={"width": 1300, "height": 900},
        )
        yield context
        context.close()
    shutil.rmtree(profile, ignore_errors=True)


class Served:
    """A running `tabula serve` on a free port of 127.0.0.1."""

    def __init__(self, game, seed):
        self.game = game
        self.process = subprocess.Popen(
            [str(TABULA), "serve", game, "--port", "0", "--seed", str(seed)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        self.url = self.process.stdout.readline().strip()
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/", self.url), self.url

    def get(self, path):
        with urllib.request.urlopen(self.url + path.lstrip("/"), timeout=60) as r:
            return r.read().decode()

    def state(self):
        return json.loads(self.get("api/state"))

    def stop(self):
        self.process.kill()
        self.process.wait()


@pytest.fixture
def served(request):
    servers = []

    def start(game, seed):
        s = Served(game, seed)
        servers.append(s)
        return s

    yield start
    for s in servers:
        s.stop()


def repl_facts(game, transcript):
    """The facts `tabula repl` shows after loading a transcript."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(transcript)
    try:
        out = subprocess.run(
            [str(TABULA), "repl", game],
            cwd=ROOT,
            input=f"load {f.name}\ngoals\nstate\n",
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        ).stdout
    finally:
        os.unlink(f.name)
    lines = out.splitlines()
    marks = [i for i, line in enumerate(lines) if line.startswith("goals")]
    return lines[marks[-1] + 1:]


def wait_step(page, step):
    page.wait_for_selector(f'body[data-step="{step}"]:not([data-busy])', state="attached")


def shown_facts(page):
    return page.eval_on_selector_all("#facts li", "items => items.map(i => i.textContent)")


def shown_board(page):
    """What stands on each cell of the page's board, by the cell's name."""
    return page.eval_on_selector_all(
        "#board rect.cell",
        "cells => Object.fromEntries(cells.map(c => [c.dataset.name, c.dataset.pieces]))",
    )


def check_against_tabula(page, server, step):
    """The page shows step `step`, and its facts (and, in the pawn race,
    its pieces) are those `tabula repl` reaches on the page's transcript."""
    wait_step(page, step)
    assert page.text_content("#step") == f"step {step}"
    transcript = server.get("api/transcript")
    assert len([l for l in transcript.splitlines() if l.startswith(("play ", "set "))]) == step
    facts = repl_facts(server.game, transcript)
    assert shown_facts(page) == facts
    if server.game == PAWNS:
        expected = {}
        for f in facts:
            m = re.fullmatch(r"cell\((\d+), (\d+), (\w+)\)", f)
            if m:
                expected[f"sq({m[1]}, {m[2]})"] = m[3]
        board = {name: pieces for name, pieces in shown_board(page).items() if pieces}
        assert board == expected
    return facts


def test_a_whole_pawn_race_played_by_clicking(browser_context, served):
    server = served(PAWNS, 11)
    page = browser_context.new_page()
    page.goto(server.url)
    check_against_tabula(page, server, 0)
    step = 0
    undone = False
    while True:
        state = server.state()
        if state["over"]:
            break
        mover = next(r for r in state["roles"] if r["choosing"])
        move = mover["moves"][(step * 5 + 1) % len(mover["moves"])]
        assert len(move["cells"]) == 2, move
        for cell in move["cells"]:
            page.click(f'#board rect.cell[data-cell="{cell}"]')
        step += 1
        check_against_tabula(page, server, step)
        last = page.text_content("#turn")
        assert f"{mover['name']}={move['text']}" in last
        if step == 4 and not undone:
            undone = True
            page.click("#undo")
            check_against_tabula(page, server, 3)
            assert page.is_enabled("#redo")
            page.click("#redo")
            check_against_tabula(page, server, 4)
            assert not page.is_enabled("#redo")
        assert step < 200
    assert step > 10
    assert page.is_visible("#goals-box")
    goals = server.state()["goals"]
    assert page.text_content("#goals") == ", ".join(f"{g['role']} {g['goal']}" for g in goals)
    assert [g["role"] for g in goals] == ["x", "o"]
    page.close()


def test_a_stale_page_is_told_and_shows_the_current_state(browser_context, served):
    server = served(PAWNS, 12)
    page = browser_context.new_page()
    page.goto(server.url)
    wait_step(page, 0)
    # Another client moves; this page still shows step 0.
    body = json.dumps({"step": 0, "moves": {"x": "move(3, 2, 3, 4)"}}).encode()
    req = urllib.request.Request(
        server.url + "api/play", data=body, headers={"Content-Type": "application/json"}
    )
    urllib.request.urlopen(req, timeout=60).read()
    page.click('#board rect.cell[data-name="sq(1, 2)"]')
    page.click('#board rect.cell[data-name="sq(1, 3)"]')
    wait_step(page, 1)
    assert "the page shows step 0 but the game is at step 1" in page.text_content("#error")
    check_against_tabula(page, server, 1)
    page.close()


def test_tablan_forced_throws_and_an_agent(browser_context, served):
    server = served(TABLAN, 13)
    page = browser_context.new_page()
    page.emulate_media(color_scheme="dark")
    page.goto(server.url)
    check_against_tabula(page, server, 0)
    assert page.is_visible("#throw-box")
    for step, outcome in [(1, "first(green)"), (2, "sticks(8)")]:
        page.select_option("#outcome", outcome)
        page.click("#throw")
        check_against_tabula(page, server, step)
        assert f"random={outcome}" in page.text_content("#turn")
    state = server.state()
    mover = next(r["name"] for r in state["roles"] if r["choosing"] and not r["nature"])
    page.fill(f'#agents input[data-role="{mover}"]', "mcts:50")
    page.click("#auto")
    check_against_tabula(page, server, 3)
    assert next(r for r in server.state()["roles"] if r["name"] == mover)["agent"] == "mcts:50"
    page.close()
