"""What a remote kit says when something is wrong: at most a few lines per kind and minute
(a flood of junk on a public broker must not fill the log), and the sentences for a broker
that cannot be reached, with what to do about it.

Why a module of its own: the kit's loop says many things; the rules for saying them under
attack (``Quiet``) and the words for a failed connection (``unreachable``) are the same for
the host and the seats, and testable without a network.
"""

from __future__ import annotations

import socket
import ssl
import time
from collections.abc import Callable
from typing import Any

BURST = 5
"""Lines of one kind said at once before the kit falls quiet."""
QUIET_S = 60.0
"""How long it stays quiet about that kind; then one line says how many it held back."""


class Quiet:
    """Says lines through ``say``, at most ``burst`` of one ``kind`` per ``interval``
    seconds; the first one after a quiet spell tells how many were held back. ``clock`` is
    injectable so a test decides when time passes."""

    def __init__(
        self,
        say: Callable[[str], None],
        *,
        burst: int = BURST,
        interval: float = QUIET_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._say = say
        self.burst = burst
        self.interval = interval
        self.clock = clock
        self._window: dict[str, tuple[float, int]] = {}  # kind -> (start, lines said)
        self.held: dict[str, int] = {}

    def say(self, kind: str, line: str) -> bool:
        """Say ``line`` unless ``kind`` has had its share; True if it was said."""
        now = self.clock()
        start, said = self._window.get(kind, (now, 0))
        if now - start >= self.interval:
            start, said = now, 0
        if said >= self.burst:
            self.held[kind] = self.held.get(kind, 0) + 1
            self._window[kind] = (start, said)
            return False
        held = self.held.pop(kind, 0)
        more = f" ({held} more like it were not shown)" if held else ""
        self._say(line + more)
        self._window[kind] = (start, said + 1)
        return True


def unreachable(url: Any, error: BaseException | None, *, ca_file: str | None) -> tuple[str, bool]:
    """(the sentence, whether trying again can help) for a broker that did not answer."""
    where = f"{url.host}:{url.port}"
    if isinstance(error, ssl.SSLCertVerificationError | ssl.SSLError):
        detail = getattr(error, "verify_message", "") or getattr(error, "reason", "") or error
        if ca_file:
            fix = f"check that {ca_file} is the CA that signed the broker's certificate"
        else:
            fix = "give the CA that signed it with --ca-file (a private broker's own CA)"
        return (
            f"the broker at {where} answered, but its TLS certificate is not trusted "
            f"({detail}): {fix}",
            False,
        )
    if isinstance(error, socket.gaierror):
        return (
            f"cannot find the broker {url.host!r} (unknown host name): check the address "
            "after mqtt:// and this kit's network; trying again",
            True,
        )
    if isinstance(error, ConnectionRefusedError):
        return (
            f"nothing answers at {where} (connection refused): is the broker running, and "
            "is that its port? trying again",
            True,
        )
    if isinstance(error, TimeoutError | socket.timeout):
        return (
            f"the broker at {where} does not answer (timed out): check the address, the "
            "network and any firewall; trying again",
            True,
        )
    reason = f" ({error})" if error else ""
    return (
        f"cannot reach the broker at {where}{reason}: check the address and the network; "
        "trying again",
        True,
    )


def forged_hint(who: str) -> str:
    """What to do when ``who``'s messages do not carry this table's key."""
    return (
        f"{who}'s messages are not signed with this kit's table key: if that kit is "
        "starting, give both kits the same key (the host prints it when it starts, "
        "?key=… in its join line); if not, a stranger is publishing on this table and is "
        "ignored"
    )
