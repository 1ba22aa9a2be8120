"""The rules in words: :func:`rules_text`, one sentence for each parameter.

Generated from the :class:`ayo.Rules` parameters, in the rules' (docs/rules.md) words;
``ayo rules`` (:mod:`ayo.cli.rules_cmd`) prints it.
"""

from __future__ import annotations

from ayo import Rules
from ayo.cli.common import SEAT_NAMES

__all__ = ["rules_text"]

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
