"""Phones as seats: the host's table, on the remote-play core (``haleakala.remote``).

The core's ``Authority`` is the one place that holds the full game (``gameapi.GameState``),
numbers each decision by ``seq`` (its place in the history, from 1), acknowledges a repeat
without applying it twice, refuses a stale or early one, pauses the game while a seat is
missing and journals before it acknowledges (docs/REMOTE-PROTOCOL.md). A phone speaks that
protocol's ``decide`` message over HTTP; ``Table`` adds only what a phone needs: a token per
seat, presence from the page's requests, and a view per seat filtered on the host.

That view is the core's snapshot for the seat (its ``observation``, its legal decisions,
who is away) *without* ``history`` and ``reveal``: a face-down discard is a decision
whose text names a card the opponent may not see (K19, K33), and the reveal is the whole
state. In their place each decision comes as that seat saw it (``SeatHooks.seen_decision``,
recorded when it was made), in words, with the position in words and the legal decisions
as plain words and notation. A page that reloads or reconnects asks for "the view since N"
(the number of decisions it knows) and receives the snapshot, then the decisions it missed.

Game-neutral: what a game shows a seat in words comes from its seat hooks (the module its
description names, ``GameDescription.seat``, in the game's package); a game without hooks
gets the generic ones (``toolkit.generic.seat``: its ``render`` for the seat, the notation
for its buttons, each decision as ``seen_decision`` lets the seat see it).
"""

from __future__ import annotations

import hmac
import importlib
import secrets
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from haleakala import i18n, palette
from haleakala.gameapi import describe, game_of
from haleakala.i18n import N_, _

PROTOCOL = 1
"""The version of the page's view (``docs/phone-seats.md``); decisions are the core's
``decide`` messages, of the core's version (``remote.wire.VERSION``)."""
TOKEN_BYTES = 12
"""As the live view's token: 96 random bits, short enough for a small QR code."""
MOVES_SENT = 40
"""The most decisions one view carries: a page that missed more starts its log afresh."""
PHONE = "phone"
TABLE = "phones"
"""The table's name in the core's messages (a host holds one table)."""


class SeatHooks(Protocol):
    """What a game says to one seat, in words and in the language in use; every function
    is given the full state and the seat (``viewer``) and must show only what it may see."""

    def sections(self, game: Any, viewer: int) -> list[dict]:
        """The position as the seat sees it: ``[{"title", "lines", "wide"}]``."""
        ...

    def decision_words(self, game: Any, code: int) -> str:
        """A legal decision of the seat that decides now, in plain words (for its button)."""
        ...

    def seen_decision(self, before: Any, code: int, viewer: int) -> str:
        """What ``viewer`` sees of a decision (``before``: the position it was made in)."""
        ...

    def seen_events(self, before: Any, events: list[tuple], viewer: int) -> list[str]:
        """What ``viewer`` sees of the effects that followed it."""
        ...


def _rules_words(before: Any, colour: str, text: str, reason: str) -> str | None:
    """The rules' own refusal of ``colour``'s ``text`` in the host's language, when the
    authority's ``reason`` is that refusal (the game makes its words as a value); None for
    a reason of the table's (paused, numbering) or a game without values."""
    refusal = getattr(before, "refusal", None)
    if refusal is None:
        return None
    try:
        found = refusal(text, colour)
    except ValueError:  # a game that raises for text that is no decision
        return None
    if found is None or found.text != reason:
        return None
    return i18n.render(found.words)


def hooks_for(game: Any) -> SeatHooks:
    """The seat hooks of ``game``'s kind: the module its description names, else the
    generic ones (a module is accepted as the protocol: its functions are the hooks)."""
    module = describe(game_of(game)).seat or "haleakala.toolkit.generic.seat"
    hooks: SeatHooks = importlib.import_module(module)
    return hooks


@dataclass(frozen=True)
class Answer:
    """The table's answer to a decision: ``status`` as HTTP would say it, ``text`` a
    sentence for the player (empty when accepted), ``seq`` the decisions made now,
    ``final`` False when the decision may be sent again later (the game is paused)."""

    ok: bool
    status: int
    text: str
    seq: int
    final: bool = True

    def to_dict(self) -> dict:
        out: dict[str, Any] = {"v": PROTOCOL, "ok": self.ok, "seq": self.seq}
        if self.text:
            out["error"] = self.text
        if not self.final:
            out["final"] = False
        return out


