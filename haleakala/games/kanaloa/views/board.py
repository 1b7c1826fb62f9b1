"""Kanaloa's state as text: the map drawn where the map data puts the islands, in 80
columns, the islands' tiles and fish, the players, the volcano track, and the automatic
events told in words. Pure (no input, no output), shared by the terminal game
(``terminal.kanaloa``), the window and the live view, which tell events the same way.

Every line is at most 80 columns in every language: the map and the island table are drawn
to fit and never wrapped; sentences go through ``loop.fit``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from haleakala.games.kanaloa.events import (
    CardPassed,
    Drew,
    Ended,
    Erupted,
    LostTurn,
    ReserveUsed,
    Stunned,
    TempleRaised,
    TurnBegan,
    VolcanoDrawn,
    VolcanoRemoved,
)
from haleakala.games.kanaloa.game import Game
from haleakala.games.kanaloa.material import GODS
from haleakala.games.kanaloa.state import DOLPHIN, NOBODY, SEA, SUPPLY
from haleakala.games.kanaloa.words import MARKS, colour
from haleakala.i18n import N_, _, ngettext
from haleakala.toolkit.terminal import fit

if TYPE_CHECKING:
    from collections.abc import Sequence

    from haleakala.games.kanaloa.events import Event

WIDTH = 80
MAP_COLUMNS = 78
MAP_ROWS = 15

PHASE_PROMPTS = {
    "fish": N_("place a fish on a free current (fish TAIL>HEAD white or your colour)"),
    "start": N_("place your first piece on an island without a piece (start ISLAND)"),
    "volcano": N_("place the volcano (volcano ISLAND)"),
    "remove": N_("take one of your two pieces off the map (remove ISLAND)"),
    "land": N_("land your piece from the Dolphin (land ISLAND)"),
    "give": N_("give one tile of this island to the Dolphin (give TILE)"),
    "main": N_("move a piece or sacrifice (or, when blocked, whiten a fish or call the Dolphin)"),
    "sacrifice": N_("add tiles to the sacrifice, or done"),
    "rob": N_("rob a tile (rob COLOUR TILE)"),
    "take": N_("take one of the island's two tiles (take TILE)"),
    "end step": N_("turn a fish with Kanaloa, place your second piece, or end"),
    "veto": N_("allow or forbid the Kanaloa change of your fish"),
}


def phase_prompt(game: Game) -> str:
    """What the player to move is asked, in the language in use: the phase's prompt, and
    in the fish phase the very forms the rules allow now (N13, N16): with two players the
    neutral fish come first and show only their colour (``fish TAIL>HEAD green``), then
    each player's fish show white or the placer's colour."""
    phase = game.phase_name
    if phase != "fish" or game.is_terminal():
        return _(PHASE_PROMPTS[phase]) if phase in PHASE_PROMPTS else ""
    placer, neutral = game.placements[game.placed]
    sides = [game.m.colours[2]] if neutral else ["white", game.players[placer]]
    tail_head = _("TAIL>HEAD")  # TRANSLATORS: the two ends of a fish, as in "fish TAIL>HEAD"
    forms = " | ".join(f"fish {tail_head} {side}" for side in sides)
    if neutral:
        return _("place a neutral fish on a free current ({forms})").format(forms=forms)
    return _("place a fish on a free current ({forms})").format(forms=forms)


PHASE_WORDS = {
    "fish": N_("placing fish"), "start": N_("first pieces"), "volcano": N_("the volcano"),
    "remove": N_("a piece off the map"), "land": N_("the Dolphin lands"),
    "give": N_("a gift to the Dolphin"), "main": N_("main action"),
    "sacrifice": N_("sacrifice"), "rob": N_("robbery"), "take": N_("taking a tile"),
    "end step": N_("end of the turn"), "veto": N_("veto"),
}  # fmt: skip


def tiles(n: int) -> str:
    return ngettext("{n} tile", "{n} tiles", n).format(n=n)


# -- the map as text (pure) -------------------------------------------------------------


def _cell(game: Game, island: int) -> tuple[int, int]:
    """Where an island's name starts on the text map (row, column), from the map data's
    layout hint (N1): x to the right, y upwards."""
    x, y = game.m.positions[island]
    return _point(game, x, y)


def _point(game: Game, x: float, y: float) -> tuple[int, int]:
    xs = [p[0] for p in game.m.positions]
    ys = [p[1] for p in game.m.positions] + [game.m.dolphin[1]]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    col = round((x - x0) / (x1 - x0) * (MAP_COLUMNS - 8)) + 1
    row = round((y1 - y) / (y1 - y0) * (MAP_ROWS - 2))
    return row, col


def _arrow(d_row: float, d_col: float) -> str:
    """The ASCII arrow closest to a direction on screen (a row is about two columns tall)."""
    if abs(d_col) >= abs(2 * d_row):
        return ">" if d_col > 0 else "<"
    return "v" if d_row > 0 else "^"


def _pieces_mark(game: Game, island: int) -> str:
    """The pieces on an island, as capital colour letters; a stunned piece has a '*'."""
    out = []
    for p in range(game.n):
        for k, x in enumerate(game.loc[p]):
            if x == island:
                out.append(MARKS[game.players[p]].upper() + ("*" if game.stun[p][k] else ""))
    return "".join(out)


def map_lines(game: Game) -> list[str]:
    """The islands where the map data puts them, the currents in play as dotted lines, and
    on each current its fish: the colour it shows (r y g b, w white) and an arrow from its
    tail to its head. Pieces are capital letters under the island, the Dolphin at the top,
    the volcano as ^^^. Islands out of play are left out (N9)."""
    m, lay = game.m, game.lay
    grid = [[" "] * MAP_COLUMNS for _ in range(MAP_ROWS)]
    centre = {}
    for i in lay.islands:
        r, c = _cell(game, i)
        centre[i] = (r, c + 2)

    def put(r: int, c: int, text: str) -> None:
        for k, ch in enumerate(text):
            if 0 <= r < MAP_ROWS and 0 <= c + k < MAP_COLUMNS:
                grid[r][c + k] = ch

    for cur in lay.currents:
        a, b = m.currents[cur]
        (ra, ca), (rb, cb) = centre[a], centre[b]
        steps = max(abs(rb - ra), abs(cb - ca))
        for s in range(1, steps):
            r = round(ra + (rb - ra) * s / steps)
            c = round(ca + (cb - ca) * s / steps)
            if grid[r][c] == " ":
                grid[r][c] = "."
    barred = game.barred()
    for i in lay.islands:
        r, c = _cell(game, i)
        put(r, c, f" {m.islands[i]} ")
        under = "^^^" if barred[i] and game.volcano == i else _pieces_mark(game, i)
        if under:
            put(r + 1, c + 1, under)
    for cur in lay.currents:  # the fish last, each where it hides nothing drawn before
        tail = game.fish_tail[cur]
        if tail < 0:
            continue
        a, b = m.currents[cur]
        (ra, ca), (rb, cb) = centre[a], centre[b]
        (rt, ct), (rh, ch) = centre[tail], centre[game.head(cur)]
        shows = game.shows(cur)
        mark = MARKS["white"] if shows < 0 else MARKS[m.colours[shows]]
        for f in (0.5, 0.42, 0.58, 0.34, 0.66, 0.26, 0.74):
            r, c = round(ra + (rb - ra) * f), round(ca + (cb - ca) * f)
            if all(0 <= c + k < MAP_COLUMNS and grid[r][c + k] in " ." for k in (-1, 0)):
                break
        put(r, c - 1, mark + _arrow(rh - rt, ch - ct))
    if game.volcano >= SEA:  # two players: the volcano on a sea space (N3, N30)
        hit = m.sea[game.volcano - SEA]
        r = round(sum(centre[i][0] for i in hit if i in centre) / len(hit))
        c = round(sum(centre[i][1] for i in hit if i in centre) / len(hit))
        put(r, c - 1, "^^^")
    r, c = _point(game, *m.dolphin)
    dolphin = "".join(
        MARKS[game.players[p]].upper() for p in range(game.n) for x in game.loc[p] if x == DOLPHIN
    )
    name = _("Dolphin")  # the map speaks the language; the decision stays "dolphin HONU"
    put(r, c - 2, f"({name} {dolphin})" if dolphin else f"({name})")
    return ["".join(row).rstrip() for row in grid]


def legend() -> str:
    return _(
        "fish: r y g b the colour it shows, w white, > < ^ v from tail to head; "
        "R Y G B pieces (* stunned); ^^^ the volcano"
    )


def island_lines(game: Game) -> list[str]:
    """Per island in play: its two tiles, its pieces and the fish leaving it (the head
    island and the side shown), so the text map's arrows can be checked exactly."""
    m, lay = game.m, game.lay
    out = [_("Islands: tiles, pieces, fish leaving (head island, side shown)")]
    for i in lay.islands:
        here = " ".join(m.tiles[t] for t in game.tiles[i]) or "-"
        leaving = []
        for cur, other in lay.adjacent[i]:
            if game.fish_tail[cur] == i:
                shows = game.shows(cur)
                side = MARKS["white"] if shows < 0 else MARKS[m.colours[shows]]
                leaving.append(f">{m.islands[other]} {side}")
        pieces = _pieces_mark(game, i) or "-"
        volcano = " ^^^" if game.barred()[i] else ""
        out.append(
            f"  {m.islands[i]:<4} {here:<27} {pieces:<4} {' '.join(leaving)}{volcano}".rstrip()
        )
    return out


