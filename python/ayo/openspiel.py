"""OpenSpiel games for Ayo: every preset, and any rules through a parameter.

>>> import pyspiel
>>> import ayo.openspiel  # registers the games with pyspiel
>>> game = pyspiel.load_game("ayo_ayoayo")
>>> state = game.new_initial_state()
>>> state.legal_actions()
[0, 1, 2, 3, 4, 5]

Importing this module registers five Python games with ``pyspiel``:

* ``ayo_ayoayo``, ``ayo_ayo``, ``ayo_olopon`` and ``ayo_oware``: the presets;
* ``ayo_rules``: any rule set, given by its parameter ``rules``, a rules text in
  the project's notation (docs/notation.md), e.g.
  ``pyspiel.load_game("ayo_rules", {"rules": "oware[target=none]"})``.
  OpenSpiel's game strings use ``,`` and ``=`` themselves, so in a game string
  write ``;`` and ``:`` instead: ``"ayo_rules(rules=oware[target:none;move_limit:50])"``.
  The game keeps that spelling in its parameters, so ``game.to_string()``
  loads back.

Every game has the parameter ``ply_cap`` (default 1,000): the game's move cap
(:attr:`ayo.Game.ply_cap`), which is OpenSpiel's ``max_game_length``. A game
stopped by the cap is terminal with returns 0 for both players.

A state wraps an :class:`ayo.Game` and only translates: legal moves, sowing,
captures, the end and the winner are the engine's. Players 0 and 1 are South
and North; actions 0..5 are the mover's pits 1..6 in sowing order, as in the
Gymnasium environment. :func:`load_game` picks the game for an
:class:`ayo.Rules`.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from ayo._extras import missing_extra

try:
    import pyspiel
    from open_spiel.python.observation import IIGObserverForPublicInfoGame
except ImportError as e:
    raise missing_extra("openspiel", "openspiel", e) from None

import ayo.display
from ayo import NUM_ACTIONS, AyoError, Game, Rules
from ayo.envs import seat_view

#: The game of each preset, by the preset's name.
PRESET_GAMES: dict[str, str] = {p: f"ayo_{p}" for p in Rules.presets()}
#: The game of any rules, given by its ``rules`` parameter.
RULES_GAME = "ayo_rules"
#: The default of every game's ``ply_cap`` (OpenSpiel's ``oware`` caps games at 1,000 too).
DEFAULT_PLY_CAP = 1000

NUM_PLAYERS = 2
NUM_PITS = 12
PLAYER_NAMES = ("South", "North")

# OpenSpiel's game strings split parameters at "," and keys from values at "=",
# so a rules text inside one spells them ";" and ":".
_TO_GAME_STRING = str.maketrans({",": ";", "=": ":"})
_FROM_GAME_STRING = str.maketrans({";": ",", ":": "="})
# OpenSpiel keeps max_game_length in a C++ int.
_MAX_PLY_CAP = 2**31 - 1


def _game_type(short_name: str, long_name: str, rules: str | None) -> Any:
    params: dict[str, object] = {"ply_cap": DEFAULT_PLY_CAP}
    if rules is not None:
        params["rules"] = rules
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=NUM_PLAYERS,
        min_num_players=NUM_PLAYERS,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


def rules_to_game_string(rules: Rules) -> str:
    """``rules`` as the value of ``ayo_rules``' ``rules`` in a game string."""
    return str(rules).translate(_TO_GAME_STRING)


def rules_from_parameter(text: str) -> Rules:
    """The rules of a ``rules`` parameter: the notation, or its game-string spelling."""
    return Rules(text.translate(_FROM_GAME_STRING))


