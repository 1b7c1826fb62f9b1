"""What happened, in player words: a decision with its events becomes sentences for a log.

    Yellow places 2 on beach 4 – the boat sails to 0
    Red takes Shell from 2a
    Yellow's statue on mountain 3M burns
    Scoring 1: yellow 12, red 9

One sentence layer for the terminal, the simulator log, the web view and the companion, so
that a game reads the same wherever it is followed. Notation stays available beside it
(``Game.format``); these sentences are for people and may be reworded freely.

Each sentence is a value (``core.text.Text``: a catalog template and its parameters, colours
and lands as ``Term``), so every screen renders it in its viewer's language
(``i18n.render``); ``str()`` of one is the English sentence.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from haleakala.core.text import Capitalised, Param, Term, Text, ngettext
from haleakala.games.haleakala import PLAYERS
from haleakala.games.haleakala.decision import (
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
from haleakala.games.haleakala.events import (
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
from haleakala.i18n import N_

if TYPE_CHECKING:
    from haleakala.games.haleakala import Game, Result
    from haleakala.games.haleakala.scoring import Scoring

BANDS = (N_("grassland"), N_("forest"), N_("mountain"))


def space_words(game: Game, space: int) -> Text:
    """``forest 2F``: a land space by its band, then its notation name."""
    return Text.of(
        N_("{land} {space}"), land=Term(BANDS[space % 3]), space=game.board.space_name(space)
    )


def card_name(game: Game, card: int) -> Term:
    return Term(game.deck.cards[card].name)


def _who(player: int | str) -> Capitalised:
    """A colour opening a sentence: ``Red``, ``Rot``."""
    return Capitalised(Term(PLAYERS[player] if isinstance(player, int) else player))


def _boat_to(events: list[Event]) -> int | None:
    return next((e.target for e in events if isinstance(e, BoatMoved)), None)


def decision_sentence(game: Game, player: int, code: int, events: list[Event]) -> Text:
    """The decision ``code`` that ``player`` made, as one sentence; a placement that sails
    the boat says where it goes (``events`` are what ``Game.apply`` returned for it)."""
    who = _who(player)
    sailed = _boat_to(events)
    match decode(code, game.board):
        case Place(value, beach, invoke):
            if invoke:
                template = N_("{who} places {value} with the invocation disc on beach {beach}")
            else:
                template = N_("{who} places {value} on beach {beach}")
            placed = Text.of(template, who=who, value=value, beach=beach)
            if sailed is None:
                return placed
            return Text.of(N_("{move} – the boat sails to {beach}"), move=placed, beach=sailed)
        case Return(value, beach):
            return Text.of(
                N_("{who} takes {value} back from beach {beach}"), who=who, value=value, beach=beach
            )
        case Boat():
            if sailed is None:
                return Text.of(N_("{who} moves the boat"), who=who)
            return Text.of(N_("{who} moves the boat to {beach}"), who=who, beach=sailed)
        case Shaman(None):
            return Text.of(N_("{who}'s shaman stays where it is"), who=who)
        case Shaman(space) if space is not None:
            return Text.of(
                N_("{who}'s shaman goes to {space}"), who=who, space=space_words(game, space)
            )
        case Take(slot):
            card = next(
                (e.card for e in events if isinstance(e, Received) and e.player == player), None
            )
            what: Param = card_name(game, card) if card is not None else Text(N_("the card"))
            return Text.of(
                N_("{who} takes {card} from {slot}"),
                who=who,
                card=what,
                slot=game.board.slot_name(slot),
            )
        case Lava(None, None):
            return Text.of(N_("{who}'s Lava Priestess finds no lava to move"), who=who)
        case Lava(source, target) if source is not None and target is not None:
            return Text.of(
                N_("{who}'s Lava Priestess moves lava from crater {source} to crater {target}"),
                who=who,
                source=source,
                target=target,
            )
        case Buy(item):
            name, cost = game.deck.board_items[item]
            return Text.of(
                N_("{who} buys the {item} card ({shells})"),
                who=who,
                item=Term(name),
                shells=shells(cost),
            )
        case Keep():
            return Text.of(N_("{who} keeps the shell"), who=who)
        case Pass():
            return Text.of(N_("{who} buys nothing before the scoring"), who=who)
    return Text.of("{who}: {decision}", who=who, decision=game.format(code))


def shells(n: int) -> Text:
    """``1 shell``, ``2 shells`` (the form by the language's plural rule)."""
    return ngettext("{n} shell", "{n} shells", n, n=n)


def event_lines(game: Game, events: list[Event], *, told: int | None = None) -> list[Text]:
    """Each engine event as a sentence. ``told`` is the player whose decision caused them
    when ``decision_sentence`` has already said their card and the boat's move."""
    b = game.board
    out: list[Text] = []
    for event in events:
        match event:
            case Revealed(slot, card):
                out.append(
                    Text.of(
                        N_("slot {slot} gets {card}"),
                        slot=b.slot_name(slot),
                        card=card_name(game, card),
                    )
                )
            case LavaPlaced(segment, "card"):
                out.append(Text.of(N_("a lava card puts a lava disc on crater {n}"), n=segment))
            case LavaPlaced(segment, _):
                out.append(Text.of(N_("an invocation puts a lava disc on crater {n}"), n=segment))
            case Received(player, card) if player != told:
                out.append(
                    Text.of(
                        N_("{who} receives {card}"), who=_who(player), card=card_name(game, card)
                    )
                )
            case StatueBuilt(player, space):
                out.append(
                    Text.of(
                        N_("{who} builds a statue on {space}"),
                        who=_who(player),
                        space=space_words(game, space),
                    )
                )
            case BoatMoved(source, target) if told is None:
                out.append(
                    Text.of(
                        N_("the boat sails from segment {source} to {target}"),
                        source=source,
                        target=target,
                    )
                )
            case DiscsBack(beach):
                out.append(
                    Text.of(N_("beach {n} is cleared: its discs go back to their owners"), n=beach)
                )
            case InvocationBack(player):
                out.append(
                    Text.of(N_("{who}'s invocation disc returns to the supply"), who=_who(player))
                )
            case Bought(player, code) if player != told:
                item = Term(game.deck.board_items[code][0])
                out.append(Text.of(N_("{who} buys the {item} card"), who=_who(player), item=item))
            case Erupted():
                out += eruption_lines(game, event)
            case Scored(scoring):
                out += scoring_lines(scoring)
            case Ended(result):
                out.append(result_sentence(result))
    return out


def eruption_lines(game: Game, event: Erupted) -> list[Text]:
    """``The volcano erupts before scoring 1`` and one line per burnt statue."""
    rnd, destroyed, owners = event.round, event.destroyed, event.owners
    if not destroyed:
        return [Text.of(N_("the volcano erupts before scoring {n}: no statue burns"), n=rnd)]
    lines = [Text.of(N_("the volcano erupts before scoring {n}"), n=rnd)]
    for name, owner in zip(destroyed, owners, strict=True):
        space = game.board.parse_space(name)
        where: Param = space_words(game, space) if space is not None else name
        if owner:
            lines.append(
                Text.of(N_("{who}'s statue on {space} burns"), who=_who(owner), space=where)
            )
        else:
            lines.append(Text.of(N_("The statue on {space} burns"), space=where))
    return lines


def scoring_sentence(scoring: Scoring) -> Text:
    """``Scoring 1: yellow 12, red 9`` (the running totals, leader first)."""
    totals = sorted(((part.total, part.colour) for part in scoring.players), reverse=True)
    return Text.of(
        N_("Scoring {n}: {totals}"),
        n=scoring.round,
        totals=_listed([Text.of("{colour} {total}", colour=Term(c), total=t) for t, c in totals]),
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
"""Each kind of points of a scoring (``rules.scoring.Points``) as players name it: the
rows of the end-of-game tables in the simulator window and the live view."""


def _listed(parts: list[Text]) -> Param:
    """``a, b, c``: parts joined by commas (the catalogs' ``{first}, {rest}``); "" for none."""
    if not parts:
        return ""
    head: Param = parts[0]
    for part in parts[1:]:
        head = Text.of(N_("{first}, {rest}"), first=head, rest=part)
    return head


def scoring_lines(scoring: Scoring) -> list[Text]:
    """The scoring sentence, then each player's points of this scoring by kind."""
    lines: list[Text] = [scoring_sentence(scoring)]
    for part in scoring.players:
        points = part.points.items()
        parts = _listed([Text.of("{kind} {n}", kind=Term(k), n=v) for k, v in points if v])
        said = Text.of(
            N_("{colour} +{gained} ({points}) = {total}"),
            colour=Term(part.colour),
            gained=part.points.gained,
            points=parts or Text(N_("nothing")),
            total=part.total,
        )
        lines.append(Text.of("  {line}", line=said))
    return lines


def result_sentence(result: Result) -> Text:
    red, yellow = result.scores
    text = Text.of(
        N_("game over: red {red}, yellow {yellow}: {colour} wins"),
        red=red,
        yellow=yellow,
        colour=Term(result.winner),
    )
    if result.tiebreak == "statues":
        return Text.of(N_("{result} (tie broken by the statues on the island)"), result=text)
    if result.tiebreak == "start":
        return Text.of(N_("{result} (tie: the player who did not start wins)"), result=text)
    return text


def describe_move(game: Game, player: int, code: int, events: list[Event]) -> list[Text]:
    """The decision's sentence, then what else it caused (the result left out: the caller
    shows it once at the end)."""
    shown: list[Event] = [e for e in events if not isinstance(e, Ended)]
    return [decision_sentence(game, player, code, shown), *event_lines(game, shown, told=player)]
