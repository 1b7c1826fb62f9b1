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
