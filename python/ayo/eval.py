"""How strong is an agent? Round robins, Bradley-Terry ratings, and grades against perfect play.

* :func:`round_robin` plays every pair of agents with colours alternated
  (games ``2k`` and ``2k+1`` of a pair start from the same random opening
  with the seats swapped) and returns a :class:`Tournament`.
* :meth:`Tournament.ratings` fits a Bradley-Terry model (on the Elo scale)
  to every game played, anchored at one agent (``"random"`` = 0 by default),
  with a confidence interval for each rating.
* :func:`move_accuracy` grades an agent's choices against perfect play: the
  share of positions where it picks an optimal move and the mean seeds it
  gives away, over positions with exact values from :mod:`ayo.datasets`.

An agent is anything that maps a :class:`ayo.Game` to an action 0..5 (the
player to move's pit): an :class:`ayo.ai.Player`, a network's greedy policy,
any Python callable; or a level given by name (``"random"``, ``"1"`` ..
``"8"``, ``"max"``, ``"learned"``), made afresh for each game with that game's seed.
:class:`Seeded` wraps a factory ``seed -> agent`` so that other agents get
per-game seeds too.

    >>> import ayo.eval
    >>> t = ayo.eval.round_robin({"random": "random", "3": "3"}, "oware", games=4, seed=1)
    >>> [r.name for r in t.ratings()]
    ['3', 'random']
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from ayo._ayo import AyoError, Game, Player, Rules

if TYPE_CHECKING:
    from ayo.datasets import PositionSet

__all__ = [
    "Accuracy",
    "Agent",
    "PairResult",
    "Rating",
    "Seeded",
    "Tournament",
    "bradley_terry",
    "move_accuracy",
    "round_robin",
]

#: An agent: the action (0..5, relative to the player to move) it plays in a game.
Agent = Callable[[Game], int]

#: Level names accepted as agents; ``"random"`` is level 1.
_LEVEL_ALIASES = {"random": "1"}

#: How far a Bradley-Terry fit iterates (it stops earlier once settled).
_FIT_ROUNDS = 10_000


@dataclass(frozen=True)
class Seeded:
    """An agent made afresh for each game from that game's seed (``factory(seed)``)."""

    factory: Callable[[int], Agent]


AgentSpec = str | Agent | Seeded


@dataclass
class PairResult:
    """Games between two agents, counted for the first: wins, draws, losses."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        """Games played."""
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """Points per game for the first agent (a draw is half a point); 0.5 before any game."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.5

    def elo(self, confidence: float = 0.95) -> tuple[float, float, float]:
        """The first agent's Elo difference and its interval, from the score with one virtual draw.

        The virtual draw (half a point in one more game) keeps a clean sweep
        finite; the interval is the normal approximation of the score
        (infinite where it reaches 0 or 1).
        """
        n = self.games + 1
        s = (self.wins + 0.5 * self.draws + 0.5) / n
        half = NormalDist().inv_cdf(0.5 + confidence / 2) * math.sqrt(s * (1 - s) / n)
        lo = _elo_of_score(s - half) if s - half > 0 else -math.inf
        hi = _elo_of_score(s + half) if s + half < 1 else math.inf
        return _elo_of_score(s), lo, hi


def _elo_of_score(score: float) -> float:
    return -400.0 * math.log10(1.0 / score - 1.0)


@dataclass(frozen=True)
class Rating:
    """One agent's rating on the Elo scale, with its interval, relative to the anchor."""

    name: str
    elo: float
    low: float
    high: float
    games: int


@dataclass
class Tournament:
    """The games of a round robin: ``pairs[(i, j)]`` counts them for ``names[i]``, ``i < j``."""

    names: list[str]
    pairs: dict[tuple[int, int], PairResult] = field(default_factory=dict)

    def ratings(self, anchor: str | None = None, confidence: float = 0.95) -> list[Rating]:
        """Bradley-Terry ratings, strongest first, ``anchor`` at 0.

        ``anchor`` defaults to ``"random"`` when an agent has that name,
        else the first agent. Intervals are ``confidence`` (two-sided) from
        the fit's observed information; see :func:`bradley_terry`.
        """
        if anchor is None:
            anchor = "random" if "random" in self.names else self.names[0]
        if anchor not in self.names:
            raise AyoError(f"anchor {anchor!r} is not one of the agents {self.names}")
        elo, se = bradley_terry(self.names, self.pairs, self.names.index(anchor))
        if not 0.0 < confidence < 1.0:
            raise AyoError(f"confidence must be between 0 and 1, not {confidence!r}")
        z = NormalDist().inv_cdf(0.5 + confidence / 2)
        games = [0] * len(self.names)
        for (i, j), pair in self.pairs.items():
            games[i] += pair.games
            games[j] += pair.games
        rows = [
            Rating(name, e, e - z * s, e + z * s, g)
            for name, e, s, g in zip(self.names, elo, se, games, strict=True)
        ]
        return sorted(rows, key=lambda r: -r.elo)

    def table(self, anchor: str | None = None, confidence: float = 0.95) -> str:
        """The ratings as a markdown table."""
        lines = [
            f"| agent | Elo | {confidence:.0%} interval | games |",
            "|---|---:|---:|---:|",
        ]
        for r in self.ratings(anchor, confidence):
            lines.append(f"| {r.name} | {r.elo:+.0f} | {r.low:+.0f} .. {r.high:+.0f} | {r.games} |")
        return "\n".join(lines)


