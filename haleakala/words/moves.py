"""What happened, in player words: a decision with its events becomes sentences for a log.

    Yellow places 2 on beach 4 – the boat sails to 0
    Red takes Shell from 2a
    Yellow's statue on mountain 3M burns
    Scoring 1: yellow 12, red 9

One sentence layer for the terminal, the simulator log, the web view and the companion, so
that a game reads the same wherever it is followed. Notation stays available beside it
(``Game.format``); these sentences are for people and may be reworded freely.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from haleakala.i18n import N_
from haleakala.i18n import english_ngettext as ngettext
from haleakala.rules import PLAYERS
from haleakala.rules.decision import (
    Boat,
    Buy,
    Keep,
    Lava,
    Pass,
    Place,
    Return,
    Shaman,
    Take,
    decode,
)
from haleakala.rules.events import (
    BoatMoved,
    Bought,
    DiscsBack,
    Ended,
    Erupted,
    Event,
    InvocationBack,
    LavaPlaced,
    Received,
    Revealed,
    Scored,
    StatueBuilt,
)

if TYPE_CHECKING:
    from haleakala.rules import Game, Result

BANDS = (N_("grassland"), N_("forest"), N_("mountain"))


def space_words(game: Game, space: int) -> str:
    """``forest 2F``: a land space by its band, then its notation name."""
    return N_("{land} {space}").format(land=BANDS[space % 3], space=game.board.space_name(space))


def card_name(game: Game, card: int) -> str:
    return game.deck.cards[card].name


def _boat_to(events: list[Event]) -> int | None:
    return next((e.target for e in events if isinstance(e, BoatMoved)), None)


def decision_sentence(game: Game, player: int, code: int, events: list[Event]) -> str:
    """The decision ``code`` that ``player`` made, as one sentence; a placement that sails
    the boat says where it goes (``events`` are what ``Game.apply`` returned for it)."""
    who = PLAYERS[player].capitalize()
    sailed = _boat_to(events)
    match decode(code, game.board):
        case Place(value, beach, invoke):
            if invoke:
                said = N_("{who} places {value} with the invocation disc on beach {beach}")
            else:
                said = N_("{who} places {value} on beach {beach}")
            said = said.format(who=who, value=value, beach=beach)
            if sailed is None:
                return said
            return N_("{move} – the boat sails to {beach}").format(move=said, beach=sailed)
        case Return(value, beach):
            return N_("{who} takes {value} back from beach {beach}").format(
                who=who, value=value, beach=beach
            )
        case Boat():
            if sailed is None:
                return N_("{who} moves the boat").format(who=who)
            return N_("{who} moves the boat to {beach}").format(who=who, beach=sailed)
        case Shaman(None):
            return N_("{who}'s shaman stays where it is").format(who=who)
        case Shaman(space) if space is not None:
            return N_("{who}'s shaman goes to {space}").format(
                who=who, space=space_words(game, space)
            )
        case Take(slot):
            card = next(
                (e.card for e in events if isinstance(e, Received) and e.player == player), None
            )
            what = card_name(game, card) if card is not None else N_("the card")
            return N_("{who} takes {card} from {slot}").format(
                who=who, card=what, slot=game.board.slot_name(slot)
            )
        case Lava(None, None):
            return N_("{who}'s Lava Priestess finds no lava to move").format(who=who)
        case Lava(source, target):
            return N_(
                "{who}'s Lava Priestess moves lava from crater {source} to crater {target}"
            ).format(who=who, source=source, target=target)
        case Buy(item):
            name, cost = game.deck.board_items[item]
            return N_("{who} buys the {item} card ({shells})").format(
                who=who, item=name, shells=shells(cost)
            )
        case Keep():
            return N_("{who} keeps the shell").format(who=who)
        case Pass():
            return N_("{who} buys nothing before the scoring").format(who=who)
    return f"{who}: {game.format(code)}"


def shells(n: int) -> str:
    """``1 shell``, ``2 shells`` (one function, so a catalog can take it over)."""
    return ngettext("{n} shell", "{n} shells", n).format(n=n)


def event_lines(game: Game, events: list[Event], *, told: int | None = None) -> list[str]:
    """Each engine event as a sentence. ``told`` is the player whose decision caused them
    when ``decision_sentence`` has already said their card and the boat's move."""
    b = game.board
    out: list[str] = []
    for event in events:
        match event:
            case Revealed(slot, card):
                out.append(
                    N_("slot {slot} gets {card}").format(
                        slot=b.slot_name(slot), card=card_name(game, card)
                    )
                )
            case LavaPlaced(segment, "card"):
                out.append(N_("a lava card puts a lava disc on crater {n}").format(n=segment))
            case LavaPlaced(segment, _):
                out.append(N_("an invocation puts a lava disc on crater {n}").format(n=segment))
            case Received(player, card) if player != told:
                out.append(
                    N_("{who} receives {card}").format(
                        who=PLAYERS[player].capitalize(), card=card_name(game, card)
                    )
                )
            case StatueBuilt(player, space):
                out.append(
                    N_("{who} builds a statue on {space}").format(
                        who=PLAYERS[player].capitalize(), space=space_words(game, space)
                    )
                )
            case BoatMoved(source, target) if told is None:
                out.append(
                    N_("the boat sails from segment {source} to {target}").format(
                        source=source, target=target
                    )
                )
            case DiscsBack(beach):
                out.append(
                    N_("beach {n} is cleared: its discs go back to their owners").format(n=beach)
                )
            case InvocationBack(player):
                out.append(
                    N_("{who}'s invocation disc returns to the supply").format(
                        who=PLAYERS[player].capitalize()
                    )
                )
            case Bought(player, code) if player != told:
                item = game.deck.board_items[code][0]
                out.append(
                    N_("{who} buys the {item} card").format(
                        who=PLAYERS[player].capitalize(), item=item
                    )
                )
            case Erupted():
                out += eruption_lines(game, event)
            case Scored(record):
                out += scoring_lines(record)
            case Ended(result):
                out.append(result_sentence(result))
    return out


