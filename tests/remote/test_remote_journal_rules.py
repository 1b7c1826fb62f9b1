"""The remote journal keeps the main journal's rules (issue 35, item 2): a torn last line is
cut off with its bytes kept, so every later start works; another table's or a damaged game
is refused with a sentence and never overwritten; no content ends in a traceback."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.paths import REPO_ROOT
from support.remote_kits import POLICY, SEED, Kit

from haleakala.gameapi import new_game
from haleakala.remote.journal import JournalError, RemoteJournal, open_host_game
from haleakala.remote.policy import reference_game


def setup_of(table: str = "t1", game: str = "ab12", seed: int = SEED) -> dict:
    return {"table": table, "game": game, "name": "haleakala",
            "start": new_game("haleakala", seed=seed).to_json()}  # fmt: skip


def played(path, table: str = "t1", decisions: int = 5) -> RemoteJournal:
    journal = RemoteJournal(path, sync=False)
    journal.start(setup_of(table))
    game = new_game("haleakala", seed=SEED)
    for seq in range(1, decisions + 1):
        text = sorted(game.legal_decisions())[0]
        seat = game.to_move
        game.apply(text, seat)
        journal.append({"seq": seq, "seat": seat, "decision": text})
    return journal


def test_a_torn_last_line_is_cut_off_with_its_bytes_kept_and_later_starts_work(tmp_path):
    journal = played(tmp_path / "remote-journal.jsonl")
    whole = journal.path.read_bytes()
    torn = b'{"decision": "2@1", "seat": "re'
    with journal.path.open("ab") as f:
        f.write(torn)  # the power went here: never acknowledged
    _, decisions = journal.read()
    assert len(decisions) == 5 and journal.path.read_bytes() == whole
    kept = list(tmp_path.glob("remote-journal.jsonl.bad-*"))
    assert len(kept) == 1 and kept[0].read_bytes() == whole + torn
    assert "torn last line" in journal.notes[0] and kept[0].name in journal.notes[0]
    journal.append({"seq": 6, "seat": "x", "decision": "y"})  # written after a whole line
    for _ in range(3):  # and every later start reads it
        _, decisions = RemoteJournal(journal.path).read()
        assert len(decisions) == 6


def test_a_new_game_never_replaces_a_journal_without_keeping_it(tmp_path):
    journal = played(tmp_path / "remote-journal.jsonl")
    before = journal.path.read_bytes()
    journal.start(setup_of())
    kept = list(tmp_path.glob("remote-journal.jsonl.bad-*"))
    assert len(kept) == 1 and kept[0].read_bytes() == before


def test_another_tables_unfinished_game_is_refused_with_a_sentence_and_kept(tmp_path):
    journal = played(tmp_path / "remote-journal.jsonl", table="othertable", decisions=150)
    before = journal.path.read_bytes()
    with pytest.raises(JournalError) as refused:
        open_host_game(journal, "t1", lambda: new_game("haleakala", seed=1))
    said = str(refused.value)
    assert "table othertable's unfinished game" in said and "150 decisions" in said
    assert "nothing was changed" in said
    assert journal.path.read_bytes() == before


@pytest.mark.parametrize(
    "setup",
    [{"table": 5}, {"table": "t1"}, None, [], "t1", {**setup_of(), "game": "not hex!"}],
)
def test_a_damaged_setup_is_refused_and_the_journal_left_as_it_was(tmp_path, setup):
    path = tmp_path / "remote-journal.jsonl"
    path.write_text(json.dumps({"setup": setup}) + "\n")
    before = path.read_bytes()
    with pytest.raises(JournalError, match="line 1: the game's setup is damaged"):
        open_host_game(RemoteJournal(path), "t1", lambda: new_game("haleakala", seed=1))
    assert path.read_bytes() == before


def run_host(tmp_path, table: str = "t1") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "haleakala", "run", "--remote", f"mqtt://127.0.0.1:1/{table}",
         "--seat", "red", "--host", "--autoplay", "1", "--table-key", "k",
         "--state-dir", str(tmp_path)],
        capture_output=True, text=True, cwd=REPO_ROOT, timeout=60,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
    )  # fmt: skip


def test_run_remote_host_refuses_another_tables_journal_exit_2_and_changes_nothing(tmp_path):
    (tmp_path / "remote").mkdir()
    journal = played(tmp_path / "remote" / "remote-journal.jsonl", table="OTHERTABLE",
                     decisions=150)  # fmt: skip
    before = sorted(p.name for p in (tmp_path / "remote").iterdir())
    data = journal.path.read_bytes()
    done = run_host(tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "table OTHERTABLE's unfinished game" in done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    assert journal.path.read_bytes() == data
    assert sorted(p.name for p in (tmp_path / "remote").iterdir()) == before


_lines = st.one_of(
    st.just('{"setup": null}'),
    st.just(json.dumps({"setup": setup_of()})),
    st.just(json.dumps({"setup": {**setup_of(), "start": "{}"}})),
    st.just(json.dumps({"setup": {**setup_of(), "name": "chess"}})),
    st.builds(
        lambda seq, seat, text: json.dumps({"seq": seq, "seat": seat, "decision": text}),
        st.integers(-2, 4),
        st.sampled_from(["red", "yellow", "", "x"]),
        st.sampled_from(["1@0", "2@1", "pass", "", "\u0000", "9@9"]),
    ),
    st.text(max_size=40),
    st.binary(max_size=40).map(lambda b: b.decode("latin-1")),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_lines, max_size=6), st.booleans())
def test_no_content_of_a_remote_journal_ends_in_a_traceback(tmp_path_factory, lines, torn):
    path = tmp_path_factory.mktemp("fuzz") / "remote-journal.jsonl"
    text = "\n".join(lines) + ("" if torn else "\n")
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    try:
        game, _, history, resumed = open_host_game(
            RemoteJournal(path, sync=False), "t1", lambda: new_game("haleakala", seed=1)
        )
    except JournalError as refused:
        assert str(refused) and "\n" not in str(refused)
        return
    assert len(game.history) == len(history)
    assert resumed or not history


@pytest.mark.parametrize("lines", [['{"setup": null}'], ['{"setup": {"name": 5}}'], ["{"]])
def test_host_journal_refuses_damaged_content_with_a_sentence(tmp_path, lines):
    """``haleakala host --journal`` reads the same journal: a sentence, exit 2."""
    path = tmp_path / "j.jsonl"
    path.write_text("\n".join(lines) + "\n")
    done = subprocess.run(
        [sys.executable, "-m", "haleakala", "host", "--game", "kahuna", "--web", "0",
         "--journal", str(path), "--exit-when-over"],
        capture_output=True, text=True, cwd=REPO_ROOT, timeout=60,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
    )  # fmt: skip
    assert done.returncode == 2, done.stdout + done.stderr
    assert "--journal" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.remote
def test_a_host_killed_with_a_torn_journal_resumes_and_every_later_start_works(tmp_path, broker):
    """The reported fault, end to end: the host's journal with its last line cut, started
    again twice; the game ends as the undisturbed one."""
    reference = reference_game("haleakala", SEED, POLICY)
    host = Kit(tmp_path, broker, "red", "--autoplay-until", "40", host=True).start()
    seat = Kit(tmp_path, broker, "yellow").start()
    journal = tmp_path / "host" / "remote" / "remote-journal.jsonl"
    try:
        host.wait_for_line("holding before decision")
        host.kill()
        with journal.open("ab") as f:
            f.write(b'{"decision": "1@0", "seat": "re')  # cut mid-write
        host.args = [a if a != "40" else "80" for a in host.args]
        host.start()
        host.wait_for_line("a torn last line")
        host.wait_for_line("holding before decision 8")  # it went on, past the torn line
        host.kill()
        host.args = [a for a in host.args if a not in ("--autoplay-until", "80")]
        host.start()  # the start that once failed with "not JSON"
        for kit in (host, seat):
            assert kit.wait() == 0, kit.text()[-2000:]
            assert f"digest {reference.digest()}" in kit.text()
        assert "not JSON" not in host.text()
    finally:
        host.signal(signal.SIGTERM) if not host.exited() else None
        host.stop()
        seat.stop()
