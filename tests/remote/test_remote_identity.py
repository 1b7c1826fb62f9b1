"""A game has an identity everywhere (issue 35, item 1): a second game at the same table is
really played, and nothing of the first one (a persistent session, a retained or replayed
message) can end it."""

from __future__ import annotations

import pytest
from support.remote_kits import POLICY, Kit
from support.waiting import wait_for

from haleakala.remote.policy import reference_game


def _ends_with(kit, reference):
    assert kit.wait() == 0, kit.text()[-3000:]
    game = kit.final()
    assert game.history == reference.history, kit.name
    assert game.digest() == reference.digest(), kit.name


def test_a_second_game_at_the_same_table_is_played_to_its_own_end(tmp_path, broker):
    first, second = reference_game("haleakala", 5, POLICY), reference_game("haleakala", 6, POLICY)
    assert first.digest() != second.digest()
    for reference, seed in ((first, 5), (second, 6)):
        host = Kit(tmp_path, broker, "red", host=True, seed=seed).start()
        seat = Kit(tmp_path, broker, "yellow", seed=seed).start()
        try:
            _ends_with(host, reference)
            _ends_with(seat, reference)
        finally:
            host.stop()
            seat.stop()


def test_the_first_games_messages_replayed_into_the_second_change_nothing(tmp_path, broker):
    """Every message of game 1 a stranger recorded on the broker (retained where the host
    retained anything) is replayed before and while the seat of game 2 joins: the seat plays
    game 2 to its end."""
    import paho.mqtt.client as mqtt

    recorded: list[tuple[str, bytes]] = []
    spy = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="spy")
    spy.on_message = lambda _c, _u, m: recorded.append((m.topic, bytes(m.payload)))
    spy.connect("127.0.0.1", broker.port)
    spy.subscribe("haleakala/#", 1)
    spy.loop_start()
    first, second = reference_game("haleakala", 5, POLICY), reference_game("haleakala", 6, POLICY)
    try:
        host = Kit(tmp_path, broker, "red", host=True, seed=5, name="host1").start()
        seat = Kit(tmp_path, broker, "yellow", seed=5, name="seat1").start()
        _ends_with(host, first)
        _ends_with(seat, first)
        wait_for(lambda: any("to-seat/yellow" in t for t, _ in recorded), "game 1 recorded")
        finals = [(t, p) for t, p in recorded if t.endswith("to-seat/yellow") and b'"reveal":"' in p
                  and b'"reveal":""' not in p]  # fmt: skip
        assert finals, "game 1's final snapshot was seen on the broker"
        # the old final snapshot, left retained for whoever joins yellow next
        spy.publish(finals[-1][0], finals[-1][1], 1, retain=True).wait_for_publish(10)
        host = Kit(tmp_path, broker, "red", host=True, seed=6, name="host2").start()
        seat = Kit(tmp_path, broker, "yellow", seed=6, name="seat2").start()
        game1 = [(t, p) for t, p in recorded if "/presence/" not in t]
        spy.unsubscribe("haleakala/#")
        assert len(game1) > 500  # every message of a whole game (the report replayed 1,638)
        for topic, payload in game1:  # the whole first game once more
            info = spy.publish(topic, payload, 1)
        info.wait_for_publish(30)
        _ends_with(host, second)
        _ends_with(seat, second)
    finally:
        spy.loop_stop()


@pytest.mark.remote
@pytest.mark.parametrize("rounds", [3])
def test_a_table_plays_game_after_game(tmp_path, broker, rounds):
    """The reported failure came in 5 of 9 rounds: three rounds in a row, each its own."""
    for seed in range(11, 11 + rounds):
        reference = reference_game("haleakala", seed, POLICY)
        host = Kit(tmp_path, broker, "red", host=True, seed=seed).start()
        seat = Kit(tmp_path, broker, "yellow", seed=seed).start()
        try:
            _ends_with(host, reference)
            _ends_with(seat, reference)
        finally:
            host.stop()
            seat.stop()


def test_a_finished_game_leaves_nothing_retained_on_the_table(tmp_path, broker):
    """The host empties ``state`` and its presence, the seat its presence: the next game
    at the table starts from nothing of this one."""
    import paho.mqtt.client as mqtt

    reference = reference_game("haleakala", 5, POLICY)
    host = Kit(tmp_path, broker, "red", host=True).start()
    seat = Kit(tmp_path, broker, "yellow").start()
    try:
        _ends_with(host, reference)
        _ends_with(seat, reference)
    finally:
        host.stop()
        seat.stop()
    retained: list[str] = []
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="late")
    client.on_message = lambda _c, _u, m: m.retain and retained.append(m.topic)
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    try:
        marker = "haleakala/t1-marker"
        client.publish(marker, b"x", 1, retain=True).wait_for_publish(10)
        # one SUBSCRIBE: the broker sends each filter's retained messages in this order
        client.subscribe([("haleakala/t1/state", 1), ("haleakala/t1/presence/+", 1),
                          (marker, 1)])  # fmt: skip
        wait_for(lambda: marker in retained, "the marker, after anything retained before it")
        assert retained == [marker]
    finally:
        client.loop_stop()
