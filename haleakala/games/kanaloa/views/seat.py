"""Kanaloa's seat hooks (``web.seats.SeatHooks``): what a phone seat of a game for two to
four reads.

Kanaloa hides only the bag's order (N12) and no decision, so every seat reads the same
position and every decision's notation; the position and the effects are the terminal's
words (``terminal.kanaloa_map``), which never show the bag. What differs per seat is only
the prompt of a decision it must make, out of turn too (the fish placement, Ku's robbery
N43, the veto N42): the page has no map of its own, so the prompt says what to choose.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from haleakala.games.kanaloa.events import Ended
from haleakala.games.kanaloa.material import GODS
from haleakala.games.kanaloa.views import live
from haleakala.games.kanaloa.views.board import (
    PHASE_PROMPTS,
    describe_events,
    describe_result,
    header,
    island_lines,
    legend,
    map_lines,
    player_lines,
    volcano_line,
)
from haleakala.i18n import N_, _

if TYPE_CHECKING:
    from haleakala.games.kanaloa.game import Game


def sections(game: Game, viewer: int) -> list[dict]:
    """Whose decision and what to choose, the players and the volcano; then the map and
    the islands (wide: the page lets them scroll sideways)."""
    top = [header(game)]
    if not game.is_terminal() and game.decider == viewer and game.phase_name in PHASE_PROMPTS:
        top.append(_(PHASE_PROMPTS[game.phase_name]))
    return [
        {"title": "", "lines": [*top, volcano_line(game), *player_lines(game)], "wide": False},
        {"title": "", "lines": [*map_lines(game), legend(), *island_lines(game)], "wide": True},
    ]


DECISION_WORDS = {
    "fish": N_("place a fish on {a}-{b} swimming to {b}, showing {side}"),
    "start": N_("place your first piece on {a}"),
    "volcano": N_("place the volcano on {a}"),
    "sea": N_("place the volcano in the sea between {a}"),
    "remove": N_("take your piece off {a}"),
    "remove dolphin": N_("take your piece off the Dolphin"),
    "land": N_("land your piece from the Dolphin on {a}"),
    "give": N_("give the tile {tile} to the Dolphin"),
    "swap": N_("swap the tiles {tile} on {a} and {other} on {b}"),
    "move": N_("move a piece from {a} to {b}"),
    "whiten": N_("turn the fish on {a}-{b} to its white side"),
    "dolphin": N_("call the Dolphin to {a}"),
    "sacrifice": N_("sacrifice {tile} to {god}"),
    "add": N_("add {tile} to the sacrifice"),
    "done": N_("end the sacrifice"),
    "rob": N_("rob {tile} from {colour}"),
    "take": N_("take the tile {tile}"),
    "reverse": N_("turn the fish on {a} round"),
    "flip": N_("turn the fish on {a} over"),
    "allow": N_("allow the change of your fish"),
    "forbid": N_("forbid the change of your fish"),
    "place": N_("place your second piece on {a}"),
    "end": N_("end the turn"),
}
"""Each kind of decision in plain words, for the seat's buttons and its confirm line (issue 39
item 6: a phone player reads a sentence; the notation stays under it for who knows it)."""


def decision_words(game: Game, code: int) -> str:
    """A legal decision in plain words, read back from its canonical text (the notation's
    grammar: ``kind`` then its places, tiles, god or colour)."""
    text = str(game.format(code))
    kind, *args = text.split(" ")
    if kind == "remove" and args == ["dolphin"]:
        kind = "remove dolphin"
    elif kind == "volcano" and args and "+" in args[0]:
        kind = "sea"
    values: dict[str, str] = {}
    if kind in ("fish", "move", "whiten"):
        values["a"], values["b"] = args[0].split(">")
        if kind == "fish":
            values["side"] = _(args[1])
    elif kind == "sea":
        values["a"] = ", ".join(args[0].split("+"))
    elif kind in ("give", "add", "take"):
        values["tile"] = args[0]
    elif kind == "swap":
        (values["a"], values["tile"]), (values["b"], values["other"]) = (
            a.split(":", 1) for a in args
        )
    elif kind == "sacrifice":
        values["tile"], values["god"] = args[0], args[-1]
    elif kind == "rob":
        values["colour"], values["tile"] = _(args[0]), args[1]
    elif args:
        values["a"] = args[0]
    template = DECISION_WORDS.get(kind)
    return _(template).format(**values) if template else text


CHIPS = {
    "done": N_("done"),
    "allow": N_("allow it"),
    "forbid": N_("forbid it"),
    "end": N_("end the turn"),
    "reverse": N_("turn the fish round"),
    "flip": N_("turn the fish over"),
}
"""The decisions no place of the map stands for, as the seat's buttons beside it say them."""


