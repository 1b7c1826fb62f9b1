"""Kit to kit over an MQTT broker (paho-mqtt): topics, presence, and the connection.

Why MQTT: both kits dial out to a broker (Mosquitto on the host's LAN, or a public one),
so nobody opens a port on a router and no kit listens. The broker keeps what a kit needs
across drops: QoS 1 with a persistent session (a fixed client id, clean session off)
holds a kit's messages while it is away; a retained ``presence/<role>`` with a Last Will
says "offline" the moment a kit dies; a retained ``state`` topic holds the table's last
status for whoever connects next. Nothing here knows the game: it moves ``wire``
messages and hands them, with the seat its topic proves, to the caller's queue.

Topics (``haleakala/<table>/...``)::

    presence/<role>   retained {"online": bool, "kit": id}; the Last Will sets it offline
    to-host/<seat>    a seat's messages to the host (the seat is the topic's last level)
    to-seat/<seat>    the host's messages to one seat (its filtered view only)
    state             retained: the host's last Status

paho calls back on its own network thread; every callback only puts a tuple on the
queue, so the game is handled on the kit's one main thread.
"""

from __future__ import annotations

import contextlib
import json
import queue
import socket
import ssl
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlsplit

from .wire import _NAME, HOST, Message, encode

PREFIX = "haleakala"
DEFAULT_PORTS = {"mqtt": 1883, "mqtts": 8883}


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

    @property
    def tls(self) -> bool:
        return self.scheme == "mqtts"

    def __str__(self) -> str:  # never shows the password
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
    if parts.query or parts.fragment:
        raise RemoteURLError(f"{text!r}: an address takes no ?query or #fragment")
    return TableURL(
        parts.scheme,
        parts.hostname,
        port or DEFAULT_PORTS[parts.scheme],
        table,
        unquote(parts.username) if parts.username else None,
        unquote(parts.password) if parts.password else None,
    )


def topic(table: str, *levels: str) -> str:
    return "/".join((PREFIX, table, *levels))


class Link:
    """One kit's connection to one table, as the host or as one seat.

    Events put on ``events``: ``("connected",)``, ``("disconnected", reason)``,
    ``("message", seat_or_host, raw_bytes)``, ``("presence", role, online, kit)``.
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
    ) -> None:
        import paho.mqtt.client as mqtt

        self.url, self.role, self.kit, self.key, self.events = url, role, kit, key, events
        self.table = url.table
        self.bytes_sent = 0
        self.messages_sent = 0
        # A fixed client id per table and role: the broker keeps the session (queued QoS 1
        # messages, subscriptions) while the kit is away, and a restarted kit takes it over.
        self.client = mqtt.Client(
            mqtt.CallbackAPIVersion.VERSION2,
            client_id=f"{PREFIX}-{url.table}-{role}",
            clean_session=False,
            protocol=mqtt.MQTTv311,
        )
        if url.username:
            self.client.username_pw_set(url.username, url.password)
        if url.tls:
            self.client.tls_set(ca_certs=ca_file, tls_version=ssl.PROTOCOL_TLS_CLIENT)
        self.client.will_set(self._presence_topic(role), self._presence(False), 1, retain=True)
        self.client.reconnect_delay_set(min_delay=1, max_delay=4)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.client.on_socket_open = self._on_socket_open
        self.keepalive = keepalive
        self.goodbye = True

    # -- topics ---------------------------------------------------------------------------

    def _presence_topic(self, role: str) -> str:
        return topic(self.table, "presence", role)

    def _presence(self, online: bool) -> bytes:
        return json.dumps({"online": online, "kit": self.kit}, sort_keys=True).encode()

    # -- the connection ---------------------------------------------------------------------

    def start(self) -> None:
        """Dial out (in the background, retrying until the broker answers)."""
        self.client.connect_async(self.url.host, self.url.port, keepalive=self.keepalive)
        self.client.loop_start()

    def claim(self) -> None:
        """Publish this kit's presence (online) again, over whatever another kit left."""
        self.client.publish(self._presence_topic(self.role), self._presence(True), 1, retain=True)

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

    def _on_disconnect(self, _c: Any, _u: Any, _flags: Any, reason: Any, _p: Any) -> None:
        self.events.put(("disconnected", str(reason)))

    def _on_message(self, client: Any, _u: Any, msg: Any) -> None:
        levels = msg.topic.split("/")
        if len(levels) != 4 or levels[:2] != [PREFIX, self.table]:
            if len(levels) == 3 and levels[2] == "state":
                self.events.put(("message", HOST, msg.payload))
            return
        kind, who = levels[2], levels[3]
        if kind == "presence":
            try:
                data = json.loads(msg.payload[:200] or b"{}")
                online, kit = bool(data.get("online")), str(data.get("kit", ""))[:64]
            except (ValueError, AttributeError):
                return
            if who == self.role and not online and kit == self.kit and client.is_connected():
                # our own Last Will from a session we took over after a crash: we are here
                client.publish(self._presence_topic(self.role), self._presence(True), 1, True)
                return
            self.events.put(("presence", who, online, kit))
        elif kind == "to-host" and self.role == HOST:
            self.events.put(("message", who, msg.payload))
        elif kind == "to-seat" and who == self.role:
            self.events.put(("message", HOST, msg.payload))
