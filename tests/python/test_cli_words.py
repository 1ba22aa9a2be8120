"""What a person reads: pits numbered 1..6 from their owner's side in every message.

The preview and the move messages of ``ayo play``, the sowing captions of
:mod:`ayo.display` (the terminal's and the notebook's), ``ayo replay``'s
errors, the levels in words, the board's marks and the word wrapping. Each
expectation is read from the engine (its trace and its errors), not typed
in by hand.
"""

from __future__ import annotations

import html
import io
import random
import re

import pytest

import ayo
from ayo import Game, IllegalMoveError, RecordError, Rules
from ayo.ai import Player
from ayo.cli import main
from ayo.cli.board import Style, View, draw
from ayo.cli.levels import BEGINNER_LEVEL, level_words
from ayo.cli.move_words import move_story, preview_words, why_illegal
from ayo.cli.replay import record_problem
from ayo.cli.screen import KEEP, Screen
from ayo.display import frames, sowing_frames
from ayo.display.words import pit_name, pit_runs, subject_verb

PRESETS = ["ayoayo", "ayo", "olopon", "oware"]
START = "4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0"
# An owner's pit: "South's pit 3", "your pits 2 to 5", "Computer's pit 1".
OWNED_PIT = r"(?:South's|North's|your|Computer's) pits? [1-6](?: to [1-6])?"
# Found by random play: North's pit 2 relays for ever.
ENDLESS_RELAY = "ayoayo 1,0,1,2,1,0/4,5,1,2,3,0 8-20 n 2 11"


def positions(preset: str, games: int = 12) -> list[Game]:
    """Positions of random games (seeded), every tenth ply."""
    out = []
    for seed in range(games):
        game, rng = Game(preset), random.Random(seed)
        while not game.is_over:
            if game.ply % 10 == 0:
                out.append(game.copy())
            game.play(rng.choice(game.legal_moves()))
    return out


def bare_pit_numbers(text: str) -> list[str]:
    """Mentions of a pit that are not an owner's pit 1..6 (a 0..11 index)."""
    return re.findall(r"\bpits? \d+", re.sub(OWNED_PIT, "", text))


# ---------------------------------------------------------------- pit words


def test_pit_names_and_runs() -> None:
    assert pit_name(0) == "South's pit 1"
    assert pit_name(11) == "North's pit 6"
    assert pit_name(4, ("You", "Computer")) == "your pit 5"
    assert pit_runs([2, 3, 4, 5, 6, 7, 8, 9]) == "South's pits 3 to 6 and North's pits 1 to 4"
    assert pit_runs([7]) == "North's pit 2"
    many = [*range(3, 12), *range(0, 12)]
    assert pit_runs(many) == "21 pits, from South's pit 4 round to North's pit 6"
    assert subject_verb("You", "take") == "You take"
    assert subject_verb("You", "take", start=False) == "you take"
    assert subject_verb("Player 2", "capture") == "Player 2 captures"


@pytest.mark.parametrize("preset", PRESETS)
def test_sowing_captions_use_the_owners_numbers(preset: str) -> None:
    """No caption names a pit by its 0..11 index; the lift names the mover's pit."""
    for game in positions(preset):
        mover = ("South", "North")[game.to_move]
        for action in game.legal_moves():
            captions = [f.caption for f in frames(game, action)[1:]]
            assert captions[0].startswith(f"lift {int(game.board[game.to_move * 6 + action])} ")
            assert f"from {mover}'s pit {action + 1}" in captions[0]
            for caption in captions:
                assert bare_pit_numbers(caption) == [], caption
            for caption in (f.caption for f in frames(game, action, by_seed=True)[1:]):
                assert bare_pit_numbers(caption) == [], caption


