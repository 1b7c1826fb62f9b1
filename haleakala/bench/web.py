"""``haleakala bench web``: the live view under 50 viewers, and what it costs the daemon.

The companion runs in this process on the sim backend (scripted play, as ``bench daemon``)
with the live view on loopback; the viewers are another process (aiohttp clients, one event
stream each), so their reading does not share this process's interpreter lock. Both processes
stamp with ``time.monotonic`` (one system-wide clock on Linux).

- ``update_p50_ms`` / ``_p99_ms``: an input event that makes a decision, handed to the
  controller, until a viewer has read the snapshot of the new position (every viewer, every
  decision); ``updates_skipped``: updates a viewer never saw because a newer one replaced it.
- ``event_to_frame_p50_ms`` / ``_p99_ms``: the daemon's own figure (event -> LED frame and
  OLED image handed to the hardware) with the viewers attached, as ``bench daemon`` measures it;
  ``publish_p99_ms``: what building and handing over one snapshot adds on the game thread;
  ``web_cpu_ms_per_decision``: this process's CPU time per decision with the viewers minus
  without them (snapshot, JSON, and the server's writes to every viewer).
- ``idle_cpu_percent``: this process (game thread and server) while nothing happens and the
  viewers stay attached; ``added_rss_mb``: resident memory from before aiohttp was imported
  to the end, with the viewers attached.
- ``attack_*`` (issue 22): the same decisions, once more, while a second client
  (``web_attack``, a third process, from 127.0.0.2) sends ``--malformed`` requests (1,000)
  and tries to hold ``--idle-sockets`` (64) idle and half-sent sockets, reconnecting each as
  the server sheds it: ``attack_update_p99_ms`` and its kin as above for the decisions made
  meanwhile (play goes on until the last malformed request is answered), what the attacker
  was answered, how many of its sockets the server ended, the log lines the attack cost
  (``attack_log_lines``; ``attack_tracebacks`` must be 0) and the viewers still attached.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from haleakala.ai.stats import percentile
from haleakala.bench.daemon import _proc_cpu_s, _proc_rss_mb
from haleakala.checkout import install_hint

DEFAULT_VIEWERS = 50
DEFAULT_DECISIONS = 300
DEFAULT_IDLE_S = 10.0
WARM_UP = 30
"""Decisions played and not timed first, so both timed phases start warm."""
DEFAULT_PACE_S = 0.05
"""Pause between decisions: players take seconds; this is only short enough to be quick."""
WAVE = 4
"""Viewers that connect at once (fewer than the server's share for one address)."""
DEFAULT_MALFORMED = 1000
DEFAULT_IDLE_SOCKETS = 64


def run(args: Any) -> int:
    viewers = getattr(args, "viewers", None) or DEFAULT_VIEWERS
    decisions = getattr(args, "decisions", None) or DEFAULT_DECISIONS
    idle_s = getattr(args, "seconds", None) or DEFAULT_IDLE_S
    pace = getattr(args, "pace", None)
    pace = DEFAULT_PACE_S if pace is None else pace
    malformed = getattr(args, "malformed", None)
    malformed = DEFAULT_MALFORMED if malformed is None else malformed
    idle_sockets = getattr(args, "idle_sockets", None)
    idle_sockets = DEFAULT_IDLE_SOCKETS if idle_sockets is None else idle_sockets
    try:
        import aiohttp  # noqa: F401
    except ImportError:
        print(f"haleakala bench web: needs the web extra ({install_hint('web')})")
        return 2
    with tempfile.TemporaryDirectory(prefix="haleakala-bench-web-") as tmp:
        figures = measure(Path(tmp), viewers, decisions, idle_s, pace, (malformed, idle_sockets))
    for name, value in figures.items():
        print(f"{name}: {value:.3f}" if isinstance(value, float) else f"{name}: {value}")
    return 0


def measure(
    state_dir: Path,
    viewers: int,
    decisions: int,
    idle_s: float,
    pace: float,
    attack: tuple[int, int] = (0, 0),
) -> dict:
    """The figures of the module's docstring; ``attack``: (malformed requests, idle sockets)
    of the second client, (0, 0) for none."""
    from haleakala.companion.autoplay import AutoPlayer
    from haleakala.companion.controller import Companion
    from haleakala.companion.journal import Journal
    from haleakala.config import Config
    from haleakala.hal.simulated import SimClock, SimHardware

    logging.getLogger("haleakala").setLevel(logging.WARNING)
    config = replace(Config(), kit="buttons", variant="base")
    clock = SimClock(1000.0)
    hardware = SimHardware.from_config(config, clock=clock, history=2)
    journal = Journal(state_dir / "game")
    companion = Companion(hardware, config, journal=journal, clock=clock, seed=1)
    companion.start()
    player = AutoPlayer(1)
    _play(companion, clock, player, None, WARM_UP, pace, {}, [], [])  # caches, first game
    cpu_a = _proc_cpu_s(os.getpid())
    alone = _play(companion, clock, player, None, decisions, pace, {}, [], [])
    cpu_a = _proc_cpu_s(os.getpid()) - cpu_a
    rss_before = _proc_rss_mb(os.getpid())

    from haleakala.web.server import LiveView

    live = LiveView("127.0.0.1", 0).start()
    live.observe(companion)
    crowd = subprocess.Popen(
        [sys.executable, "-c", "from haleakala.bench.web import viewers_main; viewers_main()",
         str(live.port), live.token, str(viewers)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert crowd.stdout is not None and crowd.stdin is not None
    if crowd.stdout.readline().strip() != "ready":
        crowd.kill()
        raise RuntimeError("the viewers did not connect")
    published: dict[int, float] = {}
    publish_ms: list[float] = []
    frame_ms: list[float] = []
    cpu_b = _proc_cpu_s(os.getpid())
    _play(companion, clock, player, live, decisions, pace, published, publish_ms, frame_ms)
    cpu_b = _proc_cpu_s(os.getpid()) - cpu_b
    attacked: dict[int, float] = {}
    attack_figures: dict[str, Any] = {}
    if any(attack):
        attack_figures = _under_attack(live, attack, decisions, pace,
                                       lambda n: _play(companion, clock, player, live, n, pace,
                                                       attacked, [], []))  # fmt: skip
    time.sleep(1.0)  # the last updates reach everyone
    cpu0, t0 = _proc_cpu_s(os.getpid()), time.monotonic()
    time.sleep(idle_s)
    idle = (_proc_cpu_s(os.getpid()) - cpu0) / (time.monotonic() - t0) * 100
    rss_after = _proc_rss_mb(os.getpid())
    attached = len(live.viewers)
    received_text, _ = crowd.communicate("", timeout=60)
    received: list[dict[str, float]] = json.loads(received_text)
    live.close()
    journal.close()
    hardware.close()
    latencies, skipped = _latencies(received, published)
    figures: dict[str, Any] = {
        "viewers": len(received),
        "viewers_attached_at_end": attached,
        "decisions": len(published),
        "update_p50_ms": statistics.median(latencies),
        "update_p99_ms": percentile(latencies, 0.99),
        "update_max_ms": max(latencies),
        "updates_skipped": skipped,
        "event_to_frame_p50_ms_without_viewers": statistics.median(alone),
        "event_to_frame_p99_ms_without_viewers": percentile(alone, 0.99),
        "event_to_frame_p50_ms": statistics.median(frame_ms),
        "event_to_frame_p99_ms": percentile(frame_ms, 0.99),
        "publish_p99_ms": percentile(publish_ms, 0.99),
        "web_cpu_ms_per_decision": (cpu_b - cpu_a) / decisions * 1000,
        "idle_cpu_percent": idle,
        "added_rss_mb": rss_after - rss_before,
        "rss_mb": rss_after,
        "load_1min": os.getloadavg()[0],
    }
    if attacked:
        under, missed = _latencies(received, attacked)
        figures |= {
            "attack_decisions": len(attacked),
            "attack_update_p50_ms": statistics.median(under),
            "attack_update_p99_ms": percentile(under, 0.99),
            "attack_update_max_ms": max(under),
            "attack_updates_skipped": missed,
            **attack_figures,
        }
    return figures


def _latencies(
    received: list[dict[str, float]], published: dict[int, float]
) -> tuple[list[float], int]:
    """Decision -> viewer times (ms) of every viewer for the updates ``published``, and how
    many of them some viewer never saw (skipped for a newer one)."""
    latencies: list[float] = []
    skipped = 0
    for viewer in received:
        for seq, at in published.items():
            got = viewer.get(str(seq))
            if got is None:
                skipped += 1
            else:
                latencies.append((got - at) * 1000)
    return latencies, skipped


class _LogTally(logging.Handler):
    """Counts the log records the attack costs (the live view's and aiohttp's)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines = 0
        self.tracebacks = 0

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.startswith(("aiohttp", "haleakala.web")):
            self.lines += 1
            self.tracebacks += bool(record.exc_info)


def _under_attack(
    live: Any, attack: tuple[int, int], decisions: int, pace: float, play: Any
) -> dict[str, Any]:
    """Start the second client, ``play`` decisions until it has sent every malformed request
    (at least ``decisions``), stop it; its figures and the server's."""
    import threading

    malformed, idle = attack
    interval = decisions * pace / max(malformed, 1)  # spread over about as long as the play
    tally = _LogTally()
    root = logging.getLogger()
    root.addHandler(tally)
    aiohttp_level = logging.getLogger("aiohttp").level
    logging.getLogger("aiohttp").setLevel(logging.WARNING)
    shed0, refused0 = live.shed, live.refused
    attacker = subprocess.Popen(
        [sys.executable, "-c", "from haleakala.bench.web_attack import attacker_main; "
         "attacker_main()", str(live.port), str(malformed), str(idle), f"{interval:.6f}"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert attacker.stdout is not None and attacker.stdin is not None
    try:
        if attacker.stdout.readline().strip() != "ready":
            raise RuntimeError("the attacking client did not start")
        sent = threading.Event()
        out = attacker.stdout

        def wait_sent() -> None:
            out.readline()
            sent.set()

        threading.Thread(target=wait_sent, daemon=True).start()
        made = 0
        while made < decisions or not sent.is_set():
            play(10)
            made += 10
            if made > 20 * decisions:
                raise RuntimeError("the attacking client did not finish")
        viewers_attached = len(live.viewers)
        text, _ = attacker.communicate("", timeout=120)
    finally:
        if attacker.poll() is None:
            attacker.kill()
        root.removeHandler(tally)
        logging.getLogger("aiohttp").setLevel(aiohttp_level)
    theirs = json.loads(text.strip().splitlines()[-1])
    return {
        "attack_source": theirs["source"],
        "attack_malformed_sent": theirs["malformed_sent"],
        "attack_answers": " ".join(f"{k}:{v}" for k, v in theirs["answers"].items()),
        "attack_idle_connects": theirs["idle_connects"],
        "attack_idle_ended_by_server": theirs["idle_ended_by_server"],
        "attack_idle_held_at_end": theirs["idle_held_at_end"],
        "attack_shed_by_server": live.shed - shed0,
        "attack_refused_503": live.refused - refused0,
        "attack_log_lines": tally.lines,
        "attack_tracebacks": tally.tracebacks,
        "viewers_attached_after_attack": viewers_attached,
    }


def _play(
    companion: Any,
    clock: Any,
    player: Any,
    live: Any,
    decisions: int,
    pace: float,
    published: dict[int, float],
    publish_ms: list[float],
    frame_ms: list[float],
) -> list[float]:
    """Scripted play for ``decisions`` decisions (new games as needed), paced; the event ->
    frame times (and, with a live view, when each published update's event began)."""
    made_here = 0
    game_no = 1
    while made_here < decisions:
        if companion.game.is_terminal():
            game_no += 1
            companion.new_game(seed=game_no)
            if live is not None:
                live.observe(companion)
        for event in player.next_events(companion):
            made = len(companion.game.history)
            start, start_pc = time.monotonic(), time.perf_counter()
            companion.handle(event)
            frame_ms.append((companion.rendered_at - start_pc) * 1000)  # as bench daemon
            decided = len(companion.game.history) != made
            made_here += decided
            if live is not None:
                before = time.monotonic()
                if live.observe(companion):
                    publish_ms.append((time.monotonic() - before) * 1000)
                    if decided:
                        published[live.seq] = start
        clock.advance(0.05)
        companion.tick()
        if live is not None:
            live.observe(companion)
        time.sleep(pace)
    return frame_ms


def viewers_main() -> None:
    """The viewers' process: N event streams; prints "ready" once each has its first
    snapshot, and at the end of stdin the arrival time of every update, per viewer."""
    port, token, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    asyncio.run(_crowd(int(port), token, count))


async def _crowd(port: int, token: str, count: int) -> None:
    import aiohttp

    arrivals: list[dict[str, float]] = [{} for _ in range(count)]
    first = [asyncio.Event() for _ in range(count)]
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:

        async def watch(i: int) -> None:
            headers = {"Authorization": f"Bearer {token}"}
            url = f"http://127.0.0.1:{port}/events"
            async with session.get(url, headers=headers, timeout=aiohttp.ClientTimeout()) as reply:
                seq = ""
                async for line in reply.content:
                    if line.startswith(b"id: "):
                        seq = line[4:].strip().decode()
                    elif line.startswith(b"data: "):
                        arrivals[i][seq] = time.monotonic()
                        first[i].set()

        # In waves, as phones arrive: they all share this process's address, and the server
        # gives one address's connections a share (MAX_PER_ADDRESS) until they show the token.
        tasks = []
        for start in range(0, count, WAVE):
            wave = range(start, min(start + WAVE, count))
            tasks += [asyncio.create_task(watch(i)) for i in wave]
            await asyncio.wait_for(asyncio.gather(*(first[i].wait() for i in wave)), 60)
        print("ready", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    print(json.dumps(arrivals), flush=True)
