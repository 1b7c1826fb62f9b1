"""The physical pieces on the table, which the simulator moves as the companion instructs.

The companion knows where every piece *should* lie (``expected_board()``); the table is
where they *do* lie. Players follow instructions, so the simulator applies each change of
the expected board to the table, never a wholesale copy: a disc that a player put on the
wrong beach stays there until someone moves it, which is what lets the RFID kit rehearse
a board that disagrees with the game. In "misplace" mode one piece of every instructed
change lands in the wrong place, on purpose.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from haleakala.hal.events import BEACHES, Disc

SEGMENTS = 6
HUT_BASE = 18  # shaman space of a hut beach = 18 + segment (the rules' numbering)


@dataclass
class Table:
    """Every piece that lies on the island, by name (discs ``red3``/``yellow*``)."""

    beaches: list[set[str]] = field(default_factory=lambda: [set() for _ in range(BEACHES)])
    boat: int = 0
    shamans: dict[str, int] = field(default_factory=dict)
    statues: dict[int, str] = field(default_factory=dict)
    lava: list[int] = field(default_factory=lambda: [0] * SEGMENTS)

    def copy(self) -> Table:
        return Table(
            [set(b) for b in self.beaches],
            self.boat,
            dict(self.shamans),
            dict(self.statues),
            list(self.lava),
        )

    def beach_of(self, disc: str) -> int | None:
        return next((b for b, discs in enumerate(self.beaches) if disc in discs), None)

    def on_island(self) -> set[str]:
        return set().union(*self.beaches)

    def put(self, disc: str, beach: int | None) -> None:
        """Move ``disc`` onto ``beach`` (None: back to its owner's supply)."""
        for discs in self.beaches:
            discs.discard(disc)
        if beach is not None:
            self.beaches[beach].add(disc)

    def differences(self, other: Table) -> list[str]:
        """What differs from ``other`` (the expected board), in words for the players."""
        out = []
        mine, theirs = self.on_island(), other.on_island()
        for disc in sorted(mine | theirs):
            here, there = self.beach_of(disc), other.beach_of(disc)
            if here != there:
                where = "the supply" if there is None else f"beach {there}"
                now = "the supply" if here is None else f"beach {here}"
                out.append(f"{disc} belongs on {where}, lies on {now}")
        if self.boat != other.boat:
            out.append(f"the boat belongs at segment {other.boat}, lies at {self.boat}")
        for colour in sorted(set(self.shamans) | set(other.shamans)):
            if self.shamans.get(colour) != other.shamans.get(colour):
                out.append(
                    f"the {colour} shaman belongs on {space_name(other.shamans.get(colour))}, "
                    f"stands on {space_name(self.shamans.get(colour))}"
                )
        for space in sorted(set(self.statues) | set(other.statues)):
            if self.statues.get(space) != other.statues.get(space):
                want = other.statues.get(space) or "no"
                out.append(f"{space_name(space)} should hold {want} statue")
        for seg in range(SEGMENTS):
            if self.lava[seg] != other.lava[seg]:
                out.append(f"crater {seg} should hold {other.lava[seg]} lava")
        return out


def space_name(space: int | None) -> str:
    if space is None:
        return "nowhere"
    if space >= HUT_BASE:
        return f"{space - HUT_BASE}B"
    return f"{space // 3}{'GFM'[space % 3]}"


def table_from_game(game: Any) -> Table:
    """The table as the rules state says it must be (the reference for ``expected_board``)."""
    table = Table(boat=game.boat, lava=list(game.lava))
    for p, colour in enumerate(("red", "yellow")):
        for value in game.board.discs:
            beach = game.disc_at[p][value]
            if beach >= 0:
                table.beaches[beach].add(f"{colour}{value}")
        if game.invocation[p] >= 0:
            table.beaches[game.invocation[p]].add(f"{colour}*")
        table.shamans[colour] = game.shaman[p]
    for space, owner in enumerate(game.statue_owner):
        if owner >= 0:
            table.statues[space] = ("red", "yellow")[owner]
    return table


def _disc_name(item: Any) -> str:
    if isinstance(item, Disc):
        return item.name
    return Disc.parse(str(item)).name


def space_index(space: int | str) -> int:
    """A shaman space from its index or its notation name (``3F``; ``1B`` is a hut)."""
    if isinstance(space, int):
        return space
    text = str(space)
    if len(text) != 2 or not text[0].isdigit() or text[1].upper() not in "GFMB":
        raise ValueError(f"{space!r} is not a space name like 3F or 1B")
    segment, band = int(text[0]), text[1].upper()
    return HUT_BASE + segment if band == "B" else segment * 3 + "GFM".index(band)


def _colour(who: Any) -> str:
    return who if isinstance(who, str) else ("red", "yellow")[who]


def table_from_expected(expected: Any) -> Table:
    """Read the companion's ``expected_board()`` into a ``Table``.

    Takes ``haleakala.companion.physical.PhysicalBoard`` (beaches of ``Disc`` sets, boat,
    shamans as space names per player, statues as (space, colour) pairs, lava per crater)
    or a mapping with the same fields; spaces may also be given as indices.
    """

    def get(name: str, default: Any = None) -> Any:
        if isinstance(expected, Mapping):
            return expected.get(name, default)
        return getattr(expected, name, default)

    table = Table()
    beaches = get("beaches", ())
    items: Iterable = beaches.items() if isinstance(beaches, Mapping) else enumerate(beaches)
    for beach, discs in items:
        table.beaches[int(beach)] = {_disc_name(d) for d in discs}
    boat = get("boat")
    table.boat = int(boat) if boat is not None else 0
    shamans = get("shamans", {})
    items = shamans.items() if isinstance(shamans, Mapping) else enumerate(shamans)
    for who, space in items:
        table.shamans[_colour(who)] = space_index(space)
    statues = get("statues", {})
    if isinstance(statues, Mapping):
        pairs: Iterable = statues.items()
    elif statues and isinstance(next(iter(statues)), tuple | list):
        pairs = statues  # ((space, colour), ...)
    else:
        pairs = enumerate(statues)  # owner per space
    for space, owner in pairs:
        if owner is None or owner == -1:
            continue
        table.statues[space_index(space)] = _colour(owner)
    lava = get("lava")
    if lava is not None:
        table.lava = [int(v) for v in lava]
    return table


def apply_change(
    table: Table, before: Table, after: Table, *, misplace: random.Random | None = None
) -> list[str]:
    """Carry out on ``table`` what changed from ``before`` to ``after`` (one instruction).

    With ``misplace`` (a seeded RNG) one moved piece goes astray. Returns what was
    misplaced, in words (empty when everything went where instructed).
    """
    # Only what changed *and* is not already so on the table: a disc the player has just
    # laid (the move that made the decision) needs no instruction, and cannot go astray.
    moves: list[tuple[str, Any]] = []
    for disc in sorted(before.on_island() | after.on_island()):
        target = after.beach_of(disc)
        if before.beach_of(disc) != target and table.beach_of(disc) != target:
            moves.append(("disc", disc))
    if before.boat != after.boat and table.boat != after.boat:
        moves.append(("boat", None))
    for colour in sorted(set(before.shamans) | set(after.shamans)):
        space = after.shamans.get(colour)
        if before.shamans.get(colour) != space and table.shamans.get(colour) != space:
            moves.append(("shaman", colour))
    for space in sorted(set(before.statues) | set(after.statues)):
        owner = after.statues.get(space)
        if before.statues.get(space) != owner and table.statues.get(space) != owner:
            moves.append(("statue", space))
    if before.lava != after.lava and table.lava != after.lava:
        moves.append(("lava", None))
    astray = misplace.randrange(len(moves)) if (misplace is not None and moves) else -1
    notes: list[str] = []
    for i, (kind, key) in enumerate(moves):
        wrong = i == astray
        if kind == "disc":
            target = after.beach_of(key)
            if wrong:
                origin = before.beach_of(key)
                # Left behind when it should go, or laid on the neighbouring beach.
                target = origin if target is None else (target + 1) % BEACHES
                notes.append(f"{key} misplaced on beach {target}")
            table.put(key, target)
        elif kind == "boat":
            table.boat = (after.boat - 1) % SEGMENTS if wrong else after.boat
            if wrong:
                notes.append(f"boat stopped at segment {table.boat}")
        elif kind == "shaman":
            space = after.shamans.get(key)
            if wrong and space is not None and space < HUT_BASE:
                space = (space + 3) % HUT_BASE
                notes.append(f"{key} shaman misplaced on {space_name(space)}")
            if space is None:
                table.shamans.pop(key, None)
            else:
                table.shamans[key] = space
        elif kind == "statue":
            owner = after.statues.get(key)
            table.statues.pop(key, None)
            if owner is not None:
                space = (key + 3) % HUT_BASE if wrong else key
                table.statues[space] = owner
                if wrong:
                    notes.append(f"{owner} statue misplaced on {space_name(space)}")
        elif kind == "lava":
            table.lava = list(after.lava)
    return notes
