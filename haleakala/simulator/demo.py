"""A demo game in the terminal: the companion on simulated hardware, two bots at the board.

What plain ``haleakala`` does where no window can open (a server, an SSH session, CI).
Not a second game: the bots' decisions become button presses and encoder turns into the
real companion, exactly as in the simulator window; the terminal shows what the OLED says
and the island after each turn (``haleakala.games.haleakala.views.render``), or one line per
decision when the output is not a terminal.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

from haleakala.games.haleakala import PLAYERS
from haleakala.games.haleakala.views import render
from haleakala.hal.simulated import SimClock
from haleakala.i18n import english_ngettext

from .session import SimSession


def play_demo(
    *,
    seed: int,
    variant: str = "base",
    kit: str = "buttons",
    out: TextIO | None = None,
    delay: float | None = None,
    color: bool | None = None,
    bot: str = "greedy",
    decisions: int | None = None,
    quiet: bool = False,
) -> int:
    """Play until the end (or ``decisions`` decisions, then say where the game stands);
    ``quiet``: only the opening line and the outcome, not every decision."""
    out = out or sys.stdout
    isatty = bool(getattr(out, "isatty", lambda: False)())
    color = isatty if color is None else color
    delay = (0.15 if isatty else 0.0) if delay is None else delay
    with SimSession(
        kit=kit, variant=variant, seed=seed, clock=SimClock(), journal_sync=False
    ) as session:
        out.write(
            f"demo: {variant} game, seed {seed}, {kit} kit, {bot} bots at both seats; "
            + (
                "every decision goes through the RFID readers under the beaches (discs) and "
                "the companion's buttons and encoder (the rest)\n"
                if kit == "rfid"
                else "every decision goes through the companion's buttons and encoder\n"
            )
        )
        scorings = 0
        while not session.game.is_terminal():
            if decisions is not None and len(session.game.history) >= decisions:
                n = len(session.game.history)
                counted = english_ngettext("decision", "decisions", n)
                out.write(f"after {n} {counted}: {session.companion.status()}\n")
                return 0
            game = session.game
            colour = game.to_move or PLAYERS[0]
            text = session.bot_step(bot, seed)
            if text is None:
                out.write("demo stopped: " + (session.log[-1] if session.log else "?") + "\n")
                return 1
            game = session.game
            oled = " / ".join(session.prompt)
            if quiet:
                pass
            elif isatty:
                out.write("\x1b[H\x1b[2J" + render.render(game, color) + "\n")
                out.write(f"\n{len(game.history):3d}. {colour} {text}    OLED: {oled}\n")
            else:
                out.write(f"{len(game.history):3d}. {colour:6s} {text:12s} OLED: {oled}\n")
            if len(game.scorings) > scorings:
                scorings = len(game.scorings)
                if not quiet:
                    out.write("\n".join(render.describe_scoring(game.scorings[-1])) + "\n")
            out.flush()
            if delay and not quiet:
                time.sleep(delay)
        result = session.game.result()
        assert result is not None
        out.write(render.describe_result(result) + "\n")
        n = len(session.game.history)
        counted = english_ngettext("decision", "decisions", n)
        out.write(f"{n} {counted}, final digest {session.game.digest()}\n")
    return 0
