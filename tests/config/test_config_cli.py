"""``haleakala config check|show``: OK line, every problem with exit 1, misuse exit 2."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from support.paths import REPO_ROOT

from haleakala import config as cfg
from haleakala.cli import main

EXAMPLE = REPO_ROOT / "hw" / "config.example.toml"


@pytest.fixture(autouse=True)
def no_system_config(tmp_path, monkeypatch):
    """Never read the machine's /etc/haleakala/config.toml from a test."""
    monkeypatch.delenv(cfg.ENV_PATH, raising=False)
    monkeypatch.setattr(cfg, "DEFAULT_PATH", tmp_path / "etc" / "config.toml")


def test_check_of_a_good_file_prints_config_ok(capsys):
    assert main(["config", "check", "--config", str(EXAMPLE)]) == 0
    assert capsys.readouterr().out == f"config OK: {EXAMPLE}\n"


def test_check_prints_every_problem_and_exits_1(tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text("[pins]\nback = 22\nbeach0 = 1\n[leds]\nsupply_ma = 2000\n")
    assert main(["config", "check", "--config", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.out.splitlines() == [
        "pins.back: GPIO 22 is also pins.encoder_push; "
        "every device needs its own pin: pick a free GPIO",
        "warning: pins.beach0: GPIO 1 is a HAT ID EEPROM pin (ID_SD/ID_SC); "
        "it works, but a HAT on the header would clash: prefer 4..27",
        "leds.supply_ma: the 2000 mA supply cannot carry the kit's 3246 mA peak (pi4 1300, "
        "LEDs 1771, OLED 25, speaker 150 mA): the Pi would brown out; fit a 5 V supply of at "
        "least 4 A and set leds.supply_ma to its rating, or lower leds.current_limit_ma / "
        "leds.brightness (details: haleakala power)",
    ]
    assert captured.err == f"{path}: 2 errors\n"


def test_warnings_alone_still_pass(tmp_path, capsys):
    path = tmp_path / "warn.toml"
    path.write_text("[pins]\nled_data = 18\n")
    assert main(["config", "check", "--config", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("warning: pins.led_data: GPIO 18")
    assert out[-1] == f"config OK: {path}"


def test_a_missing_named_file_is_misuse_exit_2(tmp_path, capsys):
    missing = tmp_path / "nope.toml"
    assert main(["config", "check", "--config", str(missing)]) == 2
    assert capsys.readouterr().err == (
        f"haleakala config: config file {missing} does not exist (check the path, or omit "
        f"--config to use {cfg.DEFAULT_PATH})\n"
    )


def test_no_file_at_the_default_path_checks_the_built_in_defaults(capsys):
    assert main(["config", "check"]) == 0
    assert capsys.readouterr().out == (
        f"config OK: built-in defaults (no file at {cfg.DEFAULT_PATH})\n"
    )


def test_env_names_the_file_to_check(tmp_path, monkeypatch, capsys):
    path = tmp_path / "kit.toml"
    path.write_text("kit = 'rfids'\n")
    monkeypatch.setenv(cfg.ENV_PATH, str(path))
    assert main(["config", "check"]) == 1
    assert "kit: 'rfids' is not one of buttons, rfid" in capsys.readouterr().out


def test_show_prints_the_effective_config_as_toml(tmp_path, capsys):
    path = tmp_path / "c.toml"
    path.write_text("model = 'pi5'\n[tags]\n'04a1b2c3' = 'yellow*'\n")
    assert main(["config", "show", "--config", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"# effective config from {path}\n")
    shown = cfg.from_dict(tomllib.loads(out))[0]
    assert shown == cfg.load(path)
    assert shown.model == "pi5" and shown.pins.back == 23  # file merged over defaults
    assert '"04A1B2C3" = "yellow*"' in out


def test_show_of_a_broken_file_lists_the_errors_and_exits_1(tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text("[pins]\nback = 22\n")
    assert main(["config", "show", "--config", str(path)]) == 1
    assert "pins.back: GPIO 22 is also pins.encoder_push" in capsys.readouterr().err


def test_config_without_an_action_is_misuse(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["config"])
    assert exit_.value.code == 2


def test_every_command_reading_the_config_takes_the_one_shared_config_option():
    """``--config`` is defined once (``haleakala.cli.add_config_option``): same name, same
    metavar, and the default it names for installed commands is the one the loader reads."""
    import argparse

    from haleakala.cli import INSTALLED_CONFIG, build_parser

    # The suite points DEFAULT_PATH at a temporary folder; the help names the shipped one.
    shipped = re.search(r'^DEFAULT_PATH = Path\("(.+)"\)$', Path(cfg.__file__).read_text(), re.M)
    assert shipped and f"${cfg.ENV_PATH}, else {shipped[1]}" == INSTALLED_CONFIG
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    seen = []
    pending = list(commands.choices.items())
    while pending:
        name, sub = pending.pop()
        for action in sub._actions:
            if isinstance(action, argparse._SubParsersAction):
                pending += [(f"{name} {n}", p) for n, p in action.choices.items()]
            elif "--config" in action.option_strings:
                assert action.metavar == "PATH" and action.default is None, name
                assert action.help.startswith("config file (default: "), name
                seen.append(name)
    assert {"run", "config check", "tags show", "power", "wiring", "bom"} <= set(seen)


# -- a path that is not a regular file (issue 22, part 4) ---------------------------------


def _not_a_file(kind: str, tmp_path: Path) -> Path:
    if kind == "fifo":
        path = tmp_path / "config.fifo"
        os.mkfifo(path)  # opened for reading, it would wait for a writer forever
        return path
    return Path("/dev/zero") if kind == "device" else tmp_path


NOT_A_FILE = ["fifo", "device", "folder"]


@pytest.mark.parametrize("kind", NOT_A_FILE)
def test_loading_a_config_path_that_is_not_a_regular_file_is_a_config_error(kind, tmp_path):
    path = _not_a_file(kind, tmp_path)
    with pytest.raises(cfg.ConfigError) as caught:
        cfg.load(path)
    assert str(path) in str(caught.value)


@pytest.mark.parametrize("kind", NOT_A_FILE)
def test_run_refuses_a_config_path_that_is_not_a_regular_file_as_config_check_does(kind, tmp_path):
    """In a real process with a deadline: before the fix ``run --config FIFO`` never returned."""
    path = _not_a_file(kind, tmp_path)
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT), "HALEAKALA_STATE_DIR": str(tmp_path)}
    for command in (["run", "--hardware", "sim"], ["config", "check"]):
        done = subprocess.run(
            [sys.executable, "-m", "haleakala", *command, "--config", str(path)],
            capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60,
        )  # fmt: skip
        assert done.returncode == 2, (command, done.stderr)
        assert "Traceback" not in done.stderr and str(path) in done.stderr
