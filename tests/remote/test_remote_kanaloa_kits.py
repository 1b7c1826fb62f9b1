"""A Kanaloa table of three kits over a real Mosquitto (issue 28): ``run --remote --players 3``
at the host, two seat kits, every seat autoplayed; all end with the host's history and
digest. And a table whose third seat is a bot the host plays (``--seat green=greedy``)."""

from __future__ import annotations

import json

from support.remote_kits import POLICY, SEED, Kit

from haleakala.remote.policy import reference_game


def seen(kit: Kit) -> dict:
    """A kit's end: the host's whole final save, or a seat's record (history, digest)."""
    record = json.loads((kit.state_dir / "remote" / "remote-final.json").read_text())
    return record


def test_three_kits_play_a_whole_kanaloa_game_over_a_broker_and_end_with_the_same_digest(
    tmp_path, broker
):
    reference = reference_game("kanaloa", SEED, POLICY, players=3)
    texts = [reference.format(d) if isinstance(d, int) else d for d in reference.history]
    host = Kit(tmp_path, broker, "red", "--game", "kanaloa", "--players", "3", host=True).start()
    seats = [Kit(tmp_path, broker, colour).start() for colour in ("yellow", "green")]
    try:
        for kit in (host, *seats):
            assert kit.wait() == 0, kit.text()[-3000:]
            assert f"digest {reference.digest()}" in kit.text(), kit.name
        for kit in seats:
            record = seen(kit)
            assert record["digest"] == reference.digest() and record["view"]["player"] == kit.name
            assert record["history"] == texts, kit.name  # Kanaloa's decisions are public
        assert len(texts) > 50
    finally:
        for kit in (host, *seats):
            kit.stop()


def test_a_seat_the_host_plays_with_a_bot_completes_a_table_of_three(tmp_path, broker):
    host = Kit(
        tmp_path, broker, "red", "--game", "kanaloa", "--players", "3", "--seat", "green=greedy",
        host=True,
    ).start()  # fmt: skip
    seat = Kit(tmp_path, broker, "yellow").start()
    try:
        for kit in (host, seat):
            assert kit.wait() == 0, kit.text()[-3000:]
        final = seen(seat)
        assert f"digest {final['digest']}" in host.text()
        assert "green" in final["deciders"] and "yellow" in final["deciders"]
    finally:
        host.stop()
        seat.stop()


def test_a_player_count_the_game_does_not_allow_is_refused_with_a_sentence(tmp_path, broker):
    host = Kit(tmp_path, broker, "red", "--game", "kanaloa", "--players", "5", host=True).start()
    assert host.wait() == 2
    assert "--players 5: kanaloa is played by 2, 3 or 4 players, not 5" in host.text()
    assert not (host.state_dir / "remote" / "remote-journal.jsonl").exists()
