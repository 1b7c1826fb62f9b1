"""The eruption and the two scorings (R19, R22, R23), and a scoring as a value.

A scoring is a ``Scoring`` (each player's ``PlayerScoring``, their ``Points`` by kind):
frozen, so the game, its events and its result share one without copying, and read by
attribute everywhere; ``to_record``/``from_record`` are the one place it meets the dict of
NOTATION.md that logs, saves, journals and the wire carry.

Kept apart from the turn rules because the scoring board is where a house rule or a
corrected card is most likely to change something; every number comes from the deck data.
The game calls these with itself; they name only what they read (``Position``), so this
module does not import ``game`` and the two do not import each other.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Protocol

from .deck import BOARD_ITEMS, Deck
from .geometry import Board


class Position(Protocol):
    """The parts of a ``Game`` that the eruption changes and a scoring reads."""

    board: Board
    deck: Deck
    lava: list[int]
    statue_owner: list[int]
    statues_left: list[int]
    beach_cards: list[list[int]]
    shells: list[list[int]]
    board_owner: list[int]
    scorings: list[Scoring]


SEATS = ("red", "yellow")
"""The players' colours in seat order: ``state.PLAYERS`` (``state`` imports this module, so
it cannot be imported here; a test holds the two equal)."""


@dataclass(frozen=True, slots=True)
class Points:
    """One player's points of one scoring, by kind (R18–R23). The fields are in the order
    of ``POINT_KEYS``: the order the log and saves write them and the tables show them."""

    statues: int = 0
    fish: int = 0
    pearls: int = 0
    nautilus: int = 0
    butterflies: int = 0
    majority: int = 0
    segment: int = 0
    forest: int = 0
    mountain: int = 0
    shells: int = 0

    def items(self) -> tuple[tuple[str, int], ...]:
        """``(kind, points)`` for every kind, zeros included, in ``POINT_KEYS`` order."""
        return tuple((k, getattr(self, k)) for k in POINT_KEYS)

    @property
    def gained(self) -> int:
        """What this scoring added to the player's total (the sum of the kinds)."""
        return sum(getattr(self, k) for k in POINT_KEYS)

    def to_record(self) -> dict[str, int]:
        return dict(self.items())

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Points:
        """The points of a record; a missing or unknown kind, or a count that is not a
        whole number, is a ``ValueError`` naming it (``serialize`` checks saves deeper)."""
        _exact_keys(record, POINT_KEYS, "points")
        return cls(**{k: _whole(record[k], f"points.{k}") for k in POINT_KEYS})


POINT_KEYS = tuple(f.name for f in fields(Points))
"""The kinds of points a scoring gives, in the order the log writes them."""


@dataclass(frozen=True, slots=True)
class PlayerScoring:
    """What one scoring gave ``colour`` and the facts it rests on: the points by kind,
    the running ``total`` after it, the statues that stood (``2F``), the beach's fish
    baskets and cards (codes), the shells held and the scoring-board items owned."""

    colour: str
    points: Points
    total: int
    statues: tuple[str, ...]
    baskets: int
    cards: tuple[str, ...]
    shells: int
    scoring_cards: tuple[str, ...]

    def to_record(self) -> dict[str, Any]:
        """The player's part of the scoring record (NOTATION.md), keys in the order the
        log has always written them; the colour is the key it sits under."""
        return {
            "points": self.points.to_record(),
            "total": self.total,
            "statues": list(self.statues),
            "baskets": self.baskets,
            "cards": list(self.cards),
            "shells": self.shells,
            "scoring_cards": list(self.scoring_cards),
        }

    @classmethod
    def from_record(cls, colour: str, record: Mapping[str, Any]) -> PlayerScoring:
        where = f"players.{colour}"
        _exact_keys(record, PLAYER_FACTS, where)
        return cls(
            colour=colour,
            points=Points.from_record(record["points"]),
            total=_whole(record["total"], f"{where}.total"),
            statues=_names(record["statues"], f"{where}.statues"),
            baskets=_whole(record["baskets"], f"{where}.baskets"),
            cards=_names(record["cards"], f"{where}.cards"),
            shells=_whole(record["shells"], f"{where}.shells"),
            scoring_cards=_names(record["scoring_cards"], f"{where}.scoring_cards"),
        )


PLAYER_FACTS = tuple(f.name for f in fields(PlayerScoring) if f.name != "colour")
"""The keys of a player's part of a scoring record, in the order the log writes them."""


