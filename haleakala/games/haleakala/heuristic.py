"""The search bot's estimate of a position: red's advantage in points, roughly.

It lives beside the rules because a game provides its own estimate (``Game.evaluate``, the
game interface the searches use; Kahuna's is in its game too), and the rules must not reach
into ``haleakala.ai``. ``haleakala.games.haleakala.bots.ismcts`` tunes the weights and
re-exports these names.
Pure arithmetic on the position, no I/O.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .deck import BOARD_ITEMS, Deck

if TYPE_CHECKING:
    from .game import Game

_CARD_TABLES: dict[int, tuple[Deck, tuple]] = {}
_BUTTERFLIES, _FOREST, _MAJORITY, _SEGMENT, _MOUNTAIN = (
    BOARD_ITEMS.index(code) for code in ("butterflies", "forest", "majority", "segment", "mountain")
)


def _card_tables(deck: Deck) -> tuple:
    """Per card number: baskets, butterflies, white pearl, black pearl, nautilus."""
    entry = _CARD_TABLES.get(id(deck))
    if entry is None or entry[0] is not deck:
        cards = deck.cards
        tables = (
            tuple(c.baskets for c in cards),
            tuple(c.butterflies for c in cards),
            tuple(c.pearl == "white" for c in cards),
            tuple(c.pearl == "black" for c in cards),
            tuple(c.nautilus for c in cards),
        )
        entry = _CARD_TABLES[id(deck)] = (deck, tables)
    return entry[1]


def round_totals(game: Game) -> tuple[int, int]:
    """Red's and yellow's totals if the current round were scored now (points banked in
    earlier scorings included), with the eruption left out.

    The same sums as ``rules.scoring.score_round`` without building its record: the
    search asks this at every leaf, where the record would cost three times as much.
    A test checks that both agree on many positions.
    """
    deck, board = game.deck, game.board
    pts = deck.points
    baskets, butterflies, white, black, nautilus = _card_tables(deck)
    owner = game.statue_owner
    per_band = [[0, 0, 0], [0, 0, 0]]
    for space, who in enumerate(owner):
        if who >= 0:
            per_band[who][space % 3] += 1
    basket_count = [sum(baskets[c] for c in game.beach_cards[p]) for p in (0, 1)]
    items = game.board_owner
    statue_points = board.statue_points
    totals = []
    for p in (0, 1):
        cards = game.beach_cards[p]
        shells = game.shells[p]
        band = per_band[p]
        total = sum(n * statue_points[i] for i, n in enumerate(band))
        if basket_count[p] > basket_count[1 - p]:
            total += pts["fish_majority"]
        has_white = any(white[c] for c in cards)
        has_black = any(black[c] for c in cards)
        if has_white and has_black:
            total += pts["both_pearls"]
        else:
            total += pts["white_pearl"] * has_white + pts["black_pearl"] * has_black
        total += pts["nautilus"] * sum(nautilus[c] for c in cards)
        if items[_BUTTERFLIES] == p:
            total += pts["butterfly"] * (
                sum(butterflies[c] for c in cards) + sum(butterflies[c] for c in shells)
            )
        if items[_MAJORITY] == p:
            other = per_band[1 - p]
            total += pts["statue_majority"] * sum(1 for i in range(3) if band[i] > other[i])
        if items[_SEGMENT] == p:
            complete = sum(
                1
                for s in range(board.segments)
                if owner[s * 3] == p and owner[s * 3 + 1] == p and owner[s * 3 + 2] == p
            )
            total += pts["complete_segment"] * complete
        if items[_FOREST] == p:
            total += pts["forest_bonus"] * band[1]
        if items[_MOUNTAIN] == p:
            total += pts["mountain_bonus"] * band[2]
        if game.round == 2:
            total += pts["shell_round2"] * len(shells)
        if game.scorings:
            total += game.scorings[-1].players[p].total
        totals.append(total)
    return totals[0], totals[1]


def components(game: Game, weights: dict[str, float] | None = None) -> dict[str, float]:
    """Red's advantage in points, split by what it comes from (yellow's is the negative).

    The split is what the coach compares before and after a decision to say in words what
    it gains. ``scoring``: what a scoring now would give both, points already banked
    included. ``again``: in round 1, what statues and beach cards will score once more in
    round 2 (R23: they stay), discounted for what may happen until then. ``lava``: statues
    the lava on the craters would destroy at the next eruption (R19), counted twice in
    round 1 because a destroyed statue misses both scorings. ``beaches``: who leads on
    each beach where cards wait (the higher total chooses first, R10). ``shells``,
    ``statues`` (still to build) and ``shaman`` (how high it stands) as before.
    """
    w = DEFAULT_WEIGHTS if weights is None else weights
    red, yellow = round_totals(game)
    owner = game.statue_owner
    points = game.board.statue_points
    first_round = game.round == 1
    parts = {"scoring": float(red - yellow)}
    again = 0.0
    if first_round and w["again"]:
        for space, who in enumerate(owner):
            if who >= 0:
                again += points[space % 3] * (1 - 2 * who)
        again += _card_points(game, 0) - _card_points(game, 1)
        again *= w["again"]
    parts["again"] = again
    lava = 0.0
    lava_w = w["lava"] * (1.0 + w["again"] if first_round else 1.0)
    if lava_w:
        for seg, count in enumerate(game.lava):
            for band in range(min(count, 3)):  # the eruption reaches mountain, forest, grass
                who = owner[seg * 3 + 2 - band]
                if who >= 0:
                    lava -= lava_w * points[2 - band] * (1 - 2 * who)
    parts["lava"] = lava
    beaches = 0.0
    beach_w = w["beaches"]
    if beach_w:
        k = game.board.slots_per_segment
        slots = game.slots
        red_totals, yellow_totals = game.totals
        for seg in range(game.board.segments):
            diff = red_totals[seg] - yellow_totals[seg]
            if diff:
                cards = sum(1 for s in range(seg * k, seg * k + k) if slots[s] >= 0)
                beaches += beach_w * cards * (1 if diff > 0 else -1)
    parts["beaches"] = beaches
    parts["shells"] = w["shells"] * (len(game.shells[0]) - len(game.shells[1]))
    parts["statues"] = w["statues"] * (game.statues_left[1] - game.statues_left[0])
    shaman = 0.0
    land = game.board.land_spaces
    for p, space in enumerate(game.shaman):
        if space < land:
            bonus = w["height"] * points[space % 3]
            if owner[space] < 0:
                bonus += w["buildable"] * points[space % 3]
            shaman += bonus if p == 0 else -bonus
    parts["shaman"] = shaman
    return parts


def _card_points(game: Game, p: int) -> int:
    """What ``p``'s beach cards score (fish majority, pearls, nautilus), items aside."""
    pts = game.deck.points
    baskets, _, white, black, nautilus = _card_tables(game.deck)
    cards = game.beach_cards[p]
    total = 0
    mine = sum(baskets[c] for c in cards)
    if mine > sum(baskets[c] for c in game.beach_cards[1 - p]):
        total += pts["fish_majority"]
    has_white = any(white[c] for c in cards)
    has_black = any(black[c] for c in cards)
    if has_white and has_black:
        total += pts["both_pearls"]
    else:
        total += pts["white_pearl"] * has_white + pts["black_pearl"] * has_black
    return total + pts["nautilus"] * sum(nautilus[c] for c in cards)


