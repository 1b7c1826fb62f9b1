"""Solo mode: the companion plays one colour itself, and thinks without freezing the island.

The search bot thinks for half a second to two seconds. The controller's thread must meanwhile
keep reading buttons and beaches, animating the LEDs and (in the daemon) pinging the
watchdog, so the bot runs on a worker thread (``BotThinker``) and its answer comes back as an
ordinary event (``BotDecided``) on the companion's queue. The controller owns the game: the
worker only ever sees a copy, and an answer is used only if its tag (request number and
decision count) is still the question the controller is waiting for, so an undo, a new game
or a menu change while the bot thinks simply makes the late answer stale.

Strength is a level of ``haleakala.ai.levels``, defined by an Elo target on the ladder of
``haleakala bench ai --ladder`` (greedy = 1000), not by seconds:

- ``child``: below greedy (the greedy bot deciding at random half of the time), instant;
- ``easy``: the greedy bot (one ply, instant), 1000 by definition;
- ``normal``, ``strong``: the search bot at the iteration budget that reaches the
  level's Elo; its time budget is that many iterations at the speed measured on this
  machine (a short calibration at first use, cached), so a level plays as well on a
  Raspberry Pi 3 as on a laptop, only slower.

Each decision gets a fresh bot seeded by the position (``bot_seed``), so the easy bot's game is
a pure function of the position and a game resumed after a power cut goes on as it would have.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from haleakala.rules import Game
from haleakala.rules.decision import (
    Boat,
    Place,
    Return,
    Shaman,
    decode,
)

log = logging.getLogger("haleakala.solo")

STRENGTHS: tuple[str, ...] = ("easy", "normal", "strong", "child")
"""The levels (``haleakala.ai.levels.LEVELS``), in the order the menu cycles through them:
the three known before and the new one for children last, so old menus keep their order."""
DEFAULT_STRENGTH = "normal"

BotFactory = Callable[[str, int], Any]
"""``factory(strength, seed)`` → a bot with ``decide(game) -> int``."""


def make_solo_bot(strength: str, seed: int) -> Any:
    """The bot a strength stands for (a fresh one per decision: no state between turns)."""
    from haleakala.ai import make_bot

    if strength not in STRENGTHS:
        raise ValueError(f"unknown strength {strength!r}: choose {', '.join(STRENGTHS)}")
    from haleakala.ai.levels import LEVELS, calibrate

    level = LEVELS[strength]
    seconds = level.seconds(calibrate())
    if seconds is None:
        return make_bot(level.bot, seed=seed)
    return make_bot(level.bot, seed=seed, budget=seconds)


def bot_seed(game: Game) -> int:
    """The bot's seed for this position: the deal and the number of decisions so far."""
    return (game.seed * 1_000_003 + len(game.history) * 7919) % (2**31)


@dataclass(frozen=True)
class BotDecided:
    """The solo bot's answer, posted on the companion's queue by the worker thread."""

    tag: tuple[int, int]  # (request number, decision count of the position asked about)
    decision: int | None
    seconds: float
    error: str = ""


class BotThinker:
    """One worker thread that runs the solo bot; the latest request wins.

    ``request`` never blocks: it leaves the question for the thread (replacing one that has
    not started yet) and returns. A search already running cannot be interrupted; its answer
    is posted all the same and the controller drops it as stale. The thread is a daemon
    thread, started on the first request: a companion that never plays solo starts none.
    """

    def __init__(self, post: Callable[[Any], None], factory: BotFactory | None = None) -> None:
        self.post = post
        self.factory: BotFactory = factory or make_solo_bot
        self._cond = threading.Condition()
        self._job: tuple[tuple[int, int], Game, str, int] | None = None
        self._stop = False
        self._thread: threading.Thread | None = None
        self.busy = False
        self.answered = 0

    def request(self, tag: tuple[int, int], game: Game, strength: str, seed: int) -> None:
        """Think about ``game`` (a copy the thinker may keep) and post ``BotDecided(tag)``."""
        with self._cond:
            self._job = (tag, game, strength, seed)
            if self._thread is None or not self._thread.is_alive():
                self._stop = False
                self._thread = threading.Thread(
                    target=self._run, name="haleakala-solo-bot", daemon=True
                )
                self._thread.start()
            self._cond.notify()

    def cancel(self) -> None:
        """Forget a question not yet taken up (an answer being computed is dropped later)."""
        with self._cond:
            self._job = None

    def close(self, timeout: float = 0.5) -> None:
        with self._cond:
            self._stop = True
            self._job = None
            self._cond.notify()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    def _run(self) -> None:
        while True:
            with self._cond:
                while self._job is None and not self._stop:
                    self._cond.wait()
                if self._stop:
                    return
                job, self._job = self._job, None
                self.busy = True
            assert job is not None
            tag, game, strength, seed = job
            began = time.perf_counter()
            decision: int | None = None
            error = ""
            try:
                decision = int(self.factory(strength, seed).decide(game))
            except Exception as exc:  # a broken bot must not kill the thread
                log.exception("the solo bot failed")
                error = f"{exc.__class__.__name__}: {exc}"
            seconds = time.perf_counter() - began
            with self._cond:
                self.busy = False
                self.answered += 1
            try:
                self.post(BotDecided(tag, decision, seconds, error))
            except Exception:
                log.exception("posting the solo bot's decision failed")


# --------------------------------------------------------------------------- words


def needs_hands(d: int, kit: str) -> str:
    """What the players must do before the companion's decision counts:

    - ``"board"``: lay or lift a disc; the RFID readers see it (buttons kit: then select);
    - ``"select"``: move a piece nothing senses (the shaman, the boat), then press select;
    - ``"none"``: nothing to move (a card, a purchase, the lava, a shaman that stays): it
      goes on by itself after a moment.
    """
    match decode(d):
        case Place() | Return():
            return "board" if kit == "rfid" else "select"
        case Boat() | Shaman(space=int()):
            return "select"
    return "none"
