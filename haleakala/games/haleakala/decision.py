"""Decisions as small frozen values, and refusals with a machine-readable ruling.

The engine keeps decisions as ints (``notation``) because a random game makes ~400 of
them and the search wants thousands of games a second. Everything outside ``rules/``
reads a code through ``decode`` and attribute access, so that only this package knows
the arithmetic of the encoding (``v*10 + b`` and friends) and a change to it stays here.

    >>> decode(32)
    Place(value=3, beach=2, invoke=False)
    >>> encode(Return(3, 2)), text(Lava(3, 4))
    (232, 'lava 3>4')

The few questions the search bot asks about a code on every simulated turn
(``is_turn_action``, ``beach_of``, ``undo_of``, ...) are plain int functions here, so it
need not decode in its inner loop nor do the arithmetic itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

from haleakala.core.refusal import Refusal
from haleakala.core.text import N_ as N_
from haleakala.core.text import Term as Term
from haleakala.core.text import Text as Text

from .deck import BOARD_ITEMS
from .geometry import Board, default_board
from .notation import (
    BOAT,
    BUY,
    INVOKE,
    KEEP,
    LAVA,
    LAVA_NONE,
    PASS,
    PLACE,
    RETURN,
    SHAMAN,
    STAY,
    TAKE,
    NotationError,
    all_codes,
    format_decision,
    lava_move,
    parse_decision,
)


@dataclass(frozen=True, slots=True)
class Place:
    """Place number disc ``value`` on ``beach`` (with the invocation disc: ``3@2*``)."""

    value: int
    beach: int
    invoke: bool = False


@dataclass(frozen=True, slots=True)
class Return:
    """Take number disc ``value`` back from ``beach`` into the supply (``-3@2``)."""

    value: int
    beach: int


@dataclass(frozen=True, slots=True)
class Boat:
    """Move the boat one segment on (turn action 3, ``boat``)."""


@dataclass(frozen=True, slots=True)
class Shaman:
    """Move the shaman to land space ``space`` (``>2G``), or leave it (``space`` None,
    ``>stay``)."""

    space: int | None

    @property
    def stays(self) -> bool:
        return self.space is None


@dataclass(frozen=True, slots=True)
class Take:
    """Take the card in slot ``slot`` (``take 2a``)."""

    slot: int


@dataclass(frozen=True, slots=True)
class Lava:
    """The Lava Priestess moves a lava disc from crater ``source`` to the neighbouring
    crater ``target`` (``lava 3>4``); both None when there is none to move (``lava
    none``)."""

    source: int | None
    target: int | None

    @property
    def moves(self) -> bool:
        return self.source is not None


@dataclass(frozen=True, slots=True)
class Buy:
    """Buy the scoring-board item ``item`` (its code in ``BOARD_ITEMS``: ``buy forest``)."""

    item: str


@dataclass(frozen=True, slots=True)
class Keep:
    """Keep the shell just received, buying nothing (``keep``)."""


@dataclass(frozen=True, slots=True)
class Pass:
    """Buy nothing before a scoring (``pass``)."""


Decision: TypeAlias = Place | Return | Boat | Shaman | Take | Lava | Buy | Keep | Pass
DiscMove: TypeAlias = Place | Return  # the turn actions that move a number disc

_decoded: dict[int, dict[int, Decision]] = {}


def _decode(code: int, board: Board) -> Decision:
    if code < INVOKE:
        return Place(code // 10, code % 10)
    if code < RETURN:
        return Place((code - INVOKE) // 10, code % 10, invoke=True)
    if code < BOAT:
        return Return((code - RETURN) // 10, code % 10)
    if code == BOAT:
        return Boat()
    if code == STAY:
        return Shaman(None)
    if SHAMAN <= code < TAKE:
        return Shaman(code - SHAMAN)
    if TAKE <= code < LAVA_NONE:
        return Take(code - TAKE)
    if code == LAVA_NONE:
        return Lava(None, None)
    if LAVA <= code < BUY:
        source, ccw = divmod(code - LAVA, 2)
        return Lava(source, (source + (-1 if ccw else 1)) % board.segments)
    if BUY <= code < KEEP:
        return Buy(BOARD_ITEMS[code - BUY])
    if code == KEEP:
        return Keep()
    return Pass()


def _table(board: Board) -> dict[int, Decision]:
    """Code → value for every decision on this board, built once per board."""
    table = _decoded.get(id(board))
    if table is None:
        table = _decoded[id(board)] = {d: _decode(d, board) for d in all_codes(board)}
    return table


def decode(code: int, board: Board | None = None) -> Decision:
    """The decision a code stands for; ``board`` gives the craters a lava move goes
    between (the default board when None). Raises NotationError for no decision code."""
    found = _table(board or default_board()).get(code)
    if found is None:
        raise NotationError(f"{code!r} is not a decision code")
    return found


def encode(decision: Decision, board: Board | None = None) -> int:
    """The engine's int code of a decision (``decode``'s inverse)."""
    match decision:
        case Place(value, beach, invoke):
            return (INVOKE if invoke else PLACE) + value * 10 + beach
        case Return(value, beach):
            return RETURN + value * 10 + beach
        case Boat():
            return BOAT
        case Shaman(None):
            return STAY
        case Shaman(space) if space is not None:
            return SHAMAN + space
        case Take(slot):
            return TAKE + slot
        case Lava(None, None):
            return LAVA_NONE
        case Lava(source, target) if source is not None and target is not None:
            return lava_move(source, target, (board or default_board()).segments)
        case Buy(item) if item in BOARD_ITEMS:
            return BUY + BOARD_ITEMS.index(item)
        case Keep():
            return KEEP
        case Pass():
            return PASS
    raise NotationError(f"{decision!r} is not a decision")


def text(decision: Decision | int, board: Board | None = None) -> str:
    """The notation text of a decision (NOTATION.md): ``3@2*``, ``lava 3>4``."""
    code = decision if isinstance(decision, int) else encode(decision, board)
    return format_decision(code, board)


def parse(words: str, board: Board | None = None) -> Decision:
    """A decision from its notation text; NotationError says what the text should be."""
    return decode(parse_decision(words, board), board)


# -- int questions for the search bot's inner loop ------------------------------------


def is_turn_action(code: int) -> bool:
    """Place, return or move the boat: the one turn action of each turn."""
    return code <= BOAT


def is_placement(code: int) -> bool:
    return code < RETURN


def is_return(code: int) -> bool:
    return RETURN <= code < BOAT


def beach_of(code: int) -> int:
    """The beach a place or return decision concerns."""
    return code % 10


def undo_of(code: int) -> int | None:
    """The turn action that undoes a disc move (take back the disc placed, with or
    without invocation disc; put back the disc taken back); None for the boat or any
    decision that is no turn action."""
    if code < RETURN:
        return RETURN + code % 100
    if code < BOAT:
        return code - RETURN
    return None


def previous_turn_action(history: list[int]) -> int | None:
    """The turn action (place, return, boat) of the player whose turn it is now, on their
    previous turn: turns alternate and each has exactly one turn action, so it is the
    second-to-last turn action of the history. None when there is none. (Here rather than
    in the bot because it walks the history on every simulated turn: int compares only.)"""
    seen = 0
    for d in reversed(history):
        if d <= BOAT:
            seen += 1
            if seen == 2:
                return d
    return None


# -- refusals -------------------------------------------------------------------------

RefusalKind: TypeAlias = Literal[
    "notation",  # the text is no decision at all
    "game_over",
    "not_your_decision",  # the other player decides now
    "wrong_phase",  # a decision of another kind is awaited
    "disc_not_there",  # a return of a disc that is not on that beach
    "disc_already_out",  # placing a disc that is already on the island
    "sum_rule",  # R7
    "invocation_tactical_only",  # R25
    "invocation_on_island",  # R27
    "invocation_beach",  # R26: only on the beach next to the boat
    "lava_exhausted",  # R26: all lava discs are on the island
    "discs_in_supply",  # R6: the boat moves only when every number disc is out
    "shaman_occupied",  # R8: may not stop on the other shaman
    "shaman_reach",  # R8
    "card_segment",  # R10: the cards go out where the boat is
    "slot_empty",
    "lava_must_move",  # R16
    "no_lava_there",  # R16
    "say_pass",  # keep before a scoring
    "say_keep",  # pass after a shell
    "priestess_face_down",  # R17
    "item_taken",  # R17
    "too_few_shells",  # R17
    "not_allowed",  # anything else (a refusal built from a bare sentence)
]


Param: TypeAlias = "int | str | Term | Text"


def notation_refusal(exc: NotationError) -> Refusal:
    """The refusal of text that is no decision, with the error's words (the notation's
    summary and other words as ``Term``, so they are translated too)."""
    return Refusal("notation", exc.words, exc.ruling)
