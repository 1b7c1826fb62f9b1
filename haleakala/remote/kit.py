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

import hashlib
import json
import queue
import secrets
import socket
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from haleakala.gameapi import game_of

from .authority import Authority
from .journal import JournalError, RemoteJournal
from .mirror import Mirror
from .mqtt import Link, TableURL
from .policy import pick
from .wire import HOST, Hello, Message, ProtocolError, Snapshot, decode

EXIT_OK, EXIT_FAILURE, EXIT_CONFIG = 0, 1, 2
FINAL = "remote-final.json"


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


class RemoteKit:
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
    ) -> None:
        self.url, self.seat, self.is_host = url, seat, host
        self.state_dir = state_dir
        self.autoplay = autoplay
        self.key = key
        self.out = out or sys.stdout
        self.clock = clock
        self.events: queue.Queue = queue.Queue()
        role = HOST if host else seat
        self.kit = kit_id(url.table, role, state_dir)
        self.link = Link(url, role, self.kit, self.events, key=key, keepalive=keepalive,
                         ca_file=ca_file)  # fmt: skip
        self.authority: Authority | None = None
        self.mirror: Mirror | None = None
        self.finished: set[str] = set()  # seats that confirmed the final snapshot
        self.host_away_since: float | None = None
        self.exit_code: int | None = None
        self.shown = 0  # decisions already told to the board
        self.before: dict | None = None  # this seat's view after the last one told
        self.autoplay_until: int | None = None  # (tests) hold the autoplayer after this
        self.holding = False
        self.established = False  # (host) our claim on the table is confirmed
        self.autoplay_until = autoplay_until
        # (bench) trace(what, seq): "decided", "shown", "snapshot", "connected"
        self.trace: Callable[[str, int], None] = lambda what, seq: None
        self.bot_names = dict(bots or {})  # (host) seat -> bot played here for it
        self.bots: dict[str, Any] = {}
        # the physical board (``remote.table``): told every agreed decision and position
        self.agreed: Callable[[int, str, str], None] | None = None
        self.position: Callable[[int, Any], None] | None = None
        self.board_answer: Callable[[str, int, str, Any], None] | None = None
        if host:
            self.authority = self._open_authority(new_game, hints)
        else:
            self.mirror = Mirror(seat, table=url.table, kit=self.kit, hints=hints)

    # -- the host's journal -------------------------------------------------------------

    def _open_authority(self, new_game: Callable[[], Any] | None, hints: bool) -> Authority:
        from haleakala.gameapi import game_class

        journal = RemoteJournal(self.state_dir / "remote-journal.jsonl")
        saved = journal.read()
        if saved is not None and saved[0].get("table") == self.url.table:
            setup, records = saved
            try:
                game = game_class(setup["name"]).from_json(setup["start"])
                game_id = str(setup["game"])
            except (KeyError, TypeError, ValueError) as exc:
                raise JournalError(f"{journal.path}: its setup cannot be resumed ({exc})") from None
            history = []
            for r in records:
                why = game.why_illegal(r["decision"], r["seat"])
                if why:
                    raise JournalError(f"{journal.path}: decision {r['seq']}: {why}")
                game.apply(r["decision"], r["seat"])
                history.append((r["seat"], r["decision"]))
            self.say(f"resumed game {game_id} of table {self.url.table} at decision {len(history)}")
        else:
            if new_game is None:
                raise JournalError("no game to resume and none to start")
            game = new_game()
            self.bots = self._make_bots(game)  # a wrong --seat starts no journal
            game_id, history = secrets.token_hex(8), []
            journal.start(
                {
                    "table": self.url.table,
                    "game": game_id,
                    "name": game_of(game),
                    "start": game.to_json(),
                }
            )
        if self.seat not in game.players:
            raise JournalError(
                f"{self.seat} is not a seat of this game: choose {', '.join(game.players)}"
            )
        self.bots = self.bots or self._make_bots(game)
        authority = Authority(
            game, table=self.url.table, game_id=game_id, local={self.seat, *self.bots},
            local_hints=hints,
            journal=journal.append, clock=self.clock, history=history,
        )  # fmt: skip
        if game.is_terminal():
            self.finished = set()
        return authority

    def _make_bots(self, game: Any) -> dict[str, Any]:
        """The bots of ``--seat COLOUR=BOT``: seats the host plays itself, present and
        consenting like its own seat (a JournalError with a sentence for a wrong one)."""
        from haleakala.ai import bots_of, make_bot

        name = game_of(game)
        bots = {}
        if self.seat not in game.players:
            return {}  # said by the caller
        for i, (colour, who) in enumerate(sorted(self.bot_names.items())):
            if colour not in game.players or colour == self.seat:
                others = ", ".join(p for p in game.players if p != self.seat)
                raise JournalError(f"--seat {colour}={who}: COLOUR is one of {others}")
            known = bots_of(name)
            if who not in known:
                raise JournalError(
                    f"--seat {colour}={who}: WHO is kit or a bot of {name}: "
                    + ", ".join(sorted(known))
                )
            bots[colour] = make_bot(who, seed=i + 1, game=name)
        return bots

    # -- telling the board ----------------------------------------------------------------

    def say(self, line: str) -> None:
        print(line, file=self.out, flush=True)

    def send(self, messages: list[Message]) -> None:
        for m in messages:
            self.link.send(m)

    def _tell_new_decisions(self) -> None:
        """One line per decision the board has not shown yet; another table's decision is
        an instruction in the board's words (place it), this table's a confirmation. Only
        the newest can be put in words (the view before it is known); a catch-up after a
        snapshot is listed in notation."""
        if self.authority is not None:
            a = self.authority
            pairs, name, view = a.history, a.name, a.views[self.seat]
        else:
            m = self.mirror
            assert m is not None
            if not m.synced:
                return
            pairs = list(zip(m.deciders, m.history, strict=True))
            name, view = m.name, m.view
        first = self.shown == 0 and self.before is None
        for seq in range(self.shown + 1, len(pairs) + 1):
            seat, decision = pairs[seq - 1]
            self.trace("shown", seq)
            if self.agreed is not None:
                self.agreed(seq, seat, decision)
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
            if self.authority is not None:
                if self.established:  # a newcomer waits until its claim is echoed
                    self.send([self.authority.status()])
            else:
                assert self.mirror is not None
                self.send([self.mirror.hello(), *self.mirror.outbox()])
        elif kind == "disconnected":
            self.say(f"broker lost ({event[1]}): dialling again; the game waits")
        elif kind == "refused":  # a wrong password or a forbidden client: retrying is futile
            self.say(f"the broker refused this kit: {event[1]} (check the user and password)")
            self.exit_code = EXIT_CONFIG
        elif kind == "presence":
            self._presence(*event[1:])
        elif kind == "message":
            self._message(event[1], event[2])
        elif kind == "local":
            self.decide(event[1])
        elif kind == "board":
            self.board_decide(*event[1:])
        elif kind == "release":
            self.autoplay_until, self.holding = None, False

    def _presence(self, role: str, online: bool, kit: str) -> None:
        if role == HOST:
            if self.authority is not None:
                self._host_presence(online, kit)
                return
            if online:
                if self.host_away_since is not None:
                    self.say("the host is back")
                self.host_away_since = None
                assert self.mirror is not None
                self.send([self.mirror.hello(), *self.mirror.outbox()])
            elif self.host_away_since is None:
                self.host_away_since = self.clock()
                self.say("the host is away: the game is paused")
            return
        if self.authority is not None and role != self.seat:
            out = self.authority.connected(role, online)
            if out:
                self.send(out)
                self._tell_pause(self.authority.away())

    def _host_presence(self, online: bool, kit: str) -> None:
        """Two hosts for one table: the retained presence says who hosts. A newcomer sees
        the sitting host's claim (delivered on subscribing, before the echo of its own) and
        leaves without a goodbye; the sitting host puts its claim back and plays on."""
        if kit == self.kit:
            if online and not self.established:
                self.established = True
                self.send([self.authority.status()])  # type: ignore[union-attr]
            return
        if not self.established:
            if online:
                self.say(
                    f"table {self.url.table} already has a host (kit {kit}): join it with "
                    "--seat and without --host, or choose another table"
                )
                self.exit_code = EXIT_CONFIG
                self.link.goodbye = False  # the presence is the sitting host's, not ours
            return
        self.say(f"another kit ({kit}) tried to host table {self.url.table}: ignored")
        self.link.claim()

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
            self.say(f"refused a message from {sender}: {refused}")
            return
        if self.authority is not None:
            if not self.established:
                return  # not yet known to be the table's only host: judge nothing
            if sender not in self.authority.players or sender == self.seat or sender in self.bots:
                self.say(
                    f"ignored a kit that claims seat {sender}: this game's remote seats are "
                    + ", ".join(s for s in self.authority.players if s != self.seat)
                )
                return
            out = self.authority.receive(message, sender)
            self.send(out)
            for answer in out:
                reason = getattr(answer, "reason", "")
                if reason:
                    seq = getattr(answer, "seq", "?")
                    self.say(f"refused {sender}'s decision {seq}: {reason}")
            if (
                isinstance(message, Hello)
                and self.authority.game.is_terminal()
                and message.have == self.authority.seq
            ):
                self.finished.add(sender)
            self._tell_new_decisions()
            return
        m = self.mirror
        assert m is not None
        had_reveal, was_paused, earlier = bool(m.reveal), m.paused, m.refused
        self.send(m.receive(message))
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

    def decide(self, text: str, seat: str = "") -> str:
        """Send (seat kit) or take (host) this kit's decision; the reason it was not, or ""."""
        seq = (self.authority.seq if self.authority else self.mirror.seq) + 1  # type: ignore[union-attr]
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
            seq = (self.authority.seq if self.authority else self.mirror.seq) + 1  # type: ignore[union-attr]
            if self.autoplay_until is not None and seq > self.autoplay_until:
                if not self.holding:
                    self.holding = True
                    self.say(f"holding before decision {seq} (--autoplay-until)")
                return False
            self.decide(pick(legal, self.autoplay, seq))
            return True
        return False

    def _play_bots(self) -> bool:
        """(host) A seat of ``--seat COLOUR=BOT`` to decide: its bot decides here."""
        a = self.authority
        if a is None or a.paused() or a.game.is_terminal() or a.game.to_move not in self.bots:
            return False
        game = a.game
        text = game.format(self.bots[game.to_move].decide(game.clone()))
        return not self.decide(text, game.to_move)

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
            remote = set(self.authority.players) - {self.seat, *self.bots}
            return remote <= self.finished
        return True

    def finish(self) -> None:
        game = self.final_game()
        if self.authority is None:
            self._finish_seat()
            return
        (self.state_dir / FINAL).write_text(game.to_json(), encoding="utf-8")
        if self.authority is not None:  # the next --host run deals a new game
            journal = self.state_dir / "remote-journal.jsonl"
            journal.replace(journal.with_name(f"remote-journal-{self.authority.game_id}.done"))
        self.say(f"game over after {len(game.history)} decisions, digest {game.digest()}")

    def _finish_seat(self) -> None:
        """A seat ends with what it saw (its history and view) and the host's digest of
        the whole final state: the state itself never comes (a hidden hand would), and
        the view was checked against the host's view digest with every message."""
        m = self.mirror
        assert m is not None
        record = {
            "game": m.game_id, "name": m.name, "history": m.history, "deciders": m.deciders,
            "view": m.view, "digest": m.final_digest,
        }  # fmt: skip
        (self.state_dir / FINAL).write_text(json.dumps(record, indent=1), encoding="utf-8")
        self.say(f"game over after {m.seq} decisions, digest {m.final_digest}")

    def run(self, stop: threading.Event | None = None) -> int:
        stop = stop or threading.Event()
        self.link.start()
        try:
            while not stop.is_set() and self.exit_code is None:
                while self._autoplay() or self._play_bots():  # several in a row need no message
                    pass
                if self.done():
                    self.finish()
                    return EXIT_OK
                try:
                    event = self.events.get(timeout=0.5)
                except queue.Empty:
                    continue
                self.handle(event)
            return self.exit_code or EXIT_OK
        finally:
            self.link.stop()


def stdin_reader(events: queue.Queue) -> None:
    for line in sys.stdin:
        if line.strip():
            events.put(("local", line.strip()))
