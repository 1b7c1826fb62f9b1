"""The game interface every island game implements, and the registry that names them.

Why: the terminal game, the game log and its replay, the random-game invariant harness and
the search bot should work for Haleakala, Kahuna and a third game without a change. They
talk to a game only through ``GameState`` (in the spirit of OpenSpiel's ``State``): int
decision codes inside, canonical notation text outside, an explicit decider (one player
may make several decisions in a row), and hidden information behind ``observation`` and
``determinize``. The agreed shape is docs/GAME_PROTOCOL.md; how a game is added,
docs/adding-a-game.md.

    >>> from haleakala.gameapi import new_game
    >>> game = new_game("kahuna", seed=3)
    >>> game.game_name, game.players
    ('kahuna', ('white', 'black'))
"""

from __future__ import annotations

import functools
import importlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, Self, runtime_checkable

from haleakala.core.event import GameEvent
from haleakala.core.refusal import Refusal

# The registry: name → "module:DESCRIPTION" (a ``GameDescription`` in the game's own package).
# Adding a game is one line here; nothing else outside the game's package changes. The
# description is imported only when the game is used, so listing the names loads no engine.
GAMES: dict[str, str] = {
    "haleakala": "haleakala.games.haleakala.describe:DESCRIPTION",
    "kahuna": "haleakala.games.kahuna.describe:DESCRIPTION",
    "kanaloa": "haleakala.games.kanaloa.describe:DESCRIPTION",
}
# The game of the command line when none is named, and of the logs and saves written
# before a log named its game.
DEFAULT_GAME = "haleakala"
# The game ``haleakala host`` deals when none is named (phones at a table: its first game
# for phones, kept as the command's documented default).
DEFAULT_HOSTED_GAME = "kahuna"


