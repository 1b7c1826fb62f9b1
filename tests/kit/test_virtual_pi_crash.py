"""Every crash state of a whole game at the block layer (``./test -m crash_states``), run by
``tools/virtual-pi crash``: the booted Pi 4 image with its card behind QEMU's blklogwrites,
one whole Haleakala game through the unit and one Kanaloa game at four players (the host
kit's journal, the other seats its bots), then for every flush of each game the disk as of
that flush plus seeded subsets and sector tears of the writes before the next one, each
checked with e2fsck and the daemon's own recovery.

Checked: acknowledgements were tied to the block log, states were checked, no acknowledged
decision was lost, no state resumed another history, no file was rewritten without its
backup; the Haleakala game costs the card at most 8 KiB per decision and an idle kit writes
nothing. The numbers are printed (``./test -m crash_states -rA`` shows them; a failure always
does) and kept with ``VIRTUAL_PI_EVIDENCE``.

Long: about an hour and a half on two loaded cores when the roots are cached (the idle window
is ``CRASH_IDLE_MINUTES`` of guest time, 60 by default; ``CRASH_PER_WINDOW`` crash states are
drawn between two flushes, 3 by default).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from support.paths import REPO_ROOT

TOOL = REPO_ROOT / "tools" / "virtual-pi"
EVIDENCE = os.environ.get("VIRTUAL_PI_EVIDENCE", "")
IDLE = os.environ.get("CRASH_IDLE_MINUTES", "60")
PER_WINDOW = os.environ.get("CRASH_PER_WINDOW", "3")
BUDGET = 8 * 1024  # bytes at the block layer per decision (issue 41)

pytestmark = [
    pytest.mark.crash_states,
    pytest.mark.skipif(
        not hasattr(os, "geteuid") or os.geteuid() != 0,
        reason="the booted virtual Pi needs root (mmdebstrap, chroot): run ./test as root",
    ),
]


def test_no_crash_state_of_a_whole_game_loses_an_acknowledged_decision(tmp_path):
    report = tmp_path / "crash.json"
    evidence = ["--evidence", f"{EVIDENCE}/crash"] if EVIDENCE else []
    done = subprocess.run(
        [str(TOOL), "crash", "--model", "pi4", "--work", "crash-states", "--idle", IDLE,
         "--per-window", PER_WINDOW,
         "--json", str(report), "--python", sys.executable, *evidence],
        capture_output=True, text=True,
    )  # fmt: skip
    print(done.stdout)  # the counts and the budget: shown with -rA, and on a failure
    assert report.exists(), done.stdout[-3000:] + done.stderr[-3000:]
    (result,) = json.loads(report.read_text())["models"]
    assert "error" not in result, f"{result.get('error')}\n{done.stderr[-3000:]}"
    for game in ("haleakala", "kanaloa"):
        states = result[game]["states"]
        assert result[game]["acks"] > 100 and states["acks_tied"] == result[game]["acks"]
        assert states["flushes"] > 0 and states["states"] > states["flushes"] // 2
        assert states["lost"] == 0 and states["other_history"] == 0
        assert states["problems"] == []
    budget = result["haleakala"]["budget"]
    assert budget["game"]["per_decision_total"] <= BUDGET, budget["game"]
    assert budget["idle"]["bytes"] == 0, budget["idle"]
    assert done.returncode == 0
