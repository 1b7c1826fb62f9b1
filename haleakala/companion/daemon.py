"""``haleakala run``: the daemon's main loop, systemd notification and shutdown.

One loop in the main thread: block on the event queue with a timeout equal to the next
deadline (a timer of the controller, an animation step, the next watchdog ping), handle
what arrived, tell systemd how things are. Nothing polls: an idle island costs no CPU.
Under a flood the loop handles events in slices of at most ``SLICE_S`` (100 ms) of loop
time, so the watchdog ping and the timers still run; the queue itself is bounded and
coalesces board reports (``haleakala.hal.eventqueue``), and its counters are logged now
and then.

systemd (``Type=notify``): ``READY=1`` once the first frame is shown, ``STATUS=`` whenever
the one-line status changes, ``WATCHDOG=1`` every half ``WATCHDOG_USEC`` — sent from this
loop after ``Companion.healthy()``, never from a side thread, so a hung loop is restarted.
The datagrams are written to ``$NOTIFY_SOCKET`` directly (a few lines, no dependency).

SIGTERM / SIGINT: the loop ends, the LEDs go dark, the OLED says "bye", exit 0.
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .host import LiveView

    LiveViewStarter = Callable[[str, Any], LiveView | None]

log = logging.getLogger("haleakala.daemon")

EXIT_OK = 0
EXIT_FAILURE = 1  # hardware or state directory unusable: systemd may retry
EXIT_CONFIG = 2  # the config has mistakes: retrying will not help

_STOP = object()
_WAKE = object()  # the voice fell silent: an autoplayer paced by speech plays on

SLICE_S = 0.1
"""Longest stretch of loop time spent handling queued events before the watchdog ping and
the timers get their turn (a flood must not starve them: WatchdogSec is 10 s)."""
QUEUE_REPORT_S = 30.0
"""How often the event queue's counters are logged, if they changed."""


class Notifier:
    """sd_notify without libsystemd: one datagram per message to ``$NOTIFY_SOCKET``."""

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        env = os.environ if env is None else env
        address = env.get("NOTIFY_SOCKET", "")
        self.address: str | None = None
        self.sock: socket.socket | None = None
        if address:
            if address.startswith("@"):  # abstract namespace
                address = "\0" + address[1:]
            self.address = address
            self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
        self.watchdog_s: float | None = None
        usec, pid = env.get("WATCHDOG_USEC"), env.get("WATCHDOG_PID")
        if usec and usec.isdigit() and int(usec) > 0 and (not pid or pid == str(os.getpid())):
            self.watchdog_s = int(usec) / 1e6

    def notify(self, message: str) -> bool:
        if self.sock is None or self.address is None:
            return False
        try:
            self.sock.sendto(message.encode(), self.address)
            return True
        except OSError as exc:
            log.warning("sd_notify %r failed: %s", message.split("=")[0], exc)
            return False

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
            self.sock = None


EXTEND_AFTER_S = 5.0
"""A start-up still reading the journal after this long asks systemd for more time (the
unit allows ``TimeoutStartSec=30``; a normal start is ready in well under a second)."""
EXTEND_BY_S = 30.0
"""Each ask: this long from now (systemd's ``EXTEND_TIMEOUT_USEC``)."""
EXTEND_EVERY_S = 5.0
"""Asked again this often while the reading goes on (well before the last ask runs out)."""


class StartupClock:
    """Told how far recovery has read the journal (``Journal.progress``): while a start-up
    really takes long (a journal with megabytes of garbage behind its records, on a slow
    card), it tells systemd so before the unit's start timeout kills it, and says how far
    it is in the status line. A normal start never asks."""

    def __init__(
        self, notifier: Notifier, clock: Callable[[], float], *, started: float | None = None
    ) -> None:
        self.notifier = notifier
        self.clock = clock
        self.started = clock() if started is None else started
        self.next_at = self.started + EXTEND_AFTER_S
        self.asked = 0

    def __call__(self, done: int, total: int) -> None:
        now = self.clock()
        if now < self.next_at:
            return
        self.next_at = now + EXTEND_EVERY_S
        if not self.asked:
            log.info("the journal is long (%d MB): reading it, systemd told to wait", total >> 20)
        self.asked += 1
        self.notifier.notify(
            f"EXTEND_TIMEOUT_USEC={int(EXTEND_BY_S * 1e6)}\n"
            f"STATUS=reading the journal: {done >> 20} of {total >> 20} MB"
        )


