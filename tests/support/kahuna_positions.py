"""Build a Kahuna position from a readable description (through the validated loader)."""

from __future__ import annotations

from collections import Counter

from haleakala.games.kahuna import Game
from haleakala.games.kahuna.serialize import from_dict

ISLANDS = sorted({"ALOA", "BARI", "COCO", "DUDA", "ELAI", "FAAA", "GOLA", "HUNA", "IFFI", "JOJO",
                  "KAHU", "LALE"})  # fmt: skip


def position(
    hands: dict[str, list[str]],
    bridges: dict[str, str] | None = None,
    stones: dict[str, str] | None = None,
    *,
    to_move: str = "white",
    display: list[str | None] | None = None,
    discard: list[str] = (),
    pile: list[str] | None = None,
    rnd: int = 1,
    must_draw: bool = False,
    phase: str = "open",
    points: list[list[int]] = (),
    seed: int = 0,
    last_turns: int = 0,
) -> Game:
    """Cards not named go to the pile (sorted), or to the discard when ``pile`` is given."""
    rest = Counter({i: 2 for i in ISLANDS})
    named = [*hands.get("white", []), *hands.get("black", []), *discard]
    named += [c for c in display or [] if c is not None]
    named += pile or []
    rest.subtract(Counter(named))
    assert all(n >= 0 for n in rest.values()), f"too many cards named: {rest}"
    leftover = sorted(rest.elements())
    if display is None:
        display, leftover = leftover[:3], leftover[3:]
    if pile is None:
        pile, discard = leftover, list(discard)
    else:
        discard = [*discard, *leftover]
    return from_dict(
        {
            "format": "kahuna-game",
            "version": 1,
            "seed": seed,
            "start": to_move,
            "round": rnd,
            "to_move": to_move,
            "phase": phase,
            "must_draw": must_draw,
            "last_turns": last_turns,
            "hands": {"white": hands.get("white", []), "black": hands.get("black", [])},
            "known": {"white": [], "black": []},
            "display": display,
            "pile": pile,
            "discard": discard,
            "buried": {"white": [], "black": []},
            "bridges": bridges or {},
            "stones": stones or {},
            "points": [list(p) for p in points],
            "shuffles": [21] * (rnd - 1),
            "result": None,
        }
    )


def records(game: Game, events: list[tuple]) -> list[dict]:
    from haleakala.games.kahuna.log import event_records

    return event_records(game, events)
