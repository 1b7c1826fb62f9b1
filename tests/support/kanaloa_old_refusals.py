"""The English sentences of Kanaloa's refusals as the rules wrote them before they became
``Refusal`` values (``haleakala/games/kanaloa/refusals.py`` and ``Game.why_illegal`` of commit
3c45af0, copied unchanged but for the imports): the oracle that the values' English equals
the old sentence, so a test reading a refusal's words still reads what it read."""

from __future__ import annotations

from typing import TYPE_CHECKING

from haleakala.games.kanaloa.notation import NotationError, format_decision, parse_decision
from haleakala.games.kanaloa.state import (
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
    from haleakala.games.kanaloa.game import Game


def old_why_illegal(self: Game, decision: int | str, player: str | None = None) -> str | None:
    """``Game.why_illegal`` as it was."""
    try:
        d = decision if isinstance(decision, int) else parse_decision(decision, self.m)
        text = format_decision(d, self.m)
    except NotationError as exc:
        return str(exc)
    if self.phase == OVER:
        return "the game is over (N47)"
    me = self.players[self.decider]
    if player is not None and player != me:
        return f"{me} decides now, not {player} (N52)"
    if d in self.legal_actions():
        return None
    return reason(self, d, text)


# What each decision point asks for, and its ruling.
ASKED = {
    FISH: "a fish on a free current (N13-N16)",
    START: "a first piece on an island without a piece (N17)",
    VOLCANO: "the volcano's place (N30)",
    REMOVE: "one of your two pieces taken off the map (N20)",
    LAND: "the island where the Dolphin lands (N25)",
    GIVE: "the tile given to the Dolphin (N25)",
    MAIN: "a move, a sacrifice, or with a blocked piece a whitened fish or the Dolphin "
    "(N18, N21-N24, N34)",
    SACRIFICE: "another tile for the open sacrifice, or done (N34)",
    ROB: "the tile the Ku player robs (N43)",
    TAKE: "the tile taken from the island (N26)",
    ENDSTEP: "a Kanaloa change, the second piece, or end (N18)",
    VETO: "allow or forbid the Kanaloa change (N42)",
}

OWN_POINT = {
    "fish": FISH, "start": START, "volcano": VOLCANO, "sea": VOLCANO, "remove": REMOVE,
    "land": LAND, "give": GIVE, "swap": MAIN, "move": MAIN, "whiten": MAIN, "dolphin": MAIN,
    "sacrifice": MAIN, "add": SACRIFICE, "done": SACRIFICE, "rob": ROB, "take": TAKE,
    "reverse": ENDSTEP, "flip": ENDSTEP, "allow": VETO, "forbid": VETO, "place": ENDSTEP,
    "end": ENDSTEP,
}  # fmt: skip


def reason(game: Game, code: int, text: str) -> str:
    kind, i = game.c.kind(code)
    point = OWN_POINT[kind]
    asked = ASKED.get(game.phase, "nothing")
    if point != game.phase and not (kind == "rob" and game.phase == TAKE):
        return f"{text!r} does not fit now: {game.to_move} must choose {asked}"
    specific = _specific(game, kind, i)
    if specific:
        return f"{text!r} is not legal: {specific}"
    return f"{text!r} is not legal here; {game.to_move} must choose {asked}"


def _specific(game: Game, kind: str, i: int) -> str:
    m, p = game.m, game.decider
    lay = game.lay
    if kind in ("move", "whiten"):
        c, heading = divmod(i, 2)
        a, b = m.currents[c]
        tail, head = (a, b) if heading == 0 else (b, a)
        if not lay.current_in_play[c]:
            return f"the current {m.current_names[c]} is not in play (N9)"
        if game.fish_tail[c] != tail:
            return f"the fish on {m.current_names[c]} points the other way (N21)"
        if not any(x == tail and not game.stun[p][k] for k, x in enumerate(game.loc[p])):
            return f"you have no piece that can act on {m.islands[tail]} (N21, N32)"
        if kind == "move":
            if game.barred()[head]:
                return f"{m.islands[head]} may not be entered while the volcano is there (N31)"
            return "the fish shows another player's colour (N21)"
        return "only a blocked piece whitens a fish of another colour (N22, N23)"
    if kind in ("start", "place", "land", "volcano"):
        if not lay.in_play[i]:
            return f"{m.islands[i]} is out of play with {game.n} players (N9)"
        if game.barred()[i] and kind != "volcano":
            return f"{m.islands[i]} may not be entered while the volcano is there (N31)"
        if kind == "place" and game.gods[LONO] != p and game.prot[LONO] != p:
            return "only a Lono card holder places the second piece (N45)"
        return f"{m.islands[i]} is not vacant (N17, N30, N45)"
    if kind in ("reverse", "flip"):
        if game.gods[KANALOA] != p:
            return "only the Kanaloa gods card holder turns a fish (N40)"
        if game.action_used:
            return "the gods card action of this turn is used (N19)"
        return "the change would break reachability or take a piece's last way off (N40, N41)"
    if kind == "swap":
        if game.gods[LONO] != p:
            return "only the Lono gods card holder exchanges tiles (N44)"
        return "the exchange needs two different tiles of adjacent islands in play (N44, N19)"
    if kind == "rob":
        q, _ = divmod(i, len(m.tiles))
        if game.gods[KU] != p:
            return "only the Ku gods card holder robs (N43)"
        if q >= game.n:
            return f"{m.colours[q]} does not play (N7)"
        return f"{m.colours[q]} does not hold that tile or cannot be robbed now (N43)"
    if kind in ("sacrifice", "add", "give", "take"):
        return "that tile is not there, or does not show the god (N26, N34)"
    return ""
