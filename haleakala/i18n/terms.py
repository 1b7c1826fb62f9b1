"""The game's words, once: each is a catalog entry whose German and French are the ones the
published editions print (``docs/glossary-de.md``, ``docs/glossary-fr.md``; a test holds the
catalogs to the glossaries). Front-ends say ``_(TERMS["shaman"])``; a refusal's ``Term``
parameters are these English words.

Lower case as they stand inside a sentence; a title or a menu capitalises for itself.
"""

from __future__ import annotations

from haleakala.gameapi import DEFAULT_GAME, describe
from haleakala.i18n import N_, _, ngettext, number, pgettext

PLAYERS = {"red": N_("red"), "yellow": N_("yellow")}
"""The two colours as player names ("red must move the shaman")."""

LANDS = {
    "beach": N_("beach"),
    "grassland": N_("grassland"),
    "forest": N_("forest"),
    "mountain": N_("mountain"),
    "crater": N_("crater"),
}

PIECES = {
    "statue": N_("statue"),
    "shaman": N_("shaman"),
    "boat": N_("fishing boat"),
    "number disc": N_("number disc"),
    "invocation disc": N_("invocation disc"),
    "lava": N_("lava"),
    "lava disc": N_("lava disc"),
    "segment": N_("segment"),
    "volcano": N_("volcano"),
    "eruption": N_("eruption"),
    "scoring": N_("scoring"),
    "scoring board": N_("scoring board"),
    "round": N_("round"),
    "point": N_("point"),
    "starting player": N_("starting player"),
    "supply": N_("supply"),
    "tactical variant": N_("tactical variant"),
    "base game": N_("base game"),
}

CARDS = {
    "palm tree card": N_("palm tree card"),
    "1-tree pile": N_("1-tree pile"),
    "2-tree pile": N_("2-tree pile"),
    "3-tree pile": N_("3-tree pile"),
    "statue": N_("Build a Statue"),
    "priestess": N_("Lava Priestess"),
    "shell": N_("shell"),
    "lava": N_("Lava card"),
    "fish basket": N_("basket of fish"),
    "butterfly": N_("butterfly"),
    "white pearl": N_("White Pearl"),
    "black pearl": N_("Black Pearl"),
    "nautilus": N_("Nautilus"),
    "scoring card": N_("scoring card"),
}

PHASES = {
    "turn": N_("turn"),
    "shaman": N_("shaman"),
    "card": N_("card"),
    "priestess": N_("Lava Priestess"),
    "shell": N_("shell"),
    "prescore": N_("before scoring"),
    "over": N_("game over"),
}
"""What the game waits for, by the engine's phase name (``rules.state.PHASE_NAMES``), in a
player's words ("prescore" is the engine's, "before scoring" the player's)."""

SCORING_CARDS = {
    "butterflies": N_("Butterflies"),
    "forest": N_("Forest Statues"),
    "majority": N_("Statue Majority"),
    "segment": N_("Complete Segment"),
    "mountain": N_("Mountain Statues"),
    "priestess": N_("Lava Priestess"),
}
"""The scoring board's cards by their code in ``rules/data/deck.toml``."""

CARD_NAMES = {
    "statue": N_("Build a Statue"),
    "priestess": N_("Lava Priestess"),
    "shell": N_("Shell"),
    "fish1b": N_("Fish: 1 basket, 1 butterfly"),
    "fish2": N_("Fish: 2 baskets"),
    "fish2b": N_("Fish: 2 baskets, 1 butterfly"),
    "whitepearl": N_("White Pearl, 1 butterfly"),
    "blackpearl": N_("Black Pearl, 1 butterfly"),
    "nautilus": N_("Nautilus, 2 butterflies"),
    "lava": N_("Lava"),
}
"""The palm-tree cards' names as ``rules/data/deck.toml`` gives them (a test holds the two
together): ``_(card.name)`` shows one in the language in use."""

FACES = (N_("Fish"),)
"""A card's short name on its face (the OLED's card, the window's card frame)."""

SETTINGS = {
    "base": N_("base"),
    "tactical": N_("tactical"),
    "easy": N_("easy"),
    "normal": N_("normal"),
    "strong": N_("strong"),
    "child": N_("child"),
}
"""The values the board's menu shows for the variant and the solo strength."""

LISTS = (N_("{first}; {rest}"), N_("{first}, {rest}"))
"""How text joins several things ("the boat sails to 3; red receives a shell"): each part a
value (``core.text.Text``), joined by one of these templates, all rendered at the screen."""

TERMS: dict[str, str] = {**LANDS, **PIECES, **CARDS}
GLOSSARY: tuple[str, ...] = tuple(
    dict.fromkeys([*PLAYERS.values(), *TERMS.values(), *SCORING_CARDS.values()])
)
"""Every English term the glossaries translate, in their order."""


def shells(n: int) -> str:
    """ "3 shells" in the language in use, by its plural rule (French: "0 coquillage")."""
    return ngettext("{n} shell", "{n} shells", n).format(n=number(n))


def points(n: int) -> str:
    return ngettext("{n} point", "{n} points", n).format(n=number(n))


def statues(n: int) -> str:
    return ngettext("{n} statue", "{n} statues", n).format(n=number(n))


def cards(n: int) -> str:
    return ngettext("{n} card", "{n} cards", n).format(n=number(n))


def player(name: str) -> str:
    """A colour as a player's name (``"red"`` -> ``"Rot"``)."""
    return _(PLAYERS.get(name, name))


def name(english: str) -> str:
    """A card's or a scoring-board item's English name (from ``deck.toml``) in the language
    in use."""
    return _(english)


def card_face(english: str) -> str:
    """A card's name as the OLED's card face shows it: the name in the language in use, or a
    short form where that name has a word too long for the card's 9 columns ("Lava-Priesterin"
    is the German card's name; its face says "Lava Priest.")."""
    if english == "Lava Priestess":
        face = pgettext("card face", "Lava Priestess")
        if face != english:
            return face
    if english == "Shell":  # "Coquillage" is one column too wide: "Coquil- lage"
        face = pgettext("card face", "Shell")
        if face != english:
            return face
    return _(english)  # a card's name is a catalog entry of its own (CARD_NAMES)


def bot_name(name: str) -> str:
    """A bot's name (``greedy``, as ``--red greedy`` chooses it) as a player reads it in the
    language in use ("gierig", "glouton"); a name without a translation stays as it is.
    The name typed on the command line stays the English one in every language."""
    names = {
        "random": pgettext("bot", "random"),
        "greedy": pgettext("bot", "greedy"),
        "child": pgettext("bot", "child"),
        "ai": pgettext("bot", "ai"),
        "ai-v1": pgettext("bot", "ai-v1"),
        "ai-paranoid": pgettext("bot", "ai-paranoid"),
    }
    return names.get(name, name)


def game_title(name: str) -> str:
    """A game's title as its edition in the language in use prints it: the German edition
    of Haleakala is *Haus der Sonne* (docs/glossary-de.md), so a German screen names it so
    everywhere, never one name in a sentence and the other in a heading."""
    if name == DEFAULT_GAME:
        return pgettext("game", "Haleakala")
    return pgettext("game", describe(name).title)  # a title no edition translates stays
