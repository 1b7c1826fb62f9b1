"""Phones as seats: the host's table, where every decision is validated before it counts.

One ``Table`` is the authority of a hosted game (issue 28): it alone holds the full state
(``gameapi.GameState``), checks each decision against the rules and the seat that sends it,
and answers each seat with a *view* filtered for that seat on the host, so that nothing a
seat may not see (a Kahuna hand, a card drawn from the pile, a face-down discard) ever
leaves the machine for it. The server (``web.host``) only moves these values over HTTP; the
page only draws them.

A decision travels as ``{"v": 1, "seq": N, "decision": TEXT}``: ``seq`` is the number of
decisions made before it, the position it was chosen in. So a decision sent twice (a phone
that lost the answer and sends again) is recognised and acknowledged again without being
applied twice, and a decision chosen on a position that has since changed is refused
instead of landing on another one. A view carries the position (``sections``, the legal
decisions when the seat decides) and the decisions since the number the page already
knows (``moves``): a page that reloads or reconnects asks with its number and receives
the snapshot, then the decisions it missed.

Game-neutral: the table talks to the game through ``GameState`` only. What a game shows a
seat in words comes from its seat hooks (``SEAT_HOOKS``: Kahuna's in ``web.seat_kahuna``);
a game without hooks shows its ``observation`` and every decision's notation, which is
right only for a game whose decisions are public (Haleakala's are).
"""

from __future__ import annotations

import hmac
import importlib
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from haleakala import i18n
from haleakala.i18n import N_, _
from haleakala.i18n.refusals import speak

PROTOCOL = 1
"""The version of the seat messages (``docs/PHONE-SEATS.md``); a message without ``v``
is taken as version 1."""
TOKEN_BYTES = 12
"""As the live view's token: 96 random bits, short enough for a small QR code."""
MOVES_SENT = 40
"""The most decisions one view carries: a page that missed more starts its log afresh."""
PHONE = "phone"

SEAT_HOOKS: dict[str, str] = {
    "kahuna": "haleakala.web.seat_kahuna",
}
"""Game name -> module with the seat hooks (``SeatHooks``); imported when a game is hosted."""


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


class PublicHooks:
    """The hooks of a game without hidden decisions: its observation, its notation."""

    def sections(self, game: Any, viewer: int) -> list[dict]:
        seen = game.observation(viewer)
        lines = [f"{key}: {_flat(value)}" for key, value in seen.items()]
        return [{"title": "", "lines": lines, "wide": True}]

    def decision_words(self, game: Any, code: int) -> str:
        return str(game.format(code))

    def seen_decision(self, before: Any, code: int, viewer: int) -> str:
        return str(before.format(code))

    def seen_events(self, before: Any, events: list[tuple], viewer: int) -> list[str]:
        return []


