"""Haleakala's simulator, the window of its description (``GameDescription.window``): the
kit on simulated hardware in a window, the scenario runner, and the no-display demo.

    haleakala sim                                   the window (resumes the last game)
    haleakala sim --kit rfid --variant tactical     a new game on the RFID kit
    haleakala sim --solo yellow --strength normal   play red against the companion
    haleakala sim --headless --scenario FILE...     run scenarios, exit 0/1 with a diff
    haleakala sim --scenario FILE                   watch a scenario play in the window
    haleakala sim --screenshot out.png [--decisions 80]   save the window as a PNG

Where no window can open (no DISPLAY/WAYLAND_DISPLAY, no pygame, SDL refuses), it says so
and plays a demo game in the terminal instead, so plain ``haleakala`` always shows something.
The command line itself (``haleakala sim``'s flags, and the other games' windows) is
``haleakala.cli.sim``.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from haleakala.checkout import install_hint
from haleakala.core.errors import UsageError
from haleakala.toolkit.xvfb import fit_flags, window_unavailable


def default_state_dir(kit: str) -> Path:
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(Path.home(), ".local", "state")
    return Path(base) / "haleakala" / f"sim-{kit}"


def haleakala_window(args: argparse.Namespace) -> int:
    """Haleakala's simulator (its ``GameDescription.window``): the window of the kit, the
    scenario runner, or the terminal demo where no window can open."""
    if args.decisions < 0:
        raise UsageError(f"--decisions must be 0 or more, not {args.decisions}")
    if args.scenario:
        names = ("kit", "variant", "seed", "start", "solo", "strength")
        given = [f"--{n}" for n in names if getattr(args, n, None)]
        if given or args.decisions or args.autoplay:
            extra = given + (["--decisions"] if args.decisions else [])
            extra += ["--autoplay"] if args.autoplay else []
            raise UsageError(
                "a scenario sets its own kit, variant, seed, solo mode and inputs; "
                f"drop {', '.join(extra)}"
            )
    if args.web and (args.headless or args.scenario or args.screenshot):
        raise UsageError(
            "--web serves the window's game: drop --headless/--scenario/--screenshot, or run "
            "the daemon headless with: haleakala run --hardware sim --headless --web PORT"
        )
    if args.headless:
        if args.scenario:
            return run_scenarios(args.scenario, quiet=args.quiet)
        if args.screenshot:
            return window(args, offscreen=True)
        return demo(args, reason=None)
    reason = window_unavailable()
    if reason is not None:
        if args.screenshot:
            print(f"haleakala sim: {reason}; drawing the window offscreen", file=sys.stderr)
            return window(args, offscreen=True)
        if args.scenario:
            print(f"haleakala sim: {reason}; running the scenarios headless", file=sys.stderr)
            return run_scenarios(args.scenario, quiet=args.quiet)
        return demo(args, reason=reason)
    return window(args, offscreen=False)


def run_scenarios(paths: list[str], *, quiet: bool = False) -> int:
    from haleakala.simulator.game_scenario import (
        GameScenarioError,
        load_game_scenario,
        names_a_game,
        run_game_scenario,
    )
    from haleakala.simulator.scenario import run_scenario
    from haleakala.simulator.scenario_format import ScenarioError, load_scenario

    scenarios: list[Any] = []
    for path in paths:
        try:  # a file that names another game (Kahuna, Kanaloa) is a game scenario
            game_file = names_a_game(path)
            scenarios.append(load_game_scenario(path) if game_file else load_scenario(path))
        except (ScenarioError, GameScenarioError) as exc:
            raise UsageError(str(exc)) from None
    failed = 0
    for scenario in scenarios:
        with _companion_log() as logged:
            game_file = not hasattr(scenario, "kit")
            outcome = run_game_scenario(scenario) if game_file else run_scenario(scenario)
        if not outcome.passed:
            failed += 1
        if not outcome.passed or not quiet:
            print(outcome.report(), flush=True)
        if not outcome.passed and logged:
            print("  the companion's log:\n" + "\n".join(f"    {line}" for line in logged))
    if len(scenarios) > 1 and (failed or not quiet):
        print(f"{len(scenarios) - failed} of {len(scenarios)} scenarios passed")
    return 1 if failed else 0


@contextlib.contextmanager
def _companion_log() -> Iterator[list[str]]:
    """The companion's log lines while a scenario runs, kept for its report instead of
    printed: a scenario that unplugs the Pico on purpose passes without "RFID link down"
    on stderr, and one that fails shows what the companion said."""
    lines: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(f"{record.levelname.lower()}: {record.getMessage()}")

    logger = logging.getLogger("haleakala")
    handler = Keep(logging.INFO)
    logger.addHandler(handler)
    try:
        yield lines
    finally:
        logger.removeHandler(handler)


def demo(args: argparse.Namespace, reason: str | None) -> int:
    from haleakala.simulator.demo import play_demo

    if reason is not None:
        print(
            f"haleakala sim: {reason}: playing a demo game in the terminal instead "
            "(the window needs a desktop; scenarios: haleakala sim --headless --scenario FILE)",
            file=sys.stderr,
        )
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    delay = args.delay
    if delay is not None and not 0 <= delay < 60:
        raise UsageError(f"--delay must be 0 to 60 seconds, not {delay}")
    return play_demo(
        seed=seed,
        variant=args.variant or "base",
        kit=args.kit or "buttons",
        delay=delay,
        decisions=args.decisions or None,
        quiet=args.quiet,
    )


def make_session(args: argparse.Namespace, *, temporary: bool) -> Any:
    from haleakala.simulator.session import SimSession

    kit = args.kit or "buttons"
    state_dir = args.state_dir
    if state_dir is None and not temporary:
        state_dir = default_state_dir(kit)
    new = args.seed is not None or args.start is not None or args.variant is not None
    seed = args.seed
    if new and seed is None:
        seed = random.SystemRandom().randrange(10**6)
    return SimSession(
        kit=kit,
        variant=args.variant,
        seed=seed if new else None,
        start=args.start,
        state_dir=state_dir,
        solo=getattr(args, "solo", None),
        strength=getattr(args, "strength", None),
        speak=bool(getattr(args, "speak", False)),
    )


def _journaled_language(args: argparse.Namespace, session: Any) -> None:
    """Without ``--lang``, the language chosen in the simulated board's menu (journaled)."""
    from haleakala.i18n import speak

    journal = getattr(session.companion, "journal", None)
    if getattr(args, "lang", None) is None and journal is not None and journal.language:
        speak(journal.language, warn=lambda text: print(f"haleakala sim: {text}", file=sys.stderr))
    _journaled_palette(args, journal)


