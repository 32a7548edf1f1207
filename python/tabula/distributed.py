"""``tabula analyze`` over a Ray cluster.

``analyze(base, variant=None, ...)`` splits a game's random playouts into
ranges and its MCTS self-play into single games, runs them as Ray tasks
(each worker process loads a game once and keeps it), and gathers the
report of ``tabula analyze --json``: lengths, draws, branching, each
role's mean goal under random play and under self-play with its 95%
confidence interval, wins, draws and losses per seat.

Reproducible whatever the number of workers: random playout ``i`` draws
from a generator seeded by ``(seed, i)`` and self-play game ``g`` uses seed
``seed + g``, as in the CLI, and the parts are merged in playout and game
order; so the report equals ``tabula analyze --json`` with the same seed
and counts, except the times and speeds (here the wall-clock time of the
whole run).

On one machine ``address=None`` starts a local Ray instance (or uses the
one already started in this process); on a cluster started with
``ray start --head`` pass ``address="auto"`` (on a machine of the cluster)
or the head's ``"HOST:6379"``. Every machine needs tabula installed and the
game files at the same path.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any, Mapping

import ray

import tabula

#: Games loaded in this worker process, by (path, parameters, engine).
_loaded: dict[tuple, tabula.Game] = {}


def _game(path: str, params: tuple, engine: str | None) -> tabula.Game:
    key = (path, params, engine)
    if key not in _loaded:
        _loaded[key] = tabula.load(path, dict(params), engine)
    return _loaded[key]


@ray.remote
def _random_play(path, params, engine, first, count, seed, max_steps):
    return _game(path, params, engine)._random_play(first, count, seed, max_steps)


@ray.remote
def _self_play(path, params, engine, game, iterations, seed, max_steps):
    return _game(path, params, engine)._self_play(game, 1, iterations, seed, max_steps)


def analyze(
    base: str | Path,
    variant: str | Path | None = None,
    playouts: int = 1000,
    mcts_games: int = 10,
    mcts_iterations: int = 100,
    seed: int = 1,
    max_steps: int = 10_000,
    params: Mapping[str, int | str] | None = None,
    engine: str | None = None,
    address: str | None = None,
    chunk: int | None = None,
    progress: bool = True,
) -> dict[str, Any]:
    """The report of ``tabula analyze --json`` for ``base`` (and, with
    ``variant``, ``{"base": ..., "variant": ...}``), computed by Ray tasks.

    ``playouts`` random playouts and ``mcts_games`` games of
    ``mcts:mcts_iterations`` self-play per game (0: none); ``chunk``
    playouts per task (default: about 8 tasks per CPU of the cluster).
    ``progress`` prints the tasks done on stderr.
    """
    if playouts < 1:
        raise ValueError("playouts must be at least 1")
    if not ray.is_initialized():
        ray.init(address=address, log_to_driver=False)
    files = [base] if variant is None else [base, variant]
    reports = [
        _analyze_one(
            str(f), playouts, mcts_games, mcts_iterations, seed, max_steps,
            params or {}, engine, chunk, progress,
        )
        for f in files
    ]
    if variant is None:
        return reports[0]
    return {"base": reports[0], "variant": reports[1]}


def _analyze_one(
    path: str,
    playouts: int,
    mcts_games: int,
    iterations: int,
    seed: int,
    max_steps: int,
    params: Mapping[str, int | str],
    engine: str | None,
    chunk: int | None,
    progress: bool,
) -> dict[str, Any]:
    started = time.monotonic()
    game = tabula.load(path, params, engine)  # Fails here, once, if the file is invalid.
    frozen = tuple(sorted((k, str(v)) for k, v in params.items()))
    if chunk is None:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        chunk = max(1, -(-playouts // (8 * cpus)))
    random_tasks = [
        _random_play.remote(path, frozen, engine, first, min(chunk, playouts - first), seed, max_steps)
        for first in range(0, playouts, chunk)
    ]
    game_tasks = [
        _self_play.remote(path, frozen, engine, g, iterations, seed, max_steps)
        for g in range(mcts_games)
    ]
    _wait(path, random_tasks, game_tasks, progress)
    random_parts = ray.get(random_tasks)
    self_play_parts = ray.get(game_tasks)
    not_run = "--mcts-games 0" if mcts_games == 0 else None
    seconds = time.monotonic() - started
    return json.loads(
        game._report(path, random_parts, self_play_parts, not_run, iterations, seconds)
    )


def _wait(path: str, random_tasks: list, game_tasks: list, progress: bool) -> None:
    """Waits for every task, printing how many of each kind are done."""
    kinds = {t: "random" for t in random_tasks} | {t: "games" for t in game_tasks}
    pending = list(kinds)
    done = {"random": 0, "games": 0}
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        for t in ready:
            done[kinds[t]] += 1
        # On a terminal the line is redrawn after each task; elsewhere it
        # is printed once, at the end.
        if progress and (sys.stderr.isatty() or not pending):
            print(
                f"\r{path}: random playout tasks {done['random']}/{len(random_tasks)}, "
                f"self-play games {done['games']}/{len(game_tasks)}",
                end="" if pending else "\n",
                file=sys.stderr,
                flush=True,
            )
