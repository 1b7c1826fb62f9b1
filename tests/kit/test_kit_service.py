"""selftest and tags enroll need the devices the daemon holds: the service is stopped for
their run and started again after, or (without root) the command refuses with the exact
systemctl line."""

from __future__ import annotations

import pytest

from haleakala.cli import UsageError, main
from haleakala.kit import service


class FakeSystemd:
    """systemctl as seen by the command: records calls, knows whether the unit runs."""

    def __init__(self, active: bool) -> None:
        self.active = active
        self.calls: list[list[str]] = []

    def __call__(self, argv) -> int:
        self.calls.append(list(argv))
        if argv[0] == "is-active":
            return 0 if self.active else 3
        self.active = argv[0] == "start"
        return 0


def test_a_stopped_service_is_left_alone():
    systemd = FakeSystemd(active=False)
    with service.service_paused("selftest", run=systemd, euid=lambda: 1000):
        pass
    assert systemd.calls == [["is-active", "--quiet", "haleakala.service"]]


def test_as_root_the_service_is_stopped_for_the_run_and_started_after_even_on_error():
    systemd = FakeSystemd(active=True)
    seen_inside = []
    with (
        pytest.raises(RuntimeError),
        service.service_paused("selftest", run=systemd, euid=lambda: 0, say=lambda _t: None),
    ):
        seen_inside.append(systemd.active)
        raise RuntimeError("a wire is loose")
    assert seen_inside == [False]
    assert systemd.active
    assert systemd.calls[1:] == [["stop", "haleakala.service"], ["start", "haleakala.service"]]


def test_without_root_a_running_service_is_refused_with_the_exact_command():
    systemd = FakeSystemd(active=True)
    with (
        pytest.raises(UsageError) as refused,
        service.service_paused("tags enroll", run=systemd, euid=lambda: 1000),
    ):
        pytest.fail("must not run while the service holds the devices")
    assert "'sudo systemctl stop haleakala'" in str(refused.value)
    assert "'sudo systemctl start haleakala'" in str(refused.value)
    assert systemd.active and len(systemd.calls) == 1


def test_selftest_on_the_pi_backend_refuses_while_the_service_runs(monkeypatch, capsys):
    systemd = FakeSystemd(active=True)
    monkeypatch.setattr(
        service, "service_paused", _bound(service.service_paused, systemd, lambda: 1000)
    )
    assert main(["selftest", "--hardware", "pi"]) == 2
    err = capsys.readouterr().err
    assert "the haleakala service is running and holds the devices selftest needs" in err
    assert systemd.calls == [["is-active", "--quiet", "haleakala.service"]]


def _bound(paused, run, euid):
    """service_paused with this systemd and this user (selftest imports it at call time)."""

    def bound(command, **_kw):
        return paused(command, run=run, euid=euid)

    return bound
