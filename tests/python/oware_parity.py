"""The mappings between ayo's ``oware`` and OpenSpiel's ``oware``, as checks.

``test_openspiel_parity.py``'s docstring explains each numbered mapping; this
module is their code, shared by that test (``ayo.Game`` against pyspiel's
``oware``) and ``test_openspiel_game.py`` (``ayo.openspiel``'s ``ayo_oware``
against it).
"""

from __future__ import annotations

from typing import Any

import ayo

TOTAL = 48
SHARE_OUT_REASONS = {"repetition", "no_legal_move"}


def spiel_counts(state: Any) -> tuple[list[int], list[int]]:
    """OpenSpiel's board (houses 0..11) and scores, as seed counts (mapping 6)."""
    tensor = state.observation_tensor(0)
    counts = [round(x * TOTAL) for x in tensor]
    return counts[:12], counts[12:14]


def check_position(game: ayo.Game, state: Any, where: str) -> None:
    """After a move that did not end the game: the same board and scores."""
    board, scores = spiel_counts(state)
    assert board == [int(s) for s in game.board], f"{where}: board after {game.record()}"
    assert scores == [int(s) for s in game.stores], f"{where}: scores after {game.record()}"


def check_end(game: ayo.Game, state: Any, where: str) -> str:
    """Both games over, the same returns, the final scores under mappings 1 and 2.

    Returns the reason ayo's game ended.
    """
    assert state.is_terminal(), f"{where}: ayo ended but OpenSpiel did not: {game.record()}"
    outcome = game.outcome
    assert outcome is not None, where
    board, scores = spiel_counts(state)
    stores = [int(s) for s in game.stores]
    rows = [sum(int(s) for s in game.board[:6]), sum(int(s) for s in game.board[6:])]
    # OpenSpiel shares out the rows at every end (mappings 1 and 2)
    assert board == [0] * 12, where
    assert scores == [stores[0] + rows[0], stores[1] + rows[1]], where
    if outcome.reason in SHARE_OUT_REASONS:
        # mapping 1
        assert list(outcome.scores) == scores, where
    else:
        # mapping 2: ayo's target end shares nothing out
        assert outcome.reason == "target", where
        assert list(outcome.scores) == stores, where
        assert max(stores) >= 25, where
    assert state.returns() == [outcome.result_for(0), outcome.result_for(1)], where
    return outcome.reason
