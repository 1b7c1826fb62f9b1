"""The controller: physical events in, rules decisions out, and a board that must agree.

One thread owns the game. Hardware events arrive on a bounded ``EventQueue`` (the HAL's ``post``
callback is ``Companion.post``); ``pump`` / the daemon's loop hands them to ``handle`` one at
a time, which never raises: a bug is logged and shown, and the game is only replaced by a
new position once the rules accepted the decision.

How decisions are made:
- RFID kit: the readers' snapshot is compared with the discs the game has on each beach
  (``watch``, ``reconcile``): one of the player's discs added is a placement, one removed a
  return; anything else flashes the beach, says why in the rules' words and how to fix it,
  and nothing changes until the board matches. When the game itself moves discs the board
  must first match again.
- Buttons kit: a beach's button, the encoder through the discs that may go there, select.
- Every other decision is a chooser (``menu``): the encoder cycles the legal options,
  select confirms; a single legal option applies itself after ``auto_s`` seconds.
- Long press on back: undo the last decision of a player. Back at a turn start: the menu.
- Solo mode (``solo.Seat``): the companion's bot thinks on a worker thread while the island
  stays live; its decision is shown, the players carry it out, and it is journaled like
  any other (``by: "bot"``).

Durability (``keeper``): the new position is shown first, then journaled and fsynced, and
only then acknowledged in the log; while the journal cannot be written the game pauses and
goes on by itself once a retry succeeds.

The controller itself queues, dispatches, decides (with acknowledgement and undo) and draws;
its parts each do one job: ``ui.Panel`` (what is shown and waited for, one value),
``keys`` (buttons and encoder), ``menu`` (menus, score pages, choosers), ``watch`` and
``reconcile`` (the RFID board), ``solo.Seat`` (the companion's own colour), ``keeper``
(the journal) and ``screen`` (LEDs and OLED).
"""

from __future__ import annotations

import contextlib
import logging
import queue
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from haleakala.games.haleakala import PLAYERS, VARIANTS, Game, IllegalDecision
from haleakala.games.haleakala import events as game_events
from haleakala.games.haleakala.decision import Boat, decode
from haleakala.games.haleakala.game import OVER, TURN
from haleakala.games.haleakala.words import board as BW
from haleakala.games.haleakala.words import notes as N
from haleakala.hal.eventqueue import EventQueue
from haleakala.hal.events import (
    BeachContents,
    ButtonHeld,
    ButtonPressed,
    EncoderTurned,
    InputEvent,
    LinkHealth,
)

from . import menu, oled, scenes
from . import ui as U
from .journal import JournalError, replay
from .keeper import MESSAGE_S, RETRY_S, Keeper, UnsavedDecision, UnsavedUndo
from .keys import Keys
from .physical import PhysicalBoard, instructions, physical_board
from .reconcile import UNKNOWN_TAG
from .screen import Screen, eruption
from .solo import SOLO_SHOW_S, THINK_LIMIT_S, BotDecided, BotFactory, Seat
from .watch import BoardWatch

if TYPE_CHECKING:
    from haleakala.config import Config
    from haleakala.hal.base import Hardware

    from .host import LiveView
    from .journal import Journal
    from .narrator import Narrator

__all__ = ["RETRY_S", "UNKNOWN_TAG", "Companion", "UnsavedDecision", "UnsavedUndo"]

log = logging.getLogger("haleakala.companion")

Event = InputEvent | BotDecided
"""What arrives on the controller's queue: the hardware's inputs and the solo bot's answer."""

AUTO_S = 2.0
"""A forced decision (one legal option) applies itself after this long."""
SETTLE_S = 0.8
"""RFID: a disc placed next to the boat waits this long for the invocation disc, and a disc
taken off a beach this long in case it is on its way to another beach (a move, refused)."""
MAX_CONSECUTIVE_ERRORS = 20


