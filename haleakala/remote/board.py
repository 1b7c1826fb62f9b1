"""The remote player's decisions on the physical board: a remote seat is the companion's
solo seat whose "bot" is the agreed game.

Why this way: the companion already shows a decision it did not get from the board (its
bot's) on the OLED and the LEDs ("YELLOW: put the disc on beach 2"), waits until the
readers or the buttons agree, flashes a divergence and explains it, and changes its game
only when the board matches (``companion.solo``, ``controller``, ``reconcile``). A remote
player's decision needs exactly that, so ``RemoteMoves`` is a bot factory for
``Companion(bot_factory=..., solo=COLOUR, think_limit_s=inf)``: its bot answers a position
with the decision the host acknowledged for that place in the history (``seq`` =
decisions so far + 1), waiting on the worker thread until it has come. Nothing is ever
thought up: a decision that is not legal on this board's game (the board and the agreed
game have diverged) is an error the seat shows, never a substitute move, and nothing the
local board does for a remote seat is sent anywhere (only the host's decisions feed it).
"""

from __future__ import annotations

import threading
from typing import Any

from . import words as W

NEVER = float("inf")
"""A remote player thinks as long as they like: the companion never replaces them."""


class Diverged(Exception):
    """The agreed game's decision is not legal in this board's game; ``why`` says so as a
    ``Text`` for the OLED (``str`` is the English sentence, for the log)."""

    def __init__(self, why: Any) -> None:
        super().__init__(str(why))
        self.why = why


class RemoteMoves:
    """The acknowledged decisions of the remote seats, by ``seq``; the solo seat's bot
    waits here for the one its position needs.

    ``add`` is called by whoever holds the mirror (the kit's network thread); ``factory``
    is given to the companion. ``close`` wakes a waiting bot so the companion can stop.
    """

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._by_seq: dict[int, str] = {}
        self._seats: dict[int, str] = {}
        self._closed = False
        self.trouble: Any = None  # the last Diverged's ``why`` (a Text), for the board

    def add(self, seq: int, text: str, seat: str = "") -> None:
        """Decision number ``seq`` (from 1) of the agreed game, in notation, made by
        ``seat`` (every seat's is added: a question the board asked on a position it then
        left, e.g. its own made-up draws, is answered and dropped as stale, never left
        blocking the seat's one worker thread)."""
        with self._cond:
            self._by_seq[seq] = text
            if seat:
                self._seats[seq] = seat
            self._cond.notify_all()

    def seat(self, seq: int) -> str:
        """Who made decision ``seq`` ("" if not said)."""
        with self._cond:
            return self._seats.get(seq, "")

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def wait(self, seq: int, timeout: float | None = None) -> str | None:
        """Decision ``seq`` once it has come (None: closed, or ``timeout`` passed)."""
        with self._cond:
            self._cond.wait_for(lambda: seq in self._by_seq or self._closed, timeout)
            return self._by_seq.get(seq)

    def factory(self, strength: str, seed: int) -> Any:
        """``companion.solo.BotFactory``: a "bot" that plays what the host acknowledged."""
        return _RemoteBot(self)


class _RemoteBot:
    def __init__(self, moves: RemoteMoves) -> None:
        self._moves = moves

    def decide(self, game: Any, budget: Any = None) -> int:
        seq = len(game.history) + 1
        text = self._moves.wait(seq, None)
        if text is None:
            self._fail(W.never_came(seq))
        assert text is not None
        try:
            d = int(game.parse(text))
        except ValueError:
            self._fail(W.unreadable(seq, text))
        seat = self._moves.seat(seq)
        if d not in game.legal_actions() or (seat and seat != game.to_move):
            self._fail(W.not_legal_here(seq, text))
        return d

    def _fail(self, why: Any) -> None:
        self._moves.trouble = why
        raise Diverged(why)


def companion_options(moves: RemoteMoves, colour: str) -> dict[str, Any]:
    """The ``Companion`` options that make ``colour`` a remote seat fed by ``moves``
    (call ``agreed_only`` on the companion once it is made)."""
    return {"solo": colour, "bot_factory": moves.factory, "think_limit_s": NEVER}


def agreed_only(companion: Any) -> None:
    """The remote seat's decisions are never made up here: a failed or illegal one is
    shown as a divergence and waited on, not replaced by the greedy bot's."""
    companion.seat.substitute = False
