"""Phones and kits at one table (issue 35, item 6): ``run --remote … --host --seat
yellow=phone --web …`` serves yellow's seat to a phone while green is a kit over a real
Mosquitto; the phone's decisions reach the kits, the kits' reach the phone, and every party
ends with the host's game. Nothing for the phone's seat goes over the broker."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request

import paho.mqtt.client as mqtt
from support.remote_kits import POLICY, Kit
from support.waiting import wait_for

from haleakala.remote.broker import free_port
from haleakala.remote.policy import pick


def phone(url: str):
    """(GET state since N, POST decide) for the seat behind ``url`` (its token as bearer)."""
    base, _, token = url.partition("?token=")
    headers = {"Authorization": f"Bearer {token}"}

    def state(since: int) -> dict:
        request = urllib.request.Request(f"{base}state?since={since}&wait=1", headers=headers)
        with urllib.request.urlopen(request, timeout=60) as answer:
            return json.loads(answer.read())

    def decide(message: dict) -> dict:
        request = urllib.request.Request(
            f"{base}decide", data=json.dumps(message).encode(), method="POST",
            headers={**headers, "Content-Type": "application/json"},
        )  # fmt: skip
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                return json.loads(answer.read())
        except urllib.error.HTTPError as refused:  # 409 moved on, 503 paused: a sentence
            return json.loads(refused.read())

    return state, decide


def test_a_phone_and_kits_hold_the_seats_of_one_kanaloa_table(tmp_path, broker):
    port = free_port()
    spied: list[str] = []
    spy = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="spy")
    spy.on_message = lambda _c, _u, m: spied.append(m.topic)
    spy.connect("127.0.0.1", broker.port)
    spy.subscribe("haleakala/#", 1)
    spy.loop_start()
    table = ("--game", "kanaloa", "--players", "3", "--seat", "yellow=phone")
    host = Kit(tmp_path, broker, "red", *table, "--web", f"127.0.0.1:{port}", host=True).start()
    green = Kit(tmp_path, broker, "green").start()
    try:
        host.wait_for_line("phone seat yellow: ")
        url = re.search(r"phone seat yellow: (\S+)", host.text()).group(1)
        assert "to join table t1" in host.text() and "--seat green" in host.text()
        state, decide = phone(url)
        known, seen = 0, state(0)
        while not seen["over"]:
            if seen["your_turn"] and not seen["paused"]:
                text = pick(sorted(d["text"] for d in seen["legal"]), POLICY, seen["seq"] + 1)
                answer = decide({"v": 2, "kind": "decide", "table": seen["table"],
                                 "game": seen["game_id"], "sender": "yellow",
                                 "seq": seen["seq"] + 1, "decision": text, "nonce": "",
                                 "mac": ""})  # fmt: skip
                assert answer["ok"] or answer["error"], answer  # refused: look again
            known = seen["seq"]
            try:
                seen = state(known)
            except OSError:  # the host ended with the game and its server with it
                break
        for kit in (host, green):
            assert kit.wait() == 0, kit.text()[-2000:]
        digest = re.search(r"digest (\w+)", host.text()).group(1)
        assert f"digest {digest}" in green.text()
        assert "yellow" in host.text() and re.search(r"^\d+: yellow ", host.text(), re.M)
        wait_for(lambda: spied, "the spy heard the table")
        assert not [t for t in spied if t.endswith("to-seat/yellow")]  # the phone's view
    finally:
        spy.loop_stop()
        host.stop()
        green.stop()