def tap_board(game: Game, viewer: int, codes: list[int]) -> dict:
    """The map the watchers see (``live.map_state``, nothing hidden but the bag) and how
    each legal decision is tapped, as the window's clicks make them
    (``window.table``): an island for the decisions that name one, for a move the island
    reached and then the current taken; a current and then the island it heads to for
    ``whiten`` and a fish (then the colour it shows); a tile on an island or in a hand;
    the two tiles of a swap in either order; a sacrifice's tile, then its god."""
    m = game.m
    steps = [_steps(game, game.format(code)) for code in codes]
    words = {f"island-{n}": n for n in m.islands}
    words.update({f"current-{n}": n for n in m.current_names})
    words.update({f"sea-{n}": _("volcano {sea}").format(sea=n) for n in m.sea_names})
    words.update({f"god-{g}": g for g in GODS})
    words.update({f"fish-{c}": _(c) for c in ("white", *m.colours)})
    words.update({key: _(text) for key, text in CHIPS.items()})
    words["dolphin"] = _(live.LABELS["k_dolphin"])
    for i, tiles in enumerate(game.tiles):
        for t in tiles:
            words[f"tile-{m.islands[i]}-{m.tiles[t]}"] = f"{m.tiles[t]} ({m.islands[i]})"
    for k, who in enumerate(game.players):
        for held in game.hand_tiles(k):
            words[f"held-{who}-{held}"] = f"{held} ({_(who)})"
    labels = {key: _(text) for key, text in live.LABELS.items()}
    return {
        "data": {
            "map": live.map_state(game),
            "players": {c: live.player_state(game, p) for p, c in enumerate(game.players)},
            "current": None if game.is_terminal() else game.players[game.current],
        },
        "labels": labels,
        "scores": dict(zip(game.players, game.scores(), strict=True)),
        "steps": steps,
        "words": words,
        "refusals": {},
    }


def _current(game: Game, heading: str) -> tuple[str, str]:
    """``A>B`` -> (the current's id, the island it heads to's id)."""
    a, b = heading.split(">")
    m = game.m
    ia, ib = m.islands.index(a), m.islands.index(b)
    c = next(k for k, pair in enumerate(m.currents) if set(pair) == {ia, ib})
    return f"current-{m.current_names[c]}", f"island-{b}"


def _held(game: Game, code: str) -> str:
    """The tile ``code`` in the hand of the player who decides."""
    return f"held-{game.players[game.decider]}-{code}"


def _steps(game: Game, text: str) -> list:
    kind, *args = text.split(" ")
    if kind in ("start", "volcano", "land", "dolphin", "place", "remove") and args:
        if kind == "volcano" and args[0] not in game.m.islands:
            return [f"sea-{args[0]}"]
        return ["dolphin" if args[0] == "dolphin" else f"island-{args[0]}"]
    if kind == "move":
        current, island = _current(game, args[0])
        return [island, current]
    if kind in ("whiten", "fish"):
        current, island = _current(game, args[0])
        return [current, island, *([f"fish-{args[1]}"] if kind == "fish" else [])]
    if kind in ("reverse", "flip"):
        return [f"current-{args[0]}", kind]
    if kind in ("give", "take"):  # a tile of the island reached (N26)
        return [f"tile-{game.m.islands[game.arrive]}-{args[0]}"]
    if kind == "add":
        return [_held(game, args[0])]
    if kind == "swap":
        return [[f"tile-{a.replace(':', '-')}" for a in args]]
    if kind == "sacrifice":
        return [_held(game, args[0]), f"god-{args[2]}"]
    if kind == "rob":
        return [f"held-{args[0]}-{args[1]}"]
    return [kind]


def seen_decision(before: Game, code: int, viewer: int) -> str:
    """Every seat sees the notation (no decision hides anything); asked of the game's own
    hook all the same, so that one it adds later is kept by the phones too."""
    return before.seen_decision(before.format(code), before.decider, viewer)


def seen_events(before: Game, events: list[Any], viewer: int) -> list[str]:
    """The effects in words; the final result is left to ``result_words`` (it needs the
    position after the decision, and the page shows it once)."""
    return describe_events(before, [e for e in events if not isinstance(e, Ended)])


def result_words(game: Game) -> str:
    return describe_result(game)