def test_the_notebooks_strip_names_the_move_by_its_pit_number() -> None:
    game = Game("ayoayo")
    game.play(1)  # North to move
    action = game.legal_moves()[-1]
    svg = re.sub(r"<title>.*?</title>", "", sowing_frames(game, action).svg)  # pits' tooltips
    words = html.unescape(re.sub(r"<[^>]+>", " ", svg))
    assert f"North plays {action + 1}: " in words
    assert f"from North's pit {action + 1}" in words
    assert bare_pit_numbers(words) == []


# ---------------------------------------------------------------- the preview


def gains_of(game: Game, action: int) -> list[tuple[str, int]]:
    """(pit words, seeds) of every collect and capture in the engine's trace."""
    out = []
    for ev in game.trace(action):
        if ev["event"] == "collect":
            out.append((pit_name(int(ev["pit"])), 4))
        elif ev["event"] == "capture":
            out.append((pit_name(int(ev["pit"])), int(ev["seeds"])))
    return out


@pytest.mark.parametrize("preset", PRESETS)
def test_the_preview_tells_the_facts_of_the_trace(preset: str) -> None:
    seen_gain = False
    for game in positions(preset, games=6):
        for action in range(6):
            line = preview_words(game, action)
            assert line.startswith(f"Pit {action + 1}")
            assert bare_pit_numbers(line) == [], line
            if not game.is_legal(action):
                assert "cannot be played: " in line
                continue
            summary = game.trace_summary(action)
            laps = int(summary["laps"])
            last = pit_name(int(summary["last_pit"]))
            assert (
                f"{laps} lap{'s' if laps != 1 else ''}, the last seed in {last} (marked *)" in line
            )
            gains = gains_of(game, action)
            for where, seeds in gains:
                assert f"{seeds} from {where}" in line
            assert ("nothing is taken" in line) == (not gains)
            seen_gain = seen_gain or bool(gains)
            forfeited = any(ev["event"] == "grand_slam_forfeited" for ev in game.trace(action))
            assert ("forfeited" in line) == forfeited
    assert seen_gain


def test_the_preview_says_who_collects_in_collect_on_4() -> None:
    for game in positions("ayo", games=8):
        for action in game.legal_moves():
            for ev in game.trace(action):
                if ev["event"] == "collect":
                    taker = ("South", "North")[0 if ev["to"] in (0, "south") else 1]
                    assert f"{taker} collects " in move_story(game, action)
                    return
    pytest.fail("no collected 4 in these games")


def test_the_preview_of_an_endless_relay_and_of_a_move_that_does_not_feed() -> None:
    relay = Game(position=ENDLESS_RELAY)
    with pytest.raises(IllegalMoveError) as e:
        relay.trace(1)
    assert e.value.reason == "endless_relay"
    assert preview_words(relay, 1) == (
        "Pit 2 cannot be played: its relays would go round forever (an endless relay)."
    )
    # South's pit 1 stays in South's row while North's is empty; pit 6 feeds it.
    starve = Game.from_setup("oware", [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0], (23, 23))
    with pytest.raises(IllegalMoveError) as e:
        starve.trace(0)
    assert e.value.reason == "does_not_feed"
    names = ("You", "Computer")
    assert why_illegal(starve, 0, names) == (
        "it leaves Computer's empty row without seeds, and feeding is required"
    )
    assert preview_words(starve, 5, names).startswith(
        "Pit 6: 1 lap, the last seed in Computer's pit 1 (marked *)"
    )
    empty = Game.from_setup("oware", [0, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4], (4, 0))
    assert preview_words(empty, 0) == "Pit 1 cannot be played: it is empty."


# ---------------------------------------------------------------- the board


def test_the_preview_mark_never_hides_the_last_move_mark() -> None:
    view = View(board=[4] * 12, stores=[0, 0], to_move=0, cursor=2, landing=8, last=8)
    lines = draw(view, Style.make(False))
    top = next(line for line in lines if line.lstrip().startswith("store"))
    assert "  4*'" in top  # both marks on North's pit 3
    coloured = "\n".join(draw(view, Style.make(True)))
    assert "*" in coloured
    assert "'" in coloured
    # Each mark alone.
    alone = draw(View(board=[4] * 12, stores=[0, 0], landing=8, last=3), Style.make(False))
    assert any("  4* " in line for line in alone)
    assert any("  4' " in line for line in alone)


