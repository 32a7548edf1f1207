"""tabula.distributed.analyze on a local Ray instance of 2 workers: its
report equals `tabula analyze --json` with the same seed and counts (all
but the times and speeds)."""

import pytest

ray = pytest.importorskip("ray", reason="ray not installed (scripts/venv)")

from conftest import GAMES, cli_json  # noqa: E402
from tabula.distributed import analyze  # noqa: E402

TIMES = {"seconds", "playouts_per_sec", "states_per_sec"}


@pytest.fixture(scope="module", autouse=True)
def two_workers():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def without_times(report):
    return {k: v for k, v in report.items() if k not in TIMES}


def test_a_game_with_self_play_equals_the_cli():
    path = str(GAMES / "pawn_whopping.rules")
    args = ["--playouts", "300", "--mcts-games", "3", "--mcts-iterations", "20", "--seed", "3"]
    expected = cli_json("analyze", path, *args, "--json")
    got = analyze(path, playouts=300, mcts_games=3, mcts_iterations=20, seed=3, chunk=17)
    assert without_times(got) == without_times(expected)
    assert got["mcts_games"] == 3 and len(got["lengths"]) == 300


def test_a_variant_with_chance_equals_the_cli_whatever_the_split():
    base = str(GAMES / "tablan.rules")
    variant = str(GAMES / "variants" / "tablan_d6.rules")
    args = ["--playouts", "40", "--mcts-games", "0", "--seed", "11"]
    expected = cli_json("analyze", base, variant, *args, "--json")
    for chunk in [3, 40]:
        got = analyze(base, variant, playouts=40, mcts_games=0, seed=11, chunk=chunk)
        for side in ["base", "variant"]:
            assert without_times(got[side]) == without_times(expected[side])
    assert got["base"]["mcts_not_run"] == "--mcts-games 0"
