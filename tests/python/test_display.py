"""Pictures of a game (python/ayo/display.py): SVG, sowing frames, text, RGB."""

from __future__ import annotations

import pathlib
import random
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import ayo
from ayo import display

PRESETS = ["ayoayo", "ayo", "olopon", "oware"]
SVG = "{http://www.w3.org/2000/svg}"


def played(preset: str, seed: int, plies: int) -> ayo.Game:
    """A game after up to ``plies`` uniformly random moves."""
    rng = random.Random(seed)
    game = ayo.Game(preset)
    for _ in range(plies):
        if game.is_over:
            break
        game.play(rng.choice(game.legal_moves()))
    return game


def texts(svg_text: str) -> list[str]:
    root = ET.fromstring(svg_text)
    return [el.text or "" for el in root.iter(f"{SVG}text")]


def circles(svg_text: str) -> dict[int, ET.Element]:
    """The pit circles of a one-board SVG, by absolute pit (from their titles)."""
    root = ET.fromstring(svg_text)
    found = {}
    for el in root.iter(f"{SVG}circle"):
        title = el.find(f"{SVG}title")
        assert title is not None
        assert title.text is not None
        # "North's pit 3: 4 seeds": the owner's pit 1..6, as people number them.
        owner, number = title.text.split(":")[0].split("'s pit ")
        pit = int(number) - 1 + (6 if owner == "North" else 0)
        found[pit] = el
    return found


# ---------------------------------------------------------------- SVG board


@pytest.mark.parametrize("preset", PRESETS)
def test_svg_shows_every_count(preset: str) -> None:
    game = played(preset, 1, 9)
    svg = display.svg(game)
    pits = circles(svg)
    assert sorted(pits) == list(range(12))
    for pit, el in pits.items():
        title = el.find(f"{SVG}title")
        assert title is not None
        assert title.text is not None
        assert title.text.endswith(f"{int(game.board[pit])} seeds")
    words = texts(svg)
    for store in game.stores:
        assert str(int(store)) in words
    # move numbers 1..6 under South's row and over North's
    assert sum(w == "1" for w in words) >= 2


def test_svg_marks_the_mover_and_the_last_move() -> None:
    game = ayo.Game("oware")
    start = display.svg(game)
    assert "South to move" in start
    assert "last:" not in start
    assert all(el.get("stroke") is None for el in circles(start).values())
    game.play(2)  # South's pit 2
    after = display.svg(game)
    assert "North to move" in after
    assert "last: South 3" in after
    marked = {pit for pit, el in circles(after).items() if el.get("stroke")}
    assert marked == {2}
    root = ET.fromstring(after)
    shades = [
        el
        for el in root.iter(f"{SVG}rect")
        if (t := el.find(f"{SVG}title")) is not None and t.text == "North to move"
    ]
    assert len(shades) == 1


def test_svg_outcome() -> None:
    game = played("oware", 2, 10_000)
    assert game.outcome is not None
    svg = display.svg(game)
    south, north = game.outcome.scores
    assert f"{south}-{north}" in svg
    assert "to move" not in svg


def test_drawing_reprs() -> None:
    game = ayo.Game("ayo")
    drawing = display.show(game)
    assert drawing._repr_svg_() == display.svg(game)
    assert display.svg(game) in drawing._repr_html_()
    assert str(drawing) == drawing.svg


