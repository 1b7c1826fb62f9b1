"""A seat whose decisions are typed (``run --remote --typed``, and every game without a board
here): the prompt, the legal decisions, the hand, and the commands that stay on this kit.

Why local commands: a line typed at a seat is a decision sent to the host, so ``help`` once
went to the host as one (and was refused there). Here a few words are this kit's own and are
answered at once, never sent: ``help``, ``legal``, ``hand``, ``where``.
"""

from __future__ import annotations

from typing import Any

SHOWN = 24
"""Legal decisions listed in the prompt; ``legal`` lists them all."""

HELP = (
    "type a decision in the game's notation (one of the legal ones) and press Enter; "
    "these stay on this kit: help (this), legal (every legal decision now), "
    "hand (what you hold), where (the game, the decisions so far, who is to decide)"
)
COMMANDS = ("help", "?", "legal", "hand", "where")
SEPARATOR = ", "
"""Between two legal decisions: a decision's notation may hold spaces (``discard HUNA``)."""


def hand_line(view: dict[str, Any]) -> str:
    """``your hand: …`` when this seat's view holds a hand of its own (a game of
    hidden hands), else ""."""
    hand = view.get("hand") if isinstance(view, dict) else None
    if isinstance(hand, list) and all(isinstance(card, str) for card in hand):
        return "your hand: " + (" ".join(hand) if hand else "(empty)")
    return ""


def prompt(seat: str, seq: int, legal: list[str], view: dict[str, Any]) -> list[str]:
    """What a typed seat is shown when it is to decide: its hand, then the prompt with the
    legal decisions (the first ``SHOWN``; ``legal`` lists every one)."""
    lines = [line for line in (hand_line(view),) if line]
    listed = SEPARATOR.join(legal[:SHOWN]) + (
        f" … (+{len(legal) - SHOWN}: legal)" if len(legal) > SHOWN else ""
    )
    lines.append(f"your decision {seq} ({seat}), {len(legal)} legal: {listed} — type one, or help")
    return lines


def answer(
    command: str,
    *,
    seat: str,
    name: str,
    seq: int,
    to_move: str,
    legal: list[str],
    view: dict[str, Any],
) -> list[str] | None:
    """The local answer to ``command``, or None when it is not a local command (a
    decision, to be sent)."""
    word = command.strip().lower()
    if word not in COMMANDS:
        return None
    if word in ("help", "?"):
        return [HELP]
    if word == "legal":
        if not legal:
            return [f"nothing to decide now: {to_move or 'nobody'} is to decide"]
        return [f"{len(legal)} legal: " + SEPARATOR.join(legal)]
    if word == "hand":
        return [hand_line(view) or f"{name} has no hidden hand: everything is on the table"]
    who = f"{to_move} is to decide" if to_move else "the game is over"
    return [f"{name or 'the game'}, seat {seat}: {seq} decisions so far; {who}"]
