"""Words the companion says aloud and never shows: the short forms of frequent decisions,
whose turn it is, where a beach is by touch, and why the voice went quiet.

A decision a game makes dozens of times (a disc on a beach, a card taken, a shaman moved) is
said in a short form at the ``events`` verbosity ("Red: 3 on beach 2"); its long form
(``words.moves``: "Red places 3 on beach 2 – the boat sails to 4", with what followed) is
said at ``everything`` and by "repeat". Like every player-facing word these are values
(``core.text.Text``) rendered in the language in use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from haleakala.core.text import Capitalised, Param, Term, Text, ngettext
from haleakala.games.haleakala import PLAYERS
from haleakala.games.haleakala.decision import Place, Return, Shaman, Take, decode
from haleakala.games.haleakala.events import BoatMoved, Received
from haleakala.i18n import N_

from .moves import card_name, space_words

if TYPE_CHECKING:
    from haleakala.games.haleakala import Game
    from haleakala.games.haleakala.events import Event


def _who(player: int) -> Capitalised:
    return Capitalised(Term(PLAYERS[player]))


def short_decision(game: Game, player: int, code: int, events: list[Event]) -> Text | None:
    """The short form of a frequent decision (None: the decision has only its long form)."""
    who = _who(player)
    sailed = next((e.target for e in events if isinstance(e, BoatMoved)), None)
    match decode(code, game.board):
        case Place(value, beach, invoke):
            template = (
                N_("{who}: {value} and the invocation on beach {beach}")
                if invoke
                else N_("{who}: {value} on beach {beach}")
            )
            said = Text.of(template, who=who, value=value, beach=beach)
            if sailed is None:
                return said
            return Text.of(N_("{move}, boat to {beach}"), move=said, beach=sailed)
        case Return(value, beach):
            return Text.of(N_("{who} takes {value} back from {beach}"), who=who, value=value,
                           beach=beach)  # fmt: skip
        case Take():
            card = next((e.card for e in events if isinstance(e, Received)), None)
            if card is None:
                return None
            return Text.of(N_("{who}: {card}"), who=who, card=card_name(game, card))
        case Shaman(space) if space is not None:
            return Text.of(N_("{who}'s shaman: {space}"), who=who, space=space_words(game, space))
    return None


def turn(game: Game) -> Text:
    """Whose decision it is now: ``Yellow's turn``."""
    return Text.of(N_("{who}'s turn"), who=_who(game.decider))


def companions_turn(game: Game) -> Text:
    """The solo companion's (or the remote player's) decision is coming."""
    return Text.of(N_("{who} is thinking"), who=_who(game.decider))


def tactile(beach: int) -> Text:
    """How a beach is found by touch on the overlay (``kit.tactile``): beach 0 has a raised
    ring, beaches 1–5 that many raised dots."""
    if beach == 0:
        return Text(N_("beach 0, the raised ring"))
    return ngettext("beach {n}, {n} raised dot", "beach {n}, {n} raised dots", beach, n=beach)


def where(beaches: tuple[int, ...]) -> Param:
    """The beaches a message flashes, by touch: ``beach 2, 2 raised dots``."""
    parts = [tactile(b) for b in beaches]
    if not parts:
        return ""
    head: Param = parts[0]
    for part in parts[1:]:
        head = Text.of(N_("{first}; {rest}"), first=head, rest=part)
    return head


def resumed(game: Game, ply: int) -> Text:
    """What a restart says once: where the game stands."""
    if ply == 0:
        return Text.of(N_("New game. {turn}."), turn=turn(game))
    return Text.of(
        N_("Game resumed after decision {n}, round {round}. {turn}."),
        n=ply,
        round=game.round,
        turn=turn(game),
    )


NEW_GAME = N_("New game. {turn}.")

NO_SOUND = Text(N_("NO SOUND"))
"""The OLED's title when the voice goes quiet (the game goes on)."""
TROUBLES = {
    "device": N_("No loudspeaker found: the game goes on silently (see the log)."),
    "engine": N_("The speech engine is not installed: the game goes on silently."),
    "failing": N_("The speech engine failed: the game goes on silently."),
    "voice": N_("No voice for {language}: the game goes on silently."),
}


def trouble(kind: str, language: str) -> Text:
    """Why the voice is quiet, for the OLED (the log has the details)."""
    return Text.of(TROUBLES.get(kind, TROUBLES["failing"]), language=language)


VERBOSITY_WORDS = {"off": N_("off"), "events": N_("events"), "everything": N_("everything")}
"""The menu's names of the verbosity levels (``speech.settings.VERBOSITIES``)."""


def voice_option(verbosity: str) -> Text:
    return Text.of(N_("voice: {level}"), level=Term(VERBOSITY_WORDS[verbosity]))


def volume_option(volume: int) -> Text:
    return Text.of(N_("volume: {n} %"), n=volume)


REPEAT = Text(N_("repeat"))
NOTHING_TO_REPEAT = Text(N_("Nothing said yet."))
