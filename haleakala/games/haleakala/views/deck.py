"""``haleakala deck``: the deck manifest in use, and where to correct it.

The printed manifest of the palm-tree cards is a reconstruction (RULINGS.md), kept in a
data file so owners of the physical game can fix it; this command shows what the engine
actually reads from that file, pile by pile, with the variant differences.
"""

from __future__ import annotations

import argparse

from haleakala.games.haleakala import VARIANTS, Game
from haleakala.games.haleakala.deck import BOARD_ITEMS, CardType
from haleakala.toolkit.terminal import one_line_errors


def register(subparsers: argparse._SubParsersAction) -> None:
    p = one_line_errors(
        subparsers.add_parser(
            "deck", help="show the deck manifest in use and its data file", description=__doc__
        )
    )
    p.set_defaults(func=run)


def printed_values(card: CardType) -> str:
    values = []
    if card.baskets:
        values.append(f"{card.baskets} basket{'s' * (card.baskets != 1)}")
    if card.butterflies:
        values.append(f"{card.butterflies} butterfl{'ies' if card.butterflies != 1 else 'y'}")
    if card.pearl:
        values.append(f"{card.pearl} pearl")
    if card.nautilus:
        values.append(f"{card.nautilus} nautilus")
    return ", ".join(values) or "-"


def manifest() -> list[str]:
    """The text of ``haleakala deck``."""
    games = {variant: Game(variant, seed=0) for variant in VARIANTS}
    deck = games["base"].deck
    lines = [f"deck data file: {deck.source}", "  (a reconstruction; edit this file if your "
             "copy of the game differs)", ""]  # fmt: skip
    total = sum(sum(counts.values()) for _, counts in deck.piles)
    lines.append(f"palm-tree piles, drawn in this order ({total} cards):")
    for back, counts in deck.piles:
        trees = "palm tree" if back == 1 else "palm trees"
        lines.append(f"  {back} {trees}: {sum(counts.values())} cards")
        for code, count in counts.items():
            lines.append(f"    {count:>2} x {code:<11} {deck.types[code].name}")
    lines += ["", "card types (code, name, kind, printed values):"]
    for code, card in deck.types.items():
        lines.append(f"  {code:<11} {card.name:<30} {card.kind:<7} {printed_values(card)}")
    lines += ["", "scoring board (item, name, cost in shells):"]
    for code in BOARD_ITEMS:
        name, cost = deck.board_items[code]
        lines.append(f"  {code:<11} {name:<30} {cost}")
    lines += ["", "points:"]
    lines += [f"  {key:<17} {value}" for key, value in deck.points.items()]
    lines += ["", "variants:"]
    for variant, game in games.items():
        sizes = [len(game.deck.card_numbers(i, variant)) for i in range(len(deck.piles))]
        lava = sum(1 for n in range(len(deck.cards)) if deck.cards[n].kind == "lava")
        piles = " + ".join(map(str, sizes))
        if variant == "base":
            note = f"all cards, {lava} of them lava cards"
        else:
            note = (
                f"no lava cards ({lava} removed); lava comes from invocation discs; "
                "no purchase before a scoring"
            )
        lines.append(f"  {variant:<9} {sum(sizes)} cards ({piles}): {note}")
    return lines


def run(args: argparse.Namespace) -> int:
    print("\n".join(manifest()))
    return 0
