"""tabula from Python: load a game description, play it, count it, search it.

The engine is tabula's own (the Rust crate, compiled into ``tabula._tabula``);
this package adds no game logic. ``tabula.openspiel`` makes a game an
OpenSpiel game, ``tabula.pettingzoo`` a PettingZoo AEC environment, and
``tabula.distributed`` runs ``tabula analyze`` over a Ray cluster.

    >>> import tabula
    >>> game = tabula.load("games/pawn_whopping.rules")
    >>> state = game.initial()
    >>> state = state.apply({"x": state.legal("x")[0]})
"""

from ._tabula import Game, State, TabulaError, load, mcts

__all__ = ["Game", "State", "TabulaError", "load", "mcts"]
