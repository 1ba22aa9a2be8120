"""ayo: the rules engine of the Ayo family of Yoruba mancala games.

Every rule lives in the Rust core (``ayo._ayo``); this package re-exports it.
"""

from ayo._ayo import (
    NUM_ACTIONS,
    PARAM_NAMES,
    AyoError,
    Game,
    IllegalMoveError,
    Outcome,
    RecordError,
    Rules,
    RulesError,
    SetupError,
    __version__,
    perft,
)

__all__ = [
    "NUM_ACTIONS",
    "PARAM_NAMES",
    "AyoError",
    "Game",
    "IllegalMoveError",
    "Outcome",
    "RecordError",
    "Rules",
    "RulesError",
    "SetupError",
    "__version__",
    "envs",
    "perft",
]

# Registers the Gymnasium environment ``ayo/Ayo-v0`` (imported last: it builds on
# the names above).
from ayo import envs as envs
