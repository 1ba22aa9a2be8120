"""The error of a module whose optional extra is not installed."""

from __future__ import annotations

__all__ = ["missing_extra"]


def missing_extra(module: str, extra: str, error: ImportError) -> ModuleNotFoundError:
    """A ``ModuleNotFoundError`` for ``ayo.<module>`` that names the command
    installing what it needs: the extra ``extra`` of the distribution
    ayo-mancala (from a clone, as docs/python.md says)."""
    return ModuleNotFoundError(
        f"ayo.{module} needs {error.name or 'a package'}, which the {extra!r} extra installs: "
        f'run `pip install ".[{extra}]"` in a clone of ayo (the distribution ayo-mancala; '
        "see docs/python.md)",
        name=error.name,
    )
