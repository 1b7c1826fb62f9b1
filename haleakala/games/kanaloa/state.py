"""Kanaloa's constants, the seeded deal (N8) and the result (N48), apart from the rules so
that the log, the replayer and the serializer share them without importing the engine."""

from __future__ import annotations

import random
from dataclasses import dataclass

from haleakala.core.errors import IllegalDecision as _BaseIllegal

from .material import GODS, Material

SUPPLY = -1  # a piece in its owner's supply
DOLPHIN = -2  # a piece on the Dolphin
NOBODY = -1  # an unowned card
SEA = 100  # volcano positions >= SEA are sea spaces (two players, N3)

# Decision points (phases).
FISH, START, VOLCANO, REMOVE, LAND, GIVE, MAIN, SACRIFICE, ROB, TAKE, ENDSTEP, VETO, OVER = range(
    13
)
PHASE_NAMES = (
    "fish", "start", "volcano", "remove", "land", "give", "main", "sacrifice", "rob", "take",
    "end step", "veto", "over",
)  # fmt: skip
KANALOA, KU, PELE, LONO, KANE = range(5)


class IllegalDecision(_BaseIllegal):
    """A decision that is not legal now: the message names the rule, ``refusal`` (its kind,
    ruling and words as a value) says it for programs and other languages."""


@dataclass(frozen=True)
class Deal:
    """What N8's recipe (or a log's setup record) fixes: the chance of a whole game."""

    tiles: dict[int, list[int]]  # island -> its two tile codes, sorted
    reserve: list[int]  # drawn in this order once in the bag; volcano = len(m.tiles)
    bag: list[int]  # first drawn first
    gods: list[list[int]]  # per player: god indices of his gods cards


def deal(m: Material, players: int, seed: int) -> Deal:
    """N8, step by step: offerings sorted then shuffled, two per island in alphabetical
    order, a reserve of 6 offerings and a volcano shuffled, the bag shuffled, gods cards."""
    rng = random.Random(seed)
    volcano = len(m.tiles)
    offerings = sorted(m.offerings(players))
    rng.shuffle(offerings)
    layout = m.layout(players)
    tiles: dict[int, list[int]] = {}
    k = 0
    for island in layout.islands:
        tiles[island] = sorted([m.tile_code(offerings[k]), m.tile_code(offerings[k + 1])])
        k += 2
    reserve_text = [*offerings[k : k + 6], "volcano"]
    rng.shuffle(reserve_text)
    bag_text = offerings[k + 6 :] + ["volcano"] * (m.volcano_tiles(players) - 1)
    rng.shuffle(bag_text)

    def code(t: str) -> int:
        return volcano if t == "volcano" else m.tile_code(t)

    if players == 2:
        hands = [["Ku", "Lono"], ["Kanaloa", "Pele"]]
        rng.shuffle(hands)
        gods = [sorted(GODS.index(g) for g in h) for h in hands]
    else:
        cards = ["Kanaloa", "Ku", "Pele", "Lono"] if players == 4 else ["Ku", "Pele", "Lono"]
        rng.shuffle(cards)
        gods = [[GODS.index(cards[i])] for i in range(players)]
    return Deal(tiles, [code(t) for t in reserve_text], [code(t) for t in bag_text], gods)


@dataclass(frozen=True)
class Result:
    """N48: temples, scores, unscored points and the winners (seat order)."""

    temples: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    unscored: tuple[int, ...]
    winners: tuple[int, ...]

    @property
    def reason(self) -> str:
        """What decided (``gameapi.GameResult``): ``points`` (one best score), ``unscored``
        (N48's tie-break on the points no temple scored) or ``shared`` (still tied)."""
        if len(self.winners) > 1:
            return "shared"
        best = self.scores[self.winners[0]]
        return "unscored" if sum(s == best for s in self.scores) > 1 else "points"


def score(temple: list[int] | tuple[int, ...]) -> int:
    """N48: the Kane temple K, plus K for every other temple at least K (0 when K is 0)."""
    k = temple[KANE]
    if k == 0:
        return 0
    return k + k * sum(1 for g in range(4) if temple[g] >= k)


def result_of(temples: list[list[int]]) -> Result:
    scores = tuple(score(t) for t in temples)
    unscored = tuple(sum(t) - s for t, s in zip(temples, scores, strict=True))
    best = max(scores)
    tied = [p for p, s in enumerate(scores) if s == best]
    top = max(unscored[p] for p in tied)
    winners = tuple(p for p in tied if unscored[p] == top)
    return Result(tuple(tuple(t) for t in temples), scores, unscored, winners)
