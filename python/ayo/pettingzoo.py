"""A PettingZoo AEC environment for Ayo: both seats are agents.

>>> from ayo.pettingzoo import env
>>> e = env(rules="oware")
>>> e.reset(seed=0)
>>> e.agent_selection
'player_0'

Agents are ``"player_0"`` (South, pits 0..5, moves first) and ``"player_1"``
(North). Each observation is a dict with ``"observation"`` (``float32`` seed
counts, shape ``(14,)``: with the default ``perspective="mover"`` the
observing agent's own row, the other row, its store, the other store) and
``"action_mask"`` (``int8``, shape ``(6,)``, all 0 unless it is that agent's
turn). Actions are 0..5, the acting agent's own pits in sowing order.

The turn loop (whose move, the rewards of both agents, illegal actions,
truncation) is the Rust core's ``ayo_core::episode`` in self-play, through
:class:`ayo._ayo.EpisodeCore`, as for the Gymnasium environments; this module
only shapes it as PettingZoo's AEC API. Unlike PettingZoo's classic games, ``copy.deepcopy`` and
``pickle`` keep a game in progress: the engine's ``Game`` carries its whole
history.

Requires the ``pettingzoo`` extra (``pip install ".[pettingzoo]"`` from a clone).
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ayo._extras import missing_extra

try:
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as e:
    raise missing_extra("pettingzoo", "pettingzoo", e) from None

from ayo import display
from ayo._args import real_arg, seed_arg
from ayo._ayo import AyoError, EpisodeCore, EpisodeOverError, Game, Rules

__all__ = ["AGENTS", "env", "raw_env"]

AGENTS = ("player_0", "player_1")

Observation = dict[str, Any]


def env(**kwargs: Any) -> AECEnv[str, Observation, int]:
    """A :class:`raw_env` inside PettingZoo's order-enforcing wrapper.

    Keyword arguments go to :class:`raw_env`. The wrapper checks that
    ``reset`` comes before ``step``, ``observe`` and ``render``
    (``EpisodeOverError``, an :class:`ayo.AyoError`, otherwise); :class:`raw_env` itself
    checks the actions (:class:`ayo.AyoError`, a ``ValueError``), where
    PettingZoo's ``AssertOutOfBoundsWrapper`` would raise ``AssertionError``
    (and nothing under ``python -O``).
    """
    e: AECEnv[str, Observation, int] = raw_env(**kwargs)
    return _OrderEnforcing(e)


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]  # untyped base
    """PettingZoo's order checks, raising ``EpisodeOverError`` (a ``ValueError``)
    where PettingZoo's own raise ``AssertionError``."""

    def _check_reset(self) -> None:
        if not self._has_reset:
            raise EpisodeOverError("call reset() first")

    def step(self, action: int | None) -> None:
        """As PettingZoo's, once reset."""
        self._check_reset()
        super().step(action)

    def observe(self, agent: str) -> Observation | None:
        """As PettingZoo's, once reset."""
        self._check_reset()
        return super().observe(agent)  # type: ignore[no-any-return]

    def render(self) -> Any:
        """As PettingZoo's, once reset."""
        self._check_reset()
        return super().render()


