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
"""

from __future__ import annotations

import argparse
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


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def measure_latency(events: int, state_dir: Path) -> dict[str, float]:
    """Scripted play in-process on the sim backend; returns latency figures in ms."""
    import logging

    from haleakala.config import Config
    from haleakala.hal.sim import SimClock, SimHardware

    from .autoplay import AutoPlayer
    from .controller import Companion
    from .journal import Journal

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
        "event_to_frame_p99_ms": _percentile(frame_ms, 99),
        "event_to_frame_max_ms": max(frame_ms),
        "decision_to_durable_p50_ms": statistics.median(durable_ms),
        "decision_to_durable_p99_ms": _percentile(durable_ms, 99),
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


def run(args: argparse.Namespace) -> int:
    events = args.events or 10_000
    seconds = args.seconds or 10.0
    tmp = Path(tempfile.mkdtemp(prefix="haleakala-bench-"))
    try:
        figures = measure_latency(events, tmp / "latency")
        figures.update(measure_process(seconds, tmp))
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
    return 0
