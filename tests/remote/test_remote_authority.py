"""The authority and the mirror (issue 28, part 1): one place deals, judges and journals;
seats mirror what it acknowledges; hidden information never leaves the host."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.remote_table import Table

from haleakala.gameapi import new_game
from haleakala.remote import wire
from haleakala.remote.policy import reference_game


@pytest.mark.parametrize("name", ["haleakala", "kahuna"])
def test_two_mirrors_end_with_the_authoritys_history_and_digest(name):
    table = Table(new_game(name, seed=4))
    table.join()
    table.play(policy_seed=7)
    reference = reference_game(name, 4, 7)
    assert table.authority.game.digest() == reference.digest()
    for seat, mirror in table.mirrors.items():
        assert mirror.final_digest == reference.digest()  # announced at the end
        assert mirror.history == table.authority.seen[seat]
        assert mirror.seq == len(table.journal)


def test_the_journal_takes_each_accepted_decision_once_before_its_acknowledgement():
    table = Table(new_game("haleakala", seed=1))
    table.join()
    seat = table.authority.game.to_move
    mirror = table.mirrors[seat]
    decide = mirror.decide(mirror.legal[0])
    acks_before = []
    table.authority.journal = lambda record: acks_before.append((record, list(table.inbox[seat])))
    table.to_host(seat, [decide, decide, decide])  # sent three times (no ack seen yet)
    assert len(acks_before) == 1 and acks_before[0][1] == []  # journalled before any answer
    acks = [m for m in table.inbox[seat] if isinstance(m, wire.Ack)]
    assert [a.ok for a in acks] == [True, True, True]  # repeats are acknowledged again
    assert table.authority.seq == 1


def test_a_decision_from_the_seat_not_to_move_is_refused_with_a_sentence():
    table = Table(new_game("haleakala", seed=1))
    table.join()
    game = table.authority.game
    other = next(s for s in game.players if s != game.to_move)
    forged = wire.Decide("t1", "feed", other, seq=1, decision=game.legal_decisions()[0])
    table.to_host(other, [forged])
    (ack,) = [m for m in table.inbox[other] if isinstance(m, wire.Ack)]
    assert not ack.ok and ack.final
    assert ack.reason == f"it is {game.to_move}'s decision, not {other}'s"
    assert table.authority.seq == 0 and table.journal == []


def test_a_message_claiming_another_seat_than_its_channel_is_ignored():
    table = Table(new_game("haleakala", seed=1))
    table.join()
    game = table.authority.game
    other = next(s for s in game.players if s != game.to_move)
    claims_mover = wire.Decide(
        "t1", "feed", game.to_move, seq=1, decision=game.legal_decisions()[0]
    )
    table.to_host(other, [claims_mover])  # arrived on the other seat's channel
    assert table.authority.seq == 0 and not table.inbox[other]


def test_an_illegal_decision_is_refused_with_the_rules_sentence():
    table = Table(new_game("haleakala", seed=1))
    table.join()
    seat = table.authority.game.to_move
    mirror = table.mirrors[seat]
    table.to_host(seat, [mirror.decide("5@9")])
    table.deliver()
    assert mirror.refused is not None and mirror.refused.reason
    assert mirror.pending is None and table.authority.seq == 0


def test_a_replayed_old_decision_with_another_text_is_refused_not_applied():
    table = Table(new_game("haleakala", seed=1))
    table.join()
    table.play(policy_seed=3, until=4)
    seat, taken = table.authority.history[1]
    game = table.authority.game
    replay = wire.Decide("t1", "feed", seat, seq=2, decision="1@5" if taken != "1@5" else "1@4")
    table.to_host(seat, [replay])
    ack = [m for m in table.inbox[seat] if isinstance(m, wire.Ack)][-1]
    assert ack.reason == f"decision 2 was already taken by {seat}"  # never its text
    assert table.authority.seq == 4 and game.digest() == table.authority.game.digest()


def test_a_decision_from_another_game_and_one_ahead_of_the_game_are_refused():
    table = Table(new_game("haleakala", seed=1))
    table.join()
    seat = table.authority.game.to_move
    text = table.authority.game.legal_decisions()[0]
    table.to_host(
        seat,
        [
            wire.Decide("t1", "beef", seat, seq=1, decision=text),
            wire.Decide("t1", "feed", seat, seq=5, decision=text),
        ],
    )
    reasons = [m.reason for m in table.inbox[seat] if isinstance(m, wire.Ack)]
    assert reasons == [
        "a decision from another game",
        "decision 5 is ahead of the game, which has 0",
    ]
    assert table.authority.seq == 0


def test_a_kahuna_hand_never_reaches_the_opponent_not_even_in_the_first_snapshot():
    game = new_game("kahuna", seed=2)
    table = Table(game)
    table.join()
    table.play(policy_seed=5, until=30)
    white, black = game.players
    for seat, other in ((white, black), (black, white)):
        first = next(m for m in map(json.loads, table.sent[seat]) if m["kind"] == "snapshot")
        assert "hand" in first["view"] and first["view"]["player"] == seat
        for raw in table.sent[seat]:
            message = json.loads(raw)
            assert message["kind"] != "snapshot" or message["reveal"] == ""
            assert message.get("view", {}).get("player", seat) == seat
        # what the seat holds now is exactly its observation, nothing more
        assert table.mirrors[seat].view == game.observation(game.players.index(seat))
        assert table.mirrors[seat].view != game.observation(game.players.index(other))


def test_a_lost_decision_message_is_noticed_and_the_snapshot_brings_the_seat_back():
    table = Table(new_game("haleakala", seed=6))
    table.join()
    table.play(policy_seed=2, until=3)
    game = table.authority.game
    mover = game.to_move
    mirror = table.mirrors[mover]
    table.to_host(mover, [mirror.decide(mirror.legal[0])])
    behind = next(s for s in game.players if s != game.to_move)  # it will not decide next
    table.inbox[behind] = [m for m in table.inbox[behind] if not isinstance(m, wire.Decision)]
    table.deliver()
    assert table.mirrors[behind].seq == 3  # it missed decision 4
    table.play(policy_seed=2, until=5)  # decision 5 shows the gap: hello, then the snapshot
    assert table.mirrors[behind].synced
    assert table.mirrors[behind].history == [d for _, d in table.authority.history]


def test_a_missing_seat_pauses_the_game_with_the_time_it_has_been_gone_and_never_forfeits():
    table = Table(new_game("haleakala", seed=1))
    table.join()
    game = table.authority.game
    mover = game.to_move
    other = next(s for s in game.players if s != mover)
    table.to_seats(table.authority.connected(other, False))
    table.clock.now += 42
    mirror = table.mirrors[mover]
    table.deliver()
    assert mirror.paused
    table.to_host(mover, [mirror.decide(mirror.legal[0])])
    table.deliver()
    ack = mirror.pending  # not final: kept to be sent again
    assert ack is not None and table.authority.seq == 0
    assert table.authority.refusal(mover, 1, mirror.legal[0]) == (
        f"the game is paused: {other} has been away 42 s",
        False,
    )
    table.clock.now += 3600  # an hour later, still paused, never forfeited
    assert not game.is_terminal() and table.authority.away() == {other: 3642}
    table.to_seats(table.authority.connected(other, True))
    table.deliver()
    assert not mirror.paused
    table.to_host(mover, mirror.outbox())
    table.deliver()
    assert table.authority.seq == 1 and mirror.pending is None


@pytest.mark.parametrize(
    ("consents", "allowed"),
    [
        ({"red": True, "yellow": True}, True),
        ({"red": True, "yellow": False}, False),
        ({}, False),
    ],
)
def test_hints_only_when_every_seat_allows_them(consents, allowed):
    table = Table(new_game("haleakala", seed=1), hints=consents)
    table.join()
    assert table.authority.hints_allowed() is allowed
    assert all(m.hints is allowed for m in table.mirrors.values())


def test_a_seat_played_at_the_host_decides_through_the_same_checks():
    game = new_game("haleakala", seed=1)
    local = game.players[0]
    table = Table(game, local=(local,))
    table.join()
    while not game.is_terminal():
        seat = game.to_move
        if seat == local:
            reason, out = table.authority.local_decide(seat, sorted(game.legal_decisions())[0])
            assert reason == ""
            table.to_seats(out)
        else:
            mirror = table.mirrors[seat]
            table.to_host(seat, [mirror.decide(mirror.legal[-1])])
        table.deliver()
    (mirror,) = table.mirrors.values()
    assert mirror.final_digest == game.digest()
    assert table.authority.local_decide(local, "1@0")[0] == "the game is over"


@pytest.mark.parametrize("name", ["haleakala", "kahuna"])
def test_a_mirror_follows_a_whole_game_from_decisions_alone_without_asking_again(name):
    table = Table(new_game(name, seed=3))
    table.join()
    table.play(policy_seed=1)
    for seat, sent in table.sent.items():
        snapshots = [m for m in map(json.loads, sent) if m["kind"] == "snapshot"]
        # the first one, and the reveal at the end: no digest ever missed in between
        assert [s["seq"] for s in snapshots] == [0, table.authority.seq], seat


def test_no_remote_message_may_speak_for_a_seat_played_at_the_host():
    game = new_game("haleakala", seed=1)
    local = game.to_move
    table = Table(game, local=(local,))
    table.join()
    impostor = wire.Decide("t1", "feed", local, seq=1, decision=game.legal_decisions()[0])
    assert table.authority.receive(table.wire(impostor), local) == []
    assert table.authority.seq == 0 and table.journal == []


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_lost_repeated_and_reordered_messages_never_split_the_game(data):
    """Whatever the network does (drop, repeat, reorder, a seat asking again), a mirror's
    history is always a prefix of the host's, nothing acknowledged is lost, and once the
    network behaves the mirrors catch up exactly."""
    table = Table(new_game("kahuna", seed=data.draw(st.integers(0, 50))))
    table.join()
    game = table.authority.game
    for _ in range(data.draw(st.integers(10, 120))):
        if game.is_terminal():
            break
        seat = data.draw(st.sampled_from(sorted(table.mirrors)))
        mirror, box = table.mirrors[seat], table.inbox[seat]
        action = data.draw(st.sampled_from(["decide", "deliver", "drop", "repeat", "swap",
                                            "resend", "hello"]))  # fmt: skip
        if action == "decide" and mirror.legal and mirror.to_move == seat:
            message = mirror.decide(mirror.legal[data.draw(st.integers(0, len(mirror.legal) - 1))])
            if message is not None:
                table.to_host(seat, [message])
        elif action == "deliver" and box:
            table.to_host(seat, mirror.receive(box.pop(0)))
        elif action == "drop" and box:
            box.pop(0)
        elif action == "repeat" and box:
            box.append(box[0])
        elif action == "swap" and len(box) > 1:
            box[0], box[1] = box[1], box[0]
        elif action == "resend":
            table.to_host(seat, mirror.outbox())
        elif action == "hello":
            table.to_host(seat, [mirror.hello()])
        for m in table.mirrors.values():
            host = table.authority.seen[m.seat]  # the history as that seat may see it
            assert m.history == host[: len(m.history)]
        assert len(table.journal) == table.authority.seq
    table.deliver()
    for seat, mirror in table.mirrors.items():
        table.to_host(seat, [mirror.hello()])  # what a kit does on every reconnection
    table.deliver()
    for m in table.mirrors.values():
        assert m.history == table.authority.seen[m.seat]
        assert m.view == game.observation(game.players.index(m.seat))