class AyoGame(pyspiel.Game):
    """An OpenSpiel game of Ayo under one rule set (see the module's docs)."""

    #: The preset this game plays; None for ``ayo_rules``, whose ``rules`` parameter says.
    PRESET: ClassVar[str | None] = None

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        preset = self.PRESET
        ply_cap = params.get("ply_cap", DEFAULT_PLY_CAP)
        if isinstance(ply_cap, bool) or not isinstance(ply_cap, int):
            raise AyoError(f"ply_cap must be an integer, not {ply_cap!r}")
        if not 1 <= ply_cap <= _MAX_PLY_CAP:
            raise AyoError(f"ply_cap must be 1..{_MAX_PLY_CAP}, not {ply_cap}")
        if preset is None:
            rules_text = params.get("rules", "ayoayo")
            if not isinstance(rules_text, str):
                raise AyoError(f"rules must be a rules text, not {rules_text!r}")
            self.rules = rules_from_parameter(rules_text)
            params["rules"] = rules_to_game_string(self.rules)
            game_type = _RULES_TYPE
        else:
            self.rules = Rules(preset)
            game_type = _PRESET_TYPES[preset]
        self.ply_cap = ply_cap
        params["ply_cap"] = ply_cap
        info = pyspiel.GameInfo(
            num_distinct_actions=self.rules.num_actions,
            max_chance_outcomes=0,
            num_players=NUM_PLAYERS,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=ply_cap,
        )
        super().__init__(game_type, info, params)

    def new_initial_state(self, position: str | None = None) -> AyoState:
        """The start of a game, or of a position record (``Game.position_record()``)."""
        return AyoState(self, position)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> AyoObserver | IIGObserverForPublicInfoGame:
        """An observer: the observation, or the information state if ``perfect_recall``."""
        if isinstance(iig_obs_type, dict):
            # pyspiel passes the parameters alone when no observation type is given
            iig_obs_type, params = None, iig_obs_type
        if iig_obs_type is not None and not iig_obs_type.public_info:
            # a perfect-information game has no private information to show
            return IIGObserverForPublicInfoGame(iig_obs_type, params)
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        perfect_recall = iig_obs_type is not None and bool(iig_obs_type.perfect_recall)
        return AyoObserver(self, perfect_recall)


