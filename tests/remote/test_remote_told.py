"""Told, never silent (issue 35, item 5): a broker that cannot be reached is said within
seconds with what to do; both kits end with the final score; the host's own console shows
a Kahuna seat's face-down discard as ``discard ?``; a typed seat has a prompt, its legal
decisions, its hand and commands that stay on the kit; a decision made while the game is
paused is held and sent when it goes on; ``--web`` with ``--remote`` is refused."""

from __future__ import annotations

import io
import re
import subprocess
import sys

import pytest
from support.paths import REPO_ROOT
from support.remote_kits import POLICY, SEED, Kit

from haleakala.remote.broker import free_port
from haleakala.remote.policy import reference_game


class Address:
    """A stand-in for a broker: only its ``url`` is read by ``Kit``."""

    def __init__(self, url: str) -> None:
        self.url = url


@pytest.mark.parametrize(
    ("address", "sentence"),
    [
        ("mqtt://127.0.0.1:{port}", "(connection refused): is the broker running"),
        ("mqtt://no-such-broker.invalid:1883", "cannot find the broker 'no-such-broker.invalid'"),
    ],
)
def test_a_broker_that_cannot_be_reached_is_said_with_what_to_do(tmp_path, address, sentence):
    address = address.format(port=free_port())  # nothing listens there
    kit = Kit(tmp_path, Address(address), "yellow").start()
    try:
        kit.wait_for_line(sentence, timeout=30)
        assert not kit.exited()  # it keeps trying: the broker may come up later
    finally:
        kit.stop()


def test_a_broker_whose_certificate_nobody_vouches_for_ends_the_kit_with_the_fix(
    tmp_path, secured_broker
):
    broker, _cert = secured_broker
    kit = Kit(tmp_path, broker, "yellow").start()  # no --ca-file
    assert kit.wait(timeout=60) == 2, kit.text()
    assert "its TLS certificate is not trusted" in kit.text()
    assert "--ca-file" in kit.text() and "Traceback" not in kit.text()


def test_both_kits_end_with_the_final_score_not_only_a_digest(tmp_path, broker):
    reference = reference_game("haleakala", SEED, POLICY)
    red, yellow = reference.result().scores
    host = Kit(tmp_path, broker, "red", host=True).start()
    seat = Kit(tmp_path, broker, "yellow").start()
    try:
        for kit in (host, seat):
            assert kit.wait() == 0, kit.text()[-2000:]
            assert f"final score: game over: red {red}, yellow {yellow}" in kit.text(), kit.name
    finally:
        host.stop()
        seat.stop()


def test_the_kahuna_hosts_console_never_names_the_seats_face_down_discards(tmp_path, broker):
    """K19, K33: the seat sees ``discard ?`` for the host's discards, and the host's own
    console shows the seat's the same way (it once printed the card, 12 times a game)."""
    reference = reference_game("kahuna", SEED, POLICY)
    host = Kit(tmp_path, broker, "white", "--game", "kahuna", host=True).start()
    seat = Kit(tmp_path, broker, "black").start()
    try:
        for kit in (host, seat):
            assert kit.wait() == 0, kit.text()[-2000:]
        theirs = {"host": "black", "black": "white"}
        for kit in (host, seat):
            discards = re.findall(rf"^\d+: {theirs[kit.name]} discard (\S+)", kit.text(), re.M)
            assert discards and set(discards) == {"?"}, (kit.name, discards)
        assert any(d.startswith("discard ") and d != "discard ?" for d in
                   (reference.format(x) for x in reference.history))  # fmt: skip
    finally:
        host.stop()
        seat.stop()


def test_a_typed_seat_has_a_prompt_its_legal_list_its_hand_and_local_commands(tmp_path, broker):
    host = Kit(tmp_path, broker, "white", "--game", "kahuna", host=True).start()
    seat = Kit(tmp_path, broker, "black", autoplay=False).start()
    try:
        seat.wait_for_line("your hand: ")
        seat.wait_for_line("your decision")
        for word in ("help", "legal", "hand", "where"):
            seat.write(word)
        seat.wait_for_line("these stay on this kit")
        seat.wait_for_line("decisions so far")
        prompt = next(x for x in seat.text().splitlines() if x.startswith("your decision"))
        number = int(re.match(r"your decision (\d+)", prompt).group(1))
        legal = re.search(r"legal: (.*) — type one", prompt).group(1).split(", ")
        seat.write(legal[0])
        host.wait_for_line(f"{number}: black ")
        assert "help" not in host.text() and "refused" not in host.text()
    finally:
        host.stop()
        seat.stop()


def test_a_decision_typed_while_the_game_is_paused_is_held_and_sent_when_it_goes_on(tmp_path):
    """The host's own seat decides while its remote seat is away: held (never dropped),
    taken once the seat is back."""
    from haleakala.gameapi import new_game
    from haleakala.remote.kit import RemoteKit
    from haleakala.remote.mqtt import parse_url
    from haleakala.remote.wire import Hello

    out = io.StringIO()
    kit = RemoteKit(parse_url("mqtt://127.0.0.1:1/t1"), "red", host=True, state_dir=tmp_path,
                    new_game=lambda: new_game("haleakala", seed=1, start="red"), out=out,
                    typed=True)  # fmt: skip
    a = kit.authority
    assert a is not None and a.paused() and a.game.to_move == "red"
    kit.claim.established = True  # this kit hosts (no broker here)
    decision = sorted(a.game.legal_decisions())[0]
    kit.handle(("local", decision))
    assert "held: " in out.getvalue() and a.seq == 0
    kit.send = lambda messages: None  # nothing to send them to
    kit._host_message("yellow", Hello("t1", "", "yellow", have=0, hints=False, kit="k",
                                      session="5e55"))  # fmt: skip
    kit._release_held()
    assert a.seq == 1 and a.history[0] == ("red", decision)
    assert f"sending the held decision {decision}" in out.getvalue()


def test_web_with_remote_is_refused_with_a_sentence(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "haleakala", "run", "--remote", "mqtt://127.0.0.1:1/t1",
         "--seat", "red", "--web", "8080", "--state-dir", str(tmp_path)],
        capture_output=True, text=True, cwd=REPO_ROOT, timeout=60,
        env={"PYTHONPATH": str(REPO_ROOT), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert done.returncode == 2
    assert "the live view of a remote game is not served yet" in done.stderr
    assert "Traceback" not in done.stderr