@dataclass(frozen=True, slots=True)
class Scoring:
    """One scoring (R18–R23): its ``round`` and each player's part in seat order (``SEATS``,
    whatever order a record lists them in). A game keeps them (``Game.scorings``), the
    ``Scored`` event and the ``Result`` carry them; ``to_record`` is the scoring record of
    NOTATION.md as logs, saves and journals hold it
    (``{"round": 1, "players": {"red": {...}, "yellow": {...}}}``)."""

    round: int
    players: tuple[PlayerScoring, ...]

    def of(self, colour: str) -> PlayerScoring:
        """The part of the player of ``colour``."""
        for part in self.players:
            if part.colour == colour:
                return part
        raise KeyError(colour)

    @property
    def totals(self) -> tuple[int, ...]:
        """Each player's running total after this scoring, in seat order."""
        return tuple(part.total for part in self.players)

    def to_record(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "players": {part.colour: part.to_record() for part in self.players},
        }

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Scoring:
        """The scoring a record (``to_record``'s dict, or its JSON read back) describes. A
        record of the wrong shape is a ``ValueError`` that names the field; the values'
        sense (spaces, cards, totals that add up) is ``serialize``'s check of a save."""
        if not isinstance(record, Mapping):
            raise ValueError("a scoring record is an object with round and players")
        _exact_keys(record, ("round", "players"), "scoring")
        players = record["players"]
        _exact_keys(players, SEATS, "players")
        return cls(
            round=_whole(record["round"], "round"),
            players=tuple(PlayerScoring.from_record(c, players[c]) for c in SEATS),
        )


def _exact_keys(record: Any, keys: tuple[str, ...], where: str) -> None:
    if not isinstance(record, Mapping):
        raise ValueError(f"{where}: expected an object with {', '.join(keys)}")
    missing = [k for k in keys if k not in record]
    unknown = [k for k in record if k not in keys]
    if missing or unknown:
        said = [f"{k} is missing" for k in missing] + [f"{k} is unknown" for k in unknown]
        raise ValueError(f"{where}: {', '.join(said)}")


def _whole(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{where}: {value!r} is not a whole number")
    return value


def _names(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{where}: expected a list of names")
    return tuple(value)


def erupt(game: Position) -> list[str]:
    """R19: k lava discs on a crater reach mountain, forest, grassland (k ≥ 1, 2, 3) of
    that segment, destroying statues there; shamans dodge. Then all lava leaves."""
    destroyed = []
    for seg, count in enumerate(game.lava):
        for band in range(min(count, 3)):  # 0 mountain, 1 forest, 2 grassland
            space = seg * 3 + 2 - band
            owner = game.statue_owner[space]
            if owner >= 0:
                game.statue_owner[space] = -1
                game.statues_left[owner] += 1
                destroyed.append(game.board.space_name(space))
        game.lava[seg] = 0
    return sorted(destroyed)


def score_round(game: Position, rnd: int) -> Scoring:
    """Points of this scoring for both players, with the facts they rest on."""
    deck, board = game.deck, game.board
    pts = deck.points
    owner = game.statue_owner
    per_band = [[0, 0, 0], [0, 0, 0]]  # player → statues on grassland, forest, mountain
    for space, who in enumerate(owner):
        if who >= 0:
            per_band[who][space % 3] += 1
    baskets = [sum(deck.cards[c].baskets for c in game.beach_cards[p]) for p in (0, 1)]
    players = []
    for p, colour in enumerate(SEATS):
        cards = [deck.cards[c] for c in game.beach_cards[p]]
        shells = [deck.cards[c] for c in game.shells[p]]
        mine = {BOARD_ITEMS[i] for i, o in enumerate(game.board_owner) if o == p}
        _, f, m = per_band[p]
        pearls = {c.pearl for c in cards if c.pearl}
        if pearls >= {"white", "black"}:
            pearl_points = pts["both_pearls"]
        else:
            pearl_points = pts["white_pearl"] * ("white" in pearls) + pts["black_pearl"] * (
                "black" in pearls
            )
        complete = sum(
            1 for s in range(board.segments) if all(owner[s * 3 + i] == p for i in range(3))
        )
        majority = sum(1 for i in range(3) if per_band[p][i] > per_band[1 - p][i])
        points = Points(
            statues=sum(n * board.statue_points[i] for i, n in enumerate(per_band[p])),
            fish=pts["fish_majority"] if baskets[p] > baskets[1 - p] else 0,
            pearls=pearl_points,
            nautilus=pts["nautilus"] * sum(c.nautilus for c in cards),
            butterflies=pts["butterfly"] * sum(c.butterflies for c in cards + shells)
            if "butterflies" in mine
            else 0,
            majority=pts["statue_majority"] * majority if "majority" in mine else 0,
            segment=pts["complete_segment"] * complete if "segment" in mine else 0,
            forest=pts["forest_bonus"] * f if "forest" in mine else 0,
            mountain=pts["mountain_bonus"] * m if "mountain" in mine else 0,
            shells=pts["shell_round2"] * len(shells) if rnd == 2 else 0,
        )
        before = game.scorings[-1].players[p].total if game.scorings else 0
        players.append(
            PlayerScoring(
                colour=colour,
                points=points,
                total=before + points.gained,
                statues=tuple(board.space_name(s) for s, who in enumerate(owner) if who == p),
                baskets=baskets[p],
                cards=tuple(c.code for c in cards),
                shells=len(shells),
                scoring_cards=tuple(code for code in BOARD_ITEMS if code in mine),
            )
        )
    return Scoring(rnd, tuple(players))
