"""Hidden information never leaves the host for a seat that may not see it (issue 28: "filtered
per seat before it leaves the host, the initial state included"). Each test captures every
byte the host sends to one seat and searches it for the opponent's secrets: a Kahuna
face-down discard (its decision text names the card, K19/K33), the decision texts in a
snapshot's history, an old decision number asked again, and the end of the game."""

from __future__ import annotations

import json

import pytest
from support.remote_table import Table

from haleakala.gameapi import new_game
from haleakala.remote import wire


def kahuna_with_discards(seed: int = 2, policy: int = 5) -> tuple[Table, list[tuple[int, str]]]:
    """A whole Kahuna game between two mirrors, and white's face-down discards (seq, text)."""
    table = Table(new_game("kahuna", seed=seed))
    table.join()
    table.play(policy_seed=policy)
    white = table.authority.players[0]
    discards = [
        (seq, text)
        for seq, (seat, text) in enumerate(table.authority.history, 1)
        if seat == white and text.startswith("discard ")
    ]
    assert discards, "the policy must discard face down at least once for this test to mean it"
    return table, discards


def sent_to(table: Table, seat: str) -> bytes:
    return b"\n".join(table.sent[seat])


def test_a_face_down_discard_reaches_the_opponent_without_its_card():
    table, discards = kahuna_with_discards()
    white, black = table.authority.players
    wire_bytes = sent_to(table, black)
    messages = [json.loads(raw) for raw in table.sent[black]]
    # black may hold the same card and see "discard X" among its own legal decisions
    own = {t for m in messages for t in m.get("legal", [])}
    own |= {d for s, d in table.authority.history if s == black}
    secret = [text for _seq, text in discards if text not in own]
    assert secret, "no discard of white's is a text black could know otherwise"
    for text in secret:
        assert json.dumps(text).encode() not in wire_bytes  # e.g. "discard HUNA"
    for m in messages:
        if m["kind"] == "decision" and m["seat"] == white:
            assert not m["decision"].startswith("discard ") or m["decision"] == "discard ?"
    # the opponent learns that a card went face down, and its own player sees which
    seq, text = discards[0]
    assert table.mirrors[black].history[seq - 1] == "discard ?"
    assert table.mirrors[white].history[seq - 1] == text


def test_a_snapshot_sent_after_a_discard_holds_the_history_as_the_seat_saw_it():
    table = Table(new_game("kahuna", seed=2))
    table.join()
    white, black = table.authority.players
    table.play(policy_seed=5, until=1)
    while not any(s == white and d.startswith("discard ") for s, d in table.authority.history):
        table.play(policy_seed=5, until=table.authority.seq + 1)
    table.sent[black].clear()
    table.to_host(black, [table.mirrors[black].hello()])  # a reconnection asks again
    (raw,) = [r for r in table.sent[black] if json.loads(r)["kind"] == "snapshot"]
    history = json.loads(raw)["history"]
    for (seat, text), seen in zip(table.authority.history, history, strict=True):
        assert seen == ("discard ?" if seat == white and text.startswith("discard ") else text)


def test_an_old_decision_number_asked_again_does_not_read_the_decision():
    table, discards = kahuna_with_discards()
    white, black = table.authority.players
    table.sent[black].clear()
    for seq, text in discards:
        table.to_host(black, [wire.Decide("t1", "feed", black, seq=seq, decision="end")])
        assert json.dumps(text)[1:-1].encode() not in sent_to(table, black)
        reason = [m for m in table.inbox[black] if isinstance(m, wire.Ack)][-1].reason
        assert reason == f"decision {seq} was already taken by {white}"


def test_the_end_of_the_game_announces_the_hosts_digest_not_the_whole_state():
    table, _ = kahuna_with_discards()
    game = table.authority.game
    black = table.authority.players[1]
    final = [json.loads(r) for r in table.sent[black] if json.loads(r)["kind"] == "snapshot"][-1]
    assert final["reveal"] == game.digest()
    assert b'"hands"' not in sent_to(table, black) and b'"seed"' not in sent_to(table, black)
    assert final["view"] == game.observation(1)  # the view the mirror holds, nothing more
    assert table.mirrors[black].final_digest == game.digest()


@pytest.mark.parametrize("seq", [-1, -5, 0])
def test_a_decision_number_below_one_is_refused_inside_the_authority(seq):
    table = Table(new_game("kahuna", seed=2))
    table.join()
    table.play(policy_seed=5, until=6)
    seat = table.authority.game.to_move
    assert table.authority.refusal(seat, seq, "end") == ("decision numbers start at 1", True)
    assert table.authority.seq == 6


def test_a_game_with_nothing_hidden_in_its_decisions_sends_every_text_unchanged():
    table = Table(new_game("haleakala", seed=4))
    table.join()
    table.play(policy_seed=7)
    for mirror in table.mirrors.values():
        assert mirror.history == [d for _, d in table.authority.history]
