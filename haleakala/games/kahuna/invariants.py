"""The facts every Kahuna position keeps, as a list of violations (empty: all is well).

Used after every decision by the replay of a game log and by the random-game harness
(KAHUNA-NOTATION "What a replayer checks"): supplies (K3), stones only on majorities (K5,
K12, K13), hand limit (K22), card conservation (K2), no unmarked majority left behind by
its owner's own bridge while a stone was in supply (K14), and a decision always on offer
(K32).
"""

from __future__ import annotations

from .game import NONE, OVER, PLAYERS, Game
from .notation import CUT


def violations(game: Game) -> list[str]:
    b = game.board
    names = b.islands
    found: list[str] = []
    for p, c in enumerate(PLAYERS):
        if game.bridges_on_board(p) > b.bridges:
            found.append(f"{c} has {game.bridges_on_board(p)} bridges on the board (K3)")
        if game.stones_on_board(p) > b.stones:
            found.append(f"{c} has {game.stones_on_board(p)} stones on the board (K3)")
        if game.hand_size(p) > b.hand_limit or min(game.hands[p]) < 0:
            found.append(f"{c} holds {game.hand_size(p)} cards (K22)")
        if any(k > h for k, h in zip(game.known[p], game.hands[p], strict=True)):
            found.append(f"{c}'s known cards are not all in the hand")
    for island, owner in enumerate(game.stone):
        if owner != NONE and not game.has_majority(owner, island):
            found.append(f"{PLAYERS[owner]}'s stone on {names[island]} without a majority (K5)")
    places = [*game.pile, *game.discard, *game.buried[0], *game.buried[1]]
    places += [c for c in game.display if c != NONE]
    for p in (0, 1):
        places += [i for i, n in enumerate(game.hands[p]) for _ in range(n)]
    if sorted(places) != sorted(i for i in range(len(names)) for _ in range(b.cards_per_island)):
        found.append("the 24 cards are not conserved (K2)")
    if game.history and game.history[-1] < CUT:
        p = game.decider
        if game.stones_left(p) > 0:
            for island, owner in enumerate(game.stone):
                if owner == NONE and game.has_majority(p, island):
                    found.append(f"{PLAYERS[p]} left a majority on {names[island]} unmarked (K14)")
    if game.phase != OVER and not game.legal_actions():
        found.append("no legal decision although the game is not over (K32)")
    return found
