"""Updates in the booted virtual Pi (``./test -m virtual_pi_update``), run by
``tools/virtual-pi update`` on the Pi 4 configuration: an update to a new release kept
because it resumed the game at the same decision; an update to a release whose daemon exits
before its game, rolled back by itself; then power cuts at random moments of updates (the
build, the checks, the switch, the health check, the rollback), each followed by a boot that
must come up on one whole release with the game resumed at or after the last decision the
host saw acknowledged, on the reference history.

Hours under emulation: ``VIRTUAL_PI_UPDATE_CUTS`` sets the cuts (default 20) and
``VIRTUAL_PI_EVIDENCE`` a directory that keeps the console logs and the report.
"""

from __future__ import annotations

import json
import os
import subprocess

import pytest
from support.paths import REPO_ROOT

TOOL = REPO_ROOT / "tools" / "virtual-pi"
CUTS = int(os.environ.get("VIRTUAL_PI_UPDATE_CUTS", "20"))
EVIDENCE = os.environ.get("VIRTUAL_PI_EVIDENCE", "")

pytestmark = [
    pytest.mark.virtual_pi_update,
    pytest.mark.skipif(
        not hasattr(os, "geteuid") or os.geteuid() != 0,
        reason="the booted virtual Pi needs root (mmdebstrap, chroot): run ./test as root",
    ),
]


def test_updates_and_power_cuts_during_them_leave_one_whole_release_and_the_game(tmp_path):
    report = tmp_path / "update.json"
    evidence = ["--evidence", f"{EVIDENCE}/update-pi4"] if EVIDENCE else []
    done = subprocess.run(
        [str(TOOL), "update", "--model", "pi4", "--cuts", str(CUTS), "--json", str(report),
         *evidence],
        capture_output=True, text=True,
    )  # fmt: skip
    assert report.exists(), done.stdout[-3000:] + done.stderr[-3000:]
    (result,) = json.loads(report.read_text())["models"]
    assert "error" not in result, result.get("error")
    assert result["update_to_new_release"]["exit"] == 0
    assert result["update_to_failing_release"]["rolled_back_by_itself"]
    cuts = result["cuts"]
    assert cuts["count"] >= CUTS
    assert cuts["not_whole_after"] == []  # every boot: one whole release, the daemon up
    assert cuts["problems"] == []  # no acknowledged decision lost, no other history
    assert done.returncode == 0
