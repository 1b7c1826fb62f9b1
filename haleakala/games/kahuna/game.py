"""The state of a game of Kahuna and the rules that change it: pure, no I/O, no clock.

Same shape as Haleakala's ``Game`` and the ``haleakala.gameapi`` Protocol: int decision
codes inside (``notation``), canonical text outside, ``apply`` returns the events that
followed (stones, removals, draws, reveals, scorings, shuffles, the result). Rulings
K1–K32 of KAHUNA-RULINGS.md, and K33.. of docs/KAHUNA-RULINGS-LOCAL.md, are cited where
they are enforced.

Representation: a few short int lists (owner of each line and island, each hand as 12
counts) so that ``clone`` is a handful of list copies. The only chance is K4's seeded
generator; it is rebuilt from the seed at a round's end by replaying the draws it made
before, so a state never carries a generator and clones stay cheap.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from haleakala.core.refusal import Refusal
from haleakala.core.text import N_, Term

from .board import Board, default_board
from .events import Bridge, Drew, Ended, Event, Revealed, Scored, Scoring, Shuffled, Stone
from .hidden import determinize, evaluate, observation
from .notation import (
    CUT,
    DISCARD,
    DRAW_PILE,
    DRAW_SLOT,
    END,
    PLAY,
    NotationError,
    format_decision,
    parse_decision,
)
from .refusals import reason as refusal_reason
from .state import (
    DISCARDED,
    NONE,
    OPEN,
    OVER,
    PHASE_NAMES,
    PLAYED,
    PLAYERS,
    IllegalDecision,
    Result,
    deal_deck,
)

# How a game is saved and identified lives in ``serialize``, which imports this module;
# so this module does not import it back (no import cycle, not even at call time):
# ``serialize`` hands its functions over with ``use_codec`` when it is imported, which
# the package's ``__init__`` does before anyone can hold a game.
_CODEC: dict[str, Callable[..., Any]] = {}


def use_codec(**functions: Callable[..., Any]) -> None:
    """Called once by ``serialize``: ``to_dict``, ``to_json``, ``digest``, ``from_json``."""
    _CODEC.update(functions)


class Game:
    """A game of Kahuna between white (0) and black (1)."""

    game_name: ClassVar[str] = "kahuna"
    players: ClassVar[tuple[str, str]] = PLAYERS

    def __init__(self, seed: int = 0, start: str | None = None, board: Board | None = None):
        if start is not None and start not in PLAYERS:
            raise ValueError(f"unknown starting player {start!r}: choose white or black")
        b = self.board = board or default_board()
        self.seed = seed
        deck, coin, _ = deal_deck(b, seed)  # K4: the coin is drawn even when start is given
        self.start = PLAYERS.index(start) if start else coin  # K6
        n = len(b.islands)
        self.hands = [[0] * n, [0] * n]  # counts per island (K2: copies are alike)
        for p in (0, 1):
            for card in deck[p * b.deal : (p + 1) * b.deal]:
                self.hands[p][card] += 1
        k = 2 * b.deal
        self.display = deck[k : k + b.display]  # slots 1..3 (K20); NONE when empty
        self.pile = deck[k + b.display :]  # top card first
        self.discard: list[int] = []  # face up, public
        self.buried: list[list[int]] = [[], []]  # face down under the discard, by player (K19)
        self.known = [[0] * n, [0] * n]  # per hand: cards the opponent saw enter it (K31)
        self.bridge = [NONE] * len(b.lines)
        self.stone = [NONE] * n
        self.round = 1
        self.current = self.decider = self.start
        self.phase = OPEN
        self.must_draw = False  # K23: the opponent declined last turn
        self.last_turns = 0  # K26: turns left after round 3's cards ran out
        self.points: list[tuple[int, int]] = []  # per scoring held (K27)
        self.shuffles: list[int] = []  # sizes of the K4 step-5 shuffles made so far
        self.outcome: Result | None = None
        self.history: list[int] = []
        self._legal: list[int] | None = None

    # -- whose decision ---------------------------------------------------------------

    @property
    def to_move(self) -> str | None:
        return None if self.phase == OVER else PLAYERS[self.decider]

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    def is_terminal(self) -> bool:
        return self.phase == OVER

    # -- counts -----------------------------------------------------------------------

    def bridges_on_board(self, p: int) -> int:
        return self.bridge.count(p)

    def stones_on_board(self, p: int) -> int:
        return self.stone.count(p)

    def bridges_left(self, p: int) -> int:  # K3, K30
        return self.board.bridges - self.bridge.count(p)

    def stones_left(self, p: int) -> int:  # K3, K14
        return self.board.stones - self.stone.count(p)

    def hand_size(self, p: int) -> int:
        return sum(self.hands[p])

    def hand_cards(self, p: int) -> list[str]:
        names = self.board.islands
        return [names[i] for i, c in enumerate(self.hands[p]) for _ in range(c)]

    def held(self, p: int, island: int) -> int:
        """How many of ``island``'s lines carry ``p``'s bridges."""
        bridge = self.bridge
        return sum(1 for line in self.board.lines_of[island] if bridge[line] == p)

    def has_majority(self, p: int, island: int) -> bool:
        """K5: strictly more than half of all the island's lines, free ones included."""
        return self.held(p, island) >= self.board.need[island]

    def cards_to_draw(self) -> bool:
        return bool(self.pile) or any(c != NONE for c in self.display)

    # -- legal decisions --------------------------------------------------------------

    def legal_actions(self) -> list[int]:
        """Ascending codes of the legal decisions; cached until the next ``apply``."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        return legal

    def _generate(self) -> list[int]:
        if self.phase == OVER:
            return []
        b, p = self.board, self.decider
        hand, bridge = self.hands[p], self.bridge
        acts: list[int] = []
        if self.phase != DISCARDED:  # K19: no play once a card went face down
            if self.bridges_left(p) > 0:  # K30
                for line, (a, c) in enumerate(b.lines):
                    if bridge[line] == NONE:  # K9, K10: only "free" matters
                        if hand[a]:
                            acts.append(PLAY + 2 * line)
                        if hand[c]:
                            acts.append(PLAY + 2 * line + 1)
            opp = 1 - p
            for line, (a, c) in enumerate(b.lines):
                if bridge[line] == opp:  # K16: only an opposing bridge
                    if hand[a] >= 2:
                        acts.append(CUT + 3 * line)
                    if hand[a] and hand[c]:
                        acts.append(CUT + 3 * line + 1)
                    if hand[c] >= 2:
                        acts.append(CUT + 3 * line + 2)
        if self.phase != PLAYED:  # K19: discarding instead of playing
            acts += [DISCARD + i for i, n in enumerate(hand) if n]
        if self.hand_size(p) < b.hand_limit:  # K22
            if self.pile:
                acts.append(DRAW_PILE)
            acts += [DRAW_SLOT + s for s, c in enumerate(self.display) if c != NONE]
        if not self.must_draw or not self.cards_to_draw():  # K23, K26
            acts.append(END)
        acts.sort()
        return acts

    def legal_decisions(self) -> list[str]:
        """The canonical texts, sorted by code point (K32)."""
        return sorted(format_decision(a, self.board) for a in self.legal_actions())

    # -- explaining refusals ----------------------------------------------------------

    def why_illegal(self, decision: int | str, player: str | None = None) -> str | None:
        """None when the decision is legal now; else a sentence naming the rule."""
        refusal = self.refusal(decision, player)
        return None if refusal is None else refusal.text

    def refusal(self, decision: int | str, player: str | None = None) -> Refusal | None:
        """None when the decision is legal now; else why not, as a ``Refusal`` (its
        ``kind`` and ruling for programs, its words for the player's language)."""
        try:
            d = decision if isinstance(decision, int) else parse_decision(decision, self.board)
            format_decision(d, self.board)
        except NotationError as exc:
            return Refusal("notation", exc.words, exc.ruling)
        if self.phase == OVER:
            return Refusal.of("game_over", N_("the game is over"))
        me = self.decider
        if player is not None and player != PLAYERS[me]:
            return Refusal.of(
                "not_your_decision",
                N_("it is {colour}'s turn, not {player}'s (K32)"),
                "K32",
                colour=Term(PLAYERS[me]),
                player=Term(player),
            )
        if d in self.legal_actions():
            return None
        return self._reason(d, me)

    _reason = refusal_reason  # in ``refusals``; bound here, patchable like Haleakala's

    # -- applying decisions -----------------------------------------------------------

    def apply(self, decision: int | str, player: str | None = None) -> list[Event]:
        """Apply one decision and its automatic effects; return the events, in order, as
        the frozen values of ``events`` (``Stone``, ``Bridge``, ``Drew``, ``Revealed``,
        ``Scored``, ``Shuffled``, ``Ended``).
        Raises ``IllegalDecision`` (state unchanged) with the reason when not allowed."""
        if isinstance(decision, int):
            d = decision
        else:
            try:
                d = parse_decision(decision, self.board)
            except NotationError as exc:
                refused = Refusal("notation", exc.words, exc.ruling)
                raise IllegalDecision(refused.text, refused) from None
        if (player is not None and player != self.to_move) or d not in self.legal_actions():
            refused = self.refusal(d, player) or Refusal.of("not_allowed", N_("not legal now"))
            raise IllegalDecision(refused.text, refused)
        self._legal = None
        self.history.append(d)
        events: list[Event] = []
        p = self.decider
        b = self.board
        if d < CUT:
            line, side = divmod(d - PLAY, 2)
            card = b.lines[line][side]
            self._spend(p, card)
            self.discard.append(card)
            self.bridge[line] = p
            self.phase = PLAYED
            if self._mark(p, card, b.other_end(line, card), events):  # K12
                self._wipeout(p, events)  # K29, once the decision is resolved (K11, K34)
        elif d < DISCARD:
            line, k = divmod(d - CUT, 3)
            a, c = b.lines[line]
            for card in (a, a) if k == 0 else (a, c) if k == 1 else (c, c):
                self._spend(p, card)
                self.discard.append(card)
            self.bridge[line] = NONE  # K16: back to its owner's supply (K3)
            events.append(Bridge(1 - p, line, "removed"))
            self._lose_stones(1 - p, [a, c], events)  # K13
            self.phase = PLAYED
            self._wipeout(p, events)  # K29
        elif d < DRAW_PILE:
            card = d - DISCARD
            self.hands[p][card] -= 1
            self.buried[p].append(card)  # K19
            # K33: the opponent does not see which card went down, so each known card
            # may be the one: only one copy fewer of each stays certain.
            self.known[p] = [k - 1 if k else 0 for k in self.known[p]]
            self.phase = DISCARDED
        elif d < END:
            self._draw(p, d, events)
        else:
            declined = self.cards_to_draw()  # K23: ending while a card is left declines
            self._end_turn(declined, events)
        return events

    def _spend(self, p: int, card: int) -> None:
        self.hands[p][card] -= 1
        if self.known[p][card]:
            self.known[p][card] -= 1

    def _mark(self, p: int, first: int, second: int, events: list[Event]) -> bool:
        """K12/K14: after p laid a bridge, place p's stones where p now has an unmarked
        majority: the card's island, the other end, then every island alphabetically.
        True when an opposing bridge was removed."""
        removed = False
        order = [first, second] + [i for i in range(len(self.stone)) if i not in (first, second)]
        for island in order:
            if self.stone[island] != NONE or not self.has_majority(p, island):
                continue
            if self.stones_left(p) <= 0:  # K14: nothing happens
                continue
            self.stone[island] = p
            events.append(Stone(p, island, "placed"))
            removed_ends: list[int] = []
            for line in self.board.lines_of[island]:  # alphabetical line order
                if self.bridge[line] == 1 - p:
                    self.bridge[line] = NONE
                    events.append(Bridge(1 - p, line, "removed"))
                    removed_ends += self.board.lines[line]
            if removed_ends:
                removed = True
                self._lose_stones(1 - p, removed_ends, events)  # K13
        return removed

    def _lose_stones(self, q: int, ends: list[int], events: list[Event]) -> None:
        """K13: q's stone leaves each island at an end of a removed bridge where q now
        holds half or fewer of the lines, alphabetically; nothing more follows."""
        for island in sorted(set(ends)):
            if self.stone[island] == q and not self.has_majority(q, island):
                self.stone[island] = NONE
                events.append(Stone(q, island, "removed"))

    def _wipeout(self, p: int, events: list[Event]) -> None:
        """K29: a removal that leaves the opponent no bridge in round 2 or 3 wins at once."""
        if self.phase == OVER or self.round < 2 or (1 - p) in self.bridge:
            return
        totals = self.totals()
        self._finish(Result(totals, PLAYERS[p], "wipeout"), events)

    def _draw(self, p: int, d: int, events: list[Event]) -> None:
        if d == DRAW_PILE:
            card = self.pile.pop(0)
            events.append(Drew(p, "pile", card))
        else:
            slot = d - DRAW_SLOT
            card = self.display[slot]
            self.known[p][card] += 1  # the opponent saw it taken (K31)
            events.append(Drew(p, slot, card))
            if self.pile:  # K20: replaced at once in the same slot
                self.display[slot] = self.pile.pop(0)
                events.append(Revealed(slot, self.display[slot]))
            else:
                self.display[slot] = NONE
        self.hands[p][card] += 1
        if self.cards_to_draw():
            self._end_turn(False, events)
            return
        # K24: the draw that empties pile and display ends the round.
        if self.round < 3:
            self._score(events)
            self._reshuffle(events)
            self._end_turn(False, events)  # K25: the other player starts
        else:
            self._end_turn(False, events)
            self.last_turns = 2  # K26: the other player's last turn, then the drawer's

    def _end_turn(self, declined: bool, events: list[Event]) -> None:
        if self.phase == OVER:
            return
        if self.last_turns:  # K26: one of the two last turns just closed
            self.last_turns -= 1
            if self.last_turns == 0:
                self._score(events)
                self._finish(self._final_result(), events)
                return
        self.must_draw = declined  # K23 (never after a draw, so never across a round)
        self.current = self.decider = 1 - self.current
        self.phase = OPEN

    def _final_result(self) -> Result:
        """K28: totals, then the third scoring, then bridges on the board, else a draw."""
        totals = self.totals()
        third = self.points[2]
        bridges = (self.bridges_on_board(0), self.bridges_on_board(1))
        for pair, reason in ((totals, "points"), (third, "third"), (bridges, "bridges")):
            if pair[0] != pair[1]:
                return Result(totals, PLAYERS[0 if pair[0] > pair[1] else 1], reason)
        return Result(totals, None, "draw")

    def _score(self, events: list[Event]) -> None:
        """K27: islands marked by stones; 1, 2, then the difference."""
        counts = (self.stones_on_board(0), self.stones_on_board(1))
        rnd = len(self.points) + 1
        if counts[0] == counts[1]:
            pts = (0, 0)
        else:
            win = 0 if counts[0] > counts[1] else 1
            value = rnd if rnd < 3 else abs(counts[0] - counts[1])
            pts = (value, 0) if win == 0 else (0, value)
        self.points.append(pts)
        names = self.board.islands
        scoring = Scoring(
            round=rnd,
            stones=tuple(
                tuple(sorted(names[i] for i, o in enumerate(self.stone) if o == p)) for p in (0, 1)
            ),
            islands=counts,
            points=pts,
            totals=self.totals(),
            bridges=(self.bridges_on_board(0), self.bridges_on_board(1)),
        )
        events.append(Scored(scoring))

    def _reshuffle(self, events: list[Event]) -> None:
        """K4 step 5 / K25: the whole discard pile, sorted then shuffled by the game's
        generator (rebuilt from the seed: it made only the deal and earlier shuffles)."""
        _, _, rng = deal_deck(self.board, self.seed)
        for size in self.shuffles:
            rng.shuffle(list(range(size)))
        cards = sorted(self.discard + self.buried[0] + self.buried[1])
        rng.shuffle(cards)
        self.shuffles.append(len(cards))
        n = self.board.display
        self.display, self.pile = cards[:n], cards[n:]
        self.discard, self.buried = [], [[], []]
        self.round += 1
        events.append(Shuffled(self.round, tuple(self.display), tuple(self.pile)))

    def totals(self) -> tuple[int, int]:
        return (sum(p[0] for p in self.points), sum(p[1] for p in self.points))

    def _finish(self, result: Result, events: list[Event]) -> None:
        self.outcome = result
        self.phase = OVER
        self._legal = None
        events.append(Ended(result))

    def result(self) -> Result | None:
        """K28 (or K29's wipeout) once the game is over, else None."""
        return self.outcome

    def returns(self) -> tuple[float, float]:
        r = self.outcome
        if r is None or r.winner is None:
            return (0.5, 0.5)
        return (1.0, 0.0) if r.winner == PLAYERS[0] else (0.0, 1.0)

    # -- copies, identity, notation -----------------------------------------------------

    def clone(self) -> Game:
        g = Game.__new__(Game)
        g.__dict__.update(self.__dict__)
        g.hands = [self.hands[0][:], self.hands[1][:]]
        g.known = [self.known[0][:], self.known[1][:]]
        g.display = self.display[:]
        g.pile = self.pile[:]
        g.discard = self.discard[:]
        g.buried = [self.buried[0][:], self.buried[1][:]]
        g.bridge = self.bridge[:]
        g.stone = self.stone[:]
        g.points = self.points[:]
        g.shuffles = self.shuffles[:]
        g.history = self.history[:]
        return g

    HIDDEN_DISCARD: ClassVar[str] = "discard ?"
    """What the opponent may see of a face-down discard (K19, K33): that one was made."""

    def seen_decision(self, text: str, decider: int, viewer: int | None) -> str:
        """The text ``viewer`` may see of ``decider``'s decision ``text`` (the remote
        core's hook, ``remote.views.seen_decision``; None: a watcher): a face-down discard names
        no card to anyone but its player; every other Kahuna decision is public."""
        if viewer != decider and text.split(" ", 1)[0] == "discard":
            return self.HIDDEN_DISCARD
        return text

    def digest(self) -> str:
        """A stable fingerprint of the full position (equal states, equal digests)."""
        return _CODEC["digest"](self)

    def to_json(self) -> str:
        return _CODEC["to_json"](self)

    @classmethod
    def from_json(cls, text: str) -> Game:
        return _CODEC["from_json"](text)

    def format(self, action: int) -> str:
        return format_decision(action, self.board)

    def parse(self, text: str) -> int:
        return parse_decision(text, self.board)

    # -- hidden information (K31): in ``hidden``, bound here ---------------------------

    observation = observation
    determinize = determinize
    evaluate = evaluate

    def __repr__(self) -> str:
        return (
            f"<Kahuna seed={self.seed} round={self.round} {self.phase_name} {self.to_move} "
            f"decisions={len(self.history)}>"
        )
