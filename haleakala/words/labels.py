"""A decision in short words: the one place that says what a decision *is* to a player.

Four voices of the same decision, each for its own place on the kit (and the phase words
around them):

- ``describe``: the instruction the companion gives (``put red 3 on beach 2``), used in
  refusals that name the companion's decision;
- ``option_label`` / ``beach_option_label`` / ``boat_option_label``: a line of a chooser on
  the OLED (``A5 forest``, ``place 3 + invocation``);
- ``proposal_words``: the solo companion's own decision as the OLED announces it, a headline
  in capitals and what the players do about it;
- ``decision_words``: plain words for the coach's hint (``place disc 3 on beach 2``).

Every match here decodes the decision with ``rules.decision``; nothing does arithmetic on it.
"""

from __future__ import annotations

from haleakala.rules import PLAYERS, Game
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
from haleakala.rules.game import CHOOSE_CARD, MOVE_SHAMAN, OVER, PRESCORE, PRIESTESS, SHELL

BAND_WORDS = {"G": "grassland", "F": "forest", "M": "mountain", "B": "hut"}
"""A land space's band letter (the second character of its name) in words."""

PHASE_WORDS = {
    MOVE_SHAMAN: "move the shaman (turn the knob, press to confirm)",
    CHOOSE_CARD: "take a card (turn the knob, press to take)",
    PRIESTESS: "use the Lava Priestess (turn the knob, press to confirm)",
    SHELL: "buy with the shell or keep it (turn the knob, press)",
    PRESCORE: "buy before the scoring or pass (turn the knob, press)",
    OVER: "nothing: the game is over",
}
"""What the player to move must do first, in a phase that is not a turn."""

PHASE_TITLES = {
    MOVE_SHAMAN: "SHAMAN",
    CHOOSE_CARD: "TAKE ONE",
    PRIESTESS: "LAVA",
    SHELL: "BUY?",
    PRESCORE: "BUY?",
}
"""A decision chooser's title after the colour (``RED: TAKE ONE``)."""


def _next_boat(game: Game) -> int:
    return (game.boat + 1) % game.board.segments


def describe(game: Game, d: int) -> str:
    """A decision in words, as the companion tells players to carry it out."""
    b = game.board
    colour = PLAYERS[game.decider]
    match decode(d, b):
        case Place(v, beach, invoke=False):
            return f"put {colour} {v} on beach {beach}"
        case Place(v, beach, invoke=True):
            return f"put {colour} {v} and the invocation disc on beach {beach}"
        case Return(v, beach):
            return f"take {colour} {v} off beach {beach}"
        case Boat():
            return f"move the boat to {_next_boat(game)}"
        case Shaman(None):
            return f"the {colour} shaman stays"
        case Shaman(space) if space is not None:
            return f"{colour} shaman to {b.space_name(space)}"
        case Take(slot):
            card = game.deck.cards[game.slots[slot]]
            return f"{colour} takes {b.slot_name(slot)} ({card.name})"
        case Lava(None, None):
            return "no lava to move"
        case Lava(source, target):
            return f"move lava from crater {source} to {target}"
        case Buy(item):
            return f"{colour} buys {game.deck.board_items[item][0]}"
    return f"{colour}: {game.format(d)}"


def option_label(game: Game, d: int) -> tuple[str, bool]:
    """A decision of a chooser (shaman, card, priestess, shell, pre-scoring purchase) as its
    line on the OLED, and whether it leads the list (staying, keeping, buying nothing: the
    "do nothing" choice comes first)."""
    b = game.board
    match decode(d, b):
        case Shaman(None):
            return f"stay on {b.space_name(game.shaman[game.decider])}", True
        case Shaman(space) if space is not None:
            name = b.space_name(space)
            return f"{name} {BAND_WORDS[name[1]]}", False
        case Take(slot):
            card = game.deck.cards[game.slots[slot]]
            return f"{b.slot_name(slot)} {card.name}", False
        case Lava(None, None):
            return "no lava to move", True
        case Lava():
            return game.format(d).replace(">", " to "), False
        case Buy(item):
            name, cost = game.deck.board_items[item]
            return f"{name} ({cost})", False
        case Keep():
            return "keep the shell", True
        case Pass():
            return "buy nothing", True
    return game.format(d), False