class Companion:
    """The game on the island: hardware events in, decisions, LED frames and OLED images out.

    ``game`` starts a given position (tests, scenarios); otherwise the journal's game is
    resumed, or a new game of ``variant`` (default: the config's) is started with ``seed``.
    ``solo`` names the colour the companion plays itself ("off": nobody; None: as the
    journal's game had it), ``strength`` how well (``solo.STRENGTHS``; None: as before, else
    normal). ``bot_factory(strength, seed)`` replaces the bots (tests).
    """

    def __init__(
        self,
        hardware: Hardware,
        config: Config,
        *,
        journal: Journal | None = None,
        clock: Callable[[], float] = time.monotonic,
        variant: str | None = None,
        solo: str | None = None,
        game: Game | None = None,
        seed: int | None = None,
        start: str | None = None,
        strength: str | None = None,
        bot_factory: BotFactory | None = None,
        auto_s: float = AUTO_S,
        settle_s: float = SETTLE_S,
        solo_show_s: float = SOLO_SHOW_S,
        think_limit_s: float = THINK_LIMIT_S,
    ) -> None:
        seat = Seat.check(solo, strength)
        self.hardware = hardware
        self.config = config
        self.kit = config.kit
        self.clock = clock
        self.journal = journal
        self.variant = variant or config.variant
        if self.variant not in VARIANTS:
            raise ValueError(f"unknown variant {self.variant!r}: choose base or tactical")
        self.seat = Seat(
            self.post,
            clock,
            colour=seat[0],
            strength=seat[1],
            factory=bot_factory,
            show_s=solo_show_s,
            think_limit_s=think_limit_s,
        )
        self.auto_s, self.settle_s = auto_s, settle_s
        self.events: EventQueue = EventQueue()  # bounded; board reports coalesced
        self._seeds = random.Random(seed) if seed is not None else None
        self.errors, self.consecutive_errors = 0, 0
        self.handled = 0
        self.notes: tuple[U.Words, ...] = ()
        self.panel = U.Panel()
        self.keeper = Keeper(journal, clock)
        self.menus = menu.Menus(self)
        self.link_ok, self.link_detail = True, ""
        self.live_view: LiveView | None = None  # web.start sets it: a menu entry shows its QR
        self.lesson: U.LessonHooks | None = None  # a lesson on the board (haleakala.learn)
        self.narrator: Narrator | None = None  # the voice (companion.narrator), if it speaks
        self.screen = Screen(self, hardware)
        self.closed = False
        self._digest_of: Game | None = None
        self._digest = ""

        resumed = self.keeper.resume(self.seat, solo, strength) if game is None else None
        self.notes = self.keeper.notes  # what the journal's recovery repaired, if anything
        self.resumed = resumed is not None  # the journal's game, not a new one (health record)
        if resumed is not None:
            self.game, self.sources = resumed
        else:
            if game is None:
                game = Game(self.variant, seed if seed is not None else secrets.randbits(31), start)
                if self._seeds is not None:
                    self._seeds.random()  # the first seed was used by this game
            self.game = game
            self.sources = ["player"] * len(game.history)
            self.keeper.start(game, self.seat)
        self.watch = BoardWatch(self, self.menus)
        self.keys = Keys(self, self.menus, self.watch)
        self.refresh()

    # ------------------------------------------------------------------ public API

    def post(self, event: Event) -> None:
        """Queue an input event (any thread): the HAL's ``post`` callback."""
        self.events.put(event)

    def start(self) -> None:
        """Start the hardware inputs (posting to this controller) and draw the first frame."""
        self.hardware.inputs.start(self.post)
        self.render()
        if self.journal is not None:  # e.g. a game that ended just before a power cut
            self.keeper.housekeeping(self.game)

    def pump(self, timeout: float | None = 0.0) -> int:
        """Handle every queued event and due timer; wait up to ``timeout`` for the first
        event (None: until one arrives). Returns how many events were handled."""
        count = 0
        try:
            event = self.events.get(timeout=timeout) if timeout != 0 else self.events.get_nowait()
        except queue.Empty:
            self.tick()
            return 0
        while True:
            self.handle(event)
            count += 1
            try:
                event = self.events.get_nowait()
            except queue.Empty:
                break
        self.tick()
        return count

    def handle(self, event: object) -> None:
        """Handle one input event; never raises (errors are logged and shown).

        Beach reports are only recorded here; the whole sensed board is compared with the
        game once no further event is queued (the driver posts one snapshot as one report
        per beach), or before an event of another kind is handled."""
        self.handled += 1
        try:
            self._dispatch(event)
            if self.watch.dirty and self.events.empty():
                self.watch.settle()
            self.consecutive_errors = 0
        except Exception as exc:
            self._internal_error(f"handling {event!r}", exc)
        self._finish()

    def tick(self) -> None:
        """Let time pass: timers that are due (forced decisions, settling discs, messages,
        animations). The daemon calls it when ``next_deadline`` comes."""
        try:
            if self.watch.dirty:
                self.watch.settle()
            self._timers(self.clock())
        except Exception as exc:
            self._internal_error("running timers", exc)
        self._finish()

    # -- what the simulator, the players' hands and tests read ----------------------

    @property
    def shown(self) -> U.Chooser | None:
        """The chooser on the OLED (a menu or scores over the decision), if any."""
        return self.panel.shown

    @property
    def sensed(self) -> list[frozenset[object]]:
        """The discs the RFID readers last reported per beach (the game's, until told)."""
        return self.watch.sensed

    @property
    def paused(self) -> JournalError | None:
        """Why the last change is not saved yet (the game waits), or None."""
        return self.keeper.paused

    @property
    def solo(self) -> str | None:
        """The colour the companion plays itself (None: nobody)."""
        return self.seat.colour

    @property
    def strength(self) -> str:
        return self.seat.strength

    @property
    def thinking(self) -> bool:
        """Solo: the companion's bot is working out its decision."""
        return self.seat.thinking

    def decided_by(self, index: int) -> str:
        """Who made decision ``index`` of the game: "player", "auto" or "bot"."""
        return self.sources[index] if index < len(self.sources) else "player"

    def next_deadline(self) -> float | None:
        """Clock time of the next timer or animation step; None: only events matter."""
        now = self.clock()
        state = self.ui_state(now)
        p = self.panel
        deadlines = [scenes.next_change(self.game, state, now)]
        if p.auto_at is not None and self.auto_ready():
            deadlines.append(p.auto_at)
        if self.seat.bot_at is not None and self.auto_ready():
            deadlines.append(self.seat.bot_at)
        deadlines.append(self.seat.think_deadline())
        if p.pending is not None:
            deadlines.append(p.pending.at)
        if self.paused is not None:
            deadlines.append(self.keeper.retry_at)
        elif self.watch.dirty:
            deadlines.append(now)  # beach reports held while paused
        if p.message is not None and p.message.until > now:
            deadlines.append(p.message.until)
        deadlines.append(oled.next_page_at(self.game, self.ui_state(now), now))  # a page turns
        if p.eruption is not None and p.eruption.until > now:
            deadlines.append(p.eruption.until)
        deadlines.append(self.menus.expires())
        found = [d for d in deadlines if d is not None]
        return min(found) if found else None

    def expected_board(self) -> PhysicalBoard:
        """What should physically lie where: discs per beach, boat, shamans, statues, lava."""
        return physical_board(self.game)

    def sensed_board(self) -> tuple[frozenset[object], ...]:
        """The discs the RFID readers last reported per beach (the game's, until told)."""
        return tuple(self.watch.sensed)

    @property
    def prompt(self) -> list[str]:
        """The OLED's current content as text lines (title first)."""
        return self.screen.text()

    def status(self) -> str:
        """One line for systemd's STATUS= and the log."""
        return self.screen.status()

    def digest(self) -> str:
        """The game's digest, computed once per position."""
        if self._digest_of is not self.game:
            self._digest_of, self._digest = self.game, self.game.digest()
        return self._digest

    def healthy(self) -> bool:
        """For the watchdog: the loop runs and is not stuck failing on every event."""
        return not self.closed and self.consecutive_errors < MAX_CONSECUTIVE_ERRORS

    def ui_state(self, now: float | None = None) -> U.UiState:
        return self.screen.state(now)

    def render(self) -> None:
        """Hand the LED frame and the OLED image to the HAL, each only when it changed."""
        self.screen.draw()

    @property
    def rendered_at(self) -> float:
        """perf_counter() when the last frame went to the HAL."""
        return self.screen.rendered_at

    def say_bye(self) -> None:
        """Shutdown: LEDs off, "bye" on the OLED (the panel keeps it)."""
        self.closed = True
        self.stop_bot()
        with contextlib.suppress(Exception):
            self.hardware.inputs.close()
        with contextlib.suppress(Exception):
            self.hardware.leds.off()
        with contextlib.suppress(Exception):
            self.hardware.display.show(oled.bye_image())
        if self.journal is not None:
            self.journal.close()

    def stop_bot(self) -> None:
        """Forget the companion's pending thought and stop its thread (shutdown, power cut)."""
        self.seat.stop()

    # -- things the menu, the simulator and tests may call --------------------------

    def undo(self) -> bool:
        """Take back the last decision of a player (and the automatic ones after it)."""
        if self.paused is not None:  # the last decision is not saved yet
            self._say_paused()
            return False
        game = self.game
        players = [i for i, s in enumerate(self.sources) if s == "player"]
        if not game.history or not players:
            self.show(*N.nothing_to_undo())
            return False
        keep = players[-1]
        count = len(game.history) - keep
        target = replay(game.variant, game.seed, PLAYERS[game.start], game.history[:keep])
        texts = [game.format(d) for d in game.history[keep:]]
        self.seat.forget()
        self.keeper.unsaved = UnsavedUndo(game, tuple(self.sources), count)
        before = physical_board(game)
        self.game = target
        self.sources = self.sources[:keep]
        moves = instructions(before, physical_board(target), back=True, discs=self.kit != "rfid")
        self.panel = replace(self.panel.reset(), instructions=tuple(moves))
        self.show(*N.undone(texts), refusal=False)
        self.watch.changed_by_game(BW.UNDO_FIX)
        self.refresh()
        return True

    def new_game(
        self, variant: str | None = None, seed: int | None = None, start: str | None = None
    ) -> None:
        """Start a new game (the current one is kept as a game log if it had decisions)."""
        variant = variant or self.variant
        self.keeper.keep_log(self.game)
        if seed is None:
            seed = self._seeds.randrange(2**31) if self._seeds is not None else secrets.randbits(31)
        game = Game(variant, seed, start)
        self.keeper.start(game, self.seat)  # the journal first: if it fails, nothing changed
        self.keeper.forget()  # a decision held by a pause went with the game
        self.game = game
        self.sources = []
        self.variant = variant
        self.seat.forget()
        self.panel = replace(self.panel.reset(), instructions=())
        self.notes = ()
        self.watch.changed_by_game(BW.NEW_GAME_CLEAR)
        self.refresh()

    # ------------------------------------------------------------------ dispatch

    def _dispatch(self, event: object) -> None:
        deciding = isinstance(event, ButtonPressed | ButtonHeld | EncoderTurned)
        if self.paused is not None and deciding:  # nothing is decided until the last is saved
            if isinstance(event, EncoderTurned) and type(event.steps) is int:
                self.scroll_by(event.steps)  # but the encoder scrolls the message (a long chown)
            else:
                self._say_paused()
            return
        if not isinstance(event, BeachContents) and self.watch.dirty:
            self.watch.settle()  # the board as it was before this event happened
        if not isinstance(event, EncoderTurned) and self.panel.scroll:
            self.panel = replace(self.panel, scroll=0)
        if self.panel.message is not None and (
            isinstance(event, ButtonPressed | ButtonHeld)
            or (isinstance(event, EncoderTurned) and self.shown is not None)
        ):  # a new action: an old refusal must not hide its result
            self.panel = replace(self.panel, message=None)
        if isinstance(event, BeachContents):
            self.watch.on_beach(event)
        elif isinstance(event, ButtonPressed):
            self.keys.press(event.button)
        elif isinstance(event, ButtonHeld):
            if event.button == "back":
                self.panel = replace(self.panel, overlay=None)
                self.keys.hold_back()
            else:  # select held: repeat (a kit that speaks); any other: a press
                self.keys.hold(event.button)
        elif isinstance(event, EncoderTurned):
            self.keys.turn(event.steps)
        elif isinstance(event, BotDecided):
            self._on_bot_decided(event)
        elif isinstance(event, LinkHealth):
            if (event.ok, event.detail) != (self.link_ok, self.link_detail):
                level = logging.INFO if event.ok else logging.WARNING
                log.log(level, "RFID link %s: %s", "up" if event.ok else "down", event.detail)
            self.link_ok, self.link_detail = bool(event.ok), str(event.detail)
        else:
            log.warning("ignored an input event of unknown kind: %r", event)

    def _finish(self) -> None:
        """After an event or a timer: draw, then make the change durable, then tidy up."""
        try:
            self.render()
        except Exception as exc:
            self._internal_error("drawing", exc)
        if self.keeper.due() and self.keeper.waiting:
            self.keeper.recheck(self)  # has `haleakala journal resume` settled the journal?
        elif self.keeper.due():
            outcome = self.keeper.save(self.game, self.digest())
            if outcome == "paused":  # the decision stays shown, new ones are refused
                self._say_paused()
                self.render()
            elif outcome == "resumed":
                self.panel = replace(self.panel, message=None)
        self.keeper.housekeeping(self.game)
        if self.narrator is not None and self.narrator.observe():
            self.render()  # the voice went quiet: the OLED says so

    def _internal_error(self, what: str, exc: Exception) -> None:
        self.errors += 1
        self.consecutive_errors += 1
        log.exception("internal error while %s (the game is unchanged)", what)
        with contextlib.suppress(Exception):
            self.show(*N.internal_error(exc.__class__.__name__))

    # ------------------------------------------------------------------ timers

    def auto_ready(self) -> bool:
        """Nothing hides the decision: a countdown on it may run."""
        p = self.panel
        return p.overlay is None and p.mismatch is None and p.hold is None and not self.paused

    def _timers(self, now: float) -> None:
        p = self.panel
        if p.message is not None and p.message.until <= now:
            self.panel = replace(self.panel, message=None)
        if p.eruption is not None and p.eruption.until <= now:
            self.panel = replace(self.panel, eruption=None)
        expire = self.menus.expires()
        if expire is not None and expire <= now:
            self.menus.close()
        pending = self.panel.pending
        if pending is not None and pending.at <= now and self.paused is None:
            self.watch.reconcile(settled=True)
        auto_at = self.panel.auto_at
        if auto_at is not None and now >= auto_at and self.auto_ready():
            legal = self.game.legal_actions()
            if len(legal) == 1:
                self.decide(legal[0], "auto")
        if self.seat.overdue(now, self.game):
            self._companions_turn()
        if self.seat.bot_at is not None and now >= self.seat.bot_at and self.auto_ready():
            d = self.seat.due(now, self.game)
            if d is not None:
                self.decide(d, "bot")

    def scroll_by(self, steps: int) -> None:
        """A long text on the OLED scrolls (as far as there is text)."""
        self.panel = replace(self.panel, scroll=max(0, self.panel.scroll + steps))
        if self.panel.scroll:  # back at 0 the text turns its pages by itself again
            self.panel = replace(self.panel, scroll=self.screen.scroll_limit())

    # ------------------------------------------------------------------ decisions

    def decide(self, d: int, by: str) -> None:
        """Apply a decision (on a copy: the game changes only if the rules accept it)."""
        if self.paused is not None:  # the last decision is not saved yet
            self._say_paused()
            return
        if self.lesson is not None and not self.lesson.allows(self, d, by):
            return  # not the lesson's decision: its hint shows, the game stays
        before = self.game
        trial = before.clone()
        try:
            events = trial.apply(d)
        except IllegalDecision as exc:
            self.show(*N.not_allowed(exc.refusal.words), refusal=True)
            return
        self.keeper.unsaved = UnsavedDecision(before, by)
        self.game = trial
        self.sources.append(by)
        self._after_decision(before, events)
        self.menus.after_decision(d, by, len(before.history))  # a hint judged, a lesson on

    def _after_decision(self, before: Game, events: list[game_events.Event]) -> None:
        now = self.clock()
        moves = instructions(
            physical_board(before), physical_board(self.game), discs=self.kit != "rfid"
        )
        self.panel = replace(self.panel.reset(), instructions=tuple(moves))
        for event in events:
            if isinstance(event, game_events.Erupted):  # the lava before, the spaces it burnt
                self.panel = replace(self.panel, eruption=eruption(before, event.destroyed, now))
            elif isinstance(event, game_events.Scored) and event.scoring.round != 2:
                self.menus.scores(event.scoring, menu.scoring_title(event.scoring.round))
        if self.game.phase == OVER and self.game.scorings:
            self.menus.scores(self.game.scorings[-1], menu.FINAL_SCORES)
        self.watch.changed_by_game(BW.TAKE_DISCS_BACK)
        self.refresh()

    def refresh(self) -> None:
        """Rebuild the decision chooser for the current phase (after any game change)."""
        game = self.game
        if self.panel.auto_at is not None:
            self.panel = replace(self.panel, auto_at=None)
        self.seat.bot_at = None
        if not self.seat.plays(game):
            self.seat.drop_question()  # solo off, or no longer its turn: a late answer is stale
        if game.phase == OVER:
            self.panel = replace(self.panel, chooser=None)
            return
        if self.seat.plays(game):
            self._companions_turn()
            return
        legal = game.legal_actions()
        auto_at = self.clock() + self.auto_s if len(legal) == 1 else None
        if game.phase == TURN:
            chooser = self.panel.chooser
            if chooser is not None and chooser.kind not in (U.BEACH, U.BOAT):
                self.panel = replace(self.panel, chooser=None)
            if len(legal) == 1 and isinstance(decode(legal[0], game.board), Boat):
                forced = menu.forced_boat(game, legal[0])
                self.panel = replace(self.panel, chooser=forced, auto_at=auto_at)
            return
        chooser = menu.decision_chooser(game, legal)
        self.panel = replace(self.panel, chooser=chooser, auto_at=auto_at)

    def _companions_turn(self) -> None:
        """Show the companion's decision for this position, or ask its bot for one."""
        d = self.seat.turn(self.game)
        self.panel = replace(self.panel, chooser=menu.proposal(self.game, d, self.kit))
        if d is not None:
            self.seat.schedule(d, self.kit)

    def _on_bot_decided(self, event: BotDecided) -> None:
        if not self.seat.answer(event, self.game):
            if self.seat.trouble:  # a remote seat's decision does not fit this board's game
                self.show("DIVERGED", self.seat.trouble)
            return
        message = self.panel.message
        if message is not None and message.title == N.THINKING:
            self.panel = replace(self.panel, message=None)  # "still thinking" is answered
        self._companions_turn()

    def _say_paused(self) -> None:
        """Why the game waits, until the retry after next."""
        self.panel = replace(self.panel, message=self.keeper.note(MESSAGE_S))

    def show(
        self, title: U.Words, text: U.Words, *, refusal: bool = True, beaches: tuple[int, ...] = ()
    ) -> None:
        now = self.clock()
        shown = now + oled.message_seconds(text, MESSAGE_S)  # every page of it, once
        message = U.Message(title, text, refusal=refusal, beaches=beaches, until=shown, since=now)
        self.panel = replace(self.panel, message=message)
        if refusal:
            log.info("refused: %s: %s", title, text)
