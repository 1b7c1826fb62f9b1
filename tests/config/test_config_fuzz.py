"""Issue 11: a config that ``config check`` passes never crashes the daemon's start-up, and a
config it refuses gets one clean line per problem, never a traceback.

Hypothesis writes config files: mostly well-formed documents whose values wander from the
defaults into the cases that used to crash (``variant = "Base"``, ``current_limit_ma = nan``,
``hold_ms = inf``, a NUL in ``state_dir``, integers too big for a float, values of the wrong
kind, unknown keys, deep nesting), plus raw text (broken syntax, 4,300-digit integers, brackets
nested thousands deep). Each file goes through the real ``haleakala config check`` command
in-process; then the real daemon start-up (``haleakala run --hardware sim --headless``, the
``main`` that systemd runs) is started in-process on the same file up to its ready point and
stopped there: exit 0 for a passing config, exit 2 (no retry) for a refused one.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import logging
import math
import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from haleakala import cli
from haleakala import config as cfg
from haleakala.cli import config as config_cli
from haleakala.companion import daemon as daemon_module
from haleakala.hal.base import ZONES
from haleakala.hal.events import ALL_DISCS

# --------------------------------------------------------------------------- writing TOML


def toml_key(key: str) -> str:
    return toml_value(key)


def toml_value(value: Any) -> str:
    """Any value as TOML, escaping what a basic string cannot hold (so that a NUL reaches
    the checker as ``\\u0000`` instead of being refused by the parser)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        text = json.dumps(value, ensure_ascii=False)
        return text.replace("\x7f", "\\u007f")
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(value)


def toml_document(doc: dict[str, Any]) -> str:
    lines = [f"{toml_key(k)} = {toml_value(v)}" for k, v in doc.items() if not _is_section(v)]
    for name, body in doc.items():
        if _is_section(body):
            lines.append(f"[{toml_key(name)}]")
            lines += [f"{toml_key(k)} = {toml_value(v)}" for k, v in body.items()]
    return "\n".join(lines) + "\n"


def _is_section(value: Any) -> bool:
    return isinstance(value, dict) and value.get("__section__", False) is not False


# --------------------------------------------------------------------------- values

