"""``ayo play``: a game against the computer in the terminal (and ``ayo watch``).

Keys (on a terminal, read one press at a time): 1 to 6 sow your pits in
sowing order; the left and right arrows move a cursor and Enter (or space)
sows the cursor's pit, whose last seed's landing pit is marked beforehand;
``u`` takes back your last move and the computer's reply; ``h`` asks the
analysis for a hint; ``q`` quits. Without a terminal, commands are read a
line at a time (``3``, ``u``, ``h``, ``q``), so a game can be scripted.

Each sowing is animated lap by lap from the engine's trace (any key skips);
``--no-animation`` or output that is not a terminal prints each move in
words instead. The legal moves, landing pits, sowing, captures and the end of
the game all come from the rules engine, and the computer's moves and hints
from :mod:`ayo.ai`.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TextIO

from ayo import Game, IllegalMoveError, Outcome, Rules
from ayo.ai import Player
from ayo.cli.analyze import fallback_words
from ayo.cli.board import Style, View, draw
from ayo.cli.common import describe_outcome, move_words, pit_words
from ayo.cli.keys import KeyReader
from ayo.cli.scoreboard import Scoreboard
from ayo.display import frames

__all__ = ["HINT_LEVEL", "Screen", "Session", "animate", "caption_words"]

#: The level whose analysis answers ``h``: the strongest.
HINT_LEVEL = "max"

# The engine's reasons for refusing a move (IllegalMoveError.reason), in words.
_REASONS = {
    "empty_pit": "it is empty",
    "endless_relay": "its relays would go round forever",
    "does_not_feed": "it leaves the computer's empty row without seeds, and feeding is required",
}

_HELP_RAW = "1-6 sow · ←/→ choose and Enter sows · u undo · h hint · q quit"
_HELP_LINES = "type 1-6 (your pits), u (undo), h (hint) or q (quit), then Enter"


class Screen:
    """Writes whole screens: cleared and redrawn on a terminal, appended otherwise."""

    def __init__(self, out: TextIO, style: Style, clear: bool) -> None:
        """Write to ``out`` with ``style``; ``clear`` redraws in place."""
        self.out = out
        self.style = style
        self.clear = clear

    def show(self, lines: list[str]) -> None:
        """Draw ``lines`` as the new screen."""
        if self.clear:
            self.out.write("\x1b[H\x1b[2J")
        self.out.write("\n".join(lines) + "\n")
        if not self.clear:
            self.out.write("\n")
        self.out.flush()

    def say(self, line: str) -> None:
        """Write one line below what is shown."""
        self.out.write(line + "\n")
        self.out.flush()


def caption_words(caption: str, names: tuple[str, str]) -> str:
    """A sowing frame's caption with absolute pits named by owner and number."""

    def pits(m: re.Match[str]) -> str:
        if m.group(1) is not None:
            a, b = int(m.group(1)), int(m.group(2))
            return f"pits from {pit_words(a, names)} to {pit_words(b, names)}"
        return pit_words(int(m.group(3)), names)

    caption = re.sub(r"pits (\d+)\.\.(\d+)|pits? (\d+)\b", pits, caption)
    # Seats named in the caption ("North takes them") by their labels here.
    return re.sub(r"\b(South|North) (takes|captures)\b", lambda m: _seat(m, names), caption)


def _seat(m: re.Match[str], names: tuple[str, str]) -> str:
    name = names[0 if m.group(1) == "South" else 1]
    verb = m.group(2)
    return f"{name} {verb[:-1] if name == 'You' else verb}"


def animate(
    screen: Screen,
    game: Game,
    action: int,
    *,
    header: list[str],
    bottom: int,
    names: tuple[str, str],
    keys: KeyReader,
    delay: float,
) -> None:
    """Show the sowing of ``action`` (not yet played) lap by lap; a key skips.

    The frames are :func:`ayo.display.frames` of the engine's trace. A move
    with many laps is shown faster (at most about ten seconds in all).
    """
    steps = frames(game, action)[1:]
    if not steps:
        return
    pause = min(delay, 10.0 / len(steps))
    mover = game.to_move
    title = f"{names[mover]} play{'' if names[mover] == 'You' else 's'} {action + 1}"
    for frame in steps:
        view = View(
            board=frame.board,
            stores=frame.stores,
            bottom=bottom,
            names=names,
            to_move=mover,
            active=frame.pits,
            hand=frame.hand or None,
        )
        lines = [
            *header,
            *draw(view, screen.style),
            "",
            f"{title}: {caption_words(frame.caption, names)}",
        ]
        screen.show(lines)
        if keys.read(timeout=pause) is not None:
            return


