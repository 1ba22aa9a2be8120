"""The `ayo` command, run as a real program (python -m ayo.cli).

Non-interactive commands run through a pipe (subprocess); the game itself
runs through a pty with pexpect (raw keys, tests/python/test_cli_pty.py) and
here with commands typed a line at a time. Every expectation is checked
against the engine (ayo.Game, ayo.ai), not against fixed text.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from cli_run import ayo_command as run

from ayo import Game, Rules
from ayo.ai import Player
from ayo.cli import main
from ayo.cli.analyze import move_text, signed
from ayo.cli.common import describe_outcome, make_rules, pit_words
from ayo.cli.keys import _tokens
from ayo.cli.play import HINT_LEVEL
from ayo.cli.scoreboard import UNRECORDED_RULES, Scoreboard
from ayo.display import frames

START = "4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0"


def cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``ayo ARGS`` in this process: exit status, stdout, stderr."""
    try:
        status = main(args)
    except SystemExit as e:
        status = int(e.code) if isinstance(e.code, int) else 1
    out, err = capsys.readouterr()
    return status, out, err


def no_traceback(proc: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in proc.stderr
    assert "Traceback" not in proc.stdout


# ---------------------------------------------------------------- rules


def test_rules_oware_mentions_the_two_or_three_capture(tmp_path: Path) -> None:
    proc = run(["rules", "oware"], tmp_path)  # the installed program, once
    assert proc.returncode == 0, proc.stderr
    text = " ".join(proc.stdout.split())
    assert "makes that pit hold 2 or 3" in text
    assert "at least 25 seeds wins" in text
    assert "Repetition:" in text
    assert "Collect on 4" not in text


def test_rules_text_follows_the_parameters(capsys: pytest.CaptureFixture[str]) -> None:
    def words(*args: str) -> str:
        status, out, _ = cli(["rules", *args], capsys)
        assert status == 0
        return " ".join(out.split())

    ayo = words("ayo")
    assert "exactly 4" in ayo
    assert "After 60 moves in a row with nothing captured" in ayo
    assert "go to the other player" in ayo
    ayoayo = words("ayoayo")
    assert "Capture across" in ayoayo
    assert "plus the capturing seed" in ayoayo
    assert "capturing seed stays in its pit" in words(
        "ayoayo", "--rule", "capturing_seed_taken=false"
    )
    assert "There is no target" in words("oware", "--rule", "target=none")
    assert "Every pit" not in words("oware", "--rule", "seeds_per_pit=3")
    assert "3 seeds in each of the 12 pits (36 in all)" in words(
        "oware", "--rule", "seeds_per_pit=3"
    )
    assert "North moves first" in words("olopon", "--rule", "first_player=north")


def test_rules_without_a_preset_lists_every_preset(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = cli(["rules"], capsys)
    assert status == 0
    for title in ("Ayoayo", "Ayo (the web app", "Ayò Ọlọ́pọ́n", "Oware"):
        assert title in out


# ---------------------------------------------------------------- bad arguments


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "--level", "9"], "not a level"),
        (["play", "--rules", "nonsense"], "unknown rules preset"),
        (["play", "--rule", "target"], "key=value"),
        (["play", "--rule", "target=lots"], "target"),
        (["play", "--first", "nobody"], "invalid choice"),
        (["play", "--delay", "-1"], "--delay"),
        (["arena", "--games", "0"], "--games"),
        (["arena", "--levels", "3"], "at least two levels"),
        (["analyze", "not a position"], "not a position record"),
        (["replay", f"oware {START} | 9"], "not a game record"),
        (["rules", "chess"], "unknown rules preset"),
        (["fly"], "invalid choice"),
        ([], "required"),
    ],
)
def test_bad_arguments_get_a_usage_error(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    status, out, err = cli(args, capsys)
    assert status == 2
    assert "usage: ayo" in err
    assert message in err
    assert out == ""


def test_bad_arguments_of_the_installed_program(tmp_path: Path) -> None:
    proc = run(["play", "--level", "eleven"], tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.startswith("usage: ayo play")
    message = "argument --level: `eleven` is not a level; expected 1 to 8, max, learned or perfect"
    assert f"ayo play: error: {message}" in proc.stderr
    no_traceback(proc)


# ---------------------------------------------------------------- analyze and replay


def test_analyze_prints_the_players_analysis(tmp_path: Path) -> None:
    game = Game("oware")
    for action in (2, 0, 5):
        game.play(action)
    record = game.position_record()
    proc = run(["analyze", record, "--level", "5"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    a = Player("5").analyze(game)
    assert a.best is not None
    assert a.basis == "search"
    headline = f"Best move: {a.best + 1} (North); {a.label}: {signed(a.value)} for North,"
    assert headline in proc.stdout
    pv = " ".join(str(x + 1) for x in a.pv)
    assert f"Principal variation: {pv}" in proc.stdout
    listed = re.findall(r"^ {2}(\d): +(\S.*?) \(([^)]+)\)", proc.stdout, re.M)
    assert [int(n) - 1 for n, _, _ in listed] == game.legal_moves()
    assert [(t, b) for _, t, b in listed] == [(signed(m.value), m.label) for m in a.moves]
    deep = run(["analyze", record, "--level", "alphabeta:depth=8"], tmp_path)
    b = Player.from_kind("alphabeta", depth=8).analyze(game)
    assert b.best is not None
    headline = f"Best move: {b.best + 1} (North); {b.label}: {signed(b.value)} for North,"
    assert headline in deep.stdout
    assert "depth 8," in deep.stdout


def test_replay_prints_every_move_and_the_end(tmp_path: Path) -> None:
    game = Game("olopon")
    player = Player("1", seed=11)
    while not game.is_over:
        game.play(player.choose(game))
    proc = run(["replay", game.record()], tmp_path)
    assert proc.returncode == 0, proc.stderr
    numbered = re.findall(r"^(\d+)\. (South|North) plays (\d)", proc.stdout, re.M)
    assert len(numbered) == len(game.moves)
    assert [int(n) for n, _, _ in numbered] == list(range(1, len(game.moves) + 1))
    assert [int(p) for _, _, p in numbered] == [m % 6 + 1 for m in game.moves]
    assert game.outcome is not None
    assert describe_outcome(game.outcome, game.rules, stuck=game.to_move) in proc.stdout


# ---------------------------------------------------------------- a game, one line a command


def scripted_moves(n: int) -> str:
    """Commands that keep trying pits 1..6 in turn (illegal ones get a hint)."""
    return "".join(f"{i % 6 + 1}\n" for i in range(n))


def test_line_mode_plays_a_whole_game(tmp_path: Path) -> None:
    proc = run(["play", "--level", "1", "--seed", "3"], tmp_path, stdin=scripted_moves(600))
    assert proc.returncode == 0, proc.stderr
    no_traceback(proc)
    match = re.search(r"^Game record: (.+)$", proc.stdout, re.M)
    assert match, proc.stdout[-2000:]
    game = Game.from_record(match.group(1))
    outcome = game.outcome
    assert outcome is not None
    line = describe_outcome(outcome, game.rules, ("You", "Computer"), stuck=game.to_move)
    assert line in proc.stdout
    assert "You (South)" in proc.stdout
    assert "Computer (North)" in proc.stdout
    # The scoreboard counted the game (and the win, if it was one).
    data = json.loads((tmp_path / "data" / "scores.json").read_text())
    assert data["played"] == {"ayo": {"1": 1}}
    assert len(data["wins"]) == (1 if outcome.winner == 0 else 0)


def test_line_mode_bad_commands_get_a_hint_and_quit_leaves(tmp_path: Path) -> None:
    game = Game("ayo")
    proc = run(["play", "--level", "2", "--seed", "1"], tmp_path, stdin="7\nfoo\nh\nq\n")
    assert proc.returncode == 0
    no_traceback(proc)
    assert "'7' is not a command" in proc.stdout
    assert "'foo' is not a command" in proc.stdout
    best = Player(HINT_LEVEL, seed=1).analyze(game)
    assert best.best is not None
    value = move_text(best.text, best.value, best.basis)
    assert f"Hint: play {best.best + 1} (value {value} seeds" in proc.stdout
    assert "You left the game" in proc.stdout
    assert not (tmp_path / "data" / "scores.json").exists()


def test_line_mode_undo_takes_back_both_moves(tmp_path: Path) -> None:
    proc = run(["play", "--level", "2", "--seed", "1", "--rules", "oware"], tmp_path, "3\nu\nq\n")
    assert "Took back your move and the computer's reply." in proc.stdout
    screens = proc.stdout.split("Ayo · rules")
    after_undo = next(s for s in screens if "Took back" in s)
    rows = [
        re.findall(r"\d+", line[line.index("|") : line.rindex("|")])
        for line in after_undo.splitlines()
        if re.match(r"^(\s+store)?\s+\|", line)
    ]
    assert rows == [["4"] * 6, ["4"] * 6]


def test_line_mode_empty_pit_is_refused_with_the_engines_reason(tmp_path: Path) -> None:
    # Find a first move whose pit is still empty after the computer's reply.
    for action in range(6):
        game = Game("oware")
        game.play(action)
        game.play(Player("2", seed=4).choose(game))
        if not game.is_legal(action):
            break
    else:
        pytest.fail("every pit was refilled by the reply")
    key = f"{action + 1}\n"
    proc = run(
        ["play", "--level", "2", "--seed", "4", "--rules", "oware"], tmp_path, key * 2 + "q\n"
    )
    assert f"Pit {action + 1} cannot be played: " in proc.stdout
    assert "Choose another pit." in proc.stdout


def test_computer_first_puts_the_human_at_the_bottom_as_north(tmp_path: Path) -> None:
    proc = run(["play", "--level", "1", "--seed", "2", "--first", "computer"], tmp_path, "q\n")
    assert proc.returncode == 0
    assert "Computer plays" in proc.stdout
    assert "You (North)" in proc.stdout
    # The human's row is drawn below the computer's.
    first = proc.stdout.index("Computer (South)")
    assert proc.stdout.index("You (North)", first) > first


# ---------------------------------------------------------------- scoreboard


def test_damaged_scoreboard_is_reported_and_set_aside(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "scores.json").write_text("{ this is not json")
    proc = run(["scores"], tmp_path)
    assert proc.returncode == 0
    no_traceback(proc)
    assert "is damaged" in proc.stderr
    assert "set aside" in proc.stderr
    assert (data / "scores.json.bad").read_text() == "{ this is not json"
    assert not (data / "scores.json").exists()
    assert "Personal best: none yet" in proc.stdout


def test_scoreboard_of_the_wrong_shape_is_set_aside_before_a_game(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "scores.json").write_text(json.dumps({"version": 1, "wins": [{"level": 3}]}))
    proc = run(["play", "--level", "1", "--seed", "3"], tmp_path, stdin=scripted_moves(600))
    assert proc.returncode == 0
    assert "set aside" in proc.stderr
    assert (data / "scores.json.bad").exists()
    assert json.loads((data / "scores.json").read_text())["played"] == {"ayo": {"1": 1}}
    scores = run(["scores"], tmp_path)
    assert re.search(r"^\s+1\s+1\s+[01]\s", scores.stdout, re.M), scores.stdout


def test_unreadable_scoreboard_is_not_a_crash(tmp_path: Path) -> None:
    data = tmp_path / "data"
    (data / "scores.json").mkdir(parents=True)  # a directory where the file should be
    proc = run(["scores"], tmp_path)
    assert proc.returncode == 0
    no_traceback(proc)
    assert "scoreboard" in proc.stderr


def test_scoreboard_keeps_wins_and_the_personal_best(tmp_path: Path) -> None:
    path = tmp_path / "scores.json"
    board = Scoreboard.load(path)
    assert board.record_game("3", "ayo", (30, 18), human=0) is not None
    assert board.record_game("3", "ayo", (20, 28), human=0) is None
    assert board.record_game("5", "oware", (10, 27), human=1) is not None
    assert board.save() is None
    assert board.record_game("3", "oware", (33, 15), human=0) is not None
    assert board.save() is None
    again = Scoreboard.load(path)
    assert again.problem is None
    # Each rule set apart: its games, wins and personal best.
    assert again.played == {"ayo": {"3": 2}, "oware": {"5": 1, "3": 1}}
    assert again.best("ayo", "3") == 30
    assert again.best("oware", "5") == 27
    assert again.best("oware", "3") == 33
    assert again.best("ayo") == 30
    assert again.best("oware") == 33
    assert again.best("olopon") is None
    table = "\n".join(again.table())
    ayo_part, oware_part = table.split("\noware")
    assert "ayo · personal best: 30" in ayo_part
    assert re.search(r"^\s+3\s+2\s+1\s+30\s", ayo_part, re.M)
    assert " · personal best: 33" in oware_part
    assert re.search(r"^\s+3\s+1\s+1\s+33\s", oware_part, re.M)
    assert re.search(r"^\s+5\s+1\s+1\s+27\s", oware_part, re.M)


def test_a_version_1_scoreboard_keeps_its_wins_and_counts(tmp_path: Path) -> None:
    path = tmp_path / "scores.json"
    win = {"level": "4", "seeds": 29, "opponent_seeds": 19, "rules": "ayo", "date": "2026-01-01"}
    path.write_text(json.dumps({"version": 1, "wins": [win], "played": {"4": 3}}))
    board = Scoreboard.load(path)
    assert board.problem is None
    assert board.best("ayo") == 29
    assert board.played == {UNRECORDED_RULES: {"4": 3}}
    assert "rules not recorded" in "\n".join(board.table())


def test_data_dir_follows_xdg_when_no_override(tmp_path: Path) -> None:
    env = {"AYO_DATA_DIR": "", "XDG_DATA_HOME": str(tmp_path / "xdg")}
    proc = run(["scores"], tmp_path, extra_env=env)
    assert str(tmp_path / "xdg" / "ayo" / "scores.json") in proc.stdout


# ---------------------------------------------------------------- watch and arena


def test_watch_plays_a_game_between_two_levels(tmp_path: Path) -> None:
    proc = run(["watch", "--levels", "1", "2", "--delay", "0", "--rules", "oware"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    match = re.search(r"^Game record: (.+)$", proc.stdout, re.M)
    assert match
    game = Game.from_record(match.group(1))
    # The same game again from the same seed (South seed 1, North seed 2).
    replayed = Game("oware")
    players = [Player("1", seed=1), Player("2", seed=2)]
    while not replayed.is_over:
        replayed.play(players[replayed.to_move].choose(replayed))
    assert replayed.record() == game.record()
    assert game.outcome is not None
    names = ("Level 1", "Level 2")
    assert describe_outcome(game.outcome, game.rules, names, stuck=game.to_move) in proc.stdout


def test_arena_prints_results_and_ratings(tmp_path: Path) -> None:
    args = ["arena", "--levels", "1", "mcts:nodes=200", "--games", "4", "--rules", "ayo"]
    proc = run(args, tmp_path)
    assert proc.returncode == 0, proc.stderr
    m = re.search(r"1 +vs mcts:nodes=200 +\+(\d+) =(\d+) -(\d+) +score ([\d.]+)", proc.stdout)
    assert m, proc.stdout
    wins, draws, losses = (int(m.group(i)) for i in (1, 2, 3))
    assert wins + draws + losses == 4
    assert float(m.group(4)) == pytest.approx((wins + draws / 2) / 4, abs=1e-3)
    assert re.search(r"^  1 +\+0  \[\+0, \+0\]$", proc.stdout, re.M)
    assert "8 games" not in proc.stdout
    assert "4 games in" in proc.stdout


def test_arena_player_specs_are_checked(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = cli(["arena", "--levels", "1", "mcts:depth=lots"], capsys)
    assert status == 2
    assert "player 'mcts:depth=lots'" in err
    status, _, err = cli(["arena", "--levels", "1", "minimax"], capsys)
    assert status == 2
    assert "not a level" in err


def test_arena_anchors_ratings_at_level_1(tmp_path: Path) -> None:
    proc = run(["arena", "--levels", "3", "1", "--games", "2", "--rules", "oware"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "1 = 0" in proc.stdout
    assert re.search(r"^  1 +\+0  \[\+0, \+0\]$", proc.stdout, re.M)


# ---------------------------------------------------------------- helpers used above


def test_rule_overrides_are_built_by_the_engine() -> None:
    rules = make_rules("oware", ["target=none", "repetition=off"])
    assert rules == Rules("oware", target=None, repetition="off")


def test_pit_words_name_owner_and_move_number() -> None:
    assert pit_words(0) == "South's pit 1"
    assert pit_words(11) == "North's pit 6"
    assert pit_words(8, ("You", "Computer")) == "Computer's pit 3"
    assert pit_words(5, ("You", "Computer")) == "your pit 6"


def test_sowing_captions_name_every_pit_by_its_owner() -> None:
    game = Game("ayo")
    names = ("You", "Computer")
    captions = [f.caption for f in frames(game, 0, names=names)[1:]]
    assert captions[0] == "lift 4 from your pit 1, sow your pits 2 to 5"
    for caption in captions:
        # Every pit number follows an owner: no bare absolute index is left.
        assert not re.search(r"(?<!your )(?<!Computer's )pits? \d", caption), caption


def test_the_personal_best_is_shown_during_a_game(tmp_path: Path) -> None:
    board = Scoreboard.load(tmp_path / "data" / "scores.json")
    board.record_game("5", "oware", (31, 17), human=0)
    assert board.save() is None
    proc = run(["play", "--level", "1", "--seed", "1", "--rules", "oware"], tmp_path, "q\n")
    assert "personal best (oware): 31" in proc.stdout
    assert proc.stderr == ""
    # Another rule set's games have their own personal best.
    proc = run(["play", "--level", "1", "--seed", "1", "--rules", "ayo"], tmp_path, "q\n")
    assert "personal best (ayo): none yet" in proc.stdout


def test_key_tokens_of_a_terminal_read() -> None:
    assert _tokens("1\x1b[C\x1b[D\r u?q") == ["1", "right", "left", "enter", "enter", "u", "h", "q"]
    assert _tokens("\x1b") == ["other:Esc"]
    assert _tokens("\x1b[15~x") == ["other:\\x1b[15~", "other:x"]
    assert _tokens("\x04") == ["eof"]


def test_analyze_an_ended_position_gives_the_result(capsys: pytest.CaptureFixture[str]) -> None:
    record = "oware 0,0,0,0,0,0/0,0,0,0,0,1 24-23 s 0 10"
    game = Game(position=record)
    assert game.outcome is not None
    status, out, _ = cli(["analyze", record, "--no-color"], capsys)
    assert status == 0
    assert "The game is over. " + describe_outcome(game.outcome, game.rules, stuck=0) in out
