"""The Kahuna table behind the window: seats, whose hand is shown, what the clicks select,
and the bot's thinking. Pure (no pygame), so the mouse logic is tested without a display.

Clicks become canonical decisions in the game's own notation (KAHUNA-NOTATION) and go
through ``why_illegal`` first: a refused click changes nothing and says why. The hand
shown is only ever the *viewer's*: against a bot the human's, between two people the acting
player's, after a "hand over" screen that hides both hands until the next player clicks.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from haleakala.games.kahuna.words import colour
from haleakala.i18n import _
from haleakala.i18n.refusals import say

from .view import View, view_of


@dataclass
class Seat:
    """Who plays a colour: a person (``bot`` None) or a bot with its think time."""

    bot: Any = None
    budget: float | None = 0.5  # None: the bot's own budget (an iteration budget in tests)

    @property
    def human(self) -> bool:
        return self.bot is None


@dataclass
class _Thinking:
    digest: str
    thread: threading.Thread
    decision: list[int] = field(default_factory=list)
    error: list[BaseException] = field(default_factory=list)


class KahunaTable:
    """One game at the window's table; every change goes through a method here."""

    def __init__(self, game: Any, seats: tuple[Seat, Seat]) -> None:
        self.seats = seats
        self._start(game)
        self.changes = 0  # bumped on every change, so the window redraws only then

    def _start(self, game: Any) -> None:
        self.game = game
        seats = self.seats
        self.selected: list[int] = []  # indices into the viewer's hand, in click order
        self.message = ""
        self.log: list[str] = []  # "white: play HUNA>ELAI", newest last
        # Lines where bridges were laid or cut: in the turn being played, and in the turn
        # before it (the window marks those, so a player sees what the opponent just did).
        self.turn_lines: list[str] = []
        self.last_turn_lines: list[str] = []
        humans = [p for p in (0, 1) if seats[p].human]
        self.viewer: int | None = humans[0] if humans else None
        # Between two people the screen hides every hand until the next player is seated.
        self.handover = len(humans) == 2
        if self.handover:
            self.viewer = None
        self._thinking: _Thinking | None = None

    def new_game(self) -> None:
        """Once a game is over: the next one (the next seed), same seats."""
        if not self.game.is_terminal():
            self._say(_("The game is not over yet."))
            return
        from haleakala.gameapi import new_game

        self._start(new_game(self.game.game_name, seed=self.game.seed + 1))
        self._say(_("New game (seed {seed}).").format(seed=self.game.seed))

    # -- what the window shows ------------------------------------------------------------

    @property
    def two_humans(self) -> bool:
        return self.seats[0].human and self.seats[1].human

    def view(self) -> View:
        return view_of(self.game, self.viewer)

    @property
    def waiting_for(self) -> int | None:
        """The player whose click is awaited (None: game over, a bot thinks, or hand-over)."""
        game = self.game
        if game.is_terminal() or self.handover:
            return None
        return game.decider if self.seats[game.decider].human else None

    @property
    def thinking(self) -> bool:
        return self._thinking is not None

    def _changed(self) -> None:
        self.changes += 1

    def _say(self, text: str) -> None:
        self.message = text
        self._changed()

    # -- clicks ---------------------------------------------------------------------------

    def _may_click(self) -> bool:
        if self.game.is_terminal():
            self._say(_("The game is over."))
            return False
        if self.handover:
            return False
        if not self.seats[self.game.decider].human:
            self._say(
                _("Wait: {colour} (the bot) is thinking.").format(
                    colour=colour(self.game.to_move or "")
                )
            )
            return False
        return True

    def click_card(self, index: int) -> None:
        """Select or unselect a card of the viewer's hand (at most two: a pair cuts)."""
        if not self._may_click():
            return
        hand = self.view().hand
        if not 0 <= index < len(hand):
            return
        if index in self.selected:
            self.selected.remove(index)
        else:
            self.selected = [*self.selected, index][-2:]
        self._say(self._selection_hint())

    def _selection_hint(self) -> str:
        """What the selection can do now, from the legal decisions (never a false promise)."""
        cards = self.selected_cards()
        legal = self.game.legal_decisions()
        if len(cards) == 1:
            card = cards[0]
            lines = sum(1 for t in legal if t.startswith(f"play {card}>"))
            if lines:
                return _(
                    "{card}: click a free line at {card} (highlighted) to lay a bridge."
                ).format(card=card)
            return _(
                "{card}: no bridge can be laid with it now; select a second card to cut "
                "an opposing bridge, or Discard."
            ).format(card=card)
        if len(cards) == 2:
            pair = "+".join(sorted(cards))
            if any(t.startswith("cut ") and t.endswith(f" with {pair}") for t in legal):
                return _("{pair}: click a highlighted opposing bridge to cut it.").format(pair=pair)
            return _("{pair}: these two cards cut no opposing bridge now.").format(pair=pair)
        return ""

    def selected_cards(self) -> list[str]:
        hand = self.view().hand
        return [hand[i] for i in self.selected if i < len(hand)]

    def clear(self) -> None:
        self.selected = []
        self._say("")

    def click_line(self, line: str) -> None:
        """With one card selected: lay a bridge on ``line``; with two: cut the bridge there."""
        if not self._may_click():
            return
        cards = self.selected_cards()
        a, b = line.split("-")
        if not cards:
            self._say(
                _("Select a card in your hand first ({a} or {b} for {line}).").format(
                    a=a, b=b, line=line
                )
            )
            return
        if len(cards) == 1:
            card = cards[0]
            if card not in (a, b):
                self._say(
                    _("A {card} card lays bridges only on lines that touch {card}.").format(
                        card=card
                    )
                )
                return
            other = b if card == a else a
            self.decide(f"play {card}>{other}")
            return
        first, second = sorted(cards)
        self.decide(f"cut {line} with {first}+{second}")

    def click_display(self, slot: int) -> None:
        if self._may_click():
            self.decide(f"draw {slot}")

    def click_pile(self) -> None:
        if self._may_click():
            self.decide("draw pile")

    def click_end(self) -> None:
        if self._may_click():
            self.decide("end")

    def click_discard(self) -> None:
        """Discard the selected card(s) face down, one decision each."""
        if not self._may_click():
            return
        cards = self.selected_cards()
        if not cards:
            self._say(_("Select the card(s) to put face down under the discard pile first."))
            return
        for card in cards:
            if not self.decide(f"discard {card}"):
                break

    def dismiss_handover(self) -> None:
        """The next player sits down: show their hand."""
        if self.handover:
            self.handover = False
            self.viewer = self.game.decider if not self.game.is_terminal() else self.viewer
            self._say("")

    # -- decisions ------------------------------------------------------------------------

    def decide(self, text: str) -> bool:
        """Apply ``text`` if legal (True), else say why and change nothing (False)."""
        game = self.game
        refusal = game.refusal(text)
        if refusal is not None:
            self._say(_("{decision}: {reason}").format(decision=text, reason=say(refusal)))
            return False
        self._apply(game.parse(text))
        return True

    def _apply(self, code: int) -> None:
        game = self.game
        mover = game.decider
        text = game.format(code)
        game.apply(code)
        self.log.append(f"{game.players[mover]}: {text}")
        line = _line_of(text)
        if line is not None:
            self.turn_lines.append(line)
        if game.decider != mover or game.is_terminal():
            self.last_turn_lines, self.turn_lines = self.turn_lines, []
        self.selected = []
        self.message = ""
        if game.is_terminal():
            self.message = self.view().result
            if self.two_humans:
                self.viewer = None  # the end screen shows no hand
        elif self.two_humans and game.decider != mover:
            self.handover = True
            self.viewer = None
        self._changed()

    # -- the bot ----------------------------------------------------------------------------

    def update(self) -> None:
        """Start the bot when it is its turn; apply its decision once it has one."""
        game = self.game
        thinking = self._thinking
        if thinking is not None:
            if thinking.thread.is_alive():
                return
            self._thinking = None
            if thinking.error:
                self._say(_("the bot failed: {error}").format(error=thinking.error[0]))
                raise thinking.error[0]
            if thinking.digest == game.digest() and thinking.decision:
                self._apply(thinking.decision[0])
            return
        if game.is_terminal() or self.seats[game.decider].human:
            return
        seat = self.seats[game.decider]
        world = game.clone()
        job = _Thinking(game.digest(), threading.Thread(daemon=True))

        def think() -> None:
            try:
                job.decision.append(seat.bot.decide(world, seat.budget))
            except BaseException as exc:  # reported on the window's thread
                job.error.append(exc)

        job.thread = threading.Thread(target=think, name="kahuna-bot", daemon=True)
        self._thinking = job
        job.thread.start()
        self._changed()

    def wait_for_bot(self, timeout: float = 30.0) -> None:
        """Let the bot finish its current decision (tests, screenshots)."""
        thinking = self._thinking
        if thinking is not None:
            thinking.thread.join(timeout)
        self.update()

    def play_bots(self, decisions: int) -> None:
        """Up to ``decisions`` decisions by the bots' seats (a person's seat stops it)."""
        for _step in range(decisions):
            if self.game.is_terminal() or self.seats[self.game.decider].human:
                return
            self.update()
            self.wait_for_bot()


def _line_of(text: str) -> str | None:
    """The line a ``play`` or ``cut`` decision acts on (notation: ``play A>B``, ``cut A-B
    with ...``), else None."""
    if text.startswith("play "):
        card, other = text[5:].split(">")
        return "-".join(sorted((card, other)))
    if text.startswith("cut "):
        return text[4:].split(" with ")[0]
    return None
