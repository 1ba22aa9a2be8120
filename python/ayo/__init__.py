"""ayo: the rules engine of the Ayo family of Yoruba mancala games.

Every rule lives in the Rust core (``ayo._ayo``); this package re-exports it.
:class:`Database` holds endgame databases (exact values of every board up to
a number of seeds, for relay Ayoayo and its variants; Oware's under a cycle
convention), :class:`CountedDatabase` those of rules with a move limit (values
of board and no-capture count: Ayò Ọlọ́pọ́n, the web app's Ayo); ``ayo.ai`` has
the computer players, ``Player.perfect`` among them.
"""

from ayo._ayo import (
    KERNEL_ENV,
    NUM_ACTIONS,
    PARAM_NAMES,
    AyoError,
    CountedDatabase,
    Database,
    DatabaseError,
    Game,
    IllegalMoveError,
    LayerReport,
    Outcome,
    RecordError,
    Rules,
    RulesError,
    SetupError,
    StatelessError,
    VerifyReport,
    __version__,
    kernel,
    kernels,
    perft,
)

__all__ = [
    "KERNEL_ENV",
    "NUM_ACTIONS",
    "PARAM_NAMES",
    "AyoError",
    "CountedDatabase",
    "Database",
    "DatabaseError",
    "Game",
    "IllegalMoveError",
    "LayerReport",
    "Outcome",
    "RecordError",
    "Rules",
    "RulesError",
    "SetupError",
    "StatelessError",
    "VerifyReport",
    "__version__",
    "envs",
    "kernel",
    "kernels",
    "perft",
]

# Registers the Gymnasium environment ``ayo/Ayo-v0`` (imported last: it builds on
# the names above).
from ayo import envs as envs
