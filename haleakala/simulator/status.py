"""The simulator window's status lines, read from a session like a bystander reads the table."""

from __future__ import annotations

from typing import TYPE_CHECKING

from haleakala.core.text import Param, Term, Text
from haleakala.i18n import N_, english_ngettext

if TYPE_CHECKING:
    from .session import SimSession


def status_lines(session: SimSession) -> list[tuple[Param, tuple[int, int, int]]]:
    """Up to seven coloured lines: the game, the kit, the table and solo mode (a value where
    the catalog has the words, the window renders it; the developer's lines are English)."""
    game = session.game
    white, dim = (226, 228, 232), (150, 156, 168)
    colours = {"red": (240, 90, 80), "yellow": (240, 200, 60)}
    lines: list[tuple[Param, tuple[int, int, int]]] = []
    if game.is_terminal():
        result = game.result()
        assert result is not None
        lines.append((f"game over: {result.winner} wins", colours[result.winner]))
        lines.append((f"{result.scores[0]} – {result.scores[1]}", white))
    else:
        who = game.to_move or "red"
        lines.append((f"round {game.round} · {who} to move", colours[who]))
        lines.append((f"phase: {game.phase_name}", white))
        if game.scorings:
            red, yellow = game.scorings[-1].totals
            lines.append((f"score: red {red} · yellow {yellow}", white))
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
    mode = f"kit {session.kit}"
    if session.link is not None:
        mode += f" ({session.link.transport})"
    lines.append((mode + (" · MISPLACE" if session.misplace else ""), dim))
    wrong = session.differences()
    if wrong:
        pieces = english_ngettext("piece", "pieces", len(wrong))
        lines.append((f"table differs: {len(wrong)} {pieces}", (255, 120, 100)))
    c = session.companion
    if c.solo is not None:
        thinking = " · thinking…" if c.thinking else ""
        lines.append((f"solo: companion plays {c.solo} ({c.strength}){thinking}", white))
    if session.autoplay:
        lines.append(("autoplay on", (140, 220, 140)))
    return lines[:7]
