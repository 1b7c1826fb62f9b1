"""A player's hands: a decision turned into the input events that carry it out.

The companion is driven only through its inputs (buttons, encoder, beach reports), so
anything that plays it — the scripted player of ``autoplay``, the simulator's players
(``simulator.session``), the test rig — needs the same translation: which beach button to
press, how far to turn the encoder to reach an option, which discs to lay or lift for the
readers. It lives here once; the callers only decide *which* decision to make.

``events_for`` reads what the companion shows through its public view (``Companion.shown``,
``chooser``, ``settling``, ``sensed_board``), like a player reads the OLED and the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from haleakala.games.haleakala import PLAYERS, Game
from haleakala.games.haleakala.decision import Place, Return, decode, encode
from haleakala.hal.events import (
    INVOCATION,
    BeachContents,
    ButtonPressed,
    Disc,
    EncoderTurned,
    InputEvent,
)

from . import ui as U
from .physical import Beaches, beach_discs

if TYPE_CHECKING:
    from .controller import Companion


class PerformError(RuntimeError):
    """The physical inputs for a decision did not lead the companion to make it."""


@dataclass(frozen=True)
class DiscMove:
    """The discs a disc decision lays on (``laid``) or lifts off (``lifted``) one beach."""

    beach: int
    laid: tuple[Disc, ...] = ()
    lifted: tuple[Disc, ...] = ()


def disc_move(game: Game, d: int) -> DiscMove:
    """What the player to move does with their discs to carry out ``d`` (a placement or a
    return); ValueError for a decision that moves no disc."""
    colour = PLAYERS[game.decider]
    move = decode(d, game.board)
    if isinstance(move, Return):
        return DiscMove(move.beach, lifted=(Disc(colour, move.value),))
    if isinstance(move, Place):
        extra = (Disc(colour, INVOCATION),) if move.invoke else ()
        return DiscMove(move.beach, laid=(Disc(colour, move.value), *extra))
    raise ValueError(f"{game.format(d)} moves no disc: no beach changes")


def laid_out(game: Game, d: int, board: Beaches | None = None) -> Beaches:
    """The discs per beach once ``d``'s discs are laid or lifted on ``board`` (default:
    the game's own board): what the readers then report."""
    board = beach_discs(game) if board is None else board
    move = disc_move(game, d)
    beaches = list(board)
    beaches[move.beach] = (board[move.beach] | set(move.laid)) - set(move.lifted)
    return tuple(beaches)


def disc_change(game: Game, expected: Beaches, d: int) -> BeachContents:
    """The RFID snapshot of the beach after the player to move carries out ``d``."""
    beach = disc_move(game, d).beach
    return BeachContents(beach, laid_out(game, d, expected)[beach])


def option_steps(chooser: U.Chooser, value: object) -> int | None:
    """Encoder steps from the cursor to the option whose value is ``value`` (None: absent)."""
    index = next((i for i, o in enumerate(chooser.options) if o.value == value), None)
    return None if index is None else index - chooser.cursor


def to_option(chooser: U.Chooser, value: object) -> list[InputEvent]:
    """Turn the encoder to the option (if the cursor is not on it) and press select."""
    steps = option_steps(chooser, value)
    if steps is None:
        return []
    events: list[InputEvent] = []
    if steps:
        events.append(EncoderTurned(steps))
    events.append(ButtonPressed("select"))
    return events


def events_for(companion: Companion, d: int) -> list[InputEvent]:
    """The next inputs a person makes towards decision ``d`` (legal now): close a menu, put
    the board right (RFID kit), press a beach button, turn the encoder to the option,
    press select, or put a disc down. Call again until the decision has been made."""
    game = companion.game
    shown = companion.shown
    if shown is not None and shown.kind in (U.MENU, U.CONFIRM_NEW, U.SCORES):
        return [ButtonPressed("back")]
    if companion.panel.settling:  # a disc laid or lifted settles: confirm it now
        return [ButtonPressed("select")]
    rfid = companion.kit == "rfid"
    expected = beach_discs(game)
    sensed = companion.sensed_board()
    if rfid and sensed != expected:
        return [
            BeachContents(b, expected[b]) for b in range(len(expected)) if sensed[b] != expected[b]
        ]
    chooser = companion.panel.chooser
    if chooser is not None and chooser.kind == U.PROPOSAL:
        if not chooser.options:
            return []  # the companion thinks: its answer arrives as an event
        proposal = chooser.options[0].value
        if rfid and isinstance(decode(proposal, game.board), Place | Return):
            return [disc_change(game, expected, proposal)]
        return [ButtonPressed("select")]
    move = decode(d, game.board)
    if isinstance(move, Place | Return):
        if rfid:
            events: list[InputEvent] = [disc_change(game, expected, d)]
            if (
                isinstance(move, Place)
                and not move.invoke
                and move.beach == game.boat
                and encode(Place(move.value, move.beach, invoke=True)) in game.legal_actions()
                and companion.settle_s > 0
            ):
                events.append(ButtonPressed("select"))  # no invocation disc this time
            return events
        if chooser is not None and chooser.kind == U.BEACH and chooser.subject == move.beach:
            return to_option(chooser, d)
        return [ButtonPressed(f"beach{move.beach}")]
    if chooser is None:
        return [ButtonPressed("select")]  # opens the boat chooser
    return to_option(chooser, d)
