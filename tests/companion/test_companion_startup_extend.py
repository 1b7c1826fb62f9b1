"""A start-up that really needs longer tells systemd so (``EXTEND_TIMEOUT_USEC``), and only then.

The unit allows ``TimeoutStartSec=30``; 10 MB of garbage behind a journal's records once took
50 s to read and the daemon was killed before READY. Now recovery tells a ``StartupClock``
how far it has read; past ``EXTEND_AFTER_S`` it asks systemd for ``EXTEND_BY_S`` more, again
every ``EXTEND_EVERY_S``, with how far it is in the status line. The clock is injected: each
reading moves it on, so "slow" is a fact of the test, not of the machine.
"""

from __future__ import annotations

import random
from argparse import Namespace

from haleakala.companion import daemon as D
from haleakala.companion.autoplay import choose
from haleakala.companion.journal import JOURNAL_NAME, Journal
from haleakala.companion.journal.scan import CHUNK
from haleakala.games.haleakala import Game


class RecordingNotifier(D.Notifier):
    def __init__(self) -> None:
        super().__init__({})
        self.sent: list[str] = []

    def notify(self, message: str) -> bool:
        self.sent.append(message)
        return True


class SteppingClock:
    """A clock that moves ``step`` seconds each time it is read (a slow card, by fiat)."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 1000.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def extends(sent: list[str]) -> list[str]:
    return [m for m in sent if m.startswith("EXTEND_TIMEOUT_USEC=")]


def test_the_start_up_asks_for_more_time_only_past_the_threshold_and_then_regularly():
    notifier, now = RecordingNotifier(), [0.0]
    startup = D.StartupClock(notifier, lambda: now[0])
    for t in (0.5, 2.0, D.EXTEND_AFTER_S - 0.1):
        now[0] = t
        startup(int(t * 1e6), 100 << 20)
    assert notifier.sent == []  # a start that is merely a few seconds long asks nothing
    now[0] = D.EXTEND_AFTER_S
    startup(40 << 20, 100 << 20)
    assert notifier.sent == [
        f"EXTEND_TIMEOUT_USEC={int(D.EXTEND_BY_S * 1e6)}\nSTATUS=reading the journal: 40 of 100 MB"
    ]
    now[0] += D.EXTEND_EVERY_S / 2
    startup(50 << 20, 100 << 20)
    assert len(notifier.sent) == 1  # not at every chunk
    now[0] += D.EXTEND_EVERY_S / 2
    startup(60 << 20, 100 << 20)
    assert len(extends(notifier.sent)) == 2 and "60 of 100 MB" in notifier.sent[-1]
    assert D.EXTEND_EVERY_S < D.EXTEND_BY_S  # each ask comes before the last one runs out


def played(state, decisions: int = 8) -> Game:
    journal = Journal(state, sync=False)
    game = Game("base", 3, "red")
    journal.start(game)
    for _ in range(decisions):
        game.apply(choose(game, 1))
        journal.append_decision(game)
    journal.close()
    return game


def test_recovery_of_a_long_garbage_tail_reports_its_progress_and_the_clock_asks(tmp_path):
    game = played(tmp_path)
    with open(tmp_path / JOURNAL_NAME, "ab") as f:
        f.write(random.Random(1).randbytes(12 * CHUNK))
    notifier = RecordingNotifier()
    reports: list[tuple[int, int]] = []
    startup = D.StartupClock(notifier, SteppingClock(D.EXTEND_AFTER_S / 4))

    def progress(done: int, total: int) -> None:
        reports.append((done, total))
        startup(done, total)

    journal = Journal(tmp_path, readonly=True, progress=progress)
    resumed = journal.recover()
    assert resumed is not None and resumed.history == game.history
    size = (tmp_path / JOURNAL_NAME).stat().st_size
    assert reports[-1] == (size, size) and len(reports) >= 12
    assert [done for done, _ in reports] == sorted(done for done, _ in reports)
    assert len(extends(notifier.sent)) >= 2


def test_a_normal_journal_asks_systemd_for_nothing(tmp_path):
    played(tmp_path)
    notifier = RecordingNotifier()
    startup = D.StartupClock(notifier, SteppingClock(D.EXTEND_AFTER_S / 4))
    assert Journal(tmp_path, readonly=True, progress=startup).recover() is not None
    assert notifier.sent == []


def test_the_daemon_asks_for_more_time_before_ready_while_it_reads_a_long_journal(
    tmp_path, monkeypatch
):
    state = tmp_path / "state"
    state.mkdir()
    game = played(state)
    with open(state / JOURNAL_NAME, "ab") as f:
        f.write(random.Random(2).randbytes(8 * CHUNK))
    config = tmp_path / "config.toml"
    config.write_text('kit = "buttons"\n')
    notifier = RecordingNotifier()
    monkeypatch.setattr(D, "Notifier", lambda *a: notifier)
    monkeypatch.setattr(D.Daemon, "install_signal_handlers", lambda self: None)
    monkeypatch.setattr(D.Daemon, "run", lambda self: D.EXIT_OK)
    args = Namespace(config=str(config), hardware="sim", state_dir=str(state), headless=True)
    assert D.main(args, clock=SteppingClock(D.EXTEND_AFTER_S / 3)) == D.EXIT_OK
    ready = next(i for i, m in enumerate(notifier.sent) if m.startswith("READY=1"))
    asked = [i for i, m in enumerate(notifier.sent) if m.startswith("EXTEND_TIMEOUT_USEC=")]
    assert asked and max(asked) < ready
    assert f"decision {len(game.history)}" in notifier.sent[ready]
