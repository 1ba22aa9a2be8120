"""The subcommands other than ``play``: rules, analyze, replay, watch, arena, scores.

Each takes parsed arguments and returns an exit status. The rules text is
generated from the :class:`ayo.Rules` parameters (one sentence a parameter,
in RULES.md's words); analysis and games come from :mod:`ayo.ai` and the
engine; the arena only counts results and fits ratings.
"""

from __future__ import annotations

import math
import sys
import textwrap
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TextIO

from ayo import Game, RecordError, Rules
from ayo.ai import Analysis, Player
from ayo.cli.board import Style, View, draw
from ayo.cli.common import SEAT_NAMES, UsageError, describe_outcome, move_words
from ayo.cli.keys import KeyReader
from ayo.cli.play import Screen, animate
from ayo.cli.scoreboard import Scoreboard

__all__ = [
    "analyze",
    "arena",
    "elo_table",
    "game_from_position",
    "player_spec",
    "replay",
    "rules_text",
    "scores",
    "watch",
]

_PRESET_TITLES = {
    "ayoayo": "Ayoayo (Russ 1984): relay sowing with captures across",
    "ayo": "Ayo (the web app's standard rules): relay sowing, collect on 4",
    "olopon": "Ayò Ọlọ́pọ́n: single-lap sowing, 2-or-3 captures",
    "oware": "Oware (abapa): single-lap sowing, 2-or-3 captures, repetition ends the game",
}


def rules_text(rules: Rules) -> list[str]:
    """The rules in words: a title, then one sentence for each parameter."""
    name = rules.preset
    title = _PRESET_TITLES.get(name or "", f"Rules based on {name}" if name else "Custom rules")
    lines = [f"{title}.", ""]
    seeds = rules.seeds_per_pit
    lines.append(
        f"- Start: {seeds} seed{'s' if seeds != 1 else ''} in each of the 12 pits "
        f"({rules.total_seeds} in all), both stores empty; each player owns the six "
        "pits nearest them, numbered 1 to 6 in sowing (anticlockwise) order."
    )
    lines.append(f"- {SEAT_NAMES[rules.first_player]} moves first.")
    lines.append(
        "- Relay sowing: when the last seed of a lap lands in a pit that was occupied "
        "before it, the mover lifts every seed of that pit and starts a new lap from the "
        "next pit (a move that would relay forever is not legal)."
        if rules.relay
        else "- Single-lap sowing: the mover lifts every seed of one of their pits and "
        "drops them one per pit; the move ends with the last seed (no relay)."
    )
    capture = rules.capture
    if capture == "across":
        taken = (
            "plus the capturing seed"
            if rules.capturing_seed_taken
            else "(the capturing seed stays in its pit)"
        )
        lines.append(
            "- Capture across: when the last seed lands in an empty pit of the mover's "
            f"own row and the facing pit holds seeds, the mover captures them {taken}."
        )
    elif capture == "two_three":
        lines.append(
            "- Capture of 2 or 3: if the last seed lands in the opponent's row and makes "
            "that pit hold 2 or 3, the mover captures it and then, walking backwards, "
            "each directly preceding opponent pit holding 2 or 3, stopping at the first "
            "that does not; the move ends."
        )
    else:
        lines.append(
            "- Collect on 4: every drop (mid-lap or last, either row) that makes a pit hold "
            "exactly 4 takes those 4 out at once, and sowing goes on with the seeds still "
            "in hand; a pit that already held 4 becomes 5 and stays."
        )
    if capture == "collect_four":
        lines.append(
            "- Every 4 collected goes to the mover."
            if rules.fours_to == "mover"
            else "- A 4 made mid-lap goes to the owner of that pit's row; a 4 made by the "
            "last seed goes to the mover."
        )
    lines.append(
        "- A lap of twelve or more seeds skips the pit it was lifted from."
        if rules.skip_origin
        else "- A lap of twelve or more seeds sows into the pit it was lifted from like "
        "any other pit."
    )
    if capture != "collect_four":
        lines.append(
            "- Grand slam: a capture that would leave the opponent's row empty stands."
            if rules.grand_slam == "allowed"
            else "- Grand slam: a move whose capture would leave the opponent's row empty "
            "is legal and is sown, but nothing is captured."
        )
    feeding = rules.feeding
    if feeding == "strict":
        lines.append(
            "- Feeding: when the opponent's row is empty, only moves that leave seeds in it "
            "after sowing and capture are legal (there may be none)."
        )
    elif feeding == "if_possible":
        lines.append(
            "- Feeding: when the opponent's row is empty, you must play a move that gives "
            "them seeds if one exists."
        )
    else:
        lines.append("- Feeding: no move is required to give seeds to an empty row.")
    target = rules.target
    lines.append(
        f"- A player whose store holds at least {target} seeds wins at once."
        if target is not None
        else "- There is no target: the game is played until it ends."
    )
    limit = rules.move_limit
    lines.append(
        f"- After {limit} moves in a row with nothing captured, the game ends and each "
        "player takes the seeds in their own row."
        if limit is not None
        else "- There is no move limit."
    )
    lines.append(
        "- Repetition: a position (board, stores, player to move) that has already occurred "
        "since the last capture ends the game, and each player takes the seeds in their "
        "own row."
        if rules.repetition == "own_side"
        else "- A repeated position does not end the game."
    )
    lines.append(
        "- A player with no legal move ends the game; the seeds left on the board go to "
        "the other player (the end-game sweep)."
        if rules.stuck_seeds == "to_opponent"
        else "- A player with no legal move ends the game; each player takes the seeds in "
        "their own row."
    )
    half = rules.total_seeds // 2
    lines.append(f"- The higher store wins; equal stores ({half}-{half}) are a draw.")
    return lines


