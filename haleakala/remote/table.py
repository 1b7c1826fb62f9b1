"""The physical board of a remote kit: ``haleakala run --remote ... `` without ``--autoplay``
runs the companion daemon on this kit's board, joined to the remote game.

Why a companion of its own (``RemoteCompanion``, a subclass living here, not in the
controller): the board must never decide alone what the game is. So

- the remote player's decisions are the solo seat's "bot" (``board.RemoteMoves``): shown on
  the OLED and the LEDs as "YELLOW (REMOTE)", taken only once the readers agree;
- this board's own decisions (discs, buttons, a forced one) are checked on the board's game,
  then handed to the kit (``RemoteKit.board_decide``), which sends them to the host (or
  takes them, at the host) only if they are this seat's, numbered next and made on the agreed
  position; the board changes its game only when the agreed game has them (``Agreed``);
- a refusal or a divergence is shown with its reason and nothing is sent;
- undo and a new game are refused with a sentence (both tables agreed on every decision);
- each agreed position replaces the board's game (``AgreedPosition``): a seat kit never
  learns the draw piles' order, so its own draws are made up until the host's view comes.

Threads: the kit's protocol loop runs on a thread of its own (``BoardLink``); it talks to
the companion only by posting events on the companion's queue, and the companion talks to it
only through the kit's event queue. The daemon's loop (``companion.daemon.Daemon``) is the
main thread, as in ``haleakala run``.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from haleakala.companion import ui as U
from haleakala.companion.controller import Companion
from haleakala.companion.physical import instructions, physical_board
from haleakala.games.haleakala import PLAYERS, IllegalDecision
from haleakala.games.haleakala.words import board as BW
from haleakala.games.haleakala.words import notes as N
from haleakala.games.haleakala.words.labels import describe

from . import words as W
from .board import RemoteMoves, agreed_only, companion_options
from .views import view_digest
from .wire import canonical

log = logging.getLogger("haleakala.remote")


@dataclass(frozen=True)
class Agreed:
    """Decision ``seq`` of the agreed game (posted by the kit's thread)."""

    seq: int
    seat: str
    text: str


@dataclass(frozen=True)
class AgreedPosition:
    """The agreed game after ``seq`` decisions, as this kit may hold it (or None)."""

    seq: int
    state: Any


@dataclass(frozen=True)
class BoardAnswer:
    """The kit did not send (or the host refused) the board's decision ``seq``:
    ``kind`` "refused" (``why`` the host's or the kit's sentence) or "diverged" (``why`` is
    ``("seq" | "view", agreed decisions)``)."""

    kind: str
    seq: int
    text: str
    why: Any


def board_digest(game: Any, seat: str) -> str:
    """The digest of ``seat``'s view of ``game``, computed as the host computes a view."""
    view = json.loads(canonical(game.observation(list(game.players).index(seat))))
    return view_digest(view)


class RemoteCompanion(Companion):
    """The companion of one seat (``here``) of a remote Haleakala game whose other seat
    (``remote``) is played at another table. ``send(seq, text, digest)`` hands a decision
    made at this board to the kit. No journal: the host keeps the game."""

    def __init__(
        self,
        hardware: Any,
        config: Any,
        *,
        here: str,
        game: Any,
        send: Callable[[int, str, str], None],
        moves: RemoteMoves | None = None,
        clock: Callable[[], float] = time.monotonic,
        **options: Any,
    ) -> None:
        self.here = here
        self.remote = next(p for p in PLAYERS if p != here)
        self.moves = moves or RemoteMoves()
        self._send = send
        self.waiting: tuple[int, int, str] | None = None  # (seq, decision, by) sent, unagreed
        self.states: dict[int, Any] = {}  # agreed positions not yet reached by the board
        super().__init__(
            hardware, config, game=game, clock=clock,
            **companion_options(self.moves, self.remote), **options,
        )  # fmt: skip
        agreed_only(self)
        self.seat.next_colour = lambda: None  # type: ignore[method-assign]  # stays remote

    # -- what the OLED says of the remote player -------------------------------------

    def _companions_turn(self) -> None:
        super()._companions_turn()
        chooser = self.panel.chooser
        if chooser is not None and chooser.kind == U.PROPOSAL:
            waiting = None if chooser.options else W.waiting_for(self.remote)
            chooser = replace(chooser, title=W.remote_title(self.remote), subject=waiting)
            self.panel = replace(self.panel, chooser=chooser)

    def _on_bot_decided(self, event: Any) -> None:
        super()._on_bot_decided(event)
        message = self.panel.message
        if self.seat.trouble and message is not None and message.title in ("DIVERGED", W.DIVERGED):
            why = self.moves.trouble or self.seat.trouble
            self.show(W.DIVERGED, why)

    def _finish(self) -> None:
        self._name_the_remote()
        super()._finish()

    def _name_the_remote(self) -> None:
        """The solo mode's words for a board touched during the other seat's turn speak of
        "the companion" (``COMPANION'S TURN``, "still thinking"): here it is a player at
        the other table, and the OLED says so."""
        if not self.seat.plays(self.game):
            return
        title = W.remote_title(self.remote)
        d = self.seat.proposal_for(self.game)
        if d is None:
            why = W.not_decided_yet(self.remote)
        else:
            why = W.carry_out(self.remote, describe(self.game, d))
        m = self.panel.mismatch
        if m is not None and m.headline == BW.COMPANIONS_TURN:
            self.panel = replace(self.panel, mismatch=replace(m, headline=title, reason=why))
        message = self.panel.message
        if message is not None and message.title in (BW.COMPANIONS_TURN, N.THINKING):
            self.panel = replace(self.panel, message=replace(message, title=title, text=why))

    def _note(self, note: W.Note, *, refusal: bool = True) -> None:
        self.show(note[0], note[1], refusal=refusal)

    # -- refused in a remote game ----------------------------------------------------

    def undo(self) -> bool:
        self._note(W.no_undo())
        return False

    def new_game(self, *args: Any, **kwargs: Any) -> None:
        self._note(W.no_new_game())

    # -- decisions ------------------------------------------------------------------

    @property
    def awaiting_host(self) -> bool:
        """This board's decision is on its way to the host (nothing may be decided)."""
        return self.waiting is not None

    def decide(self, d: int, by: str) -> None:
        """The remote seat's decision (``by`` "bot", agreed already) is taken once the board
        agrees; this seat's is only sent (the agreed game's answer takes it)."""
        if by == "bot" or self.paused is not None:
            self._take(d, by)
            return
        game = self.game
        if game.to_move != self.here:  # a decision of the other table's seat: never sent
            self._note(W.played_elsewhere(self.remote))
            return
        seq = len(game.history) + 1
        if self.waiting is not None:
            if self.waiting[:2] != (seq, d):
                self._note(W.still_sending(game.format(self.waiting[1])))
            return
        try:
            game.clone().apply(d)
        except IllegalDecision as exc:
            self.show(*N.not_allowed(str(exc)), refusal=True)
            return
        self.waiting = (seq, d, by)
        self.panel = replace(self.panel, auto_at=None)  # a forced one is sent once
        text = game.format(d)
        log.info("board: %s decides %s (decision %d): sent", self.here, text, seq)
        self._send(seq, text, board_digest(game, self.here))
        self._note(W.sent(text), refusal=False)

    def _take(self, d: int, by: str) -> None:
        before = self.game
        super().decide(d, by)
        if self.game is not before:
            self._adopt(before)

    def _adopt(self, before: Any) -> None:
        """The agreed position for the board's new place, if it has come: it replaces the
        board's own (the draws a seat kit made up); the pieces to move are said again."""
        seq = len(self.game.history)
        state = self.states.pop(seq, None)
        for old in [s for s in self.states if s < seq]:
            del self.states[old]
        if state is None or state.digest() == self.game.digest():
            return
        self.game = state
        moves = instructions(
            physical_board(before), physical_board(state), discs=self.kit != "rfid"
        )
        self.panel = replace(self.panel, instructions=tuple(moves))
        self.watch.changed_by_game(BW.TAKE_DISCS_BACK)
        self.refresh()

    def _dispatch(self, event: object) -> None:
        if isinstance(event, Agreed):
            self._agreed(event)
        elif isinstance(event, AgreedPosition):
            self._position(event)
        elif isinstance(event, BoardAnswer):
            self._answer(event)
        else:
            super()._dispatch(event)

    def _agreed(self, event: Agreed) -> None:
        if event.seq <= len(self.game.history):
            return  # the board started from a later position
        self.moves.add(event.seq, event.text, event.seat)
        if event.seat != self.here:
            return
        waiting, self.waiting = self.waiting, None
        if waiting is None or waiting[0] != event.seq or self.game.format(waiting[1]) != event.text:
            self._note(W.unasked(event.seq, event.text))
            return
        if self.panel.message is not None and self.panel.message.title == W.sent("")[0]:
            self.panel = replace(self.panel, message=None)
        self._take(waiting[1], waiting[2])

    def _position(self, event: AgreedPosition) -> None:
        if event.state is None:
            return
        if event.seq == len(self.game.history):
            self.states[event.seq] = event.state
            self._adopt(self.game)
        elif event.seq > len(self.game.history):
            self.states[event.seq] = event.state

    def _answer(self, event: BoardAnswer) -> None:
        if self.waiting is not None and self.waiting[0] == event.seq:
            self.waiting = None
        if event.kind == "diverged":
            what, agreed = event.why
            note = W.behind(event.seq - 1, agreed) if what == "seq" else W.other_position(agreed)
            log.error("board: %s not sent: %s", event.text, note[1])
            self._note(note)
        else:
            log.warning("board: %s refused: %s", event.text, event.why)
            self._note(W.refused(event.text, str(event.why)))
        self.watch.reconcile()  # the board shows what to take back


class BoardLink:
    """Joins a ``RemoteKit`` (its thread) to a ``RemoteCompanion`` (the daemon's): the kit's
    agreed decisions and positions become companion events, the board's decisions kit events.
    Before the companion exists, they are kept (the first position starts the board)."""

    def __init__(self, kit: Any) -> None:
        self.kit = kit
        self._lock = threading.Lock()
        self._companion: Any = None
        self._early: list[object] = []
        self.first: tuple[int, Any] | None = None
        self.ready = threading.Event()  # the first agreed position is known
        kit.agreed = self._agreed
        kit.position = self._position
        kit.board_answer = self._answer

    def send(self, seq: int, text: str, digest: str) -> None:
        """``RemoteCompanion``'s ``send``: to the kit's thread."""
        self.kit.events.put(("board", seq, text, digest))

    def attach(self, companion: Any) -> None:
        with self._lock:
            self._companion = companion
            early, self._early = self._early, []
        for event in early:
            companion.post(event)

    def _post(self, event: object) -> None:
        with self._lock:
            if self._companion is None:
                self._early.append(event)
                return
            companion = self._companion
        companion.post(event)

    def begin(self, seq: int, state: Any) -> None:
        """The host's board starts from its own game (a copy), known before the loop runs."""
        self._position(seq, state)

    def _agreed(self, seq: int, seat: str, text: str) -> None:
        self._post(Agreed(seq, seat, text))

    def _position(self, seq: int, state: Any) -> None:
        if self.first is None and state is not None:
            self.first = (seq, state.clone())
        self.ready.set()  # (None: the game has no board here)
        self._post(AgreedPosition(seq, state))

    def _answer(self, kind: str, seq: int, text: str, why: Any) -> None:
        self._post(BoardAnswer(kind, seq, text, why))


# --------------------------------------------------------------------------- start-up


def run_board(args: Any, kit: Any) -> int:
    """``run --remote`` on this kit's board: the kit's loop on a thread, the companion
    daemon on this one. A game that has no Haleakala board (any other game: a seat learns
    it from the host's snapshot) is played with decisions typed on standard input."""
    from haleakala.companion.daemon import (
        EXIT_CONFIG,
        EXIT_FAILURE,
        Daemon,
        Notifier,
        setup_logging,
    )
    from haleakala.config import ConfigError, load
    from haleakala.hal.factory import BackendError, choose_backend, open_hardware
    from haleakala.hal.pi import HardwareError

    setup_logging(getattr(args, "log_level", "INFO"))
    try:
        config = load(getattr(args, "config", None))
        backend = choose_backend(config, getattr(args, "hardware", None))
    except (ConfigError, BackendError, OSError) as exc:
        log.error("%s", exc)
        return EXIT_CONFIG
    link = BoardLink(kit)
    if kit.authority is not None:  # the host holds the game: the board starts from it
        link.begin(kit.authority.seq, kit.authority.game.clone())
    stop = threading.Event()
    ended: list[int] = []
    thread = threading.Thread(
        target=lambda: ended.append(kit.run(stop)), name="haleakala-remote-kit", daemon=True
    )
    thread.start()
    with _stopped_by_signals(stop):
        while not link.ready.wait(0.2):
            if not thread.is_alive() or stop.is_set():
                stop.set()
                thread.join(5)
                return ended[0] if ended else 0
    if link.first is None:  # the host's game has no board here (any other game)
        from .kit import stdin_reader

        log.info("this game is not played on a Haleakala board: decisions are typed")
        kit.typed = True
        threading.Thread(target=stdin_reader, args=(kit.events,), daemon=True).start()
        with _stopped_by_signals(stop):
            while thread.is_alive():
                thread.join(0.5)
        return ended[0] if ended else 0
    from haleakala import palette
    from haleakala.i18n import speak

    log.info("language: %s", speak(getattr(args, "lang", None), config.language, warn=log.error))
    log.info("colours: %s", palette.use(getattr(args, "palette", None) or config.palette))
    try:
        hardware = open_hardware(config, backend, clock=time.monotonic, history=4)
    except HardwareError as exc:
        log.error("%s", exc)
        stop.set()
        return EXIT_FAILURE
    companion = RemoteCompanion(hardware, config, here=kit.seat, game=link.first[1],
                                send=link.send)  # fmt: skip
    link.attach(companion)
    daemon = Daemon(companion, notifier=Notifier())
    daemon.install_signal_handlers()

    def end_with_the_kit() -> None:
        thread.join()
        daemon.stop()  # the game is over (or the kit gave up): the board says bye

    threading.Thread(target=end_with_the_kit, daemon=True).start()
    companion.start()
    daemon.ready()
    try:
        code = daemon.run()
    finally:
        daemon.shutdown()
        stop.set()
        kit.events.put(("release",))  # wakes the kit's loop
        thread.join(5)
    return ended[0] if ended else code


class _stopped_by_signals:
    """SIGTERM / SIGINT set ``stop`` while the board waits for the host's game."""

    def __init__(self, stop: threading.Event) -> None:
        self.stop = stop
        self.before: dict[int, Any] = {}

    def __enter__(self) -> None:
        import signal

        for sig in (signal.SIGTERM, signal.SIGINT):
            self.before[sig] = signal.signal(sig, lambda *_: self.stop.set())

    def __exit__(self, *exc: object) -> None:
        import signal

        for sig, handler in self.before.items():
            signal.signal(sig, handler)
