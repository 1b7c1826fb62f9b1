"""Kanaloa's sacrifices and cards: temples (N34, N6) and the gods and protection cards
(N35–N39), apart from the rest of the rules in ``game``.

Functions of the game, bound on ``Game`` as methods (``self`` is the game).
"""

from __future__ import annotations

from typing import Literal

from .core import Core
from .events import CardPassed, Event, TempleRaised
from .material import KANE
from .state import NOBODY


class CardRules(Core):
    """Sacrifices and cards of ``Game``."""

    def _do_done(self, i: int, ev: list[Event]) -> None:
        p, g = self.current, self.sac_god
        values = self.m.tile_value
        self.temples[p][g] += sum(values[t] for t in self.sac_tiles)
        for t in self.sac_tiles:
            self.spent[t] += 1
        self.sac_tiles, self.sac_god = [], -1
        ev.append(TempleRaised(p, g, self.temples[p][g]))
        if g == KANE:
            self._too_much_kane(p, ev)
        else:
            self._settle(p, g, ev)
        self._endstep(ev)

    def _card(self, kind: Literal["gods", "protection"], g: int, to: int, ev: list[Event]) -> None:
        table = self.gods if kind == "gods" else self.prot
        old = table[g]
        if old != to:
            table[g] = to
            ev.append(CardPassed(kind, g, old, to))

    def _settle(self, p: int, g: int, ev: list[Event]) -> None:
        """N36, N37: cards after a sacrifice to g."""
        t = [temple[g] for temple in self.temples]
        others = [q for q in range(self.n) if q != p]
        if not self.eligible(p, g) or self.gods[g] == p:
            return
        if all(t[p] > t[q] for q in others):  # N36
            prev = self.gods[g]
            self._card("gods", g, p, ev)
            if prev != NOBODY:
                if self.n == 4:
                    self._card("protection", g, prev, ev)
            elif self.prot[g] == p:
                self._card("protection", g, NOBODY, ev)  # N39
            return
        if self.n != 4 or self.prot[g] == p:
            return
        h, r = self.gods[g], self.prot[g]
        if h != NOBODY and t[p] > t[h]:
            return
        wins = t[p] > t[r] if r != NOBODY else all(t[p] > t[q] for q in others if q != h)
        if wins:  # N37
            self._card("protection", g, p, ev)

    def _next_in_line(self, g: int, excluded: set[int]) -> int:
        """N38: the eligible player not excluded with the strictly highest g temple."""
        best, who = -1, NOBODY
        for q in range(self.n):
            if q in excluded or not self.eligible(q, g):
                continue
            v = self.temples[q][g]
            if v > best:
                best, who = v, q
            elif v == best:
                who = NOBODY
        return who

    def _too_much_kane(self, p: int, ev: list[Event]) -> None:
        """N38: a holder whose Kane temple passed the god's gives his card on."""
        for g in range(4):
            if self.temples[p][KANE] <= self.temples[p][g]:
                continue
            if self.gods[g] == p:
                r = self.prot[g]
                if r != NOBODY:
                    self._card("gods", g, r, ev)
                    self._card("protection", g, self._next_in_line(g, {p, r}), ev)
                else:
                    self._card("gods", g, self._next_in_line(g, {p}), ev)
            elif self.prot[g] == p:
                self._card("protection", g, self._next_in_line(g, {p, self.gods[g]}), ev)
