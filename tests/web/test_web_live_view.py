"""The live view follows the daemon's game: every pushed snapshot is a position the game
really passed through (its digest), in order, ending at the game's last position; the daemon
publishes exactly one update per decision, and the command line wires it up."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading

import pytest
from support.companion_rig import Rig
from support.live import StreamReader, get
from support.waiting import wait_for

from haleakala.companion.autoplay import AutoPlayer, reference_game
from haleakala.companion.daemon import Daemon
from haleakala.games.haleakala import Game
from haleakala.web.start import start_live_view

pytest.importorskip("aiohttp")


def empty_config(tmp_path):
    """The built-in defaults (a machine's own /etc/haleakala/config.toml must not count)."""
    path = tmp_path / "config.toml"
    path.write_text("")
    return path


def digests_along(game: Game) -> list[str]:
    """The digest of the position after each number of decisions (0 .. all)."""
    replay = Game(game.variant, game.seed, ("red", "yellow")[game.start])
    out = [replay.digest()]
    for d in game.history:
        replay.apply(d)
        out.append(replay.digest())
    return out


@pytest.mark.parametrize(
    ("kit", "variant", "seed"), [("buttons", "base", 5), ("rfid", "tactical", 8)]
)
def test_pushed_snapshots_follow_the_daemons_game_digest_by_digest(kit, variant, seed):
    rig = Rig(kit, variant, seed=seed, start="red")
    live = start_live_view("127.0.0.1:0", rig.c)
    assert live is not None and live.port > 0
    reader = StreamReader(live.port, live.token)
    try:
        wait_for(lambda: reader.snapshots, "the first snapshot, sent on connecting")
        assert reader.status == 200
        assert reader.headers["content-type"].startswith("text/event-stream")
        daemon = Daemon(rig.c, autoplayer=AutoPlayer(3), live=live)
        thread = threading.Thread(target=daemon.run, daemon=True)
        thread.start()
        thread.join(120)
        assert not thread.is_alive(), "the autoplayed game did not end"
        final = rig.c.game
        assert final.is_terminal()
        reference = reference_game(variant, seed, "red", 3)
        assert final.history == reference.history
        wait_for(lambda: reader.last and reader.last["digest"] == final.digest(), "the end")
        along = digests_along(final)
        # One update per position the game passed through, and no other.
        assert live.published == len(final.history) + 1
        assert reader.ids == sorted(set(reader.ids))
        for snap in reader.snapshots:
            assert snap["digest"] == along[snap["decisions"]], snap["seq"]
        last = reader.last
        assert last["over"] and last["result"] is not None
        assert last["result"]["scores"] == dict(
            zip(("red", "yellow"), final.result().scores, strict=True)
        )
        assert [s["round"] for s in last["scorings"]] == [s.round for s in final.scorings]
        daemon.shutdown()
    finally:
        reader.close()
        live.close()


def test_the_daemon_command_serves_the_live_view_and_logs_its_url_once(tmp_path):
    command = [sys.executable, "-m", "haleakala", "run", "--hardware", "sim", "--headless",
               "--state-dir", str(tmp_path), "--seed", "11", "--start", "yellow",
               "--web", "127.0.0.1:0"]  # fmt: skip
    env = {**os.environ, "HALEAKALA_CONFIG": str(empty_config(tmp_path))}
    env.pop("NOTIFY_SOCKET", None)
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, env=env)  # fmt: skip
    lines: list[str] = []
    try:
        assert process.stdout is not None
        url = None
        for line in process.stdout:
            lines.append(line)
            found = re.search(r"live view for this machine only: (http://\S+)", line)
            if found:
                url = found.group(1)
            if "ready:" in line:
                break
        assert url is not None, "".join(lines)
        port, token = re.match(r"http://127\.0\.0\.1:(\d+)/\?token=(\S+)", url).groups()
        status, headers, body = get(int(port), "/snapshot.json", token)
        assert status == 200 and headers["cache-control"] == "no-store"
        import json

        snap = json.loads(body)
        assert snap["digest"] == Game("base", 11, "yellow").digest()
        assert snap["decisions"] == 0 and snap["to_move"] == "yellow"
        assert get(int(port), "/snapshot.json")[0] == 403  # and not without the token
    finally:
        process.send_signal(signal.SIGTERM)
        rest, _ = process.communicate(timeout=30)
    lines.append(rest)
    assert process.returncode == 0
    log = "".join(lines)
    assert log.count("?token=") == 1, "the URL holds the token: logged once, at start"
    assert "Traceback" not in log


@pytest.mark.parametrize("spec", ["nonsense", "127.0.0.1:99999", "localhost:-1"])
def test_a_bad_web_address_stops_the_daemon_with_the_fix(tmp_path, spec):
    done = subprocess.run(
        [sys.executable, "-m", "haleakala", "run", "--hardware", "sim", "--headless",
         "--state-dir", str(tmp_path), "--web", spec],
        capture_output=True, text=True, timeout=60,
        env={**os.environ, "HALEAKALA_CONFIG": str(empty_config(tmp_path))},
    )  # fmt: skip
    assert done.returncode == 2
    assert "is not [HOST:]PORT" in done.stdout and "0.0.0.0:8080" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr


