"""``haleakala bench sim``: frames per second of the simulator window at 1280×800.

The window is opened for real on an X display (a private Xvfb when DISPLAY is unset and
Xvfb is installed; otherwise SDL's offscreen driver, which the output says) while bots
play a game through the inputs, so LED frames, OLED images and pieces keep changing. The
loop runs uncapped (the window itself caps at 60) to show the headroom.

Figures:
- ``fps``: the window's loop (the companion pumped, its timers and animations running) with
  the whole window recomposed and pushed to the display in every frame: the rendering
  worst case, whatever changes. Target: >= 60.
- ``frame_ms_p50`` / ``frame_ms_p99`` of that loop.
- ``fps_with_decisions``: as above plus a bot decision made through the inputs in every
  frame (bot thinking, the companion's handling, journal, LED frame and OLED image).
- ``idle_frame_ms_p50``: a frame where nothing changed (the usual case at a real table).
- ``cpu_ms_per_frame`` / ``cpu_ms_per_frame_with_decisions``: this process's CPU time per
  frame of the two loops above (drawing, the companion, the bots), without the X server's
  share of pushing the pixels; on a shared, loaded machine (see the load average printed) the
  frame rates swing with the other processes, these much less.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import time
from collections.abc import Iterator

from haleakala.toolkit.xvfb import virtual_display, xvfb_path

WIDTH, HEIGHT = 1280, 800


@contextlib.contextmanager
def _display() -> Iterator[str]:
    """Where the window opens, described for the output."""
    if os.environ.get("DISPLAY"):
        yield f"X display {os.environ['DISPLAY']}"
        return
    if xvfb_path() is not None:
        with virtual_display(WIDTH, HEIGHT) as name:
            os.environ["DISPLAY"] = name
            os.environ["SDL_VIDEODRIVER"] = "x11"
            try:
                yield f"Xvfb {name} (started by the benchmark)"
            finally:
                os.environ.pop("DISPLAY", None)
                os.environ.pop("SDL_VIDEODRIVER", None)
        return
    os.environ["SDL_VIDEODRIVER"] = "offscreen"
    yield "SDL offscreen driver (no DISPLAY and no Xvfb: frames are not pushed to a screen)"


def _measure(window, seconds: float, mode: str) -> tuple[int, list[float], float]:
    """Frames, their wall times, and this process's CPU time over them."""
    session = window.session
    times: list[float] = []
    cpu = time.process_time()
    end = time.perf_counter() + seconds
    while True:
        start = time.perf_counter()
        if start >= end:
            break
        if mode == "decisions":
            if session.game.is_terminal():
                session.companion.new_game(seed=len(times))
            session.bot_step()
        if mode != "idle":
            window._signature = None  # recompose everything, push the whole window
        window.step()
        times.append(time.perf_counter() - start)
    return len(times), times, time.process_time() - cpu


def run(args: argparse.Namespace) -> int:
    seconds = args.seconds or 5.0
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    with _display() as where:
        import pygame

        from haleakala.simulator.session import SimSession
        from haleakala.simulator.window import WINDOW_FLAGS, SimWindow

        pygame.display.init()
        screen = pygame.display.set_mode((WIDTH, HEIGHT), WINDOW_FLAGS)  # as the sim opens it
        session = SimSession(kit="buttons", variant="base", seed=1, journal_sync=False)
        try:
            window = SimWindow(session, screen=screen)
            for _ in range(30):  # warm the caches (fonts, glows) before measuring
                session.bot_step()
                window.step()
            print(f"display: {where}, {WIDTH}x{HEIGHT}, driver {pygame.display.get_driver()}")
            frames, times, cpu = _measure(window, seconds, "redraw")
            short = max(1.0, seconds / 2)
            start_decisions = len(session.game.history)
            busy, _, busy_cpu = _measure(window, short, "decisions")
            decisions = len(session.game.history) - start_decisions
            _, idle, _ = _measure(window, short, "idle")
        finally:
            session.close()
            pygame.display.quit()
    ms = sorted(t * 1000 for t in times)
    print(f"fps: {frames / seconds:.1f}")
    print(f"frame_ms_p50: {statistics.median(ms):.2f}")
    print(f"frame_ms_p99: {ms[min(len(ms) - 1, int(len(ms) * 0.99))]:.2f}")
    print(f"fps_with_decisions: {busy / short:.1f} ({decisions} decisions)")
    print(f"idle_frame_ms_p50: {statistics.median(idle) * 1000:.3f}")
    print(f"cpu_ms_per_frame: {cpu * 1000 / max(frames, 1):.2f}")
    print(f"cpu_ms_per_frame_with_decisions: {busy_cpu * 1000 / max(busy, 1):.2f}")
    with contextlib.suppress(OSError):
        print(f"load_average_1min: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    return 0