class raw_env(AECEnv[str, Observation, int]):  # type: ignore[misc]  # untyped base
    """Two-player Ayo as an AEC environment.

    Args:
        rules: a :class:`ayo.Rules` or a preset name.
        perspective: ``"mover"`` (each agent sees its own row first) or
            ``"absolute"`` (South's row, North's row, South's store, North's).
        reward: ``"win_loss"`` (+1/0/-1 to each agent when the game ends) or
            ``"seed_difference"`` (after every move, each agent gets the change
            in its store minus the other's; at the end the final scores are
            used, after any share-out of the seeds left on the board, so an
            agent's total is its final margin in seeds).
        illegal_action: ``"raise"`` (default: :class:`ayo.IllegalMoveError`,
            nothing changes) or ``"penalize"`` (the mover gets
            ``illegal_reward``, the other agent 0, and the game terminates; as
            PettingZoo's classic games do).
        illegal_reward: the mover's reward for a penalized illegal action.
        max_plies: truncate the episode after this many moves in all (both
            agents' moves count, from the episode's start), or ``None``. The default 400 matches the
            Gymnasium environment's 200 agent steps and is longer than any of
            8,000 measured random games (at most 311 plies); it is a safety
            net: ``ayoayo`` has no move limit or repetition rule, so nothing
            else bounds a game between players that avoid capturing.
        render_mode: ``None``, ``"ansi"`` or ``"rgb_array"``.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (gymnasium declares it so)
        "render_modes": ["ansi", "rgb_array"],
        "name": "ayo_v0",
        "is_parallelizable": False,
        "render_fps": 4,
    }

    def __init__(
        self,
        rules: Rules | str = "ayoayo",
        perspective: Literal["mover", "absolute"] = "mover",
        reward: Literal["win_loss", "seed_difference"] = "win_loss",
        illegal_action: Literal["raise", "penalize"] = "raise",
        illegal_reward: float = -1.0,
        max_plies: int | None = 400,
        render_mode: str | None = None,
    ) -> None:
        """Check the options and build the spaces (see the class docstring)."""
        super().__init__()
        self.rules = rules if isinstance(rules, Rules) else Rules(rules)
        if max_plies is not None and (isinstance(max_plies, bool) or max_plies < 1):
            raise ValueError(f"max_plies must be a positive integer or None, not {max_plies!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}"
            )
        # The core checks the other options (an AyoError, a ValueError, names the bad one).
        self._core = EpisodeCore(
            self.rules,
            opponent="self_play",
            perspective=perspective,
            reward=reward,
            illegal_action=illegal_action,
            illegal_penalty=real_arg(illegal_reward, "illegal_reward"),
            max_steps=max_plies,
        )
        self.perspective = perspective
        self.reward_kind = reward
        self.illegal_action = illegal_action
        self.illegal_reward = real_arg(illegal_reward, "illegal_reward")
        self.max_plies = max_plies
        self.render_mode = render_mode

        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        n = self.rules.num_actions
        self.action_spaces = {a: spaces.Discrete(n) for a in AGENTS}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(
                        0.0, float(self.rules.total_seeds), shape=(14,), dtype=np.float32
                    ),
                    "action_mask": spaces.Box(0, 1, shape=(n,), dtype=np.int8),
                }
            )
            for a in AGENTS
        }
        self._start_episode(None)

    @property
    def game(self) -> Game:
        """A copy of the game being played."""
        return self._core.game

    def _start_episode(self, game: Game | None) -> None:
        self._core.reset(game)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[self._core.to_move]
        self._refresh_masks()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same for both)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``: ``Discrete(6)``."""
        return self.action_spaces[agent]

    def _mask(self, agent: str) -> npt.NDArray[np.int8]:
        return self._core.observe_seat(AGENTS.index(agent))[1]

    def _refresh_masks(self) -> None:
        for agent in self.agents:
            self.infos[agent]["action_mask"] = self._mask(agent)

    def observe(self, agent: str) -> Observation:
        """``agent``'s observation of the current position."""
        board, mask = self._core.observe_seat(AGENTS.index(agent))
        return {"observation": board, "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game from the rules' start position.

        The game has no randomness: ``seed`` only seeds the agents' action
        spaces, so that ``action_space(agent).sample()`` is reproducible.
        ``options`` may hold ``"position"``, a position record to start from;
        any other key raises :class:`ayo.AyoError` (but ``"options"``, the
        key PettingZoo's ``api_test`` checks the parameter with).
        """
        seed = seed_arg(seed)
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise AyoError(f"options must be a dict or None, not {type(options).__name__}")
        # A misspelt key ("postion") must not start the usual game silently.
        # PettingZoo's api_test probes the parameter with {"options": 1}: that
        # one key of PettingZoo's own is let through, and means nothing.
        unknown = set(options) - {"position", "options"}
        if unknown:
            raise AyoError(
                f"unknown reset options: {sorted(unknown)} (the one option is 'position')"
            )
        position = options.get("position")
        game = Game(self.rules, position) if position is not None else None
        if game is not None and game.is_over:
            raise AyoError("the start position is already over")
        if seed is not None:
            for i, agent in enumerate(AGENTS):
                self.action_spaces[agent].seed(seed + i)
        self._start_episode(game)

    def step(self, action: int | None) -> None:
        """Play ``action`` (0..5) for ``agent_selection``.

        A dead agent's step (``None`` after the game ended) removes it, as the
        AEC API requires. An action that is not an integer 0..5 raises
        :class:`ayo.AyoError` (a ``ValueError``), whatever ``illegal_action``
        says; an illegal one raises :class:`ayo.IllegalMoveError` (state
        unchanged) or is penalized (``illegal_action``).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is playing: its action cannot be None")
        rewards, terminated, truncated, outcome, illegal = self._core.turn(action)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {name: float(rewards[seat]) for seat, name in enumerate(AGENTS)}
        if illegal is not None:
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos[agent]["illegal_action"] = int(illegal)
        elif terminated:
            self.terminations = dict.fromkeys(self.agents, True)
            for name in self.agents:
                self.infos[name]["outcome"] = outcome
        elif truncated:
            self.truncations = dict.fromkeys(self.agents, True)
        if illegal is None:
            self.agent_selection = AGENTS[self._core.to_move]
        self._refresh_masks()
        self._accumulate_rewards()

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """The board as text (``"ansi"``) or an RGB image (``"rgb_array"``)."""
        return display.render(self.game, self.render_mode)

    def close(self) -> None:
        """Nothing to release."""
