"""Kahuna at the terminal: the board as text and a game between people and bots.

Hidden hands (K31) make this differ from Haleakala's terminal game: every line printed is
written for a *viewer*. A person sees their own hand and the card they drew; of the
opponent only what the table shows (hand size, the display card taken, "a card face
down"). When two people share the keyboard, each turn starts with a hand-over screen:
the screen is cleared, the other player is asked to look away, and the hand is shown
only after the new player presses Enter.

Input and output are injected (``read(prompt)`` raising EOFError at the end, and a text
stream) so tests drive a whole game with a script.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TextIO

from haleakala.core.jsonread import printable
from haleakala.games.kahuna import PLAYERS, Game
from haleakala.games.kahuna.events import Bridge, Drew, Event, Revealed, Scored, Shuffled, Stone
from haleakala.games.kahuna.game import NONE
from haleakala.games.kahuna.notation import DISCARD, DRAW_PILE
from haleakala.games.kahuna.words import colour
from haleakala.i18n import N_, _, ngettext
from haleakala.toolkit.terminal import (
    CLEAR_SCREEN,
    WIDTH,
    TerminalSession,
    counted_legal,
    legal_in_lines,
    obvious_hint,
)
from haleakala.toolkit.textfile import MAX_SAVE_BYTES, read_text

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from haleakala.ai import Bot

HELP = N_("""\
Decisions (notation; initials and lower case are fine: play h>e):
  play HUNA>ELAI      play a HUNA card: your bridge on the line ELAI-HUNA
  cut ELAI-HUNA with HUNA+HUNA
                      play two cards: remove the opponent's bridge ELAI-HUNA
  discard HUNA        put a card face down under the discard (not played)
  draw pile / draw 2  draw the top card or display card 2 (ends your turn)
  end                 end your turn without drawing (declining, K23)
