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
from ayo.cli.analyze import move_text
from ayo.cli.common import describe_outcome, pit_words
from ayo.cli.move_words import preview_words
from ayo.cli.play import HINT_LEVEL, TWO_PLAYER_NAMES
from ayo.cli.watch import KEYS_HELP

NAMES = ("You", "Computer")
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def spawn(
    tmp_path: Path,
    args: list[str],
    no_color: bool = False,
    command: str = "play",
    columns: int = 110,
) -> pexpect.spawn[str]:
    env = dict(os.environ, AYO_DATA_DIR=str(tmp_path / "data"), TERM="xterm")
    env.pop("NO_COLOR", None)
    if no_color:
        env["NO_COLOR"] = "1"
    return pexpect.spawn(
        sys.executable,
        ["-m", "ayo.cli", command, *args],
        env=env,
        encoding="utf-8",
        dimensions=(40, columns),
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
    value = move_text(hint.text, hint.value, hint.basis)
    child.expect(re.escape(f"Hint: play {hint.best + 1} (value {value} seeds"))
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


def matched(child: pexpect.spawn[str], group: int = 1) -> str:
    match = child.match
    assert isinstance(match, re.Match)
    return str(match.group(group))


def two_player_names(game_number: int) -> tuple[str, str]:
    """South's and North's names: Player 1 is South in the first game, North in the next."""
    one, two = TWO_PLAYER_NAMES
    return (one, two) if game_number % 2 == 0 else (two, one)


def test_two_players_play_a_whole_game_then_play_again_with_colours_swapped(
    tmp_path: Path,
) -> None:
    child = spawn(tmp_path, ["--players", "2", "--rules", "oware", "--no-animation"], True)
    transcript = tmp_path / "two-players.txt"
    child.logfile_read = transcript.open("w", encoding="utf-8")
    mirror = Game("oware")
    names = two_player_names(0)
    for turn in range(2000):
        i = child.expect([r"(Player [12]), your move", r"Game record: ([^\r\n]+)\r\n"])
        if i == 1:
            break
        # Each prompt names the person whose turn it is in the engine's game.
        assert matched(child) == names[mirror.to_move]
        legal = mirror.legal_moves()
        action = legal[turn % len(legal)]
        child.send(str(action + 1))
        mirror.play(action)
    else:
        pytest.fail("the game did not end")
    assert matched(child) == mirror.record()
    outcome = mirror.outcome
    assert outcome is not None
    shown = plain(before(child)).replace("\r", "")
    assert describe_outcome(outcome, mirror.rules, names, stuck=mirror.to_move) in shown
    child.expect(r"Games won this session: ([^\r\n]+)\r\n")
    wins = [0, 0]
    if outcome.winner is not None:
        wins[TWO_PLAYER_NAMES.index(names[outcome.winner])] = 1
    draws = 1 if outcome.winner is None else 0
    assert matched(child) == f"Player 1 {wins[0]}, Player 2 {wins[1]}, draws {draws}."
    assert not (tmp_path / "data" / "scores.json").exists()  # two people: no scoreboard
    child.expect("Play again")
    child.send("y")
    # Game 2: the colours swapped, Player 2 is South and moves first; Player 1
    # stays at the bottom of the board, now as North.
    child.expect("Player 2, your move")
    screen = plain(before(child)).split("game 2", 1)[1]
    assert screen.index("Player 2 (South)") < screen.index("Player 1 (North)")
    assert "> Player 2 (South)" in screen
    child.send("3")
    child.expect("Player 1, your move")
    child.send("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "The game was left unfinished." in plain(before(child))


def test_the_preview_of_each_pit_as_the_cursor_moves(tmp_path: Path) -> None:
    child = spawn(
        tmp_path, ["--players", "2", "--rules", "ayo", "--no-animation"], True, columns=250
    )
    game = Game("ayo")
    names = two_player_names(0)
    child.expect("Player 1, your move")
    child.send("2")  # Player 1 plays pit 2; the previews are Player 2's
    game.play(1)
    child.expect("Player 2, your move")
    for action in range(6):
        expected = preview_words(game, action, names)
        child.expect(re.escape(expected))
        child.send("\x1b[C")
    child.send("q")
    child.expect(pexpect.EOF)
    child.close()


def test_the_hint_wraps_at_word_boundaries_on_a_narrow_terminal(tmp_path: Path) -> None:
    columns = 56
    child = spawn(
        tmp_path, ["--level", "2", "--seed", "5", "--rules", "oware"], True, columns=columns
    )
    child.expect("Your move")
    child.send("h")
    child.expect("Hint: play")
    child.expect("Your move")
    block = "Hint: play" + plain(before(child)).replace("\r", "")
    child.send("q")
    child.expect(pexpect.EOF)
    child.close()
    lines = block.splitlines()
    assert all(len(line) <= columns for line in lines), lines
    hint = Player(HINT_LEVEL, seed=5).analyze(Game("oware"))
    for m in hint.moves:
        # Each move's value stays whole on one line ("3: +0.50").
        assert any(f"{m.action + 1}: {m.text}" in line for line in lines), (m.action, lines)
    assert len([line for line in lines if line.strip()]) > 2  # it did need wrapping


def test_watch_shows_its_keys_and_q_stops_it(tmp_path: Path) -> None:
    child = spawn(tmp_path, ["--levels", "1", "1", "--delay", "5"], command="watch")
    child.expect(re.escape(KEYS_HELP))
    started = time.monotonic()
    child.send("q")
    child.expect(r"Stopped before move (\d+)\.")
    assert matched(child) == "1"
    child.expect(r"Game record so far: [^\r\n]+")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert time.monotonic() - started < 4
