"""The PettingZoo AEC wrapper, checked by PettingZoo's own API test, and a
game played through it."""

import pytest

pytest.importorskip("pettingzoo", reason="pettingzoo not installed (scripts/venv)")

from pettingzoo.test import api_test  # noqa: E402

from conftest import CONFORMANCE, GAMES, need_conformance  # noqa: E402
from tabula.pettingzoo import env  # noqa: E402


@pytest.mark.parametrize("name", ["pawn_whopping.rules", "tablan.rules"])
def test_api_test_on_seed_games(name):
    api_test(env(GAMES / name), num_cycles=200)


@pytest.mark.parametrize("name", ["roshambo2.kif", "ticTacToe.kif"])
def test_api_test_on_conformance_games(name):
    need_conformance()
    api_test(env(CONFORMANCE / name), num_cycles=200)


def test_a_game_through_the_environment():
    need_conformance()
    e = env(CONFORMANCE / "ticTacToe.kif")
    e.reset(seed=1)
    moves = e.game.moves
    for cell in ["1 1", "2 2", "1 2", "2 3", "1 3"]:
        agent = e.agent_selection
        obs = e.observe(agent)
        action = moves[agent].index(f"(mark {cell})")
        assert obs["action_mask"][action] == 1
        e.step(action)
    assert all(e.terminations.values())
    assert e.rewards == {"xplayer": 100.0, "oplayer": 0.0}
