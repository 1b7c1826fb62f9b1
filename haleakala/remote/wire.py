"""The remote-play messages: frozen dataclasses, their canonical JSON and a strict parser.

Why strict: on a public broker anyone may publish on a table's topics, and a kit must not
crash or be steered by what arrives. ``decode`` therefore refuses, with one sentence, text
that is too long or too deep, not JSON, of an unknown kind, of another protocol version,
with a missing, extra or ill-typed field, or whose signature does not match the table's key
(``ProtocolError``); it never raises anything else. What a well-formed message *means*
(a decision from the wrong seat, a replayed or stale one) is judged by the authority and the
mirror, which know the game. The format is docs/REMOTE-PROTOCOL.md.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
from dataclasses import asdict, dataclass, field, fields
from typing import Any, ClassVar

from haleakala.games.haleakala.serialize import load_json

VERSION = 2
"""The protocol version every message carries; only this one is accepted. Version 2 grew
(docs/REMOTE-PROTOCOL.md, "Versions"): ``hello.session``, ``decide.nonce``, ``ack.re``,
``snapshot.re/boot/tick/result``, ``status.boot/tick`` and the signed ``presence`` kind,
so that every message is bound to its game, its sender's session and an order."""
MAX_BYTES = 65536
"""Longest message accepted (a snapshot of a long game's history is a few kilobytes)."""
MAX_SEQ = 1_000_000
"""No game has a million decisions: larger numbers are refused, not stored."""
MAX_TICK = 2**31 - 1
"""The highest ``tick``: a session's Last Will carries it (nothing of that session follows)."""
HOST = "host"

_COLOUR = re.compile(r"[a-z]{1,16}")
_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")
_GAME_ID = re.compile(r"[0-9a-f]{0,32}")
_NONCE = _GAME_ID
_MAC = re.compile(r"[0-9a-f]{64}|")


class ProtocolError(ValueError):
    """A message refused before it reaches the game; ``str()`` is the sentence to show."""


@dataclass(frozen=True)
class Message:
    """Fields every message carries: the protocol version, the table it is for, the game
    it belongs to (the host's random id, "" until a seat has heard of one), who sent it
    (a seat colour or "host") and the signature (HMAC-SHA256 under the table key, "" when
    the table has none)."""

    KIND: ClassVar[str] = ""
    table: str
    game: str
    sender: str
    v: int = field(default=VERSION, kw_only=True)
    mac: str = field(default="", kw_only=True, compare=False)


@dataclass(frozen=True)
class Hello(Message):
    """A seat (re)joining: the decisions it already holds (``have``), whether it allows
    hints and the coach (``hints``), and its kit's random id (two kits claiming one seat
    are told apart by it). The host answers with a snapshot."""

    KIND: ClassVar[str] = "hello"
    have: int
    hints: bool
    kit: str
    session: str = field(default="", kw_only=True)
    """(v2) random per run of the seat's kit: the host's snapshot answering this hello
    carries it back (``re``), and a seat that has no game yet takes only such a snapshot."""


@dataclass(frozen=True)
class Decide(Message):
    """A seat's decision, numbered ``seq`` (its place in the game's history, from 1).
    Sent again until acknowledged; the host de-duplicates by ``seq``."""

    KIND: ClassVar[str] = "decide"
    seq: int
    decision: str
    nonce: str = field(default="", kw_only=True)
    """(v2) random per decision: the host's ``ack`` carries it back (``re``), so an old
    answer replayed is never taken for the answer to this one."""


@dataclass(frozen=True)
class Ack(Message):
    """The host's answer to one ``Decide``: taken (``ok``) or refused with ``reason``.
    ``final`` False means "not now" (the game is paused): send it again later."""

    KIND: ClassVar[str] = "ack"
    to: str
    seq: int
    ok: bool
    reason: str
    final: bool
    re: str = field(default="", kw_only=True)
    """(v2) the ``nonce`` of the decide answered, or the ``session`` of a hello refused
    (``seq`` 0: the seat is not this table's to take)."""


@dataclass(frozen=True)
class Decision(Message):
    """An accepted decision as one seat (``to``) sees it: who decided what, and how that
    seat's view changed (top-level keys replaced, keys removed), with the digest of the
    new view so that a mirror that missed something notices and asks again."""

    KIND: ClassVar[str] = "decision"
    to: str
    seq: int
    seat: str
    decision: str
    changes: dict
    removed: list[str]
    digest: str
    to_move: str
    legal: list[str]


