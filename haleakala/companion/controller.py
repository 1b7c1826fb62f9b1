"""The controller: physical events in, rules decisions out, and a board that must agree.

One thread owns the game. Hardware events arrive on a bounded ``EventQueue`` (the HAL's ``post``
callback is ``Companion.post``); ``pump`` / the daemon's loop hands them to ``handle`` one at
a time, which never raises: a bug is logged and shown, and the game is only replaced by a
new position once the rules accepted the decision.

How decisions are made:
- RFID kit: every ``BeachContents`` snapshot is compared with the discs the game has on
  that beach. One of the player's discs added = a placement (``3@2``; with the invocation
  disc next to the boat as well = ``3@2*``), one removed = a return (``-3@2``). Anything
  else is a disagreement: the beach flashes, the OLED says why in the rules' words
  (``Game.why_illegal``) and how to fix it, and nothing changes until the board matches.
  When the game itself moves discs (back to the supply after a distribution, an undo, a
  new game) the board must first match again ("take your discs back from beach 3").
- Buttons kit: press a beach's button, turn the encoder through the discs that may be
  placed there (and "take back"), press select.
- Every other decision (shaman destination, card, Lava Priestess, shell, pre-scoring
  purchase, moving the boat) is a chooser: the encoder cycles the legal options (the LEDs
  show the one under the cursor), select confirms. A decision with a single legal option
  is shown and applies itself after ``auto_s`` seconds (select applies it at once).
- Long press on back: undo the last decision of a player (with the automatic decisions
  after it), with board instructions to reverse it. Back at a turn start: the menu.
- Solo mode (``solo``): on the companion's turn its bot thinks on a worker thread
  (``solo.BotThinker``; the answer comes back as a ``BotDecided`` event) while the island
  stays live. Its decision is then shown on the LEDs and in words on the OLED; the players
  carry it out (a disc: the readers see it, or select on the buttons kit; the shaman or the
  boat: move it, then select); a decision with no piece to move goes on by itself after
  ``solo_show_s``. It is journaled like any other (``by: "bot"``).

Durability: the new position is shown first (instant feedback), then the decision is
appended to the journal and fsynced, and only then acknowledged in the log
("ack decision 12 red 3@2 digest …"). If the journal cannot be written (storage full, a file
of the wrong owner) the game pauses: the decision stays shown but unacknowledged, the OLED
says why and what fixes it, inputs that would decide are refused, and the write is tried
again every ``RETRY_S``; once it succeeds the game goes on by itself.
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import random
import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from haleakala.hal.eventqueue import EventQueue
from haleakala.hal.events import (
    BEACHES,
    INVOCATION,
    BeachContents,
    ButtonHeld,
    ButtonPressed,
    Disc,
    EncoderTurned,
    LinkHealth,
)
from haleakala.rules import PLAYERS, VARIANTS, Game, IllegalDecision
from haleakala.rules.decision import (
    Boat,
    Buy,
    Keep,
    Lava,
    Pass,
    Place,
    Refusal,
    Return,
    Shaman,
    Take,
    decode,
    encode,
)
from haleakala.rules.game import (
    CHOOSE_CARD,
    MOVE_SHAMAN,
    OVER,
    PRESCORE,
    PRIESTESS,
    SHELL,
    TURN,
)

from . import oled, scenes
from . import ui as U
from .journal import JournalError, replay
from .physical import (
    PhysicalBoard,
    beach_discs,
    disc_instructions,
    disc_list,
    disc_words,
    instructions,
    physical_board,
)
from .solo import (
    DEFAULT_STRENGTH,
    STRENGTHS,
    BotDecided,
    BotFactory,
    BotThinker,
    bot_seed,
    needs_hands,
    proposal_words,
)

if TYPE_CHECKING:
    from haleakala.ai.coach import Hint
    from haleakala.config import Config
    from haleakala.hal.base import Hardware

    from .journal import Journal

log = logging.getLogger("haleakala.companion")

AUTO_S = 2.0
"""A forced decision (one legal option) applies itself after this long."""
SETTLE_S = 0.8
"""RFID: a disc placed next to the boat waits this long for the invocation disc, and a disc
taken off a beach this long in case it is on its way to another beach (a move, refused)."""
MESSAGE_S = 3.0
UNKNOWN_TAG = "UNKNOWN TAG"
"""RFID: the headline when a beach holds a tag that the ``[tags]`` table does not name."""
RETRY_S = 2.0
"""While the journal cannot be written, the pending decision is saved again this often."""
SCORES_S = 120.0
"""A score page stays until select (or back) dismisses it, or this long."""
ERUPTION_S = 3.0
BAND_WORDS = {"G": "grassland", "F": "forest", "M": "mountain", "B": "hut"}
PHASE_WORDS = {
    MOVE_SHAMAN: "move the shaman (turn the knob, press to confirm)",
    CHOOSE_CARD: "take a card (turn the knob, press to take)",
    PRIESTESS: "use the Lava Priestess (turn the knob, press to confirm)",
    SHELL: "buy with the shell or keep it (turn the knob, press)",
    PRESCORE: "buy before the scoring or pass (turn the knob, press)",
    OVER: "nothing: the game is over",
}
PHASE_TITLES = {
    MOVE_SHAMAN: "SHAMAN",
    CHOOSE_CARD: "TAKE ONE",
    PRIESTESS: "LAVA",
    SHELL: "BUY?",
    PRESCORE: "BUY?",
}
MAX_CONSECUTIVE_ERRORS = 20
SOLO_SHOW_S = 2.5
"""Solo: a decision of the companion with no piece to move is shown this long, then made."""
THINK_LIMIT_S = 30.0
"""Solo: a bot that has not answered after this long is replaced by the greedy one (once)."""


def _seed() -> int:
    return int.from_bytes(os.urandom(4), "big") >> 1


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
        if solo is not None and solo not in (*PLAYERS, "off"):
            raise ValueError(f"solo colour {solo!r}: choose red, yellow or off")
        if strength is not None and strength not in STRENGTHS:
            raise ValueError(f"solo strength {strength!r}: choose {', '.join(STRENGTHS)}")
        self.hardware = hardware
        self.config = config
        self.kit = config.kit
        self.clock = clock
        self.journal = journal
        self.variant = variant or config.variant
        if self.variant not in VARIANTS:
            raise ValueError(f"unknown variant {self.variant!r}: choose base or tactical")
        self.solo: str | None = None if solo in (None, "off") else solo
        self.strength = strength or DEFAULT_STRENGTH
        self.solo_show_s = solo_show_s
        self.think_limit_s = think_limit_s
        self._thinker: BotThinker | None = None
        self._bot_factory = bot_factory
        self._requests = 0
        self._thinking: tuple[int, int] | None = None  # tag of the question the bot is on
        self._think_since = 0.0
        self.bot_at: float | None = None  # the companion's decision makes itself then
        self.auto_s = auto_s
        self.settle_s = settle_s
        self.events: EventQueue = EventQueue()  # bounded; board reports coalesced
        self._seeds = random.Random(seed) if seed is not None else None
        self.errors = 0
        self.consecutive_errors = 0
        self.handled = 0
        self.acknowledged = 0
        self.notes: tuple[str, ...] = ()
        # UI state
        self.chooser: U.Chooser | None = None
        self.overlay: U.Chooser | None = None
        self.mismatch: U.Mismatch | None = None
        self.message: U.Message | None = None
        # The coach's latest hint (menu "hint"), judged at the next decision.
        self._hint: Hint | None = None
        self.instructions: tuple[str, ...] = ()
        self.eruption: U.Eruption | None = None
        self.auto_at: float | None = None
        self.pending: tuple[int, float] | None = None  # RFID decision waiting to settle
        self._board_dirty = False  # RFID: beach reports not yet compared with the game
        self.overlay_until: float | None = None  # a score page closes itself then
        self.hold: U.Mismatch | None = None
        """RFID: the board must match the game before a change on it counts again (after the
        game moved discs, or after a refusal); headline and reason of why."""
        self.link_ok, self.link_detail = True, ""
        self._proposal: tuple[int, int] | None = None  # (ply, decision) of the solo bot
        self._unacked: tuple[str, Any] | None = None
        self.paused: JournalError | None = None  # why the pending decision is not saved yet
        self._retry_at = 0.0
        self._last_frame: dict | None = None
        self._last_screen: oled.Screen | None = None
        self._last_image: bytes | None = None
        self.frames_sent = 0
        self.images_sent = 0
        self.closed = False
        self.scroll = 0
        self._digest_of: Game | None = None
        self.rendered_at = 0.0  # perf_counter() when the last frame went to the HAL
        self._digest = ""

        resumed = None
        if game is None and journal is not None:
            resumed = journal.recover()
            short = (journal.failed.short,) if journal.failed else ()
            self.notes = short or tuple(journal.notes[-2:])
        if resumed is not None:
            self.game = resumed
            self.sources = list(journal.sources) if journal else []
            if journal is not None:
                self._resume_solo(journal, solo, strength)
            log.info(
                "resumed game %s (%s, seed %d) at decision %d, digest %s",
                journal.game_id if journal else "-",
                resumed.variant,
                resumed.seed,
                len(resumed.history),
                resumed.digest(),
            )
        else:
            if game is None:
                game = Game(self.variant, seed if seed is not None else _seed(), start)
                if self._seeds is not None:
                    self._seeds.random()  # the first seed was used by this game
            self.game = game
            self.sources = ["player"] * len(game.history)
            if journal is not None:
                journal.start(game, **self._solo_settings())
            log.info(
                "new game %s (%s, seed %d, %s starts), digest %s",
                journal.game_id if journal else "-",
                game.variant,
                game.seed,
                PLAYERS[game.start],
                game.digest(),
            )
        self.sensed: list[frozenset[Any]] = list(beach_discs(self.game))
        self._refresh()

    # ------------------------------------------------------------------ public API

    def post(self, event: Any) -> None:
        """Queue an input event (any thread): the HAL's ``post`` callback."""
        self.events.put(event)

    def start(self) -> None:
        """Start the hardware inputs (posting to this controller) and draw the first frame."""
        self.hardware.inputs.start(self.post)
        self.render()
        if self.journal is not None:  # e.g. a game that ended just before a power cut
            self._housekeeping()

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

    def handle(self, event: Any) -> None:
        """Handle one input event; never raises (errors are logged and shown).

        Beach reports are only recorded here; the whole sensed board is compared with the
        game once no further event is queued (the driver posts one snapshot as one report
        per beach), or before an event of another kind is handled."""
        self.handled += 1
        try:
            self._dispatch(event)
            if self._board_dirty and self.events.empty():
                self._settle_board()
            self.consecutive_errors = 0
        except Exception as exc:
            self._internal_error(f"handling {event!r}", exc)
        self._finish()

    def tick(self) -> None:
        """Let time pass: timers that are due (forced decisions, settling discs, messages,
        animations). The daemon calls it when ``next_deadline`` comes."""
        try:
            if self._board_dirty:
                self._settle_board()
            self._timers(self.clock())
        except Exception as exc:
            self._internal_error("running timers", exc)
        self._finish()

    @property
    def must_match(self) -> str | None:
        """The headline while the game waits for the board to match (RFID kit)."""
        return self.hold.headline if self.hold is not None else None

    def next_deadline(self) -> float | None:
        """Clock time of the next timer or animation step; None: only events matter."""
        now = self.clock()
        state = self.ui_state(now)
        deadlines = [scenes.next_change(self.game, state, now)]
        if self.auto_at is not None and self._auto_ready():
            deadlines.append(self.auto_at)
        if self.bot_at is not None and self._auto_ready():
            deadlines.append(self.bot_at)
        if self._thinking is not None:
            deadlines.append(self._think_since + self.think_limit_s)
        if self.pending is not None:
            deadlines.append(self.pending[1])
        if self.paused is not None:
            deadlines.append(self._retry_at)
        elif self._board_dirty:
            deadlines.append(now)  # beach reports held while paused
        if self.message is not None and self.message.until > now:
            deadlines.append(self.message.until)
        if self.eruption is not None and self.eruption.until > now:
            deadlines.append(self.eruption.until)
        if self._scores_expire() is not None:
            deadlines.append(self._scores_expire())
        found = [d for d in deadlines if d is not None]
        return min(found) if found else None

    def expected_board(self) -> PhysicalBoard:
        """What should physically lie where: discs per beach, boat, shamans, statues, lava."""
        return physical_board(self.game)

    def sensed_board(self) -> tuple[frozenset[Any], ...]:
        """The discs the RFID readers last reported per beach (the game's, until told)."""
        return tuple(self.sensed)

    @property
    def shown(self) -> U.Chooser | None:
        """The chooser on the OLED (a menu or scores over the decision), if any."""
        return self.overlay or self.chooser

    @property
    def prompt(self) -> list[str]:
        """The OLED's current content as text lines (title first)."""
        now = self.clock()
        return oled.screen(self.game, self.ui_state(now), now).text()

    def status(self) -> str:
        """One line for systemd's STATUS= and the log."""
        g = self.game
        if g.is_terminal():
            result = g.result()
            assert result is not None
            text = f"game over: {result.winner} wins {result.scores[0]}-{result.scores[1]}"
        else:
            text = f"round {g.round}, {g.to_move} to {g.phase_name}"
        text += f", decision {len(g.history)}, digest {self.digest()}"
        if self.solo is not None:
            text += f", companion plays {self.solo} ({self.strength})"
            if self.thinking:
                text += ", thinking"
        if self.hold is not None or self.mismatch is not None:
            text += ", waiting for the board"
        if not self.link_ok:
            text += f", RFID: {self.link_detail or 'down'}"
        if self.errors:
            text += f", {self.errors} errors"
        if self.paused is not None:
            text += f", PAUSED: {self.paused.title.lower()}"
        return text

    def digest(self) -> str:
        """The game's digest, computed once per position."""
        if self._digest_of is not self.game:
            self._digest_of, self._digest = self.game, self.game.digest()
        return self._digest

    def healthy(self) -> bool:
        """For the watchdog: the loop runs and is not stuck failing on every event."""
        return not self.closed and self.consecutive_errors < MAX_CONSECUTIVE_ERRORS

    def ui_state(self, now: float | None = None) -> U.UiState:
        now = self.clock() if now is None else now
        return U.UiState(
            kit=self.kit,
            chooser=self.shown,
            mismatch=self.mismatch,
            message=self.message if self.message and self.message.until > now else None,
            instructions=self.instructions,
            eruption=self.eruption if self.eruption and self.eruption.until > now else None,
            auto_at=self.auto_at if self._auto_ready() else None,
            solo=self.solo,
            proposal=self._proposal[1] if self._proposal else None,
            thinking=self.thinking and self._bots_turn(),
            bot_at=self.bot_at if self._auto_ready() else None,
            pending_beach=self._pending_beach(),
            link_ok=self.link_ok,
            link_detail=self.link_detail,
            notes=self.notes,
            scroll=self.scroll,
        )

    def render(self) -> None:
        """Hand the LED frame and the OLED image to the HAL, each only when it changed."""
        now = self.clock()
        state = self.ui_state(now)
        frame = scenes.led_frame(self.game, state, now)
        if frame != self._last_frame:
            self.hardware.show_zones(frame)
            self._last_frame = frame
            self.frames_sent += 1
        shown = oled.screen(self.game, state, now)
        if shown != self._last_screen:
            image = oled.draw(shown)
            data = image.tobytes()
            if data != self._last_image:
                self.hardware.display.show(image)
                self._last_image = data
                self.images_sent += 1
            self._last_screen = shown
        self.rendered_at = time.perf_counter()

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

    # -- things the menu, the simulator and tests may call --------------------------

    def undo(self) -> bool:
        """Take back the last decision of a player (and the automatic ones after it)."""
        if self.paused is not None:  # the last decision is not saved yet
            self._say_paused()
            return False
        game = self.game
        players = [i for i, s in enumerate(self.sources) if s == "player"]
        if not game.history or not players:
            self._show("NOTHING TO UNDO", "No decision of yours to take back yet.")
            return False
        keep = players[-1]
        count = len(game.history) - keep
        target = replay(game.variant, game.seed, PLAYERS[game.start], game.history[:keep])
        texts = [game.format(d) for d in game.history[keep:]]
        self._forget_bot()
        self._unacked = ("undo", (game, list(self.sources), count))
        before = physical_board(game)
        self.game = target
        self.sources = self.sources[:keep]
        self._reset_ui()
        self.instructions = tuple(
            instructions(before, physical_board(target), back=True, discs=self.kit != "rfid")
        )
        self._show("UNDONE", "Took back " + ", ".join(texts), refusal=False)
        self._board_changed_by_game("UNDO: FIX THE BOARD")
        self._refresh()
        return True

    def new_game(self, variant: str | None = None, seed: int | None = None) -> None:
        """Start a new game (the current one is kept as a game log if it had decisions)."""
        variant = variant or self.variant
        old = self.game
        if self.journal is not None and old.history and self.journal.archived is None:
            try:
                path = self.journal.archive(old)
                log.info("kept the previous game as %s", path)
            except OSError as exc:
                log.error("could not keep the previous game's log: %s", exc)
        if seed is None:
            seed = self._seeds.randrange(2**31) if self._seeds is not None else _seed()
        game = Game(variant, seed)
        if self.journal is not None:
            self.journal.start(game, **self._solo_settings())
        self._unacked, self.paused = None, None  # a decision held by a pause went with the game
        self.game = game
        self.sources = []
        self.variant = variant
        self._forget_bot()
        self._reset_ui()
        self.instructions = ()
        self.notes = ()
        log.info(
            "new game %s (%s, seed %d, %s starts), digest %s",
            self.journal.game_id if self.journal else "-",
            variant,
            seed,
            PLAYERS[game.start],
            game.digest(),
        )
        self._board_changed_by_game("CLEAR THE BOARD")
        self._refresh()

    # ------------------------------------------------------------------ dispatch

    def _dispatch(self, event: Any) -> None:
        deciding = isinstance(event, ButtonPressed | ButtonHeld | EncoderTurned)
        if self.paused is not None and deciding:  # nothing is decided until the last is saved
            if isinstance(event, EncoderTurned) and type(event.steps) is int:
                now = self.clock()  # but the encoder scrolls the message (a long chown)
                self.scroll = max(0, self.scroll + event.steps)
                self.scroll = oled.screen(self.game, self.ui_state(now), now).offset
            else:
                self._say_paused()
            return
        if not isinstance(event, BeachContents) and self._board_dirty:
            self._settle_board()  # the board as it was before this event happened
        if not isinstance(event, EncoderTurned):
            self.scroll = 0
        if isinstance(event, ButtonPressed | ButtonHeld) or (
            isinstance(event, EncoderTurned) and self.shown is not None
        ):
            self.message = None  # a new action: an old refusal must not hide its result
        if isinstance(event, BeachContents):
            self._on_beach(event)
        elif isinstance(event, ButtonPressed):
            self._on_press(event.button)
        elif isinstance(event, ButtonHeld):
            if event.button == "back":
                self.overlay = None
                self.undo()
            else:  # a long press of any other button is still a press
                self._on_press(event.button)
        elif isinstance(event, EncoderTurned):
            self._on_turn(event.steps)
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
        if self._unacked is not None and (self.paused is None or self.clock() >= self._retry_at):
            self._acknowledge()
        if self.journal is not None:
            self._housekeeping()

    def _internal_error(self, what: str, exc: Exception) -> None:
        self.errors += 1
        self.consecutive_errors += 1
        log.exception("internal error while %s (the game is unchanged)", what)
        with contextlib.suppress(Exception):
            self._show("SORRY", f"Internal error ({exc.__class__.__name__}); logged. Go on.")

    # ------------------------------------------------------------------ timers

    def _auto_ready(self) -> bool:
        return (
            self.overlay is None and self.mismatch is None and self.hold is None and not self.paused
        )

    def _pending_beach(self) -> int | None:
        """The beach of the disc move waiting to settle (a disc move is all that waits)."""
        if self.pending is None:
            return None
        move = decode(self.pending[0], self.game.board)
        return move.beach if isinstance(move, Place | Return) else None

    def _timers(self, now: float) -> None:
        if self.message is not None and self.message.until <= now:
            self.message = None
        if self.eruption is not None and self.eruption.until <= now:
            self.eruption = None
        expire = self._scores_expire()
        if expire is not None and expire <= now:
            self._close_overlay()
        if self.pending is not None and self.pending[1] <= now and self.paused is None:
            self._reconcile(settled=True)
        if self.auto_at is not None and now >= self.auto_at and self._auto_ready():
            legal = self.game.legal_actions()
            if len(legal) == 1:
                self._decide(legal[0], "auto")
        self._bot_timers(now)

    # ------------------------------------------------------------------ buttons

    def _on_press(self, button: str) -> None:
        if button == "back":
            self._on_back()
        elif button == "select":
            self._on_select()
        elif isinstance(button, str) and button.startswith("beach"):
            self._on_beach_button(button)
        else:
            log.warning("unknown button %r pressed", button)
            self._show("UNKNOWN BUTTON", f"{button!r} is not a button of this kit.")

    def _on_back(self) -> None:
        if self.overlay is not None:
            if self.overlay.kind == U.CONFIRM_NEW:
                self._open_menu()
            else:
                self._close_overlay()
        elif (
            self.chooser is not None
            and self.chooser.kind in (U.BEACH, U.BOAT)
            and (self.chooser.cancellable)
        ):
            self.chooser = None
            self._refresh()
        else:
            self._open_menu()

    def _on_select(self) -> None:
        if self.overlay is not None:
            self._select_overlay()
            return
        if self.pending is not None:  # placed next to the boat: no invocation disc, go on
            self._reconcile(settled=True)
            return
        if self.mismatch is not None or self.hold is not None:
            self._show("FIX THE BOARD", "First make the board match (see the beaches flashing).")
            return
        game = self.game
        chooser = self.chooser
        if chooser is not None and chooser.kind == U.PROPOSAL and chooser.current is None:
            self._show("THINKING", "The companion is still thinking: a moment.", refusal=False)
            return
        if chooser is not None and chooser.current is not None:
            value = chooser.current.value
            if chooser.kind == U.PROPOSAL:
                if needs_hands(value, self.kit) == "board":
                    self._show(
                        "COMPANION'S TURN",
                        describe(game, value) + ": the readers will see it.",
                    )
                    return
                self._decide(value, "bot")
            elif value == "cancel":
                self.chooser = None
                self._refresh()
            else:
                self._decide(value, "player")
            return
        if game.phase == OVER:
            records = game.scorings
            if records:
                self._open_scores(records[-1], "FINAL SCORES")
            return
        if game.phase == TURN:
            boat = encode(Boat())
            if boat in game.legal_actions():
                dest = (game.boat + 1) % game.board.segments
                self.chooser = U.Chooser(
                    U.BOAT,
                    f"{PLAYERS[game.decider].upper()}: BOAT?",
                    (U.Option(f"yes, boat to {dest}", boat), U.Option("no", "cancel")),
                )
            else:
                self._show("NOT NOW", game.why_illegal(boat) or "", refusal=True)

    def _on_beach_button(self, button: str) -> None:
        suffix = button[len("beach") :]
        if not suffix.isdigit() or not 0 <= int(suffix) < BEACHES:
            log.warning("button %r names no beach", button)
            self._show("NO SUCH BEACH", f"{button!r}: beaches are 0 to {BEACHES - 1}.")
            return
        beach = int(suffix)
        if self.kit == "rfid":
            self._show("RFID KIT", "The readers see the discs: just put the disc down.")
            return
        self.overlay = None
        game = self.game
        if game.phase != TURN:
            self._show("NOT NOW", f"{PLAYERS[game.decider]} must first {PHASE_WORDS[game.phase]}.")
            return
        if self._bots_turn():
            self._show("COMPANION'S TURN", "Do what the companion says, then press select.")
            return
        chooser = self.chooser
        if chooser is not None and chooser.kind == U.BEACH and chooser.subject == beach:
            self.chooser = chooser.moved(1)  # pressing again cycles, for kits without a knob
            return
        options = self._beach_options(beach)
        if not options:
            self.chooser = None
            self._show(
                f"NOT ON BEACH {beach}",
                self._why_not_beach(beach),
                refusal=True,
                beaches=(beach,),
            )
            return
        self.chooser = U.Chooser(
            U.BEACH, f"{PLAYERS[game.decider].upper()}: BEACH {beach}", tuple(options), 0, beach
        )

    def _beach_options(self, beach: int) -> list[U.Option]:
        game = self.game
        placements, invocations, returns = [], [], []
        for d in game.legal_actions():
            match decode(d, game.board):
                case Place(v, b, invoke=False) if b == beach:
                    placements.append(U.Option(f"place {v}", d))
                case Place(v, b, invoke=True) if b == beach:
                    invocations.append(U.Option(f"place {v} + invocation", d))
                case Return(v, b) if b == beach:
                    returns.append(U.Option(f"take back {v}", d))
        return placements + invocations + returns

    def _why_not_beach(self, beach: int) -> str:
        game = self.game
        p = game.decider
        supply = [v for v in game.board.discs if game.disc_at[p][v] < 0]
        if supply:
            return game.why_illegal(encode(Place(supply[0], beach))) or "no disc may go there now"
        mine = [v for v in game.board.discs if game.disc_at[p][v] == beach]
        if mine:
            return game.why_illegal(encode(Return(mine[0], beach))) or "no disc may leave it now"
        return f"all {PLAYERS[p]}'s discs are on the island and none on beach {beach}"

    def _on_turn(self, steps: Any) -> None:
        if not isinstance(steps, int) or isinstance(steps, bool):
            log.warning("encoder event with steps %r ignored", steps)
            return
        if self.overlay is not None:
            self.overlay = self.overlay.moved(steps)
        elif self.chooser is not None:
            self.chooser = self.chooser.moved(steps)
        else:  # a long text on the OLED scrolls (as far as there is text)
            self.scroll = max(0, self.scroll + steps)
            now = self.clock()
            self.scroll = oled.screen(self.game, self.ui_state(now), now).offset

    # ------------------------------------------------------------------ menus

    def _menu_options(self) -> tuple[U.Option, ...]:
        options = [U.Option("resume", "resume")]
        players = [i for i, s in enumerate(self.sources) if s == "player"]
        if players:
            d = self.game.history[players[-1]]
            options.append(U.Option(f"undo {self.game.format(d)}", "undo"))
        options.append(U.Option(f"new game ({self.variant})", "new"))
        options.append(U.Option(f"variant: {self.variant}", "variant"))
        options.append(
            U.Option(f"companion: {self.solo}" if self.solo else "companion: off", "solo")
        )
        options.append(U.Option(f"strength: {self.strength}", "strength"))
        if not self.game.is_terminal() and self.game.to_move != self.solo:
            options.append(U.Option("hint", "hint"))
        if self.game.scorings:
            options.append(U.Option("scores", "scores"))
        return tuple(options)

    def _open_menu(self, cursor: int = 0) -> None:
        options = self._menu_options()
        self.overlay = U.Chooser(U.MENU, "MENU", options, cursor % len(options))

    def _open_scores(self, record: dict, title: str) -> None:
        self.overlay = U.Chooser(U.SCORES, title, (U.Option("page", "page"),) * 4, 0, record)
        self.overlay_until = self.clock() + SCORES_S

    def _scores_expire(self) -> float | None:
        """When the score page on the OLED closes by itself (None: no score page)."""
        if self.overlay is not None and self.overlay.kind == U.SCORES:
            return self.overlay_until
        return None

    def _close_overlay(self) -> None:
        self.overlay = None
        self.overlay_until = None
        if self.auto_at is not None and self.auto_at < self.clock():
            self.auto_at = self.clock() + self.auto_s  # the countdown starts again
        if self.bot_at is not None and self.bot_at < self.clock():
            self.bot_at = self.clock() + self.solo_show_s

    def _select_overlay(self) -> None:
        overlay = self.overlay
        assert overlay is not None
        if overlay.kind == U.SCORES:
            self._close_overlay()
            return
        value = overlay.current.value if overlay.current else None
        if overlay.kind == U.CONFIRM_NEW:
            if value == "yes":
                self.overlay = None
                self.new_game()
            else:
                self._open_menu()
            return
        if value == "resume":
            self._close_overlay()
        elif value == "undo":
            self.overlay = None
            self.undo()
        elif value == "new":
            self.overlay = U.Chooser(
                U.CONFIRM_NEW,
                "NEW GAME?",
                (U.Option("no, go back", "no"), U.Option(f"yes, {self.variant} game", "yes")),
            )
        elif value == "variant":
            self.variant = VARIANTS[(VARIANTS.index(self.variant) + 1) % len(VARIANTS)]
            self._open_menu(overlay.cursor)
        elif value in ("solo", "strength"):
            if value == "solo":
                seats = [None, *PLAYERS]
                self.solo = seats[(seats.index(self.solo) + 1) % len(seats)]
            else:
                names = list(STRENGTHS)
                self.strength = names[(names.index(self.strength) + 1) % len(names)]
            log.info("solo: the companion plays %s (%s)", self.solo or "nobody", self.strength)
            self._record_solo()
            self._forget_bot()
            self._open_menu(overlay.cursor)
            self._refresh()
        elif value == "scores" and self.game.scorings:
            self._open_scores(self.game.scorings[-1], f"SCORING {len(self.game.scorings)}")
        elif value == "hint" and not self.game.is_terminal():
            self.overlay = None
            self._give_hint()

    def _give_hint(self) -> None:
        """The coach's decision for the player to move, its reason on the OLED and in the
        log (a ``hint`` record of NOTATION.md); judged when the player decides."""
        from haleakala.ai.coach import BOARD_HINT_ITERATIONS, advise

        hint = advise(self.game, iterations=BOARD_HINT_ITERATIONS, seed=len(self.game.history))
        self._hint = hint
        log.info("hint: %s", hint.record())
        self._show(f"HINT: {hint.notation}", hint.reason, refusal=False)

    # ------------------------------------------------------------------ RFID board

    def _on_beach(self, event: BeachContents) -> None:
        beach = event.beach
        if isinstance(beach, bool) or not isinstance(beach, int) or not 0 <= beach < BEACHES:
            log.warning("beach contents for beach %r ignored: beaches are 0..5", beach)
            self._show("NO SUCH BEACH", f"The readers reported beach {beach!r}; ignored.")
            return
        if self.kit != "rfid":
            log.info("beach contents ignored: the %s kit has no readers", self.kit)
            return
        try:
            discs: frozenset[Any] = frozenset(event.discs)
        except TypeError:
            discs = frozenset({"?"})
        self.sensed[beach] = discs
        if self.overlay is not None and self.overlay.kind == U.MENU:
            self._close_overlay()  # a hand on the board: the board matters now
        self._board_dirty = True  # compared once the snapshot's other beaches are in

    def _settle_board(self) -> None:
        if self.paused is not None:
            return  # compared once the pending decision is saved
        self._board_dirty = False
        self._reconcile()

    def _board_changed_by_game(self, headline: str) -> None:
        """The game moved discs (or was replaced): on the RFID kit the players must now make
        the board match before any disc on it means a decision again."""
        if self.kit != "rfid":
            return
        self.pending = None
        self.hold = None
        if tuple(self.sensed) != beach_discs(self.game):
            self.hold = U.Mismatch((), headline, "", (), refusal=False)
        self._reconcile()

    def _reconcile(self, settled: bool = False) -> None:
        expected = beach_discs(self.game)
        sensed = tuple(self.sensed)
        self.pending = None
        if sensed == expected:
            self.mismatch = None
            if self.hold is not None:
                self.hold = None
                self._refresh()
            return
        diff = [
            (b, sensed[b] - expected[b], expected[b] - sensed[b])
            for b in range(len(expected))
            if sensed[b] != expected[b]
        ]
        beaches = tuple(b for b, _, _ in diff)
        fixes = tuple(disc_instructions(sensed, expected))
        bots = self._bots_turn() and self.game.phase != OVER
        verdict = self._judge_for_bot(diff, sensed, expected) if bots else self._judge(diff)
        if verdict is None:  # on the way to the companion's move: nothing to say yet
            self.mismatch = None if self.hold is None else replace(self.hold, beaches=beaches)
            return
        if isinstance(verdict, tuple):  # refused: why, and wait for the board
            if self.hold is None or self.hold.refusal:
                self._refuse(beaches, *verdict, fixes)
            elif verdict[0] == UNKNOWN_TAG:  # name the stranger, still wait for the board
                self.mismatch = U.Mismatch(beaches, *verdict, fixes)
            else:  # the game asked for a change first (discs back, undo, new game)
                self.mismatch = replace(self.hold, beaches=beaches, fixes=fixes)
            return
        if self.hold is not None:  # a legal-looking board on the way back counts for nothing
            self.mismatch = replace(self.hold, beaches=beaches, fixes=fixes)
            return
        d = verdict
        game = self.game
        move = decode(d, game.board)
        if (
            not settled
            and not bots  # the companion said what it plays: nothing to wait for
            and self.settle_s > 0
            and (
                isinstance(move, Return)  # lifted: perhaps on its way to another beach
                or (
                    isinstance(move, Place)
                    and not move.invoke
                    and move.beach == game.boat
                    # the invocation disc may follow
                    and encode(replace(move, invoke=True)) in game.legal_actions()
                )
            )
        ):
            self.mismatch = None
            self.pending = (d, self.clock() + self.settle_s)
            return
        self.mismatch = None
        self._decide(d, "bot" if bots else "player")

    def _judge(self, diff: list) -> int | tuple[str, str]:
        """The legal decision a board change means, or (headline, reason) why it is none."""
        strange = self._strange_pieces(diff)
        if strange is not None:
            return strange
        inferred = self._infer(diff)
        if inferred is None:
            return self._classify(diff)
        d, colour = inferred
        game = self.game
        if colour != PLAYERS[game.decider] or game.phase != TURN:
            return self._not_now(colour)
        refusal = game.refusal(d)
        if refusal is not None:
            return _headline(refusal), refusal.text
        return d

    def _refuse(self, beaches: tuple[int, ...], headline: str, reason: str, fixes: tuple) -> None:
        """A board change the game does not accept: say why, and wait until the board
        matches the game again (an intermediate board on the way back means nothing)."""
        self.mismatch = U.Mismatch(beaches, headline, reason, fixes)
        self.hold = U.Mismatch((), headline, reason, ())
        log.info("refused board change: %s: %s", headline, reason)

    @staticmethod
    def _strange_pieces(diff: list) -> tuple[str, str] | None:
        """A tag the readers report but the ``[tags]`` table does not name (the RFID driver
        posts it as an ``UnknownTag``): which beach, and how to enrol it."""
        for beach, added, _ in diff:
            for piece in sorted(added, key=str):
                if not isinstance(piece, Disc):
                    return (
                        UNKNOWN_TAG,
                        f"Beach {beach} holds tag {piece}, no disc of this kit: take it off "
                        "(or enrol it: haleakala tags enroll).",
                    )
        return None

    def _infer(self, diff: list) -> tuple[int, str] | None:
        """The single decision a board change means, with the colour of its discs."""
        if len(diff) != 1:
            return None
        beach, added, removed = diff[0]
        if added and removed:
            return None
        if len(added) == 1 and not removed:
            (disc,) = added
            if disc.value == INVOCATION:
                return None
            return encode(Place(disc.value, beach)), disc.colour
        if len(added) == 2 and not removed:
            a, b = sorted(added, key=lambda d: d.value)
            if a.value == INVOCATION and b.value != INVOCATION and a.colour == b.colour:
                return encode(Place(b.value, beach, invoke=True)), b.colour
            return None
        if len(removed) == 1 and not added:
            (disc,) = removed
            if disc.value == INVOCATION:
                return None
            return encode(Return(disc.value, beach)), disc.colour
        return None

    def _not_now(self, colour: str) -> tuple[str, str]:
        game = self.game
        if game.phase == OVER:
            return "GAME OVER", "The game is over: put the discs away (back: menu)."
        whose = PLAYERS[game.decider]
        if colour != whose:
            if self._bots_turn():
                return "COMPANION'S TURN", f"It is the companion's ({whose}) turn, not {colour}'s."
            return "OUT OF TURN", f"It is {whose}'s turn, not {colour}'s."
        return "NOT NOW", f"{whose} must first {PHASE_WORDS[game.phase]}."

    def _classify(self, diff: list) -> tuple[str, str]:
        """Headline and reason for a board change that is no single decision."""
        game = self.game
        added = [(b, d) for b, a, _ in diff for d in a]
        removed = [(b, d) for b, _, r in diff for d in r]
        for b, disc in added:
            if disc.value == INVOCATION and not game.tactical:
                return "NO INVOCATION", (
                    f"There are no invocation discs in the base game: take it off beach {b}."
                )
        moved = [(src, dst, d) for src, d in removed for dst, e in added if d == e]
        if moved:
            src, dst, disc = moved[0]
            if game.phase == TURN and disc.colour == PLAYERS[game.decider]:
                why = "a turn places one disc or takes one back"
            else:
                why = f"it belongs on beach {src}"
            return (
                "WRONG BEACH",
                f"{disc_words(disc)} moved from beach {src} to beach {dst}: {why}.",
            )
        seen_twice = [
            (b, d)
            for b, d in added
            if any(d in beach and i != b for i, beach in enumerate(self.sensed))
        ]
        if seen_twice:
            b, disc = seen_twice[0]
            return "SEEN TWICE", f"{disc_words(disc)} is read on two beaches (one is beach {b})."
        if len(diff) == 1 and len(added) == 1 and added[0][1].value == INVOCATION:
            b, disc = added[0]
            d = encode(Place(1, b, invoke=True))
            refusal = game.refusal(d) if game.phase == TURN else None
            if refusal and refusal.kind not in ("sum_rule", "disc_already_out"):
                return "WRONG BEACH" if refusal.ruling == "R26" else "NOT ALLOWED", refusal.text
            return "INVOCATION", "Put a number disc with your invocation disc (same beach)."
        if len(added) + len(removed) > 1:
            colours = {d.colour for _, d in added + removed}
            return "TWO DISCS AT ONCE", (
                "One disc per turn: "
                + disc_list(d for _, d in added + removed)
                + (" moved" if len(colours) == 1 else " changed")
                + " together."
            )
        return "BOARD DIFFERS", "The board does not match the game."

    # ------------------------------------------------------------------ decisions

    def _bots_turn(self) -> bool:
        return self.solo is not None and self.game.to_move == self.solo

    def _decide(self, d: int, by: str) -> None:
        """Apply a decision (on a copy: the game changes only if the rules accept it)."""
        if self.paused is not None:  # the last decision is not saved yet
            self._say_paused()
            return
        before = self.game
        trial = before.clone()
        try:
            events = trial.apply(d)
        except IllegalDecision as exc:
            self._show("NOT ALLOWED", str(exc), refusal=True)
            return
        self._unacked = ("decision", (before, by))
        self.game = trial
        self.sources.append(by)
        self._after_decision(before, events, d)
        hint, self._hint = self._hint, None
        if hint is not None and by == "player" and hint.ply == len(before.history):
            from haleakala.ai.coach import judge

            log.info("hint judged: %s", judge(hint, d))
            self._show("HINT", judge(hint, d), refusal=False)

    def _after_decision(self, before: Game, events: list[tuple], d: int) -> None:
        now = self.clock()
        self._reset_ui()
        self.instructions = tuple(
            instructions(
                physical_board(before), physical_board(self.game), discs=self.kit != "rfid"
            )
        )
        for event in events:
            kind = event[0]
            if kind == "eruption":
                destroyed = tuple(
                    s for s in (before.board.parse_space(n) for n in event[2]) if s is not None
                )
                lava = tuple(before.lava)
                self.eruption = U.Eruption(now, now + ERUPTION_S, lava, destroyed)
            elif kind == "scoring":
                record = event[1]
                if record.get("round") != 2:
                    self._open_scores(record, f"SCORING {record.get('round', '')}")
        if self.game.phase == OVER and self.game.scorings:
            self._open_scores(self.game.scorings[-1], "FINAL SCORES")
        self._board_changed_by_game("TAKE DISCS BACK")
        self._refresh()

    def _reset_ui(self) -> None:
        self.chooser = None
        self.overlay = None
        self.overlay_until = None
        self.mismatch = None
        self.message = None
        self.pending = None
        self.auto_at = None

    def _refresh(self) -> None:
        """Rebuild the decision chooser for the current phase (after any game change)."""
        game = self.game
        self.auto_at = None
        self.bot_at = None
        if not self._bots_turn():
            self._thinking = None  # solo turned off, or no longer its turn: a late answer is stale
        if game.phase == OVER:
            self.chooser = None
            return
        if self._bots_turn():
            self._companions_turn()
            return
        legal = game.legal_actions()
        if game.phase == TURN:
            if self.chooser is not None and self.chooser.kind not in (U.BEACH, U.BOAT):
                self.chooser = None
            if len(legal) == 1 and isinstance(decode(legal[0], game.board), Boat):
                self.chooser = U.Chooser(
                    U.BOAT,
                    f"{PLAYERS[game.decider].upper()}: MOVE BOAT",
                    (U.Option(f"boat to {(game.boat + 1) % game.board.segments}", legal[0]),),
                    cancellable=False,
                )
                self.auto_at = self.clock() + self.auto_s
            return
        options = self._decision_options(legal)
        self.chooser = U.Chooser(
            U.DECISION,
            f"{PLAYERS[game.decider].upper()}: {PHASE_TITLES[game.phase]}",
            tuple(options),
            cancellable=False,
        )
        if len(legal) == 1:
            self.auto_at = self.clock() + self.auto_s

    def _decision_options(self, legal: list[int]) -> list[U.Option]:
        game = self.game
        b = game.board
        first, rest = [], []
        for d in legal:
            match decode(d, b):
                case Shaman(None):
                    here = b.space_name(game.shaman[game.decider])
                    first.append(U.Option(f"stay on {here}", d))
                case Shaman(space) if space is not None:
                    name = b.space_name(space)
                    rest.append(U.Option(f"{name} {BAND_WORDS[name[1]]}", d))
                case Take(slot):
                    card = game.deck.cards[game.slots[slot]]
                    rest.append(U.Option(f"{b.slot_name(slot)} {card.name}", d))
                case Lava(None, None):
                    first.append(U.Option("no lava to move", d))
                case Lava():
                    rest.append(U.Option(game.format(d).replace(">", " to "), d))
                case Buy(item):
                    name, cost = game.deck.board_items[item]
                    rest.append(U.Option(f"{name} ({cost})", d))
                case Keep():
                    first.append(U.Option("keep the shell", d))
                case Pass():
                    first.append(U.Option("buy nothing", d))
                case _:
                    rest.append(U.Option(game.format(d), d))
        return first + rest

    # ------------------------------------------------------------------ solo

    def _solo_settings(self) -> dict[str, Any]:
        return {"solo": self.solo, "strength": self.strength}

    def _resume_solo(self, journal: Journal, solo: str | None, strength: str | None) -> None:
        """A resumed game keeps the companion's seat as the journal recorded it, unless
        the command line says otherwise (then that is recorded for the next restart)."""
        if solo is None:
            self.solo = journal.solo
        if strength is None and journal.strength in STRENGTHS:
            self.strength = journal.strength
        if (self.solo, self.strength) != (journal.solo, journal.strength):
            self._record_solo()
        if self.solo is not None:
            log.info("solo: the companion plays %s (%s)", self.solo, self.strength)

    def _record_solo(self) -> None:
        if self.journal is None:
            return
        try:
            self.journal.append_solo(self.solo, self.strength)
        except JournalError as exc:  # a setting: the game itself is not at risk
            log.error("solo setting not saved (a restart may forget it): %s", exc)

    def stop_bot(self) -> None:
        """Forget the companion's pending thought and stop its thread (shutdown, power cut)."""
        self._thinking = None
        if self._thinker is not None:
            self._thinker.close()
            self._thinker = None

    @property
    def thinking(self) -> bool:
        """Solo: the companion's bot is working out its decision."""
        return self._thinking is not None

    def _forget_bot(self) -> None:
        """The position changed under the bot (undo, new game, a menu change): its pending
        answer and its shown decision no longer apply."""
        self._thinking = None
        self._proposal = None
        self.bot_at = None
        if self._thinker is not None:
            self._thinker.cancel()

    def _companions_turn(self) -> None:
        """Show the companion's decision for this position, or ask its bot for one."""
        game = self.game
        ply = len(game.history)
        title = f"COMPANION ({PLAYERS[game.decider].upper()})"
        if self._proposal is not None and self._proposal[0] == ply:
            d = self._proposal[1]
            headline, how = proposal_words(game, d, self.kit)
            self.chooser = U.Chooser(
                U.PROPOSAL,
                title,
                (U.Option(game.format(d), d, f"{headline} - {how}" if how else headline),),
                cancellable=False,
            )
            if needs_hands(d, self.kit) == "none":
                self.bot_at = self.clock() + self.solo_show_s
            return
        self.chooser = U.Chooser(U.PROPOSAL, title, (), cancellable=False)  # thinking
        legal = game.legal_actions()
        if len(legal) == 1:  # nothing to think about
            self._proposal = (ply, legal[0])
            self._companions_turn()
            return
        if self._thinking is not None and self._thinking[1] == ply:
            return  # already asked
        self._requests += 1
        self._thinking = (self._requests, ply)
        self._think_since = self.clock()
        if self._thinker is None:
            self._thinker = BotThinker(self.post, self._bot_factory)
        self._thinker.request(self._thinking, game.clone(), self.strength, bot_seed(game))
        log.info("solo: %s (%s) thinks about decision %d", self.solo, self.strength, ply + 1)

    def _on_bot_decided(self, event: BotDecided) -> None:
        game = self.game
        if (
            event.tag != self._thinking
            or not self._bots_turn()
            or event.tag[1] != len(game.history)
        ):
            log.info("solo: dropped a stale answer of the bot (asked %s)", event.tag)
            return
        self._thinking = None
        d = event.decision
        if event.error or d not in game.legal_actions():  # never trust a bot with the game
            d = self._fallback(f"bot answered {d!r} {event.error}".strip())
        log.info(
            "solo: %s (%s) decided %s in %.2f s",
            self.solo,
            self.strength,
            game.format(d),
            event.seconds,
        )
        self._proposal = (len(game.history), d)
        if self.message is not None and self.message.title == "THINKING":
            self.message = None  # "still thinking" is answered
        self._companions_turn()

    def _fallback(self, why: str) -> int:
        """A decision when the bot fails: the greedy bot's, thought out here (a few ms)."""
        from haleakala.ai import make_bot

        game = self.game
        try:
            d = make_bot("greedy", seed=bot_seed(game)).decide(game.clone())
        except Exception:
            log.exception("the greedy fallback failed too")
            d = None
        if d not in game.legal_actions():
            d = game.legal_actions()[0]
        log.error("solo: %s; %s is played instead", why, game.format(d))
        return d

    def _bot_timers(self, now: float) -> None:
        if (
            self._thinking is not None
            and now - self._think_since >= self.think_limit_s
            and self._bots_turn()
        ):
            self._thinking = None
            self._proposal = (len(self.game.history), self._fallback("the bot did not answer"))
            self._companions_turn()
        if self.bot_at is not None and now >= self.bot_at and self._auto_ready():
            self.bot_at = None
            proposal = self._proposal
            if self._bots_turn() and proposal and proposal[0] == len(self.game.history):
                self._decide(proposal[1], "bot")

    def _judge_for_bot(
        self, diff: list, sensed: tuple, expected: tuple
    ) -> int | tuple[str, str] | None:
        """RFID, the companion's turn: its disc laid where it said (the decision), on the
        way there (None: wait quietly, e.g. the number disc before the invocation disc), or
        anything else (headline and reason)."""
        strange = self._strange_pieces(diff)
        if strange is not None:
            return strange
        game = self.game
        whose = PLAYERS[game.decider]
        proposal = self._proposal
        if proposal is None or proposal[0] != len(game.history):
            return "COMPANION'S TURN", (
                f"The companion ({whose}) is still thinking: leave the board as it was."
            )
        d = proposal[1]
        move = decode(d, game.board)
        if not isinstance(move, Place | Return):
            return "COMPANION'S TURN", f"The companion plays: {describe(game, d)}."
        target = list(expected)
        beach, value = move.beach, move.value
        if isinstance(move, Return):
            target[beach] = expected[beach] - {Disc(whose, value)}
        else:
            extra = {Disc(whose, value)} | ({Disc(whose, INVOCATION)} if move.invoke else set())
            target[beach] = expected[beach] | extra
        if sensed == tuple(target):
            return d
        if all(
            expected[b] & target[b] <= sensed[b] <= expected[b] | target[b]
            for b in range(len(expected))
        ):
            return None
        return "COMPANION'S TURN", f"The companion plays: {describe(game, d)}."

    # ------------------------------------------------------------------ durability

    def _acknowledge(self) -> None:
        kind, data = self._unacked  # type: ignore[misc]
        game = self.game
        try:
            if self.journal is not None and kind == "decision":
                self.journal.append_decision(game, data[1], self.digest())
            elif self.journal is not None:
                self.journal.append_undo(game, data[2])
        except JournalError as exc:
            self._pause(exc)
            return
        self._unacked = None
        if self.paused is not None:
            log.warning("journal written again: the game goes on")
            self.paused, self.message = None, None
        if kind == "decision":
            before, by = data
            digest = self.digest()
            self.acknowledged += 1
            log.info(
                "ack decision %d %s %s by %s digest %s",
                len(game.history),
                PLAYERS[before.decider],
                game.format(game.history[-1]),
                by,
                digest,
            )
        else:
            count = data[2]
            log.info(
                "ack undo %d to decision %d digest %s", count, len(game.history), game.digest()
            )

    def _pause(self, exc: JournalError) -> None:
        """The journal cannot be written: keep the decision shown but unacknowledged, refuse
        new ones, and try again every RETRY_S (``_finish``), so the game goes on by itself."""
        if self.paused is None or self.paused.errno != exc.errno:
            log.error("game paused, the last decision is not saved yet: %s", exc)
        self.paused = exc
        self._retry_at = self.clock() + RETRY_S
        self._say_paused()
        self.render()

    def _say_paused(self) -> None:
        assert self.paused is not None
        until = self._retry_at + MESSAGE_S  # shown until the retry after next
        self.message = U.Message(self.paused.title, self.paused.short, refusal=True, until=until)

    def _housekeeping(self) -> None:
        journal = self.journal
        assert journal is not None
        if self.paused is not None:
            return  # the game log and snapshot wait for the pending decision
        try:
            if journal.snapshot_due:
                journal.write_snapshot(self.game)
            if self.game.is_terminal() and journal.archived is None:
                path = journal.archive(self.game)
                log.info("game over; game log kept as %s", path)
        except OSError as exc:
            log.error("snapshot or game log not written: %s", exc)

    # ------------------------------------------------------------------ messages

    def _show(
        self, title: str, text: str, *, refusal: bool = True, beaches: tuple[int, ...] = ()
    ) -> None:
        self.message = U.Message(
            title, text, refusal=refusal, beaches=beaches, until=self.clock() + MESSAGE_S
        )
        if refusal:
            log.info("refused: %s: %s", title, text)