text_chars = st.characters(exclude_categories=("Cs",))
junk = st.recursive(
    st.booleans() | st.integers() | st.floats() | st.text(text_chars, max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=6,
)
"""A value of any kind (and wrong for most keys)."""

huge_ints = st.sampled_from([2**63, -(2**63), 10**400, 10**4000])
odd_floats = st.sampled_from([math.nan, math.inf, -math.inf, 1e308, -0.0, 5e-324])


def mostly(good: st.SearchStrategy, bad: st.SearchStrategy) -> st.SearchStrategy:
    """Nine draws in ten from ``good``: with a dozen keys per file, enough files pass."""
    return st.integers(0, 9).flatmap(lambda roll: good if roll else bad)


def near(default: Any, *others: st.SearchStrategy) -> st.SearchStrategy:
    """Mostly the default or a neighbour (so that many configs pass), else anything."""
    return mostly(st.one_of(st.just(default), *others), st.one_of(huge_ints, odd_floats, junk))


def word(valid: tuple[str, ...]) -> st.SearchStrategy:
    return mostly(
        st.sampled_from(valid),
        st.one_of(
            st.sampled_from(valid).map(str.upper),
            st.sampled_from(valid).map(str.title),
            st.sampled_from(valid).map(lambda w: w + "\x00"),
            st.text(text_chars, max_size=6),
        ),
    )


def sections(root: Path) -> dict[str, st.SearchStrategy]:
    gpio = st.integers(-2, 40)
    state_dirs = mostly(
        st.sampled_from([str(root / "state-a"), str(root / "state-b")]),
        st.one_of(
            st.sampled_from(["state", "", ".", str(root / "nul\x00dir"), str(root / ("x" * 300))]),
            st.text(text_chars, max_size=6).map(lambda t: str(root / "s") + t),
        ),
    )
    return {
        "hardware": word(cfg.HARDWARE),
        "model": word(cfg.MODELS),
        "kit": word(cfg.KITS),
        "variant": word(("base", "tactical")),
        "state_dir": state_dirs,
        "pins": st.fixed_dictionaries(
            {},
            optional={
                **{k: near(getattr(cfg.PinsConfig(), k), gpio) for k in ("back", "beach0")},
                "led_data": near(10, st.sampled_from([18, 12, 2])),
            },
        ),
        "leds": st.fixed_dictionaries(
            {},
            optional={
                "pixels_per_ring": near(12, st.integers(0, 300)),
                "ring_order": near(
                    [0, 1, 2, 3, 4, 5], st.permutations(range(6)), st.lists(st.integers(-1, 7))
                ),
                "pixel_order": word(cfg.PIXEL_ORDERS),
                "brightness": near(0.3, st.floats(-1, 2)),
                "current_limit_ma": near(1800, st.floats(-10, 10_000), st.integers(-5, 6000)),
                "supply_ma": near(4000, st.floats(0, 20_000), st.integers(-5, 9000)),
                "zones": near(
                    {"water": [0, 1]},
                    st.dictionaries(
                        st.sampled_from(ZONES) | st.text(max_size=5),
                        st.lists(st.integers(-1, 30), max_size=4),
                        max_size=4,
                    ),
                ),
                "brightnes": junk,
            },
        ),
        "display": st.fixed_dictionaries(
            {},
            optional={
                "driver": word(cfg.DRIVERS),
                "i2c_port": near(1, st.integers(-1, 300)),
                "address": near(0x3C, st.integers(-1, 0x100)),
                "rotate": near(0, st.integers(-1, 4)),
            },
        ),
        "rfid": st.fixed_dictionaries(
            {},
            optional={
                "port": near("auto", st.text(text_chars, max_size=8), st.just("/dev/tty\x00")),
                "baud": near(115200, st.integers(-1, 10**7)),
            },
        ),
        "inputs": st.fixed_dictionaries(
            {},
            optional={
                "bounce_ms": near(20, st.floats(-1, 300)),
                "hold_ms": near(800, st.floats(-1, 20_000)),
            },
        ),
        "tags": mostly(
            st.permutations([d.name for d in ALL_DISCS]).flatmap(
                lambda names: st.lists(
                    st.binary(min_size=4, max_size=10).map(bytes.hex), unique=True, max_size=12
                ).map(lambda uids: dict(zip(uids, names, strict=False)))
            ),
            st.dictionaries(
                st.one_of(
                    st.binary(min_size=1, max_size=12).map(bytes.hex),
                    st.text(text_chars, max_size=10),
                ),
                st.one_of(
                    st.sampled_from([d.name for d in ALL_DISCS]),
                    st.sampled_from(["Red1", "red0", "red6", "red²", "yellow٣"]),
                    junk,
                ),
                max_size=4,
            ),
        ),
    }


def documents(root: Path) -> st.SearchStrategy[str]:
    parts = sections(root)

    @st.composite
    def structured(draw: st.DrawFn) -> str:
        doc: dict[str, Any] = {}
        for key, strategy in parts.items():
            if draw(st.integers(0, 2)) == 0:  # each key present a third of the time
                value = draw(strategy)
                doc[key] = {"__section__": True, **value} if isinstance(value, dict) else value
        if draw(st.integers(0, 9)) == 0:
            doc[draw(st.sampled_from(["colour", "leds", "Kit", "tags"]))] = draw(junk)
        text = toml_document(doc).replace('"__section__" = true\n', "")
        return text

    raw = st.one_of(
        st.text(text_chars, max_size=40),
        st.integers(10, 5000).map(lambda n: "a = " + "[" * n + "]" * n + "\n"),
        st.integers(10, 5000).map(lambda n: "a = " + "{b = " * n + "}" * n + "\n"),
        st.integers(4290, 4400).map(lambda n: "[leds]\nsupply_ma = " + "9" * n + "\n"),
        st.sampled_from(["[leds\n", "kit = \n", "x = 1\nx = 2\n", "\ufeffkit = 'rfid'\n"]),
    )
    return st.one_of(structured(), structured(), structured(), raw)


# --------------------------------------------------------------------------- the seam


class StartUp:
    """Runs the daemon's real ``main`` in-process up to its ready point, then stops it.

    Patched around it, never inside it: no logging reconfiguration and no signal handlers
    (pytest owns both in this process), and ``Daemon.ready`` tells systemd as usual, then
    asks the loop to stop, so ``run`` returns at once and ``shutdown`` runs for real.
    """

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.readied = 0
        original_ready = daemon_module.Daemon.ready

        def ready_then_stop(daemon: daemon_module.Daemon) -> None:
            original_ready(daemon)
            self.readied += 1
            daemon.stop()

        monkeypatch.setattr(daemon_module, "setup_logging", lambda level="INFO": None)
        # The journal's fsyncs cost milliseconds of disk wait each, thousands of times over;
        # durability has its own tests (test_companion_journal, test_companion_powercut).
        monkeypatch.setattr(os, "fsync", lambda fd: None)
        monkeypatch.setattr(daemon_module.Daemon, "install_signal_handlers", lambda self: None)
        monkeypatch.setattr(daemon_module.Daemon, "ready", ready_then_stop)
        for name in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "HALEAKALA_HARDWARE", cfg.ENV_PATH):
            monkeypatch.delenv(name, raising=False)

    def __call__(self, path: Path) -> int:
        args = argparse.Namespace(
            hardware="sim",
            headless=True,
            config=str(path),
            state_dir=None,
            variant=None,
            seed=7,
            start=None,
            solo=None,
            strength=None,
            snapshot_every=20,
            autoplay=None,
            log_level="WARNING",
        )
        with contextlib.redirect_stderr(io.StringIO()):
            return daemon_module.main(args)


