"""The remote game's board without a network (issue 28, item 2): ``RemoteCompanion`` on the
sim backend's RFID kit with a hand-driven clock, its kit replaced by a recorder of what it
would send. The remote player is named as remote on the OLED in every language; this board's
decision is only sent, and taken once agreed; nothing of another seat is ever sent."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from haleakala import i18n
from haleakala.companion import oled
from haleakala.companion.hands import events_for
from haleakala.config import Config
from haleakala.gameapi import new_game
from haleakala.hal.simulated import SimClock, SimHardware
from haleakala.remote.table import Agreed, AgreedPosition, BoardAnswer, RemoteCompanion


class Recorder:
    def __init__(self) -> None:
        self.sent: list[tuple[int, str, str]] = []

    def __call__(self, seq: int, text: str, digest: str) -> None:
        self.sent.append((seq, text, digest))


def board(here: str = "red", start: str = "yellow", kit: str = "rfid"):
    clock = SimClock(100.0)
    config = replace(Config(), kit=kit)
    hw = SimHardware.from_config(config, clock=clock, history=5)
    send = Recorder()
    game = new_game("haleakala", seed=3, start=start)
    c = RemoteCompanion(hw, config, here=here, game=game, send=send, clock=clock)
    c.start()
    return c, send


def oled_text(c) -> str:
    now = c.clock()
    return " ".join(oled.screen(c.game, c.ui_state(now), now).text())


def pump_until(c, predicate) -> None:
    for _ in range(400):
        if predicate():
            return
        c.pump(timeout=0.01)
    raise AssertionError(f"never: {c.prompt}")


@pytest.fixture
def language():
    yield i18n.use
    i18n.use("en")


@pytest.mark.parametrize(
    ("lang", "title", "waiting"),
    [
        ("en", "YELLOW (REMOTE)", "waiting for yellow's move"),
        ("de", "GELB (FERN)", "warte auf den Zug von Gelb"),
        ("fr", "JAUNE (À DISTANCE)", "en attente du coup de Jaune"),
    ],
)
def test_the_oled_names_the_remote_player_as_remote_and_waits_for_their_move(
    language, lang, title, waiting
):
    c, _ = board()
    language(lang)
    text = oled_text(c)
    assert text.startswith(title) and waiting in text
    assert "COMPANION" not in text and "BEGLEITER" not in text and "thinking" not in text
    c.moves.close()


@pytest.mark.parametrize(
    ("lang", "title", "reason"),
    [
        ("en", "DIVERGED", "is not legal on this board"),
        ("de", "ABWEICHUNG", "ist auf diesem Brett nicht erlaubt"),
        ("fr", "DIVERGENCE", "n'est pas permise sur ce plateau"),
    ],
)
def test_a_divergence_and_its_reason_are_shown_in_the_tables_language(
    language, lang, title, reason
):
    c, _ = board()
    c.handle(Agreed(1, "yellow", ">stay"))  # not legal here: the games differ
    pump_until(c, lambda: bool(c.seat.trouble))
    language(lang)
    text = oled_text(c)
    assert title in text and reason in text and not c.game.history
    c.moves.close()


def test_this_boards_decision_is_sent_and_taken_only_when_the_agreed_game_has_it():
    c, send = board(start="red")
    d = sorted(c.game.legal_actions())[0]
    c.decide(d, "player")
    assert send.sent == [(1, c.game.format(d), send.sent[0][2])] and not c.game.history
    assert c.awaiting_host and str(c.panel.message.title) == "SENT"
    c.decide(d, "player")  # the readers report it again: not sent twice
    assert len(send.sent) == 1
    c.handle(Agreed(1, "red", c.game.format(d)))
    assert c.game.history == [d] and not c.awaiting_host
    c.moves.close()


def test_a_refused_decision_is_shown_and_not_taken():
    c, _ = board(start="red")
    d = sorted(c.game.legal_actions())[0]
    c.decide(d, "player")
    c.handle(BoardAnswer("refused", 1, c.game.format(d), "the game is paused: yellow is away"))
    assert str(c.panel.message.title) == "REFUSED" and "yellow is away" in str(c.panel.message.text)
    assert not c.game.history and not c.awaiting_host


def test_an_agreed_position_replaces_the_boards_own_after_the_decision():
    """A seat kit never learns the piles' order: the host's position wins."""
    c, _ = board(start="red")
    d = sorted(c.game.legal_actions())[0]
    agreed = c.game.clone()
    agreed.apply(d)
    agreed.piles = [list(reversed(pile)) for pile in agreed.piles]  # the host's order
    c.decide(d, "player")
    c.handle(Agreed(1, "red", c.game.format(d)))
    c.handle(AgreedPosition(1, agreed))
    assert c.game is agreed and c.game.digest() == agreed.digest()
    c.moves.close()


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(picks=st.lists(st.integers(0, 10_000), min_size=1, max_size=25))
def test_only_this_seats_decisions_on_the_agreed_position_are_ever_sent(picks):
    """Whatever the board does (any legal decision for whoever is to move, the host
    agreeing to each one sent, the remote seat's laid as asked), every decision sent is this
    seat's, numbered next, and the board's game changes only by agreed decisions."""
    c, send = board(start="red")
    agreed: list[str] = []
    for k in picks:
        game = c.game
        if game.is_terminal():
            break
        legal = sorted(game.legal_actions())
        d = legal[k % len(legal)]
        if game.to_move == "red":
            before = len(send.sent)
            c.decide(d, "player")
            assert len(send.sent) == before + 1
            seq, text, _ = send.sent[-1]
            assert seq == len(game.history) + 1 and text == game.format(d)
            assert c.game is game  # not taken yet
            agreed.append(text)
            c.handle(Agreed(seq, "red", text))
        else:
            c.decide(d, "player")  # the board's buttons deciding for yellow: refused
            assert str(c.panel.message.title) == "NOT YOURS" and c.game is game
            agreed.append(game.format(d))
            c.handle(Agreed(len(game.history) + 1, "yellow", game.format(d)))
            pump_until(c, lambda: c.seat.proposal_for(c.game) is not None)
            for _ in range(10):
                if len(c.game.history) == len(agreed):
                    break
                for event in events_for(c, d):
                    c.handle(event)
                c.clock.advance(3.0)
                c.tick()
        assert [c.game.format(x) for x in c.game.history] == agreed
        assert all(s[0] <= len(agreed) for s in send.sent)
    c.moves.close()


@pytest.mark.parametrize(
    ("lang", "title", "reason"),
    [
        ("en", "YELLOW (REMOTE)", "yellow has not decided yet at the other table"),
        ("de", "GELB (FERN)", "Gelb hat am anderen Tisch noch nicht entschieden"),
    ],
)
def test_a_board_touched_before_the_remote_player_decides_names_them_not_the_companion(
    language, lang, title, reason
):
    from haleakala.hal.events import BeachContents, Disc

    c, send = board()
    c.handle(BeachContents(0, c.sensed_board()[0] | {Disc("yellow", 3)}))
    language(lang)
    text = oled_text(c)
    assert title in text and reason in text, text
    assert "COMPANION" not in text and "BEGLEITER" not in text
    assert not send.sent and not c.game.history
    c.moves.close()
