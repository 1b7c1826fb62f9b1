"""RFID kit: what a sensed board means, as a pure judgement.

The readers report which discs lie on each beach; the game knows which discs it has there.
``judge(game, sensed, companion=..., proposal=...)`` compares the two and says what the
difference means, without touching the controller: the board agrees, a decision was made
(one of the player's discs laid or lifted), the companion's decision is on its way (wait
quietly), or the change is refused, with a headline and the rules' reason. The controller
then decides what to *do* with the verdict (make the decision, hold the board until it
matches again, flash the beaches); keeping the judgement pure lets a test try every board
without a controller, a clock or hardware.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace

from haleakala.core.text import Param, Text
from haleakala.games.haleakala import PLAYERS, Game
from haleakala.games.haleakala.decision import Place, Refusal, Return, decode, encode
from haleakala.games.haleakala.game import OVER, TURN
from haleakala.games.haleakala.words import board as W
from haleakala.games.haleakala.words.labels import PHASE_WORDS, describe
from haleakala.hal.events import INVOCATION, Disc

from .physical import beach_discs, disc_list, disc_words

Sensed = Sequence[Collection[object]]
"""Per beach, what the readers report: discs, and anything else a tag may be."""

UNKNOWN_TAG = W.UNKNOWN_TAG
HEADLINES = W.HEADLINES


@dataclass(frozen=True)
class Agrees:
    """The board is the game's: nothing to say."""


@dataclass(frozen=True)
class Wait:
    """The companion's own decision is being laid out (e.g. the number disc before the
    invocation disc): nothing to say yet."""


@dataclass(frozen=True)
class Refused:
    """The change is no decision the game accepts: why, in a headline and the reason (values
    the OLED renders in its language; ``str()`` is English)."""

    headline: Param
    reason: Param


@dataclass(frozen=True)
class Decided:
    """The board change is this legal decision. ``settles``: it may still become another
    (a lifted disc on its way to another beach; a disc next to the boat whose invocation
    disc may follow), so the controller waits a moment before making it."""

    decision: int
    by: str  # "player", or "bot" for the companion's decision laid out by the players
    settles: bool = False


Verdict = Agrees | Wait | Refused | Decided

Change = tuple[int, frozenset[Disc], frozenset[Disc]]
"""One beach that differs: (beach, discs added, discs removed)."""


def headline(refusal: Refusal) -> Text:
    """The OLED headline of a refused disc move, by the refusal's kind (never its words)."""
    return W.headline(refusal.kind)


def differing(expected: Sensed, sensed: Sensed) -> tuple[int, ...]:
    """The beaches where the board (``sensed``) and the game (``expected``) disagree."""
    return tuple(b for b in range(len(expected)) if frozenset(sensed[b]) != expected[b])


def judge(game: Game, sensed: Sensed, *, companion: str | None, proposal: int | None) -> Verdict:
    """What the sensed board means for ``game``. ``companion``: the colour the companion
    plays (solo), None if nobody; ``proposal``: its decision for this position, if it has
    one. A board equal to the game's always ``Agrees``."""
    expected = beach_discs(game)
    board = tuple(frozenset(beach) for beach in sensed)
    if board == expected:
        return Agrees()
    diff = [(b, board[b] - expected[b], expected[b] - board[b]) for b in differing(expected, board)]
    for beach, added, _ in diff:  # a tag no disc of this kit: which beach, how to enrol it
        for piece in sorted(added, key=str):
            if not isinstance(piece, Disc):
                return Refused(*W.unknown_tag(beach, piece))
    changes: list[Change] = [
        (b, frozenset(d for d in added if isinstance(d, Disc)), frozenset(removed))
        for b, added, removed in diff
    ]
    bots = companion is not None and game.to_move == companion and game.phase != OVER
    if bots:
        return _judge_for_bot(game, board, expected, proposal)
    return _judge(game, changes, board, companion)


def _judge(game: Game, diff: list[Change], board: Sensed, companion: str | None) -> Verdict:
    """The legal decision a board change means, or why it is none."""
    inferred = _infer(diff)
    if inferred is None:
        return _classify(game, diff, board)
    d, colour = inferred
    if colour != PLAYERS[game.decider] or game.phase != TURN:
        return _not_now(game, colour, companion)
    refusal = game.refusal(d)
    if refusal is not None:
        return Refused(headline(refusal), refusal.words)
    return Decided(d, "player", settles=_may_change(game, d))