def test_both_stores_are_labelled_beside_their_counts() -> None:
    lines = draw(View(board=[4] * 12, stores=[7, 12], bottom=0), Style.make(False))
    middle = next(line for line in lines if re.match(r"^\s+\d+\s+\+", line))
    assert re.match(r"^\s+12\s+\+-.*-\+\s+7$", middle)  # North's on the left, South's right
    i = lines.index(middle)
    assert lines[i - 1].split()[0] == "store"
    assert lines[i + 1].split()[-1] == "store"


# ---------------------------------------------------------------- wrapping


class _Terminal(io.StringIO):
    """A fake terminal's output of a given width."""

    def __init__(self, columns: int) -> None:
        super().__init__()
        self.columns = columns

    def isatty(self) -> bool:
        return True


def test_messages_wrap_between_words_only(monkeypatch: pytest.MonkeyPatch) -> None:
    out = _Terminal(30)
    screen = Screen(out, Style.make(False), clear=True)
    monkeypatch.setattr(screen, "width", lambda: out.columns)
    text = f"Each move: 1:{KEEP}+0.50, 2:{KEEP}-1.25, 3:{KEEP}loss{KEEP}by{KEEP}2, 4:{KEEP}+12.00."
    lines = screen.wrap(text)
    assert len(lines) > 1
    assert all(len(line) <= 30 for line in lines)
    assert " ".join(line.strip() for line in lines) == text.replace(KEEP, " ")
    for kept in ("1: +0.50,", "3: loss by 2,", "4: +12.00."):
        assert any(kept in line for line in lines)
    # A pit's name is never cut from its number.
    story = "you collect 4 from Computer's pit 5, 4 from your pits 2 to 6 and 4 from your pit 1"
    for columns in range(20, 60):
        out.columns = columns
        cut = screen.wrap(story)
        assert " ".join(line.strip() for line in cut) == story
        for name in ("pit 5", "pits 2 to 6", "pit 1"):
            assert any(name in line for line in cut), (columns, cut)
    # Not a terminal: one line, as written.
    assert Screen(io.StringIO(), Style.make(False), clear=False).wrap(text) == [
        text.replace(KEEP, " ")
    ]


