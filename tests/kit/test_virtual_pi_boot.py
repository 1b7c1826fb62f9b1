"""The booted virtual Pi (``./test -m virtual_pi_boot``): the arm64 Bookworm root booted as a
whole machine under qemu-system-aarch64 (TCG, ``virt`` board, Debian's kernel, systemd as
PID 1, the sim backend: there are no pins), run by ``tools/virtual-pi boot``.

For the Pi 4 and Pi 5 configurations, read from the tool's JSON report: the unit started at
boot with its sandbox in force, the watchdog, journald's priorities, the live view and its
drop-in, ``selftest --auto``, one whole autoplayed game on the reference history; then power
cuts (qemu killed at random moments) and the emergency read-only card, each followed by a
boot that must resume at or after the last acknowledged decision, on the same history.

Long (tens of minutes per model under emulation): ``VIRTUAL_PI_CUTS`` sets the cuts per model
(default 25, so Pi 4 + Pi 5 make 50), ``VIRTUAL_PI_READONLY`` the read-only cases (1) and
``VIRTUAL_PI_EVIDENCE`` a directory that keeps the console logs and reports.
"""

from __future__ import annotations

import json
import os
import subprocess

import pytest
from support.paths import REPO_ROOT

TOOL = REPO_ROOT / "tools" / "virtual-pi"
CUTS = int(os.environ.get("VIRTUAL_PI_CUTS", "25"))
READONLY = int(os.environ.get("VIRTUAL_PI_READONLY", "1"))
EVIDENCE = os.environ.get("VIRTUAL_PI_EVIDENCE", "")
"""A directory that keeps each model's console logs and JSON report after the run (the
evidence a closing note cites); by default they go with pytest's temporary directory."""
STEPS = [
    "started at boot, active after READY=1",
    "the sandbox on the daemon's process",
    "what the sandbox lets it open (a probe in the same sandbox)",
    "a stalled daemon is restarted by the watchdog",
    "a storage error is logged and the game waits for the fix",
    "the live view: refused without the drop-in, token-only with it",
    "haleakala selftest --auto",
    "journalctl -p err shows exactly the errors",
    "one whole autoplayed game",
    "the power cuts' first game set up",
]

pytestmark = [
    pytest.mark.virtual_pi_boot,
    pytest.mark.skipif(
        not hasattr(os, "geteuid") or os.geteuid() != 0,
        reason="the booted virtual Pi needs root (mmdebstrap, chroot): run ./test as root",
    ),
]


@pytest.mark.parametrize("model", ["pi4", "pi5"])
def test_the_booted_pi_runs_the_hardened_unit_and_power_cuts_lose_nothing(model, tmp_path):
    report = tmp_path / "boot.json"
    evidence = ["--evidence", f"{EVIDENCE}/{model}"] if EVIDENCE else []
    done = subprocess.run(
        [str(TOOL), "boot", "--model", model, "--cuts", str(CUTS), "--readonly", str(READONLY),
         "--json", str(report), *evidence],
        capture_output=True, text=True,
    )  # fmt: skip
    assert report.exists(), done.stdout[-3000:] + done.stderr[-3000:]
    (result,) = json.loads(report.read_text())["models"]
    assert "error" not in result, result.get("error")
    steps = result["checks"]["steps"]
    failed = {s["step"]: s.get("problem") for s in steps if not s["ok"]}
    assert failed == {}
    assert [s["step"] for s in steps] == STEPS
    game = result["checks"]["facts"]["game"]
    assert game["reference_history"] and game["decisions"] > 0
    cuts = result["cuts"]
    assert cuts["count"] == CUTS and cuts["readonly_count"] == READONLY
    assert cuts["problems"] == []  # no acknowledged decision lost, no other history
    assert done.returncode == 0
