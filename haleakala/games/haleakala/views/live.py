"""The game as the live view shows it: pure functions from a ``Game`` to JSON-able dicts.

Pure (no I/O, no clock, no server) so that the daemon's thread can build a snapshot in a
fraction of a millisecond and hand the server an immutable value, the tests can check any
position, and the page only draws: it never computes a rule. ``geometry()`` is the island's
drawing, taken from the simulator's layout so the phone and the window agree on where
every piece lies; it does not change during a game and is fetched once.

The game's words are values (``core.text.Text``) or catalog names; the snapshot is where they
meet the page, so they are rendered here, at the edge, as the other front-ends do: through
``_`` for a name, ``i18n.render`` for a sentence, in the language in use (``i18n``) when the
snapshot is built. The page's own labels travel with it (``words``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from haleakala import i18n, palette
from haleakala.core.text import Term, Text
from haleakala.games.haleakala import PLAYERS
from haleakala.games.haleakala.decision import Boat, Buy, Lava, Place, Return, Shaman, Take, decode
from haleakala.games.haleakala.deck import BOARD_ITEMS
from haleakala.games.haleakala.scoring import POINT_KEYS
from haleakala.games.haleakala.views import layout
from haleakala.games.haleakala.views.render import banked, describe_scoring, prompt_line
from haleakala.games.haleakala.words.moves import POINT_NAMES, describe_move, result_sentence
from haleakala.i18n import N_, _, ngettext
from haleakala.i18n.terms import SETTINGS
from haleakala.toolkit.live import labels

if TYPE_CHECKING:
    from haleakala.games.haleakala import Game
    from haleakala.games.haleakala.scoring import Scoring

VERSION = 2
EVENT_INDENT = "  "
"""Lines told about a decision's effects start with this, so the page groups them under it."""
LOG_LINES = 40
"""The log keeps the newest lines only: a phone shows the recent turns, the journal keeps all."""
RECENT_ON_RESUME = 8
"""Decisions told again when the log starts over on a game already under way (a resume, a
viewer of a restarted daemon): the recent moves, not only "decision 80"."""
NOTATION = re.compile(r"\s*\((-?\d@\d\*?|>\w+|boat|keep|pass|buy \w+|lava \d>\d)\)")
"""A notation example in brackets inside a prompt ("(3@2)", "(>stay)", "(buy forest)"): the
same in every language, since notation is. The page's header shows the words without them."""


def snapshot(
    game: Game,
    *,
    log: Sequence[Text | str] = (),
    seq: int = 0,
    digest: str = "",
    lesson: dict | None = None,
) -> dict:
    """Everything the page shows about ``game``: a fresh dict of plain values.

    ``digest`` is the game's digest when the caller has it cached (the companion does);
    otherwise it is computed here. ``seq`` numbers the updates of one server run.
    ``lesson``: the step a lesson on the board is at (``learn.board.lesson_data``), for
    whoever watches it being taught."""
    b = game.board
    over = game.is_terminal()
    return {
        "v": VERSION,
        "lang": i18n.current(),
        "palette": palette.current(),  # the companion's colour mode; a phone may choose its own
        "labels": labels(),
        "seq": seq,
        "digest": digest or game.digest(),
        "game": "haleakala",
        "variant": game.variant,
        "variant_name": _(game.variant),
        "seed": game.seed,
        "round": game.round,
        "decisions": len(game.history),
        "over": over,
        "to_move": game.to_move,
        "phase": game.phase_name,
        "awaited": _awaited(game),
        "awaited_words": _plain_words(_awaited(game)),
        "notation": _notation(_awaited(game)),
        "score": dict(zip(PLAYERS, banked(game), strict=True)),
        "island": _island(game),
        "last": _last(game),
        "piles": [
            {
                "trees": back,
                "name": ngettext("{n} palm tree", "{n} palm trees", back).format(n=back),
                "count": len(pile),
            }
            for (back, _), pile in zip(game.deck.piles, game.piles, strict=True)
        ],
        "discard": len(game.discard),
        "board": [
            {
                "item": code,
                "name": _(game.deck.board_items[code][0]),
                "cost": game.deck.board_items[code][1],
                "owner": _owner(game.board_owner[i]),
            }
            for i, code in enumerate(BOARD_ITEMS)
        ],
        "players": {colour: _player(game, p) for p, colour in enumerate(PLAYERS)},
        "scorings": [_scoring(scoring) for scoring in game.scorings],
        "result": _result(game) if over else None,
        "log": [i18n.render(line) for line in log[-LOG_LINES:]],
        "segments": b.segments,
        "lesson": lesson,
    }