def _flat(value: Any) -> str:
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {_flat(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return " ".join(_flat(v) for v in value)
    return str(value)


def hooks_for(game: Any) -> SeatHooks:
    name = getattr(game, "game_name", "haleakala")
    if name in SEAT_HOOKS:
        return importlib.import_module(SEAT_HOOKS[name])  # type: ignore[return-value]
    return PublicHooks()


@dataclass(frozen=True)
class Answer:
    """The table's answer to a decision: ``status`` as HTTP would say it, ``text`` a
    sentence for the player (empty when accepted), ``seq`` the decisions made now."""

    ok: bool
    status: int
    text: str
    seq: int
    duplicate: bool = False

    def to_dict(self) -> dict:
        out: dict[str, Any] = {"v": PROTOCOL, "ok": self.ok, "seq": self.seq}
        if self.text:
            out["error"] = self.text
        if self.duplicate:
            out["duplicate"] = True
        return out


@dataclass(frozen=True)
class Move:
    """One decision made, as each seat saw it (filtered when it was made)."""

    n: int
    player: str
    code: int
    text: str  # the full notation: the host's own record, never sent to another seat as is
    seen: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """seat colour -> (what it saw of the decision, then each effect it saw)."""


class Table:
    """The authority of one hosted game: seats, tokens, the decisions, the views.

    ``seats`` maps every colour of ``game.players`` to ``"phone"`` or a bot's name (the
    bots are driven from outside, ``BotDriver``). Thread-safe: the server's loop and the
    bots' thread call it; a condition wakes whoever waits for the next decision."""

    def __init__(
        self,
        game: Any,
        seats: Mapping[str, str],
        *,
        tokens: Mapping[str, str] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
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
        self.moves: list[Move] = []
        self.seen_at: dict[str, float | None] = {colour: None for colour in self.tokens}
        self.changed = threading.Condition()
        self.listeners: list[Callable[[], None]] = []
        """Called (from whichever thread decided) after each decision: the server's wake-up."""

    # -- who is who ---------------------------------------------------------------------

    def phone_seats(self) -> list[str]:
        return [c for c in self.players if self.seats[c] == PHONE]

    def token_ok(self, colour: str, given: str | None) -> bool:
        """Constant-time, as the live view's guard: a wrong token tells nothing by timing."""
        token = self.tokens.get(colour)
        if token is None or not given:
            return False
        return hmac.compare_digest(given.encode(), token.encode())

    def seen(self, colour: str) -> None:
        """The seat's page asked for something just now (for the "away for" line)."""
        if colour in self.seen_at:
            self.seen_at[colour] = self.clock()

    @property
    def seq(self) -> int:
        return len(self.moves)

    # -- decisions ----------------------------------------------------------------------

    def decide(self, colour: str, seq: Any, text: Any) -> Answer:
        """A phone seat's decision: applied when it is that seat's legal decision in the
        position numbered ``seq``; acknowledged again when it is that decision already
        made; refused with a sentence otherwise (nothing changes)."""
        if colour not in self.tokens:
            return self._refuse(403, N_("{seat} is not a phone seat of this game"), seat=colour)
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
            return self._refuse(400, N_("a decision needs its seq: a whole number from 0"))
        if not isinstance(text, str) or not text.strip() or len(text) > 200:
            return self._refuse(400, N_("a decision needs its text, in the game's notation"))
        with self.changed:
            return self._decide(colour, seq, text)

    def _decide(self, colour: str, seq: int, text: str) -> Answer:
        game = self.game
        made = len(self.moves)
        if seq < made:
            move = self.moves[seq]
            if move.player == colour and _same(game, move.code, text):
                return Answer(True, 200, "", made, duplicate=True)
            return self._refuse(
                409, N_("the game has moved on since decision {n}: choose again"), n=seq
            )
        if seq > made:
            return self._refuse(
                409, N_("decision {n} has not been made yet: choose again"), n=seq
            )
        reason = game.why_illegal(text.strip(), colour)
        if reason is not None:
            return Answer(False, 422, speak(reason), made)
        self._apply(colour, game.parse(text.strip()))
        return Answer(True, 200, "", len(self.moves))

    def bot_decides(self, colour: str, seq: int, code: int) -> bool:
        """A bot's decision, validated like a phone's; False when the game moved on."""
        with self.changed:
            game = self.game
            if seq != len(self.moves) or game.to_move != colour or self.seats[colour] == PHONE:
                return False
            if game.why_illegal(code, colour) is not None:
                return False
            self._apply(colour, code)
            return True

    def _apply(self, colour: str, code: int) -> None:
        """Apply a validated decision and record what each seat saw of it (lock held)."""
        before = self.game.clone()
        text = before.format(code)
        events = self.game.apply(code, colour)
        seen = {}
        for p, seat in enumerate(self.players):
            if self.seats[seat] == PHONE:
                said = self.hooks.seen_decision(before, code, p)
                seen[seat] = (said, *self.hooks.seen_events(before, events, p))
        self.moves.append(Move(len(self.moves), colour, code, text, seen))
        self.changed.notify_all()
        for listener in self.listeners:
            listener()

    def _refuse(self, status: int, template: str, **params: Any) -> Answer:
        return Answer(False, status, _(template).format(**params), len(self.moves))

    # -- what a seat sees ---------------------------------------------------------------

    def view(self, colour: str, since: int = 0) -> dict:
        """Everything the page of ``colour`` shows, filtered here: the position as the seat
        sees it, its legal decisions when it decides, and the decisions from ``since`` on
        (at most ``MOVES_SENT``; ``fresh`` when the page must start its log again)."""
        with self.changed:
            game = self.game
            p = self.players.index(colour)
            made = len(self.moves)
            since = min(max(since, 0), made)
            first = max(since, made - MOVES_SENT)
            to_move = game.to_move
            mine = to_move == colour and not game.is_terminal()
            legal = [
                {"text": game.format(code), "words": self.hooks.decision_words(game, code)}
                for code in game.legal_actions()
            ] if mine else []  # fmt: skip
            last = self.moves[-1] if self.moves else None
            now = self.clock()
            return {
                "v": PROTOCOL,
                "game": getattr(game, "game_name", "haleakala"),
                "lang": i18n.current(),
                "labels": seat_labels(),
                "seat": colour,
                "seat_name": _(colour),
                "players": [
                    {
                        "colour": c,
                        "name": _(c),
                        "who": PHONE if self.seats[c] == PHONE else "bot",
                        "bot": self.seats[c] if self.seats[c] != PHONE else None,
                        "away": _away(self.seen_at.get(c), now),
                    }
                    for c in self.players
                ],
                "seq": made,
                "to_move": to_move,
                "to_move_name": _(to_move) if to_move else None,
                "your_turn": mine,
                "over": game.is_terminal(),
                "result": self._result() if game.is_terminal() else None,
                "sections": self.hooks.sections(game, p),
                "legal": sorted(legal, key=lambda d: d["text"]),
                "last": _seen_move(last, colour) if last else None,
                "since": first,
                "fresh": first > since,
                "moves": [_seen_move(m, colour) for m in self.moves[first:]],
            }

    def _result(self) -> str:
        describe = getattr(self.hooks, "result_words", None)
        if describe is not None:
            return str(describe(self.game))
        return " ".join(f"{_(c)} {v:g}" for c, v in zip(self.players, self.game.returns(), strict=True))

    def wait_for_change(self, seq: int, timeout: float) -> int:
        """Block (a bot's thread, a test) until a decision beyond ``seq`` or ``timeout``."""
        with self.changed:
            self.changed.wait_for(lambda: len(self.moves) != seq, timeout)
            return len(self.moves)


def _same(game: Any, code: int, text: str) -> bool:
    try:
        return bool(game.parse(text.strip()) == code)
    except ValueError:
        return False


def _seen_move(move: Move, colour: str) -> dict:
    said, *effects = move.seen.get(colour, ("",))
    return {"n": move.n, "player": move.player, "name": _(move.player), "text": said,
            "effects": effects}  # fmt: skip


def _away(seen_at: float | None, now: float) -> int | None:
    """Whole seconds since the seat's page last asked, None: never came or here now."""
    if seen_at is None:
        return None
    gone = int(now - seen_at)
    return gone if gone >= AWAY_AFTER_S else 0


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
    "bot": N_("bot"),
    "phone": N_("phone"),
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
                        lambda: self.stop.is_set()
                        or table.game.is_terminal()
                        or table.game.to_move in self.bots
                    )
                    if self.stop.is_set() or table.game.is_terminal():
                        return
                    colour = table.game.to_move
                    seq = table.seq
                    position = table.game.clone()
                code = self.bots[colour].decide(position)
                table.bot_decides(colour, seq, code)
        except BaseException as exc:  # the host says so; the phones see the game wait
            self.error = exc
            raise
