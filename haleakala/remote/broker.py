"""A private Mosquitto on a free local port, for the tests and ``haleakala bench remote``.

Why a real broker rather than a fake: what remote play must survive — a broker killed and
restarted, a kit's Last Will, QoS 1 sessions kept across a reconnection — is the broker's
behaviour, and only the broker shows it. Mosquitto is Debian's ``mosquitto`` package
(tools/bootstrap.sh installs it); it runs here with persistence in a directory of its own,
so a restart keeps the sessions and the retained topics, as a LAN broker configured as in
docs/REMOTE-PROTOCOL.md does.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

HANG_GUARD_S = 30.0


def mosquitto_path() -> str | None:
    """The mosquitto binary (Debian puts it in /usr/sbin, often not on a user's PATH)."""
    return shutil.which("mosquitto") or shutil.which("mosquitto", path="/usr/sbin:/usr/bin")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LocalBroker:
    """``start()``, ``kill()`` (SIGKILL: no goodbye, as a power cut), ``start()`` again on
    the same port; ``stop()`` at the end."""

    def __init__(
        self,
        directory: Path,
        port: int | None = None,
        *,
        tls: tuple[Path, Path] | None = None,
        password_file: Path | None = None,
    ) -> None:
        """``tls`` (certificate, key) serves MQTT over TLS only; ``password_file``
        (``mosquitto_passwd``'s) refuses anonymous kits."""
        binary = mosquitto_path()
        if binary is None:
            raise FileNotFoundError("mosquitto is not installed: apt-get install mosquitto")
        self.binary = binary
        self.directory = directory
        self.port = port or free_port()
        self.process: subprocess.Popen | None = None
        directory.mkdir(parents=True, exist_ok=True)
        self.config = directory / "mosquitto.conf"
        self.config.write_text(
            f"listener {self.port} 127.0.0.1\n"
            # started as root, mosquitto would become user "mosquitto", who cannot read a
            # test's private directory: stay who we are
            f"user {pwd.getpwuid(os.getuid()).pw_name}\n"
            + (f"certfile {tls[0]}\nkeyfile {tls[1]}\n" if tls else "")
            + (
                f"allow_anonymous false\npassword_file {password_file}\n"
                if password_file
                else "allow_anonymous true\n"
            )
            + "persistence true\n"
            f"persistence_location {directory}/\n"
            "autosave_interval 1\n"
            "set_tcp_nodelay true\n"
            "max_queued_messages 10000\n",
            encoding="utf-8",
        )
        self.log = directory / "mosquitto.log"
        self.tls = tls is not None

    @property
    def url(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://127.0.0.1:{self.port}"

    def start(self) -> None:
        with self.log.open("a") as log:
            self.process = subprocess.Popen(
                [self.binary, "-c", str(self.config)], stdout=log, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + HANG_GUARD_S
        while True:  # ready when it accepts a connection (no fixed sleep)
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), timeout=1),
            ):
                return
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"mosquitto did not start: see {self.log}")
            time.sleep(0.01)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.kill()
        self.process = None