@dataclass(frozen=True)
class Move:
    """One decision made, as each seat saw it (filtered when it was made)."""

    n: int  # its seq: its place in the history, from 1
    player: str
    text: str  # the full notation: the host's own record, never sent to another seat as is
    seen: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """seat colour -> (what it saw of the decision, then each effect it saw)."""


class Table:
    """Phone seats on the remote core's ``Authority`` (``haleakala.remote``), which alone
    numbers, de-duplicates, validates, journals and pauses; this class adds what a phone
    needs over HTTP: a token per seat, presence from its requests, the decisions in words
    as each seat saw them, and a wake-up for whoever waits.

    ``seats`` maps every colour of ``game.players`` to ``"phone"`` or a bot's name (the
    bots are the authority's local seats, driven by ``BotDriver``). Thread-safe: the
    server's loop and the bots' thread call it; ``changed`` wakes whoever waits."""

    def __init__(
        self,
        game: Any,
        seats: Mapping[str, str],
        *,
        tokens: Mapping[str, str] | None = None,
        clock: Callable[[], float] = time.monotonic,
        journal: Callable[[dict[str, Any]], None] | None = None,
        name: str = TABLE,
        game_id: str | None = None,
        history: Iterable[tuple[str, str]] = (),
        authority: Any = None,
    ) -> None:
        """``authority``: a table shared with kits (``remote.phones``) — that authority,
        its game and history (``game`` is then the game's start, replayed here)."""
        from haleakala.remote.authority import Authority

        players = tuple(game.players)
        unknown = sorted(set(seats) - set(players))
        if unknown:
            raise ValueError(
                f"no seat {', '.join(unknown)} in this game: the seats are {', '.join(players)}"
            )
        self.game = game
        self.players = players
        self.seats = {colour: seats.get(colour, PHONE) for colour in players}
        self.tokens = {
            colour: (tokens or {}).get(colour) or secrets.token_urlsafe(TOKEN_BYTES)
            for colour, who in self.seats.items()
            if who == PHONE
        }
        self.hooks = hooks_for(game)
        self.clock = clock
        self.name = name
        self.game_id = game_id or secrets.token_hex(8)
        self.moves: list[Move] = []
        self.listeners: list[Callable[[], None]] = []
        """Called (from whichever thread decided) after each decision or change of who is
        here: the server's wake-up, a test's recorder."""
        self.changed = threading.Condition()
        self.outbox: Callable[[list[Any]], None] = lambda messages: None
        """Where the authority's messages for seats that are not phones go (a shared
        table's kits); a phone's come through its view."""
        if authority is not None:
            history = list(authority.history)
            self.game_id = authority.game_id
        history = list(history)
        with self.changed:
            for seat, text in history:  # a resumed game: ``game`` is its start, replayed here
                why = game.why_illegal(text, seat)
                if why is not None:
                    raise ValueError(f"decision {len(self.moves) + 1} of the journal: {why}")
                before = game.clone()
                game.apply(text, seat)
                self._record(before, seat, text)
        self.authority = authority or Authority(
            game,
            table=name,
            game_id=self.game_id,
            local=[c for c in players if c not in self.tokens],
            journal=journal,
            clock=clock,
            history=history,
        )
        if authority is not None:
            self.game = authority.game
        self.seen_at: dict[str, float] = {}
        self.asked_at: dict[str, float] = {}  # seat -> when its page's last request began
        self.open: dict[str, int] = dict.fromkeys(self.tokens, 0)

    # -- who is who ---------------------------------------------------------------------

    def phone_seats(self) -> list[str]:
        return [c for c in self.players if self.seats[c] == PHONE]

    def token_ok(self, colour: str, given: str | None) -> bool:
        """Constant-time, as the live view's guard: a wrong token tells nothing by timing."""
        token = self.tokens.get(colour)
        if token is None or not given:
            return False
        return hmac.compare_digest(given.encode(), token.encode())

    @property
    def seq(self) -> int:
        return int(self.authority.seq)

    def paused(self) -> bool:
        return bool(self.authority.paused())

    # -- presence -----------------------------------------------------------------------

    def arrived(self, colour: str) -> None:
        """A request of the seat's page began: it is here (a ``hello`` if it was away, as a
        kit's reconnection: the core then counts it present and its consent to hints)."""
        from haleakala.remote.wire import Hello

        if colour not in self.tokens:
            return
        with self.changed:
            self.open[colour] += 1
            self.seen_at[colour] = self.asked_at[colour] = self.clock()
            if colour in self.authority.away_since:
                hello = Hello(self.name, self.game_id, colour, have=self.seq, hints=False,
                              kit="phone")  # fmt: skip
                self._send(self.authority.receive(hello, colour))
                self._changed()

    def left(self, colour: str) -> None:
        """A request of the seat's page ended (answered, or the connection was lost)."""
        if colour not in self.tokens:
            return
        with self.changed:
            self.open[colour] = max(0, self.open[colour] - 1)
            self.seen_at[colour] = self.clock()

    def sweep(self) -> None:
        """Seats whose page has asked nothing for ``AWAY_AFTER_S`` are away: the core pauses
        the game (it is never forfeited) and every seat sees for how long. Counted from the
        page's last request *start*: a live page asks again at least every ``host.POLL_S``
        (a waiting request is answered by then), so a request still open because the phone
        vanished mid-wait does not keep it "here" past the documented 30 s."""
        with self.changed:
            now = self.clock()
            for colour in self.tokens:
                if colour in self.authority.away_since:
                    continue
                if now - self.asked_at.get(colour, now) >= AWAY_AFTER_S:
                    self._send(self.authority.connected(colour, False))
                    self._changed()

    # -- decisions ----------------------------------------------------------------------

    def receive(self, colour: str, raw: bytes) -> Answer:
        """A phone seat's message as it arrived (``wire``'s ``decide``): parsed strictly by
        the core, judged by the authority, answered with a sentence when refused."""
        from haleakala.remote.wire import Decide, ProtocolError, decode

        try:
            message = decode(raw)
        except ProtocolError as exc:
            return Answer(False, 400, str(exc), self.seq)
        if not isinstance(message, Decide):
            return self._refuse(400, N_("a seat's page sends only decide messages"))
        if message.sender != colour or message.table != self.name:
            return self._refuse(403, N_("this message is signed for another seat or table"))
        return self.decide(colour, message.seq, message.decision, game_id=message.game)

    def decide(self, colour: str, seq: int, text: str, *, game_id: str | None = None) -> Answer:
        """A phone seat's decision numbered ``seq`` (its place in the history, from 1)."""
        from haleakala.remote.wire import MAX_SEQ, Ack, Decide

        if colour not in self.tokens:
            return self._refuse(403, N_("{seat} is not a phone seat of this game"), seat=colour)
        if type(seq) is not int or not 1 <= seq <= MAX_SEQ or not isinstance(text, str):
            # The wire's parser refuses these already; a caller in the same process (a
            # test, a future transport) gets the same sentence instead of the core's
            # negative indexing into its history.
            return self._refuse(400, N_("a decision needs its number, from 1, and its text"))
        with self.changed:
            made = self.seq
            if 1 <= seq <= made and self.moves[seq - 1].player != colour:
                # The core's sentence would name the decision taken, which may be hidden from
                # this seat (a face-down discard): say only that the game moved on.
                return self._refuse(
                    409, N_("the game has moved on since decision {n}: choose again"), n=seq
                )
            before = self.game.clone()
            message = Decide(self.name, game_id or self.game_id, colour, seq=seq, decision=text)
            answers = self.authority.receive(message, colour)
            self._send(answers)
            ack = next((m for m in answers if isinstance(m, Ack)), None)
            if ack is None:
                return self._refuse(403, N_("this message is signed for another seat or table"))
            if self.seq > made:
                self._record(before, colour, self.authority.history[-1][1])
            if ack.ok:
                return Answer(True, 200, "", self.seq)
            # the rules' refusal in the host's language; the protocol's reasons as they came
            said = _rules_words(before, colour, text, ack.reason)
            if said is None and not ack.final:  # paused: the seat's own words, not the wire's
                said = _("the game is paused while a seat is away: send your decision again "
                         "when it is back")  # fmt: skip
            said = said or ack.reason
            return Answer(False, 409 if ack.final else 503, said, self.seq, final=ack.final)

    def bot_decides(self, colour: str, seq: int, code: int) -> bool:
        """A bot's decision (a local seat of the core), validated like a phone's; False when
        the game moved on or is paused (the bot asks again when it changes)."""
        with self.changed:
            if seq != self.seq or self.seats[colour] == PHONE:
                return False
            before = self.game.clone()
            reason, _messages = self.authority.local_decide(colour, before.format(code))
            if reason:
                return False
            self._record(before, colour, self.authority.history[-1][1])
            return True

    def _record(self, before: Any, colour: str, text: str) -> None:
        """What each seat saw of the decision just accepted (lock held): the events come
        from the same decision applied again to the position before it (microseconds)."""
        code = before.parse(text)
        events = before.clone().apply(code, colour)
        seen = {}
        for p, seat in enumerate(self.players):
            if self.seats[seat] == PHONE:
                said = self.hooks.seen_decision(before, code, p)
                seen[seat] = (said, *self.hooks.seen_events(before, events, p))
        self.moves.append(Move(len(self.moves) + 1, colour, text, seen))
        self._changed()

    def _send(self, messages: list[Any]) -> None:
        """The authority's messages that are not for a phone (its view carries them)."""
        others = [m for m in messages if getattr(m, "to", None) not in self.tokens]
        if others:
            self.outbox(others)

    def _changed(self) -> None:
        self.changed.notify_all()
        for listener in self.listeners:
            listener()

    def _refuse(self, status: int, template: str, **params: Any) -> Answer:
        return Answer(False, status, _(template).format(**params), self.seq)

    # -- what a seat sees ---------------------------------------------------------------

    def view(self, colour: str, since: int = 0) -> dict:
        """Everything the page of ``colour`` shows: the core's snapshot for the seat
        (its ``observation``, legal decisions, who is away) without the two fields a
        hidden-information game must not send a phone (``history``: every decision's
        text; ``reveal``: the whole final state), and instead the decisions from ``since``
        on as this seat saw them (at most ``MOVES_SENT``; ``fresh``: start the log again),
        the position in words and the legal decisions in words."""
        with self.changed:
            game = self.game
            snap = self.authority.snapshot(colour)
            p = self.players.index(colour)
            made = self.seq
            since = min(max(since, 0), made)
            first = max(since, made - MOVES_SENT)
            mine = snap.to_move == colour and not game.is_terminal()
            # In the game's own order of its codes (play, cut, discard, draw, end:
            # the order of a turn), not the notation's alphabet.
            codes = sorted(game.parse(text) for text in snap.legal) if mine else []
            legal = [
                {"text": game.format(code), "words": self.hooks.decision_words(game, code)}
                for code in codes
            ]
            board = tap_board(self.hooks, game, p, codes, legal)
            last = self.moves[-1] if self.moves else None
            return {
                "v": PROTOCOL,
                "table": self.name,
                "game_id": self.game_id,
                "game": snap.name,
                "lang": i18n.current(),
                "palette": palette.current(),
                "labels": seat_labels(),
                "seat": colour,
                "seat_name": _(colour),
                "players": [
                    {
                        "colour": c,
                        "name": _(c),
                        "who": PHONE if self.seats[c] == PHONE else "bot",
                        "bot": self.seats[c] if self.seats[c] != PHONE else None,
                        "away": snap.away.get(c),
                    }
                    for c in self.players
                ],
                "seq": made,
                "paused": bool(snap.away),
                "hints": snap.hints,
                "to_move": snap.to_move or None,
                "to_move_name": _(snap.to_move) if snap.to_move else None,
                "your_turn": mine,
                "over": game.is_terminal(),
                "result": self._result() if game.is_terminal() else None,
                "state": snap.view,
                "digest": snap.digest,
                "sections": self.hooks.sections(game, p),
                "legal": legal,
                "board": board,
                "last": _seen_move(last, colour) if last else None,
                "since": first,
                "fresh": first > since,
                "moves": [_seen_move(m, colour) for m in self.moves[first:]],
            }

    def _result(self) -> str:
        return result_words(self.game, self.hooks)

    def wait_for_change(self, seq: int, timeout: float) -> int:
        """Block (the host's command, a test) until a decision beyond ``seq`` or ``timeout``."""
        with self.changed:
            self.changed.wait_for(lambda: self.seq != seq, timeout)
            return self.seq


