"""Kahuna's seat hooks (``web.seats.SeatHooks``): what a phone seat reads, and only that.

Built on the terminal's words written for a viewer (``terminal.kahuna``), which already
keep K31's secrets: the hand shown is the viewer's own, a card drawn from the pile is named
only to the one who drew it, a face-down discard names no card to the other player.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from haleakala.games.kahuna.notation import decode
from haleakala.games.kahuna.views import live
from haleakala.games.kahuna.views.terminal import (
    board_lines,
    describe_decision,
    describe_events,
    describe_result,
    table_lines,
)
from haleakala.i18n import N_, _, render

if TYPE_CHECKING:
    from haleakala.games.kahuna import Game

WORDS = {
    "play": N_("build the bridge {line} with the card {card}"),
    "cut": N_("remove the bridge {line} with the cards {first} and {second}"),
    "discard": N_("put the card {card} face down"),
    "pile": N_("draw the top card of the pile"),
    "slot": N_("take the card {card} from the display"),
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
        first, second = (names[c] for c in d.cards)
        return _(WORDS["cut"]).format(line=b.line_names[d.line], first=first, second=second)
    if d.kind == "discard":
        return _(WORDS["discard"]).format(card=names[d.island])
    if d.kind == "slot":
        return _(WORDS["slot"]).format(card=names[game.display[d.slot]])
    return _(WORDS[d.kind])


def tap_board(game: Game, viewer: int, codes: list[int]) -> dict:
    """The drawing a seat plays on (``live.board``: its own hand only) and how each legal
    decision is tapped: a bridge by its two islands (in either order) and then the card it
    is laid with, a cut by the bridge's two islands and then its two cards, a discard by
    its card, a draw by the pile or the display card, ``end`` by its button. An island with
    no legal line from it, or a second island that makes none, is refused with the rules'
    own sentence for bridging that line."""
    b = game.board
    names = b.islands
    steps: list[list] = []
    for code in codes:
        d = decode(code, b)
        if d.kind in ("play", "cut"):
            a, z = (f"island-{names[i]}" for i in b.lines[d.line])
            cards = [d.island] if d.kind == "play" else list(d.cards)
            steps.append([[a, z], [f"hand-{names[c]}" for c in cards]])
        elif d.kind == "discard":
            steps.append([f"hand-{names[d.island]}"])
        elif d.kind == "slot":
            steps.append([f"slot-{d.slot + 1}"])
        else:
            steps.append([d.kind])
    words = {f"island-{n}": _(live.LABELS["h_island"]).format(island=n) for n in names}
    words.update({f"hand-{n}": _(live.LABELS["h_card"]).format(island=n) for n in names})
    words.update({"pile": _(live.LABELS["h_draw_pile"]), "end": _(WORDS["end"])})
    for slot, card in enumerate(game.display):
        if card is not None and card >= 0:
            words[f"slot-{slot + 1}"] = _(WORDS["slot"]).format(card=names[card])
    return {
        "data": (data := live.board(game, viewer)),
        "scores": {c: p["score"] for c, p in data["players"].items()},
        "labels": live.labels(),
        "steps": steps,
        "words": words,
        "refusals": _refusals(game, viewer, codes) if codes else {},
    }


def _refusals(game: Game, viewer: int, codes: list[int]) -> dict[str, str]:
    """The rules' sentence for each line no legal decision uses now, keyed by the taps
    that name it (its two islands, either way) and by a first island with no legal line."""
    b = game.board
    names = b.islands
    seat = game.players[viewer]
    used = {decode(c, b).line for c in codes}
    out: dict[str, str] = {}
    open_from: set[int] = set()
    for line, (a, z) in enumerate(b.lines):
        if line in used:
            open_from.update((a, z))
            continue
        found = game.refusal(f"play {names[a]}>{names[z]}", seat)
        if found is None:
            continue
        said = str(render(found.words))
        out[f"island-{names[a]} island-{names[z]}"] = said
        out[f"island-{names[z]} island-{names[a]}"] = said
        for end in (a, z):
            out.setdefault(f"island-{names[end]}", said)
    for i, name in enumerate(names):
        if i in open_from:
            out.pop(f"island-{name}", None)
    return out


def seen_decision(before: Game, code: int, viewer: int) -> str:
    """In words; what is hidden is the game's to say (``Game.seen_decision``, the same
    hook the remote core filters its messages with): a text it hides is said as hidden."""
    text = before.format(code)
    if before.seen_decision(text, before.decider, viewer) != text:
        return _("discards a card face down")
    if decode(code, before.board).kind == "discard":
        return describe_decision(before, code, viewer)
    return decision_words(before, code)  # the words of its button, never the notation


def seen_events(before: Game, events: list[Any], viewer: int) -> list[str]:
    return describe_events(before, events, viewer)


def result_words(game: Game) -> str:
    return describe_result(game)
