"""ayo: the rules engine of the Ayo family of Yoruba mancala games.

Every rule lives in the Rust core (``ayo._ayo``); this package re-exports it.
:class:`Database` holds endgame databases (exact values of every board up to
a number of seeds, for relay Ayoayo and its variants; Oware's under a cycle
convention), :class:`CountedDatabase` those of rules with a move limit (values
of board and no-capture count: Ayò Ọlọ́pọ́n, the web app's Ayo); ``ayo.ai`` has
the computer players, ``Player.perfect`` among them.
"""

import contextlib as _contextlib
import itertools as _itertools
import sys as _sys


def _refused_on_the_command_line(error: BaseException) -> None:
    """The ``ayo`` command's answer to an extension that refuses to load.

    ``ayo._ayo`` refuses to load when ``AYO_KERNEL`` names a kernel this CPU
    cannot run (an ``AyoError``, a ValueError). That happens on the import
    of this package, before the command's ``main`` can catch it: for the
    command (its script, or ``python -m ayo.cli``) it is one line on
    standard error and status 2, as every ``AyoError`` at its top.
    """
    main = _sys.modules.get("__main__")
    script = str(getattr(main, "__file__", "") or "").replace("\\", "/")
    script = script.rsplit("/", 1)[-1]
    # ``python -m ayo.cli`` imports this package before its __main__ is set up.
    argv = list(getattr(_sys, "orig_argv", []))
    module = any(
        a == "-m" and b in ("ayo.cli", "ayo.cli.__main__") for a, b in _itertools.pairwise(argv)
    )
    if script == "ayo" or module:
        # Standard error may be gone too: then the status says it.
        with _contextlib.suppress(OSError, ValueError, AttributeError):
            _sys.stderr.write(f"ayo: {error}\n")
        raise SystemExit(2) from None


try:
    from ayo import _ayo  # noqa: F401 (loaded here so that a refusal can be told)
except ValueError as _error:
    _refused_on_the_command_line(_error)
    raise

from ayo._ayo import (  # noqa: E402 (after the refusal's answer above)
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
    Network,
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
    "GuidedSearch",
    "IllegalMoveError",
    "LayerReport",
    "Network",
    "Outcome",
    "RecordError",
    "Rules",
    "RulesError",
    "SearchError",
    "SelfPlay",
    "SelfPlayData",
    "SetupError",
    "StatelessError",
    "VerifyReport",
    "__version__",
    "envs",
    "kernel",
    "kernels",
    "perft",
    "self_play",
]

# Registers the Gymnasium environment ``ayo/Ayo-v0`` (imported last: it builds on
# the names above).
from ayo import envs as envs  # noqa: E402

# The guided search and self-play (``ayo.search``).
from ayo.search import GuidedSearch, SearchError, SelfPlay, SelfPlayData, self_play  # noqa: E402
