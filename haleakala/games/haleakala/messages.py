"""The refusals' messages that take counts or names as parameters, one function each, so the
sentence form a count needs is chosen in one place (``ngettext``) and a catalog translates
each message whole. Apart from ``refusals`` (which finds what to offer instead) to keep each
module to one idea.
"""

from __future__ import annotations

from haleakala.core.text import Param, Term, Text, join

from .decision import N_


def ngettext(singular: str, plural: str, count: int, /, **params: Param) -> Text:
    """The sentence whose form ``n`` chooses (``gettext.ngettext``'s signature, so the
    extractor marks both forms), as a ``Text`` rendered in the viewer's language."""
    return Text.count(singular, plural, count, **params)


def either(texts: list[Param]) -> Param:
    """``a``, ``a or b``, ``a, b or c``."""
    return join(texts)


# -- one function per message (the counts are parameters) ------------------------------


def game_over() -> Text:
    return Text(N_("R21: the game ended with the second scoring; start a new game to play on"))


def not_your_decision(decider: str, player: str) -> Text:
    return Text.of(
        N_(
            "R6: players take turns, and this decision is {decider}'s, not "
            "{player}'s; wait until {decider} has decided"
        ),
        decider=Term(decider),
        player=Term(player),
    )


def shells_too_few(item: str, cost: int, have: int, ruling: str, instead: Param) -> Text:
    """'the Forest Statues card costs 1 shell and you have none'."""
    price = ngettext("costs {n} shell", "costs {n} shells", cost, n=cost)
    held: Param
    if have == 0:
        held = Text(N_("you have none"))
    else:
        held = ngettext("you have {n} shell", "you have {n} shells", have, n=have)
    return Text.of(
        N_("{ruling}: the {item} card {price} and {held}; {instead}"),
        ruling=ruling,
        item=Term(item),
        price=price,
        held=held,
        instead=instead,
    )


def discs_left_in_supply(left: int, instead: Param) -> Text:
    """The boat (action 3) before all number discs are out."""
    still = ngettext(
        "you still have {n} number disc in your supply",
        "you still have {n} number discs in your supply",
        left,
        n=left,
    )
    return Text.of(
        N_(
            "R6: the boat moves only when all 5 of your number discs are on the "
            "island, and {still}; {instead}"
        ),
        still=still,
        instead=instead,
    )
