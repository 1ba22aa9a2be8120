"""Players from the command line: a level or ``kind[:budget]`` (``ayo arena``, ``ayo analyze``)."""

from __future__ import annotations

from ayo.ai import Player
from ayo.cli.common import UsageError

__all__ = ["player_spec"]


def player_spec(spec: str, seed: int, perfect: Player | None = None) -> Player:
    """A player from a spec: a level (``3``, ``L3``, ``max``) or ``kind[:budget]``.

    ``kind`` is random, greedy, alphabeta, mcts or learned; ``budget`` is ``depth=N``,
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
    if ":" not in text and text not in ("random", "greedy", "alphabeta", "mcts"):
        try:
            # "L3" and "Lmax" name levels 3 and max; "learned" keeps its "l".
            level = text[1:] if text[:1] == "l" and text != "learned" else text
            return Player(level, seed=seed)
        except (ValueError, OverflowError):
            raise UsageError(
                f"player {spec!r}: not a level (1 to 8, max, learned or perfect) nor a player "
                "kind[:budget] (random, greedy, alphabeta, mcts or learned; "
                "depth=N, nodes=N or time=S)"
            ) from None
    try:
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
    except OverflowError:
        raise UsageError(f"player {spec!r}: the budget is out of range") from None