def tap_board(hooks: Any, game: Any, viewer: int, codes: list[int], legal: list[dict]) -> dict:
    """The game's drawing for the seat and the taps that make each legal decision (the
    hook ``tap_board``: its ``data``, ``labels``, ``steps``, ``words``, ``refusals`` and
    ``scores``; a game without it gets no drawing and a button per decision). Each entry
    of ``legal`` gets its ``steps``: target ids in order, a list among them taken in any
    order. Two decisions tapped the same way get one more step, a button naming each."""
    hook = getattr(hooks, "tap_board", None)
    board = dict(hook(game, viewer, codes)) if hook is not None else {}
    steps = list(board.pop("steps", None) or [[] for _code in codes])
    words = dict(board.get("words", {}))
    seen = Counter(map(repr, steps))
    for i, (entry, decision) in enumerate(zip(steps, legal, strict=True)):
        if seen[repr(entry)] > 1 or not entry:
            entry = [*entry, f"pick-{i}"]
            words[f"pick-{i}"] = decision["words"]
        decision["steps"] = entry
    return {
        "game": game_of(game),
        "data": board.get("data"),
        "labels": board.get("labels", {}),
        "words": words,
        "refusals": board.get("refusals", {}),
        "scores": board.get("scores", {}),
    }


def result_words(game: Any, hooks: Any = None) -> str:
    """The final score in words, in the language in use: the game's seat hook where it
    has one (every game of the package: Haleakala's ``game over: red 28, yellow 8: red
    wins``), else the seats' returns."""
    describe = getattr(hooks or hooks_for(game), "result_words", None)
    if describe is not None:
        return str(describe(game))
    returns = game.returns()
    return " ".join(f"{_(c)} {v:g}" for c, v in zip(game.players, returns, strict=True))


