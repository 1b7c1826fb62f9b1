"""The coach: what the search bot would decide for the player to move, and why, in words.

``advise(game)`` searches the position (a fixed iteration budget, so the same position
always gets the same hint) and returns a ``Hint``: the recommended decision in notation and
in words, a one-line reason, and the search's winning chance of every decision it tried.
``judge(hint, decision)`` then says how the decision the player really made compares.

The reason compares the evaluation (``ismcts.components``) for the player before the
decision and after it together with the player's own follow-up decisions the search
prefers (a disc placed, then the shaman moved), played in a *determinized* copy, so the
hint never reveals the hidden pile order. The facts behind the biggest gain are said
plainly: the statue it builds, the card it takes, the beach it leads, the statue it keeps
out of the lava (or puts the lava under), the scoring card it buys, what it takes from the
opponent.

Hints are marked in the game log as ``{"type": "hint", ...}`` records (NOTATION.md).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from haleakala.core.text import Param, Term, Text, ngettext
from haleakala.games.haleakala import PLAYERS, Game
from haleakala.games.haleakala.decision import Boat, Place, decode
from haleakala.games.haleakala.deck import BOARD_ITEMS
from haleakala.i18n import N_

from ..words.labels import decision_words
from .ismcts import SearchBot, child_for, components, decision_stats, determinize

HINT_ITERATIONS = 1500
BOARD_HINT_ITERATIONS = 300  # the board advises on its controller thread: a short search
FOLLOW_UP = 4  # the player's own decisions after the hint that the reason looks at


@dataclass(frozen=True)
class Hint:
    player: str
    ply: int  # decisions made before the hint
    decision: int
    notation: str
    words: Param  # values (``core.text.Text``): each screen renders them in its language
    reason: Param
    chances: dict[int, float] = field(default_factory=dict)  # decision → winning chance

    def record(self) -> dict:
        """The game-log record of this hint (NOTATION.md, ``hint``)."""
        return {
            "type": "hint",
            "ply": self.ply,
            "player": self.player,
            "hint": self.notation,
            "chance": round(self.chances.get(self.decision, 0.5), 3),
            "reason": str(self.reason),  # the log is English
        }

    def line(self) -> Text:
        return Text.of(
            N_("hint for {colour}: {notation} ({words}): {reason}"),
            colour=Term(self.player),
            notation=self.notation,
            words=self.words,
            reason=self.reason,
        )


def advise(game: Game, iterations: int = HINT_ITERATIONS, seed: int = 0) -> Hint:
    """The bot's recommendation for ``game.to_move`` with its reason."""
    legal = game.legal_actions()
    if not legal:
        raise ValueError("the game is over: there is nothing to advise")
    me = game.decider
    bot = SearchBot(seed=seed, iterations=iterations, reuse=True)  # reuse: keeps the tree
    if len(legal) == 1:
        best, chances = legal[0], {}
        root = None
    else:
        stats = bot.search(game)
        chances = {a: reward for a, (_, reward) in stats.items()}
        best = max(stats, key=lambda a: (stats[a][0], stats[a][1]))
        root = bot._tree[3] if bot._tree is not None else None
    reason = explain(game, best, root, seed)
    return Hint(
        PLAYERS[me],
        len(game.history),
        best,
        game.format(best),
        decision_words(game, best),
        reason,
        chances,
    )


def judge(hint: Hint, decision: int) -> Text:
    """How the decision really made compares with the hint, in winning chances."""
    if decision == hint.decision:
        return Text.of(
            N_("{colour} followed the hint ({notation})"),
            colour=Term(hint.player),
            notation=hint.notation,
        )
    best = hint.chances.get(hint.decision)
    mine = hint.chances.get(decision)
    if best is None:
        return Text.of(
            N_("{colour} chose another decision than the hint ({notation})"),
            colour=Term(hint.player),
            notation=hint.notation,
        )
    if mine is None:
        return Text.of(
            N_(
                "the hint {notation} wins {best} of the search's games; the search "
                "found your decision too weak to try"
            ),
            notation=hint.notation,
            best=f"{best:.0%}",
        )
    gap = best - mine
    points = round(abs(gap) * 100)
    if gap >= 0:
        verdict = ngettext("{n} point better", "{n} points better", points, n=points)
    else:
        verdict = ngettext("{n} point worse", "{n} points worse", points, n=points)
    return Text.of(
        N_(
            "the hint {notation} wins {best} of the search's games, your decision {mine}: {verdict}"
        ),
        notation=hint.notation,
        best=f"{best:.0%}",
        mine=f"{mine:.0%}",
        verdict=verdict,
    )


# --------------------------------------------------------------------------- reasons


def _follow(game: Game, decision: int, root, seed: int) -> Game:
    """A determinized copy after ``decision`` and the player's next decisions the search
    prefers (while the same player decides)."""
    me = game.decider
    world = determinize(game, random.Random(seed))
    world.apply(decision)
    node = child_for(root, decision) if root is not None else None
    for _ in range(FOLLOW_UP):
        if world.is_terminal() or world.decider != me or node is None or not node.children:
            break
        legal = set(world.legal_actions())
        stats = decision_stats(node).items()
        options = [(n.visits, a) for a, n in stats if a in legal and n.visits]
        if not options:
            break
        _, action = max(options)
        world.apply(action)
        node = child_for(node, action)
    return world


