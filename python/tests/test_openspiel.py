"""tabula games in OpenSpiel: OpenSpiel's own random-simulation test on
every conformance game and the five seed games, the node types, MCTSBot
against a random bot, and perft by traversal through pyspiel against
`tabula perft`."""

import itertools

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel not installed (scripts/venv)")

from open_spiel.python.algorithms import mcts  # noqa: E402
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots  # noqa: E402

from conftest import GAMES, SEED_GAMES, CONFORMANCE, cli_perft, conformance_games, need_conformance  # noqa: E402
from tabula.openspiel import load_game  # noqa: E402


def conformance_names():
    return [p.name for p in conformance_games()] or ["(absent)"]


@pytest.mark.parametrize("name", conformance_names())
def test_random_simulation_of_conformance_games(name):
    need_conformance()
    game = load_game(CONFORMANCE / name)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize("name", SEED_GAMES)
def test_random_simulation_of_seed_games(name):
    game = load_game(GAMES / name)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_node_types_follow_the_game():
    pachisi = load_game(GAMES / "pachisi.rules")
    t = pachisi.get_type()
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert pachisi.num_players() == 4
    s = pachisi.new_initial_state()
    assert s.is_chance_node()
    outcomes = dict(s.chance_outcomes())
    moves = pachisi.layout.moves["random"]
    assert outcomes[moves.index("cowries(2)")] == pytest.approx(15 / 64)
    assert sum(outcomes.values()) == pytest.approx(1.0)
    s.apply_action(moves.index("cowries(2)"))
    # Black threw 2 for the order of play; blue throws next.
    assert s.steps == 1 and s.is_chance_node()
    assert "rolled(black, 2)" in s.tabula_state.facts()
    assert "rolled(black, 2)" in s.observation_string(0)


def test_simultaneous_games_are_simultaneous():
    need_conformance()
    game = load_game(CONFORMANCE / "roshambo2.kif")
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    s = game.new_initial_state()
    assert s.is_simultaneous_node()
    s.apply_actions([s.legal_actions(0)[0], s.legal_actions(1)[0]])
    assert s.tabula_state.facts() != game.new_initial_state().tabula_state.facts()


def test_returns_and_observations_of_tic_tac_toe():
    need_conformance()
    game = load_game(CONFORMANCE / "ticTacToe.kif")
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    s = game.new_initial_state()
    layout = game.layout
    # x marks the left column; o plays in the middle column.
    for role, cell in [("xplayer", "1 1"), ("oplayer", "2 2"), ("xplayer", "1 2"),
                       ("oplayer", "2 3"), ("xplayer", "1 3")]:
        player = layout.players.index(role)
        assert s.current_player() == player
        s.apply_action(layout.moves[role].index(f"(mark {cell})"))
    assert s.is_terminal()
    assert s.returns() == [100.0, 0.0]
    tensor = np.array(s.observation_tensor(0))
    assert tensor.sum() == len(s.tabula_state.facts())
    assert s.information_state_string(1) == str(s.tabula_state)


def mcts_against_random(game, games, simulations):
    """Games of MCTSBot against a uniform random bot, seats alternating;
    returns MCTS's (wins, losses)."""
    rng = np.random.RandomState(4)
    wins = losses = 0
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    for g in range(games):
        seat = g % 2
        bots = [None, None]
        bots[seat] = mcts.MCTSBot(game, uct_c=2 * 100, max_simulations=simulations,
                                  evaluator=evaluator, random_state=rng)
        bots[1 - seat] = pyspiel.make_uniform_random_bot(1 - seat, 100 + g)
        returns = evaluate_bots(game.new_initial_state(), bots, rng)
        wins += returns[seat] > returns[1 - seat]
        losses += returns[seat] < returns[1 - seat]
    return wins, losses


def test_mcts_beats_random_at_tic_tac_toe():
    need_conformance()
    wins, losses = mcts_against_random(load_game(CONFORMANCE / "ticTacToe.kif"), 6, 200)
    assert wins >= 4 and losses == 0, (wins, losses)


def test_mcts_beats_random_in_the_pawn_race():
    game = load_game(GAMES / "pawn_whopping.rules", params={"size": 6})
    wins, losses = mcts_against_random(game, 4, 100)
    assert wins >= 3 and wins > losses, (wins, losses)


def step_children(state):
    """Every state one joint move (one tabula step) after `state`: players'
    nodes, simultaneous nodes and chance outcomes expanded, each outcome a
    branch."""
    stack = [state]
    while stack:
        s = stack.pop()
        if s.steps > state.steps:
            yield s
        elif s.is_simultaneous_node():
            legal = [s.legal_actions(p) for p in range(s.num_players())]
            for joint in itertools.product(*legal):
                child = s.clone()
                child.apply_actions(list(joint))
                stack.append(child)
        elif s.is_chance_node():
            stack.extend(s.child(a) for a, _ in s.chance_outcomes())
        else:
            stack.extend(s.child(a) for a in s.legal_actions())


def traversal_perft(game, depth):
    level = {}
    start = game.new_initial_state()
    level[start.tabula_state] = (start, 1)
    out = [{"depth": 0, "leaves": 1, "states": 1}]
    for d in range(1, depth + 1):
        following = {}
        for state, mult in level.values():
            if state.is_terminal():
                continue
            for child in step_children(state):
                key = child.tabula_state
                known = following.get(key)
                following[key] = (child, mult + (known[1] if known else 0))
        level = following
        out.append({"depth": d, "leaves": sum(m for _, m in level.values()), "states": len(level)})
    return out


@pytest.mark.parametrize(
    "name,depth",
    [("ticTacToe.kif", 4), ("roshambo2.kif", 3), ("MontyHall.gdl", 3), ("connectFourSimultaneous.kif", 2)],
)
def test_traversal_perft_of_conformance_games_equals_the_cli(name, depth):
    need_conformance()
    path = CONFORMANCE / name
    assert traversal_perft(load_game(path), depth) == cli_perft(path, depth)


@pytest.mark.parametrize("name,depth", [("pawn_whopping.rules", 3), ("tablan.rules", 3)])
def test_traversal_perft_of_seed_games_equals_the_cli(name, depth):
    assert traversal_perft(load_game(GAMES / name), depth) == cli_perft(GAMES / name, depth)
