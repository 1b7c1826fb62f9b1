"""``haleakala run --remote mqtt://HOST:PORT/TABLE --seat COLOUR [--host]``: a kit at one
table of a remote game.

Why a loop of its own (beside the companion daemon's): the remote kit's game belongs to the
authority, which may be at the other table, so this kit must never decide alone what the
game is; it turns the link's events and its own seat's decisions into protocol messages on
one thread and says, line by line, what the board must show: the other table's decision
("yellow plays 3 on beach 2: place it"), a refusal, a pause with how long a party has been
gone. Its own seat is played by ``--autoplay SEED`` (the seeded ``policy.pick``), by
decisions typed on standard input (``--typed``, and any game but Haleakala), one per line,
in the game's notation, or at the board: ``remote.table`` runs the companion daemon and this
loop on a thread of its own, joined by ``BoardLink``.

The host kit keeps ``remote-journal.jsonl`` in its state directory and resumes it after a
crash with the same game id, so the seats' mirrors stay valid; a seat kit keeps nothing: a
snapshot brings it back. Both end by writing the final game (``remote-final.json``) and
printing its digest.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import queue
import socket
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from . import typed
from .authority import Authority
from .claims import Claim, HostClaim
from .hosting import EXIT_CONFIG, EXIT_OK, HostSide, write_final
from .hosting import EXIT_FAILURE as EXIT_FAILURE  # re-exported: start.py, table.py
from .journal import NAME as JOURNAL
from .mirror import Mirror
from .mqtt import Link, TableURL
from .policy import pick
from .told import Quiet, forged_hint, unreachable
from .wire import HOST, Message, Presence, ProtocolError, Snapshot, decode, nonce

SAY_AGAIN_S = 30.0
"""A broker still unreachable is said again this often (and whenever the reason changes)."""
WAIT_FOR_HOST_S = 10.0
"""(seat) Connected this long without a host's answer: say what to check."""


def kit_id(table: str, role: str, state_dir: Path) -> str:
    """Stable across restarts of this kit, different for another machine or directory:
    how a restarted host tells its own earlier claim on the table from a second host."""
    seed = f"{socket.gethostname()}\0{table}\0{role}\0{state_dir.resolve()}"
    return hashlib.sha256(seed.encode()).hexdigest()[:16]


def board_line(name: str, view: dict, seat: str, decision: str) -> str:
    """What the board shows for another seat's decision: the OLED's words for Haleakala
    ("YELLOW PLACES 3 ON BEACH 2: put the disc there"), the notation otherwise."""
    from .views import state_from_view

    state = state_from_view(name, view)
    if state is not None:
        try:
            from haleakala.games.haleakala.words.labels import proposal_words

            headline, todo = proposal_words(state, state.parse(decision), "rfid")
            return f"{headline}: {todo}" if todo else str(headline)
        except (ValueError, KeyError, IndexError):
            pass
    return f"{seat.upper()} PLAYS {decision}"