def _where(game: Game, x: int) -> str:
    if x == DOLPHIN:
        return _("the Dolphin")
    return game.m.islands[x]


def player_lines(game: Game) -> list[str]:
    """Per player: pieces, gods and protection cards, temples, the score a scoring now
    would give (N48) and the tiles held (public, N12)."""
    out = []
    scores = game.scores()
    for p, name in enumerate(game.players):
        pieces = [_where(game, x) for x in game.loc[p] if x != SUPPLY] or [_("none")]
        cards = [g for g in GODS[:4] if game.gods[GODS.index(g)] == p]
        prot = [g for g in GODS[:4] if game.prot[GODS.index(g)] == p]
        held = ", ".join(cards) or "-"
        if prot:
            held += " " + _("(protection: {gods})").format(gods=", ".join(prot))
        temples = " ".join(f"{g} {game.temples[p][k]}" for k, g in enumerate(GODS))
        turn = "*" if p == game.current and not game.is_terminal() else " "
        out.append(
            _("{turn}{colour}: pieces {pieces}; gods cards {cards}").format(
                turn=turn, colour=colour(name), pieces=", ".join(pieces), cards=held
            )
        )
        out.append("   " + _("temples {temples}; score {score}").format(
            temples=temples, score=scores[p]))  # fmt: skip
        hand = " ".join(game.hand_tiles(p)) or _("(none)")
        out.append("   " + _("tiles held: {tiles}").format(tiles=hand))
    free = [g for k, g in enumerate(GODS[:4]) if game.gods[k] == NOBODY]
    if free:
        out.append(_("Gods cards nobody holds: {gods}").format(gods=", ".join(free)))
    return out