def rules_cmd(rules: Rules | None, out: TextIO) -> int:
    """``ayo rules``: one preset's rules, or every preset's."""
    chosen = [rules] if rules is not None else [Rules(name) for name in Rules.presets()]
    for i, r in enumerate(chosen):
        if i:
            out.write("\n")
        for line in rules_text(r):
            out.write(textwrap.fill(line, 78, subsequent_indent="  ") + "\n" if line else "\n")
    return 0


def game_from_position(text: str) -> Game:
    """The game at a position record; :class:`UsageError` when it is not one."""
    try:
        return Game(position=text)
    except RecordError as e:
        raise UsageError(f"not a position record: {e}") from None


def _print_board(out: TextIO, game: Game, style: Style, last: int | None = None) -> None:
    view = View(
        board=[int(s) for s in game.board],
        stores=[int(s) for s in game.stores],
        bottom=0,
        to_move=None if game.is_over else game.to_move,
        last=last,
    )
    out.write("\n".join(draw(view, style)) + "\n")


def _analysis_lines(game: Game, a: Analysis, player: Player) -> list[str]:
    mover = SEAT_NAMES[game.to_move]
    if a.best is None:
        return [f"No move to analyse: {a.text} for {mover}."]
    pv = " ".join(str(x + 1) for x in a.pv)
    by = f"{'level ' if player.level and player.kind != 'perfect' else ''}{player.name}"
    lines = [
        f"Analysis by {by}: depth {a.depth}, {a.nodes} nodes.",
        f"Best move: {a.best + 1} ({mover}), value {a.text} for {mover} ({a.bound}).",
        f"Principal variation: {pv}",
        "Each legal move:",
    ]
    for m in a.moves:
        mark = "  <- best" if m.action == a.best else ""
        lines.append(f"  {m.action + 1}: {m.text:>12} ({m.bound}){mark}")
    return lines


def analyze(text: str, player: Player, style: Style, out: TextIO) -> int:
    """``ayo analyze``: best move, value, PV and the value of each move."""
    game = game_from_position(text)
    _print_board(out, game, style)
    if game.outcome is not None:
        out.write(f"{game.position_record()}\n\nThe game is over. ")
        out.write(describe_outcome(game.outcome, game.rules, stuck=game.to_move) + "\n")
        return 0
    out.write(f"{SEAT_NAMES[game.to_move]} to move · {game.position_record()}\n\n")
    out.write("\n".join(_analysis_lines(game, player.analyze(game), player)) + "\n")
    source = player.source
    if source is not None and source in _SOURCES:
        out.write(_SOURCES[source] + "\n")
    return 0


# Where a perfect player's answer came from (Player.source), in words.
_SOURCES = {
    "database": "Exact: every move's value read from the databases.",
    "search": "Exact: searched above the databases.",
    "fallback": "The databases and the exact search could not answer within the budget: "
    "this is level max's analysis.",
}


def replay(text: str, style: Style, out: TextIO, keys: KeyReader | None) -> int:
    """``ayo replay``: each move in words with the board after it.

    With ``keys`` (``--step``), waits for a key between moves (``q`` stops).
    """
    try:
        final = Game.from_record(text)
    except RecordError as e:
        raise UsageError(f"not a game record: {e}") from None
    start = text.split("|", 1)[0].strip()
    game = Game(position=start)
    out.write(f"Start: {start}\n")
    _print_board(out, game, style)
    for i, pit in enumerate(final.moves, 1):
        if keys is not None:
            out.write("(any key: next move, q: stop)\n")
            out.flush()
            if keys.read() in ("q", "eof"):
                return 0
        action = int(pit) % 6
        out.write(f"\n{i}. {move_words(game, action)}\n")
        game.play(action)
        _print_board(out, game, style, last=int(pit))
    if game.outcome is not None:
        out.write("\n" + describe_outcome(game.outcome, game.rules, stuck=game.to_move) + "\n")
    else:
        out.write(f"\n{SEAT_NAMES[game.to_move]} to move after {len(final.moves)} moves.\n")
    return 0


