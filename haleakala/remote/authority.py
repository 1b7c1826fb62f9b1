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
        boot: str = "",
        result: Callable[[Any], str] | None = None,
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
        self.sessions: dict[str, str] = {}  # seat -> the run of that kit (its hello's session)
        self.ticks: dict[str, int] = {}  # seat -> the last presence tick taken of that run
        self.boot = boot  # this run of the host: its statuses and snapshots carry it
        self.tick = 0  # counts the snapshots and statuses of this run (a replay is older)
        self.result = result or (lambda game: "")
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

    def _next_tick(self) -> int:
        self.tick += 1
        return self.tick

    def snapshot(self, seat: str, re: str = "") -> Snapshot:
        """Everything ``seat`` may know now: the history as it saw it; once the game is
        over, ``reveal`` holds the host's digest of the whole final state (not the state)
        and ``result`` the final score in words. ``re``: the session of the hello answered."""
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
            re=re,
            boot=self.boot,
            tick=self._next_tick(),
            result=self.result(self.game) if over else "",
        )

    def status(self) -> Status:
        return Status(
            self.table, self.game_id, HOST, seq=self.seq, away=self.away(),
            hints=self.hints_allowed(), boot=self.boot, tick=self._next_tick(),
        )  # fmt: skip

    # -- presence ----------------------------------------------------------------------

    def connected(
        self, seat: str, online: bool, session: str | None = None, tick: int = 0
    ) -> list[Message]:
        """The transport saw ``seat`` come or go (a Last Will, a closed socket). With a
        ``session`` (a kit's signed presence) it counts only for the run of the seat's kit
        that said hello, and only if newer (``tick``) than the last one taken: a replayed
        or a former run's presence changes nothing."""
        if seat not in self.players or seat in self.local:
            return []
        if session is not None:
            if session != self.sessions.get(seat) or tick <= self.ticks.get(seat, 0):
                return []
            self.ticks[seat] = tick
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
                return [self._ack(seat, message.seq, "a decision from another game",
                                  re=message.nonce)]  # fmt: skip
            return self.decide(seat, message.seq, message.decision, message.nonce)
        return []

    def held_by_another(self, seat: str, message: Hello) -> bool:
        """``seat`` is here with another kit than the one saying hello now: a second kit
        started with the same seat (and key) must not silently take the seat over. The same
        kit started again (its id is stable on one machine) takes its seat back at once;
        another kit gets it once the first is away (its Last Will)."""
        held = self.kits.get(seat)
        return (
            held is not None
            and held != message.kit
            and seat not in self.away_since
            and self.sessions.get(seat) not in (None, message.session)
        )

    def hello(self, seat: str, message: Hello) -> list[Message]:
        """A seat (re)joins: it is present, its consent counts, it gets its snapshot
        (carrying its ``session`` back). A seat held by another kit is refused (``seq`` 0)."""
        if self.held_by_another(seat, message):
            return [self._ack(seat, 0, self.held_sentence(seat), re=message.session)]
        if self.sessions.get(seat) != message.session:
            self.ticks.pop(seat, None)  # a new run of the seat's kit: its presences count
        self.kits[seat] = message.kit
        self.sessions[seat] = message.session
        self.consent[seat] = message.hints
        self.away_since.pop(seat, None)
        return [self.snapshot(seat, re=message.session), self.status()]

    def held_sentence(self, seat: str) -> str:
        return (
            f"seat {seat} of table {self.table} is already held by kit {self.kits[seat]}: "
            f"choose another seat (this game's are {', '.join(self.players)}), or stop that "
            "kit first (a kit that died is let go within about 15 s)"
        )

    def _ack(self, seat: str, seq: int, reason: str = "", final: bool = True, re: str = "") -> Ack:
        return Ack(
            self.table, self.game_id, HOST, to=seat, seq=seq, ok=not reason, reason=reason,
            final=final, re=re,
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

    def decide(self, seat: str, seq: int, text: str, nonce: str = "") -> list[Message]:
        """Take ``seat``'s decision if it is legal and next; always answer with an Ack
        (carrying the decide's ``nonce`` back)."""
        reason, final = self.refusal(seat, seq, text)
        if reason:
            return [self._ack(seat, seq, reason, final, re=nonce)]
        if seq <= self.seq:
            return [self._ack(seat, seq, re=nonce)]
        return self._accept(seat, text, nonce)

    def _accept(self, seat: str, text: str, nonce: str = "") -> list[Message]:
        decision = self.game.format(self.game.parse(text))
        seen = {to: self._seen(decision, seat, to) for to in self.players}
        record = {"seq": self.seq + 1, "seat": seat, "decision": decision}
        if self.journal is not None:
            self.journal(record)  # durable before anyone hears of it
        self.game.apply(decision, seat)
        self.history.append((seat, decision))
        for to in self.players:
            self.seen[to].append(seen[to])
        out: list[Message] = [self._ack(seat, self.seq, re=nonce)]
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
