"""The journal: nothing acknowledged is ever lost, damage is cut off and logged."""

from __future__ import annotations

import json
import logging

import pytest
from support.companion_rig import Rig

from haleakala.companion import journal as J
from haleakala.companion.autoplay import choose, reference_game
from haleakala.companion.journal import Journal, JournalError, scan_records
from haleakala.companion.journal.games import snapshot_bytes
from haleakala.games.haleakala import Game
from haleakala.games.haleakala.log import setup_record
from haleakala.hal.events import ButtonHeld


def played(tmp_path, decisions: int, *, kit="buttons", variant="base", every=5) -> Rig:
    """A companion with a journal in ``tmp_path`` after ``decisions`` decisions."""
    rig = Rig(kit, variant, journal=Journal(tmp_path, snapshot_every=every))
    for _ in range(decisions):
        rig.carry_out(choose(rig.game, 1))
    return rig


def resumed(tmp_path, every=5) -> tuple[Game, Journal]:
    journal = Journal(tmp_path, snapshot_every=every)
    game = journal.recover()
    assert game is not None
    return game, journal


def test_a_restart_resumes_exactly_the_last_acknowledged_decision(tmp_path):
    rig = played(tmp_path, 23)
    game, journal = resumed(tmp_path)
    assert game.digest() == rig.game.digest() and game.history == rig.game.history
    assert journal.sources == rig.c.sources == ["player"] * 23
    assert journal.notes == []


def test_snapshots_are_written_every_n_decisions_and_only_the_tail_is_replayed(
    tmp_path, monkeypatch
):
    rig = played(tmp_path, 13, every=5)
    snap = json.loads((tmp_path / "snapshot.json").read_text())
    assert snap["records"] == 11 and snap["digest"]  # header + 10 decisions
    replayed = []
    original = Journal._apply

    def counting(self, game, sources, record):
        replayed.append(record["decision"])
        return original(self, game, sources, record)

    monkeypatch.setattr(Journal, "_apply", counting)
    game, _ = resumed(tmp_path)
    assert len(replayed) == 3  # decisions 11, 12, 13
    assert game.digest() == rig.game.digest()


def test_a_torn_tail_is_cut_and_logged_and_nothing_acknowledged_is_lost(tmp_path, caplog):
    rig = played(tmp_path, 8)
    path = tmp_path / "journal.bin"
    good = path.stat().st_size
    record = J.encode_record({"type": "decision", "decision": "1@1"})
    with open(path, "ab") as f:
        f.write(record[:-4])  # the write the power cut interrupted
    with caplog.at_level(logging.WARNING, "haleakala.journal"):
        game, journal = resumed(tmp_path)
    assert game.digest() == rig.game.digest()
    assert path.stat().st_size == good
    assert "partial record" in caplog.text and "cut the torn tail" in caplog.text
    assert journal.notes and "torn tail" in journal.notes[0]


def test_a_record_with_one_flipped_bit_is_mended_but_kept_only_if_it_follows(tmp_path, caplog):
    rig = played(tmp_path, 6, every=0)
    path = tmp_path / "journal.bin"
    good = path.stat().st_size
    record = bytearray(J.encode_record({"type": "decision", "decision": "2@2"}))
    record[-2] ^= 0x20  # one flipped bit in the payload
    before = path.read_bytes() + bytes(record) + J.encode_record({"type": "x"})
    path.write_bytes(before)
    with caplog.at_level(logging.WARNING, "haleakala.journal"):
        game, journal = resumed(tmp_path)
    assert game.digest() == rig.game.digest() and path.stat().st_size == good
    assert f"record 7 at byte {good} was damaged in bit" in caplog.text
    assert "record 7 (2@2) cannot be replayed" in caplog.text  # illegal here: left out
    assert [b.read_bytes() for b in journal.backups if b.name.startswith("journal")] == [before]


def test_a_corrupt_snapshot_falls_back_to_replaying_the_whole_journal(tmp_path, caplog):
    rig = played(tmp_path, 12)
    (tmp_path / "snapshot.json").write_text('{"format": "haleakala-snapshot", "vers')
    with caplog.at_level(logging.WARNING, "haleakala.journal"):
        game, _ = resumed(tmp_path)
    assert game.digest() == rig.game.digest()
    assert "snapshot: unreadable" in caplog.text and "replaying the whole journal" in caplog.text


def test_a_snapshot_of_the_wrong_version_falls_back_to_replaying(tmp_path, caplog):
    rig = played(tmp_path, 12)
    path = tmp_path / "snapshot.json"
    snap = json.loads(path.read_text())
    snap["version"] = 99
    path.write_text(json.dumps(snap))
    with caplog.at_level(logging.WARNING, "haleakala.journal"):
        game, _ = resumed(tmp_path)
    assert game.digest() == rig.game.digest()
    assert "snapshot: version 99, this program reads version 1" in caplog.text


