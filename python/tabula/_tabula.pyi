"""Type stubs of the compiled module (python/src/lib.rs)."""

from os import PathLike
from typing import Any, Mapping, Sequence

import numpy as np
import numpy.typing as npt

Move = str | int
"""A move as its text (``"move(1, 2)"``) or its move index in ``Game.moves[role]``."""
Role = str | int
"""A role by name or by its index in ``Game.roles``."""

class TabulaError(Exception):
    """An invalid game, move or state.

    ``code`` (such as ``"E0101"``, None for a move or engine error), ``file``,
    ``line`` and ``column`` (None where the error points at no place) and
    ``message`` describe the first error; ``diagnostics`` lists every
    diagnostic of a game that failed to load (dicts with ``severity``,
    ``code``, ``file``, ``line``, ``column``, ``message``). ``str()`` is the
    rendered text, as ``tabula check`` prints it.
    """

    code: str | None
    file: str | None
    line: int | None
    column: int | None
    message: str
    diagnostics: list[dict[str, Any]]

def load(
    path: str | PathLike[str],
    params: Mapping[str, int | str] | None = None,
    engine: str | None = None,
) -> Game:
    """Loads, checks, grounds and compiles a game (``.rules``, ``.kif``, ``.gdl``).

    ``params`` sets parameters of a native game; ``engine`` is
    ``"reference"``, ``"incremental"`` or ``"rules"`` (None: tabula's choice).
    Raises ``TabulaError`` for an invalid or unreadable file.
    """

def mcts(
    state: State,
    role: Role,
    iterations: int | None = None,
    seconds: float | None = None,
    threads: int = 1,
    seed: int = 1,
) -> str:
    """The best move of ``role`` by Monte Carlo tree search (UCT), as text.

    The budget is ``iterations`` playouts or ``seconds`` of thinking (default
    1000 iterations). Deterministic for a seed, an iteration budget and a
    thread count. Releases the GIL while searching.
    """

class Game:
    """A compiled game; shareable between threads."""

    @property
    def path(self) -> str: ...
    @property
    def title(self) -> str | None: ...
    @property
    def roles(self) -> list[str]:
        """Every role, nature included; joint moves follow this order."""
    @property
    def players(self) -> list[str]:
        """The roles that choose (every role but nature)."""
    @property
    def nature(self) -> str | None:
        """Nature's role (``random``), or None in a game without chance."""
    @property
    def params(self) -> dict[str, int | str]:
        """Parameters and their values, in declaration order."""
    @property
    def base_facts(self) -> list[str]:
        """Every fact a state can hold: the order of ``State.to_numpy``."""
    @property
    def moves(self) -> dict[str, list[str]]:
        """Per role, every move it can ever make; list positions are move indices."""
    @property
    def warnings(self) -> list[dict[str, Any]]:
        """The checks' warnings, as ``TabulaError.diagnostics``."""
    @property
    def engine(self) -> str:
        """``"reference"``, ``"incremental"`` or ``"rules"``."""
    def initial(self) -> State: ...
    def state(self, facts: Sequence[str]) -> State:
        """The state where exactly these facts hold."""
    def from_numpy(self, array: npt.ArrayLike) -> State:
        """The inverse of ``State.to_numpy``."""
    def playouts(
        self, n: int, seed: int = 1, threads: int = 1, max_steps: int = 10000
    ) -> dict[str, Any]:
        """``n`` random playouts: playouts, unfinished, draws, mean_length,
        mean_goals (per player), seconds, playouts_per_second.

        Playout i draws from a generator seeded by (seed, i), so the figures
        do not depend on ``threads``. Releases the GIL.
        """
    def perft(self, depth: int) -> list[dict[str, int]]:
        """``tabula perft``: per depth 0..depth, its leaves and distinct states."""
    def players_choose_at_once(self, playouts: int, seed: int, max_steps: int) -> bool:
        """Whether random playouts meet a state where two players have a choice at once."""
    def _random_play(
        self, first: int, count: int, seed: int, max_steps: int
    ) -> dict[str, Any]: ...
    def _self_play(
        self, first: int, games: int, iterations: int, seed: int, max_steps: int
    ) -> list[dict[str, Any]]: ...
    def _report(
        self,
        file: str,
        random_parts: Sequence[dict[str, Any]],
        self_play_parts: Sequence[Sequence[dict[str, Any]]],
        not_run: str | None,
        iterations: int,
        seconds: float,
    ) -> str: ...

class State:
    """A game state: immutable, hashable, equal to the same state of the same game."""

    @property
    def game(self) -> Game: ...
    def is_terminal(self) -> bool: ...
    def legal(self, role: Role) -> list[str]: ...
    def legal_indices(self, role: Role) -> list[int]:
        """Legal moves as indices into ``Game.moves[role]``."""
    def legal_mask(self, role: Role) -> npt.NDArray[np.bool_]:
        """A bool array over ``Game.moves[role]``, true at the legal moves."""
    def goals(self) -> dict[str, int]:
        """Each role's goal (nature only where it has one)."""
    def chance(self) -> list[tuple[str, float]]:
        """Nature's outcomes with their probabilities (empty where nature does not choose)."""
    def chance_indices(self) -> list[tuple[int, float]]: ...
    def apply(self, moves: Mapping[Role, Move] | Sequence[Move]) -> State:
        """The next state after a joint move; roles with one legal move may be left out."""
    def facts(self) -> list[str]: ...
    def to_numpy(self) -> npt.NDArray[np.bool_]:
        """A bool array over ``Game.base_facts``."""
