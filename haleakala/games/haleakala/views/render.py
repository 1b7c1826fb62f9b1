"""The island as text: pure functions from a game (and its events) to strings.

Pure so that the terminal game, the tests and any later front end (the simulator's log
pane, a bug report) draw the same picture. Colour is a parameter, never a guess: the
caller decides from the output stream (TTY, ``NO_COLOR``). Columns are padded before
colouring so ANSI codes never break the alignment.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from haleakala import palette
from haleakala.games.haleakala import PLAYERS
from haleakala.games.haleakala.deck import BOARD_ITEMS
from haleakala.games.haleakala.words import moves
from haleakala.i18n import N_, _, ngettext, pgettext
from haleakala.i18n import render as in_language
from haleakala.i18n.terms import PHASES, SETTINGS, game_title
from haleakala.i18n.terms import player as colour_name

if TYPE_CHECKING:
    from haleakala.games.haleakala import Game, Result
    from haleakala.games.haleakala.events import Event
    from haleakala.games.haleakala.scoring import Scoring

STYLES = {
    "red": "31",
    "yellow": "33",
    "lava": "1;91",
    "boat": "1;36",
    "head": "1",
    "dim": "2",
}
WIDTH = 80  # every line the terminal game prints fits a classic terminal
LEGEND = N_("[R] red statue  (y) yellow shaman  ~ eruption reaches it  * invocation disc")
PHASE_PROMPTS = {
    "turn": N_("place a number disc (3@2), take one back (-3@2), or move the boat (boat)"),
    "shaman": N_("move your shaman (>2G) or leave it where it is (>stay)"),
    "priestess": N_(
        "Lava Priestess: move lava to a neighbouring crater (lava 3>4), "
        "or lava none when there is none"
    ),
    "shell": N_("you received a shell: buy an item from the scoring board (buy forest) or keep"),
    "prescore": N_("before the scoring you may buy one item (buy majority) or pass"),
}


STYLE_ROLES = {"red": "player.red", "yellow": "player.yellow", "lava": "lava"}
"""Styles that show a palette role: outside the default colour mode they are drawn in the
role's exact colour (24-bit ANSI), not in the terminal theme's red and yellow."""


def style_code(style: str) -> str:
    """The SGR parameters of ``style`` in the colour mode in use."""
    role = STYLE_ROLES.get(style)
    if role is None or palette.current() == palette.DEFAULT:
        return STYLES[style]
    r, g, b = palette.screen(role)
    return f"1;38;2;{r};{g};{b}"


def paint(text: str, style: str, color: bool) -> str:
    """``text`` in the ANSI style ``style`` when colour is on (and there is text)."""
    if not color or not text.strip():
        return text
    return f"\x1b[{style_code(style)}m{text}\x1b[0m"


def _cell(text: str, width: int, style: str | None, color: bool) -> str:
    padded = text.ljust(width)
    return paint(padded, style, color) if style else padded


def _discs(game: Game, player: int, beach: int) -> str:
    values = [v for v in game.board.discs if game.disc_at[player][v] == beach]
    text = "+".join(map(str, values))
    if len(values) > 1:
        text += f"={sum(values)}"
    if game.invocation[player] == beach:
        text += " *" if text else "*"
    return text


def _threatened(game: Game, space: int) -> bool:
    """Would the eruption reach this land space with the lava now on its crater (R19)?"""
    seg, band = divmod(space, 3)  # band 0 grassland, 1 forest, 2 mountain
    return game.lava[seg] >= 3 - band


def _land(game: Game, space: int, color: bool) -> tuple[str, int]:
    """A grassland/forest/mountain cell: statue, shaman, lava threat; text and its width."""
    parts: list[tuple[str, str | None]] = []
    owner = game.statue_owner[space]
    if owner >= 0:
        parts.append((f"[{PLAYERS[owner][0].upper()}]", PLAYERS[owner]))
    for p in (0, 1):
        if game.shaman[p] == space:
            parts.append((f"({PLAYERS[p][0]})", PLAYERS[p]))
    if _threatened(game, space):
        parts.append(("~", "lava"))
    if not parts:
        parts.append((".", "dim"))
    text = "".join(paint(t, s, color) if s else t for t, s in parts)
    return text, sum(len(t) for t, _ in parts)


def island(game: Game, color: bool = False) -> list[str]:
    """One row per segment: boat, discs on the beach per colour, shamans and statues on
    beach/grassland/forest/mountain, lava discs on the crater."""
    b = game.board
    # the headings outside the f-string: Babel's extractor does not look inside one
    seg_h, boat_h, red_h, yellow_h = _("seg"), _("boat"), _("red discs"), _("yellow discs")
    boat = _("BOAT>")
    boat_w = max(6, len(boat) + 1, len(boat_h) + 1)  # "BATEAU>" must not push the row
    head = f"{seg_h:<4}{boat_h:<{boat_w}}{red_h:<11}{yellow_h:<14}{'B':<5}"
    head += f"{'G':<8}{'F':<8}{'M':<8}" + _("lava")
    lines = [paint(head, "head", color)]
    for seg in range(b.segments):
        row = f" {seg}  "
        row += _cell(boat if game.boat == seg else "", boat_w, "boat", color)
        row += _cell(_discs(game, 0, seg), 11, "red", color)
        row += _cell(_discs(game, 1, seg), 14, "yellow", color)
        hut = "".join(f"({PLAYERS[p][0]})" for p in (0, 1) if game.shaman[p] == b.land_spaces + seg)
        hut_style = next(
            (PLAYERS[p] for p in (0, 1) if game.shaman[p] == b.land_spaces + seg), None
        )
        row += _cell(hut, 5, hut_style, color)
        for band in range(3):
            text, width = _land(game, seg * 3 + band, color)
            row += text + " " * max(1, 8 - width)
        lava = game.lava[seg]
        row += paint("o" * lava, "lava", color) if lava else paint(".", "dim", color)
        lines.append(row.rstrip())
    lines.append(paint(boat_line(game), "boat", color))
    return lines


def colon(label: str) -> str:
    """``label`` followed by a colon as the language writes it (French puts a no-break
    space before it: "Rouge\u00a0:")."""
    # TRANSLATORS: a label and its colon; French writes "{label}\u00a0:" (no-break space).
    return _("{label}:").format(label=label)


def boat_line(game: Game) -> str:
    """The beach next to the boat (R5) and where a disc placed there sends it (R9)."""
    b, here = game.board, game.boat
    far = (here + 3) % b.segments
    return _(
        "the boat is beside beach {here}: a disc placed there sails it (3@{here} -> {far})"
    ).format(here=here, far=far)


def card_name(game: Game, card: int) -> str:
    return _(game.deck.cards[card].name)


def card_slots(game: Game) -> list[str]:
    """The two cards beside each segment, by slot name (``2a``) and printed name."""
    b = game.board
    k = b.slots_per_segment
    lines = []
    for seg in range(b.segments):
        cells = []
        for slot in range(seg * k, seg * k + k):
            card = game.slots[slot]
            cells.append(f"{b.slot_name(slot)} {card_name(game, card) if card >= 0 else '-'}")
        lines.append("  " + "".join(c.ljust(36) for c in cells).rstrip())
    return lines


def piles(game: Game) -> str:
    parts = []
    for (back, _cards), pile in zip(game.deck.piles, game.piles, strict=True):
        trees = ngettext("{n} palm tree", "{n} palm trees", back).format(n=back)
        parts.append(colon(trees) + f" {len(pile)}")
    discard = _("discard: {n}").format(n=len(game.discard))
    return _("piles") + "   " + "   ".join(parts) + "   " + discard


def scoring_board(game: Game, color: bool = False) -> list[str]:
    """Every item with its cost and whether it is available, owned or face down."""
    cells = []
    for i, code in enumerate(BOARD_ITEMS):
        name, cost = game.deck.board_items[code]
        owner = game.board_owner[i]
        if owner == -1:
            state, style = _("available"), None
        elif owner == 2:
            state, style = _("face down"), "dim"
        else:
            state, style = colour_name(PLAYERS[owner]), PLAYERS[owner]
        text = colon(f"{_(name)} ({cost})") + " "
        shown = paint(state, style, color) if style else state
        cells.append((text + shown, len(text + state)))
    # Two columns as wide as the widest cell needs; one column when two would not fit.
    column = max(36, max(n for _c, n in cells) + 2)
    per_row = 2 if 2 + 2 * column <= WIDTH + 2 else 1
    lines = [_("scoring board")]
    for row in range(0, len(cells), per_row):
        line = "".join(c + " " * (column - n) for c, n in cells[row : row + per_row])
        lines.append(("  " + line).rstrip())
    return lines


def banked(game: Game) -> tuple[int, int]:
    """Points banked at the scorings so far (the running score)."""
    if not game.scorings:
        return (0, 0)
    red, yellow = game.scorings[-1].totals
    return (red, yellow)


def player_lines(game: Game, player: int, color: bool = False) -> list[str]:
    """What one player has: score, discs and statues in supply, shells, cards."""
    colour = PLAYERS[player]
    deck = game.deck
    supply = [str(v) for v in game.board.discs if game.disc_at[player][v] < 0]
    if game.invocation[player] == -1:
        supply.append(_("+ invocation"))
    score = banked(game)[player]
    facts = [
        _("score {n}").format(n=score),
        _("discs in supply: {discs}").format(discs=" ".join(supply) or _("none")),
        _("statues left: {n}").format(n=game.statues_left[player]),
        _("shells: {n}").format(n=len(game.shells[player])),
    ]
    # A fact never breaks inside ("Muscheln: 0" stays together): a line too long for the
    # terminal goes on below, under the first fact.
    first, width = _cell(colour_name(colour), 8, colour, color), 8
    for k, fact in enumerate(facts):
        if k and width + 3 + len(fact) > WIDTH:
            first, width = first + "\n" + " " * 8 + fact, 8 + len(fact)
        else:
            first, width = first + ("   " if k else "") + fact, width + (3 if k else 0) + len(fact)
    cards = Counter(_(deck.cards[c].name) for c in game.beach_cards[player])
    baskets = sum(deck.cards[c].baskets for c in game.beach_cards[player])
    butterflies = sum(deck.cards[c].butterflies for c in game.beach_cards[player])
    items = [f"{n}x {name}" if n > 1 else name for name, n in cards.items()] or [
        pgettext("no cards", "none")
    ]
    # Wrap between cards only; the separator as the language writes it (French: " ;").
    sep = _("{first}; {rest}").format(first="", rest="").rstrip()
    units = [item + sep for item in items[:-1]] + [items[-1]]
    if cards:
        units.append(
            _("(baskets {baskets}, butterflies {butterflies})").format(
                baskets=baskets, butterflies=butterflies
            )
        )
    second = "\n".join(wrap_words([_("cards:"), *units], width=WIDTH, indent=" " * 8))
    owned = [_(deck.board_items[code][0]) for i, code in enumerate(BOARD_ITEMS)
             if game.board_owner[i] == player]  # fmt: skip
    lines = [first, second]
    if owned:
        lines.append(" " * 8 + _("scoring cards: {cards}").format(cards=", ".join(owned)))
    return lines


def status(game: Game, color: bool = False) -> str:
    line, score = _status_parts(game, color)
    # A long seed and phase name would run past the terminal: the score goes below then.
    if len("".join(_status_parts(game, False))) + 3 > WIDTH:
        return f"{line}\n  {score}"
    return f"{line} · {score}"


def _status_parts(game: Game, color: bool) -> tuple[str, str]:
    red, yellow = banked(game)
    if game.is_terminal():
        where = _("game over")
    else:
        who = game.to_move or ""
        where = _("{colour} to decide ({phase})").format(
            colour=paint(colour_name(who), who, color), phase=_(PHASES[game.phase_name])
        )
    score = _("score {red} {n}  {yellow} {m}").format(
        red=paint(colour_name("red"), "red", color),
        n=red,
        yellow=paint(colour_name("yellow"), "yellow", color),
        m=yellow,
    )
    line = _("{title} {variant} · seed {seed} · round {round} of 2 · {where}").format(
        title=paint(game_title("haleakala"), "head", color),
        variant=variant_name(game.variant),
        seed=game.seed,
        round=game.round,
        where=where,
    )
    return line, score


def render(game: Game, color: bool = False) -> str:
    """The whole table: status line, island, card slots, piles, scoring board, players."""
    lines = [status(game, color), ""]
    lines += island(game, color)
    legend = _(LEGEND)
    lines.append(paint(legend if game.tactical else legend.rsplit("  ", 1)[0], "dim", color))
    lines.append(_("card slots"))
    lines += card_slots(game)
    lines.append(piles(game))
    lines += scoring_board(game, color)
    for p in (0, 1):
        lines += player_lines(game, p, color)
    return "\n".join(lines)


# -- what is awaited, and what happened ---------------------------------------------------


def prompt(game: Game, color: bool = False) -> str:
    """One line: who decides and what kind of decision the rules await."""
    who = game.to_move
    if who is None:
        return _("the game is over")
    what = _awaited(game)
    return "\n".join(
        wrap_words(
            [colon(paint(colour_name(who), who, color)), *what.split()], indent="", hang="  "
        )
    )


def prompt_line(game: Game) -> str:
    """``prompt`` unwrapped (a page wraps it itself), with the language's typography kept
    whole (French "Rouge\u00a0: …")."""
    who = game.to_move
    if who is None:
        return _("the game is over")
    return f"{colon(colour_name(who))} {_awaited(game)}"


def _awaited(game: Game) -> str:
    """What kind of decision the rules await, in the language in use."""
    phase = game.phase_name
    if phase == "card":
        seg = game.context[0]
        k = game.board.slots_per_segment
        offered = [
            _("take {slot} ({card})").format(
                slot=game.board.slot_name(s), card=card_name(game, game.slots[s])
            )
            for s in range(seg * k, seg * k + k)
            if game.slots[s] >= 0
        ]
        what = _("choose a card in segment {n}: {cards}").format(n=seg, cards=", ".join(offered))
    else:
        what = _(PHASE_PROMPTS[phase])
    if phase in ("shell", "prescore"):
        what = _("{what} (you have {shells})").format(
            what=what, shells=in_language(moves.shells(len(game.shells[game.decider])))
        )
    return what


def wrap_words(
    words: list[str], width: int = WIDTH, indent: str = "  ", hang: str = ""
) -> list[str]:
    """Words (kept whole) in lines of at most ``width``; later lines indented by ``hang``
    more than the first."""
    lines, line = [], indent
    for word in words:
        if len(line) + len(word) + 1 > width and line.strip():
            lines.append(line.rstrip())
            line = indent + hang
        line += word + " "
    if line.strip():
        lines.append(line.rstrip())
    return lines


def legal_lines(game: Game) -> list[str]:
    """``  legal: 1@0 1@1 ...`` wrapped, continuation lines aligned under the first decision."""
    return wrap_words([_("legal:"), *game.legal_decisions()], hang=" " * 7)


def compact_legal(game: Game) -> list[str]:
    """The legal decisions in at most two lines: all of them when they fit, else the
    placements counted (the rest listed), with ``legal`` to see every one."""
    legal = game.legal_decisions()
    full = legal_lines(game)
    if len(full) <= 1:
        return full
    places = [d for d in legal if "@" in d and not d.startswith("-")]
    if len(places) < 2:  # nothing to count (lava moves, purchases): the list itself
        return full
    rest = [d for d in legal if d not in places]
    values = sorted({d.split("@")[0] for d in places})
    summary = ngettext(
        "{n} placement of disc {values} (like {example})",
        "{n} placements of disc {values} (like {example})",
        len(places),
    ).format(n=len(places), values="/".join(values), example=places[0])
    words = [_("legal:"), summary + (";" if rest else ""), *rest, _("– type legal for all")]
    return wrap_words(words, hang=" " * 7)


# The sentences of what happened live in ``haleakala.games.haleakala.words.moves`` (one layer
# for every front end, made as values); the terminal shows them rendered in the language in use.


def variant_name(variant: str) -> str:
    """``base``, ``taktisch``: the variant's name in the language in use."""
    return _(SETTINGS.get(variant, variant))


def describe_events(game: Game, events: list[Event], *, told: int | None = None) -> list[str]:
    return [in_language(line) for line in moves.event_lines(game, events, told=told)]


def describe_scoring(scoring: Scoring) -> list[str]:
    return [in_language(line) for line in moves.scoring_lines(scoring)]


def describe_result(result: Result) -> str:
    return in_language(moves.result_sentence(result))


def describe_move(game: Game, mover: int, code: int, events: list[Event]) -> list[str]:
    """The decision's sentence and what it caused, in the language in use."""
    return [in_language(line) for line in moves.describe_move(game, mover, code, events)]


def text(game: Game, viewer: int | None = None) -> str:
    """The position as text for any viewer (its description's ``render``): everything on
    Haleakala's table is public (only the piles' order is hidden, and never shown)."""
    return render(game)
