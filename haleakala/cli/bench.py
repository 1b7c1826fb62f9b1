"""``haleakala bench WHAT``: benchmarks that print figures (``name: value`` lines).

Speed is measured here, never in timed tests. Each benchmark is a module of
``haleakala.bench`` (one per subsystem), imported only when asked for; each is a
sub-command with its own options, so ``haleakala bench rfid --help`` lists what it takes.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable

from haleakala.gameapi import DEFAULT_GAME, GAMES

Options = Callable[[argparse.ArgumentParser], None]


def _seconds(default: str) -> Options:
    def add(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--seconds", type=float, default=None, help=f"how long to measure ({default})"
        )

    return add


def _ai(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seconds", type=float, default=None, help=argparse.SUPPRESS)
    p.add_argument("--games", type=int, default=None, help="games to play")
    p.add_argument("--budget", type=float, default=None, help="seconds per decision")
    p.add_argument("--jobs", type=int, default=None, help="worker processes")
    p.add_argument("--game", default=DEFAULT_GAME, help=f"which game ({', '.join(GAMES)})")
    p.add_argument("--vs", default=None, help="play the search bot against this bot (ai-v1)")
    p.add_argument(
        "--iterations", type=int, default=None, help="--vs/--ladder: iterations per decision"
    )
    p.add_argument(
        "--opponent-iterations",
        type=int,
        default=None,
        help="--vs: the opponent's iterations per decision (default 4 × --iterations)",
    )
    p.add_argument(
        "--first-game",
        type=int,
        default=None,
        help="--vs: play games K, K+1, … (default 0): fresh games to check a setting chosen on 0…",
    )
    p.add_argument(
        "--players",
        type=int,
        default=None,
        help="players per game (default: every count the game allows)",
    )
    p.add_argument("--ladder", action="store_true", help="Elo ladder of random, greedy, ai-v1, ai")
    p.add_argument("--budgets", default=None, help="--ladder: iteration budgets, comma-separated")


def _engine(p: argparse.ArgumentParser) -> None:
    _seconds("default 5 s")(p)
    p.add_argument("--game", default=DEFAULT_GAME, help="which game (one of the registry's)")
    p.add_argument(
        "--players",
        type=int,
        default=None,
        help="players per game (default: the most the game allows)",
    )


def _daemon(p: argparse.ArgumentParser) -> None:
    _seconds("idle CPU period, default 10 s")(p)
    p.add_argument("--events", type=int, default=None, help="events to send (default 10,000)")
    p.add_argument(
        "--flood-seconds", type=float, default=None, help="RFID flood length (default 15 s)"
    )
    p.add_argument(
        "--flood-rate", type=float, default=None, help="RFID flood frames per second (6,500)"
    )
    p.add_argument(
        "--flood-probes", type=int, default=None, help="changes timed after the flood (100)"
    )


def _rfid(p: argparse.ArgumentParser) -> None:
    _seconds("frame parsing, default 0.5 s")(p)
    p.add_argument(
        "--changes", type=int, default=300, help="disc placements/removals simulated (300)"
    )
    p.add_argument("--seed", type=int, default=1, help="seed of the simulated play (1)")
    p.add_argument(
        "--reader",
        choices=("pn5180", "mfrc522"),
        default="pn5180",
        help="reader chip under all six beaches (default pn5180)",
    )
    p.add_argument(
        "--debounce",
        type=int,
        default=2,
        help="consecutive agreeing scans before a tag counts (default 2)",
    )
    p.add_argument(
        "--firmware",
        default=None,
        metavar="DIR",
        help="the firmware/ folder of a source checkout (default: the one beside this "
        "package, when it runs from a checkout)",
    )
    p.add_argument(
        "--scan",
        choices=("config", "pairs", "sequential"),
        default="config",
        help="how the Pico scans its readers: as firmware/haleakala_pico/config.py says "
        "(default), two opposite beaches at once, or one beach after another (firmware 1.1)",
    )


def _games(p: argparse.ArgumentParser) -> None:
    p.add_argument("--games", type=int, default=None, help="games played (default 3)")


def _web(p: argparse.ArgumentParser) -> None:
    _seconds("idle CPU period, default 10 s")(p)
    p.add_argument("--viewers", type=int, default=None, help="event streams attached (50)")
    p.add_argument("--decisions", type=int, default=None, help="decisions timed (300)")
    p.add_argument(
        "--pace", type=float, default=None, help="seconds between decisions (default 0.05)"
    )
    p.add_argument(
        "--malformed",
        type=int,
        default=None,
        help="malformed requests a second client sends meanwhile (1000; 0 with "
        "--idle-sockets 0: no attack phase)",
    )
    p.add_argument(
        "--idle-sockets",
        type=int,
        default=None,
        help="idle and half-sent sockets the second client tries to hold (64)",
    )


def _journal(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--tail-mb", type=float, default=None, help="MB of garbage behind the records (200)"
    )


def _remote(p: argparse.ArgumentParser) -> None:
    p.add_argument("--games", type=int, default=None, help="whole games timed (2)")
    p.add_argument("--restarts", type=int, default=None, help="broker kills and restarts timed (3)")


def _speech(p: argparse.ArgumentParser) -> None:
    p.add_argument("--events", type=int, default=None, help="events said (default 150)")
    p.add_argument(
        "--engine", choices=("espeak-ng", "piper"), default="espeak-ng", help="the engine timed"
    )
    p.add_argument(
        "--piper-voices", default="", metavar="DIR", help="--engine piper: its .onnx voices"
    )


# name → (module:function, help, options). Keep sorted by name.
BENCHMARKS: dict[str, tuple[str, str, Options]] = {
    "ai": ("haleakala.bench.ai:run", "search bot win rates and think times", _ai),
    "daemon": (
        "haleakala.bench.daemon:run",
        "event-to-frame latency, idle CPU, start-up",
        _daemon,
    ),
    "engine": (
        "haleakala.bench.engine:run",
        "random games per second on one core",
        _engine,
    ),
    "journal": (
        "haleakala.bench.journal:run",
        "recovery of a journal with a long garbage tail: MB/s and peak memory",
        _journal,
    ),
    "remote": (
        "haleakala.bench.remote:run",
        "two kits over a local mosquitto: decision to the other board p50/p99, resync after a "
        "broker restart, bytes per decision",
        _remote,
    ),
    "rfid": ("haleakala.bench.rfid:run", "serial frame parsing and scan-to-event time", _rfid),
    "seats": (
        "haleakala.bench.seats:run",
        "phone seats: decision to acknowledgement and new view over the host's HTTP",
        _games,
    ),
    "sim": (
        "haleakala.bench.sim:run",
        "simulator window frames per second",
        _seconds("default 5 s"),
    ),
    "speech": (
        "haleakala.bench.speech:run",
        "the voice: event to first audio sample p50/p99, CPU per spoken event",
        _speech,
    ),
    "web": (
        "haleakala.bench.web:run",
        "live view: decision to 50 viewers (also under a hostile second client), the daemon's "
        "latency, idle CPU and memory with them",
        _web,
    ),
}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bench", help="run a benchmark and print its figures")
    which = p.add_subparsers(dest="what", metavar="WHAT", required=True)
    for name, (_, summary, options) in BENCHMARKS.items():
        q = which.add_parser(name, help=summary, description=summary)
        options(q)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    target = BENCHMARKS[args.what][0]
    module, func = target.split(":")
    try:
        runner = getattr(importlib.import_module(module), func)
    except (ImportError, AttributeError) as exc:
        print(f"haleakala bench {args.what}: not available in this install ({exc})")
        return 2
    return int(runner(args) or 0)
