"""``haleakala run``: systemd notification, watchdog, clean shutdown, bad config, the unit file."""

from __future__ import annotations

import configparser
import os
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest
from support.companion_rig import Rig
from support.paths import REPO_ROOT
from support.virtual_time import VirtualTimeQueue
from support.waiting import wait_for

from haleakala.companion import oled
from haleakala.companion.daemon import Daemon, Notifier
from haleakala.hal.events import ButtonPressed

ROOT = REPO_ROOT
RUN = [sys.executable, "-m", "haleakala", "run"]


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "WATCHDOG_USEC")}
    env.update(extra)
    return env


@pytest.fixture
def notify_socket(tmp_path):
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(15)
    yield sock, path
    sock.close()


def test_the_daemon_notifies_ready_status_and_watchdog_and_exits_cleanly_on_sigterm(
    tmp_path, notify_socket
):
    sock, path = notify_socket
    (tmp_path / "config.toml").write_text('variant = "tactical"\n')
    process = subprocess.Popen(
        [*RUN, "--hardware", "sim", "--headless", "--config", str(tmp_path / "config.toml"),
         "--state-dir", str(tmp_path / "state"), "--seed", "4"],
        env=clean_env(NOTIFY_SOCKET=str(path), WATCHDOG_USEC="200000"),
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        first = sock.recv(4096).decode()
        assert first.startswith("READY=1\nSTATUS=round 1, ")
        assert "to turn, decision 0, digest" in first
        pings = 0
        deadline = time.monotonic() + 5
        while pings < 3 and time.monotonic() < deadline:
            pings += sock.recv(4096).decode() == "WATCHDOG=1"
        assert pings == 3  # every half WATCHDOG_USEC, from the main loop
        process.send_signal(signal.SIGTERM)
        out, _ = process.communicate(timeout=10)
    finally:
        process.kill()
    assert process.returncode == 0
    assert "new game" in out and "(tactical, seed 4" in out
    assert out.rstrip().endswith("INFO haleakala.daemon: bye")
    assert (tmp_path / "state" / "journal.bin").exists()


def test_a_bad_config_is_refused_with_every_problem_listed_and_exit_2(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('kit = "lasers"\n[pins]\nback = 99\n')
    done = subprocess.run(
        [*RUN, "--hardware", "sim", "--headless", "--config", str(bad),
         "--state-dir", str(tmp_path / "state")],
        env=clean_env(), capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert done.returncode == 2
    assert "bad config, not starting (2 problems)" in done.stdout
    assert "kit" in done.stdout and "pins.back" in done.stdout
    assert done.stderr.startswith(f"haleakala run: {bad}: 2 problems:")
    assert not (tmp_path / "state").exists()


def test_an_unwritable_state_directory_is_named_with_the_fix(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    (tmp_path / "c.toml").write_text("")
    done = subprocess.run(
        [*RUN, "--hardware", "sim", "--headless", "--config", str(tmp_path / "c.toml"),
         "--state-dir", str(blocker / "state")],
        env=clean_env(), capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert done.returncode == 1
    assert f"state directory {blocker / 'state'} is not writable" in done.stdout
    assert "StateDirectory=haleakala" in done.stdout and "--state-dir" in done.stdout


def test_autoplay_is_refused_on_real_hardware(tmp_path):
    (tmp_path / "c.toml").write_text("")
    done = subprocess.run(
        [*RUN, "--hardware", "pi", "--autoplay", "1", "--config", str(tmp_path / "c.toml"),
         "--state-dir", str(tmp_path / "s")],
        env=clean_env(), capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert done.returncode == 2 and "--autoplay drives simulated inputs" in done.stdout


class RecordingNotifier(Notifier):
    def __init__(self, watchdog_s: float | None = None) -> None:
        super().__init__({})
        self.watchdog_s = watchdog_s
        self.sent: list[str] = []

    def notify(self, message: str) -> bool:
        self.sent.append(message)
        return True


def run_in_thread(daemon: Daemon) -> threading.Thread:
    thread = threading.Thread(target=daemon.run, daemon=True)
    thread.start()
    return thread


def test_the_loop_sleeps_until_something_happens(tmp_path):
    rig = Rig("buttons")
    rig.c.events = events = VirtualTimeQueue(rig.clock)
    daemon = Daemon(rig.c, notifier=RecordingNotifier())
    thread = run_in_thread(daemon)
    events.run_for(60.0)  # a quiet minute on the table
    assert events.waits <= 2 and events.timeouts[-1] is None  # blocked on the queue, not polling
    rig.c.post(ButtonPressed("beach2"))
    wait_for(lambda: rig.c.shown is not None and rig.c.shown.subject == 2, "woken by the event")
    daemon.stop()
    thread.join(5)
    assert not thread.is_alive()
    status = [m for m in daemon.notifier.sent if m.startswith("STATUS=")]
    assert status and status[0].startswith("STATUS=round 1, red to turn")


def test_the_watchdog_is_pinged_only_while_the_controller_is_healthy():
    rig = Rig("buttons")
    rig.c.events = events = VirtualTimeQueue(rig.clock)
    notifier = RecordingNotifier(watchdog_s=0.1)
    daemon = Daemon(rig.c, notifier=notifier)
    thread = run_in_thread(daemon)
    events.run_for(0.3)
    pings = notifier.sent.count("WATCHDOG=1")
    assert pings == 1 + 6  # at the start, then every half WATCHDOG_USEC (0.05 s)
    rig.c.consecutive_errors = 1000  # stuck failing on every event
    events.run_for(0.3)
    assert notifier.sent.count("WATCHDOG=1") == pings
    daemon.stop()
    thread.join(5)


def test_sigterm_turns_the_leds_off_and_says_bye_on_the_oled():
    rig = Rig("buttons")
    rig.c.clock = time.monotonic
    daemon = Daemon(rig.c, notifier=RecordingNotifier())
    thread = run_in_thread(daemon)
    daemon._on_signal(signal.SIGTERM, None)
    thread.join(5)
    assert not thread.is_alive()
    daemon.shutdown()
    assert rig.hw.leds.off_count == 1 and set(rig.hw.leds.last.pixels) == {(0, 0, 0)}
    assert rig.hw.display.last.tobytes() == oled.bye_image().tobytes()
    assert rig.hw.inputs.closed
    assert "STOPPING=1" in daemon.notifier.sent


def test_the_notifier_speaks_the_sd_notify_datagram_protocol(notify_socket):
    sock, path = notify_socket
    notifier = Notifier({"NOTIFY_SOCKET": str(path), "WATCHDOG_USEC": "3000000"})
    assert notifier.watchdog_s == 3.0
    assert notifier.notify("STATUS=hello")
    assert sock.recv(100) == b"STATUS=hello"
    other_pid = Notifier({"WATCHDOG_USEC": "1000", "WATCHDOG_PID": str(os.getpid() + 1)})
    assert other_pid.watchdog_s is None  # the watchdog is meant for another process
    assert not Notifier({}).notify("READY=1")


def test_start_up_imports_neither_pygame_nor_numpy():
    code = (
        "import sys, haleakala.cli as c; c.build_parser(); "
        "import haleakala.companion.daemon, haleakala.companion.controller, "
        "haleakala.companion.journal, haleakala.companion.autoplay, haleakala.hal.simulated; "
        "from haleakala.companion import oled; oled.draw(oled.Screen('x')); "
        "print(sorted(m for m in ('pygame', 'numpy') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, env=clean_env())  # fmt: skip
    assert done.stdout.strip() == "[]"


# --------------------------------------------------------------------------- systemd


class MultiDict(dict):
    """configparser's sections, keeping repeated keys (DeviceAllow=) as lines."""

    def __setitem__(self, key, value):
        if isinstance(value, list) and key in self:
            self[key].extend(value)
        else:
            super().__setitem__(key, value)


def unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, dict_type=MultiDict, interpolation=None)
    parser.optionxform = str  # systemd keys are case-sensitive
    parser.read(ROOT / "systemd" / "haleakala.service")
    return parser


def test_the_unit_is_a_notify_service_with_a_watchdog_that_restarts_on_failure():
    service = unit()["Service"]
    assert service["Type"] == "notify"
    assert int(service["WatchdogSec"]) > 0
    assert service["Restart"] == "on-failure"
    assert "haleakala run" in service["ExecStart"] and "--hardware pi" in service["ExecStart"]
    assert unit()["Install"]["WantedBy"] == "multi-user.target"


def test_the_unit_runs_as_its_own_user_with_the_device_groups_and_a_state_directory():
    service = unit()["Service"]
    assert service["User"] == "haleakala"
    assert set(service["SupplementaryGroups"].split()) == {"gpio", "spi", "i2c", "dialout", "audio"}
    assert service["StateDirectory"] == "haleakala"


def test_the_unit_is_hardened_but_keeps_the_kits_devices():
    service = unit()["Service"]
    assert service.get("PrivateDevices", "no") == "no"
    assert service["DevicePolicy"] == "closed"
    allowed = service["DeviceAllow"].split("\n")
    for device in ("gpiochip", "spi", "i2c", "pio", "ttyACM"):
        assert any(device in line and line.endswith(" rw") for line in allowed), device
    for key, value in (
        ("ProtectSystem", "strict"),
        ("ProtectHome", "yes"),
        ("NoNewPrivileges", "yes"),
        ("PrivateTmp", "yes"),
        ("PrivateNetwork", "yes"),
        ("RestrictAddressFamilies", "AF_UNIX"),
    ):
        assert service[key] == value, key
    assert service["CapabilityBoundingSet"] == ""


def test_the_udev_rules_give_group_gpio_the_pio_block_and_name_the_pico():
    pio = (ROOT / "systemd" / "99-haleakala-pio.rules").read_text()
    assert 'SUBSYSTEM=="*-pio", GROUP="gpio", MODE="0660"' in pio
    pico = (ROOT / "systemd" / "99-haleakala-pico.rules").read_text()
    rule = next(line for line in pico.splitlines() if line and not line.startswith("#"))
    assert 'ATTRS{idVendor}=="2e8a"' in rule and 'SYMLINK+="haleakala-pico' in rule
    assert 'GROUP="dialout"' in rule
    driver = pytest.importorskip("haleakala.hal.rfid.driver")
    assert driver.UDEV_LINKS[0] == "haleakala-pico"  # where the driver looks first


# --------------------------------------------------------------------------- solo mode


def test_the_daemon_plays_a_solo_game_to_the_end_and_journals_the_companions_decisions(
    tmp_path,
):
    from haleakala.companion.autoplay import reference_game

    (tmp_path / "c.toml").write_text('kit = "rfid"\n')
    done = subprocess.run(
        [*RUN, "--hardware", "sim", "--headless", "--config", str(tmp_path / "c.toml"),
         "--state-dir", str(tmp_path / "s"), "--seed", "21", "--solo", "yellow",
         "--strength", "easy", "--autoplay", "21"],
        env=clean_env(), capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:]
    reference = reference_game("base", 21, None, 21, solo="yellow")
    result = reference.result()
    assert (
        f"autoplay: game over: {result.winner} wins {result.scores[0]}-{result.scores[1]}, "
        f"decision {len(reference.history)}, digest {reference.digest()}, "
        "companion plays yellow (easy)"
    ) in done.stdout
    assert " yellow " in done.stdout and "by bot digest" in done.stdout
    assert "solo: yellow (easy) decided" in done.stdout


def test_a_strength_that_does_not_exist_is_refused_in_one_line():
    done = subprocess.run(
        [*RUN, "--solo", "yellow", "--strength", "hard"],
        env=clean_env(), capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert done.returncode == 2 and "invalid choice: 'hard'" in done.stderr


def test_the_watchdog_is_pinged_and_inputs_handled_while_the_companions_bot_thinks():
    release, asked = threading.Event(), threading.Event()

    def held(strength, seed):
        class Bot:
            def decide(self, game, budget=None):
                asked.set()
                assert release.wait(10)
                return game.legal_actions()[0]

        return Bot()

    rig = Rig("buttons", solo="yellow", bot_factory=held)
    rig.carry_out("3@2")
    rig.carry_out(">stay")
    assert asked.wait(5) and rig.c.thinking
    rig.c.events = events = VirtualTimeQueue(rig.clock)
    notifier = RecordingNotifier(watchdog_s=0.1)
    daemon = Daemon(rig.c, notifier=notifier)
    thread = run_in_thread(daemon)
    try:
        events.run_until(lambda: notifier.sent.count("WATCHDOG=1") >= 3, "three pings")
        assert rig.c.thinking
        rig.c.post(ButtonPressed("back"))
        wait_for(lambda: rig.c.shown.kind == "menu", "the menu, while the bot thinks")
        assert rig.c.thinking
        release.set()
        wait_for(lambda: rig.c.seat.thinker.answered >= 1, "the bot to answer")
        events.run_until(lambda: not rig.c.thinking, "the bot's answer")
        assert rig.c.panel.chooser.options[0].value in rig.game.legal_actions()
    finally:
        release.set()
        daemon.stop()
        thread.join(5)
