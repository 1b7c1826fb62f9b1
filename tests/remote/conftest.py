"""The private Mosquitto the remote-play tests start (and kill)."""

from __future__ import annotations

import pytest

from haleakala.remote.broker import LocalBroker, mosquitto_path


@pytest.fixture
def broker(tmp_path):
    if mosquitto_path() is None:
        pytest.skip("mosquitto is not installed (tools/bootstrap.sh installs it as root)")
    b = LocalBroker(tmp_path / "broker")
    b.start()
    yield b
    b.stop()


@pytest.fixture
def secured_broker(tmp_path):
    """A broker that speaks only TLS (a self-signed certificate for 127.0.0.1) and only to
    kits with a password, as the LAN guide of docs/REMOTE-PROTOCOL.md sets one up."""
    import shutil
    import subprocess

    from haleakala.remote.broker import LocalBroker, mosquitto_path

    if mosquitto_path() is None or not shutil.which("openssl"):
        pytest.skip("mosquitto or openssl is not installed")
    passwd_tool = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
    d = tmp_path / "secure"
    d.mkdir()
    cert, key, passwords = d / "cert.pem", d / "key.pem", d / "passwd"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-keyout", str(key), "-out", str(cert), "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1"],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    subprocess.run([passwd_tool, "-b", "-c", str(passwords), "hostkit", "h0st"], check=True)
    subprocess.run([passwd_tool, "-b", str(passwords), "yellowkit", "ye11ow"], check=True)
    b = LocalBroker(d / "broker", tls=(cert, key), password_file=passwords)
    b.start()
    yield b, cert
    b.stop()
