"""The Kanaloa table behind the window: seats, what a click offers, and the bots' turns.
Pure (no pygame), so the mouse logic is tested without a display.

A click names a thing of the map (an island, a current, a tile on an island, a tile a player
holds); the table turns it into the legal decisions of the game's notation that use that
thing (KANALOA-NOTATION). One such decision is made at once; several are offered as buttons
(``choices``); none leaves the state alone, says why and offers the whole legal list, so the
list is always there as a fallback. Nothing is hidden but the bag's order (N12), so every
seat sees the same table and two people need no hand-over screen.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from haleakala.games.kanaloa.game import Game
from haleakala.games.kanaloa.refusals import shown
from haleakala.games.kanaloa.views.board import describe_events
from haleakala.games.kanaloa.words import colour
from haleakala.i18n import _, render

AT_ISLAND = ("start", "volcano", "remove", "land", "place", "dolphin")
"""Decisions whose one argument is an island: a click on the island makes them."""


@dataclass
class Seat:
    """Who plays a colour: a person (``bot`` None) or a bot."""

    bot: Any = None

    @property
    def human(self) -> bool:
        return self.bot is None


class KanaloaTable:
    """One game at the window's table; every change goes through a method here."""

    def __init__(self, game: Game, seats: list[Seat]) -> None:
        self.game = game
        self.seats = seats
        self.choices: list[str] = []  # the decisions the last click offered
        self.message = ""
        self.log: list[str] = []  # "Rot: move HONU>KAI" (in the language in use), newest last
        self.changes = 0  # bumped on every change, so the window redraws only then

    # -- whose click ----------------------------------------------------------------------

    @property
    def waiting_for(self) -> int | None:
        """The player whose click is awaited (None: game over, or a bot decides)."""
        game = self.game
        if game.is_terminal():
            return None
        return game.decider if self.seats[game.decider].human else None

    def offered(self) -> list[str]:
        """What the decision buttons show: the last click's decisions, else the legal list."""
        if self.waiting_for is None:
            return []
        return self.choices or self.game.legal_decisions()

    def _say(self, text: str) -> None:
        self.message = text
        self.changes += 1

    # -- clicks ---------------------------------------------------------------------------

    def _legal(self) -> list[str] | None:
        if self.game.is_terminal():
            self._say(_("The game is over."))
            return None
        if self.waiting_for is None:
            self._say(_("Wait: {colour} (a bot) decides.").format(
                colour=colour(self.game.to_move or "")))  # fmt: skip
            return None
        return self.game.legal_decisions()

    def _offer(self, found: list[str], what: str) -> str | None:
        """Make the one decision found, or offer several, or say none fits; the decision
        made, if any."""
        if len(found) == 1:
            self.choices = []
            self.decide(found[0])
            return found[0]
        if found:
            self.choices = found
            self._say(_("{what}: choose one of these decisions").format(what=what))
        else:
            self.choices = []
            self._say(_("{what}: no legal decision uses it now; here are the legal ones").format(
                what=what))  # fmt: skip
        return None

    def click_island(self, island: int) -> str | None:
        legal = self._legal()
        if legal is None:
            return None
        name = self.game.m.islands[island]
        found = [t for t in legal if t.split(" ")[0] in AT_ISLAND and t.split(" ")[1] == name]
        found += [t for t in legal if t.startswith("move ") and t.endswith(">" + name)]
        return self._offer(found, name)

    def click_current(self, current: int) -> str | None:
        legal = self._legal()
        if legal is None:
            return None
        m = self.game.m
        a, b = (m.islands[i] for i in m.currents[current])
        ways = {f"{a}>{b}", f"{b}>{a}", f"{a}-{b}"}
        found = [t for t in legal if len(t.split(" ")) > 1 and t.split(" ")[1] in ways]
        return self._offer(found, f"{a}-{b}")

    def click_island_tile(self, island: int, tile: str) -> str | None:
        legal = self._legal()
        if legal is None:
            return None
        name = self.game.m.islands[island]
        found = [t for t in legal if t in (f"take {tile}", f"give {tile}")]
        found += [t for t in legal if t.startswith("swap ") and f"{name}:{tile}" in t.split(" ")]
        return self._offer(found, f"{name} {tile}")

    def click_hand_tile(self, player: int, tile: str) -> str | None:
        legal = self._legal()
        if legal is None:
            return None
        who = self.game.players[player]
        found = [t for t in legal if t.startswith(f"sacrifice {tile} to ")]
        found += [t for t in legal if t in (f"add {tile}", f"rob {who} {tile}")]
        return self._offer(found, f"{colour(who)} {tile}")

    def click_choice(self, k: int) -> str | None:
        offered = self.offered()
        if not 0 <= k < len(offered):
            return None
        self.choices = []
        self.decide(offered[k])
        return offered[k]

    def clear(self) -> None:
        self.choices = []
        self._say("")

    # -- decisions ------------------------------------------------------------------------

    def decide(self, text: str) -> None:
        """A person's decision: refused with the rules' sentence (naming its ruling), or made."""
        refused = self.game.refusal(text)
        if refused is not None:
            self._say(_("refused: {reason}").format(reason=render(shown(refused))))
            return
        self._apply(self.game.parse(text))

    def _apply(self, code: int) -> None:
        game = self.game
        who = game.to_move or ""
        text = game.format(code)
        events = game.apply(code)
        self.log.append(_("{colour}: {decision}").format(colour=colour(who), decision=text))
        for line in describe_events(game, events):
            self.log.append(line)
        del self.log[:-60]
        self.message = ""
        self.changes += 1

    def update(self) -> bool:
        """One bot decision if a bot decides now; whether one was made."""
        game = self.game
        if game.is_terminal() or self.seats[game.decider].human:
            return False
        self._apply(self.seats[game.decider].bot.decide(game))
        return True