def watch(
    rules: Rules,
    levels: Sequence[str],
    seed: int,
    delay: float,
    screen: Screen,
    keys: KeyReader | None,
    animation: bool,
    players: Sequence[Player] | None = None,
) -> int:
    """``ayo watch``: level ``levels[0]`` (South) against ``levels[1]`` (North).

    ``players`` are the two players when already made (level perfect).
    """
    if players is None:
        players = [Player(levels[0], seed=seed), Player(levels[1], seed=seed + 1)]
    names = (f"Level {levels[0]}", f"Level {levels[1]}")
    game = Game(rules)
    style = screen.style
    header = [f"{style.bold}Ayo{style.reset} · watching level {levels[0]} against {levels[1]}", ""]
    last: int | None = None
    said = ""
    while not game.is_over:
        view = View(
            board=[int(s) for s in game.board],
            stores=[int(s) for s in game.stores],
            names=names,
            to_move=game.to_move,
            last=last,
        )
        screen.show([*header, *draw(view, style), "", said])
        action = players[game.to_move].choose(game)
        said = move_words(game, action, names)
        if animation and keys is not None:
            animate(
                screen, game, action, header=header, bottom=0, names=names, keys=keys, delay=delay
            )
        elif delay > 0:
            if keys is not None:
                keys.read(timeout=delay)
            else:
                time.sleep(delay)
        last = action + 6 * game.to_move
        game.play(action)
    view = View(
        board=[int(s) for s in game.board],
        stores=[int(s) for s in game.stores],
        names=names,
        last=last,
    )
    outcome = game.outcome
    assert outcome is not None
    screen.show(
        [
            *header,
            *draw(view, style),
            "",
            said,
            describe_outcome(outcome, rules, names, stuck=game.to_move),
        ]
    )
    screen.say(f"Game record: {game.record()}")
    return 0


@dataclass
class _Pair:
    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.5


def _elo(score: float) -> float:
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400.0 * math.log10(1.0 / score - 1.0)


def _elo_interval(pair: _Pair) -> tuple[float, float, float]:
    """The Elo difference and its 95% interval, from the score with one virtual draw.

    The virtual draw (half a point in one more game) keeps a clean sweep
    finite; the interval is the normal approximation of the score.
    """
    n = pair.games + 1
    s = (pair.wins + 0.5 * pair.draws + 0.5) / n
    half = 1.96 * math.sqrt(s * (1 - s) / n)
    lo = _elo(s - half) if s - half > 0 else -math.inf
    hi = _elo(s + half) if s + half < 1 else math.inf
    return _elo(s), lo, hi


def elo_table(names: Sequence[str], results: dict[tuple[int, int], _Pair]) -> list[float]:
    """Ratings (Elo scale, the first level at 0) fitted to every pair's score.

    A Bradley-Terry fit by the minorisation-maximisation iteration, with one
    virtual draw against each opponent so that a clean sweep stays finite.
    """
    k = len(names)
    strength = [1.0] * k
    for _ in range(2000):
        new = []
        for i in range(k):
            won, denom = 0.0, 0.0
            for j in range(k):
                if i == j:
                    continue
                p = results.get((i, j)) if (i, j) in results else None
                q = results.get((j, i))
                n, w = 1.0, 0.5  # the virtual draw
                if p is not None:
                    n += p.games
                    w += p.wins + 0.5 * p.draws
                if q is not None:
                    n += q.games
                    w += q.losses + 0.5 * q.draws
                won += w
                denom += n / (strength[i] + strength[j])
            new.append(won / denom if denom else strength[i])
        norm = new[0]
        new = [x / norm for x in new]
        delta = max(abs(a - b) for a, b in zip(new, strength, strict=True))
        strength = new
        if delta < 1e-10:
            break
    return [400.0 * math.log10(x) for x in strength]


