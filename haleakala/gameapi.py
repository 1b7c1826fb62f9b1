"""The game interface every island game implements, and the registry that names them.

Why: the terminal game, the game log and its replay, the random-game invariant harness and
the search bot should work for Haleakala, Kahuna and a third game without a change. They
talk to a game only through ``GameState`` (in the spirit of OpenSpiel's ``State``): int
decision codes inside, canonical notation text outside, an explicit decider (one player
may make several decisions in a row), and hidden information behind ``observation`` and
``determinize``. The agreed shape is ``GAME_PROTOCOL.md``.

    >>> from haleakala.gameapi import new_game
    >>> game = new_game("kahuna", seed=3)
    >>> game.game_name, game.players
    ('kahuna', ('white', 'black'))
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, Self, runtime_checkable

# name → "module:Class"; the class is imported only when the game is used.
GAMES: dict[str, str] = {
    "haleakala": "haleakala.rules.game:Game",
    "kahuna": "haleakala.kahuna.game:Game",
    "kanaloa": "haleakala.kanaloa.game:Game",
}

# name → module with the game log's records: setup_record(game), action_record(game,
# decision, legal), event_records(game, events) (NOTATION.md, KAHUNA-NOTATION.md).
LOGS: dict[str, str] = {
    "haleakala": "haleakala.rules.log",
    "kahuna": "haleakala.kahuna.log",
    "kanaloa": "haleakala.kanaloa.log",
}


@dataclass(frozen=True)
class GameDescription:
    """Everything the rest of the program needs to know about one game, declared once in
    the game's own package (``DESCRIPTION`` in its ``__init__``) and named by one registry
    line. Hooks are ``"module:attribute"`` strings, imported only when used, so that
    listing the games loads no game's engine.

    Why one value: a game registered in six places is a game a newcomer cannot add; with
    one description the command line, the log, the replayer, the bots, the harness and the
    front-ends all read the same facts.
    """

    name: str  # registry name, lower case: "kanaloa"
    title: str  # shown to people: "Kanaloa"
    state: str  # "module:Class" implementing GameState; Class(seed=, players=, **options)
    colours: tuple[str, ...]  # every seat colour in seat order (for the most players)
    player_counts: tuple[int, ...] = (2,)  # the counts the rules support
    log: str = ""  # module with setup_record / action_record / event_records
    replay: str = ""  # "module:function" that checks and shows a log of this game
    invariants: str = ""  # "module:function": state -> list of violated invariants (text)
    all_codes: str = ""  # "module:function": () -> every well-formed decision code
    bots: Mapping[str, str] = field(default_factory=dict)  # bot name -> "module:Class"
    terminal: str = ""  # "module:Class" the terminal session's per-game hooks
    window: str = ""  # "module:Class" the simulator window's per-game hooks
    save_format: str = ""  # the "format" field of this game's saves
    options: Mapping[str, str] = field(default_factory=dict)  # option -> one-line help


@runtime_checkable
class GameState(Protocol):
    """One position of a game for two to four players, and the rules that change it."""

    game_name: ClassVar[str]
    players: tuple[str, ...]  # seat colours of this game, in seat order (2..4 of them)
    decider: int  # index of the player who decides now: any seat, in turn or out of it

    @property
    def to_move(self) -> str | None:
        """``players[decider]``, or None when the game is over."""
        ...

    def legal_actions(self) -> list[int]:
        """Ascending int codes of every legal decision, cached until ``apply``."""
        ...

    def legal_decisions(self) -> list[str]:
        """The canonical texts of the same decisions, sorted."""
        ...

    def apply(self, decision: int | str, player: str | None = None) -> list[tuple]:
        """Apply a decision and its automatic effects; return the events."""
        ...

    def why_illegal(self, decision: int | str, player: str | None = None) -> str | None:
        """None when legal now, else a sentence naming the rule."""
        ...

    def is_terminal(self) -> bool: ...

    def returns(self) -> tuple[float, ...]:
        """One value per player index, summing to 1: a sole winner 1 and the others 0,
        shared first place split equally (two players: 1/0 or 0.5/0.5); equal shares while
        the game is not over."""
        ...

    def clone(self) -> Self: ...

    def digest(self) -> str: ...

    def to_json(self) -> str: ...

    @classmethod
    def from_json(cls, text: str) -> Self: ...

    def format(self, action: int) -> str: ...

    def parse(self, text: str) -> int: ...

    def determinize(self, observer: int, rng: random.Random) -> Self:
        """A copy whose hidden information is re-sampled from what ``observer`` knows."""
        ...

    def observation(self, player: int) -> dict:
        """JSON-able: everything ``player`` may see, nothing more."""
        ...

    def evaluate(self, player: int) -> float:
        """A cheap heuristic in [0, 1] of how good the position is for ``player``."""
        ...


class UnknownGame(ValueError):
    """A game name that is not in ``GAMES``."""


def game_class(name: str) -> type[Any]:
    """The class that implements game ``name`` (imported on first use)."""
    if name not in GAMES:
        raise UnknownGame(f"unknown game {name!r}: choose one of {', '.join(GAMES)}")
    module, cls = GAMES[name].split(":")
    return getattr(importlib.import_module(module), cls)


def new_game(name: str, seed: int = 0, **kw: Any) -> Any:
    """A new game of ``name`` dealt by ``seed``; ``kw`` are the game's own options
    (``start``, Haleakala's ``variant``)."""
    return game_class(name)(seed=seed, **kw)


def log_module(name: str) -> Any:
    """The module that writes game ``name``'s log records."""
    if name not in LOGS:
        raise UnknownGame(f"unknown game {name!r}: choose one of {', '.join(LOGS)}")
    return importlib.import_module(LOGS[name])


def game_of(state: Any) -> str:
    """The registry name of a game state (Haleakala's ``Game`` predates the attribute)."""
    return getattr(state, "game_name", "haleakala")


def squash(value: float, scale: float) -> float:
    """A score difference mapped into (0, 1): 0.5 at equality, ``scale`` sets the slope.
    Shared by the games' ``evaluate`` so that searches see comparable numbers."""
    import math

    return 1.0 / (1.0 + math.exp(-value / scale))
