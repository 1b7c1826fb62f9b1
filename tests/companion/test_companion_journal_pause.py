"""A journal recovery cannot settle: the game waits at the decision it can prove.

The case: record 11 of a 12-decision journal says a position the history before it does not
lead to (an intact record with a valid CRC, as rules that changed or a splice from another
game would leave), so records 11 and 12 cannot be connected; the snapshot proves decision 10.
Recovery rewrites nothing, keeps the files once, and the companion pauses there with a
message on the OLED (English, German, French) until ``haleakala journal resume`` has written
the proven history; then it goes on by itself.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from support.companion_rig import Rig

from haleakala import i18n
from haleakala.cli import main
from haleakala.companion import oled
from haleakala.companion.autoplay import choose
from haleakala.companion.journal import (
    JOURNAL_NAME,
    SNAPSHOT_NAME,
    Journal,
    JournalDisagrees,
    encode_record,
    scan_records,
)
from haleakala.companion.keeper import RETRY_S
from haleakala.hal.events import ButtonHeld

DECISIONS = 12


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> tuple[bytes, bytes, bytes]:
    """The intact journal, one whose record 11 claims another position, and the snapshot."""
    root = tmp_path_factory.mktemp("game")
    rig = Rig("buttons", journal=Journal(root, snapshot_every=5, sync=False))
    for _ in range(DECISIONS):
        rig.carry_out(choose(rig.game, 1))
    rig.c.journal.close()
    journal = (root / JOURNAL_NAME).read_bytes()
    scan = scan_records(journal)
    offset, record = scan.records[11]
    end = scan.records[12][0]
    other = encode_record({**record, "digest": "0123456789abcdef"})
    return journal, journal[:offset] + other + journal[end:], (root / SNAPSHOT_NAME).read_bytes()


def lay_out(state: Path, journal: bytes, snapshot: bytes) -> Path:
    if state.exists():
        shutil.rmtree(state)
    state.mkdir(parents=True)
    (state / JOURNAL_NAME).write_bytes(journal)
    (state / SNAPSHOT_NAME).write_bytes(snapshot)
    return state


def test_recovery_that_cannot_settle_rewrites_nothing_and_names_the_backup_and_decision(
    files, tmp_path, caplog
):
    _, damaged, snapshot = files
    state = lay_out(tmp_path / "state", damaged, snapshot)
    j = Journal(state, sync=False)
    game = j.recover()
    j.close()
    assert game is not None and len(game.history) == 10
    assert isinstance(j.unsettled, JournalDisagrees) and j.unsettled.proven == 10
    assert (state / JOURNAL_NAME).read_bytes() == damaged
    assert (state / SNAPSHOT_NAME).read_bytes() == snapshot
    assert j.unsettled.kept is not None and j.unsettled.kept.read_bytes() == damaged
    line = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"][-1]
    assert f"kept in {j.unsettled.kept.name}" in line
    assert "paused at decision 10" in line and "haleakala journal resume --at 10" in line
    again = Journal(state, sync=False)  # a second start keeps no second copy
    again.recover()
    again.close()
    assert again.unsettled is not None and again.unsettled.kept == j.unsettled.kept
    assert len(list(state.glob(f"{JOURNAL_NAME}.bad-*"))) == 1
    with pytest.raises(JournalDisagrees):  # and nothing can be appended to it meanwhile
        again.append_language("de")


def test_the_companion_waits_at_the_proven_decision_and_goes_on_after_journal_resume(
    files, tmp_path, capsys
):
    _, damaged, snapshot = files
    state = lay_out(tmp_path / "state", damaged, snapshot)
    rig = Rig("buttons", journal=Journal(state, snapshot_every=5, sync=False))
    rig.c.tick()
    assert rig.c.paused is not None and len(rig.c.game.history) == 10
    assert rig.c.prompt[0] == "! CHECK THE JOURNAL"
    assert "haleakala journal resume --at 10" in " ".join(rig.c.prompt)
    decision = choose(rig.game, 1)
    rig.press("select")  # refused: nothing is decided while the journal waits
    assert len(rig.c.game.history) == 10
    rig.clock.advance(RETRY_S)
    rig.c.tick()  # files unchanged: still waiting, still saying why
    assert rig.c.paused is not None and rig.c.prompt[0] == "! CHECK THE JOURNAL"
    assert (state / JOURNAL_NAME).read_bytes() == damaged

    assert main(["journal", "check", "--state-dir", str(state)]) == 1
    assert "haleakala journal resume --at 10" in capsys.readouterr().out
    assert main(["journal", "resume", "--state-dir", str(state)]) == 0
    assert "at decision 10" in capsys.readouterr().out
    rig.clock.advance(RETRY_S)
    rig.c.tick()
    assert rig.c.paused is None and len(rig.c.game.history) == 10
    rig.carry_out(decision)
    assert len(rig.c.game.history) == 11
    rig.c.journal.close()
    again = Journal(state, sync=False)
    resumed = again.recover()
    again.close()
    assert resumed is not None and resumed.history == rig.c.game.history
    assert again.notes == [] and again.unsettled is None
    kept = [path.read_bytes() for path in state.glob("*.bad-*")]
    assert damaged in kept and snapshot in kept


@pytest.mark.parametrize("language", ["en", "de", "fr"])
def test_the_pause_reads_on_the_oled_in_each_language(files, tmp_path, language):
    _, damaged, snapshot = files
    state = lay_out(tmp_path / "state", damaged, snapshot)
    i18n.use(language)
    try:
        rig = Rig("buttons", journal=Journal(state, snapshot_every=5, sync=False))
        rig.c.tick()
        seen = []
        for _ in range(6):  # the encoder scrolls the whole message
            shown = oled.screen(rig.c.game, rig.c.ui_state(), rig.clock())
            seen.append(shown)
            rig.c.scroll_by(1)
        rig.c.journal.close()
    finally:
        i18n.use("en")
    title = {"en": "! CHECK THE JOURNAL", "de": "! JOURNAL PRÜFEN", "fr": "! JOURNAL À REVOIR"}
    assert seen[0].title == title[language]
    for shown in seen:
        assert oled.problems(shown) == [], shown
        assert oled.draw(shown).size == (oled.WIDTH, oled.HEIGHT)
    text = " ".join(line for shown in seen for line in shown.lines)
    assert "resume --at 10" in text


def test_journal_resume_refuses_a_decision_it_cannot_prove_and_a_journal_that_waits_for_none(
    files, tmp_path, capsys
):
    intact, damaged, snapshot = files
    state = lay_out(tmp_path / "state", damaged, snapshot)
    assert main(["journal", "resume", "--at", "11", "--state-dir", str(state)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "decision 11 is not proven" in err and "0 to 10" in err
    assert (state / JOURNAL_NAME).read_bytes() == damaged
    assert not list(state.glob("*.bad-*"))  # check and a refused resume write nothing
    state = lay_out(tmp_path / "state", intact, snapshot)
    assert main(["journal", "check", "--state-dir", str(state)]) == 0
    assert "journal OK" in capsys.readouterr().out
    assert main(["journal", "resume", "--state-dir", str(state)]) == 1
    assert "waits for no decision" in capsys.readouterr().err
    assert main(["journal", "check", "--state-dir", str(tmp_path / "missing")]) == 2


def test_journal_resume_at_an_earlier_decision_keeps_the_settings_and_the_files(
    files, tmp_path, capsys
):
    _, damaged, snapshot = files
    state = lay_out(tmp_path / "state", damaged, snapshot)
    assert main(["journal", "resume", "--at", "4", "--state-dir", str(state)]) == 0
    capsys.readouterr()
    j = Journal(state, sync=False)
    game = j.recover()
    j.close()
    assert game is not None and len(game.history) == 4 and j.notes == []
    assert json.loads((state / SNAPSHOT_NAME).read_bytes())["records"] == 5
    kept = [path.read_bytes() for path in state.glob("*.bad-*")]
    assert damaged in kept and snapshot in kept


def test_a_snapshot_ahead_of_the_journal_on_another_history_pauses_instead_of_guessing(
    tmp_path,
):
    """The journal proves decision 7 (after two take-backs), the snapshot holds decision 8 of
    the line that was taken back. Both are positions the game passed through and neither
    follows from the other: recovery resumes neither guess, it waits at what the journal
    proves and keeps both files as they are."""
    game_dir = tmp_path / "game"
    rig = Rig("buttons", journal=Journal(game_dir, snapshot_every=0, sync=False))
    for _ in range(8):
        rig.carry_out(choose(rig.game, 1))
    taken_back = rig.game.clone()
    rig.send(ButtonHeld("back"))
    rig.send(ButtonHeld("back"))
    assert len(rig.game.history) == 6
    rig.carry_out(choose(rig.game, 2))
    assert rig.game.history[:6] == taken_back.history[:6]
    assert rig.game.history != taken_back.history[:7]
    j = rig.c.journal
    j.sources = ["player"] * 8
    j.record_count = 9
    j.write_snapshot(taken_back)  # as written before the take-backs
    j.close()
    records = scan_records((game_dir / JOURNAL_NAME).read_bytes()).records
    kinds = [r["type"] for _, r in records]
    assert kinds == ["header"] + ["decision"] * 8 + ["undo"] * 2 + ["decision"]
    journal = b"".join(encode_record(r) for _, r in records[:7] + records[-1:])
    snapshot = (game_dir / SNAPSHOT_NAME).read_bytes()
    state = lay_out(tmp_path / "state", journal, snapshot)
    recovered = Journal(state, sync=False)
    game = recovered.recover()
    recovered.close()
    assert game is not None and game.history == rig.game.history
    assert recovered.unsettled is not None and recovered.unsettled.proven == 7
    assert "the snapshot (decision 8) is not on the history" in str(recovered.unsettled)
    assert (state / JOURNAL_NAME).read_bytes() == journal
    assert (state / SNAPSHOT_NAME).read_bytes() == snapshot
