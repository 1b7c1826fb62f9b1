"""Kanaloa decisions: int codes inside the engine, canonical text (KANALOA-NOTATION) outside.

Why ints: legal lists are generated and compared thousands of times a second by bots and the
random-game harness; a code is a few additions away from its parts. Why one layout object:
the ranges depend on the map and tile data (N1, N4), which an owner may correct.

Every code range is ``start + index`` over the map's islands (alphabetical), currents (by
text), sea spaces (by text), tile codes (by text), gods (Kanaloa, Ku, Pele, Lono, Kane) and
colours (seat order). ``format`` and ``parse`` round-trip on the canonical text; ``parse``
also accepts what an interactive parser may (initials, lower case, a reversed ``swap``,
``reverse`` or ``flip``) and normalises it.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

from haleakala.core.errors import NotationError as _BaseNotationError
from haleakala.core.text import N_

from .material import GODS, Material, default_material


class NotationError(_BaseNotationError):
    """Text that is not a Kanaloa decision; the message says what is wrong, and its
    ``words`` (a template and its parameters) say it in the player's language."""


KINDS = (
    "fish", "start", "volcano", "sea", "remove", "land", "give", "swap", "move", "whiten",
    "dolphin", "sacrifice", "add", "done", "rob", "take", "reverse", "flip", "allow", "forbid",
    "place", "end",
)  # fmt: skip


@dataclass(frozen=True)
class Codes:
    """The start of each kind's range, and the sizes they are built from."""

    m: Material
    start: dict[str, int]
    total: int

    starts: tuple[int, ...]

    def kind(self, code: int) -> tuple[str, int]:
        """The kind of ``code`` and its offset inside the kind's range."""
        if isinstance(code, bool) or not isinstance(code, int) or not 0 <= code < self.total:
            raise NotationError.of(N_("{code} is not a decision code"), code=repr(code))
        k = bisect_right(self.starts, code) - 1
        return KINDS[k], code - self.starts[k]


_CODES: dict[int, tuple[Material, Codes]] = {}


def codes_for(m: Material) -> Codes:
    """The code layout of ``m`` (kept per material object: hashing one is not cheap)."""
    known = _CODES.get(id(m))
    if known is not None and known[0] is m:
        return known[1]
    codes = _build(m)
    _CODES[id(m)] = (m, codes)
    return codes


def _build(m: Material) -> Codes:
    ni, nc, ns, nt, ng, nk = len(m.islands), len(m.currents), len(m.sea), len(m.tiles), 5, 4
    sizes = {
        "fish": nc * 2 * 5, "start": ni, "volcano": ni, "sea": ns, "remove": ni + 1,
        "land": ni, "give": nt, "swap": nc * nt * nt, "move": nc * 2, "whiten": nc * 2,
        "dolphin": ni, "sacrifice": nt * ng, "add": nt, "done": 1, "rob": nk * nt,
        "take": nt, "reverse": nc, "flip": nc, "allow": 1, "forbid": 1, "place": ni, "end": 1,
    }  # fmt: skip
    start: dict[str, int] = {}
    at = 0
    for k in KINDS:
        start[k] = at
        at += sizes[k]
    return Codes(m, start, at, tuple(start[k] for k in KINDS))


def _heading(m: Material, current: int, heading: int) -> str:
    a, b = m.currents[current]
    tail, head = (a, b) if heading == 0 else (b, a)
    return f"{m.islands[tail]}>{m.islands[head]}"


