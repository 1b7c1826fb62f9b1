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

import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from haleakala.i18n import N_, _, ngettext
from haleakala.i18n.refusals import say
from haleakala.kahuna import PLAYERS, Game, SaveError
from haleakala.kahuna.events import Bridge, Drew, Event, Revealed, Scored, Shuffled, Stone
from haleakala.kahuna.game import NONE
from haleakala.kahuna.notation import DISCARD, DRAW_PILE
from haleakala.rules.serialize import printable
from haleakala.words.kahuna import colour

from .render import WIDTH
from .session import fit
from .textfile import MAX_SAVE_BYTES, UnreadableFile, read_text

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

CLEAR_SCREEN = "\x1b[H\x1b[2J"
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
    legal = game.legal_decisions()
    groups: list[list[str]] = [[], [], [], []]
    for text in legal:
        kind = text.split(" ")[0]
        groups[{"draw": 0, "end": 0, "discard": 1, "play": 2, "cut": 3}.get(kind, 0)].append(text)
    head = _("legal:")
    hang = " " * (len(head) + 3)
    out: list[str] = []
    for group in groups:
        line = ""
        for text in group:
            if line and len(line) + len(text) + 3 > width:
                out.append(line)
                line = ""
            line = f"{line} | {text}" if line else (("  " + head) if not out else hang) + " " + text
        if line:
            out.append(line)
    return out


def compact_legal(game: Game) -> str:
    """The legal decisions counted by kind on one line, with ``legal`` to see them all."""
    legal = game.legal_decisions()
    counts: dict[str, int] = {}
    for text in legal:
        kind = text.split(" ")[0]
        counts[kind] = counts.get(kind, 0) + 1
    kinds = " · ".join(f"{kind} {n}" if n > 1 else kind for kind, n in sorted(counts.items()))
    return "  " + ngettext(
        "{n} legal decision ({kinds}): legal shows it",
        "{n} legal decisions ({kinds}): legal lists them",
        len(legal),
    ).format(n=len(legal), kinds=kinds)


# -- the conversation -----------------------------------------------------------------


