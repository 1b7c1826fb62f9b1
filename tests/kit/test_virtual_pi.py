"""The virtual Raspberry Pi (``./test -m virtual_pi``): for every model, the maker's real
steps in an arm64 Debian Bookworm root under qemu-user-static, run by ``tools/virtual-pi``.

Each model's result is read from the tool's JSON report: install (twice, the second changing
nothing), config check, systemd-analyze verify, and the pi backend opened as the service user
with the real vendor stacks, failing only at the LED device with the project's message.
"""

from __future__ import annotations

import json
import os
import subprocess

import pytest
from support.paths import REPO_ROOT

REPO = REPO_ROOT
TOOL = REPO / "tools" / "virtual-pi"
LED_DEVICE = {"zero2w": "/dev/spidev0.0", "pi3": "/dev/spidev0.0", "pi4": "/dev/spidev0.0",
              "pi5": "/dev/pio0"}  # fmt: skip
BOARD = {"zero2w": "RASPBERRY_PI_ZERO_2_W", "pi3": "RASPBERRY_PI_3B", "pi4": "RASPBERRY_PI_4B",
         "pi5": "RASPBERRY_PI_5"}  # fmt: skip
STEPS = [
    "copy the cached root and the checkout",
    "haleakala install",
    "haleakala install again changes nothing",
    "haleakala config check",
    "systemd-analyze verify",
    "pi backend as the service user",
    "venv size",
]

pytestmark = [
    pytest.mark.virtual_pi,
    pytest.mark.skipif(
        not hasattr(os, "geteuid") or os.geteuid() != 0,
        reason="the virtual Pi needs root (mmdebstrap, chroot, mounts): run ./test as root",
    ),
]


@pytest.mark.parametrize("model", sorted(LED_DEVICE))
def test_the_maker_steps_pass_in_the_virtual_pi(model, tmp_path):
    report = tmp_path / "virtual-pi.json"
    done = subprocess.run(
        [str(TOOL), "--model", model, "--json", str(report)], capture_output=True, text=True
    )
    assert report.exists(), done.stdout[-3000:] + done.stderr[-3000:]
    (result,) = json.loads(report.read_text())["models"]
    failed = {s["step"]: s.get("problem") for s in result["steps"] if not s["ok"]}
    assert failed == {}, done.stdout[-3000:] + done.stderr[-3000:]
    assert [s["step"] for s in result["steps"]] == STEPS
    assert done.returncode == 0
    backend = result["backend"]
    assert backend["board"] == BOARD[model]
    assert backend["leds"].startswith(
        f"cannot open the LED chain: {LED_DEVICE[model]} does not exist"
    )
    driver = "adafruit_raspberry_pi5_neopixel_write" if model == "pi5" else "_rpi_ws281x"
    assert backend["driver"] == [driver]
    assert "gpiod" in backend["modules"] and "luma" in backend["modules"]
    assert backend["rpi_gpio"].endswith(" via rpi-lgpio")
    assert result["venv_mb"] > 0
    assert backend["language"] == "2 Muscheln"  # the installed wheel's compiled catalogs
