"""The daemon's RFID link comes from ``hal.factory`` with its hardware (issue 12): the daemon
no longer builds the driver nor branches on the backend itself. Run in a child process (the
daemon installs signal handlers and logging), with the factory asked for the sim backend's
virtual Pico so that the whole path runs here: factory -> inputs -> Companion.start -> the
driver reads the pty -> shutdown closes it."""

from __future__ import annotations

import os
import subprocess
import sys

CHILD = r"""
import argparse, os, signal, sys, threading, time
from haleakala.companion import daemon
from haleakala.hal import factory

real = factory.open_hardware
opened = []

def open_hardware(config, backend=None, **options):
    # What the Pi gets by default for an RFID kit; on sim it must be asked for.
    hw = real(config, backend, rfid=True, rfid_options={"snapshot_period_s": 0.02}, **options)
    opened.append((config.kit, backend, hw))
    return hw

factory.open_hardware = open_hardware

def until(condition, what):
    deadline = time.monotonic() + 30
    while not condition():
        if time.monotonic() > deadline:
            print("TIMEOUT", what, flush=True)
            os._exit(3)
        time.sleep(0.01)

def player():
    until(lambda: opened and opened[0][2].rfid.health()["ok"], "the link up")
    link = opened[0][2].rfid
    link.pico.place(3, "E00401A003C0DE01")
    until(lambda: link.published()[3], "the tag on beach 3")
    os.kill(os.getpid(), signal.SIGTERM)

threading.Thread(target=player, daemon=True).start()
code = daemon.main(argparse.Namespace(config=sys.argv[1], hardware="sim", headless=True,
                                      state_dir=sys.argv[2], log_level="WARNING"))
(kit, backend, hw), = opened
link = hw.rfid
print("RESULT", code, kit, backend, sorted(d.name for d in link.published()[3]),
      link.health()["snapshots"] > 0, link.driver.running, flush=True)
"""


def test_the_daemon_runs_and_closes_the_rfid_link_the_factory_built(tmp_path):
    config = tmp_path / "c.toml"
    config.write_text('kit = "rfid"\n\n[tags]\nE00401A003C0DE01 = "red3"\n')
    env = {k: v for k, v in os.environ.items()
           if k not in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "HALEAKALA_HARDWARE")}  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(config), str(tmp_path / "state")],
        env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    result = [line for line in done.stdout.splitlines() if line.startswith("RESULT")]
    assert result, done.stdout[-2000:] + done.stderr[-2000:]
    # exit 0, asked for an RFID kit on sim, red 3 read through the pty, driver stopped
    assert result[0] == "RESULT 0 rfid sim ['red3'] True False"
