"""The rules of Dots and Boxes (pure: no I/O, no clock): the state, the legal lines, what a
line does, and the end. Decisions are int codes inside and notation outside
(``notation``)."""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass
from typing import ClassVar, Self

from haleakala.core.errors import IllegalDecision, NotationError, SaveError
from haleakala.core.jsonread import load_json
from haleakala.core.refusal import Refusal
from haleakala.core.text import N_
from haleakala.gameapi import squash

from .notation import BOXES, LINES, box_lines, format_decision, lines_of_box, parse_decision

COLOURS = ("red", "yellow", "green", "blue")
FORMAT = "dots-game"
NOBODY = -1


@dataclass(frozen=True)
class Line:
    """A line was drawn."""

    kind: ClassVar[str] = "line"
    player: int
    code: int

    def to_record(self, game: Game) -> dict[str, object]:
        return {"type": self.kind, "player": game.players[self.player],
                "line": format_decision(self.code)}  # fmt: skip


@dataclass(frozen=True)
class Box:
    """A box was closed and claimed."""

    kind: ClassVar[str] = "box"
    player: int
    box: int

    def to_record(self, game: Game) -> dict[str, object]:
        return {"type": self.kind, "player": game.players[self.player], "box": self.box}


@dataclass(frozen=True)
class Ended:
    """The last line was drawn: the boxes counted."""

    kind: ClassVar[str] = "result"

    def to_record(self, game: Game) -> dict[str, object]:
        result = game.result()
        assert result is not None
        return {"type": self.kind,
                "boxes": dict(zip(game.players, result.scores, strict=True)),
                "winners": [game.players[p] for p in result.winners],
                "reason": result.reason}  # fmt: skip


Event = Line | Box | Ended


@dataclass(frozen=True)
class Result:
    scores: tuple[int, ...]
    winners: tuple[int, ...]

    @property
    def reason(self) -> str:
        """``points``: most boxes; ``shared``: a tie for first place."""
        return "points" if len(self.winners) == 1 else "shared"