def _journaled_palette(args: argparse.Namespace, journal: Any) -> None:
    """``--palette``, else the colour mode chosen in the simulated board's menu (journaled),
    else the default."""
    from haleakala import palette

    chosen = getattr(args, "palette", None) or getattr(journal, "palette", None)
    palette.use(chosen or palette.DEFAULT)


def window(args: argparse.Namespace, *, offscreen: bool) -> int:
    if offscreen:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        import pygame
    except ImportError as exc:
        raise UsageError(f"the window needs pygame ({exc}): {install_hint('sim')}") from None
    from haleakala.simulator.window import WINDOW_FLAGS, SimWindow

    try:
        pygame.display.init()
        # Offscreen there is no desktop to fit (and SDL's dummy driver warns that it has no
        # renderer to scale with): the plain window.
        flags = WINDOW_FLAGS if offscreen else (fit_flags(pygame) or WINDOW_FLAGS)
        screen = pygame.display.set_mode((1280, 800), flags)
    except pygame.error as exc:
        if offscreen:
            raise
        return demo(args, reason=f"SDL cannot open a window ({exc})")
    pygame.display.set_caption("Haleakala Companion — simulator")
    scenario = None
    if args.scenario:
        from haleakala.simulator.scenario_format import ScenarioError, load_scenario

        if len(args.scenario) > 1:
            raise UsageError("the window plays one scenario at a time")
        try:
            scenario = load_scenario(args.scenario[0])
        except ScenarioError as exc:
            raise UsageError(str(exc)) from None
    if scenario is not None:
        return _watch_scenario(scenario, screen, args)
    session = make_session(args, temporary=args.screenshot is not None)
    _journaled_language(args, session)
    live = _live_view(args.web, session) if args.web else None
    try:
        win = SimWindow(session, screen=screen)
        for _ in range(args.decisions):
            if session.bot_step(block=True) is None:
                break
        session.autoplay = args.autoplay
        if args.screenshot:
            win.step([])
            win.save(args.screenshot)
            print(f"screenshot: {args.screenshot}")
            return 0
        session.note("h: help · encoder: Left/Right arrows and Enter · back: Backspace")
        return win.run(seconds=args.seconds)
    finally:
        if live is not None:
            live.close()
        session.close()
        pygame.display.quit()


def _live_view(spec: str, session: Any) -> Any:
    """Serve the live view of the session's game: published after every frame's update, on
    the window's thread (the server only ever receives finished snapshots)."""
    from haleakala.web.start import start_live_view

    live = start_live_view(spec, session.companion)
    if live is None:
        raise UsageError(f"the live view cannot start on {spec}: see the line above")
    update = session.update

    def update_and_publish() -> None:
        update()
        live.observe(session.companion)

    session.update = update_and_publish
    print(f"live view: {live.url}", file=sys.stderr)
    return live


def _watch_scenario(scenario: Any, screen: Any, args: argparse.Namespace) -> int:
    """Play a scenario in the window, a few frames per step, then leave it on screen."""
    import pygame

    from haleakala.simulator.scenario import open_session, run_scenario
    from haleakala.simulator.session import ScenarioClock
    from haleakala.simulator.window import SimWindow

    session = open_session(scenario)
    win = SimWindow(session, screen=screen)

    def on_step(_session: Any, step: Any) -> None:
        for event in pygame.event.get():
            win.handle(event)
        win.draw()
        win.present(None)
        if not args.screenshot:
            time.sleep(0.05)

    try:
        outcome = run_scenario(scenario, session=session, on_step=on_step)
        print(outcome.report())
        session.note(("passed: " if outcome.passed else "FAILED: ") + scenario.name)
        if args.screenshot:
            win.save(args.screenshot)
            print(f"screenshot: {args.screenshot}")
        else:
            clock = session.clock
            assert isinstance(clock, ScenarioClock)  # open_session gives every scenario one
            clock.go_live()  # from here on the kit is yours to play
            win.run(seconds=args.seconds)
        return 0 if outcome.passed else 1
    finally:
        session.close()
        pygame.display.quit()
