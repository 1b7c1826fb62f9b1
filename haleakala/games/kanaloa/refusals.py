"""Why a Kanaloa decision is refused: a ``Refusal`` whose words (a ``Text``) name the ruling.

The words are made here, where the rules know why, as catalog templates and parameters
(colours as ``Term``, islands, currents and decisions as notation), so every front-end renders
them in its viewer's language and none parses an English sentence back. Their English is the
sentence the rules always gave (``why_illegal``): tests and logs read it.

Kept apart from the rules so that the engine's hot path stays short; only a refused decision
(the terminal, the window, a phone, the replayer, a bad log) comes here. Pure: no catalog.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from haleakala.core.refusal import Refusal
from haleakala.core.text import N_, Term, Text

from .notation import NotationError, format_decision, parse_decision
from .state import (
    ENDSTEP,
    FISH,
    GIVE,
    KANALOA,
    KU,
    LAND,
    LONO,
    MAIN,
    OVER,
    REMOVE,
    ROB,
    SACRIFICE,
    START,
    TAKE,
    VETO,
    VOLCANO,
)

if TYPE_CHECKING:
    from .core import Core

ASKED = {
    FISH: (N_("a fish on a free current (N13-N16)"), "N13"),
    START: (N_("a first piece on an island without a piece (N17)"), "N17"),
    VOLCANO: (N_("the volcano's place (N30)"), "N30"),
    REMOVE: (N_("one of your two pieces taken off the map (N20)"), "N20"),
    LAND: (N_("the island where the Dolphin lands (N25)"), "N25"),
    GIVE: (N_("the tile given to the Dolphin (N25)"), "N25"),
    MAIN: (
        N_(
            "a move, a sacrifice, or with a blocked piece a whitened fish or the Dolphin "
            "(N18, N21-N24, N34)"
        ),
        "N18",
    ),
    SACRIFICE: (N_("another tile for the open sacrifice, or done (N34)"), "N34"),
    ROB: (N_("the tile the Ku player robs (N43)"), "N43"),
    TAKE: (N_("the tile taken from the island (N26)"), "N26"),
    ENDSTEP: (N_("a Kanaloa change, the second piece, or end (N18)"), "N18"),
    VETO: (N_("allow or forbid the Kanaloa change (N42)"), "N42"),
}
"""What each decision point asks for, and its ruling (the first one the words name)."""
NOTHING = N_("nothing")

OWN_POINT = {
    "fish": FISH, "start": START, "volcano": VOLCANO, "sea": VOLCANO, "remove": REMOVE,
    "land": LAND, "give": GIVE, "swap": MAIN, "move": MAIN, "whiten": MAIN, "dolphin": MAIN,
    "sacrifice": MAIN, "add": SACRIFICE, "done": SACRIFICE, "rob": ROB, "take": TAKE,
    "reverse": ENDSTEP, "flip": ENDSTEP, "allow": VETO, "forbid": VETO, "place": ENDSTEP,
    "end": ENDSTEP,
}  # fmt: skip
"""The decision point each kind of decision belongs to."""
RULING = re.compile(r"\b[NL]\d+\b")
"""A ruling named in words: N1..N52 of KANALOA-RULINGS, L1.. of the local rulings."""


def refusal(game: Core, decision: int | str, player: str | None = None) -> Refusal | None:
    """None when ``decision`` is legal now for ``player`` (None: whoever decides); else
    why not, as a value (``Game.refusal``)."""
    try:
        d = decision if isinstance(decision, int) else parse_decision(decision, game.m)
        text = format_decision(d, game.m)
    except NotationError as exc:
        return Refusal("notation", exc.words, exc.ruling or "N52")
    if game.phase == OVER:
        return Refusal.of("game_over", N_("the game is over (N47)"), "N47")
    me = game.players[game.decider]
    if player is not None and player != me:
        return Refusal.of(
            "not_your_decision", N_("{colour} decides now, not {other} (N52)"), "N52",
            colour=Term(me), other=Term(player),
        )  # fmt: skip
    if d in game.legal_actions():
        return None
    return reason(game, d, text)


def reason(game: Core, code: int, text: str) -> Refusal:
    """The refusal of the well-formed decision ``code`` (written ``text``), not legal now."""
    kind, i = game.c.kind(code)
    point = OWN_POINT[kind]
    asked_template, asked_ruling = ASKED.get(game.phase, (NOTHING, "N52"))
    asked = Text.of(asked_template)
    quoted = repr(text)  # notation, the same in every language
    colour = Term(game.to_move or "")
    if point != game.phase and not (kind == "rob" and game.phase == TAKE):
        return Refusal.of(
            "does_not_fit", N_("{text} does not fit now: {colour} must choose {asked}"),
            asked_ruling, text=quoted, colour=colour, asked=asked,
        )  # fmt: skip
    specific = _specific(game, kind, i)
    if specific is not None:
        why, ruling, words = specific
        return Refusal.of(why, N_("{text} is not legal: {specific}"), ruling, text=quoted,
                          specific=words)  # fmt: skip
    return Refusal.of(
        "not_legal_here", N_("{text} is not legal here; {colour} must choose {asked}"),
        asked_ruling, text=quoted, colour=colour, asked=asked,
    )  # fmt: skip


def _specific(game: Core, kind: str, i: int) -> tuple[str, str, Text] | None:
    """Why this decision of the right decision point is not legal: its kind, its ruling
    and the clause; None when none of the known reasons applies."""
    m, p = game.m, game.decider
    lay = game.lay
    if kind in ("move", "whiten"):
        c, heading = divmod(i, 2)
        a, b = m.currents[c]
        tail, head = (a, b) if heading == 0 else (b, a)
        current = m.current_names[c]
        if not lay.current_in_play[c]:
            return "current_out_of_play", "N9", Text.of(
                N_("the current {current} is not in play (N9)"), current=current)  # fmt: skip
        if game.fish_tail[c] != tail:
            return "fish_points_away", "N21", Text.of(
                N_("the fish on {current} points the other way (N21)"), current=current
            )  # fmt: skip
        if not any(x == tail and not game.stun[p][k] for k, x in enumerate(game.loc[p])):
            return "no_piece_there", "N21", Text.of(
                N_("you have no piece that can act on {island} (N21, N32)"),
                island=m.islands[tail],
            )  # fmt: skip
        if kind == "move":
            if game.barred()[head]:
                return "volcano_bars", "N31", _barred(m.islands[head])
            return "fish_of_another_colour", "N21", Text.of(
                N_("the fish shows another player's colour (N21)"))  # fmt: skip
        return "not_blocked", "N22", Text.of(
            N_("only a blocked piece whitens a fish of another colour (N22, N23)"))  # fmt: skip
    if kind in ("start", "place", "land", "volcano"):
        island = m.islands[i]
        if not lay.in_play[i]:
            return "island_out_of_play", "N9", Text.of(
                N_("{island} is out of play with {n} players (N9)"), island=island, n=game.n
            )  # fmt: skip
        if game.barred()[i] and kind != "volcano":
            return "volcano_bars", "N31", _barred(island)
        if kind == "place" and game.gods[LONO] != p and game.prot[LONO] != p:
            return "not_lono", "N45", Text.of(
                N_("only a Lono card holder places the second piece (N45)"))  # fmt: skip
        return "not_vacant", "N17", Text.of(
            N_("{island} is not vacant (N17, N30, N45)"), island=island)  # fmt: skip
    if kind in ("reverse", "flip"):
        if game.gods[KANALOA] != p:
            return "not_kanaloa", "N40", Text.of(
                N_("only the Kanaloa gods card holder turns a fish (N40)"))  # fmt: skip
        if game.action_used:
            return "action_used", "N19", Text.of(
                N_("the gods card action of this turn is used (N19)"))  # fmt: skip
        return "change_breaks_the_map", "N40", Text.of(
            N_("the change would break reachability or take a piece's last way off (N40, N41)")
        )  # fmt: skip
    if kind == "swap":
        if game.gods[LONO] != p:
            return "not_lono", "N44", Text.of(
                N_("only the Lono gods card holder exchanges tiles (N44)"))  # fmt: skip
        return "swap_not_possible", "N44", Text.of(
            N_("the exchange needs two different tiles of adjacent islands in play (N44, N19)")
        )  # fmt: skip
    if kind == "rob":
        q, _ = divmod(i, len(m.tiles))
        if game.gods[KU] != p:
            return "not_ku", "N43", Text.of(N_("only the Ku gods card holder robs (N43)"))
        if q >= game.n:
            return "colour_not_playing", "N7", Text.of(
                N_("{colour} does not play (N7)"), colour=Term(m.colours[q]))  # fmt: skip
        return "cannot_rob", "N43", Text.of(
            N_("{colour} does not hold that tile or cannot be robbed now (N43)"),
            colour=Term(m.colours[q]),
        )  # fmt: skip
    if kind in ("sacrifice", "add", "give", "take"):
        return "tile_not_there", "N26", Text.of(
            N_("that tile is not there, or does not show the god (N26, N34)"))  # fmt: skip
    return None


def _barred(island: str) -> Text:
    return Text.of(N_("{island} may not be entered while the volcano is there (N31)"),
                   island=island)  # fmt: skip


def shown(refused: Refusal) -> Text:
    """A refusal's words as a player reads them, always naming a ruling: the rules' words
    do; the few notation errors that name none (a word that is no colour, a missing
    argument) get N52, the ruling that makes the notation the unit of play."""
    if RULING.search(refused.text):
        return refused.words
    return Text.of(N_("{reason} (N52)"), reason=refused.words)
