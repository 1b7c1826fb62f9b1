"""Journal benchmark: recovery of a journal with a long garbage tail (bytes per second).

A game's journal with ``--tail-mb`` MB behind its last record: random bytes (a card that
returned garbage: every ``{`` is a candidate record to check) and zeros (a sparse file, as a
crash or a hostile ``truncate`` leaves). For each: ``haleakala journal check``'s recovery
(read only) and a start's recovery (the tail cut, the file as found kept as a backup), in
MB/s, and the process's peak RSS, which must not grow with the tail (the journal is
streamed). Speed is measured here, never in timed tests.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import tempfile
import time
from pathlib import Path


def _played(state: Path, decisions: int = 300) -> int:
    from haleakala.companion.autoplay import choose
    from haleakala.companion.journal import Journal
    from haleakala.games.haleakala import Game

    journal = Journal(state, sync=False)
    game = Game("base", 1, "red")
    journal.start(game)
    for _ in range(decisions):
        if game.is_terminal():
            break
        game.apply(choose(game, 1))
        journal.append_decision(game)
    journal.close()
    return len(game.history)


def _tail(path: Path, kind: str, size: int) -> None:
    if kind == "zeros":
        os.truncate(path, path.stat().st_size + size)
        return
    rng = random.Random(35)
    with open(path, "ab") as f:
        left = size
        while left:
            step = min(left, 1 << 20)  # (small steps: the bench's own memory stays flat)
            f.write(rng.randbytes(step))
            left -= step


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run(args: argparse.Namespace) -> int:
    from haleakala.companion.journal import JOURNAL_NAME, Journal

    tail = int((getattr(args, "tail_mb", None) or 200) * (1 << 20))
    print(f"tail_mb: {tail >> 20}")
    for kind in ("random", "zeros"):
        with tempfile.TemporaryDirectory(prefix="bench-journal-") as tmp:
            state = Path(tmp)
            decisions = _played(state)
            _tail(state / JOURNAL_NAME, kind, tail)
            size = (state / JOURNAL_NAME).stat().st_size
            print(f"peak_rss_mb_before_{kind}: {_peak_mb():.1f}")
            start = time.perf_counter()
            checked = Journal(state, readonly=True).recover()
            check_s = time.perf_counter() - start
            assert checked is not None and len(checked.history) == decisions
            start = time.perf_counter()
            journal = Journal(state)
            resumed = journal.recover()
            start_s = time.perf_counter() - start
            journal.close()
            assert resumed is not None and len(resumed.history) == decisions
            kept = sum(p.stat().st_size for p in state.glob(f"{JOURNAL_NAME}.bad-*"))
            assert kept == size, "the tail cut is kept whole"
            print(f"{kind}_check_s: {check_s:.2f}")
            print(f"{kind}_check_mb_per_s: {size / check_s / 1e6:.0f}")
            print(f"{kind}_start_s: {start_s:.2f}")
            print(f"{kind}_start_mb_per_s: {size / start_s / 1e6:.0f}")
            print(f"peak_rss_mb_after_{kind}: {_peak_mb():.1f}")
    return 0
