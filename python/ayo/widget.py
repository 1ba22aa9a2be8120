"""A board to play in Jupyter: :class:`Board`, an `anywidget <https://anywidget.dev>`_.

``Board()`` as the last expression of a cell shows a board to play on in
JupyterLab, Notebook 7 and VS Code: click one of your pits to sow it (the
pits are numbered 1..6 from the mover's side, as in records and on the
keys of ``ayo play``), watch the sowing lap by lap (click the board or
*Skip* to jump to the end), hover a pit (press and hold it on a touch
screen) to see where its last seed lands and what it takes. Play against a
computer level (:class:`ayo.ai.Player`) or two players at one board; pick
a preset and the Ayo web app's four house rules (relay sowing, collect on
4, the end-game sweep, the feed rule; see :func:`house_rules`); undo,
start a new game, and read the scores and the result.

Everything the board shows comes from the engine: legal moves, the landing
pit and the laps and seeds taken (:meth:`ayo.Game.trace_summary`), each
frame of the sowing (:func:`ayo.display.frames`, from
:meth:`ayo.Game.trace`), the outcome, and the computer's moves. Python holds
the game; the browser side (``widget_board.js``) only draws the ``view``
and ``sowing`` it is sent and sends back clicks.

The same game can be played from Python: :meth:`Board.play`,
:meth:`Board.undo`, :meth:`Board.new_game`, and the settings are traitlets
(``board.preset = "oware"``, ``board.relay = False``, ``board.opponent =
"max"``, ``board.human = 1``); a change of setting starts a new game.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

import anywidget
import traitlets

from ayo import AyoError, Game, IllegalMoveError, Rules, RulesError
from ayo.ai import Player
from ayo.board_view import (
    TWO_PLAYERS,
    house_rules,
    level_choices,
    movers,
    refusal,
    sowing_of,
    take_back,
    toggles_of,
    view_of,
    words_of_move,
)

__all__ = ["TWO_PLAYERS", "Board", "house_rules", "toggles_of"]

_HERE = Path(__file__).parent

_log = logging.getLogger(__name__)

# The traits the browser may set (the settings); ``view`` and ``sowing`` are
# Python's to send, never the browser's to change.
_SETTINGS = ("preset", "relay", "collect_four", "sweep", "feed", "opponent", "human", "delay")
_SENT = ("view", "sowing")


class Board(anywidget.AnyWidget):
    """An Ayo board to play in a notebook: click a pit to sow it.

    Settings (traitlets, synced with the browser; each change starts a new
    game): ``preset`` (a name of :meth:`ayo.Rules.presets`), the house-rule
    toggles ``relay``, ``collect_four``, ``sweep`` and ``feed`` (set from
    the preset when it changes; see :func:`house_rules`), ``opponent`` (a
    computer level of :meth:`ayo.ai.Player.levels` or :data:`TWO_PLAYERS`)
    and ``human`` (the person's seat against the computer, 0 South or 1
    North). ``delay`` is the seconds each lap of a sowing is shown.

    What the browser draws: ``view`` (board, stores, whose turn, each of
    the mover's pits with its preview, the last move, messages, the result)
    and ``sowing`` (the frames of the last move's sowing, with an ``id``
    that grows with every move).
    """

    _esm = _HERE / "widget_board.js"
    _css = _HERE / "widget_board.css"

    preset = traitlets.Unicode("ayo").tag(sync=True)
    relay = traitlets.Bool(True).tag(sync=True)
    collect_four = traitlets.Bool(True).tag(sync=True)
    sweep = traitlets.Bool(True).tag(sync=True)
    feed = traitlets.Bool(True).tag(sync=True)
    opponent = traitlets.Unicode("3").tag(sync=True)
    human = traitlets.Int(0).tag(sync=True)
    delay = traitlets.Float(0.6).tag(sync=True)
    view = traitlets.Dict().tag(sync=True)
    sowing = traitlets.Dict().tag(sync=True)

    def __init__(
        self,
        preset: str = "ayo",
        *,
        opponent: str | int = "3",
        human: int = 0,
        relay: bool | None = None,
        collect_four: bool | None = None,
        sweep: bool | None = None,
        feed: bool | None = None,
        seed: int | None = None,
        delay: float = 0.6,
    ) -> None:
        """A new game of ``preset`` against ``opponent`` (a level, or :data:`TWO_PLAYERS`).

        ``human`` is the person's seat against the computer (0 South, 1
        North; the computer moves first when it has the first move). A
        toggle left at None is the preset's (see :func:`house_rules`).
        ``seed`` seeds the computer (default: a random one). Raises
        :class:`ayo.AyoError` (:class:`ayo.RulesError` for the preset) for a
        setting that is not one of the choices.
        """
        self._seed = secrets.randbits(32) if seed is None else seed
        self._settling = True
        self._game = Game()
        self._player: Player | None = None
        self._message = ""
        self._sowings = 0
        given = {"relay": relay, "collect_four": collect_four, "sweep": sweep, "feed": feed}
        super().__init__(preset=preset, opponent=str(opponent), human=human, delay=delay)
        toggles = toggles_of(Rules(self.preset))
        for name, on in given.items():
            setattr(self, name, toggles[name] if on is None else on)
        self._settling = False
        self.on_msg(self._on_message)
        self.new_game()

    # --- settings ---------------------------------------------------------

    @traitlets.validate("preset")
    def _check_preset(self, proposal: dict[str, Any]) -> str:
        value = str(proposal["value"])
        if value not in Rules.presets():
            raise RulesError(f"preset must be one of {', '.join(Rules.presets())}, not {value!r}")
        return value

    @traitlets.validate("opponent")
    def _check_opponent(self, proposal: dict[str, Any]) -> str:
        value = str(proposal["value"]).strip().lower()
        choices = [*Player.levels(), TWO_PLAYERS]
        if value not in choices:
            raise AyoError(
                f"opponent must be a level ({', '.join(Player.levels())}) "
                f"or {TWO_PLAYERS!r}, not {proposal['value']!r}"
            )
        return value

    @traitlets.validate("human")
    def _check_human(self, proposal: dict[str, Any]) -> int:
        value = proposal["value"]
        if isinstance(value, bool) or value not in (0, 1):
            raise AyoError(f"human must be 0 (South) or 1 (North), not {value!r}")
        return int(value)

    @traitlets.validate("delay")
    def _check_delay(self, proposal: dict[str, Any]) -> float:
        value = float(proposal["value"])
        if not 0 <= value <= 10:
            raise AyoError(f"delay must be 0 to 10 seconds, not {value!r}")
        return value

    @traitlets.observe("preset")
    def _preset_changed(self, change: dict[str, Any]) -> None:
        if self._settling:
            return
        # The toggles follow the preset; one new game for the lot.
        self._settling = True
        try:
            for name, on in toggles_of(Rules(self.preset)).items():
                setattr(self, name, on)
        finally:
            self._settling = False
        self.new_game()

    @traitlets.observe("relay", "collect_four", "sweep", "feed", "opponent", "human")
    def _setting_changed(self, change: dict[str, Any]) -> None:
        if not self._settling:
            self.new_game()

    # --- what can be asked --------------------------------------------------

    @property
    def rules(self) -> Rules:
        """The rules of the game on the board (its preset and toggles)."""
        return self._game.rules

    @property
    def game(self) -> Game:
        """A copy of the game on the board."""
        return self._game.copy()

    @property
    def names(self) -> tuple[str, str]:
        """The seats' names: "You" and "Computer", or South and North for two players."""
        if self._player is None:
            return ("South", "North")
        return ("You", "Computer") if self.human == 0 else ("Computer", "You")

    @property
    def message(self) -> str:
        """What the last move did, or why the last request was refused."""
        return self._message

    # --- playing ------------------------------------------------------------

    def new_game(self) -> None:
        """Start again with the current settings; the computer moves if it starts."""
        rules = house_rules(
            self.preset,
            relay=self.relay,
            collect_four=self.collect_four,
            sweep=self.sweep,
            feed=self.feed,
        )
        self._game = Game(rules)
        self._player = (
            None if self.opponent == TWO_PLAYERS else Player(self.opponent, seed=self._seed)
        )
        self._message = f"New game: {rules}."
        self._publish()
        self._computer_moves()

    def play(self, pit: int) -> None:
        """Sow the mover's pit ``pit`` (1..6 from the mover's side); the computer replies.

        Raises :class:`ayo.AyoError` for a pit outside 1..6 or when it is the
        computer's turn, and :class:`ayo.IllegalMoveError` (with the engine's
        ``reason``) for a move that cannot be played; the game is unchanged
        and :attr:`message` says why.
        """
        if isinstance(pit, bool) or not isinstance(pit, int) or not 1 <= pit <= 6:
            self._refuse(f"pit must be 1 to 6 (from the mover's side), not {pit!r}")
        if self._player is not None and self._game.to_move != self.human and not self._over():
            self._refuse("it is the computer's turn")
        try:
            self._sow(pit - 1)
        except IllegalMoveError as e:
            self._message = refusal(pit - 1, e)
            self._publish()
            raise
        self._computer_moves()

    def undo(self) -> None:
        """Take back the last move (against the computer: your last move and its reply).

        Raises :class:`ayo.AyoError` when there is nothing to take back.
        """
        try:
            self._message = take_back(self._game, None if self._player is None else self.human)
        except AyoError as e:
            self._refuse(str(e))
        self._publish()

    # --- inside -------------------------------------------------------------

    def _over(self) -> bool:
        return self._game.is_over

    def _refuse(self, why: str) -> NoReturn:
        self._message = why
        self._publish()
        raise AyoError(why)

    def _sow(self, action: int, *, after: str = "") -> None:
        """Play ``action`` for the mover and send its sowing to the browser.

        :attr:`message` becomes ``after`` (what came before in this turn)
        followed by what the move did.
        """
        game = self._game
        sowing = sowing_of(game, action, self.names, self._sowings + 1)  # IllegalMoveError
        words = words_of_move(game, action, self.names)
        game.play(action)
        self._sowings += 1
        self.sowing = sowing
        self._message = f"{after} {words}".strip()
        self._publish()

    def _computer_moves(self) -> None:
        player = self._player
        while player is not None and not self._over() and self._game.to_move != self.human:
            self._publish(thinking=True)
            self._sow(player.choose(self._game), after=self._message)

    def _status(self, thinking: bool) -> str:
        game, names = self._game, self.names
        if self._over():
            return "Game over."
        if thinking:
            return "The computer is thinking…"
        if self._player is not None:
            return "Your move: click one of your pits."
        return f"{names[game.to_move]} to move: click one of {names[game.to_move]}'s pits."

    def _person_to_move(self, thinking: bool) -> bool:
        """Whether a click may play: the game goes on and no computer is to move."""
        if thinking or self._over():
            return False
        return self._player is None or self._game.to_move == self.human

    def _publish(self, *, thinking: bool = False) -> None:
        """Send the browser everything it draws (the ``view`` trait)."""
        moves = self._game.moves
        self.view = view_of(
            self._game,
            names=self.names,
            # The seat drawn along the bottom: the person's against the computer.
            bottom=0 if self._player is None else self.human,
            person_to_move=self._person_to_move(thinking),
            thinking=thinking,
            two_players=self._player is None,
            status=self._status(thinking),
            message=self._message,
            can_undo=bool(moves) and (self._player is None or self.human in movers(moves)),
            opponents=[*level_choices(), {"value": TWO_PLAYERS, "label": "Two players"}],
        )

    def set_state(self, sync_data: dict[str, Any]) -> None:
        """Settings from the browser, each checked as strictly as one set from Python.

        traitlets rolls back a refused value only for a ``TraitError``, and
        checks a setting from the browser only once it is stored: so each
        value is validated here first. A refused value leaves the last valid
        one in place (and sends it back to the browser), says why in
        :attr:`message`, and is logged; ``view`` and ``sowing`` are never
        taken from the browser.
        """
        if not isinstance(sync_data, dict):
            _log.warning("ignored a state update that is not a dict: %r", sync_data)
            return
        for name, value in sync_data.items():
            if name in _SENT:
                _log.warning("ignored %s from the browser: it is sent by Python", name)
                self.send_state(name)
                continue
            if name not in _SETTINGS:
                super().set_state({name: value})
                continue
            trait = self.traits()[name]
            try:
                checked = trait._validate(self, value)
            except (AyoError, traitlets.TraitError) as e:
                why = str(e) if isinstance(e, AyoError) else f"{name} cannot be {value!r}"
                _log.warning("refused %s=%r from the browser: %s", name, value, why)
                # The restored value first: the page redraws its settings
                # from the model when the new view arrives.
                self.send_state(name)
                self._message = f"Setting refused: {why}."
                self._publish()
                continue
            super().set_state({name: checked})

    def _on_message(self, _widget: object, content: object, _buffers: Sequence[Any]) -> None:
        """A request from the browser: play a pit, undo, or start a new game.

        Anything else (not a dict, an unknown ``kind``) is logged and ignored.
        """
        if not isinstance(content, dict):
            _log.warning("ignored a message that is not a dict: %r", content)
            return
        kind = content.get("kind")
        try:
            if kind == "play":
                self.play(content.get("pit", 0))  # checked by play
            elif kind == "undo":
                self.undo()
            elif kind == "new_game":
                self.new_game()
            else:
                _log.warning("ignored a message of unknown kind: %r", content)
        except AyoError:
            pass  # already in ``message`` and shown
