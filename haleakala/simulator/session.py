"""One simulated kit: the real companion on the ``sim`` backend, plus the table and its players.

A ``SimSession`` owns what sits on and under a simulated island:

- the hardware (``SimHardware``: recorded LEDs and OLED, injected buttons and encoder) and,
  for the RFID kit, a virtual Pico read by the real driver (``rfid``);
- the companion itself (``haleakala.companion.controller.Companion``) with its journal in a
  state directory, exactly as the daemon runs it; the session calls ``pump`` where the
  daemon's loop would, so the window and the scenarios drive the same code path;
- the table (``board.Table``): the wooden pieces, moved as the companion instructs, wrong on
  purpose in misplace mode;
- the players' hands: ``perform(decision)`` turns a decision into the physical inputs a
  player would make (press the beach's button, turn to the option, press select; or move a
  tagged disc), reading the OLED's chooser like a player reads the screen;
- solo mode (``solo="yellow"``): the companion plays that colour; ``follow_companion()``
  is the human carrying out what the companion says (lay its disc, move its shaman and
  press select, or let a card choice go on by itself).

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

from haleakala.config import Config
from haleakala.hal.events import Disc
from haleakala.hal.simulated import SimClock, SimHardware
from haleakala.rules import PLAYERS, Game
from haleakala.rules.decision import Boat, Place, Return, decode

from .rfid import RfidLink, open_link, tag_map
from .table import Table, apply_change, table_from_expected

if TYPE_CHECKING:
    from haleakala.ai import Bot
    from haleakala.companion.controller import Companion

LOG_LINES = 200


class ScenarioClock(SimClock):
    """Scenario time (moves only when told) that can later go live: a scenario watched in
    the window becomes an ordinary interactive session once it has finished."""

    def __init__(self, start: float = 0.0) -> None:
        super().__init__(start)
        self._live_since: float | None = None

    def __call__(self) -> float:
        if self._live_since is None:
            return self.now
        return self.now + (time.monotonic() - self._live_since)

    def go_live(self) -> None:
        if self._live_since is None:
            self._live_since = time.monotonic()

    @property
    def live(self) -> bool:
        return self._live_since is not None


class PerformError(RuntimeError):
    """The physical inputs for a decision did not lead the companion to make it."""


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
        self.clock: Callable[[], float] = clock if clock is not None else time.monotonic
        self.rfid_transport = rfid_transport
        self.journal_sync = journal_sync
        self.log: deque[str] = deque(maxlen=LOG_LINES)
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

        self.hw = SimHardware.from_config(self.config, clock=self.clock, history=64)
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
        self.companion.start()
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

    def note(self, text: str) -> None:
        self.log.append(text)
        self.changes += 1

    def status_lines(self) -> list[tuple[str, tuple[int, int, int]]]:
        game = self.game
        white, dim = (226, 228, 232), (150, 156, 168)
        colours = {"red": (240, 90, 80), "yellow": (240, 200, 60)}
        lines: list[tuple[str, tuple[int, int, int]]] = []
        if game.is_terminal():
            result = game.result()
            assert result is not None
            lines.append((f"game over: {result.winner} wins", colours[result.winner]))
            lines.append((f"{result.scores[0]} – {result.scores[1]}", white))
        else:
            who = game.to_move or "red"
            lines.append((f"round {game.round} · {who} to move", colours[who]))
            lines.append((f"phase: {game.phase_name}", white))
            if game.scorings:
                red, yellow = (game.scorings[-1]["players"][c]["total"] for c in PLAYERS)
                lines.append((f"score: red {red} · yellow {yellow}", white))
        lines.append((f"decision {len(game.history)} · {game.variant} · seed {game.seed}", dim))
        mode = f"kit {self.kit}"
        if self.link is not None:
            mode += f" ({self.link.transport})"
        lines.append((mode + (" · MISPLACE" if self.misplace else ""), dim))
        wrong = self.differences()
        if wrong:
            lines.append((f"table differs: {len(wrong)} piece(s)", (255, 120, 100)))
        c = self.companion
        if c.solo is not None:
            thinking = " · thinking…" if c.thinking else ""
            lines.append((f"solo: companion plays {c.solo} ({c.strength}){thinking}", white))
        if self.autoplay:
            lines.append(("autoplay on", (140, 220, 140)))
        return lines[:7]

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
            if not self.game.is_terminal() and c.pending is None and not c.thinking:
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

    def _scripted_time(self) -> bool:
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
                sources = getattr(c, "sources", [])
                for i in range(self._seen_decisions, len(history)):
                    by = sources[i] if i < len(sources) else "player"
                    self.log.append(f"{i + 1}. {game.format(history[i])} ({by})")
            else:
                self.log.append(f"undo: back to decision {len(history)}")
            self._seen_decisions = len(history)
            self.changes += 1
        message = c.message
        if message is not None and message is not self._seen_message:
            self.log.append(f"{message.title}: {message.text}"[:160])
            self.changes += 1
        self._seen_message = message
        mismatch = c.mismatch
        if mismatch is not None and mismatch != self._seen_mismatch:
            self.log.append(f"{mismatch.headline}: {mismatch.reason}"[:160])
            self.changes += 1
        self._seen_mismatch = mismatch

    # ------------------------------------------------------------------ the table

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
        On the companion's turn (solo) the players do what the companion says instead
        (``block``: wait for it to decide; default: on scenario time only)."""
        game = self.game
        if game.is_terminal():
            return None
        if self.companions_turn:
            try:
                wait = self._scripted_time() if block is None else block
                return self.follow_companion(block=wait)
            except PerformError as exc:
                self.note(f"companion: {exc}")
                return None
        colour = game.to_move or "red"
        d = self.bot(colour, name, seed).decide(game.clone())
        text = game.format(d)
        try:
            self.perform(d, block=self._scripted_time())
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
        """Solo: the players carry out the companion's decision as its OLED says: lay or
        lift its disc (RFID kit), press select after moving a piece (buttons kit: after
        laying the disc), or let a decision with nothing to move go on by itself. Returns
        the decision made (None: not its turn, or ``block=False`` and it is still due)."""
        from haleakala.companion import solo as S
        from haleakala.companion import ui as U

        if not self.companions_turn:
            return None
        c = self.companion
        if block:
            self.await_companion()
        elif c.thinking:
            return None
        done: list[str] = []
        self._clear_way(done)
        chooser = c.chooser
        if chooser is None or chooser.kind != U.PROPOSAL or not chooser.options:
            raise PerformError(
                f"no decision of the companion shown (OLED: {' / '.join(self.prompt)})"
            )
        d = chooser.options[0].value
        before = len(self.game.history)
        text = self.game.format(d)
        hands = S.needs_hands(d, self.kit)
        move = decode(d, self.game.board)
        if hands == "board" and isinstance(move, Place | Return):
            colour = self.game.to_move
            value, beach = move.value, move.beach
            if isinstance(move, Return):
                self.remove([f"{colour}{value}"])
                done.append(f"take {colour}{value} off beach {beach}")
            else:
                discs = [f"{colour}{value}"] + ([f"{colour}*"] if move.invoke else [])
                self.place(beach, discs)
                done.append(f"put {'+'.join(discs)} on beach {beach}")
        elif hands == "select":
            self.press("select")
            done.append("press select")
        elif block:
            if self._scripted_time():
                self.advance(c.solo_show_s)
                done.append(f"wait {c.solo_show_s} s")
            else:
                self.press("select")
                done.append("press select")
        else:
            return None  # it goes on by itself in a moment
        game = self.game
        if len(game.history) <= before or game.history[before] != d:
            got = game.format(game.history[before]) if len(game.history) > before else "nothing"
            raise PerformError(
                f"inputs [{', '.join(done)}] for the companion's {text} made {got}; "
                f"OLED: {' / '.join(self.prompt)}"
            )
        return text

    def perform(self, d: int, *, block: bool = True) -> list[str]:
        """Make decision ``d`` with the physical inputs a player would use; return them.

        Raises ``PerformError`` (with the inputs tried and what the OLED said) when the
        companion did not make exactly that decision. ``block=False`` (the window, on real
        time): a disc lifted, or laid next to the boat, is left to settle by itself (0.8 s)
        instead of freezing the window while it does.
        """
        c = self.companion
        before = len(c.game.history)
        text = c.game.format(d)
        if self.companions_turn:
            raise PerformError(
                f"{text}: it is the companion's ({c.solo}) turn; it decides itself "
                "(follow_companion carries its decision out)"
            )
        done: list[str] = []
        self._clear_way(done)
        game = c.game
        move = decode(d, game.board)
        if game.phase_name == "turn" and isinstance(move, Place | Return):
            beach = move.beach
            value = move.value
            colour = game.to_move
            if self.kit == "rfid":
                if isinstance(move, Return):
                    self.remove([f"{colour}{value}"])
                    done.append(f"take {colour}{value} off beach {beach}")
                else:
                    discs = [f"{colour}{value}"] + ([f"{colour}*"] if move.invoke else [])
                    self.place(beach, discs)
                    done.append(f"put {'+'.join(discs)} on beach {beach}")
                # A disc lifted (it may be on its way elsewhere) or laid next to the boat
                # (the invocation disc may follow) settles for a moment.
                if c.pending is not None:
                    if not block:
                        return done
                    self._wait_for(lambda: c.pending is None, done)
            else:
                self.press(f"beach{beach}")
                done.append(f"press beach{beach}")
                self._choose(d, done)
        elif game.phase_name == "turn" and isinstance(move, Boat):
            shown = c.shown
            if shown is None or all(o.value != d for o in shown.options):
                self.press("select")
                done.append("press select")
            self._choose(d, done)
        else:
            self._choose(d, done)
        game = c.game
        if len(game.history) <= before or game.history[before] != d:
            got = game.format(game.history[before]) if len(game.history) > before else "nothing"
            raise PerformError(
                f"inputs [{', '.join(done)}] for {text} made {got}; OLED: {' / '.join(self.prompt)}"
            )
        return done

    def _clear_way(self, done: list[str]) -> None:
        """Close score pages and menus, and put a disputed board right, before deciding."""
        from haleakala.companion import ui as U

        c = self.companion
        for _ in range(8):
            if c.overlay is not None:
                button = "select" if c.overlay.kind == U.SCORES else "back"
                self.press(button)
                done.append(f"press {button}")
                continue
            if c.mismatch is not None or c.must_match:
                self.fix_table()
                done.append("fix the table")
                continue
            chooser = c.chooser
            if chooser is not None and chooser.kind in (U.BEACH, U.BOAT) and chooser.cancellable:
                self.press("back")  # a beach or boat chooser someone left open
                done.append("press back")
                continue
            return

    def _choose(self, d: int, done: list[str]) -> None:
        """Turn the encoder to the option whose value is ``d`` and press select."""
        chooser = self.companion.shown
        if chooser is None:
            raise PerformError(
                f"no chooser on the OLED for {self.game.format(d)} "
                f"(OLED: {' / '.join(self.prompt)})"
            )
        values = [o.value for o in chooser.options]
        if d not in values:
            raise PerformError(
                f"{self.game.format(d)} is not among the options shown "
                f"({', '.join(o.label for o in chooser.options)})"
            )
        steps = values.index(d) - chooser.cursor
        if steps:
            self.turn(steps)
            done.append(f"turn {steps:+d}")
        self.press("select")
        done.append("press select")

    def _wait_for(self, ready: Callable[[], bool], done: list[str], limit: float = 5.0) -> None:
        waited = 0.0
        while not ready() and waited < limit:
            if self._scripted_time():
                self.advance(0.1)
                waited += 0.1
            else:
                time.sleep(0.02)
                self.settle()
                waited += 0.02
        done.append(f"wait {waited:.1f} s")
