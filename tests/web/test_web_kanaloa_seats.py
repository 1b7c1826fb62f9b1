"""Kanaloa for three and four through the phone seats' path (issue 28): the host's table on
the remote core, one seat a phone driven by this test as its page would (the view since the
number it knows, then a decision numbered after it), the others bots on their own thread.
Out-of-turn deciders (the fish placement, Ku's robbery N43, the Kanaloa holder's veto N42 at
four) reach the phone like any decision; every seat's view is filtered; the phone's log and
the host's history end equal. No sleeps: the test waits on the table's condition."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from haleakala.ai import make_bot
from haleakala.gameapi import new_game
from haleakala.remote.policy import pick
from haleakala.web.seats import BotDriver, Table

WAIT_S = 60.0
"""A bound on one wait for the bots, never reached in a passing run (a failing one ends)."""


def hosted(players: int, seed: int) -> tuple[Table, BotDriver, str]:
    game = new_game("kanaloa", seed=seed, players=players)
    phone, *others = game.players
    table = Table(game, dict.fromkeys(others, "random"))
    bots = {c: make_bot("random", i, game="kanaloa") for i, c in enumerate(others, 1)}
    table.arrived(phone)  # a long poll held open for the whole game: never away
    return table, BotDriver(table, bots).start(), phone


def assert_filtered(table: Table, colour: str, view: dict) -> None:
    """What no seat's view may hold: the core's history and reveal, the seed (it deals the
    bag and the reserve), and the order of the bag; its legal decisions only while it
    decides."""
    game = table.game
    assert "history" not in view and "reveal" not in view
    assert "seed" not in view["state"] and view["state"]["bag"] == len(game.bag)
    assert view["state"]["player"] == colour
    if game.to_move == colour and not game.is_terminal():
        assert sorted(d["text"] for d in view["legal"]) == sorted(game.legal_decisions())
    else:
        assert view["legal"] == [] and not view["your_turn"]
    assert all(not line.startswith("seed:") for s in view["sections"] for line in s["lines"])


@pytest.mark.parametrize(
    ("players", "seed", "out_of_turn"),
    [(3, 7, {"fish", "start", "rob"}), (4, 14, {"fish", "start", "rob", "veto"})],
)
def test_a_whole_kanaloa_game_plays_to_its_end_with_one_phone_and_bots(players, seed, out_of_turn):
    table, driver, phone = hosted(players, seed)
    game = table.game
    start = new_game("kanaloa", seed=seed, players=players)
    log: list[tuple[int, str, str]] = []  # the phone's log, from the views it read
    known = 0
    seen_phases: Counter[str] = Counter()
    try:
        while True:
            with table.changed:
                assert table.changed.wait_for(
                    lambda: game.is_terminal() or game.to_move == phone, WAIT_S
                ), "the bots never gave the phone its turn"
                for colour in table.players:  # every seat's view, at this same position
                    assert_filtered(table, colour, table.view(colour, since=known))
                view = table.view(phone, since=known)
                if game.to_move == phone and game.decider != game.current:
                    seen_phases[game.phase_name] += 1
            assert not view["fresh"], "the phone read often enough to never miss a decision"
            log += [(m["n"], m["player"], m["text"]) for m in view["moves"]]
            known = view["seq"]
            if view["over"]:
                break
            assert view["your_turn"] and view["to_move"] == phone
            text = pick(sorted(d["text"] for d in view["legal"]), seed, known + 1)
            answer = table.decide(phone, known + 1, text)
            assert answer.ok, answer.text
    finally:
        driver.close()
    assert driver.error is None
    assert game.is_terminal() and len(game.returns()) == players
    assert set(seen_phases) == out_of_turn  # the phone decided out of turn, each kind
    history = list(table.authority.history)
    assert log == [(n, seat, text) for n, (seat, text) in enumerate(history, 1)]
    assert [(m.player, m.text) for m in table.moves] == [tuple(h) for h in history]
    for seat, text in history:
        start.apply(text, seat)
    assert start.digest() == game.digest()
    final = table.view(phone)
    assert final["over"] and final["legal"] == []
    assert final["result"].startswith("Game over (N48): ")  # in words, as at the terminal
    assert any(m["effects"] for m in final["moves"])  # draws, turns, temples in words
    assert json.dumps(final)  # the page's JSON, as the host sends it


def test_a_phone_deciding_out_of_turn_is_refused_a_decision_of_the_turns_player():
    """Ku's robbery (N43): while the Ku holder decides, the player whose turn it is may not."""
    game = new_game("kanaloa", seed=7, players=3)
    table = Table(game, {})
    for colour in table.players:
        table.arrived(colour)
    seq = 0
    while not (game.phase_name == "rob" and game.decider != game.current):
        seq += 1
        assert table.decide(game.to_move, seq, pick(sorted(game.legal_decisions()), 7, seq)).ok
    turn = game.players[game.current]
    answer = table.decide(turn, seq + 1, game.legal_decisions()[0])
    assert not answer.ok and answer.text and table.seq == seq
    assert table.view(turn)["legal"] == [] and table.view(game.to_move)["legal"]
    prompt = "rob a tile (rob COLOUR TILE)"  # only the seat that decides is told what to do
    assert prompt in table.view(game.to_move)["sections"][0]["lines"]
    assert prompt not in table.view(turn)["sections"][0]["lines"]
    assert table.decide(game.to_move, seq + 1, game.legal_decisions()[0]).ok