def test_a_terminal_too_narrow_for_the_board_is_told_so(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game("ayo")
    view = View(board=tuple(game.board), stores=tuple(game.stores), bottom=0)
    for color in (False, True):
        board = draw(view, Style.make(color))
        widest = max(len(re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", line)) for line in board)
        for columns in (widest + 1, widest, 40, 20):
            out = _Terminal(columns)
            screen = Screen(out, Style.make(color), clear=True)
            monkeypatch.setattr(screen, "width", lambda out=out: out.columns)
            screen.show(["Ayo", *board, "", "your move (1-6, u, h, q)"])
            shown = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", out.getvalue()).split("\n")
            # Nothing the terminal would wrap: every line fits.
            assert all(len(line) < columns for line in shown), (columns, shown)
            if columns > 25:  # the prompt fits
                assert "your move (1-6, u, h, q)" in shown
            told = f"at least {widest + 1} columns wide; this one has {columns}."
            if columns > widest:
                assert "columns wide" not in out.getvalue()
                assert len(shown) > len(board)
            else:
                assert told in " ".join(" ".join(shown).split()), shown
                # None of the board, rather than some of it.
                assert not any(line in shown for line in board if line.strip())


# ---------------------------------------------------------------- levels


def test_levels_in_words_follow_the_games_rules() -> None:
    oware, ayo_rules = Rules("oware"), Rules("ayo")
    assert level_words("4", oware) == "level 4 looks four moves ahead"
    assert Player.level_spec("4", oware) == ("alphabeta", "depth=4")
    # Collect-on-4 games have their own table.
    assert Player.level_spec("4", ayo_rules) == ("mcts", "nodes=12")
    assert level_words("4", ayo_rules) == (
        "level 4 plays twelve quick random games to the end before each move"
    )
    assert "beginner" in level_words(BEGINNER_LEVEL, oware)
    assert level_words("1", oware).startswith("level 1 plays a random legal move")
    assert "300,000 positions" in level_words("max", oware)
    assert "endgame databases" in level_words("perfect", oware)
    for level in Player.levels():
        for rules in (oware, ayo_rules):
            words = level_words(level, rules)
            assert "(" not in words.split(" (")[0]  # no kind(budget) notation
            assert "=" not in words


def test_play_help_gives_the_levels_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "level 4 plays twelve quick random games" in out
    assert f"Start with --level {BEGINNER_LEVEL}" in out
    assert "mcts(" not in out


# ---------------------------------------------------------------- replay's errors


def record_error(text: str) -> RecordError:
    with pytest.raises(RecordError) as e:
        Game.from_record(text)
    return e.value


def test_replay_errors_use_the_pit_numbers_of_the_record() -> None:
    out_of_range = f"oware {START} | 3 9"
    message = record_problem(out_of_range, record_error(out_of_range))
    assert message == (
        "not a game record: move 2 (9): a move is a pit number 1 to 6 of the player to move"
    )
    # South's pit 1 emptied by move 1, and North's reply leaves it empty.
    game = Game("oware")
    game.play(0)
    for reply in game.legal_moves():
        after = game.copy()
        after.play(reply)
        if not after.is_legal(0):
            break
    else:
        pytest.fail("every reply refills South's pit 1")
    empty = f"oware {START} | 1 {reply + 1} 1"
    message = record_problem(empty, record_error(empty))
    assert message == "not a game record: move 3 (1): South's pit 1 cannot be played: it is empty"
    # Other fields keep the engine's message, which names no pit.
    bad_board = "oware 4,4,4/4 0-0 s 0 0 | 1"
    assert record_problem(bad_board, record_error(bad_board)).startswith("not a game record: bad")


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        status = main(args)
    except SystemExit as e:
        status = int(e.code) if isinstance(e.code, int) else 1
    out, err = capsys.readouterr()
    return status, out, err


def test_replay_error_in_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run_cli(["replay", f"oware {START} | 9"], capsys)
    assert status == 2
    assert err.startswith("usage: ayo replay")
    assert "move 1 (9): a move is a pit number 1 to 6" in err
    assert "action" not in err
    assert "0..=5" not in err


# ---------------------------------------------------------------- the command's own errors


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(["--version"], capsys)
    assert status == 0
    assert out == f"ayo {ayo.__version__}\n"


@pytest.mark.parametrize(
    ("args", "usage", "words"),
    [
        (["play", "--level", "9"], "ayo play", "expected 1 to 8, max, learned or perfect"),
        (["watch", "--levels", "0", "1"], "ayo watch", "expected 1 to 8, max, learned or perfect"),
        (["analyze", START, "--level", "x"], "ayo analyze", "1 to 8, max, learned or perfect"),
        (["arena", "--levels", "9", "1"], "ayo arena", "1 to 8, max, learned or perfect"),
        (["play", "--players", "3"], "ayo play", "--players"),
        (["play", "--players", "2", "--first", "computer"], "ayo play", "not with --players 2"),
        (["play", "--rules", "nope"], "ayo play", "nope"),
        (["replay", "nope"], "ayo replay", "not a game record"),
        (["solve", "build", "--rules", "nope", "--max-seeds", "2"], "ayo solve build", "nope"),
    ],
)
def test_a_subcommands_error_prints_its_usage(
    args: list[str], usage: str, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run_cli(args, capsys)
    assert status == 2
    assert err.startswith(f"usage: {usage} ")
    assert words in err
