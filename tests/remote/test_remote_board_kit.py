"""A seat kit's physical board in a remote game over a real Mosquitto (issue 28, item 2):
the companion on the sim backend's RFID kit, the host an ``--autoplay`` kit process. The
remote player's decisions are shown as "RED (REMOTE)" and taken only once the discs are laid;
this board's own decisions go to the host and count only once it agrees; a decision of the
wrong seat or made on a diverged board is never sent; undo and a new game are refused."""

from __future__ import annotations

import pytest
from support.remote_board import Board
from support.remote_kits import POLICY, SEED, Kit

from haleakala.games.haleakala.notation import BOAT
from haleakala.hal.events import BeachContents, Disc
from haleakala.remote.policy import reference_game


@pytest.fixture
def table(tmp_path, broker):
    host = Kit(tmp_path, broker, "red", host=True).start()
    board = Board(tmp_path, broker, "yellow")
    yield host, board
    board.close()
    host.stop()


def to_the_remote_move(board: Board) -> int:
    """Play until red (the host's seat) has decided and its move is shown here."""
    c = board.c
    board.play(POLICY, until=0, to_move="red")
    board.pump_until(lambda: c.seat.proposal_for(c.game) is not None, "red's move shown")
    return c.seat.proposal_for(c.game)


def sent_by_the_board(host: Kit) -> list[str]:
    """The host's lines about yellow's decisions: taken ones and refusals."""
    return [line for line in host.text().splitlines() if "yellow" in line]


def test_a_seat_kits_board_plays_a_whole_game_with_an_autoplayed_host_and_ends_agreed(table):
    host, board = table
    c = board.join()
    board.play(POLICY, until=1, to_move="red")
    assert c.shown is not None and str(c.shown.title) == "RED (REMOTE)"
    board.pump_until(lambda: c.seat.proposal_for(c.game) is not None, "red's first move")
    made = len(c.game.history)
    assert "put the disc" in board.text() and str(c.shown.title) == "RED (REMOTE)"
    board.play(POLICY)
    assert made >= 1
    reference = reference_game("haleakala", SEED, POLICY)
    assert c.game.history == reference.history
    assert host.wait() == 0, host.text()[-2000:]
    assert f"digest {reference.digest()}" in host.text()
    board.thread.join(30)
    assert board.ended == [0] and f"digest {reference.digest()}" in board.out.getvalue()
    assert not any("refused" in line for line in sent_by_the_board(host))


def test_the_remote_move_waits_until_its_discs_are_laid(table):
    _host, board = table
    c = board.join()
    to_the_remote_move(board)
    made = len(c.game.history)
    for _ in range(20):  # time passes, nothing is laid: nothing happens
        board.clock.advance(1.0)
        c.pump(timeout=0.01)
    assert len(c.game.history) == made and c.seat.proposal_for(c.game) is not None
    assert "put the disc" in board.text() or "then press select" in board.text()
    board.play(POLICY, until=made + 1)
    assert len(c.game.history) == made + 1


def test_a_decision_for_the_remote_seat_made_at_this_board_is_refused_and_never_sent(table):
    _host, board = table
    c = board.join()
    board.play(POLICY, until=0, to_move="red")
    seq_before = board.kit.mirror.seq  # type: ignore[union-attr]
    d = sorted(c.game.legal_actions())[0]
    c.decide(d, "player")  # as if the board's buttons had made red's decision
    assert c.panel.message is not None and str(c.panel.message.title) == "NOT YOURS"
    assert c.waiting is None
    assert board.kit.mirror.pending is None and board.kit.mirror.seq == seq_before  # type: ignore[union-attr]


