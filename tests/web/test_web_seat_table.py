"""The host's table of phone seats (``web.seats``) without a network: the remote core judges
every decision, each seat's view is filtered for it, a quiet page pauses the game (never
forfeits it), and the bots wait for the phones. The clock is injected: time passes only when
the test says."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from haleakala.gameapi import new_game
from haleakala.games.kahuna import Game
from haleakala.games.kahuna.notation import DISCARD, DRAW_PILE
from haleakala.web.seats import AWAY_AFTER_S, BotDriver, Table


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def present(table: Table) -> Table:
    for colour in table.phone_seats():
        table.arrived(colour)
        table.left(colour)
    return table


def test_phones_are_away_until_their_page_asks_and_the_game_waits_for_them():
    clock = Clock()
    table = Table(Game(seed=2, start="white"), {"black": "random"}, clock=clock)
    assert table.paused()
    view = table.view("white")
    assert view["paused"] and view["players"][0]["away"] == 0
    text = table.game.format(table.game.legal_actions()[0])
    answer = table.decide("white", 1, text)
    assert not answer.ok and not answer.final and answer.status == 503
    assert "paused" in answer.text and table.seq == 0
    table.arrived("white")
    assert not table.paused()
    assert table.decide("white", 1, text).ok


def test_a_page_quiet_for_thirty_seconds_pauses_the_game_and_its_return_resumes_it():
    clock = Clock()
    table = present(Table(Game(seed=2, start="black"), {"black": "random"}, clock=clock))
    clock.now += AWAY_AFTER_S - 1
    table.sweep()
    assert not table.paused()
    table.arrived("white")  # a long poll open: answered within host.POLL_S, then asked again
    clock.now += AWAY_AFTER_S - 1
    table.sweep()
    assert not table.paused()
    table.left("white")  # and then nothing: the phone is gone
    clock.now += 1
    table.sweep()
    assert table.paused()
    clock.now += 12
    assert table.view("white")["players"][0]["away"] == 12
    code = table.game.legal_actions()[0]
    assert not table.bot_decides("black", 0, code)  # the bot waits; nothing is forfeited
    assert table.seq == 0 and not table.game.is_terminal()
    table.arrived("white")
    assert table.bot_decides("black", 0, code)


def test_the_bot_thread_waits_while_paused_and_plays_once_the_phone_is_back():
    table = Table(Game(seed=2, start="black"), {"black": "random"})
    from haleakala.ai import make_bot

    driver = BotDriver(table, {"black": make_bot("random", 1, game="kahuna")}).start()
    try:
        assert table.wait_for_change(0, 0.2) == 0  # paused: white never came
        table.arrived("white")
        assert table.wait_for_change(0, 30.0) >= 1
        assert table.moves[0].player == "black"
    finally:
        driver.close()
    assert driver.error is None


def test_the_view_of_a_seat_holds_its_hand_and_only_the_size_of_the_other():
    table = present(Table(Game(seed=4), {}))
    game = table.game
    for p, colour in enumerate(table.players):
        view = table.view(colour)
        other = game.hand_cards(1 - p)
        assert view["state"]["hand"] == game.hand_cards(p)
        assert view["state"]["opponent_hand"]["size"] == len(other)
        assert view["sections"][0]["lines"][0].endswith(" ".join(game.hand_cards(p)))
        assert "history" not in view and "reveal" not in view
        assert json.dumps(other) not in json.dumps(view)


def test_the_legal_decisions_come_in_words_then_notation_in_the_order_of_a_turn():
    table = present(Table(Game(seed=4, start="white"), {}))
    legal = table.view("white")["legal"]
    codes = [table.game.parse(d["text"]) for d in legal]
    assert codes == sorted(table.game.legal_actions())
    assert all(d["words"] and d["words"] != d["text"] for d in legal)
    assert table.view("black")["legal"] == []


def test_a_face_down_discard_is_named_to_its_player_and_to_nobody_else():
    table = present(Table(Game(seed=4, start="white"), {}))
    game = table.game
    card = next(c for c in game.legal_actions() if DISCARD <= c < DRAW_PILE)
    assert table.decide("white", 1, game.format(card)).ok
    assert table.view("white")["last"]["text"] == game.format(card)
    assert table.view("black")["last"]["text"] == "discards a card face down"


def test_a_reloaded_page_gets_the_decisions_it_missed_and_a_far_behind_one_starts_afresh():
    table = present(Table(Game(seed=4, start="white"), {}))
    game = table.game
    for _ in range(60):
        mover = game.to_move
        assert table.decide(mover, table.seq + 1, game.format(game.legal_actions()[-1])).ok
    view = table.view("white", since=55)
    assert [m["n"] for m in view["moves"]] == [56, 57, 58, 59, 60] and not view["fresh"]
    view = table.view("white", since=3)
    assert view["fresh"] and len(view["moves"]) == 40 and view["moves"][-1]["n"] == 60
    assert table.view("white", since=10**6)["moves"] == []


def test_a_haleakala_table_works_through_the_same_path():
    """Game-neutral: Haleakala's seats see its observation and every decision (all public)
    in the coach's plain words, the same as its buttons (issue 43: no notation)."""
    table = present(Table(new_game("haleakala", seed=3), {}))
    game = table.game
    mover = game.to_move
    code = game.legal_actions()[0]
    text, words = game.format(code), table.hooks.decision_words(game, code)
    assert table.decide(mover, 1, text).ok
    other = next(c for c in table.players if c != mover)
    assert table.view(other)["last"]["text"] == words != text


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["white", "black"]), st.integers(-2, 12),
                          st.integers(0, 30)), max_size=40))  # fmt: skip
