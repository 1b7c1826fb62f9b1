"""Decisions as small integers, and their text form (NOTATION.md).

The engine moves integers around because a random game makes about 400 decisions and
the benchmark wants hundreds of games a second; people and logs see the text form.
Every legal decision has exactly one text form, and ``parse(format(d)) == d``.

Encoding (readable in a debugger):
  ``v*10 + b``           place number disc ``v`` on beach ``b``           ``3@2``
  ``100 + v*10 + b``     the same with the invocation disc              ``3@2*``
  ``200 + v*10 + b``     return disc ``v`` from beach ``b``              ``-3@2``
  ``300``                move the boat one segment                       ``boat``
  ``301`` / ``400+s``    shaman stays / goes to land space ``s``         ``>stay`` ``>2G``
  ``500 + slot``         take the card in a slot                         ``take 2a``
  ``600`` / ``601 + 2c + d``  priestess: nothing / move lava from crater ``c``
                          clockwise (d=0) or counter-clockwise (d=1)     ``lava 3>4``
  ``700 + i``            buy scoring-board item ``i``                    ``buy forest``
  ``710`` / ``711``      keep the shell / pass before a scoring          ``keep`` ``pass``
"""

from __future__ import annotations

import re

from haleakala.core.errors import NotationError
from haleakala.core.text import N_, Help, Term, Text  # noqa: F401  (importable from here before)

from .deck import BOARD_ITEMS
from .geometry import Board, default_board

PLACE, INVOKE, RETURN = 0, 100, 200
BOAT, STAY, SHAMAN = 300, 301, 400
TAKE = 500
LAVA_NONE, LAVA = 600, 601
BUY, KEEP, PASS = 700, 710, 711


# ``NotationError``, ``N_`` and ``Help`` are every game's (``haleakala.core``): imported above.


def place(value: int, beach: int, invoke: bool = False) -> int:
    return (INVOKE if invoke else PLACE) + value * 10 + beach


def withdraw(value: int, beach: int) -> int:
    return RETURN + value * 10 + beach


def lava_move(src: int, dst: int, segments: int = 6) -> int:
    if dst == (src + 1) % segments:
        return LAVA + 2 * src
    if dst == (src - 1) % segments:
        return LAVA + 2 * src + 1
    across = (
        N_("across the centre") if (dst - src) % segments == segments // 2 else N_("further round")
    )
    raise NotationError.of(
        N_(
            "R16: the Lava Priestess moves lava only to a neighbouring crater, never {across}: "
            "crater {dst} is not next to crater {src}; instead {left} or {right}"
        ),
        "R16",
        across=Help(across),
        dst=dst,
        src=src,
        left=f"lava {src}>{(src - 1) % segments}",
        right=f"lava {src}>{(src + 1) % segments}",
    )


def all_codes(board: Board) -> list[int]:
    """Every decision code there is on this board (legal or not)."""
    codes = []
    for v in board.discs:
        for beach in range(board.segments):
            codes += [PLACE + v * 10 + beach, INVOKE + v * 10 + beach, RETURN + v * 10 + beach]
    codes += [BOAT, STAY] + [SHAMAN + s for s in range(board.land_spaces)]
    codes += [TAKE + s for s in range(board.slots)]
    codes += [LAVA_NONE] + [LAVA + i for i in range(2 * board.segments)]
    codes += [BUY + i for i in range(len(BOARD_ITEMS))] + [KEEP, PASS]
    return codes


_texts: dict[int, tuple[dict[int, str], dict[str, int]]] = {}


def _tables(board: Board) -> tuple[dict[int, str], dict[str, int]]:
    """Code↔text tables per board, so logs and saves of long games load fast."""
    key = id(board)
    if key not in _texts:
        forward = {d: _format(d, board) for d in all_codes(board)}
        _texts[key] = (forward, {t: d for d, t in forward.items()})
    return _texts[key]


def text_table(board: Board) -> dict[int, str]:
    """Code → text for every decision on this board."""
    return _tables(board)[0]


def code_table(board: Board) -> dict[str, int]:
    """Canonical text → code for every decision on this board."""
    return _tables(board)[1]


def format_decision(d: int, board: Board | None = None) -> str:
    text = _tables(board or default_board())[0].get(d)
    if text is None:
        raise NotationError(f"{d} is not a decision code")
    return text