def test_a_three_seat_kanaloa_game_over_the_hosts_http_as_a_phone_plays_it():
    """The phone's own path: its token, ``state?since=N&wait=1`` (held until the bots have
    decided), ``POST decide``; its token opens no other seat's view."""
    pytest.importorskip("aiohttp")
    from support.live import exchange, parse

    from haleakala.web.host import HostView

    def request(method: str, path: str, body: bytes = b"") -> tuple[int, dict]:
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
            "Connection: close\r\n\r\n"
        )
        status, _headers, answer = parse(exchange(view.port, head.encode() + body))
        return status, json.loads(answer)

    table, driver, phone = hosted(3, 7)
    token = table.tokens[phone]
    assert list(table.tokens) == [phone]  # the bots' seats have no link at all
    view = HostView(table, "127.0.0.1", 0, request_timeout=30.0).start()
    log: list[tuple[int, str, str]] = []
    known = 0
    try:
        for other in table.players[1:]:
            status, said = request("GET", f"/seat/{other}/state")
            assert status == 403 and "token" in said["error"]
        while True:
            status, seen = request("GET", f"/seat/{phone}/state?since={known}&wait=1")
            assert status == 200 and not seen["fresh"]
            assert "history" not in seen and "seed" not in seen["state"]
            log += [(m["n"], m["player"], m["text"]) for m in seen["moves"]]
            known = seen["seq"]
            if seen["over"]:
                break
            if not seen["your_turn"]:
                continue
            text = pick(sorted(d["text"] for d in seen["legal"]), 7, known + 1)
            message = {"v": 2, "kind": "decide", "table": table.name, "game": table.game_id,
                       "sender": phone, "seq": known + 1, "decision": text, "nonce": "",
                       "mac": ""}  # fmt: skip
            status, answer = request("POST", f"/seat/{phone}/decide", json.dumps(message).encode())
            assert status == 200 and answer == {"v": 1, "ok": True, "seq": known + 1}
    finally:
        driver.close()
        view.close()
    assert driver.error is None and table.game.is_terminal()
    assert log == [(n, seat, text) for n, (seat, text) in enumerate(table.authority.history, 1)]


def test_a_phone_refused_by_the_kanaloa_rules_reads_why_in_the_hosts_language():
    """The rules' refusal is a value (its words made in the rules), so the phone reads it in
    the host's language with its ruling, not the English sentence of the log."""
    from haleakala import i18n

    game = new_game("kanaloa", seed=7, players=3)
    table = Table(game, {})
    for colour in table.players:
        table.arrived(colour)
    refused = game.refusal("start HONU", game.to_move)  # the fish phase: no piece yet (N13)
    assert refused is not None and refused.ruling == "N13"
    i18n.use("de")
    try:
        answer = table.decide(game.to_move, 1, "start HONU")
        german = i18n.render(refused.words)
    finally:
        i18n.use("en")
    assert not answer.ok and answer.text == german != refused.text
    assert "N13" in answer.text and table.seq == 0
