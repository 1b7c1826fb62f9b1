"""Strangers on the broker (issue 35, item 3), with a real Mosquitto: a table has a key by
default; a replayed signed status, a replayed or unsigned presence, a stranger's claim on the
host's seat, a kit's client id reused, a second kit for a held seat and a flood of junk change
nothing, and each is told."""

from __future__ import annotations

import json
import re
import signal

import paho.mqtt.client as mqtt
import pytest
from support.remote_kits import KEY, POLICY, Kit
from support.waiting import wait_for

from haleakala.remote import wire
from haleakala.remote.policy import reference_game


@pytest.fixture
def stranger(broker):
    """A client on the same broker that records everything under ``haleakala/``."""
    seen: list[tuple[str, bytes, bool]] = []
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="stranger")
    client.on_message = lambda _c, _u, m: seen.append((m.topic, bytes(m.payload), m.retain))
    client.connect("127.0.0.1", broker.port)
    client.subscribe("haleakala/#", 1)
    client.loop_start()
    client.seen = seen  # type: ignore[attr-defined]
    yield client
    client.loop_stop()
    client.disconnect()


def publish(client, topic: str, payload: bytes, retain: bool = False) -> None:
    client.publish(topic, payload, 1, retain=retain).wait_for_publish(10)


def ends_with(reference, *kits):
    for kit in kits:
        assert kit.wait() == 0, kit.text()[-3000:]
        assert f"digest {reference.digest()}" in kit.text(), kit.name


@pytest.fixture
def reference():
    return reference_game("haleakala", 5, POLICY)


def test_a_host_without_a_key_makes_one_and_prints_how_to_join(tmp_path, broker, reference):
    host = Kit(tmp_path, broker, "red", host=True, keyed=False).start()
    try:
        host.wait_for_line("hosting table t1")
        line = next(x for x in host.text().splitlines() if x.startswith("to join table t1:"))
        address = re.search(r"'(mqtts?://[^']+)'", line).group(1)
        assert address.startswith(f"{broker.url}/t1?key=") and "--seat yellow" in line
        assert "▀" in host.text() or "█" in host.text()  # the QR code under the line
        seat = Kit(tmp_path, broker, "yellow", keyed=False)
        seat.args[seat.args.index("--remote") + 1] = address  # the line, as printed
        seat.start()
        ends_with(reference, host, seat)
        kept = (tmp_path / "host" / "remote" / "table-key-t1").stat().st_mode & 0o777
        assert kept == 0o600
    finally:
        host.stop()


def test_a_seat_without_a_key_is_refused_with_what_to_do(tmp_path, broker):
    seat = Kit(tmp_path, broker, "yellow", keyed=False).start()
    assert seat.wait() == 2
    assert "table t1 needs its key" in seat.text() and "Traceback" not in seat.text()


def test_playing_without_a_key_needs_the_flag_and_is_warned_about(tmp_path, broker, reference):
    host = Kit(tmp_path, broker, "red", "--no-table-key", host=True).start()
    seat = Kit(tmp_path, broker, "yellow", "--no-table-key").start()
    try:
        ends_with(reference, host, seat)
        for kit in (host, seat):
            assert "WITHOUT a table key" in kit.text()
    finally:
        host.stop()
        seat.stop()


def test_a_strangers_decision_for_a_seat_is_refused_at_a_table_with_the_default_key(
    tmp_path, broker, reference, stranger
):
    host = Kit(tmp_path, broker, "red", host=True, keyed=False).start()
    try:
        host.wait_for_line("hosting table t1")
        forged = wire.Decide("t1", "", "yellow", seq=1, decision="1@0")
        publish(stranger, "haleakala/t1/to-host/yellow", wire.encode(forged))
        host.wait_for_line("refused a message from yellow: a forged decide message")
        assert "1: yellow" not in host.text()
    finally:
        host.stop()


