"""The one registry line of the worked example, added for the test session (a game of the
program adds it to ``haleakala.gameapi.GAMES`` itself), and its catalogs compiled beside
their ``.po`` files, as the set-up compiles every game's (``i18n.catalogs.compile_all``)."""

from __future__ import annotations

from pathlib import Path

from haleakala.gameapi import GAMES
from haleakala.i18n.catalogs import compile_domain

NAME = "dots"
LOCALE = Path(__file__).resolve().parent / "locale"


def register() -> None:
    GAMES.setdefault(NAME, "support.dots.describe:DESCRIPTION")
    compile_domain(LOCALE, NAME, only_stale=True)
