"""The `tabula` module's API: loading, states, moves, goals, chance, errors,
the state tensor, playouts, perft (against `tabula perft --json`) and MCTS."""

import random

import numpy as np
import pytest

import tabula
from conftest import GAMES, SEED_GAMES, cli_perft, conformance_games, need_conformance

NIM = """game "Nim".
roles first, second.
turn first, second using can_take.
init stones(4).
amount(1..3).
can_take(R, take(N)) :- role(R), true stones(S), amount(N), N =< S.
next stones(M) :- true stones(S), does(R, take(N)), M = S - N, M >= 0.
terminal :- true stones(0).
goal(R, 100) :- terminal, role(R), not true control(R).
goal(R, 0) :- terminal, true control(R).
"""


@pytest.fixture
def nim(tmp_path):
    path = tmp_path / "nim.rules"
    path.write_text(NIM)
    return tabula.load(path)


def test_a_game_describes_itself(nim):
    assert nim.roles == ["first", "second"]
    assert nim.players == ["first", "second"]
    assert nim.nature is None
    assert nim.title == "Nim"
    assert nim.moves["first"] == ["noop", "take(1)", "take(2)", "take(3)"]
    assert sorted(nim.base_facts) == sorted(
        ["control(first)", "control(second)"] + [f"stones({n})" for n in range(5)]
    )


def test_nim_played_to_the_end(nim):
    s = nim.initial()
    assert sorted(s.facts()) == ["control(first)", "stones(4)"]
    assert s.legal("first") == ["take(1)", "take(2)", "take(3)"]
    assert s.legal("second") == ["noop"]
    assert s.legal_indices("first") == [1, 2, 3]
    assert s.legal_mask("first").tolist() == [False, True, True, True]
    # The role with one legal move may be left out.
    s = s.apply({"first": "take(3)"})
    assert sorted(s.facts()) == ["control(second)", "stones(1)"]
    assert s.legal(1) == ["take(1)"]
    assert not s.is_terminal()
    s = s.apply(["noop", "take(1)"])
    assert s.is_terminal()
    assert s.goals() == {"first": 0, "second": 100}
    with pytest.raises(tabula.TabulaError, match="the game is over"):
        s.apply({})


def test_states_are_values(nim):
    a = nim.initial().apply({"first": "take(1)"}).apply({"second": 2})
    b = nim.initial().apply({"first": 2}).apply({"second": "take(1)"})
    assert a == b and hash(a) == hash(b)
    assert len({a, b, nim.initial()}) == 2
    assert a != nim.initial()
    assert nim.state(["stones(1)", "control(first)"]) == b


def test_bad_moves_are_errors_that_say_what_is_legal(nim):
    s = nim.initial()
    with pytest.raises(tabula.TabulaError) as e:
        s.apply({"first": "take(4)"})
    assert "`take(4)` is not a legal move of first; legal: take(1), take(2), take(3)" in str(e.value)
    assert e.value.code is None
    with pytest.raises(tabula.TabulaError, match="first must move"):
        s.apply({})
    with pytest.raises(tabula.TabulaError, match="there is no role `third`"):
        s.apply({"third": "noop"})
    with pytest.raises(tabula.TabulaError, match="move index 0 is not a legal move of first"):
        s.apply({"first": 0})


def test_an_invalid_game_raises_with_code_file_line_column(tmp_path):
    path = tmp_path / "bad.rules"
    path.write_text("roles x.\ninit p(.\n")
    with pytest.raises(tabula.TabulaError) as e:
        tabula.load(path)
    err = e.value
    assert (err.code, err.file, err.line, err.column) == ("E0001", str(path), 2, 8)
    assert err.message == "expected a term"
    assert str(err).startswith(f"{path}:2:8: error[E0001]: expected a term")
    assert err.diagnostics[0]["severity"] == "error"


def test_an_unreadable_file_and_bad_options(tmp_path):
    with pytest.raises(tabula.TabulaError, match="cannot read") as e:
        tabula.load(tmp_path / "missing.rules")
    assert e.value.file == str(tmp_path / "missing.rules")
    with pytest.raises(tabula.TabulaError, match="not an engine"):
        tabula.load(GAMES / "pawn_whopping.rules", engine="fast")
    with pytest.raises(tabula.TabulaError, match="a value is an integer or a lower-case name"):
        tabula.load(GAMES / "pawn_whopping.rules", params={"size": "Big"})


