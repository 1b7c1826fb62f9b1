"""``haleakala bench WHAT``: benchmarks that print figures (``name: value`` lines).

Speed is measured here, never in timed tests. Each benchmark lives beside the code it
measures and is imported only when asked for.
"""

from __future__ import annotations

import argparse
import importlib

BENCHMARKS = {
    "ai": ("haleakala.ai.bench:run", "search bot win rates and think times"),
    "daemon": ("haleakala.companion.bench:run", "event-to-frame latency, idle CPU, start-up"),
    "engine": ("haleakala.rules_bench:run", "random games per second on one core"),
    "rfid": ("haleakala.hal.rfid.bench:run", "serial frame parsing and scan-to-event time"),
    "sim": ("haleakala.simulator.bench:run", "simulator window frames per second"),
}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bench", help="run a benchmark and print its figures")
    p.add_argument("what", choices=sorted(BENCHMARKS), help="what to measure")
    p.add_argument("--seconds", type=float, default=None, help="how long to measure")
    p.add_argument("--games", type=int, default=None, help="games to play (ai)")
    p.add_argument("--budget", type=float, default=None, help="seconds per decision (ai)")
    p.add_argument("--events", type=int, default=None, help="events to send (daemon)")
    p.add_argument("--jobs", type=int, default=None, help="worker processes (ai)")
    p.add_argument("--game", default="haleakala", help="ai: which game (haleakala, kahuna)")
    p.add_argument("--vs", default=None, help="ai: play the search bot against this bot (ai-v1)")
    p.add_argument(
        "--iterations", type=int, default=None, help="ai --vs/--ladder: iterations per decision"
    )
    p.add_argument(
        "--opponent-iterations",
        type=int,
        default=None,
        help="ai --vs: the opponent's iterations per decision (default 4 × --iterations)",
    )
    p.add_argument(
        "--ladder", action="store_true", help="ai: Elo ladder of random, greedy, ai-v1 and ai"
    )
    p.add_argument(
        "--budgets", default=None, help="ai --ladder: iteration budgets, comma-separated"
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    target, _ = BENCHMARKS[args.what]
    module, func = target.split(":")
    try:
        runner = getattr(importlib.import_module(module), func)
    except (ImportError, AttributeError) as exc:
        print(f"haleakala bench {args.what}: not available in this install ({exc})")
        return 2
    return int(runner(args) or 0)