def test_replayed_statuses_and_presences_do_not_stall_the_game(
    tmp_path, broker, reference, stranger
):
    """The host's first status (yellow away) and yellow's Last Will of a former run, both
    signed with the table's key, replayed (and left retained) once yellow is back: the
    seat takes neither, the host pauses for neither, the game ends."""
    host = Kit(tmp_path, broker, "red", host=True).start()
    seat = Kit(tmp_path, broker, "yellow", "--autoplay-until", "60").start()
    try:
        seat.wait_for_line("holding before decision")
        seat.kill()  # its Last Will (signed) says it is gone
        host.wait_for_line("paused: yellow away")
        seat.args = [a for a in seat.args if a not in ("--autoplay-until", "60")]
        wait_for(lambda: any(t.endswith("presence/yellow") and b'"online":false' in p
                             for t, p, _ in stranger.seen), "yellow's Last Will")  # fmt: skip
        will = next(p for t, p, _ in stranger.seen
                    if t.endswith("presence/yellow") and b'"online":false' in p)  # fmt: skip
        away = next(p for t, p, _ in stranger.seen
                    if t.endswith("/state") and b'"yellow"' in p)  # fmt: skip
        seat.start()
        host.wait_for_line("everyone is here")
        publish(stranger, "haleakala/t1/state", away, retain=True)
        publish(stranger, "haleakala/t1/presence/yellow", will, retain=True)
        ends_with(reference, host, seat)
        assert host.text().count("paused: yellow away") == 1
    finally:
        host.stop()
        seat.stop()


def test_an_unsigned_presence_and_a_strangers_claim_on_the_host_change_nothing(
    tmp_path, broker, reference, stranger
):
    """Left retained before the kits start: yellow offline, and a host claim of a kit that
    is not there (unsigned, in the old form; and a signed claim of an earlier host run)."""
    publish(stranger, "haleakala/t1/presence/yellow",
            json.dumps({"online": False, "kit": "x"}).encode(), retain=True)  # fmt: skip
    publish(stranger, "haleakala/t1/presence/host",
            json.dumps({"online": True, "kit": "evil"}).encode(), retain=True)  # fmt: skip
    old = wire.Presence("t1", "", "host", online=True, kit="0ld", session="0bd1", tick=9)
    host = Kit(tmp_path, broker, "red", host=True).start()
    try:
        host.wait_for_line("refused a message from host")  # the unsigned claim
        publish(stranger, "haleakala/t1/presence/host", wire.encode(old, wire.table_key(KEY)),
                retain=True)  # fmt: skip
        seat = Kit(tmp_path, broker, "yellow").start()
        ends_with(reference, host, seat)
        assert "already has a host" not in host.text()
    finally:
        host.stop()


def test_a_replayed_claim_of_a_former_host_is_checked_and_then_overruled(tmp_path, broker):
    old = wire.Presence("t1", "", "host", online=True, kit="0ld", session="0bd1", tick=9)
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="replayer")
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    try:
        publish(client, "haleakala/t1/presence/host", wire.encode(old, wire.table_key(KEY)),
                retain=True)  # fmt: skip
    finally:
        client.loop_stop()
    host = Kit(tmp_path, broker, "red", "--autoplay-until", "0", host=True).start()
    try:
        host.wait_for_line("checking for 5 s whether that host is still there")
        host.wait_for_line("did not answer (an old or replayed one): this kit hosts the table")
        assert not host.exited()
    finally:
        host.stop()


def test_a_kits_client_id_reused_by_a_stranger_does_not_throw_the_kit_off(
    tmp_path, broker, reference
):
    host = Kit(tmp_path, broker, "red", host=True).start()
    seat = Kit(tmp_path, broker, "yellow", "--autoplay-until", "30").start()
    try:
        seat.wait_for_line("holding before decision")
        for role in ("host", "yellow") * 5:  # the ids kits had before issue 35
            thief = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"haleakala-t1-{role}",
                                clean_session=False, protocol=mqtt.MQTTv311)  # fmt: skip
            thief.connect("127.0.0.1", broker.port)
            thief.loop(0.2)
            thief.disconnect()
        seat.signal(signal.SIGUSR1)
        ends_with(reference, host, seat)
        for kit in (host, seat):
            assert "broker lost" not in kit.text(), kit.name
    finally:
        host.stop()
        seat.stop()


