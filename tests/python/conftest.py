"""Shared helpers of the Python test suite: where the repository's files are."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "tests" / "vectors"


def load_json(path: Path) -> Any:
    """The parsed JSON of ``path``."""
    with path.open(encoding="utf-8") as f:
        return json.load(f)


def move_vector_files() -> list[Path]:
    """Every ``tests/vectors/moves-*.json``, sorted."""
    return sorted(VECTORS.glob("moves-*.json"))


def move_vectors() -> list[dict[str, Any]]:
    """Every vector of every ``moves-*.json``, each with its file name added."""
    out: list[dict[str, Any]] = []
    for path in move_vector_files():
        doc = load_json(path)
        assert doc["format"] == "ayo-vectors/1", path
        for v in doc["vectors"]:
            out.append({**v, "file": path.name})
    return out


@pytest.fixture(scope="session")
def repo_root() -> Path:
    """The repository's root folder."""
    return ROOT
