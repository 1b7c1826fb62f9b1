"""The daemon holds the kit's devices (LED chain, OLED, GPIO lines, the Pico's serial port):
a command that needs them for itself (``selftest --hardware pi``, ``tags enroll``) stops the
service for its run and starts it again after, or, when it may not, refuses with the exact
command to run.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from haleakala.cli import UsageError

UNIT = "haleakala.service"


def systemctl(argv: Sequence[str]) -> int:
    """``systemctl ARGV``; 1 (not running) where there is no systemd at all."""
    try:
        return subprocess.run(
            ["systemctl", *argv], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        ).returncode
    except FileNotFoundError:
        return 1


@contextmanager
def service_paused(
    command: str,
    *,
    run: Callable[[Sequence[str]], int] = systemctl,
    euid: Callable[[], int] = os.geteuid,
    say: Callable[[str], None] = print,
) -> Iterator[None]:
    """Inside the block the service is stopped (if it was running), and started again on
    the way out whatever happened. Without root, a running service is a refusal."""
    if run(["is-active", "--quiet", UNIT]) != 0:
        yield
        return
    if euid() != 0:
        raise UsageError(
            f"the haleakala service is running and holds the devices {command} needs: stop it "
            f"with 'sudo systemctl stop haleakala', run {command} again, then 'sudo systemctl "
            "start haleakala' (or run it with sudo, which does both)"
        )
    if run(["stop", UNIT]) != 0:
        raise UsageError(
            f"could not stop {UNIT} for {command}: try 'sudo systemctl stop haleakala'"
        )
    say(f"stopped {UNIT} for {command}; it starts again when {command} ends")
    try:
        yield
    finally:
        if run(["start", UNIT]) == 0:
            say(f"started {UNIT} again")
        else:
            say(f"warning: could not start {UNIT} again: run 'sudo systemctl start haleakala'")
