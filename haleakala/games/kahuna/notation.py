"""Kahuna decisions as int codes (inside the engine) and canonical text (KAHUNA-NOTATION).

Codes, ascending by kind so that a decision's kind is a range test:

    PLAY + 2*line + side     play the card of the line's first (side 0) or second island
    CUT + 3*line + k         cut the line with A+A (k 0), A+B (1) or B+B (2)
    DISCARD + island         discard one card face down
    DRAW_PILE, DRAW_SLOT+s   draw from the pile, or from display slot s+1
    END                      end the turn without drawing

The parser is forgiving as the notation allows (initials, lower case, a reversed line or
pair) and always normalises; ``format_decision(parse_decision(t)) == t`` for canonical t.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from haleakala.core.errors import NotationError as _BaseNotationError
from haleakala.core.text import N_, Help

from .board import Board

PLAY = 0
CUT = 100
DISCARD = 200
DRAW_PILE = 300
DRAW_SLOT = 301
END = 400
PAIRS = ("AA", "AB", "BB")


class NotationError(_BaseNotationError):
    """Text that is not a Kahuna decision; the message says what is expected."""


EXPECTED = Help(
    N_(
        "a decision is: play HUNA>ELAI, cut ELAI-HUNA with HUNA+HUNA, discard HUNA, "
        "draw pile, draw 1..3, or end"
    )
)


@dataclass(frozen=True)
class Decision:
    """A decision code as a value, for views that say it in words: ``kind`` (``play``,
    ``cut``, ``discard``, ``pile``, ``slot``, ``end``) and the parts it names (board
    indices: a line, an island, a display slot; for a cut, the islands of its two cards).
    Decoded only here, beside the codes, so no front-end does arithmetic on them."""

    kind: str
    line: int = -1
    island: int = -1  # the card played or discarded
    cards: tuple[int, ...] = ()  # a cut's two cards
    slot: int = -1  # a display slot, 0-based


def decode(d: int, board: Board) -> Decision:
    """The decision ``d`` as a value (``NotationError`` for a code that is none)."""
    if PLAY <= d < CUT:
        line, side = divmod(d - PLAY, 2)
        return Decision("play", line=line, island=board.lines[line][side])
    if CUT <= d < DISCARD:
        line, k = divmod(d - CUT, 3)
        a, b = board.lines[line]
        pair = {"A": a, "B": b}
        return Decision("cut", line=line, cards=tuple(pair[x] for x in PAIRS[k]))
    if DISCARD <= d < DRAW_PILE:
        return Decision("discard", island=d - DISCARD)
    if d == DRAW_PILE:
        return Decision("pile")
    if DRAW_SLOT <= d < DRAW_SLOT + board.display:
        return Decision("slot", slot=d - DRAW_SLOT)
    if d == END:
        return Decision("end")
    raise NotationError(f"{d} is not a Kahuna decision code")


def format_decision(d: int, board: Board) -> str:
    names = board.islands
    if PLAY <= d < CUT:
        line, side = divmod(d - PLAY, 2)
        a, b = board.lines[line]
        card, other = (a, b) if side == 0 else (b, a)
        return f"play {names[card]}>{names[other]}"
    if CUT <= d < DISCARD:
        line, k = divmod(d - CUT, 3)
        a, b = board.lines[line]
        first, second = (a, a) if k == 0 else (a, b) if k == 1 else (b, b)
        return f"cut {board.line_names[line]} with {names[first]}+{names[second]}"
    if DISCARD <= d < DRAW_PILE:
        return f"discard {names[d - DISCARD]}"
    if d == DRAW_PILE:
        return "draw pile"
    if DRAW_SLOT <= d < DRAW_SLOT + board.display:
        return f"draw {d - DRAW_SLOT + 1}"
    if d == END:
        return "end"
    raise NotationError(f"{d} is not a Kahuna decision code")


def _island(word: str, board: Board) -> int:
    w = word.strip().upper()
    if w in board.islands:
        return board.islands.index(w)
    if len(w) == 1:
        for i, name in enumerate(board.islands):
            if name[0] == w:
                return i
    raise NotationError.of(
        N_("{word} is not an island: {islands}"), word=repr(word), islands=" ".join(board.islands)
    )


def _line(a: int, b: int, board: Board) -> int:
    line = board.line_between(a, b)
    if line is None:
        names = board.islands
        touching = " ".join(board.line_names[x] for x in board.lines_of[a])
        raise NotationError.of(
            N_("there is no line between {a} and {b} (K1); {a}'s lines: {lines}"),
            a=names[a],
            b=names[b],
            lines=touching,
        )
    return line


_PLAY = re.compile(r"^play\s+(\w+)\s*>\s*(\w+)$")
_CUT = re.compile(r"^cut\s+(\w+)\s*-\s*(\w+)\s+with\s+(\w+)\s*\+\s*(\w+)$")


def parse_decision(text: str, board: Board) -> int:
    t = " ".join(str(text).strip().lower().split())
    if t == "end":
        return END
    if t in ("draw pile", "draw p"):
        return DRAW_PILE
    if t.startswith("draw "):
        slot = t[5:].strip()
        if slot.isdigit() and 1 <= int(slot) <= board.display:
            return DRAW_SLOT + int(slot) - 1
        raise NotationError.of(
            N_("draw from 'pile' or a display slot 1..{last}, not {slot}"),
            last=board.display,
            slot=repr(slot),
        )
    if t.startswith("discard "):
        return DISCARD + _island(t[8:], board)
    m = _PLAY.match(t)
    if m:
        card, other = _island(m.group(1), board), _island(m.group(2), board)
        line = _line(card, other, board)
        return PLAY + 2 * line + (0 if card == board.lines[line][0] else 1)
    m = _CUT.match(t)
    if m:
        a, b = _island(m.group(1), board), _island(m.group(2), board)
        line = _line(a, b, board)
        lo, hi = board.lines[line]
        cards = sorted((_island(m.group(3), board), _island(m.group(4), board)))
        for k, pair in enumerate(((lo, lo), (lo, hi), (hi, hi))):
            if tuple(cards) == pair:
                return CUT + 3 * line + k
        names = board.islands
        raise NotationError.of(
            N_("the bridge {line} is cut only with {a}+{a}, {a}+{b} or {b}+{b} (K17)"),
            line=board.line_names[line],
            a=names[lo],
            b=names[hi],
        )
    raise NotationError.of(N_("cannot read {text}: {expected}"), text=repr(text), expected=EXPECTED)


def all_codes(board: Board) -> list[int]:
    """Every well-formed decision code (legal or not), for harnesses and bots."""
    n = len(board.lines)
    return [
        *range(PLAY, PLAY + 2 * n),
        *range(CUT, CUT + 3 * n),
        *range(DISCARD, DISCARD + len(board.islands)),
        DRAW_PILE,
        *range(DRAW_SLOT, DRAW_SLOT + board.display),
        END,
    ]
