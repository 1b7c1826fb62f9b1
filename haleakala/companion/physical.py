"""What should physically lie where on the island, and how to get from one layout to another.

The rules engine knows where every piece *is*; players move the wooden pieces by hand. This
module turns a game position into the expected physical layout (discs per beach, boat,
shamans, statues, lava) and the difference between two layouts into instructions a player
can follow ("take red 3 off beach 2", "move the boat back to 5"). The controller compares
the expected layout with what the RFID readers sense, and shows the instructions after
every decision and after an undo. The instructions are values (``core.text.Text``, colours
as ``Term``), rendered on the OLED in the language in use.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from haleakala.core.text import Param, Term, Text
from haleakala.games.haleakala import PLAYERS, Game
from haleakala.hal.events import INVOCATION, Disc
from haleakala.i18n import N_

Beaches = tuple[frozenset[Disc], ...]


@dataclass(frozen=True)
class PhysicalBoard:
    """The pieces a player can see: ``beaches[b]`` holds the discs lying on beach ``b``;
    ``shamans`` and ``statues`` use the notation's space names (``1B`` is a hut)."""

    beaches: Beaches
    boat: int
    shamans: tuple[str, str]
    statues: tuple[tuple[str, str], ...]  # (space, colour), sorted by space
    lava: tuple[int, ...]

    def discs_on(self, beach: int) -> frozenset[Disc]:
        return self.beaches[beach]


def beach_discs(game: Game) -> Beaches:
    """The discs the game has on each beach, number discs and invocation discs."""
    beaches: list[set[Disc]] = [set() for _ in range(game.board.segments)]
    for p, colour in enumerate(PLAYERS):
        at = game.disc_at[p]
        for v in game.board.discs:
            if at[v] >= 0:
                beaches[at[v]].add(Disc(colour, v))
        if game.invocation[p] >= 0:
            beaches[game.invocation[p]].add(Disc(colour, INVOCATION))
    return tuple(frozenset(b) for b in beaches)


def physical_board(game: Game) -> PhysicalBoard:
    b = game.board
    statues = tuple(
        (b.space_name(space), PLAYERS[owner])
        for space, owner in enumerate(game.statue_owner)
        if owner >= 0
    )
    return PhysicalBoard(
        beaches=beach_discs(game),
        boat=game.boat,
        shamans=(b.space_name(game.shaman[0]), b.space_name(game.shaman[1])),
        statues=statues,
        lava=tuple(game.lava),
    )


def disc_words(disc: Disc) -> Text:
    """``red 3``, ``yellow invocation disc``: how the OLED names a disc (and ``tag X`` for
    something on a beach that is no disc of this kit)."""
    if not isinstance(disc, Disc):
        return Text.of(N_("tag {tag}"), tag=str(disc))
    if disc.value == INVOCATION:
        return Text.of(N_("{colour} invocation disc"), colour=Term(disc.colour))
    return Text.of(N_("{colour} {value}"), colour=Term(disc.colour), value=disc.value)


def join_words(items: Iterable[Param]) -> Param:
    """``a``, ``a and b``, ``a, b and c`` as one value."""
    items = list(items)
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    head = items[0]
    for item in items[1:-1]:
        head = Text.of(N_("{first}, {rest}"), first=head, rest=item)
    return Text.of(N_("{items} and {last}"), items=head, last=items[-1])


def _order(piece: object) -> tuple:
    if isinstance(piece, Disc):
        return (0, piece.colour, piece.value)
    return (1, str(piece), 0)


def disc_list(discs: Iterable[Disc]) -> Param:
    """``red 1, red 3 and yellow 2``, in a stable order."""
    return join_words(disc_words(d) for d in sorted(discs, key=_order))


def disc_instructions(have: Beaches, want: Beaches) -> list[Text]:
    """How to turn the discs of ``have`` into ``want``: moves first, then removals, then
    placements, one line per beach."""
    lines: list[Text] = []
    extra = {b: set(have[b] - want[b]) for b in range(len(want))}
    missing = {b: set(want[b] - have[b]) for b in range(len(want))}
    for src in range(len(want)):
        for disc in sorted(extra[src], key=_order):
            dst = next((b for b in range(len(want)) if disc in missing[b]), None)
            if dst is not None:
                lines.append(
                    Text.of(
                        N_("move {disc} from beach {source} to beach {target}"),
                        disc=disc_words(disc),
                        source=src,
                        target=dst,
                    )
                )
                extra[src].discard(disc)
                missing[dst].discard(disc)
    for b in range(len(want)):
        if extra[b]:
            lines.append(
                Text.of(N_("take {discs} off beach {beach}"), discs=disc_list(extra[b]), beach=b)
            )
    for b in range(len(want)):
        if missing[b]:
            lines.append(
                Text.of(N_("put {discs} on beach {beach}"), discs=disc_list(missing[b]), beach=b)
            )
    return lines


def instructions(
    before: PhysicalBoard, after: PhysicalBoard, *, back: bool = False, discs: bool = True
) -> list[Text]:
    """Board instructions for going from ``before`` to ``after``.

    ``back`` words them as a reversal (undo: "move the boat back to 5"); ``discs=False``
    leaves the discs out (the RFID kit senses them and prompts separately).
    """
    lines: list[Text] = []
    if discs:
        lines += disc_instructions(before.beaches, after.beaches)
    if before.boat != after.boat:
        move = N_("move the boat back to {beach}") if back else N_("move the boat to {beach}")
        lines.append(Text.of(move, beach=after.boat))
    for p, colour in enumerate(PLAYERS):
        if before.shamans[p] != after.shamans[p]:
            move = (
                N_("{colour} shaman back to {space}") if back else N_("{colour} shaman to {space}")
            )
            lines.append(Text.of(move, colour=Term(colour), space=after.shamans[p]))
    old, new = set(before.statues), set(after.statues)
    for space, colour in sorted(old - new):
        lines.append(
            Text.of(N_("take the {colour} statue off {space}"), colour=Term(colour), space=space)
        )
    for space, colour in sorted(new - old):
        lines.append(
            Text.of(N_("put a {colour} statue on {space}"), colour=Term(colour), space=space)
        )
    if any(before.lava) and not any(after.lava):
        lines.append(Text(N_("lava: clear all craters")))
        return lines
    for crater, (was, now) in enumerate(zip(before.lava, after.lava, strict=True)):
        if now > was:
            n = now - was
            lines.append(Text.of(N_("lava: {n} more on crater {crater}"), n=n, crater=crater))
        elif now < was:
            lines.append(Text.of(N_("lava: crater {crater} down to {n}"), crater=crater, n=now))
    return lines