class Game:
    """One game of Dots and Boxes for ``players`` (2 to 4); ``seed`` only names the game
    (the rules deal nothing), kept for logs and saves like every game's."""

    game_name: ClassVar[str] = "dots"

    def __init__(self, seed: int = 0, players: int = 2, start: str | None = None) -> None:
        if not 2 <= players <= 4:
            raise ValueError(f"Dots and Boxes is played by 2, 3 or 4 players, not {players}")
        self.seed = seed
        self.players: tuple[str, ...] = COLOURS[:players]
        if start is not None and start not in self.players:
            raise ValueError(f"start {start!r}: choose one of {', '.join(self.players)}")
        self.decider = self.players.index(start) if start is not None else 0
        self.start = self.decider
        self.drawn = [False] * LINES
        self.owner = [NOBODY] * BOXES
        self.history: list[int] = []

    # -- the position ----------------------------------------------------------------------

    @property
    def to_move(self) -> str | None:
        return None if self.is_terminal() else self.players[self.decider]

    def is_terminal(self) -> bool:
        return all(self.drawn)

    def scores(self) -> tuple[int, ...]:
        return tuple(self.owner.count(p) for p in range(len(self.players)))

    def result(self) -> Result | None:
        if not self.is_terminal():
            return None
        scores = self.scores()
        best = max(scores)
        return Result(scores, tuple(p for p, s in enumerate(scores) if s == best))

    def returns(self) -> tuple[float, ...]:
        n = len(self.players)
        result = self.result()
        if result is None:
            return (1.0 / n,) * n
        share = 1.0 / len(result.winners)
        return tuple(share if p in result.winners else 0.0 for p in range(n))

    # -- decisions ---------------------------------------------------------------------------

    def legal_actions(self) -> list[int]:
        return [] if self.is_terminal() else [c for c in range(LINES) if not self.drawn[c]]

    def legal_decisions(self) -> list[str]:
        return sorted(format_decision(c) for c in self.legal_actions())

    def format(self, action: int) -> str:
        return format_decision(action)

    def parse(self, text: str) -> int:
        return parse_decision(text)

    def _code(self, decision: int | str) -> int:
        return self.parse(decision) if isinstance(decision, str) else decision

    def refusal(self, decision: int | str, player: str | None = None) -> Refusal | None:
        try:
            code = self._code(decision)
        except NotationError as exc:
            return Refusal("not_notation", str(exc))
        if self.is_terminal():
            return Refusal.of("game_over", N_("the game is over: every line is drawn"))
        if player is not None and player != self.to_move:
            return Refusal.of("not_your_turn", N_("it is {colour}'s turn"), colour=self.to_move)
        if not 0 <= code < LINES:
            return Refusal.of("no_line", N_("there is no such line"))
        if self.drawn[code]:
            return Refusal.of("drawn", N_("that line is drawn already"))
        return None

    def why_illegal(self, decision: int | str, player: str | None = None) -> str | None:
        refused = self.refusal(decision, player)
        return None if refused is None else refused.text

    def apply(self, decision: int | str, player: str | None = None) -> list[Event]:
        refused = self.refusal(decision, player)
        if refused is not None:
            raise IllegalDecision(refused.text, refused)
        code = self._code(decision)
        me = self.decider
        self.drawn[code] = True
        self.history.append(code)
        events: list[Event] = [Line(me, code)]
        for box in box_lines(code):
            if self.owner[box] == NOBODY and all(self.drawn[c] for c in lines_of_box(box)):
                self.owner[box] = me
                events.append(Box(me, box))
        if len(events) == 1:
            self.decider = (me + 1) % len(self.players)
        if self.is_terminal():
            events.append(Ended())
        return events

    def seen_decision(self, text: str, decider: int, viewer: int | None) -> str:
        return text  # every line is public

    # -- copies, saves, search -----------------------------------------------------------------

    def clone(self) -> Self:
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.drawn, other.owner, other.history = self.drawn[:], self.owner[:], self.history[:]
        return other

    def to_dict(self) -> dict[str, object]:
        return {"format": FORMAT, "seed": self.seed, "players": len(self.players),
                "start": self.players[self.start], "history": [format_decision(c) for c in
                                                               self.history]}  # fmt: skip

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Self:
        """A save read and checked: its history is replayed through the rules."""
        try:
            data = load_json(text)
        except ValueError as exc:
            raise SaveError(f"not a saved game: {exc}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise SaveError(f"not a saved Dots and Boxes game (format {FORMAT!r})")
        seed, players, start = data.get("seed"), data.get("players"), data.get("start")
        history = data.get("history")
        if (
            not isinstance(seed, int)
            or not isinstance(players, int)
            or not isinstance(history, list)
        ):
            raise SaveError("a save needs seed, players and history")
        try:
            game = cls(seed, players, start if isinstance(start, str) else None)
            for text_ in history:
                game.apply(str(text_))
        except ValueError as exc:
            raise SaveError(f"its history does not replay: {exc}") from None
        return game

    def digest(self) -> str:
        return hashlib.sha256(self.to_json().encode()).hexdigest()[:16]

    def determinize(self, observer: int, rng: random.Random) -> Self:
        return self.clone()  # nothing is hidden

    def observation(self, player: int) -> dict[str, object]:
        return {"lines": [format_decision(c) for c in range(LINES) if self.drawn[c]],
                "boxes": [self.players[o] if o >= 0 else None for o in self.owner],
                "to_move": self.to_move}  # fmt: skip

    def evaluate(self, player: int) -> float:
        scores = self.scores()
        others = max(s for p, s in enumerate(scores) if p != player)
        return squash(scores[player] - others, 2.0)

    def __repr__(self) -> str:
        return f"<Dots seed={self.seed} players={len(self.players)} lines={len(self.history)}>"
