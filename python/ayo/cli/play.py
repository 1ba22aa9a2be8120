"""``ayo play``: a game against the computer, or two players at one terminal.

Keys (on a terminal, read one press at a time): 1 to 6 sow the mover's pits
in sowing order; the left and right arrows move a cursor and Enter (or
space) sows the cursor's pit, whose whole move is told beforehand (the
preview: laps, the last seed's pit, marked ``*``, and what is taken);
``u`` takes back a move (against the computer: your last move and its
reply); ``h`` asks the analysis for a hint; ``q`` quits. After a game, ``y``
plays again with the same rules and level and the colours swapped. Without
a terminal, commands are read a line at a time (``3``, ``u``, ``h``, ``q``,
``y``), so a game can be scripted.

Each sowing is animated lap by lap from the engine's trace (any key skips);
``--no-animation`` or output that is not a terminal prints each move in
words instead. The legal moves, sowing, captures and the end of the game all
come from the rules engine, and the computer's moves and hints from
:mod:`ayo.ai`. Pits are numbered 1 to 6 from the mover's side everywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ayo import Game, Outcome, Rules
from ayo.ai import Player
from ayo.cli.analyze import fallback_words, move_text
from ayo.cli.animation import animate
from ayo.cli.board import View, draw
from ayo.cli.common import describe_outcome
from ayo.cli.keys import KeyReader
from ayo.cli.levels import level_words
from ayo.cli.move_words import move_words, preview_words, why_illegal
from ayo.cli.scoreboard import Scoreboard
from ayo.cli.screen import KEEP, Screen
from ayo.display.words import possessive

__all__ = ["HINT_LEVEL", "TWO_PLAYER_NAMES", "Session", "play_game"]

#: The level whose analysis answers ``h``: the strongest.
HINT_LEVEL = "max"

#: The two people of ``--players 2``; Player 1 moves first in the first game.
TWO_PLAYER_NAMES = ("Player 1", "Player 2")

_HELP_RAW = "1-6 sow · ←/→ choose and Enter sows · u undo · h hint · q quit"
_HELP_LINES = "type 1-6 (the mover's pits), u (undo), h (hint) or q (quit), then Enter"
_AGAIN_RAW = "y play again (colours swapped) · q quit"
_AGAIN_LINES = "type y to play again (colours swapped) or q to quit, then Enter"


@dataclass
class Session:
    """One game of ``ayo play``.

    Attributes:
        game: the game (the engine's).
        names: the seats' labels (South's, North's): "You" and "Computer", or
            "Player 1" and "Player 2".
        bottom: the seat drawn along the bottom (yours; Player 1's).
        computer: the computer's player, or None for two players.
        computer_seat: the computer's seat (None for two players).
        keys: where key presses come from.
        screen: where the board is drawn.
        header: the title lines above the board.
        animation: whether sowings are animated.
        delay: seconds per animation frame.
        hint_player: the player whose analysis answers ``h``.
    """

    game: Game
    names: tuple[str, str]
    bottom: int
    computer: Callable[[Game], int] | None
    computer_seat: int | None
    keys: KeyReader
    screen: Screen
    header: list[str] = field(default_factory=list)
    animation: bool = True
    delay: float = 0.35
    hint_player: Player | None = None
    cursor: int = 0
    message: list[str] = field(default_factory=list)
    movers: list[int] = field(default_factory=list)

    def _is_human(self, seat: int) -> bool:
        return seat != self.computer_seat

    def _last_pit(self) -> int | None:
        moves = self.game.moves
        return int(moves[-1]) if moves else None

    def _help(self) -> str:
        return _HELP_RAW if self.keys.raw else _HELP_LINES

    def draw(self, *, prompt: bool) -> None:
        """Draw the board, the preview of the cursor's move, messages and help."""
        game, screen = self.game, self.screen
        mover = int(game.to_move)
        cursor = landing = None
        if prompt:
            cursor = mover * 6 + self.cursor
            if game.is_legal(self.cursor):
                landing = game.last_landing(self.cursor)
        view = View(
            board=[int(s) for s in game.board],
            stores=[int(s) for s in game.stores],
            bottom=self.bottom,
            names=self.names,
            to_move=None if game.is_over else mover,
            cursor=cursor,
            landing=landing,
            last=self._last_pit(),
        )
        lines = [*self.header, *draw(view, screen.style), ""]
        for line in self.message:
            lines += screen.wrap(line)
        if prompt:
            who = "Your move." if self.computer is not None else f"{self.names[mover]}, your move."
            lines += screen.wrap(f"{who} {preview_words(game, self.cursor, self.names)}")
            lines += screen.wrap(self._help())
        screen.show(lines)

    def _play(self, action: int) -> None:
        """Play ``action`` for the player to move, animated or told in words."""
        game = self.game
        words = move_words(game, action, self.names)
        if self.animation:
            animate(
                self.screen,
                game,
                action,
                header=self.header,
                bottom=self.bottom,
                names=self.names,
                keys=self.keys,
                delay=self.delay,
            )
        self.movers.append(int(game.to_move))
        game.play(action)
        self.message.append(words + ".")

    def _undo(self) -> None:
        if not any(self._is_human(seat) for seat in self.movers):
            self.message = [
                "Nothing to undo: no move has been played yet."
                if self.computer is None
                else "Nothing to undo: you have not moved yet."
            ]
            return
        taken = []
        while self.movers:
            who = self.movers.pop()
            self.game.undo()
            taken.append(who)
            if self._is_human(who):
                break
        if self.computer is None:
            self.message = [f"Took back {possessive(self.names[taken[-1]])} move."]
            return
        self.message = [
            "Took back your move and the computer's reply."
            if len(taken) > 1
            else "Took back your move."
        ]

    def _hint(self) -> None:
        player = self.hint_player or Player(HINT_LEVEL)
        self.screen.say("Looking for a hint…")
        a = player.analyze(self.game)
        if a.best is None:
            self.message = ["No hint: there is no move to play."]
            return
        self.cursor = a.best
        others = ", ".join(
            f"{m.action + 1}:{KEEP}{move_text(m.text, m.value, m.basis)}" for m in a.moves
        )
        pv = " ".join(str(x + 1) for x in a.pv)
        value = move_text(a.text, a.value, a.basis)
        self.message = [
            f"Hint: play {a.best + 1} (value {value} seeds; {a.label}).",
            f"  Expected line: {pv}. Each move: {others}.",
        ]
        fallback = fallback_words(player)
        if fallback is not None:
            self.message.append(f"  {fallback}")

    def _human_turn(self) -> int | None:
        """The human's action, or None to quit; -1 after an undo."""
        game = self.game
        legal = game.legal_moves()
        if not game.is_legal(self.cursor):
            self.cursor = legal[0]
        while True:
            self.draw(prompt=True)
            self.message = []
            key = self.keys.read()
            if key is None:
                continue
            if key in ("q", "eof"):
                return None
            if key in ("1", "2", "3", "4", "5", "6"):
                action = int(key) - 1
                why = why_illegal(game, action, self.names)
                if why is None:
                    return action
                self.cursor = action
                self.message = [f"Pit {key} cannot be played: {why}. Choose another pit."]
            elif key in ("left", "right", "up", "down"):
                step = 1 if key in ("right", "up") else -1
                self.cursor = (self.cursor + step) % 6
            elif key == "enter":
                why = why_illegal(game, self.cursor, self.names)
                if why is None:
                    return self.cursor
                self.message = [f"Pit {self.cursor + 1} cannot be played: {why}."]
            elif key == "u":
                self._undo()
                return -1
            elif key == "h":
                self._hint()
            else:
                shown = key.removeprefix("other:")
                self.message = [f"The key {shown!r} does nothing here. Keys: {_HELP_RAW}"]
                if not self.keys.raw:
                    self.message = [f"{shown!r} is not a command: {_HELP_LINES}"]

    def run(self) -> Outcome | None:
        """Play to the end; the outcome, or None when a person quits."""
        game = self.game
        while not game.is_over:
            if self.computer is None or game.to_move != self.computer_seat:
                action = self._human_turn()
                if action is None:
                    return None
                if action < 0:
                    continue
                self.message = []
                self._play(action)
            else:
                self.draw(prompt=False)
                self.screen.say("The computer is thinking…")
                self._play(self.computer(game))
        return game.outcome


@dataclass
class _Tally:
    """Games won by each person (or you and the computer) in this session, and draws."""

    names: tuple[str, str]
    wins: dict[str, int] = field(default_factory=dict)
    draws: int = 0
    games: int = 0

    def add(self, outcome: Outcome, names: Sequence[str]) -> None:
        self.games += 1
        if outcome.winner is None:
            self.draws += 1
        else:
            who = names[outcome.winner]
            self.wins[who] = self.wins.get(who, 0) + 1

    def line(self) -> str:
        won = ", ".join(f"{n} {self.wins.get(n, 0)}" for n in self.names)
        return f"Games won this session: {won}, draws {self.draws}."


def _ask_again(keys: KeyReader, screen: Screen) -> bool:
    """Whether to play again: ``y``; ``q``, ``n`` or the end of input quit."""
    screen.say("Play again? " + (_AGAIN_RAW if keys.raw else _AGAIN_LINES))
    while True:
        key = keys.read()
        if key == "y":
            return True
        if key in ("q", "n", "eof"):
            return False
        if key is not None:
            screen.say(_AGAIN_RAW if keys.raw else _AGAIN_LINES)


def play_game(
    *,
    rules: Rules,
    rules_name: str,
    level: str,
    first: str,
    seed: int,
    keys: KeyReader,
    screen: Screen,
    animation: bool,
    delay: float,
    scoreboard: Scoreboard,
    computer: Player | None = None,
    notices: Sequence[str] = (),
    players: int = 1,
) -> int:
    """Run ``ayo play``, game after game while the player asks for another; the exit status.

    ``players`` is 1 (against the computer at ``level``) or 2 (two people,
    Player 1 first; no scoreboard). ``computer`` is the computer's player
    when already made (level perfect; default ``Player(level, seed)``): with
    two players it only gives hints. ``notices`` are lines shown under the
    board before the first move. Each new game swaps the colours.
    """
    starter = rules.first_player
    two = players == 2
    if computer is None and not two:
        computer = Player(level, seed=seed)
    database = computer.database if computer is not None else None
    hint = (
        Player(HINT_LEVEL, seed=seed) if database is None else Player.perfect(database, seed=seed)
    )
    first_seat = starter if two or first == "human" else 1 - starter
    tally = _Tally(TWO_PLAYER_NAMES if two else ("You", "Computer"))
    message = list(notices)
    number = 0
    while True:
        # Player 1 (you, against the computer) takes the other seat each new game.
        seat = first_seat if number % 2 == 0 else 1 - first_seat
        names = _names(seat, two)
        best = None if two else scoreboard.best(rules_name)
        session = Session(
            game=Game(rules),
            names=names,
            bottom=seat,
            computer=None if two else computer,
            computer_seat=None if two else 1 - seat,
            keys=keys,
            screen=screen,
            header=_header(screen, rules, rules_name, level, two, best, number, tally),
            animation=animation,
            delay=delay,
            hint_player=hint,
            message=message,
        )
        message = []
        outcome = session.run()
        if outcome is None:
            session.draw(prompt=False)
            screen.say(
                "The game was left unfinished."
                if two
                else "You left the game; it is not counted on the scoreboard."
            )
            return 0
        game = session.game
        tally.add(outcome, names)
        session.message.append(describe_outcome(outcome, rules, names, stuck=int(game.to_move)))
        session.draw(prompt=False)
        screen.say_whole(f"Game record: {game.record()}")
        if not two:
            for line in _score_lines(scoreboard, outcome, level, rules_name, seat):
                screen.say(line)
        screen.say(tally.line())
        if not _ask_again(keys, screen):
            return 0
        number += 1


def _names(seat: int, two: bool) -> tuple[str, str]:
    """South's and North's labels when Player 1 (or you) sits at ``seat``."""
    me, other = TWO_PLAYER_NAMES if two else ("You", "Computer")
    return (me, other) if seat == 0 else (other, me)


def _header(
    screen: Screen,
    rules: Rules,
    rules_name: str,
    level: str,
    two: bool,
    best: int | None,
    number: int,
    tally: _Tally,
) -> list[str]:
    st = screen.style
    game_no = f" · game {number + 1}" if number else ""
    title = f"{st.bold}Ayo{st.reset} · rules {rules_name}"
    if two:
        lines = screen.wrap(f"{title} · two players{game_no}")
    else:
        shown = "none yet" if best is None else str(best)
        lines = [
            *screen.wrap(
                f"{title} · computer level {level}{game_no} · personal best ({rules_name}): {shown}"
            ),
            *screen.wrap(_sentence(level_words(level, rules))),
        ]
    if tally.games:
        lines += screen.wrap(tally.line())
    return [*lines, ""]


def _score_lines(
    board: Scoreboard, outcome: Outcome, level: str, rules_name: str, human: int
) -> list[str]:
    lines = []
    before = board.best(rules_name)
    win = board.record_game(level, rules_name, outcome.scores, human)
    if win is not None:
        at_level = board.wins_of(rules_name, level)
        lines.append(
            f"A win at level {level} with {win.seeds} seeds "
            f"({len(at_level)} win{'s' if len(at_level) != 1 else ''} at this level "
            f"under the rules {rules_name})."
        )
        if before is None or win.seeds > before:
            lines.append(f"New personal best under the rules {rules_name}: {win.seeds} seeds!")
    problem = board.save()
    if problem:
        lines.append(f"ayo: {problem}")
    best = board.best(rules_name)
    lines.append(
        f"Personal best under the rules {rules_name}: "
        f"{best if best is not None else 'none yet'} (ayo scores)"
    )
    return lines


def _sentence(words: str) -> str:
    return words[:1].upper() + words[1:] + "."
