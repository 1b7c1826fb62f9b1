"""Game state → LED zone frame: what the island's rings show.

Pure: ``led_frame(game, ui, now)`` returns a ``ZoneFrame`` ((segment, zone) → colour) and
``next_change(game, ui, now)`` says when the picture would change by itself (a blink, the
end of an animation), so the daemon sleeps until then instead of polling. Brightness and
the current limit are the HAL's job (``ZoneMap.render``); scenes speak in full colours.

What the rings say:
- water: the colour of the player who must decide (dim); the boat white.
- beaches: where the player to move may place or take back a disc (dim in their colour);
  the beach being chosen (buttons kit) bright; a beach that disagrees with the game flashes
  white.
- grassland / forest / mountain: statues dim in their owner's colour, shamans bright;
  shaman candidates white, the one under the cursor blinking; statues the lava on their
  crater would destroy at the next eruption blink lava-orange.
- craters: lava glows brighter with each disc; the eruption flashes them and the burnt
  spaces for a few seconds.
- card slots: lit by card kind (statue white, priestess magenta, shell cyan, beach card
  blue); the two cards on offer bright, the one under the cursor blinking.
- game over: water and beaches in the winner's colour.
- solo: while the companion thinks, a light runs round the water in its colour; then its
  decision blinks like a cursor (the beach for a disc, the space for its shaman, the slot
  of its card, the crater for the lava, the water the boat sails to).

Colours come from ``haleakala.palette`` by role, in the colour mode in use (read at each
frame, so a change in the menu shows at once); the names below are the default mode's, for
tests and scenarios. What a colour says is also said by where it is and how it blinks (the
palette's ``SIGNS``).
"""

from __future__ import annotations

import math

from haleakala import palette
from haleakala.games.haleakala import Game
from haleakala.games.haleakala.decision import (
    Boat,
    Decision,
    Lava,
    Place,
    Return,
    Shaman,
    Take,
    decode,
)
from haleakala.games.haleakala.game import CHOOSE_CARD, MOVE_SHAMAN, OVER, PRIESTESS, TURN
from haleakala.games.haleakala.notation import NotationError

from . import ui as U

Colour = tuple[int, int, int]

LAVA_STEPS = (0.0, 0.27, 0.55, 0.82, 1.0)
"""A crater's lava glow by its number of discs (0 to 4), as a share of the lava colour."""


def lava_glow(mode: str | None = None) -> tuple[Colour, ...]:
    lava = palette.led("lava", mode)
    return tuple(scale(lava, k) for k in LAVA_STEPS)


def kind_colours(mode: str | None = None) -> dict[str, Colour]:
    return {k: palette.led(f"card.{k}", mode) for k in ("statue", "priestess", "shell", "beach")}


def player_colours(mode: str | None = None) -> tuple[Colour, Colour]:
    return (palette.led("player.red", mode), palette.led("player.yellow", mode))


def scale(colour: Colour, factor: float) -> Colour:
    return (int(colour[0] * factor), int(colour[1] * factor), int(colour[2] * factor))


_D = palette.DEFAULT
PLAYER_COLOURS: tuple[Colour, Colour] = player_colours(_D)
BOAT_COLOUR: Colour = palette.led("boat", _D)
CANDIDATE: Colour = palette.led("legal", _D)
ALERT: Colour = palette.led("warning", _D)
LAVA_GLOW: tuple[Colour, ...] = lava_glow(_D)
ERUPTION: Colour = palette.led("eruption", _D)
KIND_COLOURS: dict[str, Colour] = kind_colours(_D)
BANDS = ("grassland", "forest", "mountain")

FAST = 0.25  # s per half-period of a quick blink (cursor, alert)
THINK_STEP = 0.25  # s per segment of the light running round the water while a bot thinks
SLOW = 0.5  # s per half-period of a slow blink (statues about to burn)


def blink(now: float, half_period: float) -> bool:
    """On or off, in phase with absolute time so that every blinking zone agrees."""
    return math.floor(now / half_period) % 2 == 0


def card_colour(game: Game, card: int) -> Colour:
    kinds = kind_colours()
    kind = game.deck.cards[card]
    if kind.kind == "action":
        return kinds["priestess" if kind.code == "priestess" else "statue"]
    return kinds.get(kind.kind, (40, 40, 40))


def threatened_statues(game: Game) -> list[int]:
    """Land spaces with a statue that the next eruption would destroy (R19)."""
    out = []
    for seg, count in enumerate(game.lava):
        for band in range(min(count, 3)):  # mountain (k≥1), forest (k≥2), grassland (k≥3)
            space = seg * 3 + 2 - band
            if game.statue_owner[space] >= 0:
                out.append(space)
    return out


def legal_beaches(game: Game) -> set[int]:
    """Beaches where the player to move may place or take back a disc now."""
    if game.phase != TURN:
        return set()
    out = set()
    for d in game.legal_actions():
        move = decode(d, game.board)
        if isinstance(move, Place | Return):
            out.add(move.beach)
    return out


def _decision(value: object, game: Game) -> Decision | None:
    """The decision an option's value stands for (None: "cancel" or no decision code)."""
    if not isinstance(value, int):
        return None
    try:
        return decode(value, game.board)
    except NotationError:
        return None


def _cursor_value(ui: U.UiState):
    chooser = ui.chooser
    if chooser is None or chooser.kind not in (U.DECISION, U.PROPOSAL):
        return None
    option = chooser.current
    return None if option is None else option.value


