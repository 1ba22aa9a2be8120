"""Every exception of ``ayo._ayo`` lives in one module (ayo-py/src/errors.rs),
is an ``AyoError`` (a ``ValueError``), has the same name in Rust and Python,
and survives pickling with its message."""

from __future__ import annotations

import pickle

import pytest

import ayo
from ayo import _ayo

NAMES = [
    "AyoError",
    "RulesError",
    "IllegalMoveError",
    "RecordError",
    "SetupError",
    "DatabaseError",
    "EpisodeOverError",
    "StatelessError",
]


@pytest.mark.parametrize("name", NAMES)
def test_each_exception_is_an_ayo_error_and_pickles(name: str) -> None:
    cls = getattr(_ayo, name)
    assert cls.__name__ == name
    assert cls.__module__ == "ayo._ayo"
    assert issubclass(cls, ValueError)
    assert issubclass(cls, _ayo.AyoError)
    err = cls("a message")
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is cls
    assert str(back) == "a message"


def test_a_raised_error_pickles() -> None:
    game = ayo.Game("oware")
    with pytest.raises(ayo.IllegalMoveError) as info:
        game.play(9)
    back = pickle.loads(pickle.dumps(info.value))
    assert str(back) == str(info.value)


def test_the_batch_name_is_the_same_class() -> None:
    assert _ayo.VecEpisodeOverError is _ayo.EpisodeOverError
