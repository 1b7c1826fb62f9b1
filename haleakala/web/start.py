"""Starting the live view from ``haleakala run --web`` / ``[web]`` / ``haleakala sim --web``.

Kept apart from ``server`` so that a missing ``web`` extra or a taken port is one clear line
in the log (what is wrong, what to do) instead of a traceback, and so that the daemon imports
aiohttp only when someone asked for the live view.
"""

from __future__ import annotations

import errno
import logging
from typing import TYPE_CHECKING, Any

from haleakala.checkout import install_hint

if TYPE_CHECKING:
    from haleakala.web.server import LiveView

log = logging.getLogger("haleakala.web")

INSTALL_HINT = f"install the web extra: {install_hint('web')}"


def start_live_view(spec: str, companion: Any) -> LiveView | None:
    """Listen on ``spec`` (``[HOST:]PORT``), publish the companion's game at once and log the
    joining URL (once: it holds the token). None, after logging why, when it cannot start."""
    try:
        from haleakala.web.server import AddressError, LiveView, parse_address
    except ImportError as exc:
        log.error("live view: %s is missing (%s)", exc.name or "aiohttp", INSTALL_HINT)
        return None
    try:
        host, port = parse_address(spec)
    except AddressError as exc:
        log.error("live view: --web %s", exc)
        return None
    live = LiveView(host, port)
    try:
        live.start()
    except OSError as exc:
        if exc.errno in (errno.EAFNOSUPPORT, errno.EPERM, errno.EACCES) and port >= 1024:
            fix = (
                "the network is closed to this process: under systemd install the drop-in "
                "systemd/live-view.conf (see docs/live-view.md)"
            )
        else:
            fix = "choose another port, or stop the program that holds it"
        log.error(
            "live view: cannot listen on %s:%d (%s): %s", host, port, exc.strerror or exc, fix
        )
        return None
    live.observe(companion)
    companion.live_view = live  # the OLED menu's "live view" entry reads it (web.join)
    where = "this machine only" if host in ("127.0.0.1", "::1", "localhost") else "the LAN"
    log.info("live view for %s: %s", where, live.url)
    return live
