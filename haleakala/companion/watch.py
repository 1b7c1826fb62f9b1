"""RFID kit: the readers' reports, and what the controller does about the board.

Beach reports only record what lies where (``sensed``); the whole board is compared with
the game once a snapshot is complete (``settle``). ``reconcile.judge`` says what the board
means; the watch acts on it: make the decision (after a moment for a disc that may still
become another), show a refusal and hold the board until it matches the game again, or
wait quietly while the companion's decision is being laid out. When the game itself moves
discs (a distribution, an undo, a new game) the board must first match again.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import TYPE_CHECKING

from haleakala.games.haleakala.words import notes as N
from haleakala.hal.events import BEACHES, BeachContents

from . import reconcile as R
from . import ui as U
from .physical import beach_discs, disc_instructions

if TYPE_CHECKING:
    from .host import Host
    from .menu import Menus

log = logging.getLogger("haleakala.companion")


class BoardWatch:
    def __init__(self, host: Host, menus: Menus) -> None:
        self.host = host
        self.menus = menus
        self.sensed: list[frozenset[object]] = list(beach_discs(host.game))
        self.dirty = False  # beach reports not yet compared with the game

    def on_beach(self, event: BeachContents) -> None:
        h = self.host
        beach = event.beach
        if isinstance(beach, bool) or not isinstance(beach, int) or not 0 <= beach < BEACHES:
            log.warning("beach contents for beach %r ignored: beaches are 0..5", beach)
            h.show(*N.no_such_beach_reported(beach))
            return
        if h.kit != "rfid":
            log.info("beach contents ignored: the %s kit has no readers", h.kit)
            return
        try:
            discs: frozenset[object] = frozenset(event.discs)
        except TypeError:
            discs = frozenset({"?"})
        self.sensed[beach] = discs
        overlay = h.panel.overlay
        if overlay is not None and overlay.kind == U.MENU:
            self.menus.close()  # a hand on the board: the board matters now
        self.dirty = True  # compared once the snapshot's other beaches are in

    def settle(self) -> None:
        if self.host.paused is not None:
            return  # compared once the pending decision is saved
        self.dirty = False
        self.reconcile()

    def changed_by_game(self, headline: U.Words) -> None:
        """The game moved discs (or was replaced): on the RFID kit the players must now make
        the board match before any disc on it means a decision again."""
        h = self.host
        if h.kit != "rfid":
            return
        hold = None
        if tuple(self.sensed) != beach_discs(h.game):
            hold = U.Mismatch((), headline, "", (), refusal=False)
        h.panel = replace(h.panel, pending=None, hold=hold)
        self.reconcile()

    def reconcile(self, settled: bool = False) -> None:
        """Judge the sensed board (``reconcile.judge``) and act on the verdict: make the
        decision, wait for it to settle, or show the refusal and hold the board."""
        h = self.host
        sensed = tuple(self.sensed)
        if h.panel.pending is not None:
            h.panel = replace(h.panel, pending=None)
        hold = h.panel.hold
        proposal = h.seat.proposal_for(h.game)
        verdict = R.judge(h.game, sensed, companion=h.seat.colour, proposal=proposal)
        if isinstance(verdict, R.Agrees):
            h.panel = replace(h.panel, mismatch=None, hold=None)
            if hold is not None:
                h.refresh()
            return
        expected = beach_discs(h.game)
        beaches = R.differing(expected, sensed)
        fixes = tuple(disc_instructions(sensed, expected))  # type: ignore[arg-type]
        if isinstance(verdict, R.Wait):  # on the way to the companion's move: nothing to say
            shown = None if hold is None else replace(hold, beaches=beaches)
            h.panel = replace(h.panel, mismatch=shown)
            return
        if isinstance(verdict, R.Refused):  # refused: why, and wait for the board
            if hold is None or hold.refusal:
                self._refuse(beaches, verdict.headline, verdict.reason, fixes)
                return
            if verdict.headline == R.UNKNOWN_TAG:  # name the stranger, still wait
                shown = U.Mismatch(beaches, verdict.headline, verdict.reason, fixes)
            else:  # the game asked for a change first (discs back, undo, new game)
                shown = replace(hold, beaches=beaches, fixes=fixes)
            h.panel = replace(h.panel, mismatch=shown)
            return
        if hold is not None:  # a legal-looking board on the way back counts for nothing
            h.panel = replace(h.panel, mismatch=replace(hold, beaches=beaches, fixes=fixes))
            return
        h.panel = replace(h.panel, mismatch=None)
        if verdict.settles and not settled and h.settle_s > 0:
            h.panel = replace(h.panel, pending=U.Settling(verdict.decision, h.clock() + h.settle_s))
            return
        h.decide(verdict.decision, verdict.by)

    def _refuse(
        self,
        beaches: tuple[int, ...],
        headline: U.Words,
        reason: U.Words,
        fixes: tuple[U.Words, ...],
    ) -> None:
        """A board change the game does not accept: say why, and wait until the board
        matches the game again (an intermediate board on the way back means nothing)."""
        h = self.host
        h.panel = replace(
            h.panel,
            mismatch=U.Mismatch(beaches, headline, reason, fixes),
            hold=U.Mismatch((), headline, reason, ()),
        )
        log.info("refused board change: %s: %s", headline, reason)
