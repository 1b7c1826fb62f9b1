"""A seat's view of the game: its digest, the change between two views, and a state
rebuilt from one.

Why top-level changes rather than JSON Patch: a view is a small object (Haleakala's is
~700 bytes) whose top-level keys are the game's parts (slots, discs, piles ...); sending
the parts a decision changed keeps a decision to ~100–300 bytes on the wire and needs no
library, and the digest of the whole view catches any drift.
"""

from __future__ import annotations

import copy
import hashlib
from typing import Any

from haleakala.gameapi import DEFAULT_GAME

from .wire import canonical


def view_digest(view: dict[str, Any]) -> str:
    """SHA-256 of the view's canonical JSON: equal views, equal digests, on any kit."""
    return hashlib.sha256(canonical(view)).hexdigest()


def seen_decision(game: Any, text: str, decider: int, viewer: int) -> str:
    """The text seat ``viewer`` may see of decision ``text`` made by seat ``decider``.

    Why a hook of the game: a decision's notation can name something hidden (a face-down
    face-down discard names the card, K19/K33), and only the game knows which. A game
    whose decisions are all public (Haleakala) defines no ``seen_decision`` and every seat
    sees the text; one that hides some defines ``seen_decision(text, decider, viewer)``
    on its state. It needs no position, so a resumed journal can be filtered too."""
    hook = getattr(game, "seen_decision", None)
    if hook is None or viewer == decider:
        return text
    return str(hook(text, decider, viewer))


def diff(old: dict[str, Any], new: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The top-level keys of ``new`` that differ from ``old``, and the keys it dropped."""
    changes = {k: v for k, v in new.items() if k not in old or old[k] != v}
    return changes, sorted(k for k in old if k not in new)


def patch(old: dict[str, Any], changes: dict[str, Any], removed: list[str]) -> dict[str, Any]:
    """``old`` with ``changes`` applied and ``removed`` dropped (``old`` is not touched)."""
    new = {k: v for k, v in old.items() if k not in removed}
    new.update(copy.deepcopy(changes))
    return new


def state_from_view(name: str, view: dict[str, Any]) -> Any:
    """A playable state of game ``name`` consistent with ``view``, or None when the game
    cannot be rebuilt from what a seat sees.

    Haleakala hides only the order of the draw piles, from both players alike, so its view
    is a save without seed and history whose piles are sorted: the rebuilt state is right
    about everything on the table and about which decisions are legal; only its draws are
    made up (the next view from the host corrects them). Other games (a hidden hand)
    return None and a mirror plays from the legal decisions the host sends."""
    if name != DEFAULT_GAME:  # the board's game: its view is a save without its seed
        return None
    from haleakala.games.haleakala.serialize import SaveError, from_dict

    try:
        return from_dict({**view, "seed": 0})
    except (SaveError, KeyError, TypeError, ValueError):
        return None
