"""A computer player's search tables, under a lowered address-space limit:
``MemoryError`` naming the bytes, before the search, never an abort; the
player searches again once memory is there (issue: nothing crosses the
boundary, defect 3)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from address_limit import child_script

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="RLIMIT_AS and /proc/self/status are Linux's"
)

CHILD = child_script(
    """
    import sys

    import ayo
    from ayo.ai import Player

    game = ayo.Game("oware")
    kind = sys.argv[1]
    if kind == "alphabeta":
        # depth 7: a 2^22-entry transposition table, 64 MiB
        player = Player.from_kind("alphabeta", depth=7)
    else:
        # 400,000 simulations: room for 2.4M tree nodes
        player = Player.from_kind("mcts", nodes=400_000)
    before = game.record()
    limit_address_space(16 * 1024 * 1024)
    try:
        player.choose(game)
    except MemoryError as e:
        print("caught:", e, flush=True)
    else:
        print("searched under the limit", flush=True)
        sys.exit(2)
    hard = resource.getrlimit(resource.RLIMIT_AS)[1]
    resource.setrlimit(resource.RLIMIT_AS, (hard, hard))
    assert game.record() == before, game.record()
    if kind == "alphabeta":
        assert player.choose(game) in game.legal_moves()
    sys.exit(0)
    """
)


@pytest.mark.parametrize(
    ("kind", "what"),
    [("alphabeta", "transposition table"), ("mcts", "Monte Carlo player's tree")],
)
def test_a_players_tables_that_do_not_fit_are_a_memory_error(kind: str, what: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, kind], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, (done.returncode, done.stdout, done.stderr)
    assert "caught: out of memory: could not allocate " in done.stdout
    assert what in done.stdout
    assert "panicked" not in done.stderr
