"""`ayo play` on a terminal: the real program in a pty, driven by key presses (pexpect).

What the screen shows is checked against the engine: the landing pit of the
cursor's move, the hint (ayo.ai's analysis), the sowing captions (the trace),
the result line (the game record's outcome).
"""

from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path

import pexpect
import pytest

from ayo import Game
from ayo.ai import Player
from ayo.cli.common import describe_outcome, pit_words
from ayo.cli.play import HINT_LEVEL

NAMES = ("You", "Computer")
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def spawn(tmp_path: Path, args: list[str], no_color: bool = False) -> pexpect.spawn[str]:
    env = dict(os.environ, AYO_DATA_DIR=str(tmp_path / "data"), TERM="xterm")
    env.pop("NO_COLOR", None)
    if no_color:
        env["NO_COLOR"] = "1"
    return pexpect.spawn(
        sys.executable,
        ["-m", "ayo.cli", "play", *args],
        env=env,
        encoding="utf-8",
        dimensions=(40, 110),
        timeout=20,
    )


def plain(text: str) -> str:
    return ANSI.sub("", text)


def before(child: pexpect.spawn[str]) -> str:
    """What the program wrote before the last match."""
    text = child.before
    assert isinstance(text, str)
    return text


def test_keys_play_a_whole_game_to_the_end(tmp_path: Path) -> None:
    child = spawn(tmp_path, ["--level", "1", "--seed", "7", "--no-animation"])
    for key in range(2000):
        i = child.expect(["Your move", r"Game record: ([^\r\n]+)\r\n"])
        if i == 1:
            break
        child.send(str(key % 6 + 1))  # illegal pits are refused and the next one tried
    else:
        pytest.fail("the game did not end")
    match = child.match
    assert isinstance(match, re.Match)
    record = str(match.group(1))
    shown = plain(before(child)).replace("\r", "")
    child.expect("Play again")
    child.send("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    game = Game.from_record(record)
    assert game.outcome is not None
    assert describe_outcome(game.outcome, game.rules, NAMES, stuck=game.to_move) in shown
    final = [int(s) for s in game.stores]
    assert re.search(rf"^\s+{final[1]}\s+\+-----.*\+\s+{final[0]}$", shown, re.M)
    assert re.search(r"^\s+store\s+\|.*\|$", shown, re.M)  # the top row's store, on the left
    assert re.search(r"^\s+\|.*\|\s+store$", shown, re.M)  # the bottom row's, on the right
    assert "You (South)" in shown


def test_cursor_landing_bad_key_hint_undo_and_quit(tmp_path: Path) -> None:
    child = spawn(tmp_path, ["--level", "2", "--seed", "5", "--no-animation", "--rules", "ayo"])
    game = Game("ayo")
    child.expect("Your move")
    child.send("\x1b[C\x1b[C")  # right, right: the cursor on pit 3
    landing = pit_words(game.last_landing(2), NAMES)
    laps = int(game.trace_summary(2)["laps"])
    child.expect(re.escape(f"Pit 3: {laps} laps, the last seed in {landing} (marked *)"))
    assert "\x1b[7m[3]\x1b[0m" in before(child)  # the cursor, in reverse video
    child.send("z")
    child.expect(r"The key 'z' does nothing here")
    child.send("h")
    hint = Player(HINT_LEVEL, seed=5).analyze(game)
    assert hint.best is not None
    child.expect(re.escape(f"Hint: play {hint.best + 1} (value {hint.text} seeds"))
    # The hint moves the cursor to the best move: Enter plays it.
    child.send("\r")
    child.expect("thinking")
    child.expect("Your move")
    game.play(hint.best)
    game.play(Player("2", seed=5).choose(game))
    child.send("u")
    child.expect(re.escape("Took back your move and the computer's reply."))
    child.expect("Your move")
    child.send("q")
    child.expect(pexpect.EOF)
    assert "You left the game" in plain(before(child))
    child.close()
    assert child.exitstatus == 0


def test_a_key_skips_the_sowing_animation(tmp_path: Path) -> None:
    game = Game("ayo")
    assert int(game.trace_summary(0)["laps"]) >= 3  # a move worth animating
    child = spawn(tmp_path, ["--level", "1", "--seed", "2", "--delay", "5"])
    child.expect("Your move")
    child.send("1")
    child.expect(r"You play 1: lift 4 from your pit 1, sow your pits 2 to 5")
    started = time.monotonic()
    child.send(" ")
    child.expect("thinking", timeout=4)
    # Unskipped, the 4 frames left would take over 6 s (10 s for the 6 frames at most).
    assert time.monotonic() - started < 3.5
    child.send("q")  # skips the computer's animation
    child.send("q")  # quits
    child.expect(pexpect.EOF)
    child.close()


def test_no_color_gives_plain_text(tmp_path: Path) -> None:
    child = spawn(tmp_path, ["--level", "1", "--seed", "1"], no_color=True)
    child.expect("Your move")
    screen = before(child)
    child.send("q")
    child.expect(pexpect.EOF)
    child.close()
    assert "\x1b[1m" not in screen
    assert "\x1b[7m" not in screen
    assert " [1] " in screen  # the cursor, without colour
    assert "*" in screen  # the landing pit, without colour
