"""``haleakala bench daemon``: how quickly the companion answers, and what it costs at rest.

Figures (``name: value`` lines):
- ``event_to_frame_p50_ms`` / ``_p99_ms``: an input event handed to the controller until its
  LED frame and OLED image have been handed to the HAL, over ``--events`` (10,000) events
  of scripted play through the simulated inputs (both kits, whole games, the journal on
  disk in a temporary directory). ``decision_to_durable_p99_ms`` adds the journal's fsync
  for the events that made a decision: the frame is shown first, then the decision is made
  durable, then acknowledged.
- ``idle_cpu_percent``: CPU of a real ``haleakala run --hardware sim --headless`` process
  (10 s watchdog, as under systemd) over ``--seconds`` (10) s at a turn start, from
  /proc/PID/schedstat.
- ``startup_to_ready_s``: spawning that process until it sends READY=1 to our own
  ``$NOTIFY_SOCKET`` (median of 3).
- ``rss_mb``: its resident memory after the idle period.
- ``flood_*``: the RFID kit's real driver reading a pseudo-terminal that receives valid
  snapshot frames at ``--flood-rate`` (6,500) per second for ``--flood-seconds`` (15) s, each
  frame changing a beach; the controller and the daemon's loop run as in ``haleakala run``
  (sim LEDs and OLED, a 200 ms watchdog so that a ping is due every 100 ms).
  ``flood_frames_per_s`` is the rate the pty took, ``flood_watchdog_gap_max_s`` the longest
  gap between two watchdog pings during the flood, ``flood_queue_max`` the deepest the event
  queue got, ``flood_after_event_to_frame_p50_ms``/``_p99_ms`` the time from writing one
  frame that changes a beach, once the flood has ended, to the LED frame and OLED image that
  show it (``--flood-probes``, 100, changes one after the other). Every change is sent as
  two consecutive snapshots, as firmware 1.2 does.
- ``attack_*`` (issue 22): on the same link, the bench keeps sending the real Pico's
  snapshots at 10 Hz for 3 s while it slips in, once, a snapshot of the current run
  numbered 900 ahead (``seq_900_ahead``), then a ``hello`` with a new boot id and one
  snapshot (``hello_and_snap``): the longest watchdog gap, the seconds the link was
  reported down, and how often the board the controller saw changed (0 is right).
"""

from __future__ import annotations

import argparse
import itertools
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from haleakala.ai.stats import percentile


