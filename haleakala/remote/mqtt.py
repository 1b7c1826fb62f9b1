"""Kit to kit over an MQTT broker (paho-mqtt): topics, presence, and the connection.

Why MQTT: both kits dial out to a broker (Mosquitto on the host's LAN, or a public one),
so nobody opens a port on a router and no kit listens. The broker keeps what a kit needs
across drops: QoS 1 with a session that outlives a broker restart or a dropped line
(MQTT 5, ``SESSION_EXPIRY_S``) holds a kit's messages while it is away; a retained
``presence/<role>`` with a Last Will says "offline" the moment a kit dies; a retained
``state`` topic holds the table's last status for whoever connects next. Nothing here
knows the game: it moves ``wire`` messages and hands them, with the seat its topic
proves, to the caller's queue.

Each run of a kit is a new MQTT session with a client id nobody can guess (a random part):
a stranger who reuses a kit's id cannot throw it off the broker, and a new run never
inherits what the broker held for an earlier one (the old game's final snapshot). Within a
run, reconnections keep the session (clean start on the first connection only).

Topics (``haleakala/<table>/...``)::

    presence/<role>   retained: the kit's signed ``presence`` (wire); its Last Will says
                      offline; cleared (empty) when a finished game's kit leaves
    to-host/<seat>    a seat's messages to the host (the seat is the topic's last level)
    to-seat/<seat>    the host's messages to one seat (its filtered view only)
    state             retained: the host's last Status; cleared when the game is over

paho calls back on its own network thread; every callback only puts a tuple on the
queue, so the game is handled on the kit's one main thread.
"""

from __future__ import annotations

import contextlib
import queue
import secrets
import socket
import ssl
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlsplit

from .wire import _NAME, HOST, MAX_TICK, Message, Presence, encode

PREFIX = "haleakala"
DEFAULT_PORTS = {"mqtt": 1883, "mqtts": 8883}
SESSION_EXPIRY_S = 900
"""How long the broker keeps a kit's session (its queued messages) after the line drops:
a broker restart or a Wi-Fi outage is bridged; a kit gone for good leaves nothing behind.
A kit that comes back later asks for a snapshot and loses nothing."""


class RemoteURLError(ValueError):
    """A ``--remote`` address that cannot be used; the message says why."""


@dataclass(frozen=True)
class TableURL:
    """``mqtt[s]://[user[:password]@]host[:port]/table``."""

    scheme: str
    host: str
    port: int
    table: str
    username: str | None = None
    password: str | None = None
    key: str = ""
    """The table key given in the address (``?key=``, as the host's join line writes it)."""

    @property
    def tls(self) -> bool:
        return self.scheme == "mqtts"

    def __str__(self) -> str:  # never shows the password nor the key
        user = f"{self.username}@" if self.username else ""
        return f"{self.scheme}://{user}{self.host}:{self.port}/{self.table}"


def parse_url(text: str) -> TableURL:
    """The table address in ``text``, or ``RemoteURLError`` with a sentence."""
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as exc:
        raise RemoteURLError(f"{text!r} is not an address: {exc}") from None
    if parts.scheme not in DEFAULT_PORTS:
        raise RemoteURLError(
            f"{text!r}: the address must start with mqtt:// (or mqtts:// for TLS), "
            "e.g. mqtt://broker.local:1883/ourtable"
        )
    if not parts.hostname:
        raise RemoteURLError(f"{text!r}: the broker's host name is missing")
    table = parts.path.strip("/")
    if not _NAME.fullmatch(table):
        raise RemoteURLError(
            f"{text!r}: the table name after the host (letters, digits, - and _, up to 64) "
            "is missing or has other characters"
        )
    key = ""
    if parts.query:
        name, sep, key = parts.query.partition("=")
        if name != "key" or not sep or not key:
            raise RemoteURLError(
                f"{text!r}: the only ?query an address takes is ?key=TABLEKEY (the line the "
                "host prints)"
            )
        key = unquote(key)
    if parts.fragment:
        raise RemoteURLError(f"{text!r}: an address takes no #fragment")
    return TableURL(
        parts.scheme,
        parts.hostname,
        port or DEFAULT_PORTS[parts.scheme],
        table,
        unquote(parts.username) if parts.username else None,
        unquote(parts.password) if parts.password else None,
        key,
    )


