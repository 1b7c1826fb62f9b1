"""The state of a game of Haleakala and the rules that change it.

One class, ``Game``, in the spirit of python-chess's ``Board`` and OpenSpiel's ``State``:
``legal_decisions()``, ``apply()``, ``why_illegal()``, ``is_terminal()``, ``result()``,
``clone()``, ``digest()``, ``to_json()`` / ``from_json()`` (see ``serialize``).

Representation: small lists of ints indexed by player (0 red, 1 yellow), beach, land
space or slot, so that clone is a handful of list copies and a random game of ~400
decisions costs a few milliseconds. Automatic effects that may be interrupted by a
player's decision (distribution, card actions, refill, scorings) run from a queue of
small tuples kept in the state, so a game can stop at any decision, be saved, and go on.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, ClassVar

from . import refusals
from .decision import Refusal, notation_refusal
from .deck import BOARD_ITEMS, Deck, default_deck
from .events import (
    BoatMoved,
    Bought,
    DiscsBack,
    Ended,
    Erupted,
    Event,
    InvocationBack,
    LavaPlaced,
    Received,
    Revealed,
    Scored,
    StatueBuilt,
)
from .geometry import Board, default_board
from .legal import generate
from .notation import (
    BOAT,
    BUY,
    INVOKE,
    KEEP,
    LAVA,
    LAVA_NONE,
    RETURN,
    SHAMAN,
    STAY,
    TAKE,
    NotationError,
    format_decision,
    parse_decision,
)
from .refusals import reason
from .scoring import Scoring, erupt, score_round
from .state import (
    CHOOSE_CARD,
    FACE_DOWN,
    MOVE_SHAMAN,
    NO_OWNER,
    OVER,
    PHASE_NAMES,
    PLAYERS,
    PRESCORE,
    PRIESTESS,
    PRIESTESS_ITEM,
    SHELL,
    TURN,
    VARIANTS,
    IllegalDecision,
    Result,
    UnknownVariant,
)

__all__ = [
    "CHOOSE_CARD",
    "FACE_DOWN",
    "MOVE_SHAMAN",
    "NO_OWNER",
    "OVER",
    "PHASE_NAMES",
    "PLAYERS",
    "PRESCORE",
    "PRIESTESS",
    "PRIESTESS_ITEM",
    "SHELL",
    "TURN",
    "VARIANTS",
    "Game",
    "IllegalDecision",
    "Result",
    "UnknownVariant",
]


# How a game is saved and identified lives in ``serialize``, which imports this module;
# so this module does not import it back (no import cycle, not even at call time):
# ``serialize`` hands its functions over with ``use_codec`` when it is imported, which
# the package's ``__init__`` does before anyone can hold a game.
_CODEC: dict[str, Callable[..., Any]] = {}


def use_codec(**functions: Callable[..., Any]) -> None:
    """Called once by ``serialize``: ``to_dict``, ``to_json``, ``digest``, ``from_json``."""
    _CODEC.update(functions)


class Game:
    """A game of Haleakala between red and yellow, base or tactical variant."""

    # The game interface of ``haleakala.gameapi`` (docs/GAME_PROTOCOL.md).
    game_name: ClassVar[str] = "haleakala"
    players: ClassVar[tuple[str, str]] = PLAYERS

    # -- creation ---------------------------------------------------------------------

    def __init__(
        self,
        variant: str = "base",
        seed: int = 0,
        start: str | None = None,
        board: Board | None = None,
        deck: Deck | None = None,
    ) -> None:
        if variant not in VARIANTS:
            raise UnknownVariant(f"unknown variant {variant!r}: choose base or tactical")
        if start is not None and start not in PLAYERS:
            raise ValueError(f"unknown starting player {start!r}: choose red or yellow")
        self.board = board or default_board()
        self.deck = deck or default_deck()
        self.variant = variant
        self.tactical = variant == "tactical"
        self.seed = seed
        rng = random.Random(seed)  # R28: the only source of chance
        coin = rng.randrange(2)  # drawn even when the start is given: same seed, same deal
        self.start = PLAYERS.index(start) if start else coin
        b = self.board
        n_seg = b.segments
        self.current = self.start
        self.decider = self.start
        self.phase = TURN
        self.round = 1
        self.boat = b.jetty
        self.disc_at = [[-1] * 6, [-1] * 6]  # by value 1..5: beach, or -1 in supply
        self.totals = [[0] * n_seg, [0] * n_seg]
        self.invocation = [-1, -1] if self.tactical else [-2, -2]  # beach, -1 supply, -2 boxed
        self.shaman = [b.land_spaces + b.huts[0], b.land_spaces + b.huts[1]]
        self.statue_owner = [NO_OWNER] * b.land_spaces
        self.statues_left = [b.statues, b.statues]
        self.lava = [0] * n_seg
        self.piles: list[list[int]] = []
        for index in range(len(self.deck.piles)):
            pile = self.deck.card_numbers(index, variant)
            rng.shuffle(pile)
            self.piles.append(pile)  # the top of a pile is its end
        self.slots = [-1] * b.slots
        self.discard: list[int] = []
        self.beach_cards: list[list[int]] = [[], []]
        self.shells: list[list[int]] = [[], []]
        self.board_owner = [NO_OWNER] * len(BOARD_ITEMS)
        self.queue: list[tuple] = []
        self.context: tuple = ()
        self.scorings: list[Scoring] = []
        self.history: list[int] = []
        self._legal: list[int] | None = None
        # Setup step 2: twelve 1-tree cards face up in the slots.
        for slot in range(b.slots):
            self.slots[slot] = self.piles[0].pop()

    # -- whose decision ---------------------------------------------------------------

    @property
    def to_move(self) -> str | None:
        """The player who must decide now, or None when the game is over."""
        return None if self.phase == OVER else PLAYERS[self.decider]

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    def is_terminal(self) -> bool:
        return self.phase == OVER

    @property
    def lava_on_island(self) -> int:
        return sum(self.lava)

    # -- legal decisions --------------------------------------------------------------

    def legal_actions(self) -> list[int]:
        """Every legal decision as its integer code (see ``notation``), ascending.

        Cached until the next ``apply``: a bot asks, then ``apply`` checks the same list.
        Callers must not modify the returned list.
        """
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        return legal

    # Legal-decision generation lives in ``legal``; bound here, it costs no extra call.
    _generate = generate

    def legal_decisions(self) -> list[str]:
        """Every legal decision in its text form, sorted as the game log lists them."""
        return sorted(format_decision(a, self.board) for a in self.legal_actions())

    # -- explaining refusals ----------------------------------------------------------

    def why_illegal(self, decision: int | str, player: str | None = None) -> str | None:
        """None when the decision is legal now; else a sentence naming the rule."""
        refusal = self.refusal(decision, player)
        return None if refusal is None else refusal.text

    def refusal(self, decision: int | str, player: str | None = None) -> Refusal | None:
        """None when the decision is legal now; else why not, as ``kind`` and ``ruling``
        to match and the sentence ``why_illegal`` gives."""
        try:
            d = decision if isinstance(decision, int) else parse_decision(decision, self.board)
        except NotationError as exc:
            return notation_refusal(exc)
        if self.phase == OVER:
            return Refusal("game_over", refusals.game_over(), "R21")
        me = self.decider
        if player is not None and player != PLAYERS[me]:
            text = refusals.not_your_decision(PLAYERS[me], player)
            return Refusal("not_your_decision", text, "R6")
        if d in self.legal_actions():
            return None
        return self._reason(d, me)

    # The explanations live in ``refusals``; a class attribute, so tests can reword them.
    _reason = reason

    # -- applying decisions -----------------------------------------------------------

    def apply(self, decision: int | str, player: str | None = None) -> list[Event]:
        """Apply one decision and every automatic effect after it; return what happened,
        in order, as the frozen values of ``events`` (``Revealed``, ``LavaPlaced``,
        ``Received``, ``StatueBuilt``, ``BoatMoved``, ``DiscsBack``, ``InvocationBack``,
        ``Bought``, ``Erupted``, ``Scored``, ``Ended``).

        Raises ``IllegalDecision`` (state unchanged) with the reason when not allowed.
        """
        if isinstance(decision, int):
            d = decision
        else:
            try:
                d = parse_decision(decision, self.board)
            except NotationError as exc:
                raise IllegalDecision(str(exc), notation_refusal(exc)) from None
        if (player is not None and player != self.to_move) or d not in self.legal_actions():
            refusal = self.refusal(d, player) or Refusal("not_allowed", "not legal now")
            raise IllegalDecision(refusal.text, refusal)
        events: list[Event] = []
        self._legal = None
        self.history.append(d)
        self._do(d, events)
        self._run_queue(events)
        return events

    def _do(self, d: int, events: list[Event]) -> None:
        p = self.decider
        phase = self.phase
        if phase == TURN:
            if d < RETURN:  # place (with invocation when d >= INVOKE)
                v, beach = divmod(d % 100, 10)
                self.disc_at[p][v] = beach
                self.totals[p][beach] += v
                if beach == self.boat:  # 1b: the boat moves by the value (R9)
                    if d >= INVOKE:
                        self.invocation[p] = beach
                    self._move_boat(v, d >= INVOKE, events)
                else:  # 1a
                    self._await(p, MOVE_SHAMAN, ())
            elif d < BOAT:  # 2: take a disc back
                v, beach = divmod(d - RETURN, 10)
                self.disc_at[p][v] = -1
                self.totals[p][beach] -= v
                self._await(p, MOVE_SHAMAN, ())
            else:  # 3
                self._move_boat(1, False, events)
        elif phase == MOVE_SHAMAN:
            if d != STAY:
                self.shaman[p] = d - SHAMAN
            self.queue.append(("end",))
        elif phase == CHOOSE_CARD:
            self._choose(p, d - TAKE, events)
        elif phase == PRIESTESS:
            if d != LAVA_NONE:
                src, ccw = divmod(d - LAVA, 2)
                self.lava[src] -= 1
                self.lava[(src + (-1 if ccw else 1)) % self.board.segments] += 1
            if self.tactical and self.invocation[p] >= 0:  # R16: the invocation disc returns
                self.invocation[p] = -1
                events.append(InvocationBack(p))
        elif phase in (SHELL, PRESCORE) and d < KEEP:
            self._buy(p, d - BUY, events)

    def _move_boat(self, steps: int, invoked: bool, events: list[Event]) -> None:
        b = self.board
        start = self.boat
        seg = self.boat = (start + steps) % b.segments
        events.append(BoatMoved(start, seg))
        if invoked and sum(self.lava) < b.lava_discs:  # R26
            self.lava[seg] += 1
            events.append(LavaPlaced(seg, "invocation"))
        for p in (0, 1):  # R27: an invocation disc on this beach returns
            if self.invocation[p] == seg:
                self.invocation[p] = -1
                events.append(InvocationBack(p))
        k = b.slots_per_segment
        cards = [s for s in range(seg * k, seg * k + k) if self.slots[s] >= 0]
        if not cards and not self.piles[-1] and self.round == 2:  # R21
            self._queue_scoring(2)
            return
        red, yellow = self.totals[0][seg], self.totals[1][seg]
        steps_: list[tuple] = []
        if cards and (red or yellow):
            high = 0 if red > yellow else 1
            steps_.append(("choose", high, seg, 1 - high if red and yellow else -1))
        steps_.append(("discs_back", seg))
        steps_.append(("refill",))
        steps_.append(("end",))
        self.queue.extend(steps_)

    def _choose(self, p: int, slot: int, events: list[Event]) -> None:
        """R10–R13: the chooser takes a card, the other player the remaining one."""
        seg, other = self.context
        card = self.slots[slot]
        self.slots[slot] = -1
        received = [(p, card)]
        if other >= 0:
            k = self.board.slots_per_segment
            rest = [s for s in range(seg * k, seg * k + k) if self.slots[s] >= 0]
            if rest:
                remaining = self.slots[rest[0]]
                cards = self.deck.cards
                if cards[remaining].face != cards[card].face:  # R12
                    self.slots[rest[0]] = -1
                    received.append((other, remaining))
        acts = []
        for who, c in received:
            self._receive(who, c)
            events.append(Received(who, c))
            acts.append(("act", who, c))
        self.queue[0:0] = acts

    def _receive(self, p: int, card: int) -> None:
        """The card goes where it ends up at once (so every card is always somewhere):
        beach cards and shells to the player, action cards to the discard (R11)."""
        kind = self.deck.cards[card].kind
        if kind == "beach":
            self.beach_cards[p].append(card)
        elif kind == "shell":
            self.shells[p].append(card)
        else:
            self.discard.append(card)

    def _act(self, p: int, card: int, events: list[Event]) -> bool:
        """Resolve a received card; True when it waits for the player's decision."""
        kind = self.deck.cards[card].kind
        if kind == "shell":
            self._await(p, SHELL, (card,))
            return True
        if kind != "action":
            return False
        if self.deck.cards[card].code == "priestess":
            self._await(p, PRIESTESS, (card,))
            return True
        # Build a Statue (R15), automatic when possible.
        space = self.shaman[p]
        if (
            space < self.board.land_spaces
            and self.statue_owner[space] == NO_OWNER
            and self.statues_left[p] > 0
        ):
            self.statue_owner[space] = p
            self.statues_left[p] -= 1
            events.append(StatueBuilt(p, space))
        return False

    def _buy(self, p: int, item: int, events: list[Event]) -> None:
        cost = self.deck.board_items[BOARD_ITEMS[item]][1]
        for _ in range(cost):
            self.discard.append(self.shells[p].pop())
        events.append(Bought(p, BOARD_ITEMS[item]))
        if item == PRIESTESS_ITEM:  # used at once, then face down (R17)
            self.board_owner[item] = FACE_DOWN
            self.queue.insert(0, ("priestess", p))
        else:
            self.board_owner[item] = p

    def _await(self, p: int, phase: int, context: tuple) -> None:
        self.decider = p
        self.phase = phase
        self.context = context

    def _run_queue(self, events: list[Event]) -> None:
        """Carry out automatic steps until a player must decide."""
        queue = self.queue
        while queue:
            step = queue.pop(0)
            kind = step[0]
            if kind == "end":
                self.current = 1 - self.current
                self._await(self.current, TURN, ())
                return
            if kind == "choose":
                self._await(step[1], CHOOSE_CARD, (step[2], step[3]))
                return
            if kind == "act":
                if self._act(step[1], step[2], events):
                    return
            elif kind == "priestess":
                self._await(step[1], PRIESTESS, (-1,))
                return
            elif kind == "discs_back":
                seg = step[1]
                for p in (0, 1):
                    at = self.disc_at[p]
                    for v in self.board.discs:
                        if at[v] == seg:
                            at[v] = -1
                    self.totals[p][seg] = 0
                events.append(DiscsBack(seg))
            elif kind == "refill":
                self._refill(events)
            elif kind == "prescore":
                self._await(step[1], PRESCORE, ())
                return
            elif kind == "score":
                self._score(step[1], events)
                if step[1] == 2:
                    queue.clear()
                    self._await(self.current, OVER, ())
                    result = self.result()
                    assert result is not None  # the phase is OVER
                    events.append(Ended(result))
                    return
        # A turn always ends with an "end" step; reaching here means a decision is pending.

    def _refill(self, events: list[Event]) -> None:
        """R14: fill empty slots from the 1-, then 2-, then 3-tree pile; lava cards erupt
        onto the boat's crater. R20: the first scoring interrupts the moment the 2-tree
        pile runs out; the refill resumes afterwards."""
        cards = self.deck.cards
        limit = self.board.lava_discs
        for slot, held in enumerate(self.slots):
            while held < 0:
                pile = next((i for i, p in enumerate(self.piles) if p), None)
                if pile is None:
                    return
                card = self.piles[pile].pop()
                if cards[card].kind == "lava":
                    self.discard.append(card)
                    if sum(self.lava) < limit:
                        self.lava[self.boat] += 1
                        events.append(LavaPlaced(self.boat, "card"))
                else:
                    self.slots[slot] = held = card
                    events.append(Revealed(slot, card))
                if pile == 1 and not self.piles[1] and self.round == 1:
                    self.queue.insert(0, ("refill",))
                    self._queue_scoring(1, front=True)
                    return

    def _queue_scoring(self, rnd: int, front: bool = False) -> None:
        steps: list[tuple] = []
        if not self.tactical:  # R19 (R25: not in the tactical variant)
            steps += [("prescore", self.current), ("prescore", 1 - self.current)]
        steps.append(("score", rnd))
        if front:
            self.queue[0:0] = steps
        else:
            self.queue[:] = steps

    # -- scoring ----------------------------------------------------------------------

    def _score(self, rnd: int, events: list[Event]) -> None:
        owner = {self.board.space_name(s): o for s, o in enumerate(self.statue_owner) if o >= 0}
        destroyed = erupt(self)
        # The owners (colours, parallel to ``destroyed``) so a log can say whose statue burnt.
        owners = tuple(PLAYERS[owner[n]] for n in destroyed)
        events.append(Erupted(rnd, tuple(destroyed), owners))
        scoring = score_round(self, rnd)
        self.scorings.append(scoring)
        events.append(Scored(scoring))
        if rnd == 1:  # R23
            self.board_owner = [NO_OWNER] * len(BOARD_ITEMS)
            self.round = 2

    def result(self) -> Result | None:
        """Scores, winner and tie-break (R24) once the game is over, else None."""
        if self.phase != OVER:
            return None
        last = self.scorings[-1]
        totals = (last.of("red").total, last.of("yellow").total)
        tiebreak = None
        if totals[0] != totals[1]:
            winner = 0 if totals[0] > totals[1] else 1
        else:
            statues = [self.statue_owner.count(p) for p in (0, 1)]
            if statues[0] != statues[1]:
                winner, tiebreak = (0 if statues[0] > statues[1] else 1), "statues"
            else:
                winner, tiebreak = 1 - self.start, "start"
        return Result(totals, PLAYERS[winner], tiebreak, tuple(self.scorings))

    # -- copies and identity ----------------------------------------------------------

    def clone(self) -> Game:
        g = Game.__new__(Game)
        g.__dict__.update(self.__dict__)
        g.disc_at = [self.disc_at[0][:], self.disc_at[1][:]]
        g.totals = [self.totals[0][:], self.totals[1][:]]
        g.invocation = self.invocation[:]
        g.shaman = self.shaman[:]
        g.statue_owner = self.statue_owner[:]
        g.statues_left = self.statues_left[:]
        g.lava = self.lava[:]
        g.piles = [p[:] for p in self.piles]
        g.slots = self.slots[:]
        g.discard = self.discard[:]
        g.beach_cards = [self.beach_cards[0][:], self.beach_cards[1][:]]
        g.shells = [self.shells[0][:], self.shells[1][:]]
        g.board_owner = self.board_owner[:]
        g.queue = self.queue[:]
        g.scorings = self.scorings[:]
        g.history = self.history[:]
        return g

    def seen_decision(self, text: str, decider: int, viewer: int | None) -> str:
        """The text ``viewer`` (a seat; None: a watcher) may see of ``decider``'s decision
        ``text``: every decision of this game is public, so all of it."""
        return text

    def digest(self) -> str:
        """A stable fingerprint of the position (equal states, equal digests)."""
        return _CODEC["digest"](self)

    def to_json(self) -> str:
        return _CODEC["to_json"](self)

    @classmethod
    def from_json(cls, text: str) -> Game:
        return _CODEC["from_json"](text)

    def format(self, d: int) -> str:
        return format_decision(d, self.board)

    # -- the game interface (gameapi): results, hidden information, a heuristic -----------

    def returns(self) -> tuple[float, float]:
        """Win 1, loss 0 per player (R24 leaves no draw); 0.5 each while not over."""
        result = self.result()
        if result is None:
            return (0.5, 0.5)
        return (1.0, 0.0) if result.winner == PLAYERS[0] else (0.0, 1.0)

    def determinize(self, observer: int, rng: random.Random) -> Game:
        """A copy whose three draw piles are re-shuffled by ``rng``: their order is the only
        hidden information and hidden from both players alike, so ``observer`` does not
        matter. Each pile is sorted first, so the result depends on the public composition
        only, never on the true order."""
        world = self.clone()
        for pile in world.piles:
            pile.sort()
            rng.shuffle(pile)
        world._legal = None
        return world

    def observation(self, player: int) -> dict:
        """Everything either player sees: the position with each pile reduced to its sorted
        composition and without the seed (which would give the order away)."""
        data = _CODEC["to_dict"](self, history=False)
        data["piles"] = [sorted(pile) for pile in self.piles]
        del data["seed"]
        return data

    def evaluate(self, player: int) -> float:
        """The search bot's estimate (points a scoring now would give, lava, shells, ...)
        squashed into [0, 1] for ``player``; the exact result once the game is over."""
        if self.phase == OVER:
            return self.returns()[player]
        from haleakala.gameapi import squash

        from .heuristic import evaluate

        red_advantage = evaluate(self)
        return squash(red_advantage if player == 0 else -red_advantage, 4.0)

    def parse(self, text: str) -> int:
        return parse_decision(text, self.board)

    def __repr__(self) -> str:
        return (
            f"<Game {self.variant} seed={self.seed} round={self.round} "
            f"{self.phase_name} {self.to_move} decisions={len(self.history)}>"
        )