@dataclass
class Session:
    """One game of ``ayo play``: the human at seat ``human`` against ``computer``.

    Attributes:
        game: the game (the engine's).
        human: the human's seat (0 South, 1 North), drawn at the bottom.
        computer: the computer's player (``ayo.ai.Player``).
        level: the computer's level, as shown and kept on the scoreboard.
        keys: where key presses come from.
        screen: where the board is drawn.
        animation: whether sowings are animated.
        delay: seconds per animation frame.
        hint_player: the player whose analysis answers ``h``.
    """

    game: Game
    human: int
    computer: Callable[[Game], int]
    level: str
    keys: KeyReader
    screen: Screen
    animation: bool = True
    delay: float = 0.35
    hint_player: Player | None = None
    cursor: int = 0
    message: list[str] = field(default_factory=list)
    movers: list[int] = field(default_factory=list)
    rules_name: str = "ayo"
    personal_best: int | None = None

    @property
    def names(self) -> tuple[str, str]:
        """The seats' labels: "You" and "Computer"."""
        return ("You", "Computer") if self.human == 0 else ("Computer", "You")

    def header(self) -> list[str]:
        """The title line."""
        st = self.screen.style
        best = "none yet" if self.personal_best is None else str(self.personal_best)
        return [
            f"{st.bold}Ayo{st.reset} · rules {self.rules_name} · computer level {self.level}"
            f" · personal best: {best}",
            "",
        ]

    def _last_pit(self) -> int | None:
        moves = self.game.moves
        return int(moves[-1]) if moves else None

    def draw(self, *, prompt: bool) -> None:
        """Draw the board, the cursor's landing pit, messages and help."""
        game, st = self.game, self.screen.style
        landing = None
        lines = self.header()
        cursor = None
        if prompt:
            cursor = self.cursor
            if game.is_legal(cursor):
                landing = game.last_landing(cursor)
        view = View(
            board=[int(s) for s in game.board],
            stores=[int(s) for s in game.stores],
            bottom=self.human,
            names=self.names,
            to_move=None if game.is_over else game.to_move,
            cursor=cursor,
            landing=landing,
            last=self._last_pit(),
        )
        lines += draw(view, st)
        lines.append("")
        lines += self.message
        if prompt:
            if landing is not None:
                lines.append(
                    f"Your move. Pit {self.cursor + 1}: the last seed lands in "
                    f"{pit_words(landing, self.names)} (marked *)."
                )
            else:
                lines.append(f"Your move. Pit {self.cursor + 1} cannot be played.")
            lines.append(_HELP_RAW if self.keys.raw else _HELP_LINES)
        self.screen.show(lines)

    def _legal_reason(self, action: int) -> str | None:
        """None when ``action`` is legal, else the engine's reason in words."""
        if self.game.is_legal(action):
            return None
        try:
            self.game.trace(action)
        except IllegalMoveError as e:
            return _REASONS.get(e.reason, str(e))
        return "not a legal move here"

    def _play(self, action: int) -> None:
        """Play ``action`` for the player to move, animated or told in words."""
        game = self.game
        words = move_words(game, action, self.names)
        if self.animation:
            animate(
                self.screen,
                game,
                action,
                header=self.header(),
                bottom=self.human,
                names=self.names,
                keys=self.keys,
                delay=self.delay,
            )
        self.movers.append(game.to_move)
        game.play(action)
        self.message.append(words + ".")

    def _undo(self) -> None:
        if self.human not in self.movers:
            self.message = ["Nothing to undo: you have not moved yet."]
            return
        taken = 0
        while self.movers:
            who = self.movers.pop()
            self.game.undo()
            taken += 1
            if who == self.human:
                break
        self.message = [
            "Took back your move and the computer's reply." if taken > 1 else "Took back your move."
        ]

    def _hint(self) -> None:
        player = self.hint_player or Player(HINT_LEVEL)
        self.screen.say("Looking for a hint…")
        a = player.analyze(self.game)
        if a.best is None:
            self.message = ["No hint: there is no move to play."]
            return
        self.cursor = a.best
        others = ", ".join(f"{m.action + 1}: {m.text}" for m in a.moves)
        pv = " ".join(str(x + 1) for x in a.pv)
        self.message = [
            f"Hint: play {a.best + 1} (value {a.text} seeds; {a.label}).",
            f"  Expected line: {pv}. Each move: {others}.",
        ]
        fallback = fallback_words(player)
        if fallback is not None:
            self.message.append(f"  {fallback}")

    def _human_turn(self) -> int | None:
        """The human's action, or None to quit."""
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
                why = self._legal_reason(action)
                if why is None:
                    return action
                self.cursor = action
                self.message = [f"Pit {key} cannot be played: {why}. Choose another pit."]
            elif key in ("left", "right", "up", "down"):
                step = 1 if key in ("right", "up") else -1
                self.cursor = (self.cursor + step) % 6
            elif key == "enter":
                why = self._legal_reason(self.cursor)
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
        """Play to the end; the outcome, or None when the human quits."""
        game = self.game
        while not game.is_over:
            if game.to_move == self.human:
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

    def stuck_seat(self) -> int | None:
        """The seat that had no legal move when the game ended that way."""
        return self.game.to_move if self.game.outcome is not None else None