HEADLINES: dict[str, str] = {
    "invocation_tactical_only": "NO INVOCATION",
    "sum_rule": "SUM RULE",
    "invocation_beach": "WRONG BEACH",
    "disc_already_out": "DISC ALREADY OUT",
    "disc_not_there": "WRONG BEACH",
    "discs_in_supply": "NOT YET",
}


def _headline(refusal: Refusal) -> str:
    """The OLED headline of a refused disc move, by the refusal's kind (never its words)."""
    return HEADLINES.get(refusal.kind, "NOT ALLOWED")


def describe(game: Game, d: int) -> str:
    """A decision in words, as the companion tells players to carry it out."""
    b = game.board
    colour = PLAYERS[game.decider]
    match decode(d, b):
        case Place(v, beach, invoke=False):
            return f"put {colour} {v} on beach {beach}"
        case Place(v, beach, invoke=True):
            return f"put {colour} {v} and the invocation disc on beach {beach}"
        case Return(v, beach):
            return f"take {colour} {v} off beach {beach}"
        case Boat():
            return f"move the boat to {(game.boat + 1) % b.segments}"
        case Shaman(None):
            return f"the {colour} shaman stays"
        case Shaman(space) if space is not None:
            return f"{colour} shaman to {b.space_name(space)}"
        case Take(slot):
            card = game.deck.cards[game.slots[slot]]
            return f"{colour} takes {b.slot_name(slot)} ({card.name})"
        case Lava(None, None):
            return "no lava to move"
        case Lava(source, target):
            return f"move lava from crater {source} to {target}"
        case Buy(item):
            return f"{colour} buys {game.deck.board_items[item][0]}"
    return f"{colour}: {game.format(d)}"
