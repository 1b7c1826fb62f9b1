"""One simulated kit: the real companion on the ``sim`` backend, plus the table and its players.

A ``SimSession`` owns what sits on and under a simulated island:

- the hardware (``SimHardware``: recorded LEDs and OLED, injected buttons and encoder) and,
  for the RFID kit, a virtual Pico read by the real driver (``rfid``);
- the companion itself (``haleakala.companion.controller.Companion``) with its journal in a
  state directory, exactly as the daemon runs it; the session calls ``pump`` where the
  daemon's loop would, so the window and the scenarios drive the same code path;
- the table (``board.Table``): the wooden pieces, moved as the companion instructs, wrong on
  purpose in misplace mode;
- the players' hands: ``perform(decision)`` makes a decision with the physical inputs
  (``companion.hands``: the option's encoder steps, the discs to lay or lift), reading the
  OLED's chooser like a player; ``follow_companion()`` carries out the solo companion's.

The game flow lives only in the companion: the session never calls ``Game.apply``.
"""

from __future__ import annotations

import contextlib
import random
import tempfile
import time
from collections import deque
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from haleakala import palette as colour_modes
from haleakala.companion.hands import PerformError
from haleakala.config import Config
from haleakala.core.text import Param, Text
from haleakala.games.haleakala import PLAYERS, Game
from haleakala.hal.events import Disc
from haleakala.hal.simulated import SimClock, SimHardware
from haleakala.i18n import N_

from .clock import ScenarioClock
from .rfid import RfidLink, open_link, tag_map
from .table import Table, apply_change, table_from_expected

if TYPE_CHECKING:
    from haleakala.ai import Bot
    from haleakala.companion.controller import Companion

__all__ = ["PerformError", "ScenarioClock", "SimSession"]

LOG_LINES = 200