def test_a_snapshot_whose_position_disagrees_with_the_journal_is_not_trusted(tmp_path, caplog):
    rig = played(tmp_path, 12)
    path = tmp_path / "snapshot.json"
    snap = json.loads(path.read_text())
    other = Game("base", 99, "red")
    snap["state"], snap["digest"] = other.to_json(), other.digest()
    path.write_bytes(snapshot_bytes(snap))  # a well-formed snapshot (its check holds)
    with caplog.at_level(logging.WARNING, "haleakala.journal"):
        game, _ = resumed(tmp_path)
    assert game.digest() == rig.game.digest()
    assert "disagrees with the journal" in caplog.text


def test_a_journal_without_header_is_set_aside_and_a_new_game_starts(tmp_path, caplog):
    (tmp_path / "journal.bin").write_bytes(J.encode_record({"type": "decision"}))
    with caplog.at_level(logging.ERROR, "haleakala.journal"):
        rig = Rig("buttons", journal=Journal(tmp_path))
    assert rig.game.history == []
    assert "has no valid header" in caplog.text
    assert list(tmp_path.glob("journal.bin.bad-*"))
    scan = scan_records((tmp_path / "journal.bin").read_bytes())
    assert scan.records[0][1]["type"] == "header" and scan.problem is None


def test_a_record_the_rules_refuse_keeps_the_good_part_and_a_backup(tmp_path, caplog):
    rig = played(tmp_path, 5, every=0)
    path = tmp_path / "journal.bin"
    good = path.stat().st_size
    with open(path, "ab") as f:
        f.write(J.encode_record({"type": "decision", "decision": "boat", "digest": "x"}))
    with caplog.at_level(logging.ERROR, "haleakala.journal"):
        game, _ = resumed(tmp_path)
    assert game.digest() == rig.game.digest() and path.stat().st_size == good
    assert "cannot be replayed" in caplog.text
    backup = next(tmp_path.glob("journal.bin.bad-*"))
    assert backup.stat().st_size > good


def test_an_undo_is_journaled_and_survives_a_restart(tmp_path):
    rig = played(tmp_path, 9)
    rig.send(ButtonHeld("back"))
    assert len(rig.game.history) == 8
    game, journal = resumed(tmp_path)
    assert game.digest() == rig.game.digest() and len(journal.sources) == 8
    records = [r for _, r in scan_records((tmp_path / "journal.bin").read_bytes()).records]
    assert records[-1] == {"type": "undo", "count": 1, "ply": 8, "digest": game.digest()}


def test_the_companion_resumes_the_journal_it_finds(tmp_path, caplog):
    rig = played(tmp_path, 7, kit="rfid", variant="tactical")
    with caplog.at_level(logging.INFO, "haleakala.companion"):
        again = Rig("rfid", "tactical", journal=Journal(tmp_path), seed=123)
    assert again.game.digest() == rig.game.digest()
    assert f"at decision 7, digest {rig.game.digest()}" in caplog.text


def test_a_finished_game_is_kept_as_a_notation_game_log(tmp_path):
    rig = Rig("rfid", journal=Journal(tmp_path, snapshot_every=50, sync=False))  # fast
    rig.play_until(lambda g: g.is_terminal(), policy_seed=3)
    logs = list((tmp_path / "games").glob("*.jsonl"))
    assert len(logs) == 1
    lines = [json.loads(line) for line in logs[0].read_text().splitlines()]
    assert lines[0] == setup_record(Game("base", 3, "red"))
    assert lines[-1]["type"] == "result"
    assert lines[-1]["winner"] == rig.game.result().winner
    actions = [line["action"] for line in lines if line["type"] == "action"]
    assert actions == [rig.game.format(d) for d in rig.game.history]
    assert rig.game.digest() == reference_game("base", 3, "red", 3).digest()


def test_a_new_game_from_the_menu_keeps_the_unfinished_one_as_a_log(tmp_path):
    rig = played(tmp_path, 4)
    old = list(rig.game.history)
    rig.c.new_game()
    logs = list((tmp_path / "games").glob("*.jsonl"))
    assert len(logs) == 1
    actions = [
        json.loads(x)["action"]
        for x in logs[0].read_text().splitlines()[1:]
        if json.loads(x)["type"] == "action"
    ]
    assert actions == [rig.game.format(d) for d in old]
    game, _ = resumed(tmp_path)
    assert game.history == [] and game.digest() == rig.game.digest()


