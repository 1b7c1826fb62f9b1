"""Kanaloa's automatic steps: refills and the volcano count (N27, N28, N47), the end step's
entry (N18), the end and the beginning of turns (N20, N25, N29, N32, N33), the result (N48).

Functions of the game, bound on ``Game`` as methods (``self`` is the game). They are never
decisions: ``apply`` reaches them after the decision that causes them.
"""

from __future__ import annotations

from .core import Core
from .events import (
    Drew,
    Ended,
    Erupted,
    Event,
    LostTurn,
    ReserveUsed,
    Snapshot,
    TurnBegan,
    VolcanoDrawn,
    VolcanoRemoved,
)
from .state import (
    DOLPHIN,
    ENDSTEP,
    LAND,
    MAIN,
    NOBODY,
    OVER,
    PELE,
    REMOVE,
    SUPPLY,
    VOLCANO,
    result_of,
)


class TurnRules(Core):
    """The automatic steps of ``Game``."""

    def _refill(self, x: int, ev: list[Event]) -> None:
        """N27, N28, N47: draw until an offering, counting volcano tiles."""
        while True:
            if not self.bag:
                if self.reserve is None:  # cannot happen: the reserve holds the last volcano
                    return
                self.bag, self.reserve = self.reserve, None
                ev.append(ReserveUsed(tuple(self.bag)))
            t = self.bag.pop(0)
            if t == self.volcano_tile:
                self.volcanoes += 1
                ev.append(VolcanoDrawn(self.volcanoes))
                if self.volcanoes >= self.end_count:
                    self._finish(ev)
                    return
                if self.volcanoes % 2 == 0 and not self.eruption_due and self.volcano < 0:
                    self.eruption_due, self.erupt_count = True, self.volcanoes
                continue
            self.tiles[x] = sorted(self.tiles[x] + [t])
            ev.append(Drew(t, x))
            return

    def _endstep(self, ev: list[Event]) -> None:
        """N18 step 7: entered, and kept, only while something in it is available."""
        p = self.current
        self.decider = p
        options = self._endstep_options(p)
        if options:
            self.phase = ENDSTEP
            self._legal = [*sorted(set(options)), self.c.start["end"]]  # end: the last code
        else:
            self._end_turn(ev)

    def _end_turn(self, ev: list[Event]) -> None:
        p = self.current
        self.stun[p] = [False, False]  # N32, L1: a stun lasts to the end of the next turn
        if self.volcano >= 0 and self.placer == p:
            self.volcano_turns += 1
            if self.volcano_turns == 2:  # N33
                ev.append(VolcanoRemoved(self.volcano))
                self.volcano, self.placer = -1, -1
        if self.eruption_due:  # N29
            self.eruption_due = False
            pele = self.gods[PELE] if self.gods[PELE] != NOBODY else p
            ev.append(Erupted(self.erupt_count, pele))
            self._begin_turn(pele, True, ev)
        else:
            self._begin_turn((p + 1) % self.n, False, ev)

    def _begin_turn(self, p: int, eruption: bool, ev: list[Event]) -> None:
        self.turn += 1
        self.current = self.decider = p
        self.eruption_turn = eruption
        self.action_used = False
        self.forbidden = []
        self.pending = -1
        self.arrive = -1
        ev.append(TurnBegan(self.turn, p, eruption))
        if self.snapshots:  # the log's optional state record: the position as the turn begins
            ev.append(Snapshot(self.clone()))
        if eruption:
            self.phase = VOLCANO
        else:
            self._after_volcano(ev)

    def _after_volcano(self, ev: list[Event]) -> None:
        p = self.current
        if SUPPLY not in self.loc[p] and not self.lono_card(p):  # N20
            self.phase = REMOVE
        else:
            self._after_upkeep(ev)

    def _after_upkeep(self, ev: list[Event]) -> None:
        p = self.current
        locs = self.loc[p]
        if DOLPHIN in locs:  # N25
            self.phase = LAND
        elif all(x < 0 or self.stun[p][k] for k, x in enumerate(locs)):  # N32: lost
            ev.append(LostTurn(p))
            self._end_turn(ev)
        else:
            self.phase = MAIN

    def _finish(self, ev: list[Event]) -> None:
        """N47, N48: the game ends at once."""
        self.outcome = result_of(self.temples)
        self.phase = OVER
        self._legal = None
        ev.append(Ended(self.outcome))
