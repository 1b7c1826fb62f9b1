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

if TYPE_CHECKING:
    from haleakala.rules import Game, Result

BANDS = ("grassland", "forest", "mountain")


def space_words(game: Game, space: int) -> str:
    """``forest 2F``: a land space by its band, then its notation name."""
    return f"{BANDS[space % 3]} {game.board.space_name(space)}"


def card_name(game: Game, card: int) -> str:
    return game.deck.cards[card].name


def _boat_to(events: list[tuple]) -> int | None:
    return next((e[2] for e in events if e[0] == "boat"), None)


def decision_sentence(game: Game, player: int, code: int, events: list[tuple]) -> str:
    """The decision ``code`` that ``player`` made, as one sentence; a placement that sails
    the boat says where it goes (``events`` are what ``Game.apply`` returned for it)."""
    who = PLAYERS[player].capitalize()
    sailed = _boat_to(events)
    sails = f" – the boat sails to {sailed}" if sailed is not None else ""
    match decode(code, game.board):
        case Place(value, beach, invoke):
            extra = " with the invocation disc" if invoke else ""
            return f"{who} places {value}{extra} on beach {beach}{sails}"
        case Return(value, beach):
            return f"{who} takes {value} back from beach {beach}"
        case Boat():
            return f"{who} moves the boat{sails.replace(' – the boat sails', '')}"
        case Shaman(None):
            return f"{who}'s shaman stays where it is"
        case Shaman(space) if space is not None:
            return f"{who}'s shaman goes to {space_words(game, space)}"
        case Take(slot):
            card = next((e[2] for e in events if e[0] == "receive" and e[1] == player), None)
            what = card_name(game, card) if card is not None else "the card"
            return f"{who} takes {what} from {game.board.slot_name(slot)}"
        case Lava(None, None):
            return f"{who}'s Lava Priestess finds no lava to move"
        case Lava(source, target):
            return f"{who}'s Lava Priestess moves lava from crater {source} to crater {target}"
        case Buy(item):
            name, cost = game.deck.board_items[item]
            return f"{who} buys the {name} card ({shells(cost)})"
        case Keep():
            return f"{who} keeps the shell"
        case Pass():
            return f"{who} buys nothing before the scoring"
    return f"{who}: {game.format(code)}"


def shells(n: int) -> str:
    """``1 shell``, ``2 shells`` (one function, so a catalog can take it over)."""
    return f"{n} shell" if n == 1 else f"{n} shells"


def event_lines(game: Game, events: list[tuple], *, told: int | None = None) -> list[str]:
    """Each engine event as a sentence. ``told`` is the player whose decision caused them
    when ``decision_sentence`` has already said their card and the boat's move."""
    b = game.board
    out: list[str] = []
    for event in events:
        kind = event[0]
        if kind == "reveal":
            out.append(f"slot {b.slot_name(event[1])} gets {card_name(game, event[2])}")
        elif kind == "lava":
            why = "a lava card" if event[2] == "card" else "an invocation"
            out.append(f"{why} puts a lava disc on crater {event[1]}")
        elif kind == "receive":
            if event[1] != told:
                out.append(f"{PLAYERS[event[1]].capitalize()} receives {card_name(game, event[2])}")
        elif kind == "statue":
            where = space_words(game, event[2])
            out.append(f"{PLAYERS[event[1]].capitalize()} builds a statue on {where}")
        elif kind == "boat":
            if told is None:
                out.append(f"the boat sails from segment {event[1]} to {event[2]}")
        elif kind == "discs_back":
            out.append(f"beach {event[1]} is cleared: its discs go back to their owners")
        elif kind == "invocation_back":
            out.append(f"{PLAYERS[event[1]].capitalize()}'s invocation disc returns to the supply")
        elif kind == "buy":
            if event[1] != told:
                item = game.deck.board_items[event[2]][0]
                out.append(f"{PLAYERS[event[1]].capitalize()} buys the {item} card")
        elif kind == "eruption":
            out += eruption_lines(game, event)
        elif kind == "scoring":
            out += scoring_lines(event[1])
        elif kind == "result":
            out.append(result_sentence(event[1]))
    return out


def eruption_lines(game: Game, event: tuple) -> list[str]:
    """``The volcano erupts before scoring 1`` and one line per burnt statue."""
    rnd, destroyed = event[1], event[2]
    owners = event[3] if len(event) > 3 else ("",) * len(destroyed)
    head = f"the volcano erupts before scoring {rnd}"
    if not destroyed:
        return [head + ": no statue burns"]
    lines = [head]
    for name, owner in zip(destroyed, owners, strict=True):
        space = game.board.parse_space(name)
        where = space_words(game, space) if space is not None else name
        whose = f"{owner.capitalize()}'s statue" if owner else "The statue"
        lines.append(f"{whose} on {where} burns")
    return lines


def scoring_sentence(record: dict) -> str:
    """``Scoring 1: yellow 12, red 9`` (the running totals, leader first)."""
    totals = sorted(((record["players"][c]["total"], c) for c in PLAYERS), reverse=True)
    return f"Scoring {record['round']}: " + ", ".join(f"{c} {t}" for t, c in totals)


def scoring_lines(record: dict) -> list[str]:
    """The scoring sentence, then each player's points of this scoring by kind."""
    lines = [scoring_sentence(record)]
    for colour in PLAYERS:
        facts = record["players"][colour]
        points = facts["points"]
        gained = sum(points.values())
        parts = ", ".join(f"{key} {value}" for key, value in points.items() if value)
        lines.append(f"  {colour} +{gained} ({parts or 'nothing'}) = {facts['total']}")
    return lines


def result_sentence(result: Result) -> str:
    red, yellow = result.scores
    text = f"game over: red {red}, yellow {yellow}: {result.winner} wins"
    if result.tiebreak == "statues":
        text += " (tie broken by the statues on the island)"
    elif result.tiebreak == "start":
        text += " (tie: the player who did not start wins)"
    return text


def describe_move(game: Game, player: int, code: int, events: list[tuple]) -> list[str]:
    """The decision's sentence, then what else it caused (the result left out: the caller
    shows it once at the end)."""
    shown = [e for e in events if e[0] != "result"]
    return [decision_sentence(game, player, code, shown), *event_lines(game, shown, told=player)]