def volcano_line(game: Game) -> str:
    """The volcano track: tiles drawn of the game's end count, an eruption at each even one
    (N28), and where the volcano stands."""
    drawn, end = game.volcanoes, game.end_count
    track = "".join(
        ("#" if k <= drawn else ("e" if k % 2 == 0 else ".")) for k in range(1, end + 1)
    )
    line = _("Volcano tiles: {drawn} of {end} [{track}] (e: eruption, the last ends the game)")
    line = line.format(drawn=drawn, end=end, track=track)
    v = game.volcano
    if v >= SEA:
        line += " " + _("volcano on {where}").format(where=game.m.sea_names[v - SEA])
    elif v >= 0:
        line += " " + _("volcano on {where}").format(where=game.m.islands[v])
    return line


def header(game: Game) -> str:
    if game.is_terminal():
        return _("Kanaloa, {n} players: the game is over").format(n=game.n)
    bag = len(game.bag)
    head = _("Kanaloa, {n} players, turn {turn}: {colour} to decide ({phase}); bag {bag}").format(
        n=game.n,
        turn=game.turn,
        colour=colour(game.to_move or ""),
        phase=_(PHASE_WORDS.get(game.phase_name, game.phase_name)),
        bag=tiles(bag),
    )
    return head


def render(game: Game) -> str:
    """The whole state as text, every line at most 80 columns in every language: the same
    for every viewer (N12: only the bag's order is hidden, and it is never shown)."""
    lines = [header(game), *map_lines(game), legend(), *island_lines(game)]
    lines += [volcano_line(game), *player_lines(game)]
    if game.sac_god >= 0:
        lines.append(
            _("Open sacrifice to {god}: {tiles}").format(
                god=GODS[game.sac_god], tiles=" ".join(game.m.tiles[t] for t in game.sac_tiles)
            )
        )
    out: list[str] = []
    for line in lines:
        out += fit(line, WIDTH)
    return "\n".join(out)


