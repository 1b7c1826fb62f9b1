"""The simulator window's status lines, read from a session like a bystander reads the table."""

from __future__ import annotations

from typing import TYPE_CHECKING

from haleakala.core.text import Capitalised, Param, Term, Text, ngettext
from haleakala.i18n import N_
from haleakala.i18n.terms import PHASES

if TYPE_CHECKING:
    from .session import SimSession


def status_lines(session: SimSession) -> list[tuple[Param, tuple[int, int, int]]]:
    """Up to seven coloured lines: the game, the kit, the table and solo mode, each a value
    (a template and its parameters) that the window renders in the player's language: the
    window is a player's, so is its status (issue 39). Only the link's transport and the
    ``--misplace`` test flag stay as the developer typed them."""
    game = session.game
    white, dim = (226, 228, 232), (150, 156, 168)
    colours = {"red": (240, 90, 80), "yellow": (240, 200, 60)}
    lines: list[tuple[Param, tuple[int, int, int]]] = []
    if game.is_terminal():
        result = game.result()
        assert result is not None
        won = Text.of(N_("game over: {colour} wins"), colour=Capitalised(Term(result.winner)))
        lines.append((won, colours[result.winner]))
        lines.append((f"{result.scores[0]} – {result.scores[1]}", white))
    else:
        who = game.to_move or "red"
        lines.append((Text.of(N_("round {round} · {colour} to move"), round=game.round,
                              colour=Capitalised(Term(who))), colours[who]))  # fmt: skip
        phase = Term(PHASES.get(game.phase_name, game.phase_name))
        lines.append((Text.of(N_("phase: {phase}"), phase=phase), white))
        if game.scorings:
            red, yellow = game.scorings[-1].totals
            lines.append((Text.of(N_("score: {red} {n} · {yellow} {m}"), red=Term("red"), n=red,
                                  yellow=Term("yellow"), m=yellow), white))  # fmt: skip
    lines.append(
        (
            Text.of(
                N_("decision {n} · {variant} · seed {seed}"),
                n=len(game.history),
                variant=Term(game.variant),
                seed=str(game.seed),  # a deal's name, not a quantity: never grouped
            ),
            dim,
        )
    )
    kit = Text.of(N_("RFID kit")) if session.kit == "rfid" else Text.of(N_("buttons kit"))
    extra = f" ({session.link.transport})" if session.link is not None else ""
    extra += " · MISPLACE" if session.misplace else ""
    lines.append((Text.of(N_("{kit}{extra}"), kit=kit, extra=extra) if extra else kit, dim))
    wrong = session.differences()
    if wrong:
        differs = ngettext("table differs: {n} piece", "table differs: {n} pieces", len(wrong),
                           n=len(wrong))  # fmt: skip
        lines.append((differs, (255, 120, 100)))
    c = session.companion
    if c.solo is not None:
        solo = N_("solo: companion plays {colour} ({strength}) · thinking…") if c.thinking else N_(
            "solo: companion plays {colour} ({strength})")  # fmt: skip
        lines.append((Text.of(solo, colour=Term(c.solo), strength=Term(c.strength)), white))
    if session.autoplay:
        lines.append((Text.of(N_("autoplay on")), (140, 220, 140)))
    return lines[:7]
