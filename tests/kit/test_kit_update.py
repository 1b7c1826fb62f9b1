"""``haleakala update`` under a temporary root with a scripted systemd: a release that
resumes the game stays; one that never says READY, crash-loops or resumes at another
decision is rolled back by itself with a sentence on the OLED and in the log; bad input
(a config the release refuses, a release that cannot import, a full disk, a newer journal)
is refused before the running game is touched; a power cut at any step leaves one whole
release after the boot-time check."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.kit_releases import GAME, Cut, Daemon, FakeSystemd, Kit, cut_after, installed, whole

from haleakala.kit import releases as R
from haleakala.kit.sources import Source
from haleakala.kit.update import Updater

OLD = "0.1.0-aaaaaaaaaa-pi"


def new_source(tmp_path: Path, version: str = "0.2.0", digest: str = "b" * 64) -> Source:
    wheel = tmp_path / f"haleakala_companion-{version}-py3-none-any.whl"
    wheel.write_bytes(b"a wheel")
    return Source("wheel", wheel, version, digest, (tmp_path,))


NEW = "0.2.0-bbbbbbbbbb-pi"


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def rig(tmp_path: Path, **behaviour: Daemon) -> tuple[Kit, FakeSystemd, Updater, list[str]]:
    root = tmp_path / "root"
    installed(root, OLD)
    kit = Kit(root)
    systemd = FakeSystemd(kit, behaviour=dict(behaviour))
    said: list[str] = []
    clock = Clock()
    updater = Updater(R.Layout(root), kit, systemd, said.append, health_timeout_s=60,
                      clock=clock, sleep=clock.sleep, free_bytes=lambda _: 10**10)  # fmt: skip
    return kit, systemd, updater, said


def test_an_update_builds_beside_checks_switches_and_keeps_the_release_that_resumes(tmp_path):
    kit, systemd, updater, _said = rig(tmp_path)
    assert updater.update(new_source(tmp_path), online=False) == 0
    layout = updater.layout
    assert (whole(layout), layout.previous()) == (NEW, OLD)
    assert layout.trial() is None and layout.failed(NEW) is None
    # built and checked while the old release ran: the service stopped only after the checks
    stop = systemd.acts.index("stop")
    checks = [c for c in kit.commands if " -m haleakala " in c]
    assert [c.split(" -m haleakala ")[1].split()[0] for c in checks][:3] == [
        "config", "selftest", "journal"]  # fmt: skip
    assert systemd.acts[stop] == "stop" and systemd.acts[-2:] == ["reset-failed", "start"]
    assert all("--no-index" in c for c in kit.commands if " pip " in c and " install " in c)
    log = (updater.layout.root / "var/log/haleakala-update.log").read_text()
    assert f"release {NEW} runs and resumed game g-7f3a at decision 12 (was {OLD})" in log
    backups = list((layout.state / "backups").iterdir())
    assert len(backups) == 1 and (backups[0] / "config.toml").is_file()


@pytest.mark.parametrize(
    "daemon, why",
    [
        (Daemon(resumes=False), "did not resume the game within 60 s"),
        (Daemon(crashes=True), "its daemon exited 3 times"),
        (
            Daemon(other_decision=True),
            "resumed game g-7f3a at decision 11, but game g-7f3a was at decision 12",
        ),
    ],
    ids=["never-ready", "crash-loop", "another-decision"],
)
def test_a_release_that_fails_its_health_check_is_rolled_back_by_itself(tmp_path, daemon, why):
    _kit, _systemd, updater, said = rig(tmp_path, **{"0.2.0": daemon})
    assert updater.update(new_source(tmp_path), online=False) == 1
    layout = updater.layout
    assert whole(layout) == OLD and layout.trial() is None
    assert why in layout.failed(NEW)["why"]
    notice = json.loads((layout.state / R.NOTICE).read_text())  # the OLED says it at start
    assert (notice["kind"], notice["release"], notice["back_to"]) == ("rolled-back", NEW, OLD)
    assert said[-1].startswith(f"update to release {NEW} rolled back: ")
    assert said[-1].endswith(f"back on release {OLD} and resumed the game")
    record = json.loads((layout.state / R.HEALTH).read_text())
    assert (record["release"], record["decision"]) == (OLD, GAME["decision"])


def test_a_release_that_dealt_another_game_gives_the_journal_back_keeping_both(tmp_path):
    _kit, _systemd, updater, said = rig(tmp_path, **{"0.2.0": Daemon(new_game=True)})
    state = updater.layout.state
    (state / "journal.bin").write_bytes(b"game g-7f3a, decision 12")
    assert updater.update(new_source(tmp_path), online=False) == 1
    assert (state / "journal.bin").read_bytes() == b"game g-7f3a, decision 12"
    kept = list(state.glob("journal.bin.rolled-back-*"))
    assert len(kept) == 1 and kept[0].read_bytes() == b"the new game's journal"
    assert "so the journal of game g-7f3a is back from the backup" in said[-1]


def test_a_config_the_new_release_refuses_stops_the_update_before_the_game_is_touched(tmp_path):
    kit, systemd, updater, said = rig(tmp_path)
    kit.answers["config check"] = lambda release, argv: (
        (2, "config.toml: 1 problem:\n  remote.url: unknown key; known keys: host")
        if release.startswith("0.2.0") else None)  # fmt: skip
    assert updater.update(new_source(tmp_path), online=False) == 1
    assert "stop" not in systemd.acts and whole(updater.layout) == OLD
    assert said[-1] == (
        f"update refused: release {NEW} refuses the live config /etc/haleakala/config.toml: "
        f"config.toml: 1 problem: / remote.url: unknown key; known keys: host; the kit stays "
        f"on release {OLD}"
    )


def test_a_release_that_cannot_import_is_refused_and_its_directory_removed(tmp_path):
    kit, systemd, updater, said = rig(tmp_path)
    kit.answers["import json"] = lambda release, argv: (
        1,
        "Traceback (most recent call last):\nModuleNotFoundError: No module named 'PIL'",
    )
    assert updater.update(new_source(tmp_path), online=False) == 1
    assert said[-1] == (
        "update refused: the new release cannot import: ModuleNotFoundError: No module named "
        f"'PIL'; the kit stays on release {OLD}"
    )
    assert not updater.layout.release(NEW).exists() and systemd.acts == []


def test_a_full_disk_is_refused_before_the_build_and_during_it(tmp_path):
    kit, systemd, updater, said = rig(tmp_path)
    updater.free_bytes = lambda _: 40_000_000
    assert updater.update(new_source(tmp_path), online=False) == 1
    assert "only 40 MB are free under /opt/haleakala" in said[-1]
    updater.free_bytes = lambda _: 10**10
    kit.answers["--wheel-dir"] = lambda release, argv: (
        1, "ERROR: Could not install packages due to an OSError: [Errno 28] No space left on "
        "device")  # fmt: skip
    assert updater.update(new_source(tmp_path), online=False) == 1
    assert "no space left on the device" in said[-1]
    assert not updater.layout.release(NEW).exists() and whole(updater.layout) == OLD
    assert systemd.acts == []


def test_offline_a_missing_dependency_is_named_with_the_way_on(tmp_path):
    kit, _systemd, updater, said = rig(tmp_path)
    kit.answers["--wheel-dir"] = lambda release, argv: (
        1,
        "ERROR: No matching distribution found for paho-mqtt>=2.1\n",
    )
    assert updater.update(new_source(tmp_path), online=False) == 1
    assert "the release needs paho-mqtt>=2.1, which neither the kit's wheel store" in said[-1]


def test_a_journal_the_new_release_reads_as_another_game_is_refused(tmp_path):
    kit, systemd, updater, said = rig(tmp_path)
    kit.answers["journal check"] = lambda release, argv: (
        (0, "no game in /var/lib/haleakala: a start begins a new one\n")
        if release.startswith("0.2.0") else None)  # fmt: skip
    assert updater.update(new_source(tmp_path), online=False) == 1
    assert f"release {NEW} reads another game from the journal" in said[-1]
    assert "stop" not in systemd.acts


def test_a_rollback_by_hand_is_checked_and_health_checked_too(tmp_path):
    _kit, _systemd, updater, said = rig(tmp_path)
    assert updater.update(new_source(tmp_path), online=False) == 0
    assert updater.rollback() == 0
    assert (whole(updater.layout), updater.layout.previous()) == (OLD, NEW)
    assert said[-1].startswith(f"rollback: release {OLD} runs and resumed game g-7f3a")


def test_no_rollback_to_a_release_that_failed_unless_forced(tmp_path):
    from haleakala.cli import UsageError

    _kit, _systemd, updater, _said = rig(tmp_path, **{"0.2.0": Daemon(resumes=False)})
    updater.update(new_source(tmp_path), online=False)
    assert updater.layout.previous() == NEW
    with pytest.raises(UsageError, match=f"the previous release {NEW} failed its health check"):
        updater.rollback()


def test_a_journal_newer_than_the_older_release_reads_is_a_refusal_in_words(tmp_path):
    _kit, _systemd, updater, said = rig(tmp_path)
    assert updater.update(new_source(tmp_path), online=False) == 0
    journal = updater.layout.state / "journal.bin"
    header = json.dumps({"type": "header", "version": 2}).encode()
    journal.write_bytes(len(header).to_bytes(4, "big") + b"\0\0\0\0" + header)
    assert updater.rollback() == 1
    assert said[-1] == (
        f"rollback refused: the journal is format 2 and release {OLD} reads format 1: it "
        "would not resume this game. Finish the game first (a finished game is kept as its "
        f"game log), or stay on this release; the kit stays on release {NEW}"
    )


def test_without_systemd_the_switch_is_made_and_said_to_be_unchecked(tmp_path):
    _kit, systemd, updater, said = rig(tmp_path)
    systemd.up = False  # a chroot, an image being built
    assert updater.update(new_source(tmp_path), online=False) == 0
    assert whole(updater.layout) == NEW and "without a health check" in said[-1]


def test_the_same_release_again_is_nothing_to_do(tmp_path):
    _kit, systemd, updater, said = rig(tmp_path)
    updater.update(new_source(tmp_path), online=False)
    before = list(systemd.acts)
    assert updater.update(new_source(tmp_path), online=False) == 0
    assert said[-1] == f"= release {NEW} is the running one: nothing to do"
    assert systemd.acts == before


def test_old_releases_are_pruned_to_current_and_previous(tmp_path):
    _kit, _systemd, updater, _said = rig(tmp_path)
    updater.update(new_source(tmp_path), online=False)
    updater.update(new_source(tmp_path, "0.3.0", "c" * 64), online=False)
    assert updater.layout.names() == [NEW, "0.3.0-cccccccccc-pi"]


@pytest.mark.parametrize("failing", [False, True], ids=["good", "failing"])
@pytest.mark.parametrize("steps", range(14))
def test_a_power_cut_at_any_step_of_an_update_boots_into_one_whole_release(
    tmp_path, monkeypatch, steps, failing
):
    """The cut stops every rename and link after ``steps`` of them; the boot-time check then
    runs as at the next boot. The kit is on the old release unless the new one had proved
    itself (its health record names the game at the same decision). A failing release's
    update is cut in its rollback too (14 steps cover both whole runs)."""
    _kit, _systemd, updater, _said = rig(tmp_path, **{"0.2.0": Daemon(resumes=not failing)})
    source = new_source(tmp_path)
    cut_after(monkeypatch, steps)
    try:
        finished = updater.update(source, online=False) == 0
    except Cut:
        finished = False
    monkeypatch.undo()
    layout = updater.layout
    R.boot_check(layout, say=lambda _: None)
    name = whole(layout)
    health = json.loads((layout.state / R.HEALTH).read_text()) if (
        layout.state / R.HEALTH).exists() else {}  # fmt: skip
    if name == NEW:  # only a release that proved itself, with the game where it was
        assert health.get("release") == NEW and health.get("decision") == GAME["decision"]
    else:
        assert not finished
    assert layout.trial() is None


def test_the_trial_records_the_game_and_decision_of_the_stopped_daemon(tmp_path, monkeypatch):
    _kit, _systemd, updater, _said = rig(tmp_path)
    seen = {}
    real = R.begin_trial
    monkeypatch.setattr(R, "begin_trial", lambda layout, t: (seen.update(t), real(layout, t)))
    updater.update(new_source(tmp_path), online=False)
    assert {k: seen[k] for k in ("release", "previous", "game", "decision")} == {
        "release": NEW, "previous": OLD, "game": "g-7f3a", "decision": 12}  # fmt: skip


def test_a_trial_left_by_an_updater_that_was_killed_is_settled_by_the_next_one(tmp_path):
    """A closed SSH session, a kill: the marker stays; the next update (or the next boot)
    takes the kit back, and the daemon of the unproven release is restarted on the old one."""
    _kit, systemd, updater, _said = rig(tmp_path)
    layout = updater.layout
    from support.kit_releases import add_release

    add_release(layout, NEW, built="2")
    R.begin_trial(layout, {"release": NEW, "previous": OLD, **GAME})
    R.switch(layout, NEW)
    updater.settle()
    assert whole(layout) == OLD and layout.trial() is None
    assert systemd.acts == ["restart"]