def _format(d: int, board: Board) -> str:
    if d < INVOKE:
        return f"{d // 10}@{d % 10}"
    if d < RETURN:
        return f"{(d - INVOKE) // 10}@{d % 10}*"
    if d < BOAT:
        return f"-{(d - RETURN) // 10}@{d % 10}"
    if d == BOAT:
        return "boat"
    if d == STAY:
        return ">stay"
    if SHAMAN <= d < TAKE:
        return ">" + board.space_name(d - SHAMAN)
    if TAKE <= d < LAVA_NONE:
        return "take " + board.slot_name(d - TAKE)
    if d == LAVA_NONE:
        return "lava none"
    if LAVA <= d < BUY:
        src, ccw = divmod(d - LAVA, 2)
        dst = (src + (-1 if ccw else 1)) % board.segments
        return f"lava {src}>{dst}"
    if BUY <= d < KEEP:
        return "buy " + BOARD_ITEMS[d - BUY]
    if d == KEEP:
        return "keep"
    if d == PASS:
        return "pass"
    raise NotationError(f"{d} is not a decision code")


# ASCII digits only: ``\d`` would also match ² or ①, which ``int`` cannot read, and
# Arabic-Indic digits, which are not the notation either.
_DISC = re.compile(r"^(-?)([1-9])@([0-9])(\*?)$")
_LAVA = re.compile(r"^lava\s+([0-9])\s*>\s*([0-9])$")
HELP = Help(
    N_(
        "decisions look like 3@2 (place 3 on beach 2), 3@2* (with invocation disc), -3@2 "
        "(take 3 back), boat, >2G or >stay (shaman), take 2a, lava 3>4, lava none, "
        "buy forest, keep, pass"
    )
)


def parse_decision(text: str, board: Board | None = None) -> int:
    """Parse the text form; raise NotationError saying what a decision looks like."""
    board = board or default_board()
    known = _tables(board)[1].get(text)
    if known is not None:
        return known
    if not text.isascii():
        # ², ① or ٣ pass str.isdigit() but are not notation; lower() could also turn a
        # look-alike letter (the Kelvin sign) into ASCII. Refuse them all here.
        odd = next(ch for ch in text if not ch.isascii())
        raise NotationError.of(
            N_(
                "{text} is not a decision: {odd} is not part of the notation "
                "(plain letters and the digits 0 to 9); {help}"
            ),
            text=repr(text.strip()),
            odd=repr(odd),
            help=HELP,
        )
    t = " ".join(text.strip().split()).lower()
    if t.startswith("-") and (t.endswith("*") or t[1:2] in ("0", "*")):
        raise NotationError.of(
            N_(
                "R27: the invocation disc cannot be taken back as an action; it returns when "
                "the boat stops at its beach or with a Lava Priestess; instead take back a "
                "number disc (-3@2)"
            ),
            "R27",
        )
    m = _DISC.match(t.replace(" ", ""))
    if m:
        minus, value, beach, star = m.groups()
        v, b = int(value), int(beach)
        if v not in board.discs:
            raise NotationError.of(N_("there is no number disc {v} (discs are 1 to 5)"), v=v)
        if b >= board.segments:
            raise NotationError.of(
                N_("R1: there is no beach {b}; the island has beaches 0 to {last}"),
                "R1",
                b=b,
                last=board.segments - 1,
            )
        return (RETURN if minus else INVOKE if star else PLACE) + v * 10 + b
    if t == "boat":
        return BOAT
    if t.startswith(">"):
        dest = text.strip()[1:].strip()
        if dest.lower() == "stay":
            return STAY
        space = board.parse_space(dest)
        if space is None or space >= board.land_spaces:
            raise NotationError.of(
                N_(
                    "R8: {dest} is not a space a shaman can go to: only grassland, forest and "
                    "mountain (like >2G, >3F, >0M), or >stay"
                ),
                "R8",
                dest=repr(dest),
            )
        return SHAMAN + space
    if t.startswith("take"):
        slot = board.parse_slot(t[4:].strip())
        if slot is None:
            raise NotationError.of(
                N_("{slot} is not a card slot (like 2a or 5b)"), slot=repr(t[4:].strip())
            )
        return TAKE + slot
    if t == "lava none":
        return LAVA_NONE
    m = _LAVA.match(t)
    if m:
        src, dst = int(m.group(1)), int(m.group(2))
        if src >= board.segments or dst >= board.segments:
            raise NotationError.of(N_("craters are 0 to {last}"), last=board.segments - 1)
        return lava_move(src, dst, board.segments)
    if t.startswith("buy"):
        item = t[3:].strip()
        if item not in BOARD_ITEMS:
            raise NotationError.of(
                N_("{item} is not on the scoring board ({items})"),
                item=repr(item),
                items=", ".join(BOARD_ITEMS),
            )
        return BUY + BOARD_ITEMS.index(item)
    if t == "keep":
        return KEEP
    if t == "pass":
        return PASS
    raise NotationError.of(
        N_("{text} is not a decision; {help}"), text=repr(text.strip()), help=HELP
    )