def test_a_decision_that_cannot_be_saved_pauses_the_game_until_it_is_saved(tmp_path, monkeypatch):
    rig = played(tmp_path, 2)
    saved = rig.c.journal._append

    def full_disk(payload):
        raise JournalError(28, "journal write failed", title="STORAGE FULL", short="full")

    monkeypatch.setattr(rig.c.journal, "_append", full_disk)
    rig.press("beach3")
    rig.press("select")
    assert len(rig.game.history) == 3 and rig.c.keeper.acknowledged == 2  # shown, not acknowledged
    assert rig.c.paused is not None and "STORAGE FULL" in " ".join(rig.c.prompt)
    assert "PAUSED" in rig.c.status()
    pending = rig.game.digest()
    rig.press("beach1")  # nothing new is decided while paused
    assert rig.game.digest() == pending and rig.c.paused is not None
    monkeypatch.setattr(rig.c.journal, "_append", saved)
    rig.advance(1.0)
    assert rig.c.paused is not None  # the retry waits for its time
    rig.advance(1.0)
    assert rig.c.paused is None and rig.c.keeper.acknowledged == 3
    game, _ = resumed(tmp_path)
    assert game.digest() == rig.game.digest() == pending


@pytest.mark.parametrize("cut", [1, 7, 9])
def test_any_cut_inside_the_last_record_loses_only_that_unacknowledged_record(tmp_path, cut):
    played(tmp_path, 4, every=0)
    path = tmp_path / "journal.bin"
    data = path.read_bytes()
    scan = scan_records(data)
    last_offset = scan.records[-1][0]
    path.write_bytes(data[: last_offset + cut])
    game, _ = resumed(tmp_path)
    assert len(game.history) == 3


def test_a_game_that_ended_just_before_a_power_cut_is_still_kept_as_a_log(tmp_path):
    rig = Rig("rfid", journal=Journal(tmp_path, snapshot_every=50, sync=False))
    rig.play_until(lambda g: g.is_terminal(), policy_seed=3)
    for log in (tmp_path / "games").glob("*.jsonl"):
        log.unlink()  # the power went before the log was written
    again = Rig("rfid", journal=Journal(tmp_path, sync=False))
    assert again.game.is_terminal()
    logs = list((tmp_path / "games").glob("*.jsonl"))
    assert len(logs) == 1 and logs[0].read_text().count('"type":"result"') == 1


def test_a_journal_of_an_unknown_older_version_is_moved_aside_whole_and_a_new_game_starts(
    tmp_path,
):
    """Version 1 is the first: a lower one is no journal this project wrote. A newer one is
    refused in words instead, files untouched (test_companion_update_health.py): after a
    rollback, the release that wrote it resumes it."""
    old = J.encode_record({"type": "header", "format": J.FORMAT, "version": 0}) + b"more"
    (tmp_path / "journal.bin").write_bytes(old)
    rig = Rig("buttons", journal=Journal(tmp_path))
    assert rig.game.history == []
    assert "is version 0; this program writes 1" in " ".join(rig.c.journal.notes)
    assert [p.read_bytes() for p in tmp_path.glob("journal.bin.bad-*")] == [old]


def _scramble_header(path, field: bytes) -> bytes:
    """Overwrite the value of ``field`` in the header's JSON (many bits: beyond mending)."""
    data = bytearray(path.read_bytes())
    at = data.index(field) + len(field) + 3  # past the closing quote, the colon, the quote
    data[at : at + 4] = b"9999" if data[at : at + 4] != b"9999" else b"8888"
    return bytes(data)


def test_a_header_damaged_beyond_mending_keeps_its_records_when_their_digests_prove_it(
    tmp_path,
):
    rig = played(tmp_path, 6, every=0)  # no snapshot to rebuild it from
    path = tmp_path / "journal.bin"
    damaged = _scramble_header(path, b'"created')
    path.write_bytes(damaged)
    game, journal = resumed(tmp_path)
    assert game.digest() == rig.game.digest() and len(game.history) == 6
    assert any("proved by the digests" in note for note in journal.notes)
    assert [b.read_bytes() for b in journal.backups] == [damaged]
    assert scan_records(path.read_bytes()).problem is None


def test_a_header_whose_deal_was_damaged_is_set_aside_not_trusted(tmp_path):
    played(tmp_path, 6, every=0)
    path = tmp_path / "journal.bin"
    damaged = _scramble_header(path, b'"game')  # then the seed: the deal itself
    data = bytearray(damaged)
    at = data.index(b'"seed":') + 7
    data[at] = ord("1") if data[at] != ord("1") else ord("2")
    path.write_bytes(bytes(data))
    journal = Journal(tmp_path)
    assert journal.recover() is None
    assert any("no record proves" in note for note in journal.notes)
    assert [b.read_bytes() for b in journal.backups] == [bytes(data)]