def _sign(p: int) -> int:
    return 1 if p == 0 else -1


def explain(game: Game, decision: int, root=None, seed: int = 0) -> Text:
    """A one-line reason a player understands: what the decision gains for them."""
    me = game.decider
    other = 1 - me
    after = _follow(game, decision, root, seed)
    b = game.board
    before_parts = components(game)
    after_parts = components(after)
    gain = {k: _sign(me) * (after_parts[k] - before_parts[k]) for k in before_parts}
    facts: list[tuple[float, Text]] = []
    # Statues built.
    for space, (was, now) in enumerate(zip(game.statue_owner, after.statue_owner, strict=True)):
        if was < 0 and now == me:
            points = b.statue_points[space % 3]
            facts.append(
                (
                    gain["scoring"] + 2.0,
                    ngettext(
                        "builds a statue on {space} ({n} point at each scoring it survives)",
                        "builds a statue on {space} ({n} points at each scoring it survives)",
                        points,
                        space=b.space_name(space),
                        n=points,
                    ),
                )
            )
    # Cards taken.
    deck = game.deck
    new_cards = [c for c in after.beach_cards[me] if c not in game.beach_cards[me]]
    new_cards += [c for c in after.shells[me] if c not in game.shells[me]]
    for card in new_cards:
        taken = Text.of(N_("takes the {card}"), card=Term(deck.cards[card].name))
        facts.append((gain["scoring"] + gain["shells"] + 1.0, taken))
    # Scoring cards bought.
    for i, code in enumerate(BOARD_ITEMS):
        if game.board_owner[i] != me and after.board_owner[i] == me:
            name = deck.board_items[code][0]
            bought = Text.of(N_("buys {item}: it prepares the next scoring"), item=Term(name))
            facts.append((gain["scoring"] + 1.5, bought))
    # Lava: own statues saved, the opponent's threatened.
    threat_before = _threatened(game)
    threat_after = _threatened(after)
    saved = [s for s in threat_before[me] if s not in threat_after[me]]
    exposed = [s for s in threat_after[other] if s not in threat_before[other]]
    if saved and gain["lava"] > 0:
        names = ", ".join(b.space_name(s) for s in saved)
        facts.append(
            (
                gain["lava"],
                Text.of(N_("protects your statue on {spaces} from the lava"), spaces=names),
            )
        )
    if exposed and gain["lava"] > 0:
        names = ", ".join(b.space_name(s) for s in exposed)
        facts.append(
            (
                gain["lava"],
                Text.of(
                    N_("puts the lava under {colour}'s statue on {spaces}"),
                    colour=Term(PLAYERS[other]),
                    spaces=names,
                ),
            )
        )
    # Beaches with cards: leads taken.
    k = b.slots_per_segment
    for seg in range(b.segments):
        cards = sum(1 for s in range(seg * k, seg * k + k) if game.slots[s] >= 0)
        if not cards:
            continue
        lead_before = game.totals[me][seg] - game.totals[other][seg]
        lead_after = after.totals[me][seg] - after.totals[other][seg]
        if lead_after > 0 >= lead_before:
            if lead_before < 0:
                lead = ngettext(
                    "takes the lead on beach {beach} from {colour}, where {n} card waits: you "
                    "choose first when the boat stops there",
                    "takes the lead on beach {beach} from {colour}, where {n} cards wait: you "
                    "choose first when the boat stops there",
                    cards,
                    beach=seg,
                    colour=Term(PLAYERS[other]),
                    n=cards,
                )
            else:
                lead = ngettext(
                    "takes the lead on beach {beach}, where {n} card waits: you choose first "
                    "when the boat stops there",
                    "takes the lead on beach {beach}, where {n} cards wait: you choose first "
                    "when the boat stops there",
                    cards,
                    beach=seg,
                    n=cards,
                )
            facts.append((0.5 * cards + (0.5 if lead_before < 0 else 0.0), lead))
    # The shaman climbing to an empty space.
    mine_space = after.shaman[me]
    if (
        mine_space != game.shaman[me]
        and mine_space < b.land_spaces
        and after.statue_owner[mine_space] < 0
    ):
        points = b.statue_points[mine_space % 3]
        facts.append(
            (
                0.2 * points,
                Text.of(
                    N_("brings your shaman to {space}, ready to build a {n}-point statue"),
                    space=b.space_name(mine_space),
                    n=points,
                ),
            )
        )
    if facts:
        facts.sort(key=lambda f: -f[0])
        return facts[0][1]
    total = sum(gain.values())
    move = decode(decision, game.board)
    if isinstance(move, Boat) or (isinstance(move, Place) and move.beach == game.boat):
        return Text(N_("moves the boat on so the cards go out where it suits you"))
    if total < 0:
        return Text(N_("the least bad choice: every other decision loses more"))
    return Text(N_("keeps your options open; the search found nothing better"))


def _threatened(game: Game) -> tuple[list[int], list[int]]:
    """Statue spaces of each player that the next eruption would destroy (R19)."""
    out: tuple[list[int], list[int]] = ([], [])
    for seg, count in enumerate(game.lava):
        for band in range(min(count, 3)):
            space = seg * 3 + 2 - band
            who = game.statue_owner[space]
            if who >= 0:
                out[who].append(space)
    return out
