"""The Kanaloa map, tile mix and colours as data, loaded with the checks of N2 and N4.

Why data: the map and part of the tile mix are reconstructions (KANALOA-RULINGS N1, N4), so
an owner of the physical game must be able to correct them without touching code. Loading
refuses a file that breaks N2 (islands, currents, currents in play equal to fish in play,
2-edge-connected maps, sea spaces) or N4 (31 kinds, 93 tiles, 24 single-god, 36 two-god, 33
Kane) with one sentence naming what is wrong. Islands get int indices in alphabetical order,
currents in the order of their canonical text, tile codes in the order of their text.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

GODS = ("Kanaloa", "Ku", "Pele", "Lono", "Kane")
KANE = 4  # index of Kane in GODS
VOLCANO_TEXT = "volcano"
FISH_PER_PLAYER = 7
NEUTRAL_FISH = 2  # N7, N14: two fish of the unused colour with two players


class MaterialError(ValueError):
    """A map or tile file that breaks N2 or N4; the message names the problem."""


@dataclass(frozen=True)
class Layout:
    """What one player count uses (N9): islands and currents in play, derived from the map."""

    players: int
    islands: tuple[int, ...]  # island indices in play, ascending
    in_play: tuple[bool, ...]  # per island
    currents: tuple[int, ...]  # current indices in play, ascending
    current_in_play: tuple[bool, ...]
    adjacent: tuple[tuple[tuple[int, int], ...], ...]  # island -> ((current, other), ...)
    sea: tuple[int, ...]  # sea spaces the two-player volcano may take (N3)
    affected: tuple[tuple[int, ...], ...]  # sea space -> islands in play it touches
    mask: int  # bit mask of the islands in play


@dataclass(frozen=True)
class Material:
    islands: tuple[str, ...]  # sorted names
    roles: tuple[str, ...]  # "", "shipwreck" or "canoe"
    positions: tuple[tuple[float, float], ...]
    dolphin: tuple[float, float]
    currents: tuple[tuple[int, int], ...]  # (a, b), a < b by name, sorted by text
    current_names: tuple[str, ...]
    sea: tuple[tuple[int, ...], ...]  # islands of each sea space, ascending
    sea_names: tuple[str, ...]
    colours: tuple[str, ...]
    tiles: tuple[str, ...]  # the distinct tile codes, sorted (N5)
    tile_gods: tuple[frozenset[int], ...]  # god indices each code shows
    tile_value: tuple[int, ...]
    tile_count: tuple[int, ...]  # copies of each code in the full game
    kinds_of: tuple[int, ...]  # kinds sharing each code (one copy each stays out with 2)
    layouts: tuple[Layout, ...]  # index = number of players (0 and 1 unused)

    def layout(self, players: int) -> Layout:
        return self.layouts[players]

    def offerings(self, players: int) -> list[str]:
        """The offering codes with their multiplicity for ``players`` (N4, N50)."""
        out: list[str] = []
        for code, count, kinds in zip(self.tiles, self.tile_count, self.kinds_of, strict=True):
            out += [code] * (count - kinds if players == 2 else count)
        return out

    def volcano_tiles(self, players: int) -> int:
        return 7 if players == 2 else 11  # N9

    def current_between(self, a: int, b: int) -> int | None:
        return _current_index(self).get((min(a, b), max(a, b)))

    def tile_code(self, text: str) -> int:
        return _tile_index(self)[text]


_INDEX: dict[int, tuple[Material, dict, dict]] = {}


def _indices(m: Material) -> tuple[Material, dict, dict]:
    """Lookup tables kept per material object (hashing a Material is not cheap)."""
    known = _INDEX.get(id(m))
    if known is None or known[0] is not m:
        known = _INDEX[id(m)] = (
            m,
            {ends: i for i, ends in enumerate(m.currents)},
            {t: i for i, t in enumerate(m.tiles)},
        )
    return known


def _current_index(m: Material) -> dict[tuple[int, int], int]:
    return _indices(m)[1]


def _tile_index(m: Material) -> dict[str, int]:
    return _indices(m)[2]


def tile_text(gods: list[str], value: int) -> str:
    """N5: the gods in the order Kanaloa, Ku, Pele, Lono joined by '/', then the value."""
    return "/".join(gods) + str(value)


def _read(path: str | Path | None, name: str) -> tuple[dict, str]:
    if path is None:
        text = (
            resources.files("haleakala.games.kanaloa").joinpath(f"data/{name}").read_text("utf-8")
        )
        where = f"data/{name}"
    else:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise MaterialError(f"{path}: cannot be read ({exc})") from None
        where = str(path)
    try:
        return tomllib.loads(text), where
    except tomllib.TOMLDecodeError as exc:
        raise MaterialError(f"{where}: not valid TOML ({exc})") from None


def _strongly(adj: dict[int, list[int]], nodes: list[int]) -> bool:
    """Every node reaches every other along ``adj`` (and back)."""
    if not nodes:
        return True
    start = nodes[0]
    for graph in (adj, _reverse(adj)):
        seen = {start}
        stack = [start]
        while stack:
            for j in graph.get(stack.pop(), ()):
                if j not in seen:
                    seen.add(j)
                    stack.append(j)
        if len(seen) != len(nodes):
            return False
    return True


def _reverse(adj: dict[int, list[int]]) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for i, js in adj.items():
        for j in js:
            out.setdefault(j, []).append(i)
    return out


def _connected(nodes: list[int], edges: list[tuple[int, int]]) -> bool:
    adj: dict[int, list[int]] = {n: [] for n in nodes}
    for a, b in edges:
        adj[a].append(b)
        adj[b].append(a)
    return _strongly(adj, nodes)


def load_material(map_path: str | Path | None = None,
                  tiles_path: str | Path | None = None) -> Material:  # fmt: skip
    """Read and check the map and the tile file (default: the packaged ones)."""
    mdata, mwhere = _read(map_path, "map.toml")
    tdata, twhere = _read(tiles_path, "tiles.toml")
    islands_data = mdata.get("islands")
    if not isinstance(islands_data, dict):
        raise MaterialError(f"{mwhere}: needs an [islands] table (N1)")
    names = tuple(sorted(islands_data))
    if len(names) != 12:
        raise MaterialError(f"{mwhere}: the map needs exactly 12 islands, not {len(names)} (N2)")
    if any(not n.isalpha() or not n.isupper() for n in names):
        raise MaterialError(f"{mwhere}: island names are capital letters only (N1)")
    index = {n: i for i, n in enumerate(names)}
    roles: list[str] = []
    positions: list[tuple[float, float]] = []
    for n in names:
        entry = islands_data[n]
        if not isinstance(entry, dict):
            raise MaterialError(f"{mwhere}: island {n} needs x, y (and an optional role)")
        role = entry.get("role", "")
        if role not in ("", "shipwreck", "canoe"):
            raise MaterialError(f"{mwhere}: island {n}'s role {role!r} is not shipwreck or canoe")
        roles.append(role)
        try:
            positions.append((float(entry["x"]), float(entry["y"])))
        except (KeyError, TypeError, ValueError):
            raise MaterialError(f"{mwhere}: island {n} needs numbers x and y") from None
    for role, want in (("shipwreck", 2), ("canoe", 2)):
        if roles.count(role) != want:
            raise MaterialError(f"{mwhere}: the map needs {want} {role} islands (N1)")
    raw_currents = mdata.get("currents")
    if not isinstance(raw_currents, list):
        raise MaterialError(f"{mwhere}: needs a list of currents (N1)")
    pairs: list[tuple[int, int]] = []
    for text in raw_currents:
        a, sep, b = str(text).partition("-")
        if not sep or a not in index or b not in index or a == b:
            raise MaterialError(
                f"{mwhere}: current {text!r} must join two listed islands, written A-B (N2)"
            )
        if a > b:
            raise MaterialError(f"{mwhere}: write current {text!r} as {b}-{a} (alphabetical)")
        pairs.append((index[a], index[b]))
    if len(set(pairs)) != len(pairs):
        twice = [f"{names[a]}-{names[b]}" for (a, b), k in Counter(pairs).items() if k > 1]
        raise MaterialError(f"{mwhere}: current {twice[0]} is listed twice (N2)")
    if len(pairs) != 28:
        raise MaterialError(f"{mwhere}: the map needs exactly 28 currents, not {len(pairs)} (N2)")
    order = sorted(range(len(pairs)), key=lambda i: f"{names[pairs[i][0]]}-{names[pairs[i][1]]}")
    currents = tuple(pairs[i] for i in order)
    current_names = tuple(f"{names[a]}-{names[b]}" for a, b in currents)
    raw_sea = mdata.get("sea", [])
    if not isinstance(raw_sea, list):
        raise MaterialError(f"{mwhere}: sea must be a list of sea spaces (N3)")
    sea: list[tuple[int, ...]] = []
    cur_set = set(currents)
    for text in raw_sea:
        parts = str(text).split("+")
        if len(parts) not in (2, 3) or any(p not in index for p in parts):
            raise MaterialError(
                f"{mwhere}: sea space {text!r} must name 2 or 3 listed islands joined by + (N2)"
            )
        if parts != sorted(parts) or len(set(parts)) != len(parts):
            raise MaterialError(f"{mwhere}: write sea space {text!r} as {'+'.join(sorted(parts))}")
        ids = tuple(index[p] for p in parts)
        for k, x in enumerate(ids):
            for y in ids[k + 1 :]:
                if (x, y) not in cur_set:
                    raise MaterialError(
                        f"{mwhere}: sea space {text} touches {names[x]} and {names[y]}, "
                        f"which no current joins (N2)"
                    )
        sea.append(ids)
    if len(set(sea)) != len(sea):
        raise MaterialError(f"{mwhere}: a sea space is listed twice (N3)")
    sea_order = sorted(range(len(sea)), key=lambda i: "+".join(names[k] for k in sea[i]))
    sea_t = tuple(sea[i] for i in sea_order)
    dolphin_data = mdata.get("dolphin", {})
    try:
        dolphin = (float(dolphin_data["x"]), float(dolphin_data["y"]))
    except (KeyError, TypeError, ValueError):
        raise MaterialError(f"{mwhere}: needs a [dolphin] table with numbers x and y") from None

    colours, tiles, gods_of, values, counts, kinds_of = _tiles(tdata, twhere)

    layouts: list[Layout | None] = [None, None]
    for n in (2, 3, 4):
        out = {"shipwreck"} if n == 3 else {"shipwreck", "canoe"} if n == 2 else set()
        in_play = tuple(r not in out for r in roles)
        isl = tuple(i for i in range(12) if in_play[i])
        cur = tuple(c for c, (a, b) in enumerate(currents) if in_play[a] and in_play[b])
        fish = n * FISH_PER_PLAYER + (NEUTRAL_FISH if n == 2 else 0)
        if len(cur) != fish:
            raise MaterialError(
                f"{mwhere}: with {n} players {len(cur)} currents are in play, but there are "
                f"{fish} fish: they must be equal (N2, N14)"
            )
        edges = [currents[c] for c in cur]
        if not _connected(list(isl), edges):
            raise MaterialError(f"{mwhere}: with {n} players the islands in play are not "
                                f"connected (N2)")  # fmt: skip
        for c in cur:
            rest = [currents[d] for d in cur if d != c]
            if not _connected(list(isl), rest):
                raise MaterialError(
                    f"{mwhere}: with {n} players the map falls apart without current "
                    f"{current_names[c]}; it must be 2-edge-connected (N2, N15)"
                )
        adjacent = tuple(
            tuple((c, b if a == i else a) for c in cur for a, b in [currents[c]] if i in (a, b))
            for i in range(12)
        )
        seas = tuple(s for s, ids in enumerate(sea_t) if sum(in_play[i] for i in ids) >= 2)
        affected = tuple(tuple(i for i in ids if in_play[i]) for ids in sea_t)
        layouts.append(Layout(n, isl, in_play, cur, tuple(c in cur for c in range(28)),
                              adjacent, seas, affected, sum(1 << i for i in isl)))  # fmt: skip
    return Material(
        islands=names,
        roles=tuple(roles),
        positions=tuple(positions),
        dolphin=dolphin,
        currents=currents,
        current_names=current_names,
        sea=sea_t,
        sea_names=tuple("+".join(names[k] for k in ids) for ids in sea_t),
        colours=colours,
        tiles=tiles,
        tile_gods=gods_of,
        tile_value=values,
        tile_count=counts,
        kinds_of=kinds_of,
        layouts=tuple(layouts),  # type: ignore[arg-type]
    )


def _tiles(data: dict, where: str):
    colours = data.get("colours")
    if (
        not isinstance(colours, list)
        or len(colours) != 4
        or len(set(colours)) != 4
        or not all(isinstance(c, str) and c.isalpha() and c.islower() for c in colours)
    ):
        raise MaterialError(f"{where}: colours must list 4 different lower-case names (N7)")
    copies = data.get("copies")
    if copies != 3:
        raise MaterialError(f"{where}: copies must be 3, not {copies!r}: each kind exists "
                            f"three times (N4)")  # fmt: skip
    kinds = data.get("kinds")
    if not isinstance(kinds, list):
        raise MaterialError(f"{where}: needs a list of kinds (N4)")
    codes: list[str] = []
    single = double = kane = 0
    for n, kind in enumerate(kinds, 1):
        gods = kind.get("gods") if isinstance(kind, dict) else None
        value = kind.get("value") if isinstance(kind, dict) else None
        if (
            not isinstance(gods, list)
            or not gods
            or any(g not in GODS for g in gods)
            or isinstance(value, bool)
            or not isinstance(value, int)
            or not 1 <= value <= 9
        ):
            raise MaterialError(
                f"{where}: kind {n} needs gods from {', '.join(GODS)} and a value from 1 to 9"
            )
        order = [GODS.index(g) for g in gods]
        if order != sorted(set(order)) or len(gods) > 2 or ("Kane" in gods and len(gods) > 1):
            raise MaterialError(
                f"{where}: kind {n} ({'/'.join(gods)}) must show one god, Kane alone, or two "
                f"gods in the order Kanaloa, Ku, Pele, Lono (N5)"
            )
        if gods == ["Kane"]:
            kane += copies
        elif len(gods) == 1:
            single += copies
        else:
            double += copies
        codes.append(tile_text(gods, value))
    total = len(codes) * copies
    for what, have, want in (("kinds", len(codes), 31), ("tiles", total, 93),
                             ("single-god tiles", single, 24), ("two-god tiles", double, 36),
                             ("Kane tiles", kane, 33)):  # fmt: skip
        if have != want:
            raise MaterialError(f"{where}: there must be {want} {what}, not {have} (N4)")
    kinds_of = Counter(codes)
    tiles = tuple(sorted(kinds_of))
    gods_of = tuple(
        frozenset(GODS.index(g) for g in t.rstrip("0123456789").split("/")) for t in tiles
    )
    values = tuple(int(t[len(t.rstrip("0123456789")) :]) for t in tiles)
    counts = tuple(kinds_of[t] * copies for t in tiles)
    return (tuple(colours), tiles, gods_of, values, counts, tuple(kinds_of[t] for t in tiles))


@cache
def default_material() -> Material:
    return load_material()