class KahunaTerminalGame:
    """One Kahuna game at one terminal; ``seats[p]`` is None for a person, else a bot."""

    def __init__(
        self,
        game: Game,
        seats: Sequence[Bot | None],
        *,
        read: Callable[[str], str] = input,
        out: TextIO | None = None,
        clear: bool = True,
    ) -> None:
        self.game = game
        self.seats = list(seats)
        self.read = read
        self.out = out if out is not None else sys.stdout
        self.clear = clear
        self.people = [p for p, seat in enumerate(self.seats) if seat is None]
        self.shown_to: int | None = None  # the person whose hand is on screen
        self.undo_stack: list[Game] = []
        self._drawn = False  # is the board on screen up to date?
        self._listed: tuple[int, int] | None = None  # (decisions made, player) listed for

    def say(self, text: str = "", *, wrap: bool = True) -> None:
        """Print, each line at most 80 columns (wrapped at spaces, continuations indented);
        a message about a file stays one line (``wrap=False``), its path as long as it is."""
        for line in text.split("\n"):
            for part in fit(line) if wrap else [line]:
                print(part, file=self.out)

    def draw(self) -> None:
        self.say(render(self.game, self.viewer))
        self._drawn = True

    @property
    def viewer(self) -> int | None:
        """Whose eyes are on the screen: the only person, or the person at the keyboard."""
        if len(self.people) == 1:
            return self.people[0]
        return self.shown_to

    def _seat(self, p: int) -> str:
        seat = self.seats[p]
        return _("a person") if seat is None else _("the {bot} bot").format(bot=seat.name)

    def run(self) -> int:
        g = self.game
        self.say(
            _(
                "Kahuna, seed {seed}: {white} is {white_seat}, {black} is {black_seat}; "
                "{colour} starts."
            ).format(
                seed=g.seed,
                white=colour("white"),
                white_seat=self._seat(0),
                black=colour("black"),
                black_seat=self._seat(1),
                colour=colour(PLAYERS[g.start]),
            )
        )
        if self.people:
            self.say(_("Type a decision (like play HUNA>ELAI) or help."))
        while not self.game.is_terminal():
            p = self.game.decider
            seat = self.seats[p]
            if seat is not None:
                self.bot_decision(seat)
            else:
                if self.shown_to != p and not self.hand_over(p):
                    return 0
                if not self.person_decision():
                    return 0
        if not self._drawn:
            self.draw()
        self.say(describe_result(self.game))
        return 0

    def hand_over(self, p: int) -> bool:
        """Before a person's turn: with two people at one keyboard, clear the screen and
        wait for the new player, so the other never sees this hand. False: input ended."""
        if len(self.people) > 1:
            if self.clear:
                self.out.write(CLEAR_SCREEN)
            self.say(
                "\n" * 3
                + _("{colour}: look away now, and hand over the keyboard.").format(
                    colour=colour(PLAYERS[1 - p])
                )
            )
            try:
                self.read(
                    _("{colour}, press Enter to see your hand ").format(colour=colour(PLAYERS[p]))
                )
            except EOFError:
                self.say("\n" + _("end of input: the game is left unfinished"))
                return False
            if self.clear:
                self.out.write(CLEAR_SCREEN)
            self._drawn = False
        self.shown_to = p
        if not self._drawn:
            self.draw()
        return True

    def bot_decision(self, bot: Bot) -> None:
        game = self.game
        who = game.to_move or ""
        decision = bot.decide(game)
        text = describe_decision(game, decision, self.viewer)
        events = game.apply(decision)
        self._drawn = False
        self.say(_("{colour} ({bot}): {decision}").format(colour=colour(who), bot=bot.name,
                                                           decision=text))  # fmt: skip
        for line in describe_events(game, events, self.viewer):
            self.say("  " + line)
        if decision >= DRAW_PILE and not game.is_terminal():  # the turn is over
            self.draw()

    def person_decision(self) -> bool:
        game = self.game
        phase = _(PHASE_PROMPTS[game.phase_name]) if game.phase_name in PHASE_PROMPTS else ""
        line = _("{colour}: {phase}.").format(colour=colour(game.to_move or ""), phase=phase)
        if game.must_draw:
            line += " " + _("You must draw (the opponent declined, K23).")
        self.say(line)
        now = (len(game.history), game.decider)
        if self._listed is None or self._listed[1] != now[1] or self._listed[0] < now[0] - 1:
            for text in legal_lines(game):  # the whole list once, at the start of a turn
                self.say(text)
        else:
            self.say(compact_legal(game))
        self._listed = now
        try:
            typed = self.read(f"{colour(game.to_move or '')}> ")
        except EOFError:
            self.say("\n" + _("end of input: the game is left unfinished (save FILE keeps a game)"))
            return False
        return self.command(typed.strip())

    def command(self, line: str) -> bool:
        word, _sep, rest = line.partition(" ")
        word, rest = word.lower(), rest.strip()
        if not line:
            return True
        if word in ("quit", "exit"):
            self.say(_("goodbye: the game is left unfinished"))
            return False
        if word in ("help", "?"):
            self.say(_(HELP))
        elif word == "board":
            self.draw()
        elif word == "hand":
            self.say(table_lines(self.game, self.viewer)[-1])
        elif word == "legal":
            for text in legal_lines(self.game):
                self.say(text)
        elif word == "hint":
            self.hint()
        elif word == "undo":
            self.undo()
        elif word == "save":
            self.save(rest)
        elif word == "load":
            self.load(rest)
        else:
            self.decide(line)
        return True

    def decide(self, line: str) -> None:
        game = self.game
        refusal = game.refusal(line)
        if refusal is not None:
            self.say(_("refused: {reason}").format(reason=say(refusal)))
            return
        before = game.clone()
        decision = game.parse(line)
        me = game.decider
        events = game.apply(decision)
        self.undo_stack.append(before)
        self._drawn = False
        self._listed = (len(game.history), me)
        for text in describe_events(game, events, me):
            self.say("  " + text)
        if decision >= DRAW_PILE:  # a draw or end closed the turn
            if len(self.people) > 1:
                self.shown_to = None  # the next person gets the hand-over screen
        else:
            self.say(table_lines(game, me)[-1])

    def hint(self) -> None:
        """What the search bot would decide for the person to move, and how often that
        won in its playouts: the same position always gets the same hint (a fixed
        iteration budget, seeded by the number of decisions made)."""
        self.say(hint_line(self.game))

    def undo(self) -> None:
        if len(self.people) != 1:
            self.say(_("undo works when one person plays against bots (a hand would show)"))
            return
        if not self.undo_stack:
            self.say(_("nothing to undo"))
            return
        self.game = self.undo_stack.pop()
        self._listed = None
        self.say(_("undone: your last decision and the bot decisions after it"))
        self.draw()

    def save(self, name: str) -> None:
        if not name:
            self.say(_("save needs a file name: save FILE"))
            return
        path = Path(name).expanduser()
        tmp = path.with_name(path.name + ".tmp")
        try:
            tmp.write_text(self.game.to_json() + "\n", encoding="utf-8")
            tmp.replace(path)
        except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
            reason = getattr(exc, "strerror", None) or str(exc)
            self.say(printable(_("cannot save to {name}: {reason}").format(name=name,
                     reason=reason)), wrap=False)  # fmt: skip
            return
        self.say(printable(_("saved to {name} (continue it with: load {name})").format(name=name)),
                 wrap=False)  # fmt: skip

    def load(self, name: str) -> None:
        if not name:
            self.say(_("load needs a file name: load FILE"))
            return
        # Read as Haleakala's saves are: in bytes up to a cap, so /dev/zero or a video is one
        # sentence, not a process that fills its memory; anything else that fails is one too.
        try:
            game = Game.from_json(read_text(name, MAX_SAVE_BYTES))
        except UnreadableFile as exc:
            self.say(printable(_("cannot load {name}: {reason}; the game goes on").format(
                name=name, reason=exc.reason)), wrap=False)  # fmt: skip
            return
        except SaveError as exc:
            self.say(printable(_("cannot load {name}: {reason}; the game goes on").format(
                name=name, reason=exc)), wrap=False)  # fmt: skip
            return
        self.game = game
        self.undo_stack.clear()
        self._listed = None
        self._drawn = False
        self.shown_to = None if len(self.people) > 1 else self.shown_to
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

    if game.is_terminal():
        return _("the game is over: no hint")
    legal = game.legal_actions()
    if len(legal) == 1:
        return _("hint for {colour}: {decision} (the only legal decision)").format(
            colour=colour(game.to_move or ""), decision=game.format(legal[0])
        )
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
