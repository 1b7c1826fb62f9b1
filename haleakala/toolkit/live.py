"""The live view's words in the game's language: the page's fixed labels, which every game's
snapshot carries (a game's view adds its own keys beside them).

The page is static and speaks no language of its own: every label it shows travels in the
snapshot, translated on the game thread with the language in use (``i18n``), so a language
chosen from the board's menu reaches the phones with the next update. Templates keep their
``{placeholders}``; the page fills them with the snapshot's values.
"""

from __future__ import annotations

from functools import cache
from typing import TypeVar

from haleakala import i18n, palette
from haleakala.gameapi import GameState, game_of
from haleakala.i18n import N_, _

LABELS = {
    "title": N_("Haleakala — live view"),
    "island": N_("the island"),
    "connecting": N_("connecting…"),
    "lost": N_("connection lost — reconnecting…"),
    "final_scores": N_("Final scores"),
    "scoring_board": N_("Scoring board"),
    "log": N_("Log"),
    "round": N_("round {n} of {rounds}"),
    "to_decide": N_("{colour} to decide"),
    "deciding": N_("to decide"),
    "score": N_("score {n}"),
    "supply": N_("discs in supply: {discs}"),
    "invocation": N_("+ invocation"),
    "none": N_("none"),
    "statues_left": N_("statues left: {n}"),
    "shells": N_("shells: {n}"),
    "cards": N_("cards: {cards}"),
    "baskets": N_("(baskets {baskets}, butterflies {butterflies})"),
    "scoring_cards": N_("scoring cards: {cards}"),
    "available": N_("available"),
    "face down": N_("face down"),
    "piles": N_("piles: {piles}"),
    "discard": N_("discard: {n}"),
    "scoring": N_("scoring"),
    "after_scoring": N_("after scoring {n}"),
    "meta": N_("seed {seed} · decision {n} · digest {digest}"),
    "red": N_("red"),
    "yellow": N_("yellow"),
    "notation": N_("in notation: {codes}"),
    "legend": N_("What the shapes mean"),
    "legend_shaman": N_("triangle: a shaman"),
    "legend_statue": N_("rectangle: a statue"),
    "legend_boat": N_("ellipse: the boat"),
    "legend_disc": N_("circle with a number: a disc (Σ: a beach's sum)"),
    "legend_lava": N_("circle without a number: lava"),
    "legend_last": N_("dashed outline: the last move"),
    "colours": N_("colours"),
    "palette_default": palette.NAMES["default"],
    "palette_cvd": palette.NAMES["cvd"],
}
"""Every fixed text of the page (``static/``), by the key the page looks it up with."""


def labels() -> dict[str, str]:
    """The page's labels in the language in use (a fresh dict: the snapshot owns it)."""
    return dict(_labels(i18n.current()))


@cache
def _labels(language: str) -> tuple[tuple[str, str], ...]:
    """Built once per language: the labels cost the game thread nothing after the first
    snapshot (``language`` is only the cache key; ``_`` reads the language in use)."""
    return tuple((key, _(text)) for key, text in LABELS.items())


G = TypeVar("G", bound=GameState)


def continued(before: G | None, after: G) -> G | None:
    """A copy of ``before`` to replay ``after``'s new decisions on, in order, when ``after``
    continues it (the same game, deal and players, its history extending ``before``'s): what
    every game's ``log_lines`` says decision by decision. None when the log starts over
    (another game, or a jump the page cannot tell decision by decision)."""
    if (
        before is None
        or game_of(before) != game_of(after)
        or before.seed != after.seed
        or before.players != after.players
    ):
        return None
    made = len(before.history)
    if len(after.history) < made or after.history[:made] != before.history:
        return None
    return before.clone()