Commands:
  board      draw the board again       hand    show your hand
  legal      every legal decision       hint    what the bot would do here
  undo       take back your last decision (one person against bots only)
  save FILE  save the game              load FILE  continue a saved game
  help       this text                  quit    leave the game""")

PHASE_PROMPTS = {
    "open": N_("play cards (play X>Y, cut X-Y with X+Y), or discard, then draw or end"),
    "played": N_("play more cards, then draw (draw pile, draw 1..3) or end"),
    "discarded": N_("discard more cards, then draw (draw pile, draw 1..3) or end"),
}
HINT_ITERATIONS = 400
"""The search behind ``hint``: a fixed iteration budget, so one position always gets the
same hint (about a second on a laptop)."""


def bridges(n: int) -> str:
    return ngettext("{n} bridge", "{n} bridges", n).format(n=n)


def stones(n: int) -> str:
    return ngettext("{n} stone", "{n} stones", n).format(n=n)


def cards(n: int) -> str:
    return ngettext("{n} card", "{n} cards", n).format(n=n)


# -- the board as text (pure) ---------------------------------------------------------


def board_lines(game: Game) -> list[str]:
    """Islands with stones and majorities, then every line and its bridge. Each column is
    as wide as its heading in the language in use, so the table stays aligned in all."""
    b = game.board
    names = b.islands
    heads = [_("island"), _("stone"), colour("white"), colour("black"), _("free"), _("lines")]
    heads.append(_("majority"))
    rows = []
    for i, name in enumerate(names):
        stone = game.stone[i]
        w, k = game.held(0, i), game.held(1, i)
        free = len(b.lines_of[i]) - w - k
        mark = colour(PLAYERS[stone]) if stone != NONE else "-"
        rows.append([name, mark, str(w), str(k), str(free), str(len(b.lines_of[i])),
                     str(b.need[i])])  # fmt: skip
    widths = [max(len(r[c]) for r in [heads, *rows]) for c in range(len(heads))]

    def row(cells: list[str]) -> str:
        left = [f"{cells[c]:<{widths[c]}}" for c in (0, 1)]
        right = [f"{cells[c]:>{widths[c]}}" for c in range(2, len(cells))]
        return "  " + "  ".join(left + right)

    out = [row(heads) + "  " + _("(more than half, K5)")]
    out += [row(r) for r in rows]
    out.append(_("Lines (W white bridge, B black bridge, . free):"))
    # TRANSLATORS: the letters marking a white and a black bridge in the list of lines (the
    # first letters of the two colours), as the heading above explains them.
    marks = _("WB")
    cells = []
    for line, name in enumerate(b.line_names):
        owner = game.bridge[line]
        cells.append(f"{name} {'.' if owner == NONE else marks[owner]}")
    for first in range(0, len(cells), 5):
        out.append("  " + "   ".join(cells[first : first + 5]))
    return out


def table_lines(game: Game, viewer: int | None) -> list[str]:
    """Display, pile, discard, supplies and scores; the hand of ``viewer`` only."""
    names = game.board.islands
    display = "  ".join(
        f"{s + 1}:{names[c] if c != NONE else '----'}" for s, c in enumerate(game.display)
    )
    buried = len(game.buried[0]) + len(game.buried[1])
    head = _("Display {display}   pile: {cards}   discard: {n} face up").format(
        display=display, cards=cards(len(game.pile)), n=len(game.discard)
    )
    if buried:
        head = _("{line} + {n} face down").format(line=head, n=buried)
    out = [head]
    totals = game.totals()
    for p, c in enumerate(PLAYERS):
        out.append(
            "  "
            + _("{colour}: {bridges} and {stones} in supply, {cards} in hand, {points}").format(
                colour=colour(c),
                bridges=bridges(game.bridges_left(p)),
                stones=stones(game.stones_left(p)),
                cards=cards(game.hand_size(p)),
                points=ngettext("{n} point", "{n} points", totals[p]).format(n=totals[p]),
            )
        )
    if viewer is not None:
        hand = " ".join(game.hand_cards(viewer)) or _("(empty)")
        out.append(
            _("Your hand ({colour}): {cards}").format(colour=colour(PLAYERS[viewer]), cards=hand)
        )
    return out


def render(game: Game, viewer: int | None) -> str:
    head = _("Kahuna, round {round} of 3").format(round=game.round)
    if game.last_turns:
        head = _("{head}, last turns (K26)").format(head=head)
    return "\n".join([head, *board_lines(game), *table_lines(game, viewer)])


def describe_decision(game: Game, decision: int, viewer: int | None) -> str:
    """What the table sees of a decision: a face-down discard names no card to others."""
    who = game.decider
    if DISCARD <= decision < DRAW_PILE and viewer != who:
        return _("discards a card face down")
    return game.format(decision)


def describe_events(game: Game, events: list[Event], viewer: int | None) -> list[str]:
    """The automatic effects, for ``viewer``: a card drawn from the pile is named only to
    the player who drew it."""
    b = game.board
    names = b.islands
    out = []
    for event in events:
        if isinstance(event, Stone):
            p, island, what = event.player, event.island, event.what
            template = (
                N_("{colour} stone placed on {island}")
                if what == "placed"
                else N_("{colour} stone removed from {island}")
            )
            out.append(_(template).format(colour=colour(PLAYERS[p]), island=names[island]))
        elif isinstance(event, Bridge):
            out.append(
                _("{colour} bridge {line} removed").format(
                    colour=colour(PLAYERS[event.player]), line=b.line_names[event.line]
                )
            )
        elif isinstance(event, Drew):
            p, source, card = event.player, event.source, event.card
            if source == "pile" and viewer == p:
                text = _("{colour} draws {card} from the pile")
            elif source == "pile":
                text = _("{colour} draws a card from the pile")
            else:
                text = _("{colour} takes {card} from display slot {slot}")
            out.append(
                text.format(
                    colour=colour(PLAYERS[p]),
                    card=names[card],
                    slot=source + 1 if isinstance(source, int) else "",
                )
            )
        elif isinstance(event, Revealed):
            out.append(
                _("display slot {slot}: {card}").format(slot=event.slot + 1, card=names[event.card])
            )
        elif isinstance(event, Scored):
            s = event.scoring
            out.append(
                _(
                    "scoring {round}: islands {white} {iw}, {black} {ib}; points {white} {pw}, "
                    "{black} {pb}; totals {white} {tw}, {black} {tb}"
                ).format(
                    round=s.round,
                    white=colour("white"),
                    black=colour("black"),
                    iw=s.islands[0],
                    ib=s.islands[1],
                    pw=s.points[0],
                    pb=s.points[1],
                    tw=s.totals[0],
                    tb=s.totals[1],
                )
            )
        elif isinstance(event, Shuffled):
            out.append(
                _("round {round}: the discard pile is shuffled into a new pile").format(
                    round=event.round
                )
            )
    return out


def describe_result(game: Game) -> str:
    r = game.result()
    if r is None:
        return _("game not over: {colour} to play, round {round}").format(
            colour=colour(game.to_move or ""), round=game.round
        )
    w, k = r.totals
    white, black = colour("white"), colour("black")
    if r.reason == "wipeout":
        loser = "black" if r.winner == "white" else "white"
        return _(
            "{winner} wins at once: every {loser} bridge was removed in round {round} (K29). "
            "Points: {white} {w}, {black} {k}."
        ).format(
            winner=colour(r.winner or ""),
            loser=colour(loser),
            round=game.round,
            white=white,
            black=black,
            w=w,
            k=k,
        )
    if r.winner is None:
        return _(
            "A draw: {white} {w}, {black} {k}, third scoring and bridges tied too (K28)."
        ).format(white=white, black=black, w=w, k=k)
    template = {
        "points": N_("{winner} wins: {white} {w}, {black} {k}."),
        "third": N_(
            "{winner} wins: {white} {w}, {black} {k} (tied: the third scoring decides, K28)."
        ),
        "bridges": N_(
            "{winner} wins: {white} {w}, {black} {k} (tied twice: more bridges on the board, K28)."
        ),
    }[r.reason]
    return _(template).format(winner=colour(r.winner), white=white, black=black, w=w, k=k)


def legal_lines(game: Game, width: int = WIDTH) -> list[str]:
    """Every legal decision, grouped by kind (draws and end, discards, plays, cuts), in
    lines of at most ``width`` columns."""
    groups: list[list[str]] = [[], [], [], []]
    for text in game.legal_decisions():
        kind = text.split(" ")[0]
        groups[{"draw": 0, "end": 0, "discard": 1, "play": 2, "cut": 3}.get(kind, 0)].append(text)
    head = _("legal:")
    return legal_in_lines(groups, head="  " + head, hang=" " * (len(head) + 3), width=width)


def compact_legal(game: Game) -> str:
    """The legal decisions counted by kind on one line, with ``legal`` to see them all."""
    return counted_legal(game.legal_decisions(), by_name=True)


# -- the conversation -----------------------------------------------------------------


class KahunaTerminalGame(TerminalSession[Game]):
    """One Kahuna game at one terminal; ``seats[p]`` is None for a person, else a bot.
    The loop and the shared commands are ``TerminalSession``'s; here, what hidden hands
    change: every line is written for ``viewer``, and the hand-over screen clears."""

    HELP = HELP
    TYPE_A_DECISION = N_("Type a decision (like play HUNA>ELAI) or help.")
    UNDO_ALONE = N_("undo works when one person plays against bots (a hand would show)")

    def __init__(
        self,
        game: Game,
        seats: Sequence[Bot | None],
        *,
        read: Callable[[str], str] | None = None,
        out: TextIO | None = None,
        clear: bool = True,
    ) -> None:
        super().__init__(game, seats, read=read, out=out)
        self.clear = clear

    @property
    def shown_to(self) -> int | None:
        """The person whose hand is on screen (the loop's ``at_keyboard``)."""
        return self.at_keyboard

    def render(self) -> str:
        return render(self.game, self.viewer)

    def name_of(self, colour_: str) -> str:
        return colour(colour_)

    def introduction(self) -> str:
        g = self.game
        return _(
            "Kahuna, seed {seed}: {white} is {white_seat}, {black} is {black_seat}; "
            "{colour} starts."
        ).format(
            seed=g.seed,
            white=colour("white"),
            white_seat=self.seat_name(0),
            black=colour("black"),
            black_seat=self.seat_name(1),
            colour=colour(PLAYERS[g.start]),
        )

    def result_text(self) -> str:
        return describe_result(self.game)

    def pass_screen(self, p: int) -> str:
        """With two people at one keyboard, clear the screen and wait for the new player,
        so the other never sees this hand."""
        if self.clear:
            self.out.write(CLEAR_SCREEN)
        self.say(
            "\n" * 3
            + _("{colour}: look away now, and hand over the keyboard.").format(
                colour=colour(PLAYERS[1 - p])
            )
        )
        return _("{colour}, press Enter to see your hand ").format(colour=colour(PLAYERS[p]))

    def passed(self, p: int) -> None:
        if self.clear:
            self.out.write(CLEAR_SCREEN)

    def decision_text(self, decision: int) -> str:
        return describe_decision(self.game, decision, self.viewer)

    def describe(self, events: Any, viewer: int | None) -> list[str]:
        return describe_events(self.game, events, viewer)

    def bot_decided(self, decision: int) -> None:
        if decision >= DRAW_PILE and not self.game.is_terminal():  # the turn is over
            self.draw()

    def show_turn(self) -> bool:
        game = self.game
        phase = _(PHASE_PROMPTS[game.phase_name]) if game.phase_name in PHASE_PROMPTS else ""
        line = _("{colour}: {phase}.").format(colour=colour(game.to_move or ""), phase=phase)
        if game.must_draw:
            line += " " + _("You must draw (the opponent declined, K23).")
        self.say(line)
        self.list_legal()
        return True

    def legal_lines(self) -> list[str]:
        return legal_lines(self.game)

    def compact_legal(self) -> str:
        return compact_legal(self.game)

    def extra_commands(self) -> dict[str, Callable[[str], None]]:
        return {"hand": lambda _rest: self.say(table_lines(self.game, self.viewer)[-1])}

    def decided(self, decision: int, before: Any, mover: int) -> None:
        if decision >= DRAW_PILE:  # a draw or end closed the turn
            if len(self.people) > 1:
                self.at_keyboard = None  # the next person gets the hand-over screen
        else:
            self.say(table_lines(self.game, mover)[-1])

    def hint(self) -> None:
        """What the search bot would decide for the person to move, and how often that
        won in its playouts: the same position always gets the same hint (a fixed
        iteration budget, seeded by the number of decisions made)."""
        self.say(hint_line(self.game))

    def read_save(self, name: str) -> Game:
        return Game.from_json(read_text(name, MAX_SAVE_BYTES))

    def loaded(self, name: str) -> None:
        game = self.game
        self._drawn = False
        self.at_keyboard = None if len(self.people) > 1 else self.at_keyboard
        self.say(
            printable(
                _("loaded {name}: seed {seed}, round {round}").format(
                    name=name, seed=game.seed, round=game.round
                )
            ),
            wrap=False,
        )
        if len(self.people) <= 1:
            self.draw()


def hint_line(game: Game, iterations: int = HINT_ITERATIONS) -> str:
    """The search bot's choice for the player to move, as a sentence (``hint``)."""
    from haleakala.ai import make_bot

    obvious = obvious_hint(game, colour)
    if obvious is not None:
        return obvious
    bot = make_bot("ai", seed=len(game.history), game="kahuna", iterations=iterations)
    stats = bot.search(game)  # type: ignore[attr-defined]
    best = max(stats, key=lambda a: (stats[a][0], stats[a][1]))
    chance = round(100 * stats[best][1])
    return _(
        "hint for {colour}: {decision} (the search bot's choice: it won {chance} % of the "
        "games it played out from here)"
    ).format(colour=colour(game.to_move or ""), decision=game.format(best), chance=chance)


def open_session(
    game: Game, seats: Sequence[Bot | None], *, out: TextIO, tty: bool, delay: float | None
) -> KahunaTerminalGame:
    """Kahuna's terminal hook (its ``GameDescription.terminal``): the screen is redrawn
    on a terminal; ``delay`` is Haleakala's watch pause, which Kahuna has no use for."""
    return KahunaTerminalGame(game, seats, out=out, clear=tty)
