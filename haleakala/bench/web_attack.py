"""The hostile second client of ``haleakala bench web`` (issue 22): while the viewers watch,
it sends malformed requests (the four the issue names, in turn) and tries to hold idle and
half-sent sockets open, reconnecting each as soon as the server sheds it.

It runs in its own process (so it does not share the daemon's interpreter lock) and speaks
only to 127.0.0.1, from the source addresses 127.0.0.2 (the holders) and 127.0.0.3 (the
malformed requests) where the system allows (on Linux the whole of 127.0.0.0/8 is this
machine), so the server sees devices other than the viewers', as on a LAN. Two addresses, so
the malformed requests reach the parser instead of being refused at the door because the
holders already fill their address's share: the harder case for the viewers.
Everything is bounded: the number of malformed requests, the number of connections the
holders may open (``MAX_CONNECTS``), and each wait (``ANSWER_TIMEOUT_S``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import sys
from collections import Counter

MALFORMED = (
    b"GET / HTTP/9.9\r\nHost: x\r\n\r\n",
    b"GET /" + b"a" * 10_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-%d: 1\r\n" % i for i in range(200)) + b"\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n"
    b"0\r\n\r\n",
)
"""A bad HTTP version, an over-long request line, too many headers, Content-Length with
Transfer-Encoding."""
SOURCE = "127.0.0.2"
SOURCE_MALFORMED = "127.0.0.3"
MAX_CONNECTS = 100_000
"""Connections the idle holders may open in all (each shed one reconnects at once)."""
ANSWER_TIMEOUT_S = 10.0
SLOWLORIS = b"GET / HTTP/1.1\r\nHost: x\r\n"
"""What every other holder sends, and never the blank line that would end it."""


def source_address(wanted: str = SOURCE) -> str:
    """``wanted`` where a socket can be bound to it, else 127.0.0.1 (same address as the
    viewers, which the server then tells apart only by the token)."""
    with socket.socket() as probe:
        try:
            probe.bind((wanted, 0))
        except OSError:
            return "127.0.0.1"
    return wanted


def attacker_main() -> None:
    """argv: port, malformed requests, idle sockets, seconds between malformed requests.
    Prints "ready" once every holder has connected once, "sent" after the last malformed
    request, and at the end of stdin its figures as one JSON line."""
    port, malformed, idle, interval = sys.argv[1:5]
    asyncio.run(_attack(int(port), int(malformed), int(idle), float(interval)))


async def _attack(port: int, malformed: int, idle: int, interval: float) -> None:
    source = source_address()
    source_malformed = source_address(SOURCE_MALFORMED)
    stop = asyncio.Event()
    connects = [0]
    shed = [0]
    held = [0]
    answers: Counter[str] = Counter()
    first_round = asyncio.Event()

    async def hold(i: int) -> None:
        while not stop.is_set() and connects[0] < MAX_CONNECTS:
            connects[0] += 1
            if connects[0] >= idle:
                first_round.set()
            try:
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", port, local_addr=(source, 0)
                )
            except OSError:
                await asyncio.sleep(0.05)
                continue
            held[0] += 1
            if i % 2:
                writer.write(SLOWLORIS)
            closed = asyncio.ensure_future(reader.read())  # until the server ends it
            stopping = asyncio.ensure_future(stop.wait())
            done, _ = await asyncio.wait({closed, stopping}, return_when=asyncio.FIRST_COMPLETED)
            held[0] -= 1
            if closed in done:
                shed[0] += 1
            for task in (closed, stopping):
                task.cancel()
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()

    holders = [asyncio.create_task(hold(i)) for i in range(idle)]
    if idle:
        await asyncio.wait_for(first_round.wait(), 60)
    print("ready", flush=True)
    for n in range(malformed):
        raw = MALFORMED[n % len(MALFORMED)]
        answers[await _one_malformed(port, source_malformed, raw)] += 1
        await asyncio.sleep(interval)
    print("sent", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    held_at_end = held[0]
    stop.set()
    await asyncio.gather(*holders, return_exceptions=True)
    figures = {
        "source": f"{source} (idle), {source_malformed} (malformed)",
        "malformed_sent": malformed,
        "answers": dict(sorted(answers.items())),
        "idle_connects": connects[0],
        "idle_ended_by_server": shed[0],
        "idle_held_at_end": held_at_end,
    }
    print(json.dumps(figures), flush=True)


async def _one_malformed(port: int, source: str, raw: bytes) -> str:
    """Send one malformed request on a new connection; the status answered ("closed": no
    answer before the server closed, "error": the connection failed)."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    except OSError:
        return "error"
    try:
        writer.write(raw)
        answer = await asyncio.wait_for(reader.read(), ANSWER_TIMEOUT_S)
    except (OSError, TimeoutError):
        return "error"
    finally:
        writer.close()
    if not answer.startswith(b"HTTP/"):
        return "closed"
    return answer.split(b" ", 2)[1].decode("ascii", "replace")
