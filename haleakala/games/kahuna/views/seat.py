"""Kahuna's seat hooks (``web.seats.SeatHooks``): what a phone seat reads, and only that.

Built on the terminal's words written for a viewer (``terminal.kahuna``), which already
keep K31's secrets: the hand shown is the viewer's own, a card drawn from the pile is named
only to the one who drew it, a face-down discard names no card to the other player.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from haleakala.games.kahuna.notation import decode
from haleakala.games.kahuna.views.terminal import (
    board_lines,
    describe_decision,
    describe_events,
    describe_result,
    table_lines,
)
from haleakala.i18n import N_, _

if TYPE_CHECKING:
    from haleakala.games.kahuna import Game

WORDS = {
    "play": N_("bridge {line} with a {card} card"),
    "cut": N_("remove the bridge {line} with {cards}"),
    "discard": N_("put {card} face down"),
    "pile": N_("draw the top card of the pile"),
    "slot": N_("take {card} from the display"),
    "end": N_("end the turn without drawing"),
}


def sections(game: Game, viewer: int) -> list[dict]:
    """The viewer's hand first (what a phone is for), then the table, then the islands and
    lines (a wide table: the page lets it scroll sideways)."""
    table = table_lines(game, viewer)
    return [
        {"title": "", "lines": table[-1:], "wide": False, "hand": True},
        {"title": "", "lines": table[:-1], "wide": False},
        {"title": "", "lines": board_lines(game), "wide": True},
    ]


def decision_words(game: Game, code: int) -> str:
    """A legal decision in plain words, from the rules' own decoding (``notation.decode``)."""
    b = game.board
    names = b.islands
    d = decode(code, b)
    if d.kind == "play":
        return _(WORDS["play"]).format(line=b.line_names[d.line], card=names[d.island])
    if d.kind == "cut":
        cards = "+".join(names[c] for c in d.cards)
        return _(WORDS["cut"]).format(line=b.line_names[d.line], cards=cards)
    if d.kind == "discard":
        return _(WORDS["discard"]).format(card=names[d.island])
    if d.kind == "slot":
        return _(WORDS["slot"]).format(card=names[game.display[d.slot]])
    return _(WORDS[d.kind])


def seen_decision(before: Game, code: int, viewer: int) -> str:
    """In words; what is hidden is the game's to say (``Game.seen_decision``, the same
    hook the remote core filters its messages with): a text it hides is said as hidden."""
    text = before.format(code)
    if before.seen_decision(text, before.decider, viewer) != text:
        return _("discards a card face down")
    return describe_decision(before, code, viewer)


def seen_events(before: Game, events: list[Any], viewer: int) -> list[str]:
    return describe_events(before, events, viewer)


def result_words(game: Game) -> str:
    return describe_result(game)