class AyoState(pyspiel.State):
    """A state of an :class:`AyoGame`: an :class:`ayo.Game` and OpenSpiel's history.

    The engine's game is the state's only Python attribute, so OpenSpiel's
    ``clone`` (a deep copy of it) and ``serialize`` (its pickle) keep the
    whole game, ply cap included.
    """

    def __init__(self, game: AyoGame, position: str | None = None) -> None:
        super().__init__(game)
        engine = Game(game.rules, position)
        engine.ply_cap = game.ply_cap
        self._game = engine

    def __setattr__(self, name: str, value: object) -> None:
        # OpenSpiel's ``deserialize_state`` sets each pickled attribute on a
        # new state after its history: every one is checked here, so that a
        # state loads only into the game (rules and ply cap) that saved it.
        if name != "_game":
            raise AyoError(f"an ayo OpenSpiel state has no attribute {name!r} to set")
        if not isinstance(value, Game):
            raise AyoError(f"the state's game must be an ayo.Game, not {type(value).__name__}")
        rules, ply_cap = self._game_spec()
        if value.rules != rules:
            raise AyoError(f"the state is of rules {value.rules}, this game plays {rules}")
        if value.ply_cap != ply_cap:
            raise AyoError(f"the state has ply cap {value.ply_cap}, this game has {ply_cap}")
        # ``deserialize_state`` sets the history first, ``clone`` after (from
        # the state cloned): a history already there must be the game's.
        history = list(self.history())
        actions = [pit % 6 for pit in value.moves]
        if history and actions != history:
            raise AyoError(f"the state's moves {actions} are not its history {history}")
        if len(actions) > ply_cap:
            raise AyoError(
                f"the state has {len(actions)} moves, past this game's ply cap {ply_cap}"
            )
        super().__setattr__(name, value)

    def _game_spec(self) -> tuple[Rules, int]:
        """The rules and ply cap of the OpenSpiel game of this state, from its parameters."""
        game = self.get_game()
        params = game.get_parameters()
        short_name = game.get_type().short_name
        if short_name == RULES_GAME:
            rules = rules_from_parameter(params["rules"])
        else:
            rules = Rules(short_name.removeprefix("ayo_"))
        return rules, int(params["ply_cap"])

    @property
    def ayo_game(self) -> Game:
        """A copy of the engine's game at this state."""
        return self._game.copy()

    def current_player(self) -> int:
        """The player to move (0 South, 1 North), or ``pyspiel.PlayerId.TERMINAL``."""
        if self._game.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return self._game.to_move

    def _legal_actions(self, player: int) -> list[int]:
        del player  # only asked of the player to move
        return self._game.legal_moves()

    def _apply_action(self, action: int) -> None:
        self._game.play(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if isinstance(player, bool) or player not in (0, 1):
            raise AyoError(f"player must be 0 (South) or 1 (North), not {player!r}")
        if isinstance(action, bool) or action not in range(NUM_ACTIONS):
            raise AyoError(f"action must be 0..5 (the mover's pits 1..6), not {action!r}")
        return f"{PLAYER_NAMES[player]} {action + 1}"

    def is_terminal(self) -> bool:
        """Whether the game has ended or reached its ply cap."""
        return self._game.is_over

    def returns(self) -> list[float]:
        """+1 for the winner and -1 for the loser at the end; 0 otherwise."""
        outcome = self._game.outcome
        if outcome is None:
            return [0.0, 0.0]
        return [float(outcome.result_for(p)) for p in range(NUM_PLAYERS)]

    def __str__(self) -> str:
        return ayo.display.text(self._game)


class AyoObserver:
    """The observation or information state of a player, as tensors and text.

    The tensor, from ``player``'s side (fractions of all the seeds in play):
    ``"pits"`` ``(2, 6)`` — the player's row in sowing order, then the other's;
    ``"stores"`` ``(2,)`` — the player's, the other's; ``"to_move"`` ``(2,)`` —
    1 for whichever of the two is to move (zeros at the end); ``"no_capture"``
    ``(1,)`` — the moves since the last capture over the rules' move limit (0
    without one). The information state adds ``"history"`` ``(ply_cap, 6)``:
    one-hot the action of every move played. The strings are the position
    record (observation) and the game record (information state).
    """

    def __init__(self, game: AyoGame, perfect_recall: bool) -> None:
        self._perfect_recall = perfect_recall
        self._total = float(game.rules.total_seeds)
        limit = game.rules.move_limit
        self._move_limit = float(limit) if limit is not None else None
        shapes: list[tuple[str, tuple[int, ...]]] = [
            ("pits", (2, NUM_PITS // 2)),
            ("stores", (2,)),
            ("to_move", (2,)),
            ("no_capture", (1,)),
        ]
        if perfect_recall:
            shapes.append(("history", (game.ply_cap, game.rules.num_actions)))
        size = sum(int(np.prod(shape)) for _, shape in shapes)
        self.tensor: npt.NDArray[np.float32] = np.zeros(size, np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        offset = 0
        for name, shape in shapes:
            n = int(np.prod(shape))
            self.dict[name] = self.tensor[offset : offset + n].reshape(shape)
            offset += n

    def set_from(self, state: AyoState, player: int) -> None:
        """Write ``state`` as ``player`` sees it into ``tensor``."""
        game = state._game
        view = seat_view(game, player)
        self.dict["pits"][:] = view[:NUM_PITS].reshape(2, NUM_PITS // 2) / self._total
        self.dict["stores"][:] = view[NUM_PITS:] / self._total
        to_move = self.dict["to_move"]
        to_move[:] = 0.0
        if not game.is_over:
            to_move[0 if game.to_move == player else 1] = 1.0
        limit = self._move_limit
        self.dict["no_capture"][0] = game.no_capture / limit if limit is not None else 0.0
        if self._perfect_recall:
            history = self.dict["history"]
            history[:] = 0.0
            actions = state.history()
            if actions:
                history[np.arange(len(actions)), actions] = 1.0

    def string_from(self, state: AyoState, player: int) -> str:
        """The position record (observation) or the game record (information state)."""
        del player  # perfect information: both players see the same
        if self._perfect_recall:
            return state._game.record()
        return state._game.position_record()


def _preset_game(preset: str) -> type[AyoGame]:
    class PresetGame(AyoGame):
        PRESET = preset

    PresetGame.__name__ = PresetGame.__qualname__ = f"AyoGame_{preset}"
    PresetGame.__doc__ = f"The OpenSpiel game of the ``{preset}`` preset."
    return PresetGame


def _register() -> None:
    # pyspiel keeps each creator in a C++ registry that is destroyed after the
    # interpreter; a class (whose __mro__ refers to itself) is never freed there,
    # where freeing a function without the GIL aborts the interpreter at exit.
    names = set(pyspiel.registered_names())
    for preset, short_name in PRESET_GAMES.items():
        if short_name not in names:
            pyspiel.register_game(_PRESET_TYPES[preset], _preset_game(preset))
    if RULES_GAME not in names:
        pyspiel.register_game(_RULES_TYPE, AyoGame)


def load_game(rules: Rules | str = "ayoayo", *, ply_cap: int = DEFAULT_PLY_CAP) -> AyoGame:
    """The OpenSpiel game of ``rules``: a preset's game, else ``ayo_rules``."""
    rules = rules if isinstance(rules, Rules) else Rules(rules)
    params: dict[str, Any] = {"ply_cap": ply_cap}
    name = PRESET_GAMES.get(str(rules))
    if name is None:
        name = RULES_GAME
        params["rules"] = rules_to_game_string(rules)
    game = pyspiel.load_game(name, params)
    if not isinstance(game, AyoGame):
        raise TypeError(f"pyspiel's {name!r} is not ayo's game: {type(game).__name__}")
    return game


_PRESET_TYPES = {
    preset: _game_type(name, f"Ayo: {preset} (the ayo engine's preset)", None)
    for preset, name in PRESET_GAMES.items()
}
_RULES_TYPE = _game_type(RULES_GAME, "Ayo: any rules (the ayo engine)", "ayoayo")
_register()