def test_drawing_save(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "board.svg"
    display.show(ayo.Game()).save(str(path))
    ET.parse(path)


def test_game_repr_svg_uses_display() -> None:
    game = played("ayoayo", 3, 5)
    if not hasattr(game, "_repr_svg_"):
        pytest.skip("ayo.Game has no _repr_svg_ yet (see the environments report)")
    assert game._repr_svg_() == display.svg(game)


# ---------------------------------------------------------------- sowing frames


def final_state(game: ayo.Game, action: int) -> tuple[list[int], list[int]]:
    after = game.copy()
    after.play(action)
    return [int(s) for s in after.board], [int(s) for s in after.stores]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("by_seed", [False, True])
def test_frames_end_where_the_engine_does(preset: str, by_seed: bool) -> None:
    """Replaying the trace lands on the engine's own position after the move."""
    kinds: set[str] = set()
    total = ayo.Rules(preset).total_seeds
    for seed in range(40):
        game = played(preset, seed, seed % 25)
        if game.is_over:
            continue
        for action in game.legal_moves():
            trace = game.trace(action)
            kinds.update(ev["event"] for ev in trace)
            frames = display.frames(game, action, by_seed=by_seed)
            assert frames[0].board == tuple(int(s) for s in game.board)
            board, stores = final_state(game, action)
            assert list(frames[-1].board) == board
            assert list(frames[-1].stores) == stores
            assert frames[-1].hand == 0
            for frame in frames:
                assert sum(frame.board) + sum(frame.stores) + frame.hand == total
            if by_seed:
                assert len(frames) == len(trace) + 1
    assert {"lift", "drop", "end"} <= kinds
    if preset == "ayoayo":
        assert {"relay", "capture"} <= kinds
    if preset == "ayo":
        assert {"relay", "collect"} <= kinds
    if preset in ("olopon", "oware"):
        assert "capture" in kinds


def test_frames_show_a_forfeited_grand_slam() -> None:
    # South's pit 5 holds 3: sowing 6, 7, 8 makes North's row 2, 2, 2 and
    # nothing else, so the 2-or-3 capture would empty it (a grand slam).
    game = ayo.Game.from_setup("oware", [0, 0, 0, 0, 0, 3, 1, 1, 1, 0, 0, 0], (20, 22))
    events = [ev["event"] for ev in game.trace(5)]
    assert "grand_slam_forfeited" in events
    frames = display.frames(game, 5)
    assert any("grand slam" in f.caption for f in frames)
    board, stores = final_state(game, 5)
    assert list(frames[-1].board) == board
    assert list(frames[-1].stores) == stores


def test_frames_after_a_collect_in_the_middle_of_a_lap() -> None:
    # North relays 8 from its pit 2; the sixth seed makes 4 in South's pit 2
    # (collected), and the lap goes on with the 2 seeds still in hand.
    game = ayo.Game(position="ayo 6,2,7,1,6,1/6,6,6,0,1,6 0-0 n 1 1")
    captions = [f.caption for f in display.frames(game, 0)]
    lift = "relay: lift 8 from North's pit 2, sow North's pits 3 to 6 and South's pits 1 to 2"
    i = captions.index(lift)
    assert captions[i + 1] == "South's pit 2 made 4: North takes them"
    assert captions[i + 2] == "2 seeds still in hand, sow South's pits 3 to 4"
    assert sum("lift 8 from" in c for c in captions) == 1
    assert sum("lift 9 from" in c for c in captions) == 1
    assert "7 seeds still in hand, sow North's pit 6 and South's pits 1 to 6" in captions


def test_sowing_frames_strip() -> None:
    game = ayo.Game("ayoayo")
    drawing = display.sowing_frames(game, 2, columns=2)
    root = ET.fromstring(drawing.svg)
    frames = display.frames(game, 2)
    boards = [g for g in root.iter(f"{SVG}g") if "scale" not in (g.get("transform") or "scale")]
    assert len(boards) == len(frames)
    words = " ".join(texts(drawing.svg))
    assert "South plays 3: " in words
    assert "relay" in words


def test_sowing_frames_elides_long_moves() -> None:
    # find a move with many laps in random ayoayo play
    for seed in range(200):
        game = played("ayoayo", seed, seed % 20)
        long = [a for a in game.legal_moves() if game.trace_summary(a)["laps"] >= 12]
        if long and not game.is_over:
            break
    else:
        pytest.fail("no long relay found")
    action = long[0]
    frames = display.frames(game, action)
    drawing = display.sowing_frames(game, action, max_frames=6)
    words = " ".join(texts(drawing.svg))
    assert f"{len(frames) - 6} not shown" in words
    assert words.count("…") == 1


def test_sowing_frames_bad_input() -> None:
    game = ayo.Game("oware")
    game.play(0)
    game.play(0)
    with pytest.raises(ayo.IllegalMoveError):
        display.sowing_frames(game, 0)
    with pytest.raises(ValueError, match="columns"):
        display.sowing_frames(game, 1, columns=0)
    with pytest.raises(ValueError, match="max_frames"):
        display.sowing_frames(game, 1, max_frames=1)
    with pytest.raises(ValueError, match="scale"):
        display.sowing_frames(game, 1, scale=0)


def test_sowing_animation() -> None:
    game = played("ayoayo", 5, 4)
    assert not game.is_over
    action = game.legal_moves()[0]
    frames = display.frames(game, action, by_seed=True)
    drawing = display.sowing_animation(game, action, seconds_per_frame=0.25)
    root = ET.fromstring(drawing.svg)
    animations = list(root.iter(f"{SVG}animate"))
    assert len(animations) == len(frames)
    assert {a.get("dur") for a in animations} == {f"{0.25 * len(frames):g}s"}
    # exactly one frame is visible at each moment: frame k from k/n to (k+1)/n
    n = len(frames)
    for k, anim in enumerate(animations):
        times = [float(t) for t in (anim.get("keyTimes") or "").split(";")]
        values = (anim.get("values") or "").split(";")
        visible_from = times[values.index("1")]
        assert visible_from == pytest.approx(k / n, abs=1e-6)
    short = display.sowing_animation(game, action, max_frames=3)
    assert len(list(ET.fromstring(short.svg).iter(f"{SVG}animate"))) == 3
    with pytest.raises(ValueError, match="seconds_per_frame"):
        display.sowing_animation(game, action, seconds_per_frame=0)
    with pytest.raises(ValueError, match="max_frames"):
        display.sowing_animation(game, action, max_frames=1)


# ---------------------------------------------------------------- text


def test_text_board() -> None:
    game = ayo.Game("oware")
    game.play(5)
    lines = display.text(game).splitlines()
    assert len(lines) == 6
    # North to move (">"), North's store, then its row right to left: pits
    # 11..6 after South sowed 4 seeds from pit 5 into 6..9
    assert lines[1].split() == [">", "0", "4", "4", "5", "5", "5", "5"]
    # South's store, then South's row with the last move in brackets
    assert lines[2].split() == ["0"]
    assert lines[3].split() == ["4", "4", "4", "4", "4", "[0]"]
    assert lines[5].startswith("North to move")
    assert "\x1b[" not in display.text(game)
    assert "\x1b[" in display.text(game, color=True)


# ---------------------------------------------------------------- RGB


def test_rgb_array_shape_and_scale() -> None:
    game = ayo.Game("olopon")
    image = display.rgb_array(game)
    assert image.shape == (176, 544, 3)
    assert image.dtype == np.uint8
    assert display.rgb_array(game, scale=2).shape == (352, 1088, 3)
    for bad in (0, -1, 1.5):
        with pytest.raises(ValueError, match="scale"):
            display.rgb_array(game, scale=bad)  # type: ignore[arg-type]


def test_rgb_array_draws_the_counts() -> None:
    game = ayo.Game("oware")
    before = display.rgb_array(game)
    game.play(0)
    after = display.rgb_array(game)
    changed = np.argwhere((before != after).any(axis=2))
    assert changed.size
    # every change is inside the board and labels area
    assert changed[:, 0].max() < before.shape[0]
    # the white digit pixels of pit 0 (bottom left pit: x in 80..144, y in 88..152)
    white = (after[88:152, 80:144] == 255).all(axis=2)
    zero_glyph = display._glyph("0")
    assert white.sum() == zero_glyph.sum() * 16  # one "0" at 4x4 pixels per font pixel


def test_rgb_array_differs_by_mover_and_end() -> None:
    game = ayo.Game("oware")
    south_to_move = display.rgb_array(game)
    game2 = ayo.Game.from_setup("oware", [4] * 12, (0, 0), to_move=1)
    north_to_move = display.rgb_array(game2)
    assert not np.array_equal(south_to_move, north_to_move)


def test_rgb_array_returns_a_fresh_image_each_time() -> None:
    game = ayo.Game("ayoayo")
    first = display.rgb_array(game)
    assert first.flags.writeable
    first[:] = 0
    second = display.rgb_array(game)
    assert second.any()
    assert not np.shares_memory(first, second)