def format_decision(code: int, m: Material | None = None) -> str:
    m = m or default_material()
    c = codes_for(m)
    kind, i = c.kind(code)
    isl, tiles, nt = m.islands, m.tiles, len(m.tiles)
    if kind == "fish":
        cur, rest = divmod(i, 10)
        heading, side = divmod(rest, 5)
        return f"fish {_heading(m, cur, heading)} {'white' if side == 0 else m.colours[side - 1]}"
    if kind in ("start", "volcano", "land", "dolphin", "place"):
        return f"{kind} {isl[i]}"
    if kind == "sea":
        return f"volcano {m.sea_names[i]}"
    if kind == "remove":
        return "remove dolphin" if i == len(isl) else f"remove {isl[i]}"
    if kind in ("give", "add", "take"):
        return f"{kind} {tiles[i]}"
    if kind == "swap":
        cur, rest = divmod(i, nt * nt)
        ta, tb = divmod(rest, nt)
        a, b = m.currents[cur]
        return f"swap {isl[a]}:{tiles[ta]} {isl[b]}:{tiles[tb]}"
    if kind in ("move", "whiten"):
        cur, heading = divmod(i, 2)
        return f"{kind} {_heading(m, cur, heading)}"
    if kind == "sacrifice":
        t, g = divmod(i, 5)
        return f"sacrifice {tiles[t]} to {GODS[g]}"
    if kind == "rob":
        p, t = divmod(i, nt)
        return f"rob {m.colours[p]} {tiles[t]}"
    if kind in ("reverse", "flip"):
        return f"{kind} {m.current_names[i]}"
    return kind  # done, allow, forbid, end


def all_codes(m: Material | None = None) -> list[int]:
    """Every well-formed decision code (for the harness's refusal sampling)."""
    return list(range(codes_for(m or default_material()).total))


def _island(m: Material, word: str) -> int:
    up = word.upper()
    if up in m.islands:
        return m.islands.index(up)
    if len(up) == 1:
        found = [i for i, n in enumerate(m.islands) if n[0] == up]
        if len(found) == 1:
            return found[0]
    raise NotationError.of(N_("unknown island {word}: the islands are {islands} (N1)"), "N1",
                          word=repr(word), islands=" ".join(m.islands))  # fmt: skip


def _tile(m: Material, word: str) -> int:
    for i, t in enumerate(m.tiles):
        if t == word or t.lower() == word.lower():
            return i
    raise NotationError.of(N_("unknown tile {word}: a tile is a god and a value, like Kane3 or "
                             "Pele/Lono2 (N5)"), "N5", word=repr(word))  # fmt: skip


def _current(m: Material, word: str) -> int:
    a, sep, b = word.partition("-")
    if not sep:
        raise NotationError.of(N_("{word} is not a current: write two islands joined by -"),
                              word=repr(word))  # fmt: skip
    ia, ib = _island(m, a), _island(m, b)
    cur = m.current_between(ia, ib)
    if cur is None:
        raise NotationError.of(N_("no current joins {a} and {b} (N1)"), "N1", a=m.islands[ia],
                              b=m.islands[ib])  # fmt: skip
    return cur


def _fish(m: Material, word: str) -> tuple[int, int]:
    a, sep, b = word.partition(">")
    if not sep:
        raise NotationError.of(N_("{word} is not a fish heading: write tail>head, like HONU>KAI"),
                              word=repr(word))  # fmt: skip
    ia, ib = _island(m, a), _island(m, b)
    cur = m.current_between(ia, ib)
    if cur is None:
        raise NotationError.of(N_("no current joins {a} and {b} (N1)"), "N1", a=m.islands[ia],
                              b=m.islands[ib])  # fmt: skip
    return cur, 0 if m.currents[cur][0] == ia else 1


