"""A private virtual X display (Xvfb) for the benchmark and the window tests.

CI machines have no screen; the window must still be opened for real (the X11 video
driver, real flips) to measure it and to test it. Xvfb is a Debian package (``xvfb``); when
it is missing, callers fall back to SDL's offscreen driver and say so. ``fit_flags`` is the
one other thing the simulator windows ask of the display: whether it is too small for them.
"""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from typing import Any


def xvfb_path() -> str | None:
    return shutil.which("Xvfb")


def _start(binary: str, width: int, height: int) -> tuple[subprocess.Popen[bytes], int]:
    """Start Xvfb on a display it picks itself; the process and the number once it listens.

    ``-displayfd`` makes Xvfb choose a free display number and write it to a pipe only when
    it accepts connections, so parallel test workers never race for a number, and nobody
    mistakes another worker's socket for their own server being up.
    """
    read_end, write_end = os.pipe()
    # Its chatter goes to a file, not a pipe: a pipe nobody reads could fill and stall it.
    with tempfile.TemporaryFile() as log:
        screen = ["-screen", "0", f"{width}x{height}x24"]
        proc = subprocess.Popen(
            # -noreset: by default the server resets when its last client leaves, and a
            # window opened again at that moment is refused ("x11 not available").
            [binary, "-displayfd", str(write_end), *screen, "-nolisten", "tcp", "-noreset"],
            stdout=subprocess.DEVNULL,
            stderr=log,
            pass_fds=(write_end,),
        )
        os.close(write_end)
        try:
            number = _read_display(read_end, proc)
        finally:
            os.close(read_end)
        if number is None:
            proc.kill()
            proc.wait()
            log.seek(0)
            err = log.read().decode(errors="replace").strip()[-200:]
            raise RuntimeError(f"Xvfb did not come up within {START_S:.0f} s: {err}")
        return proc, number


START_S = 30.0
"""How long Xvfb may take to listen (a loaded 2-core machine can be slow to start it)."""


def _read_display(fd: int, proc: subprocess.Popen[bytes]) -> int | None:
    """The display number Xvfb writes to ``fd`` when ready; None if it exits or times out."""
    deadline = time.monotonic() + START_S
    text = b""
    while not text.endswith(b"\n"):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return None
        ready, _, _ = select.select([fd], [], [], min(remaining, 0.5))
        if ready:
            chunk = os.read(fd, 64)
            if not chunk:  # Xvfb closed the pipe without a number: it exited
                return None
            text += chunk
        elif proc.poll() is not None:
            return None
    return int(text.strip())


@contextlib.contextmanager
def virtual_display(width: int = 1280, height: int = 800) -> Iterator[str]:
    """Start ``Xvfb :N`` (N chosen by Xvfb), yield ``":N"``, stop it afterwards.

    Raises RuntimeError naming the cause when Xvfb is absent or never comes up.
    """
    binary = xvfb_path()
    if binary is None:
        raise RuntimeError("Xvfb is not installed (Debian: apt-get install xvfb)")
    proc, number = _start(binary, width, height)
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
        return int(pygame.SCALED | pygame.RESIZABLE)
    return 0


def window_unavailable() -> str | None:
    """Why no window can open here (None: it can)."""
    from haleakala.checkout import install_hint

    if not has_display():
        return "no display (DISPLAY and WAYLAND_DISPLAY are unset)"
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        import pygame  # noqa: F401
    except ImportError:
        return f"pygame is not installed ({install_hint('sim')})"
    return None
