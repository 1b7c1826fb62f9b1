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

from haleakala.kahuna import PLAYERS, Game, SaveError
from haleakala.kahuna.game import NONE
from haleakala.kahuna.notation import DISCARD, DRAW_PILE
from haleakala.rules.serialize import printable

from .textfile import MAX_SAVE_BYTES, UnreadableFile, read_text

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from haleakala.ai import Bot

HELP = """\
Decisions (notation; initials and lower case are fine: play h>e):
  play HUNA>ELAI                play a HUNA card, lay your bridge on the line ELAI-HUNA
  cut ELAI-HUNA with HUNA+HUNA  play two cards to remove the opponent's bridge ELAI-HUNA
  discard HUNA                  put a card face down under the discard (instead of playing)
  draw pile / draw 2            draw the top card or display card 2 (ends your turn)
  end                           end your turn without drawing (declining, K23)
Commands:
  board   draw the board again      hand    show your hand      legal   legal decisions
  undo    take back your last decision (one person against bots only)
  save FILE / load FILE             help    this text           quit    leave the game"""

CLEAR_SCREEN = "\x1b[H\x1b[2J"
PHASE_PROMPTS = {
    "open": "play cards (play X>Y, cut X-Y with X+Y), or discard, then draw or end",
    "played": "play more cards, then draw (draw pile, draw 1..3) or end",
    "discarded": "discard more cards, then draw (draw pile, draw 1..3) or end",
}


# -- the board as text (pure) ---------------------------------------------------------


def board_lines(game: Game) -> list[str]:
    """Islands with stones and majorities, then every line and its bridge."""
    b = game.board
    names = b.islands
    out = ["Islands    stone   white black free  (majority = more than half, K5)"]
    for i, name in enumerate(names):
        stone = game.stone[i]
        w, k = game.held(0, i), game.held(1, i)
        free = len(b.lines_of[i]) - w - k
        mark = PLAYERS[stone] if stone != NONE else "-"
        out.append(f"  {name}     {mark:<7} {w:>5} {k:>5} {free:>4}   of {len(b.lines_of[i])}, "
                   f"{b.need[i]} for a majority")  # fmt: skip
    out.append("Lines (W white bridge, B black bridge, . free):")
    cells = []
    for line, name in enumerate(b.line_names):
        owner = game.bridge[line]
        cells.append(f"{name} {'.' if owner == NONE else 'WB'[owner]}")
    for row in range(0, len(cells), 5):
        out.append("  " + "   ".join(cells[row : row + 5]))
    return out


def table_lines(game: Game, viewer: int | None) -> list[str]:
    """Display, pile, discard, supplies and scores; the hand of ``viewer`` only."""
    names = game.board.islands
    display = "  ".join(
        f"{s + 1}:{names[c] if c != NONE else '----'}" for s, c in enumerate(game.display)
    )
    buried = len(game.buried[0]) + len(game.buried[1])
    out = [
        f"Display {display}   pile {len(game.pile)} cards   discard {len(game.discard)} face up"
        + (f" + {buried} face down" if buried else ""),
    ]
    totals = game.totals()
    for p, c in enumerate(PLAYERS):
        out.append(
            f"  {c:<5}  {game.bridges_left(p):>2} bridges and {game.stones_left(p):>2} stones "
            f"in supply, {game.hand_size(p)} cards in hand, {totals[p]} points"
        )
    if viewer is not None:
        hand = " ".join(game.hand_cards(viewer)) or "(empty)"
        out.append(f"Your hand ({PLAYERS[viewer]}): {hand}")
    return out


def render(game: Game, viewer: int | None) -> str:
    head = f"Kahuna, round {game.round} of 3"
    if game.last_turns:
        head += ", last turns (K26)"
    return "\n".join([head, *board_lines(game), *table_lines(game, viewer)])


def describe_decision(game: Game, decision: int, viewer: int | None) -> str:
    """What the table sees of a decision: a face-down discard names no card to others."""
    who = game.decider
    if DISCARD <= decision < DRAW_PILE and viewer != who:
        return "discards a card face down"
    return game.format(decision)


