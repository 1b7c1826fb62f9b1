"""The Kahuna board as data: islands, the lines between them, and the material (K1–K3).

The board lives in ``data/board.toml`` because it was traced from pictures: an owner of
the game may need to correct it. Loading checks it against the line counts printed on the
island cards (K1), so a wrong edit is refused with the island and the counts that differ.
Islands and lines get small int indices in alphabetical order, which is also the order
the rulings examine them in (K12, K13).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path


class BoardError(ValueError):
    """A board file that contradicts itself or the cards; the message says where."""


@dataclass(frozen=True)
class Board:
    islands: tuple[str, ...]  # sorted names; index = island = card code (K2)
    lines: tuple[tuple[int, int], ...]  # (a, b) with a < b, sorted by name
    line_names: tuple[str, ...]  # "ELAI-HUNA"
    lines_of: tuple[tuple[int, ...], ...]  # island → its line indices, ascending
    need: tuple[int, ...]  # island → bridges for a majority: more than half (K5)
    bridges: int
    stones: int
    cards_per_island: int
    hand_limit: int
    deal: int
    display: int

    @property
    def cards(self) -> int:
        return len(self.islands) * self.cards_per_island

    def line_between(self, a: int, b: int) -> int | None:
        lo, hi = (a, b) if a < b else (b, a)
        return _line_index(self).get((lo, hi))

    def other_end(self, line: int, island: int) -> int:
        a, b = self.lines[line]
        return b if island == a else a


@cache
def _line_index(board: Board) -> dict[tuple[int, int], int]:
    return {ends: i for i, ends in enumerate(board.lines)}


def load_board(path: str | Path | None = None) -> Board:
    """Read and check a board file (default: the packaged one)."""
    if path is None:
        text = (
            resources.files("haleakala.games.kahuna").joinpath("data/board.toml").read_text("utf-8")
        )
        where = "data/board.toml"
    else:
        text = Path(path).read_text(encoding="utf-8")
        where = str(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise BoardError(f"{where}: not valid TOML ({exc})") from None
    islands_data = data.get("islands")
    if not isinstance(islands_data, dict) or not islands_data:
        raise BoardError(f"{where}: needs an [islands] table")
    names = tuple(sorted(islands_data))
    index = {n: i for i, n in enumerate(names)}
    pairs: list[tuple[int, int]] = []
    for text_line in data.get("lines", []):
        a, sep, b = str(text_line).partition("-")
        if not sep or a not in index or b not in index or a == b:
            raise BoardError(f"{where}: line {text_line!r} must join two listed islands, A-B")
        if a > b:
            raise BoardError(f"{where}: write line {text_line!r} as {b}-{a} (alphabetical)")
        pairs.append((index[a], index[b]))
    if len(set(pairs)) != len(pairs):
        raise BoardError(f"{where}: a line is listed twice")
    pairs.sort()
    lines_of = tuple(
        tuple(i for i, ends in enumerate(pairs) if island in ends) for island in range(len(names))
    )
    for island, name in enumerate(names):
        printed = islands_data[name].get("lines")
        if printed != len(lines_of[island]):
            raise BoardError(
                f"{where}: {name} has {len(lines_of[island])} lines but its card prints "
                f"{printed} (K1): fix the lines or the count"
            )
    m = data.get("material", {})
    return Board(
        islands=names,
        lines=tuple(pairs),
        line_names=tuple(f"{names[a]}-{names[b]}" for a, b in pairs),
        lines_of=lines_of,
        need=tuple(len(ls) // 2 + 1 for ls in lines_of),
        bridges=int(m.get("bridges", 25)),
        stones=int(m.get("stones", 10)),
        cards_per_island=int(m.get("cards_per_island", 2)),
        hand_limit=int(m.get("hand_limit", 5)),
        deal=int(m.get("deal", 3)),
        display=int(m.get("display", 3)),
    )


@cache
def default_board() -> Board:
    return load_board()
