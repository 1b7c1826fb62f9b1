"""Haleakala's phone seats (``web.seats.SeatHooks``): the generic seat's position and
decisions (every Haleakala decision is public) in the coach's plain words, the island the
live view draws to play on (``tap_board``), and the final result as the kit says it
(``game over: red 28, yellow 8: red wins``) rather than the seats' returns (who won, as 1
and 0, is not the score).
"""

from __future__ import annotations

from typing import Any

from haleakala import i18n
from haleakala.games.haleakala import PLAYERS, Game
from haleakala.games.haleakala.decision import Boat, Buy, Lava, Place, Return, Shaman, Take, decode
from haleakala.games.haleakala.views import live
from haleakala.games.haleakala.views.render import banked
from haleakala.games.haleakala.words.labels import decision_words as coach_words
from haleakala.games.haleakala.words.moves import result_sentence
from haleakala.i18n import N_, _
from haleakala.toolkit.generic.seat import seen_events

__all__ = [
    "decision_words",
    "result_words",
    "sections",
    "seen_decision",
    "seen_events",
    "tap_board",
]

WORDS = {
    "t_beach": N_("beach {n}"),
    "t_crater": N_("crater {n}"),
    "t_space": N_("space {space}"),
    "t_slot": N_("the card in slot {slot}"),
    "t_disc": N_("disc {n}"),
    "t_invoke": N_("with the invocation disc"),
    "t_back": N_("take disc {n} back"),
    "t_supply": N_("your discs"),
    "t_boat": N_("the boat"),
}
"""The drawing's words for what a seat taps."""


def decision_words(game: Game, code: int) -> str:
    """A legal decision in the coach's plain words (``place disc 3 on beach 2``)."""
    return str(i18n.render(coach_words(game, code)))


def seen_decision(before: Game, code: int, viewer: int) -> str:
    """Every decision is public: each seat reads it in the same plain words as its button
    (the log and the last move say ``move the shaman to 1M``, not ``>1M``)."""
    return decision_words(before, code)


def sections(game: Game, viewer: int) -> list[dict]:
    """The position in words beside the drawing: the scores, each player's discs and
    cards, the scoring board (the drawing shows the island; no save fields)."""
    snap = live.snapshot(game)
    said = snap["labels"]
    lines = []
    for colour in PLAYERS:
        p = snap["players"][colour]
        supply = " ".join(str(v) for v in p["supply"]) or said["none"]
        cards = "; ".join(c["name"] for c in p["cards"]) or said["none"]
        lines.append(
            _("{colour}: {n} points, discs {discs}, cards {cards}").format(
                colour=_(colour), n=snap["score"][colour], discs=supply, cards=cards
            )
        )
    board = [
        f"{item['name']} ({item['cost']}): {said.get(item['owner'] or 'available', item['owner'])}"
        for item in snap["board"]
    ]
    return [{"title": "", "lines": lines, "wide": False},
            {"title": "", "lines": board, "wide": False}]  # fmt: skip


def tap_board(game: Game, viewer: int, codes: list[int]) -> dict:
    """The island the live view draws (``live.geometry`` and the snapshot's ``island``)
    and how each legal decision is tapped: a disc placed by its beach and then the disc
    (then the invocation disc, if with it), a disc taken back by its beach and then its
    button, the shaman by the land space it goes to, a card by its slot, the boat, the
    Lava Priestess by the crater and then its neighbour; what names no place (stay, buy,
    keep, pass, no lava) by its button."""
    b = game.board
    steps: list[list] = []
    words = {}
    for code in codes:
        d = decode(code, b)
        said = decision_words(game, code)
        match d:
            case Place(v, beach, invoke):
                steps.append([f"beach-{beach}", f"disc-{v}", *(["invoke"] if invoke else [])])
            case Return(v, beach):
                steps.append([f"beach-{beach}", f"back-{v}"])
            case Boat():
                steps.append(["boat"])
            case Shaman(space) if space is not None:
                steps.append([f"space-{space}"])
            case Take(slot):
                steps.append([f"slot-{b.slot_name(slot)}"])
            case Lava(source, target) if source is not None and target is not None:
                steps.append([f"crater-{source}", f"crater-{target}"])
            case Buy(item):
                steps.append([f"buy-{item}"])
                words[f"buy-{item}"] = said
            case _:  # stay, no lava, keep, pass
                key = game.format(code).replace(" ", "-")
                steps.append([key])
                words[key] = said
    labels = {key: _(text) for key, text in WORDS.items()}
    words.update({f"beach-{s}": labels["t_beach"].format(n=s) for s in range(b.segments)})
    words.update({f"disc-{v}": labels["t_disc"].format(n=v) for v in b.discs})
    words.update({f"back-{v}": labels["t_back"].format(n=v) for v in b.discs})
    words.update({"invoke": labels["t_invoke"], "boat": labels["t_boat"]})
    words.update({f"crater-{s}": labels["t_crater"].format(n=s) for s in range(b.segments)})
    words.update({f"space-{k}": labels["t_space"].format(space=b.space_name(k))
                  for k in range(b.land_spaces)})  # fmt: skip
    words.update({f"slot-{b.slot_name(k)}": labels["t_slot"].format(slot=b.slot_name(k))
                  for k in range(b.segments * b.slots_per_segment)})  # fmt: skip
    snap: dict[str, Any] = live.snapshot(game)
    labels.update(snap["labels"])
    me = PLAYERS[viewer]
    return {
        "data": {
            "geo": live.geometry(),
            "island": snap["island"],
            "last": snap["last"],
            "seat": me,
            "supply": snap["players"][me]["supply"],
            "invocation": snap["players"][me]["invocation"] == "supply",
        },
        "labels": labels,
        "scores": dict(zip(PLAYERS, banked(game), strict=True)),
        "steps": steps,
        "words": words,
        "refusals": {},
    }


def result_words(game: Game) -> str:
    """The final score in words, in the language in use ("" while the game goes on)."""
    result = game.result()
    return "" if result is None else str(i18n.render(result_sentence(result)))
