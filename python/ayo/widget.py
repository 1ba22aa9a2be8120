"""A board to play in Jupyter: :class:`Board`, an `anywidget <https://anywidget.dev>`_.

``Board()`` as the last expression of a cell shows a board to play on in
JupyterLab, Notebook 7 and VS Code: click one of your pits to sow it (the
pits are numbered 1..6 from the mover's side, as in records and on the
keys of ``ayo play``), watch the sowing lap by lap (click the board or
*Skip* to jump to the end), hover a pit to see where its last seed lands
and what it takes. Play against a computer level (:class:`ayo.ai.Player`)
or two players at one board; pick a preset and the Ayo web app's four house
rules (relay sowing, collect on 4, the end-game sweep, the feed rule; see
:func:`house_rules`); undo, start a new game, and read the scores and the
result.

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
from ayo.cli.common import describe_outcome, pit_words
from ayo.display import frames

__all__ = ["TWO_PLAYERS", "Board", "house_rules", "toggles_of"]

#: The ``opponent`` value for two people at one board (no computer).
TWO_PLAYERS = "two players"

_HERE = Path(__file__).parent

_log = logging.getLogger(__name__)

# The traits the browser may set (the settings); ``view`` and ``sowing`` are
# Python's to send, never the browser's to change.
_SETTINGS = ("preset", "relay", "collect_four", "sweep", "feed", "opponent", "human", "delay")
_SENT = ("view", "sowing")

# The engine's reasons for refusing a move (IllegalMoveError.reason), in words.
_REASONS = {
    "empty_pit": "it is empty",
    "endless_relay": "its relays would go round forever",
    "does_not_feed": "it leaves the opponent's empty row without seeds, and feeding is required",
    "game_over": "the game is over",
}


# What the level list says beside a level (levels run weakest first).
_LEVEL_NOTES = {"1": " (random: for a first game)", "max": " (the strongest)"}


def house_rules(preset: str, *, relay: bool, collect_four: bool, sweep: bool, feed: bool) -> Rules:
    """The rules of ``preset`` with the web app's four house-rule toggles applied.

    The toggles map onto the rule parameters as docs/rules.md (section 8)
    says: *relay sowing* is ``relay``; *collect on 4* is ``capture =
    collect_four`` (switched off from a collect-on-4 preset it becomes
    ``across`` with relay sowing and ``two_three`` without); the *end-game
    sweep* is ``stuck_seeds = to_opponent`` (off: ``own_side``); the *feed
    rule* is a ``feeding`` other than ``off`` (on, it keeps the preset's own
    feeding, or ``if_possible`` where the preset has none). A toggle that
    agrees with the preset changes nothing, so ``house_rules(p,
    **toggles_of(Rules(p)))`` is ``Rules(p)``. Raises :class:`ayo.RulesError`
    for an unknown preset.
    """
    base = Rules(preset)
    overrides: dict[str, object] = {}
    if relay != base.relay:
        overrides["relay"] = relay
    if collect_four and base.capture != "collect_four":
        overrides["capture"] = "collect_four"
    elif not collect_four and base.capture == "collect_four":
        overrides["capture"] = "across" if relay else "two_three"
    if sweep != (base.stuck_seeds == "to_opponent"):
        overrides["stuck_seeds"] = "to_opponent" if sweep else "own_side"
    if not feed and base.feeding != "off":
        overrides["feeding"] = "off"
    elif feed and base.feeding == "off":
        overrides["feeding"] = "if_possible"
    return base.replace(**overrides) if overrides else base


def toggles_of(rules: Rules) -> dict[str, bool]:
    """The four house-rule toggles as ``rules`` sets them (see :func:`house_rules`)."""
    return {
        "relay": rules.relay,
        "collect_four": rules.capture == "collect_four",
        "sweep": rules.stuck_seeds == "to_opponent",
        "feed": rules.feeding != "off",
    }


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _takes(name: str) -> str:
    return "you take" if name == "You" else f"{name} takes"


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
            self._message = f"Pit {pit} cannot be played: {_REASONS.get(e.reason, str(e))}."
            self._publish()
            raise
        self._computer_moves()

    def undo(self) -> None:
        """Take back the last move (against the computer: your last move and its reply).

        Raises :class:`ayo.AyoError` when there is nothing to take back.
        """
        movers = _movers(self._game.moves)
        if self._player is None:
            if not movers:
                self._refuse("Nothing to undo: no move has been played.")
            self._game.undo()
            self._message = "Took back the last move."
        else:
            if self.human not in movers:
                self._refuse("Nothing to undo: you have not moved yet.")
            taken = 0
            while movers:
                who = movers.pop()
                self._game.undo()
                taken += 1
                if who == self.human:
                    break
            self._message = (
                "Took back your move and the computer's reply."
                if taken > 1
                else "Took back your move."
            )
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
        # The engine's frames after the first (the position before the move, shown).
        steps = frames(game, action, names=self.names)[1:]  # IllegalMoveError, game unchanged
        mover = game.to_move
        name = self.names[mover]
        words = f"{name} played pit {action + 1}: {self._effect(action)}."
        game.play(action)
        self._sowings += 1
        self.sowing = {
            "id": self._sowings,
            "mover": mover,
            "title": f"{name} sow{'' if name == 'You' else 's'} pit {action + 1}",
            "frames": [
                {
                    "board": list(f.board),
                    "stores": list(f.stores),
                    "hand": f.hand,
                    "caption": f.caption,
                    "pits": list(f.pits),
                }
                for f in steps
            ],
        }
        self._message = f"{after} {words}".strip()
        self._publish()

    def _computer_moves(self) -> None:
        player = self._player
        while player is not None and not self._over() and self._game.to_move != self.human:
            self._publish(thinking=True)
            self._sow(player.choose(self._game), after=self._message)

    def _preview(self, action: int) -> str:
        """What ``action`` would do or why it cannot be played, in words."""
        try:
            return f"Pit {action + 1}: {self._effect(action)}."
        except IllegalMoveError as e:
            return f"Pit {action + 1} cannot be played: {_REASONS.get(e.reason, str(e))}."

    def _effect(self, action: int) -> str:
        """What ``action`` does, from the engine's trace (IllegalMoveError if it cannot)."""
        names = self.names
        summary = self._game.trace_summary(action)
        laps = int(summary["laps"])
        last = int(summary["last_pit"])
        taken = [int(t) for t in summary["taken"]]
        text = f"{_plural(laps, 'lap')}, the last seed lands in {pit_words(last, names)}"
        gains = [f"{_takes(names[p])} {taken[p]}" for p in (0, 1) if taken[p]]
        return text + ("; " + " and ".join(gains) if gains else "")

    def _status(self, thinking: bool) -> str:
        game, names = self._game, self.names
        if self._over():
            return "Game over."
        if thinking:
            return "The computer is thinking…"
        if self._player is not None:
            return "Your move: click one of your pits."
        return f"{names[game.to_move]} to move: click one of {names[game.to_move]}'s pits."

    def _result(self) -> str:
        outcome = self._game.outcome
        if outcome is None:
            return ""
        stuck = self._game.to_move if outcome.reason == "no_legal_move" else None
        return describe_outcome(outcome, self._game.rules, self.names, stuck=stuck) + "."

    def _person_to_move(self, thinking: bool) -> bool:
        """Whether a click may play: the game goes on and no computer is to move."""
        if thinking or self._over():
            return False
        return self._player is None or self._game.to_move == self.human

    def _pit_moves(self, thinking: bool) -> list[dict[str, Any]]:
        """The mover's six pits: legality, landing pit and preview, from the engine."""
        game = self._game
        if self._over():
            return []
        mover = game.to_move
        person = self._person_to_move(thinking)
        moves = []
        for action in range(6):
            legal = game.is_legal(action)
            moves.append(
                {
                    "pit": action + 6 * mover,
                    "number": action + 1,
                    "legal": legal,
                    "playable": legal and person,
                    "landing": game.last_landing(action) if legal else None,
                    "preview": self._preview(action),
                }
            )
        return moves

    def _publish(self, *, thinking: bool = False) -> None:
        """Send the browser everything it draws (the ``view`` trait)."""
        game, names = self._game, self.names
        moves = game.moves
        stores = [int(s) for s in game.stores]
        levels = [
            {"value": level, "label": f"Computer, level {level}" + _LEVEL_NOTES.get(level, "")}
            for level in Player.levels()
        ]
        self.view = {
            "board": [int(s) for s in game.board],
            "stores": stores,
            "numbers": [pit % 6 + 1 for pit in range(12)],
            "names": list(names),
            "to_move": None if self._over() else game.to_move,
            # The seat drawn along the bottom: the person's against the computer.
            "bottom": 0 if self._player is None else self.human,
            "ply": game.ply,
            "last": int(moves[-1]) if moves else None,
            "moves": self._pit_moves(thinking),
            "thinking": thinking,
            "person_to_move": self._person_to_move(thinking),
            "two_players": self._player is None,
            "status": self._status(thinking),
            "scores": f"{names[0]} {stores[0]} · {names[1]} {stores[1]}",
            "message": self._message,
            "result": self._result(),
            "rules": str(game.rules),
            "can_undo": bool(moves) and (self._player is None or self.human in _movers(moves)),
            "presets": Rules.presets(),
            "opponents": [*levels, {"value": TWO_PLAYERS, "label": "Two players"}],
        }

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


def _movers(moves: Sequence[int]) -> list[int]:
    """The seat that made each move (moves are absolute pits)."""
    return [pit // 6 for pit in moves]