def eruption_lines(game: Game, event: Erupted) -> list[str]:
    """``The volcano erupts before scoring 1`` and one line per burnt statue."""
    rnd, destroyed, owners = event.round, event.destroyed, event.owners
    if not destroyed:
        return [N_("the volcano erupts before scoring {n}: no statue burns").format(n=rnd)]
    lines = [N_("the volcano erupts before scoring {n}").format(n=rnd)]
    for name, owner in zip(destroyed, owners, strict=True):
        space = game.board.parse_space(name)
        where = space_words(game, space) if space is not None else name
        if owner:
            lines.append(
                N_("{who}'s statue on {space} burns").format(who=owner.capitalize(), space=where)
            )
        else:
            lines.append(N_("The statue on {space} burns").format(space=where))
    return lines


def scoring_sentence(record: dict) -> str:
    """``Scoring 1: yellow 12, red 9`` (the running totals, leader first)."""
    totals = sorted(((record["players"][c]["total"], c) for c in PLAYERS), reverse=True)
    return N_("Scoring {n}: {totals}").format(
        n=record["round"], totals=", ".join(f"{c} {t}" for t, c in totals)
    )


POINT_NAMES = {
    "statues": N_("statues"),
    "fish": N_("fish (most baskets)"),
    "pearls": N_("pearls"),
    "nautilus": N_("nautilus"),
    "butterflies": N_("Butterflies card"),
    "majority": N_("Statue Majority card"),
    "segment": N_("Complete Segment card"),
    "forest": N_("Forest Statues card"),
    "mountain": N_("Mountain Statues card"),
    "shells": N_("shells kept"),
}
"""Each kind of points in a scoring's record (``rules.scoring``) as players name it: the
rows of the end-of-game tables in the simulator window and the live view."""


def scoring_lines(record: dict) -> list[str]:
    """The scoring sentence, then each player's points of this scoring by kind."""
    lines = [scoring_sentence(record)]
    for colour in PLAYERS:
        facts = record["players"][colour]
        points = facts["points"]
        gained = sum(points.values())
        parts = ", ".join(f"{key} {value}" for key, value in points.items() if value)
        lines.append(
            "  "
            + N_("{colour} +{gained} ({points}) = {total}").format(
                colour=colour, gained=gained, points=parts or N_("nothing"), total=facts["total"]
            )
        )
    return lines


def result_sentence(result: Result) -> str:
    red, yellow = result.scores
    text = N_("game over: red {red}, yellow {yellow}: {colour} wins").format(
        red=red, yellow=yellow, colour=result.winner
    )
    if result.tiebreak == "statues":
        return N_("{result} (tie broken by the statues on the island)").format(result=text)
    if result.tiebreak == "start":
        return N_("{result} (tie: the player who did not start wins)").format(result=text)
    return text


def describe_move(game: Game, player: int, code: int, events: list[Event]) -> list[str]:
    """The decision's sentence, then what else it caused (the result left out: the caller
    shows it once at the end)."""
    shown: list[Event] = [e for e in events if not isinstance(e, Ended)]
    return [decision_sentence(game, player, code, shown), *event_lines(game, shown, told=player)]