def measure_latency(events: int, state_dir: Path) -> dict[str, float]:
    """Scripted play in-process on the sim backend; returns latency figures in ms."""
    import logging

    from haleakala.companion.autoplay import AutoPlayer
    from haleakala.companion.controller import Companion
    from haleakala.companion.journal import Journal
    from haleakala.config import Config
    from haleakala.hal.simulated import SimClock, SimHardware

    logging.getLogger("haleakala").setLevel(logging.WARNING)
    frame_ms: list[float] = []
    durable_ms: list[float] = []
    game_no = 0
    while len(frame_ms) < events:
        kit = ("buttons", "rfid")[game_no % 2]
        variant = ("base", "tactical")[(game_no // 2) % 2]
        config = replace(Config(), kit=kit, variant=variant)
        clock = SimClock(1000.0)
        hardware = SimHardware.from_config(config, clock=clock, history=2)
        journal = Journal(state_dir / f"game{game_no}")
        companion = Companion(hardware, config, journal=journal, clock=clock, seed=game_no)
        companion.start()
        player = AutoPlayer(game_no)
        while not companion.game.is_terminal() and len(frame_ms) < events:
            batch = player.next_events(companion)
            for event in batch:
                made = len(companion.game.history)
                start = time.perf_counter()
                companion.handle(event)
                end = time.perf_counter()
                frame_ms.append((companion.rendered_at - start) * 1000)
                if len(companion.game.history) != made:
                    durable_ms.append((end - start) * 1000)
            clock.advance(0.05)
            companion.tick()
        journal.close()
        hardware.close()
        game_no += 1
    return {
        "event_to_frame_p50_ms": statistics.median(frame_ms),
        "event_to_frame_p99_ms": percentile(frame_ms, 0.99),
        "event_to_frame_max_ms": max(frame_ms),
        "decision_to_durable_p50_ms": statistics.median(durable_ms),
        "decision_to_durable_p99_ms": percentile(durable_ms, 0.99),
        "events": float(len(frame_ms)),
        "games": float(game_no),
    }


def _proc_cpu_s(pid: int) -> float:
    """CPU time of a process: /proc/PID/schedstat (nanoseconds) or /proc/PID/stat (ticks)."""
    try:
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0]) / 1e9
    except (OSError, ValueError, IndexError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks = int(fields[11]) + int(fields[12])  # utime, stime
        return ticks / os.sysconf("SC_CLK_TCK")


def _proc_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def spawn_daemon(tmp: Path, name: str, timeout: float = 10.0):
    """Start ``haleakala run --hardware sim --headless`` as systemd would (notify socket,
    10 s watchdog); return (process, seconds until READY=1, the socket)."""
    sock_path = tmp / f"{name}.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(sock_path))
    sock.settimeout(timeout)
    env = dict(os.environ, NOTIFY_SOCKET=str(sock_path), WATCHDOG_USEC="10000000")
    config = tmp / "config.toml"
    if not config.exists():
        config.write_text("# built-in defaults\n")
    command = [sys.executable, "-m", "haleakala", "run", "--hardware", "sim", "--headless"]
    command += ["--config", str(config), "--state-dir", str(tmp / name), "--log-level", "WARNING"]
    start = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    try:
        while True:
            message = sock.recv(4096).decode()
            if "READY=1" in message.split("\n"):
                return process, time.perf_counter() - start, sock
    except TimeoutError:
        process.kill()
        sock.close()
        raise RuntimeError(f"the daemon sent no READY=1 within {timeout} s") from None


def stop_daemon(process: subprocess.Popen) -> int:
    process.send_signal(signal.SIGTERM)
    return process.wait(timeout=10)


def measure_process(seconds: float, tmp: Path) -> dict[str, float]:
    readies = []
    for i in range(2):
        process, ready, sock = spawn_daemon(tmp, f"start{i}")
        readies.append(ready)
        stop_daemon(process)
        sock.close()
    process, ready, sock = spawn_daemon(tmp, "idle")
    readies.append(ready)
    try:
        time.sleep(0.5)  # let start-up work settle
        before = _proc_cpu_s(process.pid)
        time.sleep(seconds)
        cpu = _proc_cpu_s(process.pid) - before
        rss = _proc_rss_mb(process.pid)
    finally:
        stop_daemon(process)
        sock.close()
    return {
        "idle_cpu_percent": cpu / seconds * 100,
        "startup_to_ready_s": statistics.median(readies),
        "rss_mb": rss,
    }


FLOOD_BOOT = "F100D000"
FLOOD_TAGS = {"E0040150000000A1": "yellow3", "E0040150000000B2": "red1"}


def _flood_frames(first_seq: int, count: int) -> list[bytes]:
    """Valid snapshots, each pair changing beach 2: yellow 3 on it (out of turn), then not.
    (The host moves a disc only when two consecutive snapshots agree, and firmware 1.2
    sends every change twice.)"""
    from haleakala.hal.rfid import protocol

    out = []
    for seq in range(first_seq, first_seq + count):
        beach2 = ("E0040150000000A1",) if (seq // 2) % 2 else ()
        beaches = ((), (), beach2, (), (), ())
        out.append(protocol.encode(protocol.Snapshot(FLOOD_BOOT, seq, beaches)))
    return out


def measure_rfid_flood(
    seconds: float = 15.0,
    rate: float = 6500.0,
    probes: int = 100,
    timeout: float = 30.0,
    attack_seconds: float = 3.0,
) -> dict[str, float]:
    """The flood described in the module docstring; returns its figures.

    Waits on conditions (never sleeps then looks), each bounded by ``timeout`` seconds."""
    import logging
    import threading
    import tty
    from collections import deque

    from haleakala.companion.controller import Companion
    from haleakala.companion.daemon import Daemon, Notifier
    from haleakala.config import Config
    from haleakala.hal.events import Disc
    from haleakala.hal.factory import open_hardware
    from haleakala.hal.rfid import protocol

    logging.getLogger("haleakala").setLevel(logging.ERROR)

    class PingRecorder(Notifier):
        def __init__(self) -> None:
            super().__init__({})
            self.watchdog_s = 0.2
            self.pings: list[float] = []

        def notify(self, message: str) -> bool:
            if message == "WATCHDOG=1":
                self.pings.append(time.monotonic())
            return True

    config = replace(Config(), kit="rfid", tags={u: Disc.parse(d) for u, d in FLOOD_TAGS.items()})
    master, slave = os.openpty()
    tty.setraw(slave)
    # The sim backend with the kit's RFID link reading this pty: the bench is the Pico.
    hardware = open_hardware(
        config,
        "sim",
        clock=time.monotonic,
        history=2,
        rfid=True,
        rfid_options={"port": os.ttyname(slave), "read_timeout_s": 0.05},
    )
    driver = hardware.rfid
    assert driver is not None
    companion = Companion(hardware, config, seed=1, start="red")
    shown = threading.Condition()
    renders: deque[tuple[float, frozenset]] = deque(maxlen=64)
    render = companion.render

    def recorded_render() -> None:
        render()
        with shown:
            renders.append((companion.rendered_at, companion.sensed[2]))
            shown.notify_all()

    companion.render = recorded_render  # type: ignore[method-assign]
    notifier = PingRecorder()
    daemon = Daemon(companion, notifier=notifier)
    companion.start()  # the inputs start, and the RFID link with them
    loop = threading.Thread(target=daemon.run, name="daemon-loop", daemon=True)
    loop.start()
    depth = [0]

    def wait_until(predicate, what: str) -> None:
        end = time.monotonic() + timeout
        with shown:
            while not predicate():
                if time.monotonic() > end:
                    raise RuntimeError(f"flood benchmark: {what} did not happen in {timeout} s")
                shown.wait(0.01)
                depth[0] = max(depth[0], companion.events.qsize())

    try:
        # The driver has the port open (it drops what came before); the Pico says hello.
        wait_until(lambda: driver.health()["connects"] >= 1, "opening the pty")
        hello = protocol.Hello(FLOOD_BOOT, 0, "bench", ("pn5180",) * 6, 2, 100)
        seq = 1
        os.write(master, protocol.encode(hello) + b"".join(_flood_frames(seq, 2)))
        seq += 2
        wait_until(lambda: driver.health()["frames"] >= 3 and companion.link_ok, "the link")
        total = int(seconds * rate)
        frames = _flood_frames(seq, total)
        seq += total
        written = [0]

        def flood() -> None:
            start = time.monotonic()
            sent = 0
            while sent < total:
                due = min(total, int((time.monotonic() - start) * rate) + 1)
                if due > sent:
                    os.write(master, b"".join(frames[sent:due]))  # blocks if not read
                    sent = due
                    written[0] = sent
                else:
                    time.sleep(0.002)

        writer = threading.Thread(target=flood, name="flood", daemon=True)
        pings_before = len(notifier.pings)
        began = time.monotonic()
        writer.start()
        while writer.is_alive():
            writer.join(0.01)
            depth[0] = max(depth[0], companion.events.qsize())
        ended = time.monotonic()
        if seq % 2:  # end on a whole pair
            os.write(master, b"".join(_flood_frames(seq, 1)))
            seq += 1
        want = frozenset({Disc("yellow", 3)}) if ((seq - 1) // 2) % 2 else frozenset()
        wait_until(
            lambda: companion.sensed[2] == want and companion.events.empty(),
            "the end of the flood on the board",
        )
        flood_pings = [began, *notifier.pings[pings_before:], time.monotonic()]
        gap = max(b - a for a, b in itertools.pairwise(flood_pings))
        latencies = []
        for _ in range(probes):
            pair = b"".join(_flood_frames(seq, 2))
            target = frozenset({Disc("yellow", 3)}) if (seq // 2) % 2 else frozenset()
            seq += 2
            sent_at = time.perf_counter()
            os.write(master, pair)
            wait_until(
                lambda t=target, s=sent_at: any(at >= s and b == t for at, b in renders),
                "a probe frame on the LEDs",
            )
            at = min(at for at, b in renders if at >= sent_at and b == target)
            latencies.append((at - sent_at) * 1000)
        stats = daemon.queue_stats()
        attacks = _serial_attacks(master, seq, notifier, companion, attack_seconds)
    finally:
        daemon.stop()
        loop.join(timeout)
        driver.close()
        for fd in (master, slave):
            os.close(fd)
        hardware.close()
    return {
        "flood_seconds": ended - began,
        "flood_frames": float(written[0]),
        "flood_frames_per_s": written[0] / (ended - began),
        "flood_watchdog_gap_max_s": gap,
        "flood_queue_max": float(max(depth[0], stats.get("peak", 0))),
        "flood_coalesced": float(stats.get("coalesced", 0)),
        "flood_dropped": float(stats.get("dropped_total", 0)),
        "flood_after_event_to_frame_p50_ms": statistics.median(latencies),
        "flood_after_event_to_frame_p99_ms": percentile(latencies, 0.99),
        **attacks,
    }


ATTACKS = ("seq_900_ahead", "hello_and_snap")


def _serial_attacks(master: int, seq: int, notifier, companion, seconds: float) -> dict[str, float]:
    """Issue 22: the real Pico (this bench) keeps sending snapshots at 10 Hz while each
    forged frame is slipped in once: a snapshot of the current run numbered 900 ahead
    (beach 2 emptied), then a ``hello`` with a new boot id and one snapshot (yellow 3 put
    elsewhere). For each, over ``seconds``: the longest watchdog gap, how long the link
    was reported down, and how many times the board the controller saw changed."""
    from haleakala.hal.rfid import protocol

    figures: dict[str, float] = {}
    on_2 = ("E0040150000000A1",) if companion.sensed[2] else ()
    real = ((), (), on_2, (), (), ())  # what the real Pico keeps reporting

    def board() -> tuple:
        return tuple(companion.sensed)

    for name in ATTACKS:
        changes = 0
        down_since: float | None = None
        down = 0.0
        pings_before = len(notifier.pings)
        began = time.monotonic()
        forged = False
        last = board()
        while time.monotonic() - began < seconds:
            os.write(master, protocol.encode(protocol.Snapshot(FLOOD_BOOT, seq, real)))
            seq += 1
            if not forged and time.monotonic() - began > 0.3:
                forged = True
                empty: tuple[tuple[str, ...], ...] = ((),) * 6
                if name == "seq_900_ahead":
                    os.write(
                        master, protocol.encode(protocol.Snapshot(FLOOD_BOOT, seq + 900, empty))
                    )
                else:
                    elsewhere = ((), (), (), (), ("E0040150000000A1",), ())
                    os.write(
                        master,
                        protocol.encode(
                            protocol.Hello("BADC0DE5", 0, "forged", ("pn5180",) * 6, 2, 100)
                        )
                        + protocol.encode(protocol.Snapshot("BADC0DE5", 1, elsewhere)),
                    )
            end = time.monotonic() + 0.1
            while time.monotonic() < end:  # 10 Hz, looking at the board and the link
                now_board = board()
                if now_board != last:
                    changes += 1
                    last = now_board
                if not companion.link_ok and down_since is None:
                    down_since = time.monotonic()
                elif companion.link_ok and down_since is not None:
                    down += time.monotonic() - down_since
                    down_since = None
                time.sleep(0.005)
        if down_since is not None:
            down += time.monotonic() - down_since
        pings = [began, *notifier.pings[pings_before:], time.monotonic()]
        figures[f"attack_{name}_watchdog_gap_max_s"] = max(
            b - a for a, b in itertools.pairwise(pings)
        )
        figures[f"attack_{name}_link_down_s"] = down
        figures[f"attack_{name}_board_changes"] = float(changes)
    return figures


def run(args: argparse.Namespace) -> int:
    events = args.events or 10_000
    seconds = args.seconds or 10.0
    tmp = Path(tempfile.mkdtemp(prefix="haleakala-bench-"))
    try:
        figures = measure_latency(events, tmp / "latency")
        figures.update(measure_process(seconds, tmp))
        figures.update(
            measure_rfid_flood(
                getattr(args, "flood_seconds", None) or 15.0,
                getattr(args, "flood_rate", None) or 6500.0,
                getattr(args, "flood_probes", None) or 100,
            )
        )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"events: {figures['events']:.0f}")
    print(f"games: {figures['games']:.0f}")
    for name in (
        "event_to_frame_p50_ms",
        "event_to_frame_p99_ms",
        "event_to_frame_max_ms",
        "decision_to_durable_p50_ms",
        "decision_to_durable_p99_ms",
    ):
        print(f"{name}: {figures[name]:.3f}")
    print(f"idle_cpu_percent: {figures['idle_cpu_percent']:.3f}")
    print(f"startup_to_ready_s: {figures['startup_to_ready_s']:.3f}")
    print(f"rss_mb: {figures['rss_mb']:.1f}")
    print(f"flood_frames: {figures['flood_frames']:.0f}")
    print(f"flood_frames_per_s: {figures['flood_frames_per_s']:.0f}")
    print(f"flood_watchdog_gap_max_s: {figures['flood_watchdog_gap_max_s']:.3f}")
    print(f"flood_queue_max: {figures['flood_queue_max']:.0f}")
    print(f"flood_coalesced: {figures['flood_coalesced']:.0f}")
    print(f"flood_dropped: {figures['flood_dropped']:.0f}")
    for name in ("flood_after_event_to_frame_p50_ms", "flood_after_event_to_frame_p99_ms"):
        print(f"{name}: {figures[name]:.3f}")
    for attack in ATTACKS:
        for what in ("watchdog_gap_max_s", "link_down_s", "board_changes"):
            name = f"attack_{attack}_{what}"
            print(f"{name}: {figures[name]:.3f}")
    return 0