def _seen_move(move: Move, colour: str) -> dict:
    said, *effects = move.seen.get(colour, ("",))
    return {"n": move.n, "player": move.player, "name": _(move.player), "text": said,
            "effects": effects}  # fmt: skip


AWAY_AFTER_S = 30
"""A page asks at least every ``host.POLL_S`` seconds; silent for this long, it is away."""

SEAT_LABELS = {
    "title": N_("{game} — seat {colour}"),
    "your_turn": N_("your turn: choose a decision"),
    "waiting": N_("{colour} to decide"),
    "last": N_("last move: {colour}: {text}"),
    "log": N_("Log"),
    "decisions": N_("Your decisions"),
    "sending": N_("sending…"),
    "lost": N_("connection lost — reconnecting…"),
    "away": N_("{colour} has been away for {n} s: the game waits"),
    "over": N_("the game is over"),
    "said": N_("Announcements"),
    "said_move": N_("{colour}: {what}"),
    "said_away": N_("{colour} is away: the game waits"),
    "said_back": N_("{colour} is back: the game goes on"),
    "back": N_("connected again"),
    "position": N_("Position"),
    "bot": N_("bot"),
    "phone": N_("phone"),
    "board": N_("the board: tap a marked place"),
    "marked": N_("tap a marked place (a ring around it) to decide"),
    "chosen": N_("chosen: {what}"),
    "then": N_("now tap a marked place for the rest of it"),
    "confirm": N_("Confirm"),
    "undo": N_("Undo"),
    "refused_tap": N_("{what} cannot be chosen now: tap a marked place"),
    "not_now": N_("wait: {colour} decides now"),
    "paused_tap": N_("the game is paused: nothing can be decided now"),
    "score": N_("score {n}"),
}