def led_frame(game: Game, ui: U.UiState, now: float) -> dict:
    """The zone frame for this moment."""
    if ui.bye:
        return {}
    b = game.board
    frame: dict = {}
    segments = range(b.segments)
    fast_on = blink(now, FAST)
    decider = game.decider
    players, glow = player_colours(), lava_glow()  # the mode in use, this frame
    boat, candidate = palette.led("boat"), palette.led("legal")
    alert_colour, eruption_colour = palette.led("warning"), palette.led("eruption")
    own = players[decider]

    # Water: whose decision, and the boat.
    over = game.phase == OVER
    result = game.result() if over else None
    water = players[("red", "yellow").index(result.winner)] if result else own
    for seg in segments:
        frame[seg, "water"] = scale(water, 0.5 if over else 0.12)
    if ui.thinking:
        frame[int(now / THINK_STEP) % b.segments, "water"] = scale(own, 0.8)
    frame[game.boat, "water"] = boat

    # Craters: lava.
    for seg in segments:
        count = min(game.lava[seg], len(glow) - 1)
        if count:
            frame[seg, "crater"] = glow[count]

    # Card slots by kind.
    offered: set[int] = set()
    if game.phase == CHOOSE_CARD:
        k = b.slots_per_segment
        offered = {s for s in range(game.context[0] * k, game.context[0] * k + k)}
    for slot, card in enumerate(game.slots):
        if card < 0:
            continue
        zone = "slot_a" if slot % b.slots_per_segment == 0 else "slot_b"
        bright = 1.0 if slot in offered else (0.15 if offered else 0.3)
        frame[slot // b.slots_per_segment, zone] = scale(card_colour(game, card), bright)

    # Land: statues, threatened statues, shamans.
    slow_on = blink(now, SLOW)
    threatened = set(threatened_statues(game))
    for space, owner in enumerate(game.statue_owner):
        if owner >= 0:
            colour = scale(players[owner], 0.3)
            if space in threatened and not slow_on:
                colour = glow[-1]
            frame[space // 3, BANDS[space % 3]] = colour

    # Beaches.
    if over:
        for seg in segments:
            frame[seg, "beach"] = scale(water, 0.5)
    elif game.phase == TURN:
        for beach in legal_beaches(game):
            frame[beach, "beach"] = scale(own, 0.3)

    # The decision being chosen.
    chooser = ui.chooser
    value = _cursor_value(ui)
    if game.phase == MOVE_SHAMAN and chooser is not None and chooser.kind in (U.DECISION,):
        for option in chooser.options:
            match _decision(option.value, game):
                case Shaman(space=int(goes)):
                    frame[goes // 3, BANDS[goes % 3]] = candidate
    for p in (0, 1):
        space = game.shaman[p]
        if space < b.land_spaces:
            frame[space // 3, BANDS[space % 3]] = players[p]
    proposal = chooser is not None and chooser.kind == U.PROPOSAL
    match _decision(value, game):
        case Shaman(space=int(goes)):
            frame[goes // 3, BANDS[goes % 3]] = own if fast_on else candidate
        case Take(slot):
            zone = "slot_a" if slot % b.slots_per_segment == 0 else "slot_b"
            if not fast_on:
                frame[slot // b.slots_per_segment, zone] = (0, 0, 0)
        case Lava(src, dst) if src is not None and dst is not None and game.phase == PRIESTESS:
            frame[dst, "crater"] = glow[2] if fast_on else (0, 0, 0)
            frame[src, "crater"] = glow[min(game.lava[src], 4)] if fast_on else own
        case Place(beach=beach) | Return(beach=beach) if proposal:
            frame[beach, "beach"] = own if fast_on else (0, 0, 0)
        case Boat() if proposal:
            frame[(game.boat + 1) % b.segments, "water"] = boat if fast_on else own
    if chooser is not None and chooser.kind == U.BEACH and chooser.subject is not None:
        frame[chooser.subject, "beach"] = own

    # Animations and alerts on top.
    eruption = ui.eruption
    if eruption is not None and now < eruption.until:
        for seg, count in enumerate(eruption.lava):
            if count:
                frame[seg, "crater"] = eruption_colour if fast_on else glow[1]
        for space in eruption.destroyed:
            frame[space // 3, BANDS[space % 3]] = eruption_colour if fast_on else (0, 0, 0)
    alert: set[int] = set()
    if ui.mismatch is not None:
        alert.update(ui.mismatch.beaches)
    if ui.message is not None and now < ui.message.until:
        alert.update(ui.message.beaches)
    for beach in alert:
        frame[beach, "beach"] = alert_colour if fast_on else (0, 0, 0)
    return {k: v for k, v in frame.items() if v != (0, 0, 0)}


def next_change(game: Game, ui: U.UiState, now: float) -> float | None:
    """When ``led_frame`` would next differ by itself (None: not until something happens)."""
    if ui.bye:
        return None
    deadlines: list[float] = []
    fast = (
        ui.mismatch is not None
        or (ui.message is not None and ui.message.beaches and now < ui.message.until)
        or (ui.eruption is not None and now < ui.eruption.until)
    )
    proposal = ui.chooser is not None and ui.chooser.kind == U.PROPOSAL
    match _decision(_cursor_value(ui), game):
        case Shaman(space=int()) | Take() | Lava():  # a cursor blinks on the island
            fast = True
        case Place() | Return() | Boat() if proposal:  # the companion's move blinks
            fast = True
    if ui.thinking:
        deadlines.append((math.floor(now / THINK_STEP) + 1) * THINK_STEP)
    if fast:
        deadlines.append((math.floor(now / FAST) + 1) * FAST)
    elif threatened_statues(game):
        deadlines.append((math.floor(now / SLOW) + 1) * SLOW)
    if ui.eruption is not None and now < ui.eruption.until:
        deadlines.append(ui.eruption.until)
    if ui.message is not None and now < ui.message.until:
        deadlines.append(ui.message.until)
    return min(deadlines) if deadlines else None