def test_whatever_the_phones_send_the_game_is_the_replay_of_what_was_acknowledged(messages):
    """Property: any mix of seats, numbers and decisions (legal or not, stale, early,
    repeated) leaves a game equal to its deal replayed with the acknowledged decisions,
    every decision made exactly once."""
    table = present(Table(Game(seed=8, start="white"), {}))
    game = table.game
    acked = []
    rng = random.Random(len(messages))
    for colour, offset, pick in messages:
        legal = game.legal_decisions() or ["end"]
        text = legal[pick % len(legal)] if pick < 25 else rng.choice(["end", "draw 9", "x"])
        seq = table.seq + 1 + (offset if offset < 3 else 0)
        answer = table.decide(colour, seq, text)
        if answer.ok:
            acked.append((seq, colour, text))
    replay = Game(seed=8, start="white")
    made = {}
    for seq, colour, text in acked:
        made.setdefault(seq, (colour, text))
    for seq in sorted(made):
        replay.apply(made[seq][1], made[seq][0])
    assert replay.digest() == game.digest()
    assert [m.n for m in table.moves] == list(range(1, table.seq + 1))


def test_a_table_resumed_from_its_journal_is_the_same_game_with_the_same_words():
    """The core journals every decision before acknowledging it; a table built from the
    start and those records has the same position, game id, numbers and filtered log."""
    records: list[dict] = []
    first = present(Table(Game(seed=4, start="white"), {}, journal=records.append))
    start = Game(seed=4, start="white").to_json()
    game = first.game
    for _ in range(25):
        assert first.decide(game.to_move, first.seq + 1, game.format(game.legal_actions()[0])).ok
    assert [r["seq"] for r in records] == list(range(1, 26))
    history = [(r["seat"], r["decision"]) for r in records]
    again = Table(Game.from_json(start), {}, game_id=first.game_id, history=history)
    assert again.game.digest() == game.digest() and again.seq == 25
    assert again.view("black", 0)["moves"] == first.view("black", 0)["moves"]
    present(again)
    seat, text = history[-1]
    assert again.decide(seat, 25, text).ok and again.seq == 25  # a repeat, acknowledged again
    mover = again.game.to_move
    assert again.decide(mover, 26, again.game.format(again.game.legal_actions()[0])).ok
