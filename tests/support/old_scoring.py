"""The scoring records as the engines built them before scorings became values (commit
3c45af0; the bodies copied verbatim, only the type annotation of ``game`` dropped): the
oracles that prove ``to_record`` still writes the same dicts. Frozen on purpose: do not
update them with the rules."""

from haleakala.games.haleakala.deck import BOARD_ITEMS
from haleakala.games.kahuna.state import PLAYERS as KAHUNA_PLAYERS


def score_round(game, rnd: int) -> dict:
    """Points of this scoring for both players, with the facts they rest on."""
    deck, board = game.deck, game.board
    pts = deck.points
    owner = game.statue_owner
    per_band = [[0, 0, 0], [0, 0, 0]]  # player → statues on grassland, forest, mountain
    for space, who in enumerate(owner):
        if who >= 0:
            per_band[who][space % 3] += 1
    baskets = [sum(deck.cards[c].baskets for c in game.beach_cards[p]) for p in (0, 1)]
    players = {}
    for p, colour in enumerate(("red", "yellow")):
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
        points = {
            "statues": sum(n * board.statue_points[i] for i, n in enumerate(per_band[p])),
            "fish": pts["fish_majority"] if baskets[p] > baskets[1 - p] else 0,
            "pearls": pearl_points,
            "nautilus": pts["nautilus"] * sum(c.nautilus for c in cards),
            "butterflies": pts["butterfly"] * sum(c.butterflies for c in cards + shells)
            if "butterflies" in mine
            else 0,
            "majority": pts["statue_majority"] * majority if "majority" in mine else 0,
            "segment": pts["complete_segment"] * complete if "segment" in mine else 0,
            "forest": pts["forest_bonus"] * f if "forest" in mine else 0,
            "mountain": pts["mountain_bonus"] * m if "mountain" in mine else 0,
            "shells": pts["shell_round2"] * len(shells) if rnd == 2 else 0,
        }
        before = game.scorings[-1]["players"][colour]["total"] if game.scorings else 0
        players[colour] = {
            "points": points,
            "total": before + sum(points.values()),
            "statues": [board.space_name(s) for s, who in enumerate(owner) if who == p],
            "baskets": baskets[p],
            "cards": [c.code for c in cards],
            "shells": len(shells),
            "scoring_cards": [code for code in BOARD_ITEMS if code in mine],
        }
    return {"round": rnd, "players": players}


def kahuna_record(self, rnd: int, counts: tuple[int, int], pts: tuple[int, int]) -> dict:
    """Kahuna's ``Game._score`` record (K27), built after ``pts`` joined ``self.points``."""
    PLAYERS = KAHUNA_PLAYERS
    names = self.board.islands
    totals = self.totals()
    record = {
        "round": rnd,
        "stones": {
            c: sorted(names[i] for i, o in enumerate(self.stone) if o == p)
            for p, c in enumerate(PLAYERS)
        },
        "islands": dict(zip(PLAYERS, counts, strict=True)),
        "points": dict(zip(PLAYERS, pts, strict=True)),
        "totals": dict(zip(PLAYERS, totals, strict=True)),
        "bridges": {c: self.bridges_on_board(p) for p, c in enumerate(PLAYERS)},
    }
    return record
