"""The authority of a remote game: the one place that deals, judges, journals and tells.

Why one place: with two copies of the rules deciding, a lost message or a different
version splits the game in two. Here the host alone holds the true ``GameState`` (its
random material included), numbers every accepted decision with ``seq`` (its place in the
history, from 1), writes it to the journal *before* acknowledging it, and sends each seat
only what that seat may see (``observation(seat)``: a hidden hand never leaves the host for
the opponent, the first snapshot included). Seats send decisions and mirror the answers.

Transport-neutral: ``receive`` takes a parsed message and the seat the transport
authenticated it as (the MQTT topic, a phone's token) and returns the messages to send;
each has a ``to`` seat, except ``Status`` which goes to everyone. No clock is read here:
``clock`` is injected (presence and pauses are measured with it).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from haleakala.gameapi import game_of

from .views import diff, seen_decision, view_digest
from .wire import HOST, Ack, Decide, Decision, Hello, Message, Snapshot, Status, canonical


class Authority:
    """The host's side of one remote game.

    ``local`` are the seats played at the host itself (always present, their consent to
    hints given by ``local_hints``); every other seat is away until its first ``Hello``.
    ``journal(record)`` must make ``record`` durable before it returns: it is called once
    per accepted decision, before the acknowledgement leaves.
    """

    def __init__(
        self,
        game: Any,
        *,
        table: str,
        game_id: str,
        local: Iterable[str] = (),
        local_hints: bool = False,
        journal: Callable[[dict[str, Any]], None] | None = None,
        clock: Callable[[], float],
        history: Iterable[tuple[str, str]] = (),
    ) -> None:
        self.game = game
        self.name: str = game_of(game)
        self.players: tuple[str, ...] = tuple(game.players)
        self.table = table
        self.game_id = game_id
        self.local = set(local)
        self.journal = journal
        self.clock = clock
        self.history: list[tuple[str, str]] = list(history)  # (seat, decision) by seq - 1
        self.consent: dict[str, bool] = {seat: local_hints for seat in self.local}
        now = clock()
        self.away_since: dict[str, float] = {
            seat: now for seat in self.players if seat not in self.local
        }
        self.kits: dict[str, str] = {}  # seat -> id of the kit that said hello for it
        self.views = {seat: self._view(seat) for seat in self.players}
        self.seen: dict[str, list[str]] = {  # the history as each seat may see it
            to: [self._seen(d, s, to) for s, d in self.history] for to in self.players
        }

    # -- what each seat may see --------------------------------------------------------

    @property
    def seq(self) -> int:
        """How many decisions have been accepted (the last one's ``seq``)."""
        return len(self.history)

    def _view(self, seat: str) -> dict[str, Any]:
        """``observation(seat)`` as the seat will hold it: through JSON, so that it shares
        no list with the live game (which would change it under the next diff) and its
        keys and arrays are what the other side decodes."""
        return json.loads(canonical(self.game.observation(self.players.index(seat))))

    def _seen(self, decision: str, decider: str, seat: str) -> str:
        """``decision`` as ``seat`` may see it (``views.seen_decision``)."""
        return seen_decision(
            self.game, decision, self.players.index(decider), self.players.index(seat)
        )

    def final_digest(self) -> str:
        """The digest of the whole final state, announced at the end instead of the state
        itself (which would show the seat what it never saw, a hidden hand)."""
        return str(self.game.digest()) if self.game.is_terminal() else ""

    def _legal(self, seat: str) -> list[str]:
        return list(self.game.legal_decisions()) if self.game.to_move == seat else []

    def hints_allowed(self) -> bool:
        """Hints and the coach only when every seat has said it allows them."""
        return all(self.consent.get(seat, False) for seat in self.players)

    def away(self) -> dict[str, int]:
        """Seats missing now and the whole seconds they have been gone."""
        now = self.clock()
        return {seat: int(now - since) for seat, since in sorted(self.away_since.items())}

    def paused(self) -> bool:
        """The game waits while any seat is missing; it is never forfeited for that."""
        return bool(self.away_since)

    def snapshot(self, seat: str) -> Snapshot:
        """Everything ``seat`` may know now: the history as it saw it; once the game is
        over, ``reveal`` holds the host's digest of the whole final state (not the state)."""
        view = self.views[seat]
        over = self.game.is_terminal()
        return Snapshot(
            self.table,
            self.game_id,
            HOST,
            to=seat,
            seq=self.seq,
            name=self.name,
            players=list(self.players),
            history=list(self.seen[seat]),
            deciders=[s for s, _ in self.history],
            view=view,
            digest=view_digest(view),
            to_move=self.game.to_move or "",
            legal=self._legal(seat),
            hints=self.hints_allowed(),
            away=self.away(),
            reveal=self.final_digest() if over else "",
        )

    def status(self) -> Status:
        return Status(
            self.table, self.game_id, HOST, seq=self.seq, away=self.away(),
            hints=self.hints_allowed(),
        )  # fmt: skip

    # -- presence ----------------------------------------------------------------------

    def connected(self, seat: str, online: bool) -> list[Message]:
        """The transport saw ``seat`` come or go (a Last Will, a closed socket)."""
        if seat not in self.players or seat in self.local:
            return []
        if online:
            if self.away_since.pop(seat, None) is None:
                return []
        elif seat not in self.away_since:
            self.away_since[seat] = self.clock()
        else:
            return []
        return [self.status()]

    # -- messages from seats ------------------------------------------------------------

    def receive(self, message: Message, seat: str) -> list[Message]:
        """Judge ``message`` that the transport authenticated as coming from ``seat``."""
        if seat not in self.players or seat in self.local:
            return []  # not a remote seat of this game: nobody may speak for it
        if message.table != self.table or message.sender != seat:
            return []  # misrouted or claiming another seat: a sentence would go to whom?
        if isinstance(message, Hello):
            return self.hello(seat, message)
        if isinstance(message, Decide):
            if message.game != self.game_id:
                return [self._ack(seat, message.seq, "a decision from another game")]
            return self.decide(seat, message.seq, message.decision)
        return []

    def hello(self, seat: str, message: Hello) -> list[Message]:
        """A seat (re)joins: it is present, its consent counts, it gets its snapshot."""
        self.kits[seat] = message.kit
        self.consent[seat] = message.hints
        self.away_since.pop(seat, None)
        return [self.snapshot(seat), self.status()]

    def _ack(self, seat: str, seq: int, reason: str = "", final: bool = True) -> Ack:
        return Ack(
            self.table, self.game_id, HOST, to=seat, seq=seq, ok=not reason, reason=reason,
            final=final,
        )  # fmt: skip

    def refusal(self, seat: str, seq: int, text: str) -> tuple[str, bool]:
        """Why ``seat``'s decision ``text`` numbered ``seq`` is not taken ("" if it is,
        or was already), and whether that is final (False: send it again later)."""
        if seq < 1:
            return "decision numbers start at 1", True
        if seq <= self.seq:
            if self.history[seq - 1] == (seat, self._canonical(text)):
                return "", True  # a repeat of an accepted decision: acknowledge again
            # never its text: an old number must not read a hidden decision (a discard)
            return f"decision {seq} was already taken by {self.history[seq - 1][0]}", True
        if seq > self.seq + 1:
            return f"decision {seq} is ahead of the game, which has {self.seq}", True
        if self.game.is_terminal():
            return "the game is over", True
        if self.paused():
            gone = ", ".join(f"{s} has been away {t} s" for s, t in self.away().items())
            return f"the game is paused: {gone}", False
        if self.game.to_move != seat:
            return f"it is {self.game.to_move}'s decision, not {seat}'s", True
        why = self.game.why_illegal(text, seat)
        return (why or "", True)

    def _canonical(self, text: str) -> str:
        try:
            return self.game.format(self.game.parse(text))
        except ValueError:
            return text

    def decide(self, seat: str, seq: int, text: str) -> list[Message]:
        """Take ``seat``'s decision if it is legal and next; always answer with an Ack."""
        reason, final = self.refusal(seat, seq, text)
        if reason:
            return [self._ack(seat, seq, reason, final)]
        if seq <= self.seq:
            return [self._ack(seat, seq)]
        return self._accept(seat, text)

    def _accept(self, seat: str, text: str) -> list[Message]:
        decision = self.game.format(self.game.parse(text))
        seen = {to: self._seen(decision, seat, to) for to in self.players}
        record = {"seq": self.seq + 1, "seat": seat, "decision": decision}
        if self.journal is not None:
            self.journal(record)  # durable before anyone hears of it
        self.game.apply(decision, seat)
        self.history.append((seat, decision))
        for to in self.players:
            self.seen[to].append(seen[to])
        out: list[Message] = [self._ack(seat, self.seq)]
        for to in self.players:
            new = self._view(to)
            changes, removed = diff(self.views[to], new)
            self.views[to] = new
            if to in self.local:
                continue  # played at the host's own board: nothing to send
            out.append(
                Decision(
                    self.table,
                    self.game_id,
                    HOST,
                    to=to,
                    seq=self.seq,
                    seat=seat,
                    decision=seen[to],
                    changes=changes,
                    removed=removed,
                    digest=view_digest(new),
                    to_move=self.game.to_move or "",
                    legal=self._legal(to),
                )
            )
        if self.game.is_terminal():
            out.extend(self.snapshot(to) for to in self.players if to not in self.local)
        return out

    def local_decide(self, seat: str, text: str) -> tuple[str, list[Message]]:
        """A decision made at the host's own board: ("", messages) or (refusal, [])."""
        reason, _ = self.refusal(seat, self.seq + 1, text)
        if reason:
            return reason, []
        out = self._accept(seat, text)
        return "", [m for m in out if not (isinstance(m, Ack))]
