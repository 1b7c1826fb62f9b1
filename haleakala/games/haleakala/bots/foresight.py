"""What the next distributions of cards are about to do: the search bot's look ahead.

Why: the points estimate of ``rules.heuristic`` sees a position as if it were scored now,
so a disc that wins the lead on a beach full of cards, or a placement on the boat's beach
that sends the boat to a beach where one leads, is worth nothing to it until the boat has
arrived; a search of a hundred iterations rarely reaches that far. This module values the
cards waiting on each beach for the player who would take them (R10–R12: the higher total
chooses, the other gets the remaining card when it differs) and adds two terms to the
estimate: every beach where someone leads, discounted because totals still change
(``pending``), and the best beach the player about to take a turn can send the boat to
with a disc still in the supply (``threat``, R9).

Card values are rough points: a statue at the shaman's space (scored in both rounds when
built in round 1), a pearl that completes a pair, a nautilus, baskets towards the fish
majority, butterflies, a shell, the Lava Priestess. Public information only: the cards in
the slots are face up, the piles are not read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from haleakala.games.haleakala.deck import BOARD_ITEMS, Deck
from haleakala.games.haleakala.game import CHOOSE_CARD, MOVE_SHAMAN, TURN
from haleakala.games.haleakala.notation import SHAMAN, STAY, TAKE

if TYPE_CHECKING:
    from haleakala.games.haleakala import Game

STATUE, PRIESTESS, SHELL, BEACH = range(4)
_BUTTERFLY_ITEM = BOARD_ITEMS.index("butterflies")
_TABLES: dict[int, tuple[Deck, tuple]] = {}


def _tables(deck: Deck) -> tuple:
    """Per card number: kind code, baskets, butterflies, pearl (0 none, 1 white, 2 black),
    nautilus, and a face id (R12: equal ids, identical cards)."""
    entry = _TABLES.get(id(deck))
    if entry is None or entry[0] is not deck:
        faces: dict[tuple, int] = {}
        kinds, baskets, butterflies, pearls, nautilus, face = [], [], [], [], [], []
        for c in deck.cards:
            if c.kind == "action":
                kinds.append(STATUE if c.code != "priestess" else PRIESTESS)
            else:
                kinds.append(SHELL if c.kind == "shell" else BEACH)
            baskets.append(c.baskets)
            butterflies.append(c.butterflies)
            pearls.append({"white": 1, "black": 2}.get(c.pearl, 0))
            nautilus.append(c.nautilus)
            face.append(faces.setdefault(c.face, len(faces)))
        tables = tuple(tuple(t) for t in (kinds, baskets, butterflies, pearls, nautilus, face))
        entry = _TABLES[id(deck)] = (deck, tables)
    return entry[1]


def card_value(game: Game, p: int, card: int, tables: tuple) -> float:
    """Roughly how many points ``card`` is worth to player ``p`` if received now."""
    kinds, baskets, butterflies, pearls, nautilus, _ = tables
    kind = kinds[card]
    if kind == STATUE:
        space = game.shaman[p]
        if (
            space < game.board.land_spaces
            and game.statue_owner[space] < 0
            and game.statues_left[p] > 0
        ):
            band = space % 3
            value = game.board.statue_points[band] * (2.0 if game.round == 1 else 1.0)
            if game.lava[space // 3] >= 3 - band:  # the next eruption destroys it (R19)
                value *= 0.3
            return value + 0.5
        return 0.0
    if kind == PRIESTESS:
        return 0.7
    if kind == SHELL:
        return 1.0
    pts = game.deck.points
    value = 0.0
    pearl = pearls[card]
    if pearl:
        have = 0
        for c in game.beach_cards[p]:
            have |= pearls[c]
        if not have & pearl:
            before = (0, pts["white_pearl"], pts["black_pearl"], pts["both_pearls"])[have]
            value += (0, pts["white_pearl"], pts["black_pearl"], pts["both_pearls"])[
                have | pearl
            ] - before
    value += pts["nautilus"] * nautilus[card]
    value += 0.8 * baskets[card]
    owner = game.board_owner[_BUTTERFLY_ITEM]
    value += butterflies[card] * (pts["butterfly"] if owner == p else 0.3)
    return value


def beach_value(game: Game, seg: int, tables: tuple) -> float:
    """Red's gain in points if the boat arrived at beach ``seg`` now (R10–R12); 0 when no
    disc lies there or no card waits."""
    red, yellow = game.totals[0][seg], game.totals[1][seg]
    if not (red or yellow):
        return 0.0
    k = game.board.slots_per_segment
    slots = game.slots
    cards = [slots[s] for s in range(seg * k, seg * k + k) if slots[s] >= 0]
    if not cards:
        return 0.0
    high = 0 if red > yellow else 1
    other = 1 - high if red and yellow else -1
    face = tables[5]
    best = float("-inf")
    for i, card in enumerate(cards):
        net = card_value(game, high, card, tables)
        if other >= 0:
            rest = [c for j, c in enumerate(cards) if j != i]
            if rest and face[rest[0]] != face[card]:
                net -= card_value(game, other, rest[0], tables)
        best = max(best, net)
    return best if high == 0 else -best


def _player_terms(game: Game, p: int, tables: tuple) -> tuple[float, tuple, float]:
    """What ``card_value`` reads of player ``p``: a statue card's worth, the gain of a
    white or a black pearl, a butterfly's worth."""
    pts = game.deck.points
    space = game.shaman[p]
    statue = 0.0
    if space < game.board.land_spaces and game.statue_owner[space] < 0 and game.statues_left[p]:
        band = space % 3
        statue = game.board.statue_points[band] * (2.0 if game.round == 1 else 1.0)
        if game.lava[space // 3] >= 3 - band:
            statue *= 0.3
        statue += 0.5
    pearls = tables[3]
    have = 0
    for c in game.beach_cards[p]:
        have |= pearls[c]
    scale = (0, pts["white_pearl"], pts["black_pearl"], pts["both_pearls"])
    gain = tuple(
        0 if (not pearl or have & pearl) else scale[have | pearl] - scale[have]
        for pearl in (0, 1, 2)
    )
    butterfly = pts["butterfly"] if game.board_owner[_BUTTERFLY_ITEM] == p else 0.3
    return statue, gain, butterfly


def foresight(game: Game, pending: float, threat: float) -> float:
    """Red's advantage in points from the distributions to come: ``pending`` times every
    beach's value (``beach_value``), plus ``threat`` times the best beach the player whose
    turn comes next can send the boat to now (a placement on the boat's beach moves it by
    the disc's value, R9). The same sums as ``beach_value`` and ``card_value``, with what
    they read of each player looked up once: the search asks this at every leaf."""
    if game.phase > 5:  # over
        return 0.0
    tables = _tables(game.deck)
    kinds, baskets, butterflies, pearls, nautilus, face = tables
    naut = game.deck.points["nautilus"]
    terms = (_player_terms(game, 0, tables), _player_terms(game, 1, tables))

    def worth(p: int, card: int) -> float:
        kind = kinds[card]
        if kind == BEACH:
            _, gain, butterfly = terms[p]
            return (
                gain[pearls[card]]
                + naut * nautilus[card]
                + 0.8 * baskets[card]
                + butterfly * butterflies[card]
            )
        if kind == STATUE:
            return terms[p][0]
        return 0.7 if kind == PRIESTESS else 1.0

    segments = game.board.segments
    k = game.board.slots_per_segment
    slots = game.slots
    red_totals, yellow_totals = game.totals
    values = [0.0] * segments
    for seg in range(segments):
        red, yellow = red_totals[seg], yellow_totals[seg]
        if not (red or yellow):
            continue
        cards = [slots[s] for s in range(seg * k, seg * k + k) if slots[s] >= 0]
        if not cards:
            continue
        if len(cards) > 2:  # a board with more slots per beach: the general sum
            values[seg] = beach_value(game, seg, tables)
            continue
        high = 0 if red > yellow else 1
        both = red and yellow
        if len(cards) == 1:
            best = worth(high, cards[0])
        else:
            a, b = cards[0], cards[1]
            va, vb = worth(high, a), worth(high, b)
            if both and face[a] != face[b]:
                va -= worth(1 - high, b)
                vb -= worth(1 - high, a)
            best = va if va > vb else vb
        values[seg] = best if high == 0 else -best
    total = pending * sum(values)
    if threat:
        p = game.decider if game.phase == TURN else 1 - game.current
        boat = game.boat
        at = game.disc_at[p]
        own, opp = game.totals[p][boat], game.totals[1 - p][boat]
        sign = 1.0 if p == 0 else -1.0
        best = 0.0
        for v in game.board.discs:
            if at[v] < 0 and own + v != opp:  # R7
                gain = sign * values[(boat + v) % segments]
                if gain > best:
                    best = gain
        total += sign * threat * best
    return total


def sensible(game: Game, legal: list[int], rng) -> int:
    """A quick, mostly sensible decision for playouts: the shaman to the highest free
    space in reach (R8, where a statue card would build, R15), the card worth most to the
    chooser (R10); any other decision at random. Ties are broken by ``rng``."""
    phase = game.phase
    if phase == MOVE_SHAMAN:
        points = game.board.statue_points
        land = game.board.land_spaces
        owner = game.statue_owner
        here = game.shaman[game.decider]

        def score(d: int) -> float:
            space = here if d == STAY else d - SHAMAN
            return points[space % 3] if space < land and owner[space] < 0 else 0.0

    elif phase == CHOOSE_CARD:
        tables = _tables(game.deck)
        p = game.decider
        slots = game.slots

        def score(d: int) -> float:
            return card_value(game, p, slots[d - TAKE], tables)

    else:
        return legal[rng.randrange(len(legal))]
    best: list[int] = []
    top = float("-inf")
    for d in legal:
        s = score(d)
        if s > top:
            best, top = [d], s
        elif s == top:
            best.append(d)
    return best[rng.randrange(len(best))] if len(best) > 1 else best[0]
