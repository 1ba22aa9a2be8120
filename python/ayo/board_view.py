"""What a board front end draws, from the engine: ``widget_board.js``'s ``view`` and ``sowing``.

One board front end (``widget_board.js``) serves the notebook widget
(:class:`ayo.widget.Board`) and ``ayo serve``'s page; both hold an
:class:`ayo.Game` and send the browser what this module makes of it: the
position, each of the mover's pits with its landing pit and its preview in
words, the result, and the frames of a sowing. Every fact comes from the
engine (:meth:`ayo.Game.trace_summary`, :meth:`ayo.Game.last_landing`,
:func:`ayo.display.frames`, the outcome); nothing here knows a rule. It
needs no Jupyter, so ``ayo serve`` imports it without anywidget.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ayo import AyoError, Game, IllegalMoveError, Rules
from ayo.ai import Player
from ayo.cli.common import describe_outcome, pit_words
from ayo.display import frames

__all__ = [
    "TWO_PLAYERS",
    "house_rules",
    "level_choices",
    "movers",
    "pit_moves",
    "refusal",
    "result_text",
    "sowing_of",
    "take_back",
    "toggles_of",
    "view_of",
    "words_of_move",
]

#: The ``opponent`` value for two people at one board (no computer).
TWO_PLAYERS = "two players"

# The engine's reasons for refusing a move (IllegalMoveError.reason), in words.
_REASONS = {
    "empty_pit": "it is empty",
    "endless_relay": "its relays would go round forever",
    "does_not_feed": "it leaves the opponent's empty row without seeds, and feeding is required",
    "starves": "it leaves the opponent's row empty while another move does not",
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


def level_choices() -> list[dict[str, str]]:
    """The computer levels as the opponent list shows them, weakest first."""
    return [
        {"value": level, "label": f"Computer, level {level}" + _LEVEL_NOTES.get(level, "")}
        for level in Player.levels()
    ]


def movers(moves: Sequence[int]) -> list[int]:
    """The seat that made each move (moves are absolute pits)."""
    return [pit // 6 for pit in moves]


def take_back(game: Game, human: int | None) -> str:
    """Undo the last move in ``game``; what was taken back, in words.

    Against the computer (``human`` the person's seat) the person's last
    move and the computer's replies after it go; between two players
    (``human`` None) the last move. Raises :class:`ayo.AyoError`, the game
    unchanged, when there is nothing to take back.
    """
    seats = movers(game.moves)
    if human is None:
        if not seats:
            raise AyoError("Nothing to undo: no move has been played.")
        game.undo()
        return "Took back the last move."
    if human not in seats:
        raise AyoError("Nothing to undo: you have not moved yet.")
    taken = 0
    while seats:
        who = seats.pop()
        game.undo()
        taken += 1
        if who == human:
            break
    return "Took back your move and the computer's reply." if taken > 1 else "Took back your move."


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _takes(name: str) -> str:
    return "you take" if name == "You" else f"{name} takes"


def refusal(action: int, error: IllegalMoveError) -> str:
    """Why the mover's ``action`` cannot be played, in words (the engine's reason)."""
    return f"Pit {action + 1} cannot be played: {_REASONS.get(error.reason, str(error))}."


def _effect(game: Game, action: int, names: Sequence[str]) -> str:
    """What ``action`` does, from the engine's trace (IllegalMoveError if it cannot)."""
    summary = game.trace_summary(action)
    laps = int(summary["laps"])
    last = int(summary["last_pit"])
    taken = [int(t) for t in summary["taken"]]
    text = f"{_plural(laps, 'lap')}, the last seed lands in {pit_words(last, tuple(names))}"
    gains = [f"{_takes(names[p])} {taken[p]}" for p in (0, 1) if taken[p]]
    return text + ("; " + " and ".join(gains) if gains else "")


def _preview(game: Game, action: int, names: Sequence[str]) -> str:
    """What ``action`` would do or why it cannot be played, in words."""
    try:
        return f"Pit {action + 1}: {_effect(game, action, names)}."
    except IllegalMoveError as e:
        return refusal(action, e)


def words_of_move(game: Game, action: int, names: Sequence[str]) -> str:
    """``"South played pit 3: ..."``: the mover's ``action`` before it is played.

    Raises :class:`ayo.IllegalMoveError` (the game unchanged) when it cannot be played.
    """
    return f"{names[game.to_move]} played pit {action + 1}: {_effect(game, action, names)}."


def sowing_of(game: Game, action: int, names: Sequence[str], number: int) -> dict[str, Any]:
    """The ``sowing`` the board animates for the mover's ``action``, before it is played.

    ``number`` is the sowing's ``id`` (it grows with every move, so the page
    sees each one). Raises :class:`ayo.IllegalMoveError` (the game unchanged).
    """
    # The engine's frames after the first (the position before the move, shown).
    steps = frames(game, action, names=tuple(names))[1:]
    mover = game.to_move
    name = names[mover]
    return {
        "id": number,
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


def result_text(game: Game, names: Sequence[str]) -> str:
    """The result and why, in words; empty while the game goes on."""
    outcome = game.outcome
    if outcome is None:
        return ""
    stuck = game.to_move if outcome.reason == "no_legal_move" else None
    return describe_outcome(outcome, game.rules, tuple(names), stuck=stuck) + "."


def pit_moves(game: Game, names: Sequence[str], playable: bool) -> list[dict[str, Any]]:
    """The mover's six pits: legality, landing pit and preview, from the engine.

    ``playable``: whether the page may play the legal ones (the viewer is to move).
    """
    if game.is_over:
        return []
    mover = game.to_move
    moves = []
    for action in range(6):
        legal = game.is_legal(action)
        moves.append(
            {
                "pit": action + 6 * mover,
                "number": action + 1,
                "legal": legal,
                "playable": legal and playable,
                "landing": game.last_landing(action) if legal else None,
                "preview": _preview(game, action, names),
            }
        )
    return moves


def view_of(
    game: Game,
    *,
    names: Sequence[str],
    bottom: int,
    person_to_move: bool,
    thinking: bool,
    two_players: bool,
    status: str,
    message: str,
    can_undo: bool,
    opponents: list[dict[str, str]],
) -> dict[str, Any]:
    """Everything the board draws (``widget_board.js``'s ``view``).

    ``bottom`` is the seat drawn along the bottom; ``person_to_move`` whether
    a click may play now; the rest is shown as given.
    """
    moves = game.moves
    stores = [int(s) for s in game.stores]
    over = game.is_over
    return {
        "board": [int(s) for s in game.board],
        "stores": stores,
        "numbers": [pit % 6 + 1 for pit in range(12)],
        "names": list(names),
        "to_move": None if over else game.to_move,
        "bottom": bottom,
        "ply": game.ply,
        "last": int(moves[-1]) if moves else None,
        "moves": pit_moves(game, names, person_to_move),
        "thinking": thinking,
        "person_to_move": person_to_move,
        "two_players": two_players,
        "status": status,
        "scores": f"{names[0]} {stores[0]} · {names[1]} {stores[1]}",
        "message": message,
        "result": result_text(game, names),
        "rules": str(game.rules),
        "can_undo": can_undo,
        "presets": Rules.presets(),
        "opponents": opponents,
    }