def test_a_decision_made_on_a_board_that_diverged_from_the_agreed_game_is_shown_not_sent(table):
    host, board = table
    c = board.join()
    board.play(POLICY, until=3, to_move="yellow")
    before = sent_by_the_board(host)
    forged = c.game.clone()
    forged.shells = [[5, 5], [5, 5]]  # this board's game is not the agreed position
    c.game = forged
    d = next(d for d in sorted(forged.legal_actions()))
    c.decide(d, "player")
    board.pump_until(
        lambda: c.panel.message is not None and str(c.panel.message.title) == "DIVERGED",
        "the divergence shown",
    )
    assert "is not the agreed game's" in str(c.panel.message.text)
    assert board.kit.mirror.pending is None  # type: ignore[union-attr]
    assert sent_by_the_board(host) == before


def test_undo_and_a_new_game_are_refused_in_a_remote_game(table):
    _host, board = table
    c = board.join()
    board.play(POLICY, until=3)
    made = list(c.game.history)
    assert c.undo() is False and str(c.panel.message.title) == "NO UNDO"
    c.new_game()
    assert str(c.panel.message.title) == "NO NEW GAME" and c.game.history == made


def test_a_disc_on_the_wrong_beach_for_the_remote_move_is_a_mismatch_not_a_decision(table):
    _host, board = table
    c = board.join()
    d = to_the_remote_move(board)
    while d >= BOAT:  # a placement: play on to one
        board.play(POLICY, until=len(c.game.history) + 1)
        d = to_the_remote_move(board)
    made = len(c.game.history)
    value, beach = (d % 100) // 10, d % 10
    wrong = (beach + 1) % 6
    c.handle(BeachContents(wrong, c.sensed_board()[wrong] | {Disc("red", value)}))
    assert c.panel.mismatch is not None and len(c.game.history) == made


def test_the_hosts_board_plays_a_whole_game_with_an_autoplayed_seat_kit(tmp_path, broker):
    """At the host, this board's decisions are taken by the authority itself
    (``Authority.local_decide``) and the seat kit's come over the broker."""
    board = Board(tmp_path, broker, "red", host_seed=SEED)
    seat = Kit(tmp_path, broker, "yellow").start()
    try:
        c = board.join()
        board.play(POLICY)
        reference = reference_game("haleakala", SEED, POLICY)
        assert c.game.history == reference.history and c.game.digest() == reference.digest()
        assert seat.wait() == 0, seat.text()[-2000:]
        assert f"digest {reference.digest()}" in seat.text()
        board.thread.join(30)
        assert board.ended == [0] and f"digest {reference.digest()}" in board.out.getvalue()
    finally:
        board.close()
        seat.stop()


def test_run_remote_without_autoplay_starts_the_companion_daemon_on_the_board(tmp_path, broker):
    """``haleakala run --remote ... --hardware sim --headless``: the seat's board joins the
    host's game, the daemon says ready, and SIGTERM ends it cleanly (exit 0, "bye")."""
    import os
    import signal
    import subprocess
    import sys

    from support.paths import REPO_ROOT
    from support.remote_kits import KEY
    from support.waiting import wait_for

    host = Kit(tmp_path, broker, "red", host=True).start()
    out = tmp_path / "board.out"
    args = [
        sys.executable, "-m", "haleakala", "run", "--remote", f"{broker.url}/t1", "--seat",
        "yellow", "--hardware", "sim", "--headless", "--state-dir", str(tmp_path / "board"),
        "--table-key", KEY,
    ]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT), "PYTHONUNBUFFERED": "1"}
    with out.open("w") as sink:
        board = subprocess.Popen(
            args, stdout=sink, stderr=subprocess.STDOUT, env=env, cwd=REPO_ROOT
        )
    try:
        wait_for(lambda: "ready:" in out.read_text() or board.poll() is not None,
                 "the board's daemon is ready", timeout=60)  # fmt: skip
        assert "ready:" in out.read_text(), out.read_text()
        board.send_signal(signal.SIGTERM)
        assert board.wait(timeout=30) == 0, out.read_text()
        assert "bye" in out.read_text()
    finally:
        if board.poll() is None:
            board.kill()
        host.stop()
