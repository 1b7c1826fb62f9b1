"""Dash: a tiny race game for two to four players, written against ``GameState`` only.

Why it exists: Haleakala and Kahuna are two-player games, so nothing else proves that the
interface, the random-game harness and the search bots work for three or four players and
for a decision taken out of turn (as Kanaloa will need). The rules fit in a few lines:

- 15 cards (five each of 1, 2 and 3) are shuffled by the seed; each player holds two, in
  secret; the rest is a face-down pile. The first player is seat 0.
- On your turn play a card from your hand: advance that many spaces, then draw the top of
  the pile (if any). A player without cards is skipped.
- After a 3, the trailing other player (fewest spaces; a tie goes to the first in turn
  order after the mover) decides out of turn: ``push`` (the mover goes back 2, the pusher
  back 1, never below 0) or ``pass``.
- At the end of a turn, once someone stands on space 8 or beyond, or nobody holds a card,
  the game is over: the most advanced win, sharing first place equally.

Decision codes: 1..3 play that card, 10 push, 11 pass; notation ``play1``, ``push``,
``pass``.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any, ClassVar, Self

from haleakala.gameapi import squash

COLOURS = ("red", "blue", "green", "orange")
GOAL = 8
PUSH, PASS = 10, 11
CARDS = [1, 2, 3] * 5
HAND = 2
NAMES = {1: "play1", 2: "play2", 3: "play3", PUSH: "push", PASS: "pass"}
CODES = {text: code for code, text in NAMES.items()}


class Race:
    """One position of Dash (see the module's docstring)."""

    game_name: ClassVar[str] = "dash"

    def __init__(self, seed: int = 0, players: tuple[str, ...] | int = 3) -> None:
        n = players if isinstance(players, int) else len(players)
        if not 2 <= n <= 4:
            raise ValueError(f"Dash is for 2 to 4 players, not {n}")
        self.players: tuple[str, ...] = COLOURS[:n]
        deck = CARDS[:]
        random.Random(seed).shuffle(deck)
        self.hands = [sorted(deck[i * HAND : (i + 1) * HAND]) for i in range(n)]
        self.pile = deck[n * HAND :]  # the top is the end
        self.pos = [0] * n
        self.current = 0
        self.decider = 0
        self.pending = False  # a 3 waits for the trailing player's push or pass
        self.over = False
        self.history: list[int] = []

    # -- the interface -----------------------------------------------------------------

    @property
    def to_move(self) -> str | None:
        return None if self.over else self.players[self.decider]

    def is_terminal(self) -> bool:
        return self.over

    def legal_actions(self) -> list[int]:
        if self.over:
            return []
        if self.pending:
            return [PUSH, PASS]
        return sorted(set(self.hands[self.current]))

    def legal_decisions(self) -> list[str]:
        return sorted(NAMES[a] for a in self.legal_actions())

    def format(self, action: int) -> str:
        return NAMES.get(action, f"#{action}")

    def parse(self, text: str) -> int:
        if text not in CODES:
            raise ValueError(f"{text!r} is not a decision of Dash (play1..play3, push, pass)")
        return CODES[text]

    def why_illegal(self, decision: int | str, player: str | None = None) -> str | None:
        try:
            code = self.parse(decision) if isinstance(decision, str) else decision
        except ValueError as exc:
            return str(exc)
        if self.over:
            return "the game is over"
        if player is not None and player != self.to_move:
            return f"it is {self.to_move}'s decision, not {player}'s"
        if self.pending:
            if code not in (PUSH, PASS):
                return f"{self.to_move} must answer the 3 first: push or pass"
            return None
        if code in (PUSH, PASS):
            return "there is no 3 to push back"
        if code not in self.hands[self.current]:
            return f"{self.to_move} holds no card {self.format(code)[4:] or code}"
        return None

    def apply(self, decision: int | str, player: str | None = None) -> list[tuple]:
        reason = self.why_illegal(decision, player)
        if reason is not None:
            raise ValueError(reason)
        code = self.parse(decision) if isinstance(decision, str) else decision
        self.history.append(code)
        events: list[tuple] = []
        if self.pending:
            self.pending = False
            if code == PUSH:
                mover = self.current
                self.pos[mover] = max(0, self.pos[mover] - 2)
                self.pos[self.decider] = max(0, self.pos[self.decider] - 1)
                events.append(("push", self.decider, mover))
            self._end_turn(events)
            return events
        me = self.current
        self.hands[me].remove(code)
        self.pos[me] += code
        events.append(("advance", me, code))
        if self.pile:
            self.hands[me].append(self.pile.pop())
            self.hands[me].sort()
        if code == 3:
            others = [(self.pos[p], k) for k, p in enumerate(self._after(me)) if p != me]
            _, k = min(others)
            self.decider = self._after(me)[k]
            self.pending = True
            return events
        self._end_turn(events)
        return events

    def returns(self) -> tuple[float, ...]:
        n = len(self.players)
        if not self.over:
            return (1.0 / n,) * n
        best = max(self.pos)
        winners = [p for p in range(n) if self.pos[p] == best]
        return tuple(1.0 / len(winners) if p in winners else 0.0 for p in range(n))

    def clone(self) -> Self:
        other = type(self).__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.hands = [h[:] for h in self.hands]
        other.pile = self.pile[:]
        other.pos = self.pos[:]
        other.history = self.history[:]
        return other

    def _record(self) -> dict[str, Any]:
        return {
            "format": "dash",
            "players": list(self.players),
            "hands": self.hands,
            "pile": self.pile,
            "pos": self.pos,
            "current": self.current,
            "decider": self.decider,
            "pending": self.pending,
            "over": self.over,
            "history": self.history,
        }

    def digest(self) -> str:
        return hashlib.sha256(self.to_json().encode()).hexdigest()[:16]

    def to_json(self) -> str:
        return json.dumps(self._record(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Self:
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("format") != "dash":
            raise ValueError("not a saved game of Dash")
        game = cls.__new__(cls)
        game.players = tuple(data["players"])
        for key in ("hands", "pile", "pos", "current", "decider", "pending", "over", "history"):
            setattr(game, key, data[key])
        return game

    def determinize(self, observer: int, rng: random.Random) -> Self:
        """Every card the observer cannot see (the others' hands and the pile) re-dealt
        from their sorted union, so the result depends on what the observer knows only."""
        world = self.clone()
        others = [p for p in range(len(self.players)) if p != observer]
        unseen = sorted(world.pile + [c for p in others for c in world.hands[p]])
        rng.shuffle(unseen)
        for p in others:
            k = len(world.hands[p])
            world.hands[p], unseen = sorted(unseen[:k]), unseen[k:]
        world.pile = unseen
        return world

    def observation(self, player: int) -> dict:
        return {
            "pos": self.pos[:],
            "hand": self.hands[player][:],
            "hand_sizes": [len(h) for h in self.hands],
            "pile": len(self.pile),
            "current": self.current,
            "decider": self.decider,
            "pending": self.pending,
            "over": self.over,
            "history": self.history[:],
        }

    def evaluate(self, player: int) -> float:
        if self.over:
            return self.returns()[player]
        others = [x for p, x in enumerate(self.pos) if p != player]
        return squash(self.pos[player] + sum(self.hands[player]) / 4 - max(others), 3.0)

    # -- the rules' bookkeeping --------------------------------------------------------

    def _after(self, player: int) -> list[int]:
        """Every seat in turn order starting after ``player`` (``player`` last)."""
        n = len(self.players)
        return [(player + k) % n for k in range(1, n + 1)]

    def _end_turn(self, events: list[tuple]) -> None:
        if max(self.pos) >= GOAL or not any(self.hands):
            self.over = True
            events.append(("result", self.returns()))
            return
        for p in self._after(self.current):
            if self.hands[p]:
                self.current = self.decider = p
                return


def violations(game: Race) -> list[str]:
    """Dash's invariants: every card in one place, positions never negative, a decision on
    offer while the game is not over, the decider the current player unless a 3 waits."""
    found = []
    played = [c for c in game.history if c in (1, 2, 3)]
    if sorted(played + game.pile + [c for h in game.hands for c in h]) != sorted(CARDS):
        found.append("card conservation")
    if min(game.pos) < 0:
        found.append("a negative position")
    if not game.over and not game.legal_actions():
        found.append("no decision although the game is not over")
    if not game.over and not game.pending and game.decider != game.current:
        found.append("someone decides out of turn without a 3 waiting")
    return found


ALL_CODES = [1, 2, 3, PUSH, PASS, 4, 12]


def measure_backups(players: int, seeds: int, iterations: int) -> dict[str, float]:
    """Mean return per game of the max^n and the paranoid search against each other, the
    other seats taken by a random bot: every seating of the two searches over ``seeds``
    deals (both searches at ``iterations``). A fair share is ``1 / players``."""
    from itertools import permutations

    from haleakala.ai.search import SearchBot

    totals = {"maxn": 0.0, "paranoid": 0.0}
    games = 0
    for seed in range(seeds):
        for a, b in permutations(range(players), 2):
            game = Race(seed, players)
            bots = {a: SearchBot(seed, iterations, backup="maxn"),
                    b: SearchBot(seed, iterations, backup="paranoid")}  # fmt: skip
            rng = random.Random(seed)
            while not game.is_terminal():
                bot = bots.get(game.decider)
                legal = game.legal_actions()
                game.apply(bot.decide(game) if bot else legal[rng.randrange(len(legal))])
            totals["maxn"] += game.returns()[a]
            totals["paranoid"] += game.returns()[b]
            games += 1
    return {k: v / games for k, v in totals.items()}
