"""A private virtual X display (Xvfb) for the benchmark and the window tests.

CI machines have no screen; the window must still be opened for real (the X11 video
driver, real flips) to measure it and to test it. Xvfb is a Debian package (``xvfb``); when
it is missing, callers fall back to SDL's offscreen driver and say so. ``fit_flags`` is the
one other thing the simulator windows ask of the display: whether it is too small for them.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any


def xvfb_path() -> str | None:
    return shutil.which("Xvfb")


def _free_display(start: int = 90) -> int:
    for number in range(start, start + 200):
        if (
            not Path(f"/tmp/.X{number}-lock").exists()
            and not Path(f"/tmp/.X11-unix/X{number}").exists()
        ):
            return number
    raise RuntimeError("no free X display number between :90 and :289")


def _start(binary: str, number: int, width: int, height: int) -> subprocess.Popen | str:
    """Start Xvfb on ``:number``; the process once it listens, or why it did not."""
    # Its chatter goes to a file, not a pipe: a pipe nobody reads could fill and stall it.
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            [binary, f":{number}", "-screen", "0", f"{width}x{height}x24", "-nolisten", "tcp"],
            stdout=subprocess.DEVNULL,
            stderr=log,
        )
        return _wait_up(proc, number, log)


def _wait_up(proc: subprocess.Popen, number: int, log: IO[bytes]) -> subprocess.Popen | str:
    socket = Path(f"/tmp/.X11-unix/X{number}")
    deadline = time.monotonic() + 10.0
    while not socket.exists():
        if proc.poll() is not None:
            log.seek(0)
            err = log.read().decode(errors="replace")
            return f"Xvfb :{number} exited at start: {err.strip()[-200:]}"
        if time.monotonic() > deadline:
            proc.kill()
            proc.wait()
            return f"Xvfb :{number} did not come up within 10 s"
        time.sleep(0.02)
    return proc


@contextlib.contextmanager
def virtual_display(width: int = 1280, height: int = 800) -> Iterator[str]:
    """Start ``Xvfb :N`` (a free N), yield ``":N"``, stop it afterwards.

    Parallel test workers may pick the same free number at the same moment: the loser's
    Xvfb exits at once and the next number is tried. Raises RuntimeError naming the cause
    when Xvfb is absent or never comes up.
    """
    binary = xvfb_path()
    if binary is None:
        raise RuntimeError("Xvfb is not installed (Debian: apt-get install xvfb)")
    started: subprocess.Popen | str = "no attempt"
    number = _free_display(90 + os.getpid() % 50)
    for _ in range(5):
        started = _start(binary, number, width, height)
        if not isinstance(started, str):
            break
        number = _free_display(number + 1)
    if isinstance(started, str):
        raise RuntimeError(started)
    proc = started
    try:
        yield f":{number}"
    finally:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def has_display(env: dict[str, str] | None = None) -> bool:
    """Is there a screen to open a window on? (Linux: DISPLAY or WAYLAND_DISPLAY.)"""
    env = dict(os.environ) if env is None else env
    if os.name != "posix" or os.uname().sysname == "Darwin":
        return True  # Windows and macOS always have a desktop session when run by a user
    return bool(env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"))


def fit_flags(pygame: Any) -> int:
    """On a desktop smaller than the window (a 1366×768 laptop), let SDL scale it down: the
    drawing and the mouse keep the 1280×800 coordinates."""
    try:
        sizes = pygame.display.get_desktop_sizes()
    except pygame.error:
        return 0
    if sizes and all(w < 1280 or h < 800 for w, h in sizes):
        return pygame.SCALED | pygame.RESIZABLE
    return 0