def test_a_second_kit_for_a_held_seat_is_refused_loudly_and_the_first_plays_on(
    tmp_path, broker, reference
):
    host = Kit(tmp_path, broker, "red", host=True).start()
    seat = Kit(tmp_path, broker, "yellow", "--autoplay-until", "20").start()
    try:
        seat.wait_for_line("holding before decision")
        second = Kit(tmp_path, broker, "yellow", name="second").start()
        assert second.wait() == 2, second.text()
        assert "seat yellow of table t1 is already held by kit" in second.text()
        host.wait_for_line("refused a second kit for yellow")
        seat.signal(signal.SIGUSR1)
        ends_with(reference, host, seat)
    finally:
        host.stop()
        seat.stop()


def test_a_flood_of_junk_adds_a_few_log_lines_not_thousands(tmp_path, broker, stranger):
    host = Kit(tmp_path, broker, "red", "--autoplay-until", "0", host=True).start()
    try:
        host.wait_for_line("connected to")
        before = len(host.text().splitlines())
        for i in range(2000):
            info = stranger.publish(f"haleakala/t1/to-host/{'yellow' if i % 2 else 'x'}",
                                    b"junk %d" % i, 1)  # fmt: skip
        info.wait_for_publish(30)
        marker = wire.encode(wire.Hello("t1", "", "green", have=0, hints=False, kit="k"),
                             wire.table_key(KEY))  # fmt: skip
        publish(stranger, "haleakala/t1/to-host/green", marker)  # after the flood, in order
        host.wait_for_line("ignored a kit that claims seat green")
        assert len(host.text().splitlines()) - before < 20
    finally:
        host.stop()


def test_a_seat_claiming_a_colour_the_table_does_not_have_is_told_within_seconds(tmp_path, broker):
    host = Kit(tmp_path, broker, "red", "--autoplay-until", "0", host=True).start()
    try:
        seat = Kit(tmp_path, broker, "green").start()
        assert seat.wait() == 2, seat.text()
        assert "table t1 plays haleakala with the seats red, yellow: there is no green" in (
            seat.text()
        )
        assert "--seat yellow" in seat.text()
    finally:
        host.stop()


def test_a_table_key_mismatch_is_said_at_both_kits(tmp_path, broker):
    host = Kit(tmp_path, broker, "red", "--autoplay-until", "0", host=True).start()
    seat = Kit(tmp_path, broker, "yellow", "--table-key", "another key").start()
    try:
        seat.wait_for_line("host's messages are not signed with this kit's table key")
        host.wait_for_line("yellow's messages are not signed with this kit's table key")
        assert "everyone is here" not in host.text()
    finally:
        host.stop()
        seat.stop()


def test_the_broker_password_comes_from_the_environment_or_the_config_not_the_command_line(
    tmp_path, secured_broker
):
    """``$HALEAKALA_MQTT_PASSWORD`` and the config's ``[remote] password_file`` log a kit in;
    the password in the address still works, with a warning that says where to put it."""
    from urllib.parse import urlsplit

    broker, cert = secured_broker
    where = urlsplit(broker.url).netloc

    class Secured:
        def __init__(self, user: str) -> None:
            self.url = f"mqtts://{user}@{where}"

    ca = ("--ca-file", str(cert))
    by_env = Kit(tmp_path, Secured("yellowkit"), "yellow", *ca, name="env")
    by_env.env = {"HALEAKALA_MQTT_PASSWORD": "ye11ow"}
    secret = tmp_path / "mqtt-password"
    secret.write_text("h0st\n")
    config = tmp_path / "config.toml"
    config.write_text(f'[remote]\npassword_file = "{secret}"\n')
    by_file = Kit(tmp_path, Secured("hostkit"), "red", *ca, "--config", str(config),
                  "--autoplay-until", "0", host=True)  # fmt: skip
    old_form = Kit(tmp_path, Secured("yellowkit:ye11ow"), "yellow", *ca, name="old")
    try:
        for kit in (by_file, by_env):
            kit.start()
            kit.wait_for_line("connected to")
            assert "refused this kit" not in kit.text()
        by_env.stop()
        old_form.start()
        old_form.wait_for_line("connected to")
        assert "the broker password is on the command line" in old_form.text()
        assert "$HALEAKALA_MQTT_PASSWORD" in old_form.text()
        for kit in (by_file, by_env, old_form):
            assert "ye11ow" not in kit.text() and "h0st" not in kit.text()
    finally:
        for kit in (by_file, by_env, old_form):
            kit.stop()
