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
Each voice is a value (``core.text.Text``: colours, lands, cards and items as ``Term``) that
the OLED, the window and the terminal render in their language; ``str()`` is English.
"""

from __future__ import annotations

from haleakala.core.text import Term, Text, Upper
from haleakala.games.haleakala import PLAYERS, Game
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
from haleakala.games.haleakala.game import (
    CHOOSE_CARD,
    MOVE_SHAMAN,
    OVER,
    PRESCORE,
    PRIESTESS,
    SHELL,
)
from haleakala.i18n import N_

BAND_WORDS = {"G": N_("grassland"), "F": N_("forest"), "M": N_("mountain"), "B": N_("hut")}
"""A land space's band letter (the second character of its name) in words."""

PHASE_WORDS = {
    MOVE_SHAMAN: N_("move the shaman (turn the knob, press to confirm)"),
    CHOOSE_CARD: N_("take a card (turn the knob, press to take)"),
    PRIESTESS: N_("use the Lava Priestess (turn the knob, press to confirm)"),
    SHELL: N_("buy with the shell or keep it (turn the knob, press)"),
    PRESCORE: N_("buy before the scoring or pass (turn the knob, press)"),
    OVER: N_("nothing: the game is over"),
}
"""What the player to move must do first, in a phase that is not a turn."""

PHASE_TITLES = {
    MOVE_SHAMAN: N_("SHAMAN"),
    CHOOSE_CARD: N_("TAKE ONE"),
    PRIESTESS: N_("LAVA"),
    SHELL: N_("BUY?"),
    PRESCORE: N_("BUY?"),
}
"""A decision chooser's title after the colour (``RED: TAKE ONE``)."""


def _next_boat(game: Game) -> int:
    return (game.boat + 1) % game.board.segments


def _colour(game: Game) -> Term:
    return Term(PLAYERS[game.decider])


def _item(game: Game, item: str) -> Term:
    return Term(game.deck.board_items[item][0])


def describe(game: Game, d: int) -> Text:
    """A decision in words, as the companion tells players to carry it out."""
    b = game.board
    colour = _colour(game)
    match decode(d, b):
        case Place(v, beach, invoke=False):
            return Text.of(N_("put {colour} {v} on beach {beach}"), colour=colour, v=v, beach=beach)
        case Place(v, beach, invoke=True):
            return Text.of(
                N_("put {colour} {v} and the invocation disc on beach {beach}"),
                colour=colour,
                v=v,
                beach=beach,
            )
        case Return(v, beach):
            return Text.of(
                N_("take {colour} {v} off beach {beach}"), colour=colour, v=v, beach=beach
            )
        case Boat():
            return Text.of(N_("move the boat to {beach}"), beach=_next_boat(game))
        case Shaman(None):
            return Text.of(N_("the {colour} shaman stays"), colour=colour)
        case Shaman(space) if space is not None:
            return Text.of(
                N_("{colour} shaman to {space}"), colour=colour, space=b.space_name(space)
            )
        case Take(slot):
            card = game.deck.cards[game.slots[slot]]
            return Text.of(
                N_("{colour} takes {slot} ({card})"),
                colour=colour,
                slot=b.slot_name(slot),
                card=Term(card.name),
            )
        case Lava(None, None):
            return Text(N_("no lava to move"))
        case Lava(int() as source, int() as target):
            return Text.of(
                N_("move lava from crater {source} to {target}"), source=source, target=target
            )
        case Buy(item):
            return Text.of(N_("{colour} buys {item}"), colour=colour, item=_item(game, item))
    return Text.of(N_("{colour}: {what}"), colour=colour, what=game.format(d))


def option_label(game: Game, d: int) -> tuple[Text | str, bool]:
    """A decision of a chooser (shaman, card, priestess, shell, pre-scoring purchase) as its
    line on the OLED, and whether it leads the list (staying, keeping, buying nothing: the
    "do nothing" choice comes first)."""
    b = game.board
    match decode(d, b):
        case Shaman(None):
            here = b.space_name(game.shaman[game.decider])
            return Text.of(N_("stay on {space}"), space=here), True
        case Shaman(space) if space is not None:
            where = b.space_name(space)
            return Text.of(
                N_("{space} {land}"), space=where, land=Term(BAND_WORDS[where[1]])
            ), False
        case Take(slot):
            card = game.deck.cards[game.slots[slot]]
            return Text.of(N_("{slot} {card}"), slot=b.slot_name(slot), card=Term(card.name)), False
        case Lava(None, None):
            return Text(N_("no lava to move")), True
        case Lava(int() as source, int() as target):
            return Text.of(N_("lava {source} to {target}"), source=source, target=target), False
        case Buy(item):
            item_name, cost = game.deck.board_items[item]
            return Text.of(N_("{item} ({cost})"), item=Term(item_name), cost=cost), False
        case Keep():
            return Text(N_("keep the shell")), True
        case Pass():
            return Text(N_("buy nothing")), True
    return game.format(d), False