def bradley_terry(
    names: Sequence[str],
    pairs: Mapping[tuple[int, int], PairResult],
    anchor: int = 0,
    prior_draws: float = 1.0,
) -> tuple[list[float], list[float]]:
    """Elo-scale Bradley-Terry ratings and their standard errors, ``names[anchor]`` at 0.

    A draw counts half a win and half a loss. ``prior_draws`` virtual draws
    are added to every pair that played, so that a clean sweep stays finite
    (the fit is then a maximum a posteriori estimate). The strengths are
    fitted by the minorisation-maximisation iteration; the standard errors
    come from the inverse of the observed information with the anchor held
    fixed (so the anchor's own error is 0). Every agent must be linked to the
    anchor by games, else ``AyoError``.
    """
    k = len(names)
    if not 0 <= anchor < k:
        raise AyoError(f"anchor index {anchor} is out of range for {k} agents")
    n = np.zeros((k, k))
    w = np.zeros((k, k))  # w[i, j]: points of i against j
    for (i, j), pair in pairs.items():
        if pair.games == 0:
            continue
        games = pair.games + prior_draws
        n[i, j] += games
        n[j, i] += games
        w[i, j] += pair.wins + 0.5 * pair.draws + 0.5 * prior_draws
        w[j, i] += pair.losses + 0.5 * pair.draws + 0.5 * prior_draws
    _check_linked(names, n, anchor)
    won = w.sum(axis=1)
    strength = np.ones(k)
    for _ in range(_FIT_ROUNDS):
        denom = (n / (strength[:, None] + strength[None, :])).sum(axis=1)
        new = np.where(denom > 0, won / np.where(denom > 0, denom, 1.0), strength)
        new /= new[anchor]
        settled = np.max(np.abs(np.log(new) - np.log(strength))) < 1e-12
        strength = new
        if settled:
            break
    theta = np.log(strength)
    p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))  # p[i, j]: i beats j
    info = -n * p * (1.0 - p)
    info[np.diag_indices(k)] = -info.sum(axis=1)
    free = [i for i in range(k) if i != anchor]
    var = np.zeros(k)
    if free:
        cov = np.linalg.inv(info[np.ix_(free, free)])
        var[free] = np.diag(cov)
    scale = 400.0 / math.log(10.0)
    elo = [float(scale * t) for t in theta]
    se = [float(scale * math.sqrt(max(v, 0.0))) for v in var]
    return elo, se


def _check_linked(names: Sequence[str], n: np.ndarray[Any, Any], anchor: int) -> None:
    """Every agent reachable from the anchor through pairs that played."""
    seen = {anchor}
    todo = [anchor]
    while todo:
        i = todo.pop()
        for j in np.flatnonzero(n[i]):
            if int(j) not in seen:
                seen.add(int(j))
                todo.append(int(j))
    missing = [names[i] for i in range(len(names)) if i not in seen]
    if missing:
        raise AyoError(f"no games link {missing} to the anchor {names[anchor]!r}: cannot rate them")


def _agent_for(name: str, spec: AgentSpec, seed: int) -> Agent:
    """The agent ``spec`` stands for in a game of seed ``seed``."""
    if isinstance(spec, Seeded):
        return spec.factory(seed)
    if isinstance(spec, str):
        level = _LEVEL_ALIASES.get(spec, spec)
        try:
            return Player(level, seed=seed)
        except (ValueError, OverflowError):
            raise AyoError(
                f"agent {name!r}: {spec!r} is not a level "
                f"(random, {', '.join(Player.levels())}, learned); pass a Player or a callable"
            ) from None
    if callable(spec):
        return spec
    raise AyoError(f"agent {name!r} is {spec!r}: not a level name, a callable or Seeded")


def _action_of(name: str, agent: Agent, game: Game) -> int:
    """The agent's action, checked: an int (or numpy integer) that is legal here."""
    action = agent(game)
    if isinstance(action, bool) or not isinstance(action, int | np.integer):
        raise AyoError(f"agent {name!r} returned {action!r}: an action is an int 0..5")
    if not game.is_legal(int(action)):
        raise AyoError(
            f"agent {name!r} played {int(action)}, not legal in {game.position_record()} "
            f"(legal: {game.legal_moves()})"
        )
    return int(action)