def test_parameters_change_the_game():
    small = tabula.load(GAMES / "pawn_whopping.rules", params={"size": 6})
    assert small.params == {"size": 6}
    assert tabula.load(GAMES / "pawn_whopping.rules").params == {"size": 8}
    assert len(small.base_facts) < len(tabula.load(GAMES / "pawn_whopping.rules").base_facts)


def play_randomly(game, rng, max_steps=3000):
    """Plays one game through the API with uniform choices and nature by
    its probabilities; returns the final state and the length."""
    s = game.initial()
    steps = 0
    while not s.is_terminal() and steps < max_steps:
        joint = {}
        for role in game.players:
            joint[role] = rng.choice(s.legal(role))
        if game.nature is not None:
            outcomes = s.chance()
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            moves, weights = zip(*outcomes)
            joint[game.nature] = rng.choices(moves, weights)[0]
        s = s.apply(joint)
        steps += 1
    return s, steps


@pytest.mark.parametrize("name", SEED_GAMES)
def test_seed_games_play_to_the_end_through_the_api(name):
    game = tabula.load(GAMES / name)
    rng = random.Random(7)
    state, steps = play_randomly(game, rng)
    assert state.is_terminal(), f"{name}: not over after {steps} steps"
    goals = state.goals()
    assert set(game.players) <= set(goals)
    assert all(0 <= v <= 100 for v in goals.values())


def test_the_state_tensor_round_trips():
    for name in SEED_GAMES:
        game = tabula.load(GAMES / name)
        s = game.initial()
        rng = random.Random(3)
        for _ in range(20):
            if s.is_terminal():
                break
            array = s.to_numpy()
            assert array.dtype == np.bool_ and array.shape == (len(game.base_facts),)
            assert [f for f, on in zip(game.base_facts, array) if on] == s.facts()
            assert game.from_numpy(array) == s
            joint = {r: rng.choice(s.legal(r)) for r in game.roles if r != game.nature}
            if game.nature is not None:
                joint[game.nature] = rng.choice(s.legal(game.nature))
            s = s.apply(joint)
    with pytest.raises(tabula.TabulaError, match="base facts"):
        game.from_numpy(np.zeros(3, dtype=bool))


def test_chance_gives_the_declared_probabilities():
    game = tabula.load(GAMES / "pachisi.rules")
    outcomes = dict(game.initial().chance())
    # Six cowries, each up with probability 1/2: 2 up of 6 is 15/64.
    assert outcomes["cowries(2)"] == pytest.approx(15 / 64)
    assert outcomes["cowries(25)"] == pytest.approx(1 / 64)
    assert sum(outcomes.values()) == pytest.approx(1.0)
    assert game.initial().chance_indices()[0][1] == pytest.approx(
        game.initial().chance()[0][1]
    )


def test_playouts_do_not_depend_on_threads():
    game = tabula.load(GAMES / "tablan.rules")
    one = game.playouts(60, seed=5, threads=1)
    two = game.playouts(60, seed=5, threads=2)
    for key in ["playouts", "unfinished", "draws", "mean_length", "mean_goals"]:
        assert one[key] == two[key], key
    assert one["playouts"] == 60
    assert game.playouts(60, seed=6)["mean_length"] != one["mean_length"]


def test_mcts_finds_the_winning_move(nim):
    # From 3 stones the player to move takes them all.
    s = nim.state(["stones(3)", "control(first)"])
    assert tabula.mcts(s, "first", iterations=300) == "take(3)"
    assert tabula.mcts(s, "first", iterations=300, seed=9, threads=2) == "take(3)"
    with pytest.raises(tabula.TabulaError, match="not both"):
        tabula.mcts(s, "first", iterations=10, seconds=1.0)


@pytest.mark.parametrize(
    "name,depth", [("pawn_whopping.rules", 3), ("tablan.rules", 3), ("pachisi.rules", 2)]
)
def test_perft_of_seed_games_equals_the_cli(name, depth):
    assert tabula.load(GAMES / name).perft(depth) == cli_perft(GAMES / name, depth)


CONFORMANCE_DEPTHS = {
    "ticTacToe.kif": 4,
    "connectFour.kif": 3,
    "MontyHall.gdl": 4,
    "nim1.kif": 3,
    "roshambo2.kif": 3,
    "smallest_4player.kif": 2,
}


@pytest.mark.parametrize("name,depth", sorted(CONFORMANCE_DEPTHS.items()))
def test_perft_of_conformance_games_equals_the_cli(name, depth):
    need_conformance()
    path = next(p for p in conformance_games() if p.name == name)
    assert tabula.load(path).perft(depth) == cli_perft(path, depth)
