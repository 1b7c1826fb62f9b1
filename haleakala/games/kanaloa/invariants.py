"""The facts every Kanaloa position keeps, as a list of violations (empty: all is well).

Used after every decision by the replay of a game log and by the random-game tests
(KANALOA-NOTATION "What a replayer checks"): tile conservation, the fish once the start
phase is over (one per current in play, 7 per colour, 2 neutral with two players, strongly
connected, N15), pieces (at most 2, never on the volcano island, never two on the Dolphin),
cards (holders eligible, N35; never both cards of a god, N39), scores (N48) and a decision
always on offer (N52).
"""

from __future__ import annotations

from collections import Counter

from .game import Game
from .state import DOLPHIN, FISH, KANE, NOBODY, OVER, SEA, score


def _dealt_counts(game: Game) -> list[int]:
    """How many of each tile (the volcano last) the game was dealt."""
    d = game.dealt
    want = [0] * (game.volcano_tile + 1)
    for t in d.bag + d.reserve + [t for ts in d.tiles.values() for t in ts]:
        want[t] += 1
    return want


def violations(game: Game) -> list[str]:
    m, lay, n = game.m, game.lay, game.n
    found: list[str] = []
    held = [0] * (game.volcano_tile + 1)
    for i in lay.islands:
        for t in game.tiles[i]:
            held[t] += 1
        if len(game.tiles[i]) != 2 and game.phase != OVER:
            found.append(f"{m.islands[i]} holds {len(game.tiles[i])} tiles, not 2 (N11)")
    for i in range(len(m.islands)):
        if not lay.in_play[i] and game.tiles[i]:
            found.append(f"{m.islands[i]} is out of play but holds tiles (N9)")
    for p in range(n):
        hand = game.hands[p]
        if min(hand) < 0:
            found.append(f"{game.players[p]} holds a negative number of tiles")
        for t, k in enumerate(hand):
            held[t] += k
    for t in game.sac_tiles + game.bag + (game.reserve or []):
        held[t] += 1
    for t, k in enumerate(game.spent):
        held[t] += k
    held[game.volcano_tile] += game.volcanoes
    if held != _dealt_counts(game):
        found.append("the tiles are not conserved (N4, N27)")
    if game.phase != FISH:
        per: Counter[int] = Counter()
        for c in range(len(m.currents)):
            if lay.current_in_play[c] != (game.fish_tail[c] >= 0):
                found.append(f"the current {m.current_names[c]} has the wrong fish (N14)")
            if game.fish_tail[c] >= 0:
                per[game.fish_owner[c]] += 1
        want_fish = {p: 7 for p in range(n)}
        if n == 2:
            want_fish[2] = 2
        if dict(per) != want_fish:
            found.append(f"the fish per colour are {dict(per)}, not {want_fish} (N14)")
        if not game._strong():
            found.append("the islands are not strongly connected by the fish (N15)")
    bar = game.barred()
    on_dolphin = 0
    for p in range(n):
        locs = game.loc[p]
        on_dolphin = locs.count(DOLPHIN)
        if on_dolphin > 1:
            found.append(f"{game.players[p]} has two pieces on the Dolphin (N25)")
        for x in locs:
            if x >= 0 and (not lay.in_play[x]):
                found.append(f"{game.players[p]} has a piece on {m.islands[x]}, out of play (N9)")
            if x >= 0 and bar[x] and game.volcano < SEA:
                found.append(f"{game.players[p]} has a piece on the volcano island (N31)")
    for g in range(4):
        for kind, table in (("gods", game.gods), ("protection", game.prot)):
            h = table[g]
            if h != NOBODY and game.temples[h][g] < game.temples[h][KANE]:
                found.append(f"{game.players[h]} holds a {kind} card without being eligible (N35)")
        if game.gods[g] != NOBODY and game.gods[g] == game.prot[g]:
            found.append(f"{game.players[game.gods[g]]} holds both cards of a god (N39)")
        if n < 4 and game.prot[g] != NOBODY:
            found.append("a protection card with fewer than four players (N49, N50)")
    if game.outcome is not None and list(game.outcome.scores) != [score(t) for t in game.temples]:
        found.append("the scores do not follow N48")
    if game.phase != OVER and not game.legal_actions():
        found.append("no legal decision although the game is not over (N52)")
    return found
