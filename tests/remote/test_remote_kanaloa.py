"""Kanaloa for two, three and four on the remote-play core (issue 28): one authority, a mirror per
seat, every message encoded and parsed as on the wire. The decider is any seat, in turn or
out of it (the fish placement, Ku's robbery N43, the Kanaloa holder's veto N42 at four): each
mirror holds legal decisions only while it decides, and all end with the host's history."""

from __future__ import annotations

from collections import Counter

import pytest
from support.remote_table import Table

from haleakala.gameapi import new_game
from haleakala.remote.policy import pick, reference_game


@pytest.mark.parametrize(("players", "seed"), [(2, 4), (3, 4), (4, 14)])
def test_every_seat_of_a_kanaloa_game_mirrors_it_to_the_end_deciding_in_and_out_of_turn(
    players, seed
):
    table = Table(new_game("kanaloa", seed=seed, players=players))
    table.join()
    game = table.authority.game
    out_of_turn: Counter[str] = Counter()
    while not game.is_terminal():
        for seat, mirror in table.mirrors.items():
            assert mirror.seq == table.authority.seq and mirror.to_move == game.to_move
            assert bool(mirror.legal) == (seat == game.to_move)
            assert "seed" not in mirror.view and mirror.view["player"] == seat
        if game.decider != game.current:
            out_of_turn[game.phase_name] += 1
        mirror = table.mirrors[game.to_move]
        decide = mirror.decide(pick(sorted(mirror.legal), 1, mirror.seq + 1))
        assert decide is not None
        table.to_host(mirror.seat, [decide])
        table.deliver()
    reference = reference_game("kanaloa", seed, 1, players=players)
    assert game.digest() == reference.digest()
    assert {"fish", "rob"} <= set(out_of_turn)
    if players == 4:
        assert out_of_turn["veto"]
    for seat, mirror in table.mirrors.items():
        assert mirror.final_digest == reference.digest()
        assert mirror.history == table.authority.seen[seat]
        assert mirror.seq == len(table.journal)


def test_one_of_three_seats_away_pauses_the_game_for_the_other_two_never_forfeiting():
    table = Table(new_game("kanaloa", seed=4, players=3))
    table.join()
    game = table.authority.game
    away = next(s for s in game.players if s != game.to_move)
    table.to_seats(table.authority.connected(away, False))
    table.deliver()
    mover = table.mirrors[game.to_move]
    for seat in game.players:
        if seat != away:
            assert table.mirrors[seat].paused and away in table.mirrors[seat].away
    decide = mover.decide(sorted(mover.legal)[0])
    assert decide is not None
    table.to_host(mover.seat, [decide])
    table.deliver()
    assert table.authority.seq == 0 and mover.pending is not None  # kept to be sent again
    table.to_seats(table.authority.connected(away, True))
    table.deliver()
    assert not any(m.paused for m in table.mirrors.values())
    table.to_host(mover.seat, mover.outbox())
    table.deliver()
    assert table.authority.seq == 1 and mover.pending is None
    assert all(m.seq == 1 for m in table.mirrors.values())
