"""An in-memory table for the remote-play core: one authority, one mirror per remote seat,
every message encoded, signed and parsed as on the wire, and a hand on the delivery so a
test can drop, repeat or reorder messages (the transports are tested with a real broker).
"""

from __future__ import annotations

from typing import Any

from haleakala.remote import wire
from haleakala.remote.authority import Authority
from haleakala.remote.mirror import Mirror
from haleakala.remote.policy import pick


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Table:
    def __init__(
        self,
        game: Any,
        *,
        key: bytes = b"k",
        hints: dict[str, bool] | None = None,
        local: tuple[str, ...] = (),
    ) -> None:
        self.key = key
        self.clock = Clock()
        self.journal: list[dict] = []
        self.authority = Authority(
            game,
            table="t1",
            game_id="feed",
            local=local,
            journal=self.journal.append,
            clock=self.clock,
        )
        hints = hints or {}
        self.mirrors = {
            s: Mirror(s, table="t1", kit=f"kit-{s}", hints=hints.get(s, False))
            for s in game.players
            if s not in local
        }
        self.inbox: dict[str, list[wire.Message]] = {s: [] for s in self.mirrors}
        self.sent: dict[str, list[bytes]] = {s: [] for s in self.mirrors}  # bytes to each seat

    def wire(self, message: wire.Message) -> wire.Message:
        return wire.decode(wire.encode(message, self.key), self.key)

    def to_seats(self, messages: list[wire.Message]) -> None:
        for m in messages:
            for seat in [m.to] if hasattr(m, "to") else list(self.mirrors):  # type: ignore[attr-defined]
                if seat in self.mirrors:
                    self.sent[seat].append(wire.encode(m, self.key))
                    self.inbox[seat].append(self.wire(m))

    def to_host(self, seat: str, messages: list[wire.Message]) -> None:
        for m in messages:
            self.to_seats(self.authority.receive(self.wire(m), seat))

    def join(self) -> None:
        for seat, mirror in self.mirrors.items():
            self.to_host(seat, [mirror.hello()])
        self.deliver()

    def deliver(self) -> None:
        while any(self.inbox.values()):
            for seat, box in self.inbox.items():
                while box:
                    self.to_host(seat, self.mirrors[seat].receive(box.pop(0)))

    def play(self, policy_seed: int, until: int | None = None) -> None:
        """Every seat plays ``pick`` until the game is over (or has ``until`` decisions)."""
        game = self.authority.game
        while not game.is_terminal() and (until is None or self.authority.seq < until):
            seat = game.to_move
            mirror = self.mirrors[seat]
            decide = mirror.decide(pick(sorted(mirror.legal), policy_seed, mirror.seq + 1))
            assert decide is not None, f"{seat} could not decide"
            self.to_host(seat, [decide])
            self.deliver()