@dataclass(frozen=True)
class Snapshot(Message):
    """Everything one seat (``to``) may know at ``seq``: the game, the seats, every
    decision so far as this seat may see it, its view, whose decision it is (and, if its
    own, the legal ones), whether hints are allowed, who is away (seconds gone) and, once
    the game is over, ``reveal``: the host's digest of the whole final state (the state
    itself would show what the seat never saw, a hidden hand)."""

    KIND: ClassVar[str] = "snapshot"
    to: str
    seq: int
    name: str
    players: list[str]
    history: list[str]
    deciders: list[str]
    view: dict
    digest: str
    to_move: str
    legal: list[str]
    hints: bool
    away: dict
    reveal: str
    re: str = field(default="", kw_only=True)
    """(v2) the ``session`` of the hello it answers ("" when the host sends it unasked)."""
    boot: str = field(default="", kw_only=True)
    """(v2) random per run of the host: statuses and presences of another run are old."""
    tick: int = field(default=0, kw_only=True)
    """(v2) the host's counter of snapshots and statuses in this run: only a newer one counts."""
    result: str = field(default="", kw_only=True)
    """(v2) once the game is over, the result in the host's words (the final score)."""


@dataclass(frozen=True)
class Status(Message):
    """Presence, sent to everyone when it changes and kept as the table's retained state:
    how many decisions the game has (a seat behind it asks for a snapshot), who is away
    and for how long (the game is paused while anyone is), whether hints are allowed."""

    KIND: ClassVar[str] = "status"
    seq: int
    away: dict
    hints: bool
    boot: str = field(default="", kw_only=True)
    """(v2) as the snapshot's: the host's run this status belongs to."""
    tick: int = field(default=0, kw_only=True)
    """(v2) as the snapshot's: a status older than the last one taken is a replay."""


@dataclass(frozen=True)
class Presence(Message):
    """(v2) A kit says it is at the table (``online``) or gone, retained on its
    ``presence/ROLE`` topic and set by its Last Will: signed like every message and bound to
    the sender's run (``session``) and an order (``tick``: 1, 2, … while it is here; the
    Last Will carries ``MAX_TICK``), so a replayed or stranger's presence changes nothing."""

    KIND: ClassVar[str] = "presence"
    online: bool
    kit: str
    session: str
    tick: int


KINDS: dict[str, type[Message]] = {
    cls.KIND: cls for cls in (Hello, Decide, Ack, Decision, Snapshot, Status, Presence)
}


def _text(value: Any, limit: int, what: str) -> str:
    if not isinstance(value, str):
        raise ProtocolError(f"{what} must be text")
    if len(value) > limit:
        raise ProtocolError(f"{what} is longer than {limit} characters")
    if not value.isprintable():
        raise ProtocolError(f"{what} holds control characters")
    return value


def _pattern(regex: re.Pattern[str], what: str) -> Any:
    def check(value: Any) -> str:
        if not isinstance(value, str) or not regex.fullmatch(value):
            raise ProtocolError(f"{what} is not well-formed")
        return value

    return check


def _seq(value: Any) -> int:
    if type(value) is not int or not 0 <= value <= MAX_SEQ:
        raise ProtocolError(f"a sequence number must be a whole number from 0 to {MAX_SEQ}")
    return value


def _bool(what: str) -> Any:
    def check(value: Any) -> bool:
        if type(value) is not bool:
            raise ProtocolError(f"{what} must be true or false")
        return value

    return check


def _texts(limit: int, what: str, items: int = 4096) -> Any:
    def check(value: Any) -> list[str]:
        if not isinstance(value, list) or len(value) > items:
            raise ProtocolError(f"{what} must be a list of at most {items} texts")
        return [_text(v, limit, what) for v in value]

    return check


def _object(what: str) -> Any:
    def check(value: Any) -> dict:
        if not isinstance(value, dict):
            raise ProtocolError(f"{what} must be an object")
        return value

    return check


def _away(value: Any) -> dict:
    if not isinstance(value, dict) or len(value) > 8:
        raise ProtocolError("away must name at most 8 seats")
    for seat, seconds in value.items():
        _pattern(_COLOUR, "a seat colour")(seat)
        if type(seconds) is not int or not 0 <= seconds <= 10**9:
            raise ProtocolError("away must give whole seconds")
    return value


def _tick(value: Any) -> int:
    if type(value) is not int or not 0 <= value <= MAX_TICK:
        raise ProtocolError(f"a tick must be a whole number from 0 to {MAX_TICK}")
    return value


def _colour_or_empty(value: Any) -> str:
    return value if value == "" else _pattern(_COLOUR, "a seat colour")(value)


def _sender(value: Any) -> str:
    return value if value == HOST else _pattern(_COLOUR, "the sender")(value)