def beach_option_label(move: Place | Return) -> str:
    """A disc decision in a beach's chooser (buttons kit): ``place 3``, ``take back 3``."""
    if isinstance(move, Return):
        return f"take back {move.value}"
    return f"place {move.value} + invocation" if move.invoke else f"place {move.value}"


def boat_option_label(game: Game, *, asking: bool) -> str:
    """Moving the boat in its chooser: asked after select (``asking``) or forced."""
    where = f"boat to {_next_boat(game)}"
    return f"yes, {where}" if asking else where


def proposal_words(game: Game, d: int, kit: str) -> tuple[str, str]:
    """The companion's decision as the OLED says it: a headline in capitals and what the
    players do about it (``"YELLOW PLACES 3 ON BEACH 2"``, ``"put the disc there"``)."""
    b = game.board
    who = PLAYERS[game.decider].upper()
    then = ", then press select" if kit != "rfid" else ""
    match decode(d, b):
        case Place(v, beach, invoke=False):
            return f"{who} PLACES {v} ON BEACH {beach}", f"put the disc there{then}"
        case Place(v, beach, invoke=True):
            return (
                f"{who} PLACES {v} AND THE INVOCATION DISC ON BEACH {beach}",
                f"put both discs there{then}",
            )
        case Return(v, beach):
            return f"{who} TAKES {v} BACK FROM BEACH {beach}", f"take the disc off the beach{then}"
        case Boat():
            return (
                f"{who} MOVES THE BOAT TO {_next_boat(game)}",
                "move the boat, then press select",
            )
        case Shaman(None):
            return f"{who}'S SHAMAN STAYS ON {b.space_name(game.shaman[game.decider])}", ""
        case Shaman(space) if space is not None:
            return (
                f"{who}'S SHAMAN GOES TO {b.space_name(space)}",
                "move the shaman there, then press select",
            )
        case Take(slot):
            card = game.deck.cards[game.slots[slot]]
            return f"{who} TAKES {b.slot_name(slot).upper()}: {card.name}", ""
        case Lava(None, None):
            return f"{who} MOVES NO LAVA", ""
        case Lava(source, target):
            return f"{who} MOVES LAVA FROM CRATER {source} TO {target}", ""
        case Buy(item):
            return f"{who} BUYS {game.deck.board_items[item][0].upper()}", ""
        case Keep():
            return f"{who} KEEPS THE SHELL", ""
        case Pass():
            return f"{who} BUYS NOTHING", ""
    return f"{who}: {game.format(d)}", ""


def decision_words(game: Game, d: int) -> str:
    """A decision in plain words for the coach's hint: ``place disc 3 on beach 2``."""
    b = game.board
    match decode(d, b):
        case Place(v, beach, invoke=False):
            return f"place disc {v} on beach {beach}"
        case Place(v, beach, invoke=True):
            return f"place disc {v} with the invocation disc on beach {beach}"
        case Return(v, beach):
            return f"take disc {v} back from beach {beach}"
        case Boat():
            return f"move the boat to segment {_next_boat(game)}"
        case Shaman(None):
            return "leave the shaman where it stands"
        case Shaman(space) if space is not None:
            return f"move the shaman to {b.space_name(space)}"
        case Take(slot):
            card = game.deck.cards[game.slots[slot]]
            return f"take the {card.name} from slot {b.slot_name(slot)}"
        case Lava(None, None):
            return "move no lava"
        case Lava(source, target):
            return f"move lava from crater {source} to crater {target}"
        case Buy(item):
            return f"buy {game.deck.board_items[item][0]}"
        case Keep():
            return "keep the shell"
        case Pass():
            return "buy nothing"
    return game.format(d)
