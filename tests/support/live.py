"""Plain-socket clients of the live view: an event-stream reader and raw HTTP exchanges.

Raw sockets on purpose: the bad-input tests send what no well-behaved client library would
(garbage, oversized lines, a request that never ends), and the stream reader must see every
update exactly as the server framed it.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading

HANG_GUARD_S = 30.0


def exchange(port: int, raw: bytes, *, timeout: float = HANG_GUARD_S) -> bytes:
    """Send ``raw``, read until the server closes or the answer is complete; the bytes."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(raw)
        return read_answer(sock)


def read_answer(sock: socket.socket) -> bytes:
    """One HTTP answer (headers and a Content-Length body), or all until the server closes."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = None
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while length is not None and len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    return head + b"\r\n\r\n" + body


def get(port: int, path: str, token: str | None = None, extra: str = "") -> tuple[int, dict, bytes]:
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    raw = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{auth}{extra}Connection: close\r\n\r\n"
    return parse(exchange(port, raw.encode()))


def parse(answer: bytes) -> tuple[int, dict, bytes]:
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers, body


class StreamReader:
    """Reads ``/events`` in a thread and keeps every snapshot received, in order."""

    def __init__(self, port: int, token: str, *, rcvbuf: int | None = None) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if rcvbuf is not None:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.settimeout(HANG_GUARD_S * 2)
        self.sock.connect(("127.0.0.1", port))
        self.sock.sendall(
            f"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
            "Accept: text/event-stream\r\n\r\n".encode()
        )
        self.snapshots: list[dict] = []
        self.ids: list[int] = []
        self.status: int | None = None
        self.headers: dict = {}
        self.closed = threading.Event()
        self.reading = threading.Event()
        self.reading.set()  # clear it to stop reading: a phone that no longer takes data
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        buffer = b""
        try:
            while b"\r\n\r\n" not in buffer:
                chunk = self._recv()
                if not chunk:
                    return
                buffer += chunk
            head, _, buffer = buffer.partition(b"\r\n\r\n")
            self.status, self.headers, _ = parse(head + b"\r\n\r\n")
            text = b""
            while True:
                # Chunked transfer: size line, data, CRLF. Events end with a blank line.
                while b"\r\n" not in buffer:
                    chunk = self._recv()
                    if not chunk:
                        return
                    buffer += chunk
                size_line, _, buffer = buffer.partition(b"\r\n")
                size = int(size_line.split(b";")[0], 16)
                if size == 0:
                    return
                while len(buffer) < size + 2:
                    chunk = self._recv()
                    if not chunk:
                        return
                    buffer += chunk
                text += buffer[:size]
                buffer = buffer[size + 2 :]
                while b"\n\n" in text:
                    event, _, text = text.partition(b"\n\n")
                    self._event(event.decode())
        except OSError:
            return
        finally:
            self.closed.set()

    def _recv(self) -> bytes:
        self.reading.wait()
        return self.sock.recv(65536)

    def _event(self, event: str) -> None:
        fields: dict[str, str] = {}
        for line in event.split("\n"):
            if line.startswith(":") or not line:
                continue
            name, _, value = line.partition(": ")
            fields[name] = value
        if fields.get("event") == "snapshot":
            self.ids.append(int(fields["id"]))
            self.snapshots.append(json.loads(fields["data"]))

    @property
    def last(self) -> dict | None:
        return self.snapshots[-1] if self.snapshots else None

    def close(self) -> None:
        self.reading.set()
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()
        self.thread.join(5)