def setup_logging(level: str = "INFO") -> None:
    """Lines on stdout; under journald each carries its priority (``logs``)."""
    from .logs import setup_logging as to_stdout

    to_stdout(level)


class Daemon:
    """The running companion: hardware, journal, controller and the loop around them."""

    def __init__(
        self,
        companion: Any,
        *,
        notifier: Notifier | None = None,
        autoplayer: Any = None,
        extra_inputs: list[Any] | None = None,
        live: Any = None,
    ) -> None:
        self.companion = companion
        self.live = live  # haleakala.web.server.LiveView, or None (no listener)
        self.notifier = notifier or Notifier({})
        self.autoplayer = autoplayer
        self.extra_inputs = extra_inputs or []
        self.stopping = False
        self._status = ""
        self.exit_code = EXIT_OK
        self._next_report = 0.0
        self._reported: tuple[int, int] = (0, 0)

    # -- signals ---------------------------------------------------------------------

    def install_signal_handlers(self) -> None:
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, self._on_signal)

    def _on_signal(self, signum: int, _frame: Any) -> None:
        self.stopping = True
        # The handler interrupts the main thread, perhaps inside the queue's own lock:
        # post the wake-up from a fresh thread, which simply waits for that lock.
        threading.Thread(target=self.companion.post, args=(_STOP,), daemon=True).start()
        log.info("signal %d: shutting down", signum)

    def stop(self) -> None:
        self.stopping = True
        self.companion.post(_STOP)

    # -- the loop --------------------------------------------------------------------

    def ready(self) -> None:
        self.notifier.notify("READY=1\nSTATUS=" + self.companion.status())
        log.info("ready: %s", self.companion.status())

    def run(self) -> int:
        """The loop. Each turn: ping the watchdog if due (after the health check), run the
        controller's timers if due (or if the last slice left events waiting), then wait for
        the next event and handle events for at most ``SLICE_S`` of loop time, or until the
        next ping or timer is due. So pings and timers come at least every ``SLICE_S`` (plus
        one event's handling) however full the queue is, and an idle island still sleeps."""
        companion = self.companion
        clock = companion.clock
        watchdog = self.notifier.watchdog_s
        next_ping = clock() if watchdog else None
        self._next_report = clock() + QUEUE_REPORT_S
        busy = False  # the last slice ended with events still waiting
        while not self.stopping:
            fed = False
            if self.autoplayer is not None and companion.events.empty():
                if companion.game.is_terminal() and self._heard():
                    log.info("autoplay: %s", companion.status())  # "game over: red wins 16-15"
                    break
                for event in self.autoplayer.next_events(companion):
                    companion.post(event)
                    fed = True
            now = clock()
            if next_ping is not None and now >= next_ping:
                self._ping()
                next_ping = now + (watchdog or 1.0) / 2
            due = companion.next_deadline()
            if busy or (due is not None and now >= due):
                companion.tick()
                due = companion.next_deadline()
            self._report_queue(now)
            status = companion.status()
            if status != self._status:
                self._status = status
                self.notifier.notify("STATUS=" + status)
            if self.live is not None:  # before sleeping: hand over the position if it changed
                self.live.observe(companion)
            paced = getattr(self.autoplayer, "wait_until", lambda: None)()
            deadlines = [d for d in (due, next_ping, paced) if d is not None]
            if fed or busy:
                timeout: float | None = 0.0
            else:
                timeout = max(0.0, min(deadlines) - now) if deadlines else None
            try:
                event = (
                    companion.events.get(timeout=timeout)
                    if timeout != 0
                    else companion.events.get_nowait()
                )
            except queue.Empty:
                event = None
            busy = False
            stop_at = min([clock() + SLICE_S, *deadlines])
            while event is not None:
                if event is _STOP:
                    self.stopping = True
                    break
                if event is not _WAKE:
                    companion.handle(event)
                if clock() >= stop_at:
                    busy = not companion.events.empty()
                    break
                try:
                    event = companion.events.get_nowait()
                except queue.Empty:
                    event = None
        if self.live is not None:  # the last position (a finished game) reaches the viewers
            self.live.observe(companion)
        self._report_queue(None)
        return self.exit_code

    def _ping(self) -> None:
        if self.companion.healthy():
            self.notifier.notify("WATCHDOG=1")
        else:
            log.error("health check failed: no watchdog ping (systemd will restart)")

    def queue_stats(self) -> dict[str, Any]:
        """The event queue's counters (coalesced reports, dropped inputs, deepest backlog)."""
        stats = getattr(self.companion.events, "stats", None)
        return stats() if stats is not None else {"queued": self.companion.events.qsize()}

    def _report_queue(self, now: float | None) -> None:
        """Log the queue's counters once in a while (and at the end), only if they moved:
        a flood is told in one line per ``QUEUE_REPORT_S``, never one line per event."""
        if now is not None and now < self._next_report:
            return
        if now is not None:
            self._next_report = now + QUEUE_REPORT_S
        stats = self.queue_stats()
        moved = (stats.get("coalesced", 0), stats.get("dropped_total", 0))
        if moved == self._reported:
            return
        coalesced = moved[0] - self._reported[0]
        dropped = moved[1] - self._reported[1]
        self._reported = moved
        kinds = ", ".join(f"{n} {k}" for k, n in sorted(stats.get("dropped", {}).items()))
        log.log(
            logging.WARNING if dropped else logging.INFO,
            "event queue: %d board reports coalesced, %d inputs dropped%s, deepest %d of %d",
            coalesced,
            dropped,
            f" (in all: {kinds})" if kinds else "",
            stats.get("peak", 0),
            stats.get("maxsize", 0),
        )

    def pace_by_speech(self) -> None:
        """``--autoplay`` on a kit that speaks: the scripted player waits for the voice to
        finish (``AutoPlayer``), and the voice wakes the loop when it does, so a demo or a
        test hears every decision; the loop itself never waits for speech."""
        narrator = getattr(self.companion, "narrator", None)
        if narrator is not None and self.autoplayer is not None:
            narrator.voice.on_idle = lambda: self.companion.post(_WAKE)

    def _heard(self) -> bool:
        """Has the voice said everything (so an autoplayed game ends after its result)?"""
        narrator = getattr(self.companion, "narrator", None)
        return narrator is None or narrator.voice.idle()

    def shutdown(self) -> None:
        self.notifier.notify("STOPPING=1")
        if self.live is not None:
            self.live.close()
        for source in self.extra_inputs:
            try:
                source.close()
            except Exception:  # a device that will not close must not stop the shutdown
                log.exception("closing %r", source)
        from .speaking import detach

        detach(self.companion)
        self.companion.say_bye()
        log.info("bye")
        self.notifier.close()


