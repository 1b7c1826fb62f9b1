"""The kit's buttons and encoder: what a press or a turn means in the shown situation.

Select confirms the chooser's line (a decision, the solo companion's decision once its
pieces are moved, a settling disc at once) or, at a turn start, asks whether to move the
boat; back closes an overlay or a beach chooser, else opens the menu; a beach button
(buttons kit) offers the discs that may go onto or leave that beach; the encoder moves the
cursor, or scrolls a long text. Overlays are the ``menu.Menus``' business; a settling disc
the ``watch.BoardWatch``'s.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import TYPE_CHECKING

from haleakala.core.text import Term, Text
from haleakala.games.haleakala import PLAYERS
from haleakala.games.haleakala.decision import Boat, encode
from haleakala.games.haleakala.game import OVER, TURN
from haleakala.games.haleakala.words import labels
from haleakala.games.haleakala.words import notes as N
from haleakala.hal.events import BEACHES, ButtonHeld, ButtonPressed, EncoderTurned

from . import menu
from . import ui as U
from .solo import needs_hands

if TYPE_CHECKING:
    from .host import Host
    from .watch import BoardWatch

log = logging.getLogger("haleakala.companion")


class Keys:
    def __init__(self, host: Host, menus: menu.Menus, watch: BoardWatch) -> None:
        self.host = host
        self.menus = menus
        self.watch = watch

    def press(self, button: str) -> None:
        lesson = self.host.lesson
        if lesson is not None and lesson.intercept(self.host, ButtonPressed(button)):
            return  # a lesson's own buttons: go on, the step before
        if button == "back":
            self.back()
        elif button == "select":
            self.select()
        elif isinstance(button, str) and button.startswith("beach"):
            self.beach(button)
        else:
            log.warning("unknown button %r pressed", button)
            self.host.show(*N.unknown_button(button))

    def back(self) -> None:
        h = self.host
        chooser = h.panel.chooser
        if h.panel.overlay is not None:
            self.menus.back()
        elif chooser is not None and chooser.kind in (U.BEACH, U.BOAT) and chooser.cancellable:
            h.panel = replace(h.panel, chooser=None)
            h.refresh()
        else:
            self.menus.open()

    def select(self) -> None:
        h = self.host
        if h.panel.overlay is not None:
            self.menus.select()
            return
        if h.panel.pending is not None:  # placed next to the boat: no invocation disc, go on
            self.watch.reconcile(settled=True)
            return
        if h.panel.mismatch is not None or h.panel.hold is not None:
            h.show(*N.fix_the_board())
            return
        game = h.game
        chooser = h.panel.chooser
        if chooser is not None and chooser.kind == U.PROPOSAL and chooser.current is None:
            h.show(*N.still_thinking(), refusal=False)
            return
        if chooser is not None and chooser.current is not None:
            value = chooser.current.value
            if chooser.kind == U.PROPOSAL:
                if needs_hands(value, h.kit) == "board":
                    h.show(*N.readers_will_see(labels.describe(game, value)))
                    return
                h.decide(value, "bot")
            elif value == "cancel":
                h.panel = replace(h.panel, chooser=None)
                h.refresh()
            else:
                h.decide(value, "player")
            return
        if game.phase == OVER:
            if game.scorings:
                self.menus.scores(game.scorings[-1], menu.FINAL_SCORES)
            return
        if game.phase == TURN:
            boat = encode(Boat())
            if boat in game.legal_actions():
                h.panel = replace(h.panel, chooser=menu.boat_question(game))
            else:
                refusal = game.refusal(boat)
                h.show(*N.not_now(refusal.words if refusal else ""), refusal=True)

    def beach(self, button: str) -> None:
        h = self.host
        suffix = button[len("beach") :]
        if not suffix.isdigit() or not 0 <= int(suffix) < BEACHES:
            log.warning("button %r names no beach", button)
            h.show(*N.no_such_beach_button(button, BEACHES))
            return
        beach = int(suffix)
        if h.kit == "rfid":
            h.show(*N.readers_see_discs())
            return
        h.panel = replace(h.panel, overlay=None)
        game = h.game
        if game.phase != TURN:
            must = Text(labels.PHASE_WORDS[game.phase])
            h.show(*N.must_first(Term(PLAYERS[game.decider]), must))
            return
        if h.seat.plays(game):
            h.show(*N.companions_turn_press())
            return
        chooser = h.panel.chooser
        if chooser is not None and chooser.kind == U.BEACH and chooser.subject == beach:
            # pressing again cycles, for kits without a knob
            h.panel = replace(h.panel, chooser=chooser.moved(1))
            return
        offered = menu.beach_chooser(game, beach)
        h.panel = replace(h.panel, chooser=offered)
        if offered is None:
            h.show(*N.not_on_beach(beach, menu.why_not_beach(game, beach)), beaches=(beach,))

    def hold(self, button: str) -> None:
        """A long press: on back, undo (``hold_back``); on select, on a kit that speaks,
        repeat the last thing said; any other is still a press."""
        narrator = self.host.narrator
        if button == "select" and narrator is not None and not narrator.voice.silent:
            narrator.repeat()
        else:
            self.press(button)

    def hold_back(self) -> None:
        """A long press on back: undo; in a lesson, leave it (the game stays)."""
        lesson = self.host.lesson
        if lesson is None or not lesson.intercept(self.host, ButtonHeld("back")):
            self.host.undo()

    def turn(self, steps: object) -> None:
        if not isinstance(steps, int) or isinstance(steps, bool):
            log.warning("encoder event with steps %r ignored", steps)
            return
        h = self.host
        if h.lesson is not None and h.lesson.intercept(h, EncoderTurned(steps)):
            return
        p = h.panel
        if p.overlay is not None:
            h.panel = replace(p, overlay=p.overlay.moved(steps))
        elif p.chooser is not None:
            h.panel = replace(p, chooser=p.chooser.moved(steps))
        else:  # a long text on the OLED scrolls (as far as there is text)
            h.scroll_by(steps)
