"""A remote seat's copy of the game: what the host has acknowledged, nothing else.

Why a mirror applies only the host's messages: the seat's own decision is sent (and sent
again until acknowledged) but becomes part of the game only when the host's ``Decision``
numbered ``seq`` comes back, so the two sides can never disagree about the history. A gap
in the numbers or a view whose digest does not match makes the mirror ask again (a new
``Hello``), and the host answers with a snapshot: a reconnecting seat gets the snapshot
first and then the decisions it missed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .views import patch, state_from_view, view_digest
from .wire import HOST, Ack, Decide, Decision, Hello, Message, Snapshot, Status, nonce

MAX_ASKED = 64
"""Host runs a seat asks a snapshot of on their word: a table has had a few, a flood more."""


@dataclass
class Refused:
    """The host refused this seat's decision: show the sentence at the board."""

    seq: int
    decision: str
    reason: str


class Mirror:
    """One seat's side of a remote game. Feed it the host's messages with ``receive``;
    send what ``hello``, ``decide`` and ``outbox`` return."""

    def __init__(
        self, seat: str, *, table: str, kit: str, hints: bool = False, session: str = ""
    ) -> None:
        self.seat = seat
        self.table = table
        self.kit = kit
        self.allow_hints = hints
        self.session = session or nonce()
        """This run of the seat: a seat without a game takes only the snapshot that
        answers its own hello (a persistent session's, a retained or replayed old game's
        snapshot never starts it)."""
        self.boot = ""  # the host's run of the last snapshot taken
        self.tick = 0  # that run's last snapshot or status taken (older ones are replays)
        self.host_tick = 0  # the host run's last presence taken
        self.asked: set[str] = set()  # host runs a hello was sent for on their status
        self.result = ""
        self.rejected = ""  # the host's sentence when it refused this seat's hello
        self.game_id = ""
        self.name = ""
        self.players: list[str] = []
        self.history: list[str] = []
        self.deciders: list[str] = []
        self.view: dict[str, Any] = {}
        self.to_move = ""
        self.legal: list[str] = []
        self.hints = False
        self.away: dict[str, int] = {}
        self.reveal = ""
        self.pending: Decide | None = None
        self.refused: Refused | None = None
        self.synced = False  # a snapshot has been received and nothing missed since

    @property
    def seq(self) -> int:
        return len(self.history)

    @property
    def paused(self) -> bool:
        return bool(self.away)

    @property
    def last(self) -> tuple[str, str] | None:
        """The last decision (seat, text): every seat sees it highlighted."""
        return (self.deciders[-1], self.history[-1]) if self.history else None

    def hello(self) -> Hello:
        return Hello(
            self.table, self.game_id, self.seat, have=self.seq, hints=self.allow_hints,
            kit=self.kit, session=self.session,
        )  # fmt: skip

    def decide(self, decision: str) -> Decide | None:
        """Send ``decision`` as this seat's next one, or None when it is not this seat's
        turn by the mirror's knowledge or one is already waiting for its acknowledgement."""
        if self.pending is not None or not self.synced or self.to_move != self.seat:
            return None
        self.refused = None
        self.pending = Decide(self.table, self.game_id, self.seat, seq=self.seq + 1,
                              decision=decision, nonce=nonce())  # fmt: skip
        return self.pending

    def outbox(self) -> list[Message]:
        """What to send again after a reconnection or a silence: the unacknowledged
        decision, if any."""
        return [self.pending] if self.pending is not None else []

    def receive(self, message: Message) -> list[Message]:
        """Apply one message from the host; return what to send back (a ``Hello`` when
        the mirror has to be brought up to date). Messages meant for another seat, table
        or game, and repeats, change nothing."""
        if message.sender != HOST or message.table != self.table:
            return []
        if getattr(message, "to", self.seat) != self.seat:
            return []
        if (
            isinstance(message, Ack)
            and message.seq == 0
            and not message.ok
            and message.re == self.session
        ):
            self.rejected = message.reason  # this seat is not ours to take at this table
            return []
        if self.game_id and message.game != self.game_id:
            return []  # an old game's message replayed, or a second host: ignore it
        if isinstance(message, Snapshot):
            return self._snapshot(message)
        if not self.synced:
            return []
        if isinstance(message, Decision):
            return self._decision(message)
        if isinstance(message, Ack):
            return self._ack(message)
        if isinstance(message, Status):
            return self._status(message)
        return []

    def _status(self, s: Status) -> list[Message]:
        """A status of the host run this seat follows counts if newer than the last taken;
        one of another run (the host restarted, or a replay) only makes the seat ask for a
        snapshot, once per run: who is away is never taken from it."""
        if s.boot != self.boot:
            if s.boot in self.asked or len(self.asked) >= MAX_ASKED:
                return []  # asked already (or a flood of made-up runs: the connection asks)
            self.asked.add(s.boot)
            return [self.hello()]
        if s.tick <= self.tick:
            return []  # older than what this seat holds: a replay
        self.tick = s.tick
        self.away, self.hints = dict(s.away), s.hints
        if s.seq > self.seq:
            self.synced = False
            return [self.hello()]  # decisions were missed: ask for the snapshot
        return []

    def host_presence(self, online: bool, session: str, tick: int) -> str:
        """The host's signed presence judged: "away", "back" (its run this seat follows),
        "new" (another run is online: ask it for a snapshot) or "" (old: a replay, a former
        run's Last Will)."""
        if session != self.boot or not self.boot:
            if not online or session in self.asked or len(self.asked) >= MAX_ASKED:
                return ""
            self.asked.add(session)
            return "new"
        if tick <= self.host_tick:
            return ""
        self.host_tick = tick
        return "back" if online else "away"

    def _snapshot(self, s: Snapshot) -> list[Message]:
        if not self.game_id and s.re != self.session:
            return []  # a seat without a game takes only the answer to its own hello
        if s.boot == self.boot and s.tick <= self.tick:
            return []  # this run's older snapshot: a replay
        if s.boot != self.boot and s.re != self.session:
            return []  # another run's, not the answer to this seat's hello: a replay
        if s.seq < self.seq or len(s.history) != s.seq or len(s.deciders) != s.seq:
            return []  # older than what this seat holds, or not consistent: ignore
        if s.history[: self.seq] != self.history and self.synced:
            return []  # it rewrites acknowledged history: never accepted
        if view_digest(s.view) != s.digest:
            return []
        self.game_id, self.name, self.players = s.game, s.name, list(s.players)
        self.history, self.deciders = list(s.history), list(s.deciders)
        self.view, self.to_move, self.legal = s.view, s.to_move, list(s.legal)
        self.hints, self.away, self.reveal = s.hints, dict(s.away), s.reveal
        self.result = s.result
        if s.boot != self.boot:
            self.host_tick = 0
        self.boot, self.tick = s.boot, s.tick
        self.synced = True
        if self.pending is not None and self.pending.seq <= self.seq:
            self.pending = None  # taken (or overtaken): the history says which
        return []

    def _decision(self, d: Decision) -> list[Message]:
        if d.seq <= self.seq:
            return []  # a repeat
        if d.seq > self.seq + 1:
            self.synced = False
            return [self.hello()]  # a gap: ask for the snapshot
        view = patch(self.view, d.changes, d.removed)
        if view_digest(view) != d.digest:
            self.synced = False
            return [self.hello()]
        self.view, self.to_move, self.legal = view, d.to_move, list(d.legal)
        self.history.append(d.decision)
        self.deciders.append(d.seat)
        if self.pending is not None and self.pending.seq <= d.seq:
            self.pending = None
        return []

    def _ack(self, a: Ack) -> list[Message]:
        p = self.pending
        if p is None or a.seq != p.seq or a.re != p.nonce:
            return []  # not the answer to the decision on its way (a replay, another run's)
        if not a.ok and a.final:
            self.refused = Refused(p.seq, p.decision, a.reason)
            self.pending = None
        return []

    @property
    def final_digest(self) -> str:
        """The host's digest of the whole final state, announced once the game is over
        ("" before). The state itself never comes: it would show this seat what it never
        saw (a hidden hand). Equal digests on every kit say the game ended the same; the
        mirror's own view is checked against the host's view digest with every message."""
        return self.reveal

    def state(self) -> Any:
        """A playable state as this seat sees it (``views.state_from_view``), or None."""
        if not self.synced:
            return None
        return state_from_view(self.name, self.view)
