"""The live view under systemd without its drop-in: the unit allows AF_UNIX only, so no
AF_INET socket can be made; asyncio then returns a server without sockets. Found in the booted
virtual Pi (a traceback); the daemon must say which drop-in opens the network instead."""

from __future__ import annotations

import errno
import logging
import socket

import haleakala.web.server  # noqa: F401  (aiohttp and ssl imported before socket is patched)
from haleakala.web.start import start_live_view


def test_a_forbidden_address_family_names_the_live_view_drop_in(monkeypatch, caplog):
    real = socket.socket

    def restricted(family=socket.AF_INET, *args, **kwargs):
        if family in (socket.AF_INET, socket.AF_INET6):
            raise OSError(errno.EAFNOSUPPORT, "Address family not supported by protocol")
        return real(family, *args, **kwargs)

    monkeypatch.setattr(socket, "socket", restricted)
    with caplog.at_level(logging.ERROR, logger="haleakala.web"):
        assert start_live_view("127.0.0.1:18765", companion=None) is None
    assert "systemd/live-view.conf" in caplog.text