def describe_events(game: Game, events: list[tuple], viewer: int | None) -> list[str]:
    """The automatic effects, for ``viewer``: a card drawn from the pile is named only to
    the player who drew it."""
    b = game.board
    names = b.islands
    out = []
    for event in events:
        kind = event[0]
        if kind == "stone":
            _, p, island, what = event
            out.append(f"{PLAYERS[p]} stone {what} on {names[island]}")
        elif kind == "bridge":
            out.append(f"{PLAYERS[event[1]]} bridge {b.line_names[event[2]]} removed")
        elif kind == "draw":
            _, p, source, card = event
            if source == "pile":
                seen = names[card] if viewer == p else "a card"
                out.append(f"{PLAYERS[p]} draws {seen} from the pile")
            else:
                out.append(f"{PLAYERS[p]} takes {names[card]} from display slot {source + 1}")
        elif kind == "reveal":
            out.append(f"display slot {event[1] + 1}: {names[event[2]]}")
        elif kind == "scoring":
            r = event[1]
            isl, pts, tot = r["islands"], r["points"], r["totals"]
            out.append(
                f"scoring {r['round']}: islands white {isl['white']}, black {isl['black']}; "
                f"points white {pts['white']}, black {pts['black']}; "
                f"totals white {tot['white']}, black {tot['black']}"
            )
        elif kind == "shuffle":
            out.append(f"round {event[1]}: the discard pile is shuffled into a new pile")
    return out


def describe_result(game: Game) -> str:
    r = game.result()
    if r is None:
        return f"game not over: {game.to_move} to play, round {game.round}"
    w, k = r.totals
    if r.reason == "wipeout":
        loser = "black" if r.winner == "white" else "white"
        return (
            f"{r.winner} wins at once: every {loser} bridge was removed in round "
            f"{game.round} (K29). Points: white {w}, black {k}."
        )
    if r.winner is None:
        return f"A draw: white {w}, black {k}, third scoring and bridges tied too (K28)."
    why = {"points": "", "third": " (tied: the third scoring decides, K28)",
           "bridges": " (tied twice: more bridges on the board, K28)"}[r.reason]  # fmt: skip
    return f"{r.winner} wins: white {w}, black {k}{why}."