def topic(table: str, *levels: str) -> str:
    return "/".join((PREFIX, table, *levels))


class _Client:
    """paho's client, keeping the reason of the last failed connection attempt (paho's
    ``on_connect_fail`` is told nothing), so a kit can say what is wrong and what to do."""

    @staticmethod
    def make(**kwargs: Any) -> Any:
        import paho.mqtt.client as mqtt

        class Client(mqtt.Client):
            last_error: BaseException | None = None

            def reconnect(self) -> Any:
                try:
                    return super().reconnect()
                except OSError as exc:
                    self.last_error = exc
                    raise

        return Client(**kwargs)


class Link:
    """One kit's connection to one table, as the host or as one seat.

    Events put on ``events``: ``("connected",)``, ``("disconnected", reason)``,
    ``("refused", reason)`` (the broker said no: a password), ``("unreachable", error)``
    (no broker answered: the address, the network, TLS), ``("message", seat_or_host,
    raw_bytes)`` and ``("presence", role, raw_bytes)`` (a signed ``wire.Presence``, judged
    by the kit). ``session`` is this run's random id; ``game`` the game id this kit knows
    (its presences carry it; the kit updates it).
    """

    def __init__(
        self,
        url: TableURL,
        role: str,
        kit: str,
        events: queue.Queue,
        *,
        key: bytes = b"",
        keepalive: int = 10,
        ca_file: str | None = None,
        session: str = "",
        game: str = "",
    ) -> None:
        import paho.mqtt.client as mqtt
        from paho.mqtt.packettypes import PacketTypes
        from paho.mqtt.properties import Properties

        self.url, self.role, self.kit, self.key, self.events = url, role, kit, key, events
        self.table = url.table
        self.session = session or secrets.token_hex(8)
        self.game = game
        self.tick = 0
        self.bytes_sent = 0
        self.messages_sent = 0
        # A client id of this run only, with a part nobody can guess: see the module's doc.
        self.client = _Client.make(
            callback_api_version=mqtt.CallbackAPIVersion.VERSION2,
            client_id=f"{PREFIX}-{role}-{secrets.token_hex(8)}",
            protocol=mqtt.MQTTv5,
        )
        if url.username:
            self.client.username_pw_set(url.username, url.password)
        if url.tls:
            self.client.tls_set(ca_certs=ca_file, tls_version=ssl.PROTOCOL_TLS_CLIENT)
        will = self._presence(False, MAX_TICK)
        self.client.will_set(self._presence_topic(role), will, 1, retain=True)
        self.client.reconnect_delay_set(min_delay=1, max_delay=4)
        self.client.on_connect = self._on_connect
        self.client.on_connect_fail = self._on_connect_fail
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.client.on_socket_open = self._on_socket_open
        self.keepalive = keepalive
        self.properties = Properties(PacketTypes.CONNECT)
        self.properties.SessionExpiryInterval = SESSION_EXPIRY_S
        self.goodbye = True

    # -- topics ---------------------------------------------------------------------------

    def _presence_topic(self, role: str) -> str:
        return topic(self.table, "presence", role)

    def _presence(self, online: bool, tick: int | None = None) -> bytes:
        """This kit's signed presence; each one newer than the last (the Last Will, set
        before any, carries the highest tick: nothing of this run comes after it)."""
        if tick is None:
            self.tick += 1
            tick = self.tick
        said = Presence(self.table, self.game, self.role, online=online, kit=self.kit,
                        session=self.session, tick=tick)  # fmt: skip
        return encode(said, self.key)

    # -- the connection ---------------------------------------------------------------------

    def start(self) -> None:
        """Dial out (in the background, retrying until the broker answers)."""
        self.client.connect_async(
            self.url.host, self.url.port, keepalive=self.keepalive, properties=self.properties
        )
        self.client.loop_start()

    def claim(self) -> None:
        """Publish this kit's presence (online) again, over whatever another kit left."""
        self.client.publish(self._presence_topic(self.role), self._presence(True), 1, retain=True)

    def clear(self) -> None:
        """The game is over: take back what this kit left retained (its presence; the
        host's status too), so the table's next game starts from nothing of this one."""
        self.goodbye = False
        infos = [self.client.publish(self._presence_topic(self.role), b"", 1, retain=True)]
        if self.role == HOST:
            infos.append(self.client.publish(topic(self.table, "state"), b"", 1, retain=True))
        for info in infos:
            if self.client.is_connected():
                with contextlib.suppress(RuntimeError, ValueError):
                    info.wait_for_publish(timeout=2)

    def stop(self) -> None:
        """Say goodbye (presence offline, unless ``goodbye`` was turned off), then close."""
        if self.goodbye:
            info = self.client.publish(
                self._presence_topic(self.role), self._presence(False), 1, retain=True
            )
            if self.client.is_connected():
                with contextlib.suppress(RuntimeError, ValueError):
                    info.wait_for_publish(timeout=2)
        self.client.disconnect()
        self.client.loop_stop()

    def send(self, message: Message) -> Any:
        """Publish ``message`` with QoS 1 where it belongs (queued by paho while offline)."""
        raw = encode(message, self.key)
        to = getattr(message, "to", None)
        if self.role == HOST:
            where = topic(self.table, "to-seat", to) if to else topic(self.table, "state")
            retain = to is None  # the status is the table's retained state
        else:
            where, retain = topic(self.table, "to-host", self.role), False
        self.bytes_sent += len(raw)
        self.messages_sent += 1
        return self.client.publish(where, raw, 1, retain=retain)

    @staticmethod
    def _on_socket_open(_c: Any, _u: Any, sock: Any) -> None:
        # A decision is a few small packets each way: without TCP_NODELAY, Nagle's
        # algorithm meets the peer's delayed ACK and every hop waits ~40 ms.
        with contextlib.suppress(OSError, AttributeError):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def _on_connect(self, client: Any, _u: Any, _flags: Any, reason: Any, _p: Any) -> None:
        if reason.is_failure:
            self.events.put(("refused", str(reason)))
            return
        subs = [topic(self.table, "presence", "+")]
        if self.role == HOST:
            subs.append(topic(self.table, "to-host", "+"))
        else:
            subs += [topic(self.table, "to-seat", self.role), topic(self.table, "state")]
        client.subscribe([(s, 1) for s in subs])
        client.publish(self._presence_topic(self.role), self._presence(True), 1, retain=True)
        self.events.put(("connected",))

    def _on_connect_fail(self, client: Any, _u: Any) -> None:
        self.events.put(("unreachable", getattr(client, "last_error", None)))

    def _on_disconnect(self, _c: Any, _u: Any, _flags: Any, reason: Any, _p: Any) -> None:
        self.events.put(("disconnected", str(reason)))

    def _on_message(self, client: Any, _u: Any, msg: Any) -> None:
        levels = msg.topic.split("/")
        if len(levels) != 4 or levels[:2] != [PREFIX, self.table]:
            if len(levels) == 3 and levels[2] == "state" and msg.payload:
                self.events.put(("message", HOST, msg.payload))
            return
        kind, who = levels[2], levels[3]
        if kind == "presence":
            if msg.payload:  # empty: a finished game's kit took its presence back
                self.events.put(("presence", who, msg.payload))
        elif kind == "to-host" and self.role == HOST:
            self.events.put(("message", who, msg.payload))
        elif kind == "to-seat" and who == self.role:
            self.events.put(("message", HOST, msg.payload))
