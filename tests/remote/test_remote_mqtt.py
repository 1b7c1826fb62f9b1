"""Kit to kit over a real Mosquitto (issue 28, part 2 and its acceptance): two simulated
kits play a whole autoplayed game and end with the same history and digest — undisturbed,
with the broker killed and restarted mid-game, and with a kit SIGKILLed and restarted."""

from __future__ import annotations

import signal

import pytest
from support.remote_kits import POLICY, SEED, Kit

from haleakala.remote.policy import reference_game


@pytest.fixture
def reference():
    return reference_game("haleakala", SEED, POLICY)


def both_end_with(reference, *kits):
    for kit in kits:
        assert kit.wait() == 0, kit.text()[-3000:]
        game = kit.final()
        assert game.history == reference.history, kit.name
        assert game.digest() == reference.digest(), kit.name
        assert f"digest {reference.digest()}" in kit.text()


def test_two_kits_play_a_whole_game_over_a_broker_and_end_with_the_same_digest(
    tmp_path, broker, reference
):
    host = Kit(tmp_path, broker, "red", host=True).start()
    seat = Kit(tmp_path, broker, "yellow").start()
    try:
        both_end_with(reference, host, seat)
        assert "YELLOW PLACES" in host.text() and "RED PLACES" in seat.text()  # shown
    finally:
        host.stop()
        seat.stop()


@pytest.mark.remote
def test_the_game_survives_the_broker_killed_and_restarted_mid_game(tmp_path, broker, reference):
    host = Kit(tmp_path, broker, "red", host=True).start()
    seat = Kit(tmp_path, broker, "yellow", "--autoplay-until", "150").start()
    try:
        seat.wait_for_line("holding before decision")
        seat.signal(signal.SIGUSR1)  # play on, and the broker dies under the traffic
        broker.kill()
        host.wait_for_line("broker lost")
        seat.wait_for_line("broker lost")
        broker.start()
        both_end_with(reference, host, seat)
    finally:
        host.stop()
        seat.stop()


@pytest.mark.remote
@pytest.mark.parametrize("victim", ["seat", "host"])
def test_the_game_survives_a_kit_killed_and_restarted_mid_game(tmp_path, broker, reference, victim):
    hold = ("--autoplay-until", "200")
    host = Kit(tmp_path, broker, "red", *(hold if victim == "host" else ()), host=True).start()
    seat = Kit(tmp_path, broker, "yellow", *(hold if victim == "seat" else ())).start()
    killed = host if victim == "host" else seat
    other = seat if victim == "host" else host
    try:
        killed.wait_for_line("holding before decision")
        killed.signal(signal.SIGUSR1)  # it decides, and dies with its decision on the way
        killed.kill()
        if victim == "seat":
            host.wait_for_line("paused: yellow away")  # its Last Will
        else:
            seat.wait_for_line("the host is away")
        killed.args = [a for a in killed.args if a not in hold]
        killed.start()
        both_end_with(reference, host, seat)
        assert "everyone is here" in other.text() or victim == "host"
    finally:
        host.stop()
        seat.stop()


def test_a_second_host_for_a_table_is_refused_with_a_sentence(tmp_path, broker):
    first = Kit(tmp_path, broker, "red", "--autoplay-until", "0", host=True).start()
    try:
        first.wait_for_line("connected")
        second = Kit(tmp_path, broker, "yellow", host=True, name="second").start()
        assert second.wait() == 2
        assert "table t1 already has a host" in second.text()
        assert "Traceback" not in second.text()
        first.wait_for_line("tried to host table t1: ignored")
        assert not first.exited()  # the sitting host plays on
    finally:
        first.stop()


@pytest.mark.parametrize(
    ("address", "sentence"),
    [
        ("http://x/t", "the address must start with mqtt://"),
        ("mqtt://host:1883/", "the table name after the host"),
        ("mqtt://host:99999/t", "is not an address"),
    ],
)
def test_a_bad_remote_address_is_refused_with_a_sentence(tmp_path, address, sentence):
    import subprocess
    import sys

    from support.paths import REPO_ROOT

    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "haleakala",
            "run",
            "--remote",
            address,
            "--seat",
            "red",
            "--state-dir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        env={"PYTHONPATH": str(REPO_ROOT), "PATH": "/usr/bin:/bin"},
        timeout=60,
    )
    assert done.returncode == 2
    assert sentence in done.stderr and "Traceback" not in done.stderr


@pytest.mark.remote
def test_forged_and_malformed_messages_on_a_public_topic_are_refused_and_change_nothing(
    tmp_path, broker, reference
):
    import paho.mqtt.client as mqtt

    from haleakala.remote import wire

    key = ("--table-key", "between us")
    host = Kit(tmp_path, broker, "red", *key, host=True).start()
    seat = Kit(tmp_path, broker, "yellow", *key, "--autoplay-until", "40").start()
    stranger = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="stranger")
    try:
        seat.wait_for_line("holding before decision")
        stranger.connect("127.0.0.1", broker.port)
        stranger.loop_start()
        forged = wire.Decide("t1", "", "yellow", seq=41, decision="1@0")
        for raw in (wire.encode(forged, wire.table_key("a guess")), b"\x00junk", b"{}" * 40000):
            stranger.publish("haleakala/t1/to-host/yellow", raw, 1).wait_for_publish(10)
        host.wait_for_line("refused a message from yellow: a forged decide message")
        host.wait_for_line("refused a message from yellow: a message longer than 65536 bytes")
        seat.signal(signal.SIGUSR1)
        both_end_with(reference, host, seat)
        assert "Traceback" not in host.text()
    finally:
        stranger.loop_stop()
        host.stop()
        seat.stop()


@pytest.mark.remote
def test_two_kits_play_over_tls_with_passwords_and_a_wrong_password_is_told(
    tmp_path, secured_broker, reference
):
    from urllib.parse import urlsplit

    broker, cert = secured_broker
    where = urlsplit(broker.url).netloc

    class Secured:  # the URL with each kit's user and password
        def __init__(self, user: str) -> None:
            self.url = f"mqtts://{user}@{where}"

    ca = ("--ca-file", str(cert))
    wrong = Kit(tmp_path, Secured("yellowkit:guess"), "yellow", *ca, name="wrong").start()
    assert wrong.wait() == 2
    assert "the broker refused this kit: Not authorized" in wrong.text()
    host = Kit(tmp_path, Secured("hostkit:h0st"), "red", *ca, host=True).start()
    seat = Kit(tmp_path, Secured("yellowkit:ye11ow"), "yellow", *ca).start()
    try:
        both_end_with(reference, host, seat)
    finally:
        host.stop()
        seat.stop()


def test_two_kits_play_a_whole_kahuna_game_over_a_broker_and_end_with_the_same_digest(
    tmp_path, broker
):
    """The core is game-neutral: ``--game kahuna`` at the host; the seat learns the game
    from it, sees its own hand only, and ends with the host's announced digest."""
    import json

    from support.remote_kits import POLICY, SEED

    reference = reference_game("kahuna", SEED, POLICY)
    host = Kit(tmp_path, broker, "white", "--game", "kahuna", host=True).start()
    seat = Kit(tmp_path, broker, "black").start()
    try:
        for kit in (host, seat):
            assert kit.wait() == 0, kit.text()[-3000:]
            assert f"digest {reference.digest()}" in kit.text(), kit.name
        saw = json.loads((seat.state_dir / "remote" / "remote-final.json").read_text())
        assert saw["digest"] == reference.digest() and saw["view"]["player"] == "black"
        assert len(saw["history"]) == len(reference.history)
    finally:
        host.stop()
        seat.stop()