def beach_option_label(move: Place | Return) -> Text:
    """A disc decision in a beach's chooser (buttons kit): ``place 3``, ``take back 3``."""
    if isinstance(move, Return):
        return Text.of(N_("take back {v}"), v=move.value)
    if move.invoke:
        return Text.of(N_("place {v} + invocation"), v=move.value)
    return Text.of(N_("place {v}"), v=move.value)


def boat_option_label(game: Game, *, asking: bool) -> Text:
    """Moving the boat in its chooser: asked after select (``asking``) or forced."""
    where = Text.of(N_("boat to {beach}"), beach=_next_boat(game))
    return Text.of(N_("yes, {where}"), where=where) if asking else where


def proposal_words(game: Game, d: int, kit: str) -> tuple[Text, Text | str]:
    """The companion's decision as the OLED says it: a headline in capitals and what the
    players do about it (``"YELLOW PLACES 3 ON BEACH 2"``, ``"put the disc there"``)."""
    b = game.board
    who = Upper(_colour(game))
    press = kit != "rfid"

    def then(done: str, pressed: str) -> Text:
        return Text(pressed if press else done)

    match decode(d, b):
        case Place(v, beach, invoke=False):
            return Text.of(
                N_("{who} PLACES {v} ON BEACH {beach}"), who=who, v=v, beach=beach
            ), then(N_("put the disc there"), N_("put the disc there, then press select"))
        case Place(v, beach, invoke=True):
            return (
                Text.of(
                    N_("{who} PLACES {v} AND THE INVOCATION DISC ON BEACH {beach}"),
                    who=who,
                    v=v,
                    beach=beach,
                ),
                then(N_("put both discs there"), N_("put both discs there, then press select")),
            )
        case Return(v, beach):
            return Text.of(
                N_("{who} TAKES {v} BACK FROM BEACH {beach}"), who=who, v=v, beach=beach
            ), then(
                N_("take the disc off the beach"),
                N_("take the disc off the beach, then press select"),
            )
        case Boat():
            return (
                Text.of(N_("{who} MOVES THE BOAT TO {beach}"), who=who, beach=_next_boat(game)),
                Text(N_("move the boat, then press select")),
            )
        case Shaman(None):
            here = b.space_name(game.shaman[game.decider])
            return Text.of(N_("{who}'S SHAMAN STAYS ON {space}"), who=who, space=here), ""
        case Shaman(space) if space is not None:
            return (
                Text.of(N_("{who}'S SHAMAN GOES TO {space}"), who=who, space=b.space_name(space)),
                Text(N_("move the shaman there, then press select")),
            )
        case Take(slot):
            card = game.deck.cards[game.slots[slot]]
            return Text.of(
                N_("{who} TAKES {slot}: {card}"),
                who=who,
                slot=b.slot_name(slot).upper(),
                card=Term(card.name),
            ), ""
        case Lava(None, None):
            return Text.of(N_("{who} MOVES NO LAVA"), who=who), ""
        case Lava(int() as source, int() as target):
            return Text.of(
                N_("{who} MOVES LAVA FROM CRATER {source} TO {target}"),
                who=who,
                source=source,
                target=target,
            ), ""
        case Buy(item):
            return Text.of(N_("{who} BUYS {item}"), who=who, item=Upper(_item(game, item))), ""
        case Keep():
            return Text.of(N_("{who} KEEPS THE SHELL"), who=who), ""
        case Pass():
            return Text.of(N_("{who} BUYS NOTHING"), who=who), ""
    return Text.of(N_("{colour}: {what}"), colour=who, what=game.format(d)), ""


def decision_words(game: Game, d: int) -> Text | str:
    """A decision in plain words for the coach's hint: ``place disc 3 on beach 2``."""
    b = game.board
    match decode(d, b):
        case Place(v, beach, invoke=False):
            return Text.of(N_("place disc {v} on beach {beach}"), v=v, beach=beach)
        case Place(v, beach, invoke=True):
            return Text.of(
                N_("place disc {v} with the invocation disc on beach {beach}"), v=v, beach=beach
            )
        case Return(v, beach):
            return Text.of(N_("take disc {v} back from beach {beach}"), v=v, beach=beach)
        case Boat():
            return Text.of(N_("move the boat to segment {segment}"), segment=_next_boat(game))
        case Shaman(None):
            return Text(N_("leave the shaman where it stands"))
        case Shaman(space) if space is not None:
            return Text.of(N_("move the shaman to {space}"), space=b.space_name(space))
        case Take(slot):
            card = game.deck.cards[game.slots[slot]]
            return Text.of(
                N_("take the {card} from slot {slot}"), card=Term(card.name), slot=b.slot_name(slot)
            )
        case Lava(None, None):
            return Text(N_("move no lava"))
        case Lava(int() as source, int() as target):
            return Text.of(
                N_("move lava from crater {source} to crater {target}"),
                source=source,
                target=target,
            )
        case Buy(item):
            return Text.of(N_("buy {item}"), item=_item(game, item))
        case Keep():
            return Text(N_("keep the shell"))
        case Pass():
            return Text(N_("buy nothing"))
    return game.format(d)