# --------------------------------------------------------------------------- start-up


def main(
    args: Any,
    start_live_view: LiveViewStarter | None = None,
    teach: Callable[[Any, bool], None] | None = None,
    *,
    clock: Callable[[], float] = time.monotonic,
) -> int:
    """``haleakala run``: load the config, open the hardware, resume the game, loop.

    ``start_live_view(address, companion)`` starts the web live view (None when it cannot:
    it has logged why); the command line hands in ``haleakala.web.start``'s, so that the
    companion imports nothing of the web. Without it a live view asked for is a config
    error with a sentence. ``teach(companion, first_boot)`` lets a package above this one
    teach on the board (``haleakala.learn.board.install``: the menu's lessons, the first
    boot's offer). ``clock`` times the start-up (tests inject one)."""
    started = clock()  # from here the unit's start timeout runs
    setup_logging(getattr(args, "log_level", "INFO"))
    from haleakala.config import ConfigError, load

    try:
        config = load(getattr(args, "config", None))
    except ConfigError as exc:
        log.error("bad config, not starting (%d problems):", len(exc.problems))
        for problem in exc.problems:
            log.error("  %s", problem)
        print(f"haleakala run: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    except OSError as exc:
        log.error("cannot read the config: %s", exc)
        print(f"haleakala run: cannot read the config: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    if config.note:
        log.info("%s", config.note)
    from haleakala.hal.factory import BackendError, choose_backend

    try:
        backend = choose_backend(config, getattr(args, "hardware", None))
    except BackendError as exc:
        log.error("%s", exc)
        return EXIT_CONFIG
    autoplay = getattr(args, "autoplay", None)
    if autoplay is not None and backend != "sim":
        log.error("--autoplay drives simulated inputs: use it with --hardware sim")
        return EXIT_CONFIG
    state_dir = Path(getattr(args, "state_dir", None) or config.state_dir)
    refusal = root_refusal(state_dir, os.geteuid())
    if refusal:
        log.error("%s", refusal)
        print(f"haleakala run: {refusal}", file=sys.stderr)
        return EXIT_CONFIG
    try:
        state_dir.mkdir(parents=True, exist_ok=True)
        probe = state_dir / ".writable"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        owner = ""
        if isinstance(exc, PermissionError):
            from .journal import ownership_fix

            owner = " (it belongs to {}; fix it with: {})".format(*ownership_fix(state_dir))
        log.error(
            "state directory %s is not writable (%s)%s: give the daemon's user a writable "
            "directory (systemd: StateDirectory=haleakala) or pass --state-dir",
            state_dir,
            exc,
            owner,
        )
        return EXIT_FAILURE

    from haleakala.i18n import speak

    log.info("language: %s", speak(getattr(args, "lang", None), config.language, warn=log.error))
    from haleakala import palette

    log.info("colours: %s", palette.use(getattr(args, "palette", None) or config.palette))
    from haleakala.hal.factory import open_hardware
    from haleakala.hal.pi import HardwareError

    if backend == "sim" and not getattr(args, "headless", False):
        log.info("the daemon opens no window: 'haleakala sim' shows one; running headless")
    try:
        # The sim backend keeps 4 frames (nobody looks back further); an RFID kit's Pico
        # link comes with the inputs and starts with them (Companion.start).
        hardware = open_hardware(config, backend, clock=time.monotonic, history=4)
    except HardwareError as exc:
        log.error("%s", exc)
        return EXIT_FAILURE
    if hardware.rfid is not None:
        log.info("RFID link on %s", config.rfid.port)

    from .controller import Companion
    from .journal import JOURNAL_NAME, Journal, JournalError

    first_boot = not (state_dir / JOURNAL_NAME).exists()  # a board that never played
    notifier = Notifier()
    startup = StartupClock(notifier, clock, started=started)
    journal = Journal.on_card(
        state_dir, getattr(args, "snapshot_every", 20) or 20, progress=startup
    )
    companion = None
    while companion is None:
        try:
            companion = Companion(
                hardware,
                config,
                journal=journal,
                variant=getattr(args, "variant", None),
                solo=getattr(args, "solo", None),
                strength=getattr(args, "strength", None),
                seed=getattr(args, "seed", None),
                start=getattr(args, "start", None),
            )
        except JournalError as exc:  # e.g. root's unreadable journal: wait for the fix
            if not wait_for_storage(exc, hardware, notifier):
                hardware.close()
                notifier.close()
                return EXIT_OK

    if getattr(args, "lang", None) is None and journal.language:  # chosen at the board
        log.info("language from the journal: %s", speak(journal.language, warn=log.error))
    if getattr(args, "palette", None) is None and journal.palette:  # chosen at the board
        log.info("colours from the journal: %s", palette.use(journal.palette))
    if teach is not None:
        teach(companion, first_boot and not companion.game.history)
    autoplayer = None
    if autoplay is not None:
        from .autoplay import AutoPlayer

        autoplayer = AutoPlayer(autoplay, getattr(args, "autoplay_pace", 0.0) or 0.0)
    live = None
    web = getattr(args, "web", None) or (
        f"{config.web.host}:{config.web.port}" if config.web.enabled else None
    )
    if web and start_live_view is None:
        log.error("the live view (%s) is started by 'haleakala run': this caller has none", web)
    if web:
        live = start_live_view(web, companion) if start_live_view is not None else None
        if live is None:
            hardware.close()
            notifier.close()
            return EXIT_CONFIG
    from . import health

    health.announce(companion, state_dir)  # an update rolled back: on the first frame
    from .speaking import attach

    attach(companion, config)
    daemon = Daemon(companion, notifier=notifier, autoplayer=autoplayer, live=live)
    daemon.pace_by_speech()
    daemon.install_signal_handlers()
    companion.start()
    daemon.ready()
    state = "paused" if companion.keeper.waiting else "resumed" if companion.resumed else "new"
    health.write_health(state_dir, health.record(companion, state))
    try:
        code = daemon.run()
    finally:
        daemon.shutdown()
    return code


STORAGE_RETRY_S = 2.0


def wait_for_storage(
    exc: Any, hardware: Any, notifier: Notifier, *, retry_s: float = STORAGE_RETRY_S
) -> bool:
    """The journal cannot be read or started (a root-only ``journal.bin``, a full disk):
    say why and how to fix it (log in full, OLED in short), keep systemd content (READY,
    STATUS, WATCHDOG: no restart loop), wait ``retry_s``. False: a signal asked to stop."""
    from haleakala.i18n import render

    from . import oled

    log.error("not starting the game yet: %s", exc)
    with contextlib.suppress(Exception):
        title, short = render(exc.title), render(exc.short)  # the player's language (logs: EN)
        screen = oled.Screen("! " + title, oled.wrap(short), alert=True)
        hardware.display.show(oled.draw(screen))
    notifier.notify(f"READY=1\nSTATUS=waiting: {exc.short}")
    stop = threading.Event()
    before = {s: signal.signal(s, lambda *_: stop.set()) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        ping = min(retry_s, (notifier.watchdog_s or retry_s * 2) / 2)
        waited = 0.0
        while waited < retry_s:
            notifier.notify("WATCHDOG=1")
            if stop.wait(ping):
                return False
            waited += ping
        return True
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)


def root_refusal(state_dir: Path, euid: int) -> str | None:
    """Why ``haleakala run`` as root must not use ``state_dir`` (None: it may).

    The service runs as its own user and owns its state directory; a root run there would
    leave a root-owned ``journal.bin`` that the service can no longer append to."""
    if euid != 0:
        return None
    try:
        owner_uid = state_dir.stat().st_uid
    except OSError:
        return None  # created now, by root, for root
    if owner_uid == 0:
        return None
    import pwd

    try:
        owner = pwd.getpwuid(owner_uid).pw_name
    except KeyError:
        owner = f"uid {owner_uid}"
    return (
        f"refusing to run as root on {state_dir}: it belongs to {owner} (the service's user), "
        f"and files root writes there (journal.bin, snapshot.json) could no longer be saved "
        f"to by the service. Stop the service (sudo systemctl stop haleakala) and run as "
        f"that user (sudo -u {owner} haleakala run ...), or pass --state-dir for a directory "
        f"of your own"
    )