def seat_labels() -> dict[str, str]:
    return {key: _(text) for key, text in SEAT_LABELS.items()}


class BotDriver:
    """Plays the bot seats of a table on its own thread: whenever a bot decides, it thinks
    on a clone (the table stays free for the phones) and hands the decision to the table,
    which validates it as any other."""

    def __init__(self, table: Table, bots: Mapping[str, Any]) -> None:
        self.table = table
        self.bots = dict(bots)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name="haleakala-bots", daemon=True)
        self.error: BaseException | None = None

    def start(self) -> BotDriver:
        self.thread.start()
        return self

    def close(self, timeout: float = 5.0) -> None:
        self.stop.set()
        with self.table.changed:
            self.table.changed.notify_all()
        self.thread.join(timeout)

    def _run(self) -> None:
        table = self.table
        try:
            while not self.stop.is_set():
                with table.changed:
                    table.changed.wait_for(
                        lambda: (
                            self.stop.is_set()
                            or table.game.is_terminal()
                            or (table.game.to_move in self.bots and not table.paused())
                        )
                    )
                    if self.stop.is_set() or table.game.is_terminal():
                        return
                    colour = table.game.to_move
                    seq = table.seq
                    position = table.game.clone()
                code = self.bots[colour].decide(position)
                table.bot_decides(colour, seq, code)
        except Exception as exc:  # the host's command says so; the phones see the game wait
            self.error = exc
