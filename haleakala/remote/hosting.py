"""The host kit's side of ``kit.RemoteKit``: its game (the journal resumed or a new deal),
the bots it plays for other seats, its claim on the table, and how it judges what the seats
send (a kit that claims a seat it cannot have is told so, never left waiting).

Why a mixin: the kit's loop is one (``kit.RemoteKit``: events, this seat's decisions, the
end) for the host and the seats; what only the host does is kept here, so each module
stays one idea and under the size rule.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from haleakala.companion.journal import CARD_AHEAD
from haleakala.gameapi import game_of

from .authority import Authority
from .claims import GRACE_S
from .journal import NAME as JOURNAL
from .journal import JournalError, RemoteJournal, open_host_game
from .wire import HOST, Ack, Hello, Message, Snapshot, nonce

EXIT_OK, EXIT_FAILURE, EXIT_CONFIG = 0, 1, 2
FINAL = "remote-final.json"
REPLY_S = 1.0
"""At most one answer a second to a kit that claims a seat it cannot have."""

if TYPE_CHECKING:
    from .claims import HostClaim
    from .mqtt import Link, TableURL
    from .told import Quiet


class HostSide:
    """The host's methods of ``RemoteKit`` (see the module's docstring)."""

    url: TableURL
    seat: str
    state_dir: Path
    clock: Callable[[], float]
    authority: Authority | None
    claim: HostClaim | None
    link: Link
    session: str
    quiet: Quiet
    bots: dict[str, Any]
    bot_names: dict[str, str]
    phones: set[str]
    start_json: str
    finished: set[str]
    replied: dict[str, float]
    exit_code: int | None

    if TYPE_CHECKING:

        def say(self, line: str) -> None: ...

        def send(self, messages: list[Message]) -> None: ...

        def decide(self, text: str, seat: str = "") -> str: ...

        def _tell_new_decisions(self) -> None: ...

        def _tell_pause(self, away: dict[str, int]) -> None: ...

        @property
        def established(self) -> bool: ...

    def _open_authority(self, new_game: Callable[[], Any] | None, hints: bool) -> Authority:
        # written ahead, as the board's own journal is on the card (remote/journal.py)
        journal = RemoteJournal(self.state_dir / JOURNAL, ahead=CARD_AHEAD)
        game, game_id, history, resumed = open_host_game(journal, self.url.table, new_game)
        for note in journal.notes:
            self.say(note)
        if self.seat not in game.players:
            raise JournalError(
                f"{self.seat} is not a seat of this game: choose {', '.join(game.players)}"
            )
        self.bots = self._make_bots(game)  # a wrong --seat starts no journal
        if resumed:
            self.say(f"resumed game {game_id} of table {self.url.table} at decision {len(history)}")
            saved = journal.read(repair=False)
            self.start_json = saved[0]["start"] if saved else ""
        else:
            self.start_json = game.to_json()
            said = len(journal.notes)
            journal.start(
                {
                    "table": self.url.table,
                    "game": game_id,
                    "name": game_of(game),
                    "start": game.to_json(),
                }
            )
            for note in journal.notes[said:]:
                self.say(note)
        return Authority(
            game, table=self.url.table, game_id=game_id, local={self.seat, *self.bots},
            local_hints=hints, journal=journal.append, clock=self.clock, history=history,
            boot=self.session, result=result_words,  # the run its presences carry too
        )  # fmt: skip

    def _make_bots(self, game: Any) -> dict[str, Any]:
        """The bots of ``--seat COLOUR=BOT``: seats the host plays itself, present and
        consenting like its own seat (a JournalError with a sentence for a wrong one)."""
        from haleakala.ai import bots_of, make_bot

        name = game_of(game)
        bots = {}
        if self.seat not in game.players:
            return {}  # said by the caller
        for i, (colour, who) in enumerate(sorted(self.bot_names.items())):
            if who == "phone" and colour in game.players and colour != self.seat:
                self.phones.add(colour)  # a phone seat this host serves (``phones``)
                continue
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

    def _claimed(self, action: str, kit: str = "") -> None:
        """What the host's claim on the table says to do (``claims.HostClaim.seen``)."""
        assert self.authority is not None and self.claim is not None
        if action == "host":
            waiting = [s for s in self.authority.players if s in self.authority.away_since]
            self.say(
                f"hosting table {self.url.table} (game {self.authority.game_id})"
                + (f": waiting for {', '.join(waiting)}" if waiting else "")
            )
            if self.claim.rival is not None:
                self.say(
                    f"the claim of kit {self.claim.rival.kit} on table {self.url.table} did "
                    "not answer (an old or replayed one): this kit hosts the table"
                )
                self.link.claim()
            self.send([self.authority.status()])
        elif action == "reclaim":
            self.quiet.say(
                "rival", f"another kit ({kit}) tried to host table {self.url.table}: ignored"
            )
            self.link.claim()
        elif action == "check":
            self.say(
                f"table {self.url.table} has a claim by kit {kit or self.claim.rival}: "
                f"checking for {GRACE_S:g} s whether that host is still there"
            )
        elif action == "leave":
            self.say(self.claim.refused)
            self.exit_code = EXIT_CONFIG
            self.link.goodbye = False  # the presence is the sitting host's, not ours

    def _host_message(self, sender: str, message: Message) -> None:
        a = self.authority
        assert a is not None
        if not self.established:
            return  # not yet known to be the table's only host: judge nothing
        if sender not in a.players or sender in (self.seat, *self.bots, *self.phones):
            self._not_a_seat(sender, message)
            return
        away = set(a.away_since)
        out = a.receive(message, sender)
        self.send(out)
        if set(a.away_since) != away:
            self._tell_pause(a.away())
        for answer in out:
            if isinstance(answer, Ack) and answer.reason:
                if answer.seq == 0:
                    self.say(f"refused a second kit for {sender}: {answer.reason}")
                else:
                    self.quiet.say("refusal", f"refused {sender}'s decision {answer.seq}: "
                                   f"{self._public(answer.reason, sender)}")  # fmt: skip
        if (
            isinstance(message, Hello)
            and a.game.is_terminal()
            and message.have == a.seq
            and any(isinstance(m, Snapshot) for m in out)
        ):
            self.finished.add(sender)
        self._tell_new_decisions()

    def _public(self, reason: str, seat: str) -> str:
        """A refusal of another seat's decision as this console may print it: in a game
        with hidden decisions the rules' sentence may name a card, so it is told to that
        seat only."""
        if self.authority is not None and hasattr(self.authority.game, "seen_decision"):
            return f"told to {seat}"
        return reason

    def _not_a_seat(self, sender: str, message: Message) -> None:
        """A kit claims a seat it cannot have here (not this game's, the host's own, a
        bot's): it is told so (to its own topic, at most once a second), never waits."""
        a = self.authority
        assert a is not None
        free = [s for s in a.players if s not in (self.seat, *self.bots, *self.phones)]
        if sender in self.phones:
            why = f"seat {sender} of table {self.url.table} is a phone's, served by the host"
        elif sender in a.players:
            why = f"seat {sender} of table {self.url.table} is played at the host"
        else:
            why = (f"table {self.url.table} plays {a.name} with the seats "
                   f"{', '.join(a.players)}: there is no {sender}")  # fmt: skip
        reason = f"{why}; join with --seat {' or '.join(free) or '(none is free)'}"
        self.quiet.say("not-a-seat", f"ignored a kit that claims seat {sender}: {reason}")
        now = self.clock()
        if not isinstance(message, Hello) or now - self.replied.get(sender, -REPLY_S) < REPLY_S:
            return
        if sender not in self.replied and len(self.replied) >= 64:
            return  # a flood of made-up colours gets no answers (each would be a publish)
        self.replied[sender] = now
        self.link.send(Ack(self.url.table, a.game_id, HOST, to=sender, seq=0, ok=False,
                           reason=reason[:400], final=True, re=message.session))  # fmt: skip

    def _play_bots(self) -> bool:
        """(host) A seat of ``--seat COLOUR=BOT`` to decide: its bot decides here."""
        a = self.authority
        if a is None or a.paused() or a.game.is_terminal() or a.game.to_move not in self.bots:
            return False
        game = a.game
        text = game.format(self.bots[game.to_move].decide(game.clone()))
        return not self.decide(text, game.to_move)


def write_final(state_dir: Path, text: str, game_id: str) -> None:
    """``remote-final.json`` for the game just ended; the previous game's is kept beside it
    (``remote-final-GAME.json``), never overwritten."""
    from haleakala.companion.journal.storage import write_atomically

    path = state_dir / FINAL
    if path.exists():
        try:
            old = json.loads(path.read_text(encoding="utf-8")).get("game", "")
        except (OSError, ValueError, AttributeError):
            old = ""
        keep = state_dir / f"remote-final-{old or nonce()}.json"
        if not keep.exists():
            path.replace(keep)
    write_atomically(path, text.encode("utf-8"))


def result_words(game: Any) -> str:
    """The final score in words (the phone seats' words: ``web.seats.result_words``)."""
    from haleakala.web.seats import result_words as words

    try:
        return words(game)[:400]
    except (ValueError, KeyError, IndexError, AttributeError, TypeError):
        return ""