def _may_change(game: Game, d: int) -> bool:
    """A lifted disc (perhaps on its way to another beach) or a disc laid next to the boat
    without the invocation disc that may still follow."""
    move = decode(d, game.board)
    if isinstance(move, Return):
        return True
    return (
        isinstance(move, Place)
        and not move.invoke
        and move.beach == game.boat
        and encode(replace(move, invoke=True)) in game.legal_actions()
    )


def _infer(diff: list[Change]) -> tuple[int, str] | None:
    """The single decision a board change means, with the colour of its discs."""
    if len(diff) != 1:
        return None
    beach, added, removed = diff[0]
    if added and removed:
        return None
    if len(added) == 1 and not removed:
        (disc,) = added
        if disc.value == INVOCATION:
            return None
        return encode(Place(disc.value, beach)), disc.colour
    if len(added) == 2 and not removed:
        a, b = sorted(added, key=lambda d: d.value)
        if a.value == INVOCATION and b.value != INVOCATION and a.colour == b.colour:
            return encode(Place(b.value, beach, invoke=True)), b.colour
        return None
    if len(removed) == 1 and not added:
        (disc,) = removed
        if disc.value == INVOCATION:
            return None
        return encode(Return(disc.value, beach)), disc.colour
    return None


def _not_now(game: Game, colour: str, companion: str | None) -> Refused:
    if game.phase == OVER:
        return Refused(*W.game_over())
    whose = PLAYERS[game.decider]
    if colour != whose:
        bots = companion is not None and game.to_move == companion
        return Refused(*W.not_their_turn(whose, colour, companion=bots))
    return Refused(*W.not_now(whose, Text(PHASE_WORDS[game.phase])))


def _classify(game: Game, diff: list[Change], board: Sensed) -> Refused:
    """Headline and reason for a board change that is no single decision."""
    added = [(b, d) for b, a, _ in diff for d in a]
    removed = [(b, d) for b, _, r in diff for d in r]
    for b, disc in added:
        if disc.value == INVOCATION and not game.tactical:
            return Refused(*W.no_invocation(b))
    moved = [(src, dst, d) for src, d in removed for dst, e in added if d == e]
    if moved:
        src, dst, disc = moved[0]
        own = game.phase == TURN and disc.colour == PLAYERS[game.decider]
        return Refused(*W.moved(disc_words(disc), src, dst, own_turn=own))
    seen_twice = [
        (b, d) for b, d in added if any(d in beach and i != b for i, beach in enumerate(board))
    ]
    if seen_twice:
        b, disc = seen_twice[0]
        return Refused(*W.seen_twice(disc_words(disc), b))
    if len(diff) == 1 and len(added) == 1 and added[0][1].value == INVOCATION:
        b, disc = added[0]
        d = encode(Place(1, b, invoke=True))
        refusal = game.refusal(d) if game.phase == TURN else None
        if refusal and refusal.kind not in ("sum_rule", "disc_already_out"):
            return Refused(W.invocation_headline(refusal.ruling), refusal.words)
        return Refused(*W.invocation_alone())
    if len(added) + len(removed) > 1:
        colours = {d.colour for _, d in added + removed}
        discs = disc_list(d for _, d in added + removed)
        return Refused(*W.two_discs(discs, one_colour=len(colours) == 1))
    return Refused(*W.board_differs())


def _judge_for_bot(
    game: Game,
    board: tuple[frozenset[object], ...],
    expected: tuple[frozenset[Disc], ...],
    proposal: int | None,
) -> Verdict:
    """The companion's turn: its disc laid where it said (the decision), on the way there
    (wait quietly, e.g. the number disc before the invocation disc), or anything else."""
    whose = PLAYERS[game.decider]
    if proposal is None:
        return Refused(*W.companion_thinking(whose))
    d = proposal
    move = decode(d, game.board)
    if not isinstance(move, Place | Return):
        return Refused(*W.companion_plays(describe(game, d)))
    target: list[frozenset[Disc]] = list(expected)
    beach, value = move.beach, move.value
    if isinstance(move, Return):
        target[beach] = expected[beach] - {Disc(whose, value)}
    else:
        extra = {Disc(whose, value)} | ({Disc(whose, INVOCATION)} if move.invoke else set())
        target[beach] = expected[beach] | extra
    if board == tuple(target):
        return Decided(d, "bot")
    if all(
        expected[b] & target[b] <= board[b] <= expected[b] | target[b] for b in range(len(expected))
    ):
        return Wait()
    return Refused(*W.companion_plays(describe(game, d)))
