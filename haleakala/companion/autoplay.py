"""A scripted player that plays both colours *through the physical inputs*.

For tests, benchmarks and demos: ``next_events(companion)`` looks at what the companion
shows and returns the input events a person would make next (press a beach button, turn
the encoder to an option, press select; on the RFID kit put a disc on a beach or take
discs back as the OLED asks). Its choice of decision is a pure function of the position
(seed + the decisions so far), so a game interrupted by a power cut and resumed is played
on exactly as an uninterrupted one, and ``reference_game`` computes that result without a
daemon.

In solo mode it plays the human's colour and, on the companion's turn, does what the
companion says (lays its disc, moves its shaman and presses select); while the companion
thinks it does nothing. With the easy (greedy) bot, whose seed is the position's, the whole
solo game is again a pure function of the seeds (``reference_game(..., solo=...)``).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from haleakala.hal.events import (
    INVOCATION,
    BeachContents,
    ButtonPressed,
    Disc,
    EncoderTurned,
    InputEvent,
)
from haleakala.rules import PLAYERS, Game
from haleakala.rules.decision import Place, Return, decode, encode

from . import ui as U
from .physical import beach_discs

if TYPE_CHECKING:
    from .controller import Companion


def choose(game: Game, seed: int) -> int:
    """The scripted player's decision here: uniformly random, seeded by the position."""
    legal = game.legal_actions()
    rng = random.Random(hash((seed, *game.history)))  # int hashes are not salted
    return legal[rng.randrange(len(legal))]


def reference_game(
    variant: str,
    seed: int,
    start: str | None,
    policy_seed: int,
    solo: str | None = None,
    bot: Any = None,
) -> Game:
    """The game the scripted player plays when nothing interrupts it (in solo mode against
    ``bot(strength, seed)``, by default the easy one, seeded as the companion seeds it)."""
    from .solo import bot_seed, make_solo_bot

    factory = bot or make_solo_bot
    game = Game(variant, seed, start)
    while not game.is_terminal():
        if solo is not None and game.to_move == solo:
            game.apply(factory("easy", bot_seed(game)).decide(game.clone()))
        else:
            game.apply(choose(game, policy_seed))
    return game


def _to_option(chooser: U.Chooser, value: Any) -> list[Any]:
    index = next((i for i, o in enumerate(chooser.options) if o.value == value), None)
    if index is None:
        return []
    events: list[Any] = []
    if index != chooser.cursor:
        events.append(EncoderTurned(index - chooser.cursor))
    events.append(ButtonPressed("select"))
    return events


def events_for(companion: Companion, d: int) -> list[Any]:
    """The next inputs a person makes towards decision ``d`` (legal now): close a menu, put
    the board right (RFID kit), press a beach button, turn the encoder to the option,
    press select, or put a disc down. Call again until the decision has been made."""
    game = companion.game
    shown = companion.shown
    if shown is not None and shown.kind in (U.MENU, U.CONFIRM_NEW, U.SCORES):
        return [ButtonPressed("back")]
    if companion.pending is not None:  # a disc laid or lifted settles: confirm it now
        return [ButtonPressed("select")]
    rfid = companion.kit == "rfid"
    expected = beach_discs(game)
    if rfid and tuple(companion.sensed) != expected:
        return [
            BeachContents(b, expected[b])
            for b in range(len(expected))
            if companion.sensed[b] != expected[b]
        ]
    chooser = companion.chooser
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
            return _to_option(chooser, d)
        return [ButtonPressed(f"beach{move.beach}")]
    if chooser is None:
        return [ButtonPressed("select")]  # opens the boat chooser
    return _to_option(chooser, d)


def disc_change(game: Game, expected: tuple, d: int) -> BeachContents:
    """The RFID snapshot of the beach after the player to move carries out ``d``."""
    colour = PLAYERS[game.decider]
    move = decode(d, game.board)
    if not isinstance(move, Place | Return):
        raise ValueError(f"{game.format(d)} moves no disc: no beach changes")
    beach, value = move.beach, move.value
    discs = set(expected[beach])
    if isinstance(move, Return):
        discs.discard(Disc(colour, value))
    else:
        discs.add(Disc(colour, value))
        if move.invoke:
            discs.add(Disc(colour, INVOCATION))
    return BeachContents(beach, frozenset(discs))


class AutoPlayer:
    """Plays both colours (or the human colour in solo mode) with the seeded policy."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def next_events(self, companion: Companion) -> list[Any]:
        """What to do next; [] when the game is over or the companion is thinking."""
        if companion.game.is_terminal():
            return []
        if companion.thinking and companion.shown is companion.chooser:
            return []
        d = choose(companion.game, self.seed)
        return events_for(companion, d) or [ButtonPressed("back")]