@dataclass(frozen=True)
class GameDescription:
    """Everything the rest of the program needs to know about one game, declared once in
    the game's own package (``DESCRIPTION`` in its ``describe`` module) and named by one
    registry line (``GAMES``). Hooks are ``"module:attribute"`` strings, imported only when
    used, so that describing a game loads neither its engine nor any front-end.

    Why one value: a game registered in six places is a game a newcomer cannot add; with
    one description the command line, the log, the replayer, the bots, the harness and the
    front-ends all read the same facts (docs/adding-a-game.md).
    """

    name: str  # registry name, lower case: "kanaloa"
    title: str  # shown to people: "Kanaloa"
    # "module:Class" implementing GameState, built as ``Class(seed=, start=, **options)``,
    # plus ``players=`` (how many play: the seats are that prefix of ``colours``) when the
    # game supports more than one player count.
    state: str
    colours: tuple[str, ...]  # every seat colour in seat order (for the most players)
    player_counts: tuple[int, ...] = (2,)  # the counts the rules support
    log: str = ""  # module with setup_record / action_record / event_records
    replay: str = ""  # "module:function" (text, label, seeded) -> exit status
    invariants: str = ""  # "module:function": state -> list of violated invariants (text)
    all_codes: str = ""  # "module:function": () -> every well-formed decision code
    bots: Mapping[str, str] = field(default_factory=dict)  # bot name -> "module:Class"
    # "module:function" (game, seats, *, out, tty, delay) -> an object whose run() plays
    terminal: str = ""
    window: str = ""  # "module:function" (args) -> exit status: the simulator window
    # The ``haleakala sim`` options its window takes (without ``--``), as its messages
    # advise them; a window that seats the person at one colour only leaves out "colour".
    window_options: tuple[str, ...] = (
        "opponent", "colour", "players", "seed", "decisions", "screenshot",
    )  # fmt: skip
    save_format: str = ""  # the "format" field of this game's saves
    options: Mapping[str, str] = field(default_factory=dict)  # option -> one-line help
    # option -> the values it takes (a command-line flag's choices), where it has a list
    option_choices: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # "module:function" (text) -> state: a save read and checked (its errors are ValueError
    # with a sentence); empty: the state class's ``from_json``.
    load: str = ""
    strength: str = ""  # "module:function" (level, seed) -> Bot: the named strength levels
    bench: str = ""  # "module:function" (args) -> exit status for ``bench ai``; empty: generic
    # module with snapshot(game, *, log, seq, digest) -> dict and log_lines(before, after)
    # for the live view; empty: Haleakala's (``haleakala.games.haleakala.views.live``).
    live_view: str = ""
    # "module:function" (game, viewer) -> str: the position as text in the language in use,
    # as ``viewer`` (a player index; None: a watcher, public only) may see it. What the
    # generic views show of a game without a drawing of its own (terminal, window, live
    # view, phone seats); empty: its ``observation``, key by key.
    render: str = ""
    # The live view's drawing: "package:file.js" served as /view/<name>.js and called by
    # the page for this game's snapshots; empty: the page's generic text and buttons.
    live_script: str = ""
    # "module" with the phone seats' hooks (``haleakala.web.seats.SeatHooks``); empty: the
    # generic ones (``render`` for each seat, the notation for its buttons).
    seat: str = ""
    # The count of a new game when none is asked for; None: the smallest the rules allow.
    default_players: int | None = None
    # The bot of every seat that is not the first when nobody chose (``play``'s other
    # seats, the window's opponent): one of ``bots``.
    default_opponent: str = "greedy"
    # "package:directory" of the game's lessons (``haleakala learn``), TOML files; empty:
    # none. ``lesson_zones``: "module:function" () -> the names a lesson may point at.
    lessons: str = ""
    lesson_zones: str = ""
    # A regular expression that matches the notation of the game's first placement
    # (``haleakala learn --check`` times a newcomer's way to it); empty: not measured.
    first_placement: str = ""

    def __post_init__(self) -> None:
        counts = self.player_counts
        if not counts or min(counts) < 1 or max(counts) > len(self.colours):
            raise ValueError(f"{self.name}: player counts {counts} do not fit its colours")
        if self.default_players is not None and self.default_players not in counts:
            raise ValueError(f"{self.name}: default of {self.default_players} players is "
                             f"not one of {counts}")  # fmt: skip
        if self.bots and self.default_opponent not in self.bots:
            raise ValueError(f"{self.name}: default opponent {self.default_opponent!r} is "
                             f"not one of its bots ({', '.join(self.bots)})")  # fmt: skip

    @property
    def players(self) -> tuple[str, ...]:
        """The seat colours of a new game when no count is asked for (``default_players``,
        else the smallest count)."""
        count = self.default_players or min(self.player_counts)
        return self.colours[:count]

    def seats(self, count: int | None = None) -> tuple[str, ...]:
        """The seat colours of a game of ``count`` players (default: ``players``); a count
        the rules do not support is a ``ValueError`` with a sentence."""
        if count is None:
            return self.players
        if count not in self.player_counts:
            *rest, last = (str(n) for n in self.player_counts)
            counts = f"{', '.join(rest)} or {last}" if rest else last
            raise ValueError(f"{self.name} is played by {counts} players, not {count}")
        return self.colours[:count]


class GameResult(Protocol):
    """How a finished game ended, as the front-ends read it (each game's ``Result`` holds
    more: scores, scorings, temples)."""

    @property
    def reason(self) -> str:
        """What decided, one word for programs and logs: ``points``, a tie-break's name,
        ``draw``; the benchmark counts game ends by it."""
        ...