def player_spec(spec: str, seed: int, perfect: Player | None = None) -> Player:
    """A player from a spec: a level (``3``, ``L3``, ``max``) or ``kind[:budget]``.

    ``kind`` is random, greedy, alphabeta or mcts; ``budget`` is ``depth=N``,
    ``nodes=N`` or ``time=S`` (seconds). ``perfect`` is a new player over the
    databases of the player ``perfect`` (or like it, when it fell back to
    level max). Raises :class:`UsageError`.
    """
    text = spec.strip().lower()
    if text == "perfect":
        if perfect is None:
            raise UsageError(f"player {spec!r}: level perfect needs databases")
        if perfect.database is None:
            return Player(str(perfect.level), seed=seed)
        return Player.perfect(perfect.database, seed=seed)
    try:
        if ":" not in text and text not in ("random", "greedy", "alphabeta", "mcts"):
            return Player(text.removeprefix("l"), seed=seed)
        kind, _, budget = text.partition(":")
        if not budget:
            return Player.from_kind(kind, seed=seed)  # type: ignore[arg-type]
        key, sep, value = budget.partition("=")
        if not sep or key not in ("depth", "nodes", "time"):
            raise UsageError(f"player {spec!r}: the budget is depth=N, nodes=N or time=SECONDS")
        number = float(value) if key == "time" else int(value)
        return Player.from_kind(kind, seed=seed, **{key: number})  # type: ignore[arg-type]
    except ValueError as e:
        raise UsageError(f"player {spec!r}: {e}") from None


def _play_one(
    rules: Rules, south: Player, north: Player, opening: Sequence[int], ply_cap: int
) -> int | None:
    """One game after the ``opening`` actions; the winner (None: a draw or the cap)."""
    game = Game(rules)
    game.ply_cap = ply_cap
    for action in opening:
        if game.status != "ongoing":
            break
        game.play(action)
    seats = (south, north)
    while game.status == "ongoing":
        game.play(seats[game.to_move].choose(game))
    outcome = game.outcome
    return outcome.winner if outcome is not None else None


def _opening(rules: Rules, plies: int, seed: int) -> list[int]:
    """``plies`` uniformly random moves (ayo.ai's random player, seeded)."""
    game = Game(rules)
    chooser = Player(1, seed=seed)
    actions = []
    for _ in range(plies):
        if game.is_over:
            break
        action = chooser.choose(game)
        game.play(action)
        actions.append(action)
    return actions


def arena(
    rules: Rules,
    specs: Sequence[str],
    games: int,
    seed: int,
    out: TextIO,
    openings: int = 2,
    ply_cap: int = 500,
    perfect: Player | None = None,
) -> int:
    """``ayo arena``: a round robin, colours alternated, with an Elo table.

    Games ``2k`` and ``2k+1`` of a pair start from the same ``openings``
    random plies (seed ``seed + k``) with the colours swapped; the players
    of game ``g`` have seeds ``seed + g`` and ``seed + g + 7919``.
    ``perfect`` is the player that ``perfect`` in ``specs`` stands for.
    """
    if len(specs) < 2:
        raise UsageError("--levels needs at least two levels or players")
    for spec in specs:
        player_spec(spec, seed, perfect)  # every spec is checked before any game
    results: dict[tuple[int, int], _Pair] = {}
    started = time.monotonic()
    name = rules.preset or "custom"
    out.write(
        f"Arena: {' '.join(specs)}; {games} games a pair, colours alternated, "
        f"{openings} random opening plies; rules {name}\n"
        "Each row: the first player's wins, draws and losses, score, and Elo difference "
        "with a 95% interval (one virtual draw added).\n"
    )
    width = max(len(x) for x in specs)
    for i in range(len(specs)):
        for j in range(i + 1, len(specs)):
            pair = _Pair()
            for g in range(games):
                a = player_spec(specs[i], seed + g, perfect)
                b = player_spec(specs[j], seed + g + 7919, perfect)
                a_south = g % 2 == 0
                south, north = (a, b) if a_south else (b, a)
                opening = _opening(rules, openings, seed + g // 2)
                winner = _play_one(rules, south, north, opening, ply_cap)
                if winner is None:
                    pair.draws += 1
                elif (winner == 0) == a_south:
                    pair.wins += 1
                else:
                    pair.losses += 1
            results[(i, j)] = pair
            elo, lo, hi = _elo_interval(pair)
            out.write(
                f"  {specs[i]:<{width}} vs {specs[j]:<{width}}  "
                f"+{pair.wins} ={pair.draws} -{pair.losses}  score {pair.score:.3f}  "
                f"Elo {elo:+.0f} [{lo:+.0f}, {hi:+.0f}]\n"
            )
            out.flush()
    ratings = elo_table(specs, results)
    out.write(f"\nRatings (Elo, {specs[0]} = 0):\n")
    for k in sorted(range(len(specs)), key=lambda k: -ratings[k]):
        out.write(f"  {specs[k]:<{width}}  {ratings[k]:+7.0f}\n")
    out.write(f"\n{len(results) * games} games in {time.monotonic() - started:.1f}s\n")
    return 0


def scores(board: Scoreboard, out: TextIO) -> int:
    """``ayo scores``: the scoreboard."""
    if board.problem:
        sys.stderr.write(f"ayo: {board.problem}\n")
    out.write("\n".join(board.table()) + "\n")
    out.write(f"({board.path})\n")
    return 0