# One check per field name: a name means the same thing in every kind.
_CHECKS: dict[str, Any] = {
    "v": lambda v: v,  # checked first, with its own sentence
    "table": _pattern(_NAME, "the table name"),
    "game": _pattern(_GAME_ID, "the game id"),
    "sender": _sender,
    "mac": _pattern(_MAC, "the signature"),
    "have": _seq,
    "seq": _seq,
    "hints": _bool("hints"),
    "ok": _bool("ok"),
    "final": _bool("final"),
    "kit": _pattern(_NAME, "the kit id"),
    "decision": lambda v: _text(v, 64, "a decision"),
    "reason": lambda v: _text(v, 400, "a reason"),
    "to": _pattern(_COLOUR, "the addressee"),
    "seat": _pattern(_COLOUR, "a seat colour"),
    "to_move": _colour_or_empty,
    "name": _pattern(_NAME, "the game's name"),
    "players": _texts(16, "the players", items=8),
    "history": _texts(64, "the history", items=MAX_SEQ),
    "deciders": _texts(16, "the deciders", items=MAX_SEQ),
    "legal": _texts(64, "the legal decisions"),
    "removed": _texts(64, "the removed keys", items=256),
    "changes": _object("changes"),
    "view": _object("a view"),
    "digest": _pattern(re.compile(r"[0-9a-f]{64}"), "the digest"),
    "away": _away,
    "reveal": lambda v: _text(v, MAX_BYTES, "the reveal"),
    "session": _pattern(_NONCE, "the session"),
    "nonce": _pattern(_NONCE, "the nonce"),
    "re": _pattern(_NONCE, "the answered nonce"),
    "boot": _pattern(_NONCE, "the host's run"),
    "tick": _tick,
    "result": lambda v: _text(v, 400, "the result"),
    "online": _bool("online"),
}


def body(message: Message) -> dict[str, Any]:
    """The message as a JSON object, with its kind and without its signature."""
    data = asdict(message)
    data.pop("mac")
    data["kind"] = message.KIND
    return data


def canonical(data: dict[str, Any]) -> bytes:
    """One byte string per value (sorted keys, no spaces): what is signed and sent."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def sign(data: dict[str, Any], key: bytes) -> str:
    return hmac.new(key, canonical(data), hashlib.sha256).hexdigest() if key else ""


def encode(message: Message, key: bytes = b"") -> bytes:
    """The message on the wire, signed with ``key`` (the table key; none: unsigned)."""
    data = body(message)
    data["mac"] = sign(data, key)
    return canonical(data)


def decode(raw: bytes | str, key: bytes = b"") -> Message:
    """The message in ``raw``, or ``ProtocolError`` saying why it is refused.

    With a ``key``, an unsigned or wrongly signed message is refused as forged; without
    one, any signature is ignored (a table without a key trusts its broker's ACLs)."""
    if len(raw) > MAX_BYTES:
        raise ProtocolError(f"a message longer than {MAX_BYTES} bytes")
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        data = load_json(text)
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ProtocolError(f"not a message: {str(exc).splitlines()[0][:120]}") from None
    if not isinstance(data, dict):
        raise ProtocolError("not a message: a JSON object was expected")
    version = data.get("v")
    if type(version) is not int:
        raise ProtocolError("a message without a protocol version")
    if version > VERSION:
        raise ProtocolError(
            f"a message of protocol version {version}, newer than this kit's {VERSION}: "
            "update this kit"
        )
    if version < VERSION:
        raise ProtocolError(
            f"a message of protocol version {version}, older than this kit's {VERSION}: "
            "update the other kit"
        )
    kind = data.pop("kind", None)
    cls = KINDS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ProtocolError(f"an unknown kind of message: {str(kind)[:20]!r}")
    names = {f.name for f in fields(cls)}
    if set(data) != names:
        missing, extra = sorted(names - set(data)), sorted(set(data) - names)
        raise ProtocolError(
            f"a {kind} message with "
            + "; ".join(
                part
                for part in (
                    f"missing {', '.join(missing)}" if missing else "",
                    f"unexpected {', '.join(x[:20] for x in extra[:5])}" if extra else "",
                )
                if part
            )
        )
    values = {name: _CHECKS[name](data[name]) for name in sorted(names)}
    if key:
        mac = values.pop("mac")
        unsigned = {**data, "kind": kind}
        unsigned.pop("mac")
        if not mac or not hmac.compare_digest(mac, sign(unsigned, key)):
            raise ProtocolError(
                f"a forged {kind} message: its signature does not match this table's key"
            )
        values["mac"] = mac
    return cls(**values)


def nonce() -> str:
    """A fresh random nonce, session or run id (64 bits, hex)."""
    return secrets.token_hex(8)


def table_key(secret: str) -> bytes:
    """The signing key of a table from its shared secret ("" → no signing)."""
    if not secret:
        return b""
    return hashlib.sha256(b"haleakala-remote-v1\0" + secret.encode()).digest()