@runtime_checkable
class GameState(Protocol):
    """One position of a game for two to four players, and the rules that change it."""

    game_name: ClassVar[str]
    decider: int  # index of the player who decides now: any seat, in turn or out of it
    seed: int  # what dealt the game: a log's setup, the bots' seeds, a replay
    history: list[int]  # every decision code applied, in order (undo, saves, logs)

    def result(self) -> GameResult | None:
        """How the game ended; None while it is not over."""
        ...

    @property
    def players(self) -> tuple[str, ...]:
        """The seat colours of this game, in seat order (2..4 of them); read-only, so a
        class constant of a game with one player count fits as well as an attribute."""
        ...

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

    def apply(self, decision: int | str, player: str | None = None) -> Sequence[GameEvent]:
        """Apply a decision and its automatic effects; return the events (frozen values
        with ``kind`` and ``to_record``: ``haleakala.core.event``)."""
        ...

    def why_illegal(self, decision: int | str, player: str | None = None) -> str | None:
        """None when legal now, else a sentence naming the rule."""
        ...

    def refusal(self, decision: int | str, player: str | None = None) -> Refusal | None:
        """None when legal now, else why not as a value: ``kind`` and ruling for programs,
        ``words`` (a ``Text``) rendered in each viewer's language."""
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

    def seen_decision(self, text: str, decider: int, viewer: int | None) -> str:
        """What ``viewer`` (a seat; None: a watcher) may see of the decision ``text`` that
        seat ``decider`` made: the text itself, or what hides its secret (a face-down
        discard). Logs shown to watchers and other seats go through it."""
        ...

    def observation(self, player: int) -> dict[str, Any]:
        """JSON-able: everything ``player`` may see, nothing more."""
        ...

    def evaluate(self, player: int) -> float:
        """A cheap heuristic in [0, 1] of how good the position is for ``player``."""
        ...


class UnknownGame(ValueError):
    """A game name that is not in ``GAMES``."""


def hook(ref: str) -> Any:
    """The attribute a ``"module:attribute"`` hook names, imported now."""
    module, _, attribute = ref.partition(":")
    return getattr(importlib.import_module(module), attribute)


@functools.cache
def describe(name: str) -> GameDescription:
    """The description of game ``name`` (imported on first use)."""
    if name not in GAMES:
        raise UnknownGame(f"unknown game {name!r}: choose one of {', '.join(GAMES)}")
    description = hook(GAMES[name])
    if not isinstance(description, GameDescription) or description.name != name:
        raise TypeError(f"{GAMES[name]} is not the GameDescription of {name!r}")
    return description


def game_class(name: str) -> type[GameState]:
    """The class that implements game ``name`` (imported on first use)."""
    cls: type[GameState] = hook(describe(name).state)
    return cls


def new_game(name: str, seed: int = 0, players: int | None = None, **kw: Any) -> GameState:
    """A new game of ``name`` for ``players`` (default: the smallest count the rules
    allow) dealt by ``seed``; ``kw`` are the game's own options (``start``, Haleakala's
    ``variant``). An unsupported count is a ``ValueError`` with a sentence."""
    description = describe(name)
    seats = description.seats(players)
    if len(description.player_counts) > 1:
        kw["players"] = len(seats)
    return game_class(name)(seed=seed, **kw)  # type: ignore[call-arg]


def load_game(name: str, text: str) -> GameState:
    """A saved game of ``name`` read from ``text`` (checked as the game's ``load`` hook
    checks it); a bad save is a ``ValueError`` whose message is one sentence."""
    description = describe(name)
    if description.load:
        loaded: GameState = hook(description.load)(text)
        return loaded
    return game_class(name).from_json(text)


def log_module(name: str) -> Any:
    """The module that writes game ``name``'s log records."""
    return importlib.import_module(describe(name).log)


def game_of_save_format(fmt: object) -> str | None:
    """The game whose saves carry ``"format": fmt``, or None."""
    for name in GAMES:
        if describe(name).save_format == fmt:
            return name
    return None


def game_of(state: Any) -> str:
    """The registry name of a game state (Haleakala's ``Game`` predates the attribute)."""
    return getattr(state, "game_name", DEFAULT_GAME)


def squash(value: float, scale: float) -> float:
    """A score difference mapped into (0, 1): 0.5 at equality, ``scale`` sets the slope.
    Shared by the games' ``evaluate`` so that searches see comparable numbers."""
    import math

    return 1.0 / (1.0 + math.exp(-value / scale))