def parse_decision(text: str, m: Material | None = None) -> int:
    """The code of a decision text; ``NotationError`` with a sentence when it is none."""
    m = m or default_material()
    c = codes_for(m)
    s = c.start
    words = str(text).split()
    if not words:
        raise NotationError.of(N_("an empty decision: type a move such as 'move HONU>KAI'"))
    verb, args = words[0].lower(), words[1:]

    def need(n: int, shape: str) -> None:
        if len(args) != n:
            raise NotationError.of(N_("{verb} takes {shape}, as in '{verb} {shape}'"), verb=verb,
                                  shape=shape)  # fmt: skip

    if verb in ("done", "allow", "forbid", "end"):
        need(0, "")
        return s[verb]
    if verb == "fish":
        need(2, "HONU>KAI white")
        cur, heading = _fish(m, args[0])
        side_word = args[1].lower()
        if side_word == "white":
            side = 0
        elif side_word in m.colours:
            side = m.colours.index(side_word) + 1
        else:
            raise NotationError.of(N_("a fish shows white or a colour ({colours}), not {word}"),
                                   colours=", ".join(m.colours), word=repr(args[1]))  # fmt: skip
        return s["fish"] + cur * 10 + heading * 5 + side
    if verb in ("start", "land", "dolphin", "place"):
        need(1, "HONU")
        return s[verb] + _island(m, args[0])
    if verb == "volcano":
        need(1, "PALI")
        if "+" in args[0]:
            parts = sorted(m.islands[_island(m, p)] for p in args[0].split("+"))
            name = "+".join(parts)
            if name not in m.sea_names:
                raise NotationError.of(N_("unknown sea space {word} (N3)"), "N3",
                                       word=repr(args[0]))  # fmt: skip
            return s["sea"] + m.sea_names.index(name)
        return s["volcano"] + _island(m, args[0])
    if verb == "remove":
        need(1, "HONU")
        if args[0].lower() == "dolphin":
            return s["remove"] + len(m.islands)
        return s["remove"] + _island(m, args[0])
    if verb in ("give", "add", "take"):
        need(1, "Kane3")
        return s[verb] + _tile(m, args[0])
    if verb == "swap":
        need(2, "HONU:Kane3 KAI:Ku4")
        ends = []
        for word in args:
            isl, sep, tile = word.partition(":")
            if not sep:
                raise NotationError.of(N_("{word}: write island:tile, like HONU:Kane3"),
                                       word=repr(word))  # fmt: skip
            ends.append((_island(m, isl), _tile(m, tile)))
        (ia, ta), (ib, tb) = sorted(ends)
        if ia == ib:
            raise NotationError.of(N_("a swap needs two different islands (N44)"), "N44")
        joined = m.current_between(ia, ib)
        if joined is None:
            raise NotationError.of(N_("no current joins {a} and {b} (N44)"), "N44", a=m.islands[ia],
                                  b=m.islands[ib])  # fmt: skip
        nt = len(m.tiles)
        return s["swap"] + joined * nt * nt + ta * nt + tb
    if verb in ("move", "whiten"):
        need(1, "HONU>KAI")
        cur, heading = _fish(m, args[0])
        return s[verb] + cur * 2 + heading
    if verb == "sacrifice":
        if len(args) != 3 or args[1].lower() != "to":
            raise NotationError.of(
                N_("sacrifice takes a tile and a god, as in 'sacrifice Pele5 to Pele'")
            )
        god = next((g for g, name in enumerate(GODS) if name.lower() == args[2].lower()), None)
        if god is None:
            raise NotationError.of(N_("unknown god {word}: the gods are {gods}"),
                                   word=repr(args[2]), gods=", ".join(GODS))  # fmt: skip
        return s["sacrifice"] + _tile(m, args[0]) * 5 + god
    if verb == "rob":
        need(2, "yellow Pele5")
        colour = args[0].lower()
        if colour not in m.colours:
            raise NotationError.of(N_("unknown player {word}: the players are {colours} (N7)"),
                                   "N7", word=repr(args[0]),
                                   colours=", ".join(m.colours))  # fmt: skip
        return s["rob"] + m.colours.index(colour) * len(m.tiles) + _tile(m, args[1])
    if verb in ("reverse", "flip"):
        need(1, "HONU-KAI")
        word = args[0].replace(">", "-")
        return s[verb] + _current(m, word)
    raise NotationError.of(
        N_("unknown decision {word}: the decisions are fish, start, volcano, remove, land, "
           "give, swap, move, whiten, dolphin, sacrifice, add, done, rob, take, reverse, flip, "
           "allow, forbid, place and end"),
        word=repr(words[0]),
    )  # fmt: skip