def describe_events(game: Game, events: Sequence[Event]) -> list[str]:
    """The automatic effects of a decision (draws, eruptions, stuns, temples, cards...)."""
    m = game.m
    out = []
    for event in events:
        match event:
            case TurnBegan(number=number, player=p, eruption=eruption):
                text = (
                    _("turn {number}: {colour} (eruption turn)")
                    if eruption
                    else _("turn {number}: {colour}")
                )
                out.append(text.format(number=number, colour=colour(game.players[p])))
            case Drew(tile=tile, island=island):
                said = _("{tile} drawn for {island}")
                out.append(said.format(tile=m.tiles[tile], island=m.islands[island]))
            case VolcanoDrawn(count=count):
                out.append(_("volcano tile number {count} drawn").format(count=count))
            case ReserveUsed():
                out.append(_("the bag is empty: the reserve goes in"))
            case Erupted(pele=pele):
                out.append(
                    _("eruption! {colour} places the volcano and plays the next turn (N29)").format(
                        colour=colour(game.players[pele])
                    )
                )
            case Stunned(player=p, island=island):
                out.append(
                    _("{colour}'s piece on {island} is stunned (N32)").format(
                        colour=colour(game.players[p]), island=m.islands[island]
                    )
                )
            case LostTurn(player=p):
                who = colour(game.players[p])
                out.append(_("{colour} loses the turn (N32)").format(colour=who))
            case VolcanoRemoved():
                out.append(_("the volcano leaves the map (N33)"))
            case TempleRaised(player=p, god=g, value=value):
                out.append(
                    _("{colour}'s {god} temple: {value}").format(
                        colour=colour(game.players[p]), god=GODS[g], value=value
                    )
                )
            case CardPassed(card=card, god=g, giver=giver, taker=taker):
                text = (
                    _("{god} gods card: {giver} to {to}")
                    if card == "gods"
                    else _("{god} protection card: {giver} to {to}")
                )
                out.append(text.format(god=GODS[g], giver=_seat_name(game, giver),
                                       to=_seat_name(game, taker)))  # fmt: skip
            case Ended():
                out.append(describe_result(game))
    return out


def _seat_name(game: Game, p: int) -> str:
    return _("nobody") if p is None or p < 0 else colour(game.players[p])


def describe_result(game: Game) -> str:
    r = game.result()
    if r is None:
        return _("the game is not over")
    scores = ", ".join(f"{colour(c)} {s}" for c, s in zip(game.players, r.scores, strict=True))
    winners = " & ".join(colour(game.players[p]) for p in r.winners)
    return _("Game over (N48): {scores}. Winner: {winners}.").format(scores=scores, winners=winners)


def text(game: Game, viewer: int | None = None) -> str:
    """The position as text for any viewer (its description's ``render``, N12)."""
    return render(game)