def play_game(
    *,
    rules: Rules,
    rules_name: str,
    level: str,
    first: str,
    seed: int | None,
    keys: KeyReader,
    screen: Screen,
    animation: bool,
    delay: float,
    scoreboard: Scoreboard,
    computer: Player | None = None,
    notices: Sequence[str] = (),
) -> int:
    """Run ``ayo play``; the exit status.

    ``computer`` is the computer's player when already made (level perfect;
    default ``Player(level, seed)``), and ``notices`` are lines shown under
    the board before the first move.
    """
    game = Game(rules)
    starter = rules.first_player
    human = starter if first == "human" else 1 - starter
    seed = secrets.randbits(32) if seed is None else seed
    if computer is None:
        computer = Player(level, seed=seed)
    database = computer.database
    hint = (
        Player(HINT_LEVEL, seed=seed) if database is None else Player.perfect(database, seed=seed)
    )
    session = Session(
        game=game,
        human=human,
        computer=computer,
        level=level,
        keys=keys,
        screen=screen,
        animation=animation,
        delay=delay,
        hint_player=hint,
        rules_name=rules_name,
        personal_best=scoreboard.best(),
        message=list(notices),
    )
    outcome = session.run()
    if outcome is None:
        session.draw(prompt=False)
        screen.say("You left the game; it is not counted on the scoreboard.")
        return 0
    session.message.append(
        describe_outcome(outcome, rules, session.names, stuck=session.stuck_seat())
    )
    session.draw(prompt=False)
    screen.say(f"Game record: {game.record()}")
    for line in _score_lines(scoreboard, outcome, level, rules_name, human):
        screen.say(line)
    return 0


def _score_lines(
    board: Scoreboard, outcome: Outcome, level: str, rules_name: str, human: int
) -> list[str]:
    lines = []
    before = board.best()
    win = board.record_game(level, rules_name, outcome.scores, human)
    if win is not None:
        at_level = [w for w in board.wins if w.level == level]
        lines.append(
            f"A win at level {level} with {win.seeds} seeds "
            f"({len(at_level)} win{'s' if len(at_level) != 1 else ''} at this level)."
        )
        if before is None or win.seeds > before:
            lines.append(f"New personal best: {win.seeds} seeds!")
    problem = board.save()
    if problem:
        lines.append(f"ayo: {problem}")
    best = board.best()
    lines.append(f"Personal best: {best if best is not None else 'none yet'} (ayo scores)")
    return lines
