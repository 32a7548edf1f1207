"""tabula games as OpenSpiel games, through OpenSpiel's Python game interface.

``load_game(path)`` loads a game with tabula, registers it with
``pyspiel.register_game`` (a ``GameType`` and ``GameInfo`` made from the
game) and returns the ``pyspiel`` game, so OpenSpiel's algorithms (MCTS,
CFR, AlphaZero...) and tests run on any ``.rules`` or GDL file.

How a GDL step becomes OpenSpiel nodes. In GDL every role, nature
included, picks a move in every state and the joint move makes the next
state. Here:

- the players move first: in a sequential game the one player with a
  choice (more than one legal move) moves at a player node; in a
  simultaneous game all players move at once at a simultaneous node (a
  player without a choice gives its one legal move). Players without a
  choice make their only move without a node of their own.
- then, where nature has more than one outcome, a chance node draws it with
  the probabilities the rules declare (``weight``); the players have not
  seen it when they choose, as in GDL, where they choose at the same time.
- then the joint move is applied. A step where nobody has a choice is still
  one node (of the first player, or a simultaneous node), so every step
  of ``tabula perft`` is one step here.

A game is simultaneous when, in some state, two players have a choice at
once. ``load_game`` finds this out by random playouts (``survey``
playouts, seeded); pass ``simultaneous=`` to decide yourself. A sequential
game that meets two players with a choice raises ``TabulaError``.

Actions: player ``p``'s action ``a`` is the move of index ``a`` in
``game.moves[role]`` (so ``num_distinct_actions`` is the longest move
list); a chance outcome is nature's move index. Returns are the goals
(0 to 100) at the end, 0 before. Observations and information states show
the full state (the true base facts, and the moves already chosen in the
current step): GDL-II ``sees`` is not read yet, so every game is exposed
with perfect information.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any, Mapping

import numpy as np
import pyspiel

import tabula

_registered = itertools.count()


def load_game(
    path: str | Path,
    params: Mapping[str, int | str] | None = None,
    simultaneous: bool | None = None,
    engine: str | None = None,
    max_steps: int = 10_000,
    survey: int = 20,
) -> pyspiel.Game:
    """Loads a tabula game as a registered ``pyspiel`` game.

    ``params`` and ``engine`` are those of ``tabula.load``; ``simultaneous``
    None means: decided by ``survey`` random playouts. ``max_steps`` bounds
    the game's length for OpenSpiel's ``max_game_length``.
    """
    game = tabula.load(path, params or {}, engine)
    if simultaneous is None:
        simultaneous = game.players_choose_at_once(survey, 1, max_steps)
    name = f"tabula_{_short(Path(path).stem)}_{next(_registered)}"
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"tabula {game.title or Path(path).stem}",
        dynamics=(
            pyspiel.GameType.Dynamics.SIMULTANEOUS
            if simultaneous
            else pyspiel.GameType.Dynamics.SEQUENTIAL
        ),
        chance_mode=(
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
            if game.nature is not None
            else pyspiel.GameType.ChanceMode.DETERMINISTIC
        ),
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=len(game.players),
        min_num_players=len(game.players),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={},
    )
    nodes_per_step = 2 if game.nature is not None else 1
    game_info = pyspiel.GameInfo(
        num_distinct_actions=max(len(game.moves[p]) for p in game.players),
        max_chance_outcomes=len(game.moves[game.nature]) if game.nature else 0,
        num_players=len(game.players),
        min_utility=0.0,
        max_utility=100.0,
        utility_sum=None,
        max_game_length=max_steps * nodes_per_step,
    )

    class Registered(TabulaGame):
        """The game class pyspiel constructs for this registration."""

        def __init__(self, params: Mapping[str, Any] | None = None) -> None:
            super().__init__(game, game_type, game_info, simultaneous, params)

    pyspiel.register_game(game_type, Registered)
    return pyspiel.load_game(name)


def _short(stem: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in stem)


class _Layout:
    """The game's players, nature and moves, read once (each read of a
    ``tabula.Game`` property builds its list); shared, never copied."""

    def __init__(self, game: tabula.Game) -> None:
        self.players = game.players
        self.nature = game.nature
        self.moves = game.moves

    def __deepcopy__(self, memo: dict) -> _Layout:
        return self


class TabulaGame(pyspiel.Game):
    """A tabula game seen by OpenSpiel; ``tabula_game`` is the tabula ``Game``."""

    def __init__(
        self,
        game: tabula.Game,
        game_type: pyspiel.GameType,
        game_info: pyspiel.GameInfo,
        simultaneous: bool,
        params: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(game_type, game_info, dict(params or {}))
        self.tabula_game = game
        self.simultaneous = simultaneous
        self.layout = _Layout(game)

    def new_initial_state(self) -> TabulaState:
        return TabulaState(self, self.tabula_game.initial())

    def make_py_observer(self, iig_obs_type=None, params=None) -> TabulaObserver:
        return TabulaObserver(self.tabula_game)


class TabulaState(pyspiel.State):
    """A tabula state and the moves already chosen in the current step.

    ``tabula_state`` is the tabula ``State``; ``steps`` counts the joint
    moves applied (a step of ``tabula perft``).
    """

    def __init__(self, game: TabulaGame, state: tabula.State) -> None:
        super().__init__(game)
        self._tabula = game.layout
        self._simultaneous = game.simultaneous
        self.tabula_state = state
        self.steps = 0
        self._chosen: dict[str, int] = {}
        self._players_moved = False

    # The node of the current step.

    def _choosing(self) -> list[int]:
        """The players (indices) with more than one legal move."""
        s = self.tabula_state
        return [
            i for i, p in enumerate(self._tabula.players) if len(s.legal_indices(p)) > 1
        ]

    def _nature_chooses(self) -> bool:
        nature = self._tabula.nature
        return nature is not None and len(self.tabula_state.legal_indices(nature)) > 1

    def current_player(self) -> int:
        if self.tabula_state.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if self._players_moved:
            return pyspiel.PlayerId.CHANCE
        if self._simultaneous:
            if not self._choosing() and self._nature_chooses():
                return pyspiel.PlayerId.CHANCE
            return pyspiel.PlayerId.SIMULTANEOUS
        choosing = self._choosing()
        if len(choosing) > 1:
            names = ", ".join(self._tabula.players[i] for i in choosing)
            raise tabula.TabulaError(
                f"{names} choose at once here: load the game with simultaneous=True"
            )
        if choosing:
            return choosing[0]
        return pyspiel.PlayerId.CHANCE if self._nature_chooses() else 0

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self.tabula_state.legal_indices(self._tabula.players[player]))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return sorted(self.tabula_state.chance_indices())

    def _apply_action(self, action: int) -> None:
        player = self.current_player()
        if player == pyspiel.PlayerId.CHANCE:
            self._chosen[self._tabula.nature] = action
            self._step()
            return
        self._chosen[self._tabula.players[player]] = action
        self._players_moved = True
        if not self._nature_chooses():
            self._step()

    def _apply_actions(self, actions: list[int]) -> None:
        for role, action in zip(self._tabula.players, actions):
            self._chosen[role] = action
        self._players_moved = True
        if not self._nature_chooses():
            self._step()

    def _step(self) -> None:
        """Applies the joint move (roles without a choice make their only move)."""
        self.tabula_state = self.tabula_state.apply(self._chosen)
        self._chosen = {}
        self._players_moved = False
        self.steps += 1

    def _action_to_string(self, player: int, action: int) -> str:
        role = self._tabula.nature if player < 0 else self._tabula.players[player]
        return f"{role}: {self._tabula.moves[role][action]}"

    def is_terminal(self) -> bool:
        return self.tabula_state.is_terminal()

    def returns(self) -> list[float]:
        if not self.tabula_state.is_terminal():
            return [0.0] * len(self._tabula.players)
        goals = self.tabula_state.goals()
        return [float(goals[p]) for p in self._tabula.players]

    def __str__(self) -> str:
        chosen = " ".join(
            f"{role}={self._tabula.moves[role][m]}" for role, m in self._chosen.items()
        )
        return f"{self.tabula_state}" + (f" | chosen: {chosen}" if chosen else "")


class TabulaObserver:
    """The full state for every player: a tensor of the true base facts and
    of each player's move chosen in the current step (one-hot), and its text."""

    def __init__(self, game: tabula.Game) -> None:
        self._game = game
        facts = len(game.base_facts)
        sizes = [len(game.moves[p]) for p in game.players]
        self.tensor = np.zeros(facts + sum(sizes), np.float32)
        self.dict = {"facts": self.tensor[:facts]}
        self._chosen_views = {}
        start = facts
        for player, size in zip(game.players, sizes):
            view = self.tensor[start : start + size]
            self.dict[f"chosen_{player}"] = view
            self._chosen_views[player] = view
            start += size

    def set_from(self, state: TabulaState, player: int) -> None:
        self.tensor.fill(0.0)
        self.dict["facts"][:] = state.tabula_state.to_numpy()
        for role, move in state._chosen.items():
            if role in self._chosen_views:
                self._chosen_views[role][move] = 1.0

    def string_from(self, state: TabulaState, player: int) -> str:
        return str(state)