def test_a_port_that_is_taken_is_named_and_the_daemon_does_not_start(tmp_path):
    import socket

    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "haleakala", "run", "--hardware", "sim", "--headless",
             "--state-dir", str(tmp_path), "--web", f"127.0.0.1:{port}"],
            capture_output=True, text=True, timeout=60,
            env={**os.environ, "HALEAKALA_CONFIG": str(empty_config(tmp_path))},
        )  # fmt: skip
    assert done.returncode == 2
    assert f"cannot listen on 127.0.0.1:{port}" in done.stdout
    assert "choose another port" in done.stdout and "Traceback" not in done.stdout


def test_the_configs_web_section_turns_the_live_view_on(tmp_path):
    import socket

    with socket.socket() as holder:  # a taken port: the refusal proves [web] was read
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        config = tmp_path / "config.toml"
        config.write_text(f'[web]\nenabled = true\nhost = "127.0.0.1"\nport = {port}\n')
        done = subprocess.run(
            [sys.executable, "-m", "haleakala", "run", "--hardware", "sim", "--headless",
             "--config", str(config), "--state-dir", str(tmp_path / "s")],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
    assert done.returncode == 2 and f"cannot listen on 127.0.0.1:{port}" in done.stdout


def test_the_config_names_every_mistake_in_web(tmp_path):
    from haleakala.config import check

    config = tmp_path / "config.toml"
    config.write_text('[web]\nenabled = "yes"\nenable = true\nport = 70000\nhost = "phone"\n')
    problems = [str(p) for p in check(config)]
    assert any(p.startswith("web.enabled: expected true or false") for p in problems)
    assert any("web.enable: unknown key; did you mean 'enabled'" in p for p in problems)
    assert any(p.startswith("web.port: 70000 is not a TCP port 1..65535") for p in problems)
    assert any(p.startswith("web.host: 'phone' is not an IP address") for p in problems)


def test_the_live_view_is_off_unless_asked():
    from haleakala.config import Config

    assert Config().web.enabled is False and Config().web.host == "127.0.0.1"


def test_the_simulator_publishes_its_game_after_every_frame(tmp_path):
    from haleakala.simulator.run import _live_view
    from haleakala.simulator.session import SimSession

    session = SimSession(kit="buttons", variant="base", seed=4, start="red", state_dir=tmp_path)
    live = _live_view("127.0.0.1:0", session)
    try:
        for _ in range(3):
            session.bot_step(block=True)
            session.update()  # what the window calls every frame
            digest = session.companion.game.digest()
            wait_for(lambda d=digest: live.latest and live.latest.digest == d, "the sim's game")
        assert live.latest.seq == 4  # the start, then one update per decision
    finally:
        live.close()
        session.close()


def test_sim_web_without_a_window_says_what_to_run_instead():
    done = subprocess.run(
        [sys.executable, "-m", "haleakala", "sim", "--headless", "--web", "8080"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    assert "haleakala run --hardware sim --headless --web PORT" in done.stderr


def test_a_decision_the_companion_makes_by_itself_reaches_the_viewers_while_it_idles():
    """A forced decision goes on by itself after 2 s (a timer, no input): the loop publishes
    it before it goes back to sleep, not at the next button press."""
    from support.virtual_time import VirtualTimeQueue

    from haleakala.companion.autoplay import choose

    rig = Rig("buttons", "base", seed=5, start="red")
    for _ in range(400):
        if rig.c.panel.auto_at is not None:
            break
        rig.carry_out(choose(rig.game, 1))
    assert rig.c.panel.auto_at is not None, "no forced decision came up"
    rig.c.events = events = VirtualTimeQueue(rig.clock)
    live = start_live_view("127.0.0.1:0", rig.c)
    daemon = Daemon(rig.c, live=live)
    thread = threading.Thread(target=daemon.run, daemon=True)
    thread.start()
    try:
        made = len(rig.game.history)
        events.run_until(lambda: len(rig.game.history) > made, "the forced decision")
        events.run_until(events.idle, "the loop asleep again")
        assert live.seq >= 2
        wait_for(lambda: live.latest.digest == rig.c.game.digest(), "the viewers' copy")
    finally:
        daemon.stop()
        thread.join(5)
        live.close()


def test_the_live_view_drop_in_opens_the_lan_and_nothing_more():
    from support.paths import REPO_ROOT

    text = (REPO_ROOT / "systemd" / "live-view.conf").read_text()
    settings = dict(
        line.split("=", 1) for line in text.splitlines() if "=" in line and line[0] != "#"
    )
    assert settings["PrivateNetwork"] == "no"
    assert settings["RestrictAddressFamilies"].split() == ["AF_UNIX", "AF_INET", "AF_INET6"]
    allowed = settings["IPAddressAllow"].split()
    assert "any" not in allowed and "192.168.0.0/16" in allowed and "localhost" in allowed
    assert "IPAddressDeny" not in settings  # the unit's deny-any stays in force


def test_a_closed_network_names_the_drop_in(caplog, monkeypatch):
    import errno as errno_

    from haleakala.web import server

    def refuse(self, timeout=10.0):
        raise OSError(errno_.EAFNOSUPPORT, "Address family not supported by protocol")

    monkeypatch.setattr(server.LiveView, "start", refuse)
    rig = Rig("buttons", "base", seed=1, start="red")
    assert start_live_view("0.0.0.0:8080", rig.c) is None
    assert "install the drop-in systemd/live-view.conf" in caplog.text