def _awaited(game: Game) -> str:
    """Who decides and what, on one line (the page wraps it): the terminal's prompt, unwrapped,
    its "{colour}: {words}" in the language's typography (French puts a no-break space before
    the colon)."""
    return prompt_line(game)


def _plain_words(text: str) -> str:
    """The prompt for people who do not type notation (the page's header, on a phone): the
    bracketed notation examples taken out, the words kept."""
    return NOTATION.sub("", text)


def _notation(text: str) -> list[str]:
    """The notation examples of the prompt, in order ("3@2", "-3@2", "boat"), for the line
    the page shows after the words."""
    return [m.group(1) for m in NOTATION.finditer(text)]


def _owner(code: int) -> str | None:
    if code == -1:
        return None
    return "face down" if code == 2 else PLAYERS[code]


def _island(game: Game) -> dict:
    b = game.board
    beaches = []
    for seg in range(b.segments):
        beach: dict[str, Any] = {"segment": seg}
        for p, colour in enumerate(PLAYERS):
            beach[colour] = [v for v in b.discs if game.disc_at[p][v] == seg]
            beach[colour + "_invocation"] = game.invocation[p] == seg
            beach[colour + "_sum"] = game.totals[p][seg]
        beaches.append(beach)
    k = b.slots_per_segment
    return {
        "boat": game.boat,
        "beaches": beaches,
        "shamans": {colour: game.shaman[p] for p, colour in enumerate(PLAYERS)},
        "statues": [
            {"space": space, "owner": PLAYERS[owner]}
            for space, owner in enumerate(game.statue_owner)
            if owner >= 0
        ],
        "lava": list(game.lava),
        "threatened": [
            space
            for space in range(b.land_spaces)
            if not game.tactical and game.lava[space // 3] >= 3 - space % 3
        ],
        "slots": [
            {
                "slot": b.slot_name(slot),
                "card": _(game.deck.cards[game.slots[slot]].name)
                if game.slots[slot] >= 0
                else None,
            }
            for slot in range(b.segments * k)
        ],
    }


def _player(game: Game, p: int) -> dict:
    deck = game.deck
    cards = [deck.cards[c] for c in game.beach_cards[p]]
    return {
        "supply": [v for v in game.board.discs if game.disc_at[p][v] < 0],
        "invocation": {-2: "boxed", -1: "supply"}.get(game.invocation[p], "island"),
        "statues_left": game.statues_left[p],
        "shells": len(game.shells[p]),
        "cards": [{"name": n, "count": c} for n, c in Counter(_(c.name) for c in cards).items()],
        "baskets": sum(c.baskets for c in cards),
        "butterflies": sum(c.butterflies for c in cards),
        "scoring_cards": [
            _(deck.board_items[code][0])
            for i, code in enumerate(BOARD_ITEMS)
            if game.board_owner[i] == p
        ],
    }


def _scoring(scoring: Scoring) -> dict:
    return {
        "round": scoring.round,
        "players": {
            part.colour: {"points": part.points.to_record(), "total": part.total}
            for part in scoring.players
        },
        "names": {key: point_name(key) for key in POINT_KEYS},
        "words": describe_scoring(scoring),
    }


def _result(game: Game) -> dict | None:
    result = game.result()
    if result is None:
        return None
    return {**result.to_dict(), "text": i18n.render(result_sentence(result))}


def _last(game: Game) -> dict | None:
    """The last decision and the place on the island it touched (for the highlight)."""
    if not game.history:
        return None
    d = game.history[-1]
    decision = decode(d, game.board)
    where: dict[str, Any] = {"text": game.format(d)}
    match decision:
        case Place(_, beach, _) | Return(_, beach):
            where["beach"] = beach
        case Boat():
            where["boat"] = game.boat
        case Shaman(space) if space is not None:
            where["space"] = space
        case Take(slot):
            where["slot"] = game.board.slot_name(slot)
        case Lava(_, target) if target is not None:
            where["crater"] = target
        case Buy(item):
            where["item"] = item
        case _:
            pass
    return where


def log_lines(before: Game | None, after: Game) -> tuple[list[Text], bool]:
    """What happened between two published positions, in words, and whether the log starts
    over (a new or resumed game). One decision: who did what, then each event (indented by
    ``EVENT_INDENT``); an undo says so. Costs one ``clone().apply()`` (microseconds).
    The lines are values, rendered in the language of each snapshot sent."""
    if before is not None and before.seed == after.seed and before.variant == after.variant:
        made, now = len(before.history), len(after.history)
        if now == made + 1 and after.history[:made] == before.history:
            d = after.history[-1]
            mover = before.decider
            events = before.clone().apply(d)
            said, *told = describe_move(after, mover, d, events)
            return [_noted(said, before.format(d)), *map(_indented, told)], False
        if now < made and before.history[:now] == after.history:
            return [Text.of(N_("undo: back to decision {n}"), n=now)], False
        if now == made and after.history == before.history:
            return [], False
    start = Text.of(
        N_("game {variant}, seed {seed}, decision {n}"),
        variant=Term(SETTINGS.get(after.variant, after.variant)),
        seed=str(after.seed),
        n=len(after.history),
    )
    return ([start, *_recent(after)], True)


def _noted(said: Text, notation: str) -> Text:
    """``Red places 3 on beach 2 (3@2)``: the decision in words, then in notation."""
    return Text.of("{said} ({notation})", said=said, notation=notation)


def _indented(line: Text) -> Text:
    return Text.of(EVENT_INDENT + "{line}", line=line)


def _recent(game: Game, count: int = RECENT_ON_RESUME) -> list[Text]:
    """The last ``count`` decisions of ``game`` told as the log tells them, replayed from
    its deal (a few milliseconds, once per resume); [] if the replay does not reach the same
    position (a game set up otherwise than by its seed)."""
    from haleakala.games.haleakala import Game as Rules

    history = game.history
    first = max(0, len(history) - count)
    replay = Rules(game.variant, game.seed, PLAYERS[game.start])
    for d in history[:first]:
        replay.apply(d)
    lines: list[Text] = []
    for d in history[first:]:
        text, mover = replay.format(d), replay.decider
        events = replay.apply(d)
        said, *told = describe_move(replay, mover, d, events)
        lines += [_noted(said, text), *map(_indented, told)]
    return lines if replay.digest() == game.digest() else []


# --------------------------------------------------------------------------- geometry


def _point(xy: Iterable[float]) -> list[int]:
    x, y = xy
    return [round(x), round(y)]


SUM_OFFSET = {"red": -20.0, "yellow": 20.0}
"""Degrees off a segment's centre line where each colour's beach sum is written: beside its
own discs (red anticlockwise, yellow clockwise, as ``layout.disc_position`` lays them)."""


def geometry() -> dict:
    """The island's drawing in the simulator's coordinates (``simulator/layout.py``): band
    outlines per segment, and the spot of every piece the snapshots place by index."""
    n = layout.SEGMENTS
    cx, cy = layout.CENTRE
    outer = layout.BANDS["sea"][0]
    return {
        "view": [round(cx - outer), round(cy - outer), round(2 * outer), round(2 * outer)],
        "centre": _point(layout.CENTRE),
        "bands": {
            band: [[_point(p) for p in layout.wedge(seg, band, steps=8)] for seg in range(n)]
            for band in layout.BANDS
        },
        "labels": [_point(layout.at(seg, layout.BANDS["sea"][0] - 12)) for seg in range(n)],
        "disc_radius": layout.DISC_RADIUS,
        "discs": {
            colour: [
                [_point(layout.disc_position(seg, colour, i)) for i in range(6)] for seg in range(n)
            ]
            for colour in PLAYERS
        },
        "sums": {
            colour: [_point(layout.at(seg, 272, SUM_OFFSET[colour])) for seg in range(n)]
            for colour in PLAYERS
        },
        "spaces": {
            who: [_point(layout.space_position(space, who)) for space in range(n * 4)]
            for who in ("statue", *PLAYERS)
        },
        "boat": [_point(layout.boat_position(seg)) for seg in range(n)],
        "lava": [[_point(layout.lava_position(seg, i)) for i in range(4)] for seg in range(n)],
        "cards": [list(layout.card_rect(slot)) for slot in range(n * 2)],
    }


def point_name(key: str) -> str:
    """A point kind's name in the language in use (the key itself for an unknown kind)."""
    return _(POINT_NAMES[key]) if key in POINT_NAMES else key