class RemoteKit(HostSide):
    """One kit's remote session (host or seat), driven by ``run``."""

    def __init__(
        self,
        url: TableURL,
        seat: str,
        *,
        host: bool,
        state_dir: Path,
        new_game: Callable[[], Any] | None = None,
        autoplay: int | None = None,
        autoplay_until: int | None = None,
        hints: bool = False,
        key: bytes = b"",
        keepalive: int = 10,
        ca_file: str | None = None,
        bots: dict[str, str] | None = None,
        out: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
        typed: bool = False,
    ) -> None:
        self.url, self.seat, self.is_host = url, seat, host
        self.state_dir = state_dir
        self.autoplay = autoplay
        self.key = key
        self.out = out or sys.stdout
        self.clock = clock
        self.quiet = Quiet(self.say, clock=clock)
        self.events: queue.Queue = queue.Queue()
        role = HOST if host else seat
        self.kit = kit_id(url.table, role, state_dir)
        self.session = nonce()  # this run: its presences and hellos carry it
        self.ca_file = ca_file
        self.link = Link(url, role, self.kit, self.events, key=key, keepalive=keepalive,
                         ca_file=ca_file, session=self.session)  # fmt: skip
        self.claim = HostClaim(self.kit, self.session, url.table, clock) if host else None
        self.authority: Authority | None = None
        self.mirror: Mirror | None = None
        self.finished: set[str] = set()  # seats that confirmed the final snapshot
        self.host_away_since: float | None = None
        self.exit_code: int | None = None
        self.shown = 0  # decisions already told to the board
        self.before: dict | None = None  # this seat's view after the last one told
        self.autoplay_until: int | None = None  # (tests) hold the autoplayer after this
        self.holding = False
        self.autoplay_until = autoplay_until
        self.typed = typed  # decisions typed: prompt, legal list, hand, local commands
        self.prompted = 0  # the decision number last prompted for
        self.held: dict[str, str] = {}  # seat -> a decision made while paused, sent later
        self.replied: dict[str, float] = {}  # (host) kits told they have no seat here
        self.unreachable_said: tuple[str, float] | None = None
        self.connected_at: float | None = None
        self.waiting_said = False
        # (bench) trace(what, seq): "decided", "shown", "snapshot", "connected"
        self.trace: Callable[[str, int], None] = lambda what, seq: None
        self.bot_names = dict(bots or {})  # (host) seat -> bot played here for it
        self.bots: dict[str, Any] = {}
        self.phones: set[str] = set()  # (host) seats played by phones it serves (``phones``)
        self.start_json = ""  # (host) the game's start, for the phones' logs
        self.lock: Any = contextlib.nullcontext()  # the phones' table's, when there is one
        self.after_change: Callable[[], None] = lambda: None  # the phones are told
        # the physical board (``remote.table``): told every agreed decision and position
        self.agreed: Callable[[int, str, str], None] | None = None
        self.position: Callable[[int, Any], None] | None = None
        self.board_answer: Callable[[str, int, str, Any], None] | None = None
        if host:
            self.authority = self._open_authority(new_game, hints)
            self.link.game = self.authority.game_id
        else:
            self.mirror = Mirror(seat, table=url.table, kit=self.kit, hints=hints,
                                 session=self.session)  # fmt: skip

    @property
    def established(self) -> bool:
        """(host) This kit hosts the table: its claim stands (``claims.HostClaim``)."""
        return self.claim is not None and self.claim.established

    # -- telling the board ----------------------------------------------------------------

    def say(self, line: str) -> None:
        print(line, file=self.out, flush=True)

    def send(self, messages: list[Message]) -> None:
        for m in messages:
            if getattr(m, "to", None) in self.phones:
                continue  # a phone's view travels only to the phone, never to a broker
            self.link.send(m)

    def _history_here(self) -> tuple[list[tuple[str, str]], str, dict] | None:
        """(seat, decision as this kit's seat may see it) by seq, the game's name and this
        seat's view; None before a seat has its snapshot. The host's own console shows the
        other seats' decisions as its seat saw them (a face-down discard is
        ``discard ?`` here too), never the full text it keeps."""
        if self.authority is not None:
            a = self.authority
            deciders = [seat for seat, _ in a.history]
            return list(zip(deciders, a.seen[self.seat], strict=True)), a.name, a.views[self.seat]
        m = self.mirror
        assert m is not None
        if not m.synced:
            return None
        return list(zip(m.deciders, m.history, strict=True)), m.name, m.view

    def _tell_new_decisions(self) -> None:
        """One line per decision the board has not shown yet; another table's decision is
        an instruction in the board's words (place it), this table's a confirmation. Only
        the newest can be put in words (the view before it is known); a catch-up after a
        snapshot is listed in notation."""
        here = self._history_here()
        if here is None:
            return
        pairs, name, view = here
        first = self.shown == 0 and self.before is None
        for seq in range(self.shown + 1, len(pairs) + 1):
            seat, decision = pairs[seq - 1]
            self.trace("shown", seq)
            if self.agreed is not None:
                full = self.authority.history[seq - 1][1] if self.authority else decision
                self.agreed(seq, seat, full)  # the board (Haleakala's: nothing is hidden)
            if seat == self.seat:
                self.say(f"{seq}: {seat} {decision} (taken)")
            elif seq == len(pairs) and self.before is not None and seq == self.shown + 1:
                self.say(f"{seq}: {seat} {decision} | "
                         f"{board_line(name, self.before, seat, decision)}")  # fmt: skip
            else:
                self.say(f"{seq}: {seat} {decision}")
        if self.position is not None and (first or len(pairs) > self.shown):
            self.position(len(pairs), self.agreed_state())
        self.shown = len(pairs)
        self.before = view

    def agreed_state(self) -> Any:
        """The agreed game as this kit may hold it, for its board: the host's own game (a
        copy), a seat's state rebuilt from its view with the agreed history (its draw
        piles' order is made up: the next view corrects it); None for a game that cannot
        be rebuilt from a view (a hidden hand)."""
        if self.authority is not None:
            return self.authority.game.clone()
        m = self.mirror
        assert m is not None
        state = m.state()
        if state is not None:
            try:
                state.history = [state.parse(text) for text in m.history]
            except ValueError:
                return None
        return state

    # -- events -------------------------------------------------------------------------

    def handle(self, event: tuple) -> None:
        kind = event[0]
        if kind == "connected":
            self.trace("connected", 0)
            self.say(f"connected to {self.url}")
            self.unreachable_said = None
            self.connected_at = self.clock()
            if self.authority is not None:
                if self.established:  # a newcomer waits until its claim is echoed
                    self.send([self.authority.status()])
            else:
                assert self.mirror is not None
                self.send([self.mirror.hello(), *self.mirror.outbox()])
        elif kind == "disconnected":
            self.say(f"broker lost ({event[1]}): dialling again; the game waits")
        elif kind == "refused":  # a wrong password or a forbidden client: retrying is futile
            self.say(
                f"the broker refused this kit: {event[1]} (check the user and the password: "
                "[remote] password in the config, or $HALEAKALA_MQTT_PASSWORD)"
            )
            self.exit_code = EXIT_CONFIG
        elif kind == "unreachable":
            self._unreachable(event[1])
        elif kind == "presence":
            self._presence(event[1], event[2])
        elif kind == "message":
            self._message(event[1], event[2])
        elif kind == "local":
            self.typed_line(event[1])
        elif kind == "board":
            self.board_decide(*event[1:])
        elif kind == "release":
            self.autoplay_until, self.holding = None, False
        elif kind == "send":  # a phone seat's decision or presence, judged at this host
            self.send(event[1])
            self._tell_new_decisions()

    def _unreachable(self, error: BaseException | None) -> None:
        """No broker answered: said at once, then again only when the reason changes or
        every ``SAY_AGAIN_S``; a TLS certificate nobody vouches for ends the kit (exit 2)."""
        sentence, retry = unreachable(self.url, error, ca_file=self.ca_file)
        now = self.clock()
        last = self.unreachable_said
        if last is None or last[0] != sentence or now - last[1] >= SAY_AGAIN_S:
            self.say(sentence)
            self.unreachable_said = (sentence, now)
        if not retry:
            self.exit_code = EXIT_CONFIG

    def _refused(self, sender: str, why: ProtocolError) -> None:
        known = sender == HOST or (
            self.authority is not None and sender in self.authority.players
        ) or sender == self.seat  # fmt: skip
        line = f"refused a message from {sender}: {why}"
        if "forged" in str(why) and known:
            line += f" ({forged_hint(sender)})"
        self.quiet.say("refused" if known else "refused-other", line)

    def _presence(self, role: str, raw: bytes) -> None:
        """A kit's signed presence: the host judges seats' and rival hosts' claims, a seat
        the host's (``Mirror.host_presence``); replays and strangers change nothing."""
        try:
            p = decode(raw, self.key)
        except ProtocolError as why:
            self._refused(role, why)
            return
        if not isinstance(p, Presence) or p.sender != role or p.table != self.url.table:
            return
        if self.authority is not None:
            if role == HOST:
                assert self.claim is not None
                self._claimed(self.claim.seen(Claim(p.kit, p.session, p.tick), p.online), p.kit)
            elif role != self.seat and role not in self.bots:
                out = self.authority.connected(role, p.online, p.session, p.tick)
                if out:
                    self.send(out)
                    self._tell_pause(self.authority.away())
            return
        if role != HOST:
            return
        m = self.mirror
        assert m is not None
        said = m.host_presence(p.online, p.session, p.tick)
        if said in ("new", "back"):
            if self.host_away_since is not None:
                self.say("the host is back")
            self.host_away_since = None
            self.send([m.hello(), *m.outbox()])
        elif said == "away" and self.host_away_since is None:
            self.host_away_since = self.clock()
            self.say("the host is away: the game is paused")

    def _tell_pause(self, away: dict[str, int]) -> None:
        if away:
            gone = ", ".join(f"{s} away {t} s" for s, t in away.items())
            self.say(f"paused: {gone} (never forfeited; it goes on when they are back)")
        else:
            self.say("everyone is here: the game goes on")

    def _message(self, sender: str, raw: bytes) -> None:
        try:
            message = decode(raw, self.key)
        except ProtocolError as refused:
            self._refused(sender, refused)
            return
        if self.authority is not None:
            self._host_message(sender, message)
            return
        m = self.mirror
        assert m is not None
        had_reveal, was_paused, earlier = bool(m.reveal), m.paused, m.refused
        self.send(m.receive(message))
        self.link.game = m.game_id
        if m.rejected:
            self.say(f"the host of table {self.url.table} refused this kit: {m.rejected}")
            self.exit_code = EXIT_CONFIG
            return
        if isinstance(message, Snapshot) and m.synced:
            self.trace("snapshot", m.seq)
        if m.refused is not None and m.refused is not earlier:
            self.say(f"the host refused {m.refused.decision}: {m.refused.reason}")
            if self.board_answer is not None:
                self.board_answer("refused", m.refused.seq, m.refused.decision, m.refused.reason)
        if m.paused != was_paused:
            self._tell_pause(m.away)
            if not m.paused:
                self.send(m.outbox())
        self._tell_new_decisions()
        if m.reveal and not had_reveal:
            self.send([m.hello()])  # tells the host this seat has the end

    # -- this seat's decisions ------------------------------------------------------------

    def paused_here(self) -> bool:
        """The game waits (someone is away, or the host): decisions are held, not sent."""
        if self.authority is not None:
            return bool(self.authority.paused())
        m = self.mirror
        assert m is not None
        return m.paused or self.host_away_since is not None

    def my_turn_legal(self) -> list[str]:
        """The legal decisions of this kit's seat now, [] when it is not to decide."""
        if self.authority is not None:
            a = self.authority
            return a._legal(self.seat) if not a.paused() else []
        m = self.mirror
        assert m is not None
        if not m.synced or m.pending is not None or m.paused or self.host_away_since:
            return []
        return sorted(m.legal) if m.to_move == self.seat else []

    def _seq(self) -> int:
        if self.authority is not None:
            return self.authority.seq
        assert self.mirror is not None
        return self.mirror.seq

    def decide(self, text: str, seat: str = "") -> str:
        """Send (seat kit) or take (host) this kit's decision; the reason it was not, or "".
        A decision made while the game is paused is held and sent when it goes on."""
        seq = self._seq() + 1
        if self.paused_here() and self._to_move() == (seat or self.seat):
            self.held[seat or self.seat] = text
            self.say(f"held: {text} is sent when the game goes on")
            return ""
        self.trace("decided", seq)
        if self.authority is not None:
            reason, out = self.authority.local_decide(seat or self.seat, text)
            if reason:
                self.say(f"not taken: {reason}")
            self.send(out)
            self._tell_new_decisions()
            return reason
        m = self.mirror
        assert m is not None
        message = m.decide(text)
        if message is None:
            reason = "not now: it is not this seat's decision, or one is still on its way"
            self.say(reason)
            return reason
        self.send([message])
        return ""

    def _to_move(self) -> str:
        if self.authority is not None:
            return self.authority.game.to_move or ""
        assert self.mirror is not None
        return self.mirror.to_move

    def _release_held(self) -> None:
        """The game goes on: the decisions held during the pause are sent now."""
        if self.held and not self.paused_here():
            held, self.held = self.held, {}
            for seat, text in held.items():
                self.say(f"sending the held decision {text}")
                self.decide(text, seat if seat != self.seat else "")

    def typed_line(self, text: str) -> None:
        """A line typed at this kit: a local command is answered here, anything else is
        this seat's decision."""
        here = self._history_here()
        view = here[2] if here else {}
        legal = self.my_turn_legal()
        said = typed.answer(text, seat=self.seat, name=here[1] if here else "",
                            seq=self._seq(), to_move=self._to_move(), legal=legal,
                            view=view)  # fmt: skip
        if said is not None:
            for line in said:
                self.say(line)
            return
        self.decide(text)

    def _prompt(self) -> None:
        """(typed) When this seat is to decide: its hand and the legal decisions, once."""
        if not self.typed:
            return
        legal = self.my_turn_legal()
        seq = self._seq() + 1
        if legal and self.prompted != seq and not self.held:
            self.prompted = seq
            here = self._history_here()
            for line in typed.prompt(self.seat, seq, legal, here[2] if here else {}):
                self.say(line)

    def _waiting(self) -> None:
        """(seat) Connected, and no host has answered for a while: say what to check."""
        m = self.mirror
        if m is None or m.synced or self.waiting_said or self.connected_at is None:
            return
        if self.clock() - self.connected_at >= WAIT_FOR_HOST_S:
            self.waiting_said = True
            self.say(
                f"no host of table {self.url.table} has answered yet: is the host kit started "
                "(--host) with this table's name and the same table key?"
            )

    def board_decide(self, seq: int, text: str, digest: str) -> None:
        """A decision taken at this kit's board (``remote.table``): sent (seat kit) or taken
        (host) only if it is this seat's, numbered next, and made on the agreed position;
        anything else is answered to the board (``board_answer``) and never sent."""
        from .views import view_digest

        answer = self.board_answer or (lambda kind, seq, text, why: None)
        if self.authority is not None:
            a = self.authority
            agreed, to_move, view = a.seq, a.game.to_move, a.views[self.seat]
        else:
            m = self.mirror
            assert m is not None
            agreed, to_move, view = m.seq, m.to_move, m.view
        if seq != agreed + 1:
            answer("diverged", seq, text, ("seq", agreed))
        elif digest != view_digest(view):
            answer("diverged", seq, text, ("view", agreed))
        elif to_move != self.seat:
            answer("refused", seq, text, f"it is {to_move}'s decision, not {self.seat}'s")
        else:
            reason = self.decide(text)
            if reason:
                answer("refused", seq, text, reason)

    def _autoplay(self) -> bool:
        """Make this seat's scripted decision if it is due; True if one was made."""
        if self.autoplay is None:
            return False
        legal = self.my_turn_legal()
        if legal:
            seq = self._seq() + 1
            if self.autoplay_until is not None and seq > self.autoplay_until:
                if not self.holding:
                    self.holding = True
                    self.say(f"holding before decision {seq} (--autoplay-until)")
                return False
            self.decide(pick(legal, self.autoplay, seq))
            return True
        return False

    # -- the end ------------------------------------------------------------------------

    def final_game(self) -> Any:
        if self.authority is not None:
            return self.authority.game if self.authority.game.is_terminal() else None
        m = self.mirror  # a seat's end: the host's final digest has come
        return m if m is not None and m.final_digest else None

    def done(self) -> bool:
        game = self.final_game()
        if game is None:
            return False
        if self.authority is not None:
            remote = set(self.authority.players) - {self.seat, *self.bots, *self.phones}
            return remote <= self.finished
        return True

    def finish(self) -> None:
        """The game is over: the final record written (an earlier one kept), the journal
        closed as ``.done``, the table's retained topics cleared, the score and digest said."""
        if self.authority is None:
            self._finish_seat()
            return
        game = self.final_game()
        a = self.authority
        write_final(self.state_dir, game.to_json(), a.game_id)
        journal = self.state_dir / JOURNAL
        journal.replace(journal.with_name(f"remote-journal-{a.game_id}.done"))
        self.link.clear()
        result = a.result(game)
        if result:
            self.say(f"final score: {result}")
        self.say(f"game over after {len(game.history)} decisions, digest {game.digest()}")

    def _finish_seat(self) -> None:
        """A seat ends with what it saw (its history and view) and the host's digest of
        the whole final state: the state itself never comes (a hidden hand would), and
        the view was checked against the host's view digest with every message."""
        m = self.mirror
        assert m is not None
        record = {
            "game": m.game_id, "name": m.name, "history": m.history, "deciders": m.deciders,
            "view": m.view, "digest": m.final_digest, "result": m.result,
        }  # fmt: skip
        write_final(self.state_dir, json.dumps(record, indent=1), m.game_id)
        self.link.clear()
        if m.result:
            self.say(f"final score: {m.result}")
        self.say(f"game over after {m.seq} decisions, digest {m.final_digest}")

    def _step(self) -> bool:
        """What the loop does between events; True once the game is over and finished."""
        while self._autoplay() or self._play_bots():  # several in a row need no message
            pass
        self._release_held()
        self._prompt()
        self._waiting()
        if self.claim is not None:
            due = self.claim.due()
            if due:
                self._claimed(due)
        self.after_change()
        if self.done():
            self.finish()
            return True
        return False

    def run(self, stop: threading.Event | None = None) -> int:
        stop = stop or threading.Event()
        self.link.start()
        try:
            while not stop.is_set() and self.exit_code is None:
                with self.lock:
                    if self._step():
                        return EXIT_OK
                try:
                    event = self.events.get(timeout=0.5)
                except queue.Empty:
                    continue
                with self.lock:
                    self.handle(event)
                    self.after_change()
            return self.exit_code or EXIT_OK
        finally:
            self.link.stop()


def stdin_reader(events: queue.Queue) -> None:
    for line in sys.stdin:
        if line.strip():
            events.put(("local", line.strip()))
