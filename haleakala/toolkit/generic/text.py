"""A game's position and end in words, for the generic views: the description's ``render``
hook (the position as ``viewer`` may see it), else its ``observation`` key by key; the
winners from ``returns`` and ``result().reason``.
"""

from __future__ import annotations

from collections.abc import Mapping

from haleakala.gameapi import GameState, describe, game_of, hook
from haleakala.i18n import _


def colour_name(colour: str) -> str:
    """A seat colour as a player's name in the language in use."""
    return _(colour)


def position_text(game: GameState, viewer: int | None) -> str:
    """The position as ``viewer`` (a player index; None: a watcher) may see it, in the
    language in use."""
    ref = describe(game_of(game)).render
    if ref:
        return str(hook(ref)(game, viewer))
    seen = game.observation(viewer if viewer is not None else game.decider)
    return "\n".join(f"{key}: {flat(value)}" for key, value in seen.items())


def flat(value: object) -> str:
    """A JSON-able value on one line (an observation's entries)."""
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {flat(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return " ".join(flat(v) for v in value)
    return str(value)


def winners(game: GameState) -> list[str]:
    """The colours that share the best return of a finished game (one: the winner)."""
    returns = game.returns()
    best = max(returns)
    return [c for c, r in zip(game.players, returns, strict=True) if r == best]


def result_sentence(game: GameState) -> str:
    """The end of a finished game in one sentence: who won, and what decided."""
    won = winners(game)
    result = game.result()
    reason = result.reason if result is not None else ""
    if len(won) == 1:
        text = _("{colour} wins").format(colour=colour_name(won[0]))
    else:
        text = _("shared first place: {colours}").format(
            colours=", ".join(colour_name(c) for c in won)
        )
    return f"{text} ({reason})" if reason else text


def introduction(game: GameState, seat_names: list[str]) -> str:
    """The first line of a game: its title, its seed and who sits at each colour."""
    seats = "; ".join(
        _("{colour} is {seat}").format(colour=colour_name(c), seat=seat_names[p])
        for p, c in enumerate(game.players)
    )
    title = describe(game_of(game)).title
    return _("{title}, seed {seed}: {seats}.").format(title=title, seed=game.seed, seats=seats)