def legal_lines(game: Game) -> list[str]:
    legal = game.legal_decisions()
    out, line = [], "  legal:"
    for text in legal:
        if len(line) + len(text) + 3 > 96:
            out.append(line)
            line = "        "
        line += f" {text} |"
    out.append(line.rstrip(" |"))
    return out


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

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    @property
    def viewer(self) -> int | None:
        """Whose eyes are on the screen: the only person, or the person at the keyboard."""
        if len(self.people) == 1:
            return self.people[0]
        return self.shown_to

    def run(self) -> int:
        g = self.game
        seats = ", ".join(
            f"{c} is {'a person' if s is None else f'the {s.name} bot'}"
            for c, s in zip(PLAYERS, self.seats, strict=True)
        )
        self.say(f"Kahuna, seed {g.seed}: {seats}; {PLAYERS[g.start]} starts.")
        if self.people:
            self.say("Type a decision (like play HUNA>ELAI) or help.")
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
        self.say(render(self.game, self.viewer))
        self.say(describe_result(self.game))
        return 0

    def hand_over(self, p: int) -> bool:
        """Before a person's turn: with two people at one keyboard, clear the screen and
        wait for the new player, so the other never sees this hand. False: input ended."""
        if len(self.people) > 1:
            if self.clear:
                self.out.write(CLEAR_SCREEN)
            self.say("\n" * 3 + f"{PLAYERS[1 - p]}: look away now, and hand over the keyboard.")
            try:
                self.read(f"{PLAYERS[p]}, press Enter to see your hand ")
            except EOFError:
                self.say("\nend of input: the game is left unfinished")
                return False
            if self.clear:
                self.out.write(CLEAR_SCREEN)
        self.shown_to = p
        self.say(render(self.game, self.viewer))
        return True

    def bot_decision(self, bot: Bot) -> None:
        game = self.game
        who = game.to_move
        decision = bot.decide(game)
        text = describe_decision(game, decision, self.viewer)
        events = game.apply(decision)
        self.say(f"{who} ({bot.name}): {text}")
        for line in describe_events(game, events, self.viewer):
            self.say("  " + line)
        if decision >= DRAW_PILE and not game.is_terminal():  # the turn is over
            self.say(render(game, self.viewer))

    def person_decision(self) -> bool:
        game = self.game
        phase = PHASE_PROMPTS.get(game.phase_name, "")
        must = " You must draw (the opponent declined, K23)." if game.must_draw else ""
        self.say(f"{game.to_move}: {phase}.{must}")
        for line in legal_lines(game):
            self.say(line)
        try:
            line = self.read(f"{game.to_move}> ")
        except EOFError:
            self.say("\nend of input: the game is left unfinished (save FILE keeps a game)")
            return False
        return self.command(line.strip())

    def command(self, line: str) -> bool:
        word, _, rest = line.partition(" ")
        word, rest = word.lower(), rest.strip()
        if not line:
            return True
        if word in ("quit", "exit"):
            self.say("goodbye: the game is left unfinished")
            return False
        if word in ("help", "?"):
            self.say(HELP)
        elif word == "board":
            self.say(render(self.game, self.viewer))
        elif word == "hand":
            self.say(table_lines(self.game, self.viewer)[-1])
        elif word == "legal":
            for text in legal_lines(self.game):
                self.say(text)
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
        reason = game.why_illegal(line)
        if reason is not None:
            self.say(f"refused: {reason}")
            return
        before = game.clone()
        decision = game.parse(line)
        me = game.decider
        events = game.apply(decision)
        self.undo_stack.append(before)
        for text in describe_events(game, events, me):
            self.say("  " + text)
        if decision >= DRAW_PILE:  # a draw or end closed the turn
            if len(self.people) > 1:
                self.shown_to = None  # the next person gets the hand-over screen
        else:
            self.say(table_lines(game, me)[-1])

    def undo(self) -> None:
        if len(self.people) != 1:
            self.say("undo works when one person plays against bots (a hand would show)")
            return
        if not self.undo_stack:
            self.say("nothing to undo")
            return
        self.game = self.undo_stack.pop()
        self.say("undone: your last decision and the bot decisions after it")
        self.say(render(self.game, self.viewer))

    def save(self, name: str) -> None:
        if not name:
            self.say("save needs a file name: save FILE")
            return
        path = Path(name).expanduser()
        tmp = path.with_name(path.name + ".tmp")
        try:
            tmp.write_text(self.game.to_json() + "\n", encoding="utf-8")
            tmp.replace(path)
        except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
            reason = getattr(exc, "strerror", None) or str(exc)
            self.say(printable(f"cannot save to {name}: {reason}"))
            return
        self.say(f"saved to {printable(name)} (continue it with: load {printable(name)})")

    def load(self, name: str) -> None:
        if not name:
            self.say("load needs a file name: load FILE")
            return
        # Read as Haleakala's saves are: in bytes up to a cap, so /dev/zero or a video is one
        # sentence, not a process that fills its memory; anything else that fails is one too.
        try:
            game = Game.from_json(read_text(name, MAX_SAVE_BYTES))
        except UnreadableFile as exc:
            self.say(f"cannot load {printable(name)}: {exc.reason}; the game goes on")
            return
        except SaveError as exc:
            self.say(f"cannot load {printable(name)}: {exc}; the game goes on")
            return
        self.game = game
        self.undo_stack.clear()
        self.shown_to = None if len(self.people) > 1 else self.shown_to
        self.say(f"loaded {printable(name)}: seed {game.seed}, round {game.round}")
        if len(self.people) <= 1:
            self.say(render(game, self.viewer))
