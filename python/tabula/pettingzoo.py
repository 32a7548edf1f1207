"""A tabula game as a PettingZoo AEC environment.

``env(path, params={})`` gives an ``AECEnv`` whose agents are the game's
players (nature is not an agent). At each step the agents with a choice
(more than one legal move) act one after another, in role order; when all
have chosen, the joint move is applied, with the only move of each agent
without a choice and nature's outcome drawn by its probabilities from the
environment's seeded generator. Steps where nobody has a choice are
applied at once. An agent's action is a move index into
``game.moves[agent]`` (``Discrete``); its observation is a dict with the
state as 0/1 over ``game.base_facts`` (``observation``) and the legal moves
as 0/1 (``action_mask``). At the end every agent's reward is its goal
(0 to 100); a game longer than ``max_steps`` joint moves is truncated.
"""

from __future__ import annotations

from pathlib import Path
from typing import Mapping

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import tabula


def env(
    path: str | Path,
    params: Mapping[str, int | str] | None = None,
    max_steps: int = 10_000,
) -> TabulaEnv:
    """Loads a game as a PettingZoo AEC environment."""
    return TabulaEnv(tabula.load(path, params or {}), max_steps)


class TabulaEnv(AECEnv):
    """The AEC environment of one tabula ``Game`` (``game``); ``position`` is
    the current tabula ``State``."""

    metadata = {"render_modes": ["ansi"], "name": "tabula_v0", "is_parallelizable": False}

    def __init__(
        self, game: tabula.Game, max_steps: int = 10_000, render_mode: str | None = None
    ) -> None:
        super().__init__()
        self.game = game
        self.max_steps = max_steps
        self.render_mode = render_mode
        self._moves = game.moves
        self.possible_agents = list(game.players)
        facts = len(game.base_facts)
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.MultiBinary(facts),
                    "action_mask": spaces.MultiBinary(len(self._moves[a])),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(len(self._moves[a])) for a in self.possible_agents}
        self.position = game.initial()
        self._np_random = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._np_random = np.random.default_rng(seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.position = self.game.initial()
        self.steps = 0
        self._chosen: dict[str, int] = {}
        self._advance()
        self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        mask = np.zeros(len(self._moves[agent]), np.int8)
        if agent in self._waiting():
            mask[self.position.legal_indices(agent)] = 1
        return {"observation": self.position.to_numpy().astype(np.int8), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action not in self.position.legal_indices(agent):
            raise ValueError(f"{action} is not a legal move index of {agent} here")
        self._cumulative_rewards[agent] = 0.0
        self._chosen[agent] = int(action)
        self.rewards = {a: 0.0 for a in self.agents}
        self._advance()
        self._accumulate_rewards()

    def _waiting(self) -> list[str]:
        """The agents with a choice here that have not chosen yet."""
        s = self.position
        if s.is_terminal():
            return []
        return [
            a for a in self.possible_agents if len(s.legal_indices(a)) > 1 and a not in self._chosen
        ]

    def _advance(self) -> None:
        """Applies joint moves while nobody is left to choose, then selects
        the next agent, or ends the game."""
        while not self.position.is_terminal() and self.steps < self.max_steps:
            waiting = self._waiting()
            if waiting:
                self.agent_selection = waiting[0]
                return
            joint = dict(self._chosen)
            nature = self.game.nature
            if nature is not None:
                outcomes = self.position.chance_indices()
                if outcomes:
                    moves, probabilities = zip(*outcomes)
                    joint[nature] = int(self._np_random.choice(moves, p=probabilities))
            self.position = self.position.apply(joint)
            self._chosen = {}
            self.steps += 1
        if self.position.is_terminal():
            goals = self.position.goals()
            self.rewards = {a: float(goals[a]) for a in self.agents}
            self.terminations = {a: True for a in self.agents}
        else:
            self.truncations = {a: True for a in self.agents}
        self.agent_selection = self.agents[0]

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return str(self.position)
        return None

    def close(self) -> None:
        pass