def evaluate(game: Game, weights: dict[str, float] | None = None) -> float:
    """Red's advantage in points, roughly: the sum of ``components``, computed without
    naming the parts (the search asks this at every leaf; a test checks both agree)."""
    w = DEFAULT_WEIGHTS if weights is None else weights
    if w["again"] or w["beaches"]:
        return sum(components(game, w).values())
    red, yellow = round_totals(game)
    value = float(red - yellow)
    owner = game.statue_owner
    points = game.board.statue_points
    lava_w = w["lava"]
    if lava_w:
        for seg, count in enumerate(game.lava):
            for band in range(min(count, 3)):  # the eruption reaches mountain, forest, grass
                who = owner[seg * 3 + 2 - band]
                if who >= 0:
                    value -= lava_w * points[2 - band] * (1 - 2 * who)
    value += w["shells"] * (len(game.shells[0]) - len(game.shells[1]))
    value += w["statues"] * (game.statues_left[1] - game.statues_left[0])
    land = game.board.land_spaces
    for p, space in enumerate(game.shaman):
        if space < land:
            bonus = w["height"] * points[space % 3]
            if owner[space] < 0:
                bonus += w["buildable"] * points[space % 3]
            value += bonus if p == 0 else -bonus
    return value


DEFAULT_WEIGHTS = {
    "lava": 1.0,
    "again": 0.0,
    "beaches": 0.0,
    "shells": 0.5,
    "statues": 0.3,
    "height": 0.2,
    "buildable": 0.0,
}