def _seed(base: int, k: int) -> int:
    return (base + k) % 2**64


def _opening(rules: Rules, plies: int, seed: int) -> list[int]:
    """``plies`` uniformly random moves (level 1, seeded); fewer if the game ends."""
    game = Game(rules)
    chooser = Player("1", seed=seed)
    actions = []
    for _ in range(plies):
        if game.is_over:
            break
        action = chooser.choose(game)
        game.play(action)
        actions.append(action)
    return actions


def play_game(
    rules: Rules,
    south: tuple[str, Agent],
    north: tuple[str, Agent],
    opening: Sequence[int] = (),
    ply_cap: int | None = 500,
) -> int | None:
    """One game after the ``opening`` actions: the winner's seat, or None (a draw or the cap)."""
    game = Game(rules)
    game.ply_cap = ply_cap
    for action in opening:
        if game.status != "ongoing":
            break
        game.play(action)
    seats = (south, north)
    while game.status == "ongoing":
        name, agent = seats[game.to_move]
        game.play(_action_of(name, agent, game))
    outcome = game.outcome
    return outcome.winner if outcome is not None else None


def round_robin(
    agents: Mapping[str, AgentSpec],
    rules: Rules | str = "oware",
    games: int = 20,
    seed: int = 0,
    openings: int = 2,
    ply_cap: int | None = 500,
    progress: Callable[[str, str, PairResult], None] | None = None,
    pairs: Literal["all", "adjacent"] = "all",
) -> Tournament:
    """Every pair of ``agents`` plays ``games`` games, colours alternated.

    ``pairs="adjacent"`` plays only each agent against the next one in
    ``agents``' order (a ladder: fewer games, and still every agent linked
    to every other for the ratings).

    Games ``2k`` and ``2k+1`` of a pair start from the same ``openings``
    random plies (seed ``seed + k``) with the seats swapped; the agents of
    game ``g`` get seeds ``seed + g`` (the pair's first) and
    ``seed + g + 7919``. A game still going after ``ply_cap`` plies is a
    draw. ``progress(first, second, result)`` is called after each pair.
    An agent's illegal or non-integer action raises ``AyoError`` naming it.
    """
    if isinstance(rules, str):
        rules = Rules(rules)
    names = list(agents)
    if len(names) < 2:
        raise AyoError("a round robin needs at least two agents")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise AyoError(f"games must be a positive int, not {games!r}")
    if isinstance(openings, bool) or not isinstance(openings, int) or not 0 <= openings <= 1000:
        raise AyoError(f"openings must be an int 0..1000, not {openings!r}")
    if pairs not in ("all", "adjacent"):
        raise AyoError(f"pairs must be 'all' or 'adjacent', not {pairs!r}")
    for name in names:  # every spec checked before any game
        _agent_for(name, agents[name], seed)
    tournament = Tournament(names)
    for i in range(len(names)):
        for j in range(i + 1, len(names) if pairs == "all" else min(i + 2, len(names))):
            pair = PairResult()
            for g in range(games):
                a = (names[i], _agent_for(names[i], agents[names[i]], _seed(seed, g)))
                b = (names[j], _agent_for(names[j], agents[names[j]], _seed(seed, g + 7919)))
                a_south = g % 2 == 0
                south, north = (a, b) if a_south else (b, a)
                opening = _opening(rules, openings, _seed(seed, g // 2))
                winner = play_game(rules, south, north, opening, ply_cap)
                if winner is None:
                    pair.draws += 1
                elif (winner == 0) == a_south:
                    pair.wins += 1
                else:
                    pair.losses += 1
            tournament.pairs[(i, j)] = pair
            if progress is not None:
                progress(names[i], names[j], pair)
    return tournament


@dataclass(frozen=True)
class Accuracy:
    """An agent graded against perfect play."""

    #: Positions graded.
    positions: int
    #: Share of positions where the agent chose an optimal move ("perfect-move accuracy").
    accuracy: float
    #: Mean seeds given away: the best move's exact value minus the chosen move's.
    mean_seed_loss: float


def move_accuracy(agent: Agent, positions: PositionSet) -> Accuracy:
    """Grade ``agent``'s choice in each position against the exact move values.

    ``positions`` comes from :func:`ayo.datasets.sample` or
    :func:`ayo.datasets.from_positions`. The agent sees a fresh
    :class:`ayo.Game` at each position (no history before it).
    """
    if len(positions) == 0:
        raise AyoError("move_accuracy needs at least one position")
    chosen = np.array(
        [_action_of("agent", agent, game) for game in positions.games()], dtype=np.int64
    )
    rows = np.arange(len(positions))
    hits = positions.optimal[rows, chosen]
    loss = positions.values.astype(np.int64) - positions.move_values[rows, chosen]
    return Accuracy(len(positions), float(hits.mean()), float(loss.mean()))
