"""The scoreboard: wins against the computer, per rule set and level, as in the web app.

Each win keeps the seeds collected in it (the web app's score); the best
score at a level and over all levels of a rule set (its personal best)
follow from them. Rule sets are kept apart: a score under one is never
compared with a score under another.
The file is JSON in the user's data directory: ``$AYO_DATA_DIR`` when set,
else the platform's data directory for ``ayo`` (``$XDG_DATA_HOME/ayo`` or
``~/.local/share/ayo`` on Linux). A file that cannot be read or does not
hold a scoreboard is reported and set aside (renamed ``.bad``, or ``.bad.1``,
``.bad.2``, ... where that is taken: nothing set aside is overwritten), and a
new scoreboard is started: never a crash.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["FILE_NAME", "UNRECORDED_RULES", "Scoreboard", "Win", "data_dir"]

FILE_NAME = "scores.json"
_VERSION = 2


def data_dir() -> Path:
    """The directory of ayo's files: ``$AYO_DATA_DIR``, else the platform's."""
    override = os.environ.get("AYO_DATA_DIR", "")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_data_dir("ayo", appauthor=False))


@dataclass(frozen=True)
class Win:
    """One win against the computer."""

    level: str
    seeds: int
    opponent_seeds: int
    rules: str
    date: str

    def to_json(self) -> dict[str, Any]:
        """The win as a JSON object."""
        return {
            "level": self.level,
            "seeds": self.seeds,
            "opponent_seeds": self.opponent_seeds,
            "rules": self.rules,
            "date": self.date,
        }

    @staticmethod
    def from_json(obj: object) -> Win:
        """A win from a JSON object; ValueError when it is not one."""
        if not isinstance(obj, dict):
            raise ValueError("a win is not an object")
        level, seeds, opp = obj.get("level"), obj.get("seeds"), obj.get("opponent_seeds")
        rules, date = obj.get("rules"), obj.get("date")
        if not isinstance(level, str) or not level:
            raise ValueError("a win has no level")
        if not isinstance(seeds, int) or not isinstance(opp, int):
            raise ValueError("a win has no number of seeds")
        if not _count(seeds) or not _count(opp):
            raise ValueError("a win has a bad number of seeds")
        if not isinstance(rules, str) or not isinstance(date, str):
            raise ValueError("a win has bad rules or date")
        return Win(level, seeds, opp, rules, date)


def _count(v: object) -> bool:
    """Whether ``v`` is a count (a non-negative int, not a bool)."""
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _level_key(level: str) -> tuple[int, str]:
    # Only ASCII digits are a level number ("²" is a digit to str.isdigit
    # and not to int); any other text sorts after the numbers.
    if level.isascii() and level.isdigit() and len(level) <= 9:
        return (int(level), "")
    return (10**9, level)


#: Where games counted by a version 1 file (which kept no rules with the count) are kept.
UNRECORDED_RULES = ""


def _rules_label(rules: str) -> str:
    return rules or "rules not recorded (games counted before rule sets were kept apart)"


@dataclass
class Scoreboard:
    """Wins and games played against the computer, per rule set and level.

    Each rule set (its record name: ``ayo``, ``oware``,
    ``ayoayo[stuck_seeds=own_side]``) is kept apart: a score of one is not
    compared with another's. ``played`` maps a rule set to its games per
    level. ``problem`` is the message about a damaged file that was set
    aside when the scoreboard was loaded (None when the file was fine or
    absent).
    """

    path: Path
    wins: list[Win] = field(default_factory=list)
    played: dict[str, dict[str, int]] = field(default_factory=dict)
    problem: str | None = None
    _writable: bool = field(default=True, repr=False)

    @staticmethod
    def default_path() -> Path:
        """``scores.json`` in :func:`data_dir`."""
        return data_dir() / FILE_NAME

    @classmethod
    def load(cls, path: Path | None = None) -> Scoreboard:
        """The scoreboard at ``path`` (default :meth:`default_path`).

        A missing file is an empty scoreboard. A file that cannot be read or
        parsed is renamed ``<name>.bad`` (or left where it is when even that
        fails) and an empty scoreboard is returned with ``problem`` saying so.
        A version 1 file (games counted per level only) is read with its
        counts under :data:`UNRECORDED_RULES`; its wins keep their rules.
        """
        path = cls.default_path() if path is None else path
        board = cls(path)
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return board
        except OSError as e:
            board._set_aside(f"cannot be read ({e.strerror or e})")
            return board
        try:
            data = json.loads(raw.decode("utf-8"))
            board._fill(data)
        except (ValueError, RecursionError) as e:
            # RecursionError: JSON nested deeper than the parser goes.
            board.wins, board.played = [], {}
            why = "nested too deeply" if isinstance(e, RecursionError) else e
            board._set_aside(f"is damaged ({why})")
        return board

    def _fill(self, data: object) -> None:
        if not isinstance(data, dict) or data.get("version") not in (1, _VERSION):
            raise ValueError("not an ayo scoreboard")
        wins, played = data.get("wins"), data.get("played")
        if not isinstance(wins, list) or not isinstance(played, dict):
            raise ValueError("no list of wins or count of games")
        self.wins = [Win.from_json(w) for w in wins]
        if data["version"] == 1:
            played = {UNRECORDED_RULES: played}
        for rules, counts in played.items():
            if not isinstance(counts, dict):
                raise ValueError(f"no count of games for the rules {rules!r}")
            for level, n in counts.items():
                if not _count(n):
                    raise ValueError(f"a bad count of games at level {level}")
                self.played.setdefault(str(rules), {})[str(level)] = int(n)

    def _set_aside(self, why: str) -> None:
        try:
            bad = self._keep_aside()
        except OSError as e:
            self.problem = (
                f"the scoreboard {self.path} {why} and could not be set aside "
                f"({e.strerror or e}); scores of this session will not be kept"
            )
            self._writable = False
            return
        self.problem = f"the scoreboard {self.path} {why}; it was set aside as {bad}"

    def _keep_aside(self) -> Path:
        """Move the file to the first free ``<name>.bad``, ``<name>.bad.1``, ...

        A hard link claims the name (it fails where the name is taken), so
        nothing set aside before is ever overwritten.
        """
        for i in range(1000):
            bad = self.path.with_name(self.path.name + ".bad" + (f".{i}" if i else ""))
            try:
                os.link(self.path, bad)
            except FileExistsError:
                continue
            os.unlink(self.path)
            return bad
        raise OSError(f"{self.path.name}.bad to {self.path.name}.bad.999 are all taken")

    def record_game(
        self, level: str, rules: str, scores: tuple[int, int], human: int
    ) -> Win | None:
        """Count a finished game at ``level`` under ``rules``; the :class:`Win` if the human won."""
        counts = self.played.setdefault(rules, {})
        counts[level] = counts.get(level, 0) + 1
        mine, theirs = scores[human], scores[1 - human]
        if mine <= theirs:
            return None
        date = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M")
        win = Win(level, mine, theirs, rules, date)
        self.wins.append(win)
        return win

    def wins_of(self, rules: str, level: str | None = None) -> list[Win]:
        """The wins under ``rules`` (at ``level``, or at every level)."""
        return [w for w in self.wins if w.rules == rules and (level is None or w.level == level)]

    def best(self, rules: str, level: str | None = None) -> int | None:
        """The most seeds in a win under ``rules`` (at ``level``, or any: the personal best)."""
        seeds = [w.seeds for w in self.wins_of(rules, level)]
        return max(seeds) if seeds else None

    def save(self) -> str | None:
        """Write the file (atomically); an error message instead of raising."""
        if not self._writable:
            return self.problem
        data = {
            "version": _VERSION,
            "wins": [w.to_json() for w in self.wins],
            "played": self.played,
        }
        text = json.dumps(data, indent=1) + "\n"
        tmp: str | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # A new file of a name no one chose (O_EXCL): never written
            # through a link someone left where a fixed name would be.
            fd, tmp = tempfile.mkstemp(
                prefix=self.path.name + ".", suffix=".tmp", dir=self.path.parent
            )
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, self.path)
            tmp = None
        except OSError as e:
            return f"could not save the scoreboard {self.path} ({e.strerror or e})"
        finally:
            if tmp is not None:
                with contextlib.suppress(OSError):  # the error above is the news
                    os.unlink(tmp)
        return None

    def table(self) -> list[str]:
        """The scoreboard as lines of text: one table a rule set."""
        lines = [
            "Scoreboard: wins against the computer, each rule set apart. "
            "Score is the seeds collected in a win.",
        ]
        rule_sets = sorted(set(self.played) | {w.rules for w in self.wins})
        if not rule_sets:
            lines.append("Personal best: none yet")
            lines.append("No games played yet: `ayo play` starts one.")
            return lines
        for rules in rule_sets:
            counts = self.played.get(rules, {})
            best = self.best(rules)
            lines.append("")
            lines.append(
                f"{_rules_label(rules)} · personal best: {best if best is not None else 'none yet'}"
            )
            levels = sorted(set(counts) | {w.level for w in self.wins_of(rules)}, key=_level_key)
            lines.append(f"{'level':>7}  {'played':>6}  {'wins':>4}  {'best':>4}  recent wins")
            for level in levels:
                wins = self.wins_of(rules, level)
                b = self.best(rules, level)
                recent = ", ".join(f"{w.seeds}-{w.opponent_seeds}" for w in wins[-3:])
                lines.append(
                    f"{level:>7}  {counts.get(level, 0):>6}  {len(wins):>4}  "
                    f"{b if b is not None else '-':>4}  {recent}"
                )
        return lines