class SimSession:
    """The companion on simulated hardware, with a table the simulator keeps in order.

    ``clock``: a ``SimClock`` for scenarios (time moves only when told; deterministic), or
    ``time.monotonic`` for the window. ``seed``/``variant``/``start`` given: a new game with
    them; none given: the companion resumes the game in ``state_dir`` (or deals a new one).
    """

    def __init__(
        self,
        *,
        kit: str = "buttons",
        variant: str | None = None,
        seed: int | None = None,
        start: str | None = None,
        state_dir: str | Path | None = None,
        clock: Callable[[], float] | None = None,
        config: Config | None = None,
        rfid_transport: str = "auto",
        journal_sync: bool = True,
        misplace_seed: int = 0,
        solo: str | None = None,
        strength: str | None = None,
        speak: bool = False,
    ) -> None:
        if kit not in ("buttons", "rfid"):
            raise ValueError(f"kit {kit!r}: choose buttons or rfid")
        self._tmp: tempfile.TemporaryDirectory | None = None
        if state_dir is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="haleakala-sim-")
            state_dir = self._tmp.name
        self.state_dir = Path(state_dir)
        self.state_dir.mkdir(parents=True, exist_ok=True)
        base = config or Config()
        self.config = replace(
            base,
            kit=kit,
            hardware="sim",
            state_dir=self.state_dir,
            variant=variant or base.variant,
            tags=tag_map() if kit == "rfid" else dict(base.tags),
        )
        self.kit = kit
        self.speak = speak  # the companion's voice through the desktop's sound (pygame)
        self.clock: Callable[[], float] = clock if clock is not None else time.monotonic
        self.rfid_transport = rfid_transport
        self.journal_sync = journal_sync
        self.log: deque[str] = deque(maxlen=LOG_LINES)
        self.said: deque[Param] = deque(maxlen=LOG_LINES)
        """``log``'s lines as values (``core.text.Text``), which the window renders in its
        language; ``log`` is their English (what tests, the demo and a bystander read)."""
        self.changes = 0
        self.misplace = False
        self._misplace_rng = random.Random(misplace_seed)
        self.autoplay = False
        self.autoplay_interval = 0.6
        self._next_auto = 0.0
        self._bots: dict[str, Bot] = {}
        self.power_cuts = 0
        self.link: RfidLink | None = None
        self.companion: Companion  # made by _boot (and again by every power cut)
        self.hw: SimHardware
        self._boot(
            new_game=(variant, seed, start) if seed is not None or start else None,
            solo=solo,
            strength=strength,
        )
        self.table = table_from_expected(self.companion.expected_board())
        self._followed = self.table.copy()
        self._seen_decisions = len(self.game.history)
        self._seen_message: Any = None
        self._seen_mismatch: Any = None
        if self.link is not None:
            self.link.show(self._beach_discs())
        self.settle()

    # ------------------------------------------------------------------ lifecycle

    def _boot(
        self,
        new_game: tuple | None = None,
        solo: str | None = None,
        strength: str | None = None,
    ) -> None:
        """Power on: fresh hardware, the journal in the state dir, the companion started
        (solo mode as given, else as the journal's game had it)."""
        from haleakala.companion.controller import Companion
        from haleakala.companion.journal import Journal

        audio = None
        if self.speak:
            from haleakala.hal.audio import DesktopAudio

            audio = DesktopAudio()
        self.hw = SimHardware.from_config(self.config, clock=self.clock, history=64, audio=audio)
        journal = Journal(self.state_dir, sync=self.journal_sync)
        options: dict[str, Any] = {}
        if new_game is not None:
            variant, seed, start = new_game
            options["game"] = Game(variant or self.config.variant, seed or 0, start)
        self.companion = Companion(
            self.hw,
            self.config,
            journal=journal,
            clock=self.clock,
            solo=solo,
            strength=strength,
            **options,
        )
        from haleakala.learn.board import install

        install(self.companion)  # the menu's lessons; a lesson goes on after a power cut
        self.companion.start()
        if self.speak:
            from haleakala.companion.speaking import attach

            attach(self.companion, self.config)
        if self.kit == "rfid":
            self.link = open_link(self.companion.post, self.rfid_transport)
            self.link.start()
        for note in self.companion.notes:
            self.note(note)

    def power_cut(self) -> None:
        """The plug is pulled mid-game: no goodbye, no flush beyond what was acknowledged;
        then the kit powers up again on the same state dir and resumes."""
        old = self.companion
        old.stop_bot()  # the process dies: so does the thread its bot was thinking on
        if old.narrator is not None:  # and its voice, mid-sentence
            old.narrator.voice.close()
        with contextlib.suppress(Exception):
            old.hardware.inputs.close()
        if old.journal is not None:
            old.journal.close()  # the process dies: the OS closes its files, nothing more
        if self.link is not None:
            self.link.close()
            self.link = None
        self.power_cuts += 1
        digest = old.game.digest()
        self._boot()
        resumed = self.companion.game.digest()
        self.note(
            f"power cut {self.power_cuts}: resumed at decision {len(self.game.history)} "
            f"({'same' if resumed == digest else 'DIFFERENT'} position)"
        )
        if self.link is not None:
            self.link.beaches = [frozenset() for _ in self.link.beaches]
            self.link.show(self._beach_discs())
        self._followed = table_from_expected(self.companion.expected_board())
        self.changes += 1
        self.settle()

    def close(self) -> None:
        if self.companion is not None and self.companion.narrator is not None:
            self.companion.narrator.voice.close()
        if self.companion is not None:
            with contextlib.suppress(Exception):
                self.companion.say_bye()
        if self.link is not None:
            self.link.close()
            self.link = None
        with contextlib.suppress(Exception):
            self.hw.close()
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def __enter__(self) -> SimSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ views

    @property
    def game(self) -> Game:
        return self.companion.game

    @property
    def prompt(self) -> list[str]:
        return list(self.companion.prompt)

    @property
    def expected(self) -> Table:
        return table_from_expected(self.companion.expected_board())

    def differences(self) -> list[str]:
        return self.table.differences(self.expected)

    def note(self, text: Param) -> None:
        self.log.append(str(text))
        self.said.append(text)
        self.changes += 1

    def status_lines(self) -> list[tuple[Param, tuple[int, int, int]]]:
        """The window's status panel: the game, the kit, the table and solo mode."""
        from .status import status_lines

        return status_lines(self)

    # ------------------------------------------------------------------ hardware inputs

    def edge(self, button: str, pressed: bool) -> None:
        """A raw contact edge (window): through the kit's debouncer, like the real buttons."""
        self.hw.inputs.edge(button, pressed)

    def press(self, button: str) -> None:
        self.hw.press(button)
        self.settle()

    def hold(self, button: str) -> None:
        self.hw.hold(button)
        self.settle()

    def turn(self, steps: int) -> None:
        self.hw.turn(steps)
        self.settle()

    def move_disc(self, disc: str, beach: int | None) -> None:
        """A player lays a tagged disc on ``beach`` (None: back to the tray). RFID kit."""
        name = Disc.parse(disc).name
        if self.table.beach_of(name) == beach:
            return
        self.table.put(name, beach)
        self.changes += 1
        self._show_table()
        self.settle()

    def place(self, beach: int, discs: list[str]) -> None:
        """Several discs laid on a beach at once (one snapshot)."""
        for disc in discs:
            self.table.put(Disc.parse(disc).name, beach)
        self.changes += 1
        self._show_table()
        self.settle()

    def remove(self, discs: list[str]) -> None:
        for disc in discs:
            self.table.put(Disc.parse(disc).name, None)
        self.changes += 1
        self._show_table()
        self.settle()

    def set_link(self, ok: bool, detail: str = "") -> None:
        if self.link is None:
            raise RuntimeError("the buttons kit has no RFID link")
        if ok:
            self.link.plug()
        else:
            self.link.unplug(detail or "unplugged")
        time.sleep(0.3 if self.link.transport == "pty" else 0)
        self.settle()

    def _beach_discs(self) -> list[frozenset[Disc]]:
        return [frozenset(Disc.parse(n) for n in discs) for discs in self.table.beaches]

    def _show_table(self) -> None:
        if self.link is not None:
            self.link.show(self._beach_discs())

    # ------------------------------------------------------------------ time and settling

    def settle(self, rounds: int = 20) -> None:
        """Let the companion handle everything queued, the table follow its instructions,
        and (RFID) the readers report the table, until nothing moves any more."""
        for _ in range(rounds):
            if self.link is not None:
                self._await_readers()
            handled = self.companion.pump(0)
            moved = self._follow()
            self._observe()
            if not handled and not moved:
                return

    def _await_readers(self, timeout: float = 3.0) -> None:
        """RFID: wait until the companion has been told what lies on the table (the driver
        thread posts a moment after the Pico's snapshot)."""
        assert self.link is not None
        if not self.link.settle(timeout) or not self.link.connected():
            return  # unplugged (or stuck): nothing will come; the OLED will say so
        want = tuple(self._beach_discs())
        deadline = time.monotonic() + timeout
        while tuple(self.companion.sensed_board()) != want:
            if time.monotonic() > deadline:
                self.note("RFID: the companion was not told the table within 3 s")
                return
            if not self.companion.pump(0):
                time.sleep(0.001)

    def update(self) -> None:
        """One frame of the window: debounce, pump, follow, autoplay."""
        self.hw.inputs.debouncer.tick()
        self.companion.pump(0)
        self._follow()
        self._observe()
        if self.autoplay and self.clock() >= self._next_auto:
            self._next_auto = self.clock() + self.autoplay_interval
            # Not while a disc is still settling (RFID kit) or the companion thinks.
            c = self.companion
            if not self.game.is_terminal() and not c.panel.settling and not c.thinking:
                self.bot_step()

    def advance(self, seconds: float) -> None:
        """Scenario time: move the SimClock, firing every timer when it falls due."""
        if not isinstance(self.clock, SimClock) or getattr(self.clock, "live", False):
            raise TypeError("advance() needs a session on a SimClock")
        target = self.clock.now + seconds
        for _ in range(10_000):
            deadline = self.companion.next_deadline()
            if deadline is None or deadline > target:
                break
            self.clock.now = max(self.clock.now, deadline)
            self.companion.tick()
            self.settle()
        self.clock.now = target
        self.companion.tick()
        self.settle()

    def scripted_time(self) -> bool:
        """Time moves only when told (a scenario not yet gone live)."""
        return isinstance(self.clock, SimClock) and not getattr(self.clock, "live", False)

    def _follow(self) -> bool:
        """Carry out on the table what the companion's expected board changed since last
        time (players follow instructions; misplace mode gets one piece wrong)."""
        now = table_from_expected(self.companion.expected_board())
        if now == self._followed:
            return False
        rng = self._misplace_rng if self.misplace else None
        before = self.table.copy()
        for note in apply_change(self.table, self._followed, now, misplace=rng):
            self.note("misplaced: " + note)
        self._followed = now
        if self.table != before:
            self.changes += 1
            self._show_table()
            return True
        return False

    def _observe(self) -> None:
        """Log what a bystander would notice: decisions, refusals, board disputes."""
        c = self.companion
        game = c.game
        history = game.history
        if len(history) != self._seen_decisions:
            if len(history) > self._seen_decisions:
                for i in range(self._seen_decisions, len(history)):
                    by = c.decided_by(i)
                    self.note(f"{i + 1}. {game.format(history[i])} ({by})")
            else:
                self.note(Text.of(N_("undo: back to decision {n}"), n=len(history)))
            self._seen_decisions = len(history)
            self.changes += 1
        message = c.panel.message
        if message is not None and message is not self._seen_message:
            # whole: the window wraps a long line, and a refusal is read to its end
            self.note(Text.of(N_("{title}: {text}"), title=message.title, text=message.text))
            self.changes += 1
        self._seen_message = message
        mismatch = c.panel.mismatch
        if mismatch is not None and mismatch != self._seen_mismatch:
            said = mismatch.reason or _listed(mismatch.fixes)  # "TAKE DISCS BACK: " said what
            self.note(Text.of(N_("{title}: {text}"), title=mismatch.headline, text=said))
            self.changes += 1
        self._seen_mismatch = mismatch

    # ------------------------------------------------------------------ the table

    def next_palette(self) -> str:
        """Key v: the next colour mode, chosen as the board's menu chooses it (journaled, so a
        restart keeps it); returns it."""
        self.companion.menus.next_colours()
        self.companion.render()
        return colour_modes.current()

    def set_misplace(self, on: bool) -> None:
        self.misplace = on
        self.note(f"misplace mode {'on' if on else 'off'}")

    def fix_table(self) -> None:
        """The players put every piece where the companion expects it."""
        self.table = self.expected.copy()
        self._followed = self.table.copy()
        self.changes += 1
        self._show_table()
        self.note("table fixed: every piece where the companion expects it")
        self.settle()

    # ------------------------------------------------------------------ players' hands

    def bot(self, colour: str, name: str = "greedy", seed: int = 0) -> Bot:
        key = f"{colour}:{name}:{seed}"
        if key not in self._bots:
            from haleakala.ai import make_bot

            self._bots[key] = make_bot(name, seed=seed * 2 + PLAYERS.index(colour))
        return self._bots[key]

    def bot_step(
        self, name: str = "greedy", seed: int = 0, *, block: bool | None = None
    ) -> str | None:
        """The player to move lets a bot decide; the decision is made through the inputs.
        On the companion's turn (solo) the players do what the companion says instead.
        ``block`` (default: on scenario time only): wait for the companion to decide, and
        see a laid or lifted disc taken before returning; without it a disc may still be
        settling on return, and the next call makes no decision until it has."""
        wait = self.scripted_time() if block is None else block
        if self.companion.panel.settling:
            # The last disc laid or lifted has not been taken yet: deciding again now would
            # lay a second disc beside it, which the companion rightly refuses ("TWO DISCS
            # AT ONCE"). Waiting, the players confirm it (select); otherwise not yet.
            if not wait:
                return None
            self.press("select")
        game = self.game
        if game.is_terminal():
            return None
        if self.companions_turn:
            try:
                return self.follow_companion(block=wait)
            except PerformError as exc:
                self.note(f"companion: {exc}")
                return None
        colour = game.to_move or "red"
        d = self.bot(colour, name, seed).decide(game.clone())
        text = game.format(d)
        try:
            self.perform(d, block=wait)
        except PerformError as exc:
            self.note(f"bot: {exc}")
            return None
        return text

    @property
    def companions_turn(self) -> bool:
        c = self.companion
        return c.solo is not None and self.game.to_move == c.solo

    def await_companion(self, timeout: float = 60.0) -> None:
        """Solo: until the companion's bot has answered (it thinks on its own thread, in
        real time, whatever the scenario clock says)."""
        c = self.companion
        deadline = time.monotonic() + timeout
        while c.thinking:
            if time.monotonic() > deadline:
                raise PerformError(f"the companion did not decide within {timeout:.0f} s")
            c.pump(timeout=0.02)
            self._follow()
            self._observe()
        self.settle()

    def follow_companion(self, *, block: bool = True) -> str | None:
        """Solo: the players carry out the companion's decision as its OLED says (see
        ``players.Hands.follow_companion``); returns the decision made (None: not its turn,
        or ``block=False`` and it is still due)."""
        from .players import Hands

        return Hands(self).follow_companion(block=block)

    def perform(self, d: int, *, block: bool = True) -> list[str]:
        """Make decision ``d`` with the physical inputs a player would use; return them
        (``players.Hands.perform``; ``PerformError`` when the companion made another)."""
        from .players import Hands

        return Hands(self).perform(d, block=block)


def _listed(parts: tuple[Param, ...]) -> Param:
    """``a; b; c`` as one value (each part rendered in the window's language)."""
    if not parts:
        return ""
    head = parts[0]
    for part in parts[1:]:
        head = Text.of(N_("{first}; {rest}"), first=head, rest=part)
    return head
