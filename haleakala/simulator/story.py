"""What happened in the game, in words and places: the window's log, its last-move marker and
its highlights of legal targets, worked out from the game alone (no pygame, no session).

The engine keeps only the decisions (``game.history``), not their consequences, so the story
replays the history on a copy of the game and keeps each decision's events: the boat sailing,
statues built and burnt, lava, scorings. The window follows the game with ``Story.follow``
(incremental: one decision costs one replayed decision; an undo replays from the deal), the
scenario checks build a fresh one, so both read the same words.

The words come from the shared sentence layer (``haleakala.games.haleakala.words.moves``), so
the simulator does not keep a third copy of them; each entry keeps them as a value
(``core.text.Text``) that the window renders in its language, ``text`` the English.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from haleakala.core.text import Capitalised, Param, Term, Text, ngettext
from haleakala.games.haleakala import PLAYERS, Game
from haleakala.games.haleakala.decision import Boat, Buy, Lava, Place, Return, Shaman, Take, decode
from haleakala.games.haleakala.events import (
    BoatMoved,
    Bought,
    DiscsBack,
    InvocationBack,
    Received,
    Scored,
    StatueBuilt,
)
from haleakala.games.haleakala.words.moves import decision_sentence, event_lines
from haleakala.i18n import N_

DECISION_NOTE = re.compile(r"^\d+\. ")
"""The session's own log line for a decision ("12. 3@2 (player)"): the story says it in words."""

QUIET_EVENTS = ("reveal", "result")
"""Events the log leaves out: refills are on the board for all to see; the result has its own
table at the end of the game."""


@dataclass(frozen=True)
class Entry:
    """One log line: ``who`` colours it (a player, or None for the island: lava, scorings).
    ``words`` is the line as a value, rendered in the window's language; ``text`` is English."""

    words: Param
    who: str | None
    kind: str  # "start", "move" (a decision), "event" (its consequence), "scoring"

    @property
    def text(self) -> str:
        return str(self.words)


@dataclass(frozen=True)
class Mark:
    """A place on the board or the scoring board: ``kind`` beach, space, slot, crater, boat or
    item; ``index`` the beach/space/slot/crater number or the item code; ``label`` how a
    player names it ("beach 2", "2G", "slot 1a", "crater 3", "Forest Statues")."""

    kind: str
    index: int | str
    label: str


def capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def mark_of(game: Game, d: int) -> Mark | None:
    """Where decision ``d`` acts, read before it is applied (None: nowhere, like ``pass``)."""
    b = game.board
    match decode(d, b):
        case Place(_v, beach) | Return(_v, beach):
            return Mark("beach", beach, N_("beach {n}").format(n=beach))
        case Boat():
            to = (game.boat + 1) % b.segments
            return Mark("boat", to, N_("boat {n}").format(n=to))
        case Shaman(space):
            here = game.shaman[game.decider] if space is None else space
            return Mark("space", here, b.space_name(here))
        case Take(slot):
            return Mark("slot", slot, N_("slot {slot}").format(slot=b.slot_name(slot)))
        case Lava(_source, target) if target is not None:
            return Mark("crater", target, N_("crater {n}").format(n=target))
        case Buy(item):
            return Mark("item", item, game.deck.board_items[item][0])
    return None


def legal_marks(game: Game) -> list[Mark]:
    """The places the player to decide may act on now, each once (highlights)."""
    if game.is_terminal():
        return []
    seen: dict[tuple[str, int | str], Mark] = {}
    for d in game.legal_actions():
        mark = mark_of(game, d)
        if mark is not None and mark.kind != "boat":
            seen.setdefault((mark.kind, mark.index), mark)
    return list(seen.values())


class Story:
    """The game's log in words and the last decision's place, kept up with the game."""

    def __init__(self) -> None:
        self.entries: list[Entry] = []
        self.marks: list[tuple[str, Mark | None]] = []  # per decision: the mover, the place
        self._replay: Game | None = None

    def _restart(self, game: Game) -> None:
        start = PLAYERS[game.start]
        self._replay = Game(game.variant, game.seed, start)
        opening = Text.of(
            N_("{colour} starts: {variant} game, deal {seed}"),
            colour=Capitalised(Term(start)),
            variant=Term(game.variant),
            seed=str(game.seed),  # a deal's name, not a quantity: never grouped
        )
        self.entries, self.marks = [Entry(opening, start, "start")], []

    def follow(self, game: Game) -> bool:
        """Catch up with ``game``; True when the story changed."""
        replay = self._replay
        history = game.history
        if (
            replay is None
            or (replay.variant, replay.seed, replay.start) != (game.variant, game.seed, game.start)
            or len(replay.history) > len(history)
            or replay.history != history[: len(replay.history)]
        ):
            self._restart(game)
            replay = self._replay
            assert replay is not None
            if not history:
                return True
        if len(replay.history) == len(history):
            return False
        for d in history[len(replay.history) :]:
            self._add(replay, d)
        return True

    def _add(self, replay: Game, d: int) -> None:
        mover = replay.decider
        who = PLAYERS[mover]
        mark = mark_of(replay, d)
        occupied = [replay.totals[0][b] + replay.totals[1][b] for b in range(replay.board.segments)]
        events = replay.apply(d)
        shown = [
            e
            for e in events
            if e.kind not in QUIET_EVENTS
            and not (isinstance(e, DiscsBack) and not occupied[e.beach])
        ]
        # the decision's sentence already says where the boat went and which card was taken
        said = decision_sentence(replay, mover, d, events)
        self.entries.append(Entry(said, who, "move"))
        for event in shown:
            if isinstance(event, BoatMoved):
                continue
            kind = "scoring" if isinstance(event, Scored) else "event"
            owned = isinstance(event, StatueBuilt | Received | Bought | InvocationBack)
            colour = PLAYERS[event.player] if owned else None  # type: ignore[union-attr]
            for line in event_lines(replay, [event], told=mover):
                text = str(line).strip()
                if kind == "scoring" and text.startswith(PLAYERS):
                    colour = text.split()[0]
                elif kind == "scoring":
                    colour = None
                self.entries.append(Entry(Capitalised(line), colour, kind))
        self.marks.append((who, mark))

    @property
    def last(self) -> tuple[str, Mark | None] | None:
        """The last decision's mover and place (None before the first decision)."""
        return self.marks[-1] if self.marks else None


def story_of(game: Game) -> Story:
    """A fresh story of ``game`` (the scenario checks; the window keeps its own)."""
    story = Story()
    story.follow(game)
    return story


def cards_before_scoring(game: Game) -> int | None:
    """Cards still to be drawn before the next scoring can come: the 1- and 2-tree piles in
    round 1 (R20), the 3-tree pile in round 2 (R21); None once the game is over."""
    if game.is_terminal():
        return None
    one, two, three = (len(p) for p in game.piles[:3])
    return one + two if game.round == 1 else three


def scoring_forecast(game: Game) -> tuple[Text, Param]:
    """When the next scoring comes, as the piles tell it (R20, R21): a headline and how."""
    n = cards_before_scoring(game)
    if n is None:
        return Text(N_("the game is over")), ""
    cards = ngettext("{n} more card", "{n} more cards", n, n=n)
    if game.round == 1:
        return Text.of(N_("scoring 1 after {cards}"), cards=cards), Text(
            N_("when the 2-tree pile runs out")
        )
    if n:
        return Text.of(N_("scoring 2 after {cards}"), cards=cards), Text(
            N_("and a boat stop beside no cards")
        )
    return Text(N_("scoring 2 at the next boat stop")), Text(N_("beside no cards"))
