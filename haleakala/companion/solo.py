"""Solo mode: the companion plays one colour itself, and thinks without freezing the island.

The search bot thinks for half a second to two seconds. The controller's thread must meanwhile
keep reading buttons and beaches, animating the LEDs and (in the daemon) pinging the
watchdog, so the bot runs on a worker thread (``BotThinker``) and its answer comes back as an
ordinary event (``BotDecided``) on the companion's queue. The controller owns the game: the
worker only ever sees a copy, and an answer is used only if its tag (request number and
decision count) is still the question the controller is waiting for, so an undo, a new game
or a menu change while the bot thinks simply makes the late answer stale.

Strength is a level of ``haleakala.games.haleakala.bots.levels``, defined by an Elo target
on the ladder of ``haleakala bench ai --ladder`` (greedy = 1000), not by seconds:

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
from typing import TYPE_CHECKING, Any

from haleakala.games.haleakala import PLAYERS, Game
from haleakala.games.haleakala.decision import Boat, Place, Return, Shaman, decode

from .journal import JournalError

if TYPE_CHECKING:
    from .journal import Journal

log = logging.getLogger("haleakala.solo")

STRENGTHS: tuple[str, ...] = ("easy", "normal", "strong", "child")
"""The levels (``haleakala.games.haleakala.bots.levels.LEVELS``), in the order the menu cycles
through them: the three known before and the new one for children last, so old menus keep their
order."""
DEFAULT_STRENGTH = "normal"
SOLO_SHOW_S = 2.5
"""A decision of the companion with no piece to move is shown this long, then made."""
THINK_LIMIT_S = 30.0
"""A bot that has not answered after this long is replaced by the greedy one (once)."""

BotFactory = Callable[[str, int], Any]
"""``factory(strength, seed)`` → a bot with ``decide(game) -> int``."""


def make_solo_bot(strength: str, seed: int) -> Any:
    """The bot a strength stands for (a fresh one per decision: no state between turns)."""
    from haleakala.ai import make_bot

    if strength not in STRENGTHS:
        raise ValueError(f"unknown strength {strength!r}: choose {', '.join(STRENGTHS)}")
    from haleakala.games.haleakala.bots.levels import LEVELS, calibrate

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


# --------------------------------------------------------------------------- the seat

clog = logging.getLogger("haleakala.companion")
"""The seat's decisions are the controller's story: they go to its log."""


class Seat:
    """The companion's seat in solo mode: which colour it plays, how strongly, and its bot's
    thinking (the question asked, the answer shown, the timer that makes it).

    The controller owns the game and asks the seat; the seat never changes the game. Its
    bot answers on ``post`` (the controller's queue) as a ``BotDecided`` event.
    """

    def __init__(
        self,
        post: Callable[[Any], None],
        clock: Callable[[], float],
        *,
        colour: str | None,
        strength: str,
        factory: BotFactory | None = None,
        show_s: float,
        think_limit_s: float,
    ) -> None:
        self.colour = colour
        self.strength = strength
        self.show_s = show_s
        self.think_limit_s = think_limit_s
        self._post = post
        self._clock = clock
        self._factory = factory
        self.thinker: BotThinker | None = None
        self._requests = 0
        self._asked: tuple[int, int] | None = None  # tag of the question the bot is on
        self._asked_at = 0.0
        self._proposal: tuple[int, int] | None = None  # (ply, decision) of the bot
        self.bot_at: float | None = None  # the companion's decision makes itself then
        self.substitute = True  # a failed bot is replaced by the greedy one
        self.trouble = ""  # why a seat that may not be substituted has no decision

    @staticmethod
    def check(solo: str | None, strength: str | None) -> tuple[str | None, str]:
        """The seat's colour (None: nobody; "off" says so too) and strength (None: the
        default); ValueError naming the choices for anything else."""
        if solo is not None and solo not in (*PLAYERS, "off"):
            raise ValueError(f"solo colour {solo!r}: choose red, yellow or off")
        if strength is not None and strength not in STRENGTHS:
            raise ValueError(f"solo strength {strength!r}: choose {', '.join(STRENGTHS)}")
        return (None if solo in (None, "off") else solo), strength or DEFAULT_STRENGTH

    # -- state --------------------------------------------------------------------

    def plays(self, game: Game) -> bool:
        """It is the companion's turn in ``game``."""
        return self.colour is not None and game.to_move == self.colour

    @property
    def thinking(self) -> bool:
        """The companion's bot is working out its decision."""
        return self._asked is not None

    @property
    def proposed(self) -> int | None:
        """The decision last shown (whatever the position)."""
        return self._proposal[1] if self._proposal else None

    def proposal_for(self, game: Game) -> int | None:
        """The companion's decision for this position, once it has one."""
        p = self._proposal
        return p[1] if p is not None and p[0] == len(game.history) else None

    def think_deadline(self) -> float | None:
        """When a bot that has not answered is replaced by the greedy one."""
        return self._asked_at + self.think_limit_s if self._asked is not None else None

    def settings(self) -> dict[str, str | None]:
        """What the journal records of the seat."""
        return {"solo": self.colour, "strength": self.strength}

    # -- the journal ----------------------------------------------------------------

    def resume(self, journal: Journal, solo: str | None, strength: str | None) -> None:
        """A resumed game keeps the companion's seat as the journal recorded it, unless
        the command line says otherwise (then that is recorded for the next restart)."""
        if solo is None:
            self.colour = journal.solo
        if strength is None and journal.strength in STRENGTHS:
            self.strength = journal.strength
        if (self.colour, self.strength) != (journal.solo, journal.strength):
            self.record(journal)
        if self.colour is not None:
            clog.info("solo: the companion plays %s (%s)", self.colour, self.strength)

    def record(self, journal: Journal | None) -> None:
        if journal is None:
            return
        try:
            journal.append_solo(self.colour, self.strength)
        except JournalError as exc:  # a setting: the game itself is not at risk
            clog.error("solo setting not saved (a restart may forget it): %s", exc)

    def next_colour(self) -> None:
        """The menu's "solo" line: nobody, red, yellow, nobody..."""
        seats: list[str | None] = [None, *PLAYERS]
        self.colour = seats[(seats.index(self.colour) + 1) % len(seats)]

    def next_strength(self) -> None:
        names = list(STRENGTHS)
        self.strength = names[(names.index(self.strength) + 1) % len(names)]

    # -- thinking -------------------------------------------------------------------

    def stop(self) -> None:
        """Forget the pending thought and stop the bot's thread (shutdown, power cut)."""
        self._asked = None
        if self.thinker is not None:
            self.thinker.close()
            self.thinker = None

    def forget(self) -> None:
        """The position changed under the bot (undo, new game, a menu change): its pending
        answer and its shown decision no longer apply."""
        self._asked = None
        self._proposal = None
        self.bot_at = None
        if self.thinker is not None:
            self.thinker.cancel()

    def drop_question(self) -> None:
        """Not (or no longer) its turn: a late answer is stale."""
        self._asked = None

    def turn(self, game: Game) -> int | None:
        """Its turn in ``game``: its decision (and the timer of one with nothing to move),
        or None after asking its bot (once per position)."""
        ply = len(game.history)
        if self._proposal is None or self._proposal[0] != ply:
            legal = game.legal_actions()
            # a seat whose decisions are never made up here (a remote player's: agreed_only)
            # waits for even a forced one: the host agrees it, the board does not assume it
            if len(legal) != 1 or not self.substitute:
                self._ask(game, ply)
                return None
            self._proposal = (ply, legal[0])  # nothing to think about
        return self._proposal[1]

    def schedule(self, d: int, kit: str) -> None:
        """A decision with nothing to move goes on by itself after ``show_s``."""
        if needs_hands(d, kit) == "none":
            self.bot_at = self._clock() + self.show_s

    def _ask(self, game: Game, ply: int) -> None:
        if self._asked is not None and self._asked[1] == ply:
            return  # already asked
        self._requests += 1
        self._asked = (self._requests, ply)
        self._asked_at = self._clock()
        if self.thinker is None:
            self.thinker = BotThinker(self._post, self._factory)
        self.thinker.request(self._asked, game.clone(), self.strength, bot_seed(game))
        clog.info("solo: %s (%s) thinks about decision %d", self.colour, self.strength, ply + 1)

    def answer(self, event: BotDecided, game: Game) -> bool:
        """Take the bot's answer if it is still the question asked (else drop it)."""
        if event.tag != self._asked or not self.plays(game) or event.tag[1] != len(game.history):
            clog.info("solo: dropped a stale answer of the bot (asked %s)", event.tag)
            return False
        d = event.decision
        if not self.substitute and (event.error or d not in game.legal_actions()):
            # a remote player's decision (``remote.board``): never made up here; the seat
            # stays waiting and says why (the board and the agreed game diverged)
            self.trouble = event.error or f"decision {d!r} is not legal here"
            clog.error("solo: %s has no decision: %s", self.colour, self.trouble)
            return False
        self._asked = None
        self.trouble = ""
        if event.error or d not in game.legal_actions():  # never trust a bot with the game
            d = self.fallback(game, f"bot answered {d!r} {event.error}".strip())
        assert d is not None
        clog.info(
            "solo: %s (%s) decided %s in %.2f s",
            self.colour,
            self.strength,
            game.format(d),
            event.seconds,
        )
        self._proposal = (len(game.history), d)
        return True

    def fallback(self, game: Game, why: str) -> int:
        """A decision when the bot fails: the greedy bot's, thought out here (a few ms)."""
        from haleakala.ai import make_bot

        try:
            d = make_bot("greedy", seed=bot_seed(game)).decide(game.clone())
        except Exception:
            clog.exception("the greedy fallback failed too")
            d = None
        if d not in game.legal_actions():
            d = game.legal_actions()[0]
        clog.error("solo: %s; %s is played instead", why, game.format(d))
        return d

    def overdue(self, now: float, game: Game) -> bool:
        """The bot did not answer in time: the greedy bot's decision is shown instead."""
        if self._asked is None or now - self._asked_at < self.think_limit_s:
            return False
        if not self.plays(game):
            return False
        self._asked = None
        self._proposal = (len(game.history), self.fallback(game, "the bot did not answer"))
        return True

    def due(self, now: float, game: Game) -> int | None:
        """The shown decision whose moment has come (the caller checked nothing hides it)."""
        if self.bot_at is None or now < self.bot_at:
            return None
        self.bot_at = None
        return self.proposal_for(game) if self.plays(game) else None