class ErrorLog(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def config_check(path: Path) -> tuple[int, str, str]:
    """``haleakala config check --config PATH``: the command's own function, without
    rebuilding the whole command line parser for every case (test_config_cli covers that)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = config_cli.check(argparse.Namespace(config=str(path)))
    return code, out.getvalue(), err.getvalue()


PROBLEM_LINE = re.compile(r"^(warning: )?(\S+: )?[^\n]+; [^\n]+$")
"""``[warning: ][key: ]what is wrong; what to do`` (the key is absent only for problems
of the whole file: syntax, size, encoding, nesting)."""


@pytest.mark.parametrize("cases", [2000, pytest.param(10_000, marks=pytest.mark.long)])
def test_configs_that_pass_check_start_the_daemon_and_the_rest_fail_in_one_line_each(
    cases: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = Path(tempfile.mkdtemp(prefix="haleakala-config-fuzz-"))
    path = root / "config.toml"
    start = StartUp(monkeypatch)
    errors = ErrorLog()
    logging.getLogger("haleakala").addHandler(errors)
    tally = {"passed": 0, "refused": 0}
    try:

        @settings(
            max_examples=cases,
            deadline=None,
            database=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        )
        @given(documents(root))
        def run(text: str) -> None:
            path.write_text(text, encoding="utf-8")
            code, out, err = config_check(path)
            assert "Traceback" not in out + err
            lines = out.splitlines()
            assert all(PROBLEM_LINE.match(line) for line in lines[:-1] if code == 0), lines
            if code == 0:
                assert lines[-1] == f"config OK: {path}"
                errors.records.clear()
                readied = start.readied
                assert start(path) == daemon_module.EXIT_OK, text
                assert start.readied == readied + 1
                assert not errors.records, [r.getMessage() for r in errors.records]
                tally["passed"] += 1
            else:
                assert code == 1, (code, out, err)
                assert lines and all(PROBLEM_LINE.match(line) for line in lines), lines
                n = sum(not line.startswith("warning: ") for line in lines)
                assert err == f"{path}: {n} {'error' if n == 1 else 'errors'}\n"
                # "build: " lines are the kit's build (the bay, the boards, the harness, the
                # power scheme: issue 36): config check refuses them, the daemon runs on
                # whatever hardware the config describes.
                kit_only = all(line.startswith(("build: ", "warning: ")) for line in lines)
                refused = daemon_module.EXIT_OK if kit_only else daemon_module.EXIT_CONFIG
                assert start(path) == refused, text
                tally["refused"] += 1

        run()
    finally:
        logging.getLogger("haleakala").removeHandler(errors)
        shutil.rmtree(root, ignore_errors=True)
    print(f"config fuzz: {tally}")
    # Both sides of the check were really exercised, not only the refusals.
    assert tally["passed"] >= cases // 20 and tally["refused"] >= cases // 5, tally


@pytest.mark.parametrize(
    ("text", "key", "words"),
    [
        ('variant = "Base"', "variant", "did you mean 'base'? (the case matters)"),
        ('kit = "RFID"', "kit", "did you mean 'rfid'? (the case matters)"),
        ("[leds]\ncurrent_limit_ma = nan", "leds.current_limit_ma", "nan is not a finite"),
        ("[inputs]\nhold_ms = inf", "inputs.hold_ms", "inf is not a finite number"),
        ("[inputs]\nhold_ms = 60000", "inputs.hold_ms", "undo could never be reached"),
        ('state_dir = "/var/lib/hale\\u0000akala"', "state_dir", "control character '\\x00'"),
        ('state_dir = "state"', "state_dir", "write an absolute path"),
        ("[leds]\nsupply_ma = " + "9" * 400, "leds.supply_ma", "is not a finite number"),
        ("[display]\ni2c_port = 99999", "display.i2c_port", "not a bus number 0..255"),
        ("[rfid]\nbaud = 99999999", "rfid.baud", "is outside 300..4000000"),
        ('[tags]\n"E0040150A1B2C3D4" = "red0"', "tags.E0040150A1B2C3D4", "write it as 'red*'"),
    ],
)
def test_the_inputs_that_crashed_the_daemon_are_named_with_their_fix(text, key, words):
    problems = cfg.check_text(text)
    assert [p.key for p in cfg.errors(problems)] == [key]
    assert words in str(problems[0])


@pytest.mark.parametrize(
    "text",
    [
        "a = " + "[" * 3000 + "]" * 3000,
        "a = " + "{b = " * 3000 + "}" * 3000,
        "[leds]\nzones = " + "[" * 9 + "]" * 9,
    ],
)
def test_deep_nesting_is_a_sentence_not_a_recursion_error(text):
    [problem] = cfg.check_text(text)
    assert str(problem) == (
        "tables or arrays nest more than 8 levels deep; a config nests at most 4 "
        "([leds.zones] lists): remove the extra brackets"
    )


def test_an_endless_file_is_refused_after_64_kib(tmp_path, capsys, monkeypatch):
    """``--config /dev/zero`` used to read until MemoryError."""
    assert cli.main(["config", "check", "--config", "/dev/zero"]) == 2
    assert capsys.readouterr().err == "haleakala config: /dev/zero is not a file\n"
    [problem] = cfg.check("/dev/zero")
    # Refused before a byte is read (not a regular file, as ``config check`` says); a regular
    # file is still read only up to the cap (below).
    assert str(problem) == (
        "/dev/zero is not a regular file; name the config file itself (a pipe, a device or "
        "a folder is none)"
    )
    with pytest.raises(cfg.ConfigError, match="not a regular file"):
        cfg.load("/dev/zero")
    assert StartUp(monkeypatch)(Path("/dev/zero")) == daemon_module.EXIT_CONFIG
    big = tmp_path / "big.toml"
    big.write_text("# padding\n" * 7000)
    assert [p.message for p in cfg.check(big)] == [f"{big} is larger than 64 KiB"]


@pytest.mark.parametrize("key", ["brightness", "current_limit_ma", "supply_ma"])
def test_a_config_built_in_code_with_nan_fails_the_check_instead_of_the_daemon(key):
    from dataclasses import replace

    config = replace(cfg.Config(), leds=replace(cfg.Config().leds, **{key: math.nan}))
    assert [p.key for p in cfg.check(config)] == [f"leds.{key}"]
