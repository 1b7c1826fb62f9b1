"""The players' hands at a simulated table: a decision made through the physical inputs.

``Hands(session).perform(d)`` makes decision ``d`` as a player would: close a score page or
a menu, put a disputed table right, press the beach's button and turn the encoder to the
option (buttons kit) or lay or lift the tagged discs (RFID kit), press select; it reads the
OLED's chooser like a player reads the screen, and raises ``PerformError`` (with the inputs
tried and what the OLED said) when the companion did not make exactly that decision.
``follow_companion`` is the human carrying out what the solo companion says. Which events
carry a decision out is ``companion.hands``'; this module moves the table's pieces.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from haleakala.companion import ui as U
from haleakala.companion.hands import PerformError, disc_move, option_steps
from haleakala.companion.solo import needs_hands
from haleakala.games.haleakala.decision import Boat, Place, Return, decode

if TYPE_CHECKING:
    from .session import SimSession


class Hands:
    def __init__(self, session: SimSession) -> None:
        self.session = session

    def follow_companion(self, *, block: bool = True) -> str | None:
        """Solo: the players carry out the companion's decision as its OLED says: lay or
        lift its disc (RFID kit), press select after moving a piece (buttons kit: after
        laying the disc), or let a decision with nothing to move go on by itself. Returns
        the decision made (None: not its turn, or ``block=False`` and it is still due)."""
        if not self.session.companions_turn:
            return None
        c = self.session.companion
        if block:
            self.session.await_companion()
        elif c.thinking:
            return None
        done: list[str] = []
        self._clear_way(done)
        d = c.panel.proposal
        if d is None:
            raise PerformError(
                f"no decision of the companion shown (OLED: {' / '.join(self.session.prompt)})"
            )
        before = len(self.session.game.history)
        text = self.session.game.format(d)
        hands = needs_hands(d, self.session.kit)
        if hands == "board":
            self._lay(d, done)
        elif hands == "select":
            self.session.press("select")
            done.append("press select")
        elif block:
            if self.session.scripted_time():
                self.session.advance(c.seat.show_s)
                done.append(f"wait {c.seat.show_s} s")
            else:
                self.session.press("select")
                done.append("press select")
        else:
            return None  # it goes on by itself in a moment
        self._check_made(before, d, f"the companion's {text}", done)
        return text

    def perform(self, d: int, *, block: bool = True) -> list[str]:
        """Make decision ``d`` with the physical inputs a player would use; return them.

        Raises ``PerformError`` (with the inputs tried and what the OLED said) when the
        companion did not make exactly that decision. ``block=False`` (the window, on real
        time): a disc lifted, or laid next to the boat, is left to settle by itself (0.8 s)
        instead of freezing the window while it does.
        """
        c = self.session.companion
        before = len(c.game.history)
        text = c.game.format(d)
        if self.session.companions_turn:
            raise PerformError(
                f"{text}: it is the companion's ({c.solo}) turn; it decides itself "
                "(follow_companion carries its decision out)"
            )
        done: list[str] = []
        self._clear_way(done)
        game = c.game
        move = decode(d, game.board)
        if game.phase_name == "turn" and isinstance(move, Place | Return):
            if self.session.kit == "rfid":
                self._lay(d, done)
                # A disc lifted (it may be on its way elsewhere) or laid next to the boat
                # (the invocation disc may follow) settles for a moment.
                if c.panel.settling:
                    if not block:
                        return done
                    if self.session.scripted_time():
                        self._wait_for(lambda: not c.panel.settling, done)
                    else:
                        # On real time the players say "done" (select) rather than stand
                        # still for the settling time: the same decision, at once.
                        self.session.press("select")
                        done.append("press select")
            else:
                self.session.press(f"beach{move.beach}")
                done.append(f"press beach{move.beach}")
                self._choose(d, done)
        elif game.phase_name == "turn" and isinstance(move, Boat):
            shown = c.shown
            if shown is None or all(o.value != d for o in shown.options):
                self.session.press("select")
                done.append("press select")
            self._choose(d, done)
        else:
            self._choose(d, done)
        self._check_made(before, d, text, done)
        return done

    def _check_made(self, before: int, d: int, what: str, done: list[str]) -> None:
        """PerformError unless decision number ``before`` of the game is now ``d``."""
        game = self.session.game
        history = game.history
        if len(history) <= before or history[before] != d:
            got = game.format(history[before]) if len(history) > before else "nothing"
            oled = " / ".join(self.session.prompt)
            raise PerformError(f"inputs [{', '.join(done)}] for {what} made {got}; OLED: {oled}")

    def _clear_way(self, done: list[str]) -> None:
        """Close score pages and menus, and put a disputed board right, before deciding."""
        c = self.session.companion
        for _ in range(8):
            if c.panel.overlay is not None:
                button = "select" if c.panel.overlay.kind == U.SCORES else "back"
                self.session.press(button)
                done.append(f"press {button}")
                continue
            if c.panel.mismatch is not None or c.panel.must_match:
                self.session.fix_table()
                done.append("fix the table")
                continue
            chooser = c.panel.chooser
            if chooser is not None and chooser.kind in (U.BEACH, U.BOAT) and chooser.cancellable:
                self.session.press("back")  # a beach or boat chooser someone left open
                done.append("press back")
                continue
            return

    def _lay(self, d: int, done: list[str]) -> None:
        """Lay or lift the discs of disc decision ``d`` on the table (RFID kit)."""
        move = disc_move(self.session.game, d)
        if move.lifted:
            (name,) = (disc.name for disc in move.lifted)
            self.session.remove([name])
            done.append(f"take {name} off beach {move.beach}")
        else:
            names = [disc.name for disc in move.laid]
            self.session.place(move.beach, names)
            done.append(f"put {'+'.join(names)} on beach {move.beach}")

    def _choose(self, d: int, done: list[str]) -> None:
        """Turn the encoder to the option whose value is ``d`` and press select."""
        chooser = self.session.companion.shown
        if chooser is None:
            raise PerformError(
                f"no chooser on the OLED for {self.session.game.format(d)} "
                f"(OLED: {' / '.join(self.session.prompt)})"
            )
        steps = option_steps(chooser, d)
        if steps is None:
            raise PerformError(
                f"{self.session.game.format(d)} is not among the options shown "
                f"({', '.join(str(o.label) for o in chooser.options)})"
            )
        if steps:
            self.session.turn(steps)
            done.append(f"turn {steps:+d}")
        self.session.press("select")
        done.append("press select")

    def _wait_for(self, ready: Callable[[], bool], done: list[str], limit: float = 5.0) -> None:
        waited = 0.0
        while not ready() and waited < limit:
            if self.session.scripted_time():
                self.session.advance(0.1)
                waited += 0.1
            else:
                time.sleep(0.02)
                self.session.settle()
                waited += 0.02
        done.append(f"wait {waited:.1f} s")
